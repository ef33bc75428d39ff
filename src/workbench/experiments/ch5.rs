//! Chapter 5's word segmentation by example (§5.3 [L1478–L1596]): the book's sentences cut by
//! forward maximum match (FMM), its error, and FMM with backtracking — ours word for word
//! beside the book's.
//!
//! ```
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-ch5"));
//! let r = run_one(find("fmm-rmm-examples").unwrap(), &data, &Cache::default(), &());
//! assert!(r.ok, "{:?}", r.rows);
//! ```

use super::{Ctx, Experiment, Row};
use crate::engine::error::Result;
use crate::engine::text::segment::{Method, Segmenter};

pub(super) static ALL: &[Experiment] = &[Experiment {
    id: "fmm-rmm-examples",
    title: "FMM and FMM with backtracking on the book's examples",
    chapter: 5,
    book_ref: "[L1596]",
    panel: "DocView",
    needs: &[],
    run: examples,
}];

/// (sentence, method, the book's cut, where).
const EXAMPLES: &[(&str, Method, &str, &str)] = &[
    ("我的笔记本", Method::Fmm, "我/的/笔记本", "[L1482]"),
    (
        "学历史知识",
        Method::Fmm,
        "学历/史/知识",
        "[L1596] FMM's error",
    ),
    (
        "学历史知识",
        Method::FmmBt,
        "学/历史/知识",
        "[L1596] fixed by backtracking",
    ),
];

fn examples(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let seg = Segmenter::shared();
    let mut rows = Vec::new();
    for (i, (text, m, book, at)) in EXAMPLES.iter().enumerate() {
        cx.tick.tick(i as f32 / EXAMPLES.len() as f32, text)?;
        let ours: Vec<String> = seg.cut(text, *m).into_iter().map(|t| t.word).collect();
        rows.push(Row::exact(format!("{} {text}", m.name()), ours.join("/"), *book).with_note(at));
    }
    Ok(rows)
}
