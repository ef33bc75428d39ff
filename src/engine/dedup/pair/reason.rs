//! A pair-view reason: a key with arguments, its English template, and the GUI's table key
//! (`dwhy.KEY`) — so the dedup panel can say *why* each method called the pair what it did, in
//! Chinese or English (digest C9 "pair comparator").
//!
//! ```
//! use tianwang::engine::dedup::pair::Reason;
//! let r = Reason { key: "hamming", args: vec!["5".into(), "3".into()] };
//! assert_eq!(r.english(), "Hamming distance 5 against k = 3");
//! ```

use serde::Serialize;

/// A reason as a key with arguments: the GUI says it from its tables (`dwhy.KEY`), the CLI
/// with [`Reason::english`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    pub key: &'static str,
    pub args: Vec<String>,
}

impl Reason {
    pub(super) fn of<const N: usize>(key: &'static str, args: [String; N]) -> Reason {
        Reason {
            key,
            args: args.to_vec(),
        }
    }

    /// Every key a reason can have, with its English template.
    pub(crate) const TEMPLATES: &'static [(&'static str, &'static str)] = &[
        (
            "md5_same",
            "the normalised texts are identical ({0} characters)",
        ),
        (
            "md5_diff",
            "the normalised texts first differ at character {0}",
        ),
        ("abs_same", "the first {0} bytes of visible text are equal"),
        ("abs_diff", "the abstracts differ at byte {0} of {1}"),
        (
            "order_same",
            "the same top-{0} keywords in the same weight order",
        ),
        (
            "order_diff",
            "the weight order differs at rank {0}: {1} vs {2}",
        ),
        ("set_same", "the same top-{0} keyword set"),
        ("set_diff", "only {0} of the top-{1} keywords are shared"),
        ("sim_pass", "keywords match and SIM = {0} < δ = {1}"),
        ("sim_fail", "keywords match but SIM = {0} ≥ δ = {1}"),
        ("union_pass", "found by {0}"),
        ("union_fail", "neither algorithm 1 nor algorithm 5 matches"),
        (
            "chunks",
            "{0} equal chunk signatures of {1} and {2}; {3} needed",
        ),
        (
            "imatch_same",
            "the top-IDF feature strings are equal ({0} words)",
        ),
        (
            "imatch_diff",
            "the top-IDF feature strings differ ({0} of {1} words shared)",
        ),
        (
            "jaccard",
            "Jaccard of {0}-shingles = {1} against the threshold {2}",
        ),
        ("hamming", "Hamming distance {0} against k = {1}"),
        (
            "ccdet",
            "CCS = {0} (threshold {1}), CLR = {2} (containment below {3})",
        ),
        (
            "ccdet_none",
            "no full-stop signature in common ({0} and {1} signatures)",
        ),
        (
            "best",
            "containment = {0} (threshold {1}); the shared text covers {2} of the longer (containment below {3})",
        ),
        (
            "bp_stories",
            "boilerplate: held by {0} distinct texts that tell {1} different stories besides it (e.g. {2})",
        ),
        (
            "bp_df",
            "boilerplate: held by {0} distinct texts, above the document-frequency cap {1} (e.g. {2})",
        ),
        (
            "best_small",
            "containment = {0}, but only {1} shared shingles (at least 8 needed)",
        ),
    ];

    /// The reason in English.
    pub fn english(&self) -> String {
        let t = Self::TEMPLATES
            .iter()
            .find(|(k, _)| *k == self.key)
            .map_or(self.key, |(_, t)| t);
        let mut s = t.to_string();
        for (i, a) in self.args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a);
        }
        s
    }
}
