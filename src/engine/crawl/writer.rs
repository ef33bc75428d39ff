//! The crawl's writer: a thread with its own SQLite connection that commits what the
//! coordinator decided — frontier rows, fetch log rows, pages, snapshots or replica marks, and
//! links — so the coordinator keeps only the scheduler and the in-memory visited set, and the
//! store's work runs beside it instead of in its path (the book's gatherers hand finished pages
//! to a separate store [L1188–1202]).
//!
//! The coordinator sends [`Unit`]s in order: all the writes one result causes (a fetched page
//! with its snapshot, fetch row, frontier state, links and the URLs it discovered). The writer
//! applies them inside batch transactions of whole units (4,096 fetches or 1 s, or whenever
//! the channel runs dry), so what is committed is always a prefix of what the coordinator
//! decided: a page is never in without its frontier state and links. A crash loses the open
//! batch, whose URLs are still `queued` in SQLite and are fetched again on resume.
//!
//! Within a batch the rows that land in large indexes at random places are written at its
//! end, sorted: the links (the `links_to` index on the target URL) and the new frontier rows
//! (unique URL) — sorted, one batch's inserts walk each index once instead of jumping
//! around it (and a larger page cache keeps the walk in memory). The frontier's state
//! changes follow its new rows, in the order decided, so a row is never updated before it
//! is in; a change to a row new in the same batch is made to the row before it is written
//! (one insert, no second move in `frontier_queued`). The writer's connection does not check
//! foreign keys (its ids come from its own inserts; see [`Writer::start`]).
//!
//! ```ignore
//! let w = Writer::start(ws_path, job_id)?;
//! w.send(Unit { ops: vec![Op::Update(Update::State { id: 7, state: "failed", why: None })], fetch: true })?;
//! let stats = w.finish()?; // commits everything sent
//! ```

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rusqlite::{OptionalExtension, params};

use super::fetch::Fetched;
use crate::engine::error::{EngineError, Result};
use crate::engine::formats::index::hex;
use crate::engine::store::Workspace;

/// Commit a batch after this many fetches or this long, whichever comes first (or when the
/// coordinator has sent nothing for [`IDLE`]). Larger batches write the index pages they
/// touch to the WAL fewer times (1,024 fetches or 250 ms cost ~15 % more per page); a crash
/// loses at most this much, fetched again on resume.
const BATCH_FETCHES: usize = 4096;
const BATCH_TIME: Duration = Duration::from_secs(1);
const IDLE: Duration = Duration::from_millis(20);
/// Units in flight between coordinator and writer at most (back-pressure: pages hold bodies).
const CHANNEL: usize = 4096;
/// The writer's connection checkpoints its WAL after this many pages (SQLite's default is
/// 1,000): fewer, larger checkpoints while snapshots stream in.
const WAL_CHECKPOINT_PAGES: i64 = 16_384;
/// The writer's page cache, in KiB (SQLite's default is 2 MB): the indexes the crawl grows
/// stay in memory longer.
const CACHE_KIB: i64 = 64 * 1024;

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

/// What the writer decided and how long it worked, readable while it runs.
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

/// The coordinator's handle on the writer thread.
pub(super) struct Writer {
    tx: Option<crossbeam_channel::Sender<Unit>>,
    thread: Option<std::thread::JoinHandle<Result<()>>>,
    pub(super) stats: Arc<WriterStats>,
}

