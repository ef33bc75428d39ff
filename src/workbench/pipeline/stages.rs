//! The stages of the build, each the lab's own job run as a stage ([`JobContext::run_child`])
//! when its input changed, or `up-to-date` with the figures of its last run when it did not.

use std::collections::BTreeMap;

use serde_json::Value;

use super::state::{self, Kept};
use super::{BuildParams, StageRun, Status};
use crate::engine::classify::stored::ClassifyPagesJob;
use crate::engine::crawl::{Crawl, CrawlParams, CrawlResult, Scope};
use crate::engine::dedup::stored::{GroupOutcome, GroupPagesJob};
use crate::engine::docview::stored::{CleanOutcome, CleanPagesJob};
use crate::engine::error::{EngineError, Result};
use crate::engine::index::disk::Meta;
use crate::engine::index::job::IndexBuildJob;
use crate::engine::jobs::{JobContext, TypedJob};
use crate::engine::rank::stored::{PageRankJob, RankOutcome};
use crate::engine::sample::server::{SampleServer, ServeOptions};
use crate::engine::store::Workspace;

/// A stage's run and, when it did not finish, why (the build stops there).
pub(super) type Step = (StageRun, Option<EngineError>);

fn count(ws: &Workspace, sql: &str, p: impl rusqlite::Params) -> Result<u64> {
    Ok(ws
        .conn()
        .query_row(sql, p, |r| r.get::<_, Option<i64>>(0))?
        .unwrap_or(0)
        .max(0) as u64)
}

/// Run stage `name` of the build.
pub(super) fn run(
    name: &str,
    p: &BuildParams,
    cx: &JobContext,
    ws: &Workspace,
    start: f32,
    width: f32,
) -> Result<Step> {
    let at = Span { cx, start, width };
    match name {
        "crawl" => crawl(p, ws, &at),
        "clean" => clean(ws, &at),
        "dedup" => dedup(ws, &at),
        "index" => index(ws, &at),
        "pagerank" => pagerank(ws, &at),
        "classify" => classify(p.classify.unwrap_or_default(), ws, &at),
        other => Err(EngineError::Internal(format!("no stage `{other}`"))),
    }
}

/// Where a stage's job reports: its share of the build's progress.
struct Span<'a> {
    cx: &'a JobContext,
    start: f32,
    width: f32,
}

fn run_figures(
    name: &str,
    input: u64,
    out: u64,
    counts: BTreeMap<String, u64>,
    note: String,
) -> StageRun {
    StageRun {
        name: name.into(),
        status: Status::Done,
        seconds: 0.0,
        input,
        out,
        job: None,
        last_job: None,
        counts,
        note,
        error: None,
    }
}

/// `stage` has nothing new to do: its last run's figures.
fn up_to_date(name: &str, last: Option<Kept>, why: &str) -> Step {
    let (job, out, counts) = match last {
        Some(k) => (k.job_id, k.run.out, k.run.counts),
        None => (None, 0, BTreeMap::new()),
    };
    let note = match job {
        Some(j) => format!("up to date: {why} since run #{j}"),
        None => format!("up to date: {why}"),
    };
    (
        StageRun {
            name: name.into(),
            status: Status::UpToDate,
            seconds: 0.0,
            input: 0,
            out,
            job: None,
            last_job: job,
            counts,
            note,
            error: None,
        },
        None,
    )
}

/// Run `job` as this stage; `figures` turns its output into the stage's run. A finished stage
/// is kept with the input `mark` it read.
fn stage_job<J: TypedJob>(
    name: &str,
    mut job: J,
    at: &Span<'_>,
    ws: &Workspace,
    mark: &Value,
    figures: impl FnOnce(&J::Output, &Workspace) -> Result<StageRun>,
) -> Result<Step> {
    let child = at.cx.run_child(&mut job, at.start, at.width)?;
    let mut run = match child.outcome {
        Ok(v) => figures(&J::decode(&v)?, ws)?,
        Err(e) => {
            let status = if matches!(e, EngineError::Cancelled) {
                Status::Cancelled
            } else {
                Status::Failed
            };
            let mut r = run_figures(name, 0, 0, BTreeMap::new(), e.to_string());
            r.status = status;
            r.error = Some(e.to_string());
            r.job = Some(child.id);
            r.seconds = child.seconds;
            return Ok((r, Some(e)));
        }
    };
    run.name = name.into();
    run.seconds = child.seconds;
    run.job = Some(child.id);
    run.last_job = Some(child.id);
    state::keep(ws, &run, mark)?;
    Ok((run, None))
}

