//! The table insertion modes of the WHATWG tree construction (in table, table body, row, cell,
//! caption, column group) with foster parenting, as html5ever 0.40 applies them; the body of
//! [`super::rules`] for the block tree of [L2216–L2237], whose old pages lay out in tables.

use super::rules::tag;
use super::{Afe, Mode, Parser, Scope, all_ws};
use crate::engine::docview::tokenize::{Tag, Token};

impl<'a> Parser<'a> {
    /// Pop until the current node is one of `names` (or `html`).
    fn clear_to(&mut self, names: &[&str]) {
        while let Some(e) = self.current() {
            if !e.foreign && (names.contains(&&*e.name) || e.name == "html" || e.name == "template")
            {
                break;
            }
            self.pop();
        }
    }

    pub(super) fn reset_mode(&mut self) {
        let n = self.stack.len();
        let mut mode = Mode::InBody;
        for (i, e) in self.stack.iter().enumerate().rev() {
            if e.removed || e.foreign {
                continue;
            }
            let last = i == 0;
            mode = match &*e.name {
                "td" | "th" if !last => Mode::InCell,
                "tr" => Mode::InRow,
                "tbody" | "thead" | "tfoot" => Mode::InTableBody,
                "caption" => Mode::InCaption,
                "colgroup" => Mode::InColumnGroup,
                "table" => Mode::InTable,
                "head" if !last => Mode::InHead,
                "body" => Mode::InBody,
                "html" if self.head_done => Mode::AfterHead,
                "html" => Mode::BeforeHead,
                _ if last => Mode::InBody,
                _ => continue,
            };
            break;
        }
        let _ = n;
        self.mode = mode;
    }

    /// Anything else in a table: the body rules with foster parenting.
    fn foster_body(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        self.foster = true;
        let r = self.body(t);
        self.foster = false;
        r
    }

