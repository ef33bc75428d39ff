//! The Tianwang reprint detectors, book §7.2.2 [L2514–L2559]: algorithm 1 compares the MD5 of
//! a 512-byte abstract; 2 the MD5 of the top-N keywords in weight order; 5 the same set sorted;
//! 3 and 4 add the vector test `SIM = |Wᵢ − Wⱼ|² / (|Wᵢ|² + |Wⱼ|²) < δ` to 2 and 5; the union
//! is 1 ∪ 5 [L2575]. Defaults N = 10, δ = 0.01 [L2575]. Grouping is by hash (O(n)); for 3/4
//! the pairwise SIM test is not transitive, so inside a hash group every pair is tested and the
//! pairs within δ are reported; the clusters close over them (digest C-12).
//!
//! ```
//! use tianwang::engine::dedup::tianwang::sim;
//! assert!((sim(&[3.0, 2.0, 1.0], &[3.0, 2.0, 2.0]) - 1.0 / 31.0).abs() < 1e-12);
//! assert!((sim(&[2.0, 4.0], &[1.0, 2.0]) - 0.2).abs() < 1e-12);
//! ```

use std::time::Instant;

use md5::{Digest, Md5};

use super::config::AbstractUnit;
use super::group::group_by_key;
use super::{Found, Pair, Prepared, Relation};

/// Algorithms 3 and 4 compare every pair of a hash group up to this size.
const MAX_SIM_GROUP: usize = 2000;
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// The SIM of two aligned weight vectors [L2552]: 0 for equal vectors, 1 for orthogonal ones.
pub fn sim(wi: &[f64], wj: &[f64]) -> f64 {
    let diff: f64 = wi.iter().zip(wj).map(|(a, b)| (a - b) * (a - b)).sum();
    let norm: f64 = wi.iter().chain(wj).map(|a| a * a).sum();
    if norm == 0.0 { 0.0 } else { diff / norm }
}

/// The abstract algorithm 1 hashes: the first `bytes` bytes of the visible text (GBK bytes by
/// default, cut at a character boundary; digest C-2), whitespace collapsed.
pub(crate) fn abstract_bytes(text: &str, bytes: usize, unit: AbstractUnit) -> Vec<u8> {
    let visible: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    match unit {
        AbstractUnit::Chars => {
            let s: String = visible.chars().take(bytes).collect();
            out.extend_from_slice(s.as_bytes());
        }
        AbstractUnit::Utf8 | AbstractUnit::Gbk => {
            let mut buf = [0u8; 4];
            for c in visible.chars() {
                let enc: std::borrow::Cow<[u8]> = if unit == AbstractUnit::Gbk {
                    let s = c.encode_utf8(&mut buf);
                    let (b, _, _) = encoding_rs::GB18030.encode(s);
                    std::borrow::Cow::Owned(b.into_owned())
                } else {
                    std::borrow::Cow::Borrowed(c.encode_utf8(&mut buf).as_bytes())
                };
                if out.len() + enc.len() > bytes {
                    break;
                }
                out.extend_from_slice(&enc);
            }
        }
    }
    out
}

/// MD5 of bytes (the digest every MD5 method keys on).
pub fn md5(bytes: &[u8]) -> [u8; 16] {
    Md5::digest(bytes).into()
}

/// The keyword string of the top N: joined with U+001F when `separator` (digest C-3).
pub(crate) fn keyword_string(terms: &[&str], separator: bool) -> String {
    terms.join(if separator { "\u{1F}" } else { "" })
}

/// Weighted terms.
pub(crate) type Terms = Vec<(String, f64)>;

/// The top-N terms of document `i` in weight order and in sorted (byte) order, with weights.
pub fn top_n(prep: &Prepared, i: usize) -> (Terms, Terms) {
    let (kw, _) = prep.keywords();
    let n = prep.config().n_keywords;
    let weight: Vec<(String, f64)> = kw[i].iter().take(n).cloned().collect();
    let mut sorted = weight.clone();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    (weight, sorted)
}

/// MD5 of the whole normalised text: exact duplicates only.
pub(crate) fn md5_text(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, "md5")?;
    let (norm, fs) = prep.norm();
    let t = Instant::now();
    let keys: Vec<Option<[u8; 16]>> = norm
        .iter()
        .map(|cs| {
            if cs.is_empty() {
                None
            } else {
                Some(md5(cs.iter().collect::<String>().as_bytes()))
            }
        })
        .collect();
    let sig = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let groups = group_by_key(keys);
    Ok((
        Found {
            groups,
            signatures_s: sig,
            match_s: t.elapsed().as_secs_f64(),
            ..Found::default()
        },
        fs,
    ))
}

