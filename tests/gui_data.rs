//! The Overview's Data section in Chinese on a fresh data folder given as `--data DIR` (the
//! app resolves it once and hands it to the panels; `$TIANWANG_DATA` pointing elsewhere is not
//! read): every set is listed by its Chinese name as not installed with the command that
//! installs it, no English set title is shown, and after a set is imported it shows as
//! installed.

mod common;

use common::{opened_on_data, run_settled, settle, shared_data, wait_secs};
use egui_kittest::kittest::Queryable;

#[test]
fn the_overview_lists_the_data_sets_in_chinese_and_sees_an_import() {
    // The copy to import from, found before the data folder is pointed elsewhere.
    let copy = shared_data("");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("datasets");
    let mut h = opened_on_data(&dir.path().join("w.tianwang"), &data);
    wait_secs(&mut h, "the data sets' listing", 30, |h| {
        h.query_by_label("未安装——`tianwang data fetch hollins`")
            .is_some()
    });
    // The folder shown is the one given, not $TIANWANG_DATA's or the user's.
    h.get_by_label(&format!("数据文件夹：{}", data.display()));
    h.get_by_label("数据集");
    h.get_by_label("hollins.edu 网页链接图");
    h.get_by_label("THUCNews 新闻标题（10 类）");
    assert!(h.query_by_label("The hollins.edu web graph").is_none());
    assert!(h.query_by_label("installed").is_none());

    let Some(copy) = copy else { return };
    let set = tianwang::engine::data::manifest::get()
        .set("hollins")
        .unwrap();
    tianwang::engine::data::import(
        &tianwang::engine::data::DataDir::new(&data),
        &copy,
        &[set],
        false,
        &(),
    )
    .unwrap();
    // The app started again lists the folder again (Refresh does the same, but it sits below
    // the fold of the test window, where a simulated click does not land).
    drop(h);
    let mut h = opened_on_data(&dir.path().join("w.tianwang"), &data);
    // While the listing runs, a spinner stands where Refresh is: wait for both.
    wait_secs(&mut h, "hollins installed", 30, |h| {
        h.query_by_label("已安装").is_some() && h.query_by_label("刷新").is_some()
    });
    assert!(
        h.query_by_label("未安装——`tianwang data fetch hollins`")
            .is_none()
    );
}

/// Every text the UI tree holds now (labels and values).
fn texts(h: &egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>) -> Vec<String> {
    use egui_kittest::kittest::{By, NodeT};
    h.query_all(By::new().predicate(|_| true).include_labels())
        .flat_map(|n| {
            let a = n.accesskit_node();
            [a.label(), a.value()]
        })
        .flatten()
        .collect()
}

/// After a step, no text of the zh UI holds one of the engine's English error messages.
fn no_english(
    h: &egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>,
    step: &str,
    en: &[String],
) {
    let all = texts(h);
    assert!(!all.is_empty(), "{step}: the UI tree is empty");
    for t in &all {
        for e in en {
            assert!(
                !t.contains(e.as_str()),
                "{step}: untranslated `{e}` in `{t}`"
            );
        }
    }
}

