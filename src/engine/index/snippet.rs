//! The dynamic abstract of a result and the highlighted snapshot, book §5.4 Fig 5-3
//! [L1739–L1758] and the snapshot page [L807–L811], [L1774–L1778].
//!
//! Fig 5-3 builds a result's abstract from the page's tag-free body text `Cnt` and the query
//! terms q = {t₁ … tₘ} [L1743–L1754]:
//!
//! 1. the head: the first `resCnt` = 48 bytes of `Cnt`;
//! 2. for each tᵢ, its **first** occurrence at idx: if idx > `resTerm` (256), the window starts at
//!    the first whole-character boundary at or after idx − `resTerm` (step b2.1: GB text has
//!    2-byte characters, a start inside one shows mojibake [L1739]), else it starts **at the term**
//!    (b2.2); either way it spans 2·`resTerm` bytes;
//! 3. `"..."` between fragments, and every query term highlighted in the whole abstract.
//!
//! The book's text is GB-encoded, so its sizes are bytes. [`Unit::GbkBytes`] counts them as GBK
//! would (1 byte for ASCII, 2 for any other character) on our UTF-8 text and never splits a
//! character; [`Unit::Chars`] is the modern reading in characters ([`AbstractConfig::modern`]:
//! 48 bytes → 24 characters, 256 → 128). Choices where the book is silent [L1739–L1758]:
//!
//! * a window's **end** is aligned too (the last whole character that fits), and a window stops at
//!   the end of the text (ambiguity c);
//! * a term that does not occur is skipped; an empty term never matches (d);
//! * terms match ASCII case-insensitively; where two terms could match at the same place the
//!   longer wins (`北京大学` over `北京`), then the earlier term;
//! * fragments may overlap or repeat (b): book-faithful [`AbstractConfig::default`] keeps them as
//!   the loop appends them; with `merge_overlaps` fragments that overlap or touch are merged
//!   into one, in text order;
//! * `"..."` goes *between* fragments (the printed loop appends it after each term window, so the
//!   head runs straight into the first window; we separate every fragment the same way);
//! * `max_fragments` (the book has no limit) caps the fragments, head included; a term whose
//!   window would exceed it (after merging, when merging) is skipped.
//!
//! The snapshot ([`snapshot`]) is the stored text split into spans with each query term in its
//! own colour, plus where each term first occurs (for "jump to" links) [L811].
//!
//! ```
//! use tianwang::engine::index::snippet::{AbstractConfig, dynamic_abstract};
//! let text = format!("{}北大{}", "天".repeat(300), "网".repeat(300));
//! let a = dynamic_abstract(&text, &["北大".to_string()], &AbstractConfig::default());
//! assert_eq!(a.fragments.len(), 2);
//! assert_eq!(a.fragments[0].text.chars().count(), 24); // 48 GBK bytes
//! assert_eq!(a.fragments[1].start_char, 300 - 128); // 256 bytes before the term
//! assert!(a.marked("【", "】").contains("【北大】"));
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// How the abstract's sizes are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Book-faithful: bytes as GBK would encode the text — 1 for ASCII, 2 for any other
    /// character (characters outside GBK count 2 as well); a character is never split.
    #[default]
    GbkBytes,
    /// Modern: characters (Unicode scalar values).
    Chars,
}

impl Unit {
    pub const ALL: [Unit; 2] = [Unit::GbkBytes, Unit::Chars];

    pub fn name(self) -> &'static str {
        match self {
            Unit::GbkBytes => "gbk-bytes",
            Unit::Chars => "chars",
        }
    }

    /// The unit called `s`.
    pub fn parse(s: &str) -> Result<Unit> {
        let s = s.trim().to_ascii_lowercase();
        Unit::ALL
            .into_iter()
            .find(|u| u.name() == s)
            .ok_or_else(|| {
                EngineError::invalid("--abstract-unit", format!("`{s}`: one of gbk-bytes, chars"))
            })
    }

    /// What one character costs.
    pub fn cost(self, c: char) -> usize {
        match self {
            Unit::GbkBytes if !c.is_ascii() => 2,
            _ => 1,
        }
    }

    #[cfg(test)]
    /// The size of `s` in this unit.
    pub(crate) fn measure(self, s: &str) -> usize {
        s.chars().map(|c| self.cost(c)).sum()
    }
}

/// No limit on the number of fragments (the book's).
pub(crate) const UNLIMITED: usize = usize::MAX;

/// Parameters of Fig 5-3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbstractConfig {
    /// `resCnt`: the size of the head fragment (0: no head).
    pub head: usize,
    /// `resTerm` (= `resNum`, ambiguity a): how far before a term its window starts; each window
    /// spans twice this.
    pub window: usize,
    pub unit: Unit,
    /// At most this many fragments, head included ([`UNLIMITED`] in the book).
    pub max_fragments: usize,
    /// Merge fragments that overlap or touch (the book keeps them as they come).
    pub merge_overlaps: bool,
}

