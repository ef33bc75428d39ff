//! Naive Bayes (book ch. 11.4.5 (2) [L4210–L4228], formulas 11-11 and 11-12).
//!
//! Two event models and two estimators:
//! - **book mode** (`alpha = None`, `--alpha 0` or `--alpha book`): the book's estimate
//!   `P(a|c) = #docs of c containing a / #docs of c` [L4220–L4224], the product over the terms
//!   *present* in the document, in linear space, no smoothing. An unseen term zeroes a class
//!   and long products underflow — the digest's explanation of Table 11-2's 0.19 [L4250].
//! - **multinomial** with Lidstone α (Laplace α = 1, scikit-learn's `MultinomialNB` default):
//!   `log P(c) + Σ x_w log((N_cw + α)/(N_c + α|V|))` over the feature values (counts);
//! - **Bernoulli** with α: `P(w|c) = (df_cw + α)/(N_c + 2α)`, absent terms count too
//!   (scikit-learn's `BernoulliNB`).
//!
//! Training is one pass over the counts, O(m·n) [L4228].
//!
//! ```
//! use tianwang::engine::classify::features::SparseVec;
//! use tianwang::engine::classify::nb::{NaiveBayes, NbConfig, NbKind};
//! let v = |i: u32| SparseVec { idx: vec![i], val: vec![1.0] };
//! let nb = NaiveBayes::fit(&NbConfig { kind: NbKind::Multinomial, alpha: Some(1.0) }, &[v(0), v(1)], &[0, 1], 2, 2);
//! let s = nb.scores(&v(0));
//! assert!(s[0] > s[1]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::error::{EngineError, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NbKind {
    Multinomial,
    Bernoulli,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NbConfig {
    pub kind: NbKind,
    /// Lidstone α; `None` = the book's unsmoothed document-ratio mode.
    pub alpha: Option<f64>,
}

impl NbConfig {
    /// `alpha`: a number > 0, or `0` / `book` for the book's unsmoothed mode.
    pub fn new(kind: NbKind, alpha: &str) -> Result<NbConfig> {
        let a = alpha.trim();
        if a.eq_ignore_ascii_case("book") {
            return Ok(NbConfig { kind, alpha: None });
        }
        match a.parse::<f64>() {
            Ok(0.0) => Ok(NbConfig { kind, alpha: None }),
            Ok(x) if x.is_finite() && x > 0.0 && x <= 1e6 => Ok(NbConfig {
                kind,
                alpha: Some(x),
            }),
            _ => Err(EngineError::invalid(
                "--alpha",
                format!(
                    "`{alpha}`: a smoothing α in (0, 1e6], or 0/book for the unsmoothed book mode"
                ),
            )),
        }
    }
}

/// A fitted Naive Bayes model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NaiveBayes {
    pub config: NbConfig,
    pub n_classes: usize,
    pub n_features: usize,
    pub log_prior: Vec<f64>,
    /// Book mode: P(a|c) (linear); smoothed: log P(w|c). Row-major [class][term].
    pub table: Vec<f64>,
    /// Bernoulli: Σ_w log(1 − P(w|c)) per class.
    pub absent_sum: Vec<f64>,
}

