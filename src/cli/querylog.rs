//! `tianwang querylog stats|import|generate|stream|list` and `tianwang bench querylog`
//! (book ch. 9; the engine is `engine::querylog`).
//!
//! `stats FILE --json` prints the contract document: lines, bad lines (count and the first
//! ten with line and reason), requests, distinct queries and users, queries seen once, the
//! repeat fraction, the Zipf fit (OLS of log10 count on log10 rank over every distinct query,
//! signed slope), the 100 most frequent queries (ties by first appearance), the coverage curve
//! (9-1) at x = 0.01 … 1, requests per result page (page = ⌈rank/10⌉, or the query log's page
//! field), clicks per rank, the R/S Hurst estimate with its fit points, elapsed time and
//! lines/s. `--full` adds every statistic (`stats`). Bad input exits 2 naming `file:line`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{Cli, print_json, workspace_path};
use crate::engine::error::{EngineError, Flaw};
use crate::engine::jobs::TypedJob;
use crate::engine::querylog::fit::ZipfRange;
use crate::engine::querylog::generate::{GenConfig, write_file};
use crate::engine::querylog::job::{
    ImportJob, ImportParams, LogSource, StatsJob, StatsOutput, StatsParams, compute,
};
use crate::engine::querylog::persist;
use crate::engine::querylog::read::{ReadConfig, read_file};
use crate::engine::querylog::stats::{Collector, StatsConfig};
use crate::engine::querylog::{Format, Normalise, TsvColumns};

#[derive(Debug, Args)]
pub struct QuerylogArgs {
    #[command(subcommand)]
    pub what: QuerylogCommand,
}

