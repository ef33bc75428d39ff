//! The crawler against the sample web, compared with its ground truth; the CLI's JSON; and a
//! crawl killed with SIGKILL then resumed, losing nothing and fetching nothing twice.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tianwang::engine::crawl::{Crawl, CrawlParams, Scope};
use tianwang::engine::jobs::{JobRunner, JobState};
use tianwang::engine::sample::server::{SampleServer, ServeOptions};
use tianwang::engine::store::Workspace;
use tianwang::engine::urls::canonicalize;

use common::{bin, run};

fn sql_strings(ws: &Path, sql: &str) -> Vec<String> {
    let c = rusqlite::Connection::open(ws).unwrap();
    let mut st = c.prepare(sql).unwrap();
    st.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn canon(u: &str) -> String {
    canonicalize(&url::Url::parse(u).unwrap()).to_string()
}

#[test]
fn crawling_the_sample_web_matches_its_ground_truth() {
    let server = SampleServer::start(ServeOptions {
        latency: Duration::from_millis(15),
        ..Default::default()
    })
    .unwrap();
    let truth = server.web().truth.clone();
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("crawl.tianwang");
    Workspace::open_or_create(&ws).unwrap();
    let job = Crawl::new(CrawlParams {
        seeds: truth.seeds.clone(),
        scope: Scope::Suffix(".localhost".into()),
        workers: 16,
        per_host: 2,
        ..Default::default()
    })
    .unwrap();
    let runner = JobRunner::new(ws.clone(), std::sync::Arc::new(|| {}));
    let JobState::Done(result) = runner.spawn(Box::new(job)).wait() else {
        panic!("crawl failed")
    };

    // Politeness: never more than 2 requests in flight to one host (the server counts).
    for (host, max) in server.stats().max_in_flight_all() {
        assert!(max <= 2, "{host}: {max} in flight");
    }
    assert!(
        server
            .stats()
            .max_in_flight_all()
            .iter()
            .any(|(_, m)| *m == 2),
        "the per-host limit was never reached: the test would not catch a violation"
    );

    let pages: HashSet<String> = sql_strings(&ws, "SELECT url FROM pages")
        .into_iter()
        .collect();
    let filtered: HashMap<String, String> = {
        let c = rusqlite::Connection::open(&ws).unwrap();
        let mut st = c
            .prepare("SELECT url, why FROM frontier WHERE state = 'filtered'")
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    // Every page of the truth is stored, unless the book's URL filter rejected it (and said so).
    let mut missing = Vec::new();
    for p in &truth.pages {
        let u = canon(&p.url);
        if !pages.contains(&u) && !filtered.contains_key(&u) {
            missing.push(u);
        }
    }
    assert!(missing.is_empty(), "not crawled: {missing:?}");
    assert!(filtered.values().all(|why| why.starts_with("filtered")));
    assert!(filtered.len() <= 4, "{filtered:?}");

    // robots.txt: disallowed URLs never fetched, and recorded as blocked.
    let fetched: HashSet<String> = sql_strings(&ws, "SELECT url FROM fetches")
        .into_iter()
        .collect();
    let robots: HashSet<String> =
        sql_strings(&ws, "SELECT url FROM frontier WHERE state = 'robots'")
            .into_iter()
            .collect();
    for u in &truth.robots_disallowed {
        assert!(!fetched.contains(&canon(u)), "fetched disallowed {u}");
    }
    assert!(robots.contains(&canon(
        &truth.robots_disallowed[truth.robots_disallowed.len() - 1]
    )));

    // Broken links: recorded with their 404.
    let not_found: HashSet<String> = sql_strings(&ws, "SELECT url FROM pages WHERE status = 404")
        .into_iter()
        .collect();
    for u in &truth.broken_links {
        assert!(not_found.contains(&canon(u)), "404 not recorded for {u}");
    }
    // The redirect chain: the fetch log has the start and where it ended.
    let red = &truth.redirects[0];
    let ends = sql_strings(
        &ws,
        &format!(
            "SELECT final_url FROM fetches WHERE url = '{}'",
            canon(&red.from).replace('\'', "''")
        ),
    );
    assert_eq!(ends, vec![canon(&red.hops.last().unwrap().1)]);

    // The mirror's pages are replicas of the portal's, not stored twice.
    let replicas: HashSet<String> =
        sql_strings(&ws, "SELECT url FROM pages WHERE replica_of IS NOT NULL")
            .into_iter()
            .collect();
    let mirrors: Vec<_> = truth
        .relations
        .iter()
        .filter(|r| r.kind == "mirror")
        .collect();
    let mut mirror_pairs = 0;
    for r in &mirrors {
        let (a, b) = (canon(&r.a), canon(&r.b));
        if filtered.contains_key(&a) {
            continue;
        }
        assert!(
            replicas.contains(&a) ^ replicas.contains(&b),
            "{a} / {b}: exactly one is the replica"
        );
        mirror_pairs += 1;
    }
    assert!(mirror_pairs >= 100);
    // Exact reprints are replicas too, wherever their bytes are identical: never twice.
    let stored_md5 = sql_strings(&ws, "SELECT md5 FROM snapshots");
    let unique: HashSet<&String> = stored_md5.iter().collect();
    assert_eq!(
        unique.len(),
        stored_md5.len(),
        "the same content stored twice"
    );

    // Snapshots are byte-exact: the server gzipped the body, the snapshot keeps it gzipped,
    // and it inflates to exactly what the server holds (here the Big5 front page).
    let seed = &truth.seeds[3];
    let raw: Vec<u8> = rusqlite::Connection::open(&ws)
        .unwrap()
        .query_row(
            "SELECT s.raw FROM snapshots s JOIN pages p ON p.id = s.page_id WHERE p.url = ?1",
            [canon(seed)],
            |r| r.get(0),
        )
        .unwrap();
    let request: String = rusqlite::Connection::open(&ws)
        .unwrap()
        .query_row(
            "SELECT s.request FROM snapshots s JOIN pages p ON p.id = s.page_id WHERE p.url = ?1",
            [canon(seed)],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        request.starts_with("GET / HTTP/1.1\r\nHost: www.wenhua.localhost"),
        "{request}"
    );
    assert!(request.contains("Accept-Encoding: gzip"));
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    assert!(
        head.starts_with("http/1.1 200") && head.contains("content-encoding: gzip"),
        "{head}"
    );
    let mut inflated = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&raw[split..]),
        &mut inflated,
    )
    .unwrap();
    let u = url::Url::parse(seed).unwrap();
    assert_eq!(
        inflated,
        server.web().get(u.host_str().unwrap(), "/").unwrap().body
    );

    assert_eq!(
        result["replicas"].as_u64().unwrap() as usize,
        replicas.len()
    );
    assert!(result["fetched"].as_u64().unwrap() >= 420);
    for k in [
        "fetched",
        "stored",
        "replicas",
        "errors",
        "robots_blocked",
        "elapsed_s",
        "pages_per_s",
    ] {
        assert!(!result[k].is_null(), "{k}");
    }
}

