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
    // Measured here: a few ms (the job polls between 2 ms steps). The bound only separates
    // "cancel works" from "the job ran on": 100,000 steps of 2 ms would take 200 s.
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());

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
    // The code travels with the message, for the UI to say it in the user's language.
    assert_eq!(
        f("failed")[0].error_code,
        Some(ErrorCode::new(
            "error.invalid_param",
            vec!["steps".into(), "told to fail".into()],
        ))
    );
    assert_eq!(f("cancelled").len(), 1);
    assert_eq!(f("cancelled")[0].error_code, None);
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
            code,
        } => {
            assert!(message.contains("kaboom"));
            assert!(!user_error);
            assert_eq!(code.key, "error.internal");
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
    reap_interrupted(&ws).unwrap();
    let log = list_jobs(&ws, &JobFilter::default()).unwrap();
    let status = |k: &str| log.iter().find(|j| j.kind == k).unwrap().status.clone();
    if cfg!(target_os = "linux") {
        assert_eq!(status("a"), "interrupted");
    }
    assert_eq!(status("b"), "interrupted");
    assert_eq!(status("c"), "running");
    let b = log.iter().find(|j| j.kind == "b").unwrap();
    assert_eq!(b.duration_s, Some(5.0));
    assert_eq!(b.error_code, Some(ErrorCode::interrupted()));
}

/// A job holding a long write transaction cannot stamp its heartbeat: with the process's
/// start time recorded, a live process keeps its row `running` however stale the stamp,
/// and a reused pid (same pid, another start time) is recognised as gone.
#[test]
fn liveness_is_pid_and_start_time_not_the_heartbeat() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let (_d, runner) = setup();
    let ws = Workspace::open_existing(runner.workspace_path()).unwrap();
    let pid = i64::from(std::process::id());
    let start = process_start(pid).expect("/proc/self/stat has a start time");
    ws.conn()
        .execute(
            "INSERT INTO jobs(kind, params, status, started_at, heartbeat_at, pid, proc_start) VALUES
             ('busy','{}','running','2020-01-01T00:00:00.000Z','2020-01-01T00:00:05.000Z', ?1, ?2),
             ('reused','{}','running','2020-01-01T00:00:00.000Z','2020-01-01T00:00:05.000Z', ?1, '1')",
            (pid, &start),
        )
        .unwrap();
    reap_interrupted(&ws).unwrap();
    let log = list_jobs(&ws, &JobFilter::default()).unwrap();
    let status = |k: &str| log.iter().find(|j| j.kind == k).unwrap().status.clone();
    assert_eq!(status("busy"), "running");
    assert_eq!(status("reused"), "interrupted");
}

#[test]
fn a_job_knows_its_own_row() {
    struct WhoAmI;
    impl Job for WhoAmI {
        fn kind(&self) -> &'static str {
            "whoami"
        }
        fn params(&self) -> Value {
            Value::Null
        }
        fn run(&mut self, cx: &JobContext) -> Result<Value> {
            Ok(serde_json::json!(cx.job_id()))
        }
    }
    let (_d, runner) = setup();
    let (a, b) = (
        runner.spawn(Box::new(WhoAmI)),
        runner.spawn(Box::new(WhoAmI)),
    );
    let (JobState::Done(va), JobState::Done(vb)) = (a.wait(), b.wait()) else {
        panic!("both finish");
    };
    assert_eq!(va.as_i64(), a.snapshot().id);
    assert_eq!(vb.as_i64(), b.snapshot().id);
    assert_ne!(va, vb);
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
