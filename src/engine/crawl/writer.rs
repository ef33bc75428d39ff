//! The crawl's writer: the coordinator's writes — frontier rows, fetch log rows, pages,
//! snapshots or replica marks, and links — collected into batches on one thread and
//! committed on another ([`super::commit`]), so the coordinator keeps only the scheduler and
//! the in-memory visited set, and the store's work runs beside it instead of in its path (the
//! book's gatherers hand finished pages to a separate store [L1188–1202]).
//!
//! The coordinator sends [`Unit`]s in order: all the writes one result causes (a fetched page
//! with its snapshot, fetch row, frontier state, links and the URLs it discovered). The
//! collector gathers whole units into a batch and prepares it off the committer's path (the
//! snapshot bytes joined, bodies dropped, new frontier rows sorted by URL with the batch's
//! changes to them folded in, links sorted by target URL or page); it hands the batch over at 4,096
//! fetches or 1 s, or when the channel runs dry — if the committer is still writing the
//! previous one, the batch grows on (up to 16,384 fetches or 64 MB) and the committer then
//! takes more per transaction. Each batch is one transaction of whole units, so what is
//! committed is always a prefix of what the coordinator decided: a page is never in without
//! its frontier state and links. A crash loses the batches not yet committed, whose URLs are
//! still `queued` in SQLite and are fetched again on resume.
//!
//! Sorted, one batch's inserts walk each large index once instead of jumping around it: the
//! links (the `links_to` index on the target URL; in page order while a crawl into a
//! workspace without links leaves that index out, see [`super::commit`]) and the new
//! frontier rows (unique URL). The
//! frontier's state changes follow its new rows, in the order decided, so a row is never
//! updated before it is in; a change to a row new in the same batch is made to the row before
//! it is written (one insert, no second move in `frontier_queued`).
//!
//! ```ignore
//! let w = Writer::start(ws_path, job_id)?;
//! w.send(Unit { ops: vec![Op::Update(Update::State { id: 7, state: "failed", why: None })], fetch: true })?;
//! let stats = w.finish()?; // commits everything sent
//! ```

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::commit::{Batch, Committer, Event};
use super::fetch::Fetched;
use crate::engine::error::{EngineError, Result};

/// Hand a batch to the committer after this many fetches or this long, whichever comes first
/// (or when the coordinator has sent nothing for [`IDLE`]). Larger batches write the index
/// pages they touch to the WAL fewer times (1,024 fetches or 250 ms cost ~15 % more per page).
const BATCH_FETCHES: usize = 4096;
const BATCH_TIME: Duration = Duration::from_secs(1);
/// While the committer is still writing the previous batch the open one grows, up to this
/// many fetches or bytes of snapshots; then the collector waits for the committer.
const MAX_BATCH_FETCHES: usize = 4 * BATCH_FETCHES;
const MAX_BATCH_BYTES: usize = 64 << 20;
const IDLE: Duration = Duration::from_millis(20);
/// Units in flight between coordinator and writer at most (back-pressure: pages hold bodies).
const CHANNEL: usize = 4096;

/// A frontier row numbered by the coordinator.
pub(super) struct FrontierRow {
    pub(super) id: i64,
    pub(super) url: String,
    pub(super) host: String,
    pub(super) depth: u32,
    pub(super) priority: f64,
    pub(super) why: String,
    pub(super) backlinks: i64,
    pub(super) state: &'static str,
    pub(super) at: Arc<str>,
}

/// A response to record: the log row, the page, its snapshot or replica mark, its frontier
/// row done, its out-links.
pub(super) struct PageRec {
    pub(super) frontier_id: i64,
    /// The URL as queued.
    pub(super) url: String,
    /// Canonical URL finally answered.
    pub(super) final_url: String,
    pub(super) redirected: bool,
    pub(super) host: String,
    pub(super) depth: u32,
    pub(super) at: Arc<str>,
    pub(super) f: Box<Fetched>,
    pub(super) body_len: usize,
    /// `http_404`, `mime`, … (nothing is stored then).
    pub(super) error_kind: Option<String>,
    /// MD5 of the content, when it is to be stored (2xx/3xx, an allowed type, not a 304).
    pub(super) md5: Option<[u8; 16]>,
    pub(super) links: Vec<url::Url>,
}

