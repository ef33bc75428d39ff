//! The article-extraction benchmark (Zyte's `scrapinghub/article-extraction-benchmark`, data
//! set `aeb`): 181 English news pages DocView was never tuned on, each with a hand-made article
//! body — the cleaner's out-of-domain check beside ccwe.
//!
//! The set's folder is the upstream tree as published: `html/NAME.html.gz` (gzip, UTF-8; NAME
//! is the SHA-256 of the page's URL, 64 hex digits) and `ground-truth.json`
//! (`{"NAME": {"articleBody": "...", "url": "..."}}`). [`read`] gives the pages as
//! (name, HTML bytes, truth body), every page gunzipped under a cap
//! ([`MAX_PAGE_MB`]: a damaged or hostile `.gz` never allocates more), and a page without a truth
//! entry or a `.gz` that does not inflate is an error naming the file.
//!
//! **The split is fixed**: the *tune* half is the pages whose name starts with a hex digit
//! 0–7 (88 pages upstream), the *check* half those starting 8–f (93 pages). Tune DocView on
//! the tune half and report the check half, which stays unseen.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Result};

/// The set's truth file, in its folder.
pub(crate) const TRUTH_FILE: &str = "ground-truth.json";
/// The set's pages, in its folder.
pub(crate) const HTML_DIR: &str = "html";
/// A page inflates to at most this many MB (the largest upstream page is 1.5 MB).
pub(crate) const MAX_PAGE_MB: u64 = 32;
/// The truth file is at most this many MB (upstream: 0.9 MB).
pub(crate) const MAX_TRUTH_MB: u64 = 64;

/// Which pages of the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Half {
    /// Every page.
    #[default]
    All,
    /// Names starting 0–7: the pages to tune on.
    Tune,
    /// Names starting 8–f: the pages to report.
    Check,
}

impl Half {
    /// Is the page called `name` in this half?
    pub(crate) fn holds(self, name: &str) -> bool {
        match self {
            Half::All => true,
            Half::Tune => !is_check(name),
            Half::Check => is_check(name),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Half::All => "all",
            Half::Tune => "tune",
            Half::Check => "check",
        }
    }
}

/// Is the page called `name` in the check half (first hex digit 8–f)? Any other name is in the
/// tune half, so the check half holds only pages that were never tuned on.
pub(crate) fn is_check(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.to_digit(16).is_some_and(|d| d >= 8))
}

/// One page of the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AebPage {
    /// The file's name without `.html.gz` (the upstream key).
    pub name: String,
    /// The `.html.gz` file.
    pub path: PathBuf,
    /// The page as published (gunzipped; UTF-8).
    pub html: Vec<u8>,
    /// The hand-made article body.
    pub truth: String,
    /// The page's address, as the truth file gives it.
    pub url: Option<String>,
}

/// One entry of `ground-truth.json`.
#[derive(Debug, Deserialize)]
struct Truth {
    #[serde(rename = "articleBody")]
    article_body: String,
    url: Option<String>,
}

/// Read at most `cap_mb` MB from `r`; more is the flaw `too_big` on `path`.
fn read_capped(
    r: impl Read,
    cap_mb: u64,
    path: &Path,
    too_big: &'static str,
    on_error: impl Fn(std::io::Error) -> EngineError,
) -> Result<Vec<u8>> {
    let cap = cap_mb << 20;
    let mut out = Vec::new();
    r.take(cap + 1).read_to_end(&mut out).map_err(on_error)?;
    if out.len() as u64 > cap {
        return Err(EngineError::corrupt(path, Flaw::new(too_big, &[&cap_mb])));
    }
    Ok(out)
}

fn open(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).map_err(|e| EngineError::path_os(path, e))
}

/// The truth file of the set in `dir`: page name → entry.
fn read_truth(dir: &Path) -> Result<std::collections::HashMap<String, Truth>> {
    let path = dir.join(TRUTH_FILE);
    let bytes = read_capped(
        open(&path)?,
        MAX_TRUTH_MB,
        &path,
        "flaw.file_too_big",
        |e| EngineError::path_os(&path, e),
    )?;
    serde_json::from_slice(&bytes)
        .map_err(|e| EngineError::corrupt(&path, Flaw::with_detail("flaw.not_json", &[], e)))
}

/// Gunzip one page, at most [`MAX_PAGE_MB`].
fn gunzip(path: &Path) -> Result<Vec<u8>> {
    let gz = flate2::read::GzDecoder::new(std::io::BufReader::new(open(path)?));
    read_capped(gz, MAX_PAGE_MB, path, "flaw.inflate_too_big", |e| {
        EngineError::corrupt(path, Flaw::with_detail("flaw.gzip_bad", &[], e))
    })
}

