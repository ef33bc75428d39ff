//! The README's screenshots, rendered by the real app in a kittest harness (wgpu on Mesa), in
//! Chinese and English and at 100 % and 200 % zoom. Not a check — run on demand:
//!
//! ```sh
//! cargo test --test screenshots -- --ignored --nocapture   # writes docs/*.png
//! ```

mod common;

use std::path::Path;

use common::{harness_full, run_settled, wait_secs};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tianwang::engine::store::Workspace;
use tianwang::ui::WorkbenchApp;

fn save(h: &mut Harness<'_, WorkbenchApp>, name: &str) {
    h.run_steps(4);
    let img = h.render().expect("render");
    let out = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(format!("{name}.png"));
    img.save(&out).expect("save png");
    println!("wrote {}", out.display());
}

fn english(h: &mut Harness<'_, WorkbenchApp>) {
    h.get_by_label("English").click();
    h.run_steps(3);
}

/// The app on the workspace `path`, in `lang` ("zh" or "en"), at `zoom` × 100 %.
fn opened(path: &Path, lang: &str, zoom: u32) -> Harness<'static, WorkbenchApp> {
    let mut h = harness_full(path, false, None);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    if lang == "en" {
        english(&mut h);
    }
    if zoom == 2 {
        zoom_200(&mut h);
    }
    h
}

/// Opens the panel named `label` in the navigation (scrolled to first: at 200 % the last
/// panels lie below the window; the scroll animates).
fn go_to(h: &mut Harness<'_, WorkbenchApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run_steps(20);
    h.get_by_label(label).click();
}

fn zoom_200(h: &mut Harness<'_, WorkbenchApp>) {
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run_steps(1);
    }
}

/// The experiment log as it opens (docs/jobs.png, docs/jobs_en.png, and `_200` at 200 %):
/// three runs of two kinds, the filters named 筛选 / 状态 / 类型 above them, the newest run's
/// parameters and figures.
#[test]
#[ignore = "writes docs/*.png; run on demand"]
fn jobs_log() {
    use tianwang::engine::sample::load::LoadSample;
    for (lang, zoom) in [("zh", 1), ("en", 1), ("zh", 2), ("en", 2)] {
        let d = tempfile::tempdir().unwrap();
        let mut jobs = common::calibrations(&[0.5, 0.75]);
        jobs.insert(1, Box::new(LoadSample { changed: false }));
        let path = common::workspace_after(d.path(), jobs);
        let mut h = opened(&path, lang, zoom);
        go_to(&mut h, if lang == "en" { "Jobs" } else { "任务" });
        // The newest run, the log's first row: at 200 % the older ones lie below the log's
        // virtualised window.
        wait_secs(&mut h, "the log", 20, |h| h.query_by_label("#3").is_some());
        h.get_by_label("#3").scroll_to_me();
        h.run_steps(20);
        // At 100 % a run's details open below the log; at 200 % they would lie below the
        // window, so the log itself is shown.
        if zoom == 1 {
            h.get_by_label("#3").click();
        }
        run_settled(&mut h, "the log", 20);
        let name = if lang == "en" { "jobs_en" } else { "jobs" };
        save(
            &mut h,
            &format!("{name}{}", if zoom == 2 { "_200" } else { "" }),
        );
    }
}

/// The experiment log with two runs compared side by side and a figure plotted across them.
#[test]
#[ignore = "writes docs/*.png; run on demand"]
fn jobs_comparison() {
    // At 200 % the comparison's run boxes lie below the virtualised log's window and are not
    // drawn, so only 100 % is rendered here (docs/jobs_compare_zh_200.png is older).
    for (lang, zoom) in [("zh", 1), ("en", 1)] {
        let d = tempfile::tempdir().unwrap();
        let path = common::workspace_after(d.path(), common::calibrations(&[0.5, 1.0]));
        let mut h = opened(&path, lang, zoom);
        go_to(&mut h, if lang == "en" { "Jobs" } else { "任务" });
        wait_secs(&mut h, "the log", 20, |h| h.query_by_label("#2").is_some());
        let boxes: Vec<_> = h
            .query_all_by_role(egui::accesskit::Role::CheckBox)
            .collect();
        for b in boxes {
            b.scroll_to_me();
        }
        h.run_steps(20);
        let boxes: Vec<_> = h
            .query_all_by_role(egui::accesskit::Role::CheckBox)
            .collect();
        for b in boxes {
            b.click();
        }
        h.run_steps(3);
        h.get_by_label("md5_pages_per_s").scroll_to_me();
        h.run_steps(20);
        h.get_by_label("md5_pages_per_s").click();
        h.run_steps(3);
        let plot_title = if lang == "en" {
            "md5_pages_per_s across the runs"
        } else {
            "md5_pages_per_s 在各次运行中的变化"
        };
        if let Some(n) = h.query_by_label(plot_title) {
            n.scroll_to_me();
            h.run_steps(3);
        }
        save(
            &mut h,
            &format!("jobs_compare_{lang}{}", if zoom == 2 { "_200" } else { "" }),
        );
    }
}

