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
//! (SIGKILL, power cut) is marked `interrupted` the next time the workspace is read
//! ([`reap_interrupted`]).
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

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use crate::engine::error::{EngineError, Result};
use crate::engine::store::{Workspace, now_rfc3339};

/// How often a running job's row is stamped.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// A running row whose stamp is older than this belongs to a dead process.
pub const HEARTBEAT_STALE: Duration = Duration::from_secs(12);
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

/// Where a job is in its life.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Waiting for its row in the experiment log.
    Starting,
    Running,
    /// Cancel was asked; the job has not stopped yet.
    Cancelling,
    Done(Value),
    Failed {
        message: String,
        user_error: bool,
    },
    Cancelled,
}

impl JobState {
    pub fn is_finished(&self) -> bool {
        matches!(
            self,
            JobState::Done(_) | JobState::Failed { .. } | JobState::Cancelled
        )
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
}

impl JobContext {
    /// The workspace file this job belongs to (jobs open their own connection).
    pub fn workspace_path(&self) -> &std::path::Path {
        &self.workspace
    }

    /// Report how far along the job is (`fraction` in 0..=1) and what it is doing.
    pub fn progress(&self, fraction: f32, message: impl Into<String>) {
        let mut g = self.shared.lock();
        g.progress.fraction = Some(fraction.clamp(0.0, 1.0));
        g.progress.message = message.into();
        self.maybe_notify(g);
    }

