//! The index build on DataFusion or Spark, byte for byte the native build (book ch. 8.2.3
//! [L2714–L2722]: inversion is a sort of (term, document) pairs, which is what a cluster does
//! well). The analysis stays in the workbench's Rust code — segmentation, positions, WBT, the
//! documents' entries and lexicon ids by first appearance ([`crate::engine::index::build`]'s
//! shared pass) — and reaches the engine as two Parquet files: `postings-input` (one row per
//! term and document) and `postings-docs` (one row per document). The plan, the same SQL on
//! both engines, sorts the tuples by `(term_id, doc)` (DataFusion spills when the pool is
//! smaller than the postings) and lists the lexicon; the sorted parts are streamed back
//! through a k-way merge into the same multiway merge, codecs and generation writing as the
//! native runs, so `postings.bin` and `lexicon.bin` are the same bytes.
//!
//! ```no_run
//! use tianwang::engine::bigjobs::{Engine, EngineConfig, index::build_on};
//! use tianwang::engine::index::source::Source;
//! let src = Source::Tsv { path: "titles.tsv".into() };
//! let e = EngineConfig::new(Engine::DataFusion);
//! let meta = build_on(&src, None, "titles.index".as_ref(), &Default::default(), &e, &()).unwrap();
//! println!("{} postings, {} bytes spilled", meta.postings, meta.engine.spilled_bytes);
//! ```

use std::path::Path;

use super::{Engine, EngineConfig};
use crate::engine::error::Result;
use crate::engine::index::build::{self, IndexConfig};
use crate::engine::index::disk::Meta;
use crate::engine::index::source::Source;
use crate::engine::jobs::Tick;
use crate::engine::store::Workspace;

/// Build an index of `src` into `out` on the configured engine: the native build, or export →
/// plan on DataFusion/Spark → the native merge and generation writing. The result is the
/// native build's, with `meta.engine` saying where the postings were sorted.
pub fn build_on(
    src: &Source,
    ws: Option<&Workspace>,
    out: &Path,
    cfg: &IndexConfig,
    engine: &EngineConfig,
    tick: &dyn Tick,
) -> Result<Meta> {
    if engine.engine == Engine::Native {
        return build::build(src, ws, out, cfg, tick);
    }
    engine.validate()?;
    cfg.validate()?;
    #[cfg(feature = "bigjobs")]
    {
        on_engine::build(src, ws, out, cfg, engine, tick)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = (src, ws, out, tick);
        Err(crate::engine::error::EngineError::Internal(
            "unreachable: validate refuses".into(),
        ))
    }
}

#[cfg(feature = "bigjobs")]
pub mod on_engine;
#[cfg(feature = "bigjobs")]
pub mod read;

#[cfg(feature = "bigjobs")]
pub use schemas::{POSTINGS_DOCS, POSTINGS_INPUT};

#[cfg(feature = "bigjobs")]
mod schemas {
    use crate::engine::bigjobs::schema::{Col, SchemaDef, c};

    /// The inverted file's input: term–document–tf tuples with what the posting block stores.
    pub const POSTINGS_INPUT: SchemaDef = SchemaDef {
        name: "postings-input",
        version: 1,
        doc: "One row per (term, document) the analysis found, in document order. The index \
              configuration that cut the terms is in the schema metadata `tianwang.index_config`; \
              sorted by (term_id, doc) the rows are the posting lists.",
        columns: &[
            c(
                "term_id",
                Col::I64,
                false,
                "the native build's lexicon id: terms numbered from 0 by first appearance, \
                 documents in order and a document's terms in byte order",
            ),
            c(
                "term",
                Col::Str,
                false,
                "the term as indexed (lower-cased unless all_tokens)",
            ),
            c(
                "doc",
                Col::I64,
                false,
                "0-based document number in source order (the docID)",
            ),
            c(
                "tf",
                Col::I32,
                false,
                "occurrences of the term in the document",
            ),
            c(
                "wbt",
                Col::F32,
                false,
                "WBT: Σ (W0 + enclosing tags' weights) over the occurrences (§10.3.1)",
            ),
            c(
                "positions",
                Col::ListI32,
                false,
                "ascending character offsets in the document's field stream (tf of them)",
            ),
        ],
    };

    /// What the merge needs per document beside its postings.
    pub const POSTINGS_DOCS: SchemaDef = SchemaDef {
        name: "postings-docs",
        version: 1,
        doc: "One row per document, in docID order: the index's document entry (docs.json), \
              its stored text (text.bin) and its links (links.bin). Companion of postings-input; \
              the schema metadata carries `tianwang.source` and `tianwang.index_config`.",
        columns: &[
            c(
                "doc",
                Col::I64,
                false,
                "0-based document number (the docID)",
            ),
            c(
                "key",
                Col::Str,
                false,
                "the document's name: TSV line, file stem or URL",
            ),
            c("title", Col::Str, false, "title shown in results"),
            c("url", Col::Str, false, "the page's URL; empty for files"),
            c("len", Col::I64, false, "terms indexed (BM25's dl)"),
            c("distinct", Col::I64, false, "distinct terms"),
            c(
                "chars",
                Col::I64,
                false,
                "indexable text size S(p) in characters",
            ),
            c("lhn", Col::I64, false, "external in-degree LHN (§10.3.2)"),
            c("raw_lhn", Col::I64, false, "all in-links"),
            c(
                "crawled_at",
                Col::Str,
                true,
                "crawl time (RFC 3339); null for files",
            ),
            c(
                "norm_tf",
                Col::F32,
                false,
                "cosine norm of normalised tf (VSM)",
            ),
            c(
                "norm_binary",
                Col::F32,
                false,
                "cosine norm of binary weights",
            ),
            c(
                "text",
                Col::Str,
                false,
                "title + \"\\n\" + body, as text.bin stores it",
            ),
            c(
                "out_docs",
                Col::ListI64,
                false,
                "documents of the same source this one links to, once each",
            ),
        ],
    };
}
