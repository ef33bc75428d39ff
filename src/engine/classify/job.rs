//! Training as a job (the Classifier panel and the experiment log): read the corpora, tokenise,
//! train, test; the result is the run's figures, and the misclassified test documents — each
//! with the classes it was scored for and the features that decided (ch. 11 [L4049–L4366]) —
//! are kept beside the log row (`job_details`, name [`MISTAKES`]) for the confusion-matrix
//! drill-down. A second job sweeps the features kept for DF, IG, MI and CHI in one run: the
//! book's Figures 11-8/11-9 [L4177–L4188].
//!
//! ```no_run
//! use tianwang::engine::classify::job::{ClassifyTrain, TrainParams};
//! use tianwang::engine::classify::nb::{NbConfig, NbKind};
//! use tianwang::engine::classify::pipeline::{ModelConfig, PipelineConfig};
//! use tianwang::engine::jobs::registry::TypedJob;
//! let job = ClassifyTrain::from_params(TrainParams {
//!     train: "dev.txt".into(),
//!     test: "test.txt".into(),
//!     config: PipelineConfig::for_model(ModelConfig::Nb(NbConfig { kind: NbKind::Multinomial, alpha: Some(1.0) })),
//!     save: None,
//! })?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::corpus::{Corpus, read_any};
use super::experiment::{Prepared, RunResult, SweepPoint, Vary, prepare, run_prepared, sweep};
use super::explain::Explanation;
use super::metrics::Metrics;
use super::pipeline::{PipelineConfig, SelectionConfig};
use super::select::{Combine, Keep, Method};
use super::tokenize::JiebaTokenizer;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::registry::TypedJob;
use crate::engine::jobs::{JobContext, Tick, save_detail};
use crate::engine::store::Workspace;

/// Name of the misclassified documents in `job_details`.
pub const MISTAKES: &str = "mistakes";
/// At most this many misclassified documents are kept with their explanation.
pub const MAX_MISTAKES: usize = 3000;

/// What to train and test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainParams {
    /// `text<TAB>label` lines (a `class.txt` beside names the ids), a folder per class, or
    /// SogouCS XML.
    pub train: PathBuf,
    pub test: PathBuf,
    pub config: PipelineConfig,
    /// Keep the trained model in the workspace under this name.
    #[serde(default)]
    pub save: Option<String>,
}

/// A test document the model got wrong.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Mistake {
    /// Index of the true and of the predicted class in `labels`.
    pub truth: usize,
    pub predicted: usize,
    pub location: String,
    pub text: String,
    pub why: Explanation,
}

/// A finished training run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainOutput {
    pub result: RunResult,
    pub model_id: Option<i64>,
    /// How many misclassified documents are stored beside the log row.
    pub mistakes: usize,
}

/// The training job (validated parameters).
#[derive(Debug, Clone)]
pub struct ClassifyTrain {
    p: TrainParams,
}

fn read(path: &std::path::Path, flag: &str) -> Result<Corpus> {
    if !path.exists() {
        return Err(EngineError::invalid(
            flag,
            format!("{}: no such file or folder", path.display()),
        ));
    }
    read_any(path, false)
}

fn prepared(
    train: &std::path::Path,
    test: &std::path::Path,
    cfg: &PipelineConfig,
) -> Result<(Corpus, Prepared)> {
    let train = read(train, "--train")?;
    let test_c = read(test, "--test")?;
    let tok = JiebaTokenizer::new(cfg.tokens.clone());
    let p = prepare(&train, &test_c, &tok)?;
    Ok((test_c, p))
}

impl TypedJob for ClassifyTrain {
    const KIND: &'static str = "classify-train";
    type Params = TrainParams;
    type Output = TrainOutput;

    fn from_params(p: TrainParams) -> Result<Self> {
        if p.save.as_deref().is_some_and(|n| n.trim().is_empty()) {
            return Err(EngineError::invalid("--save", "give the model a name"));
        }
        Ok(ClassifyTrain { p })
    }

