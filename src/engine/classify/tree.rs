//! A decision tree over term presence (book ch. 11.4.5 (3) [L4230–L4240]).
//!
//! The book grows one binary tree per class, splitting on "does the document contain t?" until
//! every leaf is pure, with the split criterion left open (digest ⚠: information gain
//! suggested). Here one multi-class tree (CART style, as scikit-learn's reference
//! `DecisionTreeClassifier`) splits on presence of a term (value > 0), choosing the term with
//! the largest impurity decrease by `gini` (default, as the reference) or `entropy` (= the
//! book's information gain). Growth stops at a pure node, at `max_depth`, when a child would
//! hold fewer than `min_leaf` documents, or when no term separates the node (identical
//! documents with different labels → majority leaf, digest's suggestion). The per-class tree
//! of the book is not built (one multi-class tree answers the same question).
//!
//! ```
//! use tianwang::engine::classify::features::SparseVec;
//! use tianwang::engine::classify::tree::{Tree, TreeConfig};
//! let v = |i: u32| SparseVec { idx: vec![i], val: vec![1.0] };
//! let t = Tree::fit(&TreeConfig::default(), &[v(0), v(1)], &[0, 1], 2, 2);
//! assert_eq!(t.scores(&v(1)), vec![0.0, 1.0]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Criterion {
    Gini,
    Entropy,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeConfig {
    pub criterion: Criterion,
    /// 0 = unlimited (the book: split until pure).
    pub max_depth: usize,
    pub min_leaf: usize,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            criterion: Criterion::Gini,
            max_depth: 0,
            min_leaf: 1,
        }
    }
}

