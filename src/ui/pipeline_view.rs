//! The Overview's pipeline: "build the whole engine" in one click (the composition root's
//! `build` job, book ch. 2 [L614–L735]) and the stages drawn as a row — crawl → clean → dedup →
//! index → PageRank (→ classify) — with what flowed between them (pages fetched and stored,
//! pages cleaned, groups and unique pages, documents, terms and postings, pages ranked), each
//! stage's time and status, the stage running now, and a link that opens the stage's panel on
//! its run. The stages' state is read in the background (`pipeline::status`) when the workspace
//! opens and after every job; the row draws that plain data, and a spinner beside the Build
//! button says while a re-read runs.

use std::path::PathBuf;

use egui::{Color32, RichText, Ui};

use super::Lang;
use super::job_watch::{Finished, JobWatch};
use super::panel::{Cx, Request};
use super::shell::grouped;
use super::task::Loaded;
use crate::engine::classify::persist::ModelRow;
use crate::engine::jobs::TypedJob;
use crate::workbench::pipeline::{BuildJob, BuildOutcome, BuildParams, STAGES, Status};

/// One stage as drawn: its last run as kept, whether it has work now, and the logged run's kind
/// and parameters (to re-open it in its panel).
#[derive(Debug, Clone)]
pub(crate) struct Card {
    pub name: String,
    pub last: Option<crate::workbench::pipeline::state::Kept>,
    pub stale: bool,
    pub run: Option<(String, serde_json::Value)>,
}

/// The pipeline part of the Overview.
pub(crate) struct PipelineView {
    ws: Option<PathBuf>,
    cards: Loaded<Vec<Card>>,
    models: Loaded<Vec<ModelRow>>,
    build: Option<JobWatch<BuildJob>>,
    /// The last build started here, finished.
    last: Option<BuildOutcome>,
    seen_finished: Option<i64>,
    from_sample: bool,
    seeds: String,
    model: Option<i64>,
    error: Option<String>,
}

impl Default for PipelineView {
    fn default() -> Self {
        PipelineView {
            ws: None,
            cards: Loaded::default(),
            models: Loaded::default(),
            build: None,
            last: None,
            seen_finished: None,
            from_sample: true,
            seeds: String::new(),
            model: None,
            error: None,
        }
    }
}

/// The string-table key of a stage's name.
fn stage_key(name: &str) -> &'static str {
    match name {
        "crawl" => "pipe.stage_crawl",
        "clean" => "pipe.stage_clean",
        "dedup" => "pipe.stage_dedup",
        "index" => "pipe.stage_index",
        "pagerank" => "pipe.stage_pagerank",
        _ => "pipe.stage_classify",
    }
}

/// The figures a stage shows, by string key, in order.
fn figures(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "crawl" => &[
            ("fetched", "pipe.fig_fetched"),
            ("stored_pages", "pipe.fig_stored"),
        ],
        "clean" => &[
            ("cleaned_pages", "pipe.fig_cleaned"),
            ("hub", "pipe.fig_hub"),
        ],
        "dedup" => &[("groups", "pipe.fig_groups"), ("unique", "pipe.fig_unique")],
        "index" => &[
            ("docs", "pipe.fig_docs"),
            ("terms", "pipe.fig_terms"),
            ("postings", "pipe.fig_postings"),
        ],
        "pagerank" => &[("ranked", "pipe.fig_ranked"), ("edges", "pipe.fig_links")],
        _ => &[
            ("classified", "pipe.fig_classified"),
            ("categories", "pipe.fig_categories"),
        ],
    }
}

/// The stages' state, read off the UI thread; its counts wait while `first` is held (the Pages
/// list loading), at most a few seconds each.
fn load_cards(
    path: &std::path::Path,
    first: &super::task::Gate,
) -> crate::engine::error::Result<Vec<Card>> {
    let ws = crate::engine::store::Workspace::open_existing(path)?;
    let mut out = Vec::new();
    let pause = || first.wait_clear(std::time::Duration::from_secs(5));
    for s in crate::workbench::pipeline::status_pausing(&ws, &pause)? {
        let run = match s.last.as_ref().and_then(|k| k.job_id) {
            Some(id) => crate::engine::jobs::get_job(&ws, id)?.map(|r| (r.kind, r.params)),
            None => None,
        };
        out.push(Card {
            name: s.name,
            last: s.last,
            stale: s.stale,
            run,
        });
    }
    Ok(out)
}

