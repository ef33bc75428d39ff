//! The features every method reads, computed once per corpus and shared: normalised characters
//! (full-width folded to half-width, lower case, letters and digits only — so a reprint that
//! swaps `，` for `,` is still the same text), jieba words, document frequencies, weighted
//! keywords, and the 64-bit hash shingles are made of. Each cache remembers what it cost, and
//! a method is charged for the caches it reads even when another method built them.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Instant;

use rayon::prelude::*;

use super::Doc;
use super::config::{Config, Weights};
use crate::engine::text::segment::{Method as SegMethod, Segmenter, is_stop_word};

/// Full-width ASCII → half-width, the ideographic space → space, ASCII upper → lower,
/// traditional Chinese → simplified ([`crate::engine::text::t2s`]).
pub fn fold(c: char) -> char {
    let u = c as u32;
    let c = if (0x3400..0xFF01).contains(&u) {
        crate::engine::text::t2s::to_simplified(c)
    } else if (0xFF01..=0xFF5E).contains(&u) {
        char::from_u32(u - 0xFEE0).unwrap_or(c)
    } else if u == 0x3000 {
        ' '
    } else {
        c
    };
    c.to_ascii_lowercase()
}

/// The characters of `text` that carry content (letters, digits, CJK), folded.
pub fn normalise(text: &str) -> Vec<char> {
    text.chars()
        .map(fold)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// A unit of text for boilerplate detection ([`super::boiler`]): a sentence or a line. Its byte
/// range in [`Doc::text`], its range in the normalised characters, the hash of those characters
/// and whether it lies in the headline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub bytes: (u32, u32),
    pub norm: (u32, u32),
    pub hash: u64,
    pub head: bool,
}

impl Unit {
    /// Normalised characters in the unit.
    pub fn len(&self) -> usize {
        (self.norm.1 - self.norm.0) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.norm.1 == self.norm.0
    }
}

/// Whether `c` ends a unit: a line break or a sentence end (a `.` between two digits is a
/// decimal point, not an end).
fn ends_unit(c: char, prev: Option<char>, next: Option<char>) -> bool {
    match c {
        '\n' | '。' | '！' | '？' | '!' | '?' | '；' | ';' | '｡' | '．' => true,
        '.' => {
            !(prev.is_some_and(|p| p.is_ascii_digit()) && next.is_some_and(|n| n.is_ascii_digit()))
        }
        _ => false,
    }
}

/// [`normalise`] and the text's units in one pass; `head_bytes` is the headline's length in
/// bytes (units before it are headline units). The units' normalised ranges tile the whole
/// normalised text, so it is their concatenation.
pub fn normalise_units(text: &str, head_bytes: usize) -> (Vec<char>, Vec<Unit>) {
    let mut norm = Vec::with_capacity(text.len() / 3 + 1);
    let mut units = Vec::new();
    let (mut b0, mut n0) = (0usize, 0usize);
    let mut prev = None;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let next = it.peek().map(|x| x.1);
        let f = fold(c);
        if f.is_alphanumeric() {
            norm.push(f);
        }
        if ends_unit(c, prev, next) {
            let end = i + c.len_utf8();
            if norm.len() > n0 {
                units.push(Unit {
                    bytes: (b0 as u32, end as u32),
                    norm: (n0 as u32, norm.len() as u32),
                    hash: hash_chars(&norm[n0..]),
                    head: b0 < head_bytes,
                });
            }
            b0 = end;
            n0 = norm.len();
        }
        prev = Some(c);
    }
    if norm.len() > n0 {
        units.push(Unit {
            bytes: (b0 as u32, text.len() as u32),
            norm: (n0 as u32, norm.len() as u32),
            hash: hash_chars(&norm[n0..]),
            head: b0 < head_bytes,
        });
    }
    (norm, units)
}

