//! The search engine's CLI contract (issue 15): `index build`, `search`, `rank eval --index`
//! on real files and a real workspace; WARC files indexed as the workspace indexes its pages;
//! bad input; kill -9 during a build; the THUCNews titles P@10 target.
mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{
    bin, exits_2_naming, ok_json, path_str, run, run_ws, sample_warc, sample_workspace, scratch,
};

/// `tianwang index build --tsv TSV --out OUT EXTRA… --json`, successful.
fn build(tsv: &Path, out: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "index",
        "build",
        "--tsv",
        path_str(tsv),
        "--out",
        path_str(out),
    ];
    args.extend_from_slice(extra);
    args.push("--json");
    ok_json(&run(&args))
}

/// A TSV of `n` lines made by `line(i)`.
fn tsv_of(dir: &Path, n: usize, line: impl Fn(usize) -> String) -> PathBuf {
    let p = dir.join("t.tsv");
    std::fs::write(
        &p,
        (0..n)
            .map(|i| format!("{}\t0\n", line(i)))
            .collect::<String>(),
    )
    .unwrap();
    p
}

const TSV: &str = "北京大学图书馆开放时间\t1\n清华大学图书馆\t1\n北京的天气很好\t2\n搜索引擎原理与技术\t3\n北京大学 搜索引擎 天网\t3\n";

#[test]
fn build_and_search_follow_the_contract() {
    let d = scratch("contract");
    let tsv = d.join("t.tsv");
    std::fs::write(&tsv, TSV).unwrap();
    let out = d.join("ix");
    let v = build(&tsv, &out, &[]);
    for k in [
        "docs",
        "terms",
        "postings",
        "bytes_by_codec",
        "elapsed_s",
        "docs_per_s",
    ] {
        assert!(v.get(k).is_some(), "missing {k}: {v}");
    }
    assert_eq!(v["docs"], 5);
    let codecs = v["bytes_by_codec"].as_object().unwrap();
    assert_eq!(codecs.len(), 7);
    assert_eq!(
        codecs["none"].as_u64().unwrap(),
        4 * v["postings"].as_u64().unwrap()
    );

    let r = ok_json(&run(&[
        "search",
        "北京大学",
        "--index",
        path_str(&out),
        "--explain",
        "--json",
    ]));
    for k in ["query", "terms", "total_hits", "hits", "elapsed_ms"] {
        assert!(r.get(k).is_some(), "missing {k}: {r}");
    }
    let hits = r["hits"].as_array().unwrap();
    // AND: both documents with 北京 and 大学; doc = TSV line number.
    let docs: Vec<&str> = hits.iter().map(|h| h["doc"].as_str().unwrap()).collect();
    assert_eq!(r["total_hits"], 2, "{r}");
    assert!(docs.contains(&"1") && docs.contains(&"5"), "{docs:?}");
    for h in hits {
        for k in ["doc", "title", "url", "score", "abstract", "explain"] {
            assert!(h.get(k).is_some(), "hit misses {k}: {h}");
        }
        // The score is the sum of its named parts.
        let parts = h["explain"]["parts"].as_array().unwrap();
        let sum: f64 = parts.iter().map(|p| p["value"].as_f64().unwrap()).sum();
        assert!((sum - h["score"].as_f64().unwrap()).abs() < 1e-9, "{h}");
        assert!(h["abstract"].as_str().unwrap().contains("北京"));
    }
    // Indexed as tantivy-jieba does (every token, case kept), 北京 still finds the same three.
    let all = d.join("all");
    build(&tsv, &all, &["--all-tokens", "--keep-stop-words"]);
    let r = ok_json(&run(&[
        "search",
        "北京",
        "--index",
        path_str(&all),
        "--json",
    ]));
    assert_eq!(r["total_hits"], 3, "{r}");
    // OR finds more; a phrase finds fewer.
    let or = ok_json(&run(&[
        "search",
        "北京 OR 清华",
        "--index",
        path_str(&out),
        "--json",
    ]));
    assert_eq!(or["total_hits"], 4, "{or}");
    let ph = ok_json(&run(&[
        "search",
        "\"北京大学图书馆\"",
        "--index",
        path_str(&out),
        "--json",
    ]));
    assert_eq!(ph["total_hits"], 1, "{ph}");
    // Every model answers, explained.
    for m in ["tfidf", "tianwang"] {
        let r = ok_json(&run(&[
            "search",
            "北京",
            "--index",
            path_str(&out),
            "--model",
            m,
            "--explain",
            "--json",
        ]));
        assert_eq!(r["total_hits"], 3, "{m}: {r}");
        assert!(r["hits"][0]["explain"]["parts"].as_array().unwrap().len() >= 2);
    }
}

