//! `tianwang clean --aeb DIR` and `bench clean --aeb DIR` on a folder laid out as the
//! article-extraction benchmark (`html/NAME.html.gz`, `ground-truth.json`), built here: the
//! scored JSON and CSV of `clean --dir`, the check half, the installed set's absence said with
//! the command that installs it, and a damaged page named with exit 2. No network, no shared
//! data folder.

mod common;

use std::io::Write;
use std::path::Path;

use common::{ok_json, run_in};

/// `tianwang --workspace WS clean --aeb SET EXTRA…`, run in `dir`.
fn clean_aeb(dir: &Path, ws: &Path, set: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--workspace",
        ws.to_str().unwrap(),
        "clean",
        "--aeb",
        set.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

/// A news page: navigation, the article (`body` and a closing paragraph), a footer.
fn page(title: &str, body: &str) -> String {
    format!(
        "<html><head><title>{title} - Daily Planet</title></head><body>\
         <div class=nav><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></div>\
         <article><h1>{title}</h1><p>{body}</p><p>{MORE}</p></article>\
         <div class=footer>Copyright Daily Planet. All rights reserved. Contact us.</div>\
         </body></html>"
    )
}

const GOOD: &str = "0c5e";
const BAD: &str = "9a77";
const MORE: &str = "Work on the building starts next spring; the old reading rooms stay open \
    until the new library takes their books and their staff.";
const BODY: &str = "The city council voted on Tuesday to build a new library beside the river, \
    after three years of debate about its cost and the future of the old reading rooms.";

/// `dir` laid out as the set: a well-cleaned page in the tune half and a page whose truth is
/// unrelated text in the check half.
fn fixture(dir: &Path) {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    for (name, html) in [
        (GOOD, page("Library for the river bank", BODY)),
        (
            BAD,
            page(
                "Weather",
                "Sunny spells with a light breeze from the west in the afternoon.",
            ),
        ),
    ] {
        let f = std::fs::File::create(dir.join(format!("html/{name}.html.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::default());
        gz.write_all(html.as_bytes()).unwrap();
        gz.finish().unwrap();
    }
    let truth = serde_json::json!({
        GOOD: {"articleBody": format!("{BODY}\n{MORE}"), "url": "https://planet.example/library"},
        BAD: {"articleBody": "Parliament passed the budget after a long night of votes.",
              "url": "https://planet.example/weather"},
    });
    std::fs::write(dir.join("ground-truth.json"), truth.to_string()).unwrap();
}

#[test]
fn clean_aeb_scores_the_set_as_clean_dir_does() {
    let d = tempfile::tempdir().unwrap();
    let set = d.path().join("aeb");
    fixture(&set);
    let ws = d.path().join("w.tianwang");
    let csv = d.path().join("pages.csv");
    let v = ok_json(&clean_aeb(
        d.path(),
        &ws,
        &set,
        &["--csv", csv.to_str().unwrap(), "--json"],
    ));
    assert!(v["source"].as_str().unwrap().starts_with("aeb:"), "{v}");
    let pages = v["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2, "{v}");
    assert_eq!(v["body_pages"], 2);
    assert_eq!(v["errors"], 0);
    let f1 = |name: &str| {
        pages.iter().find(|p| p["name"] == name).unwrap()["f1"]
            .as_f64()
            .unwrap()
    };
    assert!(f1(GOOD) > 0.9, "{}", f1(GOOD));
    assert!(f1(BAD) < 0.3, "{}", f1(BAD));
    let macro_f1 = v["body"]["f1"].as_f64().unwrap();
    assert!((macro_f1 - (f1(GOOD) + f1(BAD)) / 2.0).abs() < 1e-9);
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(table.contains(GOOD) && table.contains(BAD), "{table}");

    // The check half: names starting 8–f only.
    let v = ok_json(&clean_aeb(
        d.path(),
        &ws,
        &set,
        &["--half", "check", "--json"],
    ));
    assert!(v["source"].as_str().unwrap().starts_with("aeb-check:"));
    let names: Vec<&str> = v["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, [BAD]);

    // Human output lists the worst page first.
    let o = clean_aeb(d.path(), &ws, &set, &[]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let worst = text.lines().nth(1).unwrap_or_default();
    assert!(worst.contains(BAD), "{text}");
}

#[test]
fn an_absent_set_or_a_damaged_page_exits_2_naming_it() {
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("data");
    std::fs::create_dir_all(&empty).unwrap();
    let ws = d.path().join("w.tianwang");
    let w = ws.to_str().unwrap();
    // Not installed in the data folder: the command that installs it.
    let o = run_in(
        d.path(),
        &[
            "--data",
            empty.to_str().unwrap(),
            "--workspace",
            w,
            "clean",
            "--aeb",
        ],
    );
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("tianwang data fetch aeb"), "{e}");
    let list = ok_json(&run_in(
        d.path(),
        &["--data", empty.to_str().unwrap(), "data", "list", "--json"],
    ));
    let aeb = list["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "aeb")
        .expect("aeb listed");
    assert_eq!(aeb["installed"], false);
    assert_eq!(aeb["files"].as_array().unwrap().len(), 183);

    // A page cut short.
    let set = d.path().join("aeb");
    fixture(&set);
    let f = set.join(format!("html/{BAD}.html.gz"));
    let bytes = std::fs::read(&f).unwrap();
    std::fs::write(&f, &bytes[..bytes.len() / 2]).unwrap();
    let o = clean_aeb(d.path(), &ws, &set, &[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(&format!("{BAD}.html.gz")) && e.contains("gunzip"),
        "{e}"
    );
    // The tune half does not read that page.
    let v = ok_json(&clean_aeb(
        d.path(),
        &ws,
        &set,
        &["--half", "tune", "--json"],
    ));
    assert_eq!(v["pages"].as_array().unwrap().len(), 1);
}

#[test]
fn bench_clean_scores_aeb_with_its_check_half_and_skips_it_when_absent() {
    let d = tempfile::tempdir().unwrap();
    let set = d.path().join("aeb");
    fixture(&set);
    let empty = d.path().join("data");
    std::fs::create_dir_all(&empty).unwrap();
    let o = run_in(
        d.path(),
        &[
            "--data",
            empty.to_str().unwrap(),
            "bench",
            "clean",
            "--aeb",
            set.to_str().unwrap(),
            "--repeat",
            "1",
            "--json",
        ],
    );
    let v = ok_json(&o);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("ccwe skipped"), "{e}");
    for tool in ["tianwang", "tianwang-body"] {
        let r = &v["aeb"][tool];
        assert_eq!(r["pages"], 2, "{tool}: {v}");
        assert_eq!(r["pages_check"], 1, "{tool}: {v}");
        let (all, check) = (
            r["macro_f1"].as_f64().unwrap(),
            r["macro_f1_check"].as_f64().unwrap(),
        );
        // The check half is the badly-cleaned page alone.
        assert!(check < all && check < 0.3, "{tool}: {r}");
        assert!(v["sample"][tool]["macro_f1_check"].is_null(), "{v}");
    }
    // The benches' common shape: a row per tool and corpus, no ratio without a peer.
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{v}");
    for r in rows {
        assert!(
            ["aeb", "sample"].contains(&r["corpus"].as_str().unwrap()),
            "{r}"
        );
        assert!(r["pages_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert!(
            r["macro_f1"].as_f64().is_some() && r["threads"].as_u64().is_some(),
            "{r}"
        );
    }
    assert_eq!(v["ratio"], serde_json::json!([]), "{v}");

    // Without --aeb and with no installed set: a note, and the other corpora run.
    let o = run_in(
        d.path(),
        &[
            "--data",
            empty.to_str().unwrap(),
            "bench",
            "clean",
            "--repeat",
            "1",
            "--json",
        ],
    );
    let v = ok_json(&o);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("aeb skipped"), "{e}");
    assert!(v["aeb"].is_null() && v["sample"].is_object(), "{v}");
}
