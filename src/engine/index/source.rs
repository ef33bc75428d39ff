//! What gets indexed: a corpus read into [`SourceDoc`]s, one per document, in docID order
//! (book §6.3 [L1719]: smaller IDs for pages crawled earlier, so postings come out sorted).
//!
//! Four sources of documents, as `tianwang index build` takes them:
//! - **a TSV** whose first column is the text (`doc` = the line number from 1; the title is
//!   the text itself, cut at 60 characters);
//! - **a folder** of `.txt` (first paragraph = title) and `.html` files (DocView's title and
//!   body; `doc` = the file stem);
//! - **the workspace's stored pages**: the latest snapshot of each HTML page, DocView's title
//!   and cleaned body (book §8.2.2 [L2712]: ads, navigation and templates stay out of the
//!   index; read from the cleaned pages the workspace keeps, `docview::stored`, when the page's
//!   latest snapshot was cleaned), the anchor text of its in-links, its URL's words, the external in-degree LHN
//!   (§10.3.2 [L3795–L3805]) and the crawl time (`doc` = the URL);
//! - **WARC files** ([`warc`]), streamed: each HTML response read as the workspace reads a
//!   stored page (DocView's title and body, the URL, the crawl time), without in-link anchors,
//!   LHN or links between documents (a stream cannot know them; `doc` = the URL).
//!
//! Each document keeps its raw HTML when it has one, so the builder can weigh terms by their
//! tags (Table 10-2 [L3749–L3764]).
//!
//! ```
//! use tianwang::engine::index::source::read_tsv_text;
//! let docs = read_tsv_text("天网 搜索引擎\t1\n北京大学\t2\n", "t.tsv").unwrap();
//! assert_eq!(docs[1].key, "2");
//! assert_eq!(docs[1].title, "北京大学"); // a short text is a title
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::store::Workspace;

pub(crate) mod warc;

/// Where the documents come from (the parameters of an index build).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The workspace's stored pages (the job's own workspace when `path` is None).
    Workspace { path: Option<PathBuf> },
    /// A folder of `.txt` / `.html` files.
    Dir { path: PathBuf },
    /// A TSV file whose first column is the text.
    Tsv { path: PathBuf },
    /// A folder holding `postings-input.parquet` and `postings-docs.parquet` (written by
    /// `export-parquet --what postings-input`, or by any job keeping that contract): the
    /// analysis already done, sorted on DataFusion or Spark (`index::on_engine`).
    Parquet { path: PathBuf },
    /// WARC files (plain, gzip per record or whole-file gzip), streamed in order ([`warc`]).
    Warc { paths: Vec<PathBuf> },
}

impl Source {
    /// What the source is, in a few words (for logs and the index's meta).
    pub fn describe(&self) -> String {
        match self {
            Source::Workspace { path } => match path {
                Some(p) => format!("workspace {}", p.display()),
                None => "workspace".into(),
            },
            Source::Dir { path } => format!("folder {}", path.display()),
            Source::Tsv { path } => format!("tsv {}", path.display()),
            Source::Parquet { path } => format!("postings-input {}", path.display()),
            Source::Warc { paths } => format!("warc {} files", paths.len()),
        }
    }

    /// The command-line flag that names this source (for errors about it).
    pub(crate) fn flag(&self) -> &'static str {
        match self {
            Source::Workspace { .. } => "--workspace",
            Source::Dir { .. } => "--dir",
            Source::Tsv { .. } => "--tsv",
            Source::Parquet { .. } => "--postings-input",
            Source::Warc { .. } => "--warc",
        }
    }
}

/// One document to index.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SourceDoc {
    /// The document's name in results: TSV line number, file stem or URL.
    pub key: String,
    pub title: String,
    /// The URL of a page (empty for files).
    pub url: String,
    /// The indexable text after the title.
    pub body: String,
    /// Anchor text of the page's in-links, one entry per link.
    pub anchors: Vec<String>,
    /// The raw HTML, decoded, when the document is a page (for tag weights).
    pub html: Option<String>,
    /// External in-degree (links from other hosts), for WL [L3805].
    pub lhn: u32,
    /// All in-links, for comparison ("raw LHN").
    pub raw_lhn: u32,
    /// When the page was crawled (RFC 3339), for the snapshot banner.
    pub crawled_at: Option<String>,
    /// Documents of the same source this one links to (by position in the source), once each.
    pub out_docs: Vec<u32>,
}

