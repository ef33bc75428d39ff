//! Reading the index build's Parquet back (feature `bigjobs`): `postings-input` rows and
//! `postings-docs` rows streamed one batch at a time, each file's schema checked first (a file of
//! another schema is the user's bad input naming it, exit 2), and the engine's sorted parts and
//! lexicon as the merge reads them.
//!
//! ```no_run
//! use tianwang::engine::exec::index::read::PostingsReader;
//! let mut r = PostingsReader::open("out/postings-input.parquet".as_ref()).unwrap();
//! while let Some(row) = r.next_row().unwrap() {
//!     println!("{} {} tf={}", row.term, row.posting.doc, row.posting.tf);
//! }
//! ```

use std::path::{Path, PathBuf};

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float32Array, Int32Array, Int64Array, ListArray, RecordBatch,
    StringArray,
};
use datafusion::arrow::datatypes::{Float32Type, Int32Type, Int64Type};
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReader;

use super::{POSTINGS_DOCS, POSTINGS_INPUT};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::exec::parquet_io;
use crate::engine::exec::schema::{Col, SchemaDef};
use crate::engine::index::disk::DocInfo;
use crate::engine::index::merge::{Posting, PostingStream};

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
            return Err(EngineError::path_flaw(
                path,
                Flaw::new("flaw.parquet_none", &[]),
            ));
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
            let b = parquet_io::open(&f, self.def.as_ref())?;
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
    pub(crate) fn sorted_part(file: PathBuf) -> PostingsReader {
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
            if let Some(b) = &self.cur
                && self.row < b.doc.len()
            {
                let i = self.row;
                self.row += 1;
                let term = b.term.as_ref().map(|t| t.value(i).to_string());
                return Ok(Some(PostingRow {
                    term: term.unwrap_or_default(),
                    posting: b.posting(i)?,
                }));
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

/// Term texts by id from the plan's `lexicon` output; every id from 0 must be there once.
pub(crate) fn read_lexicon(dir: &Path) -> Result<Vec<String>> {
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
            // The ids come from the postings input (a file the user may have made).
            return Err(EngineError::invalid(
                "--postings-input",
                format!(
                    "its term ids must run 0, 1, 2 … without a gap or a repeat; id {k} is missing or repeated (found {id})"
                ),
            ));
        }
    }
    Ok(pairs.into_iter().map(|p| p.1).collect())
}
