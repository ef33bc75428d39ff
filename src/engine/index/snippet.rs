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

    /// The size of `s` in this unit.
    pub fn measure(self, s: &str) -> usize {
        s.chars().map(|c| self.cost(c)).sum()
    }
}

/// No limit on the number of fragments (the book's).
pub const UNLIMITED: usize = usize::MAX;

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
    pub fn modern() -> Self {
        AbstractConfig {
            head: 24,
            window: 128,
            unit: Unit::Chars,
            max_fragments: UNLIMITED,
            merge_overlaps: true,
        }
    }

    /// A term window of 0 or room for 0 fragments is refused, naming the flag.
    pub fn validate(&self) -> Result<()> {
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
    pub fn spans(&self) -> impl Iterator<Item = (&str, Option<usize>)> + '_ {
        split_spans(&self.text, &self.highlights).into_iter()
    }
}

/// A dynamic abstract: its fragments, shown joined by [`SEPARATOR`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Abstract {
    pub fragments: Vec<Fragment>,
}

/// Between fragments [L1751].
pub const SEPARATOR: &str = "...";

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
    pub fn spans(&self) -> impl Iterator<Item = (&str, Option<usize>)> + '_ {
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
mod tests {
    use super::*;
    use crate::engine::rng::Rng;

    /// The book's configuration with one change.
    fn book_with(edit: impl FnOnce(&mut AbstractConfig)) -> AbstractConfig {
        let mut c = AbstractConfig::default();
        edit(&mut c);
        c
    }

    fn terms(ts: &[&str]) -> Vec<String> {
        ts.iter().map(|t| t.to_string()).collect()
    }

    fn chars(s: &str, from: usize, to: usize) -> String {
        s.chars().skip(from).take(to - from).collect()
    }

    /// 600 characters of filler without 北 or 大, `term` placed at character `at`.
    fn chinese_with(term: &str, at: usize) -> String {
        let filler: Vec<char> = "天网搜索引擎教学实验".chars().collect();
        let mut s: String = (0..600).map(|i| filler[i % filler.len()]).collect();
        let tail = chars(&s, at + term.chars().count(), 600);
        s = format!("{}{term}{tail}", chars(&s, 0, at));
        assert_eq!(s.chars().count(), 600);
        s
    }

    #[test]
    fn fig_5_3_golden_chinese_in_both_units() {
        let text = chinese_with("北大", 400);
        let q = terms(&["北大"]);
        for cfg in [AbstractConfig::default(), AbstractConfig::modern()] {
            let a = dynamic_abstract(&text, &q, &cfg);
            assert_eq!(a.fragments.len(), 2, "{cfg:?}");
            // Head: 48 GBK bytes = 24 characters (modern: 24 characters).
            assert_eq!(a.fragments[0].text, chars(&text, 0, 24));
            assert_eq!(a.fragments[0].start_char, 0);
            assert!(a.fragments[0].highlights.is_empty());
            // idx = 800 bytes > 256: from 800 − 256 = 544 bytes = character 272, 512 bytes on.
            let f = &a.fragments[1];
            assert_eq!(f.start_char, 400 - 128);
            assert_eq!(f.text, chars(&text, 272, 528));
            let at = 128 * 3; // UTF-8 bytes of the 128 characters before the term
            let h = f.highlights[0];
            assert_eq!(
                (f.highlights.len(), h.start, h.end, h.term),
                (1, at, at + 6, 0)
            );
            assert_eq!(
                a.plain(),
                format!("{}...{}", chars(&text, 0, 24), chars(&text, 272, 528))
            );
        }
    }

    #[test]
    fn fig_5_3_golden_ascii_differs_by_unit() {
        let mut text = "abcdefghij".repeat(60);
        text.replace_range(400..403, "KEY");
        let q = terms(&["key"]);
        let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
        // 48 bytes of head; window from 400 − 256 = 144, 512 bytes would reach 656: cut at 600.
        assert_eq!(book.fragments[0].text, text[..48]);
        assert_eq!(book.fragments[1].start_char, 144);
        assert_eq!(book.fragments[1].text, text[144..]);
        let modern = dynamic_abstract(&text, &q, &AbstractConfig::modern());
        assert_eq!(modern.fragments[0].text, text[..24]);
        assert_eq!(modern.fragments[1].start_char, 272);
        assert_eq!(modern.fragments[1].text, text[272..528]);
        // Case-insensitive: the query's `key` marks the text's `KEY`.
        assert!(modern.marked("[", "]").contains("[KEY]"));
    }

