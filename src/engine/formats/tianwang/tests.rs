//! Tests of `tianwang`: the raw format written, checked, parsed and recovered.

use super::*;

const D: &str = "Tue, 15 Apr 2003 08:13:06 GMT";

fn page(url: &str, body: &[u8]) -> RawRecord {
    let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
    let date = DateTime::parse_from_rfc2822(D).unwrap().to_utc();
    let (url, ip) = (url.to_string(), Some("162.105.129.12".to_string()));
    let data = [head.as_bytes(), body].concat();
    RawRecord {
        url,
        origin: None,
        date,
        ip,
        unzip_length: None,
        data,
    }
}

pub(crate) fn file(records: &[RawRecord]) -> Vec<u8> {
    let mut v = Vec::new();
    write_all(&mut v, records).unwrap();
    v
}

/// Binary body (every byte value and a `version:` line), CRLF body, redirect with origin,
/// gzip with unzip-length, no ip, empty DATA, two plain pages.
pub(crate) fn samples() -> Vec<RawRecord> {
    let mut binary: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
    binary.extend_from_slice(b"\nversion: 1.0\nlength: 3\n\nabc\n");
    let mut redirect = page("http://net.pku.cn/~cnds/", b"<html>moved</html>");
    redirect.origin = Some("http://net.pku.cn/~cnds".into());
    let gz = page("http://d.cn/gz", "<html>天网 ".repeat(300).as_bytes());
    let mut no_ip = page("http://e.cn/", "<p>中文网页</p>".as_bytes());
    no_ip.ip = None;
    let mut empty = page("http://f.cn/", b"");
    empty.data.clear();
    let crlf = page("http://b.cn/", b"line one\r\nline two\r\n\r\n\n\r\nend");
    let (g, h) = (
        page("http://g.cn/", b"<i>g</i>"),
        page("http://h.cn/", b"<i>h</i>"),
    );
    let a = page("http://a.cn/", &binary);
    vec![a, crlf, redirect, gz.gzipped().unwrap(), no_ip, empty, g, h]
}

fn urls(records: &[(u64, RawRecord)]) -> Vec<&str> {
    records.iter().map(|(_, r)| r.url.as_str()).collect()
}

#[test]
fn fig_4_2_golden_length_is_content_length_plus_277() {
    let header = [
        "HTTP/1.1 200 OK",
        "Date: Tue, 16 Sep 2003 14:13:20 GMT",
        "Server: Apache/2.0.40 (Red Hat Linux)",
        "Last-Modified: Sun, 06 Jun 1999 11:34:24 GMT",
        "ETag: \"10f7a5-2c8e-375a5cc0\"",
        "Accept-Ranges: bytes",
        "Content-Length: 11406",
        "Connection: close",
        "Content-Type: text/html; charset=GB2312",
    ];
    assert_eq!(header.iter().map(|l| l.len()).sum::<usize>(), 256);
    let mut data = header.join("\r\n").into_bytes();
    data.extend_from_slice(b"\r\n\r\n");
    assert_eq!(data.len(), 276, "9 CRLF lines + CRLF blank line");
    data.push(b'\n'); // TSE writes "\n" between header and body
    let mut body = b"<html><head><title>CNDS</title></head><body>".to_vec();
    body.resize(11406 - 15, b'x');
    body.extend_from_slice(b"</body></html>\n");
    assert_eq!(body.len(), 0x2c8e, "the ETag's size field");
    data.extend_from_slice(&body);
    let mut rec = page("http://net.pku.cn/~cnds/", b"");
    rec.origin = Some("http://net.pku.cn/~cnds".into());
    rec.date = DateTime::parse_from_rfc2822("Tue, 16 Sep 2003 14:13:20 GMT")
        .unwrap()
        .to_utc();
    (rec.ip, rec.data) = (Some("162.105.203.25".into()), data);
    let f = file(std::slice::from_ref(&rec));
    let head = "version: 1.0\nurl: http://net.pku.cn/~cnds/\norigin: http://net.pku.cn/~cnds\n\
                date: Tue, 16 Sep 2003 14:13:20 GMT\nip: 162.105.203.25\nlength: 11683\n\n";
    assert_eq!(String::from_utf8_lossy(&f[..head.len()]), head);
    assert_eq!(f.len(), head.len() + 11683 + 1);
    assert_eq!(rec.data.len() - body.len(), 277);
    let (h, b) = split_http(&rec.data).unwrap();
    assert_eq!(
        (h.len(), b.len()),
        (276, 11407),
        "the extra LF stays in the body"
    );
    assert_eq!(parse(&f).unwrap(), vec![(0, rec)]);
}

