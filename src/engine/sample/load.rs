//! Loading the sample web into a workspace, as if it had been crawled: one site row per host,
//! one page row per URL, and a snapshot holding the raw HTTP response (status line, headers,
//! blank line, body — as TSE stores a page [L1050–1126]). Loading the updated edition later
//! adds a second snapshot to each page that changed, so snapshot history has something to show.
//! Runs as a job in one transaction: cancelled or failed, it writes nothing.

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use super::web::SampleWeb;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::JobContext;
use crate::engine::jobs::TypedJob;
use crate::engine::store::{Workspace, now_rfc3339};

/// The sample-load job.
#[derive(Debug, Clone)]
pub struct LoadSample {
    /// Load the updated edition.
    pub changed: bool,
}

/// The sample-load job's parameters.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct LoadSampleParams {
    /// Load the updated edition.
    #[serde(default)]
    pub changed: bool,
}

/// What a sample load did.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LoadSampleResult {
    pub pages: u64,
    pub new_pages: u64,
    pub new_snapshots: u64,
    pub unchanged: u64,
    pub sites: u64,
    /// `original` or `changed`.
    pub edition: String,
}

impl TypedJob for LoadSample {
    const KIND: &'static str = "sample-load";
    type Params = LoadSampleParams;
    type Output = LoadSampleResult;

    fn from_params(p: LoadSampleParams) -> Result<Self> {
        Ok(LoadSample { changed: p.changed })
    }

    fn params(&self) -> LoadSampleParams {
        LoadSampleParams {
            changed: self.changed,
        }
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<LoadSampleResult> {
        cx.progress(0.0, "generating");
        // URLs are written without a port, as if served on port 80.
        let web = SampleWeb::build(80, self.changed)?;
        let mut ws = Workspace::open_existing(cx.workspace_path())?;
        load(&mut ws, &web, cx)
    }
}

fn raw_response(r: &super::web::Resource) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {} OK\r\n", r.status);
    if let Some(ct) = &r.content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    head.push_str(&format!(
        "Last-Modified: {}\r\nETag: {}\r\nContent-Length: {}\r\n\r\n",
        r.last_modified.format("%a, %d %b %Y %H:%M:%S GMT"),
        r.etag,
        r.body.len()
    ));
    let mut raw = head.into_bytes();
    raw.extend_from_slice(&r.body);
    raw
}

