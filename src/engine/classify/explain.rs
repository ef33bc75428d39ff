//! Why a document got its classes: the common explanation record every classifier fills in
//! (book ch. 11.3 [L4043–L4045]: classification compares the document vector with each class
//! pattern; this shows the comparison). The GUI's page inspector and the teaching views draw it.
//!
//! - NB: `class_scores` are log-probabilities (log prior + Σ log P(w|c)); `top_features` are the
//!   words that pushed the winner above the runner-up (count × Δ log P).
//! - kNN: `neighbours` with their similarities; `class_scores` the summed votes (11-9).
//! - Rocchio: cosine to each class prototype; `top_features` the terms shared with the winner's
//!   prototype (x·c contribution).
//! - linear: decision values; `top_features` weight × value for the winner.
//! - tree: `path` the tests on the way to the leaf; `class_scores` the leaf's class shares.
//!
//! ```
//! use tianwang::engine::classify::explain::Explanation;
//! let e = Explanation::default();
//! assert!(e.neighbours.is_empty());
//! ```

use serde::{Deserialize, Serialize};

/// A class and its score for one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassScore {
    pub label: String,
    pub score: f64,
}

/// A term and how much it contributed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FeatureWeight {
    pub term: String,
    pub weight: f64,
}

/// A training document near the query (kNN).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Neighbour {
    /// Index into the training set, and where it came from when known.
    pub train_index: usize,
    pub location: String,
    pub label: String,
    pub similarity: f64,
}

/// The explanation of one prediction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The assigned classes (after thresholding).
    pub predicted: Vec<String>,
    /// What `class_scores` measure (e.g. "log-probability", "summed cosine").
    pub score_kind: String,
    /// Every class, best first.
    pub class_scores: Vec<ClassScore>,
    pub top_features: Vec<FeatureWeight>,
    pub neighbours: Vec<Neighbour>,
    pub path: Vec<String>,
}

/// Top `n` of `(term, weight)` by weight, descending (ties by term).
pub fn top_n(mut v: Vec<FeatureWeight>, n: usize) -> Vec<FeatureWeight> {
    v.sort_by(|a, b| {
        b.weight
            .total_cmp(&a.weight)
            .then_with(|| a.term.cmp(&b.term))
    });
    v.truncate(n);
    v
}
