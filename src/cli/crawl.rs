//! The crawl subcommands: `crawl` (a job; resumable) and the crawl benchmarks
//! (`bench crawl`, `bench frontier`).

use clap::Args;
use serde_json::json;

use super::{print_json, run_job_with_progress};
use crate::engine::crawl::{Crawl, CrawlParams, Scope};
use crate::engine::error::EngineError;
use crate::engine::jobs::TypedJob;
use crate::engine::store::Workspace;

/// `tianwang crawl`: crawl from seed URLs into the workspace.
#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// Seed URL (repeat for several).
    #[arg(long = "seed", value_name = "URL")]
    pub seeds: Vec<String>,
    #[arg(long)]
    pub max_pages: Option<u64>,
    /// Gatherer threads.
    #[arg(long, default_value_t = 10)]
    pub workers: usize,
    /// Requests in flight per host (the book: 2).
    #[arg(long, default_value_t = 2)]
    pub per_host: usize,
    /// Minimum delay between requests to one host (ms).
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// bfs, dfs, weight, backlinks or random.
    #[arg(long, default_value = "bfs")]
    pub strategy: String,
    /// With --strategy weight: N picks by weight, then M at random (the book: 1:1; N:0 = weight only).
    #[arg(long, default_value = "1:1", value_name = "N:M")]
    pub mix: String,
    /// Continue the frontier left by an earlier (or killed) crawl.
    #[arg(long)]
    pub resume: bool,
    #[arg(long)]
    pub max_depth: Option<u32>,
    /// hosts (the seeds' hosts and --allow-host), any, or a host suffix such as .localhost
    #[arg(long, default_value = "hosts")]
    pub scope: String,
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// Ignore robots.txt (only for your own test servers).
    #[arg(long)]
    pub ignore_robots: bool,
    /// Skip URLs containing this (repeat; replaces the book's 25 substrings).
    #[arg(long = "url-filter", value_name = "SUBSTRING")]
    pub url_filter: Vec<String>,
    /// Fetch every URL the scope allows (no substring filter).
    #[arg(long, conflicts_with = "url_filter")]
    pub no_url_filter: bool,
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    #[arg(long)]
    pub json: bool,
}

