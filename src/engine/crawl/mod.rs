//! Crawling: which pages to fetch, in what order, how politely — and what came back?
//!
//! The book's crawler (ch. 3, TSE): gatherer threads ("workers", default 10) take URLs from the
//! to-visit queue; at most 2 requests are in flight to one site [L1186]; content already seen
//! (same MD5) is recorded as a replica, not stored twice [L1188–1202]; visited URLs are kept
//! in a table so no page is fetched twice [L731–735]. Here the queue is a frontier persisted in
//! SQLite (resume after a crash loses no committed page), ordered by the chosen strategy —
//! BFS, DFS, the book's URL weight [L1321–1326], backlink count, or random — with per-host
//! sub-queues so politeness never blocks the others (the digest's note on [L1186]).
//! robots.txt is honoured (texting_robots; Crawl-delay raises the per-host delay).
//!
//! A coordinator (the job's thread) owns the scheduler and the in-memory visited set (URL
//! hash → frontier row id; this crawl numbers its frontier rows from max(id) + 1 at start);
//! workers — tasks on a small async runtime ([`gather`]) — fetch, decode, scan links and
//! hash; a writer thread with its own SQLite connection
//! commits what the coordinator decided, in batch transactions of whole results ([`writer`]):
//! what is committed is always whole, and resume after a crash or cancel loses no committed
//! page and fetches again what was not committed. One crawl at a time uses a workspace's
//! frontier (a fresh crawl clears it).
//!
//! ```no_run
//! use tianwang::engine::crawl::{Crawl, CrawlParams};
//! let job = Crawl::new(CrawlParams { seeds: vec!["http://www.huaxia.localhost:8080/".into()], ..Default::default() })?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub(crate) mod ceiling;
mod commit;
pub(crate) mod fetch;
mod frontier;
mod gather;
pub(crate) mod links;
mod probe;
mod record;
pub mod report;
mod scan;
#[cfg(test)]
mod tests;
mod writer;
pub(crate) use probe::{cpu_seconds, frontier_probe};
pub use report::{CrawlCounters, CrawlProfile, CrawlResult};

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::JobContext;
use crate::engine::jobs::TypedJob;
use crate::engine::store::{Workspace, now_rfc3339};
use crate::engine::urls;
use fetch::FetchLimits;
use frontier::{Entry, Outcome, Scheduler, Stats, Task, host_of};
use gather::{Gatherers, StageTimes, Validators};
use writer::{FrontierRow, Op, Update, Writer};

/// Progress counters named `in-flight <host>` carry the requests in flight per host.
pub(crate) const IN_FLIGHT_PREFIX: &str = "in-flight ";

/// Order of the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// First discovered, first fetched (the book's recommendation after home pages [L729]).
    #[default]
    Bfs,
    Dfs,
    /// The book's URL weight [L1321–1326].
    Weight,
    /// Most in-links first.
    Backlinks,
    Random,
}

impl std::str::FromStr for Strategy {
    type Err = EngineError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "bfs" => Ok(Strategy::Bfs),
            "dfs" => Ok(Strategy::Dfs),
            "weight" => Ok(Strategy::Weight),
            "backlinks" => Ok(Strategy::Backlinks),
            "random" => Ok(Strategy::Random),
            _ => Err(EngineError::invalid(
                "strategy",
                format!("`{s}` is not one of bfs, dfs, weight, backlinks, random"),
            )),
        }
    }
}

/// Which hosts the crawl may enter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The seeds' hosts and `allow_hosts`.
    #[default]
    Hosts,
    /// Hosts ending with this suffix (e.g. `.localhost`).
    Suffix(String),
    Any,
}

/// Raw crawl parameters, as the GUI or the CLI give them (validated by [`Crawl::new`]).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct CrawlParams {
    pub seeds: Vec<String>,
    pub max_pages: Option<u64>,
    /// Gatherer threads (TSE's NUM_WORKERS: 10).
    pub workers: usize,
    /// Requests in flight per host (the book: 2 [L1186]).
    pub per_host: usize,
    /// Minimum delay between requests to one host, in ms (robots.txt Crawl-delay may raise it).
    pub delay_ms: u64,
    pub strategy: Strategy,
    pub resume: bool,
    pub max_depth: Option<u32>,
    pub scope: Scope,
    pub allow_hosts: Vec<String>,
    pub respect_robots: bool,
    pub connect_timeout_ms: u64,
    pub timeout_ms: u64,
    /// At most this many redirects, the origin kept [L1070].
    pub max_redirects: usize,
    /// Size cap: a larger response is aborted and recorded (5 MB [L1372]).
    pub max_bytes: u64,
    /// Retries of transient failures (timeouts, resets, 5xx), with backoff.
    pub retries: u32,
    pub user_agent: String,
    /// With the weight order: N picks by weight, then M at random (the book: 1 and 1
    /// [L1324–1326]; M = 0 = weight only).
    pub mix_weight: u32,
    pub mix_random: u32,
    /// URLs containing any of these are not fetched (default: the book's 25 [L1343–1366]).
    pub url_filter: Vec<String>,
    /// Longer URLs are not fetched (default 256 [L1305]).
    pub max_url_len: usize,
}

