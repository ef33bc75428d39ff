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
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::codec::Codec;
use super::disk::{self, DocInfo, Meta, Timings, io_err};
use super::merge::{Entry, merge, write_run};
use super::source::{self, Source, SourceDoc};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;
use crate::engine::store::Workspace;
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
    pub fn validate(&self) -> Result<()> {
        if self.memory_mb == 0 {
            return Err(EngineError::invalid("--memory-mb", "must be at least 1"));
        }
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
    pub fn weights(&self) -> Result<super::tagweight::TagWeights> {
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
    let mut map: HashMap<Cow<'_, str>, (Vec<u32>, f32)> = HashMap::new();
    let title_w = weights.get("title");
    let mut base = 0u32;
    let html_wbt = d
        .html
        .as_deref()
        .map(|h| html_term_weights(h, seg, cfg, weights));
    let add =
        |text: &str, base: u32, extra: f32, map: &mut HashMap<Cow<'_, str>, (Vec<u32>, f32)>| {
            seg.for_each_token_at(text, cfg.method, cfg.stop_words, cfg.all_tokens, |t, at| {
                let e = map.entry(Cow::Owned(t.into_owned())).or_default();
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
) -> HashMap<String, (u32, f32)> {
    let mut out: HashMap<String, (u32, f32)> = HashMap::new();
    for run in super::tagweight::weighted_runs(html, w) {
        seg.for_each_token_at(
            &run.text,
            cfg.method,
            cfg.stop_words,
            cfg.all_tokens,
            |t, _| {
                let e = out.entry(t.into_owned()).or_default();
                e.0 += 1;
                e.1 += cfg.w0 + run.weight;
            },
        );
    }
    out
}

/// Documents in batches, without holding the whole corpus when the source can stream.
enum Stream {
    Mem(std::vec::IntoIter<SourceDoc>),
    Tsv {
        name: String,
        lines: BufReader<File>,
        line: usize,
    },
    Dir(std::vec::IntoIter<PathBuf>),
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
                let (docs, errs) = source::read_files(&chunk);
                out.extend(docs);
                skipped.extend(errs);
            }
        }
        Ok(out)
    }
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
    let mut ws_snapshot = None;
    let (mut stream, total) = match src {
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
        Source::Dir { path } => {
            let files = source::list_dir(path)?;
            let n = files.len();
            (Stream::Dir(files.into_iter()), n)
        }
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
    timings.read_s += t0.elapsed().as_secs_f64();

    let generation = disk::new_generation(out)?;
    let result = build_into(
        &generation,
        &mut stream,
        total,
        src,
        cfg,
        tick,
        &mut timings,
        t0,
    );
    match result {
        Ok(mut meta) => {
            meta.workspace_snapshot = ws_snapshot;
            let meta_path = generation.join("meta.json");
            disk::write_file(
                &meta_path,
                &serde_json::to_vec_pretty(&meta).map_err(internal)?,
            )?;
            disk::commit_generation(out, &generation)?;
            Ok(meta)
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

#[allow(clippy::too_many_arguments)]
fn build_into(
    generation: &Path,
    stream: &mut Stream,
    total: usize,
    src: &Source,
    cfg: &IndexConfig,
    tick: &dyn Tick,
    timings: &mut Timings,
    t0: Instant,
) -> Result<Meta> {
    let seg = Segmenter::shared();
    let weights = cfg.weights()?;
    let runs_dir = generation.join("runs");
    std::fs::create_dir_all(&runs_dir).map_err(|e| io_err(&runs_dir, e))?;
    let text_path = generation.join("text.bin");
    let mut text_out = BufWriter::new(File::create(&text_path).map_err(|e| io_err(&text_path, e))?);
    let mut text_off = 0u64;
    let budget = cfg.memory_mb.saturating_mul(1 << 20);
    let mut lexicon: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut docs: Vec<DocInfo> = Vec::with_capacity(total);
    // The book pre-allocates the batch's inversion memory [L2718–L2720]: the buffer is sized
    // to the budget once (pages are only touched as they fill), and a run is written before a
    // document would overflow it, so the buffer never grows past the budget.
    let cap_entries = (budget / 5 * 3 / std::mem::size_of::<Entry>()).max(1);
    let cap_positions = (budget / 5 * 2 / 4).clamp(1, (u32::MAX / 2) as usize);
    let mut entries: Vec<Entry> = Vec::with_capacity(cap_entries);
    let mut positions: Vec<u32> = Vec::with_capacity(cap_positions);
    let mut runs: Vec<PathBuf> = Vec::new();
    let mut peak = 0u64;
    let mut skipped = Vec::new();
    let mut occurrences = 0u64;
    let mut links: Vec<u8> = Vec::new();
    loop {
        let tr = Instant::now();
        let batch = stream.next_batch(cfg.batch_docs, &mut skipped)?;
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
            let doc = u32::try_from(docs.len()).map_err(|_| internal("too many documents"))?;
            let mut info = a.info;
            info.text_off = text_off;
            info.text_len = a.text.len() as u32;
            text_out
                .write_all(a.text.as_bytes())
                .map_err(|e| io_err(&text_path, e))?;
            text_off += a.text.len() as u64;
            occurrences += u64::from(info.len);
            for &to in &a.out_docs {
                links.extend_from_slice(&doc.to_le_bytes());
                links.extend_from_slice(&to.to_le_bytes());
            }
            docs.push(info);
            let need_pos: usize = a.terms.iter().map(|t| t.1.len()).sum();
            if !entries.is_empty()
                && (entries.len() + a.terms.len() > entries.capacity()
                    || positions.len() + need_pos > positions.capacity())
            {
                runs.push(write_run(
                    &runs_dir,
                    runs.len(),
                    &mut entries,
                    &mut positions,
                )?);
                entries = Vec::with_capacity(cap_entries);
                positions = Vec::with_capacity(cap_positions);
            }
            for (t, p, w) in a.terms {
                let id = match lexicon.get(&t) {
                    Some(&id) => id,
                    None => {
                        let id = names.len() as u32;
                        names.push(t.clone());
                        lexicon.insert(t, id);
                        id
                    }
                };
                entries.push(Entry {
                    term: id,
                    doc,
                    tf: p.len() as u32,
                    wbt: w,
                    pos: positions.len() as u32,
                });
                positions.extend_from_slice(&p);
            }
            // What the buffer holds (its pages are touched only as they fill).
            let used = (entries.len() * std::mem::size_of::<Entry>() + positions.len() * 4) as u64;
            peak = peak.max(used);
        }
        timings.invert_s += ti.elapsed().as_secs_f64();
        let done = docs.len();
        tick.tick(
            0.8 * done as f32 / total.max(1) as f32,
            &format!("{done} of {total} documents, {} runs", runs.len()),
        )?;
    }
    text_out.flush().map_err(|e| io_err(&text_path, e))?;
    drop(text_out);
    if docs.is_empty() {
        return Err(EngineError::invalid(
            "--tsv",
            format!("{}: no document to index", src.describe()),
        ));
    }
    let ti = Instant::now();
    if !entries.is_empty() {
        runs.push(write_run(
            &runs_dir,
            runs.len(),
            &mut entries,
            &mut positions,
        )?);
    }
    drop(lexicon);
    timings.invert_s += ti.elapsed().as_secs_f64();

    let tm = Instant::now();
    let merged = merge(generation, &runs, &names, &mut docs, cfg.codec, tick)?;
    let _ = std::fs::remove_dir_all(&runs_dir);
    timings.merge_s = tm.elapsed().as_secs_f64();

    if !links.is_empty() {
        disk::write_file(&generation.join("links.bin"), &links)?;
    }
    let docs_path = generation.join("docs.json");
    let docs_json = serde_json::to_vec(&docs).map_err(internal)?;
    disk::write_file(&docs_path, &docs_json)?;
    let mut bytes = merged.parts;
    bytes.docs_file = docs_json.len() as u64;
    bytes.text_file = text_off;
    timings.total_s = t0.elapsed().as_secs_f64();
    let n = docs.len() as f64;
    Ok(Meta {
        version: disk::FORMAT_VERSION,
        source: src.describe(),
        built_at: chrono::Local::now().to_rfc3339(),
        config: cfg.clone(),
        docs: docs.len() as u64,
        terms: merged.terms,
        postings: merged.postings,
        occurrences,
        avg_len: occurrences as f64 / n,
        max_chars: merged.max_chars,
        wb_max_book: merged.wb_max_book,
        wb_max_smooth: merged.wb_max_smooth,
        bytes_by_codec: merged.bytes_by_codec,
        bytes,
        timings: timings.clone(),
        runs: runs.len(),
        peak_buffer_bytes: peak,
        workspace_snapshot: None,
        skipped,
    })
}
