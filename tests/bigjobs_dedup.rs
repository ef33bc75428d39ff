//! The dedup lab's grouping on DataFusion and Spark against the native engine (feature
//! `bigjobs`; `scale/check.sh` runs these): equal pairs, clusters and counts on the sample web,
//! the development set built from real text and a generated corpus with planted copies; the
//! Parquet contract's round trips (pages, signatures with hashes whose top bit is set); the
//! memory pool spilling on a corpus larger than it; bad input (a file of the wrong schema, an
//! unreachable Spark master) exiting 2 with the workspace untouched; WARC files straight to
//! `pages` (`export-parquet --warc`), a file cut mid-record included. With
//! `scale/check.sh --cluster URL` the Spark cases run on that standalone cluster, and the
//! `cluster_only_*` tests kill an executor mid-grouping and point a job at a master that is gone.
#![cfg(feature = "bigjobs")]

mod bigjobs_common;

use bigjobs_common::{ok_json, run, scratch, shared_data, spark_flags, spark_ready};
use std::path::Path;

use serde_json::Value;
use tianwang::engine::dedup::on_engine;
use tianwang::engine::dedup::{Config, Method, Outcome, Prepared, devset};
use tianwang::engine::exec::{Engine, EngineConfig};

/// What must be equal across engines: pairs, clusters, and the method's own counts (not the
/// engine's timings).
fn comparable(v: &Value) -> Value {
    let mut stats = v["stats"].clone();
    if let Some(m) = stats.as_object_mut() {
        m.retain(|k, _| !matches!(k.as_str(), "engine_s" | "spilled_bytes" | "group_s"));
    }
    serde_json::json!({"pairs": v["pairs"], "clusters": v["clusters"], "stats": stats})
}

fn same_outcome(a: &Outcome, b: &Outcome) {
    assert_eq!(a.pairs, b.pairs);
    assert_eq!(a.clusters, b.clusters);
    let own = |o: &Outcome| -> Vec<(String, f64)> {
        o.stats
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "engine_s" | "spilled_bytes" | "group_s"))
            .cloned()
            .collect()
    };
    assert_eq!(own(a), own(b));
}

/// The dedup development set written into a new scratch folder `name`.
fn devset(name: &str) -> std::path::PathBuf {
    // The development set is cut from the ccwe data set: the binary is given the data folder
    // (it does not inherit `TIANWANG_DATA`); missing data fails under CI.
    let data = shared_data("").expect("the data sets (TIANWANG_DATA) are needed");
    let dev = scratch(name);
    ok_json(&run(&[
        "dedup",
        "--make-devset",
        dev.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--json",
    ]));
    dev
}

#[test]
fn datafusion_equals_native_on_the_sample_web_and_the_devset() {
    let dev = devset("devset");
    for source in [vec!["--sample"], vec!["--dir", dev.to_str().unwrap()]] {
        // With the boilerplate ignored the native run reads the stripped texts over the
        // original documents, the engine's signatures the stripped documents: still equal.
        for boiler in ["auto", "on"] {
            for m in ["md5", "simhash", "minhash"] {
                let mut base = vec!["dedup"];
                base.extend(source.iter().copied());
                base.extend(["--method", m, "--boilerplate", boiler, "--json"]);
                let native = ok_json(&run(&base));
                let mut df = base.clone();
                df.extend(["--engine", "datafusion"]);
                let df = ok_json(&run(&df));
                assert_eq!(df["engine"], "datafusion");
                assert_eq!(
                    comparable(&native),
                    comparable(&df),
                    "{source:?} {m} {boiler}"
                );
                assert!(
                    !native["pairs"].as_array().unwrap().is_empty(),
                    "{source:?} {m} {boiler}: a corpus with reprints finds some"
                );
            }
        }
    }
}

#[test]
fn spark_equals_native_on_the_sample_web() {
    if !spark_ready() {
        return;
    }
    for m in ["md5", "simhash", "minhash"] {
        let native = ok_json(&run(&["dedup", "--sample", "--method", m, "--json"]));
        let mut args = vec!["dedup", "--sample", "--method", m, "--json"];
        let flags = spark_flags();
        args.extend(flags.iter().map(String::as_str));
        let spark = ok_json(&run(&args));
        assert_eq!(spark["engine"], "spark");
        assert_eq!(comparable(&native), comparable(&spark), "{m}");
    }
}