    fn params(&self) -> TrainParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<TrainOutput> {
        cx.tick(0.0, "reading and tokenising")?;
        let (test, p) = prepared(&self.p.train, &self.p.test, &self.p.config)?;
        cx.tick(0.2, "training")?;
        let (result, model) = run_prepared(&p, &self.p.config, cx)?;
        cx.tick(0.8, "explaining the mistakes")?;
        let mut mistakes = Vec::new();
        for (i, tokens) in p.test_tokens.iter().enumerate() {
            if i % 256 == 0 {
                cx.check_cancel()?;
            }
            let (assigned, _) = model.predict(tokens);
            let predicted = assigned.first().copied().unwrap_or(0);
            let truth = p.test_y[i];
            if predicted != truth && mistakes.len() < MAX_MISTAKES {
                let doc = &test.docs[i];
                mistakes.push(Mistake {
                    truth,
                    predicted,
                    location: doc.location.clone(),
                    text: doc.text.chars().take(300).collect(),
                    why: model.explain(tokens, 8),
                });
            }
        }
        let ws = Workspace::open_existing(cx.workspace_path())?;
        if let Some(id) = cx.job_id() {
            save_detail(&ws, id, MISTAKES, &mistakes)?;
        }
        let model_id = match &self.p.save {
            Some(name) => {
                let metrics = Metrics {
                    accuracy: result.accuracy,
                    micro_p: result.micro_f1,
                    micro_r: result.micro_f1,
                    micro_f1: result.micro_f1,
                    macro_f1: result.macro_f1,
                    macro_f1_book: result.macro_f1_book,
                    per_class: result.per_class.clone(),
                    confusion: result.confusion.clone(),
                };
                Some(super::persist::save(
                    ws.conn(),
                    name,
                    &model,
                    Some(&metrics),
                )?)
            }
            None => None,
        };
        cx.tick(1.0, "done")?;
        Ok(TrainOutput {
            result,
            model_id,
            mistakes: mistakes.len(),
        })
    }
}

/// The features-kept sweep: which selection methods, and which shares of the features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepParams {
    pub train: PathBuf,
    pub test: PathBuf,
    pub config: PipelineConfig,
    pub methods: Vec<Method>,
    /// Percent of the features kept, e.g. 1, 2, 5, 10, 20, 50, 100.
    pub percents: Vec<f64>,
}

/// One method's curve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepCurve {
    pub method: Method,
    pub points: Vec<SweepPoint>,
}

/// The features-kept sweep as a job.
#[derive(Debug, Clone)]
pub struct ClassifySweep {
    p: SweepParams,
}

impl TypedJob for ClassifySweep {
    const KIND: &'static str = "classify-sweep";
    type Params = SweepParams;
    type Output = Vec<SweepCurve>;

    fn from_params(p: SweepParams) -> Result<Self> {
        if p.methods.is_empty() {
            return Err(EngineError::invalid(
                "methods",
                "choose at least one of DF, IG, MI, CHI",
            ));
        }
        if p.percents.is_empty() || p.percents.iter().any(|x| !(*x > 0.0 && *x <= 100.0)) {
            return Err(EngineError::invalid("percents", "each in (0, 100]"));
        }
        Ok(ClassifySweep { p })
    }

    fn params(&self) -> SweepParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<Vec<SweepCurve>> {
        cx.tick(0.0, "reading and tokenising")?;
        let (_, prep) = prepared(&self.p.train, &self.p.test, &self.p.config)?;
        let vary = Vary::Keep(self.p.percents.iter().map(|x| Keep::Percent(*x)).collect());
        let n = self.p.methods.len() as f32;
        let mut curves = Vec::new();
        for (i, m) in self.p.methods.iter().enumerate() {
            let mut cfg = self.p.config.clone();
            cfg.selection = Some(SelectionConfig {
                method: *m,
                combine: Combine::Max,
                keep: Keep::All,
            });
            let share = Scaled {
                inner: cx,
                from: i as f32 / n,
                span: 1.0 / n,
            };
            curves.push(SweepCurve {
                method: *m,
                points: sweep(&prep, &cfg, &vary, &share)?,
            });
        }
        Ok(curves)
    }
}

