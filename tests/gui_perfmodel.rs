//! The §8.4 performance-model widget (a tab of the Search panel), alone in a harness: k past
//! k_max turns the badge red, the full-text switch gives k ≈ 6.7, a Table 8-2 disk changes the
//! throughput, this index's statistics replace the book's, the ITF crossing and the Stirling
//! check's 305 show.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tianwang::engine::index::perfmodel::CorpusStats;
use tianwang::ui::Lang;
use tianwang::ui::search::perfmodel::PerfModelView;

type State = (PerfModelView, Lang);

fn harness(
    lang: Lang,
    size: [f32; 2],
    fonts: impl FnOnce(&egui::Context) + 'static,
) -> Harness<'static, State> {
    Harness::builder()
        .with_size(size)
        .with_theme(egui::Theme::Light)
        .with_context_setup(fonts)
        .build_ui_state(
            |ui, (view, lang): &mut State| view.ui(ui, *lang),
            (PerfModelView::default(), lang),
        )
}

#[test]
fn k_full_text_disk_and_corpus_change_what_is_shown() {
    let mut h = harness(
        Lang::Zh,
        [1400.0, 1000.0],
        tianwang::ui::fonts::install_bundled,
    );
    h.run_steps(3);
    // The book's magnitudes: k = 20 just fits in B·r = 20 MB.
    h.get_by_label("D/B = 0.9998 s");
    h.get_by_label_contains("达标");
    h.get_by_label_contains("实数解 20.00");
    // One more query misses r.
    h.get_by_label("k 并发查询数").set_value_accesskit(21.0);
    h.run_steps(3);
    h.get_by_label("D/B = 1.050 s");
    h.get_by_label_contains("超时");
    assert!(h.query_by_label_contains("达标").is_none());
    // Full text: dα triples, k_max ≈ 6.7.
    h.get_by_label("全文索引（记录位置）").click();
    h.run_steps(3);
    h.get_by_label_contains("实数解 6.667");
    // This index's statistics beside the book's, then as the inputs.
    h.state_mut().0.set_corpus(Some(CorpusStats {
        docs: 434,
        terms: 20_000,
        postings: 100_000,
        occurrences: 400_000,
    }));
    h.run_steps(2);
    h.get_by_label("书中与本索引（c、B、r、k 与索引类型相同）");
    h.get_by_label("本索引数值").click();
    h.run_steps(3);
    h.get_by_label_contains("当前：本索引的 N、M、α、T_N");
    assert!(
        h.query_by_label_contains("超时").is_none(),
        "a tiny index fits in r"
    );

    // The throughput planner: the rule of thumb gives 20 and (with transfer) 10 queries/s.
    h.get_by_label("吞吐量规划（表 8-2）").click();
    h.run_steps(3);
    h.get_by_label("10.00 查询/秒");
    h.get_by_label("20.00 查询/秒");
    h.get_by_role(Role::ComboBox).click();
    h.run_steps(2);
    h.get_by_label("Seagate Cheetah X15 (3.9 ms, 169.5 IOPS, 38 MB/s)")
        .click();
    h.run_steps(3);
    // 3.9 ms + 200 kB at 38 MB/s = 9.16 ms a list, × 5 terms: 21.83 q/s; 169.5 / 5 = 33.90.
    h.get_by_label("21.83 查询/秒");
    h.get_by_label("33.90 查询/秒");
    assert!(h.query_by_label("10.00 查询/秒").is_none());
    // RAID of two doubles both.
    h.get_by_role_and_label(Role::Slider, "RAID 磁盘数 N")
        .set_value_accesskit(2.0);
    h.run_steps(3);
    h.get_by_label("67.80 查询/秒");

    // Table 8-1: the curves cross near ITF = 4.
    h.get_by_label("汉字与英文词（表 8-1）").click();
    h.run_steps(3);
    assert!(
        h.query_all_by_label_contains("两曲线交点：ITF ≈ 3.93，名次 ≈ 1135")
            .count()
            >= 1
    );
    h.get_by_label("6713");

    // The Stirling check: M = 5, k = 3 → 305 / 125.
    h.get_by_label("Stirling 数验证").click();
    h.run_steps(3);
    assert_eq!(
        h.query_all_by_label("305").count(),
        2,
        "the sum and M(M^k − (M−1)^k)"
    );
    h.get_by_label("305/125 = 61/25 = 2.440000");
    // The Monte Carlo estimate is drawn in the background.
    stirling_drawn(&mut h);
    h.get_by_label_contains("一致");
}

/// Step frames until the Stirling check's Monte Carlo row is no longer "computing…".
fn stirling_drawn(h: &mut Harness<'static, State>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    h.step();
    while h.query_by_label("计算中…").is_some() || h.query_by_label("computing…").is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "the Monte Carlo estimate never came"
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    h.run_steps(2);
}

/// README figures: `TIANWANG_SCREENSHOTS=DIR cargo test --test gui_perfmodel -- --ignored
/// screenshots_when_asked` writes the model tab in Chinese and English
/// (`search_perfmodel_zh.png`, `search_perfmodel_en.png`) and the other three tabs
/// (`search_perfmodel_itf_zh.png`, `…_throughput_zh.png`, `…_stirling_en.png`) into DIR, with
/// the system CJK font first.
#[test]
#[ignore]
fn screenshots_when_asked() {
    let Some(out) = std::env::var_os("TIANWANG_SCREENSHOTS") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let font = tianwang::ui::fonts::find_system_cjk();
    for lang in [Lang::Zh, Lang::En] {
        let f = font.clone();
        let mut h = harness(lang, [1400.0, 1000.0], move |ctx| {
            tianwang::ui::fonts::install_with_system(ctx, f.as_ref())
        });
        h.run_steps(3);
        let shot = |h: &mut Harness<'_, State>, name: &str| {
            common::shot(h, &out, name, common::Settle::Steps(3))
        };
        let (suffix, tabs): (&str, [&str; 3]) = match lang {
            Lang::Zh => (
                "zh",
                [
                    "汉字与英文词（表 8-1）",
                    "吞吐量规划（表 8-2）",
                    "Stirling 数验证",
                ],
            ),
            Lang::En => (
                "en",
                [
                    "Words vs characters (Table 8-1)",
                    "Throughput planner (Table 8-2)",
                    "Stirling check",
                ],
            ),
        };
        shot(&mut h, &format!("search_perfmodel_{suffix}.png"));
        for (tab, name) in tabs.into_iter().zip(["itf", "throughput", "stirling"]) {
            let wanted = matches!(
                (lang, name),
                (Lang::Zh, "itf") | (Lang::Zh, "throughput") | (Lang::En, "stirling")
            );
            if wanted {
                h.get_by_label(tab).click();
                h.run_steps(3);
                stirling_drawn(&mut h);
                shot(&mut h, &format!("search_perfmodel_{name}_{suffix}.png"));
            }
        }
    }
}