/// A 64-bit hash of a character sequence (FxHash-style multiply-rotate, splitmix finish).
pub(crate) fn hash_chars(cs: &[char]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in cs {
        h = (h.rotate_left(5) ^ c as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    mix64(h)
}

/// A 64-bit hash of a string.
pub(crate) fn hash_str(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in s.as_bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    mix64(h)
}

/// The splitmix64 finaliser: every input bit moves every output bit.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes of the character k-shingles of `cs` (the whole text as one shingle when shorter),
/// sorted and without repeats.
pub(crate) fn char_shingles(cs: &[char], k: usize) -> Vec<u64> {
    let mut v: Vec<u64> = if cs.len() <= k {
        if cs.is_empty() {
            Vec::new()
        } else {
            vec![hash_chars(cs)]
        }
    } else {
        cs.windows(k).map(hash_chars).collect()
    };
    v.sort_unstable();
    v.dedup();
    v
}

/// Hashes of the word k-shingles of `words`, sorted and without repeats.
pub(crate) fn word_shingles(words: &[String], k: usize) -> Vec<u64> {
    let hash = |ws: &[String]| {
        let mut h = 0u64;
        for w in ws {
            h = mix64(h ^ hash_str(w));
        }
        h
    };
    let mut v: Vec<u64> = if words.len() <= k {
        if words.is_empty() {
            Vec::new()
        } else {
            vec![hash(words)]
        }
    } else {
        words.windows(k).map(hash).collect()
    };
    v.sort_unstable();
    v.dedup();
    v
}

/// Size of the intersection of two sorted, repeat-free slices.
pub(crate) fn intersect_sorted(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Whether a jieba token is a content word: two or more characters with a letter or CJK
/// character, not a stop word.
pub(crate) fn is_content_word(w: &str) -> bool {
    w.chars().count() >= 2 && w.chars().any(|c| c.is_alphabetic()) && !is_stop_word(w)
}

/// The normalised texts a method reads, without copying them: the corpus's own texts (`base`)
/// and, for the boilerplate-free view ([`Prepared::stripped_norm`]), a patch over them —
/// `None` where a document lost nothing, so an unchanged text is the very same slice.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Norms<'a> {
    base: &'a [Vec<char>],
    /// Empty, or one entry per document of `base`.
    patch: &'a [Option<Vec<char>>],
}

impl<'a> Norms<'a> {
    /// The texts as they are.
    pub(crate) fn of(base: &'a [Vec<char>]) -> Self {
        Norms { base, patch: &[] }
    }

    /// `base` with `patch` over it (one entry per document, `None` = unchanged).
    pub(crate) fn patched(base: &'a [Vec<char>], patch: &'a [Option<Vec<char>>]) -> Self {
        debug_assert_eq!(base.len(), patch.len());
        Norms { base, patch }
    }

    pub(crate) fn len(self) -> usize {
        self.base.len()
    }

    /// Document `i`'s normalised text.
    pub(crate) fn get(self, i: usize) -> &'a [char] {
        match self.patch.get(i) {
            Some(Some(v)) => v,
            _ => &self.base[i],
        }
    }

    /// Whether document `i`'s text differs from the base's (a patched entry).
    pub(crate) fn is_patched(self, i: usize) -> bool {
        matches!(self.patch.get(i), Some(Some(_)))
    }

    /// The texts under any patch.
    pub(crate) fn base(self) -> &'a [Vec<char>] {
        self.base
    }

    pub(crate) fn iter(self) -> impl ExactSizeIterator<Item = &'a [char]> {
        (0..self.len()).map(move |i| self.get(i))
    }

    pub(crate) fn par_iter(self) -> impl IndexedParallelIterator<Item = &'a [char]> {
        (0..self.len()).into_par_iter().map(move |i| self.get(i))
    }
}

impl std::ops::Index<usize> for Norms<'_> {
    type Output = [char];
    fn index(&self, i: usize) -> &[char] {
        self.get(i)
    }
}

/// A cached feature with the seconds it took to build.
struct Cached<T> {
    cell: OnceLock<(T, f64)>,
}

