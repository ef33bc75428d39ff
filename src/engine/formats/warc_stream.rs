//! WARC read as a stream, one record at a time, in memory bounded by the largest record: for
//! crawls too big to hold (Common Crawl segments, Heritrix output), where [`super::warc`] reads
//! a whole file. Plain WARC, gzip per record (`.warc.gz`, one member per record) and a whole
//! file compressed as one gzip member are all read through one multi-member inflater; offsets
//! are those of the inflated stream, as in [`super::warc`].
//!
//! A damaged record does not end the stream: a header that breaks the format is reported and
//! the reader resynchronises on the next `WARC/1.x` line; a file cut mid-record (or a gzip
//! stream cut short) is reported with the offset of the record it cut, and ends the stream.
//!
//! ```
//! use tianwang::engine::formats::warc_stream::{Item, WarcStream};
//! let text = "WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n\
//!             WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 99\r\n\r\nHTTP/1.1 2";
//! let mut s = WarcStream::new(text.as_bytes()).unwrap();
//! assert!(matches!(s.next_item(), Some(Item::NotPage(_))));
//! assert!(matches!(s.next_item(), Some(Item::Damaged { offset: 56, fatal: true, .. })));
//! assert!(s.next_item().is_none());
//! ```

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::MultiGzDecoder;

use super::tianwang::RawRecord;
use super::warc::{Skipped, classify, field, is_version, push_field};
use crate::engine::error::{EngineError, Reason, Result};

/// The longest header line read; a longer one is damage, not a header.
const MAX_LINE: u64 = 64 * 1024;
/// The largest record block held in memory; a larger one is skipped unread.
pub const MAX_BLOCK: u64 = 256 * 1024 * 1024;

/// What the stream yields.
#[derive(Debug)]
pub enum Item {
    /// A `response` record holding an HTTP response, with the offset of its `WARC/` line.
    Page { offset: u64, record: RawRecord },
    /// A record that holds no page (warcinfo, request, metadata, …).
    NotPage(Skipped),
    /// A record that could not be read; `fatal` when the input ends with it.
    Damaged {
        offset: u64,
        message: String,
        fatal: bool,
    },
}

/// A WARC stream over any reader (plain or gzip, detected from the first bytes).
pub struct WarcStream<'a> {
    r: Box<dyn BufRead + 'a>,
    pos: u64,
    /// The offset of a `WARC/1.x` line already consumed while resynchronising.
    pending: Option<u64>,
    /// Where the record being read starts (what an I/O error mid-record reports).
    record: u64,
    done: bool,
}

impl<'a> WarcStream<'a> {
    /// A stream over `r`; input starting with the gzip magic is inflated member by member.
    pub fn new(r: impl Read + 'a) -> io::Result<WarcStream<'a>> {
        let mut b = BufReader::with_capacity(256 * 1024, r);
        let gz = b.fill_buf()?.starts_with(&[0x1f, 0x8b]);
        let r: Box<dyn BufRead + 'a> = if gz {
            Box::new(BufReader::with_capacity(256 * 1024, MultiGzDecoder::new(b)))
        } else {
            Box::new(b)
        };
        Ok(WarcStream {
            r,
            pos: 0,
            pending: None,
            record: 0,
            done: false,
        })
    }

