//! Jobs: how does long work run without freezing anything, and what did each run do?
//!
//! Every piece of long work — a crawl, a cleaning pass, a calibration — is a [`Job`]. The
//! [`JobRunner`] runs it on a background thread, and the GUI and the CLI use the same runner:
//! the GUI draws a [`JobSnapshot`] each frame (a cheap copy, no I/O), the CLI draws it as a
//! progress bar. A job reports progress (fraction, message, named counters; the ETA is derived),
//! polls for cancellation, and returns its result as JSON.
//!
//! Each run is one row of the workspace's `jobs` table — kind, parameters as JSON, start and
//! end, outcome, result summary as JSON: the **experiment log**. While a job runs, a heartbeat
//! thread stamps its row every [`HEARTBEAT`]; a row left `running` by a process that died
//! (SIGKILL, power cut) is marked `interrupted` by [`reap_interrupted`], which whoever shows the
//! log calls before reading it (a read never writes).
//!
//! ```no_run
//! use std::sync::Arc;
//! use tianwang::engine::{calibrate::{Calibrate, CalibrateParams}, jobs::JobRunner};
//! let runner = JobRunner::new("lab.tianwang".into(), Arc::new(|| {}));
//! let job = Calibrate::new(CalibrateParams { seconds: 2.0 })?;
//! let handle = runner.spawn(Box::new(job));
//! let outcome = handle.wait();
//! println!("{:?}", outcome);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::engine::error::{EngineError, ErrorCode, Result};
use crate::engine::store::{Workspace, now_rfc3339};

/// How often a running job's row is stamped.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(2);
/// A running row whose stamp is older than this belongs to a dead process.
pub(crate) const HEARTBEAT_STALE: Duration = Duration::from_secs(12);
/// Progress callbacks wake the UI at most this often.
const NOTIFY_EVERY: Duration = Duration::from_millis(40);

/// A piece of long work.
pub trait Job: Send + 'static {
    /// A stable machine name, e.g. `"calibrate"`; the experiment log is filtered by it.
    fn kind(&self) -> &'static str;
    /// The validated parameters, as recorded in the experiment log (and re-opened from it).
    fn params(&self) -> Value;
    /// Do the work. Poll [`JobContext::check_cancel`] often (at least every 50 ms).
    fn run(&mut self, cx: &JobContext) -> Result<Value>;
}

/// Progress and cancellation for engine algorithms, so they need not know about jobs: a job
/// passes its [`JobContext`], a test or a library caller passes `&()` (never cancelled).
pub trait Tick: Sync {
    /// Report `fraction` (0..=1) done with a short message; `Err(Cancelled)` means stop now.
    /// Call it often enough (every ~50 ms of work) and propagate the error with `?`.
    fn tick(&self, fraction: f32, message: &str) -> Result<()>;
}

impl Tick for () {
    fn tick(&self, _fraction: f32, _message: &str) -> Result<()> {
        Ok(())
    }
}

impl Tick for JobContext {
    fn tick(&self, fraction: f32, message: &str) -> Result<()> {
        self.progress(fraction, message);
        self.check_cancel()
    }
}

/// What a job's progress looks like right now.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Progress {
    /// 0..=1 when known.
    pub fraction: Option<f32>,
    pub message: String,
    /// Named counters, in the order the job first reported them.
    pub counters: Vec<(String, f64)>,
}

impl Progress {
    /// The counters as a typed struct (the one the job reported with
    /// [`JobContext::counters`]); `None` before the job has reported all its fields.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        let m: serde_json::Map<String, Value> = self
            .counters
            .iter()
            .map(|(n, v)| {
                // Whole numbers read back as integers, so `u64` fields deserialise.
                let v = if v.fract() == 0.0 && *v >= 0.0 && *v < 9.0e15 {
                    Value::from(*v as u64)
                } else {
                    Value::from(*v)
                };
                (n.clone(), v)
            })
            .collect();
        serde_json::from_value(Value::Object(m)).ok()
    }
}

