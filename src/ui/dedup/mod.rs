//! Dedup comparison (网页消重), book §7.2 [L2496–L2640] and the four dedup texts: pick a corpus
//! (the sample web with its truth, the development set of real reprints, the workspace's
//! pages, a folder), raw page text or the DocView body, methods and every parameter; run one
//! method or all of them as a logged job (`dedup`). Tabs: the comparison beside the book's
//! Tables 7-3 to 7-6 with the overlap of what each method found; sweeps (recall against N as in
//! Fig 7-10, SimHash k and MinHash threshold as P/R curves); clusters; the pair view (shared
//! keywords, shingles, full-stop signatures, SimHash bits, every method's verdict and reason);
//! the SimHash stepper; the seed-002 hash-collision bench. The book's experiments are one click
//! each.
//!
//! Jobs compute; [`Task`]s load the corpus, the per-method pairs (`job_details`) and the pair
//! explanation. Nothing heavy runs on the UI thread.

use std::sync::Arc;

use egui::{Color32, RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::panel::{Cx, LabPanel, logged};
use super::task::Task;
use crate::engine::dedup::corpus::{Corpus, Input};
use crate::engine::dedup::eval::CompareRow;
use crate::engine::dedup::job::{DedupJob, DedupParams, MethodPairs, PAIRS_DETAIL};
use crate::engine::dedup::pair::PairView;
use crate::engine::dedup::report::{DevKind, Source, SweepPoint, SweepSpec};
use crate::engine::dedup::{Config, Method};
use crate::engine::jobs::TypedJob;
use crate::ui::job_watch::{Finished, JobWatch, JobWatches};

mod pairs;
mod sweeps;
mod table;
mod teach;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Src {
    #[default]
    Sample,
    Devset,
    Workspace,
    Folder,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tab {
    #[default]
    Compare,
    Sweeps,
    Clusters,
    Pair,
    SimHash,
    Hashes,
}

/// The form: corpus, cleaning, methods, every parameter as text (validated by the engine).
#[derive(Debug, Clone)]
struct Form {
    src: Src,
    folder: String,
    /// The shared data folder a development set is built from (the app never looks for it).
    data: String,
    /// The harder set (boilerplate, hard negatives) rather than issue 10's reprints.
    hard: bool,
    input: Input,
    clean: bool,
    methods: Vec<bool>,
    params: Vec<(&'static str, String)>,
    /// Where the grouping runs (native, DataFusion, Spark).
    engine: crate::engine::exec::EngineConfig,
}

fn param_texts(cfg: &Config) -> Vec<(&'static str, String)> {
    let v = cfg.to_json();
    Config::NAMES
        .iter()
        .map(|&n| {
            let s = match &v[n] {
                Value::String(s) => s.clone(),
                x => x.to_string(),
            };
            (n, s)
        })
        .collect()
}

impl Default for Form {
    fn default() -> Self {
        Form {
            src: Src::Sample,
            folder: String::new(),
            data: String::new(),
            hard: true,
            input: Input::Auto,
            clean: true,
            methods: Method::ALL.iter().map(|_| true).collect(),
            params: param_texts(&Config::default()),
            engine: crate::engine::exec::EngineConfig::default(),
        }
    }
}

impl Form {
    fn source(&self) -> Result<Source, String> {
        Ok(match self.src {
            Src::Sample => Source::Sample { clean: self.clean },
            Src::Devset => self.devset(),
            Src::Workspace => Source::Workspace { clean: self.clean },
            Src::Folder => {
                if self.folder.trim().is_empty() {
                    return Err("folder".into());
                }
                if self.folder.trim().ends_with(".parquet") {
                    return Ok(Source::Parquet {
                        path: self.folder.trim().into(),
                    });
                }
                Source::Dir {
                    path: self.folder.trim().into(),
                    input: self.input,
                    clean: self.clean,
                }
            }
        })
    }

    /// The development set the form names (its data folder may be empty: the job says so).
    fn devset(&self) -> Source {
        Source::Devset {
            seed: 7,
            data: self.data.trim().into(),
            set: if self.hard {
                DevKind::Hard
            } else {
                DevKind::Reprints
            },
            part: crate::engine::dedup::hardset::Part::Check,
        }
    }

    fn config(&self, lang: Lang) -> Result<Config, String> {
        let mut c = Config::default();
        for (k, v) in &self.params {
            c.set(k, v).map_err(|e| lang.error(&e))?;
        }
        Ok(c)
    }

    fn chosen(&self) -> Vec<String> {
        Method::ALL
            .iter()
            .zip(&self.methods)
            .filter(|(_, on)| **on)
            .map(|(m, _)| m.name())
            .collect()
    }

    fn set(&mut self, p: &DedupParams) {
        self.engine = p.engine.clone();
        match &p.source {
            Source::Sample { clean } => {
                self.src = Src::Sample;
                self.clean = *clean;
            }
            Source::Devset { data, set, .. } => {
                self.src = Src::Devset;
                self.data = data.display().to_string();
                self.hard = *set == DevKind::Hard;
            }
            Source::Workspace { clean } => {
                self.src = Src::Workspace;
                self.clean = *clean;
            }
            Source::Parquet { path } => {
                self.src = Src::Folder;
                self.folder = path.display().to_string();
            }
            Source::Dir { path, input, clean } => {
                self.src = Src::Folder;
                self.folder = path.display().to_string();
                self.input = *input;
                self.clean = *clean;
            }
        }
        let all = p.methods.iter().any(|m| m == "all");
        self.methods = Method::ALL
            .iter()
            .map(|m| all || p.methods.contains(&m.name()))
            .collect();
        self.params = param_texts(&p.config);
    }
}

/// A corpus with the source it was loaded from.
type LoadedCorpus = (Source, Arc<Corpus>);

/// What a running job is for.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum What {
    Compare,
    Sweep(String),
    /// The DocView experiment: Tianwang 5 on raw (false) or cleaned (true) pages.
    RawClean(bool),
}

/// A finished comparison (or single run) with its per-method pairs.
pub(super) struct Compared {
    pub source: Source,
    pub config: Config,
    pub docs: usize,
    pub rows: Vec<CompareRow>,
    pub overlap: Vec<Value>,
    pub pairs: Vec<MethodPairs>,
    pub has_truth: bool,
}

/// The dedup panel.
#[derive(Default)]
pub(crate) struct DedupPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    form: Form,
    tab: Tab,
    running: JobWatches<What, DedupJob>,
    loading: Option<Task<Result<Compared, String>>>,
    pub(super) compared: Option<Compared>,
    /// Grows by one each time a comparison lands: the views derived from it are rebuilt only
    /// then.
    pub(super) compared_seq: u64,
    /// The clusters tab's view of (comparison, method).
    pub(super) clusters: crate::ui::memo::Memo<(u64, usize), pairs::ClusterView>,
    /// Sweeps by parameter name: (method, points).
    pub(super) sweeps: Vec<(String, String, Vec<SweepPoint>)>,
    pub(super) raw_clean: [Option<CompareRow>; 2],
    error: Option<String>,
    /// The corpus of the current comparison, loaded for the pair view.
    corpus: Option<(Source, Arc<Corpus>)>,
    corpus_task: Option<Task<Result<LoadedCorpus, String>>>,
    pub(super) pair: pairs::PairState,
    pub(super) teach: teach::TeachState,
    pub(super) cluster_method: usize,
}

impl LabPanel for DedupPanel {
    fn set_data_dir(&mut self, data: &crate::engine::data::DataDir) {
        if self.form.data.trim().is_empty() {
            self.form.data = data.root().display().to_string();
        }
    }

    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        self.poll(cx, ui.ctx());
        egui::ScrollArea::vertical()
            .id_salt("dedup_scroll")
            .show(ui, |ui| self.show(cx, ui));
    }

    fn reopen(&mut self, kind: &str, _id: i64, params: &Value, lang: Lang) -> Result<(), String> {
        use crate::engine::jobs::TypedJob;
        if kind == crate::engine::dedup::stored::GroupPagesJob::KIND {
            // The pipeline's grouping: the recommended method on the workspace's cleaned pages.
            self.form.set(&DedupParams {
                source: Source::Workspace { clean: true },
                methods: vec![Method::Best.name()],
                config: Config::default(),
                sweep: None,
                engine: Default::default(),
            });
            return Ok(());
        }
        let p: DedupParams = logged(params, lang)?;
        self.form.set(&p);
        Ok(())
    }
}

