//! The book's cache experiment on the real engine (§9.10 [L3423–L3444], §8.6): a query stream —
//! a file read exactly as the cache lab reads a trace, or a log stored in the workspace — is
//! replayed through the query service with a result cache in front; every miss is a real
//! search. It reports the hit ratio (the same as the cache lab's simulation of the same stream,
//! which it also runs, as `sim_hits`), queries per second and the latency percentiles, hits and
//! misses alike.
//!
//! ```no_run
//! use tianwang::engine::cache::job::TraceSource;
//! use tianwang::workbench::service::{self, CacheSpec, replay};
//! let ws = std::path::Path::new("lab.tianwang");
//! let s = service::open(ws)?;
//! let stream = TraceSource::StoredLog { workspace: ws.into(), log_id: 1, with_page: false };
//! let r = replay::replay(&s, &stream, CacheSpec::parse("lru:100")?, &Default::default(), &())?;
//! println!("{:.3} hit ratio, {:.0} queries/s, p99 {:.1} ms", r.hit_ratio, r.queries_per_s, r.p99_ms);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::cache::{CacheSpec, ResultCache};
use crate::engine::cache::job::TraceSource;
use crate::engine::cache::sim::{SimConfig, run_one};
use crate::engine::error::{EngineError, Result};
use crate::engine::index::score::RankConfig;
use crate::engine::index::search::{SearchOptions, Searcher};
use crate::engine::jobs::Tick;

/// What a replay measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    pub source: String,
    pub queries: u64,
    pub distinct: u64,
    pub hits: u64,
    pub hit_ratio: f64,
    /// The cache lab's simulation of the same stream with the same policy and size.
    pub sim_hits: u64,
    /// Queries the engine could not answer (a query of nothing but stop words is fine; a
    /// broken phrase is not): counted, still cached as failures.
    pub failed: u64,
    pub queries_per_s: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub policy: String,
    pub size: u64,
    pub seconds: f64,
}

/// The `p`-th percentile of sorted `v` (nearest rank).
fn percentile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let k = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[k.clamp(1, v.len()) - 1]
}

/// Replay `stream` through `s` with a fresh cache of `spec` in front (first result pages,
/// BM25 unless `cfg` says otherwise; nothing is logged).
pub fn replay(
    s: &Searcher,
    stream: &TraceSource,
    spec: CacheSpec,
    cfg: &RankConfig,
    tick: &dyn Tick,
) -> Result<ReplayReport> {
    let trace = stream.load()?;
    if trace.reqs.is_empty() {
        return Err(EngineError::invalid(
            "--replay",
            "the stream holds no query",
        ));
    }
    let sim = run_one(
        &trace,
        None,
        spec.policy,
        spec.size,
        &SimConfig::default(),
        &AtomicBool::new(false),
    )?;
    let opt = SearchOptions {
        explain: false,
        ..SearchOptions::default()
    };
    let setting = format!("{cfg:?}");
    let mut cache = ResultCache::new(spec);
    let mut times = Vec::with_capacity(trace.reqs.len());
    let mut failed = 0u64;
    let t0 = Instant::now();
    for (i, r) in trace.reqs.iter().enumerate() {
        if i % 64 == 0 {
            tick.tick(
                i as f32 / trace.reqs.len() as f32,
                &format!("{i} of {} queries", trace.reqs.len()),
            )?;
        }
        let q = trace.keys.get(r.id as usize).map_or("", String::as_str);
        let t = Instant::now();
        let key = ResultCache::key(q, 0, &setting);
        if cache.get_or(&key, || s.search(q, cfg, &opt)).is_err() {
            failed += 1;
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let seconds = t0.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    Ok(ReplayReport {
        source: trace.source.clone(),
        queries: cache.requests,
        distinct: trace.distinct as u64,
        hits: cache.hits,
        hit_ratio: cache.hit_ratio(),
        sim_hits: sim.hits,
        failed,
        queries_per_s: cache.requests as f64 / seconds.max(1e-9),
        p50_ms: percentile(&times, 50.0),
        p99_ms: percentile(&times, 99.0),
        policy: spec.policy.name().to_string(),
        size: spec.size,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 99.0), 99.0);
        assert_eq!(percentile(&[3.0], 99.0), 3.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
