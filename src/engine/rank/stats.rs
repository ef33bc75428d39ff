//! Student's t distribution for the paired t-test of ch. 10.4 ("paired t-test at 95 %
//! confidence", [L3976–L3982]; the digest's SUGGESTED definition: `d_q = s_A(q) − s_B(q)`,
//! `t = d̄ / (s_d/√n)`, df = n − 1, two-sided, α = 0.05).
//!
//! The CDF comes from the regularised incomplete beta function
//! (`P(|T| > t) = I_{ν/(ν+t²)}(ν/2, 1/2)`), evaluated with Lentz's continued fraction and a
//! Lanczos `ln Γ` — no statistics crate needed. Checked against scipy 1.17.1 in the tests.
//!
//! ```
//! use tianwang::engine::rank::stats::{paired_t_test, t_two_sided_p};
//! assert!((t_two_sided_p(2.0, 10.0) - 0.07338803477074037).abs() < 1e-9);
//! let t = paired_t_test(&[0.5, 0.3, 0.8, 0.6, 0.4, 0.7], &[0.4, 0.35, 0.6, 0.5, 0.2, 0.65]).unwrap();
//! assert!(t.significant);
//! ```

use serde::{Deserialize, Serialize};

/// `ln Γ(x)` for x > 0 (Lanczos, g = 7, 9 terms; ~1e-15 relative).
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction for the incomplete beta (Numerical Recipes `betacf`, modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Regularised incomplete beta `I_x(a, b)` for a, b > 0, x in [0, 1].
pub(crate) fn reg_inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// Two-sided p-value `P(|T| ≥ |t|)` of Student's t with `df` degrees of freedom.
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    reg_inc_beta(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// The `t` with `P(|T| ≥ t) = alpha` (two-sided critical value), by bisection.
pub(crate) fn t_critical(alpha: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1e6f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_two_sided_p(mid, df) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// A paired t-test of A against B (two-sided, α = 0.05).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TTest {
    pub n: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    /// Mean of `a − b`.
    pub mean_diff: f64,
    /// Sample standard deviation of the differences.
    pub sd_diff: f64,
    pub t: f64,
    pub df: usize,
    pub p_value: f64,
    /// 95 % confidence interval of the mean difference.
    pub ci95: (f64, f64),
    pub significant: bool,
    /// In words, for the panel.
    pub verdict: String,
}

/// Paired t-test; None when fewer than 2 pairs or the lists differ in length. Identical
/// differences (sd 0) give t = ±∞ (p 0) when the mean differs from 0, else t = 0 (p 1).
pub fn paired_t_test(a: &[f64], b: &[f64]) -> Option<TTest> {
    let n = a.len();
    if n < 2 || b.len() != n {
        return None;
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let nf = n as f64;
    let mean = d.iter().sum::<f64>() / nf;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (nf - 1.0);
    let sd = var.sqrt();
    let se = sd / nf.sqrt();
    let df = n - 1;
    let t = if se > 1e-300 {
        mean / se
    } else if mean.abs() > 1e-15 {
        mean.signum() * f64::INFINITY
    } else {
        0.0
    };
    let p = t_two_sided_p(t, df as f64);
    let half = t_critical(0.05, df as f64) * se;
    let significant = p < 0.05;
    let verdict = if significant {
        format!(
            "A is {} than B (mean difference {mean:+.4}, t = {t:.3}, p = {p:.4} < 0.05, {df} df)",
            if mean > 0.0 { "better" } else { "worse" }
        )
    } else {
        format!("no significant difference at 95 % (t = {t:.3}, p = {p:.4}, {df} df)")
    };
    Some(TTest {
        n,
        mean_a: a.iter().sum::<f64>() / nf,
        mean_b: b.iter().sum::<f64>() / nf,
        mean_diff: mean,
        sd_diff: sd,
        t,
        df,
        p_value: p,
        ci95: (mean - half, mean + half),
        significant,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values from scipy 1.17.1 (peers venv):
    // stats.t.sf(2.0,10)*2, stats.t.sf(1.0,1)*2, stats.t.sf(3.5,4)*2,
    // stats.t.ppf(0.975,9), stats.t.ppf(0.975,29), stats.ttest_rel(a, b).
    #[test]
    fn t_distribution_matches_scipy() {
        assert!((t_two_sided_p(2.0, 10.0) - 0.07338803477074037).abs() < 1e-12);
        assert!((t_two_sided_p(1.0, 1.0) - 0.5).abs() < 1e-12);
        assert!((t_two_sided_p(3.5, 4.0) - 0.024896163460222748).abs() < 1e-12);
        assert!((t_critical(0.05, 9.0) - 2.262157162798205).abs() < 1e-9);
        assert!((t_critical(0.05, 29.0) - 2.045229642132703).abs() < 1e-9);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn paired_test_matches_scipy_ttest_rel() {
        let a = [0.5, 0.3, 0.8, 0.6, 0.4, 0.7];
        let b = [0.4, 0.35, 0.6, 0.5, 0.2, 0.65];
        let r = paired_t_test(&a, &b).unwrap();
        assert!((r.t - 2.5819888974716108).abs() < 1e-9);
        assert!((r.p_value - 0.04931308767365269).abs() < 1e-9);
        assert_eq!(r.df, 5);
        assert!(r.significant);
        assert!(r.ci95.0 > 0.0);
        assert!(paired_t_test(&[1.0], &[0.0]).is_none());
        let same = paired_t_test(&[0.5, 0.5], &[0.5, 0.5]).unwrap();
        assert_eq!(same.p_value, 1.0);
        assert!(!same.significant);
    }
}
