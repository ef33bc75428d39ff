//! The peer tools of `tianwang bench <lab> --peers`: Python scripts (`clean_peers.py` with
//! readability-lxml and trafilatura, `classify_peers.py` with scikit-learn, `rank_peers.py`
//! with networkx, `dedup_peers.py` with datasketch and simhash, `cache_peers.py` with
//! libCacheSim, `querylog_peers.py` with pandas) run in the venv that `bench/peers/setup.sh`
//! makes. Every bench finds and runs them here, by one rule.
//!
//! The folder of the scripts is the first of:
//! 1. `--peers-dir DIR`, else the `TIANWANG_PEERS` environment variable: an explicit choice is
//!    final (a folder without the script is an error naming that folder);
//! 2. `peers/` beside the executable (where an installed build may ship them);
//! 3. the copies compiled into the binary (`bench/peers` as built, like `scale/spark/run_plan.py`),
//!    written to `peers-VERSION/` in the user's cache folder when first needed, so an installed
//!    binary runs its peers from any folder.
//!
//! The python is `--python`, else `$TIANWANG_PEERS_VENV/bin/python`, else
//! `~/.cache/tianwang/peers-venv/bin/python`: where `setup.sh` makes the venv. Nothing is
//! installed from here; what is missing is named with `setup.sh` to run. A script runs under
//! `--peers-timeout` and prints one JSON document on stdout (its logs go to stderr, shown when
//! it fails).
//!
//! ```text
//! let run = peers::run(&a.peer, "rank_peers.py", &[hollins.into(), "5".into()])?;
//! let pagerank_seconds = run.json["pagerank_seconds"].as_f64();
//! ```

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::Value;

use crate::engine::error::EngineError;

/// Where the peers are and how long they may run; flattened into every `bench` with peers.
#[derive(Debug, Clone, Args)]
pub struct PeerArgs {
    /// Folder of the peer scripts (default: $TIANWANG_PEERS, else peers/ beside the
    /// executable, else the copies built into the binary).
    #[arg(long, value_name = "DIR")]
    pub peers_dir: Option<PathBuf>,
    /// Python of the peers venv (default: $TIANWANG_PEERS_VENV/bin/python, else
    /// ~/.cache/tianwang/peers-venv/bin/python, where bench/peers/setup.sh makes it).
    #[arg(long, value_name = "FILE")]
    pub python: Option<PathBuf>,
    /// Seconds one peer script may run before it is stopped.
    #[arg(long, value_name = "SECS", default_value_t = 3600)]
    pub peers_timeout: u64,
}

/// How a folder came to be looked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Flag,
    Env,
    BesideExe,
    Embedded,
}

/// The peer scripts as built (`bench/peers`), with the venv's setup and requirements.
pub(crate) const EMBEDDED: &[(&str, &str)] = &[
    (
        "cache_peers.py",
        include_str!("../../bench/peers/cache_peers.py"),
    ),
    (
        "classify_peers.py",
        include_str!("../../bench/peers/classify_peers.py"),
    ),
    (
        "clean_peers.py",
        include_str!("../../bench/peers/clean_peers.py"),
    ),
    (
        "dedup_peers.py",
        include_str!("../../bench/peers/dedup_peers.py"),
    ),
    (
        "querylog_peers.py",
        include_str!("../../bench/peers/querylog_peers.py"),
    ),
    (
        "rank_peers.py",
        include_str!("../../bench/peers/rank_peers.py"),
    ),
    (
        "requirements.txt",
        include_str!("../../bench/peers/requirements.txt"),
    ),
    ("setup.sh", include_str!("../../bench/peers/setup.sh")),
    ("README.md", include_str!("../../bench/peers/README.md")),
];

/// Writes the embedded scripts into `dir` (once: files already there with the same bytes
/// are left alone), `setup.sh` executable.
pub(crate) fn write_embedded(dir: &Path) -> Result<(), EngineError> {
    let io = |p: &Path, e: std::io::Error| EngineError::BadPath {
        path: p.to_path_buf(),
        reason: format!("cannot write the peer scripts here ({e}); give --peers-dir DIR"),
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    for (name, text) in EMBEDDED {
        let p = dir.join(name);
        if std::fs::read(&p).is_ok_and(|b| b == text.as_bytes()) {
            continue;
        }
        // Whole or not at all: a temporary file renamed into place.
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        std::fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
        #[cfg(unix)]
        if name.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| io(&tmp, e))?;
        }
        std::fs::rename(&tmp, &p).map_err(|e| io(&p, e))?;
    }
    Ok(())
}

