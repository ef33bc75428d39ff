//! The query path, book §6.3 (Fig 5-2) [L1690–L1723]: segment the query, read each term's
//! postings **rarest first** (ascending df = descending 1/DF [L1692]), intersect (AND) or
//! merge (OR) the sorted lists in O(|A| + |B|) [L1715–L1717] — with galloping skips, so a
//! rare term's few documents jump through a common term's long list — and keep the documents
//! whose positions make every quoted phrase.
//!
//! Query syntax: words (segmented with the index's method, jieba search mode by default),
//! `"quoted phrases"`, and `OR` (or `|`) anywhere to make the query a disjunction; the default
//! is AND, as in TSE [L792].
//!
//! ```
//! use tianwang::engine::index::query::{parse_syntax, Op};
//! let q = parse_syntax("北京大学 OR \"图书馆 开放\"");
//! assert_eq!(q.op, Op::Or);
//! assert_eq!(q.words, ["北京大学"]);
//! assert_eq!(q.phrases, ["图书馆 开放"]);
//! ```

use serde::{Deserialize, Serialize};

use super::build::IndexConfig;
use super::disk::Postings;
use super::reader::Index;
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::text::segment::{Method, Segmenter};

/// How the terms combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    #[default]
    And,
    Or,
}

/// The query split into its parts, before segmentation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Syntax {
    pub op: Op,
    pub words: Vec<String>,
    pub phrases: Vec<String>,
}

/// Split a query string into words, quoted phrases and the operator.
pub fn parse_syntax(q: &str) -> Syntax {
    let mut s = Syntax::default();
    let mut rest = q;
    while !rest.is_empty() {
        let Some(i) = rest.find(['"', '“', '”']) else {
            words_of(rest, &mut s);
            break;
        };
        words_of(&rest[..i], &mut s);
        let open_len = rest[i..].chars().next().map_or(1, char::len_utf8);
        let after = &rest[i + open_len..];
        match after.find(['"', '“', '”']) {
            Some(j) => {
                let p = after[..j].trim();
                if !p.is_empty() {
                    s.phrases.push(p.to_string());
                }
                let close_len = after[j..].chars().next().map_or(1, char::len_utf8);
                rest = &after[j + close_len..];
            }
            None => {
                // An unclosed quote: the rest is a phrase.
                let p = after.trim();
                if !p.is_empty() {
                    s.phrases.push(p.to_string());
                }
                break;
            }
        }
    }
    s
}

fn words_of(text: &str, s: &mut Syntax) {
    for w in text.split_whitespace() {
        match w {
            "OR" | "|" | "或" => s.op = Op::Or,
            "AND" | "&" => {}
            _ => s.words.push(w.to_string()),
        }
    }
}

/// A query ready to run: its distinct terms in query order, its phrases as term sequences.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Query {
    pub raw: String,
    pub op: Op,
    /// Every term that scores.
    pub terms: Vec<String>,
    /// The terms AND requires (a long word's dictionary pieces rather than the word).
    pub required: Vec<String>,
    pub phrases: Vec<Vec<String>>,
}

/// Segment `q` the way the index was built; `default_op` applies unless the query says OR.
/// An empty query (no term after segmentation and stop-word removal) is the user's error.
pub fn parse(q: &str, cfg: &IndexConfig, default_op: Op) -> Result<Query> {
    let seg = Segmenter::shared();
    let mut syn = parse_syntax(q);
    if default_op == Op::Or {
        syn.op = Op::Or;
    }
    let mut terms: Vec<String> = Vec::new();
    let push = |t: String, terms: &mut Vec<String>| {
        if !terms.contains(&t) {
            terms.push(t);
        }
    };
    let mut required: Vec<String> = Vec::new();
    for w in &syn.words {
        // Each word as jieba cuts it; in search mode a long word is also indexed as its
        // dictionary pieces, and a document that has the word inside a longer one (北京大学
        // in 北京大学图书馆) has only the pieces: AND requires the pieces, the whole word
        // still scores where it occurs.
        let coarse_method = if cfg.method == Method::Search {
            Method::Jieba
        } else {
            cfg.method
        };
        let mut coarse = Vec::new();
        seg.for_each_token_at(w, coarse_method, cfg.stop_words, cfg.all_tokens, |t, _| {
            coarse.push(t.into_owned())
        });
        for c in coarse {
            let mut pieces = Vec::new();
            if cfg.method == Method::Search {
                seg.for_each_token_at(
                    &c,
                    Method::Search,
                    cfg.stop_words,
                    cfg.all_tokens,
                    |t, _| {
                        if t != c {
                            pieces.push(t.into_owned())
                        }
                    },
                );
            }
            if pieces.is_empty() {
                push(c.clone(), &mut required);
            } else {
                for p in pieces {
                    push(p.clone(), &mut required);
                    push(p, &mut terms);
                }
            }
            push(c, &mut terms);
        }
    }
    let mut phrases = Vec::new();
    for p in &syn.phrases {
        // A phrase is a run of adjacent words: cut without search mode's overlapping pieces.
        let method = if cfg.method == Method::Search {
            Method::Jieba
        } else {
            cfg.method
        };
        let mut words = Vec::new();
        seg.for_each_token_at(p, method, cfg.stop_words, cfg.all_tokens, |t, _| {
            words.push(t.into_owned())
        });
        for w in &words {
            push(w.clone(), &mut terms);
            push(w.clone(), &mut required);
        }
        if words.len() > 1 {
            phrases.push(words);
        }
    }
    if terms.is_empty() {
        return Err(EngineError::invalid_flaw(
            "QUERY",
            Flaw::new("flaw.param_no_searchable_word", &[&format!("{q:?}")]),
        ));
    }
    Ok(Query {
        raw: q.to_string(),
        op: syn.op,
        terms,
        required,
        phrases,
    })
}

