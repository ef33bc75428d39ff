//! Errors of the engine: one enum that separates the user's bad input (exit code 2, shown as a
//! message to fix) from internal faults (exit code 1, a bug or a broken disk).
//!
//! Each error is said twice: in English by `Display` (the CLI, the log), and as an
//! [`ErrorCode`] — a stable key and its arguments — that the UI renders in the user's language
//! from its string tables without the engine knowing the UI. The arguments are what came from
//! the user's data (a path, a line, a parameter's name) and the engine's detail; the sentence
//! around them belongs to the key.

use std::path::{Path, PathBuf};

mod code;
mod flaw;
mod input;
mod log_line;
pub use code::ErrorCode;
pub use flaw::Flaw;
pub use input::Reason;

/// The file formats' mistakes: key and English template (for the UI's table tests).
#[cfg(test)]
pub(crate) fn input_templates() -> &'static [(&'static str, &'static str)] {
    input::INPUT
}

/// The flaws of damaged files and the system's errors: key and English template (for the
/// UI's table tests).
#[cfg(test)]
pub(crate) fn flaw_templates() -> &'static [(&'static str, &'static str)] {
    flaw::FLAW
}

/// A flaw's own arguments and whether an English-only detail follows them.
#[cfg(test)]
pub(crate) fn flaw_arity(key: &str) -> Option<(usize, bool)> {
    flaw::arity(key)
}

/// The log lines' mistakes: key and English pattern, `{*}` an English-only detail (for the
/// UI's table tests).
#[cfg(test)]
pub(crate) fn log_line_patterns() -> &'static [(&'static str, &'static str)] {
    log_line::LOG_LINE
}

/// `template` with `{first}`, `{first + 1}` … replaced by `args` in order (the file formats'
/// reasons number theirs from 1, after the location; a flaw's from 0).
pub(crate) fn fill(template: &str, args: &[String], first: usize) -> String {
    let mut s = template.to_string();
    for (i, a) in args.iter().enumerate() {
        s = s.replace(&format!("{{{}}}", first + i), a);
    }
    s
}

/// Everything the engine can fail with.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The file exists but is not a Tianwang workspace; it was not modified.
    #[error("{path}: not a Tianwang workspace ({reason}); the file was not modified")]
    NotAWorkspace { path: PathBuf, reason: String },

    /// A workspace written by a newer build than this one.
    #[error(
        "{path}: written by a newer Tianwang (schema version {found}, this build knows up to {known}); open it with a newer build"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },

    /// A path the user gave cannot be used (missing folder, a directory, no permission …).
    #[error("{path}: {reason}")]
    BadPath { path: PathBuf, reason: String },

    /// A path the user gave that cannot be used, for a keyed reason ([`Flaw`]): the system
    /// refused it (missing, no permission, a folder where a file is wanted: [`Flaw::os`]) or
    /// it is not what the work needs (a workspace that exists already, a folder without the
    /// files asked for). Said as [`EngineError::BadPath`], the reason in the UI's language.
    #[error("{path}: {}", .why.english)]
    PathFlaw { path: PathBuf, why: Flaw },

    /// No index in this folder (the Search panel's banner says so in the user's language).
    #[error("{dir}: no index here: build one with `tianwang index build`")]
    NoIndex { dir: PathBuf },

    /// A file the workbench reads is damaged or not what it should be: an index generation
    /// with a bad lexicon or postings file, a `docs.json` cut short, a Parquet file of the wrong
    /// shape, a stored model that does not decode. `what` says what is wrong; the remedy
    /// follows from the kind of file (an index generation's, a Parquet file, the workspace
    /// itself). A decoder that does not know the full path names the file relative to its
    /// folder, and the caller that knows the folder completes it with [`EngineError::within`].
    #[error("{}", corrupt_text(.path, &.what.english))]
    Corrupt { path: PathBuf, what: Flaw },

    /// A data set the work needs is not installed in the data folder.
    #[error(
        "data set `{set}` is not installed: run `tianwang data fetch {set}` (or `tianwang data import DIR` from a copy laid out as the shared data folder)"
    )]
    MissingData { set: String },

    /// A file of a data set that could not be downloaded, imported or verified.
    #[error("data set `{set}`, file {file}: {problem}")]
    DataFile {
        set: String,
        file: String,
        problem: DataProblem,
    },

    /// A line or record of the user's input that cannot be read: `location` is `file:line`
    /// (or `file:byte` for binary formats), `reason` says what is wrong with it.
    #[error("{location}: {reason}")]
    BadInput { location: String, reason: String },

    /// A [`EngineError::BadInput`] whose reason is structured: the UI says it from its string
    /// tables by the reason's key (`error.no_valid_record` …) with `location` as `{0}` and
    /// the reason's arguments after it; the CLI prints the English.
    #[error("{location}: {}", .why.english)]
    Unreadable { location: String, why: Reason },

    /// A parameter out of range or malformed.
    #[error("invalid parameter `{name}`: {message}")]
    InvalidParam { name: String, message: String },

    /// A parameter a user types into a field (a list of cache sizes, how many terms to keep)
    /// that does not read, for a keyed reason ([`Flaw`]): said as
    /// [`EngineError::InvalidParam`], the reason in the UI's language.
    #[error("invalid parameter `{name}`: {}", .why.english)]
    ParamFlaw { name: String, why: Flaw },

    /// The job was cancelled by the user.
    #[error("cancelled")]
    Cancelled,

    /// An I/O failure on a path the engine chose (not the user's fault).
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("database error: {}", describe_sql(.0))]
    Sql(#[from] rusqlite::Error),

    #[error("schema migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),

    #[error("internal error: {0}")]
    Internal(String),

    /// An error already said once, carried across a thread or a process boundary as data (a
    /// job's failure): its English message, whether the user can fix it, and its code.
    #[error("{message}")]
    Relayed {
        message: String,
        user_error: bool,
        code: ErrorCode,
    },
}

