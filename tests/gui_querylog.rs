//! The query-log panel: generate a synthetic log, open the coverage tab, see the plot with
//! the book's 20 % → 80 % beside ours; the R/S tab shows the book's H = 0.67; a log file's bad
//! lines are listed with their reasons in Chinese.

mod common;

use common::{harness_with, run_settled, wait_secs};
use egui_kittest::kittest::{NodeT, Queryable};
use tianwang::engine::querylog::job::StatsOutput;
use tianwang::engine::store::Workspace;

type App = egui_kittest::Harness<'static, tianwang::ui::WorkbenchApp>;

/// A new workspace in `dir`, the app open on it, the query-log panel shown.
fn querylog_panel(dir: &std::path::Path) -> App {
    let path = dir.join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("查询日志").click();
    run_settled(&mut h, "查询日志", 30);
    h
}

#[test]
fn generate_then_coverage_tab_shows_the_plot_and_the_books_number() {
    let d = tempfile::tempdir().unwrap();
    let mut h = querylog_panel(d.path());
    h.get_by_label("生成合成日志").click();
    run_settled(&mut h, "生成合成日志", 30);
    h.get_by_label("生成并统计").click();
    wait_secs(&mut h, "the statistics", 120, |h| {
        h.query_by_label("覆盖率").is_some()
    });
    h.get_by_label("合成日志，按书中数据校准");
    h.get_by_label("覆盖率").click();
    run_settled(&mut h, "覆盖率", 30);
    // Ours beside the book's 80 % at the top 20 % of queries, and the plot with its exports.
    h.get_by_label_contains("书中 80.0%");
    h.get_by_label_contains("前 5%");
    assert!(
        h.query_all_by_label("覆盖率").count() >= 2,
        "tab and plot title"
    );
    assert!(h.query_all_by_label("PNG").count() >= 1);
    h.get_by_label("自相似性").click();
    run_settled(&mut h, "自相似性", 30);
    h.get_by_label_contains("书中 0.67");
    // The request stream goes to the cache lab (written off the UI thread).
    h.get_by_label("把此请求流送到缓存实验").click();
    // … and the cache panel opens with it as its trace.
    wait_secs(&mut h, "the stream in the cache panel", 60, |h| {
        h.query_by_label_contains("已从查询日志面板接收请求流")
            .is_some()
    });
}

/// A log file with bad lines, read in the zh UI: the panel lists the first bad lines with
/// their reasons in Chinese (from the string tables by each reason's key), not the engine's
/// English the CLI prints.
#[test]
fn bad_lines_of_a_log_file_are_listed_in_chinese() {
    use egui::accesskit::Role;
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("bad.log");
    std::fs::write(&log, common::BAD_SOGOU_LOG).unwrap();
    let mut h = querylog_panel(d.path());
    h.get_by_label("日志文件").click();
    run_settled(&mut h, "日志文件", 30);
    // The panel's file field (the top bar's 文件 menu shares the label).
    h.get_by_role_and_label(Role::TextInput, "文件").focus();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "文件")
        .type_text(&log.display().to_string());
    h.run_steps(2);
    h.get_by_label("计算统计").click();
    wait_secs(&mut h, "the statistics", 60, |h| {
        h.query_by_label_contains("5 行，3 条记录，2 个坏行")
            .is_some()
    });
    // Line 2 has two fields, line 4 hour 25: both said in Chinese at their lines.
    h.get_by_label_contains("第 2 行：缺少字段：搜狗查询日志的一行应有 5 个以制表符分隔的字段");
    h.get_by_label_contains("这一行只有 2 个");
    h.get_by_label_contains("第 4 行：时间 `25:00:00` 有误：25 超出了范围 0–23");
    assert!(
        h.query_by_label_contains("missing fields").is_none()
            && h.query_by_label_contains("bad time").is_none(),
        "no English reason in the zh UI"
    );
}

/// The query-log panel on a new workspace with `lines` lines in the generator.
fn generator_with(lines: f64) -> (tempfile::TempDir, App) {
    let d = tempfile::tempdir().unwrap();
    let mut h = querylog_panel(d.path());
    h.get_by_label("生成合成日志").click();
    run_settled(&mut h, "生成合成日志", 30);
    h.query_all_by_label("行数")
        .next()
        .expect("the lines field")
        .set_value_accesskit(lines);
    run_settled(&mut h, "the lines field", 30);
    (d, h)
}

