//! Hierarchical kNN (book ch. 11.4.7 (3) [L4300–L4315], Table 11-4): compare a document with
//! each **parent class** first and skip every child class of a parent whose similarity is below
//! a threshold; kNN then runs only over the training documents of the surviving parents.
//!
//! The book leaves the parent's representation and the threshold open (digest ⚠); here, as the
//! digest suggests, a parent is the centroid (mean of the L2-normalised vectors) of all its
//! descendants' training documents, compared by cosine; parents with cosine ≥ `threshold`
//! survive, and when none does the single most similar parent is kept. Each parent has its own
//! inverted index, so pruned parents cost nothing. Classes named in no group form a group of
//! their own. For the THUCNews titles the quick reference's grouping is built in
//! ([`THUCNEWS`]: 财经 {finance, realty, stocks}, 社会 {education, society, politics},
//! 娱乐 {sports, game, entertainment}, 科技 {science}).
//!
//! ```
//! use tianwang::engine::classify::hier::HierarchyConfig;
//! let h = HierarchyConfig::parse("thucnews", 0.1).unwrap();
//! assert_eq!(h.groups.len(), 4);
//! assert_eq!(h.groups[0].children, vec!["finance", "realty", "stocks"]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::classify::knn::{Knn, KnnConfig};
use crate::engine::error::{EngineError, Result};

/// The quick reference's two-level grouping of the THUCNews title classes.
pub(crate) const THUCNEWS: &str = "财经=finance,realty,stocks;社会=education,society,politics;娱乐=sports,game,entertainment;科技=science";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub name: String,
    pub children: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HierarchyConfig {
    pub groups: Vec<Group>,
    /// Parents with a cosine below this are pruned (their children are skipped).
    pub threshold: f64,
}

impl HierarchyConfig {
    /// `parent=child,child;parent=child…`, or `thucnews` for [`THUCNEWS`].
    pub fn parse(spec: &str, threshold: f64) -> Result<HierarchyConfig> {
        let spec = if spec.trim().eq_ignore_ascii_case("thucnews") {
            THUCNEWS
        } else {
            spec
        };
        if !(threshold.is_finite() && (-1.0..=1.0).contains(&threshold)) {
            return Err(EngineError::invalid(
                "--prune",
                "a cosine threshold in [-1, 1]",
            ));
        }
        let mut groups = Vec::new();
        for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, kids) = part.split_once('=').ok_or_else(|| {
                EngineError::invalid(
                    "--hierarchy",
                    format!("`{part}`: expected parent=child,child"),
                )
            })?;
            let children: Vec<String> = kids
                .split(',')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect();
            if name.trim().is_empty() || children.is_empty() {
                return Err(EngineError::invalid(
                    "--hierarchy",
                    format!("`{part}`: a parent needs a name and children"),
                ));
            }
            groups.push(Group {
                name: name.trim().to_string(),
                children,
            });
        }
        if groups.is_empty() {
            return Err(EngineError::invalid("--hierarchy", "no groups"));
        }
        Ok(HierarchyConfig { groups, threshold })
    }
}

/// One kNN per parent plus the parents' centroids.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HierKnn {
    pub hierarchy: HierarchyConfig,
    pub k: KnnConfig,
    pub n_classes: usize,
    /// Group names (the configured ones, then one per ungrouped class).
    pub names: Vec<String>,
    /// L2-normalised centroid per group (dense: a query costs O(its own terms)).
    pub centroids: Vec<Vec<f64>>,
    pub subs: Vec<Knn>,
    /// subs[g] document i = training document doc_map[g][i].
    pub doc_map: Vec<Vec<usize>>,
}

fn centroid(docs: &[&SparseVec], n_terms: usize) -> Vec<f64> {
    let mut acc = vec![0f64; n_terms];
    for d in docs {
        let n = d.norm2().sqrt();
        if n > 0.0 {
            for (t, v) in d.iter() {
                if let Some(a) = acc.get_mut(t as usize) {
                    *a += f64::from(v) / n;
                }
            }
        }
    }
    let norm = acc.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm > 0.0 {
        acc.iter_mut().for_each(|v| *v /= norm);
    }
    acc
}

