//! Tests of `snippet`.

use super::*;
use crate::engine::rng::Rng;

/// The book's configuration with one change.
fn book_with(edit: impl FnOnce(&mut AbstractConfig)) -> AbstractConfig {
    let mut c = AbstractConfig::default();
    edit(&mut c);
    c
}

fn terms(ts: &[&str]) -> Vec<String> {
    ts.iter().map(|t| t.to_string()).collect()
}

fn chars(s: &str, from: usize, to: usize) -> String {
    s.chars().skip(from).take(to - from).collect()
}

/// 600 characters of filler without 北 or 大, `term` placed at character `at`.
fn chinese_with(term: &str, at: usize) -> String {
    let filler: Vec<char> = "天网搜索引擎教学实验".chars().collect();
    let mut s: String = (0..600).map(|i| filler[i % filler.len()]).collect();
    let tail = chars(&s, at + term.chars().count(), 600);
    s = format!("{}{term}{tail}", chars(&s, 0, at));
    assert_eq!(s.chars().count(), 600);
    s
}

#[test]
fn fig_5_3_golden_chinese_in_both_units() {
    let text = chinese_with("北大", 400);
    let q = terms(&["北大"]);
    for cfg in [AbstractConfig::default(), AbstractConfig::modern()] {
        let a = dynamic_abstract(&text, &q, &cfg);
        assert_eq!(a.fragments.len(), 2, "{cfg:?}");
        // Head: 48 GBK bytes = 24 characters (modern: 24 characters).
        assert_eq!(a.fragments[0].text, chars(&text, 0, 24));
        assert_eq!(a.fragments[0].start_char, 0);
        assert!(a.fragments[0].highlights.is_empty());
        // idx = 800 bytes > 256: from 800 − 256 = 544 bytes = character 272, 512 bytes on.
        let f = &a.fragments[1];
        assert_eq!(f.start_char, 400 - 128);
        assert_eq!(f.text, chars(&text, 272, 528));
        let at = 128 * 3; // UTF-8 bytes of the 128 characters before the term
        let h = f.highlights[0];
        assert_eq!(
            (f.highlights.len(), h.start, h.end, h.term),
            (1, at, at + 6, 0)
        );
        assert_eq!(
            a.plain(),
            format!("{}...{}", chars(&text, 0, 24), chars(&text, 272, 528))
        );
    }
}

#[test]
fn fig_5_3_golden_ascii_differs_by_unit() {
    let mut text = "abcdefghij".repeat(60);
    text.replace_range(400..403, "KEY");
    let q = terms(&["key"]);
    let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
    // 48 bytes of head; window from 400 − 256 = 144, 512 bytes would reach 656: cut at 600.
    assert_eq!(book.fragments[0].text, text[..48]);
    assert_eq!(book.fragments[1].start_char, 144);
    assert_eq!(book.fragments[1].text, text[144..]);
    let modern = dynamic_abstract(&text, &q, &AbstractConfig::modern());
    assert_eq!(modern.fragments[0].text, text[..24]);
    assert_eq!(modern.fragments[1].start_char, 272);
    assert_eq!(modern.fragments[1].text, text[272..528]);
    // Case-insensitive: the query's `key` marks the text's `KEY`.
    assert!(modern.marked("[", "]").contains("[KEY]"));
}

