//! How close is an extracted text to the truth?
//!
//! Page cleaning (chapter 4: keep the article, drop navigation and ads) is scored the way the
//! reference numbers in `shared/data/README.md` were computed: **character-bigram multiset
//! precision, recall and F1** over alphanumeric characters, macro-averaged over pages.
//!
//! 1. Keep the characters Python's `str.isalnum()` accepts (CJK, kana, Latin letters, digits of
//!    every script, fullwidth forms); drop punctuation, spaces and symbols. Case is kept, as a plain
//!    `isalnum` filter keeps it (the reference most likely did not lower-case).
//! 2. Take the bigrams of consecutive kept characters, so bigrams span removed punctuation:
//!    `"天网，搜索"` gives 天网, 网搜, 搜索.
//! 3. With `common` the multiset intersection (a bigram counts as often as it occurs in both):
//!    P = common / |pred|, R = common / |truth|, F1 = 2PR / (P + R), and F1 = 0 when P + R = 0.
//!
//! Edge cases: a text with exactly one kept character has no bigram and is represented by that
//! character as a unigram, which only matches an identical one-character text. Two texts with
//! nothing kept score P = R = F1 = 1; one such text against a non-empty one scores 0.
//!
//! # Python's `isalnum` in Rust
//! `isalnum` is true for general categories L* and N* (`isalpha`, `isdecimal`, `isdigit`,
//! `isnumeric`). [`char::is_alphanumeric`] also accepts `Other_Alphabetic` characters outside
//! those categories: about 1,300 combining marks (Indic vowel signs, Arabic and Hebrew points,
//! Thai vowels) and 130 symbols such as Ⓐ and 🄰. [`is_kept`] removes them with a table generated
//! by comparing every code point under Python 3.11 (Unicode 14) and Rust 1.95; the two then agree
//! on every code point Unicode 14 assigns. Characters assigned later (e.g. CJK extension H) are
//! kept, as a newer Python keeps them. CJK ideographs, fullwidth digits (Nd), circled digits
//! (No), Roman numerals (Nl) and 〇 are kept by both.
//!
//! ```
//! use tianwang::engine::text::metric::bigram_prf;
//! let s = bigram_prf("天网：搜索引擎!", "天网搜索");
//! assert_eq!((s.p, s.r), (3.0 / 5.0, 1.0)); // 天网 网搜 搜索 are common; 索引 引擎 are extra
//! ```

use serde::Serialize;

/// Precision, recall and F1 of one page (or their macro averages).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct Prf {
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

impl Prf {
    pub(crate) const PERFECT: Prf = Prf {
        p: 1.0,
        r: 1.0,
        f1: 1.0,
    };
    pub const ZERO: Prf = Prf {
        p: 0.0,
        r: 0.0,
        f1: 0.0,
    };

    fn from_counts(common: usize, pred: usize, truth: usize) -> Prf {
        if pred == 0 || truth == 0 {
            return if pred == truth {
                Prf::PERFECT
            } else {
                Prf::ZERO
            };
        }
        let p = common as f64 / pred as f64;
        let r = common as f64 / truth as f64;
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        Prf { p, r, f1 }
    }
}

/// The sorted bigram multiset of a text, for scoring many predictions against one truth.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BigramBag {
    /// Each gram as `first << 32 | second` (chars fit in 21 bits), sorted.
    grams: Vec<u64>,
}

/// Second half of the key of a one-character text: no `char` has this value.
const UNIGRAM: u64 = 0xFFFF_FFFF;

impl BigramBag {
    /// The bigram multiset of `text` (one unigram if it keeps a single character).
    pub fn new(text: &str) -> Self {
        let mut kept = text.chars().filter(|&c| is_kept(c)).map(u64::from);
        let Some(mut prev) = kept.next() else {
            return Self::default();
        };
        let mut grams = Vec::with_capacity(text.len() / 2);
        for c in kept {
            grams.push(prev << 32 | c);
            prev = c;
        }
        if grams.is_empty() {
            grams.push(prev << 32 | UNIGRAM);
        }
        grams.sort_unstable();
        Self { grams }
    }

    /// Number of grams, with multiplicity.
    pub fn len(&self) -> usize {
        self.grams.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.grams.is_empty()
    }

