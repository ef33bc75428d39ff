//! The content-block tag tree [L2216–L2237] straight from a token stream: the book's builder
//! "scans container tags in order" and records each block's text, links, images and weighty tags
//! as it goes [L2234]; its tools section notes that off-the-shelf parsers give inconvenient
//! sequential trees and that they wrote their own builder [L2232]. This module is that builder:
//! [`super::tokenize`] scans the page once and the WHATWG tree-construction rules that shape the
//! block tree are applied to a stack of open elements only — implied `<html>`/`<head>`/`<body>`,
//! unclosed `<p>`/`<li>`/`<dd>`/`<td>`/`<tr>`, implied `<tbody>`, scopes, the quirks-mode table
//! rule, a stray `</p>`, `<form>` nesting, active formatting elements re-opened after a block
//! closes, foster parenting of what sits directly in a table (kept in order by holding a table's
//! events until it closes), select and foreign (SVG/MathML) content — so the block tree comes
//! out as html5ever's spec tree gives it ([`super::tree::build_html5ever`], the reference a test
//! compares on ccwe and the sample web) without a DOM.
//!
//! The adoption agency (a formatting element closed across a block, `<b>1<p>2</b>3</p>`, or a new
//! `<a>` while an older one is open around a block) moves the block out of the element and clones
//! the element into it; [`adopt`] replays that on held events (a block opened while formatting
//! elements are active keeps its events in a buffer until it closes). Should the held events
//! ever not be as expected, the stream stops and html5ever builds that page's tree (no page of
//! ccwe or the sample web does), so the block tree is always the reference's.
//!
//! ```ignore
//! let t = stream::build("<p>一<p>二<table><tr><td>三</table>");
//! assert_eq!(t.lines.len(), 3);
//! ```

use std::borrow::Cow;

use super::tokenize::{Tag, TagAttrs, TextMode, Token, Tokenizer};
use super::tree::{Builder, PageTree};

/// An element event held while a table is open (foster-parented content goes before it). The
/// attributes are boxed: held buffers grow, move into their parent's and replay as whole
/// events, and a small event makes that cheap.
enum Ev<'a> {
    Start(Cow<'a, str>, Box<TagAttrs<'a>>),
    Text(Cow<'a, str>),
    End(Cow<'a, str>),
}

/// Where events go: sink 0 is the builder, others are open tables' held events.
struct Out<'a> {
    b: Builder,
    /// Text for the builder not yet given (adjacent text is one node).
    pending: Option<Cow<'a, str>>,
    /// Per sink, its parent and its held events: sink 0's while `hold` > 0, a table's until it
    /// closes.
    bufs: Vec<(usize, Vec<Ev<'a>>)>,
    /// Open elements the adoption agency may still move (see [`adopt`]): while any is open,
    /// sink 0's events wait in `bufs[0]`.
    hold: usize,
    /// Emptied buffers of closed tables, reused by the next table (no regrowing from nothing).
    spare: Vec<Vec<Ev<'a>>>,
}

fn push_text<'a>(slot: &mut Cow<'a, str>, t: Cow<'a, str>) {
    if slot.is_empty() {
        *slot = t;
    } else {
        slot.to_mut().push_str(&t);
    }
}

impl<'a> Out<'a> {
    fn flush_text(&mut self) {
        if let Some(t) = self.pending.take() {
            self.b.text(&t);
        }
    }

    /// An event into `sink`: to the builder, or held (inlined: a closing element's event is
    /// the most common, and a call would copy it once more).
    #[inline(always)]
    fn write(&mut self, sink: usize, ev: Ev<'a>) {
        if sink == 0 && self.hold == 0 {
            match ev {
                Ev::Text(t) => match &mut self.pending {
                    Some(p) => push_text(p, t),
                    None => self.pending = Some(t),
                },
                Ev::Start(name, attrs) => {
                    self.flush_text();
                    self.b.start(&name, &*attrs);
                }
                Ev::End(name) => {
                    self.flush_text();
                    self.b.end(&name);
                }
            }
            return;
        }
        let buf = &mut self.bufs[sink].1;
        if let Ev::Text(t) = ev {
            if let Some(Ev::Text(last)) = buf.last_mut() {
                push_text(last, t);
            } else {
                buf.push(Ev::Text(t));
            }
        } else {
            buf.push(ev);
        }
    }

