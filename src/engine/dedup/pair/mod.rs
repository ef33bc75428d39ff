//! Two documents side by side: what they share (top-N keywords with their weights, shingles,
//! full-stop signatures, SimHash bits and their XOR) and every method's verdict on the pair with
//! its reason — the dedup lab's pair view (digest C9 "pair comparator", D2.10, D4.4).
//!
//! Each verdict is measured directly on the two documents with the corpus's statistics (IDF,
//! keyword weights) and the [`Config`](super::Config)'s thresholds: what the method's *rule*
//! says about this pair. A whole-corpus run can still differ in two documented ways: MinHash's
//! LSH bands may not make the pair a candidate (the rule here uses the exact Jaccard), and
//! CCDet's and `best`'s pruning of template features depends on the other pages; the panel
//! shows the run's answer beside the rule's.
//!
//! ```
//! use tianwang::engine::dedup::{Config, Doc, Prepared, pair};
//! let body = "北京大学网络实验室开发了天网搜索引擎。它于1997年发布。今天它仍在教学中使用。";
//! let docs = vec![Doc::new("a", "天网", body), Doc::new("b", "转载：天网", body)];
//! let prep = Prepared::new(&docs, &Config::default());
//! let v = pair::explain(&prep, 0, 1);
//! let best = v.verdicts.iter().find(|x| x.method == "best").unwrap();
//! assert!(best.same);
//! assert_eq!(v.simhash.hamming, (v.simhash.a ^ v.simhash.b).count_ones());
//! ```

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::features::{char_shingles, hash_chars};
use super::{
    Method, Prepared, Relation, best, ccdet, imatch, minhash, segments, simhash, tianwang,
};

mod reason;
pub use reason::Reason;

/// One method's verdict on the pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub method: String,
    /// The method's rule reports the pair.
    pub same: bool,
    /// What it would call it.
    pub relation: Option<Relation>,
    /// The method's measure (similarity, distance, shared count …).
    pub measure: f64,
    pub reason: Reason,
}

/// A keyword in either document's top N.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SharedKeyword {
    pub word: String,
    /// Rank (from 1) and weight in each document's top N, when it is there.
    pub a: Option<(usize, f64)>,
    pub b: Option<(usize, f64)>,
}

/// The two SimHash fingerprints and their per-bit sums (bit 63 first).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimBits {
    pub a: u64,
    pub b: u64,
    pub xor: u64,
    pub hamming: u32,
    pub sums_a: Vec<f64>,
    pub sums_b: Vec<f64>,
}

/// Everything the pair view shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairView {
    pub a: usize,
    pub b: usize,
    /// The union of both top-N lists, in A's order then B's.
    pub keywords: Vec<SharedKeyword>,
    /// Shingles (character, `shingle` long) shared, as text, at most 200.
    pub shared_shingles: Vec<String>,
    pub shingles: (usize, usize),
    /// Byte ranges of each document's [`Doc::text`](super::Doc::text) covered by a shared
    /// character shingle: the text the two have in common, for highlighting.
    pub shared_a: Vec<(usize, usize)>,
    pub shared_b: Vec<(usize, usize)>,
    /// Full-stop signatures of each document and those they share.
    pub stops_a: Vec<String>,
    pub stops_b: Vec<String>,
    pub stops_shared: Vec<String>,
    pub simhash: SimBits,
    pub verdicts: Vec<Verdict>,
    /// Sentences and lines of each document that the methods ignoring boilerplate do not
    /// read ([`super::boiler`]), with why.
    pub ignored_a: Vec<Ignored>,
    pub ignored_b: Vec<Ignored>,
}

/// A unit of a document taken as boilerplate: its byte range in [`Doc::text`](super::Doc::text),
/// its text and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ignored {
    pub bytes: (usize, usize),
    pub text: String,
    pub reason: Reason,
}

