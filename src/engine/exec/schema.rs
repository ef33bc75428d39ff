//! The Parquet contract: every file the workbench exports for a big job has a named, versioned
//! schema, documented column by column (and in each field's `doc` metadata, so a file explains
//! itself to whoever opens it in pandas or Spark). This module holds the shape of a schema; each
//! lab defines its own beside its plans (`dedup::on_engine`, `index::on_engine`,
//! `querylog::on_engine`, `rank::on_engine`), and the composition root lists them all
//! (`crate::workbench::schemas`). The file's key-value metadata
//! carries `tianwang.schema` and `tianwang.version`, and the job's parameters where a column's
//! meaning depends on them (a signature's shingle length and seed).
//!
//! Rules that keep Spark and DataFusion reading the same numbers: 64-bit hashes are **signed**
//! `i64` (the same bits; Spark would read `u64` as a decimal), counts are `i32`/`i64`, text is
//! UTF-8. A version changes when a column changes meaning; readers refuse a file of another
//! schema with a message naming the file (exit 2).
//!
//! | schema | one row per | written by |
//! |---|---|---|
//! | `pages` v1 | document: name, site, headline, body, DocView keywords | `export-parquet --what pages` |
//! | `signatures` v1 | document: MD5, SimHash, MinHash band keys, CCDet sentence signatures | `--what signatures` |
//! | `minhash-bands` v1 | (document, band): the band key, long form for grouping | `--what signatures` |
//! | `postings-input` v1 | (term, document): tf, tag weight, positions | `--what postings-input` |
//! | `postings-docs` v1 | document: the index's entry, stored text, out-links | `--what postings-input` |
//! | `links` v1 | link: source and target node | `--what links` |
//! | `nodes` v1 | node of the link graph: dense id, own id, URL | `--what links` |
//! | `querylog` v1 | query-log record | `--what querylog` |
//!
//! ```
//! use tianwang::engine::exec::schema::{Col, SchemaDef, c};
//! const PAIRS: SchemaDef = SchemaDef {
//!     name: "pairs",
//!     version: 1,
//!     doc: "One row per pair.",
//!     columns: &[c("a", Col::I64, false, "first document"), c("b", Col::I64, false, "second")],
//! };
//! assert_eq!(PAIRS.arrow().metadata()["tianwang.schema"], "pairs");
//! ```

use std::path::Path;
use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};

use crate::engine::error::{EngineError, Result};

/// A column's type, in the few shapes the contract uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    I32,
    I64,
    F32,
    F64,
    Str,
    ListI32,
    ListI64,
    ListF64,
    ListStr,
}

impl Col {
    pub fn arrow(self) -> DataType {
        let list = |t: DataType| DataType::List(Arc::new(Field::new("item", t, true)));
        match self {
            Col::I32 => DataType::Int32,
            Col::I64 => DataType::Int64,
            Col::F32 => DataType::Float32,
            Col::F64 => DataType::Float64,
            Col::Str => DataType::Utf8,
            Col::ListI32 => list(DataType::Int32),
            Col::ListI64 => list(DataType::Int64),
            Col::ListF64 => list(DataType::Float64),
            Col::ListStr => list(DataType::Utf8),
        }
    }

    /// Whether a file's column type reads as this one (Spark writes `LargeUtf8` or `Utf8View`
    /// for strings in some versions; lists of any item nullability).
    fn accepts(self, t: &DataType) -> bool {
        let item = |t: &DataType| match t {
            DataType::List(f) | DataType::LargeList(f) => Some(f.data_type().clone()),
            _ => None,
        };
        let is_str =
            |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
        match self {
            Col::Str => is_str(t),
            Col::ListStr => item(t).is_some_and(|i| is_str(&i)),
            Col::ListI32 => item(t) == Some(DataType::Int32),
            Col::ListI64 => item(t) == Some(DataType::Int64),
            Col::ListF64 => item(t) == Some(DataType::Float64),
            _ => *t == self.arrow(),
        }
    }
}

/// One column of a schema.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub col: Col,
    pub nullable: bool,
    pub doc: &'static str,
}

pub const fn c(name: &'static str, col: Col, nullable: bool, doc: &'static str) -> Column {
    Column {
        name,
        col,
        nullable,
        doc,
    }
}

/// A named, versioned schema.
#[derive(Debug, Clone, Copy)]
pub struct SchemaDef {
    pub name: &'static str,
    pub version: u32,
    pub doc: &'static str,
    pub columns: &'static [Column],
}

impl SchemaDef {
    /// The Arrow schema with the name, version and column docs as metadata.
    pub fn arrow(&self) -> SchemaRef {
        let fields: Vec<Field> = self
            .columns
            .iter()
            .map(|c| {
                Field::new(c.name, c.col.arrow(), c.nullable).with_metadata(
                    [("doc".to_string(), c.doc.to_string())]
                        .into_iter()
                        .collect(),
                )
            })
            .collect();
        let meta = [
            ("tianwang.schema".to_string(), self.name.to_string()),
            ("tianwang.version".to_string(), self.version.to_string()),
        ]
        .into_iter()
        .collect();
        Arc::new(Schema::new_with_metadata(fields, meta))
    }

    /// Check a file's schema: our metadata, when present, names this schema and a version we
    /// read; every column is there with a type that reads as ours.
    pub fn check(&self, found: &Schema, file: &Path) -> Result<()> {
        let bad = |reason: String| EngineError::bad_input(file.display(), 0, reason);
        if let Some(name) = found.metadata().get("tianwang.schema")
            && name != self.name
        {
            return Err(bad(format!(
                "a `{name}` file where a `{}` file was expected",
                self.name
            )));
        }
        if let Some(v) = found.metadata().get("tianwang.version")
            && v.parse::<u32>().ok() != Some(self.version)
        {
            return Err(bad(format!(
                "`{}` version {v}; this build reads version {}",
                self.name, self.version
            )));
        }
        for col in self.columns {
            match found.field_with_name(col.name) {
                Ok(f) if col.col.accepts(f.data_type()) => {}
                Ok(f) => {
                    return Err(bad(format!(
                        "column `{}` is {}, `{}` v{} needs {}",
                        col.name,
                        f.data_type(),
                        self.name,
                        self.version,
                        col.col.arrow()
                    )));
                }
                Err(_) => {
                    return Err(bad(format!(
                        "no column `{}`: not a `{}` v{} file",
                        col.name, self.name, self.version
                    )));
                }
            }
        }
        Ok(())
    }

    /// The contract as Markdown (for `export-parquet --schemas` and the docs).
    pub(crate) fn markdown(&self) -> String {
        let mut s = format!(
            "### `{}` v{}\n{}\n\n| column | type | null | meaning |\n|---|---|---|---|\n",
            self.name, self.version, self.doc
        );
        for c in self.columns {
            s += &format!(
                "| `{}` | {} | {} | {} |\n",
                c.name,
                c.col.arrow(),
                if c.nullable { "yes" } else { "no" },
                c.doc
            );
        }
        s
    }
}
