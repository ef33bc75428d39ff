//! CCDet, seed 001 (digest D2): a page's features are the (at most) `ccdet_len` = 10 characters
//! before each full stop 。 — news sentences end differently even when they start alike, and
//! site templates rarely end in 。. A full-stop-feature inverted index counts the features two
//! pages share (no all-pairs scan); template sentences are pruned (features that several pages
//! of one site share, and posting lists longer than `max_df`). Then (reconstruction D2.5, the
//! paper's formulas are lost) `CCS = |A∩B| / min(|A|,|B|)` decides a reprint (≥ `t_ccs`, 0.6
//! proposed) and `CLR = min(|A|,|B|) / max(|A|,|B|)` splits duplicates (≥ `t_clr` = 0.5) from
//! containment: the shorter page is less than half the longer, the paper's definition.
//!
//! ```
//! use tianwang::engine::dedup::ccdet::features;
//! let f = features("北京大学网络实验室开发了天网搜索引擎。它于1997年发布。。欢迎访问！本站版权所有。", 10);
//! assert_eq!(f, ["室开发了天网搜索引擎", "它于1997年发布", "迎访问！本站版权所有"]);
//! ```

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use super::features::{hash_chars, normalise};
use super::{Found, Pair, Prepared, Relation};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// Whether `c` ends a sentence for CCDet: 。 and its half-width and full-width-period forms.
pub(crate) fn is_full_stop(c: char) -> bool {
    matches!(c, '。' | '｡' | '．')
}

/// The full-stop features of `text`: the last `len` characters (whitespace removed) of every
/// non-empty segment before a full stop, in order, repeats kept.
pub fn features(text: &str, len: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seg: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_full_stop(c) {
            if !seg.is_empty() {
                let start = seg.len().saturating_sub(len);
                out.push(seg[start..].iter().collect());
            }
            seg.clear();
        } else if !c.is_whitespace() {
            seg.push(c);
        }
    }
    out
}

/// What [`CcRelation`] decides from the sizes and the overlap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    pub ccs: f64,
    pub clr: f64,
    pub relation: Option<Relation>,
}

/// CCS/CLR for feature-set sizes `a`, `b` sharing `common` (reconstruction D2.5).
pub(crate) fn decide(a: usize, b: usize, common: usize, t_ccs: f64, t_clr: f64) -> Verdict {
    let (lo, hi) = (a.min(b) as f64, a.max(b) as f64);
    let ccs = if lo == 0.0 { 0.0 } else { common as f64 / lo };
    let clr = if hi == 0.0 { 0.0 } else { lo / hi };
    let relation = if ccs < t_ccs || common == 0 {
        None
    } else if clr < t_clr {
        Some(Relation::Contains)
    } else {
        Some(Relation::Near)
    };
    Verdict { ccs, clr, relation }
}

/// A feature's key: the hash of its normalised characters (so punctuation width does not
/// matter); `None` when nothing is left after normalising.
pub(crate) fn feature_key(f: &str) -> Option<u64> {
    let n = normalise(f);
    (!n.is_empty()).then(|| hash_chars(&n))
}

