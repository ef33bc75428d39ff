#![cfg(feature = "bigjobs")]
//! The query-log statistics on DataFusion and Spark against the native engine: the whole
//! `Stats` equal (integers exactly, floats to 1e-9 relative) on the querylog tests' hand-counted
//! logs, a generated log and a stored log, under several filter settings; the `querylog`
//! Parquet round trip; a wrong-schema file refused as the user's bad input; `querylog stats
//! --engine datafusion` in a workspace as a logged `querylog-stats` job.
//!
//! Spark runs when the venv of `scale/setup.sh` exists (else skipped with a reason, or failed
//! when `TIANWANG_REQUIRE_SPARK=1`). `../shared/data` holds no SogouQ sample, so the real-log
//! case is the generated SogouQ-format log.

mod bigjobs_common;

use bigjobs_common::{bin, ok_json, scratch, spark_config, spark_ready};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;
use tianwang::engine::exec::{Engine, EngineConfig};
use tianwang::engine::querylog::generate::{GenConfig, write_file};
use tianwang::engine::querylog::job::{LogSource, compute};
use tianwang::engine::querylog::on_engine as ql;
use tianwang::engine::querylog::read::{ReadConfig, read_file};
use tianwang::engine::querylog::stats::{Collector, StatsConfig};
use tianwang::engine::querylog::stats_on;
use tianwang::engine::querylog::{Format, Normalise};

/// The hand-counted SogouQ log of `tests/querylog.rs` (9 records, 3 bad lines).
const SOGOU: &str = "00:00:01\tu1\t[天网]\t1 1\ta.cn/1
00:00:05\tu1\t[天网]\t2 2\ta.cn/2
00:00:09\tu2\t[北大]\t1 1\tb.cn/1
00:01:00\tu3\t[天网]\t11 1\ta.cn/11
00:02:00\tu2\t[QQ]\t3 1\tq.cn
00:40:00\tu2\t[qq ]\t1 2\tq.cn
00:41:00\tu4\t[搜索 引擎]\t21\t1\ts.cn
00:42:00\tu4\t[搜索  引擎]\t5 1\ts.cn
bad\tline
00:43:00\tu5\t[天网]\tx 1\ta.cn
25:00:00\tu5\t[天网]\t1 1\ta.cn
00:44:00\tu5\t[ＱＱ]\t1 1\tq.cn
";

/// The book's query log (page turns, a cache flag, no click ranks) of `tests/querylog.rs`.
const TIANWANG_QUERY: &str = "Fri Mar 21 00:00:02 2003\t218.24.100.77\tDatabase\t老歌\t1
Fri Mar 21 00:00:05 2003\t218.24.100.77\tCache\t老歌\t2
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\t1
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\tzero
Fri Mar 21 03:10:00 2003\t202.206.102.169\tDatabase\t虫儿飞\t3
";

fn logs(dir: &Path, lines: u64) -> Vec<(String, PathBuf, ReadConfig)> {
    let s = dir.join("sogou.log");
    std::fs::write(&s, SOGOU).unwrap();
    let t = dir.join("tianwang.log");
    std::fs::write(&t, TIANWANG_QUERY).unwrap();
    let g = dir.join("gen.log");
    let cfg = GenConfig {
        lines,
        seed: 7,
        ..GenConfig::default()
    };
    write_file(&cfg, &g, &()).unwrap();
    vec![
        ("fixture sogouq".into(), s, ReadConfig::new(Format::Sogouq)),
        (
            "fixture tianwang-query".into(),
            t,
            ReadConfig::new(Format::TianwangQuery),
        ),
        (
            format!("generated {lines} lines"),
            g,
            ReadConfig::new(Format::Sogouq),
        ),
    ]
}

/// Small groups so a short log still has many groups, and every filter the plan applies.
fn configs() -> Vec<(&'static str, StatsConfig)> {
    let small = StatsConfig {
        group_size: 50,
        selfsim_group: 20,
        cosine_top: 40,
        top_n: 30,
        ..StatsConfig::default()
    };
    vec![
        ("default", StatsConfig::default()),
        ("small groups", small.clone()),
        (
            "filters",
            StatsConfig {
                time_from: Some(30),
                time_to: Some(80_000),
                first_page_only: true,
                user_sample_pct: Some(60.0),
                user_sample_seed: 3,
                session_gap_s: 120,
                normalise: Normalise::RAW,
                ..small
            },
        ),
    ]
}

