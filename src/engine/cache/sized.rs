//! Priority-queue policies: GreedyDual-Size (the book's GD-SIZE1 for the inverted-file
//! cache, §8.6.5 [L3146–L3148]), GDSF, and Belady's OPT (offline, the lower bound).
//!
//! - **GD-SIZE1** (Cao & Irani 1997, cost = 1; the digest's EXTERNAL definition): every
//!   object has H = L + 1/size, set on insertion and refreshed on a hit; evict the smallest
//!   H (ties: the earliest set) and raise the inflation value L to it. Small objects stay,
//!   which maximises the hit ratio (disk I/O count) on §8.6's variable-length I/O sequence.
//! - **GDSF** (Cherkasova 1998; libCacheSim `cpp/GDSF.cpp`): H = L + freq·10⁶/size, freq
//!   counting requests while resident. Not in the book.
//! - **OPT** (Belady 1966, MIN): on a miss with a full cache evict the object whose next
//!   request is farthest in the future (never requested again first). Needs the whole trace
//!   (each request's next use); for unit sizes no demand policy misses less. With byte
//!   sizes it is the usual farthest-next heuristic, no longer a strict bound. Not in the
//!   book.
//!
//! ```
//! use tianwang::engine::cache::sized::GreedyDual;
//! use tianwang::engine::cache::policy::Policy;
//! // GD-SIZE1 keeps small objects: with 10 units, a 9-unit object goes before two 1-unit ones.
//! let mut g = GreedyDual::new(10, false);
//! g.access(1, 1, u64::MAX);
//! g.access(2, 1, u64::MAX);
//! g.access(3, 8, u64::MAX);
//! g.access(4, 2, u64::MAX); // evicts 3 (H = 1/8), not 1 or 2
//! assert!(g.access(1, 1, u64::MAX) && g.access(2, 1, u64::MAX));
//! ```

use std::collections::BTreeSet;

use super::list::Slots;
use super::policy::Policy;

/// GreedyDual-Size (cost 1) or, with `freq`, GDSF.
#[derive(Debug, Clone)]
pub struct GreedyDual {
    cap: u64,
    with_freq: bool,
    inflation: f64,
    /// (priority bits, time set, id): smallest first. Priorities are ≥ 0.
    order: BTreeSet<(u64, u64, u32)>,
    pri: Slots<f64>,
    set_at: Slots<u64>,
    freq: Slots<u64>,
    size: Slots<u32>,
    used: u64,
    clock: u64,
    evictions: u64,
}

impl GreedyDual {
    pub fn new(capacity: u64, with_freq: bool) -> Self {
        GreedyDual {
            cap: capacity,
            with_freq,
            inflation: 0.0,
            order: BTreeSet::new(),
            pri: Slots::new(0.0),
            set_at: Slots::new(0),
            freq: Slots::new(0),
            size: Slots::new(0),
            used: 0,
            clock: 0,
            evictions: 0,
        }
    }

    fn priority(&self, freq: u64, size: u64) -> f64 {
        if self.with_freq {
            self.inflation + freq as f64 * 1.0e6 / size as f64
        } else {
            self.inflation + 1.0 / size as f64
        }
    }

    fn set(&mut self, id: u32, pri: f64) {
        self.pri.set(id, pri);
        self.set_at.set(id, self.clock);
        self.order.insert((pri.to_bits(), self.clock, id));
    }
}

impl Policy for GreedyDual {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        self.clock += 1;
        if self.size.get(id) != 0 {
            self.order
                .remove(&(self.pri.get(id).to_bits(), self.set_at.get(id), id));
            let f = self.freq.get(id) + 1;
            self.freq.set(id, f);
            let p = self.priority(f, self.size.get(id) as u64);
            self.set(id, p);
            return true;
        }
        if size > self.cap {
            return false;
        }
        while self.used + size > self.cap {
            let Some((bits, _, victim)) = self.order.pop_first() else {
                break;
            };
            self.inflation = f64::from_bits(bits);
            self.used -= self.size.get(victim) as u64;
            self.size.set(victim, 0);
            self.evictions += 1;
        }
        self.size.set(id, size.max(1) as u32);
        self.freq.set(id, 1);
        let p = self.priority(1, size.max(1));
        self.set(id, p);
        self.used += size;
        false
    }
    fn used(&self) -> u64 {
        self.used
    }
    fn len(&self) -> usize {
        self.order.len()
    }
    fn evictions(&self) -> u64 {
        self.evictions
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        vec![("by H", self.order.iter().map(|t| t.2).collect())]
    }
}