impl<T> Cached<T> {
    fn new() -> Self {
        Cached {
            cell: OnceLock::new(),
        }
    }
    fn get(&self, build: impl FnOnce() -> T) -> (&T, f64) {
        let (v, s) = self.cell.get_or_init(|| {
            let t = Instant::now();
            let v = build();
            (v, t.elapsed().as_secs_f64())
        });
        (v, *s)
    }
    /// Like [`Cached::get`], with the seconds the build says it took (when it reads other
    /// caches whose cost it charges however they were built).
    fn get_timed(&self, build: impl FnOnce() -> (T, f64)) -> (&T, f64) {
        let (v, s) = self.cell.get_or_init(build);
        (v, *s)
    }
}

/// A corpus with its features computed on demand (in parallel) and kept.
pub struct Prepared<'a> {
    docs: &'a [Doc],
    cfg: Config,
    norm: Cached<Vec<Vec<char>>>,
    /// Normalised texts given from outside ([`Prepared::with_norm`]).
    given_norm: Option<(Norms<'a>, f64)>,
    units: Cached<Vec<Vec<Unit>>>,
    boiler: Cached<super::boiler::Boilerplate>,
    stripped: Cached<super::boiler::Stripped>,
    stripped_docs: Cached<Vec<Doc>>,
    words: Cached<Vec<Vec<String>>>,
    df: Cached<HashMap<String, u32>>,
    keywords: Cached<Vec<Vec<(String, f64)>>>,
}

impl<'a> Prepared<'a> {
    pub fn new(docs: &'a [Doc], cfg: &Config) -> Self {
        Prepared {
            docs,
            cfg: cfg.clone(),
            norm: Cached::new(),
            given_norm: None,
            units: Cached::new(),
            boiler: Cached::new(),
            stripped: Cached::new(),
            stripped_docs: Cached::new(),
            words: Cached::new(),
            df: Cached::new(),
            keywords: Cached::new(),
        }
    }

    /// A corpus whose normalised texts are already known: the boilerplate-free view of a
    /// corpus ([`Prepared::stripped_norm`]) for running one method. A method that reads only
    /// the normalised texts gets the original documents (the same names, order and sites);
    /// the others get [`Prepared::stripped_docs`]. The view's units and boilerplate are those
    /// of `docs`, not of `norm`: it is not stripped again.
    pub(crate) fn with_norm(docs: &'a [Doc], cfg: &Config, norm: Norms<'a>, seconds: f64) -> Self {
        let mut p = Prepared::new(docs, cfg);
        p.given_norm = Some((norm, seconds));
        p
    }

    /// Change the configuration, keeping every feature it does not affect (the keyword
    /// weights and the boilerplate found depend on it): a sweep of k or a threshold segments
    /// the corpus once.
    pub(crate) fn set_config(&mut self, cfg: &Config) {
        if cfg.weights != self.cfg.weights {
            self.keywords = Cached::new();
        }
        if cfg.boiler_stories != self.cfg.boiler_stories || cfg.max_df != self.cfg.max_df {
            self.boiler = Cached::new();
            self.stripped = Cached::new();
            self.stripped_docs = Cached::new();
        }
        self.cfg = cfg.clone();
    }

    pub fn docs(&self) -> &'a [Doc] {
        self.docs
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Normalised characters of every document (headline and body).
    pub(crate) fn norm(&self) -> (Norms<'_>, f64) {
        if let Some(g) = self.given_norm {
            return g;
        }
        let (v, s) = self
            .norm
            .get(|| self.docs.par_iter().map(|d| normalise(&d.text())).collect());
        (Norms::of(v), s)
    }

