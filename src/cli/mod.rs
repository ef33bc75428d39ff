//! The command line: every engine job is also a subcommand with JSON output, so experiments
//! can be scripted. Human text by default; `--json` prints exactly one JSON document on stdout.
//! Exit codes: 0 success, 2 bad input (message on stderr), 1 internal failure.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use serde_json::json;

use crate::engine::calibrate::{Calibrate, CalibrateParams};
use crate::engine::error::EngineError;
use crate::engine::jobs::{self, Job, JobFilter, JobRunner, JobState};
use crate::engine::store::{self, Workspace};

pub mod text;

#[derive(Debug, Parser)]
#[command(
    name = "tianwang",
    version,
    about = "Tianwang Workbench (天网工作台): a search-engine lab. Without a subcommand, opens the GUI."
)]
pub struct Cli {
    /// Workspace file (one SQLite file). Default: workspace.tianwang in the user's data folder.
    #[arg(long, global = true, value_name = "FILE")]
    pub workspace: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the experiment log: every job run with its parameters and result.
    Jobs {
        /// Only this kind of job (e.g. calibrate).
        #[arg(long)]
        kind: Option<String>,
        /// Only this status: running, done, failed, cancelled, interrupted.
        #[arg(long)]
        status: Option<String>,
        /// At most this many rows, newest first.
        #[arg(long)]
        limit: Option<usize>,
        /// One JSON document on stdout.
        #[arg(long)]
        json: bool,
    },
    /// What a workspace holds: sites, pages, snapshots, jobs.
    Info {
        #[arg(long)]
        json: bool,
    },
    /// Crawl from seed URLs into the workspace (a job; resumable).
    Crawl {
        /// Seed URL (repeat for several).
        #[arg(long = "seed", value_name = "URL")]
        seeds: Vec<String>,
        #[arg(long)]
        max_pages: Option<u64>,
        /// Gatherer threads.
        #[arg(long, default_value_t = 10)]
        workers: usize,
        /// Requests in flight per host (the book: 2).
        #[arg(long, default_value_t = 2)]
        per_host: usize,
        /// Minimum delay between requests to one host (ms).
        #[arg(long, default_value_t = 0)]
        delay_ms: u64,
        /// bfs, dfs, weight, backlinks or random.
        #[arg(long, default_value = "bfs")]
        strategy: String,
        /// With --strategy weight: N picks by weight, then M at random (the book: 1:1; N:0 = weight only).
        #[arg(long, default_value = "1:1", value_name = "N:M")]
        mix: String,
        /// Continue the frontier left by an earlier (or killed) crawl.
        #[arg(long)]
        resume: bool,
        #[arg(long)]
        max_depth: Option<u32>,
        /// hosts (the seeds' hosts and --allow-host), any, or a host suffix such as .localhost
        #[arg(long, default_value = "hosts")]
        scope: String,
        #[arg(long = "allow-host", value_name = "HOST")]
        allow_hosts: Vec<String>,
        /// Ignore robots.txt (only for your own test servers).
        #[arg(long)]
        ignore_robots: bool,
        /// Skip URLs containing this (repeat; replaces the book's 25 substrings).
        #[arg(long = "url-filter", value_name = "SUBSTRING")]
        url_filter: Vec<String>,
        /// Fetch every URL the scope allows (no substring filter).
        #[arg(long, conflicts_with = "url_filter")]
        no_url_filter: bool,
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u64,
        #[arg(long)]
        json: bool,
    },
    /// Export every snapshot as a Tianwang raw file or WARC/1.1.
    Export {
        /// tianwang or warc
        #[arg(long)]
        format: String,
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Import a Tianwang raw file or a WARC file into the workspace.
    Import {
        #[arg(long, conflicts_with = "warc", required_unless_present = "warc")]
        tianwang: Option<PathBuf>,
        #[arg(long)]
        warc: Option<PathBuf>,
        /// Recover a damaged Tianwang file (the book's scan for `version:`).
        #[arg(long)]
        recover: bool,
        #[arg(long)]
        json: bool,
    },
    /// List the pages in a workspace.
    Pages {
        #[arg(long)]
        json: bool,
    },
    /// Benchmarks: crawl speed over loopback, frontier memory.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Serve the sample web over HTTP on loopback until killed.
    ServeSample {
        /// Loopback address to listen on; port 0 picks a free one.
        #[arg(long, default_value = "127.0.0.1:0")]
        addr: std::net::SocketAddr,
        /// Serve the updated edition of some articles (for snapshot history).
        #[arg(long)]
        changed: bool,
        /// Delay every response by this many milliseconds.
        #[arg(long, default_value_t = 0)]
        latency_ms: u64,
        /// Also serve a generated benchmark site of N linked pages on bench.localhost.
        #[arg(long, value_name = "N", default_value_t = 0)]
        bench: u64,
        /// First stdout line: {"addr","seeds","sites","pages"}.
        #[arg(long)]
        json: bool,
    },
    /// The sample web: its ground truth.
    Sample {
        #[command(subcommand)]
        what: SampleCommand,
    },
    /// Clean a page with the DocView model (JSON: encoding, type, title, body, abstract,
    /// keywords, links, blocks), or score a folder / the sample web / the stored pages.
    Clean(text::CleanArgs),
    /// Cut Chinese text into words: jieba (HMM on/off, search mode) or the book's FMM/RMM.
    Segment(text::SegmentArgs),
    /// Measure MD5 and SQLite throughput on 13 KB pages (a job, logged in the workspace).
    Calibrate {
        /// Measuring time in seconds (0.5–600).
        #[arg(long, default_value_t = CalibrateParams::default().seconds)]
        seconds: f64,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Page cleaning speed and quality on ccwe and the sample web, with --peers side by side
    /// with readability-lxml and trafilatura.
    Clean(text::BenchCleanArgs),
    /// Segmentation throughput of every method against raw jieba-rs on the same text.
    Segment(text::BenchSegmentArgs),
    /// Crawl a generated site of N pages over loopback, politeness off, into a scratch
    /// workspace (SQLite, as a real crawl), and report pages/s.
    Crawl {
        #[arg(long, default_value_t = 50_000)]
        pages: u64,
        #[arg(long, default_value_t = 32)]
        workers: usize,
        #[arg(long)]
        json: bool,
    },
    /// Build an in-memory frontier of N URLs and report the memory it takes.
    Frontier {
        #[arg(long, default_value_t = 1_000_000)]
        urls: usize,
        #[arg(long, default_value_t = 1000)]
        hosts: usize,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum SampleCommand {
    /// Print the ground truth as one JSON document.
    Truth {
        /// Port the sample web is (or will be) served on; URLs carry it (80 leaves it out).
        #[arg(long, default_value_t = 80)]
        port: u16,
        /// The updated edition.
        #[arg(long)]
        changed: bool,
    },
    /// Load the sample web into a workspace as if crawled (a job; loading the updated edition
    /// later adds snapshots to the pages that changed).
    Load {
        /// The updated edition.
        #[arg(long)]
        changed: bool,
        #[arg(long)]
        json: bool,
    },
}

fn workspace_path(cli: &Cli) -> anyhow::Result<PathBuf> {
    match &cli.workspace {
        Some(p) => Ok(p.clone()),
        None => {
            let p = store::default_workspace_path()?;
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            Ok(p)
        }
    }
}

fn print_json(v: &serde_json::Value) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

/// Run a job in the foreground with a progress bar on stderr; returns its result.
pub fn run_job_with_progress(
    ws: &Workspace,
    job: Box<dyn Job>,
) -> anyhow::Result<serde_json::Value> {
    run_job_with_id(ws, job).map(|(v, _)| v)
}

/// [`run_job_with_progress`], also returning the run's id in the experiment log.
pub fn run_job_with_id(
    ws: &Workspace,
    job: Box<dyn Job>,
) -> anyhow::Result<(serde_json::Value, i64)> {
    let runner = JobRunner::new(ws.path().to_path_buf(), std::sync::Arc::new(|| {}));
    let handle = runner.spawn(job);
    let bar = indicatif::ProgressBar::new(1000);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {prefix} [{bar:40.cyan/blue}] {percent:>3}% {msg} (ETA {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_prefix(handle.snapshot().kind);
    let state = loop {
        if let Some(s) = handle.wait_timeout(Duration::from_millis(100)) {
            break s;
        }
        let s = handle.snapshot();
        bar.set_position((s.progress.fraction.unwrap_or(0.0) * 1000.0) as u64);
        let counters: Vec<String> = s
            .progress
            .counters
            .iter()
            .map(|(k, v)| format!("{k}={v:.0}"))
            .collect();
        bar.set_message(format!("{} {}", s.progress.message, counters.join(" ")));
    };
    bar.finish_and_clear();
    match state {
        JobState::Done(v) => {
            let id = handle
                .snapshot()
                .id
                .ok_or_else(|| EngineError::Internal("a finished job without a log row".into()))?;
            Ok((v, id))
        }
        JobState::Cancelled => Err(EngineError::Cancelled.into()),
        JobState::Failed {
            message,
            user_error: true,
        } => Err(EngineError::InvalidParam {
            name: "job".into(),
            message,
        }
        .into()),
        JobState::Failed { message, .. } => Err(EngineError::Internal(message).into()),
        other => Err(EngineError::Internal(format!("job ended in state {other:?}")).into()),
    }
}

/// Run a subcommand.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = &cli.command else {
        return crate::ui::run_gui(cli.workspace.clone());
    };
    match command {
        Command::ServeSample {
            addr,
            changed,
            latency_ms,
            bench,
            json,
        } => return serve_sample(*addr, *changed, *latency_ms, *bench, *json),
        Command::Sample {
            what: SampleCommand::Load { .. },
        } => {}
        Command::Bench { what } => return bench(what),
        Command::Segment(a) => return text::segment(a),
        Command::Clean(a) => return text::clean(&cli, a),
        Command::Sample {
            what: SampleCommand::Truth { port, changed },
        } => {
            let web = crate::engine::sample::web::SampleWeb::build(*port, *changed)?;
            return print_json(&serde_json::to_value(&web.truth)?);
        }
        _ => {}
    }
    let path = workspace_path(&cli)?;
    match command {
        Command::Sample {
            what: SampleCommand::Load { changed, json },
        } => {
            let ws = Workspace::open_or_create(&path)?;
            let job = crate::engine::sample::load::LoadSample { changed: *changed };
            let v = run_job_with_progress(&ws, Box::new(job))?;
            if *json {
                print_json(&v)?;
            } else {
                println!(
                    "Loaded the {} edition of the sample web into {}: {} pages ({} new), {} new snapshots",
                    v["edition"].as_str().unwrap_or("?"),
                    path.display(),
                    v["pages"],
                    v["new_pages"],
                    v["new_snapshots"]
                );
            }
        }
        Command::Crawl {
            seeds,
            max_pages,
            workers,
            per_host,
            delay_ms,
            strategy,
            resume,
            max_depth,
            scope,
            allow_hosts,
            ignore_robots,
            url_filter,
            no_url_filter,
            timeout_ms,
            mix,
            json,
        } => {
            let bad_mix =
                || EngineError::invalid("mix", format!("`{mix}`: use N:M, e.g. 1:1 or 3:1"));
            let (mix_weight, mix_random) = mix
                .split_once(':')
                .and_then(|(n, m)| Some((n.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
                .filter(|(n, _)| *n >= 1)
                .ok_or_else(bad_mix)?;
            use crate::engine::crawl::{Crawl, CrawlParams, Scope};
            let scope = match scope.as_str() {
                "hosts" => Scope::Hosts,
                "any" => Scope::Any,
                s if s.starts_with('.') => Scope::Suffix(s.to_string()),
                s => {
                    return Err(EngineError::invalid(
                        "scope",
                        format!("`{s}`: use hosts, any, or a suffix starting with '.'"),
                    )
                    .into());
                }
            };
            let job = Crawl::new(CrawlParams {
                seeds: seeds.clone(),
                max_pages: *max_pages,
                workers: *workers,
                per_host: *per_host,
                delay_ms: *delay_ms,
                strategy: strategy.parse()?,
                resume: *resume,
                max_depth: *max_depth,
                scope,
                allow_hosts: allow_hosts.clone(),
                respect_robots: !*ignore_robots,
                timeout_ms: *timeout_ms,
                mix_weight,
                mix_random,
                url_filter: if *no_url_filter {
                    Vec::new()
                } else if url_filter.is_empty() {
                    CrawlParams::default().url_filter
                } else {
                    url_filter.clone()
                },
                ..Default::default()
            })?;
            let ws = Workspace::open_or_create(&path)?;
            let v = run_job_with_progress(&ws, Box::new(job))?;
            if *json {
                print_json(&v)?;
            } else {
                println!(
                    "fetched {} · stored {} · replicas {} · robots-blocked {} · errors {} · {:.1} s ({:.0} pages/s)",
                    v["fetched"],
                    v["stored"],
                    v["replicas"],
                    v["robots_blocked"],
                    v["errors"],
                    v["elapsed_s"].as_f64().unwrap_or(0.0),
                    v["pages_per_s"].as_f64().unwrap_or(0.0)
                );
            }
        }
        Command::Export { format, out, json } => {
            let ws = Workspace::open_or_create(&path)?;
            let n = crate::engine::archive::export(&ws, format.parse()?, out)?;
            if *json {
                print_json(&json!({ "records": n, "out": out }))?;
            } else {
                println!("exported {n} snapshots to {}", out.display());
            }
        }
        Command::Import {
            tianwang,
            warc,
            recover,
            json,
        } => {
            use crate::engine::archive::{Format, import};
            let (format, file) = match (tianwang, warc) {
                (Some(t), _) => (Format::Tianwang, t),
                (None, Some(w)) => (Format::Warc, w),
                (None, None) => {
                    return Err(EngineError::invalid(
                        "import",
                        "give --tianwang PATH or --warc PATH",
                    )
                    .into());
                }
            };
            let mut ws = Workspace::open_or_create(&path)?;
            let rep = import(&mut ws, format, file, *recover)?;
            if *json {
                print_json(&serde_json::to_value(&rep)?)?;
            } else {
                println!(
                    "imported {} records: {} new pages, {} new snapshots, {} unchanged",
                    rep.records, rep.new_pages, rep.new_snapshots, rep.unchanged
                );
            }
        }
        Command::Pages { json } => {
            let ws = Workspace::open_or_create(&path)?;
            let pages = crate::engine::inspect::list_pages(&ws)?;
            if *json {
                print_json(&serde_json::to_value(&pages)?)?;
            } else {
                for p in pages {
                    println!(
                        "{:>4} {:<32} {}{}",
                        p.status.map_or("-".into(), |s| s.to_string()),
                        p.md5.as_deref().unwrap_or("-"),
                        p.url,
                        p.replica_of
                            .as_deref()
                            .map(|r| format!("  (replica of {r})"))
                            .unwrap_or_default()
                    );
                }
            }
        }
        Command::ServeSample { .. } | Command::Sample { .. } | Command::Bench { .. } => {}
        Command::Jobs {
            kind,
            status,
            limit,
            json,
        } => {
            use crate::engine::jobs::STATUSES;
            if let Some(s) = status
                && !STATUSES.contains(&s.as_str())
            {
                return Err(EngineError::InvalidParam {
                    name: "status".into(),
                    message: format!("`{s}` is not one of {}", STATUSES.join(", ")),
                }
                .into());
            }
            let ws = Workspace::open_or_create(&path)?;
            let rows = jobs::list_jobs(
                &ws,
                &JobFilter {
                    kind: kind.clone(),
                    status: status.clone(),
                    limit: *limit,
                },
            )?;
            if *json {
                print_json(&json!({ "workspace": path, "jobs": rows }))?;
            } else if rows.is_empty() {
                println!("no jobs in {}", path.display());
            } else {
                println!(
                    "{:>5}  {:<12} {:<11} {:<24} {:>8}  params",
                    "id", "kind", "status", "started", "took"
                );
                for r in rows {
                    println!(
                        "{:>5}  {:<12} {:<11} {:<24} {:>8}  {}",
                        r.id,
                        r.kind,
                        r.status,
                        r.started_at,
                        r.duration_s.map_or("-".into(), |d| format!("{d:.1}s")),
                        r.params
                    );
                }
            }
        }
        Command::Info { json } => {
            let ws = Workspace::open_or_create(&path)?;
            let s = ws.summary()?;
            if *json {
                print_json(&serde_json::to_value(&s)?)?;
            } else {
                println!("workspace  {}", s.path.display());
                println!("schema     v{}", s.schema_version);
                println!("created    {}", s.created_at.as_deref().unwrap_or("?"));
                println!("size       {} bytes", s.file_bytes);
                println!(
                    "holds      {} sites, {} pages, {} snapshots, {} jobs ({} running)",
                    s.sites, s.pages, s.snapshots, s.jobs, s.jobs_running
                );
            }
        }
        Command::Clean(_) | Command::Segment(_) => {}
        Command::Calibrate { seconds, json } => {
            let job = Calibrate::new(CalibrateParams { seconds: *seconds })?;
            let ws = Workspace::open_or_create(&path)?;
            let v = run_job_with_progress(&ws, Box::new(job))?;
            if *json {
                print_json(&v)?;
            } else {
                let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
                println!(
                    "MD5 on 13 KB pages:    {:>10.0} pages/s ({:.0} MB/s)",
                    f("md5_pages_per_s"),
                    f("md5_mb_per_s")
                );
                println!(
                    "SQLite 13 KB inserts:  {:>10.0} pages/s",
                    f("sqlite_pages_per_s")
                );
            }
        }
    }
    Ok(())
}

fn serve_sample(
    addr: std::net::SocketAddr,
    changed: bool,
    latency_ms: u64,
    bench: u64,
    json: bool,
) -> anyhow::Result<()> {
    use crate::engine::sample::server::{SampleServer, ServeOptions};
    let server = SampleServer::start(ServeOptions {
        addr,
        changed,
        latency: Duration::from_millis(latency_ms),
        bench_pages: bench,
    })?;
    let truth = &server.web().truth;
    let sites: Vec<&str> = truth.sites.iter().map(|s| s.host.as_str()).collect();
    let mut out = std::io::stdout().lock();
    if json {
        let line = json!({
            "addr": server.addr().to_string(),
            "seeds": truth.seeds,
            "sites": sites,
            "pages": truth.pages.len(),
        });
        writeln!(out, "{line}")?;
    } else {
        writeln!(
            out,
            "Serving the sample web ({} pages, {} sites) at http://{}",
            truth.pages.len(),
            sites.len(),
            server.addr()
        )?;
        writeln!(
            out,
            "Hosts under *.localhost resolve to this machine; open a seed in a browser:"
        )?;
        for s in &truth.seeds {
            writeln!(out, "  {s}")?;
        }
        writeln!(out, "Stop with Ctrl+C.")?;
    }
    out.flush()?;
    drop(out);
    loop {
        std::thread::park();
    }
}

fn bench(what: &BenchCommand) -> anyhow::Result<()> {
    match what {
        BenchCommand::Clean(a) => text::bench_clean(a)?,
        BenchCommand::Segment(a) => text::bench_segment(a)?,
        BenchCommand::Frontier { urls, hosts, json } => {
            let p = crate::engine::crawl::frontier_probe(*urls, *hosts)?;
            if *json {
                print_json(&serde_json::to_value(&p)?)?;
            } else {
                println!(
                    "frontier of {} URLs on {} hosts: {:.1} MB ({:.0} bytes per URL; target < 300 MB for 1,000,000)",
                    p.urls,
                    p.hosts,
                    p.rss_growth_bytes as f64 / 1e6,
                    p.bytes_per_url
                );
            }
        }
        BenchCommand::Crawl {
            pages,
            workers,
            json,
        } => {
            use crate::engine::crawl::{Crawl, CrawlParams, Scope};
            use crate::engine::sample::server::{SampleServer, ServeOptions};
            let server = SampleServer::start(ServeOptions {
                bench_pages: *pages,
                ..Default::default()
            })?;
            let dir = std::env::temp_dir().join(format!("tianwang-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            let ws_path = dir.join("bench.tianwang");
            let ws = Workspace::open_or_create(&ws_path)?;
            let job = Crawl::new(CrawlParams {
                seeds: vec![format!(
                    "http://{}:{}/",
                    crate::engine::sample::bench::HOST,
                    server.addr().port()
                )],
                workers: *workers,
                per_host: *workers,
                scope: Scope::Hosts,
                respect_robots: false,
                url_filter: Vec::new(),
                ..Default::default()
            })?;
            let result = run_job_with_progress(&ws, Box::new(job));
            drop(ws);
            let _ = std::fs::remove_dir_all(&dir);
            let v = result?;
            let out = json!({
                "pages": pages,
                "workers": workers,
                "fetched": v["fetched"],
                "stored": v["stored"],
                "elapsed_s": v["elapsed_s"],
                "pages_per_s": v["pages_per_s"],
                "target_pages_per_s": 1500,
            });
            if *json {
                print_json(&out)?;
            } else {
                println!(
                    "crawled {} pages ({} stored) in {:.1} s: {:.0} pages/s with {} workers (target ≥ 1,500)",
                    v["fetched"],
                    v["stored"],
                    v["elapsed_s"].as_f64().unwrap_or(0.0),
                    v["pages_per_s"].as_f64().unwrap_or(0.0),
                    workers
                );
            }
        }
    }
    Ok(())
}

/// The process exit code for an error: 2 when the user's input was at fault, else 1.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    match e.downcast_ref::<EngineError>() {
        Some(e) if e.is_user_error() => 2,
        _ => 1,
    }
}
