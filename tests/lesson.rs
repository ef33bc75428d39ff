//! `tianwang lesson list | check | export` on the real binary: ten bundled lessons over at
//! least eight chapters; `check --all` on the real data (CI installs it, `TIANWANG_DATA`)
//! passes every step with the book's figure beside ours; a broken lesson file exits 2 naming
//! its file and line; an exported lesson checks like the bundled one.

mod common;

use common::{ok_json, path_str, run, scratch, shared_data, write};

#[test]
fn the_bundled_lessons_cover_eight_chapters_and_export_for_teachers() {
    let v = ok_json(&run(&["lesson", "list", "--json"]));
    let list = v["lessons"].as_array().expect("lessons");
    assert!(list.len() >= 10, "{v}");
    let mut chapters: Vec<u64> = list.iter().filter_map(|l| l["chapter"].as_u64()).collect();
    chapters.sort_unstable();
    chapters.dedup();
    assert!(chapters.len() >= 8, "{chapters:?}");
    for l in list {
        let steps = l["steps"].as_u64().expect("steps");
        assert!((5..=12).contains(&steps), "{l}");
        assert!(l["id"].is_string() && l["title"].is_string(), "{l}");
    }

    // A teacher starts from a bundled lesson: the exported file checks like it.
    let d = scratch("lesson-export");
    let file = d.join("mine/segmentation.md");
    let o = run(&["lesson", "export", "segmentation", path_str(&file)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).expect("exported");
    assert!(text.starts_with("---\nid: segmentation"), "{text}");
    let v = ok_json(&run(&["lesson", "check", path_str(&file), "--json"]));
    let l = &v["lessons"][0];
    assert_eq!(
        (l["id"].as_str(), l["ok"].as_bool()),
        (Some("segmentation"), Some(true))
    );
    let figures = l["steps"].as_array().unwrap();
    assert!(
        figures
            .iter()
            .any(|s| s["ours"] == "学/历史/知识" && s["book"] == s["ours"]),
        "{l}"
    );

    let o = run(&["lesson", "export", "no-such-lesson", path_str(&file)]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_broken_lesson_exits_2_naming_its_file_and_line() {
    let d = scratch("lesson-broken");
    let head = "---\nid: broken\nchapter: 9\ntitle: Broken\n---\n\n";
    for (body, line, why) in [
        (
            "## a\nopen: cache\n\nok\n\n## b\nopen: nowhere\n",
            13,
            "unknown panel",
        ),
        ("## a\nexperiment: table-99-9\n", 8, "unknown experiment"),
        (
            "## a\nreopen: calibrate\nparams: {\"seconds\": 1, \"turbo\": true}\n",
            9,
            "no parameter `turbo`",
        ),
    ] {
        let f = write(&d, "broken.md", format!("{head}{body}"));
        let o = run(&["lesson", "check", &f, "--json"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{body}: {err}");
        assert!(
            err.contains(&format!("broken.md:{line}")) && err.contains(why),
            "{err}"
        );
    }
    let f = write(&d, "nofront.md", "id: x\n## a\n");
    let o = run(&["lesson", "check", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nofront.md:1"));

    // A row the experiment does not have is found when the lesson runs: exit 2, its line.
    let f = write(
        &d,
        "row.md",
        format!("{head}## a\nexperiment: table-8-2\ncheck: no such row\n\nx\n"),
    );
    let o = run(&["lesson", "check", &f, "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let e = v["lessons"][0]["steps"][0]["error"]
        .as_str()
        .unwrap_or_default();
    assert!(
        e.contains("row.md:9") && e.contains("queries per second"),
        "{e}"
    );

    // A check that does not hold is exit 1: the lesson is wrong about our figures.
    let f = write(
        &d,
        "off.md",
        format!(
            "{head}## a\nexperiment: table-8-2\ncheck: queries per second (IOPS / L_q) | book 99 \
             | tolerance 1\n\nx\n"
        ),
    );
    let o = run(&["lesson", "check", &f, "--json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let s = &v["lessons"][0]["steps"][0];
    assert_eq!(
        (s["ok"].as_bool(), s["ours"].as_f64(), s["book"].as_f64()),
        (Some(false), Some(20.0), Some(99.0))
    );
}

/// Every bundled lesson on CI's data: every step passes, and the checks put the book's number
/// beside ours.
#[test]
fn check_all_passes_every_step_on_the_real_data() {
    let Some(data) = shared_data("") else { return };
    let t0 = std::time::Instant::now();
    let v = ok_json(&run(&[
        "--data",
        path_str(&data),
        "lesson",
        "check",
        "--all",
        "--json",
    ]));
    eprintln!("lesson check --all: {:.1} s", t0.elapsed().as_secs_f64());
    let lessons = v["lessons"].as_array().expect("lessons");
    assert!(lessons.len() >= 10);
    let mut beside = 0;
    for l in lessons {
        for s in l["steps"].as_array().unwrap() {
            assert_eq!(s["ok"], true, "{} step {}: {s}", l["id"], s["n"]);
            assert!(s["error"].is_null(), "{s}");
            if s["ours"].is_number() && s["book"].is_number() {
                beside += 1;
            }
        }
        assert_eq!(l["ok"], true, "{}", l["id"]);
    }
    assert!(
        beside >= 30,
        "only {beside} checks put the book's number beside ours"
    );
}
