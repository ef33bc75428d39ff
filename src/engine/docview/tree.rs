//! The content-block tag tree of [L2216–L2237]: container tags (`div`, `table`, `tr`, `td`, `p`,
//! `li`, …) delimit nested content blocks; every block records its own text, hyperlinks, images
//! and weighty tags (`<b>`, `<strong>`, `<h1>`, …). Built from html5ever's spec tree (scraper), so
//! broken real-world markup is repaired the way browsers repair it.
//!
//! Text is kept as *lines* in document order, each owned by the innermost block it sits in; a
//! `<br>` or a block boundary starts a new line. That keeps reading order when a block's own text
//! surrounds its children, and lets the cleaner keep or drop text block by block.

use std::borrow::Cow;

use ego_tree::iter::Edge;
use scraper::{Html, Node};

mod text;
use text::{all_white, collapse, push_collapsed};

/// Container tags: each opens a content block [L2222] (`class` names them; a test checks it
/// against this list).
#[cfg(test)]
const BLOCK_TAGS: &[&str] = &[
    "html",
    "body",
    "div",
    "table",
    "tbody",
    "thead",
    "tfoot",
    "tr",
    "td",
    "th",
    "p",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "nav",
    "aside",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "center",
    "form",
    "fieldset",
    "figure",
    "figcaption",
    "address",
    "caption",
    "menu",
    "details",
    "summary",
];

/// Weighty ("important information") tags [L2228]; headings are blocks and weighty at once
/// (`class` names them; a test checks it against this list).
#[cfg(test)]
const WEIGHTY_TAGS: &[&str] = &[
    "h1", "h2", "h3", "h4", "h5", "h6", "b", "strong", "em", "i", "u", "big", "font", "mark",
];

/// Longest weighty-tag text kept, in bytes.
const WEIGHTY_MAX: usize = 512;

/// Bytes a new line's text has room for beyond its first text node.
const LINE_SLACK: usize = 32;

/// One `match` over the listed names: skipped ones, container tags, tags both (headings) and
/// weighty tags, each as itself (the `&'static str` the tree keeps).
macro_rules! classes {
    ($name:expr; skip: $($s:literal)|+; block: $($b:literal)|+; both: $($h:literal)|+;
     weighty: $($w:literal)|+) => {
        match $name {
            $($s)|+ => (true, None, None),
            $($b => (false, Some($b), None),)+
            $($h => (false, Some($h), Some($h)),)+
            $($w => (false, None, Some($w)),)+
            _ => (false, None, None),
        }
    };
}

/// What the builder does with an element, in one match instead of list scans per tag: whether
/// its content is never page text (skipped), which container tag it is (it opens a content block
/// [L2222]), which weighty tag [L2228] (headings are both).
fn class(name: &str) -> (bool, Option<&'static str>, Option<&'static str>) {
    classes!(name;
        skip: "head" | "script" | "style" | "noscript" | "iframe" | "object" | "embed"
            | "template" | "svg" | "math" | "select" | "option" | "textarea" | "button" | "map"
            | "canvas" | "audio" | "video" | "applet" | "frameset" | "noframes" | "input";
        block: "div" | "td" | "tr" | "p" | "li" | "table" | "tbody" | "ul" | "html" | "body"
            | "thead" | "tfoot" | "th" | "ol" | "dl" | "dt" | "dd" | "section" | "article"
            | "main" | "header" | "footer" | "nav" | "aside" | "blockquote" | "pre" | "center"
            | "form" | "fieldset" | "figure" | "figcaption" | "address" | "caption" | "menu"
            | "details" | "summary";
        both: "h1" | "h2" | "h3" | "h4" | "h5" | "h6";
        weighty: "b" | "strong" | "em" | "i" | "u" | "big" | "font" | "mark"
    )
}

/// One hyperlink of the page.
#[derive(Debug, Clone)]
pub(crate) struct RawLink {
    pub href: String,
    pub anchor: String,
    pub block: usize,
}

/// One weighty tag occurrence.
#[derive(Debug, Clone)]
pub(crate) struct RawWeighty {
    pub tag: &'static str,
    pub text: String,
    pub block: usize,
}

/// One line of text, owned by the innermost block around it.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub block: usize,
    pub text: String,
    /// Alphanumeric characters (CJK included) of the line, and those inside `<a>`.
    pub chars: usize,
    pub anchor_chars: usize,
}

