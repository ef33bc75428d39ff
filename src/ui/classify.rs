//! Classifier training (分类器训练), book ch. 11 [L4049–L4366]: pick a training and a test
//! corpus (the THUCNews titles are the stand-in corpus, said so on screen), configure the
//! pipeline (model and its parameters, feature selection), train as a job; read accuracy and
//! micro/macro F1 beside the book's and scikit-learn's figures, per-class P/R/F1 with bars, and
//! a confusion matrix whose cells open the documents misclassified there with the features that
//! decided; sweep the features kept for DF, IG, MI and CHI (the book's Figures 11-8/11-9).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints, VLine};

use super::Lang;
use super::export::{Exports, plot_buttons, table_button};
use super::panel::{Cx, LabPanel, PanelInfo, logged, panel_info};
use super::task::Task;
use crate::engine::classify::job::{
    ClassifySweep, ClassifyTrain, MISTAKES, Mistake, SweepCurve, SweepParams, TrainOutput,
    TrainParams,
};
use crate::engine::classify::knn::KnnConfig;
use crate::engine::classify::nb::{NbConfig, NbKind};
use crate::engine::classify::pipeline::{ModelConfig, PipelineConfig, SelectionConfig};
use crate::engine::classify::rocchio::RocchioConfig;
use crate::engine::classify::select::{Combine, Keep, Method};
use crate::engine::classify::tree::TreeConfig;
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries, Table};
use crate::engine::jobs::registry::TypedJob;
use crate::engine::jobs::{JobHandle, JobState};

/// The stand-in corpus (train = dev, test = test), when the shared data is beside the repo.
const TITLES: &str = "../shared/data/classification/thucnews_titles";
/// scikit-learn on the same split (`../shared/data/references/thucnews_titles_sklearn_baselines.json`).
const SKLEARN: [(&str, f64); 4] = [
    ("nb", 0.820),
    ("knn", 0.760),
    ("rocchio", 0.663),
    ("tree", 0.560),
];
/// The book's Table 11-2 [L4250–L4256]: micro-F1 of kNN and of unsmoothed NB.
const BOOK_TABLE_11_2: [(&str, f64); 2] = [("knn", 0.8266), ("nb", 0.1934)];
/// Percent of the features kept in the sweep (the digest's suggested ticks, [L4180]).
const SWEEP_PERCENTS: [f64; 8] = [1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 40.0, 100.0];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModelChoice {
    Nb,
    NbBook,
    Knn,
    Rocchio,
    Tree,
    Svm,
}

impl ModelChoice {
    const ALL: [ModelChoice; 6] = [
        ModelChoice::Nb,
        ModelChoice::NbBook,
        ModelChoice::Knn,
        ModelChoice::Rocchio,
        ModelChoice::Tree,
        ModelChoice::Svm,
    ];

    fn label(self, lang: Lang) -> &'static str {
        match self {
            ModelChoice::Nb => lang.t("cls.m_nb"),
            ModelChoice::NbBook => lang.t("cls.m_nb_book"),
            ModelChoice::Knn => lang.t("cls.m_knn"),
            ModelChoice::Rocchio => lang.t("cls.m_rocchio"),
            ModelChoice::Tree => lang.t("cls.m_tree"),
            ModelChoice::Svm => lang.t("cls.m_svm"),
        }
    }
}

pub(crate) struct ClassifyPanel {
    train: String,
    test: String,
    defaults: Option<Task<Option<(String, String)>>>,
    defaults_asked: bool,
    model: ModelChoice,
    k: usize,
    alpha: f64,
    select: Option<Method>,
    keep_percent: f64,
    run: Option<JobHandle>,
    result: Option<Arc<TrainOutput>>,
    mistakes: Option<Task<Result<Vec<Mistake>, String>>>,
    shown_mistakes: Option<Arc<Vec<Mistake>>>,
    cell: Option<(usize, usize)>,
    sweep: Option<JobHandle>,
    curves: Option<Arc<Vec<SweepCurve>>>,
    error: Option<String>,
}

