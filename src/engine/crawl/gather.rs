//! The gatherers ("workers", TSE's NUM_WORKERS [L1186]): each takes a task from the
//! coordinator, fetches it, and — for an HTML page — decodes it, scans its links (canonical)
//! and hashes its content, all in parallel, so the coordinator only decides and the writer
//! only stores. Also the conditional-GET validators the coordinator looks up per task.
//!
//! A gatherer is a task on a tokio runtime of a few threads (at most the cores, 4), not a
//! thread of its own: the async client drives each request on the thread that runs its task,
//! where reqwest's blocking client handed every request to its one runtime thread and back
//! (two wake-ups and a channel per request). The coordinator still bounds the fetches in
//! flight (`workers`) and per host (`per_host`), so politeness is unchanged.
//!
//! ```ignore
//! let g = Gatherers::start(2, &limits, resolver, per_host, &times, &out_tx)?;
//! g.send(task); // its Outcome arrives on out_rx
//! ```

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rusqlite::OptionalExtension;

use super::fetch::{self, FetchLimits};
use super::frontier::{Outcome, Task};
use super::{links, url_hash};
use crate::engine::error::{EngineError, Result};
use crate::engine::store::Workspace;
use crate::engine::urls;

/// Nanoseconds the workers spent per stage (fetch, decode, links), summed over threads.
#[derive(Debug, Default)]
pub(super) struct StageTimes([AtomicU64; 3]);

impl StageTimes {
    fn add(&self, stage: usize, d: Duration) {
        self.0[stage].fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }
    pub(super) fn secs(&self, stage: usize) -> f64 {
        self.0[stage].load(Ordering::Relaxed) as f64 / 1e9
    }
}

/// The gatherers: fetch tasks on a small tokio runtime of their own, each sending its outcome
/// to the coordinator. The coordinator bounds how many are in flight (its `workers`), so a
/// task per fetch is all the pool there is.
pub(super) struct Gatherers {
    rt: Option<tokio::runtime::Runtime>,
    client: reqwest::Client,
    limits: Arc<FetchLimits>,
    times: Arc<StageTimes>,
    out: crossbeam_channel::Sender<Outcome>,
}

impl Gatherers {
    /// A runtime of `threads` threads and the crawl's client on it; `idle_per_host`: see
    /// [`fetch::client`].
    pub(super) fn start(
        threads: usize,
        limits: &FetchLimits,
        resolver: Arc<fetch::Resolver>,
        idle_per_host: usize,
        times: &Arc<StageTimes>,
        out: &crossbeam_channel::Sender<Outcome>,
    ) -> Result<Gatherers> {
        let rt = runtime(threads)?;
        let client = {
            let _in_rt = rt.enter();
            fetch::client(limits, resolver, idle_per_host).map_err(EngineError::Internal)?
        };
        Ok(Gatherers {
            rt: Some(rt),
            client,
            limits: Arc::new(limits.clone()),
            times: times.clone(),
            out: out.clone(),
        })
    }

    /// Start fetching `task`; its outcome goes to the coordinator (a task that panics still
    /// reports: a failed fetch, or robots.txt unavailable).
    pub(super) fn send(&self, task: Task) {
        let Some(rt) = &self.rt else { return };
        let (client, limits, times) =
            (self.client.clone(), self.limits.clone(), self.times.clone());
        let mut reply = Reply {
            out: self.out.clone(),
            fallback: Some(match &task {
                Task::Robots { host, .. } => Outcome::Robots {
                    host: host.clone(),
                    body: None,
                },
                Task::Page { entry, attempt, .. } => Outcome::Page {
                    entry: entry.clone(),
                    attempt: *attempt,
                    result: Err(fetch::FetchError {
                        kind: "internal",
                        message: "the gatherer failed".into(),
                        transient: false,
                    }),
                },
            }),
        };
        drop(rt.spawn(async move {
            let outcome = work(&client, &limits, &times, task).await;
            reply.fallback = None;
            let _ = reply.out.send(outcome);
        }));
    }

