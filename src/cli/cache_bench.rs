//! `tianwang bench cache [--peers]`: every common policy's requests/s and miss ratios on
//! cloudPhysics beside libCacheSim's in the same run, and LRU at 10 sizes in one stack-distance
//! pass over a generated 100-million-request trace (issue 12's speed targets).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use super::peers::{self, PeerArgs};
use super::{peak_rss_mb, print_json};
use crate::engine::cache::policy::PolicyKind;
use crate::engine::cache::sim::{self, SimConfig, SizeSpec, log_sizes};
use crate::engine::cache::stack::{self, Warmup};
use crate::engine::cache::trace::{self, GenSpec, ReadOptions};

#[derive(Debug, Args)]
pub struct BenchCacheArgs {
    /// Also run libCacheSim (its PyPI package, bench/peers/cache_peers.py in the peers venv).
    #[arg(long)]
    pub peers: bool,
    /// The trace (default: the installed cloudphysics set's cloudPhysicsIO.txt).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    #[arg(long, default_value = "lru,fifo,lfu,clock,arc,s3fifo,sieve,2q")]
    pub policy: String,
    #[arg(long, default_value = "100,1000,5000,10000,20000")]
    pub size: String,
    /// Requests of the generated stream for the one-pass LRU at 10 sizes (0 skips it).
    #[arg(long, default_value_t = 100_000_000)]
    pub stack_requests: u64,
    /// Objects of that stream (Zipf α = 0.8).
    #[arg(long, default_value_t = 1_000_000)]
    pub stack_objects: u32,
    /// Runs per (policy, size); the best time counts.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    #[command(flatten)]
    pub peer: PeerArgs,
    #[arg(long)]
    pub json: bool,
}

/// `tianwang bench cache`: ours (and libCacheSim with --peers) on the same trace and
/// policies; then the one-pass LRU curve over a large generated stream.
/// `data`: the global `--data`.
pub fn bench(a: &BenchCacheArgs, data: Option<&Path>) -> anyhow::Result<()> {
    let path = match &a.trace {
        Some(t) => t.clone(),
        None => crate::engine::data::DataDir::resolve(data)?
            .require("cloudphysics")?
            .join("cloudPhysicsIO.txt"),
    };
    let t = trace::read_file(&path, &ReadOptions::default())?;
    let policies = PolicyKind::parse_list(&a.policy, "--policy")?;
    let sizes: Vec<u64> = SizeSpec::parse_list(&a.size, "--size")?
        .into_iter()
        .map(|s| s.resolve(t.distinct as u64))
        .collect();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut ours = serde_json::Map::new();
    for &k in &policies {
        let (mut secs, mut runs) = (0.0, serde_json::Map::new());
        for &s in &sizes {
            let cfg = SimConfig {
                policies: vec![k],
                ..SimConfig::default()
            };
            let mut best = f64::INFINITY;
            let mut miss = 0.0;
            for _ in 0..a.repeat.max(1) {
                let r = sim::run_one(&t, None, k, s, &cfg, &cancel)?;
                best = best.min(r.elapsed_s);
                miss = r.miss_ratio;
            }
            secs += best;
            runs.insert(s.to_string(), json!({"miss_ratio": miss, "seconds": best}));
        }
        let rps = t.len() as f64 * sizes.len() as f64 / secs;
        ours.insert(
            k.name().into(),
            json!({"requests_per_s": rps, "sizes": runs}),
        );
    }
    let mut out = json!({
        "trace": path, "requests": t.len(), "distinct": t.distinct,
        "note": "requests/s: one thread, best of --repeat; ours over the trace in memory, libCacheSim's process_trace over its reader",
        "tianwang": ours,
    });
    if a.peers {
        let join = |v: Vec<String>| OsString::from(v.join(","));
        let peer = peers::run(
            &a.peer,
            "cache_peers.py",
            &[
                "--trace".into(),
                path.clone().into(),
                "--policies".into(),
                join(policies.iter().map(|k| k.name().to_string()).collect()),
                "--sizes".into(),
                join(sizes.iter().map(u64::to_string).collect()),
                "--repeat".into(),
                a.repeat.max(1).to_string().into(),
            ],
        )?
        .json;
        let mut cmp = serde_json::Map::new();
        for &k in &policies {
            let (Some(us), Some(them)) = (
                out["tianwang"][k.name()]["requests_per_s"].as_f64(),
                peer[k.name()]["requests_per_s"].as_f64(),
            ) else {
                continue;
            };
            let mut max_diff: f64 = 0.0;
            for s in &sizes {
                let key = s.to_string();
                if let (Some(x), Some(y)) = (
                    out["tianwang"][k.name()]["sizes"][&key]["miss_ratio"].as_f64(),
                    peer[k.name()]["sizes"][&key]["miss_ratio"].as_f64(),
                ) {
                    max_diff = max_diff.max((x - y).abs());
                }
            }
            cmp.insert(
                k.name().into(),
                json!({"speed_ratio": us / them, "max_miss_ratio_diff": max_diff}),
            );
        }
        out["libcachesim"] = peer;
        out["ours_vs_libcachesim"] = Value::Object(cmp);
    }
    if a.stack_requests > 0 {
        let spec = GenSpec {
            objects: a.stack_objects.max(1),
            alpha: 0.8,
            requests: a.stack_requests,
            seed: 7,
            ..GenSpec::default()
        };
        let sizes = log_sizes(1_000, a.stack_objects as u64, 10);
        let start = Instant::now();
        let g = trace::Generator::new(spec.clone());
        let pts = stack::lru_all_sizes_counted(
            g.map(|id| (id, 1)),
            spec.requests,
            &sizes,
            Warmup::None,
            &(),
        )?;
        let secs = start.elapsed().as_secs_f64();
        out["stack_lru"] = json!({
            "stream": format!("zipf α={} objects={} requests={}", spec.alpha, spec.objects, spec.requests),
            "sizes": pts.iter().map(|p| json!({"size": p.size, "hit_ratio": p.hits as f64 / p.requests.max(1) as f64})).collect::<Vec<_>>(),
            "seconds": secs,
            "requests_per_s": spec.requests as f64 / secs,
            "peak_rss_mb": peak_rss_mb(),
            "target_s": 60,
        });
    }
    // The shape every lab's bench prints: a row per (tool, policy) and the ratio.
    let corpus = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut rows = Vec::new();
    for &k in &policies {
        for (tool, v) in [
            ("tianwang", &out["tianwang"]),
            ("libcachesim", &out["libcachesim"]),
        ] {
            let p = &v[k.name()];
            if let Some(rps) = p["requests_per_s"].as_f64() {
                let miss: serde_json::Map<String, Value> = sizes
                    .iter()
                    .map(|s| {
                        (
                            s.to_string(),
                            p["sizes"][s.to_string()]["miss_ratio"].clone(),
                        )
                    })
                    .collect();
                rows.push(json!({"tool": tool, "corpus": corpus, "policy": k.name(),
                    "requests_per_s": rps, "miss_ratio_by_size": miss}));
            }
        }
    }
    out["rows"] = Value::Array(rows);
    if let Some(c) = out.get("ours_vs_libcachesim").cloned() {
        out["ratio"] = c;
    }
    if a.json {
        print_json(&out)?;
    } else {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}
