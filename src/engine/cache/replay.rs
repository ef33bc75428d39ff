//! The inverted-file access trace of §8.6.3 [L3102–L3106]: replay queries through the query
//! path and log every read of the posting file as `(term ID, access type, offset, length)` —
//! the record the book's instrumented executor wrote, which the cache lab turns into its I/O
//! and PAGE sequences. Access type 0 is a term's document data (d-gaps, tf, tag weights); a
//! query with a phrase also reads the positions, in 32 KB blocks numbered 1, 2, … (the book's
//! fixed-size position objects [L3112–L3114]).
//!
//! ```no_run
//! use tianwang::engine::cache::replay;
//! use tianwang::engine::index::reader::Index;
//! let ix = Index::open("dev.index".as_ref()).unwrap();
//! let log = replay::replay(&ix, &["考研 英语".to_string()]).unwrap();
//! println!("{} reads", log.accesses.len());
//! ```

use serde::Serialize;

use super::trace::FileAccess;
use crate::engine::error::{EngineError, Result};
use crate::engine::index::disk;
use crate::engine::index::query::{self, Op};
use crate::engine::index::reader::Index;

/// Position data is read in blocks of this many bytes (the book's 32 KB objects).
pub(crate) const POSITION_BLOCK: u64 = 32 * 1024;

/// A replayed query stream's reads.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AccessLog {
    pub queries: usize,
    /// Queries with no searchable word (skipped).
    pub empty: usize,
    #[serde(skip)]
    pub accesses: Vec<FileAccess>,
}

/// Replay `queries` (AND, as TSE) against `ix`, logging every posting-file read.
pub fn replay(ix: &Index, queries: &[String]) -> Result<AccessLog> {
    let mut log = AccessLog::default();
    for q in queries {
        log.queries += 1;
        let parsed = match query::parse(q, &ix.meta.config, Op::And) {
            Ok(p) => p,
            Err(EngineError::ParamFlaw { .. }) => {
                log.empty += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        let with_positions = !parsed.phrases.is_empty();
        for t in &parsed.terms {
            let Some(i) = ix
                .lexicon()
                .binary_search_by(|e| e.term.as_str().cmp(t))
                .ok()
            else {
                continue;
            };
            let e = &ix.lexicon()[i];
            let block = ix.block(e)?;
            let doc_len = disk::doc_part_len(block).map_err(|e| e.within(&ix.generation))? as u64;
            log.accesses.push(FileAccess {
                term: i as u64,
                access_type: 0,
                offset: e.off,
                length: doc_len.max(1) as u32,
            });
            if with_positions {
                let pos_len = u64::from(e.len) - doc_len;
                let mut k = 0u64;
                while k * POSITION_BLOCK < pos_len {
                    let len = (pos_len - k * POSITION_BLOCK).min(POSITION_BLOCK);
                    log.accesses.push(FileAccess {
                        term: i as u64,
                        access_type: (k + 1) as u32,
                        offset: e.off + doc_len + k * POSITION_BLOCK,
                        length: len as u32,
                    });
                    k += 1;
                }
            }
        }
    }
    Ok(log)
}

/// Queries from a file: one a line, or `qid<TAB>query` (the evaluation format).
pub(crate) fn read_queries(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match l.split_once('\t') {
            Some((_, q)) => q.trim(),
            None => l.trim(),
        })
        .filter(|q| !q.is_empty())
        .map(str::to_string)
        .collect()
}
