//! A document as plain text: a text file's headline and body, or a web page cleaned by DocView
//! (its title, body and formula 7-1 keywords [L2255–L2278]). The dedup, index and classifier
//! labs all read documents this way; this is the one place that turns files and pages into them.
//!
//! ```
//! use tianwang::engine::docview::plain::split_text;
//! assert_eq!(split_text("标题\n\n第一段。\n\n第二段。"), ("标题".into(), "第一段。\n\n第二段。".into()));
//! ```

use serde::{Deserialize, Serialize};

use super::Params;
use crate::engine::error::Result;
use crate::engine::text::encoding;

/// A document as plain text: what dedup compares, the index cuts into terms and the classifier
/// reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    /// The file name without extension, or the page URL.
    pub name: String,
    /// The first paragraph of a text file, or the page title.
    pub headline: String,
    /// Everything after the headline (paragraphs separated by blank lines).
    pub body: String,
    /// The site (host) the page came from, for CCDet's same-site pruning; empty when unknown.
    #[serde(default)]
    pub site: String,
    /// DocView's keywords with their formula 7-1 weights [L2255–L2278], when the page was
    /// cleaned by DocView (`weights = docview`).
    #[serde(default)]
    pub keywords: Vec<(String, f64)>,
}

impl Doc {
    pub fn new(name: &str, headline: &str, body: &str) -> Doc {
        Doc {
            name: name.into(),
            headline: headline.into(),
            body: body.into(),
            site: String::new(),
            keywords: Vec::new(),
        }
    }

    /// Headline, a blank line, body: what the text methods read.
    pub fn text(&self) -> String {
        if self.headline.is_empty() {
            self.body.clone()
        } else if self.body.is_empty() {
            self.headline.clone()
        } else {
            format!("{}\n\n{}", self.headline, self.body)
        }
    }
}

/// Headline (the first paragraph) and body (the rest) of a text file.
pub fn split_text(text: &str) -> (String, String) {
    let text = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
    let trimmed = text.trim();
    match trimmed.find("\n\n") {
        Some(i) => (
            trimmed[..i].trim().to_string(),
            trimmed[i..].trim().to_string(),
        ),
        None => match trimmed.find('\n') {
            // A file without blank lines: the first line is the headline.
            Some(i) => (
                trimmed[..i].trim().to_string(),
                trimmed[i..].trim().to_string(),
            ),
            None => (String::new(), trimmed.to_string()),
        },
    }
}

/// Decode a text file's bytes; `Err` names why (mostly replacement characters).
pub(crate) fn decode_text(bytes: &[u8]) -> std::result::Result<String, String> {
    if bytes.is_empty() {
        return Err("empty file".into());
    }
    let (d, text) =
        encoding::decide_and_decode(bytes, None, None, None).map_err(|e| e.to_string())?;
    // NUL bytes are no text in any encoding: a binary file, said so (it read as "0 of 50000
    // characters invalid as windows-1252").
    if bytes.contains(&0) {
        return Err("a binary file (it holds NUL bytes), not text".into());
    }
    let bad = text.chars().filter(|&c| c == '\u{FFFD}').count();
    let total = text.chars().count().max(1);
    if bad * 20 > total {
        return Err(format!(
            "cannot decode: {} of {} characters invalid as {}",
            bad,
            total,
            d.encoding_name()
        ));
    }
    Ok(text)
}

/// A page cleaned by DocView (or, with `clean = false`, all its visible text) as a Doc.
pub(crate) fn doc_from_html(
    name: &str,
    bytes: &[u8],
    url: Option<&str>,
    ct: Option<&str>,
    clean: bool,
) -> Result<Doc> {
    let params = Params::default();
    let v = super::extract(bytes, url, ct, None, &params)?;
    let site = url
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default();
    let body = if clean {
        v.body.clone()
    } else {
        v.blocks
            .iter()
            .map(|b| b.text.as_str())
            .filter(|t| !t.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    Ok(Doc {
        name: name.to_string(),
        headline: v.title.clone(),
        body,
        site,
        keywords: v
            .keywords
            .iter()
            .map(|k| (k.word.clone(), k.weight))
            .collect(),
    })
}

/// An HTTP response (a WARC `response` record's block: head and content) that holds an HTML
/// page, as DocView reads it.
pub(crate) struct ResponsePage {
    /// DocView's title, cleaned body and keywords, named by the URL.
    pub(crate) doc: Doc,
    /// The content, Content-Encoding undone.
    pub(crate) content: Vec<u8>,
    /// The head's Content-Type.
    pub(crate) content_type: Option<String>,
}

/// The page in an HTTP response `block` fetched from `url`, judged and cleaned exactly as a
/// workspace's stored page is (the same test of an HTML page, [`super::stored::html_response`],
/// then [`doc_from_html`]); None when it holds no HTML page or DocView cannot read it. The
/// dedup lab's WARC export and the index's WARC source both read WARC responses this way.
pub(crate) fn response_page(url: &str, block: &[u8]) -> Option<ResponsePage> {
    let (content, ct) = super::stored::html_response(block, None).ok()?;
    let doc = doc_from_html(url, &content, Some(url), ct.as_deref(), true).ok()?;
    Some(ResponsePage {
        doc,
        content,
        content_type: ct,
    })
}
