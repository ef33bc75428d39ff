//! Cleaned pages kept in the workspace: every stored page's latest snapshot cleaned by DocView
//! once (table `clean_pages`, schema v11) — type, title, body and formula 7-1 keywords
//! [L2255–L2278] — so the later stages of the engine (dedup before serving §7.2, the index §5.4
//! [L1598–L1641], the classifier ch. 11) and the panels read the cleaned text instead of cleaning
//! again. Book ch. 2 [L614–L735]: preprocessing runs once between gathering and serving.
//!
//! A page re-crawled into a new snapshot is cleaned again (its older row goes); a snapshot that
//! is not HTML or that DocView refuses keeps a row with `ok = 0` and the reason, so it is not
//! tried again. [`pending`] says what is left to clean, [`clean_pending`] cleans it (the
//! `clean-pages` job, [`CleanPagesJob`]), [`load`] reads the cleaned pages back.
//!
//! ```no_run
//! use tianwang::engine::docview::stored;
//! use tianwang::engine::store::Workspace;
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let done = stored::clean_pending(&ws, None, false, &())?;
//! println!("{} pages cleaned, {} were already", done.cleaned, done.already);
//! for p in stored::load(&ws)? {
//!     println!("{} {} ({} characters)", p.page_type, p.title, p.body.chars().count());
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::time::Instant;

use rayon::prelude::*;
use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{Params, plain::Doc};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::{JobContext, Tick, TypedJob};
use crate::engine::store::{Workspace, now_rfc3339};

/// A stored page as DocView cleaned it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CleanedPage {
    pub page_id: i64,
    pub snapshot_id: i64,
    pub url: String,
    /// topic | hub | picture.
    pub page_type: String,
    pub title: String,
    pub body: String,
    /// Formula 7-1 keywords with their weights.
    pub keywords: Vec<(String, f64)>,
}

impl CleanedPage {
    /// The page as the plain document the dedup, index and classifier labs read.
    pub fn doc(&self) -> Doc {
        Doc {
            name: self.url.clone(),
            headline: self.title.clone(),
            body: self.body.clone(),
            site: url::Url::parse(&self.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_default(),
            keywords: self.keywords.clone(),
        }
    }
}

/// What a cleaning pass did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CleanOutcome {
    /// Pages with a stored snapshot.
    pub pages: u64,
    /// Snapshots cleaned by this pass.
    pub cleaned: u64,
    /// Of those, not HTML or refused by DocView (kept with the reason, not tried again).
    pub refused: u64,
    /// Pages whose latest snapshot was cleaned before (nothing to do for them).
    pub already: u64,
    pub topic: u64,
    pub hub: u64,
    pub picture: u64,
    pub seconds: f64,
}