impl PipelineView {
    /// Follow the open workspace and the jobs that change what the stages read.
    fn follow(&mut self, cx: &Cx<'_>, ctx: &egui::Context) {
        let now = cx.session.map(|s| s.path.clone());
        if now != self.ws {
            self.ws = now;
            self.cards = Loaded::default();
            self.models = Loaded::default();
            self.last = None;
            self.model = None;
        }
        if let Some(end) = JobWatch::take_finished(&mut self.build) {
            match end.outcome {
                Finished::Done(out) => {
                    self.last = Some(out);
                    self.error = None;
                }
                Finished::Failed(code) => self.error = Some(cx.lang.error_code(&code)),
                Finished::Cancelled => self.error = Some(cx.lang.t("pipe.cancelled").into()),
            }
            self.cards.invalidate();
        }
        if let Some(s) = &cx.hub.last_finished
            && s.id != self.seen_finished
        {
            self.seen_finished = s.id;
            self.cards.invalidate();
            self.models.invalidate();
        }
        if let Some(path) = self.ws.clone() {
            let lang = cx.lang;
            let p = path.clone();
            let first = cx.hub.first_reads.clone();
            self.cards.update(ctx, move || {
                load_cards(&p, &first).map_err(|e| lang.error(&e))
            });
            self.models.update(ctx, move || {
                crate::engine::classify::persist::list(
                    crate::engine::store::Workspace::open_existing(&path)
                        .map_err(|e| lang.error(&e))?
                        .conn(),
                )
                .map_err(|e| lang.error(&e))
            });
        }
    }

    fn start(&mut self, cx: &mut Cx<'_>) {
        let params = BuildParams {
            sample: self.from_sample,
            seeds: if self.from_sample {
                Vec::new()
            } else {
                self.seeds.split_whitespace().map(str::to_string).collect()
            },
            max_pages: None,
            classify: self.model,
        };
        match BuildJob::from_params(params) {
            Ok(job) => {
                self.error = None;
                self.last = None;
                self.build = JobWatch::start(cx, job);
            }
            Err(e) => self.error = Some(cx.lang.error(&e)),
        }
    }

    /// The stage running now (the first the running build has not finished).
    fn running_stage(&self) -> Option<&'static str> {
        let b = self.build.as_ref().filter(|b| b.is_running())?;
        let s = b.snapshot();
        let classify = s.params.get("classify").is_some_and(|v| !v.is_null());
        STAGES
            .iter()
            .copied()
            .filter(|n| *n != "classify" || classify)
            .find(|n| {
                !s.progress
                    .counters
                    .iter()
                    .any(|(k, _)| k == &format!("stage {n}"))
            })
    }

    /// Put a logged build's parameters back into the form.
    pub(crate) fn reopen(&mut self, params: &BuildParams) {
        self.from_sample = params.sample;
        self.seeds = params.seeds.join(" ");
        self.model = params.classify;
    }

    /// Draw the whole pipeline part.
    pub(crate) fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.follow(cx, &ctx);
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("pipe.title")).size(18.0).strong());
        ui.label(lang.t("pipe.intro"));
        ui.add_space(4.0);
        self.form(cx, ui);
        ui.add_space(6.0);
        self.row(cx, ui);
        if let Some(out) = &self.last {
            ui.add_space(4.0);
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(lang.tf(
                        "pipe.summary",
                        &[
                            &grouped(out.pages),
                            &grouped(out.cleaned),
                            &grouped(out.clusters),
                            &grouped(out.unique),
                            &grouped(out.indexed_docs),
                            &grouped(out.terms),
                            &grouped(out.ranked),
                            &format!("{:.1}", out.seconds),
                        ],
                    ))
                    .strong(),
                );
                if ui.link(lang.t("pipe.go_search")).clicked() {
                    cx.goto("search");
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }

    /// Source (the sample web or seeds), the model to classify with, Build / progress.
    fn form(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut self.from_sample, true, lang.t("pipe.from_sample"));
            ui.radio_value(&mut self.from_sample, false, lang.t("pipe.from_seeds"));
            if !self.from_sample {
                ui.add(
                    egui::TextEdit::singleline(&mut self.seeds)
                        .desired_width(320.0)
                        .hint_text("http://www.huaxia.localhost:8080/"),
                );
            }
            ui.separator();
            let l = ui.label(lang.t("pipe.classify"));
            let models = self.models.value.as_deref().unwrap_or(&[]);
            let chosen = self
                .model
                .and_then(|m| models.iter().find(|r| r.id == m))
                .map_or_else(
                    || lang.t("pipe.no_classify").to_string(),
                    |r| format!("#{} {}", r.id, r.name),
                );
            egui::ComboBox::from_id_salt("pipe_model")
                .selected_text(chosen)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.model, None, lang.t("pipe.no_classify"));
                    for r in models {
                        ui.selectable_value(
                            &mut self.model,
                            Some(r.id),
                            format!("#{} {} ({})", r.id, r.name, r.kind),
                        );
                    }
                })
                .response
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let running = self.build.as_ref().is_some_and(JobWatch::is_running)
                || cx.is_running(BuildJob::KIND);
            if let Some(b) = self.build.as_ref().filter(|b| b.is_running()) {
                b.progress_row(ui, lang, lang.t("pipe.cancel"));
            } else if ui
                .add_enabled(
                    cx.session.is_some() && !running,
                    egui::Button::new(RichText::new(lang.t("pipe.build")).strong()),
                )
                .on_hover_text(lang.t("pipe.build_tip"))
                .clicked()
            {
                self.start(cx);
            }
            // The cards are re-read after every job with the old ones still drawn: say so (and
            // keep frames coming) until the new state lands and the row can move under them.
            if self.cards.is_loading() && self.cards.value.is_some() {
                ui.spinner();
                ui.label(RichText::new(lang.t("pipe.refreshing")).weak());
            }
        });
    }

    /// The stages as a row of cards with what flowed between them.
    fn row(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        let cards = self.cards.value.as_deref().unwrap_or(&[]);
        if cards.is_empty() && self.cards.is_loading() {
            ui.spinner();
            return;
        }
        let running = self.running_stage();
        let mut reopen = None;
        super::wrap::row(ui, |ui| {
            let mut first = true;
            for name in STAGES {
                let card = cards.iter().find(|c| c.name == *name);
                let in_build = self.last.as_ref().and_then(|o| o.stage(name));
                if card.is_none() && in_build.is_none() && running != Some(name) {
                    continue;
                }
                if !first {
                    // Level with a card's first lines (the row aligns its items at the top).
                    let size = egui::vec2(26.0, 60.0);
                    ui.allocate_ui_with_layout(
                        size,
                        egui::Layout::top_down(egui::Align::Center),
                        |ui| {
                            ui.add_space(30.0);
                            ui.label(RichText::new("→").size(22.0).weak());
                        },
                    );
                }
                first = false;
                let stage = StageView {
                    name,
                    card,
                    in_build,
                    running: running == Some(*name),
                };
                let width = super::wrap::framed(STAGE_WIDTH, 8.0);
                if let Some(r) = super::wrap::item(ui, width, |ui| stage.ui(lang, ui)) {
                    reopen = Some(r);
                }
            }
        });
        if let Some(r) = reopen {
            cx.request(r);
        }
    }
}

