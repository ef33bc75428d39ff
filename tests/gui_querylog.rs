//! The query-log panel: generate a synthetic log, open the coverage tab, see the plot with
//! the book's 20 % → 80 % beside ours; the R/S tab shows the book's H = 0.67.

mod common;

use common::{harness_with, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::store::Workspace;

#[test]
fn generate_then_coverage_tab_shows_the_plot_and_the_books_number() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("查询日志").click();
    h.run();
    h.get_by_label("生成合成日志").click();
    h.run();
    h.get_by_label("生成并统计").click();
    wait_secs(&mut h, "the statistics", 120, |h| {
        h.query_by_label("覆盖率").is_some()
    });
    h.get_by_label("合成日志，按书中数据校准");
    h.get_by_label("覆盖率").click();
    h.run();
    // Ours beside the book's 80 % at the top 20 % of queries, and the plot with its exports.
    h.get_by_label_contains("书中 80.0%");
    h.get_by_label_contains("前 5%");
    assert!(
        h.query_all_by_label("覆盖率").count() >= 2,
        "tab and plot title"
    );
    assert!(h.query_all_by_label("PNG").count() >= 1);
    h.get_by_label("自相似性").click();
    h.run();
    h.get_by_label_contains("书中 0.67");
    // The request stream goes to the cache lab (written off the UI thread).
    h.get_by_label("把此请求流送到缓存实验").click();
    // … and the cache panel opens with it as its trace.
    wait_secs(&mut h, "the stream in the cache panel", 60, |h| {
        h.query_by_label_contains("已从查询日志面板接收请求流")
            .is_some()
    });
}

/// Screenshots for the docs (`TIANWANG_SCREENSHOTS=DIR`): a synthetic log of 300,000 lines,
/// rank–frequency and coverage in Chinese (rank–frequency at 200 % too), clicks per result page
/// beside the book's Table 9-1 in English.
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
    h.get_by_label("查询日志").click();
    h.run();
    h.get_by_label("生成合成日志").click();
    h.run();
    h.query_all_by_label("行数")
        .next()
        .expect("the lines field")
        .set_value_accesskit(300_000.0);
    h.run();
    h.get_by_label("生成并统计").click();
    h.run_steps(5);
    wait_secs(&mut h, "the statistics", 300, |h| {
        h.query_by_label("覆盖率").is_some()
    });
    let shot = |h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, name: &str| {
        common::shot(h, &out, name, common::Settle::Steps(5))
    };
    h.get_by_label("频度频级").click();
    h.run_steps(5);
    shot(&mut h, "querylog_zh.png");
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run_steps(1);
    }
    h.run_steps(2);
    // Scrolled to the end, to the plot, with the wheel over the text above it (not the plot).
    h.hover_at(egui::pos2(450.0, 300.0));
    h.run_steps(2);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -2000.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    // The pointer gone before the plot comes under it (it would pan the plot).
    h.run_steps(1);
    h.remove_cursor();
    h.run_steps(20);
    shot(&mut h, "querylog_zh_200.png");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num0);
    h.run_steps(2);
    h.query_all_by_label("覆盖率")
        .next()
        .expect("the coverage tab")
        .click();
    h.run_steps(5);
    shot(&mut h, "querylog_coverage_zh.png");
    h.get_by_label("English").click();
    h.run_steps(5);
    // Clicks per result page (page = ⌈rank/10⌉) beside the book's Table 9-1: 47.3 / 12.2 / …
    h.get_by_label("Page turning").click();
    h.run_steps(5);
    shot(&mut h, "querylog_clicks_en.png");
}
