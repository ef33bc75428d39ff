//! A link scanner that builds no DOM: it walks the page's tags once, as an HTML tokenizer does
//! (comments, raw-text elements such as `<script>` and `<style>`, quoted and unquoted attribute
//! values, upper-case names, character references in values), and yields the `href` of `<a>`
//! and `<area>`, the `src` of `<frame>` and `<iframe>`, and the first `<base href>` — the links
//! the book's `CPage::ParseHyperLinks` extracts [L989–991]; the full parse waits for DocView.
//! A test checks it finds the same links as the html5ever DOM on the sample web and on tricky
//! HTML.
//!
//! ```ignore
//! let tags = scan("<A HREF='x.html'>x</A>");
//! assert_eq!(tags.links, ["x.html"]);
//! ```

use std::borrow::Cow;

/// What the scan found: the link values in document order and the first `<base href>`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Scanned<'a> {
    pub links: Vec<Cow<'a, str>>,
    pub base: Option<Cow<'a, str>>,
}

/// Elements whose content is text to the tokenizer (html5ever, scripting on): no tags inside.
const RAW_TEXT: [&[u8]; 9] = [
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"noscript",
];

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// One tag's name (lower case) and its attributes as (name, raw value) slices; first wins.
struct Tag<'a> {
    name: [u8; 8],
    name_len: usize,
    end: bool,
    attrs: Vec<(&'a [u8], &'a str)>,
}

impl<'a> Tag<'a> {
    fn name(&self) -> &[u8] {
        &self.name[..self.name_len]
    }
    fn is(&self, n: &[u8]) -> bool {
        self.name_len <= 8 && self.name() == n
    }
    fn attr(&self, n: &[u8]) -> Option<&'a str> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| *v)
    }
}

/// Parse a tag starting after `<` (or `</`) at `i`; returns the tag and the index after `>`,
/// or `None` when the document ends inside the tag (a tokenizer drops such a tag).
fn parse_tag<'a>(
    s: &'a str,
    mut i: usize,
    end: bool,
    attrs: Vec<(&'a [u8], &'a str)>,
) -> Option<(Tag<'a>, usize)> {
    let b = s.as_bytes();
    let start = i;
    while i < b.len() && !is_space(b[i]) && b[i] != b'/' && b[i] != b'>' {
        i += 1;
    }
    let raw_name = &b[start..i];
    let mut tag = Tag {
        name: [0; 8],
        name_len: if raw_name.len() <= 8 {
            raw_name.len()
        } else {
            9
        },
        end,
        attrs,
    };
    tag.attrs.clear();
    if raw_name.len() <= 8 {
        for (d, c) in tag.name.iter_mut().zip(raw_name) {
            *d = c.to_ascii_lowercase();
        }
    }
    loop {
        // Before an attribute name: spaces and stray slashes.
        while i < b.len() && (is_space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        if b[i] == b'>' {
            return Some((tag, i + 1));
        }
        // The name: its first character may be '='.
        let n0 = i;
        i += 1;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = &b[n0..i];
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        let mut value = "";
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && is_space(b[i]) {
                i += 1;
            }
            if i >= b.len() {
                return None;
            }
            match b[i] {
                q @ (b'"' | b'\'') => {
                    let close = memchr(q, &b[i + 1..])? + i + 1;
                    value = s.get(i + 1..close)?;
                    i = close + 1;
                }
                b'>' => {}
                _ => {
                    let v0 = i;
                    while i < b.len() && !is_space(b[i]) && b[i] != b'>' {
                        i += 1;
                    }
                    value = s.get(v0..i)?;
                }
            }
        }
        if !tag.attrs.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)) {
            tag.attrs.push((name, value));
        }
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

/// Index just past the `</name` that ends a raw-text element (case-insensitive, followed by a
/// space, `/` or `>`), or the end of the document.
fn raw_text_end(b: &[u8], mut i: usize, name: &[u8]) -> usize {
    while let Some(k) = memchr(b'<', &b[i..]) {
        let at = i + k;
        let rest = &b[at..];
        if rest.len() > name.len() + 2
            && rest[1] == b'/'
            && rest[2..2 + name.len()].eq_ignore_ascii_case(name)
            && (is_space(rest[2 + name.len()]) || matches!(rest[2 + name.len()], b'/' | b'>'))
        {
            return at;
        }
        i = at + 1;
    }
    b.len()
}

