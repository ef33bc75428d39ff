//! The tokenizer's own tests: tags, text, comments and raw text; pages that end inside a tag;
//! upper-case tag names; character references by the short way and the long; doctype quirks;
//! the byte tables.

use super::*;

fn tokens(s: &str) -> Vec<String> {
    let mut t = Tokenizer::new(s);
    let mut out = Vec::new();
    while let Some(tok) = t.next_token() {
        out.push(match tok {
            Token::Start(tag) => {
                if tag.name == "title" {
                    t.mode = TextMode::Rcdata;
                    t.end_tag = "title";
                }
                format!(
                    "<{}{}{}>",
                    tag.name,
                    TagAttrs::decoded(tag.attrs.href)
                        .map(|h| format!(" href={h}"))
                        .unwrap_or_default(),
                    if tag.self_closing { "/" } else { "" }
                )
            }
            Token::End(n) => format!("</{n}>"),
            Token::Text(x) => x.into_owned(),
            Token::Doctype { quirks } => format!("doctype {quirks}"),
        });
    }
    out
}

#[test]
fn tags_text_comments_and_raw_text() {
    assert_eq!(
        tokens(
            "<!DOCTYPE html><P>a&amp;b&nbsp<!-- <p> --><br/><A HREF='x?a=1&copy=2&amp;b'>c</a><title>a<b>&lt;</title></x y=\">\">"
        ),
        [
            "doctype false",
            "<p>",
            "a&b\u{a0}",
            "<br/>",
            "<a href=x?a=1&copy=2&b>",
            "c",
            "</a>",
            "<title>",
            "a<b><",
            "</title>",
            "</x>"
        ]
    );
    assert_eq!(
        tokens("a < b <3 &#x4e2d;&#20013;&#0;"),
        ["a ", "< b ", "<3 中中\u{fffd}"]
    );
    assert_eq!(
        tokens("x<script>if(a<b)</script>y<style>p{}</style >z<?php ?>"),
        ["x", "y", "z"]
    );
    assert_eq!(tokens("<p class=a"), Vec::<String>::new());
}

#[test]
fn a_page_ending_inside_a_tag_or_doctype_ends_the_tokens() {
    // The fuzzer's hang: `</d` and bytes to the end (an end tag never closed).
    for s in [
        "<p>a</d\u{fffd}\u{fffd} x",
        "<p>a</div class=\"x",
        "<!doctype html 天",
        "<a href=\"x",
    ] {
        let t = tokens(s);
        assert!(t.len() <= 3, "{s}: {t:?}");
    }
}

#[test]
fn named_references_closed_by_a_semicolon_take_the_short_way_to_the_same_answer() {
    let mut tried = 0;
    for name in NAMED_ENTITIES.keys() {
        for tail in ["", ";", "x", "=", "1;", " "] {
            let s = format!("&{name}{tail}");
            for attr in [false, true] {
                assert_eq!(
                    char_ref(&s, 1, attr),
                    longest_named(&s, 1, attr),
                    "{s:?} {attr}"
                );
                tried += 1;
            }
        }
    }
    assert!(tried > 10_000);
    assert_eq!(
        decode("a&nbsp;&amp;&lt&notin;&notit;&x;&", false),
        "a\u{a0}&<∉¬it;&x;&"
    );
}

#[test]
fn upper_case_tag_names_are_lower_cased() {
    for (s, l, known) in [
        ("TD", "td", true),
        ("Font", "font", true),
        ("BLOCKQUOTE", "blockquote", true),
        ("CUSTOM-EL", "custom-el", false),
        ("TDX", "tdx", false),
        ("td", "td", true),
    ] {
        let got = lower(s);
        assert_eq!(got, l);
        assert_eq!(matches!(got, Cow::Borrowed(_)), known || s == l, "{s}");
    }
    assert!(
        KNOWN_TAGS
            .iter()
            .all(|k| k.len() <= 10 && *k == k.to_ascii_lowercase())
    );
    for k in KNOWN_TAGS {
        let upper = k.to_ascii_uppercase();
        assert!(matches!(lower(&upper), Cow::Borrowed(b) if b == *k), "{k}");
    }
    assert_eq!(known("tdx"), None);
}

