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

/// A `<div>` block with the class/id hint `hint`.
fn div_with_hint(hint: &str) -> TreeBlock {
    TreeBlock {
        hint: hint.into(),
        tag: "div",
        ..TreeBlock::default()
    }
}

#[test]
fn hint_matching_is_token_based_for_short_words() {
    let b = div_with_hint;
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

/// The tags judged by name alone are judged whatever their hint, and no other tag is judged
/// without one; the page-level table shares a hint's verdict only between the others.
#[test]
fn hint_tags_are_the_tags_judged_by_name() {
    let by_name = ["nav", "footer", "aside", "header", "figcaption"];
    for tag in [
        "nav",
        "footer",
        "aside",
        "header",
        "figcaption",
        "div",
        "p",
        "blockquote",
    ] {
        let b = TreeBlock {
            tag,
            ..TreeBlock::default()
        };
        assert_eq!(negative_hint(&b).is_some(), by_name.contains(&tag), "{tag}");
        assert_eq!(tag_role(tag).is_some(), by_name.contains(&tag), "{tag}");
    }
    // A quote shares its hint's words with a share bar and still is no share bar.
    let quote = TreeBlock {
        tag: "blockquote",
        hint: ".social-share".into(),
        ..TreeBlock::default()
    };
    let bar = TreeBlock {
        tag: "div",
        ..quote.clone()
    };
    assert!(negative_hint(&quote).is_none() && negative_hint(&bar).is_some());
}

/// The one-pass helpers answer as the plain tests they replace, on every suffix of a few lines.
#[test]
fn one_pass_helpers_match_the_plain_tests() {
    let plain_date = |t: &str| {
        let c: Vec<char> = t.chars().collect();
        (0..c.len()).any(|i| {
            i + 6 <= c.len()
                && c[i..i + 4].iter().all(|x| x.is_ascii_digit())
                && matches!(c[i + 4], '-' | '年' | '/' | '.')
                && c[i + 5].is_ascii_digit()
        })
    };
    let plain_time = |t: &str| {
        let c: Vec<char> = t.chars().collect();
        (2..c.len().saturating_sub(2)).any(|i| {
            c[i] == ':'
                && c[i - 1].is_ascii_digit()
                && c[i + 1].is_ascii_digit()
                && c[i + 2].is_ascii_digit()
        })
    };
    let phrases = ["打印", "关闭窗口", "copyright", "【大 中 小】", "更多>>"];
    let set = PhraseSet::new(&phrases);
    let lines = [
        "2005-03-21 11:21:30 来源：新浪网",
        "发布时间：2012年5月3日",
        "2012年5月3日 10:20",
        "字2012年5",
        "a1:23",
        "1:23",
        "时1:2",
        "点此打印本页 关闭窗口",
        "Copyright copyright 更多>> 【大 中 小】",
        "更多>",
        "",
    ];
    let mut checked = 0;
    for line in lines {
        for (i, _) in line.char_indices() {
            let t = &line[i..];
            assert_eq!(has_date(t), plain_date(t), "{t:?}");
            assert_eq!(has_time(t), plain_time(t), "{t:?}");
            let plain = phrases.iter().any(|p| t.contains(p));
            assert_eq!(set.found_in(t), plain, "{t:?}");
            checked += 1;
        }
    }
    assert!(checked > 100);
    assert!(PhraseSet::new(&["", "y"]).found_in("x"));
}

#[test]
fn phrase_set_buckets_agree_with_contains_when_first_characters_share_a_bit() {
    // 300 phrases over 200 first characters: every filter bit holds several phrases, some of
    // them with the same first character, so a wrong bucket or a missed one shows.
    let owned: Vec<String> = (0..300u32)
        .map(|k| {
            let first = char::from_u32(0x4E00 + (k * 7) % 200).unwrap_or('x');
            let second = char::from_u32(0x4E00 + (k * 13) % 50).unwrap_or('y');
            format!("{first}{second}")
        })
        .chain(["ab".to_string(), "b".to_string()])
        .collect();
    let phrases: Vec<&'static str> = owned
        .into_iter()
        .map(|s| &*Box::leak(s.into_boxed_str()))
        .collect();
    let set = PhraseSet::new(&phrases);
    let mut hits = 0;
    for a in 0..260u32 {
        for b in 0..60u32 {
            let (Some(x), Some(y)) = (char::from_u32(0x4E00 + a), char::from_u32(0x4E00 + b))
            else {
                continue;
            };
            let text = format!("z{x}{y}a");
            let plain = phrases.iter().any(|p| text.contains(p));
            assert_eq!(set.found_in(&text), plain, "{text:?}");
            hits += usize::from(plain);
        }
    }
    assert!(hits > 50, "{hits}");
    assert!(set.found_in("xb") && !set.found_in("xa"));
}

#[test]
fn at_most_chars_is_the_character_count_whatever_the_bytes() {
    let pieces = ["a", "é", "中", "𠀀", " ", "—"];
    // Every string of up to 7 pieces drawn from the list (each piece one character, so no
    // two are equal), with every bound near its length.
    let (mut strings, mut level) = (vec![String::new()], vec![String::new()]);
    for _ in 0..7 {
        level = (level.iter())
            .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
            .collect();
        strings.extend(level.iter().cloned());
    }
    assert!(strings.len() > 1000, "{}", strings.len());
    for s in &strings {
        let count = s.chars().count();
        for n in 0..=count + 2 {
            assert_eq!(super::at_most_chars(s, n), count <= n, "{s:?} n={n}");
        }
    }
}

/// A Blogger item page: the post's schedule in many short spans inside
/// `div.widget.Blog#Blog1`, and a sidebar of popular posts with long teasers.
fn blogger_page(main_hint: &str) -> String {
    let mut post = String::from(
        "<p><span>防疫政策適度鬆綁，實體課程仍不開放，但趣味充實的暑假不能斷！</span></p>",
    );
    for i in 1..9 {
        post.push_str(&format!(
            "<p><span>第{i}場</span> <span>8/{i}</span> <span>8/{}</span> \
             <span>週一至週五</span> <span>下午兩點</span></p>",
            i + 4
        ));
    }
    post.push_str("<p><span>報名請洽自然教育中心，名額有限，額滿為止。</span></p>");
    let teaser = "夏日是生長的季節，白的、紅的、粉的、黃的花朵們，都用最嫵媚的姿態在風中時而靜靜佇立，\
        時而搖擺身軀，吸引著昆蟲與路過人們的眼光，生機盎然，好不熱鬧！但是台灣四處可見的竹子，\
        又會不會開花呢？竹子開花是一種很自然的現象，也是表示竹子生命快結束的一種徵兆。一般竹子在\
        要開花的前一年，即不長筍，開花後，竹稈在一、二年內就會乾枯死亡，但在竹稈枯死後，竹林仍會\
        繁殖下去，因為竹子的地下莖沒有枯死，而且落地的種子也會生根，經過五至十年後再重新長出幼苗。";
    let side: String = (0..2)
        .map(|k| {
            format!(
                "<article class=post><h3><a href=/p{k}>竹子開花，是福？是禍？{k}</a></h3>\
                 <div class=snippet-item>{teaser}{teaser}</div></article>"
            )
        })
        .collect();
    format!(
        "<html><head><meta charset=utf-8><title>暑期營開始報名囉</title></head><body>\
         <div class=centered-bottom><main><div {main_hint}><article><h3>暑期營開始報名囉</h3>\
         <div class=\"post-body entry-content\">{post}</div></article></div></main>\
         <aside class=sidebar-container><div class=\"widget PopularPosts\" id=PopularPosts1>\
         {side}</div></aside></div></body></html>"
    )
}

#[test]
fn a_sidebars_long_teasers_do_not_outscore_the_post() {
    let dv = pages::clean(&blogger_page("class=\"widget Blog\" id=Blog1"));
    assert!(pages::body_has(&dv, "第3場 8/3 8/7"), "{}", dv.body);
    assert!(!pages::body_has(&dv, "夏日是生長的季節"), "{}", dv.body);
    // The same when the main column is named `left-side`: a side word alone marks no sidebar.
    let dv = pages::clean(&blogger_page("class=left-side"));
    assert!(pages::body_has(&dv, "第3場 8/3 8/7"), "{}", dv.body);
    assert!(!pages::body_has(&dv, "夏日是生長的季節"), "{}", dv.body);
}

#[test]
fn sidebar_words_name_sidebars_and_blog_alone_marks_a_post() {
    let b = div_with_hint;
    assert!(is_sidebar(&b("#PopularPosts1.PopularPosts.widget")));
    assert!(is_sidebar(&b(".widget.BlogArchive")));
    assert!(is_sidebar(&b("#related-links")));
    // A word that marks article text vetoes, as it vetoes the hint itself.
    assert!(!is_sidebar(&b("#related-news")));
    assert!(is_sidebar(&b(".sidebar-wrap")));
    // An author's bio box beside a short post.
    assert!(is_sidebar(&b(".about_author")));
    assert!(!is_sidebar(&b("#Blog1.Blog.widget")));
    assert!(!is_sidebar(&b(".left-side")));
    assert!(!is_sidebar(&b(".hot-news")));
    assert!(negative_hint(&b("#Blog1.Blog.widget")).is_none());
    // A search box stays one even when its name says `main`.
    assert!(negative_hint(&b("#search-main")).is_some());
    assert!(negative_hint(&b("#main")).is_none());
    assert!(negative_hint(&b(".widget.BlogArchive")).is_some());
}

#[test]
fn a_footers_contact_lines_do_not_outscore_a_short_article() {
    let foot: String = (10..12)
        .map(|i| {
            format!(
                "<p>聯絡地址：台北市松山區民生東路三段{i}號，電話：(02) 2745-81{i}，\
                 傳真：(02) 2749-24{i}。</p>"
            )
        })
        .collect();
    let dv = pages::clean(&format!(
        "<html><head><meta charset=utf-8><title>貸款說明會</title></head><body><div class=page>\
         <main class=main-content><div class=article-content><h1>貸款說明會</h1>\
         <p>由文化內容策進院主辦的說明會，已於三月起全台巡迴舉辦，活動全程免費，即日起開放報名，額滿為止。</p>\
         <p>三月份場次表</p><p>四月份場次表</p></div></main>\
         <footer class=site-footer><div class=row><div class=text-center>{foot}</div></div>\
         </footer></div></body></html>"
    ));
    assert!(
        pages::body_has(&dv, "由文化內容策進院主辦的說明會"),
        "{}",
        dv.body
    );
    assert!(!pages::body_has(&dv, "聯絡地址"), "{}", dv.body);
}

/// A paragraph of a county's road report (84 characters), numbered `k`.
fn road_paragraph(k: usize) -> String {
    format!(
        "<p>第{k}段：记者从市政府获悉，今年全市新建改建农村公路一千二百公里，受益群众超过三十万人。\
         工程全部完工后，将极大方便沿线群众的出行和农产品的运输，为乡村振兴打下坚实的基础。</p>"
    )
}

/// A page whose article fills the rows of a table, each row made by `row(k)`, under a row of
/// navigation links.
fn table_page(class: &str, row: impl Fn(usize) -> String) -> String {
    let rows: String = (0..3).map(row).collect();
    format!(
        "<html><head><meta charset=utf-8><title>农村公路</title></head><body>\
         <table><tr><td><a href=/>首页</a> | <a href=/news>新闻</a> | <a href=/ent>娱乐</a></td></tr></table>\
         <table {class}>{rows}</table>\
         <table><tr><td><a href=/a>关于我们</a> <a href=/b>联系我们</a></td></tr></table></body></html>"
    )
}

/// The body of [`table_page`] with rows made by `row(k)` from paragraphs 2k and 2k + 1: every
/// row's text is in it, the links around it are not.
fn assert_every_row_kept(class: &str, row: impl Fn(String) -> String) {
    let dv = pages::clean(&table_page(class, |k| {
        row(road_paragraph(2 * k) + &road_paragraph(2 * k + 1))
    }));
    assert_paragraphs_without(&dv, &[0, 3, 5], "关于我们");
}

/// `dv`'s body holds the road paragraphs numbered `ks` and not `absent`.
fn assert_paragraphs_without(dv: &crate::engine::docview::DocView, ks: &[usize], absent: &str) {
    for k in ks {
        assert!(pages::body_has(dv, &format!("第{k}段")), "{k}: {}", dv.body);
    }
    assert!(!pages::body_has(dv, absent), "{}", dv.body);
}

#[test]
fn an_article_in_the_rows_of_a_table_keeps_every_row() {
    // Each row: an empty spacer cell beside the text cell (the cell stands for its row).
    assert_every_row_kept("", |text| {
        format!("<tr><td width=10></td><td>{text}</td></tr>")
    });
    // Each row: a heading and a quote of paragraphs, the quote the best candidate.
    assert_every_row_kept("class=content", |text| {
        format!("<tr><td><b>修订</b><blockquote>{text}</blockquote></td></tr>")
    });
}

#[test]
fn a_navigation_word_on_running_text_is_no_navigation() {
    let paragraphs: String = (1..6).map(road_paragraph).collect();
    let dv = pages::clean(&format!(
        "<html><head><meta charset=utf-8><title>通知</title></head><body>\
         <div class=nav><a href=/>首页</a> <a href=/x>通知公告</a> <a href=/y>政策法规</a></div>\
         <table><tr><td class=nav-new-1-pixel>{paragraphs}</td></tr></table>\
         <div class=notice><p>本站所有内容仅供参考，转载请注明出处，谢谢合作。</p></div></body></html>"
    ));
    assert!(pages::body_has(&dv, "第3段"), "{}", dv.body);
    assert!(!pages::body_has(&dv, "通知公告"), "{}", dv.body);
}

#[test]
fn a_story_above_a_long_list_of_related_links_is_kept() {
    let story: String = (1..6)
        .map(|k| {
            format!(
                "<br>第{k}天，店长让我负责打扫大厅和后厨，虽然辛苦，\
                 但我学会了很多待人接物的道理，也认识了几位真心相待的同事。"
            )
        })
        .collect();
    let links: String = (0..20)
        .map(|k| format!("<a href=/a{k}>快餐店打工的故事之第{k}篇：我和同事们的那些日子</a><br>"))
        .collect();
    let dv = pages::clean(&format!(
        "<html><head><meta charset=utf-8><title>打工故事</title></head><body>\
         <p align=center><a href=/>首页</a> | <a href=/all>全部文章</a></p>\
         <h1><center>打工故事：快餐店的一年</center></h1>\
         <table><tr><td>我在快餐店打工已经一年多了。{story}<br><br><b>相关文章：</b><br>{links}</td></tr></table>\
         <p>联系我们：support@example.com</p></body></html>"
    ));
    assert!(pages::body_has(&dv, "第4天，店长让我"), "{}", dv.body);
}

#[test]
fn an_article_in_the_small_tables_of_one_content_cell_is_read_whole() {
    // Each piece in a table of its own inside the content cell, under the menu's links: the
    // pieces score one by one, the cell holding them all is the article.
    let piece = |k: usize| {
        format!(
            "<table><tr><td><b>第{k}部分</b></td></tr><tr><td>{}</td></tr></table>",
            road_paragraph(k)
        )
    };
    let pieces: String = (1..7).map(piece).collect();
    let menu: String = (0..8)
        .map(|k| format!("<a href=/m{k}>栏目{k}</a><br>"))
        .collect();
    let dv = pages::clean(&format!(
        "<html><head><meta charset=utf-8><title>农村公路</title></head><body><table><tr>\
         <td width=150>{menu}</td><td>{pieces}</td></tr></table></body></html>"
    ));
    assert_paragraphs_without(&dv, &[1, 4, 6], "栏目3");
}

#[test]
fn a_date_alone_is_told_from_other_lines() {
    for yes in [
        "2022年1月27日",
        "　　2022年1月27日　　",
        "2022-01-27",
        "2022.1.27",
        "2022/12/3",
    ] {
        assert!(lines::is_date_only(yes), "{yes}");
    }
    for no in [
        "2022年1月27日 10:20",
        "发布日期：2022年1月27日",
        "123.456.789",
        "2022年1月",
        "2022-01-27日",
        "22-01-27",
    ] {
        assert!(!lines::is_date_only(no), "{no}");
    }
}

#[test]
fn a_notices_sign_off_keeps_its_date() {
    let dv = pages::clean(&format!(
        "<html><head><meta charset=utf-8><title>通告</title></head><body><div class=content>\
         <p>发布日期：2022年01月28日</p>{}{}<p>特此通告。</p>\
         <p>吉林省人民政府</p><p>2022年1月27日</p></div></body></html>",
        road_paragraph(1),
        road_paragraph(2)
    ));
    assert!(
        dv.body.ends_with("吉林省人民政府\n2022年1月27日"),
        "{}",
        dv.body
    );
    assert!(!pages::body_has(&dv, "发布日期"), "{}", dv.body);
}
