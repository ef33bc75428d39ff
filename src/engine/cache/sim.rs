//! Run policies over a trace at many sizes, in parallel, and report what the CLI prints and
//! the panel plots: hits, misses, hit and miss ratios, byte miss ratio, the hit ratio over
//! time (warm-up visible) and the replacement cost per request.
//!
//! Sizes are in objects (count-based, the book's "entries" [L3423–L3425]) or in bytes
//! (`bytes = true`, §8.6's inverted-file cache); a size may be a percentage of the working
//! set (distinct objects or distinct bytes). Every (policy, size) pair is an independent
//! simulation; rayon spreads them over the cores. LRU can instead come from one
//! stack-distance pass for all sizes ([`super::stack`]).
//!
//! ```
//! use tianwang::engine::cache::policy::PolicyKind;
//! use tianwang::engine::cache::sim::{simulate, SimConfig, SizeSpec};
//! use tianwang::engine::cache::trace::{Generator, Trace};
//! let trace = Generator::zipf(1_000, 0.9, 20_000, 1).into_trace();
//! let cfg = SimConfig {
//!     policies: vec![PolicyKind::Lru, PolicyKind::Opt, PolicyKind::Infinite],
//!     sizes: vec![SizeSpec::Units(100)],
//!     ..SimConfig::default()
//! };
//! let r = simulate(&trace, &cfg, &()).unwrap();
//! let miss = |k| r.results.iter().find(|x| x.policy == k).unwrap().miss_ratio;
//! assert!(miss(PolicyKind::Opt) <= miss(PolicyKind::Lru));
//! assert!(miss(PolicyKind::Infinite) <= miss(PolicyKind::Opt));
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::policy::{PolicyKind, PolicyParams, build};
use super::stack::{self, Warmup};
use super::trace::{Trace, TraceStats, next_uses};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;
use crate::engine::querylog::read::BadLines;

/// A cache size: units, or a percentage of the working set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeSpec {
    Units(u64),
    Percent(f64),
}

impl SizeSpec {
    /// Parse `100,1000,10%` (the `--size` flag).
    pub(crate) fn parse_list(s: &str, flag: &str) -> Result<Vec<SizeSpec>> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let spec = if let Some(p) = part.strip_suffix('%') {
                let v: f64 = p.trim().parse().map_err(|_| {
                    EngineError::invalid_flaw(flag, Flaw::new("flaw.param_not_percent", &[&part]))
                })?;
                if !(v > 0.0 && v <= 100.0) {
                    return Err(EngineError::invalid_flaw(
                        flag,
                        Flaw::new("flaw.param_percent_range", &[&part]),
                    ));
                }
                SizeSpec::Percent(v)
            } else {
                let v = parse_units(part).ok_or_else(|| {
                    EngineError::invalid_flaw(flag, Flaw::new("flaw.param_not_size", &[&part]))
                })?;
                if v == 0 {
                    return Err(EngineError::invalid_flaw(
                        flag,
                        Flaw::new("flaw.param_size_zero", &[]),
                    ));
                }
                SizeSpec::Units(v)
            };
            out.push(spec);
        }
        if out.is_empty() {
            return Err(EngineError::invalid_flaw(
                flag,
                Flaw::new("flaw.param_no_size", &[]),
            ));
        }
        Ok(out)
    }

    /// Units for a working set of `working_set` units.
    pub fn resolve(self, working_set: u64) -> u64 {
        match self {
            SizeSpec::Units(u) => u,
            SizeSpec::Percent(p) => ((working_set as f64 * p / 100.0).round() as u64).max(1),
        }
    }
}

/// `4096`, `4k`, `64KB`, `1.5M`, `2GiB` (powers of 1024).
fn parse_units(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let s = s.trim_end_matches("ib").trim_end_matches('b');
    let (num, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1u64 << 10),
        'm' => (&s[..s.len() - 1], 1 << 20),
        'g' => (&s[..s.len() - 1], 1 << 30),
        't' => (&s[..s.len() - 1], 1 << 40),
        _ => (s, 1),
    };
    if mult == 1 {
        return num.parse().ok();
    }
    let v: f64 = num.parse().ok()?;
    (v >= 0.0).then(|| (v * mult as f64).round() as u64)
}

