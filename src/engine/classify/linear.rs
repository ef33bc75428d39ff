//! A linear SVM (one-vs-rest, L2-regularised squared hinge loss) trained by dual coordinate
//! descent (Hsieh et al. 2008 — liblinear's default solver, i.e. scikit-learn's `LinearSVC`).
//!
//! Not in the book: ch. 11 only cites SVM through Yang & Liu 1999 [L4248] ("SVM, kNN and LLSF ≫
//! NNet and NB"); it is here as the peers' strongest baseline. Each class gets a weight vector
//! plus a bias (a constant feature of value 1, liblinear's `-B 1`); the visiting order of the
//! coordinates is shuffled each epoch by a seeded generator, so a seed fixes the model. Stops
//! when the projected-gradient spread falls below `tol` (liblinear's 0.1) or after `max_epochs`.
//! Logistic regression is not implemented.
//!
//! ```
//! use tianwang::engine::classify::features::SparseVec;
//! use tianwang::engine::classify::linear::{LinearConfig, LinearSvm};
//! let v = |i: u32| SparseVec { idx: vec![i], val: vec![1.0] };
//! let m = LinearSvm::fit(&LinearConfig::default(), &[v(0), v(1)], &[0, 1], 2, 2);
//! assert!(m.scores(&v(0))[0] > m.scores(&v(0))[1]);
//! ```

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearConfig {
    /// Penalty C (liblinear default 1).
    pub c: f64,
    pub max_epochs: usize,
    pub tol: f64,
    pub seed: u64,
}

impl Default for LinearConfig {
    fn default() -> Self {
        LinearConfig {
            c: 1.0,
            max_epochs: 1000,
            tol: 0.1,
            seed: 0,
        }
    }
}

impl LinearConfig {
    pub fn new(c: f64, seed: u64) -> Result<Self> {
        if !(c.is_finite() && c > 0.0) {
            return Err(EngineError::invalid("--c", "must be a positive number"));
        }
        Ok(LinearConfig {
            c,
            seed,
            ..LinearConfig::default()
        })
    }
}

pub use crate::engine::rng::Rng;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinearSvm {
    pub config: LinearConfig,
    pub n_features: usize,
    /// Per class: n_features weights then the bias.
    pub weights: Vec<Vec<f64>>,
    /// Epochs used per class.
    pub epochs: Vec<usize>,
}

fn train_binary(
    x: &[SparseVec],
    pos: &[bool],
    nf: usize,
    cfg: &LinearConfig,
    seed: u64,
    tick: &dyn Tick,
) -> Result<(Vec<f64>, usize)> {
    let n = x.len();
    let d_ii = 1.0 / (2.0 * cfg.c);
    let q: Vec<f64> = x.iter().map(|v| v.norm2() + 1.0 + d_ii).collect();
    let mut w = vec![0f64; nf + 1];
    let mut alpha = vec![0f64; n];
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(seed);
    let mut epochs = 0;
    let mut last = std::time::Instant::now();
    for _ in 0..cfg.max_epochs {
        if last.elapsed().as_millis() >= 50 {
            tick.tick(0.5, &format!("svm: epoch {epochs}"))?;
            last = std::time::Instant::now();
        }
        epochs += 1;
        rng.shuffle(&mut order);
        let (mut max_pg, mut min_pg) = (f64::NEG_INFINITY, f64::INFINITY);
        for &i in &order {
            let yi = if pos[i] { 1.0 } else { -1.0 };
            let wx = x[i].dot_dense(&w) + w[nf];
            let g = yi * wx - 1.0 + d_ii * alpha[i];
            let pg = if alpha[i] == 0.0 { g.min(0.0) } else { g };
            max_pg = max_pg.max(pg);
            min_pg = min_pg.min(pg);
            if pg.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = (alpha[i] - g / q[i]).max(0.0);
                let delta = (alpha[i] - old) * yi;
                for (t, v) in x[i].iter() {
                    if let Some(wt) = w.get_mut(t as usize) {
                        *wt += delta * f64::from(v);
                    }
                }
                w[nf] += delta;
            }
        }
        if max_pg - min_pg <= cfg.tol {
            break;
        }
    }
    Ok((w, epochs))
}

impl LinearSvm {
    pub fn fit(
        cfg: &LinearConfig,
        x: &[SparseVec],
        y: &[usize],
        n_classes: usize,
        n_features: usize,
    ) -> LinearSvm {
        match Self::fit_cancellable(cfg, x, y, n_classes, n_features, &()) {
            Ok(m) => m,
            // `()` never cancels; a zero model is the harmless answer all the same
            Err(_) => LinearSvm {
                config: cfg.clone(),
                n_features,
                weights: vec![vec![0.0; n_features + 1]; n_classes],
                epochs: vec![0; n_classes],
            },
        }
    }

    /// [`LinearSvm::fit`] reporting progress every ~50 ms; `tick`'s error cancels.
    pub(crate) fn fit_cancellable(
        cfg: &LinearConfig,
        x: &[SparseVec],
        y: &[usize],
        n_classes: usize,
        n_features: usize,
        tick: &dyn Tick,
    ) -> Result<LinearSvm> {
        let res: Vec<(Vec<f64>, usize)> = (0..n_classes)
            .into_par_iter()
            .map(|c| {
                let pos: Vec<bool> = y.iter().map(|&l| l == c).collect();
                train_binary(
                    x,
                    &pos,
                    n_features,
                    cfg,
                    cfg.seed ^ (c as u64).wrapping_mul(0x9E37),
                    tick,
                )
            })
            .collect::<Result<_>>()?;
        let (weights, epochs) = res.into_iter().unzip();
        Ok(LinearSvm {
            config: cfg.clone(),
            n_features,
            weights,
            epochs,
        })
    }

    /// Decision value per class.
    pub fn scores(&self, x: &SparseVec) -> Vec<f64> {
        self.weights
            .iter()
            .map(|w| {
                x.dot_dense(&w[..self.n_features.min(w.len())]) + w.last().copied().unwrap_or(0.0)
            })
            .collect()
    }

    /// weight × value per term of `x` for class `c`.
    pub(crate) fn contributions(&self, x: &SparseVec, c: usize) -> Vec<(u32, f64)> {
        let Some(w) = self.weights.get(c) else {
            return Vec::new();
        };
        x.iter()
            .filter(|(t, _)| (*t as usize) < self.n_features)
            .map(|(t, v)| (t, w[t as usize] * f64::from(v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separable_and_deterministic() {
        let v = |ids: &[u32]| SparseVec {
            idx: ids.to_vec(),
            val: vec![1.0; ids.len()],
        };
        let x = vec![v(&[0, 2]), v(&[0, 3]), v(&[1, 2]), v(&[1, 3]), v(&[0])];
        let y = vec![0, 0, 1, 1, 0];
        let cfg = LinearConfig {
            seed: 7,
            ..LinearConfig::default()
        };
        let a = LinearSvm::fit(&cfg, &x, &y, 2, 4);
        let b = LinearSvm::fit(&cfg, &x, &y, 2, 4);
        assert_eq!(a.weights, b.weights);
        for (d, &c) in x.iter().zip(&y) {
            let s = a.scores(d);
            assert!(s[c] > s[1 - c]);
        }
        let mut r = Rng::new(1);
        let mut p: Vec<u32> = (0..10).collect();
        r.shuffle(&mut p);
        let mut q = p.clone();
        q.sort();
        assert_eq!(q, (0..10).collect::<Vec<_>>());
    }
}