    /// An element opens in `sink`: straight to the builder when nothing is held (no box).
    fn start(&mut self, sink: usize, name: Cow<'a, str>, attrs: TagAttrs<'a>) {
        if sink == 0 && self.hold == 0 {
            self.flush_text();
            self.b.start(&name, &attrs);
        } else {
            self.write(sink, Ev::Start(name, Box::new(attrs)));
        }
    }

    /// A table closed: its held events go where the table sits.
    fn release(&mut self, buf: usize) {
        let (parent, mut evs) = std::mem::take(&mut self.bufs[buf]);
        if parent != 0 || self.hold > 0 {
            // Held again where the table sits: moved whole (its texts are joined already; only
            // a first text could join the parent's last).
            if let (Some(Ev::Text(_)), Some(Ev::Text(_))) =
                (self.bufs[parent].1.last(), evs.first())
            {
                let first = evs.remove(0);
                self.write(parent, first);
            }
            self.bufs[parent].1.append(&mut evs);
        } else {
            for ev in evs.drain(..) {
                self.write(parent, ev);
            }
        }
        self.spare.push(evs);
    }

    /// A held element closed: when it was the last, sink 0's events go to the builder.
    fn unhold(&mut self) {
        self.hold = self.hold.saturating_sub(1);
        if self.hold == 0 {
            let mut evs = std::mem::take(&mut self.bufs[0].1);
            for ev in evs.drain(..) {
                self.write(0, ev);
            }
            self.bufs[0].1 = evs;
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Initial,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    InTable,
    InTableBody,
    InRow,
    InCell,
    InCaption,
    InColumnGroup,
}

struct Entry<'a> {
    name: Cow<'a, str>,
    uid: u32,
    foreign: bool,
    /// No longer on the stack of open elements (a closed `<form>`, an adopted formatting
    /// element) but not yet closed in the tree.
    removed: bool,
    /// Where its start and end go, and where its children go (a table holds its own).
    sink: usize,
    child_sink: usize,
    /// Index of its start event in `child_sink`'s held events (when held there).
    pos: usize,
    /// A special element opened while formatting elements are active: the adoption agency may
    /// move it, so sink 0 holds its events until it closes.
    held: bool,
}

enum Afe<'a> {
    Marker,
    El {
        uid: u32,
        name: Cow<'a, str>,
        attrs: TagAttrs<'a>,
    },
}

/// An element's `id` and `class`.
type IdClass<'a> = (Option<&'a str>, Option<&'a str>);

struct Parser<'a> {
    tok: Tokenizer<'a>,
    out: Out<'a>,
    stack: Vec<Entry<'a>>,
    afe: Vec<Afe<'a>>,
    mode: Mode,
    /// In a raw-text or RCDATA element: text goes in, its end tag pops it.
    text_mode: bool,
    quirks: bool,
    head_done: bool,
    form: Option<u32>,
    foster: bool,
    next_uid: u32,
    /// Live HTML `p` elements on the stack: most start tags first close a `p` in button scope,
    /// and without one open the scan would walk the whole stack for nothing (quadratic on
    /// deeply nested pages).
    open_p: usize,
    /// The stream stopped (see [`streamed`]): html5ever builds the tree instead.
    bail: bool,
    /// Whether a table holds its events until it closes (so that foster-parented content can
    /// go before it). The first pass does not: its events go straight on, and should content
    /// be foster-parented (or the adoption agency reach into a table) the pass stops with
    /// `redo` set and the page is parsed again holding them (see [`streamed`]).
    hold_tables: bool,
    redo: std::cell::Cell<bool>,
    /// `id` and `class` of `<html>` and `<body>` as they stand (a repeated tag adds missing ones).
    root_attrs: [IdClass<'a>; 2],
}

fn is_special(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "applet"
            | "area"
            | "article"
            | "aside"
            | "base"
            | "basefont"
            | "bgsound"
            | "blockquote"
            | "body"
            | "br"
            | "button"
            | "caption"
            | "center"
            | "col"
            | "colgroup"
            | "dd"
            | "details"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "embed"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "frame"
            | "frameset"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "iframe"
            | "img"
            | "input"
            | "keygen"
            | "li"
            | "link"
            | "listing"
            | "main"
            | "marquee"
            | "menu"
            | "meta"
            | "nav"
            | "noembed"
            | "noframes"
            | "noscript"
            | "object"
            | "ol"
            | "p"
            | "param"
            | "plaintext"
            | "pre"
            | "script"
            | "search"
            | "section"
            | "select"
            | "source"
            | "style"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "template"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "track"
            | "ul"
            | "wbr"
            | "xmp"
    )
}

