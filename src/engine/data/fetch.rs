//! Downloading sets from upstream: each file from its pinned address (or `BASE/SET/PATH` on a
//! mirror), resumed with an HTTP `Range` request when an earlier download stopped part way,
//! hashed and compared with the manifest, and the set installed only when every file is right
//! (see `install`). A 404, a timeout, a refused connection, a checksum mismatch or a full disk
//! stops with [`EngineError::DataFile`] naming the set and the file (exit 2); what was
//! downloaded stays in staging, so the next run resumes, and nothing is half-installed.
//!
//! ```no_run
//! use tianwang::engine::data::{DataDir, fetch, manifest};
//! let dir = DataDir::resolve(None)?;
//! let sets = manifest::get().sets_named(&["hollins".into()])?;
//! let opts = fetch::FetchOptions { mirror: Some("http://127.0.0.1:8000".into()), ..Default::default() };
//! let report = fetch::fetch(&dir, &sets, &opts, &())?;
//! assert_eq!(report.installed, ["hollins"]);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::install::{install, make_dir, staged};
use super::{DataDir, DataFile, DataSet, write_error};
use crate::engine::error::{DataProblem, EngineError, Result};
use crate::engine::jobs::Tick;

/// How to download.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FetchOptions {
    /// Fetch `BASE/SET/PATH` instead of each file's upstream address.
    pub mirror: Option<String>,
    /// Give up on a connection that sends nothing for this long.
    pub timeout_s: f64,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            mirror: None,
            timeout_s: 60.0,
        }
    }
}

/// What a fetch did.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct FetchReport {
    /// Sets downloaded, verified and installed.
    pub installed: Vec<String>,
    /// Sets that were installed already (nothing downloaded).
    pub already: Vec<String>,
    /// Sets that can only be imported (skipped by `--all`).
    pub import_only: Vec<String>,
    pub files: usize,
    /// Bytes received over the network (a resumed file counts only its rest).
    pub bytes_downloaded: u64,
    /// Files whose download resumed where an earlier one stopped.
    pub resumed: usize,
}

/// The address of `f` of `set`: on the mirror when one is given.
pub(crate) fn url_of(set: &DataSet, f: &DataFile, mirror: Option<&str>) -> Option<String> {
    match mirror {
        Some(base) => Some(format!(
            "{}/{}/{}",
            base.trim_end_matches('/'),
            set.name,
            f.path
        )),
        None => f.url.clone(),
    }
}

/// Download, verify and install `sets` (an import-only set is an error unless `skip_import_only`
/// says to pass over it, as `--all` does).
pub fn fetch(
    dir: &DataDir,
    sets: &[&DataSet],
    opts: &FetchOptions,
    tick: &dyn Tick,
) -> Result<FetchReport> {
    fetch_sets(dir, sets, opts, false, tick)
}

/// [`fetch`] of every set that can be downloaded, passing over the import-only ones.
pub(crate) fn fetch_all(
    dir: &DataDir,
    opts: &FetchOptions,
    tick: &dyn Tick,
) -> Result<FetchReport> {
    let all: Vec<&DataSet> = super::manifest::get().sets.iter().collect();
    fetch_sets(dir, &all, opts, true, tick)
}

fn fetch_sets(
    dir: &DataDir,
    sets: &[&DataSet],
    opts: &FetchOptions,
    skip_import_only: bool,
    tick: &dyn Tick,
) -> Result<FetchReport> {
    if !(opts.timeout_s.is_finite() && opts.timeout_s > 0.0) {
        return Err(EngineError::invalid(
            "timeout",
            "must be a positive number of seconds",
        ));
    }
    let mut r = FetchReport::default();
    let mut todo = Vec::new();
    for &s in sets {
        if opts.mirror.is_none() && !s.fetchable() {
            if skip_import_only {
                r.import_only.push(s.name.clone());
                continue;
            }
            return Err(EngineError::invalid(
                "set",
                format!(
                    "`{}` can only be imported: {}; use `tianwang data import DIR`",
                    s.name,
                    s.import_only.as_deref().unwrap_or("no upstream address")
                ),
            ));
        }
        if dir.status(s).installed {
            r.already.push(s.name.clone());
        } else {
            todo.push(s);
        }
    }
    if todo.is_empty() {
        return Ok(r);
    }
    let client = client(opts)?;
    let total = todo.iter().map(|s| s.bytes()).sum::<u64>().max(1);
    let progress = Progress {
        tick,
        total,
        base: std::cell::Cell::new(0),
        last: std::cell::Cell::new(Instant::now()),
    };
    for s in todo {
        for f in &s.files {
            let url = url_of(s, f, opts.mirror.as_deref()).ok_or_else(|| {
                EngineError::Internal(format!("{}/{} has no address", s.name, f.path))
            })?;
            let got = fetch_file(dir, s, f, &url, &client, opts, &progress)?;
            r.files += 1;
            r.bytes_downloaded += got.received;
            r.resumed += got.resumed as usize;
            progress.base.set(progress.base.get() + f.bytes);
        }
        install(
            dir,
            s,
            &format!("fetch {}", opts.mirror.as_deref().unwrap_or("upstream")),
        )?;
        r.installed.push(s.name.clone());
    }
    tick.tick(1.0, "installed")?;
    Ok(r)
}

/// Progress over all files, reported at most every 50 ms.
struct Progress<'a> {
    tick: &'a dyn Tick,
    total: u64,
    /// Bytes of the files finished before this one.
    base: std::cell::Cell<u64>,
    last: std::cell::Cell<Instant>,
}

