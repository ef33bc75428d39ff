//! The block tree's own tests: blocks, lines, links and weighty tags, the counted
//! characters' fast path against the metric.

use super::text::{all_white, counted_fast, is_counted, is_sentence_punct};
use super::*;

#[test]
fn blocks_lines_links_and_weighty_tags() {
    let t = build(
        "<html><head><title> 标题 页 </title><script>var x='不是正文';</script></head>\
         <body><div id=nav><a href='/a'>首页</a> <a href='/b'>新闻</a></div>\
         <div class='main'><h1>大标题</h1><p>第一段，<b>重点</b>内容。<br>第二行</p>\
         <img src=x.png><!-- 注释 --></div></body></html>",
    );
    assert_eq!(t.title, "标题 页");
    let tags: Vec<&str> = t.blocks.iter().map(|b| b.tag).collect();
    assert_eq!(tags, ["#document", "html", "body", "div", "div", "h1", "p"]);
    assert_eq!(t.blocks[3].hint, "#nav");
    assert_eq!(t.blocks[4].hint, ".main");
    let lines: Vec<&str> = t.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        lines,
        ["首页 新闻", "大标题", "第一段，重点内容。", "第二行"]
    );
    assert_eq!(t.links.len(), 2);
    assert_eq!(t.links[1].anchor, "新闻");
    assert_eq!(t.blocks[3].anchor_chars, 4);
    assert_eq!(t.blocks[4].images, 1);
    assert_eq!(t.blocks[4].sub_chars, 3 + 7 + 3);
    assert_eq!(t.blocks[2].sub_anchor, 4);
    let w: Vec<(&str, &str)> = t.weighty.iter().map(|w| (w.tag, w.text.as_str())).collect();
    // In the order the tags close.
    assert_eq!(w, [("h1", "大标题"), ("b", "重点")]);
    assert_eq!(
        (
            t.blocks[2].sub_end,
            t.blocks[3].sub_end,
            t.blocks[4].sub_end
        ),
        (7, 4, 7)
    );
    assert_eq!(t.body(), 2);
}

#[test]
fn children_are_the_blocks_whose_parent_it_is() {
    let t = build(
        "<div><p>一</p><ul><li>二<li>三<div>四</div></ul>五<table><tr><td>六<td>七</table></div>\
         <div></div><p>八",
    );
    assert!(t.blocks.len() > 12);
    for id in 0..t.blocks.len() {
        let by_parent: Vec<usize> = (0..t.blocks.len())
            .filter(|&c| t.blocks[c].parent == Some(id))
            .collect();
        let listed: Vec<usize> = t.children(id).collect();
        assert_eq!(listed, by_parent, "children of block {id}");
        assert_eq!(t.blocks[id].child_count, by_parent.len());
        // Subtree totals are the own counts plus the children's totals.
        let b = &t.blocks[id];
        let kids = by_parent
            .iter()
            .map(|&c| t.blocks[c].sub_chars)
            .sum::<usize>();
        assert_eq!(b.sub_chars, b.chars + kids);
        let end = by_parent.last().map_or(id + 1, |&c| t.blocks[c].sub_end);
        assert_eq!(b.sub_end, end);
    }
    assert_eq!(t.blocks[0].sub_chars, 8);
    assert_eq!(t.children(t.blocks.len()).count(), 0);
}

#[test]
fn text_around_child_blocks_keeps_reading_order() {
    let t = build("<div>前言<p>中间</p>后记</div>");
    let lines: Vec<(usize, &str)> = t.lines.iter().map(|l| (l.block, l.text.as_str())).collect();
    let div = t.blocks.iter().position(|b| b.tag == "div").unwrap();
    assert_eq!(lines, [(div, "前言"), (div + 1, "中间"), (div, "后记")]);
    assert_eq!(t.blocks[div].line_start, 0);
    assert_eq!(t.blocks[div].line_end, 3);
}

#[test]
fn scripts_styles_and_comments_are_stripped_before_parsing() {
    let h =
        "a<script type=x>if (a<b) {}</script>b<STYLE>p{}</style >c<!-- x -->d<scripts>e<!-- open";
    assert_eq!(strip_inert(h), "abcd<scripts>e<!-- open");
    assert!(matches!(
        strip_inert("<p>plain</p>"),
        std::borrow::Cow::Borrowed(_)
    ));
    let t = build("<p>正文<script>document.write('<p>假</p>')</script>继续</p>");
    assert_eq!(
        t.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        ["正文继续"]
    );
}

#[test]
fn tag_classes_match_the_lists() {
    for t in BLOCK_TAGS
        .iter()
        .chain(WEIGHTY_TAGS)
        .chain(&["a", "span", "script", "input"])
    {
        let (skip, block, weighty) = class(t);
        assert_eq!(block, BLOCK_TAGS.contains(t).then_some(*t), "{t}");
        assert_eq!(weighty, WEIGHTY_TAGS.contains(t).then_some(*t), "{t}");
        assert_eq!(skip, matches!(*t, "script" | "input"), "{t}");
    }
}

