//! Inspecting stored pages: what exactly did we keep for a URL, and how did it change?
//!
//! For researchers: pages filtered by URL text, host and status; for one page its snapshots
//! (the raw HTTP response of each fetch, byte-exact — the book's 网页快照 [L1774–1778]), its
//! out-links and in-links from the crawled link graph, its replicas (pages with the same
//! content [L1188–1202]), each snapshot split into headers and body, decoded with the page's
//! charset, shown as text and hex, and a line diff between any two snapshots.
//!
//! ```no_run
//! use tianwang::engine::{inspect, store::Workspace};
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let d = inspect::page(&ws, "http://www.huaxia.localhost/")?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use rusqlite::OptionalExtension;
use serde::Serialize;

use crate::engine::error::{EngineError, Result};
use crate::engine::store::Workspace;

mod list;
#[cfg(test)]
use list::natural_key;
pub use list::{PageFilter, PageItem, PageList, content_types, list};
pub(crate) use list::{list_pages, natural_cmp, pages_table};

/// One snapshot's summary.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SnapshotInfo {
    pub id: i64,
    pub fetched_at: String,
    pub status: Option<i64>,
    pub md5: Option<String>,
    pub bytes: i64,
    /// The URL asked for, when a redirect led here.
    pub origin: Option<String>,
}

/// Everything about one page.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PageDetail {
    pub url: String,
    pub status: Option<i64>,
    pub depth: Option<i64>,
    pub first_seen: String,
    pub snapshots: Vec<SnapshotInfo>,
    pub out_links: Vec<String>,
    pub in_links: Vec<String>,
    /// The page this one duplicates, if any.
    pub replica_of: Option<String>,
    /// Pages that duplicate this one.
    pub replicas: Vec<String>,
}

fn strings(ws: &Workspace, sql: &str, p: impl rusqlite::Params) -> Result<Vec<String>> {
    let mut st = ws.conn().prepare(sql)?;
    let v = st
        .query_map(p, |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    Ok(v)
}

/// The page at `url` (exact, as stored).
pub fn page(ws: &Workspace, url: &str) -> Result<PageDetail> {
    let c = ws.conn();
    let (id, status, depth, first_seen, replica_of): (i64, Option<i64>, Option<i64>, String, Option<String>) = c
        .query_row(
            "SELECT id, status, depth, first_seen, (SELECT url FROM pages r WHERE r.id = p.replica_of)
             FROM pages p WHERE url = ?1",
            [url],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?
        .ok_or_else(|| EngineError::invalid("url", format!("{url} is not in this workspace")))?;
    let mut st = c.prepare(
        "SELECT id, fetched_at, status, md5, length(raw), origin FROM snapshots WHERE page_id = ?1 ORDER BY id",
    )?;
    let snapshots = st
        .query_map([id], |r| {
            Ok(SnapshotInfo {
                id: r.get(0)?,
                fetched_at: r.get(1)?,
                status: r.get(2)?,
                md5: r.get(3)?,
                bytes: r.get::<_, Option<i64>>(4)?.unwrap_or(0),
                origin: r.get(5)?,
            })
        })?
        .collect::<std::result::Result<_, _>>()?;
    Ok(PageDetail {
        url: url.to_string(),
        status,
        depth,
        first_seen,
        snapshots,
        out_links: strings(
            ws,
            "SELECT to_url FROM links WHERE from_page = ?1 ORDER BY to_url",
            [id],
        )?,
        in_links: strings(
            ws,
            "SELECT p.url FROM links l JOIN pages p ON p.id = l.from_page WHERE l.to_url = ?1 ORDER BY p.url",
            [url],
        )?,
        replica_of,
        replicas: strings(
            ws,
            "SELECT url FROM pages WHERE replica_of = ?1 ORDER BY url",
            [id],
        )?,
    })
}

/// One snapshot opened up.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SnapshotView {
    pub id: i64,
    /// Status line and response headers.
    pub head: String,
    /// The request this snapshot answered, when the crawler recorded it.
    pub request: Option<String>,
    pub body_bytes: usize,
    /// The charset used to decode, the step that decided it and why, and the text.
    pub encoding: String,
    pub encoding_decision: String,
    /// The decision's notes, for a view that says them in its own language.
    #[serde(skip)]
    pub encoding_notes: Vec<crate::engine::text::encoding::Note>,
    pub text: String,
    /// The first bytes of the body as a hex dump (offset, hex, ASCII).
    pub hex: String,
}

/// Open snapshot `id`; `hex_bytes` limits the hex dump.
pub fn snapshot(ws: &Workspace, id: i64, hex_bytes: usize) -> Result<SnapshotView> {
    let (raw, ct, request): (Vec<u8>, Option<String>, Option<String>) = ws
        .conn()
        .query_row(
            "SELECT raw, content_type, request FROM snapshots WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get::<_, Option<Vec<u8>>>(0)?.unwrap_or_default(),
                    r.get(1)?,
                    r.get(2)?,
                ))
            },
        )
        .optional()?
        .ok_or_else(|| EngineError::invalid("snapshot", format!("no snapshot {id}")))?;
    let (head, content) = crate::engine::formats::http::snapshot_content(&raw);
    let stored_body = &raw[head.len()..];
    let head = String::from_utf8_lossy(head).trim_end().to_string();
    let ct = ct.or_else(|| crate::engine::formats::http::content_type(head.as_bytes()));
    let (decision, text) =
        crate::engine::text::encoding::decide_and_decode(&content, ct.as_deref(), None, None)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
    Ok(SnapshotView {
        id,
        head,
        request,
        body_bytes: content.len(),
        encoding: decision.encoding.name().to_string(),
        encoding_decision: format!(
            "{}: {}",
            format!("{:?}", decision.decided_by).to_lowercase(),
            decision.note()
        ),
        encoding_notes: decision.notes.clone(),
        text,
        // The bytes as stored (compressed if they came compressed).
        hex: hex_dump(&stored_body[..stored_body.len().min(hex_bytes)]),
    })
}

