//! The Tianwang (天网) raw page format of §4.8 [L1042–1126]. The index page database of §5.2
//! (`Doc.idx`, `Url.idx`) [L1397–1476] built over these files is in [`super::index`].
//!
//! A raw file is a sequence of records with no separator between them [L1054]:
//!
//! ```text
//! version: 1.0                          first property, always
//! url: http://net.pku.cn/~cnds/
//! origin: http://net.pku.cn/~cnds       only after a redirect
//! date: Tue, 16 Sep 2003 14:13:20 GMT
//! ip: 162.105.203.25
//! length: 11683                         last property: DATA length in bytes
//! <LF>
//! DATA (HTTP response header + blank line + body, as fetched)
//! <LF>
//! ```
//!
//! Where the book is silent or ambiguous we take these book-faithful choices:
//! * Every HEAD line and both blank lines are a single LF, never CRLF [L1062]. DATA is opaque bytes.
//! * The writer emits `name: value`; the reader trims spaces/tabs after `:` (the rule says
//!   `NAME ":" VALUE`, every example has `": "`) [L1058, L1068–1083].
//! * "Lower-case string" names [L1060] admit `a-z`, `0-9` and `-` (`unzip-length` needs `-`).
//! * `date` is written in the RFC 1123 form of the book's example (`Tue, 15 Apr 2003 08:13:06
//!   GMT`, 4-digit year) although the text says RFC 822 [L1094]; the reader takes any RFC 822/2822
//!   date and converts it to UTC. Sub-second precision is not stored.
//! * `ip` is optional (not marked required [L1096]); `url` and `date` are required [L1090, L1094].
//! * Any `version` value is read with 1.0 semantics ("multiple versions allowed" [L1066]).
//! * Unknown properties are ignored [L1104]; duplicated known properties are an error.
//! * v1.0 names no compression algorithm [L1106]; this module compresses with gzip.
//! * TSE stores DATA as HTTP header + `"\n"` + body; that extra LF is why Fig 4-2's
//!   `length` exceeds `Content-Length` by 277 = 276 + 1 [L1402–1422]. DATA is kept byte-exact.
//! * Implementation limit (not in the book): a HEAD longer than [`MAX_HEAD_BYTES`] is rejected.
//!
//! Recovery's gap-filling choices are listed on [`recover_with`].

use std::borrow::Cow;
use std::io::{self, Read, Write};

use chrono::{DateTime, Utc};

use super::FormatError;

/// The record version this module writes [L1068].
pub(crate) const VERSION: &str = "1.0";
/// The book's confirmation depth for recovery: 3 consecutive valid records [L1115].
pub(crate) const CONFIRM_DEPTH: usize = 3;
/// Longest HEAD accepted (an implementation limit that keeps recovery linear on garbage).
pub(crate) const MAX_HEAD_BYTES: usize = 64 * 1024;

/// One page as stored in a Tianwang raw file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRecord {
    /// The URL actually fetched (after a redirect, the final one) [L1090].
    pub url: String,
    /// The original URL, only when a `Location` redirect happened [L1092].
    pub origin: Option<String>,
    /// When the page was saved [L1094].
    pub date: DateTime<Utc>,
    /// Server IP address (TSE writes the host name when DNS failed) [L1096].
    pub ip: Option<String>,
    /// Uncompressed length of `data`; present if and only if `data` is compressed [L1098, L1106].
    pub unzip_length: Option<u64>,
    /// DATA byte-exact: HTTP response header + blank line + body [L1445].
    pub data: Vec<u8>,
}

impl RawRecord {
    /// DATA uncompressed: borrowed as is without `unzip-length`, otherwise gunzipped and checked
    /// against `unzip-length` (v1.0 names no algorithm [L1106]; this module uses gzip).
    pub(crate) fn uncompressed(&self) -> io::Result<Cow<'_, [u8]>> {
        let Some(expect) = self.unzip_length else {
            return Ok(Cow::Borrowed(&self.data));
        };
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&self.data[..]).read_to_end(&mut out)?;
        if out.len() as u64 != expect {
            let msg = format!("DATA inflates to {} bytes, not unzip-length", out.len());
            return Err(io::Error::new(io::ErrorKind::InvalidData, msg));
        }
        Ok(Cow::Owned(out))
    }

    /// The same record with DATA gzip-compressed and `unzip-length` set (no-op if compressed).
    pub fn gzipped(&self) -> io::Result<RawRecord> {
        if self.unzip_length.is_some() {
            return Ok(self.clone());
        }
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&self.data)?;
        Ok(RawRecord {
            data: enc.finish()?,
            unzip_length: Some(self.data.len() as u64),
            ..self.clone()
        })
    }
}

