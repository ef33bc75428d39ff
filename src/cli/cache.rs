//! `tianwang cache sim|sweep|trace`: the cache-policy lab (book ch. 8.6 and 9.9–9.10) from the
//! command line (`bench cache` is in `cli::cache_bench`).
//!
//! `cache sim` runs the chosen policies at the chosen sizes and prints one JSON document
//! with `--json` (`requests`, `distinct`, `results[]` with `policy`, `size`, `hits`,
//! `misses`, `hit_ratio`, `miss_ratio`, `byte_miss_ratio`, then `elapsed_s`,
//! `requests_per_s`); `cache sweep` does the same at many log-spaced sizes for plots (LRU by
//! one stack-distance pass); `cache trace` turns an inverted-file access log into the I/O or
//! PAGE sequence of §8.6.3. With `--workspace`, sim and sweep run as a logged job.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};

use super::{Bar, Cli, print_json, run_job_with_progress};
use crate::engine::cache::job::{CacheSimJob, CacheSimParams, TraceSource};
use crate::engine::cache::policy::{PolicyKind, PolicyParams};
use crate::engine::cache::sim::{
    self, BOOK_CEILING, SimConfig, SimReport, SizeSpec, TABLE_9_2, log_sizes,
};
use crate::engine::cache::stack::Warmup;
use crate::engine::cache::trace::{self, Format, GenSpec, ReadOptions};
use crate::engine::error::{EngineError, Result as EngineResult};
use crate::engine::jobs::TypedJob;
use crate::engine::store::Workspace;

#[derive(Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub what: CacheCommand,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Simulate policies at given sizes: hits, misses, hit/miss and byte miss ratios.
    Sim(SimArgs),
    /// Many log-spaced sizes for plots (LRU from one stack-distance pass).
    Sweep(SweepArgs),
    /// Write the §8.6.3 I/O or PAGE sequence of an inverted-file access log as a trace.
    Trace(TraceArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq)]
pub enum FormatArg {
    Lines,
    Csv,
    Sogouq,
}

/// Where the requests come from (one of --trace, --generate, --access-log).
#[derive(Debug, Args, Clone)]
pub struct SourceArgs {
    /// Trace file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// lines: one key per line; csv: --key-column/--size-column (1-based, a header line is
    /// skipped); sogouq: the query field of a SogouQ log (UTF-8 or GB18030).
    #[arg(long, value_enum, default_value_t = FormatArg::Lines)]
    pub format: FormatArg,
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub key_column: usize,
    #[arg(long, value_name = "N")]
    pub size_column: Option<usize>,
    /// SogouQ: key = query + result page (⌈rank/10⌉).
    #[arg(long)]
    pub key_with_page: bool,
    /// SogouQ: drop page-turn requests (rank > 10).
    #[arg(long)]
    pub first_page_only: bool,
    /// A generated stream instead of a file: `zipf:alpha=0.8,objects=100000,requests=1000000,
    /// seed=1[,shift=N][,scan_every=N,scan_len=N]`, or `ch9[:scale=0.1]` (calibrated to the
    /// book's 1999 log: n = 9.6×10⁵, m = 1.6×10⁵).
    #[arg(long, value_name = "SPEC")]
    pub generate: Option<String>,
    /// An inverted-file access log (`term type offset length` lines) instead of a trace.
    #[arg(long, value_name = "FILE")]
    pub access_log: Option<PathBuf>,
    /// An index to replay --index-queries on: its posting-file reads are the trace (§8.6.3),
    /// in the --view chosen.
    #[arg(long, value_name = "DIR", requires = "index_queries")]
    pub index: Option<PathBuf>,
    /// With --index: the queries, one a line (or `qid<TAB>query`).
    #[arg(long, value_name = "FILE")]
    pub index_queries: Option<PathBuf>,
    /// A query log stored in the workspace (`querylog import`) by its id; needs --workspace.
    /// The key is the normalised query (with --key-with-page: query + result page).
    #[arg(long, value_name = "ID")]
    pub log: Option<i64>,
    /// With --access-log: the I/O sequence, or the PAGE sequence of --page-size pages.
    #[arg(long, value_enum, default_value_t = ViewArg::Io)]
    pub view: ViewArg,
    #[arg(long, default_value_t = 4096)]
    pub page_size: u32,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq)]