impl Default for CrawlParams {
    fn default() -> Self {
        CrawlParams {
            seeds: Vec::new(),
            max_pages: None,
            workers: 10,
            per_host: 2,
            delay_ms: 0,
            strategy: Strategy::Bfs,
            resume: false,
            max_depth: None,
            scope: Scope::Hosts,
            allow_hosts: Vec::new(),
            respect_robots: true,
            connect_timeout_ms: 5_000,
            timeout_ms: 10_000,
            max_redirects: 3,
            max_bytes: 5 * 1024 * 1024,
            retries: 2,
            mix_weight: 1,
            mix_random: 1,
            url_filter: urls::BOOK_FILTER_SUBSTRINGS
                .iter()
                .map(|x| x.to_string())
                .collect(),
            max_url_len: urls::BOOK_URL_LEN,
            user_agent: concat!(
                "TianwangWorkbench/",
                env!("CARGO_PKG_VERSION"),
                " (teaching crawler; +https://localhost/)"
            )
            .into(),
        }
    }
}

/// The crawl job.
#[derive(Debug, Clone)]
pub struct Crawl {
    p: CrawlParams,
    seeds: Vec<url::Url>,
}

/// Retries of a transient failure at most (the back-off is 200 ms × 2^attempt: 102 s at 9).
pub(crate) const MAX_RETRIES: u32 = 10;
/// The weight/random alternation's N and M at most.
pub(crate) const MAX_MIX: u32 = 1_000_000;
/// A robots.txt `Crawl-delay` above this (or not a number: `inf`, `NaN`) is taken as this.
pub(crate) const MAX_CRAWL_DELAY: Duration = Duration::from_secs(60);

/// The per-host delay a robots.txt `Crawl-delay` asks for, bounded: negative is 0, anything
/// above [`MAX_CRAWL_DELAY`] or not finite is the maximum (a site asking `inf` is slow, not
/// a reason to panic).
pub(crate) fn crawl_delay(asked: f32) -> Duration {
    if asked.is_nan() || asked.is_infinite() && asked > 0.0 {
        return MAX_CRAWL_DELAY;
    }
    Duration::try_from_secs_f32(asked.max(0.0))
        .unwrap_or(MAX_CRAWL_DELAY)
        .min(MAX_CRAWL_DELAY)
}

impl Crawl {
    pub fn new(p: CrawlParams) -> Result<Self> {
        if p.seeds.is_empty() && !p.resume {
            return Err(EngineError::invalid_flaw(
                "seed",
                Flaw::new("flaw.param_no_seed", &[]),
            ));
        }
        let mut seeds = Vec::new();
        for s in &p.seeds {
            let u = url::Url::parse(s).map_err(|e| {
                EngineError::invalid_flaw("seed", Flaw::with_detail("flaw.param_bad_url", &[s], e))
            })?;
            if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
                return Err(EngineError::invalid_flaw(
                    "seed",
                    Flaw::new("flaw.param_not_http", &[s]),
                ));
            }
            seeds.push(urls::canonicalize(&u));
        }
        if !(1..=512).contains(&p.workers) {
            return Err(EngineError::invalid("workers", "use 1 to 512"));
        }
        if !(1..=64).contains(&p.per_host) {
            return Err(EngineError::invalid("per-host", "use 1 to 64"));
        }
        if p.max_pages == Some(0) {
            return Err(EngineError::invalid("max-pages", "must be at least 1"));
        }
        if p.timeout_ms < 100 || p.connect_timeout_ms < 100 {
            return Err(EngineError::invalid("timeout", "at least 100 ms"));
        }
        if p.max_url_len < 16 {
            return Err(EngineError::invalid("max-url-len", "at least 16"));
        }
        if p.max_redirects > 20 {
            return Err(EngineError::invalid("max-redirects", "at most 20"));
        }
        if p.retries > MAX_RETRIES {
            return Err(EngineError::invalid(
                "retries",
                format!(
                    "at most {MAX_RETRIES} (the back-off doubles each time: 200 ms × 2^attempt)"
                ),
            ));
        }
        if p.mix_weight == 0 || p.mix_weight > MAX_MIX || p.mix_random > MAX_MIX {
            return Err(EngineError::invalid(
                "mix",
                format!(
                    "{}:{}: N from 1 to {MAX_MIX}, M from 0 to {MAX_MIX}",
                    p.mix_weight, p.mix_random
                ),
            ));
        }
        Ok(Crawl { p, seeds })
    }
}