impl Writer {
    /// Open a second connection on the workspace and start the thread.
    pub(super) fn start(path: &Path, job_id: Option<i64>) -> Result<Writer> {
        let ws = Workspace::open_existing(path)?;
        ws.conn()
            .pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)?;
        ws.conn().pragma_update(None, "cache_size", -CACHE_KIB)?;
        // Foreign keys hold by construction here: every page id comes from the page's own
        // INSERT … RETURNING and every site id from `sites`, in the same transaction, and the
        // writer deletes nothing. Checking them cost a seek per link row and made each
        // multi-row insert keep a statement journal: a third of the writer's CPU. Every other
        // connection (deletes, cascades) still enforces them.
        ws.conn().pragma_update(None, "foreign_keys", false)?;
        // A workspace without snapshots needs no SQL to find replicas: this crawl's are known.
        let had_snapshots =
            ws.conn()
                .query_row("SELECT EXISTS (SELECT 1 FROM snapshots)", [], |r| {
                    r.get::<_, bool>(0)
                })?;
        let stats = Arc::new(WriterStats::default());
        let (tx, rx) = crossbeam_channel::bounded::<Unit>(CHANNEL);
        let mut store = Store {
            ws,
            job_id,
            had_snapshots,
            site_ids: HashMap::new(),
            host_ips: HashSet::new(),
            first_by_md5: HashMap::new(),
            last_md5: HashMap::new(),
            rows: Vec::new(),
            updates: Vec::new(),
            links: Vec::new(),
            stats: stats.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("crawl-writer".into())
            .spawn(move || store.run(&rx))
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

/// The writer thread's state.
struct Store {
    ws: Workspace,
    job_id: Option<i64>,
    had_snapshots: bool,
    /// Site ids and (host, IP) pairs already written in this crawl.
    site_ids: HashMap<String, i64>,
    host_ips: HashSet<(String, String)>,
    /// Without earlier snapshots: the first page stored with each MD5, and each page's last.
    first_by_md5: HashMap<[u8; 16], i64>,
    last_md5: HashMap<i64, [u8; 16]>,
    /// The open batch's new frontier rows, frontier changes and links, written at its end.
    rows: Vec<FrontierRow>,
    updates: Vec<Update>,
    links: Vec<(i64, url::Url)>,
    stats: Arc<WriterStats>,
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

impl Store {
    fn run(&mut self, rx: &crossbeam_channel::Receiver<Unit>) -> Result<()> {
        let mut batch: Option<(Instant, usize)> = None;
        let r = (|| -> Result<()> {
            loop {
                let unit = match rx.recv_timeout(IDLE) {
                    Ok(u) => u,
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                        let t = Instant::now();
                        self.commit(&mut batch, true)?;
                        self.busy(t);
                        continue;
                    }
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
                };
                let t = Instant::now();
                if batch.is_none() {
                    self.ws.conn().execute_batch("BEGIN IMMEDIATE")?;
                    batch = Some((t, 0));
                }
                for op in unit.ops {
                    self.apply(op)?;
                }
                if unit.fetch
                    && let Some(b) = &mut batch
                {
                    b.1 += 1;
                }
                self.commit(&mut batch, false)?;
                self.busy(t);
            }
        })();
        match r {
            // Everything sent is in.
            Ok(()) => {
                let t = Instant::now();
                self.commit(&mut batch, true)?;
                self.busy(t);
                Ok(())
            }
            // Half a batch is not committed: its URLs are still queued.
            Err(e) => {
                if batch.is_some() {
                    let _ = self.ws.conn().execute_batch("ROLLBACK");
                }
                self.rows.clear();
                self.updates.clear();
                self.links.clear();
                Err(e)
            }
        }
    }

    /// Commit the open batch if it is full or old enough (`force`: now).
    fn commit(&mut self, batch: &mut Option<(Instant, usize)>, force: bool) -> Result<()> {
        if let Some((t, n)) = *batch
            && (force || n >= BATCH_FETCHES || t.elapsed() >= BATCH_TIME)
        {
            self.write_deferred()?;
            self.ws.conn().execute_batch("COMMIT")?;
            *batch = None;
        }
        Ok(())
    }

    /// Count the time since `t` as the writer's work.
    fn busy(&self, t: Instant) {
        self.stats
            .busy_ns
            .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    fn apply(&mut self, op: Op) -> Result<()> {
        match op {
            Op::Frontier(r) => self.rows.push(r),
            Op::Update(u) => self.updates.push(u),
            Op::Failed {
                id,
                url,
                kind,
                message,
                at,
            } => {
                self.ws.conn().prepare_cached("INSERT INTO fetches(job_id, url, error_kind, error, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)")?
                    .execute(params![self.job_id, url, kind, message, &*at])?;
                self.updates.push(Update::State {
                    id,
                    state: "failed",
                    why: None,
                });
            }
            Op::Page(r) => self.page(*r)?,
        }
        Ok(())
    }

    /// The batch's new frontier rows (sorted by URL), then its frontier changes (in the order
    /// decided), then its links (sorted by target URL).
    fn write_deferred(&mut self) -> Result<()> {
        let conn = self.ws.conn();
        self.rows.sort_unstable_by(|a, b| a.url.cmp(&b.url));
        let updates = fold_into_rows(&mut self.rows, std::mem::take(&mut self.updates));
        for r in self.rows.drain(..) {
            conn.prepare_cached(
                "INSERT INTO frontier(id, url, host, depth, priority, why, backlinks, state, discovered_at, job_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(url) DO NOTHING",
            )?
            .execute(params![
                r.id, r.url, r.host, r.depth, r.priority, r.why, r.backlinks, r.state, &*r.at,
                self.job_id
            ])?;
        }
        for u in updates {
            match u {
                Update::State { id, state, why } => {
                    conn.prepare_cached(
                        "UPDATE frontier SET state = ?2, why = coalesce(?3, why) WHERE id = ?1",
                    )?
                    .execute(params![id, state, why])?;
                }
                Update::Backlink { id, priority } => {
                    conn.prepare_cached(
                        "UPDATE frontier SET backlinks = backlinks + 1 WHERE id = ?1",
                    )?
                    .execute([id])?;
                    if let Some((priority, why)) = priority {
                        conn.prepare_cached(
                            "UPDATE frontier SET priority = ?1, why = ?2 WHERE id = ?3",
                        )?
                        .execute(params![priority, why, id])?;
                    }
                }
            }
        }
        self.links
            .sort_unstable_by(|a, b| a.1.as_str().cmp(b.1.as_str()).then(a.0.cmp(&b.0)));
        insert_links(conn, &self.links)?;
        self.links.clear();
        Ok(())
    }

    fn site_id(&mut self, host: &str, at: &str) -> Result<i64> {
        if let Some(id) = self.site_ids.get(host) {
            return Ok(*id);
        }
        let conn = self.ws.conn();
        conn.prepare_cached(
            "INSERT INTO sites(host, first_seen) VALUES (?1, ?2) ON CONFLICT(host) DO NOTHING",
        )?
        .execute((host, at))?;
        let id: i64 = conn
            .prepare_cached("SELECT id FROM sites WHERE host = ?1")?
            .query_row([host], |r| r.get(0))?;
        self.site_ids.insert(host.to_string(), id);
        Ok(id)
    }

    /// The first other page stored with this MD5, if any (this crawl's are known in memory
    /// unless the workspace had snapshots before).
    fn replica_of(&self, md5: &[u8; 16], md5_hex: &str, page_id: i64) -> Result<Option<i64>> {
        if !self.had_snapshots {
            return Ok(self
                .first_by_md5
                .get(md5)
                .copied()
                .filter(|p| *p != page_id));
        }
        Ok(self
            .ws
            .conn()
            .prepare_cached(
                "SELECT page_id FROM snapshots WHERE md5 = ?1 AND page_id <> ?2 ORDER BY id LIMIT 1",
            )?
            .query_row(params![md5_hex, page_id], |r| r.get(0))
            .optional()?)
    }

    /// Whether the page's latest snapshot has this MD5 already.
    fn unchanged(&self, md5: &[u8; 16], md5_hex: &str, page_id: i64) -> Result<bool> {
        if !self.had_snapshots {
            return Ok(self.last_md5.get(&page_id) == Some(md5));
        }
        let last: Option<String> = self
            .ws
            .conn()
            .prepare_cached(
                "SELECT md5 FROM snapshots WHERE page_id = ?1 ORDER BY id DESC LIMIT 1",
            )?
            .query_row([page_id], |r| r.get(0))
            .optional()?;
        Ok(last.as_deref() == Some(md5_hex))
    }

    fn page(&mut self, r: PageRec) -> Result<()> {
        let site_id = self.site_id(&r.host, &r.at)?;
        let f = &r.f;
        let at: &str = &r.at;
        let page_id: i64 = self
            .ws
            .conn()
            .prepare_cached(
                "INSERT INTO pages(url, site_id, first_seen, status, depth) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(url) DO UPDATE SET status = excluded.status RETURNING id",
            )?
            .query_row(params![r.final_url, site_id, at, f.status, r.depth], |row| {
                row.get(0)
            })?;
        if let Some(ip) = &f.ip
            && !self.host_ips.contains(&(r.host.clone(), ip.clone()))
        {
            self.ws
                .conn()
                .prepare_cached(
                    "INSERT OR IGNORE INTO host_ips(host, ip, first_seen) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![r.host, ip, at])?;
            self.host_ips.insert((r.host.clone(), ip.clone()));
        }
        let mut replica_of: Option<i64> = None;
        if let Some(md5) = &r.md5 {
            let md5_hex = hex(md5);
            if let Some(first) = self.replica_of(md5, &md5_hex, page_id)? {
                let newly = self
                    .ws
                    .conn()
                    .prepare_cached(
                        "UPDATE pages SET replica_of = ?1 WHERE id = ?2 AND replica_of IS NULL",
                    )?
                    .execute(params![first, page_id])?;
                replica_of = Some(first);
                // A page reached twice (e.g. also through a redirect) is one replica.
                self.stats
                    .replicas
                    .fetch_add(newly as u64, Ordering::Relaxed);
            } else if !self.unchanged(md5, &md5_hex, page_id)? {
                // Byte-exact: the body as received, compressed if it came compressed.
                let mut raw = Vec::with_capacity(f.head.len() + f.raw_body.len());
                raw.extend_from_slice(&f.head);
                raw.extend_from_slice(&f.raw_body);
                self.ws.conn().prepare_cached("INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, origin, content_type, etag, last_modified, ip, request)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")?.execute(
                    params![
                        page_id,
                        at,
                        f.status,
                        md5_hex,
                        raw,
                        r.redirected.then_some(&r.url),
                        f.content_type,
                        f.etag,
                        f.last_modified,
                        f.ip,
                        f.request
                    ],
                )?;
                self.first_by_md5.entry(*md5).or_insert(page_id);
                self.last_md5.insert(page_id, *md5);
                self.stats.stored.fetch_add(1, Ordering::Relaxed);
            }
        }
        let conn = self.ws.conn();
        conn.prepare_cached("INSERT INTO fetches(job_id, url, final_url, status, error_kind, bytes, elapsed_ms, fetched_at, content_type, page_id, replica_of)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")?.execute(
            params![
                self.job_id,
                r.url,
                r.final_url,
                f.status,
                r.error_kind,
                r.body_len as i64,
                f.elapsed.as_millis() as i64,
                at,
                f.content_type,
                page_id,
                replica_of
            ],
        )?;
        self.updates.push(Update::State {
            id: r.frontier_id,
            state: "done",
            why: None,
        });
        self.links.extend(r.links.into_iter().map(|u| (page_id, u)));
        Ok(())
    }
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

/// Rows per multi-row `INSERT INTO links`: one statement per 16 links, then 8, 4, 2, 1.
const LINK_CHUNKS: [usize; 5] = [16, 8, 4, 2, 1];

/// Links as (page, target) rows, in as few statements as the chunk sizes allow.
fn insert_links(conn: &rusqlite::Connection, links: &[(i64, url::Url)]) -> Result<()> {
    let mut rest = links;
    for n in LINK_CHUNKS {
        while rest.len() >= n {
            let (chunk, tail) = rest.split_at(n);
            let mut stmt = conn.prepare_cached(links_sql(n))?;
            for (i, (page, u)) in chunk.iter().enumerate() {
                stmt.raw_bind_parameter(2 * i + 1, *page)?;
                stmt.raw_bind_parameter(2 * i + 2, u.as_str())?;
            }
            stmt.raw_execute()?;
            rest = tail;
        }
    }
    Ok(())
}

/// `INSERT OR IGNORE INTO links … VALUES (?1, ?2), (?3, ?4), …` with `n` rows.
fn links_sql(n: usize) -> &'static str {
    static SQL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let all = SQL.get_or_init(|| {
        (0..=LINK_CHUNKS[0])
            .map(|n| {
                let rows: Vec<String> = (0..n)
                    .map(|i| format!("(?{}, ?{})", 2 * i + 1, 2 * i + 2))
                    .collect();
                format!(
                    "INSERT OR IGNORE INTO links(from_page, to_url) VALUES {}",
                    rows.join(", ")
                )
            })
            .collect()
    });
    &all[n.min(LINK_CHUNKS[0])]
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