impl EngineError {
    /// True when the user can fix this by changing their input or their machine (CLI exit
    /// code 2): a bad file or parameter, a read-only workspace, a full disk.
    pub fn is_user_error(&self) -> bool {
        if let EngineError::Sql(rusqlite::Error::SqliteFailure(f, _)) = self {
            return matches!(
                f.code,
                rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::DiskFull
            );
        }
        matches!(
            self,
            EngineError::NotAWorkspace { .. }
                | EngineError::TooNew { .. }
                | EngineError::BadPath { .. }
                | EngineError::PathFlaw { .. }
                | EngineError::BadInput { .. }
                | EngineError::Unreadable { .. }
                | EngineError::InvalidParam { .. }
                | EngineError::ParamFlaw { .. }
                | EngineError::NoIndex { .. }
                | EngineError::Corrupt { .. }
                | EngineError::MissingData { .. }
                | EngineError::DataFile { .. }
                | EngineError::Relayed {
                    user_error: true,
                    ..
                }
        )
    }

    /// A path the user gave that the system refused: the system's error `source`.
    pub fn path_os(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        EngineError::path_flaw(path, Flaw::os(&source))
    }

    /// A path the user gave that cannot be used, for the reason `why`.
    pub fn path_flaw(path: impl Into<PathBuf>, why: Flaw) -> Self {
        EngineError::PathFlaw {
            path: path.into(),
            why,
        }
    }

    /// A damaged or foreign file at `path`: what is wrong with it.
    pub fn corrupt(path: impl Into<PathBuf>, what: Flaw) -> Self {
        EngineError::Corrupt {
            path: path.into(),
            what,
        }
    }

    /// A [`EngineError::Corrupt`] that names its file relative to a folder, named in full
    /// under `dir`; every other error unchanged.
    pub fn within(self, dir: &Path) -> Self {
        match self {
            EngineError::Corrupt { path, what } if path.is_relative() => EngineError::Corrupt {
                path: dir.join(path),
                what,
            },
            other => other,
        }
    }

