//! The evaluation and comparison tabs (book ch. 10.4 [L3924–L3982]): two ranking
//! configurations A and B (as `key=value` specs, the CLI's `--config`) run over a query set —
//! the built-in THUCNews titles experiment (dev.txt as the corpus, every 20th test.txt title
//! as a query, same class = relevant; rank_bm25 reaches P@10 = 0.583) or a queries file and a
//! qrels file against the workspace's index — with P@10, MAP and nDCG@10 as bars per
//! configuration, per-query wins and losses, and the paired t-test. **Compare** runs one query
//! under A and B side by side with who moved (`rank::eval::ranking_diff`). Everything runs in
//! [`Task`]s.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, HLine, Legend, Plot};

use super::super::Lang;
use super::super::task::Task;
use crate::engine::index::build::{IndexConfig, build};
use crate::engine::index::evaluate::{run_configs, thucnews_queries};
use crate::engine::index::score::RankConfig;
use crate::engine::index::search::{SearchOptions, Searcher};
use crate::engine::index::source::Source;
use crate::engine::rank::eval::{
    self, Comparison, EvalConfig, Metric, Move, RunEval, read_qrels, read_queries,
};

/// Both evaluations and their comparison.
pub(super) struct EvalOutcome {
    pub a: (String, RunEval),
    pub b: (String, RunEval),
    pub cmp: Comparison,
}

/// One query under A and B.
pub(super) struct CompareOutcome {
    pub a: Vec<(String, String)>,
    pub b: Vec<(String, String)>,
    pub moves: Vec<Move>,
}

pub(super) struct EvalTab {
    pub spec_a: String,
    pub spec_b: String,
    pub builtin: bool,
    pub queries: String,
    pub qrels: String,
    task: Option<Task<Result<EvalOutcome, String>>>,
    pub outcome: Option<EvalOutcome>,
    pub query: String,
    cmp_task: Option<Task<Result<CompareOutcome, String>>>,
    pub compared: Option<CompareOutcome>,
    error: Option<String>,
    /// The app's data folder (where the THUCNews titles are).
    pub data: Option<crate::engine::data::DataDir>,
}

impl Default for EvalTab {
    fn default() -> Self {
        EvalTab {
            spec_a: "model=bm25,k1=1.2,b=0.75,op=or".into(),
            spec_b: "model=tfidf,op=or".into(),
            builtin: true,
            queries: String::new(),
            qrels: String::new(),
            task: None,
            outcome: None,
            query: String::new(),
            cmp_task: None,
            compared: None,
            error: None,
            data: None,
        }
    }
}

/// The THUCNews titles in the app's data folder (`engine::data`), or `MissingData`.
fn thucnews_dir(
    data: Option<&crate::engine::data::DataDir>,
) -> Result<PathBuf, crate::engine::error::EngineError> {
    data.ok_or(crate::engine::error::EngineError::MissingData {
        set: "thucnews_titles".into(),
    })?
    .require("thucnews_titles")
}

/// The THUCNews dev-titles index, built once into the temp folder under a name keyed by what
/// it was built from (the file, its size and time, the configuration): a changed file or
/// build configuration makes a new index instead of reusing one built from something else.
fn thucnews_searcher(lang: Lang, dir: &Path) -> Result<Searcher, String> {
    let dev = dir.join("dev.txt");
    let cfg = IndexConfig::default();
    let stamp = std::fs::metadata(&dev)
        .map(|m| format!("{} {:?}", m.len(), m.modified().ok()))
        .unwrap_or_default();
    let from = format!(
        "{} {stamp} {} v{}",
        dev.display(),
        serde_json::to_string(&cfg).unwrap_or_default(),
        crate::engine::index::disk::FORMAT_VERSION
    );
    let dir = std::env::temp_dir().join(format!(
        "tianwang-thucnews-dev-{}.index",
        crate::engine::store::key_of(&from)
    ));
    if let Ok(s) = Searcher::open(&dir) {
        return Ok(s);
    }
    let src = Source::Tsv { path: dev };
    build(&src, None, &dir, &cfg, &()).map_err(|e| lang.error(&e))?;
    Searcher::open(&dir).map_err(|e| lang.error(&e))
}

fn specs(lang: Lang, a: &str, b: &str) -> Result<(RankConfig, RankConfig), String> {
    let pa = RankConfig::parse_spec(a).map_err(|e| format!("A: {}", lang.error(&e)))?;
    let pb = RankConfig::parse_spec(b).map_err(|e| format!("B: {}", lang.error(&e)))?;
    Ok((pa, pb))
}

impl EvalTab {
    fn busy(&self) -> bool {
        self.task.is_some() || self.cmp_task.is_some()
    }

