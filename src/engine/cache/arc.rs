//! ARC, the adaptive replacement cache (Megiddo & Modha, FAST 2003). Not in the book.
//!
//! Two LRU lists of resident objects — T1 (seen once recently) and T2 (seen at least twice)
//! — and two ghost lists of evicted ids, B1 and B2, with a target size p for T1 that adapts:
//! a miss found in B1 says "T1 was too small" and raises p by max(|B2|/|B1|, 1); one found
//! in B2 lowers it by max(|B1|/|B2|, 1). REPLACE evicts T1's LRU object into B1 when
//! |T1| > p (or |T1| = p on a B2 hit, or T2 is empty), else T2's into B2. A complete miss
//! first trims the ghosts (the paper's case IV): when |T1| + |B1| is full, B1's oldest id
//! goes (or T1's LRU object, without a ghost, when B1 is empty); when all four lists hold
//! 2C, B2's oldest id goes. This follows libCacheSim's `ARC.c` (aa0fc40) in every branch,
//! sizes in units, so byte-sized objects work the same way.
//!
//! ```
//! use tianwang::engine::cache::arc::Arc;
//! use tianwang::engine::cache::policy::Policy;
//! let mut a = Arc::new(4);
//! for id in [1u32, 2, 1, 2] { a.access(id, 1, u64::MAX); } // 1, 2 now in T2
//! for id in 10..20u32 { a.access(id, 1, u64::MAX); }      // a scan stays in T1
//! assert!(a.access(1, 1, u64::MAX) && a.access(2, 1, u64::MAX));
//! ```

use super::list::{Links, Queue, Slots};
use super::policy::Policy;

const T1: u8 = 1;
const T2: u8 = 2;
const B1: u8 = 3;
const B2: u8 = 4;

/// ARC with capacity C units.
#[derive(Debug, Clone)]
pub struct Arc {
    cap: u64,
    /// Target size of T1 (libCacheSim keeps it as a double).
    p: f64,
    links: Links,
    t1: Queue,
    t2: Queue,
    b1: Queue,
    b2: Queue,
    at: Slots<u8>,
    size: Slots<u32>,
    evictions: u64,
}

impl Arc {
    pub fn new(capacity: u64) -> Self {
        Arc {
            cap: capacity,
            p: 0.0,
            links: Links::default(),
            t1: Queue::default(),
            t2: Queue::default(),
            b1: Queue::default(),
            b2: Queue::default(),
            at: Slots::new(0),
            size: Slots::new(0),
            evictions: 0,
        }
    }

    #[cfg(test)]
    /// The adaptive target for T1, in units.
    pub(crate) fn target_t1(&self) -> f64 {
        self.p
    }

    fn queue(&mut self, which: u8) -> &mut Queue {
        match which {
            T1 => &mut self.t1,
            T2 => &mut self.t2,
            B1 => &mut self.b1,
            _ => &mut self.b2,
        }
    }

    /// Move the tail of `from` to the head of `to` (`to` = 0: forget it).
    fn demote(&mut self, from: u8, to: u8) {
        let t = self.queue(from).tail;
        let s = self.size.get(t) as u64;
        let mut q = *self.queue(from);
        self.links.remove(&mut q, t, s);
        *self.queue(from) = q;
        if from == T1 || from == T2 {
            self.evictions += 1;
        }
        if to == 0 {
            self.at.set(t, 0);
        } else {
            let mut q = *self.queue(to);
            self.links.push_head(&mut q, t, s);
            *self.queue(to) = q;
            self.at.set(t, to);
        }
    }

    fn replace(&mut self, in_b2: bool) {
        let t1 = self.t1.units as f64;
        let from_t1 =
            (self.t1.units > 0 && (t1 > self.p || (t1 == self.p && in_b2))) || self.t2.units == 0;
        if from_t1 {
            self.demote(T1, B1);
        } else {
            self.demote(T2, B2);
        }
    }
}