/// Walks two JSON documents: equal keys and integers, floats within 1e-9 relative. Returns
/// the largest relative float difference; panics naming the path of the first mismatch.
fn compare(a: &Value, b: &Value, path: &str, worst: &mut f64) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            assert_eq!(kx, ky, "{path}: keys");
            for k in x.keys() {
                compare(&x[k], &y[k], &format!("{path}.{k}"), worst);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{path}: lengths");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                compare(p, q, &format!("{path}[{i}]"), worst);
            }
        }
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (p, q) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            let rel = (p - q).abs() / p.abs().max(q.abs()).max(1e-300);
            let rel = if p == q { 0.0 } else { rel };
            *worst = worst.max(rel);
            assert!(rel <= 1e-9, "{path}: {p} vs {q}");
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

fn stats_json(o: &tianwang::engine::querylog::job::StatsOutput) -> Value {
    serde_json::to_value(&o.stats).unwrap()
}

#[test]
fn datafusion_equals_native_on_fixtures_and_a_generated_log() {
    let d = scratch("df");
    let df = EngineConfig {
        partitions: 2,
        ..EngineConfig::new(Engine::DataFusion)
    };
    let mut worst = 0f64;
    let mut runs = 0;
    for (name, path, read) in logs(&d, 20_000) {
        for (cname, cfg) in configs() {
            let src = LogSource::File {
                path: path.clone(),
                read: read.clone(),
            };
            let t = Instant::now();
            let native = compute(&src, &cfg, None, &()).unwrap();
            let tn = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let on = stats_on(&src, &cfg, &df, None, &()).unwrap();
            let te = t.elapsed().as_secs_f64();
            assert_eq!(native.read, on.read, "{name}/{cname}: read summary");
            let mut w = 0f64;
            compare(
                &stats_json(&native),
                &stats_json(&on),
                name.as_str(),
                &mut w,
            );
            // The counts are exact: the integer parts are equal as whole structs too.
            assert_eq!(native.stats.volume.requests, on.stats.volume.requests);
            assert_eq!(native.stats.decay.y, on.stats.decay.y, "{name}/{cname}");
            assert_eq!(native.stats.selfsim.levels, on.stats.selfsim.levels);
            eprintln!(
                "{name} / {cname}: {} requests, native {tn:.2} s, datafusion {te:.2} s, max rel diff {w:e}",
                native.stats.volume.requests
            );
            worst = worst.max(w);
            runs += 1;
        }
    }
    assert_eq!(runs, 9);
    eprintln!("max relative float difference over {runs} runs: {worst:e}");
}

#[test]
fn the_filters_and_groups_are_not_vacuous() {
    // The generated log under the filters keeps some requests and drops others, and the small
    // groups give decay, deviation and self-similarity series to compare.
    let d = scratch("vacuous");
    let (_, path, read) = logs(&d, 5_000).pop().unwrap();
    let src = LogSource::File { path, read };
    let cfgs = configs();
    let s = compute(&src, &cfgs[2].1, None, &()).unwrap().stats;
    assert!(
        s.volume.filtered_out > 0 && s.volume.requests > 1000,
        "{:?}",
        s.volume
    );
    assert!(s.deviation.s.len() > 10 && s.decay.mean_by_lag.len() > 10);
    assert!(s.urls.as_ref().is_some_and(|u| u.cosine.queries > 10));
    assert!(s.volume.sessions > s.volume.distinct_users);
}

