//! GUI tests of the page-cleaning (DocView) panel with egui_kittest: reach it in both
//! languages, open a typed HTML file and see the extraction and the block map, move a threshold
//! and see the page type change, cut the book's example by every method and step FMM, and run
//! the evaluation on the sample web and open a page from its table.

use std::path::Path;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tianwang::engine::docview::{PageType, Params, extract};
use tianwang::ui::{Lang, WorkbenchApp};

/// A small article: navigation, a heading, two paragraphs, a related-links list, a footer.
/// The main region has about 4.6 text characters per list-anchor character: a topic page at
/// the default hub threshold (3), a hub page at 20.
const PAGE: &str = r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>搜索引擎的三个部分_课堂测试网</title></head>
<body>
<div id="nav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/tech">科技</a> <a href="/about">关于我们</a></div>
<div class="content">
<h1>搜索引擎的三个部分</h1>
<p>搜索引擎由网页搜集、预处理和查询服务三个部分组成。网页搜集负责从互联网上抓取网页，并把它们保存在原始网页库中，供后续的处理使用。</p>
<p>预处理阶段对网页进行净化、分词、消重和建立索引，为查询服务做好准备。查询服务则根据用户输入的查询词，从索引中找出相关的网页并排序返回。</p>
<div class="related"><h3>相关阅读</h3><ul><li><a href="/a1">网页搜集的原理与方法</a></li><li><a href="/a2">倒排索引是怎样建立的</a></li><li><a href="/a3">中文分词的常用算法</a></li></ul></div>
</div>
<div id="footer">版权所有 课堂测试网 联系我们</div>
</body></html>"#;

mod common;
use common::harness;
use common::wait_secs as wait_for;

fn has(h: &Harness<'_, WorkbenchApp>, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
}

fn has_part(h: &Harness<'_, WorkbenchApp>, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

/// A harness on a fresh workspace, showing the panel.
fn on_panel(dir: &Path) -> Harness<'static, WorkbenchApp> {
    let mut h = harness(&dir.join("w.tianwang"));
    wait_for(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h.run_steps(2);
    h.get_by_label("网页净化").click();
    // The page list loads in the background and moves what is below it: let it land.
    wait_for(&mut h, "the page list", 20, |h| has_part(h, "个 HTML 网页"));
    h
}

/// Type the path of `PAGE` (written to `dir`) and wait for the extraction.
fn open_page(h: &mut Harness<'_, WorkbenchApp>, dir: &Path) {
    let file = dir.join("课堂测试.html");
    std::fs::write(&file, PAGE).unwrap();
    let input = h.get_by_role_and_label(Role::TextInput, "或输入 HTML 文件路径：");
    input.focus();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "或输入 HTML 文件路径：")
        .type_text(file.to_str().unwrap());
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    wait_for(h, "the extracted title", 20, |h| {
        has(h, "搜索引擎的三个部分") && has_part(h, "抽取用时")
    });
}

#[test]
fn the_panel_is_reachable_in_both_languages() {
    let d = tempfile::tempdir().unwrap();
    let mut h = on_panel(d.path());
    h.get_by_label("网页净化与 DocView 模型");
    h.get_by_label("抽取");
    h.get_by_label("分词");
    h.get_by_label("评测");
    h.get_by_label("选择网页");
    h.get_by_label("打开 HTML 文件…");
    h.get_by_label("从左侧选择一个已保存的网页，或打开一个 HTML 文件。");

    h.get_by_label("English").click();
    h.run_steps(3);
    assert_eq!(h.state().prefs().lang, Lang::En);
    h.get_by_label("Page cleaning and the DocView model");
    h.get_by_label("Extract");
    h.get_by_label("Segmentation").click();
    h.run_steps(3);
    h.get_by_label("The book's examples:");
    h.get_by_label("Evaluation").click();
    h.run_steps(3);
    h.get_by_label("Run the evaluation");
    // The overview's guide has an entry for the panel.
    h.get_by_label("Overview").click();
    h.run_steps(3);
    h.get_by_label("Page cleaning →").scroll_to_me();
    h.run_steps(3);
    h.get_by_label("Page cleaning →").click();
    h.run_steps(3);
    h.get_by_label("Page cleaning and the DocView model");
    h.get_by_label("中文").click();
    h.run_steps(3);
    h.get_by_label("网页净化与 DocView 模型");
}

