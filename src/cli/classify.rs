//! `tianwang classify …` and `tianwang bench classify`: the classifier lab on the command line.
//!
//! - `classify --train FILE --test FILE [pipeline flags] [--save NAME] --json` → one
//!   [`RunResult`] document;
//! - `classify sweep --train … --test … --vary keep=…|k=…|train-size=… --json` → one result per
//!   value;
//! - `classify predict --model-id ID FILE… [--lines]` → classes and explanations;
//! - `classify models` → the stored models;
//! - `bench classify [--peers]` → ours vs scikit-learn on the THUCNews titles, plus a 100k-doc
//!   NB/Rocchio run with seconds and peak memory.
//!
//! Inputs: a `text<TAB>label` file (class ids through a `class.txt` beside it), a folder per
//! class, or SogouCS `<doc>` XML; bad records are skipped and counted (`--strict` refuses).
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use crate::engine::classify::corpus::{self, decode_text};
use crate::engine::classify::experiment::{RunResult, Vary, prepare, run_prepared};
use crate::engine::classify::features::Weighting;
use crate::engine::classify::hier::HierarchyConfig;
use crate::engine::classify::job;
use crate::engine::classify::knn::{KnnConfig, Similarity};
use crate::engine::classify::linear::LinearConfig;
use crate::engine::classify::nb::{NbConfig, NbKind};
use crate::engine::classify::persist;
use crate::engine::classify::pipeline::{ModelConfig, PipelineConfig, SelectionConfig};
use crate::engine::classify::rocchio::RocchioConfig;
use crate::engine::classify::select::{Combine, Keep, Method};
use crate::engine::classify::threshold::Threshold;
use crate::engine::classify::tokenize::{JiebaTokenizer, TokenConfig, Tokenizer};
use crate::engine::classify::tree::{Criterion, TreeConfig};
use crate::engine::error::EngineError;
use crate::engine::jobs::TypedJob;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
pub enum ModelKind {
    Knn,
    Nb,
    NbBernoulli,
    Rocchio,
    Tree,
    Svm,
}

/// The pipeline's knobs (shared by training and sweeps).
#[derive(Debug, Clone, Args)]
pub struct PipelineArgs {
    /// Classifier (the book's baseline is kNN [L4057]).
    #[arg(long, value_enum, default_value = "knn")]
    pub model: ModelKind,
    /// Feature selection criterion (default none: every term is a feature, the book's baseline).
    #[arg(long, value_enum)]
    pub features: Option<Method>,
    /// Per-class combination of MI/CHI scores (the book: mean).
    #[arg(long, value_enum, default_value = "mean")]
    pub combine: Combine,
    /// Features to keep: N, X% or all (with --features; default 20%). Alone it implies --features chi.
    #[arg(long, value_name = "N|X%")]
    pub keep: Option<String>,
    /// Term weighting (default: tf for NB, tfidf for the others).
    #[arg(long, value_enum)]
    pub weighting: Option<Weighting>,
    /// No L2 normalisation of the vectors (default: normalised except for NB).
    #[arg(long)]
    pub no_norm: bool,
    /// kNN: neighbours (the book's best, Table 11-6).
    #[arg(long, default_value_t = 15)]
    pub k: usize,
    /// kNN similarity (the book's "兰式" is cosine).
    #[arg(long, value_enum, default_value = "cosine")]
    pub similarity: Similarity,
    /// kNN: prune by parent classes first: `parent=child,child;…` or `thucnews` (book Table 11-4).
    #[arg(long, value_name = "SPEC")]
    pub hierarchy: Option<String>,
    /// Hierarchical kNN: parents with a cosine below this are skipped.
    #[arg(long, default_value_t = 0.1)]
    pub prune: f64,
    /// kNN: count neighbours instead of summing their similarities.
    #[arg(long)]
    pub uniform_votes: bool,
    /// NB smoothing α; 0 or `book` = the book's unsmoothed document-ratio mode.
    #[arg(long, default_value = "1")]
    pub alpha: String,
    /// Rocchio β (weight of the class's own centroid).
    #[arg(long, default_value_t = 1.0)]
    pub beta: f64,
    /// Rocchio γ (weight subtracted for the other classes' centroid; 0 = nearest centroid).
    #[arg(long, default_value_t = 1.0)]
    pub gamma: f64,
    /// Tree split criterion.
    #[arg(long, value_enum, default_value = "gini")]
    pub criterion: Criterion,
    /// Tree depth limit (0 = until pure, the book).
    #[arg(long, default_value_t = 0)]
    pub max_depth: usize,
    /// Tree: minimum documents per leaf.
    #[arg(long, default_value_t = 1)]
    pub min_leaf: usize,
    /// Linear SVM penalty C.
    #[arg(long, default_value_t = 1.0)]
    pub c: f64,
    /// Thresholding: none (top-1), rcut, pcut, scut.
    #[arg(long, default_value = "none")]
    pub threshold: String,
    /// RCut: classes per document.
    #[arg(long, default_value_t = 1)]
    pub rank: usize,
    /// PCut scaling factor x.
    #[arg(long, default_value_t = 1.0)]
    pub pcut_x: f64,
    /// SCut: share of the training set held out for the thresholds.
    #[arg(long, default_value_t = 0.2)]
    pub validation: f64,
    /// Seed for every random choice (SVM order, SCut split, subsamples).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Add character bigrams to the jieba words (default for --model svm).
    #[arg(long, conflicts_with = "no_bigrams")]
    pub bigrams: bool,
    /// Jieba words only, also for --model svm.
    #[arg(long)]
    pub no_bigrams: bool,
    /// Drop stop words and punctuation.
    #[arg(long)]
    pub stop_words: bool,
    /// jieba without HMM (default: HMM on, as Python jieba).
    #[arg(long)]
    pub no_hmm: bool,
}