#[cfg(unix)]
#[test]
fn sigkill_then_resume_loses_nothing_and_fetches_nothing_twice() {
    let server = SampleServer::start(ServeOptions {
        latency: Duration::from_millis(40),
        ..Default::default()
    })
    .unwrap();
    let truth = server.web().truth.clone();
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("k.tianwang");
    let w = ws.to_str().unwrap();
    let mut args: Vec<String> = vec![
        "crawl".into(),
        "--workspace".into(),
        w.into(),
        "--scope".into(),
        ".localhost".into(),
    ];
    for s in &truth.seeds {
        args.extend(["--seed".into(), s.clone()]);
    }
    let mut child = bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it mid-crawl, once some pages are committed.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "crawl never got going");
        if ws.exists()
            && let Ok(c) = rusqlite::Connection::open(&ws)
            && c.query_row("SELECT count(*) FROM fetches", [], |r| r.get::<_, i64>(0))
                .unwrap_or(0)
                >= 60
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before: HashSet<String> = sql_strings(&ws, "SELECT url FROM pages")
        .into_iter()
        .collect();
    assert!(!before.is_empty());
    let left: i64 = rusqlite::Connection::open(&ws)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM frontier WHERE state = 'queued'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(left > 0, "the crawl had finished before the kill");

    let out = run(&[
        "crawl",
        "--workspace",
        w,
        "--resume",
        "--scope",
        ".localhost",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after: HashSet<String> = sql_strings(&ws, "SELECT url FROM pages")
        .into_iter()
        .collect();
    assert!(before.is_subset(&after), "pages lost");
    // Nothing fetched twice: one committed fetch per URL.
    let urls = sql_strings(&ws, "SELECT url FROM fetches");
    let distinct: HashSet<&String> = urls.iter().collect();
    assert_eq!(distinct.len(), urls.len(), "a URL was fetched twice");
    // And the whole web is there.
    assert!(after.len() >= 420, "{} pages after resume", after.len());
    let log = run(&["jobs", "--workspace", w, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    let statuses: Vec<&str> = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["done", "interrupted"]);
}

#[test]
fn cli_crawl_and_pages_print_json() {
    let server = SampleServer::start(ServeOptions::default()).unwrap();
    let seed = server.web().truth.seeds[3].clone(); // the Big5 site
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("c.tianwang");
    let w = ws.to_str().unwrap();
    let out = run(&[
        "crawl",
        "--workspace",
        w,
        "--seed",
        &seed,
        "--max-pages",
        "5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["fetched"], 5);
    let out = run(&["pages", "--workspace", w, "--json"]);
    let pages: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pages = pages.as_array().unwrap();
    assert_eq!(pages.len(), 5);
    for k in ["url", "status", "md5", "fetched_at"] {
        assert!(!pages[0][k].is_null(), "{k}");
    }
    // The distributed-crawl simulation replays this crawl's own fetch log.
    let out = run(&["capacity", "simulate", "--workspace", w, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sim: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(sim["fetches"].as_u64().unwrap() >= 5, "{sim}");
    assert_eq!(sim["hosts"], 1);
    assert_eq!(sim["loads"].as_array().unwrap().len(), 4, "n = 2, 4, 8, 16");
    // Export both formats, import them elsewhere, export again: byte-identical.
    for (format, flag) in [("tianwang", "--tianwang"), ("warc", "--warc")] {
        let a = d.path().join(format!("a.{format}"));
        let b = d.path().join(format!("b.{format}"));
        let other = d.path().join(format!("{format}.tianwang"));
        let out = run(&[
            "export",
            "--workspace",
            w,
            "--format",
            format,
            "--out",
            a.to_str().unwrap(),
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["records"], 5);
        let out = run(&[
            "import",
            "--workspace",
            other.to_str().unwrap(),
            flag,
            a.to_str().unwrap(),
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run(&[
            "export",
            "--workspace",
            other.to_str().unwrap(),
            "--format",
            format,
            "--out",
            b.to_str().unwrap(),
        ]);
        assert!(out.status.success());
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "{format}"
        );
    }
    // The book's URL filter rejects a URL with `&`; it can be edited or switched off.
    let list = format!("{}list?cat=sports&page=2", server.web().truth.seeds[0]);
    let fresh = d.path().join("f.tianwang");
    let f = fresh.to_str().unwrap();
    let out = run(&[
        "crawl",
        "--workspace",
        f,
        "--seed",
        &list,
        "--max-depth",
        "0",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["fetched"].as_u64(), v["filtered"].as_u64()),
        (Some(0), Some(1)),
        "{v}"
    );
    let out = run(&[
        "crawl",
        "--workspace",
        f,
        "--seed",
        &list,
        "--max-depth",
        "0",
        "--no-url-filter",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["fetched"].as_u64(), Some(1), "{v}");
    // Bad input: exit 2 with the parameter named.
    let out = run(&["import", "--workspace", w, "--tianwang", "/etc/hostname"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["crawl", "--workspace", w, "--seed", "not a url"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seed"));
    let out = run(&[
        "crawl",
        "--workspace",
        w,
        "--seed",
        &seed,
        "--strategy",
        "sideways",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// A re-crawl asks conditionally (ETag / Last-Modified): unchanged pages answer 304 and keep
/// one snapshot; pages of the updated edition get a second snapshot — history per URL.
#[test]
fn recrawl_is_conditional_and_builds_snapshot_history() {
    let server = SampleServer::start(ServeOptions::default()).unwrap();
    let truth = server.web().truth.clone();
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("re.tianwang");
    Workspace::open_or_create(&ws).unwrap();
    let runner = JobRunner::new(ws.clone(), std::sync::Arc::new(|| {}));
    let crawl = || {
        let job = Crawl::new(CrawlParams {
            seeds: truth.seeds.clone(),
            scope: Scope::Suffix(".localhost".into()),
            workers: 16,
            ..Default::default()
        })
        .unwrap();
        match runner.spawn(Box::new(job)).wait() {
            JobState::Done(v) => v,
            other => panic!("{other:?}"),
        }
    };
    let first = crawl();
    assert_eq!(first["not_modified"], 0);
    let stored_before = first["stored"].as_u64().unwrap();

    server.set_changed(true);
    let second = crawl();
    let changed: HashSet<String> = server
        .web()
        .truth
        .changed
        .iter()
        .map(|u| canon(u))
        .collect();
    assert_eq!(
        second["stored"].as_u64().unwrap() as usize,
        changed.len(),
        "{second}"
    );
    assert!(
        second["not_modified"].as_u64().unwrap() + changed.len() as u64 >= stored_before,
        "{second}"
    );
    let history: HashSet<String> = sql_strings(
        &ws,
        "SELECT p.url FROM pages p WHERE (SELECT count(*) FROM snapshots s WHERE s.page_id = p.id) = 2",
    )
    .into_iter()
    .collect();
    assert_eq!(history, changed);
}

/// Pause holds the crawl (nothing new is fetched); unpausing lets it finish.
#[test]
fn pause_holds_and_unpause_finishes() {
    let server = SampleServer::start(ServeOptions {
        latency: Duration::from_millis(20),
        ..Default::default()
    })
    .unwrap();
    let truth = server.web().truth.clone();
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("p.tianwang");
    Workspace::open_or_create(&ws).unwrap();
    let runner = JobRunner::new(ws.clone(), std::sync::Arc::new(|| {}));
    let job = Crawl::new(CrawlParams {
        seeds: truth.seeds.clone(),
        scope: Scope::Suffix(".localhost".into()),
        ..Default::default()
    })
    .unwrap();
    let h = runner.spawn(Box::new(job));
    let stats = server.stats();
    let requests = || stats.requests.load(std::sync::atomic::Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_secs(20);
    while requests() < 30 {
        assert!(Instant::now() < deadline, "crawl never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    h.set_paused(true);
    std::thread::sleep(Duration::from_millis(300)); // in-flight requests finish
    let held = requests();
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!(requests(), held, "requests went on while paused");
    assert!(!h.is_finished());
    h.set_paused(false);
    let JobState::Done(v) = h.wait() else {
        panic!("crawl failed")
    };
    assert!(v["fetched"].as_u64().unwrap() >= 420, "{v}");
}

/// `bench crawl` runs the crawl and its ceiling in one process and prints both, with the CPU
/// each took per page (the loopback ceiling is bound by the CPU, so that ratio bounds the
/// crawl's share of it).
#[test]
fn bench_crawl_prints_the_ceiling_and_the_cpu_per_page() {
    let o = run(&[
        "bench",
        "crawl",
        "--pages",
        "3000",
        "--workers",
        "4",
        "--json",
    ]);
    let v = common::ok_json(&o);
    assert_eq!(v["stored"], 3000, "{v}");
    let f = |k: &str| v[k].as_f64().unwrap_or(-1.0);
    assert!(
        f("pages_per_s") > 0.0 && f("ceiling_pages_per_s") > 0.0,
        "{v}"
    );
    let ratio = f("pages_per_s") / f("ceiling_pages_per_s");
    assert!((f("vs_ceiling") - ratio).abs() < 1e-9, "{v}");
    let (crawl, ceiling) = (
        v["cpu_ms_per_page"]["crawl"].as_f64().unwrap_or(-1.0),
        v["cpu_ms_per_page"]["ceiling"].as_f64().unwrap_or(-1.0),
    );
    // Parsing, the frontier and SQLite cost CPU the plain GETs do not.
    assert!(crawl > ceiling && ceiling > 0.0, "{v}");
    let bound = f("cpu_bound_vs_ceiling");
    assert!((bound - ceiling / crawl).abs() < 1e-9 && bound < 1.0, "{v}");
    // The same figures as the benches' rows and ratio.
    assert_eq!(v["rows"][0]["pages_per_s"], v["pages_per_s"], "{v}");
    assert_eq!(v["rows"][1]["pages_per_s"], v["ceiling_pages_per_s"], "{v}");
    assert_eq!(v["ratio"]["vs_ceiling"], v["vs_ceiling"], "{v}");
}

/// Over a shaped link (`--link-mbit`) the link, not the CPU, is the ceiling: neither the
/// crawl nor the plain GETs pass the link's own page rate, and the GETs come near it.
#[test]
fn bench_crawl_over_a_slow_link_is_bound_by_the_link() {
    let o = run(&[
        "bench",
        "crawl",
        "--pages",
        "300",
        "--workers",
        "4",
        "--link-mbit",
        "8",
        "--json",
    ]);
    let v = common::ok_json(&o);
    let f = |k: &str| v[k].as_f64().unwrap_or(-1.0);
    let link = f("link_pages_per_s");
    assert!(link > 0.0 && f("link_mbit") == 8.0, "{v}");
    assert!(f("ceiling_pages_per_s") <= link * 1.1, "{v}");
    assert!(f("pages_per_s") <= link * 1.1, "{v}");
    assert!(f("ceiling_pages_per_s") >= link * 0.5, "{v}");
    assert!(v["cpu_bound_vs_ceiling"].is_null(), "{v}");
    let bad = run(&["bench", "crawl", "--link-mbit", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--link-mbit"));
}
