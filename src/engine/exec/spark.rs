//! The Spark driver: a [`Plan`] run by PySpark (`scale/spark/run_plan.py`, embedded in the
//! binary and written beside the job's output) on `local[2]` or on the cluster a `--cluster`
//! master URL names. Progress comes back as JSON lines on the script's stdout; cancel kills the
//! process; the report is the `report.json` the script writes last. A `spark://` master is
//! checked for reachability first, so a wrong URL fails in seconds with exit 2 instead of
//! Spark's minute of retries.
//!
//! The Python is `TIANWANG_SPARK_PYTHON`, else the venv `scale/setup.sh` makes
//! (`~/.cache/tianwang/spark-venv`), else `python3`; Java 17 must be on `PATH`.

use std::io::{BufRead, BufReader, Read};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::EngineConfig;
use super::plan::{Plan, RunReport};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;

/// The driver script, embedded so an installed binary needs no checkout.
pub(crate) const RUN_PLAN_PY: &str = include_str!("../../../scale/spark/run_plan.py");

/// The Python that has PySpark.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("TIANWANG_SPARK_PYTHON") {
        return PathBuf::from(p);
    }
    if let Some(home) = std::env::var_os("HOME") {
        let p = Path::new(&home).join(".cache/tianwang/spark-venv/bin/python");
        if p.exists() {
            return p;
        }
    }
    PathBuf::from("python3")
}

/// `local[2]` unless the configuration names a master.
pub fn master(cfg: &EngineConfig) -> String {
    cfg.cluster.clone().unwrap_or_else(|| "local[2]".into())
}

/// A `spark://host:port[,host:port]` master must answer on at least one address within 3 s.
pub(crate) fn check_cluster(url: &str) -> Result<()> {
    let Some(rest) = url.strip_prefix("spark://") else {
        return Ok(());
    };
    let mut last = String::new();
    for hp in rest.split(',') {
        let hp = hp.trim_end_matches('/');
        let addrs = match hp.to_socket_addrs() {
            Ok(a) => a.collect::<Vec<_>>(),
            Err(e) => {
                last = format!("{hp}: {e}");
                continue;
            }
        };
        for a in addrs {
            match TcpStream::connect_timeout(&a, Duration::from_secs(3)) {
                Ok(_) => return Ok(()),
                Err(e) => last = format!("{a}: {e}"),
            }
        }
    }
    Err(EngineError::invalid_flaw(
        "--cluster",
        Flaw::with_detail("flaw.param_spark_unreachable", &[&url], last),
    ))
}

/// Run `plan` on Spark, outputs in `out/<name>/`.
pub fn run_plan(plan: &Plan, out: &Path, cfg: &EngineConfig, tick: &dyn Tick) -> Result<RunReport> {
    let io = |p: &Path, e: std::io::Error| EngineError::Io {
        path: p.to_path_buf(),
        source: e,
    };
    let master = master(cfg);
    check_cluster(&master)?;
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let report_path = out.join("report.json");
    let _ = std::fs::remove_file(&report_path);
    let script = out.join(".run_plan.py");
    std::fs::write(&script, RUN_PLAN_PY).map_err(|e| io(&script, e))?;
    let plan_path = out.join(".plan.json");
    let json = serde_json::to_vec_pretty(plan).map_err(|e| EngineError::Internal(e.to_string()))?;
    std::fs::write(&plan_path, json).map_err(|e| io(&plan_path, e))?;
    let py = python();
    let t0 = Instant::now();
    let mut child = Command::new(&py)
        .arg(&script)
        .arg(&plan_path)
        .arg(out)
        .arg(&master)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            EngineError::invalid(
                "--engine",
                format!(
                    "spark: cannot start {} ({e}); run scale/setup.sh or set TIANWANG_SPARK_PYTHON",
                    py.display()
                ),
            )
        })?;
    let mut stderr = child.stderr.take();
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let mut cancelled = false;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            let p = v["progress"].as_f64().unwrap_or(0.0) as f32;
            let m = v["message"].as_str().unwrap_or("");
            if tick.tick(p, &format!("spark {master}: {m}")).is_err() {
                cancelled = true;
                let _ = child.kill();
                break;
            }
        }
    }
    let status = child.wait().map_err(|e| io(&py, e))?;
    let err = err_thread.join().unwrap_or_default();
    if cancelled {
        return Err(EngineError::Cancelled);
    }
    if !status.success() || !report_path.exists() {
        let tail: Vec<&str> = err
            .lines()
            .filter(|l| !l.trim().is_empty())
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let text = tail.join("\n");
        if text.contains("No module named 'pyspark'") || text.contains("JAVA_HOME") {
            return Err(EngineError::invalid_flaw(
                "--engine",
                // The detail (Spark's own last lines) on lines of its own.
                Flaw::with_detail(
                    "flaw.param_spark_missing",
                    &[&py.display()],
                    format!("\n{text}"),
                ),
            ));
        }
        return Err(EngineError::Internal(format!(
            "spark ({master}) failed with {status}:\n{text}"
        )));
    }
    let bytes = std::fs::read(&report_path).map_err(|e| io(&report_path, e))?;
    let mut report: RunReport = serde_json::from_slice(&bytes)
        .map_err(|e| EngineError::Internal(format!("spark report: {e}")))?;
    if report.total_s == 0.0 {
        report.total_s = t0.elapsed().as_secs_f64();
    }
    let _ = std::fs::remove_file(&script);
    Ok(report)
}
