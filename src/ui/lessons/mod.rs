//! The lesson player: a drawer beside the panels that teaches a chapter step by step
//! (`workbench::lessons`, e.g. the caching lesson after [L3421]–[L3444]). It shows the step's
//! text, Back / Next, **Do it** (the step's action: a panel opened through the experiment
//! log's re-open path, a book experiment run as the logged `experiment` job, a job started),
//! the ours-vs-book line of the step's check, a question's answer box, and the progress.
//! A run the student started by hand is noticed in the experiment log. Presenter mode makes
//! the step text large, outlines the step's panel and dims the rest. The Lessons menu
//! ([`menu`]) opens bundled lessons, lesson files and folders, reloads a file when it changes,
//! starts a new lesson from runs ticked in the experiment log, and exports students' answers.
//!
//! ```ignore
//! lessons::menu(app, ui);   // in the top bar
//! lessons::drawer(app, ui); // before the central panel
//! ```

mod markdown;
mod menu;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use egui::{Color32, RichText, Ui};

pub(crate) use menu::menu;

use super::Lang;
use super::app::WorkbenchApp;
use super::panel::Request;
use super::task::Task;
use crate::engine::jobs::{JobHandle, JobRecord, JobState, TypedJob};
use crate::workbench::experiments::{ExperimentJob, ExperimentParams, RunOutcome};
use crate::workbench::lessons::{self, Action, Check, Lesson, StepReport, answers};

/// A lesson file re-read: its modification time and the lesson, or why it does not read.
type Reload = Option<(SystemTime, Result<Lesson, String>)>;
/// Lessons read from a folder: each file with its lesson, or why it does not read.
type Folder = Vec<(PathBuf, Result<Lesson, String>)>;
/// A lesson file read: its path, its modification time and the lesson.
type Opened = Result<(PathBuf, Option<SystemTime>, Lesson), String>;

/// The lesson being played.
pub(crate) struct Playing {
    pub lesson: Lesson,
    /// The file it came from and its modification time (bundled: none).
    pub file: Option<(PathBuf, Option<SystemTime>)>,
    pub step: usize,
    /// Steps whose action was done (by **Do it** or by hand).
    done: Vec<bool>,
    /// Each step's text, as blocks (rebuilt when the language or the lesson changes).
    blocks: Vec<Vec<markdown::Block>>,
    blocks_lang: Option<Lang>,
    /// Experiments' outcomes by id: from our jobs or noticed in the log.
    outcomes: HashMap<String, RunOutcome>,
    /// Each step's check against the outcomes (rebuilt when they change).
    reports: Vec<Option<StepReport>>,
    /// **Do it**'s jobs: (step, handle).
    jobs: Vec<(usize, JobHandle)>,
    /// The log generation last scanned for runs done by hand.
    seen_log: u64,
    /// The answer typed for each question step, and its verdict once submitted.
    answer: HashMap<usize, String>,
    verdict: HashMap<usize, bool>,
    /// Why the file no longer reads (its last good version stays shown).
    reload_error: Option<String>,
}

impl Playing {
    pub fn new(lesson: Lesson, file: Option<(PathBuf, Option<SystemTime>)>) -> Self {
        let n = lesson.steps.len();
        Playing {
            lesson,
            file,
            step: 0,
            done: vec![false; n],
            blocks: Vec::new(),
            blocks_lang: None,
            outcomes: HashMap::new(),
            reports: vec![None; n],
            jobs: Vec::new(),
            seen_log: u64::MAX,
            answer: HashMap::new(),
            verdict: HashMap::new(),
            reload_error: None,
        }
    }

    /// A new version of the file: same position, checks recomputed.
    fn replace(&mut self, lesson: Lesson) {
        let n = lesson.steps.len();
        self.lesson = lesson;
        self.step = self.step.min(n.saturating_sub(1));
        self.done.resize(n, false);
        self.reports = vec![None; n];
        self.blocks_lang = None;
        self.reload_error = None;
        self.recompute();
    }

    /// Each step's check against the outcomes known (on change only).
    fn recompute(&mut self) {
        self.reports = self
            .lesson
            .steps
            .iter()
            .map(|s| {
                let check = s.check.as_ref()?;
                let id = check.experiment()?;
                let out = self.outcomes.get(id)?;
                Some(lessons::step_report(
                    check,
                    out,
                    &self.lesson.source,
                    s.line,
                ))
            })
            .collect();
    }

    fn learn(&mut self, out: RunOutcome) {
        for (i, s) in self.lesson.steps.iter().enumerate() {
            if matches!(&s.action, Some(Action::Experiment { id }) if *id == out.id) {
                self.done[i] = true;
            }
        }
        self.outcomes.insert(out.id.clone(), out);
    }

