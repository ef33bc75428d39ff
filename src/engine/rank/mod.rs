//! Link analysis and ranking evaluation (book ch. 10.2 [L3599–L3647] and 10.4 [L3924–L3982]).
//!
//! - [`graph`]: the CSR link graph and its readers (header format, edge list, crawl rows);
//! - [`pagerank`]: PageRank, book form and normalised form, dangling policies [L3610–L3622];
//! - [`hits`]: hubs and authorities [L3624–L3645];
//! - [`eval`]: P@N, R-precision, MAP, nDCG, wins/losses, paired t-test, ranking diff [L3960–L3982];
//! - [`stats`]: the Student t distribution (regularised incomplete beta) for the t-test.
//!
//! Iterative algorithms report each step to an [`IterationObserver`] (no-op by default), the
//! hook a teaching stepper or a convergence plot implements.

pub mod eval;
pub mod graph;
pub mod hits;
pub mod pagerank;
pub mod stats;

/// Sees each iteration of PageRank or HITS. Every method has a no-op default; `()` is the
/// observer that watches nothing.
pub trait IterationObserver {
    /// After iteration `iter` (from 1): the current scores (PageRank) or authorities (HITS)
    /// and the L1 change of this step.
    fn on_iteration(&mut self, _iter: usize, _scores: &[f64], _delta: f64) {}
    /// HITS only: both vectors after iteration `iter`.
    fn on_hits_iteration(&mut self, _iter: usize, _hub: &[f64], _authority: &[f64], _delta: f64) {}
}

impl IterationObserver for () {}
