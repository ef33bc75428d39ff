//! Committing what a fetch brought back: the fetch log, the page, its snapshot or replica
//! mark, the frontier row, and the links it discovered — inside the coordinator's batch
//! transaction, so a crash never leaves half a page (a whole batch is either in or out).

use rusqlite::{OptionalExtension, params};

use super::fetch::{FetchError, Fetched};
use super::frontier::{Entry, host_of};
use super::{Ctx, links};
use crate::engine::error::{EngineError, Result};
use crate::engine::store::now_rfc3339;
use crate::engine::urls;

/// Commit one fetch: the log row, the page, its snapshot (or replica mark), the frontier row,
/// and the links it discovered — one transaction.
pub(super) fn record(
    c: &mut Ctx<'_>,
    entry: &Entry,
    result: std::result::Result<Box<Fetched>, FetchError>,
) -> Result<()> {
    let now = now_rfc3339();
    c.stats.fetched += 1;
    let r = (|| -> Result<()> {
        let mut f = match result {
            Err(e) => {
                c.error(e.kind);
                c.ws.conn().prepare_cached("INSERT INTO fetches(job_id, url, error_kind, error, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)")?.execute(
                    params![c.job_id, entry.url, e.kind, e.message, now],
                )?;
                c.ws.conn()
                    .prepare_cached("UPDATE frontier SET state = 'failed' WHERE id = ?1")?
                    .execute([entry.id])?;
                return Ok(());
            }
            Ok(f) => f,
        };
        c.stats.bytes += f.body.len() as u64;
        let final_url = url::Url::parse(&f.final_url)
            .map(|u| urls::canonicalize(&u).to_string())
            .unwrap_or_else(|_| f.final_url.clone());
        let redirected = final_url != entry.url;
        let host = host_of(&final_url);
        let conn = c.ws.conn();
        // Site ids are remembered for the crawl (a site row is never deleted while it runs).
        let site_id = match c.site_ids.get(&host) {
            Some(id) => *id,
            None => {
                conn.prepare_cached(
                    "INSERT INTO sites(host, first_seen) VALUES (?1, ?2) ON CONFLICT(host) DO NOTHING",
                )?
                .execute((&host, &now))?;
                let id: i64 = conn
                    .prepare_cached("SELECT id FROM sites WHERE host = ?1")?
                    .query_row([&host], |r| r.get(0))?;
                c.site_ids.insert(host.clone(), id);
                id
            }
        };
        let page_id: i64 = conn
            .prepare_cached(
                "INSERT INTO pages(url, site_id, first_seen, status, depth) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(url) DO UPDATE SET status = excluded.status RETURNING id",
            )?
            .query_row(params![final_url, site_id, now, f.status, entry.depth], |r| {
                r.get(0)
            })?;
        if redirected {
            c.seen.insert(super::url_hash(&final_url));
            // The redirected-to URL is visited too.
            conn.prepare_cached("INSERT INTO frontier(url, host, depth, priority, why, state, discovered_at, job_id)
                 VALUES (?1, ?2, ?3, 0, 'redirect target', 'done', ?4, ?5)
                 ON CONFLICT(url) DO UPDATE SET state = 'done'")?.execute(
                params![final_url, host, entry.depth, now, c.job_id],
            )?;
            let target: Option<i64> = conn
                .prepare_cached("SELECT id FROM frontier WHERE url = ?1")?
                .query_row([&final_url], |r| r.get(0))
                .optional()?;
            if let Some(e) = target {
                c.sched.current.remove(&e);
            }
        }
        if let Some(ip) = &f.ip
            && c.host_ips.insert((host.clone(), ip.clone()))
        {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO host_ips(host, ip, first_seen) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![host, ip, now])?;
        }
        let mut error_kind: Option<String> = None;
        let mut replica_of: Option<i64> = None;
        let content_type = f.content_type.clone().unwrap_or_default();
        if f.status == 304 {
            // A conditional re-crawl: unchanged since the last snapshot.
            c.stats.not_modified += 1;
        } else if f.status >= 400 {
            error_kind = Some(format!("http_{}", f.status));
        } else if !urls::mime_allowed(&content_type) {
            error_kind = Some("mime".into());
        } else {
            let md5 = crate::engine::formats::index::md5_hex(&f.body);
            let first: Option<i64> = conn.prepare_cached("SELECT page_id FROM snapshots WHERE md5 = ?1 AND page_id <> ?2 ORDER BY id LIMIT 1")?.query_row(
                    params![md5, page_id],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(first) = first {
                let newly = conn
                    .prepare_cached(
                        "UPDATE pages SET replica_of = ?1 WHERE id = ?2 AND replica_of IS NULL",
                    )?
                    .execute(params![first, page_id])?;
                replica_of = Some(first);
                // A page reached twice (e.g. also through a redirect) is one replica.
                c.stats.replicas += newly as u64;
            } else {
                let last: Option<String> = conn
                    .prepare_cached(
                        "SELECT md5 FROM snapshots WHERE page_id = ?1 ORDER BY id DESC LIMIT 1",
                    )?
                    .query_row([page_id], |r| r.get(0))
                    .optional()?;
                if last.as_deref() != Some(md5.as_str()) {
                    // Byte-exact: the body as received, compressed if it came compressed.
                    let mut raw = f.head.clone();
                    raw.extend_from_slice(&f.raw_body);
                    conn.prepare_cached("INSERT INTO snapshots(page_id, fetched_at, status, md5, raw, origin, content_type, etag, last_modified, ip, request)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")?.execute(
                        params![
                            page_id,
                            now,
                            f.status,
                            md5,
                            raw,
                            redirected.then_some(&entry.url),
                            f.content_type,
                            f.etag,
                            f.last_modified,
                            f.ip,
                            f.request
                        ],
                    )?;
                    c.stats.stored += 1;
                }
            }
        }
        if let Some(k) = &error_kind {
            c.error(k);
        }
        c.ws.conn().prepare_cached("INSERT INTO fetches(job_id, url, final_url, status, error_kind, bytes, elapsed_ms, fetched_at, content_type, page_id, replica_of)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")?.execute(
            params![
                c.job_id,
                entry.url,
                final_url,
                f.status,
                error_kind,
                f.body.len() as i64,
                f.elapsed.as_millis() as i64,
                now,
                f.content_type,
                page_id,
                replica_of
            ],
        )?;
        c.ws.conn()
            .prepare_cached("UPDATE frontier SET state = 'done' WHERE id = ?1")?
            .execute([entry.id])?;
        // Unchanged (304): its links are read from the snapshot we already have.
        let (link_ct, link_body) = if f.status == 304 {
            c.ws.conn().prepare_cached("SELECT content_type, raw FROM snapshots WHERE page_id = ?1 ORDER BY id DESC LIMIT 1")?.query_row(
                    [page_id],
                    |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, Option<Vec<u8>>>(1)?)),
                )
                .optional()?
                .map(|(ct, raw)| (ct, crate::engine::formats::http::snapshot_content(&raw.unwrap_or_default()).1))
                .unwrap_or((None, Vec::new()))
        } else {
            (f.content_type.clone(), std::mem::take(&mut f.body))
        };
        let is_html = link_ct
            .as_deref()
            .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
        // Links of a replica are followed too: on a mirror they lead to other URLs.
        if f.status < 400 && is_html {
            let base =
                url::Url::parse(&f.final_url).map_err(|e| EngineError::Internal(e.to_string()))?;
            let found: Vec<url::Url> = match f.links.take() {
                Some(found) => found,
                None => links::extract(&base, link_ct.as_deref(), &link_body)
                    .0
                    .iter()
                    .map(urls::canonicalize)
                    .collect(),
            };
            {
                let mut ins = c.ws.conn().prepare_cached(
                    "INSERT OR IGNORE INTO links(from_page, to_url) VALUES (?1, ?2)",
                )?;
                for u in &found {
                    ins.execute(params![page_id, u.as_str()])?;
                }
            }
            for u in found {
                let allowed = match c
                    .sched
                    .hosts
                    .get(&host_of(u.as_str()))
                    .and_then(|h| h.robots.as_ref())
                {
                    Some(Some(r)) if c.p.respect_robots => r.allowed(u.as_str()),
                    _ => true,
                };
                if allowed {
                    c.discover_canonical(&u, entry.depth + 1)?;
                } else if c
                    .ws
                    .conn()
                    .execute(
                        "INSERT INTO frontier(url, host, depth, priority, why, state, discovered_at, job_id)
                         VALUES (?1, ?2, ?3, 0, 'robots.txt disallows', 'robots', ?4, ?5) ON CONFLICT(url) DO NOTHING",
                        params![u.as_str(), host_of(u.as_str()), entry.depth + 1, now, c.job_id],
                    )?
                    > 0
                {
                    c.stats.robots_blocked += 1;
                }
            }
        }
        Ok(())
    })();
    if r.is_ok()
        && let Some(b) = &mut c.batch
    {
        b.1 += 1;
    }
    r
}
