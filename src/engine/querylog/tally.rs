//! The collector's bounded parts: what a statistic needs only as counts is counted while the
//! records stream past, so a [`super::stats::Collector`] keeps 17 bytes a request instead of
//! every column (issue 30: 90 bytes a record once made a 100 M-line log need ~9 GB).
//!
//! * [`QueryTable`]: distinct normalised queries, the texts end to end in one string (looked up
//!   by their 64-bit hash; a second text with the same hash is looked up by text).
//! * [`Hist`]: (value, count) of click ranks or result pages, dense for small values.
//! * [`Sessions`]: sessions counted in file order (book §9.2 [L3247]), per user only the
//!   last time and the first time seen — two collectors of consecutive file parts merge
//!   exactly ([`Sessions::merge`]).
//! * [`Pages`]: the result page of every request as one byte, larger pages in a side table.
//!
//! ```
//! use tianwang::engine::querylog::stats::{Collector, StatsConfig};
//! use tianwang::engine::querylog::Record;
//! let mut c = Collector::new(StatsConfig::default());
//! for i in 0..1000u32 {
//!     let q = format!("q{}", i % 10);
//!     let r = Record { line: i as u64 + 1, time: Some(i as i64), dated: false, user: "u",
//!         query: &q, page: Some(1 + i % 3), rank: None, order: None, url: None, cache: None };
//!     c.push(&r)?;
//! }
//! assert!(c.heap_bytes() < 1000 * 40);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::BTreeMap;

use super::hash64;
use super::stats::NO_TIME;
pub(crate) use crate::engine::text::fxhash::HashIds;

/// The id of the 64-bit hash `h` (a user's), a new one recorded in `hashes` when first seen.
pub(crate) fn intern_hash(ids: &mut HashIds, hashes: &mut Vec<u64>, h: u64) -> u32 {
    let n = hashes.len() as u32;
    let id = ids.find_or_insert(
        h,
        n,
        |id| hashes[id as usize] == h,
        |id| hashes[id as usize],
    );
    if id == n {
        hashes.push(h);
    }
    id
}

/// Distinct queries in order of first appearance; see the module doc. The texts sit end to
/// end in one string (no allocation per query), found through a [`HashIds`] of their hashes.
#[derive(Default)]
pub(crate) struct QueryTable {
    ids: HashIds,
    text: String,
    /// Where each query's text ends in `text`.
    ends: Vec<u64>,
}

/// The text of query `id` in `text` cut at `ends` ("" past the end).
fn text_of<'a>(text: &'a str, ends: &[u64], id: u32) -> &'a str {
    let i = id as usize;
    let end = ends.get(i).copied().unwrap_or(0) as usize;
    let start = match i {
        0 => 0,
        _ => ends.get(i - 1).copied().unwrap_or(0) as usize,
    };
    text.get(start..end).unwrap_or("")
}

impl QueryTable {
    /// The id of `s`, a new one when first seen.
    pub(crate) fn id(&mut self, s: &str) -> u32 {
        let new = self.ends.len() as u32;
        let (text, ends) = (&self.text, &self.ends);
        let id = self.ids.find_or_insert(
            hash64(s),
            new,
            |id| text_of(text, ends, id) == s,
            |id| hash64(text_of(text, ends, id)),
        );
        if id == new {
            self.text.push_str(s);
            self.ends.push(self.text.len() as u64);
        }
        id
    }

