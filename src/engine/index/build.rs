//! Building the inverted file, book ch. 8.2.3 [L2714–L2722] and §5.4 [L1630–L1641]: page
//! analysis (segmentation, tf, the lexicon's term codes by hash table), in-memory inversion of
//! successive batches into sorted temporary inverted files (**runs**) whenever the postings
//! buffer reaches the memory budget, then one **multiway merge** of the runs into the final
//! file, each list's document numbers as d-gaps in the chosen codec.
//!
//! Documents get IDs in source order (crawl order for a workspace), so every run holds
//! ascending IDs and the merge only concatenates a term's lists run by run [L1719]. The index
//! is written as a new generation and named current only when complete ([`super::disk`]):
//! killing a build leaves the previous index as it was.
//!
//! Every codec is sized on the same gaps as the build goes (`bytes_by_codec`), so the index
//! reports the book's comparison (ByteCode 0.3359, Golomb 0.2635 [L2740]) for its own postings.
//!
//! ```no_run
//! use tianwang::engine::index::build::{build, IndexConfig};
//! use tianwang::engine::index::source::Source;
//! let src = Source::Tsv { path: "titles.tsv".into() };
//! let meta = build(&src, None, "titles.index".as_ref(), &IndexConfig::default(), &()).unwrap();
//! println!("{} docs, {} terms", meta.docs, meta.terms);
//! ```

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::codec::Codec;
use super::disk::{self, DocInfo, Meta, Timings, io_err};
use super::merge::{KWay, MemRun, Merged, RunReader, merge};
use super::run_sink::RunSink;
use super::source::{self, Source, SourceDoc};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;
use crate::engine::store::Workspace;
use crate::engine::text::segment::{Method, Segmenter};

mod analysis;
use analysis::{Analysed, Inverter, Lexicon, analyse};

/// How to build. Raw CLI/GUI parameters → [`IndexConfig::validate`] → the builder.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct IndexConfig {
    /// The codec of the document gaps (the book's Tianwang uses ByteCode = vbyte [L2740]).
    pub codec: Codec,
    /// Budget of the in-memory postings buffer; a run is written when it is reached.
    pub memory_mb: usize,
    /// Segmentation of documents (and queries): jieba's search mode by default, so a query
    /// word inside a longer indexed word still matches.
    pub method: Method,
    /// Drop stop words (book ch. 2 [L692]).
    pub stop_words: bool,
    /// Documents segmented together (in parallel) before they join the buffer.
    pub batch_docs: usize,
    /// W0, the weight of an occurrence outside any weighted tag (§10.3.1; the book gives none).
    pub w0: f32,
    /// Tag-weight overrides of Table 10-2, e.g. `title=40,h1=12` (empty: the book's table).
    pub tag_weights: String,
    /// Index every token but whitespace (punctuation too), as cut and not lower-cased — the
    /// analysis tantivy-jieba does, for comparisons with it. Off: words and Latin runs,
    /// lower-cased.
    pub all_tokens: bool,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig {
            codec: Codec::VByte,
            memory_mb: 256,
            method: Method::Search,
            stop_words: true,
            batch_docs: 1024,
            w0: 1.0,
            tag_weights: String::new(),
            all_tokens: false,
        }
    }
}

impl IndexConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        crate::engine::exec::check_memory_mb("--memory-mb", self.memory_mb)?;
        if self.batch_docs == 0 {
            return Err(EngineError::invalid("--batch-docs", "must be at least 1"));
        }
        if !(self.w0.is_finite() && self.w0 >= 0.0) {
            return Err(EngineError::invalid("--w0", "must be a number ≥ 0"));
        }
        self.weights()?;
        Ok(())
    }

    /// The tag weights in force.
    pub(crate) fn weights(&self) -> Result<super::tagweight::TagWeights> {
        let mut w = super::tagweight::TagWeights {
            w0: self.w0,
            ..super::tagweight::TagWeights::default()
        };
        if !self.tag_weights.trim().is_empty() {
            w.apply_overrides(&self.tag_weights)?;
        }
        Ok(w)
    }
}

