//! Jobs: what is running, and what did every past run do? Starts jobs, shows their live progress
//! (fraction, counters, ETA) with cancel, and lists the experiment log — filterable, with each
//! run's parameters and result — from which a past run's parameters can be re-opened.

mod compare;
pub(super) mod outcome;

use egui::{RichText, Ui};

use super::Lang;
use super::export::table_button;
use super::job_watch::{Finished, JobWatch};
use super::panel::{Cx, LabPanel, Request};
use crate::engine::calibrate::{Calibrate, CalibrateParams, MAX_SECONDS, MIN_SECONDS};
use crate::engine::jobs::{JobRecord, JobSnapshot, JobState, STATUSES};
use outcome::{Line, capped_json, compact_json};

/// The height of the log's scrolled table, points.
const LOG_HEIGHT: f32 = 420.0;

/// Characters of a run's result the filter searches (a cache run's result is megabytes).
const HAYSTACK_RESULT: usize = 4096;

#[derive(Default)]
pub(crate) struct JobsPanel {
    pub calibrate: CalibrateParams,
    pub filter_text: String,
    pub status_filter: Option<String>,
    pub kind_filter: Option<String>,
    pub selected: Option<i64>,
    pub form_note: Option<(String, bool)>,
    /// The calibration this panel started (its failure is shown under the form).
    calibrating: Option<JobWatch<Calibrate>>,
    /// The log as drawn, recomputed only when the log or the filter changes.
    view: Option<LogView>,
    /// Runs ticked for side-by-side comparison, and the comparison drawn.
    compare: compare::CompareState,
    /// The last finished job's heading and summary, made once per job.
    last: Option<(LastKey, Option<Outcome>)>,
    /// The selected run's details, made once per run, log load and language (a run selected
    /// while it ran gets its result when the log reloads).
    detail: Option<(DetailKey, Detail)>,
}

/// Which run a [`Detail`] was made for: the log's generation, the run's id, the language.
type DetailKey = (u64, i64, Lang);

/// The last finished job's heading ("最近结束：…") and its result's summary.
type Outcome = (String, Vec<Line>);

/// A run's details as drawn: its result's summary and the raw JSON, indented and capped.
struct Detail {
    params: String,
    summary: Vec<Line>,
    result: Option<String>,
}

impl Detail {
    fn new(lang: Lang, r: &JobRecord) -> Detail {
        Detail {
            params: outcome::raw(&r.params),
            summary: r
                .result
                .as_ref()
                .map(|v| outcome::summary(lang, v, outcome::DETAIL_LINES))
                .unwrap_or_default(),
            result: r.result.as_ref().map(outcome::raw),
        }
    }
}

/// One log row's display strings, computed once per log load.
struct RowView {
    id: i64,
    /// "#id".
    label: String,
    /// The job kind (`cache-sim`) and its name in the UI's language (缓存模拟).
    kind: String,
    kind_name: String,
    status: String,
    started: String,
    duration: String,
    params: String,
    result: String,
    /// Lower-cased text the filter searches.
    haystack: String,
}

/// The filtered log with its display strings.
struct LogView {
    key: (u64, String, Option<String>, Option<String>, Lang),
    rows: Vec<RowView>,
    /// The kinds in the log: (name, kind), by name.
    kinds: Vec<(String, String)>,
    /// Indices into `rows` that pass the filter.
    shown: Vec<usize>,
}

impl LogView {
    fn build(
        log: &[JobRecord],
        key: (u64, String, Option<String>, Option<String>, Lang),
    ) -> LogView {
        let lang = key.4;
        let rows: Vec<RowView> = log
            .iter()
            .map(|r| {
                let params = r.params.to_string();
                let result = match (&r.result, &r.error) {
                    (Some(v), _) => capped_json(v, HAYSTACK_RESULT),
                    (None, Some(_)) => failure(lang, r),
                    _ => String::new(),
                };
                let kind_name = lang.job_kind(&r.kind);
                let haystack =
                    format!("{} {} {} {}", r.kind, kind_name, params, result).to_lowercase();
                RowView {
                    id: r.id,
                    label: format!("#{}", r.id),
                    kind: r.kind.clone(),
                    kind_name,
                    status: r.status.clone(),
                    // To the second: the fraction made the column cut the time off.
                    started: crate::ui::shell::to_second(&r.started_at),
                    duration: r.duration_s.map_or("—".into(), |d| format!("{d:.1} s")),
                    params: compact_json(&r.params, 48),
                    // The first fields of the result's summary, named in the UI's language.
                    result: match &r.result {
                        Some(v) => outcome::headline(lang, v, 64),
                        None => compact_json(&serde_json::Value::String(result.clone()), 48),
                    },
                    haystack,
                }
            })
            .collect();
        // Each kind once, with its name, in the order of the names.
        let mut kinds: Vec<(String, String)> = rows
            .iter()
            .map(|r| (r.kind_name.clone(), r.kind.clone()))
            .collect();
        kinds.sort();
        kinds.dedup();
        let q = key.1.trim().to_lowercase();
        let shown = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                key.2.as_ref().is_none_or(|s| *s == r.status)
                    && key.3.as_ref().is_none_or(|k| *k == r.kind)
                    && (q.is_empty() || r.haystack.contains(&q) || format!("#{}", r.id) == q)
            })
            .map(|(i, _)| i)
            .collect();
        LogView {
            key,
            rows,
            kinds,
            shown,
        }
    }
}

