//! What each stage of the pipeline last read and made (table `pipeline_stages`, schema v11),
//! and what it would read now: a stage is up to date when its input mark — counts and newest
//! ids of what it reads, taken from the workspace itself — equals the mark of its last run.
//! The Overview's pipeline view reads [`status`] (off the UI thread) to draw every stage with
//! its last run and whether a new crawl left it work to do.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{STAGES, StageRun};
use crate::engine::error::Result;
use crate::engine::store::{Workspace, now_rfc3339};

/// The counts of one look at the workspace, each asked once: the stages' marks share them
/// (the cleaned-page count alone scans `clean_pages`, and three stages read it).
struct Counts<'a> {
    ws: &'a Workspace,
    seen: std::cell::RefCell<Vec<(&'static str, i64)>>,
    /// Called before each query that is not yet answered (see [`status_pausing`]).
    pause: &'a dyn Fn(),
}

impl<'a> Counts<'a> {
    fn new(ws: &'a Workspace, pause: &'a dyn Fn()) -> Self {
        Counts {
            ws,
            seen: Default::default(),
            pause,
        }
    }

    /// A count the workspace answers in one query.
    fn get(&self, sql: &'static str) -> Result<i64> {
        if let Some((_, n)) = self.seen.borrow().iter().find(|(q, _)| *q == sql) {
            return Ok(*n);
        }
        (self.pause)();
        let n = self
            .ws
            .conn()
            .query_row(sql, [], |r| r.get::<_, Option<i64>>(0))?
            .unwrap_or(0);
        self.seen.borrow_mut().push((sql, n));
        Ok(n)
    }
}

/// The input mark of `stage` now: what it would read.
pub(crate) fn mark(ws: &Workspace, stage: &str, model: Option<i64>) -> Result<Value> {
    mark_with(&Counts::new(ws, &|| {}), stage, model)
}

fn mark_with(c: &Counts<'_>, stage: &str, model: Option<i64>) -> Result<Value> {
    let cleaned = || -> Result<Value> {
        Ok(json!({
            "cleaned": c.get("SELECT COUNT(*) FROM clean_pages WHERE ok = 1")?,
            "newest_clean": c.get("SELECT MAX(snapshot_id) FROM clean_pages")?,
        }))
    };
    Ok(match stage {
        "crawl" => json!({
            "pages": c.get("SELECT COUNT(*) FROM pages")?,
            "queued": c.get("SELECT COUNT(*) FROM frontier WHERE state = 'queued'")?,
        }),
        "clean" => json!({ "newest_snapshot": c.get("SELECT MAX(id) FROM snapshots")? }),
        "dedup" => {
            let mut m = cleaned()?;
            m["replicas"] =
                json!(c.get("SELECT COUNT(*) FROM pages WHERE replica_of IS NOT NULL")?);
            m
        }
        "index" => {
            let mut m = cleaned()?;
            m["newest_snapshot"] = json!(c.get("SELECT MAX(id) FROM snapshots")?);
            m
        }
        "pagerank" => json!({
            "pages": c.get("SELECT COUNT(*) FROM pages")?,
            "links": c.get("SELECT COUNT(*) FROM links")?,
        }),
        "classify" => {
            let mut m = cleaned()?;
            m["model"] = json!(model);
            m
        }
        _ => Value::Null,
    })
}

/// A stage's last run as kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    pub stage: String,
    pub job_id: Option<i64>,
    pub input: Value,
    pub run: StageRun,
    pub finished_at: String,
}

/// The kept last run of `stage`.
pub(crate) fn kept(ws: &Workspace, stage: &str) -> Result<Option<Kept>> {
    let row: Option<(Option<i64>, String, String, String)> = ws
        .conn()
        .query_row(
            "SELECT job_id, input, output, finished_at FROM pipeline_stages WHERE stage = ?1",
            [stage],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
    Ok(row.and_then(|(job_id, input, output, finished_at)| {
        // A row this build cannot read is as good as none: the stage runs again.
        Some(Kept {
            stage: stage.to_string(),
            job_id,
            input: serde_json::from_str(&input).ok()?,
            run: serde_json::from_str(&output).ok()?,
            finished_at,
        })
    }))
}

/// Keep `run` as the last run of its stage, with the input mark it read.
pub(crate) fn keep(ws: &Workspace, run: &StageRun, input: &Value) -> Result<()> {
    let output = serde_json::to_string(run)
        .map_err(|e| crate::engine::error::EngineError::Internal(format!("a stage run: {e}")))?;
    ws.conn().execute(
        "INSERT OR REPLACE INTO pipeline_stages (stage, job_id, input, output, seconds, finished_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![
            run.name,
            run.job,
            input.to_string(),
            output,
            run.seconds,
            now_rfc3339()
        ],
    )?;
    Ok(())
}

