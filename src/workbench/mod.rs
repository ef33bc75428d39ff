//! The composition root: the one place that knows every lab. It names every panel of the app
//! (in navigation order) and every job kind, and says which panel starts which jobs, so the
//! experiment log can re-open or re-run any logged run. Everything below it — the labs, DocView,
//! the job runtime, the store — knows nothing of its neighbours' panels or jobs; everything above
//! it (`cli`, `ui`) reads the catalogue from here. The book's system is one pipeline of stages
//! (ch. 2 [L614–L735]); this is where the stages meet.
//!
//! Adding a lab is one [`Panel`] entry in [`PANELS`] (its id, its string-table stem and its job
//! kinds); the UI supplies the panel for that id and a test fails if either side is missing.
//!
//! ```
//! use tianwang::workbench;
//! let kind = workbench::find("calibrate").expect("registered");
//! let job = (kind.rebuild)(&serde_json::json!({"seconds": 1.0}))?;
//! assert_eq!(job.kind(), "calibrate");
//! assert_eq!(workbench::owner_of("dedup").map(|p| p.id), Some("Dedup"));
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod experiments;
pub mod lessons;

use crate::engine::jobs::JobKind;
use crate::engine::{
    cache, calibrate, classify, crawl, data, dedup, docview, index, querylog, rank, sample,
};

pub mod pipeline;
pub mod service;

/// One panel of the app: enough for the navigation, the overview's guide and the experiment
/// log's "re-open" and "run again" to work without the panel's state.
#[derive(Debug, Clone, Copy)]
pub struct Panel {
    /// Stable id, persisted in the app's preferences.
    pub id: &'static str,
    /// String-table key of the navigation label (`nav.STEM`).
    pub label: &'static str,
    /// String-table key of the guide's description (`guide.STEM`).
    pub guide: &'static str,
    /// String-table key of the book section the panel follows (`guide.STEM_book`).
    pub book: &'static str,
    /// The job kinds this panel starts; their logged runs re-open here.
    pub jobs: &'static [JobKind],
}

impl Panel {
    /// Does this panel start jobs of `kind`?
    pub fn starts(&self, kind: &str) -> bool {
        self.jobs.iter().any(|k| k.kind == kind)
    }
}

/// A [`Panel`] from its id, its string-table stem and the job types it starts.
macro_rules! panel {
    ($id:literal, $stem:literal, [$($job:ty),* $(,)?]) => {
        Panel {
            id: $id,
            label: concat!("nav.", $stem),
            guide: concat!("guide.", $stem),
            book: concat!("guide.", $stem, "_book"),
            jobs: &[$(JobKind::of::<$job>()),*],
        }
    };
}

/// Every panel, in the order of the navigation; a lab registers here.
pub const PANELS: &[Panel] = &[
    panel!(
        "Overview",
        "overview",
        [
            pipeline::BuildJob,
            data::job::DataFetchJob,
            data::job::DataImportJob,
            experiments::ExperimentJob
        ]
    ),
    panel!("Sample", "sample", [sample::load::LoadSample]),
    panel!("Crawl", "crawl", [crawl::Crawl]),
    panel!("Pages", "pages", []),
    panel!(
        "DocView",
        "docview",
        [docview::eval::CleanEval, docview::stored::CleanPagesJob]
    ),
    panel!(
        "Dedup",
        "dedup",
        [dedup::job::DedupJob, dedup::stored::GroupPagesJob]
    ),
    panel!(
        "search",
        "search",
        [index::job::IndexBuildJob, rank::stored::PageRankJob]
    ),
    panel!(
        "Classify",
        "classify",
        [
            classify::job::TrainJob,
            classify::job::SweepJob,
            classify::stored::ClassifyPagesJob
        ]
    ),
    panel!(
        "querylog",
        "querylog",
        [
            querylog::job::ImportJob,
            querylog::job::StatsJob,
            querylog::job::GenerateJob
        ]
    ),
    panel!("cache", "cache", [cache::job::CacheSimJob]),
    panel!("Jobs", "jobs", [calibrate::Calibrate]),
];

/// The panel with this id.
pub fn panel(id: &str) -> Option<&'static Panel> {
    PANELS.iter().find(|p| p.id == id)
}

/// Every job kind, in the order of the panels that start them.
pub fn kinds() -> impl Iterator<Item = &'static JobKind> {
    PANELS.iter().flat_map(|p| p.jobs.iter())
}

/// The job kind named `kind`.
pub fn find(kind: &str) -> Option<&'static JobKind> {
    kinds().find(|k| k.kind == kind)
}

/// The panel that starts jobs of `kind` (where its logged runs re-open).
pub fn owner_of(kind: &str) -> Option<&'static Panel> {
    PANELS.iter().find(|p| p.starts(kind))
}

/// Every schema of the big jobs' Parquet contract, lab by lab (`export-parquet --schemas`;
/// `docs/parquet_schemas.md` is its output).
#[cfg(feature = "bigjobs")]
pub fn schemas() -> Vec<crate::engine::exec::schema::SchemaDef> {
    vec![
        dedup::on_engine::PAGES,
        dedup::on_engine::SIGNATURES,
        dedup::on_engine::MINHASH_BANDS,
        index::on_engine::POSTINGS_INPUT,
        index::on_engine::POSTINGS_DOCS,
        querylog::on_engine::QUERYLOG,
        rank::on_engine::LINKS,
        rank::on_engine::NODES,
    ]
}

/// The schema called `name`.
#[cfg(feature = "bigjobs")]
pub fn schema(name: &str) -> Option<crate::engine::exec::schema::SchemaDef> {
    schemas().into_iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_kinds_are_unique_and_every_kind_has_one_owner() {
        let mut ids: Vec<_> = PANELS.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate panel id");
        let mut names: Vec<_> = kinds().map(|k| k.kind).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "a job kind is claimed twice");
        for k in kinds() {
            assert_eq!(
                PANELS.iter().filter(|p| p.starts(k.kind)).count(),
                1,
                "{}",
                k.kind
            );
        }
    }

    #[test]
    fn logged_parameters_rebuild_and_bad_ones_are_refused() {
        let k = find("calibrate").unwrap();
        assert!((k.rebuild)(&serde_json::json!({"seconds": 1.0})).is_ok());
        let e = (k.rebuild)(&serde_json::json!({"seconds": -3.0}))
            .err()
            .unwrap();
        assert!(e.is_user_error(), "{e}");
        assert!((k.rebuild)(&serde_json::json!("nonsense")).is_err());
        assert_eq!(owner_of("calibrate").map(|p| p.id), Some("Jobs"));
        assert!(owner_of("no-such-kind").is_none());
    }

    /// `docs/parquet_schemas.md` is `export-parquet --schemas`: a column changed in a lab and
    /// not there fails (make it again with that command).
    #[cfg(feature = "bigjobs")]
    #[test]
    fn the_schema_document_is_current() {
        let doc = include_str!("../../docs/parquet_schemas.md");
        for s in schemas() {
            assert!(
                doc.contains(&s.markdown()),
                "docs/parquet_schemas.md is out of date for `{}`: \
                 tianwang export-parquet --schemas",
                s.name
            );
        }
        assert!(schema("signatures").is_some());
        assert!(schema("nonsense").is_none());
    }
}
