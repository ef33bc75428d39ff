//! Crawl: start a crawl (the sample web with one click), tune every parameter, stop and resume,
//! and watch it live — pages/s, cumulative pages, the frontier, requests in flight per host,
//! status codes and error kinds, the head of the frontier with each URL's priority and why,
//! the recent-fetch log and robots decisions. Book ch. 3 [L737–1378].

use std::time::{Duration, Instant};

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};

use super::Lang;
use super::export::{Exports, plot_buttons, table_button};
use super::job_watch::JobWatch;
use super::panel::{Cx, LabPanel, logged};
use super::task::{Loaded, Task};
use crate::engine::crawl::report::{CrawlReport, report};
use crate::engine::crawl::{Crawl, CrawlCounters, CrawlParams, IN_FLIGHT_PREFIX, Scope, Strategy};
use crate::engine::export::{Plot as XPlot, Series as XSeries, Table};
use crate::engine::jobs::JobSnapshot;
use crate::engine::sample::server::{SampleServer, ServeOptions};
use crate::engine::store::Workspace;

/// One sample of a running crawl's counters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sample {
    t: f64,
    fetched: f64,
    stored: f64,
    replicas: f64,
    frontier: f64,
    bytes: f64,
}

pub(crate) struct CrawlPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    pub params: CrawlParams,
    pub seeds_text: String,
    pub scope_choice: usize,
    pub suffix: String,
    pub max_pages: u64,
    pub max_depth: u32,
    pub series: Vec<Sample>,
    last_sample: Option<Instant>,
    pub report: Loaded<CrawlReport>,
    pub error: Option<String>,
    pub starting_sample: Option<Task<Result<SampleServer, String>>>,
    /// The latest crawl of this session (running or finished), for the plots.
    pub handle: Option<JobWatch<Crawl>>,
    /// The report was re-read after the crawl finished.
    final_report: bool,
    pub capacity: super::capacity::CapacityPanel,
    pub filter_text: String,
}

impl Default for CrawlPanel {
    fn default() -> Self {
        CrawlPanel {
            book: Default::default(),
            params: CrawlParams::default(),
            seeds_text: String::new(),
            scope_choice: 2,
            suffix: ".localhost".into(),
            max_pages: 0,
            max_depth: 0,
            series: Vec::new(),
            last_sample: None,
            report: Loaded::default(),
            error: None,
            starting_sample: None,
            handle: None,
            final_report: false,
            capacity: Default::default(),
            filter_text: CrawlParams::default().url_filter.join("\n"),
        }
    }
}

impl CrawlPanel {
    /// Fill the form from a logged crawl's parameters (the experiment log's "re-open").
    fn set_params(&mut self, p: CrawlParams) {
        self.seeds_text = p.seeds.join("\n");
        self.filter_text = p.url_filter.join("\n");
        self.max_pages = p.max_pages.unwrap_or(0);
        self.max_depth = p.max_depth.unwrap_or(0);
        match &p.scope {
            Scope::Hosts => self.scope_choice = 0,
            Scope::Any => self.scope_choice = 1,
            Scope::Suffix(s) => {
                self.scope_choice = 2;
                self.suffix = s.clone();
            }
        }
        self.params = p;
    }
}

const STRATEGIES: [(Strategy, &str); 5] = [
    (Strategy::Bfs, "BFS"),
    (Strategy::Dfs, "DFS"),
    (Strategy::Weight, "weight"),
    (Strategy::Backlinks, "backlinks"),
    (Strategy::Random, "random"),
];

fn start(cx: &mut Cx<'_>, p: &mut CrawlPanel, resume: bool) {
    let mut params = p.params.clone();
    params.seeds = p
        .seeds_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    params.resume = resume;
    params.url_filter = p
        .filter_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    params.max_pages = (p.max_pages > 0).then_some(p.max_pages);
    params.max_depth = (p.max_depth > 0).then_some(p.max_depth);
    params.scope = match p.scope_choice {
        0 => Scope::Hosts,
        1 => Scope::Any,
        _ => Scope::Suffix(p.suffix.clone()),
    };
    match Crawl::new(params) {
        Ok(job) => {
            p.error = None;
            p.series.clear();
            p.last_sample = None;
            p.final_report = false;
            p.handle = JobWatch::start(cx, job);
        }
        Err(e) => p.error = Some(cx.lang.error(&e)),
    }
}