/// A content block with its direct counts and its subtree totals.
#[derive(Debug, Clone, Default)]
pub(crate) struct TreeBlock {
    pub parent: Option<usize>,
    /// How many blocks have this one as their parent ([`PageTree::children`] lists them).
    pub child_count: usize,
    pub depth: usize,
    pub tag: &'static str,
    /// `#id.class.class`, for hints and display.
    pub hint: String,
    pub chars: usize,
    pub anchor_chars: usize,
    pub links: usize,
    pub images: usize,
    pub punct: usize,
    pub sub_chars: usize,
    pub sub_anchor: usize,
    pub sub_links: usize,
    pub sub_images: usize,
    pub sub_punct: usize,
    /// Index of the block's first and one-past-last line (its subtree's lines are contiguous).
    pub line_start: usize,
    pub line_end: usize,
    /// One past the last block of its subtree: ids are depth-first, so the subtree is the run
    /// `id..sub_end`.
    pub sub_end: usize,
}

/// What an element's end undoes (bits of [`Builder`]'s `kinds`): a block closes, a weighty
/// tag's text is done, an `<a>` ends.
const K_BLOCK: u8 = 1;
const K_WEIGHTY: u8 = 2;
const K_ANCHOR: u8 = 4;

/// The [`K_BLOCK`] … bits of an element not skipped: a block, a weighty tag, an `<a>`.
fn kind_bits(block: bool, weighty: bool, anchor: bool) -> u8 {
    (u8::from(block) * K_BLOCK) | (u8::from(weighty) * K_WEIGHTY) | (u8::from(anchor) * K_ANCHOR)
}

/// The [`K_BLOCK`] … bits of an element not skipped, from its name.
fn kind_of(name: &str) -> u8 {
    let (_, block, weighty) = class(name);
    kind_bits(block.is_some(), weighty.is_some(), name == "a")
}

/// The names other than the skipped, container and weighty tags that [`Builder::start`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Other {
    Title,
    Meta,
    Base,
    Anchor,
    Image,
    Break,
    None,
}

/// The parsed page.
#[derive(Debug, Clone, Default)]
pub(crate) struct PageTree {
    pub title: String,
    pub blocks: Vec<TreeBlock>,
    pub lines: Vec<Line>,
    pub links: Vec<RawLink>,
    pub weighty: Vec<RawWeighty>,
    /// `<meta name="keywords">` / `description`, when present.
    pub meta_keywords: String,
    pub meta_description: String,
    pub base_href: Option<String>,
}

/// What the block tree reads of an element's attributes, whichever parser found them.
pub(crate) trait Attrs {
    /// The value of the attribute `name` (lower case), entities decoded.
    fn attr(&self, name: &str) -> Option<Cow<'_, str>>;
    /// `#id.class.class` with the classes sorted and deduplicated (as scraper lists them).
    fn hint(&self) -> String;
}

impl Attrs for scraper::node::Element {
    fn attr(&self, name: &str) -> Option<Cow<'_, str>> {
        scraper::node::Element::attr(self, name).map(Cow::Borrowed)
    }
    fn hint(&self) -> String {
        let mut s = String::new();
        if let Some(id) = self.id() {
            s.push('#');
            s.push_str(id);
        }
        for c in self.classes() {
            s.push('.');
            s.push_str(c);
        }
        s
    }
}

/// `#id.class.class` from an `id` and a `class` attribute: what [`Attrs::hint`] gives.
pub(crate) fn hint_of(id: Option<&str>, class: Option<&str>) -> String {
    let len = id.map_or(0, |i| i.len() + 1) + class.map_or(0, |c| c.len() + 1);
    let mut s = String::with_capacity(len);
    if let Some(id) = id {
        s.push('#');
        s.push_str(id);
    }
    if let Some(class) = class {
        let mut words = class.split_ascii_whitespace();
        match (words.next(), words.next()) {
            (None, _) => {}
            // One class, the usual case: nothing to sort.
            (Some(c), None) => {
                s.push('.');
                s.push_str(c);
            }
            (Some(first), Some(second)) => {
                let mut cs: Vec<&str> = [first, second].into_iter().chain(words).collect();
                cs.sort_unstable();
                cs.dedup();
                for c in cs {
                    s.push('.');
                    s.push_str(c);
                }
            }
        }
    }
    s
}

/// Builds the block tree from a document's elements and text in tree order: `start` when an
/// element opens, `text` for a text node (adjacent text merged), `end` when it closes. The
/// html5ever walk ([`build_html5ever`]) and the streaming path (`stream`) both drive it.
pub(crate) struct Builder {
    tree: PageTree,
    stack: Vec<usize>,
    /// Open `<a>` elements: index into `tree.links`.
    anchors: Vec<usize>,
    /// Open weighty tags: (tag, block, text accumulated so far).
    weighty: Vec<(&'static str, usize, String)>,
    /// Per open element outside skipped content, what its end undoes ([`K_BLOCK`], …): the
    /// end then needs no second look at its name.
    kinds: Vec<u8>,
    /// Whether the next text starts a new line.
    line_break: bool,
    /// Depth inside skipped elements (`head`, `script`, …).
    skip: usize,
    in_title: bool,
    have_title: bool,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Self::for_page(0)
    }

