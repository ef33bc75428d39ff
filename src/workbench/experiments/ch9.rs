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

/// LRU on a real block trace (libCacheSim's cloudPhysics sample): the book gives no number for
/// it, so ours is beside libCacheSim 0.3.5's (the `references` set).
pub(super) static REAL: &[Experiment] = &[Experiment {
    id: "lru-cloudphysics",
    title: "LRU miss ratios on the cloudPhysics trace against libCacheSim",
    chapter: 9,
    book_ref: "[L3247]",
    panel: "cache",
    needs: &["cloudphysics", "references"],
    run: lru_cloudphysics,
}];

fn lru_cloudphysics(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    use crate::engine::cache::trace::{ReadOptions, read_file};
    use crate::engine::error::{EngineError, Flaw};
    let trace = read_file(
        &cx.set("cloudphysics")?.join("cloudPhysicsIO.txt"),
        &ReadOptions::default(),
    )?;
    let refs = cx
        .set("references")?
        .join("references/cache_reference_miss_ratios.json");
    let text = std::fs::read_to_string(&refs).map_err(|e| EngineError::Io {
        path: refs.clone(),
        source: e,
    })?;
    let want: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| EngineError::corrupt(&refs, Flaw::with_detail("flaw.not_json", &[], e)))?;
    let want = &want["cloudPhysicsIO.txt"];
    let sizes = [100u64, 1000, 5000];
    let pts = lru_all_sizes(
        trace.reqs.iter().map(|r| (r.id, 1, 1)),
        trace.len() as u64,
        &sizes,
        Warmup::None,
        cx.tick,
    )?;
    let note = "libCacheSim 0.3.5 (the references set)";
    Ok(pts
        .iter()
        .map(|p| {
            let ours = 1.0 - p.hits as f64 / p.requests.max(1) as f64;
            let reference = want[format!("size={} objects", p.size)]["LRU"].as_f64();
            let ok = reference.is_some_and(|r| (ours - r).abs() <= 0.0005);
            Row::shape(
                format!("LRU miss ratio at {} objects", p.size),
                ours,
                serde_json::Value::Null,
                "",
                ok,
                note,
            )
        })
        .collect())
}