impl PipelineArgs {
    /// Validates the flags into a [`PipelineConfig`].
    pub fn config(&self) -> Result<PipelineConfig, EngineError> {
        // every flag is checked, also those the chosen model does not use
        NbConfig::new(NbKind::Multinomial, &self.alpha)?;
        RocchioConfig::new(self.beta, self.gamma)?;
        TreeConfig::new(self.criterion, self.max_depth, self.min_leaf)?;
        LinearConfig::new(self.c, self.seed)?;
        KnnConfig::new(self.k, self.similarity, !self.uniform_votes)?;
        let model = match self.model {
            ModelKind::Knn => {
                let knn = KnnConfig::new(self.k, self.similarity, !self.uniform_votes)?;
                match &self.hierarchy {
                    None => ModelConfig::Knn(knn),
                    Some(spec) => ModelConfig::HierKnn {
                        knn,
                        hierarchy: HierarchyConfig::parse(spec, self.prune)?,
                    },
                }
            }
            ModelKind::Nb => ModelConfig::Nb(NbConfig::new(NbKind::Multinomial, &self.alpha)?),
            ModelKind::NbBernoulli => {
                ModelConfig::Nb(NbConfig::new(NbKind::Bernoulli, &self.alpha)?)
            }
            ModelKind::Rocchio => ModelConfig::Rocchio(RocchioConfig::new(self.beta, self.gamma)?),
            ModelKind::Tree => ModelConfig::Tree(TreeConfig::new(
                self.criterion,
                self.max_depth,
                self.min_leaf,
            )?),
            ModelKind::Svm => ModelConfig::Svm(LinearConfig::new(self.c, self.seed)?),
        };
        let mut cfg = PipelineConfig::for_model(model);
        if let Some(w) = self.weighting {
            cfg.weighting = w;
        }
        if self.no_norm {
            cfg.l2 = false;
        }
        let keep = self.keep.as_deref().map(Keep::parse).transpose()?;
        cfg.selection = match (self.features, keep) {
            (None, None) => None,
            (m, k) => Some(SelectionConfig {
                method: m.unwrap_or(Method::Chi),
                combine: self.combine,
                keep: k.unwrap_or(Keep::Percent(20.0)),
            }),
        };
        cfg.threshold = Threshold::new(&self.threshold, self.rank, self.pcut_x, self.validation)?;
        cfg.seed = self.seed;
        cfg.tokens = TokenConfig {
            hmm: !self.no_hmm,
            char_bigrams: (cfg.tokens.char_bigrams || self.bigrams) && !self.no_bigrams,
            stop_words: self.stop_words,
            ..TokenConfig::default()
        };
        Ok(cfg)
    }
}

