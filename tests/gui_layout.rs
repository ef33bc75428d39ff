//! The app on a projector: every panel and tab at 200 % zoom, in Chinese and English, keeps
//! all it shows inside the window's width, below the fold too (a tab row or a form that ran
//! past the right edge was out of reach: the search tabs, the sample web's switches, the
//! Overview's cards; a table or a row of SimHash bits made the panel scroll sideways); the
//! cache lab's legends, with all 17 policies, stay clear of its form and of the next plot;
//! and the status bar says a finished job in the language shown, not the one it finished in;
//! no Chinese view shows an English phrase (engine English nobody translated).
//! Positions come from the accessibility tree of the UI pass; nothing is rendered.

#[path = "common/frames.rs"]
mod frames;
#[path = "common/layout.rs"]
mod layout;

use std::path::PathBuf;

use egui_kittest::kittest::Queryable;

const SIZES: frames::Sizes = frames::Sizes {
    pages: 400,
    pipeline_pages: 100,
    log_lines: 5_000,
};
const DRIVE: frames::Drive = frames::Drive {
    frames: 1,
    secs: 240,
    cache_sizes: 4,
};

fn workspace() -> &'static PathBuf {
    frames::shared(SIZES)
}

#[test]
fn every_view_fits_the_window_at_200_percent_in_chinese_and_english() {
    let (mut h, _) = frames::open(workspace(), SIZES.pages);
    // The query log's tabs appear once its statistics are computed.
    let _ = frames::drive_panel(&mut h, "querylog", DRIVE);
    layout::zoom_200(&mut h);
    // Four times as tall: a scroll area lays out only what it shows.
    layout::tall_200(&mut h);
    let mut found = Vec::new();
    let mut english = Vec::new();
    let mut views = 0;
    layout::every_view(&mut h, DRIVE, false, |h, name| {
        views += 1;
        if name.ends_with("_missing") {
            found.push(format!("{name}: a tab is missing"));
        }
        for o in layout::past_right_edge(h) {
            found.push(format!("{name}: {o}"));
        }
        if name.ends_with("_zh") {
            for t in layout::english_phrases(h) {
                english.push(format!("{name}: {t:?}"));
            }
        }
    });

    assert!(views >= 60, "only {views} views were visited");
    assert!(
        found.is_empty(),
        "{} widgets run past the right edge at 200 %:\n{}",
        found.len(),
        found.join("\n")
    );
    english.dedup();
    assert!(
        english.is_empty(),
        "English phrases in the Chinese UI:\n{}",
        english.join("\n")
    );
}

/// The phrase check sees engine English and lets names and Chinese with a Latin word pass.
#[test]
fn the_english_phrase_check_tells_sentences_from_names() {
    assert!(layout::has_english_phrase("the HTTP header says \"utf-8\""));
    assert!(layout::has_english_phrase(
        "nothing decodes better, so the declaration stands"
    ));
    assert!(!layout::has_english_phrase(
        "字体：内置 Noto Sans CJK SC 子集"
    ));
    assert!(!layout::has_english_phrase("jieba（HMM 关） · 分词方法"));
    assert!(!layout::has_english_phrase("<meta> 声明“utf-8”"));
}

#[test]
fn cache_legends_stay_clear_of_the_form_and_the_status_bar_follows_the_language() {
    let (mut h, _) = frames::open(workspace(), SIZES.pages);
    // All 17 policies at four sizes on the calibrated ch. 9 stream, run in Chinese.
    let _ = frames::drive_panel(&mut h, "cache", DRIVE);
    assert!(
        h.query_by_label("任务「缓存模拟」已完成").is_some(),
        "the status bar does not say the run finished"
    );
    frames::click(&mut h, "English");
    frames::settle(&mut h, 30);
    assert!(
        h.query_by_label("Finished: cache simulation").is_some(),
        "after switching to English the status bar does not say \"Finished: cache simulation\""
    );
    // Between the top bar and the status bar: the panel's own widgets, the legends' entries
    // ("ch9×0.1 lru *") among them.
    let top = h.get_by_label("English").rect().max.y;
    let bottom = h.get_by_label("Finished: cache simulation").rect().min.y;
    let boxes: Vec<layout::Boxed> = layout::labelled(&h)
        .into_iter()
        .filter(|b| b.rect.min.y >= top && b.rect.max.y <= bottom)
        .collect();
    let entries = boxes.iter().filter(|b| b.label.starts_with("ch9×")).count();
    assert!(entries >= 10, "{entries} legend entries on screen");
    let over: Vec<String> = layout::overlapping(&boxes)
        .into_iter()
        .filter(|(a, b)| a.label.starts_with("ch9×") || b.label.starts_with("ch9×"))
        .map(|(a, b)| format!("{:?} {:?} × {:?} {:?}", a.label, a.rect, b.label, b.rect))
        .collect();
    assert!(
        over.is_empty(),
        "legend entries overlap other widgets:\n{}",
        over.join("\n")
    );
}
