//! WARC files straight to the `pages` Parquet file of the big jobs' contract ([`super::on_engine::PAGES`]),
//! without a workspace: each HTML response is cleaned by DocView (title, body, formula 7-1
//! keywords [L2255–L2278]) exactly as a workspace's stored page is (`export-parquet --what
//! pages --clean`), and written in row groups of at most [`BATCH`] pages, so memory stays
//! bounded by one batch whatever the crawl's size. Damaged records are reported by file and
//! offset and skipped ([`crate::engine::formats::warc_stream`]). Feature `bigjobs`.
//!
//! ```no_run
//! use tianwang::engine::dedup::warc_pages::export;
//! let r = export(&["crawl.warc.gz".into()], std::path::Path::new("out"), &())?;
//! println!("{} pages in {}", r.rows, r.file.display());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::Doc;
use super::on_engine::{PAGES, pages_batch_at};
use crate::engine::docview::plain::response_page;
use crate::engine::error::Result;
use crate::engine::exec::parquet_io::AtomicWriter;
use crate::engine::formats::warc_stream::{Item, check_files, open_counted};
use crate::engine::jobs::Tick;

/// Pages cleaned and written together (one row group).
pub const BATCH: usize = 2_000;
/// Damaged records listed one by one; beyond this they are only counted.
const LISTED: usize = 1_000;

/// A record that was damaged and skipped.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Damaged {
    pub file: PathBuf,
    /// Offset of the record's `WARC/` line in the (inflated) stream.
    pub offset: u64,
    pub message: String,
}

/// What an export did.
#[derive(Debug, Clone, Serialize)]
pub struct WarcExport {
    /// Rows written: HTML pages.
    pub rows: usize,
    /// The `pages` file written.
    pub file: PathBuf,
    /// WARC files read.
    pub warc_files: usize,
    /// Damaged records skipped.
    pub skipped: usize,
    /// The first [`LISTED`] of them.
    pub damaged: Vec<Damaged>,
    /// Records that hold no HTML page (warcinfo, requests, images, empty bodies …).
    pub not_pages: usize,
    pub seconds: f64,
}

/// Reads every file in `inputs` (plain or gzip WARC) into `out/pages.parquet`.
pub fn export(inputs: &[PathBuf], out: &Path, tick: &dyn Tick) -> Result<WarcExport> {
    let t0 = Instant::now();
    let total = check_files(inputs)?;
    let file = out.join("pages.parquet");
    let mut w = AtomicWriter::create(&file, PAGES.arrow(), &[])?;
    let mut r = WarcExport {
        rows: 0,
        file: file.clone(),
        warc_files: inputs.len(),
        skipped: 0,
        damaged: Vec::new(),
        not_pages: 0,
        seconds: 0.0,
    };
    let read = Arc::new(AtomicU64::new(0));
    let mut batch: Vec<(String, Vec<u8>)> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<(String, Vec<u8>)>, r: &mut WarcExport| -> Result<()> {
        let docs: Vec<Option<Doc>> = batch
            .par_iter()
            .map(|(u, b)| response_page(u, b).map(|p| p.doc))
            .collect();
        r.not_pages += docs.iter().filter(|d| d.is_none()).count();
        let docs: Vec<Doc> = docs.into_iter().flatten().collect();
        batch.clear();
        if !docs.is_empty() {
            w.write(&pages_batch_at(&docs, r.rows as i64)?)?;
            w.flush()?;
            r.rows += docs.len();
        }
        Ok(())
    };
    for f in inputs {
        let mut s = open_counted(f, read.clone())?;
        while let Some(item) = s.next_item() {
            match item {
                Item::Page { record, .. } => {
                    batch.push((record.url, record.data));
                    if batch.len() >= BATCH {
                        flush(&mut batch, &mut r)?;
                        let done = read.load(Ordering::Relaxed) as f32 / total.max(1) as f32;
                        let name = f.file_name().unwrap_or_default().to_string_lossy();
                        tick.tick(done.min(1.0), &format!("{name}: {} pages", r.rows))?;
                    }
                }
                Item::NotPage(_) => r.not_pages += 1,
                Item::Damaged {
                    offset, message, ..
                } => {
                    r.skipped += 1;
                    if r.damaged.len() < LISTED {
                        r.damaged.push(Damaged {
                            file: f.clone(),
                            offset,
                            message,
                        });
                    }
                }
            }
        }
    }
    flush(&mut batch, &mut r)?;
    w.finish()?;
    tick.tick(1.0, &format!("{} pages", r.rows))?;
    r.seconds = t0.elapsed().as_secs_f64();
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_pages_become_rows_numbered_across_batches_and_the_rest_is_counted() {
        use crate::engine::formats::tianwang::RawRecord;
        let page = |i: usize, ct: &str, body: &str| RawRecord {
            url: format!("http://a.cn/{i}"),
            origin: None,
            date: chrono::DateTime::from_timestamp(1_063_721_600, 0).unwrap_or_default(),
            ip: None,
            unzip_length: None,
            data: format!("HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\n\r\n{body}").into_bytes(),
        };
        let mut recs: Vec<RawRecord> = (0..BATCH + 5)
            .map(|i| {
                page(
                    i,
                    "text/html; charset=utf-8",
                    &format!("<title>第{i}页</title><p>正文 {i}</p>"),
                )
            })
            .collect();
        recs.push(page(9_999_999, "image/png", "\u{1}png"));
        recs.push(page(9_999_998, "text/html", ""));
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.warc.gz");
        let mut bytes = Vec::new();
        crate::engine::formats::warc::write_warc_gz(&mut bytes, &recs).unwrap();
        std::fs::write(&f, bytes).unwrap();
        let r = export(&[f], &d.path().join("out"), &()).unwrap();
        assert_eq!(r.rows, BATCH + 5);
        assert_eq!(r.skipped, 0);
        assert_eq!(r.not_pages, 3, "warcinfo, the image, the empty page");
        let docs = super::super::on_engine::read_pages(&r.file).unwrap();
        assert_eq!(docs.len(), BATCH + 5);
        assert_eq!(docs[BATCH + 1].name, format!("http://a.cn/{}", BATCH + 1));
        assert_eq!(docs[7].headline, "第7页");
    }

    #[test]
    fn a_missing_file_is_named_and_nothing_is_written() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let e = export(&[d.path().join("nope.warc")], &out, &()).unwrap_err();
        assert!(e.to_string().contains("nope.warc"), "{e}");
        assert!(!out.join("pages.parquet").exists());
    }
}
