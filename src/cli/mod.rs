//! The command line: every engine job is also a subcommand with JSON output, so experiments
//! can be scripted. Human text by default; `--json` prints exactly one JSON document on stdout.
//! Exit codes: 0 success, 2 bad input (message on stderr), 1 internal failure.

//!
//! Each lab keeps its subcommands in its own file (`crawl`, `text`, `sample`, `store`, `jobs`
//! …): an `Args` struct per subcommand and a `run` function; this file only lists them and
//! dispatches. A new lab adds one file, one `Command` variant and one match arm.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

use crate::engine::error::EngineError;
use crate::engine::jobs::{Job, JobRunner};
use crate::engine::store::{self, Workspace};

pub mod bigjobs;
pub mod build;
pub mod cache;
pub mod cache_bench;
pub mod capacity;
pub mod classify;
pub mod clean_bench;
pub mod crawl;
pub mod data;
pub mod dedup;
pub mod experiment;
pub mod index;
pub mod index_bench;
pub mod jobs;
pub mod lesson;
pub mod peers;
pub mod querylog;
pub mod rank;
pub mod rank_bench;
pub mod replay;
pub mod sample;
pub mod scale_bench;
pub mod store_cmd;
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

    /// Data folder of the real data sets (see `tianwang data`). Default: $TIANWANG_DATA, else
    /// `datasets` in the user's data folder.
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the whole engine in one go: serve and crawl the sample web (--sample) or crawl
    /// --seed URLs, clean every page once, group near-duplicates, index, PageRank, optionally
    /// classify; each stage a logged job, a stage with nothing new up to date.
    Build(build::BuildArgs),
    /// Print the experiment log: every job run with its parameters and result.
    Jobs(jobs::JobsArgs),
    /// What a workspace holds: sites, pages, snapshots, jobs.
    Info(store_cmd::InfoArgs),
    /// Crawl from seed URLs into the workspace (a job; resumable).
    Crawl(crawl::CrawlArgs),
    /// Export every snapshot as a Tianwang raw file or WARC/1.1.
    Export(store_cmd::ExportArgs),
    /// Import a Tianwang raw file or a WARC file into the workspace.
    Import(store_cmd::ImportArgs),
    /// List the pages in a workspace.
    Pages(store_cmd::PagesArgs),
    /// Benchmarks, each lab's speed and quality (with --peers: side by side with peer tools).
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Serve the sample web over HTTP on loopback until killed.
    ServeSample(sample::ServeArgs),
    /// The sample web: its ground truth.
    Sample {
        #[command(subcommand)]
        what: sample::SampleCommand,
    },
    /// Clean a page with the DocView model (JSON: encoding, type, title, body, abstract,
    /// keywords, links, blocks), or score a folder / the sample web / the stored pages.
    Clean(text::CleanArgs),
    /// Cut Chinese text into words: jieba (HMM on/off, search mode) or the book's FMM/RMM.
    Segment(text::SegmentArgs),
    /// Measure MD5 and SQLite throughput on 13 KB pages (a job, logged in the workspace).
    Calibrate(jobs::CalibrateArgs),
    /// Train and test a text classifier (kNN, NB, Rocchio, tree, linear SVM; DF/IG/MI/CHI
    /// feature selection; RCut/PCut/SCut), sweep a parameter, or predict with a stored model.
    Classify(Box<classify::ClassifyArgs>),
    /// Link analysis and evaluation: PageRank and HITS over a crawl or a graph file
    /// (explained, with convergence), P@N/MAP/nDCG with a paired t-test, ranking diffs.
    Rank(rank::RankArgs),
    /// Crawl capacity: the book's model (every figure with its formula and the book's number)
    /// and the distributed-crawl simulation over the workspace's own fetch log.
    Capacity(capacity::CapacityArgs),
    /// Near-duplicate detection: every algorithm of the book's §7.2 and the four dedup texts
    /// (md5, Tianwang 1–5 and union, segments, I-Match, MinHash, SimHash, CCDet, best) on a
    /// folder, the sample web or the workspace; --compare, --sweep, P/R/F1 against truth.
    Dedup(Box<dedup::DedupArgs>),
    /// Cache-policy simulation (book ch. 8.6, 9.9–9.10): FIFO, LRU, LFU-decay and 14 more
    /// policies at many sizes on a trace file, a SogouQ log, a generated stream or an
    /// inverted-file access log; sweeps for hit-ratio curves; the §8.6.3 I/O and PAGE views.
    Cache(Box<cache::CacheArgs>),
    /// Query-log statistics (book ch. 9): every statistic of a SogouQ / Tianwang / TSV log,
    /// import into the workspace, a calibrated synthetic log, the request stream for the cache
    /// lab.
    Querylog(querylog::QuerylogArgs),
    /// The inverted file (book ch. 4.4, 8): build from the workspace's pages, a folder, a
    /// TSV or WARC files (runs under a memory budget, multiway merge, every codec sized); browse a term's
    /// postings or a document's terms.
    Index(index::IndexArgs),
    /// Query the index (book ch. 5, 10): AND / OR / "phrases", BM25, TF-IDF or Tianwang's
    /// WB/WL/WU ranking, dynamic abstracts, explained scores.
    Search(index::SearchArgs),
    /// The real data sets: list, fetch from upstream (or --mirror), import from a copy, verify.
    Data(data::DataArgs),
    /// The book's experiments by name: list them, run some or all, ours beside the book's.
    Experiment(experiment::ExperimentArgs),
    /// Lessons: list the bundled ones, check lessons headless (ours beside the book's), export
    /// one to start a new lesson from.
    Lesson(lesson::LessonArgs),
    /// Write the big jobs' Parquet contract (pages, signatures, postings-input, links,
    /// querylog) of the workspace or a folder, for DataFusion, Spark or anyone's pandas
    /// (needs the `bigjobs` build feature).
    ExportParquet(Box<bigjobs::ExportParquetArgs>),
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Page cleaning speed and quality on ccwe and the sample web, with --peers side by side
    /// with readability-lxml and trafilatura.
    Clean(clean_bench::BenchCleanArgs),
    /// Segmentation throughput of every method against raw jieba-rs on the same text.
    Segment(text::BenchSegmentArgs),
    /// Crawl a generated site of N pages over loopback, politeness off, into a scratch
    /// workspace (SQLite, as a real crawl), and report pages/s.
    Crawl(crawl::BenchCrawlArgs),
    /// Build an in-memory frontier of N URLs and report the memory it takes.
    Frontier(crawl::BenchFrontierArgs),
    /// Classifier training and testing on the THUCNews titles, with --peers side by side
    /// with scikit-learn.
    Classify(classify::BenchClassifyArgs),
    /// PageRank and HITS on hollins (and a generated graph), with --peers side by side with
    /// networkx.
    Rank(rank_bench::BenchRankArgs),
    /// Every dedup method's docs/s and quality on the development set (or --dir), with --peers
    /// datasketch MinHash-LSH and simhash; --synthetic N times `best` on N generated pages.
    Dedup(dedup::BenchDedupArgs),
    /// Cache policies' requests/s on cloudPhysics (with --peers side by side with
    /// libCacheSim) and LRU at 10 sizes in one stack-distance pass over 100M requests.
    Cache(cache_bench::BenchCacheArgs),
    /// All query-log statistics on a generated 10-million-line log (time, peak memory), with
    /// --peers side by side with pandas.
    Querylog(querylog::BenchQuerylogArgs),
    /// Index build and BM25 queries on the THUCNews titles (P@10), with --peers side by side
    /// with tantivy + tantivy-jieba; --synthetic N for a bounded-memory build of N documents.
    Index(index_bench::BenchIndexArgs),
    /// Issue 14's scale run: a generated corpus of N pages fingerprinted in chunks and grouped
    /// on native / DataFusion / Spark, planted pairs checked, peak memory; --crossover fits the
    /// model (needs the `bigjobs` build feature).
    Scale(Box<scale_bench::BenchScaleArgs>),
}

