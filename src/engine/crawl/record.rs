//! What a fetch brought back, decided by the coordinator and handed to the writer as one
//! unit: the fetch log, the page, its snapshot or replica mark, the frontier row, and the links
//! it discovered — the writer commits it within one batch transaction, so a crash never leaves
//! half a page (a whole batch is either in or out; see [`super::writer`]).

use super::fetch::{FetchError, Fetched};
use super::frontier::{Entry, host_of};
use super::writer::{FrontierRow, Op, PageRec, Update};
use super::{Ctx, links, url_hash};
use crate::engine::error::{EngineError, Result};
use crate::engine::urls;

/// Decide one fetch and queue its writes: the log row, the page, its snapshot (or replica
/// mark), the frontier row, and the links it discovered.
pub(super) fn record(
    c: &mut Ctx<'_>,
    entry: Entry,
    result: std::result::Result<Box<Fetched>, FetchError>,
) -> Result<()> {
    c.stats.fetched += 1;
    let at = c.now.clone();
    let mut f = match result {
        Err(e) => {
            c.error(e.kind);
            c.ops.push(Op::Failed {
                id: entry.id,
                url: entry.url,
                kind: e.kind,
                message: e.message,
                at,
            });
            return Ok(());
        }
        Ok(f) => f,
    };
    let body_len = f.body.len();
    c.stats.bytes += body_len as u64;
    let final_url = url::Url::parse(&f.final_url)
        .map(|u| urls::canonicalize(&u).to_string())
        .unwrap_or_else(|_| f.final_url.clone());
    let redirected = final_url != entry.url;
    let host = host_of(&final_url);
    if redirected {
        // The redirected-to URL is visited too.
        let h = url_hash(&final_url);
        match c.seen.get(&h).copied() {
            Some(id) => {
                c.sched.current.remove(&id);
                c.ops.push(Op::Update(Update::State {
                    id,
                    state: "done",
                    why: None,
                }));
            }
            None => {
                c.add_row(
                    h,
                    FrontierRow {
                        id: 0,
                        url: final_url.clone(),
                        host: host.clone(),
                        depth: entry.depth,
                        priority: 0.0,
                        why: "redirect target".into(),
                        backlinks: 0,
                        state: "done",
                        at: at.clone(),
                    },
                );
            }
        }
    }
    let mut error_kind: Option<String> = None;
    let mut md5 = None;
    let content_type = f.content_type.as_deref().unwrap_or_default();
    if f.status == 304 {
        // A conditional re-crawl: unchanged since the last snapshot.
        c.stats.not_modified += 1;
    } else if f.status >= 400 {
        error_kind = Some(format!("http_{}", f.status));
    } else if !urls::mime_allowed(content_type) {
        error_kind = Some("mime".into());
    } else {
        md5 = Some(
            f.md5
                .unwrap_or_else(|| crate::engine::formats::index::md5(&f.body)),
        );
    }
    if let Some(k) = &error_kind {
        c.error(k);
    }
    let found = links_of(c, &mut f, &final_url)?;
    for u in &found {
        let allowed = !c.p.respect_robots
            || match c
                .sched
                .hosts
                .get(&host_of(u.as_str()))
                .and_then(|h| h.robots.as_ref())
            {
                Some(Some(r)) => r.allowed(u.as_str()),
                _ => true,
            };
        if allowed {
            c.discover_canonical(u, entry.depth + 1);
            continue;
        }
        let h = url_hash(u.as_str());
        if !c.seen.contains_key(&h) {
            c.add_row(
                h,
                FrontierRow {
                    id: 0,
                    url: u.to_string(),
                    host: host_of(u.as_str()),
                    depth: entry.depth + 1,
                    priority: 0.0,
                    why: "robots.txt disallows".into(),
                    backlinks: 0,
                    state: "robots",
                    at: at.clone(),
                },
            );
            c.stats.robots_blocked += 1;
        }
    }
    c.ops.push(Op::Page(Box::new(PageRec {
        frontier_id: entry.id,
        url: entry.url,
        final_url,
        redirected,
        host,
        depth: entry.depth,
        at,
        f,
        body_len,
        error_kind,
        md5,
        links: found,
    })));
    Ok(())
}

/// The page's out-links (canonical): the worker's, or read from the snapshot we already have
/// when the server answered 304. Links of a replica are followed too: on a mirror they lead
/// to other URLs.
fn links_of(c: &Ctx<'_>, f: &mut Fetched, final_url: &str) -> Result<Vec<url::Url>> {
    // Unchanged (304): its links are read from the snapshot we already have.
    let (link_ct, link_body) = if f.status == 304 {
        c.ws.conn()
            .prepare_cached(
                "SELECT s.content_type, s.raw FROM snapshots s JOIN pages p ON p.id = s.page_id
                 WHERE p.url = ?1 ORDER BY s.id DESC LIMIT 1",
            )?
            .query_row([final_url], |r| {
                Ok((
                    r.get::<_, Option<String>>(0)?,
                    r.get::<_, Option<Vec<u8>>>(1)?,
                ))
            })
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })?
            .map(|(ct, raw)| {
                (
                    ct,
                    crate::engine::formats::http::snapshot_content(&raw.unwrap_or_default()).1,
                )
            })
            .unwrap_or((None, Vec::new()))
    } else {
        (f.content_type.clone(), std::mem::take(&mut f.body))
    };
    let is_html = link_ct
        .as_deref()
        .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
    if f.status >= 400 || !is_html {
        return Ok(Vec::new());
    }
    let base = url::Url::parse(&f.final_url).map_err(|e| EngineError::Internal(e.to_string()))?;
    Ok(match f.links.take() {
        Some(found) => found,
        None => links::extract(&base, link_ct.as_deref(), &link_body)
            .0
            .iter()
            .map(urls::canonicalize)
            .collect(),
    })
}
