//! The whole engine through the real binary (issue 25): `tianwang build --sample` on a new
//! workspace (every stage done, the sample web crawled over loopback, an index), the search that
//! folds near-duplicates against the sample web's truth, the workspace's own query log read by
//! the query-log lab, the result cache replay agreeing with the cache lab's simulation, a second
//! build that redoes nothing, a re-crawl after which only what changed is redone, and categories
//! from a stored model reaching the results.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{ok_json, path_str, run, run_in, run_ws, scratch, write};
use serde_json::Value;
use tianwang::engine::sample::server::{SampleServer, ServeOptions};

/// The stages of a build's JSON as (name, status).
fn stages(v: &Value) -> Vec<(String, String)> {
    v["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn stage<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no stage {name} in {v}"))
}

/// Host + path of a URL: pages are matched to the truth whatever port they were served on.
fn key(url: &str) -> String {
    let u = url::Url::parse(url).unwrap();
    format!("{}{}", u.host_str().unwrap(), u.path())
}

/// The sample web's exact / near / mirror groups (closed transitively), by host + path.
fn truth_groups() -> HashMap<String, String> {
    let t = ok_json(&run(&["sample", "truth"]));
    let mut parent: HashMap<String, String> = HashMap::new();
    fn find(p: &mut HashMap<String, String>, x: &str) -> String {
        let mut x = x.to_string();
        while let Some(up) = p.get(&x).cloned() {
            if up == x {
                break;
            }
            x = up;
        }
        x
    }
    for r in t["relations"].as_array().unwrap() {
        if !matches!(r["kind"].as_str(), Some("exact" | "near" | "mirror")) {
            continue;
        }
        let (a, b) = (key(r["a"].as_str().unwrap()), key(r["b"].as_str().unwrap()));
        for x in [&a, &b] {
            parent.entry(x.clone()).or_insert_with(|| x.clone());
        }
        let (ra, rb) = (find(&mut parent, &a), find(&mut parent, &b));
        if ra != rb {
            parent.insert(ra, rb);
        }
    }
    let keys: Vec<String> = parent.keys().cloned().collect();
    keys.into_iter()
        .map(|k| {
            let r = find(&mut parent, &k);
            (k, r)
        })
        .collect()
}

/// The workspace's own query log's id, from `querylog list`.
fn own_log(ws: &Path) -> (i64, i64) {
    let logs = ok_json(&run_ws(ws, &["querylog", "list", "--json"]));
    let own = logs
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["source"] == "workspace:queries")
        .unwrap_or_else(|| panic!("no own log in {logs}"));
    (
        own["id"].as_i64().unwrap(),
        own["records"].as_i64().unwrap(),
    )
}