impl Default for ClassifyPanel {
    fn default() -> Self {
        ClassifyPanel {
            train: String::new(),
            test: String::new(),
            defaults: None,
            defaults_asked: false,
            model: ModelChoice::Nb,
            k: 15,
            alpha: 1.0,
            select: None,
            keep_percent: 20.0,
            run: None,
            result: None,
            mistakes: None,
            shown_mistakes: None,
            cell: None,
            sweep: None,
            curves: None,
            error: None,
        }
    }
}

impl ClassifyPanel {
    fn config(&self) -> PipelineConfig {
        let model = match self.model {
            ModelChoice::Nb => ModelConfig::Nb(NbConfig {
                kind: NbKind::Multinomial,
                alpha: Some(self.alpha.max(1e-9)),
            }),
            ModelChoice::NbBook => ModelConfig::Nb(NbConfig {
                kind: NbKind::Multinomial,
                alpha: None,
            }),
            ModelChoice::Knn => ModelConfig::Knn(KnnConfig {
                k: self.k.max(1),
                ..KnnConfig::default()
            }),
            ModelChoice::Rocchio => ModelConfig::Rocchio(RocchioConfig::default()),
            ModelChoice::Tree => ModelConfig::Tree(TreeConfig::default()),
            ModelChoice::Svm => ModelConfig::Svm(Default::default()),
        };
        let mut cfg = PipelineConfig::for_model(model);
        cfg.selection = self.select.map(|m| SelectionConfig {
            method: m,
            combine: Combine::Max,
            keep: Keep::Percent(self.keep_percent),
        });
        cfg
    }

