//! Segment signatures, Shivakumar & Garcia-Molina 1998 as the book summarises them [L2502]:
//! cut a page into chunks (the whole document, or every `chunk_lines` lines), fingerprint each
//! chunk, and call two pages reprints when M of their chunk signatures are equal. Matching
//! sorts `(fingerprint, doc, chunk)` triples instead of comparing all pairs. The book's Table
//! 7-5 [L2610–L2616] runs it with the whole document, 4 and 2 lines per chunk. M is not given
//! (digest C-1): default 2, or every chunk of the shorter page when it has fewer.
//!
//! ```
//! use tianwang::engine::dedup::segments::chunks;
//! let text = "第一行\n第二行\n\n第三行\n第四行\n第五行";
//! assert_eq!(chunks(text, 2).len(), 3);
//! assert_eq!(chunks(text, 0).len(), 1);
//! ```

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use super::features::{hash_chars, normalise};
use super::{Found, Pair, Prepared, Relation};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// The chunks of `text`: every `lines` non-empty lines (0 = the whole text), normalised.
pub fn chunks(text: &str, lines: usize) -> Vec<Vec<char>> {
    let ls: Vec<&str> = text.lines().filter(|l| !normalise(l).is_empty()).collect();
    if lines == 0 {
        let n = normalise(text);
        return if n.is_empty() { Vec::new() } else { vec![n] };
    }
    ls.chunks(lines)
        .map(|c| normalise(&c.join("\n")))
        .filter(|c| !c.is_empty())
        .collect()
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, "segments")?;
    let cfg = prep.config();
    let t = Instant::now();
    let sigs: Vec<Vec<u64>> = prep
        .docs()
        .par_iter()
        .map(|d| {
            let mut v: Vec<u64> = chunks(&d.text(), cfg.chunk_lines)
                .iter()
                .map(|c| hash_chars(c))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let signatures_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut triples: Vec<(u64, u32)> = sigs
        .iter()
        .enumerate()
        .flat_map(|(d, s)| s.iter().map(move |&f| (f, d as u32)))
        .collect();
    triples.par_sort_unstable();
    let max_df = cfg.max_df_for(prep.len());
    let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
    let mut pruned = 0usize;
    for run in triples.chunk_by(|x, y| x.0 == y.0) {
        if run.len() > max_df {
            pruned += 1;
            continue;
        }
        for (i, x) in run.iter().enumerate() {
            for y in &run[i + 1..] {
                *shared.entry((x.1, y.1)).or_default() += 1;
            }
        }
    }
    let mut pairs: Vec<Pair> = shared
        .into_iter()
        .filter_map(|((a, b), c)| {
            let (a, b) = (a as usize, b as usize);
            let fewer = sigs[a].len().min(sigs[b].len());
            let m = cfg.segment_m.min(fewer) as u32;
            (c >= m.max(1)).then(|| Pair {
                a,
                b,
                relation: Relation::Near,
                score: c as f64 / sigs[a].len().max(sigs[b].len()) as f64,
            })
        })
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    Ok((
        Found {
            pairs,
            stats: vec![
                ("chunks".into(), triples.len() as f64),
                ("pruned_signatures".into(), pruned as f64),
            ],
            signatures_s,
            match_s: t.elapsed().as_secs_f64(),
            ..Found::default()
        },
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use crate::engine::dedup::{Config, Doc, Method, run as dedup};

    #[test]
    fn m_of_n_chunks() {
        let body = "第一段讲天网。\n第二段讲搜索。\n第三段讲索引。\n第四段讲排序。\n第五段讲缓存。\n第六段讲日志。";
        let edited = body.replace("第六段讲日志。", "第六段改写了。");
        let docs = vec![
            Doc::new("a", "", body),
            Doc::new("b", "", &edited),
            Doc::new("c", "", "完全不同的一行。\n另一行。"),
        ];
        let mut cfg = Config {
            chunk_lines: 2,
            ..Config::default()
        };
        let out = dedup(&docs, Method::Segments, &cfg, &()).unwrap();
        assert_eq!(out.pairs.len(), 1, "2 of 3 chunks equal");
        cfg.segment_m = 3;
        assert!(
            dedup(&docs, Method::Segments, &cfg, &())
                .unwrap()
                .pairs
                .is_empty()
        );
        cfg.chunk_lines = 0;
        cfg.segment_m = 1;
        assert!(
            dedup(&docs, Method::Segments, &cfg, &())
                .unwrap()
                .pairs
                .is_empty()
        );
    }
}