impl HierKnn {
    pub fn fit(
        hierarchy: &HierarchyConfig,
        k: &KnnConfig,
        x: Vec<SparseVec>,
        y: &[usize],
        labels: &[String],
    ) -> Result<HierKnn> {
        let mut group_of = vec![usize::MAX; labels.len()];
        let mut names = Vec::new();
        for (g, grp) in hierarchy.groups.iter().enumerate() {
            names.push(grp.name.clone());
            for c in &grp.children {
                let id = labels.iter().position(|l| l == c).ok_or_else(|| {
                    EngineError::invalid("--hierarchy", format!("class `{c}` is not in the corpus"))
                })?;
                if group_of[id] != usize::MAX {
                    return Err(EngineError::invalid(
                        "--hierarchy",
                        format!("class `{c}` is in two groups"),
                    ));
                }
                group_of[id] = g;
            }
        }
        for (c, g) in group_of.iter_mut().enumerate() {
            if *g == usize::MAX {
                *g = names.len();
                names.push(labels[c].clone());
            }
        }
        let ng = names.len();
        let n_terms = x
            .iter()
            .filter_map(|d| d.idx.last())
            .max()
            .map_or(0, |&m| m as usize + 1);
        let mut doc_map = vec![Vec::new(); ng];
        for (d, &c) in y.iter().enumerate() {
            if let Some(&g) = group_of.get(c) {
                doc_map[g].push(d);
            }
        }
        let centroids = doc_map
            .iter()
            .map(|ds| centroid(&ds.iter().map(|&d| &x[d]).collect::<Vec<_>>(), n_terms))
            .collect();
        let subs = doc_map
            .iter()
            .map(|ds| {
                let xs = ds.iter().map(|&d| x[d].clone()).collect();
                let ys = ds.iter().map(|&d| y[d]).collect();
                Knn::fit(k, xs, ys, labels.len())
            })
            .collect();
        Ok(HierKnn {
            hierarchy: hierarchy.clone(),
            k: k.clone(),
            n_classes: labels.len(),
            names,
            centroids,
            subs,
            doc_map,
        })
    }

    pub(crate) fn build_index(&mut self) {
        for s in &mut self.subs {
            s.build_index();
        }
    }

    /// Cosine with each parent and whether it survived the pruning.
    pub(crate) fn parents(&self, x: &SparseVec) -> Vec<(usize, f64, bool)> {
        let nx = x.norm2().sqrt();
        let sims: Vec<f64> = self
            .centroids
            .iter()
            .map(|c| if nx > 0.0 { x.dot_dense(c) / nx } else { 0.0 })
            .collect();
        let best = (0..sims.len()).max_by(|&a, &b| sims[a].total_cmp(&sims[b]).then(b.cmp(&a)));
        sims.iter()
            .enumerate()
            .map(|(g, &s)| (g, s, s >= self.hierarchy.threshold || Some(g) == best))
            .collect()
    }

    /// The k nearest among the surviving parents' documents: (training index, similarity, class).
    pub fn neighbours(&self, x: &SparseVec) -> Vec<(usize, f64, usize)> {
        let mut all: Vec<(usize, f64, usize)> = Vec::new();
        for (g, _, keep) in self.parents(x) {
            if keep {
                let sub = &self.subs[g];
                all.extend(
                    sub.neighbours(x)
                        .into_iter()
                        .filter_map(|(i, s)| Some((*self.doc_map[g].get(i)?, s, *sub.y.get(i)?))),
                );
            }
        }
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(self.k.k);
        all
    }

    pub fn scores(&self, x: &SparseVec) -> Vec<f64> {
        let mut s = vec![0f64; self.n_classes];
        for (_, sim, c) in self.neighbours(x) {
            if let Some(slot) = s.get_mut(c) {
                *slot += if self.k.weighted { sim } else { 1.0 };
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruned_parents_are_skipped() {
        let v = |i: u32| SparseVec {
            idx: vec![i],
            val: vec![1.0],
        };
        let labels: Vec<String> = ["a1", "a2", "b1"].iter().map(|s| s.to_string()).collect();
        let h = HierarchyConfig::parse("A=a1,a2", 0.5).unwrap();
        // a1: term 0, a2: term 1, b1 (ungrouped → own group): term 2
        let x = vec![v(0), v(1), v(2)];
        let y = [0, 1, 2];
        let m = HierKnn::fit(
            &h,
            &KnnConfig {
                k: 3,
                ..KnnConfig::default()
            },
            x,
            &y,
            &labels,
        )
        .unwrap();
        assert_eq!(m.names, vec!["A", "b1"]);
        // query term 2: A's centroid (0.707, 0.707, 0) → cosine 0 < 0.5 → pruned; only b1 remains
        let p = m.parents(&v(2));
        assert!(!p[0].2 && p[1].2);
        assert_eq!(m.neighbours(&v(2)), vec![(2, 1.0, 2)]);
        assert_eq!(m.scores(&v(0)), vec![1.0, 0.0, 0.0]);
        assert!(
            HierKnn::fit(
                &HierarchyConfig::parse("A=zz", 0.1).unwrap(),
                &KnnConfig::default(),
                vec![],
                &[],
                &labels
            )
            .is_err()
        );
        assert!(HierarchyConfig::parse("nonsense", 0.1).is_err());
    }
}
