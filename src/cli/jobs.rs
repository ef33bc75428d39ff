//! The experiment-log subcommands: `jobs` (the log, filtered) and `calibrate` (a job).

use clap::Args;
use serde_json::json;

use super::{Cli, print_json, run_job_with_progress, workspace_path};
use crate::engine::calibrate::{Calibrate, CalibrateParams};
use crate::engine::error::EngineError;
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{self, JobFilter, STATUSES};
use crate::engine::store::Workspace;

/// `tianwang jobs`.
#[derive(Debug, Args)]
pub struct JobsArgs {
    /// Only this kind of job (e.g. calibrate).
    #[arg(long)]
    pub kind: Option<String>,
    /// Only this status: running, done, failed, cancelled, interrupted.
    #[arg(long)]
    pub status: Option<String>,
    /// At most this many rows, newest first.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Compare these runs (two or more ids of one kind): parameters that differ, every
    /// result figure side by side with its change from the first run.
    #[arg(long, num_args = 2.., value_name = "ID", conflicts_with_all = ["kind", "status", "limit", "rerun"])]
    pub compare: Vec<i64>,
    /// Run a logged run again with the same parameters (a new run in the log).
    #[arg(long, value_name = "ID", conflicts_with_all = ["kind", "status", "limit"])]
    pub rerun: Option<i64>,
    /// Also write the log (or the comparison) to FILE as CSV (UTF-8 with BOM).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<std::path::PathBuf>,
    /// One JSON document on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Print the experiment log, compare runs, or run one again.
pub fn list(cli: &Cli, a: &JobsArgs) -> anyhow::Result<()> {
    if !a.compare.is_empty() {
        return compare(cli, a);
    }
    if let Some(id) = a.rerun {
        return rerun(cli, id, a.json);
    }
    if let Some(s) = &a.status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(EngineError::invalid(
            "status",
            format!("`{s}` is not one of {}", STATUSES.join(", ")),
        )
        .into());
    }
    let path = workspace_path(cli)?;
    let ws = Workspace::open_or_create(&path)?;
    jobs::reap_interrupted(&ws)?;
    let rows = jobs::list_jobs(
        &ws,
        &JobFilter {
            kind: a.kind.clone(),
            status: a.status.clone(),
            limit: a.limit,
        },
    )?;
    if let Some(f) = &a.csv {
        crate::engine::export::save_table(&jobs::log_table("jobs", &rows), f)?;
    }
    if a.json {
        return print_json(&json!({ "workspace": path, "jobs": rows }));
    }
    if rows.is_empty() {
        println!("no jobs in {}", path.display());
        return Ok(());
    }
    println!(
        "{:>5}  {:<12} {:<11} {:<24} {:>8}  params",
        "id", "kind", "status", "started", "took"
    );
    for r in rows {
        println!(
            "{:>5}  {:<12} {:<11} {:<24} {:>8}  {}",
            r.id,
            r.kind,
            r.status,
            r.started_at,
            r.duration_s.map_or("-".into(), |d| format!("{d:.1}s")),
            r.params
        );
    }
    Ok(())
}

/// `tianwang calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Measuring time in seconds (0.5–600).
    #[arg(long, default_value_t = CalibrateParams::default().seconds)]
    pub seconds: f64,
    #[arg(long)]
    pub json: bool,
}

/// Measure MD5 and SQLite throughput on 13 KB pages (a job, logged in the workspace).
pub fn calibrate(cli: &Cli, a: &CalibrateArgs) -> anyhow::Result<()> {
    let job = Calibrate::new(CalibrateParams { seconds: a.seconds })?;
    let ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    let v = run_job_with_progress(&ws, Box::new(job))?;
    if a.json {
        return print_json(&v);
    }
    let r = Calibrate::decode(&v)?;
    println!(
        "MD5 on 13 KB pages:    {:>10.0} pages/s ({:.0} MB/s)",
        r.md5_pages_per_s, r.md5_mb_per_s
    );
    println!(
        "SQLite 13 KB inserts:  {:>10.0} pages/s",
        r.sqlite_pages_per_s
    );
    Ok(())
}

fn compare(cli: &Cli, a: &JobsArgs) -> anyhow::Result<()> {
    let ws = Workspace::open_existing(&workspace_path(cli)?)?;
    let c = jobs::compare::compare(&ws, &a.compare)?;
    if let Some(f) = &a.csv {
        crate::engine::export::save_table(&c.to_table(), f)?;
    }
    if a.json {
        return print_json(&serde_json::to_value(&c)?);
    }
    let ids: Vec<String> = c.runs.iter().map(|r| format!("#{}", r.id)).collect();
    println!("{} runs {}", c.kind, ids.join(" vs "));
    println!(
        "parameters: {} differ, {} the same",
        c.params.len(),
        c.params_same
    );
    for p in &c.params {
        let v: Vec<String> = p
            .values
            .iter()
            .map(|v| v.as_ref().map_or("—".into(), |v| v.to_string()))
            .collect();
        println!("  {:<32} {}", p.name, v.join("  →  "));
    }
    println!("figures:");
    for f in &c.figures {
        let v: Vec<String> = f
            .values
            .iter()
            .zip(&f.relative)
            .enumerate()
            .map(|(i, (v, r))| match (v, r) {
                (Some(v), Some(r)) if i > 0 => format!("{v:.4} ({:+.1} %)", r * 100.0),
                (Some(v), _) => format!("{v:.4}"),
                (None, _) => "—".into(),
            })
            .collect();
        println!("  {:<32} {}", f.name, v.join("  "));
    }
    Ok(())
}

fn rerun(cli: &Cli, id: i64, json: bool) -> anyhow::Result<()> {
    let ws = Workspace::open_existing(&workspace_path(cli)?)?;
    let rec = jobs::get_job(&ws, id)?
        .ok_or_else(|| EngineError::invalid("--rerun", format!("no run #{id} in the log")))?;
    let kind = crate::workbench::find(&rec.kind).ok_or_else(|| {
        EngineError::invalid(
            "--rerun",
            format!("runs of kind {} cannot be re-run", rec.kind),
        )
    })?;
    let job = (kind.rebuild)(&rec.params)?;
    let (v, new_id) = super::run_job_with_id(&ws, job)?;
    if json {
        return print_json(&json!({ "rerun_of": id, "id": new_id, "kind": rec.kind, "result": v }));
    }
    println!(
        "run #{new_id} ({}) re-ran #{id} with the same parameters",
        rec.kind
    );
    Ok(())
}
