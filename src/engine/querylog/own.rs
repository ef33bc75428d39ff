//! The workspace's own query and click logs: every query its query service answers and every
//! result a user opens, appended as they happen — the book's two logs (ch. 9 [L3196–L3220]: the
//! query log's time, IP, cache flag, query and result page; the click log's time, IP, query, URL
//! and rank) — stored exactly as [`super::persist`] stores an imported log (`querylogs`,
//! `querylog_queries`, `querylog_records`), so every statistic, the cache lab and WU read them
//! like any other stored log. A session id stands in for the IP.
//!
//! The two logs are made on first use; [`log_id`] finds them, [`which`] tells them apart from
//! imported logs (by their `source`).
//!
//! ```no_run
//! use tianwang::engine::querylog::own::{self, Entry, Own};
//! # fn demo(conn: &rusqlite::Connection) -> tianwang::engine::error::Result<()> {
//! own::append(conn, Own::Queries, &Entry::query("gui-1", "天网 搜索", 1, Some(false)))?;
//! own::append(conn, Own::Clicks, &Entry::click("gui-1", "天网 搜索", 3, "http://a.localhost/"))?;
//! let id = own::log_id(conn, Own::Queries)?.expect("made on first use");
//! # Ok(()) }
//! ```

use rusqlite::{OptionalExtension, params};

use super::{Format, Normalise};
use crate::engine::error::{EngineError, Result};

/// Which of the workspace's own logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Own {
    /// Every query answered (the book's query log).
    Queries,
    /// Every result opened (the book's click log).
    Clicks,
}

impl Own {
    /// The `querylogs.source` that marks the log.
    pub fn source(self) -> &'static str {
        match self {
            Own::Queries => "workspace:queries",
            Own::Clicks => "workspace:clicks",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Own::Queries => "this workspace's searches",
            Own::Clicks => "this workspace's clicks",
        }
    }

    fn format(self) -> Format {
        match self {
            Own::Queries => Format::TianwangQuery,
            Own::Clicks => Format::TianwangClick,
        }
    }
}

/// Which own log a stored log's `source` marks, if any.
pub fn which(source: &str) -> Option<Own> {
    [Own::Queries, Own::Clicks]
        .into_iter()
        .find(|o| o.source() == source)
}

/// One record to append.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    /// Seconds since 1970 (local time, as the query-log lab reads dated logs).
    pub time: i64,
    /// The session (the book's IP).
    pub session: &'a str,
    pub query: &'a str,
    /// Queries: the result page asked for (from 1).
    pub page: Option<u32>,
    /// Queries: answered from the result cache (`Cache`) or by the engine (`Database`), the
    /// book's flag; None when no cache stands in front.
    pub cache: Option<bool>,
    /// Clicks: the rank of the opened result (from 1) and its URL.
    pub rank: Option<u32>,
    pub url: Option<&'a str>,
}

/// Now, as seconds since 1970 in local time.
fn now() -> i64 {
    chrono::Local::now().naive_local().and_utc().timestamp()
}

impl<'a> Entry<'a> {
    /// A query answered now.
    pub fn query(session: &'a str, query: &'a str, page: u32, cache: Option<bool>) -> Self {
        Entry {
            time: now(),
            session,
            query,
            page: Some(page.max(1)),
            cache,
            rank: None,
            url: None,
        }
    }

    /// A result opened now.
    pub fn click(session: &'a str, query: &'a str, rank: u32, url: &'a str) -> Self {
        Entry {
            time: now(),
            session,
            query,
            page: None,
            cache: None,
            rank: Some(rank.max(1)),
            url: Some(url),
        }
    }
}

/// The id of the workspace's own log, if it was made.
pub fn log_id(conn: &rusqlite::Connection, which: Own) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT id FROM querylogs WHERE source = ?1 ORDER BY id LIMIT 1",
            [which.source()],
            |r| r.get(0),
        )
        .optional()?)
}

