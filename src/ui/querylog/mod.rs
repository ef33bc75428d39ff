//! The query-log panel (查询日志, book ch. 9): read a log file, generate a calibrated
//! synthetic one, or pick one stored in the workspace; import a file as a logged job; then one
//! tab per statistic with its plot and the book's number beside ours (`tabs`). The statistics
//! are always a logged `querylog-stats` job on the open workspace (progress in the top bar and
//! here, cancel, re-openable from the experiment log); a synthetic log is first written by a
//! `querylog-generate` job and kept for "send this stream to the cache lab". The panel only
//! draws the plain `Stats` the job returns.

mod figure;
mod send;
mod tabs;

use std::path::PathBuf;

use egui::{RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::job_watch::{Finished, JobWatch};
use super::panel::{Cx, LabPanel, Request, logged};
use super::stored_logs::StoredLogs;
use super::task::Task;
use crate::engine::jobs::TypedJob;
use crate::engine::querylog::generate::GenConfig;
use crate::engine::querylog::job::{
    GenerateJob, GenerateParams, ImportJob, ImportParams, LogSource, StatsJob, StatsOutput,
    StatsParams,
};
use crate::engine::querylog::read::ReadConfig;
use crate::engine::querylog::stats::StatsConfig;
use crate::engine::querylog::{Format, Normalise};

/// Where the next computation reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceKind {
    File,
    Generate,
    Stored,
}

/// The statistic shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tab {
    Volume,
    RankFrequency,
    Coverage,
    Decay,
    Deviation,
    Pages,
    Clicks,
    Urls,
    SelfSim,
    Lengths,
    TimeOfDay,
}

impl Tab {
    const ALL: [Tab; 11] = [
        Tab::Volume,
        Tab::RankFrequency,
        Tab::Coverage,
        Tab::Decay,
        Tab::Deviation,
        Tab::Pages,
        Tab::Clicks,
        Tab::Urls,
        Tab::SelfSim,
        Tab::Lengths,
        Tab::TimeOfDay,
    ];

    fn key(self) -> &'static str {
        match self {
            Tab::Volume => "ql.tab_volume",
            Tab::RankFrequency => "ql.tab_rank",
            Tab::Coverage => "ql.tab_coverage",
            Tab::Decay => "ql.tab_decay",
            Tab::Deviation => "ql.tab_deviation",
            Tab::Pages => "ql.tab_pages",
            Tab::Clicks => "ql.tab_clicks",
            Tab::Urls => "ql.tab_urls",
            Tab::SelfSim => "ql.tab_selfsim",
            Tab::Lengths => "ql.tab_lengths",
            Tab::TimeOfDay => "ql.tab_time",
        }
    }
}

/// A computed log: its statistics and the file they came from (for the cache lab).
pub(crate) struct Computed {
    pub out: StatsOutput,
    pub file: Option<PathBuf>,
    pub synthetic: bool,
    /// The engine that counted (native, DataFusion, Spark).
    pub engine: crate::engine::exec::Engine,
}

/// What a statistics run needs once its synthetic log is written.
struct Pending {
    config: StatsConfig,
    engine: crate::engine::exec::EngineConfig,
    format: Format,
}

/// What a running `querylog-stats` job reads: the file (for the cache lab), whether it is
/// synthetic, and the engine that counts.
struct Counting {
    file: Option<PathBuf>,
    synthetic: bool,
    engine: crate::engine::exec::Engine,
}

pub(crate) struct QuerylogPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    source: SourceKind,
    path: String,
    format: Format,
    encoding: String,
    normalise: bool,
    first_page_only: bool,
    zipf_min: usize,
    /// 0: up to the last rank.
    zipf_max: usize,
    group: usize,
    generator: GenConfig,
    stored: StoredLogs,
    /// Where the statistics run (native, DataFusion, Spark).
    engine: crate::engine::exec::EngineConfig,
    user_sample: Option<f64>,
    time_from: String,
    time_to: String,
    /// A synthetic log being written (`querylog-generate`); its statistics start when it is.
    generating: Option<(Pending, JobWatch<GenerateJob>)>,
    /// The statistics being computed (`querylog-stats`).
    counting: Option<(Counting, JobWatch<StatsJob>)>,
    /// The last run was cancelled.
    cancelled: bool,
    computed: Option<Computed>,
    error: Option<String>,
    tab: Tab,
    import: Option<JobWatch<ImportJob>>,
    sent: Option<Result<PathBuf, String>>,
    sending: Option<Task<Result<PathBuf, String>>>,
}

