//! The big jobs' shared flags (`--engine`, `--cluster`, `--pool-mb`, `--partitions`), which
//! `dedup`, `index build`, `querylog stats` and `rank pagerank` flatten into their own, and
//! `export-parquet`, which writes the Parquet contract (`engine::exec::schema`) of a
//! workspace or a folder, or the `pages` or `postings-input` of WARC files without a
//! workspace (`--warc`).

use std::path::PathBuf;

use clap::Args;

use crate::engine::exec::{Engine, EngineConfig};

/// Where a big job runs. Without the `bigjobs` build feature only `native` works.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Engine: native (the workbench's own code), datafusion (in-process over Parquet, bounded
    /// memory pool), spark (PySpark; local[2] unless --cluster).
    #[arg(long, default_value = "native")]
    pub engine: String,
    /// Spark master URL for --engine spark (spark://host:7077, local[4] …).
    #[arg(long, value_name = "URL")]
    pub cluster: Option<String>,
    /// DataFusion's memory pool in MB; operators spill to disk beyond it.
    #[arg(long, default_value_t = 1024, value_name = "MB")]
    pub pool_mb: usize,
    /// Threads (DataFusion target partitions); 0 = every core.
    #[arg(long, default_value_t = 0)]
    pub partitions: usize,
}

impl EngineArgs {
    /// The validated configuration (bad flags exit 2 naming the flag).
    pub fn config(&self) -> anyhow::Result<EngineConfig> {
        let cfg = EngineConfig {
            engine: Engine::parse(&self.engine)?,
            cluster: self.cluster.clone(),
            memory_mb: self.pool_mb,
            partitions: self.partitions,
        };
        cfg.validate()?;
        // A Spark master that does not answer is the user's to fix, before anything is
        // opened or logged.
        #[cfg(feature = "bigjobs")]
        if let Some(url) = &cfg.cluster {
            crate::engine::exec::spark::check_cluster(url)?;
        }
        Ok(cfg)
    }
}

/// `export-parquet`: the contract's files for a workspace or a folder.
#[derive(Debug, Clone, Args)]
pub struct ExportParquetArgs {
    /// A folder of .txt/.html files (pages, signatures, postings-input), instead of the
    /// workspace.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// For pages or postings-input: WARC files (plain, .warc.gz per record or per file)
    /// streamed through DocView without a workspace; damaged records are reported by file and
    /// offset and skipped.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "dir")]
    pub warc: Vec<PathBuf>,
    /// What to write: pages, signatures, postings-input, links, querylog.
    #[arg(long, required_unless_present = "schemas")]
    pub what: Option<String>,
    /// Output folder (created); each schema writes its files inside it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the schemas of the contract as Markdown and exit.
    #[arg(long)]
    pub schemas: bool,
    /// For querylog: the stored log's id (default: the newest).
    #[arg(long)]
    pub log: Option<i64>,
    /// For links: a graph file (`src dst` per line) instead of the workspace's crawl.
    #[arg(long)]
    pub graph: Option<PathBuf>,
    /// For querylog: a log file instead of a stored log (read as --log-format).
    #[arg(long, value_name = "FILE", conflicts_with = "log")]
    pub log_file: Option<PathBuf>,
    /// For querylog: the log file's format (sogouq, tianwang-query, tianwang-click).
    #[arg(long, default_value = "sogouq")]
    pub log_format: String,
    /// For postings-input: a TSV whose first column is the text.
    #[arg(long)]
    pub tsv: Option<PathBuf>,
    /// Dedup parameters that shape signatures (`name=value`, as `dedup --param`).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Clean pages with DocView first (pages, signatures from a workspace).
    #[arg(long)]
    pub clean: bool,
    #[arg(long)]
    pub json: bool,
}

/// `export-parquet`.
pub fn export_parquet(cli: &super::Cli, a: &ExportParquetArgs) -> anyhow::Result<()> {
    #[cfg(feature = "bigjobs")]
    {
        export::run(cli, a)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = (cli, a);
        Err(crate::engine::error::EngineError::invalid(
            "export-parquet",
            "this build has no Parquet: cargo run --release --features bigjobs -- export-parquet …",
        )
        .into())
    }
}

#[cfg(feature = "bigjobs")]
mod export {
    use serde_json::json;

