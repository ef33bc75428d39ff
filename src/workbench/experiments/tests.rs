//! The registry: ids unique and stable, every needed set in the manifest, a missing set is a
//! run that could not start naming `tianwang data fetch`, and the data-free experiments put the
//! book's number beside ours.

use super::*;
use crate::engine::data::manifest;

fn empty_data() -> DataDir {
    DataDir::new(
        std::env::temp_dir().join(format!("tianwang-exp-unit-{}-empty", std::process::id())),
    )
}

#[test]
fn ids_are_unique_and_needs_are_in_the_manifest() {
    let all = all();
    let mut ids: Vec<_> = all.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "duplicate ids");
    for e in &all {
        assert!(e.book_ref.starts_with("[L"), "{}", e.id);
        assert!(crate::workbench::panel(e.panel).is_some(), "{}", e.id);
        for n in e.needs {
            assert!(manifest::get().set(n).is_some(), "{}: {n}", e.id);
        }
    }
}

#[test]
fn a_missing_set_is_a_run_that_could_not_start() {
    let data = empty_data();
    let e = find("table-11-2").unwrap();
    assert_eq!(missing(e, &data), Some("thucnews_titles"));
    let r = run_one(e, &data, &Cache::default(), &());
    assert!(!r.ok && r.not_started && r.user_error && r.rows.is_empty());
    let msg = r.error.clone().unwrap();
    assert!(msg.contains("tianwang data fetch thucnews_titles"), "{msg}");
    assert_eq!(r.code().unwrap().key, "error.missing_data");
    assert!(
        !listing(&data)
            .iter()
            .find(|l| l.id == e.id)
            .unwrap()
            .runnable
    );
}

#[test]
fn data_free_experiments_match_the_book() {
    let data = empty_data();
    for id in [
        "capacity-model",
        "fmm-rmm-examples",
        "query-data-model",
        "table-8-1",
        "table-8-2",
    ] {
        let r = run_one(find(id).unwrap(), &data, &Cache::default(), &());
        assert!(r.ok, "{id}: {:?} {:?}", r.error, r.rows);
        assert!(r.rows.iter().any(|x| !x.book.is_null()), "{id}");
    }
    assert!(run(&["nope".into()], &data, &()).is_err());
}

#[test]
fn a_row_outside_its_tolerance_is_not_ok() {
    assert!(Row::near("x", 1.05, 1.0, "", 0.1).ok);
    assert!(!Row::near("x", 1.2, 1.0, "", 0.1).ok);
    assert!(!Row::near("x", f64::NAN, 1.0, "", 0.1).ok);
    assert!(!Row::exact("x", "a/b", "ab").ok);
    let v = serde_json::to_value(Row::ours("x", 3.0, "s")).unwrap();
    for k in ["name", "ours", "book", "unit", "tolerance", "ok"] {
        assert!(v.get(k).is_some(), "{k} in {v}");
    }
    assert!(v["book"].is_null());
}
