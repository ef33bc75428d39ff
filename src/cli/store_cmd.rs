//! The page-store subcommands: `info`, `pages`, `export` and `import` (Tianwang raw files
//! and WARC).

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::{Cli, print_json, workspace_path};
use crate::engine::error::EngineError;
use crate::engine::store::Workspace;

/// `tianwang info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    #[arg(long)]
    pub json: bool,
}

/// What a workspace holds.
pub fn info(cli: &Cli, a: &InfoArgs) -> anyhow::Result<()> {
    let ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    crate::engine::jobs::reap_interrupted(&ws)?;
    let s = ws.summary()?;
    if a.json {
        return print_json(&serde_json::to_value(&s)?);
    }
    println!("workspace  {}", s.path.display());
    println!("schema     v{}", s.schema_version);
    println!("created    {}", s.created_at.as_deref().unwrap_or("?"));
    println!("size       {} bytes", s.file_bytes);
    println!(
        "holds      {} sites, {} pages, {} snapshots, {} jobs ({} running)",
        s.sites, s.pages, s.snapshots, s.jobs, s.jobs_running
    );
    Ok(())
}

/// `tianwang pages`.
#[derive(Debug, Args)]
pub struct PagesArgs {
    /// Also write the list to FILE as CSV (UTF-8 with BOM).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

/// List the stored pages.
pub fn pages(cli: &Cli, a: &PagesArgs) -> anyhow::Result<()> {
    let ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    let pages = crate::engine::inspect::list_pages(&ws)?;
    if let Some(f) = &a.csv {
        crate::engine::export::save_table(&crate::engine::inspect::pages_table(&pages), f)?;
    }
    if a.json {
        return print_json(&serde_json::to_value(&pages)?);
    }
    for p in pages {
        println!(
            "{:>4} {:<32} {}{}",
            p.status.map_or("-".into(), |s| s.to_string()),
            p.md5.as_deref().unwrap_or("-"),
            p.url,
            p.replica_of
                .as_deref()
                .map(|r| format!("  (replica of {r})"))
                .unwrap_or_default()
        );
    }
    Ok(())
}

/// `tianwang export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// tianwang or warc
    #[arg(long)]
    pub format: String,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long)]
    pub json: bool,
}

/// Export every snapshot as a Tianwang raw file or WARC/1.1.
pub fn export(cli: &Cli, a: &ExportArgs) -> anyhow::Result<()> {
    let ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    let n = crate::engine::archive::export(&ws, a.format.parse()?, &a.out)?;
    if a.json {
        return print_json(&json!({ "records": n, "out": a.out }));
    }
    println!("exported {n} snapshots to {}", a.out.display());
    Ok(())
}

/// `tianwang import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[arg(long, conflicts_with = "warc", required_unless_present = "warc")]
    pub tianwang: Option<PathBuf>,
    #[arg(long)]
    pub warc: Option<PathBuf>,
    /// Recover a damaged Tianwang file (the book's scan for `version:`).
    #[arg(long)]
    pub recover: bool,
    #[arg(long)]
    pub json: bool,
}

/// Import a Tianwang raw file or a WARC file into the workspace.
pub fn import(cli: &Cli, a: &ImportArgs) -> anyhow::Result<()> {
    use crate::engine::archive::Format;
    let (format, file) = match (&a.tianwang, &a.warc) {
        (Some(t), _) => (Format::Tianwang, t),
        (None, Some(w)) => (Format::Warc, w),
        (None, None) => {
            return Err(
                EngineError::invalid("import", "give --tianwang PATH or --warc PATH").into(),
            );
        }
    };
    let mut ws = Workspace::open_or_create(&workspace_path(cli)?)?;
    let rep = crate::engine::archive::import(&mut ws, format, file, a.recover)?;
    if a.json {
        return print_json(&serde_json::to_value(&rep)?);
    }
    println!(
        "imported {} records: {} new pages, {} new snapshots, {} unchanged",
        rep.records, rep.new_pages, rep.new_snapshots, rep.unchanged
    );
    Ok(())
}
