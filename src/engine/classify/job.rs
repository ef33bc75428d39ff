//! The classifier lab as background jobs (logged in the experiment log, with progress and
//! cancel through [`Tick`]): [`TrainJob`] (`classify-train`) trains and tests one pipeline —
//! on a train/test file pair, one file split at random (seeded), or k-fold cross-validation —
//! optionally storing the model in the workspace; [`SweepJob`] (`classify-sweep`) repeats a run
//! while one knob moves (features kept, k, training-set size: the book's Figures 11-6…11-12
//! [L4121–L4281]).
//!
//! The per-document test predictions with their explanations (the features / neighbours that
//! decided) do not go into the log row: they are saved beside it with
//! [`save_detail`](crate::engine::jobs::save_detail) under [`PREDICTIONS_DETAIL`].
//!
//! ```no_run
//! use tianwang::engine::classify::job::{CorpusChoice, TrainParams};
//! use tianwang::engine::classify::{ModelConfig, PipelineConfig};
//! let dir = tianwang::engine::data::DataDir::resolve(None)?.require("thucnews_titles")?;
//! let p = TrainParams {
//!     corpus: CorpusChoice::Files {
//!         train: dir.join("dev.txt"),
//!         test: dir.join("test.txt"),
//!     },
//!     strict: false,
//!     config: PipelineConfig::for_model(ModelConfig::Knn(Default::default())),
//!     save_as: None,
//!     explain_top: 10,
//! };
//! let _job = <tianwang::engine::classify::job::TrainJob as
//!     tianwang::engine::jobs::TypedJob>::from_params(p)?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::engine::classify::corpus::{self, Corpus, Doc};
use crate::engine::classify::experiment::{
    Prepared, RunResult, SweepPoint, Vary, prepare, run_prepared, sweep,
};
use crate::engine::classify::explain::Explanation;
use crate::engine::classify::metrics::{Metrics, evaluate};
use crate::engine::classify::persist;
use crate::engine::classify::pipeline::{Model, PipelineConfig, stratified_split};
use crate::engine::classify::tokenize::JiebaTokenizer;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, Scaled, Tick, save_detail};

/// Name of the per-document predictions in `job_details`.
pub(crate) const PREDICTIONS_DETAIL: &str = "predictions";

/// Where the documents come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum CorpusChoice {
    /// A training and a test corpus (TSV, folder per class, or SogouCS XML).
    Files { train: PathBuf, test: PathBuf },
    /// One corpus, `test_share` of each class held out for testing (seeded, stratified).
    Split {
        file: PathBuf,
        test_share: f64,
        seed: u64,
    },
    /// One corpus, k-fold cross-validation (seeded, stratified folds); metrics pooled.
    KFold {
        file: PathBuf,
        folds: usize,
        seed: u64,
    },
    /// The sample web's categorised articles ([`super::pages::sample_web_corpus`]),
    /// `test_share` of each class held out (seeded, stratified).
    SampleWeb { test_share: f64, seed: u64 },
}

impl CorpusChoice {
    pub(crate) fn validate(&self) -> Result<()> {
        match self {
            CorpusChoice::Files { train, test } => {
                if train.as_os_str().is_empty() {
                    return Err(EngineError::invalid("--train", "is required"));
                }
                if test.as_os_str().is_empty() {
                    return Err(EngineError::invalid("--test", "is required"));
                }
            }
            CorpusChoice::Split {
                file, test_share, ..
            } => {
                if file.as_os_str().is_empty() {
                    return Err(EngineError::invalid("corpus", "a file is required"));
                }
                if !(test_share.is_finite() && *test_share > 0.0 && *test_share < 1.0) {
                    return Err(EngineError::invalid(
                        "test_share",
                        "must be between 0 and 1 (exclusive)",
                    ));
                }
            }
            CorpusChoice::SampleWeb { test_share, .. } => {
                if !(test_share.is_finite() && *test_share > 0.0 && *test_share < 1.0) {
                    return Err(EngineError::invalid(
                        "--test-share",
                        "must be between 0 and 1 (exclusive)",
                    ));
                }
            }
            CorpusChoice::KFold { file, folds, .. } => {
                if file.as_os_str().is_empty() {
                    return Err(EngineError::invalid("corpus", "a file is required"));
                }
                if !(2..=20).contains(folds) {
                    return Err(EngineError::invalid("folds", "must be 2..=20"));
                }
            }
        }
        Ok(())
    }
}

