//! FxHash, rustc's hasher: a fast, non-cryptographic hash for interning ids and counting
//! words (query strings in the log lab, terms in the index build), where SipHash's
//! resistance to chosen keys is not needed and its cost per short key shows. [`HashIds`]: the
//! interning table itself, ids found by a hash the caller computes, the keys kept by the caller
//! (the query log's queries and users, the index build's lexicon, DocView's term vectors).
//!
//! ```
//! let mut m: tianwang::engine::text::fxhash::FxMap<&str, u32> = Default::default();
//! *m.entry("检索").or_default() += 1;
//! assert_eq!(m["检索"], 1);
//! ```

use std::hash::{BuildHasherDefault, Hasher};

/// FxHash (rustc's): a fast non-cryptographic hasher for interning ids.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(a));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut a = [0u8; 8];
            a[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(a) ^ ((rest.len() as u64) << 56));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(FX_K);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
pub type FxMap<K, V> = std::collections::HashMap<K, V, FxBuild>;

/// Ids found by hash: a table of 4-byte ids (one control byte a slot) whose keys live in the
/// caller's own column — hashes or texts — instead of a `(u64, u32)` map's 16 bytes a slot.
/// At 100 M requests the query log's query and user tables are the largest maps (issue 30).
#[derive(Default)]
pub(crate) struct HashIds(hashbrown::HashTable<u32>);

impl HashIds {
    /// An empty table with room for `n` ids.
    pub(crate) fn with_capacity(n: usize) -> Self {
        HashIds(hashbrown::HashTable::with_capacity(n))
    }

    /// The id with hash `h` whose key `is(id)` matches, or `new` inserted. `rehash(id)` gives
    /// the hash of an id already in the table when the table grows.
    pub(crate) fn find_or_insert(
        &mut self,
        h: u64,
        new: u32,
        is: impl Fn(u32) -> bool,
        rehash: impl Fn(u32) -> u64,
    ) -> u32 {
        match self.0.entry(h, |&id| is(id), |&id| rehash(id)) {
            hashbrown::hash_table::Entry::Occupied(e) => *e.get(),
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(new);
                new
            }
        }
    }

    /// Insert `id`, known not to be in the table (a [`HashIds::find`] said so).
    pub(crate) fn insert_new(&mut self, h: u64, id: u32, rehash: impl Fn(u32) -> u64) {
        self.0.insert_unique(h, id, |&id| rehash(id));
    }

    /// The id with hash `h` whose key `is(id)` matches, if any.
    pub(crate) fn find(&self, h: u64, is: impl Fn(u32) -> bool) -> Option<u32> {
        self.0.find(h, |&id| is(id)).copied()
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        map_bytes(self.0.capacity(), 4)
    }
}

/// Approximate heap bytes of a hash map of `cap` entries of `entry` bytes (one control byte
/// each, buckets a power of two at 7/8 load).
fn map_bytes(cap: usize, entry: usize) -> usize {
    if cap == 0 {
        return 0;
    }
    let buckets = (cap * 8 / 7).next_power_of_two();
    buckets * (entry + 1)
}