impl TypedJob for Crawl {
    const KIND: &'static str = "crawl";
    type Params = CrawlParams;
    type Output = CrawlResult;

    fn from_params(p: CrawlParams) -> Result<Self> {
        Crawl::new(p)
    }

    fn params(&self) -> CrawlParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<CrawlResult> {
        run_crawl(self, cx)
    }
}

struct Ctx<'a> {
    p: &'a CrawlParams,
    /// The coordinator's own connection: setup and reads of earlier crawls only (validators,
    /// the snapshot behind a 304); every write goes through `writer`.
    ws: Workspace,
    writer: Writer,
    /// Writes decided for the result being handled, sent to the writer as one unit.
    ops: Vec<Op>,
    sched: Scheduler,
    stats: Stats,
    scope_hosts: HashSet<String>,
    filter: urls::UrlFilter,
    /// Every URL in the frontier (queued or done): its 64-bit hash → its frontier row id.
    seen: HashMap<u64, i64>,
    /// The next frontier row id (this crawl numbers its rows: max(id) + 1 at start).
    next_id: i64,
    /// In-link counts by frontier id (the backlinks order only).
    backlinks: HashMap<i64, i64>,
    /// The time written on the rows of the result being handled.
    now: Arc<str>,
    /// Time spent in the frontier (discovering URLs, picking the next).
    frontier_time: Duration,
}

/// A 64-bit hash of a canonical URL, for the in-memory visited set.
pub(crate) fn url_hash(u: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    u.hash(&mut h);
    h.finish()
}

/// Threads of the gatherers' runtime for `workers` fetches in flight: the machine's cores, at
/// most 4 and at most one per worker (a fetch mostly waits; the threads only parse).
fn gather_threads(workers: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    cores.clamp(1, 4).min(workers.max(1))
}

/// Progress counters are refreshed at most this often (and at the end).
const PROGRESS_EVERY: Duration = Duration::from_millis(25);