fn load(ws: &mut Workspace, web: &SampleWeb, cx: &JobContext) -> Result<LoadSampleResult> {
    let now = now_rfc3339();
    let total = web.truth.pages.len();
    let (mut new_pages, mut new_snapshots, mut unchanged) = (0u64, 0u64, 0u64);
    let tx = ws.conn_mut().transaction()?;
    for (i, p) in web.truth.pages.iter().enumerate() {
        cx.check_cancel()?;
        let url = url::Url::parse(&p.url)
            .map_err(|e| EngineError::Internal(format!("{}: {e}", p.url)))?;
        let mut path = url.path().to_string();
        if let Some(q) = url.query() {
            path.push('?');
            path.push_str(q);
        }
        let r = web
            .get(&p.site, &path)
            .ok_or_else(|| EngineError::Internal(format!("{} has no resource", p.url)))?;
        tx.execute(
            "INSERT INTO sites(host, first_seen) VALUES (?1, ?2) ON CONFLICT(host) DO NOTHING",
            (&p.site, &now),
        )?;
        let site_id: i64 =
            tx.query_row("SELECT id FROM sites WHERE host = ?1", [&p.site], |r| {
                r.get(0)
            })?;
        let inserted = tx.execute(
            "INSERT INTO pages(url, site_id, first_seen, status, depth) VALUES (?1, ?2, ?3, ?4, NULL)
             ON CONFLICT(url) DO NOTHING",
            (&p.url, site_id, &now, i64::from(r.status)),
        )?;
        new_pages += inserted as u64;
        let page_id: i64 = tx.query_row("SELECT id FROM pages WHERE url = ?1", [&p.url], |r| {
            r.get(0)
        })?;
        for l in &p.links {
            if let Ok(u) = url::Url::parse(l) {
                tx.execute(
                    "INSERT OR IGNORE INTO links(from_page, to_url) VALUES (?1, ?2)",
                    (page_id, crate::engine::urls::canonicalize(&u).to_string()),
                )?;
            }
        }
        let md5 = r.etag.trim_matches('"').to_string();
        let last: Option<String> = tx
            .query_row(
                "SELECT md5 FROM snapshots WHERE page_id = ?1 ORDER BY id DESC LIMIT 1",
                [page_id],
                |r| r.get(0),
            )
            .optional()?;
        if last.as_deref() == Some(md5.as_str()) {
            unchanged += 1;
        } else {
            tx.execute(
                "INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, content_type)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                (
                    page_id,
                    &now,
                    i64::from(r.status),
                    &md5,
                    raw_response(r),
                    &r.content_type,
                ),
            )?;
            new_snapshots += 1;
        }
        if i % 16 == 0 {
            cx.progress(i as f32 / total as f32, "loading pages");
            cx.counter("pages", i as f64);
        }
    }
    tx.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('sample_loaded', ?1)",
        [if web.truth.edition_changed {
            "changed"
        } else {
            "original"
        }],
    )?;
    tx.commit()?;
    cx.progress(1.0, "done");
    Ok(LoadSampleResult {
        pages: total as u64,
        new_pages,
        new_snapshots,
        unchanged,
        sites: web.truth.sites.len() as u64,
        edition: if web.truth.edition_changed {
            "changed"
        } else {
            "original"
        }
        .into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::jobs::{JobRunner, JobState};
    use std::sync::Arc;

    #[test]
    fn load_then_load_the_updated_edition_adds_history() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        Workspace::open_or_create(&p).unwrap();
        let runner = JobRunner::new(p.clone(), Arc::new(|| {}));
        let JobState::Done(v) = runner.spawn(Box::new(LoadSample { changed: false })).wait() else {
            panic!("load failed")
        };
        let pages = v["pages"].as_u64().unwrap();
        assert!(pages >= 400);
        assert_eq!(v["new_snapshots"], pages);
        let s = Workspace::open_existing(&p).unwrap().summary().unwrap();
        assert_eq!(s.pages as u64, pages);
        assert_eq!(s.snapshots as u64, pages);
        assert!(s.sites >= 6);

        let JobState::Done(v2) = runner.spawn(Box::new(LoadSample { changed: true })).wait() else {
            panic!("second load failed")
        };
        let changed = SampleWeb::build(80, true).unwrap().truth.changed.len() as u64;
        assert_eq!(v2["new_pages"], 0);
        assert_eq!(v2["new_snapshots"], changed);
        let s = Workspace::open_existing(&p).unwrap().summary().unwrap();
        assert_eq!(s.snapshots as u64, pages + changed);

        // The raw snapshot is a whole HTTP response whose body hashes to its md5.
        let ws = Workspace::open_existing(&p).unwrap();
        let (raw, md5): (Vec<u8>, String) = ws
            .conn()
            .query_row("SELECT raw, md5 FROM snapshots WHERE id = 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert!(raw.starts_with(b"HTTP/1.1 200 OK\r\n"));
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        assert_eq!(crate::engine::formats::index::md5_hex(&raw[split..]), md5);
    }

    #[test]
    fn cancelled_load_writes_nothing() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.tianwang");
        Workspace::open_or_create(&p).unwrap();
        let runner = JobRunner::new(p.clone(), Arc::new(|| {}));
        let h = runner.spawn(Box::new(LoadSample { changed: false }));
        h.cancel();
        assert_eq!(h.wait(), JobState::Cancelled);
        let s = Workspace::open_existing(&p).unwrap().summary().unwrap();
        assert_eq!((s.sites, s.pages, s.snapshots), (0, 0, 0));
    }
}
