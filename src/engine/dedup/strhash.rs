//! The eight string hashes seed 002 compares for I-Match fingerprints [002:L91–L113] — RS, JS,
//! PJW, ELF, BKDR, SDBM, DJB, AP — and the collision bench that explains its table.
//!
//! The definitions are the ones circulated in the Chinese "各种字符串Hash函数" lists under
//! exactly these names (digest D3.6; not in the seed itself): bytes in, 32-bit wrap-around,
//! result `& 0x7FFFFFFF`. C's `char` may be signed, so bytes ≥ 0x80 (every Chinese character
//! in GBK or UTF-8) are sign-extended when `signed_char` is on.
//!
//! The seed's table (1,000 files, 419 duplicates, 543–601 "collisions") is not a property of
//! the hashes: 32-bit hashes of 581 distinct strings almost never collide, so the table implies
//! a small bucket table. [`expected_collisions`] gives `k − B(1 − (1 − 1/B)^k)` ≈ 140 extra for
//! B = 1,000 (digest D-8), and [`collision_bench`] measures it.
//!
//! ```
//! use tianwang::engine::dedup::strhash::StrHash;
//! assert_eq!(StrHash::Bkdr.hash(b"ab", false), 97 * 131 + 98);
//! assert_eq!(StrHash::parse("ap"), Some(StrHash::Ap));
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StrHash {
    Rs,
    Js,
    Pjw,
    Elf,
    Bkdr,
    Sdbm,
    Djb,
    Ap,
}

impl StrHash {
    /// In the seed's table order [002:L97–L111].
    pub const ALL: [StrHash; 8] = [
        StrHash::Elf,
        StrHash::Rs,
        StrHash::Js,
        StrHash::Pjw,
        StrHash::Bkdr,
        StrHash::Sdbm,
        StrHash::Djb,
        StrHash::Ap,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StrHash::Rs => "rs",
            StrHash::Js => "js",
            StrHash::Pjw => "pjw",
            StrHash::Elf => "elf",
            StrHash::Bkdr => "bkdr",
            StrHash::Sdbm => "sdbm",
            StrHash::Djb => "djb",
            StrHash::Ap => "ap",
        }
    }

    pub fn parse(s: &str) -> Option<StrHash> {
        let s = s.trim().to_ascii_lowercase();
        let s = s.strip_suffix("hash").unwrap_or(&s);
        StrHash::ALL.into_iter().find(|h| h.name() == s)
    }

    /// The seed's collision count for this hash [002:L97–L111].
    pub(crate) fn seed_collisions(self) -> u32 {
        match self {
            StrHash::Elf => 594,
            StrHash::Rs => 584,
            StrHash::Js => 546,
            StrHash::Pjw => 594,
            StrHash::Bkdr => 601,
            StrHash::Sdbm => 546,
            StrHash::Djb => 595,
            StrHash::Ap => 543,
        }
    }

    /// The 31-bit hash of `bytes`.
    pub fn hash(self, bytes: &[u8], signed_char: bool) -> u32 {
        let byte = |b: u8| -> u32 {
            if signed_char {
                b as i8 as i32 as u32
            } else {
                b as u32
            }
        };
        let mut h: u32;
        match self {
            StrHash::Rs => {
                let b: u32 = 378_551;
                let mut a: u32 = 63_689;
                h = 0;
                for &c in bytes {
                    h = h.wrapping_mul(a).wrapping_add(byte(c));
                    a = a.wrapping_mul(b);
                }
            }
            StrHash::Js => {
                h = 1_315_423_911;
                for &c in bytes {
                    h ^= (h << 5).wrapping_add(byte(c)).wrapping_add(h >> 2);
                }
            }
            StrHash::Pjw => {
                let hb: u32 = 0xF000_0000;
                h = 0;
                for &c in bytes {
                    h = (h << 4).wrapping_add(byte(c));
                    let t = h & hb;
                    if t != 0 {
                        h = (h ^ (t >> 24)) & !hb;
                    }
                }
            }
            StrHash::Elf => {
                h = 0;
                for &c in bytes {
                    h = (h << 4).wrapping_add(byte(c));
                    let x = h & 0xF000_0000;
                    if x != 0 {
                        h ^= x >> 24;
                        h &= !x;
                    }
                }
            }
            StrHash::Bkdr => {
                h = 0;
                for &c in bytes {
                    h = h.wrapping_mul(131).wrapping_add(byte(c));
                }
            }
            StrHash::Sdbm => {
                h = 0;
                for &c in bytes {
                    h = byte(c)
                        .wrapping_add(h << 6)
                        .wrapping_add(h << 16)
                        .wrapping_sub(h);
                }
            }
            StrHash::Djb => {
                h = 5381;
                for &c in bytes {
                    h = h.wrapping_add((h << 5).wrapping_add(byte(c)));
                }
            }
            StrHash::Ap => {
                h = 0;
                for (i, &c) in bytes.iter().enumerate() {
                    if i % 2 == 0 {
                        h ^= (h << 7) ^ byte(c) ^ (h >> 3);
                    } else {
                        h ^= !((h << 11) ^ byte(c) ^ (h >> 5));
                    }
                }
            }
        }
        h & 0x7FFF_FFFF
    }
}