#[test]
fn the_cache_lab_replays_queries_on_the_index_as_io_and_page_sequences() {
    let d = scratch("trace");
    let tsv = tsv_of(&d, 2000, |i| {
        format!(
            "北京 新闻 {} 体育 比赛 第{i}场",
            ["足球", "篮球", "排球"][i % 3]
        )
    });
    let out = d.join("ix");
    build(&tsv, &out, &[]);
    std::fs::write(
        d.join("q.txt"),
        "北京 足球\n篮球\n\"体育 比赛\"\n北京 足球\n",
    )
    .unwrap();
    let io = ok_json(&run(&[
        "cache",
        "trace",
        "--index",
        path_str(&out),
        "--queries",
        path_str(&d.join("q.txt")),
        "--view",
        "io",
        "--out",
        path_str(&d.join("io.csv")),
        "--json",
    ]));
    // 北京 足球 → 2 reads, 篮球 → 1, the phrase → 2 document reads + their position blocks,
    // 北京 足球 again → 2.
    assert!(io["accesses"].as_u64().unwrap() >= 9, "{io}");
    assert!(io["distinct"].as_u64().unwrap() < io["requests"].as_u64().unwrap());
    let page = ok_json(&run(&[
        "cache",
        "trace",
        "--index",
        path_str(&out),
        "--queries",
        path_str(&d.join("q.txt")),
        "--view",
        "page",
        "--page-size",
        "64",
        "--out",
        path_str(&d.join("page.csv")),
        "--json",
    ]));
    assert!(
        page["requests"].as_u64().unwrap() > io["requests"].as_u64().unwrap(),
        "{page}"
    );
    let sim = ok_json(&run(&[
        "cache",
        "sim",
        "--trace",
        path_str(&d.join("io.csv")),
        "--format",
        "csv",
        "--key-column",
        "1",
        "--size-column",
        "2",
        "--policy",
        "lru,infinite",
        "--size",
        "4",
        "--json",
    ]));
    assert_eq!(sim["requests"], io["requests"]);
    // The cache lab replays the index itself (the panel's one-click §8.6 experiment): the same
    // requests and hits as the trace written out.
    let direct = ok_json(&run(&[
        "cache",
        "sim",
        "--index",
        path_str(&out),
        "--index-queries",
        path_str(&d.join("q.txt")),
        "--view",
        "io",
        "--policy",
        "lru,infinite",
        "--size",
        "4",
        "--json",
    ]));
    assert_eq!(direct["requests"], sim["requests"]);
    for k in 0..2 {
        assert_eq!(direct["results"][k]["hits"], sim["results"][k]["hits"]);
        assert_eq!(direct["results"][k]["policy"], sim["results"][k]["policy"]);
    }
}