#[test]
fn the_whole_engine_in_one_build_then_only_what_changed() {
    let dir = scratch("engine");
    let ws = dir.join("w.tianwang");
    let b = ok_json(&run_ws(&ws, &["build", "--sample", "--json"]));
    let five = ["crawl", "clean", "dedup", "index", "pagerank"];
    assert_eq!(
        stages(&b),
        five.iter()
            .map(|n| (n.to_string(), "done".to_string()))
            .collect::<Vec<_>>(),
        "{b}"
    );
    assert!(b["pages"].as_u64().unwrap() >= 300, "{b}");
    assert!(b["clusters"].as_u64().unwrap() >= 1, "{b}");
    assert!(b["indexed_docs"].as_u64().unwrap() >= 300, "{b}");
    assert!(b["terms"].as_u64().unwrap() > 1000, "{b}");
    assert!(b["unique"].as_u64().unwrap() < b["pages"].as_u64().unwrap());
    for s in b["stages"].as_array().unwrap() {
        assert!(s["seconds"].as_f64().unwrap() > 0.0, "{s}");
        assert!(
            s["in"].as_u64().unwrap() > 0 && s["out"].as_u64().unwrap() > 0,
            "{s}"
        );
    }
    // Every stage is its own run in the experiment log, with its time.
    let log = ok_json(&run_ws(&ws, &["jobs", "--json"]));
    let kinds: Vec<&str> = log["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["kind"].as_str().unwrap())
        .collect();
    for k in [
        "build",
        "crawl",
        "clean-pages",
        "dedup-pages",
        "index-build",
        "pagerank",
    ] {
        assert!(kinds.contains(&k), "{k} not in {kinds:?}");
    }

    // A second build right after: nothing to redo, and it says so.
    let again = ok_json(&run_ws(&ws, &["build", "--sample", "--json"]));
    for (name, status) in stages(&again) {
        assert_eq!(status, "up-to-date", "{name}: {again}");
    }
    assert_eq!(again["indexed_docs"], b["indexed_docs"]);

    // The search folds: no two of the top 10 in one exact / near / mirror group of the truth.
    let truth = truth_groups();
    let r = ok_json(&run_ws(&ws, &["search", "2026", "--json"]));
    let hits = r["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 10, "{r}");
    let mut seen = HashMap::new();
    for h in hits {
        let k = key(h["url"].as_str().unwrap());
        let g = truth.get(&k).cloned().unwrap_or(k.clone());
        if let Some(other) = seen.insert(g, k.clone()) {
            panic!("{k} and {other} are one page of the truth, both in the top 10");
        }
    }
    assert!(
        hits.iter()
            .any(|h| !h["similar"].as_array().unwrap().is_empty()),
        "no hit carries similar pages: {r}"
    );
    assert!(r["folded"].as_u64().unwrap() > 0);
    // Folding off: every matching page on its own, nothing similar.
    let flat = ok_json(&run_ws(&ws, &["search", "2026", "--no-fold", "--json"]));
    assert_eq!(flat["total_hits"], flat["matched"]);
    assert!(
        flat["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["similar"].as_array().unwrap().is_empty())
    );
    // A mirror page is among the similar pages of its original.
    let all = ok_json(&run_ws(
        &ws,
        &["search", "2026", "--top", "100", "--no-log", "--json"],
    ));
    assert!(
        all["hits"].as_array().unwrap().iter().any(|h| h["similar"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u.as_str().unwrap().contains("huaxia-mirror"))),
        "{all}"
    );

    // The two logged searches are the workspace's own query log (--no-log ones are not).
    let (id, records) = own_log(&ws);
    assert_eq!(records, 2, "two searches were logged");
    let stats = ok_json(&run_ws(
        &ws,
        &["querylog", "stats", "--log", &id.to_string(), "--json"],
    ));
    assert_eq!(stats["requests"], 2, "{stats}");
    assert_eq!(stats["distinct_queries"], 1, "{stats}");

    // The result cache on the real service hits where the cache lab's LRU hits.
    let queries = [
        "2026",
        "马拉松",
        "教育",
        "2026",
        "学生",
        "北京",
        "马拉松",
        "2026",
    ]
    .repeat(3);
    let qfile = write(&dir, "queries.txt", queries.join("\n"));
    let rep = ok_json(&run_ws(
        &ws,
        &["search", "--replay", &qfile, "--cache", "lru:3", "--json"],
    ));
    let sim = ok_json(&run(&[
        "cache", "sim", "--trace", &qfile, "--policy", "lru", "--size", "3", "--json",
    ]));
    assert_eq!(rep["queries"], 24, "{rep}");
    assert_eq!(rep["hits"], sim["results"][0]["hits"], "{rep}\n{sim}");
    assert_eq!(rep["hits"], rep["sim_hits"]);
    assert!(rep["hits"].as_u64().unwrap() > 0);
    for k in ["hit_ratio", "queries_per_s", "p50_ms", "p99_ms"] {
        assert!(rep[k].as_f64().is_some(), "{k}: {rep}");
    }
    assert_eq!(
        (rep["policy"].as_str(), rep["size"].as_u64()),
        (Some("lru"), Some(3))
    );
    // The own log as the stream, both ways.
    let from_log = ok_json(&run_ws(
        &ws,
        &[
            "search",
            "--replay",
            "--log",
            &id.to_string(),
            "--cache",
            "fifo:1",
            "--json",
        ],
    ));
    let sim_log = ok_json(&run_ws(
        &ws,
        &[
            "cache",
            "sim",
            "--log",
            &id.to_string(),
            "--policy",
            "fifo",
            "--size",
            "1",
            "--json",
        ],
    ));
    assert_eq!(from_log["hits"], sim_log["results"][0]["hits"]);
    assert_eq!(from_log["hits"], 1, "the same query twice: {from_log}");
    assert_eq!(own_log(&ws).1, 2, "a replay is not logged");

    // A re-crawl of the updated edition: only the changed snapshots are cleaned again.
    let port = {
        let u = all["hits"][0]["url"].as_str().unwrap();
        url::Url::parse(u).unwrap().port().unwrap()
    };
    let server = SampleServer::start(ServeOptions {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        changed: true,
        ..ServeOptions::default()
    })
    .unwrap();
    let mut args: Vec<String> = vec!["crawl".into(), "--json".into()];
    for s in &server.web().truth.seeds {
        args.extend(["--seed".to_string(), s.clone()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let crawl = ok_json(&run_ws(&ws, &args));
    server.stop();
    assert!(crawl["not_modified"].as_u64().unwrap() > 100, "{crawl}");
    let stored = crawl["stored"].as_u64().unwrap();
    assert!(stored > 0, "{crawl}");
    let third = ok_json(&run_ws(&ws, &["build", "--sample", "--json"]));
    assert_eq!(stage(&third, "crawl")["status"], "up-to-date", "{third}");
    let clean = stage(&third, "clean");
    assert_eq!(clean["status"], "done", "{third}");
    assert_eq!(
        clean["in"].as_u64().unwrap(),
        stored,
        "only the new snapshots: {third}"
    );
    for s in ["dedup", "index"] {
        assert_eq!(stage(&third, s)["status"], "done", "{s}: {third}");
    }

    // A stored model's categories reach the results; the filter keeps one category.
    ok_json(&run_ws(
        &ws,
        &[
            "classify",
            "--sample-web",
            "--model",
            "nb",
            "--save",
            "nb-web",
            "--json",
        ],
    ));
    let fourth = ok_json(&run_ws(
        &ws,
        &["build", "--sample", "--classify", "nb-web", "--json"],
    ));
    assert_eq!(stage(&fourth, "classify")["status"], "done", "{fourth}");
    assert_eq!(stage(&fourth, "index")["status"], "up-to-date", "{fourth}");
    assert!(fourth["classified"].as_u64().unwrap() >= 300);
    let r = ok_json(&run_ws(&ws, &["search", "马拉松", "--no-log", "--json"]));
    assert!(
        r["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["category"].is_string()),
        "{r}"
    );
    let sport = ok_json(&run_ws(
        &ws,
        &[
            "search",
            "马拉松",
            "--category",
            "体育",
            "--no-log",
            "--json",
        ],
    ));
    let hits = sport["hits"].as_array().unwrap();
    assert!(!hits.is_empty(), "{sport}");
    assert!(hits.iter().all(|h| h["category"] == "体育"), "{sport}");
    // Every run of the builds (crawl, clean, dedup, index, PageRank, classify) reads in the
    // Jobs panel with named fields.
    assert!(common::result_fields_are_named(&ws) >= 10);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_build_and_replay_input_exits_2_naming_it() {
    let dir = scratch("engine-bad");
    let ws = dir.join("w.tianwang");
    let o = run_ws(&ws, &["build", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--sample"));
    let o = run_ws(&ws, &["build", "--seed", "ftp://x/", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--seed"));
    let o = run_ws(&ws, &["build", "--sample", "--classify", "no-such-model"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--classify"));
    let q = write(&dir, "q.txt", "天网\n");
    for (args, flag) in [
        (vec!["search", "--replay", q.as_str()], "--cache"),
        (
            vec!["search", "--replay", q.as_str(), "--cache", "lru"],
            "--cache",
        ),
        (
            vec!["search", "--replay", q.as_str(), "--cache", "opt:3"],
            "--cache",
        ),
        (vec!["search", "--replay", "--cache", "lru:3"], "--replay"),
    ] {
        let o = run_ws(&ws, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    let _ = path_str(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A user who filled the default workspace (no `--workspace`, as `tianwang build --sample`
/// does) reads it the same way: link analysis, dedup, the query service, its log and its
/// replay find that workspace; before there is one, the messages say how to make it.
#[test]
fn the_default_workspace_serves_links_dedup_and_search() {
    let dir = scratch("engine-default");
    let o = run_in(&dir, &["search", "新闻"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--index") && err.contains("build --sample"),
        "{err}"
    );
    for (args, flag) in [
        (&["rank", "pagerank"][..], "--graph"),
        (&["dedup"][..], "--dir"),
    ] {
        let o = run_in(&dir, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(flag) && err.contains("build --sample"),
            "{err}"
        );
    }
    ok_json(&run_in(&dir, &["sample", "load", "--json"]));
    let ws = dir.join("workspace.tianwang");
    assert!(ws.is_file(), "sample load fills the default workspace");
    let g = ok_json(&run_in(&dir, &["rank", "pagerank", "--top", "3", "--json"]));
    assert!(g["nodes"].as_u64().unwrap_or(0) > 100, "{}", g["nodes"]);
    let d = ok_json(&run_in(&dir, &["dedup", "--json"]));
    assert!(d["docs"].as_u64().unwrap_or(0) > 100, "{}", d["docs"]);
    ok_json(&run_in(
        &dir,
        &["--workspace", path_str(&ws), "index", "build", "--json"],
    ));
    let v = ok_json(&run_in(&dir, &["search", "新闻", "--json"]));
    assert!(v["total_hits"].as_u64().unwrap_or(0) > 0, "{v}");
    assert_eq!(
        own_log(&ws).1,
        1,
        "the query is in the default workspace's log"
    );
    let q = write(&dir, "q.txt", "新闻\n新闻\n");
    let r = ok_json(&run_in(
        &dir,
        &[
            "search",
            "--replay",
            q.as_str(),
            "--cache",
            "lru:4",
            "--json",
        ],
    ));
    assert_eq!(r["queries"], 2, "{r}");
    assert_eq!(r["hits"], 1, "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build after `sample load` has no crawling to do, and reports the pages the workspace
/// holds (the pages every later stage read), not none: the summary line read "0 pages" before.
#[test]
fn a_build_after_sample_load_reports_the_loaded_pages() {
    let dir = scratch("engine-loaded");
    let loaded = ok_json(&run_in(&dir, &["sample", "load", "--json"]));
    let ws = dir.join("workspace.tianwang");
    let b = ok_json(&run_ws(&ws, &["build", "--sample", "--json"]));
    let crawl = stage(&b, "crawl");
    assert_eq!(crawl["status"], "up-to-date", "{b}");
    let pages = b["pages"].as_u64().unwrap_or(0);
    assert!(pages >= 300, "{b}");
    assert_eq!(crawl["counts"]["stored_pages"].as_u64(), Some(pages), "{b}");
    assert_eq!(b["cleaned"].as_u64(), Some(pages), "{b} after {loaded}");
    assert!(
        crawl["counts"].get("fetched").is_none(),
        "nothing was fetched: {b}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
