//! The inverted-file performance model, book §8.4 [L2754–L2965]: what response time and
//! throughput an inverted file of a given size can deliver on a given disk. Query processing is
//! not compute-bound; moving posting lists from disk to memory is, so the time to answer `k`
//! concurrent single-term queries is the data they read, `D`, over the bottleneck bandwidth
//! `B`, and the requirement is `D / B ≤ r` [L2860].
//!
//! | piece | formula | book |
//! |---|---|---|
//! | [`ModelInput::d_alpha`] | dα = cα (non-full-text), c(α + T_N/M) (full-text) | (8-2) [L2862–L2872] |
//! | [`ModelInput::data_exact`] | D = dα·M·(1 − (1 − 1/M)^k), as `−expm1(k·ln1p(−1/M))` | (8-1) [L2828–L2858] |
//! | [`ModelInput::data_approx1`], [`ModelInput::data_approx2`] | dαk and dα(k − k(k−1)/2M), M ≫ k | [L2911–L2917] |
//! | [`ModelInput::k_max`] | ⌊ln(1 − Br/(dαM)) / ln(1 − 1/M)⌋ | digest, DERIVED |
//! | [`verify_stirling`] | Σ i·S(k,i)·P_M^i / M^k = M(1 − (1 − 1/M)^k), exact in `u128`, and by Monte Carlo | [L2834–L2858] |
//! | [`TABLE_8_1`], [`itf_crossing`] | ranks at nine frequencies; ITF = −log₁₀ TF crosses near 4 | Table 8-1 [L2888–L2909] |
//! | [`TABLE_8_2`] | four disks of 2004 | Table 8-2 [L2921–L2936] |
//! | [`max_throughput`], [`simplified_m`], [`max_t_n`], [`Planner`] | (T_latency + T_N·TF/IO)·L_q·m ≤ 1 | [L2938–L2965] |
//!
//! With the book's magnitudes for Tianwang's Chinese part (c ≈ 10 B, α ≈ 10⁵, M ≈ 5·10⁴,
//! N ≈ 3·10⁷, T_N ≈ 10¹⁰; [`ModelInput::default`]) and B = 20 MB/s, r = 1 s, about 20
//! concurrent queries fit (6.7 full-text); a disk of 100 IOPS serves 100 / 5 = 20 queries of
//! L_q = 5 terms a second, each reading at most 1 MB, so a Chinese-character index (query-unit
//! TF 0.05 %) holds at most T_N = 400 MB and an English-word one (0.005 %) 4 GB; with the
//! transfer time counted the 20 q/s drop to about 10.
//!
//! Units: bytes and seconds throughout (MB = 10⁶ B, as the book's "1 MB" → 400 MB needs). The
//! throughput inequality counts `T_N·TF` as bytes, i.e. one byte per occurrence, although T_N
//! is a count and c ≈ 10 B above: the book's own ambiguity [L2798, L2958], kept as written.
//! The model ignores compression and caching and is therefore conservative [L3156].
//!
//! ```
//! use tianwang::engine::index::perfmodel::{ModelInput, Planner, expected_lists_exact};
//! let book = ModelInput::default();
//! assert_eq!(book.d_alpha(), 1e6);
//! assert_eq!(book.k_max(), Some(20));
//! assert!(book.meets(20) && !book.meets(21));
//! let full = ModelInput { full_text: true, ..book };
//! assert!((full.k_max_real().unwrap() - 6.67).abs() < 0.01);
//! // (8-1)'s derivation on a small case: 305 / 125 distinct lists for M = 5, k = 3.
//! let s = expected_lists_exact(5, 3).unwrap();
//! assert_eq!((s.sum, s.total), (305, 125));
//! let p = Planner::default().report().unwrap();
//! assert_eq!(p.m_simplified, 20.0);
//! assert!((p.t_n_max / 4e8 - 1.0).abs() < 1e-12);
//! assert!((p.m_full - 10.0).abs() < 1e-9);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};
use crate::engine::rng::Rng;

