//! The computations behind [`super::stats::Stats`]: each statistic from the collector's
//! compact per-request arrays. Repeat decay (9-3) [L3260–L3271], adjacent deviation (9-4)
//! [L3275–L3292], pages (9-5) [L3298], URLs and cosine (9-6) [L3317–L3345], self-similarity
//! [L3369–L3393], lengths, time of day.

use rayon::prelude::*;

use super::fit;
use super::stats::*;
use super::tally::Hist;
use super::{FxMap, book};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

pub(crate) fn compute(c: Collector, tick: &dyn Tick) -> Result<Stats> {
    let counts = Counts::of_collector(c, tick)?;
    counts.finish(tick)
}

impl Counts {
    /// The aggregates of a collector's request stream (the native engine's side of
    /// [`Counts`]).
    pub(crate) fn of_collector(mut c: Collector, tick: &dyn Tick) -> Result<Counts> {
        // Each column is dropped once the last statistic that reads it is done, so the
        // transient sort keys of the page pairs never sit beside the URL column.
        tick.tick(0.0, "counting queries")?;
        let m = c.queries.len();
        let mut query_counts = vec![0u64; m];
        for &q in &c.q {
            query_counts[q as usize] += 1;
        }
        let order = query_order(&query_counts);
        tick.tick(0.2, "clicked URLs")?;
        let (url_counts, cosine) = url_counts(&mut c, &order);
        drop(order);
        tick.tick(0.35, "decay and deviation")?;
        let groups = group_counts_of(&c.q, c.cfg.group_size);
        let distinct_per_group = selfsim_levels(c.cfg.selfsim_group)
            .into_iter()
            .map(|g| (g, distinct_per_group(&c.q, m, g)))
            .collect();
        tick.tick(0.5, "pages and clicks")?;
        let by_page = histogram_of(c.page.iter());
        let page_pairs = page_pairs(&mut c);
        let (distinct_users, sessions) = (c.distinct_users() as u64, c.sessions.count);
        // The user maps go before the query texts become one box each.
        c.umap = Default::default();
        c.user_hashes = Vec::new();
        c.sessions = Default::default();
        Ok(Counts {
            requests: query_counts.iter().sum(),
            filtered_out: c.filtered_out,
            distinct_users,
            sessions,
            query_counts,
            groups,
            distinct_per_group,
            by_page,
            page_field: c.page_field,
            page_pairs,
            by_rank: c.by_rank.pairs(),
            url_counts,
            cosine,
            hours: c.timed.then(|| c.hours.to_vec()),
            queries: c.queries.into_texts(),
            cfg: c.cfg,
        })
    }

    /// Every statistic from the aggregates: the one place where counts become [`Stats`], for
    /// the native collector and the big-job plans alike.
    pub fn finish(self, tick: &dyn Tick) -> Result<Stats> {
        self.cfg.validate()?;
        let n = self.requests;
        let m = self.queries.len();
        let counts = &self.query_counts;
        let order = query_order(counts);
        let sorted: Vec<u64> = order.iter().map(|&id| counts[id as usize]).collect();
        let once = counts.iter().filter(|&&k| k == 1).count() as u64;
        let volume = Volume {
            requests: n,
            distinct_queries: m as u64,
            distinct_users: self.distinct_users,
            sessions: self.sessions,
            queries_seen_once: once,
            repeat_fraction: if n > 0 {
                1.0 - m as f64 / n as f64
            } else {
                0.0
            },
            requests_per_query: if m > 0 { n as f64 / m as f64 } else { 0.0 },
            filtered_out: self.filtered_out,
            book_requests: book::REQUESTS,
            book_distinct: book::DISTINCT,
        };
        let top_queries = order
            .iter()
            .take(self.cfg.top_n)
            .map(|&id| QueryCount {
                query: self.queries[id as usize].to_string(),
                count: counts[id as usize],
            })
            .collect();
        let rank_frequency = RankFrequency {
            zipf: zipf_of(&sorted, self.cfg.zipf),
            points: plot_ranks(m)
                .into_iter()
                .map(|r| (r as u64, sorted[r - 1]))
                .collect(),
        };
        let cov = coverage_points(&sorted, n);
        let at = |k: usize| cov.get(k - 1).map(|p| p.1).unwrap_or(0.0);
        let coverage = Coverage {
            at_5pct: at(5),
            at_20pct: at(20),
            at_50pct: at(50),
            book_at_20pct: book::COVERAGE_AT_20PCT,
            points: cov
                .iter()
                .map(|&(x, y)| CoveragePoint {
                    top_fraction: x,
                    volume_fraction: y,
                    book_fit: book::coverage_fit(x),
                })
                .collect(),
        };
        tick.tick(0.6, "decay and deviation")?;
        let decay = decay_of(
            &self.groups,
            m,
            self.cfg.group_size,
            self.cfg.decay_reference,
        );
        let deviation = deviation_of(&self.groups, self.cfg.group_size);
        let pages = pages_of(&self.by_page, self.page_field, &self.page_pairs);
        let clicks = clicks_of(&self.by_rank);
        let urls = urls_of(&self.url_counts, &self.cosine, &order, self.cfg.cosine_top);
        tick.tick(0.7, "self-similarity")?;
        let selfsim = selfsim_of(&self.distinct_per_group, self.cfg.selfsim_group);
        tick.tick(0.75, "query lengths")?;
        let lengths = lengths(&self.queries, counts, self.cfg.words);
        tick.tick(1.0, "done")?;
        Ok(Stats {
            config: Some(self.cfg.clone()),
            volume,
            top_queries,
            rank_frequency,
            coverage,
            decay,
            deviation,
            pages,
            clicks,
            urls,
            selfsim,
            lengths,
            time_of_day: self.hours,
        })
    }
}

