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
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::codec::{self, Codec, Encoded};
use crate::engine::error::{EngineError, Result};

/// The on-disk format's version; a reader refuses a newer one. Version 1 had no footers
/// (still read, unverified); version 2 seals every file with [`FOOTER_LEN`] bytes.
pub const FORMAT_VERSION: u32 = 2;

/// Bytes of the footer that ends every file of a version-2 generation: `TWCK`, CRC-32 (LE).
pub const FOOTER_LEN: usize = 8;
const FOOTER_MAGIC: &[u8; 4] = b"TWCK";

fn footer(crc: u32) -> [u8; FOOTER_LEN] {
    let mut f = [0u8; FOOTER_LEN];
    f[..4].copy_from_slice(FOOTER_MAGIC);
    f[4..].copy_from_slice(&crc.to_le_bytes());
    f
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// Whether `bytes` end in a footer (not whether it matches).
pub fn has_footer(bytes: &[u8]) -> bool {
    bytes.len() >= FOOTER_LEN && &bytes[bytes.len() - FOOTER_LEN..][..4] == FOOTER_MAGIC
}

/// The body of a sealed file's bytes, its checksum verified; `path` names it in the error.
pub fn unseal<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a [u8]> {
    if !has_footer(bytes) {
        return Err(EngineError::corrupt(
            path,
            "no checksum footer: the file is cut short or was not written by this program",
        ));
    }
    let (body, foot) = bytes.split_at(bytes.len() - FOOTER_LEN);
    let stored = u32::from_le_bytes([foot[4], foot[5], foot[6], foot[7]]);
    if crc32(body) != stored {
        return Err(EngineError::corrupt(
            path,
            "checksum mismatch: bytes were changed after the index was written",
        ));
    }
    Ok(body)
}

/// A sealed file read whole, its checksum verified, without its footer.
pub fn read_sealed(path: &Path) -> Result<Vec<u8>> {
    let mut b = read(path)?;
    let n = unseal(path, &b)?.len();
    b.truncate(n);
    Ok(b)
}

/// Verify a sealed file without holding it (read 1 MB at a time); returns its body's length.
pub fn verify_sealed(path: &Path) -> Result<u64> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let len = f.metadata().map_err(|e| io_err(path, e))?.len();
    let body = len
        .checked_sub(FOOTER_LEN as u64)
        .ok_or_else(|| EngineError::corrupt(path, "no checksum footer: the file is cut short"))?;
    let mut c = flate2::Crc::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut left = body;
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        f.read_exact(&mut buf[..want])
            .map_err(|e| io_err(path, e))?;
        c.update(&buf[..want]);
        left -= want as u64;
    }
    let mut foot = [0u8; FOOTER_LEN];
    f.read_exact(&mut foot).map_err(|e| io_err(path, e))?;
    if !has_footer(&foot) {
        return Err(EngineError::corrupt(
            path,
            "no checksum footer: the file is cut short or was not written by this program",
        ));
    }
    if u32::from_le_bytes([foot[4], foot[5], foot[6], foot[7]]) != c.sum() {
        return Err(EngineError::corrupt(
            path,
            "checksum mismatch: bytes were changed after the index was written",
        ));
    }
    Ok(body)
}

/// Append the footer to a file written unsealed (streamed: the file is not held in memory).
pub fn seal(path: &Path) -> Result<()> {
    use std::io::Read;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| io_err(path, e))?;
    let mut c = flate2::Crc::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|e| io_err(path, e))?;
        if n == 0 {
            break;
        }
        c.update(&buf[..n]);
    }
    f.write_all(&footer(c.sum())).map_err(|e| io_err(path, e))?;
    f.sync_all().map_err(|e| io_err(path, e))
}

/// Write a whole file sealed with its footer, and flush it to disk.
pub fn write_sealed(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    f.write_all(bytes).map_err(|e| io_err(path, e))?;
    f.write_all(&footer(crc32(bytes)))
        .map_err(|e| io_err(path, e))?;
    f.sync_all().map_err(|e| io_err(path, e))
}

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