/// Splits an HTTP message at the first `CRLF CRLF` (or bare `LF LF`) into header (including the
/// terminator) and body. `None` when no header terminator exists.
pub(crate) fn split_http(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let crlf = find(data, b"\r\n\r\n", 0).map(|i| i + 4);
    let lf = find(data, b"\n\n", 0).map(|i| i + 2);
    let end = match (crlf, lf) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(data.split_at(end))
}

/// The `date` property text: RFC 1123 form in GMT, as in the book's example [L1078].
pub(crate) fn format_date(date: &DateTime<Utc>) -> String {
    date.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let rest = hay.get(from..)?;
    rest.windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

// ---------------------------------------------------------------------------------------------
// Writing

fn push_prop(head: &mut Vec<u8>, name: &str, value: &str) -> io::Result<()> {
    if value.contains(['\n', '\r']) || value.starts_with([' ', '\t']) {
        let msg = format!("`{name}` value {value:?} has a line break or leading blank");
        return Err(io::Error::new(io::ErrorKind::InvalidInput, msg));
    }
    head.extend_from_slice(format!("{name}: {value}\n").as_bytes());
    Ok(())
}

/// The HEAD of `r` including its blank line.
fn head(r: &RawRecord) -> io::Result<Vec<u8>> {
    if r.url.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty url"));
    }
    let mut h = Vec::with_capacity(192);
    push_prop(&mut h, "version", VERSION)?;
    push_prop(&mut h, "url", &r.url)?;
    if let Some(origin) = &r.origin {
        push_prop(&mut h, "origin", origin)?;
    }
    push_prop(&mut h, "date", &format_date(&r.date))?;
    if let Some(ip) = &r.ip {
        push_prop(&mut h, "ip", ip)?;
    }
    if let Some(n) = r.unzip_length {
        push_prop(&mut h, "unzip-length", &n.to_string())?;
    }
    push_prop(&mut h, "length", &r.data.len().to_string())?;
    h.push(b'\n');
    Ok(h)
}

/// Writes one record (HEAD, LF, DATA, LF) and returns the number of bytes written.
/// Values containing CR/LF or starting with a blank are refused (`InvalidInput`).
pub fn write_record(w: &mut impl Write, r: &RawRecord) -> io::Result<u64> {
    let h = head(r)?;
    w.write_all(&h)?;
    w.write_all(&r.data)?;
    w.write_all(b"\n")?;
    Ok((h.len() + r.data.len() + 1) as u64)
}

/// Writes records back to back. Returns the start offset of every record followed by the end
/// offset: `n + 1` values, exactly the offset column of `Doc.idx` with its sentinel.
pub fn write_all(w: &mut impl Write, records: &[RawRecord]) -> io::Result<Vec<u64>> {
    let mut offsets = Vec::with_capacity(records.len() + 1);
    let mut at = 0;
    for r in records {
        offsets.push(at);
        at += write_record(w, r)?;
    }
    offsets.push(at);
    Ok(offsets)
}

// ---------------------------------------------------------------------------------------------
// Reading

/// One HEAD property as found in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Property {
    /// Byte offset of the line.
    pub offset: u64,
    pub name: String,
    /// The value with leading blanks trimmed, as raw bytes.
    pub value: Vec<u8>,
}

/// Where the parts of one structurally valid record lie (for a hex viewer or rule checker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordLayout {
    /// First byte of `version:`.
    pub offset: u64,
    pub properties: Vec<Property>,
    /// First byte of DATA (after the HEAD's blank line).
    pub data_offset: u64,
    pub data_len: u64,
    /// First byte after the trailing blank line: where the next record starts.
    pub end: u64,
}

