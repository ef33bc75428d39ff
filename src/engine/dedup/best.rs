//! `best`, the workbench's recommendation for real Chinese news, designed from the comparison
//! (see the README's dedup section for the figures that chose it). How it decides:
//!
//! 1. **Normalise** the whole text (headline and body): full-width → half-width, lower case,
//!    letters, digits and Hanzi only. Punctuation swaps, spacing and line breaks vanish, so the
//!    edits that break MD5, I-Match and the Tianwang keyword hashes do not matter here.
//! 2. **Exact duplicates** (the same normalised text) are grouped by hash first and represented
//!    by one member, so a story reprinted 500 times costs one document, not 125,000 pairs.
//! 3. **Character 4-shingles** (`best_shingle`) of each representative, hashed to 64 bits; above
//!    100,000 documents only hashes ≡ 0 mod 8 are kept (`sample`, Broder's mod-p sampling),
//!    which keeps containment estimates unbiased and memory at 1/8.
//! 4. An **inverted index** from shingle to documents counts, for every document, the shingles
//!    it shares with earlier ones; posting lists longer than `max_df` are boilerplate (site
//!    templates, stock phrases) and are skipped, like CCDet's pruning.
//! 5. **Containment** of the smaller set `C = |A∩B| / min(|A|,|B|)` at or above `best_threshold`
//!    (0.5) is a reprint, and the pair must share at least 8 shingles' worth of text so two short
//!    notices do not match on a phrase. Containment rather than Jaccard is what survives a
//!    changed headline, an added editor's note, a dropped paragraph or a handful of synonym
//!    swaps (each edit costs only the 4 shingles around it) and still sees partial reprints.
//! 6. **CLR** (CCDet's length ratio) on what the larger shingle set holds of the shared ones:
//!    below `t_clr` (0.5) the pair is `contains` (the longer one first); otherwise it is `near`,
//!    or `duplicate` when the normalised texts are identical. Within [`CLR_BAND`] below
//!    `t_clr`, CCDet's CLR on characters breaks the tie. Every reported pair was compared (a member of an exact
//!    group shares its representative's shingles); near and duplicate pairs close into
//!    clusters, reported apart.
//! 7. **Boilerplate** ([`super::boiler`]) is removed before step 1 by default: sentences and
//!    lines that documents telling different stories share (a portal's disclaimer, a by-line,
//!    template text) count neither as shared text nor in a document's size.
//!
//! ```
//! use tianwang::engine::dedup::{run, Config, Doc, Method, Relation};
//! let long = "第一段新闻内容讲述了天网搜索引擎的历史。第二段介绍了它的架构和各个模块。第三段是对未来的展望和总结。";
//! let part = "第一段新闻内容讲述了天网搜索引擎的历史。";
//! let docs = vec![Doc::new("full", "天网", long), Doc::new("part", "", part)];
//! let out = run(&docs, Method::Best, &Config::default(), &()).unwrap();
//! assert_eq!(out.pairs[0].relation, Relation::Contains);
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use rayon::prelude::*;

use super::features::{char_shingles, hash_chars, mix64};
use super::{Found, Pair, Prepared, Relation};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// A hasher for keys that are already well-mixed 64-bit hashes: the key is its own hash.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The least shared text, in shingles before sampling, for a pair to count.
const MIN_SHARED: usize = 8;

/// Sampled shingle hashes of normalised characters, sorted without repeats. A text shorter than
/// `k` is one shingle; if sampling keeps nothing the smallest hash stands in.
pub(crate) fn sampled_shingles(cs: &[char], k: usize, p: usize) -> Vec<u64> {
    let all = char_shingles(cs, k);
    if p <= 1 {
        return all;
    }
    let kept: Vec<u64> = all
        .iter()
        .copied()
        .filter(|h| mix64(*h).is_multiple_of(p as u64))
        .collect();
    if kept.is_empty() {
        all.into_iter().take(1).collect()
    } else {
        kept
    }
}

/// How far below `t_clr` the shingle cover may fall and still be near when CCDet's CLR on
/// characters says near (see [`decide`]).
pub(crate) const CLR_BAND: f64 = 0.02;

