//! LIRS, low inter-reference recency set (Jiang & Zhang, SIGMETRICS 2002). Not in the book.
//!
//! Objects are LIR (low inter-reference recency: kept) or HIR (high: the 1 % of the cache
//! given to HIR residents, a FIFO queue Q). The recency stack S holds every LIR object and
//! the HIR objects (resident or not) seen more recently than the oldest LIR one; its bottom
//! is always LIR ("stack pruning" drops HIR entries from the bottom). A hit on a HIR object
//! that is still in S means its reuse distance beats the oldest LIR object's: it becomes LIR
//! and the bottom LIR object is demoted to the end of Q. A miss evicts the front of Q. The
//! paper's definition (its Fig. 3 cases); libCacheSim's `LIRS.c` bounds S differently, so
//! its numbers are close but not equal.
//!
//! ```
//! use tianwang::engine::cache::lirs::Lirs;
//! use tianwang::engine::cache::policy::Policy;
//! // LIRS keeps most of a loop one larger than the cache (LRU would miss every time).
//! let mut l = Lirs::new(100);
//! let trace: Vec<u32> = (0..20).flat_map(|_| 0..101).collect();
//! let hits = trace.iter().filter(|&&id| l.access(id, 1, u64::MAX)).count();
//! assert!(hits > 1500);
//! ```

use super::list::{Links, Queue, Slots};
use super::policy::Policy;

const LIR: u8 = 1;
const HIR: u8 = 2;
const GHOST: u8 = 3;

/// LIRS with `⌈1 %⌉` of the capacity for resident HIR objects.
#[derive(Debug, Clone)]
pub struct Lirs {
    cap: u64,
    lir_max: u64,
    s_links: Links,
    s: Queue,
    q_links: Links,
    q: Queue,
    state: Slots<u8>,
    in_s: Slots<bool>,
    size: Slots<u32>,
    lir_units: u64,
    used: u64,
    len: usize,
    evictions: u64,
}

impl Lirs {
    pub fn new(capacity: u64) -> Self {
        let hir = (capacity / 100).max(1).min(capacity);
        Lirs {
            cap: capacity,
            lir_max: capacity - hir,
            s_links: Links::default(),
            s: Queue::default(),
            q_links: Links::default(),
            q: Queue::default(),
            state: Slots::new(0),
            in_s: Slots::new(false),
            size: Slots::new(0),
            lir_units: 0,
            used: 0,
            len: 0,
            evictions: 0,
        }
    }

    fn s_push(&mut self, id: u32) {
        if self.in_s.get(id) {
            self.s_links.move_to_head(&mut self.s, id);
        } else {
            self.s_links.push_head(&mut self.s, id, 0);
            self.in_s.set(id, true);
        }
    }

    fn prune(&mut self) {
        while self.s.tail != u32::MAX && self.state.get(self.s.tail) != LIR {
            let t = self.s.tail;
            self.s_links.remove(&mut self.s, t, 0);
            self.in_s.set(t, false);
            if self.state.get(t) == GHOST {
                self.state.set(t, 0);
            }
        }
    }

    /// The bottom LIR object of S becomes a resident HIR object at the end of Q; false when
    /// S holds no LIR object. S is pruned first: a HIR hit that turns LIR leaves HIR entries
    /// at the bottom, and demoting one of those (a ghost) once sent `lir_units` below zero
    /// and `cache sim --bytes --policy lirs` into an endless loop (issue 29).
    fn demote_bottom_lir(&mut self) -> bool {
        self.prune();
        let t = self.s.tail;
        if t == u32::MAX {
            return false;
        }
        self.s_links.remove(&mut self.s, t, 0);
        self.in_s.set(t, false);
        self.state.set(t, HIR);
        self.lir_units = self.lir_units.saturating_sub(self.size.get(t) as u64);
        self.q_links
            .push_head(&mut self.q, t, self.size.get(t) as u64);
        self.prune();
        true
    }

