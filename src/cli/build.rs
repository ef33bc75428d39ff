//! `tianwang build`: the whole engine in one command (`workbench::pipeline`) — crawl the sample
//! web (served on loopback) or the given seeds, clean, group near-duplicates, index, PageRank,
//! optionally classify; each stage a logged job, a stage with nothing new `up-to-date`.
//!
//! `--json` prints `{"stages":[{"name","status","seconds","in","out",…}],"pages","cleaned",
//! "clusters","unique","indexed_docs","terms",…}`; a failed or cancelled stage still prints the
//! stages so far, then exits with its error's code.

use clap::Args;

use super::{print_json, run_job_with_progress};
use crate::engine::error::EngineError;
use crate::engine::jobs::{TypedJob, load_detail};
use crate::engine::store::Workspace;
use crate::workbench::pipeline::{BuildJob, BuildOutcome, BuildParams};

/// `tianwang build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Serve the sample web on loopback and crawl it.
    #[arg(long, conflicts_with = "seeds")]
    pub sample: bool,
    /// Crawl from this seed URL (repeat for several).
    #[arg(long = "seed", value_name = "URL")]
    pub seeds: Vec<String>,
    /// At most this many pages in the crawl.
    #[arg(long)]
    pub max_pages: Option<u64>,
    /// Classify every page with this stored model (its id or name; `tianwang classify --save`).
    #[arg(long, value_name = "MODEL")]
    pub classify: Option<String>,
    #[arg(long)]
    pub json: bool,
}

/// Run `tianwang build`.
pub fn run(cli: &super::Cli, a: &BuildArgs) -> anyhow::Result<()> {
    if !a.sample && a.seeds.is_empty() {
        return Err(EngineError::invalid(
            "--sample",
            "build from the sample web (--sample) or from seeds (--seed URL)",
        )
        .into());
    }
    let ws = Workspace::open_or_create(&super::workspace_path(cli)?)?;
    let classify = a
        .classify
        .as_deref()
        .map(|m| crate::engine::classify::stored::resolve_model(&ws, m))
        .transpose()?;
    let job = BuildJob::from_params(BuildParams {
        sample: a.sample,
        seeds: a.seeds.clone(),
        max_pages: a.max_pages,
        classify,
    })?;
    let out = match run_job_with_progress(&ws, Box::new(job)) {
        Ok(v) => BuildJob::decode(&v)?,
        Err(e) => {
            // The stages that ran, kept beside the failed row, then the stage's own error.
            let last: Option<i64> = ws.conn().query_row(
                "SELECT MAX(id) FROM jobs WHERE kind = ?1",
                [BuildJob::KIND],
                |r| r.get(0),
            )?;
            if let Some(id) = last
                && let Some(partial) = load_detail::<BuildOutcome>(&ws, id, "outcome")?
            {
                say(&partial, a.json)?;
            }
            return Err(e);
        }
    };
    say(&out, a.json)
}

fn say(out: &BuildOutcome, json: bool) -> anyhow::Result<()> {
    if json {
        return print_json(&serde_json::to_value(out)?);
    }
    for s in &out.stages {
        println!(
            "{:<9} {:<10} {:>6.1} s  in {:<6} out {:<6} {}",
            s.name,
            s.status.name(),
            s.seconds,
            s.input,
            s.out,
            s.note
        );
    }
    println!(
        "{} pages · {} cleaned · {} groups ({} unique) · {} documents indexed, {} terms · {} ranked{} · {:.1} s",
        out.pages,
        out.cleaned,
        out.clusters,
        out.unique,
        out.indexed_docs,
        out.terms,
        out.ranked,
        out.classified
            .map(|n| format!(" · {n} classified"))
            .unwrap_or_default(),
        out.seconds
    );
    Ok(())
}