impl Ctx<'_> {
    fn in_scope(&self, u: &url::Url) -> bool {
        let host = u.host_str().unwrap_or_default().to_ascii_lowercase();
        match &self.p.scope {
            Scope::Any => true,
            Scope::Suffix(s) => host.ends_with(&s.to_ascii_lowercase()),
            Scope::Hosts => self.scope_hosts.contains(&host),
        }
    }

    /// Send the decided writes to the writer as one unit (`fetch`: it records a fetch).
    fn flush(&mut self, fetch: bool) -> Result<()> {
        let ops = std::mem::take(&mut self.ops);
        self.writer.send(writer::Unit { ops, fetch })
    }

    /// Add a discovered URL to the frontier (in memory, its row to the writer) unless seen or
    /// filtered.
    fn discover(&mut self, raw: &url::Url, depth: u32) {
        self.discover_canonical(&urls::canonicalize(raw), depth)
    }

    /// [`Self::discover`] for a URL already in canonical form.
    fn discover_canonical(&mut self, u: &url::Url, depth: u32) {
        let t = Instant::now();
        self.discover_timed(u, depth);
        self.frontier_time += t.elapsed();
    }

    fn discover_timed(&mut self, u: &url::Url, depth: u32) {
        let hash = url_hash(u.as_str());
        let backlinks = self.sched.strategy == Strategy::Backlinks;
        // The visited/queued set lives in memory (a 64-bit hash per URL); only the backlinks
        // order does more for a URL seen before.
        if !backlinks && self.seen.contains_key(&hash) {
            return;
        }
        if !self.in_scope(u) {
            return;
        }
        if let Some(max) = self.p.max_depth
            && depth > max
        {
            return;
        }
        let host = u.host_str().unwrap_or_default().to_ascii_lowercase();
        if let Some(&id) = self.seen.get(&hash) {
            let n = self.backlinks.entry(id).or_insert(0);
            *n += 1;
            let n = *n;
            // Still queued (not in flight, done or dropped): re-queued at its new priority.
            let priority = if self.sched.current.contains_key(&id) {
                let (priority, why) = self.sched.priority(u, n);
                self.sched
                    .enqueue(&host, priority, id, u.to_string(), depth);
                Some((priority, why))
            } else {
                None
            };
            self.ops.push(Op::Update(Update::Backlink { id, priority }));
            return;
        }
        let (state, why_reject) = match self.filter.check(u.as_str()) {
            Ok(()) => ("queued", None),
            Err(r) => ("filtered", Some(r)),
        };
        let (priority, why) = self.sched.priority(u, 1);
        let why = why_reject.map_or(why, |r| format!("filtered: {r:?}"));
        let id = self.add_row(
            hash,
            FrontierRow {
                id: 0,
                url: u.to_string(),
                host: host.clone(),
                depth,
                priority,
                why,
                backlinks: 1,
                state,
                at: self.now.clone(),
            },
        );
        if backlinks {
            self.backlinks.insert(id, 1);
        }
        if state == "queued" {
            self.sched
                .enqueue(&host, priority, id, u.to_string(), depth);
        } else {
            self.stats.filtered += 1;
        }
    }

    /// Numbers a URL not seen before, records it in the visited set and has `row` (its id
    /// set here) written to the frontier; the new id.
    fn add_row(&mut self, hash: u64, mut row: FrontierRow) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.seen.insert(hash, id);
        row.id = id;
        self.ops.push(Op::Frontier(row));
        id
    }

    fn error(&mut self, kind: &str) {
        *self.stats.errors.entry(kind.to_string()).or_default() += 1;
    }

    /// Publish the progress and counters.
    fn progress(&self, cx: &JobContext) {
        let total = self.p.max_pages.map_or(
            (self.stats.fetched + self.sched.queued() as u64).max(1),
            |m| m,
        );
        cx.progress(self.stats.fetched as f32 / total as f32, "crawling");
        cx.counters(&CrawlCounters {
            fetched: self.stats.fetched,
            stored: self.writer.stats.stored(),
            replicas: self.writer.stats.replicas(),
            frontier: self.sched.queued() as u64,
            bytes: self.stats.bytes,
        });
        for (host, h) in &self.sched.hosts {
            cx.counter(&format!("{IN_FLIGHT_PREFIX}{host}"), h.in_flight as f64);
        }
    }
}

/// Load the frontier of an earlier crawl to resume it: every URL into the visited set, the
/// queued ones into the scheduler.
fn load_frontier(c: &mut Ctx<'_>) -> Result<()> {
    {
        let mut stmt =
            c.ws.conn()
                .prepare("SELECT id, url, backlinks FROM frontier")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        let backlinks = c.sched.strategy == Strategy::Backlinks;
        for row in rows {
            let (id, u, n) = row?;
            c.seen.insert(url_hash(&u), id);
            if backlinks {
                c.backlinks.insert(id, n);
            }
        }
    }
    let mut stmt = c.ws.conn().prepare(
        "SELECT id, url, host, depth, priority FROM frontier WHERE state = 'queued' ORDER BY id",
    )?;
    let rows: Vec<(i64, String, String, u32, f64)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<std::result::Result<_, _>>()?;
    drop(stmt);
    for (id, url, host, depth, priority) in rows {
        c.sched.seq += 1;
        c.scope_hosts.insert(host.clone());
        c.sched.enqueue(&host, priority, id, url, depth);
    }
    let max_seq: Option<f64> =
        c.ws.conn()
            .prepare_cached("SELECT max(abs(priority)) FROM frontier")?
            .query_row([], |r| r.get(0))?;
    c.sched.seq = c.sched.seq.max(max_seq.unwrap_or(0.0) as u64 + 1);
    Ok(())
}

