//! Request streams for the simulator: files (one key per line, CSV with chosen key and size
//! columns as libCacheSim's csv reader takes them, SogouQ query logs read by the query-log
//! lab's streamed reader, so both labs see one stream), generated streams
//! (Zipf α with working-set shifts and scans), and the inverted-file access trace of §8.6.3
//! in its two views (I/O and PAGE, [L3104–L3106]).
//!
//! Keys are interned to dense ids `0..distinct` in order of first appearance (the book's
//! "object IDs remapped to consecutive integers from 0" [L3106]), so policies index arrays
//! instead of hashing.
//!
//! ```
//! use tianwang::engine::cache::trace::{Generator, Trace};
//! let t = Trace::from_keys(["a", "b", "a", "c", "a"].iter().map(|s| s.to_string()));
//! assert_eq!((t.len(), t.distinct), (5, 3));
//! assert_eq!(t.ids().collect::<Vec<_>>(), vec![0, 1, 0, 2, 0]);
//! let zipf: Vec<u32> = Generator::zipf(1000, 0.8, 10, 1).collect();
//! assert_eq!(zipf.len(), 10);
//! ```

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Reason, Result};
use crate::engine::querylog::read::{BadLines, ReadConfig};
use crate::engine::querylog::{self, Normalise};
use crate::engine::rng::Rng;

pub use super::access::{FileAccess, io_view, page_view, read_access_log, read_access_log_from};

/// One request: a dense object id and the object's size in bytes (1 when unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Req {
    pub id: u32,
    pub size: u32,
}

/// A trace in memory.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub reqs: Vec<Req>,
    pub distinct: usize,
    /// The key of each id (for display), when the trace came from keys.
    pub keys: Vec<String>,
    /// Where it came from, for the report.
    pub source: String,
    /// Lines of a query log that were skipped (counted, the first few with their numbers).
    pub bad_lines: BadLines,
}

/// Interns keys to dense ids.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    map: HashMap<String, u32>,
    keys: Vec<String>,
}

impl Interner {
    pub fn id(&mut self, key: &str) -> u32 {
        if let Some(&id) = self.map.get(key) {
            return id;
        }
        let id = self.keys.len() as u32;
        self.map.insert(key.to_string(), id);
        self.keys.push(key.to_string());
        id
    }
    pub(crate) fn into_keys(self) -> Vec<String> {
        self.keys
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.reqs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.reqs.is_empty()
    }
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.reqs.iter().map(|r| r.id)
    }

    /// A trace of unit-size requests from keys.
    pub fn from_keys(keys: impl IntoIterator<Item = String>) -> Trace {
        let mut inter = Interner::default();
        let reqs = keys
            .into_iter()
            .map(|k| Req {
                id: inter.id(&k),
                size: 1,
            })
            .collect();
        let keys = inter.into_keys();
        Trace {
            reqs,
            distinct: keys.len(),
            keys,
            source: "keys".into(),
            bad_lines: BadLines::default(),
        }
    }

    /// The statistics the panel shows beside a trace.
    pub fn stats(&self) -> TraceStats {
        let mut count: Vec<u32> = vec![0; self.distinct];
        let mut bytes = 0u64;
        let mut first_bytes = 0u64;
        for r in &self.reqs {
            let c = &mut count[r.id as usize];
            if *c == 0 {
                first_bytes += r.size as u64;
            }
            *c = c.saturating_add(1);
            bytes += r.size as u64;
        }
        let one_hit = count.iter().filter(|&&c| c == 1).count();
        let n = self.reqs.len().max(1) as f64;
        TraceStats {
            requests: self.reqs.len() as u64,
            distinct: self.distinct as u64,
            one_hit_wonders: one_hit as u64,
            compulsory_miss_ratio: self.distinct as f64 / n,
            bytes_requested: bytes,
            distinct_bytes: first_bytes,
        }
    }
}

