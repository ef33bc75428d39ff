//! Scoring against ground truth, and the book's Table 7-3 shape [L2577–L2586]. The book's
//! "recall" is a detection rate — pages reported as reprints over all pages — and its
//! precision a manual sample [L2565–L2569] (digest C-6, C-10); where truth exists we also give
//! true precision, recall and F1, per relation kind: near-duplicates (exact and edited
//! reprints, the truth's near clusters closed transitively) and containment (partial
//! reprints, scored without regard to which side contains which).
//!
//! ```
//! use tianwang::engine::dedup::eval::{Prf, Truth};
//! let mut t = Truth::default();
//! t.add("a", "b", "near");
//! t.add("b", "c", "exact");
//! assert_eq!(t.near_pairs().len(), 3); // a–c by transitivity
//! assert_eq!(Prf::new(2, 1, 1).f1, 2.0 / 3.0);
//! ```

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::{Outcome, Relation, UnionFind};

/// Precision, recall, F1 from true positives, false positives and false negatives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Prf {
    pub tp: usize,
    pub fp: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

impl Prf {
    pub fn new(tp: usize, fp: usize, fn_: usize) -> Prf {
        let precision = if tp + fp == 0 {
            1.0
        } else {
            tp as f64 / (tp + fp) as f64
        };
        let recall = if tp + fn_ == 0 {
            1.0
        } else {
            tp as f64 / (tp + fn_) as f64
        };
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        Prf {
            tp,
            fp,
            fn_,
            precision,
            recall,
            f1,
        }
    }

    fn of(found: &BTreeSet<(String, String)>, truth: &BTreeSet<(String, String)>) -> Prf {
        let tp = found.intersection(truth).count();
        Prf::new(tp, found.len() - tp, truth.len() - tp)
    }
}

fn key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
    }
}

/// Known pairs by document name: `exact`/`mirror`/`near` are near-duplicates, `contains` is a
/// partial reprint (`a` contains `b`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Truth {
    pub near: Vec<(String, String)>,
    pub contains: Vec<(String, String)>,
    /// The kind each near pair was given as (exact, mirror, near, or an edit name).
    pub kinds: HashMap<String, usize>,
}

impl Truth {
    pub fn add(&mut self, a: &str, b: &str, kind: &str) {
        *self.kinds.entry(kind.to_string()).or_default() += 1;
        if kind == "contains" || kind == "partial" {
            self.contains.push((a.into(), b.into()));
        } else {
            self.near.push((a.into(), b.into()));
        }
    }

    /// Every near pair, with the transitive closure of the given ones.
    pub fn near_pairs(&self) -> BTreeSet<(String, String)> {
        let mut names: Vec<&String> = self.near.iter().flat_map(|(a, b)| [a, b]).collect();
        names.sort();
        names.dedup();
        let idx: HashMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut uf = UnionFind::new(names.len());
        for (a, b) in &self.near {
            uf.union(idx[a], idx[b]);
        }
        let mut out = BTreeSet::new();
        for g in uf.groups() {
            for (i, &x) in g.iter().enumerate() {
                for &y in &g[i + 1..] {
                    out.insert(key(names[x], names[y]));
                }
            }
        }
        out
    }

    /// Every containment pair, carried across near-duplicates: a reprint of the container
    /// contains the part too, and the container contains every reprint of the part. Pairs that
    /// are near-duplicates themselves stay near.
    pub(crate) fn contains_pairs(&self) -> BTreeSet<(String, String)> {
        let near = self.near_pairs();
        let mut members: HashMap<&str, Vec<&str>> = HashMap::new();
        for (a, b) in &near {
            members.entry(a).or_default().push(b);
            members.entry(b).or_default().push(a);
        }
        let group = |x: &'_ str| -> Vec<String> {
            let mut g = vec![x.to_string()];
            if let Some(m) = members.get(x) {
                g.extend(m.iter().map(|s| s.to_string()));
            }
            g
        };
        let mut out = BTreeSet::new();
        for (a, b) in &self.contains {
            for x in group(a) {
                for y in group(b) {
                    let k = key(&x, &y);
                    if x != y && !near.contains(&k) {
                        out.insert(k);
                    }
                }
            }
        }
        out
    }
}

/// How one outcome scores against truth.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// Pairs reported as duplicate or near against the near truth.
    pub near: Prf,
    /// Pairs reported as contains against the containment truth.
    pub contains: Prf,
    /// Share of the truth's partial reprints reported at all (any relation).
    pub contains_found: f64,
    /// Any reported pair against any true pair.
    pub any: Prf,
}

pub fn score(out: &Outcome, names: &[String], truth: &Truth) -> Scores {
    let mut near = BTreeSet::new();
    let mut cont = BTreeSet::new();
    for p in &out.pairs {
        let k = key(&names[p.a], &names[p.b]);
        match p.relation {
            Relation::Contains => cont.insert(k),
            _ => near.insert(k),
        };
    }
    let tn = truth.near_pairs();
    let tc = truth.contains_pairs();
    let any_found: BTreeSet<_> = near.union(&cont).cloned().collect();
    let any_truth: BTreeSet<_> = tn.union(&tc).cloned().collect();
    Scores {
        near: Prf::of(&near, &tn),
        contains: Prf::of(&cont, &tc),
        contains_found: if tc.is_empty() {
            1.0
        } else {
            tc.intersection(&any_found).count() as f64 / tc.len() as f64
        },
        any: Prf::of(&any_found, &any_truth),
    }
}

/// One row of the comparison (the book's Table 7-3 shape plus true scores).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareRow {
    pub method: String,
    pub docs: usize,
    /// Pages reported in any pair (the book's 转载数).
    pub found: usize,
    /// found / docs, % (the book's "recall").
    pub detection_rate: f64,
    pub pairs: usize,
    pub clusters: usize,
    pub scores: Option<Scores>,
    pub total_s: f64,
    pub docs_per_s: f64,
}

impl CompareRow {
    pub fn new(out: &Outcome, names: &[String], truth: Option<&Truth>) -> CompareRow {
        let found = out.flagged();
        CompareRow {
            method: out.method.clone(),
            docs: out.docs,
            found,
            detection_rate: 100.0 * found as f64 / out.docs.max(1) as f64,
            pairs: out.pairs.len(),
            clusters: out.clusters.len(),
            scores: truth.map(|t| score(out, names, t)),
            total_s: out.timing.total_s,
            docs_per_s: docs_per_s(out.docs, out.timing.total_s),
        }
    }
}

pub fn docs_per_s(docs: usize, secs: f64) -> f64 {
    if secs > 0.0 { docs as f64 / secs } else { 0.0 }
}

/// The book's Table 7-3 (N = 10, δ = 0.01, 1,182,899 pages) [L2579–L2586]: method, found,
/// "recall" %, precision %.
pub(crate) const BOOK_TABLE_7_3: [(&str, u32, f64, f64); 6] = [
    ("tianwang1", 199_763, 16.89, 98.11),
    ("tianwang2", 212_914, 18.00, 98.0),
    ("tianwang3", 210_475, 17.79, 98.03),
    ("tianwang4", 219_841, 18.58, 97.0),
    ("tianwang5", 225_919, 19.10, 97.0),
    ("tianwang-union", 265_752, 22.47, 97.09),
];