/// The whole engine: the Overview's pipeline row after `build --sample --classify` and the
/// search results folded (N similar pages) with their categories, in zh and en at 100 % and
/// 200 %.
#[test]
#[ignore = "writes docs/*.png; run on demand"]
fn engine_pipeline_and_folded_results() {
    use common::{ok_json, run_ws};
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    ok_json(&run_ws(&path, &["build", "--sample", "--json"]));
    ok_json(&run_ws(
        &path,
        &[
            "classify",
            "--sample-web",
            "--model",
            "nb",
            "--save",
            "nb-web",
            "--json",
        ],
    ));
    ok_json(&run_ws(
        &path,
        &["build", "--sample", "--classify", "nb-web", "--json"],
    ));
    for (lang, zoom) in [("zh", 1), ("en", 1), ("zh", 2), ("en", 2)] {
        let mut h = opened(&path, lang, zoom);
        let (title, search, stats, query, go, fold) = if lang == "en" {
            (
                "Build the whole search engine in one click",
                "Search & ranking",
                "postings",
                "Query",
                "Go",
                "similar pages",
            )
        } else {
            (
                "一键构建整个搜索引擎",
                "检索与排序",
                "个倒排项",
                "查询",
                "搜索",
                "个相似网页",
            )
        };
        let suffix = if zoom == 2 { "_200" } else { "" };
        wait_secs(&mut h, "the stages", 30, |h| {
            h.query_all_by_label_contains(" #").count() >= 6
        });
        h.get_by_label(title).scroll_to_me();
        h.run_steps(3);
        if zoom == 2 {
            // The row of stages, not the heading above it.
            let third = if lang == "en" {
                "③ Dedup"
            } else {
                "③ 网页消重"
            };
            h.get_by_label(third).scroll_to_me();
            h.run_steps(3);
        }
        save(&mut h, &format!("engine_pipeline_{lang}{suffix}"));

        h.get_by_label(search).click();
        h.run_steps(2);
        wait_secs(&mut h, "the index", 60, |h| {
            h.query_by_label_contains(stats).is_some()
        });
        h.get_by_label(query).focus();
        h.run_steps(2);
        h.get_by_label(query).type_text("2026");
        h.run_steps(1);
        h.get_by_label(go).click();
        // "N similar pages" under a result, not the fold switch's own label.
        let similar = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
            n.label()
                .is_some_and(|l| l.contains(fold) && l.starts_with(|c: char| c.is_ascii_digit()))
        };
        wait_secs(&mut h, "the results", 60, |h| {
            h.query_all_by(similar).next().is_some()
        });
        h.query_all_by(similar).next().unwrap().click();
        h.remove_cursor();
        h.run_steps(3);
        save(&mut h, &format!("engine_folded_{lang}{suffix}"));
    }
}

/// The query-log panel after reading a file with bad lines: the first bad lines with their
/// reasons in the UI's language, in zh and en at 100 % and 200 %.
#[test]
#[ignore = "writes docs/*.png; run on demand"]
fn querylog_bad_lines() {
    use egui::accesskit::Role;
    for (lang, zoom) in [("zh", 1), ("en", 1), ("zh", 2), ("en", 2)] {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("bad.log");
        std::fs::write(&log, common::BAD_SOGOU_LOG).unwrap();
        let path = d.path().join("w.tianwang");
        Workspace::open_or_create(&path).unwrap();
        let mut h = opened(&path, lang, zoom);
        let en = lang == "en";
        go_to(&mut h, if en { "Query logs" } else { "查询日志" });
        h.run_steps(3);
        h.get_by_label(if en { "Log file" } else { "日志文件" })
            .click();
        run_settled(&mut h, "日志文件", 30);
        let file = if en { "File" } else { "文件" };
        h.get_by_role_and_label(Role::TextInput, file).focus();
        h.run_steps(2);
        h.get_by_role_and_label(Role::TextInput, file)
            .type_text(&log.display().to_string());
        h.run_steps(2);
        h.get_by_label(if en {
            "Compute statistics"
        } else {
            "计算统计"
        })
        .click();
        let line2 = if en { "line 2" } else { "第 2 行" };
        wait_secs(&mut h, "the statistics", 60, |h| {
            h.query_by_label_contains(line2).is_some()
        });
        h.get_by_label_contains(line2).scroll_to_me();
        h.run_steps(3);
        save(
            &mut h,
            &format!(
                "querylog_bad_lines_{lang}{}",
                if zoom == 2 { "_200" } else { "" }
            ),
        );
    }
}

/// The cache panel after a list of sizes it cannot read: the reason in the UI's language (a
/// keyed parameter flaw), in zh and en at 100 % and 200 %.
#[test]
#[ignore = "writes docs/*.png; run on demand"]
fn cache_bad_size() {
    use egui::accesskit::Role;
    for (lang, zoom) in [("zh", 1), ("en", 1), ("zh", 2), ("en", 2)] {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.tianwang");
        Workspace::open_or_create(&path).unwrap();
        let mut h = opened(&path, lang, zoom);
        let en = lang == "en";
        go_to(&mut h, if en { "Cache policies" } else { "缓存策略" });
        h.run_steps(3);
        let sizes = if en {
            "Sizes (objects, bytes with 64k/1M, or %)"
        } else {
            "大小（对象数；字节用 64k/1M；或百分比）"
        };
        h.get_by_role_and_label(Role::TextInput, sizes)
            .scroll_to_me();
        h.run_steps(20);
        h.get_by_role_and_label(Role::TextInput, sizes).focus();
        h.run_steps(2);
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_role_and_label(Role::TextInput, sizes)
            .type_text("100, 12q");
        h.run_steps(2);
        let run = if en { "Run" } else { "运行" };
        h.get_by_label(run).scroll_to_me();
        h.run_steps(20);
        h.get_by_label(run).click();
        let said = if en {
            "is not a size"
        } else {
            "不是缓存大小"
        };
        wait_secs(&mut h, "the reason", 30, |h| {
            h.query_by_label_contains(said).is_some()
        });
        h.get_by_label_contains(said).scroll_to_me();
        h.run_steps(3);
        save(
            &mut h,
            &format!(
                "cache_bad_size_{lang}{}",
                if zoom == 2 { "_200" } else { "" }
            ),
        );
    }
}
