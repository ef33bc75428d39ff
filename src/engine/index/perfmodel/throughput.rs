//! The throughput side of the model, book §8.4: Table 8-1 (English words against Chinese
//! characters; where ITF = −log₁₀ TF crosses, [L2888–L2909]), Table 8-2 (four disks of 2004,
//! [L2921–L2936]) and the planner of (T_latency + T_N·TF/IO)·L_q·m ≤ 1 [L2938–L2965].
//!
//! ```
//! use tianwang::engine::index::perfmodel::Planner;
//! let p = Planner::default().report().unwrap();
//! assert_eq!(p.m_simplified, 20.0);
//! ```

use serde::{Deserialize, Serialize};

use super::check;
use crate::engine::error::Result;

/// One row of Table 8-1: the rank (number of units) at which the frequency has fallen to
/// `freq_percent` [L2890–L2900].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct FreqRow {
    /// Collection frequency, percent.
    pub freq_percent: f64,
    /// English words [EF 2004].
    pub english_rank: u32,
    /// Chinese characters [CCF 2004].
    pub chinese_rank: u32,
}

impl FreqRow {
    /// ITF = −log₁₀ TF (base 10: the curves cross at ITF ≈ 4 where TF = 0.01 % [L2904]).
    pub fn itf(&self) -> f64 {
        itf_of_percent(self.freq_percent)
    }
}

/// −log₁₀(p / 100).
pub(crate) fn itf_of_percent(p: f64) -> f64 {
    -(p / 100.0).log10()
}

const fn row(freq_percent: f64, english_rank: u32, chinese_rank: u32) -> FreqRow {
    FreqRow {
        freq_percent,
        english_rank,
        chinese_rank,
    }
}

/// Table 8-1 as the book prints it.
pub(crate) const TABLE_8_1: [FreqRow; 9] = [
    row(0.1, 103, 252),
    row(0.07, 148, 348),
    row(0.05, 220, 475),
    row(0.02, 632, 867),
    row(0.01, 1285, 1215),
    row(0.007, 1780, 1400),
    row(0.005, 2381, 1609),
    row(0.002, 5474, 2210),
    row(0.001, 6713, 2676),
];

/// Where the two ITF-against-rank curves cross.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct Crossing {
    pub itf: f64,
    pub rank: f64,
    pub freq_percent: f64,
}

/// The first crossing of the English and Chinese curves in `rows` (ranks interpolated
/// linearly in ITF between rows; both languages share the rows' ITF values).
pub(crate) fn itf_crossing_of(rows: &[FreqRow]) -> Option<Crossing> {
    rows.windows(2)
        .find_map(|w| {
            let d = |r: &FreqRow| f64::from(r.english_rank) - f64::from(r.chinese_rank);
            let (da, db) = (d(&w[0]), d(&w[1]));
            if da == 0.0 {
                return Some((w[0].itf(), f64::from(w[0].english_rank)));
            }
            if da * db > 0.0 {
                return None;
            }
            let t = da / (da - db);
            let itf = w[0].itf() + t * (w[1].itf() - w[0].itf());
            let e0 = f64::from(w[0].english_rank);
            let rank = e0 + t * (f64::from(w[1].english_rank) - e0);
            Some((itf, rank))
        })
        .map(|(itf, rank)| Crossing {
            itf,
            rank,
            freq_percent: 100.0 * 10f64.powf(-itf),
        })
}

/// Table 8-1's crossing: ITF ≈ 3.93, rank ≈ 1,135 (the book: "near ITF = 4").
pub(crate) fn itf_crossing() -> Option<Crossing> {
    itf_crossing_of(&TABLE_8_1)
}

// ---------------------------------------------------------------------------------------------
// Table 8-2 and the throughput planner.

/// One disk of Table 8-2 [L2927–L2932].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Disk {
    pub model: &'static str,
    pub size_gb: f64,
    /// Average access time, milliseconds.
    pub access_ms: f64,
    pub rpm: u32,
    /// Random I/O operations per second.
    pub iops: f64,
    /// Internal transfer rate, MB/s (low, high).
    pub mb_s: (f64, f64),
    pub interface: &'static str,
}