/// Read a TSV's first column: one document a line, `key` = line number from 1. Empty lines
/// are documents with no text (so line numbers stay document keys); a file that is not UTF-8
/// is refused naming the line.
pub fn read_tsv(path: &Path) -> Result<Vec<SourceDoc>> {
    let bytes = std::fs::read(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
    let name = path.display().to_string();
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(EngineError::bad_line(&name, line, "error.not_utf8", &[]));
        }
    };
    read_tsv_text(&text, &name)
}

/// [`read_tsv`] on text already read.
pub fn read_tsv_text(text: &str, _name: &str) -> Result<Vec<SourceDoc>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, line)| tsv_doc(i + 1, line.split('\t').next().unwrap_or("").trim()))
        .collect())
}

/// A TSV line's document: a short text (≤ 60 characters, a title) is the title; a longer
/// one is the body (the result list shows its first 60 characters).
pub(crate) fn tsv_doc(line: usize, text: &str) -> SourceDoc {
    let short = text.chars().count() <= 60;
    SourceDoc {
        key: line.to_string(),
        title: if short {
            text.to_string()
        } else {
            String::new()
        },
        body: if short {
            String::new()
        } else {
            text.to_string()
        },
        ..SourceDoc::default()
    }
}

/// The `.txt` and `.html`/`.htm` files of `dir` (not recursive), in natural name order. A
/// missing folder or one without such files is the user's error.
pub(crate) fn list_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| EngineError::path_os(dir.to_path_buf(), e))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| matches!(x.to_ascii_lowercase().as_str(), "txt" | "html" | "htm"))
        })
        .collect();
    files.sort_by(|a, b| {
        crate::engine::inspect::natural_cmp(&a.to_string_lossy(), &b.to_string_lossy())
    });
    if files.is_empty() {
        return Err(EngineError::path_flaw(
            dir.to_path_buf(),
            Flaw::new("flaw.path_no_txt_html_file", &[]),
        ));
    }
    Ok(files)
}

/// Read `files` in parallel: the documents in order, and `file: reason` for each that could
/// not be read or decoded.
pub(crate) fn read_files(files: &[PathBuf]) -> (Vec<SourceDoc>, Vec<String>) {
    let read: Vec<std::result::Result<SourceDoc, String>> =
        files.par_iter().map(|p| read_file(p)).collect();
    let mut docs = Vec::new();
    let mut errors = Vec::new();
    for r in read {
        match r {
            Ok(d) => docs.push(d),
            Err(e) => errors.push(e),
        }
    }
    (docs, errors)
}

fn read_file(p: &Path) -> std::result::Result<SourceDoc, String> {
    let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    // (A name that is not UTF-8 keeps its identity: `n�` twice became one key.)
    let (stem, _) = crate::engine::text::file_key(p);
    let is_html = p
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| x.eq_ignore_ascii_case("html") || x.eq_ignore_ascii_case("htm"));
    if is_html {
        let (doc, html) =
            page_doc(&stem, &bytes, None, None).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(SourceDoc {
            key: stem,
            title: doc.0,
            body: doc.1,
            html: Some(html),
            ..SourceDoc::default()
        })
    } else {
        let text = crate::engine::docview::plain::decode_text(&bytes)
            .map_err(|e| format!("{}: {e}", p.display()))?;
        let (title, body) = crate::engine::docview::plain::split_text(&text);
        Ok(SourceDoc {
            key: stem,
            title,
            body,
            ..SourceDoc::default()
        })
    }
}

/// DocView's (title, body) of a page, and the page decoded to text.
fn page_doc(
    name: &str,
    bytes: &[u8],
    url: Option<&str>,
    ct: Option<&str>,
) -> Result<((String, String), String)> {
    let d = crate::engine::docview::plain::doc_from_html(name, bytes, url, ct, true)?;
    let (_, text) = crate::engine::text::encoding::decide_and_decode(bytes, ct, None, None)
        .map_err(|e| EngineError::invalid("--encoding", e.to_string()))?;
    let _ = url;
    Ok(((d.headline, d.body), text))
}

/// A page's bytes decoded to text.
fn decoded(bytes: &[u8], ct: Option<&str>) -> Result<String> {
    let (_, text) = crate::engine::text::encoding::decide_and_decode(bytes, ct, None, None)
        .map_err(|e| EngineError::invalid("--encoding", e.to_string()))?;
    Ok(text)
}

