//! ByteCode against Golomb [L2732–L2740]: the book compresses Tianwang's posting lists to 0.3359
//! of their size with its byte-aligned ByteCode and to 0.2635 with Golomb, and decodes ByteCode
//! six times faster. Here the index's codecs (`index::codec`) code the d-gaps of a character
//! index (every Chinese character's positions, as Tianwang indexes characters [L2888]) over the
//! embedded sample articles. Another corpus, so `ok` is the book's shape: Golomb smaller,
//! ByteCode faster to decode; the book's numbers beside ours.
//!
//! ```
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-codec"));
//! let r = run_one(find("bytecode-golomb").unwrap(), &data, &Cache::default(), &());
//! assert!(r.rows.iter().any(|x| x.book.is_number()), "{:?}", r.rows);
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use super::{Ctx, Experiment, Row};
use crate::engine::error::Result;
use crate::engine::index::codec::{Codec, decode, dgaps, encode, encoded_len};

pub(super) static ALL: &[Experiment] = &[Experiment {
    id: "bytecode-golomb",
    title: "ByteCode against Golomb: posting-list compression and decode time",
    chapter: 8,
    book_ref: "[L2740]",
    panel: "search",
    needs: &[],
    run: bytecode_golomb,
}];

/// The posting lists (d-gaps) of a character-position index over the sample articles.
fn gap_lists() -> Result<Vec<Vec<u32>>> {
    let mut lists: BTreeMap<char, Vec<u32>> = BTreeMap::new();
    let mut pos = 0u32;
    for a in crate::engine::sample::articles::all()? {
        for ch in a.title.chars().chain(a.body().chars()) {
            if ('\u{4e00}'..='\u{9fff}').contains(&ch) {
                lists.entry(ch).or_default().push(pos);
            }
            pos = pos.saturating_add(1);
        }
    }
    Ok(lists.values().map(|ids| dgaps(ids)).collect())
}

fn bytecode_golomb(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let lists = gap_lists()?;
    cx.tick.tick(0.2, "coding")?;
    let size = |c: Codec| -> usize { lists.iter().map(|g| encoded_len(c, g, None)).sum() };
    let raw = size(Codec::None).max(1) as f64;
    let (vb, gb) = (
        size(Codec::VByte) as f64 / raw,
        size(Codec::Golomb) as f64 / raw,
    );
    let coded = |c: Codec| -> Result<Vec<_>> { lists.iter().map(|g| encode(c, g, None)).collect() };
    let (ev, eg) = (coded(Codec::VByte)?, coded(Codec::Golomb)?);
    let time = |e: &[crate::engine::index::codec::Encoded]| -> Result<f64> {
        let t0 = Instant::now();
        let mut n = 0usize;
        for _ in 0..3 {
            for x in e {
                n += decode(x)?.len();
            }
        }
        std::hint::black_box(n);
        Ok(t0.elapsed().as_secs_f64())
    };
    cx.tick.tick(0.6, "decoding")?;
    let (tv, tg) = (time(&ev)?, time(&eg)?);
    let slower = tg / tv.max(f64::MIN_POSITIVE);
    Ok(vec![
        Row::shape(
            "ByteCode compression ratio",
            vb,
            0.3359,
            "",
            vb < 0.5 && gb < vb,
            "Golomb codes the gaps smaller than ByteCode; both well under half of 32-bit integers",
        ),
        Row::shape(
            "Golomb compression ratio",
            gb,
            0.2635,
            "",
            gb < vb,
            "Golomb smaller than ByteCode",
        ),
        Row::shape(
            "Golomb decode time / ByteCode's",
            slower,
            6.0,
            "×",
            slower > 1.0,
            "ByteCode decodes faster (the book: 1 : 6)",
        ),
    ])
}