    /// The stable key of this error and its arguments, for the UI's string tables.
    pub fn code(&self) -> ErrorCode {
        let path = |p: &Path| p.display().to_string();
        let (key, args) = match self {
            EngineError::NotAWorkspace { path: p, reason } => {
                ("error.not_a_workspace", vec![path(p), reason.clone()])
            }
            EngineError::TooNew {
                path: p,
                found,
                known,
            } => (
                "error.too_new",
                vec![path(p), found.to_string(), known.to_string()],
            ),
            EngineError::PathFlaw { path: p, why } => {
                return ErrorCode::with_flaw("error.bad_path", vec![path(p)], why);
            }
            EngineError::BadPath { path: p, reason } => {
                ("error.bad_path", vec![path(p), reason.clone()])
            }
            EngineError::NoIndex { dir } => ("error.no_index", vec![path(dir)]),
            EngineError::Corrupt { path: p, what } => {
                return ErrorCode::with_flaw(Remedy::of(p).key(), vec![path(p)], what);
            }
            EngineError::MissingData { set } => ("error.missing_data", vec![set.clone()]),
            EngineError::DataFile { set, file, problem } => {
                let (key, mut more) = problem.key_args();
                let mut args = vec![set.clone(), file.clone()];
                args.append(&mut more);
                (key, args)
            }
            EngineError::BadInput { location, reason } => {
                ("error.bad_input", vec![location.clone(), reason.clone()])
            }
            EngineError::Unreadable { location, why } => {
                let mut args = vec![location.clone()];
                args.extend(why.args.iter().cloned());
                (why.key, args)
            }
            EngineError::InvalidParam { name, message } => {
                ("error.invalid_param", vec![name.clone(), message.clone()])
            }
            EngineError::ParamFlaw { name, why } => {
                return ErrorCode::with_flaw("error.invalid_param", vec![name.clone()], why);
            }
            EngineError::Cancelled => ("error.cancelled", vec![]),
            EngineError::Io { path: p, source } => {
                return ErrorCode::with_flaw("error.io", vec![path(p)], &Flaw::os(source));
            }
            EngineError::Sql(e) => (sql_key(e), vec![e.to_string()]),
            EngineError::Migration(e) => ("error.migration", vec![e.to_string()]),
            EngineError::Internal(what) => ("error.internal", vec![what.clone()]),
            EngineError::Relayed { code, .. } => return code.clone(),
        };
        ErrorCode::new(key, args)
    }

    /// A bad line of the user's input at `file:line`.
    pub(crate) fn bad_input(
        file: impl std::fmt::Display,
        line: impl std::fmt::Display,
        reason: impl Into<String>,
    ) -> Self {
        EngineError::BadInput {
            location: format!("{file}:{line}"),
            reason: reason.into(),
        }
    }

    /// The user's input at `location` (`file:line`, or a file) cannot be read, for a reason
    /// the UI says in its language (see [`Reason`]).
    pub(crate) fn unreadable(location: impl std::fmt::Display, why: Reason) -> Self {
        EngineError::Unreadable {
            location: location.to_string(),
            why,
        }
    }

    /// The parameter `name` does not read, for the keyed reason `why`.
    pub(crate) fn invalid_flaw(name: &str, why: Flaw) -> Self {
        EngineError::ParamFlaw {
            name: name.to_string(),
            why,
        }
    }

    pub(crate) fn invalid(name: &str, message: impl Into<String>) -> Self {
        EngineError::InvalidParam {
            name: name.to_string(),
            message: message.into(),
        }
    }
}

pub type Result<T, E = EngineError> = std::result::Result<T, E>;

/// What went wrong with one file of a data set (`EngineError::DataFile`): each case names what
/// the user can do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataProblem {
    /// The server answered with an HTTP error status.
    Http { url: String, status: u16 },
    /// No data came for the read timeout.
    Timeout { url: String, secs: u64 },
    /// The connection failed (no network, refused, TLS …).
    Network { url: String, detail: String },
    /// The bytes are not the published ones.
    Checksum { expected: String, found: String },
    /// A copy to import from lacks the file.
    Missing { path: PathBuf },
    /// The disk filled up while writing it.
    DiskFull { path: PathBuf },
}

