//! The search engine proper, book ch. 4.4, 5, 8 and 10: the inverted file built from a
//! corpus, the query service over it, and the ranking models.
//!
//! | module | question |
//! |---|---|
//! | `source` | What is indexed? A TSV, a folder of txt/html, the workspace's pages (DocView title and body, in-link anchors, URL words, LHN, crawl time), WARC files (the same pages without in-link anchors or LHN) |
//! | `tagweight` | How much does a tag lift a word? Table 10-2's weights, the page's text runs with their tag sums |
//! | `build` | How is the inverted file made? Segmentation, runs under a memory budget, the multiway merge |
//! | `merge` | How do the runs become one file? Sorted runs written and read back, the multiway merge |
//! | `disk` | How does it lie on disk? Posting blocks, the lexicon, the document table |
//! | `generations`, `seal` | Which generation is read, who may build or remove one; every file's checksum footer |
//! | `codec` | How are posting lists stored small? d-gaps and every code of §8.3.1 |
//! | `reader` | What does the index hold? Lexicon, postings, documents, stored text |
//! | `query` | Which documents match? Query syntax, rarest-first AND with skips, OR, phrases |
//! | `score` | How is a match scored? BM25, TF-IDF/VSM, Tianwang's WB/WL/WU, each part named |
//! | `linkweight`, `clicks` | WL from links (LHN or PageRank), WU from a click log |
//! | `snippet` | What does a result show? The dynamic abstract (Fig 5-3) and the highlighted snapshot |
//! | `search` | The query service: a page of ranked, explained hits |
//! | `browse` | What is in the index? A term's postings and codec sizes, a document's terms |
//! | `perfmodel` | What response time and throughput does an inverted file allow? §8.4's model (8-1), (8-2), Tables 8-1 and 8-2, the throughput planner |
//! | `evaluate`, `job` | How good is a ranking (runs × judgements)? The logged `index-build` job |
//! | `on_engine` | The build's (term, document) sort on DataFusion or Spark, read back into the same merge (feature `bigjobs`; [`build_on`] dispatches) |
//!
//! ```
//! use tianwang::engine::index::codec::{Codec, encode};
//! let e = encode(Codec::VByte, &[1, 200], None).unwrap();
//! assert_eq!(e.bytes.len(), 3);
//! ```

pub mod browse;
pub mod build;
pub mod clicks;
pub mod codec;
pub mod disk;
pub mod evaluate;
pub mod fold;
pub mod generations;
pub mod job;
pub mod linkweight;
pub(crate) mod merge;
#[cfg(feature = "bigjobs")]
pub mod on_engine;
#[cfg(feature = "tantivy-peer")]
pub mod peer_tantivy;
pub mod perfmodel;
pub mod query;
pub mod reader;
mod run_sink;
pub mod score;
pub mod seal;
pub mod search;
pub mod snippet;
pub mod source;
pub mod tagweight;

use std::path::Path;

use crate::engine::error::Result;
use crate::engine::exec::{Engine, EngineConfig};
use crate::engine::jobs::Tick;
use crate::engine::store::Workspace;
use build::IndexConfig;
use disk::Meta;
use source::Source;

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
