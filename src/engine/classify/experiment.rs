//! Train-and-test runs and sweeps: the book's experiments (ch. 11.4 [L4049–L4366]) as one call
//! each. [`run`] trains on one corpus and scores another; [`sweep`] repeats that while one knob
//! moves — the number/percentage of features kept (Figures 11-8/11-9 [L4177–L4188]), k
//! (Figures 11-11/11-12 [L4275–L4281]) or the training-set size (Figures 11-6/11-7
//! [L4121–L4131]; `N` = at most N documents per class, the book's axis, or `X%` of each class,
//! seeded) — tokenising once.
//!
//! ```no_run
//! use tianwang::engine::classify::{corpus, experiment, pipeline, tokenize};
//! let dir = tianwang::engine::data::DataDir::resolve(None)?.require("thucnews_titles")?;
//! let train = corpus::read_tsv(&dir.join("dev.txt"), false)?;
//! let test = corpus::read_tsv(&dir.join("test.txt"), false)?;
//! let cfg = pipeline::PipelineConfig::for_model(pipeline::ModelConfig::Knn(Default::default()));
//! let tok = tokenize::JiebaTokenizer::new(cfg.tokens.clone());
//! let r = experiment::run(&train, &test, &cfg, &tok, &())?;
//! println!("{}", r.accuracy);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::classify::corpus::{Corpus, Skipped};
use crate::engine::classify::knn::KnnConfig;
use crate::engine::classify::linear::Rng;
use crate::engine::classify::metrics::{ClassMetrics, evaluate};
use crate::engine::classify::pipeline::{Model, ModelConfig, PipelineConfig, SelectionConfig};
use crate::engine::classify::select::{Combine, Keep, Method};
use crate::engine::classify::threshold::ranked;
use crate::engine::classify::tokenize::Tokenizer;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::{Scaled, Tick};

/// The result of one train/test run (the CLI's JSON document).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResult {
    pub model: String,
    pub params: PipelineConfig,
    pub train_docs: usize,
    pub test_docs: usize,
    pub features_total: usize,
    pub features_kept: usize,
    pub accuracy: f64,
    pub micro_f1: f64,
    pub macro_f1: f64,
    pub macro_f1_book: f64,
    pub per_class: Vec<ClassMetrics>,
    pub confusion: Vec<Vec<u64>>,
    pub labels: Vec<String>,
    pub train_s: f64,
    pub test_s: f64,
    pub tokenize_s: f64,
    /// SCut thresholds per class (empty unless SCut).
    pub thresholds: Vec<f64>,
    /// Records the readers could not use (counted, never dropped silently).
    pub skipped_train: usize,
    pub skipped_test: usize,
    /// The first 20 of them with file:line and reason.
    pub skipped: Vec<Skipped>,
}

/// Tokenised, label-mapped train and test sets.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub labels: Vec<String>,
    pub train_tokens: Vec<Vec<String>>,
    pub train_y: Vec<usize>,
    pub train_locations: Vec<String>,
    pub test_tokens: Vec<Vec<String>>,
    pub test_y: Vec<usize>,
    pub tokenize_s: f64,
    pub skipped_train: usize,
    pub skipped_test: usize,
    pub skipped: Vec<Skipped>,
}

/// The class list: `class.txt` order when the training corpus has one, else the sorted
/// training labels; test-only labels are appended (no model can predict them).
pub fn label_list(train: &Corpus, test: &Corpus) -> Vec<String> {
    let mut labels: Vec<String> = match &train.class_names {
        Some(n) => n.clone(),
        None => {
            let mut v: Vec<String> = train.docs.iter().map(|d| d.label.clone()).collect();
            v.sort();
            v.dedup();
            v
        }
    };
    for d in &test.docs {
        if !labels.contains(&d.label) {
            labels.push(d.label.clone());
        }
    }
    labels
}

pub fn prepare(train: &Corpus, test: &Corpus, tok: &dyn Tokenizer) -> Result<Prepared> {
    if train.docs.is_empty() {
        return Err(EngineError::invalid(
            "--train",
            "no readable training documents",
        ));
    }
    if test.docs.is_empty() {
        return Err(EngineError::invalid("--test", "no readable test documents"));
    }
    let labels = label_list(train, test);
    let id = |l: &str| labels.iter().position(|x| x == l).unwrap_or(0);
    let t0 = Instant::now();
    let train_tokens: Vec<Vec<String>> =
        train.docs.par_iter().map(|d| tok.tokens(&d.text)).collect();
    let test_tokens: Vec<Vec<String>> = test.docs.par_iter().map(|d| tok.tokens(&d.text)).collect();
    let tokenize_s = t0.elapsed().as_secs_f64();
    Ok(Prepared {
        train_y: train.docs.iter().map(|d| id(&d.label)).collect(),
        test_y: test.docs.iter().map(|d| id(&d.label)).collect(),
        train_locations: train.docs.iter().map(|d| d.location.clone()).collect(),
        labels: labels.clone(),
        train_tokens,
        test_tokens,
        tokenize_s,
        skipped_train: train.skipped.len(),
        skipped_test: test.skipped.len(),
        skipped: train
            .skipped
            .iter()
            .chain(&test.skipped)
            .take(20)
            .cloned()
            .collect(),
    })
}

