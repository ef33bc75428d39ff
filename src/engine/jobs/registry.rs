//! Job kinds: which jobs exist, what their parameters and results are, and how a logged run
//! is rebuilt from its parameters.
//!
//! A job with typed parameters and a typed result implements [`TypedJob`]; the runner still
//! sees a [`Job`] (parameters and result travel as JSON into the experiment log), and the
//! engine, the CLI and the panels read results back as the same struct with
//! [`TypedJob::decode`]. Every kind is listed once in [`kinds`]: the Jobs panel and
//! `tianwang jobs` use the list to re-open or re-run a logged run.
//!
//! ```
//! use tianwang::engine::calibrate::Calibrate;
//! use tianwang::engine::jobs::registry::{self, TypedJob};
//! let kind = registry::find("calibrate").expect("registered");
//! let job = (kind.rebuild)(&serde_json::json!({"seconds": 1.0}))?;
//! assert_eq!(job.kind(), Calibrate::KIND);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Job, JobContext};
use crate::engine::error::{EngineError, Result};

/// A job whose parameters and result are structs.
pub trait TypedJob: Send + Sized + 'static {
    /// The stable machine name of the kind (the experiment log's `kind`).
    const KIND: &'static str;
    /// The validated parameters, as logged.
    type Params: Serialize + DeserializeOwned;
    /// What a finished run returns, as logged.
    type Output: Serialize + DeserializeOwned;

    /// Validate parameters into a job (`InvalidParam` naming the parameter on bad input).
    fn from_params(params: Self::Params) -> Result<Self>;
    /// The parameters this job runs with.
    fn params(&self) -> Self::Params;
    /// Do the work (see [`Job::run`]).
    fn run_typed(&mut self, cx: &JobContext) -> Result<Self::Output>;

    /// A logged result of this kind, read back.
    fn decode(result: &Value) -> Result<Self::Output> {
        serde_json::from_value(result.clone()).map_err(|e| {
            EngineError::Internal(format!("a {} result does not read back: {e}", Self::KIND))
        })
    }
}

impl<T: TypedJob> Job for T {
    fn kind(&self) -> &'static str {
        T::KIND
    }

    fn params(&self) -> Value {
        serde_json::to_value(TypedJob::params(self)).unwrap_or(Value::Null)
    }

    fn run(&mut self, cx: &JobContext) -> Result<Value> {
        let out = self.run_typed(cx)?;
        serde_json::to_value(&out).map_err(|e| {
            EngineError::Internal(format!("{}: result not serialisable: {e}", T::KIND))
        })
    }
}

/// One kind of job.
#[derive(Clone, Copy)]
pub struct JobKind {
    pub kind: &'static str,
    /// Its parameters can be put back into a form (the panel that starts it re-opens them).
    pub reopenable: bool,
    /// Rebuild a runnable job from logged parameters (validated again).
    pub rebuild: fn(&Value) -> Result<Box<dyn Job>>,
}

impl std::fmt::Debug for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobKind")
            .field("kind", &self.kind)
            .field("reopenable", &self.reopenable)
            .finish()
    }
}

fn rebuild<J: TypedJob>(params: &Value) -> Result<Box<dyn Job>> {
    let p: J::Params = serde_json::from_value(params.clone())
        .map_err(|e| EngineError::invalid(J::KIND, format!("logged parameters: {e}")))?;
    Ok(Box::new(J::from_params(p)?))
}

impl JobKind {
    pub const fn of<J: TypedJob>() -> JobKind {
        JobKind {
            kind: J::KIND,
            reopenable: true,
            rebuild: rebuild::<J>,
        }
    }
}

/// Every job kind. A new lab adds its kinds here.
pub fn kinds() -> &'static [JobKind] {
    use crate::engine::{
        cache, calibrate, classify, crawl, dedup, docview, index, querylog, sample,
    };
    const KINDS: &[JobKind] = &[
        JobKind::of::<calibrate::Calibrate>(),
        JobKind::of::<sample::load::LoadSample>(),
        JobKind::of::<crawl::Crawl>(),
        JobKind::of::<docview::eval::CleanEval>(),
        JobKind::of::<classify::job::TrainJob>(),
        JobKind::of::<classify::job::SweepJob>(),
        JobKind::of::<dedup::job::DedupJob>(),
        JobKind::of::<cache::job::CacheSimJob>(),
        JobKind::of::<querylog::job::ImportJob>(),
        JobKind::of::<querylog::job::StatsJob>(),
        JobKind::of::<index::job::IndexBuildJob>(),
    ];
    KINDS
}

/// The kind named `kind`.
pub fn find(kind: &str) -> Option<&'static JobKind> {
    kinds().iter().find(|k| k.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_unique() {
        let mut names: Vec<_> = kinds().iter().map(|k| k.kind).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
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
    }
}