/// `(page id, url, snapshot id)` of every page whose latest snapshot has no cleaned row, in
/// page order.
pub(crate) fn pending(ws: &Workspace) -> Result<Vec<(i64, String, i64)>> {
    let mut st = ws.conn().prepare(
        "SELECT p.id, p.url, s.id FROM pages p
         JOIN snapshots s ON s.id = (SELECT MAX(id) FROM snapshots WHERE page_id = p.id)
         WHERE NOT EXISTS (SELECT 1 FROM clean_pages c WHERE c.snapshot_id = s.id)
         ORDER BY p.id",
    )?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Pages with a stored snapshot, and how many of them have their latest snapshot cleaned.
pub fn counts(ws: &Workspace) -> Result<(u64, u64)> {
    // Two index scans: the latest snapshot of each page from `snapshots_page`, looked up in
    // `clean_pages_page` (page, snapshot) — not in `clean_pages` itself, whose rows hold the
    // cleaned text (reaching 100,000 of them read the whole table).
    let (pages, cleaned): (i64, i64) = ws.conn().query_row(
        "SELECT COUNT(*), COUNT(c.snapshot_id)
         FROM (SELECT page_id, MAX(id) AS latest FROM snapshots GROUP BY page_id) l
         JOIN pages p ON p.id = l.page_id
         LEFT JOIN clean_pages c INDEXED BY clean_pages_page
                ON c.page_id = l.page_id AND c.snapshot_id = l.latest",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((pages as u64, cleaned as u64))
}

/// One snapshot's cleaning: a row to write.
struct Row {
    snapshot_id: i64,
    page_id: i64,
    result: std::result::Result<(String, String, String, String, String), String>,
}

/// The content of a stored response (Content-Encoding undone) and its Content-Type (`stored_ct`,
/// else the head's), when it is an HTML page DocView cleans: a Content-Type that says HTML or
/// nothing, and a non-empty body; else why not. A WARC record is judged the same way
/// ([`super::plain::response_page`]).
pub(crate) fn html_response(
    raw: &[u8],
    stored_ct: Option<&str>,
) -> std::result::Result<(Vec<u8>, Option<String>), String> {
    let (head, content) = crate::engine::formats::http::snapshot_content(raw);
    let ct = stored_ct
        .map(str::to_string)
        .or_else(|| crate::engine::formats::http::content_type(head));
    if !ct.as_deref().is_none_or(|c| c.contains("html")) {
        return Err(format!("not HTML ({})", ct.unwrap_or_default()));
    }
    if content.is_empty() {
        return Err("empty response".into());
    }
    Ok((content, ct))
}

/// DocView's reading of one stored response: (type, title, body, keywords JSON, encoding).
fn clean_one(
    url: &str,
    raw: &[u8],
    stored_ct: Option<&str>,
    params: &Params,
) -> std::result::Result<(String, String, String, String, String), String> {
    let (content, ct) = html_response(raw, stored_ct)?;
    let v = super::extract(&content, Some(url), ct.as_deref(), None, params)
        .map_err(|e| e.to_string())?;
    let keywords: Vec<(String, f64)> = v
        .keywords
        .iter()
        .map(|k| (k.word.clone(), k.weight))
        .collect();
    let keywords = serde_json::to_string(&keywords).map_err(|e| e.to_string())?;
    Ok((
        v.page_type.name().to_string(),
        v.title,
        v.body,
        keywords,
        v.encoding.name,
    ))
}

/// Pages cleaned per transaction (and per progress report).
const CHUNK: usize = 32;

/// A snapshot to clean: (snapshot id, page id, URL, raw bytes, Content-Type).
type RawSnapshot = (i64, i64, String, Vec<u8>, Option<String>);

/// Clean every page whose latest snapshot has no cleaned row (`all`: clean every page again),
/// with DocView's default parameters; `job_id` is recorded on each row.
pub fn clean_pending(
    ws: &Workspace,
    job_id: Option<i64>,
    all: bool,
    tick: &dyn Tick,
) -> Result<CleanOutcome> {
    let t0 = Instant::now();
    if all {
        ws.conn().execute("DELETE FROM clean_pages", [])?;
    }
    let (pages, before) = counts(ws)?;
    let todo = pending(ws)?;
    let params = Params::default();
    let mut out = CleanOutcome {
        pages,
        already: before,
        ..CleanOutcome::default()
    };
    let total = todo.len().max(1);
    for (k, chunk) in todo.chunks(CHUNK).enumerate() {
        tick.tick(
            (k * CHUNK) as f32 / total as f32,
            &format!("cleaning {} of {}", k * CHUNK, todo.len()),
        )?;
        let raw: Vec<RawSnapshot> = chunk
            .iter()
            .map(|(page, url, snap)| {
                let (raw, ct): (Option<Vec<u8>>, Option<String>) = ws.conn().query_row(
                    "SELECT raw, content_type FROM snapshots WHERE id = ?1",
                    [snap],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                Ok((*snap, *page, url.clone(), raw.unwrap_or_default(), ct))
            })
            .collect::<Result<_>>()?;
        let rows: Vec<Row> = raw
            .par_iter()
            .map(|(snap, page, url, bytes, ct)| Row {
                snapshot_id: *snap,
                page_id: *page,
                result: clean_one(url, bytes, ct.as_deref(), &params),
            })
            .collect();
        write_rows(ws, &rows, job_id, &mut out)?;
    }
    tick.tick(1.0, "cleaned")?;
    out.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

fn write_rows(
    ws: &Workspace,
    rows: &[Row],
    job_id: Option<i64>,
    out: &mut CleanOutcome,
) -> Result<()> {
    let tx = ws.conn().unchecked_transaction()?;
    {
        let mut older =
            tx.prepare_cached("DELETE FROM clean_pages WHERE page_id = ?1 AND snapshot_id < ?2")?;
        let mut ins = tx.prepare_cached(
            "INSERT OR REPLACE INTO clean_pages (snapshot_id, page_id, ok, page_type, title, body,
                 keywords, encoding, error, job_id, cleaned_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        let now = now_rfc3339();
        for r in rows {
            older.execute(params![r.page_id, r.snapshot_id])?;
            out.cleaned += 1;
            match &r.result {
                Ok((ty, title, body, kw, enc)) => {
                    match ty.as_str() {
                        "topic" => out.topic += 1,
                        "hub" => out.hub += 1,
                        _ => out.picture += 1,
                    }
                    ins.execute(params![
                        r.snapshot_id,
                        r.page_id,
                        1,
                        ty,
                        title,
                        body,
                        kw,
                        enc,
                        None::<String>,
                        job_id,
                        now
                    ])?;
                }
                Err(why) => {
                    out.refused += 1;
                    ins.execute(params![
                        r.snapshot_id,
                        r.page_id,
                        0,
                        None::<String>,
                        "",
                        "",
                        "[]",
                        None::<String>,
                        why,
                        job_id,
                        now
                    ])?;
                }
            }
        }
    }
    tx.commit()?;
    Ok(())
}

/// Every page whose latest snapshot is cleaned (and was HTML DocView accepted), in page order.
pub fn load(ws: &Workspace) -> Result<Vec<CleanedPage>> {
    let mut st = ws.conn().prepare(
        "SELECT p.id, c.snapshot_id, p.url, c.page_type, c.title, c.body, c.keywords
         FROM pages p
         JOIN snapshots s ON s.id = (SELECT MAX(id) FROM snapshots WHERE page_id = p.id)
         JOIN clean_pages c ON c.snapshot_id = s.id
         WHERE c.ok = 1 ORDER BY p.id",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, String>(6)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (page_id, snapshot_id, url, ty, title, body, kw) = row?;
        let keywords = serde_json::from_str(&kw).map_err(|e| {
            EngineError::corrupt(
                ws.path(),
                Flaw::with_detail("flaw.keywords_decode", &[&url], e),
            )
        })?;
        out.push(CleanedPage {
            page_id,
            snapshot_id,
            url,
            page_type: ty.unwrap_or_default(),
            title,
            body,
            keywords,
        });
    }
    Ok(out)
}

/// The `clean-pages` job's parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct CleanPagesParams {
    /// Clean every page again (else only pages whose latest snapshot is not cleaned yet).
    #[serde(default)]
    pub all: bool,
}

/// The logged, cancellable cleaning of the workspace's pages (the pipeline's `clean` stage).
pub(crate) struct CleanPagesJob {
    params: CleanPagesParams,
}

impl TypedJob for CleanPagesJob {
    const KIND: &'static str = "clean-pages";
    type Params = CleanPagesParams;
    type Output = CleanOutcome;

    fn from_params(params: CleanPagesParams) -> Result<Self> {
        Ok(CleanPagesJob { params })
    }

    fn params(&self) -> CleanPagesParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<CleanOutcome> {
        let ws = Workspace::open_existing(cx.workspace_path())?;
        let out = clean_pending(&ws, cx.job_id(), self.params.all, cx)?;
        cx.counters(&out);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_cleaned_once_and_a_new_one_again() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&dir.path().join("w.tianwang")).unwrap();
        let c = ws.conn();
        c.execute_batch(
            "INSERT INTO sites(id, host, first_seen) VALUES (1, 'a.localhost', 'now');
             INSERT INTO pages(id, url, site_id, first_seen) VALUES
                 (1, 'http://a.localhost/1.html', 1, 'now'),
                 (2, 'http://a.localhost/logo.png', 1, 'now');",
        )
        .unwrap();
        let page = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
            <html><head><title>天网新闻</title></head><body><div class=content><h1>天网新闻</h1>\
            <p>北京大学网络实验室开发了天网搜索引擎，它是中国最早的搜索引擎之一。</p></div></body></html>";
        let ins = "INSERT INTO snapshots(page_id, fetched_at, status, raw, content_type)
                   VALUES (?1, 'now', 200, ?2, ?3)";
        c.execute(ins, params![1, page.as_bytes(), "text/html; charset=utf-8"])
            .unwrap();
        c.execute(ins, params![2, b"\x89PNG".as_slice(), "image/png"])
            .unwrap();
        assert_eq!(pending(&ws).unwrap().len(), 2);
        let first = clean_pending(&ws, None, false, &()).unwrap();
        assert_eq!((first.cleaned, first.refused, first.already), (2, 1, 0));
        let pages = load(&ws).unwrap();
        assert_eq!(pages.len(), 1, "the image is kept as refused, not loaded");
        assert_eq!(pages[0].title, "天网新闻");
        assert!(
            pages[0].body.contains("天网搜索引擎"),
            "{:?}",
            pages[0].body
        );
        // Nothing new: nothing cleaned.
        let again = clean_pending(&ws, None, false, &()).unwrap();
        assert_eq!((again.cleaned, again.already), (0, 2));
        // A re-crawl's new snapshot is cleaned, and replaces the older row.
        let changed = page.replace("中国最早", "最早");
        c.execute(ins, params![1, changed.as_bytes(), "text/html"])
            .unwrap();
        assert_eq!(pending(&ws).unwrap().len(), 1);
        let third = clean_pending(&ws, None, false, &()).unwrap();
        assert_eq!(third.cleaned, 1);
        let rows: i64 = c
            .query_row(
                "SELECT COUNT(*) FROM clean_pages WHERE page_id = 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rows, 1);
        assert!(!load(&ws).unwrap()[0].body.contains("中国最早"));
        assert_eq!(counts(&ws).unwrap(), (2, 2));
    }
}
