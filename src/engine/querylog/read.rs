//! Streamed log readers: one line at a time, never the whole file in memory (book ch. 9.1
//! [L3194–L3234]; SogouQ's public format).
//!
//! The encoding is decided once from the first 64 KB (`engine::text::encoding::decide`: BOM,
//! else chardetng; an all-ASCII start reads as UTF-8; gb2312/gbk read as GB18030), or given by
//! the user. Each line is then decoded alone; a line that does not decode is a bad line
//! ("not valid gb18030"), like a line with missing fields, a bad rank or page, or a bad time.
//! Bad lines are counted, the first [`ReadConfig::max_listed`] kept with their line numbers;
//! with `strict` the first one ends the read with `EngineError::BadInput` naming `file:line`.
//! An empty file is refused (`file:1: empty file`), so is a file without one valid record.
//!
//! Tolerated real-world variants: CRLF line ends, a UTF-8 BOM, SogouQ's rank and order
//! separated by a tab instead of a space, SogouQ queries without brackets, times as
//! `HH:MM:SS`, `YYYYMMDDHHMMSS`, `YYYY-MM-DD HH:MM:SS`, the book's `Fri Mar 21 00:00:02 2003`
//! and TSE's `Wed-Apr-14-16:09:06-2004` [L1762]; Tianwang records split by runs of spaces
//! rather than tabs.
//!
//! ```
//! use tianwang::engine::querylog::{read::{ReadConfig, read_bytes}, Format};
//! let mut queries = Vec::new();
//! let s = read_bytes("q.log", b"Fri Mar 21 00:00:02 2003\t218.24.100.77\tDatabase\t\xe8\x80\x81\xe6\xad\x8c\t3\n",
//!     &ReadConfig::new(Format::TianwangQuery), &(), &mut |r| { queries.push((r.query.to_string(), r.page)); Ok(()) })?;
//! assert_eq!(queries, vec![("老歌".to_string(), Some(3))]);
//! assert_eq!(s.encoding, "utf-8");
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use encoding_rs::{Encoding, GB18030, GBK, UTF_8};
use serde::{Deserialize, Serialize};

pub use super::bad::{BadLine, BadLines};
use super::bad::{LineError, TimeError, Unit};
use super::{Column, Format, Record, TsvColumns};
use crate::engine::error::{EngineError, Reason, Result};
use crate::engine::jobs::Tick;
use crate::engine::text::encoding;

/// How to read a log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadConfig {
    pub format: Format,
    /// An encoding label ("gb18030", "utf-8", …); None: detect.
    pub encoding: Option<String>,
    /// Refuse the whole file at its first bad line.
    pub strict: bool,
    /// The columns of a [`Format::Tsv`] log.
    pub columns: Option<TsvColumns>,
    /// How many bad lines are listed (all are counted).
    pub max_listed: usize,
}

impl ReadConfig {
    pub fn new(format: Format) -> ReadConfig {
        ReadConfig {
            format,
            encoding: None,
            strict: false,
            columns: None,
            max_listed: 10,
        }
    }

    /// Checks the configuration (a TSV needs its columns; a label must be known).
    pub(crate) fn validate(&self) -> Result<()> {
        if self.format == Format::Tsv && self.columns.is_none() {
            return Err(EngineError::invalid(
                "--columns",
                "a tsv log needs its columns, e.g. --columns time,user,query,rank,url",
            ));
        }
        if let Some(l) = &self.encoding {
            label_encoding(l)?;
        }
        Ok(())
    }
}

fn label_encoding(label: &str) -> Result<&'static Encoding> {
    let e = Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
        EngineError::invalid("--encoding", format!("unknown encoding label `{label}`"))
    })?;
    Ok(if e == GBK { GB18030 } else { e })
}

/// What a read saw.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadSummary {
    /// Physical lines (a last line without a newline counts).
    pub lines: u64,
    /// Valid records handed to the sink.
    pub records: u64,
    pub bad: BadLines,
    pub bytes: u64,
    /// Lower-case WHATWG name of the encoding used ("utf-8", "gb18030").
    pub encoding: String,
    /// How it was decided.
    pub encoding_note: String,
    /// Lines of a log in another encoding that were valid UTF-8 and read as UTF-8 (a log
    /// with lines appended from elsewhere; decided per line).
    #[serde(default)]
    pub utf8_lines: u64,
}