fn sample(p: &mut CrawlPanel) {
    let Some(h) = &p.handle else { return };
    let s = h.snapshot();
    if p.last_sample
        .is_some_and(|t| t.elapsed() < Duration::from_millis(250))
        && s.finished_after.is_none()
    {
        return;
    }
    let c: CrawlCounters = s.progress.read().unwrap_or_default();
    if s.finished_after.is_some()
        && p.series
            .last()
            .is_some_and(|x| x.fetched == c.fetched as f64)
    {
        return;
    }
    p.last_sample = Some(Instant::now());
    p.series.push(Sample {
        t: s.elapsed.as_secs_f64(),
        fetched: c.fetched as f64,
        stored: c.stored as f64,
        replicas: c.replicas as f64,
        frontier: c.frontier as f64,
        bytes: c.bytes as f64,
    });
}

fn controls(cx: &mut Cx<'_>, me: &mut CrawlPanel, ui: &mut Ui) {
    let lang = cx.lang;
    let ctx = ui.ctx().clone();
    // The sample web, served with one click, gives the seeds.
    if let Some(r) = Task::take_result(&mut me.starting_sample) {
        match r {
            Ok(server) => {
                me.seeds_text = server.web().truth.seeds.join("\n");
                cx.hub.sample_server = Some(server);
            }
            Err(e) => me.error = Some(e),
        }
    }
    let running = me.handle.as_ref().is_some_and(JobWatch::is_running);
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(lang.t("crawl.seeds")).strong());
                if ui
                    .add_enabled(
                        me.starting_sample.is_none(),
                        egui::Button::new(lang.t("crawl.use_sample")),
                    )
                    .clicked()
                {
                    match &cx.hub.sample_server {
                        Some(s) => me.seeds_text = s.web().truth.seeds.join("\n"),
                        None => {
                            me.starting_sample = Some(Task::spawn(&ctx, move || {
                                SampleServer::start(ServeOptions::default())
                                    .map_err(|e| lang.error(&e))
                            }))
                        }
                    }
                }
            });
            ui.add(
                egui::TextEdit::multiline(&mut me.seeds_text)
                    .desired_rows(3)
                    .desired_width(f32::INFINITY)
                    .hint_text("http://www.huaxia.localhost:8080/"),
            );
            params_grid(lang, me, ui);
            url_filter(lang, me, ui);
            run_buttons(cx, me, running, ui);
            if let Some(e) = &me.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
        });
}

