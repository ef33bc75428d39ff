//! The query-log panel (查询日志, book ch. 9): read a log file, generate a calibrated
//! synthetic one, or pick one stored in the workspace; import a file as a logged job; then one
//! tab per statistic with its plot and the book's number beside ours (`tabs`). Reading and
//! computing run in a background [`Task`]; the panel only draws the plain `Stats` it gets.

mod figure;
mod tabs;

use std::path::PathBuf;

use egui::{RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::panel::{Cx, LabPanel, Request, logged};
use super::task::{Loaded, Task};
use crate::engine::jobs::JobHandle;
use crate::engine::querylog::generate::{GenConfig, write_file};
use crate::engine::querylog::job::{ImportJob, ImportParams, LogSource, StatsOutput, StatsParams};
use crate::engine::querylog::persist::{self, LogRow};
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

pub(crate) struct QuerylogPanel {
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
    stored: Loaded<Vec<LogRow>>,
    stored_pick: Option<i64>,
    /// Where the statistics run (native, DataFusion, Spark).
    engine: crate::engine::exec::EngineConfig,
    user_sample: Option<f64>,
    time_from: String,
    time_to: String,
    task: Option<Task<Result<Computed, String>>>,
    computed: Option<Computed>,
    error: Option<String>,
    tab: Tab,
    import: Option<JobHandle>,
    /// A statistics run on DataFusion or Spark with a workspace open: a logged
    /// `querylog-stats` job (progress in the jobs bar), and the file it read.
    stats_job: Option<(JobHandle, Option<PathBuf>, crate::engine::exec::Engine)>,
    sent: Option<Result<PathBuf, String>>,
    sending: Option<Task<Result<PathBuf, String>>>,
}

impl Default for QuerylogPanel {
    fn default() -> Self {
        QuerylogPanel {
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
            stored: Loaded::default(),
            stored_pick: None,
            engine: Default::default(),
            user_sample: None,
            time_from: String::new(),
            time_to: String::new(),
            task: None,
            computed: None,
            error: None,
            tab: Tab::Volume,
            import: None,
            stats_job: None,
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

impl QuerylogPanel {
    fn stats_config(&self, lang: Lang) -> Result<StatsConfig, String> {
        let parse = |s: &str, what: &str| -> Result<Option<i64>, String> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            crate::engine::querylog::read::parse_time(s)
                .map(|t| Some(t.0))
                .or_else(|_| s.parse::<i64>().map(Some))
                .map_err(|_| format!("{what}: `{s}`"))
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
            time_from: parse(&self.time_from, "time from")?,
            time_to: parse(&self.time_to, "time to")?,
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

    fn start(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context) {
        let workspace = cx.session.map(|s| s.path.clone());
        let lang = cx.lang;
        let cfg = match self.stats_config(lang) {
            Ok(c) => c,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        self.error = None;
        let source = self.source;
        let read = self.read_config();
        let path = PathBuf::from(self.path.trim());
        let generator = self.generator.clone();
        let stored = self.stored_pick;
        let engine = self.engine.clone();
        let ran_on = engine.engine;
        // On DataFusion or Spark with a workspace open, a file or stored log is counted by a
        // logged job, as `querylog stats --engine … --workspace` does: progress in the jobs
        // bar, parameters and result in the experiment log.
        if ran_on != crate::engine::exec::Engine::Native && workspace.is_some() {
            let job_source = match (source, stored) {
                (SourceKind::File, _) => Some(LogSource::File {
                    path: path.clone(),
                    read: read.clone(),
                }),
                (SourceKind::Stored, Some(id)) => Some(LogSource::Stored { log_id: id }),
                _ => None,
            };
            if let Some(src) = job_source {
                use crate::engine::jobs::TypedJob;
                let file = matches!(src, LogSource::File { .. }).then(|| path.clone());
                match crate::engine::querylog::job::StatsJob::from_params(StatsParams {
                    source: src,
                    config: cfg,
                    engine,
                }) {
                    Ok(job) => {
                        self.stats_job = cx.start_job(Box::new(job)).map(|h| (h, file, ran_on));
                    }
                    Err(e) => self.error = Some(lang.error(&e)),
                }
                return;
            }
        }
        let compute = move |source: &LogSource,
                            cfg: &StatsConfig,
                            ws: Option<&std::path::Path>,
                            tick: &dyn crate::engine::jobs::Tick| {
            crate::engine::querylog::stats_on(source, cfg, &engine, ws, tick)
        };
        self.task = Some(Task::spawn(ctx, move || {
            let r = match source {
                SourceKind::File => compute(
                    &LogSource::File {
                        path: path.clone(),
                        read,
                    },
                    &cfg,
                    None,
                    &(),
                )
                .map(|out| Computed {
                    out,
                    file: Some(path),
                    synthetic: false,
                    engine: ran_on,
                }),
                SourceKind::Generate => {
                    // In the workspace's own folder, named after the generator's settings: the
                    // same settings rewrite one file (a log of up to 20 M lines per run once
                    // stayed in the temp folder forever).
                    let file = generated_file(
                        workspace.as_deref(),
                        "querylog",
                        &serde_json::to_string(&generator).unwrap_or_default(),
                        "log",
                    );
                    write_file(&generator, &file, &()).and_then(|_| {
                        compute(
                            &LogSource::File {
                                path: file.clone(),
                                read: ReadConfig::new(generator.format),
                            },
                            &cfg,
                            None,
                            &(),
                        )
                        .map(|out| Computed {
                            out,
                            file: Some(file),
                            synthetic: true,
                            engine: ran_on,
                        })
                    })
                }
                SourceKind::Stored => match stored {
                    Some(id) => compute(
                        &LogSource::Stored { log_id: id },
                        &cfg,
                        workspace.as_deref(),
                        &(),
                    )
                    .map(|out| Computed {
                        out,
                        file: None,
                        synthetic: false,
                        engine: ran_on,
                    }),
                    None => Err(crate::engine::error::EngineError::invalid(
                        "log",
                        "pick a stored log",
                    )),
                },
            };
            r.map_err(|e| lang.error(&e))
        }));
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
                let g = &mut self.generator;
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
                ui.label(RichText::new(lang.t("ql.gen_note")).weak());
            }
            SourceKind::Stored => {
                if let Some(s) = cx.session {
                    let path = s.path.clone();
                    self.stored.update(ui.ctx(), move || {
                        persist::list_at(&path).map_err(|e| lang.error(&e))
                    });
                }
                match &self.stored.value {
                    Some(rows) if !rows.is_empty() => {
                        for r in rows {
                            let label = format!(
                                "#{} {} ({}, {} {})",
                                r.id,
                                r.name,
                                r.format,
                                r.records,
                                lang.t("ql.records")
                            );
                            ui.radio_value(&mut self.stored_pick, Some(r.id), label);
                        }
                    }
                    _ => {
                        ui.label(lang.t("ql.no_stored"));
                    }
                }
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
        ui.horizontal(|ui| {
            let busy = self.task.is_some() || self.stats_job.is_some();
            let label = if self.source == SourceKind::Generate {
                lang.t("ql.generate_compute")
            } else {
                lang.t("ql.compute")
            };
            if ui.add_enabled(!busy, egui::Button::new(label)).clicked() {
                self.start(cx, &ui.ctx().clone());
            }
            if busy {
                ui.spinner();
            }
            if self.source == SourceKind::File {
                let can = cx.session.is_some()
                    && !cx.is_running(<ImportJob as crate::engine::jobs::TypedJob>::KIND);
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
        use crate::engine::jobs::TypedJob;
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
                self.import = cx.start_job(Box::new(job));
                self.error = None;
            }
            Err(e) => self.error = Some(cx.lang.error(&e)),
        }
    }

    fn poll(&mut self, lang: Lang) {
        if let Some(t) = &self.task
            && let Some(r) = t.poll()
        {
            self.task = None;
            match r.and_then(|x| x) {
                Ok(c) => {
                    self.computed = Some(c);
                    self.sent = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
        if let Some((h, file, ran_on)) = &self.stats_job {
            use crate::engine::jobs::JobState;
            match h.snapshot().state {
                JobState::Done(v) => {
                    match serde_json::from_value::<StatsOutput>(v) {
                        Ok(out) => {
                            self.computed = Some(Computed {
                                out,
                                file: file.clone(),
                                synthetic: false,
                                engine: *ran_on,
                            });
                            self.sent = None;
                        }
                        Err(e) => self.error = Some(format!("querylog-stats result: {e}")),
                    }
                    self.stats_job = None;
                }
                JobState::Cancelled => self.stats_job = None,
                JobState::Failed { code, .. } => {
                    self.stats_job = None;
                    self.error = Some(lang.error_code(&code));
                }
                _ => {}
            }
        }
        if let Some(h) = &self.import {
            use crate::engine::jobs::JobState;
            match h.snapshot().state {
                JobState::Done(_) | JobState::Cancelled => {
                    self.import = None;
                    self.stored.invalidate();
                }
                JobState::Failed { code, .. } => {
                    self.import = None;
                    self.error = Some(lang.error_code(&code));
                }
                _ => {}
            }
        }
    }

    /// Writes the request stream (one object id per line) for the cache lab.
    fn send_to_cache(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context) {
        let Some(c) = &self.computed else { return };
        let Some(file) = &c.file else {
            self.sent = Some(Err(cx.lang.t("ql.send_no_file").into()));
            return;
        };
        let read = if c.synthetic {
            ReadConfig::new(self.generator.format)
        } else {
            self.read_config()
        };
        // Beside the workspace, named after the log it came from (one file per log, not one
        // per process left in the temp folder).
        let out = generated_file(
            cx.session.map(|s| s.path.as_path()),
            "querylog-stream",
            &file.display().to_string(),
            "txt",
        );
        let lang = cx.lang;
        let cfg = self.stats_config(lang).unwrap_or_default();
        let file = file.clone();
        // Reading and writing on a background thread; `poll` records the outcome.
        self.sending = Some(Task::spawn(ctx, move || {
            let r = (|| -> crate::engine::error::Result<PathBuf> {
                let mut col = crate::engine::querylog::stats::Collector::new(cfg);
                crate::engine::querylog::read::read_file(&file, &read, &(), &mut |r| col.push(r))?;
                let text: String = col
                    .stream_ids(false)
                    .iter()
                    .map(|i| format!("{i}\n"))
                    .collect();
                std::fs::write(&out, text).map_err(|e| {
                    crate::engine::error::EngineError::BadPath {
                        path: out.clone(),
                        reason: e.to_string(),
                    }
                })?;
                Ok(out.clone())
            })();
            r.map_err(|e| lang.error(&e))
        }));
        self.sent = None;
    }
}

/// Where a file generated for a run goes: `<workspace>.files/<what>-<key>.<ext>` (the temp
/// folder without a workspace), the key standing for `from`, what it was made from.
fn generated_file(
    workspace: Option<&std::path::Path>,
    what: &str,
    from: &str,
    ext: &str,
) -> PathBuf {
    let dir = workspace
        .map(crate::engine::store::files_dir)
        .unwrap_or_else(std::env::temp_dir);
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!(
        "{what}-{}.{ext}",
        crate::engine::store::key_of(from)
    ))
}

impl LabPanel for QuerylogPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        self.poll(lang);
        if let Some(t) = &self.sending
            && let Some(r) = t.poll()
        {
            self.sending = None;
            let r = r.and_then(|x| x);
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
                ui.separator();
                let Some(c) = &self.computed else {
                    ui.label(lang.t("ql.nothing_yet"));
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
                        &[&r.lines, &r.records, &r.bad.count, &r.encoding],
                    ));
                    for b in r.bad.first.iter().take(3) {
                        ui.label(RichText::new(format!("  {}: {}", b.line, b.reason)).weak());
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
            });
    }

    fn reopen(&mut self, kind: &str, _id: i64, params: &Value, _lang: Lang) -> Result<(), String> {
        match kind {
            "querylog-import" => {
                let p: ImportParams = logged(params)?;
                self.source = SourceKind::File;
                self.path = p.path.display().to_string();
                self.format = p.read.format;
                self.encoding = p.read.encoding.unwrap_or_default();
                self.normalise = p.normalise != Normalise::RAW;
                Ok(())
            }
            "querylog-stats" => {
                let p: StatsParams = logged(params)?;
                match p.source {
                    LogSource::File { path, read } => {
                        self.source = SourceKind::File;
                        self.path = path.display().to_string();
                        self.format = read.format;
                    }
                    LogSource::Stored { log_id } => {
                        self.source = SourceKind::Stored;
                        self.stored_pick = Some(log_id);
                    }
                }
                self.first_page_only = p.config.first_page_only;
                self.engine = p.engine;
                Ok(())
            }
            _ => Err("not a query-log run".into()),
        }
    }
}