    fn poll(&mut self, cx: &Cx<'_>, ctx: &egui::Context) {
        if !self.defaults_asked {
            self.defaults_asked = true;
            self.defaults = Some(Task::spawn(ctx, || {
                let d = Path::new(TITLES);
                (d.join("dev.txt").is_file() && d.join("test.txt").is_file()).then(|| {
                    let abs = d.canonicalize().unwrap_or_else(|_| d.to_path_buf());
                    (
                        abs.join("dev.txt").display().to_string(),
                        abs.join("test.txt").display().to_string(),
                    )
                })
            }));
        }
        if let Some(t) = &self.defaults
            && let Some(r) = t.poll()
        {
            self.defaults = None;
            if let Ok(Some((a, b))) = r
                && self.train.is_empty()
            {
                self.train = a;
                self.test = b;
            }
        }
        if let Some(h) = &self.run {
            let s = h.snapshot();
            if s.state.is_finished() && h.is_recorded() {
                self.run = None;
                match (&s.state, s.id) {
                    (JobState::Done(v), Some(id)) => match ClassifyTrain::decode(v) {
                        Ok(out) => {
                            self.result = Some(Arc::new(out));
                            self.cell = None;
                            self.shown_mistakes = None;
                            if let Some(sess) = cx.session {
                                let path = sess.path.clone();
                                self.mistakes = Some(Task::spawn(ctx, move || {
                                    crate::engine::store::Workspace::open_existing(&path)
                                        .and_then(|ws| {
                                            crate::engine::jobs::load_detail(&ws, id, MISTAKES)
                                        })
                                        .map(Option::unwrap_or_default)
                                        .map_err(|e| e.to_string())
                                }));
                            }
                        }
                        Err(e) => self.error = Some(e.to_string()),
                    },
                    (JobState::Failed { message, .. }, _) => self.error = Some(message.clone()),
                    _ => {}
                }
            }
        }
        if let Some(t) = &self.mistakes
            && let Some(r) = t.poll()
        {
            self.mistakes = None;
            match r.and_then(|x| x) {
                Ok(m) => self.shown_mistakes = Some(Arc::new(m)),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(h) = &self.sweep {
            let s = h.snapshot();
            if s.state.is_finished() {
                self.sweep = None;
                match &s.state {
                    JobState::Done(v) => match ClassifySweep::decode(v) {
                        Ok(c) => self.curves = Some(Arc::new(c)),
                        Err(e) => self.error = Some(e.to_string()),
                    },
                    JobState::Failed { message, .. } => self.error = Some(message.clone()),
                    _ => {}
                }
            }
        }
    }

    fn form(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        egui::Frame::group(ui.style())
            .inner_margin(10.0)
            .show(ui, |ui| {
                egui::Grid::new("cls_form")
                    .num_columns(2)
                    .spacing([12.0, 6.0])
                    .show(ui, |ui| {
                        ui.label(lang.t("cls.train"));
                        ui.add(egui::TextEdit::singleline(&mut self.train).desired_width(520.0));
                        ui.end_row();
                        ui.label(lang.t("cls.test"));
                        ui.add(egui::TextEdit::singleline(&mut self.test).desired_width(520.0));
                        ui.end_row();
                        ui.label(lang.t("cls.model"));
                        ui.horizontal_wrapped(|ui| {
                            for m in ModelChoice::ALL {
                                ui.selectable_value(&mut self.model, m, m.label(lang));
                            }
                        });
                        ui.end_row();
                        match self.model {
                            ModelChoice::Knn => {
                                ui.label("k");
                                ui.add(egui::Slider::new(&mut self.k, 1..=60));
                                ui.end_row();
                            }
                            ModelChoice::Nb => {
                                ui.label(lang.t("cls.alpha"));
                                ui.add(egui::Slider::new(&mut self.alpha, 0.01..=2.0));
                                ui.end_row();
                            }
                            _ => {}
                        }
                        ui.label(lang.t("cls.selection"));
                        ui.horizontal(|ui| {
                            ui.selectable_value(&mut self.select, None, lang.t("cls.sel_none"));
                            for (m, n) in [
                                (Method::Chi, "CHI"),
                                (Method::Ig, "IG"),
                                (Method::Mi, "MI"),
                                (Method::Df, "DF"),
                            ] {
                                ui.selectable_value(&mut self.select, Some(m), n);
                            }
                            if self.select.is_some() {
                                ui.add(
                                    egui::Slider::new(&mut self.keep_percent, 1.0..=100.0)
                                        .suffix(" %"),
                                );
                            }
                        });
                        ui.end_row();
                    });
                ui.horizontal(|ui| {
                    let busy = self.run.is_some() || self.sweep.is_some();
                    let ready = cx.session.is_some() && !busy && !self.train.trim().is_empty();
                    if ui
                        .add_enabled(ready, egui::Button::new(lang.t("cls.run")))
                        .clicked()
                    {
                        self.error = None;
                        let job = ClassifyTrain::from_params(TrainParams {
                            train: PathBuf::from(self.train.trim()),
                            test: PathBuf::from(self.test.trim()),
                            config: self.config(),
                            save: None,
                        });
                        match job {
                            Ok(j) => self.run = cx.start_job(Box::new(j)),
                            Err(e) => self.error = Some(e.to_string()),
                        }
                    }
                    if ui
                        .add_enabled(ready, egui::Button::new(lang.t("cls.sweep")))
                        .on_hover_text(lang.t("cls.sweep_hint"))
                        .clicked()
                    {
                        self.error = None;
                        let job = ClassifySweep::from_params(SweepParams {
                            train: PathBuf::from(self.train.trim()),
                            test: PathBuf::from(self.test.trim()),
                            config: self.config(),
                            methods: vec![Method::Df, Method::Ig, Method::Mi, Method::Chi],
                            percents: SWEEP_PERCENTS.to_vec(),
                        });
                        match job {
                            Ok(j) => self.sweep = cx.start_job(Box::new(j)),
                            Err(e) => self.error = Some(e.to_string()),
                        }
                    }
                    if busy {
                        ui.spinner();
                    }
                });
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            });
    }
}

fn card(ui: &mut Ui, title: &str, value: String, note: String) {
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .corner_radius(6.0)
        .show(ui, |ui| {
            ui.set_min_width(150.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).size(15.0));
                ui.label(RichText::new(value).size(28.0).strong());
                ui.label(RichText::new(note).small().weak());
            });
        });
}