/// A generated corpus with planted copies: every engine the same outcome through the library,
/// and DataFusion with a pool far smaller than its grouping spills and still agrees.
#[test]
fn generated_corpus_agrees_and_a_small_pool_spills() {
    let (docs, planted) = devset::synthetic(60_000, 600, 11);
    let cfg = Config {
        bands: 32,
        rows: 4,
        ..Config::default()
    };
    let prep = Prepared::new(&docs, &cfg);
    let native = tianwang::engine::dedup::run_prepared(&prep, Method::MinHash, &()).unwrap();
    let found: std::collections::HashSet<(usize, usize)> =
        native.pairs.iter().map(|p| (p.a, p.b)).collect();
    let hit = planted.iter().filter(|p| found.contains(p)).count();
    assert!(
        hit >= planted.len() * 99 / 100,
        "{hit} of {}",
        planted.len()
    );
    let mut small = EngineConfig::new(Engine::DataFusion);
    small.memory_mb = 16;
    small.partitions = 2;
    let df = tianwang::engine::dedup::run_on(&prep, Method::MinHash, &small, &()).unwrap();
    same_outcome(&native, &df);
    let spilled = df
        .stats
        .iter()
        .find(|(k, _)| k == "spilled_bytes")
        .map_or(0.0, |s| s.1);
    assert!(
        spilled > 0.0,
        "a 16 MB pool under 1.9 M band keys must spill"
    );
    for m in [Method::Md5, Method::SimHash] {
        let n = tianwang::engine::dedup::run_prepared(&prep, m, &()).unwrap();
        let d = tianwang::engine::dedup::run_on(&prep, m, &small, &()).unwrap();
        same_outcome(&n, &d);
    }
}

/// Signatures round-trip through Parquet bit for bit, hashes with the top bit set included
/// (stored as negative i64), and the engine's popcount reads them as Rust does.
#[test]
fn signatures_round_trip_with_signed_hashes() {
    let (docs, _) = devset::synthetic(400, 20, 5);
    let prep = Prepared::new(&docs, &Config::default());
    let rows = on_engine::signatures(&prep);
    let dir = scratch("sig");
    on_engine::write_signatures(&prep, &dir).unwrap();
    let (back, meta) = on_engine::read_signatures(&on_engine::sig_files(&dir).0).unwrap();
    assert_eq!(back, rows);
    assert!(meta.iter().any(|(k, _)| k == "tianwang.dedup_config"));
    let top = |v: u64| v >> 63 == 1;
    assert!(
        rows.iter().any(|r| r.simhash.is_some_and(top)),
        "some SimHash has bit 63 set"
    );
    assert!(rows.iter().any(|r| r.md5.is_some_and(|m| m[0] >= 0x80)));
    assert!(rows.iter().flat_map(|r| &r.bands).any(|&k| top(k)));
    // bit_count on the engine = count_ones in Rust, negative values included.
    let plan = tianwang::engine::exec::plan::Plan::new("popcount")
        .input("sig", on_engine::sig_files(&dir).0)
        .output(
            "pc",
            "SELECT doc, bit_count(simhash) AS pc FROM sig WHERE simhash IS NOT NULL",
        );
    let out = dir.join("out");
    tianwang::engine::exec::run_plan(&plan, &out, &EngineConfig::new(Engine::DataFusion), &())
        .unwrap();
    let batches = tianwang::engine::exec::parquet_io::read_output(&out.join("pc")).unwrap();
    let mut n = 0;
    for b in &batches {
        use datafusion::arrow::array::AsArray;
        use datafusion::arrow::datatypes::{Int32Type, Int64Type};
        let d = b.column(0).as_primitive::<Int64Type>();
        let pc = b.column(1).as_primitive::<Int32Type>();
        for i in 0..b.num_rows() {
            let h = rows[d.value(i) as usize].simhash.unwrap();
            assert_eq!(pc.value(i) as u32, h.count_ones());
            n += 1;
        }
    }
    assert_eq!(n, rows.iter().filter(|r| r.simhash.is_some()).count());
}