pub enum ViewArg {
    Io,
    Page,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Policies: fifo, lru, clock, lfu, lfu-perfect, lfu-decay, slru, 2q, arc, lirs, s3fifo,
    /// sieve, gdsf, gd-size, opt, random, infinite.
    #[arg(long, default_value = "lru")]
    pub policy: String,
    /// Sizes in objects (or bytes with --bytes: 64k, 1M …) or a % of the working set.
    #[arg(long, default_value = "10%")]
    pub size: String,
    /// Byte-based capacity: objects weigh their size.
    #[arg(long)]
    pub bytes: bool,
    /// Count from request N on, or `full`: from the request after each cache first fills.
    #[arg(long, value_name = "N|full")]
    pub warmup: Option<String>,
    /// LFU-decay's δ (per replacement).
    #[arg(long, default_value_t = 0.998)]
    pub decay: f64,
    /// Random's seed.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Points of hit ratio over time per run (in the JSON as `series`).
    #[arg(long, default_value_t = 0)]
    pub windows: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    #[arg(long, default_value = "fifo,lru,lfu-decay")]
    pub policy: String,
    /// Explicit sizes (else --points log-spaced sizes from --min to --max).
    #[arg(long)]
    pub size: Option<String>,
    #[arg(long, default_value_t = 20)]
    pub points: usize,
    #[arg(long, default_value_t = 10)]
    pub min: u64,
    /// Default: the working set (distinct objects, or distinct bytes with --bytes).
    #[arg(long)]
    pub max: Option<u64>,
    #[arg(long)]
    pub bytes: bool,
    #[arg(long, value_name = "N|full")]
    pub warmup: Option<String>,
    #[arg(long, default_value_t = 0.998)]
    pub decay: f64,
    /// Also tune LFU-decay's δ per size as Table 9-2 did (best of --deltas).
    #[arg(long)]
    pub tune_decay: bool,
    #[arg(long, default_value = "0.9,0.95,0.98,0.99,0.995,0.998,0.999,0.9995,1")]
    pub deltas: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// An index to replay --queries on (its posting-file reads become the trace).
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// An access log (`term type offset length` per line), as the book's instrumented
    /// executor wrote it [L3102–L3104].
    #[arg(long, value_name = "FILE")]
    pub access_log: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ViewArg::Io)]
    pub view: ViewArg,
    #[arg(long, default_value_t = 4096)]
    pub page_size: u32,
    /// Output: CSV `key,size` (read back with --format csv --key-column 1 --size-column 2).
    #[arg(long, value_name = "TRACE")]
    pub out: PathBuf,
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, a: &CacheArgs) -> anyhow::Result<()> {
    match &a.what {
        CacheCommand::Sim(s) => sim_cmd(cli, s),
        CacheCommand::Sweep(s) => sweep_cmd(cli, s),
        CacheCommand::Trace(t) => trace_cmd(t),
    }
}

fn parse_warmup(s: Option<&str>) -> EngineResult<Warmup> {
    match s.map(str::trim) {
        None | Some("0") | Some("none") => Ok(Warmup::None),
        Some("full") => Ok(Warmup::Full),
        Some(n) => n.parse().map(Warmup::Requests).map_err(|_| {
            EngineError::invalid("--warmup", format!("`{n}`: a request count or `full`"))
        }),
    }
}