/// Table 8-2 as the book prints it.
pub(crate) const TABLE_8_2: [Disk; 4] = [
    Disk {
        model: "IBM Ultrastar 36ZX",
        size_gb: 36.0,
        access_ms: 5.4,
        rpm: 10_000,
        iops: 119.0,
        mb_s: (15.0, 29.0),
        interface: "Ultra160",
    },
    Disk {
        model: "Quantum Atlas V",
        size_gb: 36.7,
        access_ms: 6.3,
        rpm: 10_000,
        iops: 107.5,
        mb_s: (17.0, 29.0),
        interface: "Ultra160",
    },
    Disk {
        model: "Seagate Cheetah X15",
        size_gb: 18.4,
        access_ms: 3.9,
        rpm: 15_000,
        iops: 169.5,
        mb_s: (38.0, 47.0),
        interface: "FC-AL",
    },
    Disk {
        model: "Seagate Cheetah 73",
        size_gb: 73.4,
        access_ms: 5.6,
        rpm: 10_000,
        iops: 116.0,
        mb_s: (26.0, 40.0),
        interface: "Ultra160",
    },
];

/// The book's rules of thumb [L2936, L2938, L2954–L2958]: 10 ms a disk access, 100 IOPS,
/// 20 MB/s, L_q = 5 terms a query, 1 MB read per query.
pub(crate) const BOOK_LATENCY_S: f64 = 0.010;
pub(crate) const BOOK_IOPS: f64 = 100.0;
pub(crate) const BOOK_BANDWIDTH_BPS: f64 = 20e6;
pub(crate) const BOOK_L_Q: f64 = 5.0;
pub(crate) const BOOK_BYTES_PER_QUERY: f64 = 1e6;
/// The estimated average query-unit frequency: Chinese characters 0.05 %, English words
/// 0.005 % [L2906].
pub(crate) const BOOK_TF_CHINESE: f64 = 0.0005;
pub(crate) const BOOK_TF_ENGLISH: f64 = 0.00005;

/// The largest m with (T_latency + T_N·TF/IO)·L_q·m ≤ 1 [L2940–L2946]: queries per second when
/// each of a query's L_q lists is read in one I/O (T_N·TF bytes).
pub(crate) fn max_throughput(
    t_latency_s: f64,
    t_n: f64,
    tf: f64,
    io_bandwidth_bps: f64,
    l_q: f64,
) -> f64 {
    1.0 / ((t_latency_s + t_n * tf / io_bandwidth_bps) * l_q)
}

/// The simplified model without transfer time: m = IOPS / L_q (100 / 5 = 20) [L2954].
pub(crate) fn simplified_m(iops: f64, l_q: f64) -> f64 {
    iops / l_q
}

/// The largest T_N with T_N·TF·L_q ≤ `bytes_per_query` [L2956]: 400 MB for Chinese characters
/// (0.05 %), 4 GB for English words (0.005 %) at L_q = 5 and 1 MB.
pub(crate) fn max_t_n(tf: f64, l_q: f64, bytes_per_query: f64) -> f64 {
    bytes_per_query / (tf * l_q)
}

/// The inequality solved for T_N at throughput m: (1/(m·L_q) − T_latency)·IO/TF, 0 where the
/// latency alone exceeds the time a query may take (the hyperbola of T_N against m).
pub(crate) fn t_n_at(m: f64, t_latency_s: f64, tf: f64, io_bandwidth_bps: f64, l_q: f64) -> f64 {
    ((1.0 / (m * l_q) - t_latency_s) * io_bandwidth_bps / tf).max(0.0)
}

/// The throughput planner's inputs: one disk (or the book's rules of thumb), RAID over N
/// disks, the query length, the query-unit frequency and the collection size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Planner {
    /// T_latency of one disk, seconds.
    pub latency_s: f64,
    /// Random IOPS of one disk.
    pub iops: f64,
    /// Transfer rate of one disk, bytes per second.
    pub bandwidth_bps: f64,
    /// Disks in the RAID (1: a single disk).
    pub raid_n: u32,
    /// L_q, terms per query.
    pub l_q: f64,
    /// TF of an average query unit (a fraction: 0.0005 = 0.05 %).
    pub tf: f64,
    /// T_N, term occurrences (one byte each in the inequality).
    pub t_n: f64,
}