impl Default for AbstractConfig {
    /// The book's: 48 and 256 GBK bytes, no limit, no merging [L1743].
    fn default() -> Self {
        AbstractConfig {
            head: 48,
            window: 256,
            unit: Unit::GbkBytes,
            max_fragments: UNLIMITED,
            merge_overlaps: false,
        }
    }
}

impl AbstractConfig {
    /// The book's sizes in characters (24 and 128), overlapping fragments merged.
    pub(crate) fn modern() -> Self {
        AbstractConfig {
            head: 24,
            window: 128,
            unit: Unit::Chars,
            max_fragments: UNLIMITED,
            merge_overlaps: true,
        }
    }

    /// A term window of 0 or room for 0 fragments is refused, naming the flag.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.window == 0 {
            return Err(EngineError::invalid(
                "--abstract-window",
                "must be at least 1 (the book's resTerm is 256 bytes)",
            ));
        }
        if self.max_fragments == 0 {
            return Err(EngineError::invalid(
                "--abstract-max-fragments",
                "must be at least 1",
            ));
        }
        Ok(())
    }
}

/// One highlighted occurrence: byte offsets within its text, and which query term it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Highlight {
    pub start: usize,
    pub end: usize,
    /// Index into the query terms.
    pub term: usize,
}

/// One piece of the abstract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fragment {
    pub text: String,
    /// Where it starts in the page text, in characters.
    pub start_char: usize,
    /// In text order, not overlapping.
    pub highlights: Vec<Highlight>,
}

impl Fragment {
    /// The fragment as `(text, term)` pieces: highlighted terms and the plain text between.
    pub(crate) fn spans(&self) -> impl Iterator<Item = (&str, Option<usize>)> + '_ {
        split_spans(&self.text, &self.highlights).into_iter()
    }
}

/// A dynamic abstract: its fragments, shown joined by [`SEPARATOR`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Abstract {
    pub fragments: Vec<Fragment>,
}

/// Between fragments [L1751].
pub(crate) const SEPARATOR: &str = "...";

impl Abstract {
    /// The text without marks.
    pub fn plain(&self) -> String {
        let parts: Vec<&str> = self.fragments.iter().map(|f| f.text.as_str()).collect();
        parts.join(SEPARATOR)
    }

    /// The text with every highlighted term between `open` and `close` (e.g. `【` `】`).
    pub fn marked(&self, open: &str, close: &str) -> String {
        let mut out = String::new();
        for (text, term) in self.spans() {
            match term {
                Some(_) => {
                    out.push_str(open);
                    out.push_str(text);
                    out.push_str(close);
                }
                None => out.push_str(text),
            }
        }
        out
    }

    /// HTML: the text escaped, term i in `<em class="ti">` (a stylesheet colours them; the book's
    /// abstract shows them red [L797]).
    pub fn html(&self) -> String {
        let mut out = String::new();
        for (text, term) in self.spans() {
            match term {
                Some(t) => {
                    out.push_str(&format!("<em class=\"t{t}\">"));
                    escape_into(&mut out, text);
                    out.push_str("</em>");
                }
                None => escape_into(&mut out, text),
            }
        }
        out
    }

    /// Every piece in order, the separators included as plain text: what a GUI colours.
    pub(crate) fn spans(&self) -> impl Iterator<Item = (&str, Option<usize>)> + '_ {
        self.fragments.iter().enumerate().flat_map(|(i, f)| {
            let sep = (i > 0).then_some((SEPARATOR, None));
            sep.into_iter().chain(f.spans())
        })
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, appended to `out`.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// `text` cut at its highlights.
fn split_spans<'a>(text: &'a str, highlights: &[Highlight]) -> Vec<(&'a str, Option<usize>)> {
    let mut out = Vec::with_capacity(2 * highlights.len() + 1);
    let mut at = 0;
    for h in highlights {
        if h.start > at {
            out.push((&text[at..h.start], None));
        }
        out.push((&text[h.start..h.end], Some(h.term)));
        at = h.end;
    }
    if at < text.len() {
        out.push((&text[at..], None));
    }
    out
}

/// Finds query terms: ASCII case-insensitive, longest term first, then the earliest term.
struct Matcher {
    /// (lower-cased term, its index), longest first.
    pats: Vec<(String, usize)>,
}

impl Matcher {
    fn new(terms: &[String]) -> Matcher {
        let mut pats: Vec<(String, usize)> = terms
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .map(|(i, t)| (t.to_ascii_lowercase(), i))
            .collect();
        // Stable: among equal lengths the earlier term stays first.
        pats.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
        Matcher { pats }
    }