impl Default for QuerylogPanel {
    fn default() -> Self {
        QuerylogPanel {
            book: Default::default(),
            source: SourceKind::Generate,
            path: String::new(),
            format: Format::Sogouq,
            encoding: String::new(),
            normalise: true,
            first_page_only: false,
            zipf_min: 1,
            zipf_max: 0,
            group: 1000,
            generator: GenConfig::default(),
            stored: StoredLogs::default(),
            engine: Default::default(),
            user_sample: None,
            time_from: String::new(),
            time_to: String::new(),
            generating: None,
            counting: None,
            cancelled: false,
            computed: None,
            error: None,
            tab: Tab::Volume,
            import: None,
            sent: None,
            sending: None,
        }
    }
}

fn format_name(lang: Lang, f: Format) -> &'static str {
    match f {
        Format::Sogouq => "SogouQ",
        Format::TianwangQuery => lang.t("ql.fmt_tw_query"),
        Format::TianwangClick => lang.t("ql.fmt_tw_click"),
        Format::Tsv => "TSV",
    }
}

/// The synthetic log's targets (digest App. E).
fn generator_ui(ui: &mut Ui, lang: Lang, g: &mut GenConfig) {
    egui::Grid::new("ql_gen").num_columns(6).show(ui, |ui| {
        let l = ui.label(lang.t("ql.gen_lines"));
        ui.add(egui::DragValue::new(&mut g.lines).range(1000..=20_000_000))
            .labelled_by(l.id);
        let l = ui.label(lang.t("ql.gen_seed"));
        ui.add(egui::DragValue::new(&mut g.seed)).labelled_by(l.id);
        let l = ui.label(lang.t("ql.gen_zipf"));
        ui.add(
            egui::DragValue::new(&mut g.zipf)
                .range(0.2..=2.5)
                .speed(0.01),
        )
        .labelled_by(l.id);
        ui.end_row();
        let l = ui.label(lang.t("ql.gen_ratio"));
        ui.add(
            egui::DragValue::new(&mut g.distinct_ratio)
                .range(0.01..=0.4)
                .speed(0.005),
        )
        .labelled_by(l.id);
        let l = ui.label(lang.t("ql.gen_repeat"));
        ui.add(
            egui::DragValue::new(&mut g.repeat)
                .range(0.0..=0.9)
                .speed(0.01),
        )
        .labelled_by(l.id);
        let l = ui.label("Hurst");
        ui.add(
            egui::DragValue::new(&mut g.hurst)
                .range(0.5..=0.95)
                .speed(0.01),
        )
        .labelled_by(l.id);
        ui.end_row();
    });
}

