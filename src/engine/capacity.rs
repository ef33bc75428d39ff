//! Crawl capacity and distributed-crawl simulation: how many pages can a crawler fetch, and how
//! does the work split across nodes?
//!
//! **Capacity calculator** (ch. 3 §4.9, [L1134–1154]). [`capacity`] takes the book's inputs
//! ([`CapacityInputs`]: 13 KB pages [L1138], a 100 Mbit/s link, MTU 1500 B, < 50 % utilisation
//! [L1140–1142], RTT 200 ms, SPT 100 ms, 100 gatherers per node [L1154]). It returns every
//! intermediate [`Figure`] with its formula, the number the book prints and the line it is on:
//! 8,333 frames/s, < 4,000 pages/s, < 4,000/n gatherers per node, T_txn = 500 ms, T_page ≈ 4 s
//! and 2,160,000 pages/day/node. The book's ambiguities are switches: `frame_equals_page`
//! (the book equates one frame with one page [L1140]; a 13 KB page is really 8.87 frames),
//! `kb_bytes` (KB = 1024 or 1000 B), and `round_like_book` (the book rounds 8,333 × 50 % down to
//! 4,000 and 4.4 s to 4 s).
//!
//! **Distributed-crawl simulator** (ch. 6 Part A, [L1975–2126]). It works on a crawl's own log,
//! one `(seconds since start, host)` entry per fetch, and follows the book's trace-driven method
//! [L2051]:
//! * [`assign_mod`] maps each host to a node by `hash(host) mod n` [L1991], [L2003]. The book
//!   names no string hash. This module uses [`host_hash`]: FNV-1a 64 over the trimmed,
//!   ASCII-lower-cased host, then the MurmurHash3 finaliser. It gives the same result on every
//!   run and every platform.
//! * [`load_over_time`] gives the fetches per node in each time bucket, and [`load_study`] runs
//!   it for the book's n = 2, 4, 8, 16 [L2051–2073].
//! * [`moved_on_add`] counts the hosts, and the fetches, that change node when a node joins. It
//!   compares plain rehashing (scheme 1, [L2107–2111]) with the two-level logical mapping
//!   ([`PartitionTable`], scheme 3 / Fig 6-8, [L2120–2124]).
//!
//! ```
//! use tianwang::engine::capacity::{
//!     assign_mod, capacity, load_over_time, moved_on_add, CapacityInputs, Mapping,
//! };
//! let report = capacity(&CapacityInputs::default())?;
//! assert_eq!(report.value("pages_per_day_node"), Some(2_160_000.0));
//!
//! let log: Vec<(f64, String)> = (0..1000)
//!     .map(|i| (i as f64, format!("site{}.example.cn", i % 50)))
//!     .collect();
//! let hosts: Vec<&str> = log.iter().map(|(_, h)| h.as_str()).collect();
//! let nodes = assign_mod(&hosts, 4)?;
//! let load = load_over_time(&log, &nodes, 4, 3600.0)?;
//! assert_eq!(load.totals.iter().sum::<u64>(), 1000);
//! let moved = moved_on_add(&log, 4, Mapping::two_level())?;
//! assert!(moved.fraction < 0.5);
//! # Ok::<(), String>(())
//! ```

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

/// The number of bytes in the book's "KB". The book does not say which one it means
/// ([L1154], ⚠ (b)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum KbUnit {
    /// 1 KB = 1024 B (the workbench default, as in `calibrate::PAGE_BYTES`).
    #[default]
    Kib1024,
    /// 1 KB = 1000 B.
    Kb1000,
}

impl KbUnit {
    pub fn bytes(self) -> f64 {
        match self {
            KbUnit::Kib1024 => 1024.0,
            KbUnit::Kb1000 => 1000.0,
        }
    }
}

/// Inputs to the §4.9 capacity model. `Default` gives the book's values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapacityInputs {
    /// Average page size in KB. The book uses 13 KB, plain-text pages, January 2002 [L1138].
    pub page_kb: f64,
    pub kb_bytes: KbUnit,
    /// Link rate in Mbit/s (10^6 bit/s) [L1140].
    pub link_mbps: f64,
    /// Usable share of the link, in (0, 1]. The book uses 0.5 [L1142].
    pub utilisation: f64,
    /// Frame payload in bytes: 1500 [L1140], [L1154].
    pub mtu_bytes: f64,
    /// Round-trip time: 200 ms [L1154].
    pub rtt_ms: f64,
    /// Server processing time: 100 ms [L1154].
    pub spt_ms: f64,
    /// Gatherers (concurrent fetchers) per node: 100 [L1154].
    pub gatherers: f64,
    /// Crawler nodes n [L1144–1146].
    pub nodes: f64,
    /// `true` = the book's simplification "one frame = one page" [L1140]. `false` = a page takes
    /// page_bytes / mtu_bytes frames.
    pub frame_equals_page: bool,
    /// `true` = round the way the book does: 8,333.3 → 8,333; 4,166.7 → "< 4,000" (down to one
    /// significant figure); 4.44 s → 4 s (nearest second).
    pub round_like_book: bool,
}

