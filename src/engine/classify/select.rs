//! Feature selection: DF, IG, MI and CHI (book ch. 11.4.4 [L4133–L4188]).
//!
//! All four are computed from document-level presence counts per term `t` and class `c`:
//! `A` = docs in `c` containing `t`, `B` = docs not in `c` containing `t`, `C` = docs in `c`
//! without `t`, `D` = the rest, `N = A+B+C+D`.
//! - DF [L4147–L4151]: the number of training docs containing `t`.
//! - IG (11-4) [L4153–L4159]: `H(C) − P(t)·H(C|t) − P(¬t)·H(C|¬t)`, natural log, 0·log 0 = 0.
//! - MI (11-5) [L4161–L4167]: `log(A·N / ((A+C)(A+B)))` per class; classes with `A = 0`
//!   (where MI is −∞) are left out of the combination (the digest's suggestion).
//! - CHI (11-8) [L4169–L4175]: `N(AD−CB)² / ((A+C)(B+D)(A+B)(C+D))` per class (0 when a
//!   margin is empty).
//!
//! MI and CHI are per class; [`Combine`] turns them into one score: `mean` (the book's
//! "average"), `max`, or the prior-weighted mean (Yang & Pedersen). Terms are ranked by score,
//! ties by term id, and the top `n` or top `x %` are kept ([`Keep`]).
//!
//! ```
//! use tianwang::engine::classify::features::SparseVec;
//! use tianwang::engine::classify::select::{score_terms, Combine, Method};
//! let docs = vec![SparseVec { idx: vec![0], val: vec![1.0] }, SparseVec { idx: vec![1], val: vec![1.0] }];
//! let s = score_terms(Method::Df, Combine::Mean, &docs, &[0, 1], 2, 2);
//! assert_eq!(s, vec![1.0, 1.0]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::features::SparseVec;
use crate::engine::error::{EngineError, Flaw, Result};

/// A feature-selection criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Df,
    Ig,
    Mi,
    Chi,
}

/// How per-class MI/CHI scores become one score per term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    /// Simple mean over classes (the book).
    Mean,
    /// Maximum over classes.
    Max,
    /// Mean weighted by the class priors.
    Weighted,
}

/// How many ranked terms to keep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Keep {
    All,
    Top(usize),
    Percent(f64),
}

impl Keep {
    /// Parses `N` or `X%` (as `--keep` takes it); `all` keeps everything.
    pub fn parse(s: &str) -> Result<Keep> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("all") {
            return Ok(Keep::All);
        }
        if let Some(p) = s.strip_suffix('%') {
            let x: f64 = p.trim().parse().map_err(|_| {
                EngineError::invalid_flaw("--keep", Flaw::new("flaw.param_not_keep", &[&s]))
            })?;
            if !(x > 0.0 && x <= 100.0) {
                return Err(EngineError::invalid_flaw(
                    "--keep",
                    Flaw::new("flaw.param_keep_percent", &[]),
                ));
            }
            return Ok(Keep::Percent(x));
        }
        match s.parse::<usize>() {
            Ok(n) if n > 0 => Ok(Keep::Top(n)),
            _ => Err(EngineError::invalid_flaw(
                "--keep",
                Flaw::new("flaw.param_not_keep_or_all", &[&s]),
            )),
        }
    }
    /// How many of `total` terms this keeps (at least 1 when `total > 0`).
    pub fn count(&self, total: usize) -> usize {
        let n = match *self {
            Keep::All => total,
            Keep::Top(n) => n,
            Keep::Percent(x) => ((total as f64) * x / 100.0).round() as usize,
        };
        n.clamp(total.min(1), total)
    }
}