/// A text's distinct feature keys, sorted.
pub(crate) fn feature_keys(text: &str, len: usize) -> Vec<u64> {
    let mut v: Vec<u64> = features(text, len)
        .iter()
        .filter_map(|f| feature_key(f))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Each document's distinct feature keys.
pub(crate) fn feature_sets(prep: &Prepared) -> Vec<Vec<u64>> {
    let len = prep.config().ccdet_len;
    prep.docs()
        .par_iter()
        .map(|d| feature_keys(&d.text(), len))
        .collect()
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, "ccdet")?;
    let cfg = prep.config();
    let docs = prep.docs();
    let t = Instant::now();
    let sets = feature_sets(prep);
    let features_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut index: HashMap<u64, Vec<u32>> = HashMap::new();
    for (d, s) in sets.iter().enumerate() {
        for &f in s {
            index.entry(f).or_default().push(d as u32);
        }
    }
    let signatures_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let max_df = cfg.max_df_for(prep.len());
    let (mut pruned_site, mut pruned_df) = (0usize, 0usize);
    let mut kept: Vec<usize> = sets.iter().map(Vec::len).collect();
    let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
    for postings in index.values() {
        let mut list: Vec<u32> = postings.clone();
        if cfg.prune_site {
            // A feature several pages of one site share is that site's template.
            let mut per_site: HashMap<&str, usize> = HashMap::new();
            for &d in &list {
                let s = docs[d as usize].site.as_str();
                if !s.is_empty() {
                    *per_site.entry(s).or_default() += 1;
                }
            }
            let before = list.len();
            list.retain(|&d| {
                per_site
                    .get(docs[d as usize].site.as_str())
                    .is_none_or(|&c| c < 2)
            });
            for &d in postings.iter().filter(|d| !list.contains(d)) {
                kept[d as usize] -= 1;
            }
            pruned_site += before - list.len();
        }
        if list.len() > max_df {
            pruned_df += list.len();
            for &d in &list {
                kept[d as usize] -= 1;
            }
            continue;
        }
        for (i, &x) in list.iter().enumerate() {
            for &y in &list[i + 1..] {
                *shared.entry((x, y)).or_default() += 1;
            }
        }
    }
    let mut pairs: Vec<Pair> = shared
        .into_iter()
        .filter_map(|((x, y), c)| {
            let (x, y) = (x as usize, y as usize);
            let v = decide(kept[x], kept[y], c as usize, cfg.t_ccs, cfg.t_clr);
            let relation = v.relation?;
            let (a, b) = if relation == Relation::Contains && kept[y] > kept[x] {
                (y, x)
            } else {
                (x, y)
            };
            Some(Pair {
                a,
                b,
                relation,
                score: v.ccs,
            })
        })
        .collect();
    pairs.sort_by_key(|p| (p.a.min(p.b), p.a.max(p.b)));
    Ok((
        Found {
            pairs,
            stats: vec![
                (
                    "features".into(),
                    sets.iter().map(Vec::len).sum::<usize>() as f64,
                ),
                ("pruned_site_postings".into(), pruned_site as f64),
                ("pruned_df_postings".into(), pruned_df as f64),
            ],
            signatures_s,
            match_s: t.elapsed().as_secs_f64(),
            ..Found::default()
        },
        features_s,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ccs_clr_examples() {
        // Digest D2.5: |A|=20, |B|=18, ∩=17 → duplicate; |A|=20, |B|=8, ∩=8 → containment.
        let v = decide(20, 18, 17, 0.6, 0.5);
        assert!((v.ccs - 17.0 / 18.0).abs() < 1e-12 && (v.clr - 0.9).abs() < 1e-12);
        assert_eq!(v.relation, Some(Relation::Near));
        let v = decide(20, 8, 8, 0.6, 0.5);
        assert_eq!(
            (v.ccs, v.clr, v.relation),
            (1.0, 0.4, Some(Relation::Contains))
        );
        assert_eq!(decide(20, 18, 5, 0.6, 0.5).relation, None);
    }

    #[test]
    fn the_digests_worked_vector() {
        // Digest E2 item 5 / D2.4: three features, none for the empty segment between 。。
        let f = features(
            "北京大学网络实验室开发了天网搜索引擎。它于1997年发布。。欢迎访问！本站版权所有。",
            10,
        );
        assert_eq!(
            f,
            [
                "室开发了天网搜索引擎",
                "它于1997年发布",
                "迎访问！本站版权所有"
            ]
        );
    }

    #[test]
    fn features_skip_empty_segments() {
        assert!(features("。。", 10).is_empty());
        assert_eq!(features("短句。\n长 句 子。", 10), ["短句", "长句子"]);
        assert_eq!(features("没有句号", 10), Vec::<String>::new());
    }
}
