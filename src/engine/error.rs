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

    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),

    #[error("schema migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),

    #[error("internal error: {0}")]
    Internal(String),
}

impl EngineError {
    /// True when the user can fix this by changing their input (CLI exit code 2).
    pub fn is_user_error(&self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