/// The boilerplate units of document `i`.
fn ignored(prep: &Prepared, bp: &super::boiler::Boilerplate, i: usize) -> Vec<Ignored> {
    let (units, _) = prep.units();
    let docs = prep.docs();
    let text = docs[i].text();
    let cap = prep.config().max_df_for(prep.len());
    units[i]
        .iter()
        .filter(|u| u.len() >= super::boiler::MIN_UNIT)
        .filter_map(|u| {
            let why = bp.why(u.hash)?;
            let (s, e) = (u.bytes.0 as usize, u.bytes.1 as usize);
            let names: Vec<&str> = why
                .examples
                .iter()
                .map(|&k| docs[k].name.as_str())
                .collect();
            let reason = if why.stories == 0 {
                Reason::of(
                    "bp_df",
                    [why.docs.to_string(), cap.to_string(), names.join(", ")],
                )
            } else {
                Reason::of(
                    "bp_stories",
                    [
                        why.docs.to_string(),
                        why.stories.to_string(),
                        names.join(", "),
                    ],
                )
            };
            Some(Ignored {
                bytes: (s, e),
                text: text[s..e].trim().to_string(),
                reason,
            })
        })
        .collect()
}

fn f3(x: f64) -> String {
    format!("{x:.3}")
}

fn first_diff<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The pair view's verdicts, in the panel's order.
struct Verdicts(Vec<Verdict>);

impl Verdicts {
    fn push(&mut self, method: &str, same: bool, rel: Relation, measure: f64, reason: Reason) {
        self.0.push(Verdict {
            method: method.into(),
            same,
            relation: same.then_some(rel),
            measure,
            reason,
        });
    }

    /// A yes/no rule: its measure is 1 or 0.
    fn flag(&mut self, method: &str, same: bool, rel: Relation, reason: Reason) {
        self.push(method, same, rel, f64::from(u8::from(same)), reason);
    }
}

/// Explain the pair `a`, `b` of a prepared corpus.
pub fn explain(prep: &Prepared, a: usize, b: usize) -> PairView {
    let cfg = prep.config();
    let docs = prep.docs();
    let (norm, _) = prep.norm();
    let (na, nb) = (&norm[a], &norm[b]);
    let mut verdicts = Verdicts(Vec::new());

    // md5 of the normalised text
    let same = na == nb && !na.is_empty();
    let reason = if same {
        Reason::of("md5_same", [na.len().to_string()])
    } else {
        Reason::of("md5_diff", [(first_diff(na, nb) + 1).to_string()])
    };
    verdicts.flag("md5", same, Relation::Duplicate, reason);

    let (wa, wb) = tianwang_verdicts(prep, a, b, &mut verdicts);
    let (shingles, simhash) = signature_verdicts(prep, a, b, &mut verdicts);

    // Boilerplate: what the methods that ignore it do not read, and why.
    let (bp, _) = prep.boilerplate();
    let cc_doc = |i: usize| {
        let stripped = cfg.ignores_boilerplate(Method::CcDet) && !bp.is_empty();
        match stripped
            .then(|| super::boiler::strip_doc(prep, bp, i))
            .flatten()
        {
            Some(d) => Cow::Owned(d),
            None => Cow::Borrowed(&docs[i]),
        }
    };
    let (stops_a, stops_b, stops_shared) =
        ccdet_verdict(prep, (&cc_doc(a), &cc_doc(b)), &mut verdicts);
    let best_text = if cfg.ignores_boilerplate(Method::Best) {
        let (stripped, _) = prep.stripped_norm();
        (stripped.get(a), stripped.get(b))
    } else {
        (na, nb)
    };
    best_verdict(prep, best_text, &mut verdicts);

    // Shared shingles as text (the highlighted overlap), in A's order.
    let k = cfg.shingle.max(1);
    let hb: HashSet<u64> = char_shingles(nb, k).into_iter().collect();
    let mut shown = HashSet::new();
    let shared_shingles: Vec<String> = if na.len() >= k {
        na.windows(k)
            .filter(|w| hb.contains(&hash_chars(w)) && shown.insert(hash_chars(w)))
            .take(200)
            .map(|w| w.iter().collect())
            .collect()
    } else {
        Vec::new()
    };

    let ha: HashSet<u64> = char_shingles(na, k).into_iter().collect();
    PairView {
        a,
        b,
        shared_a: shared_ranges(&docs[a].text(), &hb, k),
        shared_b: shared_ranges(&docs[b].text(), &ha, k),
        keywords: keyword_union(&wa, &wb),
        shared_shingles,
        shingles,
        stops_a,
        stops_b,
        stops_shared,
        simhash,
        verdicts: verdicts.0,
        ignored_a: ignored(prep, bp, a),
        ignored_b: ignored(prep, bp, b),
    }
}