/// The longest line a log may have; a longer one is a bad line (read no further than this,
/// so one 51 MB "query" no longer costs gigabytes downstream).
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// A folder given where a log file is wanted, refused in these words (the reader and the
/// memory budget, which looks at the file first).
pub(crate) fn refuse_folder(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(EngineError::unreadable(
            path.display(),
            Reason::folder_not_log(),
        ));
    }
    Ok(())
}

/// Reads the file at `path` record by record into `sink`.
pub fn read_file(
    path: &Path,
    cfg: &ReadConfig,
    tick: &dyn Tick,
    sink: &mut dyn FnMut(&Record) -> Result<()>,
) -> Result<ReadSummary> {
    refuse_folder(path)?;
    let open =
        || std::fs::File::open(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e));
    let f = open()?;
    let total = f.metadata().map(|m| m.len()).unwrap_or(0);
    let mut head = Vec::with_capacity(encoding::GUESS_BYTES);
    f.take(encoding::GUESS_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
    let reader = BufReader::with_capacity(1 << 20, open()?);
    read_stream(
        &path.display().to_string(),
        &head,
        reader,
        total,
        cfg,
        tick,
        sink,
        true,
    )
}

/// Reads bytes `start..start + len` of `path` (a part starting at a line start) with the
/// encoding `label`; line numbers count from 1 at `start`, and the whole-file checks (empty
/// file, no valid record) are left to the caller ([`check_whole`]).
pub(crate) fn read_part(
    path: &Path,
    cfg: &ReadConfig,
    label: &str,
    start: u64,
    len: u64,
    tick: &dyn Tick,
    sink: &mut dyn FnMut(&Record) -> Result<()>,
) -> Result<ReadSummary> {
    use std::io::Seek;
    let bad = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    let mut f = std::fs::File::open(path).map_err(bad)?;
    f.seek(std::io::SeekFrom::Start(start)).map_err(bad)?;
    let mut part = cfg.clone();
    part.encoding = Some(label.to_string());
    let reader = BufReader::with_capacity(1 << 20, f.take(len));
    read_stream(
        &path.display().to_string(),
        b"",
        reader,
        len,
        &part,
        tick,
        sink,
        false,
    )
}

/// [`read_file`] over bytes in memory (tests, examples); `name` stands for the file name.
pub fn read_bytes(
    name: &str,
    bytes: &[u8],
    cfg: &ReadConfig,
    tick: &dyn Tick,
    sink: &mut dyn FnMut(&Record) -> Result<()>,
) -> Result<ReadSummary> {
    let head = &bytes[..bytes.len().min(encoding::GUESS_BYTES)];
    read_stream(name, head, bytes, bytes.len() as u64, cfg, tick, sink, true)
}

/// Decides the encoding of a log from its first bytes.
pub(crate) fn detect(head: &[u8], label: Option<&str>) -> Result<(&'static Encoding, String)> {
    if let Some(l) = label {
        let e = label_encoding(l)?;
        return Ok((e, format!("given: {l}")));
    }
    if head.starts_with(b"\xEF\xBB\xBF") {
        return Ok((UTF_8, "UTF-8 byte-order mark".into()));
    }
    if head.is_ascii() {
        return Ok((UTF_8, "the first 64 KB are ASCII: read as UTF-8".into()));
    }
    // Line votes: a UTF-8 log with a few lines in another encoding is still UTF-8 (those lines
    // are reported as bad), and whole non-ASCII GB18030 lines are almost never valid UTF-8.
    let mut lines: Vec<&[u8]> = head.split(|&b| b == b'\n').collect();
    if head.len() == encoding::GUESS_BYTES && lines.len() > 1 {
        lines.pop(); // possibly cut
    }
    let non_ascii: Vec<&&[u8]> = lines.iter().filter(|l| !l.is_ascii()).collect();
    let utf8 = non_ascii
        .iter()
        .filter(|l| std::str::from_utf8(l).is_ok())
        .count();
    if utf8 > 0 && utf8 * 10 >= non_ascii.len() * 8 {
        return Ok((
            UTF_8,
            format!(
                "{utf8} of {} non-ASCII lines in the first 64 KB are valid UTF-8",
                non_ascii.len()
            ),
        ));
    }
    let d = encoding::decide(head, None, None, Some(b"cn"))
        .map_err(|e| EngineError::Internal(e.to_string()))?;
    let e = if d.encoding == GBK {
        GB18030
    } else {
        d.encoding
    };
    // Single-byte guesses over CJK logs are wrong more often than right: a legacy Chinese log
    // that is not UTF-8 is GB18030 unless chardetng is sure of another multi-byte encoding.
    if e != UTF_8 && e != GB18030 && e.is_single_byte() {
        return Ok((
            GB18030,
            format!("not UTF-8; detector said {}: read as gb18030", e.name()),
        ));
    }
    Ok((e, format!("detected: {}", d.note())))
}

