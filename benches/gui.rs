//! Frame times of every panel and tab on a large workspace (issue 30, item 4): 100,000 pages
//! with DocView results, dedup groups, the index and PageRank, a stored 10,000,000-line query
//! log, and a cache run of 17 policies × 20 sizes made in the panel. The workspace is built once
//! with the release binary into `--workspace DIR` (default `target/gui-bench`) and reused.
//!
//! ```text
//! cargo bench --bench gui -- --json [--pages N] [--pipeline-pages N] [--log-lines N]
//!     [--frames N] [--cache-sizes N] [--workspace DIR] [--panels ID,ID]
//! ```
//!
//! `--panels Jobs,cache` drives only those panels (ids of `workbench::PANELS`) after the cold
//! start, to profile one panel without waiting for the others.
//!
//! `--pipeline-pages N` crawls and processes only N of the pages (the rest are page rows
//! without snapshots) for a quick run; by default all are.
//!
//! Prints `{"panels":[{"panel","tab","frames","p50_ms","p99_ms","max_ms"}],"pages",
//! "cold_start_s","clock"}`; the clock is the UI pass (`Harness::step`), rendering excluded.

#[path = "../tests/common/frames.rs"]
mod frames;

use std::path::PathBuf;

struct Args {
    json: bool,
    pages: u64,
    pipeline_pages: Option<u64>,
    log_lines: u64,
    frames: usize,
    cache_sizes: usize,
    workspace: PathBuf,
    /// Only these panels (all when empty).
    panels: Vec<String>,
}

fn args() -> Args {
    let mut a = Args {
        json: false,
        pages: 100_000,
        pipeline_pages: None,
        log_lines: 10_000_000,
        frames: 200,
        cache_sizes: 20,
        workspace: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gui-bench"),
        panels: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(s) = it.next() {
        let mut num = |flag: &str| -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{flag} takes a whole number"))
        };
        match s.as_str() {
            "--json" => a.json = true,
            "--pages" => a.pages = num("--pages"),
            "--pipeline-pages" => a.pipeline_pages = Some(num("--pipeline-pages")),
            "--log-lines" => a.log_lines = num("--log-lines"),
            "--cache-sizes" => a.cache_sizes = num("--cache-sizes") as usize,
            "--frames" => a.frames = num("--frames") as usize,
            "--workspace" => {
                a.workspace = PathBuf::from(it.next().expect("--workspace takes a folder"))
            }
            "--panels" => {
                let v = it
                    .next()
                    .expect("--panels takes panel ids, comma-separated");
                a.panels = v.split(',').map(str::to_string).collect();
            }
            // `cargo bench` passes --bench; other flags are not ours.
            _ => {}
        }
    }
    a
}

fn main() {
    let a = args();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tianwang"));
    let pipeline = a.pipeline_pages.unwrap_or(a.pages).min(a.pages);
    let dir = a
        .workspace
        .join(format!("p{}-c{}-l{}", a.pages, pipeline, a.log_lines));
    let ws = frames::workspace(
        &bin,
        &dir,
        frames::Sizes {
            pages: a.pages,
            pipeline_pages: pipeline,
            log_lines: a.log_lines,
        },
    );
    eprintln!("workspace: {}", ws.display());
    let (mut h, cold) = frames::open(&ws, a.pages);
    eprintln!("cold start: {:.3} s", cold.as_secs_f64());
    let d = frames::Drive {
        frames: a.frames,
        secs: 1800,
        cache_sizes: a.cache_sizes,
    };
    let timed = if a.panels.is_empty() {
        frames::drive(&mut h, d)
    } else {
        a.panels
            .iter()
            .flat_map(|p| frames::drive_panel(&mut h, p, d))
            .collect()
    };
    if a.json {
        let doc = serde_json::json!({
            "panels": timed.iter().map(frames::Timed::json).collect::<Vec<_>>(),
            "pages": a.pages,
            "pipeline_pages": pipeline,
            "cache_policies": 17,
            "cache_sizes": a.cache_sizes,
            "log_lines": a.log_lines,
            "cold_start_s": (cold.as_secs_f64() * 1000.0).round() / 1000.0,
            "clock": "ui pass, rendering excluded",
            "build": if cfg!(debug_assertions) { "debug" } else { "release" },
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("json"));
    } else {
        println!(
            "cold start {:.3} s on {} pages",
            cold.as_secs_f64(),
            a.pages
        );
        println!(
            "{:<10} {:<20} {:>6} {:>8} {:>8} {:>8}",
            "panel", "tab", "frames", "p50 ms", "p99 ms", "max ms"
        );
        for t in &timed {
            println!(
                "{:<10} {:<20} {:>6} {:>8.2} {:>8.2} {:>8.2}",
                t.panel,
                t.tab,
                t.frames.len(),
                t.quantile_ms(0.5),
                t.quantile_ms(0.99),
                t.max_ms()
            );
        }
    }
}
