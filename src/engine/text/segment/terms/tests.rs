//! Tests of `terms`: the fast term path against a plain reference of the logic it replaced
//! (jieba-rs's tokens, classified from their characters, stop words by a scan of the list).

use super::super::{Method, Segmenter, TokenKind, classify, stop_word_list};
use crate::engine::rng::Rng;

/// `(term, char start)` by the reference: every token of jieba-rs `cut(text, false)` that is
/// a Word or Latin and (with `drop`) no stop word, lower-cased as before.
fn reference(text: &str, drop: bool) -> Vec<(String, usize)> {
    let stop = |w: &str| stop_word_list().any(|s| s.eq_ignore_ascii_case(w));
    let lower = |w: &str, kind| {
        let upper = match kind {
            TokenKind::Latin if !w.is_ascii() => w.chars().any(char::is_uppercase),
            _ => w.bytes().any(|b| b.is_ascii_uppercase()),
        };
        if upper {
            w.to_lowercase()
        } else {
            w.to_owned()
        }
    };
    let jieba = Segmenter::shared().jieba();
    let mut out = Vec::new();
    for t in jieba.cut(text, false) {
        let kind = classify(t.word);
        if matches!(kind, TokenKind::Word | TokenKind::Latin) && !(drop && stop(t.word)) {
            out.push((lower(t.word, kind), t.start));
        }
    }
    out
}

/// Every form of the term path on `text` against the reference.
fn check(text: &str) {
    let seg = Segmenter::shared();
    let m = Method::JiebaNoHmm;
    for drop in [true, false] {
        let mut at = Vec::new();
        seg.for_each_term_at(text, m, drop, |t, s| at.push((t.into_owned(), s)));
        assert_eq!(at, reference(text, drop), "drop {drop}: {text:?}");
    }
    let mut terms = Vec::new();
    seg.for_each_term(text, m, |t| terms.push(t.into_owned()));
    let words: Vec<String> = reference(text, true).into_iter().map(|t| t.0).collect();
    assert_eq!(terms, words, "{text:?}");
    assert_eq!(seg.terms(text, m), words, "{text:?}");
    // The kinds the cutter passes along are the ones `classify` gives.
    let jieba = seg.jieba().cut(text, false);
    let cut = seg.cut(text, m);
    assert_eq!(cut.len(), jieba.len(), "{text:?}");
    for (a, b) in cut.iter().zip(&jieba) {
        assert_eq!((a.word.as_str(), a.start), (b.word, b.start), "{text:?}");
        assert_eq!(a.kind, classify(b.word), "{:?} in {text:?}", b.word);
    }
    let mut all = Vec::new();
    seg.for_each_token_at(text, m, false, true, |t, s| all.push((t.into_owned(), s)));
    let want: Vec<(String, usize)> = (jieba.iter())
        .filter(|t| classify(t.word) != TokenKind::Space)
        .map(|t| (t.word.to_owned(), t.start))
        .collect();
    assert_eq!(all, want, "{text:?}");
}

#[test]
fn mixed_text_terms_as_before() {
    let text = "我们的 Search Engine 和 THE 天网 是 一个 搜索引擎。T恤，Ελλάδα 䶵𠀀 3.14\r\n\
        iPhone 15 Pro售价7999元；C++和C#、.NET 4.8、50%的T恤、B超、AA制 The AND And\x0b\u{85}\n\
        全角：ＡＢＣ１２３，ｈｔｔｐ://例子.com/a_b-c&d?e=f#g 😀👍🏽 emoji后接中文\t\u{3000}空格\n\
        扩展字㐀㐁𠀀𠀁𪜀𫝀𬺰豈更 繁體中文測試。Ünïcödé CAFÉ naïve ΑΒΓ ǅ Ǆ ﬁ カタカナ ひらがな\n\
        因为所以，这些那些为什么一个人我们的，已经可以。abc123DEF 1.95 x_y ++ ## %% && .. --";
    check(text);
    for t in [
        "", "的", "我们", "The", "T", "。", " ", "\r\n", "Ǆ", "ＡＢ", "𠀀", "a+b",
    ] {
        check(t);
    }
    assert!(reference(text, true).len() > 80);
}

#[test]
fn random_text_terms_as_before() {
    // Stop words and their pieces, words, letters of both cases, digits, joiners,
    // punctuation, white space of several kinds, non-Han letters, extension characters.
    let pieces: Vec<&str> = "的 我们 我 们 这 这些 些 一 一个 为什么 什么 因为 所以 已经 可以 有 是 在 和 \
        不 中国 搜索 引擎 天网 笔记本 电脑 学 历史 知识 长江 大桥 市长 T恤 B超 AA制 the THE The and \
        AND Or of OF a A b Z x 0 1 9 + # & . _ % - ， 。 、 ！ ？ （ ） “ ” Ａ ｚ １ é É ǅ Ǆ ß ﬁ カ ひ \
        α Ω 😀 👍🏽 𠀀 㐀 豈"
        .split(' ')
        .filter(|p| !p.is_empty())
        .chain([" ", "\t", "\n", "\r\n", "\r", "\u{3000}", "\u{a0}", "\x0b", "\u{85}"])
        .collect();
    let mut rng = Rng::new(20261128);
    for _ in 0..2000 {
        let len = 1 + rng.below(40);
        let text: String = (0..len).map(|_| pieces[rng.below(pieces.len())]).collect();
        check(&text);
    }
}