/// The content of a page's latest snapshot (Content-Encoding undone) and its Content-Type, for
/// the cleaner; `None` when the page has no snapshot.
pub(crate) fn latest_content(
    ws: &Workspace,
    url: &str,
) -> Result<Option<(Vec<u8>, Option<String>)>> {
    let row: Option<(Option<Vec<u8>>, Option<String>)> = ws
        .conn()
        .query_row(
            "SELECT s.raw, s.content_type FROM snapshots s JOIN pages p ON p.id = s.page_id
             WHERE p.url = ?1 ORDER BY s.id DESC LIMIT 1",
            [url],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(row.map(|(raw, ct)| {
        let raw = raw.unwrap_or_default();
        let (head, content) = crate::engine::formats::http::snapshot_content(&raw);
        let ct = ct.or_else(|| crate::engine::formats::http::content_type(head));
        (content, ct)
    }))
}

/// A classic hex dump: offset, 16 bytes in hex, printable ASCII.
pub(crate) fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, chunk) in bytes.chunks(16).enumerate() {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        let ascii: String = chunk
            .iter()
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        out.push_str(&format!(
            "{:08x}  {:<48} {}\n",
            i * 16,
            hex.join(" "),
            ascii
        ));
    }
    out
}

/// A line of a diff.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub enum DiffLine {
    Same(String),
    Removed(String),
    Added(String),
}

