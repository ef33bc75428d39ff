//! The analysis half of the index build (book §5.4 [L1630–L1641], ch. 8.2.3 [L2714–L2722]):
//! a document segmented into its distinct terms with positions and tag weights WBT — flat,
//! three allocations a document and none a term, each term's FxHash computed on the
//! segmenting threads — and the serial [`Inverter`] that numbers documents and gives terms
//! their lexicon ids by first appearance (a hash table of 4-byte ids) before the sink.
//!
//! ```text
//! SourceDoc ─analyse (pool)→ Analysed { words, terms, positions } ─Inverter (serial)→ DocSink
//! ```

use std::borrow::Cow;

use super::{DocSink, DocTerms, IndexConfig};
use crate::engine::error::{EngineError, Result};
use crate::engine::index::disk::{self, DocInfo};
use crate::engine::index::source::{self, SourceDoc};
use crate::engine::text::fxhash::{FxMap, HashIds};
use crate::engine::text::segment::Segmenter;

/// One document analysed: its distinct terms in byte order, each with its positions (all in
/// one array) and tag weight — three allocations a document, none a term.
pub(super) struct Analysed {
    pub(super) info: DocInfo,
    pub(super) out_docs: Vec<u32>,
    pub(super) text: String,
    /// The terms' texts, one after another (`terms[k].word_end` ends the k-th).
    pub(super) words: String,
    pub(super) terms: Vec<ATerm>,
    /// Every term's positions, ascending, term after term.
    pub(super) positions: Vec<u32>,
}

/// A distinct term of an [`Analysed`] document.
pub(super) struct ATerm {
    /// Where its text ends in `words` (it starts where the previous one ends).
    pub(super) word_end: usize,
    /// FxHash of its text, computed on the segmenting threads for the lexicon.
    pub(super) hash: u64,
    /// Where its positions end in `positions`.
    pub(super) pos_end: usize,
    /// WBT: Σ (W0 + tag weight) over its occurrences.
    pub(super) wbt: f32,
}

/// Fields are placed in one position stream, this many characters apart, so a phrase never
/// spans two of them.
pub(super) const FIELD_GAP: u32 = 16;

/// FxHash of a term's bytes (the lexicon's hash).
fn term_hash(t: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::engine::text::fxhash::FxHasher::default();
    h.write(t.as_bytes());
    h.finish()
}

/// The tokens of `text` as (term, position, W0 + `extra`), appended to `toks`.
fn push_tokens<'a>(
    seg: &Segmenter,
    cfg: &IndexConfig,
    text: &'a str,
    base: u32,
    extra: f32,
    toks: &mut Vec<(Cow<'a, str>, u32, f32)>,
) {
    let w = cfg.w0 + extra;
    seg.for_each_token_at(text, cfg.method, cfg.stop_words, cfg.all_tokens, |t, at| {
        toks.push((t, base + at as u32, w));
    });
}

