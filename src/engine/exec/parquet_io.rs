//! Parquet files in and out, through DataFusion's re-exported arrow and parquet (never a
//! second copy): a writer that leaves nothing half-written (a temporary file renamed into
//! place when complete), and a reader of a file or a directory of `*.parquet` parts (what
//! DataFusion and Spark write) that checks the columns against a versioned
//! [`SchemaDef`](super::schema::SchemaDef) before it trusts them.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::datatypes::{Schema, SchemaRef};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterProperties;

use super::schema::SchemaDef;
use crate::engine::error::{EngineError, Flaw, Result};

fn io(path: &Path, e: std::io::Error) -> EngineError {
    EngineError::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

/// A Parquet file written to `<path>.tmp` and renamed to `path` by [`finish`](Self::finish).
/// Dropped unfinished, the temporary file is removed.
pub(crate) struct AtomicWriter {
    tmp: PathBuf,
    path: PathBuf,
    w: Option<ArrowWriter<File>>,
}

impl AtomicWriter {
    /// A writer of `schema` with `metadata` added to the file's key-value metadata.
    pub fn create(path: &Path, schema: SchemaRef, metadata: &[(String, String)]) -> Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        let tmp = path.with_extension("parquet.tmp");
        let f = File::create(&tmp).map_err(|e| io(&tmp, e))?;
        let mut meta = schema.metadata().clone();
        for (k, v) in metadata {
            meta.insert(k.clone(), v.clone());
        }
        let schema = Arc::new(Schema::new_with_metadata(schema.fields().clone(), meta));
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .build();
        let w = ArrowWriter::try_new(f, schema, Some(props))
            .map_err(|e| EngineError::Internal(format!("{}: {e}", path.display())))?;
        Ok(AtomicWriter {
            tmp,
            path: path.to_path_buf(),
            w: Some(w),
        })
    }

    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let w = self
            .w
            .as_mut()
            .ok_or_else(|| EngineError::Internal("write after finish".into()))?;
        w.write(batch).map_err(|e| self.unwritable(e))
    }

    /// Write the rows buffered so far as a row group (a file written in parts holds at most
    /// one part in memory).
    pub fn flush(&mut self) -> Result<()> {
        let w = self
            .w
            .as_mut()
            .ok_or_else(|| EngineError::Internal("flush after finish".into()))?;
        w.flush().map_err(|e| self.unwritable(e))
    }

    /// A batch the writer could not put on disk: a full disk or an unwritable folder, the
    /// user's to fix (the batches themselves match the schema the writer was made with).
    fn unwritable(&self, e: impl std::fmt::Display) -> EngineError {
        EngineError::path_flaw(
            self.path.clone(),
            Flaw::with_detail("flaw.parquet_unwritable", &[], e),
        )
    }

    /// Close the file and move it into place.
    pub fn finish(mut self) -> Result<()> {
        let w = self
            .w
            .take()
            .ok_or_else(|| EngineError::Internal("finish twice".into()))?;
        w.close().map_err(|e| self.unwritable(e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| io(&self.path, e))
    }
}

impl Drop for AtomicWriter {
    fn drop(&mut self) {
        if self.w.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `batches` (all of `schema`) as one file.
pub fn write_file(
    path: &Path,
    schema: SchemaRef,
    batches: &[RecordBatch],
    metadata: &[(String, String)],
) -> Result<()> {
    let mut w = AtomicWriter::create(path, schema, metadata)?;
    for b in batches {
        w.write(b)?;
    }
    w.finish()
}

/// The Parquet files at `path`: the file itself, or a directory's `*.parquet` files (hidden
/// and `_`-prefixed files skipped, as Spark writes `_SUCCESS`), sorted by name.
pub fn parts(path: &Path) -> Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let rd = std::fs::read_dir(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".parquet") && !n.starts_with('.') && !n.starts_with('_')
        })
        .collect();
    v.sort();
    Ok(v)
}

/// A file's key-value metadata (`tianwang.*` keys), sorted.
pub type Meta = Vec<(String, String)>;

/// Every batch at `path`, checked against `def` (columns by name and type; extra columns are
/// allowed, a file of another job's schema is the user's bad input naming the file).
pub fn read(path: &Path, def: &SchemaDef) -> Result<(Vec<RecordBatch>, Meta)> {
    let files = parts(path)?;
    if files.is_empty() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.parquet_none_of", &[&def.name, &def.version]),
        ));
    }
    let mut out = Vec::new();
    let mut meta = Vec::new();
    for f in files {
        let b = open(&f, Some(def))?;
        if meta.is_empty() {
            // Our key-values travel in the embedded Arrow schema's metadata.
            meta = b
                .schema()
                .metadata()
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            meta.sort();
        }
        let reader = b
            .with_batch_size(8192)
            .build()
            .map_err(|e| EngineError::bad_input(f.display(), 0, e.to_string()))?;
        for batch in reader {
            out.push(batch.map_err(|e| EngineError::bad_input(f.display(), 0, e.to_string()))?);
        }
    }
    Ok((out, meta))
}

/// One Parquet file opened for reading: a file that cannot be opened is a bad path, one that is
/// not Parquet (or, with `def`, of another schema) the user's bad input naming the file. Every
/// reader of the contract opens files here.
pub fn open(f: &Path, def: Option<&SchemaDef>) -> Result<ParquetRecordBatchReaderBuilder<File>> {
    let file = File::open(f).map_err(|e| EngineError::path_os(f.to_path_buf(), e))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| EngineError::bad_input(f.display(), 0, format!("not a Parquet file: {e}")))?;
    if let Some(def) = def {
        def.check(b.schema(), f)?;
    }
    Ok(b)
}

/// Every batch of a plan's output directory (no schema check: the plan's own output).
pub fn read_output(dir: &Path) -> Result<Vec<RecordBatch>> {
    let mut out = Vec::new();
    for f in parts(dir)? {
        let r = open(&f, None)?
            .build()
            .map_err(|e| EngineError::Internal(format!("{}: {e}", f.display())))?;
        for b in r {
            out.push(b.map_err(|e| EngineError::Internal(e.to_string()))?);
        }
    }
    Ok(out)
}

/// The `tianwang.*` keys of the Arrow schema stored in the first file at `path` (where
/// [`AtomicWriter`] puts them: the Parquet key-value list holds only `ARROW:schema`).
pub(crate) fn schema_meta(path: &Path) -> Result<Meta> {
    let Some(f) = parts(path)?.into_iter().next() else {
        return Ok(Vec::new());
    };
    let b = open(&f, None)?;
    let mut m: Meta = b
        .schema()
        .metadata()
        .iter()
        .filter(|(k, _)| k.starts_with("tianwang."))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    m.sort();
    Ok(m)
}

/// The value of `key` in a file's key-value metadata.
pub(crate) fn meta_get<'a>(meta: &'a [(String, String)], key: &str) -> Option<&'a str> {
    meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}
