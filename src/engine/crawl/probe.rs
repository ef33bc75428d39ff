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

/// CPU time this process has used so far, user and system, all threads, in seconds (Linux's
/// `/proc/self/stat`, in its clock ticks of 1/100 s; `None` elsewhere). The crawl benchmark
/// reads it around the crawl and around the ceiling, so their CPU per page can be compared.
pub(crate) fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    cpu_seconds_of(&s)
}

/// utime + stime of a `/proc/PID/stat` line: fields 14 and 15, counted after the command
/// name's closing parenthesis (the name itself may hold spaces and parentheses).
fn cpu_seconds_of(stat: &str) -> Option<f64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
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

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        let line = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0";
        assert_eq!(super::cpu_seconds_of(line), Some(3.25));
        assert_eq!(super::cpu_seconds_of("4242 (x) S 1"), None);
        // This process has used some CPU by now, and the count only grows.
        let a = super::cpu_seconds().unwrap_or(-1.0);
        let spin: u64 = (0..20_000_000u64).fold(0, |x, i| x ^ i.wrapping_mul(31));
        let b = super::cpu_seconds().unwrap_or(-1.0);
        assert!(a >= 0.0 && b >= a, "{a} {b} {spin}");
    }
}
