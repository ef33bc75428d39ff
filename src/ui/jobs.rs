//! Jobs: what is running, and what did every past run do? Starts jobs, shows their live progress
//! (fraction, counters, ETA) with cancel, and lists the experiment log — filterable, with each
//! run's parameters and result — from which a past run's parameters can be re-opened.

use egui::{RichText, Ui};

use super::{Lang, WorkbenchApp};
use crate::engine::calibrate::{Calibrate, CalibrateParams, MAX_SECONDS, MIN_SECONDS};
use crate::engine::jobs::{JobRecord, JobSnapshot, JobState, STATUSES};

/// At most this many log rows are drawn (the filter narrows the rest).
const MAX_ROWS: usize = 300;

#[derive(Default)]
pub(crate) struct JobsPanel {
    pub calibrate: CalibrateParams,
    pub filter_text: String,
    pub status_filter: Option<String>,
    pub kind_filter: Option<String>,
    pub selected: Option<i64>,
    pub last_finished: Option<JobSnapshot>,
    pub form_note: Option<(String, bool)>,
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

fn matches(r: &JobRecord, p: &JobsPanel) -> bool {
    if p.status_filter.as_ref().is_some_and(|s| s != &r.status) {
        return false;
    }
    if p.kind_filter.as_ref().is_some_and(|k| k != &r.kind) {
        return false;
    }
    let q = p.filter_text.trim().to_lowercase();
    q.is_empty()
        || r.kind.to_lowercase().contains(&q)
        || r.params.to_string().to_lowercase().contains(&q)
        || r.result
            .as_ref()
            .is_some_and(|v| v.to_string().to_lowercase().contains(&q))
        || r.error
            .as_ref()
            .is_some_and(|e| e.to_lowercase().contains(&q))
        || format!("#{}", r.id) == q
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

fn new_job_section(app: &mut WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    ui.label(RichText::new(lang.t("jobs.new")).size(18.0).strong());
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("jobs.calibrate_title")).strong());
            ui.label(lang.t("jobs.calibrate_desc"));
            ui.horizontal(|ui| {
                ui.label(lang.t("jobs.seconds"));
                ui.add(
                    egui::DragValue::new(&mut app.jobs_ui.calibrate.seconds)
                        .range(MIN_SECONDS..=MAX_SECONDS)
                        .speed(0.25)
                        .suffix(" s"),
                );
                let can_run = app.session.is_some();
                if ui
                    .add_enabled(can_run, egui::Button::new(lang.t("jobs.run_calibrate")))
                    .clicked()
                {
                    match Calibrate::new(app.jobs_ui.calibrate.clone()) {
                        Ok(job) => {
                            app.jobs_ui.form_note = None;
                            app.start_job(Box::new(job));
                        }
                        Err(e) => app.jobs_ui.form_note = Some((e.to_string(), true)),
                    }
                }
            });
            if let Some((note, err)) = &app.jobs_ui.form_note {
                if *err {
                    ui.colored_label(ui.visuals().error_fg_color, note);
                } else {
                    ui.label(RichText::new(note).italics());
                }
            }
        });
}

fn running_section(app: &mut WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    if app.running.is_empty() {
        return;
    }
    ui.add_space(10.0);
    ui.label(RichText::new(lang.t("jobs.running")).size(18.0).strong());
    let mut cancel = None;
    for (i, h) in app.running.iter().enumerate() {
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
                        .text(super::shell::progress_text(app, &s))
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
        app.running[i].cancel();
    }
}

fn last_finished_section(app: &WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    let Some(s) = &app.jobs_ui.last_finished else {
        return;
    };
    ui.add_space(10.0);
    let (word, detail) = match &s.state {
        JobState::Done(v) => (lang.t("jobstatus.done"), compact_json(v, 400)),
        JobState::Cancelled => (lang.t("jobstatus.cancelled"), String::new()),
        JobState::Failed { message, .. } => (lang.t("jobstatus.failed"), message.clone()),
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

fn log_section(app: &mut WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    ui.add_space(14.0);
    ui.label(RichText::new(lang.t("jobs.log")).size(18.0).strong());
    ui.label(RichText::new(lang.t("jobs.log_desc")).weak());
    let Some(sess) = &mut app.session else {
        return;
    };
    let rows: Vec<JobRecord> = sess.log.value.clone().unwrap_or_default();
    let mut kinds: Vec<String> = rows.iter().map(|r| r.kind.clone()).collect();
    kinds.sort();
    kinds.dedup();
    let p = &mut app.jobs_ui;
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
                for k in &kinds {
                    ui.selectable_value(&mut p.kind_filter, Some(k.clone()), k);
                }
            });
        if ui.button(lang.t("jobs.refresh")).clicked() {
            sess.invalidate();
        }
        if sess.log.is_loading() {
            ui.spinner();
        }
    });
    if let Some(e) = &sess.log.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }

    let shown: Vec<&JobRecord> = rows.iter().filter(|r| matches(r, p)).collect();
    ui.label(RichText::new(lang.tf("jobs.count", &[&shown.len(), &rows.len()])).weak());
    if rows.is_empty() {
        ui.label(RichText::new(lang.t("jobs.empty")).italics());
        return;
    }
    egui::Grid::new("job_log")
        .striped(true)
        .num_columns(7)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
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
            for r in shown.iter().take(MAX_ROWS) {
                let sel = p.selected == Some(r.id);
                if ui.selectable_label(sel, format!("#{}", r.id)).clicked() {
                    p.selected = if sel { None } else { Some(r.id) };
                }
                ui.label(&r.kind);
                ui.colored_label(status_color(ui, &r.status), status_word(lang, &r.status));
                ui.label(
                    r.started_at
                        .replace('T', " ")
                        .trim_end_matches('Z')
                        .to_string(),
                );
                ui.label(r.duration_s.map_or("—".into(), |d| format!("{d:.1} s")));
                ui.label(RichText::new(compact_json(&r.params, 60)).monospace());
                let res = match (&r.result, &r.error) {
                    (Some(v), _) => compact_json(v, 70),
                    (None, Some(e)) => compact_json(&serde_json::Value::String(e.clone()), 70),
                    _ => String::new(),
                };
                ui.label(RichText::new(res).monospace());
                ui.end_row();
            }
        });
    let selected = p
        .selected
        .and_then(|id| rows.iter().find(|r| r.id == id))
        .cloned();
    if let Some(r) = selected {
        details(app, ui, &r);
    }
}

fn details(app: &mut WorkbenchApp, ui: &mut Ui, r: &JobRecord) {
    let lang = app.prefs.lang;
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
            if let Some(e) = &r.error {
                ui.label(RichText::new(lang.t("jobs.error")).strong());
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            let reopenable = r.kind == "calibrate";
            if ui
                .add_enabled(reopenable, egui::Button::new(lang.t("jobs.reopen")))
                .on_disabled_hover_text(lang.t("jobs.reopen_unavailable"))
                .clicked()
            {
                match Calibrate::params_from_json(&r.params) {
                    Ok(params) => {
                        app.jobs_ui.calibrate = params;
                        app.jobs_ui.form_note = Some((lang.tf("jobs.reopened", &[&r.id]), false));
                    }
                    Err(e) => app.jobs_ui.form_note = Some((e.to_string(), true)),
                }
            }
        });
}

pub(crate) fn show(app: &mut WorkbenchApp, ui: &mut Ui) {
    ui.heading(app.t("jobs.heading"));
    ui.add_space(6.0);
    new_job_section(app, ui);
    running_section(app, ui);
    last_finished_section(app, ui);
    log_section(app, ui);
}
