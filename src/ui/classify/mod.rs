//! Classifier training (分类器训练), book ch. 11 [L3996–L4411]: pick a corpus (the THUCNews
//! titles stand in for the book's Yahoo!-China pages), set up the pipeline (tokens, feature
//! selection + keep, model and its parameters, thresholding), train as a job (`classify-train`:
//! progress, cancel from the top bar, logged). Results: accuracy / micro / macro F1 cards, per-
//! class P/R/F1 bars, a confusion heat map whose cells list their misclassified documents with
//! the features that decided, and a teaching view of one document (kNN neighbours, NB
//! log-probabilities, top words). Sweeps (`classify-sweep`) draw F1 against the features kept
//! (DF/IG/MI/CHI), k and the training-set size beside the book's findings; the "Book
//! experiments" group runs Tables 11-2 and 11-5 and the curves in one click each.
//!
//! Nothing here reads a file or trains on the UI thread: jobs train, a [`Task`] reads the
//! per-document predictions back from `job_details`.

use std::path::PathBuf;

use egui::{Color32, RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};

use super::Lang;
use super::export::{Exports, plot_buttons, table_button};
use super::panel::{Cx, LabPanel};
use super::task::Task;

mod curves;
mod results;
use crate::engine::classify::ModelConfig;
use crate::engine::classify::experiment::{SweepPoint, Vary};
use crate::engine::classify::features::Weighting;
use crate::engine::classify::job::{
    CorpusChoice, PREDICTIONS_DETAIL, SweepJob, SweepParams, TestPrediction, TrainJob, TrainOutput,
    TrainParams,
};
use crate::engine::classify::knn::KnnConfig;
use crate::engine::classify::linear::LinearConfig;
use crate::engine::classify::nb::{NbConfig, NbKind};
use crate::engine::classify::pipeline::{PipelineConfig, SelectionConfig};
use crate::engine::classify::rocchio::RocchioConfig;
use crate::engine::classify::select::{Combine, Keep, Method};
use crate::engine::classify::threshold::Threshold;
use crate::engine::data::DataDir;
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries, Table};
use crate::engine::jobs::TypedJob;
use crate::ui::job_watch::{Finished, JobWatch, JobWatches};

/// The stand-in corpus's data set (THUCNews titles), offered when installed.
const TITLES_SET: &str = "thucnews_titles";

