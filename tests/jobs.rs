//! The experiment log from the command line: runs compared side by side, and re-run.

mod common;

use common::{ok_json, run_ws};

#[test]
fn compare_two_runs_then_rerun_one() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    ok_json(&run_ws(&ws, &["calibrate", "--seconds", "0.5", "--json"]));
    ok_json(&run_ws(&ws, &["calibrate", "--seconds", "0.75", "--json"]));

    let c = ok_json(&run_ws(&ws, &["jobs", "--compare", "1", "2", "--json"]));
    assert_eq!(c["kind"], "calibrate");
    assert_eq!(c["runs"][0]["id"], 1);
    assert_eq!(c["runs"][1]["id"], 2);
    assert_eq!(c["params"].as_array().unwrap().len(), 1);
    assert_eq!(c["params"][0]["name"], "seconds");
    assert_eq!(c["params"][0]["values"], serde_json::json!([0.5, 0.75]));
    let fig = c["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "md5_pages_per_s")
        .expect("every result number is a figure");
    let (a, b) = (
        fig["values"][0].as_f64().unwrap(),
        fig["values"][1].as_f64().unwrap(),
    );
    assert!((fig["change"][1].as_f64().unwrap() - (b - a)).abs() < 1e-6);
    assert_eq!(fig["change"][0], 0.0);

    let r = ok_json(&run_ws(&ws, &["jobs", "--rerun", "1", "--json"]));
    assert_eq!(r["rerun_of"], 1);
    assert_eq!(r["id"], 3);
    assert_eq!(common::result_fields_are_named(&ws), 3);
    let log = ok_json(&run_ws(&ws, &["jobs", "--json"]));
    let third = log["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == 3)
        .unwrap()
        .clone();
    assert_eq!(third["params"]["seconds"], 0.5, "same parameters as #1");
    assert_eq!(third["status"], "done");
}

#[test]
fn bad_comparisons_exit_2_naming_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    ok_json(&run_ws(&ws, &["calibrate", "--seconds", "0.5", "--json"]));
    ok_json(&run_ws(&ws, &["sample", "load", "--json"]));
    for args in [
        vec!["jobs", "--compare", "1", "2"],
        vec!["jobs", "--compare", "1", "9"],
        vec!["jobs", "--rerun", "9"],
    ] {
        let out = run_ws(&ws, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--compare") || err.contains("--rerun"),
            "{err}"
        );
    }
    // One id is not a comparison (clap refuses: exit 2 too).
    assert_eq!(
        run_ws(&ws, &["jobs", "--compare", "1"]).status.code(),
        Some(2)
    );
}

#[test]
fn tables_leave_as_csv_with_a_bom() {
    use tianwang::engine::export::table::parse_csv;
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    ok_json(&run_ws(&ws, &["sample", "load", "--json"]));
    ok_json(&run_ws(&ws, &["calibrate", "--seconds", "0.5", "--json"]));
    ok_json(&run_ws(&ws, &["calibrate", "--seconds", "0.5", "--json"]));
    let read = |name: &str| {
        let bytes = std::fs::read(d.path().join(name)).unwrap();
        assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]), "{name}: BOM");
        parse_csv(std::str::from_utf8(&bytes).unwrap())
    };

    let log = d.path().join("log.csv");
    ok_json(&run_ws(
        &ws,
        &["jobs", "--csv", log.to_str().unwrap(), "--json"],
    ));
    let rows = read("log.csv");
    assert_eq!(rows[0][..3], ["id", "kind", "status"]);
    assert_eq!(rows.len(), 4, "header + three runs");

    let cmp = d.path().join("cmp.csv");
    ok_json(&run_ws(
        &ws,
        &[
            "jobs",
            "--compare",
            "2",
            "3",
            "--csv",
            cmp.to_str().unwrap(),
            "--json",
        ],
    ));
    let rows = read("cmp.csv");
    assert_eq!(rows[0], ["figure", "#2", "#3", "Δ #3"]);
    assert!(rows.iter().any(|r| r[0] == "md5_pages_per_s"));

    let pages = d.path().join("pages.csv");
    ok_json(&run_ws(
        &ws,
        &["pages", "--csv", pages.to_str().unwrap(), "--json"],
    ));
    let rows = read("pages.csv");
    assert_eq!(rows[0][0], "url");
    assert!(rows.len() > 400);

    let eval = d.path().join("eval.csv");
    ok_json(&run_ws(
        &ws,
        &[
            "clean",
            "--sample",
            "--csv",
            eval.to_str().unwrap(),
            "--json",
        ],
    ));
    let rows = read("eval.csv");
    assert_eq!(rows[0][..5], ["page", "location", "p", "r", "f1"]);
    assert_eq!(rows.len(), 435, "header + the 434 sample pages");
}