/// The inputs of (8-1) and (8-2) [L2811–L2815]: the collection (N, M, α, T_N), the size of one
/// posting entry (c), the index kind, the bottleneck bandwidth B, the response-time
/// requirement r and the number of concurrent single-term queries k.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ModelInput {
    /// N: documents.
    pub n_docs: f64,
    /// M: terms (distinct words or characters).
    pub m_terms: f64,
    /// c: bytes of one posting entry (a document number, or one recorded position).
    pub c_bytes: f64,
    /// α: the average posting-list length, Σ s_j / M (documents per term).
    pub alpha: f64,
    /// T_N: term occurrences in the whole collection.
    pub t_n: f64,
    /// A full-text index (positions recorded) rather than document numbers only.
    pub full_text: bool,
    /// B: bottleneck bandwidth, bytes per second.
    pub bandwidth_bps: f64,
    /// r: the response-time requirement, seconds.
    pub response_s: f64,
    /// k: concurrent queries.
    pub k: u64,
}

impl Default for ModelInput {
    /// The book's orders of magnitude for Tianwang's Chinese part [L2874–L2878], B = 20 MB/s
    /// (a single disk's transfer rate [L2936]), r = 1 s and k = 20 (the largest k that fits).
    fn default() -> Self {
        ModelInput {
            n_docs: 3e7,
            m_terms: 5e4,
            c_bytes: 10.0,
            alpha: 1e5,
            t_n: 1e10,
            full_text: false,
            bandwidth_bps: 20e6,
            response_s: 1.0,
            k: 20,
        }
    }
}

/// What an actual index holds, to put its model beside the book's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CorpusStats {
    /// Documents indexed (N).
    pub docs: u64,
    /// Distinct terms (M).
    pub terms: u64,
    /// Posting entries, one per (term, document) pair: Σ s_j.
    pub postings: u64,
    /// Term occurrences (T_N).
    pub occurrences: u64,
}

/// The expected number of distinct lists `k` uniform draws from `m` terms hit,
/// M(1 − (1 − 1/M)^k) [L2876], computed as `−M·expm1(k·ln1p(−1/M))` so that it stays accurate
/// when 1/M is far below the machine epsilon's reach of `1 − 1/M`.
pub fn expected_lists(m: f64, k: u64) -> f64 {
    if k == 0 {
        return 0.0;
    }
    if m <= 1.0 {
        return m.max(0.0);
    }
    -m * (k as f64 * (-1.0 / m).ln_1p()).exp_m1()
}

fn check(ok: bool, flag: &str, what: &str, v: f64) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(EngineError::invalid(flag, format!("{what}, got {v}")))
    }
}

impl ModelInput {
    /// Every input finite and in range; the error names the flag (`--alpha`, …).
    pub fn validate(&self) -> Result<()> {
        let f = |v: f64| v.is_finite();
        check(
            f(self.n_docs) && self.n_docs >= 1.0,
            "--n",
            "N (documents) must be at least 1",
            self.n_docs,
        )?;
        check(
            f(self.m_terms) && self.m_terms >= 1.0,
            "--m",
            "M (terms) must be at least 1",
            self.m_terms,
        )?;
        check(
            f(self.c_bytes) && self.c_bytes > 0.0,
            "--c",
            "c (bytes per entry) must be positive",
            self.c_bytes,
        )?;
        check(
            f(self.alpha) && self.alpha >= 0.0,
            "--alpha",
            "α (average list length) must be 0 or more",
            self.alpha,
        )?;
        check(
            self.alpha <= self.n_docs,
            "--alpha",
            "α (average list length) cannot exceed N, the number of documents",
            self.alpha,
        )?;
        check(
            f(self.t_n) && self.t_n >= 0.0,
            "--t-n",
            "T_N (term occurrences) must be 0 or more",
            self.t_n,
        )?;
        check(
            f(self.bandwidth_bps) && self.bandwidth_bps > 0.0,
            "--bandwidth",
            "B (bytes per second) must be positive",
            self.bandwidth_bps,
        )?;
        check(
            f(self.response_s) && self.response_s > 0.0,
            "--response",
            "r (seconds) must be positive",
            self.response_s,
        )
    }

