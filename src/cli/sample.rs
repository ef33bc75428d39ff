//! The sample-web subcommands: `serve-sample` (HTTP on loopback) and `sample truth|load`.

use std::io::Write;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::json;

use super::{Cli, print_json, run_job_with_progress, workspace_path};
use crate::engine::jobs::TypedJob;
use crate::engine::sample::load::LoadSample;
use crate::engine::store::Workspace;

/// `tianwang serve-sample`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Loopback address to listen on; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub addr: std::net::SocketAddr,
    /// Serve the updated edition of some articles (for snapshot history).
    #[arg(long)]
    pub changed: bool,
    /// Delay every response by this many milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// Also serve a generated benchmark site of N linked pages on bench.localhost.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub bench: u64,
    /// First stdout line: {"addr","seeds","sites","pages"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum SampleCommand {
    /// Print the ground truth as one JSON document.
    Truth {
        /// Port the sample web is (or will be) served on; URLs carry it (80 leaves it out).
        #[arg(long, default_value_t = 80)]
        port: u16,
        /// The updated edition.
        #[arg(long)]
        changed: bool,
    },
    /// Load the sample web into a workspace as if crawled (a job; loading the updated edition
    /// later adds snapshots to the pages that changed).
    Load {
        /// The updated edition.
        #[arg(long)]
        changed: bool,
        #[arg(long)]
        json: bool,
    },
}

/// Run `tianwang sample …`.
pub fn run(cli: &Cli, what: &SampleCommand) -> anyhow::Result<()> {
    match what {
        SampleCommand::Truth { port, changed } => {
            let web = crate::engine::sample::web::SampleWeb::build(*port, *changed)?;
            print_json(&serde_json::to_value(&web.truth)?)
        }
        SampleCommand::Load { changed, json } => {
            let path = workspace_path(cli)?;
            let ws = Workspace::open_or_create(&path)?;
            let v = run_job_with_progress(&ws, Box::new(LoadSample { changed: *changed }))?;
            if *json {
                return print_json(&v);
            }
            let r = LoadSample::decode(&v)?;
            println!(
                "Loaded the {} edition of the sample web into {}: {} pages ({} new), {} new snapshots",
                r.edition,
                path.display(),
                r.pages,
                r.new_pages,
                r.new_snapshots
            );
            Ok(())
        }
    }
}

/// Serve the sample web until killed.
pub fn serve(a: &ServeArgs) -> anyhow::Result<()> {
    serve_sample(a.addr, a.changed, a.latency_ms, a.bench, a.json)
}

fn serve_sample(
    addr: std::net::SocketAddr,
    changed: bool,
    latency_ms: u64,
    bench: u64,
    json: bool,
) -> anyhow::Result<()> {
    use crate::engine::sample::server::{SampleServer, ServeOptions};
    let server = SampleServer::start(ServeOptions {
        addr,
        changed,
        latency: Duration::from_millis(latency_ms),
        bench_pages: bench,
        ..ServeOptions::default()
    })?;
    let truth = &server.web().truth;
    let sites: Vec<&str> = truth.sites.iter().map(|s| s.host.as_str()).collect();
    let mut out = std::io::stdout().lock();
    if json {
        let line = json!({
            "addr": server.addr().to_string(),
            "seeds": truth.seeds,
            "sites": sites,
            "pages": truth.pages.len(),
        });
        writeln!(out, "{line}")?;
    } else {
        writeln!(
            out,
            "Serving the sample web ({} pages, {} sites) at http://{}",
            truth.pages.len(),
            sites.len(),
            server.addr()
        )?;
        writeln!(
            out,
            "Hosts under *.localhost resolve to this machine; open a seed in a browser:"
        )?;
        for s in &truth.seeds {
            writeln!(out, "  {s}")?;
        }
        writeln!(out, "Stop with Ctrl+C.")?;
    }
    out.flush()?;
    drop(out);
    loop {
        std::thread::park();
    }
}
