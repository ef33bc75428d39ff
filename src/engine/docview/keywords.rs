//! Block weights, keywords (formula 7-1), the abstract and related links [L2247–L2398].
//!
//! * A block's influence factor λ_b is the sum of the factors of its weighty tags whose text is
//!   real important content, i.e. not one of the noise phrases [L2247]; 1 when none.
//! * Weight propagation (Fig 7-4, [L2249–L2257]): the block's weight is multiplied by λ_b; its
//!   parent and the parent's other subtrees by √λ_b; then, with the parent as the new source,
//!   once more outwards (geometric: λ^¼, …), stopping at `<body>` or when the parent's weight
//!   passes the cap.
//! * Formula 7-1 [L2270–L2278]: w_i = Σ_j BWeight_j·BTf_ij / ‖·‖₂ over the body blocks, with
//!   BTf counted in the block's own text (ambiguity B-5).
//! * Keywords: weight above mean × β [L2338–L2343], at most α; single characters and numbers
//!   are not keywords.
//! * Abstract [L2353–L2368]: paragraphs are the children of the body root (the nearest common
//!   ancestor of the body blocks); each gives its best sentences by summed keyword weight.
//! * Related links [L2370–L2398]: links inside the body are related; a link elsewhere is related
//!   when its link group's anchor text has cosine similarity ≥ β with the body, unless it sits in
//!   navigation, an ad or a footer (noise links, excluded by definition [L2201]).

use std::borrow::Cow;

use super::body::Analysis;
use super::tree::PageTree;
use super::{AbstractMode, Keyword, Link, Params, Propagation, Role};
use crate::engine::text::fxhash::HashIds;
use crate::engine::text::segment::Segmenter;

/// Weighty-tag texts that are noise, not emphasis [L2247]. The book counts 22 such phrases and
/// names six (Tel, Fax, 联系电话, 传真, 广告服务, 前一页); the rest are of the same kind.
const NOISE_PHRASES: &[&str] = &[
    "tel",
    "fax",
    "联系电话",
    "传真",
    "广告服务",
    "前一页",
    "后一页",
    "下一页",
    "上一页",
    "首页",
    "返回",
    "打印",
    "关闭",
    "更多",
    "点击",
    "版权所有",
    "联系我们",
    "网站地图",
    "免责声明",
    "e-mail",
    "email",
    "地址",
];

/// Is a weighty tag's text a noise phrase (exact match after trimming, or a phrase followed by
/// a colon and a value, as in "Tel: 1234")?
pub(crate) fn is_noise_phrase(text: &str) -> bool {
    let text = text.trim();
    // Lower-casing changes nothing in most texts (Chinese, lower-case ASCII): then the text is
    // its own lower case and needs no copy.
    let lower: Cow<'_, str> = if text.chars().all(lowercase_is_identity) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.to_lowercase())
    };
    let head = lower
        .split([':', '：'])
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
    NOISE_PHRASES.contains(&head)
}

/// Whether `c.to_lowercase()` is `c` itself (decided without the case tables for ASCII and
/// the main CJK block, none of whose characters has a lower case).
#[inline]
fn lowercase_is_identity(c: char) -> bool {
    if c.is_ascii() {
        return !c.is_ascii_uppercase();
    }
    if matches!(c, '\u{4E00}'..='\u{9FFF}') {
        return true;
    }
    let mut l = c.to_lowercase();
    l.next() == Some(c) && l.next().is_none()
}

pub(crate) struct KeywordAnalysis<'t> {
    pub keywords: Vec<Keyword>,
    /// Σ_j BWeight_j·BTf_ij and the TF of every term of the body.
    pub body_vector: TermVec<'t, (f64, usize)>,
    /// The body vector's Euclidean norm.
    pub body_norm: f64,
    pub influence: Vec<f64>,
    pub weights: Vec<f64>,
}

