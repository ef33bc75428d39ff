//! Boilerplate: text that documents share without being reprints of each other — a portal's
//! legal disclaimer appended to every article, a by-line format, the template lines DocView
//! left in a page, the headlines of a related-articles list. It must not make two unrelated
//! articles of one site look like reprints, nor hide a short partial reprint behind a long
//! disclaimer. CCDet prunes "features that several pages of one site share" (seed 001 §2.2, the
//! site's template); I-Match drops the corpus's most frequent words [002:L77]; here the same
//! idea works without knowing the site, on sentences and lines.
//!
//! 1. Every document is cut into **units** (sentences and lines, [`normalise_units`]); a unit
//!    is its normalised characters, so width and punctuation edits do not change it. Exact
//!    copies (the same normalised text) count once.
//! 2. Units shared by the same documents form a **block** (a three-sentence disclaimer is one
//!    block; so is the first paragraph of a story and its partial reprints).
//! 3. A block is boilerplate when the documents that hold it tell at least `boiler_stories`
//!    (3) **different stories** besides it: a document tells a story when what it has beyond
//!    the block and the boilerplate found so far (headline aside) is at least 20 characters and
//!    a quarter of its text or 200 characters, and two documents tell the same story when they share half of
//!    that (the shorter one's). A partial reprint has nothing beyond the story's first part, so
//!    the story's block is never boilerplate; a disclaimer on two unrelated articles is.
//!    Blocks are judged most-diverse first, so a partial reprint that carries another site's
//!    disclaimer is judged after that disclaimer is known.
//! 4. Units held by more than `max_df` distinct texts are boilerplate outright (DF pruning).
//!
//! A method that ignores boilerplate (`best` and `ccdet` by default, every method with
//! `--boilerplate on`) reads the documents with those units removed ([`strip`]); the pair view
//! lists what was ignored in each document and why ([`Boilerplate::why`]).
//!
//! ```
//! use tianwang::engine::dedup::{run, Config, Doc, Method};
//! let tail = "\n\n免责声明：本网站所刊载信息，不代表本站观点。如转载稿涉及版权等问题，请在一周内来电与本网联系。";
//! let docs = vec![
//!     Doc::new("a", "天网", &format!("北京大学网络与分布式系统实验室开发了天网搜索引擎，每天搜集上千万个网页。{tail}")),
//!     Doc::new("b", "天气", &format!("今天的天气很好，公园里的花都开了，很多市民带着孩子出门踏青赏花。{tail}")),
//!     Doc::new("c", "马拉松", &format!("今年的城市马拉松报名人数创下新高，三万个名额在几分钟之内被抢空。{tail}")),
//! ];
//! // Without the disclaimer the three share nothing.
//! let out = run(&docs, Method::Best, &Config::default(), &()).unwrap();
//! assert!(out.pairs.is_empty());
//! let mut off = Config::default();
//! off.set("boilerplate", "off").unwrap();
//! assert!(!run(&docs, Method::Best, &off, &()).unwrap().pairs.is_empty());
//! ```

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rayon::prelude::*;
use serde::Serialize;

use super::features::{Unit, hash_chars};
use super::{Doc, Prepared};

/// Units shorter than this (normalised characters) are never boilerplate: a "图" or a page
/// number says nothing.
pub(crate) const MIN_UNIT: usize = 4;
/// A document tells a story beyond a block with at least this many characters …
pub(crate) const STORY_MIN: usize = 20;
/// … that are at least this share of its text (boilerplate found so far excluded) …
pub(crate) const STORY_SHARE: f64 = 0.25;
/// … or at least this many characters whatever the share (an article under a page template's
/// long leftover text is still a story).
pub(crate) const STORY_LONG: usize = 200;
/// Two documents tell the same story when they share this share of the shorter one's rest.
pub(crate) const SAME_STORY: f64 = 0.5;
/// Stories counted per block at most (enough to order blocks; bounds the work).
const MAX_STORIES: usize = 64;

type Fast = BuildHasherDefault<super::best::Prehashed>;