impl DataProblem {
    fn key_args(&self) -> (&'static str, Vec<String>) {
        let path = |p: &Path| p.display().to_string();
        match self {
            DataProblem::Http { url, status } => {
                ("error.data_http", vec![url.clone(), status.to_string()])
            }
            DataProblem::Timeout { url, secs } => {
                ("error.data_timeout", vec![url.clone(), secs.to_string()])
            }
            DataProblem::Network { url, detail } => {
                ("error.data_network", vec![url.clone(), detail.clone()])
            }
            DataProblem::Checksum { expected, found } => {
                ("error.data_checksum", vec![expected.clone(), found.clone()])
            }
            DataProblem::Missing { path: p } => ("error.data_missing_file", vec![path(p)]),
            DataProblem::DiskFull { path: p } => ("error.data_disk_full", vec![path(p)]),
        }
    }
}

impl std::fmt::Display for DataProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataProblem::Http { url, status } => write!(
                f,
                "{url} answered HTTP {status}; check the address (or the mirror) and try again"
            ),
            DataProblem::Timeout { url, secs } => write!(
                f,
                "no data from {url} for {secs} s; try again later (the download resumes where it stopped)"
            ),
            DataProblem::Network { url, detail } => write!(
                f,
                "cannot download {url} ({detail}); check the network, or use --mirror or `tianwang data import`"
            ),
            DataProblem::Checksum { expected, found } => write!(
                f,
                "SHA-256 is {found} but the manifest says {expected}: not the published file (damaged or changed); fetch or import the set again"
            ),
            DataProblem::Missing { path } => write!(
                f,
                "{} is missing from the copy to import from",
                path.display()
            ),
            DataProblem::DiskFull { path } => write!(
                f,
                "the disk is full writing {}; free some space and run it again (nothing was installed)",
                path.display()
            ),
        }
    }
}

/// What the user does about a damaged file, by the kind of file it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Remedy {
    /// A file of an index generation: rebuild the index.
    Index,
    /// A Parquet file: export it again.
    Parquet,
    /// An entry of the workspace (a stored model, a stored log): make it again.
    Workspace,
    /// Anything else: a good copy, or make it again.
    Other,
}

/// The files of an index generation (`engine::index::disk`).
const INDEX_FILES: [&str; 7] = [
    "CURRENT",
    "meta.json",
    "docs.json",
    "lexicon.bin",
    "postings.bin",
    "text.bin",
    "links.bin",
];

impl Remedy {
    /// The remedy for a damaged file at `path`.
    pub(crate) fn of(path: &Path) -> Remedy {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        // A generation's files and its runs (`gen-7/runs/run-0`).
        let in_generation = path.ancestors().skip(1).take(2).any(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("gen-"))
        });
        if INDEX_FILES.contains(&name) || in_generation {
            Remedy::Index
        } else if ext == "parquet" {
            Remedy::Parquet
        } else if ext == "tianwang" {
            Remedy::Workspace
        } else {
            Remedy::Other
        }
    }

    fn key(self) -> &'static str {
        match self {
            Remedy::Index => "error.corrupt_index",
            Remedy::Parquet => "error.corrupt_parquet",
            Remedy::Workspace => "error.corrupt_workspace",
            Remedy::Other => "error.corrupt",
        }
    }

    fn english(self) -> &'static str {
        match self {
            Remedy::Index => {
                "rebuild the index (`tianwang index build`, or Build index in the Search & ranking panel)"
            }
            Remedy::Parquet => "export it again (`tianwang export-parquet`) or use a good copy",
            Remedy::Workspace => {
                "make that entry again (run the job, train the model or import the log again) or restore the workspace from a backup"
            }
            Remedy::Other => "replace it with a good copy or make it again",
        }
    }
}

fn corrupt_text(path: &Path, what: &str) -> String {
    format!(
        "{}: damaged or not what it should be ({what}); {}",
        path.display(),
        Remedy::of(path).english()
    )
}

/// The key of a SQLite error, by the same cases as [`describe_sql`].
fn sql_key(e: &rusqlite::Error) -> &'static str {
    use rusqlite::ErrorCode as C;
    let rusqlite::Error::SqliteFailure(f, _) = e else {
        return "error.sql";
    };
    match f.code {
        C::DiskFull => "error.sql_full",
        C::ReadOnly => "error.sql_read_only",
        C::DatabaseCorrupt | C::NotADatabase => "error.sql_damaged",
        C::DatabaseBusy | C::DatabaseLocked => "error.sql_busy",
        C::SystemIoFailure => "error.sql_io",
        _ => "error.sql",
    }
}