    /// Outcomes of **Do it**'s jobs that finished.
    fn poll_jobs(&mut self) -> bool {
        let mut changed = false;
        let mut keep = Vec::new();
        for (step, h) in std::mem::take(&mut self.jobs) {
            match h.snapshot().state {
                JobState::Done(v) => {
                    if let Ok(out) = ExperimentJob::decode(&v) {
                        for r in out.runs {
                            self.learn(r);
                        }
                        changed = true;
                    }
                    self.done[step] = true;
                }
                s if s.is_finished() => {}
                _ => keep.push((step, h)),
            }
        }
        self.jobs = keep;
        changed
    }

    /// Experiments the student ran by hand, found in the log (newest first).
    fn notice(&mut self, log: &[JobRecord]) -> bool {
        let wanted: Vec<&'static str> = self
            .lesson
            .steps
            .iter()
            .filter_map(|s| s.check.as_ref().and_then(Check::experiment))
            .collect();
        let mut changed = false;
        for r in log.iter().filter(|r| r.kind == ExperimentJob::KIND) {
            let Some(out) = r
                .result
                .as_ref()
                .and_then(|v| ExperimentJob::decode(v).ok())
            else {
                continue;
            };
            for run in out.runs {
                if wanted.contains(&run.id.as_str()) && !self.outcomes.contains_key(&run.id) {
                    self.learn(run);
                    changed = true;
                }
            }
        }
        changed
    }

    fn running(&self, step: usize) -> bool {
        self.jobs.iter().any(|(s, _)| *s == step)
    }
}

/// The player's state, kept by the app.
#[derive(Default)]
pub(crate) struct Lessons {
    pub playing: Option<Playing>,
    pub presenter: bool,
    /// Lessons read from a folder: (file, lesson or why not).
    pub folder: Folder,
    folder_task: Option<Task<Folder>>,
    /// A lesson file being read (opened from the menu).
    file_task: Option<Task<Opened>>,
    /// A file dialog: (what for, chosen path).
    dialog: Option<(menu::Pick, Task<Option<PathBuf>>)>,
    /// The played file's change check, at most once a second.
    reload: Option<Task<Reload>>,
    last_reload: Option<Instant>,
    /// Saving an answer, or loading every answer for the CSV export.
    saving: Option<Task<Result<(), String>>>,
    answers: Option<Task<Result<Vec<answers::Answer>, String>>>,
    pub answers_loaded: Option<Vec<answers::Answer>>,
    pub student: String,
    pub status: Option<(bool, String)>,
}

impl Lessons {
    pub fn play(&mut self, lesson: Lesson, file: Option<(PathBuf, Option<SystemTime>)>) {
        self.playing = Some(Playing::new(lesson, file));
    }
}

/// The panel region the current step points at, in presenter mode.
pub(crate) fn highlighted_panel(app: &WorkbenchApp) -> Option<&'static str> {
    let l = &app.lessons;
    let p = l.playing.as_ref().filter(|_| l.presenter)?;
    p.lesson.steps.get(p.step)?.action.as_ref()?.panel()
}

/// Poll background work: jobs, the log, the file, answers.
fn poll(app: &mut WorkbenchApp, ctx: &egui::Context) {
    menu::poll(app, ctx);
    let lang = app.prefs.lang;
    let log = app
        .session
        .as_ref()
        .map(|s| (&s.log.value, s.log.generation()));
    let shown = app.prefs.panel.clone();
    let l = &mut app.lessons;
    if let Some(r) = Task::take_result(&mut l.saving) {
        l.status = Some(match r {
            Ok(()) => (false, lang.t("lesson.answer_saved").to_string()),
            Err(e) => (true, e),
        });
        l.answers_loaded = None;
    }
    if let Some(r) = Task::take_result(&mut l.answers) {
        match r {
            Ok(a) => l.answers_loaded = Some(a),
            Err(e) => l.status = Some((true, e)),
        }
    }
    let Some(p) = &mut l.playing else { return };
    let mut changed = p.poll_jobs();
    if let Some((Some(records), generation)) = log
        && generation != p.seen_log
    {
        p.seen_log = generation;
        changed |= p.notice(records);
    }
    // A panel opened by hand counts as the step's "open" done.
    for (i, s) in p.lesson.steps.iter().enumerate() {
        if let Some(Action::Open {
            panel,
            reopen: None,
        }) = &s.action
            && i == p.step
            && *panel == shown
        {
            p.done[i] = true;
        }
    }
    if changed {
        p.recompute();
    }
    if let Some(Ok(Some((mtime, lesson)))) = Task::take_finished(&mut l.reload) {
        match lesson {
            Ok(lesson) => {
                if let Some((_, m)) = &mut p.file {
                    *m = Some(mtime);
                }
                p.replace(lesson);
            }
            Err(e) => {
                if let Some((_, m)) = &mut p.file {
                    *m = Some(mtime);
                }
                p.reload_error = Some(e);
            }
        }
    }
    // The file's modification time, looked at off the UI thread at most once a second.
    if let Some((path, known)) = p.file.clone()
        && l.reload.is_none()
        && l.last_reload
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(1))
    {
        l.last_reload = Some(Instant::now());
        l.reload = Some(Task::spawn(ctx, move || {
            let m = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
            if Some(m) == known {
                return None;
            }
            Some((m, lessons::read_file(&path).map_err(|e| lang.error(&e))))
        }));
        ctx.request_repaint_after(Duration::from_secs(1));
    }
    if !p.jobs.is_empty() {
        ctx.request_repaint_after(Duration::from_millis(250));
    }
}