/// Why a unit is boilerplate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flag {
    /// Distinct texts (exact copies once) that hold the unit.
    pub docs: usize,
    /// Different stories told beside it (`0` for a unit pruned by document frequency alone).
    pub stories: usize,
    /// A few documents that hold it (corpus indices), for the explanation.
    pub examples: Vec<usize>,
    /// How many of those documents name a site, and how many sites (one site: a template).
    pub sites: usize,
}

/// The boilerplate of a corpus: which unit hashes are ignored, and why.
#[derive(Debug, Clone, Default)]
pub struct Boilerplate {
    pub(crate) flags: HashMap<u64, Flag, Fast>,
    /// Blocks judged and blocks found to be boilerplate.
    pub blocks: usize,
    pub flagged_blocks: usize,
}

impl Boilerplate {
    /// Why the unit with this hash is ignored, if it is.
    pub fn why(&self, hash: u64) -> Option<&Flag> {
        self.flags.get(&hash)
    }

    /// Units (distinct hashes) found to be boilerplate.
    pub fn len(&self) -> usize {
        self.flags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    pub(crate) fn is_flagged(&self, u: &Unit) -> bool {
        self.flags.contains_key(&u.hash)
    }
}

/// The corpus's normalised texts without their boilerplate, as a patch over the corpus's own
/// ([`Prepared::stripped_norm`] reads them through it), with how many characters each lost.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stripped {
    /// One entry per document: its text without the flagged units, `None` when it is the
    /// corpus's own (nothing flagged) — an unchanged text is shared, never copied.
    pub norm: Vec<Option<Vec<char>>>,
    pub removed_chars: Vec<usize>,
}

/// One distinct text's units as the detector sees them.
struct Text {
    /// Units held by at least one other text: (hash, characters, in the headline), by hash.
    shared: Vec<(u64, u32, bool)>,
    total: usize,
    head: usize,
}

/// A block: units held by exactly the same texts.
struct Block {
    owners: Vec<u32>,
    units: Vec<u64>,
}

