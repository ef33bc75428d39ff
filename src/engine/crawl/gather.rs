//! The gatherer threads ("workers", TSE's NUM_WORKERS [L1186]): each takes a task from the
//! coordinator, fetches it, and — for an HTML page — decodes it, scans its links (canonical)
//! and hashes its content, all in parallel, so the coordinator only decides and the writer
//! only stores. Also the conditional-GET validators the coordinator looks up per task.
//!
//! ```ignore
//! let workers = spawn(10, &client, &limits, &times, task_rx, out_tx)?;
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

/// Start `n` workers taking tasks from `tasks` and sending outcomes to `out`.
pub(super) fn spawn(
    n: usize,
    client: &reqwest::blocking::Client,
    limits: &FetchLimits,
    times: &Arc<StageTimes>,
    tasks: &crossbeam_channel::Receiver<Task>,
    out: &crossbeam_channel::Sender<Outcome>,
) -> Result<Vec<std::thread::JoinHandle<()>>> {
    let mut workers = Vec::new();
    for i in 0..n {
        let rx = tasks.clone();
        let tx = out.clone();
        let client = client.clone();
        let limits = limits.clone();
        let times = times.clone();
        let w = std::thread::Builder::new()
            .name(format!("gatherer-{i}"))
            .spawn(move || {
                while let Ok(task) = rx.recv() {
                    if tx.send(work(&client, &limits, &times, task)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| EngineError::Internal(format!("worker thread: {e}")))?;
        workers.push(w);
    }
    Ok(workers)
}

/// One task: fetch, and for an HTML page decode, scan links and hash the content.
fn work(
    client: &reqwest::blocking::Client,
    limits: &FetchLimits,
    times: &StageTimes,
    task: Task,
) -> Outcome {
    match task {
        Task::Robots { host, url } => {
            let body = fetch::fetch(client, &url, limits, None, None)
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
            .map(|mut f| {
                let t1 = Instant::now();
                times.add(0, t1 - t0);
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
                Box::new(f)
            });
            Outcome::Page {
                entry,
                attempt,
                result,
            }
        }
    }
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
