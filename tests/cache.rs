//! `tianwang cache …` through the real binary: the CLI contract, exactness against
//! libCacheSim's reference miss ratios on cloudPhysics (to 4 decimals), OPT as the lower
//! bound, the stack-distance sweep against simulation, CSV/SogouQ/access-log traces, a
//! logged job in a workspace, and bad input → exit 2 naming file:line or the flag.

mod common;

use common::{exits_2_naming, ok_json, run, scratch, shared_data, write};

#[test]
fn sim_json_has_the_contract_fields() {
    let dir = scratch("contract");
    let t = write(&dir, "t.txt", b"a\nb\na\nc\na\nb\n");
    let v = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        &t,
        "--format",
        "lines",
        "--policy",
        "lru,fifo,opt,infinite",
        "--size",
        "2",
        "--json",
    ]));
    assert_eq!(v["requests"], 6);
    assert_eq!(v["distinct"], 3);
    assert!(v["elapsed_s"].as_f64().is_some() && v["requests_per_s"].as_f64().is_some());
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        for k in [
            "policy",
            "size",
            "hits",
            "misses",
            "hit_ratio",
            "miss_ratio",
            "byte_miss_ratio",
        ] {
            assert!(r.get(k).is_some(), "{k} missing in {r}");
        }
    }
    // a b a c a b with 2 slots: LRU hits a twice (requests 3 and 5).
    assert_eq!(results[0]["policy"], "lru");
    assert_eq!(
        (results[0]["hits"].as_u64(), results[0]["misses"].as_u64()),
        (Some(2), Some(4))
    );
    assert_eq!(results[3]["policy"], "infinite");
    assert_eq!(results[3]["misses"], 3);
}

#[test]
fn cloudphysics_miss_ratios_equal_libcachesim_to_4_decimals() {
    let (Some(trace), Some(refp)) = (
        shared_data("cache/cloudphysics/cloudPhysicsIO.txt"),
        shared_data("references/cache_reference_miss_ratios.json"),
    ) else {
        return;
    };
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(refp).unwrap()).unwrap();
    let reference = &reference["cloudPhysicsIO.txt"];
    let names = [
        ("LRU", "lru"),
        ("FIFO", "fifo"),
        ("LFU", "lfu"),
        ("Clock", "clock"),
        ("ARC", "arc"),
        ("S3FIFO", "s3fifo"),
        ("Sieve", "sieve"),
        ("TwoQ", "2q"),
    ];
    let policy = names.map(|n| n.1).join(",") + ",opt";
    let v = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        trace.to_str().unwrap(),
        "--policy",
        &policy,
        "--size",
        "100,1000,5000,10000,20000",
        "--json",
    ]));
    assert_eq!(v["requests"], reference["n_req"]);
    assert_eq!(v["distinct"], reference["n_distinct"]);
    let results = v["results"].as_array().unwrap();
    let mut checked = 0;
    for size in [100, 1000, 5000, 10000, 20000] {
        let key = format!("size={size} objects");
        let at = |p: &str| {
            results
                .iter()
                .find(|r| r["policy"] == p && r["size"] == size)
                .unwrap()["miss_ratio"]
                .as_f64()
                .unwrap()
        };
        for (theirs, ours) in names {
            let want = reference[&key][theirs].as_f64().unwrap();
            let got = at(ours);
            assert!(
                (got - want).abs() < 0.5e-4 + 1e-12,
                "{ours} at {size}: {got:.6} vs libCacheSim {want}"
            );
            assert!(at("opt") <= got, "OPT above {ours} at {size}");
            checked += 1;
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn sweep_lru_by_stack_distance_equals_simulation_at_every_size() {
    let g = "zipf:alpha=0.9,objects=3000,requests=40000,seed=3";
    let sizes = "1,2,3,5,8,13,21,34,55,89,144,233,377,610,987,1597,2584,4181";
    let sweep = ok_json(&run(&[
        "cache",
        "sweep",
        "--generate",
        g,
        "--policy",
        "lru",
        "--size",
        sizes,
        "--warmup",
        "full",
        "--json",
    ]));
    let sim = ok_json(&run(&[
        "cache",
        "sim",
        "--generate",
        g,
        "--policy",
        "lru",
        "--size",
        sizes,
        "--warmup",
        "full",
        "--json",
    ]));
    let (a, b) = (
        sweep["results"].as_array().unwrap(),
        sim["results"].as_array().unwrap(),
    );
    assert_eq!(a.len(), 18);
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x["method"], "stack-distance");
        assert_eq!(
            (&x["size"], &x["hits"], &x["misses"]),
            (&y["size"], &y["hits"], &y["misses"])
        );
    }
    assert_eq!(sweep["book_table_9_2"].as_array().unwrap().len(), 6);
}

