//! The cache panel: run LRU and FIFO on the generated ch. 9 stream as a job, see the curves
//! with Table 9-2's points and the run's rows; step the stepper through Belady's anomaly
//! trace.

mod common;

use common::{harness_with, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::store::Workspace;

#[test]
fn run_lru_and_fifo_and_see_the_curves_and_table_9_2() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let mut h = harness_with(&path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.get_by_label("缓存策略").click();
    h.run();
    h.get_by_label("比率与缓存大小（对数轴）");
    // Default policies: FIFO, LRU, LFU-decay; keep FIFO and LRU.
    h.get_by_label("lfu-decay").click();
    h.run();
    h.get_by_label("轨迹统计").click();
    wait_secs(&mut h, "the trace statistics", 60, |h| {
        h.query_by_label_contains("个不同对象").is_some()
    });
    h.get_by_label("运行").click();
    wait_secs(&mut h, "the cache-sim job", 120, |h| {
        h.query_by_label("替换开销").is_some()
    });
    // The curves carry Table 9-2's points (the note under the plot says so) and the time plot.
    h.get_by_label_contains("菱形与方块：表 9-2");
    h.get_by_label_contains("命中率随时间");
    // One cost row per (policy, size): 2 × 6, each with the book's section.
    let book_rows = h.query_all_by_label("§9.10 [L3423]").count();
    assert_eq!(book_rows, 12);
    // The stepper: FIFO and LRU with 3 slots on Belady's trace.
    h.get_by_label("到结尾").scroll_to_me();
    h.run();
    h.get_by_label("到结尾").click();
    h.run();
    h.get_by_label_contains("12 个请求中命中 3 个"); // FIFO
    h.get_by_label_contains("12 个请求中命中 2 个"); // LRU
}
