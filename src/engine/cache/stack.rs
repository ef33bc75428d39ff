//! LRU at every cache size in one pass: Mattson's stack distances (Mattson et al. 1970).
//!
//! LRU is a stack algorithm: a cache of C units holds the C most recently used units, so a
//! request hits every LRU cache at least as large as its *stack distance* — the units of
//! the distinct objects used since its previous request, itself included. The distance is a
//! range sum over time: a Fenwick tree holds, at each object's last-use time, the object's
//! units; the distance is the sum after that time plus its own. Time is compacted (live
//! positions renumbered) whenever it runs out, so memory stays proportional to the distinct
//! objects, not to the requests — the 100-million-request benchmark needs no trace in
//! memory. With byte sizes the same holds when each object keeps one size (libCacheSim's
//! LRU keeps the size it was inserted with).
//!
//! ```
//! use tianwang::engine::cache::stack::StackDistance;
//! let mut s = StackDistance::default();
//! let d: Vec<Option<u64>> = [1u32, 2, 3, 1, 1].iter().map(|&id| s.access(id, 1)).collect();
//! assert_eq!(d, vec![None, None, None, Some(3), Some(1)]);
//! ```

use serde::{Deserialize, Serialize};

use super::list::Slots;
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

const NONE: u32 = u32::MAX;

/// Stack distances over a stream, one request at a time.
#[derive(Debug, Clone)]
pub struct StackDistance {
    fen: Vec<u64>,
    /// The object whose last use is at each position (NONE when superseded).
    obj_at: Vec<u32>,
    /// Each object's last-use position + 1 (0: never used).
    last: Slots<u32>,
    /// Each object's units at its last use.
    units: Slots<u64>,
    t: usize,
    live: usize,
}

impl Default for StackDistance {
    fn default() -> Self {
        StackDistance::with_capacity(1 << 16)
    }
}

impl StackDistance {
    pub fn with_capacity(cap: usize) -> Self {
        let cap = cap.max(16);
        StackDistance {
            fen: vec![0; cap + 1],
            obj_at: vec![NONE; cap],
            last: Slots::new(0),
            units: Slots::new(0),
            t: 0,
            live: 0,
        }
    }

    fn add(&mut self, pos: usize, delta: i64) {
        let mut i = pos + 1;
        while i < self.fen.len() {
            self.fen[i] = self.fen[i].wrapping_add(delta as u64);
            i += i & i.wrapping_neg();
        }
    }

    /// Sum of positions 0..pos (exclusive).
    fn prefix(&self, pos: usize) -> u64 {
        let mut i = pos;
        let mut s = 0u64;
        while i > 0 {
            s = s.wrapping_add(self.fen[i]);
            i -= i & i.wrapping_neg();
        }
        s
    }

    fn compact(&mut self) {
        let mut order = Vec::with_capacity(self.live);
        for pos in 0..self.t {
            let id = self.obj_at[pos];
            if id != NONE && self.last.get(id) as usize == pos + 1 {
                order.push(id);
            }
        }
        let cap = self.obj_at.len().max(2 * order.len() + 1024);
        self.obj_at = vec![NONE; cap];
        let mut raw = vec![0u64; cap + 1];
        for (pos, &id) in order.iter().enumerate() {
            self.obj_at[pos] = id;
            self.last.set(id, pos as u32 + 1);
            raw[pos + 1] = self.units.get(id);
        }
        // O(n) Fenwick build.
        for i in 1..=cap {
            let j = i + (i & i.wrapping_neg());
            if j <= cap {
                raw[j] = raw[j].wrapping_add(raw[i]);
            }
        }
        self.fen = raw;
        self.t = order.len();
    }

    /// Serve a request of `units`; its stack distance in units (None: first use).
    pub fn access(&mut self, id: u32, units: u64) -> Option<u64> {
        if self.t == self.obj_at.len() {
            self.compact();
        }
        let prev = self.last.get(id) as usize;
        let dist = if prev > 0 {
            let p = prev - 1;
            let own = self.units.get(id);
            let after = self.prefix(self.t).wrapping_sub(self.prefix(p + 1));
            self.add(p, -(own as i64));
            self.obj_at[p] = NONE;
            Some(after + own)
        } else {
            self.live += 1;
            None
        };
        let t = self.t;
        self.add(t, units as i64);
        self.obj_at[t] = id;
        self.last.set(id, t as u32 + 1);
        self.units.set(id, units);
        self.t += 1;
        dist
    }
}

/// When counting starts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Warmup {
    /// Count every request (cold start, the book's setting).
    #[default]
    None,
    /// Count from this request index on.
    Requests(u64),
    /// Count from the request after the cache first fills (each size its own point).
    Full,
}

/// LRU's counts at one size.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LruPoint {
    pub size: u64,
    pub requests: u64,
    pub hits: u64,
    pub bytes: u64,
    pub byte_hits: u64,
}

