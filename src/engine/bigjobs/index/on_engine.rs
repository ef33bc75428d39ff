//! The export, the plan and the read-back of the index build on an engine (feature `bigjobs`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float32Array, Float32Builder, Int32Array, Int32Builder, Int64Array,
    Int64Builder, ListArray, ListBuilder, RecordBatch, StringArray, StringBuilder,
};
use datafusion::arrow::datatypes::{Float32Type, Int32Type, Int64Type};
use datafusion::parquet::arrow::arrow_reader::{
    ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};

use super::{POSTINGS_DOCS, POSTINGS_INPUT};
use crate::engine::bigjobs::dedup::tempfile_dir;
use crate::engine::bigjobs::parquet_io::{self, AtomicWriter};
use crate::engine::bigjobs::plan::{Plan, RunReport};
use crate::engine::bigjobs::schema::{Col, SchemaDef};
use crate::engine::bigjobs::{EngineConfig, run_plan};
use crate::engine::classify::experiment::Scaled;
use crate::engine::error::{EngineError, Result};
use crate::engine::index::build::{
    self, DocSink, DocTerms, Finished, IndexConfig, Opened, analyse_all, in_generation,
};
use crate::engine::index::disk::{DocInfo, EngineRun, Meta, Timings};
use crate::engine::index::merge::{KWay, Posting, PostingStream, merge};
use crate::engine::index::source::Source;
use crate::engine::jobs::Tick;
use crate::engine::store::Workspace;

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
        for (id, pos, w) in d.terms {
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
                    .append_value(i32::try_from(x).map_err(internal)?);
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

/// Batches of the Parquet files at a path, one file after another, each file's schema checked
/// against `def` when given (columns are then read by name, cast to the contract's types).
struct Batches {
    files: std::vec::IntoIter<PathBuf>,
    def: Option<SchemaDef>,
    cur: Option<(PathBuf, ParquetRecordBatchReader)>,
}

impl Batches {
    fn of_files(files: Vec<PathBuf>, def: Option<SchemaDef>) -> Batches {
        Batches {
            files: files.into_iter(),
            def,
            cur: None,
        }
    }

    fn open(path: &Path, def: Option<SchemaDef>) -> Result<Batches> {
        let files = parquet_io::parts(path)?;
        if files.is_empty() {
            return Err(EngineError::BadPath {
                path: path.to_path_buf(),
                reason: "no .parquet file here".into(),
            });
        }
        Ok(Batches::of_files(files, def))
    }

    fn next_batch(&mut self) -> Result<Option<(PathBuf, RecordBatch)>> {
        loop {
            if let Some((f, r)) = &mut self.cur {
                match r.next() {
                    Some(b) => {
                        let b =
                            b.map_err(|e| EngineError::bad_input(f.display(), 0, e.to_string()))?;
                        return Ok(Some((f.clone(), b)));
                    }
                    None => self.cur = None,
                }
            }
            let Some(f) = self.files.next() else {
                return Ok(None);
            };
            let file = File::open(&f).map_err(|e| EngineError::BadPath {
                path: f.clone(),
                reason: e.to_string(),
            })?;
            let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| {
                EngineError::bad_input(f.display(), 0, format!("not a Parquet file: {e}"))
            })?;
            if let Some(def) = &self.def {
                def.check(b.schema(), &f)?;
            }
            let r = b
                .with_batch_size(8192)
                .build()
                .map_err(|e| EngineError::bad_input(f.display(), 0, e.to_string()))?;
            self.cur = Some((f, r));
        }
    }
}

/// Column `name` of `b` cast to `col`'s type (Spark writes other string and list shapes).
fn column(b: &RecordBatch, f: &Path, name: &str, col: Col) -> Result<ArrayRef> {
    let a = b
        .column_by_name(name)
        .ok_or_else(|| EngineError::bad_input(f.display(), 0, format!("no column `{name}`")))?;
    datafusion::arrow::compute::cast(a, &col.arrow())
        .map_err(|e| EngineError::bad_input(f.display(), 0, format!("column `{name}`: {e}")))
}

fn no_nulls(a: &dyn Array, f: &Path, name: &str) -> Result<()> {
    if a.null_count() > 0 {
        return Err(EngineError::bad_input(
            f.display(),
            0,
            format!("column `{name}` has nulls"),
        ));
    }
    Ok(())
}

/// One batch of postings, columns decoded.
struct PostingBatch {
    file: PathBuf,
    term_id: Int64Array,
    term: Option<StringArray>,
    doc: Int64Array,
    tf: Int32Array,
    wbt: Float32Array,
    positions: ListArray,
}

