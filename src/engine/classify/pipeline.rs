//! The classifier pipeline end to end (book ch. 11.3, Figure 11-3 [L4043–L4045]): training =
//! tokens → vocabulary → feature selection → weighting → class patterns (+ SCut thresholds on a
//! validation split); classification = tokens → vector → scores against every class →
//! thresholding. [`Model`] is the trained, serialisable whole (configuration included), so a
//! model saved in the workspace classifies new text exactly as it did at training time.
//!
//! Timing convention: `train_s` covers vocabulary, selection, weighting and fitting (and the
//! SCut sub-model); `test_s` vectorising and classifying the test set; tokenisation is timed
//! apart (`tokenize_s`) since jieba dominates it and is the same for every model.
//!
//! ```no_run
//! use tianwang::engine::classify::pipeline::{ModelConfig, PipelineConfig, Model};
//! use tianwang::engine::classify::nb::{NbConfig, NbKind};
//! let cfg = PipelineConfig::for_model(ModelConfig::Nb(NbConfig { kind: NbKind::Multinomial, alpha: Some(1.0) }));
//! let tokens = vec![vec!["股票".to_string()], vec!["足球".to_string()]];
//! let m = Model::train(&tokens, &[0, 1], vec!["stocks".into(), "sports".into()], &[], &cfg, &()).unwrap();
//! assert_eq!(m.predict(&["足球".to_string()]).0, vec![1]);
//! ```

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::classify::explain::{ClassScore, Explanation, FeatureWeight, Neighbour, top_n};
use crate::engine::classify::features::{SparseVec, Vocab, Weighter, Weighting, remap};
use crate::engine::classify::hier::{HierKnn, HierarchyConfig};
use crate::engine::classify::knn::{Knn, KnnConfig};
use crate::engine::classify::linear::{LinearConfig, LinearSvm, Rng};
use crate::engine::classify::nb::{NaiveBayes, NbConfig};
use crate::engine::classify::rocchio::{Rocchio, RocchioConfig};
use crate::engine::classify::select::{Combine, Keep, Method, score_terms, select};
use crate::engine::classify::threshold::{Threshold, assign, ranked, scut_thresholds};
use crate::engine::classify::tokenize::TokenConfig;
use crate::engine::classify::tree::{Tree, TreeConfig};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectionConfig {
    pub method: Method,
    pub combine: Combine,
    pub keep: Keep,
}

/// The classifier and its own parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "classifier")]
pub enum ModelConfig {
    Knn(KnnConfig),
    /// kNN with the book's parent-class pruning.
    #[serde(rename = "knn-hier")]
    HierKnn {
        knn: KnnConfig,
        hierarchy: HierarchyConfig,
    },
    Nb(NbConfig),
    Rocchio(RocchioConfig),
    Tree(TreeConfig),
    Svm(LinearConfig),
}

impl ModelConfig {
    pub fn name(&self) -> &'static str {
        match self {
            ModelConfig::Knn(_) => "knn",
            ModelConfig::HierKnn { .. } => "knn-hier",
            ModelConfig::Nb(c) if c.kind == crate::engine::classify::nb::NbKind::Bernoulli => {
                "nb-bernoulli"
            }
            ModelConfig::Nb(_) => "nb",
            ModelConfig::Rocchio(_) => "rocchio",
            ModelConfig::Tree(_) => "tree",
            ModelConfig::Svm(_) => "svm",
        }
    }
}

/// Everything that defines a trained model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PipelineConfig {
    pub tokens: TokenConfig,
    pub weighting: Weighting,
    pub l2: bool,
    pub selection: Option<SelectionConfig>,
    pub model: ModelConfig,
    pub threshold: Threshold,
    pub seed: u64,
}