/// `export-parquet --what pages` and `dedup --parquet` give back the corpus: the same answer
/// as the folder; `--what signatures` writes both files.
#[test]
fn pages_round_trip_through_the_cli() {
    let dev = devset("dev2");
    let out = scratch("pages");
    let v = ok_json(&run(&[
        "export-parquet",
        "--dir",
        dev.to_str().unwrap(),
        "--what",
        "pages",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert!(v["rows"].as_u64().unwrap() > 100);
    let pages = out.join("pages.parquet");
    let docs = on_engine::read_pages(&pages).unwrap();
    let corpus = tianwang::engine::dedup::corpus::load_dir(
        &dev,
        tianwang::engine::dedup::corpus::Input::Auto,
        false,
    )
    .unwrap();
    assert_eq!(docs, corpus.docs);
    let a = ok_json(&run(&[
        "dedup",
        "--dir",
        dev.to_str().unwrap(),
        "--method",
        "minhash",
        "--json",
    ]));
    let b = ok_json(&run(&[
        "dedup",
        "--parquet",
        pages.to_str().unwrap(),
        "--method",
        "minhash",
        "--json",
    ]));
    assert_eq!(comparable(&a)["pairs"], comparable(&b)["pairs"]);
    let v = ok_json(&run(&[
        "export-parquet",
        "--dir",
        dev.to_str().unwrap(),
        "--what",
        "signatures",
        "--out",
        out.to_str().unwrap(),
        "--param",
        "shingle=4",
        "--json",
    ]));
    assert_eq!(v["config"]["shingle"], 4);
    for f in ["signatures.parquet", "minhash_bands.parquet"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    // A signatures file where pages are expected: exit 2, the file named.
    let o = run(&[
        "dedup",
        "--parquet",
        out.join("signatures.parquet").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("signatures.parquet") && err.contains("pages"),
        "{err}"
    );
    // Not Parquet at all.
    std::fs::write(out.join("junk.parquet"), b"not parquet").unwrap();
    let o = run(&[
        "dedup",
        "--parquet",
        out.join("junk.parquet").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn job_count(ws: &Path) -> usize {
    let o = run(&["--workspace", ws.to_str().unwrap(), "jobs", "--json"]);
    let v = ok_json(&o);
    v.as_array()
        .map_or_else(|| v["jobs"].as_array().map_or(0, Vec::len), Vec::len)
}

/// The job in a workspace runs on DataFusion and is logged with its engine; an unreachable
/// Spark master exits 2 before the workspace is touched.
#[test]
fn logged_job_and_unreachable_cluster() {
    let d = scratch("ws");
    let ws = d.join("w.tianwang");
    let v = ok_json(&run(&[
        "--workspace",
        ws.to_str().unwrap(),
        "dedup",
        "--sample",
        "--method",
        "minhash",
        "--engine",
        "datafusion",
        "--json",
    ]));
    assert_eq!(v["engine"], "datafusion");
    let jobs = ok_json(&run(&[
        "--workspace",
        ws.to_str().unwrap(),
        "jobs",
        "--json",
    ]));
    let text = jobs.to_string();
    assert!(text.contains("\"datafusion\""), "{text}");
    // A closed port on loopback: refused at once.
    unreachable_master_changes_nothing(&ws, "md5", "spark://127.0.0.1:9");
    // Methods without a plan are refused on an engine, naming the flag.
    let o = run(&[
        "dedup",
        "--sample",
        "--method",
        "ccdet",
        "--engine",
        "datafusion",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--engine"));
}

/// The folder `scale/cluster.sh` keeps its pid files in.
fn cluster_dir() -> std::path::PathBuf {
    std::env::var_os("TIANWANG_CLUSTER_DIR").map_or_else(
        || Path::new(&std::env::var_os("HOME").unwrap()).join(".cache/tianwang/cluster"),
        std::path::PathBuf::from,
    )
}

/// The live executors (`CoarseGrainedExecutorBackend`) a worker JVM started: its children.
fn executors_of(worker: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{worker}/task")) else {
        return out;
    };
    for t in tasks.flatten() {
        let kids = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        for pid in kids
            .split_whitespace()
            .filter_map(|p| p.parse::<u32>().ok())
        {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmd).contains("CoarseGrainedExecutorBackend") {
                out.push(pid);
            }
        }
    }
    out
}

/// Cluster only (`scale/check.sh --cluster URL`): while the dedup grouping runs on the
/// cluster, the first worker's executor is killed (SIGKILL) once it has started a task; Spark
/// re-runs the lost tasks elsewhere and the answer is still the native engine's.
#[test]
fn cluster_only_an_executor_killed_mid_job_changes_nothing() {
    let Some(url) = bigjobs_common::cluster_ready() else {
        return;
    };
    let pid_file = cluster_dir().join("worker1.pid");
    let worker: u32 = std::fs::read_to_string(&pid_file)
        .unwrap_or_else(|e| panic!("{}: {e} (scale/cluster.sh up?)", pid_file.display()))
        .trim()
        .parse()
        .unwrap();
    let dev = devset("kill-devset");
    let base = [
        "dedup",
        "--dir",
        dev.to_str().unwrap(),
        "--method",
        "minhash",
        "--json",
    ];
    let native = ok_json(&run(&base));
    // An executor of an application that already ended may still be exiting: not ours.
    let before = executors_of(worker);
    let child = bigjobs_common::bin()
        .args(base)
        .args(["--engine", "spark", "--cluster", &url])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    let mut killed = None;
    while killed.is_none() && std::time::Instant::now() < deadline {
        assert!(
            Path::new(&format!("/proc/{pid}")).exists(),
            "the job ended before the first worker's executor ran a task"
        );
        for e in executors_of(worker)
            .into_iter()
            .filter(|e| !before.contains(e))
        {
            // The executor runs in its work folder; its log says when a task starts.
            let log = std::fs::read_link(format!("/proc/{e}/cwd"))
                .map(|d| std::fs::read_to_string(d.join("stderr")).unwrap_or_default())
                .unwrap_or_default();
            if log.contains("Running task") {
                let st = std::process::Command::new("kill")
                    .args(["-9", &e.to_string()])
                    .status()
                    .unwrap();
                assert!(st.success(), "kill -9 {e}");
                killed = Some(e);
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let e = killed.expect("no executor of the first worker ran a task within 600 s");
    let o = child.wait_with_output().unwrap();
    let spark = ok_json(&o);
    assert!(
        !Path::new(&format!("/proc/{e}")).exists(),
        "executor {e} was killed"
    );
    assert_eq!(spark["engine"], "spark");
    assert_eq!(comparable(&native), comparable(&spark));
}

/// Cluster only: a master that ran and is gone fails the job within seconds, exit 2 naming
/// `--cluster`, the workspace untouched (the test starts and stops its own master, so the
/// cluster under test stays up).
#[test]
fn cluster_only_a_gone_master_fails_in_seconds_with_nothing_written() {
    if bigjobs_common::cluster_ready().is_none() {
        return;
    }
    let py = tianwang::engine::exec::spark::python();
    let o = std::process::Command::new(&py)
        .args([
            "-c",
            "import os, pyspark; print(os.path.dirname(pyspark.__file__))",
        ])
        .output()
        .unwrap();
    let home = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let d = scratch("gone-master");
    let mut master = std::process::Command::new(Path::new(&home).join("bin/spark-class"))
        .args([
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
        ])
        .args(["--port", &port.to_string(), "--webui-port", "0"])
        .env("SPARK_HOME", &home)
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(d.join("master.log")).unwrap())
        .spawn()
        .unwrap();
    let url = format!("spark://127.0.0.1:{port}");
    let up = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            up.elapsed().as_secs() < 300,
            "the test's master did not listen"
        );
        assert!(
            master.try_wait().unwrap().is_none(),
            "the test's master exited"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    master.kill().unwrap();
    master.wait().unwrap();
    let ws = d.join("w.tianwang");
    ok_json(&run(&[
        "--workspace",
        ws.to_str().unwrap(),
        "dedup",
        "--sample",
        "--json",
    ]));
    let (err, took) = unreachable_master_changes_nothing(&ws, "minhash", &url);
    assert!(err.contains("--cluster"), "{err}");
    assert!(took < 10.0, "failed in {took:.1} s, not seconds");
}

/// `dedup --sample --method METHOD` on Spark at `url`, a master that does not answer: exit 2
/// naming it, the workspace's bytes and its job log unchanged. Returns the stderr and the
/// seconds the run took.
fn unreachable_master_changes_nothing(ws: &Path, method: &str, url: &str) -> (String, f64) {
    let bytes = std::fs::read(ws).unwrap();
    let before = job_count(ws);
    let t = std::time::Instant::now();
    let o = run(&[
        "--workspace",
        ws.to_str().unwrap(),
        "dedup",
        "--sample",
        "--method",
        method,
        "--engine",
        "spark",
        "--cluster",
        url,
        "--json",
    ]);
    let took = t.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains(&format!("cannot reach the Spark master {url}")),
        "{err}"
    );
    assert_eq!(
        std::fs::read(ws).unwrap(),
        bytes,
        "the workspace is untouched"
    );
    assert_eq!(job_count(ws), before);
    (err, took)
}

/// A `pages` file as name → (title, body, keywords).
fn pages_by_name(path: &Path) -> std::collections::BTreeMap<String, (String, String, String)> {
    on_engine::read_pages(path)
        .unwrap()
        .into_iter()
        .map(|d| {
            let kw = format!("{:?}", d.keywords);
            (d.name, (d.headline, d.body, kw))
        })
        .collect()
}

/// `export-parquet --warc`: the sample web exported with `tianwang export --format warc`
/// (plain, and the whole file gzipped) gives one row per HTML page with the title, body and
/// keywords the workspace's own DocView gives (`export-parquet --what pages --clean`), and
/// `dedup --parquet` runs on it; a copy cut mid-record keeps the records before the cut and
/// names the file and the cut record's offset.
#[test]
fn warc_straight_to_pages_and_a_file_cut_mid_record() {
    use std::io::Write as _;
    let d = scratch("warc");
    let (ws, plain) = bigjobs_common::sample_warc(&d);
    let p = |p: &Path| p.to_str().unwrap().to_string();
    let own = d.join("own");
    ok_json(&bigjobs_common::run_ws(
        &ws,
        &[
            "export-parquet",
            "--what",
            "pages",
            "--clean",
            "--out",
            &p(&own),
            "--json",
        ],
    ));
    let want = pages_by_name(&own.join("pages.parquet"));
    assert!(want.len() > 20, "the sample web has pages: {}", want.len());
    let bytes = std::fs::read(&plain).unwrap();
    let gz = d.join("web.warc.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&bytes).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    for (i, input) in [&plain, &gz].into_iter().enumerate() {
        let out = d.join(format!("w{i}"));
        let v = ok_json(&run(&[
            "export-parquet",
            "--warc",
            &p(input),
            "--what",
            "pages",
            "--out",
            &p(&out),
            "--json",
        ]));
        assert_eq!(v["rows"], want.len(), "{v}");
        assert_eq!(v["skipped"], 0, "{v}");
        assert!(v["seconds"].as_f64().is_some(), "{v}");
        let got = pages_by_name(&out.join("pages.parquet"));
        assert_eq!(got, want, "{}", input.display());
        let a = ok_json(&run(&[
            "dedup",
            "--parquet",
            &p(&out.join("pages.parquet")),
            "--method",
            "md5",
            "--json",
        ]));
        assert!(a["pairs"].is_array(), "{a}");
    }
    // Cut inside the last response record: the rows before it, the cut named by file and
    // offset, exit 0.
    let last = bytes.windows(9).rposition(|w| w == b"WARC/1.1\r").unwrap();
    let cut = d.join("cut.warc");
    std::fs::write(&cut, &bytes[..last + 300]).unwrap();
    let out = d.join("cut");
    let o = run(&[
        "export-parquet",
        "--warc",
        &p(&cut),
        &p(&plain),
        "--what",
        "pages",
        "--out",
        &p(&out),
        "--json",
    ]);
    let v = ok_json(&o);
    assert_eq!(v["skipped"], 1, "{v}");
    let rows = v["rows"].as_u64().unwrap() as usize;
    assert!(
        rows + 1 >= 2 * want.len() && rows <= 2 * want.len(),
        "{rows} rows from a cut copy and a whole one of {}",
        want.len()
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}: byte {last}", cut.display())) && err.contains("truncated"),
        "{err}"
    );
    // A missing file: exit 2 naming it, nothing written.
    let o = run(&[
        "export-parquet",
        "--warc",
        &p(&d.join("nope.warc")),
        "--what",
        "pages",
        "--out",
        &p(&d.join("none")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.warc"));
    assert!(!d.join("none").join("pages.parquet").exists());
}
