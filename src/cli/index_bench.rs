//! `tianwang bench index [--peers] [--synthetic N]`: build and query the THUCNews titles
//! (dev.txt as the corpus, every 20th test.txt title as a query, same class = relevant) with
//! our index, and with `--peers` with tantivy + tantivy-jieba on the same documents in the
//! same run (built with `--features tantivy-peer`); `--synthetic N` builds N generated
//! documents under a small memory budget in a child process and reports its peak memory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use super::print_json;
use crate::engine::error::EngineError;
use crate::engine::index::build::{self, IndexConfig};
use crate::engine::index::evaluate;
use crate::engine::index::query::Op;
use crate::engine::index::score::RankConfig;
use crate::engine::index::search::{SearchOptions, Searcher};
use crate::engine::index::source::Source;
use crate::engine::rank::eval::{self, EvalConfig, Run};

#[derive(Debug, Args)]
pub struct BenchIndexArgs {
    /// Also run tantivy + tantivy-jieba (needs a build with `--features tantivy-peer`).
    #[arg(long)]
    pub peers: bool,
    /// Query-timing repetitions (the best run is reported).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Instead: build N generated documents (8 titles each) under --memory-mb in a child
    /// process and report its peak memory.
    #[arg(long)]
    pub synthetic: Option<usize>,
    #[arg(long, default_value_t = 64)]
    pub memory_mb: usize,
    /// Keep stop words in our index (tantivy-jieba keeps every token).
    #[arg(long)]
    pub keep_stop_words: bool,
    /// Index every token (punctuation, case) as tantivy-jieba does, stop words kept.
    #[arg(long)]
    pub peer_analysis: bool,
    #[arg(long)]
    pub json: bool,
}

/// The installed THUCNews titles (the global `--data`, else the data folder).
fn titles_dir(data: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(crate::engine::data::DataDir::resolve(data)?.require("thucnews_titles")?)
}

fn percentile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * p).round() as usize]
}