impl KeywordAnalysis<'_> {
    /// No keywords, every block weight 1 (for [`super::Detail::Body`]).
    pub(crate) fn none(blocks: usize) -> Self {
        KeywordAnalysis {
            keywords: Vec::new(),
            body_vector: TermVec::default(),
            body_norm: 0.0,
            influence: vec![1.0; blocks],
            weights: vec![1.0; blocks],
        }
    }
}

fn factor(tag: &str, lambda: f64) -> f64 {
    match tag {
        "h1" | "h2" | "h3" | "b" | "strong" => lambda,
        _ => 1.0 + (lambda - 1.0) / 2.0,
    }
}

/// Influence factors and propagated weights of every block.
pub(crate) fn block_weights(tree: &PageTree, a: &Analysis, p: &Params) -> (Vec<f64>, Vec<f64>) {
    let n = tree.blocks.len();
    let mut influence = vec![0.0f64; n];
    for w in &tree.weighty {
        let r = a.roles[w.block];
        if (r == Role::Body || r == Role::Title) && !is_noise_phrase(&w.text) {
            influence[w.block] += factor(w.tag, p.lambda);
        }
    }
    for f in &mut influence {
        if *f <= 1.0 {
            *f = 1.0;
        }
    }
    let body = tree.body();
    // Weights are products of factors applied to ranges of the depth-first order (a parent's
    // subtree, minus the source's subtree): kept as sums of logarithms in a Fenwick tree with
    // range add and point query, so a page with thousands of blocks and hundreds of weighty
    // tags costs O(k·depth·log n) instead of O(k·depth·n).
    let mut log_w = Fenwick::new(n);
    for (leaf, &lambda) in influence.iter().enumerate() {
        if lambda <= 1.0 {
            continue;
        }
        log_w.range_add(leaf, leaf + 1, lambda.ln());
        let mut source = leaf;
        let mut f = lambda.sqrt();
        while let Some(parent) = tree.blocks[source].parent {
            if parent <= body
                || tree.blocks[parent].tag == "body"
                || log_w.point(parent).exp() > p.weight_cap
            {
                break;
            }
            // The parent and its other subtrees: its whole subtree but the source's.
            log_w.range_add(parent, tree.blocks[parent].sub_end, f.ln());
            log_w.range_add(source, tree.blocks[source].sub_end, -f.ln());
            match p.propagation {
                Propagation::Geometric => f = f.sqrt(),
                Propagation::Constant => {}
                Propagation::TwoLevel => break,
            }
            source = parent;
        }
    }
    let weights: Vec<f64> = (0..n).map(|i| log_w.point(i).exp()).collect();
    (influence, weights)
}

/// A term vector: each term once, in the order of first occurrence, with its value; found by
/// hash. Sums over it (norms, dot products) therefore run in the text's order, whatever the
/// hash: the printed weights depend on the page alone.
pub(crate) struct TermVec<'t, V> {
    ids: HashIds,
    terms: Vec<(Cow<'t, str>, V)>,
}

impl<V> Default for TermVec<'_, V> {
    fn default() -> Self {
        TermVec {
            ids: HashIds::default(),
            terms: Vec::new(),
        }
    }
}

impl<'t, V: Default> TermVec<'t, V> {
    /// An empty vector with room for `n` terms.
    pub(crate) fn with_capacity(n: usize) -> Self {
        TermVec {
            ids: HashIds::with_capacity(n),
            terms: Vec::with_capacity(n),
        }
    }

    /// The value of `term`, a default one appended when it is new.
    pub(crate) fn entry(&mut self, term: Cow<'t, str>) -> &mut V {
        // A page's text is far below 2^32 terms; `as` is exact here.
        let n = self.terms.len() as u32;
        let terms = &self.terms;
        let at = self.ids.find_or_insert(
            term_hash(&term),
            n,
            |i| terms[i as usize].0 == term,
            |i| term_hash(&terms[i as usize].0),
        );
        if at == n {
            self.terms.push((term, V::default()));
        }
        &mut self.terms[at as usize].1
    }
}

