//! The engine choice in the panels (feature `bigjobs`): the dedup panel runs md5 on DataFusion
//! and logs the job with its engine; the search panel builds its index on DataFusion and says so;
//! the query-log panel counts a file on DataFusion as a logged job, the same counts as native.
#![cfg(feature = "bigjobs")]

mod common;

use std::sync::Arc;

use common::{opened, run_settled, settle, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::dedup::Method;
use tianwang::engine::jobs::{JobRunner, JobState};
use tianwang::engine::sample::load::LoadSample;
use tianwang::engine::store::Workspace;

#[test]
fn dedup_runs_on_datafusion_from_the_panel() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    let mut h = opened(&path);
    h.get_by_label("网页消重").click();
    run_settled(&mut h, "网页消重", 30);
    for m in Method::ALL {
        if m != Method::Md5 {
            h.get_by_label_contains(&format!("{} · ", m.name())).click();
        }
    }
    h.get_by_label("DataFusion（进程内）").click();
    run_settled(&mut h, "DataFusion（进程内）", 30);
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
    let mut h = opened(&path);
    h.get_by_label("检索与排序").click();
    // The row above says "opening" until the index is looked for, then the banner (wider):
    // the engine row must stop moving before a click (a pointer at a position) lands on it.
    wait_secs(&mut h, "the missing-index banner", 30, |h| {
        h.query_by_label("这个工作区还没有索引。").is_some()
    });
    settle(&mut h, "the search panel", 30);
    h.get_by_label("构建索引的引擎").click();
    run_settled(&mut h, "构建索引的引擎", 30);
    h.get_by_label("DataFusion（进程内）").click();
    run_settled(&mut h, "DataFusion（进程内）", 30);
    // The button by its whole label: other texts of the panel mention 建立索引 too.
    h.query_all_by_label("建立索引")
        .chain(h.query_all_by_label("重建索引"))
        .next()
        .expect("a build button")
        .click();
    wait_secs(&mut h, "the index built on DataFusion", 300, |h| {
        h.query_by_label_contains("当前索引由 DataFusion").is_some()
    });
}

#[test]
fn querylog_counts_a_file_on_datafusion_as_a_logged_job() {
    use tianwang::engine::querylog::generate::{GenConfig, write_file};
    use tianwang::engine::querylog::job::{LogSource, compute};
    use tianwang::engine::querylog::read::ReadConfig;
    use tianwang::engine::querylog::stats::StatsConfig;
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let log = d.path().join("gen.log");
    let gen_cfg = GenConfig {
        lines: 3_000,
        seed: 11,
        ..GenConfig::default()
    };
    write_file(&gen_cfg, &log, &()).unwrap();
    let native = compute(
        &LogSource::File {
            path: log.clone(),
            read: ReadConfig::new(gen_cfg.format),
        },
        &StatsConfig::default(),
        None,
        &(),
    )
    .unwrap();
    let mut h = opened(&path);
    h.get_by_label("查询日志").click();
    run_settled(&mut h, "查询日志", 30);
    h.get_by_label("日志文件").click();
    run_settled(&mut h, "日志文件", 30);
    type_path(&mut h, &log);
    run_settled(&mut h, "the typed path", 30);
    h.get_by_label("DataFusion（进程内）").click();
    run_settled(&mut h, "DataFusion（进程内）", 30);
    h.get_by_label_contains("记录在实验日志中的作业");
    h.get_by_label("计算统计").click();
    wait_secs(&mut h, "the statistics counted on DataFusion", 180, |h| {
        h.query_by_label_contains("由 DataFusion（进程内） 计算")
            .is_some()
    });
    let ws = Workspace::open_existing(&path).unwrap();
    let jobs = tianwang::engine::jobs::list_jobs(&ws, &Default::default()).unwrap();
    let job = jobs
        .iter()
        .find(|j| j.kind == "querylog-stats")
        .expect("a logged querylog-stats job");
    assert_eq!(job.status, "done");
    assert_eq!(job.params["engine"]["engine"], "datafusion");
    let r = job.result.as_ref().unwrap();
    let v = &native.stats.volume;
    assert!(v.requests > 1_000, "{v:?}");
    for (field, want) in [
        ("requests", v.requests),
        ("distinct_queries", v.distinct_queries),
        ("distinct_users", v.distinct_users),
        ("sessions", v.sessions),
        ("queries_seen_once", v.queries_seen_once),
    ] {
        assert_eq!(
            r["stats"]["volume"][field], want,
            "DataFusion's {field} is native's"
        );
    }
}

/// `TIANWANG_SCREENSHOTS=docs cargo test --features bigjobs --test gui_bigjobs -- --ignored
/// screenshots_when_asked`: the query-log panel counted on DataFusion (zh, 100 % and 200 %) and
/// the dedup panel's engine row with Spark's master field (en).
#[test]
#[ignore]
fn screenshots_when_asked() {
    let Some(out) = std::env::var_os("TIANWANG_SCREENSHOTS") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    let log = d.path().join("sogou.log");
    tianwang::engine::querylog::generate::write_file(
        &tianwang::engine::querylog::generate::GenConfig {
            lines: 200_000,
            seed: 3,
            ..Default::default()
        },
        &log,
        &(),
    )
    .unwrap();
    let mut h = common::screenshot_harness(&path);
    let shot = |h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, name: &str| {
        common::shot(h, &out, name, common::Settle::Steps(5))
    };
    h.get_by_label("查询日志").click();
    run_settled(&mut h, "查询日志", 30);
    h.get_by_label("日志文件").click();
    run_settled(&mut h, "日志文件", 30);
    type_path(&mut h, &log);
    h.get_by_label("DataFusion（进程内）").click();
    run_settled(&mut h, "DataFusion（进程内）", 30);
    h.get_by_label("计算统计").click();
    wait_secs(&mut h, "the statistics on DataFusion", 300, |h| {
        h.query_by_label_contains("由 DataFusion（进程内） 计算")
            .is_some()
    });
    h.get_by_label("覆盖率").click();
    h.run_steps(5);
    shot(&mut h, "bigjobs_querylog_zh.png");
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run_steps(1);
    }
    h.run_steps(5);
    shot(&mut h, "bigjobs_querylog_zh_200.png");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num0);
    h.run_steps(2);
    h.get_by_label("English").click();
    h.run_steps(3);
    h.get_by_label("Dedup comparison").click();
    h.run_steps(3);
    h.get_by_label("Spark").click();
    h.run_steps(3);
    shot(&mut h, "bigjobs_dedup_en.png");
}

/// Types `path` into the query-log panel's file field (the top bar's 文件 menu shares the label).
fn type_path(
    h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>,
    path: &std::path::Path,
) {
    use egui::accesskit::Role;
    h.get_by_role_and_label(Role::TextInput, "文件").focus();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "文件")
        .type_text(&path.display().to_string());
    h.run_steps(2);
}