    /// Every document's units (sentences and lines, [`normalise_units`]); computing them
    /// also fills [`Prepared::norm`] when it is not known yet.
    pub fn units(&self) -> (&Vec<Vec<Unit>>, f64) {
        self.units.get(|| {
            let t = Instant::now();
            let both: Vec<(Vec<char>, Vec<Unit>)> = self
                .docs
                .par_iter()
                .map(|d| {
                    let head = if d.headline.is_empty() {
                        0
                    } else {
                        d.headline.len()
                    };
                    normalise_units(&d.text(), head)
                })
                .collect();
            let (norm, units): (Vec<Vec<char>>, Vec<Vec<Unit>>) = both.into_iter().unzip();
            let _ = self.norm.cell.set((norm, t.elapsed().as_secs_f64()));
            units
        })
    }

    /// Forget the units (they are read only to find and strip the boilerplate): a run that
    /// owns its corpus drops them once the boilerplate-free texts are built. Asked again, they
    /// are computed again.
    pub(crate) fn release_units(&mut self) {
        self.units = Cached::new();
    }

    /// The boilerplate of the corpus ([`super::boiler::detect`]), with the seconds it took
    /// (units included).
    pub fn boilerplate(&self) -> (&super::boiler::Boilerplate, f64) {
        self.boiler.get_timed(|| {
            let (_, s0) = self.units();
            let t = Instant::now();
            let b = super::boiler::detect(self);
            (b, s0 + t.elapsed().as_secs_f64())
        })
    }

    /// The corpus's normalised texts with the boilerplate removed, as a patch over
    /// [`Prepared::norm`] (only the documents that lost something), with the seconds it took
    /// (detection included).
    pub(crate) fn stripped(&self) -> (&super::boiler::Stripped, f64) {
        self.stripped.get_timed(|| {
            let (b, s0) = self.boilerplate();
            let t = Instant::now();
            let s = super::boiler::strip(self, b);
            (s, s0 + t.elapsed().as_secs_f64())
        })
    }

    /// The boilerplate-free normalised texts: the corpus's own where a document lost nothing
    /// (shared, not copied), with the seconds they took (detection included).
    pub(crate) fn stripped_norm(&self) -> (Norms<'_>, f64) {
        let (s, secs) = self.stripped();
        let (norm, _) = self.norm();
        (Norms::patched(norm.base(), &s.norm), secs)
    }

    /// The documents with their boilerplate removed (the same names, order and sites), built
    /// when first asked — only the methods that read a document's text need them — with the
    /// seconds their building took (detection not included).
    pub(crate) fn stripped_docs(&self) -> (&[Doc], f64) {
        let (b, _) = self.boilerplate();
        let (d, s) = self
            .stripped_docs
            .get(|| super::boiler::strip_docs(self, b));
        (d.as_slice(), s)
    }

    /// Content words of every document, in order (jieba without HMM).
    pub fn words(&self) -> (&Vec<Vec<String>>, f64) {
        self.words.get(|| {
            let seg = Segmenter::shared();
            self.docs
                .par_iter()
                .map(|d| {
                    let text: String = d.text().chars().map(fold).collect();
                    seg.cut(&text, SegMethod::JiebaNoHmm)
                        .into_iter()
                        .map(|t| t.word)
                        .filter(|w| is_content_word(w))
                        .collect()
                })
                .collect()
        })
    }

    /// Document frequency of every word.
    pub fn df(&self) -> (&HashMap<String, u32>, f64) {
        let (words, s0) = self.words();
        let (df, s1) = self.df.get(|| {
            let mut df: HashMap<String, u32> = HashMap::new();
            for ws in words {
                let mut seen: Vec<&String> = ws.iter().collect();
                seen.sort_unstable();
                seen.dedup();
                for w in seen {
                    *df.entry(w.clone()).or_default() += 1;
                }
            }
            df
        });
        (df, s0 + s1)
    }

    /// IDF of a word with document frequency `df`: ln((N + 1) / df) (≥ 0, smoothed so a word
    /// in every document still counts a little).
    pub fn idf(&self, df: u32) -> f64 {
        ((self.len() as f64 + 1.0) / df.max(1) as f64).ln()
    }

