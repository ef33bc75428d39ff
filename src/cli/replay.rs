//! `tianwang search --workspace W --replay (FILE | --log ID) --cache POLICY:SIZE [--json]`: the
//! book's result-cache experiment (§9.10, §8.6) on the real query service
//! (`workbench::service::replay`): `{"queries","hits","hit_ratio","queries_per_s","p50_ms",
//! "p99_ms","policy","size",…}`, with `sim_hits` — the cache lab's simulation of the same stream
//! — beside the hits the service had.

use super::index::{SearchArgs, rank_config};
use super::{Bar, Cli, print_json};
use crate::engine::cache::job::TraceSource;
use crate::engine::cache::trace::{Format, ReadOptions};
use crate::engine::error::EngineError;
use crate::workbench::service::{self, CacheSpec, replay};

/// Run a replay.
pub fn run(cli: &Cli, a: &SearchArgs) -> anyhow::Result<()> {
    let ws = super::own_workspace(cli).ok_or_else(|| {
        EngineError::invalid(
            "--workspace",
            "a replay runs on a workspace's query service",
        )
    })?;
    let spec = CacheSpec::parse(a.cache.as_deref().ok_or_else(|| {
        EngineError::invalid(
            "--cache",
            "say which cache stands in front: --cache lru:100",
        )
    })?)?;
    let stream = match (a.replay.clone().flatten(), a.log) {
        (Some(path), None) => {
            if !path.is_file() {
                return Err(EngineError::BadPath {
                    path,
                    reason: "no such file (--replay)".into(),
                }
                .into());
            }
            let format = match a.replay_format.as_str() {
                "lines" => Format::Lines,
                "sogouq" => Format::Sogouq,
                v => {
                    return Err(EngineError::invalid(
                        "--replay-format",
                        format!("`{v}`: lines or sogouq"),
                    )
                    .into());
                }
            };
            TraceSource::File {
                path,
                options: ReadOptions {
                    format,
                    ..ReadOptions::default()
                },
            }
        }
        (None, Some(id)) => TraceSource::StoredLog {
            workspace: ws.clone(),
            log_id: id,
            with_page: false,
        },
        _ => {
            return Err(EngineError::invalid(
                "--replay",
                "give the stream: --replay FILE, or --replay --log ID",
            )
            .into());
        }
    };
    if a.index.is_some() {
        return Err(EngineError::invalid(
            "--index",
            "a replay serves the workspace's own index; leave --index out",
        )
        .into());
    }
    let cfg = rank_config(a)?;
    let s = service::open(&ws)?;
    let bar = Bar::new();
    let r = replay::replay(&s, &stream, spec, &cfg, &bar)?;
    bar.0.finish_and_clear();
    if a.json {
        return print_json(&serde_json::to_value(&r)?);
    }
    println!(
        "{} queries ({} distinct) from {} through {}:{}: {} hits ({:.4}; the cache lab's \
         simulation: {}), {:.0} queries/s, p50 {:.2} ms, p99 {:.2} ms{}",
        r.queries,
        r.distinct,
        r.source,
        r.policy,
        r.size,
        r.hits,
        r.hit_ratio,
        r.sim_hits,
        r.queries_per_s,
        r.p50_ms,
        r.p99_ms,
        if r.failed > 0 {
            format!(", {} failed", r.failed)
        } else {
            String::new()
        }
    );
    Ok(())
}
