//! The whole engine in one job: the book's three stages (ch. 2 [L614–L735]: gathering,
//! preprocessing, serving) as one pipeline of the labs' own jobs — serve the sample web (or take
//! the given seeds) → `crawl` → `clean` (DocView once per stored page, kept) → `dedup` (the
//! recommended `best` method's groups, kept: §7.2's dedup before serving) → `index` (every page,
//! duplicates kept and marked by their group) → `pagerank` (over the crawl graph, kept) →
//! optionally `classify` (a stored model's category for every page, kept) → ready to search.
//!
//! **One job, each stage its own row.** The `build` job ([`BuildJob`]) runs each stage's job
//! (`crawl`, `clean-pages`, `dedup-pages`, `index-build`, `pagerank`, `classify-pages`) through
//! [`JobContext::run_child`]: a newcomer's one click has one progress bar and one cancel, while
//! the experiment log shows every stage as its own run with its parameters and time, which
//! re-opens in the stage's panel and runs again alone. A stage whose input has not changed since
//! its last run (its mark, [`state`]) is not run and says `up-to-date`; after a new crawl the
//! `clean` stage cleans only the new snapshots, and the stages after it run again on what
//! changed (their results are global: a new page can be a reprint of an old one).
//!
//! ```no_run
//! use std::sync::Arc;
//! use tianwang::engine::jobs::{JobRunner, JobState, TypedJob};
//! use tianwang::workbench::pipeline::{BuildJob, BuildParams};
//! let runner = JobRunner::new("lab.tianwang".into(), Arc::new(|| {}));
//! let job = BuildJob::from_params(BuildParams { sample: true, ..BuildParams::default() })?;
//! if let JobState::Done(v) = runner.spawn(Box::new(job)).wait() {
//!     for s in BuildJob::decode(&v)?.stages {
//!         println!("{:<9} {:?} {:.1} s  {} → {}", s.name, s.status, s.seconds, s.input, s.out);
//!     }
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

mod stages;
pub mod state;

use std::collections::BTreeMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::{JobContext, TypedJob, save_detail};
use crate::engine::store::Workspace;
pub use state::{StageState, status, status_pausing};

/// The stages, in order (`classify` only when a model is given).
pub const STAGES: &[&str] = &["crawl", "clean", "dedup", "index", "pagerank", "classify"];

/// What to build from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildParams {
    /// Serve the sample web on loopback and crawl its seeds.
    pub sample: bool,
    /// Or crawl these seeds.
    pub seeds: Vec<String>,
    /// At most this many pages in the crawl.
    pub max_pages: Option<u64>,
    /// Classify every page with this stored model (`classify_models.id`).
    pub classify: Option<i64>,
}

/// How a stage ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Done,
    /// Its input did not change since its last run: nothing to do.
    UpToDate,
    Failed,
    Cancelled,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::UpToDate => "up-to-date",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// One stage of one build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRun {
    /// crawl, clean, dedup, index, pagerank or classify.
    pub name: String,
    pub status: Status,
    pub seconds: f64,
    /// What flowed in (seeds, snapshots to clean, cleaned pages, …) and out (pages stored,
    /// pages cleaned, groups, documents indexed, pages ranked, pages classified).
    #[serde(rename = "in")]
    pub input: u64,
    pub out: u64,
    /// This stage's row in the experiment log (None when it did not run).
    pub job: Option<i64>,
    /// The run whose results are kept (this one, or the earlier one when up to date).
    pub last_job: Option<i64>,
    /// The stage's figures (fetched, stored, cleaned, groups, unique, docs, terms, …).
    pub counts: BTreeMap<String, u64>,
    /// What it did, in English (the CLI's line; the UI says it from the figures).
    pub note: String,
    /// Why it failed, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A whole build.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BuildOutcome {
    pub stages: Vec<StageRun>,
    /// Pages the workspace holds (URLs fetched), and of them with a stored snapshot.
    pub pages: u64,
    pub stored: u64,
    /// Pages whose latest snapshot DocView cleaned.
    pub cleaned: u64,
    /// Groups of near-duplicates search folds, and the pages a search shows at most once.
    pub clusters: u64,
    pub unique: u64,
    pub indexed_docs: u64,
    pub terms: u64,
    pub postings: u64,
    pub ranked: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classified: Option<u64>,
    pub seconds: f64,
}

