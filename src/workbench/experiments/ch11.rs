//! Chapter 11's classifier experiments [L4049–L4366] on the THUCNews titles (the book's pages
//! are not available): Table 11-2 (kNN against the book's naive Bayes) and Table 11-5 (RCut
//! against SCut thresholds). The corpus differs, so `ok` is the book's shape — kNN far ahead of
//! its naive Bayes, SCut at least as good as RCut — with the book's numbers beside ours.
//!
//! ```no_run
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::resolve(None)?;
//! let r = run_one(find("table-11-2").unwrap(), &data, &Cache::default(), &());
//! println!("{:?}", r.rows);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::sync::Arc;

use super::{Ctx, Experiment, Row};
use crate::engine::classify::corpus::{Corpus, read_tsv};
use crate::engine::classify::experiment::{Prepared, RunResult, prepare, run_prepared};
use crate::engine::classify::knn::KnnConfig;
use crate::engine::classify::nb::{NbConfig, NbKind};
use crate::engine::classify::pipeline::{ModelConfig, PipelineConfig};
use crate::engine::classify::threshold::Threshold;
use crate::engine::classify::tokenize::JiebaTokenizer;
use crate::engine::error::Result;

const SET: &str = "thucnews_titles";

pub(super) static ALL: &[Experiment] = &[
    Experiment {
        id: "table-11-2",
        title: "Table 11-2: kNN against naive Bayes (micro and macro F1)",
        chapter: 11,
        book_ref: "[L4250]",
        panel: "Classify",
        needs: &[SET],
        run: table_11_2,
    },
    Experiment {
        id: "table-11-5",
        title: "Table 11-5: RCut against SCut thresholds for kNN",
        chapter: 11,
        book_ref: "[L4335]",
        panel: "Classify",
        needs: &[SET],
        run: table_11_5,
    },
];

fn corpora(cx: &Ctx<'_>) -> Result<Arc<(Corpus, Corpus)>> {
    let dir = cx.set(SET)?;
    cx.cache.get("thucnews", || {
        Ok((
            read_tsv(&dir.join("dev.txt"), false)?,
            read_tsv(&dir.join("test.txt"), false)?,
        ))
    })
}

fn knn(threshold: Threshold) -> PipelineConfig {
    let mut c = PipelineConfig::for_model(ModelConfig::Knn(KnnConfig {
        k: 15,
        ..KnnConfig::default()
    }));
    c.threshold = threshold;
    c
}

/// Train on dev, test on test; the titles are tokenised once per batch for kNN's tokens (the
/// other configurations tokenise their own way).
fn train(cx: &Ctx<'_>, cfg: &PipelineConfig) -> Result<RunResult> {
    let c = corpora(cx)?;
    let tokens = knn(Threshold::None).tokens;
    let tok = |t| JiebaTokenizer::new(t);
    let p: Arc<Prepared> = if cfg.tokens == tokens {
        cx.cache
            .get("thucnews-knn-tokens", || prepare(&c.0, &c.1, &tok(tokens)))?
    } else {
        Arc::new(prepare(&c.0, &c.1, &tok(cfg.tokens.clone()))?)
    };
    Ok(run_prepared(&p, cfg, cx.tick)?.0)
}

fn table_11_2(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let k = train(cx, &knn(Threshold::None))?;
    let nb = train(
        cx,
        &PipelineConfig::for_model(ModelConfig::Nb(NbConfig::new(NbKind::Multinomial, "book")?)),
    )?;
    let ahead = k.micro_f1 > nb.micro_f1 + 0.2;
    let note = "kNN far ahead of the book's naive Bayes";
    Ok(vec![
        Row::shape("kNN micro-F1", k.micro_f1, 0.8266, "", ahead, note),
        Row::shape("kNN macro-F1", k.macro_f1_book, 0.7560, "", ahead, note),
        Row::shape("NB micro-F1", nb.micro_f1, 0.1934, "", ahead, note),
        Row::shape("NB macro-F1", nb.macro_f1_book, 0.1612, "", ahead, note),
    ])
}

fn table_11_5(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let r = train(cx, &knn(Threshold::RCut { k: 1 }))?;
    let s = train(cx, &knn(Threshold::SCut { validation: 0.2 }))?;
    let ok = s.macro_f1_book + 0.01 >= r.macro_f1_book;
    let note = "SCut at least as good as RCut (macro-F1, within 0.01)";
    Ok(vec![
        Row::shape("RCut micro-F1", r.micro_f1, 0.8266, "", ok, note),
        Row::shape("RCut macro-F1", r.macro_f1_book, 0.7600, "", ok, note),
        Row::shape("SCut micro-F1", s.micro_f1, 0.8401, "", ok, note),
        Row::shape("SCut macro-F1", s.macro_f1_book, 0.7849, "", ok, note),
    ])
}
