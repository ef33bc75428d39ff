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
    pub(crate) fn validate(&self) -> Result<(), String> {
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

mod distrib;
mod simulate;
#[cfg(test)]
mod tests;

pub use distrib::*;
pub use simulate::{Simulation, simulate, simulate_workspace};
