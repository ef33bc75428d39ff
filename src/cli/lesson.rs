//! `tianwang lesson list | check | export`: the lessons (`workbench::lessons`) tested like
//! code. `check` runs every step's action and check headless — the book experiments through the
//! registry, each once — and prints each check's figure beside the book's; a lesson file with a
//! bad step (unknown panel, experiment or parameter, malformed front matter) exits 2 naming
//! `file:line`, a check that does not hold exits 1. `export` writes a bundled lesson's file so a
//! teacher can start from it (the format: `docs/lessons.md`). Ten bundled lessons follow the
//! book from the pipeline (ch. 2 [L614]) to classification (ch. 11 [L4250]).
//!
//! ```text
//! tianwang lesson list --json
//! tianwang lesson check --all --json
//! tianwang lesson check caching ./my-lesson.md
//! tianwang lesson export caching caching.md
//! ```

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};
use serde_json::json;

use super::{Bar, Cli, print_json};
use crate::cli::data::data_dir;
use crate::engine::error::{EngineError, ErrorCode};
use crate::workbench::lessons::{self, Checker, Lesson, LessonReport};

#[derive(Debug, Args)]
pub struct LessonArgs {
    #[command(subcommand)]
    pub what: LessonCommand,
}

#[derive(Debug, Subcommand)]
pub enum LessonCommand {
    /// The bundled lessons: id, title, chapter, number of steps.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Run lessons headless: every step's action, every check's figure beside the book's.
    Check {
        /// Bundled lesson ids or lesson files (a path ending in `.md` or naming a file).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        lessons: Vec<String>,
        /// Every bundled lesson.
        #[arg(long)]
        all: bool,
        #[arg(long)]
        json: bool,
    },
    /// Write a bundled lesson's file (to start a new lesson from).
    Export { id: String, file: PathBuf },
}

pub fn run(cli: &Cli, a: &LessonArgs) -> anyhow::Result<()> {
    match &a.what {
        LessonCommand::List { json } => {
            let all = lessons::bundled()?;
            let listed: Vec<_> = all.iter().map(Lesson::listed).collect();
            if *json {
                return print_json(&json!({ "lessons": listed }));
            }
            for l in &listed {
                println!(
                    "{:<16} ch.{:<2} {:>2} steps  {}",
                    l.id, l.chapter, l.steps, l.title
                );
            }
            Ok(())
        }
        LessonCommand::Check { lessons, all, json } => {
            let chosen = if *all {
                lessons::bundled()?
            } else {
                lessons
                    .iter()
                    .map(|s| load(s))
                    .collect::<anyhow::Result<_>>()?
            };
            let data = data_dir(cli)?;
            let mut checker = Checker::new(data);
            let bar = Bar::new();
            bar.0.set_message("experiments");
            checker.prefetch(&chosen);
            let n = chosen.len().max(1) as f32;
            let mut reports = Vec::new();
            for (i, l) in chosen.iter().enumerate() {
                let part = crate::engine::jobs::Scaled {
                    tick: &bar,
                    start: i as f32 / n,
                    width: 1.0 / n,
                };
                reports.push(checker.check(l, &part));
            }
            bar.0.finish_and_clear();
            if *json {
                print_json(&json!({ "lessons": reports }))?;
            } else {
                print_reports(&chosen, &reports);
            }
            outcome(&reports)
        }
        LessonCommand::Export { id, file } => {
            let (_, text) = lessons::bundled_text(id)?;
            if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            std::fs::write(file, text).map_err(|e| EngineError::path_os(file.clone(), e))?;
            println!("{}", file.display());
            Ok(())
        }
    }
}

/// A bundled lesson by id, or a lesson file.
fn load(what: &str) -> anyhow::Result<Lesson> {
    let p = Path::new(what);
    if what.ends_with(".md") || p.is_file() {
        return Ok(lessons::read_file(p)?);
    }
    Ok(lessons::bundled_text(what)?.0)
}

/// A figure as `experiment run` prints it; a question's accepted range as `min..max`.
fn show(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(a) if a.len() == 2 => {
            format!("{}..{}", show(&a[0]), show(&a[1]))
        }
        other => super::experiment::show(other),
    }
}

fn print_reports(lessons: &[Lesson], reports: &[LessonReport]) {
    for (l, r) in lessons.iter().zip(reports) {
        println!(
            "{} [{}] {}",
            r.id,
            if r.ok { "ok" } else { "FAILS" },
            l.title.get(true)
        );
        for (s, step) in r.steps.iter().zip(&l.steps) {
            let state = match (&s.error, s.ok) {
                (Some(_), _) => "ERROR",
                (None, true) => "ok",
                (None, false) => "DIFFERS",
            };
            println!(
                "  {:>2} {:<40} ours {:<14} book {:<12} {state}",
                s.n,
                step.label,
                show(&s.ours),
                show(&s.book)
            );
            if let Some(e) = &s.error {
                println!("     {e}");
            }
        }
    }
}

/// Exit 2 when a step's error is the lesson's or the data's to fix, exit 1 when a check does
/// not hold or a step failed inside.
fn outcome(reports: &[LessonReport]) -> anyhow::Result<()> {
    let steps = || {
        reports
            .iter()
            .flat_map(|r| r.steps.iter().map(move |s| (r, s)))
    };
    let bad: Vec<_> = steps().filter(|(_, s)| !s.ok).collect();
    let Some((r, s)) = bad
        .iter()
        .find(|(_, s)| s.user_error)
        .or_else(|| bad.first())
        .copied()
    else {
        return Ok(());
    };
    let why = s
        .error
        .clone()
        .unwrap_or_else(|| "the check does not hold".into());
    let message = format!(
        "{} of {} steps fail; {} step {}: {why}",
        bad.len(),
        steps().count(),
        r.id,
        s.n
    );
    Err(EngineError::Relayed {
        message: message.clone(),
        user_error: s.user_error,
        code: ErrorCode::new("error.internal", vec![message]),
    }
    .into())
}
