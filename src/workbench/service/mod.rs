//! The query service as the engine serves it (book ch. 5 [L1649–L1787], §8.6 [L3055–L3148],
//! ch. 9 [L3162–L3393]): the index's [`Searcher`] with what the other stages kept — the
//! near-duplicate groups it folds (dedup), the categories it shows and filters on (classify) —
//! a result cache in front of it ([`cache`], any of the cache lab's policies), and the book's two
//! logs behind it: every query answered goes to the workspace's own query log, every result
//! opened to its click log (`querylog::own`), which the query-log lab, the cache lab and WU read
//! like any stored log.
//!
//! It lives in the composition root because it needs four labs — `index`, `dedup`, `classify`,
//! `cache`, `querylog` — and `cache` already uses `index`: inside `index` it would close a
//! circle. The CLI's `search` and the Search panel both serve through it.
//!
//! ```no_run
//! use tianwang::workbench::service::{self, Logger};
//! use tianwang::engine::index::{score::RankConfig, search::SearchOptions};
//! let ws = std::path::Path::new("lab.tianwang");
//! let s = service::open(ws)?;
//! let log = Logger::new(ws, "cli-1");
//! let served = service::serve(&s, "天网", &RankConfig::default(), &SearchOptions::default(), None, Some(&log))?;
//! for h in &served.result.hits {
//!     println!("{} {} (+{} similar)", h.rank, h.title, h.similar.len());
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod cache;
pub mod replay;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::engine::error::Result;
use crate::engine::index::reader::sidecar;
use crate::engine::index::score::RankConfig;
use crate::engine::index::search::{SearchOptions, SearchResult, Searcher};
use crate::engine::querylog::own::{self, Entry, Own};
use crate::engine::store::Workspace;
pub use cache::{CacheSpec, ResultCache};

/// The workspace's index, ready to serve: its groups to fold and its categories attached.
pub fn open(workspace: &Path) -> Result<Searcher> {
    let mut s = Searcher::open(&sidecar(workspace))?;
    attach(&mut s, &Workspace::open_existing(workspace)?)?;
    Ok(s)
}

/// Attach what the workspace keeps for serving (groups, categories) to `s`.
pub fn attach(s: &mut Searcher, ws: &Workspace) -> Result<()> {
    let groups: Vec<(String, i64)> = crate::engine::dedup::stored::load(ws)?
        .into_iter()
        .map(|m| (m.url, m.group))
        .collect();
    s.set_folding((!groups.is_empty()).then_some(groups.as_slice()));
    let cats = crate::engine::classify::stored::load(ws)?;
    s.set_categories((!cats.is_empty()).then_some(cats.as_slice()));
    Ok(())
}

/// Use the workspace's own clicks for WU (Tianwang's user-feedback weight); false when there
/// are none yet.
pub fn use_own_clicks(s: &mut Searcher, ws: &Workspace, decay: f64) -> Result<bool> {
    let Some(id) = own::log_id(ws.conn(), Own::Clicks)? else {
        return Ok(false);
    };
    let c = crate::engine::index::clicks::Clicks::from_stored(ws.conn(), id, &s.index, decay)?;
    s.set_clicks(Some(c));
    Ok(true)
}

/// Writes the workspace's own query and click logs for one session (the book's IP).
#[derive(Debug, Clone)]
pub struct Logger {
    workspace: PathBuf,
    pub session: String,
}

impl Logger {
    pub fn new(workspace: &Path, session: &str) -> Logger {
        Logger {
            workspace: workspace.to_path_buf(),
            session: session.to_string(),
        }
    }

    /// A query answered (page from 0; `cache`: hit or miss when a cache stands in front).
    pub fn query(&self, query: &str, page: usize, cache: Option<bool>) -> Result<()> {
        let ws = Workspace::open_existing(&self.workspace)?;
        own::append(
            ws.conn(),
            Own::Queries,
            &Entry::query(&self.session, query, page as u32 + 1, cache),
        )?;
        Ok(())
    }

    /// A result opened: its rank (from 1) and URL.
    pub fn click(&self, query: &str, rank: usize, url: &str) -> Result<()> {
        let ws = Workspace::open_existing(&self.workspace)?;
        own::append(
            ws.conn(),
            Own::Clicks,
            &Entry::click(&self.session, query, rank as u32, url),
        )?;
        Ok(())
    }
}

/// What the service answered.
#[derive(Debug, Clone)]
pub struct Served {
    pub result: SearchResult,
    /// From the cache (Some(true)), computed with a cache in front (Some(false)), or no cache.
    pub hit: Option<bool>,
    /// The cache's hit ratio so far, when there is one.
    pub hit_ratio: Option<f64>,
}

/// What a cached page depends on besides the query and its page.
fn setting(cfg: &RankConfig, opt: &SearchOptions) -> String {
    format!(
        "{}|{:?}|top {}|fold {}|cat {:?}|explain {}|abstracts {}",
        cfg.label(),
        cfg,
        opt.top,
        opt.fold,
        opt.category,
        opt.explain,
        opt.abstracts
    )
}

/// Answer `query`: from `cache` when it holds the page, else from the searcher; logged to the
/// workspace's own query log when `log` is given (a failed log write is a warning, never a
/// failed search).
pub fn serve(
    s: &Searcher,
    query: &str,
    cfg: &RankConfig,
    opt: &SearchOptions,
    cache: Option<&Mutex<ResultCache>>,
    log: Option<&Logger>,
) -> Result<Served> {
    let (result, hit, ratio) = match cache {
        None => (s.search(query, cfg, opt)?, None, None),
        Some(c) => {
            let mut c = c.lock().unwrap_or_else(|p| p.into_inner());
            let key = ResultCache::key(query, opt.page, &setting(cfg, opt));
            let t0 = std::time::Instant::now();
            let (mut r, hit) = c.get_or(&key, || s.search(query, cfg, opt))?;
            if hit {
                r.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
            }
            (r, Some(hit), Some(c.hit_ratio()))
        }
    };
    if let Some(l) = log
        && let Err(e) = l.query(query, opt.page, hit)
    {
        tracing::warn!("the query log: {e}");
    }
    Ok(Served {
        result,
        hit,
        hit_ratio: ratio,
    })
}
