//! Helpers shared by the big jobs' integration tests (`tests/bigjobs_*.rs`, feature `bigjobs`):
//! those of every test of the binary (`tests/common/cli.rs`: the binary, a run, a successful
//! run's JSON, a scratch folder …) and whether Spark can run here.

#![allow(dead_code)]

#[path = "../common/cli.rs"]
mod cli;

use std::process::Command;

#[allow(unused_imports)]
pub use cli::*;

/// Spark can run: the python the driver uses (`TIANWANG_SPARK_PYTHON`, else the venv
/// `scale/setup.sh` makes) imports pyspark, and `java` runs. Otherwise the test says why it
/// skips the Spark case with a visible `SKIPPED:` line ([`skip`]) — unless
/// `TIANWANG_REQUIRE_SPARK=1` (scale/check.sh) or `CI` is set, where a missing Spark fails.
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
        skip(&format!(
            "Spark: no pyspark in {} or no java (run scale/setup.sh)",
            py.display()
        ));
    }
    ok
}
