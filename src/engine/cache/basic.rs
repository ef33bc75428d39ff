//! The single-queue policies: FIFO and LRU (the book's §9.10 [L3423]), CLOCK, SIEVE, random
//! replacement and the infinite cache (the ceiling 1 − m/n [L3247]).
//!
//! Each follows libCacheSim's definition step for step (`cache/eviction/{FIFO,LRU,Clock,
//! Sieve,Random}.c` at 1a1a11a/libCacheSim aa0fc40): a miss evicts from the tail until the
//! new object fits (`used + size > capacity`), then inserts at the head; an object larger
//! than the whole cache is never admitted.
//!
//! - FIFO: a hit changes nothing.
//! - LRU: a hit moves the object to the head.
//! - CLOCK: a hit sets the object's counter (1 bit: saturates at 1); eviction looks at the
//!   tail: a set counter is decremented and the object re-queued at the head (its second
//!   chance), a clear one is evicted. New objects start at 0 (libCacheSim's `init-freq=0`).
//! - SIEVE (Zhang et al., NSDI 2024): a hit marks the object visited; the hand walks from
//!   the tail towards the head clearing marks and evicts the first unmarked object, staying
//!   where it stopped (new objects enter at the head, behind the hand). Not in the book.
//!
//! ```
//! use tianwang::engine::cache::basic::{Fifo, Lru};
//! use tianwang::engine::cache::policy::Policy;
//! // An LRU of 3 thrashes on a loop of 4: every request misses.
//! let mut lru = Lru::new(3);
//! let loop4 = [0u32, 1, 2, 3].repeat(5);
//! assert!(loop4.iter().all(|&id| !lru.access(id, 1, u64::MAX)));
//! let mut fifo = Fifo::new(3);
//! assert!(!fifo.access(7, 1, u64::MAX) && fifo.access(7, 1, u64::MAX));
//! ```

use super::list::{Links, NIL, Queue, Slots};
use super::policy::Policy;
use crate::engine::rng::Rng;

/// The queue shared by FIFO, LRU, CLOCK and SIEVE: membership, sizes, counters.
#[derive(Debug, Clone)]
struct OneQueue {
    cap: u64,
    links: Links,
    q: Queue,
    /// Object size while resident; 0 = not resident.
    size: Slots<u32>,
    /// CLOCK's counter or SIEVE's visited bit.
    bit: Slots<u8>,
    evictions: u64,
}

impl OneQueue {
    fn new(cap: u64) -> Self {
        OneQueue {
            cap,
            links: Links::default(),
            q: Queue::default(),
            size: Slots::new(0),
            bit: Slots::new(0),
            evictions: 0,
        }
    }

    #[inline]
    fn contains(&self, id: u32) -> bool {
        self.size.get(id) != 0
    }

    #[inline]
    fn insert(&mut self, id: u32, size: u64) {
        self.links.push_head(&mut self.q, id, size);
        self.size.set(id, size.max(1) as u32);
        self.bit.set(id, 0);
    }

    #[inline]
    fn evict(&mut self, id: u32) {
        let s = self.size.get(id) as u64;
        self.links.remove(&mut self.q, id, s);
        self.size.set(id, 0);
        self.evictions += 1;
    }

    fn resident(&self, name: &'static str) -> Vec<(&'static str, Vec<u32>)> {
        vec![(name, self.links.iter_from_tail(&self.q).collect())]
    }

    /// The miss path every one-queue policy shares: an object larger than the cache is not
    /// admitted; otherwise `victim` picks objects to evict until it fits, then it goes in at
    /// the head. Always a miss (`false`).
    #[inline]
    fn admit(&mut self, id: u32, size: u64, mut victim: impl FnMut(&mut OneQueue) -> u32) -> bool {
        if size > self.cap {
            return false;
        }
        while self.q.units + size > self.cap {
            let v = victim(self);
            self.evict(v);
        }
        self.insert(id, size);
        false
    }
}

macro_rules! queue_accessors {
    () => {
        fn used(&self) -> u64 {
            self.0.q.units
        }
        fn len(&self) -> usize {
            self.0.q.len
        }
        fn evictions(&self) -> u64 {
            self.0.evictions
        }
    };
}

/// First in, first out.
#[derive(Debug, Clone)]
pub struct Fifo(OneQueue);