/// One test document: its truth, what the model said, and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestPrediction {
    /// Index in the test set (pooled over folds for k-fold).
    pub index: usize,
    pub location: String,
    pub text: String,
    pub truth: String,
    pub explanation: Explanation,
}

impl TestPrediction {
    /// The document's first assigned class (empty when thresholding assigned none).
    pub fn predicted(&self) -> &str {
        self.explanation
            .predicted
            .first()
            .map(String::as_str)
            .unwrap_or("")
    }
}

/// `classify-train` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainParams {
    pub corpus: CorpusChoice,
    #[serde(default)]
    pub strict: bool,
    pub config: PipelineConfig,
    /// Store the trained model in the workspace under this name.
    #[serde(default)]
    pub save_as: Option<String>,
    /// Features / neighbours kept per explained test document.
    #[serde(default = "default_top")]
    pub explain_top: usize,
}

fn default_top() -> usize {
    10
}

/// `classify-train` result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainOutput {
    pub result: RunResult,
    /// The stored model (when `save_as` was given).
    pub model_id: Option<i64>,
    /// Per-fold results for k-fold (the pooled one is `result`).
    #[serde(default)]
    pub folds: Vec<RunResult>,
    /// How many test predictions were saved in `job_details` ([`PREDICTIONS_DETAIL`]).
    pub predictions_saved: usize,
}

/// Trains and tests one pipeline.
#[derive(Debug, Clone)]
pub struct TrainJob {
    pub p: TrainParams,
}

/// Reads the chosen corpus: (train, test) pairs — one for files/split, `k` for k-fold.
pub(crate) fn load_corpus(c: &CorpusChoice, strict: bool) -> Result<Vec<(Corpus, Corpus)>> {
    match c {
        CorpusChoice::Files { train, test } => Ok(vec![(
            corpus::read_any(train, strict)?,
            corpus::read_any(test, strict)?,
        )]),
        CorpusChoice::Split {
            file,
            test_share,
            seed,
        } => {
            let all = corpus::read_any(file, strict)?;
            let (y, n) = label_ids(&all);
            let (a, b) = stratified_split(&y, n, *test_share, *seed);
            Ok(vec![(pick(&all, &a), pick(&all, &b))])
        }
        CorpusChoice::SampleWeb { test_share, seed } => {
            let all = super::pages::sample_web_corpus()?;
            let (y, n) = label_ids(&all);
            let (a, b) = stratified_split(&y, n, *test_share, *seed);
            Ok(vec![(pick(&all, &a), pick(&all, &b))])
        }
        CorpusChoice::KFold { file, folds, seed } => {
            let all = corpus::read_any(file, strict)?;
            let (y, n) = label_ids(&all);
            // seeded stratified fold assignment: shuffle each class, deal round-robin
            let mut by_class = vec![Vec::new(); n];
            for (i, &c) in y.iter().enumerate() {
                by_class[c].push(i);
            }
            let mut rng = crate::engine::classify::linear::Rng::new(*seed);
            let mut fold_of = vec![0usize; y.len()];
            let mut next = 0usize;
            for mut v in by_class {
                rng.shuffle(&mut v);
                for i in v {
                    fold_of[i] = next % folds;
                    next += 1;
                }
            }
            Ok((0..*folds)
                .map(|f| {
                    let tr: Vec<usize> = (0..y.len()).filter(|&i| fold_of[i] != f).collect();
                    let te: Vec<usize> = (0..y.len()).filter(|&i| fold_of[i] == f).collect();
                    (pick(&all, &tr), pick(&all, &te))
                })
                .collect())
        }
    }
}