/// Carry out the step's action.
fn do_it(app: &mut WorkbenchApp, step: usize) {
    let Some(p) = &app.lessons.playing else {
        return;
    };
    let Some(action) = p.lesson.steps.get(step).and_then(|s| s.action.clone()) else {
        return;
    };
    match action {
        Action::Open { panel, reopen } => {
            match reopen {
                Some((kind, params)) => {
                    app.handle_request(Request::Reopen {
                        kind: kind.to_string(),
                        id: 0,
                        params,
                    });
                    // Not a logged run: say what was opened, not "run #0".
                    if app
                        .status
                        .as_ref()
                        .is_some_and(|s| s.key == "status.reopened")
                    {
                        let label = match crate::workbench::panel(panel) {
                            Some(p) => super::app::StatusArg::Key(p.label),
                            None => panel.to_string().into(),
                        };
                        app.set_status("lesson.opened", vec![label], false);
                    }
                }
                None => app.handle_request(Request::Goto(panel)),
            }
            if let Some(p) = &mut app.lessons.playing {
                p.done[step] = true;
            }
        }
        Action::Experiment { id } => {
            if let Some(panel) = crate::workbench::experiments::find(id).map(|e| e.panel) {
                app.handle_request(Request::Goto(panel));
            }
            let data = match crate::engine::data::DataDir::resolve(None) {
                Ok(d) => d,
                Err(e) => {
                    app.lessons.status = Some((true, app.prefs.lang.error(&e)));
                    return;
                }
            };
            let job = ExperimentJob::from_params(ExperimentParams {
                ids: vec![id.to_string()],
                data_dir: data.root().to_path_buf(),
            });
            start(
                app,
                step,
                job.map(|j| Box::new(j) as Box<dyn crate::engine::jobs::Job>),
            );
        }
        Action::Job { kind, params } => {
            if let Some(panel) = crate::workbench::owner_of(kind) {
                app.handle_request(Request::Goto(panel.id));
            }
            let job = crate::workbench::find(kind)
                .ok_or_else(|| crate::engine::error::EngineError::invalid("run", kind))
                .and_then(|k| (k.rebuild)(&params));
            start(app, step, job);
        }
    }
}

fn start(
    app: &mut WorkbenchApp,
    step: usize,
    job: crate::engine::error::Result<Box<dyn crate::engine::jobs::Job>>,
) {
    match job {
        Ok(job) => {
            let Some(s) = &app.session else {
                app.lessons.status = Some((true, app.prefs.lang.t("ws.none").to_string()));
                return;
            };
            let h = s.runner.spawn(job);
            app.running.push(h.clone());
            if let Some(p) = &mut app.lessons.playing {
                p.jobs.push((step, h));
            }
        }
        Err(e) => app.lessons.status = Some((true, app.prefs.lang.error(&e))),
    }
}

fn show_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "—".into(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
            Some(x) => format!("{x:.4}"),
            None => n.to_string(),
        },
        serde_json::Value::Array(a) if a.len() == 2 => {
            format!("{} – {}", show_value(&a[0]), show_value(&a[1]))
        }
        other => other.to_string(),
    }
}

