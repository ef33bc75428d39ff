//! Vocabulary, sparse vectors and term weighting (book ch. 11.3 [L4043]: "segmentation →
//! feature selection → vectors"; the weighting itself is §10.1's vector space model
//! [L3536–L3597], since ch. 11 leaves it open — digest §11.4.1 suggests TF·IDF with cosine).
//!
//! Weightings ([`Weighting`]): raw `tf`, `tfidf`, `logtf` (1 + ln tf), `logtfidf`, `binary`;
//! then an optional L2 normalisation. The idf is scikit-learn's smoothed idf,
//! `ln((1 + n) / (1 + df)) + 1`, so our tf-idf vectors equal `TfidfVectorizer`'s (the reference
//! figures used it); idf is computed on the training set only.
//!
//! ```
//! use tianwang::engine::classify::features::{Vocab, Weighting, Weighter};
//! let docs = vec![vec!["a".to_string(), "b".into()], vec!["a".into()]];
//! let vocab = Vocab::build(&docs);
//! let counts: Vec<_> = docs.iter().map(|d| vocab.count(d)).collect();
//! let w = Weighter::fit(Weighting::TfIdf, true, &counts, vocab.len());
//! let v = w.apply(&counts[1]);
//! assert!((v.val[0] - 1.0).abs() < 1e-6); // one term, L2-normalised
//! ```

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// A sparse vector: term ids ascending, one value each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SparseVec {
    pub idx: Vec<u32>,
    pub val: Vec<f32>,
}

