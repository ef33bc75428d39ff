//! `tianwang rank pagerank|hits|eval|diff`: PageRank and HITS (book ch. 10.2 [L3620]),
//! evaluation and ranking diffs (ch. 10.4); the benchmark is in `rank_bench`.
//!
//! `--workspace` is main's global flag, so `run` takes it as a parameter.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use crate::engine::error::EngineError;
use crate::engine::rank::eval::{self, EvalConfig, Gain, Metric};
use crate::engine::rank::graph::{Graph, GraphStats};
use crate::engine::rank::hits::{HitsConfig, HitsNorm, hits};
use crate::engine::rank::pagerank::{Dangling, Form, PageRankConfig, rank_desc};

#[derive(Debug, Args)]
pub struct RankArgs {
    #[command(subcommand)]
    pub what: RankCommand,
}

#[derive(Debug, Subcommand)]
pub enum RankCommand {
    /// PageRank by power iteration (book ch. 10.2.1).
    Pagerank(LinkArgs),
    /// HITS hubs and authorities (book ch. 10.2.2).
    Hits(LinkArgs),
    /// Evaluate one or two runs against relevance judgements (book ch. 10.4).
    Eval(EvalArgs),
    /// Ranking diff of two runs per query: who moved up/down, new and lost results.
    Diff(DiffArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DanglingArg {
    Uniform,
    Ignore,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormArg {
    Normalised,
    Book,
}

#[derive(Debug, Args)]
pub struct LinkArgs {
    /// Graph file: `n m` header + `id url` + `src dst` lines, or a plain `src dst` edge list;
    /// with the `bigjobs` build also a folder of `links.parquet` + `nodes.parquet`.
    #[arg(long, value_name = "FILE")]
    pub graph: Option<PathBuf>,
    #[arg(long, default_value_t = 0.85)]
    pub damping: f64,
    #[arg(long, value_enum, default_value_t = DanglingArg::Uniform)]
    pub dangling: DanglingArg,
    /// normalised: (1-d)/N, sum 1; book: (1-d), sum N [L3620].
    #[arg(long, value_enum, default_value_t = FormArg::Normalised)]
    pub form: FormArg,
    #[arg(long, default_value_t = 1e-10)]
    pub tol: f64,
    #[arg(long, default_value_t = 1000)]
    pub max_iter: usize,
    /// Only the N best nodes (default all).
    #[arg(long)]
    pub top: Option<usize>,
    /// HITS: report vectors normalised by sum (networkx) or L2.
    #[arg(long, value_enum, default_value_t = HitsNormArg::Sum)]
    pub hits_norm: HitsNormArg,
    /// Include the L1 change of every iteration.
    #[arg(long)]
    pub history: bool,
    /// PageRank: teleport only to these nodes (comma-separated graph ids), uniformly.
    #[arg(long, value_name = "ID,ID,…")]
    pub personalize: Option<String>,
    /// PageRank: give each listed node its score's parts (teleport, dangling, in-links).
    #[arg(long)]
    pub explain: bool,
    #[arg(long)]
    pub json: bool,
    /// PageRank: where the iteration runs (HITS runs natively only).
    #[command(flatten)]
    pub engine: super::bigjobs::EngineArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum HitsNormArg {
    Sum,
    L2,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GainArg {
    Exp,
    Linear,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MetricArg {
    P,
    Ap,
    Ndcg,
    Rprec,
    Rr,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A run (TREC `qid Q0 doc rank score tag` or TSV `qid doc [score]`); give two to compare.
    #[arg(long = "run", value_name = "FILE", required_unless_present = "index")]
    pub runs: Vec<PathBuf>,
    /// Run the queries on this index instead of reading runs (with --queries, --config).
    #[arg(long, value_name = "DIR", requires = "queries")]
    pub index: Option<PathBuf>,
    /// Queries: `qid<TAB>query` lines.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// A ranking configuration, e.g. `model=bm25,k1=1.2,b=0.75` or `tianwang,kb=0.8`; give
    /// two to compare (default: BM25 with k1 1.2, b 0.75).
    #[arg(long = "config", value_name = "SPEC")]
    pub configs: Vec<String>,
    /// How many results of each query are evaluated (the run depth).
    #[arg(long, default_value_t = 100)]
    pub depth: usize,
    /// Judgements (TREC `qid 0 doc rel` or TSV `qid doc rel`).
    #[arg(long, value_name = "FILE")]
    pub qrels: PathBuf,
    /// Cut-off N of P@N and nDCG@N.
    #[arg(long, default_value_t = 10)]
    pub at: usize,
    #[arg(long, value_enum, default_value_t = GainArg::Exp)]
    pub gain: GainArg,
    /// Metric of the per-query comparison and t-test.
    #[arg(long, value_enum, default_value_t = MetricArg::P)]
    pub metric: MetricArg,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Run A then run B (same formats as `rank eval`).
    #[arg(long = "run", value_name = "FILE", num_args = 1, required = true)]
    pub runs: Vec<PathBuf>,
    /// Only this query (default all queries in either run).
    #[arg(long)]
    pub query: Option<String>,
    /// Compare only the first N results of each list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct DiffQuery {
    qid: String,
    moves: Vec<eval::Move>,
}

#[derive(Debug, Serialize)]
struct DiffOut {
    a: String,
    b: String,
    queries: Vec<DiffQuery>,
}

#[derive(Debug, Serialize)]
struct ScoreRow {
    node: String,
    url: Option<String>,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<crate::engine::rank::pagerank::PageRankExplain>,
}

#[derive(Debug, Serialize)]
struct HitsRow {
    node: String,
    url: Option<String>,
    hub: f64,
    authority: f64,
}

#[derive(Debug, Serialize)]
struct LinkOut<R> {
    nodes: usize,
    edges: usize,
    graph: GraphStats,
    iterations: usize,
    converged: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    sum: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<Vec<f64>>,
    /// Where PageRank ran (native, datafusion, spark).
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
    scores: Vec<R>,
}

#[derive(Debug, Serialize)]
struct EvalOut {
    qrels: String,
    runs: Vec<NamedEval>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<eval::Comparison>,
}

#[derive(Debug, Serialize)]
struct NamedEval {
    run: String,
    #[serde(flatten)]
    eval: eval::RunEval,
}

/// Dispatch; `workspace` is main's global `--workspace`.
pub fn run(args: &RankArgs, workspace: Option<&Path>) -> anyhow::Result<()> {
    match &args.what {
        RankCommand::Pagerank(a) => run_pagerank(a, workspace),
        RankCommand::Hits(a) => run_hits(a, workspace),
        RankCommand::Eval(a) => run_eval(a),
        RankCommand::Diff(a) => run_diff(a),
    }
}

fn load_graph(a: &LinkArgs, workspace: Option<&Path>) -> anyhow::Result<Graph> {
    match (&a.graph, workspace) {
        (Some(g), None) => Ok(crate::engine::rank::load_graph(g)?),
        (Some(_), Some(_)) => Err(EngineError::invalid(
            "--graph",
            "give either --graph or --workspace, not both",
        )
        .into()),
        (None, Some(w)) => {
            let ws = crate::engine::store::Workspace::open_existing(w)?;
            Ok(Graph::from_workspace(&ws)?)
        }
        (None, None) => match super::existing_default_workspace() {
            Some(w) => load_graph(a, Some(&w)),
            None => Err(EngineError::invalid(
                "--graph",
                format!(
                    "give --graph FILE or --workspace W ({})",
                    super::NO_WORKSPACE_YET
                ),
            )
            .into()),
        },
    }
}

fn run_pagerank(a: &LinkArgs, workspace: Option<&Path>) -> anyhow::Result<()> {
    let dangling = match a.dangling {
        DanglingArg::Uniform => Dangling::Uniform,
        DanglingArg::Ignore => Dangling::Ignore,
    };
    let form = match a.form {
        FormArg::Normalised => Form::Normalised,
        FormArg::Book => Form::Book,
    };
    let mut cfg = PageRankConfig::new(a.damping, dangling, form, a.tol, a.max_iter)?;
    let g = load_graph(a, workspace)?;
    if let Some(list) = &a.personalize {
        let index: std::collections::HashMap<&str, usize> =
            (0..g.node_count()).map(|v| (g.id(v), v)).collect();
        let mut w = vec![0.0; g.node_count()];
        for id in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let v = index.get(id).ok_or_else(|| {
                EngineError::invalid("--personalize", format!("node `{id}` is not in the graph"))
            })?;
            w[*v] = 1.0;
        }
        cfg = cfg.with_personalization(w)?;
    }
    let engine = a.engine.config()?;
    let r = crate::engine::rank::pagerank_on(&g, &cfg, &engine, &())?;
    let order = r.ranking(a.top);
    let mut explains = if a.explain {
        r.explain_many(&g, &order, 5)
            .into_iter()
            .map(Some)
            .collect()
    } else {
        vec![None; order.len()]
    };
    let scores: Vec<ScoreRow> = order
        .into_iter()
        .zip(explains.drain(..))
        .map(|(v, explain)| ScoreRow {
            node: g.id(v).to_string(),
            url: g.url(v).map(str::to_string),
            score: r.scores[v],
            explain,
        })
        .collect();
    let out = LinkOut {
        nodes: r.nodes,
        edges: r.edges,
        graph: g.stats.clone(),
        iterations: r.iterations,
        converged: r.converged,
        sum: Some(r.sum),
        history: a.history.then(|| r.history.clone()),
        engine: Some(engine.engine.name().to_string()),
        scores,
    };
    if a.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "PageRank: {} nodes, {} edges, {} iterations ({}), sum {:.6}",
            out.nodes,
            out.edges,
            out.iterations,
            if out.converged {
                "converged"
            } else {
                "NOT converged"
            },
            r.sum
        );
        for (i, s) in out.scores.iter().take(a.top.unwrap_or(20)).enumerate() {
            println!(
                "{:>4}. {:<8} {:.8}  {}",
                i + 1,
                s.node,
                s.score,
                s.url.as_deref().unwrap_or("")
            );
        }
    }
    Ok(())
}

fn run_hits(a: &LinkArgs, workspace: Option<&Path>) -> anyhow::Result<()> {
    if a.engine.config()?.engine != crate::engine::exec::Engine::Native {
        return Err(EngineError::invalid("--engine", "HITS runs on the native engine only").into());
    }
    let norm = match a.hits_norm {
        HitsNormArg::Sum => HitsNorm::Sum,
        HitsNormArg::L2 => HitsNorm::L2,
    };
    let cfg = HitsConfig::new(a.tol, a.max_iter, norm)?;
    let g = load_graph(a, workspace)?;
    let r = hits(&g, &cfg, &(), &mut ())?;
    // sorted by authority, then hub
    let mut order = rank_desc(&r.authority, None);
    order.sort_by(|&x, &y| {
        r.authority[y]
            .total_cmp(&r.authority[x])
            .then(r.hub[y].total_cmp(&r.hub[x]))
            .then(x.cmp(&y))
    });
    if let Some(k) = a.top {
        order.truncate(k);
    }
    let scores: Vec<HitsRow> = order
        .into_iter()
        .map(|v| HitsRow {
            node: g.id(v).to_string(),
            url: g.url(v).map(str::to_string),
            hub: r.hub[v],
            authority: r.authority[v],
        })
        .collect();
    let out = LinkOut {
        nodes: r.nodes,
        edges: g.edge_count(),
        graph: g.stats.clone(),
        iterations: r.iterations,
        converged: r.converged,
        sum: None,
        history: a.history.then(|| r.history.clone()),
        engine: None,
        scores,
    };
    if a.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "HITS: {} nodes, {} iterations ({})",
            out.nodes,
            out.iterations,
            if out.converged {
                "converged"
            } else {
                "NOT converged"
            }
        );
        println!("top authorities:");
        for v in r.top_authorities(a.top.unwrap_or(10)) {
            println!(
                "  {:<8} {:.8}  {}",
                g.id(v),
                r.authority[v],
                g.url(v).unwrap_or("")
            );
        }
        println!("top hubs:");
        for v in r.top_hubs(a.top.unwrap_or(10)) {
            println!(
                "  {:<8} {:.8}  {}",
                g.id(v),
                r.hub[v],
                g.url(v).unwrap_or("")
            );
        }
    }
    Ok(())
}

/// The most results of a query `rank eval --index` evaluates.
const MAX_DEPTH: usize = 1_000_000;

fn run_eval(a: &EvalArgs) -> anyhow::Result<()> {
    if a.runs.len() > 2 {
        return Err(EngineError::invalid("--run", "give one or two runs").into());
    }
    let gain = match a.gain {
        GainArg::Exp => Gain::Exponential,
        GainArg::Linear => Gain::Linear,
    };
    let metric = match a.metric {
        MetricArg::P => Metric::P,
        MetricArg::Ap => Metric::Ap,
        MetricArg::Ndcg => Metric::Ndcg,
        MetricArg::Rprec => Metric::Rprec,
        MetricArg::Rr => Metric::Rr,
    };
    let cfg = EvalConfig::new(a.at, gain, metric)?;
    if a.depth == 0 || a.depth > MAX_DEPTH {
        return Err(EngineError::invalid("--depth", format!("give 1 to {MAX_DEPTH}")).into());
    }
    let qrels = eval::read_qrels(&a.qrels)?;
    let mut runs = Vec::new();
    if let (Some(dir), Some(qfile)) = (&a.index, &a.queries) {
        let searcher = crate::engine::index::search::Searcher::open(dir)?;
        let queries = eval::read_queries(qfile)?;
        let mut configs = Vec::new();
        for spec in &a.configs {
            configs.push(crate::engine::index::score::RankConfig::parse_spec(spec)?);
        }
        if configs.is_empty() {
            configs.push(crate::engine::index::score::RankConfig::default());
        }
        if configs.len() > 2 {
            return Err(EngineError::invalid("--config", "give one or two configurations").into());
        }
        for (label, run) in crate::engine::index::evaluate::run_configs(
            &searcher,
            &queries,
            &configs,
            a.depth.max(a.at),
            &(),
        )? {
            runs.push(NamedEval {
                run: label,
                eval: eval::evaluate(&run, &qrels, &cfg)?,
            });
        }
    }
    for p in &a.runs {
        let run = eval::read_run(p)?;
        runs.push(NamedEval {
            run: p.display().to_string(),
            eval: eval::evaluate(&run, &qrels, &cfg)?,
        });
    }
    let comparison = match runs.as_slice() {
        [x, y] => Some(eval::compare(&x.eval, &y.eval, metric)?),
        _ => None,
    };
    let out = EvalOut {
        qrels: a.qrels.display().to_string(),
        runs,
        comparison,
    };
    if a.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        for r in &out.runs {
            let m = &r.eval.mean;
            println!(
                "{}: {} queries  P@{n} {:.4}  R-prec {:.4}  MAP {:.4}  nDCG@{n} {:.4}  MRR {:.4}",
                r.run,
                r.eval.queries,
                m.p_at,
                m.r_prec,
                m.ap,
                m.ndcg_at,
                m.rr,
                n = r.eval.at
            );
        }
        if let Some(c) = &out.comparison {
            println!(
                "A vs B on {:?}: {} wins, {} losses, {} ties",
                c.metric, c.wins, c.losses, c.ties
            );
            if let Some(t) = &c.t_test {
                println!("paired t-test: {}", t.verdict);
            }
        }
    }
    Ok(())
}