/// `zipf:alpha=0.8,objects=1000,...` or `ch9[:scale=0.1]`. Every value is checked, not
/// cast: counts are whole numbers in range, a key is given once, `scale` lies in
/// [`trace::CH9_SCALE`]; anything else is exit 2 naming `--generate` and the key.
pub fn parse_generate(s: &str) -> EngineResult<GenSpec> {
    let bad = |m: String| EngineError::invalid("--generate", m);
    let (kind, rest) = s.split_once(':').unwrap_or((s, ""));
    const KEYS: [&str; 8] = [
        "alpha",
        "objects",
        "requests",
        "seed",
        "shift",
        "scan_every",
        "scan_len",
        "scale",
    ];
    let mut kv: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("`{part}`: expected key=value")))?;
        let k = k.trim();
        if !KEYS.contains(&k) {
            return Err(bad(format!("unknown key `{k}` ({})", KEYS.join(", "))));
        }
        if kv.insert(k.to_string(), v.trim().to_string()).is_some() {
            return Err(bad(format!("`{k}` given twice")));
        }
    }
    let whole = |k: &str, lo: u64, hi: u64| -> EngineResult<Option<u64>> {
        let Some(v) = kv.get(k) else {
            return Ok(None);
        };
        // `1e6` is a whole number too.
        let n = v
            .parse::<u64>()
            .ok()
            .or_else(|| {
                v.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0 && *f < 1.9e19)
                    .map(|f| f as u64)
            })
            .ok_or_else(|| bad(format!("{k}={v}: not a whole number")))?;
        if n < lo || n > hi {
            return Err(bad(format!("{k}={v}: give {lo} to {hi}")));
        }
        Ok(Some(n))
    };
    let real = |k: &str, lo: f64, hi: f64| -> EngineResult<Option<f64>> {
        let Some(v) = kv.get(k) else {
            return Ok(None);
        };
        match v.parse::<f64>() {
            Ok(f) if f.is_finite() && f >= lo && f <= hi => Ok(Some(f)),
            _ => Err(bad(format!("{k}={v}: give a number from {lo} to {hi}"))),
        }
    };
    let max_objects = u64::from(trace::MAX_OBJECTS);
    let mut g = match kind.trim() {
        "zipf" => {
            if kv.contains_key("scale") {
                return Err(bad("`scale` is for ch9".into()));
            }
            GenSpec::default()
        }
        "ch9" | "chapter9" => {
            let (lo, hi) = trace::CH9_SCALE;
            let scale = real("scale", lo, hi)?.unwrap_or(1.0);
            GenSpec::chapter9(scale, 1)
        }
        other => return Err(bad(format!("unknown stream `{other}` (zipf, ch9)"))),
    };
    if let Some(v) = real("alpha", 0.0, 100.0)? {
        g.alpha = v;
    }
    if let Some(v) = whole("objects", 1, max_objects)? {
        g.objects = v as u32;
    }
    if let Some(v) = whole("requests", 1, trace::MAX_TRACE_REQUESTS)? {
        g.requests = v;
    }
    if let Some(v) = whole("seed", 0, u64::MAX)? {
        g.seed = v;
    }
    g.shift_every = whole("shift", 1, u64::MAX)?.or(g.shift_every);
    g.scan_every = whole("scan_every", 1, u64::MAX)?.or(g.scan_every);
    if let Some(v) = whole("scan_len", 0, max_objects)? {
        g.scan_len = v as u32;
    }
    g.validate().map_err(|e| match e {
        EngineError::InvalidParam { name, message } => bad(format!("{name}: {message}")),
        other => other,
    })?;
    Ok(g)
}

