//! The `querylog` rows read back, and the statistics plan's outputs read back as the
//! aggregates the native [`Counts::finish`] turns into statistics.

use std::collections::HashMap;
use std::path::Path;

use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Int64Type};

use super::QUERYLOG;
use crate::engine::error::{EngineError, Result};
use crate::engine::exec::parquet_io;
use crate::engine::querylog::Record;
use crate::engine::querylog::stats::{Counts, PagePairs, StatsConfig, selfsim_levels};

/// A file's key-value metadata.
pub(crate) type FileMeta = Vec<(String, String)>;

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

/// Column `name`: a user's file was schema-checked when opened and a plan's output is ours, so
/// a missing column (or a cast that fails) is our fault.
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
    let meta = [meta, parquet_io::schema_meta(path)?].concat();
    Ok((rows, meta))
}

/// Rows of an output as integer columns.
fn table(out: &Path, name: &str, cols: &[&str]) -> Result<Vec<Vec<i64>>> {
    let mut v: Vec<Vec<i64>> = Vec::new();
    for b in parquet_io::read_output(&out.join(name))? {
        let cs: Vec<Vec<Option<i64>>> = cols.iter().map(|c| ints(&b, c)).collect::<Result<_>>()?;
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
    for b in parquet_io::read_output(&out.join("queries"))? {
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
