//! WL(p), the link weight of Tianwang's ranking, book §10.3.2 [L3788–L3819]: the external
//! in-degree LHN (links from other hosts only: templates, home pages and self-links are not
//! recommendations [L3799–L3803]), WL′ = ln(LHN + 1) + WLT, WL = WL′ / max WL′ — or, as the
//! alternative the panel offers, PageRank over the same links (ch. 10.2.1).
//!
//! WLT, the new-page compensation, needs a publication time; the index only knows the crawl
//! time, so it is off unless a window is given (`new_page_days`): then
//! WLT = ln(T_now − T_st) − ln(max(T_now − T(p), 1 h)) for pages crawled inside the window.
//!
//! ```
//! use tianwang::engine::index::linkweight::normalise;
//! assert_eq!(normalise(vec![0.0, 2.0, 1.0]), vec![0.0, 1.0, 0.5]);
//! ```

use super::reader::Index;
use super::score::{RankConfig, WlSource};
use crate::engine::error::Result;
use crate::engine::rank::graph::{Graph, GraphStats};
use crate::engine::rank::pagerank::{PageRankConfig, pagerank};

/// Divide by the maximum (all zeros stay zeros).
pub fn normalise(mut v: Vec<f64>) -> Vec<f64> {
    let max = v.iter().copied().fold(0.0, f64::max);
    if max > 0.0 {
        for x in &mut v {
            *x /= max;
        }
    }
    v
}

/// WL for every document of `ix`.
pub(crate) fn wl_vector(ix: &Index, cfg: &RankConfig) -> Result<Vec<f64>> {
    match cfg.wl {
        WlSource::Lhn => {
            let now = chrono::Local::now().timestamp() as f64;
            let window = cfg.new_page_days * 86_400.0;
            Ok(normalise(
                ix.docs
                    .iter()
                    .map(|d| {
                        let mut w = (f64::from(d.lhn) + 1.0).ln();
                        if window > 0.0
                            && let Some(t) = d
                                .crawled_at
                                .as_deref()
                                .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
                        {
                            let age = now - t.timestamp() as f64;
                            if age < window {
                                w += window.ln() - age.max(3600.0).ln();
                            }
                        }
                        w
                    })
                    .collect(),
            ))
        }
        WlSource::Pagerank => {
            let n = ix.docs.len();
            let ids: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let urls = vec![None; n];
            let g = Graph::from_edges(ids, urls, ix.links.clone(), GraphStats::default())?;
            let pr = pagerank(
                &g,
                &PageRankConfig {
                    damping: cfg.damping,
                    ..PageRankConfig::default()
                },
                &(),
                &mut (),
            )?;
            Ok(normalise(pr.scores))
        }
    }
}