/// The THUCNews titles' train and test files in the app's data folder (`engine::data`; no
/// I/O).
fn titles_files(data: Option<&DataDir>) -> (PathBuf, PathBuf) {
    let dir = data.and_then(|d| d.set_dir(TITLES_SET)).unwrap_or_default();
    (dir.join("dev.txt"), dir.join("test.txt"))
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Src {
    #[default]
    Titles,
    Pair,
    Split,
    KFold,
    /// The sample web's categorised articles, a seeded split.
    SampleWeb,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Mdl {
    #[default]
    Knn,
    Nb,
    NbBook,
    Rocchio,
    Svm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sel {
    None,
    M(Method),
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Thr {
    #[default]
    None,
    RCut,
    SCut,
}

/// The form.
#[derive(Debug, Clone)]
struct Form {
    src: Src,
    train: String,
    test: String,
    file: String,
    share: f64,
    folds: usize,
    seed: u64,
    model: Mdl,
    /// `None`: the model's usual weighting.
    weighting: Option<Weighting>,
    k: usize,
    alpha: f64,
    sel: Sel,
    keep: String,
    thr: Thr,
    bigrams: bool,
    stop_words: bool,
    save_as: String,
    /// The app's data folder (where the THUCNews titles are).
    data: Option<DataDir>,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            src: Src::Titles,
            train: String::new(),
            test: String::new(),
            file: String::new(),
            share: 0.25,
            folds: 5,
            seed: 0,
            model: Mdl::Knn,
            weighting: None,
            k: 15,
            alpha: 1.0,
            sel: Sel::None,
            keep: "20%".into(),
            thr: Thr::None,
            bigrams: false,
            stop_words: false,
            save_as: String::new(),
            data: None,
        }
    }
}

impl Form {
    fn corpus(&self, lang: Lang) -> Result<CorpusChoice, String> {
        let need = |s: &str| {
            if s.trim().is_empty() {
                Err(lang.t("classify.need_path").to_string())
            } else {
                Ok(PathBuf::from(s.trim()))
            }
        };
        Ok(match self.src {
            Src::Titles => {
                let (train, test) = titles_files(self.data.as_ref());
                CorpusChoice::Files { train, test }
            }
            Src::Pair => CorpusChoice::Files {
                train: need(&self.train)?,
                test: need(&self.test)?,
            },
            Src::Split => CorpusChoice::Split {
                file: need(&self.file)?,
                test_share: self.share,
                seed: self.seed,
            },
            Src::SampleWeb => CorpusChoice::SampleWeb {
                test_share: self.share,
                seed: self.seed,
            },
            Src::KFold => CorpusChoice::KFold {
                file: need(&self.file)?,
                folds: self.folds,
                seed: self.seed,
            },
        })
    }

    fn config(&self, lang: Lang) -> Result<PipelineConfig, String> {
        let e = |e: crate::engine::error::EngineError| lang.error(&e);
        let model = match self.model {
            Mdl::Knn => ModelConfig::Knn(KnnConfig {
                k: self.k.max(1),
                ..KnnConfig::default()
            }),
            Mdl::Nb => ModelConfig::Nb(
                NbConfig::new(NbKind::Multinomial, &self.alpha.to_string()).map_err(e)?,
            ),
            Mdl::NbBook => ModelConfig::Nb(NbConfig::new(NbKind::Multinomial, "book").map_err(e)?),
            Mdl::Rocchio => ModelConfig::Rocchio(RocchioConfig::new(1.0, 1.0).map_err(e)?),
            Mdl::Svm => ModelConfig::Svm(LinearConfig::new(1.0, self.seed).map_err(e)?),
        };
        let mut cfg = PipelineConfig::for_model(model);
        if let Some(w) = self.weighting {
            cfg.weighting = w;
        }
        if let Sel::M(m) = self.sel {
            cfg.selection = Some(SelectionConfig {
                method: m,
                combine: Combine::Mean,
                keep: Keep::parse(self.keep.trim()).map_err(e)?,
            });
        }
        cfg.threshold = match self.thr {
            Thr::None => Threshold::None,
            Thr::RCut => Threshold::RCut { k: 1 },
            Thr::SCut => Threshold::SCut { validation: 0.2 },
        };
        cfg.tokens.char_bigrams = self.bigrams || cfg.tokens.char_bigrams;
        cfg.tokens.stop_words = self.stop_words;
        cfg.seed = self.seed;
        Ok(cfg)
    }

    /// Fill from logged parameters.
    fn set(&mut self, corpus: &CorpusChoice, cfg: &PipelineConfig) {
        match corpus {
            CorpusChoice::Files { train, test } => {
                if (train.clone(), test.clone()) == titles_files(self.data.as_ref()) {
                    self.src = Src::Titles;
                } else {
                    self.src = Src::Pair;
                    self.train = train.display().to_string();
                    self.test = test.display().to_string();
                }
            }
            CorpusChoice::Split {
                file,
                test_share,
                seed,
            } => {
                self.src = Src::Split;
                self.file = file.display().to_string();
                self.share = *test_share;
                self.seed = *seed;
            }
            CorpusChoice::SampleWeb { test_share, seed } => {
                self.src = Src::SampleWeb;
                self.share = *test_share;
                self.seed = *seed;
            }
            CorpusChoice::KFold { file, folds, seed } => {
                self.src = Src::KFold;
                self.file = file.display().to_string();
                self.folds = *folds;
                self.seed = *seed;
            }
        }
        match &cfg.model {
            ModelConfig::Knn(k) | ModelConfig::HierKnn { knn: k, .. } => {
                self.model = Mdl::Knn;
                self.k = k.k;
            }
            ModelConfig::Nb(n) => match n.alpha {
                Some(a) if a > 0.0 => {
                    self.model = Mdl::Nb;
                    self.alpha = a;
                }
                _ => self.model = Mdl::NbBook,
            },
            ModelConfig::Rocchio(_) => self.model = Mdl::Rocchio,
            ModelConfig::Svm(_) | ModelConfig::Tree(_) => self.model = Mdl::Svm,
        }
        match &cfg.selection {
            None => self.sel = Sel::None,
            Some(s) => {
                self.sel = Sel::M(s.method);
                self.keep = match s.keep {
                    Keep::All => "all".into(),
                    Keep::Top(n) => n.to_string(),
                    Keep::Percent(x) => format!("{x}%"),
                };
            }
        }
        self.thr = match cfg.threshold {
            Threshold::SCut { .. } => Thr::SCut,
            Threshold::RCut { .. } => Thr::RCut,
            _ => Thr::None,
        };
        let usual = PipelineConfig::for_model(cfg.model.clone());
        self.weighting = (usual.weighting != cfg.weighting).then_some(cfg.weighting);
        self.bigrams = cfg.tokens.char_bigrams;
        self.stop_words = cfg.tokens.stop_words;
        self.seed = cfg.seed;
    }
}

/// What a running job is for.
#[derive(Debug, Clone, PartialEq)]
enum What {
    Train,
    Features(Method),
    K,
    Size,
}

/// A finished main training run with its predictions (loaded in a task).
struct Trained {
    out: TrainOutput,
    preds: Vec<TestPrediction>,
}

/// The classifier panel.
#[derive(Default)]
pub(crate) struct ClassifyPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    form: Form,
    /// Training runs (the main one and the book's experiment rows) and sweeps, by what they
    /// are for.
    training: JobWatches<What, TrainJob>,
    sweeping: JobWatches<What, SweepJob>,
    loading: Option<Task<Result<Trained, String>>>,
    trained: Option<Trained>,
    cell: Option<(usize, usize)>,
    doc: Option<usize>,
    features: Vec<(Method, Vec<SweepPoint>)>,
    k_curve: Vec<SweepPoint>,
    size_curve: Vec<SweepPoint>,
    error: Option<String>,
    titles_present: Option<bool>,
    titles_task: Option<Task<bool>>,
}

impl LabPanel for ClassifyPanel {
    fn set_data_dir(&mut self, data: &DataDir) {
        self.form.data = Some(data.clone());
    }

    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        self.poll(cx, ui.ctx());
        egui::ScrollArea::vertical()
            .id_salt("classify_scroll")
            .show(ui, |ui| self.show(cx, ui));
    }

    fn reopen(
        &mut self,
        kind: &str,
        _id: i64,
        params: &serde_json::Value,
        _lang: Lang,
    ) -> Result<(), String> {
        if kind == crate::engine::classify::stored::ClassifyPagesJob::KIND {
            // The pipeline applied a stored model to every page: nothing to put in the form.
            return Ok(());
        }
        if kind == SweepJob::KIND {
            let p: SweepParams =
                serde_json::from_value(params.clone()).map_err(|e| e.to_string())?;
            self.form.set(&p.corpus, &p.config);
        } else {
            let p: TrainParams =
                serde_json::from_value(params.clone()).map_err(|e| e.to_string())?;
            self.form.set(&p.corpus, &p.config);
            self.form.save_as = p.save_as.unwrap_or_default();
        }
        Ok(())
    }
}

