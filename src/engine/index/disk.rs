//! The index on disk and back: a directory holding generations, each complete before it is
//! named current, so a build killed at any moment (kill -9, a full disk) leaves the previous
//! index readable (book ch. 8.2.3 [L2714–L2722]: temporary inverted files merged into the
//! final one).
//!
//! ```text
//! DIR/CURRENT            "gen-7"   (replaced atomically: written to CURRENT.tmp, fsync, rename)
//! DIR/gen-7/meta.json    counts, statistics, the build's configuration and timings
//! DIR/gen-7/docs.json    one entry per docID: key, title, URL, lengths, LHN, crawl time
//! DIR/gen-7/lexicon.bin  terms in byte order: df, cf, offset and length of the posting block
//! DIR/gen-7/postings.bin posting blocks (below)
//! DIR/gen-7/text.bin     each document's title + "\n" + body, for abstracts and snapshots
//! ```
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
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::codec::{self, Codec, Encoded};
use crate::engine::error::{EngineError, Result};

/// The on-disk format's version; a reader refuses a newer one.
pub const FORMAT_VERSION: u32 = 1;

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
    /// Files that could not be read (`file: reason`).
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
    pub segment_s: f64,
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
            .ok_or_else(|| corrupt("a posting block ends inside a number"))?;
        *at += 1;
        v |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 != 0 {
            return u32::try_from(v).map_err(|_| corrupt("a number overflows 32 bits"));
        }
        shift += 7;
        if shift > 35 {
            return Err(corrupt("a number is too long"));
        }
    }
}

/// A damaged posting block: `postings.bin`, named relative to its generation (the reader
/// completes the path, [`EngineError::within`]).
fn corrupt(what: &str) -> EngineError {
    EngineError::corrupt(POSTINGS_FILE, what)
}

/// The posting file of a generation.
pub const POSTINGS_FILE: &str = "postings.bin";

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
        return Err(corrupt("a posting block is cut short"));
    }
    Ok(at)
}

/// Decode a block written by [`encode_block`].
pub fn decode_block(codec: Codec, b: &[u8]) -> Result<Postings> {
    decode_block_with(codec, b, true)
}

