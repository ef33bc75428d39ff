//! Thresholding an m-ary classifier's ranked class list (book ch. 11.4.8 [L4317–L4349],
//! Yang 2001).
//!
//! - `none`: the single best class (the book's baseline [L4058]).
//! - RCut(k) [L4321–L4325]: the top `k` classes of each document (the book's best R = 1).
//! - PCut(x) [L4327–L4329]: for class `i`, the `round(n · P_i · x)` test documents that score
//!   highest for it (`P_i` the class's training share); needs the whole test batch.
//! - SCut [L4331–L4333]: per-class thresholds `b_j` chosen on a validation split (80/20 of the
//!   training set, seeded — digest's suggestion) to maximise the class's F1; at test time a
//!   class is assigned when its score exceeds `b_j`; a document left with no class gets its
//!   top-1 class (digest's fallback, not in the book). Thresholds are learned with a model
//!   trained on the 80 % part and applied to the model trained on the whole training set.
//!
//! ```
//! use tianwang::engine::classify::threshold::scut_thresholds;
//! // one class: validation scores 0.9 (pos), 0.6 (neg), 0.4 (pos), 0.1 (neg)
//! let b = scut_thresholds(&[vec![0.9], vec![0.6], vec![0.4], vec![0.1]], &[0, 1, 0, 1], 1);
//! assert!(b[0] > 0.1 && b[0] < 0.4);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Threshold {
    None,
    RCut { k: usize },
    PCut { x: f64 },
    SCut { validation: f64 },
}

impl Threshold {
    /// From the CLI: `none|rcut|pcut|scut` with `--rank` / `--pcut-x` / `--validation`.
    pub fn new(kind: &str, rank: usize, pcut_x: f64, validation: f64) -> Result<Threshold> {
        match kind {
            "none" => Ok(Threshold::None),
            "rcut" if rank >= 1 => Ok(Threshold::RCut { k: rank }),
            "rcut" => Err(EngineError::invalid("--rank", "must be at least 1")),
            "pcut" if pcut_x.is_finite() && pcut_x > 0.0 => Ok(Threshold::PCut { x: pcut_x }),
            "pcut" => Err(EngineError::invalid(
                "--pcut-x",
                "must be a positive number",
            )),
            "scut" if validation > 0.0 && validation < 1.0 => Ok(Threshold::SCut { validation }),
            "scut" => Err(EngineError::invalid("--validation", "must be in (0, 1)")),
            other => Err(EngineError::invalid(
                "--threshold",
                format!("`{other}`: expected none, rcut, pcut or scut"),
            )),
        }
    }
}

/// Classes by score, best first (ties by class id).
pub fn ranked(scores: &[f64]) -> Vec<usize> {
    let mut r: Vec<usize> = (0..scores.len()).collect();
    r.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    r
}

/// Per-class SCut thresholds from validation `scores` (one row per doc) and true classes.
/// A class with no validation positives gets +∞ (never assigned by threshold).
pub fn scut_thresholds(scores: &[Vec<f64>], truth: &[usize], n_classes: usize) -> Vec<f64> {
    (0..n_classes)
        .map(|c| {
            let mut col: Vec<(f64, bool)> = scores
                .iter()
                .zip(truth)
                .map(|(s, &t)| (s.get(c).copied().unwrap_or(f64::NEG_INFINITY), t == c))
                .collect();
            let positives = col.iter().filter(|p| p.1).count();
            // Thresholds are finite: a result (and a stored model) is JSON, where ±∞ became
            // null and no longer read back (issue 29: SCut with a class that has no
            // validation positives exited 1). f64::MAX is never exceeded by a finite score.
            if positives == 0 {
                return f64::MAX;
            }
            col.sort_by(|a, b| b.0.total_cmp(&a.0));
            let (mut tp, mut best_f1, mut best_i) = (0usize, -1.0f64, 0usize);
            for (i, &(s, pos)) in col.iter().enumerate() {
                if pos {
                    tp += 1;
                }
                // assign the top i+1 (only where the next score differs: a threshold can't split ties)
                let next = col.get(i + 1).map(|p| p.0);
                if next == Some(s) {
                    continue;
                }
                let f1 = 2.0 * tp as f64 / ((i + 1) as f64 + positives as f64);
                if f1 > best_f1 {
                    best_f1 = f1;
                    best_i = i;
                }
            }
            let s = col[best_i].0;
            match col.get(best_i + 1) {
                Some(&(next, _)) if next.is_finite() && s.is_finite() => (s + next) / 2.0,
                _ if s.is_finite() => s - 1e-9 * s.abs().max(1.0),
                _ => f64::MIN,
            }
        })
        .collect()
}