/// `data`: the global `--data`.
pub fn bench(a: &BenchIndexArgs, data: Option<&Path>) -> anyhow::Result<()> {
    if let Some(n) = a.synthetic {
        return synthetic(a, n, data);
    }
    let dir = titles_dir(data)?;
    let (dev, test) = (dir.join("dev.txt"), dir.join("test.txt"));
    let (queries, qrels) = evaluate::thucnews_queries(&dev, &test, 20)?;
    let scratch = std::env::temp_dir().join(format!("tianwang-bench-index-{}", std::process::id()));
    let out = scratch.join("ours");
    let cfg = IndexConfig {
        stop_words: !(a.keep_stop_words || a.peer_analysis),
        all_tokens: a.peer_analysis,
        ..IndexConfig::default()
    };
    // The segmenter's dictionaries load once per process, outside the clock (the peer's is
    // loaded before its clock starts too): jieba-rs, built on first use, is what search mode
    // (the index's method) cuts with.
    let _ = crate::engine::text::segment::Segmenter::shared().jieba();
    let t0 = Instant::now();
    let meta = build::build(&Source::Tsv { path: dev.clone() }, None, &out, &cfg, &())?;
    let build_s = t0.elapsed().as_secs_f64();
    let searcher = Searcher::open(&out)?;
    let rank = RankConfig {
        op: Op::Or,
        ..RankConfig::default()
    };
    let opt = SearchOptions {
        top: 10,
        explain: false,
        abstracts: false,
        ..SearchOptions::default()
    };
    let texts: Vec<String> = queries.iter().map(|(_, q)| q.clone()).collect();
    let mut best: Option<(Vec<f64>, Vec<Vec<String>>)> = None;
    for _ in 0..a.repeat.max(1) {
        let mut times = Vec::with_capacity(texts.len());
        let mut hits = Vec::with_capacity(texts.len());
        for q in &texts {
            // Segmentation outside the clock, as the peer's query timing does.
            let parsed = searcher.parse(q, &rank);
            let t = Instant::now();
            let r = parsed.and_then(|p| searcher.search_query(&p, &rank, &opt));
            times.push(t.elapsed().as_secs_f64());
            hits.push(
                r.map(|r| r.hits.into_iter().map(|h| h.doc).collect())
                    .unwrap_or_default(),
            );
        }
        let better = best
            .as_ref()
            .is_none_or(|(b, _)| percentile(&times, 0.5) < percentile(b, 0.5));
        if better {
            best = Some((times, hits));
        }
    }
    let (times, ours_hits) = best.unwrap_or_default();
    let p10 = |hits: &[Vec<String>]| -> anyhow::Result<f64> {
        let run: Run = queries
            .iter()
            .zip(hits)
            .map(|((qid, _), h)| (qid.clone(), h.clone()))
            .collect();
        Ok(eval::evaluate(&run, &qrels, &EvalConfig::default())?
            .mean
            .p_at)
    };
    let mut rows = vec![json!({
        "tool": "tianwang",
        "corpus": "thucnews_titles dev.txt (10,000) · 500 queries",
        "docs": meta.docs,
        "index_s": build_s,
        "stages_s": {"read": meta.timings.read_s, "segment": meta.timings.segment_s,
                     "invert": meta.timings.invert_s, "merge": meta.timings.merge_s,
                     "total": meta.timings.total_s},
        "docs_per_s": meta.docs as f64 / build_s,
        "query_p50_ms": percentile(&times, 0.5) * 1e3,
        "query_p95_ms": percentile(&times, 0.95) * 1e3,
        "p_at_10": p10(&ours_hits)?,
        "index_bytes": meta.bytes.postings_file + meta.bytes.lexicon_file,
        "model": rank.label(),
    })];
    let mut ratios = json!({});
    if a.peers {
        let ours_dps = meta.docs as f64 / build_s;
        let ours_p50 = percentile(&times, 0.5) * 1e3;
        let mut r = serde_json::Map::new();
        // tantivy both ways in the same run: its in-RAM index (nothing written) and on disk
        // (a temp dir, committed — as our index is written and synced).
        for (in_ram, label, key) in [(true, "in RAM", "in_ram"), (false, "on disk", "on_disk")] {
            let peer = peer_rows(&dev, &texts, a.repeat, in_ram)?;
            let overlap: f64 = peer
                .hits
                .iter()
                .zip(&ours_hits)
                .map(|(p, o)| {
                    let n = p.len().max(o.len()).max(1);
                    p.iter().filter(|k| o.contains(k)).count() as f64 / n as f64
                })
                .sum::<f64>()
                / texts.len().max(1) as f64;
            let peer_p50 = percentile(&peer.query_secs, 0.5) * 1e3;
            rows.push(json!({
                "tool": format!("tantivy 0.27 + tantivy-jieba (search mode, HMM; {label})"),
                "corpus": "thucnews_titles dev.txt (10,000) · 500 queries",
                "docs": peer.docs,
                "index_s": peer.index_secs,
                "docs_per_s": peer.docs_per_s,
                "query_p50_ms": peer_p50,
                "query_p95_ms": percentile(&peer.query_secs, 0.95) * 1e3,
                "p_at_10": p10(&peer.hits)?,
                "index_bytes": peer.index_bytes,
                "model": "bm25 k1=1.2 b=0.75 or",
            }));
            r.insert(
                format!("indexing_docs_per_s_ours_over_tantivy_{key}"),
                json!(ours_dps / peer.docs_per_s.max(1e-9)),
            );
            r.insert(
                format!("query_p50_ours_over_tantivy_{key}"),
                json!(ours_p50 / peer_p50.max(1e-9)),
            );
            r.insert(format!("top10_overlap_with_tantivy_{key}"), json!(overlap));
        }
        ratios = Value::Object(r);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let v = json!({
        "rows": rows,
        "ratios": ratios,
        "targets": {"p_at_10": 0.58, "rank_bm25_p_at_10": 0.583, "indexing_ratio": 1.0,
                    "query_p50_ratio_at_most": 1.0, "top10_overlap": 0.9},
    });
    if a.json {
        print_json(&v)?;
    } else {
        for r in v["rows"].as_array().into_iter().flatten() {
            println!(
                "{:<28} {:>8.0} docs/s  p50 {:.3} ms  p95 {:.3} ms  P@10 {:.4}",
                r["tool"].as_str().unwrap_or(""),
                r["docs_per_s"].as_f64().unwrap_or(0.0),
                r["query_p50_ms"].as_f64().unwrap_or(0.0),
                r["query_p95_ms"].as_f64().unwrap_or(0.0),
                r["p_at_10"].as_f64().unwrap_or(0.0)
            );
        }
        println!("{}", v["ratios"]);
    }
    Ok(())
}

struct PeerResult {
    docs: usize,
    index_secs: f64,
    docs_per_s: f64,
    index_bytes: u64,
    query_secs: Vec<f64>,
    hits: Vec<Vec<String>>,
}

#[cfg(feature = "tantivy-peer")]
fn peer_rows(
    dev: &Path,
    queries: &[String],
    repeat: usize,
    in_ram: bool,
) -> anyhow::Result<PeerResult> {
    use crate::engine::index::peer_tantivy::{Analyzer, PeerConfig, PeerDoc, run_with};
    let docs: Vec<PeerDoc> = crate::engine::index::source::read_tsv(dev)?
        .into_iter()
        .map(|d| PeerDoc {
            key: d.key,
            text: if d.title.is_empty() { d.body } else { d.title },
        })
        .collect();
    let cfg = PeerConfig {
        top: 10,
        in_ram,
        ..PeerConfig::default()
    };
    let mut best: Option<PeerResult> = None;
    for _ in 0..repeat.max(1) {
        // The same segmentation as our index: jieba's search mode with HMM.
        let analyzer = Analyzer {
            hmm: true,
            search_mode: true,
        };
        let r = run_with(&docs, queries, &cfg, analyzer)?;
        let p = PeerResult {
            docs: r.docs,
            index_secs: r.index_secs,
            docs_per_s: r.docs_per_s,
            index_bytes: r.index_bytes,
            query_secs: r.query_secs,
            hits: r
                .hits
                .into_iter()
                .map(|h| h.into_iter().map(|(k, _)| k).collect())
                .collect(),
        };
        let better = best
            .as_ref()
            .is_none_or(|b| percentile(&p.query_secs, 0.5) < percentile(&b.query_secs, 0.5));
        if better {
            best = Some(p);
        }
    }
    best.ok_or_else(|| EngineError::Internal("no peer run".into()).into())
}

#[cfg(not(feature = "tantivy-peer"))]
fn peer_rows(
    _dev: &Path,
    _queries: &[String],
    _repeat: usize,
    _in_ram: bool,
) -> anyhow::Result<PeerResult> {
    Err(EngineError::invalid(
        "--peers",
        "this build has no tantivy: run `cargo run --release --features tantivy-peer -- bench index --peers`",
    )
    .into())
}

/// N generated documents (8 seeded-random titles each) built under the memory budget in a
/// child process; its peak memory and the runs it wrote.
fn synthetic(a: &BenchIndexArgs, n: usize, data: Option<&Path>) -> anyhow::Result<()> {
    let dir = titles_dir(data)?;
    let titles: Vec<String> = std::fs::read_to_string(dir.join("dev.txt"))
        .map_err(|e| EngineError::path_os(dir.join("dev.txt"), e))?
        .lines()
        .filter_map(|l| l.split('\t').next().map(str::to_string))
        .collect();
    if titles.is_empty() {
        return Err(EngineError::invalid("--data", "no titles in dev.txt").into());
    }
    let scratch =
        std::env::temp_dir().join(format!("tianwang-bench-index-syn-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let tsv = scratch.join("synthetic.tsv");
    let mut rng = crate::engine::rng::Rng::new(15);
    let mut text = String::with_capacity(n * 200);
    for _ in 0..n {
        for k in 0..8 {
            if k > 0 {
                text.push('。');
            }
            text.push_str(&titles[rng.below(titles.len())]);
        }
        text.push('\n');
    }
    std::fs::write(&tsv, text)?;
    let exe = std::env::current_exe()?;
    let t = Instant::now();
    let o = std::process::Command::new(exe)
        .args(["index", "build", "--tsv"])
        .arg(&tsv)
        .arg("--out")
        .arg(scratch.join("ix"))
        .args([
            "--memory-mb",
            &a.memory_mb.to_string(),
            "--report-memory",
            "--json",
        ])
        .output()?;
    let wall = t.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&scratch);
    if !o.status.success() {
        return Err(EngineError::Internal(String::from_utf8_lossy(&o.stderr).into_owned()).into());
    }
    let b: Value = serde_json::from_slice(&o.stdout)?;
    let v = json!({"rows": [{
        "tool": "tianwang",
        "corpus": format!("synthetic {n} docs (8 THUCNews titles each)"),
        "docs": b["docs"], "docs_per_s": b["docs_per_s"], "wall_s": wall,
        "memory_mb": a.memory_mb, "runs": b["runs"], "peak_buffer_bytes": b["peak_buffer_bytes"],
        "peak_rss_mb": b["peak_rss_mb"], "timings": b["timings"],
    }]});
    if a.json {
        print_json(&v)?;
    } else {
        println!("{}", v);
    }
    Ok(())
}
