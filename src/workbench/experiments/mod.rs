//! The book's experiments as one registry: every one-click experiment the panels offer, by a
//! stable id (`table-7-3`, `table-9-2`, `table-11-2` …), with its book reference `[Lnnnn]`,
//! the data sets it needs (`engine::data`) and a run that returns its figures as [`Row`]s —
//! ours beside the book's, with the tolerance the comparison allows and whether it holds. The
//! panels' book buttons, `tianwang experiment list | run` and the `experiment` job all call
//! [`run`]: one code path.
//!
//! A row's `basis` says how `ok` was decided: `tolerance` (ours is within `tolerance` of the
//! book's number, in the row's unit), `shape` (the book's qualitative finding holds — an
//! ordering, a subset, a plateau — with the book's number beside ours where it gives one; the
//! book measured corpora we lack, see `labs_quick_reference.md`), or `none` (the book gives no
//! number: ours is reported, `ok` says only that it was computed).
//!
//! ```
//! use tianwang::workbench::experiments;
//! let e = experiments::find("table-8-2").expect("registered");
//! assert!(e.needs.is_empty());
//! let data = tianwang::engine::data::DataDir::new(std::env::temp_dir().join("tw-doc-nodata"));
//! let run = experiments::run_one(e, &data, &experiments::Cache::default(), &());
//! assert!(run.ok, "{:?}", run.error);
//! assert!(run.rows.iter().any(|r| r.book.is_number()));
//! ```

mod ch10;
mod ch11;
mod ch3;
mod ch5;
mod ch6;
mod ch7;
mod ch7_dev;
mod ch8;
mod ch8_codec;
mod ch9;
mod ch9_log;
mod job;
mod label;

use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::data::DataDir;
use crate::engine::error::{EngineError, ErrorCode, Result};
use crate::engine::jobs::Tick;
pub use job::{ExperimentJob, ExperimentOutput, ExperimentParams};
pub use label::Label;

/// One experiment of the book.
#[derive(Clone, Copy)]
pub struct Experiment {
    /// Stable id (`tianwang experiment run ID`).
    pub id: &'static str,
    /// English title (the UI says `exp.ID` from its string tables).
    pub title: &'static str,
    pub chapter: u8,
    /// Where the book gives it, `[Lnnnn]` or a seed's `[00x:Ln]`.
    pub book_ref: &'static str,
    /// The panel whose book button runs it.
    pub panel: &'static str,
    /// Data sets it reads (`tianwang data fetch …`).
    pub needs: &'static [&'static str],
    pub run: fn(&Ctx<'_>) -> Result<Vec<Row>>,
}

impl std::fmt::Debug for Experiment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Experiment").field("id", &self.id).finish()
    }
}

/// How a row's `ok` was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// |ours − book| ≤ tolerance.
    Tolerance,
    /// The book's qualitative finding holds.
    Shape,
    /// The book gives no number.
    None,
}

/// One figure: ours beside the book's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row's stable English identifier (what lessons and the CLI name it by).
    pub name: String,
    /// `name` as the UI's string tables say it (`key`, `args`; see [`Label`]).
    #[serde(flatten)]
    pub label: Label,
    /// A number, a text (a segmentation) or a truth value.
    pub ours: Value,
    /// The book's, or null when the book gives none.
    pub book: Value,
    pub unit: String,
    /// Allowed |ours − book|, in `unit`, for a `tolerance` row.
    pub tolerance: Option<f64>,
    pub ok: bool,
    pub basis: Basis,
    /// What the shape is, or where the book's number comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `note` as the UI's string tables say it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_label: Option<Label>,
    /// `unit` as the UI's string tables say it, when it is a word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_label: Option<Label>,
}

fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

impl Row {
    /// Ours within `tolerance` of the book's.
    pub fn near(name: impl Into<String>, ours: f64, book: f64, unit: &str, tolerance: f64) -> Row {
        Row {
            label: Label::default(),
            name: name.into(),
            ours: num(ours),
            book: num(book),
            unit: unit.into(),
            tolerance: Some(tolerance),
            ok: ours.is_finite() && (ours - book).abs() <= tolerance + 1e-12,
            basis: Basis::Tolerance,
            note: None,
            note_label: None,
            unit_label: None,
        }
        .labelled()
    }

