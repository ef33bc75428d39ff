//! The stored pages as a list: filtered by URL text, host, status and media type, in natural
//! URL order (`page2` before `page10`), with each page's snapshot count and replicas — the
//! Pages panel's list and `tianwang pages` [L1774–1778].
//!
//! ```no_run
//! use tianwang::engine::{inspect, store::Workspace};
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let l = inspect::list(&ws, &inspect::PageFilter::default())?;
//! println!("{} pages", l.total);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::engine::error::Result;
use crate::engine::store::Workspace;

/// Which pages to list.
#[derive(Debug, Clone, Default)]
pub struct PageFilter {
    /// Part of the URL.
    pub text: String,
    pub host: Option<String>,
    pub status: Option<i64>,
    /// Media type of a snapshot, e.g. `text/html`.
    pub content_type: Option<String>,
    pub limit: usize,
}

/// A page in the list.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PageItem {
    pub url: String,
    pub host: String,
    pub status: Option<i64>,
    pub snapshots: i64,
    pub replica_of: Option<String>,
}

/// A page list with what the filter menus offer.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PageList {
    pub items: Vec<PageItem>,
    /// Every host and every status in the workspace.
    pub hosts: Vec<String>,
    pub statuses: Vec<i64>,
    /// How many pages match in all (`items` stops at the limit).
    pub total: i64,
}

/// The page filter's conditions (`?1` text, `?2` host, `?3` status, `?4` content type).
const PAGE_WHERE: &str = "instr(lower(p.url), lower(?1)) > 0
           AND (?2 IS NULL OR s.host = ?2) AND (?3 IS NULL OR p.status = ?3)
           AND (?4 IS NULL OR EXISTS (SELECT 1 FROM snapshots x WHERE x.page_id = p.id
                                      AND lower(x.content_type) LIKE lower(?4) || '%'))";

