//! The whole engine in the GUI (issue 25): on an empty workspace the Overview's one button runs
//! the pipeline (the sample web served and crawled, cleaned, grouped, indexed, ranked) and draws
//! its stages as a row with what flowed between them; a second click redoes nothing and says so;
//! the Search panel then folds near-duplicates into "N similar pages", and the fold switch turns
//! that off; the searches land in the workspace's own query log and an opened result in its
//! click log, both stored as the query-log lab stores a log.

mod common;

use common::{opened, settle, wait_secs};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

/// What the Overview says while it re-reads the stage cards.
const REREADING: &str = "正在重新读取各阶段的状态…";

type H = egui_kittest::Harness<'static, tianwang::ui::WorkbenchApp>;

/// Submit `query` in the Search panel and wait for its results.
fn search(h: &mut H, query: &str) {
    wait_secs(h, "the index", 60, |h| {
        h.query_by_label_contains("个倒排项").is_some()
    });
    h.get_by_label("查询").focus();
    h.run_steps(2);
    h.get_by_label("查询").type_text(query);
    h.run_steps(1);
    h.get_by_label("搜索").click();
    wait_secs(h, "the results", 60, |h| {
        h.query_by_label_contains("读取倒排项 NP(q)").is_some()
    });
}

/// Whether the workspace holds its own log `source` with a record.
fn own(path: &std::path::Path, source: &str) -> bool {
    tianwang::engine::querylog::persist::list_at(path)
        .unwrap()
        .iter()
        .any(|l| l.source == source && l.records >= 1)
}

#[test]
fn one_click_builds_the_engine_and_search_folds_copies() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    let mut h = opened(&path);
    h.get_by_label("工作区概览");
    // Nothing built yet: the stages are drawn as never run. The counts ("…" until read) and
    // the stage cards are read in the background and each moves the button below them when it
    // lands (a click is a pointer at a position): let both land before clicking.
    wait_secs(&mut h, "the counts and the stage cards", 30, |h| {
        h.query_all_by_label("…").next().is_none() && h.query_all_by_label("尚未运行").count() == 5
    });
    settle(&mut h, "the overview", 30);
    h.get_by_label("构建整个引擎").click();
    wait_secs(&mut h, "the build", 900, |h| {
        h.query_by_label_contains("可以检索了").is_some()
    });
    // Each of the five stages is a card with its time and what flowed out of it.
    for stage in [
        "① 网页搜集",
        "② 正文清洗",
        "③ 网页消重",
        "④ 建立索引",
        "⑤ PageRank",
    ] {
        h.get_by_label(stage);
    }
    assert_eq!(h.query_all_by_label_contains("完成 · ").count(), 5);
    assert!(h.query_by_label("⑥ 网页分类").is_none(), "no model asked");
    h.get_by_label_contains("相似组 ");
    h.get_by_label_contains("倒排项 ");
    // Each stage's run, once the kept state is read back.
    wait_secs(&mut h, "the stages' runs", 30, |h| {
        h.query_all_by_label_contains("打开运行 #").count() == 5
    });

    // Again: nothing changed, every stage says it is up to date.
    h.get_by_label("构建整个引擎").click();
    // The build's end also starts a re-read of the stage cards, drawn over the old ones, which
    // can move the link below them when it lands: the app says it is re-reading from the first
    // frame that shows the outcome (and its spinner keeps frames coming, so `settle` sees it).
    let rereading = std::cell::Cell::new(false);
    wait_secs(&mut h, "the second build", 300, |h| {
        let done = h.query_all_by_label("已是最新，无需重做").count() == 5;
        rereading.set(done && h.query_by_label(REREADING).is_some());
        done
    });
    assert!(rereading.get(), "the cards' re-read is not shown");
    wait_secs(&mut h, "the cards' re-read", 60, |h| {
        h.query_by_label(REREADING).is_none()
    });
    settle(&mut h, "the overview", 30);

    // Search: copies folded under their best-ranked member. The query box is the Search
    // panel's: the click navigated.
    h.get_by_label("去检索 →").click();
    wait_secs(&mut h, "the Search panel", 30, |h| {
        h.query_by_role_and_label(Role::TextInput, "查询").is_some()
    });
    assert!(
        h.query_by_label("去检索 →").is_none(),
        "still on the overview"
    );
    search(&mut h, "2026");
    h.get_by_label_contains("篇作为相似网页折叠");
    let similar = h.query_all_by_label_contains("个相似网页").count();
    assert!(similar >= 1, "no hit carries similar pages");
    // Expanding one shows the copies' URLs.
    h.get_all_by_label_contains("个相似网页")
        .next()
        .unwrap()
        .click();
    h.run_steps(3);
    // The switch off: every page on its own.
    h.get_by_label("折叠相似网页").click();
    wait_secs(&mut h, "the unfolded results", 60, |h| {
        h.query_all_by_label_contains("个相似网页").count() == 0
            && h.query_by_label_contains("篇作为相似网页折叠").is_none()
    });

    // The query went to the workspace's own log, which the query-log lab lists.
    wait_secs(&mut h, "the query log", 30, |_| {
        own(&path, "workspace:queries")
    });
    // A result opened goes to the workspace's own click log.
    assert!(!own(&path, "workspace:clicks"), "no click yet");
    h.get_all_by_label("网页快照").next().unwrap().click();
    wait_secs(&mut h, "the click log", 30, |_| {
        own(&path, "workspace:clicks")
    });

    // WU (Tianwang's user-feedback weight) reads those clicks: the opened page gains it.
    let wu = |clicks: bool| {
        let mut args = vec!["search", "2026", "--model", "tianwang", "--explain"];
        args.extend(["--top", "50", "--no-fold", "--no-log", "--json"]);
        if clicks {
            args.push("--own-clicks");
        }
        let r = common::ok_json(&common::run_ws(&path, &args));
        r["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                h["explain"]["parts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p["name"] == "WU")
                    .map(|p| p["value"].as_f64().unwrap())
                    .sum::<f64>()
            })
            .fold(0.0, f64::max)
    };
    assert_eq!(wu(false), 0.0);
    assert!(wu(true) > 0.0, "the own click gave no page a WU");
}
