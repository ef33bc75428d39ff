//! Workspaces with runs already in their experiment log: the jobs run to the end one after
//! another on a [`JobRunner`], as the app runs them, before a test opens the workspace.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tianwang::engine::jobs::{Job, JobRunner, JobState};
use tianwang::engine::store::Workspace;

/// A new workspace `dir/w.tianwang` after `jobs` ran in it, in order, each to `Done`.
pub fn workspace_after(dir: &Path, jobs: Vec<Box<dyn Job>>) -> PathBuf {
    let path = dir.join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let runner = JobRunner::new(path.clone(), Arc::new(|| {}));
    for job in jobs {
        let state = runner.spawn(job).wait();
        assert!(matches!(state, JobState::Done(_)), "{state:?}");
    }
    path
}

/// Calibration runs of these lengths (seconds), one job each: cheap rows for the log.
pub fn calibrations(seconds: &[f64]) -> Vec<Box<dyn Job>> {
    use tianwang::engine::calibrate::{Calibrate, CalibrateParams};
    seconds
        .iter()
        .map(|&seconds| {
            Box::new(Calibrate::new(CalibrateParams { seconds }).unwrap()) as Box<dyn Job>
        })
        .collect()
}
