//! Errors of the engine: one enum that separates the user's bad input (exit code 2, shown as a
//! message to fix) from internal faults (exit code 1, a bug or a broken disk).

use std::path::PathBuf;

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

    /// A line or record of the user's input that cannot be read: `location` is `file:line`
    /// (or `file:byte` for binary formats), `reason` says what is wrong with it.
    #[error("{location}: {reason}")]
    BadInput { location: String, reason: String },

    /// A parameter out of range or malformed.
    #[error("invalid parameter `{name}`: {message}")]
    InvalidParam { name: String, message: String },

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
                | EngineError::BadInput { .. }
                | EngineError::InvalidParam { .. }
        )
    }

    /// A bad line of the user's input at `file:line`.
    pub fn bad_input(
        file: impl std::fmt::Display,
        line: impl std::fmt::Display,
        reason: impl Into<String>,
    ) -> Self {
        EngineError::BadInput {
            location: format!("{file}:{line}"),
            reason: reason.into(),
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

/// SQLite's error in words a user can act on: a full disk, a read-only file and a damaged
/// file say so and what to do; nothing of the failed step was written (every write is one
/// transaction), which the message says too.
pub fn describe_sql(e: &rusqlite::Error) -> String {
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
    }
}
