//! The lesson player: the segmentation lesson played end to end with **Do it** — each step's
//! experiment runs as a logged job, the ours-vs-book line appears once it has finished, the
//! question takes an answer kept in the workspace — to the last step. With
//! `TIANWANG_SCREENSHOTS=DIR … -- --ignored screenshots_when_asked`, the player in Chinese, in
//! English and in presenter mode at 200 % is written into DIR (the README's figures).

mod common;

use common::{opened, wait_secs};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

/// Click `label` (scrolled into view first).
fn click(h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run_steps(2);
    h.get_by_label(label).click();
    h.run_steps(2);
}

type H = egui_kittest::Harness<'static, tianwang::ui::WorkbenchApp>;

/// The bundled lesson titled `title` (as the Chinese Lessons menu lists it), opened.
fn open_lesson(h: &mut H, title: &str) {
    h.get_by_label("课程").click();
    h.run_steps(2);
    h.get_by_label(title).click();
    h.run_steps(2);
}

/// Zoomed to 200 % (four steps of Ctrl+=).
fn zoom_200(h: &mut H) {
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run_steps(1);
    }
}

#[test]
fn play_the_segmentation_lesson_to_its_last_step_with_do_it() {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("w.tianwang");
    let mut h = opened(&ws);
    open_lesson(&mut h, "第 4 章 · 中文切词：正向与逆向最大匹配");
    h.get_by_label_contains("第 1 步，共 6 步");

    // Step 1 opens DocView.
    click(&mut h, "动手做");
    assert_eq!(h.state().prefs().panel, "DocView");
    click(&mut h, "下一步 ▶");

    // Steps 2–4: the FMM examples run as an experiment job; ours beside the book's.
    for (n, cut) in [
        (2, "我/的/笔记本"),
        (3, "学历/史/知识"),
        (4, "学/历史/知识"),
    ] {
        h.get_by_label_contains(&format!("第 {n} 步，共 6 步"));
        if n == 2 {
            // Nothing to compare before the job ran.
            h.get_by_label("实验运行后（动手做），这里显示我们的数字和书上的数字。");
        }
        click(&mut h, "动手做");
        let want = format!("我们 {cut} · 书中 {cut}");
        wait_secs(&mut h, "the experiment job", 60, |h| {
            h.query_by_label(&want).is_some() && h.state().running_jobs().is_empty()
        });
        h.get_by_label("√");
        click(&mut h, "下一步 ▶");
    }

    // Step 5: a question; a wrong answer is refused, the book's is accepted and kept.
    h.get_by_label_contains("第 5 步，共 6 步");
    click(&mut h, "动手做");
    h.get_by_label("课堂提问");
    h.get_by_role_and_label(Role::TextInput, "姓名").focus();
    h.run_steps(1);
    h.get_by_role_and_label(Role::TextInput, "姓名")
        .type_text("李雷");
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "答案").focus();
    h.run_steps(1);
    h.get_by_role_and_label(Role::TextInput, "答案")
        .type_text("7");
    h.run_steps(2);
    click(&mut h, "提交");
    h.get_by_label("不正确（书中的范围：1 – 1）");
    wait_secs(&mut h, "the first answer to be kept", 20, |h| {
        h.query_by_label("答案已保存到工作区").is_some()
    });
    h.get_by_role_and_label(Role::TextInput, "答案").focus();
    h.run_steps(1);
    h.key_press(egui::Key::Backspace);
    h.run_steps(1);
    h.get_by_role_and_label(Role::TextInput, "答案")
        .type_text("1");
    h.run_steps(2);
    click(&mut h, "提交");
    h.get_by_label("正确（书中的范围：1 – 1）");
    wait_secs(&mut h, "the answer to be kept", 20, |h| {
        h.query_by_label("答案已保存到工作区").is_some()
    });
    click(&mut h, "下一步 ▶");

    // The last step: Next is disabled; every step with an action is done.
    h.get_by_label_contains("第 6 步，共 6 步");
    click(&mut h, "动手做");
    h.get_by_label_contains("已完成 6");
    // Back on a figure step, the check still shows ours beside the book's.
    click(&mut h, "◀ 上一步");
    click(&mut h, "◀ 上一步");
    h.get_by_label("我们 学/历史/知识 · 书中 学/历史/知识");

    let w = tianwang::engine::store::Workspace::open_existing(&ws).unwrap();
    let kept = tianwang::workbench::lessons::answers::list(&w).unwrap();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert_eq!(
        (kept[1].lesson.as_str(), kept[1].step, kept[1].accepted),
        ("segmentation", 5, true)
    );
    assert_eq!(
        (kept[0].student.as_str(), kept[0].accepted),
        ("李雷", false)
    );
    // Each Do it of an experiment step is a job in the experiment log.
    let log = tianwang::engine::jobs::list_jobs(&w, &Default::default()).unwrap();
    assert_eq!(log.iter().filter(|r| r.kind == "experiment").count(), 3);
}

