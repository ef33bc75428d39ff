//! The desktop app: egui panels that draw plain data the engine returns. [`app`] is the window
//! (preferences, the open workspace, running jobs, the shell around the panels); every other
//! module is one panel or a piece the panels share ([`panel`], [`task`], [`job_watch`],
//! [`stored_logs`], [`memo`], [`export`], [`i18n`], [`fonts`]). The composition root ([`crate::workbench::PANELS`]) names the panels and their
//! order; [`PANEL_UIS`] gives each one its drawing code.

mod app;
mod book_runs;
mod cache;
mod capacity;
mod classify;
mod crawl;
mod data_card;
mod data_sets;
mod dedup;
mod docview;
mod engine_choice;
mod export;
pub mod fonts;
pub mod i18n;
mod job_watch;
mod jobs;
mod legend;
mod lessons;
mod log_axis;
mod memo;
mod overview;
mod page_class;
mod pages;
pub(crate) mod panel;
mod pipeline_view;
mod querylog;
mod sample;
pub mod search;
mod shell;
mod stored_logs;
pub mod task;
mod wrap;

pub(crate) use app::Session;
pub use app::{AppOptions, Prefs, WorkbenchApp, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, run_gui};
pub use i18n::Lang;
/// The fields of a logged run's result that the Jobs panel names (`field.KEY` in the tables):
/// tests check every one has a name in both languages.
pub use jobs::outcome::summary_keys as result_field_keys;

/// A panel's drawing code, made when the app starts.
type MakePanel = fn() -> Box<dyn panel::LabPanel>;

/// The drawing code of every panel the composition root names, by panel id. A lab adds one
/// line here (and one entry in [`crate::workbench::PANELS`]); a test fails if the two lists differ.
const PANEL_UIS: &[(&str, MakePanel)] = &[
    ("Overview", || Box::<overview::OverviewPanel>::default()),
    ("Sample", || Box::<sample::SamplePanel>::default()),
    ("Crawl", || Box::<crawl::CrawlPanel>::default()),
    ("Pages", || Box::<pages::PagesPanel>::default()),
    ("DocView", || Box::<docview::DocViewPanel>::default()),
    ("Dedup", || Box::<dedup::DedupPanel>::default()),
    ("search", || Box::<search::SearchPanel>::default()),
    ("Classify", || Box::<classify::ClassifyPanel>::default()),
    ("querylog", || Box::<querylog::QuerylogPanel>::default()),
    ("cache", || Box::<cache::CachePanel>::default()),
    ("Jobs", || Box::<jobs::JobsPanel>::default()),
];

/// Every panel of the composition root with its drawing code, in navigation order.
fn panels() -> Vec<(&'static crate::workbench::Panel, Box<dyn panel::LabPanel>)> {
    crate::workbench::PANELS
        .iter()
        .filter_map(|p| {
            let (_, make) = PANEL_UIS.iter().find(|(id, _)| *id == p.id)?;
            Some((p, make()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_of_the_root_has_drawing_code_and_no_other() {
        let root: Vec<&str> = crate::workbench::PANELS.iter().map(|p| p.id).collect();
        let here: Vec<&str> = PANEL_UIS.iter().map(|(id, _)| *id).collect();
        for id in &root {
            assert!(
                here.contains(id),
                "panel {id} has no drawing code in ui::PANEL_UIS"
            );
        }
        for id in &here {
            assert!(
                root.contains(id),
                "ui::PANEL_UIS draws {id}, which workbench::PANELS does not name"
            );
        }
        assert_eq!(panels().len(), root.len());
    }
}