impl Default for Planner {
    /// The book's rule-of-thumb disk, Chinese characters, T_N = 400 MB.
    fn default() -> Self {
        Planner {
            latency_s: BOOK_LATENCY_S,
            iops: BOOK_IOPS,
            bandwidth_bps: BOOK_BANDWIDTH_BPS,
            raid_n: 1,
            l_q: BOOK_L_Q,
            tf: BOOK_TF_CHINESE,
            t_n: 4e8,
        }
    }
}

/// The planner's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlannerReport {
    pub input: Planner,
    /// The RAID's latency, IOPS and bandwidth (ideal striping: N× IOPS and transfer [L2936]).
    pub latency_s: f64,
    pub iops: f64,
    pub bandwidth_bps: f64,
    /// T_N·TF, bytes of one list.
    pub list_bytes: f64,
    /// Latency + transfer of one list, seconds.
    pub list_s: f64,
    /// m by the full inequality.
    pub m_full: f64,
    /// m = IOPS / L_q, transfer ignored.
    pub m_simplified: f64,
    /// B / m_simplified: what one query may read at that rate.
    pub bytes_per_query: f64,
    /// The T_N that budget allows, bytes_per_query / (TF·L_q).
    pub t_n_max: f64,
}

impl Planner {
    /// A Table 8-2 disk (access time, IOPS, the low end of its transfer range), the rest kept.
    pub(crate) fn with_disk(self, d: &Disk) -> Planner {
        Planner {
            latency_s: d.access_ms / 1000.0,
            iops: d.iops,
            bandwidth_bps: d.mb_s.0 * 1e6,
            ..self
        }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        let pos = |v: f64| v.is_finite() && v > 0.0;
        check(
            self.latency_s.is_finite() && self.latency_s >= 0.0,
            "--latency",
            "latency (seconds) must be 0 or more",
            self.latency_s,
        )?;
        check(pos(self.iops), "--iops", "IOPS must be positive", self.iops)?;
        check(
            pos(self.bandwidth_bps),
            "--bandwidth",
            "bandwidth (bytes per second) must be positive",
            self.bandwidth_bps,
        )?;
        check(
            self.raid_n >= 1,
            "--raid",
            "RAID needs at least 1 disk",
            f64::from(self.raid_n),
        )?;
        check(pos(self.l_q), "--lq", "L_q must be positive", self.l_q)?;
        check(
            pos(self.tf) && self.tf <= 1.0,
            "--tf",
            "TF must be in (0, 1]",
            self.tf,
        )?;
        check(
            self.t_n.is_finite() && self.t_n >= 0.0,
            "--t-n",
            "T_N must be 0 or more",
            self.t_n,
        )
    }

    /// The RAID's (latency, IOPS, bandwidth).
    pub(crate) fn effective(&self) -> (f64, f64, f64) {
        let n = f64::from(self.raid_n.max(1));
        (self.latency_s / n, self.iops * n, self.bandwidth_bps * n)
    }

    /// T_N against m for this disk: the full inequality.
    pub(crate) fn t_n_at(&self, m: f64) -> f64 {
        let (lat, _, bw) = self.effective();
        t_n_at(m, lat, self.tf, bw, self.l_q)
    }

    /// T_N against m with the transfer alone (latency ignored): B/(m·TF·L_q), the curve the
    /// book's anchors (20 q/s, 400 MB / 4 GB) lie on.
    pub(crate) fn t_n_transfer_only(&self, m: f64) -> f64 {
        let (_, _, bw) = self.effective();
        bw / (m * self.tf * self.l_q)
    }

    pub fn report(&self) -> Result<PlannerReport> {
        self.validate()?;
        let (latency_s, iops, bandwidth_bps) = self.effective();
        let list_bytes = self.t_n * self.tf;
        let m_simplified = simplified_m(iops, self.l_q);
        let bytes_per_query = bandwidth_bps / m_simplified;
        Ok(PlannerReport {
            input: *self,
            latency_s,
            iops,
            bandwidth_bps,
            list_bytes,
            list_s: latency_s + list_bytes / bandwidth_bps,
            m_full: max_throughput(latency_s, self.t_n, self.tf, bandwidth_bps, self.l_q),
            m_simplified,
            bytes_per_query,
            t_n_max: max_t_n(self.tf, self.l_q, bytes_per_query),
        })
    }
}
