//! What do users ask, how often, and how do they click? The query-log statistics lab of the
//! book's chapter 9 (用户行为特征和缓存, [L3162–L3393]).
//!
//! * [`read`]: streamed readers for the book's Tianwang query log (time, IP, cache flag, query,
//!   page [L3204–L3210]) and click log (time, IP, query, URL, rank [L3214–L3220]), the public
//!   SogouQ click log (`time  user  [query]  rank order  URL`) and a TSV whose columns the user
//!   chooses. The encoding is detected (`engine::text::encoding`); a bad line is reported as
//!   `file:line: reason`, skipped and counted, or with `strict` the whole read is refused.
//! * [`Normalise`]: the digest's query normalisation (trim, collapse spaces, ASCII case-fold,
//!   full-width → half-width [§9.1 RECON]); the raw string is kept beside it.
//! * [`stats`]: every chapter-9 statistic as a plain struct: volume, rank–frequency with a Zipf
//!   fit, coverage (9-1) with the book's fit (9-2), repeat decay (9-3), adjacent-group
//!   deviation S (9-4), result-page turning (9-5), click ranks, clicked-URL concentration and
//!   the query-conditioned cosine (9-6), self-similarity (R/S (9-10), variance–time), query
//!   length in characters and jieba words, time-of-day volume.
//! * [`fit`]: least squares on log-log points, R/S and aggregated-variance Hurst estimates.
//! * [`generate`]: a seeded synthetic log calibrated to targets (digest Appendix E).
//! * [`persist`]: logs stored in the workspace (tables `querylogs`, `querylog_records`).
//!
//! **What a request is.** Every valid record is one request. In the Tianwang query log a record
//! is one submission, page turns included (a page-turn logs its page number [L3198–L3202]; the
//! digest counts them, with a toggle: [`stats::StatsConfig::first_page_only`]). In a click log
//! (Tianwang click log, SogouQ) a record is one click, and the book itself analyses clicks as
//! its "query log" (§9.5 [L3298]: "近50万" clicks). "Query" (查询词) means the whole
//! normalised query string, never its words [§9.1].
//!
//! ```
//! use tianwang::engine::querylog::{read::{ReadConfig, read_bytes}, stats::{Collector, StatsConfig}, Format};
//! let log = "00:00:01\tu1\t[天网]\t1 1\ta.cn\n00:00:09\tu2\t[天网]\t12 1\tb.cn\nbad line\n";
//! let cfg = ReadConfig::new(Format::Sogouq);
//! let mut c = Collector::new(StatsConfig::default());
//! let summary = read_bytes("log.txt", log.as_bytes(), &cfg, &(), &mut |r| c.push(r))?;
//! assert_eq!((summary.lines, summary.records, summary.bad.count), (3, 2, 1));
//! assert_eq!(summary.bad.first[0].line, 3);
//! let s = c.finish(&())?;
//! assert_eq!((s.volume.requests, s.volume.distinct_queries), (2, 1));
//! assert_eq!(s.pages.by_page, vec![(1, 1), (2, 1)]);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::hash::Hasher;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

mod bad;
pub mod budget;
pub mod collect;
pub mod fit;
pub mod generate;
pub mod job;
#[cfg(feature = "bigjobs")]
pub mod on_engine;
pub mod own;
pub mod persist;
pub mod read;
pub mod stats;
mod stats_more;
pub(crate) mod tally;

pub use job::stats_on;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_memory;

/// The book's numbers that every tab shows beside ours (digest Appendix B).
pub mod book {
    /// Click share of result pages 1–5, % (Table 9-1 [L3306]).
    pub(crate) const PAGE_SHARES_PCT: [f64; 5] = [47.3, 12.2, 7.4, 5.0, 3.7];
    /// Requests and distinct queries of the 1999 log [L3247].
    pub(crate) const REQUESTS: f64 = 9.6e5;
    pub(crate) const DISTINCT: f64 = 1.6e5;
    /// The top 20 % of queries take 80 % of the volume [L3247].
    pub(crate) const COVERAGE_AT_20PCT: f64 = 0.80;
    /// The coverage fit (9-2) [L3254]: y = (a + b x)^c.
    pub(crate) const COVERAGE_FIT: (f64, f64, f64) = (-0.04103, 1.01689, 0.1346);
    /// Decay: group-1 queries vanish at group 48 (groups of 1,000) [L3271] — a weak anchor.
    pub(crate) const DECAY_ZERO_GROUP: usize = 48;
    /// Adjacent-group S: mostly between these (groups of 1,000) [L3292].
    pub(crate) const DEVIATION_BAND: (f64, f64) = (0.02, 0.06);
    /// Hurst by R/S, and the slopes bounding almost all points [L3393].
    pub(crate) const HURST: f64 = 0.67;
    pub(crate) const HURST_BOUNDS: (f64, f64) = (0.58, 0.82);
    /// Aggregation levels of the visual self-similarity test [L3383].
    pub(crate) const AGGREGATION_LEVELS: [usize; 3] = [500, 1000, 2000];
    /// Share of queries whose per-query URL clicks have cosine > 0.8 with the global ones:
    /// "most" [L3345]; computed over the 10,000 queries with most clicks.
    pub(crate) const COSINE_TOP_QUERIES: usize = 10_000;

