//! `tianwang querylog …` through the real binary: the stats contract on hand-counted logs in
//! UTF-8 and GB18030, bad input → exit 2 naming file:line, import into a workspace as a logged
//! job (strict refusing and writing nothing), generate → stats near the targets, stream.

mod common;

use common::{ok_json, run, scratch, write};

/// 12 lines, hand-counted: 9 records (lines 9–11 bad), 4 distinct normalised queries
/// (天网 3, qq 3, "搜索 引擎" 2, 北大 1), 5 users, ranks 1,2,1,11,3,1,21,5,1.
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

fn check_contract(v: &serde_json::Value) {
    for key in [
        "lines",
        "bad_lines",
        "requests",
        "distinct_queries",
        "distinct_users",
        "queries_seen_once",
        "repeat_fraction",
        "zipf",
        "top_queries",
        "coverage",
        "result_pages",
        "click_ranks",
        "hurst",
        "elapsed_s",
        "lines_per_s",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["lines"], 12);
    assert_eq!(v["bad_lines"]["count"], 3);
    let first: Vec<(u64, String)> = v["bad_lines"]["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["line"].as_u64().unwrap(),
                b["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        first.iter().map(|f| f.0).collect::<Vec<_>>(),
        vec![9, 10, 11]
    );
    assert_eq!(v["requests"], 9);
    assert_eq!(v["distinct_queries"], 4);
    assert_eq!(v["distinct_users"], 5);
    assert_eq!(v["queries_seen_once"], 1);
    let top: Vec<(String, u64)> = v["top_queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["query"].as_str().unwrap().to_string(),
                q["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        top,
        vec![
            ("天网".into(), 3),
            ("qq".into(), 3),
            ("搜索 引擎".into(), 2),
            ("北大".into(), 1)
        ]
    );
    let pages: Vec<(u64, u64)> = v["result_pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["page"].as_u64().unwrap(), p["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(pages, vec![(1, 7), (2, 1), (3, 1)]);
    let ranks: Vec<(u64, u64)> = v["click_ranks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["rank"].as_u64().unwrap(), p["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ranks,
        vec![(1, 4), (2, 1), (3, 1), (5, 1), (11, 1), (21, 1)]
    );
    let cov = v["coverage"].as_array().unwrap();
    assert_eq!(cov.len(), 100);
    assert!((cov[49]["volume_fraction"].as_f64().unwrap() - 6.0 / 9.0).abs() < 1e-12);
    assert!((cov[49]["top_fraction"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!(v["zipf"]["slope"].as_f64().unwrap() < 0.0);
    assert!(v["zipf"]["r2"].as_f64().unwrap() > 0.5);
    assert!(v["hurst"].get("rs").is_some() && v["hurst"]["fit_points"].is_array());
}

#[test]
fn stats_contract_utf8_and_gb18030() {
    let d = scratch("contract");
    let utf8 = write(&d, "utf8.log", SOGOU.as_bytes());
    let v = ok_json(&run(&[
        "querylog", "stats", &utf8, "--format", "sogouq", "--json",
    ]));
    check_contract(&v);
    assert_eq!(v["encoding"], "utf-8");
    let (gb, _, _) = encoding_rs::GB18030.encode(SOGOU);
    let gbp = write(&d, "gb.log", &gb);
    let v = ok_json(&run(&["querylog", "stats", &gbp, "--json"]));
    check_contract(&v);
    assert_eq!(v["encoding"], "gb18030");
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &gbp,
        "--encoding",
        "GB18030",
        "--json",
        "--full",
    ]));
    check_contract(&v);
    assert!(v["stats"]["coverage"]["points"].is_array());
    // Human output names the book's numbers.
    let o = run(&["querylog", "stats", &utf8]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("book 47.3%"));
}

#[test]
fn bad_input_exits_2_with_file_and_line() {
    let d = scratch("bad");
    let log = write(&d, "s.log", SOGOU.as_bytes());
    let o = run(&["querylog", "stats", &log, "--strict", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{log}:9: missing fields")), "{err}");
    let empty = write(&d, "empty.log", b"");
    let o = run(&["querylog", "stats", &empty, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("{empty}:1: empty file")));
    let junk = write(&d, "junk.log", b"no tabs here\n\xff\xfe\n");
    let o = run(&["querylog", "stats", &junk, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("{junk}:1:")));
    for args in [
        vec!["querylog", "stats", &log, "--format", "nope"],
        vec!["querylog", "stats", &log, "--encoding", "klingon"],
        vec!["querylog", "stats", &log, "--format", "tsv"],
        vec!["querylog", "stats", "/no/such/file.log"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn import_is_a_logged_job_and_strict_writes_nothing() {
    let d = scratch("import");
    let ws = d.join("w.tianwang").display().to_string();
    let log = write(&d, "s.log", SOGOU.as_bytes());
    let o = run(&["querylog", "import", &log, "--workspace", &ws, "--strict"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("s.log:9"));
    let v = ok_json(&run(&["querylog", "list", "--workspace", &ws, "--json"]));
    assert_eq!(v.as_array().unwrap().len(), 0, "strict import wrote: {v}");
    let v = ok_json(&run(&[
        "querylog",
        "import",
        &log,
        "--workspace",
        &ws,
        "--json",
    ]));
    assert_eq!(v["records"], 9);
    assert_eq!(v["bad_lines"]["count"], 3);
    assert_eq!(v["distinct_queries"], 4);
    let id = v["log_id"].as_i64().unwrap().to_string();
    let jobs = ok_json(&run(&["jobs", "--workspace", &ws, "--json"]));
    assert!(jobs.to_string().contains("querylog-import"), "{jobs}");
    // Statistics of the stored log equal those of the file.
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        "--log",
        &id,
        "--workspace",
        &ws,
        "--json",
    ]));
    assert_eq!(v["requests"], 9);
    assert_eq!(v["lines"], 12);
    assert_eq!(v["bad_lines"]["count"], 3);
    assert_eq!(v["bad_lines"]["first"][0]["line"], 9);
    assert_eq!(v["distinct_queries"], 4);
    assert_eq!(v["top_queries"][1]["query"], "qq");
    assert!(common::result_fields_are_named(std::path::Path::new(&ws)) >= 1);
}

#[test]
fn generate_then_stats_lands_near_the_targets() {
    let d = scratch("gen");
    let out = d.join("g.log").display().to_string();
    let v = ok_json(&run(&[
        "querylog",
        "generate",
        "--lines",
        "100000",
        "--seed",
        "3",
        "--format",
        "sogouq",
        "--encoding",
        "gb18030",
        "--out",
        &out,
        "--json",
    ]));
    assert_eq!(v["lines"], 100000);
    let v = ok_json(&run(&["querylog", "stats", &out, "--json", "--no-words"]));
    assert_eq!(v["lines"], 100000);
    assert_eq!(v["bad_lines"]["count"], 0);
    assert_eq!(v["encoding"], "gb18030");
    let ratio = v["distinct_queries"].as_f64().unwrap() / 100000.0;
    assert!((ratio - 1.0 / 6.0).abs() < 0.02, "{ratio}");
    let p1 = v["result_pages"][0]["count"].as_f64().unwrap() / 100000.0;
    assert!((p1 - 0.473).abs() < 0.01, "{p1}");
    // Same seed, same bytes.
    let out2 = d.join("g2.log").display().to_string();
    ok_json(&run(&[
        "querylog",
        "generate",
        "--lines",
        "100000",
        "--seed",
        "3",
        "--encoding",
        "gb18030",
        "--out",
        &out2,
        "--json",
    ]));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&out2).unwrap());
    let o = run(&["querylog", "generate", "--lines", "0", "--out", &out2]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn stream_writes_one_object_id_per_request() {
    let d = scratch("stream");
    let log = write(&d, "s.log", SOGOU.as_bytes());
    let trace = d.join("t.txt");
    let v = ok_json(&run(&[
        "querylog",
        "stream",
        &log,
        "--key",
        "query",
        "--out",
        trace.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["requests"], 9);
    assert_eq!(v["distinct_objects"], 4);
    let ids: Vec<u32> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(ids, vec![0, 0, 1, 0, 2, 2, 3, 3, 2]);
    let v = ok_json(&run(&[
        "querylog",
        "stream",
        &log,
        "--key",
        "query+page",
        "--out",
        trace.to_str().unwrap(),
        "--json",
    ]));
    // (天网,1) (天网,1) (北大,1) (天网,2) (qq,1) (qq,1) (搜索 引擎,3) (搜索 引擎,1) (qq,1)
    assert_eq!(v["distinct_objects"], 6);
    let o = run(&[
        "querylog", "stream", &log, "--key", "url", "--out", "/tmp/x",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tianwang_logs_in_gb18030_and_tsv_columns() {
    let d = scratch("tianwang");
    let q = "Fri Mar 21 00:00:02 2003\t218.24.100.77\tDatabase\t老歌\t1
Fri Mar 21 00:00:05 2003\t218.24.100.77\tCache\t老歌\t2
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\t1
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\tzero
";
    let (gb, _, _) = encoding_rs::GB18030.encode(q);
    let p = write(&d, "q.log", &gb);
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &p,
        "--format",
        "tianwang-query",
        "--json",
    ]));
    assert_eq!(v["encoding"], "gb18030");
    assert_eq!(
        (v["lines"].as_u64(), v["requests"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(v["bad_lines"]["first"][0]["line"], 4);
    assert_eq!(v["top_queries"][0]["query"], "老歌");
    assert_eq!(v["result_pages"][1]["page"], 2);
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &p,
        "--format",
        "tianwang-query",
        "--first-page-only",
        "--json",
    ]));
    assert_eq!(v["requests"], 2);
    let c = write(
        &d,
        "c.log",
        "Fri Mar 21 00:00:02 2003\t202.206.102.169\t虫儿飞\thttp://sports.163.com/tm/000828/000828_64264.html\t16\n"
            .as_bytes(),
    );
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &c,
        "--format",
        "tianwang-click",
        "--json",
    ]));
    assert_eq!(v["click_ranks"][0]["rank"], 16);
    assert_eq!(v["result_pages"][0]["page"], 2);
    let t = write(&d, "t.tsv", "u1\tfoo\t3\nu2\tFoo\t12\n".as_bytes());
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &t,
        "--format",
        "tsv",
        "--columns",
        "user,query,rank",
        "--json",
    ]));
    assert_eq!(v["distinct_queries"], 1);
    let v = ok_json(&run(&[
        "querylog",
        "stats",
        &t,
        "--format",
        "tsv",
        "--columns",
        "user,query,rank",
        "--normalise",
        "none",
        "--json",
    ]));
    assert_eq!(v["distinct_queries"], 2);
    let o = run(&[
        "querylog",
        "stats",
        &t,
        "--format",
        "tsv",
        "--columns",
        "user,rank",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The memory budget (issue 30): a log whose estimated peak exceeds `--memory-limit` is
/// refused before reading, exit 2, naming the flag and the out-of-core engine; under a limit
/// that fits, the same log is read.
#[test]
fn a_log_over_the_memory_limit_is_refused_before_reading() {
    let d = scratch("budget");
    let good: String = SOGOU.lines().take(8).map(|l| format!("{l}\n")).collect();
    // 200,000 lines: about 96 + 6.5 MB estimated.
    let log = write(&d, "big.log", good.repeat(25_000).as_bytes());
    let stats = |limit_mb: &str| {
        run(&[
            "querylog",
            "stats",
            &log,
            "--json",
            "--no-words",
            "--memory-limit",
            limit_mb,
        ])
    };
    let o = stats("100");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in ["--memory-limit", "--engine datafusion", "big.log"] {
        assert!(err.contains(want), "{want} missing: {err}");
    }
    let about: f64 = err
        .split("about ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    assert!((about - 200_000.0).abs() < 2_000.0, "{err}");
    let v = ok_json(&stats("200"));
    assert_eq!(v["requests"], 200_000);
}
