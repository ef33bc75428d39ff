//! PageRank (book §10.2 [L3599–L3647]) on DataFusion or Spark, equal to the native
//! [`crate::engine::rank::pagerank::pagerank`]. The graph reaches the engine as two Parquet
//! files — `LINKS` (one row per edge, dense node ids, duplicates merged as [`Graph`] holds
//! them) and `NODES` (dense id → the graph's own id and URL) — and the iteration is a plan
//! [loop step](crate::engine::exec::plan::Step::Loop): each pass joins the scores with the out-edges,
//! sums by target, adds the
//! teleport `(1-d)·t_v` and the dangling mass `d·m·t_v`, and its delta is the L1 change — the
//! same formula, options and stopping rule as the native power iteration (damping, dangling
//! `uniform`/`ignore`, the normalised and the book's form, personalisation, tolerance,
//! iteration cap). Scores are in the normalised scale inside the plan; the form's scale is
//! applied by the same [`crate::engine::rank::pagerank::finish`] as the native run's.
//!
//! The per-node teleport weights and the start vector come from Rust (a `teleport` table:
//! node, `t`, `x0`), so the plan's SQL carries only the damping as a literal. Sums run in the
//! engine's order, so scores differ from native by rounding only (≈1e-16 relative).
//!
//! Feature `bigjobs`; the always-built dispatch is [`super::pagerank_on`].
//!
//! ```no_run
//! use tianwang::engine::exec::{Engine, EngineConfig};
//! use tianwang::engine::rank::{graph::Graph, pagerank::PageRankConfig, pagerank_on};
//! let g = Graph::read_file(std::path::Path::new("hollins.dat"))?;
//! let r = pagerank_on(&g, &PageRankConfig::default(), &EngineConfig::new(Engine::DataFusion), &())?;
//! println!("{} iterations", r.iterations);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float64Array, Int64Array, RecordBatch, StringArray,
};
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};

use crate::engine::error::{EngineError, Result};
use crate::engine::exec::plan::{Plan, Step};
use crate::engine::exec::schema::{Col, SchemaDef, c};
use crate::engine::exec::{EngineConfig, parquet_io};
use crate::engine::jobs::Tick;
use crate::engine::rank::graph::{Graph, GraphStats};
use crate::engine::rank::pagerank::{Dangling, PageRankConfig, PageRankResult, finish, teleport};

/// The link graph's edges.
pub(crate) const LINKS: SchemaDef = SchemaDef {
    name: "links",
    version: 1,
    doc: "One row per edge of the link graph, duplicates merged, self-loops kept (as \
          `engine::rank::graph::Graph` holds it). Ids are the dense node ids of the \
          `nodes` file written beside it; the graph's reading statistics are in the file \
          metadata `tianwang.graph_stats`.",
    columns: &[
        c("src", Col::I64, false, "dense id of the linking node"),
        c("dst", Col::I64, false, "dense id of the linked node"),
    ],
};

/// The link graph's nodes.
pub(crate) const NODES: SchemaDef = SchemaDef {
    name: "nodes",
    version: 1,
    doc: "One row per node of the link graph, by dense id (0..N): the graph's own id (the \
          file's id, a workspace page id) and the URL when known.",
    columns: &[
        c("node", Col::I64, false, "dense id (0..N), the `links` ids"),
        c("id", Col::Str, false, "the graph's own id of the node"),
        c(
            "url",
            Col::Str,
            true,
            "the node's URL, when the graph has one",
        ),
    ],
};

/// A float as an SQL literal both dialects read as the same `DOUBLE` (exponent notation:
/// Spark would read a plain decimal as `DECIMAL`); Rust's `{:e}` is the shortest round trip.
pub(crate) fn lit(x: f64) -> String {
    format!("{x:e}")
}

fn internal(e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(e.to_string())
}

