//! `tianwang data list | fetch | import | verify`: the data sets the labs and the book
//! experiments read, as managed downloads over the manifest compiled into the binary (see
//! `engine::data`). The data folder is `--data DIR`, else `$TIANWANG_DATA`, else `datasets`
//! in the user's data folder.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{Bar, Cli, print_json};
use crate::engine::data::fetch::{self, FetchOptions};
use crate::engine::data::{DataDir, DataSet, manifest};
use crate::engine::error::EngineError;

#[derive(Debug, Args)]
pub struct DataArgs {
    #[command(subcommand)]
    pub what: DataCommand,
}

#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Every data set: what it is for, its licence, upstream, size, and whether it is installed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Download sets from their upstream repositories (pinned commits), verify every file's
    /// SHA-256 and install them; resumes an interrupted download.
    Fetch(FetchArgs),
    /// Install sets from a local copy laid out as the shared data folder (a USB stick, a
    /// share), verifying every checksum.
    Import(ImportArgs),
    /// Hash the installed sets' files again and name any that changed.
    Verify {
        /// Sets to check (default: every installed set).
        sets: Vec<String>,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// Set names (see `tianwang data list`).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub sets: Vec<String>,
    /// Every set that can be downloaded.
    #[arg(long)]
    pub all: bool,
    /// Fetch BASE/SET/PATH from a mirror (a school's copy) instead of upstream.
    #[arg(long, value_name = "BASE")]
    pub mirror: Option<String>,
    /// Give up on a connection that sends nothing for this many seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub timeout: f64,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The copy: a folder laid out as the shared data folder (classification/, extraction/ …).
    pub from: PathBuf,
    /// Sets to import (default: every set the copy holds).
    pub sets: Vec<String>,
    #[arg(long)]
    pub json: bool,
}

/// The data folder of this run (`--data`, `$TIANWANG_DATA`, the user's data folder).
pub(crate) fn data_dir(cli: &Cli) -> anyhow::Result<DataDir> {
    Ok(DataDir::resolve(cli.data.as_deref())?)
}

pub fn run(cli: &Cli, a: &DataArgs) -> anyhow::Result<()> {
    let dir = data_dir(cli)?;
    match &a.what {
        DataCommand::List { json } => list(&dir, *json),
        DataCommand::Fetch(f) => fetch_cmd(&dir, f),
        DataCommand::Import(i) => import_cmd(&dir, i),
        DataCommand::Verify { sets, json } => verify(&dir, sets, *json),
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn list(dir: &DataDir, json: bool) -> anyhow::Result<()> {
    let l = dir.list();
    if json {
        return print_json(&serde_json::to_value(&l)?);
    }
    println!("data folder: {}", l.data_dir.display());
    for s in &l.sets {
        let state = if s.installed {
            "installed".to_string()
        } else if s.present > 0 {
            format!("incomplete ({}/{} files)", s.present, s.files.len())
        } else {
            "not installed".to_string()
        };
        println!(
            "{:<16} {:>9}  {:<14} {}",
            s.name,
            mb(s.bytes),
            state,
            s.title
        );
        println!("{:16} licence: {}", "", s.licence);
        match &s.import_only {
            Some(why) => println!("{:16} import only: {why}", ""),
            None => {
                for u in &s.upstream {
                    println!(
                        "{:16} upstream: github.com/{} @ {}",
                        "",
                        u.repo,
                        &u.commit[..12]
                    );
                }
            }
        }
    }
    Ok(())
}

/// The terms of the sets about to be downloaded, on stderr before anything is fetched.
fn show_terms(sets: &[&DataSet]) {
    for s in sets {
        eprintln!(
            "{} ({}, {}): {}\n  licence: {}\n  terms: {}",
            s.name,
            mb(s.bytes()),
            s.files.len(),
            s.title,
            s.licence,
            s.terms
        );
    }
}

fn fetch_cmd(dir: &DataDir, a: &FetchArgs) -> anyhow::Result<()> {
    let opts = FetchOptions {
        mirror: a.mirror.clone(),
        timeout_s: a.timeout,
    };
    let m = manifest::get();
    let sets: Vec<&DataSet> = if a.all {
        m.sets
            .iter()
            .filter(|s| a.mirror.is_some() || s.fetchable())
            .collect()
    } else {
        m.sets_named(&a.sets)?
    };
    show_terms(&sets);
    let bar = Bar::new();
    let r = if a.all {
        fetch::fetch_all(dir, &opts, &bar)
    } else {
        fetch::fetch(dir, &sets, &opts, &bar)
    };
    bar.0.finish_and_clear();
    let r = r?;
    if a.json {
        return print_with_dir(dir, &r);
    }
    for s in &r.installed {
        println!("{s}: downloaded, verified, installed");
    }
    for s in &r.already {
        println!("{s}: already installed");
    }
    for s in &r.import_only {
        println!("{s}: import only (tianwang data import DIR)");
    }
    println!(
        "{} files, {} received{} → {}",
        r.files,
        mb(r.bytes_downloaded),
        if r.resumed > 0 {
            format!(", {} resumed", r.resumed)
        } else {
            String::new()
        },
        dir.root().display()
    );
    Ok(())
}

/// A report as JSON with the data folder it was made in (`"data_dir"`).
fn print_with_dir(dir: &DataDir, r: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut v = serde_json::to_value(r)?;
    v["data_dir"] = serde_json::to_value(dir.root())?;
    print_json(&v)
}

fn import_cmd(dir: &DataDir, a: &ImportArgs) -> anyhow::Result<()> {
    let m = manifest::get();
    let all = a.sets.is_empty();
    let sets: Vec<&DataSet> = if all {
        m.sets.iter().collect()
    } else {
        m.sets_named(&a.sets)?
    };
    let bar = Bar::new();
    let r = crate::engine::data::import(dir, &a.from, &sets, all, &bar);
    bar.0.finish_and_clear();
    let r = r?;
    if a.json {
        return print_with_dir(dir, &r);
    }
    for s in &r.installed {
        println!("{s}: verified, installed");
    }
    for s in &r.not_in_copy {
        println!("{s}: not in {}", a.from.display());
    }
    println!(
        "{} files, {} → {}",
        r.files,
        mb(r.bytes),
        dir.root().display()
    );
    Ok(())
}

fn verify(dir: &DataDir, names: &[String], json: bool) -> anyhow::Result<()> {
    let m = manifest::get();
    let sets: Vec<&DataSet> = if names.is_empty() {
        m.sets.iter().collect()
    } else {
        m.sets_named(names)?
    };
    let bar = Bar::new();
    let r = dir.verify(&sets, &bar);
    bar.0.finish_and_clear();
    let r = r?;
    if json {
        print_json(&serde_json::to_value(&r)?)?;
    } else {
        for c in &r.changed {
            match &c.found {
                Some(h) => println!(
                    "CHANGED {}/{}: sha256 {h}, expected {}",
                    c.set, c.file, c.expected
                ),
                None => println!("MISSING {}/{}", c.set, c.file),
            }
        }
        println!(
            "{} sets, {} files, {} checked; {} changed",
            r.checked.len(),
            r.files,
            mb(r.bytes),
            r.changed.len()
        );
    }
    if !names.is_empty()
        && let Some(s) = r.not_installed.first()
    {
        return Err(EngineError::MissingData { set: s.clone() }.into());
    }
    match r.first_error() {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