    /// The book's other inputs with N, M, α and T_N taken from an index: α = postings / terms,
    /// T_N = occurrences.
    pub fn from_corpus(stats: &CorpusStats) -> Result<ModelInput> {
        ModelInput::default().with_corpus(stats)
    }

    /// These inputs with N, M, α and T_N replaced by an index's (c, B, r, k and the index kind
    /// kept).
    pub fn with_corpus(self, stats: &CorpusStats) -> Result<ModelInput> {
        if stats.docs == 0 || stats.terms == 0 {
            return Err(EngineError::invalid(
                "--index",
                format!(
                    "the index is empty ({} documents, {} terms)",
                    stats.docs, stats.terms
                ),
            ));
        }
        let m = ModelInput {
            n_docs: stats.docs as f64,
            m_terms: stats.terms as f64,
            alpha: stats.postings as f64 / stats.terms as f64,
            t_n: stats.occurrences as f64,
            ..self
        };
        m.validate()?;
        Ok(m)
    }

    /// dα, the data of an average posting list, (8-2): cα without positions, c(α + T_N/M)
    /// with them (c also stands for the size of one recorded position [L2872]).
    pub fn d_alpha(&self) -> f64 {
        if self.full_text {
            self.c_bytes * (self.alpha + self.t_n / self.m_terms)
        } else {
            self.c_bytes * self.alpha
        }
    }

    /// D for `k` queries, (8-1): dα times the expected number of distinct lists.
    pub fn data_exact(&self, k: u64) -> f64 {
        self.d_alpha() * expected_lists(self.m_terms, k)
    }

    /// D ≈ dα·k, the first approximation for M ≫ k [L2911–L2915].
    pub fn data_approx1(&self, k: u64) -> f64 {
        self.d_alpha() * k as f64
    }

    /// D ≈ dα(k − k(k−1)/2M), the second-order approximation [L2917]; it turns down past
    /// k ≈ M and below zero near 2M, where it no longer means anything.
    pub fn data_approx2(&self, k: u64) -> f64 {
        let k = k as f64;
        self.d_alpha() * (k - k * (k - 1.0) / (2.0 * self.m_terms))
    }

    /// B·r: the data that can move within the response time.
    pub fn budget(&self) -> f64 {
        self.bandwidth_bps * self.response_s
    }

    /// D/B for `k` queries: the time to answer them, seconds.
    pub fn seconds(&self, k: u64) -> f64 {
        self.data_exact(k) / self.bandwidth_bps
    }

    /// The criterion D/B ≤ r [L2860].
    pub fn meets(&self, k: u64) -> bool {
        self.data_exact(k) <= self.budget()
    }

    /// k solved from D = B·r: ln(1 − Br/(dαM)) / ln(1 − 1/M) (digest, DERIVED); `None` when
    /// every k fits (B·r ≥ dαM, the whole posting file moves within r).
    pub fn k_max_real(&self) -> Option<f64> {
        let total = self.d_alpha() * self.m_terms;
        let x = self.budget() / total;
        if x.is_nan() || x >= 1.0 {
            return None;
        }
        if self.m_terms <= 1.0 {
            return Some(0.0);
        }
        Some((-x).ln_1p() / (-1.0 / self.m_terms).ln_1p())
    }

    /// The largest k with D/B ≤ r (`None`: no limit); agrees with [`ModelInput::meets`] at
    /// k_max and k_max + 1.
    pub fn k_max(&self) -> Option<u64> {
        let real = self.k_max_real()?;
        let mut k = real.floor().max(0.0) as u64;
        while self.meets(k + 1) {
            k += 1;
        }
        while k > 0 && !self.meets(k) {
            k -= 1;
        }
        Some(k)
    }

