//! MinHash with LSH banding (Broder's resemblance, seed 001 §1): a document is its set of
//! k-shingles (characters of the normalised text, or jieba words); `num_perm` seeded hash
//! functions keep each set's minimum; `bands × rows` signature slices bucket the documents,
//! and every candidate pair is re-checked with the exact Jaccard `|A ∩ B| / |A ∪ B|` against
//! `threshold`. Bands and rows default to the split that minimises the false positive plus
//! false negative area around the threshold (the rule datasketch uses).
//!
//! ```
//! use tianwang::engine::dedup::minhash::bands_for;
//! let (b, r) = bands_for(0.8, 128);
//! assert!(b * r <= 128 && r > 1);
//! ```

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rayon::prelude::*;

use super::config::Unit;
use super::features::{char_shingles, intersect_sorted, mix64, word_shingles};
use super::{Found, Pair, Prepared, Relation};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// Probability that a pair of Jaccard `s` shares a band.
fn collide(s: f64, b: usize, r: usize) -> f64 {
    1.0 - (1.0 - s.powi(r as i32)).powi(b as i32)
}

fn integrate(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let n = 200;
    let h = (hi - lo) / n as f64;
    (0..n).map(|i| f(lo + (i as f64 + 0.5) * h) * h).sum()
}

/// Bands and rows for a Jaccard threshold: minimise false positives (below t) plus false
/// negatives (above t), equal weights.
pub fn bands_for(threshold: f64, num_perm: usize) -> (usize, usize) {
    let mut best = (1, num_perm.max(1), f64::MAX);
    for b in 1..=num_perm {
        for r in 1..=num_perm / b {
            let fp = integrate(|s| collide(s, b, r), 0.0, threshold);
            let fneg = integrate(|s| 1.0 - collide(s, b, r), threshold, 1.0);
            if fp + fneg < best.2 {
                best = (b, r, fp + fneg);
            }
        }
    }
    (best.0, best.1)
}