/// Requests, distinct objects, one-hit wonders, the compulsory (cold) miss ratio.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TraceStats {
    pub requests: u64,
    pub distinct: u64,
    pub one_hit_wonders: u64,
    /// distinct / requests: the infinite cache's miss ratio (1 − the book's ceiling).
    pub compulsory_miss_ratio: f64,
    pub bytes_requested: u64,
    /// Bytes of the distinct objects (at first sight): the working set.
    pub distinct_bytes: u64,
}

/// For each request, the index of the next request for the same object (`u64::MAX`: none).
pub(crate) fn next_uses(ids: &[u32]) -> Vec<u64> {
    let mut next = vec![u64::MAX; ids.len()];
    let mut last: HashMap<u32, usize> = HashMap::new();
    for (i, &id) in ids.iter().enumerate().rev() {
        if let Some(&j) = last.get(&id) {
            next[i] = j as u64;
        }
        last.insert(id, i);
    }
    next
}

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// One key per line (libCacheSim's plain text trace).
    #[default]
    Lines,
    /// Comma-separated; key and size columns chosen (1-based); a header line is skipped.
    Csv,
    /// SogouQ: `time \t user \t [query] \t rank click \t url`, UTF-8 or GB18030.
    Sogouq,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format> {
        match s {
            "lines" | "txt" | "plain" => Ok(Format::Lines),
            "csv" => Ok(Format::Csv),
            "sogouq" | "sogou" => Ok(Format::Sogouq),
            other => Err(EngineError::invalid(
                "--format",
                format!("unknown format `{other}` (lines, csv, sogouq)"),
            )),
        }
    }
}

/// Options for reading a trace file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReadOptions {
    pub format: Format,
    /// CSV: the key column, 1-based (libCacheSim's `obj-id-col`).
    pub key_column: usize,
    /// CSV: the size column, 1-based; none = unit sizes.
    pub size_column: Option<usize>,
    /// SogouQ: the key is query + result page (page = ⌈rank/10⌉) instead of the query.
    pub key_with_page: bool,
    /// SogouQ: drop page-turn requests (rank > 10).
    pub first_page_only: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: Format::Lines,
            key_column: 1,
            size_column: None,
            key_with_page: false,
            first_page_only: false,
        }
    }
}

/// The longest line a trace or access log may have: a key or record, not a document.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// Read the next line of a trace or access log (`what`, for messages) into `buf`, counting it
/// in `lineno`: `false` at the end; a line longer than [`MAX_LINE_BYTES`] or a read error is
/// refused naming `name:line`.
pub(super) fn next_line(
    reader: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    name: &str,
    lineno: &mut usize,
    what: &str,
) -> Result<bool> {
    let (n, long) =
        crate::engine::text::read_line_capped(reader, buf, MAX_LINE_BYTES).map_err(|e| {
            EngineError::unreadable(
                format!("{name}:{}", *lineno + 1),
                Reason::unreadable_line(e),
            )
        })?;
    if n == 0 {
        return Ok(false);
    }
    *lineno += 1;
    if long {
        return Err(EngineError::unreadable(
            format!("{name}:{lineno}"),
            Reason::line_too_long(MAX_LINE_BYTES, what),
        ));
    }
    Ok(true)
}

/// A line of a trace as text: UTF-8 when it is, else GB18030 — decided per line, so a log
/// with lines in both keeps every key (issue 29: a GB18030 file with UTF-8 lines appended).
fn decode_line(line: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(line) {
        Ok(s) => s.into(),
        Err(_) => encoding_rs::GB18030.decode_without_bom_handling(line).0,
    }
}

/// A file the user named with `flag`: it must exist and be a file (a folder says so).
pub(crate) fn open_input(path: &Path, flag: &str) -> Result<std::fs::File> {
    if path.is_dir() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.path_folder_for", &[&flag]),
        ));
    }
    std::fs::File::open(path).map_err(|e| EngineError::path_flaw(path, Flaw::os_for(&e, flag)))
}

/// Read a trace file, streamed line by line. Bad lines of a lines or CSV trace are errors
/// naming `file:line`; a SogouQ log is read by [`read_sogouq`].
pub fn read_file(path: &Path, opt: &ReadOptions) -> Result<Trace> {
    if opt.format == Format::Sogouq {
        return read_sogouq(path, opt);
    }
    let reader = std::io::BufReader::with_capacity(1 << 16, open_input(path, "--trace")?);
    read_from(&path.display().to_string(), reader, opt)
}

