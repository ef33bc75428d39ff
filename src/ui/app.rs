//! The app: `WorkbenchApp` holds the preferences, the open workspace (`Session`, with one
//! shared background `Reader` connection), the running jobs and the panels; it polls background
//! work, draws the shown panel and carries out what the panel asked for. The UI thread never
//! waits on I/O, SQL or an algorithm: workspace reads run as background [`Task`]s and long work
//! as engine jobs; both wake the UI with `request_repaint`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::task::{Loaded, Task};
use super::{Lang, fonts, panel, shell};
use crate::engine::jobs::{JobHandle, JobRecord, JobRunner, JobState};
use crate::engine::store::{Workspace, WorkspaceSummary};
use crate::workbench;

/// What persists between runs (window size is kept by eframe itself).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Prefs {
    pub lang: Lang,
    pub dark: bool,
    /// 1.0–2.5 (100–250 %).
    pub zoom: f32,
    /// The shown panel's id ([`workbench::Panel::id`]).
    pub panel: String,
    pub recent: Vec<PathBuf>,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            lang: Lang::Zh,
            dark: false,
            zoom: 1.0,
            panel: "Overview".into(),
            recent: Vec::new(),
        }
    }
}

pub const ZOOM_MIN: f32 = 1.0;
pub const ZOOM_MAX: f32 = 2.5;
pub const ZOOM_STEP: f32 = 0.25;
const PREFS_KEY: &str = "tianwang.prefs";
const RECENT_MAX: usize = 8;

/// How the app starts.
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    /// The workspace to open; `None` opens (and on first start creates) the default one.
    pub workspace: Option<PathBuf>,
    /// Look for a full system CJK font (off in tests, for pixel-exact snapshots).
    pub system_fonts: bool,
    /// Load the sample web into the workspace if opening creates it (the default workspace on
    /// first start).
    pub sample_if_new: bool,
    /// Write exported tables and plots into this folder without asking (tests, classes).
    pub export_dir: Option<PathBuf>,
    /// The data folder (`tianwang --data DIR`); `None`: `$TIANWANG_DATA`, else the user's
    /// data folder ([`crate::engine::data::resolve`]).
    pub data_dir: Option<PathBuf>,
}

/// A status-bar message: a string-table key and its arguments, so it follows the language.
#[derive(Debug, Clone)]
pub(crate) struct Status {
    pub key: &'static str,
    pub args: Vec<StatusArg>,
    pub error: bool,
}

/// An argument of a status message, said in the language of the frame that draws it (a job
/// that finished while the UI was in Chinese reads "Finished: Cache simulation" once switched
/// to English, not "Finished: 缓存模拟").
#[derive(Debug, Clone)]
pub(crate) enum StatusArg {
    /// Said as it is (a path, a number, a message already in words).
    Text(String),
    /// A job kind (`jobkind.KIND` in the string table).
    JobKind(String),
    /// An engine error, by its code.
    Error(crate::engine::error::ErrorCode),
    /// A string-table key (a panel's name).
    Key(&'static str),
}

impl From<String> for StatusArg {
    fn from(s: String) -> Self {
        StatusArg::Text(s)
    }
}

impl StatusArg {
    fn text(&self, lang: Lang) -> String {
        match self {
            StatusArg::Text(s) => s.clone(),
            StatusArg::JobKind(k) => lang.job_kind(k),
            StatusArg::Error(c) => lang.error_code(c),
            StatusArg::Key(k) => lang.t(k).to_string(),
        }
    }
}

impl Status {
    pub fn text(&self, lang: Lang) -> String {
        let args: Vec<String> = self.args.iter().map(|a| a.text(lang)).collect();
        let args: Vec<&dyn std::fmt::Display> =
            args.iter().map(|a| a as &dyn std::fmt::Display).collect();
        lang.tf(self.key, &args)
    }
}

/// The open workspace and what has been loaded from it.
pub(crate) struct Session {
    pub path: PathBuf,
    pub runner: JobRunner,
    pub summary: Loaded<WorkspaceSummary>,
    pub log: Loaded<Vec<JobRecord>>,
    /// One connection for the background refreshes, opened (and migrated) once: a crawl
    /// refreshes every second, and reopening the file each time re-ran the opening checks.
    pub(crate) reader: Reader,
}

/// A workspace connection shared by background reads, opened on first use off the UI thread.
#[derive(Clone)]
pub(crate) struct Reader {
    path: PathBuf,
    conn: Arc<std::sync::Mutex<Option<Workspace>>>,
}

impl Reader {
    fn new(path: PathBuf) -> Self {
        Reader {
            path,
            conn: Arc::default(),
        }
    }