#[test]
fn every_codec_gives_the_same_answers() {
    let d = scratch("codecs");
    let tsv = tsv_of(&d, 300, |i| {
        format!(
            "文档{i} 北京 {} 搜索 {}",
            i % 7,
            if i % 3 == 0 { "大学" } else { "天网" }
        )
    });
    let mut answers = Vec::new();
    for c in [
        "none", "vbyte", "golomb", "rice", "gamma", "delta", "packed",
    ] {
        let out = d.join(c);
        ok_json(&run(&[
            "index",
            "build",
            "--tsv",
            path_str(&tsv),
            "--out",
            path_str(&out),
            "--codec",
            c,
            "--json",
        ]));
        let r = ok_json(&run(&[
            "search",
            "北京 大学",
            "--index",
            path_str(&out),
            "--top",
            "50",
            "--json",
        ]));
        let docs: Vec<String> = r["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["doc"].to_string())
            .collect();
        answers.push((c, r["total_hits"].clone(), docs));
    }
    assert_eq!(answers[0].1, 100);
    for a in &answers[1..] {
        assert_eq!(
            (&a.1, &a.2),
            (&answers[0].1, &answers[0].2),
            "{} differs",
            a.0
        );
    }
}

#[test]
fn a_small_budget_writes_runs_and_merges_them_to_the_same_index() {
    let d = scratch("runs");
    let tsv = tsv_of(&d, 4000, |i| {
        format!("第{i}篇 新闻 北京 体育 比赛 {} 结果", i % 97)
    });
    let big = build(&tsv, &d.join("a"), &[]);
    let small = build(&tsv, &d.join("b"), &["--memory-mb", "1"]);
    assert_eq!(big["runs"], 1);
    assert!(small["runs"].as_u64().unwrap() > 1, "{small}");
    for k in ["docs", "terms", "postings", "bytes_by_codec"] {
        assert_eq!(big[k], small[k], "{k}");
    }
    assert!(small["peak_buffer_bytes"].as_u64().unwrap() < 3 << 20);
}

#[test]
fn bad_input_exits_2_naming_the_flag() {
    let d = scratch("bad");
    let tsv = d.join("t.tsv");
    std::fs::write(&tsv, TSV).unwrap();
    let out = d.join("ix");
    let o = run(&[
        "index",
        "build",
        "--tsv",
        path_str(&tsv),
        "--out",
        path_str(&out),
        "--codec",
        "zip",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--codec"));
    let o = run(&["search", "北京", "--index", path_str(&d.join("none"))]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("no index"));
    build(&tsv, &out, &[]);
    for q in ["", "   ", "的"] {
        let o = run(&["search", q, "--index", path_str(&out)]);
        assert_eq!(o.status.code(), Some(2), "{q:?}");
    }
    let o = run(&["search", "北京", "--index", path_str(&out), "--b", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--b"));
    let o = run(&[
        "index",
        "build",
        "--tsv",
        path_str(&d.join("missing.tsv")),
        "--out",
        path_str(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(d.join("bad.tsv"), b"ok\t1\n\xff\xfe bad\t2\n").unwrap();
    let o = run(&[
        "index",
        "build",
        "--tsv",
        path_str(&d.join("bad.tsv")),
        "--out",
        path_str(&d.join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("bad.tsv:2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The failed build left the earlier index as it was.
    ok_json(&run(&[
        "search",
        "北京",
        "--index",
        path_str(&out),
        "--json",
    ]));
}

#[test]
fn kill_9_during_a_build_leaves_the_old_index_intact() {
    let d = scratch("kill");
    let small = d.join("small.tsv");
    std::fs::write(&small, TSV).unwrap();
    let out = d.join("ix");
    build(&small, &out, &[]);
    let before = ok_json(&run(&[
        "search",
        "北京",
        "--index",
        path_str(&out),
        "--json",
    ]));
    let big = d.join("big.tsv");
    let line = "北京大学计算机系网络实验室天网搜索引擎的索引建立过程与查询服务性能测试".repeat(4);
    let text: String = (0..60_000).map(|i| format!("{line}{i}\t0\n")).collect();
    std::fs::write(&big, text).unwrap();
    let mut child = bin()
        .args([
            "index",
            "build",
            "--tsv",
            path_str(&big),
            "--out",
            path_str(&out),
            "--memory-mb",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has written a run (mid-build).
    let t0 = std::time::Instant::now();
    let mut killed_mid_build = false;
    while t0.elapsed() < std::time::Duration::from_secs(120) {
        let has_run = std::fs::read_dir(&out).unwrap().flatten().any(|g| {
            std::fs::read_dir(g.path().join("runs")).is_ok_and(|mut r| r.next().is_some())
        });
        if has_run {
            child.kill().unwrap();
            killed_mid_build = true;
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.wait();
    assert!(killed_mid_build, "the build finished before a run appeared");
    let after = ok_json(&run(&[
        "search",
        "北京",
        "--index",
        path_str(&out),
        "--json",
    ]));
    assert_eq!(before["hits"], after["hits"]);
    // The next build clears the half-written generation and succeeds.
    build(&small, &out, &[]);
    let gens = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("gen-"))
        .count();
    assert_eq!(gens, 1);
}

#[test]
fn the_workspace_is_indexed_searched_and_goes_stale_after_a_recrawl() {
    let d = scratch("ws");
    let ws = sample_workspace(&d);
    let v = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "index",
        "build",
        "--json",
    ]));
    assert!(v["docs"].as_u64().unwrap() > 100, "{v}");
    let r = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "search",
        "北京",
        "--model",
        "tianwang",
        "--explain",
        "--json",
    ]));
    assert!(r["total_hits"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["stale"], false);
    let h = &r["hits"][0];
    assert!(h["url"].as_str().unwrap().starts_with("http://"), "{h}");
    assert!(h["doc"].as_str().unwrap().starts_with("http://"));
    let names: Vec<&str> = h["explain"]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"WB") && names.contains(&"WL") && names.contains(&"WU"));
    // Some page has links from other sites (LHN > 0), so WL separates pages.
    let pr = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "search",
        "北京",
        "--model",
        "tianwang",
        "--wl",
        "pagerank",
        "--json",
    ]));
    assert!(pr["total_hits"] == r["total_hits"]);
    // The build was logged.
    let jobs = ok_json(&run(&["--workspace", path_str(&ws), "jobs", "--json"]));
    assert!(jobs.to_string().contains("index-build"), "{jobs}");
    // A re-crawl stores a new snapshot of a page: the index is stale.
    let c = rusqlite::Connection::open(&ws).unwrap();
    c.execute(
        "INSERT INTO snapshots(page_id, fetched_at, status, raw)
         SELECT page_id, fetched_at, status, raw FROM snapshots ORDER BY id LIMIT 1",
        [],
    )
    .unwrap();
    drop(c);
    let r = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "search",
        "北京",
        "--json",
    ]));
    assert_eq!(r["stale"], true, "{}", r["stale"]);
}

/// An index's titles by document key (read back with the library's reader).
fn titles(dir: &Path) -> std::collections::BTreeMap<String, String> {
    let ix = tianwang::engine::index::reader::Index::open(dir).unwrap();
    ix.docs
        .iter()
        .map(|d| (d.key.clone(), d.title.clone()))
        .collect()
}

/// `index build --warc`: the sample web exported with `tianwang export --format warc` and
/// indexed into a fresh workspace gives one document per HTML page the workspace's own index
/// has, with the same titles (DocView's cleaning), and a page's title searched finds the page.
/// A copy cut mid-record, then the whole file gzipped: the cut is reported by file and offset,
/// the rest indexed, and each URL once (the gzipped copy's pages answer URLs already indexed
/// but the one cut). A missing file or a folder exits 2 naming it.
#[test]
fn warc_files_are_indexed_as_the_workspace_indexes_its_pages() {
    use std::io::Write as _;
    let d = scratch("warc");
    let (ws, plain) = sample_warc(&d);
    let own = ok_json(&run_ws(&ws, &["index", "build", "--json"]));
    let want = titles(&ws.with_extension("tianwang.index"));
    assert!(want.len() > 20, "the sample web has pages: {}", want.len());
    assert_eq!(own["docs"], want.len());
    // A title only one page has; its longest run of Chinese characters is the query.
    let mut count = std::collections::HashMap::new();
    for t in want.values() {
        *count.entry(t.as_str()).or_insert(0) += 1;
    }
    let han = |t: &str| -> String {
        t.split(|c: char| !('\u{4e00}'..='\u{9fff}').contains(&c))
            .max_by_key(|r| r.chars().count())
            .unwrap_or("")
            .to_string()
    };
    let (key, query) = want
        .iter()
        .filter(|(_, t)| count[t.as_str()] == 1)
        .map(|(k, t)| (k, han(t)))
        .max_by_key(|(_, q)| q.chars().count())
        .expect("a page with a title of its own");
    assert!(query.chars().count() >= 4, "{query}");
    let fresh = d.join("fresh.tianwang");
    let v = ok_json(&run_ws(
        &fresh,
        &["index", "build", "--warc", path_str(&plain), "--json"],
    ));
    assert_eq!(v["docs"], want.len(), "{v}");
    assert_eq!(v["skipped"], serde_json::json!([]), "{v}");
    assert_eq!(v["source"], "warc 1 files");
    assert_eq!(titles(&fresh.with_extension("tianwang.index")), want);
    let r = ok_json(&run_ws(
        &fresh,
        &["search", &query, "--no-fold", "--no-log", "--json"],
    ));
    let hits: Vec<&str> = r["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["doc"].as_str().unwrap())
        .collect();
    assert!(
        hits.contains(&key.as_str()),
        "{query:?} → {hits:?}, not {key}"
    );
    // Cut inside the last record, then the whole file gzipped.
    let bytes = std::fs::read(&plain).unwrap();
    let last = bytes.windows(9).rposition(|w| w == b"WARC/1.1\r").unwrap();
    let cut = d.join("cut.warc");
    std::fs::write(&cut, &bytes[..last + 300]).unwrap();
    let gz = d.join("web.warc.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&bytes).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let out = d.join("cut.index");
    let o = run(&[
        "index",
        "build",
        "--warc",
        path_str(&cut),
        path_str(&gz),
        "--out",
        path_str(&out),
        "--json",
    ]);
    let v = ok_json(&o);
    assert_eq!(v["docs"], want.len(), "{v}");
    let skipped: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let at = format!("{}: byte {last}: truncated", cut.display());
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].starts_with(&at), "{skipped:?}");
    assert!(skipped[1].contains("later responses"), "{skipped:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains(&at));
    assert_eq!(titles(&out), want);
    // Bad input: exit 2 naming the file; no index written.
    let bad = d.join("bad.index");
    for f in [&d.join("nope.warc"), &d] {
        let args = [
            "index",
            "build",
            "--warc",
            path_str(f),
            "--out",
            path_str(&bad),
        ];
        exits_2_naming(&args, path_str(f));
    }
    assert!(!bad.join("CURRENT").exists());
}

#[test]
fn thucnews_titles_bm25_reaches_p_at_10_of_0_58() {
    let data =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/classification/thucnews_titles");
    let d = scratch("thucnews");
    let out = d.join("dev.index");
    ok_json(&run(&[
        "index",
        "build",
        "--tsv",
        path_str(&data.join("dev.txt")),
        "--out",
        path_str(&out),
        "--json",
    ]));
    // Every 20th test title as a query; relevant = a dev title of the same class.
    let class_of = |p: &Path| -> Vec<(String, String)> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| {
                let (t, c) = l.rsplit_once('\t').unwrap();
                (t.to_string(), c.to_string())
            })
            .collect()
    };
    let dev = class_of(&data.join("dev.txt"));
    let test = class_of(&data.join("test.txt"));
    let (mut q, mut qrels) = (String::new(), String::new());
    for (i, (t, c)) in test.iter().enumerate().step_by(20) {
        q.push_str(&format!("{}\t{t}\n", i + 1));
        for (j, (_, dc)) in dev.iter().enumerate() {
            if dc == c {
                qrels.push_str(&format!("{}\t{}\t1\n", i + 1, j + 1));
            }
        }
    }
    std::fs::write(d.join("q.tsv"), q).unwrap();
    std::fs::write(d.join("qrels.tsv"), qrels).unwrap();
    let v = ok_json(&run(&[
        "rank",
        "eval",
        "--index",
        path_str(&out),
        "--queries",
        path_str(&d.join("q.tsv")),
        "--qrels",
        path_str(&d.join("qrels.tsv")),
        "--config",
        "model=bm25,k1=1.5,b=0.75,op=or",
        "--config",
        "model=tfidf,op=or",
        "--json",
    ]));
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs[0]["queries"], 500);
    let p10 = runs[0]["mean"]["p_at"].as_f64().unwrap();
    assert!(p10 >= 0.58, "BM25 P@10 {p10}");
    assert!(v["comparison"]["t_test"].is_object(), "{}", v["comparison"]);
}