impl Fifo {
    pub fn new(capacity: u64) -> Self {
        Fifo(OneQueue::new(capacity))
    }
}

impl Policy for Fifo {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let c = &mut self.0;
        if c.contains(id) {
            return true;
        }
        c.admit(id, size, |c| c.q.tail)
    }
    queue_accessors!();
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        self.0.resident("fifo")
    }
}

/// Least recently used.
#[derive(Debug, Clone)]
pub struct Lru(OneQueue);

impl Lru {
    pub fn new(capacity: u64) -> Self {
        Lru(OneQueue::new(capacity))
    }
}

impl Policy for Lru {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let c = &mut self.0;
        if c.contains(id) {
            c.links.move_to_head(&mut c.q, id);
            return true;
        }
        c.admit(id, size, |c| c.q.tail)
    }
    queue_accessors!();
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        self.0.resident("lru")
    }
}

/// CLOCK with an n-bit counter (libCacheSim's `n-bit-counter`, default 1).
#[derive(Debug, Clone)]
pub struct Clock(OneQueue, u8);

impl Clock {
    pub fn new(capacity: u64, n_bits: u8) -> Self {
        let max = ((1u16 << n_bits.clamp(1, 8)) - 1) as u8;
        Clock(OneQueue::new(capacity), max)
    }
}

impl Policy for Clock {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let max = self.1;
        let c = &mut self.0;
        if c.contains(id) {
            let b = c.bit.get_mut(id);
            if *b < max {
                *b += 1;
            }
            return true;
        }
        c.admit(id, size, |c| {
            let mut t = c.q.tail;
            while c.bit.get(t) >= 1 {
                *c.bit.get_mut(t) -= 1;
                c.links.move_to_head(&mut c.q, t);
                t = c.q.tail;
            }
            t
        })
    }
    queue_accessors!();
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        self.0.resident("clock")
    }
}

/// SIEVE: a FIFO queue with a hand that sifts out unvisited objects.
#[derive(Debug, Clone)]
pub struct Sieve(OneQueue, u32);

impl Sieve {
    pub fn new(capacity: u64) -> Self {
        Sieve(OneQueue::new(capacity), NIL)
    }
}

impl Policy for Sieve {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let (c, hand) = (&mut self.0, &mut self.1);
        if c.contains(id) {
            c.bit.set(id, 1);
            return true;
        }
        c.admit(id, size, |c| {
            let mut obj = if *hand == NIL { c.q.tail } else { *hand };
            while c.bit.get(obj) > 0 {
                c.bit.set(obj, 0);
                let newer = c.links.newer(obj);
                obj = if newer == NIL { c.q.tail } else { newer };
            }
            *hand = c.links.newer(obj);
            obj
        })
    }
    queue_accessors!();
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        self.0.resident("sieve")
    }
}

/// Random replacement: the victim is drawn uniformly from the resident objects (seeded).
#[derive(Debug, Clone)]
pub(crate) struct Random {
    cap: u64,
    used: u64,
    members: Vec<u32>,
    /// Position in `members` + 1; 0 = not resident.
    pos: Slots<u32>,
    size: Slots<u32>,
    rng: Rng,
    evictions: u64,
}

impl Random {
    pub fn new(capacity: u64, seed: u64) -> Self {
        Random {
            cap: capacity,
            used: 0,
            members: Vec::new(),
            pos: Slots::new(0),
            size: Slots::new(0),
            rng: Rng::new(seed),
            evictions: 0,
        }
    }
}

impl Policy for Random {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        if self.pos.get(id) != 0 {
            return true;
        }
        if size > self.cap {
            return false;
        }
        while self.used + size > self.cap {
            let i = self.rng.below(self.members.len());
            let victim = self.members.swap_remove(i);
            if let Some(&moved) = self.members.get(i) {
                self.pos.set(moved, i as u32 + 1);
            }
            self.pos.set(victim, 0);
            self.used -= self.size.get(victim) as u64;
            self.evictions += 1;
        }
        self.members.push(id);
        self.pos.set(id, self.members.len() as u32);
        self.size.set(id, size as u32);
        self.used += size;
        false
    }
    fn used(&self) -> u64 {
        self.used
    }
    fn len(&self) -> usize {
        self.members.len()
    }
    fn evictions(&self) -> u64 {
        self.evictions
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        vec![("random", self.members.clone())]
    }
}