impl PostingBatch {
    fn of(file: PathBuf, b: &RecordBatch, with_term: bool) -> Result<PostingBatch> {
        let f = file.as_path();
        let get = |n: &str, c: Col| -> Result<ArrayRef> {
            let a = column(b, f, n, c)?;
            no_nulls(&a, f, n)?;
            Ok(a)
        };
        Ok(PostingBatch {
            term_id: get("term_id", Col::I64)?
                .as_primitive::<Int64Type>()
                .clone(),
            term: if with_term {
                Some(get("term", Col::Str)?.as_string::<i32>().clone())
            } else {
                None
            },
            doc: get("doc", Col::I64)?.as_primitive::<Int64Type>().clone(),
            tf: get("tf", Col::I32)?.as_primitive::<Int32Type>().clone(),
            wbt: get("wbt", Col::F32)?.as_primitive::<Float32Type>().clone(),
            positions: get("positions", Col::ListI32)?.as_list::<i32>().clone(),
            file,
        })
    }

    fn bad(&self, i: usize, what: &str) -> EngineError {
        EngineError::bad_input(self.file.display(), format!("row {}", i + 1), what)
    }

    fn posting(&self, i: usize) -> Result<Posting> {
        let u = |v: i64, what: &str| u32::try_from(v).map_err(|_| self.bad(i, what));
        let p = self.positions.value(i);
        let p = p.as_primitive::<Int32Type>();
        let positions = p
            .iter()
            .map(|x| {
                x.and_then(|x| u32::try_from(x).ok())
                    .ok_or_else(|| self.bad(i, "a position is null or negative"))
            })
            .collect::<Result<Vec<u32>>>()?;
        Ok(Posting {
            term: u(self.term_id.value(i), "term_id is not a 32-bit id")?,
            doc: u(self.doc.value(i), "doc is not a 32-bit number")?,
            tf: u(i64::from(self.tf.value(i)), "tf is negative")?,
            wbt: self.wbt.value(i),
            positions,
        })
    }
}

/// A postings file read back one row at a time, in file order.
pub struct PostingsReader {
    batches: Batches,
    cur: Option<PostingBatch>,
    row: usize,
    with_term: bool,
}

/// A `postings-input` row as the file holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct PostingRow {
    pub term: String,
    pub posting: Posting,
}

impl PostingsReader {
    /// A `postings-input` file (or a directory of parts), its schema checked.
    pub fn open(path: &Path) -> Result<PostingsReader> {
        Ok(PostingsReader {
            batches: Batches::open(path, Some(POSTINGS_INPUT))?,
            cur: None,
            row: 0,
            with_term: true,
        })
    }

    /// One part of an engine's sorted output (term_id, doc, tf, wbt, positions).
    fn sorted_part(file: PathBuf) -> PostingsReader {
        PostingsReader {
            batches: Batches::of_files(vec![file], None),
            cur: None,
            row: 0,
            with_term: false,
        }
    }

    /// The next row: the term's text (empty for a sorted part) and the posting.
    pub fn next_row(&mut self) -> Result<Option<PostingRow>> {
        loop {
            if let Some(b) = &self.cur {
                if self.row < b.doc.len() {
                    let i = self.row;
                    self.row += 1;
                    let term = b.term.as_ref().map(|t| t.value(i).to_string());
                    return Ok(Some(PostingRow {
                        term: term.unwrap_or_default(),
                        posting: b.posting(i)?,
                    }));
                }
            }
            let Some((f, batch)) = self.batches.next_batch()? else {
                return Ok(None);
            };
            self.cur = Some(PostingBatch::of(f, &batch, self.with_term)?);
            self.row = 0;
        }
    }
}

impl PostingStream for PostingsReader {
    fn next_posting(&mut self) -> Result<Option<Posting>> {
        Ok(self.next_row()?.map(|r| r.posting))
    }
}

/// Every row of a `postings-input` file (for tests and small corpora; the build streams).
pub fn read_postings_input(path: &Path) -> Result<Vec<PostingRow>> {
    let mut r = PostingsReader::open(path)?;
    let mut out = Vec::new();
    while let Some(row) = r.next_row()? {
        out.push(row);
    }
    Ok(out)
}

/// A `postings-docs` row: the document's entry (text offsets unset), text and out-links.
#[derive(Debug, Clone, PartialEq)]
pub struct DocRow {
    pub doc: u32,
    pub info: DocInfo,
    pub text: String,
    pub out_docs: Vec<u32>,
}

