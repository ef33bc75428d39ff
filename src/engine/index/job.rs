//! The `index-build` job: build (or rebuild after a re-crawl) an index as a logged,
//! cancellable job — the CLI's `index build --workspace` and the Search panel's Build button
//! both start it.
//!
//! ```no_run
//! use tianwang::engine::index::job::IndexBuildParams;
//! use tianwang::engine::index::source::Source;
//! let p = IndexBuildParams {
//!     source: Source::Tsv { path: "titles.tsv".into() },
//!     out: Some("titles.index".into()),
//!     config: Default::default(),
//!     engine: Default::default(), // native; DataFusion or Spark with the `bigjobs` feature
//! };
//! let meta = p.execute(None, &()).unwrap();
//! assert!(meta.docs > 0);
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::build::IndexConfig;
use super::disk::Meta;
use super::reader::sidecar;
use super::source::Source;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, Tick};
use crate::engine::store::Workspace;

/// The job's parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct IndexBuildParams {
    pub source: Source,
    /// Where the index goes (default: beside the source: `<workspace>.index`, `<file>.index`).
    pub out: Option<PathBuf>,
    pub config: IndexConfig,
    /// Where the postings are sorted (native unless asked; [`super::build_on`]).
    #[serde(default)]
    pub engine: crate::engine::exec::EngineConfig,
}

/// Where an index of `source` goes by default (`ws`: the open workspace's file).
pub fn default_out(source: &Source, ws: Option<&Path>) -> Result<PathBuf> {
    Ok(match source {
        Source::Workspace { path: Some(p) } => sidecar(p),
        Source::Workspace { path: None } => {
            sidecar(ws.ok_or_else(|| EngineError::invalid("--workspace", "no workspace is open"))?)
        }
        Source::Dir { path } | Source::Tsv { path } | Source::Parquet { path } => sidecar(path),
        // The open workspace's index when there is one (the CLI's `--workspace W`, the job),
        // else beside the first file.
        Source::Warc { paths } => match (ws, paths.first()) {
            (Some(w), _) => sidecar(w),
            (None, Some(f)) => sidecar(f),
            (None, None) => return Err(EngineError::invalid("--warc", "give WARC files")),
        },
    })
}

impl IndexBuildParams {
    pub(crate) fn validate(&self) -> Result<()> {
        self.config.validate()?;
        self.engine.validate()
    }

    /// Build (what the job does; usable without a workspace for file sources).
    pub fn execute(&self, ws: Option<&Workspace>, tick: &dyn Tick) -> Result<Meta> {
        self.validate()?;
        let out = match &self.out {
            Some(o) => o.clone(),
            None => default_out(&self.source, ws.map(|w| w.path()))?,
        };
        super::build_on(&self.source, ws, &out, &self.config, &self.engine, tick)
    }
}

/// The logged, cancellable build.
pub(crate) struct IndexBuildJob {
    params: IndexBuildParams,
}

impl TypedJob for IndexBuildJob {
    const KIND: &'static str = "index-build";
    type Params = IndexBuildParams;
    type Output = Meta;

    fn from_params(params: IndexBuildParams) -> Result<Self> {
        params.validate()?;
        Ok(IndexBuildJob { params })
    }

    fn params(&self) -> IndexBuildParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<Meta> {
        let ws = match &self.params.source {
            Source::Workspace { path: None } => {
                Some(Workspace::open_existing(cx.workspace_path())?)
            }
            _ => None,
        };
        let mut p = self.params.clone();
        if p.out.is_none() {
            p.out = Some(default_out(&p.source, Some(cx.workspace_path()))?);
        }
        let meta = p.execute(ws.as_ref(), cx)?;
        cx.counter("docs", meta.docs as f64);
        cx.counter("terms", meta.terms as f64);
        cx.counter("runs", meta.runs as f64);
        cx.counter("spilled_bytes", meta.engine.spilled_bytes as f64);
        cx.progress(1.0, "done");
        Ok(meta)
    }
}
