//! A workspace in trouble — cut short, read-only — through the real binary: the message says
//! what is wrong, the exit code is 2 (the user can act on it), and the file is not changed.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{run_ws, sample_workspace};

fn loaded(dir: &Path) -> std::path::PathBuf {
    let ws = sample_workspace(dir);
    // Checkpoint the write-ahead log into the file, as a closed workspace is copied.
    let out = run_ws(&ws, &["info", "--json"]);
    assert!(out.status.success());
    ws
}

#[test]
fn a_truncated_workspace_is_refused_and_left_as_it_is() {
    let d = tempfile::tempdir().unwrap();
    let ws = loaded(d.path());
    let cut = d.path().join("cut.tianwang");
    let bytes = std::fs::read(&ws).unwrap();
    assert!(bytes.len() > 64 * 1024, "the sample web makes a real file");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let before = std::fs::read(&cut).unwrap();
    let out = run_ws(&cut, &["info", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cut short") && err.contains("bytes"), "{err}");
    assert_eq!(std::fs::read(&cut).unwrap(), before, "not modified");
}

#[test]
fn a_read_only_workspace_reads_and_refuses_writes_untouched() {
    let d = tempfile::tempdir().unwrap();
    let ws = loaded(d.path());
    // No write-ahead log left behind, so the file alone is the workspace.
    let _ = std::fs::remove_file(d.path().join("w.tianwang-wal"));
    let _ = std::fs::remove_file(d.path().join("w.tianwang-shm"));
    std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&ws).unwrap();

    let out = run_ws(&ws, &["info", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["read_only"], true);
    assert!(v["pages"].as_i64().unwrap() >= 400, "everything reads");
    let out = run_ws(&ws, &["pages", "--json"]);
    assert!(out.status.success());

    let out = run_ws(&ws, &["calibrate", "--seconds", "0.5", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read(&ws).unwrap(), before, "not modified");
    std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o644)).unwrap();
}
