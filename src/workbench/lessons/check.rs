//! A lesson run headless (`tianwang lesson check`): every step's action is carried out —
//! experiments through [`experiments::run_one`](crate::workbench::experiments::run_one) with one
//! shared [`Cache`], each experiment once however many steps read it, jobs on a scratch
//! workspace — and every check's figure is put beside the book's (Table 9-2's LRU hit ratio at
//! 500 entries beside the book's 0.692691 [L3437], …).
//!
//! ```no_run
//! use tianwang::workbench::lessons::{self, Checker};
//! let data = tianwang::engine::data::DataDir::new("/tmp/no-data");
//! let mut c = Checker::new(data);
//! for l in lessons::bundled()? {
//!     let r = c.check(&l, &());
//!     println!("{} {}", r.id, r.ok);
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::{Action, Check, Lesson, Step};
use crate::engine::data::DataDir;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;
use crate::workbench::experiments::{self, Cache, Row, RunOutcome};

/// One step's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    /// 1-based.
    pub n: usize,
    pub ok: bool,
    /// Our figure (null when the step checks nothing).
    pub ours: Value,
    /// The book's (or the accepted range `[min, max]` of a question).
    pub book: Value,
    pub error: Option<String>,
    /// The error is the lesson's or the data's to fix (exit 2).
    #[serde(skip)]
    pub user_error: bool,
}

/// One lesson's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct LessonReport {
    pub id: String,
    pub ok: bool,
    pub steps: Vec<StepReport>,
}

/// Runs lessons, remembering each experiment's outcome across steps and lessons.
pub struct Checker {
    data: DataDir,
    cache: Cache,
    runs: HashMap<&'static str, RunOutcome>,
}

impl Checker {
    pub fn new(data: DataDir) -> Self {
        Checker {
            data,
            cache: Cache::default(),
            runs: HashMap::new(),
        }
    }

    /// The experiment's outcome, run the first time it is asked for.
    fn run(&mut self, id: &'static str, tick: &dyn Tick) -> Result<&RunOutcome> {
        if !self.runs.contains_key(id) {
            let e = experiments::find(id)
                .ok_or_else(|| EngineError::invalid("experiment", format!("no `{id}`")))?;
            let r = experiments::run_one(e, &self.data, &self.cache, tick);
            if r.error.as_deref() == Some(&EngineError::Cancelled.to_string()) {
                return Err(EngineError::Cancelled);
            }
            self.runs.insert(id, r);
        }
        self.runs
            .get(id)
            .ok_or_else(|| EngineError::Internal("experiment run not kept".into()))
    }

    /// Run every experiment `lessons` read, in parallel (each once), before their steps are
    /// checked: `lesson check --all` takes the time of its slowest experiments, not their sum.
    pub fn prefetch(&mut self, lessons: &[Lesson]) {
        use rayon::prelude::*;
        let mut ids: Vec<&'static str> = lessons
            .iter()
            .flat_map(|l| &l.steps)
            .flat_map(|s| {
                let run = match &s.action {
                    Some(Action::Experiment { id }) => Some(*id),
                    _ => None,
                };
                run.into_iter()
                    .chain(s.check.as_ref().and_then(Check::experiment))
            })
            .filter(|id| !self.runs.contains_key(id))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let (data, cache) = (&self.data, &self.cache);
        let done: Vec<(&'static str, RunOutcome)> = ids
            .par_iter()
            .filter_map(|id| {
                let e = experiments::find(id)?;
                Some((*id, experiments::run_one(e, data, cache, &())))
            })
            .collect();
        self.runs.extend(done);
    }

    /// Run every step of `lesson`.
    pub fn check(&mut self, lesson: &Lesson, tick: &dyn Tick) -> LessonReport {
        let steps: Vec<StepReport> = lesson
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                self.step(lesson, s, tick)
                    .unwrap_or_else(|e| StepReport {
                        n: i + 1,
                        ok: false,
                        ours: Value::Null,
                        book: Value::Null,
                        user_error: e.is_user_error(),
                        error: Some(e.to_string()),
                    })
                    .numbered(i + 1)
            })
            .collect();
        LessonReport {
            id: lesson.id.clone(),
            ok: steps.iter().all(|s| s.ok),
            steps,
        }
    }

    fn step(&mut self, lesson: &Lesson, s: &Step, tick: &dyn Tick) -> Result<StepReport> {
        let at = |line: usize, key: &'static str, args: &[&dyn std::fmt::Display]| {
            EngineError::bad_line(&lesson.source, line, key, args)
        };
        match &s.action {
            Some(Action::Experiment { id }) => {
                let r = self.run(id, tick)?;
                if let Some(e) = &r.error {
                    return Err(EngineError::Relayed {
                        message: format!("{}:{}: {id}: {e}", lesson.source, s.line),
                        user_error: r.user_error,
                        code: r.code().unwrap_or_else(|| {
                            crate::engine::error::ErrorCode::new("error.internal", vec![e.clone()])
                        }),
                    });
                }
            }
            Some(Action::Job { kind, params }) => run_job(kind, params)
                .map_err(|e| at(s.line, "error.lesson_job_failed", &[kind, &e]))?,
            // Showing a panel computes nothing; its parameters were checked when read.
            Some(Action::Open { .. }) | None => {}
        }
        let Some(check) = &s.check else {
            return Ok(StepReport::plain(true));
        };
        let row = match check.experiment() {
            Some(id) => {
                let r = self.run(id, tick)?;
                if let Some(e) = &r.error {
                    return Err(at(
                        check.line(),
                        "error.lesson_experiment_failed",
                        &[&id, e],
                    ));
                }
                let name = match check {
                    Check::Figure { row, .. } => Some(row),
                    Check::Question { row, .. } => row.as_ref(),
                };
                match name {
                    Some(name) => Some(find_row(&r.rows, name).ok_or_else(|| {
                        let names: Vec<&str> = r.rows.iter().map(|r| r.name.as_str()).collect();
                        at(
                            check.line(),
                            "error.lesson_no_row",
                            &[&id, &name, &names.join("; ")],
                        )
                    })?),
                    None => None,
                }
            }
            None => None,
        };
        Ok(compare(check, row.as_ref()))
    }
}