impl PipelineConfig {
    /// The model's usual setup: raw counts for NB (multinomial NB models counts; the
    /// reference used counts), L2-normalised tf-idf for every vector-space model; jieba words
    /// for all, plus character bigrams for the linear SVM (words alone reach 0.843 on the
    /// THUCNews titles, as scikit-learn's `LinearSVC` does; with bigrams 0.864).
    pub fn for_model(model: ModelConfig) -> PipelineConfig {
        let (weighting, l2) = match model {
            ModelConfig::Nb(_) => (Weighting::Tf, false),
            _ => (Weighting::TfIdf, true),
        };
        let tokens = TokenConfig {
            char_bigrams: matches!(model, ModelConfig::Svm(_)),
            ..TokenConfig::default()
        };
        PipelineConfig {
            tokens,
            weighting,
            l2,
            selection: None,
            model,
            threshold: Threshold::None,
            seed: 0,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "classifier")]
pub enum Classifier {
    Knn(Knn),
    #[serde(rename = "knn-hier")]
    HierKnn(HierKnn),
    Nb(NaiveBayes),
    Rocchio(Rocchio),
    Tree(Tree),
    Svm(LinearSvm),
}

/// A trained pipeline.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Model {
    pub config: PipelineConfig,
    pub labels: Vec<String>,
    /// The kept features (ids = vector dimensions).
    pub vocab: Vocab,
    pub weighter: Weighter,
    pub classifier: Classifier,
    /// SCut thresholds per class (empty otherwise).
    pub thresholds: Vec<f64>,
    /// Training share per class (PCut).
    pub priors: Vec<f64>,
    pub train_docs: usize,
    /// Distinct training terms before selection.
    pub features_total: usize,
    /// Where each training document came from (kNN explanations; empty for other models).
    pub train_locations: Vec<String>,
}

fn check(tokens: &[Vec<String>], y: &[usize], labels: &[String]) -> Result<()> {
    if tokens.len() != y.len() {
        return Err(EngineError::Internal(
            "tokens and labels differ in length".into(),
        ));
    }
    if tokens.is_empty() {
        return Err(EngineError::invalid("--train", "no training documents"));
    }
    if let Some(&bad) = y.iter().find(|&&c| c >= labels.len()) {
        return Err(EngineError::Internal(format!(
            "label id {bad} out of range"
        )));
    }
    Ok(())
}

impl Model {
    /// Trains on tokenised documents `tokens` with classes `y` (ids into `labels`).
    pub fn train(
        tokens: &[Vec<String>],
        y: &[usize],
        labels: Vec<String>,
        locations: &[String],
        config: &PipelineConfig,
        tick: &dyn Tick,
    ) -> Result<Model> {
        check(tokens, y, &labels)?;
        let k = labels.len();
        tick.tick(0.0, "vocabulary")?;
        let full = Vocab::build(tokens);
        let features_total = full.len();
        let mut counts: Vec<SparseVec> = tokens.par_iter().map(|t| full.count(t)).collect();
        let vocab = match &config.selection {
            None => full,
            Some(sel) => {
                tick.tick(0.1, "feature selection")?;
                let scores = score_terms(sel.method, sel.combine, &counts, y, full.len(), k);
                let kept = select(&scores, sel.keep);
                let mut map = vec![None; full.len()];
                for (new, &old) in kept.iter().enumerate() {
                    map[old as usize] = Some(new as u32);
                }
                counts = counts.par_iter().map(|c| remap(c, &map)).collect();
                Vocab::from_terms(kept.iter().map(|&t| full.term(t).to_string()).collect())
            }
        };
        tick.tick(0.2, "weighting")?;
        let weighter = Weighter::fit(config.weighting, config.l2, &counts, vocab.len());
        let x: Vec<SparseVec> = counts.par_iter().map(|c| weighter.apply(c)).collect();
        drop(counts);
        let nf = vocab.len();
        tick.tick(0.3, "fitting")?;
        let classifier = match &config.model {
            ModelConfig::Knn(c) => Classifier::Knn(Knn::fit(c, x, y.to_vec(), k)),
            ModelConfig::HierKnn { knn, hierarchy } => {
                Classifier::HierKnn(HierKnn::fit(hierarchy, knn, x, y, &labels)?)
            }
            ModelConfig::Nb(c) => Classifier::Nb(NaiveBayes::fit(c, &x, y, k, nf)),
            ModelConfig::Rocchio(c) => Classifier::Rocchio(Rocchio::fit(c, &x, y, k, nf)),
            ModelConfig::Tree(c) => Classifier::Tree(Tree::fit_cancellable(c, &x, y, k, nf, tick)?),
            ModelConfig::Svm(c) => {
                let c = LinearConfig {
                    seed: config.seed,
                    ..c.clone()
                };
                Classifier::Svm(LinearSvm::fit_cancellable(&c, &x, y, k, nf, tick)?)
            }
        };
        let mut priors = vec![0f64; k];
        for &c in y {
            priors[c] += 1.0 / y.len() as f64;
        }
        let mut model = Model {
            config: config.clone(),
            labels,
            vocab,
            weighter,
            classifier,
            thresholds: Vec::new(),
            priors,
            train_docs: tokens.len(),
            features_total,
            train_locations: if matches!(
                config.model,
                ModelConfig::Knn(_) | ModelConfig::HierKnn { .. }
            ) {
                locations.to_vec()
            } else {
                Vec::new()
            },
        };
        if let Threshold::SCut { validation } = config.threshold {
            tick.tick(0.6, "SCut thresholds")?;
            model.thresholds = scut_from_split(tokens, y, &model.labels, config, validation, tick)?;
        }
        tick.tick(1.0, "trained")?;
        Ok(model)
    }

