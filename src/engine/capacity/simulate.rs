//! The distributed-crawl simulation of a whole crawl log, as the Crawl panel and
//! `tianwang capacity simulate` show it: for the book's n = 2, 4, 8, 16 nodes, the load per
//! node over time and its variance, and the hosts moved when a node joins under plain rehash
//! and under the two-level mapping [L2051–2126].
//!
//! ```no_run
//! use tianwang::engine::{capacity::simulate_workspace, store::Workspace};
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let sim = simulate_workspace(&ws)?;
//! println!("{} fetches over {} hosts", sim.fetches, sim.hosts);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use serde::Serialize;

use super::{
    BOOK_NODE_COUNTS, LoadReport, Mapping, MoveReport, host_fetches, load_study, moved_on_add,
};
use crate::engine::error::{EngineError, Result};
use crate::engine::store::Workspace;

/// The simulator's result for n = 2, 4, 8, 16.
#[derive(Debug, Clone, Serialize)]
pub struct Simulation {
    pub fetches: usize,
    pub hosts: usize,
    /// Length of one time bucket of the load curves, in seconds.
    pub bucket_s: f64,
    pub loads: Vec<LoadReport>,
    pub rehash: Vec<MoveReport>,
    pub two_level: Vec<MoveReport>,
}

/// Simulate a crawl log of `(seconds since start, host)` entries, one per fetch, with about
/// 40 time buckets over its span.
pub fn simulate(log: &[(f64, String)]) -> Result<Simulation> {
    let bad = |e: String| EngineError::invalid("log", e);
    let span = log.last().map_or(1.0, |x| x.0).max(1.0);
    let bucket_s = (span / 40.0).max(0.05);
    let loads = load_study(log, bucket_s).map_err(bad)?;
    let mut rehash = Vec::new();
    let mut two_level = Vec::new();
    for n in BOOK_NODE_COUNTS {
        rehash.push(moved_on_add(log, n, Mapping::Rehash).map_err(bad)?);
        two_level.push(moved_on_add(log, n, Mapping::two_level()).map_err(bad)?);
    }
    Ok(Simulation {
        fetches: log.len(),
        hosts: host_fetches(log).len(),
        bucket_s,
        loads,
        rehash,
        two_level,
    })
}

/// [`simulate`] over the fetch log of the crawls in a workspace.
pub fn simulate_workspace(ws: &Workspace) -> Result<Simulation> {
    let log = crate::engine::crawl::report::fetch_events(ws)?;
    if log.is_empty() {
        return Err(EngineError::invalid(
            "workspace",
            "no fetches in this workspace: crawl first (the simulator replays a crawl's own log)",
        ));
    }
    simulate(&log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_simulates_for_every_book_node_count() {
        let log: Vec<(f64, String)> = (0..2000)
            .map(|i| (f64::from(i) * 0.1, format!("site{}.example.cn", i % 37)))
            .collect();
        let s = simulate(&log).unwrap();
        assert_eq!((s.fetches, s.hosts), (2000, 37));
        assert_eq!(s.loads.len(), BOOK_NODE_COUNTS.len());
        assert_eq!(s.rehash.len(), 4);
        for (r, t) in s.rehash.iter().zip(&s.two_level) {
            assert!(
                t.fraction <= r.fraction,
                "two-level moves no more than rehash"
            );
        }
        assert!(
            simulate(&[]).is_ok(),
            "an empty log is a result, not a panic"
        );
    }
}