    #[test]
    fn window_edges_never_split_a_two_byte_character() {
        // 150 Chinese characters (bytes 0..300), one ASCII byte, 50 more, then the term.
        let text = "天".repeat(150) + "a" + &"网".repeat(50) + "key" + &"搜".repeat(300);
        let q = terms(&["key"]);
        let a = dynamic_abstract(&text, &q, &AbstractConfig::default());
        // The term is at GBK byte 300 + 1 + 100 = 401; 401 − 256 = 145 falls inside character
        // 72 (bytes 144..146), so the window starts at character 73, byte 146 …
        let f = &a.fragments[1];
        assert_eq!(f.start_char, 73);
        // … and spans 512 bytes exactly: 77 天, a, 50 网, key, 127 搜 → character 331.
        assert_eq!(Unit::GbkBytes.measure(&f.text), 512);
        assert_eq!(f.text, chars(&text, 73, 331));
        // Head: "a" first, then 23 characters make 47 bytes; a 24th would make 49 > 48.
        let text2 = format!("a{}", "天".repeat(100));
        let h = dynamic_abstract(&text2, &[], &AbstractConfig::default());
        assert_eq!(h.fragments[0].text, chars(&text2, 0, 24));
        assert_eq!(Unit::GbkBytes.measure(&h.fragments[0].text), 47);
        // An odd head size on pure Chinese: 5 bytes → 2 characters.
        let cfg = book_with(|c| c.head = 5);
        let h = dynamic_abstract(&"天".repeat(10), &[], &cfg);
        assert_eq!(h.fragments[0].text, "天天");
        // In characters the same text: window 128 before character 201.
        let m = dynamic_abstract(&text, &q, &AbstractConfig::modern());
        assert_eq!(m.fragments[1].start_char, 73);
        assert_eq!(m.fragments[1].text, chars(&text, 73, 329));
    }

    #[test]
    fn an_absent_term_is_skipped() {
        let text = chinese_with("北大", 400);
        let a = dynamic_abstract(&text, &terms(&["清华", "北大"]), &AbstractConfig::default());
        assert_eq!(a.fragments.len(), 2);
        assert!(a.fragments[1].highlights.iter().all(|h| h.term == 1));
        let none = dynamic_abstract(&text, &terms(&["清华", ""]), &AbstractConfig::default());
        assert_eq!(none.plain(), chars(&text, 0, 24));
        assert_eq!(
            dynamic_abstract("", &terms(&["x"]), &AbstractConfig::default()).plain(),
            ""
        );
    }

    #[test]
    fn a_term_in_the_head_starts_its_window_at_the_term() {
        let text = chinese_with("北大", 5);
        let q = terms(&["北大"]);
        // b2.2: idx = 10 bytes ≤ 256, the window starts at the term (not at 0) for 512 bytes.
        let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
        assert_eq!(book.fragments.len(), 2, "the book keeps the repeat");
        assert_eq!(book.fragments[1].start_char, 5);
        assert_eq!(book.fragments[1].text, chars(&text, 5, 261));
        // Both copies are highlighted.
        assert_eq!(book.fragments[0].highlights[0].start, 15);
        assert_eq!(book.fragments[1].highlights[0].start, 0);
        // Merged: one fragment from 0 to the window's end.
        let cfg = book_with(|c| c.merge_overlaps = true);
        let merged = dynamic_abstract(&text, &q, &cfg);
        assert_eq!(merged.fragments.len(), 1);
        assert_eq!(merged.fragments[0].text, chars(&text, 0, 261));
    }