    /// Size of the multiset intersection (sort-and-merge).
    pub fn common(&self, other: &BigramBag) -> usize {
        let (a, b) = (&self.grams, &other.grams);
        let (mut i, mut j, mut common) = (0, 0, 0);
        while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
            match x.cmp(y) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    common += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        common
    }

    /// Scores `self` as the prediction against `truth`.
    pub(crate) fn prf(&self, truth: &BigramBag) -> Prf {
        Prf::from_counts(self.common(truth), self.len(), truth.len())
    }
}

/// Character-bigram P/R/F1 of an extracted text `pred` against the reference text `truth`.
pub fn bigram_prf(pred: &str, truth: &str) -> Prf {
    BigramBag::new(pred).prf(&BigramBag::new(truth))
}

/// Macro average: the mean of each of P, R and F1 over pages (so the mean F1 is not the F1 of
/// the mean P and R). An empty slice gives [`Prf::ZERO`].
pub(crate) fn macro_avg(scores: &[Prf]) -> Prf {
    if scores.is_empty() {
        return Prf::ZERO;
    }
    let n = scores.len() as f64;
    let sum = |f: fn(&Prf) -> f64| scores.iter().map(f).sum::<f64>() / n;
    Prf {
        p: sum(|s| s.p),
        r: sum(|s| s.r),
        f1: sum(|s| s.f1),
    }
}

/// Whether `c` takes part in the metric: Python's `c.isalnum()` (see the module docs).
pub(crate) fn is_kept(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    if ('\u{4E00}'..='\u{9FFF}').contains(&c) {
        return true;
    }
    // The table is sorted, so an insertion point between a start and an end is inside a range.
    let rejected_by_python = match NOT_ISALNUM.binary_search(&u32::from(c)) {
        Ok(_) => true,
        Err(i) => i % 2 == 1,
    };
    c.is_alphanumeric() && !rejected_by_python
}

