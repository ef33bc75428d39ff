//! From what a method found to an [`Outcome`]: union-find over groups and pair edges, clusters,
//! every pair inside a cluster with its relation, containments kept as pairs.

use std::collections::HashMap;
use std::time::Instant;

use super::{Found, Method, Outcome, Pair, Prepared, Relation, Timing, ordered};
use crate::engine::dedup::Config;

/// Disjoint sets with path halving and union by size.
#[derive(Debug, Clone)]
pub struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    pub fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }

    /// The sets of two or more members, each sorted, sorted by first member.
    pub fn groups(&mut self) -> Vec<Vec<usize>> {
        let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
        for x in 0..self.parent.len() {
            let r = self.find(x);
            by_root.entry(r).or_default().push(x);
        }
        let mut out: Vec<Vec<usize>> = by_root.into_values().filter(|g| g.len() > 1).collect();
        out.sort_unstable();
        out
    }
}

/// Every pair (a < b) inside each group.
pub fn pairs_from_groups(groups: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for g in groups {
        for (i, &a) in g.iter().enumerate() {
            for &b in &g[i + 1..] {
                out.push(ordered(a, b));
            }
        }
    }
    out.sort_unstable();
    out
}

/// Key a hash-grouping method groups documents by; documents without a key stay alone.
pub(crate) fn group_by_key<K: std::hash::Hash + Eq>(keys: Vec<Option<K>>) -> Vec<Vec<usize>> {
    let mut map: HashMap<K, Vec<usize>> = HashMap::new();
    for (i, k) in keys.into_iter().enumerate() {
        if let Some(k) = k {
            map.entry(k).or_default().push(i);
        }
    }
    let mut groups: Vec<Vec<usize>> = map.into_values().filter(|g| g.len() > 1).collect();
    groups.sort_unstable();
    groups
}

/// Clusters from groups and near/duplicate edges; pairs inside clusters; containments.
pub(crate) fn finish(prep: &Prepared, method: Method, found: Found, _cfg: &Config) -> Outcome {
    // Same normalised text ⇒ duplicate (reporting, not charged to the method).
    let (norm, _) = prep.norm();
    let t = Instant::now();
    let n = prep.len();
    let mut uf = UnionFind::new(n);
    for g in &found.groups {
        for w in g.windows(2) {
            uf.union(w[0], w[1]);
        }
    }
    let mut scores: HashMap<(usize, usize), f64> = HashMap::new();
    let mut contains = Vec::new();
    for p in &found.pairs {
        match p.relation {
            Relation::Contains => contains.push(p.clone()),
            _ => {
                uf.union(p.a, p.b);
                scores.insert(ordered(p.a, p.b), p.score);
            }
        }
    }
    let clusters = uf.groups();
    let text_hash: Vec<u64> = norm
        .iter()
        .map(|c| super::features::hash_chars(c))
        .collect();
    let mut pairs: Vec<Pair> = pairs_from_groups(&clusters)
        .into_iter()
        .map(|(a, b)| {
            let same = text_hash[a] == text_hash[b] && norm[a] == norm[b];
            Pair {
                a,
                b,
                relation: if same {
                    Relation::Duplicate
                } else {
                    Relation::Near
                },
                score: scores.get(&(a, b)).copied().unwrap_or(1.0),
            }
        })
        .collect();
    for p in contains {
        if uf.find(p.a) != uf.find(p.b) {
            pairs.push(p);
        }
    }
    pairs.sort_by_key(|x| (ordered(x.a, x.b), x.relation));
    pairs.dedup_by(|x, y| ordered(x.a, x.b) == ordered(y.a, y.b));
    let mut stats = found.stats;
    stats.push(("group_s".into(), t.elapsed().as_secs_f64()));
    Outcome {
        method: method.name(),
        docs: n,
        pairs,
        clusters,
        timing: Timing {
            features_s: 0.0,
            signatures_s: found.signatures_s,
            match_s: found.match_s + t.elapsed().as_secs_f64(),
            total_s: 0.0,
        },
        stats,
    }
}