    /// The text of query `id` ("" past the end).
    pub(crate) fn get(&self, id: u32) -> &str {
        text_of(&self.text, &self.ends, id)
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The texts in id order, one box each (the table is spent; its map is freed before
    /// the boxes are made).
    pub(crate) fn into_texts(self) -> Vec<Box<str>> {
        let mut out = Vec::with_capacity(self.len());
        self.drain(|s| out.push(Box::from(s)));
        out
    }

    /// Calls `f` with every text in id order (the table is spent, its map freed first).
    pub(crate) fn drain(self, mut f: impl FnMut(&str)) {
        let QueryTable { ids, text, ends } = self;
        drop(ids);
        let mut start = 0;
        for e in ends {
            f(text.get(start..e as usize).unwrap_or(""));
            start = e as usize;
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.ids.heap_bytes() + self.text.capacity() + self.ends.capacity() * 8
    }
}

/// (value ≥ 1, count); see the module doc. Small values are counted in an array, larger ones
/// sparsely: one line's rank or page of 2.9 × 10⁹ once sized a 24 GB array (issue 29).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Hist {
    dense: Vec<u64>,
    sparse: BTreeMap<u32, u64>,
}

impl Hist {
    const DENSE: u32 = 4096;

    pub(crate) fn add(&mut self, v: u32, k: u64) {
        if v == 0 {
            return;
        }
        if v >= Self::DENSE {
            *self.sparse.entry(v).or_insert(0) += k;
            return;
        }
        let i = v as usize;
        if self.dense.len() <= i {
            self.dense.resize(i + 1, 0);
        }
        self.dense[i] += k;
    }

    pub(crate) fn merge(&mut self, o: Hist) {
        for (v, k) in o.pairs() {
            self.add(v, k);
        }
    }

    /// (value, count) of every value counted, ascending.
    pub(crate) fn pairs(&self) -> Vec<(u32, u64)> {
        self.dense
            .iter()
            .enumerate()
            .filter(|(_, k)| **k > 0)
            .map(|(v, k)| (v as u32, *k))
            .chain(self.sparse.iter().map(|(&v, &k)| (v, k)))
            .collect()
    }
}

/// Sessions in file order; see the module doc.
#[derive(Debug, Default, Clone)]
pub(crate) struct Sessions {
    /// Per user id: the last time seen, and the first time seen in this collector
    /// (`NO_TIME`: none yet).
    last: Vec<i64>,
    first: Vec<i64>,
    pub(crate) count: u64,
}

impl Sessions {
    /// A request of user `u` (a new user when `u` is the next id) at `t` (`NO_TIME`: none).
    pub(crate) fn push(&mut self, u: u32, t: i64, gap: i64) {
        let i = u as usize;
        if i == self.last.len() {
            self.last.push(NO_TIME);
            self.first.push(NO_TIME);
            self.count += 1;
        }
        if t == NO_TIME {
            return;
        }
        let last = self.last[i];
        if last == NO_TIME {
            self.first[i] = t;
        } else if (t - last).abs() > gap {
            self.count += 1;
        }
        self.last[i] = t;
    }

    /// Appends the sessions of `b` (read after these), whose user `j` is user `ids[j]` here;
    /// users new here are the ids from `self`'s count on, in order.
    pub(crate) fn merge(&mut self, b: Sessions, ids: &[u32], gap: i64) {
        self.count += b.count;
        for (j, &i) in ids.iter().enumerate() {
            let (i, bl, bf) = (i as usize, b.last[j], b.first[j]);
            if i == self.last.len() {
                self.last.push(bl);
                self.first.push(bf);
                continue;
            }
            // b counted this user's first request as a new session; here it continues one
            // unless the gap since the last time before it is too long.
            self.count -= 1;
            let al = self.last[i];
            if bf != NO_TIME && al != NO_TIME && (bf - al).abs() > gap {
                self.count += 1;
            }
            if self.first[i] == NO_TIME {
                self.first[i] = bf;
            }
            if bl != NO_TIME {
                self.last[i] = bl;
            }
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        (self.last.capacity() + self.first.capacity()) * 8
    }
}

/// Pages at or above this are kept in the side table.
const BIG: u8 = u8::MAX;

/// The result page of every request (0: unknown); see the module doc.
#[derive(Debug, Default, Clone)]
pub(crate) struct Pages {
    small: Vec<u8>,
    /// (request index, page) for pages ≥ 255, ascending.
    big: Vec<(u64, u32)>,
}

impl Pages {
    pub(crate) fn push(&mut self, p: u32) {
        if p >= BIG as u32 {
            self.big.push((self.small.len() as u64, p));
            self.small.push(BIG);
        } else {
            self.small.push(p as u8);
        }
    }

    pub(crate) fn append(&mut self, b: Pages) {
        let off = self.small.len() as u64;
        self.big
            .extend(b.big.into_iter().map(|(i, p)| (i + off, p)));
        self.small.extend_from_slice(&b.small);
    }

    /// Every request's page, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut big = self.big.iter();
        self.small.iter().map(move |&p| {
            if p == BIG {
                big.next().map_or(BIG as u32, |b| b.1)
            } else {
                p as u32
            }
        })
    }

    /// The largest page.
    pub(crate) fn max(&self) -> u32 {
        let small = self.small.iter().copied().filter(|&p| p != BIG).max();
        let big = self.big.iter().map(|b| b.1).max();
        small.map(u32::from).max(big).unwrap_or(0)
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.small.capacity() + self.big.capacity() * 16
    }

    #[cfg(test)]
    pub(crate) fn shrink_to_fit(&mut self) {
        self.small.shrink_to_fit();
        self.big.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_keep_every_value_and_append_in_order() {
        let mut a = Pages::default();
        for p in [0, 1, 254, 255, 70_000, 3] {
            a.push(p);
        }
        let mut b = Pages::default();
        for p in [u32::MAX, 2] {
            b.push(p);
        }
        a.append(b);
        let all: Vec<u32> = a.iter().collect();
        assert_eq!(all, vec![0, 1, 254, 255, 70_000, 3, u32::MAX, 2]);
        assert_eq!(a.max(), u32::MAX);
    }

    #[test]
    fn a_hash_collision_still_gets_its_own_id() {
        // Two keys with one hash: each keeps its own id, found again by its key.
        let mut ids = HashIds::default();
        let keys = ["a", "b", "c"];
        let same = |_: u32| 7u64;
        let mut get = |k: usize| {
            let new = ids.len() as u32;
            ids.find_or_insert(7, new, |id| keys[id as usize] == keys[k], same)
        };
        assert_eq!((get(0), get(1), get(0), get(2), get(1)), (0, 1, 0, 2, 1));
        let mut t = QueryTable::default();
        let (a, b) = (t.id("a"), t.id("b"));
        assert_ne!(a, b);
        assert_eq!((t.id("b"), t.id("a"), t.len()), (b, a, 2));
        assert_eq!((t.id("c"), t.get(b), t.get(9)), (2, "b", ""));
        assert_eq!(t.into_texts(), vec!["a".into(), "b".into(), "c".into()]);
    }

    #[test]
    fn tables_keep_ids_through_growth() {
        let mut t = QueryTable::default();
        let mut ids = HashIds::default();
        let mut hashes = Vec::new();
        for i in 0..50_000u32 {
            assert_eq!(t.id(&format!("q{i}")), i);
            assert_eq!(
                intern_hash(&mut ids, &mut hashes, hash64(&i.to_string())),
                i
            );
        }
        for i in (0..50_000u32).step_by(997) {
            assert_eq!(t.id(&format!("q{i}")), i);
            assert_eq!(
                intern_hash(&mut ids, &mut hashes, hash64(&i.to_string())),
                i
            );
        }
        assert_eq!((t.len(), ids.len(), hashes.len()), (50_000, 50_000, 50_000));
    }

    #[test]
    fn sessions_merged_from_parts_equal_one_pass() {
        // (user, time) in file order; gap 10.
        let reqs = [
            (0, 0),
            (1, NO_TIME),
            (0, 5),
            (1, 100),
            (0, 50),
            (2, 7),
            (1, NO_TIME),
            (1, 200),
            (0, 55),
            (2, NO_TIME),
            (0, 90),
        ];
        let mut one = Sessions::default();
        let mut seen: Vec<u32> = Vec::new();
        let id = |seen: &mut Vec<u32>, u: u32| match seen.iter().position(|&x| x == u) {
            Some(i) => i as u32,
            None => {
                seen.push(u);
                seen.len() as u32 - 1
            }
        };
        for &(u, t) in &reqs {
            let i = id(&mut seen, u);
            one.push(i, t, 10);
        }
        for cut in 0..=reqs.len() {
            let (mut a, mut b) = (Sessions::default(), Sessions::default());
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            for &(u, t) in &reqs[..cut] {
                let i = id(&mut sa, u);
                a.push(i, t, 10);
            }
            for &(u, t) in &reqs[cut..] {
                let i = id(&mut sb, u);
                b.push(i, t, 10);
            }
            let ids: Vec<u32> = sb.iter().map(|&u| id(&mut sa, u)).collect();
            a.merge(b, &ids, 10);
            assert_eq!(a.count, one.count, "cut at {cut}");
        }
        assert_eq!(one.count, 6);
    }
}