/// One stage as the Overview draws it: its last run (if any) and whether it has work now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageState {
    pub name: String,
    pub last: Option<Kept>,
    /// The workspace changed since the last run (or there was none): a build would run it.
    pub stale: bool,
}

/// Every stage's state (the classify stage only when it ran once).
pub fn status(ws: &Workspace) -> Result<Vec<StageState>> {
    status_pausing(ws, &|| {})
}

/// [`status`], calling `pause` before each count it asks the workspace (some scan a table):
/// the GUI lets a read the user waits for go first there.
pub fn status_pausing(ws: &Workspace, pause: &dyn Fn()) -> Result<Vec<StageState>> {
    let mut out = Vec::new();
    let counts = Counts::new(ws, pause);
    for &stage in STAGES {
        let last = kept(ws, stage)?;
        if stage == "classify" && last.is_none() {
            continue;
        }
        let model = last
            .as_ref()
            .and_then(|k| k.input.get("model").and_then(Value::as_i64));
        let now = mark_with(&counts, stage, model)?;
        let stale = match &last {
            None => true,
            // The build's crawl has work only while its frontier holds queued URLs; pages
            // another crawl added are the later stages' news, not the crawl's.
            Some(_) if stage == "crawl" => now["queued"].as_i64().unwrap_or(0) > 0,
            Some(k) if k.input != now => true,
            Some(_) if stage == "clean" => {
                pause();
                has_uncleaned(ws)?
            }
            Some(_) => false,
        };
        out.push(StageState {
            name: stage.to_string(),
            last,
            stale,
        });
    }
    Ok(out)
}

/// Whether some page's latest snapshot is not cleaned.
pub(crate) fn has_uncleaned(ws: &Workspace) -> Result<bool> {
    let (pages, cleaned) = crate::engine::docview::stored::counts(ws)?;
    Ok(cleaned < pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str) -> StageRun {
        StageRun {
            name: name.to_string(),
            status: super::super::Status::Done,
            seconds: 0.5,
            input: 3,
            out: 3,
            // No row in the experiment log in this test (job_id references one).
            job: None,
            last_job: None,
            counts: Default::default(),
            note: String::new(),
            error: None,
        }
    }

    #[test]
    fn each_count_is_asked_once_and_after_a_pause() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&dir.path().join("w.tianwang")).unwrap();
        for stage in ["crawl", "clean", "dedup", "index", "pagerank"] {
            keep(&ws, &run(stage), &mark(&ws, stage, None).unwrap()).unwrap();
        }
        let pauses = std::cell::Cell::new(0);
        let paused = status_pausing(&ws, &|| pauses.set(pauses.get() + 1)).unwrap();
        assert_eq!(paused, status(&ws).unwrap(), "pausing changes nothing");
        assert!(paused.iter().all(|s| !s.stale), "{paused:?}");
        // Seven distinct counts (pages, queue, newest snapshot, cleaned, newest clean,
        // replicas, links) and the clean stage's check of the latest snapshots: each once.
        assert_eq!(pauses.get(), 8);
    }

    #[test]
    fn a_kept_run_is_up_to_date_until_what_it_read_changes() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open_or_create(&dir.path().join("w.tianwang")).unwrap();
        // Nothing ran: the five stages (classify only once it ran) all have work.
        let s = status(&ws).unwrap();
        let names: Vec<&str> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["crawl", "clean", "dedup", "index", "pagerank"]);
        assert!(s.iter().all(|s| s.stale && s.last.is_none()));

        // PageRank kept with the mark of what it read: up to date, and read back whole.
        let m = mark(&ws, "pagerank", None).unwrap();
        keep(&ws, &run("pagerank"), &m).unwrap();
        let pr = |ws: &Workspace| {
            status(ws)
                .unwrap()
                .into_iter()
                .find(|s| s.name == "pagerank")
                .unwrap()
        };
        let now = pr(&ws);
        assert!(!now.stale);
        let k = now.last.unwrap();
        assert_eq!((k.job_id, k.run, k.input), (None, run("pagerank"), m));

        // A crawl adds pages and a link: PageRank has work again.
        ws.conn()
            .execute_batch(
                "INSERT INTO sites(id, host, first_seen) VALUES (1, 'a', 'now');
                 INSERT INTO pages(id, url, site_id, first_seen) VALUES
                     (1, 'http://a/1', 1, 'now'), (2, 'http://a/2', 1, 'now');
                 INSERT INTO links(from_page, to_url) VALUES (1, 'http://a/2');",
            )
            .unwrap();
        assert!(pr(&ws).stale);

        // A classify run with a model: listed from then on, stale when the model changes.
        let m = mark(&ws, "classify", Some(1)).unwrap();
        keep(&ws, &run("classify"), &m).unwrap();
        let c = status(&ws).unwrap().into_iter().last().unwrap();
        assert_eq!(c.name, "classify");
        assert!(!c.stale);
        assert_ne!(mark(&ws, "classify", Some(2)).unwrap(), m);
    }
}