#[allow(clippy::too_many_arguments)]
fn read_stream(
    name: &str,
    head: &[u8],
    mut reader: impl BufRead,
    total: u64,
    cfg: &ReadConfig,
    tick: &dyn Tick,
    sink: &mut dyn FnMut(&Record) -> Result<()>,
    checks: bool,
) -> Result<ReadSummary> {
    cfg.validate()?;
    let (enc, note) = detect(head, cfg.encoding.as_deref())?;
    let mut s = ReadSummary {
        encoding: enc.name().to_ascii_lowercase(),
        encoding_note: note,
        ..ReadSummary::default()
    };
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut decoded = String::new();
    let mut store: Vec<&str> = Vec::with_capacity(16);
    let enc_name = s.encoding.clone();
    loop {
        // The field slices borrow this line only: recycle the allocation, not the borrows.
        let mut fields: Vec<&str> = recycle(std::mem::take(&mut store));
        let (n, long) =
            crate::engine::text::read_line_capped(&mut reader, &mut buf, MAX_LINE_BYTES).map_err(
                |e| {
                    EngineError::unreadable(
                        format!("{name}:{}", s.lines + 1),
                        Reason::log_line("error.log_read", &[&e], ""),
                    )
                },
            )?;
        if n == 0 {
            break;
        }
        s.bytes += n as u64;
        s.lines += 1;
        if s.lines.is_multiple_of(65_536) {
            let f = if total > 0 {
                s.bytes as f32 / total as f32
            } else {
                0.0
            };
            tick.tick(f.min(1.0), &format!("{} lines", s.lines))?;
        }
        if long {
            bad(&mut s, cfg, name, LineError::TooLong(MAX_LINE_BYTES))?;
            continue;
        }
        let mut line: &[u8] = &buf;
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        if s.lines == 1 && line.starts_with(b"\xEF\xBB\xBF") {
            line = &line[3..];
        }
        let text: &str = if line.is_ascii() {
            // ASCII is the same in every encoding a log comes in.
            std::str::from_utf8(line).unwrap_or_default()
        } else if enc == UTF_8 {
            match std::str::from_utf8(line) {
                Ok(t) => t,
                Err(e) => {
                    bad(&mut s, cfg, name, LineError::NotUtf8(e.valid_up_to() + 1))?;
                    continue;
                }
            }
        } else if let Ok(t) = std::str::from_utf8(line) {
            // A log in GB18030 (or another legacy encoding) with UTF-8 lines in it: whole
            // non-ASCII Chinese lines in GB18030 are almost never valid UTF-8, so a line that
            // is was written as UTF-8 (read as GB18030 it turned 天网 into 澶╃綉).
            s.utf8_lines += 1;
            t
        } else {
            match enc.decode_without_bom_handling_and_without_replacement(line) {
                Some(t) => {
                    decoded.clear();
                    decoded.push_str(&t);
                    &decoded
                }
                None => {
                    bad(&mut s, cfg, name, LineError::NotDecoded(&enc_name))?;
                    continue;
                }
            }
        };
        let parsed = parse_line(text, cfg, s.lines, &mut fields);
        match parsed {
            Ok(r) => {
                s.records += 1;
                sink(&r)?;
            }
            Err(reason) => bad(&mut s, cfg, name, reason)?,
        }
        store = recycle(fields);
    }
    if checks {
        check_whole(name, &s, cfg)?;
    }
    tick.tick(1.0, &format!("{} lines", s.lines))?;
    Ok(s)
}

