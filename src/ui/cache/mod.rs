//! The cache-policy panel (缓存策略): pick a trace (the ch. 9 stream, a Zipf stream, a file,
//! an inverted-file access log, a query log stored in the workspace) and see its statistics; choose policies and sizes; run as a
//! job (progress, cancel, logged); hit ratio (or miss, or byte hit ratio) against cache size
//! on a log axis with Table 9-2 and the ceiling overlaid, hit ratio over time, replacement
//! cost per policy, LFU-decay's δ with "tune δ per size" (Table 9-2's procedure), one-click
//! book experiments and the teaching stepper. Plain data is drawn; loading, simulation and
//! tuning run in jobs and tasks.

mod cost;
mod plots;
mod stepper;

use std::collections::BTreeSet;

use egui::{RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::export::{Exports, table_button};
use super::panel::{Cx, LabPanel, logged};
use super::stored_logs::StoredLogs;
use super::task::Task;
use crate::engine::cache::job::{CacheSimJob, CacheSimParams, TraceSource};
use crate::engine::cache::policy::{PolicyKind, PolicyParams};
use crate::engine::cache::sim::{self, SimConfig, SimReport, SizeSpec};
use crate::engine::cache::stack::Warmup;
use crate::engine::cache::trace::{Format, GenSpec, ReadOptions, TraceStats};
use crate::engine::jobs::TypedJob;
use crate::ui::job_watch::{Finished, JobWatch, JobWatches};

/// (size, best δ, its hit ratio) per size.
type Tuned = Vec<(u64, f64, f64)>;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Src {
    Chapter9,
    Zipf,
    File,
    AccessLog,
    Stored,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Metric {
    Hit,
    Miss,
    ByteHit,
}

pub(crate) struct CachePanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    src: Src,
    /// The trace file came from the query-log panel ("send this stream to the cache lab").
    from_querylog: bool,
    ch9_scale: f64,
    zipf: GenSpec,
    file: String,
    format: Format,
    key_column: usize,
    size_column: usize,
    log_file: String,
    /// Or an index and queries to replay on it (its posting-file reads are the log).
    index_dir: String,
    index_queries: String,
    /// The open workspace's stored query logs, and the one picked.
    stored: StoredLogs,
    stored_with_page: bool,
    workspace: Option<std::path::PathBuf>,
    page_view: bool,
    page_size: u32,
    policies: BTreeSet<PolicyKind>,
    sizes: String,
    bytes: bool,
    warmup_full: bool,
    decay: f64,
    metric: Metric,
    stats: Option<TraceStats>,
    stats_task: Option<Task<Result<TraceStats, String>>>,
    /// Runs in the workspace's runner, by label.
    running: JobWatches<String, CacheSimJob>,
    /// Runs without a workspace, by label.
    local: Vec<(String, Task<Result<SimReport, String>>)>,
    /// Finished runs, by label (a new run with the same label replaces it).
    pub(crate) reports: Vec<(String, SimReport)>,
    /// Grows whenever `reports` changes (the plots' data is remade then).
    reports_gen: u64,
    plots: plots::PlotCache,
    tune_task: Option<Task<Result<Tuned, String>>>,
    tuned: Vec<(u64, f64, f64)>,
    error: Option<String>,
    stepper: stepper::Stepper,
}

impl Default for CachePanel {
    fn default() -> Self {
        CachePanel {
            book: Default::default(),
            src: Src::Chapter9,
            ch9_scale: 0.1,
            zipf: GenSpec {
                objects: 10_000,
                requests: 100_000,
                ..GenSpec::default()
            },
            file: String::new(),
            format: Format::Lines,
            key_column: 1,
            size_column: 0,
            log_file: String::new(),
            index_dir: String::new(),
            index_queries: String::new(),
            stored: StoredLogs::default(),
            stored_with_page: false,
            workspace: None,
            page_view: false,
            page_size: 4096,
            policies: [PolicyKind::Fifo, PolicyKind::Lru, PolicyKind::LfuDecay]
                .into_iter()
                .collect(),
            sizes: "100,300,500,1000,2000,3000".into(),
            bytes: false,
            warmup_full: false,
            decay: 0.998,
            metric: Metric::Hit,
            stats: None,
            stats_task: None,
            running: JobWatches::default(),
            local: Vec::new(),
            reports: Vec::new(),
            reports_gen: 0,
            plots: Default::default(),
            tune_task: None,
            tuned: Vec::new(),
            error: None,
            stepper: stepper::Stepper::default(),
            from_querylog: false,
        }
    }
}

impl CachePanel {
    fn source(&self, lang: Lang) -> Result<TraceSource, String> {
        Ok(match self.src {
            Src::Chapter9 => TraceSource::Generated(GenSpec::chapter9(self.ch9_scale, 1)),
            Src::Zipf => TraceSource::Generated(self.zipf.clone()),
            Src::File => {
                if self.file.trim().is_empty() {
                    return Err(lang.t("cache.need_trace").into());
                }
                TraceSource::File {
                    path: self.file.trim().into(),
                    options: ReadOptions {
                        format: self.format,
                        key_column: self.key_column.max(1),
                        size_column: (self.size_column > 0).then_some(self.size_column),
                        ..ReadOptions::default()
                    },
                }
            }
            Src::AccessLog if self.log_file.trim().is_empty() => {
                if self.index_dir.trim().is_empty() || self.index_queries.trim().is_empty() {
                    return Err(lang.t("cache.need_access").into());
                }
                TraceSource::IndexReplay {
                    index: self.index_dir.trim().into(),
                    queries: self.index_queries.trim().into(),
                    page_size: self.page_view.then_some(self.page_size.max(1)),
                }
            }
            Src::AccessLog => TraceSource::AccessLog {
                path: self.log_file.trim().into(),
                page_size: self.page_view.then_some(self.page_size.max(1)),
            },
            Src::Stored => TraceSource::StoredLog {
                workspace: self
                    .workspace
                    .clone()
                    .ok_or_else(|| lang.t("ws.none_hint").to_string())?,
                log_id: self
                    .stored
                    .pick
                    .ok_or_else(|| lang.t("cache.need_stored").to_string())?,
                with_page: self.stored_with_page,
            },
        })
    }

    fn params(&self, lang: Lang) -> Result<CacheSimParams, String> {
        let policies: Vec<PolicyKind> = self.policies.iter().copied().collect();
        let p = CacheSimParams {
            source: self.source(lang)?,
            config: SimConfig {
                policies,
                sizes: SizeSpec::parse_list(&self.sizes, "sizes").map_err(|e| lang.error(&e))?,
                bytes: self.bytes,
                warmup: if self.warmup_full {
                    Warmup::Full
                } else {
                    Warmup::None
                },
                params: PolicyParams {
                    decay: self.decay,
                    ..PolicyParams::default()
                },
                windows: 100,
                lru_by_stack: false,
            },
        };
        p.validate().map_err(|e| lang.error(&e))?;
        Ok(p)
    }

    fn label(&self, lang: Lang) -> String {
        match self.src {
            Src::Chapter9 => format!("ch9×{}", self.ch9_scale),
            Src::Zipf => format!("zipf α={}", self.zipf.alpha),
            Src::File => std::path::Path::new(self.file.trim())
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            Src::AccessLog if self.page_view => format!("PAGE {}B", self.page_size),
            Src::AccessLog => "I/O".into(),
            Src::Stored => lang.tf("cache.stored_label", &[&self.stored.pick.unwrap_or(0)]),
        }
    }

    /// Start a run: a logged job when a workspace is open, else a local task.
    fn start(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context, label: String, p: CacheSimParams) {
        self.error = None;
        let lang = cx.lang;
        match CacheSimJob::from_params(p.clone()) {
            Err(e) => self.error = Some(lang.error(&e)),
            Ok(job) => {
                if let Some(w) = JobWatch::start(cx, job) {
                    self.running.push(label, w);
                } else {
                    let t = Task::spawn(ctx, move || p.execute(&()).map_err(|e| lang.error(&e)));
                    self.local.push((label, t));
                }
            }
        }
    }

    fn store(&mut self, label: String, r: SimReport) {
        self.stats = Some(r.trace.clone());
        self.reports.retain(|(l, _)| *l != label);
        self.reports.push((label, r));
        self.reports_gen += 1;
    }

    fn poll(&mut self, lang: Lang) {
        for (label, end) in self.running.take_finished() {
            match end.outcome {
                Finished::Done(r) => self.store(label, r),
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => {}
            }
        }
        for (label, r) in Task::drain_keyed(&mut self.local) {
            match r.and_then(|x| x) {
                Ok(r) => self.store(label, r),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = Task::take_result(&mut self.stats_task) {
            match r {
                Ok(s) => self.stats = Some(s),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = Task::take_result(&mut self.tune_task) {
            match r {
                Ok(v) => self.tuned = v,
                Err(e) => self.error = Some(e),
            }
        }
    }

    fn busy(&self) -> bool {
        !self.running.is_empty() || !self.local.is_empty()
    }

    fn source_ui(&mut self, lang: Lang, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label(lang.t("cache.trace"));
            for (s, key) in [
                (Src::Chapter9, "cache.src_ch9"),
                (Src::Zipf, "cache.src_zipf"),
                (Src::File, "cache.src_file"),
                (Src::AccessLog, "cache.src_log"),
                (Src::Stored, "cache.src_stored"),
            ] {
                ui.radio_value(&mut self.src, s, lang.t(key));
            }
        });
        ui.horizontal_wrapped(|ui| match self.src {
            Src::Chapter9 => {
                let l = ui.label(lang.t("cache.scale"));
                ui.add(egui::Slider::new(&mut self.ch9_scale, 0.01..=1.0).logarithmic(true))
                    .labelled_by(l.id);
                ui.label(RichText::new(lang.t("cache.ch9_note")).weak());
            }
            Src::Zipf => {
                let z = &mut self.zipf;
                let l = ui.label("α");
                ui.add(
                    egui::DragValue::new(&mut z.alpha)
                        .range(0.0..=3.0)
                        .speed(0.01),
                )
                .labelled_by(l.id);
                let l = ui.label(lang.t("cache.objects"));
                ui.add(egui::DragValue::new(&mut z.objects).range(1..=100_000_000))
                    .labelled_by(l.id);
                let l = ui.label(lang.t("cache.requests"));
                ui.add(egui::DragValue::new(&mut z.requests).range(1..=1_000_000_000))
                    .labelled_by(l.id);
                let mut shift = z.shift_every.unwrap_or(0);
                let l = ui.label(lang.t("cache.shift"));
                ui.add(egui::DragValue::new(&mut shift).range(0..=1_000_000_000))
                    .labelled_by(l.id);
                z.shift_every = (shift > 0).then_some(shift);
                let mut scan = z.scan_every.unwrap_or(0);
                let l = ui.label(lang.t("cache.scan_every"));
                ui.add(egui::DragValue::new(&mut scan).range(0..=1_000_000_000))
                    .labelled_by(l.id);
                z.scan_every = (scan > 0).then_some(scan);
                let l = ui.label(lang.t("cache.scan_len"));
                ui.add(egui::DragValue::new(&mut z.scan_len).range(0..=10_000_000))
                    .labelled_by(l.id);
            }
            Src::File => {
                if self.from_querylog {
                    ui.label(RichText::new(lang.tf("cache.from_querylog", &[&self.file])).weak());
                }
                let l = ui.label(lang.t("cache.file"));
                ui.add(egui::TextEdit::singleline(&mut self.file).desired_width(300.0))
                    .labelled_by(l.id);
                for (f, name) in [
                    (Format::Lines, "lines"),
                    (Format::Csv, "csv"),
                    (Format::Sogouq, "SogouQ"),
                ] {
                    ui.radio_value(&mut self.format, f, name);
                }
                if self.format == Format::Csv {
                    let l = ui.label(lang.t("cache.key_col"));
                    ui.add(egui::DragValue::new(&mut self.key_column).range(1..=64))
                        .labelled_by(l.id);
                    let l = ui.label(lang.t("cache.size_col"));
                    ui.add(egui::DragValue::new(&mut self.size_column).range(0..=64))
                        .labelled_by(l.id);
                }
            }
            Src::AccessLog => {
                let l = ui.label(lang.t("cache.log_file"));
                ui.add(egui::TextEdit::singleline(&mut self.log_file).desired_width(300.0))
                    .labelled_by(l.id);
                let l = ui.label(lang.t("cache.or_index"));
                ui.add(egui::TextEdit::singleline(&mut self.index_dir).desired_width(220.0))
                    .labelled_by(l.id);
                let l = ui.label(lang.t("cache.index_queries"));
                ui.add(egui::TextEdit::singleline(&mut self.index_queries).desired_width(220.0))
                    .labelled_by(l.id);
                ui.radio_value(&mut self.page_view, false, lang.t("cache.view_io"));
                ui.radio_value(&mut self.page_view, true, lang.t("cache.view_page"));
                if self.page_view {
                    let l = ui.label(lang.t("cache.page_size"));
                    ui.add(
                        egui::DragValue::new(&mut self.page_size)
                            .range(512..=1 << 20)
                            .suffix(" B"),
                    )
                    .labelled_by(l.id);
                }
                ui.label(RichText::new(lang.t("cache.log_note")).weak());
            }
            Src::Stored => {
                let ws = self.workspace.as_deref();
                if self.stored.ui(ui, lang, ws, lang.t("cache.no_stored")) {
                    ui.checkbox(&mut self.stored_with_page, lang.t("cache.key_with_page"));
                }
            }
        });
    }

    fn stats_ui(&mut self, lang: Lang, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    self.stats_task.is_none(),
                    egui::Button::new(lang.t("cache.stats")),
                )
                .clicked()
            {
                match self.source(lang) {
                    Ok(src) => {
                        self.stats_task = Some(Task::spawn(ui.ctx(), move || {
                            src.load().map(|t| t.stats()).map_err(|e| lang.error(&e))
                        }))
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            if let Some(s) = &self.stats {
                ui.label(lang.tf(
                    "cache.stats_line",
                    &[
                        &crate::ui::shell::grouped(s.requests),
                        &crate::ui::shell::grouped(s.distinct),
                        &crate::ui::shell::grouped(s.one_hit_wonders),
                        &format!("{:.4}", s.compulsory_miss_ratio),
                        &format!("{:.4}", 1.0 - s.compulsory_miss_ratio),
                    ],
                ));
            }
        });
    }

    fn policy_ui(&mut self, lang: Lang, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label(lang.t("cache.policies"));
            for k in PolicyKind::ALL {
                let mut on = self.policies.contains(&k);
                let text = if k.book_ref().is_some() {
                    RichText::new(k.name()).strong()
                } else {
                    RichText::new(k.name())
                };
                if ui.checkbox(&mut on, text).changed() {
                    if on {
                        self.policies.insert(k);
                    } else {
                        self.policies.remove(&k);
                    }
                }
            }
        });
        ui.label(RichText::new(lang.t("cache.not_in_book_note")).weak());
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(lang.t("cache.sizes"));
            ui.add(egui::TextEdit::singleline(&mut self.sizes).desired_width(260.0))
                .labelled_by(l.id);
            ui.checkbox(&mut self.bytes, lang.t("cache.bytes"));
            ui.checkbox(&mut self.warmup_full, lang.t("cache.warmup_full"));
        });
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(lang.t("cache.decay"));
            ui.add(egui::Slider::new(&mut self.decay, 0.9..=1.0).fixed_decimals(4))
                .labelled_by(l.id);
        });
    }

    fn run_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(!self.busy(), egui::Button::new(lang.t("cache.run")))
                .clicked()
            {
                match self.params(cx.lang) {
                    Ok(p) => {
                        let label = self.label(lang);
                        self.start(cx, ui.ctx(), label, p);
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            if ui
                .add_enabled(!self.busy(), egui::Button::new(lang.t("cache.book_92")))
                .on_hover_text(lang.t("cache.book_92_tip"))
                .clicked()
            {
                // The figures and the verdict come from the registry; the plot from the run.
                self.book.start(cx, vec!["table-9-2".into()]);
                self.src = Src::Chapter9;
                self.ch9_scale = 1.0;
                self.sizes = "100,300,500,1000,2000,3000".into();
                self.policies = [PolicyKind::Fifo, PolicyKind::Lru, PolicyKind::LfuDecay]
                    .into_iter()
                    .collect();
                self.bytes = false;
                self.warmup_full = false;
                match self.params(cx.lang) {
                    Ok(p) => {
                        let label = self.label(lang);
                        self.start(cx, ui.ctx(), label, p);
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            if ui
                .add_enabled(!self.busy(), egui::Button::new(lang.t("cache.book_86")))
                .on_hover_text(lang.t("cache.book_86_tip"))
                .clicked()
            {
                let replay =
                    !self.index_dir.trim().is_empty() && !self.index_queries.trim().is_empty();
                if self.log_file.trim().is_empty() && !replay {
                    self.src = Src::AccessLog;
                    self.error = Some(lang.t("cache.log_note").to_string());
                } else {
                    self.src = Src::AccessLog;
                    self.bytes = true;
                    self.sizes = "0.5%,1%,2%,5%,10%,20%".into();
                    self.policies = [
                        PolicyKind::Lru,
                        PolicyKind::Lfu,
                        PolicyKind::Fifo,
                        PolicyKind::GdSize,
                    ]
                    .into_iter()
                    .collect();
                    for page in [false, true] {
                        self.page_view = page;
                        match self.params(cx.lang) {
                            Ok(p) => {
                                let label = self.label(lang);
                                self.start(cx, ui.ctx(), label, p);
                            }
                            Err(e) => self.error = Some(e),
                        }
                    }
                }
            }
            let tune_enabled = self.tune_task.is_none();
            if ui
                .add_enabled(tune_enabled, egui::Button::new(lang.t("cache.tune")))
                .on_hover_text(lang.t("cache.tune_tip"))
                .clicked()
            {
                match (
                    self.source(lang),
                    SizeSpec::parse_list(&self.sizes, "sizes"),
                ) {
                    (Ok(src), Ok(sizes)) => {
                        self.tune_task = Some(Task::spawn(ui.ctx(), move || {
                            let t = src.load().map_err(|e| lang.error(&e))?;
                            let units: Vec<u64> =
                                sizes.iter().map(|s| s.resolve(t.distinct as u64)).collect();
                            let deltas = [
                                0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 1.0,
                            ];
                            sim::tune_decay(&t, &units, &deltas, &()).map_err(|e| lang.error(&e))
                        }));
                    }
                    (Err(e), _) => self.error = Some(e),
                    (_, Err(e)) => self.error = Some(lang.error(&e)),
                }
            }
            if self.busy() || self.tune_task.is_some() {
                ui.spinner();
                ui.label(lang.t("cache.running"));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(200, 40, 40), e);
        }
    }

    fn tuned_ui(&self, lang: Lang, ui: &mut Ui, ex: &mut Exports) {
        if self.tuned.is_empty() {
            return;
        }
        let table = plots::tuned_table(lang, &self.tuned);
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.t("cache.tuned")).strong());
            table_button(ui, lang, ex, || table.clone());
        });
        egui::Grid::new("cache_tuned").striped(true).show(ui, |ui| {
            for h in &table.headers {
                ui.label(h);
            }
            ui.end_row();
            for row in &table.rows {
                for c in row {
                    ui.label(c);
                }
                ui.end_row();
            }
        });
    }
}

