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

mod stirling;
mod throughput;

pub use stirling::*;
pub use throughput::*;

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
pub(crate) fn expected_lists(m: f64, k: u64) -> f64 {
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
    pub(crate) fn validate(&self) -> Result<()> {
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

    #[cfg(test)]
    /// The book's other inputs with N, M, α and T_N taken from an index: α = postings / terms,
    /// T_N = occurrences.
    pub(crate) fn from_corpus(stats: &CorpusStats) -> Result<ModelInput> {
        ModelInput::default().with_corpus(stats)
    }

    /// These inputs with N, M, α and T_N replaced by an index's (c, B, r, k and the index kind
    /// kept).
    pub(crate) fn with_corpus(self, stats: &CorpusStats) -> Result<ModelInput> {
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
    pub(crate) fn data_exact(&self, k: u64) -> f64 {
        self.d_alpha() * expected_lists(self.m_terms, k)
    }

    /// D ≈ dα·k, the first approximation for M ≫ k [L2911–L2915].
    pub(crate) fn data_approx1(&self, k: u64) -> f64 {
        self.d_alpha() * k as f64
    }

    /// D ≈ dα(k − k(k−1)/2M), the second-order approximation [L2917]; it turns down past
    /// k ≈ M and below zero near 2M, where it no longer means anything.
    pub(crate) fn data_approx2(&self, k: u64) -> f64 {
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
    pub(crate) fn k_max_approx(&self) -> f64 {
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

#[cfg(test)]
mod tests;
