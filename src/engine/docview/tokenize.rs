//! A small streaming HTML tokenizer for the content-block tag tree [L2216–L2237]: the book's
//! builder "scans container tags in order" [L2234]; this scanner does that over the decoded page
//! in one pass, without building a DOM, and yields start tags (with only the attributes the block
//! tree reads), end tags, text with its character references decoded, and the doctype. It follows
//! the WHATWG tokenizer where real pages need it — raw text (`<script>`, `<style>`, …), RCDATA
//! (`<title>`, `<textarea>`), comments, bogus comments, `</>`, a lone `<`, unquoted and
//! malformed attributes, named and numeric character references with the attribute rule — and
//! `stream` builds the tree from these tokens.
//!
//! ```ignore
//! let mut t = Tokenizer::new("<p class=x>a &amp; b</p>");
//! assert!(matches!(t.next(), Some(Token::Start(tag)) if tag.name == "p"));
//! ```

use std::borrow::Cow;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// The attributes the block tree reads; the first occurrence of each wins (as in html5ever).
/// `id`, `class` and `href` are kept as the page writes them, character references undecoded:
/// [`TagAttrs::decoded`] decodes one when it is read, and most never are (the hint of an
/// inline element, an end tag's attributes). `name`, `content` and `type` are rare (`<meta>`,
/// `<input>`, …) and boxed apart, decoded, so that a tag (which moves from one
/// tree-construction step to the next) stays small; the box is made only for a tag that has
/// one of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct TagAttrs<'a> {
    pub id: Option<&'a str>,
    pub class: Option<&'a str>,
    pub href: Option<&'a str>,
    pub rare: Option<Box<RareAttrs<'a>>>,
}

/// The rarely present attributes of [`TagAttrs`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RareAttrs<'a> {
    pub name: Option<Cow<'a, str>>,
    pub content: Option<Cow<'a, str>>,
    pub kind: Option<Cow<'a, str>>,
}

impl<'a> TagAttrs<'a> {
    /// The `type` attribute.
    pub(crate) fn kind(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.kind.as_deref())
    }

    /// The class/id hint of a raw `id` and `class` (decoded first).
    pub(crate) fn hint_of_raw(id: Option<&str>, class: Option<&str>) -> String {
        let (id, class) = (TagAttrs::decoded(id), TagAttrs::decoded(class));
        super::tree::hint_of(id.as_deref(), class.as_deref())
    }

    /// A raw `id`, `class` or `href` value with its character references decoded.
    pub(crate) fn decoded(raw: Option<&'a str>) -> Option<Cow<'a, str>> {
        raw.map(|v| decode(v, true))
    }

    /// Whether every attribute is the same as `other`'s, decoded (the Noah's ark clause
    /// compares attributes as the DOM holds them).
    pub(crate) fn same(&self, other: &TagAttrs<'_>) -> bool {
        let eq = |a: Option<&str>, b: Option<&str>| match (a, b) {
            (Some(a), Some(b)) => a == b || decode(a, true) == decode(b, true),
            (a, b) => a.is_none() && b.is_none(),
        };
        eq(self.id, other.id)
            && eq(self.class, other.class)
            && eq(self.href, other.href)
            && self.same_rare(other)
    }

    /// Whether `name`, `content` and `type` are the same as `other`'s.
    pub(crate) fn same_rare(&self, other: &TagAttrs<'_>) -> bool {
        fn parts<'s>(r: Option<&'s RareAttrs<'_>>) -> [Option<&'s str>; 3] {
            r.map_or([None; 3], |r| {
                [r.name.as_deref(), r.content.as_deref(), r.kind.as_deref()]
            })
        }
        parts(self.rare.as_deref()) == parts(other.rare.as_deref())
    }
}

impl super::tree::Attrs for TagAttrs<'_> {
    fn attr(&self, name: &str) -> Option<Cow<'_, str>> {
        let rare = self.rare.as_deref();
        let kept = match name {
            "id" => return TagAttrs::decoded(self.id),
            "class" => return TagAttrs::decoded(self.class),
            "href" => return TagAttrs::decoded(self.href),
            "name" => rare.and_then(|r| r.name.as_deref()),
            "content" => rare.and_then(|r| r.content.as_deref()),
            "type" => rare.and_then(|r| r.kind.as_deref()),
            _ => None,
        };
        kept.map(Cow::Borrowed)
    }
    fn hint(&self) -> String {
        TagAttrs::hint_of_raw(self.id, self.class)
    }
}