/// Documents in batches, without holding the whole corpus when the source can stream.
pub(crate) enum Stream {
    Mem(std::vec::IntoIter<SourceDoc>),
    Tsv {
        name: String,
        lines: BufReader<File>,
        line: usize,
    },
    Dir(std::vec::IntoIter<PathBuf>),
    Warc(Box<source::warc::WarcDocs>),
}

impl Stream {
    fn next_batch(&mut self, n: usize, skipped: &mut Vec<String>) -> Result<Vec<SourceDoc>> {
        let mut out = Vec::with_capacity(n);
        match self {
            Stream::Mem(it) => out.extend(it.take(n)),
            Stream::Tsv { name, lines, line } => {
                let mut buf = Vec::new();
                while out.len() < n {
                    buf.clear();
                    let got = lines
                        .read_until(b'\n', &mut buf)
                        .map_err(|e| EngineError::bad_input(&*name, *line + 1, e.to_string()))?;
                    if got == 0 {
                        break;
                    }
                    *line += 1;
                    let mut s = std::str::from_utf8(&buf)
                        .map_err(|_| EngineError::bad_input(&*name, *line, "not UTF-8 text"))?;
                    if *line == 1 {
                        s = s.strip_prefix('\u{feff}').unwrap_or(s);
                    }
                    let first = s.trim_end_matches(['\n', '\r']).split('\t').next();
                    let first = first.unwrap_or("").trim();
                    out.push(source::tsv_doc(*line, first));
                }
            }
            Stream::Dir(files) => {
                let chunk: Vec<PathBuf> = files.take(n).collect();
                for p in &chunk {
                    if let (key, true) = crate::engine::text::file_key(p) {
                        skipped.push(format!(
                            "{}: read; the name is not UTF-8, so its document is keyed `{key}`",
                            p.display()
                        ));
                    }
                }
                let (docs, errs) = source::read_files(&chunk);
                out.extend(docs);
                skipped.extend(errs);
            }
            Stream::Warc(w) => out = w.next_batch(n, skipped)?,
        }
        Ok(out)
    }

    /// How far the reading is (0 to 1, never going back) after `ndocs` documents of the
    /// `total` announced, and a few words on it.
    fn progress(&self, ndocs: usize, total: usize) -> (f32, String) {
        match self {
            Stream::Warc(w) => w.progress(ndocs),
            _ => (
                ndocs as f32 / total.max(1) as f32,
                format!("{ndocs} of {total} documents"),
            ),
        }
    }
}

/// A source opened for reading: its documents in batches, how many there are, and (for a
/// workspace) the newest snapshot id.
pub(crate) struct Opened {
    pub(crate) stream: Stream,
    pub(crate) total: usize,
    pub(crate) ws_snapshot: Option<i64>,
}

/// Open `src` (`ws`: the workspace a `Source::Workspace { path: None }` means).
pub(crate) fn open_source(src: &Source, ws: Option<&Workspace>) -> Result<Opened> {
    let mut ws_snapshot = None;
    let (stream, total) = match src {
        Source::Tsv { path } => {
            let f = File::open(path).map_err(|e| EngineError::path_os(path.clone(), e))?;
            let total = count_lines(path)?;
            (
                Stream::Tsv {
                    name: path.display().to_string(),
                    lines: BufReader::new(f),
                    line: 0,
                },
                total,
            )
        }
        Source::Parquet { .. } => {
            return Err(EngineError::invalid(
                "--engine",
                "a postings-input folder holds tuples to sort, not documents: \
                 build it with --engine datafusion or --engine spark",
            ));
        }
        Source::Dir { path } => {
            let files = source::list_dir(path)?;
            let n = files.len();
            (Stream::Dir(files.into_iter()), n)
        }
        // How many pages the files hold is known at the end only: progress is the share of
        // their bytes read.
        Source::Warc { paths } => (
            Stream::Warc(Box::new(source::warc::WarcDocs::open(paths)?)),
            0,
        ),
        Source::Workspace { path } => {
            let opened;
            let w = match (path, ws) {
                (Some(p), _) => {
                    opened = Workspace::open_existing(p)?;
                    &opened
                }
                (None, Some(w)) => w,
                (None, None) => {
                    return Err(EngineError::invalid("--workspace", "no workspace is open"));
                }
            };
            ws_snapshot = w
                .conn()
                .query_row("SELECT MAX(id) FROM snapshots", [], |r| r.get(0))?;
            let docs = source::read_workspace(w)?;
            if docs.is_empty() {
                return Err(EngineError::invalid(
                    "--workspace",
                    "the workspace holds no HTML page to index: crawl or load the sample web first",
                ));
            }
            let n = docs.len();
            (Stream::Mem(docs.into_iter()), n)
        }
    };
    Ok(Opened {
        stream,
        total,
        ws_snapshot,
    })
}