/// A lines or CSV trace from `reader` (`name` stands for its file in messages); a SogouQ
/// log is read from a file only ([`read_sogouq`]).
pub fn read_from(
    name: &str,
    mut reader: impl std::io::BufRead,
    opt: &ReadOptions,
) -> Result<Trace> {
    let csv = match opt.format {
        Format::Sogouq => {
            return Err(EngineError::invalid(
                "--format",
                "a SogouQ trace is read from its file",
            ));
        }
        Format::Lines => false,
        Format::Csv => true,
    };
    let name = name.to_string();
    let mut inter = Interner::default();
    let mut reqs = Vec::new();
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    loop {
        if !next_line(&mut reader, &mut buf, &name, &mut lineno, "a trace")? {
            break;
        }
        if reqs.len() as u64 >= MAX_TRACE_REQUESTS {
            return Err(EngineError::bad_line(
                &name,
                lineno,
                "error.too_many_requests",
                &[&MAX_TRACE_REQUESTS],
            ));
        }
        let mut raw: &[u8] = &buf;
        if lineno == 1 {
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        let text = decode_line(raw);
        let line = text.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        if !csv {
            reqs.push(Req {
                id: inter.id(line.trim()),
                size: 1,
            });
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let col = |c: usize, key: &'static str| {
            fields
                .get(c.wrapping_sub(1))
                .copied()
                .ok_or_else(|| EngineError::bad_line(&name, lineno, key, &[&c, &fields.len()]))
        };
        let key = col(opt.key_column, "error.no_key_column")?;
        let size = match opt.size_column {
            None => 1,
            Some(c) => {
                let raw = col(c, "error.no_size_column")?;
                match raw.parse::<u64>() {
                    Ok(v) if v <= u64::from(u32::MAX) => (v as u32).max(1),
                    Ok(v) => {
                        return Err(EngineError::bad_line(
                            &name,
                            lineno,
                            "error.size_too_large",
                            &[&v],
                        ));
                    }
                    Err(_) if reqs.is_empty() && lineno == 1 => continue, // header
                    Err(_) => {
                        return Err(EngineError::bad_line(
                            &name,
                            lineno,
                            "error.size_not_number",
                            &[&c, &raw],
                        ));
                    }
                }
            }
        };
        if lineno == 1 && opt.size_column.is_none() && looks_like_header(&fields) {
            continue;
        }
        reqs.push(Req {
            id: inter.id(key),
            size,
        });
    }
    let keys = inter.into_keys();
    Ok(Trace {
        reqs,
        distinct: keys.len(),
        keys,
        source: name,
        bad_lines: BadLines::default(),
    })
}

/// A SogouQ log through the query-log lab's reader ([`querylog::read`]): streamed line by
/// line, the same encoding detection (UTF-8, GB18030 …), bad lines skipped and kept in
/// [`Trace::bad_lines`] by line number, each query normalised as that lab counts it
/// ([`Normalise::default`]). A log therefore gives both labs the same request stream.
pub(crate) fn read_sogouq(path: &Path, opt: &ReadOptions) -> Result<Trace> {
    let cfg = ReadConfig::new(querylog::Format::Sogouq);
    let norm = Normalise::default();
    let mut inter = Interner::default();
    let mut reqs = Vec::new();
    let summary = querylog::read::read_file(path, &cfg, &(), &mut |r| {
        let page = r.result_page().unwrap_or(1);
        if opt.first_page_only && page > 1 {
            return Ok(());
        }
        let q = norm.apply(r.query);
        let id = if opt.key_with_page {
            inter.id(&page_key(&q, page))
        } else {
            inter.id(&q)
        };
        reqs.push(Req { id, size: 1 });
        Ok(())
    })?;
    let keys = inter.into_keys();
    Ok(Trace {
        reqs,
        distinct: keys.len(),
        keys,
        source: path.display().to_string(),
        bad_lines: summary.bad,
    })
}

/// The object key of a (normalised) query on result page `page`, for `--key-with-page`.
pub(crate) fn page_key(query: &str, page: u32) -> String {
    format!("{query}\u{1f}{page}")
}

fn looks_like_header(fields: &[&str]) -> bool {
    fields
        .iter()
        .all(|f| !f.is_empty() && f.parse::<f64>().is_err())
}

/// The most objects a generated stream draws from (its CDF takes 12 bytes an object).
pub(crate) const MAX_OBJECTS: u32 = 50_000_000;
/// The most requests a generated stream runs (the benchmark streams them).
pub(crate) const MAX_GENERATED: u64 = 10_000_000_000;
/// The most requests a trace held in memory takes (8 bytes each): a file, a view of an
/// access log, a generated stream loaded for the simulator.
pub(crate) const MAX_TRACE_REQUESTS: u64 = 200_000_000;
/// The range of `ch9:scale=` (1 = the book's log).
pub(crate) const CH9_SCALE: (f64, f64) = (1e-3, 100.0);

/// A generated stream: Zipf(α) over `objects` ids, optionally shifting the working set
/// (ids offset by `objects` every `shift_every` requests), inserting scans of `scan_len`
/// never-seen ids every `scan_every` requests, and mixing in a uniform tail: with
/// probability `tail_fraction` a request goes to one of `tail_objects` other ids (the
/// rarely repeated queries of a real log).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GenSpec {
    pub objects: u32,
    pub alpha: f64,
    pub requests: u64,
    pub seed: u64,
    pub shift_every: Option<u64>,
    pub scan_every: Option<u64>,
    pub scan_len: u32,
    #[serde(default)]
    pub tail_fraction: f64,
    #[serde(default)]
    pub tail_objects: u32,
}

