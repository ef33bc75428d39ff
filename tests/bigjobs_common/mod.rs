//! Helpers shared by the big jobs' integration tests (`tests/bigjobs_*.rs`, feature `bigjobs`):
//! those of every test of the binary (`tests/common/cli.rs`: the binary, a run, a successful
//! run's JSON, a scratch folder …), whether Spark can run here, and which master the Spark
//! cases use: `local[2]`, or the standalone cluster `scale/check.sh --cluster URL` names
//! (`TIANWANG_SPARK_CLUSTER`), passed to the jobs as `--cluster URL`.

#![allow(dead_code)]

#[path = "../common/cli.rs"]
mod cli;

use std::process::Command;

use tianwang::engine::exec::{Engine, EngineConfig};

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

/// The Spark master the cross-engine tests run on: `TIANWANG_SPARK_CLUSTER` (a `spark://` URL,
/// set by `scale/check.sh --cluster URL`), else `None` for the driver's own `local[2]`.
pub fn spark_cluster() -> Option<String> {
    std::env::var("TIANWANG_SPARK_CLUSTER")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// The Spark engine configuration of the cross-engine tests (the cluster when one is given).
pub fn spark_config() -> EngineConfig {
    EngineConfig {
        cluster: spark_cluster(),
        ..EngineConfig::new(Engine::Spark)
    }
}

/// The CLI flags of the same: `--engine spark [--cluster URL]`.
pub fn spark_flags() -> Vec<String> {
    let mut v = vec!["--engine".to_string(), "spark".to_string()];
    if let Some(u) = spark_cluster() {
        v.extend(["--cluster".to_string(), u]);
    }
    v
}

/// The cluster the cluster-only tests (executor loss, a gone master) need. Under
/// `TIANWANG_REQUIRE_SPARK=1` or `CI` a missing cluster fails the test; otherwise it says why
/// it skips with a visible `SKIPPED:` line.
pub fn cluster_ready() -> Option<String> {
    if !spark_ready() {
        return None;
    }
    let url = spark_cluster();
    if url.is_none() {
        assert!(
            std::env::var("TIANWANG_REQUIRE_SPARK").as_deref() != Ok("1")
                && std::env::var_os("CI").is_none(),
            "a Spark standalone cluster is required here: scale/cluster.sh up && \
             scale/check.sh --cluster spark://127.0.0.1:7077 (TIANWANG_SPARK_CLUSTER unset)"
        );
        skip("no Spark cluster (TIANWANG_SPARK_CLUSTER unset; scale/check.sh --cluster URL)");
    }
    url
}
