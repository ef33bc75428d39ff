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
//! Feature `bigjobs`; the always-built dispatch is [`super::build_on`].
//!
//! ```no_run
//! use tianwang::engine::exec::{Engine, EngineConfig};
//! use tianwang::engine::index::build_on;
//! use tianwang::engine::index::source::Source;
//! let src = Source::Tsv { path: "titles.tsv".into() };
//! let e = EngineConfig::new(Engine::DataFusion);
//! let meta = build_on(&src, None, "titles.index".as_ref(), &Default::default(), &e, &()).unwrap();
//! println!("{} postings, {} bytes spilled", meta.postings, meta.engine.spilled_bytes);
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{
    ArrayRef, Float32Builder, Int32Builder, Int64Builder, ListBuilder, RecordBatch, StringBuilder,
};

pub mod read;

use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::exec::parquet_io::{self, AtomicWriter};
use crate::engine::exec::plan::{Plan, RunReport};
use crate::engine::exec::schema::{Col, SchemaDef, c};
use crate::engine::exec::scratch::ScratchDir;
use crate::engine::exec::{EngineConfig, run_plan};
use crate::engine::index::build::{
    self, DocSink, DocTerms, Finished, IndexConfig, Opened, analyse_all, in_generation,
};
use crate::engine::index::disk::{DocInfo, EngineRun, Meta, Timings};
use crate::engine::index::merge::{KWay, merge};
use crate::engine::index::source::Source;
use crate::engine::jobs::{Scaled, Tick};
use crate::engine::store::Workspace;
use read::{PostingsReader, for_each_doc, read_lexicon};

/// Rows of `postings-input` buffered before a batch is written.
const POSTINGS_BATCH: usize = 1 << 16;
/// Documents of `postings-docs` buffered before a batch is written.
const DOCS_BATCH: usize = 1024;
/// Stored text buffered before a `postings-docs` batch is written.
const DOCS_TEXT_BYTES: usize = 8 << 20;

fn internal(e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(e.to_string())
}

/// What an export wrote.
#[derive(Debug, Clone)]
pub struct Exported {
    pub postings: PathBuf,
    pub docs: PathBuf,
    pub n_docs: usize,
    pub tuples: u64,
    pub terms: usize,
    pub skipped: Vec<String>,
    pub ws_snapshot: Option<i64>,
    /// The most the export's row buffers held, in bytes (≈, bounded by the batch sizes).
    pub peak_buffer_bytes: u64,
}

/// The exporter: analysed documents streamed into `postings-input` and `postings-docs` in
/// bounded batches.
struct ExportSink {
    postings: AtomicWriter,
    docs: AtomicWriter,
    p: PostingCols,
    d: DocCols,
    tuples: u64,
    peak: u64,
}

struct PostingCols {
    term_id: Int64Builder,
    term: StringBuilder,
    doc: Int64Builder,
    tf: Int32Builder,
    wbt: Float32Builder,
    positions: ListBuilder<Int32Builder>,
    rows: usize,
    bytes: usize,
}

impl PostingCols {
    fn new() -> PostingCols {
        PostingCols {
            term_id: Int64Builder::new(),
            term: StringBuilder::new(),
            doc: Int64Builder::new(),
            tf: Int32Builder::new(),
            wbt: Float32Builder::new(),
            positions: ListBuilder::new(Int32Builder::new()),
            rows: 0,
            bytes: 0,
        }
    }

    fn finish(&mut self) -> Result<RecordBatch> {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.term_id.finish()),
            Arc::new(self.term.finish()),
            Arc::new(self.doc.finish()),
            Arc::new(self.tf.finish()),
            Arc::new(self.wbt.finish()),
            Arc::new(self.positions.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(POSTINGS_INPUT.arrow(), cols)
            .map_err(|e| internal(format!("postings-input batch: {e}")))
    }
}

struct DocCols {
    doc: Int64Builder,
    key: StringBuilder,
    title: StringBuilder,
    url: StringBuilder,
    len: Int64Builder,
    distinct: Int64Builder,
    chars: Int64Builder,
    lhn: Int64Builder,
    raw_lhn: Int64Builder,
    crawled_at: StringBuilder,
    norm_tf: Float32Builder,
    norm_binary: Float32Builder,
    text: StringBuilder,
    out_docs: ListBuilder<Int64Builder>,
    rows: usize,
    bytes: usize,
}

