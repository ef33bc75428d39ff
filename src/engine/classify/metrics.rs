//! Quality metrics (book ch. 11.4.2 [L4061–L4073]).
//!
//! Per class `p = TP/(TP+FP)`, `r = TP/(TP+FN)` (0 when undefined — digest's suggestion), F1
//! (11-1). `macro_f1` is the mean of the per-class F1 (11-2; scikit-learn's `f1_score(average=
//! "macro")`, which the reference figures report); `macro_f1_book` is (11-3), the F1 of the
//! mean p and mean r that the book's tables use. Micro P/R/F1 pool the counts; with one
//! predicted and one true class per document micro-F1 equals accuracy. `accuracy` counts a
//! document right when its predicted set is exactly its true class. The confusion matrix
//! (rows = true, columns = predicted) counts each document's top-ranked class.
//!
//! ```
//! use tianwang::engine::classify::metrics::evaluate;
//! let m = evaluate(&["a".into(), "b".into()], &[0, 1], &[vec![0], vec![0]], &[0, 0]);
//! assert_eq!(m.accuracy, 0.5);
//! assert_eq!(m.confusion, vec![vec![1, 0], vec![1, 0]]);
//! ```

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassMetrics {
    pub label: String,
    pub p: f64,
    pub r: f64,
    pub f1: f64,
    /// True documents of this class in the test set.
    pub support: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub accuracy: f64,
    pub micro_p: f64,
    pub micro_r: f64,
    pub micro_f1: f64,
    pub macro_f1: f64,
    pub macro_f1_book: f64,
    pub per_class: Vec<ClassMetrics>,
    pub confusion: Vec<Vec<u64>>,
}

fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b > 0 { a as f64 / b as f64 } else { 0.0 }
}

/// `truth[i]` the true class, `predicted[i]` the assigned set, `top1[i]` the best class.
pub fn evaluate(
    labels: &[String],
    truth: &[usize],
    predicted: &[Vec<usize>],
    top1: &[usize],
) -> Metrics {
    let k = labels.len();
    let (mut tp, mut fp, mut fneg, mut support) = (
        vec![0usize; k],
        vec![0usize; k],
        vec![0usize; k],
        vec![0usize; k],
    );
    let mut confusion = vec![vec![0u64; k]; k];
    let mut exact = 0usize;
    for ((&t, pred), &best) in truth.iter().zip(predicted).zip(top1) {
        if t < k {
            support[t] += 1;
            if best < k {
                confusion[t][best] += 1;
            }
        }
        if pred.len() == 1 && pred[0] == t {
            exact += 1;
        }
        for &c in pred {
            if c < k {
                if c == t { tp[c] += 1 } else { fp[c] += 1 }
            }
        }
        if t < k && !pred.contains(&t) {
            fneg[t] += 1;
        }
    }
    let per_class: Vec<ClassMetrics> = (0..k)
        .map(|c| {
            let p = ratio(tp[c], tp[c] + fp[c]);
            let r = ratio(tp[c], tp[c] + fneg[c]);
            ClassMetrics {
                label: labels[c].clone(),
                p,
                r,
                f1: f1(p, r),
                support: support[c],
            }
        })
        .collect();
    let (stp, sfp, sfn) = (
        tp.iter().sum::<usize>(),
        fp.iter().sum::<usize>(),
        fneg.iter().sum::<usize>(),
    );
    let micro_p = ratio(stp, stp + sfp);
    let micro_r = ratio(stp, stp + sfn);
    let kf = k.max(1) as f64;
    let mp = per_class.iter().map(|c| c.p).sum::<f64>() / kf;
    let mr = per_class.iter().map(|c| c.r).sum::<f64>() / kf;
    Metrics {
        accuracy: ratio(exact, truth.len()),
        micro_p,
        micro_r,
        micro_f1: f1(micro_p, micro_r),
        macro_f1: per_class.iter().map(|c| c.f1).sum::<f64>() / kf,
        macro_f1_book: f1(mp, mr),
        per_class,
        confusion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_by_hand() {
        let labels: Vec<String> = vec!["x".into(), "y".into()];
        // truth x x y y ; predicted x y y y
        let m = evaluate(
            &labels,
            &[0, 0, 1, 1],
            &[vec![0], vec![1], vec![1], vec![1]],
            &[0, 1, 1, 1],
        );
        assert_eq!(m.accuracy, 0.75);
        assert_eq!(m.micro_f1, 0.75);
        // x: p=1 r=.5 f1=2/3; y: p=2/3 r=1 f1=.8
        assert!((m.macro_f1 - (2.0 / 3.0 + 0.8) / 2.0).abs() < 1e-12);
        let (mp, mr) = ((1.0 + 2.0 / 3.0) / 2.0, 0.75);
        assert!((m.macro_f1_book - 2.0 * mp * mr / (mp + mr)).abs() < 1e-12);
        assert_eq!(m.confusion, vec![vec![1, 1], vec![0, 2]]);
        // multi-label: an extra wrong class costs precision and exact-match accuracy
        let m = evaluate(&labels, &[0], &[vec![0, 1]], &[0]);
        assert_eq!(m.accuracy, 0.0);
        assert_eq!(m.micro_r, 1.0);
        assert_eq!(m.micro_p, 0.5);
    }
}
