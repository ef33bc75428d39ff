//! The query-log statistics (book ch. 9, [L3162–L3393]) on DataFusion or Spark, equal to the
//! native engine. The log reaches the engine as a `querylog` Parquet file (`QUERYLOG`, one
//! row per record: time, user, raw and normalised query, page, rank, order, URL …); one plan
//! of plain SQL aggregates (the same text on both engines) counts what the statistics read,
//! and the counts go through the same
//! [`Counts::finish`](crate::engine::querylog::stats::Counts::finish) as the native collector's, so every
//! formula after the counting is shared.
//!
//! | statistic | from the plan |
//! |---|---|
//! | volume, top queries, rank–frequency, coverage, lengths | `queries`: each normalised query's requests and first position (its id) |
//! | sessions | `LAG(time_s) OVER (PARTITION BY user_hash ORDER BY pos)`: gaps over the limit, plus the users |
//! | repeat decay (9-3), deviation S (9-4) | `groups`: requests per (group of G requests, query) |
//! | self-similarity (R/S, variance–time, levels) | `levels`: distinct queries per group at each level |
//! | pages (9-5), click ranks | `pages`, `ranks`, `page_pairs` (per (user, query) distinct pages) |
//! | URLs and the cosine (9-6) | `urls` (URLs per click count), `cosine` (per (top query, URL) clicks) |
//! | time of day | `hours` |
//!
//! The ordered stream is read through per-group counts only: the position of a request among
//! those kept (`pos`) is `seq` when no filter is set (the log is streamed by every output),
//! else `ROW_NUMBER() OVER (ORDER BY seq)` over the filtered rows, materialised once.
//! What stays in Rust: reading and normalising the log (the export), the user-sample decision
//! (a hash of each distinct user, written as a small `users` table the plan joins), jieba word
//! counts of the distinct queries, and the fits (Zipf, Hurst) over the counts.
//!
//! Feature `bigjobs`; the always-built dispatch is [`super::stats_on`]. The files: [`export`]
//! (a log into the `querylog` schema), [`plan`] (the SQL), [`read`] (the rows and the plan's
//! outputs read back as [`Counts`](crate::engine::querylog::stats::Counts)).
//!
//! ```no_run
//! use tianwang::engine::exec::{Engine, EngineConfig};
//! use tianwang::engine::querylog::{job::LogSource, read::ReadConfig, stats::StatsConfig, stats_on, Format};
//! let src = LogSource::File { path: "SogouQ.sample".into(), read: ReadConfig::new(Format::Sogouq) };
//! let out = stats_on(&src, &StatsConfig::default(), &EngineConfig::new(Engine::DataFusion), None, &())?;
//! println!("{} requests", out.stats.volume.requests);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod export;
pub mod plan;
pub mod read;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{ArrayRef, RecordBatch};
use datafusion::arrow::datatypes::DataType;

use crate::engine::error::{EngineError, Result};
use crate::engine::exec::schema::{Col, SchemaDef, c};
use crate::engine::exec::{EngineConfig, parquet_io};
use crate::engine::jobs::Tick;
use crate::engine::querylog::job::{LogSource, Phase, StatsOutput};
use crate::engine::querylog::stats::StatsConfig;
pub use export::export_file;
pub(crate) use export::export_stored;
pub use plan::plan;
pub use read::{counts, read_rows};

/// Query-log records, one row each, in file order.
pub(crate) const QUERYLOG: SchemaDef = SchemaDef {
    name: "querylog",
    version: 1,
    doc: "One row per valid record of a query or click log, in file order: what \
          `engine::querylog::Record` holds, the query also normalised (the steps in the file \
          metadata `tianwang.normalise`). Hashes are `querylog::hash64` bits as signed i64.",
    columns: &[
        c(
            "seq",
            Col::I64,
            false,
            "0-based position among the log's records",
        ),
        c(
            "line",
            Col::I64,
            false,
            "1-based line number in the source file",
        ),
        c(
            "time_s",
            Col::I64,
            true,
            "seconds since 1970-01-01 (naive local) when dated, else seconds of the day",
        ),
        c("dated", Col::I32, false, "1 when `time` carries a date"),
        c("user", Col::Str, false, "user id or IP; empty when absent"),
        c("user_hash", Col::I64, true, "hash64(user); null when empty"),
        c("query", Col::Str, false, "the query as logged"),
        c(
            "norm",
            Col::Str,
            false,
            "the normalised query (what is counted)",
        ),
        c("page", Col::I32, true, "result page field of a query log"),
        c(
            "click_rank",
            Col::I32,
            true,
            "rank of the clicked URL (1-based)",
        ),
        c("click_order", Col::I32, true, "order of the click (SogouQ)"),
        c("url", Col::Str, true, "clicked URL"),
        c(
            "url_hash",
            Col::I64,
            true,
            "hash64(url); null when absent or empty",
        ),
        c(
            "cache",
            Col::Str,
            true,
            "the Tianwang query log's cache flag",
        ),
        c(
            "result_page",
            Col::I32,
            true,
            "the page field, else rank/10 rounded up (Record::result_page)",
        ),
    ],
};

/// A stored log without a workspace: the user's flag to fix.
pub(super) fn need_workspace() -> EngineError {
    EngineError::invalid("--workspace", "a stored log needs a workspace")
}

/// Export, plan, read back, finish (see the module doc).
pub fn run(
    source: &LogSource,
    cfg: &StatsConfig,
    engine: &EngineConfig,
    workspace: Option<&Path>,
    work: &Path,
    tick: &dyn Tick,
) -> Result<StatsOutput> {
    let t0 = Instant::now();
    let log = work.join("querylog.parquet");
    let phase = Phase(tick, 0.0, 0.3);
    let (read, _, seen) = export::export(
        source,
        workspace,
        cfg.normalise,
        &log,
        cfg.user_sample_pct.is_some(),
        &phase,
    )?;
    let export_s = t0.elapsed().as_secs_f64();
    let users = match cfg.user_sample_pct {
        Some(pct) => {
            let mut hs: Vec<i64> = seen
                .into_iter()
                .filter(|&h| plan::sampled(Some(h), cfg, pct))
                .map(|h| h as i64)
                .collect();
            hs.sort_unstable();
            let path = work.join("users.parquet");
            let schema = Arc::new(datafusion::arrow::datatypes::Schema::new(vec![
                datafusion::arrow::datatypes::Field::new("user_hash", DataType::Int64, false),
            ]));
            let batch = RecordBatch::try_new(
                schema.clone(),
                vec![Arc::new(datafusion::arrow::array::Int64Array::from(hs)) as ArrayRef],
            )
            .map_err(|e| EngineError::Internal(e.to_string()))?;
            parquet_io::write_file(&path, schema, &[batch], &[])?;
            Some((path, plan::sampled(None, cfg, pct)))
        }
        None => None,
    };
    let p = plan(&log, users.as_ref().map(|(p, k)| (p.as_path(), *k)), cfg);
    let out = work.join("out");
    let report = crate::engine::exec::run_plan(&p, &out, engine, &Phase(tick, 0.3, 0.9))?;
    let t1 = Instant::now();
    let counts = counts(&out, cfg)?;
    let stats = counts.finish(&Phase(tick, 0.9, 1.0))?;
    let mut phases_s = vec![("exporting".to_string(), export_s)];
    phases_s.push((format!("{} plan", report.engine), report.total_s));
    phases_s.push(("finishing".to_string(), t1.elapsed().as_secs_f64()));
    Ok(StatsOutput {
        read: Some(read),
        stats,
        elapsed_s: t0.elapsed().as_secs_f64(),
        phases_s,
    })
}