    /// One line without its line break (`None` at the end of input), capped at [`MAX_LINE`]:
    /// `Some((bytes, complete))`.
    fn line(&mut self) -> io::Result<Option<(Vec<u8>, bool)>> {
        let mut buf = Vec::new();
        let n = (&mut self.r).take(MAX_LINE).read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.pos += n as u64;
        let complete = buf.last() == Some(&b'\n');
        if complete {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        Ok(Some((buf, complete)))
    }

    fn fatal(&mut self, offset: u64, message: String) -> Option<Item> {
        self.done = true;
        Some(Item::Damaged {
            offset,
            message,
            fatal: true,
        })
    }

    /// Skips lines up to the next `WARC/1.x` line (noted in `pending`) or the end of input.
    fn resync(&mut self) -> io::Result<()> {
        loop {
            let at = self.pos;
            match self.line()? {
                None => return Ok(()),
                Some((l, _)) if is_version(&l) => {
                    self.pending = Some(at);
                    return Ok(());
                }
                Some(_) => {}
            }
        }
    }

    /// The next item, or `None` at the end of the input.
    pub fn next_item(&mut self) -> Option<Item> {
        if self.done {
            return None;
        }
        match self.read_one() {
            Ok(item) => item,
            Err(e) => {
                let at = self.record;
                self.fatal(at, format!("truncated: the input breaks off ({e})"))
            }
        }
    }

    fn read_one(&mut self) -> io::Result<Option<Item>> {
        self.record = self.pending.unwrap_or(self.pos);
        let start = match self.pending.take() {
            Some(at) => at,
            None => loop {
                let at = self.pos;
                match self.line()? {
                    None => {
                        self.done = true;
                        return Ok(None);
                    }
                    Some((l, true)) if l.is_empty() => continue, // breaks between records
                    Some((l, false)) if l.iter().all(u8::is_ascii_whitespace) => continue,
                    Some((l, false)) if (l.len() as u64) < MAX_LINE => {
                        let msg = "truncated: the input ends inside a record's first line";
                        return Ok(self.fatal(at, msg.into()));
                    }
                    Some((l, _)) if is_version(&l) => break at,
                    Some((l, _)) => {
                        let found = String::from_utf8_lossy(&l[..l.len().min(40)]).into_owned();
                        self.resync()?;
                        return Ok(Some(damaged(
                            at,
                            format!("expected `WARC/1.0` or `WARC/1.1`, found {found:?}"),
                        )));
                    }
                }
            },
        };
        self.record = start;
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let Some((l, complete)) = self.line()? else {
                return Ok(self.fatal(start, CUT_HEADER.into()));
            };
            if !complete {
                if (l.len() as u64) < MAX_LINE {
                    return Ok(self.fatal(start, CUT_HEADER.into()));
                }
                self.resync()?;
                return Ok(Some(damaged(
                    start,
                    "a header line longer than 64 KiB".into(),
                )));
            }
            if l.is_empty() {
                break;
            }
            if !push_field(&mut fields, &l) {
                self.resync()?;
                return Ok(Some(damaged(start, "WARC field line without ':'".into())));
            }
        }
        let Some(len) = field(&fields, "content-length").and_then(|v| v.parse::<u64>().ok()) else {
            self.resync()?;
            return Ok(Some(damaged(start, "missing or bad Content-Length".into())));
        };
        if len > MAX_BLOCK {
            let n = io::copy(&mut (&mut self.r).take(len), &mut io::sink())?;
            self.pos += n;
            if n < len {
                return Ok(self.fatal(start, cut(len, n)));
            }
            return Ok(Some(damaged(
                start,
                format!("a {len}-byte block is larger than the {MAX_BLOCK} bytes read at once"),
            )));
        }
        let mut block = Vec::with_capacity(len.min(1 << 20) as usize);
        let n = (&mut self.r).take(len).read_to_end(&mut block)? as u64;
        self.pos += n;
        if n < len {
            return Ok(self.fatal(start, cut(len, n)));
        }
        Ok(Some(match classify(start, &fields, &block) {
            Ok(Ok(record)) => Item::Page {
                offset: start,
                record,
            },
            Ok(Err(skipped)) => Item::NotPage(skipped),
            Err(e) => damaged(start, e.message()),
        }))
    }
}

/// The WARC files a job will read, checked before any work: each must be a file that can be
/// opened (a missing file or a folder is the user's error, naming it). Their total size in
/// bytes, the measure of progress ([`open_counted`] counts the bytes read).
pub(crate) fn check_files(paths: &[PathBuf]) -> Result<u64> {
    let mut total = 0u64;
    for f in paths {
        let m = std::fs::metadata(f)
            .map_err(|e| EngineError::unreadable(f.display(), Reason::cannot_open(e)))?;
        if m.is_dir() {
            return Err(EngineError::unreadable(
                f.display(),
                Reason::folder_not_file("WARC"),
            ));
        }
        total += m.len();
    }
    Ok(total)
}

/// A stream over the WARC file at `path` (plain or gzip), adding the bytes it reads from the
/// disk (before inflating) to `read`.
pub(crate) fn open_counted(path: &Path, read: Arc<AtomicU64>) -> Result<WarcStream<'static>> {
    let open = |e: io::Error| EngineError::unreadable(path.display(), Reason::cannot_open(e));
    let f = std::fs::File::open(path).map_err(open)?;
    WarcStream::new(Counted { r: f, n: read }).map_err(open)
}

/// Counts the bytes read from the file (before inflating), for progress.
struct Counted<R> {
    r: R,
    n: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.r.read(buf)?;
        self.n.fetch_add(k as u64, Ordering::Relaxed);
        Ok(k)
    }
}

/// A file that ends inside a record's header.
const CUT_HEADER: &str =
    "truncated: the input ends inside the record's header (file cut mid-record)";

fn damaged(offset: u64, message: String) -> Item {
    Item::Damaged {
        offset,
        message,
        fatal: false,
    }
}