fn run_crawl(job: &Crawl, cx: &JobContext) -> Result<CrawlResult> {
    let p = &job.p;
    let ws = Workspace::open_existing(cx.workspace_path())?;
    // The runner hands the job its own row id (two crawls at once each get theirs).
    let job_id: Option<i64> = cx.job_id();
    let limits = FetchLimits {
        connect_timeout: Duration::from_millis(p.connect_timeout_ms),
        timeout: Duration::from_millis(p.timeout_ms),
        max_redirects: p.max_redirects,
        max_bytes: p.max_bytes,
        user_agent: p.user_agent.clone(),
    };
    let resolver = std::sync::Arc::new(fetch::Resolver::default());
    if !p.resume {
        ws.conn()
            .prepare_cached("DELETE FROM frontier")?
            .execute([])?;
    }
    let next_id: i64 =
        ws.conn()
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM frontier", [], |r| {
                r.get(0)
            })?;
    let validators = Validators::load(&ws)?;
    let mut c = Ctx {
        p,
        ws,
        writer: Writer::start(cx.workspace_path(), job_id)?,
        ops: Vec::new(),
        sched: Scheduler::new(p.strategy, (p.mix_weight, p.mix_random)),
        stats: Stats::default(),
        seen: HashMap::new(),
        next_id,
        backlinks: HashMap::new(),
        now: now_rfc3339().into(),
        frontier_time: Duration::ZERO,
        scope_hosts: job
            .seeds
            .iter()
            .filter_map(|u| u.host_str().map(str::to_ascii_lowercase))
            .chain(p.allow_hosts.iter().map(|h| h.to_ascii_lowercase()))
            .collect(),
        filter: urls::UrlFilter {
            substrings: p.url_filter.clone(),
            max_len: p.max_url_len,
        },
    };
    if p.resume {
        load_frontier(&mut c)?;
    }
    for s in &job.seeds {
        c.discover(s, 0);
    }
    c.flush(false)?;

    // Gatherers: fetch, decode, scan links, hash — tasks on a runtime of their own.
    let worker_times = std::sync::Arc::new(StageTimes::default());
    let (out_tx, out_rx) = crossbeam_channel::unbounded::<Outcome>();
    let gatherers = Gatherers::start(
        gather_threads(p.workers),
        &limits,
        resolver.clone(),
        p.per_host.min(p.workers),
        &worker_times,
        &out_tx,
    )?;
    drop(out_tx);

    let started = Instant::now();
    let (mut idle, mut record_time) = (Duration::ZERO, Duration::ZERO);
    let mut in_flight = 0usize;
    let mut retry_wait: Vec<(Instant, Entry, u32)> = Vec::new();
    let mut last_progress = Instant::now();
    let result = (|| -> Result<()> {
        loop {
            if cx.is_cancelled() {
                return Err(EngineError::Cancelled);
            }
            let budget_left = p
                .max_pages
                .is_none_or(|m| c.stats.fetched + (in_flight as u64) < m);
            // Retries whose backoff is over go back to their host's queue.
            if !retry_wait.is_empty() {
                let now = Instant::now();
                let (due, later): (Vec<_>, Vec<_>) =
                    retry_wait.drain(..).partition(|(t, _, _)| *t <= now);
                retry_wait = later;
                for (_, e, attempt) in due {
                    in_flight += 1;
                    let host = host_of(&e.url);
                    if let Some(h) = c.sched.hosts.get_mut(&host) {
                        h.in_flight += 1;
                    }
                    let validators = validators.of(&c.ws, &e.url)?;
                    gatherers.send(Task::Page {
                        entry: e,
                        attempt,
                        validators,
                    });
                }
            }
            // Paused: finish what is in flight, start nothing new.
            while budget_left && !cx.is_paused() && in_flight < p.workers {
                let t = Instant::now();
                let next = c.sched.next(p.per_host, p.respect_robots);
                c.frontier_time += t.elapsed();
                let Some(mut task) = next else {
                    break;
                };
                if let Task::Page {
                    entry,
                    validators: v,
                    ..
                } = &mut task
                {
                    *v = validators.of(&c.ws, &entry.url)?;
                }
                in_flight += 1;
                gatherers.send(task);
                if p.max_pages
                    .is_some_and(|m| c.stats.fetched + (in_flight as u64) >= m)
                {
                    break;
                }
            }
            if in_flight == 0 && retry_wait.is_empty() && !cx.is_paused() {
                let waiting = c.sched.queued() > 0 && budget_left;
                if !waiting {
                    return Ok(());
                }
            }
            let wait = c
                .sched
                .wake_at()
                .map(|t| t.saturating_duration_since(Instant::now()))
                .unwrap_or(Duration::from_millis(50))
                .clamp(Duration::from_millis(1), Duration::from_millis(50));
            let waited = Instant::now();
            let received = out_rx.recv_timeout(wait);
            idle += waited.elapsed();
            match received {
                Ok(out) => {
                    in_flight -= 1;
                    let t = Instant::now();
                    let before = c.frontier_time;
                    c.now = now_rfc3339().into();
                    let fetch = handle(&mut c, out, &mut retry_wait)?;
                    c.flush(fetch)?;
                    record_time += t.elapsed().saturating_sub(c.frontier_time - before);
                    if last_progress.elapsed() >= PROGRESS_EVERY {
                        last_progress = Instant::now();
                        c.progress(cx);
                    }
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Internal("all workers stopped".into()));
                }
            }
        }
    })();
    // What was sent is committed, also when cancelled.
    let committed = c.writer.finish();
    // In-flight fetches (after an error or a cancel) are dropped; their results are not
    // committed.
    gatherers.finish(result.is_ok());
    result?;
    committed?;
    c.progress(cx);
    let elapsed = started.elapsed().as_secs_f64();
    cx.progress(1.0, "done");
    Ok(CrawlResult {
        fetched: c.stats.fetched,
        stored: c.writer.stats.stored(),
        replicas: c.writer.stats.replicas(),
        errors: c.stats.errors.clone(),
        robots_blocked: c.stats.robots_blocked,
        not_modified: c.stats.not_modified,
        dns_cache_hits: resolver.hits.load(std::sync::atomic::Ordering::Relaxed),
        dns_cache_misses: resolver.misses.load(std::sync::atomic::Ordering::Relaxed),
        filtered: c.stats.filtered,
        bytes: c.stats.bytes,
        frontier_left: c.sched.queued() as u64,
        elapsed_s: elapsed,
        pages_per_s: if elapsed > 0.0 {
            c.stats.fetched as f64 / elapsed
        } else {
            0.0
        },
        profile: CrawlProfile {
            fetch_s: worker_times.secs(0),
            decode_s: worker_times.secs(1),
            links_s: worker_times.secs(2),
            frontier_s: c.frontier_time.as_secs_f64(),
            record_s: record_time.as_secs_f64(),
            sqlite_s: c.writer.stats.busy_s(),
            idle_s: idle.as_secs_f64(),
        },
    })
}