impl Default for CapacityInputs {
    fn default() -> Self {
        CapacityInputs {
            page_kb: 13.0,
            kb_bytes: KbUnit::Kib1024,
            link_mbps: 100.0,
            utilisation: 0.5,
            mtu_bytes: 1500.0,
            rtt_ms: 200.0,
            spt_ms: 100.0,
            gatherers: 100.0,
            nodes: 1.0,
            frame_equals_page: true,
            round_like_book: true,
        }
    }
}

impl CapacityInputs {
    /// The numeric inputs by name (the names the formulas use).
    fn named(&self) -> [(&'static str, f64); 8] {
        [
            ("page_kb", self.page_kb),
            ("link_mbps", self.link_mbps),
            ("utilisation", self.utilisation),
            ("mtu_bytes", self.mtu_bytes),
            ("rtt_ms", self.rtt_ms),
            ("spt_ms", self.spt_ms),
            ("gatherers", self.gatherers),
            ("nodes", self.nodes),
        ]
    }

    /// Every number must be finite and positive, and `utilisation` may be at most 1.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in self.named() {
            if !v.is_finite() || v <= 0.0 {
                return Err(format!("{name} must be a positive number (got {v})"));
            }
        }
        if self.utilisation > 1.0 {
            return Err(format!(
                "utilisation is a share of the link and must be at most 1 (got {}); 0.5 means 50 %",
                self.utilisation
            ));
        }
        Ok(())
    }
}

/// One figure of the model, with enough context to explain it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Stable machine key, e.g. `"t_page_s"`.
    pub key: &'static str,
    pub label_en: String,
    /// The formula, with the inputs filled in.
    pub formula: String,
    pub value: f64,
    pub unit: &'static str,
    /// The number the book prints for this figure, for the book's own inputs. The book leaves n
    /// symbolic in "< 4000/n", so that one is evaluated at the given n. Compare it with `value`.
    pub book_value: Option<f64>,
    /// Where the book gives it, e.g. `"[L1140]"`.
    pub line: &'static str,
}

/// The result of [`capacity`]: the inputs echoed, the figures in reading order, and notes on
/// the ambiguities that apply to these inputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapacityReport {
    pub inputs: CapacityInputs,
    pub figures: Vec<Figure>,
    pub notes: Vec<String>,
}

impl CapacityReport {
    pub fn figure(&self, key: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.key == key)
    }

    pub fn value(&self, key: &str) -> Option<f64> {
        self.figure(key).map(|f| f.value)
    }
}

/// Applies `op` (floor or round) at the first significant figure: (4166.7, floor) → 4000.
fn one_significant(x: f64, op: fn(f64) -> f64) -> f64 {
    let scale = 10f64.powf(x.log10().floor());
    op(x / scale) * scale
}

/// Round down to one significant figure: 4166.7 → 4000 (the book's "< 4000").
fn floor_one_significant(x: f64) -> f64 {
    one_significant(x, f64::floor)
}

/// Whole seconds (4.44 → 4), or one significant figure below one second.
fn round_seconds(x: f64) -> f64 {
    if x >= 1.0 {
        x.round()
    } else {
        one_significant(x, f64::round)
    }
}