/// Expected collisions when `k` distinct keys go into `b` buckets: `k − B(1 − (1 − 1/B)^k)`
/// (digest D-8).
pub(crate) fn expected_collisions(k: usize, b: u32) -> f64 {
    if b == 0 {
        return 0.0;
    }
    let b = b as f64;
    k as f64 - b * (1.0 - (1.0 - 1.0 / b).powf(k as f64))
}

/// One row of the collision bench.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CollisionRow {
    pub hash: String,
    /// Mean extra collisions over the trials (keys landing in an occupied bucket).
    pub observed: f64,
    pub min: usize,
    pub max: usize,
    pub expected: f64,
    /// The seed's count minus its 419 true duplicates, for comparison [002:L93–L111].
    pub seed_extra: u32,
}

/// Hash `keys` random Chinese strings into `buckets` buckets with every hash, `trials` times,
/// and count collisions beside the expectation. Deterministic for a seed.
pub(crate) fn collision_bench(
    keys: usize,
    buckets: u32,
    trials: usize,
    seed: u64,
) -> Vec<CollisionRow> {
    let mut rng = Rng::new(seed);
    let corpora: Vec<Vec<Vec<u8>>> = (0..trials.max(1))
        .map(|_| {
            (0..keys)
                .map(|_| {
                    let len = 8 + rng.below(24);
                    let s: String = (0..len)
                        .filter_map(|_| char::from_u32(0x4E00 + rng.below(3000) as u32))
                        .collect();
                    s.into_bytes()
                })
                .collect()
        })
        .collect();
    StrHash::ALL
        .iter()
        .map(|&h| {
            let counts: Vec<usize> = corpora
                .iter()
                .map(|keys| {
                    let mut seen = std::collections::HashSet::new();
                    keys.iter()
                        .filter(|k| {
                            let v = h.hash(k, false);
                            let slot = if buckets == 0 { v } else { v % buckets };
                            !seen.insert(slot)
                        })
                        .count()
                })
                .collect();
            CollisionRow {
                hash: h.name().to_string(),
                observed: counts.iter().sum::<usize>() as f64 / counts.len() as f64,
                min: counts.iter().copied().min().unwrap_or(0),
                max: counts.iter().copied().max().unwrap_or(0),
                expected: expected_collisions(keys, buckets),
                seed_extra: h.seed_collisions() - 419,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // BKDR and DJB by hand: "ab".
        assert_eq!(StrHash::Bkdr.hash(b"ab", false), 97 * 131 + 98);
        assert_eq!(StrHash::Djb.hash(b"a", false), 5381 * 33 + 97);
        assert_eq!(StrHash::Sdbm.hash(b"a", false), 97);
        assert_eq!(StrHash::Elf.hash(b"a", false), 97);
        // Signed char changes Chinese bytes only.
        let zh = "网页".as_bytes();
        assert_ne!(StrHash::Bkdr.hash(zh, false), StrHash::Bkdr.hash(zh, true));
        assert_eq!(
            StrHash::Bkdr.hash(b"ab", false),
            StrHash::Bkdr.hash(b"ab", true)
        );
        for h in StrHash::ALL {
            assert!(h.hash(zh, true) <= 0x7FFF_FFFF);
            assert_eq!(StrHash::parse(&format!("{}hash", h.name())), Some(h));
        }
    }

    #[test]
    fn expectation_matches_digest_and_bench() {
        // Digest D-8: ≈ 140 extra collisions for 581 keys in 1,000 buckets.
        let e = expected_collisions(581, 1000);
        assert!((e - 140.0).abs() < 5.0, "{e}");
        let rows = collision_bench(581, 1000, 20, 7);
        assert_eq!(rows.len(), 8);
        for r in &rows {
            // Every hash behaves like a random function here: within 15 % of the expectation.
            assert!(
                (r.observed - e).abs() < 0.15 * e,
                "{} {} vs {e}",
                r.hash,
                r.observed
            );
        }
        // Full 31-bit table: essentially none.
        let full = collision_bench(581, 0, 3, 7);
        assert!(full.iter().all(|r| r.observed < 1.0));
    }
}
