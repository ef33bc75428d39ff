//! Every segmentation method on one text, side by side [L1478–L1596]: the words each gives
//! (punctuation and white space dropped), which of them differ from jieba's, and how fast each
//! runs — the Segmentation tab's table and `tianwang segment --all`. Timing is the best of
//! three rounds of at least 2 ms each (short texts are repeated), after one untimed run.
//!
//! ```
//! use tianwang::engine::text::segment::{Segmenter, compare::compare_methods};
//! let c = compare_methods(Segmenter::shared(), "学历史知识");
//! let fmm = c.runs.iter().find(|r| r.method.name() == "fmm").unwrap();
//! assert_eq!(fmm.words.iter().map(|w| w.1.as_str()).collect::<Vec<_>>(), ["学历", "史", "知识"]);
//! ```

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Method, Segmenter, TokenKind};

/// One method's cut of the text.
#[derive(Debug, Clone, Serialize)]
pub struct MethodRun {
    pub method: Method,
    /// Words with their character offset (punctuation and white space dropped).
    pub words: Vec<(usize, String)>,
    /// Per word: not among jieba's (same word at the same offset).
    pub differs: Vec<bool>,
    pub differing: usize,
    pub chars_per_ms: f64,
    pub mb_per_s: f64,
}

/// Every method on one text.
#[derive(Debug, Clone, Serialize)]
pub struct MethodComparison {
    pub chars: usize,
    pub bytes: usize,
    pub runs: Vec<MethodRun>,
}

fn seconds_per_cut(seg: &Segmenter, text: &str, m: Method) -> f64 {
    let _ = seg.cut(text, m);
    let mut secs = f64::INFINITY;
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut reps = 0u32;
        while reps < 2000 && (reps == 0 || t0.elapsed() < Duration::from_millis(2)) {
            std::hint::black_box(seg.cut(text, m));
            reps += 1;
        }
        secs = secs.min(t0.elapsed().as_secs_f64() / f64::from(reps));
    }
    secs.max(1e-9)
}

/// Cut `text` by every method of [`Method::ALL`] with `seg` (its MaxLen applies to FMM/RMM).
pub fn compare_methods(seg: &Segmenter, text: &str) -> MethodComparison {
    let chars = text.chars().count();
    let mut runs = Vec::new();
    let mut base: HashSet<(usize, String)> = HashSet::new();
    for m in Method::ALL {
        let words: Vec<(usize, String)> = seg
            .cut(text, m)
            .into_iter()
            .filter(|t| matches!(t.kind, TokenKind::Word | TokenKind::Latin))
            .map(|t| (t.start, t.word))
            .collect();
        let is_base = m == Method::Jieba;
        if is_base {
            base = words.iter().cloned().collect();
        }
        let differs: Vec<bool> = words
            .iter()
            .map(|w| !is_base && !base.contains(w))
            .collect();
        let secs = seconds_per_cut(seg, text, m);
        runs.push(MethodRun {
            method: m,
            differing: differs.iter().filter(|d| **d).count(),
            words,
            differs,
            chars_per_ms: chars as f64 / (secs * 1e3),
            mb_per_s: text.len() as f64 / secs / 1e6,
        });
    }
    MethodComparison {
        chars,
        bytes: text.len(),
        runs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_with_its_differences_from_jieba() {
        let c = compare_methods(Segmenter::shared(), "学历史知识");
        assert_eq!(c.runs.len(), Method::ALL.len());
        let get = |n: &str| c.runs.iter().find(|r| r.method.name() == n).unwrap();
        assert_eq!(get("jieba").differing, 0, "jieba is the baseline");
        let words = |n: &str| get(n).words.iter().map(|w| w.1.clone()).collect::<Vec<_>>();
        assert_eq!(words("fmm"), ["学历", "史", "知识"]);
        assert_eq!(words("rmm"), ["学", "历史", "知识"]);
        // FMM's 学历/史 differ from jieba's 学/历史; 知识 does not.
        let fmm = get("fmm");
        assert_eq!(fmm.differs, [true, true, false]);
        assert!(
            c.runs
                .iter()
                .all(|r| r.chars_per_ms > 0.0 && r.mb_per_s > 0.0)
        );
    }
}