/// Applies a strategy to a batch of score rows; `thresholds` for SCut, `priors` for PCut.
pub(crate) fn assign(
    th: &Threshold,
    scores: &[Vec<f64>],
    thresholds: &[f64],
    priors: &[f64],
) -> Vec<Vec<usize>> {
    match th {
        Threshold::None => scores
            .iter()
            .map(|s| ranked(s).into_iter().take(1).collect())
            .collect(),
        Threshold::RCut { k } => scores
            .iter()
            .map(|s| ranked(s).into_iter().take(*k).collect())
            .collect(),
        Threshold::SCut { .. } => scores
            .iter()
            .map(|s| {
                let mut v: Vec<usize> = (0..s.len())
                    .filter(|&c| thresholds.get(c).is_some_and(|&b| s[c] > b))
                    .collect();
                if v.is_empty() {
                    v = ranked(s).into_iter().take(1).collect();
                }
                v.sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
                v
            })
            .collect(),
        Threshold::PCut { x } => {
            let n = scores.len();
            let mut out = vec![Vec::new(); n];
            for (c, &p) in priors.iter().enumerate() {
                let take = ((n as f64) * p * x).round().max(0.0) as usize;
                let mut docs: Vec<usize> = (0..n).collect();
                docs.sort_by(|&a, &b| {
                    let sa = scores[a].get(c).copied().unwrap_or(f64::NEG_INFINITY);
                    let sb = scores[b].get(c).copied().unwrap_or(f64::NEG_INFINITY);
                    sb.total_cmp(&sa).then(a.cmp(&b))
                });
                for &d in docs.iter().take(take) {
                    out[d].push(c);
                }
            }
            for (d, v) in out.iter_mut().enumerate() {
                let s = &scores[d];
                v.sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scut_on_a_crafted_validation_set() {
        // class 0 scores: pos at 0.9, 0.7, 0.3; neg at 0.8, 0.2 → candidate cuts:
        // top1 F1=2·1/(1+3)=.5; top2 (0.9,0.8) 2/5=.4; top3 (…,0.7) 4/6=.667; top4 (…0.3) 6/7=.857; top5 6/8=.75
        // → assign down to 0.3: threshold halfway between 0.3 and 0.2 = 0.25.
        // class 1 = the complement with scores 1 − s0: pos at 0.8 and 0.2 (docs 1 and 4).
        let s0 = [0.9, 0.8, 0.7, 0.3, 0.2];
        let truth = [0, 1, 0, 0, 1];
        let rows: Vec<Vec<f64>> = s0.iter().map(|&a| vec![a, 1.0 - a]).collect();
        let b = scut_thresholds(&rows, &truth, 2);
        assert!((b[0] - 0.25).abs() < 1e-12, "{b:?}");
        // class 1 scores (desc): 0.8 pos, 0.7 neg, 0.3 neg, 0.2 pos, 0.1 neg
        // top1 F1 = 2/3 =.667; top2 .5; top3 .4; top4 4/6=.667 (not better); top5 .571 → cut 0.75
        assert!((b[1] - 0.75).abs() < 1e-12, "{b:?}");
        let a = assign(
            &Threshold::SCut { validation: 0.2 },
            &[vec![0.26, 0.74], vec![0.1, 0.1]],
            &b,
            &[],
        );
        assert_eq!(a, vec![vec![0], vec![0]]); // second: nothing passes → top-1 fallback (tie → class 0)
        // a class with no validation positives is never assigned by threshold
        assert_eq!(scut_thresholds(&rows, &[0, 0, 0, 0, 0], 2)[1], f64::MAX);
        // …and every threshold survives the JSON a result and a stored model are.
        let b = scut_thresholds(&rows, &[0, 0, 0, 0, 0], 2);
        let back: Vec<f64> = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
        assert_eq!(back, b);
    }

    #[test]
    fn rcut_and_pcut() {
        let s = vec![vec![0.9, 0.5, 0.1], vec![0.2, 0.3, 0.8]];
        assert_eq!(
            assign(&Threshold::RCut { k: 2 }, &s, &[], &[]),
            vec![vec![0, 1], vec![2, 1]]
        );
        // PCut x=1, priors 0.5/0.5/0: classes 0 and 1 each take round(2·0.5) = 1 doc, their
        // best-scoring one — doc 0 for both (0.9 and 0.5); doc 1 gets nothing (category-centred)
        let p = assign(&Threshold::PCut { x: 1.0 }, &s, &[], &[0.5, 0.5, 0.0]);
        assert_eq!(p, vec![vec![0, 1], vec![]]);
        // x = 2 doubles every class's share
        let p = assign(&Threshold::PCut { x: 2.0 }, &s, &[], &[0.5, 0.5, 0.0]);
        assert_eq!(p, vec![vec![0, 1], vec![1, 0]]);
        assert!(Threshold::new("bogus", 1, 1.0, 0.2).is_err());
        assert!(Threshold::new("scut", 1, 1.0, 1.5).is_err());
    }
}
