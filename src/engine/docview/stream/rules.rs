//! The insertion modes of the WHATWG tree construction that shape the block tree, as html5ever
//! 0.40 implements them (select parsed in body, no "in select" mode), applied to the stack of
//! open elements of [`super::Parser`].

use std::borrow::Cow;

use super::{
    Afe, Mode, Parser, Scope, all_ws, default_boundary, is_formatting, is_heading, is_special,
    raw_mode,
};
use crate::engine::docview::tokenize::{Tag, TagAttrs, Token};

pub(super) fn tag(name: &'static str) -> Tag<'static> {
    Tag {
        name: Cow::Borrowed(name),
        attrs: TagAttrs::default(),
        self_closing: false,
    }
}

/// Elements the "in head" rules insert wherever they appear.
fn is_head_element(name: &str) -> bool {
    matches!(
        name,
        "base"
            | "basefont"
            | "bgsound"
            | "link"
            | "meta"
            | "title"
            | "noframes"
            | "style"
            | "script"
            | "noscript"
            | "template"
    )
}

/// Start tags that leave SVG/MathML content for HTML.
fn breaks_out(name: &str) -> bool {
    matches!(
        name,
        "b" | "big"
            | "blockquote"
            | "body"
            | "br"
            | "center"
            | "code"
            | "dd"
            | "div"
            | "dl"
            | "dt"
            | "em"
            | "embed"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "hr"
            | "i"
            | "img"
            | "li"
            | "listing"
            | "menu"
            | "meta"
            | "nobr"
            | "ol"
            | "p"
            | "pre"
            | "ruby"
            | "s"
            | "small"
            | "span"
            | "strong"
            | "strike"
            | "sub"
            | "sup"
            | "table"
            | "tt"
            | "u"
            | "ul"
            | "var"
    )
}

impl<'a> Parser<'a> {
    /// One token (adjacent text already merged into one).
    pub(super) fn token(&mut self, t: Token<'a>) {
        if self.text_mode {
            match t {
                Token::Text(x) => return self.insert_text(x),
                Token::End(_) => {
                    self.pop();
                    self.text_mode = false;
                    return;
                }
                _ => self.text_mode = false,
            }
        }
        // A token to reprocess comes back; the loop moves the large start tag as little as it
        // can (no `Option` around it between steps).
        let mut next = self.step(t);
        while let Some(t) = next {
            next = self.step(t);
        }
    }

    /// The end of the page: implied elements, then everything closes.
    pub(super) fn eof(&mut self) {
        if self.text_mode {
            self.pop();
            self.text_mode = false;
        }
        loop {
            match self.mode {
                Mode::Initial => {
                    self.insert(tag("html"));
                    self.mode = Mode::BeforeHead;
                }
                Mode::BeforeHead => {
                    self.insert(tag("head"));
                    self.head_done = true;
                    self.mode = Mode::InHead;
                }
                Mode::InHead => {
                    self.pop();
                    self.mode = Mode::AfterHead;
                }
                Mode::AfterHead => {
                    self.insert(tag("body"));
                    self.mode = Mode::InBody;
                }
                _ => break,
            }
        }
        while !self.stack.is_empty() {
            self.pop();
        }
    }

    fn in_foreign(&self) -> bool {
        self.current().is_some_and(|e| e.foreign)
    }

    /// Process `t` in the current mode; a token to reprocess comes back.
    #[inline(always)]
    fn step(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        if self.in_foreign() {
            return self.foreign(t).and_then(|t| self.mode_step(t));
        }
        self.mode_step(t)
    }

    #[inline(always)]
    fn mode_step(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match self.mode {
            Mode::Initial => self.initial(t),
            Mode::BeforeHead => self.before_head(t),
            Mode::InHead => self.in_head(t),
            Mode::AfterHead => self.after_head(t),
            Mode::InBody => self.body(t),
            Mode::InTable => self.table(t),
            Mode::InTableBody => self.table_body(t),
            Mode::InRow => self.row(t),
            Mode::InCell => self.cell(t),
            Mode::InCaption => self.caption(t),
            Mode::InColumnGroup => self.colgroup(t),
        }
    }

    /// Inside SVG or MathML: `None` when handled, else the token for the HTML rules.
    fn foreign(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        let integration = self
            .current()
            .is_some_and(|e| super::foreign_boundary(&e.name));
        match t {
            Token::Text(x) => {
                self.insert_text(x);
                None
            }
            Token::Start(tag) if integration => Some(Token::Start(tag)),
            Token::Start(tag) if breaks_out(&tag.name) => {
                while self.current().is_some_and(|e| e.foreign) {
                    self.pop();
                }
                Some(Token::Start(tag))
            }
            Token::Start(tag) => {
                let sc = tag.self_closing;
                self.insert_foreign(tag, true);
                if sc {
                    self.pop();
                }
                None
            }
            Token::End(name) => {
                let live: Vec<(usize, bool, bool)> = self
                    .live()
                    .rev()
                    .map(|(i, e)| (i, e.foreign, e.name.eq_ignore_ascii_case(&name)))
                    .collect();
                for (i, foreign, same) in live {
                    if same && foreign {
                        while self.stack.len() > i {
                            self.pop();
                        }
                        return None;
                    }
                    if !foreign {
                        return Some(Token::End(name));
                    }
                }
                None
            }
            Token::Doctype { .. } => None,
        }
    }

    fn initial(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Doctype { quirks } => {
                self.quirks = quirks;
                None
            }
            Token::Text(x) if all_ws(&x) => None,
            Token::End(n) if !matches!(&*n, "head" | "body" | "html" | "br") => None,
            Token::Start(tag) if tag.name == "html" => {
                self.insert(tag);
                self.mode = Mode::BeforeHead;
                None
            }
            t => {
                self.insert(tag("html"));
                self.mode = Mode::BeforeHead;
                Some(strip_ws(t))
            }
        }
    }

    fn before_head(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) if all_ws(&x) => None,
            Token::Doctype { .. } => None,
            Token::Start(tag) if tag.name == "html" => {
                self.amend_root(&tag);
                None
            }
            Token::Start(tag) if tag.name == "head" => {
                self.insert(tag);
                self.head_done = true;
                self.mode = Mode::InHead;
                None
            }
            Token::End(n) if !matches!(&*n, "head" | "body" | "html" | "br") => None,
            t => {
                self.insert(tag("head"));
                self.head_done = true;
                self.mode = Mode::InHead;
                Some(strip_ws(t))
            }
        }
    }

    /// Elements handled by the "in head" rules wherever they appear (see [`is_head_element`]).
    pub(super) fn head_element(&mut self, tag: Tag<'a>) {
        match &*tag.name {
            "base" | "basefont" | "bgsound" | "link" | "meta" => self.insert_void(tag),
            "template" => {
                self.insert(tag);
                self.afe.push(Afe::Marker);
            }
            _ => self.insert_raw(tag),
        }
    }

    fn insert_raw(&mut self, tag: Tag<'a>) {
        if let Some((mode, end)) = raw_mode(&tag.name) {
            self.tok.mode = mode;
            self.tok.end_tag = end;
            self.text_mode = true;
        }
        self.insert(tag);
    }

    pub(super) fn end_template(&mut self) {
        if self.has("template", Scope::Table) {
            self.gen_implied("");
            self.pop_until(|n| n == "template");
            self.clear_afe_to_marker();
            self.reset_mode();
        }
    }

    fn in_head(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) if all_ws(&x) => None,
            Token::Doctype { .. } => None,
            Token::Start(tag) if matches!(&*tag.name, "html" | "head") => {
                self.amend_root(&tag);
                None
            }
            Token::Start(tag) if is_head_element(&tag.name) => {
                self.head_element(tag);
                None
            }
            Token::Start(tag) => self.leave_head(Token::Start(tag)),
            Token::End(n) if n == "head" => {
                self.pop();
                self.mode = Mode::AfterHead;
                None
            }
            Token::End(n) if n == "template" => {
                self.end_template();
                None
            }
            Token::End(n) if !matches!(&*n, "body" | "html" | "br") => None,
            t => self.leave_head(strip_ws(t)),
        }
    }

    fn leave_head(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        self.pop();
        self.mode = Mode::AfterHead;
        Some(t)
    }

    fn after_head(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) if all_ws(&x) => {
                self.insert_text(x);
                None
            }
            Token::Doctype { .. } => None,
            Token::Start(tag) if matches!(&*tag.name, "html" | "head") => {
                self.amend_root(&tag);
                None
            }
            Token::Start(tag) if tag.name == "body" => {
                self.insert(tag);
                self.mode = Mode::InBody;
                None
            }
            Token::Start(tag) if is_head_element(&tag.name) => {
                self.head_element(tag);
                None
            }
            Token::Start(tag) => self.implied_body(Token::Start(tag)),
            Token::End(n) if n == "template" => {
                self.end_template();
                None
            }
            Token::End(n) if !matches!(&*n, "body" | "html" | "br") => None,
            t => {
                let t = strip_ws_after_head(self, t);
                self.implied_body(t)
            }
        }
    }

    fn implied_body(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        self.insert(tag("body"));
        self.mode = Mode::InBody;
        Some(t)
    }

    #[inline(always)]
    pub(super) fn body(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) => {
                self.reconstruct();
                self.insert_text(x);
            }
            Token::Doctype { .. } => {}
            Token::Start(tag) => return self.body_start(tag),
            Token::End(n) => self.body_end(n),
        }
        None
    }

    fn select_in_scope(&self) -> bool {
        self.has("select", Scope::Default)
    }

    fn body_start(&mut self, mut tag: Tag<'a>) -> Option<Token<'a>> {
        let name = tag.name.clone();
        match &*name {
            "html" | "body" => self.amend_root(&tag),
            "frameset" | "caption" | "col" | "colgroup" | "frame" | "head" | "tbody" | "td"
            | "tfoot" | "th" | "thead" | "tr" => {}
            "base" | "basefont" | "bgsound" | "link" | "meta" | "noframes" | "script" | "style"
            | "template" | "title" => {
                self.head_element(tag);
            }
            "address" | "article" | "aside" | "blockquote" | "center" | "details" | "dialog"
            | "dir" | "div" | "dl" | "fieldset" | "figcaption" | "figure" | "footer" | "header"
            | "hgroup" | "main" | "nav" | "ol" | "p" | "search" | "section" | "summary" | "ul"
            | "menu" | "pre" | "listing" => {
                self.close_p();
                self.insert(tag);
            }
            n if is_heading(n) => {
                self.close_p();
                if self
                    .current()
                    .is_some_and(|e| !e.foreign && is_heading(&e.name))
                {
                    self.pop();
                }
                self.insert(tag);
            }
            "form" => {
                if self.form.is_none() {
                    self.close_p();
                    self.form = Some(self.insert(tag));
                }
            }
            "li" | "dd" | "dt" => {
                let list = name == "li";
                let mut close = None;
                for (_, e) in self.live().rev() {
                    let n = &*e.name;
                    if !e.foreign
                        && (if list {
                            n == "li"
                        } else {
                            matches!(n, "dd" | "dt")
                        })
                    {
                        close = Some(e.name.clone());
                        break;
                    }
                    if (e.foreign || is_special(n)) && !matches!(n, "address" | "div" | "p") {
                        break;
                    }
                }
                if let Some(n) = close {
                    self.gen_implied(&n);
                    self.pop_until(|x| x == n);
                }
                self.close_p();
                self.insert(tag);
            }
            "plaintext" => {
                self.close_p();
                self.insert_raw(tag);
            }
            "button" => {
                if self.has("button", Scope::Default) {
                    self.gen_implied("");
                    self.pop_until(|n| n == "button");
                }
                self.reconstruct();
                self.insert(tag);
            }
            "a" => {
                let open_a = self
                    .afe
                    .iter()
                    .rev()
                    .take_while(|a| !matches!(a, Afe::Marker))
                    .find_map(|a| match a {
                        Afe::El { name, uid, .. } if name == "a" => Some(*uid),
                        _ => None,
                    });
                if let Some(uid) = open_a {
                    self.adoption("a");
                    self.afe
                        .retain(|a| !matches!(a, Afe::El { uid: u, .. } if *u == uid));
                    self.remove_entry(uid);
                }
                self.formatting(tag);
            }
            "nobr" => {
                self.reconstruct();
                if self.has("nobr", Scope::Default) {
                    self.adoption("nobr");
                }
                self.formatting(tag);
            }
            n if is_formatting(n) => self.formatting(tag),
            "applet" | "marquee" | "object" => {
                self.reconstruct();
                self.insert(tag);
                self.afe.push(Afe::Marker);
            }
            "table" => {
                if !self.quirks {
                    self.close_p();
                }
                self.insert(tag);
                self.mode = Mode::InTable;
            }
            "area" | "br" | "embed" | "img" | "keygen" | "wbr" | "image" => {
                if name == "image" {
                    tag.name = Cow::Borrowed("img");
                }
                self.reconstruct();
                self.insert_void(tag);
            }
            "input" => {
                if self.select_in_scope() {
                    self.pop_until(|n| n == "select");
                }
                self.reconstruct();
                self.insert_void(tag);
            }
            "param" | "source" | "track" => self.insert_void(tag),
            "hr" => {
                self.close_p();
                if self.select_in_scope() {
                    self.gen_implied("");
                }
                self.insert_void(tag);
            }
            "textarea" | "iframe" | "noembed" | "noscript" => self.insert_raw(tag),
            "xmp" => {
                self.close_p();
                self.reconstruct();
                self.insert_raw(tag);
            }
            "select" if self.select_in_scope() => self.pop_until(|n| n == "select"),
            "select" => {
                self.reconstruct();
                self.insert(tag);
            }
            "option" | "optgroup" => {
                if self.select_in_scope() {
                    self.gen_implied(if name == "option" { "optgroup" } else { "" });
                } else if self.cur_is(&["option"]) {
                    self.pop();
                }
                self.reconstruct();
                self.insert(tag);
            }
            "rb" | "rtc" | "rp" | "rt" => {
                if self.has("ruby", Scope::Default) {
                    self.gen_implied(if matches!(&*name, "rp" | "rt") {
                        "rtc"
                    } else {
                        ""
                    });
                }
                self.insert(tag);
            }
            "math" | "svg" => {
                self.reconstruct();
                let sc = tag.self_closing;
                self.insert_foreign(tag, true);
                if sc {
                    self.pop();
                }
            }
            _ => {
                self.reconstruct();
                self.insert(tag);
            }
        }
        None
    }

    fn formatting(&mut self, tag: Tag<'a>) {
        self.reconstruct();
        let (name, attrs) = (tag.name.clone(), tag.attrs.clone());
        let uid = self.insert(tag);
        self.push_afe(uid, name, attrs);
    }

    fn body_end(&mut self, name: Cow<'a, str>) {
        match &*name {
            "body" | "html" => {}
            "template" => self.end_template(),
            "address" | "article" | "aside" | "blockquote" | "button" | "center" | "details"
            | "dialog" | "dir" | "div" | "dl" | "fieldset" | "figcaption" | "figure" | "footer"
            | "header" | "hgroup" | "listing" | "main" | "menu" | "nav" | "ol" | "pre"
            | "search" | "section" | "select" | "summary" | "ul" => {
                if self.has(&name, Scope::Default) {
                    self.gen_implied("");
                    self.pop_until(|n| n == name);
                }
            }
            "form" => {
                let Some(uid) = self.form.take() else { return };
                let in_scope = self
                    .live()
                    .rev()
                    .take_while(|(_, e)| e.uid == uid || !(e.foreign || default_boundary(&e.name)))
                    .any(|(_, e)| e.uid == uid);
                if in_scope {
                    self.gen_implied("");
                    self.remove_entry(uid);
                }
            }
            "p" => {
                if !self.has("p", Scope::Button) {
                    self.insert(tag("p"));
                }
                self.close_p();
            }
            "li" | "dd" | "dt" => {
                let scope = if name == "li" {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.has(&name, scope) {
                    self.gen_implied(&name);
                    self.pop_until(|n| n == name);
                }
            }
            n if is_heading(n) => {
                if self.in_scope(is_heading, Scope::Default) {
                    self.gen_implied("");
                    self.pop_until(is_heading);
                }
            }
            n if is_formatting(n) => self.adoption(n),
            "applet" | "marquee" | "object" => {
                if self.has(&name, Scope::Default) {
                    self.gen_implied("");
                    self.pop_until(|n| n == name);
                    self.clear_afe_to_marker();
                }
            }
            "br" => {
                self.reconstruct();
                self.insert_void(tag("br"));
            }
            n => self.any_other_end(n),
        }
    }
}

/// Leading white space is dropped before `<html>`/`<head>` exist (the rest is reprocessed).
fn strip_ws(t: Token<'_>) -> Token<'_> {
    match t {
        Token::Text(Cow::Borrowed(x)) => Token::Text(Cow::Borrowed(
            x.trim_start_matches([' ', '\t', '\n', '\r', '\x0c']),
        )),
        Token::Text(Cow::Owned(x)) => Token::Text(Cow::Owned(
            x.trim_start_matches([' ', '\t', '\n', '\r', '\x0c'])
                .to_string(),
        )),
        t => t,
    }
}

/// After `</head>`, leading white space is inserted (into `<html>`); the rest goes to the body.
fn strip_ws_after_head<'a>(p: &mut Parser<'a>, t: Token<'a>) -> Token<'a> {
    if let Token::Text(x) = &t {
        let n = x.len() - x.trim_start_matches([' ', '\t', '\n', '\r', '\x0c']).len();
        if n > 0 {
            p.insert_text(Cow::Owned(x[..n].to_string()));
            return strip_ws(t);
        }
    }
    t
}
