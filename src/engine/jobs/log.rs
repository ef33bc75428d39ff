//! The experiment log: one `jobs` row per run (kind, parameters, start and end, outcome,
//! result), written by the runner, read by the Jobs panel and `tianwang jobs`; rows left
//! `running` by a process that died are marked `interrupted` when the log is read.

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use super::{HEARTBEAT_STALE, JobState};
use crate::engine::error::{EngineError, ErrorCode, Flaw, Result};
use crate::engine::store::{Workspace, now_rfc3339};

pub(super) fn record_start(workspace: &std::path::Path, kind: &str, params: &Value) -> Result<i64> {
    let ws = Workspace::open_existing(workspace)?;
    let now = now_rfc3339();
    let pid = std::process::id();
    ws.conn().execute(
        "INSERT INTO jobs(kind, params, status, started_at, heartbeat_at, pid, proc_start)
         VALUES (?1, ?2, 'running', ?3, ?3, ?4, ?5)",
        (
            kind,
            params.to_string(),
            &now,
            i64::from(pid),
            process_start(i64::from(pid)),
        ),
    )?;
    Ok(ws.conn().last_insert_rowid())
}

pub(super) fn record_end(workspace: &std::path::Path, id: i64, state: &JobState) -> Result<()> {
    let (status, result, error, code) = match state {
        JobState::Done(v) => ("done", Some(v.to_string()), None, None),
        JobState::Failed { message, code, .. } => {
            ("failed", None, Some(message.clone()), Some(code.to_json()))
        }
        JobState::Cancelled => ("cancelled", None, None, None),
        other => {
            return Err(EngineError::Internal(format!(
                "record_end on an unfinished job: {other:?}"
            )));
        }
    };
    let ws = Workspace::open_existing(workspace)?;
    ws.conn().execute(
        "UPDATE jobs SET status = ?1, ended_at = ?2, result = ?3, error = ?4, error_code = ?5
         WHERE id = ?6",
        (status, now_rfc3339(), result, error, code, id),
    )?;
    Ok(())
}

/// Is process `pid` alive on this machine? `None` where we cannot tell.
fn process_alive(pid: i64) -> Option<bool> {
    if cfg!(target_os = "linux") {
        Some(std::path::Path::new("/proc").join(pid.to_string()).exists())
    } else {
        None
    }
}

/// When process `pid` started, as the kernel tells it (Linux: field 22 of `/proc/PID/stat`,
/// clock ticks since boot). Together with the pid it names one process: a pid reused by a
/// later process has a different start time. `None` where the platform does not say.
pub(crate) fn process_start(pid: i64) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may contain spaces: count from its end.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19).map(str::to_string)
}

/// Is the process that wrote this row still running it? `Some(true)` when the pid is alive
/// with the recorded start time, `Some(false)` when it is gone or the pid was reused, `None`
/// when this cannot be told here (no start time recorded, or another platform).
fn row_process_alive(pid: Option<i64>, proc_start: Option<&str>) -> Option<bool> {
    let pid = pid?;
    match (proc_start, process_alive(pid)) {
        (_, Some(false)) => Some(false),
        (Some(recorded), Some(true)) => Some(process_start(pid).as_deref() == Some(recorded)),
        _ => None,
    }
}

/// Mark `running` rows whose process is gone as `interrupted`. A row whose process is known
/// to be alive stays `running` however old its heartbeat (its job may hold a long write
/// transaction); the heartbeat decides only where liveness cannot be told (rows written
/// before schema v6, other platforms). Returns how many rows changed.
pub(super) fn reap_interrupted(conn: &Connection) -> Result<usize> {
    let mut stmt = conn
        .prepare("SELECT id, pid, heartbeat_at, proc_start FROM jobs WHERE status = 'running'")?;
    type Row = (i64, Option<i64>, Option<String>, Option<String>);
    let rows: Vec<Row> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<std::result::Result<_, _>>()?;
    let now = chrono::Utc::now();
    let mut n = 0;
    for (id, pid, beat, proc_start) in rows {
        let stale = || {
            beat.as_deref()
                .and_then(|b| chrono::DateTime::parse_from_rfc3339(b).ok())
                .is_none_or(|b| {
                    (now - b.with_timezone(&chrono::Utc))
                        .to_std()
                        .is_ok_and(|age| age > HEARTBEAT_STALE)
                })
        };
        let gone = match row_process_alive(pid, proc_start.as_deref()) {
            Some(alive) => !alive,
            None => pid.and_then(process_alive) == Some(false) || stale(),
        };
        if gone && !conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            n += conn.execute(
                "UPDATE jobs SET status = 'interrupted', ended_at = coalesce(heartbeat_at, started_at),
                        error = 'the process running this job stopped before it finished',
                        error_code = ?2
                 WHERE id = ?1 AND status = 'running'",
                (id, ErrorCode::interrupted().to_json()),
            )?;
        }
    }
    Ok(n)
}

/// Every status a logged run can have (the `jobs` table's CHECK constraint).
pub const STATUSES: [&str; 5] = ["running", "done", "failed", "cancelled", "interrupted"];

