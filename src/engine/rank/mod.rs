//! Link analysis and ranking evaluation (book ch. 10.2 [L3599–L3647] and 10.4 [L3924–L3982]).
//!
//! - [`graph`]: the CSR link graph and its readers (header format, edge list, crawl rows);
//! - [`pagerank`]: PageRank, book form and normalised form, dangling policies [L3610–L3622];
//! - [`hits`]: hubs and authorities [L3624–L3645];
//! - [`eval`]: P@N, R-precision, MAP, nDCG, wins/losses, paired t-test, ranking diff [L3960–L3982];
//! - [`stats`]: the Student t distribution (regularised incomplete beta) for the t-test;
//! - `on_engine`: PageRank as a plan on DataFusion or Spark (feature `bigjobs`; [`pagerank_on`]
//!   dispatches).
//!
//! Iterative algorithms report each step to an [`IterationObserver`] (no-op by default), the
//! hook a teaching stepper or a convergence plot implements.

pub mod eval;
pub mod graph;
pub mod hits;
#[cfg(feature = "bigjobs")]
pub mod on_engine;
pub mod pagerank;
pub mod stats;
pub mod stored;

use crate::engine::error::Result;
use crate::engine::exec::{Engine, EngineConfig};
use crate::engine::jobs::Tick;
use graph::Graph;
use pagerank::{PageRankConfig, PageRankResult};

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

/// PageRank of `g` on the configured engine (the native engine runs the power iteration).
pub fn pagerank_on(
    g: &Graph,
    cfg: &PageRankConfig,
    engine: &EngineConfig,
    tick: &dyn Tick,
) -> Result<PageRankResult> {
    if engine.engine == Engine::Native {
        return pagerank::pagerank(g, cfg, tick, &mut ());
    }
    engine.validate()?;
    pagerank::check_personalization(cfg, g.node_count())?;
    if g.node_count() == 0 {
        return Ok(PageRankResult::start(g, cfg));
    }
    #[cfg(feature = "bigjobs")]
    {
        let work = crate::engine::exec::scratch::ScratchDir::new("pagerank")?;
        on_engine::run(g, cfg, engine, work.path(), tick)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = tick;
        Err(crate::engine::error::EngineError::Internal(
            "unreachable: validate refuses".into(),
        ))
    }
}

/// A graph file ([`Graph::read_file`]), or with the `bigjobs` build a folder holding
/// `links.parquet` + `nodes.parquet` (what `export-parquet --what links` writes).
pub(crate) fn load_graph(path: &std::path::Path) -> Result<Graph> {
    #[cfg(feature = "bigjobs")]
    if path.is_dir() {
        return on_engine::read_graph(&path.join("links.parquet"), &path.join("nodes.parquet"));
    }
    Graph::read_file(path)
}
