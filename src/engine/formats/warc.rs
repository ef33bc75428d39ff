//! WARC export (WARC/1.1) and import (WARC/1.0 and 1.1, plain or `.warc.gz`) of the same pages
//! the Tianwang raw format holds, so that real crawls (Common Crawl, Heritrix) can be inspected
//! here and our crawls opened by WARC tools. The format is ISO 28500 (WARC 1.1); Tianwang's own
//! format is §4.8 [L1042–1126].
//!
//! A `response` record maps onto a [`RawRecord`]:
//!
//! | WARC | RawRecord |
//! |---|---|
//! | `WARC-Target-URI` | `url` |
//! | `WARC-Date` (UTC, ISO 8601) | `date` |
//! | `WARC-IP-Address` (written only when `ip` is an IP address) | `ip` |
//! | `Tianwang-Origin` (an extension field; WARC has no redirect-origin field) | `origin` |
//! | the record block: the HTTP response, byte for byte | `data` |
//!
//! Writing: one `warcinfo` record, then one `response` per page. A compressed Tianwang record
//! (`unzip-length`) is exported inflated, since a WARC response block must be the HTTP message.
//! Record IDs are name-based UUIDs (version-5 layout, SHA-1 of the record content and position),
//! so the same pages always give the same file. Digests are `sha1:` + RFC 4648 base32.
//!
//! Reading: `response` records with an `application/http` Content-Type become pages; every other
//! record (warcinfo, request, metadata, revisit, resource, `dns:` responses …) is skipped and
//! listed in [`WarcScan::skipped`]. A `sha1:` `WARC-Block-Digest` (base32 or hex) is verified.
//! Input starting with the gzip magic is inflated member by member first; offsets then refer to
//! the inflated stream.

use std::borrow::Cow;
use std::io::{self, Read, Write};

use chrono::{DateTime, SecondsFormat, Utc};
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use sha1::{Digest, Sha1};

use super::FormatError;
use super::tianwang::{RawRecord, split_http};

/// The extension field that carries the redirect origin [L1092].
pub(crate) const ORIGIN_FIELD: &str = "Tianwang-Origin";

/// RFC 4648 base32 (`A–Z2–7`, `=` padding). A SHA-1 (20 bytes) gives exactly 32 characters.
pub(crate) fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    for chunk in bytes.chunks(5) {
        let mut group = [0u8; 5];
        group[..chunk.len()].copy_from_slice(chunk);
        let bits = group.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let used = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            let c = ALPHABET[((bits >> (35 - 5 * i)) & 31) as usize];
            out.push(if i < used { char::from(c) } else { '=' });
        }
    }
    out
}

/// `sha1:<BASE32>`, the form of `WARC-Block-Digest` and `WARC-Payload-Digest`.
pub(crate) fn sha1_digest(bytes: &[u8]) -> String {
    format!("sha1:{}", base32(&Sha1::digest(bytes)))
}

/// The HTTP payload (entity body) of a response block: the bytes after the header, or `None`
/// when the block is not an HTTP response.
pub(crate) fn http_payload(block: &[u8]) -> Option<&[u8]> {
    split_http(block)
        .filter(|_| block.starts_with(b"HTTP/"))
        .map(|(_, body)| body)
}

/// A deterministic `<urn:uuid:…>` from the given parts.
fn record_id(parts: &[&[u8]]) -> String {
    let mut h = Sha1::new();
    h.update(b"tianwang-workbench/warc\0");
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x50; // version 5 (name-based, SHA-1)
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
    let x: String = b.iter().map(|v| format!("{v:02x}")).collect();
    let (p1, p2, p3, p4, p5) = (&x[..8], &x[8..12], &x[12..16], &x[16..20], &x[20..]);
    format!("<urn:uuid:{p1}-{p2}-{p3}-{p4}-{p5}>")
}

