//! Fuzz targets of the first labs: DocView, the encoding chain, the Tianwang raw format, WARC,
//! URLs and robots.txt.

use std::time::Duration;

use chrono::TimeZone;
use tianwang::engine::docview::{Params, extract};
use tianwang::engine::formats::{tianwang as raw, warc};
use tianwang::engine::text::encoding;
use tianwang::engine::urls;

use super::fuzz;

pub(crate) fn sample_pages(n: usize) -> Vec<Vec<u8>> {
    let web = tianwang::engine::sample::web::SampleWeb::build(80, false).expect("sample web");
    web.truth
        .pages
        .iter()
        .step_by(37)
        .filter_map(|p| web.at(&p.url).map(|r| r.body.clone()))
        .take(n)
        .collect()
}

fn records() -> Vec<raw::RawRecord> {
    sample_pages(3)
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let mut data =
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\n\r\n".to_vec();
            data.extend_from_slice(&body);
            raw::RawRecord {
                url: format!("http://huaxia.localhost/{i}.html"),
                origin: (i == 1).then(|| "http://huaxia.localhost/old".into()),
                date: chrono::Utc
                    .timestamp_opt(1_700_000_000, 0)
                    .single()
                    .expect("date"),
                ip: Some("127.0.0.1".into()),
                unzip_length: None,
                data,
            }
        })
        .collect()
}

const CHARSETS: [Option<&str>; 8] = [
    None,
    Some("text/html; charset=utf-8"),
    Some("text/html; charset=gbk"),
    Some("text/html; charset=big5"),
    Some("text/html; charset=utf-16le"),
    Some("text/html; charset=iso-8859-1"),
    Some("text/html; charset=shift_jis"),
    Some("text/html; charset=x-no-such-label"),
];

#[test]
fn fuzz_docview_extraction() {
    fuzz("docview", sample_pages(8), |b| {
        let Some((&first, rest)) = b.split_first() else {
            return;
        };
        let ct = CHARSETS[usize::from(first) % CHARSETS.len()];
        let _ = extract(
            rest,
            Some("http://fuzz.localhost/a/b.html"),
            ct,
            None,
            &Params::default(),
        );
    });
}

#[test]
fn fuzz_encoding_chain() {
    fuzz("encoding", sample_pages(4), |b| {
        let Some((&first, rest)) = b.split_first() else {
            return;
        };
        let ct = CHARSETS[usize::from(first) % CHARSETS.len()];
        if let Ok((d, text)) = encoding::decide_and_decode(rest, ct, None, Some(b"cn")) {
            assert!(!d.encoding_name().is_empty());
            let _ = text.len();
        }
    });
}

#[test]
fn fuzz_tianwang_raw_reader_and_recovery() {
    let mut file = Vec::new();
    raw::write_all(&mut file, &records()).expect("write");
    fuzz("tianwang", vec![file], |b| {
        let _ = raw::parse(b);
        let r = raw::recover(b);
        let _ = r.bytes_damaged();
    });
}

#[test]
fn fuzz_warc_reader() {
    let (mut plain, mut gz) = (Vec::new(), Vec::new());
    warc::write_warc(&mut plain, &records()).expect("write");
    warc::write_warc_gz(&mut gz, &records()).expect("write");
    fuzz("warc", vec![plain, gz], |b| {
        let _ = warc::read_warc(b);
    });
}

#[test]
fn fuzz_url_canonicalisation_and_links() {
    fuzz("urls", Vec::new(), |b| {
        let s = String::from_utf8_lossy(b);
        let _ = urls::explain_str(&s, &urls::CanonOptions::default());
        let base = url::Url::parse("http://fuzz.localhost/a/b.html?x=1").expect("base");
        if let Some(u) = urls::resolve_link(&base, &s, encoding_rs::GBK) {
            let c = urls::canonicalize(&u);
            assert_eq!(urls::canonicalize(&c), c, "canonicalisation is idempotent");
            let _ = urls::book_weight(&c);
        }
    });
}

#[test]
fn fuzz_robots_txt() {
    fuzz("robots", Vec::new(), |b| {
        if let Ok(r) = texting_robots::Robot::new("tianwang", b) {
            let _ = r.allowed("http://fuzz.localhost/drafts/a?b");
            if let Some(d) = r.delay {
                // What the crawler does with a Crawl-delay must not panic for any value.
                let _ = Duration::try_from_secs_f32(d.max(0.0));
            }
        }
    });
}
