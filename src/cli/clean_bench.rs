//! `tianwang bench clean`: DocView's speed and body quality on ccwe, the sample web and the
//! article-extraction benchmark (`aeb`, when installed or given by `--aeb DIR`), each as a
//! folder in ccwe's layout (`original/NAME.html`, `cleaned/NAME.txt`), with readability-lxml
//! and trafilatura on the same folders in the same run (`--peers`).
//!
//! On aeb every tool's row also carries the check half's scores (`pages_check`,
//! `macro_p_check`, `macro_r_check`, `macro_f1_check`: the pages whose name starts 8–f, see
//! `engine::docview::eval::aeb`), computed from the same run's per-page scores.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::print_json;
use crate::engine::docview::eval::EvalReport;
use crate::engine::docview::eval::aeb;
use crate::engine::docview::{self, Params};
use crate::engine::text::metric::{Prf, bigram_prf, macro_avg};
use crate::engine::text::segment::Segmenter;

/// `tianwang bench clean`.
#[derive(Debug, Args)]
pub struct BenchCleanArgs {
    /// The ccwe folder (original/ and cleaned/; default: the installed ccwe set).
    #[arg(long)]
    pub ccwe: Option<PathBuf>,
    /// The article-extraction benchmark's folder (html/*.html.gz and ground-truth.json;
    /// default: the installed aeb set, skipped with a note when it is not installed).
    #[arg(long, value_name = "DIR")]
    pub aeb: Option<PathBuf>,
    /// Also run readability-lxml and trafilatura (bench/peers/setup.sh installs them into a venv).
    #[arg(long)]
    pub peers: bool,
    #[command(flatten)]
    pub peer: super::peers::PeerArgs,
    /// Best of this many timed passes.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Which parser builds the block tree in the timed runs: the streaming tokenizer (the
    /// default, what `clean` and the panel use) or html5ever's spec tree (the reference).
    #[arg(long, value_enum, default_value = "stream")]
    pub tree: TreeArg,
    /// Clean on this many threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long)]
    pub json: bool,
}

/// `bench clean --tree`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TreeArg {
    Stream,
    Html5ever,
}

impl TreeArg {
    fn path(self) -> docview::TreePath {
        match self {
            TreeArg::Stream => docview::TreePath::Stream,
            TreeArg::Html5ever => docview::TreePath::Html5ever,
        }
    }
}

/// Page name → its body P/R/F1, of one tool's run.
type PerPage = Vec<(String, Prf)>;

/// Our cleaner over a ccwe-layout folder: best-of-N extraction seconds and the scores.
fn bench_ours(
    html: &Path,
    truth: &Path,
    repeat: usize,
    tree: docview::TreePath,
) -> anyhow::Result<(serde_json::Value, PerPage)> {
    let params = Params::default();
    let mut best: Option<EvalReport> = None;
    for _ in 0..repeat.max(1) {
        let r = crate::engine::docview::eval::eval_dir_with(
            html,
            truth,
            &params,
            tree,
            &mut |_, _| Ok(()),
        )?;
        if best.as_ref().is_none_or(|b| r.seconds < b.seconds) {
            best = Some(r);
        }
    }
    let r = best.ok_or_else(|| anyhow::anyhow!("no run"))?;
    let per_page = r
        .pages
        .iter()
        .filter_map(|p| {
            Some((
                p.name.clone(),
                Prf {
                    p: p.p?,
                    r: p.r?,
                    f1: p.f1?,
                },
            ))
        })
        .collect();
    let v = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "pages": r.pages.len(),
        "seconds": r.seconds,
        "pages_per_s": r.pages_per_s,
        "macro_p": r.body.p, "macro_r": r.body.r, "macro_f1": r.body.f1,
        "errors": r.errors,
        "threads": rayon::current_num_threads(),
    });
    Ok((v, per_page))
}