impl DocCols {
    fn new() -> DocCols {
        DocCols {
            doc: Int64Builder::new(),
            key: StringBuilder::new(),
            title: StringBuilder::new(),
            url: StringBuilder::new(),
            len: Int64Builder::new(),
            distinct: Int64Builder::new(),
            chars: Int64Builder::new(),
            lhn: Int64Builder::new(),
            raw_lhn: Int64Builder::new(),
            crawled_at: StringBuilder::new(),
            norm_tf: Float32Builder::new(),
            norm_binary: Float32Builder::new(),
            text: StringBuilder::new(),
            out_docs: ListBuilder::new(Int64Builder::new()),
            rows: 0,
            bytes: 0,
        }
    }

    fn push(&mut self, doc: u32, i: &DocInfo, text: &str, out_docs: &[u32]) {
        self.doc.append_value(i64::from(doc));
        self.key.append_value(&i.key);
        self.title.append_value(&i.title);
        self.url.append_value(&i.url);
        self.len.append_value(i64::from(i.len));
        self.distinct.append_value(i64::from(i.distinct));
        self.chars.append_value(i64::from(i.chars));
        self.lhn.append_value(i64::from(i.lhn));
        self.raw_lhn.append_value(i64::from(i.raw_lhn));
        self.crawled_at.append_option(i.crawled_at.as_deref());
        self.norm_tf.append_value(i.norms[0]);
        self.norm_binary.append_value(i.norms[1]);
        self.text.append_value(text);
        for &o in out_docs {
            self.out_docs.values().append_value(i64::from(o));
        }
        self.out_docs.append(true);
        self.rows += 1;
        self.bytes += text.len() + i.key.len() + i.title.len() + i.url.len() + 80;
    }

    fn finish(&mut self) -> Result<RecordBatch> {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.doc.finish()),
            Arc::new(self.key.finish()),
            Arc::new(self.title.finish()),
            Arc::new(self.url.finish()),
            Arc::new(self.len.finish()),
            Arc::new(self.distinct.finish()),
            Arc::new(self.chars.finish()),
            Arc::new(self.lhn.finish()),
            Arc::new(self.raw_lhn.finish()),
            Arc::new(self.crawled_at.finish()),
            Arc::new(self.norm_tf.finish()),
            Arc::new(self.norm_binary.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.out_docs.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(POSTINGS_DOCS.arrow(), cols)
            .map_err(|e| internal(format!("postings-docs batch: {e}")))
    }
}

impl DocSink for ExportSink {
    fn doc(&mut self, d: DocTerms<'_>) -> Result<()> {
        self.d.push(d.doc, &d.info, d.text, d.out_docs);
        for (id, r, w) in d.terms {
            let pos = &d.positions[r.clone()];
            let term = &d.names[*id as usize];
            self.p.term_id.append_value(i64::from(*id));
            self.p.term.append_value(term);
            self.p.doc.append_value(i64::from(d.doc));
            self.p.tf.append_value(pos.len() as i32);
            self.p.wbt.append_value(*w);
            for &x in pos {
                self.p
                    .positions
                    .values()
                    .append_value(i32::try_from(x).map_err(|_| {
                        EngineError::invalid(
                            "source",
                            format!("document {}: a position beyond 2³¹ characters", d.doc),
                        )
                    })?);
            }
            self.p.positions.append(true);
            self.p.rows += 1;
            self.p.bytes += 28 + term.len() + 4 * pos.len();
        }
        self.tuples += d.terms.len() as u64;
        self.peak = self.peak.max((self.p.bytes + self.d.bytes) as u64);
        if self.p.rows >= POSTINGS_BATCH {
            let b = self.p.finish()?;
            self.postings.write(&b)?;
        }
        if self.d.rows >= DOCS_BATCH || self.d.bytes >= DOCS_TEXT_BYTES {
            let b = self.d.finish()?;
            self.docs.write(&b)?;
        }
        Ok(())
    }

    fn state(&self) -> String {
        format!("{} postings exported", self.tuples)
    }
}

/// The file metadata of an export: what was indexed, and how it was cut into terms.
fn export_meta(src: &Source, cfg: &IndexConfig) -> Result<Vec<(String, String)>> {
    Ok(vec![
        ("tianwang.source".into(), src.describe()),
        (
            "tianwang.index_config".into(),
            serde_json::to_string(cfg).map_err(internal)?,
        ),
    ])
}

/// Analyse `src` and write `dir/postings-input.parquet` and `dir/postings-docs.parquet`
/// (each complete or absent). Progress runs from 0 to 1 of `tick`.
pub fn export(
    src: &Source,
    ws: Option<&Workspace>,
    cfg: &IndexConfig,
    dir: &Path,
    tick: &dyn Tick,
) -> Result<Exported> {
    cfg.validate()?;
    let mut opened = build::open_source(src, ws)?;
    export_opened(&mut opened, src, cfg, dir, tick, &mut Timings::default())
}