#[test]
fn window_edges_never_split_a_two_byte_character() {
    // 150 Chinese characters (bytes 0..300), one ASCII byte, 50 more, then the term.
    let text = "天".repeat(150) + "a" + &"网".repeat(50) + "key" + &"搜".repeat(300);
    let q = terms(&["key"]);
    let a = dynamic_abstract(&text, &q, &AbstractConfig::default());
    // The term is at GBK byte 300 + 1 + 100 = 401; 401 − 256 = 145 falls inside character
    // 72 (bytes 144..146), so the window starts at character 73, byte 146 …
    let f = &a.fragments[1];
    assert_eq!(f.start_char, 73);
    // … and spans 512 bytes exactly: 77 天, a, 50 网, key, 127 搜 → character 331.
    assert_eq!(Unit::GbkBytes.measure(&f.text), 512);
    assert_eq!(f.text, chars(&text, 73, 331));
    // Head: "a" first, then 23 characters make 47 bytes; a 24th would make 49 > 48.
    let text2 = format!("a{}", "天".repeat(100));
    let h = dynamic_abstract(&text2, &[], &AbstractConfig::default());
    assert_eq!(h.fragments[0].text, chars(&text2, 0, 24));
    assert_eq!(Unit::GbkBytes.measure(&h.fragments[0].text), 47);
    // An odd head size on pure Chinese: 5 bytes → 2 characters.
    let cfg = book_with(|c| c.head = 5);
    let h = dynamic_abstract(&"天".repeat(10), &[], &cfg);
    assert_eq!(h.fragments[0].text, "天天");
    // In characters the same text: window 128 before character 201.
    let m = dynamic_abstract(&text, &q, &AbstractConfig::modern());
    assert_eq!(m.fragments[1].start_char, 73);
    assert_eq!(m.fragments[1].text, chars(&text, 73, 329));
}

#[test]
fn an_absent_term_is_skipped() {
    let text = chinese_with("北大", 400);
    let a = dynamic_abstract(&text, &terms(&["清华", "北大"]), &AbstractConfig::default());
    assert_eq!(a.fragments.len(), 2);
    assert!(a.fragments[1].highlights.iter().all(|h| h.term == 1));
    let none = dynamic_abstract(&text, &terms(&["清华", ""]), &AbstractConfig::default());
    assert_eq!(none.plain(), chars(&text, 0, 24));
    assert_eq!(
        dynamic_abstract("", &terms(&["x"]), &AbstractConfig::default()).plain(),
        ""
    );
}

#[test]
fn a_term_in_the_head_starts_its_window_at_the_term() {
    let text = chinese_with("北大", 5);
    let q = terms(&["北大"]);
    // b2.2: idx = 10 bytes ≤ 256, the window starts at the term (not at 0) for 512 bytes.
    let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
    assert_eq!(book.fragments.len(), 2, "the book keeps the repeat");
    assert_eq!(book.fragments[1].start_char, 5);
    assert_eq!(book.fragments[1].text, chars(&text, 5, 261));
    // Both copies are highlighted.
    assert_eq!(book.fragments[0].highlights[0].start, 15);
    assert_eq!(book.fragments[1].highlights[0].start, 0);
    // Merged: one fragment from 0 to the window's end.
    let cfg = book_with(|c| c.merge_overlaps = true);
    let merged = dynamic_abstract(&text, &q, &cfg);
    assert_eq!(merged.fragments.len(), 1);
    assert_eq!(merged.fragments[0].text, chars(&text, 0, 261));
}

#[test]
fn two_terms_in_query_order_and_merging() {
    let mut text = chinese_with("北大", 500);
    text = format!("{}清华{}", chars(&text, 0, 400), chars(&text, 402, 600));
    let q = terms(&["北大", "清华"]);
    let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
    let starts: Vec<usize> = book.fragments.iter().map(|f| f.start_char).collect();
    assert_eq!(starts, [0, 372, 272], "query order, overlaps kept");
    // Each window highlights both terms where both fall inside it.
    let terms_in = |f: &Fragment| f.highlights.iter().map(|h| h.term).collect::<Vec<_>>();
    assert_eq!(terms_in(&book.fragments[1]), [1, 0]);
    assert_eq!(terms_in(&book.fragments[2]), [1, 0]);
    let cfg = book_with(|c| c.merge_overlaps = true);
    let merged = dynamic_abstract(&text, &q, &cfg);
    let ranges: Vec<(usize, usize)> = merged
        .fragments
        .iter()
        .map(|f| (f.start_char, f.start_char + f.text.chars().count()))
        .collect();
    assert_eq!(
        ranges,
        [(0, 24), (272, 600)],
        "text order, 272..528 ∪ 372..600"
    );
    assert_eq!(merged.plain().matches(SEPARATOR).count(), 1);
    // max_fragments: head + one window; the second term's window would be a third.
    let capped = book_with(|c| c.max_fragments = 2);
    assert_eq!(dynamic_abstract(&text, &q, &capped).fragments.len(), 2);
    // … but merged, it joins the first and fits.
    let capped_merged = dynamic_abstract(
        &text,
        &q,
        &AbstractConfig {
            max_fragments: 2,
            ..cfg
        },
    );
    assert_eq!(capped_merged.fragments.len(), 2);
    assert_eq!(capped_merged.fragments[1].start_char, 272);
}