/// Our cleaner at [`docview::Detail::Body`] (the main text only, as the peers give): every page
/// read first, then cleaned on all cores, best of `repeat` wall-clock passes, then scored.
fn bench_ours_body(
    html: &Path,
    truth: &Path,
    repeat: usize,
    tree: docview::TreePath,
) -> anyhow::Result<(serde_json::Value, PerPage)> {
    use rayon::prelude::*;
    let mut pairs = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(html)?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        let t = truth.join(f.with_extension("txt").file_name().unwrap_or_default());
        if let Ok(truth_text) = std::fs::read_to_string(&t) {
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            pairs.push((std::fs::read(&f)?, truth_text, name));
        }
    }
    let params = Params::default();
    let seg = Segmenter::shared();
    let mut best = f64::MAX;
    let mut bodies = Vec::new();
    for _ in 0..repeat.max(1) {
        let t0 = std::time::Instant::now();
        bodies = pairs
            .par_iter()
            .map(|(b, _, _)| {
                docview::extract_detail(
                    b,
                    None,
                    None,
                    None,
                    &params,
                    seg,
                    docview::Detail::Body,
                    tree,
                )
                .map(|d| d.body)
                .unwrap_or_default()
            })
            .collect();
        best = best.min(t0.elapsed().as_secs_f64());
    }
    let per_page: PerPage = bodies
        .iter()
        .zip(&pairs)
        .map(|(b, (_, t, name))| (name.clone(), bigram_prf(b, t)))
        .collect();
    let prfs: Vec<Prf> = per_page.iter().map(|(_, x)| *x).collect();
    let m = macro_avg(&prfs);
    let v = json!({
        "pages": pairs.len(), "seconds": best, "pages_per_s": pairs.len() as f64 / best,
        "macro_p": m.p, "macro_r": m.r, "macro_f1": m.f1, "errors": 0,
        "threads": rayon::current_num_threads(),
    });
    Ok((v, per_page))
}

/// Write the sample web's pages with a truth body in the ccwe layout.
fn sample_as_folder(dir: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let web = crate::engine::sample::web::SampleWeb::build(80, false)?;
    let (h, t) = (dir.join("original"), dir.join("cleaned"));
    std::fs::create_dir_all(&h)?;
    std::fs::create_dir_all(&t)?;
    for (i, p) in web.truth.pages.iter().enumerate() {
        if p.body.trim().is_empty() {
            continue;
        }
        if let Some(res) = web.at(&p.url) {
            std::fs::write(h.join(format!("{i:04}.html")), &res.body)?;
            std::fs::write(t.join(format!("{i:04}.txt")), &p.body)?;
        }
    }
    Ok((h, t))
}

/// The `aeb` set in `dir` decoded into `out` in the ccwe layout (`original/NAME.html`,
/// `cleaned/NAME.txt`), the folders every tool of the bench reads.
fn aeb_as_folder(dir: &Path, out: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let (h, t) = (out.join("original"), out.join("cleaned"));
    std::fs::create_dir_all(&h)?;
    std::fs::create_dir_all(&t)?;
    for p in aeb::read(dir, aeb::Half::All)? {
        std::fs::write(h.join(format!("{}.html", p.name)), &p.html)?;
        std::fs::write(t.join(format!("{}.txt", p.name)), &p.truth)?;
    }
    Ok((h, t))
}

/// A peer's `per_page` (`{"NAME.html": [p, r, f1]}`) as page scores.
fn peer_per_page(v: &serde_json::Value) -> PerPage {
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, s)| {
            let s = s.as_array()?;
            let at = |i: usize| s.get(i).and_then(serde_json::Value::as_f64);
            Some((
                name.clone(),
                Prf {
                    p: at(0)?,
                    r: at(1)?,
                    f1: at(2)?,
                },
            ))
        })
        .collect()
}

/// A tool's row with the check half's macro scores added (when `check`: the aeb corpus).
fn with_check(mut row: serde_json::Value, per_page: &PerPage, check: bool) -> serde_json::Value {
    if !check {
        return row;
    }
    let prfs: Vec<Prf> = per_page
        .iter()
        .filter(|(name, _)| aeb::is_check(name))
        .map(|(_, x)| *x)
        .collect();
    let m = macro_avg(&prfs);
    if let Some(o) = row.as_object_mut() {
        o.insert("pages_check".into(), json!(prfs.len()));
        o.insert("macro_p_check".into(), json!(m.p));
        o.insert("macro_r_check".into(), json!(m.r));
        o.insert("macro_f1_check".into(), json!(m.f1));
    }
    row
}

/// A tool's row `r` against readability-lxml's in the same corpus (`tools`): its speed on all
/// the threads it used and per thread (a peer's row has no `threads`: it runs on one). None
/// when readability-lxml did not run (or cleaned nothing).
fn vs_readability(tools: &serde_json::Value, r: &serde_json::Value) -> Option<(f64, f64)> {
    let base = tools["readability-lxml"]["pages_per_s"]
        .as_f64()
        .filter(|b| *b > 0.0)?;
    let pps = r["pages_per_s"].as_f64().unwrap_or(0.0);
    let threads = r["threads"].as_f64().unwrap_or(1.0).max(1.0);
    Some((pps / base, pps / threads / base))
}