fn warc_date(d: &DateTime<Utc>) -> String {
    d.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// One record serialized: version line, fields, Content-Length, blank line, block, CRLF CRLF.
fn record_bytes(fields: &[(&str, String)], block: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = b"WARC/1.1\r\n".to_vec();
    for (name, value) in fields {
        if value.contains(['\r', '\n']) {
            let msg = format!("{name} value {value:?} contains a line break");
            return Err(io::Error::new(io::ErrorKind::InvalidInput, msg));
        }
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    Ok(out)
}

/// All records of the export, in order (warcinfo first).
fn export(records: &[RawRecord]) -> io::Result<Vec<Vec<u8>>> {
    let mut prepared = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let block = r.uncompressed()?;
        let (date, digest) = (warc_date(&r.date), sha1_digest(&block));
        let (ip, origin) = (
            r.ip.as_deref().unwrap_or(""),
            r.origin.as_deref().unwrap_or(""),
        );
        let parts: [&[u8]; 7] = [
            b"response",
            &(i as u64).to_be_bytes(),
            r.url.as_bytes(),
            date.as_bytes(),
            ip.as_bytes(),
            origin.as_bytes(),
            digest.as_bytes(),
        ];
        prepared.push((record_id(&parts), date, digest, block));
    }
    let info = "software: Tianwang Workbench\r\nformat: WARC File Format 1.1\r\n\
                conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
                description: pages exported from a Tianwang raw page database\r\n";
    let mut info_parts: Vec<&[u8]> = vec![b"warcinfo", info.as_bytes()];
    info_parts.extend(prepared.iter().map(|p| p.0.as_bytes()));
    let info_id = record_id(&info_parts);
    let latest = records.iter().map(|r| r.date).max().unwrap_or_default();
    let info_fields = [
        ("WARC-Type", "warcinfo".to_string()),
        ("WARC-Record-ID", info_id.clone()),
        ("WARC-Date", warc_date(&latest)),
        ("Content-Type", "application/warc-fields".to_string()),
        ("WARC-Block-Digest", sha1_digest(info.as_bytes())),
    ];
    let mut out = vec![record_bytes(&info_fields, info.as_bytes())?];
    for (r, (id, date, digest, block)) in records.iter().zip(prepared) {
        let mut fields = vec![
            ("WARC-Type", "response".to_string()),
            ("WARC-Record-ID", id),
            ("WARC-Warcinfo-ID", info_id.clone()),
            ("WARC-Date", date),
            ("WARC-Target-URI", r.url.clone()),
        ];
        if let Some(ip) =
            r.ip.as_ref()
                .filter(|ip| ip.parse::<std::net::IpAddr>().is_ok())
        {
            fields.push(("WARC-IP-Address", ip.clone()));
        }
        if let Some(origin) = &r.origin {
            fields.push((ORIGIN_FIELD, origin.clone()));
        }
        fields.push((
            "Content-Type",
            "application/http;msgtype=response".to_string(),
        ));
        if let Some(payload) = http_payload(&block) {
            fields.push(("WARC-Payload-Digest", sha1_digest(payload)));
        }
        fields.push(("WARC-Block-Digest", digest));
        out.push(record_bytes(&fields, &block)?);
    }
    Ok(out)
}

/// Writes a WARC/1.1 file: a `warcinfo` record, then one `response` record per page.
pub fn write_warc(w: &mut impl Write, records: &[RawRecord]) -> io::Result<()> {
    for rec in export(records)? {
        w.write_all(&rec)?;
    }
    Ok(())
}

/// Writes a `.warc.gz`: the same records, each compressed as its own gzip member (as Common
/// Crawl and Heritrix do, so a reader can seek to any record).
pub fn write_warc_gz(w: &mut impl Write, records: &[RawRecord]) -> io::Result<()> {
    for rec in export(records)? {
        let mut gz = GzEncoder::new(&mut *w, Compression::default());
        gz.write_all(&rec)?;
        gz.finish()?;
    }
    Ok(())
}

/// A WARC record that did not become a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Offset of its `WARC/` line.
    pub offset: u64,
    pub warc_type: String,
    pub reason: String,
}

/// Everything read from a WARC file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct WarcScan {
    /// The pages, with the offset of each record's `WARC/` line.
    pub records: Vec<(u64, RawRecord)>,
    pub skipped: Vec<Skipped>,
}

/// One line without its CR LF, and where the next line starts.
fn line(data: &[u8], pos: usize) -> Result<(&[u8], usize), FormatError> {
    let rest = data.get(pos..).unwrap_or_default();
    let Some(n) = rest.iter().position(|&b| b == b'\n') else {
        return Err(FormatError::truncated(
            pos,
            "WARC header ends without a line break",
        ));
    };
    let text = &rest[..n];
    Ok((text.strip_suffix(b"\r").unwrap_or(text), pos + n + 1))
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).trim().to_string()
}