fn is_formatting(name: &str) -> bool {
    matches!(
        name,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

fn implied_end(name: &str) -> bool {
    matches!(
        name,
        "dd" | "dt" | "li" | "optgroup" | "option" | "p" | "rb" | "rp" | "rt" | "rtc"
    )
}

/// An HTML element that ends the default scope (WHATWG "has an element in scope").
fn default_boundary(name: &str) -> bool {
    matches!(
        name,
        "applet" | "caption" | "html" | "table" | "td" | "th" | "marquee" | "object" | "template"
    )
}

fn foreign_boundary(name: &str) -> bool {
    matches!(
        name,
        "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml" | "foreignobject" | "desc" | "title"
    )
}

/// Scope kinds of the WHATWG "has an element in … scope".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Default,
    Button,
    ListItem,
    Table,
}

fn raw_mode(name: &str) -> Option<(TextMode, &'static str)> {
    Some(match name {
        "title" => (TextMode::Rcdata, "title"),
        "textarea" => (TextMode::Rcdata, "textarea"),
        "style" => (TextMode::Rawtext, "style"),
        "script" => (TextMode::Rawtext, "script"),
        "xmp" => (TextMode::Rawtext, "xmp"),
        "iframe" => (TextMode::Rawtext, "iframe"),
        "noembed" => (TextMode::Rawtext, "noembed"),
        "noframes" => (TextMode::Rawtext, "noframes"),
        "noscript" => (TextMode::Rawtext, "noscript"),
        "plaintext" => (TextMode::Plaintext, ""),
        _ => return None,
    })
}

/// A live HTML `p` entry (what [`Parser::open_p`] counts).
fn is_live_p(e: &Entry<'_>) -> bool {
    !e.foreign && !e.removed && e.name == "p"
}

fn all_ws(t: &str) -> bool {
    t.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c))
}

impl<'a> Parser<'a> {
    fn live(&self) -> impl DoubleEndedIterator<Item = (usize, &Entry<'a>)> {
        self.stack.iter().enumerate().filter(|(_, e)| !e.removed)
    }

