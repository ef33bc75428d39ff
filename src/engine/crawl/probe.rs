//! The frontier's memory, measured (`tianwang bench frontier`): a scheduler filled with N
//! queued URLs over H hosts and the visited set (URL hash → frontier id), and how much the
//! process grew — the book's URL store kept in memory [L731–735].
//!
//! ```ignore
//! let p = frontier_probe(1_000_000, 1000)?;
//! ```

use std::collections::HashMap;

use serde::Serialize;

use super::frontier::{Entry, Scheduler};
use super::{Strategy, url_hash};
use crate::engine::error::{EngineError, Result};

/// Memory of an in-memory frontier, measured.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FrontierProbe {
    pub urls: usize,
    pub hosts: usize,
    /// Resident memory grown while building the frontier (queues + visited set), in bytes.
    pub rss_growth_bytes: u64,
    pub bytes_per_url: f64,
}

/// Resident set size of this process (Linux; `None` elsewhere).
pub(crate) fn rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Fill a scheduler with `urls` queued URLs over `hosts` hosts (realistic lengths, the visited
/// set too) and measure how much memory it takes.
pub(crate) fn frontier_probe(urls: usize, hosts: usize) -> Result<FrontierProbe> {
    let before = rss_bytes().ok_or_else(|| EngineError::Internal("no /proc/self/statm".into()))?;
    let mut sched = Scheduler::new(Strategy::Weight, (1, 0));
    let mut seen: HashMap<u64, i64> = HashMap::with_capacity(urls);
    for i in 0..urls {
        let host = format!("www.site{}.example.localhost", i % hosts.max(1));
        let url = format!(
            "http://{host}/news/2026-{:02}/{:02}/content_{i}.html",
            1 + i % 12,
            1 + i % 28
        );
        seen.insert(url_hash(&url), i as i64);
        let parsed = url::Url::parse(&url).map_err(|e| EngineError::Internal(e.to_string()))?;
        let (priority, _) = sched.priority(&parsed, 1);
        let seq = sched.seq;
        sched.push(
            &host,
            Entry {
                priority,
                seq,
                id: i as i64,
                url,
                depth: 3,
            },
        );
    }
    let after = rss_bytes().unwrap_or(before);
    let grown = after.saturating_sub(before);
    std::hint::black_box((&sched.hosts, &seen));
    Ok(FrontierProbe {
        urls,
        hosts,
        rss_growth_bytes: grown,
        bytes_per_url: grown as f64 / urls.max(1) as f64,
    })
}