    pub(super) fn table(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) => {
                let table_ctx = self.cur_is(&["table", "tbody", "tfoot", "thead", "tr"]);
                if table_ctx && all_ws(&x) {
                    self.insert_text(x);
                    None
                } else {
                    self.foster_body(Token::Text(x))
                }
            }
            Token::Doctype { .. } => None,
            Token::Start(tag) => match &*tag.name {
                "caption" => {
                    self.clear_to(&["table"]);
                    self.afe.push(Afe::Marker);
                    self.insert(tag);
                    self.mode = Mode::InCaption;
                    None
                }
                "colgroup" => {
                    self.clear_to(&["table"]);
                    self.insert(tag);
                    self.mode = Mode::InColumnGroup;
                    None
                }
                "col" => {
                    self.clear_to(&["table"]);
                    self.insert(self::tag("colgroup"));
                    self.mode = Mode::InColumnGroup;
                    Some(Token::Start(tag))
                }
                "tbody" | "tfoot" | "thead" => {
                    self.clear_to(&["table"]);
                    self.insert(tag);
                    self.mode = Mode::InTableBody;
                    None
                }
                "td" | "th" | "tr" => {
                    self.clear_to(&["table"]);
                    self.insert(self::tag("tbody"));
                    self.mode = Mode::InTableBody;
                    Some(Token::Start(tag))
                }
                "table" => {
                    if self.has("table", Scope::Table) {
                        self.pop_until(|n| n == "table");
                        self.reset_mode();
                        Some(Token::Start(tag))
                    } else {
                        None
                    }
                }
                "style" | "script" | "template" => {
                    self.head_element(tag);
                    None
                }
                "input"
                    if tag
                        .attrs
                        .kind()
                        .is_some_and(|k| k.eq_ignore_ascii_case("hidden")) =>
                {
                    self.insert_void(tag);
                    None
                }
                "form" => {
                    if self.form.is_none() {
                        self.form = Some(self.insert(tag));
                        self.pop();
                    }
                    None
                }
                _ => self.foster_body(Token::Start(tag)),
            },
            Token::End(n) => match &*n {
                "table" => {
                    if self.has("table", Scope::Table) {
                        self.pop_until(|n| n == "table");
                        self.reset_mode();
                    }
                    None
                }
                "body" | "caption" | "col" | "colgroup" | "html" | "tbody" | "td" | "tfoot"
                | "th" | "thead" | "tr" => None,
                "template" => {
                    self.end_template();
                    None
                }
                _ => self.foster_body(Token::End(n)),
            },
        }
    }

    pub(super) fn table_body(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        let sections =
            |p: &Self| p.in_scope(|n| matches!(n, "tbody" | "thead" | "tfoot"), Scope::Table);
        match t {
            Token::Start(tag) if tag.name == "tr" => {
                self.clear_to(&["tbody", "tfoot", "thead"]);
                self.insert(tag);
                self.mode = Mode::InRow;
                None
            }
            Token::Start(tag) if matches!(&*tag.name, "th" | "td") => {
                self.clear_to(&["tbody", "tfoot", "thead"]);
                self.insert(tag_tr());
                self.mode = Mode::InRow;
                Some(Token::Start(tag))
            }
            Token::Start(tag)
                if matches!(
                    &*tag.name,
                    "caption" | "col" | "colgroup" | "tbody" | "tfoot" | "thead"
                ) =>
            {
                self.leave_section(sections(self), Token::Start(tag))
            }
            Token::End(n) if n == "table" => self.leave_section(sections(self), Token::End(n)),
            Token::End(n) if matches!(&*n, "tbody" | "tfoot" | "thead") => {
                if self.has(&n, Scope::Table) {
                    self.clear_to(&["tbody", "tfoot", "thead"]);
                    self.pop();
                    self.mode = Mode::InTable;
                }
                None
            }
            Token::End(n)
                if matches!(
                    &*n,
                    "body" | "caption" | "col" | "colgroup" | "html" | "td" | "th" | "tr"
                ) =>
            {
                None
            }
            t => self.table(t),
        }
    }

    fn leave_section(&mut self, ok: bool, t: Token<'a>) -> Option<Token<'a>> {
        if !ok {
            return None;
        }
        self.clear_to(&["tbody", "tfoot", "thead"]);
        self.pop();
        self.mode = Mode::InTable;
        Some(t)
    }

    pub(super) fn row(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Start(tag) if matches!(&*tag.name, "th" | "td") => {
                self.clear_to(&["tr"]);
                self.insert(tag);
                self.mode = Mode::InCell;
                self.afe.push(Afe::Marker);
                None
            }
            Token::End(n) if n == "tr" => {
                if self.has("tr", Scope::Table) {
                    self.clear_to(&["tr"]);
                    self.pop();
                    self.mode = Mode::InTableBody;
                }
                None
            }
            Token::Start(tag)
                if matches!(
                    &*tag.name,
                    "caption" | "col" | "colgroup" | "tbody" | "tfoot" | "thead" | "tr"
                ) =>
            {
                self.leave_row(Token::Start(tag))
            }
            Token::End(n) if n == "table" => self.leave_row(Token::End(n)),
            Token::End(n) if matches!(&*n, "tbody" | "tfoot" | "thead") => {
                if self.has(&n, Scope::Table) {
                    self.leave_row(Token::End(n))
                } else {
                    None
                }
            }
            Token::End(n)
                if matches!(
                    &*n,
                    "body" | "caption" | "col" | "colgroup" | "html" | "td" | "th"
                ) =>
            {
                None
            }
            t => self.table(t),
        }
    }

    fn leave_row(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        if !self.has("tr", Scope::Table) {
            return None;
        }
        self.clear_to(&["tr"]);
        self.pop();
        self.mode = Mode::InTableBody;
        Some(t)
    }

    fn close_cell(&mut self) {
        self.gen_implied("");
        self.pop_until(|n| matches!(n, "td" | "th"));
        self.clear_afe_to_marker();
        self.mode = Mode::InRow;
    }

    pub(super) fn cell(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::End(n) if matches!(&*n, "td" | "th") => {
                if self.has(&n, Scope::Table) {
                    self.close_cell();
                }
                None
            }
            Token::Start(tag) if table_part(&tag.name) => {
                if self.in_scope(|n| matches!(n, "td" | "th"), Scope::Table) {
                    self.close_cell();
                    Some(Token::Start(tag))
                } else {
                    None
                }
            }
            Token::End(n) if matches!(&*n, "body" | "caption" | "col" | "colgroup" | "html") => {
                None
            }
            Token::End(n) if matches!(&*n, "table" | "tbody" | "tfoot" | "thead" | "tr") => {
                if self.has(&n, Scope::Table) {
                    self.close_cell();
                    Some(Token::End(n))
                } else {
                    None
                }
            }
            t => self.body(t),
        }
    }

    pub(super) fn caption(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        let closes = match &t {
            Token::End(n) => matches!(&**n, "caption" | "table"),
            Token::Start(tag) => table_part(&tag.name),
            _ => false,
        };
        if closes {
            if !self.has("caption", Scope::Table) {
                return None;
            }
            self.gen_implied("");
            self.pop_until(|n| n == "caption");
            self.clear_afe_to_marker();
            self.mode = Mode::InTable;
            return match t {
                Token::End(n) if n == "caption" => None,
                t => Some(t),
            };
        }
        match t {
            Token::End(n)
                if matches!(
                    &*n,
                    "body"
                        | "col"
                        | "colgroup"
                        | "html"
                        | "tbody"
                        | "td"
                        | "tfoot"
                        | "th"
                        | "thead"
                        | "tr"
                ) =>
            {
                None
            }
            t => self.body(t),
        }
    }

    pub(super) fn colgroup(&mut self, t: Token<'a>) -> Option<Token<'a>> {
        match t {
            Token::Text(x) if all_ws(&x) => {
                self.insert_text(x);
                None
            }
            Token::Start(tag) if tag.name == "col" => {
                self.insert_void(tag);
                None
            }
            Token::Start(tag) if tag.name == "html" => None,
            Token::Start(tag) if tag.name == "template" => {
                self.head_element(tag);
                None
            }
            Token::End(n) if n == "colgroup" => {
                if self.cur_is(&["colgroup"]) {
                    self.pop();
                    self.mode = Mode::InTable;
                }
                None
            }
            Token::End(n) if n == "col" => None,
            Token::End(n) if n == "template" => {
                self.end_template();
                None
            }
            t => {
                if self.cur_is(&["colgroup"]) {
                    self.pop();
                    self.mode = Mode::InTable;
                    Some(t)
                } else {
                    None
                }
            }
        }
    }
}

fn tag_tr() -> Tag<'static> {
    tag("tr")
}

/// A start tag of a table's parts, which closes an open cell or caption (the WHATWG "in cell"
/// and "in caption" insertion modes list the same nine).
fn table_part(name: &str) -> bool {
    matches!(
        name,
        "caption" | "col" | "colgroup" | "tbody" | "td" | "tfoot" | "th" | "thead" | "tr"
    )
}