/// Parse `N:M` (N picks by weight, then M at random).
fn parse_mix(mix: &str) -> Result<(u32, u32), EngineError> {
    mix.split_once(':')
        .and_then(|(n, m)| Some((n.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
        .filter(|(n, _)| *n >= 1)
        .ok_or_else(|| EngineError::invalid("mix", format!("`{mix}`: use N:M, e.g. 1:1 or 3:1")))
}

fn parse_scope(scope: &str) -> Result<Scope, EngineError> {
    match scope {
        "hosts" => Ok(Scope::Hosts),
        "any" => Ok(Scope::Any),
        s if s.starts_with('.') => Ok(Scope::Suffix(s.to_string())),
        s => Err(EngineError::invalid(
            "scope",
            format!("`{s}`: use hosts, any, or a suffix starting with '.'"),
        )),
    }
}

/// Run `tianwang crawl`.
pub fn run(cli: &super::Cli, a: &CrawlArgs) -> anyhow::Result<()> {
    let (mix_weight, mix_random) = parse_mix(&a.mix)?;
    let job = Crawl::new(CrawlParams {
        seeds: a.seeds.clone(),
        max_pages: a.max_pages,
        workers: a.workers,
        per_host: a.per_host,
        delay_ms: a.delay_ms,
        strategy: a.strategy.parse()?,
        resume: a.resume,
        max_depth: a.max_depth,
        scope: parse_scope(&a.scope)?,
        allow_hosts: a.allow_hosts.clone(),
        respect_robots: !a.ignore_robots,
        timeout_ms: a.timeout_ms,
        mix_weight,
        mix_random,
        url_filter: if a.no_url_filter {
            Vec::new()
        } else if a.url_filter.is_empty() {
            CrawlParams::default().url_filter
        } else {
            a.url_filter.clone()
        },
        ..Default::default()
    })?;
    let ws = Workspace::open_or_create(&super::workspace_path(cli)?)?;
    let v = run_job_with_progress(&ws, Box::new(job))?;
    if a.json {
        return print_json(&v);
    }
    let r = Crawl::decode(&v)?;
    let errors: u64 = r.errors.values().sum();
    println!(
        "fetched {} · stored {} · replicas {} · robots-blocked {} · errors {} · {:.1} s ({:.0} pages/s)",
        r.fetched, r.stored, r.replicas, r.robots_blocked, errors, r.elapsed_s, r.pages_per_s
    );
    Ok(())
}

/// `tianwang bench crawl`.
#[derive(Debug, Args)]
pub struct BenchCrawlArgs {
    #[arg(long, default_value_t = 50_000)]
    pub pages: u64,
    #[arg(long, default_value_t = 32)]
    pub workers: usize,
    /// Serve the site over one shared link of this many Mbit/s (e.g. 100, the book's node
    /// [L1138–L1154]), so the network and not this machine's CPU bounds the ceiling. Default:
    /// loopback at full speed.
    #[arg(long, value_parser = parse_mbit)]
    pub link_mbit: Option<f64>,
    #[arg(long)]
    pub json: bool,
}

/// A link speed in Mbit/s: a finite number above 0 and at most 100,000.
fn parse_mbit(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 100_000.0 => Ok(v),
        _ => Err(format!(
            "{s:?} is not a link speed in Mbit/s (a number above 0, at most 100000)"
        )),
    }
}

/// Crawl a generated site of N pages over loopback, politeness off, into a scratch workspace
/// (SQLite, as a real crawl), and report pages/s; then, in the same run, the ceiling: the same
/// server and connection count, plain GETs of the same pages with nothing parsed or stored.
pub fn bench_crawl(a: &BenchCrawlArgs) -> anyhow::Result<()> {
    use crate::engine::sample::server::{SampleServer, ServeOptions};
    let server = SampleServer::start(ServeOptions {
        bench_pages: a.pages,
        link_bytes_per_s: a.link_mbit.map_or(0, |m| (m * 1e6 / 8.0) as u64),
        ..Default::default()
    })?;
    let origin = format!(
        "http://{}:{}",
        crate::engine::sample::bench::HOST,
        server.addr().port()
    );
    let dir = std::env::temp_dir().join(format!("tianwang-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let ws_path = dir.join("bench.tianwang");
    let ws = Workspace::open_or_create(&ws_path)?;
    let job = Crawl::new(CrawlParams {
        seeds: vec![format!("{origin}/")],
        workers: a.workers,
        per_host: a.workers,
        scope: Scope::Hosts,
        respect_robots: false,
        url_filter: Vec::new(),
        ..Default::default()
    })?;
    let cpu0 = crate::engine::crawl::cpu_seconds();
    let result = run_job_with_progress(&ws, Box::new(job));
    let cpu1 = crate::engine::crawl::cpu_seconds();
    drop(ws);
    let _ = std::fs::remove_dir_all(&dir);
    let r = Crawl::decode(&result?)?;
    // The ceiling: every page the crawl fetched, once, plain.
    let urls: Vec<String> = std::iter::once(format!("{origin}/"))
        .chain((1..a.pages).map(|i| format!("{origin}/p/{i}.html")))
        .collect();
    let cpu2 = crate::engine::crawl::cpu_seconds();
    let ceiling = crate::engine::crawl::ceiling::ceiling(&urls, a.workers)?;
    let cpu3 = crate::engine::crawl::cpu_seconds();
    let vs_ceiling = r.pages_per_s / ceiling.max(1e-9);
    // CPU per page (user + system, every thread, the in-process server's too). The loopback
    // ceiling is bound by the CPU, not by a network: with both runs keeping the cores as busy,
    // the crawl can reach at most ceiling-CPU / crawl-CPU of the ceiling.
    let cpu_ms = |a: Option<f64>, b: Option<f64>, pages: u64| {
        a.zip(b).map(|(a, b)| (b - a) * 1e3 / pages.max(1) as f64)
    };
    let crawl_cpu = cpu_ms(cpu0, cpu1, r.fetched);
    let ceiling_cpu = cpu_ms(cpu2, cpu3, urls.len() as u64);
    let cpu_bound = crawl_cpu
        .zip(ceiling_cpu)
        .filter(|(c, l)| a.link_mbit.is_none() && *c > 0.0 && *l > 0.0)
        .map(|(c, l)| l / c);
    // Over a link, its own page rate: its bytes a second over the pages' mean size.
    let link_pages_per_s = a
        .link_mbit
        .filter(|_| r.bytes > 0)
        .map(|m| m * 1e6 / 8.0 / (r.bytes as f64 / r.fetched.max(1) as f64));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pr = &r.profile;
    let per_page_ms = |s: f64| s * 1e3 / (r.fetched.max(1) as f64);
    if a.json {
        let corpus = format!("generated-{}", a.pages);
        print_json(&json!({
            "pages": a.pages,
            "workers": a.workers,
            "fetched": r.fetched,
            "stored": r.stored,
            "elapsed_s": r.elapsed_s,
            "pages_per_s": r.pages_per_s,
            "ceiling_pages_per_s": ceiling,
            "vs_ceiling": vs_ceiling,
            "profile_ms_per_page": {
                "fetch": per_page_ms(pr.fetch_s),
                "decode": per_page_ms(pr.decode_s),
                "links": per_page_ms(pr.links_s),
                "frontier": per_page_ms(pr.frontier_s),
                "record": per_page_ms(pr.record_s),
                "sqlite": per_page_ms(pr.sqlite_s),
                "coordinator_idle": per_page_ms(pr.idle_s),
            },
            "cpu_ms_per_page": { "crawl": crawl_cpu, "ceiling": ceiling_cpu },
            "cpu_bound_vs_ceiling": cpu_bound,
            "cores": cores,
            "link_mbit": a.link_mbit,
            "link_pages_per_s": link_pages_per_s,
            "bytes": r.bytes,
            "target_pages_per_s": 4000,
            "target_vs_ceiling": 0.6,
            // The benches' common shape: the crawl and its ceiling as rows of one run, and
            // the ratio between them.
            "rows": [
                {"tool": "tianwang", "corpus": corpus,
                 "pages_per_s": r.pages_per_s, "workers": a.workers, "stored": r.stored,
                 "cpu_ms_per_page": crawl_cpu},
                {"tool": "ceiling (plain GETs)", "corpus": corpus,
                 "pages_per_s": ceiling, "workers": a.workers, "stored": 0,
                 "cpu_ms_per_page": ceiling_cpu},
            ],
            "ratio": {"vs_ceiling": vs_ceiling, "cpu_bound_vs_ceiling": cpu_bound},
        }))
    } else {
        let link = a
            .link_mbit
            .map_or("loopback".to_string(), |m| format!("a {m} Mbit/s link"));
        println!(
            "crawled {} pages ({} stored) in {:.1} s over {link}: {:.0} pages/s with {} workers; ceiling {:.0} pages/s (plain GETs): crawl / ceiling = {:.2} (targets ≥ 4,000 pages/s, ≥ 0.60)",
            r.fetched, r.stored, r.elapsed_s, r.pages_per_s, a.workers, ceiling, vs_ceiling
        );
        println!(
            "per page (ms): workers (summed over threads) fetch {:.3} · decode {:.3} · links {:.3}; coordinator frontier {:.3} · record {:.3} · idle {:.3}; writer thread SQLite {:.3}",
            per_page_ms(pr.fetch_s),
            per_page_ms(pr.decode_s),
            per_page_ms(pr.links_s),
            per_page_ms(pr.frontier_s),
            per_page_ms(pr.record_s),
            per_page_ms(pr.idle_s),
            per_page_ms(pr.sqlite_s),
        );
        if let (Some(c), Some(l), Some(b)) = (crawl_cpu, ceiling_cpu, cpu_bound) {
            println!(
                "CPU per page on {cores} cores (user + system, the in-process server included): crawl {c:.3} ms, ceiling {l:.3} ms; on the same cores the crawl can reach at most {b:.2} of the ceiling"
            );
        }
        if let (Some(m), Some(lp)) = (a.link_mbit, link_pages_per_s) {
            println!(
                "a {m} Mbit/s link carries {lp:.0} pages/s of these pages ({:.0} bytes on average)",
                r.bytes as f64 / r.fetched.max(1) as f64
            );
        }
        Ok(())
    }
}

/// `tianwang bench frontier`.
#[derive(Debug, Args)]
pub struct BenchFrontierArgs {
    #[arg(long, default_value_t = 1_000_000)]
    pub urls: usize,
    #[arg(long, default_value_t = 1000)]
    pub hosts: usize,
    #[arg(long)]
    pub json: bool,
}

/// Build an in-memory frontier of N URLs and report the memory it takes.
pub fn bench_frontier(a: &BenchFrontierArgs) -> anyhow::Result<()> {
    let p = crate::engine::crawl::frontier_probe(a.urls, a.hosts)?;
    if a.json {
        return print_json(&serde_json::to_value(&p)?);
    }
    println!(
        "frontier of {} URLs on {} hosts: {:.1} MB ({:.0} bytes per URL; target < 300 MB for 1,000,000)",
        p.urls,
        p.hosts,
        p.rss_growth_bytes as f64 / 1e6,
        p.bytes_per_url
    );
    Ok(())
}
