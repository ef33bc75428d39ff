//! The lesson format: every bad step names its line; the bundled lessons read, follow the
//! registry and the panels, and keep to 5–12 steps.

use super::*;
use crate::engine::data::DataDir;
use crate::workbench::experiments::{Basis, Row};

const HEAD: &str = "---\nid: t\nchapter: 9\ntitle: T\n---\n";

fn err(src: &str) -> String {
    parse("t.md", src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn a_lesson_reads_with_both_languages_and_its_actions() {
    let src = format!(
        "{HEAD}Intro.\n\n## one\nexperiment: table-9-2\ncheck: infinite-cache hit ratio | \
         tolerance 0.01\nfocus: 单步 | stepper\n\nBoth.\n::: zh\n中文\n:::\n::: en\nEnglish\n:::\n\n\
         ## two\nopen: cache\n\nJust look.\n\n## three\nreopen: calibrate\nparams: \
         {{\"seconds\": 1.0}}\nquestion: 1..3 | unit s\n"
    );
    let l = parse("t.md", &src).unwrap();
    assert_eq!((l.id.as_str(), l.chapter, l.steps.len()), ("t", 9, 3));
    assert_eq!(l.intro.get(true), "Intro.");
    let s = &l.steps[0];
    assert_eq!(s.line, 8);
    assert_eq!(s.action, Some(Action::Experiment { id: "table-9-2" }));
    assert_eq!(s.text.get(true), "Both.\nEnglish");
    assert_eq!(s.text.get(false), "Both.\n中文");
    let f = s.focus.as_ref().unwrap();
    assert_eq!((f.get(false), f.get(true)), ("单步", "stepper"));
    assert!(
        matches!(&s.check, Some(Check::Figure { tolerance: Some(t), line: 10, .. }) if *t == 0.01)
    );
    assert_eq!(
        l.steps[1].action.as_ref().and_then(Action::panel),
        Some("cache")
    );
    let Some(Action::Open {
        panel,
        reopen: Some((kind, _)),
    }) = &l.steps[2].action
    else {
        panic!("{:?}", l.steps[2].action)
    };
    assert_eq!((*panel, *kind), ("Jobs", "calibrate"));
    let q = l.steps[2].check.as_ref().unwrap();
    assert_eq!((q.accepts(2.0), q.accepts(3.5)), (Some(true), Some(false)));
}

#[test]
fn every_bad_step_names_its_line() {
    let cases = [
        ("## a\nopen: nowhere\n", "t.md:8", "unknown panel `nowhere`"),
        (
            "## a\nexperiment: table-99\n",
            "t.md:8",
            "unknown experiment",
        ),
        (
            "## a\nreopen: calibrate\nparams: {\"seconds\": 1, \"speed\": 2}\n",
            "t.md:9",
            "no parameter `speed`",
        ),
        (
            "## a\nreopen: calibrate\nparams: {\"seconds\": -1}\n",
            "t.md:9",
            "refuses",
        ),
        (
            "## a\nopen: cache\nreopen: calibrate\nparams: {\"seconds\": 1}\n",
            "t.md:9",
            "does not start",
        ),
        (
            "## a\nopen: cache\ncolour: red\n",
            "t.md:9",
            "unknown directive",
        ),
        (
            "## a\nopen: cache\nexperiment: table-9-2\n",
            "t.md:9",
            "one action",
        ),
        (
            "## a\nopen: cache\ncheck: some row\n",
            "t.md:9",
            "add `| experiment ID`",
        ),
        ("## a\nquestion: 3..1\n", "t.md:8", "MIN ≤ MAX"),
        ("## a\n\n::: fr\nx\n:::\n", "t.md:9", "unknown language"),
        ("## a\n\n::: zh\nx\n", "t.md:9", "not closed"),
        (
            "## a\nexperiment: table-9-2\ncheck: x | tolerance -1\n",
            "t.md:9",
            "≥ 0",
        ),
    ];
    for (body, at, why) in cases {
        let e = err(&format!("{HEAD}\n{body}"));
        assert!(e.starts_with(at) && e.contains(why), "{body:?} → {e}");
    }
    for (src, at) in [
        ("id: t\n", "t.md:1"),
        ("---\nid: t\nchapter: 9\ntitle: T\n", "t.md:1"),
        ("---\nid: T T\n---\n## a\n", "t.md:2"),
        ("---\nid: t\nchapter: 99\n---\n", "t.md:3"),
        ("---\nid: t\ntitle: T\n---\n## a\n", "t.md:4"),
        ("---\nid: t\nauthor: me\n---\n", "t.md:3"),
        ("---\nid: t\nchapter: 1\ntitle: T\n---\n", "t.md:5"),
    ] {
        let e = err(src);
        assert!(e.starts_with(at), "{src:?} → {e}");
    }
}

#[test]
fn the_bundled_lessons_cover_the_book() {
    let all = bundled().unwrap();
    assert!(all.len() >= 10);
    let mut ids: Vec<&str> = all.iter().map(|l| l.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "duplicate lesson ids");
    let mut chapters: Vec<u8> = all.iter().map(|l| l.chapter).collect();
    chapters.sort_unstable();
    chapters.dedup();
    assert!(chapters.len() >= 8, "{chapters:?}");
    for l in &all {
        assert!(
            (5..=12).contains(&l.steps.len()),
            "{}: {} steps",
            l.id,
            l.steps.len()
        );
        assert!(!l.title.zh.is_empty() && !l.title.en.is_empty(), "{}", l.id);
        assert!(l.book.contains("[L"), "{}: book lines", l.id);
        for s in &l.steps {
            for en in [false, true] {
                let t = s.text.get(en);
                assert!(!t.is_empty(), "{}:{} has no text", l.id, s.line);
            }
            assert_ne!(
                s.text.zh, s.text.en,
                "{}:{}: zh and en are the same",
                l.id, s.line
            );
        }
        assert!(
            l.steps.iter().any(|s| s.check.is_some()),
            "{} checks nothing",
            l.id
        );
        let (again, text) = bundled_text(&l.id).unwrap();
        assert_eq!(&again, l);
        assert!(text.starts_with("---"));
    }
    assert!(bundled_text("nonsense").is_err());
}

#[test]
fn a_check_compares_with_its_tolerance_and_a_question_with_its_range() {
    let row = Row::near("h", 0.30, 0.31, "", 0.02);
    let fig = |book, tolerance| Check::Figure {
        line: 1,
        experiment: "table-9-2",
        row: "h".into(),
        book,
        tolerance,
    };
    assert!(check::compare(&fig(None, None), Some(&row)).ok);
    assert!(!check::compare(&fig(None, Some(0.001)), Some(&row)).ok);
    assert!(!check::compare(&fig(Some(0.5), None), Some(&row)).ok);
    let r = check::compare(&fig(Some(0.3), Some(0.0)), Some(&row));
    assert!(r.ok && r.book == serde_json::json!(0.3));
    let shape = Row::shape("s", true, serde_json::Value::Null, "", false, "no");
    assert_eq!(shape.basis, Basis::Shape);
    assert!(!check::compare(&fig(None, None), Some(&shape)).ok);
    let q = Check::Question {
        line: 1,
        min: 0.2,
        max: 0.4,
        unit: String::new(),
        experiment: Some("table-9-2"),
        row: Some("h".into()),
    };
    assert!(check::compare(&q, Some(&row)).ok);
    assert!(!check::compare(&q, Some(&Row::near("h", 0.9, 0.9, "", 0.0))).ok);
}

#[test]
fn a_data_free_lesson_checks_headless_and_a_missing_row_names_its_line() {
    let data = DataDir::new(std::env::temp_dir().join("tianwang-lesson-unit-nodata"));
    let mut c = Checker::new(data);
    let l = parse(
        "t.md",
        &format!("{HEAD}## a\nexperiment: table-9-2\ncheck: infinite-cache hit ratio\n\nx\n"),
    )
    .unwrap();
    let r = c.check(&l, &());
    assert!(r.ok, "{r:?}");
    assert!(r.steps[0].ours.is_number() && r.steps[0].book.is_number());
    let l = parse(
        "t.md",
        &format!("{HEAD}\n## a\nexperiment: table-9-2\ncheck: no such row\n\nx\n"),
    )
    .unwrap();
    let r = c.check(&l, &());
    let e = r.steps[0].error.clone().unwrap_or_default();
    assert!(
        !r.ok && r.steps[0].user_error && e.starts_with("t.md:9"),
        "{e}"
    );
}

#[test]
fn a_lesson_from_logged_runs_reads_back() {
    let runs = vec![
        (
            "experiment".to_string(),
            serde_json::json!({"ids": ["table-9-2"], "data_dir": "/d"}),
        ),
        ("calibrate".to_string(), serde_json::json!({"seconds": 1.0})),
    ];
    let text = from_runs("mine", "Mine", 9, &runs);
    let l = parse("mine.md", &text).unwrap();
    assert_eq!(l.steps.len(), 2);
    assert_eq!(
        l.steps[0].action,
        Some(Action::Experiment { id: "table-9-2" })
    );
    assert_eq!(
        l.steps[1].action.as_ref().and_then(Action::panel),
        Some("Jobs")
    );
}

#[test]
fn a_job_step_runs_headless_on_a_scratch_workspace() {
    let data = DataDir::new(std::env::temp_dir().join("tianwang-lesson-unit-nodata"));
    let mut c = Checker::new(data);
    let l = parse(
        "t.md",
        &format!("{HEAD}## a\nrun: calibrate\nparams: {{\"seconds\": 0.5}}\n\nMeasure.\n"),
    )
    .unwrap();
    let r = c.check(&l, &());
    assert!(r.ok, "{r:?}");
}