    /// Run `f` on the shared connection (never call on the UI thread: it may open the file
    /// and waits for other reads); an error is said in `lang`. A failed read drops the
    /// connection so the next one reopens.
    pub fn read<T>(
        &self,
        lang: Lang,
        f: impl FnOnce(&Workspace) -> crate::engine::error::Result<T>,
    ) -> Result<T, String> {
        let mut g = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        if g.is_none() {
            *g = Some(Workspace::open_existing(&self.path).map_err(|e| lang.error(&e))?);
        }
        let Some(ws) = g.as_ref() else {
            return Err(lang.t("ws.none").into());
        };
        let r = f(ws).map_err(|e| lang.error(&e));
        if r.is_err() {
            *g = None;
        }
        r
    }

    /// Is a connection open (tests)?
    #[cfg(test)]
    fn is_open(&self) -> bool {
        self.conn.lock().map(|g| g.is_some()).unwrap_or(false)
    }
}

impl Session {
    fn new(path: PathBuf, ctx: &egui::Context) -> Self {
        let repaint = ctx.clone();
        Session {
            runner: JobRunner::new(path.clone(), Arc::new(move || repaint.request_repaint())),
            reader: Reader::new(path.clone()),
            path,
            summary: Loaded::default(),
            log: Loaded::default(),
        }
    }

    pub fn invalidate(&mut self) {
        self.summary.invalidate();
        self.log.invalidate();
    }
}

/// What a finished file action asks for.
pub(crate) enum FileAction {
    New,
    Open,
    SaveAs,
}

/// Opening a workspace in the background: `(path, newly created)` or the error.
pub(crate) type OpenTask = Task<Result<(PathBuf, bool), String>>;

/// Tianwang Workbench.
pub struct WorkbenchApp {
    pub(crate) prefs: Prefs,
    pub(crate) session: Option<Session>,
    /// A workspace being opened: its path, and (path, newly created) when done.
    pub(crate) opening: Option<(PathBuf, OpenTask)>,
    /// Load the sample web into the default workspace when it is first created.
    pub(crate) load_sample_on_create: bool,
    pub(crate) saving: Option<Task<Result<PathBuf, String>>>,
    pub(crate) dialog: Option<(FileAction, Task<Option<PathBuf>>)>,
    pub(crate) path_prompt: Option<(FileAction, String)>,
    pub(crate) running: Vec<JobHandle>,
    /// Finished jobs whose log row is still being written: the log is re-read when it is.
    pub(crate) finishing: Vec<JobHandle>,
    pub(crate) status: Option<Status>,
    pub(crate) error_modal: Option<String>,
    /// Every panel of the composition root ([`workbench::PANELS`]), in navigation order, with
    /// its drawing code ([`super::panel_for`]).
    pub(crate) panels: Vec<(&'static workbench::Panel, Box<dyn panel::LabPanel>)>,
    pub(crate) hub: panel::Hub,
    pub(crate) font_task: Option<Task<Option<fonts::SystemCjkFont>>>,
    pub(crate) system_font: Option<PathBuf>,
    /// The lesson player's state, and the lessons inside the binary (read once at start).
    pub(crate) lessons: super::lessons::Lessons,
    pub(crate) bundled_lessons: Vec<crate::workbench::lessons::Lesson>,
    ctx: egui::Context,
}

impl WorkbenchApp {
    /// Build the app. Fonts, style and preferences are set here; the workspace opens in the
    /// background.
    pub fn new(cc: &eframe::CreationContext<'_>, options: AppOptions) -> Self {
        let ctx = cc.egui_ctx.clone();
        fonts::install_bundled(&ctx);
        let prefs: Prefs = cc
            .storage
            .and_then(|s| eframe::get_value(s, PREFS_KEY))
            .unwrap_or_default();
        let font_task = options
            .system_fonts
            .then(|| Task::spawn(&ctx, fonts::find_system_cjk));
        let mut app = WorkbenchApp {
            prefs,
            session: None,
            opening: None,
            saving: None,
            dialog: None,
            path_prompt: None,
            running: Vec::new(),
            finishing: Vec::new(),
            status: None,
            error_modal: None,
            panels: super::panels(),
            hub: panel::Hub::default(),
            load_sample_on_create: options.sample_if_new,
            font_task,
            system_font: None,
            lessons: Default::default(),
            bundled_lessons: crate::workbench::lessons::bundled().unwrap_or_else(|e| {
                tracing::error!("bundled lessons: {e}");
                Vec::new()
            }),
            ctx: ctx.clone(),
        };
        app.hub.exports.folder = options.export_dir;
        // The data folder is resolved here, once, and handed to the panels.
        match crate::engine::data::DataDir::resolve(options.data_dir.as_deref()) {
            Ok(d) => {
                for (_, p) in &mut app.panels {
                    p.set_data_dir(&d);
                }
                app.hub.data = Some(d);
            }
            Err(e) => app.error_modal = Some(app.prefs.lang.error(&e)),
        }
        if workbench::panel(&app.prefs.panel).is_none() {
            app.prefs.panel = "Overview".into();
        }
        app.apply_style();
        let lang = app.prefs.lang;
        let target = match options.workspace {
            Some(p) => Ok(p),
            None => crate::engine::store::default_workspace_path()
                .and_then(|p| {
                    if let Some(dir) = p.parent() {
                        std::fs::create_dir_all(dir)
                            .map_err(|e| crate::engine::error::EngineError::path_os(dir, e))?;
                    }
                    Ok(p)
                })
                .map_err(|e| lang.error(&e)),
        };
        match target {
            Ok(p) => app.open_workspace(p),
            Err(e) => app.error_modal = Some(e),
        }
        app
    }

