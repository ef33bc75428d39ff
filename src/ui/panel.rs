//! Panels: what every panel of the app is and what it may touch.
//!
//! A panel is a [`LabPanel`]: a `ui` function, and optionally `reopen` (a logged run's
//! parameters put back into its form) and `receive` (a payload another panel sent it). Its static
//! facts — id, label, guide, book section, the job kinds it starts — live in the composition root
//! (`crate::workbench::PANELS`). Each frame it receives a [`Cx`] — the language, the open
//! workspace, a way to start jobs, the state panels share ([`Hub`]) and a way to ask for another
//! panel — never the whole app. Panels never name each other's fields: one panel hands another
//! work with [`Request::Open`] and a JSON payload.

use serde_json::Value;

use super::{Lang, Session};
use crate::engine::data::DataDir;
use crate::engine::jobs::{Job, JobHandle, JobSnapshot};
use crate::engine::sample::server::SampleServer;

/// A logged run's parameters read back as the form's type (`reopen`).
/// The decoder's own message is English: the Chinese sentence leaves it out.
pub(crate) fn logged<T: serde::de::DeserializeOwned>(
    params: &Value,
    lang: Lang,
) -> Result<T, String> {
    serde_json::from_value(params.clone()).map_err(|e| lang.tf("panel.logged_unreadable", &[&e]))
}

/// State more than one panel uses (the sample-web server runs for the Sample and Crawl
/// panels alike).
#[derive(Default)]
pub(crate) struct Hub {
    pub sample_server: Option<SampleServer>,
    /// The job that finished last (the Jobs panel shows its outcome).
    pub last_finished: Option<JobSnapshot>,
    /// Table and plot exports (CSV, PNG, SVG) in flight.
    pub exports: super::export::Exports,
    /// The data folder, resolved once when the app starts (`--data`, `$TIANWANG_DATA`, the
    /// user's data folder); `None` when it could not be (no home folder).
    pub data: Option<DataDir>,
    /// Runs ticked in the experiment log (a new lesson starts from them).
    pub ticked_runs: Vec<i64>,
    /// Held while the Pages list loads; the Overview's pipeline counts wait for it.
    pub first_reads: super::task::Gate,
}

/// What a panel asks of the app, carried out after the frame's panel code returns.
#[derive(Debug, Clone)]
pub(crate) enum Request {
    /// Show another panel.
    Goto(&'static str),
    /// Re-read the workspace summary and the experiment log.
    Refresh,
    /// Say something went wrong, in the status bar.
    Status(String),
    /// Open a logged run's parameters in the panel that starts jobs of `kind`.
    Reopen {
        kind: String,
        id: i64,
        params: Value,
    },
    /// Show `panel` and hand it `payload` ([`LabPanel::receive`]), e.g. a request stream the
    /// query-log panel wrote for the cache lab.
    Open { panel: &'static str, payload: Value },
}

/// What a panel receives each frame.
pub(crate) struct Cx<'a> {
    pub lang: Lang,
    /// The open workspace, if any.
    pub session: Option<&'a Session>,
    /// A workspace is being opened.
    pub opening: bool,
    /// Jobs running now (read-only; start new ones with [`Cx::start_job`]).
    pub running: &'a [JobHandle],
    pub hub: &'a mut Hub,
    started: Vec<JobHandle>,
    requests: Vec<Request>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(
        lang: Lang,
        session: Option<&'a Session>,
        opening: bool,
        running: &'a [JobHandle],
        hub: &'a mut Hub,
    ) -> Self {
        Cx {
            lang,
            session,
            opening,
            running,
            hub,
            started: Vec::new(),
            requests: Vec::new(),
        }
    }

    /// Start `job` on the open workspace; `None` when no workspace is open. Returns at once.
    pub fn start_job(&mut self, job: Box<dyn Job>) -> Option<JobHandle> {
        let h = self.session?.runner.spawn(job);
        self.started.push(h.clone());
        Some(h)
    }

    /// Is a job of this kind running?
    pub fn is_running(&self, kind: &str) -> bool {
        self.running
            .iter()
            .chain(&self.started)
            .any(|h| h.snapshot().kind == kind)
    }

    pub fn goto(&mut self, panel: &'static str) {
        self.requests.push(Request::Goto(panel));
    }

    pub fn request(&mut self, r: Request) {
        self.requests.push(r);
    }

    /// The jobs started and the requests made during the frame.
    pub(crate) fn finish(self) -> (Vec<JobHandle>, Vec<Request>) {
        (self.started, self.requests)
    }
}

/// One panel of the app.
pub(crate) trait LabPanel {
    /// Draw the panel.
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut egui::Ui);

    /// Fill the panel's form from a logged run's parameters (`kind` is one of the job kinds
    /// the composition root gives this panel). `Err` says why they cannot be used.
    fn reopen(&mut self, _kind: &str, _id: i64, _params: &Value, lang: Lang) -> Result<(), String> {
        Err(lang.t("panel.no_reopen").into())
    }

    /// Take what another panel sent with [`Request::Open`]. `Err` says why it cannot be used.
    fn receive(&mut self, _payload: &Value, lang: Lang) -> Result<(), String> {
        Err(lang.t("panel.no_receive").into())
    }

    /// The data folder the app resolved when it started (called once, before the first frame).
    fn set_data_dir(&mut self, _data: &DataDir) {}
}