#[test]
fn section_4_8_example_head_with_every_property() {
    let head = "version: 1.0\nurl: http://www.pku.edu.cn/\norigin: http://www.somewhere.cn/\n\
                date: Tue, 15 Apr 2003 08:13:06 GMT\nip: 162.105.129.12\nunzip-length: 30233\n\
                length: 18133\n\n";
    let f = [head.as_bytes(), &[0xab; 18133], b"\n"].concat();
    let r = &parse(&f).unwrap()[0].1;
    assert_eq!(r.url, "http://www.pku.edu.cn/");
    assert_eq!(r.origin.as_deref(), Some("http://www.somewhere.cn/"));
    assert_eq!(format_date(&r.date), D);
    assert_eq!(
        (r.ip.as_deref(), r.unzip_length),
        (Some("162.105.129.12"), Some(30233))
    );
    assert_eq!(r.data.len(), 18133);
    assert_eq!(
        file(std::slice::from_ref(r)),
        f,
        "the writer emits the book's layout"
    );
}

#[test]
fn round_trip_is_byte_exact() {
    let recs = samples();
    let mut f = Vec::new();
    let offsets = write_all(&mut f, &recs).unwrap();
    let parsed = parse(&f).unwrap();
    let again: Vec<RawRecord> = parsed.iter().map(|(_, r)| r.clone()).collect();
    assert_eq!(again, recs);
    assert_eq!(
        parsed.iter().map(|(o, _)| *o).collect::<Vec<_>>(),
        offsets[..8]
    );
    assert_eq!((file(&again), offsets[8]), (f.clone(), f.len() as u64));
    let gz = &recs[3];
    assert!(gz.data.starts_with(&[0x1f, 0x8b]) && gz.unzip_length.is_some());
    assert!(gz.uncompressed().unwrap().ends_with("天网 ".as_bytes()));
    assert_eq!(recs[0].uncompressed().unwrap(), &recs[0].data[..]);
    let mut bad = recs[6].clone();
    bad.url = "http://x/\nlength: 0".into();
    assert!(
        write_record(&mut Vec::new(), &bad).is_err(),
        "no LF inside a value"
    );
}

#[test]
fn reader_tolerates_book_variants() {
    let f = format!("version:1.0\nurl:\thttp://a/\ndate: {D}\nzip: gzip\nlength: 2\n\nhi\n");
    let r = &parse(f.as_bytes()).unwrap()[0].1;
    assert_eq!(
        (r.url.as_str(), &r.data[..], r.ip.as_ref()),
        ("http://a/", &b"hi"[..], None)
    );
}

#[test]
fn strict_parse_names_the_offset() {
    let good = file(&samples()[..2]);
    let (u, l) = ("url: http://a/\n", format!("date: {D}\nlength: 2\n"));
    let cases: [(String, u64, &str); 10] = [
        (format!("{u}version: 1.0\n{l}\nhi\n"), 0, "rule 5"),
        (
            format!("version: 1.0\n{u}{l}ip: 1.2.3.4\n\nhi\n"),
            74,
            "rule 6",
        ),
        (
            format!("version: 1.0\nURL: http://a/\n{l}\nhi\n"),
            13,
            "rule 7",
        ),
        (format!("version: 1.0\n{u}\n{l}\nhi\n"), 28, "rule 3"),
        (
            format!("version: 1.0\n{u}date: {D}\nlength: 99\n\nhi\n"),
            76,
            "truncated",
        ),
        (
            format!("version: 1.0\n{u}date: {D}\nlength: 1\n\nhi\n"),
            76,
            "rule 2",
        ),
        (format!("version: 1.0\n{l}\nhi\n"), 0, "`url` is required"),
        (
            format!("version: 1.0\n{u}date: 16/09/2003\nlength: 2\n\nhi\n"),
            28,
            "RFC 822",
        ),
        (
            format!("version: 1.0\r\nurl: http://a/\r\n{l}\r\nhi\r\n"),
            76,
            "CR",
        ),
        ("version: 1.0\nurl: http://a/\n".into(), 28, "inside HEAD"),
    ];
    for (bad, off, what) in cases {
        let e = parse(&[&good[..], bad.as_bytes()].concat()).unwrap_err();
        assert_eq!(e.offset(), Some(good.len() as u64 + off), "{what}: {e}");
        assert!(e.to_string().contains(what), "{e}");
    }
}