/// One analysed document as a [`DocSink`] receives it: its number, its entry (text offsets
/// not yet set), its stored text, its out-links and its terms with their lexicon ids.
pub(crate) struct DocTerms<'a> {
    pub(crate) doc: u32,
    pub(crate) info: DocInfo,
    pub(crate) text: &'a str,
    pub(crate) out_docs: &'a [u32],
    /// (term id, its positions' range in `positions`, WBT), in the terms' byte order.
    pub(crate) terms: &'a [(u32, std::ops::Range<usize>, f32)],
    /// The document's term positions, term after term.
    pub(crate) positions: &'a [u32],
    /// Every term's text so far, by id (the Parquet exporter writes it; the runs need not).
    #[cfg_attr(not(feature = "bigjobs"), allow(dead_code))]
    pub(crate) names: &'a [String],
}

/// Where analysed documents go: the native postings buffer and its runs, or a Parquet
/// exporter (`index::on_engine`).
pub(crate) trait DocSink {
    fn doc(&mut self, d: DocTerms<'_>) -> Result<()>;
    /// A few words on what the sink holds, for the progress line.
    fn state(&self) -> String;
}

/// What the analysis pass found besides what the sink kept.
pub(crate) struct Analysis {
    /// Term texts by id (ids in order of first appearance).
    pub(crate) names: Vec<String>,
    /// Documents analysed (the exporter reports it; the native build counts its entries).
    #[cfg_attr(not(feature = "bigjobs"), allow(dead_code))]
    pub(crate) docs: usize,
    pub(crate) skipped: Vec<String>,
}

/// The analysis pass, shared by every engine: documents read in batches, segmented in
/// parallel (positions, WBT, the document's entry), numbered in source order, their terms
/// given lexicon ids by first appearance, and handed to `sink` one by one. A batch is
/// segmented on the thread pool while this thread inverts the one before it, so the
/// serial half overlaps the parallel one (`segment_s` and `invert_s` are each one's own
/// time, and overlap). Progress runs from 0 to `share`.
pub(crate) fn analyse_all(
    opened: &mut Opened,
    src: &Source,
    cfg: &IndexConfig,
    tick: &dyn Tick,
    timings: &mut Timings,
    share: f32,
    sink: &mut dyn DocSink,
) -> Result<Analysis> {
    let seg = Segmenter::shared();
    let weights = cfg.weights()?;
    let total = opened.total;
    let mut inv = Inverter {
        sink,
        lexicon: Lexicon::default(),
        ndocs: 0,
        skipped: Vec::new(),
        ids: Vec::new(),
    };
    let mut pending: Option<Vec<Analysed>> = None;
    loop {
        let tr = Instant::now();
        let batch = opened.stream.next_batch(cfg.batch_docs, &mut inv.skipped)?;
        timings.read_s += tr.elapsed().as_secs_f64();
        if batch.is_empty() && pending.is_none() {
            break;
        }
        let mut next: Option<Vec<Analysed>> = None;
        let mut segment_s = 0f64;
        let inverted = rayon::in_place_scope(|s| {
            if !batch.is_empty() {
                let (next, segment_s, weights) = (&mut next, &mut segment_s, &weights);
                s.spawn(move |_| {
                    let ts = Instant::now();
                    *next = Some(
                        batch
                            .into_par_iter()
                            .map(|d| analyse(d, seg, cfg, weights))
                            .collect(),
                    );
                    *segment_s = ts.elapsed().as_secs_f64();
                });
            }
            let ti = Instant::now();
            let r = pending.take().map_or(Ok(()), |p| inv.batch(p));
            (r, ti.elapsed().as_secs_f64())
        });
        timings.segment_s += segment_s;
        timings.invert_s += inverted.1;
        inverted.0?;
        pending = next;
        let (done, read) = opened.stream.progress(inv.ndocs, total);
        tick.tick(
            share * done.min(1.0),
            &format!("{read}, {}", inv.sink.state()),
        )?;
    }
    if inv.ndocs == 0 {
        return Err(EngineError::invalid(
            src.flag(),
            format!("{}: no document to index", src.describe()),
        ));
    }
    Ok(Analysis {
        names: inv.lexicon.names,
        docs: inv.ndocs,
        skipped: inv.skipped,
    })
}

/// Build an index of `src` into `out` (a directory of generations; created if missing).
/// `ws` is the workspace a `Source::Workspace { path: None }` means.
pub fn build(
    src: &Source,
    ws: Option<&Workspace>,
    out: &Path,
    cfg: &IndexConfig,
    tick: &dyn Tick,
) -> Result<Meta> {
    cfg.validate()?;
    let t0 = Instant::now();
    let mut timings = Timings::default();
    tick.tick(0.0, "reading the source")?;
    let mut opened = open_source(src, ws)?;
    timings.read_s += t0.elapsed().as_secs_f64();
    let snapshot = opened.ws_snapshot;
    in_generation(out, snapshot, |generation| {
        build_into(generation, &mut opened, src, cfg, tick, &mut timings, t0)
    })
}

/// Run `f` in a new generation of `out`; on success write its meta (with the workspace
/// snapshot) and name it current, on failure remove it.
pub(crate) fn in_generation(
    out: &Path,
    ws_snapshot: Option<i64>,
    f: impl FnOnce(&Path) -> Result<Meta>,
) -> Result<Meta> {
    // One build of a folder at a time: two would number, commit and remove each other's
    // generations (issue 29: both exit 0 with CURRENT naming one that is gone).
    let _lock = disk::BuildLock::acquire(out)?;
    let generation = disk::new_generation(out)?;
    match f(&generation) {
        Ok(mut meta) => {
            meta.workspace_snapshot = ws_snapshot;
            let meta_path = generation.join("meta.json");
            let written = serde_json::to_vec_pretty(&meta)
                .map_err(internal)
                .and_then(|j| disk::write_sealed_unsynced(&meta_path, &j))
                .and_then(|_| generation_files(&generation))
                .and_then(|files| disk::commit_generation_syncing(out, &generation, files));
            match written {
                Ok(()) => Ok(meta),
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&generation);
                    Err(e)
                }
            }
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&generation);
            Err(e)
        }
    }
}