    fn evict_front_of_q(&mut self) -> bool {
        let t = self.q.tail;
        if t == u32::MAX {
            return false;
        }
        let s = self.size.get(t) as u64;
        self.q_links.remove(&mut self.q, t, s);
        self.used -= s;
        self.len -= 1;
        self.evictions += 1;
        self.state.set(t, if self.in_s.get(t) { GHOST } else { 0 });
        true
    }
}

impl Policy for Lirs {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        match self.state.get(id) {
            LIR => {
                let was_bottom = self.s.tail == id;
                self.s_push(id);
                if was_bottom {
                    self.prune();
                }
                return true;
            }
            HIR => {
                let s = self.size.get(id) as u64;
                if self.in_s.get(id) {
                    self.q_links.remove(&mut self.q, id, s);
                    self.state.set(id, LIR);
                    self.lir_units += s;
                    self.s_push(id);
                    while self.lir_units > self.lir_max && self.demote_bottom_lir() {}
                } else {
                    self.s_push(id);
                    self.q_links.move_to_head(&mut self.q, id);
                }
                return true;
            }
            _ => {}
        }
        if size > self.cap {
            return false;
        }
        self.size.set(id, size as u32);
        if self.lir_units + size <= self.lir_max && self.q.is_empty() {
            // Cold start: the first objects become LIR.
            self.state.set(id, LIR);
            self.lir_units += size;
            self.used += size;
            self.len += 1;
            self.s_push(id);
            return false;
        }
        while self.used + size > self.cap {
            if !self.evict_front_of_q() && !self.demote_bottom_lir() {
                break;
            }
        }
        self.used += size;
        self.len += 1;
        if self.state.get(id) == GHOST && self.in_s.get(id) {
            self.state.set(id, LIR);
            self.lir_units += size;
            self.s_push(id);
            while self.lir_units > self.lir_max && self.demote_bottom_lir() {}
        } else {
            self.state.set(id, HIR);
            self.s_push(id);
            self.q_links.push_head(&mut self.q, id, size);
        }
        false
    }
    fn used(&self) -> u64 {
        self.used
    }
    fn len(&self) -> usize {
        self.len
    }
    fn evictions(&self) -> u64 {
        self.evictions
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        let lir: Vec<u32> = self
            .s_links
            .iter_from_tail(&self.s)
            .filter(|&id| self.state.get(id) == LIR)
            .collect();
        vec![
            ("LIR", lir),
            ("HIR (Q)", self.q_links.iter_from_tail(&self.q).collect()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lirs_terminates_with_byte_sizes_on_the_seven_line_trace() {
        // `k5,4096 k9,512 k16,1024 k16,4096 k1,1024 k14,4096 k1,512` at 4 KB looped forever.
        let trace = [
            (5, 4096),
            (9, 512),
            (16, 1024),
            (16, 4096),
            (1, 1024),
            (14, 4096),
            (1, 512),
        ];
        let mut l = Lirs::new(4096);
        for &(id, size) in &trace {
            l.access(id, size, u64::MAX);
            assert!(l.used() <= 4096, "{}", l.used());
        }
    }

    #[test]
    fn lirs_keeps_its_books_on_random_byte_traces() {
        let mut rng = crate::engine::rng::Rng::new(29);
        for cap in [512u64, 2048, 4096, 65_536] {
            let mut l = Lirs::new(cap);
            for _ in 0..20_000 {
                let id = rng.below(64) as u32;
                let size = 1 + rng.below(8192) as u64;
                l.access(id, size, u64::MAX);
                assert!(l.used() <= cap, "cap {cap}: used {}", l.used());
                assert!(l.lir_units <= l.used(), "cap {cap}");
            }
        }
    }

    #[test]
    fn lirs_holds_its_capacity_and_resists_a_scan() {
        let mut l = Lirs::new(10);
        for _ in 0..5 {
            for id in 0..8 {
                l.access(id, 1, u64::MAX);
            }
        }
        for id in 100..200 {
            l.access(id, 1, u64::MAX);
            assert!(l.len() <= 10 && l.used() <= 10);
        }
        let kept = (0..8).filter(|&id| l.access(id, 1, u64::MAX)).count();
        assert!(kept >= 8, "{kept}");
    }
}