/// Progress of one part of a job mapped into its share of the whole.
struct Scaled<'a> {
    inner: &'a dyn Tick,
    from: f32,
    span: f32,
}

impl Tick for Scaled<'_> {
    fn tick(&self, fraction: f32, message: &str) -> Result<()> {
        self.inner
            .tick(self.from + fraction.clamp(0.0, 1.0) * self.span, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::classify::pipeline::ModelConfig;
    use crate::engine::jobs::{JobRunner, JobState, load_detail};

    fn nb() -> crate::engine::classify::nb::NbConfig {
        crate::engine::classify::nb::NbConfig {
            kind: crate::engine::classify::nb::NbKind::Multinomial,
            alpha: Some(1.0),
        }
    }

    fn corpus(dir: &std::path::Path) -> (PathBuf, PathBuf) {
        let lines = |n: usize| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!("股票 基金 上涨 行情 {i}\tfinance\n"));
                s.push_str(&format!("足球 比赛 进球 球队 {i}\tsports\n"));
            }
            // A sports title dressed in finance words: a sure mistake.
            s.push_str("股票 基金 行情\tsports\n");
            s
        };
        let (tr, te) = (dir.join("train.txt"), dir.join("test.txt"));
        std::fs::write(&tr, lines(20)).unwrap();
        std::fs::write(&te, lines(3)).unwrap();
        (tr, te)
    }

    #[test]
    fn training_logs_the_result_and_keeps_the_mistakes_beside_it() {
        let d = tempfile::tempdir().unwrap();
        let ws = d.path().join("w.tianwang");
        Workspace::open_or_create(&ws).unwrap();
        let (train, test) = corpus(d.path());
        let job = ClassifyTrain::from_params(TrainParams {
            train,
            test,
            config: PipelineConfig::for_model(ModelConfig::Nb(nb())),
            save: Some("nb-test".into()),
        })
        .unwrap();
        let runner = JobRunner::new(ws.clone(), std::sync::Arc::new(|| {}));
        let h = runner.spawn(Box::new(job));
        let JobState::Done(v) = h.wait() else {
            panic!("training failed")
        };
        let out = ClassifyTrain::decode(&v).unwrap();
        assert_eq!(out.result.test_docs, 7);
        assert!(out.model_id.is_some());
        assert!(out.mistakes >= 1, "the dressed-up title is misclassified");
        let w = Workspace::open_existing(&ws).unwrap();
        let m: Vec<Mistake> = load_detail(&w, h.snapshot().id.unwrap(), MISTAKES)
            .unwrap()
            .unwrap();
        assert_eq!(m.len(), out.mistakes);
        let labels = &out.result.labels;
        assert!(
            m.iter()
                .any(|x| labels[x.truth] == "sports" && labels[x.predicted] == "finance")
        );
        assert!(!m[0].why.class_scores.is_empty());
    }

    #[test]
    fn the_sweep_gives_one_curve_per_method() {
        let d = tempfile::tempdir().unwrap();
        let ws = d.path().join("w.tianwang");
        Workspace::open_or_create(&ws).unwrap();
        let (train, test) = corpus(d.path());
        let job = ClassifySweep::from_params(SweepParams {
            train,
            test,
            config: PipelineConfig::for_model(ModelConfig::Nb(nb())),
            methods: vec![Method::Chi, Method::Mi],
            percents: vec![10.0, 100.0],
        })
        .unwrap();
        let runner = JobRunner::new(ws, std::sync::Arc::new(|| {}));
        let JobState::Done(v) = runner.spawn(Box::new(job)).wait() else {
            panic!("sweep failed")
        };
        let curves = ClassifySweep::decode(&v).unwrap();
        assert_eq!(curves.len(), 2);
        assert_eq!(curves[0].points.len(), 2);
        assert!(
            curves[0].points[1].result.features_kept > curves[0].points[0].result.features_kept
        );
        let empty = SweepParams {
            train: PathBuf::new(),
            test: PathBuf::new(),
            config: PipelineConfig::for_model(ModelConfig::Nb(nb())),
            methods: vec![],
            percents: vec![10.0],
        };
        assert!(ClassifySweep::from_params(empty).is_err());
    }
}