fn load_compared(
    lang: Lang,
    v: Value,
    params: Value,
    ws: Option<std::path::PathBuf>,
    id: Option<i64>,
) -> Result<Compared, String> {
    let p: DedupParams = logged(&params, lang)?;
    let unreadable = |e: serde_json::Error| lang.tf("panel.logged_result_unreadable", &[&e]);
    let rows: Vec<CompareRow> = if let Some(r) = v.get("rows") {
        serde_json::from_value(r.clone()).map_err(unreadable)?
    } else {
        vec![serde_json::from_value(v["row"].clone()).map_err(unreadable)?]
    };
    let mut pairs = Vec::new();
    if let (Some(ws), Some(id)) = (ws, id) {
        let ws = crate::engine::store::Workspace::open_existing(&ws).map_err(|e| lang.error(&e))?;
        pairs = crate::engine::jobs::load_detail(&ws, id, PAIRS_DETAIL)
            .map_err(|e| lang.error(&e))?
            .unwrap_or_default();
    }
    Ok(Compared {
        source: p.source,
        config: p.config,
        docs: v["docs"].as_u64().unwrap_or(0) as usize,
        has_truth: rows.iter().any(|r| r.scores.is_some()),
        rows,
        overlap: v["overlap"].as_array().cloned().unwrap_or_default(),
        pairs,
    })
}