pub(super) fn analyse(
    d: SourceDoc,
    seg: &Segmenter,
    cfg: &IndexConfig,
    weights: &crate::engine::index::tagweight::TagWeights,
) -> Analysed {
    let title_w = weights.get("title");
    let html_wbt = d
        .html
        .as_deref()
        .map(|h| html_term_weights(h, seg, cfg, weights));
    let url_words = (!d.url.is_empty()).then(|| source::url_words(&d.url));
    let title_chars = d.title.chars().count() as u32;
    let body_chars = d.body.chars().count() as u32;
    // Every occurrence, borrowed from the document unless lower-casing changed it; sorted by
    // (term, position) below, which groups a term's occurrences in the order they were cut
    // (positions grow through the fields), so its WBT sums them in the same order as before.
    let mut toks: Vec<(Cow<'_, str>, u32, f32)> =
        Vec::with_capacity((d.title.len() + d.body.len()) / 2 + 8);
    let mut base = 0u32;
    push_tokens(seg, cfg, &d.title, base, title_w, &mut toks);
    base += title_chars + 1;
    push_tokens(seg, cfg, &d.body, base, 0.0, &mut toks);
    base += body_chars + FIELD_GAP;
    for a in &d.anchors {
        push_tokens(seg, cfg, a, base, 0.0, &mut toks);
        base += a.chars().count() as u32 + FIELD_GAP;
    }
    if let Some(u) = &url_words {
        push_tokens(seg, cfg, u, base, 0.0, &mut toks);
    }
    toks.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let len = toks.len() as u32;
    let mut words = String::with_capacity(toks.iter().map(|t| t.0.len()).sum::<usize>() / 2);
    let mut terms: Vec<ATerm> = Vec::new();
    let mut positions: Vec<u32> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i].0;
        let mut wbt = 0f32;
        let mut j = i;
        while j < toks.len() && toks[j].0 == *t {
            positions.push(toks[j].1);
            wbt += toks[j].2;
            j += 1;
        }
        if let Some(&(n, sum)) = html_wbt.as_ref().and_then(|h| h.get(t.as_ref())) {
            // A page: WBT sums W0 + the enclosing tags' weights over the term's occurrences
            // in the page as the browser shows it [L3766–L3772]; anchor and URL words add W0
            // each.
            wbt = sum + cfg.w0 * ((j - i) as f32 - n as f32).max(0.0);
        }
        words.push_str(t);
        terms.push(ATerm {
            word_end: words.len(),
            hash: term_hash(t),
            pos_end: positions.len(),
            wbt,
        });
        i = j;
    }
    drop(toks);
    let ln = len.max(1) as f32;
    let mut from = 0;
    let norm_tf = terms
        .iter()
        .map(|t| {
            let tf = t.pos_end - from;
            from = t.pos_end;
            (tf as f32 / ln).powi(2)
        })
        .sum::<f32>()
        .sqrt();
    let text = format!("{}\n{}", d.title, d.body);
    Analysed {
        out_docs: d.out_docs,
        info: DocInfo {
            key: d.key,
            title: if d.title.is_empty() {
                d.body.chars().take(60).collect()
            } else {
                d.title
            },
            url: d.url,
            len,
            distinct: terms.len() as u32,
            chars: title_chars + body_chars,
            lhn: d.lhn,
            raw_lhn: d.raw_lhn,
            crawled_at: d.crawled_at,
            norms: [norm_tf, (terms.len() as f32).sqrt(), 0.0],
            ..DocInfo::default()
        },
        text,
        words,
        terms,
        positions,
    }
}

/// (occurrences, Σ (W0 + tag weights)) of each term of a page's visible text.
fn html_term_weights(
    html: &str,
    seg: &Segmenter,
    cfg: &IndexConfig,
    w: &crate::engine::index::tagweight::TagWeights,
) -> FxMap<String, (u32, f32)> {
    let mut out: FxMap<String, (u32, f32)> = FxMap::default();
    for run in crate::engine::index::tagweight::weighted_runs(html, w) {
        seg.for_each_token_at(
            &run.text,
            cfg.method,
            cfg.stop_words,
            cfg.all_tokens,
            |t, _| {
                let e = match out.get_mut(t.as_ref()) {
                    Some(e) => e,
                    None => out.entry(t.into_owned()).or_default(),
                };
                e.0 += 1;
                e.1 += cfg.w0 + run.weight;
            },
        );
    }
    out
}

/// The lexicon of a build: term ids by first appearance, found by the hash the segmenting
/// threads computed (a table of 4-byte ids whose texts live in `names`).
#[derive(Default)]
pub(super) struct Lexicon {
    ids: HashIds,
    hashes: Vec<u64>,
    pub(super) names: Vec<String>,
}

impl Lexicon {
    fn id(&mut self, word: &str, hash: u64) -> Result<u32> {
        let names = &self.names;
        if let Some(id) = self.ids.find(hash, |id| names[id as usize] == word) {
            return Ok(id);
        }
        let id = u32::try_from(self.names.len()).map_err(|_| {
            EngineError::invalid("source", "more than 4 294 967 295 distinct terms")
        })?;
        self.names.push(word.to_string());
        self.hashes.push(hash);
        let hashes = &self.hashes;
        self.ids.insert_new(hash, id, |id| hashes[id as usize]);
        Ok(id)
    }
}