/// The ours-vs-book line of a step.
fn check_line(ui: &mut Ui, lang: Lang, report: Option<&StepReport>, size: f32) {
    let Some(r) = report else {
        ui.label(RichText::new(lang.t("lesson.not_yet")).size(size).weak());
        return;
    };
    if let Some(e) = &r.error {
        ui.colored_label(ui.visuals().error_fg_color, RichText::new(e).size(size));
        return;
    }
    let (mark, colour) = if r.ok {
        ("√", Color32::from_rgb(0x2e, 0x8b, 0x57))
    } else {
        ("×", ui.visuals().error_fg_color)
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(lang.tf(
                "lesson.ours_book",
                &[&show_value(&r.ours), &show_value(&r.book)],
            ))
            .size(size)
            .strong(),
        );
        ui.label(RichText::new(mark).size(size).color(colour));
    });
}

/// The answer box of a question step.
fn question(app: &mut WorkbenchApp, ui: &mut Ui, step: usize, check: &Check, size: f32) {
    let lang = app.prefs.lang;
    let ws = app.session.as_ref().map(|s| s.path.clone());
    let l = &mut app.lessons;
    let Some(p) = &mut l.playing else { return };
    if let Check::Question { min, max, unit, .. } = check {
        ui.label(RichText::new(lang.t("lesson.question")).size(size).strong());
        ui.horizontal_wrapped(|ui| {
            let name = ui.label(lang.t("lesson.student"));
            ui.add(egui::TextEdit::singleline(&mut l.student).desired_width(120.0))
                .labelled_by(name.id);
            let label = ui.label(lang.t("lesson.answer"));
            let text = p.answer.entry(step).or_default();
            ui.add(egui::TextEdit::singleline(text).desired_width(80.0))
                .labelled_by(label.id);
            if !unit.is_empty() {
                ui.label(unit.as_str());
            }
            if ui.button(lang.t("lesson.submit")).clicked() {
                match text.trim().parse::<f64>() {
                    Ok(x) => {
                        let ok = check.accepts(x).unwrap_or(false);
                        p.verdict.insert(step, ok);
                        l.status = None;
                        if let Some(ws) = ws.clone() {
                            let (id, student, answer) =
                                (p.lesson.id.clone(), l.student.clone(), text.clone());
                            l.saving = Some(Task::spawn(ui.ctx(), move || {
                                let w = crate::engine::store::Workspace::open_existing(&ws)
                                    .map_err(|e| lang.error(&e))?;
                                answers::record(&w, &id, step + 1, &student, &answer, ok)
                                    .map_err(|e| lang.error(&e))
                            }));
                        }
                    }
                    Err(_) => l.status = Some((true, lang.t("lesson.not_a_number").to_string())),
                }
            }
        });
        if let Some(ok) = p.verdict.get(&step) {
            let range = format!(
                "{} – {}",
                show_value(&serde_json::json!(min)),
                show_value(&serde_json::json!(max))
            );
            let key = if *ok { "lesson.right" } else { "lesson.wrong" };
            ui.label(RichText::new(lang.tf(key, &[&range])).size(size));
        }
    }
}

/// The drawer: nothing when no lesson plays.
/// Returns the drawer's rectangle when it is shown.
pub(crate) fn drawer(app: &mut WorkbenchApp, ui: &mut Ui) -> Option<egui::Rect> {
    let ctx = ui.ctx().clone();
    poll(app, &ctx);
    app.lessons.playing.as_ref()?;
    let lang = app.prefs.lang;
    let presenter = app.lessons.presenter;
    let size = if presenter { 22.0 } else { 15.0 };
    // At most 45 % of the window, so the step's panel stays in view at 200 % zoom.
    let room = ui.available_width();
    let width = if presenter {
        room * 0.45
    } else {
        380.0f32.min(room * 0.4)
    };
    let shown = egui::Panel::right("lesson_player")
        .resizable(false)
        .exact_size(width)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| body(app, ui, lang, size));
        });
    Some(shown.response.rect)
}