impl NaiveBayes {
    pub fn fit(
        config: &NbConfig,
        x: &[SparseVec],
        y: &[usize],
        n_classes: usize,
        n_features: usize,
    ) -> NaiveBayes {
        let mut nc = vec![0f64; n_classes];
        let mut sums = vec![0f64; n_classes * n_features];
        let presence = config.alpha.is_none() || config.kind == NbKind::Bernoulli;
        for (d, &c) in x.iter().zip(y) {
            if c >= n_classes {
                continue;
            }
            nc[c] += 1.0;
            for (t, v) in d.iter() {
                if (t as usize) < n_features {
                    sums[c * n_features + t as usize] += if presence { 1.0 } else { f64::from(v) };
                }
            }
        }
        let n: f64 = nc.iter().sum();
        let log_prior = nc
            .iter()
            .map(|&k| {
                if n > 0.0 && k > 0.0 {
                    (k / n).ln()
                } else {
                    // Finite, so a stored model's JSON reads back (−∞ became null).
                    f64::MIN
                }
            })
            .collect();
        let mut absent_sum = vec![0f64; n_classes];
        let mut table = sums;
        for c in 0..n_classes {
            let row = &mut table[c * n_features..(c + 1) * n_features];
            match (config.alpha, config.kind) {
                (None, _) => {
                    for v in row.iter_mut() {
                        *v = if nc[c] > 0.0 { *v / nc[c] } else { 0.0 };
                    }
                }
                (Some(a), NbKind::Multinomial) => {
                    let total: f64 = row.iter().sum::<f64>() + a * n_features as f64;
                    for v in row.iter_mut() {
                        *v = ((*v + a) / total).ln();
                    }
                }
                (Some(a), NbKind::Bernoulli) => {
                    let mut s = 0.0;
                    for v in row.iter_mut() {
                        let p = (*v + a) / (nc[c] + 2.0 * a);
                        s += (1.0 - p).ln();
                        *v = p.ln();
                    }
                    absent_sum[c] = s;
                }
            }
        }
        NaiveBayes {
            config: config.clone(),
            n_classes,
            n_features,
            log_prior,
            table,
            absent_sum,
        }
    }

    fn cell(&self, c: usize, t: u32) -> f64 {
        self.table
            .get(c * self.n_features + t as usize)
            .copied()
            .unwrap_or(0.0)
    }

    /// Per class: the log joint probability (smoothed modes) or the linear-space product
    /// P(c)·Π P(a|c) (book mode).
    pub fn scores(&self, x: &SparseVec) -> Vec<f64> {
        (0..self.n_classes)
            .map(|c| match (self.config.alpha, self.config.kind) {
                (None, _) => {
                    let mut p = self.log_prior[c].exp();
                    for (t, _) in x.iter() {
                        if (t as usize) < self.n_features {
                            p *= self.cell(c, t);
                        }
                    }
                    p
                }
                (Some(_), NbKind::Multinomial) => {
                    self.log_prior[c]
                        + x.iter()
                            .map(|(t, v)| f64::from(v) * self.cell(c, t))
                            .sum::<f64>()
                }
                (Some(_), NbKind::Bernoulli) => {
                    let mut s = self.log_prior[c] + self.absent_sum[c];
                    for (t, _) in x.iter() {
                        let lp = self.cell(c, t);
                        s += lp - (1.0 - lp.exp()).ln();
                    }
                    s
                }
            })
            .collect()
    }

    /// Per-term contribution to class `a` over class `b` (log ratio × count), for explanations.
    pub(crate) fn contributions(&self, x: &SparseVec, a: usize, b: usize) -> Vec<(u32, f64)> {
        x.iter()
            .filter(|(t, _)| (*t as usize) < self.n_features)
            .map(|(t, v)| {
                let (pa, pb) = (self.cell(a, t), self.cell(b, t));
                let w = match self.config.alpha {
                    None => (pa.max(1e-300)).ln() - (pb.max(1e-300)).ln(),
                    Some(_) if self.config.kind == NbKind::Multinomial => f64::from(v) * (pa - pb),
                    Some(_) => (pa - (1.0 - pa.exp()).ln()) - (pb - (1.0 - pb.exp()).ln()),
                };
                (t, w)
            })
            .collect()
    }

