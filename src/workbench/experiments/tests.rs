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
        assert!(
            e.book_ref.starts_with("[L") || e.book_ref.starts_with("[00"),
            "{}",
            e.id
        );
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
        "table-10-3",
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

#[test]
fn the_chapter_9_log_experiments_measure_the_books_targets_back() {
    let data = empty_data();
    let cache = Cache::default();
    for id in ["table-9-1", "coverage-9-2", "hurst"] {
        let r = run_one(find(id).unwrap(), &data, &cache, &());
        assert!(r.error.is_none(), "{id}: {:?}", r.error);
        assert!(r.rows.iter().any(Row::has_book_number), "{id}");
        let t = r.rows.iter().find(|x| x.basis == Basis::Tolerance);
        assert!(t.is_none_or(|x| x.ok), "{id}: {:?}", r.rows);
    }
}

#[test]
fn bytecode_is_larger_and_golomb_smaller_than_raw_integers() {
    let r = run_one(
        find("bytecode-golomb").unwrap(),
        &empty_data(),
        &Cache::default(),
        &(),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let ratio = |name: &str| {
        r.rows
            .iter()
            .find(|x| x.name == name)
            .unwrap()
            .ours
            .as_f64()
            .unwrap()
    };
    let (vb, gb) = (
        ratio("ByteCode compression ratio"),
        ratio("Golomb compression ratio"),
    );
    assert!(gb < vb && vb < 1.0, "{vb} {gb}");
    assert!(r.rows[..2].iter().all(|x| x.ok), "{:?}", r.rows);
}

#[test]
fn at_least_twenty_experiments_put_a_book_number_beside_ours() {
    let with_book: Vec<_> = all()
        .into_iter()
        .filter(|e| e.needs.is_empty())
        .map(|e| e.id)
        .collect();
    assert!(all().len() >= 20, "{}", all().len());
    assert!(with_book.len() >= 14, "{with_book:?}");
}