#[test]
fn recover_clean_and_short_files() {
    let f = file(&samples());
    let r = recover(&f);
    assert_eq!(r.records, parse(&f).unwrap());
    assert!(r.damaged.is_empty() && r.candidates.len() == 1);
    assert_eq!(r.candidates[0].chain.len(), 3, "the confirmation chain");
    assert_eq!(
        recover(&file(&samples()[..2])).records.len(),
        2,
        "chain ends at EOF"
    );
    assert!(recover(b"").records.is_empty() && recover(b"junk").bytes_damaged() == 4);
}

#[test]
fn recover_garbage_inserted_between_and_inside_records() {
    let recs = samples();
    let mut f = Vec::new();
    let off = write_all(&mut f, &recs).unwrap();
    let all: Vec<&str> = recs.iter().map(|r| r.url.as_str()).collect();
    let junk = format!("\0\x7fversion: 1.0\nurl: http://fake/\ndate: {D}\nlength: 5\n\nab\x01");
    let (at, n) = (off[3] as usize, junk.len() as u64);
    let r = recover(&[&f[..at], junk.as_bytes(), &f[at..]].concat());
    assert_eq!(urls(&r.records), all);
    assert_eq!((r.damaged[0].start, r.damaged[0].end), (off[3], off[3] + n));
    assert_eq!((r.records[3].0, r.damaged.len()), (off[3] + n, 1));
    assert!(r.candidates_rejected() >= 1);
    let inside = off[4] as usize + 40;
    let r = recover(&[&f[..inside], junk.as_bytes(), &f[inside..]].concat());
    assert_eq!(urls(&r.records), [&all[..4], &all[5..]].concat());
}

#[test]
fn recover_truncated_records() {
    let recs = samples();
    let mut f = Vec::new();
    let off = write_all(&mut f, &recs).unwrap();
    let all: Vec<&str> = recs.iter().map(|r| r.url.as_str()).collect();
    let but_2 = [&all[..2], &all[3..]].concat();
    // 13 bytes cut from record 2's DATA: its `length` now ends exactly on the LF of the next
    // record's `version: 1.0` line, so record 2 passes alone and must lose to the chain.
    let end2 = off[3] as usize - 1;
    let cut = [&f[..end2 - 13], &f[end2..]].concat();
    assert!(check_record(&cut, off[2] as usize).is_ok());
    let r = recover(&cut);
    assert_eq!(urls(&r.records), but_2);
    assert!(r.damaged[0].reason.contains("overlaps"), "{:?}", r.damaged);
    // A cut through record 2's HEAD: its first lines fuse with record 3's HEAD.
    let r = recover(&[&f[..end2 - 100], &f[end2..]].concat());
    assert_eq!(urls(&r.records), but_2);
    let r = recover(&f[..f.len() - 5]);
    assert_eq!(
        (urls(&r.records), r.damaged[0].start),
        (all[..7].to_vec(), off[7])
    );
}

#[test]
fn recover_flipped_bytes() {
    let recs = samples();
    let mut f = Vec::new();
    let off = write_all(&mut f, &recs).unwrap();
    f[off[1] as usize + 1] = b'E'; // vErsion
    f[off[6] as usize - 3] = b'7'; // record 5: `length: 0` becomes 7
    f[off[6] as usize + 100] ^= 0x20; // inside DATA: undetectable, there is no checksum
    let r = recover(&f);
    assert_eq!(
        urls(&r.records),
        ["http://a.cn/", "http://net.pku.cn/~cnds/"]
            .into_iter()
            .chain([
                "http://d.cn/gz",
                "http://e.cn/",
                "http://g.cn/",
                "http://h.cn/"
            ])
            .collect::<Vec<_>>()
    );
    assert_ne!(r.records[4].1, recs[6]);
    assert!(
        r.candidates
            .iter()
            .any(|c| c.broken.is_some() && !c.accepted)
    );
}

#[test]
fn confirm_depth_is_a_parameter() {
    let fake = format!("junk version: 1.0\nurl: http://fake/\ndate: {D}\nlength: 1\n\nx\nmore ");
    let f = [fake.as_bytes(), &file(&samples()[..4])].concat();
    assert_eq!(recover(&f).records.len(), 4);
    let one = recover_with(&f, 1);
    assert_eq!((one.records.len(), one.confirm_depth), (5, 1));
}