impl QuerylogPanel {
    fn stats_config(&self, lang: Lang) -> Result<StatsConfig, String> {
        let parse = |s: &str| -> Result<Option<i64>, String> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            crate::engine::querylog::read::parse_time(s)
                .map(|t| Some(t.0))
                .or_else(|_| s.parse::<i64>().map(Some))
                .map_err(|_| lang.tf("ql.bad_time", &[&s]))
        };
        let cfg = StatsConfig {
            normalise: if self.normalise {
                Normalise::default()
            } else {
                Normalise::RAW
            },
            first_page_only: self.first_page_only,
            group_size: self.group.max(2),
            zipf: crate::engine::querylog::fit::ZipfRange {
                min_rank: self.zipf_min.max(1),
                max_rank: (self.zipf_max > 0).then_some(self.zipf_max),
                min_count: 1,
            },
            time_from: parse(&self.time_from)?,
            time_to: parse(&self.time_to)?,
            user_sample_pct: self.user_sample,
            ..StatsConfig::default()
        };
        cfg.validate().map_err(|e| lang.error(&e))?;
        Ok(cfg)
    }

    fn read_config(&self) -> ReadConfig {
        ReadConfig {
            encoding: (!self.encoding.trim().is_empty()).then(|| self.encoding.trim().to_string()),
            ..ReadConfig::new(self.format)
        }
    }

    /// A run is in flight (writing a synthetic log or counting).
    fn busy(&self) -> bool {
        self.generating.is_some() || self.counting.is_some()
    }

    /// Stop the run in flight, if any.
    fn cancel_run(&mut self) {
        if let Some((_, w)) = &self.generating {
            w.cancel();
        }
        if let Some((_, w)) = &self.counting {
            w.cancel();
        }
        self.generating = None;
        self.counting = None;
    }

    /// Start the statistics of the chosen source as logged jobs (a synthetic log is written
    /// first); a run still in flight is cancelled.
    fn start(&mut self, cx: &mut Cx<'_>) {
        self.cancel_run();
        self.cancelled = false;
        if cx.session.is_none() {
            self.error = Some(cx.lang.t("ql.need_ws").into());
            return;
        }
        let config = match self.stats_config(cx.lang) {
            Ok(c) => c,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        self.error = None;
        let engine = self.engine.clone();
        match self.source {
            SourceKind::Generate => {
                let params = GenerateParams {
                    config: self.generator.clone(),
                    // In the workspace's own folder, named after the generator's settings: the
                    // same settings rewrite one file (a log of up to 20 M lines per run once
                    // stayed in the temp folder forever).
                    path: send::generated_file(
                        cx.session.map(|s| s.path.as_path()),
                        "querylog",
                        &serde_json::to_string(&self.generator).unwrap_or_default(),
                        "log",
                    ),
                };
                match GenerateJob::from_params(params) {
                    Ok(job) => {
                        let next = Pending {
                            config,
                            engine,
                            format: self.generator.format,
                        };
                        self.generating = JobWatch::start(cx, job).map(|w| (next, w));
                        if self.generating.is_none() {
                            self.error = Some(cx.lang.t("ql.need_ws").into());
                        }
                    }
                    Err(e) => self.error = Some(cx.lang.error(&e)),
                }
            }
            SourceKind::File => {
                let path = PathBuf::from(self.path.trim());
                let source = LogSource::File {
                    path: path.clone(),
                    read: self.read_config(),
                };
                self.start_stats(cx, source, config, engine, Some(path), false);
            }
            SourceKind::Stored => match self.stored.pick {
                Some(log_id) => {
                    let source = LogSource::Stored { log_id };
                    self.start_stats(cx, source, config, engine, None, false);
                }
                None => self.error = Some(cx.lang.t("ql.pick_stored").into()),
            },
        }
    }

    /// Start the `querylog-stats` job; `file` is what it reads (kept for the cache lab).
    fn start_stats(
        &mut self,
        cx: &mut Cx<'_>,
        source: LogSource,
        config: StatsConfig,
        engine: crate::engine::exec::EngineConfig,
        file: Option<PathBuf>,
        synthetic: bool,
    ) {
        let ran_on = engine.engine;
        match StatsJob::from_params(StatsParams {
            source,
            config,
            engine,
        }) {
            Ok(job) => {
                let run = Counting {
                    file,
                    synthetic,
                    engine: ran_on,
                };
                self.counting = JobWatch::start(cx, job).map(|w| (run, w));
                if self.counting.is_none() {
                    self.error = Some(cx.lang.t("ql.need_ws").into());
                }
            }
            Err(e) => self.error = Some(cx.lang.error(&e)),
        }
    }

    fn source_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.horizontal(|ui| {
            ui.selectable_value(
                &mut self.source,
                SourceKind::Generate,
                lang.t("ql.src_generate"),
            );
            ui.selectable_value(&mut self.source, SourceKind::File, lang.t("ql.src_file"));
            ui.selectable_value(
                &mut self.source,
                SourceKind::Stored,
                lang.t("ql.src_stored"),
            );
        });
        match self.source {
            SourceKind::File => {
                ui.horizontal(|ui| {
                    let l = ui.label(lang.t("ql.file"));
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(420.0))
                        .labelled_by(l.id);
                });
                ui.horizontal(|ui| {
                    ui.label(lang.t("ql.format"));
                    for f in [Format::Sogouq, Format::TianwangQuery, Format::TianwangClick] {
                        ui.selectable_value(&mut self.format, f, format_name(lang, f));
                    }
                    let l = ui.label(lang.t("ql.encoding"));
                    ui.add(
                        egui::TextEdit::singleline(&mut self.encoding)
                            .hint_text(lang.t("ql.encoding_auto"))
                            .desired_width(90.0),
                    )
                    .labelled_by(l.id);
                });
            }
            SourceKind::Generate => {
                generator_ui(ui, lang, &mut self.generator);
                ui.label(RichText::new(lang.t("ql.gen_note")).weak());
            }
            SourceKind::Stored => {
                let ws = cx.session.map(|s| s.path.as_path());
                self.stored.ui(ui, lang, ws, lang.t("ql.no_stored"));
            }
        }
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.normalise, lang.t("ql.normalise"))
                .on_hover_text(lang.t("ql.normalise_hint"));
            ui.checkbox(&mut self.first_page_only, lang.t("ql.first_page_only"));
            let l = ui.label(lang.t("ql.zipf_range"));
            ui.add(egui::DragValue::new(&mut self.zipf_min).range(1..=100_000_000))
                .labelled_by(l.id);
            let l = ui.label("–");
            ui.add(egui::DragValue::new(&mut self.zipf_max).range(0..=100_000_000))
                .labelled_by(l.id)
                .on_hover_text(lang.t("ql.zipf_max_hint"));
            let l = ui.label(lang.t("ql.group"));
            ui.add(egui::DragValue::new(&mut self.group).range(2..=1_000_000))
                .labelled_by(l.id);
            let mut sample = self.user_sample.is_some();
            if ui.checkbox(&mut sample, lang.t("ql.user_sample")).changed() {
                self.user_sample = sample.then_some(10.0);
            }
            if let Some(p) = &mut self.user_sample {
                ui.add(egui::DragValue::new(p).range(0.1..=100.0).suffix(" %"));
            }
            let l = ui.label(lang.t("ql.time_range"));
            ui.add(
                egui::TextEdit::singleline(&mut self.time_from)
                    .desired_width(90.0)
                    .hint_text("00:00:00"),
            )
            .labelled_by(l.id);
            let l = ui.label("–");
            ui.add(
                egui::TextEdit::singleline(&mut self.time_to)
                    .desired_width(90.0)
                    .hint_text("23:59:59"),
            )
            .labelled_by(l.id);
        });
        crate::ui::engine_choice::engine_row(
            ui,
            lang,
            &mut self.engine,
            Some(lang.t("engine.querylog_note")),
        );
        self.run_row(cx, ui);
    }

    /// Compute (or generate and compute), the run's progress with cancel, import.
    fn run_row(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.horizontal(|ui| {
            let busy = self.busy();
            let label = if self.source == SourceKind::Generate {
                lang.t("ql.generate_compute")
            } else {
                lang.t("ql.compute")
            };
            let has_ws = cx.session.is_some();
            if ui
                .add_enabled(has_ws && !busy, egui::Button::new(label))
                .clicked()
            {
                self.start(cx);
            }
            if let Some((_, w)) = &self.generating {
                ui.label(lang.t("ql.generating"));
                w.progress_row(ui, lang, lang.t("ql.cancel"));
            } else if let Some((_, w)) = &self.counting {
                w.progress_row(ui, lang, lang.t("ql.cancel"));
            }
            if !has_ws {
                ui.label(RichText::new(lang.t("ql.need_ws")).weak());
            }
            if self.source == SourceKind::File {
                let can = has_ws && !cx.is_running(ImportJob::KIND);
                if ui
                    .add_enabled(can, egui::Button::new(lang.t("ql.import")))
                    .on_hover_text(lang.t("ql.import_hint"))
                    .clicked()
                {
                    self.start_import(cx);
                }
            }
        });
    }

    fn start_import(&mut self, cx: &mut Cx<'_>) {
        let path = PathBuf::from(self.path.trim());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "log".into());
        match ImportJob::from_params(ImportParams {
            path,
            read: self.read_config(),
            normalise: if self.normalise {
                Normalise::default()
            } else {
                Normalise::RAW
            },
            name,
            synthetic: false,
        }) {
            Ok(job) => {
                self.import = JobWatch::start(cx, job);
                self.error = None;
            }
            Err(e) => self.error = Some(cx.lang.error(&e)),
        }
    }

    /// Take finished jobs: a written synthetic log starts its statistics, finished
    /// statistics are shown, a finished import re-reads the stored logs.
    fn poll(&mut self, cx: &mut Cx<'_>) {
        if let Some((next, end)) = JobWatch::take_keyed(&mut self.generating) {
            match end.outcome {
                Finished::Done(g) => {
                    let source = LogSource::File {
                        path: g.path.clone(),
                        read: ReadConfig::new(next.format),
                    };
                    self.start_stats(cx, source, next.config, next.engine, Some(g.path), true);
                }
                Finished::Failed(code) => self.error = Some(cx.lang.error_code(&code)),
                Finished::Cancelled => self.cancelled = true,
            }
        }
        if let Some((run, end)) = JobWatch::take_keyed(&mut self.counting) {
            match end.outcome {
                Finished::Done(out) => {
                    self.computed = Some(Computed {
                        out,
                        file: run.file,
                        synthetic: run.synthetic,
                        engine: run.engine,
                    });
                    self.sent = None;
                }
                Finished::Failed(code) => self.error = Some(cx.lang.error_code(&code)),
                Finished::Cancelled => self.cancelled = true,
            }
        }
        if let Some(end) = JobWatch::take_finished(&mut self.import) {
            match end.outcome {
                Finished::Failed(code) => self.error = Some(cx.lang.error_code(&code)),
                Finished::Done(_) | Finished::Cancelled => self.stored.invalidate(),
            }
        }
    }
}

