//! The engine choice in the panels (feature `bigjobs`): the dedup panel runs md5 on DataFusion
//! and logs the job with its engine; the search panel builds its index on DataFusion and says so.
#![cfg(feature = "bigjobs")]

mod common;

use std::sync::Arc;

use common::{harness_with, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::dedup::Method;
use tianwang::engine::jobs::{JobRunner, JobState};
use tianwang::engine::sample::load::LoadSample;
use tianwang::engine::store::Workspace;

#[test]
fn dedup_runs_on_datafusion_from_the_panel() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("网页消重").click();
    h.run();
    for m in Method::ALL {
        if m != Method::Md5 {
            h.get_by_label_contains(&format!("{} · ", m.name())).click();
        }
    }
    h.get_by_label("DataFusion（进程内）").click();
    h.run();
    h.get_by_label_contains("在 DataFusion / Spark 上运行的算法");
    h.get_by_label("运行所选算法").click();
    let ws_path = path.clone();
    wait_secs(&mut h, "the dedup job on DataFusion", 180, move |_| {
        let ws = Workspace::open_existing(&ws_path).unwrap();
        let jobs = tianwang::engine::jobs::list_jobs(&ws, &Default::default()).unwrap();
        jobs.iter().any(|j| j.kind == "dedup" && j.status == "done")
    });
    let ws = Workspace::open_existing(&path).unwrap();
    let jobs = tianwang::engine::jobs::list_jobs(&ws, &Default::default()).unwrap();
    let job = jobs.iter().find(|j| j.kind == "dedup").unwrap();
    assert_eq!(
        job.params["engine"]["engine"], "datafusion",
        "{:?}",
        job.params
    );
    assert_eq!(job.result.as_ref().unwrap()["engine"], "datafusion");
}

#[test]
fn search_builds_its_index_on_datafusion() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let runner = JobRunner::new(path.clone(), Arc::new(|| {}));
    let state = runner.spawn(Box::new(LoadSample { changed: false })).wait();
    assert!(matches!(state, JobState::Done(_)), "{state:?}");
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("检索与排序").click();
    h.run_steps(3);
    h.get_by_label("构建索引的引擎").click();
    h.run();
    h.get_by_label("DataFusion（进程内）").click();
    h.run();
    h.query_all_by_label_contains("建立索引")
        .chain(h.query_all_by_label_contains("重建索引"))
        .next()
        .expect("a build button")
        .click();
    wait_secs(&mut h, "the index built on DataFusion", 300, |h| {
        h.query_by_label_contains("当前索引由 DataFusion").is_some()
    });
}
