//! `tianwang bench rank [--peers]`: PageRank and HITS (book ch. 10.2, [L3620], [L3629–L3645])
//! on hollins against networkx's reference scores and, with `--peers`, networkx itself in the
//! same run (`rank_peers.py`, found by `super::peers`); then PageRank on a generated graph of
//! `--gen-nodes` nodes and `--gen-edges` edges.
//!
//! ```text
//! tianwang bench rank --peers --gen-nodes 0 --json
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::peers::{self, PeerArgs};
use crate::engine::error::EngineError;
use crate::engine::rank::graph::{Graph, GraphStats};
use crate::engine::rank::hits::{HitsConfig, hits};
use crate::engine::rank::pagerank::{PageRankConfig, pagerank, rank_desc};

#[derive(Debug, Args)]
pub struct BenchRankArgs {
    /// Also run networkx (bench/peers/rank_peers.py in the peers venv) on hollins.
    #[arg(long)]
    pub peers: bool,
    /// Nodes of the generated graph (0 skips it).
    #[arg(long, default_value_t = 1_000_000)]
    pub gen_nodes: usize,
    /// Edges of the generated graph.
    #[arg(long, default_value_t = 10_000_000)]
    pub gen_edges: usize,
    /// Repetitions on hollins (best time reported).
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
    #[command(flatten)]
    pub peer: PeerArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct BenchRow {
    tool: String,
    corpus: String,
    algorithm: String,
    nodes: usize,
    edges: usize,
    seconds: f64,
    /// None where the tool does not report it (networkx HITS uses scipy's svds).
    iterations: Option<usize>,
    edges_per_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l1_to_reference: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top10_equal_reference: Option<bool>,
}

#[derive(Debug, Serialize)]
struct BenchOut {
    rows: Vec<BenchRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pagerank_l1_ours_vs_networkx: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hits_authority_l1_ours_vs_networkx: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pagerank_speed_ratio_vs_networkx: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hits_speed_ratio_vs_networkx: Option<f64>,
}

#[derive(Debug, serde::Deserialize)]
struct PeerOut {
    pagerank_seconds: f64,
    pagerank_iterations: Option<usize>,
    pagerank: HashMap<String, f64>,
    hits_seconds: f64,
    authorities: HashMap<String, f64>,
}

/// The data folder with the hollins graph and the peers' reference figures installed.
fn data_root(data: Option<&Path>) -> anyhow::Result<PathBuf> {
    let dir = crate::engine::data::DataDir::resolve(data)?;
    dir.require("hollins")?;
    dir.require("references")?;
    Ok(dir.root().to_path_buf())
}

fn reference_ids(root: &Path, key: &str) -> anyhow::Result<Vec<String>> {
    let p = root.join("references/hollins_reference.json");
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&p).map_err(|e| EngineError::path_os(p.clone(), e))?,
    )?;
    Ok(v[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| r[0].as_i64().map(|i| i.to_string()))
                .collect()
        })
        .unwrap_or_default())
}

/// The L1 distance of `scores` (by node index) to scores keyed by node id.
fn l1_to(g: &Graph, scores: &[f64], other: &HashMap<String, f64>) -> f64 {
    (0..g.node_count())
        .map(|v| (scores[v] - other.get(g.id(v)).copied().unwrap_or(0.0)).abs())
        .sum()
}

fn ids(g: &Graph, v: Vec<usize>) -> Vec<String> {
    v.into_iter().map(|i| g.id(i).to_string()).collect()
}

/// networkx's PageRank and HITS rows on hollins.
fn networkx_rows(
    root: &Path,
    out: &mut BenchOut,
    p: &PeerOut,
    g: &Graph,
    nx_ref: &HashMap<String, f64>,
) -> anyhow::Result<()> {
    let e = g.edge_count() as f64;
    let nx_auth_rank = {
        let v: Vec<f64> = (0..g.node_count())
            .map(|i| p.authorities.get(g.id(i)).copied().unwrap_or(0.0))
            .collect();
        rank_desc(&v, Some(10))
    };
    out.rows.push(BenchRow {
        tool: "networkx".into(),
        corpus: "hollins".into(),
        algorithm: "pagerank".into(),
        nodes: g.node_count(),
        edges: g.edge_count(),
        seconds: p.pagerank_seconds,
        iterations: p.pagerank_iterations,
        edges_per_s: p
            .pagerank_iterations
            .map(|i| e * i as f64 / p.pagerank_seconds),
        l1_to_reference: Some(l1_to(
            g,
            &(0..g.node_count())
                .map(|i| p.pagerank.get(g.id(i)).copied().unwrap_or(0.0))
                .collect::<Vec<_>>(),
            nx_ref,
        )),
        top10_equal_reference: None,
    });
    out.rows.push(BenchRow {
        tool: "networkx".into(),
        corpus: "hollins".into(),
        algorithm: "hits".into(),
        nodes: g.node_count(),
        edges: g.edge_count(),
        seconds: p.hits_seconds,
        iterations: None,
        edges_per_s: None,
        l1_to_reference: None,
        top10_equal_reference: Some(
            ids(g, nx_auth_rank) == reference_ids(root, "hits_top10_authority")?,
        ),
    });
    Ok(())
}