    /// A builder for a page of `len` bytes: room for the blocks and lines such a page usually
    /// has (about one line per 256 bytes of HTML; a block per 128, which a quarter of real pages
    /// pass at 256), so that few of them are moved to grow.
    pub(crate) fn for_page(len: usize) -> Self {
        let mut tree = PageTree::default();
        tree.blocks.reserve(len / 128);
        tree.lines.reserve(len / 256);
        let mut b = Builder {
            tree,
            stack: Vec::new(),
            anchors: Vec::new(),
            weighty: Vec::new(),
            kinds: Vec::with_capacity(64),
            line_break: true,
            skip: 0,
            in_title: false,
            have_title: false,
        };
        // A root block so that text outside <html>/<body> still has an owner.
        b.open_block("#document", String::new());
        b
    }

    fn current(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    fn open_block(&mut self, tag: &'static str, hint: String) {
        let parent = self.stack.last().copied();
        let id = self.tree.blocks.len();
        let depth = self.stack.len();
        self.tree.blocks.push(TreeBlock {
            parent,
            depth,
            tag,
            hint,
            line_start: self.tree.lines.len(),
            ..TreeBlock::default()
        });
        if let Some(p) = parent {
            self.tree.blocks[p].child_count += 1;
        }
        self.stack.push(id);
        self.line_break = true;
    }

    fn close_block(&mut self) {
        if let Some(id) = self.stack.pop() {
            // No block opens inside this one any more: its subtree is every block since.
            let end = self.tree.blocks.len();
            let b = &mut self.tree.blocks[id];
            b.line_end = self.tree.lines.len();
            b.sub_end = end;
        }
        self.line_break = true;
    }

    fn add_text(&mut self, raw: &str) {
        // HTML whitespace rules: runs of white space collapse to one space. One pass writes the
        // collapsed text straight onto the line and counts the letters, digits and sentence
        // punctuation; anchors and weighty tags copy it from there.
        if all_white(raw) {
            if !raw.is_empty()
                && !self.line_break
                && let Some(l) = self.tree.lines.last_mut()
                && !l.text.ends_with(' ')
            {
                l.text.push(' ');
            }
            return;
        }
        let block = self.current();
        let in_anchor = !self.anchors.is_empty();
        if self.line_break || self.tree.lines.last().is_none_or(|l| l.block != block) {
            self.tree.lines.push(Line {
                block,
                // Room for a space and a little more: a line often goes on after an inline
                // element (`text <a>link</a> text`), which would otherwise regrow it at once.
                text: String::with_capacity(raw.len() + LINE_SLACK),
                chars: 0,
                anchor_chars: 0,
            });
            self.line_break = false;
        }
        let Some(l) = self.tree.lines.last_mut() else {
            return;
        };
        let from = l.text.len();
        let (counted, punct) = push_collapsed(&mut l.text, raw);
        l.chars += counted;
        if in_anchor {
            l.anchor_chars += counted;
        }
        let norm = &l.text[from..];
        let b = &mut self.tree.blocks[block];
        b.chars += counted;
        b.punct += punct;
        if in_anchor {
            b.anchor_chars += counted;
            if let Some(&li) = self.anchors.last() {
                self.tree.links[li].anchor.push_str(norm);
            }
        }
        // Emphasis is short; a <font> around a whole article is styling, not emphasis, so
        // weighty text is kept up to WEIGHTY_MAX bytes (and copying stays cheap).
        for w in &mut self.weighty {
            if w.2.len() < WEIGHTY_MAX {
                w.2.push_str(norm);
            }
        }
    }

    /// An element opens. Head metadata is read here too: the first `<title>`, `<meta name>`,
    /// `<base href>`.
    pub(crate) fn start(&mut self, name: &str, el: &impl Attrs) {
        let (skipped, block, weighty) = class(name);
        // The few other names the builder reads, found by one match (and none for the
        // skipped, container and weighty tags, most of a page).
        let other = if skipped || block.is_some() || weighty.is_some() {
            Other::None
        } else {
            match name {
                "title" => Other::Title,
                "meta" => Other::Meta,
                "base" => Other::Base,
                "a" => Other::Anchor,
                "img" => Other::Image,
                "br" | "hr" => Other::Break,
                _ => Other::None,
            }
        };
        match other {
            Other::Title if !self.have_title => self.in_title = true,
            Other::Meta => {
                let content = || {
                    el.attr("content")
                        .as_deref()
                        .unwrap_or("")
                        .trim()
                        .to_string()
                };
                let n = el.attr("name");
                let n = n.as_deref();
                if n.is_some_and(|n| n.eq_ignore_ascii_case("keywords")) {
                    self.tree.meta_keywords = content();
                } else if n.is_some_and(|n| n.eq_ignore_ascii_case("description")) {
                    self.tree.meta_description = content();
                }
            }
            Other::Base if self.tree.base_href.is_none() => {
                self.tree.base_href = el.attr("href").map(Cow::into_owned);
            }
            _ => {}
        }
        if self.skip > 0 || skipped {
            self.skip += 1;
            return;
        }
        if let Some(tag) = block {
            self.open_block(tag, el.hint());
        }
        let anchor = other == Other::Anchor;
        self.kinds
            .push(kind_bits(block.is_some(), weighty.is_some(), anchor));
        match other {
            Other::Anchor => {
                if let Some(href) = el.attr("href") {
                    let block = self.current();
                    self.tree.links.push(RawLink {
                        href: href.trim().to_string(),
                        anchor: String::new(),
                        block,
                    });
                    self.tree.blocks[block].links += 1;
                    self.anchors.push(self.tree.links.len() - 1);
                } else {
                    self.anchors.push(usize::MAX);
                }
            }
            Other::Image => {
                let block = self.current();
                self.tree.blocks[block].images += 1;
            }
            Other::Break => self.line_break = true,
            _ => {}
        }
        if let Some(tag) = weighty {
            let block = self.current();
            self.weighty.push((tag, block, String::new()));
        }
    }

    /// A text node (all of it: adjacent text is one node).
    pub(crate) fn text(&mut self, t: &str) {
        if self.in_title {
            self.tree.title.push_str(t);
        } else if self.skip == 0 {
            if self.anchors.last() == Some(&usize::MAX) {
                // An <a> without href: plain text.
                let saved = std::mem::take(&mut self.anchors);
                self.add_text(t);
                self.anchors = saved;
            } else {
                self.add_text(t);
            }
        }
    }

    /// The element `name` closes.
    pub(crate) fn end(&mut self, name: &str) {
        if name == "title" && self.in_title {
            self.in_title = false;
            self.have_title = true;
        }
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        // Ends come in the order of starts (a tree walk): the element's kind is the last pushed.
        let kind = self.kinds.pop().unwrap_or_else(|| kind_of(name));
        if kind & K_WEIGHTY != 0
            && let Some((tag, block, text)) = self.weighty.pop()
        {
            let text = collapse(text);
            if !text.is_empty() {
                self.tree.weighty.push(RawWeighty { tag, text, block });
            }
        }
        if kind & K_ANCHOR != 0 {
            self.anchors.pop();
        }
        if kind & K_BLOCK != 0 {
            self.close_block();
        }
    }

    /// Set the hint of the first block `tag` (attributes added to `<html>` or `<body>` later).
    pub(crate) fn set_hint(&mut self, tag: &str, hint: String) {
        if let Some(b) = self.tree.blocks.iter_mut().find(|b| b.tag == tag) {
            b.hint = hint;
        }
    }

    /// Close what is open and total the subtrees.
    pub(crate) fn finish(mut self) -> PageTree {
        while !self.stack.is_empty() {
            self.close_block();
        }
        let mut tree = self.tree;
        tree.title = collapse(std::mem::take(&mut tree.title));
        for l in &mut tree.lines {
            // Trimmed where it is (a line of `add_text` only ever starts or ends with a space,
            // white space being collapsed to ` `).
            let end = l.text.trim_end_matches(' ').len();
            l.text.truncate(end);
            let start = l.text.len() - l.text.trim_start_matches(' ').len();
            if start > 0 {
                l.text.drain(..start);
            }
        }
        for link in &mut tree.links {
            link.anchor = collapse(std::mem::take(&mut link.anchor));
        }
        totals(&mut tree);
        tree
    }
}

/// Subtree totals, children before parents (ids grow with depth-first order): each block's
/// own counts join what its children gave it, and the sum goes to its parent.
fn totals(tree: &mut PageTree) {
    for id in (0..tree.blocks.len()).rev() {
        let bl = &mut tree.blocks[id];
        bl.sub_chars += bl.chars;
        bl.sub_anchor += bl.anchor_chars;
        bl.sub_links += bl.links;
        bl.sub_images += bl.images;
        bl.sub_punct += bl.punct;
        let (c, a, l, i, p) = (
            bl.sub_chars,
            bl.sub_anchor,
            bl.sub_links,
            bl.sub_images,
            bl.sub_punct,
        );
        if let Some(pid) = bl.parent {
            let pb = &mut tree.blocks[pid];
            pb.sub_chars += c;
            pb.sub_anchor += a;
            pb.sub_links += l;
            pb.sub_images += i;
            pb.sub_punct += p;
        }
    }
}

/// `html` without its scripts, styles and comments, which the block tree skips anyway: a cheap
/// byte scan that spares the HTML tokenizer a fifth of a typical page.
pub(crate) fn strip_inert(html: &str) -> Cow<'_, str> {
    let b = html.as_bytes();
    let mut out: Option<String> = None;
    let (mut i, mut copied) = (0usize, 0usize);
    let starts = |at: usize, pat: &[u8]| {
        b.len() >= at + pat.len() && b[at..at + pat.len()].eq_ignore_ascii_case(pat)
    };
    let find = |from: usize, pat: &[u8]| -> Option<usize> {
        (from..b.len().saturating_sub(pat.len() - 1))
            .find(|&k| b[k..k + pat.len()].eq_ignore_ascii_case(pat))
    };
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        let lt = i + off;
        let end = if starts(lt, b"<!--") {
            find(lt + 4, b"-->").map(|k| k + 3)
        } else if (starts(lt, b"<script") || starts(lt, b"<style"))
            && b.get(lt + if starts(lt, b"<script") { 7 } else { 6 })
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'>' || *c == b'/')
        {
            let close: &[u8] = if starts(lt, b"<script") {
                b"</script"
            } else {
                b"</style"
            };
            find(lt, close).and_then(|k| b[k..].iter().position(|&c| c == b'>').map(|g| k + g + 1))
        } else {
            i = lt + 1;
            continue;
        };
        // An unterminated comment or script: leave the rest to the parser.
        let Some(end) = end else { break };
        let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
        o.push_str(&html[copied..lt]);
        copied = end;
        i = end;
    }
    match out {
        None => Cow::Borrowed(html),
        Some(mut o) => {
            o.push_str(&html[copied..]);
            Cow::Owned(o)
        }
    }
}