impl BuildOutcome {
    /// The stage called `name`, if it is in this build.
    pub fn stage(&self, name: &str) -> Option<&StageRun> {
        self.stages.iter().find(|s| s.name == name)
    }

    fn figure(&self, stage: &str, key: &str) -> u64 {
        self.stage(stage)
            .and_then(|s| s.counts.get(key).copied())
            .unwrap_or(0)
    }

    /// Fill the headline figures from the stages' counts.
    fn sum_up(&mut self) {
        self.pages = self.figure("crawl", "pages");
        self.stored = self.figure("crawl", "stored_pages");
        self.cleaned = self.figure("clean", "cleaned_pages");
        self.clusters = self.figure("dedup", "groups");
        self.unique = self.figure("dedup", "unique");
        self.indexed_docs = self.figure("index", "docs");
        self.terms = self.figure("index", "terms");
        self.postings = self.figure("index", "postings");
        self.ranked = self.figure("pagerank", "ranked");
        self.classified = self.stage("classify").map(|s| s.out);
    }
}

/// The `build` job: the whole engine, stage by stage (see the module doc).
pub struct BuildJob {
    params: BuildParams,
}

impl TypedJob for BuildJob {
    const KIND: &'static str = "build";
    type Params = BuildParams;
    type Output = BuildOutcome;

    fn from_params(params: BuildParams) -> Result<Self> {
        if params.sample != params.seeds.is_empty() {
            return Err(EngineError::invalid_flaw(
                "--sample",
                Flaw::new("flaw.param_sample_or_seeds", &[]),
            ));
        }
        for s in &params.seeds {
            let ok = url::Url::parse(s)
                .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
            if !ok {
                return Err(EngineError::invalid_flaw(
                    "--seed",
                    Flaw::new("flaw.param_not_http", &[s]),
                ));
            }
        }
        if params.max_pages == Some(0) {
            return Err(EngineError::invalid("--max-pages", "must be at least 1"));
        }
        if params.classify.is_some_and(|m| m <= 0) {
            return Err(EngineError::invalid("--classify", "a model id is positive"));
        }
        Ok(BuildJob { params })
    }

    fn params(&self) -> BuildParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<BuildOutcome> {
        let t0 = Instant::now();
        let ws = Workspace::open_existing(cx.workspace_path())?;
        let mut out = BuildOutcome::default();
        let plan: Vec<(&str, f32, f32)> = vec![
            ("crawl", 0.0, 0.45),
            ("clean", 0.45, 0.15),
            ("dedup", 0.6, 0.1),
            ("index", 0.7, 0.2),
            ("pagerank", 0.9, 0.05),
            ("classify", 0.95, 0.05),
        ];
        for (name, start, width) in plan {
            if name == "classify" && self.params.classify.is_none() {
                continue;
            }
            cx.progress(start, name);
            let (run, err) = stages::run(name, &self.params, cx, &ws, start, width)?;
            cx.counter(&format!("stage {name}"), run.seconds);
            out.stages.push(run);
            if let Some(e) = err {
                out.sum_up();
                out.seconds = t0.elapsed().as_secs_f64();
                // The stages so far stay readable beside the failed or cancelled row.
                if let Some(id) = cx.job_id() {
                    save_detail(&ws, id, "outcome", &out)?;
                }
                return Err(e);
            }
        }
        out.sum_up();
        out.seconds = t0.elapsed().as_secs_f64();
        cx.progress(1.0, "ready to search");
        Ok(out)
    }
}