impl<'t, V> TermVec<'t, V> {
    pub(crate) fn get(&self, term: &str) -> Option<&V> {
        let at = self
            .ids
            .find(term_hash(term), |i| self.terms[i as usize].0 == term)?;
        Some(&self.terms[at as usize].1)
    }

    /// Terms and values in the order of first occurrence.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.terms.iter().map(|(t, v)| (t.as_ref(), v))
    }
}

/// A term's hash: its bytes read eight at a time (a short tail by two overlapping loads, as
/// wyhash does), the length mixed in, each word folded in by a full 64×64→128-bit multiply,
/// so both the low bits (the table's slot) and the high bits (its tag) depend on every byte.
/// Terms are short, trusted keys: no defence against chosen collisions is needed.
#[inline]
fn term_hash(s: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let fold = |a: u64| {
        let p = u128::from(a) * u128::from(K);
        (p as u64) ^ ((p >> 64) as u64)
    };
    let word = |b: &[u8], at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |b: &[u8], at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&b[at..at + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    let b = s.as_bytes();
    let n = b.len();
    let mut h = (n as u64).wrapping_mul(K);
    let mut at = 0;
    while n - at > 8 {
        h = fold(h ^ word(b, at));
        at += 8;
    }
    // The last 1 to 8 bytes (none for the empty term).
    let tail = match n - at {
        0 => return h,
        8 => word(b, at),
        4..=7 => half(b, at) | half(b, n - 4) << 32,
        _ => u64::from(b[at]) | u64::from(b[at + (n - at) / 2]) << 8 | u64::from(b[n - 1]) << 16,
    };
    fold(h ^ tail ^ K)
}

/// Fenwick tree over differences: add to a range, read one point.
struct Fenwick(Vec<f64>);

impl Fenwick {
    fn new(n: usize) -> Self {
        Fenwick(vec![0.0; n + 1])
    }

    fn add(&mut self, i: usize, v: f64) {
        let mut i = i + 1;
        while i < self.0.len() {
            self.0[i] += v;
            i += i & i.wrapping_neg();
        }
    }

    fn range_add(&mut self, from: usize, to: usize, v: f64) {
        self.add(from, v);
        if to < self.0.len() - 1 {
            self.add(to, -v);
        }
    }

    fn point(&self, i: usize) -> f64 {
        let (mut i, mut s) = (i + 1, 0.0);
        while i > 0 {
            s += self.0[i];
            i -= i & i.wrapping_neg();
        }
        s
    }
}

fn keyword_candidate(w: &str) -> bool {
    let two_chars = w.chars().nth(1).is_some();
    two_chars && !w.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Keywords of the body by formula 7-1.
pub(crate) fn analyse<'t>(
    tree: &'t PageTree,
    a: &Analysis,
    p: &Params,
    seg: &Segmenter,
) -> KeywordAnalysis<'t> {
    let (influence, weights) = block_weights(tree, a, p);
    // One vector from term to (Σ BWeight·BTf, TF), the terms borrowed from the lines (the
    // segmenter cuts at line ends anyway, so each line alone gives the terms the block's lines
    // joined would).
    // Room for the distinct terms up front (about one a dozen bytes of text on the annotated
    // pages), so the table seldom grows and rehashes.
    let text_bytes: usize = (tree.lines.iter().enumerate())
        .filter(|(i, _)| matches!(a.line_roles[*i], Role::Body | Role::Title))
        .map(|(_, l)| l.text.len())
        .sum();
    let mut acc: TermVec<'t, (f64, usize)> = TermVec::with_capacity(text_bytes / 12);
    for (i, l) in tree.lines.iter().enumerate() {
        if !matches!(a.line_roles[i], Role::Body | Role::Title) {
            continue;
        }
        let bw = weights[l.block];
        seg.for_each_term(a.line_text(tree, i), p.segmenter, |t| {
            let e = acc.entry(t);
            e.0 += bw;
            e.1 += 1;
        });
    }
    let norm = acc.iter().map(|(_, v)| v.0 * v.0).sum::<f64>().sqrt();
    let weight = |v: f64| if norm > 0.0 { v / norm } else { 0.0 };
    let mut cands: Vec<(&str, f64, usize)> = acc
        .iter()
        .filter(|(w, _)| keyword_candidate(w))
        .map(|(w, v)| (w, v.0, v.1))
        .collect();
    let mean = if cands.is_empty() {
        0.0
    } else {
        cands.iter().map(|k| weight(k.1)).sum::<f64>() / cands.len() as f64
    };
    cands.retain(|k| weight(k.1) > mean * p.beta_kw);
    // The best `max_keywords` in order: the terms differ, so the order is total and picking
    // them before sorting gives what sorting all and truncating would.
    let order = |x: &(&str, f64, usize), y: &(&str, f64, usize)| {
        y.1.total_cmp(&x.1).then_with(|| x.0.cmp(y.0))
    };
    if cands.len() > p.max_keywords {
        cands.select_nth_unstable_by(p.max_keywords, order);
        cands.truncate(p.max_keywords);
    }
    cands.sort_by(order);
    let keywords = cands
        .into_iter()
        .map(|(w, v, tf)| Keyword {
            word: w.to_string(),
            weight: weight(v),
            tf,
            weighted_tf: v,
        })
        .collect();
    KeywordAnalysis {
        keywords,
        body_vector: acc,
        body_norm: norm,
        influence,
        weights,
    }
}