    /// Every document's terms with weights, heaviest first, ties by term bytes (C-5's
    /// tie rule), as the Tianwang algorithms and SimHash read them.
    pub fn keywords(&self) -> (&Vec<Vec<(String, f64)>>, f64) {
        let use_docview = self.cfg.weights == Weights::Docview;
        let (words, s0) = self.words();
        let (df, s1) = if self.cfg.weights == Weights::Tf {
            (None, 0.0)
        } else {
            let (df, s) = self.df();
            (Some(df), s)
        };
        let (kw, s2) = self.keywords.get(|| {
            (0..self.len())
                .into_par_iter()
                .map(|i| {
                    let d = &self.docs[i];
                    if use_docview && !d.keywords.is_empty() {
                        let mut v = d.keywords.clone();
                        sort_weighted(&mut v);
                        return v;
                    }
                    let mut tf: HashMap<&str, f64> = HashMap::new();
                    for w in &words[i] {
                        *tf.entry(w.as_str()).or_default() += 1.0;
                    }
                    let mut v: Vec<(String, f64)> = tf
                        .into_iter()
                        .map(|(w, f)| {
                            let idf =
                                df.map_or(1.0, |df| self.idf(df.get(w).copied().unwrap_or(1)));
                            (w.to_string(), f * idf)
                        })
                        .collect();
                    sort_weighted(&mut v);
                    v
                })
                .collect()
        });
        (kw, s0 + s1.max(0.0) + s2)
    }
}

/// Heaviest first; equal weights by term bytes.
pub(crate) fn sort_weighted(v: &mut [(String, f64)]) {
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_folds_width_and_drops_punctuation() {
        assert_eq!(
            normalise("ＡＢＣ，天网　Search！123"),
            "abc天网search123".chars().collect::<Vec<_>>()
        );
        assert_eq!(normalise("天网，搜索。"), normalise("天网,搜索."));
    }

    #[test]
    fn shingles_and_intersection() {
        let a = char_shingles(&normalise("北京大学天网搜索引擎"), 4);
        let b = char_shingles(&normalise("北京大学天网搜索"), 4);
        assert_eq!(a.len(), 7);
        assert_eq!(b.len(), 5);
        assert_eq!(intersect_sorted(&a, &b), 5);
        assert_eq!(char_shingles(&normalise("天网"), 4).len(), 1);
        assert!(char_shingles(&[], 4).is_empty());
    }

    #[test]
    fn units_tile_the_normalised_text() {
        let text = "标题\n\n增长了3.5个百分点。第二句！\n（责任编辑：王明）";
        let (norm, units) = normalise_units(text, "标题".len());
        assert_eq!(norm, normalise(text));
        let joined: Vec<char> = units
            .iter()
            .flat_map(|u| norm[u.norm.0 as usize..u.norm.1 as usize].iter().copied())
            .collect();
        assert_eq!(joined, norm);
        let shown: Vec<&str> = units
            .iter()
            .map(|u| &text[u.bytes.0 as usize..u.bytes.1 as usize])
            .collect();
        assert_eq!(
            shown,
            [
                "标题\n",
                "增长了3.5个百分点。",
                "第二句！",
                "（责任编辑：王明）"
            ]
        );
        assert!(units[0].head && !units[1].head);
    }

    #[test]
    fn keywords_are_heaviest_first_with_a_byte_tie_rule() {
        let docs = vec![
            Doc::new("a", "搜索引擎", "搜索引擎的网页搜集。搜索引擎的索引。"),
            Doc::new("b", "天气", "今天天气很好。"),
        ];
        let p = Prepared::new(&docs, &Config::default());
        let (kw, _) = p.keywords();
        assert_eq!(kw[0][0].0, "搜索引擎");
        for w in kw[0].windows(2) {
            assert!(w[0].1 > w[1].1 || (w[0].1 == w[1].1 && w[0].0 < w[1].0));
        }
    }
}