#[test]
fn touching_fragments_merge() {
    // Head 0..24; a term at character 24 starts its window there (b2.2): they touch.
    let text = chinese_with("北大", 24);
    let cfg = book_with(|c| c.merge_overlaps = true);
    let a = dynamic_abstract(&text, &terms(&["北大"]), &cfg);
    assert_eq!(a.fragments.len(), 1);
    assert_eq!(a.fragments[0].text, chars(&text, 0, 280));
}

#[test]
fn highlights_prefer_the_longer_term_and_ignore_ascii_case() {
    let text = "北京大学在北京。Rust and RUST and rusty.";
    let q = terms(&["北京", "北京大学", "rust"]);
    let cfg = book_with(|c| c.head = 200);
    let a = dynamic_abstract(text, &q, &cfg);
    assert_eq!(
        a.fragments[0]
            .spans()
            .filter(|s| s.1.is_some())
            .collect::<Vec<_>>(),
        [
            ("北京大学", Some(1)),
            ("北京", Some(0)),
            ("Rust", Some(2)),
            ("RUST", Some(2)),
            ("rust", Some(2))
        ]
    );
    assert!(a.marked("【", "】").starts_with("【北京大学】在【北京】。"));
}

#[test]
fn html_is_escaped_and_terms_classed() {
    let text = "a<b> & \"q\" 'x' key";
    let cfg = book_with(|c| c.head = 100);
    let a = dynamic_abstract(text, &terms(&["zzz", "key"]), &cfg);
    // The head is the whole text; the term's window starts at the term (b2.2).
    assert_eq!(
        a.html(),
        "a&lt;b&gt; &amp; &quot;q&quot; &#39;x&#39; <em class=\"t1\">key</em>\
         ...<em class=\"t1\">key</em>"
    );
    // Separators appear in plain, marked, html and spans alike.
    let two = Abstract {
        fragments: vec![a.fragments[0].clone(), a.fragments[0].clone()],
    };
    assert_eq!(two.html().matches("...").count(), 1);
    assert_eq!(two.spans().filter(|s| s.0 == SEPARATOR).count(), 1);
    let json = serde_json::to_string(&two).unwrap();
    assert_eq!(serde_json::from_str::<Abstract>(&json).unwrap(), two);
}

#[test]
fn bad_configurations_name_their_flag() {
    assert!(AbstractConfig::default().validate().is_ok());
    assert!(AbstractConfig::modern().validate().is_ok());
    let e = book_with(|c| c.window = 0).validate().unwrap_err();
    assert!(e.to_string().contains("--abstract-window"), "{e}");
    let e = book_with(|c| c.max_fragments = 0).validate().unwrap_err();
    assert!(e.to_string().contains("--abstract-max-fragments"), "{e}");
    assert_eq!(Unit::parse("Chars").unwrap(), Unit::Chars);
    assert!(Unit::parse("bytes").unwrap_err().is_user_error());
}

