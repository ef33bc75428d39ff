//! What is wrong inside a damaged file, and what the system said about a failed read or
//! write, in the UI's language: a [`Flaw`] is a key of the string tables, its arguments and
//! the English the CLI prints. [`EngineError::Corrupt`] carries one ("a posting block is cut
//! short", "checksum mismatch …"), and [`EngineError::Io`] says its system error through one
//! ([`Flaw::os`]), so the zh UI says "索引文件 … 已损坏（校验和不符……）" instead of an
//! English detail inside a Chinese sentence.
//!
//! Each entry of [`FLAW`] is a key and its English template: `{0}`, `{1}` … are the
//! arguments, and `{*}` is a detail only the English says — a library's own message (a JSON
//! parser's "expected value at line 1 column 1", the system's "No such file or directory
//! (os error 2)"). In the string tables `{*}` is the argument after the others: the English
//! table says it where the template does, the Chinese one leaves it out (a test checks both).
//!
//! ```ignore
//! let f = Flaw::new("flaw.doc_count", &[&3, &5]);
//! assert_eq!(f.english, "holds 3 documents where the meta says 5");
//! return Err(EngineError::corrupt(docs_path, f));
//! // zh UI: "索引文件 …/docs.json 已损坏或格式不对（有 3 篇文档，而元数据说有 5 篇）；请重建索引 …"
//! ```

use std::fmt::Display;

use super::ErrorCode;

/// What is wrong with a damaged file (or what the system said): a key of [`FLAW`], its
/// arguments, the English-only detail when the template has one, and the English sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flaw {
    pub key: &'static str,
    pub args: Vec<String>,
    pub detail: Option<String>,
    pub english: String,
}

impl Flaw {
    /// The flaw `key` of [`FLAW`] with its arguments (a template without `{*}`).
    pub fn new(key: &'static str, args: &[&dyn Display]) -> Flaw {
        Flaw::build(key, args, None)
    }

    /// The flaw `key` with its arguments and the English-only `detail` its template ends with
    /// (`{*}`): a library's or the system's own message.
    pub fn with_detail(key: &'static str, args: &[&dyn Display], detail: impl Display) -> Flaw {
        Flaw::build(key, args, Some(detail.to_string()))
    }

    fn build(key: &'static str, args: &[&dyn Display], detail: Option<String>) -> Flaw {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        // A key missing from the table is a bug the table test catches (every key the source
        // names is in it); the English then is the key and its arguments, never nothing.
        let mut english = match entry(key) {
            Some((_, t)) => super::fill(t, &args, 0),
            None => format!("{key} {}", args.join(" ")),
        };
        if let Some(d) = &detail {
            english = english.replace("{*}", d);
        }
        Flaw {
            key,
            args,
            detail,
            english,
        }
    }

    /// The system's error, by its kind: "No such file or directory (os error 2)" in English
    /// and "找不到该文件或文件夹" in Chinese. A kind without an entry says its OS error number.
    pub(crate) fn os(e: &std::io::Error) -> Flaw {
        use std::io::ErrorKind as K;
        let key = match e.kind() {
            K::NotFound => "flaw.os_not_found",
            K::PermissionDenied => "flaw.os_permission",
            K::AlreadyExists => "flaw.os_exists",
            K::StorageFull => "flaw.os_disk_full",
            K::ReadOnlyFilesystem => "flaw.os_read_only",
            K::IsADirectory => "flaw.os_is_dir",
            K::NotADirectory => "flaw.os_not_dir",
            K::DirectoryNotEmpty => "flaw.os_dir_not_empty",
            K::UnexpectedEof => "flaw.os_eof",
            K::InvalidData => "flaw.os_invalid_data",
            K::TimedOut => "flaw.os_timed_out",
            K::Interrupted => "flaw.os_interrupted",
            K::OutOfMemory => "flaw.os_out_of_memory",
            _ => {
                let code = e
                    .raw_os_error()
                    .map_or_else(|| "?".to_string(), |c| c.to_string());
                return Flaw::with_detail("flaw.os_other", &[&code], e);
            }
        };
        Flaw::with_detail(key, &[], e)
    }

    /// The system's error on a file the user gave with `flag` (`--trace`, or a panel's
    /// field): "No such file or directory (os error 2) (--trace)" in English, "找不到该文件
    /// （`--trace`）" in Chinese; kinds other than missing and forbidden say the flag only.
    pub(crate) fn os_for(e: &std::io::Error, flag: &str) -> Flaw {
        let key = match e.kind() {
            std::io::ErrorKind::NotFound => "flaw.os_not_found_for",
            std::io::ErrorKind::PermissionDenied => "flaw.os_permission_for",
            _ => "flaw.os_other_for",
        };
        Flaw::with_detail(key, &[&flag], e)
    }

