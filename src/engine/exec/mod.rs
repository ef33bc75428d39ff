//! Big jobs beyond one process: the dedup, index, query-log and PageRank jobs run on an
//! existing engine — Apache DataFusion in-process over Parquet, or Apache Spark (`local[2]` or a
//! cluster) — with the same parameters and the same answer as the native engine. The book's
//! systems were distributed: Tianwang crawled 47.7 M pages on 12 PCs [L0245–L0250], CCDet ran
//! on Hadoop over 2 M pages (seed 001). A researcher moving a method to a real crawl must not
//! rewrite it.
//!
//! **The plan is written once**: a [`plan::Plan`] is a list of SQL steps (and loops, for
//! PageRank) over named Parquet inputs. The DataFusion driver ([`datafusion`], feature
//! `bigjobs`) and the PySpark driver (`scale/spark/run_plan.py`, launched by [`spark`]) read the
//! same plan, so the SQL a test checks on DataFusion is the SQL Spark runs. The per-document
//! work (segmenting, fingerprints) stays in the workbench's Rust code and reaches the engines as
//! Parquet ([`schema`]): hashes as **signed** `i64` (Spark reads unsigned 64-bit as decimals),
//! popcount as a registered `bit_count` UDF on DataFusion (Spark has it built in).
//!
//! Without the feature only [`Engine::Native`] runs; asking for another engine is the user's
//! bad input (exit 2) naming the flag and the build to use.
//!
//! ```
//! use tianwang::engine::exec::Engine;
//! assert_eq!(Engine::parse("datafusion").unwrap(), Engine::DataFusion);
//! assert!(Engine::parse("hadoop").is_err());
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Result};

pub mod plan;
pub mod scratch;

#[cfg(feature = "bigjobs")]
pub mod datafusion;
#[cfg(feature = "bigjobs")]
pub mod parquet_io;
#[cfg(feature = "bigjobs")]
pub mod schema;
#[cfg(feature = "bigjobs")]
pub mod spark;

/// Where a big job runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The workbench's own Rust code (the default; always built).
    #[default]
    Native,
    /// Apache DataFusion in this process, over Parquet, with a bounded memory pool that spills.
    #[serde(rename = "datafusion")]
    DataFusion,
    /// Apache Spark through PySpark: `local[2]` by default, or the `--cluster` master URL.
    Spark,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Native, Engine::DataFusion, Engine::Spark];

    pub fn name(self) -> &'static str {
        match self {
            Engine::Native => "native",
            Engine::DataFusion => "datafusion",
            Engine::Spark => "spark",
        }
    }

    /// The engine called `s` (the CLI's `--engine`).
    pub fn parse(s: &str) -> Result<Engine> {
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                EngineError::invalid(
                    "--engine",
                    format!("`{s}`: one of native, datafusion, spark"),
                )
            })
    }

    /// True when this build can run the engine.
    pub(crate) fn available(self) -> bool {
        self == Engine::Native || cfg!(feature = "bigjobs")
    }
}

/// Where and how a big job runs: the engine and its resources. Raw flags → [`EngineConfig::new`]
/// → validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    pub engine: Engine,
    /// Spark's master URL (`spark://host:7077`, `local[4]` …); `None` means `local[2]`.
    #[serde(default)]
    pub cluster: Option<String>,
    /// DataFusion's memory pool in MB: operators that would grow past it spill to disk.
    #[serde(default = "default_memory_mb")]
    pub memory_mb: usize,
    /// DataFusion's target partitions (threads of one plan); 0 = the machine's cores.
    #[serde(default)]
    pub partitions: usize,
}

fn default_memory_mb() -> usize {
    1024
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            engine: Engine::Native,
            cluster: None,
            memory_mb: default_memory_mb(),
            partitions: 0,
        }
    }
}

impl EngineConfig {
    pub fn new(engine: Engine) -> EngineConfig {
        EngineConfig {
            engine,
            ..EngineConfig::default()
        }
    }