/// A start tag.
#[derive(Debug, Clone)]
pub(crate) struct Tag<'a> {
    /// Lower case.
    pub name: Cow<'a, str>,
    pub attrs: TagAttrs<'a>,
    pub self_closing: bool,
}

/// One token.
#[derive(Debug)]
pub(crate) enum Token<'a> {
    Start(Tag<'a>),
    End(Cow<'a, str>),
    Text(Cow<'a, str>),
    /// Whether the doctype puts the document in quirks mode.
    Doctype {
        quirks: bool,
    },
}

// A token moves through several tree-construction steps; at most 128 bytes it is copied with a
// few vector moves instead of a `memcpy` call each time.
const _: () = assert!(std::mem::size_of::<Token<'static>>() <= 128);

/// How the text after a start tag is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextMode {
    Data,
    /// Entities decoded, no tags until the end tag (`title`, `textarea`).
    Rcdata,
    /// No entities, no tags until the end tag.
    Rawtext,
    /// Everything to the end is text.
    Plaintext,
}

pub(crate) struct Tokenizer<'a> {
    src: &'a str,
    pos: usize,
    /// Set by the tree builder after a start tag: how to read what follows, up to `</end_tag`.
    pub mode: TextMode,
    pub end_tag: &'static str,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// The bytes that end a tag name (HTML's white space, `/`, `>`), one table lookup a byte.
static ENDS_TAG_NAME: [bool; 256] = byte_set(b" \t\n\r\x0c/>");

/// Bytes that end an attribute's name (HTML's white space, `/`, `>`, `=`) and an unquoted value
/// (white space, `>`): one table lookup a byte in the attribute loops.
static ENDS_ATTR_NAME: [bool; 256] = byte_set(b" \t\n\r\x0c/>=");
static ENDS_UNQUOTED: [bool; 256] = byte_set(b" \t\n\r\x0c>");

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Tag names that old pages often write in upper case (`<TD>`, `<FONT>`): lower-cased, they are
/// borrowed from here instead of allocated (an element's name is cloned for its start and end).
/// One list makes both the lookup (a `match`: by length, then the bytes) and, for the tests,
/// the slice.
macro_rules! known_tags {
    ($($t:literal)+) => {
        #[cfg(test)]
        const KNOWN_TAGS: &[&str] = &[$($t),+];

        /// The known tag spelled `name` (lower case), as a `&'static str`.
        fn known(name: &str) -> Option<&'static str> {
            match name {
                $($t => Some($t),)+
                _ => None,
            }
        }
    };
}

known_tags!(
    "a" "area" "b" "base" "big" "blockquote" "body" "br" "button" "caption" "center" "col"
    "colgroup" "dd" "div" "dl" "dt" "em" "embed" "font" "form" "frame" "frameset" "h1" "h2" "h3"
    "h4" "h5" "h6" "head" "hr" "html" "i" "iframe" "img" "input" "label" "li" "link" "map"
    "marquee" "meta" "nobr" "noscript" "object" "ol" "option" "p" "param" "pre" "select" "small"
    "span" "strong" "sub" "sup" "table" "tbody" "td" "textarea" "tfoot" "th" "thead" "title" "tr"
    "tt" "u" "ul"
);

/// A tag name in lower case: borrowed when it already is, or when it is a known tag (the
/// tokenizer finds the upper case while it scans the name, [`Tokenizer::name`]; a test checks
/// the two agree).
#[cfg(test)]
fn lower(s: &str) -> Cow<'_, str> {
    if !s.bytes().any(|b| b.is_ascii_uppercase()) {
        return Cow::Borrowed(s);
    }
    lower_known(s)
}

/// A tag name with upper case in it, lower-cased: borrowed when it is a known tag.
#[inline(never)]
fn lower_known(s: &str) -> Cow<'_, str> {
    let mut buf = [0u8; 10];
    if let Some(b) = buf.get_mut(..s.len()) {
        b.copy_from_slice(s.as_bytes());
        b.make_ascii_lowercase();
        if let Some(k) = std::str::from_utf8(b).ok().and_then(known) {
            return Cow::Borrowed(k);
        }
    }
    Cow::Owned(s.to_ascii_lowercase())
}

