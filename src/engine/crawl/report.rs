//! What a crawl has done so far, read back from the workspace for the Crawl panel: the head of
//! the frontier with each URL's priority and why, the recent-fetch log, status codes and error
//! kinds, robots decisions, and the fetch log as (time, host) events for the distributed-crawl
//! simulator. Read-only; the panel runs these off the UI thread.

use rusqlite::params;
use serde::Serialize;

use crate::engine::error::Result;
use crate::engine::store::Workspace;

/// A queued URL with the reason for its place.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FrontierRow {
    pub url: String,
    pub priority: f64,
    pub why: String,
    pub depth: i64,
    pub backlinks: i64,
}

/// One fetch attempt.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FetchRow {
    pub url: String,
    pub final_url: Option<String>,
    pub status: Option<i64>,
    pub error_kind: Option<String>,
    pub bytes: Option<i64>,
    pub elapsed_ms: Option<i64>,
    pub fetched_at: String,
    pub replica: bool,
}

/// Everything the Crawl panel shows from the workspace.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct CrawlReport {
    pub frontier_queued: i64,
    pub frontier_head: Vec<FrontierRow>,
    pub recent: Vec<FetchRow>,
    /// (label, count): `200`, `404`, `timeout`, …
    pub outcomes: Vec<(String, i64)>,
    /// URLs robots.txt kept us from, with the rule's reason.
    pub robots: Vec<(String, String)>,
    pub filtered: Vec<(String, String)>,
}

/// Read the report; `head` rows of the frontier, `recent` fetches.
pub fn report(ws: &Workspace, head: usize, recent: usize) -> Result<CrawlReport> {
    let c = ws.conn();
    let frontier_queued = c.query_row(
        "SELECT count(*) FROM frontier WHERE state = 'queued'",
        [],
        |r| r.get(0),
    )?;
    let mut st = c.prepare(
        "SELECT url, priority, why, depth, backlinks FROM frontier WHERE state = 'queued'
         ORDER BY priority DESC, id LIMIT ?1",
    )?;
    let frontier_head = st
        .query_map([head as i64], |r| {
            Ok(FrontierRow {
                url: r.get(0)?,
                priority: r.get(1)?,
                why: r.get(2)?,
                depth: r.get(3)?,
                backlinks: r.get(4)?,
            })
        })?
        .collect::<std::result::Result<_, _>>()?;
    let mut st = c.prepare(
        "SELECT url, final_url, status, error_kind, bytes, elapsed_ms, fetched_at, replica_of IS NOT NULL
         FROM fetches ORDER BY id DESC LIMIT ?1",
    )?;
    let recent = st
        .query_map([recent as i64], |r| {
            Ok(FetchRow {
                url: r.get(0)?,
                final_url: r.get(1)?,
                status: r.get(2)?,
                error_kind: r.get(3)?,
                bytes: r.get(4)?,
                elapsed_ms: r.get(5)?,
                fetched_at: r.get(6)?,
                replica: r.get(7)?,
            })
        })?
        .collect::<std::result::Result<_, _>>()?;
    let mut st = c.prepare(
        "SELECT coalesce(error_kind, CAST(status AS TEXT)), count(*) FROM fetches GROUP BY 1 ORDER BY 2 DESC",
    )?;
    let outcomes = st
        .query_map([], |r| {
            Ok((
                r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                r.get(1)?,
            ))
        })?
        .collect::<std::result::Result<_, _>>()?;
    let pairs = |state: &str| -> Result<Vec<(String, String)>> {
        let mut st =
            c.prepare("SELECT url, why FROM frontier WHERE state = ?1 ORDER BY id LIMIT 200")?;
        let rows = st
            .query_map(params![state], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(rows)
    };
    Ok(CrawlReport {
        frontier_queued,
        frontier_head,
        recent,
        outcomes,
        robots: pairs("robots")?,
        filtered: pairs("filtered")?,
    })
}

/// The fetch log as (seconds since the first fetch, host), oldest first.
pub fn fetch_events(ws: &Workspace) -> Result<Vec<(f64, String)>> {
    let mut st = ws
        .conn()
        .prepare("SELECT fetched_at, url FROM fetches ORDER BY id")?;
    let rows: Vec<(String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<std::result::Result<_, _>>()?;
    let t0 = rows
        .first()
        .and_then(|(t, _)| chrono::DateTime::parse_from_rfc3339(t).ok());
    Ok(rows
        .into_iter()
        .filter_map(|(t, u)| {
            let t = chrono::DateTime::parse_from_rfc3339(&t).ok()?;
            let host = url::Url::parse(&u).ok()?.host_str()?.to_string();
            Some(((t - t0?).num_milliseconds() as f64 / 1000.0, host))
        })
        .collect())
}