/// The benches' common shape from the per-corpus results: `rows` (a row per tool and corpus:
/// its throughput with the threads it used, the peers one, and its quality) and `ratio` (each
/// tool's speed against readability-lxml's in the same run, on all its threads and per core).
fn contract_rows(v: &serde_json::Value) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    let (mut rows, mut ratio) = (Vec::new(), Vec::new());
    for (corpus, tools) in v.as_object().into_iter().flatten() {
        if corpus == "stages_ms_per_page" {
            continue;
        }
        for (tool, r) in tools.as_object().into_iter().flatten() {
            let mut row = json!({"tool": tool, "corpus": corpus});
            if let (Some(o), Some(fields)) = (row.as_object_mut(), r.as_object()) {
                for (k, x) in fields {
                    o.insert(k.clone(), x.clone());
                }
                // The Python peers run on one thread.
                o.entry("threads").or_insert(json!(1));
            }
            if let Some((speed, per_core)) =
                vs_readability(tools, r).filter(|_| tool != "readability-lxml")
            {
                ratio.push(json!({
                    "corpus": corpus, "tool": tool, "vs": "readability-lxml",
                    "speed": speed, "threads": row["threads"], "per_core": per_core,
                }));
            }
            rows.push(row);
        }
    }
    (rows, ratio)
}

/// The human table: a row per corpus and tool (speed against readability-lxml's when it ran),
/// then the check half's scores of a corpus that has them (`aeb:chk`).
fn print_rows(v: &serde_json::Value) {
    println!(
        "{:<8} {:<18} {:>9} {:>7} {:>7} {:>7} {:>10} {:>9}",
        "corpus", "tool", "pages/s", "P", "R", "F1", "speed×", "per core"
    );
    for (corpus, tools) in v.as_object().into_iter().flatten() {
        if corpus == "stages_ms_per_page" {
            continue;
        }
        for (tool, r) in tools.as_object().into_iter().flatten() {
            let pps = r["pages_per_s"].as_f64().unwrap_or(0.0);
            let vs = vs_readability(tools, r);
            println!(
                "{:<8} {:<18} {:>9.1} {:>7.3} {:>7.3} {:>7.3} {:>10} {:>9}",
                corpus,
                tool,
                pps,
                r["macro_p"].as_f64().unwrap_or(0.0),
                r["macro_r"].as_f64().unwrap_or(0.0),
                r["macro_f1"].as_f64().unwrap_or(0.0),
                vs.map(|v| format!("{:.1}×", v.0)).unwrap_or_default(),
                vs.map(|v| format!("{:.1}×", v.1)).unwrap_or_default()
            );
        }
        for (tool, r) in tools.as_object().into_iter().flatten() {
            if let Some(f1) = r["macro_f1_check"].as_f64() {
                println!(
                    "{:<8} {:<18} {:>9} {:>7.3} {:>7.3} {:>7.3} {:>10}",
                    format!("{corpus}:chk"),
                    tool,
                    "",
                    r["macro_p_check"].as_f64().unwrap_or(0.0),
                    r["macro_r_check"].as_f64().unwrap_or(0.0),
                    f1,
                    format!("{} pages", r["pages_check"].as_u64().unwrap_or(0))
                );
            }
        }
    }
}