impl LabPanel for QuerylogPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        self.poll(cx);
        if let Some(r) = Task::take_result(&mut self.sending) {
            if let Ok(p) = &r {
                cx.request(Request::Open {
                    panel: "cache",
                    payload: serde_json::json!({ "trace": p, "format": "lines", "from": "querylog" }),
                });
            }
            self.sent = Some(r);
        }
        ui.heading(lang.t("nav.querylog"));
        ui.label(RichText::new(lang.t("guide.querylog_book")).weak());
        egui::ScrollArea::vertical()
            .id_salt("ql_scroll")
            .show(ui, |ui| {
                self.source_ui(cx, ui);
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                if self.cancelled {
                    ui.label(RichText::new(lang.t("ql.cancelled")).italics());
                }
                ui.separator();
                let Some(c) = &self.computed else {
                    ui.label(lang.t("ql.nothing_yet"));
                    ui.separator();
                    self.book.ui(cx, ui, "querylog");
                    return;
                };
                if c.synthetic {
                    ui.label(RichText::new(lang.t("ql.synthetic")).italics());
                }
                ui.label(lang.tf(
                    "ql.computed_on",
                    &[
                        &crate::ui::engine_choice::engine_label(lang, c.engine),
                        &format!("{:.2}", c.out.elapsed_s),
                    ],
                ));
                if let Some(r) = &c.out.read {
                    ui.label(lang.tf(
                        "ql.read_summary",
                        &[
                            &crate::ui::shell::grouped(r.lines),
                            &crate::ui::shell::grouped(r.records),
                            &crate::ui::shell::grouped(r.bad.count),
                            &r.encoding,
                        ],
                    ));
                    // Each in the UI's language, at its line (`第 9 行`).
                    for b in r.bad.first.iter().take(3) {
                        let at = lang.tf("ql.bad_line_at", &[&b.line]);
                        let why = lang.error_code(&b.reason.at(at));
                        ui.label(RichText::new(format!("  {why}")).weak());
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .button(lang.t("ql.send_cache"))
                        .on_hover_text(lang.t("ql.send_cache_hint"))
                        .clicked()
                    {
                        let ctx = ui.ctx().clone();
                        self.send_to_cache(cx, &ctx);
                    }
                    if self.sending.is_some() {
                        ui.spinner();
                    }
                    match &self.sent {
                        Some(Ok(p)) => {
                            ui.label(lang.tf("ql.sent", &[&p.display()]));
                        }
                        Some(Err(e)) => {
                            ui.colored_label(ui.visuals().error_fg_color, e);
                        }
                        None => {}
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    for t in Tab::ALL {
                        ui.selectable_value(&mut self.tab, t, lang.t(t.key()));
                    }
                });
                ui.separator();
                if let Some(c) = &self.computed {
                    tabs::draw(ui, lang, &mut cx.hub.exports, self.tab, &c.out.stats);
                }
                ui.separator();
                self.book.ui(cx, ui, "querylog");
            });
    }

    fn reopen(&mut self, kind: &str, _id: i64, params: &Value, lang: Lang) -> Result<(), String> {
        match kind {
            ImportJob::KIND => {
                let p: ImportParams = logged(params, lang)?;
                self.source = SourceKind::File;
                self.path = p.path.display().to_string();
                self.format = p.read.format;
                self.encoding = p.read.encoding.unwrap_or_default();
                self.normalise = p.normalise != Normalise::RAW;
                Ok(())
            }
            StatsJob::KIND => {
                let p: StatsParams = logged(params, lang)?;
                match p.source {
                    LogSource::File { path, read } => {
                        self.source = SourceKind::File;
                        self.path = path.display().to_string();
                        self.format = read.format;
                    }
                    LogSource::Stored { log_id } => {
                        self.source = SourceKind::Stored;
                        self.stored.pick = Some(log_id);
                    }
                }
                self.first_page_only = p.config.first_page_only;
                self.engine = p.engine;
                Ok(())
            }
            GenerateJob::KIND => {
                let p: GenerateParams = logged(params, lang)?;
                self.source = SourceKind::Generate;
                self.generator = p.config;
                Ok(())
            }
            _ => Err(lang.t("ql.not_a_run").into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};

    use super::*;
    use crate::ui::panel::Hub;

    type State = (QuerylogPanel, Hub);

    #[test]
    fn without_a_workspace_the_panel_says_one_is_needed_and_starts_nothing() {
        let mut h = Harness::builder()
            .with_size([1200.0, 700.0])
            .with_context_setup(crate::ui::fonts::install_bundled)
            .build_ui_state(
                |ui, (p, hub): &mut State| {
                    let mut cx = Cx::new(Lang::Zh, None, false, &[], hub);
                    p.ui(&mut cx, ui);
                },
                (QuerylogPanel::default(), Hub::default()),
            );
        h.run();
        h.get_by_label_contains("请先打开或新建一个工作区");
        let button = h.get_by_label("生成并统计");
        assert!(button.accesskit_node().is_disabled());
        // Even if asked, nothing runs: the panel says why.
        let mut hub = Hub::default();
        let mut cx = Cx::new(Lang::Zh, None, false, &[], &mut hub);
        let p = &mut h.state_mut().0;
        p.start(&mut cx);
        assert!(!p.busy());
        assert!(p.error.as_deref().is_some_and(|e| e.contains("工作区")));
        let (started, _) = cx.finish();
        assert!(started.is_empty());
    }

    /// A time the range cannot read, and a run of another lab, are said in the UI's language.
    #[test]
    fn a_bad_time_and_a_foreign_run_are_said_in_chinese() {
        let mut p = QuerylogPanel {
            time_from: "9点".into(),
            ..QuerylogPanel::default()
        };
        let e = p.stats_config(Lang::Zh).unwrap_err();
        assert_eq!(e, "`9点` 不是时间（应为 时:分:秒，或秒数）");
        let e = p.stats_config(Lang::En).unwrap_err();
        assert_eq!(e, "Not a time: `9点` (hh:mm:ss, or seconds)");
        p.time_from = "12:00:00".into();
        assert!(p.stats_config(Lang::Zh).is_ok());
        let e = p.reopen("cache-sim", 1, &serde_json::json!({}), Lang::Zh);
        assert_eq!(e.unwrap_err(), "不是查询日志实验室的运行");
        // Logged parameters that no longer decode: the decoder's English stays out.
        let e = p.reopen("querylog-stats", 1, &serde_json::json!(3), Lang::Zh);
        assert_eq!(e.unwrap_err(), "记录的参数无法被这个版本读回");
    }
}