fn source_of(a: &SourceArgs, workspace: Option<&std::path::Path>) -> EngineResult<TraceSource> {
    let given = [
        a.trace.is_some(),
        a.generate.is_some(),
        a.access_log.is_some(),
        a.log.is_some(),
        a.index.is_some(),
    ]
    .iter()
    .filter(|&&b| b)
    .count();
    if given != 1 {
        return Err(EngineError::invalid(
            "--trace",
            "give exactly one of --trace FILE, --generate SPEC, --access-log FILE, --log ID, --index DIR",
        ));
    }
    if let (Some(index), Some(queries)) = (&a.index, &a.index_queries) {
        if a.page_size == 0 {
            return Err(EngineError::invalid("--page-size", "must be at least 1"));
        }
        return Ok(TraceSource::IndexReplay {
            index: index.clone(),
            queries: queries.clone(),
            page_size: (a.view == ViewArg::Page).then_some(a.page_size),
        });
    }
    if let Some(id) = a.log {
        let ws = workspace.ok_or_else(|| {
            EngineError::invalid(
                "--log",
                "a stored log lives in a workspace: give --workspace",
            )
        })?;
        return Ok(TraceSource::StoredLog {
            workspace: ws.to_path_buf(),
            log_id: id,
            with_page: a.key_with_page,
        });
    }
    if let Some(g) = &a.generate {
        return Ok(TraceSource::Generated(parse_generate(g)?));
    }
    if let Some(p) = &a.access_log {
        if !p.is_file() {
            return Err(EngineError::BadPath {
                path: p.clone(),
                reason: not_a_file(p, "--access-log"),
            });
        }
        if a.page_size == 0 {
            return Err(EngineError::invalid("--page-size", "must be at least 1"));
        }
        return Ok(TraceSource::AccessLog {
            path: p.clone(),
            page_size: (a.view == ViewArg::Page).then_some(a.page_size),
        });
    }
    let path = a.trace.clone().unwrap_or_default();
    if !path.is_file() {
        return Err(EngineError::BadPath {
            reason: not_a_file(&path, "--trace"),
            path,
        });
    }
    if a.key_column == 0 || a.size_column == Some(0) {
        return Err(EngineError::invalid(
            "--key-column/--size-column",
            "columns count from 1",
        ));
    }
    Ok(TraceSource::File {
        path,
        options: ReadOptions {
            format: match a.format {
                FormatArg::Lines => Format::Lines,
                FormatArg::Csv => Format::Csv,
                FormatArg::Sogouq => Format::Sogouq,
            },
            key_column: a.key_column,
            size_column: a.size_column,
            key_with_page: a.key_with_page,
            first_page_only: a.first_page_only,
        },
    })
}

/// Why `p` given with `flag` is not a file to read.
fn not_a_file(p: &std::path::Path, flag: &str) -> String {
    if p.is_dir() {
        format!("a folder, not a file ({flag})")
    } else {
        format!("no such file ({flag})")
    }
}

fn execute(cli: &Cli, params: CacheSimParams) -> anyhow::Result<SimReport> {
    params.validate()?;
    Ok(match &cli.workspace {
        Some(w) => {
            let ws = Workspace::open_or_create(w)?;
            let v = run_job_with_progress(&ws, Box::new(CacheSimJob::from_params(params)?))?;
            CacheSimJob::decode(&v)?
        }
        None => {
            let bar = indicatif::ProgressBar::new(1000);
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            let r = params.execute(&Bar(bar.clone()));
            bar.finish_and_clear();
            r?
        }
    })
}

/// The CLI's JSON document for a report (the contract's fields first).
pub fn report_json(r: &SimReport) -> Value {
    let results: Vec<Value> = r
        .results
        .iter()
        .map(|x| {
            let mut v = json!({
                "policy": x.policy.name(),
                "size": x.size,
                "hits": x.hits,
                "misses": x.misses,
                "hit_ratio": x.hit_ratio,
                "miss_ratio": x.miss_ratio,
                "byte_miss_ratio": x.byte_miss_ratio,
                "byte_hit_ratio": x.byte_hit_ratio,
                "requests_counted": x.requests,
                "warmup_end": x.warmup_end,
                "evictions": x.evictions,
                "ns_per_request": x.ns_per_request,
                "method": x.method,
                "book": x.book.clone().unwrap_or_else(|| "not in book".into()),
            });
            if !x.series.is_empty() {
                v["series"] = json!(
                    x.series
                        .iter()
                        .map(|s| if s.is_nan() { None } else { Some(*s) })
                        .collect::<Vec<_>>()
                );
            }
            v
        })
        .collect();
    json!({
        "requests": r.trace.requests,
        "distinct": r.trace.distinct,
        "one_hit_wonders": r.trace.one_hit_wonders,
        "compulsory_miss_ratio": r.trace.compulsory_miss_ratio,
        "bytes_requested": r.trace.bytes_requested,
        "distinct_bytes": r.trace.distinct_bytes,
        "source": r.source,
        "bad_lines": r.bad_lines,
        "bytes": r.bytes,
        "results": results,
        "elapsed_s": r.elapsed_s,
        "requests_per_s": r.requests_per_s,
    })
}