    fn poll(&mut self) {
        if let Some(r) = Task::take_result(&mut self.task) {
            match r {
                Ok(o) => self.outcome = Some(o),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = Task::take_result(&mut self.cmp_task) {
            match r {
                Ok(o) => self.compared = Some(o),
                Err(e) => self.error = Some(e),
            }
        }
    }

    fn start_eval(&mut self, lang: Lang, ctx: &egui::Context, ws_searcher: Option<Arc<Searcher>>) {
        self.error = None;
        let (a, b) = match specs(lang, &self.spec_a, &self.spec_b) {
            Ok(x) => x,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let builtin = self.builtin;
        let data = self.data.clone();
        let (qf, rf) = (
            self.queries.trim().to_string(),
            self.qrels.trim().to_string(),
        );
        self.task = Some(Task::spawn(ctx, move || {
            let err = |e: crate::engine::error::EngineError| lang.error(&e);
            let (searcher, queries, qrels) = if builtin {
                let d = thucnews_dir(data.as_ref()).map_err(err)?;
                let (q, r) =
                    thucnews_queries(&d.join("dev.txt"), &d.join("test.txt"), 20).map_err(err)?;
                (Arc::new(thucnews_searcher(lang, &d)?), q, r)
            } else {
                let s = ws_searcher.ok_or(lang.t("search.no_index"))?;
                let q = read_queries(std::path::Path::new(&qf)).map_err(err)?;
                let r = read_qrels(std::path::Path::new(&rf)).map_err(err)?;
                (s, q, r)
            };
            let runs = run_configs(&searcher, &queries, &[a, b], 100, &()).map_err(err)?;
            let cfg = EvalConfig::default();
            let mut evals = Vec::new();
            for (label, run) in runs {
                evals.push((label, eval::evaluate(&run, &qrels, &cfg).map_err(err)?));
            }
            let b = evals.pop().ok_or("no run B")?;
            let a = evals.pop().ok_or("no run A")?;
            let cmp = eval::compare(&a.1, &b.1, Metric::P).map_err(err)?;
            Ok(EvalOutcome { a, b, cmp })
        }));
    }

    fn start_compare(&mut self, lang: Lang, ctx: &egui::Context, searcher: Arc<Searcher>) {
        self.error = None;
        let (a, b) = match specs(lang, &self.spec_a, &self.spec_b) {
            Ok(x) => x,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let q = self.query.clone();
        self.cmp_task = Some(Task::spawn(ctx, move || {
            let opt = SearchOptions {
                top: 20,
                explain: false,
                abstracts: false,
                ..SearchOptions::default()
            };
            let ra = searcher.search(&q, &a, &opt).map_err(|e| lang.error(&e))?;
            let rb = searcher.search(&q, &b, &opt).map_err(|e| lang.error(&e))?;
            let list = |r: &crate::engine::index::search::SearchResult| -> Vec<(String, String)> {
                r.hits
                    .iter()
                    .map(|h| (h.doc.clone(), h.title.clone()))
                    .collect()
            };
            let (la, lb) = (list(&ra), list(&rb));
            let ka: Vec<String> = la.iter().map(|x| x.0.clone()).collect();
            let kb: Vec<String> = lb.iter().map(|x| x.0.clone()).collect();
            Ok(CompareOutcome {
                moves: eval::ranking_diff(&ka, &kb),
                a: la,
                b: lb,
            })
        }));
    }

    fn specs_ui(&mut self, lang: Lang, ui: &mut Ui) {
        for (key, spec) in [
            ("search.config_a", &mut self.spec_a),
            ("search.config_b", &mut self.spec_b),
        ] {
            ui.horizontal(|ui| {
                let l = ui.label(lang.t(key));
                ui.add(egui::TextEdit::singleline(spec).desired_width(420.0))
                    .labelled_by(l.id);
            });
        }
        ui.label(RichText::new(lang.t("search.config_help")).weak());
    }

    /// The evaluation tab.
    pub fn eval_ui(&mut self, lang: Lang, ui: &mut Ui, searcher: Option<Arc<Searcher>>) {
        self.poll();
        self.specs_ui(lang, ui);
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut self.builtin, true, lang.t("search.eval_builtin"));
            ui.radio_value(&mut self.builtin, false, lang.t("search.eval_files"));
        });
        if !self.builtin {
            for (key, path) in [
                ("search.eval_queries", &mut self.queries),
                ("search.eval_qrels", &mut self.qrels),
            ] {
                ui.horizontal(|ui| {
                    let l = ui.label(lang.t(key));
                    ui.add(egui::TextEdit::singleline(path).desired_width(420.0))
                        .labelled_by(l.id);
                });
            }
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.busy(), egui::Button::new(lang.t("search.eval_run")))
                .clicked()
            {
                self.start_eval(lang, ui.ctx(), searcher.clone());
            }
            if self.task.is_some() {
                ui.spinner();
                ui.label(lang.t("search.eval_running"));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let Some(o) = &self.outcome else {
            return;
        };
        let rows = [
            ("P@10", o.a.1.mean.p_at, o.b.1.mean.p_at),
            ("MAP", o.a.1.mean.ap, o.b.1.mean.ap),
            ("nDCG@10", o.a.1.mean.ndcg_at, o.b.1.mean.ndcg_at),
        ];
        egui::Grid::new("search_eval_means")
            .striped(true)
            .show(ui, |ui| {
                ui.label(RichText::new(lang.t("search.eval_metric")).strong());
                ui.label(RichText::new(format!("A: {}", o.a.0)).strong());
                ui.label(RichText::new(format!("B: {}", o.b.0)).strong());
                ui.end_row();
                for (m, a, b) in rows {
                    ui.label(m);
                    ui.label(format!("{a:.4}"));
                    ui.label(format!("{b:.4}"));
                    ui.end_row();
                }
            });
        ui.label(lang.tf(
            "search.eval_duel",
            &[&o.a.1.queries, &o.cmp.wins, &o.cmp.losses, &o.cmp.ties],
        ));
        if let Some(t) = &o.cmp.t_test {
            ui.label(RichText::new(&t.verdict).strong());
        }
        let bars = |x0: f64, which: usize, name: &str| {
            let v: Vec<Bar> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    Bar::new(i as f64 + x0, if which == 0 { r.1 } else { r.2 })
                        .width(0.35)
                        .name(r.0)
                })
                .collect();
            BarChart::new(name.to_string(), v)
        };
        Plot::new("search_eval_bars")
            .height(240.0)
            .legend(Legend::default())
            .x_axis_label(lang.t("search.eval_axis_x"))
            .y_axis_label(lang.t("search.eval_axis_y"))
            .include_y(0.0)
            .include_y(1.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .x_axis_formatter(|m, _| match m.value.round() as i64 {
                0 => "P@10".into(),
                1 => "MAP".into(),
                2 => "nDCG@10".into(),
                _ => String::new(),
            })
            .show(ui, |p| {
                p.bar_chart(bars(-0.18, 0, "A"));
                p.bar_chart(bars(0.18, 1, "B"));
                p.hline(HLine::new(lang.t("search.eval_rank_bm25"), 0.583));
            });
    }

    /// The comparison tab: one query, A beside B.
    pub fn compare_ui(&mut self, lang: Lang, ui: &mut Ui, searcher: Option<Arc<Searcher>>) {
        self.poll();
        self.specs_ui(lang, ui);
        ui.horizontal(|ui| {
            let l = ui.label(lang.t("search.query"));
            ui.add(egui::TextEdit::singleline(&mut self.query).desired_width(300.0))
                .labelled_by(l.id);
            let can = !self.busy() && searcher.is_some() && !self.query.trim().is_empty();
            if ui
                .add_enabled(can, egui::Button::new(lang.t("search.compare_run")))
                .clicked()
                && let Some(s) = searcher.clone()
            {
                self.start_compare(lang, ui.ctx(), s);
            }
            if self.cmp_task.is_some() {
                ui.spinner();
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let Some(c) = &self.compared else {
            return;
        };
        let changes = |k: &str| c.moves.iter().filter(|m| m.change == k).count();
        ui.label(lang.tf(
            "search.compare_summary",
            &[
                &changes("up"),
                &changes("down"),
                &changes("same"),
                &changes("new"),
                &changes("lost"),
            ],
        ));
        ui.columns(2, |cols| {
            for (col, (name, list)) in cols.iter_mut().zip([("A", &c.a), ("B", &c.b)]) {
                col.label(RichText::new(name).strong());
                for (i, (doc, title)) in list.iter().enumerate() {
                    let mark = if name == "B" {
                        c.moves
                            .iter()
                            .find(|m| &m.doc == doc)
                            .map_or(String::new(), |m| match m.change.as_str() {
                                "up" => format!("↑{}", m.delta),
                                "down" => format!("↓{}", -m.delta),
                                "new" => lang.t("search.move_new").to_string(),
                                _ => "=".into(),
                            })
                    } else {
                        String::new()
                    };
                    col.label(format!(
                        "{}. {mark} {}",
                        i + 1,
                        if title.is_empty() { doc } else { title }
                    ));
                }
            }
        });
    }
}
