//! FxHash, rustc's hasher: a fast, non-cryptographic hash for interning ids and counting
//! words (query strings in the log lab, terms in the index build), where SipHash's
//! resistance to chosen keys is not needed and its cost per short key shows.
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
