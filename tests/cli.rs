//! The real binary, driven as a user would: exit codes, JSON on stdout, untouched bad files,
//! and a job killed with SIGKILL showing as interrupted.

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{bin_in, ok_json, run_in};

#[test]
fn jobs_on_a_new_workspace_prints_an_empty_log() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("NEW.sqlite");
    let out = run_in(
        d.path(),
        &["jobs", "--workspace", ws.to_str().unwrap(), "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = ok_json(&out);
    assert_eq!(v["jobs"], serde_json::json!([]));
    assert!(ws.exists());
    // Human output too.
    let out = run_in(d.path(), &["jobs", "--workspace", ws.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no jobs"));
}

#[test]
fn a_text_file_is_refused_with_exit_2_and_left_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("notes.txt");
    let content = "这不是工作区。\nJust notes.\n".repeat(50);
    std::fs::write(&f, &content).unwrap();
    for args in [
        vec!["jobs", "--json"],
        vec!["info"],
        vec!["calibrate", "--seconds", "1"],
    ] {
        let mut a = args.clone();
        a.extend(["--workspace", f.to_str().unwrap()]);
        let out = run_in(d.path(), &a);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("not a Tianwang workspace") && err.contains("notes.txt"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "nothing on stdout on error");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), content);
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "no side files: {names:?}");
    }
}

#[test]
fn bad_parameters_exit_2_with_a_message() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    let w = ws.to_str().unwrap();
    let out = run_in(d.path(), &["calibrate", "--seconds", "0", "--workspace", w]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seconds"));
    let out = run_in(d.path(), &["jobs", "--status", "weird", "--workspace", w]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("status"));
    let out = run_in(d.path(), &["no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run_in(
        d.path(),
        &["info", "--workspace", "/no/such/folder/w.tianwang"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    // Overflowing or unbounded crawl parameters are refused by name, never a panic.
    for mix in ["1:4294967295", "0:1", "1:x"] {
        let out = run_in(
            d.path(),
            &[
                "crawl",
                "--seed",
                "http://a.localhost/",
                "--strategy",
                "weight",
                "--mix",
                mix,
                "--workspace",
                w,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "--mix {mix}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("mix"),
            "--mix {mix}"
        );
    }
}

#[test]
fn calibrate_is_logged_in_the_experiment_log() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    let w = ws.to_str().unwrap();
    let out = run_in(
        d.path(),
        &["calibrate", "--seconds", "0.6", "--json", "--workspace", w],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = ok_json(&out);
    assert!(v["md5_pages_per_s"].as_f64().unwrap() > 0.0);
    assert!(v["sqlite_pages_per_s"].as_f64().unwrap() > 0.0);

    let log = ok_json(&run_in(d.path(), &["jobs", "--json", "--workspace", w]));
    let jobs = log["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0]["kind"], "calibrate");
    assert_eq!(jobs[0]["status"], "done");
    assert_eq!(jobs[0]["params"]["seconds"], 0.6);
    assert_eq!(jobs[0]["result"]["md5_pages"], v["md5_pages"]);

    let filtered = ok_json(&run_in(
        d.path(),
        &["jobs", "--json", "--status", "failed", "--workspace", w],
    ));
    assert_eq!(filtered["jobs"], serde_json::json!([]));

    let info = ok_json(&run_in(d.path(), &["info", "--json", "--workspace", w]));
    assert_eq!(info["jobs"], 1);
    assert_eq!(info["pages"], 0);
}

#[test]
fn default_workspace_lives_in_the_data_dir() {
    let d = tempfile::tempdir().unwrap();
    let out = run_in(d.path(), &["info", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = ok_json(&out);
    assert!(d.path().join("workspace.tianwang").exists());
    assert_eq!(
        v["path"],
        d.path().join("workspace.tianwang").to_str().unwrap()
    );
}

#[cfg(unix)]
#[test]
fn sigkill_during_a_job_leaves_it_interrupted() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    let w = ws.to_str().unwrap();
    let mut child = bin_in(d.path())
        .args(["calibrate", "--seconds", "120", "--workspace", w])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "job never showed as running");
        if ws.exists() {
            let out = run_in(d.path(), &["jobs", "--json", "--workspace", w]);
            if out.status.success() && ok_json(&out)["jobs"][0]["status"] == "running" {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    let out = run_in(d.path(), &["jobs", "--json", "--workspace", w]);
    assert!(out.status.success(), "workspace reopens after SIGKILL");
    let v = ok_json(&out);
    assert_eq!(v["jobs"][0]["status"], "interrupted", "{v}");
    assert!(v["jobs"][0]["error"].as_str().unwrap().contains("stopped"));
    // And it stays a healthy workspace.
    let info = run_in(d.path(), &["info", "--json", "--workspace", w]);
    assert!(info.status.success());
}
