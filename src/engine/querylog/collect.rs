//! Reading a log file into a [`Collector`] on every core: a large file (not `strict`) is cut
//! into parts at line starts, each part read by its own thread into its own collector, and
//! the collectors merged in file order — ids stay in order of first appearance, line numbers
//! of bad lines are made absolute, so the result equals a one-thread read exactly.

use std::path::Path;

use super::read::{self, BadLines, ReadConfig, ReadSummary};
use super::stats::{Collector, NONE, StatsConfig};
use super::tally::intern_hash;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

/// Files smaller than this are read by one thread.
pub(crate) const PARALLEL_MIN_BYTES: u64 = 32 << 20;

/// Reads `path` into a collector (see the module doc).
pub(crate) fn collect_file(
    path: &Path,
    rcfg: &ReadConfig,
    scfg: &StatsConfig,
    tick: &dyn Tick,
) -> Result<(ReadSummary, Collector)> {
    let parts = rayon::current_num_threads().clamp(1, 8) as u64;
    collect_parts(path, rcfg, scfg, tick, PARALLEL_MIN_BYTES, parts)
}

/// [`collect_file`] with the size threshold and the number of parts given.
pub(crate) fn collect_parts(
    path: &Path,
    rcfg: &ReadConfig,
    scfg: &StatsConfig,
    tick: &dyn Tick,
    min_bytes: u64,
    parts: u64,
) -> Result<(ReadSummary, Collector)> {
    let size = std::fs::metadata(path)
        .map_err(|e| EngineError::path_os(path.to_path_buf(), e))?
        .len();
    if rcfg.strict || size < min_bytes || parts < 2 {
        let mut c = Collector::new(scfg.clone());
        let s = read::read_file(path, rcfg, tick, &mut |r| c.push(r))?;
        return Ok((s, c));
    }
    // The encoding from the head, once for every part.
    let head = {
        use std::io::Read;
        let mut h = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(crate::engine::text::encoding::GUESS_BYTES as u64)
                    .read_to_end(&mut h)
            })
            .map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
        h
    };
    rcfg.validate()?;
    let (enc, note) = read::detect(&head, rcfg.encoding.as_deref())?;
    let label = enc.name().to_ascii_lowercase();
    let bounds = split_points(path, size, parts)?;
    let results: Vec<Result<(ReadSummary, Collector)>> = std::thread::scope(|sc| {
        let handles: Vec<_> = bounds
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let (start, end) = (w[0], w[1]);
                let label = label.clone();
                sc.spawn(move || {
                    let mut c = Collector::new(scfg.clone());
                    let quiet = ();
                    let t: &dyn Tick = if i == 0 { &First(tick) } else { &quiet };
                    let s = read::read_part(path, rcfg, &label, start, end - start, t, &mut |r| {
                        c.push(r)
                    })?;
                    Ok((s, c))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(EngineError::Internal("a reader thread panicked".into()))
                })
            })
            .collect()
    });
    let mut total = ReadSummary {
        encoding: label,
        encoding_note: note,
        ..ReadSummary::default()
    };
    let mut merged: Option<Collector> = None;
    for r in results {
        let (s, c) = r?;
        for b in s.bad.first {
            if total.bad.first.len() < rcfg.max_listed {
                total.bad.first.push(read::BadLine {
                    line: b.line + total.lines,
                    reason: b.reason,
                });
            }
        }
        total.bad = BadLines {
            count: total.bad.count + s.bad.count,
            first: std::mem::take(&mut total.bad.first),
        };
        total.lines += s.lines;
        total.utf8_lines += s.utf8_lines;
        total.records += s.records;
        total.bytes += s.bytes;
        merged = Some(match merged {
            None => c,
            Some(mut m) => {
                merge(&mut m, c);
                m
            }
        });
    }
    read::check_whole(&path.display().to_string(), &total, rcfg)?;
    tick.tick(1.0, &format!("{} lines", total.lines))?;
    let c = merged.ok_or_else(|| EngineError::Internal("no part was read".into()))?;
    Ok((total, c))
}

/// The first part's progress stands for the whole read.
struct First<'a>(&'a dyn Tick);

impl Tick for First<'_> {
    fn tick(&self, fraction: f32, message: &str) -> Result<()> {
        self.0.tick(fraction.min(0.999), message)
    }
}

/// Byte offsets 0 = b0 < b1 < … < bn = size, each bi (0 < i < n) just after a newline.
fn split_points(path: &Path, size: u64, parts: u64) -> Result<Vec<u64>> {
    use std::io::{BufRead, BufReader, Seek, SeekFrom};
    let bad = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    let mut out = vec![0u64];
    let mut f = BufReader::new(std::fs::File::open(path).map_err(bad)?);
    for i in 1..parts {
        let target = size * i / parts;
        if target <= *out.last().unwrap_or(&0) {
            continue;
        }
        f.seek(SeekFrom::Start(target)).map_err(bad)?;
        let mut skip = Vec::new();
        let n = f.read_until(b'\n', &mut skip).map_err(bad)?;
        let b = target + n as u64;
        if b < size && b > *out.last().unwrap_or(&0) {
            out.push(b);
        }
    }
    out.push(size);
    Ok(out)
}

/// Appends `b` (read after `a` in the file) to `a`, remapping its ids. Each of `b`'s columns
/// is freed as soon as it is appended, so the merge never holds two copies of the log.
pub(crate) fn merge(a: &mut Collector, b: Collector) {
    let Collector {
        queries,
        umap,
        user_hashes,
        q,
        u,
        url,
        page,
        by_rank,
        sessions,
        hours,
        timed,
        dated,
        filtered_out,
        page_field,
        ..
    } = b;
    drop(umap);
    let mut qmap: Vec<u32> = Vec::with_capacity(queries.len());
    queries.drain(|q| qmap.push(a.queries.id(q)));
    let umap: Vec<u32> = user_hashes
        .iter()
        .map(|&h| intern_hash(&mut a.umap, &mut a.user_hashes, h))
        .collect();
    drop(user_hashes);
    let re = |map: &[u32], v: u32| if v == NONE { NONE } else { map[v as usize] };
    a.q.extend(q.iter().map(|&v| qmap[v as usize]));
    drop((q, qmap));
    a.u.extend(u.iter().map(|&v| re(&umap, v)));
    drop(u);
    a.url.extend_from_slice(&url);
    drop(url);
    a.page.append(page);
    a.by_rank.merge(by_rank);
    a.sessions.merge(sessions, &umap, a.cfg.session_gap_s);
    for (x, y) in a.hours.iter_mut().zip(hours) {
        *x += y;
    }
    a.timed |= timed;
    a.dated |= dated;
    a.page_field |= page_field;
    a.filtered_out += filtered_out;
}