#[test]
fn csv_bytes_and_warmup() {
    let dir = scratch("csv");
    let t = write(
        &dir,
        "t.csv",
        b"time,op,size,lbn\n1,r,100,7\n2,r,300,8\n3,r,100,7\n4,r,50,9\n5,r,100,7\n",
    );
    let v = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        &t,
        "--format",
        "csv",
        "--key-column",
        "4",
        "--size-column",
        "3",
        "--policy",
        "lru",
        "--size",
        "400",
        "--bytes",
        "--json",
    ]));
    // 7(100) 8(300) hit 7; 9(50) evicts 8 (LRU) to fit; hit 7.
    let r = &v["results"][0];
    assert_eq!(
        (r["hits"].as_u64(), v["requests"].as_u64()),
        (Some(2), Some(5))
    );
    assert!((r["byte_miss_ratio"].as_f64().unwrap() - 450.0 / 650.0).abs() < 1e-12);
    let w = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        &t,
        "--format",
        "csv",
        "--key-column",
        "4",
        "--policy",
        "lru",
        "--size",
        "1",
        "--warmup",
        "2",
        "--json",
    ]));
    assert_eq!(w["results"][0]["requests_counted"], 3);
}

#[test]
fn sogouq_reads_the_query_field_in_gb18030_too() {
    let dir = scratch("sogouq");
    let text = "00:00:01\t1\t[天网]\t1 1\ta.cn/\n00:00:02\t2\t[北大]\t2 1\tb.cn/\n00:00:03\t1\t[天网]\t11 2\tc.cn/\n";
    let (gb, _, _) = encoding_rs::GB18030.encode(text);
    for (name, bytes) in [
        ("u.txt", text.as_bytes().to_vec()),
        ("g.txt", gb.into_owned()),
    ] {
        let t = write(&dir, name, &bytes);
        let v = ok_json(&run(&[
            "cache", "sim", "--trace", &t, "--format", "sogouq", "--policy", "lru", "--size", "10",
            "--json",
        ]));
        assert_eq!(
            (v["requests"].as_u64(), v["distinct"].as_u64()),
            (Some(3), Some(2)),
            "{name}"
        );
        assert_eq!(v["results"][0]["hits"], 1);
        let p = ok_json(&run(&[
            "cache",
            "sim",
            "--trace",
            &t,
            "--format",
            "sogouq",
            "--first-page-only",
            "--policy",
            "lru",
            "--size",
            "10",
            "--json",
        ]));
        assert_eq!(p["requests"], 2);
    }
}