    /// Check the combination: the engine is built in, a cluster URL only with Spark and of a
    /// form Spark accepts, a memory pool of at least 16 MB.
    pub(crate) fn validate(&self) -> Result<()> {
        if !self.engine.available() {
            return Err(EngineError::invalid(
                "--engine",
                format!(
                    "`{}` needs a build with the `bigjobs` feature: cargo run --release --features bigjobs -- …",
                    self.engine.name()
                ),
            ));
        }
        if let Some(url) = &self.cluster {
            if self.engine != Engine::Spark {
                return Err(EngineError::invalid(
                    "--cluster",
                    "a cluster URL is for `--engine spark`",
                ));
            }
            let ok = url.starts_with("spark://")
                || url.starts_with("local")
                || url.starts_with("yarn")
                || url.starts_with("k8s://");
            if !ok {
                return Err(EngineError::invalid_flaw(
                    "--cluster",
                    Flaw::new("flaw.param_spark_url", &[url]),
                ));
            }
        }
        if self.memory_mb < 16 {
            return Err(EngineError::invalid(
                "--pool-mb",
                "at least 16 MB for the DataFusion memory pool",
            ));
        }
        check_memory_mb("--pool-mb", self.memory_mb)?;
        Ok(())
    }

    /// The cores a plan may use.
    pub fn threads(&self) -> usize {
        if self.partitions > 0 {
            self.partitions
        } else {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        }
    }
}

/// This machine's memory in MB (Linux: `MemTotal` of /proc/meminfo), when it can be known.
pub(crate) fn machine_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// A memory budget in MB from the user's `flag`: at least 1, and no more than the machine has
/// (or 4 TB where that cannot be known), so a budget never sizes an allocation the machine
/// refuses (an abort no error handler catches) nor overflows when shifted into bytes.
pub(crate) fn check_memory_mb(flag: &str, mb: usize) -> Result<()> {
    let most = machine_memory_mb().unwrap_or(4 << 20);
    if mb == 0 || mb as u64 > most {
        return Err(EngineError::invalid_flaw(
            flag,
            Flaw::new("flaw.param_memory_mb", &[&mb, &most]),
        ));
    }
    Ok(())
}

/// Run `plan` on the configured engine (DataFusion or Spark), its outputs in `out/<name>/`.
#[cfg(feature = "bigjobs")]
pub fn run_plan(
    plan: &plan::Plan,
    out: &std::path::Path,
    cfg: &EngineConfig,
    tick: &dyn crate::engine::jobs::Tick,
) -> Result<plan::RunReport> {
    cfg.validate()?;
    match cfg.engine {
        Engine::DataFusion => datafusion::run_plan(plan, out, cfg, tick),
        Engine::Spark => spark::run_plan(plan, out, cfg, tick),
        Engine::Native => Err(EngineError::Internal(
            "a plan runs on DataFusion or Spark; the native engine runs the lab's own code".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_budgets_beyond_the_machine_are_refused() {
        assert!(check_memory_mb("--pool-mb", 0).is_err());
        assert!(check_memory_mb("--pool-mb", 64).is_ok());
        let e = check_memory_mb("--memory-mb", usize::MAX).unwrap_err();
        assert!(e.to_string().contains("--memory-mb"), "{e}");
        assert!(check_memory_mb("--pool-mb", 99_999_999_999).is_err());
    }

    #[test]
    fn engine_names_round_trip() {
        for e in Engine::ALL {
            assert_eq!(Engine::parse(e.name()).unwrap(), e);
            let j = serde_json::to_string(&e).unwrap();
            assert_eq!(j, format!("\"{}\"", e.name()));
        }
    }

    #[test]
    fn config_checks_its_flags() {
        let mut c = EngineConfig::new(Engine::Native);
        assert!(c.validate().is_ok());
        c.cluster = Some("spark://h:7077".into());
        assert!(c.validate().is_err(), "a cluster needs spark");
        c.engine = Engine::Spark;
        if cfg!(feature = "bigjobs") {
            assert!(c.validate().is_ok());
            c.cluster = Some("http://h".into());
            assert!(c.validate().is_err());
        } else {
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains("bigjobs"), "{e}");
        }
    }
}