/// Checks a `sha1:` block digest (base32 as written by most tools, or hex); others pass.
fn digest_matches(claimed: &str, block: &[u8]) -> bool {
    let (Some(algo), Some(value)) = (claimed.get(..5), claimed.get(5..)) else {
        return true;
    };
    if !algo.eq_ignore_ascii_case("sha1:") {
        return true;
    }
    let d = Sha1::digest(block);
    match value.len() {
        32 => value.eq_ignore_ascii_case(&base32(&d)),
        40 => value.eq_ignore_ascii_case(&d.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        _ => true,
    }
}

/// Reads a WARC file (WARC/1.0 or 1.1, plain or gzip-per-record) into pages and skipped records.
/// Errors name the offset (in the inflated stream) of the record or line at fault.
pub(crate) fn scan_warc(bytes: &[u8]) -> Result<WarcScan, FormatError> {
    let data: Cow<[u8]> = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        MultiGzDecoder::new(bytes).read_to_end(&mut out)?;
        Cow::Owned(out)
    } else {
        Cow::Borrowed(bytes)
    };
    let mut scan = WarcScan::default();
    let mut pos = 0;
    loop {
        // Records end in CRLF CRLF; tolerate any run of line breaks between records.
        while data.get(pos).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            pos += 1;
        }
        if pos >= data.len() {
            return Ok(scan);
        }
        let start = pos;
        let (version, next) = line(&data, pos)?;
        if !is_version(version) {
            let found = String::from_utf8_lossy(&version[..version.len().min(40)]).into_owned();
            let msg = format!("expected `WARC/1.0` or `WARC/1.1`, found {found:?}");
            return Err(FormatError::malformed(start, msg));
        }
        pos = next;
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let (l, next) = line(&data, pos)?;
            let at = std::mem::replace(&mut pos, next);
            if l.is_empty() {
                break;
            }
            if !push_field(&mut fields, l) {
                return Err(FormatError::malformed(at, "WARC field line without ':'"));
            }
        }
        let Some(len) = field(&fields, "content-length").and_then(|v| v.parse::<usize>().ok())
        else {
            return Err(FormatError::malformed(
                start,
                "missing or bad Content-Length",
            ));
        };
        let Some(block) = pos.checked_add(len).and_then(|end| data.get(pos..end)) else {
            let msg = format!("Content-Length {len} runs past the end of the input");
            return Err(FormatError::truncated(pos, msg));
        };
        pos += len;
        match classify(start as u64, &fields, block)? {
            Ok(record) => scan.records.push((start as u64, record)),
            Err(skipped) => scan.skipped.push(skipped),
        }
    }
}

/// Whether `l` is a record's first line (the versions read: WARC/1.0 and WARC/1.1).
pub(crate) fn is_version(l: &[u8]) -> bool {
    l == b"WARC/1.0" || l == b"WARC/1.1"
}

/// Adds one non-empty header line to `fields` (name lower-cased, value trimmed); a line
/// starting with a space or tab continues the previous field's value (folding). False: a line
/// without ':'.
pub(crate) fn push_field(fields: &mut Vec<(String, String)>, l: &[u8]) -> bool {
    match (l.first(), fields.last_mut()) {
        (Some(b' ' | b'\t'), Some(last)) => {
            last.1 = format!("{} {}", last.1, text(l));
            true
        }
        _ => match l.iter().position(|&b| b == b':') {
            Some(colon) => {
                fields.push((
                    text(&l[..colon]).to_ascii_lowercase(),
                    text(&l[colon + 1..]),
                ));
                true
            }
            None => false,
        },
    }
}