fn run_diff(a: &DiffArgs) -> anyhow::Result<()> {
    let [pa, pb] = a.runs.as_slice() else {
        return Err(EngineError::invalid("--run", "give exactly two runs (A then B)").into());
    };
    let (ra, rb) = (eval::read_run(pa)?, eval::read_run(pb)?);
    let mut qids: Vec<&String> = ra.keys().chain(rb.keys()).collect();
    qids.sort();
    qids.dedup();
    if let Some(q) = &a.query {
        qids.retain(|x| *x == q);
        if qids.is_empty() {
            return Err(
                EngineError::invalid("--query", format!("query `{q}` is in neither run")).into(),
            );
        }
    }
    let empty = Vec::new();
    let cut = |l: &Vec<String>| l.iter().take(a.top).cloned().collect::<Vec<_>>();
    let queries: Vec<DiffQuery> = qids
        .into_iter()
        .map(|q| DiffQuery {
            qid: q.clone(),
            moves: eval::ranking_diff(
                &cut(ra.get(q).unwrap_or(&empty)),
                &cut(rb.get(q).unwrap_or(&empty)),
            ),
        })
        .collect();
    let out = DiffOut {
        a: pa.display().to_string(),
        b: pb.display().to_string(),
        queries,
    };
    if a.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        for q in &out.queries {
            println!("query {}:", q.qid);
            for m in &q.moves {
                let r = |x: Option<usize>| x.map_or("-".to_string(), |v| v.to_string());
                println!(
                    "  {:<5} {:>3} → {:>3}  {}",
                    m.change,
                    r(m.rank_a),
                    r(m.rank_b),
                    m.doc
                );
            }
        }
    }
    Ok(())
}
