//! Every chapter-9 statistic of a log, as plain structs the panel draws and the CLI prints
//! (book §9.0–9.8 [L3166–L3393]).
//!
//! A [`Collector`] takes records one at a time (from `read`, the generator or a stored log) and
//! keeps only compact per-request ids (query and user as `u32`, the URL's hash, the page as a
//! byte), counting
//! ranks, times and sessions as they pass (`tally`); distinct query strings are interned once (normalised — `Normalise` — so "QQ" and "qq " are one
//! query by default). [`Collector::finish`] computes [`Stats`].
//!
//! Definitions (digest §9.0–9.8; the book's number is beside ours in each struct):
//! * requests N = valid records (see the module doc of `querylog` for what a record is);
//!   `repeat_fraction` = 1 − m/N (the infinite-cache ceiling [digest §9.10]);
//! * sessions: a user's requests in file order, a new session after an inactivity gap over
//!   [`StatsConfig::session_gap_s`] (|Δt|, so time-of-day logs work across a midnight wrap);
//! * coverage (9-1): y(x) = Σ_{i≤⌊m·x⌋} C_i / N at x = 0.01 … 1.00 [L3247];
//! * result page = the page field, else ⌈rank/10⌉ [L3298];
//! * repeat decay (9-3), deviation S (9-4, sliding pairs), R/S over the distinct queries per
//!   500-request group: in `stats_more`.
//!
//! ```
//! use tianwang::engine::querylog::stats::{Collector, StatsConfig};
//! use tianwang::engine::querylog::Record;
//! let mut c = Collector::new(StatsConfig::default());
//! for (i, q) in ["a", "b", "a", "A "].iter().enumerate() {
//!     let r = Record { line: i as u64 + 1, time: Some(i as i64), dated: false, user: "u", query: q,
//!         page: Some(1), rank: None, order: None, url: None, cache: None };
//!     c.push(&r)?;
//! }
//! let s = c.finish(&())?;
//! assert_eq!((s.volume.requests, s.volume.distinct_queries, s.volume.queries_seen_once), (4, 2, 1));
//! assert_eq!(s.top_queries[0].query, "a");
//! assert_eq!(s.top_queries[0].count, 3);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use serde::{Deserialize, Serialize};

use super::fit::{self, Hurst, ZipfFit, ZipfRange};
use super::tally::{self, HashIds, Hist, QueryTable, Sessions, intern_hash};
use super::{FxMap, Normalise, Record, book, hash64};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

#[cfg(feature = "bigjobs")]
pub(crate) use super::stats_more::selfsim_levels;

/// Parameters of the statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsConfig {
    pub normalise: Normalise,
    /// Leave out page-turn submissions (page > 1) of a query log (digest: "page turns count,
    /// with a toggle").
    pub first_page_only: bool,
    /// Inactivity gap that ends a session, seconds.
    pub session_gap_s: i64,
    /// Group size of repeat decay and adjacent deviation (book: 1,000 [L3260, L3275]).
    pub group_size: usize,
    /// The reference group of the decay, 1-based (book: 1).
    pub decay_reference: usize,
    /// Group size of the self-similarity series (distinct queries per group; book: 500).
    pub selfsim_group: usize,
    pub zipf: ZipfRange,
    /// How many top queries are listed.
    pub top_n: usize,
    /// Queries with most clicks whose URL cosine is computed (book: 10,000 [L3345]).
    pub cosine_top: usize,
    /// Query lengths in jieba words (costs a segmentation of every distinct query).
    pub words: bool,
    /// Keep only requests with time in `[from, to]` (seconds as the records carry them).
    pub time_from: Option<i64>,
    pub time_to: Option<i64>,
    /// Keep only this percentage of users (by a hash of the user id and the seed).
    pub user_sample_pct: Option<f64>,
    pub user_sample_seed: u64,
    /// The native engine refuses a log whose estimated peak memory exceeds this many MB
    /// (None: the memory available); see `budget`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
}