    /// k_max ≈ Br/(dα) for large M (digest, DERIVED).
    pub fn k_max_approx(&self) -> f64 {
        self.budget() / self.d_alpha()
    }

    /// Every output for these inputs (validated first).
    pub fn report(&self) -> Result<Report> {
        self.validate()?;
        let k = self.k;
        Ok(Report {
            input: *self,
            d_alpha: self.d_alpha(),
            posting_file: self.d_alpha() * self.m_terms,
            distinct_lists: expected_lists(self.m_terms, k),
            data_exact: self.data_exact(k),
            data_approx1: self.data_approx1(k),
            data_approx2: self.data_approx2(k),
            budget: self.budget(),
            seconds: self.seconds(k),
            meets: self.meets(k),
            k_max: self.k_max(),
            k_max_real: self.k_max_real(),
            k_max_approx: self.k_max_approx(),
        })
    }
}

/// The model's outputs for one [`ModelInput`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub input: ModelInput,
    /// dα, bytes per average list (8-2).
    pub d_alpha: f64,
    /// dα·M, the whole posting file, bytes.
    pub posting_file: f64,
    /// Expected distinct lists for k queries, M(1 − (1 − 1/M)^k).
    pub distinct_lists: f64,
    /// D by (8-1), bytes.
    pub data_exact: f64,
    /// D ≈ dαk, bytes.
    pub data_approx1: f64,
    /// D ≈ dα(k − k(k−1)/2M), bytes.
    pub data_approx2: f64,
    /// B·r, bytes.
    pub budget: f64,
    /// D/B, seconds.
    pub seconds: f64,
    /// D/B ≤ r.
    pub meets: bool,
    /// The largest k that meets r (`None`: every k does).
    pub k_max: Option<u64>,
    pub k_max_real: Option<f64>,
    /// Br/(dα).
    pub k_max_approx: f64,
}

// ---------------------------------------------------------------------------------------------
// The Stirling-number derivation of (8-1), checked exactly on small inputs.

/// S(k, i), the Stirling number of the second kind (ways to split k labelled queries into i
/// non-empty groups), by S(n+1, j) = j·S(n, j) + S(n, j−1) [L2846]; `None` on `u128` overflow.
pub fn stirling2(k: u32, i: u32) -> Option<u128> {
    if i > k {
        return Some(0);
    }
    stirling2_row(k).map(|row| row[i as usize])
}

