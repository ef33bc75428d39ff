//! The index on disk and back: a directory holding generations, each complete before it is
//! named current, so a build killed at any moment (kill -9, a full disk) leaves the previous
//! index readable (book ch. 8.2.3 [L2714–L2722]: temporary inverted files merged into the
//! final one).
//!
//! ```text
//! DIR/CURRENT            "gen-7"   (replaced atomically: written to CURRENT.tmp, fsync, rename)
//! DIR/LOCK               held by the one build running (a second is refused, naming it)
//! DIR/gen-7/LOCK         held shared by every reader of the generation; removed only when free
//! DIR/gen-7/meta.json    counts, statistics, the build's configuration and timings
//! DIR/gen-7/docs.json    one entry per docID: key, title, URL, lengths, LHN, crawl time
//! DIR/gen-7/lexicon.bin  terms in byte order: df, cf, offset and length of the posting block
//! DIR/gen-7/postings.bin posting blocks (below)
//! DIR/gen-7/text.bin     each document's title + "\n" + body, for abstracts and snapshots
//! ```
//!
//! Every file of a generation (format 2) ends in an 8-byte footer, `TWCK` and the CRC-32 of
//! the bytes before it (as Lucene's and tantivy's file footers do), verified when the index is
//! opened: a flipped, zeroed or cut byte anywhere is refused naming the file, never searched.
//! Every length and count read from a file is checked against the bytes that hold it before
//! anything is allocated, and every document id against the documents.
//!
//! A posting block: `n` (vbyte), the d-gaps' byte length (vbyte), the d-gaps in the index's
//! codec (`codec`), `n` term frequencies (vbyte), `n` tag weights WBT (f32 LE), then for each
//! document its `tf` positions as gaps (vbyte; positions are character offsets in the
//! document's field stream, so phrases match on adjacency).
//!
//! ```
//! use tianwang::engine::index::disk::{read_vbyte, write_vbyte};
//! let mut b = Vec::new();
//! write_vbyte(&mut b, 300);
//! let mut at = 0;
//! assert_eq!(read_vbyte(&b, &mut at).unwrap(), 300);
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::codec::{self, Codec, Encoded};
use crate::engine::error::{EngineError, Flaw, Result};

pub(crate) use super::generations::commit_generation_syncing;
pub use super::generations::{
    BUILD_LOCK, BuildLock, ReadLock, commit_generation, current_generation, hold_current,
    new_generation,
};
pub use super::seal::{
    FOOTER_LEN, has_footer, read_sealed, seal, unseal, verify_sealed, write_sealed,
};
pub(crate) use super::seal::{seal_unsynced, write_sealed_unsynced};

/// The on-disk format's version; a reader refuses a newer one. Version 1 had no footers
/// (still read, unverified); version 2 seals every file with [`FOOTER_LEN`] bytes.
pub(crate) const FORMAT_VERSION: u32 = 2;

/// What a build writes about itself.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    pub version: u32,
    /// What was indexed (`tsv …`, `folder …`, `workspace …`).
    pub source: String,
    pub built_at: String,
    pub config: super::build::IndexConfig,
    pub docs: u64,
    pub terms: u64,
    /// (term, document) pairs.
    pub postings: u64,
    /// Term occurrences T_N.
    pub occurrences: u64,
    /// Average document length in terms (BM25's avgdl).
    pub avg_len: f64,
    /// The largest indexable text size S_max in characters (WB's DS [L3774–L3778]).
    pub max_chars: u64,
    /// max WB′ over all terms and pages, with DS = ln(S_max/S) (book) and ln(1 + S_max/S).
    pub wb_max_book: f64,
    pub wb_max_smooth: f64,
    /// Bytes the document gaps of every posting list take in each codec.
    pub bytes_by_codec: BTreeMap<String, u64>,
    /// Bytes of each part of this index.
    pub bytes: PartBytes,
    pub timings: Timings,
    /// Temporary inverted files (runs) written and merged.
    pub runs: usize,
    /// The most the in-memory postings buffer held, in bytes (≤ the budget).
    pub peak_buffer_bytes: u64,
    /// For a workspace build: the newest snapshot id then (a re-crawl makes the index stale).
    pub workspace_snapshot: Option<i64>,
    /// Files that could not be read, and what else the reader said of a file: a name that
    /// is not UTF-8 and its key, a word too long to index (`file: reason`).
    pub skipped: Vec<String>,
    /// Where the postings were grouped (native for indexes built before engines existed).
    #[serde(default)]
    pub engine: EngineRun,
}

