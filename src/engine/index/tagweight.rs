//! Tianwang's base term weight from HTML tags, book §10.3.1 Table 10-2 [L3743–L3768]: every
//! occurrence of a term starts at a default W₀, and the weight Wt(tag) of **each** enclosing
//! weighted tag is added. "hello" in `<big><b>hello</b></big>` weighs WBT = W₀ + 4 + 4 [L3768];
//! a page's WBT(t, p) sums its occurrences [L3770–L3772].
//!
//! [`weighted_runs`] walks the parsed page (html5ever through scraper, so broken markup is
//! repaired as browsers do) and cuts its visible text into runs that share the same enclosing
//! weighted tags, each with the sum of their weights; [`occurrence_weight`] adds W₀. Choices where
//! the book is silent:
//!
//! * W₀ is not given; it is 1 here (editable as `w0`);
//! * tags not in Table 10-2 weigh 0 — `<H6>` included (the table stops at `<H5>`; the digest's
//!   extrapolation H6 = 1 is one override away: `h6=1`), as do `<FONT>` without a size and sizes
//!   the table does not list (`-1`, `+2`, `8`, CSS);
//! * weights add up however the tags nest, so a list item gets `<UL>` + `<LI>` = 8 although `<UL>`
//!   wraps the whole list (as the book's rule says; whether it was meant is unclear);
//! * `<title>` text is included (weight 40); `<script>`, `<style>`, `<noscript>`, `<template>` and
//!   comments are not;
//! * white space collapses as in a browser; text on both sides of a block boundary or a `<br>`
//!   stays apart by a space when it joins one run.
//!
//! ```
//! use tianwang::engine::index::tagweight::{TagWeights, occurrence_weight, weighted_runs};
//! let w = TagWeights::default();
//! let runs = weighted_runs("<p><big><b>hello</b></big> world</p>", &w);
//! assert_eq!((runs[0].text.as_str(), runs[0].weight), ("hello", 8.0));
//! assert_eq!(runs[0].tags, ["big", "b"]);
//! assert_eq!(occurrence_weight(runs[0].weight, w.w0), 9.0); // W0 + 4 + 4
//! assert_eq!(runs[1].weight, 0.0);
//! ```

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::{Html, Node};
use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// Table 10-2 as printed [L3749–L3764], in the book's order (left column, then right).
const TABLE_10_2: [(&str, f32); 24] = [
    ("<TITLE>", 40.0),
    ("<CITE>", 8.0),
    ("<EM>", 2.0),
    ("<STRONG>", 4.0),
    ("<B>", 4.0),
    ("<I>", 2.0),
    ("<BIG>", 4.0),
    ("<H1>", 12.0),
    ("<H2>", 8.0),
    ("<H3>", 4.0),
    ("<H4>", 1.0),
    ("<H5>", 1.0),
    ("<DT>", 4.0),
    ("<LI>", 4.0),
    ("<UL>", 4.0),
    ("<A>", 4.0),
    ("<FONT SIZE=7>", 16.0),
    ("<FONT SIZE=6>", 12.0),
    ("<FONT SIZE=5>", 8.0),
    ("<FONT SIZE=4>", 4.0),
    ("<FONT SIZE=3>", 1.0),
    ("<FONT SIZE=2>", 1.0),
    ("<FONT SIZE=1>", 1.0),
    ("<FONT SIZE=+1>", 4.0),
];

/// Content that is never page text.
const SKIP_TAGS: &[&str] = &["script", "style", "noscript", "template"];

/// Inline tags: text on both sides of one belongs to the same line.
const INLINE_TAGS: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
    "sup", "time", "tt", "u", "var", "wbr",
];

/// The tag weights: W₀, Wt per tag, and `<FONT SIZE=…>` apart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TagWeights {
    /// Every occurrence's default weight (the book gives none; 1).
    pub w0: f32,
    /// Lower-case tag → weight; a tag not listed weighs 0.
    pub tags: Vec<(String, f32)>,
    /// `<FONT SIZE=1>` … `<FONT SIZE=7>`.
    pub font_sizes: [f32; 7],
    /// `<FONT SIZE=+1>`.
    pub font_plus1: f32,
}