pub(crate) fn workspace_path(cli: &Cli) -> anyhow::Result<PathBuf> {
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

/// The default workspace when it exists (the one `tianwang build --sample` fills when no
/// `--workspace` is given, which `info` and `jobs` read), else none: what the commands that
/// read a built engine (search, index look-ups, dedup, link analysis) fall back to when given
/// no source at all.
pub(crate) fn existing_default_workspace() -> Option<PathBuf> {
    store::default_workspace_path().ok().filter(|p| p.is_file())
}

/// What the messages of those commands add when there is no workspace to fall back to.
pub(crate) const NO_WORKSPACE_YET: &str =
    "there is no default workspace yet: `tianwang build --sample` builds one";

/// `--workspace`, else [`existing_default_workspace`].
pub(crate) fn own_workspace(cli: &Cli) -> Option<PathBuf> {
    cli.workspace.clone().or_else(existing_default_workspace)
}

pub(crate) fn print_json(v: &serde_json::Value) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

/// A progress bar on stderr that engine work reports to (the CLI's `Tick`).
pub(crate) struct Bar(pub indicatif::ProgressBar);

impl Bar {
    pub(crate) fn new() -> Bar {
        let bar = indicatif::ProgressBar::new(1000);
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        Bar(bar)
    }
}

impl crate::engine::jobs::Tick for Bar {
    fn tick(&self, fraction: f32, message: &str) -> crate::engine::error::Result<()> {
        self.0.set_position((fraction * 1000.0) as u64);
        self.0.set_message(message.to_string());
        Ok(())
    }
}

/// This process's peak resident memory (VmHWM) in MB, where /proc tells it.
pub(crate) fn peak_rss_mb() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
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
    // A failure keeps the job's own message and exit code (2 when the user can fix it).
    let v = state.into_result()?;
    let id = handle
        .snapshot()
        .id
        .ok_or_else(|| EngineError::Internal("a finished job without a log row".into()))?;
    Ok((v, id))
}