/// One row of the experiment log.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct JobRecord {
    pub id: i64,
    pub kind: String,
    pub params: Value,
    pub status: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    /// Wall-clock seconds from start to end (or to the last heartbeat of an interrupted job).
    pub duration_s: Option<f64>,
    pub result: Option<Value>,
    /// The failure in English (the CLI, CSV).
    pub error: Option<String>,
    /// The failure as a code for the UI's string tables (rows written since schema v10).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<ErrorCode>,
}

/// Which rows of the experiment log to list.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    pub kind: Option<String>,
    pub status: Option<String>,
    /// At most this many, newest first.
    pub limit: Option<usize>,
}

/// The experiment log, newest first. A pure read: call [`super::reap_interrupted`] first so the
/// runs of a process that died show as `interrupted`.
pub fn list_jobs(ws: &Workspace, filter: &JobFilter) -> Result<Vec<JobRecord>> {
    select_jobs(ws, None, filter)
}

/// Rows matching `filter` (and `id`, when given), newest first.
fn select_jobs(ws: &Workspace, id: Option<i64>, filter: &JobFilter) -> Result<Vec<JobRecord>> {
    let limit = filter.limit.map_or(-1, |l| l as i64);
    let mut stmt = ws.conn().prepare(
        "SELECT id, kind, params, status, started_at, ended_at, result, error, error_code FROM jobs
         WHERE (?1 IS NULL OR kind = ?1) AND (?2 IS NULL OR status = ?2) AND (?4 IS NULL OR id = ?4)
         ORDER BY id DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map((&filter.kind, &filter.status, limit, id), |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, Option<String>>(5)?,
            r.get::<_, Option<String>>(6)?,
            r.get::<_, Option<String>>(7)?,
            r.get::<_, Option<String>>(8)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, kind, params, status, started_at, ended_at, result, error, code) = row?;
        let duration_s = ended_at
            .as_deref()
            .and_then(|e| seconds_between(&started_at, e));
        out.push(JobRecord {
            id,
            kind,
            params: serde_json::from_str(&params).unwrap_or(Value::String(params)),
            status,
            started_at,
            ended_at,
            duration_s,
            result: result.map(|r| serde_json::from_str(&r).unwrap_or(Value::String(r))),
            error,
            error_code: code.as_deref().and_then(ErrorCode::from_json),
        });
    }
    Ok(out)
}

/// One job's row.
pub fn get_job(ws: &Workspace, id: i64) -> Result<Option<JobRecord>> {
    Ok(select_jobs(ws, Some(id), &JobFilter::default())?.pop())
}

fn seconds_between(a: &str, b: &str) -> Option<f64> {
    let a = chrono::DateTime::parse_from_rfc3339(a).ok()?;
    let b = chrono::DateTime::parse_from_rfc3339(b).ok()?;
    Some((b - a).num_milliseconds() as f64 / 1000.0)
}

/// Keep a large part of job `job_id`'s result (a per-page table …) beside its log row.
pub fn save_detail<T: Serialize + ?Sized>(
    ws: &Workspace,
    job_id: i64,
    name: &str,
    data: &T,
) -> Result<()> {
    let text = serde_json::to_string(data)
        .map_err(|e| EngineError::Internal(format!("detail {name}: {e}")))?;
    ws.conn().execute(
        "INSERT OR REPLACE INTO job_details(job_id, name, data) VALUES (?1, ?2, ?3)",
        (job_id, name, text),
    )?;
    Ok(())
}

/// A part saved with [`save_detail`]; `None` when the run has none of that name.
pub fn load_detail<T: serde::de::DeserializeOwned>(
    ws: &Workspace,
    job_id: i64,
    name: &str,
) -> Result<Option<T>> {
    use rusqlite::OptionalExtension;
    let text: Option<String> = ws
        .conn()
        .query_row(
            "SELECT data FROM job_details WHERE job_id = ?1 AND name = ?2",
            (job_id, name),
            |r| r.get(0),
        )
        .optional()?;
    text.map(|t| {
        serde_json::from_str(&t).map_err(|e| {
            EngineError::corrupt(
                ws.path(),
                Flaw::with_detail("flaw.job_detail", &[&name, &job_id], e),
            )
        })
    })
    .transpose()
}

/// Runs of the experiment log as a table (parameters and results as JSON text): CSV export in
/// the Jobs panel and `tianwang jobs --csv`.
pub fn log_table(title: &str, rows: &[JobRecord]) -> crate::engine::export::Table {
    crate::engine::export::Table::new(
        title,
        [
            "id",
            "kind",
            "status",
            "started_at",
            "ended_at",
            "duration_s",
            "params",
            "result",
            "error",
        ],
    )
    .with_rows(rows.iter().map(|r| {
        [
            r.id.to_string(),
            r.kind.clone(),
            r.status.clone(),
            r.started_at.clone(),
            r.ended_at.clone().unwrap_or_default(),
            r.duration_s.map_or(String::new(), |d| d.to_string()),
            r.params.to_string(),
            r.result.as_ref().map_or(String::new(), |v| v.to_string()),
            r.error.clone().unwrap_or_default(),
        ]
    }))
}