/// S(k, 0..=k); `None` on `u128` overflow.
pub fn stirling2_row(k: u32) -> Option<Vec<u128>> {
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
pub fn falling(m: u64, i: u32) -> Option<u128> {
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
    pub fn probability(&self, t: &StirlingTerm) -> f64 {
        (t.s as f64 * t.falling as f64) / self.total as f64
    }

    /// sum / M^k in lowest terms.
    pub fn reduced(&self) -> (u128, u128) {
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
pub const MONTE_CARLO_MAX_M: u64 = 10_000_000;

/// Draw k terms uniformly from M, `trials` times (seeded), and average the distinct count.
pub fn monte_carlo_lists(m: u64, k: u64, trials: u32, seed: u64) -> Result<MonteCarlo> {
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

// ---------------------------------------------------------------------------------------------
// Table 8-1: English words against Chinese characters.

/// One row of Table 8-1: the rank (number of units) at which the frequency has fallen to
/// `freq_percent` [L2890–L2900].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FreqRow {
    /// Collection frequency, percent.
    pub freq_percent: f64,
    /// English words [EF 2004].
    pub english_rank: u32,
    /// Chinese characters [CCF 2004].
    pub chinese_rank: u32,
}

impl FreqRow {
    /// ITF = −log₁₀ TF (base 10: the curves cross at ITF ≈ 4 where TF = 0.01 % [L2904]).
    pub fn itf(&self) -> f64 {
        itf_of_percent(self.freq_percent)
    }
}

/// −log₁₀(p / 100).
pub fn itf_of_percent(p: f64) -> f64 {
    -(p / 100.0).log10()
}

const fn row(freq_percent: f64, english_rank: u32, chinese_rank: u32) -> FreqRow {
    FreqRow {
        freq_percent,
        english_rank,
        chinese_rank,
    }
}

/// Table 8-1 as the book prints it.
pub const TABLE_8_1: [FreqRow; 9] = [
    row(0.1, 103, 252),
    row(0.07, 148, 348),
    row(0.05, 220, 475),
    row(0.02, 632, 867),
    row(0.01, 1285, 1215),
    row(0.007, 1780, 1400),
    row(0.005, 2381, 1609),
    row(0.002, 5474, 2210),
    row(0.001, 6713, 2676),
];

/// Distinct units in the book's two frequency lists [L2904].
pub const BOOK_CHINESE_UNITS: u32 = 5_299;
pub const BOOK_ENGLISH_UNITS: u32 = 16_006;

/// Where the two ITF-against-rank curves cross.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    pub itf: f64,
    pub rank: f64,
    pub freq_percent: f64,
}

/// The first crossing of the English and Chinese curves in `rows` (ranks interpolated
/// linearly in ITF between rows; both languages share the rows' ITF values).
pub fn itf_crossing_of(rows: &[FreqRow]) -> Option<Crossing> {
    rows.windows(2)
        .find_map(|w| {
            let d = |r: &FreqRow| f64::from(r.english_rank) - f64::from(r.chinese_rank);
            let (da, db) = (d(&w[0]), d(&w[1]));
            if da == 0.0 {
                return Some((w[0].itf(), f64::from(w[0].english_rank)));
            }
            if da * db > 0.0 {
                return None;
            }
            let t = da / (da - db);
            let itf = w[0].itf() + t * (w[1].itf() - w[0].itf());
            let e0 = f64::from(w[0].english_rank);
            let rank = e0 + t * (f64::from(w[1].english_rank) - e0);
            Some((itf, rank))
        })
        .map(|(itf, rank)| Crossing {
            itf,
            rank,
            freq_percent: 100.0 * 10f64.powf(-itf),
        })
}

/// Table 8-1's crossing: ITF ≈ 3.93, rank ≈ 1,135 (the book: "near ITF = 4").
pub fn itf_crossing() -> Option<Crossing> {
    itf_crossing_of(&TABLE_8_1)
}

// ---------------------------------------------------------------------------------------------
// Table 8-2 and the throughput planner.

/// One disk of Table 8-2 [L2927–L2932].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Disk {
    pub model: &'static str,
    pub size_gb: f64,
    /// Average access time, milliseconds.
    pub access_ms: f64,
    pub rpm: u32,
    /// Random I/O operations per second.
    pub iops: f64,
    /// Internal transfer rate, MB/s (low, high).
    pub mb_s: (f64, f64),
    pub interface: &'static str,
}

/// Table 8-2 as the book prints it.
pub const TABLE_8_2: [Disk; 4] = [
    Disk {
        model: "IBM Ultrastar 36ZX",
        size_gb: 36.0,
        access_ms: 5.4,
        rpm: 10_000,
        iops: 119.0,
        mb_s: (15.0, 29.0),
        interface: "Ultra160",
    },
    Disk {
        model: "Quantum Atlas V",
        size_gb: 36.7,
        access_ms: 6.3,
        rpm: 10_000,
        iops: 107.5,
        mb_s: (17.0, 29.0),
        interface: "Ultra160",
    },
    Disk {
        model: "Seagate Cheetah X15",
        size_gb: 18.4,
        access_ms: 3.9,
        rpm: 15_000,
        iops: 169.5,
        mb_s: (38.0, 47.0),
        interface: "FC-AL",
    },
    Disk {
        model: "Seagate Cheetah 73",
        size_gb: 73.4,
        access_ms: 5.6,
        rpm: 10_000,
        iops: 116.0,
        mb_s: (26.0, 40.0),
        interface: "Ultra160",
    },
];

/// The book's rules of thumb [L2936, L2938, L2954–L2958]: 10 ms a disk access, 100 IOPS,
/// 20 MB/s, L_q = 5 terms a query, 1 MB read per query.
pub const BOOK_LATENCY_S: f64 = 0.010;
pub const BOOK_IOPS: f64 = 100.0;
pub const BOOK_BANDWIDTH_BPS: f64 = 20e6;
pub const BOOK_L_Q: f64 = 5.0;
pub const BOOK_BYTES_PER_QUERY: f64 = 1e6;
/// The estimated average query-unit frequency: Chinese characters 0.05 %, English words
/// 0.005 % [L2906].
pub const BOOK_TF_CHINESE: f64 = 0.0005;
pub const BOOK_TF_ENGLISH: f64 = 0.00005;

/// The largest m with (T_latency + T_N·TF/IO)·L_q·m ≤ 1 [L2940–L2946]: queries per second when
/// each of a query's L_q lists is read in one I/O (T_N·TF bytes).
pub fn max_throughput(t_latency_s: f64, t_n: f64, tf: f64, io_bandwidth_bps: f64, l_q: f64) -> f64 {
    1.0 / ((t_latency_s + t_n * tf / io_bandwidth_bps) * l_q)
}

/// The simplified model without transfer time: m = IOPS / L_q (100 / 5 = 20) [L2954].
pub fn simplified_m(iops: f64, l_q: f64) -> f64 {
    iops / l_q
}

/// The largest T_N with T_N·TF·L_q ≤ `bytes_per_query` [L2956]: 400 MB for Chinese characters
/// (0.05 %), 4 GB for English words (0.005 %) at L_q = 5 and 1 MB.
pub fn max_t_n(tf: f64, l_q: f64, bytes_per_query: f64) -> f64 {
    bytes_per_query / (tf * l_q)
}

/// The inequality solved for T_N at throughput m: (1/(m·L_q) − T_latency)·IO/TF, 0 where the
/// latency alone exceeds the time a query may take (the hyperbola of T_N against m).
pub fn t_n_at(m: f64, t_latency_s: f64, tf: f64, io_bandwidth_bps: f64, l_q: f64) -> f64 {
    ((1.0 / (m * l_q) - t_latency_s) * io_bandwidth_bps / tf).max(0.0)
}

/// The throughput planner's inputs: one disk (or the book's rules of thumb), RAID over N
/// disks, the query length, the query-unit frequency and the collection size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Planner {
    /// T_latency of one disk, seconds.
    pub latency_s: f64,
    /// Random IOPS of one disk.
    pub iops: f64,
    /// Transfer rate of one disk, bytes per second.
    pub bandwidth_bps: f64,
    /// Disks in the RAID (1: a single disk).
    pub raid_n: u32,
    /// L_q, terms per query.
    pub l_q: f64,
    /// TF of an average query unit (a fraction: 0.0005 = 0.05 %).
    pub tf: f64,
    /// T_N, term occurrences (one byte each in the inequality).
    pub t_n: f64,
}