/// Inclusive ranges `[start, end, start, end, ...]` covering every character that
/// `char::is_alphanumeric` accepts but Python 3.11's `str.isalnum` rejects (combining marks and
/// symbols with `Other_Alphabetic`); gaps between merged ranges hold no alphanumeric character.
const NOT_ISALNUM: &[u32] = &[
    0x345, 0x36F, 0x5B0, 0x5C7, 0x610, 0x61A, 0x64B, 0x65F, 0x670, 0x670, 0x6D6, 0x6E4, 0x6E7,
    0x6ED, 0x711, 0x711, 0x730, 0x73F, 0x7A6, 0x7B0, 0x816, 0x817, 0x81B, 0x823, 0x825, 0x827,
    0x829, 0x82C, 0x8D4, 0x903, 0x93A, 0x93B, 0x93E, 0x94F, 0x955, 0x957, 0x962, 0x963, 0x981,
    0x983, 0x9BE, 0x9CC, 0x9D7, 0x9D7, 0x9E2, 0x9E3, 0xA01, 0xA03, 0xA3E, 0xA51, 0xA70, 0xA71,
    0xA75, 0xA83, 0xABE, 0xACC, 0xAE2, 0xAE3, 0xAFA, 0xB03, 0xB3E, 0xB57, 0xB62, 0xB63, 0xB82,
    0xB82, 0xBBE, 0xBCC, 0xBD7, 0xBD7, 0xC00, 0xC04, 0xC3E, 0xC56, 0xC62, 0xC63, 0xC81, 0xC83,
    0xCBE, 0xCD6, 0xCE2, 0xCE3, 0xD00, 0xD03, 0xD3E, 0xD4C, 0xD57, 0xD57, 0xD62, 0xD63, 0xD81,
    0xD83, 0xDCF, 0xDDF, 0xDF2, 0xDF3, 0xE31, 0xE31, 0xE34, 0xE3A, 0xE4D, 0xE4D, 0xEB1, 0xEB1,
    0xEB4, 0xEBC, 0xECD, 0xECD, 0xF71, 0xF83, 0xF8D, 0xFBC, 0x102B, 0x103E, 0x1056, 0x1059, 0x105E,
    0x1060, 0x1062, 0x1064, 0x1067, 0x106D, 0x1071, 0x1074, 0x1082, 0x108D, 0x108F, 0x108F, 0x109A,
    0x109D, 0x1712, 0x1713, 0x1732, 0x1733, 0x1752, 0x1753, 0x1772, 0x1773, 0x17B6, 0x17C8, 0x1885,
    0x1886, 0x18A9, 0x18A9, 0x1920, 0x1938, 0x1A17, 0x1A1B, 0x1A55, 0x1A74, 0x1ABF, 0x1B04, 0x1B35,
    0x1B43, 0x1B80, 0x1B82, 0x1BA1, 0x1BAD, 0x1BE7, 0x1BF1, 0x1C24, 0x1C36, 0x1DD3, 0x1DF4, 0x24B6,
    0x24E9, 0x2DE0, 0x2DFF, 0xA674, 0xA67B, 0xA69E, 0xA69F, 0xA802, 0xA802, 0xA80B, 0xA80B, 0xA823,
    0xA827, 0xA880, 0xA881, 0xA8B4, 0xA8C5, 0xA8FF, 0xA8FF, 0xA926, 0xA92A, 0xA947, 0xA952, 0xA980,
    0xA983, 0xA9B4, 0xA9BF, 0xA9E5, 0xA9E5, 0xAA29, 0xAA36, 0xAA43, 0xAA43, 0xAA4C, 0xAA4D, 0xAA7B,
    0xAA7D, 0xAAB0, 0xAAB0, 0xAAB2, 0xAAB4, 0xAAB7, 0xAAB8, 0xAABE, 0xAABE, 0xAAEB, 0xAAEF, 0xAAF5,
    0xAAF5, 0xABE3, 0xABEA, 0xFB1E, 0xFB1E, 0x10376, 0x1037A, 0x10A01, 0x10A0F, 0x10D24, 0x10D27,
    0x10EAB, 0x10EAC, 0x11000, 0x11002, 0x11038, 0x11045, 0x11073, 0x11074, 0x11080, 0x11082,
    0x110B0, 0x110C2, 0x11100, 0x11102, 0x11127, 0x11132, 0x11145, 0x11146, 0x11180, 0x11182,
    0x111B3, 0x111BF, 0x111CE, 0x111CF, 0x1122C, 0x1123E, 0x112DF, 0x112E8, 0x11300, 0x11303,
    0x1133E, 0x1134C, 0x11357, 0x11357, 0x11362, 0x11363, 0x11435, 0x11445, 0x114B0, 0x114C1,
    0x115AF, 0x115BE, 0x115DC, 0x115DD, 0x11630, 0x11640, 0x116AB, 0x116B5, 0x1171D, 0x1172A,
    0x1182C, 0x11838, 0x11930, 0x1193C, 0x11940, 0x11940, 0x11942, 0x11942, 0x119D1, 0x119DF,
    0x119E4, 0x119E4, 0x11A01, 0x11A0A, 0x11A35, 0x11A39, 0x11A3B, 0x11A3E, 0x11A51, 0x11A5B,
    0x11A8A, 0x11A97, 0x11C2F, 0x11C3E, 0x11C92, 0x11CB6, 0x11D31, 0x11D43, 0x11D47, 0x11D47,
    0x11D8A, 0x11D96, 0x11EF3, 0x11EF6, 0x16F4F, 0x16F4F, 0x16F51, 0x16F92, 0x16FF0, 0x16FF1,
    0x1BC9E, 0x1BC9E, 0x1E000, 0x1E02A, 0x1E947, 0x1E947, 0x1F130, 0x1F189,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Prf, p: f64, r: f64, f1: f64) {
        let ok = (a.p - p).abs() < 1e-12 && (a.r - r).abs() < 1e-12 && (a.f1 - f1).abs() < 1e-12;
        assert!(ok, "{a:?} != ({p}, {r}, {f1})");
    }

    #[test]
    fn identical_texts_score_one() {
        let text = "天网搜索引擎由北京大学开发。Tianwang 1997 年上线。";
        assert_eq!(bigram_prf(text, text), Prf::PERFECT);
    }

    #[test]
    fn punctuation_spaces_and_markup_characters_are_ignored() {
        let truth = "天网搜索引擎，北京大学。Search engine v2";
        let pred = " 天网 搜索-引擎!!\n北京“大学”——Search\tengine (v2)…";
        assert_eq!(bigram_prf(pred, truth), Prf::PERFECT);
        // Bigrams span dropped punctuation: "天网，搜索" has 天网 网搜 搜索.
        assert_eq!(BigramBag::new("天网，搜索"), BigramBag::new("天网搜索"));
        // Case is kept, as in the Python reference.
        assert_eq!(bigram_prf("ABC", "abc"), Prf::ZERO);
    }

    #[test]
    fn python_isalnum_semantics() {
        for c in [
            '天', 'ａ', '０', '①', 'Ⅻ', '〇', '々', 'ー', 'ㄅ', '한', 'é', '²', '½', '٣',
        ] {
            assert!(is_kept(c), "{c} is alnum in Python");
        }
        // Marks and symbols that Rust's is_alphanumeric accepts and Python's isalnum rejects.
        for c in ['\u{0345}', '\u{093E}', '\u{0E31}', '\u{05B0}', 'Ⓐ', '🄰'] {
            assert!(c.is_alphanumeric() && !is_kept(c), "{c:?}");
        }
        for c in [
            '，', '。', '、', '“', '—', '…', '·', '　', '_', '@', '¥', '\u{FFFD}',
        ] {
            assert!(!is_kept(c), "{c:?}");
        }
    }

    #[test]
    fn repeated_bigrams_count_with_multiplicity() {
        // pred 哈哈 ×3, truth 哈哈 ×1: one in common.
        close(bigram_prf("哈哈哈哈", "哈哈"), 1.0 / 3.0, 1.0, 0.5);
        // Order matters only through adjacency: 甲乙丙 vs 乙丙甲 share 乙丙.
        close(bigram_prf("甲乙丙", "乙丙甲"), 0.5, 0.5, 0.5);
    }

    #[test]
    fn disjoint_and_empty_texts() {
        assert_eq!(bigram_prf("天网搜索", "北京大学"), Prf::ZERO);
        assert_eq!(bigram_prf("", ""), Prf::PERFECT);
        assert_eq!(bigram_prf("，。！", " "), Prf::PERFECT); // nothing kept on either side
        assert_eq!(bigram_prf("", "天网"), Prf::ZERO);
        assert_eq!(bigram_prf("天网", "——"), Prf::ZERO);
    }

    #[test]
    fn one_character_texts_fall_back_to_unigrams() {
        assert_eq!(bigram_prf("天", "天"), Prf::PERFECT);
        assert_eq!(bigram_prf("天。", "「天」"), Prf::PERFECT);
        assert_eq!(bigram_prf("天", "地"), Prf::ZERO);
        assert_eq!(bigram_prf("天", "天网"), Prf::ZERO); // a unigram never matches a bigram
        assert_eq!(BigramBag::new("天").len(), 1);
    }

    #[test]
    fn hand_computed_example() {
        // truth 天网搜索引擎 → 天网 网搜 搜索 索引 引擎 (5)
        // pred  网搜索，天网! → 网搜 搜索 索天 天网 (4); common 网搜 搜索 天网 = 3
        // P = 3/4, R = 3/5, F1 = 2·0.75·0.6 / 1.35 = 2/3
        close(
            bigram_prf("网搜索，天网!", "天网搜索引擎"),
            0.75,
            0.6,
            2.0 / 3.0,
        );
    }

    #[test]
    fn macro_average_is_the_mean_of_each_column() {
        let a = Prf {
            p: 1.0,
            r: 0.5,
            f1: 2.0 / 3.0,
        };
        let b = Prf {
            p: 0.5,
            r: 0.5,
            f1: 0.5,
        };
        close(macro_avg(&[a, b]), 0.75, 0.5, 7.0 / 12.0);
        assert_eq!(macro_avg(&[]), Prf::ZERO);
    }

    #[test]
    fn a_bag_can_be_reused_against_many_predictions() {
        let truth = BigramBag::new("天网搜索引擎");
        assert_eq!(BigramBag::new("天网").prf(&truth).p, 1.0);
        assert_eq!(BigramBag::new("天网").common(&truth), 1);
        assert!(!truth.is_empty());
    }
}