/// The crawl's parameters as label–value pairs: two pairs a row (workers, politeness,
/// strategy, limits, scope), one a row where the panel is narrow (200 % zoom), so no value
/// lies past the panel's edge.
fn params_grid(lang: Lang, p: &mut CrawlPanel, ui: &mut Ui) {
    let mut c = Cells::new(if super::wrap::is_narrow(ui) { 1 } else { 2 });
    egui::Grid::new("crawl_params")
        .num_columns(2 * c.per_row)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            ui.label(lang.t("crawl.workers"));
            ui.add(egui::DragValue::new(&mut p.params.workers).range(1..=512));
            c.next(ui);
            ui.label(lang.t("crawl.per_host"));
            ui.add(egui::DragValue::new(&mut p.params.per_host).range(1..=64));
            c.next(ui);
            ui.label(lang.t("crawl.delay"));
            ui.add(
                egui::DragValue::new(&mut p.params.delay_ms)
                    .range(0..=60_000)
                    .suffix(" ms"),
            );
            c.next(ui);
            ui.label(lang.t("crawl.strategy"));
            egui::ComboBox::from_id_salt("strategy")
                .selected_text(
                    STRATEGIES
                        .iter()
                        .find(|s| s.0 == p.params.strategy)
                        .map_or("", |s| s.1),
                )
                .show_ui(ui, |ui| {
                    for (s, name) in STRATEGIES {
                        ui.selectable_value(&mut p.params.strategy, s, name);
                    }
                });
            c.next(ui);
            if p.params.strategy == Strategy::Weight {
                ui.label(lang.t("crawl.mix"));
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut p.params.mix_weight).range(1..=100));
                    ui.label(":");
                    ui.add(egui::DragValue::new(&mut p.params.mix_random).range(0..=100));
                });
                c.next(ui);
            }
            ui.label(lang.t("crawl.retries"));
            ui.add(egui::DragValue::new(&mut p.params.retries).range(0..=10));
            c.next(ui);
            ui.label(lang.t("crawl.max_pages"));
            ui.add(egui::DragValue::new(&mut p.max_pages).range(0..=10_000_000));
            c.next(ui);
            ui.label(lang.t("crawl.max_depth"));
            ui.add(egui::DragValue::new(&mut p.max_depth).range(0..=1000));
            c.next(ui);
            ui.label(lang.t("crawl.scope"));
            ui.horizontal(|ui| {
                ui.selectable_value(&mut p.scope_choice, 0, lang.t("crawl.scope_hosts"));
                ui.selectable_value(&mut p.scope_choice, 1, lang.t("crawl.scope_any"));
                ui.selectable_value(&mut p.scope_choice, 2, lang.t("crawl.scope_suffix"));
            });
            c.next(ui);
            // The suffix a pair of its own: wrapped under the choices inside a grid cell it
            // overlapped the next row (a grid centres a cell's content in its row).
            if p.scope_choice == 2 {
                let l = ui.label(lang.t("crawl.scope_suffix"));
                ui.add_sized([110.0, 20.0], egui::TextEdit::singleline(&mut p.suffix))
                    .labelled_by(l.id);
                c.next(ui);
            }
            ui.label(lang.t("crawl.timeout"));
            ui.add(
                egui::DragValue::new(&mut p.params.timeout_ms)
                    .range(100..=120_000)
                    .suffix(" ms"),
            );
            c.next(ui);
            ui.label(lang.t("crawl.robots"));
            ui.checkbox(&mut p.params.respect_robots, "robots.txt");
            c.next(ui);
            ui.label(lang.t("crawl.max_bytes"));
            ui.add(
                egui::DragValue::new(&mut p.params.max_bytes)
                    .range(1024..=1_000_000_000)
                    .suffix(" B"),
            );
            c.next(ui);
        });
}

/// Label–value pairs of a grid, `per_row` of them a row.
struct Cells {
    per_row: usize,
    n: usize,
}

impl Cells {
    fn new(per_row: usize) -> Self {
        Cells { per_row, n: 0 }
    }

    /// One more pair is in: the row ends after every `per_row`-th.
    fn next(&mut self, ui: &mut Ui) {
        self.n += 1;
        if self.n.is_multiple_of(self.per_row) {
            ui.end_row();
        }
    }
}

/// The URL filter's rules and the longest URL kept, with the book's defaults a click away.
fn url_filter(lang: Lang, me: &mut CrawlPanel, ui: &mut Ui) {
    egui::CollapsingHeader::new(lang.t("crawl.url_filter"))
        .id_salt("url_filter")
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("crawl.url_filter_hint")).weak());
            ui.add(
                egui::TextEdit::multiline(&mut me.filter_text)
                    .desired_rows(6)
                    .code_editor(),
            );
            ui.horizontal(|ui| {
                ui.label(lang.t("crawl.max_url_len"));
                ui.add(egui::DragValue::new(&mut me.params.max_url_len).range(16..=100_000));
                if ui.button(lang.t("cap.book_defaults")).clicked() {
                    let d = CrawlParams::default();
                    me.filter_text = d.url_filter.join("\n");
                    me.params.max_url_len = d.max_url_len;
                }
            });
        });
}