#[test]
fn a_typed_html_file_is_extracted_with_its_block_map() {
    let d = tempfile::tempdir().unwrap();
    let mut h = on_panel(d.path());
    open_page(&mut h, d.path());
    // The extracted view: encoding, type with its ratios, title and its source, body.
    assert!(has_part(&h, "编码 utf-8"));
    // Why that encoding, in Chinese too (it was the engine's English).
    assert!(has(&h, "<meta> 声明“utf-8”"));
    assert!(!has_part(&h, " says "));
    h.get_by_label("主题型（topic）");
    assert!(has_part(&h, "正文字/链接字 = 4.6（阈值 3.0）"));
    h.get_by_label_contains("来源：正文中的标题");
    assert!(has_part(
        &h,
        "搜索引擎由网页搜集、预处理和查询服务三个部分组成"
    ));
    h.get_by_label_contains("共 7 个链接");
    // The raw HTML, coloured, beside it.
    h.get_by_label("原始 HTML");
    assert!(has_part(&h, "<title>搜索引擎的三个部分_课堂测试网</title>"));

    h.get_by_label("块图").click();
    h.run_steps(3);
    h.get_by_label("图例：");
    for role in ["正文", "导航", "链接列表", "广告", "页脚", "图片", "容器"] {
        assert!(has(&h, role), "legend lacks {role}");
    }
    h.get_by_label_contains("个内容块，主区域内");
    h.get_by_label("只显示有文字的块").click();
    h.run_steps(3);
}

#[test]
fn a_higher_hub_threshold_re_extracts_the_page_as_a_hub() {
    // The fixture is what the test claims it is.
    let at = |hub_ratio| {
        let p = Params {
            hub_ratio,
            ..Params::default()
        };
        extract(PAGE.as_bytes(), None, None, None, &p)
            .unwrap()
            .page_type
    };
    assert_eq!((at(3.0), at(20.0)), (PageType::Topic, PageType::Hub));

    let d = tempfile::tempdir().unwrap();
    let mut h = on_panel(d.path());
    open_page(&mut h, d.path());
    assert!(has(&h, "主题型（topic）"));
    assert!(!has(&h, "目录型（hub）"));
    h.get_by_role_and_label(Role::Slider, "目录阈值")
        .set_value_accesskit(20.0);
    wait_for(&mut h, "the hub page type", 20, |h| has(h, "目录型（hub）"));
    assert!(!has(&h, "主题型（topic）"));
    h.get_by_label_contains("< 20");
    // Back to the defaults: a topic page again.
    h.get_by_label("恢复默认").click();
    wait_for(&mut h, "the topic page type", 20, |h| {
        has(h, "主题型（topic）")
    });
}