impl RecordLayout {
    /// Applies the property semantics of v1.0 [L1088–1106] to a checked layout.
    pub fn record(&self, bytes: &[u8]) -> Result<RawRecord, FormatError> {
        let at = self.offset as usize;
        let mut slots: [Option<&Property>; 6] = [None; 6];
        for p in &self.properties {
            let names = ["version", "url", "origin", "date", "ip", "unzip-length"];
            let Some(i) = names.iter().position(|n| *n == p.name) else {
                continue; // unknown properties are ignored [L1104]
            };
            if slots[i].replace(p).is_some() {
                let msg = format!("property `{}` appears twice", p.name);
                return Err(FormatError::malformed(p.offset as usize, msg));
            }
        }
        let text = |p: &Property| {
            let msg = || FormatError::malformed(p.offset as usize, format!("bad `{}`", p.name));
            String::from_utf8(p.value.clone()).map_err(|_| msg())
        };
        let [_, url, origin, date, ip, unzip] = slots;
        let url = url.ok_or_else(|| FormatError::malformed(at, "`url` is required [L1090]"))?;
        let date = date.ok_or_else(|| FormatError::malformed(at, "`date` is required [L1094]"))?;
        let date_text = text(date)?;
        let date = DateTime::parse_from_rfc2822(&date_text).map_err(|e| {
            let msg = format!("`date: {date_text}` is not an RFC 822 date ({e})");
            FormatError::malformed(date.offset as usize, msg)
        })?;
        let unzip_length = match unzip {
            Some(p) => Some(decimal(&p.value).ok_or_else(|| {
                FormatError::malformed(p.offset as usize, "`unzip-length` is not a number")
            })?),
            None => None,
        };
        let url_text = text(url)?;
        if url_text.is_empty() {
            return Err(FormatError::malformed(
                url.offset as usize,
                "`url` is empty",
            ));
        }
        let start = self.data_offset as usize;
        let data = start
            .checked_add(self.data_len as usize)
            .and_then(|end| bytes.get(start..end))
            .ok_or_else(|| FormatError::truncated(start, "DATA lies past the input"))?;
        Ok(RawRecord {
            url: url_text,
            origin: origin.map(text).transpose()?,
            date: date.with_timezone(&Utc),
            ip: ip.map(text).transpose()?,
            unzip_length,
            data: data.to_vec(),
        })
    }
}

fn decimal(v: &[u8]) -> Option<u64> {
    if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(v).ok()?.parse().ok()
}

fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(&b[..b.len().min(40)]).into_owned();
    if b.len() > 40 { s + "…" } else { s }
}