    fn current(&self) -> Option<&Entry<'a>> {
        self.stack.iter().rev().find(|e| !e.removed)
    }

    fn cur_is(&self, names: &[&str]) -> bool {
        self.current()
            .is_some_and(|e| !e.foreign && names.contains(&&*e.name))
    }

    fn in_scope(&self, target: impl Fn(&str) -> bool, scope: Scope) -> bool {
        for (_, e) in self.live().rev() {
            if !e.foreign && target(&e.name) {
                return true;
            }
            let n = &*e.name;
            let boundary = if e.foreign {
                scope != Scope::Table && foreign_boundary(n)
            } else {
                match scope {
                    Scope::Table => matches!(n, "html" | "table" | "template"),
                    _ => {
                        default_boundary(n)
                            || (scope == Scope::Button && n == "button")
                            || (scope == Scope::ListItem && matches!(n, "ol" | "ul"))
                    }
                }
            };
            if boundary {
                return false;
            }
        }
        false
    }

    fn has(&self, name: &str, scope: Scope) -> bool {
        if name == "p" && self.open_p == 0 {
            return false;
        }
        self.in_scope(|n| n == name, scope)
    }

    /// Where a new node goes: the current node's children, or before the last table.
    fn location(&self) -> usize {
        let Some(cur) = self.current() else { return 0 };
        if self.foster
            && !cur.foreign
            && matches!(&*cur.name, "table" | "tbody" | "tfoot" | "thead" | "tr")
        {
            if !self.hold_tables {
                self.redo.set(true);
            }
            return self
                .live()
                .rev()
                .find(|(_, e)| !e.foreign && e.name == "table")
                .map_or(0, |(_, e)| e.sink);
        }
        cur.child_sink
    }

    fn insert_foreign(&mut self, tag: Tag<'a>, foreign: bool) -> u32 {
        let sink = self.location();
        let uid = self.next_uid;
        self.next_uid += 1;
        let child_sink = if self.hold_tables && !foreign && tag.name == "table" {
            let buf = self
                .out
                .spare
                .pop()
                .unwrap_or_else(|| Vec::with_capacity(256));
            self.out.bufs.push((sink, buf));
            self.out.bufs.len() - 1
        } else {
            sink
        };
        let held = !foreign
            && self.afe.iter().any(|a| matches!(a, Afe::El { .. }))
            && is_special(&tag.name);
        self.out.hold += held as usize;
        let pos = self.out.bufs[child_sink].1.len();
        if !foreign && matches!(&*tag.name, "html" | "body") {
            let i = (tag.name == "body") as usize;
            self.root_attrs[i] = (tag.attrs.id, tag.attrs.class);
        }
        self.out.start(child_sink, tag.name.clone(), tag.attrs);
        self.open_p += usize::from(!foreign && tag.name == "p");
        self.stack.push(Entry {
            name: tag.name,
            uid,
            foreign,
            removed: false,
            sink,
            child_sink,
            pos,
            held,
        });
        uid
    }

    /// A repeated `<html>` or `<body>` adds the `id` or `class` the element lacks.
    fn amend_root(&mut self, tag: &Tag<'a>) {
        if !matches!(&*tag.name, "html" | "body") {
            return;
        }
        let i = (tag.name == "body") as usize;
        let name = if i == 1 { "body" } else { "html" };
        let exists = self.live().any(|(_, e)| !e.foreign && e.name == name);
        let r = &mut self.root_attrs[i];
        if !exists
            || (r.0.is_some() || tag.attrs.id.is_none())
                && (r.1.is_some() || tag.attrs.class.is_none())
        {
            return;
        }
        if r.0.is_none() {
            r.0 = tag.attrs.id;
        }
        if r.1.is_none() {
            r.1 = tag.attrs.class;
        }
        let hint = TagAttrs::hint_of_raw(r.0, r.1);
        self.out.b.set_hint(name, hint);
    }

    fn insert(&mut self, tag: Tag<'a>) -> u32 {
        self.insert_foreign(tag, false)
    }

    /// Insert and pop at once (void elements).
    fn insert_void(&mut self, tag: Tag<'a>) {
        self.insert(tag);
        self.pop();
    }

    fn insert_text(&mut self, t: Cow<'a, str>) {
        let sink = self.location();
        self.out.write(sink, Ev::Text(t));
    }

    /// Pop the top entry (and any removed ones it uncovers); the popped live entry's name.
    fn pop(&mut self) -> Option<Cow<'a, str>> {
        let e = self.stack.pop()?;
        self.open_p -= usize::from(is_live_p(&e));
        self.close(&e);
        while self.stack.last().is_some_and(|e| e.removed) {
            if let Some(z) = self.stack.pop() {
                self.close(&z);
            }
        }
        Some(e.name)
    }

    fn close(&mut self, e: &Entry<'a>) {
        self.out.write(e.child_sink, Ev::End(e.name.clone()));
        if e.child_sink != e.sink {
            self.out.release(e.child_sink);
        }
        if e.held {
            self.out.unhold();
        }
    }

    fn pop_until(&mut self, pred: impl Fn(&str) -> bool) {
        while let Some(e) = self.stack.last() {
            let hit = !e.removed && !e.foreign && pred(&e.name);
            self.pop();
            if hit {
                break;
            }
        }
    }

    fn gen_implied(&mut self, except: &str) {
        while let Some(e) = self.current() {
            if !e.foreign && implied_end(&e.name) && e.name != except {
                self.pop();
            } else {
                break;
            }
        }
    }

    fn close_p(&mut self) {
        if self.has("p", Scope::Button) {
            self.gen_implied("p");
            self.pop_until(|n| n == "p");
        }
    }

    /// Whether the element `uid` is live on the stack (looked for from the top, where the
    /// formatting elements that [`Self::reconstruct`] asks about usually are).
    fn on_stack(&self, uid: u32) -> bool {
        self.stack.iter().rev().any(|e| e.uid == uid && !e.removed)
    }

    fn reconstruct(&mut self) {
        let Some(Afe::El { uid, .. }) = self.afe.last() else {
            return;
        };
        if self.on_stack(*uid) {
            return;
        }
        let mut i = self.afe.len() - 1;
        while i > 0 {
            match &self.afe[i - 1] {
                Afe::Marker => break,
                Afe::El { uid, .. } if self.on_stack(*uid) => break,
                _ => i -= 1,
            }
        }
        for k in i..self.afe.len() {
            if let Afe::El { name, attrs, .. } = &self.afe[k] {
                let tag = Tag {
                    name: name.clone(),
                    attrs: attrs.clone(),
                    self_closing: false,
                };
                let new = self.insert(tag);
                if let Afe::El { uid, .. } = &mut self.afe[k] {
                    *uid = new;
                }
            }
        }
    }

    fn clear_afe_to_marker(&mut self) {
        while let Some(a) = self.afe.pop() {
            if matches!(a, Afe::Marker) {
                break;
            }
        }
    }

    fn push_afe(&mut self, uid: u32, name: Cow<'a, str>, attrs: TagAttrs<'a>) {
        // Noah's ark: at most three identical entries after the last marker.
        let same = |a: &Afe, b: &TagAttrs| match a {
            Afe::El {
                name: n, attrs: x, ..
            } => *n == name && x.same(b),
            Afe::Marker => false,
        };
        let start = self
            .afe
            .iter()
            .rposition(|a| matches!(a, Afe::Marker))
            .map_or(0, |i| i + 1);
        let dups: Vec<usize> = (start..self.afe.len())
            .filter(|&i| same(&self.afe[i], &attrs))
            .collect();
        if dups.len() >= 3 {
            self.afe.remove(dups[0]);
        }
        self.afe.push(Afe::El { uid, name, attrs });
    }

    fn remove_entry(&mut self, uid: u32) {
        if let Some(i) = self.stack.iter().position(|e| e.uid == uid) {
            if i + 1 == self.stack.len() {
                self.pop();
            } else {
                self.open_p -= usize::from(is_live_p(&self.stack[i]));
                self.stack[i].removed = true;
            }
        }
    }

    fn any_other_end(&mut self, name: &str) {
        let mut idx = None;
        for (i, e) in self.live().rev() {
            if !e.foreign && e.name == name {
                idx = Some(i);
                break;
            }
            if e.foreign || is_special(&e.name) {
                return;
            }
        }
        if let Some(i) = idx {
            self.gen_implied(name);
            while self.stack.len() > i {
                self.pop();
            }
        }
    }
}

