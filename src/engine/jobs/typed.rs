//! Typed jobs: a job's parameters and result as structs, and a job kind that rebuilds a logged
//! run from its parameters.
//!
//! A job with typed parameters and a typed result implements [`TypedJob`]; the runner still
//! sees a [`Job`] (parameters and result travel as JSON into the experiment log), and the
//! engine, the CLI and the panels read results back as the same struct with
//! [`TypedJob::decode`]. [`JobKind::of`] describes one kind; the list of every kind lives in
//! the composition root (`crate::workbench::kinds`), the only code that knows every lab.
//!
//! ```
//! use tianwang::engine::calibrate::Calibrate;
//! use tianwang::engine::jobs::{JobKind, TypedJob};
//! let kind = JobKind::of::<Calibrate>();
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
    /// Rebuild a runnable job from logged parameters (validated again).
    pub rebuild: fn(&Value) -> Result<Box<dyn Job>>,
}

impl std::fmt::Debug for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobKind").field("kind", &self.kind).finish()
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
            rebuild: rebuild::<J>,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    /// A job whose only parameter must be positive.
    struct Sleep(f64);

    #[derive(Serialize, Deserialize)]
    struct SleepParams {
        seconds: f64,
    }

    impl TypedJob for Sleep {
        const KIND: &'static str = "sleep";
        type Params = SleepParams;
        type Output = f64;

        fn from_params(p: SleepParams) -> Result<Self> {
            if p.seconds > 0.0 {
                Ok(Sleep(p.seconds))
            } else {
                Err(EngineError::invalid("seconds", "must be positive"))
            }
        }
        fn params(&self) -> SleepParams {
            SleepParams { seconds: self.0 }
        }
        fn run_typed(&mut self, _cx: &JobContext) -> Result<f64> {
            Ok(self.0)
        }
    }

    #[test]
    fn logged_parameters_rebuild_and_bad_ones_are_refused() {
        let k = JobKind::of::<Sleep>();
        assert_eq!(k.kind, "sleep");
        let job = (k.rebuild)(&serde_json::json!({"seconds": 1.0})).unwrap();
        assert_eq!(job.kind(), "sleep");
        assert_eq!(job.params(), serde_json::json!({"seconds": 1.0}));
        let e = (k.rebuild)(&serde_json::json!({"seconds": -3.0}))
            .err()
            .unwrap();
        assert!(e.is_user_error(), "{e}");
        assert!((k.rebuild)(&serde_json::json!("nonsense")).is_err());
    }

    #[test]
    fn a_result_that_does_not_read_back_is_an_error() {
        assert_eq!(Sleep::decode(&serde_json::json!(2.5)).unwrap(), 2.5);
        assert!(Sleep::decode(&serde_json::json!("two")).is_err());
    }
}
