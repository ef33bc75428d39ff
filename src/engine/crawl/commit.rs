//! The crawl's committer: the thread that owns the writer's SQLite connection and writes each
//! batch the collector ([`super::writer`]) hands it in one transaction — fetch log rows,
//! pages, snapshots or replica marks, then the batch's new frontier rows (sorted by URL), its
//! frontier changes (in the order decided) and its links (sorted by target URL, or by page
//! while the crawl leaves the `links_to` index out, see [`defer_links_to`]) — and a
//! checkpointer thread with a connection of its own that copies the WAL back into the
//! database between batches, so neither the collecting nor the checkpoints (WAL reads, the
//! database writes, their fsync) run in the committer's serial path. The book's gatherers
//! hand finished pages to a separate store [L1188–1202]; this is that store's write path.
//!
//! A batch is whole results, so what is committed is always a prefix of what the coordinator
//! decided. The committer's connection does not check foreign keys (its ids come from its own
//! inserts; see [`Committer::start`]).
//!
//! ```ignore
//! let mut c = Committer::start(ws_path, job_id, stats)?;
//! c.send(batch)?; // written in one transaction
//! c.finish()?;    // everything sent is committed
//! ```

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rusqlite::{CachedStatement, Connection, OptionalExtension, params};

use super::writer::{FrontierRow, PageRec, Update, WriterStats};
use crate::engine::error::{EngineError, Result};
use crate::engine::formats::index::hex;
use crate::engine::store::Workspace;

/// The committer's connection checkpoints its WAL itself only past this many pages (a safety
/// net: the checkpointer thread normally copies the WAL back after every batch, and the WAL
/// starts over at [`WAL_RESTART_FRAMES`]).
const WAL_CHECKPOINT_PAGES: i64 = 262_144;
/// The committer's page cache, in KiB (SQLite's default is 2 MB): the indexes the crawl grows
/// stay in memory longer.
const CACHE_KIB: i64 = 64 * 1024;

/// One fetch in a batch, in the order decided: a response (its page, snapshot, log row) or a
/// fetch that got none (its log row).
pub(super) enum Event {
    Failed {
        url: String,
        kind: &'static str,
        message: String,
        at: Arc<str>,
    },
    /// `raw`: the snapshot's bytes (head and body as received) when the page may be stored;
    /// the record's head and bodies are already dropped.
    Page { rec: Box<PageRec>, raw: Vec<u8> },
}

/// What one transaction writes: its events, then its new frontier rows (sorted by URL, the
/// batch's changes to them folded in), the changes to older rows, and its links as (event
/// index, target URL) sorted by target (by event while `links_to` is left out).
#[derive(Default)]
pub(super) struct Batch {
    pub(super) events: Vec<Event>,
    pub(super) rows: Vec<FrontierRow>,
    pub(super) updates: Vec<Update>,
    pub(super) links: Vec<(u32, url::Url)>,
}

/// The collector's handle on the committer thread.
pub(super) struct Committer {
    tx: Option<crossbeam_channel::Sender<Batch>>,
    thread: Option<std::thread::JoinHandle<Result<()>>>,
    /// True while the committer waits for a batch (the collector then hands its batch over).
    waiting: Arc<AtomicBool>,
    links_to_deferred: bool,
}

/// The `links_to` index (links by target URL, read only by the inspector's in-links) costs a
/// crawl more than any other: each link is a seek into it at a random place, and a batch
/// dirties pages all over it (with the links' primary key, two thirds of the B-tree entries
/// a page writes). A crawl into a workspace that has no links yet therefore drops the index
/// and builds it once when it ends ([`build_links_to`]: one sort, the B-tree written in
/// order). A crawl into a workspace with links keeps it, so a small recrawl does not rebuild
/// a large index; one resumed after a kill finds it missing and builds it at its end. Until
/// then the in-links query is a scan: slower, the same answer. True when the index is
/// missing for this crawl.
fn defer_links_to(conn: &Connection) -> Result<bool> {
    let has_links: bool =
        conn.query_row("SELECT EXISTS (SELECT 1 FROM links)", [], |r| r.get(0))?;
    if !has_links {
        conn.execute_batch("DROP INDEX IF EXISTS links_to")?;
    }
    let present: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'links_to')",
        [],
        |r| r.get(0),
    )?;
    Ok(!present)
}