/// `data`: the global `--data`.
pub fn bench_clean(a: &BenchCleanArgs, data: Option<&Path>) -> anyhow::Result<()> {
    let tmp = std::env::temp_dir().join(format!("tianwang-bench-clean-{}", std::process::id()));
    let (sh, st) = sample_as_folder(&tmp)?;
    let mut corpora = vec![("sample".to_string(), sh, st)];
    // A corpus's folder: the flag's, else the installed set's, else a note and no corpus.
    let folder = |given: &Option<PathBuf>, set: &str| -> anyhow::Result<Option<PathBuf>> {
        Ok(match given {
            Some(dir) => Some(dir.clone()),
            None => crate::engine::data::DataDir::resolve(data)?
                .require(set)
                .map_err(|e| eprintln!("note: {e}; {set} skipped"))
                .ok(),
        })
    };
    let ccwe = folder(&a.ccwe, "ccwe")?;
    match ccwe.map(|c| (c.join("original"), c.join("cleaned"))) {
        Some((ch, ct)) if ch.is_dir() => corpora.insert(0, ("ccwe".to_string(), ch, ct)),
        Some((ch, _)) => eprintln!("note: {} not found; ccwe skipped", ch.display()),
        None => {}
    }
    if let Some(d) = folder(&a.aeb, "aeb")? {
        let (ah, at) = aeb_as_folder(&d, &tmp.join("aeb"))?;
        corpora.push(("aeb".to_string(), ah, at));
    }
    let mut results = serde_json::Map::new();
    for (name, h, t) in &corpora {
        let mut tools = serde_json::Map::new();
        let (repeat, tree) = (a.repeat, a.tree.path());
        let ours = || -> anyhow::Result<_> {
            Ok((
                bench_ours(h, t, repeat, tree)?,
                bench_ours_body(h, t, repeat, tree)?,
            ))
        };
        let (full, body) = match a.threads {
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()?
                .install(ours)?,
            None => ours()?,
        };
        let check = name == "aeb";
        tools.insert("tianwang".into(), with_check(full.0, &full.1, check));
        tools.insert("tianwang-body".into(), with_check(body.0, &body.1, check));
        if a.peers {
            let args = [
                "--html-dir".into(),
                h.into(),
                "--truth-dir".into(),
                t.into(),
                "--repeat".into(),
                a.repeat.to_string().into(),
                "--json".into(),
            ];
            let v = super::peers::run(&a.peer, "clean_peers.py", &args)?.json;
            if let Some(obj) = v["tools"].as_object() {
                for (k, v) in obj {
                    let mut v = v.clone();
                    let per_page = v
                        .as_object_mut()
                        .and_then(|o| o.remove("per_page"))
                        .map(|p| peer_per_page(&p))
                        .unwrap_or_default();
                    tools.insert(k.clone(), with_check(v, &per_page, check));
                }
            }
        }
        results.insert(name.clone(), serde_json::Value::Object(tools));
    }
    // Where the time goes, single-threaded, on the first corpus.
    let mut pages = Vec::new();
    if let Some((_, h, _)) = corpora.first() {
        for e in std::fs::read_dir(h)?.flatten() {
            pages.push(std::fs::read(e.path())?);
        }
    }
    // The profile of the chosen tree path, and html5ever's beside it (before and after).
    let stages = docview::stage_times(&pages, &Params::default(), a.tree.path());
    let reference = docview::stage_times(&pages, &Params::default(), docview::TreePath::Html5ever);
    results.insert(
        "stages_ms_per_page".into(),
        json!(
            stages
                .iter()
                .zip(&reference)
                .map(|((k, v), (_, h))| json!({"stage": k, "ms": v, "html5ever_ms": h}))
                .collect::<Vec<_>>()
        ),
    );
    let _ = std::fs::remove_dir_all(&tmp);
    let mut v = serde_json::Value::Object(results);
    if a.json {
        let (rows, ratio) = contract_rows(&v);
        v["rows"] = json!(rows);
        v["ratio"] = json!(ratio);
        return print_json(&v);
    }
    print_rows(&v);
    println!(
        "single-threaded ms per page on {} ({:?} tree; html5ever's beside it):",
        corpora.first().map_or("", |c| c.0.as_str()),
        a.tree
    );
    let total = |v: &[(&str, f64)]| v.iter().map(|x| x.1).sum::<f64>();
    for ((k, ms), (_, h)) in stages.iter().zip(&reference) {
        println!("  {k:<22} {ms:>7.3} {h:>7.3}");
    }
    println!(
        "  {:<22} {:>7.3} {:>7.3}",
        "total",
        total(&stages),
        total(&reference)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_ratios_per_core_against_readability() {
        let v = json!({
            "ccwe": {
                "readability-lxml": {"pages_per_s": 50.0, "macro_f1": 0.877},
                "tianwang": {"pages_per_s": 1500.0, "macro_f1": 0.97, "threads": 2},
            },
            "stages_ms_per_page": [{"stage": "decode", "ms": 0.1}],
        });
        let (rows, ratio) = contract_rows(&v);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["tool"], "readability-lxml");
        assert_eq!(rows[0]["threads"], 1, "a peer runs on one thread");
        assert_eq!(rows[1]["corpus"], "ccwe");
        assert_eq!(rows[1]["threads"], 2);
        assert_eq!(ratio.len(), 1, "{ratio:?}");
        assert_eq!(ratio[0]["tool"], "tianwang");
        assert!((ratio[0]["speed"].as_f64().unwrap() - 30.0).abs() < 1e-9);
        assert!((ratio[0]["per_core"].as_f64().unwrap() - 15.0).abs() < 1e-9);
    }
}