/// The engine of a build and what it reported (`engine::exec`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct EngineRun {
    pub engine: crate::engine::exec::Engine,
    /// Spark's master URL, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// DataFusion's memory pool in MB (0 on the native engine).
    #[serde(default)]
    pub pool_mb: usize,
    /// Bytes DataFusion spilled to disk while sorting the postings.
    #[serde(default)]
    pub spilled_bytes: u64,
    /// Seconds of the engine's plan (the export and the merge are in `timings`).
    #[serde(default)]
    pub engine_s: f64,
    /// Postings tuples the engine sorted.
    #[serde(default)]
    pub tuples: u64,
}

/// Bytes per part.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PartBytes {
    pub doc_gaps: u64,
    pub tfs: u64,
    pub wbt: u64,
    pub positions: u64,
    pub postings_file: u64,
    pub lexicon_file: u64,
    pub docs_file: u64,
    pub text_file: u64,
}

/// Seconds per build stage (the book: segmentation dominates [L2722]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Timings {
    pub read_s: f64,
    /// Segmenting the batches on the thread pool (wall time per batch, summed).
    pub segment_s: f64,
    /// Numbering and inverting the segmented batches on the build's thread; it runs while
    /// the pool segments the next batch, so it overlaps `segment_s`.
    pub invert_s: f64,
    pub merge_s: f64,
    pub total_s: f64,
}

/// One document's entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct DocInfo {
    pub key: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub url: String,
    /// Terms indexed (BM25's dl).
    pub len: u32,
    /// Distinct terms.
    pub distinct: u32,
    /// Indexable text size S(p) in characters (title + body).
    pub chars: u32,
    #[serde(default)]
    pub lhn: u32,
    #[serde(default)]
    pub raw_lhn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawled_at: Option<String>,
    /// Where title + "\n" + body sits in text.bin.
    pub text_off: u64,
    pub text_len: u32,
    /// Cosine norms of the VSM variants: normalised tf, binary, tf·idf [L3556–L3575].
    pub norms: [f32; 3],
}

/// A lexicon entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Term {
    pub term: String,
    pub df: u32,
    pub cf: u64,
    pub off: u64,
    pub len: u32,
}

/// A decoded posting list (positions left coded until asked for).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Postings {
    pub docs: Vec<u32>,
    pub tfs: Vec<u32>,
    pub wbt: Vec<f32>,
    /// The coded d-gaps as stored (for the index browser).
    pub gap_bytes: usize,
    positions: Vec<u8>,
}

impl Postings {
    /// Every document's positions, in list order.
    pub fn positions(&self) -> Result<Vec<Vec<u32>>> {
        let mut at = 0;
        let mut out = Vec::with_capacity(self.docs.len());
        for &tf in &self.tfs {
            // Each position takes at least a byte.
            let mut p = Vec::with_capacity((tf as usize).min(self.positions.len()));
            let mut acc = 0u32;
            for _ in 0..tf {
                acc = acc.wrapping_add(read_vbyte(&self.positions, &mut at)?);
                p.push(acc);
            }
            out.push(p);
        }
        Ok(out)
    }
}

/// vbyte (the book's ByteCode): 7 bits a byte, low group first, the high bit marks the last.
pub fn write_vbyte(out: &mut Vec<u8>, mut v: u32) {
    while v >= 128 {
        out.push((v & 0x7F) as u8);
        v >>= 7;
    }
    out.push(v as u8 | 0x80);
}

