//! Corpora readers for the classifier lab (book ch. 11.4.3 [L4075–L4131]: a labelled training
//! set and a test set; the book's YQ-WEBENCH is not available, the THUCNews titles stand in).
//!
//! Three formats, each returning a [`Corpus`] of `(text, label)` documents plus the records it
//! could not read ([`Skipped`], with `file:line` and a reason — never dropped silently; with
//! `strict` the first bad record is an error instead):
//! - [`read_tsv`]: `text<TAB>label` lines. When a `class.txt` sits next to the file, integer
//!   labels are ids into it (line 0 = id 0) and its order is the label order; otherwise the label
//!   strings are the classes.
//! - [`read_folder`]: a folder per class holding `.txt` files (UTF-8, else GB18030); other
//!   extensions (e.g. `.html`) go through a caller's `&dyn Fn(&[u8]) -> String` hook (the lead
//!   plugs in DocView's body text), or are reported as skipped without one.
//! - [`read_sogou`]: SogouCS `<doc>` XML (`url`, `docno`, `contenttitle`, `content`), in UTF-8
//!   or GB18030 (detected: valid UTF-8 is UTF-8, anything else GB18030). The label is the
//!   SogouCS convention, the channel in the URL's host: the label just before `sohu.com`
//!   (`http://sports.sohu.com/…` → `sports`, `try.women.sohu.com` → `women`); for other hosts the
//!   first host label. The text is the title, a newline, then the content.
//!
//! ```no_run
//! use tianwang::engine::classify::corpus::read_tsv;
//! let dir = tianwang::engine::data::DataDir::resolve(None)?.require("thucnews_titles")?;
//! let c = read_tsv(&dir.join("dev.txt"), false)?;
//! assert_eq!(c.class_names.as_ref().map(|v| v.len()), Some(10));
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Reason, Result};

/// One labelled document.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Doc {
    pub text: String,
    pub label: String,
    /// `file:line` (or `file` for one-document files) it came from.
    pub location: String,
}

/// A record that could not be read.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Skipped {
    pub location: String,
    pub reason: String,
}

/// Documents read from one source.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Corpus {
    pub docs: Vec<Doc>,
    /// The class order from a `class.txt`, when the source had one.
    pub class_names: Option<Vec<String>>,
    pub skipped: Vec<Skipped>,
}

fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))
}

/// UTF-8 when valid, else GB18030 (the two encodings of the lab's Chinese corpora).
pub(crate) fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::GB18030.decode(bytes).0.into_owned(),
    }
}

fn skip_or_fail(
    strict: bool,
    skipped: &mut Vec<Skipped>,
    file: &Path,
    line: usize,
    reason: &str,
) -> Result<()> {
    if strict {
        return Err(EngineError::bad_input(file.display(), line, reason));
    }
    skipped.push(Skipped {
        location: format!("{}:{line}", file.display()),
        reason: reason.to_string(),
    });
    Ok(())
}

/// The `class.txt` next to `file`, one class name per line.
fn class_file(file: &Path) -> Result<Option<Vec<String>>> {
    let p = file.parent().unwrap_or(Path::new(".")).join("class.txt");
    if !p.is_file() {
        return Ok(None);
    }
    let text = decode_text(&read_bytes(&p)?);
    let names: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    if names.is_empty() {
        return Err(EngineError::bad_line(
            p.display(),
            1,
            "error.no_class_names",
            &[],
        ));
    }
    Ok(Some(names))
}

/// Reads `text<TAB>label` lines (the label after the last tab).
pub fn read_tsv(file: &Path, strict: bool) -> Result<Corpus> {
    let bytes = read_bytes(file)?;
    let class_names = class_file(file)?;
    parse_tsv(file, &bytes, class_names, strict)
}

