//! Text: which encoding a page is in ([`encoding`]), how Chinese text is cut into words
//! ([`segment`]), and how close an extracted text is to the truth ([`metric`]). The DocView
//! cleaner ([`crate::engine::docview`]) builds on all three. [`read_utf8`] reads a text
//! file the user names, saying which line is not UTF-8; [`file_key`] names a file by its stem
//! without losing it when the name is not UTF-8.
//!
//! ```
//! let d = tempfile::tempdir().unwrap();
//! let p = d.path().join("q.txt");
//! std::fs::write(&p, b"ok\nbad \xff\n").unwrap();
//! let e = tianwang::engine::text::read_utf8(&p, "--queries").unwrap_err();
//! assert!(e.to_string().contains("q.txt:2"));
//! ```

pub mod encoding;
pub mod fxhash;
pub mod metric;
pub mod segment;
pub mod stopwords;
pub mod t2s;

use std::path::Path;

use crate::engine::error::{EngineError, Flaw, Result};

/// Read one line into `buf` (without its `\n`), keeping at most `cap` bytes of it: returns
/// (bytes consumed, whether the line was longer). 0 consumed: the end of the input.
pub(crate) fn read_line_capped(
    r: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<(usize, bool)> {
    buf.clear();
    let (mut used, mut long) = (0usize, false);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok((used, long));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = &chunk[..if done { take - 1 } else { take }];
        let room = cap.saturating_sub(buf.len());
        if body.len() > room {
            long = true;
        }
        buf.extend_from_slice(&body[..body.len().min(room)]);
        r.consume(take);
        used += take;
        if done {
            return Ok((used, long));
        }
    }
}

/// A UTF-8 text file the user named with `flag`, read whole: a folder, a missing file or a
/// byte that is not UTF-8 is the user's error naming the file (and then `file:line` and
/// the byte in that line), never "stream did not contain valid UTF-8".
pub fn read_utf8(path: &Path, flag: &str) -> Result<String> {
    if path.is_dir() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.path_folder_for", &[&flag]),
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| EngineError::path_flaw(path, Flaw::os_for(&e, flag)))?;
    String::from_utf8(bytes).map_err(|e| {
        let b = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line = 1 + b[..at].iter().filter(|&&c| c == b'\n').count();
        let start = b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        let binary = b.iter().take(8192).any(|&c| c == 0);
        if binary {
            EngineError::bad_line(path.display(), line, "error.binary_file", &[])
        } else {
            EngineError::bad_line(
                path.display(),
                line,
                "error.not_utf8_at",
                &[&(at - start + 1)],
            )
        }
    })
}

/// A file's stem as a document key that keeps its identity: the stem itself when it is UTF-8;
/// else its lossy form (`\u{FFFD}` for the bytes that are not) followed by `~` and a hash of
/// the name's bytes, so two names differing only there stay two keys (issue 29: they became
/// one `''`). The flag says the key is not the name, for the caller to report.
pub(crate) fn file_key(path: &Path) -> (String, bool) {
    let stem = path.file_stem().unwrap_or_default();
    match stem.to_str() {
        Some(s) => (s.to_string(), false),
        None => {
            let h = stem
                .as_encoded_bytes()
                .iter()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
            (format!("{}~{:08x}", stem.to_string_lossy(), h as u32), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing file and a folder name the flag in the CLI's English and carry a keyed
    /// reason the UI says in its language.
    #[test]
    fn a_file_that_cannot_be_read_names_its_flag_and_a_keyed_reason() {
        let d = tempfile::tempdir().unwrap();
        let missing = d.path().join("none.txt");
        let e = read_utf8(&missing, "--queries").unwrap_err();
        let (en, code) = (e.to_string(), e.code());
        assert!(en.starts_with(&missing.display().to_string()), "{en}");
        assert!(en.ends_with("(os error 2) (--queries)"), "{en}");
        let why = code.detail.as_deref().map(|d| d.key);
        assert_eq!(why, Some("flaw.os_not_found_for"));
        assert!(e.is_user_error());
        let e = read_utf8(d.path(), "--queries").unwrap_err();
        assert!(
            e.to_string()
                .ends_with(": a folder, not a file (--queries)")
        );
        let why = e.code().detail.map(|d| d.key);
        assert_eq!(why, Some("flaw.path_folder_for"));
    }
}