/// Read one vbyte value at `*at`, advancing it.
pub fn read_vbyte(b: &[u8], at: &mut usize) -> Result<u32> {
    let (mut v, mut shift) = (0u64, 0u32);
    loop {
        let byte = *b
            .get(*at)
            .ok_or_else(|| corrupt(Flaw::new("flaw.number_in_block", &[])))?;
        *at += 1;
        v |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 != 0 {
            return u32::try_from(v).map_err(|_| corrupt(Flaw::new("flaw.number_overflow", &[])));
        }
        shift += 7;
        if shift > 35 {
            return Err(corrupt(Flaw::new("flaw.number_too_long", &[])));
        }
    }
}

/// A damaged posting block: `postings.bin`, named relative to its generation (the reader
/// completes the path, [`EngineError::within`]).
fn corrupt(what: Flaw) -> EngineError {
    EngineError::corrupt(POSTINGS_FILE, what)
}

/// The posting file of a generation.
pub(crate) const POSTINGS_FILE: &str = "postings.bin";

/// Encode one term's list into a block. Returns the block and the d-gap bytes.
pub fn encode_block(
    codec: Codec,
    docs: &[u32],
    tfs: &[u32],
    wbt: &[f32],
    positions: &[Vec<u32>],
) -> Result<(Vec<u8>, PartBytes)> {
    let gaps = codec::dgaps(docs);
    let e = codec::encode(codec, &gaps, None)?;
    let mut out = Vec::with_capacity(e.bytes.len() + docs.len() * 8);
    // Documents are numbered by u32, so a list never holds more.
    let n = u32::try_from(docs.len())
        .map_err(|_| EngineError::Internal("more postings than document ids".into()))?;
    write_vbyte(&mut out, n);
    write_vbyte(&mut out, e.b);
    write_vbyte(&mut out, e.bytes.len() as u32);
    out.extend_from_slice(&e.bytes);
    let mut parts = PartBytes {
        doc_gaps: e.bytes.len() as u64,
        ..PartBytes::default()
    };
    let before = out.len();
    for &t in tfs {
        write_vbyte(&mut out, t);
    }
    parts.tfs = (out.len() - before) as u64;
    for &w in wbt {
        out.extend_from_slice(&w.to_le_bytes());
    }
    parts.wbt = 4 * wbt.len() as u64;
    let before = out.len();
    for p in positions {
        let mut prev = 0u32;
        for &x in p {
            write_vbyte(&mut out, x.wrapping_sub(prev));
            prev = x;
        }
    }
    parts.positions = (out.len() - before) as u64;
    Ok((out, parts))
}

/// Bytes of a block before its positions (the document data: header, d-gaps, tf, WBT).
pub fn doc_part_len(b: &[u8]) -> Result<usize> {
    let mut at = 0;
    let n = read_vbyte(b, &mut at)? as usize;
    let _param = read_vbyte(b, &mut at)?;
    let glen = read_vbyte(b, &mut at)? as usize;
    at += glen;
    for _ in 0..n {
        read_vbyte(b, &mut at)?;
    }
    at += 4 * n;
    if at > b.len() {
        return Err(corrupt(Flaw::new("flaw.block_cut_short", &[])));
    }
    Ok(at)
}

/// Decode a block written by [`encode_block`].
pub fn decode_block(codec: Codec, b: &[u8]) -> Result<Postings> {
    decode_block_with(codec, b, true)
}

