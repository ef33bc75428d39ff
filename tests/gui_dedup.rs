//! The dedup panel: run every method on the sample web as a job, see the comparison beside the
//! book's Table 7-3 and the overlap chain, open a cluster's pair and every method's verdict,
//! then the SimHash stepper and the hash-collision bench.

mod common;

use common::{harness_with, run_settled, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::store::Workspace;

#[test]
fn compare_on_the_sample_web_then_open_a_pair() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("网页消重").click();
    run_settled(&mut h, "网页消重", 30);
    h.get_by_label("运行所选算法").click();
    wait_secs(&mut h, "the comparison job", 180, |h| {
        h.query_by_label("比较表（表 7-3 的形式）").is_some()
    });
    // Our rows beside the book's: algorithm 1 found 199,763 of 1,182,899 pages.
    h.get_by_label("199763");
    h.get_by_label("265752");
    assert_eq!(h.query_all_by_label_contains("found(3)").count(), 2);
    // The job is in the experiment log.
    let ws = Workspace::open_existing(&path).unwrap();
    let jobs = tianwang::engine::jobs::list_jobs(&ws, &Default::default()).unwrap();
    assert!(jobs.iter().any(|j| j.kind == "dedup" && j.status == "done"));

    h.get_by_label("簇与镜像度").click();
    run_settled(&mut h, "簇与镜像度", 30);
    h.get_by_label_contains("最大的簇");
    h.query_all_by_label("看这一对")
        .next()
        .expect("a cluster")
        .click();
    wait_secs(&mut h, "the pair explanation", 120, |h| {
        h.query_by_label("每种算法的判定").is_some()
    });
    h.get_by_label_contains("SimHash 指纹");
    h.get_by_label_contains("句号特征（CCDet）");

    h.get_by_label("SimHash 步进").click();
    wait_secs(&mut h, "the SimHash step", 60, |h| {
        h.query_all_by_label_contains("k = 3：").next().is_some()
    });
    h.get_by_label("哈希碰撞").click();
    run_settled(&mut h, "哈希碰撞", 30);
    h.get_by_label("运行碰撞实验").click();
    wait_secs(&mut h, "the collision bench", 60, |h| {
        h.query_by_label_contains("个字符串放进").is_some()
    });
    h.get_by_label_contains("期望碰撞数");
}

/// Screenshots for the docs (`TIANWANG_SCREENSHOTS=DIR`): the book experiments run, the
/// comparison in Chinese (100 % and 200 %), sweeps and the SimHash stepper in English, a pair.
#[test]
#[ignore = "writes docs screenshots when TIANWANG_SCREENSHOTS=DIR is set; run on demand"]
fn screenshots_when_asked() {
    let Some(out) = std::env::var_os("TIANWANG_SCREENSHOTS") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    let mut h = common::screenshot_harness(&path);
    h.get_by_label("网页消重").click();
    run_settled(&mut h, "网页消重", 30);
    h.get_by_label("表 7-2：原始网页 vs DocView 正文").click();
    h.get_by_label("图 7-10：查全率随 N 变化").click();
    h.get_by_label("SimHash k = 3？（k 扫描）").click();
    h.get_by_label("MinHash 阈值扫描").click();
    h.get_by_label("运行所选算法").click();
    h.run_steps(3);
    wait_secs(&mut h, "the jobs", 900, |h| {
        h.query_by_label_contains("个任务运行中").is_none()
    });
    h.get_by_label("比较").click();
    wait_secs(&mut h, "the comparison", 60, |h| {
        h.query_by_label("比较表（表 7-3 的形式）").is_some()
    });
    let shot = |h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, name: &str| {
        common::shot(h, &out, name, common::Settle::Steps(5))
    };
    h.get_by_label("比较表（表 7-3 的形式）").scroll_to_me();
    shot(&mut h, "dedup_compare_zh.png");
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run_steps(1);
    }
    shot(&mut h, "dedup_compare_zh_200.png");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num0);
    h.run_steps(2);
    h.get_by_label("簇与镜像度").click();
    run_settled(&mut h, "簇与镜像度", 30);
    h.query_all_by_label("看这一对")
        .nth(2)
        .expect("a cluster")
        .click();
    wait_secs(&mut h, "the pair", 120, |h| {
        h.query_by_label("每种算法的判定").is_some()
    });
    h.get_by_label("每种算法的判定").scroll_to_me();
    shot(&mut h, "dedup_pair_zh.png");
    h.get_by_label("English").click();
    run_settled(&mut h, "English", 30);
    h.get_by_label("Sweeps").click();
    run_settled(&mut h, "Sweeps", 30);
    shot(&mut h, "dedup_sweeps_en.png");
    h.get_by_label("SimHash stepper").click();
    wait_secs(&mut h, "the stepper", 60, |h| {
        h.query_all_by_label_contains("k = 3:").next().is_some()
    });
    h.get_by_label("Per-bit weighted sums").scroll_to_me();
    shot(&mut h, "dedup_simhash_en.png");
    h.get_by_label("Hash collisions").click();
    run_settled(&mut h, "Hash collisions", 30);
    h.get_by_label("Run the collision bench").click();
    wait_secs(&mut h, "the bench", 60, |h| {
        h.query_by_label_contains("581 strings into").is_some()
    });
    h.get_by_label("Collisions per hash").scroll_to_me();
    shot(&mut h, "dedup_hashes_en.png");
}