#[test]
fn snapshot_colours_each_term_and_finds_first_occurrences() {
    let text = "天网是北大的搜索引擎，北大网络实验室做的。TSE = Tianwang Search Engine.";
    let q = terms(&["北大", "tse", "清华", "search engine"]);
    let s = snapshot(text, &q);
    let back: String = s.spans.iter().map(|sp| sp.text.as_str()).collect();
    assert_eq!(back, text);
    assert_eq!(s.counts, [2, 1, 0, 1]);
    assert_eq!(s.first_occurrence, [Some(1), Some(5), None, Some(7)]);
    assert_eq!(s.spans[1].text, "北大");
    assert_eq!(s.spans[5].text, "TSE");
    assert_eq!(s.spans[7].text, "Search Engine");
    assert!(snapshot("", &q).spans.is_empty());
    // A repeated term is marked as its first copy.
    assert_eq!(snapshot("ab ab", &terms(&["ab", "AB"])).counts, [2, 0]);
}

/// Random texts mixing ASCII, Chinese and 4-byte characters, random terms cut from them,
/// random configurations: fragments are the text's own characters, within their budget,
/// every highlight is a query term, and every found term's first occurrence is shown.
#[test]
fn property_fragments_are_whole_characters_and_highlights_are_terms() {
    let alphabet: Vec<char> = "aB 1.天网北大搜索，😀é".chars().collect();
    let mut rng = Rng::new(15);
    for round in 0..400 {
        let n = rng.below(700);
        let text: String = (0..n)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let cs: Vec<char> = text.chars().collect();
        let q: Vec<String> = (0..rng.below(4))
            .map(|_| {
                let (a, len) = (rng.below(n.max(1)), 1 + rng.below(4));
                cs.iter().skip(a).take(len).collect()
            })
            .collect();
        let cfg = AbstractConfig {
            head: rng.below(60),
            window: 1 + rng.below(200),
            unit: Unit::ALL[rng.below(2)],
            max_fragments: 1 + rng.below(5),
            merge_overlaps: rng.below(2) == 0,
        };
        let a = dynamic_abstract(&text, &q, &cfg);
        assert!(a.fragments.len() <= cfg.max_fragments, "round {round}");
        for (i, f) in a.fragments.iter().enumerate() {
            let len = f.text.chars().count();
            assert_eq!(f.text, chars(&text, f.start_char, f.start_char + len));
            assert!(len > 0);
            if !cfg.merge_overlaps {
                let budget = if i == 0 && f.start_char == 0 && cfg.head > 0 {
                    cfg.head.max(2 * cfg.window)
                } else {
                    2 * cfg.window
                };
                assert!(cfg.unit.measure(&f.text) <= budget, "round {round}");
            }
            let mut end = 0;
            for h in &f.highlights {
                assert!(h.start >= end && h.end > h.start);
                assert!(f.text.is_char_boundary(h.start) && f.text.is_char_boundary(h.end));
                assert!(f.text[h.start..h.end].eq_ignore_ascii_case(&q[h.term]));
                end = h.end;
            }
        }
        // With room for every window, each found term (no longer than its window) shows.
        let roomy = AbstractConfig {
            max_fragments: UNLIMITED,
            ..cfg
        };
        let a = dynamic_abstract(&text, &q, &roomy);
        for t in q
            .iter()
            .filter(|t| !t.is_empty() && cfg.unit.measure(t) <= cfg.window)
        {
            let Some(b) = text.to_ascii_lowercase().find(&t.to_ascii_lowercase()) else {
                continue;
            };
            let at = text[..b].chars().count();
            let tl = t.chars().count();
            assert!(
                a.fragments
                    .iter()
                    .any(|f| f.start_char <= at
                        && at + tl <= f.start_char + f.text.chars().count()),
                "round {round}: {t:?} at {at} not shown"
            );
        }
        let s = snapshot(&text, &q);
        assert_eq!(
            s.spans.iter().map(|x| x.text.as_str()).collect::<String>(),
            text
        );
    }
}