fn label_ids(c: &Corpus) -> (Vec<usize>, usize) {
    let mut labels: Vec<&str> = c.docs.iter().map(|d| d.label.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    let y = c
        .docs
        .iter()
        .map(|d| labels.binary_search(&d.label.as_str()).unwrap_or(0))
        .collect();
    (y, labels.len())
}

fn pick(c: &Corpus, idx: &[usize]) -> Corpus {
    Corpus {
        docs: idx.iter().filter_map(|&i| c.docs.get(i).cloned()).collect(),
        class_names: c.class_names.clone(),
        skipped: c.skipped.clone(),
    }
}

/// Explains every test document of `p` with `model`.
fn explain_all(
    model: &Model,
    p: &Prepared,
    test: &[Doc],
    top: usize,
    offset: usize,
    tick: &dyn Tick,
) -> Result<Vec<TestPrediction>> {
    let mut out = Vec::with_capacity(p.test_tokens.len());
    let n = p.test_tokens.len().max(1) as f32;
    for (i, tokens) in p.test_tokens.iter().enumerate() {
        if i % 64 == 0 {
            tick.tick(i as f32 / n, "explaining test documents")?;
        }
        let d = test.get(i);
        out.push(TestPrediction {
            index: offset + i,
            location: d.map(|d| d.location.clone()).unwrap_or_default(),
            text: d.map(|d| d.text.clone()).unwrap_or_default(),
            truth: p.labels.get(p.test_y[i]).cloned().unwrap_or_default(),
            explanation: model.explain(tokens, top),
        });
    }
    Ok(out)
}

/// Metrics of pooled predictions (k-fold).
fn pooled(labels: &[String], preds: &[TestPrediction]) -> Metrics {
    let id = |l: &str| labels.iter().position(|x| x == l).unwrap_or(0);
    let truth: Vec<usize> = preds.iter().map(|p| id(&p.truth)).collect();
    let assigned: Vec<Vec<usize>> = preds
        .iter()
        .map(|p| p.explanation.predicted.iter().map(|l| id(l)).collect())
        .collect();
    let top1: Vec<usize> = preds
        .iter()
        .map(|p| {
            p.explanation
                .class_scores
                .first()
                .map(|c| id(&c.label))
                .unwrap_or(0)
        })
        .collect();
    evaluate(labels, &truth, &assigned, &top1)
}

impl TrainJob {
    /// Runs without a job context: (output, predictions, trained model of the last fold).
    pub fn execute(
        &self,
        tick: &dyn Tick,
    ) -> Result<(TrainOutput, Vec<TestPrediction>, Option<Model>)> {
        tick.tick(0.0, "reading the corpus")?;
        let pairs = load_corpus(&self.p.corpus, self.p.strict)?;
        let tok = JiebaTokenizer::new(self.p.config.tokens.clone());
        let n = pairs.len().max(1) as f32;
        let mut folds = Vec::new();
        let mut preds = Vec::new();
        let mut last_model = None;
        for (f, (train, test)) in pairs.iter().enumerate() {
            let base = f as f32 / n;
            tick.tick(base, "tokenising")?;
            let p = prepare(train, test, &tok)?;
            let part = Scaled {
                tick,
                start: base,
                width: 0.7 / n,
            };
            let (r, model) = run_prepared(&p, &self.p.config, &part)?;
            let part = Scaled {
                tick,
                start: base + 0.7 / n,
                width: 0.3 / n,
            };
            preds.extend(explain_all(
                &model,
                &p,
                &test.docs,
                self.p.explain_top,
                preds.len(),
                &part,
            )?);
            folds.push(r);
            last_model = Some(model);
        }
        let mut result = folds
            .first()
            .cloned()
            .ok_or_else(|| EngineError::Internal("no fold ran".into()))?;
        if folds.len() > 1 {
            let m = pooled(&result.labels, &preds);
            result.accuracy = m.accuracy;
            result.micro_f1 = m.micro_f1;
            result.macro_f1 = m.macro_f1;
            result.macro_f1_book = m.macro_f1_book;
            result.per_class = m.per_class;
            result.confusion = m.confusion;
            result.train_docs = folds.iter().map(|r| r.train_docs).sum::<usize>() / folds.len();
            result.test_docs = preds.len();
            result.train_s = folds.iter().map(|r| r.train_s).sum();
            result.test_s = folds.iter().map(|r| r.test_s).sum();
            result.tokenize_s = folds.iter().map(|r| r.tokenize_s).sum();
        } else {
            folds.clear();
        }
        tick.tick(1.0, "done")?;
        Ok((
            TrainOutput {
                result,
                model_id: None,
                folds,
                predictions_saved: 0,
            },
            preds,
            last_model,
        ))
    }
}

fn metrics_of(r: &RunResult) -> Metrics {
    Metrics {
        accuracy: r.accuracy,
        micro_p: r.micro_f1,
        micro_r: r.micro_f1,
        micro_f1: r.micro_f1,
        macro_f1: r.macro_f1,
        macro_f1_book: r.macro_f1_book,
        per_class: r.per_class.clone(),
        confusion: r.confusion.clone(),
    }
}

impl TypedJob for TrainJob {
    const KIND: &'static str = "classify-train";
    type Params = TrainParams;
    type Output = TrainOutput;

    fn from_params(p: TrainParams) -> Result<Self> {
        p.corpus.validate()?;
        if let Some(n) = &p.save_as
            && n.trim().is_empty()
        {
            return Err(EngineError::invalid(
                "--save",
                "a model needs a non-empty name",
            ));
        }
        if p.explain_top > 1000 {
            return Err(EngineError::invalid("explain_top", "at most 1000"));
        }
        Ok(TrainJob { p })
    }

    fn params(&self) -> TrainParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<TrainOutput> {
        let (mut out, preds, model) = self.execute(cx)?;
        let ws = crate::engine::store::Workspace::open_existing(cx.workspace_path())?;
        if let (Some(name), Some(model)) = (&self.p.save_as, &model) {
            out.model_id = Some(persist::save(
                ws.conn(),
                name,
                model,
                Some(&metrics_of(&out.result)),
            )?);
        }
        if let Some(id) = cx.job_id() {
            save_detail(&ws, id, PREDICTIONS_DETAIL, &preds)?;
            out.predictions_saved = preds.len();
        }
        Ok(out)
    }
}

/// `classify-sweep` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SweepParams {
    pub corpus: CorpusChoice,
    #[serde(default)]
    pub strict: bool,
    pub config: PipelineConfig,
    pub vary: Vary,
}