/// SQLite's error in words a user can act on: a full disk, a read-only file and a damaged
/// file say so and what to do; nothing of the failed step was written (every write is one
/// transaction), which the message says too.
pub(crate) fn describe_sql(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    let rusqlite::Error::SqliteFailure(f, _) = e else {
        return e.to_string();
    };
    match f.code {
        C::DiskFull => format!(
            "the disk (or the workspace's size limit) is full ({e}); nothing of this step was written — free some space and run it again"
        ),
        C::ReadOnly => format!(
            "the workspace is read-only ({e}); nothing was written — make the file and its folder writable, or Save As a copy"
        ),
        C::DatabaseCorrupt | C::NotADatabase => format!(
            "the workspace file is damaged ({e}); what was committed before the damage may be recoverable from a backup or with `sqlite3 .recover`"
        ),
        C::DatabaseBusy | C::DatabaseLocked => format!(
            "the workspace is busy in another program ({e}); try again when it has finished"
        ),
        C::SystemIoFailure => {
            format!("the disk reported an I/O error ({e}); nothing of this step was written")
        }
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_disk_and_read_only_say_what_to_do() {
        let full = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
            None,
        );
        let msg = EngineError::Sql(full).to_string();
        assert!(
            msg.contains("full") && msg.contains("nothing of this step was written"),
            "{msg}"
        );
        let ro = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY),
            None,
        );
        assert!(EngineError::Sql(ro).to_string().contains("read-only"));
    }

    #[test]
    fn user_errors_are_told_apart_from_faults() {
        assert!(EngineError::invalid("seconds", "must be positive").is_user_error());
        assert!(
            EngineError::NotAWorkspace {
                path: "x".into(),
                reason: "r".into()
            }
            .is_user_error()
        );
        assert!(!EngineError::Internal("bug".into()).is_user_error());
        assert!(!EngineError::Cancelled.is_user_error());
        assert!(
            EngineError::corrupt("ix/gen-1/lexicon.bin", Flaw::new("flaw.cut_short", &[]))
                .is_user_error()
        );
        assert!(EngineError::NoIndex { dir: "ix".into() }.is_user_error());
        let missing = EngineError::MissingData {
            set: "hollins".into(),
        };
        assert!(missing.is_user_error());
        assert!(
            missing.to_string().contains("tianwang data fetch hollins"),
            "{missing}"
        );
    }

    #[test]
    fn a_damaged_file_names_itself_and_the_remedy() {
        let cut = || Flaw::new("flaw.block_cut_short", &[]);
        let e = EngineError::corrupt("/w/ix/gen-3/postings.bin", cut());
        let msg = e.to_string();
        assert!(
            msg.starts_with("/w/ix/gen-3/postings.bin: damaged"),
            "{msg}"
        );
        assert!(msg.contains("a posting block is cut short") && msg.contains("rebuild the index"));
        let code = e.code();
        assert_eq!(code.key, "error.corrupt_index");
        assert_eq!(
            code.args,
            ["/w/ix/gen-3/postings.bin", "a posting block is cut short"]
        );
        assert_eq!(code.detail.as_deref(), Some(&cut().code()));
        // The detail survives a job's row in the experiment log.
        assert_eq!(ErrorCode::from_json(&code.to_json()), Some(code));
        let pq = EngineError::corrupt("out/pages.parquet", cut());
        assert!(pq.to_string().contains("export it again"));
        assert_eq!(pq.code().key, "error.corrupt_parquet");
        assert_eq!(
            EngineError::corrupt("lab.tianwang", cut()).code().key,
            "error.corrupt_workspace"
        );
        assert_eq!(
            EngineError::corrupt("ix/gen-2/runs/run-0", cut())
                .code()
                .key,
            "error.corrupt_index"
        );
        assert_eq!(
            EngineError::corrupt("a.txt", cut()).code().key,
            "error.corrupt"
        );
    }

    #[test]
    fn a_relative_damaged_file_is_completed_by_its_folder() {
        let e = EngineError::corrupt("postings.bin", Flaw::new("flaw.cut_short", &[]))
            .within(Path::new("/ix/gen-1"));
        assert!(
            matches!(&e, EngineError::Corrupt { path, .. } if path == Path::new("/ix/gen-1/postings.bin"))
        );
        // Already absolute, or another kind: unchanged.
        let e = e.within(Path::new("/elsewhere"));
        assert!(e.to_string().starts_with("/ix/gen-1/postings.bin"));
        assert!(matches!(
            EngineError::Cancelled.within(Path::new("/x")),
            EngineError::Cancelled
        ));
    }

    #[test]
    fn every_kind_has_a_known_key_with_its_arguments() {
        let io = || std::io::Error::other("disk");
        let sql = |code| {
            EngineError::Sql(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(code),
                None,
            ))
        };
        let data = |problem| EngineError::DataFile {
            set: "s".into(),
            file: "f".into(),
            problem,
        };
        let all = [
            EngineError::NotAWorkspace {
                path: "p".into(),
                reason: "r".into(),
            },
            EngineError::TooNew {
                path: "p".into(),
                found: 12,
                known: 10,
            },
            EngineError::BadPath {
                path: "p".into(),
                reason: "r".into(),
            },
            EngineError::NoIndex { dir: "d".into() },
            EngineError::corrupt("p", Flaw::new("flaw.cut_short", &[])),
            EngineError::bad_input("f", 3, "r"),
            EngineError::invalid("n", "m"),
            EngineError::Cancelled,
            EngineError::Io {
                path: "p".into(),
                source: io(),
            },
            sql(rusqlite::ffi::SQLITE_FULL),
            sql(rusqlite::ffi::SQLITE_READONLY),
            sql(rusqlite::ffi::SQLITE_CORRUPT),
            sql(rusqlite::ffi::SQLITE_BUSY),
            sql(rusqlite::ffi::SQLITE_IOERR),
            sql(rusqlite::ffi::SQLITE_MISMATCH),
            EngineError::Internal("bug".into()),
            EngineError::MissingData { set: "s".into() },
            data(DataProblem::Http {
                url: "u".into(),
                status: 404,
            }),
            data(DataProblem::Timeout {
                url: "u".into(),
                secs: 5,
            }),
            data(DataProblem::Network {
                url: "u".into(),
                detail: "d".into(),
            }),
            data(DataProblem::Checksum {
                expected: "a".into(),
                found: "b".into(),
            }),
            data(DataProblem::Missing { path: "p".into() }),
            data(DataProblem::DiskFull { path: "p".into() }),
            EngineError::unreadable("f", Reason::cannot_open("d")),
            EngineError::unreadable("f", Reason::folder_not_file("WARC")),
            EngineError::unreadable("f", Reason::folder_not_log()),
            EngineError::bad_line("f", 4, "error.node_id_range", &[&9, &3]),
        ];
        for e in &all {
            let c = e.code();
            let (_, n) = ErrorCode::all_keys()
                .into_iter()
                .find(|(k, _)| *k == c.key)
                .unwrap_or_else(|| panic!("{} not in KEYS", c.key));
            assert_eq!(c.args.len(), n, "{}", c.key);
            // Through JSON (the experiment log) and back.
            assert_eq!(ErrorCode::from_json(&c.to_json()), Some(c.clone()));
            // Relayed across a thread: the same message, exit code and code.
            let r = EngineError::Relayed {
                message: e.to_string(),
                user_error: e.is_user_error(),
                code: c.clone(),
            };
            assert_eq!(r.to_string(), e.to_string());
            assert_eq!(r.is_user_error(), e.is_user_error());
            assert_eq!(r.code(), c);
        }
        assert_eq!(
            all[5].code().args,
            ["f:3", "r"],
            "the location is one argument"
        );
        assert_eq!(ErrorCode::from_json("not json"), None);
        assert_eq!(
            ErrorCode::from_json(r#"{"key":"error.unheard_of","args":[]}"#),
            None
        );
    }
}
