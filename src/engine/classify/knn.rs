//! k nearest neighbours (book ch. 11.4.5 (1) [L4196–L4208], formula 11-9/11-10).
//!
//! The score of class `c` for a document `x` is the sum of the similarities of the `k` nearest
//! training documents that belong to `c` (11-9, with `b_j` applied later by SCut); with
//! `weighted = false` each neighbour counts 1 (scikit-learn's uniform vote). Similarities:
//! - `cosine` (11-10) — the book's "兰式" row is cosine (digest ⚠ §11.4.7), the default;
//! - `euclidean`: nearest by Euclidean distance `d`, vote `1/(1+d)`;
//! - `canberra`: the true Canberra distance `Σ|x−y|/(|x|+|y|)`, vote `1/(1+d)`.
//!
//! All three run over an inverted index of the training vectors: a query touches only the
//! postings of its own terms (dot products, shared-term counts), and the distance of the
//! untouched documents follows from their norms / sizes. Training is storing (lazy learning,
//! [L4208]). Book defaults: k = 15 (Table 11-6 [L4351]; the baseline used 20 [L4057]).
//!
//! ```
//! use tianwang::engine::classify::features::SparseVec;
//! use tianwang::engine::classify::knn::{Knn, KnnConfig};
//! let v = |i: u32| SparseVec { idx: vec![i], val: vec![1.0] };
//! let knn = Knn::fit(&KnnConfig { k: 1, ..KnnConfig::default() }, vec![v(0), v(1)], vec![0, 1], 2);
//! assert_eq!(knn.scores(&v(1)), vec![0.0, 1.0]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::error::{EngineError, Result};

/// How closeness is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Similarity {
    Cosine,
    Euclidean,
    Canberra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnnConfig {
    pub k: usize,
    pub similarity: Similarity,
    /// Sum similarities (the book) rather than count neighbours.
    pub weighted: bool,
}

impl Default for KnnConfig {
    fn default() -> Self {
        KnnConfig {
            k: 15,
            similarity: Similarity::Cosine,
            weighted: true,
        }
    }
}

impl KnnConfig {
    pub fn new(k: usize, similarity: Similarity, weighted: bool) -> Result<Self> {
        if k == 0 || k > 100_000 {
            return Err(EngineError::invalid("--k", "must be between 1 and 100000"));
        }
        Ok(KnnConfig {
            k,
            similarity,
            weighted,
        })
    }
}

/// A stored training set with its inverted index.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Knn {
    pub config: KnnConfig,
    pub n_classes: usize,
    pub train: Vec<SparseVec>,
    pub y: Vec<usize>,
    #[serde(skip)]
    norms2: Vec<f64>,
    /// postings[term] = (doc, value)
    #[serde(skip)]
    postings: Vec<Vec<(u32, f32)>>,
}

impl Knn {
    pub fn fit(config: &KnnConfig, train: Vec<SparseVec>, y: Vec<usize>, n_classes: usize) -> Knn {
        let mut k = Knn {
            config: config.clone(),
            n_classes,
            train,
            y,
            norms2: Vec::new(),
            postings: Vec::new(),
        };
        k.build_index();
        k
    }

    /// Builds the inverted index (after `fit` and after loading).
    pub(crate) fn build_index(&mut self) {
        let n_terms = self
            .train
            .iter()
            .filter_map(|d| d.idx.last())
            .max()
            .map_or(0, |&m| m as usize + 1);
        let mut postings = vec![Vec::new(); n_terms];
        for (d, v) in self.train.iter().enumerate() {
            for (t, x) in v.iter() {
                postings[t as usize].push((d as u32, x));
            }
        }
        self.postings = postings;
        self.norms2 = self.train.iter().map(|v| v.norm2()).collect();
    }

    /// The `k` nearest training documents: (index, similarity), best first.
    pub fn neighbours(&self, x: &SparseVec) -> Vec<(usize, f64)> {
        let n = self.train.len();
        let mut dot = vec![0f64; n];
        let mut shared = vec![0u32; n];
        let mut ratio = vec![0f64; n];
        let mut touched: Vec<u32> = Vec::new();
        let canberra = self.config.similarity == Similarity::Canberra;
        for (t, xv) in x.iter() {
            let Some(list) = self.postings.get(t as usize) else {
                continue;
            };
            for &(d, dv) in list {
                let di = d as usize;
                if shared[di] == 0 {
                    touched.push(d);
                }
                shared[di] += 1;
                dot[di] += f64::from(xv) * f64::from(dv);
                if canberra {
                    let den = (xv.abs() + dv.abs()) as f64;
                    if den > 0.0 {
                        ratio[di] += f64::from((xv - dv).abs()) / den;
                    }
                }
            }
        }
        let nx2 = x.norm2();
        let mut cand: Vec<(usize, f64)> = match self.config.similarity {
            Similarity::Cosine => touched
                .iter()
                .map(|&d| {
                    let d = d as usize;
                    let den = (nx2 * self.norms2.get(d).copied().unwrap_or(0.0)).sqrt();
                    (d, if den > 0.0 { dot[d] / den } else { 0.0 })
                })
                .collect(),
            Similarity::Euclidean => (0..n)
                .map(|d| {
                    let d2 =
                        (nx2 + self.norms2.get(d).copied().unwrap_or(0.0) - 2.0 * dot[d]).max(0.0);
                    (d, 1.0 / (1.0 + d2.sqrt()))
                })
                .collect(),
            Similarity::Canberra => (0..n)
                .map(|d| {
                    let nx = x.len() as f64;
                    let ny = self.train.get(d).map_or(0, |v| v.len()) as f64;
                    let s = f64::from(shared[d]);
                    let dist = nx + ny - 2.0 * s + ratio[d];
                    (d, 1.0 / (1.0 + dist))
                })
                .collect(),
        };
        let k = self.config.k.min(cand.len());
        let cmp = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if k < cand.len() && k > 0 {
            cand.select_nth_unstable_by(k - 1, cmp);
            cand.truncate(k);
        }
        cand.sort_by(cmp);
        cand.truncate(k);
        cand
    }