impl Default for TagWeights {
    /// Table 10-2 exactly, W₀ = 1.
    fn default() -> Self {
        let mut w = TagWeights {
            w0: 1.0,
            tags: Vec::new(),
            font_sizes: [0.0; 7],
            font_plus1: 0.0,
        };
        for (label, weight) in TABLE_10_2 {
            if let Ok(key) = Key::parse(label) {
                w.put(key, weight);
            }
        }
        w
    }
}

/// What an override names.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    W0,
    /// Size 1..=7 as index 0..=6.
    FontSize(usize),
    FontPlus1,
    Tag(String),
}

impl Key {
    /// `title`, `<H1>`, `font7`, `font size=7`, `<FONT SIZE=+1>`, `w0` …
    fn parse(s: &str) -> Result<Key> {
        let bad = |why: &str| EngineError::invalid("--tag-weights", format!("`{s}`: {why}"));
        let k = s
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim()
            .to_ascii_lowercase();
        if k == "w0" {
            return Ok(Key::W0);
        }
        if let Some(rest) = k.strip_prefix("font") {
            let size: String = rest.split_whitespace().collect();
            let size = size.strip_prefix("size=").unwrap_or(&size);
            if !size.is_empty() {
                return match size {
                    "+1" => Ok(Key::FontPlus1),
                    _ => match size.parse::<usize>() {
                        Ok(n @ 1..=7) => Ok(Key::FontSize(n - 1)),
                        _ => Err(bad("FONT sizes are 1 to 7 and +1")),
                    },
                };
            }
        }
        let mut chars = k.chars();
        let name_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !name_ok {
            return Err(bad(
                "not a tag name (letters, digits and `-`), `fontN` or `w0`",
            ));
        }
        Ok(Key::Tag(k))
    }
}

impl TagWeights {
    /// Table 10-2 as printed, for display: `("<TITLE>", 40.0)`, …, `("<FONT SIZE=+1>", 4.0)`.
    pub(crate) fn table_10_2() -> Vec<(&'static str, f32)> {
        TABLE_10_2.to_vec()
    }

    /// The weight of `tag` (`title`, `<H1>`, `font7`, `font size=+1`, `w0` …); an unlisted or
    /// malformed name weighs 0.
    pub fn get(&self, tag: &str) -> f32 {
        match Key::parse(tag) {
            Ok(Key::W0) => self.w0,
            Ok(Key::FontSize(i)) => self.font_sizes[i],
            Ok(Key::FontPlus1) => self.font_plus1,
            Ok(Key::Tag(t)) => self
                .tags
                .iter()
                .find(|(name, _)| *name == t)
                .map_or(0.0, |(_, w)| *w),
            Err(_) => 0.0,
        }
    }

    /// Set the weight of `tag` (named as in [`TagWeights::get`]); the name and the weight (a
    /// finite number ≥ 0) are checked, naming `--tag-weights`.
    pub fn set(&mut self, tag: &str, weight: f32) -> Result<()> {
        let key = Key::parse(tag)?;
        if !weight.is_finite() || weight < 0.0 {
            return Err(EngineError::invalid(
                "--tag-weights",
                format!("`{tag}`: the weight {weight} is not a finite number ≥ 0"),
            ));
        }
        self.put(key, weight);
        Ok(())
    }

    fn put(&mut self, key: Key, weight: f32) {
        match key {
            Key::W0 => self.w0 = weight,
            Key::FontSize(i) => self.font_sizes[i] = weight,
            Key::FontPlus1 => self.font_plus1 = weight,
            Key::Tag(t) => match self.tags.iter_mut().find(|(name, _)| *name == t) {
                Some(entry) => entry.1 = weight,
                None => self.tags.push((t, weight)),
            },
        }
    }

    #[cfg(test)]
    /// Table 10-2 with `s` applied: comma-separated `name=weight` items such as
    /// `title=40,h1=12,h6=1,font7=20,font+1=4,w0=2`. The first bad item is named in the error.
    pub(crate) fn parse_overrides(s: &str) -> Result<TagWeights> {
        let mut w = TagWeights::default();
        w.apply_overrides(s)?;
        Ok(w)
    }