/// Start, pause, stop and resume.
fn run_buttons(cx: &mut Cx<'_>, me: &mut CrawlPanel, running: bool, ui: &mut Ui) {
    let lang = cx.lang;
    ui.horizontal_wrapped(|ui| {
        let has_ws = cx.session.is_some();
        if ui
            .add_enabled(has_ws && !running, egui::Button::new(lang.t("crawl.start")))
            .clicked()
        {
            start(cx, me, false);
        }
        let paused = me.handle.as_ref().is_some_and(|w| w.handle().is_paused());
        let pause_label = if paused {
            lang.t("crawl.unpause")
        } else {
            lang.t("crawl.pause")
        };
        if ui
            .add_enabled(running, egui::Button::new(pause_label))
            .clicked()
            && let Some(w) = &me.handle
        {
            w.handle().set_paused(!paused);
        }
        if ui
            .add_enabled(running, egui::Button::new(lang.t("crawl.stop")))
            .clicked()
            && let Some(h) = &me.handle
        {
            h.cancel();
        }
        if ui
            .add_enabled(
                has_ws && !running,
                egui::Button::new(lang.t("crawl.resume")),
            )
            .clicked()
        {
            start(cx, me, true);
        }
        ui.label(RichText::new(lang.t("crawl.stop_hint")).weak());
    });
}

/// The crawl's counters over time as exportable plot data.
fn totals_plot(lang: Lang, s: &[Sample]) -> XPlot {
    let series = |name: &str, f: fn(&Sample) -> f64| {
        XSeries::line(name, s.iter().map(|x| [x.t, f(x)]).collect::<Vec<_>>())
    };
    XPlot::new(
        lang.t("crawl.plot_total"),
        lang.t("export.axis_seconds"),
        lang.t("export.axis_pages"),
    )
    .series(series(lang.t("crawl.fetched"), |x| x.fetched))
    .series(series(lang.t("crawl.stored"), |x| x.stored))
    .series(series(lang.t("crawl.replicas"), |x| x.replicas))
    .series(series(lang.t("crawl.frontier"), |x| x.frontier))
}

fn plots(lang: Lang, ui: &mut Ui, p: &CrawlPanel, ex: &mut Exports) {
    let s = &p.series;
    if s.len() < 2 {
        return;
    }
    let rate: Vec<[f64; 2]> = s
        .windows(2)
        .filter(|w| w[1].t > w[0].t)
        .map(|w| [w[1].t, (w[1].fetched - w[0].fetched) / (w[1].t - w[0].t)])
        .collect();
    let line = |name: &str, f: fn(&Sample) -> f64| {
        Line::new(
            name.to_string(),
            PlotPoints::from(s.iter().map(|x| [x.t, f(x)]).collect::<Vec<_>>()),
        )
    };
    ui.columns(2, |cols| {
        cols[0].horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.t("crawl.plot_rate")).strong());
            plot_buttons(ui, lang, ex, || {
                XPlot::new(
                    lang.t("crawl.plot_rate"),
                    lang.t("export.axis_seconds"),
                    lang.t("crawl.pages_per_s"),
                )
                .series(XSeries::line(lang.t("crawl.pages_per_s"), rate.clone()))
            });
        });
        Plot::new("crawl_rate")
            .height(180.0)
            .x_axis_label("s")
            .show(&mut cols[0], |pl| {
                pl.line(Line::new(
                    lang.t("crawl.pages_per_s"),
                    PlotPoints::from(rate.clone()),
                ));
            });
        cols[1].horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.t("crawl.plot_total")).strong());
            plot_buttons(ui, lang, ex, || totals_plot(lang, s));
        });
        Plot::new("crawl_total")
            .height(180.0)
            .legend(Legend::default())
            .x_axis_label("s")
            .show(&mut cols[1], |pl| {
                pl.line(line(lang.t("crawl.fetched"), |x| x.fetched));
                pl.line(line(lang.t("crawl.stored"), |x| x.stored));
                pl.line(line(lang.t("crawl.replicas"), |x| x.replicas));
                pl.line(line(lang.t("crawl.frontier"), |x| x.frontier));
            });
    });
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("crawl.plot_bytes")).strong());
        plot_buttons(ui, lang, ex, || {
            XPlot::new(
                lang.t("crawl.plot_bytes"),
                lang.t("export.axis_seconds"),
                "MB",
            )
            .series(XSeries::line(
                "MB",
                s.iter().map(|x| [x.t, x.bytes / 1e6]).collect::<Vec<_>>(),
            ))
        });
    });
    Plot::new("crawl_bytes")
        .height(110.0)
        .x_axis_label("s")
        .show(ui, |pl| {
            pl.line(line("MB", |x| x.bytes / 1e6));
        });
    if let Some(last) = s.last() {
        ui.label(lang.tf(
            "crawl.bytes",
            &[
                &super::shell::human_bytes(last.bytes as u64),
                &format!("{:.1}", last.t),
            ],
        ));
    }
}

