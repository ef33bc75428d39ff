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

/// An entry under a random key (for the random picks of the book's N:M alternation).
pub(super) struct Keyed(pub(super) u64, pub(super) Entry);

impl PartialEq for Keyed {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for Keyed {}
impl PartialOrd for Keyed {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}
impl Ord for Keyed {
    fn cmp(&self, o: &Self) -> CmpOrdering {
        self.0.cmp(&o.0)
    }
}

#[derive(Default)]
pub(super) struct Host {
    pub(super) queue: BinaryHeap<Entry>,
    /// The same entries by random key, only while the N:M alternation is on.
    pub(super) random: BinaryHeap<Keyed>,
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
    /// The book's alternation for the weight order: N picks by weight, then M at random
    /// [L1324–1326]; M = 0 turns it off.
    pub(super) mix: (u32, u32),
    pub(super) picks: u64,
}

impl Scheduler {
    /// An empty frontier ordered by `strategy`; `mix` = (N, M) of the weight order's
    /// alternation (N ≥ 1; M = 0: weight only).
    pub(super) fn new(strategy: Strategy, mix: (u32, u32)) -> Self {
        Scheduler {
            strategy,
            hosts: HashMap::new(),
            seq: 0,
            rng: 0x2545_F491_4F6C_DD1D,
            current: HashMap::new(),
            mix: (mix.0.max(1), mix.1),
            picks: 0,
        }
    }

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
            Strategy::Random => ((self.next_rand() % 1_000_000) as f64, "random".into()),
        }
    }

    fn next_rand(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn alternating(&self) -> bool {
        self.strategy == Strategy::Weight && self.mix.1 > 0
    }

    /// Queue `url` (frontier row `id`) for `host` with `priority`, in discovery order.
    pub(super) fn enqueue(&mut self, host: &str, priority: f64, id: i64, url: String, depth: u32) {
        let seq = self.seq;
        self.push(
            host,
            Entry {
                priority,
                seq,
                id,
                url,
                depth,
            },
        );
    }

    pub(super) fn push(&mut self, host: &str, e: Entry) {
        self.current.insert(e.id, e.priority);
        if self.alternating() {
            let key = self.next_rand();
            self.hosts
                .entry(host.to_string())
                .or_default()
                .random
                .push(Keyed(key, e.clone()));
        }
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
        // u64 arithmetic: N + M of two u32s cannot overflow here (`--mix 1:4294967295`).
        let cycle = u64::from(self.mix.0.max(1)) + u64::from(self.mix.1);
        let random_turn = self.alternating() && self.picks % cycle >= u64::from(self.mix.0.max(1));
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
            while let Some(Keyed(_, top)) = h.random.peek() {
                if self.current.get(&top.id) == Some(&top.priority) {
                    break;
                }
                h.random.pop();
            }
            let candidate = if random_turn {
                h.random.peek().map(|k| k.0 as f64)
            } else {
                h.queue.peek().map(|e| e.priority)
            };
            if let Some(c) = candidate
                && best.as_ref().is_none_or(|(_, p)| c > *p)
            {
                best = Some((name.clone(), c));
            }
        }
        let (name, _) = best?;
        let h = self.hosts.get_mut(&name)?;
        let entry = if random_turn {
            h.random.pop()?.1
        } else {
            h.queue.pop()?
        };
        self.picks += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(mix: (u32, u32)) -> Scheduler {
        let mut s = Scheduler::new(Strategy::Weight, mix);
        for i in 0..40i64 {
            let e = Entry {
                priority: i as f64,
                seq: i as u64,
                id: i,
                url: format!("http://h.localhost/{i}"),
                depth: 0,
            };
            s.push("h.localhost", e);
        }
        if let Some(h) = s.hosts.get_mut("h.localhost") {
            h.robots = Some(None);
        }
        s
    }

    fn take(s: &mut Scheduler) -> f64 {
        let Some(Task::Page { entry, .. }) = s.next(1, true) else {
            panic!("no task")
        };
        if let Some(h) = s.hosts.get_mut("h.localhost") {
            h.in_flight = 0;
            h.next_at = None;
        }
        entry.priority
    }

    #[test]
    fn weight_only_takes_the_best_each_time() {
        let mut s = sched((1, 0));
        let got: Vec<f64> = (0..5).map(|_| take(&mut s)).collect();
        assert_eq!(got, [39.0, 38.0, 37.0, 36.0, 35.0]);
    }

    /// The book's alternation [L1324–1326]: N by weight, then M at random, and nothing twice.
    #[test]
    fn n_by_weight_then_m_at_random() {
        let mut s = sched((2, 1));
        let got: Vec<f64> = (0..40).map(|_| take(&mut s)).collect();
        let mut seen = got.clone();
        seen.sort_by(f64::total_cmp);
        seen.dedup();
        assert_eq!(seen.len(), 40, "every entry exactly once");
        // Weight picks (positions 0, 1, 3, 4, …) are the best of what remains.
        let mut left: Vec<f64> = (0..40).map(f64::from).collect();
        let mut random_not_best = 0;
        for (k, p) in got.iter().enumerate() {
            let best = left.iter().cloned().fold(f64::MIN, f64::max);
            if k % 3 < 2 {
                assert_eq!(*p, best, "pick {k}");
            } else if *p != best {
                random_not_best += 1;
            }
            left.retain(|x| x != p);
        }
        assert!(random_not_best >= 8, "random picks look sorted: {got:?}");
        assert_eq!(s.queued(), 0);
    }
}