/// Where a job is in its life.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Waiting for its row in the experiment log.
    Starting,
    Running,
    /// Cancel was asked; the job has not stopped yet.
    Cancelling,
    Done(Value),
    /// The job returned an error (or panicked): its English message, whether the user can fix
    /// it, and its code for the UI's string tables.
    Failed {
        message: String,
        user_error: bool,
        code: ErrorCode,
    },
    Cancelled,
}

impl JobState {
    /// The state of a job that failed with `e`.
    pub fn failed(e: &EngineError) -> Self {
        JobState::Failed {
            message: e.to_string(),
            user_error: e.is_user_error(),
            code: e.code(),
        }
    }

    pub fn is_finished(&self) -> bool {
        matches!(
            self,
            JobState::Done(_) | JobState::Failed { .. } | JobState::Cancelled
        )
    }

    /// A finished job's outcome as a result: its value, or its failure relayed with the job's
    /// own message, exit code and error code ([`EngineError::Relayed`]), or `Cancelled`.
    pub fn into_result(self) -> Result<Value> {
        match self {
            JobState::Done(v) => Ok(v),
            JobState::Failed {
                message,
                user_error,
                code,
            } => Err(EngineError::Relayed {
                message,
                user_error,
                code,
            }),
            JobState::Cancelled => Err(EngineError::Cancelled),
            other => Err(EngineError::Internal(format!(
                "job ended in state {other:?}"
            ))),
        }
    }
}

/// A copy of a job's state for drawing.
#[derive(Debug, Clone)]
pub struct JobSnapshot {
    pub id: Option<i64>,
    pub kind: &'static str,
    pub params: Value,
    pub state: JobState,
    pub progress: Progress,
    pub elapsed: Duration,
    /// Estimated time left, from the fraction done so far.
    pub eta: Option<Duration>,
    /// When the job reached a finished state.
    pub finished_after: Option<Duration>,
}

struct Shared {
    kind: &'static str,
    params: Value,
    id: OnceLock<i64>,
    cancel: AtomicBool,
    /// Jobs that support pausing (see [`JobContext::is_paused`]) hold still while set.
    pause: AtomicBool,
    /// The outcome is in the experiment log (set after the final state).
    recorded: AtomicBool,
    started: Instant,
    inner: Mutex<Inner>,
    notify: Arc<dyn Fn() + Send + Sync>,
}

struct Inner {
    state: JobState,
    progress: Progress,
    last_notify: Option<Instant>,
    finished_after: Option<Duration>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding this lock cannot leave the plain data inconsistent.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_state(&self, state: JobState) {
        {
            let mut g = self.lock();
            if state.is_finished() {
                g.finished_after = Some(self.started.elapsed());
            }
            g.state = state;
        }
        (self.notify)();
    }
}

/// Handed to [`Job::run`]: report progress, check for cancellation.
pub struct JobContext {
    shared: Arc<Shared>,
    workspace: PathBuf,
    /// Set when this context runs a stage of another job ([`JobContext::run_child`]).
    stage: Option<Stage>,
}

/// A stage run inside another job: its own log row, its share of the parent's progress.
#[derive(Debug, Clone, Copy)]
struct Stage {
    id: i64,
    start: f32,
    width: f32,
}

/// How a stage run by [`JobContext::run_child`] ended.
#[derive(Debug)]
pub(crate) struct ChildRun {
    /// The stage's own row in the experiment log.
    pub id: i64,
    pub seconds: f64,
    /// Its result, or why it did not finish (`Cancelled` when the parent was cancelled).
    pub outcome: Result<Value>,
}

impl JobContext {
    /// This run's row in the experiment log (`jobs.id`): set before [`Job::run`] is called.
    pub fn job_id(&self) -> Option<i64> {
        match self.stage {
            Some(st) => Some(st.id),
            None => self.shared.id.get().copied(),
        }
    }