/// What to simulate.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SimConfig {
    pub policies: Vec<PolicyKind>,
    pub sizes: Vec<SizeSpec>,
    /// Byte-based capacity (sizes in bytes, objects weigh their size).
    pub bytes: bool,
    pub warmup: Warmup,
    pub params: PolicyParams,
    /// Points of the hit-ratio-over-time series per run (0: none).
    pub windows: usize,
    /// LRU from one stack-distance pass for all sizes instead of one simulation per size.
    pub lru_by_stack: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            policies: vec![PolicyKind::Lru],
            sizes: vec![SizeSpec::Units(100)],
            bytes: false,
            warmup: Warmup::None,
            params: PolicyParams::default(),
            windows: 0,
            lru_by_stack: false,
        }
    }
}

/// One (policy, size) outcome.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunResult {
    pub policy: PolicyKind,
    /// Capacity in units (objects, or bytes with `bytes`).
    pub size: u64,
    /// Requests counted (after warm-up).
    pub requests: u64,
    pub hits: u64,
    pub misses: u64,
    pub hit_ratio: f64,
    pub miss_ratio: f64,
    pub byte_hit_ratio: f64,
    pub byte_miss_ratio: f64,
    /// Index of the first counted request.
    pub warmup_end: u64,
    pub evictions: u64,
    pub elapsed_s: f64,
    /// Wall time per request (the replacement cost the book weighs against LFU-decay [L3444]).
    pub ns_per_request: f64,
    /// The book's section when the policy is the book's; absent = "not in book".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// "simulation" or "stack-distance".
    pub method: String,
    /// Hit ratio per window of the trace (counted requests only; NaN before warm-up ends).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<f64>,
}

/// Everything one call reports.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SimReport {
    pub trace: TraceStats,
    pub source: String,
    /// Lines of the source that were skipped (a query log's bad lines), by line number.
    #[serde(default, skip_serializing_if = "no_bad_lines")]
    pub bad_lines: BadLines,
    pub bytes: bool,
    pub results: Vec<RunResult>,
    pub elapsed_s: f64,
    /// Requests simulated per second of wall time (all runs, all cores).
    pub requests_per_s: f64,
}