fn status_word(lang: Lang, s: &str) -> &'static str {
    match s {
        "running" => lang.t("jobstatus.running"),
        "done" => lang.t("jobstatus.done"),
        "failed" => lang.t("jobstatus.failed"),
        "cancelled" => lang.t("jobstatus.cancelled"),
        "interrupted" => lang.t("jobstatus.interrupted"),
        _ => lang.t("jobstatus.unknown"),
    }
}

fn status_color(ui: &Ui, s: &str) -> egui::Color32 {
    match s {
        "done" => egui::Color32::from_rgb(0x2e, 0x9e, 0x4f),
        "failed" | "interrupted" => ui.visuals().error_fg_color,
        "running" => ui.visuals().hyperlink_color,
        _ => ui.visuals().weak_text_color(),
    }
}

fn new_job_section(cx: &mut Cx<'_>, me: &mut JobsPanel, ui: &mut Ui) {
    let lang = cx.lang;
    if let Some(end) = JobWatch::take_finished(&mut me.calibrating)
        && let Finished::Failed(code) = end.outcome
    {
        me.form_note = Some((lang.error_code(&code), true));
    }
    ui.label(RichText::new(lang.t("jobs.new")).size(18.0).strong());
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("jobs.calibrate_title")).strong());
            ui.label(lang.t("jobs.calibrate_desc"));
            ui.horizontal(|ui| {
                ui.label(lang.t("jobs.seconds"));
                ui.add(
                    egui::DragValue::new(&mut me.calibrate.seconds)
                        .range(MIN_SECONDS..=MAX_SECONDS)
                        .speed(0.25)
                        .suffix(" s"),
                );
                let can_run = cx.session.is_some();
                if ui
                    .add_enabled(can_run, egui::Button::new(lang.t("jobs.run_calibrate")))
                    .clicked()
                {
                    match Calibrate::new(me.calibrate.clone()) {
                        Ok(job) => {
                            me.form_note = None;
                            me.calibrating = JobWatch::start(cx, job);
                        }
                        Err(e) => me.form_note = Some((lang.error(&e), true)),
                    }
                }
            });
            if let Some((note, err)) = &me.form_note {
                if *err {
                    ui.colored_label(ui.visuals().error_fg_color, note);
                } else {
                    ui.label(RichText::new(note).italics());
                }
            }
        });
}

fn running_section(cx: &Cx<'_>, ui: &mut Ui) {
    let lang = cx.lang;
    if cx.running.is_empty() {
        return;
    }
    ui.add_space(10.0);
    ui.label(RichText::new(lang.t("jobs.running")).size(18.0).strong());
    let mut cancel = None;
    for (i, h) in cx.running.iter().enumerate() {
        let s = h.snapshot();
        egui::Frame::group(ui.style())
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(s.kind).strong());
                    if let Some(id) = s.id {
                        ui.label(format!("#{id}"));
                    }
                    let state = match s.state {
                        JobState::Cancelling => lang.t("jobs.cancelling"),
                        JobState::Starting => lang.t("jobs.starting"),
                        _ => lang.t("jobstatus.running"),
                    };
                    ui.label(state);
                });
                ui.add(
                    egui::ProgressBar::new(s.progress.fraction.unwrap_or(0.0))
                        .text(super::shell::progress_text(lang, &s))
                        .animate(true),
                );
                ui.horizontal_wrapped(|ui| {
                    ui.label(lang.tf(
                        "jobs.elapsed",
                        &[&format!("{:.1}", s.elapsed.as_secs_f64())],
                    ));
                    if !s.progress.message.is_empty() {
                        ui.label(format!("· {}", s.progress.message));
                    }
                    for (name, v) in &s.progress.counters {
                        ui.label(RichText::new(format!("{name} = {v:.0}")).monospace());
                    }
                });
                let label = lang.tf(
                    "jobs.cancel_this",
                    &[&s.id.map_or("?".into(), |i| i.to_string())],
                );
                if ui
                    .add_enabled(
                        !matches!(s.state, JobState::Cancelling),
                        egui::Button::new(label),
                    )
                    .clicked()
                {
                    cancel = Some(i);
                }
            });
    }
    if let Some(i) = cancel {
        cx.running[i].cancel();
    }
}