fn export_opened(
    opened: &mut Opened,
    src: &Source,
    cfg: &IndexConfig,
    dir: &Path,
    tick: &dyn Tick,
    timings: &mut Timings,
) -> Result<Exported> {
    let meta = export_meta(src, cfg)?;
    let postings = dir.join("postings-input.parquet");
    let docs = dir.join("postings-docs.parquet");
    let mut sink = ExportSink {
        postings: AtomicWriter::create(&postings, POSTINGS_INPUT.arrow(), &meta)?,
        docs: AtomicWriter::create(&docs, POSTINGS_DOCS.arrow(), &meta)?,
        p: PostingCols::new(),
        d: DocCols::new(),
        tuples: 0,
        peak: 0,
    };
    let an = analyse_all(opened, src, cfg, tick, timings, 1.0, &mut sink)?;
    let b = sink.p.finish()?;
    sink.postings.write(&b)?;
    let b = sink.d.finish()?;
    sink.docs.write(&b)?;
    sink.postings.finish()?;
    sink.docs.finish()?;
    Ok(Exported {
        postings,
        docs,
        n_docs: an.docs,
        tuples: sink.tuples,
        terms: an.names.len(),
        skipped: an.skipped,
        ws_snapshot: opened.ws_snapshot,
        peak_buffer_bytes: sink.peak,
    })
}

/// The plan, the same SQL on both engines: the tuples sorted into posting lists, and the
/// lexicon's texts by id.
pub fn plan(postings: &Path) -> Plan {
    Plan::new("index-build")
        .input("postings", postings)
        .output(
            "sorted",
            "SELECT term_id, doc, tf, wbt, positions FROM postings ORDER BY term_id, doc",
        )
        .output(
            "lexicon",
            "SELECT term_id, MIN(term) AS term FROM postings GROUP BY term_id",
        )
}

/// The export in folder `dir` (`postings-input.parquet` and `postings-docs.parquet`, files or
/// folders of parts), its schemas checked before any work; the index configuration that cut
/// its terms comes from its metadata (the codec and buffer from `cfg`), and so does the source.
fn given_export(dir: &Path, cfg: &IndexConfig) -> Result<(Exported, IndexConfig, String)> {
    let postings = dir.join("postings-input.parquet");
    let docs = dir.join("postings-docs.parquet");
    let mut meta = Vec::new();
    let mut count = |path: &Path, def: SchemaDef| -> Result<u64> {
        let files = parquet_io::parts(path)?;
        if files.is_empty() {
            return Err(EngineError::path_flaw(
                path,
                Flaw::new("flaw.parquet_no_postings_input", &[&def.name]),
            ));
        }
        let mut n = 0u64;
        for f in files {
            let b = parquet_io::open(&f, Some(&def))?;
            let fm = b.metadata().file_metadata();
            n += u64::try_from(fm.num_rows()).unwrap_or(0);
            if meta.is_empty() {
                // Our writer keeps the keys in the Arrow schema's metadata (ARROW:schema);
                // other writers may use the file's key-value metadata.
                meta = b
                    .schema()
                    .metadata()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if let Some(kv) = fm.key_value_metadata() {
                    meta.extend(
                        kv.iter()
                            .filter_map(|k| Some((k.key.clone(), k.value.clone()?))),
                    );
                }
            }
        }
        Ok(n)
    };
    let n_docs = count(&docs, POSTINGS_DOCS)?;
    let tuples = count(&postings, POSTINGS_INPUT)?;
    let mut used = match parquet_io::meta_get(&meta, "tianwang.index_config") {
        Some(j) => serde_json::from_str::<IndexConfig>(j).map_err(|e| {
            EngineError::bad_input(docs.display(), 0, format!("tianwang.index_config: {e}"))
        })?,
        None => cfg.clone(),
    };
    used.codec = cfg.codec;
    used.memory_mb = cfg.memory_mb;
    let source = parquet_io::meta_get(&meta, "tianwang.source")
        .map(String::from)
        .unwrap_or_else(|| format!("postings-input {}", dir.display()));
    let ex = Exported {
        postings,
        docs,
        n_docs: n_docs as usize,
        tuples,
        terms: 0,
        skipped: Vec::new(),
        ws_snapshot: None,
        peak_buffer_bytes: 0,
    };
    Ok((ex, used, source))
}