    /// Stop: `wait` lets nothing run on (everything sent has reported); otherwise fetches in
    /// flight are dropped in the background, their results not wanted.
    pub(super) fn finish(mut self, wait: bool) {
        if let Some(rt) = self.rt.take() {
            if wait {
                drop(rt);
            } else {
                rt.shutdown_background();
            }
        }
    }
}

impl Drop for Gatherers {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// A multi-thread tokio runtime of `threads` threads named `gatherer`.
pub(super) fn runtime(threads: usize) -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .enable_all()
        .thread_name("gatherer")
        .build()
        .map_err(|e| EngineError::Internal(format!("gatherer runtime: {e}")))
}

/// Sends the fallback outcome if the task ends without its own (a panic).
struct Reply {
    out: crossbeam_channel::Sender<Outcome>,
    fallback: Option<Outcome>,
}

impl Drop for Reply {
    fn drop(&mut self) {
        if let Some(o) = self.fallback.take() {
            let _ = self.out.send(o);
        }
    }
}

/// One task: fetch, and for an HTML page decode, scan links and hash the content.
async fn work(
    client: &reqwest::Client,
    limits: &FetchLimits,
    times: &StageTimes,
    task: Task,
) -> Outcome {
    match task {
        Task::Robots { host, url } => {
            let body = fetch::fetch(client, &url, limits, None, None)
                .await
                .ok()
                .filter(|f| f.status == 200)
                .map(|f| f.body);
            Outcome::Robots { host, body }
        }
        Task::Page {
            entry,
            attempt,
            validators: (etag, modified),
        } => {
            let t0 = Instant::now();
            let result = fetch::fetch(
                client,
                &entry.url,
                limits,
                etag.as_deref(),
                modified.as_deref(),
            )
            .await
            .map(|f| {
                times.add(0, t0.elapsed());
                Box::new(scan(f, times))
            });
            Outcome::Page {
                entry,
                attempt,
                result,
            }
        }
    }
}

/// Hash the content and, for an HTML page, decode it and scan its links (canonical).
fn scan(mut f: fetch::Fetched, times: &StageTimes) -> fetch::Fetched {
    let t1 = Instant::now();
    f.md5 = Some(crate::engine::formats::index::md5(&f.body));
    let html = f
        .content_type
        .as_deref()
        .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
    if f.status < 300
        && html
        && let Ok(base) = url::Url::parse(&f.final_url)
    {
        let (enc, text) = links::decode(&base, f.content_type.as_deref(), &f.body);
        let t2 = Instant::now();
        times.add(1, t2 - t1);
        // Canonical already: the coordinator need not redo it.
        f.links = Some(
            links::links_in(&base, &text, enc)
                .iter()
                .map(urls::canonicalize)
                .collect(),
        );
        times.add(2, t2.elapsed());
    }
    f
}

/// Conditional-GET validators of earlier crawls: which URLs have a snapshot carrying an ETag
/// or Last-Modified (their hashes), so a URL never stored before costs no query.
pub(super) struct Validators(HashSet<u64>);

impl Validators {
    pub(super) fn load(ws: &Workspace) -> Result<Validators> {
        let mut stmt = ws.conn().prepare(
            "SELECT p.url FROM pages p WHERE EXISTS (SELECT 1 FROM snapshots s
             WHERE s.page_id = p.id AND (s.etag IS NOT NULL OR s.last_modified IS NOT NULL))",
        )?;
        let urls = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut set = HashSet::new();
        for u in urls {
            set.insert(url_hash(&u?));
        }
        Ok(Validators(set))
    }

    /// ETag and Last-Modified of the page's latest snapshot: a re-crawl asks conditionally.
    pub(super) fn of(&self, ws: &Workspace, url: &str) -> Result<(Option<String>, Option<String>)> {
        if self.0.is_empty() || !self.0.contains(&url_hash(url)) {
            return Ok((None, None));
        }
        Ok(ws
            .conn()
            .prepare_cached(
                "SELECT s.etag, s.last_modified FROM snapshots s JOIN pages p ON p.id = s.page_id
                 WHERE p.url = ?1 ORDER BY s.id DESC LIMIT 1",
            )?
            .query_row([url], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
            .unwrap_or((None, None)))
    }
}
