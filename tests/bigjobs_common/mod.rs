//! Helpers shared by the big jobs' integration tests (`tests/bigjobs_*.rs`, feature `bigjobs`):
//! the binary, a successful run's JSON, and whether Spark can run here.

#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// The `tianwang` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tianwang"))
}

/// The JSON document a run printed, after checking it exited 0 (else its stderr).
pub fn ok_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Spark can run: the python the driver uses (`TIANWANG_SPARK_PYTHON`, else the venv
/// `scale/setup.sh` makes) imports pyspark, and `java` runs. Otherwise the test says why it
/// skips the Spark case — unless `TIANWANG_REQUIRE_SPARK=1` (scale/check.sh), where a missing
/// Spark fails.
pub fn spark_ready() -> bool {
    let py = tianwang::engine::exec::spark::python();
    let ok = Command::new(&py)
        .args(["-c", "import pyspark"])
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("java").arg("-version").output().is_ok();
    if !ok {
        assert!(
            std::env::var("TIANWANG_REQUIRE_SPARK").as_deref() != Ok("1"),
            "TIANWANG_REQUIRE_SPARK=1 but {} has no pyspark or java is missing: run scale/setup.sh",
            py.display()
        );
        eprintln!(
            "SKIP Spark: no pyspark in {} or no java (run scale/setup.sh)",
            py.display()
        );
    }
    ok
}