/// Trains on `train` and scores `test` (tokenised already).
pub fn run_prepared(
    p: &Prepared,
    cfg: &PipelineConfig,
    tick: &dyn Tick,
) -> Result<(RunResult, Model)> {
    let t0 = Instant::now();
    let model = Model::train(
        &p.train_tokens,
        &p.train_y,
        p.labels.clone(),
        &p.train_locations,
        cfg,
        tick,
    )?;
    let train_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let scores = model.score_batch(&p.test_tokens, tick)?;
    let assigned = model.assign(&scores);
    let test_s = t1.elapsed().as_secs_f64();
    let top1: Vec<usize> = scores
        .iter()
        .map(|s| ranked(s).first().copied().unwrap_or(0))
        .collect();
    let m = evaluate(&p.labels, &p.test_y, &assigned, &top1);
    let r = RunResult {
        model: cfg.model.name().to_string(),
        params: cfg.clone(),
        train_docs: p.train_tokens.len(),
        test_docs: p.test_tokens.len(),
        features_total: model.features_total,
        features_kept: model.vocab.len(),
        accuracy: m.accuracy,
        micro_f1: m.micro_f1,
        macro_f1: m.macro_f1,
        macro_f1_book: m.macro_f1_book,
        per_class: m.per_class,
        confusion: m.confusion,
        labels: p.labels.clone(),
        train_s,
        test_s,
        tokenize_s: p.tokenize_s,
        thresholds: model.thresholds.clone(),
        skipped_train: p.skipped_train,
        skipped_test: p.skipped_test,
        skipped: p.skipped.clone(),
    };
    Ok((r, model))
}

/// Tokenises, trains, tests.
pub fn run(
    train: &Corpus,
    test: &Corpus,
    cfg: &PipelineConfig,
    tok: &dyn Tokenizer,
    tick: &dyn Tick,
) -> Result<RunResult> {
    let p = prepare(train, test, tok)?;
    Ok(run_prepared(&p, cfg, tick)?.0)
}

/// One knob of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "knob", content = "values")]
pub enum Vary {
    Keep(Vec<Keep>),
    K(Vec<usize>),
    /// At most N training documents per class.
    TrainPerClass(Vec<usize>),
    /// X % of each class's training documents.
    TrainPercent(Vec<f64>),
}