/// An empty vector of slices with `v`'s allocation and any lifetime.
fn recycle<'b>(mut v: Vec<&str>) -> Vec<&'b str> {
    v.clear();
    v.into_iter().map(|_| "").collect()
}

/// The whole-file checks: an empty file, a file without one valid record.
pub(crate) fn check_whole(name: &str, s: &ReadSummary, cfg: &ReadConfig) -> Result<()> {
    if s.lines == 0 {
        return Err(EngineError::unreadable(
            format!("{name}:1"),
            Reason::empty_log(),
        ));
    }
    if s.records == 0 {
        let (line, first) = s
            .bad
            .first
            .first()
            .map_or((1, "no record"), |b| (b.line, b.reason.english.as_str()));
        return Err(EngineError::unreadable(
            format!("{name}:{line}"),
            Reason::no_valid_record(cfg.format.name(), s.lines, s.bad.count, first),
        ));
    }
    Ok(())
}

/// Counts a bad line; says why (allocates) only for the few kept, or the one that ends a
/// `strict` read.
fn bad(s: &mut ReadSummary, cfg: &ReadConfig, name: &str, why: LineError<'_>) -> Result<()> {
    if cfg.strict {
        return Err(EngineError::unreadable(
            format!("{name}:{}", s.lines),
            why.reason().strict(),
        ));
    }
    s.bad.count += 1;
    if s.bad.first.len() < cfg.max_listed {
        s.bad.first.push(BadLine {
            line: s.lines,
            reason: why.reason(),
        });
    }
    Ok(())
}

/// Parses one decoded line; `Err(why)` for a bad line.
pub(crate) fn parse_line<'a>(
    text: &'a str,
    cfg: &ReadConfig,
    line: u64,
    fields: &mut Vec<&'a str>,
) -> std::result::Result<Record<'a>, LineError<'a>> {
    if text.trim().is_empty() {
        return Err(LineError::Empty);
    }
    let mut r = Record {
        line,
        time: None,
        dated: false,
        user: "",
        query: "",
        page: None,
        rank: None,
        order: None,
        url: None,
        cache: None,
    };
    match cfg.format {
        Format::Sogouq => parse_sogouq(text, fields, &mut r)?,
        Format::TianwangQuery => parse_tianwang(text, fields, &mut r, false)?,
        Format::TianwangClick => parse_tianwang(text, fields, &mut r, true)?,
        Format::Tsv => {
            let cols = cfg.columns.as_ref().map(|c| c.0.as_slice()).unwrap_or(&[]);
            parse_tsv(text, cols, fields, &mut r)?
        }
    }
    Ok(r)
}

fn parse_sogouq<'a>(
    text: &'a str,
    fields: &mut Vec<&'a str>,
    r: &mut Record<'a>,
) -> std::result::Result<(), LineError<'a>> {
    fields.extend(text.split('\t'));
    let n = fields.len();
    if n < 5 {
        return Err(LineError::SogouqFields(n));
    }
    let (t, dated) = parse_time(fields[0]).map_err(|e| LineError::Time(fields[0], e))?;
    r.time = Some(t);
    r.dated = dated;
    r.user = fields[1];
    r.url = Some(fields[n - 1]);
    // Rank and order: "8 3" in one field, or two fields (a tab instead of the space).
    let (rank_s, order_s, query_end) = match fields[n - 2].split_once([' ', '\t']) {
        Some((a, b)) => (a.trim(), b.trim(), n - 2),
        None if n >= 6 => (fields[n - 3].trim(), fields[n - 2].trim(), n - 3),
        None => return Err(LineError::RankOrder(fields[n - 2])),
    };
    r.rank = Some(parse_rank(rank_s)?);
    r.order = Some(
        order_s
            .parse::<u32>()
            .map_err(|_| LineError::Order(order_s))?,
    );
    if query_end < 3 {
        return Err(LineError::NoQuery);
    }
    // A query holding a tab spans several fields: take the span of the line.
    let q = if query_end == 3 {
        fields[2]
    } else {
        let start = fields[2].as_ptr() as usize - text.as_ptr() as usize;
        let last = fields[query_end - 1];
        let end = last.as_ptr() as usize - text.as_ptr() as usize + last.len();
        &text[start..end]
    };
    r.query = strip_brackets(q);
    Ok(())
}