/// `classify-sweep` result: one run per value.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SweepOutput {
    pub points: Vec<SweepPoint>,
}

/// Repeats a run while one knob moves.
#[derive(Debug, Clone)]
pub(crate) struct SweepJob {
    pub p: SweepParams,
}

impl SweepJob {
    pub fn execute(&self, tick: &dyn Tick) -> Result<SweepOutput> {
        if matches!(self.p.corpus, CorpusChoice::KFold { .. }) {
            return Err(EngineError::invalid(
                "corpus",
                "a sweep needs a train/test pair or a split, not k-fold",
            ));
        }
        tick.tick(0.0, "reading the corpus")?;
        let pairs = load_corpus(&self.p.corpus, self.p.strict)?;
        let (train, test) = pairs
            .first()
            .ok_or_else(|| EngineError::Internal("no corpus".into()))?;
        let tok = JiebaTokenizer::new(self.p.config.tokens.clone());
        tick.tick(0.0, "tokenising")?;
        let p = prepare(train, test, &tok)?;
        let points = sweep(&p, &self.p.config, &self.p.vary, tick)?;
        tick.tick(1.0, "done")?;
        Ok(SweepOutput { points })
    }
}

impl TypedJob for SweepJob {
    const KIND: &'static str = "classify-sweep";
    type Params = SweepParams;
    type Output = SweepOutput;

    fn from_params(p: SweepParams) -> Result<Self> {
        p.corpus.validate()?;
        if p.vary.is_empty() {
            return Err(EngineError::invalid("--vary", "no values"));
        }
        if matches!(p.corpus, CorpusChoice::KFold { .. }) {
            return Err(EngineError::invalid(
                "corpus",
                "a sweep needs a train/test pair or a split, not k-fold",
            ));
        }
        Ok(SweepJob { p })
    }

    fn params(&self) -> SweepParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<SweepOutput> {
        self.execute(cx)
    }
}

#[cfg(test)]
mod tests;