    /// Ours beside the book's; `ok` is whether the book's finding `note` holds.
    pub fn shape(
        name: impl Into<String>,
        ours: impl Into<Value>,
        book: impl Into<Value>,
        unit: &str,
        ok: bool,
        note: &str,
    ) -> Row {
        Row {
            label: Label::default(),
            name: name.into(),
            ours: ours.into(),
            book: book.into(),
            unit: unit.into(),
            tolerance: None,
            ok,
            basis: Basis::Shape,
            note: Some(note.into()),
            note_label: None,
            unit_label: None,
        }
        .labelled()
    }

    /// Ours where the book gives no number.
    pub fn ours(name: impl Into<String>, ours: impl Into<Value>, unit: &str) -> Row {
        let ours: Value = ours.into();
        Row {
            label: Label::default(),
            name: name.into(),
            ok: !ours.is_null(),
            ours,
            book: Value::Null,
            unit: unit.into(),
            tolerance: None,
            basis: Basis::None,
            note: None,
            note_label: None,
            unit_label: None,
        }
        .labelled()
    }

    /// Ours equal to the book's (a text, a count).
    pub fn exact(name: impl Into<String>, ours: impl Into<Value>, book: impl Into<Value>) -> Row {
        let (ours, book): (Value, Value) = (ours.into(), book.into());
        Row {
            label: Label::default(),
            name: name.into(),
            ok: ours == book,
            ours,
            book,
            unit: String::new(),
            tolerance: Some(0.0),
            basis: Basis::Tolerance,
            note: None,
            note_label: None,
            unit_label: None,
        }
        .labelled()
    }

    pub fn with_note(mut self, note: &str) -> Row {
        self.note = Some(note.into());
        self.labelled()
    }

    /// The row with its name, note and unit (when it is a word: `pages`, `ms`; not `×` or
    /// `%`) as [`Label`]s of the UI's string tables.
    fn labelled(mut self) -> Row {
        self.label = Label::derive("row.", &self.name);
        self.note_label = self.note.as_deref().map(|n| Label::derive("note.", n));
        self.unit_label = self
            .unit
            .chars()
            .any(char::is_alphabetic)
            .then(|| Label::derive("unit.", &self.unit));
        self
    }

    /// Does the row put a book number beside ours?
    pub fn has_book_number(&self) -> bool {
        self.book.is_number()
    }
}

/// Values computed once per batch of runs and shared by the experiments that need them (the
/// tokenised THUCNews titles, a generated query log, the sample web's corpus …).
#[derive(Default)]
pub struct Cache {
    items: Mutex<HashMap<&'static str, Arc<dyn Any + Send + Sync>>>,
}

impl Cache {
    /// The value under `key`, computed by `make` the first time.
    pub fn get<T: Any + Send + Sync>(
        &self,
        key: &'static str,
        make: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let found = self
            .items
            .lock()
            .map_err(|_| EngineError::Internal("experiment cache poisoned".into()))?
            .get(key)
            .cloned();
        if let Some(v) = found {
            return v
                .downcast::<T>()
                .map_err(|_| EngineError::Internal(format!("cache `{key}` holds another type")));
        }
        let v = Arc::new(make()?);
        self.items
            .lock()
            .map_err(|_| EngineError::Internal("experiment cache poisoned".into()))?
            .insert(key, v.clone());
        Ok(v)
    }
}

/// What an experiment's run gets.
pub struct Ctx<'a> {
    pub data: &'a DataDir,
    pub tick: &'a dyn Tick,
    pub cache: &'a Cache,
}

impl Ctx<'_> {
    /// The folder of data set `name` (installed, else `MissingData`).
    pub fn set(&self, name: &str) -> Result<PathBuf> {
        self.data.require(name)
    }
}

/// One run's outcome (`tianwang experiment run --json`'s `runs[]`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunOutcome {
    pub id: String,
    /// Every row ok and no error.
    pub ok: bool,
    pub seconds: f64,
    pub rows: Vec<Row>,
    /// English, as the CLI prints it.
    pub error: Option<String>,
    /// The error's code for the UI's string tables (`{"key","args"}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<Value>,
    /// The user can fix it (a missing data set, a bad file): exit 2.
    #[serde(default)]
    pub user_error: bool,
    /// It could not start: a data set it needs is missing.
    #[serde(default)]
    pub not_started: bool,
}

impl RunOutcome {
    /// The error as a code the UI says in its language.
    pub fn code(&self) -> Option<ErrorCode> {
        self.error_code
            .as_ref()
            .and_then(|v| ErrorCode::from_json(&v.to_string()))
    }
}

