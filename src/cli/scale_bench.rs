//! `bench scale`: issue 14's scale figures. A generated corpus of `--pages` pages with 1 %
//! planted near-duplicates is fingerprinted in streamed chunks into one `signatures` file
//! (kept with `--sig FILE`, so each engine's process reuses it), grouped on `--engine`, the
//! candidates verified, and the planted pairs checked off; one JSON row per run with the
//! process's peak RSS. `--crossover ROWS.jsonl` fits the crossover model to rows of several
//! sizes and engines (`scale/bench.sh` runs the whole matrix, one process per run).

use std::path::PathBuf;

use clap::Args;

use super::bigjobs::EngineArgs;

#[derive(Debug, Clone, Args)]
pub struct BenchScaleArgs {
    /// Pages of the generated corpus.
    #[arg(long, default_value_t = 1_000_000)]
    pub pages: usize,
    /// Planted near-duplicate copies (default: 1 % of the pages).
    #[arg(long)]
    pub planted: Option<usize>,
    /// Pages per chunk of the streamed signature stage (bounds its memory).
    #[arg(long, default_value_t = 200_000)]
    pub chunk: usize,
    /// The signatures directory: reused when it holds this corpus's files, else written and kept.
    #[arg(long)]
    pub sig: Option<PathBuf>,
    /// Fit the crossover model to the JSON rows in this file (one per line) and exit.
    #[arg(long, value_name = "ROWS.jsonl")]
    pub crossover: Option<PathBuf>,
    /// Machines in the crossover model.
    #[arg(long, default_value_t = 12)]
    pub machines: usize,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[arg(long)]
    pub json: bool,
}

pub fn bench(a: &BenchScaleArgs) -> anyhow::Result<()> {
    #[cfg(feature = "bigjobs")]
    {
        imp::bench(a)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = a;
        Err(crate::engine::error::EngineError::invalid(
            "bench scale",
            "this build has no big jobs: cargo run --release --features bigjobs -- bench scale …",
        )
        .into())
    }
}

#[cfg(feature = "bigjobs")]
mod imp {
    use std::path::Path;

    use serde_json::{Value, json};

    use super::BenchScaleArgs;
    use crate::cli::{Bar, peak_rss_mb, print_json};
    use crate::engine::dedup::devset::Synthetic;
    use crate::engine::dedup::scale::{self, SigStage};
    use crate::engine::error::EngineError;
    use crate::engine::exec::scratch::ScratchDir;

    fn sidecar(sig: &Path) -> std::path::PathBuf {
        sig.join("stage.json")
    }

    pub fn bench(a: &BenchScaleArgs) -> anyhow::Result<()> {
        if let Some(rows) = &a.crossover {
            return crossover(rows, a.machines, a.json);
        }
        if a.pages < 2 {
            return Err(EngineError::invalid("--pages", "at least 2 pages").into());
        }
        let engine = a.engine.config()?;
        let planted = a.planted.unwrap_or((a.pages / 100).max(1));
        let spec = Synthetic::new(a.pages, planted, 42);
        let cfg = scale::scale_config();
        let work = ScratchDir::new("scale")?;
        let sig = a
            .sig
            .clone()
            .unwrap_or_else(|| work.path().join("signatures"));
        let bar = indicatif::ProgressBar::new(1000);
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        let tick = Bar(bar.clone());
        let stage: SigStage = match std::fs::read(sidecar(&sig)) {
            Ok(b) if sig.exists() => match serde_json::from_slice::<SigStage>(&b) {
                Ok(s) if (s.pages, s.planted, s.seed) == (spec.n, spec.planted, spec.seed) => s,
                _ => write(&spec, &cfg, a.chunk, &sig, &tick)?,
            },
            _ => write(&spec, &cfg, a.chunk, &sig, &tick)?,
        };
        let mut row = scale::run(&spec, &engine, &stage, &sig, work.path(), &tick)?;
        bar.finish_and_clear();
        row.peak_rss_mb = peak_rss_mb().unwrap_or(0.0);
        let v = json!({
            "rows": [row],
            "signatures_file_mb": stage.bytes as f64 / 1e6,
            "pool_mb": engine.memory_mb,
            "targets": {"peak_rss_mb": 8192, "planted_found": planted},
        });
        if a.json {
            print_json(&v)
        } else {
            println!("{}", serde_json::to_string_pretty(&v)?);
            Ok(())
        }
    }