/// Find the boilerplate of `prep`'s corpus (see the module doc).
pub(crate) fn detect(prep: &Prepared) -> Boilerplate {
    let cfg = prep.config();
    let (units, _) = prep.units();
    let (norm, _) = prep.norm();
    let docs = prep.docs();
    let n = prep.len();
    // Exact copies count once: the first of each normalised text represents it.
    let mut first: HashMap<(u64, usize), usize> = HashMap::with_capacity(n);
    let mut reps: Vec<usize> = Vec::with_capacity(n);
    for i in 0..n {
        if norm[i].is_empty() {
            continue;
        }
        let key = (hash_chars(&norm[i]), norm[i].len());
        match first.get(&key) {
            Some(&r) if norm[r] == norm[i] => {}
            _ => {
                first.insert(key, i);
                reps.push(i);
            }
        }
    }
    let mut postings: Vec<(u64, u32)> = reps
        .par_iter()
        .enumerate()
        .flat_map_iter(|(r, &i)| {
            let mut hs: Vec<u64> = units[i]
                .iter()
                .filter(|u| u.len() >= MIN_UNIT)
                .map(|u| u.hash)
                .collect();
            hs.sort_unstable();
            hs.dedup();
            hs.into_iter().map(move |h| (h, r as u32))
        })
        .collect();
    postings.par_sort_unstable();
    let cap = cfg.max_df_for(n);
    let mut out = Boilerplate::default();
    // Runs of one hash: DF 1 cannot be shared, DF above the cap is pruned outright.
    let mut df: HashMap<u64, usize, Fast> = HashMap::default();
    let mut by_owners: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut block_of: HashMap<u64, usize, Fast> = HashMap::default();
    let mut lo = 0;
    while lo < postings.len() {
        let mut hi = lo + 1;
        while hi < postings.len() && postings[hi].0 == postings[lo].0 {
            hi += 1;
        }
        let (h, run) = (postings[lo].0, &postings[lo..hi]);
        if run.len() >= 2 {
            df.insert(h, run.len());
            if run.len() > cap {
                let examples: Vec<usize> = run.iter().take(3).map(|x| reps[x.1 as usize]).collect();
                out.flags.insert(
                    h,
                    Flag {
                        docs: run.len(),
                        stories: 0,
                        sites: sites_of(docs, &examples),
                        examples,
                    },
                );
            } else {
                // A block is the units held by exactly the same texts.
                let owners: Vec<u32> = run.iter().map(|x| x.1).collect();
                let b = *by_owners.entry(owners).or_insert_with_key(|o| {
                    blocks.push(Block {
                        owners: o.clone(),
                        units: Vec::new(),
                    });
                    blocks.len() - 1
                });
                blocks[b].units.push(h);
                block_of.insert(h, b);
            }
        }
        lo = hi;
    }
    out.blocks = blocks.len();
    // Each distinct text's shared units.
    let texts: Vec<Text> = reps
        .par_iter()
        .map(|&i| {
            let mut shared: Vec<(u64, u32, bool)> = units[i]
                .iter()
                .filter(|u| u.len() >= MIN_UNIT && df.contains_key(&u.hash))
                .map(|u| (u.hash, u.len() as u32, u.head))
                .collect();
            shared.sort_unstable_by_key(|x| (x.0, !x.2));
            shared.dedup_by_key(|x| x.0);
            Text {
                shared,
                total: norm[i].len(),
                head: units[i].iter().filter(|u| u.head).map(Unit::len).sum(),
            }
        })
        .collect();
    let mut state = State {
        texts: &texts,
        block_of: &block_of,
        flagged: vec![false; blocks.len()],
        gone: vec![(0, 0); texts.len()],
    };
    // Pruned units are gone before any block is judged.
    for (t, text) in texts.iter().enumerate() {
        for &(h, len, head) in &text.shared {
            if out.flags.contains_key(&h) {
                state.gone[t].0 += len as usize;
                if head {
                    state.gone[t].1 += len as usize;
                }
            }
        }
    }
    let min = cfg.boiler_stories.max(2);
    // First judgement with nothing flagged: which blocks could be boilerplate, most diverse
    // (stories per holder) first.
    let mut cands: Vec<(usize, usize)> = (0..blocks.len())
        .into_par_iter()
        .map(|b| (b, state.stories(&blocks[b], b)))
        .filter(|&(_, s)| s >= min)
        .collect();
    cands.sort_by(|x, y| {
        let (bx, by) = (&blocks[x.0], &blocks[y.0]);
        let rx = x.1 as f64 / bx.owners.len().min(MAX_STORIES) as f64;
        let ry = y.1 as f64 / by.owners.len().min(MAX_STORIES) as f64;
        ry.total_cmp(&rx)
            .then(by.owners.len().cmp(&bx.owners.len()))
            .then(bx.units[0].cmp(&by.units[0]))
    });
    for (b, _) in cands {
        let stories = state.stories(&blocks[b], b);
        if stories < min {
            continue;
        }
        state.flag(&blocks[b], b);
        out.flagged_blocks += 1;
        let examples: Vec<usize> = blocks[b]
            .owners
            .iter()
            .take(3)
            .map(|&o| reps[o as usize])
            .collect();
        let flag = Flag {
            docs: blocks[b].owners.len(),
            stories,
            sites: sites_of(docs, &examples),
            examples,
        };
        for &h in &blocks[b].units {
            out.flags.insert(h, flag.clone());
        }
    }
    out
}

/// How many sites the example documents name (0 when none names one).
fn sites_of(docs: &[Doc], examples: &[usize]) -> usize {
    let mut s: Vec<&str> = examples
        .iter()
        .map(|&i| docs[i].site.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    s.sort_unstable();
    s.dedup();
    s.len()
}

struct State<'a> {
    texts: &'a [Text],
    block_of: &'a HashMap<u64, usize, Fast>,
    flagged: Vec<bool>,
    /// Characters of each text already found to be boilerplate (all, in the headline).
    gone: Vec<(usize, usize)>,
}