fn starts_ci(b: &[u8], at: usize, pat: &[u8]) -> bool {
    b.len() >= at + pat.len() && b[at..at + pat.len()].eq_ignore_ascii_case(pat)
}

fn find_ci(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    let first = pat[0].to_ascii_lowercase();
    let mut i = from;
    while i + pat.len() <= b.len() {
        let k = i + memchr::memchr2(first, first.to_ascii_uppercase(), &b[i..])?;
        if starts_ci(b, k, pat) {
            return Some(k);
        }
        i = k + 1;
    }
    None
}

/// Decode character references in `s` (text, or an attribute value when `attr`).
pub(crate) fn decode(s: &str, attr: bool) -> Cow<'_, str> {
    let b = s.as_bytes();
    let Some(first) = memchr::memchr(b'&', b) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len());
    let (mut copied, mut i) = (0usize, first);
    loop {
        if let Some((len, c1, c2)) = char_ref(s, i + 1, attr) {
            out.push_str(&s[copied..i]);
            out.push(c1);
            if let Some(c2) = c2 {
                out.push(c2);
            }
            i += 1 + len;
            copied = i;
        } else {
            i += 1;
        }
        match b.get(i..).and_then(|r| memchr::memchr(b'&', r)) {
            Some(k) => i += k,
            None => break,
        }
    }
    out.push_str(&s[copied..]);
    Cow::Owned(out)
}

/// The character of a reference `name;` that pages write most, without hashing.
fn common_ref(name: &[u8]) -> Option<char> {
    Some(match name {
        b"nbsp;" => '\u{a0}',
        b"amp;" => '&',
        b"lt;" => '<',
        b"gt;" => '>',
        b"quot;" => '"',
        b"middot;" => '\u{b7}',
        b"copy;" => '\u{a9}',
        _ => return None,
    })
}

/// The character reference right after an `&` at `at`: bytes consumed and the characters.
fn char_ref(s: &str, at: usize, attr: bool) -> Option<(usize, char, Option<char>)> {
    let b = s.as_bytes();
    if b.get(at) == Some(&b'#') {
        let hex = matches!(b.get(at + 1), Some(b'x' | b'X'));
        let start = at + 1 + hex as usize;
        let mut k = start;
        let mut n: u64 = 0;
        while let Some(&c) = b.get(k) {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' if hex => c - b'a' + 10,
                b'A'..=b'F' if hex => c - b'A' + 10,
                _ => break,
            };
            n = (n * if hex { 16 } else { 10 } + d as u64).min(0x11_0000);
            k += 1;
        }
        if k == start {
            return None;
        }
        if b.get(k) == Some(&b';') {
            k += 1;
        }
        let n = n as u32;
        let c = match n {
            0 | 0xD800..=0xDFFF | 0x11_0000.. => '\u{fffd}',
            0x80..=0x9F => C1_REPLACEMENTS[(n - 0x80) as usize]
                .unwrap_or_else(|| char::from_u32(n).unwrap_or('\u{fffd}')),
            _ => char::from_u32(n).unwrap_or('\u{fffd}'),
        };
        return Some((k - at, c, None));
    }
    // Named, closed by `;`: no longer name starts with it (names are letters and digits, then
    // an optional `;`), so it is the longest match when the table has it.
    let run = b.get(at..).map_or(0, |r| {
        r.iter().take_while(|c| c.is_ascii_alphanumeric()).count()
    });
    if run > 0 && b.get(at + run) == Some(&b';') {
        let name = &b[at..at + run + 1];
        if let Some(c) = common_ref(name) {
            return Some((run + 1, c, None));
        }
        if let Some(&(c1, c2)) = NAMED_ENTITIES.get(&s[at..at + run + 1])
            && c1 != 0
            && let Some(c1) = char::from_u32(c1)
        {
            let c2 = if c2 == 0 { None } else { char::from_u32(c2) };
            return Some((run + 1, c1, c2));
        }
    }
    longest_named(s, at, attr)
}