#[derive(Debug, Subcommand)]
pub enum QuerylogCommand {
    /// Every chapter-9 statistic of a log file (or a stored log with --log).
    Stats(StatsArgs),
    /// Import a log into the workspace (a logged job; one transaction).
    Import(ImportArgs),
    /// Write a synthetic log calibrated to targets (digest Appendix E).
    Generate(GenerateArgs),
    /// Write the request stream as object ids, one per line, for the cache lab.
    Stream(StreamArgs),
    /// List the logs stored in the workspace.
    List(ListArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ReadArgs {
    /// sogouq | tianwang-query | tianwang-click | tsv
    #[arg(long, default_value = "sogouq")]
    pub format: String,
    /// Encoding label (utf-8, gb18030, …); default: detected.
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<String>,
    /// Refuse the file at its first bad line (nothing is read or written).
    #[arg(long)]
    pub strict: bool,
    /// Columns of a tsv log, e.g. time,user,query,rank,order,url (skip for others).
    #[arg(long)]
    pub columns: Option<String>,
    /// Query normalisation: all (default: width, trim, collapse, casefold), none, or a list.
    #[arg(long, default_value = "all")]
    pub normalise: String,
}

impl ReadArgs {
    fn read_config(&self) -> Result<ReadConfig, EngineError> {
        let format = Format::parse(&self.format).ok_or_else(|| {
            EngineError::invalid(
                "--format",
                format!(
                    "`{}`: sogouq, tianwang-query, tianwang-click or tsv",
                    self.format
                ),
            )
        })?;
        let cfg = ReadConfig {
            format,
            encoding: self.encoding.clone(),
            strict: self.strict,
            columns: self.columns.as_deref().map(TsvColumns::parse).transpose()?,
            max_listed: 10,
        };
        cfg.validate()?;
        Ok(cfg)
    }
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The log file (omit with --log).
    pub file: Option<PathBuf>,
    /// A log stored in the workspace (its id from `querylog list`).
    #[arg(long, conflicts_with = "file")]
    pub log: Option<i64>,
    #[command(flatten)]
    pub read: ReadArgs,
    #[arg(long)]
    pub json: bool,
    /// Add every statistic to the JSON (`stats`).
    #[arg(long)]
    pub full: bool,
    /// Leave out page-turn requests (page > 1) of a query log.
    #[arg(long)]
    pub first_page_only: bool,
    /// Inactivity gap that ends a session, seconds.
    #[arg(long, default_value_t = 1800)]
    pub session_gap: i64,
    /// Group size of repeat decay and adjacent deviation.
    #[arg(long, default_value_t = 1000)]
    pub group: usize,
    /// Group size of the self-similarity series (distinct queries per group).
    #[arg(long, default_value_t = 500)]
    pub selfsim_group: usize,
    /// Zipf fit range: first rank, last rank, smallest count.
    #[arg(long, default_value_t = 1)]
    pub zipf_min_rank: usize,
    #[arg(long)]
    pub zipf_max_rank: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub zipf_min_count: u64,
    /// How many top queries to list.
    #[arg(long, default_value_t = 100)]
    pub top: usize,
    /// Skip the jieba word lengths.
    #[arg(long)]
    pub no_words: bool,
    /// Keep only requests in this time range (seconds as the log carries them).
    #[arg(long)]
    pub time_from: Option<i64>,
    #[arg(long)]
    pub time_to: Option<i64>,
    /// Keep only this percentage of users (hash sample).
    #[arg(long)]
    pub user_sample: Option<f64>,
    /// Refuse a log whose estimated peak memory (native engine) exceeds this many MB; by
    /// default the memory available. Over it, `--engine datafusion` runs out of core.
    #[arg(long, value_name = "MB")]
    pub memory_limit: Option<u64>,
    /// Add the process's peak memory (VmHWM, MB) to the JSON (the benchmark uses it).
    #[arg(long, hide = true)]
    pub report_memory: bool,
    /// Where the counting runs; with --workspace (or --log) a run on an engine is logged as a
    /// `querylog-stats` job.
    #[command(flatten)]
    pub engine: super::bigjobs::EngineArgs,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    pub file: PathBuf,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Name of the stored log (default: the file name).
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[arg(long)]
    pub lines: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Zipf popularity exponent s.
    #[arg(long, default_value_t = 0.97)]
    pub zipf: f64,
    /// Hurst target of the distinct-per-500 series.
    #[arg(long, default_value_t = 0.67)]
    pub hurst: f64,
    /// Distinct queries / requests (book: 1/6).
    #[arg(long, default_value_t = 1.6 / 9.6)]
    pub distinct_ratio: f64,
    /// Vocabulary size V (default: calibrated from --distinct-ratio).
    #[arg(long)]
    pub vocabulary: Option<u64>,
    /// Probability of repeating one of the last --window requests.
    #[arg(long, default_value_t = 0.55)]
    pub repeat: f64,
    #[arg(long, default_value_t = 10)]
    pub window: usize,
    /// Click shares (%) of result pages 1, 2, … (book: 47.3,12.2,7.4,5.0,3.7).
    #[arg(long, value_delimiter = ',', default_value = "47.3,12.2,7.4,5.0,3.7")]
    pub page_shares: Vec<f64>,
    #[arg(long)]
    pub users: Option<u64>,
    /// sogouq | tianwang-query | tianwang-click
    #[arg(long, default_value = "sogouq")]
    pub format: String,
    /// utf-8 | gb18030
    #[arg(long, default_value = "utf-8")]
    pub encoding: String,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StreamArgs {
    pub file: PathBuf,
    #[command(flatten)]
    pub read: ReadArgs,
    /// query: one object per query; query+page: one per (query, result page).
    #[arg(long, default_value = "query")]
    pub key: String,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, a: &QuerylogArgs) -> anyhow::Result<()> {
    match &a.what {
        QuerylogCommand::Stats(s) => stats(cli, s),
        QuerylogCommand::Import(s) => import(cli, s),
        QuerylogCommand::Generate(s) => generate(s),
        QuerylogCommand::Stream(s) => stream(s),
        QuerylogCommand::List(s) => list(cli, s),
    }
}

fn stats_config(a: &StatsArgs) -> Result<StatsConfig, EngineError> {
    let cfg = StatsConfig {
        normalise: Normalise::parse(&a.read.normalise)?,
        first_page_only: a.first_page_only,
        session_gap_s: a.session_gap,
        group_size: a.group,
        selfsim_group: a.selfsim_group,
        zipf: ZipfRange {
            min_rank: a.zipf_min_rank.max(1),
            max_rank: a.zipf_max_rank,
            min_count: a.zipf_min_count,
        },
        top_n: a.top,
        words: !a.no_words,
        time_from: a.time_from,
        time_to: a.time_to,
        user_sample_pct: a.user_sample,
        memory_limit_mb: a.memory_limit,
        ..StatsConfig::default()
    };
    cfg.validate()?;
    Ok(cfg)
}

/// The contract document of `stats --json`.
pub fn contract_json(out: &StatsOutput, full: bool) -> Value {
    let st = &out.stats;
    let lines = out
        .read
        .as_ref()
        .map(|r| r.lines)
        .unwrap_or(st.volume.requests);
    let bad = out
        .read
        .as_ref()
        .map(|r| serde_json::to_value(&r.bad).unwrap_or(Value::Null))
        .unwrap_or(json!({"count": 0, "first": []}));
    let z = st.rank_frequency.zipf;
    let mut v = json!({
        "lines": lines,
        "bad_lines": bad,
        "encoding": out.read.as_ref().map(|r| r.encoding.clone()),
        "encoding_note": out.read.as_ref().map(|r| r.encoding_note.clone()),
        "utf8_lines": out.read.as_ref().map(|r| r.utf8_lines),
        "requests": st.volume.requests,
        "distinct_queries": st.volume.distinct_queries,
        "distinct_users": st.volume.distinct_users,
        "sessions": st.volume.sessions,
        "queries_seen_once": st.volume.queries_seen_once,
        "repeat_fraction": st.volume.repeat_fraction,
        "zipf": {
            "slope": z.map(|z| z.slope),
            "intercept": z.map(|z| z.intercept),
            "r2": z.map(|z| z.r2),
            "points": z.map(|z| z.points),
            "min_rank": z.map(|z| z.min_rank),
            "max_rank": z.map(|z| z.max_rank),
            "method": "OLS of log10(count) on log10(rank), ranks 1..m of every distinct query",
        },
        "top_queries": st.top_queries,
        "coverage": st.coverage.points.iter().map(|p| json!({
            "top_fraction": p.top_fraction, "volume_fraction": p.volume_fraction,
        })).collect::<Vec<_>>(),
        "coverage_book_at_20pct": st.coverage.book_at_20pct,
        "result_pages": st.pages.by_page.iter().map(|(p, c)| json!({"page": p, "count": c})).collect::<Vec<_>>(),
        "click_ranks": st.clicks.by_rank.iter().map(|(r, c)| json!({"rank": r, "count": c})).collect::<Vec<_>>(),
        "hurst": {
            "rs": st.selfsim.hurst.rs,
            "fit_points": st.selfsim.hurst.fit_points,
            "series": format!("distinct queries per {}-request group", st.selfsim.group_size),
            "book": st.selfsim.book_h,
        },
        "elapsed_s": out.elapsed_s,
        "phases_s": out.phases_s,
        "lines_per_s": if out.elapsed_s > 0.0 { lines as f64 / out.elapsed_s } else { 0.0 },
    });
    if full {
        v["stats"] = serde_json::to_value(st).unwrap_or(Value::Null);
    }
    v
}

fn stats(cli: &Cli, a: &StatsArgs) -> anyhow::Result<()> {
    let cfg = stats_config(a)?;
    let source = match (&a.file, a.log) {
        (Some(f), None) => LogSource::File {
            path: f.clone(),
            read: a.read.read_config()?,
        },
        (None, Some(id)) => LogSource::Stored { log_id: id },
        _ => return Err(EngineError::invalid("FILE", "give a log file or --log ID").into()),
    };
    let ws = match &source {
        LogSource::Stored { .. } => Some(workspace_path(cli)?),
        LogSource::File { .. } => None,
    };
    let engine = a.engine.config()?;
    let mut job_id = None;
    let out = if engine.engine == crate::engine::exec::Engine::Native {
        compute(&source, &cfg, ws.as_deref(), &())?
    } else if let Some(w) = cli.workspace.clone().or(ws.clone()) {
        // On an engine with a workspace: a logged `querylog-stats` job, result in the log.
        let source = match source {
            LogSource::File { path, read } => LogSource::File {
                path: std::fs::canonicalize(&path).unwrap_or(path),
                read,
            },
            s => s,
        };
        let job = StatsJob::from_params(StatsParams {
            source,
            config: cfg,
            engine,
        })?;
        let ws = crate::engine::store::Workspace::open_or_create(&w)?;
        let (v, id) = super::run_job_with_id(&ws, Box::new(job))?;
        job_id = Some(id);
        StatsJob::decode(&v)?
    } else {
        crate::engine::querylog::stats_on(&source, &cfg, &engine, None, &())?
    };
    if a.json {
        let mut v = contract_json(&out, a.full);
        v["engine"] = json!(a.engine.engine);
        if let Some(id) = job_id {
            v["job_id"] = json!(id);
        }
        if a.report_memory {
            v["peak_rss_mb"] = json!(super::peak_rss_mb());
        }
        return print_json(&v);
    }
    print_human(&out);
    Ok(())
}

fn print_human(out: &StatsOutput) {
    let st = &out.stats;
    let v = &st.volume;
    if let Some(r) = &out.read {
        println!(
            "{} lines, {} records, {} bad lines; encoding {} ({})",
            r.lines, r.records, r.bad.count, r.encoding, r.encoding_note
        );
        if r.utf8_lines > 0 {
            println!("  {} lines were UTF-8 and read as UTF-8", r.utf8_lines);
        }
        for b in &r.bad.first {
            println!("  line {}: {}", b.line, b.reason.english);
        }
    }
    println!(
        "requests {}  distinct queries {}  users {}  sessions {}  seen once {}  repeat fraction {:.4}",
        v.requests,
        v.distinct_queries,
        v.distinct_users,
        v.sessions,
        v.queries_seen_once,
        v.repeat_fraction
    );
    if let Some(z) = st.rank_frequency.zipf {
        println!(
            "Zipf fit: slope {:.4}  intercept {:.4}  R² {:.4}  (ranks {}–{})",
            z.slope, z.intercept, z.r2, z.min_rank, z.max_rank
        );
    }
    println!(
        "coverage: top 5% → {:.1}%  top 20% → {:.1}% (book 80%)  top 50% → {:.1}%",
        100.0 * st.coverage.at_5pct,
        100.0 * st.coverage.at_20pct,
        100.0 * st.coverage.at_50pct
    );
    let shares: Vec<String> = st
        .pages
        .share_pct
        .iter()
        .zip(&st.pages.book_share_pct)
        .enumerate()
        .map(|(i, (o, b))| format!("p{} {o:.1}% (book {b}%)", i + 1))
        .collect();
    println!("result pages: {}", shares.join("  "));
    if let Some(h) = st.selfsim.hurst.rs {
        println!("Hurst (R/S): {h:.3} (book 0.67)");
    }
    println!("top queries:");
    for q in st.top_queries.iter().take(20) {
        println!("  {:>8}  {}", q.count, q.query);
    }
    println!("elapsed {:.2} s", out.elapsed_s);
}

fn import(cli: &Cli, a: &ImportArgs) -> anyhow::Result<()> {
    let read = a.read.read_config()?;
    let normalise = Normalise::parse(&a.read.normalise)?;
    if !a.file.is_file() {
        return Err(
            EngineError::path_flaw(a.file.clone(), Flaw::new("flaw.path_no_file", &[])).into(),
        );
    }
    let name = a.name.clone().unwrap_or_else(|| {
        a.file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "log".into())
    });
    let job = ImportJob::from_params(ImportParams {
        path: std::fs::canonicalize(&a.file).unwrap_or_else(|_| a.file.clone()),
        read,
        normalise,
        name,
        synthetic: false,
    })?;
    let ws = crate::engine::store::Workspace::open_or_create(&workspace_path(cli)?)?;
    let (v, job_id) = super::run_job_with_id(&ws, Box::new(job))?;
    let out = ImportJob::decode(&v)?;
    if a.json {
        return print_json(&json!({
            "log_id": out.log_id, "job_id": job_id, "lines": out.summary.lines,
            "records": out.summary.records, "bad_lines": out.summary.bad,
            "distinct_queries": out.distinct_queries, "encoding": out.summary.encoding,
        }));
    }
    println!(
        "stored log #{} (job #{job_id}): {} records of {} lines, {} bad, {} distinct queries, {}",
        out.log_id,
        out.summary.records,
        out.summary.lines,
        out.summary.bad.count,
        out.distinct_queries,
        out.summary.encoding
    );
    Ok(())
}

fn gen_config(a: &GenerateArgs) -> Result<GenConfig, EngineError> {
    let format = Format::parse(&a.format)
        .ok_or_else(|| EngineError::invalid("--format", format!("`{}`", a.format)))?;
    let cfg = GenConfig {
        lines: a.lines,
        seed: a.seed,
        zipf: a.zipf,
        distinct_ratio: a.distinct_ratio,
        vocabulary: a.vocabulary,
        repeat: a.repeat,
        window: a.window,
        hurst: a.hurst,
        page_shares_pct: a.page_shares.clone(),
        users: a.users,
        format,
        encoding: a.encoding.to_ascii_lowercase(),
    };
    cfg.validate()?;
    Ok(cfg)
}

fn generate(a: &GenerateArgs) -> anyhow::Result<()> {
    let cfg = gen_config(a)?;
    let t = Instant::now();
    let n = write_file(&cfg, &a.out, &())?;
    let v = json!({
        "out": a.out.display().to_string(), "lines": n, "synthetic": true,
        "config": cfg, "elapsed_s": t.elapsed().as_secs_f64(),
    });
    if a.json {
        return print_json(&v);
    }
    println!(
        "wrote {n} synthetic lines ({}) to {} in {:.1} s",
        cfg.format.name(),
        a.out.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn stream(a: &StreamArgs) -> anyhow::Result<()> {
    let with_page = match a.key.as_str() {
        "query" => false,
        "query+page" => true,
        k => {
            return Err(
                EngineError::invalid("--key", format!("`{k}`: query or query+page")).into(),
            );
        }
    };
    let read = a.read.read_config()?;
    let cfg = StatsConfig {
        normalise: Normalise::parse(&a.read.normalise)?,
        ..StatsConfig::default()
    };
    let mut c = Collector::new(cfg);
    let summary = read_file(&a.file, &read, &(), &mut |r| c.push(r))?;
    let ids = c.stream_ids(with_page);
    let distinct = ids.iter().map(|&i| i as u64 + 1).max().unwrap_or(0);
    write_whole(&a.out, |w| {
        for id in &ids {
            writeln!(w, "{id}")?;
        }
        Ok(())
    })?;
    let v = json!({
        "out": a.out.display().to_string(), "requests": ids.len(), "distinct_objects": distinct,
        "key": a.key, "lines": summary.lines, "bad_lines": summary.bad,
    });
    if a.json {
        return print_json(&v);
    }
    println!(
        "wrote {} requests ({distinct} distinct objects, key {}) to {}",
        ids.len(),
        a.key,
        a.out.display()
    );
    Ok(())
}

/// Writes `path` whole or not at all.
fn write_whole(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp-writing");
    let bad = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    let r = (|| {
        let f = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::new(f);
        body(&mut w)?;
        w.flush()?;
        w.get_ref().sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = r {
        let _ = std::fs::remove_file(&tmp);
        return Err(bad(e).into());
    }
    Ok(())
}

fn list(cli: &Cli, a: &ListArgs) -> anyhow::Result<()> {
    let ws = crate::engine::store::Workspace::open_or_create(&workspace_path(cli)?)?;
    let rows = persist::list(ws.conn())?;
    if a.json {
        return print_json(&serde_json::to_value(&rows)?);
    }
    for r in rows {
        println!(
            "#{:<4} {:<24} {:<15} {:>10} records {:>8} bad  {}",
            r.id, r.name, r.format, r.records, r.bad_lines, r.encoding
        );
    }
    Ok(())
}

#[derive(Debug, Args)]
pub struct BenchQuerylogArgs {
    /// Lines of the generated log; a list (`10000000,100000000`) measures each size in turn.
    #[arg(long, value_delimiter = ',', default_value = "10000000")]
    pub lines: Vec<u64>,
    /// Use this log instead of generating one.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Run the pandas implementation of the same statistics side by side (every size).
    #[arg(long)]
    pub peers: bool,
    #[command(flatten)]
    pub peer: super::peers::PeerArgs,
    #[arg(long)]
    pub json: bool,
}

/// The peak-memory target of issue 30: a 100 M-line log within 4 GB.
const TARGET_PEAK_MB_100M: f64 = 4096.0;

pub fn bench(a: &BenchQuerylogArgs) -> anyhow::Result<()> {
    let logs: Vec<PathBuf> = match &a.file {
        Some(f) => vec![f.clone()],
        None => a
            .lines
            .iter()
            .map(|&n| generated_log(n))
            .collect::<anyhow::Result<_>>()?,
    };
    let mut runs = Vec::new();
    let mut memory = Vec::new();
    for path in &logs {
        let run = bench_one(a, path)?;
        let ours = &run["rows"][0];
        let lines = ours["lines"].as_f64().unwrap_or(0.0);
        let peak = ours["peak_rss_mb"].as_f64();
        memory.push(json!({
            "lines": ours["lines"],
            "seconds": ours["seconds"],
            "peak_rss_mb": peak,
            "bytes_per_record": peak.filter(|_| lines > 0.0).map(|mb| mb * 1048576.0 / lines),
            "target_peak_rss_mb_100m_lines": TARGET_PEAK_MB_100M,
        }));
        runs.push(run);
    }
    let mut v = json!({
        "memory": memory,
        "runs": runs,
        "targets": {"seconds": 30.0, "peak_rss_mb": 1536.0, "speed_ratio_vs_pandas": 10.0,
            "peak_rss_mb_100m_lines": TARGET_PEAK_MB_100M},
    });
    if let [one] = &runs[..] {
        for k in ["file", "rows", "speed_ratio_vs_pandas"] {
            v[k] = one[k].clone();
        }
    }
    if a.json {
        println!("{}", serde_json::to_string(&v)?);
    } else {
        println!("{}", serde_json::to_string_pretty(&v)?);
    }
    Ok(())
}

/// The generated log of `lines` lines in the temp folder, generated once.
fn generated_log(lines: u64) -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join("tianwang-bench-querylog");
    std::fs::create_dir_all(&dir)?;
    let p = dir.join(format!("generated-{lines}-seed1.sogouq"));
    if !p.exists() {
        eprintln!("generating {lines} lines to {} …", p.display());
        let cfg = GenConfig {
            lines,
            ..GenConfig::default()
        };
        write_file(&cfg, &p, &())?;
    }
    Ok(p)
}

/// The statistics of one log in a child process (its peak memory is its own), and the peer.
fn bench_one(a: &BenchQuerylogArgs, path: &std::path::Path) -> anyhow::Result<Value> {
    let exe = std::env::current_exe()?;
    let t = Instant::now();
    let o = std::process::Command::new(&exe)
        .args(["querylog", "stats"])
        .arg(path)
        .args(["--json", "--report-memory"])
        .output()?;
    let wall = t.elapsed().as_secs_f64();
    if !o.status.success() {
        return Err(EngineError::Internal(format!(
            "querylog stats failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ))
        .into());
    }
    let ours: Value = serde_json::from_slice(&o.stdout)?;
    let mut rows = vec![json!({
        "tool": "tianwang",
        "seconds": wall,
        "stats_seconds": ours["elapsed_s"],
        "peak_rss_mb": ours["peak_rss_mb"],
        "lines": ours["lines"],
        "requests": ours["requests"],
        "distinct_queries": ours["distinct_queries"],
        "zipf_slope": ours["zipf"]["slope"],
        "hurst": ours["hurst"]["rs"],
    })];
    let mut ratio = Value::Null;
    if a.peers {
        let run = super::peers::run(&a.peer, "querylog_peers.py", &[path.into()])?;
        let (mut p, peer_wall) = (run.json, run.seconds);
        p["tool"] = json!("pandas");
        p["seconds"] = json!(peer_wall);
        ratio = json!(peer_wall / wall);
        rows.push(p);
    }
    Ok(json!({
        "file": path.display().to_string(),
        "rows": rows,
        "speed_ratio_vs_pandas": ratio,
    }))
}