impl Default for StatsConfig {
    fn default() -> Self {
        StatsConfig {
            normalise: Normalise::default(),
            first_page_only: false,
            session_gap_s: 30 * 60,
            group_size: 1000,
            decay_reference: 1,
            selfsim_group: 500,
            zipf: ZipfRange::default(),
            top_n: 100,
            cosine_top: book::COSINE_TOP_QUERIES,
            words: true,
            time_from: None,
            time_to: None,
            user_sample_pct: None,
            user_sample_seed: 0,
            memory_limit_mb: None,
        }
    }
}

impl StatsConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        if self.group_size < 2 {
            return Err(EngineError::invalid("--group", "must be at least 2"));
        }
        if self.selfsim_group < 2 {
            return Err(EngineError::invalid(
                "--selfsim-group",
                "must be at least 2",
            ));
        }
        if self.decay_reference < 1 {
            return Err(EngineError::invalid(
                "--decay-reference",
                "groups count from 1",
            ));
        }
        if self.session_gap_s < 1 {
            return Err(EngineError::invalid(
                "--session-gap",
                "must be at least 1 s",
            ));
        }
        if let Some(p) = self.user_sample_pct
            && !(p > 0.0 && p <= 100.0)
        {
            return Err(EngineError::invalid(
                "--user-sample",
                "a percentage in (0, 100]",
            ));
        }
        if let Some(max) = self.zipf.max_rank
            && max < self.zipf.min_rank
        {
            return Err(EngineError::invalid(
                "--zipf-max-rank",
                "below --zipf-min-rank",
            ));
        }
        Ok(())
    }
}

pub(crate) const NONE: u32 = u32::MAX;
pub(crate) const NO_TIME: i64 = i64::MIN;

/// Accumulates records; see the module doc. Per request it keeps only what a statistic needs
/// record by record — the query and user ids, the URL's hash and the result page (17 bytes); ranks,
/// times, sessions and hours are counted as the records pass (`tally`).
pub struct Collector {
    pub(crate) cfg: StatsConfig,
    pub(crate) queries: QueryTable,
    pub(crate) umap: HashIds,
    /// The hash of each user id (to merge collectors).
    pub(crate) user_hashes: Vec<u64>,
    pub(crate) q: Vec<u32>,
    pub(crate) u: Vec<u32>,
    /// The clicked URL's hash ([`url_key`]; 0: none). A hash rather than an interned id: most
    /// clicked URLs are clicked about once, so a map of them costs more than the column.
    pub(crate) url: Vec<u64>,
    /// Result page (0: unknown).
    pub(crate) page: tally::Pages,
    /// Click ranks ≥ 1.
    pub(crate) by_rank: Hist,
    pub(crate) sessions: Sessions,
    /// Requests per hour of the day, and whether any request has a time.
    pub(crate) hours: [u64; 24],
    pub(crate) timed: bool,
    pub(crate) dated: bool,
    pub(crate) filtered_out: u64,
    pub(crate) page_field: bool,
}

impl Collector {
    pub fn new(cfg: StatsConfig) -> Collector {
        Collector {
            cfg,
            queries: QueryTable::default(),
            umap: HashIds::default(),
            user_hashes: Vec::new(),
            q: Vec::new(),
            u: Vec::new(),
            url: Vec::new(),
            page: tally::Pages::default(),
            by_rank: Hist::default(),
            sessions: Sessions::default(),
            hours: [0; 24],
            timed: false,
            dated: false,
            filtered_out: 0,
            page_field: false,
        }
    }

    /// Requests kept so far.
    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// The heap this collector holds, bytes (capacities; hash maps estimated from theirs) —
    /// what grows with the log, for the memory budget and its test.
    pub fn heap_bytes(&self) -> usize {
        let cols = (self.q.capacity() + self.u.capacity()) * 4 + self.url.capacity() * 8;
        cols + self.page.heap_bytes()
            + self.queries.heap_bytes()
            + self.umap.heap_bytes()
            + self.user_hashes.capacity() * 8
            + self.sessions.heap_bytes()
    }