/// `A[t][c]` (docs of class c containing t) for every term, plus the class sizes.
fn presence_counts(
    docs: &[SparseVec],
    y: &[usize],
    n_terms: usize,
    n_classes: usize,
) -> (Vec<u32>, Vec<u32>) {
    let mut a = vec![0u32; n_terms * n_classes];
    let mut nc = vec![0u32; n_classes];
    for (d, &c) in docs.iter().zip(y) {
        if c >= n_classes {
            continue;
        }
        nc[c] += 1;
        for &t in &d.idx {
            if let Some(x) = a.get_mut(t as usize * n_classes + c) {
                *x += 1;
            }
        }
    }
    (a, nc)
}

fn xlogx(p: f64) -> f64 {
    if p > 0.0 { p * p.ln() } else { 0.0 }
}

fn combine(vals: &[(f64, f64)], how: Combine) -> f64 {
    // (score, prior)
    if vals.is_empty() {
        return f64::NEG_INFINITY;
    }
    match how {
        Combine::Mean => vals.iter().map(|v| v.0).sum::<f64>() / vals.len() as f64,
        Combine::Max => vals.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max),
        Combine::Weighted => {
            let w: f64 = vals.iter().map(|v| v.1).sum();
            if w > 0.0 {
                vals.iter().map(|v| v.0 * v.1).sum::<f64>() / w
            } else {
                0.0
            }
        }
    }
}

/// One score per term (higher = more useful) from presence counts of `docs` labelled `y`.
pub fn score_terms(
    method: Method,
    how: Combine,
    docs: &[SparseVec],
    y: &[usize],
    n_terms: usize,
    n_classes: usize,
) -> Vec<f64> {
    let (a, nc) = presence_counts(docs, y, n_terms, n_classes);
    let n: f64 = nc.iter().map(|&x| f64::from(x)).sum();
    if n == 0.0 {
        return vec![0.0; n_terms];
    }
    let h_c: f64 = -nc.iter().map(|&x| xlogx(f64::from(x) / n)).sum::<f64>();
    let mut out = Vec::with_capacity(n_terms);
    let mut per_class = Vec::with_capacity(n_classes);
    for t in 0..n_terms {
        let row = &a[t * n_classes..(t + 1) * n_classes];
        let df: f64 = row.iter().map(|&x| f64::from(x)).sum();
        let score = match method {
            Method::Df => df,
            Method::Ig => {
                let pt = df / n;
                let mut s_t = 0.0;
                let mut s_nt = 0.0;
                for (c, &ac) in row.iter().enumerate() {
                    let ac = f64::from(ac);
                    if df > 0.0 {
                        s_t += xlogx(ac / df);
                    }
                    if n - df > 0.0 {
                        s_nt += xlogx((f64::from(nc[c]) - ac) / (n - df));
                    }
                }
                h_c + pt * s_t + (1.0 - pt) * s_nt
            }
            Method::Mi | Method::Chi => {
                per_class.clear();
                for (c, &ac) in row.iter().enumerate() {
                    let aa = f64::from(ac);
                    let b = df - aa;
                    let cc = f64::from(nc[c]) - aa;
                    let d = n - aa - b - cc;
                    let prior = f64::from(nc[c]) / n;
                    if method == Method::Mi {
                        if aa > 0.0 {
                            per_class.push((((aa * n) / ((aa + cc) * (aa + b))).ln(), prior));
                        }
                    } else {
                        let den = (aa + cc) * (b + d) * (aa + b) * (cc + d);
                        let chi = if den > 0.0 {
                            n * (aa * d - cc * b).powi(2) / den
                        } else {
                            0.0
                        };
                        per_class.push((chi, prior));
                    }
                }
                combine(&per_class, how)
            }
        };
        out.push(score);
    }
    out
}

/// The ids of the kept terms (ascending id order), ranked by score then id.
pub fn select(scores: &[f64], keep: Keep) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..scores.len() as u32).collect();
    ids.sort_by(|&i, &j| {
        scores[j as usize]
            .total_cmp(&scores[i as usize])
            .then(i.cmp(&j))
    });
    ids.truncate(keep.count(scores.len()));
    ids.sort_unstable();
    ids
}

#[cfg(test)]
mod tests;