/// Which finished job the last-finished line was made for (job id, kind, when it finished,
/// language).
type LastKey = (Option<i64>, &'static str, Option<std::time::Duration>, Lang);

/// The last finished job's heading and outcome, made once per job (a cache run's result is
/// megabytes of JSON: formatting it every frame cost 10 ms).
fn last_finished_text(lang: Lang, s: &JobSnapshot) -> Option<Outcome> {
    let (word, lines) = match &s.state {
        JobState::Done(v) => (
            lang.t("jobstatus.done"),
            outcome::summary(lang, v, outcome::SUMMARY_LINES),
        ),
        JobState::Cancelled => (lang.t("jobstatus.cancelled"), Vec::new()),
        JobState::Failed { code, .. } => (
            lang.t("jobstatus.failed"),
            vec![Line {
                label: String::new(),
                value: lang.error_code(code),
            }],
        ),
        _ => return None,
    };
    let heading = lang.tf(
        "jobs.last_finished",
        &[
            &lang.job_kind(s.kind),
            &word,
            &format!("{:.1}", s.finished_after.unwrap_or(s.elapsed).as_secs_f64()),
        ],
    );
    Some((heading, lines))
}

fn last_finished_section(cx: &Cx<'_>, me: &mut JobsPanel, ui: &mut Ui) {
    let lang = cx.lang;
    let Some(s) = &cx.hub.last_finished else {
        return;
    };
    let key = (s.id, s.kind, s.finished_after, lang);
    if me.last.as_ref().is_none_or(|(k, _)| *k != key) {
        me.last = Some((key, last_finished_text(lang, s)));
    }
    let Some((_, Some((heading, lines)))) = &me.last else {
        return;
    };
    ui.add_space(10.0);
    ui.label(RichText::new(heading).strong());
    summary_grid(ui, "jobs_last_summary", lines);
}

/// A result's summary as a two-column grid: what, and its value.
fn summary_grid(ui: &mut Ui, id: &str, lines: &[Line]) {
    if lines.is_empty() {
        return;
    }
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            for l in lines {
                ui.label(RichText::new(&l.label).weak());
                ui.label(RichText::new(&l.value).monospace());
                ui.end_row();
            }
        });
}