/// Writes `g` as `dir/links.parquet` and `dir/nodes.parquet`; returns their paths.
pub fn export_graph(g: &Graph, dir: &Path) -> Result<(PathBuf, PathBuf)> {
    let n = g.node_count();
    let (mut src, mut dst) = (Vec::with_capacity(g.edge_count()), Vec::new());
    for v in 0..n {
        for &w in g.out_neighbors(v) {
            src.push(v as i64);
            dst.push(w as i64);
        }
    }
    let links = RecordBatch::try_new(
        LINKS.arrow(),
        vec![
            Arc::new(Int64Array::from(src)) as ArrayRef,
            Arc::new(Int64Array::from(dst)) as ArrayRef,
        ],
    )
    .map_err(internal)?;
    let nodes = RecordBatch::try_new(
        NODES.arrow(),
        vec![
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
            Arc::new(StringArray::from_iter_values((0..n).map(|v| g.id(v)))) as ArrayRef,
            Arc::new(StringArray::from_iter((0..n).map(|v| g.url(v)))) as ArrayRef,
        ],
    )
    .map_err(internal)?;
    let stats = serde_json::to_string(&g.stats).map_err(internal)?;
    let lp = dir.join("links.parquet");
    let np = dir.join("nodes.parquet");
    parquet_io::write_file(
        &lp,
        LINKS.arrow(),
        &[links],
        &[("tianwang.graph_stats".into(), stats)],
    )?;
    parquet_io::write_file(&np, NODES.arrow(), &[nodes], &[])?;
    Ok((lp, np))
}

fn ints(b: &RecordBatch, name: &str) -> Result<Vec<i64>> {
    let a = b
        .column_by_name(name)
        .ok_or_else(|| internal(format!("no column {name}")))?;
    let a = datafusion::arrow::compute::cast(a, &DataType::Int64).map_err(internal)?;
    Ok(a.as_primitive::<Int64Type>()
        .iter()
        .map(|v| v.unwrap_or(-1))
        .collect())
}

/// The graph back from a `links` and a `nodes` file (the round trip of [`export_graph`]).
/// Ids outside the nodes, or nodes not numbered 0..N, are the user's bad input naming the
/// file.
pub fn read_graph(links: &Path, nodes: &Path) -> Result<Graph> {
    let (nb, _) = parquet_io::read(nodes, &NODES)?;
    let mut rows: Vec<(i64, String, Option<String>)> = Vec::new();
    for b in &nb {
        let node = ints(b, "node")?;
        let str_col = |name: &str| -> Result<Vec<Option<String>>> {
            let a = b
                .column_by_name(name)
                .ok_or_else(|| internal(format!("no column {name}")))?;
            let a = datafusion::arrow::compute::cast(a, &DataType::Utf8).map_err(internal)?;
            Ok(a.as_string::<i32>()
                .iter()
                .map(|v| v.map(str::to_string))
                .collect())
        };
        let (id, url) = (str_col("id")?, str_col("url")?);
        for i in 0..b.num_rows() {
            rows.push((node[i], id[i].clone().unwrap_or_default(), url[i].clone()));
        }
    }
    rows.sort_by_key(|r| r.0);
    if let Some((i, r)) = rows.iter().enumerate().find(|(i, r)| r.0 != *i as i64) {
        return Err(EngineError::bad_line(
            nodes.display(),
            0,
            "error.parquet_node_ids",
            &[&i, &r.0],
        ));
    }
    let n = rows.len() as i64;
    let (lb, meta) = parquet_io::read(links, &LINKS)?;
    let mut edges = Vec::new();
    for b in &lb {
        let (s, d) = (ints(b, "src")?, ints(b, "dst")?);
        for i in 0..b.num_rows() {
            if !(0..n).contains(&s[i]) || !(0..n).contains(&d[i]) {
                return Err(EngineError::bad_line(
                    links.display(),
                    0,
                    "error.parquet_edge_range",
                    &[&s[i], &d[i], &n],
                ));
            }
            edges.push((s[i] as u32, d[i] as u32));
        }
    }
    let meta = [meta, parquet_io::schema_meta(links)?].concat();
    let stats: GraphStats = parquet_io::meta_get(&meta, "tianwang.graph_stats")
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default();
    let (ids, urls) = rows.into_iter().map(|(_, id, url)| (id, url)).unzip();
    Graph::from_edges(ids, urls, edges, stats)
}

