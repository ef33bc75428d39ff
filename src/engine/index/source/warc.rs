//! WARC files as an index source (`index build --warc FILE…`): the crawl read record by record
//! ([`crate::engine::formats::warc_stream`]: plain, gzip per record, or a whole file gzipped),
//! each HTML response turned into a [`SourceDoc`] exactly as the workspace source turns a
//! stored page into one — the same test of an HTML page and DocView's title and cleaned body
//! ([`crate::engine::docview::plain::response_page`], book §8.2.2 [L2712]), the decoded HTML
//! kept for the tag weights (Table 10-2 [L3749–L3764]), `key` and `url` = the record's
//! `WARC-Target-URI`, the crawl time = its `WARC-Date`. Documents get IDs in record order,
//! which is crawl order for a crawler's WARC [L1719].
//!
//! Memory is bounded by one batch of records (plus, as for every source, the index's own entry
//! per document and an 8-byte hash per URL): no file is read whole.
//!
//! What a stream of responses cannot know is left empty, not guessed: the **anchor text of
//! in-links**, the **LHN** (external in-degree, §10.3.2 [L3795–L3805]) and the **links between
//! documents** (`out_docs`) all need every page's links before the first page is indexed, a
//! second pass over the crawl. So Tianwang's WL is 0 for every document of a WARC index (and
//! `--wl pagerank` has no links to rank); the workspace source, which holds the link graph,
//! has them. A URL answered twice (a re-crawl in the same files) is indexed once, from its
//! first response; the later ones are counted. Damaged records are skipped and listed by file
//! and offset, as the other sources list what they skip.
//!
//! ```no_run
//! use tianwang::engine::index::build::{build, IndexConfig};
//! use tianwang::engine::index::source::Source;
//! let src = Source::Warc { paths: vec!["crawl.warc.gz".into()] };
//! let meta = build(&src, None, "crawl.index".as_ref(), &IndexConfig::default(), &()).unwrap();
//! println!("{} pages indexed", meta.docs);
//! ```

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, SecondsFormat, Utc};
use rayon::prelude::*;

use super::SourceDoc;
use crate::engine::docview::plain::response_page;
use crate::engine::error::Result;
use crate::engine::formats::warc_stream::{Item, WarcStream, check_files, open_counted};

/// Damaged records listed one by one; beyond this they are only counted.
const LISTED: usize = 1_000;

/// The documents of a list of WARC files, in batches.
pub(crate) struct WarcDocs {
    /// Files not opened yet, in the order given.
    files: std::collections::VecDeque<PathBuf>,
    /// The file being read.
    current: Option<(PathBuf, WarcStream<'static>)>,
    /// Bytes read from the files so far (before inflating), of `total_bytes`.
    read: Arc<AtomicU64>,
    total_bytes: u64,
    /// Hashes of the URLs indexed so far.
    seen: HashSet<u64>,
    /// Responses for a URL already indexed.
    repeated: usize,
    /// Damaged records skipped.
    damaged: usize,
    /// Records that hold no HTML page (warcinfo, requests, images, empty bodies …).
    not_pages: usize,
    /// The counts were said (the input is read to its end).
    summarised: bool,
}

/// A response record's URL, date and block.
type Raw = (String, DateTime<Utc>, Vec<u8>);

impl WarcDocs {
    /// The files checked (each a readable file, else the user's error naming it); none opened.
    pub(crate) fn open(paths: &[PathBuf]) -> Result<WarcDocs> {
        let total_bytes = check_files(paths)?;
        Ok(WarcDocs {
            files: paths.iter().cloned().collect(),
            current: None,
            read: Arc::new(AtomicU64::new(0)),
            total_bytes,
            seen: HashSet::new(),
            repeated: 0,
            damaged: 0,
            not_pages: 0,
            summarised: false,
        })
    }