impl Vary {
    /// Parses `keep=100,500,10%`, `k=1..50` / `k=1,5,15`, `train-size=5%,10%` or `train-size=15,17`.
    pub fn parse(s: &str) -> Result<Vary> {
        let bad = |m: &str| EngineError::invalid("--vary", format!("`{s}`: {m}"));
        let (knob, vals) = s
            .split_once('=')
            .ok_or_else(|| bad("expected knob=values"))?;
        let list: Vec<&str> = vals
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .collect();
        if list.is_empty() {
            return Err(bad("no values"));
        }
        let ints = |list: &[&str]| -> Result<Vec<usize>> {
            let mut out = Vec::new();
            for v in list {
                if let Some((a, b)) = v.split_once("..") {
                    let (a, b): (usize, usize) = (
                        a.parse().map_err(|_| bad("not a range a..b"))?,
                        b.trim_start_matches('=')
                            .parse()
                            .map_err(|_| bad("not a range a..b"))?,
                    );
                    if a == 0 || b < a || b - a > 10_000 {
                        return Err(bad("a range must be 1 ≤ a ≤ b (≤ 10000 values)"));
                    }
                    out.extend(a..=b);
                } else {
                    match v.parse::<usize>() {
                        Ok(n) if n > 0 => out.push(n),
                        _ => return Err(bad("values must be positive integers")),
                    }
                }
            }
            Ok(out)
        };
        match knob.trim() {
            "keep" => Ok(Vary::Keep(
                list.iter().map(|v| Keep::parse(v)).collect::<Result<_>>()?,
            )),
            "k" => Ok(Vary::K(ints(&list)?)),
            "train-size" if list.iter().all(|v| v.ends_with('%')) => {
                let mut out = Vec::new();
                for v in &list {
                    match v.trim_end_matches('%').parse::<f64>() {
                        Ok(x) if x > 0.0 && x <= 100.0 => out.push(x),
                        _ => return Err(bad("percentages must be in (0, 100]")),
                    }
                }
                Ok(Vary::TrainPercent(out))
            }
            "train-size" if list.iter().all(|v| !v.ends_with('%')) => {
                Ok(Vary::TrainPerClass(ints(&list)?))
            }
            "train-size" => Err(bad("mix of N and X% values")),
            other => Err(bad(&format!(
                "unknown knob `{other}` (keep, k, train-size)"
            ))),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Vary::Keep(v) => v.len(),
            Vary::K(v) => v.len(),
            Vary::TrainPerClass(v) => v.len(),
            Vary::TrainPercent(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One point of a sweep.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepPoint {
    pub knob: String,
    pub value: String,
    pub result: RunResult,
}

/// A seeded per-class subsample of the training set.
fn subsample(p: &Prepared, per_class: impl Fn(usize) -> usize, seed: u64) -> Prepared {
    let mut by_class = vec![Vec::new(); p.labels.len()];
    for (i, &c) in p.train_y.iter().enumerate() {
        by_class[c].push(i);
    }
    let mut rng = Rng::new(seed);
    let mut keep = Vec::new();
    for mut v in by_class {
        rng.shuffle(&mut v);
        let n = per_class(v.len()).min(v.len());
        keep.extend_from_slice(&v[..n]);
    }
    keep.sort_unstable();
    let mut q = p.clone();
    q.train_tokens = keep.iter().map(|&i| p.train_tokens[i].clone()).collect();
    q.train_y = keep.iter().map(|&i| p.train_y[i]).collect();
    q.train_locations = keep
        .iter()
        .filter_map(|&i| p.train_locations.get(i).cloned())
        .collect();
    q
}

/// Runs `cfg` once per value of `vary`.
pub fn sweep(
    p: &Prepared,
    cfg: &PipelineConfig,
    vary: &Vary,
    tick: &dyn Tick,
) -> Result<Vec<SweepPoint>> {
    let mut out = Vec::new();
    let n = vary.len().max(1) as f32;
    for i in 0..vary.len() {
        tick.tick(i as f32 / n, "sweep")?;
        let mut c = cfg.clone();
        let (knob, value, prepared) = match vary {
            Vary::Keep(v) => {
                let sel = c.selection.get_or_insert(SelectionConfig {
                    method: Method::Chi,
                    combine: Combine::Mean,
                    keep: Keep::All,
                });
                sel.keep = v[i];
                let value = match v[i] {
                    Keep::All => "all".to_string(),
                    Keep::Top(n) => n.to_string(),
                    Keep::Percent(x) => format!("{x}%"),
                };
                ("keep", value, None)
            }
            Vary::K(v) => {
                match &mut c.model {
                    ModelConfig::Knn(k) => k.k = v[i],
                    ModelConfig::HierKnn { knn, .. } => knn.k = v[i],
                    _ => {
                        c.model = ModelConfig::Knn(KnnConfig {
                            k: v[i],
                            ..KnnConfig::default()
                        });
                    }
                }
                ("k", v[i].to_string(), None)
            }
            Vary::TrainPerClass(v) => {
                let n = v[i];
                (
                    "train-size",
                    n.to_string(),
                    Some(subsample(p, |_| n, cfg.seed)),
                )
            }
            Vary::TrainPercent(v) => {
                let x = v[i];
                let f = move |len: usize| (((len as f64) * x / 100.0).round() as usize).max(1);
                (
                    "train-size",
                    format!("{x}%"),
                    Some(subsample(p, f, cfg.seed)),
                )
            }
        };
        let part = Scaled {
            tick,
            start: i as f32 / n,
            width: 1.0 / n,
        };
        let (result, _) = run_prepared(prepared.as_ref().unwrap_or(p), &c, &part)?;
        out.push(SweepPoint {
            knob: knob.into(),
            value,
            result,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_parsing() {
        assert_eq!(Vary::parse("k=1..3").unwrap(), Vary::K(vec![1, 2, 3]));
        assert_eq!(
            Vary::parse("keep=100,10%").unwrap(),
            Vary::Keep(vec![Keep::Top(100), Keep::Percent(10.0)])
        );
        assert_eq!(
            Vary::parse("train-size=5%,10%").unwrap(),
            Vary::TrainPercent(vec![5.0, 10.0])
        );
        assert_eq!(
            Vary::parse("train-size=15,17").unwrap(),
            Vary::TrainPerClass(vec![15, 17])
        );
        for bad in [
            "k=0",
            "k=5..1",
            "x=1",
            "keep",
            "train-size=5%,10",
            "keep=",
            "k=a",
        ] {
            assert!(Vary::parse(bad).is_err(), "{bad}");
        }
    }
}
