//! The `cache-sim` job: load a trace (a file, a generated stream, an inverted-file access
//! log), run the chosen policies at the chosen sizes, log the report. The CLI's `cache sim`
//! and `cache sweep` and the panel's Run button all start this job, so every run is in the
//! experiment log with its parameters.
//!
//! ```
//! use tianwang::engine::cache::job::{CacheSimParams, TraceSource};
//! use tianwang::engine::cache::trace::GenSpec;
//! let p = CacheSimParams {
//!     source: TraceSource::Generated(GenSpec { requests: 5_000, objects: 500, ..GenSpec::default() }),
//!     ..CacheSimParams::default()
//! };
//! let report = p.execute(&()).unwrap();
//! assert_eq!(report.trace.requests, 5_000);
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::sim::{SimConfig, SimReport, simulate};
use super::trace::{self, GenSpec, ReadOptions, Trace};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, Tick};

/// Where the requests come from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum TraceSource {
    /// A trace file read with the given options.
    File { path: PathBuf, options: ReadOptions },
    /// A generated stream.
    Generated(GenSpec),
    /// An inverted-file access log (`term type offset length` lines) in one of §8.6.3's
    /// views: `page_size` = None is the I/O sequence, Some(bytes) the PAGE sequence.
    AccessLog {
        path: PathBuf,
        page_size: Option<u32>,
    },
    /// Queries replayed on a real index (`tianwang index build`): every posting-file read is
    /// an access (§8.6.3), seen as the I/O sequence (`page_size` None) or the PAGE sequence.
    IndexReplay {
        index: PathBuf,
        queries: PathBuf,
        page_size: Option<u32>,
    },
    /// A query log stored in a workspace (the query-log lab's import): one request per
    /// record, key = the normalised query, or query + result page with `with_page`.
    StoredLog {
        workspace: PathBuf,
        log_id: i64,
        with_page: bool,
    },
}

impl TraceSource {
    /// Load the trace into memory.
    pub fn load(&self) -> Result<Trace> {
        match self {
            TraceSource::File { path, options } => trace::read_file(path, options),
            TraceSource::Generated(spec) => {
                spec.validate()?;
                if spec.requests > trace::MAX_TRACE_REQUESTS {
                    return Err(EngineError::invalid(
                        "--generate",
                        format!(
                            "requests={}: a trace the simulator holds has at most {} requests",
                            spec.requests,
                            trace::MAX_TRACE_REQUESTS
                        ),
                    ));
                }
                Ok(trace::Generator::new(spec.clone()).into_trace())
            }
            TraceSource::AccessLog { path, page_size } => {
                let log = trace::read_access_log(path)?;
                Ok(match page_size {
                    None => trace::io_view(&log),
                    Some(p) => trace::page_view(&log, *p)?,
                })
            }
            TraceSource::IndexReplay {
                index,
                queries,
                page_size,
            } => {
                let ix = crate::engine::index::reader::Index::open(index)?;
                let text = crate::engine::text::read_utf8(queries, "--index-queries")?;
                let qs = crate::engine::cache::replay::read_queries(&text);
                if qs.is_empty() {
                    return Err(EngineError::invalid("--queries", "the file holds no query"));
                }
                let log = crate::engine::cache::replay::replay(&ix, &qs)?.accesses;
                let mut t = match page_size {
                    None => trace::io_view(&log),
                    Some(p) => trace::page_view(&log, *p)?,
                };
                t.source = format!("{} replayed on {}", queries.display(), index.display());
                Ok(t)
            }
            TraceSource::StoredLog {
                workspace,
                log_id,
                with_page,
            } => {
                let ws = crate::engine::store::Workspace::open_existing(workspace)?;
                let norm = crate::engine::querylog::Normalise::default();
                let mut keys = Vec::new();
                crate::engine::querylog::persist::load(ws.conn(), *log_id, &mut |r| {
                    let q = norm.apply(r.query);
                    keys.push(if *with_page {
                        trace::page_key(&q, r.result_page().unwrap_or(1))
                    } else {
                        q.into_owned()
                    });
                    Ok(())
                })?;
                let mut t = Trace::from_keys(keys);
                t.source = format!("stored query log #{log_id}");
                Ok(t)
            }
        }
    }
}

/// The job's parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CacheSimParams {
    pub source: TraceSource,
    pub config: SimConfig,
}

impl Default for CacheSimParams {
    fn default() -> Self {
        CacheSimParams {
            source: TraceSource::Generated(GenSpec::default()),
            config: SimConfig::default(),
        }
    }
}

impl CacheSimParams {
    pub(crate) fn validate(&self) -> Result<()> {
        self.config.params.validate()?;
        if self.config.policies.is_empty() {
            return Err(EngineError::invalid("--policy", "no policy given"));
        }
        if self.config.sizes.is_empty() {
            return Err(EngineError::invalid("--size", "no size given"));
        }
        // Each size is a full simulation of every policy; each window a point of its series.
        if self.config.sizes.len() > 1000 {
            return Err(EngineError::invalid(
                "--size",
                format!("{} sizes: give at most 1000", self.config.sizes.len()),
            ));
        }
        if self.config.windows > 10_000 {
            return Err(EngineError::invalid(
                "--windows",
                format!("{}: give at most 10000", self.config.windows),
            ));
        }
        if let TraceSource::Generated(g) = &self.source {
            g.validate()?;
        }
        Ok(())
    }

    /// Load and simulate (what the job does; also usable without a workspace).
    pub fn execute(&self, tick: &dyn Tick) -> Result<SimReport> {
        self.validate()?;
        tick.tick(0.0, "loading the trace")?;
        let trace = self.source.load()?;
        if trace.is_empty() {
            return Err(EngineError::invalid(
                "--trace",
                "the trace holds no request",
            ));
        }
        simulate(&trace, &self.config, tick)
    }
}

/// The logged, cancellable simulation job.
pub(crate) struct CacheSimJob {
    params: CacheSimParams,
}

impl TypedJob for CacheSimJob {
    const KIND: &'static str = "cache-sim";
    type Params = CacheSimParams;
    type Output = SimReport;

    fn from_params(params: CacheSimParams) -> Result<Self> {
        params.validate()?;
        Ok(CacheSimJob { params })
    }

    fn params(&self) -> CacheSimParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<SimReport> {
        cx.counter("policies", self.params.config.policies.len() as f64);
        cx.counter("sizes", self.params.config.sizes.len() as f64);
        let r = self.params.execute(cx)?;
        cx.counter("requests", r.trace.requests as f64);
        cx.progress(1.0, "done");
        Ok(r)
    }
}