    /// Summed similarity (or neighbour count) per class.
    pub fn scores(&self, x: &SparseVec) -> Vec<f64> {
        let mut s = vec![0f64; self.n_classes];
        for (d, sim) in self.neighbours(x) {
            if let Some(c) = self.y.get(d).and_then(|&c| s.get_mut(c)) {
                *c += if self.config.weighted { sim } else { 1.0 };
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(pairs: &[(u32, f32)]) -> SparseVec {
        SparseVec {
            idx: pairs.iter().map(|p| p.0).collect(),
            val: pairs.iter().map(|p| p.1).collect(),
        }
    }

    #[test]
    fn cosine_votes_by_hand() {
        // train: A=(1,0) c0, B=(1,1) c1, C=(0,1) c1; query (1,0.5)
        let train = vec![v(&[(0, 1.0)]), v(&[(0, 1.0), (1, 1.0)]), v(&[(1, 1.0)])];
        let knn = Knn::fit(
            &KnnConfig {
                k: 2,
                ..KnnConfig::default()
            },
            train.clone(),
            vec![0, 1, 1],
            2,
        );
        let q = v(&[(0, 1.0), (1, 0.5)]);
        let nq = (1.25f64).sqrt();
        // cos(q,A)=1/nq=0.894, cos(q,B)=1.5/(nq·√2)=0.949, cos(q,C)=0.5/nq=0.447
        let nb = knn.neighbours(&q);
        assert_eq!(nb.iter().map(|p| p.0).collect::<Vec<_>>(), vec![1, 0]);
        let s = knn.scores(&q);
        assert!((s[0] - 1.0 / nq).abs() < 1e-6 && (s[1] - 1.5 / (nq * 2f64.sqrt())).abs() < 1e-6);
        // k = 3: class 1 gets B + C = 0.949 + 0.447 > 0.894
        let knn3 = Knn::fit(
            &KnnConfig {
                k: 3,
                ..KnnConfig::default()
            },
            train.clone(),
            vec![0, 1, 1],
            2,
        );
        let s3 = knn3.scores(&q);
        assert!(s3[1] > s3[0]);
        // uniform votes with k = 3: 1 vs 2
        let u = Knn::fit(
            &KnnConfig {
                k: 3,
                weighted: false,
                ..KnnConfig::default()
            },
            train,
            vec![0, 1, 1],
            2,
        );
        assert_eq!(u.scores(&q), vec![1.0, 2.0]);
    }

    #[test]
    fn euclidean_and_canberra_by_hand() {
        // A=(2,0) c0, B=(0,1) c1; query (1,1): Euclidean dA=√2, dB=1 → B nearest.
        let train = vec![v(&[(0, 2.0)]), v(&[(1, 1.0)])];
        let cfg = KnnConfig {
            k: 1,
            similarity: Similarity::Euclidean,
            weighted: true,
        };
        let knn = Knn::fit(&cfg, train.clone(), vec![0, 1], 2);
        let q = v(&[(0, 1.0), (1, 1.0)]);
        assert_eq!(knn.neighbours(&q)[0].0, 1);
        assert!((knn.scores(&q)[1] - 0.5).abs() < 1e-9);
        // Canberra: d(q,A) = |1-2|/3 + 1 = 4/3; d(q,B) = 1 + 0 = 1 → B, vote 1/2.
        let cfg = KnnConfig {
            k: 2,
            similarity: Similarity::Canberra,
            weighted: true,
        };
        let knn = Knn::fit(&cfg, train, vec![0, 1], 2);
        let nb = knn.neighbours(&q);
        assert_eq!(nb[0].0, 1);
        assert!((nb[1].1 - 1.0 / (1.0 + 4.0 / 3.0)).abs() < 1e-9);
    }
}
