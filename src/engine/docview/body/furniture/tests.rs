//! Tests of `furniture`: each page is written here to show one kind of furniture inside an
//! article's own container, where the region's scores cannot see it; without its rule the
//! furniture is body.

use super::*;
use crate::engine::docview::body::pages::{ARTICLE, body_has, clean, page, why_of};

#[test]
fn a_list_of_written_out_urls_is_no_paragraph() {
    let urls: String = (0..40)
        .map(|i| format!("<li style=\"display:none\">http://www{i}.example.gov.cn/index.html</li>"))
        .collect();
    // A government footer's friend links, hidden, each a URL as text: 40 "paragraphs" full of
    // punctuation that outscored the article before.
    let dv = page(
        ARTICLE,
        &format!("<div class=footer><div class=friend-links><ul>{urls}</ul></div></div>"),
    );
    assert!(body_has(&dv, "老旧小区改造工作"), "body: {}", dv.body);
    assert!(!dv.body.contains("http://"), "body: {}", dv.body);
    assert!(is_url_text("http://www.example.gov.cn/"));
    assert!(is_url_text("www.example.cn"));
    assert!(!is_url_text("http://"));
    assert!(!is_url_text("详见 http://www.example.cn"));
}

#[test]
fn a_font_size_switch_is_a_widget() {
    let widget = "<div class=font_size><ul><li>字号</li><li>超大</li><li>大</li><li>标准</li><li>小</li></ul></div>";
    let dv = page(&format!("{widget}{ARTICLE}"), "");
    for w in ["字号", "超大", "标准"] {
        assert!(!dv.body.lines().any(|l| l == w), "{w} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "超大"), "widget");
    assert!(body_has(&dv, "老旧小区改造工作"));
    // One line with two size words or more is a switch too; a lone 大 among text is not.
    assert!(is_widget_word_line("字号：A- A A+") && size_tokens("字号：A- A A+") >= 2);
    assert!(!is_widget_word_line("大家都来了"));
}

#[test]
fn promotions_are_dropped_and_sentences_about_qr_codes_stay() {
    let inside = format!(
        "{ARTICLE}<p>游客扫描展板旁的二维码，可以收听讲解和释义。</p>\
         <p>本报财经公众号</p>\
         <p>更多精彩内容，欢迎扫描左方二维码关注本报官方微信（benbao-news）</p>\
         <p>(本文来自本地新闻，更多原创资讯请下载“本地新闻”APP)</p>"
    );
    let dv = page(&inside, "");
    assert!(body_has(&dv, "游客扫描展板旁的二维码"), "body: {}", dv.body);
    for p in ["本报财经公众号", "欢迎扫描左方二维码", "请下载"] {
        assert!(!body_has(&dv, p), "{p} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "本报财经公众号"), "promo");
    assert!(!is_promo(
        "宋海波当场在手机上下载了“健康”App，报名参加打卡活动。"
    ));
}

#[test]
fn disclaimers_are_dropped() {
    let inside = format!(
        "{ARTICLE}<p>特别声明：以上内容为自媒体平台用户上传并发布，本平台仅提供信息存储服务。</p>\
         <p>本文为机构在本站上传并发布，仅代表该机构观点，不代表本站的观点或立场。</p>\
         <p>本地新闻报料：4000-000-000 本地新闻，未经授权不得转载</p>"
    );
    let dv = page(&inside, "");
    for p in ["特别声明", "仅代表该机构观点", "未经授权不得转载"] {
        assert!(!body_has(&dv, p), "{p} in body: {}", dv.body);
    }
    assert_eq!(
        why_of(&dv, "本地新闻报料：4000-000-000 本地新闻，未经授权不得转载"),
        "disclaimer"
    );
    assert!(!is_disclaimer("专家认为，声明的内容表明了双方的立场。"));
    assert!(!is_disclaimer(
        "全国人大代表张三表示，这一观点得到了与会代表的广泛认同。"
    ));
    assert!(is_disclaimer("文章观点仅代表作者本人，不代表本站立场"));
}

#[test]
fn credit_lines_are_dropped_and_the_writer_stays() {
    let inside = format!(
        "<p>（原标题：本市一百二十个老旧小区完成改造 三万户居民受益）</p>{ARTICLE}\
         <p>记者 刘涛</p><p>(责编：王五、赵六)</p><p>本文来源：本地日报 责任编辑：钱七_N1234</p>"
    );
    let dv = page(&inside, "");
    assert!(
        dv.body.lines().any(|l| l == "记者 刘涛"),
        "body: {}",
        dv.body
    );
    for p in ["原标题", "责编", "本文来源"] {
        assert!(!body_has(&dv, p), "{p} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "(责编：王五、赵六)"), "credit_line");
    assert!(!is_credit_line("编辑部认为，这一做法值得推广"));
    assert!(is_credit_line("【编辑：姚昊】"));
    assert!(is_credit_line("编辑|张三"));
    assert!(is_credit_line("来源于：东区办事处"));
}

#[test]
fn a_teaser_heading_closes_the_article() {
    let teasers = "<div class=box><h2>推荐阅读</h2><div class=item><p>本市启动新一轮城市更新行动 这是另一篇文章的导语，讲的是城市更新的安排和今后几年的目标任务。</p></div>\
                   <div class=item><p>社区食堂开进老旧小区 这是又一篇文章的导语，讲的是社区食堂的运营情况和居民的评价。</p></div></div>";
    let dv = page(&format!("{ARTICLE}{teasers}"), "");
    assert!(body_has(&dv, "建立长效管理机制"), "body: {}", dv.body);
    for p in ["推荐阅读", "另一篇文章的导语", "又一篇文章的导语"] {
        assert!(!body_has(&dv, p), "{p} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "推荐阅读"), "teaser");
    assert!(is_section_cue("延伸 · 推荐"));
    assert!(!is_section_cue("推荐阅读的书目如下"));
}

#[test]
fn a_teaser_heading_before_the_text_cuts_nothing() {
    // A heading that opens the region (nothing read yet) or would take most of the body is no
    // list's: the article stays whole.
    let dv = page(&format!("<h2>推荐阅读</h2>{ARTICLE}"), "");
    assert!(body_has(&dv, "老旧小区改造工作"), "body: {}", dv.body);
    assert!(body_has(&dv, "建立长效管理机制"), "body: {}", dv.body);
}

#[test]
fn a_list_of_short_headlines_is_a_teaser_list() {
    let item = |title: &str| {
        format!(
            "<div class=member><div class=member-title>{title}<a href=/col>专栏</a></div>2019-09-09</div>"
        )
    };
    let list: String = [
        "美企撤离中国？相反，他们的迟疑正在消散",
        "越南拒用中国5G，原因和后果是",
        "城市更新的下一步怎么走",
    ]
    .iter()
    .map(|t| item(t))
    .collect();
    let steps = "<ol><li class=step>第一步，居民提出改造意见。</li><li class=step>第二步，街道汇总后报区里审核。</li><li class=step>第三步，施工单位进场施工。</li></ol>";
    let dv = page(&format!("{ARTICLE}{steps}<div class=more>{list}</div>"), "");
    assert!(body_has(&dv, "建立长效管理机制"), "body: {}", dv.body);
    assert!(
        body_has(&dv, "第二步，街道汇总后报区里审核。"),
        "body: {}",
        dv.body
    );
    for t in ["美企撤离中国", "越南拒用中国5G", "城市更新的下一步"] {
        assert!(!body_has(&dv, t), "{t} in body: {}", dv.body);
    }
    assert_eq!(why_of(&dv, "城市更新的下一步怎么走专栏"), "headlines");
}

#[test]
fn a_call_to_follow_is_a_promotion_however_it_ends() {
    assert!(is_promo(
        "专注本地新闻报道，每日推送最新资讯。扫描下方二维码关注本报官方微信(或微信中搜：benbao)。"
    ));
    assert!(!is_promo(
        "不少二手车的挡风玻璃上多了一张二维码，用手机一扫，就能看到电池的体检报告。"
    ));
}

#[test]
fn section_cues_are_matched_in_place_as_by_a_filtered_copy() {
    // The in-place comparison holds four characters: every cue must fit.
    assert!(SECTION_CUES.iter().all(|c| c.chars().count() <= 4));
    let reference = |text: &str| {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && !"·•|｜:：".contains(*c))
            .collect();
        SECTION_CUES.contains(&t.as_str())
    };
    let mut texts: Vec<String> = SECTION_CUES
        .iter()
        .flat_map(|c| {
            [
                c.to_string(),
                format!(" {c} "),
                c.chars().map(|x| format!("{x}·")).collect(),
                format!("{c}："),
                format!("{c}吧"),
                c.chars().skip(1).collect(),
            ]
        })
        .collect();
    texts.extend(["", " ", "推荐", "推 荐 阅 读 ", "推荐阅读更多"].map(String::from));
    for t in &texts {
        assert_eq!(is_section_cue(t), reference(t), "{t:?}");
    }
}

#[test]
fn a_headline_over_a_cut_off_summary_is_a_teaser() {
    let teaser = "<blockquote><p>市民公园周末开放夜场</p><p>记者从市园林局获悉，本周末起市民公园将开放夜场，开放时间延长至晚上十点，市民可在夜间游园赏灯…</p></blockquote>";
    let dv = page(&format!("{ARTICLE}{teaser}"), "");
    assert!(body_has(&dv, "建立长效管理机制"), "body: {}", dv.body);
    assert!(!body_has(&dv, "市民公园"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "市民公园周末开放夜场"), "teaser_item");
    // A writer's own ellipsis (……) under a short line is the article's.
    let quote = "<div><p>居民这样说</p><p>王女士说：“过去晚上回家找不到车位，常常要绕好几圈，现在好了……”</p></div>";
    let dv = page(&format!("{ARTICLE}{quote}"), "");
    assert!(body_has(&dv, "常常要绕好几圈"), "body: {}", dv.body);
    assert!(ends_cut("……市民可在夜间游园赏灯..."));
    assert!(!ends_cut("现在好了……"));
    assert!(!ends_cut("等等......"));
}

#[test]
fn calls_to_download_or_to_write_in_are_promotions() {
    let inside = format!(
        "{ARTICLE}<p>新酷产品第一时间免费试玩，下载客户端还能获得专享福利哦！</p>\
         <p>发送邮件至news@example.cn申请加入本地政务号</p>"
    );
    let dv = page(&inside, "");
    assert!(!body_has(&dv, "下载客户端"), "body: {}", dv.body);
    assert!(!body_has(&dv, "发送邮件"), "body: {}", dv.body);
    assert_eq!(
        why_of(&dv, "发送邮件至news@example.cn申请加入本地政务号"),
        "promo"
    );
    // A sentence about an app ends as a sentence ends, and stays.
    assert!(!is_promo("市民可下载客户端查询改造进度。"));
}

#[test]
fn a_video_players_label_is_a_widget() {
    let dv = page(
        &format!("<p>自动播放 老旧小区改造前后对比</p>{ARTICLE}"),
        "",
    );
    assert!(!body_has(&dv, "自动播放"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "自动播放 老旧小区改造前后对比"), "widget");
    assert!(!is_player_label(
        "今年以来，本市持续推进老旧小区改造工作。自动播放"
    ));
}

#[test]
fn the_articles_tags_are_dropped() {
    let inside = format!(
        "{ARTICLE}<p>关键词 >> 老旧小区,改造,加装电梯</p><p>20191126|老旧小区|改造|电梯</p>"
    );
    let dv = page(&inside, "");
    assert!(!body_has(&dv, "关键词"), "body: {}", dv.body);
    assert!(!body_has(&dv, "20191126"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "20191126|老旧小区|改造|电梯"), "tags");
    assert!(is_tag_line("标签：长春 景甜 美食"));
    // Two words between bars, or a clause, are no tag list.
    assert!(!is_tag_line("东区|西区"));
    assert!(!is_tag_line(
        "改造内容包括加装电梯、更新管网|整治环境，居民满意|三年完成"
    ));
    assert!(!is_tag_line("关键是要让居民满意"));
}

#[test]
fn a_counter_beside_the_byline_is_meta_and_a_section_number_stays() {
    let inside = format!(
        "<div class=info>发布时间：2019-09-26 10:09:11</div><div class=views>\u{e614}3573</div>\
         {ARTICLE}<p>2</p><p>今年的改造还新增了二十处充电桩，方便居民为电动自行车充电，消除了楼道充电的安全隐患。</p>"
    );
    let dv = page(&inside, "");
    assert!(!body_has(&dv, "3573"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "\u{e614}3573"), "counter");
    assert!(dv.body.lines().any(|l| l == "2"), "body: {}", dv.body);
    assert!(is_counter("1,024"));
    assert!(!is_counter("2019年"));
}

#[test]
fn the_heading_above_the_byline_is_the_headline() {
    let html = format!(
        "<html><head><meta charset=utf-8><title>新闻动态--本地新闻网</title></head><body>\
         <div class=article>\n  <h5>本市老旧小区改造惠及三万余户居民 明年再改造一百五十个小区</h5>\n\n  \
         <div class=ly><b>发布时间：2019-05-18</b> <i>来源：本地新闻网</i> </div>\n  {ARTICLE}</div></body></html>"
    );
    let dv = clean(&html);
    assert!(!body_has(&dv, "惠及三万余户居民"), "body: {}", dv.body);
    assert_eq!(
        why_of(
            &dv,
            "本市老旧小区改造惠及三万余户居民 明年再改造一百五十个小区"
        ),
        "headline"
    );
    // The writer's line above the date is no heading: it stays.
    let html = format!(
        "<html><head><meta charset=utf-8><title>新闻动态--本地新闻网</title></head><body>\
         <div class=article><div class=about><p>本地新闻记者 张三</p>\
         <p>2020-06-06 10:08 来源：本地新闻</p></div>{ARTICLE}</div></body></html>"
    );
    let dv = clean(&html);
    assert!(body_has(&dv, "本地新闻记者 张三"), "body: {}", dv.body);
}

#[test]
fn a_source_without_a_separator_is_a_credit() {
    let dv = page(&format!("{ARTICLE}<p>信息来源于网络</p>"), "");
    assert!(!body_has(&dv, "信息来源于网络"), "body: {}", dv.body);
    assert_eq!(why_of(&dv, "信息来源于网络"), "credit_line");
    assert!(!is_credit("信息来源于网络，经核实后发布，欢迎读者监督。"));
}