    /// Rebuilds lookup tables after deserialisation.
    pub(crate) fn after_load(&mut self) {
        self.vocab.reindex();
        match &mut self.classifier {
            Classifier::Knn(k) => k.build_index(),
            Classifier::HierKnn(h) => h.build_index(),
            _ => {}
        }
    }

    pub(crate) fn vectorize(&self, tokens: &[String]) -> SparseVec {
        self.weighter.apply(&self.vocab.count(tokens))
    }

    /// One score per class (NB: posterior probability; kNN: summed votes; Rocchio: cosine;
    /// tree: leaf share; SVM: decision value).
    pub(crate) fn scores_vec(&self, x: &SparseVec) -> Vec<f64> {
        match &self.classifier {
            Classifier::Knn(m) => m.scores(x),
            Classifier::HierKnn(m) => m.scores(x),
            Classifier::Nb(m) => m.posterior(&m.scores(x)),
            Classifier::Rocchio(m) => m.scores(x),
            Classifier::Tree(m) => m.scores(x),
            Classifier::Svm(m) => m.scores(x),
        }
    }

    /// Scores for a batch (parallel).
    pub(crate) fn score_batch(
        &self,
        tokens: &[Vec<String>],
        tick: &dyn Tick,
    ) -> Result<Vec<Vec<f64>>> {
        let mut out = Vec::with_capacity(tokens.len());
        for (i, chunk) in tokens.chunks(512).enumerate() {
            tick.tick((i * 512) as f32 / tokens.len().max(1) as f32, "classifying")?;
            out.extend(
                chunk
                    .par_iter()
                    .map(|t| self.scores_vec(&self.vectorize(t)))
                    .collect::<Vec<_>>(),
            );
        }
        Ok(out)
    }

    /// Assigned class sets for score rows (thresholding applied).
    pub(crate) fn assign(&self, scores: &[Vec<f64>]) -> Vec<Vec<usize>> {
        assign(
            &self.config.threshold,
            scores,
            &self.thresholds,
            &self.priors,
        )
    }

    /// The classes of one document and its scores (PCut needs a batch: one doc gets top-1).
    pub fn predict(&self, tokens: &[String]) -> (Vec<usize>, Vec<f64>) {
        let s = self.scores_vec(&self.vectorize(tokens));
        let th = match self.config.threshold {
            Threshold::PCut { .. } => Threshold::None,
            ref t => t.clone(),
        };
        let a = assign(
            &th,
            std::slice::from_ref(&s),
            &self.thresholds,
            &self.priors,
        );
        (a.into_iter().next().unwrap_or_default(), s)
    }