/// The skipped lines of the source, one `file:line: reason` a line (on stderr beside JSON).
fn bad_line_notes(r: &SimReport) -> Vec<String> {
    let b = &r.bad_lines;
    let mut v: Vec<String> = b
        .first
        .iter()
        .map(|l| format!("{}:{}: {} (skipped)", r.source, l.line, l.reason.english))
        .collect();
    if b.count > b.first.len() as u64 {
        v.push(format!(
            "{}: {} more bad lines skipped",
            r.source,
            b.count - b.first.len() as u64
        ));
    }
    v
}

fn print_human(r: &SimReport) {
    println!(
        "{}: {} requests, {} distinct, {} one-hit wonders, compulsory miss ratio {:.4}",
        r.source,
        r.trace.requests,
        r.trace.distinct,
        r.trace.one_hit_wonders,
        r.trace.compulsory_miss_ratio
    );
    for note in bad_line_notes(r) {
        println!("{note}");
    }
    println!(
        "{:<12} {:>12} {:>10} {:>10} {:>9} {:>9} {:>9}  note",
        "policy", "size", "hits", "misses", "hit", "miss", "byte miss"
    );
    for x in &r.results {
        println!(
            "{:<12} {:>12} {:>10} {:>10} {:>9.4} {:>9.4} {:>9.4}  {}",
            x.policy.name(),
            x.size,
            x.hits,
            x.misses,
            x.hit_ratio,
            x.miss_ratio,
            x.byte_miss_ratio,
            x.book.as_deref().unwrap_or("not in book")
        );
    }
    println!("{:.3} s, {:.0} requests/s", r.elapsed_s, r.requests_per_s);
}

fn sim_cmd(cli: &Cli, a: &SimArgs) -> anyhow::Result<()> {
    let params = CacheSimParams {
        source: source_of(&a.source, cli.workspace.as_deref())?,
        config: SimConfig {
            policies: PolicyKind::parse_list(&a.policy, "--policy")?,
            sizes: SizeSpec::parse_list(&a.size, "--size")?,
            bytes: a.bytes,
            warmup: parse_warmup(a.warmup.as_deref())?,
            params: PolicyParams {
                decay: a.decay,
                decay_naive: false,
                seed: a.seed,
            },
            windows: a.windows,
            lru_by_stack: false,
        },
    };
    params.config.params.validate()?;
    let r = execute(cli, params)?;
    if a.json {
        for note in bad_line_notes(&r) {
            eprintln!("warning: {note}");
        }
        print_json(&report_json(&r))?;
    } else {
        print_human(&r);
    }
    Ok(())
}

/// The most sizes one sweep runs (each is a full simulation of every policy).
const MAX_POINTS: usize = 1000;