/// A presentation clicker (Page Down / Page Up) turns the steps; while an answer is being
/// typed the keys stay with the text field.
#[test]
fn page_down_and_page_up_turn_the_steps_unless_an_answer_is_being_typed() {
    let d = tempfile::tempdir().unwrap();
    let mut h = opened(&d.path().join("w.tianwang"));
    open_lesson(&mut h, "第 4 章 · 中文切词：正向与逆向最大匹配");
    let key = |h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, k, want: usize| {
        h.key_press(k);
        h.run_steps(2);
        h.get_by_label_contains(&format!("第 {want} 步，共 6 步"));
    };
    h.get_by_label_contains("第 1 步，共 6 步");
    key(&mut h, egui::Key::PageUp, 1);
    for want in 2..=5 {
        key(&mut h, egui::Key::PageDown, want);
    }
    key(&mut h, egui::Key::PageUp, 4);
    key(&mut h, egui::Key::PageDown, 5);
    // Step 5 asks a question: with its answer box focused, Page Down is the text field's.
    click(&mut h, "动手做");
    h.get_by_role_and_label(Role::TextInput, "答案").focus();
    h.run_steps(1);
    key(&mut h, egui::Key::PageDown, 5);
}

/// At 200 % without presenter mode the drawer keeps every control inside the window: its row
/// of Back / Next / Do it was wider than the drawer's 220 points, which pushed the drawer past
/// the window's edge, under the step's panel.
#[test]
fn the_lesson_drawer_fits_the_window_at_200_percent() {
    let d = tempfile::tempdir().unwrap();
    let mut h = opened(&d.path().join("w.tianwang"));
    open_lesson(&mut h, "第 9 章 · 查询结果缓存：表 9-2 与 Belady 异常");
    zoom_200(&mut h);
    h.run_steps(6);
    let window = h.ctx.content_rect();
    for label in ["演示模式", "关闭", "◀ 上一步", "下一步 ▶", "动手做"] {
        let r = h.get_by_label(label).rect();
        assert!(
            window.contains_rect(r),
            "{label:?} at {r:?} is not inside the window {window:?}"
        );
    }
}

/// A step that opens a panel with parameters goes through the experiment log's re-open path:
/// the caching lesson's first step fills the cache panel with its trace, policies and sizes.
#[test]
fn do_it_fills_a_panel_through_the_reopen_path() {
    let d = tempfile::tempdir().unwrap();
    let mut h = opened(&d.path().join("w.tianwang"));
    open_lesson(&mut h, "第 9 章 · 查询结果缓存：表 9-2 与 Belady 异常");
    assert_eq!(h.state().prefs().panel, "Overview");
    click(&mut h, "动手做");
    assert_eq!(h.state().prefs().panel, "cache");
    h.get_by_label("课程已填好“缓存策略”面板");
    // The lesson's sizes are in the panel's form.
    assert!(h.query_all_by_value("100,500,3000").next().is_some());
    h.get_by_label("√ 已完成");
}