impl Default for GenSpec {
    fn default() -> Self {
        GenSpec {
            objects: 100_000,
            alpha: 0.8,
            requests: 1_000_000,
            seed: 1,
            shift_every: None,
            scan_every: None,
            scan_len: 0,
            tail_fraction: 0.0,
            tail_objects: 0,
        }
    }
}

impl GenSpec {
    pub(crate) fn validate(&self) -> Result<()> {
        if self.objects == 0 || self.objects > MAX_OBJECTS {
            return Err(EngineError::invalid(
                "objects",
                format!("{}: give 1 to {MAX_OBJECTS}", self.objects),
            ));
        }
        if self.tail_objects > MAX_OBJECTS {
            return Err(EngineError::invalid(
                "tail_objects",
                format!("{}: give at most {MAX_OBJECTS}", self.tail_objects),
            ));
        }
        if self.requests > MAX_GENERATED {
            return Err(EngineError::invalid(
                "requests",
                format!("{}: give at most {MAX_GENERATED}", self.requests),
            ));
        }
        if !(self.alpha >= 0.0 && self.alpha.is_finite()) {
            return Err(EngineError::invalid("alpha", "must be ≥ 0"));
        }
        if !(0.0..1.0).contains(&self.tail_fraction)
            || (self.tail_fraction > 0.0 && self.tail_objects == 0)
        {
            return Err(EngineError::invalid(
                "tail",
                "tail_fraction in [0, 1) with tail_objects ≥ 1",
            ));
        }
        if self.shift_every == Some(0) || self.scan_every == Some(0) {
            return Err(EngineError::invalid("shift/scan", "period must be ≥ 1"));
        }
        Ok(())
    }

