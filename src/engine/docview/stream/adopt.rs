//! The WHATWG adoption agency algorithm on the streaming builder's held events, as html5ever
//! 0.40 runs it: a formatting element closed across a block (`<b>1<p>2</b>3</p>`), or a new
//! `<a>` while an older one is open around a block, moves the block (the "furthest block") out of
//! the formatting element, re-opens the formatting elements between them as clones around it, and
//! wraps the block's children in a clone of the formatting element — so that `3` above sits in
//! `<p><b>`-less text after a `<b>` clone holding `2`.
//!
//! Without a DOM this is a rewrite of a suffix of the event stream: a special element opened
//! while formatting elements are active is *held* (its start event stays in a buffer, and sink 0
//! waits, until it closes), so when it turns out to be the furthest block its start and
//! everything after it are still there to move behind the closed formatting element.
//!
//! ```ignore
//! // <b>1<p>2</b>3</p> gives the events of <b>1</b><p><b>2</b>3</p>
//! ```

use std::borrow::Cow;

use super::{Afe, Entry, Ev, Parser, default_boundary, is_special};

/// Where the formatting element's replacement goes in the list of active formatting elements.
enum Bookmark {
    Replace,
    After(u32),
}

impl<'a> Parser<'a> {
    /// Whether the element `uid` is in the default scope.
    fn uid_in_scope(&self, uid: u32) -> bool {
        for (_, e) in self.live().rev() {
            if e.uid == uid {
                return true;
            }
            let boundary = if e.foreign {
                super::foreign_boundary(&e.name)
            } else {
                default_boundary(&e.name)
            };
            if boundary {
                return false;
            }
        }
        false
    }

    fn afe_pos(&self, uid: u32) -> Option<usize> {
        self.afe
            .iter()
            .position(|a| matches!(a, Afe::El { uid: u, .. } if *u == uid))
    }

    /// The sink for a node appended to the stack entry `ci` (foster parenting included).
    fn place_in(&self, ci: usize) -> usize {
        let ca = &self.stack[ci];
        if self.foster
            && !ca.foreign
            && matches!(&*ca.name, "table" | "tbody" | "tfoot" | "thead" | "tr")
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
        ca.child_sink
    }

    /// The adoption agency algorithm for the end tag `subject`.
    pub(super) fn adoption(&mut self, subject: &str) {
        if self.cur_is(&[subject])
            && let Some(cur) = self.current()
            && self.afe_pos(cur.uid).is_none()
        {
            self.pop();
            return;
        }
        for _ in 0..8 {
            let mut found = None;
            for (i, a) in self.afe.iter().enumerate().rev() {
                match a {
                    Afe::Marker => break,
                    Afe::El { name, uid, .. } if name == subject => {
                        found = Some((i, *uid));
                        break;
                    }
                    _ => {}
                }
            }
            let Some((ai, fuid)) = found else {
                return self.any_other_end(subject);
            };
            let Some(fi) = self.stack.iter().position(|e| !e.removed && e.uid == fuid) else {
                self.afe.remove(ai);
                return;
            };
            if !self.uid_in_scope(fuid) {
                return;
            }
            let furthest = (fi + 1..self.stack.len()).find(|&i| {
                let e = &self.stack[i];
                !e.removed && !e.foreign && is_special(&e.name)
            });
            let Some(bi) = furthest else {
                self.afe.remove(ai);
                while self.stack.len() > fi {
                    self.pop();
                }
                return;
            };
            if !self.adopt(fi, bi) {
                self.bail = true;
                return;
            }
        }
    }