fn results(lang: Lang, ui: &mut Ui, out: &TrainOutput, ex: &mut Exports) {
    let r = &out.result;
    let sklearn = SKLEARN.iter().find(|(m, _)| *m == r.model).map(|(_, v)| *v);
    let book = BOOK_TABLE_11_2
        .iter()
        .find(|(m, _)| *m == r.model)
        .map(|(_, v)| *v);
    ui.horizontal_wrapped(|ui| {
        card(
            ui,
            lang.t("cls.accuracy"),
            format!("{:.4}", r.accuracy),
            sklearn.map_or_else(String::new, |v| {
                lang.tf("cls.sklearn_ref", &[&format!("{v:.3}")])
            }),
        );
        card(
            ui,
            lang.t("cls.micro_f1"),
            format!("{:.4}", r.micro_f1),
            book.map_or_else(String::new, |v| {
                lang.tf("cls.book_ref", &[&format!("{v:.4}")])
            }),
        );
        card(
            ui,
            lang.t("cls.macro_f1"),
            format!("{:.4}", r.macro_f1),
            String::new(),
        );
        card(
            ui,
            lang.t("cls.features"),
            format!("{}", r.features_kept),
            lang.tf("cls.features_of", &[&r.features_total]),
        );
        card(
            ui,
            lang.t("cls.time"),
            format!("{:.2} s", r.train_s + r.test_s),
            lang.tf(
                "cls.time_parts",
                &[&format!("{:.2}", r.train_s), &format!("{:.2}", r.test_s)],
            ),
        );
    });
    ui.label(RichText::new(lang.t("cls.corpus_note")).weak().small());
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cls.per_class")).size(17.0).strong());
        table_button(ui, lang, ex, || {
            Table::new(
                lang.t("cls.per_class"),
                ["label", "p", "r", "f1", "support"],
            )
            .with_rows(r.per_class.iter().map(|c| {
                [
                    c.label.clone(),
                    c.p.to_string(),
                    c.r.to_string(),
                    c.f1.to_string(),
                    c.support.to_string(),
                ]
            }))
        });
        plot_buttons(ui, lang, ex, || {
            XPlot::new(lang.t("cls.per_class"), lang.t("cls.class_axis"), "F1").series(
                XSeries::bars(
                    "F1",
                    r.per_class
                        .iter()
                        .enumerate()
                        .map(|(i, c)| [i as f64, c.f1])
                        .collect::<Vec<_>>(),
                ),
            )
        });
    });
    let bars: Vec<Bar> = r
        .per_class
        .iter()
        .enumerate()
        .map(|(i, c)| Bar::new(i as f64, c.f1).name(format!("{} F1 {:.3}", c.label, c.f1)))
        .collect();
    let labels = r.labels.clone();
    Plot::new("cls_f1_bars")
        .height(160.0)
        .y_axis_label("F1")
        .include_y(0.0)
        .include_y(1.0)
        .x_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-9 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |pl| pl.bar_chart(BarChart::new("F1", bars)));
}

