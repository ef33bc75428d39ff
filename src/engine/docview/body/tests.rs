//! Tests of `body`.

use super::*;

#[test]
fn bylines_and_boilerplate() {
    assert!(is_byline("2005-03-21 11:21:30 来源：新浪网"));
    assert!(is_byline("作者：张三"));
    assert!(is_byline("发布时间：2012年5月3日"));
    assert!(is_byline("2025-12-10"));
    assert!(is_byline("2012年5月3日 10:20"));
    assert!(!is_byline("2012"));
    assert!(!is_byline(
        "近日，启晟汽车向监管部门备案了召回计划，自2025年10月20日起，召回生产日期在2024年3月之后的车辆。"
    ));
    assert!(is_ad_line("分类广告：吉屋出租 / 二手车转让"));
    assert!(is_ad_line("【推广】家装季大促"));
    assert!(!is_ad_line(
        "广告业去年的收入增长了三成，专家认为原因有三。"
    ));
    assert!(!is_byline(
        "2012年，该市的生产总值增长了百分之八，居全省首位。"
    ));
    assert!(is_boilerplate("【打印】【关闭】"));
    assert!(!is_boilerplate(
        "这是正文的一句话，说明了事情的经过和结果。"
    ));
}

#[test]
fn hint_matching_is_token_based_for_short_words() {
    let b = |hint: &str| TreeBlock {
        hint: hint.into(),
        tag: "div",
        ..TreeBlock::default()
    };
    assert!(negative_hint(&b("#footer")).is_some());
    assert!(negative_hint(&b(".ad")).is_some());
    assert!(negative_hint(&b(".head")).is_none());
    assert!(
        negative_hint(&b(".loading")).is_none(),
        "'ad' inside a word is no ad"
    );
    assert!(negative_hint(&b(".article-content")).is_none());
    assert!(negative_hint(&b("#topnav")).is_some());
}