/// The pages of `half` of the set in `dir`, in name order. A folder without `html/*.html.gz`
/// and a truth file is bad input; a page that does not gunzip, inflates past
/// [`MAX_PAGE_MB`], or has no truth entry is an error naming its file.
pub(crate) fn read(dir: &Path, half: Half) -> Result<Vec<AebPage>> {
    let html = dir.join(HTML_DIR);
    if !html.is_dir() || !dir.join(TRUTH_FILE).is_file() {
        return Err(EngineError::path_flaw(
            dir,
            Flaw::new("flaw.path_no_aeb", &[]),
        ));
    }
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&html)
        .map_err(|e| EngineError::path_os(&html, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".html.gz")?
                .to_string();
            Some((name, p))
        })
        .collect();
    if files.is_empty() {
        return Err(EngineError::path_flaw(
            dir,
            Flaw::new("flaw.path_no_aeb", &[]),
        ));
    }
    files.sort();
    let mut truth = read_truth(dir)?;
    let mut pages = Vec::new();
    for (name, path) in files {
        if !half.holds(&name) {
            continue;
        }
        let t = truth.remove(&name).ok_or_else(|| {
            EngineError::corrupt(
                dir.join(TRUTH_FILE),
                Flaw::new("flaw.aeb_no_truth", &[&path.display()]),
            )
        })?;
        pages.push(AebPage {
            html: gunzip(&path)?,
            name,
            path,
            truth: t.article_body,
            url: t.url,
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A set folder in a temporary directory: `pages` as (name, HTML) gzipped into `html/`, and
    /// a truth entry for each name of `truths`.
    fn fixture(pages: &[(&str, &str)], truths: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(HTML_DIR)).unwrap();
        for (name, html) in pages {
            let f = std::fs::File::create(d.path().join(HTML_DIR).join(format!("{name}.html.gz")))
                .unwrap();
            let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::default());
            gz.write_all(html.as_bytes()).unwrap();
            gz.finish().unwrap();
        }
        let truth: serde_json::Map<String, serde_json::Value> = truths
            .iter()
            .map(|(n, body)| {
                (
                    n.to_string(),
                    serde_json::json!({"articleBody": body, "url": format!("https://example.com/{n}")}),
                )
            })
            .collect();
        std::fs::write(
            d.path().join(TRUTH_FILE),
            serde_json::to_vec(&truth).unwrap(),
        )
        .unwrap();
        d
    }

    const A: &str = "0a1b";
    const B: &str = "9f00";

    #[test]
    fn pages_are_read_gunzipped_with_their_truth_and_split_by_first_digit() {
        let d = fixture(
            &[(A, "<p>alpha page</p>"), (B, "<p>beta page</p>")],
            &[(A, "alpha body"), (B, "beta body")],
        );
        let all = read(d.path(), Half::All).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].name, A);
        assert_eq!(all[0].html, b"<p>alpha page</p>");
        assert_eq!(all[0].truth, "alpha body");
        assert_eq!(all[0].url.as_deref(), Some("https://example.com/0a1b"));
        assert_eq!(all[1].name, B);
        let tune = read(d.path(), Half::Tune).unwrap();
        assert_eq!(tune.iter().map(|p| &p.name).collect::<Vec<_>>(), [A]);
        let check = read(d.path(), Half::Check).unwrap();
        assert_eq!(check.iter().map(|p| &p.name).collect::<Vec<_>>(), [B]);
        for (n, c) in [
            ("7fff", false),
            ("8000", true),
            ("f1", true),
            ("A0", true),
            ("", false),
        ] {
            assert_eq!(is_check(n), c, "{n}");
        }
        assert!(!is_check("zz"), "a name that is not hex is never checked");
    }

    #[test]
    fn a_damaged_gz_is_an_error_naming_the_file() {
        let d = fixture(&[(A, "<p>alpha</p>")], &[(A, "alpha")]);
        let f = d.path().join(HTML_DIR).join(format!("{A}.html.gz"));
        let mut bytes = std::fs::read(&f).unwrap();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&f, &bytes).unwrap();
        let e = read(d.path(), Half::All).unwrap_err();
        assert!(e.is_user_error(), "{e}");
        assert_eq!(e.code().key, "error.corrupt", "{:?}", e.code());
        let msg = e.to_string();
        assert!(msg.contains(&format!("{A}.html.gz")), "{msg}");
        assert!(msg.contains("does not gunzip"), "{msg}");
        // Not gzip at all.
        std::fs::write(&f, b"<html>plain</html>").unwrap();
        let e = read(d.path(), Half::All).unwrap_err();
        assert!(e.to_string().contains("does not gunzip"), "{e}");
    }

    #[test]
    fn a_page_without_a_truth_entry_is_an_error_naming_it() {
        let d = fixture(&[(A, "<p>a</p>"), (B, "<p>b</p>")], &[(A, "a")]);
        let e = read(d.path(), Half::All).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains(TRUTH_FILE) && msg.contains(&format!("{B}.html.gz")),
            "{msg}"
        );
        assert_eq!(e.code().key, "error.corrupt");
        // The tune half does not need B's entry.
        assert_eq!(read(d.path(), Half::Tune).unwrap().len(), 1);
    }

    #[test]
    fn a_bomb_stops_at_the_cap_and_a_bad_truth_file_is_named() {
        let big = "x".repeat(((MAX_PAGE_MB << 20) + 10) as usize);
        let d = fixture(&[(A, &big)], &[(A, "a")]);
        let e = read(d.path(), Half::All).unwrap_err();
        assert!(e.to_string().contains("inflates to more than 32 MB"), "{e}");

        let d = fixture(&[(A, "<p>a</p>")], &[(A, "a")]);
        std::fs::write(d.path().join(TRUTH_FILE), b"{not json").unwrap();
        let e = read(d.path(), Half::All).unwrap_err();
        assert!(
            e.to_string().contains(TRUTH_FILE) && e.to_string().contains("not JSON"),
            "{e}"
        );

        let empty = tempfile::tempdir().unwrap();
        let e = read(empty.path(), Half::All).unwrap_err();
        assert_eq!(e.code().key, "error.bad_path");
        assert!(e.to_string().contains("html/NAME.html.gz"), "{e}");
    }
}