/// Scan `html` for links (values with character references decoded).
pub(crate) fn scan(html: &str) -> Scanned<'_> {
    let b = html.as_bytes();
    let mut out = Scanned::default();
    let mut i = 0;
    let mut attrs = Vec::new();
    while let Some(k) = memchr(b'<', &b[i..]) {
        let at = i + k;
        let rest = &b[at..];
        if rest.starts_with(b"<!--") {
            // `<!-->` and `<!--->` close at once.
            let body = &rest[4..];
            i = if body.starts_with(b">") {
                at + 5
            } else if body.starts_with(b"->") {
                at + 6
            } else {
                match find(body, b"-->")
                    .into_iter()
                    .chain(find(body, b"--!>"))
                    .min()
                {
                    Some(e) => at + 4 + e + if body[e + 2] == b'!' { 4 } else { 3 },
                    None => return out,
                }
            };
            continue;
        }
        match rest.get(1) {
            Some(b'!' | b'?') => {
                // Doctype or a bogus comment: up to the next `>`.
                match memchr(b'>', &rest[1..]) {
                    Some(e) => i = at + e + 2,
                    None => return out,
                }
            }
            Some(b'/') if rest.get(2).is_some_and(u8::is_ascii_alphabetic) => {
                match parse_tag(html, at + 2, true, std::mem::take(&mut attrs)) {
                    Some((t, next)) => {
                        attrs = t.attrs;
                        i = next;
                    }
                    None => return out,
                }
            }
            Some(b'/') => match memchr(b'>', &rest[2..]) {
                Some(e) => i = at + e + 3,
                None => return out,
            },
            Some(c) if c.is_ascii_alphabetic() => {
                let Some((t, next)) = parse_tag(html, at + 1, false, std::mem::take(&mut attrs))
                else {
                    return out;
                };
                i = next;
                if !t.end {
                    let value = if t.is(b"a") || t.is(b"area") {
                        t.attr(b"href")
                    } else if t.is(b"frame") || t.is(b"iframe") {
                        t.attr(b"src").and(t.attr(b"href").or(t.attr(b"src")))
                    } else {
                        None
                    };
                    if let Some(v) = value {
                        out.links.push(decode_refs(v));
                    }
                    if out.base.is_none()
                        && t.is(b"base")
                        && let Some(v) = t.attr(b"href")
                    {
                        out.base = Some(decode_refs(v));
                    }
                    if t.is(b"plaintext") {
                        return out;
                    }
                    if let Some(raw) = RAW_TEXT.iter().find(|n| t.is(n)) {
                        i = raw_text_end(b, i, raw);
                    }
                }
                attrs = t.attrs;
            }
            _ => i = at + 1,
        }
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Decode character references in an attribute value: the common ones here, anything else
/// (other named references, legacy forms without `;`, odd code points) through html5ever, so
/// the result is the DOM's.
fn decode_refs(v: &str) -> Cow<'_, str> {
    if !v.contains('&') {
        return Cow::Borrowed(v);
    }
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        // Literal: `&` not followed by a name or `#`, or a name run ending in `=` (a query
        // string: in a value no reference without `;` is decoded before `=` or an alphanumeric).
        let run = rest[1..]
            .bytes()
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        let after = rest.as_bytes().get(1 + run).copied();
        if (run == 0 && after != Some(b'#')) || (run > 0 && after == Some(b'=')) {
            out.push('&');
            rest = &rest[1..];
            continue;
        }
        let Some(semi) = rest.as_bytes()[..rest.len().min(12)]
            .iter()
            .position(|&c| c == b';')
        else {
            return Cow::Owned(decode_by_parser(v));
        };
        let name = &rest[1..semi];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => name.strip_prefix('#').and_then(|n| {
                let code = match n.strip_prefix(['x', 'X']) {
                    Some(h) if !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()) => {
                        u32::from_str_radix(h, 16).ok()
                    }
                    None if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => {
                        n.parse().ok()
                    }
                    _ => None,
                }?;
                // Controls and the Windows-1252 remapping are left to the parser.
                (code >= 0x20 && !(0x7f..0xa0).contains(&code))
                    .then(|| char::from_u32(code))
                    .flatten()
            }),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => return Cow::Owned(decode_by_parser(v)),
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The value as html5ever decodes it (a one-element fragment).
fn decode_by_parser(v: &str) -> String {
    let quoted = if !v.contains('"') {
        format!("<a href=\"{v}\">")
    } else if !v.contains('\'') {
        format!("<a href='{v}'>")
    } else {
        format!("<a href=\"{}\">", v.replace('"', "&quot;"))
    };
    let frag = scraper::Html::parse_fragment(&quoted);
    scraper::Selector::parse("a")
        .ok()
        .and_then(|sel| {
            frag.select(&sel)
                .next()
                .and_then(|a| a.value().attr("href").map(str::to_string))
        })
        .unwrap_or_else(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_values_comments_and_raw_text() {
        let s = scan(
            "<!DOCTYPE html><BASE HREF=\"/b/\"><base href=/c/><!-- <a href=c1> --><!--><a href=k>\
             <script>var s = '<a href=\"s\">';</script ><STYLE>a{}</style>\
             <A Href = 'q1?a=1&amp;b=2' href=dup>x</A><a href=u&#x41;v>y</a><a title=\">\" href=\"t\">\
             <area href=\"\"><iframe src=i>text <a href=no></iframe><a href>e</a><a>none</a>",
        );
        assert_eq!(s.base.as_deref(), Some("/b/"));
        let links: Vec<&str> = s.links.iter().map(|c| c.as_ref()).collect();
        assert_eq!(links, ["k", "q1?a=1&b=2", "uAv", "t", "", "i", ""]);
    }

    #[test]
    fn unusual_references_decode_as_the_parser_does() {
        assert_eq!(decode_refs("a&copy;b"), "a©b");
        assert_eq!(decode_refs("a?x=1&copy=2"), "a?x=1&copy=2");
        assert_eq!(decode_refs("&#128;"), "€");
        assert_eq!(decode_refs("x&amp;y"), "x&y");
        assert_eq!(decode_refs("plain"), "plain");
        assert_eq!(decode_refs("s?a=1&b=2&amp=3&c"), "s?a=1&b=2&amp=3&c");
        assert_eq!(decode_refs("a & b &&#65;"), "a & b &A");
        assert_eq!(decode_refs("x&copy.y&amp"), "x©.y&");
        // A multi-byte character where the `;` search stops is no panic.
        assert_eq!(decode_refs("&#x4e2d中文中文中文;"), "中中文中文中文;");
    }
}