fn strip_brackets(q: &str) -> &str {
    if q.len() >= 2 && q.starts_with('[') && q.ends_with(']') {
        &q[1..q.len() - 1]
    } else {
        q
    }
}

fn parse_rank(s: &str) -> std::result::Result<u32, LineError<'_>> {
    match s.trim().parse::<u32>() {
        Ok(0) => Err(LineError::RankZero),
        Ok(v) => Ok(v),
        Err(_) => Err(LineError::Rank(s)),
    }
}

fn parse_page(s: &str) -> std::result::Result<u32, LineError<'_>> {
    match s.trim().parse::<u32>() {
        Ok(0) => Err(LineError::PageZero),
        Ok(v) => Ok(v),
        Err(_) => Err(LineError::Page(s)),
    }
}

/// The book's records: tab-separated; or, when a line has no tabs, split on spaces with the
/// 5-token time first (`Fri Mar 21 00:00:02 2003`) and the query the middle tokens.
fn parse_tianwang<'a>(
    text: &'a str,
    fields: &mut Vec<&'a str>,
    r: &mut Record<'a>,
    click: bool,
) -> std::result::Result<(), LineError<'a>> {
    let (time_s, ip, third, query, last): (&str, &str, &str, &str, &str);
    if text.contains('\t') {
        fields.extend(text.split('\t'));
        if fields.len() != 5 {
            return Err(LineError::TabFields {
                click,
                found: fields.len(),
            });
        }
        time_s = fields[0];
        ip = fields[1];
        if click {
            query = fields[2];
            third = fields[3];
        } else {
            third = fields[2];
            query = fields[3];
        }
        last = fields[4];
    } else {
        // Whitespace-separated: the time (5 tokens, or TSE's one `Wed-Apr-14-16:09:06-2004`),
        // IP, (flag | query…), (query… | URL), last.
        let toks: Vec<(usize, &str)> = token_spans(text);
        let k = if toks
            .first()
            .is_some_and(|t| t.1.contains('-') && parse_time(t.1).is_ok())
        {
            1
        } else {
            5
        };
        if toks.len() < k + 4 {
            return Err(LineError::Tokens {
                click,
                found: toks.len(),
            });
        }
        let span = |a: usize, b: usize| -> &'a str {
            let (s, _) = toks[a];
            let (e, t) = toks[b];
            &text[s..e + t.len()]
        };
        time_s = span(0, k - 1);
        ip = toks[k].1;
        last = toks[toks.len() - 1].1;
        if click {
            third = toks[toks.len() - 2].1;
            query = span(k + 1, toks.len() - 3);
        } else {
            third = toks[k + 1].1;
            query = span(k + 2, toks.len() - 2);
        }
    }
    let (t, dated) = parse_time(time_s).map_err(|e| LineError::Time(time_s, e))?;
    r.time = Some(t);
    r.dated = dated;
    r.user = ip;
    r.query = query;
    if click {
        r.url = Some(third);
        r.rank = Some(parse_rank(last)?);
        r.page = None;
    } else {
        r.cache = Some(third);
        r.page = Some(parse_page(last)?);
    }
    Ok(())
}

fn token_spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

