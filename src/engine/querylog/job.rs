//! The query-log lab's jobs: `querylog-import` (a log file into the workspace, streamed, with
//! progress and cancel, one transaction), `querylog-stats` (every statistic of a file or a
//! stored log, the result in the experiment log) and `querylog-generate` (a synthetic log
//! written to a file, which a `querylog-stats` run then reads).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::Normalise;
use super::collect::collect_file;
use super::persist::{self, ImportOutcome};
use super::read::{ReadConfig, ReadSummary};
use super::stats::{Collector, Stats, StatsConfig};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, Tick};
use crate::engine::store::Workspace;

/// `querylog-import` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ImportParams {
    pub path: PathBuf,
    pub read: ReadConfig,
    pub normalise: Normalise,
    pub name: String,
    #[serde(default)]
    pub synthetic: bool,
}

pub(crate) struct ImportJob {
    p: ImportParams,
}

impl TypedJob for ImportJob {
    const KIND: &'static str = "querylog-import";
    type Params = ImportParams;
    type Output = ImportOutcome;

    fn from_params(p: ImportParams) -> Result<Self> {
        p.read.validate()?;
        if p.name.trim().is_empty() {
            return Err(EngineError::invalid(
                "--name",
                "a log needs a non-empty name",
            ));
        }
        Ok(ImportJob { p })
    }

    fn params(&self) -> ImportParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<ImportOutcome> {
        let mut ws = Workspace::open_existing(cx.workspace_path())?;
        let out = persist::import(
            ws.conn_mut(),
            &self.p.path,
            &self.p.read,
            self.p.normalise,
            &self.p.name,
            cx.job_id(),
            self.p.synthetic,
            cx,
        )?;
        cx.counter("records", out.summary.records as f64);
        cx.counter("bad_lines", out.summary.bad.count as f64);
        Ok(out)
    }
}

/// Where a statistics run reads its log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogSource {
    File { path: PathBuf, read: ReadConfig },
    Stored { log_id: i64 },
}

/// `querylog-stats` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StatsParams {
    pub source: LogSource,
    pub config: StatsConfig,
    /// Where the counting runs (native unless asked; [`stats_on`]).
    #[serde(default)]
    pub engine: crate::engine::exec::EngineConfig,
}

/// A statistics run's result: what was read and every statistic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsOutput {
    pub read: Option<ReadSummary>,
    pub stats: Stats,
    pub elapsed_s: f64,
    /// Seconds per phase (reading, counting queries, …).
    #[serde(default)]
    pub phases_s: Vec<(String, f64)>,
}

/// Reads the source and computes every statistic (the CLI and the panel call this too).
pub fn compute(
    source: &LogSource,
    cfg: &StatsConfig,
    workspace: Option<&std::path::Path>,
    tick: &dyn Tick,
) -> Result<StatsOutput> {
    cfg.validate()?;
    let t0 = std::time::Instant::now();
    let timed = Timed::new(tick);
    let tick: &dyn Tick = &timed;
    let (read, c) = match source {
        LogSource::File { path, read } => {
            let lines = super::budget::estimate_lines(path)?;
            super::budget::check(lines, cfg.memory_limit_mb, &path.display().to_string())?;
            let phase = Phase(tick, 0.0, 0.7);
            let (s, c) = collect_file(path, read, cfg, &phase)?;
            (Some(s), c)
        }
        LogSource::Stored { log_id } => {
            let Some(w) = workspace else {
                return Err(EngineError::invalid(
                    "--workspace",
                    "a stored log needs a workspace",
                ));
            };
            let ws = Workspace::open_existing(w)?;
            let summary = persist::summary_of(ws.conn(), *log_id)?;
            let what = format!("stored log #{log_id}");
            super::budget::check(summary.records, cfg.memory_limit_mb, &what)?;
            tick.tick(0.0, "loading the stored log")?;
            let mut c = Collector::new(cfg.clone());
            persist::load(ws.conn(), *log_id, &mut |r| c.push(r))?;
            (Some(summary), c)
        }
    };
    timed.mark("reading")?;
    let stats = c.finish(&Phase(tick, 0.7, 1.0))?;
    Ok(StatsOutput {
        read,
        stats,
        elapsed_s: t0.elapsed().as_secs_f64(),
        phases_s: timed.phases(),
    })
}

/// A tick that also times each phase (a phase: from one message's first report to the next
/// new message).
pub(crate) struct Timed<'a> {
    inner: &'a dyn Tick,
    t0: std::time::Instant,
    log: std::sync::Mutex<Vec<(String, f64)>>,
}

impl<'a> Timed<'a> {
    pub fn new(inner: &'a dyn Tick) -> Self {
        Timed {
            inner,
            t0: std::time::Instant::now(),
            log: std::sync::Mutex::new(vec![("reading".into(), 0.0)]),
        }
    }

    fn mark(&self, message: &str) -> Result<()> {
        let mut log = self
            .log
            .lock()
            .map_err(|_| EngineError::Internal("timing lock".into()))?;
        let key = message
            .split(|c: char| c.is_ascii_digit())
            .next()
            .unwrap_or("")
            .trim();
        let key = if key.is_empty() || key == "lines" {
            "reading"
        } else {
            key
        };
        if log.last().map(|l| l.0.as_str()) != Some(key) {
            log.push((key.to_string(), self.t0.elapsed().as_secs_f64()));
        }
        Ok(())
    }