    /// A stream shaped like ch. 9's 1999 query log [L3240]: at `scale` = 1, n = 9.6×10⁵
    /// requests over m ≈ 1.6×10⁵ distinct queries (ceiling 1 − m/n = 0.833 [L3247]). A Zipf
    /// head (α = 1.5 over 10⁶ ids) carries 76.5 % of the requests, a uniform tail over
    /// 2.55×10⁵ ids the rest; fitted here so that LRU reproduces Table 9-2's LRU row within
    /// about ±0.01 (the book's log itself is not available).
    pub(crate) fn chapter9(scale: f64, seed: u64) -> GenSpec {
        // (The CLI refuses a scale outside CH9_SCALE; this only keeps a caller's in range.)
        let scale = if scale.is_finite() {
            scale.clamp(CH9_SCALE.0, CH9_SCALE.1)
        } else {
            1.0
        };
        GenSpec {
            objects: ((1_000_000.0 * scale) as u32).max(10),
            alpha: 1.5,
            requests: ((960_000.0 * scale) as u64).max(10),
            seed,
            shift_every: None,
            scan_every: None,
            scan_len: 0,
            tail_fraction: 0.235,
            tail_objects: ((255_000.0 * scale) as u32).max(1),
        }
    }
}

/// Iterator over a generated stream (no trace in memory: the 100M-request benchmark).
#[derive(Debug, Clone)]
pub struct Generator {
    cdf: std::sync::Arc<Vec<f64>>,
    /// guide[j] = the first rank whose CDF reaches j / guide.len(): an O(1) start for the
    /// inverse-CDF search (Chen & Asau's guide table).
    guide: std::sync::Arc<Vec<u32>>,
    rng: Rng,
    spec: GenSpec,
    i: u64,
    scan_left: u32,
    next_scan_id: u32,
}

impl Generator {
    pub fn new(spec: GenSpec) -> Generator {
        let n = spec.objects.max(1) as usize;
        let mut cdf = Vec::with_capacity(n);
        let mut acc = 0.0;
        for k in 1..=n {
            acc += (k as f64).powf(-spec.alpha);
            cdf.push(acc);
        }
        for c in &mut cdf {
            *c /= acc;
        }
        let g = n;
        let mut guide = Vec::with_capacity(g);
        let mut k = 0usize;
        for j in 0..g {
            let u = j as f64 / g as f64;
            while k + 1 < n && cdf[k] < u {
                k += 1;
            }
            guide.push(k as u32);
        }
        Generator {
            cdf: std::sync::Arc::new(cdf),
            guide: std::sync::Arc::new(guide),
            rng: Rng::new(spec.seed),
            i: 0,
            scan_left: 0,
            next_scan_id: u32::MAX / 2,
            spec,
        }
    }

    /// Plain Zipf(α) over `objects` ids, `requests` long.
    pub fn zipf(objects: u32, alpha: f64, requests: u64, seed: u64) -> Generator {
        Generator::new(GenSpec {
            objects,
            alpha,
            requests,
            seed,
            ..GenSpec::default()
        })
    }

    fn draw(&mut self) -> u32 {
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let g = self.guide.len();
        let mut k = self.guide[((u * g as f64) as usize).min(g - 1)] as usize;
        let last = self.cdf.len() - 1;
        while k < last && self.cdf[k] < u {
            k += 1;
        }
        k as u32
    }

    /// Dense ids: a generated trace interned (scan ids and shifted ids renumbered).
    pub fn into_trace(self) -> Trace {
        let spec = self.spec.clone();
        let mut remap: HashMap<u32, u32> = HashMap::new();
        let reqs: Vec<Req> = self
            .map(|raw| {
                let n = remap.len() as u32;
                Req {
                    id: *remap.entry(raw).or_insert(n),
                    size: 1,
                }
            })
            .collect();
        Trace {
            distinct: remap.len(),
            reqs,
            keys: Vec::new(),
            source: format!(
                "zipf α={} objects={} requests={} seed={}",
                spec.alpha, spec.objects, spec.requests, spec.seed
            ),
            ..Trace::default()
        }
    }
}