/// The infinite cache: every object stays; only first requests miss (the ceiling).
#[derive(Debug, Clone, Default)]
pub struct Infinite {
    seen: Vec<u64>,
    len: usize,
    used: u64,
}

impl Policy for Infinite {
    fn access(&mut self, id: u32, size: u64, _next: u64) -> bool {
        let (w, b) = (id as usize / 64, id % 64);
        if w >= self.seen.len() {
            self.seen.resize((w + 1).max(self.seen.len() * 2), 0);
        }
        if self.seen[w] & (1 << b) != 0 {
            return true;
        }
        self.seen[w] |= 1 << b;
        self.len += 1;
        self.used += size;
        false
    }
    fn used(&self) -> u64 {
        self.used
    }
    fn len(&self) -> usize {
        self.len
    }
    fn evictions(&self) -> u64 {
        0
    }
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)> {
        let ids = (0..self.seen.len() * 64)
            .filter(|&i| self.seen[i / 64] & (1 << (i % 64)) != 0)
            .map(|i| i as u32)
            .collect();
        vec![("all", ids)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cache::policy::{PolicyKind, PolicyParams, build};

    fn misses(kind: PolicyKind, cap: u64, trace: &[u32]) -> usize {
        let mut p = build(kind, cap, &PolicyParams::default());
        trace
            .iter()
            .filter(|&&id| !p.access(id, 1, u64::MAX))
            .count()
    }

    #[test]
    fn fifo_shows_beladys_anomaly() {
        // The classic reference string: FIFO with 4 frames misses more than with 3.
        let t = [1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5];
        assert_eq!(misses(PolicyKind::Fifo, 3, &t), 9);
        assert_eq!(misses(PolicyKind::Fifo, 4, &t), 10);
        // LRU is a stack algorithm: no anomaly.
        assert_eq!(misses(PolicyKind::Lru, 3, &t), 10);
        assert_eq!(misses(PolicyKind::Lru, 4, &t), 8);
    }

    #[test]
    fn lru_thrashes_on_a_loop_one_larger_than_the_cache() {
        let t: Vec<u32> = (0..10).flat_map(|_| 0..5).collect();
        assert_eq!(misses(PolicyKind::Lru, 4, &t), 50);
        assert_eq!(misses(PolicyKind::Fifo, 4, &t), 50);
        assert_eq!(misses(PolicyKind::Lru, 5, &t), 5);
        // CLOCK degenerates to FIFO on a loop; random keeps some.
        assert_eq!(misses(PolicyKind::Clock, 4, &t), 50);
        assert!(misses(PolicyKind::Random, 4, &t) < 50);
    }

    #[test]
    fn clock_gives_a_second_chance() {
        // cap 3: 1 2 3 fill; hit 1 sets its bit; 4 evicts 2 (1 re-queued, bit cleared).
        let mut c = Clock::new(3, 1);
        for id in [1, 2, 3, 1, 4] {
            c.access(id, 1, u64::MAX);
        }
        assert_eq!(c.resident()[0].1, vec![3, 1, 4]);
    }

    #[test]
    fn sieve_hand_stays_and_new_objects_enter_behind_it() {
        // cap 3: a b c, hit a, d: hand clears a, evicts b, stops at c; e evicts c.
        let mut s = Sieve::new(3);
        for id in [0, 1, 2, 0, 3] {
            s.access(id, 1, u64::MAX);
        }
        assert_eq!(s.resident()[0].1, vec![0, 2, 3]);
        s.access(4, 1, u64::MAX);
        assert_eq!(s.resident()[0].1, vec![0, 3, 4]);
    }

    #[test]
    fn bytes_evict_until_the_object_fits_and_oversized_objects_bypass() {
        let mut l = Lru::new(10);
        assert!(!l.access(0, 4, u64::MAX));
        assert!(!l.access(1, 4, u64::MAX));
        assert!(!l.access(2, 5, u64::MAX)); // evicts 0
        assert_eq!((l.used(), l.len()), (9, 2));
        assert!(!l.access(3, 11, u64::MAX));
        assert_eq!(l.used(), 9);
        assert!(l.access(1, 4, u64::MAX));
    }

    #[test]
    fn infinite_misses_only_first_requests() {
        assert_eq!(misses(PolicyKind::Infinite, 1, &[5, 5, 9, 5, 9, 1000]), 3);
    }
}
