//! The crawl's ceiling: the same server, the same number of connections and the crawler's own
//! HTTP client, but plain GETs with nothing parsed or stored — how fast pages can come over the
//! wire at all, so a crawl's pages/s reads as a share of what the fetching allows (the book's
//! capacity model puts one node near its network's bound [L1138–1154]).
//!
//! ```ignore
//! let pages_per_s = ceiling(&urls, 32)?;
//! ```

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::CrawlParams;
use super::fetch::{self, FetchLimits};
use crate::engine::error::{EngineError, Result};

/// GET every URL once over `connections` threads (each its own request at a time) and return
/// the pages per second; a failed GET is an error (the ceiling must fetch what the crawl does).
pub(crate) fn ceiling(urls: &[String], connections: usize) -> Result<f64> {
    let p = CrawlParams::default();
    let limits = FetchLimits {
        connect_timeout: Duration::from_millis(p.connect_timeout_ms),
        timeout: Duration::from_millis(p.timeout_ms),
        max_redirects: p.max_redirects,
        max_bytes: p.max_bytes,
        user_agent: p.user_agent,
    };
    let resolver = std::sync::Arc::new(fetch::Resolver::default());
    let client = fetch::client(&limits, resolver).map_err(EngineError::Internal)?;
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let failed: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..connections.max(1))
            .map(|_| {
                s.spawn(|| -> Option<String> {
                    let mut buf = Vec::with_capacity(64 * 1024);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let url = urls.get(i)?;
                        buf.clear();
                        let got = client
                            .get(url)
                            .header("Accept-Encoding", "gzip, deflate")
                            .send()
                            .and_then(|r| r.error_for_status())
                            .map_err(|e| e.to_string())
                            .and_then(|mut r| r.read_to_end(&mut buf).map_err(|e| e.to_string()));
                        if let Err(e) = got {
                            return Some(format!("{url}: {e}"));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| w.join().ok().flatten())
            .collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    if let Some(e) = failed.first() {
        return Err(EngineError::Internal(format!("ceiling GET failed: {e}")));
    }
    Ok(urls.len() as f64 / elapsed.max(1e-9))
}
