//! A panel's book experiments, one click each, run through the registry
//! (`workbench::experiments`) as the logged `experiment` job — the same code path as
//! `tianwang experiment run ID` — with the figures shown as rows, ours beside the book's,
//! and the verdict the registry gives (within the tolerance, the book's shape holds, or no
//! book number). An experiment whose data set is missing shows the data card
//! ([`super::data_card`]) and its button is disabled; once the card's download or import has
//! installed the set, the experiments that waited for it run.
//!
//! ```text
//! 书中实验
//! 表 11-2：kNN 与朴素贝叶斯  table-11-2  [L4250]  [运行]
//!   kNN micro-F1   0.8123   0.8266      符合（书中的形状成立）
//! ```

use std::collections::HashMap;

use egui::{RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::data_card::DataCard;
use super::job_watch::{Finished, JobWatch};
use super::panel::Cx;
use super::task::Task;
use crate::engine::data::DataDir;
use crate::engine::jobs::TypedJob;
use crate::workbench::experiments::{
    self, Basis, Experiment, ExperimentJob, ExperimentParams, Label, Row, RunOutcome,
};

/// Which set each experiment of a panel still lacks (`None`: runnable).
type Missing = HashMap<&'static str, Option<&'static str>>;

/// The book experiments of one panel: what is missing, the run in flight, the outcomes.
#[derive(Default)]
pub(crate) struct BookRuns {
    /// The data folder the missing sets were checked in, and what they were.
    missing: Option<(DataDir, Missing)>,
    missing_task: Option<Task<(DataDir, Missing)>>,
    watches: Vec<JobWatch<ExperimentJob>>,
    /// Open the section in the next frame (a run was started or has ended).
    reveal: bool,
    /// The last finished job seen (a download or import elsewhere changes what is missing).
    seen_finished: Option<i64>,
    outcomes: HashMap<String, RunOutcome>,
    cards: HashMap<&'static str, DataCard>,
    error: Option<String>,
}

/// An experiment's title in the UI's language (`exp.ID`), else the registry's.
pub(crate) fn title(lang: Lang, e: &Experiment) -> String {
    lang.t_or(&format!("exp.{}", e.id), e.title)
}

/// A figure as the table shows it: 4 significant digits for a number.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), fmt_num),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn fmt_num(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e9 {
        format!("{x:.0}")
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{:.4}", x)
    }
}

impl BookRuns {
    /// Is an experiment of this panel running?
    pub fn is_running(&self) -> bool {
        self.watches.iter().any(JobWatch::is_running)
    }

    /// Start experiments `ids` as one job on the app's data folder.
    pub fn start(&mut self, cx: &mut Cx<'_>, ids: Vec<String>) {
        let lang = cx.lang;
        self.error = None;
        let Some(data) = cx.hub.data.as_ref() else {
            self.error = Some(lang.t("data.no_folder").into());
            return;
        };
        let job = ExperimentJob::from_params(ExperimentParams {
            ids,
            data_dir: data.root().to_path_buf(),
        });
        match job {
            Ok(j) => match JobWatch::start(cx, j) {
                Some(w) => {
                    self.watches.push(w);
                    self.reveal = true;
                }
                None => self.error = Some(lang.t("card.need_workspace").into()),
            },
            Err(e) => self.error = Some(lang.error(&e)),
        }
    }

    fn poll(&mut self, cx: &Cx<'_>, ctx: &egui::Context, panel: &'static str) {
        let lang = cx.lang;
        let stale = match (&self.missing, cx.hub.data.as_ref()) {
            (Some((d, _)), Some(now)) => d != now,
            (None, Some(_)) => true,
            _ => false,
        };
        // A data set installed anywhere (the Overview, another panel's card) is seen here.
        let last = cx.hub.last_finished.as_ref();
        let data_job = last.is_some_and(|j| j.kind == "data-fetch" || j.kind == "data-import");
        let last_id = last.and_then(|j| j.id);
        let installed_elsewhere = data_job && last_id != self.seen_finished;
        self.seen_finished = last_id;
        if (stale || installed_elsewhere) && self.missing_task.is_none() {
            self.check_missing(ctx, cx.hub.data.clone(), panel);
        }
        if let Some(Ok(m)) = Task::take_finished(&mut self.missing_task) {
            // A set an experiment needs is missing: its card shows.
            self.reveal |= m.1.values().any(Option::is_some);
            self.missing = Some(m);
        }
        let mut ended = Vec::new();
        self.watches.retain(|w| match w.outcome() {
            Some(end) => {
                ended.push(end);
                false
            }
            None => true,
        });
        for end in ended {
            self.reveal = true;
            match end.outcome {
                Finished::Done(out) => {
                    let lacked = out.runs.iter().any(|r| r.not_started);
                    for r in out.runs {
                        self.outcomes.insert(r.id.clone(), r);
                    }
                    if lacked {
                        self.check_missing(ctx, cx.hub.data.clone(), panel);
                    }
                }
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => {}
            }
        }
    }

