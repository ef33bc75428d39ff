//! Fits for chapter 9: least squares on log-log points (the Zipf rank–frequency slope), the
//! R/S statistic (9-10) with its Hurst estimate [L3369–L3393], and the aggregated-variance
//! (variance–time) estimate as a cross-check (digest §9.8 RECON).
//!
//! **The Zipf fit, as this lab defines it** (the book reports no exponent — digest Appendix C;
//! the quick reference says "report an OLS slope"): ordinary least squares of
//! `log10(count)` on `log10(rank)` over the ranks `1..=m` of every distinct query (counts
//! sorted descending, ties in any order — the multiset of points is the same), unweighted, with
//! an intercept. `slope` is signed (negative for a falling curve), `r2` is the coefficient of
//! determination. The range can be narrowed ([`ZipfRange`]).
//!
//! **Hurst by R/S**: the series is cut into non-overlapping blocks of n = 8, 16, 32, … up to
//! half its length; R/S (9-10) is averaged over the blocks of each n (blocks with zero
//! variance skipped), and `log10(R/S) = H·log10(n) + c` is fitted by OLS.
//!
//! ```
//! use tianwang::engine::querylog::fit::{ols, zipf_fit, ZipfRange};
//! let (slope, intercept, r2) = ols(&[(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)]).unwrap();
//! assert!((slope - 2.0).abs() < 1e-12 && (intercept - 1.0).abs() < 1e-12 && (r2 - 1.0).abs() < 1e-12);
//! let counts: Vec<u64> = (1..=100).map(|r| (10_000.0 / r as f64).round() as u64).collect();
//! let z = zipf_fit(&counts, ZipfRange::default()).unwrap();
//! assert!((z.slope + 1.0).abs() < 0.01);
//! ```

use serde::{Deserialize, Serialize};

/// OLS of y on x: `(slope, intercept, r2)`; None with fewer than 2 distinct x.
pub fn ols(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let r2 = if syy > 0.0 {
        (sxy * sxy) / (sxx * syy)
    } else {
        1.0
    };
    Some((slope, intercept, r2))
}

/// Least squares through the origin: the slope.
pub(crate) fn ols_origin(points: &[(f64, f64)]) -> Option<f64> {
    let sxx: f64 = points.iter().map(|p| p.0 * p.0).sum();
    (sxx > 0.0).then(|| points.iter().map(|p| p.0 * p.1).sum::<f64>() / sxx)
}

/// Which ranks the Zipf fit uses (1-based, inclusive); default every rank.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ZipfRange {
    pub min_rank: usize,
    /// None: up to the last distinct query.
    pub max_rank: Option<usize>,
    /// Leave out queries seen fewer than this many times (1: none left out).
    pub min_count: u64,
}

impl Default for ZipfRange {
    fn default() -> Self {
        ZipfRange {
            min_rank: 1,
            max_rank: None,
            min_count: 1,
        }
    }
}

/// A Zipf fit: `log10(count) = slope·log10(rank) + intercept`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ZipfFit {
    pub slope: f64,
    pub intercept: f64,
    pub r2: f64,
    /// Points fitted and the ranks they span.
    pub points: usize,
    pub min_rank: usize,
    pub max_rank: usize,
}

/// Fits `counts` (sorted descending) over `range`; None with fewer than 2 points.
pub fn zipf_fit(counts: &[u64], range: ZipfRange) -> Option<ZipfFit> {
    let lo = range.min_rank.max(1);
    let hi = range.max_rank.unwrap_or(counts.len()).min(counts.len());
    if hi < lo {
        return None;
    }
    // Sums in one pass (no point vector: m can be millions).
    let (mut n, mut sx, mut sy, mut sxx, mut sxy, mut syy) = (0f64, 0f64, 0f64, 0f64, 0f64, 0f64);
    for (i, &c) in counts[lo - 1..hi].iter().enumerate() {
        if c < range.min_count.max(1) {
            continue;
        }
        let x = ((lo + i) as f64).log10();
        let y = (c as f64).log10();
        n += 1.0;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    if n < 2.0 {
        return None;
    }
    let vxx = sxx - sx * sx / n;
    let vxy = sxy - sx * sy / n;
    let vyy = syy - sy * sy / n;
    if vxx <= 0.0 {
        return None;
    }
    let slope = vxy / vxx;
    let intercept = (sy - slope * sx) / n;
    let r2 = if vyy > 1e-300 {
        (vxy * vxy / (vxx * vyy)).min(1.0)
    } else {
        1.0
    };
    Some(ZipfFit {
        slope,
        intercept,
        r2,
        points: n as usize,
        min_rank: lo,
        max_rank: hi,
    })
}

/// R/S (9-10) of one block: `(max(0,W) − min(0,W)) / S`; None when S = 0.
pub(crate) fn rescaled_range(x: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let mu = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n;
    if var <= 0.0 {
        return None;
    }
    let (mut w, mut lo, mut hi) = (0.0f64, 0.0f64, 0.0f64);
    for v in x {
        w += v - mu;
        lo = lo.min(w);
        hi = hi.max(w);
    }
    Some((hi - lo) / var.sqrt())
}

/// One point of the R/S plot: block size n, mean R/S over its blocks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RsPoint {
    pub n: usize,
    pub rs: f64,
    pub log_n: f64,
    pub log_rs: f64,
    pub blocks: usize,
}