fn sweep_cmd(cli: &Cli, a: &SweepArgs) -> anyhow::Result<()> {
    let source = source_of(&a.source, cli.workspace.as_deref())?;
    let policies = PolicyKind::parse_list(&a.policy, "--policy")?;
    let warmup = parse_warmup(a.warmup.as_deref())?;
    let sizes = match &a.size {
        Some(s) => SizeSpec::parse_list(s, "--size")?,
        None => {
            if a.points == 0 || a.points > MAX_POINTS {
                return Err(
                    EngineError::invalid("--points", format!("give 1 to {MAX_POINTS}")).into(),
                );
            }
            if a.min == 0 {
                return Err(EngineError::invalid("--min", "must be at least 1").into());
            }
            if let Some(max) = a.max.filter(|&m| m < a.min) {
                return Err(EngineError::invalid(
                    "--max",
                    format!("{max} is below --min {}", a.min),
                )
                .into());
            }
            // Log-spaced up to the working set: load once to know it.
            let t = source.load()?;
            let st = t.stats();
            let ws = if a.bytes {
                st.distinct_bytes
            } else {
                st.distinct
            };
            log_sizes(a.min, a.max.unwrap_or(ws).max(a.min), a.points)
                .into_iter()
                .map(SizeSpec::Units)
                .collect()
        }
    };
    let params = CacheSimParams {
        source: source.clone(),
        config: SimConfig {
            policies,
            sizes: sizes.clone(),
            bytes: a.bytes,
            warmup,
            params: PolicyParams {
                decay: a.decay,
                ..PolicyParams::default()
            },
            windows: 0,
            lru_by_stack: true,
        },
    };
    let r = execute(cli, params)?;
    let mut v = report_json(&r);
    v["book_table_9_2"] = json!(
        TABLE_9_2
            .iter()
            .map(|(s, l, f)| json!({"size": s, "lru": l, "lfu_decay_tuned": f}))
            .collect::<Vec<_>>()
    );
    v["book_ceiling"] = json!(BOOK_CEILING);
    if a.tune_decay {
        let deltas: Vec<f64> = a
            .deltas
            .split(',')
            .map(|d| d.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| EngineError::invalid("--deltas", "comma-separated numbers"))?;
        if deltas.iter().any(|d| !(*d > 0.0 && *d <= 1.0)) {
            return Err(EngineError::invalid("--deltas", "each δ in (0, 1]").into());
        }
        let t = source.load()?;
        let ws = if a.bytes {
            t.stats().distinct_bytes
        } else {
            t.distinct as u64
        };
        let units: Vec<u64> = sizes.iter().map(|s| s.resolve(ws)).collect();
        let best = sim::tune_decay(&t, &units, &deltas, &())?;
        v["tuned_decay"] = json!(
            best.iter()
                .map(|(s, d, h)| json!({"size": s, "delta": d, "hit_ratio": h}))
                .collect::<Vec<_>>()
        );
    }
    if a.json {
        for note in bad_line_notes(&r) {
            eprintln!("warning: {note}");
        }
        print_json(&v)?;
    } else {
        print_human(&r);
        if let Some(t) = v.get("tuned_decay") {
            println!("tuned δ per size: {t}");
        }
    }
    Ok(())
}

fn trace_cmd(a: &TraceArgs) -> anyhow::Result<()> {
    if a.page_size == 0 {
        return Err(EngineError::invalid("--page-size", "must be at least 1").into());
    }
    let (log, replayed) = match (&a.index, &a.queries, &a.access_log) {
        (Some(dir), Some(qf), _) => {
            let ix = crate::engine::index::reader::Index::open(dir)?;
            let text = crate::engine::text::read_utf8(qf, "--queries")?;
            let queries = crate::engine::cache::replay::read_queries(&text);
            if queries.is_empty() {
                return Err(EngineError::invalid("--queries", "the file holds no query").into());
            }
            let r = crate::engine::cache::replay::replay(&ix, &queries)?;
            let accesses = r.accesses.clone();
            (accesses, Some(r))
        }
        (Some(_), None, _) => {
            return Err(
                EngineError::invalid("--queries", "--index needs the queries to replay").into(),
            );
        }
        (None, _, Some(p)) => (trace::read_access_log(p)?, None),
        (None, _, None) => {
            return Err(EngineError::invalid(
                "--access-log",
                "give an access log, or --index DIR --queries FILE to replay",
            )
            .into());
        }
    };
    let t = match a.view {
        ViewArg::Io => trace::io_view(&log),
        ViewArg::Page => trace::page_view(&log, a.page_size)?,
    };
    // Streamed to the file (the whole CSV was built in memory first).
    let bad = |e: std::io::Error| EngineError::path_os(a.out.clone(), e);
    {
        use std::io::Write as _;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&a.out).map_err(bad)?);
        w.write_all(b"key,size\n").map_err(bad)?;
        for r in &t.reqs {
            writeln!(w, "{},{}", r.id, r.size).map_err(bad)?;
        }
        w.flush().map_err(bad)?;
    }
    let st = t.stats();
    let v = json!({
        "view": if a.view == ViewArg::Io { "io" } else { "page" },
        "page_size": (a.view == ViewArg::Page).then_some(a.page_size),
        "accesses": log.len(),
        "replayed": replayed,
        "requests": st.requests,
        "distinct": st.distinct,
        "ceiling_hit_ratio": 1.0 - st.compulsory_miss_ratio,
        "bytes_requested": st.bytes_requested,
        "out": a.out,
    });
    if a.json {
        print_json(&v)?;
    } else {
        println!("{v}");
    }
    Ok(())
}