fn in_flight(lang: Lang, ui: &mut Ui, snap: &JobSnapshot, ex: &mut Exports) {
    let hosts: Vec<(String, f64)> = snap
        .progress
        .counters
        .iter()
        .filter_map(|(n, v)| {
            n.strip_prefix(IN_FLIGHT_PREFIX)
                .map(|h| (h.to_string(), *v))
        })
        .collect();
    if hosts.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("crawl.in_flight")).strong());
        table_button(ui, lang, ex, || {
            Table::new(lang.t("crawl.in_flight"), ["host", "in_flight"])
                .with_rows(hosts.iter().map(|(h, v)| [h.clone(), v.to_string()]))
        });
    });
    let bars: Vec<Bar> = hosts
        .iter()
        .enumerate()
        .map(|(i, (h, v))| Bar::new(i as f64, *v).name(h.clone()))
        .collect();
    Plot::new("in_flight")
        .height(120.0)
        .show_axes([false, true])
        .show(ui, |pl| {
            pl.bar_chart(BarChart::new(lang.t("crawl.in_flight"), bars))
        });
}

fn tables(lang: Lang, ui: &mut Ui, r: &CrawlReport, ex: &mut Exports) {
    ui.columns(2, |cols| {
        cols[0].horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.t("crawl.outcomes")).strong());
            table_button(ui, lang, ex, || {
                Table::new(
                    lang.t("crawl.outcomes"),
                    [lang.t("export.col_outcome"), lang.t("export.col_count")],
                )
                .with_rows(r.outcomes.iter().map(|(k, n)| [k.clone(), n.to_string()]))
            });
            plot_buttons(ui, lang, ex, || {
                XPlot::new(
                    lang.t("crawl.outcomes"),
                    lang.t("export.col_outcome"),
                    lang.t("export.col_count"),
                )
                .series(XSeries::bars(
                    lang.t("crawl.outcomes"),
                    r.outcomes
                        .iter()
                        .enumerate()
                        .map(|(i, (_, n))| [i as f64, *n as f64])
                        .collect::<Vec<_>>(),
                ))
            });
        });
        if !r.outcomes.is_empty() {
            let bars: Vec<Bar> = r
                .outcomes
                .iter()
                .enumerate()
                .map(|(i, (k, n))| Bar::new(i as f64, *n as f64).name(k.clone()))
                .collect();
            Plot::new("outcomes_plot")
                .height(110.0)
                .show_axes([false, true])
                .show(&mut cols[0], |pl| {
                    pl.bar_chart(BarChart::new(lang.t("crawl.outcomes"), bars))
                });
        }
        egui::Grid::new("outcomes")
            .striped(true)
            .show(&mut cols[0], |ui| {
                for (k, n) in &r.outcomes {
                    ui.label(RichText::new(k).monospace());
                    ui.label(n.to_string());
                    ui.end_row();
                }
            });
        cols[1].horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.tf("crawl.frontier_head", &[&r.frontier_queued])).strong());
            table_button(ui, lang, ex, || {
                Table::new(lang.t("export.frontier"), ["priority", "why", "url"]).with_rows(
                    r.frontier_head
                        .iter()
                        .map(|f| [format!("{}", f.priority), f.why.clone(), f.url.clone()]),
                )
            });
        });
        egui::Grid::new("frontier_head")
            .striped(true)
            .show(&mut cols[1], |ui| {
                for f in r.frontier_head.iter().take(15) {
                    ui.label(format!("{:.0}", f.priority));
                    ui.label(RichText::new(&f.why).small());
                    ui.label(RichText::new(&f.url).monospace().small());
                    ui.end_row();
                }
            });
    });
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("crawl.recent")).strong());
        table_button(ui, lang, ex, || {
            Table::new(
                lang.t("crawl.recent"),
                ["fetched_at", "status", "error", "bytes", "replica", "url"],
            )
            .with_rows(r.recent.iter().map(|f| {
                [
                    f.fetched_at.clone(),
                    f.status.map_or(String::new(), |s| s.to_string()),
                    f.error_kind.clone().unwrap_or_default(),
                    f.bytes.map_or(String::new(), |b| b.to_string()),
                    f.replica.to_string(),
                    f.url.clone(),
                ]
            }))
        });
    });
    egui::Grid::new("recent_fetches")
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            for f in r.recent.iter().take(25) {
                ui.label(
                    RichText::new(f.fetched_at.get(11..19).unwrap_or(""))
                        .monospace()
                        .small(),
                );
                let outcome = f
                    .error_kind
                    .clone()
                    .or_else(|| f.status.map(|s| s.to_string()))
                    .unwrap_or_default();
                ui.label(RichText::new(outcome).monospace());
                ui.label(
                    f.bytes
                        .map_or(String::new(), |b| super::shell::human_bytes(b as u64)),
                );
                ui.label(if f.replica {
                    lang.t("crawl.replica")
                } else {
                    ""
                });
                ui.label(RichText::new(&f.url).monospace().small());
                ui.end_row();
            }
        });
    if !r.aliases.is_empty() {
        ui.add_space(8.0);
        ui.label(RichText::new(lang.t("crawl.aliases")).strong());
        for g in &r.aliases {
            ui.label(
                RichText::new(format!(
                    "{}  {} ⇄ {}",
                    g.class,
                    g.hosts.join(", "),
                    g.ips.join(", ")
                ))
                .small(),
            );
        }
    }
    if !r.robots.is_empty() || !r.filtered.is_empty() {
        ui.add_space(8.0);
        ui.label(RichText::new(lang.t("crawl.decisions")).strong());
        for (u, why) in r.robots.iter().chain(&r.filtered).take(30) {
            ui.label(RichText::new(format!("{why} — {u}")).small());
        }
    }
}

