//! The Overview's Data section in Chinese on a fresh data folder given as `--data DIR` (the
//! app resolves it once and hands it to the panels; `$TIANWANG_DATA` pointing elsewhere is not
//! read): every set is listed by its Chinese name as not installed with the command that
//! installs it, no English set title is shown, and after a set is imported it shows as
//! installed.

mod common;

use common::{opened_on_data, shared_data, wait_secs};
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
    h.get_by_label("刷新");
    wait_secs(&mut h, "hollins installed", 30, |h| {
        h.query_by_label("已安装").is_some()
    });
    assert!(
        h.query_by_label("未安装——`tianwang data fetch hollins`")
            .is_none()
    );
}