fn no_bad_lines(b: &BadLines) -> bool {
    b.count == 0
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Simulate one policy at one size over the trace.
pub fn run_one(
    trace: &Trace,
    next: Option<&[u64]>,
    kind: PolicyKind,
    size: u64,
    cfg: &SimConfig,
    cancel: &AtomicBool,
) -> Result<RunResult> {
    let mut p = build(kind, size, &cfg.params);
    let n = trace.reqs.len();
    let window = if cfg.windows > 0 {
        n.div_ceil(cfg.windows).max(1)
    } else {
        usize::MAX
    };
    let mut series = Vec::new();
    let (mut w_req, mut w_hit) = (0u64, 0u64);
    let (mut req, mut hits, mut bytes, mut byte_hits) = (0u64, 0u64, 0u64, 0u64);
    let mut counting = cfg.warmup == Warmup::None;
    let mut warmup_end = 0u64;
    let start = Instant::now();
    for (i, r) in trace.reqs.iter().enumerate() {
        if i & 0x3_FFFF == 0 && cancel.load(Ordering::Relaxed) {
            return Err(EngineError::Cancelled);
        }
        if let Warmup::Requests(k) = cfg.warmup
            && !counting
            && i as u64 >= k
        {
            counting = true;
            warmup_end = i as u64;
        }
        let units = if cfg.bytes { r.size as u64 } else { 1 };
        let nx = next.map(|v| v[i]).unwrap_or(u64::MAX);
        let hit = p.access(r.id, units, nx);
        if counting {
            req += 1;
            bytes += r.size as u64;
            w_req += 1;
            if hit {
                hits += 1;
                byte_hits += r.size as u64;
                w_hit += 1;
            }
        } else if cfg.warmup == Warmup::Full && (p.used() >= size || p.evictions() > 0) {
            counting = true;
            warmup_end = i as u64 + 1;
        }
        if (i + 1) % window == 0 || i + 1 == n {
            if cfg.windows > 0 {
                series.push(if w_req == 0 {
                    f64::NAN
                } else {
                    ratio(w_hit, w_req)
                });
            }
            w_req = 0;
            w_hit = 0;
        }
    }
    if !counting {
        warmup_end = n as u64;
    }
    let elapsed = start.elapsed().as_secs_f64();
    Ok(RunResult {
        policy: kind,
        size,
        requests: req,
        hits,
        misses: req - hits,
        hit_ratio: ratio(hits, req),
        miss_ratio: if req == 0 {
            0.0
        } else {
            1.0 - ratio(hits, req)
        },
        byte_hit_ratio: ratio(byte_hits, bytes),
        byte_miss_ratio: if bytes == 0 {
            0.0
        } else {
            1.0 - ratio(byte_hits, bytes)
        },
        warmup_end,
        evictions: p.evictions(),
        elapsed_s: elapsed,
        ns_per_request: elapsed * 1e9 / n.max(1) as f64,
        book: kind.book_ref().map(str::to_string),
        method: "simulation".into(),
        series,
    })
}

/// Every policy at every size, in parallel. Results are ordered by policy (as given), then
/// by size.
pub fn simulate(trace: &Trace, cfg: &SimConfig, tick: &dyn Tick) -> Result<SimReport> {
    cfg.params.validate()?;
    if cfg.policies.is_empty() || cfg.sizes.is_empty() {
        return Err(EngineError::invalid("policy/size", "nothing to simulate"));
    }
    let stats = trace.stats();
    let working_set = if cfg.bytes {
        stats.distinct_bytes
    } else {
        stats.distinct
    };
    let mut sizes: Vec<u64> = cfg.sizes.iter().map(|s| s.resolve(working_set)).collect();
    sizes.dedup();
    let start = Instant::now();
    let next = if cfg.policies.iter().any(|k| k.is_offline()) {
        let ids: Vec<u32> = trace.ids().collect();
        Some(next_uses(&ids))
    } else {
        None
    };
    let mut jobs: Vec<(PolicyKind, u64)> = Vec::new();
    for &k in &cfg.policies {
        if k == PolicyKind::Lru && cfg.lru_by_stack {
            continue;
        }
        for &s in &sizes {
            jobs.push((k, s));
        }
    }
    let cancel = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let total = jobs.len() + usize::from(cfg.lru_by_stack);
    let (tx, rx) = crossbeam_channel::unbounded::<()>();
    let mut results: Vec<Result<RunResult>> = Vec::new();
    let mut stack_result: Option<Result<Vec<RunResult>>> = None;
    std::thread::scope(|s| {
        s.spawn(|| {
            results = jobs
                .par_iter()
                .map(|&(k, size)| {
                    let r = run_one(trace, next.as_deref(), k, size, cfg, &cancel);
                    done.fetch_add(1, Ordering::Relaxed);
                    let _ = tx.send(());
                    r
                })
                .collect();
            if cfg.lru_by_stack && cfg.policies.contains(&PolicyKind::Lru) {
                stack_result = Some(lru_by_stack(trace, &sizes, cfg));
                done.fetch_add(1, Ordering::Relaxed);
            }
            drop(tx);
        });
        // Report progress from this thread; a cancel stops the workers at their next check.
        while rx.recv().is_ok() {
            let d = done.load(Ordering::Relaxed);
            if tick
                .tick(d as f32 / total.max(1) as f32, &format!("{d}/{total} runs"))
                .is_err()
            {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    });
    if cancel.load(Ordering::Relaxed) {
        return Err(EngineError::Cancelled);
    }
    let mut all: Vec<RunResult> = results.into_iter().collect::<Result<_>>()?;
    if let Some(r) = stack_result {
        all.extend(r?);
    }
    let order = |k: PolicyKind| cfg.policies.iter().position(|&p| p == k).unwrap_or(0);
    all.sort_by(|a, b| {
        order(a.policy)
            .cmp(&order(b.policy))
            .then(a.size.cmp(&b.size))
    });
    let elapsed = start.elapsed().as_secs_f64();
    let simulated = trace.len() as f64 * all.len() as f64;
    Ok(SimReport {
        trace: stats,
        source: trace.source.clone(),
        bad_lines: trace.bad_lines.clone(),
        bytes: cfg.bytes,
        results: all,
        elapsed_s: elapsed,
        requests_per_s: simulated / elapsed.max(1e-9),
    })
}

/// LRU at all `sizes` in one stack-distance pass.
fn lru_by_stack(trace: &Trace, sizes: &[u64], cfg: &SimConfig) -> Result<Vec<RunResult>> {
    let start = Instant::now();
    let pts = if cfg.bytes {
        stack::lru_all_sizes(
            trace
                .reqs
                .iter()
                .map(|r| (r.id, r.size as u64, r.size as u64)),
            trace.len() as u64,
            sizes,
            cfg.warmup,
            &(),
        )?
    } else {
        stack::lru_all_sizes_counted(
            trace.reqs.iter().map(|r| (r.id, r.size as u64)),
            trace.len() as u64,
            sizes,
            cfg.warmup,
            &(),
        )?
    };
    let elapsed = start.elapsed().as_secs_f64();
    Ok(pts
        .into_iter()
        .map(|p| RunResult {
            policy: PolicyKind::Lru,
            size: p.size,
            requests: p.requests,
            hits: p.hits,
            misses: p.requests - p.hits,
            hit_ratio: ratio(p.hits, p.requests),
            miss_ratio: if p.requests == 0 {
                0.0
            } else {
                1.0 - ratio(p.hits, p.requests)
            },
            byte_hit_ratio: ratio(p.byte_hits, p.bytes),
            byte_miss_ratio: if p.bytes == 0 {
                0.0
            } else {
                1.0 - ratio(p.byte_hits, p.bytes)
            },
            warmup_end: trace.len() as u64 - p.requests,
            evictions: 0,
            elapsed_s: elapsed,
            ns_per_request: elapsed * 1e9 / trace.len().max(1) as f64,
            book: PolicyKind::Lru.book_ref().map(str::to_string),
            method: "stack-distance".into(),
            series: Vec::new(),
        })
        .collect())
}

/// `count` sizes spaced evenly on a log axis from `lo` to `hi` (for sweeps and plots).
pub(crate) fn log_sizes(lo: u64, hi: u64, count: usize) -> Vec<u64> {
    let (lo, hi) = (lo.max(1), hi.max(lo.max(1)));
    if count <= 1 || lo == hi {
        return vec![hi];
    }
    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
    let mut v: Vec<u64> = (0..count)
        .map(|i| (a + (b - a) * i as f64 / (count - 1) as f64).exp().round() as u64)
        .collect();
    v.dedup();
    v
}

/// The book's Table 9-2 [L3433–L3438]: (size, LRU hit ratio, tuned LFU-decay hit ratio).
pub(crate) const TABLE_9_2: [(u64, f64, f64); 6] = [
    (100, 0.629381, 0.629934),
    (300, 0.680018, 0.680690),
    (500, 0.692691, 0.694037),
    (1000, 0.707481, 0.711096),
    (2000, 0.723485, 0.729509),
    (3000, 0.733972, 0.741040),
];

/// The infinite-cache ceiling of the ch. 9 log: 1 − 1.6×10⁵/9.6×10⁵ [L3247].
pub(crate) const BOOK_CEILING: f64 = 1.0 - 1.6e5 / 9.6e5;

/// Table 9-2's procedure: for each size, the δ (from `candidates`) with the highest LFU-decay
/// hit ratio. Returns (size, best δ, its hit ratio) per size.
pub(crate) fn tune_decay(
    trace: &Trace,
    sizes: &[u64],
    candidates: &[f64],
    tick: &dyn Tick,
) -> Result<Vec<(u64, f64, f64)>> {
    let cancel = AtomicBool::new(false);
    let pairs: Vec<(u64, f64)> = sizes
        .iter()
        .flat_map(|&s| candidates.iter().map(move |&d| (s, d)))
        .collect();
    tick.tick(0.0, "tuning δ")?;
    let runs: Vec<Result<(u64, f64, f64)>> = pairs
        .par_iter()
        .map(|&(s, d)| {
            let cfg = SimConfig {
                params: PolicyParams {
                    decay: d,
                    ..PolicyParams::default()
                },
                ..SimConfig::default()
            };
            run_one(trace, None, PolicyKind::LfuDecay, s, &cfg, &cancel)
                .map(|r| (s, d, r.hit_ratio))
        })
        .collect();
    let runs: Vec<(u64, f64, f64)> = runs.into_iter().collect::<Result<_>>()?;
    let mut best: Vec<(u64, f64, f64)> = Vec::new();
    for &s in sizes {
        if let Some(b) = runs
            .iter()
            .filter(|r| r.0 == s)
            .max_by(|a, b| a.2.total_cmp(&b.2).then(b.1.total_cmp(&a.1)))
        {
            best.push(*b);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cache::trace::Generator;

    #[test]
    fn sizes_parse_and_bad_ones_name_the_flag() {
        assert_eq!(
            SizeSpec::parse_list("100, 4k,10%", "--size").unwrap(),
            vec![
                SizeSpec::Units(100),
                SizeSpec::Units(4096),
                SizeSpec::Percent(10.0)
            ]
        );
        for bad in ["0", "abc", "150%", ""] {
            let e = SizeSpec::parse_list(bad, "--size").unwrap_err();
            assert!(e.to_string().contains("--size"), "{bad}: {e}");
        }
        assert_eq!(SizeSpec::Percent(10.0).resolve(48_974), 4_897);
    }

    #[test]
    fn opt_is_never_above_any_policy_and_infinite_is_the_floor() {
        let trace = Generator::new(crate::engine::cache::trace::GenSpec {
            objects: 3_000,
            alpha: 0.8,
            requests: 60_000,
            seed: 8,
            shift_every: Some(20_000),
            scan_every: Some(7_000),
            scan_len: 300,
            ..Default::default()
        })
        .into_trace();
        let cfg = SimConfig {
            policies: PolicyKind::ALL.to_vec(),
            sizes: vec![
                SizeSpec::Units(20),
                SizeSpec::Units(300),
                SizeSpec::Units(2_000),
            ],
            ..SimConfig::default()
        };
        let r = simulate(&trace, &cfg, &()).unwrap();
        for s in [20, 300, 2_000] {
            let at = |k| {
                r.results
                    .iter()
                    .find(|x| x.policy == k && x.size == s)
                    .unwrap()
                    .misses
            };
            let opt = at(PolicyKind::Opt);
            for k in PolicyKind::ALL {
                if k != PolicyKind::Infinite {
                    assert!(opt <= at(k), "OPT {opt} > {} {} at {s}", k.name(), at(k));
                }
            }
            assert!(at(PolicyKind::Infinite) <= opt);
            assert_eq!(at(PolicyKind::Infinite), trace.distinct as u64);
        }
    }

    #[test]
    fn stack_lru_equals_simulated_lru_through_simulate() {
        let trace = Generator::zipf(5_000, 0.7, 50_000, 3).into_trace();
        let mut cfg = SimConfig {
            policies: vec![PolicyKind::Lru],
            sizes: log_sizes(1, 6_000, 25)
                .into_iter()
                .map(SizeSpec::Units)
                .collect(),
            warmup: Warmup::Full,
            ..SimConfig::default()
        };
        let a = simulate(&trace, &cfg, &()).unwrap();
        cfg.lru_by_stack = true;
        let b = simulate(&trace, &cfg, &()).unwrap();
        for (x, y) in a.results.iter().zip(&b.results) {
            assert_eq!((x.size, x.requests, x.hits), (y.size, y.requests, y.hits));
        }
    }

    #[test]
    fn series_has_one_point_per_window() {
        let trace = Generator::zipf(100, 0.9, 10_000, 3).into_trace();
        let cfg = SimConfig {
            windows: 20,
            ..SimConfig::default()
        };
        let r = simulate(&trace, &cfg, &()).unwrap();
        assert_eq!(r.results[0].series.len(), 20);
    }

    #[test]
    fn the_chapter9_stream_reproduces_table_9_2_lru_and_the_ceiling() {
        let trace =
            Generator::new(crate::engine::cache::trace::GenSpec::chapter9(1.0, 1)).into_trace();
        let st = trace.stats();
        assert!((1.0 - st.compulsory_miss_ratio - BOOK_CEILING).abs() < 0.002);
        let sizes: Vec<u64> = TABLE_9_2.iter().map(|t| t.0).collect();
        let pts = stack::lru_all_sizes(
            trace.reqs.iter().map(|r| (r.id, 1, 1)),
            trace.len() as u64,
            &sizes,
            Warmup::None,
            &(),
        )
        .unwrap();
        for (p, (size, book_lru, _)) in pts.iter().zip(TABLE_9_2) {
            let h = p.hits as f64 / p.requests as f64;
            assert!(
                (h - book_lru).abs() < 0.012,
                "LRU@{size}: {h:.4} vs book {book_lru}"
            );
        }
    }
}