    /// Takes one record (filters applied).
    pub fn push(&mut self, r: &Record) -> Result<()> {
        let cfg = &self.cfg;
        if let (Some(t), Some(from)) = (r.time, cfg.time_from)
            && t < from
        {
            self.filtered_out += 1;
            return Ok(());
        }
        if let (Some(t), Some(to)) = (r.time, cfg.time_to)
            && t > to
        {
            self.filtered_out += 1;
            return Ok(());
        }
        if cfg.first_page_only && r.page.is_some_and(|p| p > 1) {
            self.filtered_out += 1;
            return Ok(());
        }
        let uh = (!r.user.is_empty()).then(|| hash64(r.user));
        if let Some(pct) = cfg.user_sample_pct {
            let h = uh.unwrap_or(0) ^ cfg.user_sample_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let h = hash64(&h.to_string());
            if (h % 1_000_000) as f64 >= pct * 10_000.0 {
                self.filtered_out += 1;
                return Ok(());
            }
        }
        if self.q.len() >= NONE as usize - 1 {
            return Err(EngineError::invalid(
                "FILE",
                "more than 4,294,967,293 records: split the log",
            ));
        }
        let gap = cfg.session_gap_s;
        let qid = self.queries.id(&cfg.normalise.apply(r.query));
        let t = r.time.unwrap_or(NO_TIME);
        let uid = match uh {
            Some(h) => {
                let id = intern_hash(&mut self.umap, &mut self.user_hashes, h);
                self.sessions.push(id, t, gap);
                id
            }
            None => NONE,
        };
        let url = r.url.map_or(0, url_key);
        if t != NO_TIME {
            self.timed = true;
            self.hours[(t.rem_euclid(86_400) / 3600) as usize] += 1;
        }
        self.by_rank.add(r.rank.unwrap_or(0), 1);
        self.page_field |= r.page.is_some();
        self.dated |= r.dated;
        self.q.push(qid);
        self.u.push(uid);
        self.page.push(r.result_page().unwrap_or(0));
        self.url.push(url);
        Ok(())
    }

    /// Distinct users and URLs seen.
    pub(crate) fn distinct_users(&self) -> usize {
        self.umap.len()
    }

    /// The request stream as object ids for the cache lab: the query id, or (query, page)
    /// interned; ids dense from 0 in order of first request.
    pub(crate) fn stream_ids(&self, with_page: bool) -> Vec<u32> {
        if !with_page {
            return self.q.clone();
        }
        let mut m: FxMap<u64, u32> = FxMap::default();
        self.q
            .iter()
            .zip(self.page.iter())
            .map(|(&q, p)| {
                let n = m.len() as u32;
                *m.entry(((q as u64) << 32) | p as u64).or_insert(n)
            })
            .collect()
    }

    /// The normalised query of id `id`.
    pub fn query(&self, id: u32) -> &str {
        self.queries.get(id)
    }

    /// Computes every statistic.
    pub fn finish(self, tick: &dyn Tick) -> Result<Stats> {
        self.cfg.validate()?;
        super::stats_more::compute(self, tick)
    }
}

/// What the statistics read, aggregated: produced from a [`Collector`] by the native engine
/// ([`Counts::of_collector`]) or from SQL aggregates by a big-job plan
/// (`querylog::on_engine`), and turned into [`Stats`] by the one [`Counts::finish`], so
/// both engines share every formula after the counting.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    pub cfg: StatsConfig,
    /// Requests kept (N) and records left out by the filters.
    pub requests: u64,
    pub filtered_out: u64,
    pub distinct_users: u64,
    pub sessions: u64,
    /// Distinct normalised queries in order of first appearance (their ids), and requests of
    /// each.
    pub queries: Vec<Box<str>>,
    pub query_counts: Vec<u64>,
    /// Every whole group of `cfg.group_size` requests: (query id, requests), by query id.
    pub groups: Vec<Vec<(u32, u32)>>,
    /// (group size, distinct queries per whole group) for each size of
    /// `stats_more::selfsim_levels`.
    pub distinct_per_group: Vec<(usize, Vec<u32>)>,
    /// (result page ≥ 1, requests), ascending.
    pub by_page: Vec<(u32, u64)>,
    /// Whether the log has a page field (a query log) rather than pages from click ranks.
    pub page_field: bool,
    pub page_pairs: PagePairs,
    /// (click rank ≥ 1, clicks), ascending.
    pub by_rank: Vec<(u32, u64)>,
    /// Clicks of every distinct URL (any order).
    pub url_counts: Vec<u64>,
    /// For the `cfg.cosine_top` queries with most requests: (query id, (clicks under the query,
    /// the URL's clicks overall) for every URL clicked under it).
    pub cosine: Vec<(u32, Vec<(u64, u64)>)>,
    /// Requests per hour of the day, when any request has a time.
    pub hours: Option<Vec<u64>>,
}