/// The experiment log's rows of `kind`, newest first.
fn logged(
    h: &egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>,
    kind: &str,
) -> Vec<tianwang::engine::jobs::JobRecord> {
    let ws = Workspace::open_existing(h.state().workspace_path().unwrap()).unwrap();
    tianwang::engine::jobs::list_jobs(&ws, &Default::default())
        .unwrap()
        .into_iter()
        .filter(|j| j.kind == kind)
        .collect()
}

/// Statistics are logged jobs: the synthetic log is written by `querylog-generate`, counted by
/// `querylog-stats`, and the volume tab shows the result (every generated line is a request).
#[test]
fn statistics_of_a_generated_log_run_as_logged_jobs() {
    let (_d, mut h) = generator_with(3000.0);
    h.get_by_label("生成并统计").click();
    wait_secs(&mut h, "the statistics", 120, |h| {
        h.query_by_label("覆盖率").is_some()
    });
    // Every generated line was read and is a request.
    h.get_by_label_contains("3,000 行，3,000 条记录，0 个坏行");
    wait_secs(&mut h, "the log row", 10, |h| {
        logged(h, "querylog-stats")
            .first()
            .is_some_and(|j| j.status == "done")
    });
    let stats = logged(&h, "querylog-stats");
    assert_eq!(stats.len(), 1, "one logged statistics run");
    let out: StatsOutput =
        serde_json::from_value(stats[0].result.clone().expect("a result")).unwrap();
    assert_eq!(out.stats.volume.requests, 3000);
    // The volume tab (shown first) draws the logged result's figures.
    let repeat = format!("{:.4}", out.stats.volume.repeat_fraction);
    assert!(h.query_all_by_label(&repeat).count() >= 1, "{repeat}");
    let generated = logged(&h, "querylog-generate");
    assert_eq!(generated.len(), 1);
    assert_eq!(generated[0].status, "done");
    // The file it wrote is kept for the cache lab.
    let file = generated[0].result.as_ref().unwrap()["path"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(std::path::Path::new(&file).is_file(), "{file}");
    assert!(h.state().running_jobs().is_empty());
    // Both runs read with named fields in the Jobs panel.
    let ws = h.state().workspace_path().unwrap().to_path_buf();
    assert_eq!(common::result_fields_are_named(&ws), 2);
    std::fs::remove_file(file).unwrap();
}

/// Cancelling stops the run at once: no job left, no statistics, the log says cancelled.
#[test]
fn cancelling_the_statistics_stops_them() {
    let (_d, mut h) = generator_with(20_000_000.0);
    h.get_by_label("生成并统计").click();
    wait_secs(&mut h, "the job to start", 20, |h| {
        h.state()
            .running_jobs()
            .first()
            .is_some_and(|j| j.snapshot().id.is_some())
    });
    h.get_by_label("取消统计").click();
    let clicked = std::time::Instant::now();
    wait_secs(&mut h, "the job to stop", 10, |h| {
        h.state().running_jobs().is_empty()
    });
    // 20 million lines take far longer than this to write.
    assert!(clicked.elapsed() < std::time::Duration::from_secs(5));
    run_settled(&mut h, "the cancelled statistics", 30);
    h.get_by_label("统计已取消。");
    assert!(
        h.query_by_label("覆盖率").is_none(),
        "no statistics were shown"
    );
    wait_secs(&mut h, "the log row", 10, |h| {
        logged(h, "querylog-generate")
            .first()
            .is_some_and(|j| j.status == "cancelled")
    });
    assert!(
        logged(&h, "querylog-stats").is_empty(),
        "counting never started"
    );
    // The generate button is back.
    assert!(!h.get_by_label("生成并统计").accesskit_node().is_disabled());
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
    run_settled(&mut h, "查询日志", 30);
    h.get_by_label("生成合成日志").click();
    run_settled(&mut h, "生成合成日志", 30);
    h.query_all_by_label("行数")
        .next()
        .expect("the lines field")
        .set_value_accesskit(300_000.0);
    run_settled(&mut h, "the lines field", 30);
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