    /// As an error code: the key with its arguments, the English-only detail after them.
    pub fn code(&self) -> ErrorCode {
        let mut args = self.args.clone();
        args.extend(self.detail.iter().cloned());
        ErrorCode::new(self.key, args)
    }

    /// Back from a stored code (`from_json`): the key as this build spells it, if it knows it.
    pub(crate) fn known_key(key: &str) -> Option<&'static str> {
        entry(key).map(|(k, _)| *k)
    }
}

/// The table's entry of `key`: the key as the table spells it and its English template.
fn entry(key: &str) -> Option<&'static (&'static str, &'static str)> {
    FLAW.iter().find(|(k, _)| *k == key)
}

/// Every flaw: key and English template (`{0}` … the arguments, `{*}` the English-only detail).
pub(crate) const FLAW: &[(&str, &str)] = &[
    // An index generation's files (`engine::index`).
    (
        "flaw.no_footer",
        "no checksum footer: the file is cut short or was not written by this program",
    ),
    (
        "flaw.checksum",
        "checksum mismatch: bytes were changed after the index was written",
    ),
    ("flaw.cut_short", "cut short"),
    ("flaw.not_meta", "not an index's meta: {*}"),
    ("flaw.not_doc_table", "not a document table: {*}"),
    (
        "flaw.doc_count",
        "holds {0} documents where the meta says {1}",
    ),
    (
        "flaw.block_outside_sized",
        "the block of term {0} lies outside the file ({1} bytes)",
    ),
    (
        "flaw.block_outside",
        "the block of term {0} lies outside the file",
    ),
    (
        "flaw.text_outside",
        "document {0}'s text lies outside text.bin ({1} bytes)",
    ),
    (
        "flaw.text_unreadable",
        "document {0}'s text cannot be read: {*}",
    ),
    ("flaw.text_not_utf8", "document {0}'s text is not UTF-8"),
    (
        "flaw.list_df",
        "the list of term {0} holds {1} documents where the lexicon says {2}",
    ),
    ("flaw.list_order", "the list of term {0} is out of order"),
    (
        "flaw.list_doc_range",
        "the list of term {0} names document {1}, but there are {2}",
    ),
    ("flaw.no_lexicon_header", "not a lexicon: no TWLX header"),
    (
        "flaw.lexicon_claims",
        "claims {0} terms but its bytes hold at most {1}",
    ),
    ("flaw.term_not_utf8", "a term is not UTF-8"),
    ("flaw.terms_order", "the terms are not in order"),
    ("flaw.after_last_term", "bytes after the last term"),
    (
        "flaw.number_in_block",
        "a posting block ends inside a number",
    ),
    ("flaw.number_overflow", "a number overflows 32 bits"),
    ("flaw.number_too_long", "a number is too long"),
    ("flaw.block_cut_short", "a posting block is cut short"),
    (
        "flaw.block_claims",
        "a posting block claims more postings than it holds",
    ),
    ("flaw.list_length", "a posting list has the wrong length"),
    ("flaw.coded_list_early", "a coded list ends early"),
    ("flaw.gap_overflow", "a gap overflows 32 bits"),
    ("flaw.gamma_too_long", "a γ code is too long"),
    ("flaw.codec_count", "{0} decoded {1} of {2} values"),
    ("flaw.run_in_posting", "ends inside a posting"),
    ("flaw.current_none", "names no generation"),
    ("flaw.current_missing", "names {0}, which does not exist"),
    (
        "flaw.docs_order",
        "document {0} where {1} was due: the documents must be 0, 1, 2 … in order",
    ),
    // Entries of the workspace.
    (
        "flaw.snapshot_date",
        "the snapshot of {0} has the date {1}, not RFC 3339: {*}",
    ),
    (
        "flaw.record_inflate",
        "the record of {0} does not inflate: {*}",
    ),
    ("flaw.model_decode", "stored model {0} does not decode: {*}"),
    (
        "flaw.keywords_decode",
        "the cleaned page {0} has keywords that do not read back: {*}",
    ),
    (
        "flaw.job_detail",
        "the detail `{0}` of job {1} does not read back: {*}",
    ),
    (
        "flaw.log_format",
        "stored query log #{0} has the format `{1}`, which this build does not know",
    ),
    (
        "flaw.log_field",
        "stored query log #{0}: a field is not text ({*})",
    ),
    // A data set's files as a reader finds them (the article-extraction benchmark's pages).
    ("flaw.gzip_bad", "does not gunzip: {*}"),
    (
        "flaw.inflate_too_big",
        "inflates to more than {0} MB, more than any page of the set",
    ),
    (
        "flaw.file_too_big",
        "larger than {0} MB, more than this file can be",
    ),
    ("flaw.aeb_no_truth", "has no entry for the page {0}"),
    (
        "flaw.path_no_aeb",
        "no html/NAME.html.gz pages with a ground-truth.json here",
    ),
    // Any file.
    ("flaw.not_json", "not JSON: {*}"),
    ("flaw.listen_in_use", "cannot listen: {*}"),
    ("flaw.listen_failed", "cannot listen: {*}"),
    (
        "flaw.data_dir_unwritable",
        "cannot write the data folder here ({*}); use --data DIR or set {0}",
    ),
    ("flaw.log_unwritable", "could not write the log: {*}"),
    (
        "flaw.parquet_unwritable",
        "could not write this Parquet file: {*}",
    ),
    ("flaw.parquet_missing", "no such Parquet file or directory"),
    ("flaw.parquet_unreadable", "not readable as Parquet: {*}"),
    ("flaw.parquet_none", "no .parquet file here"),
    (
        "flaw.parquet_none_of",
        "no .parquet file here (expected {0} v{1})",
    ),
    (
        "flaw.parquet_no_postings_input",
        "no {0} file here (export-parquet --what postings-input)",
    ),
    ("flaw.path_sqlite_open", "{*}"),
    // A parameter typed into a field ([`EngineError::invalid_flaw`]).
    ("flaw.param_not_percent", "`{0}` is not a percentage"),
    (
        "flaw.param_percent_range",
        "`{0}`: a percentage must be in (0, 100]",
    ),
    ("flaw.param_not_size", "`{0}` is not a size"),
    ("flaw.param_no_seed", "give at least one seed URL"),
    (
        "flaw.param_spark_url",
        "`{0}`: a Spark master URL such as spark://host:7077 or local[4]",
    ),
    (
        "flaw.param_memory_mb",
        "{0} MB: give 1 to {1} MB (this machine's memory)",
    ),
    (
        "flaw.param_spark_unreachable",
        "cannot reach the Spark master {0} ({*}); nothing was changed",
    ),
    (
        "flaw.param_spark_missing",
        "spark is not installed here ({0}): run scale/setup.sh{*}",
    ),
    (
        "flaw.param_no_searchable_word",
        "{0} has no searchable word (empty, or only stop words and punctuation)",
    ),
    ("flaw.param_no_document", "no document {0}"),
    ("flaw.param_bad_url", "`{0}`: {*}"),
    ("flaw.param_not_http", "`{0}` is not an http(s) URL"),
    (
        "flaw.param_sample_or_seeds",
        "build from the sample web (--sample) or from seeds (--seed URL), one of them",
    ),
    ("flaw.param_size_zero", "a cache size must be at least 1"),
    ("flaw.param_no_size", "no size given"),
    ("flaw.param_not_keep", "`{0}` is not N or X%"),
    (
        "flaw.param_keep_percent",
        "a percentage must be in (0, 100]",
    ),
    (
        "flaw.param_not_keep_or_all",
        "`{0}` is not a positive N, X% or all",
    ),
    // A path that cannot be used ([`EngineError::path_flaw`]).
    (
        "flaw.path_no_home",
        "no home directory to keep workspaces in: set TIANWANG_DATA_DIR or pass --workspace",
    ),
    (
        "flaw.path_is_dir_not_workspace",
        "is a directory, not a workspace file",
    ),
    ("flaw.path_exists", "already exists; choose a new file name"),
    ("flaw.path_no_file", "no such file"),
    ("flaw.path_is_workspace", "is the workspace itself"),
    (
        "flaw.path_no_class_folders",
        "no class folders with documents",
    ),
    ("flaw.path_no_folder", "no such folder"),
    ("flaw.path_not_file_name", "not a file name"),
    ("flaw.path_folder_for", "a folder, not a file ({0})"),
    ("flaw.path_plot_ext", "a plot is saved as .png or .svg"),
    ("flaw.path_no_ccwe", "no ccwe pages with cleaned texts"),
    ("flaw.path_no_html", "no .html files in this folder"),
    ("flaw.path_no_txt", "no .txt files in this folder"),
    (
        "flaw.path_no_txt_html",
        "no .txt or .html files in this folder",
    ),
    (
        "flaw.path_no_txt_html_file",
        "no .txt or .html file in this folder",
    ),
    (
        "flaw.path_few_sites",
        "fewer than two sites with boilerplate lines in this half",
    ),
    (
        "flaw.path_not_data_copy",
        "not a folder; give a copy laid out as the shared data folder (classification/, extraction/, graph/, cache/, references/)",
    ),
    (
        "flaw.path_is_data_folder",
        "this is the data folder itself; run `tianwang data verify` instead",
    ),
    (
        "flaw.path_index_locked",
        "another build of this index is running; wait for it to finish",
    ),
    (
        "flaw.path_index_churn",
        "the index keeps changing while it is opened (builds in a loop?); try again",
    ),
    ("flaw.path_no_parent_folder", "folder {0} does not exist"),
    (
        "flaw.path_read_only_old",
        "read-only, and written by an older build (schema {0}; this build upgrades to {1}): make it writable once so it can be upgraded",
    ),
    (
        "flaw.path_no_wal",
        "SQLite could not switch this file to WAL (journal mode is {0}); keep the workspace on a local disk",
    ),
    (
        "flaw.path_no_truth",
        "no NAME.html here has a NAME.txt in {0}",
    ),
    (
        "flaw.path_index_newer",
        "index format {0} is newer than this program reads ({1})",
    ),
    // The system's errors ([`Flaw::os`]).
    ("flaw.os_not_found", "{*}"),
    ("flaw.os_permission", "{*}"),
    ("flaw.os_exists", "{*}"),
    ("flaw.os_disk_full", "{*}"),
    ("flaw.os_read_only", "{*}"),
    ("flaw.os_is_dir", "{*}"),
    ("flaw.os_not_dir", "{*}"),
    ("flaw.os_dir_not_empty", "{*}"),
    ("flaw.os_eof", "{*}"),
    ("flaw.os_invalid_data", "{*}"),
    ("flaw.os_timed_out", "{*}"),
    ("flaw.os_interrupted", "{*}"),
    ("flaw.os_out_of_memory", "{*}"),
    ("flaw.os_other", "{*}"),
    ("flaw.os_not_found_for", "{*} ({0})"),
    ("flaw.os_permission_for", "{*} ({0})"),
    ("flaw.os_other_for", "{*} ({0})"),
];

