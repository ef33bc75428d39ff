//! The Stirling-number derivation of (8-1), book §8.4 [L2834–L2858]: the expected number of
//! distinct posting lists `k` concurrent queries read from `M`, as Σ i·S(k,i)·P_M^i / M^k, exact
//! in `u128` on small inputs and by Monte Carlo, against the closed form M(1 − (1 − 1/M)^k).
//!
//! ```
//! use tianwang::engine::index::perfmodel::expected_lists_exact;
//! let s = expected_lists_exact(5, 3).unwrap();
//! assert_eq!((s.sum, s.total), (305, 125));
//! ```

use serde::{Deserialize, Serialize};

use super::expected_lists;
use crate::engine::error::{EngineError, Result};
use crate::engine::rng::Rng;

/// S(k, i), the Stirling number of the second kind (ways to split k labelled queries into i
/// non-empty groups), by S(n+1, j) = j·S(n, j) + S(n, j−1) [L2846]; `None` on `u128` overflow.
pub fn stirling2(k: u32, i: u32) -> Option<u128> {
    if i > k {
        return Some(0);
    }
    stirling2_row(k).map(|row| row[i as usize])
}

/// S(k, 0..=k); `None` on `u128` overflow.
pub(crate) fn stirling2_row(k: u32) -> Option<Vec<u128>> {
    let mut row = vec![1u128]; // S(0, 0) = 1
    for n in 1..=k as usize {
        let mut next = vec![0u128; n + 1];
        for j in 1..=n {
            let keep = if j < n {
                (j as u128).checked_mul(row[j])?
            } else {
                0
            };
            next[j] = keep.checked_add(row[j - 1])?;
        }
        row = next;
    }
    Some(row)
}

/// P_M^i = M!/(M−i)!, the falling factorial (0 when i > M); `None` on overflow.
pub(crate) fn falling(m: u64, i: u32) -> Option<u128> {
    if u64::from(i) > m {
        return Some(0);
    }
    (0..u64::from(i)).try_fold(1u128, |acc, j| acc.checked_mul(u128::from(m - j)))
}

/// One term of Σ i·S(k,i)·P_M^i.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StirlingTerm {
    pub i: u32,
    pub s: u128,
    pub falling: u128,
    /// i·S(k,i)·P_M^i.
    pub product: u128,
}

/// The exact sum behind (8-1) for small M and k.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StirlingSum {
    pub m: u64,
    pub k: u32,
    pub terms: Vec<StirlingTerm>,
    /// Σ i·S(k,i)·P_M^i.
    pub sum: u128,
    /// M^k, every way k queries can fall on M terms.
    pub total: u128,
    /// Σ S(k,i)·P_M^i, which must equal M^k [L2850].
    pub identity: u128,
    /// M·(M^k − (M−1)^k), which must equal `sum` [L2854].
    pub closed: u128,
}

impl StirlingSum {
    /// The expected number of distinct lists, sum / M^k.
    pub fn value(&self) -> f64 {
        self.sum as f64 / self.total as f64
    }

    /// f_{M,k}(i) = S(k,i)·P_M^i / M^k, the probability of exactly i distinct lists.
    pub(crate) fn probability(&self, t: &StirlingTerm) -> f64 {
        (t.s as f64 * t.falling as f64) / self.total as f64
    }

    /// sum / M^k in lowest terms.
    pub(crate) fn reduced(&self) -> (u128, u128) {
        let (mut a, mut b) = (self.sum, self.total);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        (self.sum / g, self.total / g)
    }
}

/// Σ_{i=1..k} i·S(k,i)·P_M^i over M^k in exact integers (`None` when a number passes `u128`,
/// e.g. M = 1000 with k = 13).
pub fn expected_lists_exact(m: u64, k: u32) -> Option<StirlingSum> {
    let row = stirling2_row(k)?;
    let mut terms = Vec::new();
    let (mut sum, mut identity) = (0u128, 0u128);
    for (i, &s) in row.iter().enumerate() {
        let i = i as u32;
        let p = falling(m, i)?;
        let sp = s.checked_mul(p)?;
        identity = identity.checked_add(sp)?;
        if i == 0 {
            continue;
        }
        let product = sp.checked_mul(u128::from(i))?;
        sum = sum.checked_add(product)?;
        terms.push(StirlingTerm {
            i,
            s,
            falling: p,
            product,
        });
    }
    let pow = |b: u64| (0..k).try_fold(1u128, |acc, _| acc.checked_mul(u128::from(b)));
    let total = pow(m)?;
    let closed = if m == 0 {
        0
    } else {
        u128::from(m).checked_mul(total - pow(m - 1)?)?
    };
    Some(StirlingSum {
        m,
        k,
        terms,
        sum,
        total,
        identity,
        closed,
    })
}

/// A Monte Carlo estimate of the distinct lists hit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MonteCarlo {
    pub trials: u32,
    pub seed: u64,
    pub mean: f64,
    /// The standard error of the mean.
    pub std_error: f64,
}

/// The largest M the Monte Carlo accepts (it keeps one stamp per term).
pub(crate) const MONTE_CARLO_MAX_M: u64 = 10_000_000;

/// Draw k terms uniformly from M, `trials` times (seeded), and average the distinct count.
pub(crate) fn monte_carlo_lists(m: u64, k: u64, trials: u32, seed: u64) -> Result<MonteCarlo> {
    if m == 0 || m > MONTE_CARLO_MAX_M {
        return Err(EngineError::invalid(
            "--m",
            format!("M must be 1 to {MONTE_CARLO_MAX_M} for the Monte Carlo, got {m}"),
        ));
    }
    if trials == 0 || u128::from(trials) * u128::from(k) > 1_000_000_000 {
        return Err(EngineError::invalid(
            "--trials",
            format!("trials × k must be 1 to 10^9, got {trials} × {k}"),
        ));
    }
    let mut rng = Rng::new(seed);
    let mut stamp = vec![0u32; m as usize];
    let (mut sum, mut sum2) = (0.0f64, 0.0f64);
    for t in 1..=trials {
        let mut distinct = 0u64;
        for _ in 0..k {
            let j = rng.below(m as usize);
            if stamp[j] != t {
                stamp[j] = t;
                distinct += 1;
            }
        }
        let d = distinct as f64;
        sum += d;
        sum2 += d * d;
    }
    let n = f64::from(trials);
    let mean = sum / n;
    let var = if trials > 1 {
        ((sum2 - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    Ok(MonteCarlo {
        trials,
        seed,
        mean,
        std_error: (var / n).sqrt(),
    })
}

/// The three answers to "how many distinct lists do k queries hit?" side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StirlingCheck {
    pub m: u64,
    pub k: u32,
    /// The exact sum (`None`: past `u128`).
    pub exact: Option<StirlingSum>,
    /// M(1 − (1 − 1/M)^k).
    pub closed_form: f64,
    pub monte_carlo: MonteCarlo,
}

/// The Stirling verifier: the exact sum, the closed form and a seeded Monte Carlo estimate.
pub fn verify_stirling(m: u64, k: u32, trials: u32, seed: u64) -> Result<StirlingCheck> {
    Ok(StirlingCheck {
        m,
        k,
        exact: expected_lists_exact(m, k),
        closed_form: expected_lists(m as f64, u64::from(k)),
        monte_carlo: monte_carlo_lists(m, u64::from(k), trials, seed)?,
    })
}
