//! A big job's plan, written once and read by every engine: named Parquet inputs, then SQL
//! steps — lazy views, outputs written as Parquet, and loops (PageRank's iterated join +
//! aggregate) that replace a state table until a delta falls under a tolerance. The DataFusion
//! driver ([`super::datafusion::run_plan`]) and the PySpark driver (`scale/spark/run_plan.py`,
//! which reads this struct as JSON) interpret it the same way, so the SQL is not written twice.
//!
//! The SQL keeps to what both dialects share: `GROUP BY`, joins, `CASE`, `&` and `^` on
//! `BIGINT`, `bit_count` (a registered UDF on DataFusion, built into Spark), `CAST`, `SUM`,
//! `COUNT`, `MIN`, `MAX`, `ABS`. No `>>` (Spark 3 lacks it): shifts are precomputed in Rust.
//!
//! ```
//! use tianwang::engine::exec::plan::{Plan, Step};
//! let p = Plan::new("md5")
//!     .input("sig", "/tmp/sig.parquet")
//!     .output("groups", "SELECT md5_hi, md5_lo, COUNT(*) AS n FROM sig GROUP BY md5_hi, md5_lo");
//! assert_eq!(p.steps.len(), 1);
//! let back: Plan = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
//! assert_eq!(back, p);
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A named Parquet input: a file, or a directory of `*.parquet` files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub name: String,
    pub path: PathBuf,
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Step {
    /// Table `name` := `sql`, lazily (planned together with what reads it).
    View { name: String, sql: String },
    /// Table `name` := `sql`, computed now and kept (a loop's state; small tables read often).
    Table { name: String, sql: String },
    /// Run `sql` and write it as Parquet to `<out>/<name>/`.
    Output { name: String, sql: String },
    /// Repeat: run `body`, then `state` := the table `next` (materialised); stop when
    /// `delta_sql` (one row, one `DOUBLE`) is below `tol`, or after `max_iter` passes. Each
    /// pass's delta is reported.
    Loop {
        state: String,
        next: String,
        body: Vec<Step>,
        delta_sql: String,
        tol: f64,
        max_iter: usize,
    },
}

/// A job as SQL over Parquet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub name: String,
    pub inputs: Vec<Input>,
    pub steps: Vec<Step>,
}

impl Plan {
    pub fn new(name: &str) -> Plan {
        Plan {
            name: name.into(),
            inputs: Vec::new(),
            steps: Vec::new(),
        }
    }

    pub fn input(mut self, name: &str, path: impl Into<PathBuf>) -> Plan {
        self.inputs.push(Input {
            name: name.into(),
            path: path.into(),
        });
        self
    }

    pub fn view(mut self, name: &str, sql: impl Into<String>) -> Plan {
        self.steps.push(Step::View {
            name: name.into(),
            sql: sql.into(),
        });
        self
    }

    pub fn table(mut self, name: &str, sql: impl Into<String>) -> Plan {
        self.steps.push(Step::Table {
            name: name.into(),
            sql: sql.into(),
        });
        self
    }

    pub fn output(mut self, name: &str, sql: impl Into<String>) -> Plan {
        self.steps.push(Step::Output {
            name: name.into(),
            sql: sql.into(),
        });
        self
    }

    pub fn step(mut self, s: Step) -> Plan {
        self.steps.push(s);
        self
    }
}

#[cfg(feature = "bigjobs")]
/// What a driver reports after running a plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub engine: String,
    /// Every loop pass's delta, in order.
    #[serde(default)]
    pub deltas: Vec<f64>,
    /// Seconds per step (`name`, seconds), outputs and materialised tables.
    #[serde(default)]
    pub steps: Vec<(String, f64)>,
    pub total_s: f64,
    /// Bytes DataFusion spilled to disk (0 on Spark, which reports none back).
    #[serde(default)]
    pub spilled_bytes: u64,
    /// Peak resident memory of an engine outside this process, in MB (Spark's JVM; 0 for
    /// DataFusion, whose memory is this process's own).
    #[serde(default)]
    pub engine_peak_rss_mb: f64,
}
