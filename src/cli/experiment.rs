//! `tianwang experiment list | run`: the book's experiments by name (`workbench::experiments`,
//! the registry the panels' book buttons call too). `run ID… | --all` prints each run's rows —
//! ours beside the book's, with the tolerance and whether it holds; a run that could not start
//! because a data set is missing names `tianwang data fetch SET` and the command exits 2.
//!
//! ```text
//! tianwang experiment list --json
//! tianwang experiment run table-8-2 table-9-2 --json
//! tianwang --data /media/usb/data experiment run --all
//! ```

use clap::{Args, Subcommand};
use serde_json::json;

use super::{Bar, Cli, print_json};
use crate::cli::data::data_dir;
use crate::engine::error::{EngineError, ErrorCode};
use crate::workbench::experiments::{self, RunOutcome};

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub what: ExperimentCommand,
}

#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Every book experiment: id, title, chapter, book reference, the data sets it needs and
    /// whether they are installed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Run experiments by id (or every one) and print ours beside the book's figures.
    Run {
        /// Experiment ids (see `tianwang experiment list`).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        ids: Vec<String>,
        /// Every experiment.
        #[arg(long)]
        all: bool,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: &Cli, a: &ExperimentArgs) -> anyhow::Result<()> {
    let data = data_dir(cli)?;
    match &a.what {
        ExperimentCommand::List { json } => {
            let l = experiments::listing(&data);
            if *json {
                return print_json(&json!({ "experiments": l, "data_dir": data.root() }));
            }
            for e in &l {
                println!(
                    "{:<18} ch.{:<2} {:<8} {}{}",
                    e.id,
                    e.chapter,
                    e.book_ref,
                    e.title,
                    if e.runnable {
                        String::new()
                    } else {
                        format!("  (needs: {})", e.needs.join(", "))
                    }
                );
            }
            Ok(())
        }
        ExperimentCommand::Run { ids, all, json } => {
            let ids: Vec<String> = if *all {
                experiments::all()
                    .iter()
                    .map(|e| e.id.to_string())
                    .collect()
            } else {
                ids.clone()
            };
            let bar = Bar::new();
            let runs = experiments::run(&ids, &data, &bar);
            bar.0.finish_and_clear();
            let runs = runs?;
            if *json {
                print_json(&json!({ "runs": runs, "data_dir": data.root() }))?;
            } else {
                print_runs(&runs);
            }
            outcome(&runs)
        }
    }
}

/// A figure as the CLI prints it: 4 decimals for a fraction, `—` for none.
pub(crate) fn show(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "—".into(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(x) if x.fract() != 0.0 => format!("{x:.4}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

fn print_runs(runs: &[RunOutcome]) {
    for r in runs {
        let state = match (&r.error, r.ok) {
            (Some(_), _) => "ERROR",
            (None, true) => "ok",
            (None, false) => "differs",
        };
        println!("{} [{state}] {:.1} s", r.id, r.seconds);
        if let Some(e) = &r.error {
            println!("  {e}");
        }
        for row in &r.rows {
            println!(
                "  {:<36} ours {:<14} book {:<10} {:<9} {}",
                row.name,
                show(&row.ours),
                show(&row.book),
                row.unit,
                if row.ok { "ok" } else { "DIFFERS" }
            );
        }
    }
}

/// Exit 2 (the user's to fix) when a run could not start or failed on the user's data, exit 1
/// when one failed inside; a run whose figures differ from the book's is a finding, exit 0.
fn outcome(runs: &[RunOutcome]) -> anyhow::Result<()> {
    let failed: Vec<&RunOutcome> = runs.iter().filter(|r| r.error.is_some()).collect();
    let Some(first) = failed
        .iter()
        .find(|r| r.user_error)
        .or_else(|| failed.first())
    else {
        return Ok(());
    };
    let message = format!(
        "{} of {} experiments could not run; {}: {}",
        failed.len(),
        runs.len(),
        first.id,
        first.error.clone().unwrap_or_default()
    );
    Err(EngineError::Relayed {
        message,
        user_error: first.user_error,
        code: first
            .code()
            .unwrap_or_else(|| ErrorCode::new("error.internal", vec![first.id.clone()])),
    }
    .into())
}
