//! The crawl's ceiling: the same server, the same number of connections and the crawler's own
//! HTTP client on a runtime like its gatherers', but plain GETs with nothing parsed or stored — how fast pages can come over the
//! wire at all, so a crawl's pages/s reads as a share of what the fetching allows (the book's
//! capacity model puts one node near its network's bound [L1138–1154]).
//!
//! ```ignore
//! let pages_per_s = ceiling(&urls, 32)?;
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::CrawlParams;
use super::fetch::{self, FetchLimits};
use crate::engine::error::{EngineError, Result};

/// GET every URL once over `connections` tasks (each its own request at a time) on a
/// gatherer runtime as the crawl's, with the crawl's client, and return the pages per second;
/// a failed GET is an error (the ceiling must fetch what the crawl does).
pub(crate) fn ceiling(urls: &[String], connections: usize) -> Result<f64> {
    let p = CrawlParams::default();
    let limits = FetchLimits {
        connect_timeout: Duration::from_millis(p.connect_timeout_ms),
        timeout: Duration::from_millis(p.timeout_ms),
        max_redirects: p.max_redirects,
        max_bytes: p.max_bytes,
        user_agent: p.user_agent,
    };
    let connections = connections.max(1);
    let rt = super::gather::runtime(super::gather_threads(connections))?;
    let resolver = Arc::new(fetch::Resolver::default());
    let client = {
        let _in_rt = rt.enter();
        fetch::client(&limits, resolver, connections).map_err(EngineError::Internal)?
    };
    let urls: Arc<Vec<String>> = Arc::new(urls.to_vec());
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let failed: Vec<String> = rt.block_on(async {
        let tasks: Vec<_> = (0..connections)
            .map(|_| {
                let (client, urls, next) = (client.clone(), urls.clone(), next.clone());
                tokio::spawn(async move {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let url = urls.get(i)?;
                        if let Err(e) = get(&client, url).await {
                            return Some(format!("{url}: {e}"));
                        }
                    }
                })
            })
            .collect();
        let mut failed = Vec::new();
        for t in tasks {
            match t.await {
                Ok(None) => {}
                Ok(Some(e)) => failed.push(e),
                Err(e) => failed.push(e.to_string()),
            }
        }
        failed
    });
    let elapsed = started.elapsed().as_secs_f64();
    if let Some(e) = failed.first() {
        return Err(EngineError::Internal(format!("ceiling GET failed: {e}")));
    }
    Ok(urls.len() as f64 / elapsed.max(1e-9))
}

/// A plain GET: the body read to its end and dropped.
async fn get(client: &reqwest::Client, url: &str) -> std::result::Result<(), reqwest::Error> {
    let mut r = client
        .get(url)
        .header("Accept-Encoding", "gzip, deflate")
        .send()
        .await?
        .error_for_status()?;
    while r.chunk().await?.is_some() {}
    Ok(())
}