/// Query ids by count descending; ids are in first-appearance order, so ties keep that order.
pub(crate) fn query_order(counts: &[u64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..counts.len() as u32).collect();
    order.par_sort_by_key(|&id| (std::cmp::Reverse(counts[id as usize]), id));
    order
}

/// The group sizes whose distinct-query series self-similarity reads: the configured one and
/// the book's levels, each once.
pub(crate) fn selfsim_levels(g: usize) -> Vec<usize> {
    let mut v = vec![g];
    for l in book::AGGREGATION_LEVELS {
        if !v.contains(&l) {
            v.push(l);
        }
    }
    v
}

/// (value ≥ 1, count), ascending (see `tally::Hist`).
pub(crate) fn histogram_of(values: impl Iterator<Item = u32>) -> Vec<(u32, u64)> {
    let mut h = Hist::default();
    for v in values {
        h.add(v, 1);
    }
    h.pairs()
}

/// (query, count) of every whole group of `g` requests, each sorted by query id.
pub(crate) fn group_counts_of(q: &[u32], g: usize) -> Vec<Vec<(u32, u32)>> {
    let groups: Vec<&[u32]> = q.chunks_exact(g).collect();
    groups
        .par_iter()
        .map_init(Vec::new, |buf, grp| group_counts(grp, buf))
        .collect()
}

/// Y_i (9-3) of the request stream `q` in groups of `g` (see [`decay_of`]).
#[cfg(test)]
pub(crate) fn decay(q: &[u32], m: usize, g: usize, reference: usize) -> Decay {
    decay_of(&group_counts_of(q, g), m, g, reference)
}

/// Y_i (9-3): occurrences in group i of the distinct queries of the reference group, from
/// every whole group's (query, count) list.
pub(crate) fn decay_of(groups: &[Vec<(u32, u32)>], m: usize, g: usize, reference: usize) -> Decay {
    let mut out = Decay {
        group_size: g,
        reference,
        book_first_zero: book::DECAY_ZERO_GROUP,
        ..Decay::default()
    };
    if groups.len() < reference {
        return out;
    }
    let mut mark = vec![false; m];
    for &(x, _) in &groups[reference - 1] {
        mark[x as usize] = true;
    }
    out.y = groups
        .iter()
        .map(|grp| {
            grp.iter()
                .filter(|(x, _)| mark[*x as usize])
                .map(|(_, k)| *k as u64)
                .sum()
        })
        .collect();
    out.first_zero = out
        .y
        .iter()
        .enumerate()
        .skip(reference)
        .find(|(_, y)| **y == 0)
        .map(|(i, _)| i + 1);
    // Robust curve: mean over references r (up to 200 of them, evenly spread) of Y_{r+Δ}/G.
    let max_lag = 100.min(groups.len().saturating_sub(1));
    if max_lag > 0 {
        let refs = groups.len() - max_lag;
        let step = refs.div_ceil(200).max(1);
        let mut stamp = vec![u32::MAX; m];
        let mut sum = vec![0f64; max_lag];
        let mut k = 0u32;
        for r in (0..refs).step_by(step) {
            for &(x, _) in &groups[r] {
                stamp[x as usize] = r as u32;
            }
            for (lag, s) in sum.iter_mut().enumerate() {
                let hits: u64 = groups[r + lag + 1]
                    .iter()
                    .filter(|(x, _)| stamp[*x as usize] == r as u32)
                    .map(|(_, c)| *c as u64)
                    .sum();
                *s += hits as f64 / g as f64;
            }
            k += 1;
        }
        out.mean_by_lag = sum.into_iter().map(|s| s / k.max(1) as f64).collect();
    }
    out
}