    use super::ExportParquetArgs;
    use crate::cli::{Cli, print_json};
    use crate::engine::dedup::corpus::{self, Input};
    use crate::engine::dedup::on_engine;
    use crate::engine::dedup::{Config, Prepared};
    use crate::engine::error::EngineError;
    use crate::engine::exec::parquet_io;
    use crate::engine::querylog::on_engine as ql;
    use crate::engine::querylog::read::ReadConfig;
    use crate::engine::querylog::{Format, Normalise, persist};
    use crate::engine::rank::graph::Graph;
    use crate::engine::store::Workspace;

    fn dedup_docs(cli: &Cli, a: &ExportParquetArgs) -> anyhow::Result<corpus::Corpus> {
        Ok(match (&a.dir, &cli.workspace) {
            (Some(d), _) => corpus::load_dir(d, Input::Auto, a.clean)?,
            (None, Some(w)) => corpus::workspace(&Workspace::open_existing(w)?, a.clean)?,
            (None, None) => {
                return Err(
                    EngineError::invalid("--dir", "give --dir DIR or --workspace W").into(),
                );
            }
        })
    }

    /// `--warc FILE… --what pages`: stream the files into `out/pages.parquet`; `--what
    /// postings-input`: the index's analysis of them ([`postings_input`]).
    fn from_warc(a: &ExportParquetArgs, out: &std::path::Path) -> anyhow::Result<()> {
        match a.what.as_deref() {
            Some("pages") => {}
            Some("postings-input") => {
                let src = crate::engine::index::source::Source::Warc {
                    paths: a.warc.clone(),
                };
                return print_json_or_line(a, postings_input(&src, out)?);
            }
            _ => {
                return Err(EngineError::invalid(
                    "--what",
                    "--warc writes `pages` or `postings-input`",
                )
                .into());
            }
        }
        let bar = crate::cli::Bar::new();
        let r = crate::engine::dedup::warc_pages::export(&a.warc, out, &bar);
        bar.0.finish_and_clear();
        let r = r?;
        for d in &r.damaged {
            eprintln!(
                "warning: {}: byte {}: {}; record skipped",
                d.file.display(),
                d.offset,
                d.message
            );
        }
        if r.skipped > r.damaged.len() {
            eprintln!(
                "warning: {} more damaged records skipped",
                r.skipped - r.damaged.len()
            );
        }
        let v = json!({"what": "pages", "rows": r.rows, "files": [r.file],
                       "warc_files": r.warc_files, "skipped": r.skipped,
                       "not_pages": r.not_pages, "seconds": r.seconds});
        if a.json {
            print_json(&v)
        } else {
            println!(
                "{} pages from {} WARC files into {} ({} damaged records skipped) in {:.1} s",
                r.rows,
                r.warc_files,
                r.file.display(),
                r.skipped,
                r.seconds
            );
            Ok(())
        }
    }

    /// `--what postings-input`: the index build's analysis of `src` into `postings-input` and
    /// `postings-docs` (`index build --postings-input DIR --engine …` sorts them).
    fn postings_input(
        src: &crate::engine::index::source::Source,
        out: &std::path::Path,
    ) -> anyhow::Result<serde_json::Value> {
        let cfg = crate::engine::index::build::IndexConfig::default();
        let bar = crate::cli::Bar::new();
        let r = crate::engine::index::on_engine::export(src, None, &cfg, out, &bar);
        bar.0.finish_and_clear();
        let e = r?;
        for s in &e.skipped {
            eprintln!("warning: {s}");
        }
        Ok(
            json!({"what": "postings-input", "rows": e.tuples, "docs": e.n_docs,
                   "terms": e.terms, "files": [e.postings, e.docs], "skipped": e.skipped,
                   "config": cfg}),
        )
    }

    fn print_json_or_line(a: &ExportParquetArgs, v: serde_json::Value) -> anyhow::Result<()> {
        if a.json {
            print_json(&v)
        } else {
            println!("{v}");
            Ok(())
        }
    }