/// The PageRank plan over `links` and `tele` (node, t, x0): a loop of join + aggregate,
/// its delta the L1 change, then the scores (normalised scale) as output `ranks`.
pub fn plan(links: &Path, tele: &Path, cfg: &PageRankConfig) -> Plan {
    let d = cfg.damping;
    let dm = match cfg.dangling {
        Dangling::Uniform => {
            "SELECT COALESCE(SUM(r.x), CAST(0 AS DOUBLE)) AS m FROM pr r JOIN dang g ON r.node = g.node"
        }
        Dangling::Ignore => "SELECT CAST(0 AS DOUBLE) AS m",
    };
    let body = vec![
        Step::View {
            name: "contrib".into(),
            sql: "SELECT e.dst, SUM(r.x / e.od) AS s FROM edges e JOIN pr r ON e.src = r.node \
                  GROUP BY e.dst"
                .into(),
        },
        Step::View {
            name: "dm".into(),
            sql: dm.into(),
        },
        Step::Table {
            name: "pr_next".into(),
            sql: format!(
                "SELECT t.node, {a} * t.t + {d} * dm.m * t.t + {d} * COALESCE(c.s, CAST(0 AS DOUBLE)) AS x \
                 FROM tele t CROSS JOIN dm LEFT JOIN contrib c ON c.dst = t.node",
                a = lit(1.0 - d),
                d = lit(d)
            ),
        },
    ];
    Plan::new("pagerank")
        .input("links", links)
        .input("tele", tele)
        .table(
            "deg",
            "SELECT src, CAST(COUNT(*) AS DOUBLE) AS od FROM links GROUP BY src",
        )
        .table(
            "edges",
            "SELECT l.src, l.dst, d.od FROM links l JOIN deg d ON l.src = d.src",
        )
        .table(
            "dang",
            "SELECT t.node FROM tele t LEFT JOIN deg d ON t.node = d.src WHERE d.src IS NULL",
        )
        .table("pr", "SELECT node, x0 AS x FROM tele")
        .step(Step::Loop {
            state: "pr".into(),
            next: "pr_next".into(),
            body,
            delta_sql: "SELECT SUM(ABS(a.x - b.x)) AS delta FROM pr_next a JOIN pr b \
                        ON a.node = b.node"
                .into(),
            tol: cfg.tol,
            max_iter: cfg.max_iter,
        })
        .output("ranks", "SELECT node, x FROM pr")
}

/// Export, loop on the engine, read the scores back, finish as native.
pub fn run(
    g: &Graph,
    cfg: &PageRankConfig,
    engine: &EngineConfig,
    work: &Path,
    tick: &dyn Tick,
) -> Result<PageRankResult> {
    let n = g.node_count();
    tick.tick(0.0, "exporting the graph")?;
    let (links, _) = export_graph(g, work)?;
    let tele = work.join("teleport.parquet");
    let schema = Arc::new(datafusion::arrow::datatypes::Schema::new(vec![
        datafusion::arrow::datatypes::Field::new("node", DataType::Int64, false),
        datafusion::arrow::datatypes::Field::new("t", DataType::Float64, false),
        datafusion::arrow::datatypes::Field::new("x0", DataType::Float64, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
            Arc::new(Float64Array::from_iter_values(
                (0..n).map(|v| teleport(cfg, n, v)),
            )) as ArrayRef,
            Arc::new(Float64Array::from_iter_values(std::iter::repeat_n(
                1.0 / n as f64,
                n,
            ))) as ArrayRef,
        ],
    )
    .map_err(internal)?;
    parquet_io::write_file(&tele, schema, &[batch], &[])?;
    let out = work.join("out");
    let report = crate::engine::exec::run_plan(&plan(&links, &tele, cfg), &out, engine, tick)?;
    let mut x = vec![f64::NAN; n];
    for b in parquet_io::read_output(&out.join("ranks"))? {
        let node = ints(&b, "node")?;
        let xs = b
            .column_by_name("x")
            .ok_or_else(|| internal("no column x"))?;
        let xs = datafusion::arrow::compute::cast(xs, &DataType::Float64).map_err(internal)?;
        let xs = xs.as_primitive::<Float64Type>();
        for (i, &v) in node.iter().enumerate() {
            if let Some(slot) = x.get_mut(v.max(0) as usize) {
                *slot = if xs.is_null(i) { f64::NAN } else { xs.value(i) };
            }
        }
    }
    if x.iter().any(|v| !v.is_finite()) {
        return Err(internal(format!(
            "{}: PageRank scores missing or not finite",
            report.engine
        )));
    }
    let mut res = PageRankResult::start(g, cfg);
    res.iterations = report.deltas.len();
    res.converged = report.deltas.last().is_some_and(|&d| d < cfg.tol);
    res.history = report.deltas;
    Ok(finish(res, x))
}
