//! The index browser (what Luke does for Lucene): a term's postings with their gaps and the
//! bytes each codec would take, and a document's terms — the forward view of Fig 4-8
//! [L1614–L1628], remade from the stored text with the index's own segmentation, because the
//! inverted file alone cannot answer "which terms does this document have" quickly.
//!
//! ```no_run
//! use tianwang::engine::index::{browse, reader::Index};
//! let ix = Index::open("titles.index".as_ref()).unwrap();
//! for t in browse::doc_terms(&ix, 0).unwrap() {
//!     println!("{} tf {} df {}", t.term, t.tf, t.df);
//! }
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::codec::{self, Codec};
use super::reader::Index;
use crate::engine::error::Result;
use crate::engine::text::segment::Segmenter;

/// One term of a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocTerm {
    pub term: String,
    pub tf: u32,
    /// Its df in the index (0 when the term did not make it into the lexicon).
    pub df: u32,
    /// Character offsets in title + "\n" + body.
    pub positions: Vec<u32>,
}

/// The terms of document `doc`'s title and body, most frequent first.
pub fn doc_terms(ix: &Index, doc: u32) -> Result<Vec<DocTerm>> {
    let text = ix.text(doc)?;
    let cfg = &ix.meta.config;
    let mut map: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    Segmenter::shared().for_each_token_at(
        &text,
        cfg.method,
        cfg.stop_words,
        cfg.all_tokens,
        |t, at| {
            map.entry(t.into_owned()).or_default().push(at as u32);
        },
    );
    let mut out: Vec<DocTerm> = map
        .into_iter()
        .map(|(term, positions)| DocTerm {
            df: ix.term(&term).map_or(0, |t| t.df),
            tf: positions.len() as u32,
            term,
            positions,
        })
        .collect();
    out.sort_by(|a, b| b.tf.cmp(&a.tf).then(a.term.cmp(&b.term)));
    Ok(out)
}

/// A term's postings laid open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TermView {
    pub term: String,
    pub df: u32,
    pub cf: u64,
    pub block_bytes: u32,
    pub docs: Vec<u32>,
    pub keys: Vec<String>,
    pub gaps: Vec<u32>,
    pub tfs: Vec<u32>,
    pub wbt: Vec<f32>,
    pub positions: Vec<Vec<u32>>,
    /// Bytes of the d-gaps in every codec.
    pub gap_bytes: Vec<(Codec, usize)>,
    /// Golomb's b for this list.
    pub golomb_b: u32,
}

/// `term`'s postings, or None when it is not in the lexicon.
pub fn term_view(ix: &Index, term: &str) -> Result<Option<TermView>> {
    let Some(t) = ix.term(term) else {
        return Ok(None);
    };
    let p = ix.postings(t)?;
    let gaps = codec::dgaps(&p.docs);
    let mean = gaps.iter().map(|&g| f64::from(g)).sum::<f64>() / gaps.len().max(1) as f64;
    Ok(Some(TermView {
        term: t.term.clone(),
        df: t.df,
        cf: t.cf,
        block_bytes: t.len,
        keys: p
            .docs
            .iter()
            .map(|&d| ix.docs[d as usize].key.clone())
            .collect(),
        positions: p.positions().map_err(|e| e.within(&ix.generation))?,
        gap_bytes: Codec::ALL
            .iter()
            .map(|&c| (c, codec::encoded_len(c, &gaps, None)))
            .collect(),
        golomb_b: codec::golomb_b(mean),
        gaps,
        docs: p.docs,
        tfs: p.tfs,
        wbt: p.wbt,
    }))
}