/// Tianwang algorithm `n` (1–5).
pub fn algorithm(prep: &Prepared, n: u8, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, &format!("tianwang{n}"))?;
    let cfg = prep.config();
    if n == 1 {
        let t = Instant::now();
        let keys: Vec<Option<[u8; 16]>> = prep
            .docs()
            .iter()
            .map(|d| {
                let a = abstract_bytes(&d.text(), cfg.abstract_bytes, cfg.abstract_unit);
                (!a.is_empty()).then(|| md5(&a))
            })
            .collect();
        let sig = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let groups = group_by_key(keys);
        return Ok((
            Found {
                groups,
                signatures_s: sig,
                match_s: t.elapsed().as_secs_f64(),
                ..Found::default()
            },
            0.0,
        ));
    }
    let (_, fs) = prep.keywords();
    let t = Instant::now();
    let sorted = matches!(n, 4 | 5);
    let tops: Vec<Vec<(String, f64)>> = (0..prep.len())
        .map(|i| {
            let (w, s) = top_n(prep, i);
            if sorted { s } else { w }
        })
        .collect();
    let keys: Vec<Option<[u8; 16]>> = tops
        .iter()
        .map(|top| {
            if top.is_empty() {
                return None;
            }
            let terms: Vec<&str> = top.iter().map(|(t, _)| t.as_str()).collect();
            Some(md5(keyword_string(&terms, cfg.separator).as_bytes()))
        })
        .collect();
    let sig = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut groups = group_by_key(keys);
    let mut stats = Vec::new();
    let mut pairs = Vec::new();
    if matches!(n, 3 | 4) {
        // The SIM test on every pair of a hash group (C-12): a pair is reported when it was
        // compared and passed; the clusters close over them. A group larger than
        // `MAX_SIM_GROUP` compares each member with the first member only.
        let mut rejected = 0usize;
        let weights = |p: usize| tops[p].iter().map(|x| x.1).collect::<Vec<f64>>();
        for g in &groups {
            let ws: Vec<Vec<f64>> = g.iter().map(|&p| weights(p)).collect();
            let mut passed = vec![false; g.len()];
            let leaders = if g.len() > MAX_SIM_GROUP { 1 } else { g.len() };
            for i in 0..leaders {
                for j in i + 1..g.len() {
                    let s = sim(&ws[i], &ws[j]);
                    if s < cfg.delta {
                        passed[i] = true;
                        passed[j] = true;
                        pairs.push(Pair {
                            a: g[i],
                            b: g[j],
                            relation: Relation::Near,
                            score: 1.0 - s,
                        });
                    }
                }
            }
            rejected += passed.iter().filter(|x| !**x).count();
        }
        groups = Vec::new();
        stats.push(("sim_rejected".into(), rejected as f64));
    }
    Ok((
        Found {
            groups,
            pairs,
            stats,
            signatures_s: sig,
            match_s: t.elapsed().as_secs_f64(),
        },
        fs,
    ))
}

/// Algorithms 1 ∪ 5, the book's recommendation [L2575].
pub fn union(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    let (a1, f1) = algorithm(prep, 1, tick)?;
    let (a5, f5) = algorithm(prep, 5, tick)?;
    let mut groups = a1.groups;
    groups.extend(a5.groups);
    Ok((
        Found {
            groups,
            signatures_s: a1.signatures_s + a5.signatures_s,
            match_s: a1.match_s + a5.match_s,
            ..Found::default()
        },
        f1 + f5,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_golden_vectors() {
        // Digest E2.3.
        assert_eq!(sim(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
        assert_eq!(sim(&[1.0, 0.0], &[0.0, 1.0]), 1.0);
        let s = sim(&[3.0, 2.0, 1.0], &[3.0, 2.0, 2.0]);
        assert!((s - 1.0 / 31.0).abs() < 1e-12);
        assert!(
            (0.01..0.1).contains(&s),
            "not a mirror at δ=0.01, a mirror at δ=0.1"
        );
        assert!((sim(&[0.8, 0.4, 0.2], &[0.4, 0.2, 0.1]) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn alg2_vs_alg5_keyword_order() {
        // Digest E2.4: [搜索, 引擎, 网页] vs [网页, 搜索, 引擎].
        let ti = ["搜索", "引擎", "网页"];
        let tj = ["网页", "搜索", "引擎"];
        let k2 = |t: &[&str]| md5(keyword_string(t, true).as_bytes());
        let k5 = |t: &[&str]| {
            let mut v = t.to_vec();
            v.sort();
            md5(keyword_string(&v, true).as_bytes())
        };
        assert_ne!(k2(&ti), k2(&tj));
        assert_eq!(k5(&ti), k5(&tj));
        // Without a separator, different keyword lists can collide (C-3).
        assert_eq!(
            keyword_string(&["ab", "c"], false),
            keyword_string(&["a", "bc"], false)
        );
        assert_ne!(
            keyword_string(&["ab", "c"], true),
            keyword_string(&["a", "bc"], true)
        );
    }

    #[test]
    fn abstract_cuts_at_a_character_boundary() {
        let text = "天网".repeat(300);
        let g = abstract_bytes(&text, 512, AbstractUnit::Gbk);
        assert_eq!(g.len(), 512); // 2 bytes per Hanzi in GBK
        let u = abstract_bytes(&text, 512, AbstractUnit::Utf8);
        assert_eq!(u.len(), 510); // 3 bytes per Hanzi, cut before the 171st
        assert!(std::str::from_utf8(&u).is_ok());
        assert_eq!(abstract_bytes(&text, 10, AbstractUnit::Chars).len(), 30);
    }
}
