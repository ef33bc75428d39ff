//! The memory budget of the native statistics (issue 30): before a log is read, its lines are
//! estimated from the file size and the head's mean line length, the peak from the measured
//! bytes a line, and a log that would not fit the memory limit is refused — naming
//! `--memory-limit` and the out-of-core `--engine datafusion` — instead of being read until the
//! machine swaps (book ch. 9's logs [L3247] are small; SogouQ-sized ones are not).
//!
//! ```
//! use tianwang::engine::querylog::budget::{check, peak_bytes};
//! // 10 M lines need about 480 MB: fine under a 4 GB limit, refused under 100 MB.
//! assert!(peak_bytes(10_000_000) < 500 << 20);
//! assert!(check(10_000_000, Some(4096), "log").is_ok());
//! let e = check(10_000_000, Some(100), "log").unwrap_err().to_string();
//! assert!(e.contains("--memory-limit") && e.contains("--engine datafusion"), "{e}");
//! ```

use std::io::Read;
use std::path::Path;

use crate::engine::error::{EngineError, Result};

/// Peak bytes a line of a log adds, measured (`bench querylog`, generated SogouQ logs: 1 M
/// lines 114 MB, 10 M lines 477 MB — 40 bytes a line over the first million).
pub const PEAK_BYTES_PER_LINE: u64 = 40;
/// What the process holds before the first line (code, jieba's dictionary, buffers).
pub const BASE_BYTES: u64 = 96 << 20;

/// The estimated peak of the native statistics of a log of `lines` lines, bytes.
pub fn peak_bytes(lines: u64) -> u64 {
    BASE_BYTES.saturating_add(lines.saturating_mul(PEAK_BYTES_PER_LINE))
}

/// Lines of the file at `path`, estimated from its size and the mean line of its first MB
/// (exact for a file that short).
pub fn estimate_lines(path: &Path) -> Result<u64> {
    let bad = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    super::read::refuse_folder(path)?;
    let size = std::fs::metadata(path).map_err(bad)?.len();
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut head))
        .map_err(bad)?;
    Ok(lines_of(size, &head))
}

/// Lines in a file of `size` bytes whose first bytes are `head`.
fn lines_of(size: u64, head: &[u8]) -> u64 {
    let n = head.iter().filter(|&&b| b == b'\n').count() as u64;
    if head.len() as u64 >= size {
        return n + u64::from(head.last().is_some_and(|&b| b != b'\n'));
    }
    // Lines a byte in the head, at least one line a head's length.
    (size as f64 * n.max(1) as f64 / head.len().max(1) as f64).ceil() as u64
}

/// The memory available to this process, bytes (Linux: `MemAvailable`; None elsewhere).
pub fn available_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuses a log of `lines` lines (`what` names it) whose estimated peak exceeds `limit_mb`,
/// or, without a limit, the memory available now. Ok with no limit on a system that does not
/// say what is available.
pub fn check(lines: u64, limit_mb: Option<u64>, what: &str) -> Result<()> {
    let (limit, whose) = match limit_mb {
        Some(mb) => (mb.saturating_mul(1 << 20), "the limit"),
        None => match available_bytes() {
            Some(b) => (b, "the memory available"),
            None => return Ok(()),
        },
    };
    let need = peak_bytes(lines);
    if need <= limit {
        return Ok(());
    }
    Err(EngineError::invalid(
        "--memory-limit",
        format!(
            "{what} has about {lines} lines; the native statistics need about {} MB, more than \
             {whose} ({} MB): run them out of core with --engine datafusion, or raise \
             --memory-limit (MB) if the memory is there",
            need >> 20,
            limit >> 20
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_estimated_from_the_head() {
        assert_eq!(lines_of(12, b"ab\ncd\nef\ngh"), 4);
        assert_eq!(lines_of(9, b"ab\ncd\nef\n"), 3);
        assert_eq!(lines_of(0, b""), 0);
        // A 1,000-byte file whose first 100 bytes hold 10 lines: about 100 lines.
        let head = "123456789\n".repeat(10);
        assert_eq!(lines_of(1000, head.as_bytes()), 100);
        // A head without a newline: one line a head's length.
        assert_eq!(lines_of(1000, &[b'x'; 100]), 10);
    }

    #[test]
    fn a_log_over_the_limit_is_refused_naming_the_flag_and_the_engine() {
        let lines = 100_000_000;
        let need_mb = peak_bytes(lines) >> 20;
        assert!(need_mb <= 4096, "100 M lines must fit 4 GB: {need_mb} MB");
        assert!(check(lines, Some(4096), "big.log").is_ok());
        let e = check(lines, Some(need_mb / 2), "big.log").unwrap_err();
        assert!(matches!(e, EngineError::InvalidParam { .. }), "{e:?}");
        let m = e.to_string();
        for want in [
            "--memory-limit",
            "--engine datafusion",
            "big.log",
            "100000000",
        ] {
            assert!(m.contains(want), "{want} missing: {m}");
        }
        // Small logs always pass where memory is known.
        assert!(check(1000, None, "small.log").is_ok());
    }
}
