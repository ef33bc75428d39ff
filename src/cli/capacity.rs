//! The crawl-capacity subcommands: `capacity calc` (the book's §4.9 model with every input a
//! flag) and `capacity simulate` (the distributed-crawl simulation over a workspace's own
//! fetch log) — the same engine the Crawl panel's two teaching tools run.

use clap::{Args, Subcommand};

use super::{Cli, print_json};
use crate::engine::capacity::{self, CapacityInputs, KbUnit};
use crate::engine::error::EngineError;
use crate::engine::store::Workspace;

#[derive(Debug, Args)]
pub struct CapacityArgs {
    #[command(subcommand)]
    pub what: CapacityCommand,
}

#[derive(Debug, Subcommand)]
pub enum CapacityCommand {
    /// The book's crawl-capacity model [L1134–1154]: every figure with its formula, the
    /// book's number and the line it is on.
    Calc(CalcArgs),
    /// Replay the workspace's fetch log on n = 2, 4, 8, 16 nodes: load per node and its
    /// variance, hosts moved when a node joins (rehash vs two-level mapping).
    Simulate {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct CalcArgs {
    /// Average page size in KB (the book: 13).
    #[arg(long, default_value_t = 13.0)]
    pub page_kb: f64,
    /// Bytes in a KB: 1024 or 1000.
    #[arg(long, default_value_t = 1024)]
    pub kb_bytes: u32,
    /// Link rate in Mbit/s (the book: 100).
    #[arg(long, default_value_t = 100.0)]
    pub link_mbps: f64,
    /// Usable share of the link (the book: 0.5).
    #[arg(long, default_value_t = 0.5)]
    pub utilisation: f64,
    /// Round-trip time in ms (the book: 200).
    #[arg(long, default_value_t = 200.0)]
    pub rtt_ms: f64,
    /// Server processing time in ms (the book: 100).
    #[arg(long, default_value_t = 100.0)]
    pub spt_ms: f64,
    /// Gatherers per node (the book: 100).
    #[arg(long, default_value_t = 100.0)]
    pub gatherers: f64,
    /// Crawler nodes.
    #[arg(long, default_value_t = 1.0)]
    pub nodes: f64,
    /// A page takes page_bytes / 1500 frames, not the book's one frame per page.
    #[arg(long)]
    pub real_frames: bool,
    /// Do not round the way the book does.
    #[arg(long)]
    pub exact: bool,
    #[arg(long)]
    pub json: bool,
}

/// Run `tianwang capacity …`.
pub fn run(cli: &Cli, a: &CapacityArgs) -> anyhow::Result<()> {
    match &a.what {
        CapacityCommand::Calc(c) => calc(c),
        CapacityCommand::Simulate { json } => {
            let ws = Workspace::open_existing(&super::workspace_path(cli)?)?;
            let sim = capacity::simulate_workspace(&ws)?;
            if *json {
                return print_json(&serde_json::to_value(&sim)?);
            }
            println!("{} fetches over {} hosts", sim.fetches, sim.hosts);
            for (l, (r, t)) in sim.loads.iter().zip(sim.rehash.iter().zip(&sim.two_level)) {
                println!(
                    "n = {:>2}: max/mean load {:.3}, final normalised variance {:.4} (book's 2:3 run: {}); a node joins: rehash moves {:.1} % of hosts, two-level {:.1} %",
                    l.nodes,
                    l.max_over_mean,
                    l.normalized_variance.last().copied().unwrap_or(0.0),
                    capacity::BOOK_REFERENCE_VARIANCE,
                    r.fraction * 100.0,
                    t.fraction * 100.0
                );
            }
            Ok(())
        }
    }
}

fn calc(c: &CalcArgs) -> anyhow::Result<()> {
    let kb_bytes = match c.kb_bytes {
        1024 => KbUnit::Kib1024,
        1000 => KbUnit::Kb1000,
        n => {
            return Err(
                EngineError::invalid("--kb-bytes", format!("{n}: use 1024 or 1000")).into(),
            );
        }
    };
    let inputs = CapacityInputs {
        page_kb: c.page_kb,
        kb_bytes,
        link_mbps: c.link_mbps,
        utilisation: c.utilisation,
        rtt_ms: c.rtt_ms,
        spt_ms: c.spt_ms,
        gatherers: c.gatherers,
        nodes: c.nodes,
        frame_equals_page: !c.real_frames,
        round_like_book: !c.exact,
        ..Default::default()
    };
    let report = capacity::capacity(&inputs).map_err(|e| EngineError::invalid("capacity", e))?;
    if c.json {
        return print_json(&serde_json::to_value(&report)?);
    }
    for f in &report.figures {
        println!("{:<24} {:>14.3}  {}", f.key, f.value, f.formula);
    }
    for n in &report.notes {
        println!("note: {n}");
    }
    Ok(())
}