/// (user, query) pairs with a result page: how many, their distinct (pair, page) keys, and how
/// many never leave page 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PagePairs {
    pub pairs: u64,
    pub pages: u64,
    pub only_first: u64,
}

/// The key of a clicked URL: its 64-bit hash, never 0 (0: no URL).
pub(crate) fn url_key(s: &str) -> u64 {
    if s.is_empty() { 0 } else { hash64(s).max(1) }
}

/// Volume figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Volume {
    pub requests: u64,
    pub distinct_queries: u64,
    /// 0 when the log has no user column.
    pub distinct_users: u64,
    pub sessions: u64,
    pub queries_seen_once: u64,
    /// 1 − m/N: the share of requests whose query was seen before.
    pub repeat_fraction: f64,
    pub requests_per_query: f64,
    /// Records left out by the filters (time range, user sample, first page only).
    pub filtered_out: u64,
    /// The book's 1999 log [L3247]: N and m.
    pub book_requests: f64,
    pub book_distinct: f64,
}

/// A query and its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryCount {
    pub query: String,
    pub count: u64,
}

/// Rank–frequency: the fit and the points to draw (log-spaced ranks).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RankFrequency {
    pub zipf: Option<ZipfFit>,
    /// (rank, count), ranks 1, 2, … thinned to about 1.02× steps, the last rank included.
    pub points: Vec<(u64, u64)>,
}

/// One point of a coverage curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CoveragePoint {
    pub top_fraction: f64,
    pub volume_fraction: f64,
    /// The book's fit (9-2) at this x (None where it is undefined, x < 0.04035).
    pub book_fit: Option<f64>,
}

/// Coverage (9-1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub points: Vec<CoveragePoint>,
    pub at_5pct: f64,
    pub at_20pct: f64,
    pub at_50pct: f64,
    /// Book: 0.80 at 20 % [L3247].
    pub book_at_20pct: f64,
}

/// Repeat decay (9-3).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Decay {
    pub group_size: usize,
    pub reference: usize,
    /// Y_i for every whole group i = 1, 2, … (index 0 is group 1).
    pub y: Vec<u64>,
    /// First group after the reference with Y = 0 (1-based); book: 48 [L3271].
    pub first_zero: Option<usize>,
    /// Mean Y_{r+Δ}/G over every reference r, Δ = 1 … (digest RECON: a robust curve).
    pub mean_by_lag: Vec<f64>,
    pub book_first_zero: usize,
}

/// Adjacent-group deviation S (9-4), sliding pairs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Deviation {
    pub group_size: usize,
    /// S for pairs (1,2), (2,3), …
    pub s: Vec<f64>,
    pub mean: Option<f64>,
    pub median: Option<f64>,
    /// Share of S values within the book's band [0.02, 0.06] [L3292].
    pub share_in_band: Option<f64>,
    pub book_band: (f64, f64),
}

/// Result-page turning (9-5).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pages {
    /// (page, requests) for every page seen, ascending.
    pub by_page: Vec<(u32, u64)>,
    /// Share (%) of pages 1–5, beside the book's Table 9-1.
    pub share_pct: Vec<f64>,
    pub book_share_pct: Vec<f64>,
    /// Query log: page requests per page-1 request; click log: distinct pages clicked per
    /// (user, query). Book: under 2 [L706].
    pub pages_per_query: Option<f64>,
    /// Share of (user, query) pairs that never go beyond page 1.
    pub first_page_only_share: Option<f64>,
}

