//! Lessons: a chapter of the book taught step by step in the live app. A lesson is a plain
//! Markdown file with a small front matter ([`format`]); each step has text in Chinese and/or
//! English, optionally an action (open a panel with parameters through the experiment log's
//! re-open path, run a book experiment by id, run a job, focus a widget) and a check (a figure
//! of the experiment's result beside the book's number, or a question's accepted range).
//! Lessons name panels and experiments, so they live in the composition root. Ten lessons ship
//! inside the binary ([`bundled`], `assets/lessons/`); [`check`] runs one headless
//! (`tianwang lesson check`), the same figures the panels show (ch. 1 of the book sets the
//! whole-engine frame [L614–L735]).
//!
//! ```
//! use tianwang::workbench::lessons;
//! let all = lessons::bundled()?;
//! assert!(all.len() >= 10);
//! let l = lessons::parse("x.md", "---\nid: x\nchapter: 9\ntitle: X\n---\n## one\nopen: cache\n\nText.\n")?;
//! assert_eq!(l.steps.len(), 1);
//! assert!(lessons::parse("bad.md", "---\nid: x\n---\n## one\nopen: nowhere\n").is_err());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod answers;
mod check;
mod format;

use serde::Serialize;
use serde_json::Value;

use crate::engine::error::{EngineError, Result};
pub use check::{Checker, LessonReport, StepReport, step_report};
pub use format::parse;

/// A text in both languages (either may be the other's copy).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

impl Text {
    /// The text in English (`en`) or Chinese, falling back to the other when one is empty.
    pub fn get(&self, en: bool) -> &str {
        match (en, self.zh.is_empty(), self.en.is_empty()) {
            (true, _, false) | (false, true, false) => &self.en,
            _ => &self.zh,
        }
    }
}

/// What a step's **Do it** does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Show a panel; with `reopen`, fill its form from a job's parameters (the experiment log's
    /// re-open path).
    Open {
        panel: &'static str,
        reopen: Option<(&'static str, Value)>,
    },
    /// Run a book experiment (the `experiment` job) and show its panel.
    Experiment { id: &'static str },
    /// Run a job with these parameters.
    Job { kind: &'static str, params: Value },
}

impl Action {
    /// The panel this action shows.
    pub fn panel(&self) -> Option<&'static str> {
        match self {
            Action::Open { panel, .. } => Some(panel),
            Action::Experiment { id } => super::experiments::find(id).map(|e| e.panel),
            Action::Job { kind, .. } => super::owner_of(kind).map(|p| p.id),
        }
    }
}

/// What a step checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// A row of an experiment's result beside the book's number (`book` overrides the row's;
    /// `tolerance` the row's).
    Figure {
        line: usize,
        experiment: &'static str,
        row: String,
        book: Option<f64>,
        tolerance: Option<f64>,
    },
    /// A question for the students: answers in `min..=max` are accepted; with `row`, our
    /// figure must lie in the range too.
    Question {
        line: usize,
        min: f64,
        max: f64,
        unit: String,
        experiment: Option<&'static str>,
        row: Option<String>,
    },
}

impl Check {
    /// The experiment whose result the check reads.
    pub fn experiment(&self) -> Option<&'static str> {
        match self {
            Check::Figure { experiment, .. } => Some(experiment),
            Check::Question { experiment, .. } => *experiment,
        }
    }

    /// The line of the lesson file it is on.
    pub fn line(&self) -> usize {
        match self {
            Check::Figure { line, .. } | Check::Question { line, .. } => *line,
        }
    }

    /// Is `answer` accepted (questions only)?
    pub fn accepts(&self, answer: f64) -> Option<bool> {
        match self {
            Check::Question { min, max, .. } => Some(answer >= *min && answer <= *max),
            Check::Figure { .. } => None,
        }
    }
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The line of its `## ` heading.
    pub line: usize,
    /// The heading's text.
    pub label: String,
    pub text: Text,
    pub action: Option<Action>,
    /// A named widget or tab to look at (`focus: 中文 | English`).
    pub focus: Option<Text>,
    pub check: Option<Check>,
}