/// Every experiment, by chapter.
pub fn all() -> Vec<&'static Experiment> {
    ch3::ALL
        .iter()
        .chain(ch5::ALL)
        .chain(ch6::ALL)
        .chain(ch6::MOVES)
        .chain(ch7::ALL)
        .chain(ch7_dev::ALL)
        .chain(ch8::ALL)
        .chain(ch8_codec::ALL)
        .chain(ch9::ALL)
        .chain(ch9_log::ALL)
        .chain(ch9::REAL)
        .chain(ch10::ALL)
        .chain(ch10::TAGS)
        .chain(ch10::CLICKS)
        .chain(ch11::ALL)
        .collect()
}

/// The experiment `id`.
pub fn find(id: &str) -> Option<&'static Experiment> {
    all().into_iter().find(|e| e.id == id)
}

/// The experiments a panel's book buttons run.
pub fn of_panel(panel: &str) -> Vec<&'static Experiment> {
    all().into_iter().filter(|e| e.panel == panel).collect()
}

/// The first data set `e` needs that `data` lacks.
pub fn missing(e: &Experiment, data: &DataDir) -> Option<&'static str> {
    e.needs.iter().copied().find(|s| data.require(s).is_err())
}

/// Run one experiment: never panics outward, never fails — its error is in the outcome.
pub fn run_one(e: &Experiment, data: &DataDir, cache: &Cache, tick: &dyn Tick) -> RunOutcome {
    let t0 = Instant::now();
    let failed = |err: EngineError, not_started: bool| RunOutcome {
        id: e.id.into(),
        ok: false,
        seconds: t0.elapsed().as_secs_f64(),
        rows: Vec::new(),
        error: Some(err.to_string()),
        error_code: serde_json::from_str(&err.code().to_json()).ok(),
        user_error: err.is_user_error(),
        not_started,
    };
    if let Some(set) = missing(e, data) {
        return failed(EngineError::MissingData { set: set.into() }, true);
    }
    let cx = Ctx { data, tick, cache };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (e.run)(&cx)))
        .unwrap_or_else(|_| Err(EngineError::Internal(format!("{} panicked", e.id))));
    match result {
        Ok(rows) => RunOutcome {
            id: e.id.into(),
            ok: !rows.is_empty() && rows.iter().all(|r| r.ok),
            seconds: t0.elapsed().as_secs_f64(),
            rows,
            error: None,
            error_code: None,
            user_error: false,
            not_started: false,
        },
        Err(EngineError::Cancelled) => failed(EngineError::Cancelled, false),
        Err(err) => failed(err, false),
    }
}

/// Run `ids` in order (progress shared out over them); an unknown id is `InvalidParam`.
pub fn run(ids: &[String], data: &DataDir, tick: &dyn Tick) -> Result<Vec<RunOutcome>> {
    let exps: Vec<&Experiment> = ids
        .iter()
        .map(|id| {
            find(id).ok_or_else(|| {
                EngineError::invalid(
                    "experiment",
                    format!("no experiment `{id}`; `tianwang experiment list` names them"),
                )
            })
        })
        .collect::<Result<_>>()?;
    let cache = Cache::default();
    let n = exps.len().max(1) as f32;
    let mut out = Vec::new();
    for (i, e) in exps.into_iter().enumerate() {
        tick.tick(i as f32 / n, e.id)?;
        let part = crate::engine::jobs::Scaled {
            tick,
            start: i as f32 / n,
            width: 1.0 / n,
        };
        let r = run_one(e, data, &cache, &part);
        if r.error.as_deref() == Some(&EngineError::Cancelled.to_string()) {
            return Err(EngineError::Cancelled);
        }
        out.push(r);
    }
    tick.tick(1.0, "done")?;
    Ok(out)
}

/// The list `tianwang experiment list --json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub id: &'static str,
    pub title: &'static str,
    pub chapter: u8,
    pub book_ref: &'static str,
    pub panel: &'static str,
    pub needs: Vec<&'static str>,
    /// Every set it needs is installed.
    pub runnable: bool,
}

pub fn listing(data: &DataDir) -> Vec<Listed> {
    all()
        .into_iter()
        .map(|e| Listed {
            id: e.id,
            title: e.title,
            chapter: e.chapter,
            book_ref: e.book_ref,
            panel: e.panel,
            needs: e.needs.to_vec(),
            runnable: missing(e, data).is_none(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
