//! Where a dedup corpus comes from: a folder of `NAME.txt` (any encoding the text pipeline
//! detects; the first paragraph is the headline) or `NAME.html` (cleaned by DocView first, or
//! taken raw for the Table 7-2 experiment [L2452–L2494]), the workspace's stored pages, or the
//! sample web with its ground truth. Files are read in name order, so results never depend on
//! the order a directory lists them in; a file that cannot be read or decoded is reported and
//! the others are kept.
//!
//! ```no_run
//! use tianwang::engine::dedup::corpus::{Input, load_dir};
//! let c = load_dir("reprints".as_ref(), Input::Auto, true)?;
//! println!("{} documents, {} unreadable", c.docs.len(), c.errors.len());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::Doc;
use super::eval::Truth;
use crate::engine::docview::plain::{decode_text, doc_from_html, split_text};
use crate::engine::error::{EngineError, Flaw, Result};

/// How a folder's files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// `.txt` (and `.html` read by DocView) — whatever the folder holds.
    Auto,
    Text,
    Html,
}

impl Input {
    pub fn parse(s: &str) -> Result<Input> {
        match s {
            "auto" => Ok(Input::Auto),
            "text" | "txt" => Ok(Input::Text),
            "html" => Ok(Input::Html),
            _ => Err(EngineError::invalid(
                "input",
                format!("`{s}`: text or html"),
            )),
        }
    }
}

/// A loaded corpus: documents, optional truth, and the files that could not be used.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Corpus {
    pub source: String,
    pub docs: Vec<Doc>,
    #[serde(skip)]
    pub truth: Option<Truth>,
    pub errors: Vec<FileError>,
    /// What the reader changed and says (a file name that is not UTF-8 and its key).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileError {
    pub file: String,
    pub reason: String,
}