fn ensure(conn: &rusqlite::Connection, which: Own) -> Result<i64> {
    if let Some(id) = log_id(conn, which)? {
        return Ok(id);
    }
    let normalise = serde_json::to_string(&Normalise::default())
        .map_err(|e| EngineError::Internal(format!("serialising: {e}")))?;
    conn.execute(
        "INSERT INTO querylogs (name, source, format, encoding, normalise, lines, records,
                                bad_lines, bad_first, synthetic, job_id)
         VALUES (?1, ?2, ?3, 'utf-8', ?4, 0, 0, 0, '[]', 0, NULL)",
        params![
            which.name(),
            which.source(),
            which.format().name(),
            normalise
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Append `e` to the workspace's own log `which` (made on first use), in one transaction.
/// Returns the log's id.
pub fn append(conn: &rusqlite::Connection, which: Own, e: &Entry<'_>) -> Result<i64> {
    if e.query.trim().is_empty() {
        return Err(EngineError::invalid(
            "query",
            "an empty query is not logged",
        ));
    }
    let tx = conn.unchecked_transaction()?;
    let id = ensure(&tx, which)?;
    let norm = Normalise::default().apply(e.query).into_owned();
    let qid: i64 = match tx
        .query_row(
            "SELECT id FROM querylog_queries WHERE log_id = ?1 AND query = ?2",
            params![id, norm],
            |r| r.get(0),
        )
        .optional()?
    {
        Some(q) => q,
        None => {
            let next: i64 = tx.query_row(
                "SELECT COUNT(*) FROM querylog_queries WHERE log_id = ?1",
                [id],
                |r| r.get(0),
            )?;
            tx.execute(
                "INSERT INTO querylog_queries (log_id, id, query) VALUES (?1, ?2, ?3)",
                params![id, next, norm],
            )?;
            next
        }
    };
    let seq: i64 = tx.query_row("SELECT records FROM querylogs WHERE id = ?1", [id], |r| {
        r.get(0)
    })?;
    let raw = (norm != e.query).then_some(e.query);
    let cache = e.cache.map(|hit| if hit { "Cache" } else { "Database" });
    tx.execute(
        "INSERT INTO querylog_records (log_id, seq, line, time, dated, user, query_id,
             raw_query, page, rank, click_order, url, cache)
         VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11)",
        params![
            id,
            seq,
            seq + 1,
            e.time,
            e.session,
            qid,
            raw,
            e.page,
            e.rank,
            e.url,
            cache
        ],
    )?;
    tx.execute(
        "UPDATE querylogs SET lines = lines + 1, records = records + 1 WHERE id = ?1",
        [id],
    )?;
    tx.commit()?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::querylog::persist;

    #[test]
    fn appended_records_read_back_as_a_stored_log() {
        let dir = tempfile::tempdir().unwrap();
        let ws = crate::engine::store::Workspace::open_or_create(&dir.path().join("w.tianwang"))
            .unwrap();
        let c = ws.conn();
        assert_eq!(log_id(c, Own::Queries).unwrap(), None);
        append(c, Own::Queries, &Entry::query("s1", "天网  搜索", 1, None)).unwrap();
        append(
            c,
            Own::Queries,
            &Entry::query("s1", "天网 搜索", 2, Some(true)),
        )
        .unwrap();
        let q = append(c, Own::Queries, &Entry::query("s2", "北大", 1, Some(false))).unwrap();
        let k = append(
            c,
            Own::Clicks,
            &Entry::click("s1", "天网 搜索", 3, "http://a/"),
        )
        .unwrap();
        assert_ne!(q, k);
        assert!(append(c, Own::Queries, &Entry::query("s1", "  ", 1, None)).is_err());
        let rows = persist::list(c).unwrap();
        let row = rows.iter().find(|r| r.id == q).unwrap();
        assert_eq!((row.records, row.lines, row.distinct_queries), (3, 3, 2));
        assert_eq!(which(&row.source), Some(Own::Queries));
        let mut seen = Vec::new();
        persist::load(c, q, &mut |r| {
            seen.push((
                r.query.to_string(),
                r.page,
                r.cache.map(str::to_string),
                r.dated,
            ));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen[0], ("天网  搜索".into(), Some(1), None, true));
        assert_eq!(
            seen[1],
            ("天网 搜索".into(), Some(2), Some("Cache".into()), true)
        );
        assert_eq!(seen[2].2.as_deref(), Some("Database"));
        let mut clicks = Vec::new();
        persist::load(c, k, &mut |r| {
            clicks.push((r.rank, r.url.map(str::to_string)));
            Ok(())
        })
        .unwrap();
        assert_eq!(clicks, vec![(Some(3), Some("http://a/".to_string()))]);
        assert_eq!(persist::format_of(c, k).unwrap(), Format::TianwangClick);
    }
}
