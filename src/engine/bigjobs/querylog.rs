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
//! ```no_run
//! use tianwang::engine::bigjobs::{Engine, EngineConfig, querylog};
//! use tianwang::engine::querylog::{job::LogSource, read::ReadConfig, stats::StatsConfig, Format};
//! let src = LogSource::File { path: "SogouQ.sample".into(), read: ReadConfig::new(Format::Sogouq) };
//! let out = querylog::run(&src, &StatsConfig::default(), &EngineConfig::new(Engine::DataFusion), None, &())?;
//! println!("{} requests", out.stats.volume.requests);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::Path;

use crate::engine::error::Result;
use crate::engine::jobs::Tick;
use crate::engine::querylog::job::{LogSource, StatsOutput};
use crate::engine::querylog::stats::StatsConfig;

use super::{Engine, EngineConfig};

/// The statistics of `source` on the configured engine (the native engine runs
/// [`crate::engine::querylog::job::compute`]).
pub fn run(
    source: &LogSource,
    cfg: &StatsConfig,
    engine: &EngineConfig,
    workspace: Option<&Path>,
    tick: &dyn Tick,
) -> Result<StatsOutput> {
    if engine.engine == Engine::Native {
        return crate::engine::querylog::job::compute(source, cfg, workspace, tick);
    }
    engine.validate()?;
    cfg.validate()?;
    #[cfg(feature = "bigjobs")]
    {
        let work = super::dedup::tempfile_dir("querylog")?;
        let out = on_engine::run(source, cfg, engine, workspace, work.path(), tick);
        drop(work);
        out
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = (source, workspace, tick);
        Err(crate::engine::error::EngineError::Internal(
            "unreachable: validate refuses".into(),
        ))
    }
}

#[cfg(feature = "bigjobs")]
pub use on_engine::{FileMeta, QUERYLOG, QlRow, export_file, export_stored, plan, read_rows};

#[cfg(feature = "bigjobs")]
mod on_engine {
    use std::collections::HashMap;
    use std::path::Path;
    use std::sync::Arc;
    use std::time::Instant;

    use datafusion::arrow::array::{
        ArrayRef, AsArray, Int32Builder, Int64Builder, RecordBatch, StringBuilder,
    };
    use datafusion::arrow::datatypes::{DataType, Int64Type};

    use crate::engine::bigjobs::EngineConfig;
    use crate::engine::bigjobs::dedup::on_engine::read_out;
    use crate::engine::bigjobs::parquet_io::{self, AtomicWriter};
    use crate::engine::bigjobs::plan::Plan;
    use crate::engine::bigjobs::schema::{Col, SchemaDef, c};
    use crate::engine::error::{EngineError, Result};
    use crate::engine::jobs::Tick;
    use crate::engine::querylog::job::{LogSource, Phase, StatsOutput};
    use crate::engine::querylog::read::{ReadConfig, ReadSummary, read_file};
    use crate::engine::querylog::stats::{Counts, PagePairs, StatsConfig, selfsim_levels};
    use crate::engine::querylog::{Normalise, Record, hash64, persist};
    use crate::engine::store::Workspace;