/// One GB18030 SogouQ log with a bad line: the cache lab reads it through the query-log lab's
/// reader, so both see the same requests (the query-log lab's stream replayed as a plain trace
/// hits exactly where the log does), and the bad line is reported by its number.
#[test]
fn a_sogouq_log_gives_both_labs_the_same_stream() {
    let dir = scratch("both-labs");
    let text = "00:00:01\tu1\t[天网 搜索]\t12 3\ta.cn/\n00:00:02\tu2\t[北大]\t1 1\tb.cn/\n\
                not a log line\n00:00:03\tu3\t[ＱＱ]\t2 1\tc.cn/\n00:00:04\tu1\t[天网 搜索]\t1 1\td.cn/\n\
                00:00:05\tu4\t[qq]\t1 1\te.cn/\n00:00:06\tu2\t[北大]\t3 1\tf.cn/\n";
    let (gb, _, _) = encoding_rs::GB18030.encode(text);
    let log = write(&dir, "gb.log", &gb);
    for (key, flag) in [("query", None), ("query+page", Some("--key-with-page"))] {
        let ids = dir.join(format!("ids-{key}.txt")).display().to_string();
        let q = ok_json(&run(&[
            "querylog", "stream", &log, "--key", key, "--out", &ids, "--json",
        ]));
        assert_eq!(q["bad_lines"]["first"][0]["line"], 3, "{q}");
        let mut args = vec![
            "cache", "sim", "--trace", &log, "--format", "sogouq", "--policy", "lru,fifo",
            "--size", "1,2", "--json",
        ];
        args.extend(flag);
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(err.contains(&format!("{log}:3: ")), "{err}");
        let c = ok_json(&o);
        assert_eq!(c["bad_lines"]["count"], 1, "{c}");
        assert_eq!(c["bad_lines"]["first"][0]["line"], 3, "{c}");
        assert_eq!(c["requests"], q["requests"], "{key}");
        assert_eq!(c["distinct"], q["distinct_objects"], "{key}");
        // 6 requests; ＱＱ and qq are one query, 北大 on pages 1 and 1, 天网 搜索 on 2 and 1.
        let distinct = if key == "query" { 3 } else { 4 };
        assert_eq!(
            (c["requests"].as_u64(), c["distinct"].as_u64()),
            (Some(6), Some(distinct))
        );
        let s = ok_json(&run(&[
            "cache", "sim", "--trace", &ids, "--policy", "lru,fifo", "--size", "1,2", "--json",
        ]));
        assert_eq!(s["requests"], c["requests"]);
        for i in 0..4 {
            assert_eq!(
                s["results"][i]["hits"], c["results"][i]["hits"],
                "{key} run {i}"
            );
        }
    }
}

#[test]
fn access_log_io_and_page_views() {
    let dir = scratch("access");
    let log = write(
        &dir,
        "access.log",
        b"# term type offset length\n7 0 0 5000\n7 1 5000 32768\n9 0 40000 100\n7 0 0 5000\n",
    );
    let out = dir.join("page.csv");
    let v = ok_json(&run(&[
        "cache",
        "trace",
        "--access-log",
        &log,
        "--view",
        "page",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["requests"], 2 + 9 + 1 + 2);
    let io = ok_json(&run(&[
        "cache",
        "sim",
        "--access-log",
        &log,
        "--view",
        "io",
        "--policy",
        "gd-size,lru",
        "--size",
        "64k",
        "--bytes",
        "--json",
    ]));
    assert_eq!(
        (io["requests"].as_u64(), io["distinct"].as_u64()),
        (Some(4), Some(3))
    );
    let back = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        out.to_str().unwrap(),
        "--format",
        "csv",
        "--size-column",
        "2",
        "--policy",
        "lru",
        "--size",
        "100",
        "--json",
    ]));
    assert_eq!(back["requests"], 14);
    exits_2_naming(
        &[
            "cache",
            "trace",
            "--index",
            "/tmp",
            "--queries",
            &log,
            "--out",
            "x",
        ],
        "no index",
    );
}

#[test]
fn a_workspace_logs_the_run_as_a_job() {
    let dir = scratch("ws");
    let ws = dir.join("w.tianwang");
    let v = ok_json(&run(&[
        "--workspace",
        ws.to_str().unwrap(),
        "cache",
        "sim",
        "--generate",
        "zipf:objects=500,requests=5000",
        "--policy",
        "lru,lfu-decay",
        "--size",
        "50",
        "--json",
    ]));
    assert_eq!(v["requests"], 5000);
    let jobs = run(&["--workspace", ws.to_str().unwrap(), "jobs", "--json"]);
    let text = String::from_utf8_lossy(&jobs.stdout);
    assert!(text.contains("cache-sim"), "{text}");
    // A cache run's summary in the Jobs panel names every field in both languages.
    assert_eq!(common::result_fields_are_named(&ws), 1);
}