/// [`decode_block`], leaving the positions out unless `positions` (then
/// [`Postings::positions`] finds none): the query path reads them only for phrases.
pub fn decode_block_with(codec: Codec, b: &[u8], positions: bool) -> Result<Postings> {
    let mut at = 0;
    let n = read_vbyte(b, &mut at)? as usize;
    // Each posting takes at least a tf byte and its four WBT bytes.
    if n > b.len() / 5 {
        return Err(corrupt(
            "a posting block claims more postings than it holds",
        ));
    }
    let param = read_vbyte(b, &mut at)?;
    let glen = read_vbyte(b, &mut at)? as usize;
    let gap_bytes = b
        .get(at..at + glen)
        .ok_or_else(|| corrupt("a posting block is cut short"))?;
    at += glen;
    let gaps = codec::decode(&Encoded {
        codec,
        n,
        b: param,
        bytes: gap_bytes.to_vec(),
    })?;
    if gaps.len() != n {
        return Err(corrupt("a posting list has the wrong length"));
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
            .ok_or_else(|| corrupt("a posting block is cut short"))?;
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

/// Write the lexicon (terms already sorted).
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
    write_file(path, &out)?;
    Ok(out.len() as u64)
}

/// Read a lexicon written by [`write_lexicon`].
pub fn read_lexicon(path: &Path) -> Result<Vec<Term>> {
    let b = read(path)?;
    let corrupt = |what: &str| EngineError::corrupt(path, what);
    if b.get(..4) != Some(b"TWLX") {
        return Err(corrupt("not a lexicon: no TWLX header"));
    }
    let mut at = 4;
    let take = |at: &mut usize, n: usize| -> Result<&[u8]> {
        let s = b.get(*at..*at + n).ok_or_else(|| corrupt("cut short"))?;
        *at += n;
        Ok(s)
    };
    let count = u64::from_le_bytes(take(&mut at, 8)?.try_into().map_err(|_| corrupt("n"))?);
    let mut out = Vec::with_capacity(count.min(1 << 24) as usize);
    for _ in 0..count {
        let l = u16::from_le_bytes(take(&mut at, 2)?.try_into().map_err(|_| corrupt("l"))?);
        let term = std::str::from_utf8(take(&mut at, l as usize)?)
            .map_err(|_| corrupt("a term is not UTF-8"))?
            .to_string();
        let df = u32::from_le_bytes(take(&mut at, 4)?.try_into().map_err(|_| corrupt("df"))?);
        let cf = u64::from_le_bytes(take(&mut at, 8)?.try_into().map_err(|_| corrupt("cf"))?);
        let off = u64::from_le_bytes(take(&mut at, 8)?.try_into().map_err(|_| corrupt("o"))?);
        let len = u32::from_le_bytes(take(&mut at, 4)?.try_into().map_err(|_| corrupt("n"))?);
        out.push(Term {
            term,
            df,
            cf,
            off,
            len,
        });
    }
    Ok(out)
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| EngineError::BadPath {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

/// An I/O error on `path`, as the user's bad path (a full disk, a read-only folder).
pub(crate) fn io_err(path: &Path, e: std::io::Error) -> EngineError {
    EngineError::BadPath {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

/// Write a whole file and flush it to disk.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    f.write_all(bytes).map_err(|e| io_err(path, e))?;
    f.sync_all().map_err(|e| io_err(path, e))
}

/// The generation `CURRENT` names in `dir`, if any.
pub fn current_generation(dir: &Path) -> Result<Option<PathBuf>> {
    let cur = dir.join("CURRENT");
    match std::fs::read_to_string(&cur) {
        Ok(s) => {
            let name = s.trim();
            if name.is_empty() || name.contains('/') || name.contains('\\') || name.contains("..") {
                return Err(EngineError::corrupt(cur, "names no generation"));
            }
            Ok(Some(dir.join(name)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&cur, e)),
    }
}

/// A fresh generation directory in `dir` (numbered after every existing one).
pub fn new_generation(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    let mut next = 1u64;
    for e in std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .flatten()
    {
        if let Some(n) = e
            .file_name()
            .to_str()
            .and_then(|s| s.strip_prefix("gen-"))
            .and_then(|s| s.parse::<u64>().ok())
        {
            next = next.max(n + 1);
        }
    }
    let g = dir.join(format!("gen-{next}"));
    std::fs::create_dir(&g).map_err(|e| io_err(&g, e))?;
    Ok(g)
}

/// Name `generation` current (atomically), then remove every other generation, finished or
/// left over from a killed build.
pub fn commit_generation(dir: &Path, generation: &Path) -> Result<()> {
    let name = generation
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| EngineError::Internal("a generation without a name".into()))?;
    let tmp = dir.join("CURRENT.tmp");
    write_file(&tmp, name.as_bytes())?;
    let cur = dir.join("CURRENT");
    std::fs::rename(&tmp, &cur).map_err(|e| io_err(&cur, e))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    for e in std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .flatten()
    {
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.starts_with("gen-") && n != name {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    Ok(())
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
    fn generations_commit_atomically() {
        let d = tempfile::tempdir().unwrap();
        assert!(current_generation(d.path()).unwrap().is_none());
        let g1 = new_generation(d.path()).unwrap();
        commit_generation(d.path(), &g1).unwrap();
        let g2 = new_generation(d.path()).unwrap();
        assert_ne!(g1, g2);
        // A build that never committed leaves g1 current.
        assert_eq!(current_generation(d.path()).unwrap().unwrap(), g1);
        commit_generation(d.path(), &g2).unwrap();
        assert_eq!(current_generation(d.path()).unwrap().unwrap(), g2);
        assert!(!g1.exists());
    }
}