#[test]
fn the_fast_count_agrees_with_the_metric_on_every_character() {
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        assert_eq!(counted_fast(c), is_counted(c), "U+{:04X}", c as u32);
    }
}

/// What `push_collapsed` must give: the plain loop over characters.
fn push_collapsed_reference(out: &mut String, raw: &str) -> (usize, usize) {
    let (mut last_space, mut counted, mut punct) = (false, 0usize, 0usize);
    for c in raw.chars() {
        if c.is_whitespace() {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
            if is_counted(c) {
                counted += 1;
            } else if is_sentence_punct(c) {
                punct += 1;
            }
        }
    }
    (counted, punct)
}

#[test]
fn collapsing_by_bytes_agrees_with_the_character_loop() {
    let check = |s: &str| {
        let (mut a, mut b) = (String::from("x "), String::from("x "));
        let got = push_collapsed(&mut a, s);
        let want = push_collapsed_reference(&mut b, s);
        assert_eq!((a, got), (b, want), "{s:?}");
    };
    // Every character alone and between others (the lead-byte boundaries of the fast path).
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        check(&format!("{c}"));
        check(&format!(" {c}中\u{3000}{c}a"));
    }
    // Runs of ASCII (the run loop of the fast path): every pair of ASCII characters, with a
    // space, a CJK ideograph and another character around them.
    for a in (0..0x80u8).map(char::from) {
        for b in (0..0x80u8).map(char::from) {
            check(&format!("{a}{b}"));
            check(&format!("{a}{b}{a} 文{b}é{a}"));
        }
    }
    // Random mixes of spaces of every kind, CJK edges, punctuation and letters.
    let pool: Vec<char> =
        " \t\n\r\x0b\x0c\u{85}\u{a0}\u{1680}\u{2000}\u{2028}\u{202f}\u{3000}\u{3001}\u{3002}\
         \u{4dff}\u{4e00}\u{9fff}\u{a000}\u{ff0c}\u{ff01}aZ9,.;:!?é文字\u{1f600}\u{20000}"
            .chars()
            .collect();
    for s in random_strings(&pool, 12, 7) {
        check(&s);
    }
}

#[test]
fn white_space_by_bytes_agrees_with_the_character_test() {
    let check = |s: &str| assert_eq!(all_white(s), s.chars().all(char::is_whitespace), "{s:?}");
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        check(&format!("{c}"));
        check(&format!(" \n{c}\t"));
        check(&format!("{c}\u{3000}"));
    }
    let pool: Vec<char> = " \t\n\r\x0b\x0c\x1c\u{85}\u{a0}\u{2000}\u{3000}a文"
        .chars()
        .collect();
    for s in random_strings(&pool, 8, 11) {
        check(&s);
    }
}

/// 20,000 strings of fewer than `max_len` characters drawn from `pool`, seeded.
fn random_strings(pool: &[char], max_len: usize, seed: u64) -> impl Iterator<Item = String> + '_ {
    let mut rng = crate::engine::rng::Rng::new(seed);
    (0..20_000).map(move |_| {
        let n = rng.below(max_len);
        (0..n).map(|_| pool[rng.below(pool.len())]).collect()
    })
}

#[test]
fn collapse_is_split_whitespace_joined_by_spaces() {
    let pool: Vec<char> = " \t\n\r\x0b\x0c\u{85}\u{a0}\u{1680}\u{2000}\u{200b}\u{2028}\u{205f}\u{3000}\u{3001}aé文\u{1f600}"
        .chars()
        .collect();
    for s in random_strings(&pool, 8, 11) {
        let want = s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(collapse(s.clone()), want, "{s:?}");
    }
}

#[test]
fn hints_are_the_id_then_the_sorted_distinct_classes() {
    for (id, class, want) in [
        (None, None, ""),
        (Some("a"), None, "#a"),
        (None, Some("x"), ".x"),
        (Some("a"), Some(" x "), "#a.x"),
        (Some("a"), Some("  \t "), "#a"),
        (None, Some("y x\ny x"), ".x.y"),
        (Some(""), Some("b a c"), "#.a.b.c"),
    ] {
        assert_eq!(hint_of(id, class), want, "{id:?} {class:?}");
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let html = "<div>".repeat(20_000) + "深" + &"</div>".repeat(20_000);
    let t = build(&html);
    assert_eq!(t.lines.len(), 1);
}

/// The definition `norm_title`'s fast path must keep.
fn norm_title_reference(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[test]
fn norm_title_is_letters_and_digits_lower_cased() {
    let mut out = String::from("old");
    let mut buf = [0u8; 4];
    for c in ('\0'..='\u{FFFF}').chain('\u{10000}'..='\u{3FFFF}') {
        norm_title_into(c.encode_utf8(&mut buf), &mut out);
        assert_eq!(out, norm_title_reference(c.encode_utf8(&mut buf)), "{c:?}");
    }
    let s = "Ab 搜索-İK１Σ";
    assert_eq!(norm_title(s), norm_title_reference(s));
}