    /// Why `tokens` gets its classes; `n` top features / neighbours.
    pub fn explain(&self, tokens: &[String], n: usize) -> Explanation {
        let x = self.vectorize(tokens);
        let (pred, posterior) = self.predict(tokens);
        let label = |c: usize| self.labels.get(c).cloned().unwrap_or_default();
        let order = ranked(&posterior);
        let best = order.first().copied().unwrap_or(0);
        let second = order.get(1).copied().unwrap_or(best);
        let feats = |v: Vec<(u32, f64)>| {
            top_n(
                v.into_iter()
                    .map(|(t, w)| FeatureWeight {
                        term: self.vocab.term(t).to_string(),
                        weight: w,
                    })
                    .collect(),
                n,
            )
        };
        let mut e = Explanation {
            predicted: pred.iter().map(|&c| label(c)).collect(),
            ..Explanation::default()
        };
        let raw: Vec<f64> = match &self.classifier {
            Classifier::Nb(m) => {
                e.score_kind = if m.config.alpha.is_some() {
                    "log-probability (log prior + Σ log P(w|c))".into()
                } else {
                    "probability product P(c)·Π P(a|c) (book mode, unsmoothed)".into()
                };
                e.top_features = feats(m.contributions(&x, best, second));
                m.scores(&x)
            }
            Classifier::Knn(m) => {
                e.score_kind = if m.config.weighted {
                    "summed similarity of the k nearest"
                } else {
                    "neighbour count"
                }
                .into();
                e.neighbours = m
                    .neighbours(&x)
                    .into_iter()
                    .take(n)
                    .map(|(d, s)| Neighbour {
                        train_index: d,
                        location: self.train_locations.get(d).cloned().unwrap_or_default(),
                        label: m.y.get(d).map(|&c| label(c)).unwrap_or_default(),
                        similarity: s,
                    })
                    .collect();
                posterior.clone()
            }
            Classifier::HierKnn(m) => {
                e.score_kind = "summed similarity of the k nearest in the surviving parents".into();
                e.path = m
                    .parents(&x)
                    .iter()
                    .map(|&(g, s, keep)| {
                        let name = m.names.get(g).cloned().unwrap_or_default();
                        format!("{name} cos {s:.3} {}", if keep { "kept" } else { "pruned" })
                    })
                    .collect();
                e.neighbours = m
                    .neighbours(&x)
                    .into_iter()
                    .take(n)
                    .map(|(d, s, c)| Neighbour {
                        train_index: d,
                        location: self.train_locations.get(d).cloned().unwrap_or_default(),
                        label: label(c),
                        similarity: s,
                    })
                    .collect();
                posterior.clone()
            }
            Classifier::Rocchio(m) => {
                e.score_kind = "cosine with the class prototype".into();
                e.top_features = feats(m.contributions(&x, best));
                posterior.clone()
            }
            Classifier::Svm(m) => {
                e.score_kind = "decision value w·x + b".into();
                e.top_features = feats(m.contributions(&x, best));
                posterior.clone()
            }
            Classifier::Tree(m) => {
                e.score_kind = "class share in the leaf".into();
                e.path = m
                    .path(&x)
                    .1
                    .iter()
                    .map(|&(t, has)| {
                        format!(
                            "{} {}",
                            if has { "has" } else { "lacks" },
                            self.vocab.term(t)
                        )
                    })
                    .collect();
                posterior.clone()
            }
        };
        e.class_scores = order
            .iter()
            .map(|&c| ClassScore {
                label: label(c),
                score: raw.get(c).copied().unwrap_or(0.0),
            })
            .collect();
        e
    }
}

/// A seeded 80/20-style split: (train part, validation part) indices, stratified by class.
pub(crate) fn stratified_split(
    y: &[usize],
    n_classes: usize,
    held_out: f64,
    seed: u64,
) -> (Vec<usize>, Vec<usize>) {
    let mut by_class = vec![Vec::new(); n_classes];
    for (i, &c) in y.iter().enumerate() {
        if let Some(v) = by_class.get_mut(c) {
            v.push(i);
        }
    }
    let mut rng = Rng::new(seed);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for mut v in by_class {
        rng.shuffle(&mut v);
        let nv = ((v.len() as f64) * held_out).round() as usize;
        let nv = if v.len() >= 2 {
            nv.clamp(1, v.len() - 1)
        } else {
            0
        };
        b.extend_from_slice(&v[..nv]);
        a.extend_from_slice(&v[nv..]);
    }
    a.sort_unstable();
    b.sort_unstable();
    (a, b)
}

fn scut_from_split(
    tokens: &[Vec<String>],
    y: &[usize],
    labels: &[String],
    config: &PipelineConfig,
    validation: f64,
    tick: &dyn Tick,
) -> Result<Vec<f64>> {
    let (tr, va) = stratified_split(y, labels.len(), validation, config.seed);
    if tr.is_empty() || va.is_empty() {
        return Err(EngineError::invalid(
            "--threshold",
            "SCut needs at least 2 training documents per class",
        ));
    }
    let sub_cfg = PipelineConfig {
        threshold: Threshold::None,
        ..config.clone()
    };
    let pick = |idx: &[usize]| -> (Vec<Vec<String>>, Vec<usize>) {
        (
            idx.iter().map(|&i| tokens[i].clone()).collect(),
            idx.iter().map(|&i| y[i]).collect(),
        )
    };
    let (ttok, ty) = pick(&tr);
    let (vtok, vy) = pick(&va);
    let sub = Model::train(&ttok, &ty, labels.to_vec(), &[], &sub_cfg, tick)?;
    let scores = sub.score_batch(&vtok, tick)?;
    Ok(scut_thresholds(&scores, &vy, labels.len()))
}

#[cfg(test)]
mod tests;