fn log_section(cx: &mut Cx<'_>, me: &mut JobsPanel, ui: &mut Ui) {
    let lang = cx.lang;
    ui.add_space(14.0);
    ui.label(RichText::new(lang.t("jobs.log")).size(18.0).strong());
    ui.label(RichText::new(lang.t("jobs.log_desc")).weak());
    let Some(sess) = cx.session else {
        return;
    };
    let key = (
        sess.log.generation(),
        me.filter_text.clone(),
        me.status_filter.clone(),
        me.kind_filter.clone(),
        cx.lang,
    );
    if me.view.as_ref().is_none_or(|v| v.key != key) {
        me.view = Some(LogView::build(
            sess.log.value.as_deref().unwrap_or_default(),
            key,
        ));
    }
    let Some(view) = me.view.take() else { return };
    let p = &mut *me;
    let mut refresh = false;
    ui.horizontal_wrapped(|ui| {
        // Each filter is named by the label before it (a screen reader says it; tests find
        // it by that name), not only by what it has selected.
        let l = ui.label(lang.t("jobs.filter"));
        ui.add(
            egui::TextEdit::singleline(&mut p.filter_text)
                .hint_text(lang.t("jobs.filter_hint"))
                .desired_width(180.0),
        )
        .labelled_by(l.id);
        let l = ui.label(lang.t("jobs.filter_status"));
        egui::ComboBox::from_id_salt("status_filter")
            .selected_text(
                p.status_filter
                    .as_deref()
                    .map_or(lang.t("jobs.all_statuses"), |s| status_word(lang, s)),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.status_filter, None, lang.t("jobs.all_statuses"));
                for s in STATUSES {
                    ui.selectable_value(
                        &mut p.status_filter,
                        Some(s.to_string()),
                        status_word(lang, s),
                    );
                }
            })
            .response
            .labelled_by(l.id);
        let l = ui.label(lang.t("jobs.filter_kind"));
        egui::ComboBox::from_id_salt("kind_filter")
            .selected_text(
                p.kind_filter
                    .as_deref()
                    .map_or_else(|| lang.t("jobs.all_kinds").into(), |k| lang.job_kind(k)),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.kind_filter, None, lang.t("jobs.all_kinds"));
                for (name, k) in &view.kinds {
                    ui.selectable_value(&mut p.kind_filter, Some(k.clone()), name)
                        .on_hover_text(k);
                }
            })
            .response
            .labelled_by(l.id);
        refresh = ui.button(lang.t("jobs.refresh")).clicked();
        if sess.log.is_loading() {
            ui.spinner();
        }
    });
    if refresh {
        cx.request(Request::Refresh);
    }
    if let Some(e) = &sess.log.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }

    ui.horizontal(|ui| {
        ui.label(
            RichText::new(lang.tf("jobs.count", &[&view.shown.len(), &view.rows.len()])).weak(),
        );
        table_button(ui, lang, &mut cx.hub.exports, || {
            let log = sess.log.value.as_deref().unwrap_or_default();
            let shown: Vec<JobRecord> = view
                .shown
                .iter()
                .filter_map(|&i| log.get(i).cloned())
                .collect();
            crate::engine::jobs::log_table(lang.t("jobs.log"), &shown)
        });
    });
    if view.rows.is_empty() {
        ui.label(RichText::new(lang.t("jobs.empty")).italics());
        me.view = Some(view);
        return;
    }
    log_table(lang, ui, p, &view);
    me.view = Some(view);
    // The ticked runs are what a new lesson starts from (the Lessons menu).
    cx.hub.ticked_runs.clone_from(&me.compare.ids);
    compare::section(cx, &mut me.compare, ui, sess);
    let selected = me
        .selected
        .and_then(|id| sess.log.value.as_ref()?.iter().find(|r| r.id == id));
    if let Some(r) = selected {
        let key = (sess.log.generation(), r.id, lang);
        if me.detail.as_ref().is_none_or(|(k, _)| *k != key) {
            me.detail = Some((key, Detail::new(lang, r)));
        }
        if let Some((_, d)) = &me.detail {
            details(cx, ui, r, d);
        }
    }
}