pub(super) enum Op {
    Frontier(FrontierRow),
    /// A change to a frontier row already numbered.
    Update(Update),
    /// A fetch that got no response: its log row, its frontier row failed.
    Failed {
        id: i64,
        url: String,
        kind: &'static str,
        message: String,
        at: Arc<str>,
    },
    Page(Box<PageRec>),
}

/// All the writes one result causes; `fetch`: it counts toward the batch size.
pub(super) struct Unit {
    pub(super) ops: Vec<Op>,
    pub(super) fetch: bool,
}

/// What the writer decided and how long its committer worked, readable while it runs.
#[derive(Debug, Default)]
pub(super) struct WriterStats {
    pub(super) stored: AtomicU64,
    pub(super) replicas: AtomicU64,
    pub(super) busy_ns: AtomicU64,
}

impl WriterStats {
    pub(super) fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }
    pub(super) fn replicas(&self) -> u64 {
        self.replicas.load(Ordering::Relaxed)
    }
    pub(super) fn busy_s(&self) -> f64 {
        self.busy_ns.load(Ordering::Relaxed) as f64 / 1e9
    }
}

/// The coordinator's handle on the writer (its collector thread, which owns the committer).
pub(super) struct Writer {
    tx: Option<crossbeam_channel::Sender<Unit>>,
    thread: Option<std::thread::JoinHandle<Result<()>>>,
    pub(super) stats: Arc<WriterStats>,
}

impl Writer {
    /// Start the committer (its own connections on the workspace) and the collector.
    pub(super) fn start(path: &Path, job_id: Option<i64>) -> Result<Writer> {
        let stats = Arc::new(WriterStats::default());
        let committer = Committer::start(path, job_id, stats.clone())?;
        let (tx, rx) = crossbeam_channel::bounded::<Unit>(CHANNEL);
        let thread = std::thread::Builder::new()
            .name("crawl-writer".into())
            .spawn(move || collect(&rx, committer))
            .map_err(|e| EngineError::Internal(format!("writer thread: {e}")))?;
        Ok(Writer {
            tx: Some(tx),
            thread: Some(thread),
            stats,
        })
    }

    /// Hand a unit to the writer (waits while the writer is [`CHANNEL`] units behind). If the
    /// writer has stopped on an error, that error.
    pub(super) fn send(&mut self, unit: Unit) -> Result<()> {
        if unit.ops.is_empty() {
            return Ok(());
        }
        let sent = self.tx.as_ref().map(|tx| tx.send(unit).is_ok());
        if sent == Some(true) {
            return Ok(());
        }
        self.finish()?;
        Err(EngineError::Internal("the crawl's writer stopped".into()))
    }