/// Handle one outcome; true when it recorded a fetch (a retry waits, robots.txt is no fetch).
fn handle(
    c: &mut Ctx<'_>,
    out: Outcome,
    retry_wait: &mut Vec<(Instant, Entry, u32)>,
) -> Result<bool> {
    match out {
        Outcome::Robots { host, body } => {
            let robot = body.and_then(|b| texting_robots::Robot::new(&c.p.user_agent, &b).ok());
            if let Some(h) = c.sched.hosts.get_mut(&host) {
                h.in_flight = h.in_flight.saturating_sub(1);
                h.robots_pending = false;
                let crawl_delay = robot
                    .as_ref()
                    .and_then(|r| r.delay)
                    .map(crawl_delay)
                    .unwrap_or_default();
                h.delay = Duration::from_millis(c.p.delay_ms).max(crawl_delay);
                // Blocked URLs already queued are recorded as such.
                if let Some(r) = &robot {
                    let (keep, blocked): (Vec<Entry>, Vec<Entry>) =
                        h.queue.drain().partition(|e| r.allowed(&e.url));
                    h.queue.extend(keep);
                    for e in blocked {
                        c.sched.current.remove(&e.id);
                        c.ops.push(Op::Update(Update::State {
                            id: e.id,
                            state: "robots",
                            why: Some("robots.txt disallows"),
                        }));
                        c.stats.robots_blocked += 1;
                    }
                }
                h.robots = Some(robot);
            }
            Ok(false)
        }
        Outcome::Page {
            entry,
            attempt,
            result,
        } => {
            let host = host_of(&entry.url);
            if let Some(h) = c.sched.hosts.get_mut(&host) {
                h.in_flight = h.in_flight.saturating_sub(1);
            }
            let transient = match &result {
                Err(e) => e.transient,
                Ok(f) => f.status >= 500,
            };
            if transient && attempt < c.p.retries {
                let backoff = Duration::from_millis(200u64.saturating_mul(1u64 << attempt.min(20)));
                retry_wait.push((Instant::now() + backoff, entry, attempt + 1));
                return Ok(false);
            }
            // Newly allowed links must still pass robots of their host when it is known.
            record::record(c, entry, result)?;
            Ok(true)
        }
    }
}
