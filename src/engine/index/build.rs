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

use std::borrow::Cow;
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
use crate::engine::text::fxhash::FxMap;
use crate::engine::text::segment::{Method, Segmenter};

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

/// One document analysed: its terms with positions and tag weight.
struct Analysed {
    info: DocInfo,
    out_docs: Vec<u32>,
    text: String,
    terms: Vec<(String, Vec<u32>, f32)>,
}

/// Fields are placed in one position stream, this many characters apart, so a phrase never
/// spans two of them.
const FIELD_GAP: u32 = 16;

fn analyse(
    d: SourceDoc,
    seg: &Segmenter,
    cfg: &IndexConfig,
    weights: &super::tagweight::TagWeights,
) -> Analysed {
    let mut map: FxMap<Cow<'_, str>, (Vec<u32>, f32)> = FxMap::default();
    let title_w = weights.get("title");
    let mut base = 0u32;
    let html_wbt = d
        .html
        .as_deref()
        .map(|h| html_term_weights(h, seg, cfg, weights));
    let add =
        |text: &str, base: u32, extra: f32, map: &mut FxMap<Cow<'_, str>, (Vec<u32>, f32)>| {
            seg.for_each_token_at(text, cfg.method, cfg.stop_words, cfg.all_tokens, |t, at| {
                // A word seen before in this document costs a lookup, not a new String.
                let e = match map.get_mut(t.as_ref()) {
                    Some(e) => e,
                    None => map.entry(Cow::Owned(t.into_owned())).or_default(),
                };
                e.0.push(base + at as u32);
                e.1 += cfg.w0 + extra;
            });
        };
    let title_chars = d.title.chars().count() as u32;
    let body_chars = d.body.chars().count() as u32;
    add(&d.title, base, title_w, &mut map);
    base += title_chars + 1;
    add(&d.body, base, 0.0, &mut map);
    base += body_chars + FIELD_GAP;
    for a in &d.anchors {
        add(a, base, 0.0, &mut map);
        base += a.chars().count() as u32 + FIELD_GAP;
    }
    if !d.url.is_empty() {
        add(&source::url_words(&d.url), base, 0.0, &mut map);
    }
    let mut len = 0u32;
    let mut terms: Vec<(String, Vec<u32>, f32)> = map
        .into_iter()
        .map(|(t, (mut p, w))| {
            p.sort_unstable();
            len += p.len() as u32;
            (t.into_owned(), p, w)
        })
        .collect();
    if let Some(h) = html_wbt {
        // A page: WBT sums W0 + the enclosing tags' weights over the term's occurrences in
        // the page as the browser shows it [L3766–L3772]; anchor and URL words add W0 each.
        for (t, p, w) in &mut terms {
            if let Some(&(n, sum)) = h.get(t.as_str()) {
                *w = sum + cfg.w0 * (p.len() as f32 - n as f32).max(0.0);
            }
        }
    }
    terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let ln = len.max(1) as f32;
    let norm_tf = terms
        .iter()
        .map(|(_, p, _)| (p.len() as f32 / ln).powi(2))
        .sum::<f32>()
        .sqrt();
    let text = format!("{}\n{}", d.title, d.body);
    Analysed {
        out_docs: d.out_docs,
        info: DocInfo {
            key: d.key,
            title: if d.title.is_empty() {
                d.body.chars().take(60).collect()
            } else {
                d.title
            },
            url: d.url,
            len,
            distinct: terms.len() as u32,
            chars: title_chars + body_chars,
            lhn: d.lhn,
            raw_lhn: d.raw_lhn,
            crawled_at: d.crawled_at,
            norms: [norm_tf, (terms.len() as f32).sqrt(), 0.0],
            ..DocInfo::default()
        },
        text,
        terms,
    }
}