/// Train and test files.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Training corpus: text<TAB>label file, folder per class, or SogouCS XML.
    #[arg(long, value_name = "FILE")]
    pub train: Option<PathBuf>,
    /// Test corpus (same formats).
    #[arg(long, value_name = "FILE")]
    pub test: Option<PathBuf>,
    /// Refuse the whole input at the first bad record (default: skip and count it).
    #[arg(long)]
    pub strict: bool,
    /// Instead of files: the sample web's categorised articles, a seeded stratified split.
    #[arg(long, conflicts_with_all = ["train", "test"])]
    pub sample_web: bool,
    /// With --sample-web: the share of each class held out for testing.
    #[arg(long, default_value_t = 0.25, value_name = "X")]
    pub test_share: f64,
}

impl DataArgs {
    /// The corpus these flags name (`seed` splits the sample web).
    fn corpus(&self, seed: u64) -> Result<job::CorpusChoice, EngineError> {
        if self.sample_web {
            return Ok(job::CorpusChoice::SampleWeb {
                test_share: self.test_share,
                seed,
            });
        }
        Ok(job::CorpusChoice::Files {
            train: self
                .train
                .clone()
                .ok_or_else(|| EngineError::invalid("--train", "is required"))?,
            test: self
                .test
                .clone()
                .ok_or_else(|| EngineError::invalid("--test", "is required"))?,
        })
    }
}