/// The permutations: odd multipliers and offsets of `h(x) = mix(a·x + b mod 2³²)`, seeded.
fn permutations(num_perm: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
    (0..num_perm)
        .map(|i| {
            let r = mix64(
                seed.wrapping_add(i as u64)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            ((r as u32) | 1, (r >> 32) as u32)
        })
        .unzip()
}

/// The minimum of every permutation over the shingles (32-bit values, as datasketch keeps).
/// Each permutation is an affine map mod 2³² followed by a multiply-xorshift finaliser, all
/// bijections, so `h` permutes the 32-bit shingle keys.
#[inline(always)]
fn kernel(xs: &[u32], a: &[u32], b: &[u32], out: &mut [u32]) {
    out.fill(u32::MAX);
    for &x in xs {
        for ((o, &ai), &bi) in out.iter_mut().zip(a).zip(b) {
            // An affine map, then lowbias32's finaliser: bijections of u32 all.
            let mut h = ai.wrapping_mul(x).wrapping_add(bi);
            h ^= h >> 16;
            h = h.wrapping_mul(0x7feb_352d);
            h ^= h >> 15;
            *o = (*o).min(h);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn kernel_avx2(xs: &[u32], a: &[u32], b: &[u32], out: &mut [u32]) {
    kernel(xs, a, b, out)
}

/// The MinHash signature of a shingle set: for each of `num_perm` seeded permutations of the
/// 32-bit shingle keys, the least value. The same answer with or without AVX2 (the loop is
/// the same code; AVX2 only widens it to eight permutations at a time).
pub fn signature(shingles: &[u64], num_perm: usize, seed: u64) -> Vec<u64> {
    let (a, b) = permutations(num_perm, seed);
    signature_with(shingles, &a, &b)
}

fn signature_with(shingles: &[u64], a: &[u32], b: &[u32]) -> Vec<u64> {
    // 32-bit keys of the 64-bit shingle hashes (mixed again so raw integers work too).
    let xs: Vec<u32> = shingles.iter().map(|&s| mix64(s) as u32).collect();
    let mut out = vec![u32::MAX; a.len()];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { kernel_avx2(&xs, a, b, &mut out) };
        return out.into_iter().map(u64::from).collect();
    }
    kernel(&xs, a, b, &mut out);
    out.into_iter().map(u64::from).collect()
}

/// The LSH key of band `band` (rows `band·r ..< (band+1)·r` of a signature mixed into one
/// value): two documents are candidates when one band's keys are equal.
pub(crate) fn band_key(sig: &[u64], band: usize, r: usize) -> u64 {
    let mut h = band as u64;
    for &v in &sig[band * r..(band + 1) * r] {
        h = mix64(h ^ v);
    }
    h
}

/// Bands and rows under a configuration (its own, or [`bands_for`] its threshold).
pub(crate) fn bands_rows(cfg: &super::Config) -> (usize, usize) {
    if cfg.bands > 0 {
        (cfg.bands, cfg.rows)
    } else {
        bands_for(cfg.threshold, cfg.num_perm)
    }
}

#[cfg(feature = "bigjobs")]
/// Every document's band keys (empty for an empty shingle set), as the LSH stage buckets them.
pub(crate) fn band_keys(sets: &[Vec<u64>], cfg: &super::Config) -> Vec<Vec<u64>> {
    let (b, r) = bands_rows(cfg);
    let (pa, pb) = permutations(b * r, cfg.seed);
    sets.par_iter()
        .map(|s| {
            if s.is_empty() {
                return Vec::new();
            }
            let sig = signature_with(s, &pa, &pb);
            (0..b).map(|band| band_key(&sig, band, r)).collect()
        })
        .collect()
}

/// Every document's shingle set under the config's unit and k.
pub(crate) fn shingle_sets(prep: &Prepared) -> (Vec<Vec<u64>>, f64) {
    let fs = match prep.config().shingle_unit {
        Unit::Char => prep.norm().1,
        Unit::Word => prep.words().1,
    };
    let t = Instant::now();
    let v = (0..prep.len())
        .into_par_iter()
        .map(|i| shingles_of(prep, i))
        .collect();
    (v, fs + t.elapsed().as_secs_f64())
}

/// Document `i`'s shingle set under the config's unit and k.
pub(crate) fn shingles_of(prep: &Prepared, i: usize) -> Vec<u64> {
    let cfg = prep.config();
    match cfg.shingle_unit {
        Unit::Char => char_shingles(&prep.norm().0[i], cfg.shingle),
        Unit::Word => word_shingles(&prep.words().0[i], cfg.shingle),
    }
}

pub(crate) fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let i = intersect_sorted(a, b);
    let u = a.len() + b.len() - i;
    if u == 0 { 0.0 } else { i as f64 / u as f64 }
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.05, "minhash: shingles")?;
    let cfg = prep.config();
    let (sets, fs) = shingle_sets(prep);
    let (b, r) = bands_rows(cfg);
    tick.tick(0.3, "minhash: signatures")?;
    let t = Instant::now();
    let (pa, pb) = permutations(b * r, cfg.seed);
    let sigs: Vec<Vec<u64>> = sets
        .par_iter()
        .map(|s| signature_with(s, &pa, &pb))
        .collect();
    let signatures_s = t.elapsed().as_secs_f64();
    tick.tick(0.6, "minhash: LSH")?;
    let t = Instant::now();
    let mut candidates: HashSet<(u32, u32)> = HashSet::new();
    for band in 0..b {
        let mut buckets: HashMap<u64, Vec<u32>> = HashMap::new();
        for (d, sig) in sigs.iter().enumerate() {
            if sets[d].is_empty() {
                continue;
            }
            buckets
                .entry(band_key(sig, band, r))
                .or_default()
                .push(d as u32);
        }
        for docs in buckets.values() {
            for (i, &x) in docs.iter().enumerate() {
                for &y in &docs[i + 1..] {
                    candidates.insert((x, y));
                }
            }
        }
    }
    let checked = candidates.len();
    let mut pairs: Vec<Pair> = candidates
        .into_par_iter()
        .filter_map(|(x, y)| {
            let j = jaccard(&sets[x as usize], &sets[y as usize]);
            (j >= cfg.threshold).then_some(Pair {
                a: x as usize,
                b: y as usize,
                relation: Relation::Near,
                score: j,
            })
        })
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    Ok((
        Found {
            pairs,
            stats: vec![
                ("bands".into(), b as f64),
                ("rows".into(), r as f64),
                ("candidates".into(), checked as f64),
            ],
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
    fn bands_rise_with_the_threshold() {
        let (b5, r5) = bands_for(0.5, 128);
        let (b9, r9) = bands_for(0.9, 128);
        let t = |b: usize, r: usize| (1.0 / b as f64).powf(1.0 / r as f64);
        assert!(t(b5, r5) < t(b9, r9));
    }

    #[test]
    fn signature_estimates_jaccard() {
        let a: Vec<u64> = (0..1000).collect();
        let b: Vec<u64> = (200..1200).collect(); // J = 800 / 1200
        let (sa, sb) = (signature(&a, 512, 1), signature(&b, 512, 1));
        let est = sa.iter().zip(&sb).filter(|(x, y)| x == y).count() as f64 / 512.0;
        assert!((est - 800.0 / 1200.0).abs() < 0.07, "{est}");
        assert!((jaccard(&a, &b) - 800.0 / 1200.0).abs() < 1e-12);
    }

    #[test]
    fn the_portable_loop_and_the_wide_one_agree() {
        let xs: Vec<u32> = (0..2000u64).map(|i| mix64(i) as u32).collect();
        let (a, b) = permutations(128, 7);
        let mut plain = vec![0; 128];
        kernel(&xs, &a, &b, &mut plain);
        let wide = signature_with(&(0..2000u64).collect::<Vec<_>>(), &a, &b);
        assert_eq!(
            plain.iter().map(|&x| u64::from(x)).collect::<Vec<_>>(),
            wide
        );
        // Disjoint sets almost never share a minimum; identical sets always do.
        let c = signature(&(5000..7000).collect::<Vec<_>>(), 128, 7);
        assert!(wide.iter().zip(&c).filter(|(x, y)| x == y).count() <= 2);
        assert_eq!(signature(&(0..2000).collect::<Vec<_>>(), 128, 7), wide);
    }
}
