//! `tianwang rank …` through the real binary: the CLI contract, hollins against networkx's
//! vector and the HITS reference, evaluation files, and bad input → exit 2 with file:line.

mod common;

use std::collections::HashMap;

use common::{ok_json, run, scratch, shared_data, write};

#[test]
fn pagerank_contract_on_a_small_graph() {
    let d = scratch("contract");
    let g = write(
        &d,
        "g.dat",
        "3 4 1\n1 http://a/\n2 http://b/\n3 http://c/\n1 2\n2 3\n3 1\n1 3\n",
    );
    let v = ok_json(&run(&["rank", "pagerank", "--graph", &g, "--json"]));
    assert_eq!(v["nodes"], 3);
    assert_eq!(v["converged"], true);
    assert!(v["iterations"].as_u64().unwrap() > 1);
    let s = v["scores"].as_array().unwrap();
    assert_eq!(s.len(), 3);
    let sum: f64 = s.iter().map(|r| r["score"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    // sorted descending; node 3 has two in-links: x3 = 0.05 + 0.85 (x1/2 + x2)
    assert_eq!(s[0]["node"], "3");
    assert_eq!(s[0]["url"], "http://c/");
    for w in s.windows(2) {
        assert!(w[0]["score"].as_f64() >= w[1]["score"].as_f64());
    }
    let v = ok_json(&run(&[
        "rank", "pagerank", "--graph", &g, "--top", "1", "--json",
    ]));
    assert_eq!(v["scores"].as_array().unwrap().len(), 1);
    let v = ok_json(&run(&["rank", "hits", "--graph", &g, "--json"]));
    let s = &v["scores"][0];
    assert!(s.get("hub").is_some() && s.get("authority").is_some() && s.get("score").is_none());
}

#[test]
fn book_form_with_ignore_sums_below_n() {
    let d = scratch("book");
    let g = write(&d, "e.txt", "# a -> b, b dangling\na b\n");
    let v = ok_json(&run(&[
        "rank",
        "pagerank",
        "--graph",
        &g,
        "--form",
        "book",
        "--dangling",
        "ignore",
        "--json",
    ]));
    // W_a = 0.15, W_b = 0.15 + 0.85 * 0.15
    assert_eq!(v["scores"][0]["node"], "b");
    assert!((v["scores"][0]["score"].as_f64().unwrap() - 0.2775).abs() < 1e-12);
    assert!((v["sum"].as_f64().unwrap() - 0.4275).abs() < 1e-12);
}

#[test]
fn hollins_pagerank_matches_networkx() {
    let (Some(g), Some(r)) = (
        shared_data("graph/hollins/hollins.dat"),
        shared_data("graph/hollins/hollins_pagerank_networkx_a0.85.json"),
    ) else {
        return;
    };
    let reference: HashMap<String, f64> =
        serde_json::from_str(&std::fs::read_to_string(r).unwrap()).unwrap();
    let v = ok_json(&run(&[
        "rank",
        "pagerank",
        "--graph",
        g.to_str().unwrap(),
        "--damping",
        "0.85",
        "--dangling",
        "uniform",
        "--tol",
        "1e-10",
        "--json",
    ]));
    assert_eq!(v["nodes"], 6012);
    assert_eq!(v["converged"], true);
    let s = v["scores"].as_array().unwrap();
    assert_eq!(s.len(), 6012);
    let l1: f64 = s
        .iter()
        .map(|r| (r["score"].as_f64().unwrap() - reference[r["node"].as_str().unwrap()]).abs())
        .sum();
    assert!(l1 <= 1e-6, "L1 to networkx = {l1}");
    assert_eq!(s[0]["url"], "http://www.hollins.edu/");
}

#[test]
fn hollins_hits_top10_equal_reference() {
    let (Some(g), Some(r)) = (
        shared_data("graph/hollins/hollins.dat"),
        shared_data("references/hollins_reference.json"),
    ) else {
        return;
    };
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(r).unwrap()).unwrap();
    let v = ok_json(&run(&[
        "rank",
        "hits",
        "--graph",
        g.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["converged"], true);
    let rows = v["scores"].as_array().unwrap();
    for (key, field) in [
        ("hits_top10_authority", "authority"),
        ("hits_top10_hub", "hub"),
    ] {
        let mut ours: Vec<(&str, f64)> = rows
            .iter()
            .map(|r| (r["node"].as_str().unwrap(), r[field].as_f64().unwrap()))
            .collect();
        ours.sort_by(|a, b| b.1.total_cmp(&a.1));
        let want = reference[key].as_array().unwrap();
        assert_eq!(want.len(), 10);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(
                ours[i].0,
                w[0].as_i64().unwrap().to_string(),
                "{key} rank {}",
                i + 1
            );
            assert!(
                (ours[i].1 - w[1].as_f64().unwrap()).abs() < 1e-7,
                "{key} value {}",
                i + 1
            );
        }
    }
}

#[test]
fn malformed_graph_line_exits_2_with_file_and_line() {
    let d = scratch("bad");
    let g = write(&d, "bad.dat", "2 2 1\n1 http://a/\n2 http://b/\n1 2\n2 x\n");
    let o = run(&["rank", "pagerank", "--graph", &g, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{g}:5:")), "{err}");
    let e = write(&d, "bad.txt", "a b\nc d e\n");
    let o = run(&["rank", "hits", "--graph", &e]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("{e}:2:")));
    let o = run(&["rank", "pagerank", "--graph", &g, "--damping", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--damping"));
    let o = run(&["rank", "pagerank", "--graph", "/nonexistent/graph.dat"]);
    assert_eq!(o.status.code(), Some(2));
    // A workspace that does not exist is named (nothing is created for a read).
    let missing = d.join("missing.tianwang");
    let m = missing.to_str().unwrap();
    let o = run(&["rank", "pagerank", "--workspace", m, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.tianwang"));
    assert!(!missing.exists());
}

#[test]
fn eval_two_runs_with_t_test() {
    let d = scratch("eval");
    let qrels = write(
        &d,
        "qrels.txt",
        "1 0 a 1\n1 0 b 2\n2 0 c 1\n3 0 d 1\n3 0 e 1\n",
    );
    let ra = write(
        &d,
        "a.run",
        "1 Q0 a 1 3.0 A\n1 Q0 b 2 2.0 A\n2 Q0 c 1 1.0 A\n3 Q0 x 1 2.0 A\n3 Q0 d 2 1.0 A\n",
    );
    let rb = write(&d, "b.tsv", "1\tx\n1\ta\n2\tz\n3\td\n3\te\n");
    let v = ok_json(&run(&[
        "rank", "eval", "--run", &ra, "--run", &rb, "--qrels", &qrels, "--at", "2", "--metric",
        "ap", "--json",
    ]));
    let a = &v["runs"][0];
    assert_eq!(a["queries"], 3);
    // AP: q1 = 1, q2 = 1, q3 = (1/2)/2 = 0.25 → MAP 0.75
    assert!((a["mean"]["ap"].as_f64().unwrap() - 0.75).abs() < 1e-12);
    // P@2: q1 1, q2 0.5, q3 0.5
    assert!((a["mean"]["p_at"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // B: q1 AP = (1/2)/2 = 0.25, q2 0, q3 1 → wins for A: q1, q2; loss q3
    let c = &v["comparison"];
    assert_eq!(
        (c["wins"].as_u64(), c["losses"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(c["t_test"]["p_value"].as_f64().unwrap() > 0.05);
    assert_eq!(c["per_query"].as_array().unwrap().len(), 3);

    let bad = write(&d, "bad.qrels", "1 0 a 1\n1 0 b\n1 0 c 1 9 9\n");
    let o = run(&["rank", "eval", "--run", &ra, "--qrels", &bad, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("{bad}:2:")));
    let o = run(&["rank", "eval", "--run", &ra, "--qrels", &qrels, "--at", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--at"));
}

#[test]
fn explain_parts_add_up_and_personalize_and_diff() {
    let d = scratch("explain");
    let g = write(&d, "e.txt", "b a\nc a\nd a\na b\n");
    let v = ok_json(&run(&[
        "rank",
        "pagerank",
        "--graph",
        &g,
        "--explain",
        "--top",
        "1",
        "--json",
    ]));
    let e = &v["scores"][0]["explain"];
    let parts = e["teleport"].as_f64().unwrap()
        + e["from_dangling"].as_f64().unwrap()
        + e["from_links"].as_f64().unwrap();
    assert!((parts - v["scores"][0]["score"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(e["in_degree"], 3);
    let v = ok_json(&run(&[
        "rank",
        "pagerank",
        "--graph",
        &g,
        "--personalize",
        "a",
        "--json",
    ]));
    let c = v["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["node"] == "c")
        .unwrap();
    assert_eq!(c["score"].as_f64().unwrap(), 0.0);
    let o = run(&["rank", "pagerank", "--graph", &g, "--personalize", "zz"]);
    assert_eq!(o.status.code(), Some(2));

    let ra = write(&d, "a.tsv", "q\ta\nq\tb\nq\tc\n");
    let rb = write(&d, "b.tsv", "q\tc\nq\ta\nq\td\n");
    let v = ok_json(&run(&[
        "rank", "diff", "--run", &ra, "--run", &rb, "--json",
    ]));
    let moves: Vec<(String, String)> = v["queries"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["doc"].as_str().unwrap().to_string(),
                m["change"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [("c", "up"), ("a", "down"), ("d", "new"), ("b", "lost")]
        .iter()
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect();
    assert_eq!(moves, want);
}
