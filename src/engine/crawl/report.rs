//! What a crawl has done so far, read back from the workspace for the Crawl panel: the head of
//! the frontier with each URL's priority and why, the recent-fetch log, status codes and error
//! kinds, robots decisions, and the fetch log as (time, host) events for the distributed-crawl
//! simulator. Read-only; the panel runs these off the UI thread.

use rusqlite::params;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// Host↔IP groups with their alias class.
    pub aliases: Vec<AliasGroup>,
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
        aliases: alias_groups(ws)?,
    })
}

/// The fetch log as (seconds since the first fetch, host), oldest first.
pub(crate) fn fetch_events(ws: &Workspace) -> Result<Vec<(f64, String)>> {
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

/// A group of host names and IP addresses that answer for each other, with the book's class:
/// 1-1 (one name, one address), 1-n (one name, several addresses), n-1 (several names on one
/// address: virtual hosts or aliases), n-n [L1204–1267].
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AliasGroup {
    pub class: String,
    pub hosts: Vec<String>,
    pub ips: Vec<String>,
}

/// The host↔IP table grouped into connected components of the bipartite host–IP graph.
pub(crate) fn alias_groups(ws: &Workspace) -> Result<Vec<AliasGroup>> {
    let mut st = ws
        .conn()
        .prepare("SELECT host, ip FROM host_ips ORDER BY host, ip")?;
    let pairs: Vec<(String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<std::result::Result<_, _>>()?;
    // Union-find over "h:host" and "i:ip" nodes.
    let mut parent: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    fn find(p: &mut std::collections::HashMap<String, String>, x: &str) -> String {
        let mut cur = x.to_string();
        while let Some(next) = p.get(&cur).filter(|n| **n != cur).cloned() {
            cur = next;
        }
        cur
    }
    for (h, i) in &pairs {
        let (a, b) = (format!("h:{h}"), format!("i:{i}"));
        parent.entry(a.clone()).or_insert_with(|| a.clone());
        parent.entry(b.clone()).or_insert_with(|| b.clone());
        let (ra, rb) = (find(&mut parent, &a), find(&mut parent, &b));
        if ra != rb {
            parent.insert(ra, rb);
        }
    }
    let mut groups: std::collections::BTreeMap<String, (Vec<String>, Vec<String>)> =
        Default::default();
    for (h, i) in &pairs {
        let root = find(&mut parent, &format!("h:{h}"));
        let g = groups.entry(root).or_default();
        if !g.0.contains(h) {
            g.0.push(h.clone());
        }
        if !g.1.contains(i) {
            g.1.push(i.clone());
        }
    }
    Ok(groups
        .into_values()
        .map(|(hosts, ips)| AliasGroup {
            class: format!(
                "{}-{}",
                if hosts.len() > 1 { "n" } else { "1" },
                if ips.len() > 1 { "n" } else { "1" }
            ),
            hosts,
            ips,
        })
        .collect())
}

/// Live counters of a running crawl (the panel's plots sample them).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct CrawlCounters {
    pub fetched: u64,
    pub stored: u64,
    pub replicas: u64,
    /// URLs queued in the frontier.
    pub frontier: u64,
    pub bytes: u64,
}

/// What a finished crawl did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct CrawlResult {
    pub fetched: u64,
    pub stored: u64,
    pub replicas: u64,
    /// Failed fetches by error kind.
    pub errors: BTreeMap<String, u64>,
    pub robots_blocked: u64,
    pub not_modified: u64,
    pub dns_cache_hits: u64,
    pub dns_cache_misses: u64,
    /// URLs the substring filter or the MIME list kept out.
    pub filtered: u64,
    pub bytes: u64,
    pub frontier_left: u64,
    pub elapsed_s: f64,
    pub pages_per_s: f64,
    /// Where the time went.
    #[serde(default)]
    pub profile: CrawlProfile,
}

/// Where a crawl's time went, in seconds. The workers' stages are summed over their threads
/// (they overlap); the coordinator's are its own wall time (they add up to the crawl's); the
/// writer's runs on its own thread, beside the coordinator.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct CrawlProfile {
    /// Workers: the HTTP GET, body read and content decoding.
    pub fetch_s: f64,
    /// Workers: charset decision and decoding to text.
    pub decode_s: f64,
    /// Workers: link scanning, resolving and canonicalising.
    pub links_s: f64,
    /// Coordinator: the frontier (visited set, queues, frontier rows, picking the next URL).
    pub frontier_s: f64,
    /// Coordinator: deciding each result (outside the frontier) and handing it to the writer.
    pub record_s: f64,
    /// Writer thread: SQLite writes of fetches, pages, snapshots, links, frontier rows, and
    /// the batch commits.
    pub sqlite_s: f64,
    /// Coordinator: waiting for a worker's result.
    pub idle_s: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_classes() {
        let d = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&d.path().join("w.tianwang")).unwrap();
        for (h, i) in [
            ("a.cn", "1.1.1.1"),
            ("b.cn", "2.2.2.2"),
            ("b.cn", "2.2.2.3"),
            ("c.cn", "3.3.3.3"),
            ("d.cn", "3.3.3.3"),
            ("e.cn", "4.4.4.4"),
            ("e.cn", "4.4.4.5"),
            ("f.cn", "4.4.4.5"),
        ] {
            ws.conn()
                .execute("INSERT INTO host_ips VALUES (?1, ?2, 'x')", [h, i])
                .unwrap();
        }
        let g = alias_groups(&ws).unwrap();
        let class = |h: &str| {
            g.iter()
                .find(|x| x.hosts.iter().any(|y| y == h))
                .unwrap()
                .class
                .clone()
        };
        assert_eq!(class("a.cn"), "1-1");
        assert_eq!(class("b.cn"), "1-n");
        assert_eq!(class("c.cn"), "n-1");
        assert_eq!(class("e.cn"), "n-n");
        assert_eq!(g.len(), 4);
    }
}
