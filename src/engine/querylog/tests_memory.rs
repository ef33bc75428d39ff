//! The bounded collector against the one it replaced (issue 30): `Reference` below is the old
//! collector kept whole — every column of every request, sessions, pages and clicks counted
//! at the end — so the streamed counts, the narrow columns, the packed page keys and the
//! moving merge must give the same [`Counts`] and [`Stats`], in one thread and in parts. Also
//! the heap per request and the memory budget.

use super::generate::{GenConfig, write_log};
use super::read::{ReadConfig, read_file};
use super::stats::{Collector, Counts, NO_TIME, NONE, PagePairs, StatsConfig};
use super::stats_more::{distinct_per_group, group_counts_of, histogram_of, query_order};
use super::tally::intern_hash;
use super::tests::SOGOU;
use super::*;

/// The id of hash `h` in an ordinary map (the old collector's URL ids).
fn intern(map: &mut FxMap<u64, u32>, hashes: &mut Vec<u64>, h: u64) -> u32 {
    let n = hashes.len() as u32;
    let id = *map.entry(h).or_insert(n);
    if id == n {
        hashes.push(h);
    }
    id
}

/// The pre-issue-30 collector: 28 bytes of columns a request plus two copies of each query.
struct Reference {
    c: Collector,
    qmap: FxMap<Box<str>, u32>,
    queries: Vec<Box<str>>,
    urlmap: FxMap<u64, u32>,
    url_hashes: Vec<u64>,
    url: Vec<u32>,
    t: Vec<i64>,
    page: Vec<u32>,
    rank: Vec<u32>,
}

impl Reference {
    fn new(cfg: StatsConfig) -> Reference {
        Reference {
            c: Collector::new(cfg),
            qmap: FxMap::default(),
            queries: Vec::new(),
            urlmap: FxMap::default(),
            url_hashes: Vec::new(),
            url: Vec::new(),
            t: Vec::new(),
            page: Vec::new(),
            rank: Vec::new(),
        }
    }

    /// The old push: the filters by the new collector (unchanged), then every column.
    fn push(&mut self, r: &Record) -> crate::engine::error::Result<()> {
        let before = self.c.filtered_out;
        let mut probe = Collector::new(self.c.cfg.clone());
        probe.push(r)?;
        if probe.filtered_out > 0 {
            self.c.filtered_out = before + 1;
            return Ok(());
        }
        let norm = self.c.cfg.normalise.apply(r.query);
        let qid = match self.qmap.get(&*norm) {
            Some(&id) => id,
            None => {
                let id = self.queries.len() as u32;
                let key: Box<str> = norm.into();
                self.qmap.insert(key.clone(), id);
                self.queries.push(key);
                id
            }
        };
        let c = &mut self.c;
        let uid = match (!r.user.is_empty()).then(|| hash64(r.user)) {
            Some(h) => intern_hash(&mut c.umap, &mut c.user_hashes, h),
            None => NONE,
        };
        let url = match r.url {
            Some(s) if !s.is_empty() => intern(&mut self.urlmap, &mut self.url_hashes, hash64(s)),
            _ => NONE,
        };
        c.page_field |= r.page.is_some();
        c.q.push(qid);
        c.u.push(uid);
        self.url.push(url);
        self.t.push(r.time.unwrap_or(NO_TIME));
        self.page.push(r.result_page().unwrap_or(0));
        self.rank.push(r.rank.unwrap_or(0));
        Ok(())
    }

    /// The old `Counts::of_collector`.
    fn counts(self) -> Counts {
        let c = &self.c;
        let m = self.queries.len();
        let mut query_counts = vec![0u64; m];
        for &q in &c.q {
            query_counts[q as usize] += 1;
        }
        let order = query_order(&query_counts);
        let g = c.cfg.group_size;
        let distinct = stats_more::selfsim_levels(c.cfg.selfsim_group)
            .into_iter()
            .map(|g| (g, distinct_per_group(&c.q, m, g)))
            .collect();
        let mut keys: Vec<(u64, u32)> =
            c.u.iter()
                .zip(&c.q)
                .zip(&self.page)
                .filter(|(_, p)| **p > 0)
                .map(|((&u, &q), &p)| (((u as u64) << 32) | q as u64, p))
                .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut pp = PagePairs {
            pages: keys.len() as u64,
            ..PagePairs::default()
        };
        for (i, k) in keys.iter().enumerate() {
            let starts = i == 0 || keys[i - 1].0 != k.0;
            let alone = starts && keys.get(i + 1).is_none_or(|n| n.0 != k.0);
            pp.pairs += starts as u64;
            pp.only_first += (alone && k.1 == 1) as u64;
        }
        let mut url_counts = vec![0u64; self.url_hashes.len()];
        for &u in self.url.iter().filter(|&&u| u != NONE) {
            url_counts[u as usize] += 1;
        }
        let mut cosine: Vec<(u32, Vec<(u64, u64)>)> = Vec::new();
        for &qid in order.iter().take(c.cfg.cosine_top) {
            let mut per: std::collections::BTreeMap<u32, u64> = Default::default();
            for (_, &u) in
                c.q.iter()
                    .zip(&self.url)
                    .filter(|(q, u)| **q == qid && **u != NONE)
            {
                *per.entry(u).or_insert(0) += 1;
            }
            if !per.is_empty() {
                let dims = per.iter().map(|(&u, &w)| (w, url_counts[u as usize]));
                cosine.push((qid, dims.collect()));
            }
        }
        let (mut last, mut seen, mut sessions) = (
            vec![NO_TIME; c.user_hashes.len()],
            vec![false; c.user_hashes.len()],
            0,
        );
        for (&u, &t) in c.u.iter().zip(&self.t).filter(|(u, _)| **u != NONE) {
            let i = u as usize;
            if !seen[i] {
                seen[i] = true;
                sessions += 1;
            } else if t != NO_TIME
                && last[i] != NO_TIME
                && (t - last[i]).abs() > c.cfg.session_gap_s
            {
                sessions += 1;
            }
            if t != NO_TIME {
                last[i] = t;
            }
        }
        let hours = self.t.iter().any(|&t| t != NO_TIME).then(|| {
            let mut h = vec![0u64; 24];
            for &t in self.t.iter().filter(|&&t| t != NO_TIME) {
                h[(t.rem_euclid(86_400) / 3600) as usize] += 1;
            }
            h
        });
        Counts {
            requests: c.q.len() as u64,
            filtered_out: c.filtered_out,
            distinct_users: c.user_hashes.len() as u64,
            sessions,
            query_counts,
            groups: group_counts_of(&c.q, g),
            distinct_per_group: distinct,
            by_page: histogram_of(self.page.iter().copied()),
            page_field: c.page_field,
            page_pairs: pp,
            by_rank: histogram_of(self.rank.iter().copied()),
            url_counts,
            cosine,
            hours,
            queries: self.queries,
            cfg: c.cfg.clone(),
        }
    }
}