impl Default for Planner {
    /// The book's rule-of-thumb disk, Chinese characters, T_N = 400 MB.
    fn default() -> Self {
        Planner {
            latency_s: BOOK_LATENCY_S,
            iops: BOOK_IOPS,
            bandwidth_bps: BOOK_BANDWIDTH_BPS,
            raid_n: 1,
            l_q: BOOK_L_Q,
            tf: BOOK_TF_CHINESE,
            t_n: 4e8,
        }
    }
}

/// The planner's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlannerReport {
    pub input: Planner,
    /// The RAID's latency, IOPS and bandwidth (ideal striping: N× IOPS and transfer [L2936]).
    pub latency_s: f64,
    pub iops: f64,
    pub bandwidth_bps: f64,
    /// T_N·TF, bytes of one list.
    pub list_bytes: f64,
    /// Latency + transfer of one list, seconds.
    pub list_s: f64,
    /// m by the full inequality.
    pub m_full: f64,
    /// m = IOPS / L_q, transfer ignored.
    pub m_simplified: f64,
    /// B / m_simplified: what one query may read at that rate.
    pub bytes_per_query: f64,
    /// The T_N that budget allows, bytes_per_query / (TF·L_q).
    pub t_n_max: f64,
}

impl Planner {
    /// A Table 8-2 disk (access time, IOPS, the low end of its transfer range), the rest kept.
    pub fn with_disk(self, d: &Disk) -> Planner {
        Planner {
            latency_s: d.access_ms / 1000.0,
            iops: d.iops,
            bandwidth_bps: d.mb_s.0 * 1e6,
            ..self
        }
    }