    /// One round of the outer loop with the formatting element at stack index `fi` and the
    /// furthest block at `bi`; `false` when the held events are not as expected.
    fn adopt(&mut self, fi: usize, bi: usize) -> bool {
        let Some(ci) = (0..fi).rev().find(|&i| !self.stack[i].removed) else {
            return false;
        };
        // A table among the elements it moves keeps its events apart: only the pass that holds
        // them does this.
        if !self.hold_tables
            && self.stack[ci..]
                .iter()
                .any(|e| !e.foreign && e.name == "table")
        {
            self.redo.set(true);
            return true;
        }
        let (fuid, b) = (self.stack[fi].uid, &self.stack[bi]);
        let (s, sb, p) = (b.sink, b.child_sink, b.pos);
        if !b.held
            || (ci + 1..bi).any(|i| self.stack[i].child_sink != s)
            || !matches!(self.out.bufs[sb].1.get(p), Some(Ev::Start(n, _)) if *n == b.name)
            // A table's foster children sit before it, in the formatting element: still open,
            // they would have to close with it.
            || (sb != s
                && self.stack[bi + 1..]
                    .iter()
                    .any(|e| e.sink == s || e.child_sink == s))
        {
            return false;
        }
        let Some(fa) = self.afe_pos(fuid) else {
            return false;
        };
        let Afe::El {
            name: fname,
            attrs: fattrs,
            ..
        } = &self.afe[fa]
        else {
            return false;
        };
        let (fname, fattrs) = (fname.clone(), fattrs.clone());

        // The inner loop: formatting elements between the two are cloned (three at most), the
        // rest leave the stack; all of them close where they are.
        let mut bookmark = Bookmark::Replace;
        let mut clones: Vec<(Cow<'a, str>, super::TagAttrs<'a>, u32)> = Vec::new();
        let mut counter = 0;
        for i in (fi + 1..bi).rev() {
            if self.stack[i].removed {
                continue;
            }
            counter += 1;
            let af = self.afe_pos(self.stack[i].uid);
            if counter > 3 {
                if let Some(k) = af {
                    self.afe.remove(k);
                }
                continue;
            }
            let Some(k) = af else { continue };
            let new = self.next_uid;
            self.next_uid += 1;
            if let Afe::El { uid, name, attrs } = &mut self.afe[k] {
                *uid = new;
                clones.push((name.clone(), attrs.clone(), new));
            }
            if clones.len() == 1 {
                bookmark = Bookmark::After(new);
            }
        }

        // The block's events (its start and all after it) leave its sink.
        let suffix = (sb == s).then(|| self.out.bufs[s].1.split_off(p));
        let mut tail = self.stack.split_off(bi);
        let closing = self.stack.split_off(ci + 1);
        for e in closing.iter().rev() {
            self.close(e);
        }
        let t = self.place_in(ci);
        for (name, attrs, uid) in clones.iter().rev() {
            let pos = self.out.bufs[t].1.len();
            self.out
                .write(t, Ev::Start(name.clone(), Box::new(attrs.clone())));
            self.stack.push(Entry {
                name: name.clone(),
                uid: *uid,
                foreign: false,
                removed: false,
                sink: t,
                child_sink: t,
                pos,
                held: false,
            });
        }
        let fnew = self.next_uid;
        self.next_uid += 1;
        let fstart = Ev::Start(fname.clone(), Box::new(fattrs.clone()));
        // Where the block's children now start, and how far their held starts moved.
        let (fsink, fpos) = match suffix {
            Some(mut suffix) => {
                let base = self.out.bufs[t].1.len();
                let rest = suffix.split_off(1);
                let buf = &mut self.out.bufs[t].1;
                buf.append(&mut suffix);
                buf.push(fstart);
                buf.extend(rest);
                for e in tail.iter_mut() {
                    if e.child_sink == s && e.pos >= p {
                        e.pos = e.pos - p + base + usize::from(e.pos > p);
                        e.child_sink = t;
                    }
                    if e.sink == s {
                        e.sink = t;
                        if e.child_sink != t {
                            self.out.bufs[e.child_sink].0 = t;
                        }
                    }
                }
                (t, base + 1)
            }
            None => {
                // A table as the block: its own events move with it.
                self.out.bufs[sb].0 = t;
                self.out.bufs[sb].1.insert(p + 1, fstart);
                tail[0].sink = t;
                for e in tail.iter_mut().skip(1) {
                    if e.child_sink == sb && e.pos > p {
                        e.pos += 1;
                    }
                }
                (sb, p + 1)
            }
        };
        let fentry = Entry {
            name: fname.clone(),
            uid: fnew,
            foreign: false,
            removed: false,
            sink: fsink,
            child_sink: fsink,
            pos: fpos,
            held: false,
        };
        let rest = tail.split_off(1);
        self.stack.append(&mut tail);
        self.stack.push(fentry);
        self.stack.extend(rest);

        let new = Afe::El {
            uid: fnew,
            name: fname,
            attrs: fattrs,
        };
        match bookmark {
            Bookmark::Replace => match self.afe_pos(fuid) {
                Some(k) => self.afe[k] = new,
                None => return false,
            },
            Bookmark::After(u) => {
                let Some(k) = self.afe_pos(u) else {
                    return false;
                };
                self.afe.insert(k + 1, new);
                if let Some(old) = self.afe_pos(fuid) {
                    self.afe.remove(old);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::tree_diff;

    #[test]
    fn formatting_closed_across_blocks_is_adopted() {
        for html in [
            "<b>粗<p>段</b>后</p>",
            "<a href=/1><div>一<a href=/2>二</a></div>",
            "<b><div><p>深</b>出</p>尾</div>",
            "<font><i><u><s><em><div>五层</font>外</div>",
            "<b>一<table><tr><td>格</table>二</b>三",
            "<p><b>x<table>前</b><tr><td>y</table>z",
            "<a href=/a><p>一<a href=/b>二<p>三</a>四",
            "<b>1<div>2<table><tr><td>3</td></tr></table>4</b>5</div>6",
            "<i>1<div>2<span>3<p>4</i>5</p>6</span>7</div>8",
            "<b><form><div>x</form>y</b>z",
            "<nobr>a<div>b<nobr>c</div>d",
        ] {
            assert_eq!(tree_diff(html), None, "{html}");
        }
    }
}