/// The zh UI walked through three errors a person meets on a fresh install — the Search
/// panel's missing index, a book experiment whose data set is missing (the data card, its
/// Download and Import buttons in Chinese), a training file with no valid line — shows each
/// from the string tables and never the engine's English message.
#[test]
fn the_zh_ui_says_a_missing_index_a_missing_set_and_a_bad_file_in_chinese() {
    use tianwang::engine::error::EngineError;
    use tianwang::ui::Lang;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("empty-data");
    let ws = dir.path().join("w.tianwang");
    let mut h = opened_on_data(&ws, &data);

    // 1. The missing index.
    let no_index = EngineError::NoIndex {
        dir: tianwang::engine::index::reader::sidecar(&ws),
    };
    h.get_by_label("检索与排序").click();
    wait_secs(&mut h, "the missing-index banner", 30, |h| {
        h.query_by_label("这个工作区还没有索引。").is_some()
    });
    h.get_by_label(&Lang::Zh.error(&no_index));
    no_english(
        &h,
        "missing index",
        &[no_index.to_string(), "no index here".into()],
    );

    // 2. A missing data set: Table 11-2 needs the THUCNews titles.
    let missing = EngineError::MissingData {
        set: "thucnews_titles".into(),
    };
    let set = tianwang::engine::data::manifest::get()
        .set("thucnews_titles")
        .unwrap()
        .clone();
    h.get_by_label("分类器训练").click();
    wait_secs(&mut h, "the data card", 30, |h| {
        h.query_by_label("缺少数据集：THUCNews 新闻标题（10 类）（`thucnews_titles`）")
            .is_some()
    });
    h.get_by_label("下载");
    h.get_by_label("从文件夹导入…");
    h.get_by_label_contains("许可：MIT（仓库）");
    // One card for the set; the classifier's other experiments point to it.
    assert_eq!(
        h.query_all_by_label("需要上面的数据集 `thucnews_titles`")
            .count(),
        4
    );
    no_english(
        &h,
        "missing data set",
        &[
            missing.to_string(),
            set.title.clone(),
            set.purpose.clone(),
            set.terms.clone(),
            "Download".into(),
            "Import from folder".into(),
        ],
    );

    // 3. A training file with no valid line.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "no tab here\nnor here\n").unwrap();
    let read = tianwang::engine::classify::corpus::read_tsv(&bad, false).unwrap_err();
    h.get_by_label("训练/测试文件").click();
    run_settled(&mut h, "训练/测试文件", 30);
    h.get_by_label("训练文件").click();
    h.get_by_label("训练文件")
        .type_text(&bad.display().to_string());
    h.get_by_label("测试文件").click();
    h.get_by_label("测试文件")
        .type_text(&bad.display().to_string());
    h.get_by_label("训练并测试").click();
    wait_secs(&mut h, "the bad file's error", 60, |h| {
        h.query_all_by_label_contains("输入有误，位置")
            .next()
            .is_some()
    });
    let said = format!("输入有误，位置 {}", bad.display());
    let all = texts(&h);
    assert!(
        all.iter().any(|t| t.starts_with(&said)),
        "the bad file's error from the string tables, naming the file: {all:?}"
    );
    // The reason alone, not only the whole English message: the zh sentence around an English
    // reason would hide the whole message but not the reason.
    let reason = match &read {
        EngineError::Unreadable { why, .. } => why.english.clone(),
        EngineError::BadInput { reason, .. } => reason.clone(),
        other => other.to_string(),
    };
    assert!(reason.contains("no readable document"), "{reason}");
    no_english(
        &h,
        "bad file",
        &[
            read.to_string(),
            reason,
            "no readable document".into(),
            "skipped".into(),
            "bad input".into(),
        ],
    );
}

/// A panel's book experiment runs through the registry as the logged `experiment` job: the
/// Search panel's Table 8-2 shows our figures beside the book's and the registry's verdict.
#[test]
fn a_book_button_runs_the_registry_and_shows_ours_beside_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened_on_data(&dir.path().join("w.tianwang"), &dir.path().join("data"));
    h.get_by_label("检索与排序").click();
    // The row above the tabs says "opening" until the index is looked for, then the banner
    // (wider): a click is a pointer at a position, so the tabs must stop moving first.
    wait_secs(&mut h, "the missing-index banner", 30, |h| {
        h.query_by_label("这个工作区还没有索引。").is_some()
    });
    settle(&mut h, "the search panel", 30);
    h.get_by_label("书中实验").click();
    wait_secs(&mut h, "the book experiments", 30, |h| {
        h.query_by_label("运行 table-8-2").is_some()
    });
    h.get_by_label("运行 table-8-2").click();
    wait_secs(&mut h, "the table-8-2 run", 60, |h| {
        h.query_by_label("每秒查询数（IOPS / L_q）").is_some()
    });
    // The rows' names are said from the string tables, not the registry's English.
    no_english(
        &h,
        "table-8-2 rows",
        &["queries per second".into(), "lists read".into()],
    );
    h.get_by_label_contains("全部符合书中结论");
    h.get_by_label("书中的");
    // The run is in the experiment log like any job.
    let ws =
        tianwang::engine::store::Workspace::open_existing(&dir.path().join("w.tianwang")).unwrap();
    let jobs = tianwang::engine::jobs::list_jobs(&ws, &Default::default()).unwrap();
    assert!(
        jobs.iter().any(|j| j.kind == "experiment"),
        "the run is logged"
    );
}
