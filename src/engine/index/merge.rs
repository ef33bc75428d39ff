//! The runs and the multiway merge of the index build, book ch. 8.2.3 [L2714–L2722]: the
//! postings buffer sorted by term and written as a temporary inverted file (a **run**), each
//! run read back one posting at a time, and all runs merged term by term into `postings.bin`
//! and `lexicon.bin` — a term's lists concatenated run by run, which keeps its documents
//! ascending because every run holds later documents than the one before [L1719]. Every
//! codec is sized on the merged gaps as they pass.
//!
//! The merge reads any [`PostingStream`] sorted by (term, document): the runs' k-way heap
//! ([`KWay`] over [`RunReader`]s) for the native build, or the sorted Parquet parts a big-job
//! engine wrote (`engine::exec::index`), so both end in the same bytes.
//!
//! ```text
//! run:  term doc tf (vbyte) · wbt (f32) · tf position gaps (vbyte)   — one posting after another
//! ```

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use super::codec::{self, Codec};
use super::disk::{self, DocInfo, PartBytes, Term, io_err};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;

fn internal(e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(e.to_string())
}

/// A posting that contradicts the documents or itself: only an external postings input (the
/// user's `--postings-input`, sorted by an engine) can hold one.
fn unknown(what: String) -> EngineError {
    EngineError::invalid("--postings-input", what)
}

/// One posting in the buffer.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub term: u32,
    pub doc: u32,
    pub tf: u32,
    pub wbt: f32,
    /// Where its `tf` positions start in the buffer's position array.
    pub pos: u32,
}

/// Sort the buffer by term (documents stay ascending: the sort is stable) and write it as a
/// run: `term doc tf` (vbyte), `wbt` (f32), `tf` position gaps (vbyte) per posting.
pub(crate) fn write_run(
    dir: &Path,
    n: usize,
    entries: &mut Vec<Entry>,
    positions: &mut Vec<u32>,
) -> Result<PathBuf> {
    sort_entries(entries);
    let path = dir.join(format!("run-{n:04}.bin"));
    let mut w = BufWriter::new(File::create(&path).map_err(|e| io_err(&path, e))?);
    let mut buf = Vec::with_capacity(64);
    for e in entries.iter() {
        buf.clear();
        disk::write_vbyte(&mut buf, e.term);
        disk::write_vbyte(&mut buf, e.doc);
        disk::write_vbyte(&mut buf, e.tf);
        buf.extend_from_slice(&e.wbt.to_le_bytes());
        let mut prev = 0;
        for &p in &positions[e.pos as usize..(e.pos + e.tf) as usize] {
            disk::write_vbyte(&mut buf, p - prev);
            prev = p;
        }
        w.write_all(&buf).map_err(|e| io_err(&path, e))?;
    }
    w.flush().map_err(|e| io_err(&path, e))?;
    // Give the memory back: the budget counts capacity, so a cleared buffer that kept its
    // capacity would count as full and write a run per document.
    *entries = Vec::new();
    *positions = Vec::new();
    Ok(path)
}

/// One posting: a term's occurrences in one document.
/// Order a run's entries by (term, document): the order the merge reads.
fn sort_entries(entries: &mut [Entry]) {
    // In place on the pool's threads: no memory beyond the buffer's.
    entries.par_sort_unstable_by_key(|e| (e.term, e.doc));
}

/// A build's only run, merged straight from its buffer: when the whole corpus fits the
/// memory budget nothing is written to disk and read back (the book's single-pass
/// inversion of a batch that fits in memory [L2718–L2720]).
pub(crate) struct MemRun {
    entries: Vec<Entry>,
    positions: Vec<u32>,
    next: usize,
}

impl MemRun {
    pub(crate) fn new(mut entries: Vec<Entry>, positions: Vec<u32>) -> MemRun {
        sort_entries(&mut entries);
        MemRun {
            entries,
            positions,
            next: 0,
        }
    }
}

