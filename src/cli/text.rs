//! The text-pipeline subcommands: `clean` (DocView of one page, or a scored folder / the
//! article-extraction benchmark / the sample web / the workspace's pages), `segment`, and
//! `bench segment` (`bench clean` is in `clean_bench`).

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use serde_json::json;

use super::{print_json, run_job_with_id, workspace_path};
use crate::engine::docview::eval::aeb::Half;
use crate::engine::docview::eval::{CleanEval, EvalReport, EvalSource};
use crate::engine::docview::{self, AbstractMode, Params, Propagation};
use crate::engine::error::EngineError;
use crate::engine::jobs::TypedJob;
use crate::engine::store::Workspace;
use crate::engine::text::segment::{Method, Segmenter};

/// The DocView parameters, each optional (the book's defaults otherwise).
#[derive(Debug, Args, Clone, Default)]
pub struct ParamArgs {
    /// Emphasis factor λ of headings and bold text (≥ 1).
    #[arg(long)]
    pub lambda: Option<f64>,
    /// Weight propagation: geometric, constant or two-level.
    #[arg(long)]
    pub propagation: Option<String>,
    /// Propagation stops at a parent heavier than this.
    #[arg(long)]
    pub weight_cap: Option<f64>,
    /// Keywords: keep weight > mean × β.
    #[arg(long)]
    pub beta_kw: Option<f64>,
    /// At most this many keywords.
    #[arg(long)]
    pub max_keywords: Option<usize>,
    /// Related links: anchor-text similarity threshold β (0–1).
    #[arg(long)]
    pub beta_link: Option<f64>,
    /// Hub when text characters per anchor character < this.
    #[arg(long)]
    pub hub_ratio: Option<f64>,
    /// Picture page when text characters per image < this.
    #[arg(long)]
    pub pic_ratio: Option<f64>,
    /// Abstract: sentences or static.
    #[arg(long)]
    pub abstract_mode: Option<String>,
    /// Abstract budget in GB18030 bytes.
    #[arg(long)]
    pub abstract_bytes: Option<usize>,
    /// Abstract sentences per paragraph.
    #[arg(long)]
    pub sentences_per_paragraph: Option<usize>,
    /// Segmenter for keywords: jieba, jieba-nohmm, search, fmm, rmm, fmm-bt.
    #[arg(long)]
    pub segmenter: Option<String>,
}

impl ParamArgs {
    /// Raw arguments → one validated [`Params`].
    pub fn to_params(&self) -> Result<Params, EngineError> {
        let mut p = Params::default();
        if let Some(v) = self.lambda {
            p.lambda = v;
        }
        if let Some(v) = &self.propagation {
            p.propagation = match v.as_str() {
                "geometric" => Propagation::Geometric,
                "constant" => Propagation::Constant,
                "two-level" => Propagation::TwoLevel,
                _ => {
                    return Err(EngineError::invalid(
                        "propagation",
                        format!("`{v}`: use geometric, constant or two-level"),
                    ));
                }
            };
        }
        if let Some(v) = self.weight_cap {
            p.weight_cap = v;
        }
        if let Some(v) = self.beta_kw {
            p.beta_kw = v;
        }
        if let Some(v) = self.max_keywords {
            p.max_keywords = v;
        }
        if let Some(v) = self.beta_link {
            p.beta_link = v;
        }
        if let Some(v) = self.hub_ratio {
            p.hub_ratio = v;
        }
        if let Some(v) = self.pic_ratio {
            p.pic_ratio = v;
        }
        if let Some(v) = &self.abstract_mode {
            p.abstract_mode = match v.as_str() {
                "sentences" => AbstractMode::Sentences,
                "static" => AbstractMode::Static,
                _ => {
                    return Err(EngineError::invalid(
                        "abstract-mode",
                        format!("`{v}`: use sentences or static"),
                    ));
                }
            };
        }
        if let Some(v) = self.abstract_bytes {
            p.abstract_bytes = v;
        }
        if let Some(v) = self.sentences_per_paragraph {
            p.sentences_per_paragraph = v;
        }
        if let Some(v) = &self.segmenter {
            p.segmenter = parse_method(v)?;
        }
        p.validated()
    }
}

fn parse_method(v: &str) -> Result<Method, EngineError> {
    Method::parse(v).ok_or_else(|| {
        EngineError::invalid(
            "method",
            format!("`{v}`: use jieba, jieba-nohmm, search, fmm, rmm or fmm-bt"),
        )
    })
}

