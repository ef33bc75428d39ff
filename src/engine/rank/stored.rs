//! PageRank over the crawl graph, kept in the workspace (table `page_ranks`, schema v11): the
//! pipeline's `pagerank` stage computes it once after a crawl (book §10.2 [L3599–L3622]: link
//! analysis runs offline over the whole graph; the query service only reads the scores), and the
//! query service and the panels read it back.
//!
//! ```no_run
//! use tianwang::engine::rank::stored;
//! use tianwang::engine::store::Workspace;
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let out = stored::rank_pages(&ws, &Default::default(), None, &())?;
//! println!("{} pages ranked in {} iterations", out.ranked, out.iterations);
//! let scores = stored::load(&ws)?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::time::Instant;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::graph::Graph;
use super::pagerank::{PageRankConfig, pagerank};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::{JobContext, Tick, TypedJob};
use crate::engine::store::Workspace;

/// What a ranking of the crawl graph found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RankOutcome {
    /// Pages (nodes) and the links between them (edges; links to pages never fetched dropped).
    pub nodes: u64,
    pub edges: u64,
    pub dropped_links: u64,
    pub iterations: u64,
    pub converged: bool,
    /// Pages with a kept score.
    pub ranked: u64,
    /// The best-ranked page and its score (normalised form: the scores sum to 1).
    pub top_url: Option<String>,
    pub top_score: f64,
    pub seconds: f64,
}

/// PageRank over the workspace's crawl graph with `cfg`, kept (replacing the scores kept
/// before); `job_id` is recorded on each row.
pub fn rank_pages(
    ws: &Workspace,
    cfg: &PageRankConfig,
    job_id: Option<i64>,
    tick: &dyn Tick,
) -> Result<RankOutcome> {
    let t0 = Instant::now();
    tick.tick(0.0, "reading the crawl graph")?;
    let g = Graph::from_workspace(ws)?;
    let r = pagerank(&g, cfg, tick, &mut ())?;
    tick.tick(0.95, "keeping the scores")?;
    let tx = ws.conn().unchecked_transaction()?;
    tx.execute("DELETE FROM page_ranks", [])?;
    {
        let mut ins =
            tx.prepare("INSERT INTO page_ranks (page_id, score, job_id) VALUES (?1, ?2, ?3)")?;
        for (v, score) in r.scores.iter().enumerate() {
            let page: i64 = g.id(v).parse().map_err(|_| {
                EngineError::Internal(format!("crawl graph node `{}` is not a page id", g.id(v)))
            })?;
            ins.execute(params![page, score, job_id])?;
        }
    }
    tx.commit()?;
    let top = r
        .scores
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)));
    Ok(RankOutcome {
        nodes: g.node_count() as u64,
        edges: g.edge_count() as u64,
        dropped_links: g.stats.dropped_links as u64,
        iterations: r.iterations as u64,
        converged: r.converged,
        ranked: r.scores.len() as u64,
        top_url: top.and_then(|(v, _)| g.url(v).map(str::to_string)),
        top_score: top.map_or(0.0, |(_, s)| *s),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Every kept score as `(url, score)`, best first.
pub fn load(ws: &Workspace) -> Result<Vec<(String, f64)>> {
    let mut st = ws.conn().prepare(
        "SELECT p.url, r.score FROM page_ranks r JOIN pages p ON p.id = r.page_id
         ORDER BY r.score DESC, p.id",
    )?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The `pagerank` job: PageRank over the crawl graph, kept (the pipeline's `pagerank` stage).
pub(crate) struct PageRankJob {
    cfg: PageRankConfig,
}

impl TypedJob for PageRankJob {
    const KIND: &'static str = "pagerank";
    type Params = PageRankConfig;
    type Output = RankOutcome;

    fn from_params(p: PageRankConfig) -> Result<Self> {
        let cfg = PageRankConfig::new(p.damping, p.dangling, p.form, p.tol, p.max_iter)?;
        if p.personalization.is_some() {
            return Err(EngineError::invalid(
                "personalization",
                "the kept PageRank is the uniform one",
            ));
        }
        Ok(PageRankJob { cfg })
    }

    fn params(&self) -> PageRankConfig {
        self.cfg.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<RankOutcome> {
        let ws = Workspace::open_existing(cx.workspace_path())?;
        let out = rank_pages(&ws, &self.cfg, cx.job_id(), cx)?;
        cx.counter("ranked", out.ranked as f64);
        cx.counter("edges", out.edges as f64);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crawl_graph_is_ranked_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&dir.path().join("w.tianwang")).unwrap();
        ws.conn()
            .execute_batch(
                "INSERT INTO sites(id, host, first_seen) VALUES (1, 'a', 'now');
                 INSERT INTO pages(id, url, site_id, first_seen) VALUES
                     (1, 'http://a/1', 1, 'now'), (2, 'http://a/2', 1, 'now'),
                     (3, 'http://a/3', 1, 'now');
                 INSERT INTO links(from_page, to_url) VALUES
                     (1, 'http://a/3'), (2, 'http://a/3'), (3, 'http://a/1'),
                     (3, 'http://b/never-fetched');",
            )
            .unwrap();
        let out = rank_pages(&ws, &PageRankConfig::default(), None, &()).unwrap();
        assert_eq!((out.nodes, out.edges, out.dropped_links), (3, 3, 1));
        assert!(out.converged);
        assert_eq!(out.top_url.as_deref(), Some("http://a/3"));
        let kept = load(&ws).unwrap();
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[0].0, "http://a/3");
        let sum: f64 = kept.iter().map(|k| k.1).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        // Run again: replaced, not added.
        rank_pages(&ws, &PageRankConfig::default(), None, &()).unwrap();
        assert_eq!(load(&ws).unwrap().len(), 3);
    }
}