/// The serial half of the analysis pass: a segmented batch numbered, its terms given
/// lexicon ids, handed to the sink document by document.
pub(super) struct Inverter<'s> {
    pub(super) sink: &'s mut dyn DocSink,
    pub(super) lexicon: Lexicon,
    pub(super) ndocs: usize,
    pub(super) skipped: Vec<String>,
    pub(super) ids: Vec<(u32, std::ops::Range<usize>, f32)>,
}

impl Inverter<'_> {
    pub(super) fn batch(&mut self, analysed: Vec<Analysed>) -> Result<()> {
        for a in analysed {
            let doc = u32::try_from(self.ndocs).map_err(|_| {
                EngineError::invalid("source", "more than 4 294 967 295 documents in one index")
            })?;
            self.ids.clear();
            let (mut w0, mut p0) = (0, 0);
            for t in &a.terms {
                let word = &a.words[w0..t.word_end];
                let range = p0..t.pos_end;
                (w0, p0) = (t.word_end, t.pos_end);
                if word.len() > disk::MAX_TERM_BYTES {
                    // An index term's length is 16 bits: leave the word out, and say so.
                    if self.skipped.len() < 1000 {
                        self.skipped.push(format!(
                            "document {}: a word of {} bytes left out (an index term holds at most {} bytes)",
                            a.info.key,
                            word.len(),
                            disk::MAX_TERM_BYTES
                        ));
                    }
                    continue;
                }
                let id = self.lexicon.id(word, t.hash)?;
                self.ids.push((id, range, t.wbt));
            }
            self.sink.doc(DocTerms {
                doc,
                info: a.info,
                text: &a.text,
                out_docs: &a.out_docs,
                terms: &self.ids,
                positions: &a.positions,
                names: &self.lexicon.names,
            })?;
            self.ndocs += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flat analysis gives what a map of every term's occurrences gives: terms in byte
    /// order, each with its positions ascending and its WBT summed field by field.
    #[test]
    fn analysis_matches_a_map_of_every_occurrence() {
        let cfg = IndexConfig::default();
        let w = cfg.weights().unwrap();
        let seg = Segmenter::shared();
        let (title, body) = (
            "搜索引擎 检索 Rust 检索",
            "检索引擎的原理：搜索引擎检索网页，RUST 与 rust。",
        );
        let anchor = "网页检索";
        let d = SourceDoc {
            key: "k".into(),
            title: title.into(),
            body: body.into(),
            anchors: vec![anchor.into()],
            ..SourceDoc::default()
        };
        let a = analyse(d, seg, &cfg, &w);
        let mut want: std::collections::BTreeMap<String, (Vec<u32>, f32)> = Default::default();
        let tc = title.chars().count() as u32;
        let bc = body.chars().count() as u32;
        let fields = [
            (title, 0, w.get("title")),
            (body, tc + 1, 0.0),
            (anchor, tc + 1 + bc + FIELD_GAP, 0.0),
        ];
        for (text, base, extra) in fields {
            seg.for_each_token_at(text, cfg.method, true, false, |t, at| {
                let e = want.entry(t.into_owned()).or_default();
                e.0.push(base + at as u32);
                e.1 += cfg.w0 + extra;
            });
        }
        let (mut w0, mut p0) = (0, 0);
        let mut got = Vec::new();
        for t in &a.terms {
            let word = a.words[w0..t.word_end].to_string();
            assert_eq!(t.hash, term_hash(&word));
            got.push((word, (a.positions[p0..t.pos_end].to_vec(), t.wbt)));
            (w0, p0) = (t.word_end, t.pos_end);
        }
        let want: Vec<_> = want
            .into_iter()
            .map(|(t, (mut p, w))| {
                p.sort_unstable();
                (t, (p, w))
            })
            .collect();
        assert!(want.iter().any(|(_, (p, _))| p.len() >= 3), "{want:?}");
        assert_eq!(got, want);
        assert_eq!(a.info.len as usize, a.positions.len());
        assert_eq!(a.info.distinct as usize, a.terms.len());
    }
}