/// [`decode_block`], leaving the positions out unless `positions` (then
/// [`Postings::positions`] finds none): the query path reads them only for phrases.
pub(crate) fn decode_block_with(codec: Codec, b: &[u8], positions: bool) -> Result<Postings> {
    let mut at = 0;
    let n = read_vbyte(b, &mut at)? as usize;
    // Each posting takes at least a tf byte and its four WBT bytes.
    if n > b.len() / 5 {
        return Err(corrupt(Flaw::new("flaw.block_claims", &[])));
    }
    let param = read_vbyte(b, &mut at)?;
    let glen = read_vbyte(b, &mut at)? as usize;
    let gap_bytes = b
        .get(at..at + glen)
        .ok_or_else(|| corrupt(Flaw::new("flaw.block_cut_short", &[])))?;
    at += glen;
    let gaps = codec::decode(&Encoded {
        codec,
        n,
        b: param,
        bytes: gap_bytes.to_vec(),
    })?;
    if gaps.len() != n {
        return Err(corrupt(Flaw::new("flaw.list_length", &[])));
    }
    let docs = codec::undo_gaps(&gaps);
    let mut tfs = Vec::with_capacity(n);
    for _ in 0..n {
        tfs.push(read_vbyte(b, &mut at)?);
    }
    let mut wbt = Vec::with_capacity(n);
    for _ in 0..n {
        let w = b
            .get(at..at + 4)
            .ok_or_else(|| corrupt(Flaw::new("flaw.block_cut_short", &[])))?;
        wbt.push(f32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        at += 4;
    }
    Ok(Postings {
        docs,
        tfs,
        wbt,
        gap_bytes: glen,
        positions: if positions {
            b[at..].to_vec()
        } else {
            Vec::new()
        },
    })
}

/// Write the lexicon (terms already sorted), sealed but not yet flushed to disk (the build
/// syncs its generation's files together before naming it current). Returns its bytes
/// before the footer.
pub fn write_lexicon(path: &Path, terms: &[Term]) -> Result<u64> {
    let mut out = Vec::with_capacity(terms.len() * 32);
    out.extend_from_slice(b"TWLX");
    out.extend_from_slice(&(terms.len() as u64).to_le_bytes());
    for t in terms {
        let bytes = t.term.as_bytes();
        let l = u16::try_from(bytes.len()).map_err(|_| {
            let head: String = t.term.chars().take(20).collect();
            EngineError::invalid(
                "source",
                format!(
                    "a term of {} bytes ({head:?}…) is longer than an index term can be (65 535 bytes); leave that text out",
                    bytes.len()
                ),
            )
        })?;
        out.extend_from_slice(&l.to_le_bytes());
        out.extend_from_slice(bytes);
        out.extend_from_slice(&t.df.to_le_bytes());
        out.extend_from_slice(&t.cf.to_le_bytes());
        out.extend_from_slice(&t.off.to_le_bytes());
        out.extend_from_slice(&t.len.to_le_bytes());
    }
    write_sealed_unsynced(path, &out)?;
    Ok(out.len() as u64)
}

/// The longest term an index holds (its length is a u16 in the lexicon).
pub(crate) const MAX_TERM_BYTES: usize = u16::MAX as usize;

/// Bytes of a lexicon entry besides its term: length, df, cf, offset, block length.
const ENTRY_FIXED: usize = 2 + 4 + 8 + 8 + 4;

/// Read a lexicon written by [`write_lexicon`], its footer verified.
pub fn read_lexicon(path: &Path) -> Result<Vec<Term>> {
    parse_lexicon(path, &read_sealed(path)?)
}

/// A lexicon's entries from its bytes (no footer): the count is checked against the bytes
/// before anything is allocated, and the terms must be in strictly increasing byte order
/// (lookups are binary searches).
pub fn parse_lexicon(path: &Path, b: &[u8]) -> Result<Vec<Term>> {
    let corrupt = |what: Flaw| EngineError::corrupt(path, what);
    if b.get(..4) != Some(b"TWLX") {
        return Err(corrupt(Flaw::new("flaw.no_lexicon_header", &[])));
    }
    let mut at = 4;
    let take = |at: &mut usize, n: usize| -> Result<&[u8]> {
        let s = at
            .checked_add(n)
            .and_then(|end| b.get(*at..end))
            .ok_or_else(|| corrupt(Flaw::new("flaw.cut_short", &[])))?;
        *at += n;
        Ok(s)
    };
    let le = |s: &[u8]| -> u64 {
        let mut v = [0u8; 8];
        v[..s.len()].copy_from_slice(s);
        u64::from_le_bytes(v)
    };
    let count = le(take(&mut at, 8)?);
    let room = (b.len() - at) / ENTRY_FIXED;
    if count > room as u64 {
        return Err(corrupt(Flaw::new("flaw.lexicon_claims", &[&count, &room])));
    }
    let mut out: Vec<Term> = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let l = le(take(&mut at, 2)?) as usize;
        let term = std::str::from_utf8(take(&mut at, l)?)
            .map_err(|_| corrupt(Flaw::new("flaw.term_not_utf8", &[])))?
            .to_string();
        if out.last().is_some_and(|p| p.term >= term) {
            return Err(corrupt(Flaw::new("flaw.terms_order", &[])));
        }
        let df = le(take(&mut at, 4)?) as u32;
        let cf = le(take(&mut at, 8)?);
        let off = le(take(&mut at, 8)?);
        let len = le(take(&mut at, 4)?) as u32;
        out.push(Term {
            term,
            df,
            cf,
            off,
            len,
        });
    }
    if at != b.len() {
        return Err(corrupt(Flaw::new("flaw.after_last_term", &[])));
    }
    Ok(out)
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))
}