    pub fn run(cli: &Cli, a: &ExportParquetArgs) -> anyhow::Result<()> {
        if a.schemas {
            for s in crate::workbench::schemas() {
                println!("{}", s.markdown());
            }
            return Ok(());
        }
        let out = a
            .out
            .clone()
            .ok_or_else(|| EngineError::invalid("--out", "give --out DIR"))?;
        if !a.warc.is_empty() {
            return from_warc(a, &out);
        }
        let v = match a.what.as_deref().unwrap_or("") {
            "pages" => {
                let c = dedup_docs(cli, a)?;
                let path = out.join("pages.parquet");
                let b = on_engine::pages_batch(&c.docs)?;
                parquet_io::write_file(&path, on_engine::PAGES.arrow(), &[b], &[])?;
                json!({"what": "pages", "rows": c.docs.len(), "files": [path]})
            }
            "signatures" => {
                let c = dedup_docs(cli, a)?;
                let mut cfg = Config::default();
                for p in &a.params {
                    let (k, v) = p.split_once('=').ok_or_else(|| {
                        EngineError::invalid("--param", format!("`{p}`: NAME=VALUE"))
                    })?;
                    cfg.set(k, v)?;
                }
                cfg.validate()?;
                let prep = Prepared::new(&c.docs, &cfg);
                let n = on_engine::write_signatures(&prep, &out)?;
                let (s, b) = on_engine::sig_files(&out);
                json!({"what": "signatures", "rows": n, "files": [s, b], "config": cfg.to_json()})
            }
            "postings-input" => {
                use crate::engine::index::source::Source;
                let src = match (&a.tsv, &a.dir, &cli.workspace) {
                    (Some(t), _, _) => Source::Tsv { path: t.clone() },
                    (None, Some(d), _) => Source::Dir { path: d.clone() },
                    (None, None, Some(w)) => Source::Workspace {
                        path: Some(w.clone()),
                    },
                    (None, None, None) => {
                        return Err(EngineError::invalid(
                            "--tsv",
                            "give --tsv FILE, --dir DIR, --warc FILE… or --workspace W",
                        )
                        .into());
                    }
                };
                postings_input(&src, &out)?
            }
            "links" => {
                let g = match (&a.graph, &cli.workspace) {
                    (Some(f), _) => Graph::read_file(f)?,
                    (None, Some(w)) => Graph::from_workspace(&Workspace::open_existing(w)?)?,
                    (None, None) => {
                        return Err(EngineError::invalid(
                            "--graph",
                            "give --graph FILE or --workspace W",
                        )
                        .into());
                    }
                };
                let (l, n) = crate::engine::rank::on_engine::export_graph(&g, &out)?;
                json!({"what": "links", "rows": g.edge_count(), "nodes": g.node_count(), "files": [l, n]})
            }
            "querylog" => {
                let path = out.join("querylog.parquet");
                let (summary, rows) = match (&a.log_file, &cli.workspace) {
                    (Some(f), _) => {
                        let format = Format::parse(&a.log_format).ok_or_else(|| {
                            EngineError::invalid(
                                "--log-format",
                                format!(
                                    "`{}`: sogouq, tianwang-query, tianwang-click",
                                    a.log_format
                                ),
                            )
                        })?;
                        ql::export_file(
                            f,
                            &ReadConfig::new(format),
                            Normalise::default(),
                            &path,
                            &(),
                        )?
                    }
                    (None, Some(w)) => {
                        let ws = Workspace::open_existing(w)?;
                        let id = match a.log {
                            Some(id) => id,
                            None => persist::list(ws.conn())?
                                .iter()
                                .map(|l| l.id)
                                .max()
                                .ok_or_else(|| {
                                    EngineError::invalid(
                                        "--log",
                                        "the workspace has no stored query log",
                                    )
                                })?,
                        };
                        ql::export_stored(w, id, Normalise::default(), &path)?
                    }
                    (None, None) => {
                        return Err(EngineError::invalid(
                            "--log-file",
                            "give --log-file FILE, or --workspace W [--log ID]",
                        )
                        .into());
                    }
                };
                json!({"what": "querylog", "rows": rows, "bad_lines": summary.bad.count, "files": [path]})
            }
            other => {
                return Err(EngineError::invalid(
                    "--what",
                    format!("`{other}`: one of pages, signatures, postings-input, links, querylog"),
                )
                .into());
            }
        };
        print_json_or_line(a, v)
    }
}
