//! Every page's category by a stored model, kept in the workspace (table `page_categories`,
//! schema v11): the pipeline's optional `classify` stage runs a model of `classify_models` over
//! the pages DocView cleaned and kept (ch. 11's purpose [L3996–L4030]: pages sorted into a
//! directory so users can browse by category; ch. 11.5 [L4387]: the offline classifier's model
//! used online), and search results carry the category and filter on it.
//!
//! ```no_run
//! use tianwang::engine::classify::stored;
//! use tianwang::engine::store::Workspace;
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let out = stored::classify_pages(&ws, 1, None, &())?;
//! for (cat, n) in &out.by_category {
//!     println!("{cat}: {n}");
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use rayon::prelude::*;
use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::persist;
use super::tokenize::{JiebaTokenizer, Tokenizer};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::{JobContext, Tick, TypedJob};
use crate::engine::store::Workspace;

/// What classifying the pages did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassifyOutcome {
    pub model_id: i64,
    pub model: String,
    /// Cleaned pages classified.
    pub classified: u64,
    /// Pages per category.
    pub by_category: BTreeMap<String, u64>,
    pub seconds: f64,
}

/// The stored model a name or an id names: a number is an id, anything else the newest model
/// of that name (the user's bad input naming `--classify` when none).
pub(crate) fn resolve_model(ws: &Workspace, model: &str) -> Result<i64> {
    let rows = persist::list(ws.conn())?;
    if let Ok(id) = model.trim().parse::<i64>()
        && rows.iter().any(|r| r.id == id)
    {
        return Ok(id);
    }
    rows.iter()
        .rev()
        .find(|r| r.name == model.trim())
        .map(|r| r.id)
        .ok_or_else(|| {
            let known: Vec<String> = rows
                .iter()
                .map(|r| format!("{} {}", r.id, r.name))
                .collect();
            EngineError::invalid(
                "--classify",
                format!(
                    "no stored model `{model}` in this workspace (stored: {}); train one with \
                     `tianwang classify --sample-web --save NAME`",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            )
        })
}

/// Classify every cleaned page with model `model_id` and keep the categories (replacing the
/// ones kept before); `job_id` is recorded on each row.
pub fn classify_pages(
    ws: &Workspace,
    model_id: i64,
    job_id: Option<i64>,
    tick: &dyn Tick,
) -> Result<ClassifyOutcome> {
    let t0 = Instant::now();
    tick.tick(0.0, "loading the model")?;
    let model = persist::load(ws.conn(), model_id)?;
    let pages = crate::engine::docview::stored::load(ws)?;
    let tok = JiebaTokenizer::new(model.config.tokens.clone());
    let mut rows: Vec<(i64, i64, String, f64)> = Vec::with_capacity(pages.len());
    for (k, chunk) in pages.chunks(64).enumerate() {
        tick.tick(
            0.05 + 0.85 * (k * 64) as f32 / pages.len().max(1) as f32,
            "classifying the pages",
        )?;
        let part: Vec<(i64, i64, String, f64)> = chunk
            .par_iter()
            .filter_map(|p| {
                let text = format!("{}\n{}", p.title, p.body);
                if text.trim().is_empty() {
                    return None;
                }
                let (assigned, scores) = model.predict(&tok.tokens(&text));
                let best = assigned.first().copied().or_else(|| {
                    scores
                        .iter()
                        .enumerate()
                        .max_by(|a, b| a.1.total_cmp(b.1))
                        .map(|(i, _)| i)
                })?;
                let label = model.labels.get(best)?.clone();
                Some((p.page_id, p.snapshot_id, label, scores[best]))
            })
            .collect();
        rows.extend(part);
    }
    tick.tick(0.95, "keeping the categories")?;
    let tx = ws.conn().unchecked_transaction()?;
    tx.execute("DELETE FROM page_categories", [])?;
    let mut by_category = BTreeMap::new();
    {
        let mut ins = tx.prepare(
            "INSERT INTO page_categories (page_id, snapshot_id, model_id, category, score, job_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (page, snap, label, score) in &rows {
            let score = if score.is_finite() { *score } else { 0.0 };
            ins.execute(params![page, snap, model_id, label, score, job_id])?;
            *by_category.entry(label.clone()).or_insert(0u64) += 1;
        }
    }
    tx.commit()?;
    Ok(ClassifyOutcome {
        model_id,
        model: model.config.model.name().to_string(),
        classified: rows.len() as u64,
        by_category,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Every kept category as `(url, category)`, in page order.
pub fn load(ws: &Workspace) -> Result<Vec<(String, String)>> {
    let mut st = ws.conn().prepare(
        "SELECT p.url, c.category FROM page_categories c JOIN pages p ON p.id = c.page_id
         ORDER BY p.id",
    )?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The `classify-pages` job's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClassifyPagesParams {
    /// The stored model (`classify_models.id`).
    pub model_id: i64,
}

/// The `classify-pages` job: a stored model over every cleaned page, the categories kept (the
/// pipeline's `classify` stage; the Classify panel re-opens it).
pub(crate) struct ClassifyPagesJob {
    params: ClassifyPagesParams,
}

impl TypedJob for ClassifyPagesJob {
    const KIND: &'static str = "classify-pages";
    type Params = ClassifyPagesParams;
    type Output = ClassifyOutcome;

    fn from_params(params: ClassifyPagesParams) -> Result<Self> {
        if params.model_id <= 0 {
            return Err(EngineError::invalid("--classify", "a model id is positive"));
        }
        Ok(ClassifyPagesJob { params })
    }

    fn params(&self) -> ClassifyPagesParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<ClassifyOutcome> {
        let ws = Workspace::open_existing(cx.workspace_path())?;
        let out = classify_pages(&ws, self.params.model_id, cx.job_id(), cx)?;
        cx.counter("classified", out.classified as f64);
        Ok(out)
    }
}