/// The `links_to` index of the v4 schema, built if missing (same name, same definition). The
/// gatherers are done by now, so SQLite's sorter may use a second thread.
fn build_links_to(conn: &Connection) -> Result<()> {
    conn.pragma_update(None, "threads", 2)?;
    conn.execute_batch("CREATE INDEX IF NOT EXISTS links_to ON links(to_url)")?;
    Ok(())
}

impl Committer {
    /// Open a connection on the workspace for the committer and one for its checkpointer,
    /// and start both threads.
    pub(super) fn start(
        path: &Path,
        job_id: Option<i64>,
        stats: Arc<WriterStats>,
    ) -> Result<Committer> {
        let ws = Workspace::open_existing(path)?;
        ws.conn()
            .pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)?;
        ws.conn().pragma_update(None, "cache_size", -CACHE_KIB)?;
        // Foreign keys hold by construction here: every page id comes from the page's own
        // INSERT … RETURNING and every site id from `sites`, in the same transaction, and the
        // committer deletes nothing. Checking them cost a seek per link row and made each
        // multi-row insert keep a statement journal: a third of the writer's CPU. Every other
        // connection (deletes, cascades) still enforces them.
        ws.conn().pragma_update(None, "foreign_keys", false)?;
        // A workspace without snapshots needs no SQL to find replicas: this crawl's are known.
        let had_snapshots =
            ws.conn()
                .query_row("SELECT EXISTS (SELECT 1 FROM snapshots)", [], |r| {
                    r.get::<_, bool>(0)
                })?;
        let links_to_deferred = defer_links_to(ws.conn())?;
        let checkpointer = Checkpointer::start(path)?;
        let waiting = Arc::new(AtomicBool::new(false));
        let (tx, rx) = crossbeam_channel::bounded::<Batch>(1);
        let mut sql = Sql {
            ws,
            mem: Mem {
                job_id,
                had_snapshots,
                site_ids: HashMap::new(),
                host_ips: HashSet::new(),
                first_by_md5: HashMap::new(),
                last_md5: HashMap::new(),
                stats,
            },
            checkpointer,
        };
        let w = waiting.clone();
        let thread = std::thread::Builder::new()
            .name("crawl-sql".into())
            .spawn(move || sql.run(&rx, &w))
            .map_err(|e| EngineError::Internal(format!("committer thread: {e}")))?;
        Ok(Committer {
            tx: Some(tx),
            thread: Some(thread),
            waiting,
            links_to_deferred,
        })
    }

    /// Whether the `links_to` index is left out while this crawl writes (see
    /// [`defer_links_to`]): the batch's links are then best sorted by page, not by target.
    pub(super) fn links_to_deferred(&self) -> bool {
        self.links_to_deferred
    }

    /// Whether the committer is idle, waiting for a batch.
    pub(super) fn waiting(&self) -> bool {
        self.waiting.load(Ordering::Acquire)
    }

    /// Hand a batch over (waits while one is already queued). If the committer has stopped on
    /// an error, that error.
    pub(super) fn send(&mut self, batch: Batch) -> Result<()> {
        if self.tx.as_ref().is_some_and(|tx| tx.send(batch).is_ok()) {
            return Ok(());
        }
        self.finish()?;
        Err(EngineError::Internal(
            "the crawl's committer stopped".into(),
        ))
    }

    /// Let the committer write everything sent, and wait for it.
    pub(super) fn finish(&mut self) -> Result<()> {
        self.tx = None;
        match self.thread.take().map(|t| t.join()) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(_)) => Err(EngineError::Internal(
                "the crawl's committer panicked".into(),
            )),
        }
    }
}