#[test]
fn bad_input_exits_2_naming_the_file_line_or_flag() {
    let dir = scratch("bad");
    let csv = write(&dir, "bad.csv", b"key,size\na,10\nb,ten\n");
    exits_2_naming(
        &[
            "cache",
            "sim",
            "--trace",
            "/nonexistent/trace.txt",
            "--json",
        ],
        "/nonexistent/trace.txt",
    );
    exits_2_naming(
        &[
            "cache",
            "sim",
            "--trace",
            &csv,
            "--format",
            "csv",
            "--size-column",
            "2",
            "--json",
        ],
        &format!("{csv}:3"),
    );
    let ok = write(&dir, "ok.txt", b"a\nb\n");
    exits_2_naming(&["cache", "sim", "--trace", &ok, "--size", "0"], "--size");
    exits_2_naming(
        &["cache", "sim", "--trace", &ok, "--policy", "lru,nonsense"],
        "--policy",
    );
    exits_2_naming(
        &["cache", "sim", "--trace", &ok, "--warmup", "soon"],
        "--warmup",
    );
    exits_2_naming(
        &["cache", "sim", "--generate", "zipf:alpha=x"],
        "--generate",
    );
    let log = write(&dir, "a.log", b"1 0 0 10\n1 0 zero 10\n");
    exits_2_naming(
        &[
            "cache",
            "trace",
            "--access-log",
            &log,
            "--out",
            dir.join("o").to_str().unwrap(),
        ],
        &format!("{log}:2"),
    );
}

#[test]
fn cloudphysics_lru_stack_curve_equals_simulation_and_opt_is_the_floor() {
    let Some(trace) = shared_data("cache/cloudphysics/cloudPhysicsIO.txt") else {
        return;
    };
    let t = trace.to_str().unwrap();
    let sweep = ok_json(&run(&[
        "cache", "sweep", "--trace", t, "--policy", "lru", "--points", "30", "--min", "1", "--json",
    ]));
    let sizes: Vec<String> = sweep["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["size"].to_string())
        .collect();
    assert!(sizes.len() >= 25, "{sizes:?}");
    let sim = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        t,
        "--policy",
        "lru",
        "--size",
        &sizes.join(","),
        "--json",
    ]));
    for (x, y) in sweep["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(sim["results"].as_array().unwrap())
    {
        assert_eq!((&x["size"], &x["hits"]), (&y["size"], &y["hits"]));
    }
    let all = "fifo,lru,clock,lfu,lfu-perfect,lfu-decay,slru,2q,arc,lirs,s3fifo,sieve,gdsf,gd-size,opt,random,infinite";
    let v = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        t,
        "--policy",
        all,
        "--size",
        "100,1000,5000,10000,20000",
        "--json",
    ]));
    let results = v["results"].as_array().unwrap();
    for size in [100, 1000, 5000, 10000, 20000] {
        let at = |p: &str| {
            results
                .iter()
                .find(|r| r["policy"] == p && r["size"] == size)
                .unwrap()["misses"]
                .as_u64()
                .unwrap()
        };
        for p in all.split(',').filter(|p| *p != "infinite") {
            assert!(at("opt") <= at(p), "OPT above {p} at {size}");
        }
        assert_eq!(at("infinite"), 48_974);
    }
}

#[test]
fn a_stored_query_log_is_a_trace_equal_to_its_file() {
    let d = scratch("stored");
    let ws = d.join("w.tianwang").display().to_string();
    let log = d.join("g.log").display().to_string();
    let o = run(&[
        "querylog", "generate", "--lines", "20000", "--seed", "5", "--format", "sogouq", "--out",
        &log,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    ok_json(&run(&[
        "querylog",
        "import",
        &log,
        "--workspace",
        &ws,
        "--json",
    ]));
    let stored = ok_json(&run(&[
        "--workspace",
        &ws,
        "cache",
        "sim",
        "--log",
        "1",
        "--policy",
        "lru,fifo",
        "--size",
        "500",
        "--json",
    ]));
    let file = ok_json(&run(&[
        "cache", "sim", "--trace", &log, "--format", "sogouq", "--policy", "lru,fifo", "--size",
        "500", "--json",
    ]));
    assert_eq!(stored["requests"], file["requests"]);
    assert_eq!(stored["distinct"], file["distinct"]);
    assert_eq!(stored["results"][0]["hits"], file["results"][0]["hits"]);
    exits_2_naming(
        &[
            "cache", "sim", "--log", "1", "--policy", "lru", "--size", "10",
        ],
        "--workspace",
    );
}