/// The workspace's stored pages: the latest HTML snapshot of each page, in crawl order (page
/// id), with in-link anchor text, LHN and crawl time. Pages that are not HTML or do not parse
/// are left out.
pub(crate) fn read_workspace(ws: &Workspace) -> Result<Vec<SourceDoc>> {
    let c = ws.conn();
    let pages: Vec<(i64, String, Option<String>)> = c
        .prepare(
            "SELECT p.id, p.url, (SELECT s.fetched_at FROM snapshots s WHERE s.page_id = p.id
                                  ORDER BY s.id DESC LIMIT 1)
             FROM pages p ORDER BY p.id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<std::result::Result<_, _>>()?;
    let mut raw = Vec::with_capacity(pages.len());
    for (_, url, at) in &pages {
        if let Some((bytes, ct)) = crate::engine::inspect::latest_content(ws, url)? {
            let html = ct.as_deref().is_none_or(|c| c.contains("html"));
            if html && !bytes.is_empty() {
                raw.push((url.clone(), bytes, ct, at.clone()));
            }
        }
    }
    // Pages DocView cleaned and kept (the pipeline's `clean` stage) are not cleaned again: only
    // decoded, for the tag weights and the in-link anchors.
    let cleaned: HashMap<String, (String, String)> = crate::engine::docview::stored::load(ws)?
        .into_iter()
        .map(|c| (c.url, (c.title, c.body)))
        .collect();
    type Parsed = Option<(SourceDoc, Vec<(String, String)>)>;
    let parsed: Vec<Parsed> = raw
        .par_iter()
        .map(|(url, bytes, ct, at)| {
            let ((title, body), html) = match cleaned.get(url) {
                Some(tb) => (tb.clone(), decoded(bytes, ct.as_deref()).ok()?),
                None => page_doc(url, bytes, Some(url), ct.as_deref()).ok()?,
            };
            let anchors = out_anchors(&html, url);
            Some((
                SourceDoc {
                    key: url.clone(),
                    title,
                    url: url.clone(),
                    body,
                    html: Some(html),
                    crawled_at: at.clone(),
                    ..SourceDoc::default()
                },
                anchors,
            ))
        })
        .collect();
    let mut docs = Vec::with_capacity(parsed.len());
    let mut out_links = Vec::with_capacity(parsed.len());
    for (d, a) in parsed.into_iter().flatten() {
        out_links.push(a);
        docs.push(d);
    }
    let by_url: HashMap<String, usize> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.url.clone(), i))
        .collect();
    for (i, links) in out_links.iter().enumerate() {
        let from_host = host(&docs[i].url);
        let mut seen = std::collections::HashSet::new();
        for (to, text) in links {
            let Some(&j) = by_url.get(to) else { continue };
            if j == i {
                continue;
            }
            if !text.trim().is_empty() {
                docs[j].anchors.push(text.trim().to_string());
            }
            if seen.insert(j) {
                docs[i].out_docs.push(j as u32);
                docs[j].raw_lhn += 1;
                if host(to) != from_host {
                    docs[j].lhn += 1;
                }
            }
        }
    }
    Ok(docs)
}

fn host(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default()
}

/// `(absolute target URL without fragment, anchor text)` of every `<a href>` of a page.
pub(crate) fn out_anchors(html: &str, base: &str) -> Vec<(String, String)> {
    let Ok(base) = url::Url::parse(base) else {
        return Vec::new();
    };
    let doc = scraper::Html::parse_document(html);
    let Ok(sel) = scraper::Selector::parse("a[href]") else {
        return Vec::new();
    };
    doc.select(&sel)
        .filter_map(|a| {
            let href = a.value().attr("href")?;
            let mut u = base.join(href.trim()).ok()?;
            u.set_fragment(None);
            let text: String = a.text().collect::<Vec<_>>().join(" ");
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            Some((u.to_string(), text))
        })
        .collect()
}

/// The terms of a URL's host and path (letters and digits runs), for the URL field.
pub(crate) fn url_words(url: &str) -> String {
    let Ok(u) = url::Url::parse(url) else {
        return String::new();
    };
    let mut s = String::new();
    s.push_str(u.host_str().unwrap_or(""));
    s.push(' ');
    s.push_str(u.path());
    s.chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_keys_are_line_numbers() {
        let d = read_tsv_text("a b\t1\n\nc\t2", "x").unwrap();
        assert_eq!(d.len(), 3);
        assert_eq!(d[2].key, "3");
        assert_eq!(d[1].title, "");
    }

    #[test]
    fn anchors_resolve_against_the_base() {
        let a = out_anchors(
            r#"<a href="/b.html#x">北京 大学</a><a href="http://o.example/">o</a>"#,
            "http://a.example/dir/a.html",
        );
        assert_eq!(a[0], ("http://a.example/b.html".into(), "北京 大学".into()));
        assert_eq!(a[1].0, "http://o.example/");
    }

    #[test]
    fn url_words_split_host_and_path() {
        assert_eq!(
            url_words("http://news.pku.example/2004/index.html")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["news", "pku", "example", "2004", "index", "html"]
        );
    }
}
