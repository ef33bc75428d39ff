//! Archives: how do a workspace's snapshots travel to and from standard files?
//!
//! Export writes every stored snapshot — the raw HTTP response, byte-exact — as a Tianwang raw
//! file (the book's format, ch. 3 [L1042–1126]) or as WARC/1.1; import reads either back into
//! a workspace (sites, pages, snapshots), in one transaction, so real Common Crawl or Heritrix
//! WARC files can be inspected too. A damaged Tianwang file can be imported with recovery: the
//! book's scan for `version:` confirmed by 3 consecutive valid records [L1110–1115].
//!
//! ```no_run
//! use tianwang::engine::{archive, store::Workspace};
//! let ws = Workspace::open_or_create("lab.tianwang".as_ref())?;
//! let n = archive::export(&ws, archive::Format::Tianwang, "pages.raw".as_ref())?;
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::Path;

use chrono::{DateTime, Utc};
use rusqlite::params;
use serde::Serialize;

use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::formats::{index, tianwang, tianwang::RawRecord, warc};
use crate::engine::store::{Workspace, now_rfc3339};

/// An archive format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    Tianwang,
    Warc,
}

impl std::str::FromStr for Format {
    type Err = EngineError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "tianwang" => Ok(Format::Tianwang),
            "warc" => Ok(Format::Warc),
            _ => Err(EngineError::invalid(
                "format",
                format!("`{s}`: use tianwang or warc"),
            )),
        }
    }
}

fn io_err(path: &Path, e: std::io::Error) -> EngineError {
    EngineError::path_os(path, e)
}

/// `PATH.doc.idx` / `PATH.url.idx` beside an exported raw file.
pub(crate) fn idx_path(raw: &Path, suffix: &str) -> std::path::PathBuf {
    let mut s = raw.as_os_str().to_owned();
    s.push(".");
    s.push(suffix);
    s.into()
}

/// Every snapshot as a record, oldest first.
pub fn records(ws: &Workspace) -> Result<Vec<RawRecord>> {
    let mut st = ws.conn().prepare(
        "SELECT p.url, s.origin, s.fetched_at, s.ip, s.raw FROM snapshots s
         JOIN pages p ON p.id = s.page_id WHERE s.raw IS NOT NULL ORDER BY s.id",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, Vec<u8>>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (url, origin, fetched_at, ip, data) = row?;
        let date = DateTime::parse_from_rfc3339(&fetched_at)
            .map(|d| d.with_timezone(&Utc))
            .map_err(|e| {
                EngineError::corrupt(
                    ws.path(),
                    Flaw::with_detail("flaw.snapshot_date", &[&url, &format!("{fetched_at:?}")], e),
                )
            })?;
        out.push(RawRecord {
            url,
            origin,
            date,
            ip,
            unzip_length: None,
            data,
        });
    }
    Ok(out)
}

/// Write every snapshot to `path` (which must not exist). Returns the number of records.
pub fn export(ws: &Workspace, format: Format, path: &Path) -> Result<usize> {
    if path.exists() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.path_exists", &[]),
        ));
    }
    let recs = records(ws)?;
    let mut buf = Vec::new();
    // Writing into memory fails only by a bug.
    let internal = |e: std::io::Error| EngineError::Internal(e.to_string());
    match format {
        Format::Tianwang => {
            // The raw file, and beside it the book's two indexes [L1449–1476]:
            // PATH.doc.idx (id, offset, MD5, with the sentinel) and PATH.url.idx (sorted).
            let offsets = tianwang::write_all(&mut buf, &recs).map_err(internal)?;
            let end = offsets.last().copied().unwrap_or(0);
            let placed: Vec<(u64, RawRecord)> =
                offsets.iter().copied().zip(recs.iter().cloned()).collect();
            let (mut doc, mut urls) = (Vec::new(), Vec::new());
            index::write_doc_idx(&mut doc, &index::doc_index(&placed, end)).map_err(internal)?;
            index::write_url_idx(&mut urls, &index::url_index(&placed)).map_err(internal)?;
            for (suffix, bytes) in [("doc.idx", doc), ("url.idx", urls)] {
                let p = idx_path(path, suffix);
                std::fs::write(&p, bytes).map_err(|e| io_err(&p, e))?;
            }
        }
        Format::Warc => warc::write_warc(&mut buf, &recs).map_err(internal)?,
    }
    std::fs::write(path, buf).map_err(|e| io_err(path, e))?;
    Ok(recs.len())
}

/// What an import did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ImportReport {
    pub records: usize,
    pub new_pages: usize,
    pub new_snapshots: usize,
    /// Identical snapshots already present.
    pub unchanged: usize,
    /// Tianwang recovery: bytes skipped as damaged, and candidate positions rejected.
    pub damaged_bytes: u64,
    pub rejected_candidates: usize,
}