impl State<'_> {
    fn ignored(&self, h: u64, block: usize) -> bool {
        match self.block_of.get(&h) {
            Some(&b) => b == block || self.flagged[b],
            None => true, // pruned by document frequency
        }
    }

    /// (rest, body rest) of text `t` beyond `block` and the boilerplate so far.
    fn rest(&self, t: usize, block: usize) -> (usize, usize) {
        let text = &self.texts[t];
        let (mut inb, mut inb_head) = (0usize, 0usize);
        for &(h, len, head) in &text.shared {
            if self.block_of.get(&h) == Some(&block) {
                inb += len as usize;
                if head {
                    inb_head += len as usize;
                }
            }
        }
        let rest = text.total.saturating_sub(inb + self.gone[t].0);
        let head = text.head.saturating_sub(inb_head + self.gone[t].1);
        (rest, rest.saturating_sub(head))
    }

    fn same_story(&self, x: usize, y: usize, block: usize, rx: usize, ry: usize) -> bool {
        let (a, b) = (&self.texts[x].shared, &self.texts[y].shared);
        let (mut i, mut j, mut common) = (0, 0, 0usize);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if !self.ignored(a[i].0, block) {
                        common += a[i].1 as usize;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        common as f64 >= SAME_STORY * rx.min(ry).max(1) as f64
    }

    /// Different stories told beside `block` by the texts that hold it (at most
    /// [`MAX_STORIES`]).
    fn stories(&self, blk: &Block, b: usize) -> usize {
        let mut leaders: Vec<(usize, usize)> = Vec::new();
        for &o in &blk.owners {
            let t = o as usize;
            let (rest, body) = self.rest(t, b);
            let size = self.texts[t].total.saturating_sub(self.gone[t].0);
            if body < STORY_MIN || ((body as f64) < STORY_SHARE * size as f64 && body < STORY_LONG)
            {
                continue; // a copy of the block (a partial reprint), not another story
            }
            let known = leaders
                .iter()
                .any(|&(l, lr)| self.same_story(t, l, b, rest, lr));
            if !known {
                leaders.push((t, rest));
                if leaders.len() >= MAX_STORIES {
                    break;
                }
            }
        }
        leaders.len()
    }

    fn flag(&mut self, blk: &Block, b: usize) {
        for &o in &blk.owners {
            let t = o as usize;
            for &(h, len, head) in &self.texts[t].shared {
                if self.block_of.get(&h) == Some(&b) {
                    self.gone[t].0 += len as usize;
                    if head {
                        self.gone[t].1 += len as usize;
                    }
                }
            }
        }
        self.flagged[b] = true;
    }
}

/// Whether [`strip`] removes this unit: long enough and flagged.
fn removed(u: &Unit, bp: &Boilerplate) -> bool {
    u.len() >= MIN_UNIT && bp.is_flagged(u)
}

/// The flagged units of a document's units (those [`strip`] removes).
fn flagged<'u>(units: &'u [Unit], bp: &Boilerplate) -> Vec<&'u Unit> {
    units.iter().filter(|u| removed(u, bp)).collect()
}

/// The normalised texts with the flagged units' characters removed, as a patch: `None` for a
/// document with nothing flagged (its text is read from the corpus, not copied).
pub(crate) fn strip(prep: &Prepared, bp: &Boilerplate) -> Stripped {
    let (units, _) = prep.units();
    let (norm, _) = prep.norm();
    let rows: Vec<(Option<Vec<char>>, usize)> = (0..prep.len())
        .into_par_iter()
        .map(|i| {
            let text = &norm[i];
            if !units[i].iter().any(|u| removed(u, bp)) {
                // A corpus that is itself a patched view keeps its own patch.
                return (norm.is_patched(i).then(|| text.to_vec()), 0);
            }
            let mut kept = Vec::with_capacity(text.len());
            for u in &units[i] {
                if !removed(u, bp) {
                    kept.extend_from_slice(&text[u.norm.0 as usize..u.norm.1 as usize]);
                }
            }
            let removed = text.len() - kept.len();
            (Some(kept), removed)
        })
        .collect();
    let (norm, removed_chars) = rows.into_iter().unzip();
    Stripped {
        norm,
        removed_chars,
    }
}

/// Document `i` with the flagged units' bytes removed from its headline and body, or `None`
/// when nothing in it is flagged.
pub(crate) fn strip_doc(prep: &Prepared, bp: &Boilerplate, i: usize) -> Option<Doc> {
    let (units, _) = prep.units();
    let d = &prep.docs()[i];
    let flagged = flagged(&units[i], bp);
    if flagged.is_empty() {
        return None;
    }
    let (headline, body) = split_back(d, &d.text(), &flagged);
    Some(Doc {
        headline,
        body,
        ..d.clone()
    })
}

