//! I-Match as seed 002 describes it [002:L71–L113]: segment, compute each word's IDF over the
//! corpus, keep a document's highest-IDF 70 % of distinct words in descending IDF order (ties
//! by bytes; digest D-7), hash that string with one of eight string hashes
//! ([`super::strhash`]) into a table of `buckets` buckets, and within a bucket compare the
//! feature strings: equal strings are duplicates, different ones are collisions. Strict: an
//! edit to a high-IDF word breaks it.
//!
//! ```
//! use tianwang::engine::dedup::{run, Config, Doc, Method};
//! let docs = vec![Doc::new("a", "天网", "天网搜索引擎"), Doc::new("b", "天网", "天网搜索引擎")];
//! assert_eq!(run(&docs, Method::IMatch, &Config::default(), &()).unwrap().pairs.len(), 1);
//! ```

use std::collections::HashMap;
use std::time::Instant;

use super::{Found, Prepared};
use crate::engine::error::Result;
use crate::engine::jobs::Tick;

/// Document `i`'s feature string: its highest-IDF `idf_keep` share of distinct words.
pub(crate) fn feature_string(prep: &Prepared, i: usize) -> String {
    let (words, _) = prep.words();
    let (df, _) = prep.df();
    let mut ws: Vec<&String> = words[i].iter().collect();
    ws.sort_unstable();
    ws.dedup();
    let mut scored: Vec<(f64, &String)> = ws
        .into_iter()
        .map(|w| (prep.idf(df.get(w).copied().unwrap_or(1)), w))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let keep = ((scored.len() as f64) * prep.config().idf_keep).ceil() as usize;
    scored
        .into_iter()
        .take(keep)
        .map(|(_, w)| w.as_str())
        .collect::<Vec<_>>()
        .join("\u{1F}")
}

pub fn run(prep: &Prepared, tick: &dyn Tick) -> Result<(Found, f64)> {
    tick.tick(0.1, "imatch")?;
    let cfg = prep.config();
    let (_, fs) = prep.df();
    let t = Instant::now();
    let strings: Vec<String> = (0..prep.len()).map(|i| feature_string(prep, i)).collect();
    let slots: Vec<u32> = strings
        .iter()
        .map(|s| {
            let h = cfg.hash.hash(s.as_bytes(), cfg.signed_char);
            if cfg.buckets == 0 { h } else { h % cfg.buckets }
        })
        .collect();
    let signatures_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut table: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, s) in strings.iter().enumerate() {
        if !s.is_empty() {
            table.entry(slots[i]).or_default().push(i);
        }
    }
    let (mut groups, mut collisions, mut false_collisions) = (Vec::new(), 0usize, 0usize);
    for bucket in table.values() {
        collisions += bucket.len() - 1;
        // Compare the strings inside the bucket.
        let mut by_string: HashMap<&str, Vec<usize>> = HashMap::new();
        for &i in bucket {
            by_string.entry(strings[i].as_str()).or_default().push(i);
        }
        false_collisions += by_string.len() - 1;
        groups.extend(by_string.into_values().filter(|g| g.len() > 1));
    }
    groups.sort_unstable();
    Ok((
        Found {
            groups,
            stats: vec![
                ("collisions".into(), collisions as f64),
                ("false_collisions".into(), false_collisions as f64),
            ],
            signatures_s,
            match_s: t.elapsed().as_secs_f64(),
            ..Found::default()
        },
        fs,
    ))
}