    /// Query-log records, one row each, in file order.
    pub const QUERYLOG: SchemaDef = SchemaDef {
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
                "the page field, else ⌈rank/10⌉ (Record::result_page)",
            ),
        ],
    };

    const BATCH: usize = 65_536;

    /// A stored log without a workspace: the user's flag to fix.
    fn need_workspace() -> EngineError {
        EngineError::invalid("--workspace", "a stored log needs a workspace")
    }

    /// Writes records as `querylog` rows, a batch at a time.
    struct RowWriter {
        w: AtomicWriter,
        normalise: Normalise,
        seq: i64,
        rows: usize,
        b: Builders,
        /// The distinct user hashes seen, when asked for (the user sample needs them).
        users: Option<std::collections::HashSet<u64>>,
    }

    #[derive(Default)]
    struct Builders {
        seq: Int64Builder,
        line: Int64Builder,
        time: Int64Builder,
        dated: Int32Builder,
        user: StringBuilder,
        user_hash: Int64Builder,
        query: StringBuilder,
        norm: StringBuilder,
        page: Int32Builder,
        rank: Int32Builder,
        order: Int32Builder,
        url: StringBuilder,
        url_hash: Int64Builder,
        cache: StringBuilder,
        result_page: Int32Builder,
    }

    fn i32_of(v: Option<u32>) -> Option<i32> {
        v.map(|x| x.min(i32::MAX as u32) as i32)
    }

    impl RowWriter {
        fn create(path: &Path, normalise: Normalise, meta: &[(String, String)]) -> Result<Self> {
            let mut m = meta.to_vec();
            m.push((
                "tianwang.normalise".into(),
                serde_json::to_string(&normalise)
                    .map_err(|e| EngineError::Internal(e.to_string()))?,
            ));
            Ok(RowWriter {
                w: AtomicWriter::create(path, QUERYLOG.arrow(), &m)?,
                normalise,
                seq: 0,
                rows: 0,
                b: Builders::default(),
                users: None,
            })
        }

        fn push(&mut self, r: &Record) -> Result<()> {
            let b = &mut self.b;
            b.seq.append_value(self.seq);
            b.line.append_value(r.line as i64);
            b.time.append_option(r.time);
            b.dated.append_value(r.dated as i32);
            b.user.append_value(r.user);
            let uh = (!r.user.is_empty()).then(|| hash64(r.user));
            if let (Some(set), Some(h)) = (self.users.as_mut(), uh) {
                set.insert(h);
            }
            b.user_hash.append_option(uh.map(|h| h as i64));
            b.query.append_value(r.query);
            b.norm.append_value(self.normalise.apply(r.query));
            b.page.append_option(i32_of(r.page));
            b.rank.append_option(i32_of(r.rank));
            b.order.append_option(i32_of(r.order));
            b.url.append_option(r.url);
            b.url_hash
                .append_option(r.url.filter(|u| !u.is_empty()).map(|u| hash64(u) as i64));
            b.cache.append_option(r.cache);
            b.result_page.append_option(i32_of(r.result_page()));
            self.seq += 1;
            self.rows += 1;
            if self.rows >= BATCH {
                self.flush()?;
            }
            Ok(())
        }

        fn flush(&mut self) -> Result<()> {
            if self.rows == 0 {
                return Ok(());
            }
            let b = &mut self.b;
            let cols: Vec<ArrayRef> = vec![
                Arc::new(b.seq.finish()),
                Arc::new(b.line.finish()),
                Arc::new(b.time.finish()),
                Arc::new(b.dated.finish()),
                Arc::new(b.user.finish()),
                Arc::new(b.user_hash.finish()),
                Arc::new(b.query.finish()),
                Arc::new(b.norm.finish()),
                Arc::new(b.page.finish()),
                Arc::new(b.rank.finish()),
                Arc::new(b.order.finish()),
                Arc::new(b.url.finish()),
                Arc::new(b.url_hash.finish()),
                Arc::new(b.cache.finish()),
                Arc::new(b.result_page.finish()),
            ];
            let batch = RecordBatch::try_new(QUERYLOG.arrow(), cols)
                .map_err(|e| EngineError::Internal(format!("querylog batch: {e}")))?;
            self.rows = 0;
            self.w.write(&batch)
        }

        fn finish(mut self) -> Result<u64> {
            self.flush()?;
            let n = self.seq as u64;
            self.w.finish()?;
            Ok(n)
        }
    }

    /// The log file at `log` as a `querylog` file at `out`: (what the read saw, rows written).
    pub fn export_file(
        log: &Path,
        read: &ReadConfig,
        normalise: Normalise,
        out: &Path,
        tick: &dyn Tick,
    ) -> Result<(ReadSummary, u64)> {
        let src = LogSource::File {
            path: log.to_path_buf(),
            read: read.clone(),
        };
        let (s, n, _) = export(&src, None, normalise, out, false, tick)?;
        Ok((s, n))
    }

    /// Stored log `log_id` of the workspace as a `querylog` file at `out`.
    pub fn export_stored(
        ws: &Path,
        log_id: i64,
        normalise: Normalise,
        out: &Path,
    ) -> Result<(ReadSummary, u64)> {
        let src = LogSource::Stored { log_id };
        let (s, n, _) = export(&src, Some(ws), normalise, out, false, &())?;
        Ok((s, n))
    }

    type Users = std::collections::HashSet<u64>;

    /// A log source as a `querylog` file; with `users`, also its distinct user hashes.
    fn export(
        source: &LogSource,
        workspace: Option<&Path>,
        normalise: Normalise,
        out: &Path,
        users: bool,
        tick: &dyn Tick,
    ) -> Result<(ReadSummary, u64, Users)> {
        let (format, id) = match source {
            LogSource::File { read, .. } => (read.format, None),
            LogSource::Stored { log_id } => {
                let ws = Workspace::open_existing(workspace.ok_or_else(need_workspace)?)?;
                (persist::format_of(ws.conn(), *log_id)?, Some(*log_id))
            }
        };
        let mut meta = vec![("tianwang.format".to_string(), format.name().to_string())];
        if let Some(id) = id {
            meta.push(("tianwang.log_id".to_string(), id.to_string()));
        }
        let mut w = RowWriter::create(out, normalise, &meta)?;
        if users {
            w.users = Some(Users::default());
        }
        let summary = match source {
            LogSource::File { path, read } => {
                read.validate()?;
                read_file(path, read, tick, &mut |r| w.push(r))?
            }
            LogSource::Stored { log_id } => {
                let ws = Workspace::open_existing(workspace.ok_or_else(need_workspace)?)?;
                tick.tick(0.0, "exporting the stored log")?;
                persist::load(ws.conn(), *log_id, &mut |r| w.push(r))?;
                persist::summary_of(ws.conn(), *log_id)?
            }
        };
        let set = w.users.take().unwrap_or_default();
        let n = w.finish()?;
        Ok((summary, n, set))
    }

    /// A file's key-value metadata.
    pub type FileMeta = Vec<(String, String)>;

    /// One `querylog` row, owned; [`QlRow::record`] borrows it as a [`Record`].
    #[derive(Debug, Clone, PartialEq)]
    pub struct QlRow {
        pub seq: i64,
        pub line: u64,
        pub time: Option<i64>,
        pub dated: bool,
        pub user: String,
        pub query: String,
        pub norm: String,
        pub page: Option<u32>,
        pub rank: Option<u32>,
        pub order: Option<u32>,
        pub url: Option<String>,
        pub cache: Option<String>,
    }

    impl QlRow {
        pub fn record(&self) -> Record<'_> {
            Record {
                line: self.line,
                time: self.time,
                dated: self.dated,
                user: &self.user,
                query: &self.query,
                page: self.page,
                rank: self.rank,
                order: self.order,
                url: self.url.as_deref(),
                cache: self.cache.as_deref(),
            }
        }
    }

    fn col<'a>(b: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef> {
        b.column_by_name(name)
            .ok_or_else(|| EngineError::Internal(format!("no column {name}")))
    }

    /// A column as `Option<i64>` values (any integer type).
    fn ints(b: &RecordBatch, name: &str) -> Result<Vec<Option<i64>>> {
        let a = datafusion::arrow::compute::cast(col(b, name)?, &DataType::Int64)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        Ok(a.as_primitive::<Int64Type>().iter().collect())
    }

    /// A column as `Option<String>` values (Utf8, LargeUtf8 or Utf8View).
    fn strs(b: &RecordBatch, name: &str) -> Result<Vec<Option<String>>> {
        let a = datafusion::arrow::compute::cast(col(b, name)?, &DataType::Utf8)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        Ok(a.as_string::<i32>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect())
    }

    fn u32_of(v: Option<i64>) -> Option<u32> {
        v.map(|x| x.clamp(0, u32::MAX as i64) as u32)
    }

    /// The rows of a `querylog` file (or a directory of parts) in `seq` order, with the file
    /// metadata; a file of another schema is the user's bad input naming it.
    pub fn read_rows(path: &Path) -> Result<(Vec<QlRow>, FileMeta)> {
        let (batches, meta) = parquet_io::read(path, &QUERYLOG)?;
        let mut rows = Vec::new();
        for b in &batches {
            let (seq, line, time, dated) = (
                ints(b, "seq")?,
                ints(b, "line")?,
                ints(b, "time_s")?,
                ints(b, "dated")?,
            );
            let (user, query, norm, url, cache) = (
                strs(b, "user")?,
                strs(b, "query")?,
                strs(b, "norm")?,
                strs(b, "url")?,
                strs(b, "cache")?,
            );
            let (page, rank, order) = (
                ints(b, "page")?,
                ints(b, "click_rank")?,
                ints(b, "click_order")?,
            );
            for i in 0..b.num_rows() {
                rows.push(QlRow {
                    seq: seq[i].unwrap_or(0),
                    line: line[i].unwrap_or(0).max(0) as u64,
                    time: time[i],
                    dated: dated[i].unwrap_or(0) != 0,
                    user: user[i].clone().unwrap_or_default(),
                    query: query[i].clone().unwrap_or_default(),
                    norm: norm[i].clone().unwrap_or_default(),
                    page: u32_of(page[i]),
                    rank: u32_of(rank[i]),
                    order: u32_of(order[i]),
                    url: url[i].clone(),
                    cache: cache[i].clone(),
                });
            }
        }
        rows.sort_by_key(|r| r.seq);
        // Our keys travel in the Arrow schema's metadata.
        let meta = [meta, crate::engine::bigjobs::pagerank::schema_meta(path)?].concat();
        Ok((rows, meta))
    }

    /// The position of a request among those kept, grouped by `g` (integer division written
    /// so it means the same on both dialects).
    fn group_of(g: usize) -> String {
        format!("CAST(FLOOR(CAST(pos AS DOUBLE) / {g}) AS BIGINT)")
    }

    /// The statistics plan over a `querylog` file (`users`: the user-sample side table when
    /// `cfg.user_sample_pct` is set, with `keep_empty_user` the sample's verdict on records
    /// without a user).
    pub fn plan(log: &Path, users: Option<(&Path, bool)>, cfg: &StatsConfig) -> Plan {
        let mut filters: Vec<String> = Vec::new();
        if let Some(f) = cfg.time_from {
            filters.push(format!("(time_s IS NULL OR time_s >= {f})"));
        }
        if let Some(t) = cfg.time_to {
            filters.push(format!("(time_s IS NULL OR time_s <= {t})"));
        }
        if cfg.first_page_only {
            filters.push("(page IS NULL OR page <= 1)".into());
        }
        let mut p = Plan::new("querylog-stats").input("log", log);
        if let Some((u, keep_empty)) = users {
            p = p.input("users", u);
            filters.push(format!(
                "((user_hash IS NULL AND {keep_empty}) OR user_hash IN (SELECT user_hash FROM users))"
            ));
        }
        let cols = "seq, time_s, user_hash, norm, page, click_rank, url_hash, result_page";
        // Without filters the kept rows are the log itself, streamed by every output; with
        // filters their numbering is one global window, computed once and kept.
        p = if filters.is_empty() {
            p.view("kept", format!("SELECT {cols}, seq AS pos FROM log"))
        } else {
            p.table(
                "kept",
                format!(
                    "SELECT {cols}, ROW_NUMBER() OVER (ORDER BY seq) - 1 AS pos FROM log WHERE {}",
                    filters.join(" AND ")
                ),
            )
        };
        let g = cfg.group_size;
        let levels: Vec<String> = selfsim_levels(cfg.selfsim_group)
            .into_iter()
            .map(|l| {
                format!(
                    "SELECT {l} AS lvl, grp, COUNT(DISTINCT qid) AS d FROM \
                     (SELECT {} AS grp, qid FROM kq) x GROUP BY grp",
                    group_of(l)
                )
            })
            .collect();
        p.table(
                "queries",
                "SELECT norm, first_pos, n, ROW_NUMBER() OVER (ORDER BY first_pos) - 1 AS qid, \
                 ROW_NUMBER() OVER (ORDER BY n DESC, first_pos) AS qrank \
                 FROM (SELECT norm, MIN(pos) AS first_pos, COUNT(*) AS n FROM kept GROUP BY norm) q0",
            )
            .view(
                "kq",
                format!(
                    "SELECT k.pos, k.time_s, k.user_hash, q.qid, q.qrank, k.page, k.click_rank, k.url_hash, \
                     k.result_page, {} AS grp FROM kept k JOIN queries q ON k.norm = q.norm",
                    group_of(g).replace("pos", "k.pos")
                ),
            )
            .output("queries", "SELECT qid, norm, n FROM queries")
            .output("total", "SELECT COUNT(*) AS records FROM log")
            .output(
                "summary",
                "SELECT COUNT(*) AS requests, COUNT(DISTINCT user_hash) AS n_users, \
                 COALESCE(MAX(CASE WHEN page IS NOT NULL THEN 1 ELSE 0 END), 0) AS page_field, \
                 COALESCE(SUM(CASE WHEN time_s IS NOT NULL THEN 1 ELSE 0 END), 0) AS timed FROM kq",
            )
            .view(
                "tl",
                "SELECT time_s, LAG(time_s) OVER (PARTITION BY user_hash ORDER BY pos) AS prev \
                 FROM kq WHERE user_hash IS NOT NULL AND time_s IS NOT NULL",
            )
            .output(
                "breaks",
                format!(
                    "SELECT COUNT(*) AS breaks FROM tl WHERE prev IS NOT NULL AND ABS(time_s - prev) > {}",
                    cfg.session_gap_s
                ),
            )
            .output(
                "groups",
                "SELECT grp, qid, COUNT(*) AS n FROM kq GROUP BY grp, qid",
            )
            .output("levels", levels.join(" UNION ALL "))
            .output(
                "pages",
                "SELECT result_page AS v, COUNT(*) AS n FROM kq WHERE result_page > 0 GROUP BY result_page",
            )
            .view(
                "pp",
                "SELECT user_hash, qid, COUNT(*) AS np, MAX(result_page) AS mp FROM \
                 (SELECT user_hash, qid, result_page FROM kq WHERE result_page > 0 \
                  GROUP BY user_hash, qid, result_page) up GROUP BY user_hash, qid",
            )
            .output(
                "page_pairs",
                "SELECT COUNT(*) AS pairs, COALESCE(SUM(np), 0) AS pages, \
                 COALESCE(SUM(CASE WHEN np = 1 AND mp = 1 THEN 1 ELSE 0 END), 0) AS only_first FROM pp",
            )
            .output(
                "ranks",
                "SELECT click_rank AS v, COUNT(*) AS n FROM kq WHERE click_rank > 0 GROUP BY click_rank",
            )
            .table(
                "uc",
                "SELECT url_hash, COUNT(*) AS g FROM kq WHERE url_hash IS NOT NULL GROUP BY url_hash",
            )
            .output(
                "urls",
                "SELECT g AS n, COUNT(*) AS urls FROM uc GROUP BY g",
            )
            .output(
                "cosine",
                format!(
                    "SELECT k.qid, COUNT(*) AS w, MIN(u.g) AS g FROM kq k \
                     JOIN uc u ON k.url_hash = u.url_hash WHERE k.qrank <= {} \
                     GROUP BY k.qid, k.url_hash",
                    cfg.cosine_top
                ),
            )
            .output(
                "hours",
                "SELECT h, COUNT(*) AS n FROM (SELECT CAST(FLOOR(CAST(((time_s % 86400) + 86400) % 86400 \
                 AS DOUBLE) / 3600) AS BIGINT) AS h FROM kq WHERE time_s IS NOT NULL) t GROUP BY h",
            )
    }

    /// The user sample's verdict on a user hash (the native collector's rule).
    fn sampled(h: Option<u64>, cfg: &StatsConfig, pct: f64) -> bool {
        let h = h.unwrap_or(0) ^ cfg.user_sample_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = hash64(&h.to_string());
        ((h % 1_000_000) as f64) < pct * 10_000.0
    }

    /// Rows of an output as integer columns.
    fn table(out: &Path, name: &str, cols: &[&str]) -> Result<Vec<Vec<i64>>> {
        let mut v: Vec<Vec<i64>> = Vec::new();
        for b in read_out(&out.join(name))? {
            let cs: Vec<Vec<Option<i64>>> =
                cols.iter().map(|c| ints(&b, c)).collect::<Result<_>>()?;
            for i in 0..b.num_rows() {
                v.push(cs.iter().map(|c| c[i].unwrap_or(0)).collect());
            }
        }
        Ok(v)
    }

    fn one_row(out: &Path, name: &str, cols: &[&str]) -> Result<Vec<i64>> {
        table(out, name, cols)?
            .pop()
            .ok_or_else(|| EngineError::Internal(format!("{name}: no row")))
    }

    fn hist(rows: Vec<Vec<i64>>) -> Vec<(u32, u64)> {
        let mut h: Vec<(u32, u64)> = rows
            .into_iter()
            .map(|r| (r[0].clamp(0, u32::MAX as i64) as u32, r[1].max(0) as u64))
            .collect();
        h.sort_unstable();
        h
    }

    /// The plan's outputs as the aggregates [`Counts::finish`] reads.
    pub fn counts(out: &Path, cfg: &StatsConfig) -> Result<Counts> {
        let total = one_row(out, "total", &["records"])?[0] as u64;
        let s = one_row(
            out,
            "summary",
            &["requests", "n_users", "page_field", "timed"],
        )?;
        let requests = s[0].max(0) as u64;
        let breaks = one_row(out, "breaks", &["breaks"])?[0].max(0) as u64;
        let mut qs: Vec<(i64, String, u64)> = Vec::new();
        for b in read_out(&out.join("queries"))? {
            let (id, norm, n) = (ints(&b, "qid")?, strs(&b, "norm")?, ints(&b, "n")?);
            for i in 0..b.num_rows() {
                qs.push((
                    id[i].unwrap_or(0),
                    norm[i].clone().unwrap_or_default(),
                    n[i].unwrap_or(0).max(0) as u64,
                ));
            }
        }
        qs.sort_unstable_by_key(|q| q.0);
        let whole = |g: usize| (requests / g as u64) as usize;
        let mut groups: Vec<Vec<(u32, u32)>> = vec![Vec::new(); whole(cfg.group_size)];
        for r in table(out, "groups", &["grp", "qid", "n"])? {
            if let Some(gr) = groups.get_mut(r[0].max(0) as usize) {
                gr.push((r[1] as u32, r[2] as u32));
            }
        }
        groups.iter_mut().for_each(|g| g.sort_unstable());
        let mut levels: Vec<(usize, Vec<u32>)> = selfsim_levels(cfg.selfsim_group)
            .into_iter()
            .map(|l| (l, vec![0; whole(l)]))
            .collect();
        for r in table(out, "levels", &["lvl", "grp", "d"])? {
            if let Some(l) = levels.iter_mut().find(|l| l.0 as i64 == r[0])
                && let Some(slot) = l.1.get_mut(r[1].max(0) as usize)
            {
                *slot = r[2] as u32;
            }
        }
        let pp = one_row(out, "page_pairs", &["pairs", "pages", "only_first"])?;
        let mut url_counts = Vec::new();
        for r in table(out, "urls", &["n", "urls"])? {
            url_counts.extend(std::iter::repeat_n(r[0] as u64, r[1].max(0) as usize));
        }
        let mut cos: HashMap<u32, Vec<(u64, u64)>> = HashMap::new();
        for r in table(out, "cosine", &["qid", "w", "g"])? {
            cos.entry(r[0] as u32)
                .or_default()
                .push((r[1] as u64, r[2] as u64));
        }
        let hours = (s[3] > 0).then(|| {
            let mut h = vec![0u64; 24];
            if let Ok(rows) = table(out, "hours", &["h", "n"]) {
                for r in rows {
                    if let Some(x) = h.get_mut(r[0].max(0) as usize) {
                        *x = r[1] as u64;
                    }
                }
            }
            h
        });
        Ok(Counts {
            cfg: cfg.clone(),
            requests,
            filtered_out: total.saturating_sub(requests),
            distinct_users: s[1].max(0) as u64,
            sessions: s[1].max(0) as u64 + breaks,
            queries: qs.iter().map(|q| q.1.clone().into_boxed_str()).collect(),
            query_counts: qs.iter().map(|q| q.2).collect(),
            groups,
            distinct_per_group: levels,
            by_page: hist(table(out, "pages", &["v", "n"])?),
            page_field: s[2] > 0,
            page_pairs: PagePairs {
                pairs: pp[0].max(0) as u64,
                pages: pp[1].max(0) as u64,
                only_first: pp[2].max(0) as u64,
            },
            by_rank: hist(table(out, "ranks", &["v", "n"])?),
            url_counts,
            cosine: cos.into_iter().collect(),
            hours,
        })
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
        let (read, _, seen) = export(
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
                    .filter(|&h| sampled(Some(h), cfg, pct))
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
                Some((path, sampled(None, cfg, pct)))
            }
            None => None,
        };
        let p = plan(&log, users.as_ref().map(|(p, k)| (p.as_path(), *k)), cfg);
        let out = work.join("out");
        let report = crate::engine::bigjobs::run_plan(&p, &out, engine, &Phase(tick, 0.3, 0.9))?;
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
}