/// `tianwang bench rank`: hollins (ours vs networkx) and a generated graph.
/// `data`: the global `--data`.
pub fn bench(a: &BenchRankArgs, data: Option<&Path>) -> anyhow::Result<()> {
    let root = &data_root(data)?;
    let hollins = root.join("graph/hollins/hollins.dat");
    let g = Graph::read_file(&hollins)?;
    let nx_ref: HashMap<String, f64> = {
        let p = root.join("graph/hollins/hollins_pagerank_networkx_a0.85.json");
        serde_json::from_str(
            &std::fs::read_to_string(&p).map_err(|e| EngineError::path_os(p.clone(), e))?,
        )?
    };
    let cfg = PageRankConfig::default();
    let (mut best_pr, mut pr) = (f64::INFINITY, None);
    let (mut best_h, mut hr) = (f64::INFINITY, None);
    for _ in 0..a.repeat.max(1) {
        let t = Instant::now();
        let r = pagerank(&g, &cfg, &(), &mut ())?;
        best_pr = best_pr.min(t.elapsed().as_secs_f64());
        pr = Some(r);
        let t = Instant::now();
        let r = hits(&g, &HitsConfig::default(), &(), &mut ())?;
        best_h = best_h.min(t.elapsed().as_secs_f64());
        hr = Some(r);
    }
    let (Some(pr), Some(hr)) = (pr, hr) else {
        return Err(EngineError::Internal("no bench run".into()).into());
    };
    let auth_ok = ids(&g, hr.top_authorities(10)) == reference_ids(root, "hits_top10_authority")?;
    let hub_ok = ids(&g, hr.top_hubs(10)) == reference_ids(root, "hits_top10_hub")?;
    let e = g.edge_count() as f64;
    let mut out = BenchOut {
        rows: vec![
            BenchRow {
                tool: "tianwang".into(),
                corpus: "hollins".into(),
                algorithm: "pagerank".into(),
                nodes: g.node_count(),
                edges: g.edge_count(),
                seconds: best_pr,
                iterations: Some(pr.iterations),
                edges_per_s: Some(e * pr.iterations as f64 / best_pr),
                l1_to_reference: Some(l1_to(&g, &pr.scores, &nx_ref)),
                top10_equal_reference: None,
            },
            BenchRow {
                tool: "tianwang".into(),
                corpus: "hollins".into(),
                algorithm: "hits".into(),
                nodes: g.node_count(),
                edges: g.edge_count(),
                seconds: best_h,
                iterations: Some(hr.iterations),
                edges_per_s: Some(2.0 * e * hr.iterations as f64 / best_h),
                l1_to_reference: None,
                top10_equal_reference: Some(auth_ok && hub_ok),
            },
        ],
        pagerank_l1_ours_vs_networkx: None,
        hits_authority_l1_ours_vs_networkx: None,
        pagerank_speed_ratio_vs_networkx: None,
        hits_speed_ratio_vs_networkx: None,
    };
    if a.peers {
        let run = peers::run(
            &a.peer,
            "rank_peers.py",
            &[
                hollins.clone().into(),
                a.repeat.max(1).to_string().into(),
                cfg.tol.to_string().into(),
            ],
        )?;
        let p: PeerOut = serde_json::from_value(run.json)?;
        networkx_rows(root, &mut out, &p, &g, &nx_ref)?;
        out.pagerank_l1_ours_vs_networkx = Some(l1_to(&g, &pr.scores, &p.pagerank));
        out.hits_authority_l1_ours_vs_networkx = Some(l1_to(&g, &hr.authority, &p.authorities));
        out.pagerank_speed_ratio_vs_networkx = Some(p.pagerank_seconds / best_pr);
        out.hits_speed_ratio_vs_networkx = Some(p.hits_seconds / best_h);
    }
    if a.gen_nodes > 0 {
        let big = generated_graph(a.gen_nodes, a.gen_edges)?;
        let t = Instant::now();
        let r = pagerank(&big, &cfg, &(), &mut ())?;
        let s = t.elapsed().as_secs_f64();
        out.rows.push(BenchRow {
            tool: "tianwang".into(),
            corpus: format!("generated {}n {}e", big.node_count(), big.edge_count()),
            algorithm: "pagerank".into(),
            nodes: big.node_count(),
            edges: big.edge_count(),
            seconds: s,
            iterations: Some(r.iterations),
            edges_per_s: Some(big.edge_count() as f64 * r.iterations as f64 / s),
            l1_to_reference: None,
            top10_equal_reference: None,
        });
    }
    if a.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}

/// A deterministic random graph (xorshift; targets skewed towards low ids so in-degrees are
/// uneven, like the web).
fn generated_graph(n: usize, m: usize) -> anyhow::Result<Graph> {
    if n == 0 || n > u32::MAX as usize {
        return Err(EngineError::invalid("--gen-nodes", "must be in 1..=4294967295").into());
    }
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let edges: Vec<(u32, u32)> = (0..m)
        .map(|_| {
            let src = (next() % n as u64) as u32;
            let r = (next() % n as u64) as f64 / n as f64;
            let dst = ((r * r) * n as f64) as u32;
            (src, dst.min(n as u32 - 1))
        })
        .collect();
    let ids = (0..n).map(|i| i.to_string()).collect();
    Ok(Graph::from_edges(
        ids,
        vec![None; n],
        edges,
        GraphStats::default(),
    )?)
}