/// Click ranks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Clicks {
    pub clicks: u64,
    /// (rank, clicks) ascending.
    pub by_rank: Vec<(u32, u64)>,
    /// Share (%) of ranks 1–10.
    pub rank_share_pct: Vec<f64>,
}

/// Clicked-URL concentration (§9.6–9.7).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Urls {
    pub clicks: u64,
    pub distinct: u64,
    pub clicked_once: u64,
    /// Book: more than 0.5 [L3322].
    pub share_clicked_once: f64,
    /// Smallest share of URLs holding 2/3 of clicks (book: under 1/3 [L3322]).
    pub share_for_two_thirds: f64,
    pub coverage: Vec<(f64, f64)>,
    pub cosine: Cosine,
}

/// Per-query vs global URL clicks (9-6) [L3328–L3345].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cosine {
    /// Queries examined (those with most clicks, up to the configured number).
    pub queries: u64,
    pub share_above_08: Option<f64>,
    /// The same over queries with at least 2 distinct URLs (cos = 1 is trivial with one).
    pub multi_url_queries: u64,
    pub share_above_08_multi_url: Option<f64>,
    /// (distinct URLs of the query, cosine), in order of the query's clicks.
    pub values: Vec<(u32, f64)>,
}

/// One aggregation level of the visual self-similarity test.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Level {
    pub group_size: usize,
    /// Distinct queries in each group.
    pub series: Vec<u32>,
}

/// Self-similarity (§9.8).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SelfSim {
    /// The series X: distinct queries per group of this size (digest ⚑: 500).
    pub group_size: usize,
    pub hurst: Hurst,
    /// Aggregated-variance estimate of H on the same series, and its points (m, Var X^(m)).
    pub variance_time_h: Option<f64>,
    pub variance_time: Vec<(usize, f64)>,
    /// The book's levels 500, 1,000, 2,000 [L3383].
    pub levels: Vec<Level>,
    pub book_h: f64,
}

/// Query lengths.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    /// (characters, requests) ascending; of the normalised query.
    pub chars: Vec<(u32, u64)>,
    pub mean_chars: f64,
    /// (jieba words, requests) ascending, when computed.
    pub words: Option<Vec<(u32, u64)>>,
    pub mean_words: Option<f64>,
}

/// Every statistic of a log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub config: Option<StatsConfig>,
    pub volume: Volume,
    pub top_queries: Vec<QueryCount>,
    pub rank_frequency: RankFrequency,
    pub coverage: Coverage,
    pub decay: Decay,
    pub deviation: Deviation,
    pub pages: Pages,
    pub clicks: Clicks,
    pub urls: Option<Urls>,
    pub selfsim: SelfSim,
    pub lengths: Lengths,
    /// Requests per hour of the day (24 bins), when the log has times.
    pub time_of_day: Option<Vec<u64>>,
}

/// Coverage points at x = 0.01 … 1.00 of `sorted` (descending) counts summing to `total`.
pub(crate) fn coverage_points(sorted: &[u64], total: u64) -> Vec<(f64, f64)> {
    let m = sorted.len() as u64;
    let mut out = Vec::with_capacity(100);
    let mut acc = 0u64;
    let mut i = 0usize;
    for k in 1..=100u64 {
        let upto = (m * k / 100) as usize; // ⌊m·x⌋ exactly, x = k/100
        while i < upto {
            acc += sorted[i];
            i += 1;
        }
        let y = if total > 0 {
            acc as f64 / total as f64
        } else {
            0.0
        };
        out.push((k as f64 / 100.0, y));
    }
    out
}

/// The ranks to draw on a log-log plot: every rank up to 10, then steps of about 2 %.
pub(crate) fn plot_ranks(m: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut r = 1usize;
    while r <= m {
        out.push(r);
        r = (r + 1).max((r as f64 * 1.02) as usize);
    }
    if out.last() != Some(&m) && m > 0 {
        out.push(m);
    }
    out
}

/// Helper for `fit`: the Zipf fit of sorted counts with the configured range.
pub(crate) fn zipf_of(sorted: &[u64], range: ZipfRange) -> Option<ZipfFit> {
    fit::zipf_fit(sorted, range)
}