impl LabPanel for CachePanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        self.poll(cx.lang);
        let lang = cx.lang;
        let ws = cx.session.map(|s| s.path.clone());
        if ws != self.workspace {
            if let Some(w) = &ws
                && self.index_dir.is_empty()
            {
                self.index_dir = crate::engine::index::reader::sidecar(w)
                    .display()
                    .to_string();
            }
            self.workspace = ws;
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.heading(lang.t("cache.heading"));
                ui.label(RichText::new(lang.t("cache.intro")).weak());
                ui.separator();
                self.source_ui(lang, ui);
                self.stats_ui(lang, ui);
                self.policy_ui(lang, ui);
                self.run_ui(cx, ui);
                self.tuned_ui(lang, ui, &mut cx.hub.exports);
                ui.separator();
                ui.horizontal_wrapped(|ui| {
                    ui.label(lang.t("cache.metric"));
                    ui.radio_value(&mut self.metric, Metric::Hit, lang.t("cache.hit_ratio"));
                    ui.radio_value(&mut self.metric, Metric::Miss, lang.t("cache.miss_ratio"));
                    ui.radio_value(
                        &mut self.metric,
                        Metric::ByteHit,
                        lang.t("cache.byte_hit_ratio"),
                    );
                    if !self.reports.is_empty() && ui.button(lang.t("cache.clear")).clicked() {
                        self.reports.clear();
                        self.reports_gen += 1;
                    }
                });
                let ex = &mut cx.hub.exports;
                plots::plots_ui(
                    lang,
                    ui,
                    ex,
                    &self.reports,
                    self.reports_gen,
                    self.metric,
                    &mut self.plots,
                );
                ui.separator();
                stepper::stepper_ui(lang, ui, &mut self.stepper);
                ui.separator();
                self.book.ui(cx, ui, "cache");
            });
    }

    fn reopen(&mut self, _kind: &str, _id: i64, params: &Value, lang: Lang) -> Result<(), String> {
        let p: CacheSimParams = logged(params, lang)?;
        match &p.source {
            TraceSource::Generated(g) => {
                self.src = Src::Zipf;
                self.zipf = g.clone();
            }
            TraceSource::File { path, options } => {
                self.src = Src::File;
                self.file = path.display().to_string();
                self.format = options.format;
                self.key_column = options.key_column;
                self.size_column = options.size_column.unwrap_or(0);
            }
            TraceSource::AccessLog { path, page_size } => {
                self.src = Src::AccessLog;
                self.log_file = path.display().to_string();
                self.page_view = page_size.is_some();
                self.page_size = page_size.unwrap_or(4096);
            }
            TraceSource::IndexReplay {
                index,
                queries,
                page_size,
            } => {
                self.src = Src::AccessLog;
                self.log_file.clear();
                self.index_dir = index.display().to_string();
                self.index_queries = queries.display().to_string();
                self.page_view = page_size.is_some();
                self.page_size = page_size.unwrap_or(4096);
            }
            TraceSource::StoredLog {
                log_id, with_page, ..
            } => {
                self.src = Src::Stored;
                self.stored.pick = Some(*log_id);
                self.stored_with_page = *with_page;
            }
        }
        self.policies = p.config.policies.iter().copied().collect();
        self.sizes = p
            .config
            .sizes
            .iter()
            .map(|s| match s {
                SizeSpec::Units(u) => u.to_string(),
                SizeSpec::Percent(x) => format!("{x}%"),
            })
            .collect::<Vec<_>>()
            .join(",");
        self.bytes = p.config.bytes;
        self.warmup_full = p.config.warmup == Warmup::Full;
        self.decay = p.config.params.decay;
        Ok(())
    }

    /// A request stream another panel wrote: `{"trace": path, "format": "lines", "from": …}`
    /// (the query-log panel sends one query id a line).
    fn receive(&mut self, payload: &Value, _lang: Lang) -> Result<(), String> {
        #[derive(serde::Deserialize)]
        struct Sent {
            trace: std::path::PathBuf,
            #[serde(default)]
            format: Format,
            #[serde(default)]
            from: Option<String>,
        }
        let sent: Sent = serde_json::from_value(payload.clone()).map_err(|e| e.to_string())?;
        self.src = Src::File;
        self.file = sent.trace.display().to_string();
        self.format = sent.format;
        self.from_querylog = sent.from.as_deref() == Some("querylog");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trace source that is not given yet says what to give in the UI's language.
    #[test]
    fn a_missing_source_is_said_in_chinese() {
        let mut p = CachePanel {
            src: Src::File,
            ..CachePanel::default()
        };
        assert_eq!(p.source(Lang::Zh).unwrap_err(), "请给出轨迹文件");
        assert_eq!(p.source(Lang::En).unwrap_err(), "Give a trace file");
        p.src = Src::AccessLog;
        assert!(p.source(Lang::Zh).unwrap_err().contains("访问日志"));
        p.src = Src::Stored;
        assert!(p.source(Lang::Zh).unwrap_err().contains("工作区"));
        p.workspace = Some("/w/a.tianwang".into());
        assert_eq!(
            p.source(Lang::Zh).unwrap_err(),
            "请选择一个已存储的查询日志"
        );
        p.stored.pick = Some(3);
        assert!(p.source(Lang::Zh).is_ok());
        assert_eq!(p.label(Lang::Zh), "日志 #3");
    }

    /// A list of sizes that does not read says why in the UI's language, the CLI's English
    /// in English.
    #[test]
    fn a_bad_size_is_said_in_chinese() {
        let p = CachePanel {
            sizes: "100, 12q".into(),
            ..CachePanel::default()
        };
        let zh = p.params(Lang::Zh).unwrap_err();
        assert!(zh.contains("`12q` 不是缓存大小"), "{zh}");
        assert!(!zh.contains("is not"), "{zh}");
        let en = p.params(Lang::En).unwrap_err();
        assert_eq!(en, "invalid parameter `sizes`: `12q` is not a size");
    }
}
