//! Chapter 3's capacity model of one crawler node (frames and pages per second, the time a
//! page takes, pages per day) [L1140–L1160]: every figure beside the number the book prints.
//!
//! ```
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch3"));
//! let r = run_one(find("capacity-model").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok && r.rows.len() >= 5);
//! ```

use super::{Ctx, Experiment, Row};
use crate::engine::capacity::{CapacityInputs, capacity};
use crate::engine::error::{EngineError, Result};

pub(super) static ALL: &[Experiment] = &[Experiment {
    id: "capacity-model",
    title: "The crawler's capacity model with the book's inputs",
    chapter: 3,
    book_ref: "[L1140]",
    panel: "Crawl",
    needs: &[],
    run: capacity_model,
}];

fn capacity_model(_: &Ctx<'_>) -> Result<Vec<Row>> {
    let r =
        capacity(&CapacityInputs::default()).map_err(|e| EngineError::invalid("capacity", e))?;
    Ok(r.figures
        .iter()
        .filter_map(|f| {
            let book = f.book_value?;
            // The book rounds as it goes; with its rounding ours is its number exactly.
            let tol = (book.abs() * 1e-9).max(1e-9);
            Some(Row::near(&f.label_en, f.value, book, f.unit, tol).with_note(f.line))
        })
        .collect())
}