/// Sorted (query, count) of a group.
fn group_counts(grp: &[u32], buf: &mut Vec<u32>) -> Vec<(u32, u32)> {
    buf.clear();
    buf.extend_from_slice(grp);
    buf.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &x in buf.iter() {
        match out.last_mut() {
            Some((q, k)) if *q == x => *k += 1,
            _ => out.push((x, 1)),
        }
    }
    // Kept in `Counts` for every group of the log: no growth slack.
    out.shrink_to_fit();
    out
}

/// S (9-4) of the request stream `q` in groups of `g` (see [`deviation_of`]).
#[cfg(test)]
pub(crate) fn deviation(q: &[u32], g: usize) -> Deviation {
    deviation_of(&group_counts_of(q, g), g)
}

/// S (9-4) for sliding pairs of adjacent groups, from every whole group's (query, count) list.
pub(crate) fn deviation_of(gc: &[Vec<(u32, u32)>], g: usize) -> Deviation {
    let gf = g as f64;
    let s: Vec<f64> = gc
        .windows(2)
        .map(|w| {
            let (a, b) = (&w[0], &w[1]);
            let (mut i, mut j, mut s) = (0, 0, 0.0);
            while i < a.len() || j < b.len() {
                let (fa, fb) = match (a.get(i), b.get(j)) {
                    (Some(x), Some(y)) if x.0 == y.0 => {
                        i += 1;
                        j += 1;
                        (x.1, y.1)
                    }
                    (Some(x), Some(y)) if x.0 < y.0 => {
                        i += 1;
                        (x.1, 0)
                    }
                    (Some(_), Some(y)) => {
                        j += 1;
                        (0, y.1)
                    }
                    (Some(x), None) => {
                        i += 1;
                        (x.1, 0)
                    }
                    (None, Some(y)) => {
                        j += 1;
                        (0, y.1)
                    }
                    (None, None) => break,
                };
                let d = (fa as f64 - fb as f64) / gf;
                s += d * d;
            }
            s
        })
        .collect();
    let (lo, hi) = book::DEVIATION_BAND;
    let mut sorted = s.clone();
    sorted.sort_by(f64::total_cmp);
    Deviation {
        group_size: g,
        mean: (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64),
        median: (!s.is_empty()).then(|| sorted[sorted.len() / 2]),
        share_in_band: (!s.is_empty())
            .then(|| s.iter().filter(|&&v| (lo..=hi).contains(&v)).count() as f64 / s.len() as f64),
        book_band: book::DEVIATION_BAND,
        s,
    }
}