    /// Apply `name=weight` items (see [`TagWeights::parse_overrides`]) to these weights.
    pub(crate) fn apply_overrides(&mut self, s: &str) -> Result<()> {
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((name, value)) = item.rsplit_once('=') else {
                return Err(EngineError::invalid(
                    "--tag-weights",
                    format!("`{item}`: expected name=weight, e.g. title=40"),
                ));
            };
            let weight: f32 = value.trim().parse().map_err(|_| {
                EngineError::invalid(
                    "--tag-weights",
                    format!("`{item}`: `{}` is not a number", value.trim()),
                )
            })?;
            if name.trim().is_empty() {
                return Err(EngineError::invalid(
                    "--tag-weights",
                    format!("`{item}`: no tag name"),
                ));
            }
            self.set(name, weight).map_err(|e| match e {
                EngineError::InvalidParam { name, message } => EngineError::InvalidParam {
                    name,
                    message: format!("in `{item}`: {message}"),
                },
                e => e,
            })?;
        }
        Ok(())
    }

    /// Every weight under the name [`TagWeights::set`] takes: `w0`, the tags, `font1` … `font7`,
    /// `font+1` (what an editable table shows).
    pub fn entries(&self) -> Vec<(String, f32)> {
        let mut out = vec![("w0".to_string(), self.w0)];
        out.extend(self.tags.iter().cloned());
        for (i, w) in self.font_sizes.iter().enumerate() {
            out.push((format!("font{}", i + 1), *w));
        }
        out.push(("font+1".to_string(), self.font_plus1));
        out
    }

    /// The weight of `<FONT SIZE=size>`: 1–7 and +1 as in the table, anything else 0.
    pub(crate) fn font_size(&self, size: &str) -> f32 {
        match size.trim() {
            "+1" => self.font_plus1,
            s => match s.parse::<usize>() {
                Ok(n @ 1..=7) => self.font_sizes[n - 1],
                _ => 0.0,
            },
        }
    }

    /// The element's label and weight when it weighs anything.
    fn element(&self, el: &scraper::node::Element) -> Option<(String, f32)> {
        let name = el.name();
        let (label, w) = match (name, el.attr("size")) {
            ("font", Some(size)) => (format!("font size={}", size.trim()), self.font_size(size)),
            _ => (name.to_string(), self.get(name)),
        };
        (w != 0.0).then_some((label, w))
    }
}

/// A stretch of visible text under the same weighted tags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightedRun {
    pub text: String,
    /// The sum of the weights of all enclosing weighted tags (W₀ not included).
    pub weight: f32,
    /// The enclosing weighted tags, outermost first (`font size=7` for sized fonts).
    pub tags: Vec<String>,
}

/// The weight of one term occurrence in a run of weight `run_weight`: W₀ + Σ Wt [L3766–L3768].
pub fn occurrence_weight(run_weight: f32, w0: f32) -> f32 {
    w0 + run_weight
}

/// The visible text of `html` (title included) in runs, each with the summed weight of its
/// enclosing weighted tags. Adjacent text under the same weighted elements is one run.
pub fn weighted_runs(html: &str, w: &TagWeights) -> Vec<WeightedRun> {
    let doc = Html::parse_document(html);
    let mut runs: Vec<WeightedRun> = Vec::new();
    // The elements of the last run, to know whether new text joins it.
    let mut last_ids: Vec<NodeId> = Vec::new();
    // Open weighted elements: (node, label, weight); per open element whether it pushed one.
    let mut weighted: Vec<(NodeId, String, f32)> = Vec::new();
    let mut pushed: Vec<bool> = Vec::new();
    let mut skip = 0usize;
    // A block boundary, `<br>` or white space since the last text.
    let mut space = false;
    for edge in doc.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(el) => {
                    if skip > 0 || SKIP_TAGS.contains(&el.name()) {
                        skip += 1;
                        continue;
                    }
                    if !INLINE_TAGS.contains(&el.name()) {
                        space = true;
                    }
                    let weighs = w.element(el);
                    pushed.push(weighs.is_some());
                    if let Some((label, wt)) = weighs {
                        weighted.push((node.id(), label, wt));
                    }
                }
                Node::Text(t) if skip == 0 => {
                    let text = collapse(t);
                    if text.trim().is_empty() {
                        space |= !text.is_empty();
                        continue;
                    }
                    let ids: Vec<NodeId> = weighted.iter().map(|x| x.0).collect();
                    match runs.last_mut() {
                        Some(run) if ids == last_ids => {
                            if space && !run.text.ends_with(' ') && !text.starts_with(' ') {
                                run.text.push(' ');
                            }
                            run.text.push_str(&text);
                        }
                        _ => {
                            runs.push(WeightedRun {
                                text,
                                weight: weighted.iter().map(|x| x.2).sum(),
                                tags: weighted.iter().map(|x| x.1.clone()).collect(),
                            });
                            last_ids = ids;
                        }
                    }
                    space = false;
                }
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(el) = node.value() {
                    if skip > 0 {
                        skip -= 1;
                        continue;
                    }
                    if !INLINE_TAGS.contains(&el.name()) {
                        space = true;
                    }
                    if pushed.pop() == Some(true) {
                        weighted.pop();
                    }
                }
            }
        }
    }
    for run in &mut runs {
        run.text = run.text.trim().to_string();
    }
    runs.retain(|r| !r.text.is_empty());
    runs
}