fn check_property(text: &[u8], at: usize) -> Result<Property, FormatError> {
    if text == b"\r" {
        let msg = "rule 3: a line of only CR; BLANK_LINE is LF (CRLF conversion? [L1062, L1119])";
        return Err(FormatError::malformed(at, msg));
    }
    let Some(colon) = text.iter().position(|&b| b == b':') else {
        let msg = format!("rule 4: property line {:?} has no ':'", shown(text));
        return Err(FormatError::malformed(at, msg));
    };
    let name = &text[..colon];
    if name.is_empty() {
        return Err(FormatError::malformed(at, "rule 4: empty property name"));
    }
    if let Some(&b) = name
        .iter()
        .find(|&&b| !matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
    {
        let why = if b.is_ascii_uppercase() {
            "is not lower-case".to_string()
        } else {
            format!("contains byte 0x{b:02x} (allowed: a-z 0-9 -)")
        };
        let msg = format!("rule 7: property name {:?} {why}", shown(name));
        return Err(FormatError::malformed(at, msg));
    }
    let mut value = &text[colon + 1..];
    while let [b' ' | b'\t', rest @ ..] = value {
        value = rest;
    }
    Ok(Property {
        offset: at as u64,
        name: String::from_utf8_lossy(name).into_owned(),
        value: value.to_vec(),
    })
}

/// Checks rules 2)–7) [L1054–1060] for the record starting at `pos` and returns its layout.
/// Errors point at the offending line (rules 3, 4, 5, 6, 7), at the blank line that ends a HEAD
/// without `length`, at DATA's first byte when `length` runs past the input, or at the byte
/// after DATA when it is not the closing LF.
pub(crate) fn check_record(bytes: &[u8], pos: usize) -> Result<RecordLayout, FormatError> {
    let mut props: Vec<Property> = Vec::new();
    let mut line = pos;
    let limit = bytes.len().min(pos.saturating_add(MAX_HEAD_BYTES));
    let blank = loop {
        let window = bytes.get(line..limit).unwrap_or_default();
        let Some(n) = window.iter().position(|&b| b == b'\n') else {
            if limit < bytes.len() {
                let msg = format!("HEAD longer than {MAX_HEAD_BYTES} bytes");
                return Err(FormatError::malformed(pos, msg));
            }
            return Err(FormatError::truncated(line, "input ends inside HEAD"));
        };
        let text = &window[..n];
        if text.is_empty() {
            break line;
        }
        let p = check_property(text, line)?;
        if props.is_empty() && p.name != "version" {
            let msg = format!("rule 5: first property must be `version`, not `{}`", p.name);
            return Err(FormatError::malformed(line, msg));
        }
        if props.last().is_some_and(|l| l.name == "length") {
            let msg = format!("rule 6: `length` must be last, `{}` follows", p.name);
            return Err(FormatError::malformed(line, msg));
        }
        props.push(p);
        line += n + 1;
    };
    let Some(last) = props.last().filter(|l| l.name == "length") else {
        let msg = if props.is_empty() {
            "rule 5: record starts with a blank line, `version` expected".to_string()
        } else if check_property(next_line(bytes, blank + 1), blank + 1).is_ok() {
            "rule 3: blank line inside HEAD (a property follows, `length` not seen)".to_string()
        } else {
            "rule 6: HEAD ends without `length` as its last property".to_string()
        };
        return Err(FormatError::malformed(blank, msg));
    };
    let Some(len) = decimal(&last.value) else {
        let cr = if last.value.contains(&b'\r') {
            " (CR: text mode? [L1119])"
        } else {
            ""
        };
        let msg = format!(
            "rule 6: `length: {}` is not a number{cr}",
            shown(&last.value)
        );
        return Err(FormatError::malformed(last.offset as usize, msg));
    };
    let data_offset = blank + 1;
    let available = (bytes.len() - data_offset) as u64;
    let data_end = match usize::try_from(len) {
        Ok(l) if len < available => data_offset + l,
        _ => {
            let msg = format!("`length: {len}` needs {len} bytes + LF, only {available} remain");
            return Err(FormatError::truncated(data_offset, msg));
        }
    };
    if bytes[data_end] != b'\n' {
        let msg = format!(
            "rule 2: DATA must end in LF, found 0x{:02x}",
            bytes[data_end]
        );
        return Err(FormatError::malformed(data_end, msg));
    }
    Ok(RecordLayout {
        offset: pos as u64,
        properties: props,
        data_offset: data_offset as u64,
        data_len: len,
        end: data_end as u64 + 1,
    })
}

fn next_line(bytes: &[u8], at: usize) -> &[u8] {
    let rest = bytes.get(at..).unwrap_or_default();
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    &rest[..end.min(256)]
}

/// Strict reader: every byte must belong to a valid record. Returns each record with the offset
/// of its first byte. The first violation fails the whole parse, naming its offset.
pub fn parse(bytes: &[u8]) -> Result<Vec<(u64, RawRecord)>, FormatError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let layout = check_record(bytes, pos)?;
        out.push((pos as u64, layout.record(bytes)?));
        pos = layout.end as usize;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Recovery [L1108–1117]

/// One `version:` position tried while out of sync, with its confirmation chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Where `version:` was found (POS in the book).
    pub offset: u64,
    /// Start of each consecutive record that passed the rules, beginning with `offset`.
    pub chain: Vec<u64>,
    /// Where and why the chain broke, if it did before the confirmation depth.
    pub broken: Option<(u64, String)>,
    /// Accepted as a sync point (see [`recover_with`]).
    pub accepted: bool,
}

/// A byte range that yielded no record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedRange {
    pub start: u64,
    pub end: u64,
    pub reason: String,
}

/// What [`recover`] found: the records, the ranges skipped and every candidate examined.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recovery {
    pub records: Vec<(u64, RawRecord)>,
    pub damaged: Vec<DamagedRange>,
    pub candidates: Vec<Candidate>,
    pub confirm_depth: usize,
}

impl Recovery {
    /// Total bytes that yielded no record.
    pub fn bytes_damaged(&self) -> u64 {
        self.damaged.iter().map(|d| d.end - d.start).sum()
    }
    /// Candidates whose chain did not confirm them.
    pub(crate) fn candidates_rejected(&self) -> usize {
        self.candidates.iter().filter(|c| !c.accepted).count()
    }
}