impl Progress<'_> {
    fn report(&self, in_file: u64, what: &str, force: bool) -> Result<()> {
        if force || self.last.get().elapsed() >= Duration::from_millis(50) {
            self.last.set(Instant::now());
            let f = (self.base.get() + in_file) as f32 / self.total as f32;
            self.tick.tick(f.min(1.0), what)?;
        }
        Ok(())
    }
}

fn client(opts: &FetchOptions) -> Result<reqwest::blocking::Client> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut b = reqwest::blocking::Client::builder()
        .user_agent(concat!("tianwang-workbench/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs_f64(opts.timeout_s))
        // Per read in the blocking client: a stalled connection, not a long download.
        .timeout(Duration::from_secs_f64(opts.timeout_s))
        // Bytes exactly as published: no transparent decoding.
        .no_gzip()
        .no_deflate();
    let loopback = opts.mirror.as_deref().is_some_and(|m| {
        url::Url::parse(m)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .is_some_and(|h| h == "localhost" || h == "127.0.0.1" || h == "[::1]")
    });
    if loopback {
        b = b.no_proxy();
    }
    b.build()
        .map_err(|e| EngineError::Internal(format!("HTTP client: {e}")))
}

/// What one file's download took.
struct Got {
    received: u64,
    resumed: bool,
}

/// Download one file into staging (resuming a `.part` left by an earlier run) and check it.
fn fetch_file(
    dir: &DataDir,
    set: &DataSet,
    f: &DataFile,
    url: &str,
    client: &reqwest::blocking::Client,
    opts: &FetchOptions,
    progress: &Progress<'_>,
) -> Result<Got> {
    let dst = staged(dir, set, &f.path);
    let what = format!("{}/{}", set.name, f.path);
    // Staged and right already (an earlier run stopped after it).
    if std::fs::metadata(&dst).is_ok_and(|m| m.len() == f.bytes)
        && super::sha256_file(&dst).is_ok_and(|h| h == f.sha256)
    {
        return Ok(Got {
            received: 0,
            resumed: false,
        });
    }
    if let Some(parent) = dst.parent() {
        make_dir(&set.name, parent)?;
    }
    let part = dst.with_file_name(format!(
        "{}.part",
        dst.file_name().and_then(|n| n.to_str()).unwrap_or("file")
    ));
    let problem = |p: DataProblem| EngineError::DataFile {
        set: set.name.clone(),
        file: f.path.clone(),
        problem: p,
    };
    let mut have = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    if have > f.bytes {
        let _ = std::fs::remove_file(&part);
        have = 0;
    }
    let mut received = 0u64;
    let mut resumed = false;
    if have < f.bytes || f.bytes == 0 {
        let mut req = client.get(url);
        if have > 0 {
            req = req.header(reqwest::header::RANGE, format!("bytes={have}-"));
        }
        let mut resp = req
            .send()
            .map_err(|e| problem(network_problem(url, &e, opts)))?;
        let status = resp.status();
        if !status.is_success() {
            return Err(problem(DataProblem::Http {
                url: url.into(),
                status: status.as_u16(),
            }));
        }
        // 206: the rest; 200: the whole file again (a server without ranges).
        let append = have > 0 && status == reqwest::StatusCode::PARTIAL_CONTENT;
        resumed = append;
        if !append {
            have = 0;
        }
        let mut out = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(&part)
            .map_err(|e| write_error(&set.name, &f.path, &part, e))?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            progress.report(have + received, &what, false)?;
            let n = match resp.read(&mut buf) {
                Ok(n) => n,
                Err(e) => {
                    // What came so far stays for the next run to resume.
                    let _ = out.flush();
                    return Err(problem(read_problem(url, &e, opts)));
                }
            };
            if n == 0 {
                break;
            }
            out.write_all(&buf[..n])
                .map_err(|e| write_error(&set.name, &f.path, &part, e))?;
            received += n as u64;
            // A server sending more than the file: stop, the checksum says it is wrong.
            if have + received > f.bytes {
                break;
            }
        }
        out.sync_all()
            .map_err(|e| write_error(&set.name, &f.path, &part, e))?;
    }
    progress.report(f.bytes, &what, true)?;
    let found = super::sha256_file(&part).map_err(|e| write_error(&set.name, &f.path, &part, e))?;
    if found != f.sha256 {
        let _ = std::fs::remove_file(&part);
        return Err(problem(DataProblem::Checksum {
            expected: f.sha256.clone(),
            found,
        }));
    }
    std::fs::rename(&part, &dst).map_err(|e| write_error(&set.name, &f.path, &dst, e))?;
    Ok(Got { received, resumed })
}

fn secs(opts: &FetchOptions) -> u64 {
    opts.timeout_s.ceil() as u64
}

fn network_problem(url: &str, e: &reqwest::Error, opts: &FetchOptions) -> DataProblem {
    if e.is_timeout() {
        DataProblem::Timeout {
            url: url.into(),
            secs: secs(opts),
        }
    } else {
        DataProblem::Network {
            url: url.into(),
            detail: describe(e),
        }
    }
}

/// A failed read of the body: reqwest's timeout arrives wrapped in an `io::Error`.
fn read_problem(url: &str, e: &std::io::Error, opts: &FetchOptions) -> DataProblem {
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<reqwest::Error>());
    if e.kind() == std::io::ErrorKind::TimedOut || inner.is_some_and(reqwest::Error::is_timeout) {
        DataProblem::Timeout {
            url: url.into(),
            secs: secs(opts),
        }
    } else {
        DataProblem::Network {
            url: url.into(),
            detail: e.to_string(),
        }
    }
}

/// A reqwest error with its causes, which say what actually failed.
fn describe(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(c) = src {
        s.push_str(": ");
        s.push_str(&c.to_string());
        src = c.source();
    }
    s
}