    /// Every occurrence in `text`, leftmost first, not overlapping.
    fn find_all(&self, text: &str) -> Vec<Highlight> {
        let mut out = Vec::new();
        if self.pats.is_empty() {
            return out;
        }
        let lower = text.to_ascii_lowercase();
        let mut i = 0;
        'scan: while i < lower.len() {
            let rest = &lower[i..];
            for (p, term) in &self.pats {
                if rest.starts_with(p.as_str()) {
                    out.push(Highlight {
                        start: i,
                        end: i + p.len(),
                        term: *term,
                    });
                    i += p.len();
                    continue 'scan;
                }
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        out
    }
}

/// The text measured: each character's byte offset and the units before it.
struct Measured<'a> {
    text: &'a str,
    /// Byte offset of character i; one more entry for the end.
    bytes: Vec<usize>,
    /// Units before character i; one more entry for the total.
    units: Vec<usize>,
}

impl<'a> Measured<'a> {
    fn new(text: &'a str, unit: Unit) -> Self {
        let n = text.chars().count();
        let (mut bytes, mut units) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
        let mut u = 0;
        for (b, c) in text.char_indices() {
            bytes.push(b);
            units.push(u);
            u += unit.cost(c);
        }
        bytes.push(text.len());
        units.push(u);
        Measured { text, bytes, units }
    }

    /// The character starting at byte `b` (a char boundary).
    fn char_at(&self, b: usize) -> usize {
        self.bytes.partition_point(|&x| x < b)
    }

    /// The first character boundary at or after `lo` units (b2.1's alignment).
    fn align_up(&self, lo: usize) -> usize {
        self.units.partition_point(|&u| u < lo)
    }

    /// The end of a window starting at character `start` of at most `budget` units: the last
    /// whole character that fits, or the end of the text.
    fn take(&self, start: usize, budget: usize) -> usize {
        let limit = self.units[start].saturating_add(budget);
        self.units.partition_point(|&u| u <= limit) - 1
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[self.bytes[start]..self.bytes[end]]
    }
}

/// Fig 5-3 [L1739–L1758] on `text` (the page's body text, tags already removed) for the query
/// `terms`; see the module documentation for the choices where the book is silent. The
/// configuration is not validated here: a zero window gives no term fragments.
pub fn dynamic_abstract(text: &str, terms: &[String], cfg: &AbstractConfig) -> Abstract {
    let m = Measured::new(text, cfg.unit);
    let lower = text.to_ascii_lowercase();
    // Character ranges of the fragments, in the order the loop appends them.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    // a. the head.
    let head_end = m.take(0, cfg.head);
    if head_end > 0 && cfg.max_fragments > 0 {
        ranges.push((0, head_end));
    }
    // b. one window per query term, at its first occurrence.
    for t in terms {
        if t.is_empty() {
            continue;
        }
        let Some(b) = lower.find(&t.to_ascii_lowercase()) else {
            continue; // not in the page: skipped
        };
        let at = m.char_at(b);
        let idx = m.units[at];
        let start = if idx > cfg.window {
            m.align_up(idx - cfg.window) // b2.1
        } else {
            at // b2.2: at the term itself
        };
        let end = m.take(start, cfg.window.saturating_mul(2));
        if end <= start {
            continue;
        }
        let mut next = ranges.clone();
        next.push((start, end));
        if cfg.merge_overlaps {
            next = merge(next);
        }
        if next.len() <= cfg.max_fragments {
            ranges = next;
        }
    }
    // b3. every term highlighted everywhere in the abstract.
    let matcher = Matcher::new(terms);
    let fragments = ranges
        .into_iter()
        .map(|(s, e)| {
            let text = m.slice(s, e);
            Fragment {
                text: text.to_string(),
                start_char: s,
                highlights: matcher.find_all(text),
            }
        })
        .collect();
    Abstract { fragments }
}

/// Ranges sorted, those that overlap or touch joined.
fn merge(mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    ranges.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (s, e) in ranges {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// One piece of a snapshot: plain text (`term` = None) or an occurrence of query term `term`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub text: String,
    pub term: Option<usize>,
}

/// The stored text with every query term marked, each term its own colour [L811].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Snapshot {
    /// The whole text, in order: concatenated they give it back.
    pub spans: Vec<Span>,
    /// Per term: the index in `spans` of its first occurrence (the "jump to" link), if any.
    pub first_occurrence: Vec<Option<usize>>,
    /// Per term: how many occurrences are marked (where terms overlap, the longer one's).
    pub counts: Vec<usize>,
}

/// The snapshot view of `text` for the query `terms` [L807–L811]: matching as in the abstract
/// (ASCII case-insensitive, longest term first); a term repeated in the query is marked as its
/// first copy, so the later copy counts 0.
pub fn snapshot(text: &str, terms: &[String]) -> Snapshot {
    let highlights = Matcher::new(terms).find_all(text);
    let mut first_occurrence = vec![None; terms.len()];
    let mut counts = vec![0; terms.len()];
    let spans: Vec<Span> = split_spans(text, &highlights)
        .into_iter()
        .enumerate()
        .map(|(i, (t, term))| {
            if let Some(k) = term {
                counts[k] += 1;
                first_occurrence[k].get_or_insert(i);
            }
            Span {
                text: t.to_string(),
                term,
            }
        })
        .collect();
    Snapshot {
        spans,
        first_occurrence,
        counts,
    }
}

#[cfg(test)]
mod tests;