/// Short number formatting for formulas: up to 4 decimals, trailing zeros removed.
fn num(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The figures in reading order, one row each:
/// `key | unit | line | book value ("-" = none, "/n" = divided by nodes) | rounding done when
/// round_like_book | label | formula`. Formula names are inputs (`KB` = bytes per KB) or
/// earlier keys; [`fill`] puts in their values.
const FIGURES: [&str; 12] = [
    "page_bytes | B | [L1138] | - |  | Average page size | page_kb × KB",
    "frames_per_s_full | frames/s | [L1140] | 8333 | rounded to whole frames | \
     Frames per second at the full link rate | link_mbps × 10^6 / (mtu_bytes × 8)",
    "page_over_mtu | frames | [L1154] | - |  | Page size in MTU-sized frames | \
     page_bytes / mtu_bytes",
    "frames_per_page | frames | [L1140] | 1 |  | Frames needed per page | page_over_mtu",
    "pages_per_s_full | pages/s | [L1140] | 8333 |  | Pages per second at the full link rate | \
     frames_per_s_full / frames_per_page",
    "frames_per_s_at_utilisation | frames/s | [L1142] | 4000 | \
     rounded down to one significant figure (the book's \"< 4000\") | \
     Frames per second on the usable share of the link (upper bound) | \
     frames_per_s_full × utilisation",
    "pages_per_s_at_utilisation | pages/s | [L1142] | 4000 |  | \
     Pages per second on the usable share of the link (upper bound) | \
     frames_per_s_at_utilisation / frames_per_page",
    "gatherers_per_node_max | gatherers | [L1144–1146] | 4000/n |  | \
     Gatherers per node should stay below | pages_per_s_at_utilisation / nodes",
    "t_txn_ms | ms | [L1154] | 500 |  | Time of one TCP transaction | 2 × rtt_ms + spt_ms",
    "t_page_s | s | [L1154] | 4 | rounded to whole seconds (the book's \"≈ 4 s\") | \
     Minimum time to fetch one page | page_over_mtu × t_txn_ms / 1000",
    "pages_per_day_node | pages/day | [L1154] | 2160000 |  | Pages per day per node at full load | \
     86400 / t_page_s × gatherers",
    "pages_per_day_all_nodes | pages/day | [L1154] | - |  | Pages per day, all nodes | \
     pages_per_day_node × nodes",
];

/// Replaces every word of `symbolic` that names a value in `env` by the value.
fn fill(symbolic: &str, env: &[(&str, f64)]) -> String {
    let mut out = String::new();
    let mut rest = symbolic;
    while let Some(c) = rest.chars().next() {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let word = &rest[..len];
        match env.iter().find(|(k, _)| *k == word) {
            Some((_, v)) => out.push_str(&num(*v)),
            None => out.push_str(word),
        }
        rest = &rest[len..];
    }
    out
}

/// The §4.9 capacity model [L1134–1154], every step shown.
pub fn capacity(i: &CapacityInputs) -> Result<CapacityReport, String> {
    i.validate()?;
    let (book, kb) = (i.round_like_book, i.kb_bytes.bytes());
    let round = |exact: f64, like_book: fn(f64) -> f64| if book { like_book(exact) } else { exact };
    let page_bytes = i.page_kb * kb;
    let frames_full = round(i.link_mbps * 1e6 / (i.mtu_bytes * 8.0), f64::round);
    let ratio = page_bytes / i.mtu_bytes;
    let per_page = if i.frame_equals_page { 1.0 } else { ratio };
    let frames_util = round(frames_full * i.utilisation, floor_one_significant);
    let pages_util = frames_util / per_page;
    let t_txn = 2.0 * i.rtt_ms + i.spt_ms;
    let t_page = round(ratio * t_txn / 1000.0, round_seconds);
    let per_node = 86_400.0 / t_page * i.gatherers;
    let values = [
        page_bytes,
        frames_full,
        ratio,
        per_page,
        frames_full / per_page,
        frames_util,
        pages_util,
        pages_util / i.nodes,
        t_txn,
        t_page,
        per_node,
        per_node * i.nodes,
    ];
    let mut env = i.named().to_vec();
    env.push(("KB", kb));
    let mut figures = Vec::new();
    for (row, value) in FIGURES.iter().zip(values) {
        let mut col = row.split(" | ").map(str::trim);
        let mut next = || col.next().unwrap_or("");
        let (key, unit, line, book_value) = (next(), next(), next(), next());
        let (rounding, label, symbolic) = (next(), next(), next());
        let book_value = match book_value.strip_suffix("/n") {
            Some(per) => per.parse::<f64>().ok().map(|v| v / i.nodes),
            None => book_value.parse::<f64>().ok(),
        };
        let mut formula = format!("{symbolic} = {}", fill(symbolic, &env));
        if key == "frames_per_page" && i.frame_equals_page {
            formula = "1 (the book's simplification: one frame = one page)".to_string();
        }
        if book && !rounding.is_empty() {
            formula = format!("{formula}, {rounding}");
        }
        if !value.is_finite() || value <= 0.0 {
            return Err(format!("inputs too extreme: {key} came out as {value}"));
        }
        env.push((key, value));
        figures.push(Figure {
            key,
            label_en: label.to_string(),
            formula,
            value,
            unit,
            book_value,
            line,
        });
    }
    let mut notes = vec![format!(
        "A page is {} MTU-sized frames [L1154]; T_page always uses this ratio, as the book does.",
        num(ratio)
    )];
    if i.frame_equals_page {
        let note = "frame = page is the book's simplification [L1140]: the pages/s figures are \
                    upper bounds, page_over_mtu times too high.";
        notes.push(note.to_string());
    }
    Ok(CapacityReport {
        inputs: i.clone(),
        figures,
        notes,
    })
}

/// The node counts of the book's load-balance and scalability experiments [L2051].
pub const BOOK_NODE_COUNTS: [usize; 4] = [2, 4, 8, 16];
/// The book's example number of logical nodes (virtual buckets) in the two-level mapping [L2120].
pub const DEFAULT_LOGICAL_BUCKETS: usize = 50_000;
/// Normalised variance of the book's 2:3 reference run (Table 6-3, [L2057–2070]). The book does
/// not give its formula (digest ambiguity A-9). With s_i = c_i / mean = (0.8, 1.2), it is
/// (1/n)·Σ(s_i − 1)² = 0.04, the same for every hour. Compare with
/// [`LoadReport::normalized_variance`].
pub const BOOK_REFERENCE_VARIANCE: f64 = 0.04;

/// Upper bound on time buckets in a [`LoadReport`], so a tiny `bucket_s` cannot exhaust memory.
pub const MAX_TIME_BUCKETS: usize = 1_000_000;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The form in which a host is hashed and used as a key: surrounding whitespace removed, ASCII
/// lower-cased. The caller decides whether a port is part of the host. The book maps
/// `HOST(link)` [L2003] and says nothing more.
pub fn normalize_host(host: &str) -> String {
    host.trim().to_ascii_lowercase()
}

/// FNV-1a 64 over the bytes of [`normalize_host`].
pub fn fnv1a64(host: &str) -> u64 {
    host.trim().bytes().fold(FNV_OFFSET, |h, b| {
        (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME)
    })
}

/// The host hash used for every mapping: [`fnv1a64`], then the MurmurHash3 64-bit finaliser.
/// The book gives only "hash mod n" of the host string [L2003], so this module picks one that is
/// stable on every run and platform. The finaliser matters because FNV-1a's value mod 2^k
/// depends only on the low k bits of each byte ("a.cn" and "q.cn" always share a node for
/// n = 16). The book's n = 2, 4, 8, 16 are all powers of two.
pub fn host_hash(host: &str) -> u64 {
    let mut h = fnv1a64(host);
    h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

fn check_nodes(n: usize) -> Result<(), String> {
    if n == 0 {
        return Err("the number of nodes must be at least 1".to_string());
    }
    Ok(())
}

/// Scheme 1: node = `host_hash(host) mod n` [L1991], [L2003]. Keys are normalised hosts
/// ([`normalize_host`]).
pub fn assign_mod<S: AsRef<str>>(hosts: &[S], n: usize) -> Result<HashMap<String, usize>, String> {
    check_nodes(n)?;
    Ok(hosts
        .iter()
        .map(|h| {
            (
                normalize_host(h.as_ref()),
                (host_hash(h.as_ref()) % n as u64) as usize,
            )
        })
        .collect())
}

/// Fetches per node over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadReport {
    pub nodes: usize,
    pub bucket_s: f64,
    /// `buckets[t][i]` = fetches by node i in [t·bucket_s, (t+1)·bucket_s).
    pub buckets: Vec<Vec<u64>>,
    /// Fetches per node over the whole log.
    pub totals: Vec<u64>,
    /// Mean, population variance and standard deviation of `totals`.
    pub mean: f64,
    pub variance: f64,
    pub std_dev: f64,
    /// max(totals) / mean: 1 = perfect balance. It is 1 when the log is empty.
    pub max_over_mean: f64,
    /// For each bucket t, the book's cumulative view (Table 6-3 counts pages obtained *in t
    /// hours* [L2057]) normalised by the mean: (1/n)·Σ_i (c_{i,t}/mean_t − 1)². This
    /// reconstructs the curves of Fig 6-5 [L2063] (ambiguity A-9); compare with
    /// [`BOOK_REFERENCE_VARIANCE`].
    pub normalized_variance: Vec<f64>,
}

/// Mean, population variance and max/mean of counts (0, 0, 1 when there is nothing).
fn stats(counts: &[u64]) -> (f64, f64, f64) {
    if counts.is_empty() {
        return (0.0, 0.0, 1.0);
    }
    let n = counts.len() as f64;
    let mean = counts.iter().sum::<u64>() as f64 / n;
    let var = counts
        .iter()
        .map(|&c| (c as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let max = counts.iter().copied().max().unwrap_or(0) as f64;
    let mom = if mean > 0.0 { max / mean } else { 1.0 };
    (mean, var, mom)
}

/// Counts every fetch of `log` for the node its host is assigned to, in time buckets of
/// `bucket_s` seconds (the book uses hours over the first 10 hours [L2055]). Every host of the
/// log must be in `assignment`, and every node must be below `n`.
pub fn load_over_time(
    log: &[(f64, String)],
    assignment: &HashMap<String, usize>,
    n: usize,
    bucket_s: f64,
) -> Result<LoadReport, String> {
    check_nodes(n)?;
    if !bucket_s.is_finite() || bucket_s <= 0.0 {
        return Err(format!(
            "bucket_s must be a positive number (got {bucket_s})"
        ));
    }
    let mut buckets: Vec<Vec<u64>> = Vec::new();
    let mut totals = vec![0u64; n];
    for (t, host) in log {
        if !t.is_finite() || *t < 0.0 {
            return Err(format!("fetch time {t} of {host} must be ≥ 0 seconds"));
        }
        let key = normalize_host(host);
        let node = *assignment
            .get(&key)
            .ok_or_else(|| format!("host {key} has no node in the assignment"))?;
        if node >= n {
            return Err(format!("host {key} is on node {node}, but n = {n}"));
        }
        let b = (t / bucket_s).floor() as usize;
        if b >= MAX_TIME_BUCKETS {
            return Err(format!(
                "fetch time {t} needs over {MAX_TIME_BUCKETS} buckets of {bucket_s} s"
            ));
        }
        if b >= buckets.len() {
            buckets.resize(b + 1, vec![0; n]);
        }
        buckets[b][node] += 1;
        totals[node] += 1;
    }
    let mut cumulative = vec![0u64; n];
    let normalized_variance = buckets
        .iter()
        .map(|row| {
            cumulative.iter_mut().zip(row).for_each(|(c, r)| *c += r);
            let (mean, var, _) = stats(&cumulative);
            if mean > 0.0 { var / (mean * mean) } else { 0.0 }
        })
        .collect();
    let (mean, variance, max_over_mean) = stats(&totals);
    Ok(LoadReport {
        nodes: n,
        bucket_s,
        buckets,
        totals,
        mean,
        variance,
        std_dev: variance.sqrt(),
        max_over_mean,
        normalized_variance,
    })
}

/// Distinct normalised hosts of a log with their fetch counts, in a stable order.
pub fn host_fetches(log: &[(f64, String)]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for (_, h) in log {
        *m.entry(normalize_host(h)).or_insert(0) += 1;
    }
    m
}

/// The book's experiment [L2051–2073]: [`assign_mod`] and [`load_over_time`] for each of
/// [`BOOK_NODE_COUNTS`].
pub fn load_study(log: &[(f64, String)], bucket_s: f64) -> Result<Vec<LoadReport>, String> {
    let hosts: Vec<String> = host_fetches(log).into_keys().collect();
    BOOK_NODE_COUNTS
        .iter()
        .map(|&n| load_over_time(log, &assign_mod(&hosts, n)?, n, bucket_s))
        .collect()
}

/// How hosts are mapped to nodes when the membership changes [L2101–2103].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mapping {
    /// Scheme 1: `hash mod n` becomes `hash mod (n+1)` [L2107–2111].
    Rehash,
    /// Scheme 3 (Fig 6-8): hosts map to `buckets` logical nodes by hash, and logical nodes map to
    /// physical nodes through the table A ([`PartitionTable`]) [L2120–2124].
    TwoLevel { buckets: usize },
}

impl Mapping {
    /// The two-level mapping with the book's 50,000 logical nodes [L2120].
    pub const fn two_level() -> Self {
        Mapping::TwoLevel {
            buckets: DEFAULT_LOGICAL_BUCKETS,
        }
    }
}

/// The book's array A (Fig 6-8, [L2120–2124]): index = logical node (virtual bucket), value =
/// physical node. Hosts are hashed to a bucket with [`host_hash`] mod `buckets`. The book's
/// [L2103] says "URL", but the design needs host locality, so this hashes the host (digest A-11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartitionTable {
    owners: Vec<usize>,
    nodes: usize,
}

impl PartitionTable {
    /// Contiguous equal ranges, as in the book's example (logical 1–5,000 → node 1, …, [L2120]).
    /// Bucket k goes to node ⌊k·n / buckets⌋.
    pub fn new(buckets: usize, nodes: usize) -> Result<Self, String> {
        check_nodes(nodes)?;
        if buckets < nodes {
            return Err(format!("{buckets} buckets cannot cover {nodes} nodes"));
        }
        let owners = (0..buckets).map(|k| k * nodes / buckets).collect();
        Ok(PartitionTable { owners, nodes })
    }

    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// The table A itself: `owners()[bucket]` = node.
    pub fn owners(&self) -> &[usize] {
        &self.owners
    }

    pub fn bucket_of(&self, host: &str) -> usize {
        (host_hash(host) % self.owners.len() as u64) as usize
    }

    pub fn owner(&self, host: &str) -> usize {
        self.owners[self.bucket_of(host)]
    }

    /// Buckets per node.
    pub fn counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.nodes];
        self.owners.iter().for_each(|&o| c[o] += 1);
        c
    }

    /// n → n+1 (Fig 6-8 b, [L2122]). Each existing node gives up part of its buckets, and the
    /// new node (id n) takes ⌊buckets/(n+1)⌋ of them. That is the fewest moves that keep every
    /// node within one bucket of the others. One bucket at a time is taken from the node that
    /// currently has the most (ties: lowest id). A donor gives its highest-numbered buckets; the
    /// book does not say which ones. Returns the buckets that moved, in ascending order.
    pub fn add_node(&mut self) -> Result<Vec<usize>, String> {
        let n = self.nodes;
        if n + 1 > self.owners.len() {
            let b = self.owners.len();
            return Err(format!("{b} buckets cannot cover {} nodes", n + 1));
        }
        let mut counts = self.counts();
        let mut give = vec![0usize; n];
        for _ in 0..self.owners.len() / (n + 1) {
            let donor = (0..n).fold(0, |best, j| if counts[j] > counts[best] { j } else { best });
            counts[donor] -= 1;
            give[donor] += 1;
        }
        let mut moved = Vec::new();
        for k in (0..self.owners.len()).rev() {
            let o = self.owners[k];
            if give[o] > 0 {
                give[o] -= 1;
                self.owners[k] = n;
                moved.push(k);
            }
        }
        self.nodes = n + 1;
        moved.reverse();
        Ok(moved)
    }
}

