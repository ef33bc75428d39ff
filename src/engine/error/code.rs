//! An error as data, [`ErrorCode`]: a key of the UI's string tables and its arguments, with
//! the engine's detail as a code of its own when it has one. It is how an error crosses a
//! thread, a job's row in the experiment log (JSON) and a UI task, and how the UI says it in
//! the user's language without the engine knowing the UI.
//!
//! ```ignore
//! let code = EngineError::corrupt("ix/gen-1/postings.bin", Flaw::new("flaw.cut_short", &[])).code();
//! assert_eq!(code.key, "error.corrupt_index");
//! assert_eq!(ErrorCode::from_json(&code.to_json()), Some(code));
//! ```

use serde::Serialize;

use super::{Flaw, Reason, input, log_line};

/// An error as data: a stable key of the UI's string tables (`error.corrupt_index` …) and its
/// arguments in order (`{0}`, `{1}` … of the key's sentence). Survives a thread, a job's row in
/// the experiment log (as JSON) and a UI task.
///
/// A code may carry a `detail` (a [`Flaw`]'s code): the engine's detail in the UI's language,
/// said in place of the last argument, which holds the detail's English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorCode {
    pub key: &'static str,
    pub args: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<ErrorCode>>,
}

impl ErrorCode {
    /// A code without a detail.
    pub fn new(key: &'static str, args: Vec<String>) -> Self {
        ErrorCode {
            key,
            args,
            detail: None,
        }
    }

    /// A code whose last argument is a flaw's English and whose detail is the flaw's own
    /// code: the engine's detail, which the UI says in its language in place of the English.
    pub(crate) fn with_flaw(key: &'static str, mut args: Vec<String>, flaw: &Flaw) -> Self {
        args.push(flaw.english.clone());
        ErrorCode {
            key,
            args,
            detail: Some(Box::new(flaw.code())),
        }
    }

    /// Every key an error can have (the string tables must have each, with its arguments).
    pub(crate) const KEYS: &'static [(&'static str, usize)] = &[
        ("error.not_a_workspace", 2),
        ("error.too_new", 3),
        ("error.bad_path", 2),
        ("error.no_index", 1),
        ("error.corrupt", 2),
        ("error.corrupt_index", 2),
        ("error.corrupt_parquet", 2),
        ("error.corrupt_workspace", 2),
        ("error.missing_data", 1),
        ("error.data_http", 4),
        ("error.data_timeout", 4),
        ("error.data_network", 4),
        ("error.data_checksum", 4),
        ("error.data_missing_file", 3),
        ("error.data_disk_full", 3),
        ("error.bad_input", 2),
        ("error.no_document", 1),
        ("error.no_readable_document", 3),
        ("error.empty_log", 1),
        ("error.no_valid_record", 4),
        ("error.line_too_long", 2),
        ("error.unreadable_line", 1),
        ("error.cannot_open", 2),
        ("error.folder_not_file", 2),
        ("error.folder_not_log", 1),
        ("error.invalid_param", 2),
        ("error.cancelled", 0),
        ("error.io", 2),
        ("error.sql", 1),
        ("error.sql_full", 1),
        ("error.sql_read_only", 1),
        ("error.sql_damaged", 1),
        ("error.sql_busy", 1),
        ("error.sql_io", 1),
        ("error.migration", 1),
        ("error.internal", 1),
        ("error.interrupted", 0),
    ];

    /// [`ErrorCode::KEYS`], the file formats' own mistakes ([`input::INPUT`]) and the log
    /// lines' ([`log_line::LOG_LINE`]), each with its number of arguments.
    pub(crate) fn all_keys() -> Vec<(&'static str, usize)> {
        let input = input::INPUT
            .iter()
            .filter_map(|(k, _)| Some((*k, Reason::input_arity(k)?)));
        let log = log_line::LOG_LINE
            .iter()
            .filter_map(|(k, _)| Some((*k, Reason::log_line_arity(k)?)));
        Self::KEYS.iter().copied().chain(input).chain(log).collect()
    }

    /// The code of a job whose process stopped before it finished (no error was returned).
    pub fn interrupted() -> Self {
        ErrorCode::new("error.interrupted", Vec::new())
    }

    /// As stored beside a message: `{"key": …, "args": […]}`, and `"detail"` (a code of the
    /// same shape) when it has one.
    pub(crate) fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    fn to_value(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "key": self.key, "args": self.args });
        if let Some(d) = &self.detail {
            v["detail"] = d.to_value();
        }
        v
    }

    /// Back from [`ErrorCode::to_json`]; `None` for text that is not a code this build knows
    /// (then the English message is all there is).
    pub(crate) fn from_json(text: &str) -> Option<Self> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        Self::from_value(&v, false)
    }

    /// A code (or, `flaw`, a detail's code: a key of the flaws' table) from its JSON value.
    fn from_value(v: &serde_json::Value, flaw: bool) -> Option<Self> {
        let key = v.get("key")?.as_str()?;
        let key = if flaw {
            Flaw::known_key(key)?
        } else {
            Self::all_keys().into_iter().find(|(k, _)| *k == key)?.0
        };
        let args = v
            .get("args")?
            .as_array()?
            .iter()
            .map(|a| a.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()?;
        // A detail this build does not know leaves the English argument it stands for.
        let detail = v
            .get("detail")
            .and_then(|d| Self::from_value(d, true))
            .map(Box::new);
        Some(ErrorCode { key, args, detail })
    }
}