/// Where the embedded scripts are written: `peers-VERSION` in the user's cache folder.
fn embedded_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "tianwang-workbench").map(|d| {
        d.cache_dir()
            .join(format!("peers-{}", env!("CARGO_PKG_VERSION")))
    })
}

impl Origin {
    fn describe(self) -> &'static str {
        match self {
            Origin::Flag => "--peers-dir",
            Origin::Env => "TIANWANG_PEERS",
            Origin::BesideExe => "beside the executable",
            Origin::Embedded => "the copies built into the binary",
        }
    }

    fn explicit(self) -> bool {
        matches!(self, Origin::Flag | Origin::Env)
    }
}

/// The folders to look in, in order: only the explicit one when there is one, else the
/// executable's `peers/` and then the folder the embedded copies are written to.
pub(crate) fn candidates(
    flag: Option<&Path>,
    env: Option<PathBuf>,
    exe_dir: Option<&Path>,
    embedded: Option<&Path>,
) -> Vec<(Origin, PathBuf)> {
    if let Some(d) = flag {
        return vec![(Origin::Flag, d.to_path_buf())];
    }
    if let Some(d) = env.filter(|d| !d.as_os_str().is_empty()) {
        return vec![(Origin::Env, d)];
    }
    let mut v = Vec::new();
    if let Some(d) = exe_dir {
        v.push((Origin::BesideExe, d.join("peers")));
    }
    if let Some(d) = embedded {
        v.push((Origin::Embedded, d.to_path_buf()));
    }
    v
}

/// The script `name` in the first candidate folder that holds it.
pub(crate) fn locate(cands: &[(Origin, PathBuf)], name: &str) -> Result<PathBuf, EngineError> {
    for (origin, dir) in cands {
        let p = dir.join(name);
        if *origin == Origin::Embedded && EMBEDDED.iter().any(|(n, _)| *n == name) {
            write_embedded(dir)?;
        }
        if p.is_file() {
            return Ok(p);
        }
        if origin.explicit() {
            return Err(EngineError::BadPath {
                path: dir.clone(),
                reason: format!(
                    "no {name} in this folder (given by {}): point it at the project's \
                     bench/peers, then run its setup.sh",
                    origin.describe()
                ),
            });
        }
    }
    let looked: Vec<String> = cands
        .iter()
        .map(|(o, d)| format!("{} ({})", d.display(), o.describe()))
        .collect();
    Err(EngineError::invalid(
        "--peers-dir",
        format!(
            "the peer script {name} was not found; looked in: {}; give --peers-dir DIR or set \
             TIANWANG_PEERS to the project's bench/peers, and run bench/peers/setup.sh once",
            if looked.is_empty() {
                "no folder".to_string()
            } else {
                looked.join(", ")
            }
        ),
    ))
}

/// The venv's python: `flag` (a path, or a bare name found on PATH), else
/// `venv_env/bin/python`, else `home/.cache/tianwang/peers-venv/bin/python`; an error naming
/// it and `setup` when it is not there.
pub(crate) fn python(
    flag: Option<&Path>,
    venv_env: Option<PathBuf>,
    home: Option<PathBuf>,
    setup: &Path,
) -> Result<PathBuf, EngineError> {
    if let Some(p) = flag {
        // A bare name (`python3`) is looked up on PATH when it runs.
        if p.is_file() || p.components().count() == 1 {
            return Ok(p.to_path_buf());
        }
        return Err(EngineError::BadPath {
            path: p.to_path_buf(),
            reason: "no such python (--python)".into(),
        });
    }
    let venv = match venv_env.filter(|v| !v.as_os_str().is_empty()) {
        Some(v) => v,
        None => home.unwrap_or_default().join(".cache/tianwang/peers-venv"),
    };
    let py = venv.join("bin/python");
    if py.is_file() {
        return Ok(py);
    }
    Err(EngineError::BadPath {
        path: py,
        reason: format!(
            "the peers venv is not set up: run {} (it makes the venv at {} and installs the \
             peer tools), or give --python",
            setup.display(),
            venv.display()
        ),
    })
}

/// What a peer script gave: its JSON document and its wall time.
#[derive(Debug)]
pub(crate) struct PeerRun {
    pub json: Value,
    pub seconds: f64,
}

/// Finds the script `name` and the venv's python by the module's rule, runs
/// `python script args…` under the timeout and parses its stdout.
pub(crate) fn run(a: &PeerArgs, name: &str, args: &[OsString]) -> anyhow::Result<PeerRun> {
    let exe = std::env::current_exe().ok();
    let embedded = embedded_dir();
    let cands = candidates(
        a.peers_dir.as_deref(),
        std::env::var_os("TIANWANG_PEERS").map(PathBuf::from),
        exe.as_deref().and_then(Path::parent),
        embedded.as_deref(),
    );
    let script = locate(&cands, name)?;
    let setup = script.with_file_name("setup.sh");
    let py = python(
        a.python.as_deref(),
        std::env::var_os("TIANWANG_PEERS_VENV").map(PathBuf::from),
        std::env::var_os("HOME").map(PathBuf::from),
        &setup,
    )?;
    run_script(
        &py,
        &script,
        args,
        Duration::from_secs(a.peers_timeout.max(1)),
    )
}