/// Load every `NAME.txt` / `NAME.html` of `dir`. A missing or empty folder is an error; a bad
/// file is listed in `errors` and skipped.
pub fn load_dir(dir: &Path, input: Input, clean: bool) -> Result<Corpus> {
    let rd = std::fs::read_dir(dir).map_err(|e| EngineError::path_os(dir.to_path_buf(), e))?;
    let mut files: Vec<(String, std::path::PathBuf, bool)> = Vec::new();
    let mut notes = Vec::new();
    let mut broken = Vec::new();
    for entry in rd.flatten() {
        let path = entry.path();
        if !path.is_file() {
            // A link whose target is gone is a file the user meant: say so (it was skipped
            // without a word).
            if path.is_symlink() && !path.exists() {
                broken.push(FileError {
                    file: path.display().to_string(),
                    reason: "a broken link: its target does not exist".into(),
                });
            }
            continue;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let html = matches!(ext.as_str(), "html" | "htm");
        let wanted = match input {
            Input::Auto => html || ext == "txt",
            Input::Text => ext == "txt",
            Input::Html => html,
        };
        if wanted {
            let (name, lossy) = crate::engine::text::file_key(&path);
            if lossy {
                notes.push(format!(
                    "{}: the name is not UTF-8; its document is called `{name}`",
                    path.display()
                ));
            }
            files.push((name, path, html));
        }
    }
    if files.is_empty() {
        return Err(EngineError::path_flaw(
            dir.to_path_buf(),
            Flaw::new(
                match input {
                    Input::Html => "flaw.path_no_html",
                    Input::Text => "flaw.path_no_txt",
                    Input::Auto => "flaw.path_no_txt_html",
                },
                &[],
            ),
        ));
    }
    files.sort();
    let loaded: Vec<std::result::Result<Doc, FileError>> = files
        .par_iter()
        .map(|(name, path, html)| {
            let fail = |reason: String| FileError {
                file: path.display().to_string(),
                reason,
            };
            let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
            if *html {
                if bytes.is_empty() {
                    return Err(fail("empty file".into()));
                }
                doc_from_html(name, &bytes, None, None, clean).map_err(|e| fail(e.to_string()))
            } else {
                let text = decode_text(&bytes).map_err(fail)?;
                let (headline, body) = split_text(&text);
                Ok(Doc::new(name, &headline, &body))
            }
        })
        .collect();
    let mut corpus = Corpus {
        source: dir.display().to_string(),
        truth: read_truth(dir)?,
        errors: broken,
        notes,
        ..Corpus::default()
    };
    for r in loaded {
        match r {
            Ok(d) => corpus.docs.push(d),
            Err(e) => corpus.errors.push(e),
        }
    }
    Ok(corpus)
}

/// `DIR/truth.json`, when present (the development set writes one): `{"near": [[a, b], …],
/// "contains": [[container, part], …]}` by file name without extension.
pub fn read_truth(dir: &Path) -> Result<Option<Truth>> {
    let p = dir.join("truth.json");
    let Ok(bytes) = std::fs::read(&p) else {
        return Ok(None);
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| EngineError::bad_line(p.display(), e.line(), "error.bad_json", &[&e]))?;
    let mut t = Truth::default();
    for key in ["near", "contains"] {
        for pair in v[key].as_array().into_iter().flatten() {
            match (pair[0].as_str(), pair[1].as_str()) {
                (Some(a), Some(b)) => t.add(a, b, key),
                _ => {
                    return Err(EngineError::bad_line(
                        p.display(),
                        1,
                        "error.truth_pair",
                        &[&key],
                    ));
                }
            }
        }
    }
    Ok(Some(t))
}

/// The sample web's article pages cleaned by DocView (or raw), with its duplicate truth.
pub fn sample_web(clean: bool) -> Result<Corpus> {
    let web = crate::engine::sample::web::SampleWeb::shared(false)?;
    let t = &web.truth;
    let pages: Vec<&crate::engine::sample::web::TruthPage> =
        t.pages.iter().filter(|p| p.page_type != "hub").collect();
    let docs: Vec<Option<Doc>> = pages
        .par_iter()
        .map(|p| {
            let r = web.at(&p.url)?;
            let ct = r.content_type.as_deref().unwrap_or("text/html");
            if r.status != 200 || !ct.contains("html") {
                return None;
            }
            doc_from_html(&p.url, &r.body, Some(&p.url), Some(ct), clean).ok()
        })
        .collect();
    let docs: Vec<Doc> = docs.into_iter().flatten().collect();
    // Truth between the pages in the corpus (mirrors of hub pages are not dedup's business).
    let inside: std::collections::HashSet<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    let mut truth = Truth::default();
    for r in &t.relations {
        if inside.contains(r.a.as_str()) && inside.contains(r.b.as_str()) {
            truth.add(&r.a, &r.b, &r.kind);
        }
    }
    Ok(Corpus {
        source: "sample web".into(),
        docs,
        truth: Some(truth),
        errors: Vec::new(),
        notes: Vec::new(),
    })
}

/// The workspace's stored HTML pages (latest snapshot each), cleaned by DocView or raw.
pub fn workspace(ws: &crate::engine::store::Workspace, clean: bool) -> Result<Corpus> {
    let urls: Vec<String> = ws
        .conn()
        .prepare("SELECT url FROM pages ORDER BY url")?
        .query_map([], |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    let mut raw = Vec::new();
    for u in &urls {
        if let Some((bytes, ct)) = crate::engine::inspect::latest_content(ws, u)? {
            let html = ct.as_deref().is_none_or(|c| c.contains("html"));
            if html && !bytes.is_empty() {
                raw.push((u.clone(), bytes, ct));
            }
        }
    }
    let docs: Vec<Doc> = raw
        .par_iter()
        .filter_map(|(u, b, ct)| doc_from_html(u, b, Some(u), ct.as_deref(), clean).ok())
        .collect();
    Ok(Corpus {
        source: ws.path().display().to_string(),
        docs,
        truth: None,
        errors: Vec::new(),
        notes: Vec::new(),
    })
}

/// A `pages` Parquet file of the big jobs' contract as a dedup corpus (feature `bigjobs`;
/// without it, the user's bad input naming `--parquet`).
pub(crate) fn read_pages_corpus(path: &Path) -> Result<Corpus> {
    #[cfg(feature = "bigjobs")]
    {
        Ok(Corpus {
            source: path.display().to_string(),
            docs: super::on_engine::read_pages(path)?,
            truth: None,
            errors: Vec::new(),
            notes: Vec::new(),
        })
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        Err(EngineError::invalid(
            "--parquet",
            format!(
                "{}: reading Parquet needs a build with the `bigjobs` feature",
                path.display()
            ),
        ))
    }
}
