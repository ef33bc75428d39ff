//! Watching a job a panel started: the handle, whether it runs and how far it is, and — once it
//! has finished — its outcome with the result read back as the job's own type
//! ([`TypedJob::decode`]). Panels never match `JobState` by hand.
//!
//! ```ignore
//! // start
//! self.build = JobWatch::start(cx, job);
//! // each frame
//! if let Some(end) = JobWatch::take_finished(&mut self.build) {
//!     match end.outcome {
//!         Finished::Done(meta) => self.meta = Some(meta),
//!         Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
//!         Finished::Cancelled => {}
//!     }
//! }
//! ```

use std::marker::PhantomData;

use egui::Ui;

use super::Lang;
use super::panel::Cx;
use crate::engine::error::ErrorCode;
use crate::engine::jobs::{JobHandle, JobSnapshot, JobState, TypedJob};

/// How a watched job ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Finished<T> {
    /// Its result, read back as the job's output type.
    Done(T),
    /// It failed, or its result did not read back: the error, said in the UI's language with
    /// [`Lang::error_code`].
    Failed(ErrorCode),
    Cancelled,
}

/// A finished job: its row in the experiment log, its parameters as logged, and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ended<T> {
    /// The run's `jobs.id` (`None` if it never got a row).
    pub id: Option<i64>,
    pub params: serde_json::Value,
    pub outcome: Finished<T>,
}

/// A job of type `J` a panel started, watched until it ends.
pub(crate) struct JobWatch<J: TypedJob> {
    handle: JobHandle,
    job: PhantomData<fn() -> J>,
}

impl<J: TypedJob> std::fmt::Debug for JobWatch<J> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("JobWatch").field(&self.handle).finish()
    }
}

impl<J: TypedJob> JobWatch<J> {
    /// Watch a job already started (its kind must be `J::KIND`).
    pub fn new(handle: JobHandle) -> Self {
        debug_assert_eq!(handle.snapshot().kind, J::KIND);
        JobWatch {
            handle,
            job: PhantomData,
        }
    }

    /// Start `job` on the open workspace and watch it; `None` when no workspace is open.
    pub fn start(cx: &mut Cx<'_>, job: J) -> Option<Self> {
        cx.start_job(Box::new(job)).map(Self::new)
    }

    pub fn handle(&self) -> &JobHandle {
        &self.handle
    }

    /// A copy of the job's state for drawing (cheap, no I/O).
    pub fn snapshot(&self) -> JobSnapshot {
        self.handle.snapshot()
    }

    /// Still starting, running or cancelling.
    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Ask the job to stop (returns at once).
    pub fn cancel(&self) {
        self.handle.cancel();
    }

    /// The outcome once the job has finished; `None` while it runs.
    pub fn outcome(&self) -> Option<Ended<J::Output>> {
        let s = self.snapshot();
        let outcome = match s.state {
            JobState::Done(v) => match J::decode(&v) {
                Ok(out) => Finished::Done(out),
                Err(e) => Finished::Failed(e.code()),
            },
            JobState::Failed { code, .. } => Finished::Failed(code),
            JobState::Cancelled => Finished::Cancelled,
            JobState::Starting | JobState::Running | JobState::Cancelling => return None,
        };
        Some(Ended {
            id: s.id,
            params: s.params,
            outcome,
        })
    }

    /// The outcome of the job watched in `slot` once it has finished, emptying the slot;
    /// `None` while it runs or when the slot is empty.
    pub fn take_finished(slot: &mut Option<Self>) -> Option<Ended<J::Output>> {
        let end = slot.as_ref()?.outcome()?;
        *slot = None;
        Some(end)
    }

    /// [`JobWatch::take_finished`] for a job kept with what it was started for (`K`).
    pub fn take_keyed<K>(slot: &mut Option<(K, Self)>) -> Option<(K, Ended<J::Output>)> {
        let end = slot.as_ref()?.1.outcome()?;
        let (key, _) = slot.take()?;
        Some((key, end))
    }

    /// The job's progress bar with its message, and a cancel button labelled `cancel_label`
    /// (cancels the job when clicked).
    pub fn progress_row(&self, ui: &mut Ui, lang: Lang, cancel_label: &str) {
        let s = self.snapshot();
        ui.add(
            egui::ProgressBar::new(s.progress.fraction.unwrap_or(0.0))
                .desired_width(220.0)
                .text(super::shell::progress_text(lang, &s))
                .animate(true),
        );
        let cancelling = matches!(s.state, JobState::Cancelling);
        if ui
            .add_enabled(!cancelling, egui::Button::new(cancel_label))
            .clicked()
        {
            self.cancel();
        }
    }
}

/// Several watched jobs of one type, each with what it is for (`K`), e.g. the dedup panel's
/// comparison and its sweeps.
pub(crate) struct JobWatches<K, J: TypedJob> {
    items: Vec<(K, JobWatch<J>)>,
}

impl<K, J: TypedJob> Default for JobWatches<K, J> {
    fn default() -> Self {
        JobWatches { items: Vec::new() }
    }
}

impl<K, J: TypedJob> JobWatches<K, J> {
    pub fn push(&mut self, key: K, watch: JobWatch<J>) {
        self.items.push((key, watch));
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many are still watched.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// What each watched job is for.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.items.iter().map(|(k, _)| k)
    }