/// Run a subcommand.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = &cli.command else {
        return crate::ui::run_gui(cli.workspace.clone(), cli.data.clone());
    };
    match command {
        Command::Build(a) => build::run(&cli, a),
        Command::Jobs(a) => jobs::list(&cli, a),
        Command::Info(a) => store_cmd::info(&cli, a),
        Command::Crawl(a) => crawl::run(&cli, a),
        Command::Export(a) => store_cmd::export(&cli, a),
        Command::Import(a) => store_cmd::import(&cli, a),
        Command::Pages(a) => store_cmd::pages(&cli, a),
        Command::Bench { what } => bench(&cli, what),
        Command::ServeSample(a) => sample::serve(a),
        Command::Sample { what } => sample::run(&cli, what),
        Command::Clean(a) => text::clean(&cli, a),
        Command::Segment(a) => text::segment(a),
        Command::Calibrate(a) => jobs::calibrate(&cli, a),
        Command::Classify(a) => classify::run(a, Some(workspace_path(&cli)?)),
        // Only an explicit --workspace: the crawl graph, not the default workspace's.
        Command::Rank(a) => rank::run(a, cli.workspace.as_deref()),
        Command::Capacity(a) => capacity::run(&cli, a),
        Command::Dedup(a) => dedup::run_dedup(&cli, a),
        Command::Cache(a) => cache::run(&cli, a),
        Command::Querylog(a) => querylog::run(&cli, a),
        Command::Index(a) => index::run(&cli, a),
        Command::Search(a) => index::search(&cli, a),
        Command::ExportParquet(a) => bigjobs::export_parquet(&cli, a),
        Command::Data(a) => data::run(&cli, a),
        Command::Experiment(a) => experiment::run(&cli, a),
        Command::Lesson(a) => lesson::run(&cli, a),
    }
}

fn bench(cli: &Cli, what: &BenchCommand) -> anyhow::Result<()> {
    let data = cli.data.as_deref();
    match what {
        BenchCommand::Clean(a) => clean_bench::bench_clean(a, data),
        BenchCommand::Segment(a) => text::bench_segment(a, data),
        BenchCommand::Crawl(a) => crawl::bench_crawl(a),
        BenchCommand::Frontier(a) => crawl::bench_frontier(a),
        BenchCommand::Classify(a) => classify::bench(a, data),
        BenchCommand::Rank(a) => rank_bench::bench(a, data),
        BenchCommand::Dedup(a) => dedup::bench(a, data),
        BenchCommand::Cache(a) => cache_bench::bench(a, data),
        BenchCommand::Querylog(a) => querylog::bench(a),
        BenchCommand::Index(a) => index_bench::bench(a, data),
        BenchCommand::Scale(a) => scale_bench::bench(a),
    }
}

/// The process exit code for an error: 2 when the user's input was at fault, else 1.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    match e.downcast_ref::<EngineError>() {
        Some(e) if e.is_user_error() => 2,
        _ => 1,
    }
}