/// [`read_tsv`] over `bytes` already read (`file` names them; `class_names` is its
/// `class.txt`).
pub fn parse_tsv(
    file: &Path,
    bytes: &[u8],
    class_names: Option<Vec<String>>,
    strict: bool,
) -> Result<Corpus> {
    let mut corpus = Corpus {
        class_names: class_names.clone(),
        ..Corpus::default()
    };
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let raw = if i == 0 {
            raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
        } else {
            raw
        };
        if raw.iter().all(|b| b.is_ascii_whitespace()) {
            continue; // blank lines (and the final newline) are not records
        }
        let Ok(line) = std::str::from_utf8(raw) else {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "not valid UTF-8",
            )?;
            continue;
        };
        let Some((text, label)) = line.rsplit_once('\t') else {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "no tab between text and label",
            )?;
            continue;
        };
        let (text, label) = (text.trim(), label.trim());
        if text.is_empty() || label.is_empty() {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "empty text or label",
            )?;
            continue;
        }
        let label = match &class_names {
            None => label.to_string(),
            Some(names) => {
                if let Some(n) = label.parse::<usize>().ok().and_then(|id| names.get(id)) {
                    n.clone()
                } else if names.iter().any(|n| n == label) {
                    label.to_string()
                } else {
                    let reason = format!(
                        "label `{label}` is neither an id below {} nor a name in class.txt",
                        names.len()
                    );
                    skip_or_fail(strict, &mut corpus.skipped, file, line_no, &reason)?;
                    continue;
                }
            }
        };
        corpus.docs.push(Doc {
            text: text.to_string(),
            label,
            location: format!("{}:{line_no}", file.display()),
        });
    }
    readable(corpus, file, "`text<TAB>label` line")
}

/// `corpus` when it holds a document; else the user's error naming `source` and its first
/// bad records with why (issue 29: "no readable training documents" named neither).
fn readable(corpus: Corpus, source: &Path, unit: &str) -> Result<Corpus> {
    if !corpus.docs.is_empty() {
        return Ok(corpus);
    }
    let why = match corpus.skipped.first() {
        None => Reason::no_document(unit),
        Some(first) => {
            let first_few: Vec<String> = corpus
                .skipped
                .iter()
                .take(3)
                .map(|s| format!("{}: {}", s.location, s.reason))
                .collect();
            Reason::no_readable_document(
                unit,
                corpus.skipped.len(),
                &first.location,
                &first_few.join("; "),
            )
        }
    };
    Err(EngineError::unreadable(source.display(), why))
}

/// Turns a non-`.txt` file's bytes into text (e.g. DocView's body text for `.html`).
pub type TextHook<'a> = &'a dyn Fn(&[u8]) -> String;

/// Reads a folder per class (`dir/<label>/*`). `.txt` files are decoded text; every other file
/// goes through `other` (e.g. DocView body text for `.html`), or is reported as skipped.
pub fn read_folder(dir: &Path, other: Option<TextHook<'_>>, strict: bool) -> Result<Corpus> {
    let mut corpus = Corpus::default();
    let list = |p: &Path| -> Result<Vec<PathBuf>> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| EngineError::path_os(p.to_path_buf(), e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        v.sort();
        Ok(v)
    };
    for class_dir in list(dir)?.into_iter().filter(|p| p.is_dir()) {
        let label = class_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for f in list(&class_dir)?.into_iter().filter(|p| p.is_file()) {
            let bytes = read_bytes(&f)?;
            let is_txt = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt"));
            let text = match (is_txt, other) {
                (true, _) => decode_text(&bytes),
                (false, Some(hook)) => hook(&bytes),
                (false, None) => {
                    let reason = "not a .txt file and no text extractor was given";
                    skip_or_fail(strict, &mut corpus.skipped, &f, 1, reason)?;
                    continue;
                }
            };
            if text.trim().is_empty() {
                skip_or_fail(strict, &mut corpus.skipped, &f, 1, "no text")?;
                continue;
            }
            corpus.docs.push(Doc {
                text,
                label: label.clone(),
                location: f.display().to_string(),
            });
        }
    }
    if corpus.docs.is_empty() && corpus.skipped.is_empty() {
        return Err(EngineError::path_flaw(
            dir.to_path_buf(),
            Flaw::new("flaw.path_no_class_folders", &[]),
        ));
    }
    readable(corpus, dir, "document of a class folder")
}