/// The R/S Hurst estimate with the points it was fitted on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Hurst {
    /// Slope of the OLS fit (the Hurst parameter); None when fewer than 2 points.
    pub rs: Option<f64>,
    pub intercept: Option<f64>,
    pub r2: Option<f64>,
    /// Slope of the least-squares line through the origin (the book's "lines from the
    /// origin" reading [L3375]).
    pub rs_origin: Option<f64>,
    pub fit_points: Vec<RsPoint>,
}

/// Smallest block size of the R/S fit.
pub(crate) const RS_MIN_BLOCK: usize = 8;

/// R/S Hurst estimate of `x` (see the module doc).
pub(crate) fn hurst_rs(x: &[f64]) -> Hurst {
    let mut pts = Vec::new();
    let mut n = RS_MIN_BLOCK;
    while n <= x.len() / 2 {
        let (mut sum, mut k) = (0.0, 0usize);
        for b in x.chunks_exact(n) {
            if let Some(v) = rescaled_range(b) {
                sum += v;
                k += 1;
            }
        }
        if k > 0 && sum > 0.0 {
            let rs = sum / k as f64;
            pts.push(RsPoint {
                n,
                rs,
                log_n: (n as f64).log10(),
                log_rs: rs.log10(),
                blocks: k,
            });
        }
        n *= 2;
    }
    let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.log_n, p.log_rs)).collect();
    let fit = ols(&xy);
    Hurst {
        rs: fit.map(|f| f.0),
        intercept: fit.map(|f| f.1),
        r2: fit.map(|f| f.2),
        rs_origin: if xy.len() >= 2 { ols_origin(&xy) } else { None },
        fit_points: pts,
    }
}

/// Variance–time estimate: Var(X^(m)) ∝ m^(2H−2) over m = 1, 2, 4, … (at least 8 blocks
/// each). Returns `(H, points (m, variance))`.
pub(crate) fn hurst_variance_time(x: &[f64]) -> (Option<f64>, Vec<(usize, f64)>) {
    let mut pts = Vec::new();
    let mut m = 1;
    while x.len() / m >= 8 {
        let agg: Vec<f64> = x
            .chunks_exact(m)
            .map(|c| c.iter().sum::<f64>() / m as f64)
            .collect();
        let n = agg.len() as f64;
        let mu = agg.iter().sum::<f64>() / n;
        let var = agg.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n;
        if var > 0.0 {
            pts.push((m, var));
        }
        m *= 2;
    }
    let xy: Vec<(f64, f64)> = pts
        .iter()
        .map(|&(m, v)| ((m as f64).log10(), v.log10()))
        .collect();
    (ols(&xy).map(|(beta, _, _)| 1.0 + beta / 2.0), pts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Rng;

    fn normal(rng: &mut Rng) -> f64 {
        let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let u2 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    #[test]
    fn zipf_fit_recovers_exact_power_laws() {
        for s in [0.7, 1.0, 1.3] {
            let counts: Vec<u64> = (1..=2000)
                .map(|r| (1e9 * (r as f64).powf(-s)).round() as u64)
                .collect();
            let z = zipf_fit(&counts, ZipfRange::default()).unwrap();
            assert!((z.slope + s).abs() < 1e-3, "{s}: {z:?}");
            assert!(z.r2 > 0.9999);
        }
        let z = zipf_fit(
            &[8, 4, 2, 1],
            ZipfRange {
                min_rank: 2,
                max_rank: Some(3),
                min_count: 1,
            },
        )
        .unwrap();
        assert_eq!((z.points, z.min_rank, z.max_rank), (2, 2, 3));
        assert!(zipf_fit(&[5], ZipfRange::default()).is_none());
    }

    #[test]
    fn rs_of_white_noise_is_near_half_and_of_a_trend_near_one() {
        let mut rng = Rng::new(3);
        let x: Vec<f64> = (0..32_768).map(|_| normal(&mut rng)).collect();
        let h = hurst_rs(&x).rs.unwrap();
        // R/S is biased upwards at small n (Anis–Lloyd): white noise reads 0.5–0.6.
        assert!((0.48..0.62).contains(&h), "{h}");
        let (hv, _) = hurst_variance_time(&x);
        assert!((hv.unwrap() - 0.5).abs() < 0.06, "{hv:?}");
        // A random walk's increments summed are strongly persistent.
        let mut w = 0.0;
        let walk: Vec<f64> = x
            .iter()
            .map(|v| {
                w += v;
                w
            })
            .collect();
        assert!(hurst_rs(&walk).rs.unwrap() > 0.9);
    }

    #[test]
    fn rescaled_range_by_hand() {
        // x = 1,3: mu 2, W = -1, 0; R = 0 - (-1) = 1; S = 1 → 1.
        assert_eq!(rescaled_range(&[1.0, 3.0]), Some(1.0));
        assert_eq!(rescaled_range(&[2.0, 2.0, 2.0]), None);
    }
}