fn counts(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Whether the workspace holds pages of `host` (on any port).
fn has_host(ws: &Workspace, host: &str) -> Result<bool> {
    Ok(count(
        ws,
        "SELECT EXISTS(SELECT 1 FROM pages WHERE url LIKE ?1 OR url LIKE ?2)",
        [format!("http://{host}/%"), format!("http://{host}:%")],
    )? > 0)
}

/// The port of the sample web's queued URLs (a build cancelled mid-crawl resumes on it).
fn queued_sample_port(ws: &Workspace) -> Result<Option<u16>> {
    let urls: Vec<String> = ws
        .conn()
        .prepare("SELECT url FROM frontier WHERE state = 'queued' AND host LIKE '%.localhost'")?
        .query_map([], |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    Ok(urls
        .iter()
        .find_map(|u| url::Url::parse(u).ok().and_then(|u| u.port())))
}

/// The pages the workspace holds and those with a snapshot: what the later stages read.
fn held_pages(ws: &Workspace) -> Result<(u64, u64)> {
    Ok((
        count(ws, "SELECT COUNT(*) FROM pages", [])?,
        count(ws, "SELECT COUNT(DISTINCT page_id) FROM snapshots", [])?,
    ))
}

/// The crawl has nothing to do; its figures are the pages the workspace holds now, also when
/// no crawl of this pipeline stored them (the sample web loaded with `sample load`, pages
/// crawled from the Crawl panel): a build then reports those pages, not none.
fn crawl_up_to_date(ws: &Workspace, last: Option<Kept>, why: &str) -> Result<Step> {
    let (pages, stored) = held_pages(ws)?;
    let (mut run, next) = up_to_date("crawl", last, why);
    run.counts.insert("pages".into(), pages);
    run.counts.insert("stored_pages".into(), stored);
    Ok((run, next))
}

fn crawl(p: &BuildParams, ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    let queued = count(
        ws,
        "SELECT COUNT(*) FROM frontier WHERE state = 'queued'",
        [],
    )?;
    let last = state::kept(ws, "crawl")?;
    let mut server = None;
    let seeds = if p.sample {
        let web = crate::engine::sample::web::SampleWeb::shared(false)?;
        let hosts: Vec<String> = web
            .truth
            .seeds
            .iter()
            .filter_map(|s| url::Url::parse(s).ok()?.host_str().map(str::to_string))
            .collect();
        let mut crawled = true;
        for h in &hosts {
            crawled &= has_host(ws, h)?;
        }
        if queued == 0 && crawled {
            return crawl_up_to_date(
                ws,
                last,
                "the sample web is crawled and the frontier is empty",
            );
        }
        let port = queued_sample_port(ws)?.unwrap_or(0);
        let s = SampleServer::start(ServeOptions {
            addr: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
            ..ServeOptions::default()
        })?;
        let seeds = s.web().truth.seeds.clone();
        server = Some(s);
        seeds
    } else {
        let mut done = true;
        for s in &p.seeds {
            let canon = url::Url::parse(s)
                .map(|u| crate::engine::urls::canonicalize(&u).to_string())
                .unwrap_or_else(|_| s.clone());
            done &= count(
                ws,
                "SELECT (SELECT COUNT(*) FROM pages WHERE url = ?1)
                      + (SELECT COUNT(*) FROM frontier WHERE url = ?1 AND state <> 'queued')",
                [&canon],
            )? > 0;
        }
        if queued == 0 && done {
            return crawl_up_to_date(ws, last, "every seed is crawled and the frontier is empty");
        }
        p.seeds.clone()
    };
    let job = Crawl::new(CrawlParams {
        seeds: seeds.clone(),
        max_pages: p.max_pages,
        resume: true,
        scope: if p.sample {
            Scope::Suffix(".localhost".into())
        } else {
            Scope::Hosts
        },
        ..CrawlParams::default()
    })?;
    let mark = state::mark(ws, "crawl", None)?;
    let step = stage_job("crawl", job, at, ws, &mark, |r: &CrawlResult, ws| {
        let (pages, stored) = held_pages(ws)?;
        let errors: u64 = r.errors.values().sum();
        Ok(run_figures(
            "crawl",
            seeds.len() as u64,
            stored,
            counts(&[
                ("seeds", seeds.len() as u64),
                ("fetched", r.fetched),
                ("stored", r.stored),
                ("replicas", r.replicas),
                ("errors", errors),
                ("pages", pages),
                ("stored_pages", stored),
            ]),
            format!(
                "fetched {} · stored {} · replicas {} · errors {}",
                r.fetched, r.stored, r.replicas, errors
            ),
        ))
    });
    if let Some(s) = server {
        s.stop();
    }
    // The mark is what the crawl left (the next stages read it), not what it started from.
    if let Ok((run, None)) = &step {
        state::keep(ws, run, &state::mark(ws, "crawl", None)?)?;
    }
    step
}

/// Cleaned pages whose latest snapshot DocView accepted.
fn cleaned_pages(ws: &Workspace) -> Result<u64> {
    count(
        ws,
        "SELECT COUNT(*) FROM pages p
         JOIN clean_pages c ON c.snapshot_id = (SELECT MAX(id) FROM snapshots WHERE page_id = p.id)
         WHERE c.ok = 1",
        [],
    )
}

fn clean(ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    if !state::has_uncleaned(ws)? {
        return Ok(up_to_date(
            "clean",
            state::kept(ws, "clean")?,
            "no new snapshot",
        ));
    }
    let todo = crate::engine::docview::stored::pending(ws)?.len() as u64;
    let mark = state::mark(ws, "clean", None)?;
    let job = CleanPagesJob::from_params(Default::default())?;
    stage_job("clean", job, at, ws, &mark, |o: &CleanOutcome, ws| {
        let total = cleaned_pages(ws)?;
        Ok(run_figures(
            "clean",
            todo,
            o.cleaned - o.refused,
            counts(&[
                ("snapshots", todo),
                ("cleaned", o.cleaned - o.refused),
                ("refused", o.refused),
                ("topic", o.topic),
                ("hub", o.hub),
                ("picture", o.picture),
                ("cleaned_pages", total),
            ]),
            format!(
                "cleaned {} new snapshots ({} refused: not HTML); {} pages cleaned in all",
                o.cleaned, o.refused, total
            ),
        ))
    })
}

/// The kept run of `stage` when its input mark is the same now.
fn unchanged(ws: &Workspace, stage: &str, mark: &Value) -> Result<Option<Kept>> {
    Ok(state::kept(ws, stage)?.filter(|k| &k.input == mark))
}

fn dedup(ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    let mark = state::mark(ws, "dedup", None)?;
    if let Some(k) = unchanged(ws, "dedup", &mark)? {
        return Ok(up_to_date("dedup", Some(k), "no page cleaned"));
    }
    let job = GroupPagesJob::from_params(Default::default())?;
    stage_job("dedup", job, at, ws, &mark, |o: &GroupOutcome, _| {
        Ok(run_figures(
            "dedup",
            o.docs,
            o.groups,
            counts(&[
                ("docs", o.docs),
                ("replicas", o.replicas),
                ("pairs", o.pairs),
                ("clusters", o.clusters),
                ("groups", o.groups),
                ("grouped", o.grouped),
                ("contained", o.contained),
                ("unique", o.unique),
            ]),
            format!(
                "{} pages in {} groups (`{}`'s {} clusters, {} contained pages and {} replicas joined); {} unique",
                o.grouped, o.groups, o.method, o.clusters, o.contained, o.replicas, o.unique
            ),
        ))
    })
}

/// The index beside the workspace, as built for snapshot `newest` (its meta read, not the index).
fn index_current(ws: &Workspace, newest: i64) -> bool {
    let dir = crate::engine::index::reader::sidecar(ws.path());
    let Ok(Some(generation)) = crate::engine::index::disk::current_generation(&dir) else {
        return false;
    };
    // Sealed with its checksum (`index::seal`): read and verified like every index file.
    crate::engine::index::disk::read_sealed(&generation.join("meta.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Meta>(&b).ok())
        .is_some_and(|m| m.workspace_snapshot == Some(newest))
}

fn index(ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    let mark = state::mark(ws, "index", None)?;
    let newest = mark["newest_snapshot"].as_i64().unwrap_or(0);
    if let Some(k) = unchanged(ws, "index", &mark)?
        && index_current(ws, newest)
    {
        return Ok(up_to_date("index", Some(k), "no page cleaned"));
    }
    let job = IndexBuildJob::from_params(crate::engine::index::job::IndexBuildParams {
        source: crate::engine::index::source::Source::Workspace { path: None },
        out: None,
        config: Default::default(),
        engine: Default::default(),
    })?;
    let read = cleaned_pages(ws)?;
    stage_job("index", job, at, ws, &mark, |m: &Meta, ws| {
        // Duplicates are indexed like every page and marked by their group (kept by dedup).
        let marked = count(
            ws,
            "SELECT COUNT(*) FROM page_groups g JOIN clean_pages c ON c.page_id = g.page_id
             WHERE c.ok = 1",
            [],
        )?;
        Ok(run_figures(
            "index",
            read,
            m.docs,
            counts(&[
                ("docs", m.docs),
                ("terms", m.terms),
                ("postings", m.postings),
                ("marked", marked),
            ]),
            format!(
                "{} documents, {} terms, {} postings; {} of the documents in near-duplicate groups",
                m.docs, m.terms, m.postings, marked
            ),
        ))
    })
}

fn pagerank(ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    let mark = state::mark(ws, "pagerank", None)?;
    if let Some(k) = unchanged(ws, "pagerank", &mark)? {
        return Ok(up_to_date("pagerank", Some(k), "no new page or link"));
    }
    let job = PageRankJob::from_params(Default::default())?;
    stage_job("pagerank", job, at, ws, &mark, |o: &RankOutcome, _| {
        Ok(run_figures(
            "pagerank",
            o.nodes,
            o.ranked,
            counts(&[
                ("nodes", o.nodes),
                ("edges", o.edges),
                ("iterations", o.iterations),
                ("ranked", o.ranked),
            ]),
            format!(
                "{} pages, {} links, {} iterations{}",
                o.nodes,
                o.edges,
                o.iterations,
                if o.converged { "" } else { " (not converged)" }
            ),
        ))
    })
}

fn classify(model: i64, ws: &Workspace, at: &Span<'_>) -> Result<Step> {
    let mark = state::mark(ws, "classify", Some(model))?;
    if let Some(k) = unchanged(ws, "classify", &mark)? {
        return Ok(up_to_date("classify", Some(k), "no page cleaned"));
    }
    let job =
        ClassifyPagesJob::from_params(crate::engine::classify::stored::ClassifyPagesParams {
            model_id: model,
        })?;
    let read = cleaned_pages(ws)?;
    stage_job(
        "classify",
        job,
        at,
        ws,
        &mark,
        |o: &crate::engine::classify::stored::ClassifyOutcome, _| {
            let cats: Vec<String> = o
                .by_category
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect();
            Ok(run_figures(
                "classify",
                read,
                o.classified,
                counts(&[
                    ("classified", o.classified),
                    ("categories", o.by_category.len() as u64),
                    ("model", model as u64),
                ]),
                format!(
                    "{} pages by model #{model}: {}",
                    o.classified,
                    cats.join(", ")
                ),
            ))
        },
    )
}