/// The log's rows, virtualised: rows of one height, only those in view laid out (their
/// strings were made when the log loaded), so 2,000 runs cost a frame what 20 do. Newest first.
fn log_table(lang: Lang, ui: &mut Ui, p: &mut JobsPanel, view: &LogView) {
    use egui_extras::{Column, TableBuilder};
    let row_h = ui
        .spacing()
        .interact_size
        .y
        .max(ui.text_style_height(&egui::TextStyle::Body))
        + 4.0;
    // Where the panel is narrow (200 % zoom) the parameters and the result stay in the
    // selected run's details: eight columns ran past the window's edge.
    let wide = !crate::ui::wrap::is_narrow(ui);
    let heads = [
        "jobs.col_compare",
        "jobs.col_id",
        "jobs.col_kind",
        "jobs.col_status",
        "jobs.col_started",
        "jobs.col_duration",
        "jobs.col_params",
        "jobs.col_result",
    ];
    let heads = if wide { &heads[..] } else { &heads[..6] };
    ui.push_id("job_log", |ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
        let table = TableBuilder::new(ui)
            .id_salt(("job_log", wide))
            .striped(true)
            .max_scroll_height(LOG_HEIGHT)
            .auto_shrink([false, true])
            // Wide enough for its header (对比 / Compare), not only the tick box.
            .column(Column::auto().at_least(28.0))
            .column(Column::auto().at_least(44.0))
            .column(Column::auto().at_least(96.0))
            .column(Column::auto().at_least(56.0))
            .column(Column::auto().at_least(150.0))
            .column(Column::auto().at_least(56.0));
        let table = if wide {
            table
                .column(
                    Column::initial(260.0)
                        .at_least(80.0)
                        .resizable(true)
                        .clip(true),
                )
                .column(Column::remainder().at_least(80.0).clip(true))
        } else {
            table
        };
        table
            .header(row_h, |mut h| {
                for k in heads {
                    h.col(|ui| {
                        ui.label(RichText::new(lang.t(k)).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(row_h, view.shown.len(), |mut row| {
                    let Some(r) = view.shown.get(row.index()).and_then(|&i| view.rows.get(i))
                    else {
                        return;
                    };
                    row.col(|ui| {
                        let mut ticked = p.compare.ids.contains(&r.id);
                        if ui
                            .checkbox(&mut ticked, "")
                            .on_hover_text(lang.t("jobs.compare_tick"))
                            .changed()
                        {
                            p.compare.toggle(r.id);
                        }
                    });
                    row.col(|ui| {
                        let sel = p.selected == Some(r.id);
                        if ui.selectable_label(sel, &r.label).clicked() {
                            p.selected = if sel { None } else { Some(r.id) };
                        }
                    });
                    row.col(|ui| {
                        ui.label(&r.kind_name).on_hover_text(&r.kind);
                    });
                    row.col(|ui| {
                        ui.colored_label(status_color(ui, &r.status), status_word(lang, &r.status));
                    });
                    row.col(|ui| {
                        // Narrow: without the year, so the time is not cut off.
                        let started = match r.started.get(5..) {
                            Some(t) if !wide => t,
                            _ => &r.started,
                        };
                        ui.label(started).on_hover_text(&r.started);
                    });
                    row.col(|ui| {
                        ui.label(&r.duration);
                    });
                    if wide {
                        row.col(|ui| {
                            ui.label(RichText::new(&r.params).monospace());
                        });
                        row.col(|ui| {
                            ui.label(RichText::new(&r.result).monospace());
                        });
                    }
                });
            });
    });
}

/// A logged run's failure in the UI's language: its code when the row has one (written since
/// schema v10), else the English message as logged.
fn failure(lang: Lang, r: &JobRecord) -> String {
    match (&r.error_code, &r.error) {
        (Some(c), _) => lang.error_code(c),
        (None, e) => e.clone().unwrap_or_default(),
    }
}

fn details(cx: &mut Cx<'_>, ui: &mut Ui, r: &JobRecord, d: &Detail) {
    let lang = cx.lang;
    let mut reopen = false;
    let mut rerun = false;
    ui.add_space(12.0);
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(
                RichText::new(lang.tf("jobs.details", &[&r.id, &lang.job_kind(&r.kind)]))
                    .size(17.0)
                    .strong(),
            );
            ui.label(
                lang.tf(
                    "jobs.details_times",
                    &[
                        &status_word(lang, &r.status),
                        &crate::ui::shell::to_second(&r.started_at),
                        &r.ended_at
                            .as_deref()
                            .map_or("—".into(), crate::ui::shell::to_second),
                    ],
                ),
            );
            ui.label(RichText::new(lang.t("jobs.params")).strong());
            ui.label(RichText::new(&d.params).monospace());
            if let Some(raw) = &d.result {
                ui.label(RichText::new(lang.t("jobs.result")).strong());
                summary_grid(ui, "jobs_detail_summary", &d.summary);
                egui::CollapsingHeader::new(lang.t("jobs.raw_json"))
                    .id_salt(("jobs_raw", r.id))
                    .show(ui, |ui| {
                        ui.label(RichText::new(raw).monospace());
                    });
            }
            if r.error.is_some() {
                ui.label(RichText::new(lang.t("jobs.error")).strong());
                ui.colored_label(ui.visuals().error_fg_color, failure(lang, r));
            }
            let reopenable = crate::workbench::owner_of(&r.kind).is_some();
            if ui
                .add_enabled(reopenable, egui::Button::new(lang.t("jobs.reopen")))
                .on_disabled_hover_text(lang.t("jobs.reopen_unavailable"))
                .clicked()
            {
                reopen = true;
            }
            let rerunnable = crate::workbench::find(&r.kind).is_some();
            if ui
                .add_enabled(rerunnable, egui::Button::new(lang.t("jobs.rerun")))
                .on_hover_text(lang.t("jobs.rerun_hint"))
                .clicked()
            {
                rerun = true;
            }
        });
    if rerun {
        match crate::workbench::find(&r.kind).map(|k| (k.rebuild)(&r.params)) {
            Some(Ok(job)) => {
                cx.start_job(job);
            }
            Some(Err(e)) => cx.request(Request::Status(cx.lang.error(&e))),
            None => {}
        }
    }
    if reopen {
        cx.request(Request::Reopen {
            kind: r.kind.clone(),
            id: r.id,
            params: r.params.clone(),
        });
    }
}

impl LabPanel for JobsPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        ui.heading(cx.lang.t("jobs.heading"));
        ui.add_space(6.0);
        new_job_section(cx, self, ui);
        running_section(cx, ui);
        last_finished_section(cx, self, ui);
        log_section(cx, self, ui);
    }

    fn reopen(
        &mut self,
        _kind: &str,
        id: i64,
        params: &serde_json::Value,
        lang: Lang,
    ) -> Result<(), String> {
        let p = Calibrate::params_from_json(params).map_err(|e| lang.error(&e))?;
        self.calibrate = p;
        self.form_note = Some((lang.tf("jobs.reopened", &[&id]), false));
        Ok(())
    }
}