    /// Run `job` as a stage of this job (the composition root's pipeline runs the labs' jobs
    /// this way): it gets its own row in the experiment log — kind, parameters, start, end,
    /// outcome, as if started alone, so it re-opens in its panel and runs again from the log —
    /// while its progress fills `start .. start + width` of this job's bar and cancelling this
    /// job cancels it. A panic in the stage is its failure, not the parent's crash.
    pub(crate) fn run_child(&self, job: &mut dyn Job, start: f32, width: f32) -> Result<ChildRun> {
        let id = record_start(&self.workspace, job.kind(), &job.params())?;
        let (start, width) = match self.stage {
            Some(p) => (p.start + p.width * start, p.width * width),
            None => (start, width),
        };
        let cx = JobContext {
            shared: self.shared.clone(),
            workspace: self.workspace.clone(),
            stage: Some(Stage { id, start, width }),
        };
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(&cx)))
            .unwrap_or_else(|panic| Err(EngineError::Internal(panic_text(panic.as_ref()))));
        let seconds = t0.elapsed().as_secs_f64();
        let state = match &outcome {
            Ok(v) => JobState::Done(v.clone()),
            Err(EngineError::Cancelled) => JobState::Cancelled,
            Err(e) => JobState::failed(e),
        };
        if let Err(e) = record_end(&self.workspace, id, &state) {
            tracing::error!("stage job {id}: could not record its outcome: {e}");
        }
        Ok(ChildRun {
            id,
            seconds,
            outcome,
        })
    }

    /// The workspace file this job belongs to (jobs open their own connection).
    pub fn workspace_path(&self) -> &std::path::Path {
        &self.workspace
    }

    /// Report how far along the job is (`fraction` in 0..=1) and what it is doing.
    pub fn progress(&self, fraction: f32, message: impl Into<String>) {
        let mut fraction = fraction.clamp(0.0, 1.0);
        if let Some(st) = self.stage {
            fraction = st.start + st.width * fraction;
        }
        let mut g = self.shared.lock();
        g.progress.fraction = Some(fraction.clamp(0.0, 1.0));
        g.progress.message = message.into();
        self.maybe_notify(g);
    }

    /// Set a named counter (pages fetched, bytes hashed …).
    pub(crate) fn counter(&self, name: &str, value: f64) {
        let mut g = self.shared.lock();
        match g.progress.counters.iter_mut().find(|(n, _)| n == name) {
            Some(c) => c.1 = value,
            None => g.progress.counters.push((name.to_string(), value)),
        }
        self.maybe_notify(g);
    }

    /// Set every numeric field of `counters` (a struct) as a named counter: the job's typed
    /// counters, read back with [`Progress::read`].
    pub(crate) fn counters<T: Serialize>(&self, counters: &T) {
        let Ok(Value::Object(m)) = serde_json::to_value(counters) else {
            return;
        };
        let mut g = self.shared.lock();
        for (name, v) in m {
            let Some(value) = v.as_f64() else { continue };
            match g.progress.counters.iter_mut().find(|(n, _)| *n == name) {
                Some(c) => c.1 = value,
                None => g.progress.counters.push((name, value)),
            }
        }
        self.maybe_notify(g);
    }

    fn maybe_notify(&self, mut g: std::sync::MutexGuard<'_, Inner>) {
        let now = Instant::now();
        if g.last_notify
            .is_none_or(|t| now.duration_since(t) >= NOTIFY_EVERY)
        {
            g.last_notify = Some(now);
            drop(g);
            (self.shared.notify)();
        }
    }

    /// Pause was asked (a job that supports it stops starting new work until resumed).
    pub(crate) fn is_paused(&self) -> bool {
        self.shared.pause.load(Ordering::Relaxed)
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancel was asked: use with `?` in loops.
    pub(crate) fn check_cancel(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(EngineError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A running (or finished) job.
#[derive(Clone)]
pub struct JobHandle {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for JobHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobHandle")
            .field("kind", &self.shared.kind)
            .field("id", &self.shared.id.get())
            .finish()
    }
}

impl JobHandle {
    /// A copy of the current state. Takes a short lock, never waits on I/O.
    pub fn snapshot(&self) -> JobSnapshot {
        let g = self.shared.lock();
        let elapsed = self.shared.started.elapsed();
        let eta = match (&g.state, g.progress.fraction) {
            (JobState::Running, Some(f)) if f > 0.01 => {
                Some(elapsed.mul_f64(f64::from((1.0 - f) / f)))
            }
            _ => None,
        };
        JobSnapshot {
            id: self.shared.id.get().copied(),
            kind: self.shared.kind,
            params: self.shared.params.clone(),
            state: g.state.clone(),
            progress: g.progress.clone(),
            elapsed,
            eta,
            finished_after: g.finished_after,
        }
    }

    /// Ask the job to stop. Returns at once; the state becomes `Cancelled` when it has.
    /// Pause or resume a job that supports it (the crawler does; others ignore it).
    pub fn set_paused(&self, paused: bool) {
        self.shared.pause.store(paused, Ordering::Relaxed);
        (self.shared.notify)();
    }

    pub(crate) fn is_paused(&self) -> bool {
        self.shared.pause.load(Ordering::Relaxed)
    }

    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
        let mut g = self.shared.lock();
        if matches!(g.state, JobState::Running | JobState::Starting) {
            g.state = JobState::Cancelling;
            drop(g);
            (self.shared.notify)();
        }
    }

    pub fn is_finished(&self) -> bool {
        self.shared.lock().state.is_finished()
    }

    /// The outcome is written to the experiment log (or the job never got a row).
    pub(crate) fn is_recorded(&self) -> bool {
        self.shared.recorded.load(Ordering::Acquire)
    }

    /// Block until the job has finished and its outcome is logged (CLI and tests only; never
    /// on the UI thread).
    pub fn wait(&self) -> JobState {
        loop {
            if let Some(s) = self.wait_timeout(Duration::from_millis(50)) {
                return s;
            }
        }
    }

    /// The final state if the job finishes within `timeout`.
    pub fn wait_timeout(&self, timeout: Duration) -> Option<JobState> {
        let deadline = Instant::now() + timeout;
        loop {
            {
                let g = self.shared.lock();
                if g.state.is_finished() && self.shared.recorded.load(Ordering::Acquire) {
                    return Some(g.state.clone());
                }
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
    }
}

/// Runs jobs for one workspace on background threads.
#[derive(Clone)]
pub struct JobRunner {
    workspace: PathBuf,
    notify: Arc<dyn Fn() + Send + Sync>,
}

impl JobRunner {
    /// `notify` is called (from any thread) whenever a job's state or progress changes: the GUI
    /// passes `ctx.request_repaint()`.
    pub fn new(workspace: PathBuf, notify: Arc<dyn Fn() + Send + Sync>) -> Self {
        JobRunner { workspace, notify }
    }

    pub fn workspace_path(&self) -> &std::path::Path {
        &self.workspace
    }

    /// Start `job` on a new thread. Returns at once; the job's row is written by that thread.
    pub fn spawn(&self, job: Box<dyn Job>) -> JobHandle {
        let shared = Arc::new(Shared {
            kind: job.kind(),
            params: job.params(),
            id: OnceLock::new(),
            cancel: AtomicBool::new(false),
            pause: AtomicBool::new(false),
            recorded: AtomicBool::new(false),
            started: Instant::now(),
            inner: Mutex::new(Inner {
                state: JobState::Starting,
                progress: Progress::default(),
                last_notify: None,
                finished_after: None,
            }),
            notify: self.notify.clone(),
        });
        let handle = JobHandle {
            shared: shared.clone(),
        };
        let workspace = self.workspace.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("job-{}", shared.kind))
            .spawn({
                let shared = shared.clone();
                move || run_job(job, shared, workspace)
            });
        if let Err(e) = spawned {
            shared.recorded.store(true, Ordering::Release);
            shared.set_state(JobState::failed(&EngineError::Internal(format!(
                "could not start a thread: {e}"
            ))));
        }
        handle
    }
}

fn run_job(mut job: Box<dyn Job>, shared: Arc<Shared>, workspace: PathBuf) {
    let id = match record_start(&workspace, shared.kind, &shared.params) {
        Ok(id) => id,
        Err(e) => {
            shared.recorded.store(true, Ordering::Release);
            shared.set_state(JobState::failed(&e));
            return;
        }
    };
    let _ = shared.id.set(id);
    {
        let mut g = shared.lock();
        if g.state == JobState::Starting {
            g.state = JobState::Running;
        }
    }
    (shared.notify)();

    let (stop_tx, stop_rx) = crossbeam_channel::bounded::<()>(0);
    let heartbeat = {
        let workspace = workspace.clone();
        std::thread::Builder::new()
            .name("job-heartbeat".into())
            .spawn(move || heartbeat_loop(&workspace, id, &stop_rx))
            .ok()
    };

    let cx = JobContext {
        shared: shared.clone(),
        workspace: workspace.clone(),
        stage: None,
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(&cx)))
        .unwrap_or_else(|panic| Err(EngineError::Internal(panic_text(panic.as_ref()))));
    drop(stop_tx);
    if let Some(h) = heartbeat {
        let _ = h.join();
    }

    let state = match outcome {
        Ok(v) => JobState::Done(v),
        Err(EngineError::Cancelled) => JobState::Cancelled,
        Err(e) => JobState::failed(&e),
    };
    // The final state first, so the UI learns at once; then the log row. `wait` returns only
    // when both are done, so a CLI about to exit can rely on the row.
    shared.set_state(state.clone());
    if let Err(e) = record_end(&workspace, id, &state) {
        tracing::error!("job {id}: could not record its outcome: {e}");
    }
    shared.recorded.store(true, Ordering::Release);
    (shared.notify)();
}

/// What a caught panic said.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("job panicked: {what}")
}

