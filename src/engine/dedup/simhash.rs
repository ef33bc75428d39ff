//! 64-bit weighted SimHash, seed 004 [004:L16–L58] (Charikar; Manku et al. 2007): every feature
//! hashes to 64 bits; bit i adds the feature's weight when set and subtracts it when clear;
//! the fingerprint keeps the sign of each sum (most significant bit first, as the seed's
//! examples read). Two pages are near-duplicates when their fingerprints differ in at most k
//! bits, k = 3 [004:L27]. Matching splits the 64 bits into k + 1 blocks: two fingerprints
//! within k bits agree exactly on at least one block (pigeonhole), so one table per block —
//! Manku's permuted tables — yields every candidate without scanning all pairs.
//!
//! ```
//! use tianwang::engine::dedup::simhash::{bits_from_sums, hamming};
//! assert_eq!(bits_from_sums(&[13.0, 108.0, -22.0, -5.0, -32.0, 55.0]), 0b110001);
//! assert_eq!(hamming(0b100110, 0b100011), 2);
//! ```

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use super::config::SimFeatures;
use super::features::{char_shingles, hash_str};
use super::{Found, Pair, Prepared, Relation};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// The fingerprint of per-bit sums, first sum = most significant bit.
pub fn bits_from_sums(sums: &[f64]) -> u64 {
    sums.iter()
        .fold(0u64, |acc, &s| (acc << 1) | u64::from(s > 0.0))
}

pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// The 64 per-bit sums of weighted feature hashes (bit 63 first).
pub fn sums(features: &[(u64, f64)]) -> [f64; 64] {
    let mut v = [0.0f64; 64];
    for &(h, w) in features {
        for (i, s) in v.iter_mut().enumerate() {
            if (h >> (63 - i)) & 1 == 1 {
                *s += w;
            } else {
                *s -= w;
            }
        }
    }
    v
}

/// Every document's weighted features under `simhash_features`.
pub fn features(prep: &Prepared) -> (Vec<Vec<(u64, f64)>>, f64) {
    let fs = match prep.config().simhash_features {
        SimFeatures::Terms | SimFeatures::Keywords => prep.keywords().1,
        SimFeatures::Shingles => prep.norm().1,
    };
    let t = Instant::now();
    let v = (0..prep.len())
        .into_par_iter()
        .map(|i| features_of(prep, i))
        .collect();
    (v, fs + t.elapsed().as_secs_f64())
}

/// Document `i`'s weighted features under `simhash_features`.
pub(crate) fn features_of(prep: &Prepared, i: usize) -> Vec<(u64, f64)> {
    let cfg = prep.config();
    match cfg.simhash_features {
        SimFeatures::Terms | SimFeatures::Keywords => {
            let take = if cfg.simhash_features == SimFeatures::Keywords {
                cfg.n_keywords
            } else {
                usize::MAX
            };
            prep.keywords().0[i]
                .iter()
                .take(take)
                .map(|(w, x)| (hash_str(w), *x))
                .collect()
        }
        SimFeatures::Shingles => char_shingles(&prep.norm().0[i], cfg.shingle)
            .into_iter()
            .map(|h| (h, 1.0))
            .collect(),
    }
}

pub(crate) fn fingerprint(features: &[(u64, f64)]) -> u64 {
    bits_from_sums(&sums(features))
}

/// The bit ranges of the k + 1 blocks.
pub fn blocks(k: u32) -> Vec<(u32, u32)> {
    let n = k + 1;
    (0..n).map(|i| (i * 64 / n, (i + 1) * 64 / n)).collect()
}

/// Block `(lo, hi)` of a fingerprint, shifted down.
pub fn block(fp: u64, (lo, hi): (u32, u32)) -> u64 {
    let width = hi - lo;
    let v = fp >> lo;
    if width >= 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

/// Every document's fingerprint (`None` without features), the seconds its features took
/// and the seconds the fingerprints took.
pub(crate) fn fingerprints(prep: &Prepared) -> (Vec<Option<u64>>, f64, f64) {
    let (feats, fs) = features(prep);
    let t = Instant::now();
    let fps = feats
        .par_iter()
        .map(|f| (!f.is_empty()).then(|| fingerprint(f)))
        .collect();
    (fps, fs, t.elapsed().as_secs_f64())
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, "simhash")?;
    let k = prep.config().simhash_k;
    let (fps, fs, signatures_s) = fingerprints(prep);
    let t = Instant::now();
    let mut found: HashMap<(usize, usize), u32> = HashMap::new();
    let mut candidates = 0usize;
    for blk in blocks(k) {
        let mut table: HashMap<u64, Vec<usize>> = HashMap::new();
        for (d, fp) in fps.iter().enumerate() {
            if let Some(fp) = fp {
                table.entry(block(*fp, blk)).or_default().push(d);
            }
        }
        for docs in table.values() {
            for (i, &x) in docs.iter().enumerate() {
                for &y in &docs[i + 1..] {
                    candidates += 1;
                    if let (Some(a), Some(b)) = (fps[x], fps[y]) {
                        let h = hamming(a, b);
                        if h <= k {
                            found.insert((x, y), h);
                        }
                    }
                }
            }
        }
    }
    let mut pairs: Vec<Pair> = found
        .into_iter()
        .map(|((a, b), h)| Pair {
            a,
            b,
            relation: Relation::Near,
            score: 1.0 - h as f64 / 64.0,
        })
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    Ok((
        Found {
            pairs,
            stats: vec![("candidates".into(), candidates as f64)],
            signatures_s,
            match_s: t.elapsed().as_secs_f64(),
            ..Found::default()
        },
        fs,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_004_examples() {
        // ⟨100110, 0.57⟩ → (0.57, −0.57, −0.57, 0.57, 0.57, −0.57) [004:L19–L23].
        let w = 0.57;
        let h = 0b100110u64 << 58;
        let s = sums(&[(h, w)]);
        assert_eq!(&s[..6], &[w, -w, -w, w, w, -w]);
        assert_eq!(
            bits_from_sums(&[13.0, 108.0, -22.0, -5.0, -32.0, 55.0]),
            0b110001
        );
        assert_eq!(hamming(0b100110, 0b100011), 2);
    }

    #[test]
    fn blocks_cover_64_bits_and_find_all_within_k() {
        for k in 0..8 {
            let b = blocks(k);
            assert_eq!(b.len() as u32, k + 1);
            assert_eq!(b[0].0, 0);
            assert_eq!(b.last().map(|x| x.1), Some(64));
        }
        // Flip k bits spread over the blocks: still found.
        let a = 0xDEAD_BEEF_0123_4567u64;
        let b = a ^ (1 << 3) ^ (1 << 20) ^ (1 << 40);
        let blk = blocks(3);
        assert!(blk.iter().any(|&x| block(a, x) == block(b, x)));
    }
}