    #[test]
    fn two_terms_in_query_order_and_merging() {
        let mut text = chinese_with("北大", 500);
        text = format!("{}清华{}", chars(&text, 0, 400), chars(&text, 402, 600));
        let q = terms(&["北大", "清华"]);
        let book = dynamic_abstract(&text, &q, &AbstractConfig::default());
        let starts: Vec<usize> = book.fragments.iter().map(|f| f.start_char).collect();
        assert_eq!(starts, [0, 372, 272], "query order, overlaps kept");
        // Each window highlights both terms where both fall inside it.
        let terms_in = |f: &Fragment| f.highlights.iter().map(|h| h.term).collect::<Vec<_>>();
        assert_eq!(terms_in(&book.fragments[1]), [1, 0]);
        assert_eq!(terms_in(&book.fragments[2]), [1, 0]);
        let cfg = book_with(|c| c.merge_overlaps = true);
        let merged = dynamic_abstract(&text, &q, &cfg);
        let ranges: Vec<(usize, usize)> = merged
            .fragments
            .iter()
            .map(|f| (f.start_char, f.start_char + f.text.chars().count()))
            .collect();
        assert_eq!(
            ranges,
            [(0, 24), (272, 600)],
            "text order, 272..528 ∪ 372..600"
        );
        assert_eq!(merged.plain().matches(SEPARATOR).count(), 1);
        // max_fragments: head + one window; the second term's window would be a third.
        let capped = book_with(|c| c.max_fragments = 2);
        assert_eq!(dynamic_abstract(&text, &q, &capped).fragments.len(), 2);
        // … but merged, it joins the first and fits.
        let capped_merged = dynamic_abstract(
            &text,
            &q,
            &AbstractConfig {
                max_fragments: 2,
                ..cfg
            },
        );
        assert_eq!(capped_merged.fragments.len(), 2);
        assert_eq!(capped_merged.fragments[1].start_char, 272);
    }

    #[test]
    fn touching_fragments_merge() {
        // Head 0..24; a term at character 24 starts its window there (b2.2): they touch.
        let text = chinese_with("北大", 24);
        let cfg = book_with(|c| c.merge_overlaps = true);
        let a = dynamic_abstract(&text, &terms(&["北大"]), &cfg);
        assert_eq!(a.fragments.len(), 1);
        assert_eq!(a.fragments[0].text, chars(&text, 0, 280));
    }

    #[test]
    fn highlights_prefer_the_longer_term_and_ignore_ascii_case() {
        let text = "北京大学在北京。Rust and RUST and rusty.";
        let q = terms(&["北京", "北京大学", "rust"]);
        let cfg = book_with(|c| c.head = 200);
        let a = dynamic_abstract(text, &q, &cfg);
        assert_eq!(
            a.fragments[0]
                .spans()
                .filter(|s| s.1.is_some())
                .collect::<Vec<_>>(),
            [
                ("北京大学", Some(1)),
                ("北京", Some(0)),
                ("Rust", Some(2)),
                ("RUST", Some(2)),
                ("rust", Some(2))
            ]
        );
        assert!(a.marked("【", "】").starts_with("【北京大学】在【北京】。"));
    }

    #[test]
    fn html_is_escaped_and_terms_classed() {
        let text = "a<b> & \"q\" 'x' key";
        let cfg = book_with(|c| c.head = 100);
        let a = dynamic_abstract(text, &terms(&["zzz", "key"]), &cfg);
        // The head is the whole text; the term's window starts at the term (b2.2).
        assert_eq!(
            a.html(),
            "a&lt;b&gt; &amp; &quot;q&quot; &#39;x&#39; <em class=\"t1\">key</em>\
             ...<em class=\"t1\">key</em>"
        );
        // Separators appear in plain, marked, html and spans alike.
        let two = Abstract {
            fragments: vec![a.fragments[0].clone(), a.fragments[0].clone()],
        };
        assert_eq!(two.html().matches("...").count(), 1);
        assert_eq!(two.spans().filter(|s| s.0 == SEPARATOR).count(), 1);
        let json = serde_json::to_string(&two).unwrap();
        assert_eq!(serde_json::from_str::<Abstract>(&json).unwrap(), two);
    }

    #[test]
    fn bad_configurations_name_their_flag() {
        assert!(AbstractConfig::default().validate().is_ok());
        assert!(AbstractConfig::modern().validate().is_ok());
        let e = book_with(|c| c.window = 0).validate().unwrap_err();
        assert!(e.to_string().contains("--abstract-window"), "{e}");
        let e = book_with(|c| c.max_fragments = 0).validate().unwrap_err();
        assert!(e.to_string().contains("--abstract-max-fragments"), "{e}");
        assert_eq!(Unit::parse("Chars").unwrap(), Unit::Chars);
        assert!(Unit::parse("bytes").unwrap_err().is_user_error());
    }