/// An I/O error on `path`, as the user's bad path (a full disk, a read-only folder).
pub(crate) fn io_err(path: &Path, e: std::io::Error) -> EngineError {
    EngineError::path_os(path.to_path_buf(), e)
}

/// Write a whole file and flush it to disk.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    f.write_all(bytes).map_err(|e| io_err(path, e))?;
    f.sync_all().map_err(|e| io_err(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_in_every_codec() {
        let docs = [0u32, 3, 4, 90, 1000];
        let tfs = [1u32, 2, 1, 3, 1];
        let wbt = [1.0f32, 2.0, 41.0, 3.0, 1.0];
        let pos = vec![vec![5], vec![0, 9], vec![2], vec![1, 2, 300], vec![70_000]];
        for c in Codec::ALL {
            let (b, parts) = encode_block(c, &docs, &tfs, &wbt, &pos).unwrap();
            let p = decode_block(c, &b).unwrap();
            assert_eq!(p.docs, docs);
            assert_eq!(p.tfs, tfs);
            assert_eq!(p.wbt, wbt);
            assert_eq!(p.positions().unwrap(), pos);
            assert_eq!(p.gap_bytes as u64, parts.doc_gaps);
        }
    }

    #[test]
    fn a_cut_block_is_an_error_not_a_panic() {
        let (b, _) = encode_block(
            Codec::Gamma,
            &[1, 5],
            &[1, 1],
            &[1.0, 1.0],
            &[vec![1], vec![2]],
        )
        .unwrap();
        for cut in 0..b.len() {
            let r = decode_block(Codec::Gamma, &b[..cut]);
            if let Ok(p) = r {
                assert!(p.positions().is_err() || cut == b.len());
            }
        }
    }

    #[test]
    fn a_lexicon_claiming_more_terms_than_its_bytes_is_refused_before_allocating() {
        let mut b = b"TWLX".to_vec();
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        let e = parse_lexicon(Path::new("lexicon.bin"), &b).unwrap_err();
        assert!(e.to_string().contains("claims"), "{e}");
        let terms = [("a", 1u32), ("b", 2)].map(|(t, df)| Term {
            term: t.into(),
            df,
            cf: 1,
            off: 0,
            len: 1,
        });
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("lexicon.bin");
        write_lexicon(&p, &terms).unwrap();
        assert_eq!(read_lexicon(&p).unwrap(), terms);
        // Out of order: binary search would miss terms.
        let swapped = [terms[1].clone(), terms[0].clone()];
        write_lexicon(&p, &swapped).unwrap();
        assert!(read_lexicon(&p).is_err());
    }
}