mod adopt;
mod rules;
mod table;

/// Parse `html` into the block tree in one streaming pass (html5ever should the stream stop).
pub(crate) fn build(html: &str) -> PageTree {
    streamed(html).unwrap_or_else(|| super::tree::build_html5ever(html))
}

/// The streaming pass alone: `None` when it stopped (held events not as the adoption agency
/// expects them). Tables first pass their events straight on; a page where that would put
/// foster-parented content in the wrong place is parsed again with tables holding theirs.
pub(crate) fn streamed(html: &str) -> Option<PageTree> {
    match pass(html, false) {
        Pass::Redo => match pass(html, true) {
            Pass::Tree(t) => Some(t),
            Pass::Bail | Pass::Redo => None,
        },
        Pass::Tree(t) => Some(t),
        Pass::Bail => None,
    }
}

/// How a streaming pass ended.
enum Pass {
    Tree(PageTree),
    /// Held events not as the adoption agency expects them: html5ever builds the tree.
    Bail,
    /// Content went before a table whose events were not held: parse again holding them.
    Redo,
}

/// One streaming pass, tables holding their events or not.
fn pass(html: &str, hold_tables: bool) -> Pass {
    let mut p = Parser {
        tok: Tokenizer::new(html),
        out: Out {
            b: Builder::for_page(html.len()),
            pending: None,
            // Room for the events a page usually holds (about one per 64 bytes of HTML).
            bufs: vec![(0, Vec::with_capacity(html.len() / 64))],
            hold: 0,
            spare: Vec::new(),
        },
        stack: Vec::new(),
        afe: Vec::new(),
        mode: Mode::Initial,
        text_mode: false,
        quirks: true,
        head_done: false,
        form: None,
        foster: false,
        next_uid: 0,
        open_p: 0,
        bail: false,
        hold_tables,
        redo: std::cell::Cell::new(false),
        root_attrs: Default::default(),
    };
    // Adjacent text (split by a stripped comment or script) is one text node.
    let mut text: Option<Cow<'_, str>> = None;
    while let Some(t) = p.tok.next_token() {
        if p.bail || p.redo.get() {
            break;
        }
        match t {
            Token::Text(x) if x.is_empty() => {}
            Token::Text(x) => match &mut text {
                Some(s) => s.to_mut().push_str(&x),
                None => text = Some(x),
            },
            t => {
                if let Some(x) = text.take() {
                    p.token(Token::Text(x));
                }
                p.token(t);
            }
        }
    }
    if !p.bail && !p.redo.get() {
        if let Some(x) = text.take() {
            p.token(Token::Text(x));
        }
        p.eof();
    }
    if p.redo.get() {
        return Pass::Redo;
    }
    if p.bail {
        return Pass::Bail;
    }
    if p.out.hold > 0 {
        p.out.hold = 1;
        p.out.unhold();
    }
    p.out.flush_text();
    Pass::Tree(p.out.b.finish())
}

#[cfg(test)]
mod tests;