impl SparseVec {
    pub fn len(&self) -> usize {
        self.idx.len()
    }
    pub fn is_empty(&self) -> bool {
        self.idx.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.idx.iter().copied().zip(self.val.iter().copied())
    }
    pub(crate) fn norm2(&self) -> f64 {
        self.val.iter().map(|&v| f64::from(v) * f64::from(v)).sum()
    }
    #[cfg(test)]
    pub(crate) fn dot(&self, other: &SparseVec) -> f64 {
        let (mut i, mut j, mut s) = (0, 0, 0.0f64);
        while i < self.idx.len() && j < other.idx.len() {
            match self.idx[i].cmp(&other.idx[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    s += f64::from(self.val[i]) * f64::from(other.val[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        s
    }
    /// Dot with a dense vector (ids beyond it count as 0).
    pub(crate) fn dot_dense(&self, w: &[f64]) -> f64 {
        self.iter()
            .map(|(i, v)| w.get(i as usize).copied().unwrap_or(0.0) * f64::from(v))
            .sum()
    }
}

/// The term ↔ id map built on the training documents.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Vocab {
    pub terms: Vec<String>,
    #[serde(skip)]
    map: HashMap<String, u32>,
}

impl Vocab {
    /// Every distinct term of `docs`, ids in order of first appearance.
    pub fn build(docs: &[Vec<String>]) -> Vocab {
        let mut v = Vocab::default();
        for d in docs {
            for t in d {
                if !v.map.contains_key(t) {
                    v.map.insert(t.clone(), v.terms.len() as u32);
                    v.terms.push(t.clone());
                }
            }
        }
        v
    }
    pub(crate) fn from_terms(terms: Vec<String>) -> Vocab {
        let map = terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        Vocab { terms, map }
    }
    /// Rebuilds the lookup table after deserialisation.
    pub(crate) fn reindex(&mut self) {
        *self = Vocab::from_terms(std::mem::take(&mut self.terms));
    }
    pub fn len(&self) -> usize {
        self.terms.len()
    }
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
    pub fn id(&self, term: &str) -> Option<u32> {
        self.map.get(term).copied()
    }
    pub fn term(&self, id: u32) -> &str {
        self.terms.get(id as usize).map_or("?", |s| s.as_str())
    }
    /// Term counts of a token list (unknown terms ignored).
    pub fn count(&self, tokens: &[String]) -> SparseVec {
        let mut ids: Vec<u32> = tokens.iter().filter_map(|t| self.id(t)).collect();
        ids.sort_unstable();
        let mut out = SparseVec::default();
        for id in ids {
            if out.idx.last() == Some(&id) {
                if let Some(v) = out.val.last_mut() {
                    *v += 1.0;
                }
            } else {
                out.idx.push(id);
                out.val.push(1.0);
            }
        }
        out
    }
}

/// Maps kept old term ids to new dense ids.
pub(crate) fn remap(v: &SparseVec, map: &[Option<u32>]) -> SparseVec {
    let mut out = SparseVec::default();
    for (i, x) in v.iter() {
        if let Some(Some(n)) = map.get(i as usize) {
            out.idx.push(*n);
            out.val.push(x);
        }
    }
    out
}

/// Term weighting scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Weighting {
    /// Raw term counts.
    Tf,
    /// Counts × smoothed idf (scikit-learn's `TfidfVectorizer`).
    #[value(name = "tfidf")]
    TfIdf,
    /// 1 + ln(count).
    #[value(name = "logtf")]
    LogTf,
    /// (1 + ln count) × idf (`sublinear_tf=True`).
    #[value(name = "logtfidf")]
    LogTfIdf,
    /// 1 if present.
    Binary,
}

/// A fitted weighting: the scheme, the training idf, the normalisation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Weighter {
    pub scheme: Weighting,
    pub l2: bool,
    /// Smoothed idf per term (empty unless the scheme uses idf).
    pub idf: Vec<f32>,
}

impl Weighter {
    pub fn fit(scheme: Weighting, l2: bool, counts: &[SparseVec], n_terms: usize) -> Weighter {
        let idf = if matches!(scheme, Weighting::TfIdf | Weighting::LogTfIdf) {
            let mut df = vec![0u32; n_terms];
            for d in counts {
                for &i in &d.idx {
                    if let Some(x) = df.get_mut(i as usize) {
                        *x += 1;
                    }
                }
            }
            let n = counts.len() as f64;
            df.iter()
                .map(|&d| (((1.0 + n) / (1.0 + f64::from(d))).ln() + 1.0) as f32)
                .collect()
        } else {
            Vec::new()
        };
        Weighter { scheme, l2, idf }
    }

    pub fn apply(&self, counts: &SparseVec) -> SparseVec {
        let mut out = counts.clone();
        for (k, v) in out.val.iter_mut().enumerate() {
            let tf = *v;
            let idf = || {
                counts
                    .idx
                    .get(k)
                    .and_then(|&i| self.idf.get(i as usize))
                    .copied()
                    .unwrap_or(1.0)
            };
            *v = match self.scheme {
                Weighting::Tf => tf,
                Weighting::TfIdf => tf * idf(),
                Weighting::LogTf => 1.0 + tf.ln(),
                Weighting::LogTfIdf => (1.0 + tf.ln()) * idf(),
                Weighting::Binary => 1.0,
            };
        }
        if self.l2 {
            let n = out.norm2().sqrt();
            if n > 0.0 {
                for v in &mut out.val {
                    *v = (f64::from(*v) / n) as f32;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn tfidf_matches_sklearn_smooth_idf() {
        // TfidfVectorizer(smooth_idf=True) on ["a a b", "a c"]: idf(a)=1, idf(b)=idf(c)=ln(3/2)+1
        let docs = vec![toks("a a b"), toks("a c")];
        let vocab = Vocab::build(&docs);
        let counts: Vec<_> = docs.iter().map(|d| vocab.count(d)).collect();
        assert_eq!(counts[0].val, vec![2.0, 1.0]);
        let w = Weighter::fit(Weighting::TfIdf, true, &counts, vocab.len());
        let v = w.apply(&counts[0]);
        let b = (1.5f64).ln() + 1.0;
        let n = (4.0 + b * b).sqrt();
        assert!((f64::from(v.val[0]) - 2.0 / n).abs() < 1e-6);
        assert!((f64::from(v.val[1]) - b / n).abs() < 1e-6);
    }

    #[test]
    fn log_and_binary() {
        let c = SparseVec {
            idx: vec![0, 3],
            val: vec![1.0, 3.0],
        };
        let w = Weighter::fit(Weighting::LogTf, false, &[], 4);
        assert!((w.apply(&c).val[1] - (1.0 + 3f32.ln())).abs() < 1e-6);
        let w = Weighter::fit(Weighting::Binary, false, &[], 4);
        assert_eq!(w.apply(&c).val, vec![1.0, 1.0]);
        assert_eq!(c.dot(&c), 10.0);
    }
}
