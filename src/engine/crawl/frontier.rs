//! The frontier in memory: per-host sub-queues ordered by the strategy's priority, the
//! per-host politeness state (requests in flight, next allowed time, robots.txt rules), and the
//! choice of what to fetch next. Its persistent twin is the `frontier` table.

use std::cmp::Ordering as CmpOrdering;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Strategy;
use super::fetch::{FetchError, Fetched};
use crate::engine::urls;

/// A queued URL in memory.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    pub(super) priority: f64,
    pub(super) seq: u64,
    pub(super) id: i64,
    pub(super) url: String,
    pub(super) depth: u32,
}

impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> CmpOrdering {
        self.priority
            .total_cmp(&o.priority)
            .then_with(|| o.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
pub(super) struct Host {
    pub(super) queue: BinaryHeap<Entry>,
    pub(super) in_flight: usize,
    pub(super) next_at: Option<Instant>,
    /// `None` until robots.txt has been asked for; `Some(None)` = no rules.
    pub(super) robots: Option<Option<texting_robots::Robot>>,
    pub(super) robots_pending: bool,
    pub(super) delay: Duration,
}

pub(super) enum Task {
    Robots {
        host: String,
        url: String,
    },
    Page {
        entry: Entry,
        attempt: u32,
        /// ETag and Last-Modified of the last snapshot, for a conditional GET.
        validators: (Option<String>, Option<String>),
    },
}

pub(super) enum Outcome {
    Robots {
        host: String,
        body: Option<Vec<u8>>,
    },
    Page {
        entry: Entry,
        attempt: u32,
        result: std::result::Result<Box<Fetched>, FetchError>,
    },
}

/// Counters reported as progress and in the result.
#[derive(Debug, Default, Clone, Serialize)]
pub(super) struct Stats {
    pub(super) fetched: u64,
    pub(super) stored: u64,
    pub(super) replicas: u64,
    pub(super) robots_blocked: u64,
    pub(super) not_modified: u64,
    pub(super) filtered: u64,
    pub(super) errors: BTreeMap<String, u64>,
    pub(super) bytes: u64,
}

pub(super) struct Scheduler {
    pub(super) strategy: Strategy,
    pub(super) hosts: HashMap<String, Host>,
    pub(super) seq: u64,
    pub(super) rng: u64,
    /// Current priority of each queued id (Backlinks pushes updated copies; stale ones skip).
    pub(super) current: HashMap<i64, f64>,
}

impl Scheduler {
    pub(super) fn priority(&mut self, url: &url::Url, backlinks: i64) -> (f64, String) {
        self.seq += 1;
        match self.strategy {
            Strategy::Bfs => (-(self.seq as f64), "BFS: discovery order".into()),
            Strategy::Dfs => (self.seq as f64, "DFS: newest first".into()),
            Strategy::Weight => {
                let w = urls::book_weight(url);
                let parts: Vec<String> =
                    w.parts.iter().map(|(p, v)| format!("{p} {v:+}")).collect();
                (
                    f64::from(w.score),
                    format!("weight {} = 10 {}", w.score, parts.join(" ")),
                )
            }
            Strategy::Backlinks => (backlinks as f64, format!("{backlinks} in-links")),
            Strategy::Random => {
                self.rng ^= self.rng << 13;
                self.rng ^= self.rng >> 7;
                self.rng ^= self.rng << 17;
                ((self.rng % 1_000_000) as f64, "random".into())
            }
        }
    }

    pub(super) fn push(&mut self, host: &str, e: Entry) {
        self.current.insert(e.id, e.priority);
        self.hosts
            .entry(host.to_string())
            .or_default()
            .queue
            .push(e);
    }

    pub(super) fn queued(&self) -> usize {
        self.current.len()
    }

    /// The best entry whose host may be asked now; hosts without robots rules get a robots task.
    pub(super) fn next(&mut self, per_host: usize, respect_robots: bool) -> Option<Task> {
        let now = Instant::now();
        let mut best: Option<(String, f64)> = None;
        for (name, h) in &mut self.hosts {
            if h.in_flight >= per_host || h.next_at.is_some_and(|t| t > now) {
                continue;
            }
            if respect_robots && h.robots.is_none() {
                if !h.robots_pending && !h.queue.is_empty() {
                    h.robots_pending = true;
                    h.in_flight += 1;
                    let url = h.queue.peek().map(|e| e.url.clone()).unwrap_or_default();
                    let robots = url::Url::parse(&url)
                        .map(|mut u| {
                            u.set_path("/robots.txt");
                            u.set_query(None);
                            u.to_string()
                        })
                        .unwrap_or_default();
                    return Some(Task::Robots {
                        host: name.clone(),
                        url: robots,
                    });
                }
                continue;
            }
            // Drop stale copies at the top.
            while let Some(top) = h.queue.peek() {
                if self.current.get(&top.id) == Some(&top.priority) {
                    break;
                }
                h.queue.pop();
            }
            if let Some(top) = h.queue.peek()
                && best.as_ref().is_none_or(|(_, p)| top.priority > *p)
            {
                best = Some((name.clone(), top.priority));
            }
        }
        let (name, _) = best?;
        let h = self.hosts.get_mut(&name)?;
        let entry = h.queue.pop()?;
        self.current.remove(&entry.id);
        h.in_flight += 1;
        h.next_at = Some(now + h.delay);
        Some(Task::Page {
            entry,
            attempt: 0,
            validators: (None, None),
        })
    }

    /// Soonest time a waiting host becomes available.
    pub(super) fn wake_at(&self) -> Option<Instant> {
        self.hosts
            .values()
            .filter(|h| !h.queue.is_empty())
            .filter_map(|h| h.next_at)
            .min()
    }
}

pub(super) fn host_of(u: &str) -> String {
    url::Url::parse(u)
        .ok()
        .and_then(|u| u.host_str().map(|h| h.to_ascii_lowercase()))
        .unwrap_or_default()
}