    /// Set a named counter (pages fetched, bytes hashed …).
    pub fn counter(&self, name: &str, value: f64) {
        let mut g = self.shared.lock();
        match g.progress.counters.iter_mut().find(|(n, _)| n == name) {
            Some(c) => c.1 = value,
            None => g.progress.counters.push((name.to_string(), value)),
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
    pub fn is_paused(&self) -> bool {
        self.shared.pause.load(Ordering::Relaxed)
    }

    pub fn is_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancel was asked: use with `?` in loops.
    pub fn check_cancel(&self) -> Result<()> {
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

    pub fn is_paused(&self) -> bool {
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
    pub fn is_recorded(&self) -> bool {
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
            shared.set_state(JobState::Failed {
                message: format!("could not start a thread: {e}"),
                user_error: false,
            });
        }
        handle
    }
}

fn run_job(mut job: Box<dyn Job>, shared: Arc<Shared>, workspace: PathBuf) {
    let id = match record_start(&workspace, shared.kind, &shared.params) {
        Ok(id) => id,
        Err(e) => {
            shared.recorded.store(true, Ordering::Release);
            shared.set_state(JobState::Failed {
                user_error: e.is_user_error(),
                message: e.to_string(),
            });
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
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(&cx)))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(EngineError::Internal(format!("job panicked: {what}")))
        });
    drop(stop_tx);
    if let Some(h) = heartbeat {
        let _ = h.join();
    }

    let state = match outcome {
        Ok(v) => JobState::Done(v),
        Err(EngineError::Cancelled) => JobState::Cancelled,
        Err(e) => JobState::Failed {
            user_error: e.is_user_error(),
            message: e.to_string(),
        },
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

fn record_start(workspace: &std::path::Path, kind: &str, params: &Value) -> Result<i64> {
    let ws = Workspace::open_existing(workspace)?;
    let now = now_rfc3339();
    ws.conn().execute(
        "INSERT INTO jobs(kind, params, status, started_at, heartbeat_at, pid)
         VALUES (?1, ?2, 'running', ?3, ?3, ?4)",
        (
            kind,
            params.to_string(),
            &now,
            i64::from(std::process::id()),
        ),
    )?;
    Ok(ws.conn().last_insert_rowid())
}

fn record_end(workspace: &std::path::Path, id: i64, state: &JobState) -> Result<()> {
    let (status, result, error) = match state {
        JobState::Done(v) => ("done", Some(v.to_string()), None),
        JobState::Failed { message, .. } => ("failed", None, Some(message.clone())),
        JobState::Cancelled => ("cancelled", None, None),
        other => {
            return Err(EngineError::Internal(format!(
                "record_end on an unfinished job: {other:?}"
            )));
        }
    };
    let ws = Workspace::open_existing(workspace)?;
    ws.conn().execute(
        "UPDATE jobs SET status = ?1, ended_at = ?2, result = ?3, error = ?4 WHERE id = ?5",
        (status, now_rfc3339(), result, error, id),
    )?;
    Ok(())
}

/// Is process `pid` alive on this machine? `None` where we cannot tell.
fn process_alive(pid: i64) -> Option<bool> {
    if cfg!(target_os = "linux") {
        Some(std::path::Path::new("/proc").join(pid.to_string()).exists())
    } else {
        None
    }
}

/// Mark `running` rows whose process is gone (or whose heartbeat is stale) as `interrupted`.
/// Returns how many rows changed.
pub(crate) fn reap_interrupted(conn: &Connection) -> Result<usize> {
    let mut stmt =
        conn.prepare("SELECT id, pid, heartbeat_at FROM jobs WHERE status = 'running'")?;
    let rows: Vec<(i64, Option<i64>, Option<String>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<std::result::Result<_, _>>()?;
    let now = chrono::Utc::now();
    let mut n = 0;
    for (id, pid, beat) in rows {
        let stale = beat
            .and_then(|b| chrono::DateTime::parse_from_rfc3339(&b).ok())
            .is_none_or(|b| {
                (now - b.with_timezone(&chrono::Utc))
                    .to_std()
                    .is_ok_and(|age| age > HEARTBEAT_STALE)
            });
        let dead = pid.and_then(process_alive) == Some(false);
        if dead || stale {
            n += conn.execute(
                "UPDATE jobs SET status = 'interrupted', ended_at = coalesce(heartbeat_at, started_at),
                        error = 'the process running this job stopped before it finished'
                 WHERE id = ?1 AND status = 'running'",
                [id],
            )?;
        }
    }
    Ok(n)
}

/// Every status a logged run can have (the `jobs` table's CHECK constraint).
pub const STATUSES: [&str; 5] = ["running", "done", "failed", "cancelled", "interrupted"];

/// One row of the experiment log.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct JobRecord {
    pub id: i64,
    pub kind: String,
    pub params: Value,
    pub status: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    /// Wall-clock seconds from start to end (or to the last heartbeat of an interrupted job).
    pub duration_s: Option<f64>,
    pub result: Option<Value>,
    pub error: Option<String>,
}

/// Which rows of the experiment log to list.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    pub kind: Option<String>,
    pub status: Option<String>,
    /// At most this many, newest first.
    pub limit: Option<usize>,
}

/// The experiment log, newest first. Reaps interrupted jobs first so their status is true.
pub fn list_jobs(ws: &Workspace, filter: &JobFilter) -> Result<Vec<JobRecord>> {
    select_jobs(ws, None, filter)
}

/// Rows matching `filter` (and `id`, when given), newest first.
fn select_jobs(ws: &Workspace, id: Option<i64>, filter: &JobFilter) -> Result<Vec<JobRecord>> {
    reap_interrupted(ws.conn())?;
    let limit = filter.limit.map_or(-1, |l| l as i64);
    let mut stmt = ws.conn().prepare(
        "SELECT id, kind, params, status, started_at, ended_at, result, error FROM jobs
         WHERE (?1 IS NULL OR kind = ?1) AND (?2 IS NULL OR status = ?2) AND (?4 IS NULL OR id = ?4)
         ORDER BY id DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map((&filter.kind, &filter.status, limit, id), |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, Option<String>>(5)?,
            r.get::<_, Option<String>>(6)?,
            r.get::<_, Option<String>>(7)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, kind, params, status, started_at, ended_at, result, error) = row?;
        let duration_s = ended_at
            .as_deref()
            .and_then(|e| seconds_between(&started_at, e));
        out.push(JobRecord {
            id,
            kind,
            params: serde_json::from_str(&params).unwrap_or(Value::String(params)),
            status,
            started_at,
            ended_at,
            duration_s,
            result: result.map(|r| serde_json::from_str(&r).unwrap_or(Value::String(r))),
            error,
        });
    }
    Ok(out)
}

/// One job's row.
pub fn get_job(ws: &Workspace, id: i64) -> Result<Option<JobRecord>> {
    Ok(select_jobs(ws, Some(id), &JobFilter::default())?.pop())
}

fn seconds_between(a: &str, b: &str) -> Option<f64> {
    let a = chrono::DateTime::parse_from_rfc3339(a).ok()?;
    let b = chrono::DateTime::parse_from_rfc3339(b).ok()?;
    Some((b - a).num_milliseconds() as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job that counts to `steps`, sleeping `step_ms` per step; fails at `fail_at`.
    struct Counter {
        steps: u32,
        step_ms: u64,
        fail_at: Option<u32>,
    }

    impl Job for Counter {
        fn kind(&self) -> &'static str {
            "test-counter"
        }
        fn params(&self) -> Value {
            serde_json::json!({"steps": self.steps})
        }
        fn run(&mut self, cx: &JobContext) -> Result<Value> {
            for i in 0..self.steps {
                cx.check_cancel()?;
                if Some(i) == self.fail_at {
                    return Err(EngineError::invalid("steps", "told to fail"));
                }
                std::thread::sleep(Duration::from_millis(self.step_ms));
                cx.progress((i + 1) as f32 / self.steps as f32, format!("step {i}"));
                cx.counter("done", f64::from(i + 1));
            }
            Ok(serde_json::json!({"counted": self.steps}))
        }
    }

    fn setup() -> (tempfile::TempDir, JobRunner) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        Workspace::open_or_create(&p).unwrap();
        (d, JobRunner::new(p, Arc::new(|| {})))
    }

    #[test]
    fn done_job_is_logged_with_params_and_result() {
        let (_d, runner) = setup();
        let h = runner.spawn(Box::new(Counter {
            steps: 5,
            step_ms: 1,
            fail_at: None,
        }));
        let state = h.wait();
        assert_eq!(state, JobState::Done(serde_json::json!({"counted": 5})));
        let snap = h.snapshot();
        assert_eq!(snap.progress.fraction, Some(1.0));
        assert_eq!(snap.progress.counters, vec![("done".to_string(), 5.0)]);
        let ws = Workspace::open_existing(runner.workspace_path()).unwrap();
        let log = list_jobs(&ws, &JobFilter::default()).unwrap();
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].status, "done");
        assert_eq!(log[0].params, serde_json::json!({"steps": 5}));
        assert_eq!(log[0].result, Some(serde_json::json!({"counted": 5})));
        assert!(log[0].duration_s.is_some());
        assert_eq!(get_job(&ws, log[0].id).unwrap().unwrap(), log[0]);
        assert!(get_job(&ws, 999).unwrap().is_none());
    }