impl Policy for Arc {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let mut ghost = 0;
        match self.at.get(id) {
            T1 => {
                let s = self.size.get(id) as u64;
                self.links.remove(&mut self.t1, id, s);
                self.links.push_head(&mut self.t2, id, s);
                self.at.set(id, T2);
                return true;
            }
            T2 => {
                self.links.move_to_head(&mut self.t2, id);
                return true;
            }
            B1 => {
                let delta = (self.b2.units as f64 / self.b1.units as f64).max(1.0);
                self.p = (self.p + delta).min(self.cap as f64);
                let s = self.size.get(id) as u64;
                self.links.remove(&mut self.b1, id, s);
                self.at.set(id, 0);
                ghost = B1;
            }
            B2 => {
                let delta = (self.b1.units as f64 / self.b2.units as f64).max(1.0);
                self.p = (self.p - delta).max(0.0);
                let s = self.size.get(id) as u64;
                self.links.remove(&mut self.b2, id, s);
                self.at.set(id, 0);
                ghost = B2;
            }
            _ => {}
        }
        if size > self.cap {
            return false;
        }
        while self.t1.units + self.t2.units + size > self.cap {
            if ghost != 0 {
                self.replace(ghost == B2);
            } else if self.t1.units + self.b1.units + size > self.cap {
                if self.b1.units > 0 {
                    self.demote(B1, 0);
                    self.replace(false);
                } else {
                    self.demote(T1, 0);
                }
            } else {
                if self.t1.units + self.b1.units + self.t2.units + self.b2.units >= 2 * self.cap
                    && self.b2.units > 0
                {
                    self.demote(B2, 0);
                }
                self.replace(false);
            }
        }
        self.size.set(id, size as u32);
        if ghost != 0 {
            self.links.push_head(&mut self.t2, id, size);
            self.at.set(id, T2);
        } else {
            self.links.push_head(&mut self.t1, id, size);
            self.at.set(id, T1);
        }
        false
    }
    fn used(&self) -> u64 {
        self.t1.units + self.t2.units
    }
    fn len(&self) -> usize {
        self.t1.len + self.t2.len
    }
    fn evictions(&self) -> u64 {
        self.evictions
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        vec![
            ("T1", self.links.iter_from_tail(&self.t1).collect()),
            ("T2", self.links.iter_from_tail(&self.t2).collect()),
            ("B1 (ghost)", self.links.iter_from_tail(&self.b1).collect()),
            ("B2 (ghost)", self.links.iter_from_tail(&self.b2).collect()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arc_adapts_p_towards_the_list_that_misses() {
        let mut a = Arc::new(4);
        for id in [1, 2, 1, 2, 3, 4] {
            a.access(id, 1, u64::MAX);
        }
        // T1 = {3, 4}, T2 = {1, 2}. A miss demotes T1's LRU (3) into B1 (|T1| > p = 0).
        assert!(!a.access(5, 1, u64::MAX));
        assert_eq!(a.resident()[2].1, vec![3]);
        // A B1 hit: p rises by max(|B2|/|B1|, 1) = 1; 3 enters T2; 4 goes to B1.
        assert!(!a.access(3, 1, u64::MAX));
        assert_eq!(a.target_t1(), 1.0);
        assert_eq!(a.resident()[1].1, vec![1, 2, 3]);
        assert_eq!(a.resident()[2].1, vec![4]);
        // |T1| = p: the next miss takes T2's LRU (1) into B2; its return lowers p to 0.
        assert!(!a.access(6, 1, u64::MAX));
        assert_eq!(a.resident()[3].1, vec![1]);
        assert!(!a.access(1, 1, u64::MAX));
        assert_eq!(a.target_t1(), 0.0);
        assert!(a.used() <= 4);
    }

    #[test]
    fn a_pure_scan_leaves_no_ghosts() {
        // Case IV with |T1| = C and B1 empty deletes T1's LRU without a ghost.
        let mut a = Arc::new(4);
        for id in 0..100 {
            a.access(id, 1, u64::MAX);
        }
        assert!(a.resident()[2].1.is_empty() && a.target_t1() == 0.0);
    }
}