/// The verdict on a pair from its sampled set sizes, shared count and normalised lengths: a
/// reprint when the shared shingles are at least `threshold` of the smaller set, containment
/// when they cover less than `t_clr` of the larger (CCDet's CLR on shingle sets).
pub(crate) fn decide(
    size: (usize, usize),
    common: usize,
    chars: (usize, usize),
    p: usize,
    threshold: f64,
    t_clr: f64,
) -> Option<(Relation, f64)> {
    let small = size.0.min(size.1);
    if small == 0 {
        return None;
    }
    let c = common as f64 / small as f64;
    let enough = common * p.max(1) >= MIN_SHARED;
    if c < threshold || !enough {
        return None;
    }
    // CLR on what the longer one holds of the pair's shared text: repeated text inside one page
    // (a summary above the article) does not make it longer, nor does a partial reprint's own
    // unmatched lines (another site's template) make it "half the article". Right at the
    // boundary the shingle estimate decides nothing alone: within `CLR_BAND` below `t_clr`,
    // CCDet's own CLR on characters [seed 001] breaks the tie (a picture page whose captions
    // are half the article is a reprint of it).
    let cover = common as f64 / size.0.max(size.1) as f64;
    let clr = chars.0.min(chars.1) as f64 / chars.0.max(chars.1).max(1) as f64;
    let near = cover >= t_clr || (cover >= t_clr - CLR_BAND && clr >= t_clr);
    Some((
        if near {
            Relation::Near
        } else {
            Relation::Contains
        },
        c,
    ))
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.05, "best: normalise")?;
    let cfg = prep.config();
    let n = prep.len();
    let (norm, norm_s) = prep.norm();
    let p = cfg.sample_for(n);
    let k = cfg.best_shingle;

    // Exact duplicates first.
    let t = Instant::now();
    let keys: Vec<u64> = norm.par_iter().map(hash_chars).collect();
    let mut first: HashMap<(u64, usize), usize> = HashMap::with_capacity(n);
    let mut exact: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut reps: Vec<u32> = Vec::with_capacity(n);
    for i in 0..n {
        if norm[i].is_empty() {
            continue;
        }
        match first.get(&(keys[i], norm[i].len())) {
            Some(&r) if norm[r] == norm[i] => exact.entry(r).or_insert_with(|| vec![r]).push(i),
            _ => {
                first.insert((keys[i], norm[i].len()), i);
                reps.push(i as u32);
            }
        }
    }
    tick.tick(0.2, "best: shingles")?;
    let sets: Vec<Vec<u64>> = reps
        .par_iter()
        .map(|&i| sampled_shingles(&norm[i as usize], k, p))
        .collect();
    let features_s = norm_s + t.elapsed().as_secs_f64();

    tick.tick(0.4, "best: index")?;
    let t = Instant::now();
    let mut postings: Vec<(u64, u32)> = sets
        .iter()
        .enumerate()
        .flat_map(|(r, s)| s.iter().map(move |&h| (h, r as u32)))
        .collect();
    postings.par_sort_unstable();
    let (hashes, owners): (Vec<u64>, Vec<u32>) = postings.into_iter().unzip();
    let signatures_s = t.elapsed().as_secs_f64();

    tick.tick(0.6, "best: match")?;
    let t = Instant::now();
    let max_df = cfg.max_df_for(n);
    // Where each shared shingle's postings are: shingles held by one document cannot match,
    // and lists longer than max_df are boilerplate; neither is indexed.
    let mut runs: HashMap<u64, (u32, u32), BuildHasherDefault<Prehashed>> = HashMap::default();
    let mut lo = 0usize;
    while lo < hashes.len() {
        let mut hi = lo + 1;
        while hi < hashes.len() && hashes[hi] == hashes[lo] {
            hi += 1;
        }
        if hi - lo >= 2 && hi - lo <= max_df {
            runs.insert(hashes[lo], (lo as u32, hi as u32));
        }
        lo = hi;
    }
    let pairs: Vec<Pair> = (0..reps.len())
        .into_par_iter()
        .flat_map_iter(|r| {
            let mut hits: Vec<u32> = Vec::new();
            for h in &sets[r] {
                let Some(&(lo, hi)) = runs.get(h) else {
                    continue;
                };
                let (lo, hi) = (lo as usize, hi as usize);
                // Owners are sorted within a hash: only earlier representatives.
                hits.extend(owners[lo..hi].iter().take_while(|&&o| (o as usize) < r));
            }
            hits.sort_unstable();
            let mut out = Vec::new();
            for run in hits.chunk_by(|a, b| a == b) {
                let o = run[0] as usize;
                let (i, j) = (reps[o] as usize, reps[r] as usize);
                let verdict = decide(
                    (sets[o].len(), sets[r].len()),
                    run.len(),
                    (norm[i].len(), norm[j].len()),
                    p,
                    cfg.best_threshold,
                    cfg.t_clr,
                );
                if let Some((relation, score)) = verdict {
                    let (a, b) = if relation == Relation::Contains && norm[j].len() > norm[i].len()
                    {
                        (j, i)
                    } else {
                        (i, j)
                    };
                    out.push(Pair {
                        a,
                        b,
                        relation,
                        score,
                    });
                }
            }
            out
        })
        .collect();
    // Every member of an exact group shares its representative's pairs.
    let mut groups: Vec<Vec<usize>> = exact.into_values().collect();
    groups.sort_unstable();
    let mut all = pairs.clone();
    let members: HashMap<usize, &Vec<usize>> = groups.iter().map(|g| (g[0], g)).collect();
    // A member of an exact group has its representative's shingles, so the pair was compared
    // for it too.
    for pr in &pairs {
        let ga = members.get(&pr.a).map_or(vec![pr.a], |g| g.to_vec());
        let gb = members.get(&pr.b).map_or(vec![pr.b], |g| g.to_vec());
        for &a in &ga {
            for &b in &gb {
                if (a, b) != (pr.a, pr.b) {
                    all.push(Pair { a, b, ..pr.clone() });
                }
            }
        }
    }
    Ok((
        Found {
            groups,
            pairs: all,
            stats: vec![
                ("representatives".into(), reps.len() as f64),
                ("sample_mod".into(), p as f64),
                ("postings".into(), hashes.len() as f64),
            ],
            signatures_s,
            match_s: t.elapsed().as_secs_f64(),
        },
        features_s,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decide_splits_near_from_contains() {
        assert_eq!(
            decide((100, 90), 80, (500, 450), 1, 0.5, 0.5).map(|x| x.0),
            Some(Relation::Near)
        );
        assert_eq!(
            decide((100, 30), 30, (500, 150), 1, 0.5, 0.5).map(|x| x.0),
            Some(Relation::Contains)
        );
        assert_eq!(decide((100, 90), 30, (500, 450), 1, 0.5, 0.5), None);
        // At the boundary, CLR on characters breaks the tie; below the band it does not.
        assert_eq!(
            decide((452, 232), 224, (465, 237), 1, 0.5, 0.5).map(|x| x.0),
            Some(Relation::Near)
        );
        assert_eq!(
            decide((587, 287), 265, (747, 415), 1, 0.5, 0.5).map(|x| x.0),
            Some(Relation::Contains)
        );
        // Too little shared text.
        assert_eq!(decide((100, 4), 4, (500, 8), 1, 0.5, 0.5), None);
    }

    /// The sampled set is the shared `char_shingles` set filtered by `mix64(h) % p`, with the
    /// smallest hash standing in when the filter keeps nothing (the former private copy).
    #[test]
    fn sampled_shingles_are_char_shingles_sampled() {
        let texts: [&str; 5] = [
            "",
            "天网",
            "天网搜索引擎",
            "abcabcabcabc",
            "北京大学天网搜索引擎原理技术与系统",
        ];
        for t in texts {
            let cs: Vec<char> = t.chars().collect();
            for k in [1, 3, 5, 8] {
                // The definition: every distinct k-window's hash in order, or the whole text.
                let windows: std::collections::BTreeSet<u64> = match cs.len() {
                    0 => Default::default(),
                    n if n <= k => [hash_chars(&cs)].into(),
                    _ => cs.windows(k).map(hash_chars).collect(),
                };
                let expect: Vec<u64> = windows.into_iter().collect();
                assert_eq!(sampled_shingles(&cs, k, 1), expect, "{t} k={k}");
                assert_eq!(sampled_shingles(&cs, k, 0), expect, "{t} k={k} p=0");
                for p in [2, 7, 1 << 40] {
                    let kept: Vec<u64> = expect
                        .iter()
                        .copied()
                        .filter(|h| mix64(*h).is_multiple_of(p as u64))
                        .collect();
                    let want = if kept.is_empty() {
                        expect.iter().copied().take(1).collect()
                    } else {
                        kept
                    };
                    assert_eq!(sampled_shingles(&cs, k, p), want, "{t} k={k} p={p}");
                }
            }
        }
    }

    #[test]
    fn sampling_keeps_a_share() {
        let cs: Vec<char> = (0..5000)
            .filter_map(|i| char::from_u32(0x4E00 + (i * 7919) % 20000))
            .collect();
        let all = sampled_shingles(&cs, 4, 1).len();
        let some = sampled_shingles(&cs, 4, 8).len();
        assert!(
            some * 8 > all * 7 / 10 && some * 8 < all * 13 / 10,
            "{some} of {all}"
        );
    }
}