/// Size of a text in GB18030 bytes (a Chinese character is 2 bytes, as in the book).
pub(crate) fn gb_bytes(s: &str) -> usize {
    s.chars()
        .map(|c| match c as u32 {
            0..=0x7f => 1,
            0x80..=0xffff => 2,
            _ => 4,
        })
        .sum()
}

/// The longest prefix of `s` within `budget` GB18030 bytes.
fn gb_prefix(s: &str, budget: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += gb_bytes(c.encode_utf8(&mut [0u8; 4]));
        if used > budget {
            return &s[..i];
        }
    }
    s
}

/// Whether `c` ends a sentence (Chinese and Latin sentence ends, and the line end).
fn ends_sentence(c: char) -> bool {
    SENTENCE_ENDS.contains(&c)
}

/// Sentences and their weights: the sum of the weights of the keyword occurrences inside a
/// sentence, in the order of their positions (and of the keywords at one position).
struct Scorer<'k> {
    /// Each keyword's first character and the keyword.
    firsts: Vec<(char, &'k Keyword)>,
    /// A 1024-bit filter of the characters the scan must look at: the keywords' first
    /// characters and the sentence ends. Most characters are neither and are passed over after
    /// one bit test, without the keyword list or the sentence-end test.
    filter: [u64; 16],
}

/// The characters that end a sentence ([`ends_sentence`]).
const SENTENCE_ENDS: [char; 8] = ['。', '！', '？', '；', '!', '?', ';', '\n'];

impl<'k> Scorer<'k> {
    fn new(keywords: &'k [Keyword]) -> Self {
        let firsts: Vec<(char, &Keyword)> = keywords
            .iter()
            .filter_map(|k| k.word.chars().next().map(|c| (c, k)))
            .collect();
        let mut filter = [0u64; 16];
        for c in firsts.iter().map(|f| f.0).chain(SENTENCE_ENDS) {
            filter[Self::slot(c) >> 6] |= 1 << (Self::slot(c) & 63);
        }
        Scorer { firsts, filter }
    }

    #[inline]
    fn slot(c: char) -> usize {
        ((c as u32).wrapping_mul(0x9E37_79B1) >> 22) as usize
    }