/// The (user, query) pairs' pages; spends the user, query and page columns. The key
/// (user, query, page) is packed into a `u64` when the ids fit (they do up to billions of
/// requests), else a `u128`: 8 bytes a request sorted in place.
fn page_pairs(c: &mut Collector) -> PagePairs {
    let bits = |x: u64| 64 - x.leading_zeros();
    // A request without a user is user `users` here (NONE would need all 32 bits).
    let users = c.distinct_users() as u64;
    let (bu, bq) = (bits(users), bits(c.queries.len() as u64));
    let bp = bits(c.page.max() as u64);
    let n = c.page.iter().filter(|&p| p > 0).count();
    let user = |u: u32| if u == NONE { users } else { u as u64 };
    if bu.max(1) + bq + bp <= 64 {
        let mut keys: Vec<u64> = Vec::with_capacity(n);
        let (sq, su) = (bp, bp + bq);
        for ((&u, &q), p) in c.u.iter().zip(&c.q).zip(c.page.iter()) {
            if p > 0 {
                keys.push((user(u) << su) | ((q as u64) << sq) | p as u64);
            }
        }
        drop_columns(c);
        let page_mask = (1u64 << bp) - 1;
        pairs_of(keys, |k| k >> bp, |k| k & page_mask == 1)
    } else {
        let mut keys: Vec<u128> = Vec::with_capacity(n);
        for ((&u, &q), p) in c.u.iter().zip(&c.q).zip(c.page.iter()) {
            if p > 0 {
                keys.push(((user(u) as u128) << 64) | ((q as u128) << 32) | p as u128);
            }
        }
        drop_columns(c);
        pairs_of(keys, |k| k >> 32, |k| k as u32 == 1)
    }
}

fn drop_columns(c: &mut Collector) {
    c.u = Vec::new();
    c.q = Vec::new();
    c.page = Default::default();
}

/// Counts the distinct (pair, page) keys: pairs, pages, pairs only ever on page 1.
fn pairs_of<K: Ord + Copy + Send>(
    mut keys: Vec<K>,
    pair: impl Fn(K) -> K,
    first_page: impl Fn(K) -> bool,
) -> PagePairs {
    keys.par_sort_unstable();
    keys.dedup();
    let (mut pairs, mut only_first) = (0u64, 0u64);
    let mut i = 0;
    while i < keys.len() {
        let mut j = i;
        while j < keys.len() && pair(keys[j]) == pair(keys[i]) {
            j += 1;
        }
        pairs += 1;
        if j - i == 1 && first_page(keys[i]) {
            only_first += 1;
        }
        i = j;
    }
    PagePairs {
        pairs,
        pages: keys.len() as u64,
        only_first,
    }
}

/// Result-page turning (9-5) from the per-page counts and the (user, query) pairs.
pub(crate) fn pages_of(by_page: &[(u32, u64)], page_field: bool, pp: &PagePairs) -> Pages {
    let with_page: u64 = by_page.iter().map(|p| p.1).sum();
    let count = |p: u32| by_page.iter().find(|x| x.0 == p).map_or(0, |x| x.1);
    let share = |p: u32| {
        if with_page == 0 {
            0.0
        } else {
            100.0 * count(p) as f64 / with_page as f64
        }
    };
    let mut out = Pages {
        share_pct: (1..=5).map(share).collect(),
        book_share_pct: book::PAGE_SHARES_PCT.to_vec(),
        by_page: by_page.to_vec(),
        ..Pages::default()
    };
    if with_page == 0 {
        return out;
    }
    if page_field {
        let first = count(1);
        out.pages_per_query = (first > 0).then(|| with_page as f64 / first as f64);
    }
    if !page_field && pp.pairs > 0 {
        out.pages_per_query = Some(pp.pages as f64 / pp.pairs as f64);
    }
    out.first_page_only_share = (pp.pairs > 0).then(|| pp.only_first as f64 / pp.pairs as f64);
    out
}

/// Click ranks from the per-rank counts.
pub(crate) fn clicks_of(by_rank: &[(u32, u64)]) -> Clicks {
    let total: u64 = by_rank.iter().map(|r| r.1).sum();
    let count = |r: u32| by_rank.iter().find(|x| x.0 == r).map_or(0, |x| x.1);
    Clicks {
        clicks: total,
        rank_share_pct: (1..=10)
            .map(|r| {
                if total == 0 {
                    0.0
                } else {
                    100.0 * count(r) as f64 / total as f64
                }
            })
            .collect(),
        by_rank: by_rank.to_vec(),
    }
}

/// Per top query: (query id, (clicks under the query, the URL's clicks) per URL).
type CosineInput = Vec<(u32, Vec<(u64, u64)>)>;