/// Pages matching `f` in natural URL order ([`natural_cmp`]: `p2` before `p10`), at most
/// `f.limit` (0: all, and then `total` is their number without a second count); also the
/// distinct hosts and statuses (for the filter menus). The media types the filter offers are
/// [`content_types`]' (a scan of every stored response: load it apart).
///
/// The whole list is read in table order (an `ORDER BY url` visited the rows in index order,
/// one random read each: 2 s instead of 0.1 s on 100,000 pages); snapshot counts come from one
/// pass over the `snapshots_page` index and replica URLs from the rows read (a correlated
/// subquery for each was 100,000 index searches), and the sort compares precomputed keys
/// ([`natural_key`]) instead of walking both URLs in every comparison.
pub fn list(ws: &Workspace, f: &PageFilter) -> Result<PageList> {
    let c = ws.conn();
    let args = params![f.text, f.host, f.status, f.content_type];
    let unfiltered =
        f.text.is_empty() && f.host.is_none() && f.status.is_none() && f.content_type.is_none();
    let (items, total) = if f.limit == 0 {
        let items = list_all(ws, f)?;
        let total = items.len() as i64;
        (items, total)
    } else {
        let limit = i64::try_from(f.limit).unwrap_or(i64::MAX);
        let mut items: Vec<PageItem> = c
            .prepare(&format!(
                "SELECT p.url, s.host, p.status,
                        (SELECT count(*) FROM snapshots x WHERE x.page_id = p.id),
                        (SELECT url FROM pages r WHERE r.id = p.replica_of)
                 FROM pages p JOIN sites s ON s.id = p.site_id
                 WHERE {PAGE_WHERE} ORDER BY p.url LIMIT ?5"
            ))?
            .query_map(
                params![f.text, f.host, f.status, f.content_type, limit],
                |r| {
                    Ok(PageItem {
                        url: r.get(0)?,
                        host: r.get(1)?,
                        status: r.get(2)?,
                        snapshots: r.get(3)?,
                        replica_of: r.get(4)?,
                    })
                },
            )?
            .collect::<std::result::Result<_, _>>()?;
        items.sort_by(|a, b| natural_cmp(&a.url, &b.url).then_with(|| a.url.cmp(&b.url)));
        let total: i64 = c.query_row(
            &format!(
                "SELECT count(*) FROM pages p JOIN sites s ON s.id = p.site_id WHERE {PAGE_WHERE}"
            ),
            args,
            |r| r.get(0),
        )?;
        (items, total)
    };
    let mut st = c.prepare("SELECT host FROM sites ORDER BY host")?;
    let hosts = st
        .query_map([], |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    // Every page is in hand when the whole list is: no second scan for the statuses.
    let statuses: Vec<i64> = if f.limit == 0 && unfiltered {
        let mut v: Vec<i64> = items.iter().filter_map(|p| p.status).collect();
        v.sort_unstable();
        v.dedup();
        v
    } else {
        c.prepare("SELECT DISTINCT status FROM pages WHERE status IS NOT NULL ORDER BY 1")?
            .query_map([], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?
    };
    Ok(PageList {
        items,
        hosts,
        statuses,
        total,
    })
}

/// Every page matching `f`, naturally sorted (see [`list`]).
fn list_all(ws: &Workspace, f: &PageFilter) -> Result<Vec<PageItem>> {
    use std::collections::HashMap;
    let c = ws.conn();
    let hosts: HashMap<i64, String> = c
        .prepare("SELECT id, host FROM sites")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<std::result::Result<_, _>>()?;
    // (id, url, site, status, replica_of) in table order.
    type Row = (i64, String, i64, Option<i64>, Option<i64>);
    let rows: Vec<Row> = c
        .prepare(&format!(
            "SELECT p.id, p.url, p.site_id, p.status, p.replica_of
             FROM pages p JOIN sites s ON s.id = p.site_id WHERE {PAGE_WHERE}"
        ))?
        .query_map(params![f.text, f.host, f.status, f.content_type], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<std::result::Result<_, _>>()?;
    let mut snapshots: HashMap<i64, i64> = HashMap::with_capacity(rows.len());
    let mut st = c.prepare("SELECT page_id FROM snapshots INDEXED BY snapshots_page")?;
    let mut q = st.query([])?;
    while let Some(r) = q.next()? {
        *snapshots.entry(r.get(0)?).or_insert(0) += 1;
    }
    // A replica's original is usually listed too; a filter may have left it out.
    let listed: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    let mut by_id = c.prepare("SELECT url FROM pages WHERE id = ?1")?;
    let mut keyed = Vec::with_capacity(rows.len());
    for (id, url, site, status, replica) in &rows {
        let replica_of = match replica {
            None => None,
            Some(r) => match listed.get(r) {
                Some(&i) => Some(rows[i].1.clone()),
                None => by_id.query_row([r], |x| x.get(0)).optional()?,
            },
        };
        let item = PageItem {
            url: url.clone(),
            host: hosts.get(site).cloned().unwrap_or_default(),
            status: *status,
            snapshots: snapshots.get(id).copied().unwrap_or(0),
            replica_of,
        };
        keyed.push((natural_key(url), item));
    }
    keyed.sort_unstable_by(|(ka, a), (kb, b)| {
        ka.cmp(kb)
            .then_with(|| a.url.len().cmp(&b.url.len()))
            .then_with(|| a.url.cmp(&b.url))
    });
    Ok(keyed.into_iter().map(|(_, item)| item).collect())
}

/// Every media type stored (without parameters), sorted: the Pages filter's menu. Reads every
/// snapshot row (the type is stored after the response body), so it takes a while on a big
/// workspace: the panel loads it apart from the list.
pub fn content_types(ws: &Workspace) -> Result<Vec<String>> {
    let mut st = ws
        .conn()
        .prepare("SELECT DISTINCT content_type FROM snapshots WHERE content_type IS NOT NULL")?;
    let mut types: Vec<String> = st
        .query_map([], |r| r.get::<_, String>(0))?
        .filter_map(|t| t.ok())
        .map(|t| {
            t.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
        .collect();
    types.sort();
    types.dedup();
    Ok(types)
}

/// One stored page, as `tianwang pages --json` lists it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PageRow {
    pub url: String,
    pub status: Option<i64>,
    pub md5: Option<String>,
    pub fetched_at: Option<String>,
    pub snapshots: i64,
    pub replica_of: Option<String>,
    pub depth: Option<i64>,
}

/// Every page of the workspace with its latest snapshot's digest.
pub(crate) fn list_pages(ws: &Workspace) -> Result<Vec<PageRow>> {
    let mut stmt = ws.conn().prepare(
        "SELECT p.url, p.status,
                (SELECT md5 FROM snapshots s WHERE s.page_id = p.id ORDER BY s.id DESC LIMIT 1),
                (SELECT fetched_at FROM snapshots s WHERE s.page_id = p.id ORDER BY s.id DESC LIMIT 1),
                (SELECT count(*) FROM snapshots s WHERE s.page_id = p.id),
                (SELECT url FROM pages r WHERE r.id = p.replica_of),
                p.depth
         FROM pages p ORDER BY p.url",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok(PageRow {
                url: r.get(0)?,
                status: r.get(1)?,
                md5: r.get(2)?,
                fetched_at: r.get(3)?,
                snapshots: r.get(4)?,
                replica_of: r.get(5)?,
                depth: r.get(6)?,
            })
        })?
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Natural order for URLs and names: runs of digits compare by value, so `page2` comes before
/// `page10`; everything else compares as text (case-sensitive), then by length.
pub(crate) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.len().cmp(&b.len()),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let i = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let j = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (&x[..i], &y[..j]);
                // Compare by value without parsing: strip leading zeros, then length, then digits.
                let n0 = &n[n.iter().take_while(|c| **c == b'0').count()..];
                let m0 = &m[m.iter().take_while(|c| **c == b'0').count()..];
                let o = n0.len().cmp(&m0.len()).then_with(|| n0.cmp(m0));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[i..];
                y = &y[j..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// A byte key ordered like [`natural_cmp`] up to its final tie-break: comparing the keys, then
/// the texts' lengths, gives `natural_cmp`'s order. Text bytes are kept; a run of digits becomes
/// `'0'`, the length of its value (leading zeros stripped) as 4 big-endian bytes, then the value's
/// digits. The `'0'` compares with any other byte as the run's first digit does (both are digits,
/// the other byte is not), and two runs compare by length, then digits, as `natural_cmp` does.
pub(crate) fn natural_key(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 8);
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let run = &b[start..i];
        let value = &run[run.iter().take_while(|c| **c == b'0').count()..];
        out.push(b'0');
        out.extend_from_slice(&u32::try_from(value.len()).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(value);
    }
    out
}

/// The page list as a table (`tianwang pages --csv`).
pub(crate) fn pages_table(rows: &[PageRow]) -> crate::engine::export::Table {
    crate::engine::export::Table::new(
        "pages",
        [
            "url",
            "status",
            "md5",
            "fetched_at",
            "snapshots",
            "replica_of",
            "depth",
        ],
    )
    .with_rows(rows.iter().map(|p| {
        [
            p.url.clone(),
            p.status.map_or(String::new(), |s| s.to_string()),
            p.md5.clone().unwrap_or_default(),
            p.fetched_at.clone().unwrap_or_default(),
            p.snapshots.to_string(),
            p.replica_of.clone().unwrap_or_default(),
            p.depth.map_or(String::new(), |d| d.to_string()),
        ]
    }))
}