/// `tianwang clean`.
#[derive(Debug, Args)]
pub struct CleanArgs {
    /// The HTML file to clean (raw bytes, any encoding).
    pub file: Option<PathBuf>,
    /// The page's URL (resolves links; its TLD hints the encoding guess).
    #[arg(long)]
    pub url: Option<String>,
    /// Decode with this charset, whatever the page says.
    #[arg(long)]
    pub charset: Option<String>,
    /// The HTTP Content-Type header the page came with.
    #[arg(long)]
    pub content_type: Option<String>,
    /// Score every NAME.html of this folder against --truth NAME.txt.
    #[arg(long, requires = "truth")]
    pub dir: Option<PathBuf>,
    /// Folder of NAME.txt ground-truth bodies (with --dir).
    #[arg(long)]
    pub truth: Option<PathBuf>,
    /// Score the article-extraction benchmark: the installed `aeb` set, or DIR laid out as it
    /// (html/NAME.html.gz and ground-truth.json).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub aeb: Option<Option<PathBuf>>,
    /// With --aeb: every page, the tune half (names starting 0–7) or the check half (8–f).
    #[arg(long, value_enum, default_value = "all", requires = "aeb")]
    pub half: HalfArg,
    /// Score the bundled sample web against its ground truth.
    #[arg(long)]
    pub sample: bool,
    /// Clean every page stored in the workspace (sample-web pages are scored).
    #[arg(long)]
    pub stored: bool,
    /// Human output of a scored run: list this many worst pages.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
    /// Also write a scored run's per-page table to FILE as CSV (UTF-8 with BOM).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    #[command(flatten)]
    pub params: ParamArgs,
    #[arg(long)]
    pub json: bool,
}

/// `clean --half`: which pages of the article-extraction benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HalfArg {
    All,
    Tune,
    Check,
}

impl HalfArg {
    fn half(self) -> Half {
        match self {
            HalfArg::All => Half::All,
            HalfArg::Tune => Half::Tune,
            HalfArg::Check => Half::Check,
        }
    }
}

/// `tianwang segment`.
#[derive(Debug, Args)]
pub struct SegmentArgs {
    /// The text to cut (words joined by spaces); `-` reads standard input.
    pub text: Vec<String>,
    /// jieba, jieba-nohmm, search, fmm, rmm or fmm-bt.
    #[arg(long, default_value = "jieba")]
    pub method: String,
    /// Cut with every method, side by side.
    #[arg(long)]
    pub all: bool,
    /// Longest dictionary word tried by fmm/rmm, in characters (the book: 4 = 8 GB2312 bytes).
    #[arg(long, default_value_t = 4)]
    pub max_len: usize,
    /// Show every candidate window FMM tries (teaching).
    #[arg(long)]
    pub trace: bool,
    #[arg(long)]
    pub json: bool,
}

pub fn clean(cli: &super::Cli, a: &CleanArgs) -> anyhow::Result<()> {
    let params = a.params.to_params()?;
    let aeb = match &a.aeb {
        None => None,
        Some(Some(dir)) => Some(dir.clone()),
        Some(None) => {
            Some(crate::engine::data::DataDir::resolve(cli.data.as_deref())?.require("aeb")?)
        }
    };
    let source = match (&a.file, &a.dir, a.sample, a.stored, aeb) {
        (Some(file), None, false, false, None) => {
            let bytes = std::fs::read(file).map_err(|e| EngineError::path_os(file.clone(), e))?;
            let dv = docview::extract(
                &bytes,
                a.url.as_deref(),
                a.content_type.as_deref(),
                a.charset.as_deref(),
                &params,
            )?;
            if a.json {
                print_json(&serde_json::to_value(&dv)?)?;
            } else {
                println!(
                    "encoding  {} (decided by {:?}) {}",
                    dv.encoding.name,
                    dv.encoding.decided_by,
                    crate::engine::text::encoding::notes_english(&dv.encoding.notes)
                );
                println!(
                    "type      {} — {}",
                    dv.page_type.name(),
                    dv.type_ratios.reason
                );
                println!("title     {}", dv.title);
                let kws: Vec<String> = dv
                    .keywords
                    .iter()
                    .map(|k| format!("{} {:.3}", k.word, k.weight))
                    .collect();
                println!("keywords  {}", kws.join(", "));
                println!("abstract  {}", dv.abstract_text);
                println!(
                    "links     {} ({} related)",
                    dv.links.len(),
                    dv.links.iter().filter(|l| l.related).count()
                );
                println!("--- body ---\n{}", dv.body);
            }
            return Ok(());
        }
        (None, Some(dir), false, false, None) => EvalSource::Dir {
            html: dir.clone(),
            truth: a.truth.clone().unwrap_or_default(),
        },
        (None, None, false, false, Some(dir)) => EvalSource::Aeb {
            dir,
            half: a.half.half(),
        },
        (None, None, true, false, None) => EvalSource::Sample,
        (None, None, false, true, None) => EvalSource::Workspace,
        _ => {
            return Err(EngineError::invalid(
                "clean",
                "give exactly one of: FILE, --dir DIR --truth DIR, --aeb [DIR], --sample, --stored",
            )
            .into());
        }
    };
    let ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    let (v, id) = run_job_with_id(&ws, Box::new(CleanEval::new(source, params)?))?;
    let r = CleanEval::decode(&v)?.attach_pages(&ws, id)?;
    if let Some(f) = &a.csv {
        crate::engine::export::save_table(&r.to_table(), f)?;
    }
    if a.json {
        return print_json(&serde_json::to_value(&r)?);
    }
    print_report(&r, a.worst);
    Ok(())
}