/// What retrieval did, for the stepper and the status line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RetrievalStats {
    /// The terms in the order their lists were read (rarest first) with their df.
    pub order: Vec<(String, u32)>,
    /// Terms not in the lexicon.
    pub missing: Vec<String>,
    /// NP(q) = Σ |P(tᵢ)| [L1713].
    pub postings_read: u64,
    /// Comparisons the merges made (against |A|·|B| for the naive way).
    pub comparisons: u64,
    pub naive_comparisons: u64,
    /// Documents before the phrase filter.
    pub before_phrases: usize,
}

/// The matching documents and the postings read.
#[derive(Debug, Clone, Default)]
pub struct Matched {
    pub docs: Vec<u32>,
    /// Per query term (in `Query::terms` order): its postings, None when not indexed.
    pub lists: Vec<Option<Postings>>,
    pub stats: RetrievalStats,
}

/// Run `q` against `ix`.
pub(crate) fn retrieve(ix: &Index, q: &Query) -> Result<Matched> {
    let mut stats = RetrievalStats::default();
    let mut lists: Vec<Option<Postings>> = Vec::with_capacity(q.terms.len());
    for t in &q.terms {
        match ix.term(t) {
            Some(e) => {
                let p = if q.phrases.is_empty() {
                    ix.postings_without_positions(e)?
                } else {
                    ix.postings(e)?
                };
                stats.postings_read += p.docs.len() as u64;
                lists.push(Some(p));
            }
            None => {
                stats.missing.push(t.clone());
                lists.push(None);
            }
        }
    }
    let mut order: Vec<usize> = (0..q.terms.len()).filter(|&i| lists[i].is_some()).collect();
    order.sort_by_key(|&i| lists[i].as_ref().map_or(0, |p| p.docs.len()));
    stats.order = order
        .iter()
        .map(|&i| {
            (
                q.terms[i].clone(),
                lists[i].as_ref().map_or(0, |p| p.docs.len() as u32),
            )
        })
        .collect();
    let needed = |i: &usize| q.required.contains(&q.terms[*i]);
    let mut docs: Vec<u32> = match q.op {
        Op::And if stats.missing.iter().any(|m| q.required.contains(m)) => Vec::new(),
        Op::And => {
            let mut acc: Option<Vec<u32>> = None;
            for &i in order.iter().filter(|i| needed(i)) {
                let l = &lists[i].as_ref().map_or(&[][..], |p| &p.docs[..]);
                acc = Some(match acc {
                    None => l.to_vec(),
                    Some(a) => {
                        stats.naive_comparisons += (a.len() * l.len()) as u64;
                        intersect(&a, l, &mut stats.comparisons)
                    }
                });
            }
            acc.unwrap_or_default()
        }
        Op::Or => {
            let mut acc: Vec<u32> = Vec::new();
            for &i in &order {
                let l = lists[i].as_ref().map_or(&[][..], |p| &p.docs[..]);
                stats.naive_comparisons += (acc.len() * l.len()) as u64;
                acc = union(&acc, l, &mut stats.comparisons);
            }
            acc
        }
    };
    stats.before_phrases = docs.len();
    if !q.phrases.is_empty() && !docs.is_empty() {
        let mut keep = Vec::with_capacity(docs.len());
        for &d in &docs {
            let mut ok = true;
            for ph in &q.phrases {
                if !has_phrase(q, &lists, ph, d)? {
                    ok = false;
                    break;
                }
            }
            if ok {
                keep.push(d);
            }
        }
        docs = keep;
    }
    Ok(Matched { docs, lists, stats })
}