impl Iterator for Generator {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.i >= self.spec.requests {
            return None;
        }
        self.i += 1;
        if self.scan_left > 0 {
            self.scan_left -= 1;
            self.next_scan_id = self.next_scan_id.wrapping_add(1);
            return Some(self.next_scan_id);
        }
        if let Some(every) = self.spec.scan_every
            && self.i.is_multiple_of(every)
            && self.spec.scan_len > 0
        {
            self.scan_left = self.spec.scan_len - 1;
            self.next_scan_id = self.next_scan_id.wrapping_add(1);
            return Some(self.next_scan_id);
        }
        if self.spec.tail_fraction > 0.0 {
            let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if u < self.spec.tail_fraction {
                let k = self.rng.below(self.spec.tail_objects as usize) as u32;
                return Some(self.spec.objects.wrapping_add(k).wrapping_add(1 << 30));
            }
        }
        let base = self.draw();
        let epoch = self.spec.shift_every.map(|s| (self.i - 1) / s).unwrap_or(0);
        Some(base.wrapping_add((epoch as u32).wrapping_mul(self.spec.objects)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.spec.requests - self.i) as usize;
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_uses_point_forward() {
        assert_eq!(
            next_uses(&[1, 2, 1, 1, 3]),
            vec![2, u64::MAX, 3, u64::MAX, u64::MAX]
        );
    }

    #[test]
    fn zipf_is_skewed_and_seeded() {
        let a: Vec<u32> = Generator::zipf(1000, 1.0, 20_000, 3).collect();
        let b: Vec<u32> = Generator::zipf(1000, 1.0, 20_000, 3).collect();
        assert_eq!(a, b);
        let zeros = a.iter().filter(|&&x| x == 0).count() as f64 / 20_000.0;
        // P(rank 1) = 1/H(1000) ≈ 0.1336
        assert!((zeros - 0.1336).abs() < 0.01, "{zeros}");
    }

    #[test]
    fn shifts_and_scans_bring_new_objects() {
        let spec = GenSpec {
            objects: 50,
            alpha: 0.5,
            requests: 10_000,
            seed: 1,
            shift_every: Some(5_000),
            scan_every: Some(1_000),
            scan_len: 100,
            ..GenSpec::default()
        };
        let t = Generator::new(spec).into_trace();
        assert_eq!(t.len(), 10_000);
        assert!(t.distinct > 100 + 900, "{}", t.distinct);
    }

    /// SogouQ through the query-log reader: the bracketed query (normalised), the page of
    /// the rank, GB18030, and a bad line skipped by number; the stream equals that lab's.
    #[test]
    fn sogouq_is_the_querylog_labs_stream() {
        use crate::engine::querylog::stats::{Collector, StatsConfig};
        let text = "00:00:01\t123\t[天网 搜索]\t12 3\twww.pku.edu.cn/\n\
                    00:00:02\t124\t[北大]\t1 1\ta.cn/\n\
                    not a log line\n\
                    00:00:03\t125\t[ＱＱ ]\t2 1\tb.cn/\n\
                    00:00:04\t123\t[天网 搜索]\t1 1\tc.cn/\n\
                    00:00:05\t126\t[qq]\t1 1\td.cn/\n";
        let (gb, _, _) = encoding_rs::GB18030.encode(text);
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.log");
        std::fs::write(&path, &gb).expect("write");
        let opt = |key_with_page, first_page_only| ReadOptions {
            format: Format::Sogouq,
            key_with_page,
            first_page_only,
            ..ReadOptions::default()
        };
        let t = read_file(&path, &opt(false, false)).expect("read");
        assert_eq!(t.keys, vec!["天网 搜索", "北大", "qq"]);
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![0, 1, 2, 0, 2]);
        assert_eq!(t.bad_lines.count, 1);
        assert_eq!(t.bad_lines.first[0].line, 3);
        let mut c = Collector::new(StatsConfig::default());
        let cfg = ReadConfig::new(querylog::Format::Sogouq);
        querylog::read::read_file(&path, &cfg, &(), &mut |r| c.push(r)).expect("querylog");
        assert_eq!(c.stream_ids(false), t.ids().collect::<Vec<_>>());
        let p = read_file(&path, &opt(true, false)).expect("with page");
        assert_eq!(p.keys[0], page_key("天网 搜索", 2));
        assert_eq!(c.stream_ids(true), p.ids().collect::<Vec<_>>());
        let first = read_file(&path, &opt(false, true)).expect("first page");
        assert_eq!(first.len(), 4);
    }
}