    /// Which sets the panel's experiments lack, checked off the UI thread (a `stat` per file).
    fn check_missing(&mut self, ctx: &egui::Context, data: Option<DataDir>, panel: &'static str) {
        let Some(data) = data else { return };
        self.missing_task = Some(Task::spawn(ctx, move || {
            let m = experiments::of_panel(panel)
                .into_iter()
                .map(|e| (e.id, experiments::missing(e, &data)))
                .collect();
            (data, m)
        }));
    }

    /// Draw the panel's book experiments (those the registry gives panel id `panel`).
    pub fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui, panel: &'static str) {
        let exps = experiments::of_panel(panel);
        if exps.is_empty() {
            return;
        }
        self.poll(cx, ui.ctx(), panel);
        let lang = cx.lang;
        let lacking = self
            .missing
            .as_ref()
            .is_some_and(|(_, m)| m.values().any(Option::is_some));
        let reveal = std::mem::take(&mut self.reveal);
        egui::CollapsingHeader::new(
            RichText::new(lang.tf("book.title_n", &[&exps.len()]))
                .size(17.0)
                .strong(),
        )
        .id_salt(("book_runs", panel))
        .default_open(lacking)
        .open(reveal.then_some(true))
        .show(ui, |ui| self.body(cx, ui, panel, &exps));
    }

    fn body(&mut self, cx: &mut Cx<'_>, ui: &mut Ui, panel: &'static str, exps: &[&Experiment]) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("book.intro")).weak());
        let running = self.is_running();
        let mut start: Option<Vec<String>> = None;
        let mut recheck = false;
        let mut cards_shown: Vec<&'static str> = Vec::new();
        let mut installed: Vec<&'static str> = Vec::new();
        for e in exps {
            let lacks = self
                .missing
                .as_ref()
                .and_then(|(_, m)| m.get(e.id).copied().flatten());
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(title(lang, e)).strong());
                ui.label(RichText::new(e.id).monospace().weak());
                ui.label(RichText::new(e.book_ref).weak());
                let label = lang.tf("book.run", &[&e.id]);
                let b = ui.add_enabled(
                    !running && lacks.is_none() && self.missing.is_some(),
                    egui::Button::new(label),
                );
                if b.clicked() {
                    start = Some(vec![e.id.to_string()]);
                }
            });
            if let Some(set) = lacks {
                if !cards_shown.contains(&set) {
                    cards_shown.push(set);
                    if self.cards.entry(set).or_default().ui(cx, ui, set) {
                        // Installed: what waited for it runs now.
                        recheck = true;
                        installed.push(set);
                    }
                } else {
                    ui.label(RichText::new(lang.tf("book.needs_above", &[&set])).weak());
                }
            }
            if let Some(o) = self.outcomes.get(e.id) {
                outcome_ui(ui, lang, e.id, o);
            }
        }
        if exps.len() > 1 {
            let runnable: Vec<String> = exps
                .iter()
                .filter(|e| {
                    self.missing
                        .as_ref()
                        .is_some_and(|(_, m)| m.get(e.id).copied().flatten().is_none())
                })
                .map(|e| e.id.to_string())
                .collect();
            if ui
                .add_enabled(
                    !running && !runnable.is_empty(),
                    egui::Button::new(lang.t("book.run_all")),
                )
                .clicked()
            {
                start = Some(runnable);
            }
        }
        for w in self.watches.iter().filter(|w| w.is_running()) {
            ui.horizontal(|ui| w.progress_row(ui, lang, lang.t("card.cancel")));
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if recheck {
            self.check_missing(ui.ctx(), cx.hub.data.clone(), panel);
        }
        if !installed.is_empty() && !running {
            let waiting: Vec<String> = exps
                .iter()
                .filter(|e| e.needs.iter().any(|n| installed.contains(n)))
                .map(|e| e.id.to_string())
                .collect();
            start = Some(waiting);
        }
        if let Some(ids) = start {
            self.start(cx, ids);
        }
    }
}

/// One run's rows (ours beside the book's, the verdict and its basis) or its error.
fn outcome_ui(ui: &mut Ui, lang: Lang, id: &str, o: &RunOutcome) {
    if let Some(code) = o.code() {
        ui.colored_label(ui.visuals().error_fg_color, lang.error_code(&code));
        return;
    }
    if o.error.is_some() {
        ui.colored_label(ui.visuals().error_fg_color, lang.t("book.failed"));
        return;
    }
    let verdict = if o.ok {
        "book.all_ok"
    } else {
        "book.not_all_ok"
    };
    ui.label(lang.tf(verdict, &[&format!("{:.1}", o.seconds)]));
    egui::Grid::new(("book_rows", id))
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            for h in [
                "book.col_name",
                "book.col_ours",
                "book.col_book",
                "book.col_unit",
            ] {
                ui.label(RichText::new(lang.t(h)).strong());
            }
            ui.label(RichText::new(lang.t("book.col_ok")).strong());
            ui.end_row();
            for r in &o.rows {
                row_ui(ui, lang, r);
            }
        });
}

