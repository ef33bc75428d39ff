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
//! let mut s = StackDistance::<u64>::default();
//! let d: Vec<Option<u64>> = [1u32, 2, 3, 1, 1].iter().map(|&id| s.access(id, 1)).collect();
//! assert_eq!(d, vec![None, None, None, Some(3), Some(1)]);
//! ```

use serde::{Deserialize, Serialize};

use super::list::Slots;
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

const NONE: u32 = u32::MAX;

/// A Fenwick-tree weight: `u32` when every request weighs one unit (half the memory, so
/// the 10⁸-request run stays in cache better), `u64` for bytes.
pub trait Weight: Copy + Default + Send + Sync + std::fmt::Debug + 'static {
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
    fn plus(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
}

impl Weight for u32 {
    #[inline]
    fn from_u64(v: u64) -> Self {
        v as u32
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self as u64
    }
    #[inline]
    fn plus(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    #[inline]
    fn minus(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
}

impl Weight for u64 {
    #[inline]
    fn from_u64(v: u64) -> Self {
        v
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self
    }
    #[inline]
    fn plus(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    #[inline]
    fn minus(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
}

/// Stack distances over a stream, one request at a time.
#[derive(Debug, Clone)]
pub struct StackDistance<W: Weight = u64> {
    fen: Vec<W>,
    /// The object whose last use is at each position (NONE when superseded).
    obj_at: Vec<u32>,
    /// Each object's last-use position + 1 (0: never used).
    last: Slots<u32>,
    /// Each object's units at its last use.
    units: Slots<W>,
    t: usize,
    live: usize,
    /// Sum of the units at every live position (the whole stack).
    total: W,
}

impl<W: Weight> Default for StackDistance<W> {
    fn default() -> Self {
        StackDistance::with_capacity(1 << 16)
    }
}

impl<W: Weight> StackDistance<W> {
    pub fn with_capacity(cap: usize) -> Self {
        let cap = cap.max(16);
        StackDistance {
            fen: vec![W::default(); cap + 1],
            obj_at: vec![NONE; cap],
            last: Slots::new(0),
            units: Slots::new(W::default()),
            t: 0,
            live: 0,
            total: W::default(),
        }
    }

    #[inline]
    fn add(&mut self, pos: usize, delta: W, negative: bool) {
        let mut i = pos + 1;
        let n = self.fen.len();
        while i < n {
            self.fen[i] = if negative {
                self.fen[i].minus(delta)
            } else {
                self.fen[i].plus(delta)
            };
            i += i & i.wrapping_neg();
        }
    }

    /// Sum of positions 0..pos (exclusive).
    #[inline]
    fn prefix(&self, pos: usize) -> W {
        let mut i = pos;
        let mut s = W::default();
        while i > 0 {
            s = s.plus(self.fen[i]);
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
        let mut raw = vec![W::default(); cap + 1];
        for (pos, &id) in order.iter().enumerate() {
            self.obj_at[pos] = id;
            self.last.set(id, pos as u32 + 1);
            raw[pos + 1] = self.units.get(id);
        }
        // O(n) Fenwick build.
        for i in 1..=cap {
            let j = i + (i & i.wrapping_neg());
            if j <= cap {
                raw[j] = raw[j].plus(raw[i]);
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
        let units = W::from_u64(units);
        let prev = self.last.get(id) as usize;
        let dist = if prev > 0 {
            let p = prev - 1;
            let own = self.units.get(id);
            let after = self.total.minus(self.prefix(p + 1));
            self.add(p, own, true);
            self.total = self.total.minus(own);
            self.obj_at[p] = NONE;
            Some(after.to_u64() + own.to_u64())
        } else {
            self.live += 1;
            None
        };
        let t = self.t;
        self.add(t, units, false);
        self.total = self.total.plus(units);
        self.obj_at[t] = id;
        self.last.set(id, t as u32 + 1);
        self.units.set(id, units);
        self.t += 1;
        dist
    }
}

/// Positions per block of [`CountStack`] (64 words of 64 bits).
const BLOCK: usize = 4096;

/// Stack distances when every object weighs one unit: the live positions are a bitmap
/// (popcounts inside a 4096-position block) and a small Fenwick tree counts per block, so a
/// request touches a few cache lines instead of ~36 scattered tree nodes — 10⁸ requests
/// over 10⁷ objects fit in a minute. Same answers as [`StackDistance`].
#[derive(Debug, Clone)]
pub(crate) struct CountStack {
    bits: Vec<u64>,
    /// 1-based Fenwick tree over blocks.
    blocks: Vec<u32>,
    obj_at: Vec<u32>,
    last: Slots<u32>,
    t: usize,
    live: usize,
}

impl Default for CountStack {
    fn default() -> Self {
        CountStack::with_capacity(1 << 16)
    }
}

impl CountStack {
    pub fn with_capacity(cap: usize) -> Self {
        let cap = cap.max(BLOCK).div_ceil(BLOCK) * BLOCK;
        CountStack {
            bits: vec![0; cap / 64],
            blocks: vec![0; cap / BLOCK + 1],
            obj_at: vec![NONE; cap],
            last: Slots::new(0),
            t: 0,
            live: 0,
        }
    }

    #[inline]
    fn block_add(&mut self, blk: usize, delta: u32, negative: bool) {
        let mut i = blk + 1;
        let n = self.blocks.len();
        while i < n {
            self.blocks[i] = if negative {
                self.blocks[i].wrapping_sub(delta)
            } else {
                self.blocks[i].wrapping_add(delta)
            };
            i += i & i.wrapping_neg();
        }
    }

    /// Live positions in blocks 0..=blk.
    #[inline]
    fn blocks_through(&self, blk: usize) -> u32 {
        let mut i = blk + 1;
        let mut s = 0u32;
        while i > 0 {
            s = s.wrapping_add(self.blocks[i]);
            i -= i & i.wrapping_neg();
        }
        s
    }

    fn compact(&mut self) {
        let mut order = Vec::with_capacity(self.live);
        for (w, &word) in self.bits.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                let b = x.trailing_zeros() as usize;
                order.push(self.obj_at[w * 64 + b]);
                x &= x - 1;
            }
        }
        let cap = self
            .obj_at
            .len()
            .max(2 * order.len() + BLOCK)
            .div_ceil(BLOCK)
            * BLOCK;
        self.obj_at = vec![NONE; cap];
        self.bits = vec![0; cap / 64];
        let nb = cap / BLOCK;
        let mut raw = vec![0u32; nb + 1];
        for (pos, &id) in order.iter().enumerate() {
            self.obj_at[pos] = id;
            self.last.set(id, pos as u32 + 1);
            self.bits[pos / 64] |= 1 << (pos % 64);
            raw[pos / BLOCK + 1] += 1;
        }
        for i in 1..=nb {
            let j = i + (i & i.wrapping_neg());
            if j <= nb {
                raw[j] = raw[j].wrapping_add(raw[i]);
            }
        }
        self.blocks = raw;
        self.t = order.len();
    }

    /// Read what [`CountStack::access`] will need for `id` (its last position and that
    /// position's bitmap word), so a batch of requests can bring them into cache together
    /// instead of waiting for each miss in turn. Returns a value only to keep the reads.
    #[inline]
    pub fn touch(&self, id: u32) -> u64 {
        let prev = self.last.get(id) as usize;
        let word = prev
            .checked_sub(1)
            .and_then(|p| self.bits.get(p / 64))
            .copied()
            .unwrap_or(0);
        prev as u64 ^ word
    }

    /// Serve a request; its stack distance in objects (None: first use).
    pub fn access(&mut self, id: u32) -> Option<u64> {
        if self.t == self.obj_at.len() {
            self.compact();
        }
        let prev = self.last.get(id) as usize;
        let dist = if prev > 0 {
            let p = prev - 1;
            let (w, b) = (p / 64, p % 64);
            let blk = p / BLOCK;
            let above = !((2u64 << b).wrapping_sub(1));
            let mut c = (self.bits[w] & above).count_ones();
            let block_end = ((blk + 1) * BLOCK / 64).min(self.bits.len());
            for word in &self.bits[w + 1..block_end] {
                c += word.count_ones();
            }
            c += (self.live as u32).wrapping_sub(self.blocks_through(blk));
            self.bits[w] &= !(1u64 << b);
            self.block_add(blk, 1, true);
            self.live -= 1;
            Some(c as u64 + 1)
        } else {
            None
        };
        let t = self.t;
        self.bits[t / 64] |= 1 << (t % 64);
        self.block_add(t / BLOCK, 1, false);
        self.live += 1;
        self.obj_at[t] = id;
        self.last.set(id, t as u32 + 1);
        self.t += 1;
        dist
    }
}

/// Stack distances of either kind, for [`lru_all_sizes_with`].
trait Distances: Default {
    fn distance(&mut self, id: u32, units: u64) -> Option<u64>;
    /// Warm the cache for a coming request (see [`CountStack::touch`]).
    fn touch(&self, _id: u32) -> u64 {
        0
    }
}

impl<W: Weight> Distances for StackDistance<W> {
    fn distance(&mut self, id: u32, units: u64) -> Option<u64> {
        self.access(id, units)
    }
}

impl Distances for CountStack {
    fn distance(&mut self, id: u32, _units: u64) -> Option<u64> {
        self.access(id)
    }
    fn touch(&self, id: u32) -> u64 {
        CountStack::touch(self, id)
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
pub(crate) struct LruPoint {
    pub size: u64,
    pub requests: u64,
    pub hits: u64,
    pub bytes: u64,
    pub byte_hits: u64,
}

/// Run the stack-distance pass over `reqs` (id, units, bytes) for every size in `sizes`.
pub(crate) fn lru_all_sizes(
    reqs: impl Iterator<Item = (u32, u64, u64)>,
    total_hint: u64,
    sizes: &[u64],
    warmup: Warmup,
    tick: &dyn Tick,
) -> Result<Vec<LruPoint>> {
    lru_all_sizes_with::<StackDistance<u64>>(reqs, total_hint, sizes, warmup, tick)
}

/// [`lru_all_sizes`] when every request weighs one unit (object-count capacity; the
/// bytes still count for the byte ratios): a 32-bit tree, faster on large traces.
pub(crate) fn lru_all_sizes_counted(
    reqs: impl Iterator<Item = (u32, u64)>,
    total_hint: u64,
    sizes: &[u64],
    warmup: Warmup,
    tick: &dyn Tick,
) -> Result<Vec<LruPoint>> {
    lru_all_sizes_with::<CountStack>(
        reqs.map(|(id, b)| (id, 1, b)),
        total_hint,
        sizes,
        warmup,
        tick,
    )
}

fn lru_all_sizes_with<D: Distances>(
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
    let mut sd = D::default();
    let mut filled: u64 = 0;
    // Requests go in batches: first every request's state is read (its cache misses
    // overlap), then the batch is served from warm cache.
    const BATCH: usize = 32;
    let mut reqs = reqs;
    let mut buf: Vec<(u32, u64, u64)> = Vec::with_capacity(BATCH);
    let mut sink = 0u64;
    let mut i = 0usize;
    loop {
        buf.clear();
        buf.extend(reqs.by_ref().take(BATCH));
        if buf.is_empty() {
            break;
        }
        for &(id, _, _) in &buf {
            sink ^= sd.touch(id);
        }
        for &(id, units, bytes) in &buf {
            i += 1;
            let i = i - 1;
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
            let d = sd.distance(id, units);
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
    }
    std::hint::black_box(sink);
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
        let mut small = StackDistance::<u32>::with_capacity(16);
        let mut big = StackDistance::<u64>::with_capacity(1 << 17);
        let mut bits = CountStack::with_capacity(16);
        for &id in &ids {
            let d = big.access(id, 1);
            assert_eq!(small.access(id, 1), d);
            assert_eq!(bits.access(id), d);
        }
    }

    #[test]
    fn the_bitmap_stack_agrees_across_many_blocks() {
        let ids: Vec<u32> = Generator::zipf(30_000, 0.5, 300_000, 9).collect();
        let mut tree = StackDistance::<u64>::default();
        let mut bits = CountStack::default();
        for &id in &ids {
            assert_eq!(bits.access(id), tree.access(id, 1));
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
