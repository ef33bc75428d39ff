//! `experiment`: book experiments run as a logged job (progress, cancel, the experiment log),
//! as the panels' book buttons and the book-experiments panel start them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::RunOutcome;
use crate::engine::data::DataDir;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::{JobContext, TypedJob};

/// Which experiments, on which data folder.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExperimentParams {
    pub ids: Vec<String>,
    pub data_dir: PathBuf,
}

/// Every run's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExperimentOutput {
    pub runs: Vec<RunOutcome>,
}

/// The `experiment` job.
#[derive(Debug)]
pub struct ExperimentJob(ExperimentParams);

impl TypedJob for ExperimentJob {
    const KIND: &'static str = "experiment";
    type Params = ExperimentParams;
    type Output = ExperimentOutput;

    fn from_params(p: ExperimentParams) -> Result<Self> {
        if p.ids.is_empty() {
            return Err(EngineError::invalid("experiment", "no experiment named"));
        }
        if let Some(bad) = p.ids.iter().find(|id| super::find(id).is_none()) {
            return Err(EngineError::invalid(
                "experiment",
                format!("no experiment `{bad}`"),
            ));
        }
        Ok(ExperimentJob(p))
    }
    fn params(&self) -> ExperimentParams {
        self.0.clone()
    }
    fn run_typed(&mut self, cx: &JobContext) -> Result<ExperimentOutput> {
        let data = DataDir::new(&self.0.data_dir);
        let runs = super::run(&self.0.ids, &data, cx)?;
        Ok(ExperimentOutput { runs })
    }
}