#[test]
fn segmentation_compares_methods_and_steps_fmm() {
    let d = tempfile::tempdir().unwrap();
    let mut h = on_panel(d.path());
    h.get_by_label("分词").click();
    h.run_steps(2);
    h.get_by_label("我的笔记本").click();
    wait_for(&mut h, "我的笔记本 cut", 20, |h| {
        has(h, "我 / 的 / 笔记本")
    });
    h.get_by_label("学历史知识").click();
    wait_for(&mut h, "the FMM row", 20, |h| has(h, "学历 / 史 / 知识"));
    // FMM errs; backtracking (and jieba) get it right.
    assert_eq!(h.query_all_by_label("学历 / 史 / 知识").count(), 1);
    assert!(h.query_all_by_label("学 / 历史 / 知识").count() >= 2);
    h.get_by_label("正向最大匹配 FMM");
    h.get_by_label("FMM + 回溯");
    assert!(has_part(&h, "字/毫秒"));
    assert!(
        has_part(&h, "（不同 2）"),
        "FMM's two words differ from jieba's"
    );

    // The stepper: the first window is the leftmost MaxLen = 4 characters.
    let steps = h
        .query_all_by_label_contains("第 0 / ")
        .next()
        .map(|_| ())
        .is_some();
    assert!(steps, "the stepper starts at step 0");
    h.get_by_label("下一步 ▶").click();
    h.run_steps(2);
    assert!(has_part(&h, "第 1 / "));
    h.get_by_label_contains("“学历史知”不在词典中");
    h.get_by_label("下一步 ▶").click();
    h.run_steps(2);
    h.get_by_label("下一步 ▶").click();
    h.run_steps(2);
    assert!(has_part(&h, "第 3 / "));
    h.get_by_label_contains("“学历”在词典中");
    h.get_by_label("已切出：学历");
    h.get_by_label("◀ 上一步").click();
    h.run_steps(2);
    assert!(has_part(&h, "第 2 / "));
    h.get_by_label("重置").click();
    h.run_steps(2);
    assert!(has_part(&h, "第 0 / "));
    // RMM's window starts at the right.
    h.get_by_label("逆向 RMM").click();
    h.run_steps(2);
    h.get_by_label("下一步 ▶").click();
    h.run_steps(2);
    h.get_by_label_contains("“历史知识”不在词典中 → 去掉最左边一个字");
}

#[test]
fn evaluation_on_the_sample_web_lists_pages_that_open_in_extract() {
    let d = tempfile::tempdir().unwrap();
    let mut h = on_panel(d.path());
    h.get_by_label("评测").click();
    h.run_steps(2);
    h.get_by_label("样例网站（434 页，含标准答案）");
    h.get_by_label("开始评测").click();
    h.run_steps(2);
    // It runs as a job: in the top bar with its Cancel.
    assert_eq!(h.state().running_jobs().len(), 1);
    wait_for(&mut h, "the totals", 60, |h| has(h, "正文 F1（宏平均）"));
    h.get_by_label("类型准确率");
    h.get_by_label("标题完全一致");
    // The source and who decided each page's encoding, in Chinese (they were "sample" and
    // "header", the engine's words).
    h.get_by_label_contains("数据：样例网站 · 434 个网页");
    assert!(has_part(&h, "utf-8 · HTTP 头"));
    assert!(!has_part(&h, "· header"));
    assert!(has(&h, "图片型") && !has(&h, "picture"));
    h.get_by_label("逐页结果（最差的在前）");
    // The worst page first: whichever site it is on (the rows are the sample web's URLs).
    let first = h
        .query_all_by_label_contains("http://")
        .next()
        .and_then(|n| n.value())
        .expect("a page row");
    assert!(!first.is_empty());
    h.query_all_by_label_contains("http://")
        .next()
        .unwrap()
        .click();
    wait_for(&mut h, "the page in Extract", 20, |h| {
        has_part(h, "来自评测：正文 F1") && has_part(h, "抽取用时")
    });
    h.get_by_label(&first);
}

/// Every string key the panel's files use exists in both tables.
#[test]
fn every_key_of_the_panel_is_in_both_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = |name: &str| -> std::collections::HashSet<String> {
        std::fs::read_to_string(root.join("assets/i18n").join(name))
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.trim().to_string()))
            .collect()
    };
    let (zh, en) = (table("zh.txt"), table("en.txt"));
    // Everything under src/ui/docview/ (the panel's root is its `mod.rs`).
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src/ui/docview")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    let mut used = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        for prefix in ["\"docview.", "\"jobs.", "\"nav.", "\"guide."] {
            for (pos, _) in src.match_indices(prefix) {
                let rest = &src[pos + 1..];
                if let Some(end) = rest.find('"') {
                    used.push(rest[..end].to_string());
                }
            }
        }
    }
    assert!(used.len() > 150, "found only {} keys", used.len());
    // A key made at run time (`format!("docview.by_{}", …)`) is checked where it is shown.
    let missing: Vec<_> = used
        .iter()
        .filter(|k| !k.contains('{'))
        .filter(|k| !zh.contains(*k) || !en.contains(*k))
        .collect();
    assert!(missing.is_empty(), "keys missing from a table: {missing:?}");
}