/// The named character reference at `at`: the longest name in the table that the text starts
/// with (the table holds every prefix of every name, so the walk stops at the first miss).
fn longest_named(s: &str, at: usize, attr: bool) -> Option<(usize, char, Option<char>)> {
    let b = s.as_bytes();
    let (mut best, mut k) = (None, at);
    while k < b.len() && k - at < 40 {
        let Some(ch) = s[k..].chars().next() else {
            break;
        };
        let end = k + ch.len_utf8();
        match NAMED_ENTITIES.get(&s[at..end]) {
            Some(&(c1, c2)) => {
                if c1 != 0 {
                    best = Some((end - at, c1, c2));
                }
                k = end;
            }
            None => break,
        }
    }
    let (len, c1, c2) = best?;
    if attr
        && b[at + len - 1] != b';'
        && let Some(&next) = b.get(at + len)
        && (next == b'=' || next.is_ascii_alphanumeric())
    {
        return None;
    }
    let c1 = char::from_u32(c1)?;
    let c2 = if c2 == 0 { None } else { char::from_u32(c2) };
    Some((len, c1, c2))
}

impl<'a> Tokenizer<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Tokenizer {
            src,
            pos: 0,
            mode: TextMode::Data,
            end_tag: "",
        }
    }

    /// The next token; `None` at the end. Inlined into the one loop that calls it, so the large
    /// token is built where it is used (left to itself, the compiler inlines it or not from one
    /// build to the next, and a call costs ~3 M instructions on ccwe's 69 pages).
    #[inline(always)]
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        let b = self.src.as_bytes();
        loop {
            if self.pos >= b.len() {
                return None;
            }
            match self.mode {
                TextMode::Data => {}
                TextMode::Plaintext => {
                    let t = &self.src[self.pos..];
                    self.pos = b.len();
                    return Some(Token::Text(Cow::Borrowed(t)));
                }
                TextMode::Rcdata | TextMode::Rawtext => return Some(self.raw_text()),
            }
            let start = self.pos;
            if b[start] != b'<' {
                let end = memchr::memchr(b'<', &b[start..]).map_or(b.len(), |k| start + k);
                self.pos = end;
                return Some(Token::Text(decode(&self.src[start..end], false)));
            }
            if let Some(t) = self.markup(start) {
                return Some(t);
            }
        }
    }

    /// Text of a raw-text or RCDATA element up to its end tag (which is then the next token).
    fn raw_text(&mut self) -> Token<'a> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let mut k = start;
        let end = loop {
            match memchr::memmem::find(&b[k..], b"</") {
                None => break b.len(),
                Some(off) => {
                    let lt = k + off;
                    let n = self.end_tag.len();
                    if starts_ci(b, lt + 2, self.end_tag.as_bytes())
                        && b.get(lt + 2 + n)
                            .is_none_or(|&c| is_ws(c) || c == b'/' || c == b'>')
                    {
                        break lt;
                    }
                    k = lt + 2;
                }
            }
        };
        let raw = &self.src[start..end];
        let rcdata = self.mode == TextMode::Rcdata;
        self.pos = end;
        self.mode = TextMode::Data;
        Token::Text(if rcdata {
            decode(raw, false)
        } else {
            Cow::Borrowed(raw)
        })
    }

    /// What starts with `<` at `lt`: a token, or `None` when it was skipped (a comment, a script
    /// or style stripped as [`super::tree::strip_inert`] strips them).
    fn markup(&mut self, lt: usize) -> Option<Token<'a>> {
        let b = self.src.as_bytes();
        let to_gt = |from: usize| {
            memchr::memchr(b'>', &b[from.min(b.len())..]).map_or(b.len(), |k| from + k + 1)
        };
        let second = b.get(lt + 1).copied();
        if second == Some(b'!') && starts_ci(b, lt, b"<!--") {
            self.pos = find_ci(b, lt + 4, b"-->").map_or(b.len(), |k| k + 3);
            return None;
        }
        let scripts: &[(&[u8], &[u8])] = if matches!(second, Some(b's' | b'S')) {
            &[(b"<script", b"</script"), (b"<style", b"</style")]
        } else {
            &[]
        };
        for &(open, close) in scripts {
            if starts_ci(b, lt, open)
                && b.get(lt + open.len())
                    .is_some_and(|&c| is_ws(c) || c == b'>' || c == b'/')
                && let Some(k) = find_ci(b, lt, close)
                && let Some(g) = memchr::memchr(b'>', &b[k..])
            {
                self.pos = k + g + 1;
                return None;
            }
        }
        match b.get(lt + 1) {
            Some(b'!') => {
                self.pos = to_gt(lt + 2);
                if starts_ci(b, lt + 2, b"doctype") {
                    // Up to the `>`, or to the end when there is none (never inside a
                    // character: `self.pos - 1` is the `>` only when one was found).
                    let end = if b.get(self.pos.wrapping_sub(1)) == Some(&b'>') {
                        self.pos - 1
                    } else {
                        b.len()
                    };
                    return Some(Token::Doctype {
                        quirks: quirks(&self.src[lt + 9..end.max(lt + 9)]),
                    });
                }
                None
            }
            Some(b'?') => {
                self.pos = to_gt(lt + 2);
                None
            }
            Some(b'/') => match b.get(lt + 2) {
                Some(b'>') => {
                    self.pos = lt + 3;
                    None
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let (name_end, name) = self.name(lt + 2);
                    // An end tag's attributes are read (quotes may hide a `>`) and dropped;
                    // the usual end tag has none.
                    let end = if b.get(name_end) == Some(&b'>') {
                        Some(name_end + 1)
                    } else {
                        self.attrs(name_end).map(|(_, _, end)| end)
                    };
                    let Some(end) = end else {
                        // The page ends inside the tag: html5ever drops it (and the caller
                        // must not see the same `<` again: the fuzzer's hang).
                        self.pos = b.len();
                        return None;
                    };
                    self.pos = end;
                    Some(Token::End(name))
                }
                Some(_) => {
                    self.pos = to_gt(lt + 2);
                    None
                }
                None => {
                    self.pos = b.len();
                    Some(Token::Text(Cow::Borrowed("</")))
                }
            },
            Some(c) if c.is_ascii_alphabetic() => {
                let (name_end, name) = self.name(lt + 1);
                // A tag without attributes (`<td>`, `<p>`, `<br>`) ends at its name.
                let parts = if b.get(name_end) == Some(&b'>') {
                    Some((TagAttrs::default(), false, name_end + 1))
                } else {
                    self.attrs(name_end)
                };
                let Some((attrs, self_closing, end)) = parts else {
                    // The page ends inside the tag: html5ever drops it.
                    self.pos = b.len();
                    return None;
                };
                self.pos = end;
                Some(Token::Start(Tag {
                    name,
                    attrs,
                    self_closing,
                }))
            }
            _ => {
                // A lone `<` is text.
                let end = memchr::memchr(b'<', &b[lt + 1..]).map_or(b.len(), |k| lt + 1 + k);
                self.pos = end;
                Some(Token::Text(decode(&self.src[lt..end], false)))
            }
        }
    }

    /// The tag name from `from`: where it ends, and the name in lower case (what [`lower`]
    /// gives, the upper case found in the same pass over the bytes).
    /// Inlined into [`Self::markup`] (a call and its returned pair cost more than the loop).
    #[inline(always)]
    fn name(&self, from: usize) -> (usize, Cow<'a, str>) {
        let b = self.src.as_bytes();
        let (mut k, mut upper) = (from, false);
        while k < b.len() && !ENDS_TAG_NAME[b[k] as usize] {
            upper |= b[k].is_ascii_uppercase();
            k += 1;
        }
        let s = &self.src[from..k];
        (
            k,
            if upper {
                lower_known(s)
            } else {
                Cow::Borrowed(s)
            },
        )
    }

    /// Attributes from `at` to the tag's `>`: (attributes, self-closing, one past `>`); `None`
    /// when the page ends first.
    fn attrs(&self, at: usize) -> Option<(TagAttrs<'a>, bool, usize)> {
        let (src, b) = (self.src, self.src.as_bytes());
        let mut a = TagAttrs::default();
        let mut k = at;
        loop {
            while k < b.len() && (is_ws(b[k]) || b[k] == b'/') {
                if b[k] == b'/' && b.get(k + 1) == Some(&b'>') {
                    return Some((a, true, k + 2));
                }
                k += 1;
            }
            if *b.get(k)? == b'>' {
                return Some((a, false, k + 1));
            }
            // The name: a first `=` belongs to it.
            let n0 = k;
            k += 1;
            while k < b.len() && !ENDS_ATTR_NAME[b[k] as usize] {
                k += 1;
            }
            let name = &b[n0..k];
            while k < b.len() && is_ws(b[k]) {
                k += 1;
            }
            // The value's bytes (none without `=`), made a `str` only for an attribute kept.
            let (mut v0, mut v1) = (k, k);
            if b.get(k) == Some(&b'=') {
                k += 1;
                while k < b.len() && is_ws(b[k]) {
                    k += 1;
                }
                (v0, v1) = (k, k);
                match *b.get(k)? {
                    q @ (b'"' | b'\'') => {
                        let close = k + 1 + memchr::memchr(q, &b[k + 1..])?;
                        (v0, v1) = (k + 1, close);
                        k = close + 1;
                    }
                    b'>' => {}
                    _ => {
                        while k < b.len() && !ENDS_UNQUOTED[b[k] as usize] {
                            k += 1;
                        }
                        v1 = k;
                    }
                }
            }
            // By length first: most attributes (`width`, `style`, `src`, …) fail at once.
            let raw = match name.len() {
                2 if name.eq_ignore_ascii_case(b"id") => &mut a.id,
                5 if name.eq_ignore_ascii_case(b"class") => &mut a.class,
                4 if name.eq_ignore_ascii_case(b"href") => &mut a.href,
                4 | 7 => {
                    let slot = match name.len() {
                        4 if name.eq_ignore_ascii_case(b"name") => {
                            &mut a.rare.get_or_insert_default().name
                        }
                        7 if name.eq_ignore_ascii_case(b"content") => {
                            &mut a.rare.get_or_insert_default().content
                        }
                        4 if name.eq_ignore_ascii_case(b"type") => {
                            &mut a.rare.get_or_insert_default().kind
                        }
                        _ => continue,
                    };
                    if slot.is_none() {
                        *slot = Some(decode(&src[v0..v1], true));
                    }
                    continue;
                }
                _ => continue,
            };
            if raw.is_none() {
                *raw = Some(&src[v0..v1]);
            }
        }
    }
}