/// Runs of white space as one space.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(html: &str) -> Vec<(String, f32, Vec<String>)> {
        weighted_runs(html, &TagWeights::default())
            .into_iter()
            .map(|r| (r.text, r.weight, r.tags))
            .collect()
    }

    fn run(text: &str, weight: f32, tags: &[&str]) -> (String, f32, Vec<String>) {
        (
            text.to_string(),
            weight,
            tags.iter().map(|t| t.to_string()).collect(),
        )
    }

    #[test]
    fn table_10_2_is_the_default() {
        let w = TagWeights::default();
        let expect = [
            ("title", 40.0),
            ("cite", 8.0),
            ("em", 2.0),
            ("strong", 4.0),
            ("b", 4.0),
            ("i", 2.0),
            ("big", 4.0),
            ("h1", 12.0),
            ("h2", 8.0),
            ("h3", 4.0),
            ("h4", 1.0),
            ("h5", 1.0),
            ("dt", 4.0),
            ("li", 4.0),
            ("ul", 4.0),
            ("a", 4.0),
        ];
        for (tag, wt) in expect {
            assert_eq!(w.get(tag), wt, "{tag}");
            assert_eq!(w.get(&format!("<{}>", tag.to_uppercase())), wt, "{tag}");
        }
        assert_eq!(w.tags.len(), expect.len());
        assert_eq!(w.font_sizes, [1.0, 1.0, 1.0, 4.0, 8.0, 12.0, 16.0]);
        assert_eq!(w.font_plus1, 4.0);
        assert_eq!(w.get("<FONT SIZE=7>"), 16.0);
        assert_eq!(w.get("font+1"), 4.0);
        assert_eq!(w.w0, 1.0);
        // Not in the table: 0.
        for tag in ["h6", "p", "div", "u", "font", "blink"] {
            assert_eq!(w.get(tag), 0.0, "{tag}");
        }
        let t = TagWeights::table_10_2();
        assert_eq!(t.len(), 24);
        assert_eq!(t[0], ("<TITLE>", 40.0));
        assert_eq!(t[23], ("<FONT SIZE=+1>", 4.0));
        for (label, wt) in t {
            assert_eq!(w.get(label), wt, "{label}");
        }
        assert_eq!(w.entries().len(), 1 + 16 + 7 + 1);
    }

    #[test]
    fn the_books_big_b_hello_example() {
        // [L3768]: WBT = W0 + Wi(big) + Wi(b) = W0 + 4 + 4.
        let w = TagWeights::default();
        let r = weighted_runs("<big><b>hello</b></big>", &w);
        assert_eq!(
            r.iter()
                .map(|r| (r.text.clone(), r.weight, r.tags.clone()))
                .collect::<Vec<_>>(),
            [run("hello", 8.0, &["big", "b"])]
        );
        assert_eq!(occurrence_weight(r[0].weight, w.w0), w.w0 + 4.0 + 4.0);
        assert_eq!(occurrence_weight(r[0].weight, 2.5), 10.5);
    }

    #[test]
    fn title_weighs_40_and_head_scripts_are_skipped() {
        let html = "<html><head><title> 天网 搜索 </title><style>p{}</style>\
                    <script>var x = '<b>no</b>';</script></head>\
                    <body><!-- a comment --><noscript>enable js</noscript><p>正文</p></body></html>";
        assert_eq!(
            runs(html),
            [run("天网 搜索", 40.0, &["title"]), run("正文", 0.0, &[])]
        );
    }

    #[test]
    fn font_sizes_and_plus_one() {
        let html = "<FONT SIZE=7>a</FONT> <font size=\"+1\">b</font> \
                    <font size=\"-1\">c</font><font>d</font><font size=3>e</font>";
        assert_eq!(
            runs(html),
            [
                run("a", 16.0, &["font size=7"]),
                run("b", 4.0, &["font size=+1"]),
                run("cd", 0.0, &[]),
                run("e", 1.0, &["font size=3"]),
            ]
        );
    }

    #[test]
    fn list_items_add_ul_and_li() {
        // The digest's additive quirk: <UL> wraps the list, yet every item gets 4 + 4.
        assert_eq!(
            runs("<ul><li>one</li><li><a href=x>two</a></li></ul>"),
            [
                run("one", 8.0, &["ul", "li"]),
                run("two", 12.0, &["ul", "li", "a"]),
            ]
        );
    }

    #[test]
    fn unknown_tags_weigh_nothing_and_text_joins_across_them() {
        assert_eq!(
            runs("<p>foo<span>bar</span></p><p>baz</p><blink>x</blink><h6>y</h6>"),
            [run("foobar baz x y", 0.0, &[])]
        );
        // Same tags but a different element: separate runs; nesting order kept.
        assert_eq!(
            runs("<b>hello <i>x</i> world</b><b>again</b>"),
            [
                run("hello", 4.0, &["b"]),
                run("x", 6.0, &["b", "i"]),
                run("world", 4.0, &["b"]),
                run("again", 4.0, &["b"]),
            ]
        );
        // Nested copies of one tag add up too; an override can weigh H6.
        assert_eq!(runs("<b><b>x</b></b>"), [run("x", 8.0, &["b", "b"])]);
        let w = TagWeights::parse_overrides("h6=1").unwrap();
        assert_eq!(weighted_runs("<h6>y</h6>", &w)[0].weight, 1.0);
        assert!(runs("").is_empty());
    }

    #[test]
    fn overrides_parse_and_name_the_bad_item() {
        let w =
            TagWeights::parse_overrides(" title=50, h1=12 ,font7=20,<FONT SIZE=+1>=3,w0=2,h6=1,")
                .unwrap();
        assert_eq!(w.get("title"), 50.0);
        assert_eq!(w.font_sizes[6], 20.0);
        assert_eq!(w.font_plus1, 3.0);
        assert_eq!(w.w0, 2.0);
        assert_eq!(w.get("h6"), 1.0);
        assert_eq!(w.get("b"), 4.0, "untouched");
        assert_eq!(
            TagWeights::parse_overrides("").unwrap(),
            TagWeights::default()
        );
        for (bad, says) in [
            ("title", "`title`"),
            ("title=40,h1=x", "`h1=x`"),
            ("h1=-1", "`h1=-1`"),
            ("h1=inf", "`h1=inf`"),
            ("font9=3", "`font9=3`"),
            ("=3", "`=3`"),
            ("my tag=1", "`my tag=1`"),
            ("1b=2", "`1b=2`"),
        ] {
            let e = TagWeights::parse_overrides(bad).unwrap_err();
            assert!(e.is_user_error());
            let msg = e.to_string();
            assert!(
                msg.contains("--tag-weights") && msg.contains(says),
                "{bad}: {msg}"
            );
        }
        let mut w = TagWeights::default();
        w.set("marquee", 3.0).unwrap();
        assert_eq!(w.get("MARQUEE"), 3.0);
        assert!(w.set("b", f32::NAN).is_err());
        let json = serde_json::to_string(&w).unwrap();
        assert_eq!(serde_json::from_str::<TagWeights>(&json).unwrap(), w);
    }
}
