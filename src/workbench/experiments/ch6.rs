//! Chapter 6's distributed crawl: the book's load-balance reference run (Table 6-3
//! [L2057–L2070]: each hour node 1 fetches 2 pages and node 2 fetches 3), its normalised
//! variance beside the book's 0.04.
//!
//! ```
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch6"));
//! let r = run_one(find("table-6-3").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok, "{:?}", r.rows);
//! ```

use std::collections::HashMap;

use super::{Ctx, Experiment, Row};
use crate::engine::capacity::{BOOK_REFERENCE_VARIANCE, load_over_time};
use crate::engine::error::{EngineError, Result};

pub(super) static ALL: &[Experiment] = &[Experiment {
    id: "table-6-3",
    title: "Table 6-3: the load-balance reference run (2 : 3 pages an hour)",
    chapter: 6,
    book_ref: "[L2057]",
    panel: "Crawl",
    needs: &[],
    run: table_6_3,
}];

fn table_6_3(_: &Ctx<'_>) -> Result<Vec<Row>> {
    // Ten hours; in each, five fetches: two by node n0, three by node n1.
    let host = |k: usize| format!("n{}", u8::from(k % 5 >= 2));
    let log: Vec<(f64, String)> = (0..50).map(|k| ((k / 5 * 3600) as f64, host(k))).collect();
    let nodes: HashMap<String, usize> = [("n0".to_string(), 0), ("n1".to_string(), 1)].into();
    let r = load_over_time(&log, &nodes, 2, 3600.0)
        .map_err(|e| EngineError::Internal(format!("table-6-3: {e}")))?;
    let mut rows: Vec<Row> = r
        .normalized_variance
        .iter()
        .enumerate()
        .map(|(i, v)| {
            Row::near(
                format!("normalised variance, hour {}", i + 1),
                *v,
                BOOK_REFERENCE_VARIANCE,
                "",
                1e-9,
            )
        })
        .take(3)
        .collect();
    rows.push(Row::ours(
        "busiest node over the mean",
        r.max_over_mean,
        "×",
    ));
    Ok(rows)
}

/// Hosts moved when a node joins [L2107–L2124]: with `hash mod n` → `hash mod (n+1)` a host
/// stays only when both agree, so n/(n+1) of them move (the book's complaint: re-fetching);
/// the two-level mapping of Fig 6-8 moves only the logical nodes handed to the new node,
/// about 1/(n+1). Ours hashes 5,000 hosts for the book's n = 2, 4, 8, 16; the book's numbers
/// are its schemes' fractions at those n.
pub(super) static MOVES: &[Experiment] = &[Experiment {
    id: "hosts-moved-on-join",
    title: "Hosts moved when a crawl node joins: rehash against the two-level mapping",
    chapter: 6,
    book_ref: "[L2107]",
    panel: "Crawl",
    needs: &[],
    run: hosts_moved,
}];

fn hosts_moved(_: &Ctx<'_>) -> Result<Vec<Row>> {
    use crate::engine::capacity::{
        BOOK_NODE_COUNTS, DEFAULT_LOGICAL_BUCKETS, Mapping, moved_on_add,
    };
    let log: Vec<(f64, String)> = (0..5000)
        .map(|i| (f64::from(i), format!("site{i}.example.cn")))
        .collect();
    let mut rows = Vec::new();
    for n in BOOK_NODE_COUNTS {
        let nf = n as f64;
        let internal = |e: String| EngineError::Internal(format!("hosts-moved-on-join: {e}"));
        let re = moved_on_add(&log, n, Mapping::Rehash).map_err(internal)?;
        rows.push(Row::near(
            format!("hosts moved by rehash, {n} → {} nodes", n + 1),
            re.fraction,
            nf / (nf + 1.0),
            "",
            0.03,
        ));
        let two = moved_on_add(
            &log,
            n,
            Mapping::TwoLevel {
                buckets: DEFAULT_LOGICAL_BUCKETS,
            },
        )
        .map_err(internal)?;
        rows.push(Row::near(
            format!(
                "hosts moved by the two-level mapping, {n} → {} nodes",
                n + 1
            ),
            two.fraction,
            1.0 / (nf + 1.0),
            "",
            0.03,
        ));
    }
    Ok(rows)
}
