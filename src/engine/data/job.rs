//! The data manager's long work as logged jobs (progress, cancel, the experiment log): a
//! download of sets (`data-fetch`) and an import from a folder (`data-import`), as the app's
//! missing-set card and its data panel start them.
//!
//! ```no_run
//! use tianwang::engine::data::job::{DataFetchJob, DataFetchParams};
//! use tianwang::engine::jobs::TypedJob;
//! let job = DataFetchJob::from_params(DataFetchParams {
//!     sets: vec!["hollins".into()],
//!     data_dir: "/tmp/data".into(),
//!     options: Default::default(),
//! })?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::fetch::{FetchOptions, FetchReport};
use super::{DataDir, ImportReport, manifest};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::{JobContext, TypedJob};

/// Parameters of a download.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DataFetchParams {
    /// Set names; empty: every set that can be downloaded.
    pub sets: Vec<String>,
    pub data_dir: PathBuf,
    pub options: FetchOptions,
}

/// `data-fetch`: download, verify and install sets.
#[derive(Debug)]
pub struct DataFetchJob(DataFetchParams);

impl TypedJob for DataFetchJob {
    const KIND: &'static str = "data-fetch";
    type Params = DataFetchParams;
    type Output = FetchReport;

    fn from_params(p: DataFetchParams) -> Result<Self> {
        manifest::get().sets_named(&p.sets)?;
        if p.data_dir.as_os_str().is_empty() {
            return Err(EngineError::invalid("data", "no data folder"));
        }
        Ok(DataFetchJob(p))
    }
    fn params(&self) -> DataFetchParams {
        self.0.clone()
    }
    fn run_typed(&mut self, cx: &JobContext) -> Result<FetchReport> {
        let dir = DataDir::new(&self.0.data_dir);
        if self.0.sets.is_empty() {
            super::fetch::fetch_all(&dir, &self.0.options, cx)
        } else {
            let sets = manifest::get().sets_named(&self.0.sets)?;
            super::fetch::fetch(&dir, &sets, &self.0.options, cx)
        }
    }
}

/// Parameters of an import.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct DataImportParams {
    pub from: PathBuf,
    /// Set names; empty: every set the copy holds.
    pub sets: Vec<String>,
    pub data_dir: PathBuf,
}

/// `data-import`: install sets from a local copy.
#[derive(Debug)]
pub(crate) struct DataImportJob(DataImportParams);

impl TypedJob for DataImportJob {
    const KIND: &'static str = "data-import";
    type Params = DataImportParams;
    type Output = ImportReport;

    fn from_params(p: DataImportParams) -> Result<Self> {
        manifest::get().sets_named(&p.sets)?;
        if p.from.as_os_str().is_empty() {
            return Err(EngineError::invalid("from", "no folder to import from"));
        }
        Ok(DataImportJob(p))
    }
    fn params(&self) -> DataImportParams {
        self.0.clone()
    }
    fn run_typed(&mut self, cx: &JobContext) -> Result<ImportReport> {
        let dir = DataDir::new(&self.0.data_dir);
        let all = self.0.sets.is_empty();
        let sets = if all {
            manifest::get().sets.iter().collect()
        } else {
            manifest::get().sets_named(&self.0.sets)?
        };
        super::import(&dir, &self.0.from, &sets, all, cx)
    }
}