impl TreeConfig {
    pub fn new(criterion: Criterion, max_depth: usize, min_leaf: usize) -> Result<Self> {
        if min_leaf == 0 {
            return Err(EngineError::invalid("--min-leaf", "must be at least 1"));
        }
        Ok(TreeConfig {
            criterion,
            max_depth,
            min_leaf,
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Node {
    Leaf {
        counts: Vec<u32>,
    },
    Split {
        term: u32,
        present: usize,
        absent: usize,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tree {
    pub config: TreeConfig,
    pub n_classes: usize,
    pub nodes: Vec<Node>,
}

fn impurity(counts: &[u32], n: f64, crit: Criterion) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    match crit {
        Criterion::Gini => {
            1.0 - counts
                .iter()
                .map(|&c| (f64::from(c) / n).powi(2))
                .sum::<f64>()
        }
        Criterion::Entropy => -counts
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| {
                let p = f64::from(c) / n;
                p * p.ln()
            })
            .sum::<f64>(),
    }
}

impl Tree {
    pub fn fit(
        config: &TreeConfig,
        x: &[SparseVec],
        y: &[usize],
        n_classes: usize,
        n_features: usize,
    ) -> Tree {
        match Self::fit_cancellable(config, x, y, n_classes, n_features, &()) {
            Ok(t) => t,
            // `()` never cancels; an empty tree is the harmless answer all the same
            Err(_) => Tree {
                config: config.clone(),
                n_classes,
                nodes: vec![Node::Leaf {
                    counts: vec![0; n_classes],
                }],
            },
        }
    }

    /// [`Tree::fit`] reporting progress (nodes grown) every ~50 ms; `tick`'s error cancels.
    pub(crate) fn fit_cancellable(
        config: &TreeConfig,
        x: &[SparseVec],
        y: &[usize],
        n_classes: usize,
        n_features: usize,
        tick: &dyn Tick,
    ) -> Result<Tree> {
        let k = n_classes;
        let mut last = std::time::Instant::now();
        let mut nodes: Vec<Node> = Vec::new();
        // work item: (node slot, docs, depth)
        let root: Vec<u32> = (0..x.len() as u32).filter(|&d| y[d as usize] < k).collect();
        nodes.push(Node::Leaf { counts: vec![0; k] });
        let mut stack = vec![(0usize, root, 0usize)];
        let mut fc = vec![0u32; n_features * k]; // per term, class counts among docs with the term
        let mut fn_ = vec![0u32; n_features];
        let mut touched: Vec<u32> = Vec::new();
        while let Some((slot, docs, depth)) = stack.pop() {
            if last.elapsed().as_millis() >= 50 {
                tick.tick(0.5, &format!("tree: {} nodes", nodes.len()))?;
                last = std::time::Instant::now();
            }
            let mut counts = vec![0u32; k];
            for &d in &docs {
                counts[y[d as usize]] += 1;
            }
            let n = docs.len() as f64;
            let imp = impurity(&counts, n, config.criterion);
            let can_split = imp > 1e-12
                && (config.max_depth == 0 || depth < config.max_depth)
                && docs.len() >= 2 * config.min_leaf;
            let mut best: Option<(f64, u32)> = None;
            if can_split {
                for &d in &docs {
                    let c = y[d as usize];
                    for &t in &x[d as usize].idx {
                        let t = t as usize;
                        if t >= n_features {
                            continue;
                        }
                        if fn_[t] == 0 {
                            touched.push(t as u32);
                        }
                        fn_[t] += 1;
                        fc[t * k + c] += 1;
                    }
                }
                let mut right = vec![0u32; k];
                for &t in &touched {
                    let t = t as usize;
                    let nl = f64::from(fn_[t]);
                    let nr = n - nl;
                    if (fn_[t] as usize) >= config.min_leaf
                        && (nr as usize) >= config.min_leaf
                        && nr > 0.0
                    {
                        let left = &fc[t * k..(t + 1) * k];
                        for c in 0..k {
                            right[c] = counts[c] - left[c];
                        }
                        let gain = imp
                            - nl / n * impurity(left, nl, config.criterion)
                            - nr / n * impurity(&right, nr, config.criterion);
                        let better = match best {
                            None => gain > -1e-12,
                            Some((g, bt)) => {
                                gain > g + 1e-12 || ((gain - g).abs() <= 1e-12 && (t as u32) < bt)
                            }
                        };
                        // zero-gain splits are taken too (as scikit-learn's): the book splits
                        // until pure, and XOR-like patterns need a first split that gains nothing
                        if better {
                            best = Some((gain, t as u32));
                        }
                    }
                }
                for &t in &touched {
                    let t = t as usize;
                    fn_[t] = 0;
                    fc[t * k..(t + 1) * k].iter_mut().for_each(|v| *v = 0);
                }
                touched.clear();
            }
            match best {
                None => nodes[slot] = Node::Leaf { counts },
                Some((_, term)) => {
                    let (p, a): (Vec<u32>, Vec<u32>) = docs
                        .iter()
                        .partition(|&&d| x[d as usize].idx.binary_search(&term).is_ok());
                    let (ps, as_) = (nodes.len(), nodes.len() + 1);
                    nodes.push(Node::Leaf { counts: Vec::new() });
                    nodes.push(Node::Leaf { counts: Vec::new() });
                    nodes[slot] = Node::Split {
                        term,
                        present: ps,
                        absent: as_,
                    };
                    stack.push((as_, a, depth + 1));
                    stack.push((ps, p, depth + 1));
                }
            }
        }
        Ok(Tree {
            config: config.clone(),
            n_classes,
            nodes,
        })
    }

    /// The leaf reached by `x` and the (term, present?) tests on the way.
    pub fn path(&self, x: &SparseVec) -> (Vec<u32>, Vec<(u32, bool)>) {
        let mut i = 0;
        let mut steps = Vec::new();
        for _ in 0..=self.nodes.len() {
            match self.nodes.get(i) {
                Some(Node::Split {
                    term,
                    present,
                    absent,
                }) => {
                    let has = x.idx.binary_search(term).is_ok();
                    steps.push((*term, has));
                    i = if has { *present } else { *absent };
                }
                Some(Node::Leaf { counts }) => return (counts.clone(), steps),
                None => break,
            }
        }
        (vec![0; self.n_classes], steps)
    }

    /// The class shares of the leaf `x` reaches.
    pub fn scores(&self, x: &SparseVec) -> Vec<f64> {
        let (counts, _) = self.path(x);
        let n: u32 = counts.iter().sum();
        counts
            .iter()
            .map(|&c| {
                if n > 0 {
                    f64::from(c) / f64::from(n)
                } else {
                    0.0
                }
            })
            .collect()
    }

    pub fn depth(&self) -> usize {
        fn d(nodes: &[Node], i: usize, guard: usize) -> usize {
            match nodes.get(i) {
                Some(Node::Split {
                    present, absent, ..
                }) if guard > 0 => {
                    1 + d(nodes, *present, guard - 1).max(d(nodes, *absent, guard - 1))
                }
                _ => 0,
            }
        }
        d(&self.nodes, 0, 10_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_needs_two_levels_and_depth_limits() {
        let v = |ids: &[u32]| SparseVec {
            idx: ids.to_vec(),
            val: vec![1.0; ids.len()],
        };
        // class = a XOR b over terms 0 (a), 1 (b); term 2 is noise present everywhere
        let x = vec![v(&[2]), v(&[0, 2]), v(&[1, 2]), v(&[0, 1, 2])];
        let y = vec![0, 1, 1, 0];
        let t = Tree::fit(&TreeConfig::default(), &x, &y, 2, 3);
        // no single split gains anything, yet the tree must still reach pure leaves
        for (d, &c) in x.iter().zip(&y) {
            assert_eq!(t.scores(d)[c], 1.0);
        }
        assert_eq!(t.depth(), 2);
        // identical documents with different labels: a majority leaf
        let t = Tree::fit(
            &TreeConfig::default(),
            &[v(&[0]), v(&[0]), v(&[0])],
            &[0, 1, 1],
            2,
            3,
        );
        assert_eq!(t.nodes.len(), 1);
        assert!((t.scores(&v(&[0]))[1] - 2.0 / 3.0).abs() < 1e-12);
        let x2 = [x.clone(), vec![v(&[0])]].concat();
        let y2 = vec![0, 1, 1, 0, 1];
        let t = Tree::fit(&TreeConfig::default(), &x2, &y2, 2, 3);
        for (d, &c) in x2.iter().zip(&y2) {
            assert_eq!(t.scores(d)[c], 1.0, "training doc must be fitted exactly");
        }
        let t1 = Tree::fit(
            &TreeConfig {
                max_depth: 1,
                ..TreeConfig::default()
            },
            &x2,
            &y2,
            2,
            3,
        );
        assert_eq!(t1.depth(), 1);
    }
}