    /// Is a job for `key` being watched?
    pub fn has(&self, key: &K) -> bool
    where
        K: PartialEq,
    {
        self.items.iter().any(|(k, _)| k == key)
    }

    /// The finished jobs with their outcomes, in the order they were started; the running ones
    /// stay watched.
    pub fn take_finished(&mut self) -> Vec<(K, Ended<J::Output>)> {
        let mut done = Vec::new();
        for (key, w) in std::mem::take(&mut self.items) {
            match w.outcome() {
                Some(end) => done.push((key, end)),
                None => self.items.push((key, w)),
            }
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::engine::error::{EngineError, Result};
    use crate::engine::jobs::{JobContext, JobRunner};

    /// Waits for `go`, then returns `n`, fails, or runs until cancelled.
    struct Gate {
        n: i64,
        go: crossbeam_channel::Receiver<()>,
    }

    #[derive(Serialize, Deserialize)]
    struct GateParams {
        n: i64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct GateOut {
        twice: i64,
    }

    impl TypedJob for Gate {
        const KIND: &'static str = "gate";
        type Params = GateParams;
        type Output = GateOut;

        fn from_params(_: GateParams) -> Result<Self> {
            Err(EngineError::invalid("n", "built by the test only"))
        }
        fn params(&self) -> GateParams {
            GateParams { n: self.n }
        }
        fn run_typed(&mut self, cx: &JobContext) -> Result<GateOut> {
            loop {
                cx.check_cancel()?;
                if self.go.recv_timeout(Duration::from_millis(5)).is_ok() {
                    break;
                }
            }
            if self.n < 0 {
                return Err(EngineError::invalid("n", "must not be negative"));
            }
            Ok(GateOut { twice: 2 * self.n })
        }
    }

    fn runner() -> (tempfile::TempDir, JobRunner) {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.tianwang");
        crate::engine::store::Workspace::open_or_create(&path).unwrap();
        (d, JobRunner::new(path, Arc::new(|| {})))
    }

    fn watch(r: &JobRunner, n: i64) -> (Option<JobWatch<Gate>>, crossbeam_channel::Sender<()>) {
        let (tx, go) = crossbeam_channel::bounded(1);
        (Some(JobWatch::new(r.spawn(Box::new(Gate { n, go })))), tx)
    }

    fn until<R>(mut f: impl FnMut() -> Option<R>) -> R {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(r) = f() {
                return r;
            }
            assert!(Instant::now() < deadline, "the job never finished");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_finished_job_yields_its_decoded_result_once() {
        let (_d, r) = runner();
        let (mut slot, go) = watch(&r, 21);
        assert!(
            JobWatch::take_finished(&mut slot).is_none(),
            "still running"
        );
        assert!(slot.as_ref().is_some_and(|w| w.is_running()));
        go.send(()).unwrap();
        let end = until(|| JobWatch::take_finished(&mut slot));
        assert_eq!(end.outcome, Finished::Done(GateOut { twice: 42 }));
        assert!(end.id.is_some(), "the run has a row in the log");
        assert!(slot.is_none());
        assert!(JobWatch::take_finished(&mut slot).is_none());
        let (watch, go) = watch(&r, 5);
        let mut keyed = watch.map(|w| ("five", w));
        assert!(JobWatch::take_keyed(&mut keyed).is_none(), "still running");
        go.send(()).unwrap();
        let (key, end) = until(|| JobWatch::take_keyed(&mut keyed));
        assert_eq!(
            (key, end.outcome),
            ("five", Finished::Done(GateOut { twice: 10 }))
        );
        assert!(keyed.is_none());
    }

    #[test]
    fn a_failed_and_a_cancelled_job_say_so() {
        let (_d, r) = runner();
        let (mut failing, go) = watch(&r, -1);
        go.send(()).unwrap();
        match until(|| JobWatch::take_finished(&mut failing)).outcome {
            Finished::Failed(code) => {
                let m = Lang::En.error_code(&code);
                assert!(m.contains("must not be negative"), "{m}");
            }
            other => panic!("expected a failure, got {other:?}"),
        }
        let (mut cancelled, _go) = watch(&r, 1);
        cancelled.as_ref().unwrap().cancel();
        assert_eq!(
            until(|| JobWatch::take_finished(&mut cancelled)).outcome,
            Finished::Cancelled
        );
    }

    #[test]
    fn several_jobs_end_one_by_one_with_their_keys() {
        let (_d, r) = runner();
        let mut all: JobWatches<&str, Gate> = JobWatches::default();
        let (a, go_a) = watch(&r, 1);
        let (b, go_b) = watch(&r, 2);
        all.push("a", a.unwrap());
        all.push("b", b.unwrap());
        assert!(all.has(&"a") && all.has(&"b"));
        go_b.send(()).unwrap();
        let done = until(|| Some(all.take_finished()).filter(|d| !d.is_empty()));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].0, "b");
        assert_eq!(done[0].1.outcome, Finished::Done(GateOut { twice: 4 }));
        assert!(all.has(&"a") && !all.has(&"b"));
        go_a.send(()).unwrap();
        let done = until(|| Some(all.take_finished()).filter(|d| !d.is_empty()));
        assert_eq!(done[0].0, "a");
        assert!(all.is_empty());
    }
}