/// Runs `python script args…`, stopping it after `timeout`; its stdout must be one JSON
/// document.
pub(crate) fn run_script(
    python: &Path,
    script: &Path,
    args: &[OsString],
    timeout: Duration,
) -> anyhow::Result<PeerRun> {
    let name = script
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let start = Instant::now();
    let mut child = Command::new(python)
        .arg(script)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| EngineError::BadPath {
            path: python.to_path_buf(),
            reason: format!("cannot run the peers' python: {e}"),
        })?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if start.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let seconds = start.elapsed().as_secs_f64();
    let Some(status) = status else {
        // The readers are left to end with the pipes: a grandchild may still hold them.
        return Err(EngineError::Internal(format!(
            "{name} did not finish within {} s (--peers-timeout); it was stopped",
            timeout.as_secs()
        ))
        .into());
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        let text = String::from_utf8_lossy(&stderr);
        let tail: String = {
            let chars: Vec<char> = text.trim_end().chars().collect();
            chars[chars.len().saturating_sub(2000)..].iter().collect()
        };
        return Err(EngineError::Internal(format!("{name} failed ({status}): {tail}")).into());
    }
    let json = serde_json::from_slice(&stdout).map_err(|e| {
        EngineError::Internal(format!("{name} printed no JSON document on stdout: {e}"))
    })?;
    Ok(PeerRun { json, seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("temp dir");
        for f in files {
            std::fs::write(d.path().join(f), "").expect("write");
        }
        d
    }

    #[test]
    fn discovery_order_flag_env_exe_embedded() {
        let (flag, env) = (dir_with(&["x_peers.py"]), dir_with(&["x_peers.py"]));
        let exe = dir_with(&[]);
        std::fs::create_dir(exe.path().join("peers")).expect("mkdir");
        std::fs::write(exe.path().join("peers/x_peers.py"), "").expect("write");
        let cache = dir_with(&[]);
        let embedded = cache.path().join("peers-0");
        let all = |f: Option<&Path>, e: Option<PathBuf>, x: Option<&Path>, name: &str| {
            locate(&candidates(f, e, x, Some(&embedded)), name)
                .expect("found")
                .parent()
                .map(Path::to_path_buf)
        };
        let (x, e) = (Some(exe.path()), Some(env.path().to_path_buf()));
        assert_eq!(
            all(Some(flag.path()), e.clone(), x, "x_peers.py"),
            Some(flag.path().into())
        );
        assert_eq!(
            all(None, e.clone(), x, "x_peers.py"),
            Some(env.path().into())
        );
        assert_eq!(
            all(None, None, x, "x_peers.py"),
            Some(exe.path().join("peers"))
        );
        // An empty TIANWANG_PEERS counts as unset.
        assert_eq!(
            all(None, Some(PathBuf::new()), x, "x_peers.py"),
            Some(exe.path().join("peers"))
        );
        // The executable's folder without the script: the copy built into the binary,
        // written out with the venv's setup beside it.
        let bare = dir_with(&[]);
        assert_eq!(
            all(None, None, Some(bare.path()), "rank_peers.py"),
            Some(embedded.clone())
        );
        let written = std::fs::read_to_string(embedded.join("rank_peers.py")).expect("written");
        assert_eq!(
            written,
            EMBEDDED
                .iter()
                .find(|(n, _)| *n == "rank_peers.py")
                .unwrap()
                .1
        );
        assert!(embedded.join("setup.sh").is_file() && embedded.join("requirements.txt").is_file());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(embedded.join("setup.sh"))
                .unwrap()
                .permissions()
                .mode();
            assert!(mode & 0o111 != 0, "setup.sh is executable");
        }
        // Every peer a bench runs is built in.
        for name in [
            "cache_peers.py",
            "classify_peers.py",
            "clean_peers.py",
            "dedup_peers.py",
            "querylog_peers.py",
            "rank_peers.py",
        ] {
            assert!(EMBEDDED.iter().any(|(n, _)| *n == name), "{name}");
        }
    }

    #[test]
    fn an_explicit_folder_without_the_script_is_final_and_named() {
        let (flag, cache) = (dir_with(&[]), dir_with(&["x_peers.py"]));
        let c = candidates(Some(flag.path()), None, None, Some(cache.path()));
        let e = locate(&c, "x_peers.py").expect_err("not in the flag's folder");
        assert!(e.is_user_error());
        let m = e.to_string();
        assert!(m.contains(&flag.path().display().to_string()), "{m}");
        assert!(m.contains("x_peers.py") && m.contains("--peers-dir"), "{m}");
        let c = candidates(None, Some(flag.path().into()), None, Some(cache.path()));
        let m = locate(&c, "x_peers.py").expect_err("env").to_string();
        assert!(m.contains("TIANWANG_PEERS"), "{m}");
    }

    #[test]
    fn nothing_found_names_every_folder_and_setup() {
        let (exe, cache) = (dir_with(&[]), dir_with(&[]));
        let c = candidates(None, None, Some(exe.path()), Some(cache.path()));
        let e = locate(&c, "x_peers.py").expect_err("nowhere");
        assert!(e.is_user_error());
        let m = e.to_string();
        for d in [exe.path().join("peers"), cache.path().to_path_buf()] {
            assert!(m.contains(&d.display().to_string()), "{m}");
        }
        assert!(m.contains("bench/peers/setup.sh"), "{m}");
    }

    #[test]
    fn python_flag_then_venv_env_then_home() {
        let setup = Path::new("/p/setup.sh");
        let venv = dir_with(&[]);
        std::fs::create_dir_all(venv.path().join("bin")).expect("mkdir");
        std::fs::write(venv.path().join("bin/python"), "").expect("write");
        let home = dir_with(&[]);
        let hv = home.path().join(".cache/tianwang/peers-venv/bin");
        std::fs::create_dir_all(&hv).expect("mkdir");
        std::fs::write(hv.join("python"), "").expect("write");
        let flag = venv.path().join("bin/python");
        let h = Some(home.path().to_path_buf());
        assert_eq!(python(Some(&flag), None, h.clone(), setup).ok(), Some(flag));
        assert_eq!(
            python(None, Some(venv.path().into()), h.clone(), setup).ok(),
            Some(venv.path().join("bin/python"))
        );
        assert_eq!(python(None, None, h, setup).ok(), Some(hv.join("python")));
    }

    #[test]
    fn a_missing_venv_names_it_and_setup() {
        let empty = dir_with(&[]);
        let setup = Path::new("/somewhere/bench/peers/setup.sh");
        let e = python(None, None, Some(empty.path().into()), setup).expect_err("no venv");
        assert!(e.is_user_error());
        let m = e.to_string();
        assert!(m.contains("/somewhere/bench/peers/setup.sh"), "{m}");
        assert!(m.contains(".cache/tianwang/peers-venv"), "{m}");
        let e = python(Some(&empty.path().join("py")), None, None, setup).expect_err("flag");
        assert!(e.to_string().contains("--python"), "{e}");
        let bare = Path::new("python3");
        assert_eq!(
            python(Some(bare), None, None, setup).ok(),
            Some(bare.into())
        );
    }

    /// A real child process stands in for python: `sh` runs the "script".
    #[test]
    fn runs_parses_fails_and_times_out() {
        let d = dir_with(&[]);
        let sh = Path::new("/bin/sh");
        let script = |name: &str, body: &str| {
            let p = d.path().join(name);
            std::fs::write(&p, body).expect("write");
            p
        };
        let ok = script(
            "ok_peers.py",
            "echo log >&2; echo \"{\\\"arg\\\": \\\"$1\\\"}\"\n",
        );
        let r = run_script(sh, &ok, &["7".into()], Duration::from_secs(30)).expect("runs");
        assert_eq!(r.json["arg"], "7");
        assert!(r.seconds >= 0.0);
        let bad = script(
            "bad_peers.py",
            "echo 'no module named pandas' >&2; exit 3\n",
        );
        let m = run_script(sh, &bad, &[], Duration::from_secs(30))
            .expect_err("fails")
            .to_string();
        assert!(
            m.contains("bad_peers.py") && m.contains("no module named pandas"),
            "{m}"
        );
        let text = script("text_peers.py", "echo hello\n");
        let m = run_script(sh, &text, &[], Duration::from_secs(30))
            .expect_err("not JSON")
            .to_string();
        assert!(m.contains("no JSON"), "{m}");
        let slow = script("slow_peers.py", "sleep 30\n");
        let t = Instant::now();
        let m = run_script(sh, &slow, &[], Duration::from_secs(1))
            .expect_err("times out")
            .to_string();
        assert!(m.contains("--peers-timeout"), "{m}");
        assert!(t.elapsed() < Duration::from_secs(20));
    }
}