    /// The book's coverage fit (9-2) at `x`; undefined (None) below x = 0.04035 [digest §9.2].
    pub(crate) fn coverage_fit(x: f64) -> Option<f64> {
        let (a, b, c) = COVERAGE_FIT;
        let base = a + b * x;
        (base > 0.0).then(|| base.powf(c))
    }
}

/// The log formats the readers know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// SogouQ: `time \t user \t [query] \t rank order \t URL` (rank and order separated by a
    /// space or a tab; time `HH:MM:SS` or `YYYYMMDDHHMMSS`).
    Sogouq,
    /// The book's query log: `time \t IP \t cache-flag \t query \t page` [L3204].
    TianwangQuery,
    /// The book's click log: `time \t IP \t query \t URL \t rank` [L3214].
    TianwangClick,
    /// Tab-separated, with the columns the user chose ([`TsvColumns`]).
    Tsv,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Sogouq => "sogouq",
            Format::TianwangQuery => "tianwang-query",
            Format::TianwangClick => "tianwang-click",
            Format::Tsv => "tsv",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "sogouq" => Format::Sogouq,
            "tianwang-query" => Format::TianwangQuery,
            "tianwang-click" => Format::TianwangClick,
            "tsv" => Format::Tsv,
            _ => return None,
        })
    }
}

/// One column of a [`Format::Tsv`] file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Column {
    Time,
    User,
    Query,
    Page,
    Rank,
    Order,
    Url,
    Cache,
    Skip,
}

/// The columns of a TSV log, e.g. `time,user,query,rank,url`; `query` is required.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TsvColumns(pub Vec<Column>);

impl TsvColumns {
    /// Parses `time,user,query,…` (names: time user query page rank order url cache skip).
    pub fn parse(spec: &str) -> Result<TsvColumns> {
        let mut cols = Vec::new();
        for name in spec.split(',').map(str::trim) {
            cols.push(match name {
                "time" => Column::Time,
                "user" => Column::User,
                "query" => Column::Query,
                "page" => Column::Page,
                "rank" => Column::Rank,
                "order" => Column::Order,
                "url" => Column::Url,
                "cache" => Column::Cache,
                "skip" | "" => Column::Skip,
                other => {
                    return Err(EngineError::invalid(
                        "--columns",
                        format!(
                            "unknown column `{other}` (time, user, query, page, rank, order, url, cache, skip)"
                        ),
                    ));
                }
            });
        }
        let n_query = cols.iter().filter(|c| **c == Column::Query).count();
        if n_query != 1 {
            return Err(EngineError::invalid(
                "--columns",
                "exactly one column must be `query`",
            ));
        }
        for c in [
            Column::Time,
            Column::User,
            Column::Page,
            Column::Rank,
            Column::Order,
            Column::Url,
            Column::Cache,
        ] {
            if cols.iter().filter(|x| **x == c).count() > 1 {
                return Err(EngineError::invalid(
                    "--columns",
                    format!("column `{c:?}` given twice"),
                ));
            }
        }
        Ok(TsvColumns(cols))
    }
}

/// Query normalisation (digest §9.1 RECON: every step a toggle, the raw string kept). Default:
/// all four on, applied in this order: full-width → half-width (U+FF01–FF5E → ASCII, U+3000 →
/// space), trim, collapse runs of whitespace into one space, ASCII lower-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Normalise {
    pub width: bool,
    pub trim: bool,
    pub collapse: bool,
    pub casefold: bool,
}

impl Default for Normalise {
    fn default() -> Self {
        Normalise {
            width: true,
            trim: true,
            collapse: true,
            casefold: true,
        }
    }
}

impl Normalise {
    /// No normalisation: queries counted exactly as logged.
    pub const RAW: Normalise = Normalise {
        width: false,
        trim: false,
        collapse: false,
        casefold: false,
    };