    #[test]
    fn snapshot_colours_each_term_and_finds_first_occurrences() {
        let text = "天网是北大的搜索引擎，北大网络实验室做的。TSE = Tianwang Search Engine.";
        let q = terms(&["北大", "tse", "清华", "search engine"]);
        let s = snapshot(text, &q);
        let back: String = s.spans.iter().map(|sp| sp.text.as_str()).collect();
        assert_eq!(back, text);
        assert_eq!(s.counts, [2, 1, 0, 1]);
        assert_eq!(s.first_occurrence, [Some(1), Some(5), None, Some(7)]);
        assert_eq!(s.spans[1].text, "北大");
        assert_eq!(s.spans[5].text, "TSE");
        assert_eq!(s.spans[7].text, "Search Engine");
        assert!(snapshot("", &q).spans.is_empty());
        // A repeated term is marked as its first copy.
        assert_eq!(snapshot("ab ab", &terms(&["ab", "AB"])).counts, [2, 0]);
    }

    /// Random texts mixing ASCII, Chinese and 4-byte characters, random terms cut from them,
    /// random configurations: fragments are the text's own characters, within their budget,
    /// every highlight is a query term, and every found term's first occurrence is shown.
    #[test]
    fn property_fragments_are_whole_characters_and_highlights_are_terms() {
        let alphabet: Vec<char> = "aB 1.天网北大搜索，😀é".chars().collect();
        let mut rng = Rng::new(15);
        for round in 0..400 {
            let n = rng.below(700);
            let text: String = (0..n)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let cs: Vec<char> = text.chars().collect();
            let q: Vec<String> = (0..rng.below(4))
                .map(|_| {
                    let (a, len) = (rng.below(n.max(1)), 1 + rng.below(4));
                    cs.iter().skip(a).take(len).collect()
                })
                .collect();
            let cfg = AbstractConfig {
                head: rng.below(60),
                window: 1 + rng.below(200),
                unit: Unit::ALL[rng.below(2)],
                max_fragments: 1 + rng.below(5),
                merge_overlaps: rng.below(2) == 0,
            };
            let a = dynamic_abstract(&text, &q, &cfg);
            assert!(a.fragments.len() <= cfg.max_fragments, "round {round}");
            for (i, f) in a.fragments.iter().enumerate() {
                let len = f.text.chars().count();
                assert_eq!(f.text, chars(&text, f.start_char, f.start_char + len));
                assert!(len > 0);
                if !cfg.merge_overlaps {
                    let budget = if i == 0 && f.start_char == 0 && cfg.head > 0 {
                        cfg.head.max(2 * cfg.window)
                    } else {
                        2 * cfg.window
                    };
                    assert!(cfg.unit.measure(&f.text) <= budget, "round {round}");
                }
                let mut end = 0;
                for h in &f.highlights {
                    assert!(h.start >= end && h.end > h.start);
                    assert!(f.text.is_char_boundary(h.start) && f.text.is_char_boundary(h.end));
                    assert!(f.text[h.start..h.end].eq_ignore_ascii_case(&q[h.term]));
                    end = h.end;
                }
            }
            // With room for every window, each found term (no longer than its window) shows.
            let roomy = AbstractConfig {
                max_fragments: UNLIMITED,
                ..cfg
            };
            let a = dynamic_abstract(&text, &q, &roomy);
            for t in q
                .iter()
                .filter(|t| !t.is_empty() && cfg.unit.measure(t) <= cfg.window)
            {
                let Some(b) = text.to_ascii_lowercase().find(&t.to_ascii_lowercase()) else {
                    continue;
                };
                let at = text[..b].chars().count();
                let tl = t.chars().count();
                assert!(
                    a.fragments
                        .iter()
                        .any(|f| f.start_char <= at
                            && at + tl <= f.start_char + f.text.chars().count()),
                    "round {round}: {t:?} at {at} not shown"
                );
            }
            let s = snapshot(&text, &q);
            assert_eq!(
                s.spans.iter().map(|x| x.text.as_str()).collect::<String>(),
                text
            );
        }
    }
}