/// Run the stack-distance pass over `reqs` (id, units, bytes) for every size in `sizes`.
pub fn lru_all_sizes(
    reqs: impl Iterator<Item = (u32, u64, u64)>,
    total_hint: u64,
    sizes: &[u64],
    warmup: Warmup,
    tick: &dyn Tick,
) -> Result<Vec<LruPoint>> {
    let mut sorted: Vec<u64> = sizes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let k = sorted.len();
    let mut d_req = vec![0i64; k + 1];
    let mut d_hit = vec![0i64; k + 1];
    let mut d_bytes = vec![0i64; k + 1];
    let mut d_bhit = vec![0i64; k + 1];
    let mut sd = StackDistance::default();
    let mut filled: u64 = 0;
    for (i, (id, units, bytes)) in reqs.enumerate() {
        if i & 0xF_FFFF == 0 && i > 0 {
            tick.tick(
                (i as f64 / total_hint.max(1) as f64).min(1.0) as f32,
                "stack distances",
            )?;
        }
        let counted_hi = match warmup {
            Warmup::None => k,
            Warmup::Requests(n) => {
                if (i as u64) < n {
                    0
                } else {
                    k
                }
            }
            Warmup::Full => sorted.partition_point(|&c| c <= filled),
        };
        let d = sd.access(id, units);
        if d.is_none() {
            filled += units;
        }
        if counted_hi == 0 {
            continue;
        }
        d_req[0] += 1;
        d_req[counted_hi] -= 1;
        d_bytes[0] += bytes as i64;
        d_bytes[counted_hi] -= bytes as i64;
        if let Some(d) = d {
            let lo = sorted.partition_point(|&c| c < d);
            if lo < counted_hi {
                d_hit[lo] += 1;
                d_hit[counted_hi] -= 1;
                d_bhit[lo] += bytes as i64;
                d_bhit[counted_hi] -= bytes as i64;
            }
        }
    }
    let mut out = Vec::with_capacity(k);
    let (mut r, mut h, mut b, mut bh) = (0i64, 0i64, 0i64, 0i64);
    for j in 0..k {
        r += d_req[j];
        h += d_hit[j];
        b += d_bytes[j];
        bh += d_bhit[j];
        out.push(LruPoint {
            size: sorted[j],
            requests: r as u64,
            hits: h as u64,
            bytes: b as u64,
            byte_hits: bh as u64,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cache::basic::Lru;
    use crate::engine::cache::policy::Policy;
    use crate::engine::cache::trace::Generator;
    use crate::engine::rng::Rng;

    #[test]
    fn compaction_keeps_distances() {
        let ids: Vec<u32> = Generator::zipf(300, 0.7, 50_000, 2).collect();
        let mut small = StackDistance::with_capacity(16);
        let mut big = StackDistance::with_capacity(1 << 17);
        for &id in &ids {
            assert_eq!(small.access(id, 1), big.access(id, 1));
        }
    }

    #[test]
    fn stack_distances_equal_simulated_lru_at_every_size() {
        let ids: Vec<u32> = Generator::zipf(2_000, 0.9, 40_000, 4).collect();
        let sizes: Vec<u64> = (1..=2_100).step_by(7).collect();
        for warmup in [Warmup::None, Warmup::Requests(5_000), Warmup::Full] {
            let curve = lru_all_sizes(
                ids.iter().map(|&id| (id, 1, 1)),
                ids.len() as u64,
                &sizes,
                warmup,
                &(),
            )
            .unwrap();
            for p in &curve {
                let mut lru = Lru::new(p.size);
                let (mut req, mut hits) = (0, 0);
                let mut counting = warmup == Warmup::None;
                for (i, &id) in ids.iter().enumerate() {
                    if let Warmup::Requests(n) = warmup {
                        counting = i as u64 >= n;
                    }
                    let hit = lru.access(id, 1, u64::MAX);
                    if counting {
                        req += 1;
                        hits += hit as u64;
                    }
                    if warmup == Warmup::Full && lru.used() >= p.size {
                        counting = true;
                    }
                }
                assert_eq!(
                    (p.requests, p.hits),
                    (req, hits),
                    "{warmup:?} size {}",
                    p.size
                );
            }
        }
    }

    #[test]
    fn byte_stack_distances_equal_simulated_byte_lru() {
        let mut rng = Rng::new(5);
        let obj_size: Vec<u64> = (0..500).map(|_| 1 + rng.below(4096) as u64).collect();
        let ids: Vec<u32> = Generator::zipf(500, 0.8, 20_000, 6).collect();
        let sizes: Vec<u64> = (1..40).map(|k| k * 10_000).collect();
        let curve = lru_all_sizes(
            ids.iter()
                .map(|&id| (id, obj_size[id as usize], obj_size[id as usize])),
            ids.len() as u64,
            &sizes,
            Warmup::None,
            &(),
        )
        .unwrap();
        for p in &curve {
            let mut lru = Lru::new(p.size);
            let (mut hits, mut byte_hits) = (0, 0);
            for &id in &ids {
                let s = obj_size[id as usize];
                if lru.access(id, s, u64::MAX) {
                    hits += 1;
                    byte_hits += s;
                }
            }
            assert_eq!((p.hits, p.byte_hits), (hits, byte_hits), "size {}", p.size);
        }
    }
}