/// Read `path` (Tianwang raw or WARC, optionally recovering a damaged Tianwang file) into the
/// workspace, in one transaction.
pub fn import(
    ws: &mut Workspace,
    format: Format,
    path: &Path,
    recover: bool,
) -> Result<ImportReport> {
    let bytes = std::fs::read(path).map_err(|e| io_err(path, e))?;
    let bad = |e: crate::engine::formats::FormatError| EngineError::InvalidParam {
        name: path.display().to_string(),
        message: format!(
            "{e}{}",
            if format == Format::Tianwang {
                " (try --recover)"
            } else {
                ""
            }
        ),
    };
    let mut report = ImportReport::default();
    let recs: Vec<RawRecord> = match (format, recover) {
        (Format::Tianwang, false) => tianwang::parse(&bytes)
            .map_err(bad)?
            .into_iter()
            .map(|(_, r)| r)
            .collect(),
        (Format::Tianwang, true) => {
            let rec = tianwang::recover(&bytes);
            report.damaged_bytes = rec.bytes_damaged();
            report.rejected_candidates = rec.candidates_rejected();
            rec.records.into_iter().map(|(_, r)| r).collect()
        }
        (Format::Warc, _) => warc::read_warc(&bytes).map_err(bad)?,
    };
    report.records = recs.len();
    let now = now_rfc3339();
    let tx = ws.conn_mut().transaction()?;
    for r in recs {
        let data = r
            .uncompressed()
            .map_err(|e| {
                EngineError::corrupt(path, Flaw::with_detail("flaw.record_inflate", &[&r.url], e))
            })?
            .into_owned();
        let (head, body) = tianwang::split_http(&data).unwrap_or((&data[..0], &data[..]));
        let status: Option<i64> = std::str::from_utf8(head)
            .ok()
            .and_then(|h| h.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok());
        let md5 = index::md5_hex(body);
        let host = url::Url::parse(&r.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
            .unwrap_or_default();
        tx.execute(
            "INSERT INTO sites(host, first_seen) VALUES (?1, ?2) ON CONFLICT(host) DO NOTHING",
            (&host, &now),
        )?;
        let site_id: i64 = tx.query_row("SELECT id FROM sites WHERE host = ?1", [&host], |x| {
            x.get(0)
        })?;
        report.new_pages += tx.execute(
            "INSERT INTO pages(url, site_id, first_seen, status) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(url) DO NOTHING",
            params![r.url, site_id, now, status],
        )?;
        let page_id: i64 = tx.query_row("SELECT id FROM pages WHERE url = ?1", [&r.url], |x| {
            x.get(0)
        })?;
        let fetched_at = r.date.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let exists: i64 = tx.query_row(
            "SELECT count(*) FROM snapshots WHERE page_id = ?1 AND fetched_at = ?2 AND md5 = ?3",
            params![page_id, fetched_at, md5],
            |x| x.get(0),
        )?;
        if exists > 0 {
            report.unchanged += 1;
            continue;
        }
        tx.execute(
            "INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, origin, ip) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![page_id, fetched_at, status, md5, data, r.origin, r.ip],
        )?;
        report.new_snapshots += 1;
    }
    tx.commit()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded() -> (tempfile::TempDir, Workspace) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.tianwang");
        let mut ws = Workspace::open_or_create(&p).unwrap();
        let web = crate::engine::sample::web::SampleWeb::build(80, false).unwrap();
        let tx = ws.conn_mut().transaction().unwrap();
        for (i, page) in web.truth.pages.iter().take(40).enumerate() {
            let u = url::Url::parse(&page.url).unwrap();
            let r = web.get(u.host_str().unwrap(), u.path()).unwrap();
            tx.execute(
                "INSERT OR IGNORE INTO sites(host, first_seen) VALUES (?1, 'x')",
                [&page.site],
            )
            .unwrap();
            tx.execute(
                "INSERT INTO pages(url, site_id, first_seen) VALUES (?1, (SELECT id FROM sites WHERE host = ?2), 'x')",
                [&page.url, &page.site],
            )
            .unwrap();
            let mut raw = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: {}\r\n\r\n",
                r.content_type.clone().unwrap()
            )
            .into_bytes();
            raw.extend_from_slice(&r.body);
            tx.execute(
                "INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, origin, ip) VALUES (?1, ?2, 200, 'm', ?3, ?4, '127.0.0.1')",
                params![i as i64 + 1, format!("2026-11-0{}T08:00:00.000Z", 1 + i % 9), raw, (i == 3).then_some("http://x.localhost/r")],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        (d, ws)
    }

    #[test]
    fn round_trips_are_byte_exact() {
        let (d, ws) = loaded();
        for format in [Format::Tianwang, Format::Warc] {
            let first = d.path().join(format!("{format:?}-1"));
            assert_eq!(export(&ws, format, &first).unwrap(), 40);
            if format == Format::Tianwang {
                // The book's indexes: every URL found through Url.idx → Doc.idx → the record.
                let raw = std::fs::read(&first).unwrap();
                let docs =
                    index::read_doc_idx(&std::fs::read(idx_path(&first, "doc.idx")).unwrap())
                        .unwrap();
                let urls =
                    index::read_url_idx(&std::fs::read(idx_path(&first, "url.idx")).unwrap())
                        .unwrap();
                assert_eq!(docs.len(), 41, "40 records and the sentinel");
                for r in records(&ws).unwrap() {
                    let found = index::snapshot(&raw, &docs, &urls, &r.url)
                        .unwrap()
                        .unwrap();
                    assert_eq!(found.data, r.data);
                }
            }
            let mut other =
                Workspace::open_or_create(&d.path().join(format!("{format:?}.tianwang"))).unwrap();
            let rep = import(&mut other, format, &first, false).unwrap();
            assert_eq!(
                (rep.records, rep.new_pages, rep.new_snapshots),
                (40, 40, 40)
            );
            let second = d.path().join(format!("{format:?}-2"));
            export(&other, format, &second).unwrap();
            assert_eq!(
                std::fs::read(&first).unwrap(),
                std::fs::read(&second).unwrap(),
                "{format:?}"
            );
            // Importing again adds nothing.
            assert_eq!(
                import(&mut other, format, &first, false).unwrap().unchanged,
                40
            );
            assert!(export(&ws, format, &first).unwrap_err().is_user_error());
        }
    }

    #[test]
    fn a_damaged_tianwang_file_is_refused_then_recovered() {
        let (d, ws) = loaded();
        let p = d.path().join("raw");
        export(&ws, Format::Tianwang, &p).unwrap();
        let mut bytes = std::fs::read(&p).unwrap();
        let mid = bytes.len() / 2;
        // Bytes inserted inside a record: its DATA no longer ends where `length` says.
        bytes.splice(
            mid..mid,
            b"@@@ garbage from a bad sector @@@".iter().copied(),
        );
        let damaged = d.path().join("damaged");
        std::fs::write(&damaged, &bytes).unwrap();
        let mut other = Workspace::open_or_create(&d.path().join("r.tianwang")).unwrap();
        let err = import(&mut other, Format::Tianwang, &damaged, false).unwrap_err();
        assert!(
            err.is_user_error() && err.to_string().contains("--recover"),
            "{err}"
        );
        assert_eq!(
            other.summary().unwrap().snapshots,
            0,
            "nothing half-written"
        );
        let rep = import(&mut other, Format::Tianwang, &damaged, true).unwrap();
        assert!(rep.records >= 38 && rep.records < 40, "{rep:?}");
        assert!(rep.damaged_bytes > 0);
    }

    /// A full disk (here the workspace's size quota, `PRAGMA max_page_count`) during an
    /// import: the import fails with a message that says the disk is full and that nothing
    /// was written, and what was committed before is all still there.
    #[test]
    fn a_full_disk_loses_nothing_committed_and_says_so() {
        let (d, ws) = loaded();
        let warc = d.path().join("x.warc");
        export(&ws, Format::Warc, &warc).unwrap();
        drop(ws);
        let target = d.path().join("b.tianwang");
        let mut ws = Workspace::open_or_create(&target).unwrap();
        let pages: i64 = ws
            .conn()
            .query_row("SELECT count(*) FROM pages", [], |r| r.get(0))
            .unwrap();
        let used: i64 = ws
            .conn()
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        ws.conn()
            .pragma_update(None, "max_page_count", used + 3)
            .unwrap();
        let e = import(&mut ws, Format::Warc, &warc, false).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("full") && msg.contains("nothing of this step was written"),
            "{msg}"
        );
        assert!(e.is_user_error());
        drop(ws);
        let ws = Workspace::open_existing(&target).unwrap();
        let after: i64 = ws
            .conn()
            .query_row("SELECT count(*) FROM pages", [], |r| r.get(0))
            .unwrap();
        assert_eq!(after, pages, "the failed import left nothing half-written");
        // With room again the same import succeeds.
        let mut ws = ws;
        let rep = import(&mut ws, Format::Warc, &warc, false).unwrap();
        assert_eq!(rep.new_pages, 40);
    }
}
