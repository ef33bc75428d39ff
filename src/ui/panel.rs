//! Panels: what every panel of the app is, what it may touch, and the list of them.
//!
//! A panel is a [`LabPanel`]: its label, the book section it follows, its guide text, the
//! job kinds it starts (so the experiment log can re-open a run's parameters in it) and a
//! `ui` function. Each frame it receives a [`Cx`] — the language, the open workspace, a way
//! to start jobs, the state panels share ([`Hub`]) and a way to ask for another panel — never
//! the whole app. Adding a lab is one line in [`registry`].

use serde_json::Value;

use super::{Lang, Session};
use crate::engine::jobs::{Job, JobHandle, JobSnapshot};
use crate::engine::sample::server::SampleServer;

/// Static facts about a panel: enough for the navigation, the overview's guide and the
/// experiment log's "re-open" to work without the panel's state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PanelInfo {
    /// Stable id, persisted in the preferences (`Prefs::panel`).
    pub id: &'static str,
    /// i18n key of the navigation label.
    pub label: &'static str,
    /// i18n key of the guide's description of the panel.
    pub guide: &'static str,
    /// i18n key of the book section the panel follows.
    pub book: &'static str,
    /// Job kinds this panel starts; their runs re-open here.
    pub job_kinds: &'static [&'static str],
}

/// A panel's [`PanelInfo`] from its id, its i18n stem (`nav.STEM`, `guide.STEM`,
/// `guide.STEM_book`) and the job kinds it starts.
macro_rules! panel_info {
    ($id:literal, $stem:literal, [$($kind:literal),* $(,)?]) => {
        $crate::ui::panel::PanelInfo {
            id: $id,
            label: concat!("nav.", $stem),
            guide: concat!("guide.", $stem),
            book: concat!("guide.", $stem, "_book"),
            job_kinds: &[$($kind),*],
        }
    };
}
pub(crate) use panel_info;

/// A logged run's parameters read back as the form's type (`reopen`).
pub(crate) fn logged<T: serde::de::DeserializeOwned>(params: &Value) -> Result<T, String> {
    serde_json::from_value(params.clone()).map_err(|e| format!("logged parameters: {e}"))
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
    /// The request stream the query-log panel last sent to the cache lab (one id a line).
    pub querylog_stream: Option<std::path::PathBuf>,
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
    pub panels: &'a [PanelInfo],
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
        panels: &'a [PanelInfo],
    ) -> Self {
        Cx {
            lang,
            session,
            opening,
            running,
            hub,
            panels,
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
    fn info(&self) -> PanelInfo;

    /// Draw the panel.
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut egui::Ui);

    /// Fill the panel's form from a logged run's parameters (`kind` is one of
    /// [`PanelInfo::job_kinds`]). `Err` says why they cannot be used.
    fn reopen(
        &mut self,
        _kind: &str,
        _id: i64,
        _params: &Value,
        _lang: Lang,
    ) -> Result<(), String> {
        Err("this panel cannot re-open runs".into())
    }
}

/// Every panel, in the order of the navigation. A new lab adds one line here.
pub(crate) fn registry() -> Vec<Box<dyn LabPanel>> {
    vec![
        Box::new(super::overview::OverviewPanel),
        Box::new(super::sample::SamplePanel::default()),
        Box::new(super::crawl::CrawlPanel::default()),
        Box::new(super::pages::PagesPanel::default()),
        Box::new(super::docview::DocViewPanel::default()),
        Box::new(super::dedup::DedupPanel::default()),
        Box::new(super::search::SearchPanel::default()),
        Box::new(super::classify::ClassifyPanel::default()),
        Box::new(super::querylog::QuerylogPanel::default()),
        Box::new(super::cache::CachePanel::default()),
        Box::new(super::jobs::JobsPanel::default()),
    ]
}

/// The panel that starts jobs of `kind`.
pub(crate) fn owner_of<'p>(panels: &'p [PanelInfo], kind: &str) -> Option<&'p PanelInfo> {
    panels.iter().find(|p| p.job_kinds.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_job_kind_has_one_owner() {
        let infos: Vec<PanelInfo> = registry().iter().map(|p| p.info()).collect();
        let mut ids: Vec<_> = infos.iter().map(|i| i.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), infos.len(), "duplicate panel id");
        let mut kinds: Vec<_> = infos.iter().flat_map(|i| i.job_kinds.iter()).collect();
        let n = kinds.len();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), n, "a job kind is claimed by two panels");
        for k in crate::engine::jobs::registry::kinds() {
            assert!(
                owner_of(&infos, k.kind).is_some() || !k.reopenable,
                "job kind {} is re-openable but no panel starts it",
                k.kind
            );
        }
    }
}