/// A field of a record's header (names lower-cased).
pub(crate) fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// One record whose header fields and block were read, starting at `start`: a page, a record
/// that holds none (`Err(Skipped)`), or a content error (a digest that does not match, a
/// response without a URI or with a bad date).
pub(crate) fn classify(
    start: u64,
    fields: &[(String, String)],
    block: &[u8],
) -> Result<Result<RawRecord, Skipped>, FormatError> {
    let get = |name: &str| field(fields, name);
    let at = start as usize;
    if get("warc-block-digest").is_some_and(|d| !digest_matches(d, block)) {
        return Err(FormatError::malformed(
            at,
            "WARC-Block-Digest does not match the block",
        ));
    }
    let warc_type = get("warc-type").unwrap_or_default().to_ascii_lowercase();
    let content_type = get("content-type").unwrap_or_default().to_ascii_lowercase();
    let skip = if warc_type != "response" {
        Some(format!("a `{warc_type}` record holds no page"))
    } else if !content_type.starts_with("application/http") {
        Some(format!(
            "not an HTTP response (Content-Type `{content_type}`)"
        ))
    } else {
        None
    };
    if let Some(reason) = skip {
        return Ok(Err(Skipped {
            offset: start,
            warc_type,
            reason,
        }));
    }
    let url = get("warc-target-uri").map(|u| u.trim_start_matches('<').trim_end_matches('>'));
    let Some(url) = url.filter(|u| !u.is_empty()) else {
        return Err(FormatError::malformed(
            at,
            "response without WARC-Target-URI",
        ));
    };
    let date = get("warc-date").unwrap_or_default();
    let date = DateTime::parse_from_rfc3339(date)
        .map_err(|e| FormatError::malformed(at, format!("bad WARC-Date {date:?}: {e}")))?;
    Ok(Ok(RawRecord {
        url: url.to_string(),
        origin: get(&ORIGIN_FIELD.to_ascii_lowercase()).map(str::to_string),
        date: date.to_utc(),
        ip: get("warc-ip-address").map(str::to_string),
        unzip_length: None,
        data: block.to_vec(),
    }))
}