/// Every row of a `postings-docs` file, one batch at a time, to `f` in file order.
pub fn for_each_doc(path: &Path, mut f: impl FnMut(DocRow) -> Result<()>) -> Result<()> {
    let mut batches = Batches::open(path, Some(POSTINGS_DOCS))?;
    while let Some((file, b)) = batches.next_batch()? {
        let fp = file.as_path();
        let int = |n: &str| -> Result<Int64Array> {
            let a = column(&b, fp, n, Col::I64)?;
            no_nulls(&a, fp, n)?;
            Ok(a.as_primitive::<Int64Type>().clone())
        };
        let text = |n: &str| -> Result<StringArray> {
            Ok(column(&b, fp, n, Col::Str)?.as_string::<i32>().clone())
        };
        let float = |n: &str| -> Result<Float32Array> {
            Ok(column(&b, fp, n, Col::F32)?
                .as_primitive::<Float32Type>()
                .clone())
        };
        let (doc, len, distinct, chars, lhn, raw_lhn) = (
            int("doc")?,
            int("len")?,
            int("distinct")?,
            int("chars")?,
            int("lhn")?,
            int("raw_lhn")?,
        );
        let (key, title, url, crawled, body) = (
            text("key")?,
            text("title")?,
            text("url")?,
            text("crawled_at")?,
            text("text")?,
        );
        let (ntf, nbin) = (float("norm_tf")?, float("norm_binary")?);
        let outs = column(&b, fp, "out_docs", Col::ListI64)?;
        let outs = outs.as_list::<i32>();
        for i in 0..b.num_rows() {
            let bad =
                |what: &str| EngineError::bad_input(fp.display(), format!("row {}", i + 1), what);
            let u = |v: i64, what: &str| u32::try_from(v).map_err(|_| bad(what));
            let s = |a: &StringArray| {
                if a.is_null(i) {
                    String::new()
                } else {
                    a.value(i).to_string()
                }
            };
            let o = outs.value(i);
            let out_docs = o
                .as_primitive::<Int64Type>()
                .iter()
                .map(|x| {
                    x.and_then(|x| u32::try_from(x).ok())
                        .ok_or_else(|| bad("a bad out_docs entry"))
                })
                .collect::<Result<Vec<u32>>>()?;
            f(DocRow {
                doc: u(doc.value(i), "doc is not a 32-bit number")?,
                info: DocInfo {
                    key: s(&key),
                    title: s(&title),
                    url: s(&url),
                    len: u(len.value(i), "len out of range")?,
                    distinct: u(distinct.value(i), "distinct out of range")?,
                    chars: u(chars.value(i), "chars out of range")?,
                    lhn: u(lhn.value(i), "lhn out of range")?,
                    raw_lhn: u(raw_lhn.value(i), "raw_lhn out of range")?,
                    crawled_at: (!crawled.is_null(i)).then(|| crawled.value(i).to_string()),
                    norms: [ntf.value(i), nbin.value(i), 0.0],
                    ..DocInfo::default()
                },
                text: s(&body),
                out_docs,
            })?;
        }
    }
    Ok(())
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

/// Term texts by id from the plan's `lexicon` output; every id from 0 must be there once.
fn read_lexicon(dir: &Path) -> Result<Vec<String>> {
    let mut pairs: Vec<(i64, String)> = Vec::new();
    let mut batches = Batches::open(dir, None)?;
    while let Some((f, b)) = batches.next_batch()? {
        let id = column(&b, &f, "term_id", Col::I64)?;
        let id = id.as_primitive::<Int64Type>();
        let t = column(&b, &f, "term", Col::Str)?;
        let t = t.as_string::<i32>();
        for i in 0..b.num_rows() {
            pairs.push((id.value(i), t.value(i).to_string()));
        }
    }
    pairs.sort_unstable_by_key(|p| p.0);
    for (k, (id, _)) in pairs.iter().enumerate() {
        if *id != k as i64 {
            return Err(internal(format!(
                "the engine's lexicon lacks or repeats term id {k} (found {id})"
            )));
        }
    }
    Ok(pairs.into_iter().map(|p| p.1).collect())
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
    let mut opened = build::open_source(src, ws)?;
    timings.read_s += t0.elapsed().as_secs_f64();
    let work = tempfile_dir("index")?;
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
                source: src.describe(),
                config: cfg.clone(),
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
            return Err(internal(format!(
                "postings-docs: document {} where {} was due",
                row.doc,
                docs.len()
            )));
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
        &names,
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