/// The confusion matrix as a heat map; a click selects a cell.
fn confusion(
    lang: Lang,
    ui: &mut Ui,
    out: &TrainOutput,
    cell: &mut Option<(usize, usize)>,
    ex: &mut Exports,
) {
    let r = &out.result;
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cls.confusion")).size(17.0).strong());
        table_button(ui, lang, ex, || {
            let mut headers = vec!["truth \\ predicted".to_string()];
            headers.extend(r.labels.iter().cloned());
            let mut t = Table::new(lang.t("cls.confusion"), headers);
            for (i, row) in r.confusion.iter().enumerate() {
                let mut cells = vec![r.labels.get(i).cloned().unwrap_or_default()];
                cells.extend(row.iter().map(|n| n.to_string()));
                t.push(cells);
            }
            t
        });
    });
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cls.confusion_hint")).weak().small());
        if ui.small_button(lang.t("cls.worst_cell")).clicked() {
            *cell = worst_cell(&r.confusion);
        }
    });
    let max_off = r
        .confusion
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter()
                .enumerate()
                .filter(move |(j, _)| *j != i)
                .map(|(_, n)| *n)
        })
        .max()
        .unwrap_or(1)
        .max(1);
    egui::Grid::new("cls_confusion")
        .spacing([2.0, 2.0])
        .show(ui, |ui| {
            ui.label("");
            for l in &r.labels {
                ui.label(RichText::new(l).small());
            }
            ui.end_row();
            for (i, row) in r.confusion.iter().enumerate() {
                ui.label(RichText::new(r.labels.get(i).map_or("", String::as_str)).small());
                for (j, n) in row.iter().enumerate() {
                    let (fill, text) = if i == j {
                        (Color32::from_rgb(0x2e, 0x9e, 0x4f), Color32::WHITE)
                    } else {
                        let a = (*n as f32 / max_off as f32).clamp(0.0, 1.0);
                        let c = (255.0 * (1.0 - 0.75 * a)) as u8;
                        (Color32::from_rgb(255, c, c), Color32::BLACK)
                    };
                    let selected = *cell == Some((i, j));
                    let b = egui::Button::new(RichText::new(n.to_string()).color(text).small())
                        .fill(fill)
                        .min_size(egui::vec2(58.0, 22.0))
                        .selected(selected);
                    if ui
                        .add(b)
                        .on_hover_text(lang.tf("cls.cell_hover", &[&r.labels[i], &r.labels[j], n]))
                        .clicked()
                    {
                        *cell = Some((i, j));
                    }
                }
                ui.end_row();
            }
        });
}

/// The off-diagonal cell with the most documents: the most common confusion.
fn worst_cell(confusion: &[Vec<u64>]) -> Option<(usize, usize)> {
    confusion
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().map(move |(j, n)| (i, j, *n)))
        .filter(|(i, j, n)| i != j && *n > 0)
        .max_by_key(|(_, _, n)| *n)
        .map(|(i, j, _)| (i, j))
}

fn mistakes_view(lang: Lang, ui: &mut Ui, out: &TrainOutput, m: &[Mistake], cell: (usize, usize)) {
    let r = &out.result;
    let (t, p) = cell;
    let list: Vec<&Mistake> = m
        .iter()
        .filter(|x| x.truth == t && x.predicted == p)
        .collect();
    ui.label(
        RichText::new(lang.tf("cls.cell_title", &[&r.labels[t], &r.labels[p], &list.len()]))
            .strong(),
    );
    if t == p {
        ui.label(RichText::new(lang.t("cls.cell_diag")).weak());
        return;
    }
    for x in list.iter().take(30) {
        egui::Frame::group(ui.style())
            .inner_margin(6.0)
            .show(ui, |ui| {
                ui.label(RichText::new(&x.text).strong());
                ui.label(RichText::new(&x.location).monospace().small().weak());
                let scores: Vec<String> = x
                    .why
                    .class_scores
                    .iter()
                    .take(3)
                    .map(|c| format!("{} {:.3}", c.label, c.score))
                    .collect();
                ui.label(lang.tf("cls.scores", &[&x.why.score_kind, &scores.join(" · ")]));
                let feats: Vec<String> = x
                    .why
                    .top_features
                    .iter()
                    .take(8)
                    .map(|f| format!("{} {:+.3}", f.term, f.weight))
                    .collect();
                if !feats.is_empty() {
                    ui.label(lang.tf("cls.features_decided", &[&feats.join("  ")]));
                }
                for nb in x.why.neighbours.iter().take(3) {
                    ui.label(
                        RichText::new(format!(
                            "{}  {}  {:.3}",
                            nb.label, nb.location, nb.similarity
                        ))
                        .small(),
                    );
                }
            });
    }
}