#[test]
fn querylog_parquet_round_trip_and_wrong_schema() {
    let d = scratch("rt");
    for (name, path, read) in logs(&d, 3_000) {
        let pq = d.join(format!("{}.parquet", name.replace(' ', "_")));
        let (summary, rows) =
            ql::export_file(&path, &read, Normalise::default(), &pq, &()).unwrap();
        assert_eq!(summary.records, rows);
        // Every record read back equals the one read from the file.
        let mut direct: Vec<String> = Vec::new();
        read_file(&path, &read, &(), &mut |r| {
            direct.push(format!("{r:?}"));
            Ok(())
        })
        .unwrap();
        let (back, meta) = ql::read_rows(&pq).unwrap();
        let back_dbg: Vec<String> = back.iter().map(|r| format!("{:?}", r.record())).collect();
        assert_eq!(direct, back_dbg, "{name}");
        assert!(meta.iter().any(|(k, _)| k == "tianwang.normalise"));
        // The statistics of the rows read back equal the file's.
        let cfg = StatsConfig::default();
        let mut c = Collector::new(cfg.clone());
        for r in &back {
            c.push(&r.record()).unwrap();
        }
        let from_rows = c.finish(&()).unwrap();
        let src = LogSource::File {
            path: path.clone(),
            read: read.clone(),
        };
        assert_eq!(compute(&src, &cfg, None, &()).unwrap().stats, from_rows);
    }
    // A `signatures`-shaped or links file where a querylog is expected: bad input naming it.
    let links = d.join("links");
    std::fs::create_dir_all(&links).unwrap();
    let g = tianwang::engine::rank::graph::parse_graph("a b\nb c\n", "t").unwrap();
    let (lp, _) = tianwang::engine::rank::on_engine::export_graph(&g, &links).unwrap();
    let e = ql::read_rows(&lp).unwrap_err();
    assert!(e.is_user_error(), "{e}");
    assert!(e.to_string().contains("links.parquet"), "{e}");
}

#[test]
fn stored_log_on_datafusion_is_a_logged_job() {
    let d = scratch("job");
    let (_, log, _) = logs(&d, 4_000).pop().unwrap();
    let ws = d.join("w.tianwang");
    let w = ws.to_str().unwrap();
    let v = ok_json(
        &bin()
            .args(["--workspace", w, "querylog", "import"])
            .arg(&log)
            .arg("--json")
            .output()
            .unwrap(),
    );
    let id = v["log_id"].as_i64().unwrap().to_string();
    let args = [
        "--workspace",
        w,
        "querylog",
        "stats",
        "--log",
        &id,
        "--json",
        "--full",
    ];
    let native = ok_json(&bin().args(args).output().unwrap());
    let on = ok_json(
        &bin()
            .args(args)
            .args(["--engine", "datafusion", "--partitions", "2"])
            .output()
            .unwrap(),
    );
    assert_eq!(on["engine"], "datafusion");
    let mut worst = 0f64;
    compare(&native["stats"], &on["stats"], "stats", &mut worst);
    eprintln!("stored log: max relative float difference {worst:e}");
    // The run is in the experiment log: kind, engine in the parameters, done.
    let job = on["job_id"].as_i64().expect("a job id");
    let conn = rusqlite::Connection::open(&ws).unwrap();
    let (kind, status, params): (String, String, String) = conn
        .query_row(
            "SELECT kind, status, params FROM jobs WHERE id = ?1",
            [job],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((kind.as_str(), status.as_str()), ("querylog-stats", "done"));
    let p: Value = serde_json::from_str(&params).unwrap();
    assert_eq!(p["engine"]["engine"], "datafusion");
    // export-parquet --what querylog of the stored log reads back with every record.
    let out = d.join("export");
    let v = ok_json(
        &bin()
            .args([
                "--workspace",
                w,
                "export-parquet",
                "--what",
                "querylog",
                "--json",
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap(),
    );
    let (rows, _) = ql::read_rows(&out.join("querylog.parquet")).unwrap();
    assert_eq!(v["rows"].as_u64(), Some(rows.len() as u64));
    assert_eq!(rows.len() as u64, native["requests"].as_u64().unwrap());
    // A bad engine name is the user's bad input.
    let o = bin()
        .args(args)
        .args(["--engine", "hadoop"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn spark_equals_native_on_a_generated_log_with_filters() {
    if !spark_ready() {
        return;
    }
    let d = scratch("spark");
    let (_, path, read) = logs(&d, 5_000).pop().unwrap();
    let src = LogSource::File { path, read };
    let spark = spark_config();
    // One Spark run (a JVM start costs ~15 s): the filtered configuration exercises the window
    // numbering, the user-sample join and every output.
    let cfg = configs().pop().unwrap().1;
    let native = compute(&src, &cfg, None, &()).unwrap();
    let t = Instant::now();
    let on = stats_on(&src, &cfg, &spark, None, &()).unwrap();
    let mut worst = 0f64;
    compare(&stats_json(&native), &stats_json(&on), "spark", &mut worst);
    eprintln!(
        "spark: {} requests in {:.1} s, max relative float difference {worst:e}",
        on.stats.volume.requests,
        t.elapsed().as_secs_f64()
    );
}