    pub(crate) fn t(&self, key: &'static str) -> &'static str {
        self.prefs.lang.t(key)
    }

    pub(crate) fn apply_style(&self) {
        let ctx = &self.ctx;
        ctx.set_theme(if self.prefs.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
        ctx.set_zoom_factor(self.prefs.zoom.clamp(ZOOM_MIN, ZOOM_MAX));
        ctx.all_styles_mut(|s| {
            use egui::{FontFamily, FontId, TextStyle};
            s.text_styles = [
                (
                    TextStyle::Small,
                    FontId::new(12.0, FontFamily::Proportional),
                ),
                (TextStyle::Body, FontId::new(15.0, FontFamily::Proportional)),
                (
                    TextStyle::Button,
                    FontId::new(15.0, FontFamily::Proportional),
                ),
                (
                    TextStyle::Heading,
                    FontId::new(22.0, FontFamily::Proportional),
                ),
                (
                    TextStyle::Monospace,
                    FontId::new(13.5, FontFamily::Monospace),
                ),
            ]
            .into();
            s.spacing.item_spacing = egui::vec2(8.0, 6.0);
        });
    }

    pub(crate) fn set_zoom(&mut self, zoom: f32) {
        self.prefs.zoom = ((zoom / ZOOM_STEP).round() * ZOOM_STEP).clamp(ZOOM_MIN, ZOOM_MAX);
        self.ctx.set_zoom_factor(self.prefs.zoom);
    }

    /// Open (or create) a workspace in the background; the current one stays until it succeeds.
    pub fn open_workspace(&mut self, path: PathBuf) {
        let p = path.clone();
        let lang = self.prefs.lang;
        self.opening = Some((
            path,
            Task::spawn(&self.ctx, move || {
                let existed = p.exists();
                Workspace::open_or_create(&p)
                    .map(|_| (p, !existed))
                    .map_err(|e| lang.error(&e))
            }),
        ));
    }

    /// Create a new workspace at `path` in the background and switch to it.
    pub(crate) fn create_workspace(&mut self, path: PathBuf) {
        let p = path.clone();
        let lang = self.prefs.lang;
        self.opening = Some((
            path,
            Task::spawn(&self.ctx, move || {
                Workspace::create(&p)
                    .map(|_| (p, true))
                    .map_err(|e| lang.error(&e))
            }),
        ));
    }

    /// Copy the open workspace to `dest` in the background, then switch to the copy.
    pub(crate) fn save_workspace_as(&mut self, dest: PathBuf) {
        let Some(s) = &self.session else { return };
        let src = s.path.clone();
        let lang = self.prefs.lang;
        self.saving = Some(Task::spawn(&self.ctx, move || {
            let ws = Workspace::open_existing(&src).map_err(|e| lang.error(&e))?;
            ws.save_as(&dest, |_, _| true).map_err(|e| lang.error(&e))?;
            Ok(dest)
        }));
        self.set_status("status.saving", vec![], false);
    }

    pub(crate) fn set_status(&mut self, key: &'static str, args: Vec<StatusArg>, error: bool) {
        self.status = Some(Status { key, args, error });
    }

    /// Start a job on the open workspace.
    pub(crate) fn start_job(&mut self, job: Box<dyn crate::engine::jobs::Job>) {
        if let Some(s) = &self.session {
            let h = s.runner.spawn(job);
            self.running.push(h);
        }
    }

    /// The handles of jobs still running (for tests and the top bar).
    pub fn running_jobs(&self) -> &[JobHandle] {
        &self.running
    }

    /// The open workspace's path, once opened.
    pub fn workspace_path(&self) -> Option<&Path> {
        self.session.as_ref().map(|s| s.path.as_path())
    }

    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// Poll background work: opened workspaces, finished jobs, reloads.
    fn poll(&mut self) {
        if let Some(r) = Task::take_finished(&mut self.font_task) {
            let found = r.ok().flatten();
            fonts::install_with_system(&self.ctx, found.as_ref());
            self.system_font = found.map(|f| f.path);
        }
        if let Some((path, r)) = Task::take_keyed(&mut self.opening) {
            match r.and_then(|x| x) {
                Ok((p, created)) => {
                    self.session = Some(Session::new(p.clone(), &self.ctx));
                    // The default workspace starts with the sample web in it.
                    let first_default = std::mem::take(&mut self.load_sample_on_create);
                    if created && first_default {
                        self.start_job(Box::new(crate::engine::sample::load::LoadSample {
                            changed: false,
                        }));
                    }
                    self.prefs.recent.retain(|q| q != &p);
                    self.prefs.recent.insert(0, p.clone());
                    self.prefs.recent.truncate(RECENT_MAX);
                    self.set_status("status.opened", vec![p.display().to_string().into()], false);
                }
                Err(e) => {
                    self.set_status(
                        "error.open_failed",
                        vec![path.display().to_string().into(), e.into()],
                        true,
                    );
                    self.error_modal = self.status.as_ref().map(|s| s.text(self.prefs.lang));
                }
            }
        }
        if let Some(r) = Task::take_result(&mut self.saving) {
            match r {
                Ok(dest) => self.open_workspace(dest),
                Err(e) => {
                    self.set_status("error.save_failed", vec![e.into()], true);
                    self.error_modal = self.status.as_ref().map(|s| s.text(self.prefs.lang));
                }
            }
        }
        if let Some((action, r)) = Task::take_keyed(&mut self.dialog)
            && let Ok(Some(path)) = r
        {
            match action {
                FileAction::New => self.create_workspace(path),
                FileAction::Open => self.open_workspace(path),
                FileAction::SaveAs => self.save_workspace_as(path),
            }
        }

        for r in self.hub.exports.poll() {
            match r {
                Ok(p) => self.set_status(
                    "status.exported",
                    vec![p.display().to_string().into()],
                    false,
                ),
                Err(e) => self.set_status("status.export_failed", vec![e.into()], true),
            }
        }

        // Finished jobs leave the top bar; their outcome goes to the status bar.
        let mut finished = Vec::new();
        let mut finishing = Vec::new();
        self.running.retain(|h| {
            let s = h.snapshot();
            if s.state.is_finished() {
                finished.push(s);
                finishing.push(h.clone());
                false
            } else {
                true
            }
        });
        self.finishing.extend(finishing);
        let before = self.finishing.len();
        self.finishing.retain(|h| !h.is_recorded());
        if self.finishing.len() < before
            && let Some(sess) = &mut self.session
        {
            sess.invalidate();
        }
        for s in finished {
            let kind = StatusArg::JobKind(s.kind.to_string());
            match &s.state {
                JobState::Done(_) => self.set_status("status.job_done", vec![kind], false),
                JobState::Cancelled => self.set_status("status.job_cancelled", vec![kind], false),
                JobState::Failed { code, .. } => {
                    let said = StatusArg::Error(code.clone());
                    self.set_status("status.job_failed", vec![kind, said], true)
                }
                _ => continue,
            }
            self.hub.last_finished = Some(s);
            if let Some(sess) = &mut self.session {
                sess.invalidate();
            }
        }

        let ctx = self.ctx.clone();
        let any_running = !self.running.is_empty();
        if let Some(sess) = &mut self.session {
            // While jobs run, the log is re-read every second to show their rows.
            if any_running && sess.log.age().is_some_and(|a| a > Duration::from_secs(1)) {
                sess.invalidate();
            }
            let r = sess.reader.clone();
            let lang = self.prefs.lang;
            // Reads never write: the runs of a process that died are reaped before the summary
            // and the log are read.
            sess.summary.update(&ctx, move || {
                r.read(lang, |ws| {
                    crate::engine::jobs::reap_interrupted(ws)?;
                    ws.summary()
                })
            });
            let r = sess.reader.clone();
            sess.log.update(&ctx, move || {
                r.read(lang, |ws| {
                    crate::engine::jobs::reap_interrupted(ws)?;
                    crate::engine::jobs::list_jobs(
                        ws,
                        &crate::engine::jobs::JobFilter {
                            limit: Some(2000),
                            ..Default::default()
                        },
                    )
                })
            });
            if any_running {
                ctx.request_repaint_after(Duration::from_millis(500));
            }
        }
    }

    /// Draw the shown panel, then start what it started and do what it asked.
    fn panel_ui(&mut self, ui: &mut egui::Ui) {
        let Some(i) = self
            .panels
            .iter()
            .position(|(p, _)| p.id == self.prefs.panel)
        else {
            return;
        };
        let mut cx = panel::Cx::new(
            self.prefs.lang,
            self.session.as_ref(),
            self.opening.is_some(),
            &self.running,
            &mut self.hub,
        );
        self.panels[i].1.ui(&mut cx, ui);
        let (started, requests) = cx.finish();
        self.running.extend(started);
        for r in requests {
            self.handle_request(r);
        }
    }

    pub(crate) fn handle_request(&mut self, r: panel::Request) {
        match r {
            panel::Request::Goto(id) => self.prefs.panel = id.to_string(),
            panel::Request::Status(e) => self.set_status("status.error", vec![e.into()], true),
            panel::Request::Refresh => {
                if let Some(s) = &mut self.session {
                    s.invalidate();
                }
            }
            panel::Request::Reopen { kind, id, params } => {
                let lang = self.prefs.lang;
                let Some(owner) = workbench::owner_of(&kind) else {
                    return;
                };
                let Some(i) = self.panels.iter().position(|(p, _)| p.id == owner.id) else {
                    return;
                };
                match self.panels[i].1.reopen(&kind, id, &params, lang) {
                    Ok(()) => {
                        self.prefs.panel = owner.id.to_string();
                        let name = StatusArg::Key(owner.label);
                        let id = id.to_string().into();
                        self.set_status("status.reopened", vec![id, name], false);
                    }
                    Err(e) => self.set_status(
                        "status.reopen_failed",
                        vec![id.to_string().into(), e.into()],
                        true,
                    ),
                }
            }
            panel::Request::Open { panel, payload } => {
                let lang = self.prefs.lang;
                let Some(i) = self.panels.iter().position(|(p, _)| p.id == panel) else {
                    return;
                };
                match self.panels[i].1.receive(&payload, lang) {
                    Ok(()) => self.prefs.panel = panel.to_string(),
                    Err(e) => self.set_status("status.error", vec![e.into()], true),
                }
            }
        }
    }

    fn handle_shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let zoom_in = [
            KeyboardShortcut::new(Modifiers::COMMAND, Key::Equals),
            KeyboardShortcut::new(Modifiers::COMMAND, Key::Plus),
        ];
        let zoom_out = KeyboardShortcut::new(Modifiers::COMMAND, Key::Minus);
        let reset = KeyboardShortcut::new(Modifiers::COMMAND, Key::Num0);
        let quit = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);
        if ctx.input_mut(|i| i.consume_shortcut(&quit)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let (mut z_in, mut z_out, mut z_reset) = (false, false, false);
        ctx.input_mut(|i| {
            for s in &zoom_in {
                z_in |= i.consume_shortcut(s);
            }
            z_out = i.consume_shortcut(&zoom_out);
            z_reset = i.consume_shortcut(&reset);
        });
        if z_in {
            self.set_zoom(self.prefs.zoom + ZOOM_STEP);
        }
        if z_out {
            self.set_zoom(self.prefs.zoom - ZOOM_STEP);
        }
        if z_reset {
            self.set_zoom(1.0);
        }
    }
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        super::task::set_lang(&ctx, self.prefs.lang);
        self.poll();
        self.handle_shortcuts(&ctx);
        shell::top_bar(self, ui);
        shell::status_bar(self, ui);
        // Presenter mode leaves the navigation out: the step's panel and the lesson fill the
        // projector.
        let nav = (!self.lessons.presenter || self.lessons.playing.is_none())
            .then(|| shell::navigation(self, ui));
        let drawer = super::lessons::drawer(self, ui);
        let central = egui::CentralPanel::default().show(ui, |ui| {
            // Both ways: content is laid out to the panel's width (text wraps), and whatever
            // is still wider (a table at 200 % zoom) can be scrolled to instead of being cut.
            egui::ScrollArea::both()
                .auto_shrink([false, false])
                .show(ui, |ui| self.panel_ui(ui));
        });
        super::lessons::presenter_overlay(self, &ctx, nav, drawer, central.response.rect);
        shell::dialogs(self, &ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PREFS_KEY, &self.prefs);
    }
}

/// Open the main window on `workspace` and the data folder `data` (`--data`). Blocks until
/// it is closed.
pub fn run_gui(workspace: Option<PathBuf>, data: Option<PathBuf>) -> anyhow::Result<()> {
    let icon = eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon.png")).ok();
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("天网工作台 · Tianwang Workbench")
        .with_app_id("tianwang-workbench")
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([800.0, 500.0]);
    if let Some(icon) = icon {
        viewport = viewport.with_icon(Arc::new(icon));
    }
    let options = eframe::NativeOptions {
        viewport,
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        "tianwang-workbench",
        options,
        Box::new(move |cc| {
            Ok(Box::new(WorkbenchApp::new(
                cc,
                AppOptions {
                    sample_if_new: workspace.is_none(),
                    workspace,
                    system_fonts: true,
                    export_dir: std::env::var_os("TIANWANG_EXPORT_DIR").map(PathBuf::from),
                    data_dir: data,
                },
            )))
        }),
    )
    .map_err(|e| anyhow::anyhow!("could not open the window: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_opens_once_and_reopens_after_a_failure() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        Workspace::open_or_create(&p).unwrap();
        let r = Reader::new(p.clone());
        assert!(!r.is_open());
        let a = r.read(Lang::Zh, |ws| ws.summary()).unwrap();
        assert!(r.is_open());
        // The same connection serves the next read.
        let b = r.read(Lang::Zh, |ws| ws.summary()).unwrap();
        assert_eq!(a.pages, b.pages);
        let e = r.read(Lang::Zh, |_| -> crate::engine::error::Result<()> {
            Err(crate::engine::error::EngineError::invalid("x", "boom"))
        });
        assert_eq!(
            e.unwrap_err(),
            "参数 `x` 不可用：boom",
            "said in the UI's language"
        );
        assert!(!r.is_open(), "a failed read drops the connection");
        assert!(r.read(Lang::En, |ws| ws.summary()).is_ok());
        let gone = Reader::new(d.path().join("missing.tianwang"));
        assert!(gone.read(Lang::En, |ws| ws.summary()).is_err());
    }
}
