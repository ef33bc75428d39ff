//! Tests of `edges`: each page is written here with one kind of furniture at the edge of an
//! article's own container (without its rule it is body), and beside it a sentence of the
//! article in like words that stays.

use super::*;
use crate::engine::docview::DocView;
use crate::engine::docview::body::pages::{self, ARTICLE, body_has, why_of};

/// A page whose article container holds `inside`.
fn page(inside: &str) -> DocView {
    pages::page(inside, "")
}

#[test]
fn widget_labels_and_a_like_counter_at_the_edges_are_dropped() {
    let dv = page(&format!("<p>图集</p>{ARTICLE}<p>+1</p><p>【纠错】</p>"));
    for w in ["图集", "+1", "【纠错】"] {
        assert!(!dv.body.lines().any(|l| l == w), "{w} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "图集"), "edge_widget");
    assert_eq!(why_of(&dv, "+1"), "edge_widget");
    assert!(body_has(&dv, "老旧小区改造工作") && body_has(&dv, "长效管理机制"));
    // A sentence about a gallery at the head, and a score in the text, stay.
    let kept = "图集收录了二百余幅照片，记录了小区改造前后的变化。";
    let dv = page(&format!(
        "<p>{kept}</p>{ARTICLE}<p>+1 是居民投票时写下的记号。</p>"
    ));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
    assert!(
        body_has(&dv, "+1 是居民投票时写下的记号。"),
        "body: {}",
        dv.body
    );
    assert!(!is_edge_widget("+1000") && !is_edge_widget("图集里"));
}

#[test]
fn a_summary_that_repeats_the_first_paragraph_is_dropped() {
    let lead = "摘要：今年以来，本市持续推进老旧小区改造工作，截至目前已有一百二十个小区完成改造。";
    let dv = page(&format!("<p>{lead}</p>{ARTICLE}"));
    assert!(!body_has(&dv, "摘要："), "body: {}", dv.body);
    assert_eq!(why_of(&dv, lead), "lead_repeat");
    assert!(body_has(&dv, "老旧小区改造工作"));
    // An abstract of its own (a paper's) is the text's.
    let own = "摘要：本文研究了城市更新中的居民参与机制，并提出了三点政策建议。";
    let dv = page(&format!("<p>{own}</p>{ARTICLE}"));
    assert!(body_has(&dv, own), "body: {}", dv.body);
}

#[test]
fn a_navigation_link_stuck_to_the_last_paragraph_is_cut_off() {
    let last = "<p>记者了解到，明年本市还将继续推进这项工作，让更多居民受益。<a href=/>返回本地新闻首页&gt;&gt;</a></p>";
    let dv = page(&format!("{ARTICLE}{last}"));
    assert!(!dv.body.contains("返回本地新闻首页"), "body: {}", dv.body);
    assert!(dv.body.ends_with("让更多居民受益。"), "body: {}", dv.body);
    let b = dv.blocks.iter().find(|b| b.text.contains("让更多居民受益"));
    assert_eq!(b.map(|b| b.why.key), Some("nav_tail"));
    let link = dv
        .links
        .iter()
        .find(|l| l.anchor.contains("返回本地新闻首页"));
    assert_eq!(link.map(|l| l.related), Some(false), "{:?}", dv.links);
    // The keywords and the abstract read the body's words, not the link's: with a link whose
    // words are the article's own, the page gives what it gives without the link.
    let plain = "<p>记者了解到，明年本市还将继续推进这项工作，让更多居民受益。</p>";
    let linked = plain.replace("</p>", "<a href=/>返回小区改造首页&gt;&gt;</a></p>");
    let (with, without) = (
        page(&format!("{ARTICLE}{linked}")),
        page(&format!("{ARTICLE}{plain}")),
    );
    let tfs = |dv: &DocView| {
        (dv.keywords.iter())
            .map(|k| (k.word.clone(), k.tf))
            .collect::<Vec<_>>()
    };
    assert_eq!(with.body, without.body);
    assert_eq!(tfs(&with), tfs(&without));
    assert!(
        tfs(&with).iter().any(|(w, _)| w == "改造"),
        "{:?}",
        tfs(&with)
    );
    assert_eq!(with.abstract_text, without.abstract_text);
    // The words inside a sentence, far from its closing link, stay.
    let kept = "<p>操作指南写道：在小程序里点击“返回首页”按钮，再选择“我的小区”，就能查看改造进度，<a href=/guide>详见操作指南&gt;&gt;</a></p>";
    let dv = page(&format!("{ARTICLE}{kept}"));
    assert!(body_has(&dv, "点击“返回首页”按钮"), "body: {}", dv.body);
    assert!(body_has(&dv, "详见操作指南>>"), "body: {}", dv.body);
    assert_eq!(nav_tail("正文。返回首页>>", 4), Some("正文。".len()));
    assert_eq!(nav_tail("正文。返回首页>>", 0), None);
}

#[test]
fn an_image_source_note_after_the_article_is_a_credit() {
    let dv = page(&format!("{ARTICLE}<p>图片均来自网络</p>"));
    assert!(!body_has(&dv, "图片均来自网络"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "图片均来自网络"), "credit_line");
    let kept = "图片在网络上流传后，街道办很快作出了回应。";
    let dv = page(&format!("{ARTICLE}<p>{kept}</p>"));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
}

#[test]
fn an_editing_note_after_the_article_is_a_credit() {
    let dv = page(&format!("{ARTICLE}<p>经过张三重新编排</p>"));
    assert!(!body_has(&dv, "重新编排"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "经过张三重新编排"), "credit_line");
    let kept = "经过三个月的施工，小区面貌焕然一新，居民们纷纷重新整理";
    let dv = page(&format!("{ARTICLE}<p>{kept}</p>"));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
}

#[test]
fn the_sources_of_a_compiled_article_are_a_credit() {
    let note = "(综合整理自本地新闻、城市晚报等)";
    let dv = page(&format!("{ARTICLE}<p>{note}</p>"));
    assert!(!body_has(&dv, "综合整理自"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, note), "credit_line");
    let kept = "整理自居民的意见被汇总成册，交给了施工单位。";
    let dv = page(&format!("{ARTICLE}<p>{kept}</p>"));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
}

#[test]
fn an_editors_credit_after_other_credits_is_a_credit() {
    let credit = "社区党支部供稿 摄影/王五 编辑/赵六";
    let dv = page(&format!("{ARTICLE}<p>{credit}</p>"));
    assert!(!body_has(&dv, "编辑/赵六"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, credit), "credit_line");
    let kept = "本报编辑部 编辑们也参与了这次走访";
    let dv = page(&format!("{ARTICLE}<p>{kept}</p>"));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
}

#[test]
fn a_call_to_follow_a_column_after_the_article_is_a_promotion() {
    let dv = page(&format!("{ARTICLE}<p>相关资讯请关注:本地新闻改造专区</p>"));
    assert!(!body_has(&dv, "请关注"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "相关资讯请关注:本地新闻改造专区"), "promo");
    let kept = "请关注：本周六上午九点，社区将在广场举行改造成果展示活动。";
    let dv = page(&format!("{ARTICLE}<p>{kept}</p>"));
    assert!(body_has(&dv, kept), "body: {}", dv.body);
}

#[test]
fn an_account_card_between_two_promotions_is_dropped() {
    let card = "<p>关注公众号查看全文</p><p>城市资本论</p><p>连接每日热点，</p><p>点评楼市众生相</p>\
                <p>微信公众号</p><p>扫一扫 关注我</p>";
    let dv = page(&format!("{ARTICLE}{card}"));
    for w in ["城市资本论", "连接每日热点，", "点评楼市众生相"] {
        assert!(!body_has(&dv, w), "{w} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "城市资本论"), "promo_card");
    // Short lines after one promotion, with the article going on, are the article's.
    let dv = page(&format!(
        "{ARTICLE}<p>扫一扫 关注我</p><p>改造后的新变化</p>{ARTICLE}"
    ));
    assert!(body_has(&dv, "改造后的新变化"), "body: {}", dv.body);
}

#[test]
fn a_column_label_above_and_a_publishers_notice_below_are_dropped() {
    let notice = "<p>反侵权公告：</p><p>未经书面许可，擅自转载本报社作品的，将涉嫌侵犯著作权人合法权益，本报社郑重公告：</p>\
                  <p>一、任何单位或个人使用本报社的原创内容，必须事先取得书面授权；</p>";
    let dv = page(&format!("<p>【新春走基层】</p>{ARTICLE}{notice}"));
    assert_eq!(why_of(&dv, "【新春走基层】"), "column_label");
    assert_eq!(why_of(&dv, "反侵权公告："), "disclaimer");
    assert!(!body_has(&dv, "一、任何单位或个人"), "body: {}", dv.body);
    assert!(body_has(&dv, "长效管理机制"), "body: {}", dv.body);
    // A label with a sentence, and a paragraph that mentions a copyright notice, stay.
    let kept = "【新春走基层】系列报道今天刊发第三篇。";
    let mention = "居民们还讨论了小区公告栏里的版权声明该怎么写。";
    let dv = page(&format!("<p>{kept}</p>{ARTICLE}<p>{mention}</p>"));
    assert!(
        body_has(&dv, kept) && body_has(&dv, mention),
        "body: {}",
        dv.body
    );
    assert!(is_notice_heading("【版权声明】") && !is_notice_heading("版权声明的写法"));
    assert!(!is_column_label("【】") && !is_column_label("【一】二【三】"));
}