/// Parse `html` into the block tree by the default path: the streaming tokenizer.
pub(crate) fn build(html: &str) -> PageTree {
    super::stream::build(html)
}

/// Parse `html` into the block tree through html5ever's spec tree (scraper): the reference the
/// streaming path is checked against, and `bench clean --tree html5ever`.
pub(crate) fn build_html5ever(html: &str) -> PageTree {
    let stripped = strip_inert(html);
    let doc = Html::parse_document(&stripped);
    let mut b = Builder::new();
    for edge in doc.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(el) => b.start(el.name(), el),
                Node::Text(t) => b.text(t),
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(el) = node.value() {
                    b.end(el.name());
                }
            }
        }
    }
    b.finish()
}

/// The children of a block in document order (see [`PageTree::children`]).
pub(crate) struct Children<'a> {
    blocks: &'a [TreeBlock],
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let c = self.next;
        // The next child starts where this one's subtree ends; `max` guards a malformed end.
        self.next = self
            .blocks
            .get(c)
            .map_or(self.end, |b| b.sub_end.max(c + 1));
        Some(c)
    }
}

impl PageTree {
    /// The children of block `b`, in document order: ids are depth-first and `sub_end` is one
    /// past a block's subtree, so they are `b + 1`, then each one's `sub_end`, up to `b`'s own.
    pub(crate) fn children(&self, b: usize) -> Children<'_> {
        let end = self.blocks.get(b).map_or(0, |bl| bl.sub_end);
        Children {
            blocks: &self.blocks,
            next: b + 1,
            end,
        }
    }

    /// The `<body>` block, or the document root when there is none.
    pub(crate) fn body(&self) -> usize {
        self.blocks
            .iter()
            .position(|b| b.tag == "body")
            .unwrap_or(0)
    }
}

/// Letters and digits, lower-cased: how titles and heading lines are compared.
pub(crate) fn norm_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    norm_title_into(s, &mut out);
    out
}

/// [`norm_title`] of `s` into `out`: ASCII and the main CJK block (letters that have no lower
/// case) are decided without the Unicode tables, any other character as `char::is_alphanumeric`
/// and `char::to_lowercase` say; a test checks every character against that definition.
pub(crate) fn norm_title_into(s: &str, out: &mut String) {
    out.clear();
    for c in s.chars() {
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            }
        } else if matches!(c, '\u{4E00}'..='\u{9FFF}') {
            out.push(c);
        } else if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests;