/// Every document without its boilerplate (the same names, order and sites), for the methods
/// that read a document's text.
pub(crate) fn strip_docs(prep: &Prepared, bp: &Boilerplate) -> Vec<Doc> {
    (0..prep.len())
        .into_par_iter()
        .map(|i| strip_doc(prep, bp, i).unwrap_or_else(|| prep.docs()[i].clone()))
        .collect()
}

/// The headline and body of a stripped text ([`Doc::text`] is headline, a blank line, body).
fn split_back(d: &Doc, text: &str, flagged: &[&Unit]) -> (String, String) {
    let cut = |from: usize, to: usize| -> String {
        let mut s = String::new();
        let mut pos = from;
        for u in flagged {
            let (a, b) = (u.bytes.0 as usize, u.bytes.1 as usize);
            if b <= from || a >= to {
                continue;
            }
            s.push_str(&text[pos..a.max(pos)]);
            pos = b.min(to);
        }
        if pos < to {
            s.push_str(&text[pos..to]);
        }
        s.trim().to_string()
    };
    if d.headline.is_empty() {
        (String::new(), cut(0, text.len()))
    } else if d.body.is_empty() {
        (cut(0, text.len()), String::new())
    } else {
        let h = d.headline.len();
        (cut(0, h), cut(h + 2, text.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dedup::Config;

    const DISCLAIMER: &str = "免责声明：本网站所刊载信息，不代表本站观点。如转载稿涉及版权等问题，请在一周内来电或来函与本网联系。";

    fn story(k: usize) -> String {
        let s = [
            "北京大学网络实验室今天发布了天网搜索引擎的新版本，每天可以抓取上千万个网页。",
            "今年春季的全国马拉松赛事报名人数再创新高，多个城市的名额几分钟内就被抢空。",
            "气象台预报明天有一次明显的降温过程，北方大部地区的气温将下降八到十度左右。",
            "博物馆新开的青铜器展厅吸引了大批观众，展出的文物有不少是首次与公众见面。",
        ];
        format!(
            "{}\n\n{}",
            s[k % 4],
            s[(k + 1) % 4].chars().rev().collect::<String>()
        )
    }

    #[test]
    fn a_disclaimer_on_unrelated_articles_is_boilerplate_a_story_is_not() {
        let full = format!("{}\n\n{DISCLAIMER}", story(0));
        let first: String = story(0).split("\n\n").next().unwrap().to_string();
        let docs = vec![
            Doc::new("a", "天网发布", &full),
            Doc::new("a-copy", "转载：天网发布", &full),
            Doc::new("a-part", "天网发布", &first),
            Doc::new("b", "马拉松", &format!("{}\n\n{DISCLAIMER}", story(1))),
            Doc::new("c", "降温", &format!("{}\n\n{DISCLAIMER}", story(2))),
        ];
        let prep = Prepared::new(&docs, &Config::default());
        let (bp, _) = prep.boilerplate();
        let (units, _) = prep.units();
        let text = docs[0].text();
        let flagged: Vec<&str> = units[0]
            .iter()
            .filter(|u| bp.is_flagged(u))
            .map(|u| &text[u.bytes.0 as usize..u.bytes.1 as usize])
            .collect();
        assert_eq!(
            flagged,
            [
                "免责声明：本网站所刊载信息，不代表本站观点。",
                "如转载稿涉及版权等问题，请在一周内来电或来函与本网联系。"
            ]
        );
        let why = bp.why(units[0].last().unwrap().hash).unwrap();
        assert_eq!((why.docs, why.stories), (4, 3), "{why:?}"); // a and its copy differ in the headline
        // The story's first paragraph is shared by a, its copy and its partial reprint: one
        // story, kept.
        assert!(!bp.is_flagged(&units[2][1]));
        let (s, _) = prep.stripped();
        let (sd, _) = prep.stripped_docs();
        assert!(!sd[3].body.contains("免责声明"), "{}", sd[3].body);
        assert_eq!(sd[3].headline, "马拉松");
        assert!(s.removed_chars[3] > 40);
        assert_eq!(s.removed_chars[2], 0);
    }

    #[test]
    fn the_stripped_view_shares_the_texts_it_did_not_change() {
        let docs = vec![
            Doc::new("a", "天网发布", &format!("{}\n\n{DISCLAIMER}", story(0))),
            Doc::new("b", "马拉松", &format!("{}\n\n{DISCLAIMER}", story(1))),
            Doc::new("c", "降温", &format!("{}\n\n{DISCLAIMER}", story(2))),
            Doc::new("d", "展览", &story(3)),
        ];
        let prep = Prepared::new(&docs, &Config::default());
        let (s, _) = prep.stripped();
        assert!(s.norm[0].is_some() && s.norm[1].is_some() && s.norm[2].is_some());
        assert!(s.norm[3].is_none(), "an unflagged text is copied");
        let (norm, _) = prep.norm();
        let (view, _) = prep.stripped_norm();
        assert!(std::ptr::eq(view.get(3), norm.get(3)));
        assert!(!std::ptr::eq(view.get(0), norm.get(0)));
        assert_eq!(view.get(0).len() + s.removed_chars[0], norm.get(0).len());
        assert!(view.get(0).len() < norm.get(0).len());
        // A view of a view keeps the outer patch where nothing more is removed.
        let inner = Prepared::with_norm(&docs, &Config::default(), view, 0.0);
        let (again, _) = inner.stripped();
        assert!(again.norm[3].is_none());
        // The documents are stripped only when asked, and only those that lost something.
        let (sd, _) = prep.stripped_docs();
        assert!(!sd[0].body.contains("免责声明") && sd[3] == docs[3]);
        assert!(strip_doc(&prep, prep.boilerplate().0, 3).is_none());
    }

    #[test]
    fn a_run_that_drops_its_units_finds_what_a_shared_corpus_finds() {
        use crate::engine::dedup::{Method, run, run_prepared};
        let full = format!("{}\n\n{DISCLAIMER}", story(0));
        let docs = vec![
            Doc::new("a", "天网发布", &full),
            Doc::new("a-copy", "转载：天网发布", &full),
            Doc::new("b", "马拉松", &format!("{}\n\n{DISCLAIMER}", story(1))),
            Doc::new("c", "降温", &format!("{}\n\n{DISCLAIMER}", story(2))),
            Doc::new("d", "展览", &story(3)),
        ];
        let mut on = Config::default();
        on.set("boilerplate", "on").unwrap();
        for cfg in [Config::default(), on] {
            let prep = Prepared::new(&docs, &cfg);
            for m in [Method::Best, Method::CcDet, Method::Md5, Method::MinHash] {
                let owned = run(&docs, m, &cfg, &()).unwrap();
                let shared = run_prepared(&prep, m, &()).unwrap();
                assert_eq!(owned.pairs, shared.pairs, "{m:?}");
                assert_eq!(owned.clusters, shared.clusters, "{m:?}");
            }
        }
        let best = run(&docs, Method::Best, &Config::default(), &()).unwrap();
        assert!(best.pairs.iter().any(|p| (p.a, p.b) == (0, 1)));
        assert!(
            best.stats
                .iter()
                .any(|(k, v)| k == "boilerplate_docs" && *v == 4.0)
        );
    }

    #[test]
    fn a_partial_reprint_with_another_sites_disclaimer_keeps_its_story() {
        let other = "本文来源于网络，如有侵权请联系删除。转载请注明出处，谢谢合作。";
        let first: String = story(0).split("\n\n").next().unwrap().to_string();
        let docs = vec![
            Doc::new("a", "天网发布", &story(0)),
            Doc::new(
                "a-copy",
                "天网发布",
                &format!("{}\n\n（本文有删改）", story(0)),
            ),
            Doc::new("part", "天网", &format!("{first}\n\n{other}")),
            Doc::new("x", "马拉松", &format!("{}\n\n{other}", story(1))),
            Doc::new("y", "降温", &format!("{}\n\n{other}", story(2))),
        ];
        let prep = Prepared::new(&docs, &Config::default());
        let (bp, _) = prep.boilerplate();
        let (units, _) = prep.units();
        // The other site's notice is boilerplate; the story's first paragraph is not.
        assert!(units[2].iter().any(|u| bp.is_flagged(u)));
        let story_unit = units[2].iter().find(|u| !u.head).unwrap();
        assert!(!bp.is_flagged(story_unit));
    }
}