/// Clicks per distinct URL (in order of their hashes), and for the `cosine_top` queries with
/// most requests the (clicks under the query, the URL's clicks) of every URL clicked under it.
/// Spends the URL column: it is sorted in place into the distinct URLs.
fn url_counts(c: &mut Collector, order: &[u32]) -> (Vec<u64>, CosineInput) {
    let mut qrank = vec![u32::MAX; c.queries.len()];
    for (i, &q) in order.iter().take(c.cfg.cosine_top).enumerate() {
        qrank[q as usize] = i as u32;
    }
    let mut pairs: Vec<(u32, u64)> =
        c.q.iter()
            .zip(&c.url)
            .filter(|(q, u)| **u != 0 && qrank[**q as usize] != u32::MAX)
            .map(|(&q, &u)| (qrank[q as usize], u))
            .collect();
    drop(qrank);
    let mut urls = std::mem::take(&mut c.url);
    urls.retain(|&u| u != 0);
    urls.par_sort_unstable();
    let mut counts: Vec<u64> = Vec::new();
    let mut d = 0;
    for i in 0..urls.len() {
        if d > 0 && urls[i] == urls[d - 1] {
            if let Some(k) = counts.last_mut() {
                *k += 1;
            }
        } else {
            urls[d] = urls[i];
            d += 1;
            counts.push(1);
        }
    }
    urls.truncate(d);
    urls.shrink_to_fit();
    pairs.par_sort_unstable();
    let mut cosine = Vec::new();
    let mut i = 0;
    while i < pairs.len() {
        let qr = pairs[i].0;
        let mut dims = Vec::new();
        while i < pairs.len() && pairs[i].0 == qr {
            let u = pairs[i].1;
            let mut w = 0u64;
            while i < pairs.len() && pairs[i] == (qr, u) {
                w += 1;
                i += 1;
            }
            let all = urls.binary_search(&u).map_or(0, |j| counts[j]);
            dims.push((w, all));
        }
        cosine.push((order[qr as usize], dims));
    }
    (counts, cosine)
}

/// The cosine (9-6) of one query's URL clicks with the global ones, from (clicks under the
/// query, clicks overall) per URL; summed in a canonical order so every engine gets the same
/// bits.
pub(crate) fn cosine_of(dims: &[(u64, u64)]) -> f64 {
    let mut d = dims.to_vec();
    d.sort_unstable();
    let (mut dot, mut ni, mut ng) = (0f64, 0f64, 0f64);
    for &(w, g) in &d {
        let (w, g) = (w as f64, g as f64);
        dot += w * g;
        ni += w * w;
        ng += g * g;
    }
    if ni > 0.0 && ng > 0.0 {
        (dot / (ni.sqrt() * ng.sqrt())).min(1.0)
    } else {
        0.0
    }
}

/// Clicked-URL concentration (§9.6–9.7) and the cosine (9-6) from the aggregates.
pub(crate) fn urls_of(
    url_counts: &[u64],
    cosine: &[(u32, Vec<(u64, u64)>)],
    order: &[u32],
    cosine_top: usize,
) -> Option<Urls> {
    let nu = url_counts.len();
    if nu == 0 {
        return None;
    }
    let clicks: u64 = url_counts.iter().sum();
    let once = url_counts.iter().filter(|&&k| k == 1).count() as u64;
    let mut sorted = url_counts.to_vec();
    sorted.par_sort_unstable_by(|a, b| b.cmp(a));
    let (mut acc, mut need) = (0u64, 0usize);
    for &k in &sorted {
        if 3 * acc >= 2 * clicks {
            break;
        }
        acc += k;
        need += 1;
    }
    // In order of the query's rank by requests (ties: first appearance).
    let mut qrank: FxMap<u32, usize> = FxMap::default();
    for (i, &q) in order.iter().take(cosine_top).enumerate() {
        qrank.insert(q, i);
    }
    let mut ranked: Vec<(usize, &Vec<(u64, u64)>)> = cosine
        .iter()
        .filter(|(_, d)| !d.is_empty())
        .filter_map(|(q, d)| qrank.get(q).map(|&r| (r, d)))
        .collect();
    ranked.sort_unstable_by_key(|(r, _)| *r);
    let values: Vec<(u32, f64)> = ranked
        .iter()
        .map(|(_, d)| (d.len() as u32, cosine_of(d)))
        .collect();
    let share = |v: &[&(u32, f64)]| {
        (!v.is_empty()).then(|| v.iter().filter(|x| x.1 > 0.8).count() as f64 / v.len() as f64)
    };
    let all: Vec<&(u32, f64)> = values.iter().collect();
    let multi: Vec<&(u32, f64)> = values.iter().filter(|v| v.0 >= 2).collect();
    Some(Urls {
        clicks,
        distinct: nu as u64,
        clicked_once: once,
        share_clicked_once: once as f64 / nu as f64,
        share_for_two_thirds: need as f64 / nu as f64,
        coverage: coverage_points(&sorted, clicks),
        cosine: Cosine {
            queries: values.len() as u64,
            share_above_08: share(&all),
            multi_url_queries: multi.len() as u64,
            share_above_08_multi_url: share(&multi),
            values,
        },
    })
}