/// Export → plan → the native merge into a new generation of `out`.
pub fn build(
    src: &Source,
    ws: Option<&Workspace>,
    out: &Path,
    cfg: &IndexConfig,
    engine: &EngineConfig,
    tick: &dyn Tick,
) -> Result<Meta> {
    let t0 = Instant::now();
    let mut timings = Timings::default();
    tick.tick(0.0, "reading the source")?;
    let work = ScratchDir::new("index")?;
    let (ex, cfg, source) = match src {
        Source::Parquet { path } => given_export(path, cfg)?,
        _ => {
            let mut opened = build::open_source(src, ws)?;
            timings.read_s += t0.elapsed().as_secs_f64();
            let export_tick = Scaled {
                tick,
                start: 0.0,
                width: 0.4,
            };
            let ex = export_opened(
                &mut opened,
                src,
                cfg,
                work.path(),
                &export_tick,
                &mut timings,
            )?;
            (ex, cfg.clone(), src.describe())
        }
    };
    let cfg = &cfg;
    let te = Instant::now();
    let plan_tick = Scaled {
        tick,
        start: 0.4,
        width: 0.4,
    };
    let outdir = work.path().join("out");
    let report = run_plan(&plan(&ex.postings), &outdir, engine, &plan_tick)?;
    let engine_s = te.elapsed().as_secs_f64();
    let meta = in_generation(out, ex.ws_snapshot, |generation| {
        let tm = Instant::now();
        let r = read_back(generation, &outdir, &ex, cfg, tick);
        timings.merge_s = tm.elapsed().as_secs_f64();
        let fin = r?;
        let mut meta = build::finish(
            generation,
            Finished {
                source: source.clone(),
                ..fin
            },
            &mut timings,
            t0,
        )?;
        meta.engine = engine_run(engine, &report, engine_s, ex.tuples);
        Ok(meta)
    });
    drop(work);
    meta
}

fn engine_run(engine: &EngineConfig, report: &RunReport, engine_s: f64, tuples: u64) -> EngineRun {
    EngineRun {
        engine: engine.engine,
        cluster: engine.cluster.clone(),
        pool_mb: if engine.engine == super::Engine::DataFusion {
            engine.memory_mb
        } else {
            0
        },
        spilled_bytes: report.spilled_bytes,
        engine_s,
        tuples,
    }
}

/// text.bin, the documents and the links from `postings-docs`; postings.bin and lexicon.bin
/// from the engine's sorted parts through the native merge.
fn read_back(
    generation: &Path,
    outdir: &Path,
    ex: &Exported,
    cfg: &IndexConfig,
    tick: &dyn Tick,
) -> Result<Finished> {
    let text_path = generation.join("text.bin");
    let io = |e: std::io::Error| EngineError::Io {
        path: text_path.clone(),
        source: e,
    };
    let mut text_out = BufWriter::new(File::create(&text_path).map_err(io)?);
    let mut docs: Vec<DocInfo> = Vec::with_capacity(ex.n_docs);
    let (mut text_off, mut occurrences) = (0u64, 0u64);
    let mut links: Vec<u8> = Vec::new();
    for_each_doc(&ex.docs, |row| {
        if row.doc as usize != docs.len() {
            return Err(EngineError::corrupt(
                &ex.docs,
                Flaw::new("flaw.docs_order", &[&row.doc, &docs.len()]),
            ));
        }
        let mut info = row.info;
        info.text_off = text_off;
        info.text_len = row.text.len() as u32;
        text_out.write_all(row.text.as_bytes()).map_err(io)?;
        text_off += row.text.len() as u64;
        occurrences += u64::from(info.len);
        for to in row.out_docs {
            links.extend_from_slice(&row.doc.to_le_bytes());
            links.extend_from_slice(&to.to_le_bytes());
        }
        docs.push(info);
        Ok(())
    })?;
    text_out.flush().map_err(io)?;
    drop(text_out);
    let names = read_lexicon(&outdir.join("lexicon"))?;
    let parts = parquet_io::parts(&outdir.join("sorted"))?;
    let n_parts = parts.len();
    let streams: Vec<PostingsReader> = parts.into_iter().map(PostingsReader::sorted_part).collect();
    let merged = merge(
        generation,
        &mut KWay::new(streams)?,
        names,
        &mut docs,
        cfg.codec,
        tick,
    )?;
    if merged.postings != ex.tuples {
        return Err(internal(format!(
            "the engine returned {} postings of the {} exported",
            merged.postings, ex.tuples
        )));
    }
    Ok(Finished {
        source: String::new(),
        config: cfg.clone(),
        docs,
        merged,
        links,
        text_bytes: text_off,
        occurrences,
        runs: n_parts,
        peak_buffer_bytes: ex.peak_buffer_bytes,
        skipped: ex.skipped.clone(),
    })
}

/// The inverted file's input: term–document–tf tuples with what the posting block stores.
pub(crate) const POSTINGS_INPUT: SchemaDef = SchemaDef {
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
pub(crate) const POSTINGS_DOCS: SchemaDef = SchemaDef {
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
