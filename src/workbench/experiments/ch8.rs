//! Chapter 8's performance model of the inverted index [L2860–L2960]: the data one query batch
//! reads (D(α), k), where Table 8-1's two ITF curves cross, and Table 8-2's throughput — the
//! queries per second a disk allows and the largest collection one megabyte per query covers.
//!
//! ```
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch8"));
//! let r = run_one(find("table-8-2").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok, "{:?}", r.rows);
//! ```

use super::{Ctx, Experiment, Row};
use crate::engine::error::{EngineError, Result};
use crate::engine::index::perfmodel::{
    BOOK_BYTES_PER_QUERY, BOOK_IOPS, BOOK_L_Q, BOOK_TF_CHINESE, BOOK_TF_ENGLISH, ModelInput,
    expected_lists_exact, itf_crossing, max_t_n, simplified_m,
};

pub(super) static ALL: &[Experiment] = &[
    Experiment {
        id: "query-data-model",
        title: "Data read per query batch and the largest k",
        chapter: 8,
        book_ref: "[L2860]",
        panel: "search",
        needs: &[],
        run: query_data_model,
    },
    Experiment {
        id: "table-8-1",
        title: "Table 8-1: where the Chinese and English ITF curves cross",
        chapter: 8,
        book_ref: "[L2888]",
        panel: "search",
        needs: &[],
        run: table_8_1,
    },
    Experiment {
        id: "table-8-2",
        title: "Table 8-2: query throughput of a disk and the collection it covers",
        chapter: 8,
        book_ref: "[L2925]",
        panel: "search",
        needs: &[],
        run: table_8_2,
    },
];

fn query_data_model(_: &Ctx<'_>) -> Result<Vec<Row>> {
    let m = ModelInput::default();
    let full = ModelInput {
        full_text: true,
        ..m
    };
    let unlimited = || EngineError::Internal("the book's inputs set no limit on k".into());
    let k = m.k_max_real().ok_or_else(unlimited)?;
    let kf = full.k_max_real().ok_or_else(unlimited)?;
    let lists = expected_lists_exact(5, 3)
        .ok_or_else(|| EngineError::Internal("Stirling sum overflowed".into()))?;
    Ok(vec![
        Row::near("D(α), not full text", m.d_alpha() / 1e6, 1.0, "MB", 1e-9),
        Row::near("D(α), full text", full.d_alpha() / 1e6, 3.0, "MB", 1e-9),
        Row::near("largest k, not full text", k, 20.0, "queries", 0.01),
        Row::near("largest k, full text", kf, 6.7, "queries", 0.05),
        Row::near(
            "lists read, M = 5, k = 3",
            lists.value(),
            2.44,
            "lists",
            1e-9,
        )
        .with_note("Stirling numbers of the second kind"),
    ])
}

fn table_8_1(_: &Ctx<'_>) -> Result<Vec<Row>> {
    let c = itf_crossing()
        .ok_or_else(|| EngineError::Internal("Table 8-1's curves do not cross".into()))?;
    Ok(vec![
        Row::near("ITF where the curves cross", c.itf, 4.0, "ITF", 0.1)
            .with_note("the book: \"near ITF = 4\""),
        Row::ours("rank where the curves cross", c.rank.round(), "rank"),
    ])
}

fn table_8_2(_: &Ctx<'_>) -> Result<Vec<Row>> {
    Ok(vec![
        Row::near(
            "queries per second (IOPS / L_q)",
            simplified_m(BOOK_IOPS, BOOK_L_Q),
            20.0,
            "queries/s",
            1e-9,
        ),
        Row::near(
            "largest T_N, Chinese characters",
            max_t_n(BOOK_TF_CHINESE, BOOK_L_Q, BOOK_BYTES_PER_QUERY) / 1e6,
            400.0,
            "MB",
            1e-6,
        ),
        Row::near(
            "largest T_N, English words",
            max_t_n(BOOK_TF_ENGLISH, BOOK_L_Q, BOOK_BYTES_PER_QUERY) / 1e9,
            4.0,
            "GB",
            1e-9,
        ),
    ])
}