fn heartbeat_loop(workspace: &std::path::Path, id: i64, stop: &crossbeam_channel::Receiver<()>) {
    let Ok(ws) = Workspace::open_existing(workspace) else {
        return;
    };
    while let Err(crossbeam_channel::RecvTimeoutError::Timeout) = stop.recv_timeout(HEARTBEAT) {
        if let Err(e) = ws.conn().execute(
            "UPDATE jobs SET heartbeat_at = ?1 WHERE id = ?2 AND status = 'running'",
            (now_rfc3339(), id),
        ) {
            tracing::warn!("job {id}: heartbeat failed: {e}");
        }
    }
}

pub mod compare;
mod log;
#[cfg(test)]
mod tests;
mod typed;

#[cfg(test)]
use log::process_start;
pub use log::{
    JobFilter, JobRecord, STATUSES, get_job, list_jobs, load_detail, log_table, save_detail,
};
use log::{record_end, record_start};
pub use typed::{JobKind, TypedJob};

/// Mark `running` rows of the experiment log whose process is gone as `interrupted`, and say how
/// many changed. Reading the log never writes: whoever shows the log or the workspace summary
/// (the app's refresh, `tianwang jobs list`, `tianwang store summary`) calls this first.
pub(crate) fn reap_interrupted(ws: &Workspace) -> Result<usize> {
    log::reap_interrupted(ws.conn())
}

/// A [`Tick`] for one stage of a longer run: the stage's fraction `f` is reported as
/// `start + width · f` of the whole.
pub(crate) struct Scaled<'a> {
    pub tick: &'a dyn Tick,
    pub start: f32,
    pub width: f32,
}

impl Tick for Scaled<'_> {
    fn tick(&self, f: f32, m: &str) -> Result<()> {
        self.tick
            .tick(self.start + self.width * f.clamp(0.0, 1.0), m)
    }
}
