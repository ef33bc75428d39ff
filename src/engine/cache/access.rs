//! The inverted-file access trace of §8.6.3 [L3102–L3106]: the log the book's instrumented
//! query executor wrote (`term access_type offset length` a line), read streamed with every
//! number checked, and its two views as request streams for the simulator — the I/O sequence
//! (one request per read) and the PAGE sequence (every fixed-size page a read touches,
//! counted before any is made).
//!
//! ```
//! use tianwang::engine::cache::access::{page_view, read_access_log_from};
//! let log = read_access_log_from("log", &b"7 0 0 5000\n7 1 5000 100\n"[..]).unwrap();
//! assert_eq!(page_view(&log, 4096).unwrap().len(), 3);
//! assert!(read_access_log_from("log", &b"1 0 18446744073709551615 2\n"[..]).is_err());
//! ```

use std::collections::HashMap;
use std::path::Path;

use super::trace::{MAX_TRACE_REQUESTS, Req, Trace, next_line, open_input};
use crate::engine::error::{EngineError, Result};

/// One access of the query executor to the inverted file (§8.6.3 [L3102–L3104]): a term,
/// the access type (document data, or the position-data block number), the file offset
/// and the length read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileAccess {
    pub term: u64,
    pub access_type: u32,
    pub offset: u64,
    pub length: u32,
}

/// Read an access log: one access per line, `term access_type offset length` separated by
/// tabs or spaces (`#` starts a comment). This is the record the book's instrumented
/// executor wrote; the index lab writes it with `tianwang index … --access-log`. Streamed;
/// a bad line (a field missing or out of range, a read past 2⁶⁴) is an error naming it.
pub fn read_access_log(path: &Path) -> Result<Vec<FileAccess>> {
    let reader = std::io::BufReader::with_capacity(1 << 16, open_input(path, "--access-log")?);
    read_access_log_from(&path.display().to_string(), reader)
}

/// [`read_access_log`] from `reader` (`name` stands for its file in messages).
pub fn read_access_log_from(
    name: &str,
    mut reader: impl std::io::BufRead,
) -> Result<Vec<FileAccess>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    loop {
        if !next_line(&mut reader, &mut buf, name, &mut lineno, "an access log")? {
            break;
        }
        let bad = |key: &'static str, args: &[&dyn std::fmt::Display]| {
            EngineError::bad_line(name, lineno, key, args)
        };
        let text = std::str::from_utf8(&buf)
            .map_err(|e| bad("error.not_utf8_byte", &[&(e.valid_up_to() + 1)]))?;
        let line = text.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if out.len() as u64 >= MAX_TRACE_REQUESTS {
            return Err(bad("error.too_many_accesses", &[&MAX_TRACE_REQUESTS]));
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = |j: usize| -> Result<u64> {
            match f.get(j).map(|s| s.parse::<u64>()) {
                Some(Ok(v)) if f.len() == 4 => Ok(v),
                Some(Err(_)) if f.len() == 4 => {
                    Err(bad("error.field_not_number", &[&(j + 1), &f[j]]))
                }
                _ => Err(bad("error.access_fields", &[])),
            }
        };
        let (term, kind, offset, length) = (num(0)?, num(1)?, num(2)?, num(3)?);
        let access_type =
            u32::try_from(kind).map_err(|_| bad("error.access_type_too_large", &[&kind]))?;
        let length = u32::try_from(length)
            .map_err(|_| bad("error.length_too_large", &[&length]))?
            .max(1);
        if offset.checked_add(u64::from(length)).is_none() {
            return Err(bad("error.offset_overflow", &[&offset, &length]));
        }
        out.push(FileAccess {
            term,
            access_type,
            offset,
            length,
        });
    }
    Ok(out)
}

/// The I/O sequence: object = (term, access type), size = the length read [L3104].
pub fn io_view(log: &[FileAccess]) -> Trace {
    let mut inter: HashMap<(u64, u32), u32> = HashMap::new();
    let reqs = log
        .iter()
        .map(|a| {
            let n = inter.len() as u32;
            Req {
                id: *inter.entry((a.term, a.access_type)).or_insert(n),
                size: a.length,
            }
        })
        .collect();
    Trace {
        distinct: inter.len(),
        reqs,
        keys: Vec::new(),
        source: "I/O sequence".into(),
        ..Trace::default()
    }
}

/// The PAGE sequence: each access becomes every fixed-size page overlapping
/// [offset, offset + length) [L3104–L3106]; object = page number, size = page size. The
/// pages are counted before any is made: more than [`MAX_TRACE_REQUESTS`] is the user's
/// `--page-size` (a one-line log of a 1 TB read in 1-byte pages once grew without bound).
pub fn page_view(log: &[FileAccess], page_size: u32) -> Result<Trace> {
    let ps = page_size.max(1) as u64;
    let span = |a: &FileAccess| {
        let first = a.offset / ps;
        let last = a.offset.saturating_add(u64::from(a.length.max(1)) - 1) / ps;
        (first, last)
    };
    let total = log.iter().try_fold(0u64, |n, a| {
        let (first, last) = span(a);
        n.checked_add(last - first + 1)
            .filter(|&n| n <= MAX_TRACE_REQUESTS)
    });
    if total.is_none() {
        return Err(EngineError::invalid(
            "--page-size",
            format!(
                "{page_size}-byte pages make more than {MAX_TRACE_REQUESTS} requests of this log; give larger pages"
            ),
        ));
    }
    let mut inter: HashMap<u64, u32> = HashMap::new();
    let mut reqs = Vec::with_capacity(total.unwrap_or(0) as usize);
    for a in log {
        let (first, last) = span(a);
        for page in first..=last {
            let n = inter.len() as u32;
            reqs.push(Req {
                id: *inter.entry(page).or_insert(n),
                size: page_size,
            });
        }
    }
    Ok(Trace {
        distinct: inter.len(),
        reqs,
        keys: Vec::new(),
        source: format!("PAGE sequence ({page_size} B pages)"),
        ..Trace::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_and_page_views_follow_section_8_6_3() {
        let log = [
            FileAccess {
                term: 7,
                access_type: 0,
                offset: 0,
                length: 5000,
            },
            FileAccess {
                term: 7,
                access_type: 1,
                offset: 5000,
                length: 32768,
            },
            FileAccess {
                term: 7,
                access_type: 0,
                offset: 0,
                length: 5000,
            },
        ];
        let io = io_view(&log);
        assert_eq!((io.len(), io.distinct), (3, 2));
        assert_eq!(io.reqs[1].size, 32768);
        let page = page_view(&log, 4096).unwrap();
        // [0,5000) → pages 0,1; [5000,37768) → pages 1..=9; then 0,1 again.
        assert_eq!(page.len(), 2 + 9 + 2);
        assert_eq!(page.distinct, 10);
    }
}