    /// The next responses (at most `n`), or fewer at the end of the last file. Damaged records
    /// go to `skipped` (file, offset, why).
    fn next_raw(&mut self, n: usize, skipped: &mut Vec<String>) -> Result<Vec<Raw>> {
        let mut out = Vec::new();
        while out.len() < n {
            if self.current.is_none() {
                let Some(f) = self.files.pop_front() else {
                    break;
                };
                let s = open_counted(&f, self.read.clone())?;
                self.current = Some((f, s));
            }
            let Some((file, stream)) = &mut self.current else {
                break;
            };
            match stream.next_item() {
                None => self.current = None,
                Some(Item::Page { record, .. }) => {
                    if self.seen.insert(url_hash(&record.url)) {
                        out.push((record.url, record.date, record.data));
                    } else {
                        self.repeated += 1;
                    }
                }
                Some(Item::NotPage(_)) => self.not_pages += 1,
                Some(Item::Damaged {
                    offset, message, ..
                }) => {
                    self.damaged += 1;
                    if self.damaged <= LISTED {
                        skipped.push(format!(
                            "{}: byte {offset}: {message}; record skipped",
                            file.display()
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The next documents (at most `n`; none at the end), DocView run on them in parallel.
    pub(crate) fn next_batch(
        &mut self,
        n: usize,
        skipped: &mut Vec<String>,
    ) -> Result<Vec<SourceDoc>> {
        let mut docs = Vec::with_capacity(n);
        while docs.len() < n {
            let raw = self.next_raw(n - docs.len(), skipped)?;
            if raw.is_empty() {
                self.summarise(skipped);
                break;
            }
            let got: Vec<Option<SourceDoc>> = raw
                .par_iter()
                .map(|(url, date, block)| warc_doc(url, date, block))
                .collect();
            self.not_pages += got.iter().filter(|d| d.is_none()).count();
            docs.extend(got.into_iter().flatten());
        }
        Ok(docs)
    }

    /// At the end: what was only counted, in one line each.
    fn summarise(&mut self, skipped: &mut Vec<String>) {
        if std::mem::replace(&mut self.summarised, true) {
            return;
        }
        if self.damaged > LISTED {
            skipped.push(format!(
                "{} more damaged records skipped",
                self.damaged - LISTED
            ));
        }
        if self.repeated > 0 {
            skipped.push(format!(
                "{} later responses for a URL already indexed left out (its first response is indexed)",
                self.repeated
            ));
        }
    }

    /// The share of the files' bytes read (grows with every batch, never past 1), and a few
    /// words on it after `ndocs` documents.
    pub(crate) fn progress(&self, ndocs: usize) -> (f32, String) {
        let read = self.read.load(Ordering::Relaxed).min(self.total_bytes);
        let mb = |b: u64| b as f64 / 1e6;
        (
            (read as f64 / self.total_bytes.max(1) as f64) as f32,
            format!(
                "{ndocs} pages ({} other records) from {:.1} of {:.1} MB of WARC",
                self.not_pages,
                mb(read),
                mb(self.total_bytes)
            ),
        )
    }
}

fn url_hash(url: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    url.hash(&mut h);
    h.finish()
}

/// A response record's document: DocView's title and body, the decoded HTML, the URL and the
/// crawl time; None when it holds no HTML page.
pub(crate) fn warc_doc(url: &str, date: &DateTime<Utc>, block: &[u8]) -> Option<SourceDoc> {
    let page = response_page(url, block)?;
    let html = super::decoded(&page.content, page.content_type.as_deref()).ok()?;
    Some(SourceDoc {
        key: url.to_string(),
        title: page.doc.headline,
        url: url.to_string(),
        body: page.doc.body,
        html: Some(html),
        crawled_at: Some(date.to_rfc3339_opts(SecondsFormat::Secs, true)),
        ..SourceDoc::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::formats::tianwang::RawRecord;
    use crate::engine::formats::warc::{write_warc, write_warc_gz};

    fn rec(url: &str, ct: &str, body: &str) -> RawRecord {
        RawRecord {
            url: url.into(),
            origin: None,
            date: DateTime::from_timestamp(1_063_721_600, 0).unwrap_or_default(),
            ip: None,
            unzip_length: None,
            data: format!("HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\n\r\n{body}").into_bytes(),
        }
    }

    fn pages(n: usize) -> Vec<RawRecord> {
        (0..n)
            .map(|i| {
                rec(
                    &format!("http://a.cn/{i}.html"),
                    "text/html; charset=utf-8",
                    &format!("<title>第{i}页</title><p>北京大学 正文 {i}</p>"),
                )
            })
            .collect()
    }

    fn all(docs: &mut WarcDocs, batch: usize) -> (Vec<SourceDoc>, Vec<String>, Vec<f32>) {
        let (mut out, mut skipped, mut progress) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            let b = docs.next_batch(batch, &mut skipped).unwrap();
            if b.is_empty() {
                break;
            }
            assert!(b.len() <= batch);
            out.extend(b);
            progress.push(docs.progress(out.len()).0);
        }
        (out, skipped, progress)
    }

    #[test]
    fn html_responses_become_documents_in_record_order_across_files() {
        let d = tempfile::tempdir().unwrap();
        let mut recs = pages(7);
        recs.insert(2, rec("http://a.cn/i.png", "image/png", "\u{1}png"));
        recs.push(rec(
            "http://a.cn/0.html",
            "text/html",
            "<title>again</title>",
        ));
        let (a, b) = (d.path().join("a.warc"), d.path().join("b.warc.gz"));
        let mut bytes = Vec::new();
        write_warc(&mut bytes, &recs[..4]).unwrap();
        std::fs::write(&a, bytes).unwrap();
        let mut bytes = Vec::new();
        write_warc_gz(&mut bytes, &recs[4..]).unwrap();
        std::fs::write(&b, bytes).unwrap();
        let mut w = WarcDocs::open(&[a, b]).unwrap();
        let (docs, skipped, progress) = all(&mut w, 3);
        let keys: Vec<&str> = docs.iter().map(|d| d.key.as_str()).collect();
        let want: Vec<String> = (0..7).map(|i| format!("http://a.cn/{i}.html")).collect();
        assert_eq!(keys, want);
        assert_eq!(docs[3].title, "第3页");
        assert!(docs[3].body.contains("北京大学"), "{:?}", docs[3].body);
        assert!(docs[3].html.as_deref().unwrap().contains("<title>"));
        assert_eq!(docs[3].url, docs[3].key);
        assert_eq!(docs[3].crawled_at.as_deref(), Some("2003-09-16T14:13:20Z"));
        assert!(docs.iter().all(|d| d.anchors.is_empty() && d.lhn == 0));
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(skipped[0].starts_with("1 later response"), "{skipped:?}");
        assert!(progress.windows(2).all(|p| p[0] <= p[1]), "{progress:?}");
        assert_eq!(progress.last().copied(), Some(1.0));
        // warcinfo ×2, the image.
        assert_eq!(w.not_pages, 3);
    }

    #[test]
    fn a_cut_record_is_listed_by_file_and_offset_and_the_rest_read() {
        let d = tempfile::tempdir().unwrap();
        let mut bytes = Vec::new();
        write_warc(&mut bytes, &pages(4)).unwrap();
        let scan = crate::engine::formats::warc::scan_warc(&bytes).unwrap();
        let last = scan.records[3].0;
        let cut = d.path().join("cut.warc");
        std::fs::write(&cut, &bytes[..last as usize + 100]).unwrap();
        let mut w = WarcDocs::open(std::slice::from_ref(&cut)).unwrap();
        let (docs, skipped, _) = all(&mut w, 10);
        assert_eq!(docs.len(), 3);
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(
            skipped[0].starts_with(&format!("{}: byte {last}: truncated", cut.display())),
            "{skipped:?}"
        );
    }

    /// Every progress report, in order.
    struct Record(std::sync::Mutex<Vec<(f32, String)>>);

    impl crate::engine::jobs::Tick for Record {
        fn tick(&self, f: f32, m: &str) -> Result<()> {
            self.0.lock().unwrap().push((f, m.to_string()));
            Ok(())
        }
    }

    #[test]
    fn an_index_built_from_warc_reports_growing_progress_and_finds_the_pages() {
        use crate::engine::index::build::{IndexConfig, build};
        use crate::engine::index::source::Source;
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.warc.gz");
        let mut bytes = Vec::new();
        write_warc_gz(&mut bytes, &pages(9)).unwrap();
        std::fs::write(&f, bytes).unwrap();
        let cfg = IndexConfig {
            batch_docs: 2,
            ..IndexConfig::default()
        };
        let ticks = Record(std::sync::Mutex::new(Vec::new()));
        let src = Source::Warc { paths: vec![f] };
        let meta = build(&src, None, &d.path().join("ix"), &cfg, &ticks).unwrap();
        assert_eq!(meta.docs, 9);
        assert_eq!(meta.source, "warc 1 files");
        let ticks = ticks.0.into_inner().unwrap();
        let f: Vec<f32> = ticks.iter().map(|t| t.0).collect();
        assert!(f.windows(2).all(|w| w[0] <= w[1]), "{f:?}");
        assert!(
            ticks.iter().any(|t| t.1.starts_with("9 pages")),
            "{ticks:?}"
        );
        let ix = crate::engine::index::reader::Index::open(&d.path().join("ix")).unwrap();
        assert_eq!(ix.docs[4].key, "http://a.cn/4.html");
        assert_eq!(ix.docs[4].title, "第4页");
        assert!(ix.term("北京").is_some());
    }

    #[test]
    fn a_missing_file_or_a_folder_is_refused_naming_it() {
        let d = tempfile::tempdir().unwrap();
        let missing = d.path().join("nope.warc");
        for (p, words) in [
            (&missing, "cannot be opened"),
            (&d.path().to_path_buf(), "a folder"),
        ] {
            let e = WarcDocs::open(std::slice::from_ref(p)).err().unwrap();
            assert!(e.is_user_error());
            let s = e.to_string();
            assert!(
                s.contains(&p.display().to_string()) && s.contains(words),
                "{s}"
            );
        }
    }
}