/// Every file of a finished generation, and the folder itself: what is flushed to disk
/// before anything names it current (issue 29) — together, one `fsync` each at once
/// ([`disk::commit_generation_syncing`]), not one after another as each file is written.
fn generation_files(generation: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = vec![generation.to_path_buf()];
    for e in std::fs::read_dir(generation).map_err(|e| io_err(generation, e))? {
        let e = e.map_err(|e| io_err(generation, e))?;
        if e.file_type().is_ok_and(|t| t.is_file()) {
            paths.push(e.path());
        }
    }
    Ok(paths)
}

fn internal(e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(e.to_string())
}

fn count_lines(path: &Path) -> Result<usize> {
    let mut f = File::open(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
    let mut buf = vec![0u8; 1 << 16];
    let (mut n, mut last) = (0usize, b'\n');
    loop {
        let got = f
            .read(&mut buf)
            .map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
        if got == 0 {
            break;
        }
        n += buf[..got].iter().filter(|&&b| b == b'\n').count();
        last = buf[got - 1];
    }
    Ok(n + usize::from(last != b'\n'))
}

fn build_into(
    generation: &Path,
    opened: &mut Opened,
    src: &Source,
    cfg: &IndexConfig,
    tick: &dyn Tick,
    timings: &mut Timings,
    t0: Instant,
) -> Result<Meta> {
    let mut sink = RunSink::new(generation, cfg, opened.total)?;
    let an = analyse_all(opened, src, cfg, tick, timings, 0.8, &mut sink)?;
    sink.text_out
        .flush()
        .map_err(|e| io_err(&sink.text_path, e))?;
    let mut docs = std::mem::take(&mut sink.docs);
    let merged = if sink.runs.is_empty() {
        // Everything fitted in the buffer: merge it from memory.
        let tm = Instant::now();
        let mut run = MemRun::new(
            std::mem::take(&mut sink.entries),
            std::mem::take(&mut sink.positions),
        );
        let merged = merge(generation, &mut run, an.names, &mut docs, cfg.codec, tick)?;
        timings.merge_s = tm.elapsed().as_secs_f64();
        merged
    } else {
        let ti = Instant::now();
        if !sink.entries.is_empty() {
            sink.write_run()?;
        }
        timings.invert_s += ti.elapsed().as_secs_f64();
        let tm = Instant::now();
        let readers = sink
            .runs
            .iter()
            .map(|p| RunReader::open(p))
            .collect::<Result<Vec<_>>>()?;
        let merged = merge(
            generation,
            &mut KWay::new(readers)?,
            an.names,
            &mut docs,
            cfg.codec,
            tick,
        )?;
        timings.merge_s = tm.elapsed().as_secs_f64();
        merged
    };
    let _ = std::fs::remove_dir_all(&sink.runs_dir);
    finish(
        generation,
        Finished {
            source: src.describe(),
            config: cfg.clone(),
            docs,
            merged,
            links: std::mem::take(&mut sink.links),
            text_bytes: sink.text_off,
            occurrences: sink.occurrences,
            // A corpus that fitted the buffer is one run, merged from memory.
            runs: sink.runs.len().max(1),
            peak_buffer_bytes: sink.peak,
            skipped: an.skipped,
        },
        timings,
        t0,
    )
}

/// What a build has when its postings are merged: everything [`finish`] writes or reports.
pub(crate) struct Finished {
    pub(crate) source: String,
    pub(crate) config: IndexConfig,
    pub(crate) docs: Vec<DocInfo>,
    pub(crate) merged: Merged,
    /// (from, to) document pairs, u32 LE each.
    pub(crate) links: Vec<u8>,
    pub(crate) text_bytes: u64,
    pub(crate) occurrences: u64,
    pub(crate) runs: usize,
    pub(crate) peak_buffer_bytes: u64,
    pub(crate) skipped: Vec<String>,
}

/// The end of every build: links.bin, docs.json and the meta (the caller writes meta.json).
pub(crate) fn finish(
    generation: &Path,
    f: Finished,
    timings: &mut Timings,
    t0: Instant,
) -> Result<Meta> {
    // Written sealed, not yet flushed: `in_generation` syncs every file of the generation
    // together before naming it current.
    if !f.links.is_empty() {
        disk::write_sealed_unsynced(&generation.join("links.bin"), &f.links)?;
    }
    let docs_path = generation.join("docs.json");
    let docs_json = serde_json::to_vec(&f.docs).map_err(internal)?;
    disk::write_sealed_unsynced(&docs_path, &docs_json)?;
    // The streamed files get their footers now (the lexicon and meta are written sealed).
    disk::seal_unsynced(&generation.join("text.bin"))?;
    disk::seal_unsynced(&generation.join(disk::POSTINGS_FILE))?;
    let merged = f.merged;
    let mut bytes = merged.parts;
    bytes.docs_file = docs_json.len() as u64;
    bytes.text_file = f.text_bytes;
    timings.total_s = t0.elapsed().as_secs_f64();
    let n = f.docs.len() as f64;
    Ok(Meta {
        version: disk::FORMAT_VERSION,
        source: f.source,
        built_at: chrono::Local::now().to_rfc3339(),
        config: f.config,
        docs: f.docs.len() as u64,
        terms: merged.terms,
        postings: merged.postings,
        occurrences: f.occurrences,
        avg_len: f.occurrences as f64 / n,
        max_chars: merged.max_chars,
        wb_max_book: merged.wb_max_book,
        wb_max_smooth: merged.wb_max_smooth,
        bytes_by_codec: merged.bytes_by_codec,
        bytes,
        timings: timings.clone(),
        runs: f.runs,
        peak_buffer_bytes: f.peak_buffer_bytes,
        workspace_snapshot: None,
        skipped: f.skipped,
        engine: Default::default(),
    })
}
