//! Helpers shared by the tests that drive the real binary (`tests/*.rs` through `common`, the
//! big jobs' tests through `bigjobs_common`): the binary with a data folder of its own, a run,
//! a successful run's JSON, a scratch folder, a written fixture, the shared data sets, and the
//! check that bad input exits 2 naming what is wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// The `tianwang` binary with `data_dir` as its data folder (where the default workspace
/// lives), without colour. The data sets' folder is not inherited (`TIANWANG_DATA`, which CI
/// sets): a test that needs the sets passes `--data` (see [`shared_data`]).
pub fn bin_in(data_dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tianwang"));
    c.env("TIANWANG_DATA_DIR", data_dir)
        .env_remove("TIANWANG_DATA")
        .env("NO_COLOR", "1");
    c
}

/// The `tianwang` binary with a data folder of its own for each call (tests run in parallel:
/// two first runs must not create one default workspace together, nor touch the user's).
pub fn bin() -> Command {
    sweep_dead_runs();
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    bin_in(&std::env::temp_dir().join(format!(
        "tianwang-{}-data-{}-{n}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    )))
}

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run tianwang")
}

/// Runs the binary with `args` and `data_dir` as its data folder.
pub fn run_in(data_dir: &Path, args: &[&str]) -> Output {
    bin_in(data_dir).args(args).output().expect("run tianwang")
}

/// Runs the binary with `--workspace ws` and `args`.
pub fn run_ws(ws: &Path, args: &[&str]) -> Output {
    bin()
        .arg("--workspace")
        .arg(ws)
        .args(args)
        .output()
        .expect("run tianwang")
}

/// A workspace `dir/w.tianwang` with the sample web loaded into it (`sample load`).
pub fn sample_workspace(dir: &Path) -> PathBuf {
    let ws = dir.join("w.tianwang");
    ok_json(&run_ws(&ws, &["sample", "load", "--json"]));
    ws
}

/// [`sample_workspace`] in `dir` and its pages exported to `dir/web.warc` (plain WARC):
/// (workspace, WARC file).
pub fn sample_warc(dir: &Path) -> (PathBuf, PathBuf) {
    let ws = sample_workspace(dir);
    let warc = dir.join("web.warc");
    ok_json(&run_ws(
        &ws,
        &[
            "export",
            "--format",
            "warc",
            "--out",
            path_str(&warc),
            "--json",
        ],
    ));
    (ws, warc)
}

/// The one JSON document a run printed, after checking that it exited 0 (else its stderr).
pub fn ok_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not one JSON document ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    })
}

/// Checks that `args` exits 2 (the user's bad input) with `must_name` in its message.
pub fn exits_2_naming(args: &[&str], must_name: &str) {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(must_name),
        "{args:?}: `{must_name}` not in {err}"
    );
}

/// A new empty folder named after `name`, of this test binary, in the temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    // Tests run in parallel threads of one process: every call gets its own folder (two tests
    // once shared one, and one's broken file broke the other).
    sweep_dead_runs();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "tianwang-{}-test-{}-{n}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Once per test process: removes the folders [`scratch`] and [`bin`] made for this test binary
/// in earlier runs whose process has ended (a test keeps its folder to be looked at after a
/// failure, so without this every run left hundreds of megabytes in the temporary folder).
/// Linux only: whether a process lives is read from `/proc`.
fn sweep_dead_runs() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        let crate_name = env!("CARGO_CRATE_NAME");
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(rest) = name
                .to_str()
                .and_then(|n| n.strip_prefix("tianwang-"))
                .and_then(|n| n.strip_prefix(crate_name))
                .and_then(|n| {
                    n.strip_prefix("-test-")
                        .or_else(|| n.strip_prefix("-data-"))
                })
            else {
                continue;
            };
            let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
                continue;
            };
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
}

/// Writes `bytes` to `dir/name` and returns the path as a string (for `args`).
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

/// A path as `&str` (for `args`).
pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `rel` in the data folder CI installed (`$TIANWANG_DATA`), else under the shared data folder
/// beside the checkout, or None (the caller skips) when it is missing — a failure under CI,
/// where the data must be there.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TIANWANG_DATA").filter(|d| !d.is_empty()) {
        let p = PathBuf::from(d).join(rel);
        if p.exists() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel);
    if p.exists() {
        return Some(p);
    }
    skip(&format!("{} missing", p.display()));
    None
}

/// A test (or part of one) that cannot run here — no data, no Spark, no Java, no CJK font.
/// Under CI (`CI` set) that is a failure: a check that silently passed proves nothing.
/// Elsewhere a `SKIPPED: reason` line is written straight to the process's stderr, past the
/// test harness's capture, so the run's output shows it whether the test passes or not
/// (`.ci/run` counts these lines at the end).
pub fn skip(reason: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "cannot run under CI: {reason}"
    );
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {reason}");
}

/// Checks that every field the Jobs panel shows of every logged run in `ws` (its result's
/// summary) has a name in the Chinese and the English table, so a zh user reads no English
/// key: `field.KEY` in `assets/i18n`. Returns how many runs were checked.
pub fn result_fields_are_named(ws: &Path) -> usize {
    use tianwang::ui::{Lang, result_field_keys};
    let log = ok_json(&run_ws(ws, &["jobs", "--json"]));
    let jobs = log["jobs"].as_array().expect("the log's runs").clone();
    let mut missing = std::collections::BTreeSet::new();
    for j in &jobs {
        for k in result_field_keys(&j["result"]) {
            for lang in [Lang::Zh, Lang::En] {
                if lang.t_dyn(&format!("field.{k}")).is_none() {
                    missing.insert(format!("{} field.{k} ({lang:?})", j["kind"]));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "result fields without a name: {missing:?}"
    );
    jobs.len()
}