fn find_row(rows: &[Row], name: &str) -> Option<Row> {
    rows.iter().find(|r| r.name == name).cloned()
}

fn number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// The check's verdict on the row it read.
pub(crate) fn compare(check: &Check, row: Option<&Row>) -> StepReport {
    match (check, row) {
        (
            Check::Figure {
                book, tolerance, ..
            },
            Some(r),
        ) => {
            let ours = r.ours.as_f64();
            let book_v = book.or(r.book.as_f64());
            let ok = match (ours, book_v, tolerance.or(r.tolerance)) {
                (Some(o), Some(b), Some(t)) => (o - b).abs() <= t + 1e-12,
                (Some(o), Some(b), None) if book.is_some() => (o - b).abs() <= 1e-12,
                // No number of ours to compare, or the book's is the row's own: the row's verdict.
                _ => r.ok,
            };
            StepReport {
                n: 0,
                ok,
                ours: r.ours.clone(),
                book: book.map(number).unwrap_or_else(|| r.book.clone()),
                error: None,
                user_error: false,
            }
        }
        (Check::Question { min, max, .. }, r) => {
            let ours = r.map_or(Value::Null, |r| r.ours.clone());
            let ok = match r {
                Some(r) => r.ours.as_f64().is_some_and(|x| x >= *min && x <= *max),
                None => true,
            };
            StepReport {
                n: 0,
                ok,
                ours,
                book: Value::Array(vec![number(*min), number(*max)]),
                error: None,
                user_error: false,
            }
        }
        (Check::Figure { .. }, None) => StepReport::plain(false),
    }
}

impl StepReport {
    fn plain(ok: bool) -> Self {
        StepReport {
            n: 0,
            ok,
            ours: Value::Null,
            book: Value::Null,
            error: None,
            user_error: false,
        }
    }

    fn numbered(mut self, n: usize) -> Self {
        self.n = n;
        self
    }
}

/// A job action run headless on a scratch workspace.
fn run_job(kind: &str, params: &Value) -> Result<()> {
    let k = crate::workbench::find(kind)
        .ok_or_else(|| EngineError::invalid("run", format!("unknown job kind `{kind}`")))?;
    let job = (k.rebuild)(params)?;
    let dir = crate::engine::exec::scratch::ScratchDir::new("lesson-job")?;
    let ws = dir.path().join("lesson.tianwang");
    crate::engine::store::Workspace::create(&ws)?;
    let runner = crate::engine::jobs::JobRunner::new(ws, std::sync::Arc::new(|| {}));
    runner.spawn(job).wait().into_result().map(|_| ())
}

/// A check read against an experiment's outcome (the player's ours-vs-book line): the row's
/// figure beside the book's, or why there is none (`file:line` for a row the result lacks).
pub fn step_report(check: &Check, out: &RunOutcome, source: &str, line: usize) -> StepReport {
    let failed = |e: String| StepReport {
        n: 0,
        ok: false,
        ours: Value::Null,
        book: Value::Null,
        error: Some(e),
        user_error: true,
    };
    if let Some(e) = &out.error {
        return failed(e.clone());
    }
    let name = match check {
        Check::Figure { row, .. } => Some(row),
        Check::Question { row, .. } => row.as_ref(),
    };
    match name {
        Some(name) => match find_row(&out.rows, name) {
            Some(r) => compare(check, Some(&r)),
            None => failed(format!(
                "{source}:{}: {} has no row `{name}`",
                check.line().max(line),
                out.id
            )),
        },
        None => compare(check, None),
    }
}