    /// (phase, seconds) in order.
    pub(crate) fn phases(&self) -> Vec<(String, f64)> {
        let log = match self.log.lock() {
            Ok(l) => l.clone(),
            Err(_) => return Vec::new(),
        };
        let end = self.t0.elapsed().as_secs_f64();
        log.iter()
            .enumerate()
            .map(|(i, (k, t))| {
                let next = log.get(i + 1).map(|x| x.1).unwrap_or(end);
                (k.clone(), next - t)
            })
            .collect()
    }
}

impl Tick for Timed<'_> {
    fn tick(&self, fraction: f32, message: &str) -> Result<()> {
        self.mark(message)?;
        self.inner.tick(fraction, message)
    }
}

/// A tick that maps 0..1 onto `lo..hi` of the parent's progress.
pub(crate) struct Phase<'a>(pub &'a dyn Tick, pub f32, pub f32);

impl Tick for Phase<'_> {
    fn tick(&self, fraction: f32, message: &str) -> Result<()> {
        self.0.tick(self.1 + (self.2 - self.1) * fraction, message)
    }
}

pub(crate) struct StatsJob {
    p: StatsParams,
}

impl TypedJob for StatsJob {
    const KIND: &'static str = "querylog-stats";
    type Params = StatsParams;
    type Output = StatsOutput;

    fn from_params(p: StatsParams) -> Result<Self> {
        p.config.validate()?;
        p.engine.validate()?;
        if let LogSource::File { read, .. } = &p.source {
            read.validate()?;
        }
        Ok(StatsJob { p })
    }

    fn params(&self) -> StatsParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<StatsOutput> {
        stats_on(
            &self.p.source,
            &self.p.config,
            &self.p.engine,
            Some(cx.workspace_path()),
            cx,
        )
    }
}

/// The statistics of `source` on the configured engine (the native engine runs
/// [`compute`]).
pub fn stats_on(
    source: &LogSource,
    cfg: &StatsConfig,
    engine: &crate::engine::exec::EngineConfig,
    workspace: Option<&std::path::Path>,
    tick: &dyn Tick,
) -> Result<StatsOutput> {
    if engine.engine == crate::engine::exec::Engine::Native {
        return compute(source, cfg, workspace, tick);
    }
    engine.validate()?;
    cfg.validate()?;
    #[cfg(feature = "bigjobs")]
    {
        let work = crate::engine::exec::scratch::ScratchDir::new("querylog")?;
        super::on_engine::run(source, cfg, engine, workspace, work.path(), tick)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = (source, workspace, tick);
        Err(crate::engine::error::EngineError::Internal(
            "unreachable: validate refuses".into(),
        ))
    }
}

/// `querylog-generate` parameters: the generator and the file it writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct GenerateParams {
    pub config: super::generate::GenConfig,
    pub path: PathBuf,
}

/// What a generation wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generated {
    pub path: PathBuf,
    pub lines: u64,
}

/// Writes a synthetic log ([`super::generate::write_file`]: all or nothing) with progress and
/// cancel.
pub(crate) struct GenerateJob {
    p: GenerateParams,
}

impl TypedJob for GenerateJob {
    const KIND: &'static str = "querylog-generate";
    type Params = GenerateParams;
    type Output = Generated;

    fn from_params(p: GenerateParams) -> Result<Self> {
        p.config.validate()?;
        if p.path.as_os_str().is_empty() {
            return Err(EngineError::invalid(
                "--out",
                "the generated log needs a file",
            ));
        }
        Ok(GenerateJob { p })
    }

    fn params(&self) -> GenerateParams {
        self.p.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<Generated> {
        let lines = super::generate::write_file(&self.p.config, &self.p.path, cx)?;
        Ok(Generated {
            path: self.p.path.clone(),
            lines,
        })
    }
}

#[cfg(test)]
mod generate_tests {
    use super::*;
    use crate::engine::jobs::JobRunner;
    use crate::engine::querylog::generate::GenConfig;

    #[test]
    fn a_generate_job_writes_the_log_a_stats_run_reads() {
        let d = tempfile::tempdir().unwrap();
        let ws = d.path().join("w.tianwang");
        Workspace::open_or_create(&ws).unwrap();
        let path = d.path().join("gen.log");
        let config = GenConfig {
            lines: 2_000,
            ..GenConfig::default()
        };
        let job = GenerateJob::from_params(GenerateParams {
            config: config.clone(),
            path: path.clone(),
        })
        .unwrap();
        let runner = JobRunner::new(ws, std::sync::Arc::new(|| {}));
        let state = runner.spawn(Box::new(job)).wait();
        let crate::engine::jobs::JobState::Done(v) = state else {
            panic!("{state:?}");
        };
        assert_eq!(
            GenerateJob::decode(&v).unwrap(),
            Generated {
                path: path.clone(),
                lines: 2_000
            }
        );
        let src = LogSource::File {
            path,
            read: ReadConfig::new(config.format),
        };
        let out = compute(&src, &StatsConfig::default(), None, &()).unwrap();
        assert_eq!(out.stats.volume.requests, 2_000);
    }

    #[test]
    fn a_generate_job_needs_a_file_and_valid_targets() {
        let bad = |config: GenConfig, path: &str| {
            GenerateJob::from_params(GenerateParams {
                config,
                path: path.into(),
            })
            .err()
            .map(|e| e.to_string())
        };
        assert!(bad(GenConfig::default(), "").unwrap().contains("--out"));
        let zero = GenConfig {
            lines: 0,
            ..GenConfig::default()
        };
        assert!(bad(zero, "x.log").unwrap().contains("--lines"));
    }
}