impl PostingStream for MemRun {
    fn next_posting(&mut self) -> Result<Option<Posting>> {
        let Some(e) = self.entries.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        let (from, to) = (e.pos as usize, e.pos as usize + e.tf as usize);
        let positions = self
            .positions
            .get(from..to)
            .ok_or_else(|| internal(format!("positions {from}..{to} outside the buffer")))?
            .to_vec();
        Ok(Some(Posting {
            term: e.term,
            doc: e.doc,
            tf: e.tf,
            wbt: e.wbt,
            positions,
        }))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Posting {
    pub term: u32,
    pub doc: u32,
    pub tf: u32,
    pub wbt: f32,
    pub positions: Vec<u32>,
}

/// Postings one at a time, ascending by (term, doc).
pub(crate) trait PostingStream {
    fn next_posting(&mut self) -> Result<Option<Posting>>;
}

/// A run read back one posting at a time.
pub(crate) struct RunReader {
    r: BufReader<File>,
    path: PathBuf,
}

impl RunReader {
    pub(crate) fn open(p: &Path) -> Result<RunReader> {
        let f = File::open(p).map_err(|e| io_err(p, e))?;
        Ok(RunReader {
            r: BufReader::with_capacity(1 << 16, f),
            path: p.to_path_buf(),
        })
    }
}

impl PostingStream for RunReader {
    fn next_posting(&mut self) -> Result<Option<Posting>> {
        self.next()
    }
}

/// The k-way merge of streams each sorted by (term, doc): one stream sorted by (term, doc).
/// (Runs hold later documents than the runs before them, so for the native build this is the
/// book's term-by-term concatenation of the runs' lists.)
pub(crate) struct KWay<S> {
    streams: Vec<S>,
    heads: Vec<Option<Posting>>,
    heap: BinaryHeap<Reverse<(u32, u32, usize)>>,
}

impl<S: PostingStream> KWay<S> {
    pub fn new(mut streams: Vec<S>) -> Result<KWay<S>> {
        let mut heap = BinaryHeap::new();
        let mut heads = Vec::with_capacity(streams.len());
        for (i, s) in streams.iter_mut().enumerate() {
            let h = s.next_posting()?;
            if let Some(h) = &h {
                heap.push(Reverse((h.term, h.doc, i)));
            }
            heads.push(h);
        }
        Ok(KWay {
            streams,
            heads,
            heap,
        })
    }
}

impl<S: PostingStream> PostingStream for KWay<S> {
    fn next_posting(&mut self) -> Result<Option<Posting>> {
        let Some(Reverse((_, _, i))) = self.heap.pop() else {
            return Ok(None);
        };
        let out = self.heads[i].take();
        let next = self.streams[i].next_posting()?;
        if let Some(n) = &next {
            self.heap.push(Reverse((n.term, n.doc, i)));
        }
        self.heads[i] = next;
        Ok(out)
    }
}

impl RunReader {
    fn vbyte(&mut self) -> Result<Option<u32>> {
        let (mut v, mut shift) = (0u64, 0u32);
        let mut b = [0u8; 1];
        loop {
            match self.r.read_exact(&mut b) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && shift == 0 => {
                    return Ok(None);
                }
                Err(e) => return Err(io_err(&self.path, e)),
            }
            v |= u64::from(b[0] & 0x7F) << shift;
            if b[0] & 0x80 != 0 {
                return u32::try_from(v).map(Some).map_err(|_| {
                    EngineError::corrupt(&self.path, Flaw::new("flaw.number_overflow", &[]))
                });
            }
            shift += 7;
        }
    }

    fn need(&mut self) -> Result<u32> {
        self.vbyte()?
            .ok_or_else(|| EngineError::corrupt(&self.path, Flaw::new("flaw.run_in_posting", &[])))
    }

    fn next(&mut self) -> Result<Option<Posting>> {
        let Some(term) = self.vbyte()? else {
            return Ok(None);
        };
        let doc = self.need()?;
        let tf = self.need()?;
        let mut w = [0u8; 4];
        self.r
            .read_exact(&mut w)
            .map_err(|e| io_err(&self.path, e))?;
        let mut positions = Vec::with_capacity(tf as usize);
        let mut acc = 0u32;
        for _ in 0..tf {
            acc += self.need()?;
            positions.push(acc);
        }
        Ok(Some(Posting {
            term,
            doc,
            tf,
            wbt: f32::from_le_bytes(w),
            positions,
        }))
    }
}

pub(crate) struct Merged {
    pub(crate) terms: u64,
    pub(crate) postings: u64,
    pub(crate) max_chars: u64,
    pub(crate) wb_max_book: f64,
    pub(crate) wb_max_smooth: f64,
    pub(crate) bytes_by_codec: BTreeMap<String, u64>,
    pub(crate) parts: PartBytes,
}

/// The multiway merge: postings sorted by (term, doc) → postings.bin + lexicon.bin, with
/// every codec sized on the way. `names[t]` is term `t`'s text (moved into the lexicon); a stream out of order, or
/// naming a term or document that does not exist, is refused.
pub(crate) fn merge(
    generation: &Path,
    stream: &mut dyn PostingStream,
    mut names: Vec<String>,
    docs: &mut [DocInfo],
    codec: Codec,
    tick: &dyn Tick,
) -> Result<Merged> {
    let n = docs.len() as f64;
    let max_chars = docs.iter().map(|d| u64::from(d.chars)).max().unwrap_or(0);
    let smax = max_chars.max(1) as f64;
    let post_path = generation.join("postings.bin");
    let mut out = BufWriter::new(File::create(&post_path).map_err(|e| io_err(&post_path, e))?);
    let mut off = 0u64;
    let mut lex: Vec<Term> = Vec::with_capacity(names.len());
    let mut by_codec = [0u64; Codec::ALL.len()];
    let mut parts = PartBytes::default();
    let (mut wb_book, mut wb_smooth) = (0f64, 0f64);
    let mut norm3 = vec![0f64; docs.len()];
    // ln(Smax/S) and ln(1 + Smax/S) of each document, once (not twice per posting).
    let doc_logs: Vec<(f64, f64)> = docs
        .iter()
        .map(|d| {
            let r = smax / f64::from(d.chars.max(1));
            (r.ln(), (1.0 + r).ln())
        })
        .collect();
    let mut postings = 0u64;
    let (mut ds, mut tfs, mut ws, mut ps) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut head = stream.next_posting()?;
    let mut last_term: Option<u32> = None;
    while let Some(first) = head.take() {
        let term = first.term;
        // Ids and counts that contradict the documents come from an external postings input
        // (the user's `--postings-input`); an order the sort did not keep is our fault.
        if term as usize >= names.len() {
            return Err(unknown(format!(
                "term id {term}, but there are {} terms",
                names.len()
            )));
        }
        if last_term.is_some_and(|l| l >= term) {
            return Err(internal(format!(
                "postings out of order: term {term} after {last_term:?}"
            )));
        }
        last_term = Some(term);
        ds.clear();
        tfs.clear();
        ws.clear();
        ps.clear();
        let mut cur = Some(first);
        while let Some(rec) = cur.take() {
            if rec.term != term {
                head = Some(rec);
                break;
            }
            if rec.doc as usize >= docs.len() {
                return Err(unknown(format!(
                    "term {term}: document {}, but there are {} documents",
                    rec.doc,
                    docs.len()
                )));
            }
            if ds.last().is_some_and(|&l| l >= rec.doc) {
                return Err(internal(format!(
                    "postings of term {term} out of order ({})",
                    rec.doc
                )));
            }
            if rec.positions.len() != rec.tf as usize {
                return Err(unknown(format!(
                    "term {term}, document {}: tf {} but {} positions",
                    rec.doc,
                    rec.tf,
                    rec.positions.len()
                )));
            }
            ds.push(rec.doc);
            tfs.push(rec.tf);
            ws.push(rec.wbt);
            ps.push(rec.positions);
            cur = stream.next_posting()?;
        }
        let df = ds.len();
        let idf = (n / df as f64).ln();
        let mut cf = 0u64;
        for (k, &d) in ds.iter().enumerate() {
            let info = &docs[d as usize];
            cf += u64::from(tfs[k]);
            let (ln_book, ln_smooth) = doc_logs[d as usize];
            let wbt = f64::from(ws[k]);
            wb_book = wb_book.max(wbt * ln_book * idf);
            wb_smooth = wb_smooth.max(wbt * ln_smooth * idf);
            let w = f64::from(tfs[k]) / f64::from(info.len.max(1)) * idf;
            norm3[d as usize] += w * w;
        }
        let gaps = codec::dgaps(&ds);
        for (c, slot) in Codec::ALL.iter().zip(by_codec.iter_mut()) {
            *slot += codec::encoded_len(*c, &gaps, None) as u64;
        }
        let (block, p) = disk::encode_block(codec, &ds, &tfs, &ws, &ps)?;
        out.write_all(&block).map_err(|e| io_err(&post_path, e))?;
        parts.doc_gaps += p.doc_gaps;
        parts.tfs += p.tfs;
        parts.wbt += p.wbt;
        parts.positions += p.positions;
        lex.push(Term {
            // Each term comes once (ids ascend strictly): its text moves to the lexicon.
            term: std::mem::take(&mut names[term as usize]),
            df: df as u32,
            cf,
            off,
            len: block.len() as u32,
        });
        off += block.len() as u64;
        postings += df as u64;
        if lex.len().is_multiple_of(4096) {
            tick.tick(
                0.8 + 0.2 * lex.len() as f32 / names.len().max(1) as f32,
                &format!("merging: {} of {} terms", lex.len(), names.len()),
            )?;
        }
    }
    // Flushed to disk with the rest of the generation, before it is named current.
    out.flush().map_err(|e| io_err(&post_path, e))?;
    for (d, s) in docs.iter_mut().zip(norm3) {
        d.norms[2] = s.sqrt() as f32;
    }
    lex.par_sort_unstable_by(|a, b| a.term.cmp(&b.term));
    parts.postings_file = off;
    parts.lexicon_file = disk::write_lexicon(&generation.join("lexicon.bin"), &lex)?;
    Ok(Merged {
        terms: lex.len() as u64,
        postings,
        max_chars,
        wb_max_book: wb_book,
        wb_max_smooth: wb_smooth,
        bytes_by_codec: Codec::ALL
            .iter()
            .zip(by_codec)
            .map(|(c, b)| (c.name().to_string(), b))
            .collect(),
        parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Vec1(std::vec::IntoIter<Posting>);

    impl PostingStream for Vec1 {
        fn next_posting(&mut self) -> Result<Option<Posting>> {
            Ok(self.0.next())
        }
    }

    fn p(term: u32, doc: u32) -> Posting {
        Posting {
            term,
            doc,
            tf: 1,
            wbt: 1.0,
            positions: vec![doc],
        }
    }

    fn stream(v: Vec<Posting>) -> Vec1 {
        Vec1(v.into_iter())
    }

    #[test]
    fn kway_interleaves_sorted_streams_by_term_then_doc() {
        let mut k = KWay::new(vec![
            stream(vec![p(0, 1), p(1, 0), p(2, 5)]),
            stream(vec![p(0, 0), p(1, 3)]),
            stream(vec![]),
        ])
        .unwrap();
        let mut got = Vec::new();
        while let Some(x) = k.next_posting().unwrap() {
            got.push((x.term, x.doc));
        }
        assert_eq!(got, vec![(0, 0), (0, 1), (1, 0), (1, 3), (2, 5)]);
    }

    #[test]
    fn the_merge_refuses_a_stream_out_of_order() {
        let dir = std::env::temp_dir().join(format!("tianwang-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let mut docs = vec![DocInfo::default(); 3];
        let ok = merge(
            &dir,
            &mut stream(vec![p(0, 0), p(0, 2), p(1, 1)]),
            names.clone(),
            &mut docs,
            Codec::VByte,
            &(),
        )
        .unwrap();
        assert_eq!((ok.terms, ok.postings), (2, 3));
        for bad in [
            vec![p(0, 2), p(0, 1)],
            vec![p(1, 0), p(0, 1)],
            vec![p(0, 0), p(0, 0)],
            vec![p(2, 0)],
            vec![p(0, 3)],
        ] {
            assert!(
                merge(
                    &dir,
                    &mut stream(bad),
                    names.clone(),
                    &mut docs,
                    Codec::VByte,
                    &()
                )
                .is_err()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
