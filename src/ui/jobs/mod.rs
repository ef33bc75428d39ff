//! Jobs: what is running, and what did every past run do? Starts jobs, shows their live progress
//! (fraction, counters, ETA) with cancel, and lists the experiment log — filterable, with each
//! run's parameters and result — from which a past run's parameters can be re-opened.

mod compare;

use egui::{RichText, Ui};

use super::Lang;
use super::export::table_button;
use super::job_watch::{Finished, JobWatch};
use super::panel::{Cx, LabPanel, Request};
use crate::engine::calibrate::{Calibrate, CalibrateParams, MAX_SECONDS, MIN_SECONDS};
use crate::engine::jobs::{JobRecord, JobState, STATUSES};

/// At most this many log rows are drawn (the filter narrows the rest).
const MAX_ROWS: usize = 300;

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
}

/// One log row's display strings, computed once per log load.
struct RowView {
    id: i64,
    kind: String,
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
    kinds: Vec<String>,
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
                    (Some(v), _) => v.to_string(),
                    (None, Some(_)) => failure(lang, r),
                    _ => String::new(),
                };
                RowView {
                    id: r.id,
                    kind: r.kind.clone(),
                    status: r.status.clone(),
                    started: r
                        .started_at
                        .replace('T', " ")
                        .trim_end_matches('Z')
                        .to_string(),
                    duration: r.duration_s.map_or("—".into(), |d| format!("{d:.1} s")),
                    params: compact_json(&r.params, 48),
                    result: match &r.result {
                        Some(v) => compact_json(v, 48),
                        None => compact_json(&serde_json::Value::String(result.clone()), 48),
                    },
                    haystack: format!("{} {} {}", r.kind, params, result).to_lowercase(),
                }
            })
            .collect();
        let mut kinds: Vec<String> = rows.iter().map(|r| r.kind.clone()).collect();
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

/// Floats rounded for display (the log keeps full precision).
fn rounded(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(|f| serde_json::Number::from_f64((f * 100.0).round() / 100.0))
            .map_or_else(|| v.clone(), Value::Number),
        Value::Array(a) => Value::Array(a.iter().map(rounded).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), rounded(x))).collect()),
        _ => v.clone(),
    }
}

fn compact_json(v: &serde_json::Value, max: usize) -> String {
    let mut s = rounded(v).to_string();
    if s.chars().count() > max {
        s = s.chars().take(max).collect::<String>() + "…";
    }
    s
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

fn last_finished_section(cx: &Cx<'_>, ui: &mut Ui) {
    let lang = cx.lang;
    let Some(s) = &cx.hub.last_finished else {
        return;
    };
    ui.add_space(10.0);
    let (word, detail) = match &s.state {
        JobState::Done(v) => (lang.t("jobstatus.done"), compact_json(v, 400)),
        JobState::Cancelled => (lang.t("jobstatus.cancelled"), String::new()),
        JobState::Failed { code, .. } => (lang.t("jobstatus.failed"), lang.error_code(code)),
        _ => return,
    };
    ui.label(
        RichText::new(lang.tf(
            "jobs.last_finished",
            &[
                &s.kind,
                &word,
                &format!("{:.1}", s.finished_after.unwrap_or(s.elapsed).as_secs_f64()),
            ],
        ))
        .strong(),
    );
    if !detail.is_empty() {
        ui.label(RichText::new(detail).monospace());
    }
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
        ui.label(lang.t("jobs.filter"));
        ui.add(
            egui::TextEdit::singleline(&mut p.filter_text)
                .hint_text(lang.t("jobs.filter_hint"))
                .desired_width(180.0),
        );
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
            });
        egui::ComboBox::from_id_salt("kind_filter")
            .selected_text(
                p.kind_filter
                    .clone()
                    .unwrap_or_else(|| lang.t("jobs.all_kinds").into()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.kind_filter, None, lang.t("jobs.all_kinds"));
                for k in &view.kinds {
                    ui.selectable_value(&mut p.kind_filter, Some(k.clone()), k);
                }
            });
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
    egui::Grid::new("job_log")
        .striped(true)
        .num_columns(8)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("jobs.col_compare")).strong());
            for h in [
                lang.t("jobs.col_id"),
                lang.t("jobs.col_kind"),
                lang.t("jobs.col_status"),
                lang.t("jobs.col_started"),
                lang.t("jobs.col_duration"),
                lang.t("jobs.col_params"),
                lang.t("jobs.col_result"),
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for r in view.shown.iter().take(MAX_ROWS).map(|&i| &view.rows[i]) {
                let mut ticked = p.compare.ids.contains(&r.id);
                if ui
                    .checkbox(&mut ticked, "")
                    .on_hover_text(lang.t("jobs.compare_tick"))
                    .changed()
                {
                    p.compare.toggle(r.id);
                }
                let sel = p.selected == Some(r.id);
                if ui.selectable_label(sel, format!("#{}", r.id)).clicked() {
                    p.selected = if sel { None } else { Some(r.id) };
                }
                ui.label(&r.kind);
                ui.colored_label(status_color(ui, &r.status), status_word(lang, &r.status));
                ui.label(&r.started);
                ui.label(&r.duration);
                ui.label(RichText::new(&r.params).monospace());
                ui.label(RichText::new(&r.result).monospace());
                ui.end_row();
            }
        });
    me.view = Some(view);
    // The ticked runs are what a new lesson starts from (the Lessons menu).
    cx.hub.ticked_runs.clone_from(&me.compare.ids);
    compare::section(cx, &mut me.compare, ui, sess);
    let selected = me
        .selected
        .and_then(|id| sess.log.value.as_ref()?.iter().find(|r| r.id == id));
    if let Some(r) = selected {
        details(cx, ui, r);
    }
}

/// A logged run's failure in the UI's language: its code when the row has one (written since
/// schema v10), else the English message as logged.
fn failure(lang: Lang, r: &JobRecord) -> String {
    match (&r.error_code, &r.error) {
        (Some(c), _) => lang.error_code(c),
        (None, e) => e.clone().unwrap_or_default(),
    }
}

fn details(cx: &mut Cx<'_>, ui: &mut Ui, r: &JobRecord) {
    let lang = cx.lang;
    let mut reopen = false;
    let mut rerun = false;
    ui.add_space(12.0);
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(
                RichText::new(lang.tf("jobs.details", &[&r.id, &r.kind]))
                    .size(17.0)
                    .strong(),
            );
            ui.label(lang.tf(
                "jobs.details_times",
                &[
                    &status_word(lang, &r.status),
                    &r.started_at,
                    &r.ended_at.as_deref().unwrap_or("—"),
                ],
            ));
            ui.label(RichText::new(lang.t("jobs.params")).strong());
            ui.label(
                RichText::new(serde_json::to_string_pretty(&r.params).unwrap_or_default())
                    .monospace(),
            );
            if let Some(v) = &r.result {
                ui.label(RichText::new(lang.t("jobs.result")).strong());
                ui.label(
                    RichText::new(serde_json::to_string_pretty(v).unwrap_or_default()).monospace(),
                );
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
        last_finished_section(cx, ui);
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