    /// Posterior probabilities from `scores` (softmax of log scores; book mode normalises the
    /// products, all zero when every class was zeroed).
    pub(crate) fn posterior(&self, scores: &[f64]) -> Vec<f64> {
        if self.config.alpha.is_none() {
            let s: f64 = scores.iter().sum();
            return scores
                .iter()
                .map(|&v| if s > 0.0 { v / s } else { 0.0 })
                .collect();
        }
        let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !m.is_finite() {
            return vec![0.0; scores.len()];
        }
        let e: Vec<f64> = scores.iter().map(|&v| (v - m).exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|v| v / s).collect()
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

    /// Manning, Raghavan & Schütze, Introduction to IR, Example 13.1: Chinese/Japan.
    /// Terms: 0 Chinese, 1 Beijing, 2 Shanghai, 3 Macao, 4 Tokyo, 5 Japan. Class 0 = China.
    fn mrs() -> (Vec<SparseVec>, Vec<usize>) {
        (
            vec![
                v(&[(0, 2.0), (1, 1.0)]),
                v(&[(0, 2.0), (2, 1.0)]),
                v(&[(0, 1.0), (3, 1.0)]),
                v(&[(0, 1.0), (4, 1.0), (5, 1.0)]),
            ],
            vec![0, 0, 0, 1],
        )
    }

    #[test]
    fn multinomial_textbook_example() {
        let (x, y) = mrs();
        let nb = NaiveBayes::fit(
            &NbConfig {
                kind: NbKind::Multinomial,
                alpha: Some(1.0),
            },
            &x,
            &y,
            2,
            6,
        );
        // d5 = Chinese×3 Tokyo Japan: P(c)=3/4·(3/7)^3·(1/14)^2 ≈ 0.0003; P(j)=1/4·(2/9)^3·(2/9)^2 ≈ 0.0001
        let s = nb.scores(&v(&[(0, 3.0), (4, 1.0), (5, 1.0)]));
        let want_c = 0.75 * (3.0f64 / 7.0).powi(3) * (1.0f64 / 14.0).powi(2);
        let want_j = 0.25 * (2.0f64 / 9.0).powi(5);
        assert!((s[0] - want_c.ln()).abs() < 1e-9, "{s:?}");
        assert!((s[1] - want_j.ln()).abs() < 1e-9);
        assert!(s[0] > s[1]);
    }

    #[test]
    fn bernoulli_textbook_example() {
        let (x, y) = mrs();
        let nb = NaiveBayes::fit(
            &NbConfig {
                kind: NbKind::Bernoulli,
                alpha: Some(1.0),
            },
            &x,
            &y,
            2,
            6,
        );
        // MRS Example 13.2: P(c|d5) ∝ 0.005, P(j|d5) ∝ 0.022 → Japan.
        let s = nb.scores(&v(&[(0, 3.0), (4, 1.0), (5, 1.0)]));
        let pc = 0.75
            * (4.0 / 5.0)
            * (1.0 / 5.0)
            * (1.0 / 5.0)
            * (1.0 - 2.0 / 5.0)
            * (1.0 - 2.0 / 5.0)
            * (1.0 - 2.0 / 5.0);
        let pj = 0.25
            * (2.0 / 3.0)
            * (2.0 / 3.0)
            * (2.0 / 3.0)
            * (1.0 - 1.0 / 3.0)
            * (1.0 - 1.0 / 3.0)
            * (1.0 - 1.0 / 3.0);
        assert!(
            (s[0] - f64::ln(pc)).abs() < 1e-9 && (s[1] - f64::ln(pj)).abs() < 1e-9,
            "{s:?}"
        );
        assert!(s[1] > s[0]);
    }

    #[test]
    fn book_mode_zeroes_unseen_terms() {
        let (x, y) = mrs();
        let nb = NaiveBayes::fit(
            &NbConfig {
                kind: NbKind::Multinomial,
                alpha: None,
            },
            &x,
            &y,
            2,
            6,
        );
        // Chinese + Tokyo: China never saw Tokyo → 0; Japan: 1/4 · 1 · 1
        let s = nb.scores(&v(&[(0, 1.0), (4, 1.0)]));
        assert_eq!(s[0], 0.0);
        assert!((s[1] - 0.25).abs() < 1e-12);
        // Chinese + Beijing: China 3/4 · 3/3 · 1/3 = 0.25; Japan 1/4 · 1 · 0 = 0
        let s = nb.scores(&v(&[(0, 1.0), (1, 1.0)]));
        assert!((s[0] - 0.25).abs() < 1e-12 && s[1] == 0.0);
        assert_eq!(nb.posterior(&s), vec![1.0, 0.0]);
    }

    #[test]
    fn alpha_parsing() {
        assert!(
            NbConfig::new(NbKind::Multinomial, "0")
                .unwrap()
                .alpha
                .is_none()
        );
        assert_eq!(
            NbConfig::new(NbKind::Multinomial, "0.5").unwrap().alpha,
            Some(0.5)
        );
        assert!(NbConfig::new(NbKind::Multinomial, "-1").is_err());
        assert!(NbConfig::new(NbKind::Multinomial, "nan").is_err());
    }
}
