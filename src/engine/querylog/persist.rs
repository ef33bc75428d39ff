//! Query logs in the workspace (schema v9, `engine::store`): `querylogs` (one row per imported
//! log: source, format, encoding, normalisation, line counts, the first bad lines),
//! `querylog_queries` (its distinct normalised queries) and `querylog_records` (one row per
//! record, the raw query kept when normalisation changed it — digest §9.1: "keep the raw
//! string").
//!
//! [`import`] streams the file into one transaction: a failure (a bad line under `strict`, a
//! cancel, a full disk) leaves nothing behind. [`load`] streams a stored log back as
//! [`Record`]s, so every statistic runs on a stored log as on a file.
//!
//! ```no_run
//! # fn demo(conn: &mut rusqlite::Connection) -> tianwang::engine::error::Result<()> {
//! use tianwang::engine::querylog::{persist, read::ReadConfig, Format, Normalise};
//! let cfg = ReadConfig::new(Format::Sogouq);
//! let out = persist::import(conn, std::path::Path::new("SogouQ.sample"), &cfg, Normalise::default(), "sogou", None, false, &())?;
//! let mut n = 0;
//! persist::load(conn, out.log_id, &mut |_r| { n += 1; Ok(()) })?;
//! assert_eq!(n, out.summary.records);
//! # Ok(()) }
//! ```

use std::path::Path;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::read::{ReadConfig, ReadSummary, read_file};
use super::{FxMap, Normalise, Record};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;

/// A stored log's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    pub id: i64,
    pub name: String,
    pub source: String,
    pub format: String,
    pub encoding: String,
    pub created: String,
    pub lines: i64,
    pub records: i64,
    pub bad_lines: i64,
    pub distinct_queries: i64,
    pub synthetic: bool,
}

/// What an import wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportOutcome {
    pub log_id: i64,
    pub summary: ReadSummary,
    pub distinct_queries: u64,
}

fn json<T: Serialize>(v: &T) -> Result<String> {
    serde_json::to_string(v).map_err(|e| EngineError::Internal(format!("serialising: {e}")))
}

/// Imports the log at `path` as one transaction (see the module doc).
#[allow(clippy::too_many_arguments)]
pub fn import(
    conn: &mut rusqlite::Connection,
    path: &Path,
    cfg: &ReadConfig,
    normalise: Normalise,
    name: &str,
    job_id: Option<i64>,
    synthetic: bool,
    tick: &dyn Tick,
) -> Result<ImportOutcome> {
    if name.trim().is_empty() {
        return Err(EngineError::invalid(
            "--name",
            "a log needs a non-empty name",
        ));
    }
    let tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO querylogs (name, source, format, encoding, normalise, lines, records,
                                bad_lines, bad_first, synthetic, job_id)
         VALUES (?1, ?2, ?3, '', ?4, 0, 0, 0, '[]', ?5, ?6)",
        params![
            name,
            path.display().to_string(),
            cfg.format.name(),
            json(&normalise)?,
            synthetic as i64,
            job_id
        ],
    )?;
    let log_id = tx.last_insert_rowid();
    let mut ids: FxMap<Box<str>, u32> = FxMap::default();
    let mut order: Vec<Box<str>> = Vec::new();
    let summary = {
        let mut ins = tx.prepare(
            "INSERT INTO querylog_records (log_id, seq, line, time, dated, user, query_id,
                 raw_query, page, rank, click_order, url, cache)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        )?;
        let mut seq = 0i64;
        read_file(path, cfg, tick, &mut |r: &Record| {
            let norm = normalise.apply(r.query);
            let qid = match ids.get(&*norm) {
                Some(&id) => id,
                None => {
                    let id = order.len() as u32;
                    let key: Box<str> = (*norm).into();
                    ids.insert(key.clone(), id);
                    order.push(key);
                    id
                }
            };
            let raw = (*norm != *r.query).then_some(r.query);
            ins.execute(params![
                log_id,
                seq,
                r.line as i64,
                r.time,
                r.dated as i64,
                r.user,
                qid as i64,
                raw,
                r.page,
                r.rank,
                r.order,
                r.url,
                r.cache
            ])?;
            seq += 1;
            Ok(())
        })?
    };
    {
        let mut ins =
            tx.prepare("INSERT INTO querylog_queries (log_id, id, query) VALUES (?1, ?2, ?3)")?;
        for (i, q) in order.iter().enumerate() {
            ins.execute(params![log_id, i as i64, &**q])?;
        }
    }
    tx.execute(
        "UPDATE querylogs SET encoding = ?2, lines = ?3, records = ?4, bad_lines = ?5,
                bad_first = ?6 WHERE id = ?1",
        params![
            log_id,
            summary.encoding,
            summary.lines as i64,
            summary.records as i64,
            summary.bad.count as i64,
            json(&summary.bad.first)?
        ],
    )?;
    let out = ImportOutcome {
        log_id,
        summary,
        distinct_queries: order.len() as u64,
    };
    if let Some(job) = job_id {
        // The log and its job's `done` commit together: a process killed between this
        // commit and the runner's own record of the end no longer leaves an imported log
        // whose job says "interrupted" (issue 29). The runner then writes the same result.
        tx.execute(
            "UPDATE jobs SET status = 'done', ended_at = ?2, result = ?3
             WHERE id = ?1 AND status = 'running'",
            params![job, crate::engine::store::now_rfc3339(), json(&out)?],
        )?;
    }
    tx.commit()?;
    Ok(out)
}

