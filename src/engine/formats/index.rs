//! The index page database of §5.2 "Index page database" (索引网页库) [L1397–1476]: `Doc.idx`
//! and `Url.idx`, built over one Tianwang raw file (see [`super::tianwang`]) so that a URL leads
//! to its record without a sequential scan (the book's Fig 4-3 algorithm [L1430–1443]).
//!
//! * `Doc.idx` (Table 4-1) [L1451–1464]: `doc id | offset | content MD5`, one row per record in
//!   file order, closed by a sentinel row (id N, offset = end of file, no digest) so every
//!   document's length is `offset[id+1] − offset[id]` ([`doc_len`]).
//! * `Url.idx` (Table 4-2) [L1466–1476]: `URL MD5 | doc id`, sorted by digest (`Url.idx.sort`)
//!   for an O(log N) binary search ([`lookup_url`]).
//! * [`snapshot`]: the book's lookup, URL → `Url.idx` → doc id → `Doc.idx` offset → record [L1476].
//!
//! Digests are MD5, written as 32 lower-case hex characters [L1449]. Where the book is silent we
//! choose: the offset is the record start (`version:`, as doc 0 at 0 implies); the content digest
//! is of the HTTP body ([`content_md5`]); the `url` property (final URL) is indexed, not `origin`,
//! and duplicate URLs keep every row ([`url_index`]); the files are space-separated text lines
//! ([`write_doc_idx`]).
//!
//! ```
//! use tianwang::engine::formats::index::{doc_index, doc_len, lookup_url, snapshot, url_index};
//! use tianwang::engine::formats::tianwang::{RawRecord, parse, write_all};
//! let page = |url: &str| RawRecord {
//!     url: url.into(),
//!     origin: None,
//!     date: chrono::DateTime::from_timestamp(1_063_721_600, 0).unwrap_or_default(),
//!     ip: None,
//!     unzip_length: None,
//!     data: b"HTTP/1.1 200 OK\r\n\r\n<p>hi</p>".to_vec(),
//! };
//! let mut raw = Vec::new();
//! write_all(&mut raw, &[page("http://a.cn/"), page("http://b.cn/")])?;
//! let records = parse(&raw)?;
//! let docs = doc_index(&records, raw.len() as u64); // two rows and the sentinel
//! let urls = url_index(&records);
//! assert_eq!(docs.len(), 3);
//! assert_eq!(doc_len(&docs, 0), Some(records[1].0));
//! assert_eq!(lookup_url(&urls, "http://b.cn/"), Some(1));
//! let found = snapshot(&raw, &docs, &urls, "http://b.cn/")?;
//! assert_eq!(found.map(|r| r.url), Some("http://b.cn/".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::io::{self, Write};

use md5::{Digest, Md5};

use super::FormatError;
use super::tianwang::{RawRecord, check_record, split_http};

/// One row of `Doc.idx` (Table 4-1). The sentinel row has `md5: None`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocIdxEntry {
    pub id: u64,
    /// Offset of the record's first byte (`version:`); doc 0 is at 0 [L1457].
    pub offset: u64,
    pub md5: Option<[u8; 16]>,
}

/// One row of `Url.idx` (Table 4-2).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct UrlIdxEntry {
    pub url_md5: [u8; 16],
    pub id: u64,
}

/// MD5 of `bytes` (16 bytes; [`hex`] gives the book's 32-character form).
pub fn md5(bytes: &[u8]) -> [u8; 16] {
    let mut out = [0; 16];
    out.copy_from_slice(&Md5::digest(bytes));
    out
}

/// MD5 of `bytes` as 32 lower-case hex characters: the form every table of the workbench
/// stores (snapshots, ETags of the sample web, Doc.idx).
pub(crate) fn md5_hex(bytes: &[u8]) -> String {
    hex(&md5(bytes))
}