/// Whether a doctype's text (after `<!doctype`) puts the page in quirks mode (the part of the
/// WHATWG rules that matters here: a `<table>` then does not close an open `<p>`).
fn quirks(decl: &str) -> bool {
    let d = decl.trim().to_ascii_lowercase();
    let name_end = d.find(|c: char| c.is_ascii_whitespace()).unwrap_or(d.len());
    if &d[..name_end] != "html" {
        return true;
    }
    let rest = d[name_end..].trim_start();
    let quoted = |s: &str| -> Option<String> {
        let s = s.trim_start();
        let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        s[1..].find(q).map(|e| s[1..1 + e].to_string())
    };
    let Some(after) = rest.strip_prefix("public") else {
        return false;
    };
    let Some(public) = quoted(after) else {
        return true;
    };
    let after_pub = after.trim_start();
    let system = quoted(&after_pub[public.len() + 2..]);
    const QUIRKY: &[&str] = &[
        "-//w3c//dtd html 4.0 transitional//",
        "-//w3c//dtd html 4.0 frameset//",
        "-//w3c//dtd html 3",
        "-//w3c//dtd w3 html//",
        "-//w3c//dtd html experimental",
        "-//ietf//",
        "-//w3o//",
        "-//microsoft//",
        "-//netscape comm. corp.//",
        "-//webtechs//",
        "-//advasoft",
        "-//as//",
        "-//metrius//",
        "-//o'reilly",
        "-//softquad",
        "-//spyglass",
        "-//sq//",
        "-//sun microsystems",
    ];
    if public == "html" || public == "-/w3c/dtd html 4.0 transitional/en" {
        return true;
    }
    if QUIRKY.iter().any(|p| public.starts_with(p)) {
        return true;
    }
    let html4 = public.starts_with("-//w3c//dtd html 4.01 transitional//")
        || public.starts_with("-//w3c//dtd html 4.01 frameset//");
    html4 && system.is_none()
}

#[cfg(test)]
mod tests;