/// The SogouCS channel of a URL: the host label before `sohu.com`, else the first host label.
pub(crate) fn sogou_label(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest
        .split(['/', '?', '#', ':'])
        .next()?
        .to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let n = labels.len();
    if n >= 3 && labels[n - 2] == "sohu" && labels[n - 1] == "com" {
        return Some(labels[n - 3].to_string());
    }
    labels.first().map(|s| s.to_string()).filter(|_| n >= 2)
}

fn field<'a>(rec: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let s = rec.find(&open)? + open.len();
    let e = rec[s..].find(&close)? + s;
    Some(rec[s..e].trim())
}

/// Reads SogouCS `<doc>` records (UTF-8 or GB18030).
pub(crate) fn read_sogou(file: &Path, strict: bool) -> Result<Corpus> {
    parse_sogou(file, &read_bytes(file)?, strict)
}

/// [`read_sogou`] over `bytes` already read (`file` names them).
pub fn parse_sogou(file: &Path, bytes: &[u8], strict: bool) -> Result<Corpus> {
    let text = decode_text(bytes);
    let mut corpus = Corpus::default();
    let mut pos = 0;
    // Lines counted as the records pass (counting from the start each time was quadratic).
    let (mut counted, mut line_no) = (0usize, 1usize);
    while let Some(start) = text[pos..].find("<doc>").map(|i| i + pos) {
        line_no += text.as_bytes()[counted..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted = start;
        let Some(end) = text[start..].find("</doc>").map(|i| i + start) else {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "<doc> without </doc>",
            )?;
            break;
        };
        let rec = &text[start..end];
        pos = end + "</doc>".len();
        let url = field(rec, "url").unwrap_or("");
        let Some(label) = sogou_label(url) else {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "no <url> host to label by",
            )?;
            continue;
        };
        let title = field(rec, "contenttitle").unwrap_or("");
        let content = field(rec, "content").unwrap_or("");
        if title.is_empty() && content.is_empty() {
            skip_or_fail(
                strict,
                &mut corpus.skipped,
                file,
                line_no,
                "empty title and content",
            )?;
            continue;
        }
        corpus.docs.push(Doc {
            text: format!("{title}\n{content}"),
            label,
            location: format!("{}:{line_no}", file.display()),
        });
    }
    if corpus.docs.is_empty() && corpus.skipped.is_empty() {
        return Err(EngineError::bad_line(
            file.display(),
            1,
            "error.no_doc_records",
            &[],
        ));
    }
    readable(corpus, file, "<doc> record")
}

/// Picks the reader by what `path` is: a folder → [`read_folder`] (txt only), a file whose text
/// starts with `<doc>` → [`read_sogou`], otherwise [`read_tsv`].
pub(crate) fn read_any(path: &Path, strict: bool) -> Result<Corpus> {
    if path.is_dir() {
        return read_folder(path, None, strict);
    }
    let bytes = read_bytes(path)?;
    let head = &bytes[..bytes.len().min(64)];
    if head.windows(5).any(|w| w == b"<doc>") {
        read_sogou(path, strict)
    } else {
        read_tsv(path, strict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sogou_labels() {
        assert_eq!(
            sogou_label("http://sports.sohu.com/2012/x.shtml").as_deref(),
            Some("sports")
        );
        assert_eq!(
            sogou_label("http://try.women.sohu.com/a").as_deref(),
            Some("women")
        );
        assert_eq!(
            sogou_label("https://news.sina.com.cn/x").as_deref(),
            Some("news")
        );
        assert_eq!(sogou_label("nonsense"), None);
    }

    #[test]
    fn both_sogou_encodings_read_alike() {
        let Some(dir) = crate::engine::testdata::shared_data("classification/sogoucs_smarty")
        else {
            return;
        };
        let a = read_sogou(&dir.join("news_sohusite_xml.smarty.utf8.dat"), true).unwrap();
        let b = read_sogou(&dir.join("news_sohusite_xml.smarty.gb18030.dat"), true).unwrap();
        assert_eq!(a.docs.len(), 200);
        assert_eq!(b.docs.len(), 200);
        assert_eq!(a.docs[0].label, "gongyi");
        assert_eq!(
            a.docs[0].text.replace('\r', ""),
            b.docs[0].text.replace('\r', "")
        );
    }
}