/// Write the lexicon (terms already sorted), sealed. Returns its bytes before the footer.
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
    write_sealed(path, &out)?;
    Ok(out.len() as u64)
}

/// The longest term an index holds (its length is a u16 in the lexicon).
pub const MAX_TERM_BYTES: usize = u16::MAX as usize;

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
    let corrupt = |what: &str| EngineError::corrupt(path, what);
    if b.get(..4) != Some(b"TWLX") {
        return Err(corrupt("not a lexicon: no TWLX header"));
    }
    let mut at = 4;
    let take = |at: &mut usize, n: usize| -> Result<&[u8]> {
        let s = at
            .checked_add(n)
            .and_then(|end| b.get(*at..end))
            .ok_or_else(|| corrupt("cut short"))?;
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
        return Err(corrupt(&format!(
            "claims {count} terms but its bytes hold at most {room}"
        )));
    }
    let mut out: Vec<Term> = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let l = le(take(&mut at, 2)?) as usize;
        let term = std::str::from_utf8(take(&mut at, l)?)
            .map_err(|_| corrupt("a term is not UTF-8"))?
            .to_string();
        if out.last().is_some_and(|p| p.term >= term) {
            return Err(corrupt("the terms are not in order"));
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
        return Err(corrupt("bytes after the last term"));
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
    use std::io::Read;
    let cur = dir.join("CURRENT");
    // A generation's name is short: read no more than a page of whatever is there.
    let mut head = Vec::new();
    let got = std::fs::File::open(&cur).and_then(|f| f.take(4096).read_to_end(&mut head));
    match got {
        Ok(_) => {
            let s = String::from_utf8_lossy(&head);
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

/// The lock file of an index folder that a build holds while it runs.
pub const BUILD_LOCK: &str = "LOCK";
/// The lock file of a generation that its readers hold shared.
const READ_LOCK: &str = "LOCK";

/// A build's hold on an index folder: one build at a time writes into it. Released on drop
/// (and by the system when the process dies, so a killed build never leaves it locked).
#[derive(Debug)]
pub struct BuildLock {
    _file: std::fs::File,
}

impl BuildLock {
    /// Take the folder's build lock, creating the folder; another build holding it is the
    /// user's error naming the lock file (exit 2).
    pub fn acquire(dir: &Path) -> Result<BuildLock> {
        std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
        let path = dir.join(BUILD_LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io_err(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(BuildLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(EngineError::BadPath {
                path,
                reason: "another build of this index is running; wait for it to finish".into(),
            }),
            Err(std::fs::TryLockError::Error(e)) => Err(io_err(&path, e)),
        }
    }
}

/// A reader's shared hold on a generation: it is not removed while held.
#[derive(Debug)]
pub struct ReadLock {
    _file: Option<std::fs::File>,
}

/// The generation `CURRENT` names, held for reading: a build that names another generation
/// current meanwhile leaves this one in place until the hold is dropped. `None`: no index.
pub fn hold_current(dir: &Path) -> Result<Option<(PathBuf, ReadLock)>> {
    // A build may switch CURRENT and remove the old generation between our reading CURRENT
    // and locking it; then the generation is gone and CURRENT names a newer one: try again.
    for _ in 0..16 {
        let Some(generation) = current_generation(dir)? else {
            return Ok(None);
        };
        let lock_path = generation.join(READ_LOCK);
        let file = match std::fs::File::open(&lock_path) {
            Ok(f) => {
                f.lock_shared().map_err(|e| io_err(&lock_path, e))?;
                Some(f)
            }
            // A generation of format 1 has no lock file; a removed one has no meta either.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io_err(&lock_path, e)),
        };
        if generation.join("meta.json").exists() {
            return Ok(Some((generation, ReadLock { _file: file })));
        }
        if current_generation(dir)?.as_deref() == Some(generation.as_path()) {
            return Err(EngineError::corrupt(
                dir.join("CURRENT"),
                format!(
                    "names {}, which does not exist",
                    generation
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                ),
            ));
        }
    }
    Err(EngineError::BadPath {
        path: dir.to_path_buf(),
        reason: "the index keeps changing while it is opened (builds in a loop?); try again".into(),
    })
}

/// A fresh generation directory in `dir` (numbered after every existing one), with its read
/// lock file. The caller holds the folder's [`BuildLock`].
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
            next = next.max(n.saturating_add(1));
        }
    }
    let g = dir.join(format!("gen-{next}"));
    std::fs::create_dir(&g).map_err(|e| io_err(&g, e))?;
    let lock = g.join(READ_LOCK);
    std::fs::File::create(&lock).map_err(|e| io_err(&lock, e))?;
    Ok(g)
}

/// Name `generation` current (atomically), then remove every other generation, finished or
/// left over from a killed build — but not one a reader holds ([`hold_current`]): that one
/// goes with a later build.
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
            // Held exclusively while it is removed, so a reader locking it meanwhile finds
            // it gone and reads CURRENT again.
            match std::fs::File::open(e.path().join(READ_LOCK)) {
                Ok(f) => {
                    if f.try_lock().is_ok() {
                        let _ = std::fs::remove_dir_all(e.path());
                    }
                }
                Err(_) => {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
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
    fn a_sealed_file_refuses_any_flipped_or_cut_byte() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f.bin");
        let body = b"posting blocks and more".to_vec();
        write_sealed(&p, &body).unwrap();
        assert_eq!(read_sealed(&p).unwrap(), body);
        assert_eq!(verify_sealed(&p).unwrap(), body.len() as u64);
        let good = std::fs::read(&p).unwrap();
        for i in 0..good.len() {
            let mut b = good.clone();
            b[i] ^= 0x10;
            std::fs::write(&p, &b).unwrap();
            assert!(read_sealed(&p).is_err(), "flip at {i}");
            assert!(verify_sealed(&p).is_err(), "flip at {i}");
            std::fs::write(&p, &good[..i]).unwrap();
            let e = read_sealed(&p).unwrap_err();
            assert!(e.to_string().contains("f.bin"), "{e}");
            assert!(verify_sealed(&p).is_err(), "cut at {i}");
        }
        // A file written unsealed and sealed afterwards reads the same.
        std::fs::write(&p, &body).unwrap();
        seal(&p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), good);
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

    #[test]
    fn a_second_build_of_one_folder_is_refused_naming_the_lock() {
        let d = tempfile::tempdir().unwrap();
        let first = BuildLock::acquire(d.path()).unwrap();
        let e = BuildLock::acquire(d.path()).unwrap_err();
        assert!(e.is_user_error());
        assert!(e.to_string().contains("another build"), "{e}");
        assert!(e.to_string().contains(BUILD_LOCK), "{e}");
        drop(first);
        BuildLock::acquire(d.path()).unwrap();
    }

    #[test]
    fn a_held_generation_survives_a_newer_commit() {
        let d = tempfile::tempdir().unwrap();
        let g1 = new_generation(d.path()).unwrap();
        std::fs::write(g1.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g1).unwrap();
        let (held, hold) = hold_current(d.path()).unwrap().unwrap();
        assert_eq!(held, g1);
        let g2 = new_generation(d.path()).unwrap();
        std::fs::write(g2.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g2).unwrap();
        assert!(g1.exists(), "removed under its reader");
        drop(hold);
        let g3 = new_generation(d.path()).unwrap();
        std::fs::write(g3.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g3).unwrap();
        assert!(!g1.exists() && !g2.exists());
        assert_eq!(hold_current(d.path()).unwrap().unwrap().0, g3);
    }

    #[test]
    fn current_naming_a_missing_generation_is_damage_naming_current() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("CURRENT"), "gen-9").unwrap();
        let e = hold_current(d.path()).unwrap_err();
        assert!(e.to_string().contains("CURRENT"), "{e}");
        assert!(e.is_user_error());
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