/// Recovers every confirmable record from a damaged file with the book's depth of 3.
pub fn recover(bytes: &[u8]) -> Recovery {
    recover_with(bytes, CONFIRM_DEPTH)
}

/// Checks the chain of records from `pos`. Accepted when `depth` records pass, and (the book is
/// silent here) also when a shorter chain ends exactly at the end of the input, or when `pos` is 0:
/// the start of a file is a record boundary by rule 1), not a guess found by searching.
fn confirm(bytes: &[u8], pos: usize, depth: usize) -> Candidate {
    let (mut chain, mut q) = (Vec::new(), pos);
    while chain.len() < depth.max(1) && (chain.is_empty() || q != bytes.len()) {
        match check_record(bytes, q) {
            Ok(l) => {
                chain.push(q as u64);
                q = l.end as usize;
            }
            Err(e) => {
                let broken = Some((e.offset().unwrap_or(q as u64), e.message()));
                let accepted = pos == 0 && !chain.is_empty();
                return Candidate {
                    offset: pos as u64,
                    chain,
                    broken,
                    accepted,
                };
            }
        };
    }
    Candidate {
        offset: pos as u64,
        chain,
        broken: None,
        accepted: true,
    }
}

impl Recovery {
    fn skip(&mut self, start: usize, end: usize, reason: String) {
        if start < end {
            let (start, end) = (start as u64, end as u64);
            self.damaged.push(DamagedRange { start, end, reason });
        }
    }

    /// The first confirmed candidate in `from..to`, searching `version:` (all tries are logged).
    fn confirmed_in(
        &mut self,
        bytes: &[u8],
        from: usize,
        to: usize,
        depth: usize,
    ) -> Option<usize> {
        let mut pos = from;
        while let Some(p) = find(bytes, b"version:", pos).filter(|&p| p < to) {
            let c = confirm(bytes, p, depth);
            let ok = c.accepted;
            self.candidates.push(c);
            if ok {
                return Some(p);
            }
            pos = p + 1;
        }
        None
    }
}

/// [`recover`] with a chosen confirmation depth (`depth` consecutive valid records).
///
/// Search `version:`; a candidate POS whose chain of `depth` records passes rules 2)–7) is a sync
/// point, and from there records are taken one after another [L1111–1115]. Gap-filling choices:
/// a rejected candidate resumes the search at POS + 1 (the book says "from POS", which would
/// loop). The start of the input (byte 0) needs no chain: by rule 1) a file begins with a record,
/// so it is a boundary, not a guess; a chain that runs exactly to the end of the input before
/// `depth` records is accepted too (the book is silent; else a short file recovers nothing).
/// A synced record that is not followed by a valid record (or the end of input), or whose
/// properties are unusable, is suspect: if a confirmed chain starts inside its claimed span, its
/// `length` or HEAD was cut (a truncated record swallowing the next one) and it is dropped.
/// Otherwise it is kept, and the search resumes after it.
pub(crate) fn recover_with(bytes: &[u8], depth: usize) -> Recovery {
    let mut out = Recovery {
        confirm_depth: depth.max(1),
        ..Recovery::default()
    };
    let mut gap = 0;
    while let Some(p) = out.confirmed_in(bytes, gap, bytes.len(), depth) {
        out.skip(gap, p, "no confirmed record starts here".into());
        let mut r = p;
        while let Ok(layout) = check_record(bytes, r) {
            let next = layout.end as usize;
            let followed = next == bytes.len() || check_record(bytes, next).is_ok();
            let rec = layout.record(bytes);
            if (!followed || rec.is_err())
                && let Some(q) = out.confirmed_in(bytes, r + 1, next, depth)
            {
                out.skip(r, q, format!("overlaps the confirmed record at byte {q}"));
                r = q;
                continue;
            }
            match rec {
                Ok(rec) => out.records.push((r as u64, rec)),
                Err(e) => out.skip(r, next, e.to_string()),
            }
            r = next;
            if !followed {
                break;
            }
        }
        gap = r;
    }
    out.skip(
        gap,
        bytes.len(),
        "no confirmed record after this point".into(),
    );
    out
}

#[cfg(test)]
pub(crate) mod tests;
