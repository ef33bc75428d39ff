//! WU(q,p), the user-feedback weight of Tianwang's ranking, book §10.3.3 [L3821–L3884], from a
//! click log (SogouQ or the book's click log: query, rank of the clicked result, URL):
//!
//! - each click adds the position factor c(pos) of Table 10-3 (a click on result 15 counts
//!   3.88: few users ever see page 2) — eq. (10-1);
//! - days are decayed, WUA = Σᵢ kⁱ·WUDᵢ with i = days before the log's last day — eq. (10-3)'s
//!   recursion unrolled (k = 0.8 by default; the book gives none);
//! - WU = WUA / max over the query's pages — eq. (10-5). (The new-page term WUC of (10-4) needs
//!   an indexing date per page and is left out: added to every page it only shifts the scores.)
//!
//! Clicked URLs are matched to documents by URL or key; queries by the query log's
//! normalisation (width, trim, collapse, case).
//!
//! ```
//! use tianwang::engine::index::clicks::Clicks;
//! let mut c = Clicks::default();
//! c.add("北京大学", 0, 1, 0);
//! c.add("北京大学", 1, 15, 0);
//! c.finish(0.8);
//! let wu = c.for_query("北京大学").unwrap();
//! assert_eq!(wu[&1], 1.0); // 3.88 beats 1.00
//! ```

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::reader::Index;
use super::score::position_factor;
use crate::engine::error::{EngineError, Result};
use crate::engine::querylog::{Format, Normalise, read::ReadConfig};

/// Click weights per normalised query and document.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Clicks {
    /// query → day → doc → WUD.
    raw: HashMap<String, HashMap<i64, HashMap<u32, f64>>>,
    /// query → doc → WU (after [`Clicks::finish`]).
    wu: HashMap<String, HashMap<u32, f64>>,
    pub clicks: u64,
    pub matched: u64,
    pub days: usize,
    pub decay: f64,
}

fn norm(q: &str) -> String {
    Normalise::default().apply(q).into_owned()
}

impl Clicks {
    /// One click on `doc` shown at `rank` (1-based) for `query`, `day` days since 1970.
    pub fn add(&mut self, query: &str, doc: u32, rank: usize, day: i64) {
        *self
            .raw
            .entry(norm(query))
            .or_default()
            .entry(day)
            .or_default()
            .entry(doc)
            .or_default() += position_factor(rank);
    }

    /// Decay the days by `k` and normalise per query.
    pub fn finish(&mut self, k: f64) {
        self.decay = k;
        let last = self
            .raw
            .values()
            .flat_map(|d| d.keys().copied())
            .max()
            .unwrap_or(0);
        let mut days = std::collections::HashSet::new();
        self.wu = self
            .raw
            .iter()
            .map(|(q, by_day)| {
                let mut wua: HashMap<u32, f64> = HashMap::new();
                for (&day, docs) in by_day {
                    days.insert(day);
                    let f = k.powi((last - day).clamp(0, i64::from(i32::MAX)) as i32);
                    for (&d, &w) in docs {
                        *wua.entry(d).or_default() += f * w;
                    }
                }
                let max = wua.values().copied().fold(0.0, f64::max);
                if max > 0.0 {
                    for v in wua.values_mut() {
                        *v /= max;
                    }
                }
                (q.clone(), wua)
            })
            .collect();
        self.days = days.len();
    }

    /// WU of the documents clicked for `query`.
    pub fn for_query(&self, query: &str) -> Option<HashMap<u32, f64>> {
        self.wu.get(&norm(query)).cloned()
    }

    /// Queries with clicks.
    pub fn queries(&self) -> usize {
        self.wu.len()
    }

    /// A click log stored in a workspace (an imported one, or the workspace's own clicks:
    /// `querylog::own`) against `ix`'s documents.
    pub(crate) fn from_stored(
        conn: &rusqlite::Connection,
        log_id: i64,
        ix: &Index,
        decay: f64,
    ) -> Result<Clicks> {
        check_decay(decay)?;
        let by_url = doc_keys(ix);
        let mut c = Clicks::default();
        crate::engine::querylog::persist::load(conn, log_id, &mut |r| {
            c.push(&by_url, r);
            Ok(())
        })?;
        c.finish(decay);
        Ok(c)
    }

    fn push(&mut self, by_url: &HashMap<&str, u32>, r: &crate::engine::querylog::Record<'_>) {
        let (Some(url), Some(rank)) = (r.url, r.rank) else {
            return;
        };
        self.clicks += 1;
        if let Some(&d) = by_url.get(url.trim()) {
            self.matched += 1;
            let day = r
                .time
                .filter(|_| r.dated)
                .map_or(0, |t| t.div_euclid(86_400));
            self.add(r.query, d, rank as usize, day);
        }
    }

    /// Read a click log (SogouQ or the book's click format) against `ix`'s documents.
    pub fn read(path: &Path, format: Format, ix: &Index, decay: f64) -> Result<Clicks> {
        check_decay(decay)?;
        let by_url = doc_keys(ix);
        let mut c = Clicks::default();
        crate::engine::querylog::read::read_file(path, &ReadConfig::new(format), &(), &mut |r| {
            c.push(&by_url, r);
            Ok(())
        })?;
        c.finish(decay);
        Ok(c)
    }
}

fn check_decay(decay: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&decay) {
        return Err(EngineError::invalid(
            "--click-decay",
            "must be between 0 and 1",
        ));
    }
    Ok(())
}

/// Each document by its URL and by its key.
fn doc_keys(ix: &Index) -> HashMap<&str, u32> {
    ix.docs
        .iter()
        .enumerate()
        .flat_map(|(i, d)| [(d.url.as_str(), i as u32), (d.key.as_str(), i as u32)])
        .filter(|(u, _)| !u.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn older_days_decay() {
        let mut c = Clicks::default();
        c.add("q", 0, 1, 10); // today
        c.add("q", 1, 1, 9); // yesterday
        c.add("q", 1, 1, 9);
        c.finish(0.4);
        let wu = c.for_query("q").unwrap();
        // doc 1: 2 × 0.4 = 0.8 < doc 0: 1.0
        assert_eq!(wu[&0], 1.0);
        assert!((wu[&1] - 0.8).abs() < 1e-12);
        assert_eq!(c.days, 2);
    }
}