/// Distinct queries per whole group of `g` requests.
pub(crate) fn distinct_per_group(q: &[u32], m: usize, g: usize) -> Vec<u32> {
    let mut stamp = vec![u32::MAX; m];
    q.chunks_exact(g)
        .enumerate()
        .map(|(i, grp)| {
            let mut k = 0;
            for &x in grp {
                if stamp[x as usize] != i as u32 {
                    stamp[x as usize] = i as u32;
                    k += 1;
                }
            }
            k
        })
        .collect()
}

/// Self-similarity from the distinct-query series of every level ([`selfsim_levels`]).
pub(crate) fn selfsim_of(levels: &[(usize, Vec<u32>)], g: usize) -> SelfSim {
    let series_of = |size: usize| {
        levels
            .iter()
            .find(|l| l.0 == size)
            .map(|l| l.1.clone())
            .unwrap_or_default()
    };
    let series = series_of(g);
    let x: Vec<f64> = series.iter().map(|&v| v as f64).collect();
    let hurst = fit::hurst_rs(&x);
    let (vh, vt) = fit::hurst_variance_time(&x);
    let levels = book::AGGREGATION_LEVELS
        .iter()
        .map(|&lg| Level {
            group_size: lg,
            series: series_of(lg),
        })
        .collect();
    SelfSim {
        group_size: g,
        hurst,
        variance_time_h: vh,
        variance_time: vt,
        levels,
        book_h: book::HURST,
    }
}

fn histogram(pairs: impl Iterator<Item = (u32, u64)>) -> (Vec<(u32, u64)>, f64) {
    let mut by: Vec<u64> = Vec::new();
    let (mut sum, mut n) = (0f64, 0u64);
    for (len, w) in pairs {
        let i = len as usize;
        if by.len() <= i {
            by.resize(i + 1, 0);
        }
        by[i] += w;
        sum += len as f64 * w as f64;
        n += w;
    }
    let h = by
        .iter()
        .enumerate()
        .filter(|(_, k)| **k > 0)
        .map(|(l, k)| (l as u32, *k))
        .collect();
    (h, if n > 0 { sum / n as f64 } else { 0.0 })
}

/// Query lengths in characters (and jieba words) of the distinct queries, weighted by their
/// requests.
pub(crate) fn lengths(queries: &[Box<str>], counts: &[u64], words: bool) -> Lengths {
    let chars: Vec<u32> = queries
        .par_iter()
        .map(|q| q.chars().count() as u32)
        .collect();
    let (ch, mean_chars) = histogram(chars.iter().zip(counts).map(|(&l, &k)| (l, k)));
    let (words, mean_words) = if words {
        use crate::engine::text::segment::{Method, Segmenter};
        let seg = Segmenter::shared();
        // jieba's no-HMM words, whitespace tokens left out.
        let w: Vec<u32> = queries
            .par_iter()
            .map(|q| {
                let mut n = 0;
                seg.for_each_token_at(q, Method::JiebaNoHmm, false, true, |_, _| n += 1);
                n
            })
            .collect();
        let (h, mean) = histogram(w.iter().zip(counts).map(|(&l, &k)| (l, k)));
        (Some(h), Some(mean))
    } else {
        (None, None)
    };
    Lengths {
        chars: ch,
        mean_chars,
        words,
        mean_words,
    }
}

#[cfg(test)]
mod tests {
    use super::histogram_of;

    #[test]
    fn a_huge_rank_or_page_is_counted_without_an_array_that_large() {
        let h = histogram_of([3, 1, 0, 2_949_672_962, 5000, 1, u32::MAX].into_iter());
        assert_eq!(
            h,
            vec![(1, 2), (3, 1), (5000, 1), (2_949_672_962, 1), (u32::MAX, 1)]
        );
    }
}