/// A lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub chapter: u8,
    pub title: Text,
    /// The book lines it follows (`[L3240]–[L3440]`).
    pub book: String,
    /// The file it was read from (bundled: `assets/lessons/ID.md`).
    pub source: String,
    /// Text before the first step.
    pub intro: Text,
    pub steps: Vec<Step>,
    pub(crate) body_start: usize,
}

/// The lessons inside the binary: (file name, text).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "pipeline.md",
        include_str!("../../../assets/lessons/pipeline.md"),
    ),
    (
        "crawling.md",
        include_str!("../../../assets/lessons/crawling.md"),
    ),
    (
        "cleaning.md",
        include_str!("../../../assets/lessons/cleaning.md"),
    ),
    (
        "segmentation.md",
        include_str!("../../../assets/lessons/segmentation.md"),
    ),
    (
        "near-duplicates.md",
        include_str!("../../../assets/lessons/near-duplicates.md"),
    ),
    (
        "inverted-file.md",
        include_str!("../../../assets/lessons/inverted-file.md"),
    ),
    (
        "ranking.md",
        include_str!("../../../assets/lessons/ranking.md"),
    ),
    (
        "query-logs.md",
        include_str!("../../../assets/lessons/query-logs.md"),
    ),
    (
        "caching.md",
        include_str!("../../../assets/lessons/caching.md"),
    ),
    (
        "classification.md",
        include_str!("../../../assets/lessons/classification.md"),
    ),
];

/// Every bundled lesson, parsed (named `assets/lessons/FILE` in errors).
pub fn bundled() -> Result<Vec<Lesson>> {
    BUNDLED
        .iter()
        .map(|(file, text)| parse(&format!("assets/lessons/{file}"), text))
        .collect()
}

/// The bundled lesson `id` and its file's text.
pub fn bundled_text(id: &str) -> Result<(Lesson, &'static str)> {
    for (file, text) in BUNDLED {
        let l = parse(&format!("assets/lessons/{file}"), text)?;
        if l.id == id {
            return Ok((l, text));
        }
    }
    Err(EngineError::invalid(
        "lesson",
        format!("no bundled lesson `{id}`; `tianwang lesson list` names them"),
    ))
}

/// A lesson file read from disk (`file:line` in its errors).
pub fn read_file(path: &std::path::Path) -> Result<Lesson> {
    let text =
        std::fs::read_to_string(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))?;
    parse(&path.display().to_string(), &text)
}

/// One line of `tianwang lesson list --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub id: String,
    pub title: String,
    pub chapter: u8,
    pub steps: usize,
}

impl Lesson {
    pub fn listed(&self) -> Listed {
        Listed {
            id: self.id.clone(),
            title: self.title.get(true).to_string(),
            chapter: self.chapter,
            steps: self.steps.len(),
        }
    }
}

/// A new lesson from runs of the experiment log: each run `(kind, params)` becomes a step that
/// re-opens it (experiment runs become `experiment:` steps). The text is the lesson file.
pub fn from_runs(id: &str, title: &str, chapter: u8, runs: &[(String, Value)]) -> String {
    let mut out = format!("---\nid: {id}\nchapter: {chapter}\ntitle: {title}\nbook:\n---\n");
    for (n, (kind, params)) in runs.iter().enumerate() {
        out.push_str(&format!("\n## {} {}\n", n + 1, kind));
        let ids = params.get("ids").and_then(Value::as_array);
        match ids.and_then(|a| a.first()).and_then(Value::as_str) {
            Some(e) if kind == "experiment" => out.push_str(&format!("experiment: {e}\n")),
            _ => out.push_str(&format!("reopen: {kind}\nparams: {params}\n")),
        }
        out.push_str(
            "\n::: zh\n（在这里写这一步的说明。）\n:::\n::: en\n(Say what this step shows.)\n:::\n",
        );
    }
    out
}

#[cfg(test)]
mod tests;
