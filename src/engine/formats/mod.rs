//! On-disk formats for fetched pages: the book's Tianwang raw page format with its indexes, and
//! WARC so that real crawls (Common Crawl, Heritrix) can be brought in and ours taken out.
//!
//! * [`tianwang`] — the raw page database of §4.8 "天网格式" [L1042–1126]: records of
//!   `HEAD + LF + DATA + LF`, a strict reader that names the byte offset of every violation, the
//!   book's recovery of a damaged file (scan for `version:`, accept after 3 consecutive valid
//!   records [L1108–1117]).
//! * [`index`] — the index page database of §5.2 [L1397–1476] over a raw file: `Doc.idx` (doc id,
//!   offset, content MD5, with the sentinel row), `Url.idx` (URL MD5 → doc id, sorted for binary
//!   search) and the snapshot lookup URL → record.
//! * [`http`] — a stored HTTP response's head and content, Content-Encoding undone under a cap.
//! * [`warc`] — WARC/1.1 export (`warcinfo` + `response` records with SHA-1 digests) and import of
//!   WARC/1.0 and 1.1, plain or gzip-per-record (`.warc.gz`).
//! * [`warc_stream`] — the same records read one at a time from any reader (plain, gzip per
//!   record or per file) in bounded memory, damaged records reported by offset and skipped.
//!
//! Everything here is pure data in, data out: byte slices, `io::Read` and `io::Write`, no paths.
//!
//! ```
//! use tianwang::engine::formats::tianwang::{RawRecord, parse, write_record};
//! let page = RawRecord {
//!     url: "http://net.pku.cn/~cnds/".into(),
//!     origin: Some("http://net.pku.cn/~cnds".into()),
//!     date: chrono::DateTime::from_timestamp(1_063_721_600, 0).unwrap_or_default(),
//!     ip: Some("162.105.203.25".into()),
//!     unzip_length: None,
//!     data: b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".to_vec(),
//! };
//! let mut file = Vec::new();
//! write_record(&mut file, &page)?;
//! assert!(file.starts_with(b"version: 1.0\nurl: http://net.pku.cn/~cnds/\n"));
//! let records = parse(&file)?;
//! assert_eq!(records, vec![(0, page)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod http;
pub mod index;
pub mod tianwang;
pub mod warc;
pub mod warc_stream;

/// Why a file in one of these formats could not be read. Every content error names the byte
/// offset (in the input given to the reader) where the problem was found.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The bytes break a rule of the format.
    #[error("byte {offset}: {message}")]
    Malformed { offset: u64, message: String },

    /// The input ends inside a record (a cut-off file or a wrong length).
    #[error("byte {offset}: truncated: {message}")]
    Truncated { offset: u64, message: String },

    /// Reading or decompressing failed below the format (for example a broken gzip stream).
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl FormatError {
    /// The byte offset the error points at, if it is about content.
    pub fn offset(&self) -> Option<u64> {
        match self {
            FormatError::Malformed { offset, .. } | FormatError::Truncated { offset, .. } => {
                Some(*offset)
            }
            FormatError::Io(_) => None,
        }
    }

    /// The message without the offset prefix (for a rule-checker list in a viewer).
    pub fn message(&self) -> String {
        match self {
            FormatError::Malformed { message, .. } | FormatError::Truncated { message, .. } => {
                message.clone()
            }
            FormatError::Io(e) => e.to_string(),
        }
    }

    pub(crate) fn malformed(offset: usize, message: impl Into<String>) -> Self {
        FormatError::Malformed {
            offset: offset as u64,
            message: message.into(),
        }
    }

    pub(crate) fn truncated(offset: usize, message: impl Into<String>) -> Self {
        FormatError::Truncated {
            offset: offset as u64,
            message: message.into(),
        }
    }
}