#[derive(Debug, Clone, Args)]
pub struct TrainArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Store the trained model in the workspace under this name.
    #[arg(long, value_name = "NAME")]
    pub save: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ClassifyArgs {
    #[command(subcommand)]
    pub command: Option<ClassifyCommand>,
    #[command(flatten)]
    pub train: TrainArgs,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ClassifyCommand {
    /// Repeat a run while one knob moves: keep=100,500,10% | k=1..50 | train-size=5%,10% or =15,17 (per class).
    Sweep(Box<SweepArgs>),
    /// Classify files with a model stored in the workspace.
    Predict(PredictArgs),
    /// List the models stored in the workspace.
    Models {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    #[arg(long, value_name = "KNOB=VALUES")]
    pub vary: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PredictArgs {
    #[arg(long, value_name = "ID")]
    pub model_id: i64,
    /// Text files (UTF-8 or GB18030), one document each (or one per line with --lines).
    #[arg(required_unless_present = "url", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Pages stored in the workspace, classified on their DocView title and body.
    #[arg(long, value_name = "URL")]
    pub url: Vec<String>,
    /// Each non-empty line is a document (a trailing <TAB>label is ignored).
    #[arg(long)]
    pub lines: bool,
    /// Top features / neighbours shown per document.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[arg(long)]
    pub json: bool,
}

fn open_workspace(ws: &Option<PathBuf>) -> anyhow::Result<crate::engine::store::Workspace> {
    let path = ws.as_ref().ok_or_else(|| {
        EngineError::invalid(
            "--workspace",
            "a workspace file is needed to store or load models",
        )
    })?;
    Ok(crate::engine::store::Workspace::open_or_create(path)?)
}

fn print_json<T: Serialize>(v: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(v)?);
    Ok(())
}

fn human(r: &RunResult) {
    println!(
        "{}  train {} docs, test {} docs, features {} of {}",
        r.model, r.train_docs, r.test_docs, r.features_kept, r.features_total
    );
    println!(
        "accuracy {:.4}  micro-F1 {:.4}  macro-F1 {:.4} (book 11-3: {:.4})  train {:.2}s  test {:.2}s  tokenise {:.2}s",
        r.accuracy, r.micro_f1, r.macro_f1, r.macro_f1_book, r.train_s, r.test_s, r.tokenize_s
    );
    for c in &r.per_class {
        println!(
            "  {:<16} p {:.3}  r {:.3}  f1 {:.3}  n {}",
            c.label, c.p, c.r, c.f1, c.support
        );
    }
    if r.skipped_train + r.skipped_test > 0 {
        println!(
            "skipped records: {} train, {} test",
            r.skipped_train, r.skipped_test
        );
    }
}

/// `tianwang classify …`
pub fn run(args: &ClassifyArgs, workspace: Option<PathBuf>) -> anyhow::Result<()> {
    match &args.command {
        None => train(&args.train, &workspace),
        Some(ClassifyCommand::Sweep(s)) => {
            let cfg = s.pipeline.config()?;
            let vary = Vary::parse(&s.vary)?;
            let corpus = s.data.corpus(cfg.seed)?;
            let j = <job::SweepJob as TypedJob>::from_params(job::SweepParams {
                corpus,
                strict: s.data.strict,
                config: cfg,
                vary,
            })?;
            let ws = open_workspace(&workspace)?;
            let (v, _) = crate::cli::run_job_with_id(&ws, Box::new(j))?;
            let points = <job::SweepJob as TypedJob>::decode(&v)?.points;
            if s.json {
                print_json(&serde_json::json!({ "vary": s.vary, "results": points }))
            } else {
                for pt in &points {
                    println!(
                        "{}={:<8} accuracy {:.4}  macro-F1 {:.4}  features {}  train {:.2}s test {:.2}s",
                        pt.knob,
                        pt.value,
                        pt.result.accuracy,
                        pt.result.macro_f1,
                        pt.result.features_kept,
                        pt.result.train_s,
                        pt.result.test_s
                    );
                }
                Ok(())
            }
        }
        Some(ClassifyCommand::Predict(p)) => predict(p, &workspace),
        Some(ClassifyCommand::Models { json }) => {
            let ws = open_workspace(&workspace)?;
            let rows = persist::list(ws.conn())?;
            if *json {
                print_json(&serde_json::json!({ "models": rows }))
            } else {
                for r in rows {
                    println!(
                        "{:>4}  {:<20} {:<12} {} docs  {}",
                        r.id, r.name, r.kind, r.train_docs, r.created
                    );
                }
                Ok(())
            }
        }
    }
}

fn train(a: &TrainArgs, workspace: &Option<PathBuf>) -> anyhow::Result<()> {
    let cfg = a.pipeline.config()?;
    if a.save.is_some() && workspace.is_none() {
        return Err(EngineError::invalid("--save", "needs --workspace FILE").into());
    }
    let corpus = a.data.corpus(cfg.seed)?;
    let job = <job::TrainJob as TypedJob>::from_params(job::TrainParams {
        corpus,
        strict: a.data.strict,
        config: cfg,
        save_as: a.save.clone(),
        explain_top: 10,
    })?;
    let ws = open_workspace(workspace)?;
    let (v, _) = crate::cli::run_job_with_id(&ws, Box::new(job))?;
    let out = <job::TrainJob as TypedJob>::decode(&v)?;
    for s in out.result.skipped.iter().take(10) {
        eprintln!("skipped {}: {}", s.location, s.reason);
    }
    let saved = out.model_id;
    let r = out.result;
    if a.json {
        let mut v = serde_json::to_value(&r)?;
        if let (Some(id), Some(o)) = (saved, v.as_object_mut()) {
            o.insert("model_id".into(), id.into());
        }
        print_json(&v)
    } else {
        human(&r);
        if let Some(id) = saved {
            println!("saved as model {id}");
        }
        Ok(())
    }
}

#[derive(Debug, Serialize)]
struct Prediction {
    source: String,
    predicted: Vec<String>,
    explanation: crate::engine::classify::explain::Explanation,
}

/// The most text of one document `classify predict` tokenises.
const MAX_PREDICT_BYTES: usize = 1 << 20;

fn predict(p: &PredictArgs, workspace: &Option<PathBuf>) -> anyhow::Result<()> {
    let ws = open_workspace(workspace)?;
    if !p.url.is_empty() {
        let out = p
            .url
            .iter()
            .map(|u| crate::engine::classify::pages::predict_page(&ws, p.model_id, u, p.top))
            .collect::<Result<Vec<_>, _>>()?;
        if p.json {
            return print_json(&serde_json::json!({ "model_id": p.model_id, "pages": out }));
        }
        for pr in &out {
            println!(
                "{}\t{}\t{}",
                pr.url,
                pr.explanation.predicted.join(","),
                pr.title
            );
        }
        return Ok(());
    }
    let model = persist::load(ws.conn(), p.model_id)?;
    let tok = JiebaTokenizer::new(model.config.tokens.clone());
    let mut out = Vec::new();
    for f in &p.files {
        let bytes = std::fs::read(f).map_err(|e| EngineError::path_os(f.clone(), e))?;
        let text = decode_text(&bytes);
        let docs: Vec<(String, String)> = if p.lines {
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| {
                    (
                        format!("{}:{}", f.display(), i + 1),
                        l.split('\t').next().unwrap_or("").to_string(),
                    )
                })
                .collect()
        } else {
            vec![(f.display().to_string(), text)]
        };
        for (source, text) in docs {
            // A document is classified on its first MAX_PREDICT_BYTES: one 50 MB line once
            // took 2.1 GB in tokens; the cut is said, not silent.
            let text = match text.len() > MAX_PREDICT_BYTES {
                true => {
                    let mut cut = MAX_PREDICT_BYTES;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    eprintln!(
                        "warning: {source}: {} bytes; classified on its first {cut}",
                        text.len()
                    );
                    &text[..cut]
                }
                false => &text[..],
            };
            let e = model.explain(&tok.tokens(text), p.top);
            out.push(Prediction {
                source,
                predicted: e.predicted.clone(),
                explanation: e,
            });
        }
    }
    if p.json {
        print_json(
            &serde_json::json!({ "model_id": p.model_id, "model": model.config.model.name(), "predictions": out }),
        )
    } else {
        for pr in &out {
            let why: Vec<String> = pr
                .explanation
                .top_features
                .iter()
                .take(5)
                .map(|f| format!("{} {:+.3}", f.term, f.weight))
                .collect();
            println!(
                "{}\t{}\t{}",
                pr.source,
                pr.predicted.join(","),
                why.join("  ")
            );
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- bench

#[derive(Debug, Clone, Args)]
pub struct BenchClassifyArgs {
    /// Also run scikit-learn (bench/peers/classify_peers.py in the peers venv).
    #[arg(long)]
    pub peers: bool,
    /// Folder with dev.txt / test.txt / class.txt (default: the installed thucnews_titles set).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Best of this many timed runs per model.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Documents in the synthetic training set for NB and Rocchio (0 = skip).
    #[arg(long, default_value_t = 100_000)]
    pub big: usize,
    #[command(flatten)]
    pub peer: super::peers::PeerArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct BenchRow {
    pub tool: String,
    pub corpus: String,
    pub model: String,
    pub train_s: f64,
    pub test_s: f64,
    pub total_s: f64,
    pub accuracy: f64,
    pub macro_f1: f64,
    pub features: usize,
}

/// The benchmark's pipelines, matching the reference's settings.
pub fn bench_configs() -> Vec<(String, PipelineConfig)> {
    let chi5000 = Some(SelectionConfig {
        method: Method::Chi,
        combine: Combine::Mean,
        keep: Keep::Top(5000),
    });
    let mut svm_words = PipelineConfig::for_model(ModelConfig::Svm(LinearConfig::default()));
    svm_words.tokens.char_bigrams = false;
    let mut v = vec![
        (
            "nb".to_string(),
            PipelineConfig::for_model(ModelConfig::Nb(NbConfig {
                kind: NbKind::Multinomial,
                alpha: Some(1.0),
            })),
        ),
        (
            "knn".to_string(),
            PipelineConfig::for_model(ModelConfig::Knn(KnnConfig {
                k: 10,
                ..KnnConfig::default()
            })),
        ),
        (
            "rocchio".to_string(),
            // the reference's NearestCentroid: γ = 0
            PipelineConfig::for_model(ModelConfig::Rocchio(RocchioConfig {
                beta: 1.0,
                gamma: 0.0,
            })),
        ),
        (
            "tree".to_string(),
            PipelineConfig::for_model(ModelConfig::Tree(TreeConfig::default())),
        ),
        ("svm".to_string(), svm_words),
        (
            "svm+bigrams".to_string(),
            PipelineConfig::for_model(ModelConfig::Svm(LinearConfig::default())),
        ),
    ];
    v[3].1.selection = chi5000;
    v
}

fn peak_rss_reset() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn status_mb(field: &str) -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn peers_rows(
    a: &BenchClassifyArgs,
    dir: &Path,
) -> anyhow::Result<(Vec<BenchRow>, serde_json::Value)> {
    let v = super::peers::run(
        &a.peer,
        "classify_peers.py",
        &[dir.into(), a.repeat.max(1).to_string().into()],
    )?
    .json;
    let rows: Vec<BenchRow> = serde_json::from_value(v["rows"].clone()).context("peer rows")?;
    Ok((rows, v["meta"].clone()))
}

/// `tianwang bench classify`
/// `data`: the global `--data`.
pub fn bench(a: &BenchClassifyArgs, data: Option<&Path>) -> anyhow::Result<()> {
    let dir = match &a.dir {
        Some(d) => d.clone(),
        None => crate::engine::data::DataDir::resolve(data)?.require("thucnews_titles")?,
    };
    let train = corpus::read_tsv(&dir.join("dev.txt"), true)?;
    let test = corpus::read_tsv(&dir.join("test.txt"), true)?;
    let p = prepare(&train, &test, &JiebaTokenizer::new(TokenConfig::default()))?;
    let p_bigrams = prepare(
        &train,
        &test,
        &JiebaTokenizer::new(TokenConfig {
            char_bigrams: true,
            ..TokenConfig::default()
        }),
    )?;
    let mut rows = Vec::new();
    for (name, cfg) in bench_configs() {
        let data = if cfg.tokens.char_bigrams {
            &p_bigrams
        } else {
            &p
        };
        let mut best: Option<RunResult> = None;
        for _ in 0..a.repeat.max(1) {
            let (r, _) = run_prepared(data, &cfg, &())?;
            if best
                .as_ref()
                .is_none_or(|b| r.train_s + r.test_s < b.train_s + b.test_s)
            {
                best = Some(r);
            }
        }
        if let Some(r) = best {
            rows.push(BenchRow {
                tool: "tianwang".into(),
                corpus: "thucnews_titles".into(),
                model: name,
                train_s: r.train_s,
                test_s: r.test_s,
                total_s: r.train_s + r.test_s,
                accuracy: r.accuracy,
                macro_f1: r.macro_f1,
                features: r.features_kept,
            });
        }
    }
    let mut peer_meta = serde_json::Value::Null;
    let mut ratios = serde_json::Map::new();
    if a.peers {
        let (prow, meta) = peers_rows(a, &dir)?;
        peer_meta = meta;
        for pr in &prow {
            if let Some(o) = rows
                .iter()
                .find(|r| r.model == pr.model && r.tool == "tianwang")
            {
                ratios.insert(
                    pr.model.clone(),
                    serde_json::json!(pr.total_s / o.total_s.max(1e-9)),
                );
            }
        }
        rows.extend(prow);
    }
    // 100k synthetic training documents: the titles repeated with a seeded word dropout.
    let mut big = Vec::new();
    if a.big > 0 {
        let mut rng = crate::engine::classify::linear::Rng::new(7);
        let n0 = p.train_tokens.len();
        let mut q = p.clone();
        q.train_tokens = Vec::with_capacity(a.big);
        q.train_y = Vec::with_capacity(a.big);
        q.train_locations.clear();
        for i in 0..a.big {
            let j = i % n0;
            let t: Vec<String> = p.train_tokens[j]
                .iter()
                .filter(|_| rng.below(10) != 0)
                .cloned()
                .collect();
            q.train_tokens.push(t);
            q.train_y.push(p.train_y[j]);
        }
        for (name, cfg) in bench_configs()
            .into_iter()
            .filter(|(n, _)| n == "nb" || n == "rocchio")
        {
            peak_rss_reset();
            let rss_before = status_mb("VmRSS:");
            let t0 = Instant::now();
            let (r, _) = run_prepared(&q, &cfg, &())?;
            big.push(serde_json::json!({
                "model": name, "train_docs": a.big, "train_s": r.train_s, "test_s": r.test_s,
                "wall_s": t0.elapsed().as_secs_f64(), "accuracy": r.accuracy, "rss_before_mb": rss_before, "peak_rss_mb": status_mb("VmHWM:"),
            }));
        }
    }
    let doc = serde_json::json!({
        "rows": rows,
        "ratio_peer_over_ours": ratios,
        "tokenize_s": p.tokenize_s,
        "peer": peer_meta,
        "big": big,
        "tokenize_bigrams_s": p_bigrams.tokenize_s,
        "timing": "train_s = vocabulary+selection+weighting+fit, test_s = vectorise+predict, both on pre-tokenised text (jieba timed apart); best of --repeat",
    });
    if a.json {
        print_json(&doc)
    } else {
        println!("{}", serde_json::to_string_pretty(&doc)?);
        Ok(())
    }
}