fn load_trained(
    lang: Lang,
    out: TrainOutput,
    ws: Option<PathBuf>,
    id: Option<i64>,
) -> Result<Trained, String> {
    let mut preds = Vec::new();
    if let (Some(ws), Some(id)) = (ws, id) {
        let ws = crate::engine::store::Workspace::open_existing(&ws).map_err(|e| lang.error(&e))?;
        preds = crate::engine::jobs::load_detail(&ws, id, PREDICTIONS_DETAIL)
            .map_err(|e| lang.error(&e))?
            .unwrap_or_default();
    }
    Ok(Trained { out, preds })
}

impl ClassifyPanel {
    fn poll(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context) {
        if self.titles_present.is_none() && self.titles_task.is_none() {
            let data = self.form.data.clone();
            self.titles_task = Some(Task::spawn(ctx, move || {
                data.is_some_and(|d| d.require(TITLES_SET).is_ok())
            }));
        }
        if let Some(r) = Task::take_finished(&mut self.titles_task) {
            let present = r.unwrap_or(false);
            self.titles_present = Some(present);
            if !present && self.form.src == Src::Titles {
                self.form.src = Src::Pair;
            }
        }
        let ws = cx.session.map(|s| s.path.clone());
        let lang = cx.lang;
        for (what, end) in self.training.take_finished() {
            match end.outcome {
                Finished::Done(out) => {
                    debug_assert_eq!(what, What::Train);
                    let (ws, id) = (ws.clone(), end.id);
                    self.loading = Some(Task::spawn(ctx, move || load_trained(lang, out, ws, id)));
                }
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => {}
            }
        }
        for (what, end) in self.sweeping.take_finished() {
            match end.outcome {
                Finished::Done(o) => match what {
                    What::Features(m) => {
                        self.features.retain(|(x, _)| *x != m);
                        self.features.push((m, o.points));
                        self.features.sort_by_key(|(x, _)| method_order(*x));
                    }
                    What::K => self.k_curve = o.points,
                    _ => self.size_curve = o.points,
                },
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => {}
            }
        }
        if let Some(r) = Task::take_result(&mut self.loading) {
            match r {
                Ok(t) => {
                    self.trained = Some(t);
                    self.cell = None;
                    self.doc = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
    }

    fn busy(&self, w: &What) -> bool {
        self.training.has(w) || self.sweeping.has(w)
    }

    fn start_train(&mut self, cx: &mut Cx<'_>, what: What, cfg: Option<PipelineConfig>) {
        self.error = None;
        let lang = cx.lang;
        let built = (|| {
            let corpus = self.form.corpus(lang)?;
            let config = match cfg {
                Some(c) => c,
                None => self.form.config(lang)?,
            };
            let save = self.form.save_as.trim();
            TrainJob::from_params(TrainParams {
                corpus,
                strict: false,
                config,
                save_as: (what == What::Train && !save.is_empty()).then(|| save.to_string()),
                explain_top: 10,
            })
            .map_err(|e| lang.error(&e))
        })();
        match built {
            Ok(job) => {
                if let Some(w) = JobWatch::start(cx, job) {
                    self.training.push(what, w);
                } else {
                    self.error = Some(cx.lang.t("classify.need_ws").into());
                }
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn start_sweep(&mut self, cx: &mut Cx<'_>, what: What, cfg: PipelineConfig, vary: Vary) {
        self.error = None;
        let lang = cx.lang;
        let built = self.form.corpus(lang).and_then(|corpus| {
            SweepJob::from_params(SweepParams {
                corpus,
                strict: false,
                config: cfg,
                vary,
            })
            .map_err(|e| lang.error(&e))
        });
        match built {
            Ok(job) => {
                if let Some(w) = JobWatch::start(cx, job) {
                    self.sweeping.push(what, w);
                } else {
                    self.error = Some(cx.lang.t("classify.need_ws").into());
                }
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn show(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.heading(RichText::new(lang.t("classify.heading")).size(22.0));
        ui.label(RichText::new(lang.t("classify.intro")).weak());
        ui.add_space(4.0);
        self.form_ui(lang, ui);
        ui.horizontal(|ui| {
            let busy = self.busy(&What::Train) || self.loading.is_some();
            if ui
                .add_enabled(
                    !busy,
                    egui::Button::new(RichText::new(lang.t("classify.train")).size(17.0)),
                )
                .clicked()
            {
                self.start_train(cx, What::Train, None);
            }
            if busy {
                ui.spinner();
                ui.label(lang.t("classify.training"));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        self.book_ui(cx, ui);
        ui.separator();
        self.results_ui(lang, ui, &mut cx.hub.exports);
        ui.separator();
        self.curves_ui(cx, ui);
    }

    fn form_ui(&mut self, lang: Lang, ui: &mut Ui) {
        let f = &mut self.form;
        ui.label(RichText::new(lang.t("classify.corpus")).size(17.0).strong());
        ui.horizontal_wrapped(|ui| {
            if self.titles_present != Some(false) {
                ui.radio_value(&mut f.src, Src::Titles, lang.t("classify.src_titles"));
            }
            ui.radio_value(&mut f.src, Src::Pair, lang.t("classify.src_pair"));
            ui.radio_value(&mut f.src, Src::Split, lang.t("classify.src_split"));
            ui.radio_value(&mut f.src, Src::KFold, lang.t("classify.src_kfold"));
            ui.radio_value(&mut f.src, Src::SampleWeb, lang.t("classify.src_sample"));
        });
        match f.src {
            Src::Titles => {
                ui.label(RichText::new(lang.t("classify.titles_note")).weak());
            }
            Src::Pair => {
                egui::Grid::new("cl_pair").num_columns(2).show(ui, |ui| {
                    let l = ui.label(lang.t("classify.train_file"));
                    ui.add(egui::TextEdit::singleline(&mut f.train).desired_width(480.0))
                        .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label(lang.t("classify.test_file"));
                    ui.add(egui::TextEdit::singleline(&mut f.test).desired_width(480.0))
                        .labelled_by(l.id);
                    ui.end_row();
                });
            }
            Src::SampleWeb => {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(lang.t("classify.sample_note")).weak());
                    let l = ui.label(lang.t("classify.test_share"));
                    ui.add(
                        egui::DragValue::new(&mut f.share)
                            .range(0.05..=0.9)
                            .speed(0.01),
                    )
                    .labelled_by(l.id);
                    let l = ui.label(lang.t("classify.seed"));
                    ui.add(egui::DragValue::new(&mut f.seed)).labelled_by(l.id);
                });
            }
            Src::Split | Src::KFold => {
                ui.horizontal(|ui| {
                    let l = ui.label(lang.t("classify.one_file"));
                    ui.add(egui::TextEdit::singleline(&mut f.file).desired_width(420.0))
                        .labelled_by(l.id);
                    if f.src == Src::Split {
                        let l = ui.label(lang.t("classify.test_share"));
                        ui.add(
                            egui::DragValue::new(&mut f.share)
                                .range(0.05..=0.9)
                                .speed(0.01),
                        )
                        .labelled_by(l.id);
                    } else {
                        let l = ui.label(lang.t("classify.folds"));
                        ui.add(egui::DragValue::new(&mut f.folds).range(2..=20))
                            .labelled_by(l.id);
                    }
                    let l = ui.label(lang.t("classify.seed"));
                    ui.add(egui::DragValue::new(&mut f.seed)).labelled_by(l.id);
                });
            }
        }
        ui.label(
            RichText::new(lang.t("classify.pipeline"))
                .size(17.0)
                .strong(),
        );
        ui.horizontal_wrapped(|ui| {
            ui.label(lang.t("classify.model"));
            for (m, key) in [
                (Mdl::Knn, "classify.m_knn"),
                (Mdl::Nb, "classify.m_nb"),
                (Mdl::NbBook, "classify.m_nb_book"),
                (Mdl::Rocchio, "classify.m_rocchio"),
                (Mdl::Svm, "classify.m_svm"),
            ] {
                ui.radio_value(&mut f.model, m, lang.t(key));
            }
        });
        ui.horizontal_wrapped(|ui| {
            match f.model {
                Mdl::Knn => {
                    let l = ui.label("k");
                    ui.add(egui::DragValue::new(&mut f.k).range(1..=200))
                        .labelled_by(l.id);
                }
                Mdl::Nb => {
                    let l = ui.label("α");
                    ui.add(
                        egui::DragValue::new(&mut f.alpha)
                            .range(0.01..=10.0)
                            .speed(0.05),
                    )
                    .labelled_by(l.id);
                }
                _ => {}
            }
            ui.separator();
            // Each choice after its label, as the model's and the thresholding's are.
            let l = ui.label(lang.t("classify.selection"));
            egui::ComboBox::from_id_salt("classify_selection")
                .selected_text(sel_name(lang, f.sel))
                .show_ui(ui, |ui| {
                    for s in [
                        Sel::None,
                        Sel::M(Method::Df),
                        Sel::M(Method::Ig),
                        Sel::M(Method::Mi),
                        Sel::M(Method::Chi),
                    ] {
                        ui.selectable_value(&mut f.sel, s, sel_name(lang, s));
                    }
                })
                .response
                .labelled_by(l.id);
            if f.sel != Sel::None {
                let l = ui.label(lang.t("classify.keep"));
                ui.add(egui::TextEdit::singleline(&mut f.keep).desired_width(60.0))
                    .labelled_by(l.id);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(lang.t("classify.threshold"));
            ui.radio_value(&mut f.thr, Thr::None, lang.t("classify.thr_none"));
            ui.radio_value(&mut f.thr, Thr::RCut, "RCut");
            ui.radio_value(&mut f.thr, Thr::SCut, "SCut");
            ui.separator();
            let l = ui.label(lang.t("classify.weighting"));
            egui::ComboBox::from_id_salt("classify_weighting")
                .selected_text(weighting_name(lang, f.weighting))
                .show_ui(ui, |ui| {
                    for w in [
                        None,
                        Some(Weighting::Tf),
                        Some(Weighting::TfIdf),
                        Some(Weighting::LogTf),
                        Some(Weighting::LogTfIdf),
                        Some(Weighting::Binary),
                    ] {
                        ui.selectable_value(&mut f.weighting, w, weighting_name(lang, w));
                    }
                })
                .response
                .labelled_by(l.id);
        });
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut f.bigrams, lang.t("classify.bigrams"));
            ui.checkbox(&mut f.stop_words, lang.t("classify.stop_words"));
            let l = ui.label(lang.t("classify.save_as"));
            ui.add(egui::TextEdit::singleline(&mut f.save_as).desired_width(160.0))
                .labelled_by(l.id);
        });
    }
}

fn method_order(m: Method) -> u8 {
    match m {
        Method::Df => 0,
        Method::Ig => 1,
        Method::Mi => 2,
        Method::Chi => 3,
    }
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Df => "DF",
        Method::Ig => "IG",
        Method::Mi => "MI",
        Method::Chi => "CHI",
    }
}

fn sel_name(lang: Lang, s: Sel) -> &'static str {
    match s {
        Sel::None => lang.t("classify.sel_none"),
        Sel::M(m) => method_name(m),
    }
}

fn weighting_name(lang: Lang, w: Option<Weighting>) -> &'static str {
    match w {
        None => lang.t("classify.w_usual"),
        Some(Weighting::Tf) => "tf",
        Some(Weighting::TfIdf) => "tf·idf",
        Some(Weighting::LogTf) => "log tf",
        Some(Weighting::LogTfIdf) => "log tf·idf",
        Some(Weighting::Binary) => lang.t("classify.w_binary"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_run_refills_the_form() {
        let mut f = Form {
            src: Src::Split,
            file: "/x/all.txt".into(),
            share: 0.3,
            seed: 9,
            model: Mdl::Knn,
            k: 7,
            sel: Sel::M(Method::Ig),
            keep: "15%".into(),
            thr: Thr::SCut,
            ..Form::default()
        };
        let params = TrainParams {
            corpus: f.corpus(Lang::En).unwrap(),
            strict: false,
            config: f.config(Lang::En).unwrap(),
            save_as: Some("m1".into()),
            explain_top: 10,
        };
        let v = serde_json::to_value(&params).unwrap();
        let mut p = ClassifyPanel::default();
        p.reopen(TrainJob::KIND, 1, &v, Lang::Zh).unwrap();
        assert_eq!(p.form.corpus(Lang::En).unwrap(), params.corpus);
        assert_eq!(p.form.config(Lang::En).unwrap(), params.config);
        assert_eq!(p.form.save_as, "m1");
        f.model = Mdl::NbBook;
        let cfg = f.config(Lang::En).unwrap();
        let mut g = Form::default();
        g.set(&params.corpus, &cfg);
        assert_eq!(g.model, Mdl::NbBook);
        assert!(
            p.reopen(TrainJob::KIND, 1, &serde_json::json!("x"), Lang::Zh)
                .is_err()
        );
        // k-fold and a non-default weighting come back too
        let k = Form {
            src: Src::KFold,
            file: "/x/all.txt".into(),
            folds: 4,
            weighting: Some(Weighting::Binary),
            ..Form::default()
        };
        let (c, cfg) = (k.corpus(Lang::En).unwrap(), k.config(Lang::En).unwrap());
        let mut k = Form::default();
        k.set(&c, &cfg);
        assert_eq!(k.corpus(Lang::En).unwrap(), c);
        assert_eq!(k.config(Lang::En).unwrap(), cfg);
    }
}