/// The pages of a WARC file (see [`scan_warc`]).
pub fn read_warc(bytes: &[u8]) -> Result<Vec<RawRecord>, FormatError> {
    Ok(scan_warc(bytes)?
        .records
        .into_iter()
        .map(|(_, r)| r)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    fn page(url: &str, ip: Option<&str>, data: &[u8]) -> RawRecord {
        let (url, ip, date) = (
            url.to_string(),
            ip.map(String::from),
            at("2003-09-16T14:13:20Z"),
        );
        RawRecord {
            url,
            origin: None,
            date,
            ip,
            unzip_length: None,
            data: data.to_vec(),
        }
    }

    fn pages() -> Vec<RawRecord> {
        let mut binary = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n".to_vec();
        binary.extend((0..=255u8).cycle().take(700));
        let mut redirect = page("http://net.pku.cn/~cnds/", Some("162.105.203.25"), b"");
        redirect.data = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n\nabcd".to_vec();
        redirect.origin = Some("http://net.pku.cn/~cnds".into());
        let crlf = b"HTTP/1.0 200 OK\r\n\r\nline\r\n\r\nWARC/1.1\r\n\r\n";
        let mut late = page(
            "http://c.cn/",
            Some("::1"),
            b"HTTP/1.1 404 Not Found\r\n\r\n",
        );
        late.date = at("2024-02-29T23:59:59Z");
        vec![
            page("http://a.cn/x?q=1", Some("10.0.0.1"), &binary),
            redirect,
            page("http://b.cn/", Some("b.cn"), crlf), // TSE writes a host name when DNS failed
            late,
        ]
    }

    fn written(records: &[RawRecord]) -> Vec<u8> {
        let mut out = Vec::new();
        write_warc(&mut out, records).unwrap();
        out
    }

    #[test]
    fn base32_rfc4648_vectors_and_sha1_of_empty() {
        let v = [
            "",
            "MY======",
            "MZXQ====",
            "MZXW6===",
            "MZXW6YQ=",
            "MZXW6YTB",
            "MZXW6YTBOI======",
        ];
        for (n, want) in v.iter().enumerate() {
            assert_eq!(base32(&b"foobar"[..n]), *want);
        }
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn round_trip_keeps_data_url_date_exactly() {
        let recs = pages();
        let warc = written(&recs);
        assert!(warc.starts_with(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n"));
        let back = read_warc(&warc).unwrap();
        assert_eq!(back.len(), recs.len());
        for (a, b) in recs.iter().zip(&back) {
            assert_eq!(
                (&a.data, &a.url, a.date, &a.origin),
                (&b.data, &b.url, b.date, &b.origin)
            );
        }
        assert_eq!(back[0].ip.as_deref(), Some("10.0.0.1"));
        assert_eq!(back[2].ip, None, "a host name is not a WARC-IP-Address");
        assert_eq!(written(&recs), warc, "reproducible output");
        let text = String::from_utf8_lossy(&warc);
        let mut ids: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("WARC-Record-ID: "))
            .collect();
        assert!(
            ids.iter()
                .all(|id| id.starts_with("<urn:uuid:") && id.len() == 47)
        );
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 5, "unique ids");
        assert!(text.contains("WARC-Date: 2024-02-29T23:59:59Z\r\n"));
        assert_eq!(
            text.matches("\r\n\r\nWARC/1.1\r\nWARC-Type: ").count(),
            4,
            "CRLF CRLF between"
        );
    }

    #[test]
    fn compressed_tianwang_record_is_exported_inflated() {
        let plain = pages().remove(0);
        let back = read_warc(&written(&[plain.gzipped().unwrap()])).unwrap();
        assert_eq!(back, vec![plain]);
    }

    /// Base32 by bit string, independent of [`base32`].
    fn base32_by_bits(bytes: &[u8]) -> String {
        let bits: String = bytes.iter().map(|b| format!("{b:08b}")).collect();
        let alphabet: Vec<char> = ('A'..='Z').chain('2'..='7').collect();
        let groups = bits.as_bytes().chunks(5);
        groups
            .map(|g| alphabet[usize::from_str_radix(std::str::from_utf8(g).unwrap(), 2).unwrap()])
            .collect()
    }

    #[test]
    fn payload_digest_matches_an_independent_computation() {
        let text = String::from_utf8_lossy(&written(&pages())).into_owned();
        let claimed: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("WARC-Payload-Digest: sha1:"))
            .collect();
        assert_eq!(claimed.len(), 4);
        for (rec, claimed) in pages().iter().zip(claimed) {
            let cut = rec.data.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            assert_eq!(claimed, base32_by_bits(&Sha1::digest(&rec.data[cut..])));
        }
        let expect = base32_by_bits(&Sha1::digest(b"\nabcd"));
        assert!(text.contains(&format!("WARC-Payload-Digest: sha1:{expect}\r\n")));
    }

    fn rec10(fields: &str, block: &[u8]) -> Vec<u8> {
        let head = format!(
            "WARC/1.0\r\n{fields}Content-Length: {}\r\n\r\n",
            block.len()
        );
        [head.as_bytes(), block, b"\r\n\r\n"].concat()
    }

    /// A Common Crawl style WARC/1.0 file: warcinfo, request, response, metadata.
    fn common_crawl() -> Vec<Vec<u8>> {
        let http = b"HTTP/1.1 200 OK\r\nDate: Sat, 28 Jan 2023 00:46:11 GMT\r\n\
                     Content-Type: text/html; charset=UTF-8\r\nX-Crawler-Content-Length: 12\r\n\r\n\
                     <p>hello</p>";
        let block_digest = sha1_digest(http);
        let payload_digest = sha1_digest(b"<p>hello</p>");
        vec![
            rec10(
                "WARC-Type: warcinfo\r\nWARC-Date: 2023-02-09T03:12:24Z\r\n\
                 WARC-Filename: CC-MAIN-20230126210844-20230127000844-00000.warc.gz\r\n\
                 WARC-Record-ID: <urn:uuid:6e1cf5b6-0a48-4c9b-9aa9-6d1c7a3b2f11>\r\n\
                 Content-Type: application/warc-fields\r\n",
                b"isPartOf: CC-MAIN-2023-06\r\npublisher: Common Crawl\r\n",
            ),
            rec10(
                "WARC-Type: request\r\nWARC-Date: 2023-01-27T00:46:11Z\r\n\
                 WARC-Record-ID: <urn:uuid:0b7d6c32-0c6f-4b85-9a2d-2d2f2d9d1a01>\r\n\
                 Content-Type: application/http; msgtype=request\r\n\
                 WARC-Target-URI: https://example.com/\r\n",
                b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            ),
            rec10(
                &format!(
                    "WARC-Type: response\r\nWARC-Date: 2023-01-27T00:46:11Z\r\n\
                     WARC-Record-ID: <urn:uuid:7e4f1c2a-3b5d-4e6f-8a9b-0c1d2e3f4a5b>\r\n\
                     Content-Type: application/http; msgtype=response\r\n\
                     WARC-Warcinfo-ID: <urn:uuid:6e1cf5b6-0a48-4c9b-9aa9-6d1c7a3b2f11>\r\n\
                     WARC-Concurrent-To: <urn:uuid:0b7d6c32-0c6f-4b85-9a2d-2d2f2d9d1a01>\r\n\
                     WARC-IP-Address: 93.184.216.34\r\nWARC-Target-URI: https://example.com/\r\n\
                     WARC-Payload-Digest: {payload_digest}\r\n\
                     WARC-Block-Digest: {block_digest}\r\n\
                     WARC-Identified-Payload-Type: text/html\r\n"
                ),
                http,
            ),
            rec10(
                "WARC-Type: metadata\r\nWARC-Date: 2023-01-27T00:46:11Z\r\n\
                 WARC-Record-ID: <urn:uuid:1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d>\r\n\
                 Content-Type: application/warc-fields\r\n\
                 WARC-Target-URI: https://example.com/\r\n",
                b"fetchTimeMs: 77\r\n",
            ),
        ]
    }

    #[test]
    fn common_crawl_warc_1_0_parses() {
        let file = common_crawl().concat();
        let scan = scan_warc(&file).unwrap();
        let types: Vec<&str> = scan.skipped.iter().map(|s| s.warc_type.as_str()).collect();
        assert_eq!(types, ["warcinfo", "request", "metadata"]);
        let [(offset, r)] = &scan.records[..] else {
            panic!("one page expected")
        };
        assert_eq!(*offset as usize, common_crawl()[..2].concat().len());
        assert_eq!(
            (r.url.as_str(), r.ip.as_deref()),
            ("https://example.com/", Some("93.184.216.34"))
        );
        assert_eq!(r.date, at("2023-01-27T00:46:11Z"));
        assert!(r.data.starts_with(b"HTTP/1.1 200 OK\r\n") && r.data.ends_with(b"<p>hello</p>"));
    }

    #[test]
    fn gzip_per_record_input() {
        let gz = |rec: &[u8]| {
            let mut e = GzEncoder::new(Vec::new(), Compression::best());
            e.write_all(rec).unwrap();
            e.finish().unwrap()
        };
        let members: Vec<u8> = common_crawl().iter().flat_map(|r| gz(r)).collect();
        assert_eq!(
            read_warc(&members).unwrap(),
            read_warc(&common_crawl().concat()).unwrap()
        );
        let mut ours = Vec::new();
        write_warc_gz(&mut ours, &pages()).unwrap();
        assert_eq!(read_warc(&ours).unwrap().len(), 4);
        assert!(
            read_warc(&ours[..ours.len() / 2]).is_err(),
            "a cut gzip stream is an error"
        );
    }

    #[test]
    fn errors_name_the_offset() {
        let good = common_crawl().concat();
        let n = good.len() as u64;
        let e = scan_warc(&[&good[..], b"HTTP/1.1 200 OK\r\n"].concat()).unwrap_err();
        assert_eq!(
            (e.offset(), e.to_string().contains("WARC/1.0")),
            (Some(n), true)
        );
        let cut = &good[..good.len() - 30];
        assert!(matches!(scan_warc(cut), Err(FormatError::Truncated { .. })));
        let bad = rec10(
            "WARC-Type: resource\r\nWARC-Block-Digest: sha1:AAAA\r\n",
            b"x",
        );
        assert!(
            scan_warc(&bad).is_ok(),
            "digest of unknown length is not checked"
        );
        let bad = rec10(
            &format!("WARC-Block-Digest: {}\r\n", sha1_digest(b"y")),
            b"x",
        );
        let e = scan_warc(&[&good[..], &bad[..]].concat()).unwrap_err();
        assert!(
            e.offset() == Some(n) && e.to_string().contains("Digest"),
            "{e}"
        );
        let dns = rec10(
            "WARC-Type: response\r\nContent-Type: text/dns\r\n",
            b"example.com. A 1",
        );
        assert_eq!(scan_warc(&dns).unwrap().skipped[0].warc_type, "response");
    }
}
