//! From what a method found to an [`Outcome`]: the pairs it compared and passed (hash groups,
//! whose members have equal signatures, and pairwise edges with their scores), and the clusters
//! those pairs close into by union-find — reported apart, saying how they were closed.

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

/// How an outcome's clusters were closed: what a member of a cluster may and may not assume
/// about another member.
pub const CLOSURE: &str = "transitive";

/// The pairs a method compared and passed, and the clusters they close into. Every pair in
/// `pairs` was compared by the method's test: a pair from a hash group has equal signatures
/// (the test itself), a pairwise edge carries the similarity that passed. Clusters are the
/// transitive closure (union-find) of the near and duplicate pairs; two members of a cluster
/// need not have been compared, and are not reported as a pair unless they were.
pub(crate) fn finish(prep: &Prepared, method: Method, found: Found, _cfg: &Config) -> Outcome {
    // Same normalised text ⇒ duplicate (reporting, not charged to the method).
    let norm = prep.norm().0;
    let t = Instant::now();
    let n = prep.len();
    let mut uf = UnionFind::new(n);
    let text_hash: Vec<u64> = norm.iter().map(super::features::hash_chars).collect();
    let same = |a: usize, b: usize| text_hash[a] == text_hash[b] && norm[a] == norm[b];
    // One verdict per pair: a pairwise score beats a group's 1.0 (it says how similar), near
    // or duplicate beats contains (the pair is in a cluster).
    let mut by_pair: HashMap<(usize, usize), Pair> = HashMap::new();
    for g in &found.groups {
        for w in g.windows(2) {
            uf.union(w[0], w[1]);
        }
    }
    for (a, b) in pairs_from_groups(&found.groups) {
        let relation = if same(a, b) {
            Relation::Duplicate
        } else {
            Relation::Near
        };
        by_pair.insert(
            (a, b),
            Pair {
                a,
                b,
                relation,
                score: 1.0,
            },
        );
    }
    for p in found
        .pairs
        .iter()
        .filter(|p| p.relation != Relation::Contains)
    {
        uf.union(p.a, p.b);
        let (a, b) = ordered(p.a, p.b);
        let relation = if same(a, b) {
            Relation::Duplicate
        } else {
            p.relation
        };
        by_pair.insert(
            (a, b),
            Pair {
                a,
                b,
                relation,
                score: p.score,
            },
        );
    }
    for p in found
        .pairs
        .iter()
        .filter(|p| p.relation == Relation::Contains)
    {
        by_pair
            .entry(ordered(p.a, p.b))
            .or_insert_with(|| p.clone());
    }
    let mut pairs: Vec<Pair> = by_pair.into_values().collect();
    pairs.sort_by_key(|x| (ordered(x.a, x.b), x.relation));
    let clusters = uf.groups();
    let mut stats = found.stats;
    // Pairs the closure puts in one cluster that were not reported: how much a reader of the
    // clusters would assume beyond what was compared.
    let inside: usize = clusters.iter().map(|c| c.len() * (c.len() - 1) / 2).sum();
    let reported_inside = pairs
        .iter()
        .filter(|p| p.relation != Relation::Contains)
        .count();
    stats.push((
        "closure_implied_pairs".into(),
        inside.saturating_sub(reported_inside) as f64,
    ));
    stats.push(("group_s".into(), t.elapsed().as_secs_f64()));
    Outcome {
        method: method.name(),
        docs: n,
        pairs,
        clusters,
        closure: CLOSURE.into(),
        timing: Timing {
            features_s: 0.0,
            signatures_s: found.signatures_s,
            match_s: found.match_s + t.elapsed().as_secs_f64(),
            total_s: 0.0,
        },
        stats,
    }
}