fn print_report(r: &EvalReport, worst: usize) {
    println!(
        "{}: {} pages, body P {:.3} R {:.3} F1 {:.3} over {} pages with a truth body; {:.0} pages/s; {} errors",
        r.source,
        r.pages.len(),
        r.body.p,
        r.body.r,
        r.body.f1,
        r.body_pages,
        r.pages_per_s,
        r.errors
    );
    if let Some(t) = r.type_accuracy {
        println!("page type accuracy {:.1} %", t * 100.0);
    }
    if let Some(t) = r.title_exact {
        println!("title exact match  {:.1} %", t * 100.0);
    }
    let mut scored: Vec<_> = r.pages.iter().filter(|p| p.f1.is_some()).collect();
    scored.sort_by(|a, b| a.f1.unwrap_or(0.0).total_cmp(&b.f1.unwrap_or(0.0)));
    for p in scored.iter().take(worst) {
        println!(
            "  F1 {:.3} P {:.3} R {:.3}  {:<7} {}",
            p.f1.unwrap_or(0.0),
            p.p.unwrap_or(0.0),
            p.r.unwrap_or(0.0),
            p.page_type,
            p.name
        );
    }
}

pub fn segment(a: &SegmentArgs) -> anyhow::Result<()> {
    let mut text = a.text.join(" ");
    if text == "-" {
        text = std::io::read_to_string(std::io::stdin()).context("reading standard input")?;
    }
    if text.trim().is_empty() {
        return Err(EngineError::invalid("text", "nothing to segment").into());
    }
    if a.max_len == 0 || a.max_len > 16 {
        return Err(EngineError::invalid("max-len", "must be between 1 and 16").into());
    }
    let seg = Segmenter::shared().clone().with_max_len(a.max_len);
    let methods: Vec<Method> = if a.all {
        Method::ALL.to_vec()
    } else {
        vec![parse_method(&a.method)?]
    };
    // Speed per method from the engine's comparison (best of three rounds, as the panel).
    let speed = a.all.then(|| {
        crate::engine::text::segment::compare::compare_methods(&seg, &text)
            .runs
            .into_iter()
            .map(|r| (r.method, r.chars_per_ms))
            .collect::<Vec<_>>()
    });
    let mut out = Vec::new();
    for m in &methods {
        let t0 = std::time::Instant::now();
        let tokens = seg.cut(&text, *m);
        let micros = t0.elapsed().as_secs_f64() * 1e6;
        let cpm = speed
            .as_ref()
            .and_then(|v| v.iter().find(|(x, _)| x == m).map(|(_, c)| *c));
        out.push((*m, tokens, micros, cpm));
    }
    let trace = a.trace.then(|| seg.fmm_trace(&text));
    if a.json {
        let v = json!({
            "max_len": a.max_len,
            "dict_words": seg.dict_len(),
            "results": out.iter().map(|(m, t, us, cpm)| json!({
                "method": m.name(),
                "tokens": t,
                "words": t.iter().map(|x| x.word.as_str()).collect::<Vec<_>>(),
                "micros": us,
                "chars_per_ms": cpm,
            })).collect::<Vec<_>>(),
            "trace": trace,
        });
        return print_json(&v);
    }
    for (m, tokens, _, cpm) in &out {
        let words: Vec<&str> = tokens
            .iter()
            .filter(|t| !t.word.trim().is_empty())
            .map(|t| t.word.as_str())
            .collect();
        if a.all {
            let speed = cpm.map_or(String::new(), |c| format!("{c:>9.0} chars/ms  "));
            println!("{:<12} {speed}{}", m.name(), words.join("/ "));
        } else {
            println!("{}", words.join("/ "));
        }
    }
    if let Some(steps) = trace {
        for s in steps {
            println!(
                "  @{:<3} {:<8} {}",
                s.pos,
                s.candidate,
                if s.accepted {
                    "✓ emit"
                } else if s.in_dict {
                    "in dictionary"
                } else {
                    "✗ shrink"
                }
            );
        }
    }
    Ok(())
}