/// Every stored log, newest first.
/// The logs stored in the workspace file at `path` (opened for this read only).
pub fn list_at(path: &std::path::Path) -> Result<Vec<LogRow>> {
    list(crate::engine::store::Workspace::open_existing(path)?.conn())
}

pub fn list(conn: &rusqlite::Connection) -> Result<Vec<LogRow>> {
    let mut st = conn.prepare(
        "SELECT l.id, l.name, l.source, l.format, l.encoding, l.created, l.lines, l.records,
                l.bad_lines, l.synthetic,
                (SELECT COUNT(*) FROM querylog_queries q WHERE q.log_id = l.id)
         FROM querylogs l ORDER BY l.id DESC",
    )?;
    let rows = st.query_map([], |r| {
        Ok(LogRow {
            id: r.get(0)?,
            name: r.get(1)?,
            source: r.get(2)?,
            format: r.get(3)?,
            encoding: r.get(4)?,
            created: r.get(5)?,
            lines: r.get(6)?,
            records: r.get(7)?,
            bad_lines: r.get(8)?,
            synthetic: r.get::<_, i64>(9)? != 0,
            distinct_queries: r.get(10)?,
        })
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The format a stored log was read in.
pub(crate) fn format_of(conn: &rusqlite::Connection, log_id: i64) -> Result<super::Format> {
    let f: String = conn
        .query_row(
            "SELECT format FROM querylogs WHERE id = ?1",
            [log_id],
            |r| r.get(0),
        )
        .map_err(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => {
                EngineError::invalid("--log", format!("no stored query log #{log_id}"))
            }
            e => e.into(),
        })?;
    super::Format::parse(&f).ok_or_else(|| {
        EngineError::corrupt(
            workspace_of(conn),
            Flaw::new("flaw.log_format", &[&log_id, &f]),
        )
    })
}

/// The workspace file `conn` is open on, for errors that name it.
fn workspace_of(conn: &rusqlite::Connection) -> std::path::PathBuf {
    conn.path().unwrap_or("the workspace").into()
}

/// Streams stored log `log_id` back as records (raw queries), in file order.
pub fn load(
    conn: &rusqlite::Connection,
    log_id: i64,
    sink: &mut dyn FnMut(&Record) -> Result<()>,
) -> Result<u64> {
    format_of(conn, log_id)?;
    let mut st = conn.prepare(
        "SELECT r.line, r.time, r.dated, r.user, COALESCE(r.raw_query, q.query), r.page, r.rank,
                r.click_order, r.url, r.cache
         FROM querylog_records r
         JOIN querylog_queries q ON q.log_id = r.log_id AND q.id = r.query_id
         WHERE r.log_id = ?1 ORDER BY r.seq",
    )?;
    let mut rows = st.query([log_id])?;
    let mut n = 0u64;
    while let Some(row) = rows.next()? {
        let text = |i: usize| -> Result<Option<&str>> {
            row.get_ref(i)?.as_str_or_null().map_err(|e| {
                EngineError::corrupt(
                    workspace_of(conn),
                    Flaw::with_detail("flaw.log_field", &[&log_id], e),
                )
            })
        };
        let rec = Record {
            line: row.get::<_, i64>(0)? as u64,
            time: row.get(1)?,
            dated: row.get::<_, i64>(2)? != 0,
            user: text(3)?.unwrap_or(""),
            query: text(4)?.unwrap_or(""),
            page: row.get(5)?,
            rank: row.get(6)?,
            order: row.get(7)?,
            url: text(8)?,
            cache: text(9)?,
        };
        sink(&rec)?;
        n += 1;
    }
    Ok(n)
}

/// What the import of stored log `log_id` read (lines, records, bad lines, encoding).
pub(crate) fn summary_of(conn: &rusqlite::Connection, log_id: i64) -> Result<ReadSummary> {
    format_of(conn, log_id)?;
    let (lines, records, bad, first, encoding): (i64, i64, i64, String, String) = conn.query_row(
        "SELECT lines, records, bad_lines, bad_first, encoding FROM querylogs WHERE id = ?1",
        [log_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    Ok(ReadSummary {
        lines: lines as u64,
        records: records as u64,
        bad: super::read::BadLines {
            count: bad as u64,
            first: serde_json::from_str(&first).unwrap_or_default(),
        },
        bytes: 0,
        encoding,
        encoding_note: format!("stored log #{log_id}"),
        utf8_lines: 0,
    })
}