/// `c` with its URL counts and each query's URL dimensions sorted.
fn canonical(mut c: Counts) -> Counts {
    c.url_counts.sort_unstable();
    for (_, d) in &mut c.cosine {
        d.sort_unstable();
    }
    c
}

/// A generated log with the hand-counted one (bad lines, a page-3 click) and clicks on pages
/// past 255 appended; returns its path.
fn log_file(dir: &std::path::Path, lines: u64) -> std::path::PathBuf {
    let cfg = GenConfig {
        lines,
        seed: 11,
        ..GenConfig::default()
    };
    let mut bytes = Vec::new();
    write_log(&cfg, &mut bytes, std::path::Path::new("log"), &()).unwrap();
    bytes.extend_from_slice(SOGOU.as_bytes());
    for (i, rank) in [2_600u32, 9_999, 2_600, 4_000_000_000, 7]
        .iter()
        .enumerate()
    {
        let line = format!("23:5{i}:00\tbig{}\t[far]\t{rank} 1\tz.cn/{i}\n", i % 2);
        bytes.extend_from_slice(line.as_bytes());
    }
    let p = dir.join("g.log");
    std::fs::write(&p, &bytes).unwrap();
    p
}

#[test]
fn the_bounded_collector_equals_the_old_one_in_one_thread_and_in_parts() {
    let dir = std::env::temp_dir().join(format!("tw-ql-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = log_file(&dir, 10_000);
    let rc = ReadConfig::new(Format::Sogouq);
    let configs = [
        StatsConfig {
            words: false,
            ..StatsConfig::default()
        },
        StatsConfig {
            words: false,
            session_gap_s: 60,
            group_size: 300,
            cosine_top: 50,
            time_from: Some(600),
            user_sample_pct: Some(70.0),
            ..StatsConfig::default()
        },
    ];
    for sc in configs {
        let mut old = Reference::new(sc.clone());
        let s0 = read_file(&p, &rc, &(), &mut |r| old.push(r)).unwrap();
        assert!(s0.bad.count >= 3, "{:?}", s0.bad);
        let want = old.counts();
        assert!(want.by_page.iter().any(|p| p.0 > 255), "{:?}", want.by_page);
        for parts in [1, 3] {
            let min = if parts == 1 { u64::MAX } else { 0 };
            let (s, c) = collect::collect_parts(&p, &rc, &sc, &(), min, parts).unwrap();
            assert_eq!((s.lines, s.records), (s0.lines, s0.records));
            let got = Counts::of_collector(c, &()).unwrap();
            let stats = got.clone().finish(&()).unwrap();
            assert_eq!(stats, want.clone().finish(&()).unwrap());
            // URLs are counted in order of their hash, not of first appearance.
            assert_eq!(
                canonical(got),
                canonical(want.clone()),
                "{parts} part(s), {sc:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The heap per request stays near the 17 bytes of columns (the old collector held 28, two
/// copies of every distinct query and a map of URLs): a regression to wider columns fails.
#[test]
fn the_collector_holds_under_36_bytes_a_request() {
    let cfg = GenConfig {
        lines: 200_000,
        seed: 3,
        ..GenConfig::default()
    };
    let mut bytes = Vec::new();
    write_log(&cfg, &mut bytes, std::path::Path::new("log"), &()).unwrap();
    let mut c = Collector::new(StatsConfig::default());
    let rc = ReadConfig::new(Format::Sogouq);
    read::read_bytes("log", &bytes, &rc, &(), &mut |r| c.push(r)).unwrap();
    assert_eq!(c.len(), 200_000);
    // Columns at their final length (a growing Vec may hold twice its length).
    c.q.shrink_to_fit();
    c.u.shrink_to_fit();
    c.url.shrink_to_fit();
    c.page.shrink_to_fit();
    let per = c.heap_bytes() as f64 / c.len() as f64;
    // 17 bytes of columns, ~10 of distinct queries (1 in 6 requests is a new one), ~6 of users
    // (1 in 10), map capacities rounded up to powers of two. The old collector: 28 + 47.
    assert!(per < 36.0, "{per:.1} bytes a request");
    assert!(per > 17.0, "{per:.1}: heap_bytes misses the columns");
}
