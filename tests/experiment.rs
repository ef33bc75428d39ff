//! `tianwang experiment list | run` on a fresh install: with no data sets a run that needs one
//! exits 2 naming `tianwang data fetch SET`; with the real data (CI imports it, see `.ci/run`)
//! `--all` runs every experiment and at least 20 rows put the book's number beside ours.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{ok_json, scratch, shared_data};

/// The binary as a new user runs it: in `home`, HOME there, no data folder set.
fn fresh(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tianwang"))
        .current_dir(home)
        .env("HOME", home)
        .env_remove("TIANWANG_DATA")
        .env_remove("TIANWANG_DATA_DIR")
        .env_remove("XDG_DATA_HOME")
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run tianwang")
}

#[test]
fn a_fresh_install_lists_every_experiment_and_names_the_missing_set() {
    let home = scratch("exp-home");
    let v = ok_json(&fresh(&home, &["experiment", "list", "--json"]));
    let list = v["experiments"].as_array().expect("experiments");
    assert!(list.len() >= 20, "{v}");
    for e in list {
        for k in ["id", "title", "chapter", "book_ref", "needs", "runnable"] {
            assert!(!e[k].is_null(), "{k} in {e}");
        }
    }
    let t112 = list
        .iter()
        .find(|e| e["id"] == "table-11-2")
        .expect("table-11-2");
    assert_eq!(t112["runnable"], false);

    let o = fresh(&home, &["experiment", "run", "table-11-2", "--json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("tianwang data fetch thucnews_titles"), "{err}");
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json runs");
    assert_eq!(out["runs"][0]["id"], "table-11-2");
    assert!(
        out["runs"][0]["error"]
            .as_str()
            .unwrap()
            .contains("data fetch")
    );

    // Data-free experiments run on a fresh install.
    let v = ok_json(&fresh(&home, &["experiment", "run", "table-8-2", "--json"]));
    let rows = v["runs"][0]["rows"].as_array().unwrap();
    assert!(
        rows.iter()
            .all(|r| r["ok"] == true && r["book"].is_number()),
        "{v}"
    );

    let o = fresh(&home, &["experiment", "run", "no-such-table"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_all_on_the_real_data_puts_the_book_beside_ours() {
    let Some(data) = shared_data("") else { return };
    let o = Command::new(env!("CARGO_BIN_EXE_tianwang"))
        .env("NO_COLOR", "1")
        .args([
            "--data",
            data.to_str().unwrap(),
            "experiment",
            "run",
            "--all",
            "--json",
        ])
        .output()
        .expect("run tianwang");
    let v = ok_json(&o);
    let runs = v["runs"].as_array().unwrap();
    let listed = ok_json(
        &Command::new(env!("CARGO_BIN_EXE_tianwang"))
            .args([
                "--data",
                data.to_str().unwrap(),
                "experiment",
                "list",
                "--json",
            ])
            .output()
            .unwrap(),
    );
    assert_eq!(runs.len(), listed["experiments"].as_array().unwrap().len());
    let mut with_book = 0;
    let mut experiments_with_book = 0;
    let mut unsaid = Vec::new();
    for r in runs {
        assert!(r["error"].is_null(), "{r}");
        let rows = r["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{r}");
        let n = rows.iter().filter(|x| x["book"].is_number()).count();
        with_book += n;
        experiments_with_book += usize::from(n > 0);
        for x in rows {
            for k in ["name", "ours", "book", "unit", "tolerance", "ok"] {
                assert!(x.get(k).is_some(), "{k} in {x}");
            }
            unsaid.extend(unsaid_texts(x));
        }
    }
    assert!(unsaid.is_empty(), "rows the UI cannot say: {unsaid:#?}");
    assert!(with_book >= 20, "{with_book} rows with the book's number");
    assert!(
        experiments_with_book >= 20,
        "{experiments_with_book} experiments with the book's number beside ours"
    );
}

/// A string table as key → template.
fn table(text: &str) -> std::collections::HashMap<&str, &str> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect()
}

/// The texts of row `x` (its name, note, unit) whose label (`key`, `args`) either string table
/// lacks, or whose English template with the arguments is not the row's English.
fn unsaid_texts(x: &serde_json::Value) -> Vec<String> {
    let en = table(include_str!("../assets/i18n/en.txt"));
    let zh = table(include_str!("../assets/i18n/zh.txt"));
    let fill = |t: &str, args: &serde_json::Value| {
        let mut s = t.to_string();
        for (i, a) in args.as_array().into_iter().flatten().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a.as_str().unwrap_or("?"));
        }
        s
    };
    let mut out = Vec::new();
    let mut check = |label: &serde_json::Value, english: &serde_json::Value| {
        let key = label["key"].as_str().unwrap_or("");
        match (en.get(key), zh.contains_key(key)) {
            (Some(t), true) if fill(t, &label["args"]) == english.as_str().unwrap_or("") => {}
            _ => out.push(format!("{english} ({key})")),
        }
    };
    check(x, &x["name"]);
    if x.get("note").is_some_and(|n| !n.is_null()) {
        check(&x["note_label"], &x["note"]);
    }
    if x.get("unit_label").is_some_and(|u| !u.is_null()) {
        check(&x["unit_label"], &x["unit"]);
    }
    out
}
