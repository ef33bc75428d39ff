//! The classifier lab (book ch. 11, "Automatic classification of Chinese web pages"
//! [L3996–L4411]): corpora → tokens → feature selection (DF, IG, MI, CHI) → weighting →
//! kNN / Naive Bayes / Rocchio / decision tree / linear SVM → thresholding (RCut, PCut, SCut)
//! → metrics (accuracy, per-class P/R/F1, micro/macro F1, confusion matrix, times), with
//! explanations per prediction and models persisted in the workspace.
//!
//! Modules, one idea each: [`corpus`] (readers), [`tokenize`], [`features`] (vocabulary,
//! weighting), [`select`] (feature selection), [`knn`], [`hier`] (hierarchical kNN), [`nb`], [`rocchio`], [`tree`],
//! [`linear`], [`threshold`], [`metrics`], [`explain`], [`pipeline`] (the trained [`Model`]),
//! [`experiment`] (train/test runs and sweeps), [`persist`] (SQLite).
//!
//! Flat classification for every model; kNN also runs hierarchically ([`hier`], the book's
//! parent-class pruning, Table 11-4 [L4300–L4315]).
//!
//! ```no_run
//! use tianwang::engine::classify::{corpus, experiment, pipeline, tokenize};
//! let dir = tianwang::engine::data::DataDir::resolve(None)?.require("thucnews_titles")?;
//! let train = corpus::read_tsv(&dir.join("dev.txt"), false)?;
//! let test = corpus::read_tsv(&dir.join("test.txt"), false)?;
//! let cfg = pipeline::PipelineConfig::for_model(pipeline::ModelConfig::Knn(Default::default()));
//! let r = experiment::run(&train, &test, &cfg, &tokenize::JiebaTokenizer::new(cfg.tokens.clone()), &())?;
//! println!("accuracy {:.3}", r.accuracy);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod corpus;
pub mod experiment;
pub mod explain;
pub mod features;
pub mod hier;
pub mod job;
pub mod knn;
pub mod linear;
pub mod metrics;
pub mod nb;
pub mod pages;
pub mod persist;
pub mod pipeline;
pub mod rocchio;
pub mod select;
pub mod stored;
pub mod threshold;
pub mod tokenize;
pub mod tree;

pub use pipeline::{Model, ModelConfig, PipelineConfig};