    /// Split `text` into sentences at the sentence ends, keeping the punctuation, trimmed and
    /// non-empty, and append each with its weight to `out`. One pass: the keyword occurrences
    /// (`hits`: start, end, weight) are found along the way, and a sentence counts those that
    /// lie wholly inside it once trimmed.
    fn sentences<'s>(
        &self,
        text: &'s str,
        hits: &mut Vec<(usize, usize, f64)>,
        out: &mut Vec<(&'s str, f64)>,
    ) {
        let mut close = |from: usize, to: usize, hits: &mut Vec<(usize, usize, f64)>| {
            let s = text[from..to].trim();
            if !s.is_empty() {
                let start = s.as_ptr() as usize - text.as_ptr() as usize;
                let end = start + s.len();
                let mut total = 0.0;
                for &(a, b, w) in hits.iter() {
                    if a >= start && b <= end {
                        total += w;
                    }
                }
                out.push((s, total));
            }
            hits.clear();
        };
        hits.clear();
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if self.filter[Self::slot(c) >> 6] >> (Self::slot(c) & 63) & 1 == 0 {
                continue;
            }
            for (fc, k) in &self.firsts {
                if *fc == c && text[i..].starts_with(k.word.as_str()) {
                    hits.push((i, i + k.word.len(), k.weight));
                }
            }
            if ends_sentence(c) {
                let end = i + c.len_utf8();
                close(start, end, hits);
                start = end;
            }
        }
        close(start, text.len(), hits);
    }
}

/// The abstract: best sentences per paragraph, or the static prefix.
pub(crate) fn abstract_text(
    tree: &PageTree,
    a: &Analysis,
    kw: &KeywordAnalysis<'_>,
    p: &Params,
) -> String {
    let body_lines: Vec<usize> = (0..tree.lines.len())
        .filter(|&i| a.line_roles[i] == Role::Body)
        .collect();
    if p.abstract_mode == AbstractMode::Static {
        let body = a.body_text(tree);
        return gb_prefix(&body, p.abstract_bytes).to_string();
    }
    // Body root: nearest common ancestor of the body lines' blocks.
    let up = |b: usize| tree.blocks[b].parent.unwrap_or(b);
    let lca = |mut x: usize, mut y: usize| {
        while tree.blocks[x].depth > tree.blocks[y].depth {
            x = up(x);
        }
        while tree.blocks[y].depth > tree.blocks[x].depth {
            y = up(y);
        }
        while x != y && tree.blocks[x].parent.is_some() {
            (x, y) = (up(x), up(y));
        }
        x
    };
    let root = body_lines
        .iter()
        .map(|&i| tree.lines[i].block)
        .reduce(lca)
        .unwrap_or(0);
    // Paragraph of each body line: the root's child containing it, or the line itself. A
    // paragraph's text is its lines joined by newlines, and a newline ends a sentence, so its
    // sentences are those of its lines in turn: they are taken from the lines, uncopied.
    let paragraph_of = |i: usize| {
        let l = &tree.lines[i];
        if l.block == root {
            usize::MAX - i
        } else {
            let mut b = l.block;
            while tree.blocks[b].parent.is_some_and(|p| p != root) {
                b = up(b);
            }
            b
        }
    };
    // All sentences in order with their weights, and where each paragraph starts.
    let scorer = Scorer::new(&kw.keywords);
    let (mut sents, mut starts, mut hits) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = None;
    for &i in &body_lines {
        let key = paragraph_of(i);
        if last != Some(key) {
            starts.push(sents.len());
            last = Some(key);
        }
        scorer.sentences(a.line_text(tree, i), &mut hits, &mut sents);
    }
    starts.push(sents.len());
    let mut picked: Vec<&str> = Vec::new();
    let (mut scored, mut take): (Vec<(usize, f64)>, Vec<usize>) = (Vec::new(), Vec::new());
    for w in starts.windows(2) {
        let para = &sents[w[0]..w[1]];
        scored.clear();
        scored.extend(para.iter().enumerate().map(|(i, s)| (i, s.1)));
        scored.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        take.clear();
        take.extend(
            scored
                .iter()
                .take(p.sentences_per_paragraph)
                .map(|(i, _)| *i),
        );
        take.sort_unstable();
        picked.extend(take.iter().map(|&i| para[i].0));
    }
    let joined = picked.concat();
    if gb_bytes(&joined) <= p.abstract_bytes {
        joined
    } else {
        let mut cut = gb_prefix(&joined, p.abstract_bytes.saturating_sub(3)).to_string();
        cut.push('…');
        cut
    }
}