fn cut(len: u64, n: u64) -> String {
    format!("truncated: Content-Length {len} but the input ends after {n} bytes of the block")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::formats::warc::{write_warc, write_warc_gz};
    use std::io::Write;

    fn pages(n: usize) -> Vec<RawRecord> {
        (0..n)
            .map(|i| RawRecord {
                url: format!("http://a.cn/{i}.html"),
                origin: None,
                date: chrono::DateTime::from_timestamp(1_063_721_600, 0).unwrap_or_default(),
                ip: Some("10.0.0.1".into()),
                unzip_length: None,
                data: format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>t{i}</title>x"
                )
                .into_bytes(),
            })
            .collect()
    }

    fn all(bytes: &[u8]) -> Vec<Item> {
        let mut s = WarcStream::new(bytes).unwrap();
        std::iter::from_fn(|| s.next_item()).collect()
    }

    fn urls(items: &[Item]) -> Vec<String> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Page { record, .. } => Some(record.url.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn plain_per_record_gzip_and_whole_file_gzip_read_alike() {
        let recs = pages(5);
        let mut plain = Vec::new();
        write_warc(&mut plain, &recs).unwrap();
        let mut per_record = Vec::new();
        write_warc_gz(&mut per_record, &recs).unwrap();
        let mut whole = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        whole.write_all(&plain).unwrap();
        let whole = whole.finish().unwrap();
        let want: Vec<String> = recs.iter().map(|r| r.url.clone()).collect();
        let from_plain = all(&plain);
        assert_eq!(urls(&from_plain), want);
        assert!(matches!(from_plain[0], Item::NotPage(_)), "the warcinfo");
        for bytes in [&per_record, &whole] {
            let items = all(bytes);
            assert_eq!(urls(&items), want);
            for (a, b) in items.iter().zip(&from_plain) {
                if let (Item::Page { record: x, .. }, Item::Page { record: y, .. }) = (a, b) {
                    assert_eq!(x, y);
                }
            }
        }
        // The same offsets and records as the whole-file reader.
        let scan = crate::engine::formats::warc::scan_warc(&plain).unwrap();
        let streamed: Vec<(u64, RawRecord)> = from_plain
            .into_iter()
            .filter_map(|i| match i {
                Item::Page { offset, record } => Some((offset, record)),
                _ => None,
            })
            .collect();
        assert_eq!(streamed, scan.records);
    }

    #[test]
    fn a_cut_file_reports_the_cut_record_and_keeps_the_ones_before() {
        let recs = pages(4);
        let mut plain = Vec::new();
        write_warc(&mut plain, &recs).unwrap();
        let scan = crate::engine::formats::warc::scan_warc(&plain).unwrap();
        let last = scan.records[3].0;
        for cut_at in [last as usize + 5, last as usize + 120, plain.len() - 10] {
            let items = all(&plain[..cut_at]);
            assert_eq!(urls(&items).len(), 3, "cut at {cut_at}");
            match items.last().unwrap() {
                Item::Damaged { offset, fatal, .. } => {
                    assert_eq!(*offset, last);
                    assert!(*fatal);
                }
                other => panic!("{other:?}"),
            }
        }
        // A gzip file cut short: the records inflated before the cut are kept.
        let mut gz = Vec::new();
        write_warc_gz(&mut gz, &recs).unwrap();
        let items = all(&gz[..gz.len() - 30]);
        assert_eq!(urls(&items).len(), 3);
        assert!(matches!(
            items.last(),
            Some(Item::Damaged { fatal: true, .. })
        ));
    }

    #[test]
    fn a_damaged_header_is_skipped_and_the_next_record_read() {
        let recs = pages(3);
        let mut plain = Vec::new();
        write_warc(&mut plain, &recs).unwrap();
        let scan = crate::engine::formats::warc::scan_warc(&plain).unwrap();
        let second = scan.records[1].0 as usize;
        // Break the second record's Content-Length.
        let text = String::from_utf8(plain.clone()).unwrap();
        let cl = second + text[second..].find("Content-Length:").unwrap();
        let mut bad = plain.clone();
        bad[cl..cl + 15].copy_from_slice(b"Content-Lengtx:");
        let items = all(&bad);
        assert_eq!(urls(&items), vec![recs[0].url.clone(), recs[2].url.clone()]);
        let damaged: Vec<u64> = items
            .iter()
            .filter_map(|i| match i {
                Item::Damaged { offset, fatal, .. } => {
                    assert!(!fatal);
                    Some(*offset)
                }
                _ => None,
            })
            .collect();
        assert_eq!(damaged, vec![second as u64]);
        // Garbage without line breaks is bounded and skipped.
        let mut junk = vec![b'x'; 200_000];
        junk.extend_from_slice(b"\n");
        junk.extend_from_slice(&plain);
        assert_eq!(urls(&all(&junk)).len(), 3);
    }
}