fn parse_tsv<'a>(
    text: &'a str,
    cols: &[Column],
    fields: &mut Vec<&'a str>,
    r: &mut Record<'a>,
) -> std::result::Result<(), LineError<'a>> {
    fields.extend(text.split('\t'));
    if fields.len() < cols.len() {
        return Err(LineError::TsvFields {
            expected: cols.len(),
            found: fields.len(),
        });
    }
    for (c, f) in cols.iter().zip(fields.iter()) {
        match c {
            Column::Time => {
                let (t, d) = parse_time(f).map_err(|e| LineError::Time(f, e))?;
                r.time = Some(t);
                r.dated = d;
            }
            Column::User => r.user = f,
            Column::Query => r.query = strip_brackets(f),
            Column::Page => r.page = Some(parse_page(f)?),
            Column::Rank => r.rank = Some(parse_rank(f)?),
            Column::Order => r.order = Some(f.trim().parse().map_err(|_| LineError::Order(f))?),
            Column::Url => r.url = Some(f),
            Column::Cache => r.cache = Some(f),
            Column::Skip => {}
        }
    }
    Ok(())
}

/// Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn num(s: &str, lo: u32, hi: u32, unit: Unit) -> std::result::Result<u32, TimeError<'_>> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeError::NotNumber(unit, s));
    }
    let v: u32 = s.parse().map_err(|_| TimeError::TooLarge(unit, s))?;
    if v < lo || v > hi {
        return Err(TimeError::OutOfRange {
            unit,
            value: v,
            lo,
            hi,
        });
    }
    Ok(v)
}

fn hms(s: &str) -> std::result::Result<i64, TimeError<'_>> {
    let mut it = s.split(':');
    let (Some(h), Some(m), Some(sec), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(TimeError::ExpectedHms);
    };
    Ok(num(h, 0, 23, Unit::Hour)? as i64 * 3600
        + num(m, 0, 59, Unit::Minute)? as i64 * 60
        + num(sec, 0, 60, Unit::Second)? as i64)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Parses a log time: `(seconds, dated)`; see the module doc for the forms.
pub(crate) fn parse_time(s: &str) -> std::result::Result<(i64, bool), TimeError<'_>> {
    let s = s.trim();
    if s.is_empty() {
        return Err(TimeError::Empty);
    }
    let b = s.as_bytes();
    if b.len() == 14 && b.iter().all(u8::is_ascii_digit) {
        let y = num(&s[0..4], 1970, 9999, Unit::Year)? as i64;
        let mo = num(&s[4..6], 1, 12, Unit::Month)?;
        let d = num(&s[6..8], 1, 31, Unit::Day)?;
        let t = num(&s[8..10], 0, 23, Unit::Hour)? as i64 * 3600
            + num(&s[10..12], 0, 59, Unit::Minute)? as i64 * 60
            + num(&s[12..14], 0, 60, Unit::Second)? as i64;
        return Ok((days_from_civil(y, mo, d) * 86_400 + t, true));
    }
    // (ASCII first: the fuzzer found `2003-03-1\u{80}…`, sliced inside a character.)
    if b.len() >= 10 && b[..10].is_ascii() && b[4] == b'-' && b[7] == b'-' {
        let y = num(&s[0..4], 1970, 9999, Unit::Year)? as i64;
        let mo = num(&s[5..7], 1, 12, Unit::Month)?;
        let d = num(&s[8..10], 1, 31, Unit::Day)?;
        let rest = s[10..].trim_start_matches(['T', ' ']);
        let t = if rest.is_empty() { 0 } else { hms(rest)? };
        return Ok((days_from_civil(y, mo, d) * 86_400 + t, true));
    }
    if s.contains(':') && !s.contains([' ', '-']) {
        return Ok((hms(s)?, false));
    }
    // `Fri Mar 21 00:00:02 2003` or TSE's `Wed-Apr-14-16:09:06-2004`.
    let parts: Vec<&str> = s.split([' ', '-']).filter(|p| !p.is_empty()).collect();
    if parts.len() == 5 {
        let mo = MONTHS
            .iter()
            .position(|m| m.eq_ignore_ascii_case(parts[1]))
            .ok_or(TimeError::UnknownMonth(parts[1]))? as u32
            + 1;
        let d = num(parts[2], 1, 31, Unit::Day)?;
        let t = hms(parts[3])?;
        let y = num(parts[4], 1970, 9999, Unit::Year)? as i64;
        return Ok((days_from_civil(y, mo, d) * 86_400 + t, true));
    }
    Err(TimeError::NotATime)
}