/// (occurrences, Σ (W0 + tag weights)) of each term of a page's visible text.
fn html_term_weights(
    html: &str,
    seg: &Segmenter,
    cfg: &IndexConfig,
    w: &super::tagweight::TagWeights,
) -> FxMap<String, (u32, f32)> {
    let mut out: FxMap<String, (u32, f32)> = FxMap::default();
    for run in super::tagweight::weighted_runs(html, w) {
        seg.for_each_token_at(
            &run.text,
            cfg.method,
            cfg.stop_words,
            cfg.all_tokens,
            |t, _| {
                let e = match out.get_mut(t.as_ref()) {
                    Some(e) => e,
                    None => out.entry(t.into_owned()).or_default(),
                };
                e.0 += 1;
                e.1 += cfg.w0 + run.weight;
            },
        );
    }
    out
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
            let f = File::open(path).map_err(|e| EngineError::BadPath {
                path: path.clone(),
                reason: e.to_string(),
            })?;
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
    /// (term id, positions, WBT), in the terms' byte order.
    pub(crate) terms: &'a [(u32, Vec<u32>, f32)],
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
/// given lexicon ids by first appearance, and handed to `sink` one by one. Progress runs
/// from 0 to `share`.
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
    let mut lexicon: FxMap<String, u32> = FxMap::default();
    let mut names: Vec<String> = Vec::new();
    let mut skipped = Vec::new();
    let mut ndocs = 0usize;
    let mut ids: Vec<(u32, Vec<u32>, f32)> = Vec::new();
    loop {
        let tr = Instant::now();
        let batch = opened.stream.next_batch(cfg.batch_docs, &mut skipped)?;
        timings.read_s += tr.elapsed().as_secs_f64();
        if batch.is_empty() {
            break;
        }
        let ts = Instant::now();
        let analysed: Vec<Analysed> = batch
            .into_par_iter()
            .map(|d| analyse(d, seg, cfg, &weights))
            .collect();
        timings.segment_s += ts.elapsed().as_secs_f64();
        let ti = Instant::now();
        for a in analysed {
            let doc = u32::try_from(ndocs).map_err(|_| {
                EngineError::invalid("source", "more than 4 294 967 295 documents in one index")
            })?;
            ids.clear();
            for (t, p, w) in a.terms {
                if t.len() > disk::MAX_TERM_BYTES {
                    // An index term's length is 16 bits: leave the word out, and say so.
                    if skipped.len() < 1000 {
                        skipped.push(format!(
                            "document {}: a word of {} bytes left out (an index term holds at most {} bytes)",
                            a.info.key,
                            t.len(),
                            disk::MAX_TERM_BYTES
                        ));
                    }
                    continue;
                }
                let id = match lexicon.get(t.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(names.len()).map_err(|_| {
                            EngineError::invalid("source", "more than 4 294 967 295 distinct terms")
                        })?;
                        names.push(t.clone());
                        lexicon.insert(t, id);
                        id
                    }
                };
                ids.push((id, p, w));
            }
            sink.doc(DocTerms {
                doc,
                info: a.info,
                text: &a.text,
                out_docs: &a.out_docs,
                terms: &ids,
                names: &names,
            })?;
            ndocs += 1;
        }
        timings.invert_s += ti.elapsed().as_secs_f64();
        let (done, read) = opened.stream.progress(ndocs, total);
        tick.tick(share * done.min(1.0), &format!("{read}, {}", sink.state()))?;
    }
    if ndocs == 0 {
        return Err(EngineError::invalid(
            src.flag(),
            format!("{}: no document to index", src.describe()),
        ));
    }
    Ok(Analysis {
        names,
        docs: ndocs,
        skipped,
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
                .and_then(|j| disk::write_sealed(&meta_path, &j))
                .and_then(|()| disk::commit_generation(out, &generation));
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

fn internal(e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(e.to_string())
}

fn count_lines(path: &Path) -> Result<usize> {
    let mut f = File::open(path).map_err(|e| EngineError::BadPath {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut buf = vec![0u8; 1 << 16];
    let (mut n, mut last) = (0usize, b'\n');
    loop {
        let got = f.read(&mut buf).map_err(|e| EngineError::BadPath {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
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
        let merged = merge(generation, &mut run, &an.names, &mut docs, cfg.codec, tick)?;
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
            &an.names,
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
    if !f.links.is_empty() {
        disk::write_sealed(&generation.join("links.bin"), &f.links)?;
    }
    let docs_path = generation.join("docs.json");
    let docs_json = serde_json::to_vec(&f.docs).map_err(internal)?;
    disk::write_sealed(&docs_path, &docs_json)?;
    // The streamed files get their footers now (the lexicon and meta are written sealed).
    disk::seal(&generation.join("text.bin"))?;
    disk::seal(&generation.join(disk::POSTINGS_FILE))?;
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