/// Sorted intersection with galloping: for each element of the shorter list, gallop forward
/// in the longer one.
pub(crate) fn intersect(a: &[u32], b: &[u32], comparisons: &mut u64) -> Vec<u32> {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut out = Vec::with_capacity(small.len());
    let mut lo = 0usize;
    for &x in small {
        if lo >= large.len() {
            break;
        }
        // Gallop: probe lo + 1, lo + 2, lo + 4, … until large[probe] ≥ x, then binary search
        // between the last probe below x and that one.
        let mut bound = 1usize;
        while lo + bound < large.len() && large[lo + bound] < x {
            *comparisons += 1;
            bound *= 2;
        }
        let hi = (lo + bound + 1).min(large.len());
        let from = lo + bound / 2;
        let i = from + large[from..hi].partition_point(|&y| y < x);
        *comparisons += u64::from((hi - from).max(1).ilog2() + 1);
        lo = i;
        if lo < large.len() && large[lo] == x {
            out.push(x);
            lo += 1;
        }
    }
    out
}

/// Sorted union by merging.
pub fn union(a: &[u32], b: &[u32], comparisons: &mut u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        *comparisons += 1;
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The positions of query term `term` in document `doc`, if it occurs there.
pub(crate) fn positions_in(
    q: &Query,
    lists: &[Option<Postings>],
    term: &str,
    doc: u32,
) -> Result<Option<Vec<u32>>> {
    let Some(i) = q.terms.iter().position(|t| t == term) else {
        return Ok(None);
    };
    let Some(p) = &lists[i] else {
        return Ok(None);
    };
    let Ok(k) = p.docs.binary_search(&doc) else {
        return Ok(None);
    };
    Ok(p.positions()?.into_iter().nth(k))
}

/// Whether `doc` holds the phrase's words at adjacent character offsets.
fn has_phrase(q: &Query, lists: &[Option<Postings>], ph: &[String], doc: u32) -> Result<bool> {
    let mut per_word = Vec::with_capacity(ph.len());
    for w in ph {
        match positions_in(q, lists, w, doc)? {
            Some(p) => per_word.push(p),
            None => return Ok(false),
        }
    }
    let Some(first) = per_word.first() else {
        return Ok(false);
    };
    'start: for &p0 in first {
        let mut at = p0;
        for (k, w) in ph.iter().enumerate().skip(1) {
            at += ph[k - 1].chars().count() as u32;
            let _ = w;
            if per_word[k].binary_search(&at).is_err() {
                continue 'start;
            }
        }
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_splits_words_phrases_and_or() {
        let s = parse_syntax("a b");
        assert_eq!((s.op, s.words.len()), (Op::And, 2));
        let s = parse_syntax("“北京 大学” | 清华");
        assert_eq!(s.op, Op::Or);
        assert_eq!(s.phrases, ["北京 大学"]);
        assert_eq!(s.words, ["清华"]);
        assert_eq!(parse_syntax("\"open").phrases, ["open"]);
    }

    #[test]
    fn galloping_intersection_equals_the_plain_one() {
        let mut rng = crate::engine::rng::Rng::new(3);
        for _ in 0..300 {
            let mut a: Vec<u32> = (0..rng.below(50)).map(|_| rng.below(400) as u32).collect();
            let mut b: Vec<u32> = (0..rng.below(500)).map(|_| rng.below(400) as u32).collect();
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            b.dedup();
            let want: Vec<u32> = a.iter().copied().filter(|x| b.contains(x)).collect();
            let mut c = 0;
            assert_eq!(intersect(&a, &b, &mut c), want);
            assert_eq!(intersect(&b, &a, &mut c), want);
            let mut u: Vec<u32> = a.iter().chain(&b).copied().collect();
            u.sort_unstable();
            u.dedup();
            assert_eq!(union(&a, &b, &mut c), u);
        }
    }

    #[test]
    fn an_empty_query_is_refused() {
        let e = parse("  的 。", &IndexConfig::default(), Op::And).unwrap_err();
        assert!(e.is_user_error());
    }
}
