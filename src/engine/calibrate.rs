//! Calibration: how fast is this machine at the crawler's two inner loops?
//!
//! A crawler computes the MD5 digest of every page it fetches, to tell content it has seen
//! before (ch. 3 §3.10, [L1188–1202]), and writes every page to its store. This job measures
//! both on a page of the book's average size, 13 KB ([L1138]), for a set time: MD5 throughput
//! (MB/s and pages/s) and SQLite inserts of 13 KB pages (pages/s, in a scratch database in the
//! system temp folder, WAL, 25 pages per transaction). The capacity calculator compares these
//! with the network-bound figures of [L1138–1154] (8,333 frames/s at 100 Mbit/s).
//!
//! ```no_run
//! use tianwang::engine::calibrate::{Calibrate, CalibrateParams};
//! let job = Calibrate::new(CalibrateParams { seconds: 4.0 })?; // validated here
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::time::{Duration, Instant};

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::JobContext;
use crate::engine::jobs::TypedJob;

/// The book's average page size: 13 KB ([L1138]; KB = 1024 B).
pub(crate) const PAGE_BYTES: usize = 13 * 1024;
pub(crate) const MIN_SECONDS: f64 = 0.5;
pub(crate) const MAX_SECONDS: f64 = 600.0;

/// Raw parameters as given by the GUI or the CLI.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CalibrateParams {
    /// Total measuring time, split evenly between the two measurements.
    pub seconds: f64,
}

impl Default for CalibrateParams {
    fn default() -> Self {
        CalibrateParams { seconds: 4.0 }
    }
}

/// The calibration job (validated parameters).
#[derive(Debug, Clone)]
pub struct Calibrate {
    seconds: f64,
}

impl Calibrate {
    pub fn new(p: CalibrateParams) -> Result<Self> {
        if !p.seconds.is_finite() || !(MIN_SECONDS..=MAX_SECONDS).contains(&p.seconds) {
            return Err(EngineError::invalid(
                "seconds",
                format!(
                    "{} is out of range; use {MIN_SECONDS} to {MAX_SECONDS}",
                    p.seconds
                ),
            ));
        }
        Ok(Calibrate { seconds: p.seconds })
    }

    /// Parameters from a past run's JSON (the experiment log's "re-open").
    pub(crate) fn params_from_json(v: &Value) -> Result<CalibrateParams> {
        serde_json::from_value(v.clone())
            .map_err(|e| EngineError::invalid("params", format!("not calibrate parameters: {e}")))
    }
}

/// Deterministic filler that does not compress to nothing (xorshift).
fn page_bytes() -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..PAGE_BYTES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x & 0xFF) as u8
        })
        .collect()
}

/// What a calibration measured.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CalibrateResult {
    /// Wall time of the whole run.
    pub seconds: f64,
    pub page_bytes: usize,
    pub md5_pages: u64,
    pub md5_mb_per_s: f64,
    pub md5_pages_per_s: f64,
    pub sqlite_pages: u64,
    pub sqlite_pages_per_s: f64,
}

impl TypedJob for Calibrate {
    const KIND: &'static str = "calibrate";
    type Params = CalibrateParams;
    type Output = CalibrateResult;

    fn from_params(p: CalibrateParams) -> Result<Self> {
        Calibrate::new(p)
    }