/// Cosine of the body vector `a` (norm `na`) and the anchor-text vector `b`.
fn cosine(a: &TermVec<'_, (f64, usize)>, na: f64, b: &TermVec<'_, f64>) -> f64 {
    let dot: f64 = b
        .iter()
        .filter_map(|(k, v)| a.get(k).map(|x| x.0 * v))
        .sum();
    let nb = b.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// Every hyperlink, resolved, with its relatedness.
pub(crate) fn links<'t>(
    tree: &'t PageTree,
    a: &Analysis,
    kw: &KeywordAnalysis<'_>,
    page: Option<&url::Url>,
    p: &Params,
    seg: &Segmenter,
) -> Vec<Link> {
    let base = match (&tree.base_href, page) {
        (Some(b), Some(u)) => u.join(b).ok(),
        (Some(b), None) => url::Url::parse(b).ok(),
        (None, Some(u)) => Some(u.clone()),
        (None, None) => None,
    };
    // Link group: the nearest ancestor-or-self holding at least two links.
    let group_of = |b: usize| {
        let mut cur = Some(b);
        while let Some(x) = cur {
            if tree.blocks[x].sub_links >= 2 || tree.blocks[x].tag == "body" {
                return x;
            }
            cur = tree.blocks[x].parent;
        }
        b
    };
    // Anchor-text vectors of the link groups outside the body, built in one pass; a group's
    // vector is found by its block.
    let link_group: Vec<Option<usize>> = tree
        .links
        .iter()
        .map(|l| (a.roles[l.block] != Role::Body).then(|| group_of(l.block)))
        .collect();
    let mut slot_of = vec![usize::MAX; tree.blocks.len()];
    let mut groups: Vec<TermVec<'t, f64>> = Vec::new();
    for (l, g) in tree.links.iter().zip(&link_group) {
        if let Some(g) = *g {
            if slot_of[g] == usize::MAX {
                slot_of[g] = groups.len();
                groups.push(TermVec::default());
            }
            let v = &mut groups[slot_of[g]];
            seg.for_each_term(&l.anchor, p.segmenter, |t| *v.entry(t) += 1.0);
        }
    }
    let group_sim: Vec<f64> = groups
        .iter()
        .map(|v| cosine(&kw.body_vector, kw.body_norm, v))
        .collect();
    let mut out = Vec::new();
    for (l, g) in tree.links.iter().zip(&link_group) {
        let h = l.href.trim();
        let scheme = |p: &str| {
            h.as_bytes()
                .get(..p.len())
                .is_some_and(|x| x.eq_ignore_ascii_case(p.as_bytes()))
        };
        if h.is_empty()
            || h.starts_with('#')
            || scheme("javascript:")
            || scheme("mailto:")
            || scheme("tel:")
        {
            continue;
        }
        let url = match &base {
            Some(b) => b
                .join(h)
                .map(|u| u.to_string())
                .unwrap_or_else(|_| h.to_string()),
            None => h.to_string(),
        };
        let (related, similarity) = match g {
            // A body link is related, unless it is the navigation link cut off a body line.
            None => (!a.in_cut_tail(tree, l.block, &l.anchor), None),
            Some(g) => {
                // Navigation, ads and footers are the noise links the definition excludes
                // [L2201]; their similarity is still reported.
                let noise = matches!(a.roles[l.block], Role::Navigation | Role::Ad | Role::Footer);
                let sim = group_sim.get(slot_of[*g]).copied().unwrap_or(0.0);
                (!noise && sim >= p.beta_link && sim > 0.0, Some(sim))
            }
        };
        out.push(Link {
            url,
            anchor: l.anchor.clone(),
            related,
            block: l.block,
            similarity,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_phrases() {
        assert!(is_noise_phrase("Tel: 010-1234"));
        assert!(is_noise_phrase(" 联系电话 "));
        assert!(is_noise_phrase("前一页"));
        assert!(!is_noise_phrase("搜索引擎原理"));
        assert!(is_noise_phrase(" E-Mail：a@b.c") && !is_noise_phrase("ＴＥＬ"));
    }

    #[test]
    fn lowercase_identity_is_exact() {
        let sample = ('\0'..='\u{FFFF}').chain('\u{10000}'..='\u{1FFFF}');
        for c in sample.chain(['\u{4E00}', '\u{9FFF}', 'İ', 'ǅ', 'Σ']) {
            let same = c.to_lowercase().eq([c]);
            assert_eq!(lowercase_is_identity(c), same, "{c:?}");
        }
    }

    #[test]
    fn term_vector_keeps_first_occurrence_order_and_finds_every_term() {
        // Terms of every length from 0 to 40 bytes, Chinese and Latin, some repeated.
        let words: Vec<String> = (0..400)
            .map(|i| {
                let n = i % 41;
                let base = if i % 2 == 0 {
                    "检索引擎原理与技术"
                } else {
                    "abcdefgh"
                };
                base.chars().cycle().skip(i % 7).take(n).collect()
            })
            .collect();
        let mut v: TermVec<'_, usize> = TermVec::with_capacity(2);
        let mut first: Vec<&str> = Vec::new();
        for w in &words {
            *v.entry(Cow::Borrowed(w.as_str())) += 1;
            if !first.contains(&w.as_str()) {
                first.push(w);
            }
        }
        let order: Vec<&str> = v.iter().map(|(t, _)| t).collect();
        assert_eq!(order, first);
        for t in &first {
            let n = words.iter().filter(|w| w == t).count();
            assert_eq!(v.get(t), Some(&n), "{t:?}");
        }
        assert_eq!(v.get("不在其中"), None);
        // The hash reads every byte: terms that differ in one byte hash apart.
        let mut seen = std::collections::HashSet::new();
        for n in 1..=24 {
            for at in 0..n {
                let mut b = vec![b'a'; n];
                b[at] = b'b';
                let t = String::from_utf8(b).unwrap_or_default();
                assert!(seen.insert(term_hash(&t)), "{t}");
            }
        }
    }

    #[test]
    fn gb_byte_budget() {
        assert_eq!(gb_bytes("搜索a"), 5);
        assert_eq!(gb_prefix("搜索引擎", 5), "搜索");
        assert_eq!(gb_prefix("ab", 5), "ab");
    }

    #[test]
    fn sentence_ends_are_in_the_scan_filter() {
        let listed = (0..0x11_0000u32)
            .filter_map(char::from_u32)
            .filter(|&c| ends_sentence(c))
            .collect::<Vec<_>>();
        assert_eq!(listed.len(), SENTENCE_ENDS.len());
        assert!(listed.iter().all(|c| SENTENCE_ENDS.contains(c)));
        let scorer = Scorer::new(&[]);
        for c in SENTENCE_ENDS {
            let slot = Scorer::slot(c);
            assert_eq!(scorer.filter[slot >> 6] >> (slot & 63) & 1, 1, "{c:?}");
        }
    }

    #[test]
    fn sentence_split_keeps_punctuation() {
        let kw = |word: &str, weight| Keyword {
            word: word.into(),
            weight,
            tf: 1,
            weighted_tf: weight,
        };
        let keywords = [
            kw("句。第", 8.0),
            kw("第二", 1.0),
            kw("二句", 2.0),
            kw("third", 4.0),
        ];
        let (mut hits, mut out) = (Vec::new(), vec![("前", 0.5)]);
        Scorer::new(&keywords).sentences(
            "第一句。第二句！ third? 第二二句\n尾巴 ",
            &mut hits,
            &mut out,
        );
        let expected = [
            ("前", 0.5),
            ("第一句。", 0.0),
            ("第二句！", 3.0),
            ("third?", 4.0),
            ("第二二句", 3.0),
            ("尾巴", 0.0),
        ];
        assert_eq!(out, expected);
    }
}