/// Line diff of `a` → `b` (longest common subsequence; large inputs fall back to a
/// prefix/suffix comparison so it never takes long).
pub fn diff(a: &str, b: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut out: Vec<DiffLine> = a[..pre]
        .iter()
        .map(|l| DiffLine::Same(l.to_string()))
        .collect();
    if ma.len() * mb.len() > 4_000_000 {
        out.extend(ma.iter().map(|l| DiffLine::Removed(l.to_string())));
        out.extend(mb.iter().map(|l| DiffLine::Added(l.to_string())));
    } else {
        // lcs[i][j] = LCS length of ma[i..], mb[j..]
        let (n, m) = (ma.len(), mb.len());
        let mut lcs = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] = if ma[i] == mb[j] {
                    lcs[i + 1][j + 1] + 1
                } else {
                    lcs[i + 1][j].max(lcs[i][j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && ma[i] == mb[j] {
                out.push(DiffLine::Same(ma[i].to_string()));
                i += 1;
                j += 1;
            } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
                out.push(DiffLine::Added(mb[j].to_string()));
                j += 1;
            } else {
                out.push(DiffLine::Removed(ma[i].to_string()));
                i += 1;
            }
        }
    }
    out.extend(
        a[a.len() - suf..]
            .iter()
            .map(|l| DiffLine::Same(l.to_string())),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_finds_changed_lines() {
        let d = diff("a\nb\nc\nd", "a\nB\nc\nd\ne");
        assert_eq!(
            d,
            vec![
                DiffLine::Same("a".into()),
                DiffLine::Added("B".into()),
                DiffLine::Removed("b".into()),
                DiffLine::Same("c".into()),
                DiffLine::Same("d".into()),
                DiffLine::Added("e".into()),
            ]
        );
        assert!(
            diff("x", "x")
                .iter()
                .all(|l| matches!(l, DiffLine::Same(_)))
        );
    }

    #[test]
    fn hex_dump_layout() {
        let h = hex_dump(b"GET / HTTP/1.1\r\n\xe4\xb8\xad");
        assert!(h.starts_with("00000000  47 45 54 20"), "{h}");
        assert!(h.contains("GET / HTTP/1.1.."));
        assert!(h.lines().nth(1).unwrap().starts_with("00000010  e4 b8 ad"));
    }

    #[test]
    fn a_loaded_page_opens_with_history_and_diff() {
        use crate::engine::jobs::{JobRunner, JobState};
        use crate::engine::sample::load::LoadSample;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        Workspace::open_or_create(&p).unwrap();
        let runner = JobRunner::new(p.clone(), std::sync::Arc::new(|| {}));
        for changed in [false, true] {
            assert!(matches!(
                runner.spawn(Box::new(LoadSample { changed })).wait(),
                JobState::Done(_)
            ));
        }
        let ws = Workspace::open_existing(&p).unwrap();
        let changed_url = crate::engine::sample::web::SampleWeb::build(80, true)
            .unwrap()
            .truth
            .changed[0]
            .clone();
        let detail = page(&ws, &changed_url).unwrap();
        assert_eq!(detail.snapshots.len(), 2);
        let a = snapshot(&ws, detail.snapshots[0].id, 256).unwrap();
        let b = snapshot(&ws, detail.snapshots[1].id, 256).unwrap();
        assert!(a.head.starts_with("HTTP/1.1 200"));
        let added: Vec<_> = diff(&a.text, &b.text)
            .into_iter()
            .filter(|l| matches!(l, DiffLine::Added(_)))
            .collect();
        assert!(!added.is_empty() && added.len() < 5, "{added:?}");
        // GBK pages decode as GBK.
        let PageList { items, hosts, .. } = list(
            &ws,
            &PageFilter {
                host: Some("www.jiangnan.localhost".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(hosts.len() >= 6 && !items.is_empty());
        let gbk = page(&ws, &items[0].url).unwrap();
        let view = snapshot(&ws, gbk.snapshots[0].id, 16).unwrap();
        assert_eq!(view.encoding, "gb18030", "GBK pages decode with GB18030");
        assert!(
            view.encoding_decision.contains("gb18030"),
            "{}",
            view.encoding_decision
        );
        assert!(
            page(&ws, "http://nowhere.localhost/")
                .unwrap_err()
                .is_user_error()
        );
    }

    /// A page (or snapshot) deleted from under the inspector — by another process, a
    /// re-import — is an error that names it, never a panic.
    #[test]
    fn a_page_deleted_from_under_the_inspector_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        let ws = Workspace::open_or_create(&p).unwrap();
        ws.conn()
            .execute_batch(
                "INSERT INTO sites(host, first_seen) VALUES ('a.localhost', 'x');
                 INSERT INTO pages(url, site_id, first_seen) VALUES ('http://a.localhost/', 1, 'x');
                 INSERT INTO snapshots(page_id, fetched_at, status, raw) VALUES (1, 'x', 200, x'48');",
            )
            .unwrap();
        assert!(page(&ws, "http://a.localhost/").is_ok());
        let other = Workspace::open_existing(&p).unwrap();
        other
            .conn()
            .execute_batch("DELETE FROM snapshots; DELETE FROM pages;")
            .unwrap();
        let e = page(&ws, "http://a.localhost/").unwrap_err();
        assert!(
            e.is_user_error() && e.to_string().contains("not in this workspace"),
            "{e}"
        );
        assert!(snapshot(&ws, 1, 16).is_err());
    }

    #[test]
    fn natural_order_compares_numbers_by_value() {
        use std::cmp::Ordering::*;
        assert_eq!(natural_cmp("page2", "page10"), Less);
        assert_eq!(natural_cmp("page10", "page2"), Greater);
        assert_eq!(natural_cmp("a/9/x", "a/10/a"), Less);
        assert_eq!(
            natural_cmp("p007", "p7"),
            Greater,
            "equal value: the longer text last"
        );
        assert_eq!(natural_cmp("abc", "abd"), Less);
        assert_eq!(natural_cmp("abc", "abc"), Equal);
        assert_eq!(natural_cmp("ab", "abc"), Less);
        assert_eq!(
            natural_cmp("x99999999999999999999999", "x100000000000000000000000"),
            Less,
            "no overflow on long runs"
        );
        let mut v = vec!["http://a/p10.html", "http://a/p2.html", "http://a/p1.html"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["http://a/p1.html", "http://a/p2.html", "http://a/p10.html"]
        );
    }

    #[test]
    fn the_natural_key_orders_as_natural_cmp_does() {
        // Every pair of short texts over digits, zeros and the bytes around '0'..'9'.
        let alphabet = ["0", "1", "9", "00", "10", "a", "/", ":", ".", "Z"];
        let mut texts = vec![String::new()];
        for _ in 0..3 {
            let more: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |a| format!("{t}{a}")))
                .collect();
            texts.extend(more);
        }
        texts.sort();
        texts.dedup();
        assert!(texts.len() > 500, "{}", texts.len());
        for a in &texts {
            for b in &texts {
                let by_key = natural_key(a)
                    .cmp(&natural_key(b))
                    .then_with(|| a.len().cmp(&b.len()));
                assert_eq!(by_key, natural_cmp(a, b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn the_whole_list_is_sorted_naturally_with_counts_and_replicas() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&dir.path().join("w.tianwang")).unwrap();
        ws.conn()
            .execute_batch(
                "INSERT INTO sites (id, host, first_seen) VALUES (1, 'a', 't'), (2, 'b', 't');
                 INSERT INTO pages (id, url, site_id, first_seen, status, replica_of) VALUES
                   (1, 'http://a/p10', 1, 't', 200, NULL),
                   (2, 'http://a/p2', 1, 't', 404, NULL),
                   (3, 'http://b/p1', 2, 't', 200, 1),
                   (4, 'http://a/p02', 1, 't', NULL, NULL);
                 INSERT INTO snapshots (page_id, fetched_at) VALUES (1, 't'), (1, 't'), (3, 't');",
            )
            .unwrap();
        let all = list(&ws, &PageFilter::default()).unwrap();
        let urls: Vec<&str> = all.items.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(
            urls,
            ["http://a/p2", "http://a/p02", "http://a/p10", "http://b/p1"]
        );
        assert_eq!(all.total, 4);
        assert_eq!(all.statuses, [200, 404]);
        assert_eq!(all.hosts, ["a", "b"]);
        let b = &all.items[3];
        assert_eq!((b.host.as_str(), b.snapshots), ("b", 1));
        assert_eq!(b.replica_of.as_deref(), Some("http://a/p10"));
        assert_eq!(all.items[2].snapshots, 2);
        assert_eq!(all.items[0].snapshots, 0);
        // The original filtered out: its URL is still named.
        let only_b = list(
            &ws,
            &PageFilter {
                host: Some("b".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(only_b.items.len(), 1);
        assert_eq!(
            only_b.statuses,
            [200, 404],
            "every status, not only the listed ones"
        );
        assert_eq!(only_b.items[0].replica_of.as_deref(), Some("http://a/p10"));
        // The limited list (DocView's picker) agrees on the same rows.
        let limited = list(
            &ws,
            &PageFilter {
                limit: 10,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(limited.items, all.items);
        assert_eq!(limited.total, 4);
    }
}