/// The number of arguments of `key` in the string tables: its own, and one more for `{*}`.
#[cfg(test)]
pub(crate) fn arity(key: &str) -> Option<(usize, bool)> {
    let (_, t) = entry(key)?;
    let own = (0..10).filter(|i| t.contains(&format!("{{{i}}}"))).count();
    // `flaw.os_other` passes the OS error number though its English is the system's text.
    let own = if key == "flaw.os_other" { 1 } else { own };
    Some((own, t.contains("{*}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_is_the_template_filled_in() {
        let f = Flaw::new("flaw.doc_count", &[&3, &5]);
        assert_eq!(f.english, "holds 3 documents where the meta says 5");
        assert_eq!(f.code().args, ["3", "5"]);
        let j = Flaw::with_detail("flaw.not_meta", &[], "expected value at line 1");
        assert_eq!(j.english, "not an index's meta: expected value at line 1");
        assert_eq!(j.code().args, ["expected value at line 1"]);
    }

    #[test]
    fn system_errors_go_by_their_kind() {
        let nf = std::io::Error::from(std::io::ErrorKind::NotFound);
        let f = Flaw::os(&nf);
        assert_eq!(f.key, "flaw.os_not_found");
        assert_eq!(f.english, nf.to_string());
        let other = std::io::Error::from_raw_os_error(71);
        let o = Flaw::os(&other);
        assert_eq!(o.key, "flaw.os_other");
        assert_eq!(o.args, ["71"]);
        assert_eq!(o.english, other.to_string());
    }

    /// Every flaw key the source names is in the table (so none falls back to its key).
    #[test]
    fn every_key_the_source_names_is_in_the_table() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![root];
        let mut seen = 0;
        while let Some(dir) = stack.pop() {
            for file in std::fs::read_dir(&dir).unwrap() {
                let p = file.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    for piece in text.split("\"flaw.").skip(1) {
                        let name: String = piece
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if name.is_empty() {
                            continue; // this test's own pattern
                        }
                        let key = format!("flaw.{name}");
                        assert!(entry(&key).is_some(), "{}: {key}", p.display());
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > FLAW.len(), "only {seen} keys named");
    }
}