/// 32 lower-case hex characters, as the book writes digests [L1449].
pub fn hex(d: &[u8; 16]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(32);
    for b in d {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
fn unhex(s: &str) -> Option<[u8; 16]> {
    let mut out = [0; 16];
    if s.len() != 32 || !s.is_ascii() {
        return None;
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// The digest in `Doc.idx`: MD5 of the page content, i.e. the body after the HTTP header of the
/// uncompressed DATA (the book's "content" [L1445]; the header changes on every fetch). DATA
/// without an HTTP header is hashed whole; compressed DATA that fails to inflate is hashed as stored.
pub(crate) fn content_md5(r: &RawRecord) -> [u8; 16] {
    let data = r.uncompressed().unwrap_or(Cow::Borrowed(&r.data));
    md5(split_http(&data).map_or(&data[..], |(_, body)| body))
}

/// `Doc.idx` for records read from one raw file (ids in file order), plus the sentinel row with
/// id N and offset `end` (the file length) [L1457–1464].
pub fn doc_index(records: &[(u64, RawRecord)], end: u64) -> Vec<DocIdxEntry> {
    let row = |(id, (offset, r)): (usize, &(u64, RawRecord))| DocIdxEntry {
        id: id as u64,
        offset: *offset,
        md5: Some(content_md5(r)),
    };
    let sentinel = DocIdxEntry {
        id: records.len() as u64,
        offset: end,
        md5: None,
    };
    records
        .iter()
        .enumerate()
        .map(row)
        .chain([sentinel])
        .collect()
}

/// A document's length by difference, `offset[id+1] − offset[id]` [L1455].
pub fn doc_len(docs: &[DocIdxEntry], id: u64) -> Option<u64> {
    let i = usize::try_from(id).ok()?;
    let next = docs.get(i.checked_add(1)?)?;
    next.offset.checked_sub(docs.get(i)?.offset)
}

/// `Url.idx.sort`: (MD5 of the `url` property, doc id), sorted by digest then id. The final URL
/// is indexed, not `origin`; duplicate URLs keep every row [L1466–1474].
pub fn url_index(records: &[(u64, RawRecord)]) -> Vec<UrlIdxEntry> {
    let row = |(id, (_, r)): (usize, &(u64, RawRecord))| UrlIdxEntry {
        url_md5: md5(r.url.as_bytes()),
        id: id as u64,
    };
    let mut v: Vec<UrlIdxEntry> = records.iter().enumerate().map(row).collect();
    v.sort();
    v
}

/// Binary search of a sorted `Url.idx` (O(log N)); with duplicates, the lowest doc id.
pub fn lookup_url(index: &[UrlIdxEntry], url: &str) -> Option<u64> {
    let key = md5(url.as_bytes());
    let i = index.partition_point(|e| e.url_md5 < key);
    index.get(i).filter(|e| e.url_md5 == key).map(|e| e.id)
}

/// The book's snapshot lookup: URL → Url.idx → doc id → Doc.idx offsets → record [L1476].
pub fn snapshot(
    raw: &[u8],
    docs: &[DocIdxEntry],
    urls: &[UrlIdxEntry],
    url: &str,
) -> Result<Option<RawRecord>, FormatError> {
    let Some(id) = lookup_url(urls, url) else {
        return Ok(None);
    };
    let entry = usize::try_from(id).ok().and_then(|i| docs.get(i));
    let Some(offset) = entry.map(|e| e.offset as usize).filter(|&o| o < raw.len()) else {
        let msg = format!("Url.idx names doc {id}, which Doc.idx or the raw file lacks");
        return Err(FormatError::malformed(0, msg));
    };
    Ok(Some(check_record(raw, offset)?.record(raw)?))
}

/// Writes `Doc.idx` as text: `id offset md5` per line, the sentinel as `id offset` (space
/// separated, LF, lower-case hex; the book gives no byte layout [L1451–1464]).
pub(crate) fn write_doc_idx(w: &mut impl Write, docs: &[DocIdxEntry]) -> io::Result<()> {
    for d in docs {
        match &d.md5 {
            Some(m) => writeln!(w, "{} {} {}", d.id, d.offset, hex(m))?,
            None => writeln!(w, "{} {}", d.id, d.offset)?,
        }
    }
    Ok(())
}

/// Writes `Url.idx` as text: `md5 id` per line.
pub(crate) fn write_url_idx(w: &mut impl Write, urls: &[UrlIdxEntry]) -> io::Result<()> {
    for u in urls {
        writeln!(w, "{} {}", hex(&u.url_md5), u.id)?;
    }
    Ok(())
}

#[cfg(test)]
/// Non-empty lines with their byte offsets, split on blanks (space or tab).
fn rows(text: &[u8]) -> impl Iterator<Item = (usize, Vec<&str>)> {
    let mut at = 0;
    text.split(|&b| b == b'\n').filter_map(move |line| {
        let start = at;
        at += line.len() + 1;
        let s = std::str::from_utf8(line).unwrap_or("\u{fffd}");
        let f: Vec<&str> = s.split_ascii_whitespace().collect();
        (!f.is_empty()).then_some((start, f))
    })
}

#[cfg(test)]
/// Reads `Doc.idx`: ids must count up from 0, offsets must not decrease, and the last row must
/// be the sentinel (no digest). Errors name the byte offset of the bad line.
pub(crate) fn read_doc_idx(text: &[u8]) -> Result<Vec<DocIdxEntry>, FormatError> {
    let mut out: Vec<DocIdxEntry> = Vec::new();
    for (at, f) in rows(text) {
        if out.last().is_some_and(|d| d.md5.is_none()) {
            return Err(FormatError::malformed(at, "row after the sentinel row"));
        }
        let bad = |m: &str| FormatError::malformed(at, format!("Doc.idx: {m}"));
        let (id, offset) = match f[..] {
            [id, off] | [id, off, _] => (id.parse::<u64>(), off.parse::<u64>()),
            _ => return Err(bad("expected `id offset md5` or the sentinel `id offset`")),
        };
        let (Ok(id), Ok(offset)) = (id, offset) else {
            return Err(bad("id or offset not a number"));
        };
        if id != out.len() as u64 {
            return Err(bad(&format!("doc id {id}, expected {}", out.len())));
        }
        if out.last().is_some_and(|d| d.offset > offset) {
            return Err(bad("offset smaller than the previous row's"));
        }
        let md5 = match f.get(2) {
            Some(h) => Some(unhex(h).ok_or_else(|| bad("digest is not 32 hex characters"))?),
            None => None,
        };
        out.push(DocIdxEntry { id, offset, md5 });
    }
    if out.last().is_none_or(|d| d.md5.is_some()) {
        return Err(FormatError::truncated(
            text.len(),
            "Doc.idx has no sentinel row",
        ));
    }
    Ok(out)
}

#[cfg(test)]
/// Reads `Url.idx` (in id order) or `Url.idx.sort`; the result is sorted for [`lookup_url`].
pub(crate) fn read_url_idx(text: &[u8]) -> Result<Vec<UrlIdxEntry>, FormatError> {
    let mut out = Vec::new();
    for (at, f) in rows(text) {
        let entry = match f[..] {
            [h, id] => unhex(h).zip(id.parse().ok()),
            _ => None,
        };
        let Some((url_md5, id)) = entry else {
            return Err(FormatError::malformed(at, "Url.idx: expected `md5 id`"));
        };
        out.push(UrlIdxEntry { url_md5, id });
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::tianwang::parse;
    use super::super::tianwang::tests::{file, samples};
    use super::*;

    #[test]
    fn doc_and_url_index() {
        let f = file(&samples());
        let recs = parse(&f).unwrap();
        let (docs, end) = (doc_index(&recs, f.len() as u64), f.len() as u64);
        assert_eq!(
            docs[8],
            DocIdxEntry {
                id: 8,
                offset: end,
                md5: None
            },
            "the sentinel"
        );
        assert_eq!((0..8).map(|i| doc_len(&docs, i).unwrap()).sum::<u64>(), end);
        assert_eq!(docs[6].md5, Some(md5(b"<i>g</i>")));
        let mut text = Vec::new();
        write_doc_idx(&mut text, &docs).unwrap();
        let s = String::from_utf8(text.clone()).unwrap();
        assert!(s.starts_with(&format!("0 0 {}\n", hex(&docs[0].md5.unwrap()))));
        assert!(s.ends_with(&format!("\n8 {end}\n")));
        assert_eq!(read_doc_idx(&text).unwrap(), docs);

        let urls = url_index(&recs);
        assert!(urls.windows(2).all(|w| w[0].url_md5 <= w[1].url_md5));
        for (id, (_, r)) in recs.iter().enumerate() {
            assert_eq!(lookup_url(&urls, &r.url), Some(id as u64));
            assert_eq!(
                snapshot(&f, &docs, &urls, &r.url).unwrap().as_ref(),
                Some(r)
            );
        }
        assert_eq!(
            lookup_url(&urls, "http://net.pku.cn/~cnds"),
            None,
            "origin not indexed"
        );
        let (mut text, mut by_id) = (Vec::new(), urls.clone());
        by_id.sort_by_key(|u| u.id);
        write_url_idx(&mut text, &by_id).unwrap();
        assert_eq!(read_url_idx(&text).unwrap(), urls);
    }

    #[test]
    fn book_table_rows_and_index_errors() {
        assert_eq!(hex(&md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        let t41 = "0 0 bc9ce846d7987c4534f53d423380ba70\n1 76760 4f47a3cad91f7d35f4bb6b2a638420e5\n\
                   2 141624 d019433008538f65329ae8e39b86026c\n3 210411107\n";
        let docs = read_doc_idx(t41.as_bytes()).unwrap();
        assert_eq!(
            (doc_len(&docs, 0), doc_len(&docs, 1)),
            (Some(76760), Some(64864))
        );
        assert_eq!(
            hex(&docs[2].md5.unwrap()),
            "d019433008538f65329ae8e39b86026c"
        );
        let t42 = "5c36868a9c5117eadbda747cbdb0725f 0\n3272e136dd90263ee306a835c6c70d77 1\n\
                   6b8601bb3bb9ab80f868d549b5c5a5f3 2\n";
        let ids: Vec<u64> = read_url_idx(t42.as_bytes())
            .unwrap()
            .iter()
            .map(|u| u.id)
            .collect();
        assert_eq!(ids, [1, 0, 2], "sorted by digest: Url.idx.sort");
        let skip = read_doc_idx(b"0 0 bc9ce846d7987c4534f53d423380ba70\n2 5\n").unwrap_err();
        assert_eq!(skip.offset(), Some(37));
        assert!(read_doc_idx(b"0 0 bc9ce846d7987c4534f53d423380ba70\n").is_err());
        assert_eq!(read_url_idx(b"xyz 1\n").unwrap_err().offset(), Some(0));
    }
}