/// What moves when a node joins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReport {
    pub scheme: Mapping,
    pub from_nodes: usize,
    pub to_nodes: usize,
    pub moved_hosts: usize,
    pub total_hosts: usize,
    /// moved_hosts / total_hosts (0 for an empty log).
    pub fraction: f64,
    pub moved_fetches: u64,
    pub total_fetches: u64,
    /// Share of the log's fetches whose host moved (0 for an empty log).
    pub moved_load: f64,
    /// What theory predicts for many hosts: n/(n+1) for rehash [L2107–2111], and moved
    /// buckets / buckets ≈ 1/(n+1) for the two-level mapping.
    pub expected_fraction: f64,
    /// Logical buckets reassigned (two-level only).
    pub moved_buckets: Option<usize>,
}

/// Hosts (from the log's fetches) that change node when going from `n` to `n+1` nodes under
/// `scheme`. The two-level table starts from [`PartitionTable::new`] with `n` nodes.
pub fn moved_on_add(
    log: &[(f64, String)],
    n: usize,
    scheme: Mapping,
) -> Result<MoveReport, String> {
    check_nodes(n)?;
    let hosts = host_fetches(log);
    type Moves = Box<dyn Fn(&str) -> bool>;
    let (moves, expected, moved_buckets): (Moves, f64, Option<usize>) = match scheme {
        Mapping::Rehash => {
            let (a, b) = (n as u64, n as u64 + 1);
            let f = move |h: &str| host_hash(h) % a != host_hash(h) % b;
            (Box::new(f), n as f64 / (n as f64 + 1.0), None)
        }
        Mapping::TwoLevel { buckets } => {
            let mut table = PartitionTable::new(buckets, n)?;
            let before = table.clone();
            let moved = table.add_node()?.len();
            let f = move |h: &str| before.owner(h) != table.owner(h);
            (Box::new(f), moved as f64 / buckets as f64, Some(moved))
        }
    };
    let (mut moved_hosts, mut moved_fetches) = (0, 0);
    for (h, &c) in &hosts {
        if moves(h) {
            moved_hosts += 1;
            moved_fetches += c;
        }
    }
    let total_fetches = log.len() as u64;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    Ok(MoveReport {
        scheme,
        from_nodes: n,
        to_nodes: n + 1,
        moved_hosts,
        total_hosts: hosts.len(),
        fraction: ratio(moved_hosts as f64, hosts.len() as f64),
        moved_fetches,
        total_fetches,
        moved_load: ratio(moved_fetches as f64, total_fetches as f64),
        expected_fraction: expected,
        moved_buckets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(change: impl Fn(&mut CapacityInputs)) -> CapacityReport {
        let mut i = CapacityInputs::default();
        change(&mut i);
        capacity(&i).unwrap()
    }

    fn near(r: &CapacityReport, key: &str, want: f64, tol: f64) {
        let got = r.value(key).unwrap();
        assert!((got - want).abs() <= tol, "{key}: {got}, expected {want}");
    }

    #[test]
    fn book_numbers_exactly() {
        let r = cap(|_| ());
        near(&r, "frames_per_s_full", 8333.0, 0.0);
        near(&r, "pages_per_s_full", 8333.0, 0.0);
        near(&r, "frames_per_s_at_utilisation", 4000.0, 0.0);
        near(&r, "pages_per_s_at_utilisation", 4000.0, 0.0);
        near(&r, "gatherers_per_node_max", 4000.0, 0.0);
        near(&r, "t_txn_ms", 500.0, 0.0);
        near(&r, "t_page_s", 4.0, 0.0);
        near(&r, "pages_per_day_node", 2_160_000.0, 0.0);
        for f in &r.figures {
            assert!(f.book_value.is_none_or(|b| b == f.value), "{}", f.key);
            assert!(f.line.starts_with("[L") && !f.label_en.is_empty() && !f.unit.is_empty());
        }
        let t_page = &r.figure("t_page_s").unwrap().formula;
        let want = "page_over_mtu × t_txn_ms / 1000 = 8.8747 × 500 / 1000, rounded to whole";
        assert!(t_page.starts_with(want), "{t_page}");
        let four = cap(|i| i.nodes = 4.0);
        let g = four.figure("gatherers_per_node_max").unwrap();
        assert_eq!((g.value, g.book_value), (1000.0, Some(1000.0)));
        near(&four, "pages_per_day_all_nodes", 8_640_000.0, 0.0);
    }

    #[test]
    fn exact_alternatives() {
        let exact = cap(|i| i.round_like_book = false);
        near(&exact, "frames_per_s_full", 8333.333, 1e-3);
        near(&exact, "pages_per_s_at_utilisation", 4166.667, 1e-3);
        near(&exact, "page_over_mtu", 8.875, 1e-3);
        near(&exact, "t_page_s", 4.437, 1e-3); // 4.4 s with KB = 1024
        near(&exact, "pages_per_day_node", 1_947_115.4, 0.1);
        let kb1000 = cap(|i| (i.round_like_book, i.kb_bytes) = (false, KbUnit::Kb1000));
        near(&kb1000, "t_page_s", 4.333, 1e-3); // 4.3 s with KB = 1000
        near(&kb1000, "pages_per_day_node", 1_993_846.2, 0.1);
        // The book's rounding reaches 4 s and 2,160,000 from either KB.
        let book1000 = cap(|i| i.kb_bytes = KbUnit::Kb1000);
        near(&book1000, "t_page_s", 4.0, 0.0);
        near(&book1000, "pages_per_day_node", 2_160_000.0, 0.0);
    }

    #[test]
    fn a_page_is_about_nine_frames() {
        let r = cap(|i| i.frame_equals_page = false);
        near(&r, "frames_per_page", 8.875, 1e-3);
        near(&r, "pages_per_s_full", 939.0, 0.1); // ≈ 940 pages/s
        near(&r, "pages_per_s_at_utilisation", 450.7, 0.1); // 4000 / 8.87
        near(&r, "t_txn_ms", 500.0, 0.0);
        let r = cap(|i| (i.frame_equals_page, i.round_like_book) = (false, false));
        near(&r, "pages_per_s_at_utilisation", 469.5, 0.1); // 4166.7 / 8.87
    }

    #[test]
    fn rounding_and_formatting_helpers() {
        assert_eq!(floor_one_significant(4166.67), 4000.0);
        assert_eq!(floor_one_significant(41_666.7), 40_000.0);
        assert_eq!((round_seconds(4.44), round_seconds(13.3)), (4.0, 13.0));
        assert!((round_seconds(0.44) - 0.4).abs() < 1e-12);
        assert_eq!(num(8333.0) + " " + &num(0.5), "8333 0.5");
        let env = [("rtt_ms", 200.0), ("spt_ms", 100.0)];
        assert_eq!(fill("2 × rtt_ms + spt_ms", &env), "2 × 200 + 100");
    }

    #[test]
    fn bad_inputs_are_refused_with_the_field_name() {
        let err = |change: fn(&mut CapacityInputs)| {
            let mut i = CapacityInputs::default();
            change(&mut i);
            capacity(&i).unwrap_err()
        };
        assert!(err(|i| i.page_kb = 0.0).contains("page_kb must be a positive number"));
        assert!(err(|i| i.mtu_bytes = -1.0).contains("mtu_bytes must be a positive"));
        assert!(err(|i| i.rtt_ms = f64::NAN).contains("rtt_ms must be a positive"));
        assert!(err(|i| i.nodes = 0.0).contains("nodes must be a positive"));
        assert!(err(|i| i.utilisation = 1.5).contains("at most 1"));
        let extreme = err(|i| (i.link_mbps, i.mtu_bytes) = (1e300, 1e-300));
        assert!(extreme.contains("too extreme"), "{extreme}");
    }

    #[test]
    fn fnv1a_known_values_and_stable_assignment() {
        assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64("foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            fnv1a64("a.cn") % 16,
            fnv1a64("q.cn") % 16,
            "why host_hash mixes"
        );
        assert_ne!(host_hash("a.cn") % 16, host_hash("q.cn") % 16);
        assert_eq!(host_hash(" Net.PKU.edu.cn "), host_hash("net.pku.edu.cn"));
        assert_eq!(host_hash("net.pku.edu.cn"), 0xe5b7_d7e5_0cf7_5789); // computed independently
        let hosts = ["net.pku.edu.cn", "www.sohu.com.cn", "NEWS.sohu.com.cn"];
        let a = assign_mod(&hosts, 4).unwrap();
        assert_eq!(a, assign_mod(&hosts, 4).unwrap());
        let news = host_hash("news.sohu.com.cn") % 4;
        assert_eq!(a["news.sohu.com.cn"], news as usize);
        assert!(a.values().all(|&n| n < 4));
        assert!(assign_mod(&hosts, 0).is_err());
    }

    fn log_of(fetches: usize, hosts: usize) -> Vec<(f64, String)> {
        let host = |k: usize| format!("h{}.site{}.example.cn", k % hosts, k % hosts % 13);
        (0..fetches).map(|k| ((k / 7) as f64, host(k))).collect()
    }

    #[test]
    fn even_load_has_zero_variance() {
        let log: Vec<(f64, String)> = (0..400)
            .map(|k| (k as f64, format!("h{}", k % 8)))
            .collect();
        let hosts: Vec<String> = host_fetches(&log).into_keys().collect();
        let a: HashMap<String, usize> = hosts
            .iter()
            .zip(0..)
            .map(|(h, k)| (h.clone(), k % 4))
            .collect();
        let r = load_over_time(&log, &a, 4, 100.0).unwrap();
        assert_eq!(r.totals, vec![100; 4]);
        assert_eq!(
            (r.mean, r.variance, r.std_dev, r.max_over_mean),
            (100.0, 0.0, 0.0, 1.0)
        );
        assert_eq!(r.buckets, vec![vec![25; 4]; 4]);
        assert_eq!(r.normalized_variance, vec![0.0; 4]);
    }

    #[test]
    fn book_reference_run_has_variance_0_04() {
        // Table 6-3: every hour node 1 gets 2 pages and node 2 gets 3 [L2065–2070].
        let host = |k: usize| format!("n{}", u8::from(k % 5 >= 2));
        let log: Vec<(f64, String)> = (0..50).map(|k| ((k / 5 * 3600) as f64, host(k))).collect();
        let a: HashMap<String, usize> = [("n0".to_string(), 0), ("n1".to_string(), 1)].into();
        let r = load_over_time(&log, &a, 2, 3600.0).unwrap();
        assert_eq!((r.totals.clone(), r.buckets.len()), (vec![20, 30], 10));
        let reference = |x: &f64| (x - BOOK_REFERENCE_VARIANCE).abs() < 1e-12;
        assert!(r.normalized_variance.iter().all(reference));
        assert!((r.max_over_mean - 1.2).abs() < 1e-12);
    }

    #[test]
    fn totals_are_preserved_and_errors_are_clear() {
        let log = log_of(6000, 2000);
        let study = load_study(&log, 60.0).unwrap();
        let nodes: Vec<usize> = study.iter().map(|r| r.nodes).collect();
        assert_eq!(nodes, BOOK_NODE_COUNTS);
        for r in &study {
            assert_eq!(r.totals.iter().sum::<u64>(), 6000);
            assert_eq!(r.buckets.iter().flatten().sum::<u64>(), 6000);
            assert!(
                r.max_over_mean < 1.5,
                "n = {}: {}",
                r.nodes,
                r.max_over_mean
            );
        }
        let a: HashMap<String, usize> = [("x".to_string(), 5)].into();
        let e = load_over_time(&[(0.0, "y".into())], &a, 2, 1.0).unwrap_err();
        assert!(e.contains("no node"), "{e}");
        let e = load_over_time(&[(0.0, "X".into())], &a, 2, 1.0).unwrap_err();
        assert!(e.contains("on node 5, but n = 2"), "{e}");
        assert!(load_over_time(&[(-1.0, "x".into())], &a, 9, 1.0).is_err());
        assert!(load_over_time(&[], &a, 2, 0.0).is_err());
        let e = load_over_time(&[(1e9, "x".into())], &a, 9, 1e-3).unwrap_err();
        assert!(e.contains("buckets"), "{e}");
        let empty = load_over_time(&[], &a, 2, 1.0).unwrap();
        assert_eq!(
            (empty.mean, empty.max_over_mean, empty.buckets.len()),
            (0.0, 1.0, 0)
        );
    }

    #[test]
    fn rehash_moves_most_hosts_two_level_moves_one_share() {
        let log = log_of(20_000, 20_000);
        for n in [2usize, 4, 8, 10] {
            let re = moved_on_add(&log, n, Mapping::Rehash).unwrap();
            let two = moved_on_add(&log, n, Mapping::two_level()).unwrap();
            let share = 1.0 / (n as f64 + 1.0);
            assert!(
                (re.fraction - n as f64 * share).abs() < 0.02,
                "n={n}: {re:?}"
            );
            assert!((two.fraction - share).abs() < 0.02, "n={n}: {two:?}");
            assert_eq!(two.moved_buckets, Some(DEFAULT_LOGICAL_BUCKETS / (n + 1)));
            assert_eq!(
                (re.total_hosts, re.total_fetches, re.to_nodes),
                (20_000, 20_000, n + 1)
            );
            assert_eq!(two.moved_load, two.fraction);
        }
        let weighted = [(0.0, "a".to_string()), (1.0, "A".into()), (2.0, "b".into())];
        let r = moved_on_add(&weighted, 1, Mapping::Rehash).unwrap();
        let odd = |h: &str| host_hash(h) % 2; // mod 1 is always 0
        assert_eq!((r.total_hosts, r.total_fetches), (2, 3));
        assert_eq!(r.moved_fetches, 2 * odd("a") + odd("b"));
        assert!(moved_on_add(&[], 0, Mapping::Rehash).is_err());
        assert_eq!(
            moved_on_add(&[], 3, Mapping::two_level()).unwrap().fraction,
            0.0
        );
    }

    #[test]
    fn partition_table_follows_fig_6_8() {
        let mut t = PartitionTable::new(50_000, 10).unwrap();
        assert_eq!(t.counts(), vec![5_000; 10]);
        assert_eq!(&t.owners()[4_999..5_001], &[0, 1], "ranges as in [L2120]");
        let before = t.clone();
        let moved = t.add_node().unwrap();
        assert_eq!((moved.len(), t.nodes()), (50_000 / 11, 11));
        let counts = t.counts();
        assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
        for (k, (&a, &b)) in before.owners().iter().zip(t.owners()).enumerate() {
            assert_eq!(a != b, moved.binary_search(&k).is_ok());
            assert!(a == b || b == 10, "buckets only move to the new node");
        }
        assert!(PartitionTable::new(3, 4).is_err());
        assert!(PartitionTable::new(2, 2).unwrap().add_node().is_err());
        let bucket = t.bucket_of("NET.pku.edu.cn");
        assert_eq!(t.owner("net.pku.edu.cn"), t.owners()[bucket]);
    }

    #[test]
    fn reports_are_serializable() {
        fn ser<T: Serialize>() {}
        ser::<CapacityReport>();
        ser::<LoadReport>();
        ser::<MoveReport>();
        ser::<PartitionTable>();
    }
}
