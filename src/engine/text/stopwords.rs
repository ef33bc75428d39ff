//! Built-in stop words, dropped from index terms by [`super::segment::Segmenter::terms`].
//!
//! The book gives no list: it names 的 and 在 [L660] and, in its query example, 与 [L692], and
//! counts about 200 effective words a page after the removal [L660]. This list holds Chinese
//! function words (particles, pronouns, prepositions, conjunctions, common adverbs and
//! auxiliaries) and the usual English ones. Content words, negation (不) and single characters
//! that carry meaning stay terms.
//!
//! ```
//! use tianwang::engine::text::stopwords::is_stop_word;
//! assert!(is_stop_word("的") && is_stop_word("因为") && is_stop_word("The"));
//! assert!(!is_stop_word("搜索") && !is_stop_word("不"));
//! ```

use std::sync::OnceLock;

/// Chinese stop words.
const STOP_WORDS_ZH: &str = "的 地 得 了 着 过 是 在 和 与 及 等 也 都 而 或 这 那 之 其 为 对 把 \
    被 从 以 于 上 下 中 个 就 还 又 很 更 最 已 已经 将 要 会 能 让 给 向 并 即 但 却 只 则 若 如 由 \
    因 乃 且 该 此 各 每 某 我 你 他 她 它 您 我们 你们 他们 她们 它们 咱们 大家 自己 一个 没有 \
    可以 这个 那个 这些 那些 这样 那样 这里 那里 这么 那么 这种 那种 什么 怎么 怎样 如何 为什么 \
    哪 哪里 哪些 因为 所以 但是 如果 而且 并且 或者 还是 不过 然而 虽然 因此 于是 然后 而是 不是 \
    就是 也是 即使 无论 不论 只要 只有 除了 关于 对于 由于 根据 按照 通过 为了 随着 作为 比如 例如 \
    以及 及其 之一 之后 之前 以后 以前 以上 以下 之间 其中 其他 其它 另外 等等 一些 有些 有的 所有 \
    一切 一样 同时 非常 比较 还有 可能 应该 有 吗 呢 吧 啊 呀 哦 嗯 么 嘛 啦";

/// English stop words (lower case).
const STOP_WORDS_EN: &str = "a an the and or but if then else of at by for with about against \
    between into through during before after above below to from up down in out on off over under \
    again further once here there when where why how all any both each few more most other some \
    such no nor not only own same so than too very can will just should now i me my myself we our \
    ours you your yours he him his she her hers it its they them their theirs what which who whom \
    this that these those am is are was were be been being have has had having do does did doing \
    would could shall may might must as until while also via etc";

/// Every built-in stop word, Chinese first.
pub fn stop_word_list() -> impl Iterator<Item = &'static str> {
    STOP_WORDS_ZH
        .split_whitespace()
        .chain(STOP_WORDS_EN.split_whitespace())
}

/// Whether `word` is a built-in stop word (ASCII case ignored).
#[inline]
pub fn is_stop_word(word: &str) -> bool {
    let Some(c) = word.chars().next() else {
        return false;
    };
    starts_stop_word(word, c as usize, c.len_utf8() == word.len())
}

/// [`is_stop_word`] for a caller that has decoded the first character `c` of `word` already
/// and knows whether it is the whole word (`alone`). Two bitmap reads answer most words; only a
/// word whose first character starts a longer stop word is looked up in the sorted list.
#[inline(always)]
pub(crate) fn starts_stop_word(word: &str, c: usize, alone: bool) -> bool {
    let t = table();
    if alone {
        bit(&t.single, c)
    } else {
        bit(&t.first, c) && key(word).is_some_and(|k| t.longer.binary_search(&k).is_ok())
    }
}

struct Table {
    /// Characters that are stop words on their own (BMP, both ASCII cases).
    single: [u64; 1024],
    /// First characters of longer stop words.
    first: [u64; 1024],
    /// [`key`]s of the longer stop words, sorted.
    longer: Vec<u128>,
}

#[inline(always)]
fn bit(map: &[u64], c: usize) -> bool {
    map.get(c >> 6).is_some_and(|w| w >> (c & 63) & 1 == 1)
}

/// A word of up to 15 bytes, ASCII lower-cased, packed with its length into one `u128`. Built
/// in registers: copying into a buffer and loading it wide stalls on store forwarding.
#[inline]
fn key(word: &str) -> Option<u128> {
    let bytes = word.as_bytes();
    (bytes.len() <= 15).then(|| {
        let k = bytes
            .iter()
            .rev()
            .fold(0u128, |k, b| k << 8 | u128::from(b.to_ascii_lowercase()));
        k | (bytes.len() as u128) << 120
    })
}

#[inline]
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Table {
            single: [0; 1024],
            first: [0; 1024],
            longer: Vec::new(),
        };
        for w in stop_word_list() {
            let mut chars = w.chars();
            let Some(c) = chars.next() else { continue };
            let alone = chars.next().is_none();
            let map = if alone { &mut t.single } else { &mut t.first };
            for c in [c, c.to_ascii_uppercase()] {
                if let Some(bits) = map.get_mut(c as usize >> 6) {
                    *bits |= 1 << (c as u32 & 63);
                }
            }
            t.longer.extend(key(w).filter(|_| !alone));
        }
        t.longer.sort_unstable();
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_word_is_found_and_nothing_else() {
        let n = stop_word_list().count();
        assert!((250..400).contains(&n), "{n}");
        assert!(stop_word_list().all(|w| w.len() <= 15 && is_stop_word(w)));
        assert!(is_stop_word("THE") && is_stop_word("我们") && is_stop_word("为什么"));
        for w in [
            "",
            "不",
            "搜索",
            "我们的",
            "thee",
            "theirs的",
            "t",
            "中国",
            "一个人",
        ] {
            assert!(!is_stop_word(w), "{w}");
        }
    }
}