impl Drop for Committer {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The checkpointer: copies the WAL back into the database on its own connection (SQLite's
/// PASSIVE checkpoint: it never blocks the committer), once after each committed batch.
/// The WAL starts over only when the committer begins a transaction with every frame copied
/// back; a committer that is never idle would not see that, so once the WAL holds
/// [`WAL_RESTART_FRAMES`] the committer waits for a checkpoint of its last batch
/// ([`Checkpointer::settle`]) before its next one, and the WAL starts over.
struct Checkpointer {
    shared: Arc<(std::sync::Mutex<CkState>, std::sync::Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The committer's WAL is allowed this many frames (of 4 KiB pages) before it waits for a
/// checkpoint to let the WAL start over (the checkpoints since overlap its batches).
const WAL_RESTART_FRAMES: i64 = 65_536;

#[derive(Default)]
struct CkState {
    requested: bool,
    running: bool,
    stop: bool,
    /// Frames in the WAL when the last checkpoint ran.
    wal_frames: i64,
}

impl Checkpointer {
    fn start(path: &Path) -> Result<Checkpointer> {
        let ws = Workspace::open_existing(path)?;
        let shared = Arc::new((
            std::sync::Mutex::new(CkState::default()),
            std::sync::Condvar::new(),
        ));
        let sh = shared.clone();
        let thread = std::thread::Builder::new()
            .name("crawl-checkpoint".into())
            .spawn(move || {
                let (m, cv) = &*sh;
                loop {
                    {
                        let Ok(mut st) = m.lock() else { return };
                        while !st.requested && !st.stop {
                            st = match cv.wait(st) {
                                Ok(st) => st,
                                Err(_) => return,
                            };
                        }
                        if !st.requested {
                            return;
                        }
                        st.requested = false;
                        st.running = true;
                    }
                    // A checkpoint that fails (busy, I/O) leaves the pages in the WAL, where
                    // they are just as committed; the next one copies them.
                    let frames = ws
                        .conn()
                        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1))
                        .ok();
                    let Ok(mut st) = m.lock() else { return };
                    st.running = false;
                    if let Some(f) = frames {
                        st.wal_frames = f;
                    }
                    cv.notify_all();
                }
            })
            .map_err(|e| EngineError::Internal(format!("checkpointer thread: {e}")))?;
        Ok(Checkpointer {
            shared,
            thread: Some(thread),
        })
    }

    /// Ask for a checkpoint (one pending request is enough).
    fn poke(&self) {
        let (m, cv) = &*self.shared;
        if let Ok(mut st) = m.lock() {
            st.requested = true;
            cv.notify_all();
        }
    }

    /// If the WAL has grown past [`WAL_RESTART_FRAMES`], wait until the checkpoint asked for
    /// after the last commit has run: everything is copied back, and the committer's next
    /// transaction starts the WAL over.
    fn settle(&self) {
        let (m, cv) = &*self.shared;
        let Ok(mut st) = m.lock() else { return };
        if st.wal_frames < WAL_RESTART_FRAMES {
            return;
        }
        while st.requested || st.running {
            st = match cv.wait(st) {
                Ok(st) => st,
                Err(_) => return,
            };
        }
    }

    /// Run the checkpoint still asked for, then stop.
    fn finish(&mut self) {
        if let Ok(mut st) = self.shared.0.lock() {
            st.stop = true;
            self.shared.1.notify_all();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The committer thread's state.
struct Sql {
    ws: Workspace,
    mem: Mem,
    checkpointer: Checkpointer,
}

/// What the committer remembers across batches.
struct Mem {
    job_id: Option<i64>,
    had_snapshots: bool,
    /// Site ids and (host, IP) pairs already written in this crawl.
    site_ids: HashMap<String, i64>,
    host_ips: HashSet<(String, String)>,
    /// Without earlier snapshots: the first page stored with each MD5, and each page's last.
    first_by_md5: HashMap<[u8; 16], i64>,
    last_md5: HashMap<i64, [u8; 16]>,
    stats: Arc<WriterStats>,
}

const SQL_PAGE: &str =
    "INSERT INTO pages(url, site_id, first_seen, status, depth) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT(url) DO UPDATE SET status = excluded.status RETURNING id";
const SQL_SNAPSHOT: &str = "INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, origin, content_type, etag, last_modified, ip, request)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
const SQL_FETCH: &str = "INSERT INTO fetches(job_id, url, final_url, status, error_kind, bytes, elapsed_ms, fetched_at, content_type, page_id, replica_of)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
const SQL_FAILED: &str =
    "INSERT INTO fetches(job_id, url, error_kind, error, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)";

/// The statements every event uses, prepared once per batch.
struct Stmts<'c> {
    page: CachedStatement<'c>,
    snapshot: CachedStatement<'c>,
    fetch: CachedStatement<'c>,
    failed: CachedStatement<'c>,
}

impl Sql {
    /// Write every batch sent; at the end (also after an error) the `links_to` index is whole.
    fn run(&mut self, rx: &crossbeam_channel::Receiver<Batch>, waiting: &AtomicBool) -> Result<()> {
        let written = self.write_all(rx, waiting);
        let t = Instant::now();
        let indexed = build_links_to(self.ws.conn());
        self.mem
            .stats
            .busy_ns
            .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        self.checkpointer.finish();
        written.and(indexed)
    }

    fn write_all(
        &mut self,
        rx: &crossbeam_channel::Receiver<Batch>,
        waiting: &AtomicBool,
    ) -> Result<()> {
        loop {
            waiting.store(true, Ordering::Release);
            let Ok(batch) = rx.recv() else { break };
            waiting.store(false, Ordering::Release);
            let t = Instant::now();
            self.checkpointer.settle();
            let r = self.write(batch);
            self.mem
                .stats
                .busy_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            r?;
            self.checkpointer.poke();
        }
        Ok(())
    }

    /// One batch in one transaction; on an error nothing of it is in (its URLs stay queued).
    fn write(&mut self, b: Batch) -> Result<()> {
        let conn = self.ws.conn();
        conn.execute_batch("BEGIN IMMEDIATE")?;
        match write_in(conn, &mut self.mem, b) {
            Ok(()) => Ok(conn.execute_batch("COMMIT")?),
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

/// The batch's writes, inside its transaction.
fn write_in(conn: &Connection, mem: &mut Mem, b: Batch) -> Result<()> {
    let mut page_ids = Vec::with_capacity(b.events.len());
    {
        let mut st = Stmts {
            page: conn.prepare_cached(SQL_PAGE)?,
            snapshot: conn.prepare_cached(SQL_SNAPSHOT)?,
            fetch: conn.prepare_cached(SQL_FETCH)?,
            failed: conn.prepare_cached(SQL_FAILED)?,
        };
        for e in b.events {
            page_ids.push(match e {
                Event::Failed {
                    url,
                    kind,
                    message,
                    at,
                } => {
                    st.failed
                        .execute(params![mem.job_id, url, kind, message, &*at])?;
                    0
                }
                Event::Page { rec, raw } => page(conn, mem, &mut st, *rec, raw)?,
            });
        }
    }
    write_frontier(conn, mem.job_id, b.rows, b.updates)?;
    let links: Vec<(i64, url::Url)> = b
        .links
        .into_iter()
        .map(|(i, u)| (page_ids.get(i as usize).copied().unwrap_or_default(), u))
        .collect();
    insert_links(conn, &links)
}

/// The batch's new frontier rows (sorted by URL), then its changes to older rows (in the
/// order decided).
fn write_frontier(
    conn: &Connection,
    job_id: Option<i64>,
    rows: Vec<FrontierRow>,
    updates: Vec<Update>,
) -> Result<()> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO frontier(id, url, host, depth, priority, why, backlinks, state, discovered_at, job_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(url) DO NOTHING",
    )?;
    for r in rows {
        insert.execute(params![
            r.id,
            r.url,
            r.host,
            r.depth,
            r.priority,
            r.why,
            r.backlinks,
            r.state,
            &*r.at,
            job_id
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
                conn.prepare_cached("UPDATE frontier SET backlinks = backlinks + 1 WHERE id = ?1")?
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
    Ok(())
}

fn site_id(conn: &Connection, mem: &mut Mem, host: &str, at: &str) -> Result<i64> {
    if let Some(id) = mem.site_ids.get(host) {
        return Ok(*id);
    }
    conn.prepare_cached(
        "INSERT INTO sites(host, first_seen) VALUES (?1, ?2) ON CONFLICT(host) DO NOTHING",
    )?
    .execute((host, at))?;
    let id: i64 = conn
        .prepare_cached("SELECT id FROM sites WHERE host = ?1")?
        .query_row([host], |r| r.get(0))?;
    mem.site_ids.insert(host.to_string(), id);
    Ok(id)
}

/// The first other page stored with this MD5, if any (this crawl's are known in memory
/// unless the workspace had snapshots before).
fn replica_of(
    conn: &Connection,
    mem: &Mem,
    md5: &[u8; 16],
    md5_hex: &str,
    page_id: i64,
) -> Result<Option<i64>> {
    if !mem.had_snapshots {
        return Ok(mem.first_by_md5.get(md5).copied().filter(|p| *p != page_id));
    }
    Ok(conn
        .prepare_cached(
            "SELECT page_id FROM snapshots WHERE md5 = ?1 AND page_id <> ?2 ORDER BY id LIMIT 1",
        )?
        .query_row(params![md5_hex, page_id], |r| r.get(0))
        .optional()?)
}

/// Whether the page's latest snapshot has this MD5 already.
fn unchanged(
    conn: &Connection,
    mem: &Mem,
    md5: &[u8; 16],
    md5_hex: &str,
    page_id: i64,
) -> Result<bool> {
    if !mem.had_snapshots {
        return Ok(mem.last_md5.get(&page_id) == Some(md5));
    }
    let last: Option<String> = conn
        .prepare_cached("SELECT md5 FROM snapshots WHERE page_id = ?1 ORDER BY id DESC LIMIT 1")?
        .query_row([page_id], |r| r.get(0))
        .optional()?;
    Ok(last.as_deref() == Some(md5_hex))
}

/// A response: its page (the id), host IP, snapshot or replica mark, and log row.
fn page(
    conn: &Connection,
    mem: &mut Mem,
    st: &mut Stmts<'_>,
    r: PageRec,
    raw: Vec<u8>,
) -> Result<i64> {
    let site_id = site_id(conn, mem, &r.host, &r.at)?;
    let f = &r.f;
    let at: &str = &r.at;
    let page_id: i64 = st.page.query_row(
        params![r.final_url, site_id, at, f.status, r.depth],
        |row| row.get(0),
    )?;
    if let Some(ip) = &f.ip
        && !mem.host_ips.contains(&(r.host.clone(), ip.clone()))
    {
        conn.prepare_cached(
            "INSERT OR IGNORE INTO host_ips(host, ip, first_seen) VALUES (?1, ?2, ?3)",
        )?
        .execute(params![r.host, ip, at])?;
        mem.host_ips.insert((r.host.clone(), ip.clone()));
    }
    let mut replica: Option<i64> = None;
    if let Some(md5) = &r.md5 {
        let md5_hex = hex(md5);
        if let Some(first) = replica_of(conn, mem, md5, &md5_hex, page_id)? {
            let newly = conn
                .prepare_cached(
                    "UPDATE pages SET replica_of = ?1 WHERE id = ?2 AND replica_of IS NULL",
                )?
                .execute(params![first, page_id])?;
            replica = Some(first);
            // A page reached twice (e.g. also through a redirect) is one replica.
            mem.stats
                .replicas
                .fetch_add(newly as u64, Ordering::Relaxed);
        } else if !unchanged(conn, mem, md5, &md5_hex, page_id)? {
            // Byte-exact: the body as received, compressed if it came compressed.
            st.snapshot.execute(params![
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
            ])?;
            mem.first_by_md5.entry(*md5).or_insert(page_id);
            mem.last_md5.insert(page_id, *md5);
            mem.stats.stored.fetch_add(1, Ordering::Relaxed);
        }
    }
    st.fetch.execute(params![
        mem.job_id,
        r.url,
        r.final_url,
        f.status,
        r.error_kind,
        r.body_len as i64,
        f.elapsed.as_millis() as i64,
        at,
        f.content_type,
        page_id,
        replica
    ])?;
    Ok(page_id)
}

/// Rows per multi-row `INSERT INTO links`: one statement per 16 links, then 8, 4, 2, 1.
const LINK_CHUNKS: [usize; 5] = [16, 8, 4, 2, 1];

/// Links as (page, target) rows, in as few statements as the chunk sizes allow.
pub(super) fn insert_links(conn: &Connection, links: &[(i64, url::Url)]) -> Result<()> {
    let mut rest = links;
    for n in LINK_CHUNKS {
        if rest.len() < n {
            continue;
        }
        let mut stmt = conn.prepare_cached(links_sql(n))?;
        while rest.len() >= n {
            let (chunk, tail) = rest.split_at(n);
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