    pub fn validate(&self) -> Result<()> {
        let pos = |v: f64| v.is_finite() && v > 0.0;
        check(
            self.latency_s.is_finite() && self.latency_s >= 0.0,
            "--latency",
            "latency (seconds) must be 0 or more",
            self.latency_s,
        )?;
        check(pos(self.iops), "--iops", "IOPS must be positive", self.iops)?;
        check(
            pos(self.bandwidth_bps),
            "--bandwidth",
            "bandwidth (bytes per second) must be positive",
            self.bandwidth_bps,
        )?;
        check(
            self.raid_n >= 1,
            "--raid",
            "RAID needs at least 1 disk",
            f64::from(self.raid_n),
        )?;
        check(pos(self.l_q), "--lq", "L_q must be positive", self.l_q)?;
        check(
            pos(self.tf) && self.tf <= 1.0,
            "--tf",
            "TF must be in (0, 1]",
            self.tf,
        )?;
        check(
            self.t_n.is_finite() && self.t_n >= 0.0,
            "--t-n",
            "T_N must be 0 or more",
            self.t_n,
        )
    }

    /// The RAID's (latency, IOPS, bandwidth).
    pub fn effective(&self) -> (f64, f64, f64) {
        let n = f64::from(self.raid_n.max(1));
        (self.latency_s / n, self.iops * n, self.bandwidth_bps * n)
    }

    /// T_N against m for this disk: the full inequality.
    pub fn t_n_at(&self, m: f64) -> f64 {
        let (lat, _, bw) = self.effective();
        t_n_at(m, lat, self.tf, bw, self.l_q)
    }

    /// T_N against m with the transfer alone (latency ignored): B/(m·TF·L_q), the curve the
    /// book's anchors (20 q/s, 400 MB / 4 GB) lie on.
    pub fn t_n_transfer_only(&self, m: f64) -> f64 {
        let (_, _, bw) = self.effective();
        bw / (m * self.tf * self.l_q)
    }

    pub fn report(&self) -> Result<PlannerReport> {
        self.validate()?;
        let (latency_s, iops, bandwidth_bps) = self.effective();
        let list_bytes = self.t_n * self.tf;
        let m_simplified = simplified_m(iops, self.l_q);
        let bytes_per_query = bandwidth_bps / m_simplified;
        Ok(PlannerReport {
            input: *self,
            latency_s,
            iops,
            bandwidth_bps,
            list_bytes,
            list_s: latency_s + list_bytes / bandwidth_bps,
            m_full: max_throughput(latency_s, self.t_n, self.tf, bandwidth_bps, self.l_q),
            m_simplified,
            bytes_per_query,
            t_n_max: max_t_n(self.tf, self.l_q, bytes_per_query),
        })
    }
}

#[cfg(test)]
mod tests;