impl DedupPanel {
    fn poll(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context) {
        let ws = cx.session.map(|s| s.path.clone());
        let lang = cx.lang;
        for (what, end) in self.running.take_finished() {
            match end.outcome {
                Finished::Done(v) => match what {
                    What::Compare => {
                        let (ws, id, params) = (ws.clone(), end.id, end.params);
                        self.loading = Some(Task::spawn(ctx, move || {
                            load_compared(lang, v, params, ws, id)
                        }));
                    }
                    What::Sweep(name) => match serde_json::from_value(v["points"].clone()) {
                        Ok(points) => {
                            let m = v["method"].as_str().unwrap_or("").to_string();
                            self.sweeps.retain(|(n, _, _)| *n != name);
                            self.sweeps.push((name, m, points));
                        }
                        Err(e) => self.error = Some(e.to_string()),
                    },
                    What::RawClean(clean) => match serde_json::from_value(v["row"].clone()) {
                        Ok(r) => self.raw_clean[usize::from(clean)] = Some(r),
                        Err(e) => self.error = Some(e.to_string()),
                    },
                },
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => {}
            }
        }
        if let Some(r) = Task::take_result(&mut self.loading) {
            match r {
                Ok(c) => {
                    self.pair = pairs::PairState::default();
                    self.cluster_method = 0;
                    self.compared = Some(c);
                    self.compared_seq += 1;
                }
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = Task::take_result(&mut self.corpus_task) {
            match r {
                Ok(c) => self.corpus = Some(c),
                Err(e) => self.error = Some(e),
            }
        }
        self.pair.poll();
        self.teach.poll();
    }

    /// The comparison's corpus, loading it in the background when needed.
    pub(super) fn corpus(&mut self, cx: &Cx<'_>, ctx: &egui::Context) -> Option<Arc<Corpus>> {
        let src = self.compared.as_ref()?.source.clone();
        match &self.corpus {
            Some((s, c)) if *s == src => return Some(c.clone()),
            _ => {}
        }
        if self.corpus_task.is_none() {
            let ws = cx.session.map(|s| s.path.clone());
            let lang = cx.lang;
            self.corpus_task = Some(Task::spawn(ctx, move || {
                let c = src.load(ws.as_deref()).map_err(|e| lang.error(&e))?;
                Ok((src, Arc::new(c)))
            }));
        }
        None
    }

    pub(super) fn busy(&self, w: &What) -> bool {
        self.running.has(w)
    }

    /// Start a dedup job; `methods`, `source`, `config` and `sweep` default to the form's.
    pub(super) fn start(
        &mut self,
        cx: &mut Cx<'_>,
        what: What,
        methods: Option<Vec<String>>,
        source: Option<Source>,
        config: Option<Config>,
        sweep: Option<&str>,
    ) {
        self.error = None;
        let built = (|| {
            let source = match source {
                Some(s) => s,
                None => self.form.source()?,
            };
            let config = match config {
                Some(c) => c,
                None => self.form.config(cx.lang)?,
            };
            let methods = methods.unwrap_or_else(|| self.form.chosen());
            if methods.is_empty() {
                return Err(cx.lang.t("dedup.no_methods").to_string());
            }
            let sweep = sweep
                .map(SweepSpec::parse)
                .transpose()
                .map_err(|e| cx.lang.error(&e))?;
            let engine = if sweep.is_some() {
                crate::engine::exec::EngineConfig::default()
            } else {
                self.form.engine.clone()
            };
            DedupJob::from_params(DedupParams {
                source,
                methods,
                config,
                sweep,
                engine,
            })
            .map_err(|e| cx.lang.error(&e))
        })();
        match built {
            Ok(job) => match JobWatch::start(cx, job) {
                Some(w) => self.running.push(what, w),
                None => self.error = Some(cx.lang.t("dedup.need_ws").into()),
            },
            Err(e) => self.error = Some(e),
        }
    }

    fn show(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.heading(RichText::new(lang.t("dedup.heading")).size(22.0));
        ui.label(RichText::new(lang.t("dedup.intro")).weak());
        ui.add_space(4.0);
        self.form_ui(lang, ui);
        ui.horizontal_wrapped(|ui| {
            let busy = self.busy(&What::Compare) || self.loading.is_some();
            let run = egui::Button::new(RichText::new(lang.t("dedup.run")).size(17.0));
            if ui.add_enabled(!busy, run).clicked() {
                self.start(cx, What::Compare, None, None, None, None);
            }
            if busy {
                ui.spinner();
                ui.label(lang.t("dedup.running"));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        self.book_ui(cx, ui);
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            for (t, key) in [
                (Tab::Compare, "dedup.tab_compare"),
                (Tab::Sweeps, "dedup.tab_sweeps"),
                (Tab::Clusters, "dedup.tab_clusters"),
                (Tab::Pair, "dedup.tab_pair"),
                (Tab::SimHash, "dedup.tab_simhash"),
                (Tab::Hashes, "dedup.tab_hashes"),
            ] {
                ui.selectable_value(&mut self.tab, t, RichText::new(lang.t(key)).size(16.0));
            }
        });
        ui.add_space(4.0);
        match self.tab {
            Tab::Compare => self.compare_ui(cx, ui),
            Tab::Sweeps => self.sweeps_ui(cx, ui),
            Tab::Clusters => self.clusters_ui(cx, ui),
            Tab::Pair => self.pair_ui(cx, ui),
            Tab::SimHash => self.simhash_ui(cx, ui),
            Tab::Hashes => self.hashes_ui(cx, ui),
        }
    }

    fn form_ui(&mut self, lang: Lang, ui: &mut Ui) {
        let f = &mut self.form;
        ui.label(RichText::new(lang.t("dedup.corpus")).size(17.0).strong());
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut f.src, Src::Sample, lang.t("dedup.src_sample"));
            ui.radio_value(&mut f.src, Src::Devset, lang.t("dedup.src_devset"));
            ui.radio_value(&mut f.src, Src::Workspace, lang.t("dedup.src_workspace"));
            ui.radio_value(&mut f.src, Src::Folder, lang.t("dedup.src_folder"));
        });
        ui.horizontal_wrapped(|ui| {
            if f.src == Src::Folder {
                let l = ui.label(lang.t("dedup.folder"));
                ui.add(egui::TextEdit::singleline(&mut f.folder).desired_width(360.0))
                    .labelled_by(l.id);
                ui.radio_value(&mut f.input, Input::Auto, lang.t("dedup.input_auto"));
                ui.radio_value(&mut f.input, Input::Text, "NAME.txt");
                ui.radio_value(&mut f.input, Input::Html, "NAME.html");
            }
            if f.src != Src::Devset {
                ui.checkbox(&mut f.clean, lang.t("dedup.clean"))
                    .on_hover_text(lang.t("dedup.clean_hint"));
            } else {
                let l = ui.label(lang.t("dedup.data_folder"));
                ui.add(egui::TextEdit::singleline(&mut f.data).desired_width(300.0))
                    .labelled_by(l.id);
                ui.checkbox(&mut f.hard, lang.t("dedup.devset_hard"))
                    .on_hover_text(lang.t("dedup.devset_hard_note"));
                ui.label(RichText::new(lang.t("dedup.devset_note")).weak());
            }
        });
        ui.label(RichText::new(lang.t("dedup.methods")).size(17.0).strong());
        ui.horizontal_wrapped(|ui| {
            for (m, on) in Method::ALL.iter().zip(f.methods.iter_mut()) {
                ui.checkbox(on, method_label(lang, *m));
            }
        });
        crate::ui::engine_choice::engine_row(
            ui,
            lang,
            &mut f.engine,
            Some(lang.t("engine.dedup_note")),
        );
        egui::CollapsingHeader::new(lang.t("dedup.params"))
            .id_salt("dedup_params")
            .show(ui, |ui| {
                ui.label(RichText::new(lang.t("dedup.params_hint")).weak());
                egui::Grid::new("dedup_param_grid")
                    .num_columns(6)
                    .striped(true)
                    .show(ui, |ui| {
                        for (i, (name, value)) in f.params.iter_mut().enumerate() {
                            let l = ui.label(*name);
                            ui.add(egui::TextEdit::singleline(value).desired_width(90.0))
                                .labelled_by(l.id);
                            if i % 3 == 2 {
                                ui.end_row();
                            }
                        }
                    });
                if ui.button(lang.t("dedup.params_reset")).clicked() {
                    f.params = param_texts(&Config::default());
                }
            });
        if let Err(e) = f.config(lang) {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

/// A method's label: the CLI name with what it is.
pub(super) fn method_label(lang: Lang, m: Method) -> String {
    let key = match m {
        Method::Best => "dedup.m_best",
        Method::Md5 => "dedup.m_md5",
        Method::Tianwang(1) => "dedup.m_t1",
        Method::Tianwang(2) => "dedup.m_t2",
        Method::Tianwang(3) => "dedup.m_t3",
        Method::Tianwang(4) => "dedup.m_t4",
        Method::Tianwang(_) => "dedup.m_t5",
        Method::TianwangUnion => "dedup.m_union",
        Method::Segments => "dedup.m_segments",
        Method::IMatch => "dedup.m_imatch",
        Method::MinHash => "dedup.m_minhash",
        Method::SimHash => "dedup.m_simhash",
        Method::CcDet => "dedup.m_ccdet",
    };
    format!("{} · {}", m.name(), lang.t(key))
}

/// Green for yes, grey for no.
pub(super) fn yes_no(ui: &Ui, yes: bool) -> RichText {
    if yes {
        RichText::new("√")
            .color(Color32::from_rgb(40, 150, 60))
            .strong()
    } else {
        RichText::new("×").color(ui.visuals().weak_text_color())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_run_refills_the_form() {
        let mut f = Form {
            src: Src::Folder,
            folder: "/x/news".into(),
            input: Input::Html,
            clean: false,
            ..Form::default()
        };
        f.params.iter_mut().find(|p| p.0 == "n-keywords").unwrap().1 = "7".into();
        f.methods = Method::ALL.iter().map(|m| m.name() == "ccdet").collect();
        let p = DedupParams {
            source: f.source().unwrap(),
            methods: f.chosen(),
            config: f.config(Lang::En).unwrap(),
            sweep: None,
            engine: Default::default(),
        };
        let mut panel = DedupPanel::default();
        panel
            .reopen(
                DedupJob::KIND,
                1,
                &serde_json::to_value(&p).unwrap(),
                Lang::Zh,
            )
            .unwrap();
        assert_eq!(panel.form.source().unwrap(), p.source);
        assert_eq!(panel.form.config(Lang::En).unwrap().n_keywords, 7);
        assert_eq!(panel.form.chosen(), vec!["ccdet".to_string()]);
        assert!(
            panel
                .reopen(DedupJob::KIND, 1, &serde_json::json!(3), Lang::En)
                .is_err()
        );
    }

    #[test]
    fn a_bad_parameter_is_refused_by_name() {
        let mut f = Form::default();
        f.params.iter_mut().find(|p| p.0 == "delta").unwrap().1 = "x".into();
        assert!(f.config(Lang::En).unwrap_err().contains("delta"));
    }
}