fn body(app: &mut WorkbenchApp, ui: &mut Ui, lang: Lang, size: f32) {
    let en = lang == Lang::En;
    let mut close = false;
    let mut go: Option<usize> = None;
    let mut doit = None;
    {
        let l = &mut app.lessons;
        let Some(p) = &mut l.playing else { return };
        if p.blocks_lang != Some(lang) {
            p.blocks = p
                .lesson
                .steps
                .iter()
                .map(|s| markdown::blocks(s.text.get(en)))
                .collect();
            p.blocks_lang = Some(lang);
        }
        // Every row wraps: at 200 % the drawer is about 220 points wide, and a row wider than
        // the drawer pushed it past the window's edge, under the step's panel.
        ui.horizontal_wrapped(|ui| {
            ui.toggle_value(&mut l.presenter, lang.t("lesson.presenter"));
            if ui.button(lang.t("lesson.close")).clicked() {
                close = true;
            }
        });
        ui.label(
            RichText::new(p.lesson.title.get(en))
                .size(size * 1.15)
                .strong(),
        );
        ui.label(
            RichText::new(lang.tf("lesson.chapter", &[&p.lesson.chapter, &p.lesson.book])).weak(),
        );
        if let Some(e) = &p.reload_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let n = p.lesson.steps.len();
        let done = p.done.iter().filter(|d| **d).count();
        ui.add(
            egui::ProgressBar::new((p.step + 1) as f32 / n.max(1) as f32)
                .text(lang.tf("lesson.progress", &[&(p.step + 1), &n, &done])),
        );
        // A presentation clicker sends Page Down and Page Up: the next and the previous step,
        // unless a text field has the keyboard (an answer being typed).
        let (key_next, key_back) = if ui.ctx().egui_wants_keyboard_input() {
            (false, false)
        } else {
            ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::PageDown),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::PageUp),
                )
            })
        };
        ui.horizontal_wrapped(|ui| {
            let back = ui
                .add_enabled(p.step > 0, egui::Button::new(lang.t("lesson.back")))
                .on_hover_text(lang.t("lesson.key_back"));
            if (back.clicked() || key_back) && p.step > 0 {
                go = Some(p.step - 1);
            }
            let next = ui
                .add_enabled(p.step + 1 < n, egui::Button::new(lang.t("lesson.next")))
                .on_hover_text(lang.t("lesson.key_next"));
            if (next.clicked() || key_next) && p.step + 1 < n {
                go = Some(p.step + 1);
            }
            let step = &p.lesson.steps[p.step];
            if step.action.is_some() {
                let busy = p.running(p.step);
                if ui
                    .add_enabled(
                        !busy,
                        egui::Button::new(RichText::new(lang.t("lesson.do_it")).strong()),
                    )
                    .clicked()
                {
                    doit = Some(p.step);
                }
                if busy {
                    ui.spinner();
                } else if p.done[p.step] {
                    ui.label(lang.t("lesson.done"));
                }
            }
        });
        ui.separator();
        markdown::show(ui, &p.blocks[p.step], size);
        let step = &p.lesson.steps[p.step];
        if let Some(f) = step.focus.as_ref().map(|f| f.get(en)) {
            ui.label(
                RichText::new(lang.tf("lesson.focus", &[&f]))
                    .size(size * 0.85)
                    .italics(),
            );
        }
        if step.check.as_ref().and_then(Check::experiment).is_some() {
            ui.separator();
            check_line(ui, lang, p.reports[p.step].as_ref(), size);
        }
    }
    let check = app
        .lessons
        .playing
        .as_ref()
        .and_then(|p| p.lesson.steps[p.step].check.clone());
    if let Some(c @ Check::Question { .. }) = &check {
        ui.separator();
        let step = app.lessons.playing.as_ref().map_or(0, |p| p.step);
        question(app, ui, step, c, size);
    }
    if let Some((err, s)) = &app.lessons.status {
        if *err {
            ui.colored_label(ui.visuals().error_fg_color, s);
        } else {
            ui.label(s);
        }
    }
    ui.separator();
    menu::answers_section(app, ui);
    if let Some(s) = go
        && let Some(p) = &mut app.lessons.playing
    {
        p.step = s;
    }
    if let Some(s) = doit {
        do_it(app, s);
    }
    if close {
        app.lessons.playing = None;
        app.lessons.presenter = false;
    }
}

/// Presenter mode (the navigation left out): the step's panel outlined, any other panel
/// dimmed.
pub(crate) fn presenter_overlay(
    app: &WorkbenchApp,
    ctx: &egui::Context,
    nav: Option<egui::Rect>,
    drawer: Option<egui::Rect>,
    central: egui::Rect,
) {
    // A panel wider than its room spills under the drawer: outline only what is in view.
    let mut central = central;
    if let Some(d) = drawer {
        central.max.x = central.max.x.min(d.min.x);
    }
    if !app.lessons.presenter || app.lessons.playing.is_none() {
        return;
    }
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::NULL.with("lesson_presenter"),
    ));
    let dim = if app.prefs.dark {
        Color32::from_black_alpha(140)
    } else {
        Color32::from_white_alpha(150)
    };
    if let Some(nav) = nav {
        painter.rect_filled(nav, 0.0, dim);
    }
    if highlighted_panel(app) == Some(app.prefs.panel.as_str()) {
        painter.rect_stroke(
            central.shrink(2.0),
            6.0,
            egui::Stroke::new(4.0, Color32::from_rgb(0xe0, 0x8a, 0x00)),
            egui::StrokeKind::Inside,
        );
    } else {
        painter.rect_filled(central, 0.0, dim);
    }
}