impl LabPanel for CrawlPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        show(cx, self, ui);
    }

    fn reopen(
        &mut self,
        _kind: &str,
        _id: i64,
        params: &serde_json::Value,
        lang: Lang,
    ) -> Result<(), String> {
        let p: CrawlParams = logged(params, lang)?;
        self.set_params(p);
        Ok(())
    }
}

fn show(cx: &mut Cx<'_>, me: &mut CrawlPanel, ui: &mut Ui) {
    let lang = cx.lang;
    ui.heading(lang.t("crawl.heading"));
    ui.label(RichText::new(lang.t("crawl.intro")).weak());
    ui.add_space(6.0);
    controls(cx, me, ui);
    sample(me);
    let running = me.handle.as_ref().is_some_and(JobWatch::is_running);
    if let Some(sess) = &cx.session {
        let finished = me.handle.as_ref().is_some_and(|w| !w.is_running());
        if (running
            && me
                .report
                .age()
                .is_some_and(|a| a > Duration::from_millis(700)))
            || (finished && !std::mem::replace(&mut me.final_report, true))
        {
            me.report.invalidate();
        }
        let path = sess.path.clone();
        me.report.update(ui.ctx(), move || {
            Workspace::open_existing(&path)
                .and_then(|ws| report(&ws, 30, 40))
                .map_err(|e| lang.error(&e))
        });
    }
    if running {
        ui.ctx().request_repaint_after(Duration::from_millis(250));
    }
    ui.add_space(8.0);
    plots(lang, ui, me, &mut cx.hub.exports);
    if let Some(h) = &me.handle {
        in_flight(lang, ui, &h.snapshot(), &mut cx.hub.exports);
    }
    ui.add_space(8.0);
    if let Some(r) = &me.report.value {
        tables(lang, ui, r, &mut cx.hub.exports);
    }
    ui.add_space(12.0);
    let ws = cx.session.as_ref().map(|s| s.path.clone());
    super::capacity::show(
        lang,
        ui,
        &mut me.capacity,
        ws.as_deref(),
        &mut cx.hub.exports,
    );
    ui.add_space(12.0);
    me.book.ui(cx, ui, "Crawl");
}
