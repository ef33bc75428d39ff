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