type Weighted = Vec<(String, f64)>;

/// Tianwang's algorithms 1–5 and their union; returns both documents' top-N
/// keywords in weight order (the pair view lists them).
fn tianwang_verdicts(
    prep: &Prepared,
    a: usize,
    b: usize,
    v: &mut Verdicts,
) -> (Weighted, Weighted) {
    let cfg = prep.config();
    let docs = prep.docs();
    // Tianwang 1: the abstract
    let abs =
        |i: usize| tianwang::abstract_bytes(&docs[i].text(), cfg.abstract_bytes, cfg.abstract_unit);
    let (aa, ab) = (abs(a), abs(b));
    let t1 = aa == ab && !aa.is_empty();
    let reason = if t1 {
        Reason::of("abs_same", [aa.len().to_string()])
    } else {
        Reason::of(
            "abs_diff",
            [
                (first_diff(&aa, &ab) + 1).to_string(),
                aa.len().max(ab.len()).to_string(),
            ],
        )
    };
    v.flag("tianwang1", t1, Relation::Near, reason);

    // Tianwang 2–5: the top N
    let n = cfg.n_keywords;
    let ((wa, sa), (wb, sb)) = (tianwang::top_n(prep, a), tianwang::top_n(prep, b));
    let words = |v: &[(String, f64)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    let order_same = !wa.is_empty() && words(&wa) == words(&wb);
    let set_same = !sa.is_empty() && words(&sa) == words(&sb);
    let order_reason = if order_same {
        Reason::of("order_same", [n.to_string()])
    } else {
        let r = first_diff(&words(&wa), &words(&wb));
        let at = |v: &[(String, f64)]| v.get(r).map_or("—".to_string(), |x| x.0.clone());
        Reason::of("order_diff", [(r + 1).to_string(), at(&wa), at(&wb)])
    };
    v.flag(
        "tianwang2",
        order_same,
        Relation::Near,
        order_reason.clone(),
    );
    let weights = |v: &[(String, f64)]| v.iter().map(|x| x.1).collect::<Vec<_>>();
    for (alg, ok, (x, y), why) in [
        (3u8, order_same, (&wa, &wb), order_reason),
        (4u8, set_same, (&sa, &sb), set_reason(&sa, &sb, n)),
    ] {
        if ok {
            let s = tianwang::sim(&weights(x), &weights(y));
            let pass = s < cfg.delta;
            let key = if pass { "sim_pass" } else { "sim_fail" };
            let reason = Reason::of(key, [format!("{s:.4}"), cfg.delta.to_string()]);
            v.push(&format!("tianwang{alg}"), pass, Relation::Near, s, reason);
        } else {
            v.push(&format!("tianwang{alg}"), false, Relation::Near, 1.0, why);
        }
    }
    v.flag(
        "tianwang5",
        set_same,
        Relation::Near,
        set_reason(&sa, &sb, n),
    );
    let reason = match (t1, set_same) {
        (false, false) => Reason::of("union_fail", []),
        (true, false) => Reason::of("union_pass", ["1".into()]),
        (false, true) => Reason::of("union_pass", ["5".into()]),
        (true, true) => Reason::of("union_pass", ["1 + 5".into()]),
    };
    v.flag("tianwang-union", t1 || set_same, Relation::Near, reason);
    (wa, wb)
}

/// Segment signatures, I-Match, MinHash and SimHash; returns the shingle counts and the SimHash
/// bits.
fn signature_verdicts(
    prep: &Prepared,
    a: usize,
    b: usize,
    v: &mut Verdicts,
) -> ((usize, usize), SimBits) {
    let cfg = prep.config();
    let docs = prep.docs();
    // Segment signatures: M of the chunks equal
    let chunk_set = |i: usize| -> HashSet<u64> {
        segments::chunks(&docs[i].text(), cfg.chunk_lines)
            .iter()
            .map(|c| hash_chars(c))
            .collect()
    };
    let (ca, cb) = (chunk_set(a), chunk_set(b));
    let common = ca.intersection(&cb).count();
    let need = cfg.segment_m.min(ca.len().min(cb.len())).max(1);
    let same = common >= need && common > 0;
    let reason = Reason::of(
        "chunks",
        [
            common.to_string(),
            ca.len().to_string(),
            cb.len().to_string(),
            need.to_string(),
        ],
    );
    v.push("segments", same, Relation::Near, common as f64, reason);

    // I-Match: the IDF-top-70 % feature strings
    let (fa, fb) = (
        imatch::feature_string(prep, a),
        imatch::feature_string(prep, b),
    );
    let same = fa == fb && !fa.is_empty();
    let reason = if same {
        Reason::of("imatch_same", [fa.split('\u{1F}').count().to_string()])
    } else {
        let xa: HashSet<&str> = fa.split('\u{1F}').collect();
        let xb: HashSet<&str> = fb.split('\u{1F}').collect();
        Reason::of(
            "imatch_diff",
            [
                xa.intersection(&xb).count().to_string(),
                xa.len().max(xb.len()).to_string(),
            ],
        )
    };
    v.flag("imatch", same, Relation::Duplicate, reason);

    // MinHash: the exact Jaccard the LSH re-check applies
    let (sa_set, sb_set) = (minhash::shingles_of(prep, a), minhash::shingles_of(prep, b));
    let j = minhash::jaccard(&sa_set, &sb_set);
    let reason = Reason::of(
        "jaccard",
        [cfg.shingle.to_string(), f3(j), cfg.threshold.to_string()],
    );
    v.push("minhash", j >= cfg.threshold, Relation::Near, j, reason);

    // SimHash
    let (sums_a, sums_b) = (
        simhash::sums(&simhash::features_of(prep, a)),
        simhash::sums(&simhash::features_of(prep, b)),
    );
    let (fa, fb) = (
        simhash::bits_from_sums(&sums_a),
        simhash::bits_from_sums(&sums_b),
    );
    let h = simhash::hamming(fa, fb);
    let reason = Reason::of("hamming", [h.to_string(), cfg.simhash_k.to_string()]);
    v.push(
        "simhash",
        h <= cfg.simhash_k,
        Relation::Near,
        f64::from(h),
        reason,
    );
    let bits = SimBits {
        a: fa,
        b: fb,
        xor: fa ^ fb,
        hamming: h,
        sums_a: sums_a.to_vec(),
        sums_b: sums_b.to_vec(),
    };
    ((sa_set.len(), sb_set.len()), bits)
}

/// CCDet on `cc_docs` (the text it reads); returns both documents' full-stop signatures and
/// those they share.
fn ccdet_verdict(
    prep: &Prepared,
    (da, db): (&super::Doc, &super::Doc),
    v: &mut Verdicts,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let cfg = prep.config();
    let (ta, tb) = (da.text(), db.text());
    let (stops_a, stops_b) = (
        ccdet::features(&ta, cfg.ccdet_len),
        ccdet::features(&tb, cfg.ccdet_len),
    );
    let (ka, kb) = (
        ccdet::feature_keys(&ta, cfg.ccdet_len),
        ccdet::feature_keys(&tb, cfg.ccdet_len),
    );
    let common = super::features::intersect_sorted(&ka, &kb);
    let d = ccdet::decide(ka.len(), kb.len(), common, cfg.t_ccs, cfg.t_clr);
    let reason = if common == 0 {
        Reason::of("ccdet_none", [ka.len().to_string(), kb.len().to_string()])
    } else {
        Reason::of(
            "ccdet",
            [
                f3(d.ccs),
                cfg.t_ccs.to_string(),
                f3(d.clr),
                cfg.t_clr.to_string(),
            ],
        )
    };
    let rel = d.relation.unwrap_or(Relation::Near);
    v.push("ccdet", d.relation.is_some(), rel, d.ccs, reason);
    let mut seen = HashSet::new();
    let shared = stops_a
        .iter()
        .filter(|s| {
            ccdet::feature_key(s).is_some_and(|k| kb.binary_search(&k).is_ok() && seen.insert(k))
        })
        .cloned()
        .collect();
    (stops_a, stops_b, shared)
}

/// `best`: containment of sampled 4-shingles, CLR on the larger set, on the normalised texts it
/// reads.
fn best_verdict(prep: &Prepared, (xa, xb): (&[char], &[char]), v: &mut Verdicts) {
    let cfg = prep.config();
    let p = cfg.sample_for(prep.len());
    let (ba, bb) = (
        best::sampled_shingles(xa, cfg.best_shingle, p),
        best::sampled_shingles(xb, cfg.best_shingle, p),
    );
    let common = super::features::intersect_sorted(&ba, &bb);
    let small = ba.len().min(bb.len()).max(1);
    let c = common as f64 / small as f64;
    let cover = common as f64 / ba.len().max(bb.len()).max(1) as f64;
    let exact = xa == xb && !xa.is_empty();
    let verdict = if exact {
        Some((Relation::Duplicate, 1.0))
    } else {
        best::decide(
            (ba.len(), bb.len()),
            common,
            (xa.len(), xb.len()),
            p,
            cfg.best_threshold,
            cfg.t_clr,
        )
    };
    let reason = if c >= cfg.best_threshold && common * p.max(1) < 8 && !exact {
        Reason::of("best_small", [f3(c), (common * p.max(1)).to_string()])
    } else {
        Reason::of(
            "best",
            [
                f3(c),
                cfg.best_threshold.to_string(),
                f3(cover),
                cfg.t_clr.to_string(),
            ],
        )
    };
    let rel = verdict.map_or(Relation::Near, |v| v.0);
    v.push("best", verdict.is_some(), rel, c, reason);
}

/// Byte ranges of `text` whose normalised characters lie in a `k`-shingle found in `other`.
/// Normalisation drops punctuation, so a range may span it; adjacent ranges are merged.
pub(crate) fn shared_ranges(text: &str, other: &HashSet<u64>, k: usize) -> Vec<(usize, usize)> {
    let mut kept: Vec<(char, usize, usize)> = Vec::new(); // folded char, byte start, byte end
    for (i, c) in text.char_indices() {
        let f = super::features::fold(c);
        if f.is_alphanumeric() {
            kept.push((f, i, i + c.len_utf8()));
        }
    }
    let cs: Vec<char> = kept.iter().map(|x| x.0).collect();
    let mut covered = vec![false; cs.len()];
    if cs.len() >= k && k > 0 {
        for (s, w) in cs.windows(k).enumerate() {
            if other.contains(&hash_chars(w)) {
                covered[s..s + k].iter_mut().for_each(|x| *x = true);
            }
        }
    } else if !cs.is_empty() && other.contains(&hash_chars(&cs)) {
        covered.iter_mut().for_each(|x| *x = true);
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (j, &(_, lo, hi)) in kept.iter().enumerate() {
        if !covered[j] {
            continue;
        }
        match out.last_mut() {
            // Merge when only non-content characters lie between.
            Some(last) if j > 0 && covered[j - 1] => last.1 = hi,
            _ => out.push((lo, hi)),
        }
    }
    out
}

fn set_reason(sa: &[(String, f64)], sb: &[(String, f64)], n: usize) -> Reason {
    let xa: HashSet<&str> = sa.iter().map(|x| x.0.as_str()).collect();
    let xb: HashSet<&str> = sb.iter().map(|x| x.0.as_str()).collect();
    if !xa.is_empty() && xa == xb {
        Reason::of("set_same", [n.to_string()])
    } else {
        Reason::of(
            "set_diff",
            [xa.intersection(&xb).count().to_string(), n.to_string()],
        )
    }
}

fn keyword_union(wa: &[(String, f64)], wb: &[(String, f64)]) -> Vec<SharedKeyword> {
    let rank = |v: &[(String, f64)]| -> HashMap<String, (usize, f64)> {
        v.iter()
            .enumerate()
            .map(|(i, (w, x))| (w.clone(), (i + 1, *x)))
            .collect()
    };
    let (ra, rb) = (rank(wa), rank(wb));
    let mut out: Vec<SharedKeyword> = wa
        .iter()
        .map(|(w, _)| SharedKeyword {
            word: w.clone(),
            a: ra.get(w).copied(),
            b: rb.get(w).copied(),
        })
        .collect();
    out.extend(
        wb.iter()
            .filter(|(w, _)| !ra.contains_key(w))
            .map(|(w, _)| SharedKeyword {
                word: w.clone(),
                a: None,
                b: rb.get(w).copied(),
            }),
    );
    out
}

/// The SimHash stepper's view of one text against another: both texts' weighted features with
/// their hashes, per-bit sums, fingerprints, XOR and distance, weighted within the two-document
/// corpus (so an edit's effect on the weights shows too).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SimStep {
    /// (feature, weight, 64-bit hash) of A, heaviest first.
    pub features_a: Vec<(String, f64, u64)>,
    pub features_b: Vec<(String, f64, u64)>,
    pub bits: SimBits,
    /// Bits that differ, as positions 0..64 counted from the most significant.
    pub flipped: Vec<usize>,
}

/// SimHash of two texts (term features, TF-IDF within the pair, the config's other settings).
pub(crate) fn simhash_step(a: &str, b: &str, cfg: &super::Config) -> SimStep {
    let docs = [super::Doc::new("a", "", a), super::Doc::new("b", "", b)];
    let mut cfg = cfg.clone();
    cfg.simhash_features = super::config::SimFeatures::Terms;
    let prep = Prepared::new(&docs, &cfg);
    let (kw, _) = prep.keywords();
    let feats = |i: usize| -> Vec<(String, f64, u64)> {
        kw[i]
            .iter()
            .map(|(w, x)| (w.clone(), *x, super::features::hash_str(w)))
            .collect()
    };
    let (fa, fb) = (feats(0), feats(1));
    let hv = |v: &[(String, f64, u64)]| v.iter().map(|x| (x.2, x.1)).collect::<Vec<_>>();
    let (sa, sb) = (simhash::sums(&hv(&fa)), simhash::sums(&hv(&fb)));
    let (ba, bb) = (simhash::bits_from_sums(&sa), simhash::bits_from_sums(&sb));
    let xor = ba ^ bb;
    SimStep {
        features_a: fa,
        features_b: fb,
        flipped: (0..64).filter(|i| (xor >> (63 - i)) & 1 == 1).collect(),
        bits: SimBits {
            a: ba,
            b: bb,
            xor,
            hamming: xor.count_ones(),
            sums_a: sa.to_vec(),
            sums_b: sb.to_vec(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dedup::{Config, Doc, Method, run};

    fn docs() -> Vec<Doc> {
        let body = "北京大学网络实验室开发了天网搜索引擎。它于1997年发布。今天它仍在教学中使用。\n\n天网的网页搜集系统每天抓取大量网页。它的索引系统支持中文分词。";
        vec![
            Doc::new("a", "天网", body),
            Doc::new("b", "转载：天网", &body.replace("大量", "许多")),
            Doc::new(
                "c",
                "别的新闻",
                "今天的天气很好，适合出去散步。公园里的花都开了。",
            ),
            Doc::new(
                "d",
                "",
                "北京大学网络实验室开发了天网搜索引擎。它于1997年发布。",
            ),
        ]
    }

    #[test]
    fn the_rules_agree_with_the_runs_on_a_small_corpus() {
        let d = docs();
        let cfg = Config::default();
        let prep = Prepared::new(&d, &cfg);
        for m in [
            Method::Md5,
            Method::Tianwang(1),
            Method::Tianwang(2),
            Method::Tianwang(5),
            Method::SimHash,
            Method::Best,
        ] {
            let out = run(&d, m, &cfg, &()).unwrap();
            for a in 0..d.len() {
                for b in a + 1..d.len() {
                    let found = out
                        .pairs
                        .iter()
                        .any(|p| (p.a.min(p.b), p.a.max(p.b)) == (a, b));
                    let v = explain(&prep, a, b);
                    let rule = v.verdicts.iter().find(|x| x.method == m.name()).unwrap();
                    assert_eq!(rule.same, found, "{} on {a},{b}: {:?}", m.name(), rule);
                }
            }
        }
    }

    #[test]
    fn a_document_is_its_own_duplicate_by_every_rule() {
        let d = docs();
        let twice = vec![
            d[0].clone(),
            Doc {
                name: "a2".into(),
                ..d[0].clone()
            },
        ];
        let prep = Prepared::new(&twice, &Config::default());
        let v = explain(&prep, 0, 1);
        for x in &v.verdicts {
            assert!(x.same, "{}: {}", x.method, x.reason.english());
        }
        assert_eq!(v.simhash.xor, 0);
    }

    #[test]
    fn reasons_name_what_differs() {
        let d = docs();
        let prep = Prepared::new(&d, &Config::default());
        let v = explain(&prep, 0, 3);
        let best = v.verdicts.iter().find(|x| x.method == "best").unwrap();
        assert_eq!(best.relation, Some(Relation::Contains));
        let md5 = v.verdicts.iter().find(|x| x.method == "md5").unwrap();
        assert!(!md5.same);
        assert!(md5.reason.english().contains("differ"));
        assert!(!v.stops_shared.is_empty());
        // d is the first part of a: all of d is shared, a only partly.
        let text_d = d[3].text();
        let covered: usize = v
            .shared_b
            .iter()
            .map(|r| text_d[r.0..r.1].chars().count())
            .sum();
        assert!(covered + 2 >= text_d.chars().count(), "{:?}", v.shared_b);
        let text_a = d[0].text();
        let covered_a: usize = v.shared_a.iter().map(|r| r.1 - r.0).sum();
        assert!(covered_a < text_a.len());
        for (k, _) in Reason::TEMPLATES {
            assert!(!Reason::of(k, []).english().is_empty());
        }
    }

    #[test]
    fn an_edit_flips_bits_in_the_stepper() {
        let a = "天网搜索引擎由北京大学开发，它的网页搜集系统每天抓取大量网页。";
        let same = simhash_step(a, a, &Config::default());
        assert_eq!(same.bits.hamming, 0);
        assert!(same.flipped.is_empty());
        let other = simhash_step(
            a,
            "今天的天气很好，适合出去散步。公园里的花都开了。",
            &Config::default(),
        );
        assert!(other.bits.hamming > 3);
        assert_eq!(other.flipped.len() as u32, other.bits.hamming);
    }
}