/// Every step of every bundled lesson draws in both languages with the bundled font alone
/// (kittest panics on a character no font has: a class without a system CJK font sees no
/// boxes), at 100 % and at 200 %, where the drawer's controls stay inside the window on every
/// step.
#[test]
fn every_bundled_step_draws_in_both_languages() {
    let d = tempfile::tempdir().unwrap();
    let mut h = opened(&d.path().join("w.tianwang"));
    for zoom in [1, 2] {
        if zoom == 2 {
            zoom_200(&mut h);
        }
        for (lang, menu, controls) in [
            ("中文", "课程", ["演示模式", "关闭", "◀ 上一步", "下一步 ▶"]),
            (
                "English",
                "Lessons",
                ["Presenter", "Close", "◀ Back", "Next ▶"],
            ),
        ] {
            h.get_by_label(lang).click();
            h.run_steps(2);
            for l in tianwang::workbench::lessons::bundled().unwrap() {
                h.get_by_label(menu).click();
                h.run_steps(2);
                let en = lang == "English";
                let title = if en {
                    format!("Ch. {} · {}", l.chapter, l.title.en)
                } else {
                    format!("第 {} 章 · {}", l.chapter, l.title.zh)
                };
                h.get_by_label(&title).click();
                h.run_steps(2);
                for step in 1..=l.steps.len() {
                    if zoom == 2 {
                        let window = h.ctx.content_rect();
                        for c in controls {
                            let r = h.get_by_label(c).rect();
                            assert!(
                                window.contains_rect(r),
                                "{title}, step {step}: {c:?} at {r:?} is outside {window:?}"
                            );
                        }
                    }
                    if step < l.steps.len() {
                        // Scrolled into view and settled first: at 200 % the drawer scrolls,
                        // and a click during the scroll is not taken.
                        h.get_by_label(controls[3]).scroll_to_me();
                        h.run_steps(12);
                        click(&mut h, controls[3]);
                        let want = if en {
                            format!("Step {} of {}", step + 1, l.steps.len())
                        } else {
                            format!("第 {} 步，共 {} 步", step + 1, l.steps.len())
                        };
                        assert!(
                            h.query_by_label_contains(&want).is_some(),
                            "{title} at {zoom}00 %: Next on step {step} did not turn the step"
                        );
                    }
                }
                let last = if en {
                    format!("Step {n} of {n}", n = l.steps.len())
                } else {
                    format!("第 {n} 步，共 {n} 步", n = l.steps.len())
                };
                assert!(
                    h.query_by_label_contains(&last).is_some(),
                    "{title} at {zoom}00 %: not on its last step ({last:?})"
                );
            }
        }
    }
}

/// README figures: the caching lesson's Table 9-2 step after **Do it**, in Chinese, in
/// English, and in presenter mode at 200 %.
#[test]
#[ignore]
fn screenshots_when_asked() {
    let Some(out) = std::env::var_os("TIANWANG_SCREENSHOTS") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let d = tempfile::tempdir().unwrap();
    let mut h = common::screenshot_harness(&d.path().join("w.tianwang"));
    open_lesson(&mut h, "第 9 章 · 查询结果缓存：表 9-2 与 Belady 异常");
    click(&mut h, "下一步 ▶");
    click(&mut h, "动手做");
    wait_secs(&mut h, "Table 9-2", 300, |h| {
        h.query_by_label("√").is_some() && h.state().running_jobs().is_empty()
    });
    let shot = |h: &mut egui_kittest::Harness<'_, tianwang::ui::WorkbenchApp>, name: &str| {
        common::shot(h, &out, name, common::Settle::Steps(6))
    };
    shot(&mut h, "lessons_zh.png");
    h.get_by_label("English").click();
    h.run_steps(3);
    shot(&mut h, "lessons_en.png");
    h.get_by_label("中文").click();
    h.run_steps(3);
    h.get_by_label("演示模式").click();
    zoom_200(&mut h);
    shot(&mut h, "lessons_presenter_zh_200.png");
}