/// `tianwang bench segment`.
#[derive(Debug, Args)]
pub struct BenchSegmentArgs {
    /// Folder of UTF-8 .txt files to cut (default: the installed ccwe set's cleaned texts).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Best of this many timed passes.
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
    #[arg(long)]
    pub json: bool,
}

/// `data`: the global `--data`.
pub fn bench_segment(a: &BenchSegmentArgs, data: Option<&std::path::Path>) -> anyhow::Result<()> {
    let dir = match &a.dir {
        Some(d) => d.clone(),
        None => crate::engine::data::DataDir::resolve(data)?
            .require("ccwe")?
            .join("cleaned"),
    };
    let corpus = match &a.dir {
        Some(d) => d.display().to_string(),
        None => "ccwe/cleaned".to_string(),
    };
    let mut text = String::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for f in &files {
        text.push_str(
            &std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?,
        );
        text.push('\n');
    }
    if text.trim().is_empty() {
        return Err(EngineError::invalid("dir", "no .txt text to segment").into());
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let lines = &lines;
    let mb = text.len() as f64 / 1e6;
    let seg = Segmenter::shared();
    let raw = jieba_rs::Jieba::new();
    // Every contender runs once per round, round after round, and keeps its best time: a
    // machine whose load drifts treats them alike.
    type Run<'a> = (String, Box<dyn FnMut() -> usize + 'a>);
    let mut runs: Vec<Run> = vec![(
        "raw jieba-rs cut(hmm=false)".into(),
        Box::new(|| lines.iter().map(|l| raw.cut(l, false).len()).sum()),
    )];
    runs.push((
        "tianwang nohmm cut (jieba-nohmm, no Token)".into(),
        Box::new(|| {
            let (cutter, mut n) = (crate::engine::text::segment::nohmm::NoHmm::shared(), 0);
            for l in lines {
                cutter.cut(l, &mut |_, _| n += 1);
            }
            n
        }),
    ));
    for m in Method::ALL {
        runs.push((
            format!("tianwang cut {}", m.name()),
            Box::new(move || lines.iter().map(|l| seg.cut(l, m).len()).sum()),
        ));
    }
    runs.push((
        "tianwang terms(jieba-nohmm)".into(),
        Box::new(|| {
            lines
                .iter()
                .map(|l| seg.terms(l, Method::JiebaNoHmm).len())
                .sum()
        }),
    ));
    // The path the cleaner and indexer use: terms without an allocation each.
    runs.push((
        "tianwang for_each_term(jieba-nohmm)".into(),
        Box::new(|| {
            let mut n = 0;
            for l in lines {
                seg.for_each_term(l, Method::JiebaNoHmm, |_| n += 1);
            }
            n
        }),
    ));
    let mut best = vec![(f64::MAX, 0usize); runs.len()];
    for _ in 0..a.repeat.max(1) {
        for (i, (_, f)) in runs.iter_mut().enumerate() {
            let t0 = std::time::Instant::now();
            let n = f();
            best[i] = (best[i].0.min(t0.elapsed().as_secs_f64()), n);
        }
    }
    let rows: Vec<(String, f64, usize)> = runs
        .iter()
        .zip(&best)
        .map(|((name, _), (t, n))| (name.clone(), *t, *n))
        .collect();
    let base = rows[0].1;
    let v = json!({
        "bytes": text.len(),
        "lines": lines.len(),
        "results": rows.iter().map(|(name, t, n)| json!({
            "what": name, "seconds": t, "mb_per_s": mb / t, "tokens": n, "relative_to_raw": base / t,
        })).collect::<Vec<_>>(),
        // The benches' common shape: a row per segmenter on the text, and each one's speed
        // against raw jieba-rs (the first row) in the same run.
        "rows": rows.iter().map(|(name, t, n)| json!({
            "tool": name, "corpus": corpus, "mb_per_s": mb / t, "tokens": n,
        })).collect::<Vec<_>>(),
        "ratio": rows.iter().skip(1).map(|(name, t, _)| json!({
            "tool": name, "vs": rows[0].0, "speed": base / t,
        })).collect::<Vec<_>>(),
    });
    if a.json {
        return print_json(&v);
    }
    println!("{:.2} MB, {} lines, best of {}", mb, lines.len(), a.repeat);
    for (name, t, n) in &rows {
        println!(
            "{:<32} {:>8.2} MB/s {:>9} tokens {:>6.0} % of raw jieba-rs",
            name,
            mb / t,
            n,
            base / t * 100.0
        );
    }
    Ok(())
}