    /// Parses `all`, `none` or a comma list of `width,trim,collapse,casefold`.
    pub fn parse(spec: &str) -> Result<Normalise> {
        match spec {
            "all" => return Ok(Normalise::default()),
            "none" | "raw" => return Ok(Normalise::RAW),
            _ => {}
        }
        let mut n = Normalise::RAW;
        for part in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match part {
                "width" => n.width = true,
                "trim" => n.trim = true,
                "collapse" => n.collapse = true,
                "casefold" | "case" => n.casefold = true,
                other => {
                    return Err(EngineError::invalid(
                        "--normalise",
                        format!(
                            "unknown step `{other}` (all, none, or width,trim,collapse,casefold)"
                        ),
                    ));
                }
            }
        }
        Ok(n)
    }

    fn is_raw(&self) -> bool {
        *self == Normalise::RAW
    }

    /// Whether any enabled step would change `raw` (one pass, no allocation).
    fn needs_change(&self, raw: &str) -> bool {
        if self.trim && (raw.starts_with(char::is_whitespace) || raw.ends_with(char::is_whitespace))
        {
            return true;
        }
        let mut prev_space = false;
        for c in raw.chars() {
            if self.width && matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}') {
                return true;
            }
            if self.casefold && c.is_ascii_uppercase() {
                return true;
            }
            if self.collapse && c.is_whitespace() {
                if prev_space || c != ' ' {
                    return true;
                }
                prev_space = true;
            } else {
                prev_space = false;
            }
        }
        false
    }

    /// `raw` normalised; borrows when nothing changes (the common case for clean logs).
    pub fn apply<'a>(&self, raw: &'a str) -> std::borrow::Cow<'a, str> {
        use std::borrow::Cow;
        if self.is_raw() {
            return Cow::Borrowed(raw);
        }
        if !self.needs_change(raw) {
            return Cow::Borrowed(raw);
        }
        let mut s: String = if self.width {
            raw.chars()
                .map(|c| match c {
                    '\u{FF01}'..='\u{FF5E}' => {
                        char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c)
                    }
                    '\u{3000}' => ' ',
                    c => c,
                })
                .collect()
        } else {
            raw.to_string()
        };
        if self.trim {
            s = s.trim().to_string();
        }
        if self.collapse {
            let mut out = String::with_capacity(s.len());
            let mut in_space = false;
            for c in s.chars() {
                if c.is_whitespace() {
                    if !in_space {
                        out.push(' ');
                    }
                    in_space = true;
                } else {
                    out.push(c);
                    in_space = false;
                }
            }
            s = out;
        }
        if self.casefold {
            s.make_ascii_lowercase();
        }
        if s == raw {
            Cow::Borrowed(raw)
        } else {
            Cow::Owned(s)
        }
    }
}

/// One record of a log, borrowed from the line it was read from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record<'a> {
    /// 1-based line number in the file.
    pub line: u64,
    /// Seconds: since 1970-01-01 (naive local time) when the log carries a date, else seconds
    /// of the day (0..86,400); None when the format has no time column.
    pub time: Option<i64>,
    /// Whether `time` carries a date.
    pub dated: bool,
    /// User id (SogouQ) or IP address (Tianwang); "" when absent.
    pub user: &'a str,
    /// The query as logged (SogouQ's brackets removed), not normalised.
    pub query: &'a str,
    /// Result page requested (the query log's page field); for click logs see
    /// [`Record::result_page`] (⌈rank/10⌉).
    pub page: Option<u32>,
    /// Rank of the clicked URL in the result list (1-based).
    pub rank: Option<u32>,
    /// Order of this click among the user's clicks for the query (SogouQ).
    pub order: Option<u32>,
    pub url: Option<&'a str>,
    /// The Tianwang query log's cache flag (`Database`, `Cache`).
    pub cache: Option<&'a str>,
}

impl Record<'_> {
    /// The result page of this request: the page field, else ⌈rank/10⌉ (10 results a page
    /// [L3198]).
    pub(crate) fn result_page(&self) -> Option<u32> {
        self.page.or_else(|| self.rank.map(|r| r.div_ceil(10)))
    }
}

pub(crate) use crate::engine::text::fxhash::{FxHasher, FxMap};

/// A 64-bit hash of a string (users and URLs are counted by hash: 2⁻⁶⁴ collision odds).
pub(crate) fn hash64(s: &str) -> u64 {
    // Two rounds of a different multiplier at the end spread FxHash's low bits.
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    let mut z = h.finish() ^ (s.len() as u64);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
