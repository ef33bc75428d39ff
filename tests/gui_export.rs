//! Export from the GUI: a table as CSV and a plot as PNG and SVG, written into an export
//! folder (no dialog) and read back.

mod common;

use std::path::{Path, PathBuf};

use common::{opened, opened_with, wait_secs};
use egui_kittest::kittest::Queryable;
use tianwang::engine::export::table::parse_csv;
use tianwang::engine::store::Workspace;

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == ext));
    v
}

#[test]
fn the_experiment_log_exports_as_csv() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let path = common::workspace_after(d.path(), common::calibrations(&[0.5]));

    let mut h = opened_with(&path, Some(&out));
    h.get_by_label("任务").click();
    wait_secs(&mut h, "the log row", 20, |h| {
        h.query_by_label("#1").is_some()
    });
    h.get_by_label("CSV").click();
    wait_secs(&mut h, "the CSV file", 20, |_| {
        !files(&out, "csv").is_empty()
    });
    let f = &files(&out, "csv")[0];
    let bytes = std::fs::read(f).unwrap();
    assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]), "UTF-8 BOM first");
    let rows = parse_csv(std::str::from_utf8(&bytes).unwrap());
    assert_eq!(rows[0][0], "id");
    assert_eq!(rows.len(), 2, "header and the one run: {rows:?}");
    assert_eq!(rows[1][0], "1");
    assert_eq!(rows[1][1], "calibrate");
    assert!(rows[1][7].contains("md5_pages_per_s"), "{:?}", rows[1]);
    wait_secs(&mut h, "the status", 5, |h| {
        h.query_by_label_contains("已导出到").is_some()
    });
}

#[test]
fn a_crawl_plot_exports_as_png_at_twice_the_size_and_as_svg() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let mut h = opened_with(&d.path().join("crawl.tianwang"), Some(&out));
    h.get_by_label("网页搜集").click();
    h.run_steps(2);
    h.get_by_label("使用样例网站").click();
    wait_secs(&mut h, "the seeds", 20, |h| {
        h.query_by_role(egui::accesskit::Role::MultilineTextInput)
            .and_then(|n| n.value())
            .is_some_and(|v| v.contains("huaxia.localhost"))
    });
    h.get_by_label("开始抓取").click();
    wait_secs(&mut h, "the crawl to finish", 120, |h| {
        h.query_by_label("任务「网页搜集」已完成").is_some()
    });
    wait_secs(&mut h, "the plots", 20, |h| {
        h.query_all_by_label("PNG").next().is_some()
    });
    h.query_all_by_label("PNG").next().unwrap().click();
    h.run_steps(2);
    h.get_by_label("PNG 2×").click();
    wait_secs(&mut h, "the PNG file", 20, |_| {
        !files(&out, "png").is_empty()
    });
    let png = std::fs::read(&files(&out, "png")[0]).unwrap();
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (1800, 1120), "900×560 at 2×");
    h.query_all_by_label("SVG").next().unwrap().click();
    wait_secs(&mut h, "the SVG file", 20, |_| {
        !files(&out, "svg").is_empty()
    });
    let svg = std::fs::read_to_string(&files(&out, "svg")[0]).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("每秒网页数"), "the series name is in the SVG");
}

#[test]
fn ticked_runs_compare_side_by_side_and_a_run_runs_again() {
    let d = tempfile::tempdir().unwrap();
    let path = common::workspace_after(d.path(), common::calibrations(&[0.5, 0.75]));
    let mut h = opened(&path);
    h.get_by_label("任务").click();
    wait_secs(&mut h, "the log rows", 20, |h| {
        h.query_by_label("#2").is_some()
    });
    let boxes: Vec<_> = h
        .query_all_by_role(egui::accesskit::Role::CheckBox)
        .collect();
    assert_eq!(boxes.len(), 2, "one tick box per run");
    for b in boxes {
        b.click();
    }
    h.run_steps(3);
    h.get_by_label("对比 机器标定：#2 · #1");
    h.get_by_label("1 个参数不同，0 个相同");
    h.get_by_label("md5_pages_per_s").click();
    h.run_steps(3);
    h.get_by_label("md5_pages_per_s 在各次运行中的变化");

    // Run #1 again from its details: a third run with the same parameters.
    // "#1" is both the log row (first) and a comparison column.
    h.query_all_by_label("#1").next().unwrap().click();
    h.run_steps(2);
    h.get_by_label("再次运行").scroll_to_me();
    h.run_steps(3);
    h.get_by_label("再次运行").click();
    wait_secs(&mut h, "the third run", 30, |h| {
        h.query_all_by_label("#3").next().is_some()
    });
    let ws = Workspace::open_existing(&path).unwrap();
    let third = tianwang::engine::jobs::get_job(&ws, 3).unwrap().unwrap();
    assert_eq!(third.params["seconds"], 0.5);
}