fn sweep_plot(lang: Lang, ui: &mut Ui, curves: &[SweepCurve], ex: &mut Exports) {
    let name = |m: Method| match m {
        Method::Df => "DF",
        Method::Ig => "IG",
        Method::Mi => "MI",
        Method::Chi => "CHI",
    };
    let series: Vec<(String, Vec<[f64; 2]>)> = curves
        .iter()
        .map(|c| {
            let pts = c
                .points
                .iter()
                .zip(SWEEP_PERCENTS)
                .map(|(p, x)| [x, p.result.macro_f1])
                .collect();
            (name(c.method).to_string(), pts)
        })
        .collect();
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cls.sweep_title")).size(17.0).strong());
        plot_buttons(ui, lang, ex, || {
            let mut p = XPlot::new(lang.t("cls.sweep_title"), lang.t("cls.sweep_x"), "macro-F1")
                .log_x()
                .mark(Mark::VLine {
                    x: 20.0,
                    label: lang.t("cls.book_80").to_string(),
                });
            for (n, pts) in &series {
                p = p.series(XSeries::line(n.clone(), pts.clone()));
            }
            p
        });
    });
    ui.label(RichText::new(lang.t("cls.book_80")).weak());
    Plot::new("cls_sweep")
        .height(220.0)
        .legend(Legend::default().position(egui_plot::Corner::RightBottom))
        .x_axis_label(lang.t("cls.sweep_x"))
        .y_axis_label("macro-F1")
        .show(ui, |pl| {
            for (n, pts) in &series {
                pl.line(Line::new(n.clone(), PlotPoints::from(pts.clone())));
            }
            pl.vline(
                VLine::new(lang.t("cls.book_80"), 20.0).color(Color32::from_rgb(0xb0, 0x30, 0x30)),
            );
        });
}

impl LabPanel for ClassifyPanel {
    fn info(&self) -> PanelInfo {
        panel_info!("Classify", "classify", ["classify-train", "classify-sweep"])
    }

    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        let ctx = ui.ctx().clone();
        self.poll(cx, &ctx);
        ui.heading(lang.t("cls.heading"));
        ui.label(RichText::new(lang.t("cls.intro")).weak());
        ui.add_space(4.0);
        self.form(cx, ui);
        if let Some(out) = self.result.clone() {
            ui.add_space(8.0);
            results(lang, ui, &out, &mut cx.hub.exports);
            ui.add_space(8.0);
            confusion(lang, ui, &out, &mut self.cell, &mut cx.hub.exports);
            if let Some(cell) = self.cell {
                match &self.shown_mistakes {
                    Some(m) => mistakes_view(lang, ui, &out, m, cell),
                    None => {
                        ui.spinner();
                    }
                }
            }
        }
        if let Some(c) = self.curves.clone() {
            ui.add_space(10.0);
            sweep_plot(lang, ui, &c, &mut cx.hub.exports);
        }
    }

    fn reopen(
        &mut self,
        kind: &str,
        _id: i64,
        params: &serde_json::Value,
        _lang: Lang,
    ) -> Result<(), String> {
        let (train, test) = match kind {
            "classify-sweep" => {
                let p: SweepParams = logged(params)?;
                (p.train, p.test)
            }
            _ => {
                let p: TrainParams = logged(params)?;
                self.model = match p.config.model {
                    ModelConfig::Nb(NbConfig { alpha: None, .. }) => ModelChoice::NbBook,
                    ModelConfig::Nb(NbConfig { alpha: Some(a), .. }) => {
                        self.alpha = a;
                        ModelChoice::Nb
                    }
                    ModelConfig::Knn(k) => {
                        self.k = k.k;
                        ModelChoice::Knn
                    }
                    ModelConfig::Rocchio(_) => ModelChoice::Rocchio,
                    ModelConfig::Tree(_) => ModelChoice::Tree,
                    _ => ModelChoice::Svm,
                };
                self.select = p.config.selection.as_ref().map(|s| s.method);
                if let Some(SelectionConfig {
                    keep: Keep::Percent(x),
                    ..
                }) = p.config.selection
                {
                    self.keep_percent = x;
                }
                (p.train, p.test)
            }
        };
        self.train = train.display().to_string();
        self.test = test.display().to_string();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_common_confusion_is_off_the_diagonal() {
        let m = vec![vec![50, 3, 9], vec![1, 40, 0], vec![2, 8, 30]];
        assert_eq!(worst_cell(&m), Some((0, 2)));
        assert_eq!(worst_cell(&[vec![5, 0], vec![0, 5]]), None);
    }
}