/// Belady's MIN: evict the resident object requested farthest in the future.
#[derive(Debug, Clone)]
pub struct Belady {
    cap: u64,
    /// (next request index, id): the largest is evicted.
    order: BTreeSet<(u64, u32)>,
    next: Slots<u64>,
    size: Slots<u32>,
    used: u64,
    evictions: u64,
}

impl Belady {
    pub fn new(capacity: u64) -> Self {
        Belady {
            cap: capacity,
            order: BTreeSet::new(),
            next: Slots::new(0),
            size: Slots::new(0),
            used: 0,
            evictions: 0,
        }
    }
}

impl Policy for Belady {
    fn access(&mut self, id: u32, size: u64, next: u64) -> bool {
        if self.size.get(id) != 0 {
            self.order.remove(&(self.next.get(id), id));
            self.next.set(id, next);
            self.order.insert((next, id));
            return true;
        }
        if size > self.cap {
            return false;
        }
        while self.used + size > self.cap {
            let Some((_, victim)) = self.order.pop_last() else {
                break;
            };
            self.used -= self.size.get(victim) as u64;
            self.size.set(victim, 0);
            self.evictions += 1;
        }
        self.size.set(id, size.max(1) as u32);
        self.next.set(id, next);
        self.order.insert((next, id));
        self.used += size;
        false
    }
    fn used(&self) -> u64 {
        self.used
    }
    fn len(&self) -> usize {
        self.order.len()
    }
    fn evictions(&self) -> u64 {
        self.evictions
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        vec![(
            "by next use",
            self.order.iter().rev().map(|t| t.1).collect(),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cache::trace::next_uses;

    /// The fewest misses any demand-paging policy can have, by trying every victim.
    fn brute_force_min(trace: &[u32], cap: usize) -> usize {
        fn go(t: &[u32], cap: usize, cache: &mut Vec<u32>) -> usize {
            let Some((&x, rest)) = t.split_first() else {
                return 0;
            };
            if cache.contains(&x) {
                return go(rest, cap, cache);
            }
            if cache.len() < cap {
                cache.push(x);
                let r = 1 + go(rest, cap, cache);
                cache.pop();
                return r;
            }
            let mut best = usize::MAX;
            for i in 0..cache.len() {
                let old = std::mem::replace(&mut cache[i], x);
                best = best.min(1 + go(rest, cap, cache));
                cache[i] = old;
            }
            best
        }
        go(trace, cap, &mut Vec::new())
    }

    #[test]
    fn opt_equals_brute_force_on_tiny_traces() {
        let mut rng = crate::engine::rng::Rng::new(9);
        for case in 0..60 {
            let n = 6 + case % 7;
            let alphabet = 3 + case % 4;
            let trace: Vec<u32> = (0..n).map(|_| rng.below(alphabet) as u32).collect();
            let next = next_uses(&trace);
            for cap in 1..alphabet {
                let mut b = Belady::new(cap as u64);
                let misses = trace
                    .iter()
                    .zip(&next)
                    .filter(|&(&id, &nx)| !b.access(id, 1, nx))
                    .count();
                assert_eq!(misses, brute_force_min(&trace, cap), "{trace:?} cap {cap}");
            }
        }
    }

    #[test]
    fn gdsf_weighs_frequency_over_size() {
        let mut g = GreedyDual::new(10, true);
        g.access(1, 5, u64::MAX);
        g.access(1, 5, u64::MAX); // freq 2: H = 2e6/5
        g.access(2, 5, u64::MAX); // H = 1e6/5
        g.access(3, 5, u64::MAX); // evicts 2
        assert!(g.access(1, 5, u64::MAX));
        assert!(!g.access(2, 5, u64::MAX));
    }
}