/// A stage card's content width (its text wraps inside it).
const STAGE_WIDTH: f32 = 140.0;

/// What one card shows.
struct StageView<'a> {
    name: &'a str,
    card: Option<&'a Card>,
    in_build: Option<&'a crate::workbench::pipeline::StageRun>,
    running: bool,
}

impl StageView<'_> {
    /// The status line and its colour.
    fn status(&self, lang: Lang) -> (String, Color32) {
        let ok = Color32::from_rgb(20, 140, 60);
        let info = Color32::from_rgb(30, 110, 190);
        let warn = Color32::from_rgb(200, 120, 0);
        let bad = Color32::from_rgb(200, 50, 40);
        if self.running {
            return (lang.t("pipe.running").into(), info);
        }
        if let Some(r) = self.in_build {
            return match r.status {
                Status::Done => (lang.tf("pipe.done_in", &[&format!("{:.1}", r.seconds)]), ok),
                Status::UpToDate => (lang.t("pipe.up_to_date").into(), info),
                Status::Failed => (lang.t("pipe.failed").into(), bad),
                Status::Cancelled => (lang.t("pipe.stage_cancelled").into(), warn),
            };
        }
        match self.card {
            Some(c) if c.last.is_none() => (lang.t("pipe.never").into(), Color32::GRAY),
            Some(c) if c.stale => (lang.t("pipe.stale").into(), warn),
            Some(c) => {
                let secs = c.last.as_ref().map_or(0.0, |k| k.run.seconds);
                (lang.tf("pipe.done_in", &[&format!("{secs:.1}")]), ok)
            }
            None => (lang.t("pipe.never").into(), Color32::GRAY),
        }
    }

    /// Draw the card; a click on its run link asks to re-open that run in its panel.
    fn ui(&self, lang: Lang, ui: &mut Ui) -> Option<Request> {
        let counts = self.in_build.map(|r| &r.counts).or_else(|| {
            self.card
                .and_then(|c| c.last.as_ref().map(|k| &k.run.counts))
        });
        let (status, colour) = self.status(lang);
        let mut out = None;
        egui::Frame::group(ui.style())
            .inner_margin(8.0)
            .corner_radius(6.0)
            .stroke(egui::Stroke::new(1.5, colour))
            .show(ui, |ui| {
                ui.set_width(STAGE_WIDTH);
                ui.vertical(|ui| {
                    ui.label(
                        RichText::new(lang.t(stage_key(self.name)))
                            .strong()
                            .size(15.0),
                    );
                    ui.horizontal(|ui| {
                        if self.running {
                            ui.spinner();
                        }
                        ui.label(RichText::new(status).color(colour));
                    });
                    for (key, label) in figures(self.name) {
                        let v = counts.and_then(|c| c.get(*key)).copied();
                        ui.label(format!(
                            "{} {}",
                            lang.t(label),
                            v.map_or_else(|| "—".to_string(), grouped)
                        ));
                    }
                    if let Some(c) = self.card
                        && let (Some(k), Some((kind, params))) = (&c.last, &c.run)
                        && let Some(id) = k.job_id
                        && ui
                            .link(lang.tf("pipe.open_run", &[&id]))
                            .on_hover_text(lang.t("pipe.open_tip"))
                            .clicked()
                    {
                        out = Some(Request::Reopen {
                            kind: kind.clone(),
                            id,
                            params: params.clone(),
                        });
                    }
                });
            });
        out
    }
}
