//! `tianwang capacity`: the book's capacity model from the command line, and the simulator's
//! refusal of a workspace without a crawl.

mod common;

use common::run;

#[test]
fn the_books_figures_and_ours() {
    let out = run(&["capacity", "calc", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fig = |k: &str| {
        v["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["key"] == k)
            .unwrap_or_else(|| panic!("{k}"))
            .clone()
    };
    // 100 gatherers, 500 ms per transaction round → the book's 2,160,000 pages a day [L1154].
    let day = fig("pages_per_day_node");
    assert_eq!(day["value"], 2_160_000.0);
    assert_eq!(day["book_value"], 2_160_000.0);
    // Twice the gatherers, twice the pages.
    let out = run(&["capacity", "calc", "--gatherers", "200", "--json"]);
    let v2: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let day2 = v2["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == "pages_per_day_node")
        .unwrap()["value"]
        .as_f64()
        .unwrap();
    assert!((day2 - 4_320_000.0).abs() < 1.0, "{day2}");
    let out = run(&["capacity", "calc", "--kb-bytes", "999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--kb-bytes"));
}

#[test]
fn simulating_a_workspace_without_a_crawl_says_so() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    let w = ws.to_str().unwrap();
    assert!(run(&["info", "--workspace", w]).status.success());
    let out = run(&["capacity", "simulate", "--workspace", w, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("crawl first"));
}
