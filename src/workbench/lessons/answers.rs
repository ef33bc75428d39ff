//! Students' answers to question steps, kept in the workspace (table `lesson_answers`, schema
//! v12) and exported as CSV for the teacher. A question step gives an accepted range
//! ([`Check::Question`](super::Check::Question)); an answer is kept with whether it was in it
//! ("how many misses with four FIFO slots?" — Belady's anomaly, [L3440]).
//!
//! ```no_run
//! use tianwang::engine::store::Workspace;
//! use tianwang::workbench::lessons::answers;
//! let ws = Workspace::open_or_create(std::path::Path::new("lab.tianwang"))?;
//! answers::record(&ws, "caching", 5, "Li Lei", "10", true)?;
//! let table = answers::table(&answers::list(&ws)?);
//! assert_eq!(table.rows.len(), 1);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use rusqlite::params;
use serde::Serialize;

use crate::engine::error::Result;
use crate::engine::export::table::Table;
use crate::engine::store::Workspace;

/// One answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub lesson: String,
    pub step: i64,
    pub student: String,
    pub answer: String,
    pub accepted: bool,
    pub answered_at: String,
}

/// Keep an answer.
pub fn record(
    ws: &Workspace,
    lesson: &str,
    step: usize,
    student: &str,
    answer: &str,
    accepted: bool,
) -> Result<()> {
    ws.conn().execute(
        "INSERT INTO lesson_answers (lesson, step, student, answer, accepted, answered_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            lesson,
            step as i64,
            student.trim(),
            answer.trim(),
            accepted as i64,
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ],
    )?;
    Ok(())
}

/// Every answer, oldest first.
pub fn list(ws: &Workspace) -> Result<Vec<Answer>> {
    let mut st = ws.conn().prepare(
        "SELECT lesson, step, student, answer, accepted, answered_at FROM lesson_answers
         ORDER BY id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(Answer {
            lesson: r.get(0)?,
            step: r.get(1)?,
            student: r.get(2)?,
            answer: r.get(3)?,
            accepted: r.get::<_, i64>(4)? != 0,
            answered_at: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The answers as a table (CSV export).
pub fn table(answers: &[Answer]) -> Table {
    Table::new(
        "lesson answers",
        [
            "lesson",
            "step",
            "student",
            "answer",
            "accepted",
            "answered_at",
        ],
    )
    .with_rows(answers.iter().map(|a| {
        [
            a.lesson.clone(),
            a.step.to_string(),
            a.student.clone(),
            a.answer.clone(),
            a.accepted.to_string(),
            a.answered_at.clone(),
        ]
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_kept_and_export_as_csv() {
        let d = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&d.path().join("w.tianwang")).unwrap();
        record(&ws, "caching", 5, " 李雷 ", "10", true).unwrap();
        record(&ws, "caching", 5, "Han, Meimei", "9", false).unwrap();
        let all = list(&ws).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].student.as_str(), all[0].accepted), ("李雷", true));
        let csv = table(&all).to_csv();
        assert!(csv.contains("caching,5,李雷,10,true"), "{csv}");
        assert!(csv.contains("\"Han, Meimei\""), "{csv}");
    }
}