    fn write(
        spec: &Synthetic,
        cfg: &crate::engine::dedup::Config,
        chunk: usize,
        sig: &Path,
        tick: &Bar,
    ) -> anyhow::Result<SigStage> {
        let s = scale::write_signatures(spec, cfg, chunk, sig, tick)?;
        std::fs::write(sidecar(sig), serde_json::to_vec(&s)?)?;
        Ok(s)
    }

    /// Fit the model: per-page costs from the largest run of each engine, the distributed
    /// fixed cost from the smallest Spark run. Only Spark is modelled as the cluster: DataFusion
    /// here is one process (its rows are the one-process run that spills past memory), and
    /// with no measured start-up cost a model of it on many machines would say nothing.
    fn crossover(path: &Path, machines: usize, as_json: bool) -> anyhow::Result<()> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
        let mut rows: Vec<Value> = Vec::new();
        for (i, l) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Value = serde_json::from_str(l)
                .map_err(|e| EngineError::bad_input(path.display(), i + 1, e.to_string()))?;
            match v.get("rows").and_then(Value::as_array) {
                Some(rs) => rows.extend(rs.iter().cloned()),
                None => rows.push(v),
            }
        }
        let of = |tool: &str| -> Vec<&Value> {
            let mut v: Vec<&Value> = rows.iter().filter(|r| r["tool"] == tool).collect();
            v.sort_by_key(|r| r["pages"].as_u64().unwrap_or(0));
            v
        };
        let per_page = |r: &Value, f: &str| {
            r[f].as_f64().unwrap_or(0.0) / r["pages"].as_f64().unwrap_or(1.0).max(1.0)
        };
        let native = of("tianwang-native");
        let mut out = Vec::new();
        for dist in ["tianwang-spark"] {
            let d = of(dist);
            let (Some(nl), Some(dl), Some(ds)) = (native.last(), d.last(), d.first()) else {
                continue;
            };
            let sig = per_page(nl, "signatures_s");
            let g1 = per_page(nl, "group_s") + per_page(nl, "verify_s");
            // Fixed cost: the smallest run's grouping minus its per-page share at the largest's rate.
            let gd = if d.len() > 1 {
                let (n0, n1) = (
                    ds["pages"].as_f64().unwrap_or(0.0),
                    dl["pages"].as_f64().unwrap_or(1.0),
                );
                let (t0, t1) = (
                    ds["group_s"].as_f64().unwrap_or(0.0),
                    dl["group_s"].as_f64().unwrap_or(0.0),
                );
                ((t1 - t0) / (n1 - n0).max(1.0)).max(0.0)
            } else {
                per_page(dl, "group_s")
            } + per_page(dl, "verify_s");
            let fixed = (ds["group_s"].as_f64().unwrap_or(0.0)
                - gd * ds["pages"].as_f64().unwrap_or(0.0))
            .max(0.0);
            let c = scale::crossover(sig, g1, fixed, gd, machines);
            // What this machine shows: each size both ran, one process against the engine.
            let measured: Vec<Value> = d
                .iter()
                .filter_map(|r| {
                    let n = r["pages"].as_u64()?;
                    let one = native.iter().find(|x| x["pages"].as_u64() == Some(n))?;
                    let (t1, td) = (one["total_s"].as_f64()?, r["total_s"].as_f64()?);
                    Some(json!({"pages": n, "one_process_s": t1, "engine_s": td,
                                "engine_wins": td < t1}))
                })
                .collect();
            out.push(json!({"engine": dist, "model": c, "measured": measured}));
        }
        let v = json!({"crossover": out, "rows": rows});
        if as_json {
            print_json(&v)
        } else {
            println!("{}", serde_json::to_string_pretty(&v)?);
            Ok(())
        }
    }
}