    fn params(&self) -> CalibrateParams {
        CalibrateParams {
            seconds: self.seconds,
        }
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<CalibrateResult> {
        let total = Duration::from_secs_f64(self.seconds);
        let half = total / 2;
        let page = page_bytes();
        let started = Instant::now();

        // Phase 1: MD5 over 13 KB pages.
        let mut pages: u64 = 0;
        let t = Instant::now();
        let mut sink = 0u8;
        while t.elapsed() < half {
            cx.check_cancel()?;
            for _ in 0..16 {
                let d = Md5::digest(&page);
                sink ^= d[0];
                pages += 1;
            }
            let f = started.elapsed().as_secs_f64() / total.as_secs_f64();
            cx.progress(f as f32, "MD5");
            cx.counter("md5_pages", pages as f64);
        }
        std::hint::black_box(sink);
        let md5_s = t.elapsed().as_secs_f64();
        let md5_pages_per_s = pages as f64 / md5_s;

        // Phase 2: 13 KB page inserts into a scratch SQLite database.
        let dir = std::env::temp_dir();
        let scratch = dir.join(format!(
            "tianwang-calibrate-{}-{}.sqlite",
            std::process::id(),
            chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0)
        ));
        let result = sqlite_phase(cx, &scratch, &page, half, started, total);
        crate::engine::store::remove_database_files(&scratch);
        let (rows, sql_s) = result?;
        cx.progress(1.0, "done");
        Ok(CalibrateResult {
            seconds: started.elapsed().as_secs_f64(),
            page_bytes: PAGE_BYTES,
            md5_pages: pages,
            md5_mb_per_s: md5_pages_per_s * PAGE_BYTES as f64 / 1e6,
            md5_pages_per_s,
            sqlite_pages: rows,
            sqlite_pages_per_s: rows as f64 / sql_s,
        })
    }
}

fn sqlite_phase(
    cx: &JobContext,
    scratch: &std::path::Path,
    page: &[u8],
    budget: Duration,
    started: Instant,
    total: Duration,
) -> Result<(u64, f64)> {
    let io = |e: rusqlite::Error| EngineError::Io {
        path: scratch.into(),
        source: std::io::Error::other(e),
    };
    let mut conn = rusqlite::Connection::open(scratch).map_err(io)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(io)?;
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(io)?;
    conn.execute(
        "CREATE TABLE p(id INTEGER PRIMARY KEY, md5 BLOB, raw BLOB)",
        [],
    )
    .map_err(io)?;
    let t = Instant::now();
    let mut rows: u64 = 0;
    while t.elapsed() < budget {
        cx.check_cancel()?;
        let tx = conn.transaction().map_err(io)?;
        {
            let mut st = tx
                .prepare_cached("INSERT INTO p(md5, raw) VALUES (?1, ?2)")
                .map_err(io)?;
            for _ in 0..25 {
                let d = Md5::digest(page);
                st.execute((&d[..], page)).map_err(io)?;
                rows += 1;
            }
        }
        tx.commit().map_err(io)?;
        let f = started.elapsed().as_secs_f64() / total.as_secs_f64();
        cx.progress(f as f32, "SQLite");
        cx.counter("sqlite_pages", rows as f64);
    }
    Ok((rows, t.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::jobs::{JobRunner, JobState};
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn parameters_are_validated() {
        for bad in [0.0, -1.0, f64::NAN, 601.0] {
            let e = Calibrate::new(CalibrateParams { seconds: bad }).unwrap_err();
            assert!(
                e.is_user_error() && e.to_string().contains("seconds"),
                "{e}"
            );
        }
        let ok = Calibrate::new(CalibrateParams { seconds: 1.5 }).unwrap();
        let back = Calibrate::params_from_json(&crate::engine::jobs::Job::params(&ok)).unwrap();
        assert_eq!(back, CalibrateParams { seconds: 1.5 });
        assert!(Calibrate::params_from_json(&json!({"x": 1})).is_err());
    }

    #[test]
    fn measures_real_throughput() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        crate::engine::store::Workspace::open_or_create(&p).unwrap();
        let runner = JobRunner::new(p, Arc::new(|| {}));
        let job = Calibrate::new(CalibrateParams { seconds: 0.5 }).unwrap();
        let JobState::Done(v) = runner.spawn(Box::new(job)).wait() else {
            panic!("calibration failed")
        };
        let r = Calibrate::decode(&v).unwrap();
        assert!(r.md5_pages_per_s > 0.0 && r.sqlite_pages_per_s > 0.0, "{v}");
        assert!(r.md5_pages >= 16);
        assert!((r.md5_mb_per_s - r.md5_pages_per_s * PAGE_BYTES as f64 / 1e6).abs() < 1e-6);
    }
}
