//! Classifying web pages: the sample web's categorised articles as a ready corpus (each topic
//! page's headline and body, its channel category as the label: 体育 财经 科技 教育 文化 健康
//! 汽车 旅游), and a stored model applied to a page in the workspace — the page inspector's
//! "what is this page about, and why" (book ch. 11 [L3996–L4411]: the classifier runs on the
//! DocView body, ch. 7 [L2185–L2210]).
//!
//! ```
//! use tianwang::engine::classify::pages::sample_web_corpus;
//! let c = sample_web_corpus().unwrap();
//! assert!(c.docs.len() > 100);
//! assert!(c.docs.iter().all(|d| !d.label.is_empty()));
//! ```

use serde::{Deserialize, Serialize};

use super::corpus::{Corpus, Doc};
use super::explain::Explanation;
use super::persist;
use super::tokenize::{JiebaTokenizer, Tokenizer};
use crate::engine::error::{EngineError, Result};
use crate::engine::store::Workspace;

/// The sample web's topic pages with a category, as a labelled corpus (URL as the location).
pub fn sample_web_corpus() -> Result<Corpus> {
    let web = crate::engine::sample::web::SampleWeb::shared(false)?;
    let docs = web
        .truth
        .pages
        .iter()
        .filter(|p| p.page_type == "topic" && !p.category.is_empty() && !p.body.is_empty())
        .map(|p| Doc {
            text: format!("{}\n{}", p.title, p.body),
            label: p
                .category
                .chars()
                .map(crate::engine::text::t2s::to_simplified)
                .collect(),
            location: p.url.clone(),
        })
        .collect();
    Ok(Corpus {
        docs,
        class_names: None,
        skipped: Vec::new(),
    })
}

/// A stored page classified by a stored model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PagePrediction {
    pub url: String,
    pub model_id: i64,
    pub model: String,
    /// The page's DocView title, and how many characters of title and body were classified.
    pub title: String,
    pub chars: usize,
    pub explanation: Explanation,
}

/// Classify the latest snapshot of `url` (its DocView title and body) with model `model_id`,
/// explaining with the `top` features that decided.
pub(crate) fn predict_page(
    ws: &Workspace,
    model_id: i64,
    url: &str,
    top: usize,
) -> Result<PagePrediction> {
    let model = persist::load(ws.conn(), model_id)?;
    let (bytes, ct) = crate::engine::inspect::latest_content(ws, url)?
        .ok_or_else(|| EngineError::invalid("--url", format!("no stored page {url}")))?;
    let doc =
        crate::engine::docview::plain::doc_from_html(url, &bytes, Some(url), ct.as_deref(), true)
            .map_err(|e| EngineError::invalid("--url", format!("{url}: {e}")))?;
    let text = format!("{}\n{}", doc.headline, doc.body);
    let tok = JiebaTokenizer::new(model.config.tokens.clone());
    let explanation = model.explain(&tok.tokens(&text), top);
    Ok(PagePrediction {
        url: url.to_string(),
        model_id,
        model: model.config.model.name().to_string(),
        title: doc.headline,
        chars: text.chars().count(),
        explanation,
    })
}
