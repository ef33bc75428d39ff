//! Chapter 9's user behaviour [L3240–L3393] measured by the query-log lab on a log the lab's
//! generator writes with the book's targets (the book's 1999 log is not available): Table 9-1's
//! result-page shares [L3306], the coverage (9-1) against the book's fit (9-2) [L3254] and
//! "20 % of queries take 80 %" [L3247], and the Hurst exponent by R/S [L3393]. The generator is
//! given the book's targets, so `ok` says the lab measures them back within a tolerance.
//!
//! ```no_run
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch9log"));
//! let r = run_one(find("table-9-1").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok, "{:?}", r.rows);
//! ```

use std::sync::Arc;

use super::{Ctx, Experiment, Row};
use crate::engine::error::{EngineError, Result};
use crate::engine::querylog::Record;
use crate::engine::querylog::book;
use crate::engine::querylog::generate::{GenConfig, generate, query_text};
use crate::engine::querylog::stats::{Collector, Stats, StatsConfig};

pub(super) static ALL: &[Experiment] = &[
    Experiment {
        id: "table-9-1",
        title: "Table 9-1: clicks on result pages 1–5",
        chapter: 9,
        book_ref: "[L3306]",
        panel: "querylog",
        needs: &[],
        run: table_9_1,
    },
    Experiment {
        id: "coverage-9-2",
        title: "Coverage (9-1) of the most frequent queries against the book's fit (9-2)",
        chapter: 9,
        book_ref: "[L3254]",
        panel: "querylog",
        needs: &[],
        run: coverage,
    },
    Experiment {
        id: "hurst",
        title: "Self-similarity: the Hurst exponent by R/S",
        chapter: 9,
        book_ref: "[L3393]",
        panel: "querylog",
        needs: &[],
        run: hurst,
    },
];

/// Requests in the generated log: enough for 800 groups of 500 in the Hurst series.
const LINES: u64 = 400_000;

/// The generated log's statistics, shared by the three experiments of a batch.
fn stats(cx: &Ctx<'_>) -> Result<Arc<Stats>> {
    cx.cache.get("querylog-generated-stats", || {
        let cfg = GenConfig {
            lines: LINES,
            seed: 7,
            ..GenConfig::default()
        };
        let mut c = Collector::new(StatsConfig {
            words: false,
            ..StatsConfig::default()
        });
        let mut n = 0u64;
        generate(&cfg, &(), &mut |g| {
            n += 1;
            if n.is_multiple_of(20_000) {
                cx.tick.tick(0.8 * n as f32 / LINES as f32, "generating")?;
            }
            let q = query_text(g.query);
            let user = g.user.to_string();
            c.push(&Record {
                line: n,
                time: Some(i64::from(g.time)),
                dated: false,
                user: &user,
                query: &q,
                page: None,
                rank: Some(g.rank),
                order: Some(g.order),
                url: None,
                cache: None,
            })
        })?;
        c.finish(cx.tick)
    })
}

/// Click shares (%) of result pages 1–5 on the generated log (Table 10-3 derives from them).
pub(super) fn page_shares(cx: &Ctx<'_>) -> Result<Vec<f64>> {
    let st = stats(cx)?;
    Ok(st.pages.share_pct.iter().take(5).copied().collect())
}

fn table_9_1(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let st = stats(cx)?;
    if st.pages.share_pct.len() < book::PAGE_SHARES_PCT.len() {
        return Err(EngineError::Internal(
            "the generated log has fewer than five result pages".into(),
        ));
    }
    Ok(st
        .pages
        .share_pct
        .iter()
        .zip(book::PAGE_SHARES_PCT)
        .enumerate()
        .map(|(i, (&ours, b))| {
            Row::near(
                format!("clicks on result page {}", i + 1),
                ours,
                b,
                "%",
                1.0,
            )
        })
        .collect())
}

fn coverage(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let st = stats(cx)?;
    let cov = &st.coverage;
    let mut rows = vec![
        Row::shape(
            "volume of the top 20 % of queries",
            cov.at_20pct,
            book::COVERAGE_AT_20PCT,
            "",
            cov.at_20pct >= 0.5 && cov.at_5pct < cov.at_20pct && cov.at_20pct < cov.at_50pct,
            "the book: a fifth of the queries take most of the volume (80 % in 1999); \
             ours must be a majority and rising",
        )
        .with_note("[L3247]"),
        Row::near(
            "distinct queries / requests",
            st.volume.distinct_queries as f64 / st.volume.requests.max(1) as f64,
            book::DISTINCT / book::REQUESTS,
            "",
            0.02,
        )
        .with_note("[L3247]: 1.6e5 of 9.6e5"),
    ];
    for x in [0.2, 0.5] {
        let Some(p) = cov.points.iter().min_by(|a, b| {
            (a.top_fraction - x)
                .abs()
                .total_cmp(&(b.top_fraction - x).abs())
        }) else {
            continue;
        };
        let Some(fit) = p.book_fit else { continue };
        rows.push(Row::shape(
            format!("coverage at x = {:.2}", p.top_fraction),
            p.volume_fraction,
            fit,
            "",
            p.volume_fraction > p.top_fraction,
            "the book's fit (9-2) is concave: the top x of queries cover more than x",
        ));
    }
    Ok(rows)
}

fn hurst(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let st = stats(cx)?;
    let h = st.selfsim.hurst.rs.unwrap_or(f64::NAN);
    let (lo, hi) = book::HURST_BOUNDS;
    Ok(vec![
        Row::near("Hurst exponent (R/S)", h, book::HURST, "", 0.1),
        Row::shape(
            "Hurst exponent within the book's bounding slopes",
            h,
            book::HURST,
            "",
            (lo..=hi).contains(&h),
            "[L3393]: almost all points between slopes 0.58 and 0.82",
        ),
        Row::ours(
            "Hurst exponent (aggregated variance)",
            st.selfsim.variance_time_h.unwrap_or(f64::NAN),
            "",
        ),
    ])
}
