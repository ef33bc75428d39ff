//! `tianwang index build|term|doc` and `tianwang search`: the inverted file and the query
//! service (book ch. 4.4, 5, 8, 10). `bench index` is in `cli::index_bench`.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};

use super::{
    Bar, Cli, NO_WORKSPACE_YET, own_workspace, peak_rss_mb, print_json, run_job_with_progress,
};
use crate::engine::error::EngineError;
use crate::engine::index::build::IndexConfig;
use crate::engine::index::clicks::Clicks;
use crate::engine::index::codec::{self, Codec};
use crate::engine::index::disk::Meta;
use crate::engine::index::job::{IndexBuildJob, IndexBuildParams};
use crate::engine::index::reader::{Index, sidecar};
use crate::engine::index::score::{AndOp, Combine, DsMode, Model, RankConfig, Vsm, WlSource};
use crate::engine::index::search::{SearchOptions, Searcher};
use crate::engine::index::snippet::AbstractConfig;
use crate::engine::index::source::Source;
use crate::engine::jobs::TypedJob;
use crate::engine::store::Workspace;

#[derive(Debug, Args)]
pub struct IndexArgs {
    #[command(subcommand)]
    pub what: IndexCommand,
}

#[derive(Debug, Subcommand)]
pub enum IndexCommand {
    /// Build an inverted file (runs under a memory budget, multiway merge) from the
    /// workspace's pages (the global --workspace), a folder of txt/html, a TSV or WARC files.
    Build(BuildArgs),
    /// A term's postings: documents, tf, positions, gaps and their bytes in every codec.
    Term(TermArgs),
    /// A document's entry and its terms (the forward view), with df.
    Doc(DocArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// A folder of `.txt` / `.html` files.
    #[arg(long, value_name = "DIR", conflicts_with = "tsv")]
    pub dir: Option<PathBuf>,
    /// A TSV file whose first column is the text (doc = line number from 1).
    #[arg(long, value_name = "FILE")]
    pub tsv: Option<PathBuf>,
    /// A folder from `export-parquet --what postings-input` (the analysis done): its tuples
    /// sorted on --engine datafusion or spark into the index.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["dir", "tsv"])]
    pub postings_input: Option<PathBuf>,
    /// WARC files (plain, .warc.gz per record or one gzip): each HTML response indexed as the
    /// workspace's pages are (DocView's title and body, the URL, the crawl time; no in-link
    /// anchors or LHN). Damaged records are listed and skipped. With --workspace W the index is
    /// W's.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["dir", "tsv", "postings_input"])]
    pub warc: Vec<PathBuf>,
    /// Where the index goes (default `<source>.index` beside it).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// none, vbyte (bytecode), golomb, rice, gamma, delta, packed.
    #[arg(long, default_value = "vbyte")]
    pub codec: String,
    /// Postings buffer budget; a sorted run is written each time it fills.
    #[arg(long, default_value_t = 256)]
    pub memory_mb: usize,
    /// Keep stop words in the index.
    #[arg(long)]
    pub keep_stop_words: bool,
    /// Index every token but whitespace (punctuation, case kept), as tantivy-jieba does.
    #[arg(long)]
    pub all_tokens: bool,
    /// Table 10-2 overrides, e.g. `title=40,h1=12`.
    #[arg(long, default_value = "")]
    pub tag_weights: String,
    /// W0, an occurrence's weight outside weighted tags.
    #[arg(long, default_value_t = 1.0)]
    pub w0: f32,
    /// Add this process's peak memory (MB) to the JSON.
    #[arg(long)]
    pub report_memory: bool,
    /// Where the postings are sorted: native (runs + multiway merge), datafusion or spark
    /// (the same index, byte for byte; `--pool-mb` is DataFusion's memory pool, `--memory-mb`
    /// the native postings buffer).
    #[command(flatten)]
    pub engine: super::bigjobs::EngineArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TermArgs {
    pub term: String,
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    /// Only the first N postings in the listing.
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DocArgs {
    /// The document's key (TSV line, file stem, URL).
    pub doc: String,
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModelArg {
    Bm25,
    Tfidf,
    Tianwang,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The query: words, "quoted phrases", OR for a disjunction (default AND).
    #[arg(required_unless_present = "replay")]
    pub query: Option<String>,
    /// The index (default: the workspace's `<workspace>.index`).
    #[arg(long, value_name = "DIR")]
    pub index: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ModelArg::Bm25)]
    pub model: ModelArg,
    #[arg(long, default_value_t = 1.2)]
    pub k1: f64,
    #[arg(long, default_value_t = 0.75)]
    pub b: f64,
    /// Combine the words by OR unless the query says otherwise (default AND, as TSE).
    #[arg(long)]
    pub or: bool,
    /// Tianwang's kB,kL,kU.
    #[arg(long, default_value = "0.6,0.2,0.2")]
    pub weights: String,
    /// VSM weighting for --model tfidf: normtf, binary, tfidf.
    #[arg(long, default_value = "tfidf")]
    pub vsm: String,
    /// TF-IDF as a plain dot product instead of the cosine.
    #[arg(long)]
    pub dot: bool,
    /// Tianwang: AND combines the terms' WB by mean (the book) or min.
    #[arg(long, default_value = "mean")]
    pub and_op: String,
    /// Tianwang: DS = ln(Smax/S) (book) or ln(1 + Smax/S) (smooth).
    #[arg(long, default_value = "book")]
    pub ds: String,
    /// Tianwang: WL from lhn (the book) or pagerank.
    #[arg(long, default_value = "lhn")]
    pub wl: String,
    /// Tianwang: linear (the book's choice) or product.
    #[arg(long, default_value = "linear")]
    pub combine: String,
    #[arg(long, default_value_t = 0.85)]
    pub damping: f64,
    /// A click log (SogouQ) for WU.
    #[arg(long, value_name = "FILE")]
    pub clicks: Option<PathBuf>,
    /// Day decay k of the click weights.
    #[arg(long, default_value_t = 0.8)]
    pub click_decay: f64,
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Result page (1-based, 10 results each by default).
    #[arg(long, default_value_t = 1)]
    pub page: usize,
    /// Abstract windows in GBK bytes (the book) or characters.
    #[arg(long, default_value = "gbk")]
    pub abstract_unit: String,
    /// Each hit's score as its named parts.
    #[arg(long)]
    pub explain: bool,
    /// Show near-duplicates as separate results (default: one result per group, the others
    /// as `similar`).
    #[arg(long)]
    pub no_fold: bool,
    /// Only results of this category (the pipeline's `build --classify`).
    #[arg(long, value_name = "CATEGORY")]
    pub category: Option<String>,
    /// WU from the workspace's own click log (Tianwang model).
    #[arg(long, conflicts_with = "clicks")]
    pub own_clicks: bool,
    /// Do not append this query to the workspace's own query log (scripted runs).
    #[arg(long)]
    pub no_log: bool,
    /// Replay a query stream through the service instead of one query: a file read as
    /// `cache sim --trace FILE` reads it (see --replay-format), or with no FILE the stored log
    /// --log ID.
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    pub replay: Option<Option<PathBuf>>,
    /// With --replay: a query log stored in the workspace (`querylog list`).
    #[arg(long, value_name = "ID", requires = "replay")]
    pub log: Option<i64>,
    /// With --replay FILE: lines (one query a line) or sogouq.
    #[arg(long, default_value = "lines")]
    pub replay_format: String,
    /// A result cache in front of the service: POLICY:SIZE in result pages (lru:100).
    #[arg(long, value_name = "POLICY:SIZE")]
    pub cache: Option<String>,
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, a: &IndexArgs) -> anyhow::Result<()> {
    match &a.what {
        IndexCommand::Build(b) => build(cli, b),
        IndexCommand::Term(t) => term(cli, t),
        IndexCommand::Doc(d) => doc(cli, d),
    }
}

fn build(cli: &Cli, a: &BuildArgs) -> anyhow::Result<()> {
    let source = match (&a.dir, &a.tsv, &cli.workspace) {
        _ if a.postings_input.is_some() => Source::Parquet {
            path: a.postings_input.clone().unwrap_or_default(),
        },
        _ if !a.warc.is_empty() => Source::Warc {
            paths: a.warc.clone(),
        },
        (Some(d), _, _) => Source::Dir { path: d.clone() },
        (_, Some(t), _) => Source::Tsv { path: t.clone() },
        (None, None, Some(_)) => Source::Workspace { path: None },
        (None, None, None) => {
            return Err(EngineError::invalid(
                "--workspace",
                "say what to index: --workspace W, --dir DIR, --tsv FILE or --warc FILE…",
            )
            .into());
        }
    };
    let config = IndexConfig {
        codec: Codec::parse(&a.codec)?,
        memory_mb: a.memory_mb,
        stop_words: !a.keep_stop_words,
        all_tokens: a.all_tokens,
        tag_weights: a.tag_weights.clone(),
        w0: a.w0,
        ..IndexConfig::default()
    };
    let params = IndexBuildParams {
        source,
        out: a.out.clone(),
        config,
        engine: a.engine.config()?,
    };
    params.validate()?;
    let meta: Meta = match &cli.workspace {
        Some(w) => {
            let ws = Workspace::open_or_create(w)?;
            let v = run_job_with_progress(&ws, Box::new(IndexBuildJob::from_params(params)?))?;
            IndexBuildJob::decode(&v)?
        }
        None => {
            let bar = Bar::new();
            let r = params.execute(None, &bar);
            bar.0.finish_and_clear();
            r?
        }
    };
    let out = match (&a.out, &params_out(cli, a)) {
        (Some(o), _) => o.clone(),
        (None, o) => o.clone(),
    };
    for s in meta.skipped.iter().take(SKIPPED_SHOWN) {
        eprintln!("warning: {s}");
    }
    if meta.skipped.len() > SKIPPED_SHOWN {
        let more = meta.skipped.len() - SKIPPED_SHOWN;
        eprintln!("warning: and {more} more (the JSON's `skipped` lists them)");
    }
    let mut v = meta_json(&meta);
    v["out"] = json!(out.display().to_string());
    if a.report_memory {
        v["peak_rss_mb"] = json!(peak_rss_mb());
    }
    if a.json {
        print_json(&v)?;
    } else {
        println!(
            "{} docs, {} terms, {} postings in {:.2} s ({:.0} docs/s), {} runs → {}",
            meta.docs,
            meta.terms,
            meta.postings,
            meta.timings.total_s,
            v["docs_per_s"].as_f64().unwrap_or(0.0),
            meta.runs,
            out.display()
        );
        for (c, b) in &meta.bytes_by_codec {
            println!("  {c:<7} {b:>12} bytes of d-gaps");
        }
    }
    Ok(())
}

/// Skipped inputs (damaged records, unreadable files) shown on stderr.
const SKIPPED_SHOWN: usize = 20;

fn params_out(cli: &Cli, a: &BuildArgs) -> PathBuf {
    if let Some(p) = &a.postings_input {
        return sidecar(p);
    }
    if let (Some(f), None) = (a.warc.first(), &cli.workspace) {
        return sidecar(f);
    }
    match (&a.dir, &a.tsv, &cli.workspace) {
        (Some(d), _, _) => sidecar(d),
        (_, Some(t), _) => sidecar(t),
        (_, _, Some(w)) => sidecar(w),
        _ => PathBuf::from("index"),
    }
}

/// The contract's fields first, then everything else the build knows.
pub fn meta_json(m: &Meta) -> Value {
    json!({
        "docs": m.docs,
        "terms": m.terms,
        "postings": m.postings,
        "bytes_by_codec": m.bytes_by_codec,
        "elapsed_s": m.timings.total_s,
        "docs_per_s": m.docs as f64 / m.timings.total_s.max(1e-9),
        "codec": m.config.codec.name(),
        "occurrences": m.occurrences,
        "avg_len": m.avg_len,
        "runs": m.runs,
        "memory_mb": m.config.memory_mb,
        "peak_buffer_bytes": m.peak_buffer_bytes,
        "bytes": m.bytes,
        "timings": m.timings,
        "compression_vs_none": m.bytes_by_codec.iter().map(|(k, v)| {
            (k.clone(), *v as f64 / m.bytes_by_codec.get("none").copied().unwrap_or(1).max(1) as f64)
        }).collect::<std::collections::BTreeMap<_, _>>(),
        "book_ratios": {"bytecode": 0.3359, "golomb": 0.2635, "decode_time_bytecode_to_golomb": "1 : 6"},
        "skipped": m.skipped,
        "source": m.source,
        "engine": m.engine,
    })
}

/// The index `--index` names, else the one beside the workspace (`--workspace` or the
/// default one, see [`own_workspace`]).
fn index_dir(given: &Option<PathBuf>, workspace: Option<&Path>) -> anyhow::Result<PathBuf> {
    match (given, workspace) {
        (Some(d), _) => Ok(d.clone()),
        (None, Some(w)) => Ok(sidecar(w)),
        (None, None) => Err(EngineError::invalid(
            "--index",
            format!("say which index: --index DIR or --workspace W ({NO_WORKSPACE_YET})"),
        )
        .into()),
    }
}

fn term(cli: &Cli, a: &TermArgs) -> anyhow::Result<()> {
    let ix = Index::open(&index_dir(&a.index, own_workspace(cli).as_deref())?)?;
    let t = ix.term(&a.term).ok_or_else(|| {
        EngineError::invalid("TERM", format!("{:?} is not in the lexicon", a.term))
    })?;
    let p = ix.postings(t)?;
    let positions = p.positions().map_err(|e| e.within(&ix.generation))?;
    let gaps = codec::dgaps(&p.docs);
    let by_codec: std::collections::BTreeMap<&str, usize> = Codec::ALL
        .iter()
        .map(|c| (c.name(), codec::encoded_len(*c, &gaps, None)))
        .collect();
    let rows: Vec<Value> = p
        .docs
        .iter()
        .enumerate()
        .take(a.limit)
        .map(|(k, &d)| {
            json!({"doc": ix.docs[d as usize].key, "id": d, "gap": gaps[k], "tf": p.tfs[k],
                   "wbt": p.wbt[k], "positions": positions[k]})
        })
        .collect();
    let v = json!({"term": t.term, "df": t.df, "cf": t.cf, "block_bytes": t.len,
                   "codec": ix.meta.config.codec.name(), "gap_bytes_by_codec": by_codec,
                   "golomb_b": codec::golomb_b(gaps.iter().map(|&g| f64::from(g)).sum::<f64>() / gaps.len().max(1) as f64),
                   "postings": rows});
    if a.json {
        print_json(&v)?;
    } else {
        println!("{}  df {}  cf {}  {} bytes", t.term, t.df, t.cf, t.len);
        for r in &rows {
            println!(
                "  {}  tf {}  gap {}  pos {}",
                r["doc"], r["tf"], r["gap"], r["positions"]
            );
        }
    }
    Ok(())
}

fn doc(cli: &Cli, a: &DocArgs) -> anyhow::Result<()> {
    let ix = Index::open(&index_dir(&a.index, own_workspace(cli).as_deref())?)?;
    let id = ix.find_doc(&a.doc).ok_or_else(|| {
        EngineError::invalid("DOC", format!("no document {:?} in the index", a.doc))
    })?;
    let fwd = crate::engine::index::browse::doc_terms(&ix, id)?;
    let info = &ix.docs[id as usize];
    let v = json!({"doc": info.key, "id": id, "title": info.title, "url": info.url, "len": info.len,
                   "distinct": info.distinct, "chars": info.chars, "lhn": info.lhn,
                   "crawled_at": info.crawled_at, "terms": fwd});
    if a.json {
        print_json(&v)?;
    } else {
        println!("{} ({} terms): {}", info.key, info.len, info.title);
        for t in &fwd {
            println!("  {}  tf {}  df {}", t.term, t.tf, t.df);
        }
    }
    Ok(())
}

/// The ranking configuration of `tianwang search`'s flags.
pub fn rank_config(a: &SearchArgs) -> anyhow::Result<RankConfig> {
    let mut c = RankConfig {
        model: match a.model {
            ModelArg::Bm25 => Model::Bm25,
            ModelArg::Tfidf => Model::Tfidf,
            ModelArg::Tianwang => Model::Tianwang,
        },
        k1: a.k1,
        b: a.b,
        cosine: !a.dot,
        damping: a.damping,
        op: if a.or {
            crate::engine::index::query::Op::Or
        } else {
            crate::engine::index::query::Op::And
        },
        ..RankConfig::default()
    };
    c.set_weights(&a.weights)?;
    c.vsm = match a.vsm.as_str() {
        "normtf" => Vsm::NormTf,
        "binary" => Vsm::Binary,
        "tfidf" => Vsm::TfIdf,
        v => {
            return Err(
                EngineError::invalid("--vsm", format!("`{v}`: normtf, binary or tfidf")).into(),
            );
        }
    };
    c.and_op = match a.and_op.as_str() {
        "mean" => AndOp::Mean,
        "min" => AndOp::Min,
        v => return Err(EngineError::invalid("--and-op", format!("`{v}`: mean or min")).into()),
    };
    c.ds = match a.ds.as_str() {
        "book" => DsMode::Book,
        "smooth" => DsMode::Smooth,
        v => return Err(EngineError::invalid("--ds", format!("`{v}`: book or smooth")).into()),
    };
    c.wl = match a.wl.as_str() {
        "lhn" => WlSource::Lhn,
        "pagerank" => WlSource::Pagerank,
        v => return Err(EngineError::invalid("--wl", format!("`{v}`: lhn or pagerank")).into()),
    };
    c.combine = match a.combine.as_str() {
        "linear" => Combine::Linear,
        "product" => Combine::Product,
        v => {
            return Err(
                EngineError::invalid("--combine", format!("`{v}`: linear or product")).into(),
            );
        }
    };
    c.validate()?;
    Ok(c)
}

pub fn search(cli: &Cli, a: &SearchArgs) -> anyhow::Result<()> {
    if a.replay.is_some() {
        return super::replay::run(cli, a);
    }
    let query = a.query.clone().unwrap_or_default();
    if query.trim().is_empty() {
        return Err(EngineError::invalid("QUERY", "the query is empty").into());
    }
    let cfg = rank_config(a)?;
    // The workspace's own index is served with what the workspace keeps (groups, categories)
    // and logged; an index given by --index is searched as it is.
    let own = match &a.index {
        None => own_workspace(cli),
        Some(_) => None,
    };
    let dir = index_dir(&a.index, own.as_deref())?;
    let mut s = match &own {
        Some(w) => crate::workbench::service::open(w)?,
        None => Searcher::open(&dir)?,
    };
    let stale = match &own {
        Some(w) => s.index.is_stale(&Workspace::open_existing(w)?)?,
        None => false,
    };
    if a.own_clicks {
        let w = own.as_ref().ok_or_else(|| {
            EngineError::invalid("--own-clicks", "the workspace's clicks need --workspace W")
        })?;
        crate::workbench::service::use_own_clicks(
            &mut s,
            &Workspace::open_existing(w)?,
            a.click_decay,
        )?;
    }
    if let Some(p) = &a.clicks {
        let c = Clicks::read(
            p,
            crate::engine::querylog::Format::Sogouq,
            &s.index,
            a.click_decay,
        )?;
        s.set_clicks(Some(c));
    }
    if a.page == 0 {
        return Err(EngineError::invalid("--page", "pages count from 1").into());
    }
    let opt = SearchOptions {
        top: a.top,
        page: a.page - 1,
        explain: a.explain,
        abstracts: true,
        fold: !a.no_fold,
        category: a.category.clone(),
        abstract_config: match a.abstract_unit.as_str() {
            "gbk" => SearchOptions::default().abstract_config,
            "chars" => AbstractConfig {
                merge_overlaps: true,
                ..AbstractConfig::modern()
            },
            v => {
                return Err(EngineError::invalid(
                    "--abstract-unit",
                    format!("`{v}`: gbk or chars"),
                )
                .into());
            }
        },
    };
    let cache = a
        .cache
        .as_deref()
        .map(|c| {
            crate::workbench::service::CacheSpec::parse(c)
                .map(|s| std::sync::Mutex::new(crate::workbench::service::ResultCache::new(s)))
        })
        .transpose()?;
    let log = own
        .as_ref()
        .filter(|_| !a.no_log)
        .map(|w| crate::workbench::service::Logger::new(w, &format!("cli-{}", std::process::id())));
    let r = crate::workbench::service::serve(&s, &query, &cfg, &opt, cache.as_ref(), log.as_ref())?
        .result;
    if a.json {
        let mut v = serde_json::to_value(&r)?;
        if let Some(hits) = v["hits"].as_array_mut() {
            for h in hits {
                if let Some(o) = h.as_object_mut() {
                    o.remove("abstract_parts");
                }
            }
        }
        v["stale"] = json!(stale);
        v["index"] = json!(dir.display().to_string());
        print_json(&v)?;
    } else {
        if stale {
            eprintln!(
                "note: the workspace has newer snapshots than the index; rebuild with `tianwang index build`"
            );
        }
        println!(
            "{} — {} results ({} matched, {} folded), {:.1} ms ({}; terms {})",
            r.query,
            r.total_hits,
            r.matched,
            r.folded,
            r.elapsed_ms,
            r.model,
            r.terms.join(" / ")
        );
        for h in &r.hits {
            println!("{:>3}. {:.4}  {}  {}", h.rank, h.score, h.doc, h.title);
            if let Some(c) = &h.category {
                println!("     [{c}]");
            }
            if !h.similar.is_empty() {
                println!(
                    "     + {} similar: {}",
                    h.similar.len(),
                    h.similar.join(" ")
                );
            }
            if !h.abstract_text.is_empty() {
                println!("     {}", h.abstract_text.replace('\n', " "));
            }
            if let Some(e) = &h.explain {
                for p in &e.parts {
                    println!(
                        "       {:<6} {:<10} {:>9.4}  {}",
                        p.name,
                        p.term.as_deref().unwrap_or(""),
                        p.value,
                        p.detail
                    );
                }
            }
        }
    }
    Ok(())
}

/// The `index` dir a path names, for other CLI files.
pub fn open_searcher(dir: &Path) -> anyhow::Result<Searcher> {
    Ok(Searcher::open(dir)?)
}