#[test]
fn tag_names_read_in_one_pass_are_lower_cased_as_lower_does() {
    for s in [
        "TD",
        "td",
        "Font",
        "CUSTOM-EL",
        "tdX",
        "BLOCKQUOTE",
        "x",
        "P",
    ] {
        for (html, at) in [(format!("<{s} a=1>"), 1), (format!("</{s}>"), 2)] {
            let t = Tokenizer::new(&html);
            let (end, name) = t.name(at);
            assert_eq!(end, at + s.len(), "{html}");
            assert_eq!(name, lower(s), "{html}");
            assert_eq!(
                matches!(name, Cow::Borrowed(_)),
                matches!(lower(s), Cow::Borrowed(_)),
                "{html}"
            );
        }
    }
}

#[test]
fn doctype_quirks() {
    assert!(!quirks(" html"));
    assert!(quirks(
        " html public \"-//W3C//DTD HTML 4.01 Transitional//EN\""
    ));
    assert!(!quirks(
        " html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\""
    ));
    assert!(!quirks(
        " html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\""
    ));
    assert!(quirks(
        " HTML PUBLIC \"-//W3C//DTD HTML 4.0 Transitional//EN\""
    ));
}

#[test]
fn byte_tables_are_the_spec_s_sets() {
    for b in 0..=255u8 {
        let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c);
        assert_eq!(ws, is_ws(b), "{b}");
        assert_eq!(
            ENDS_TAG_NAME[b as usize],
            ws || matches!(b, b'/' | b'>'),
            "{b}"
        );
        assert_eq!(
            ENDS_ATTR_NAME[b as usize],
            ws || matches!(b, b'/' | b'>' | b'='),
            "{b}"
        );
        assert_eq!(ENDS_UNQUOTED[b as usize], ws || b == b'>', "{b}");
    }
    let mut t = Tokenizer::new("<td class=a\tid=b/ href=x>y");
    let Some(Token::Start(tag)) = t.next_token() else {
        panic!("a start tag")
    };
    assert_eq!(tag.attrs.class, Some("a"));
    assert_eq!(tag.attrs.id, Some("b/"));
    assert_eq!(tag.attrs.href, Some("x"));
}

#[test]
fn id_class_and_href_are_kept_raw_and_decoded_when_read() {
    use crate::engine::docview::tree::Attrs;
    fn tag(html: &str) -> Tag<'_> {
        match Tokenizer::new(html).next_token() {
            Some(Token::Start(tag)) => tag,
            t => panic!("{t:?}"),
        }
    }
    let a = tag("<a id='x&lt;' class=\"b&amp;c d\" href=x?a=1&copy=2&amp;y name=n&amp;>");
    assert_eq!(a.attrs.id, Some("x&lt;"));
    assert_eq!(a.attrs.attr("id").as_deref(), Some("x<"));
    assert_eq!(a.attrs.attr("class").as_deref(), Some("b&c d"));
    assert_eq!(a.attrs.attr("href").as_deref(), Some("x?a=1&copy=2&y"));
    assert_eq!(a.attrs.attr("name").as_deref(), Some("n&"));
    assert_eq!(a.attrs.hint(), "#x<.b&c.d");
    // Equal as the DOM holds them: decoded, whatever the page's spelling.
    let b = tag("<a id='x<' class='b&c d' href='x?a=1&copy=2&y' name='n&amp;'>");
    assert!(a.attrs.same(&b.attrs) && b.attrs.same(&a.attrs));
    let c = tag("<a id='x<' class='b&c d' href='x?a=1&copy=2&z' name='n&amp;'>");
    assert!(!a.attrs.same(&c.attrs));
    let d = tag("<a id='x<' class='b&c d' name='n&amp;'>");
    assert!(!a.attrs.same(&d.attrs) && !d.attrs.same(&a.attrs));
}
