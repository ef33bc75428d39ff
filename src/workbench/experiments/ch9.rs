//! Chapter 9's result cache [L3240–L3440]: the chapter's query stream regenerated with the
//! book's statistics, its infinite-cache ceiling and Table 9-2's LRU hit ratios at six sizes.
//!
//! ```no_run
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch9"));
//! let r = run_one(find("table-9-2").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok, "{:?}", r.rows);
//! ```

use super::{Ctx, Experiment, Row};
use crate::engine::cache::sim::{BOOK_CEILING, TABLE_9_2};
use crate::engine::cache::stack::{Warmup, lru_all_sizes};
use crate::engine::cache::trace::{GenSpec, Generator};
use crate::engine::error::Result;

pub(super) static ALL: &[Experiment] = &[Experiment {
    id: "table-9-2",
    title: "Table 9-2: LRU hit ratios and the infinite-cache ceiling",
    chapter: 9,
    book_ref: "[L3433]",
    panel: "cache",
    needs: &[],
    run: table_9_2,
}];

fn table_9_2(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let trace = Generator::new(GenSpec::chapter9(1.0, 1)).into_trace();
    let st = trace.stats();
    let mut rows = vec![
        Row::near(
            "infinite-cache hit ratio",
            1.0 - st.compulsory_miss_ratio,
            BOOK_CEILING,
            "",
            0.002,
        )
        .with_note("[L3247]"),
    ];
    let sizes: Vec<u64> = TABLE_9_2.iter().map(|t| t.0).collect();
    let pts = lru_all_sizes(
        trace.reqs.iter().map(|r| (r.id, 1, 1)),
        trace.len() as u64,
        &sizes,
        Warmup::None,
        cx.tick,
    )?;
    for (p, (size, book, _)) in pts.iter().zip(TABLE_9_2) {
        let h = p.hits as f64 / p.requests.max(1) as f64;
        rows.push(Row::near(
            format!("LRU hit ratio at {size}"),
            h,
            book,
            "",
            0.012,
        ));
    }
    Ok(rows)
}