    /// Close the channel, let the writer commit everything sent, and wait for it.
    pub(super) fn finish(&mut self) -> Result<()> {
        self.tx = None;
        match self.thread.take().map(|t| t.join()) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(_)) => Err(EngineError::Internal("the crawl's writer panicked".into())),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The collector thread: units into batches, batches to the committer; at the end (the
/// coordinator closed the channel) the last batch, and the committer's result.
fn collect(rx: &crossbeam_channel::Receiver<Unit>, mut committer: Committer) -> Result<()> {
    let mut open = Open::default();
    let by_page = committer.links_to_deferred();
    let sent = (|| -> Result<()> {
        loop {
            let idle = match rx.recv_timeout(IDLE) {
                Ok(unit) => {
                    open.add(unit);
                    false
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => true,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
            };
            let Some(started) = open.started else {
                continue;
            };
            let due = idle || open.fetches >= BATCH_FETCHES || started.elapsed() >= BATCH_TIME;
            let full = open.fetches >= MAX_BATCH_FETCHES || open.bytes >= MAX_BATCH_BYTES;
            if full || (due && committer.waiting()) {
                committer.send(open.take(by_page))?;
            }
        }
    })();
    if sent.is_ok() && open.started.is_some() {
        committer.send(open.take(by_page))?;
    }
    // Everything handed over is committed (also after an error: a prefix).
    let committed = committer.finish();
    sent.and(committed)
}

/// The batch being collected.
#[derive(Default)]
struct Open {
    batch: Batch,
    /// When its first unit came.
    started: Option<Instant>,
    fetches: usize,
    /// Snapshot bytes held.
    bytes: usize,
}

impl Open {
    fn add(&mut self, unit: Unit) {
        self.started.get_or_insert_with(Instant::now);
        if unit.fetch {
            self.fetches += 1;
        }
        let b = &mut self.batch;
        for op in unit.ops {
            match op {
                Op::Frontier(r) => b.rows.push(r),
                Op::Update(u) => b.updates.push(u),
                Op::Failed {
                    id,
                    url,
                    kind,
                    message,
                    at,
                } => {
                    b.events.push(Event::Failed {
                        url,
                        kind,
                        message,
                        at,
                    });
                    b.updates.push(Update::State {
                        id,
                        state: "failed",
                        why: None,
                    });
                }
                Op::Page(mut rec) => {
                    let i = b.events.len() as u32;
                    b.links
                        .extend(std::mem::take(&mut rec.links).into_iter().map(|u| (i, u)));
                    b.updates.push(Update::State {
                        id: rec.frontier_id,
                        state: "done",
                        why: None,
                    });
                    // The snapshot's bytes, byte-exact: the head and the body as received
                    // (compressed if it came compressed); the rest of the response is dropped.
                    let f = &mut rec.f;
                    let raw = if rec.md5.is_some() {
                        let mut raw = Vec::with_capacity(f.head.len() + f.raw_body.len());
                        raw.extend_from_slice(&f.head);
                        raw.extend_from_slice(&f.raw_body);
                        raw
                    } else {
                        Vec::new()
                    };
                    f.head = Vec::new();
                    f.raw_body = Vec::new();
                    f.body = Vec::new();
                    self.bytes += raw.len();
                    b.events.push(Event::Page { rec, raw });
                }
            }
        }
    }

    /// The batch, prepared for the committer: new frontier rows sorted by URL with the
    /// batch's changes to them folded in, links sorted by target URL — or, `by_page`, while
    /// the `links_to` index is left out, in page order (appends to the primary key).
    fn take(&mut self, by_page: bool) -> Batch {
        let mut b = std::mem::take(&mut self.batch);
        *self = Open::default();
        b.rows.sort_unstable_by(|x, y| x.url.cmp(&y.url));
        b.updates = fold_into_rows(&mut b.rows, std::mem::take(&mut b.updates));
        if by_page {
            b.links
                .sort_unstable_by(|x, y| x.0.cmp(&y.0).then(x.1.as_str().cmp(y.1.as_str())));
        } else {
            b.links
                .sort_unstable_by(|x, y| x.1.as_str().cmp(y.1.as_str()).then(x.0.cmp(&y.0)));
        }
        b
    }
}

/// A change to a frontier row, applied after the batch's new rows.
pub(super) enum Update {
    /// The row changes state (`done`, `robots`, `failed`), with a new reason if given.
    State {
        id: i64,
        state: &'static str,
        why: Option<&'static str>,
    },
    /// One more in-link (backlinks order); the new priority if the row is queued.
    Backlink {
        id: i64,
        priority: Option<(f64, String)>,
    },
}

/// Apply the changes to rows of this batch (not written yet) to the rows themselves, in the
/// order decided, and return the others: a URL discovered and fetched within one batch is
/// written once, done, instead of inserted queued and moved in `frontier_queued` again.
fn fold_into_rows(rows: &mut [FrontierRow], updates: Vec<Update>) -> Vec<Update> {
    let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let mut rest = Vec::with_capacity(updates.len());
    for u in updates {
        let id = match &u {
            Update::State { id, .. } | Update::Backlink { id, .. } => *id,
        };
        let Some(r) = index.get(&id).map(|&i| &mut rows[i]) else {
            rest.push(u);
            continue;
        };
        match u {
            Update::State { state, why, .. } => {
                r.state = state;
                if let Some(why) = why {
                    r.why = why.to_string();
                }
            }
            Update::Backlink { priority, .. } => {
                r.backlinks += 1;
                if let Some((priority, why)) = priority {
                    r.priority = priority;
                    r.why = why;
                }
            }
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::super::commit::insert_links;
    use super::*;
    use crate::engine::store::Workspace;

    fn row(id: i64, url: &str, state: &'static str) -> Op {
        Op::Frontier(FrontierRow {
            id,
            url: url.into(),
            host: "h".into(),
            depth: 0,
            priority: -(id as f64),
            why: "BFS: discovery order".into(),
            backlinks: 1,
            state,
            at: "2026-01-01T00:00:00.000Z".into(),
        })
    }

    /// A row discovered and changed within one batch is in, changed (its change is applied
    /// after the batch's new rows); a stopped writer has committed everything it was sent.
    #[test]
    fn frontier_changes_follow_their_rows_and_finish_commits_all() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.tianwang");
        drop(Workspace::open_or_create(&path).unwrap());
        let mut w = Writer::start(&path, None).unwrap();
        w.send(Unit {
            ops: vec![
                row(2, "http://h/b", "queued"),
                row(1, "http://h/a", "queued"),
            ],
            fetch: false,
        })
        .unwrap();
        w.send(Unit {
            ops: vec![
                Op::Update(Update::State {
                    id: 2,
                    state: "robots",
                    why: Some("robots.txt disallows"),
                }),
                row(3, "http://h/c", "queued"),
                Op::Failed {
                    id: 3,
                    url: "http://h/c".into(),
                    kind: "timeout",
                    message: "slow".into(),
                    at: "2026-01-01T00:00:00.000Z".into(),
                },
            ],
            fetch: true,
        })
        .unwrap();
        w.finish().unwrap();
        let ws = Workspace::open_existing(&path).unwrap();
        let mut st = ws
            .conn()
            .prepare("SELECT id, url, state, why FROM frontier ORDER BY id")
            .unwrap();
        let got: Vec<(i64, String, String, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        let s = |x: &str| x.to_string();
        assert_eq!(
            got,
            [
                (1, s("http://h/a"), s("queued"), s("BFS: discovery order")),
                (2, s("http://h/b"), s("robots"), s("robots.txt disallows")),
                (3, s("http://h/c"), s("failed"), s("BFS: discovery order")),
            ]
        );
        let fetches: i64 = ws
            .conn()
            .query_row(
                "SELECT count(*) FROM fetches WHERE error_kind = 'timeout'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(fetches, 1);
    }

    /// In-links counted on a row of the same batch (folded into it) and on a row committed
    /// before (an UPDATE) come out the same.
    #[test]
    fn backlinks_count_the_same_within_and_across_batches() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.tianwang");
        drop(Workspace::open_or_create(&path).unwrap());
        let backlink = |id, p: Option<f64>| {
            Op::Update(Update::Backlink {
                id,
                priority: p.map(|p| (p, format!("{p} in-links"))),
            })
        };
        let mut w = Writer::start(&path, None).unwrap();
        w.send(Unit {
            ops: vec![row(1, "http://h/a", "queued")],
            fetch: false,
        })
        .unwrap();
        w.finish().unwrap();
        let mut w = Writer::start(&path, None).unwrap();
        w.send(Unit {
            ops: vec![
                row(2, "http://h/b", "queued"),
                backlink(1, Some(2.0)),
                backlink(2, Some(2.0)),
                backlink(2, None),
            ],
            fetch: false,
        })
        .unwrap();
        w.finish().unwrap();
        let ws = Workspace::open_existing(&path).unwrap();
        let mut st = ws
            .conn()
            .prepare("SELECT id, backlinks, priority, why FROM frontier ORDER BY id")
            .unwrap();
        let got: Vec<(i64, i64, f64, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        assert_eq!(
            got,
            [
                (1, 2, 2.0, "2 in-links".to_string()),
                (2, 3, 2.0, "2 in-links".to_string()),
            ]
        );
    }

    #[test]
    fn multi_row_link_inserts_keep_every_link_once() {
        let d = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&d.path().join("w.tianwang")).unwrap();
        let c = ws.conn();
        c.execute(
            "INSERT INTO sites(id, host, first_seen) VALUES (1, 'h', 'now')",
            [],
        )
        .unwrap();
        c.execute(
            "INSERT INTO pages(id, url, site_id, first_seen) VALUES (1, 'http://h/', 1, 'now')",
            [],
        )
        .unwrap();
        for n in [0usize, 1, 9, 16, 31, 40] {
            c.execute("DELETE FROM links", []).unwrap();
            let mut links: Vec<url::Url> = (0..n)
                .map(|i| url::Url::parse(&format!("http://h/{i}")).unwrap())
                .collect();
            // A duplicate is ignored, as one row per (page, URL).
            if let Some(u) = links.first().cloned() {
                links.push(u);
            }
            let rows: Vec<(i64, url::Url)> = links.into_iter().map(|u| (1, u)).collect();
            insert_links(c, &rows).unwrap();
            let got: i64 = c
                .query_row("SELECT count(DISTINCT to_url) FROM links", [], |r| r.get(0))
                .unwrap();
            let rows: i64 = c
                .query_row("SELECT count(*) FROM links", [], |r| r.get(0))
                .unwrap();
            assert_eq!((got, rows), (n as i64, n as i64), "{n} links");
        }
    }

    /// The `links_to` index's definition in the schema, if it is there.
    fn links_to(path: &Path) -> Option<String> {
        use rusqlite::OptionalExtension;
        let ws = Workspace::open_existing(path).unwrap();
        ws.conn()
            .query_row(
                "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'links_to'",
                [],
                |r| r.get(0),
            )
            .optional()
            .unwrap()
    }

    /// A crawl into a workspace without links writes without `links_to` and leaves it built as
    /// the schema has it; one into a workspace with links keeps it; one that finds it missing
    /// (a crawl killed before) builds it when it ends.
    #[test]
    fn links_to_is_deferred_only_without_links_and_whole_after_every_crawl() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.tianwang");
        drop(Workspace::open_or_create(&path).unwrap());
        let schema = links_to(&path);
        assert_eq!(
            schema.as_deref(),
            Some("CREATE INDEX links_to ON links(to_url)")
        );
        let mut w = Writer::start(&path, None).unwrap();
        assert_eq!(links_to(&path), None, "dropped while writing");
        w.finish().unwrap();
        assert_eq!(links_to(&path), schema);

        let ws = Workspace::open_existing(&path).unwrap();
        ws.conn()
            .execute_batch(
                "INSERT INTO sites(id, host, first_seen) VALUES (1, 'h', 'now');
                 INSERT INTO pages(id, url, site_id, first_seen) VALUES (1, 'http://h/', 1, 'now');
                 INSERT INTO links(from_page, to_url) VALUES (1, 'http://h/a');",
            )
            .unwrap();
        let mut w = Writer::start(&path, None).unwrap();
        assert_eq!(links_to(&path), schema, "kept beside existing links");
        w.finish().unwrap();

        ws.conn().execute_batch("DROP INDEX links_to").unwrap();
        let mut w = Writer::start(&path, None).unwrap();
        assert_eq!(links_to(&path), None, "still missing while writing");
        w.finish().unwrap();
        assert_eq!(links_to(&path), schema, "built at the end");
        let from: i64 = ws
            .conn()
            .query_row(
                "SELECT from_page FROM links WHERE to_url = 'http://h/a'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(from, 1);
    }
}