    #[test]
    fn failure_and_cancel_are_logged() {
        let (_d, runner) = setup();
        let h = runner.spawn(Box::new(Counter {
            steps: 5,
            step_ms: 1,
            fail_at: Some(2),
        }));
        assert!(matches!(
            h.wait(),
            JobState::Failed {
                user_error: true,
                ..
            }
        ));

        let h = runner.spawn(Box::new(Counter {
            steps: 100_000,
            step_ms: 2,
            fail_at: None,
        }));
        while h.snapshot().state != JobState::Running {
            std::thread::sleep(Duration::from_millis(2));
        }
        let t = Instant::now();
        h.cancel();
        assert_eq!(h.snapshot().state, JobState::Cancelling);
        assert_eq!(h.wait(), JobState::Cancelled);
        assert!(
            t.elapsed() < Duration::from_millis(200),
            "{:?}",
            t.elapsed()
        );

        let ws = Workspace::open_existing(runner.workspace_path()).unwrap();
        let f = |s: &str| {
            list_jobs(
                &ws,
                &JobFilter {
                    status: Some(s.into()),
                    ..Default::default()
                },
            )
            .unwrap()
        };
        assert_eq!(f("failed").len(), 1);
        assert!(
            f("failed")[0]
                .error
                .as_deref()
                .unwrap()
                .contains("told to fail")
        );
        assert_eq!(f("cancelled").len(), 1);
        let by_kind = list_jobs(
            &ws,
            &JobFilter {
                kind: Some("test-counter".into()),
                limit: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(by_kind.len(), 1);
        assert_eq!(by_kind[0].status, "cancelled", "newest first");
    }

    #[test]
    fn panicking_job_is_a_failure_not_a_crash() {
        struct Boom;
        impl Job for Boom {
            fn kind(&self) -> &'static str {
                "boom"
            }
            fn params(&self) -> Value {
                Value::Null
            }
            fn run(&mut self, _: &JobContext) -> Result<Value> {
                panic!("kaboom")
            }
        }
        let (_d, runner) = setup();
        match runner.spawn(Box::new(Boom)).wait() {
            JobState::Failed {
                message,
                user_error,
            } => {
                assert!(message.contains("kaboom"));
                assert!(!user_error);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn dead_processes_jobs_are_interrupted() {
        let (_d, runner) = setup();
        let ws = Workspace::open_existing(runner.workspace_path()).unwrap();
        let now = now_rfc3339();
        // A fresh heartbeat but a pid that cannot exist; and a live pid with a stale heartbeat;
        // and a live, fresh one that must stay running.
        ws.conn()
            .execute(
                "INSERT INTO jobs(kind, params, status, started_at, heartbeat_at, pid) VALUES
                 ('a','{}','running',?1,?1, 2147483000),
                 ('b','{}','running','2020-01-01T00:00:00.000Z','2020-01-01T00:00:05.000Z', ?2),
                 ('c','{}','running',?1,?1, ?2)",
                (&now, i64::from(std::process::id())),
            )
            .unwrap();
        let log = list_jobs(&ws, &JobFilter::default()).unwrap();
        let status = |k: &str| log.iter().find(|j| j.kind == k).unwrap().status.clone();
        if cfg!(target_os = "linux") {
            assert_eq!(status("a"), "interrupted");
        }
        assert_eq!(status("b"), "interrupted");
        assert_eq!(status("c"), "running");
        let b = log.iter().find(|j| j.kind == "b").unwrap();
        assert_eq!(b.duration_s, Some(5.0));
    }

    #[test]
    fn missing_workspace_fails_the_job_cleanly() {
        let d = tempfile::tempdir().unwrap();
        let runner = JobRunner::new(d.path().join("gone.tianwang"), Arc::new(|| {}));
        let h = runner.spawn(Box::new(Counter {
            steps: 1,
            step_ms: 1,
            fail_at: None,
        }));
        assert!(matches!(h.wait(), JobState::Failed { .. }));
        assert!(!d.path().join("gone.tianwang").exists());
    }
}