/// A row's label in the UI's language: the table's template for its key with its arguments,
/// else the registry's English (a key the tables lack; a test keeps that from happening).
pub(crate) fn said(lang: Lang, label: &Label, english: &str) -> String {
    lang.t_dyn(&label.key)
        .map_or_else(|| english.to_string(), |t| label.fill(t))
}

fn row_ui(ui: &mut Ui, lang: Lang, r: &Row) {
    let name = ui.label(said(lang, &r.label, &r.name));
    if let (Some(note), Some(label)) = (&r.note, &r.note_label) {
        name.on_hover_text(said(lang, label, note));
    }
    ui.label(cell(&r.ours));
    ui.label(cell(&r.book));
    ui.label(
        r.unit_label
            .as_ref()
            .map_or_else(|| r.unit.clone(), |l| said(lang, l, &r.unit)),
    );
    let basis = match r.basis {
        Basis::Tolerance => lang.tf(
            "book.basis_tolerance",
            &[&r.tolerance.map_or_else(|| "—".into(), fmt_num)],
        ),
        Basis::Shape => lang.t("book.basis_shape").to_string(),
        Basis::None => lang.t("book.basis_none").to_string(),
    };
    let mark = lang.t(if r.ok { "book.yes" } else { "book.no" });
    let text = RichText::new(format!("{mark}（{basis}）"));
    if r.ok {
        ui.label(text);
    } else {
        ui.colored_label(ui.visuals().error_fg_color, text);
    }
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_the_table_shows_them() {
        assert_eq!(cell(&Value::Null), "—");
        assert_eq!(cell(&serde_json::json!(10.0)), "10");
        assert_eq!(cell(&serde_json::json!(0.82661)), "0.8266");
        assert_eq!(cell(&serde_json::json!(265.75)), "265.8");
        assert_eq!(cell(&serde_json::json!("他/说")), "他/说");
    }

    /// What of `r` the tables do not say: a label whose key either table lacks, or whose
    /// English template filled with the arguments is not the registry's English text.
    pub(crate) fn unsaid(r: &Row) -> Vec<String> {
        let mut texts = vec![(&r.label, &r.name)];
        texts.extend(r.note_label.as_ref().zip(r.note.as_ref()));
        texts.extend(r.unit_label.as_ref().map(|l| (l, &r.unit)));
        let mut out = Vec::new();
        for (label, english) in texts {
            match (Lang::En.t_dyn(&label.key), Lang::Zh.t_dyn(&label.key)) {
                (Some(en), Some(_)) if label.fill(en) == *english => {}
                (Some(en), Some(_)) => {
                    out.push(format!("{}: en.txt says `{}`", english, label.fill(en)))
                }
                _ => out.push(format!("{english}: no `{}` in both tables", label.key)),
            }
        }
        out
    }

    #[test]
    fn the_rows_of_the_data_free_experiments_are_said_in_both_languages() {
        // The quick ones (the sample web's dedup and the generated logs are covered, with
        // every other experiment, by `tests/experiment.rs` on the real data).
        let data = DataDir::new(std::env::temp_dir().join("tw-book-runs-nodata"));
        let cache = experiments::Cache::default();
        let quick = [
            "capacity-model",
            "fmm-rmm-examples",
            "table-6-3",
            "hosts-moved-on-join",
            "table-8-1",
            "table-8-2",
            "bytecode-golomb",
            "table-10-2",
            "table-10-3",
            "query-data-model",
        ];
        let mut unsaid_rows = Vec::new();
        for id in quick {
            let e = experiments::find(id).expect("registered");
            assert!(e.needs.is_empty(), "{id} needs data");
            let run = experiments::run_one(e, &data, &cache, &());
            assert!(run.error.is_none() && !run.rows.is_empty(), "{id}: {run:?}");
            unsaid_rows.extend(run.rows.iter().flat_map(unsaid));
        }
        assert!(unsaid_rows.is_empty(), "{unsaid_rows:#?}");
        // The check can fail: a row the tables do not know.
        let odd = Row::ours("a row nobody translated 7", 1.0, "widgets");
        assert_eq!(unsaid(&odd).len(), 2, "{:?}", unsaid(&odd));
        assert_eq!(
            said(
                Lang::Zh,
                &Row::ours("LRU hit ratio at 500", 0.5, "").label,
                "x"
            ),
            "容量 500 时的 LRU 命中率"
        );
    }

    #[test]
    fn every_experiment_has_a_title_in_both_languages() {
        for e in experiments::all() {
            for lang in [Lang::Zh, Lang::En] {
                assert!(
                    lang.t_dyn(&format!("exp.{}", e.id)).is_some(),
                    "no exp.{} in the {lang:?} table",
                    e.id
                );
            }
        }
    }
}
