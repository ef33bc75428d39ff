//! Traditional → simplified Chinese, character by character: the same news story reprinted on a
//! Big5 site (Hong Kong, Taiwan) is the same text to a dedup method once both are folded. The
//! table (`assets/zh_t2s.txt`, 4,112 pairs) comes from OpenCC's `TSCharacters` and
//! `TWVariantsRev` dictionaries (Apache-2.0); phrase-level conversions (different words, not
//! different characters) are out of its reach.
//!
//! ```
//! use tianwang::engine::text::t2s::to_simplified;
//! assert_eq!(to_simplified('網'), '网');
//! assert_eq!(to_simplified('頁'), '页');
//! assert_eq!(to_simplified('网'), '网');
//! assert_eq!(to_simplified('a'), 'a');
//! ```

use std::sync::LazyLock;

const TABLE: &str = include_str!("../../../assets/zh_t2s.txt");
/// The dense part of the table: CJK Extension A and the Unified Ideographs.
const LO: u32 = 0x3400;
const HI: u32 = 0x9FFF;

struct Map {
    dense: Vec<char>,
    /// Pairs outside the dense range, sorted.
    rest: Vec<(char, char)>,
}

static MAP: LazyLock<Map> = LazyLock::new(|| {
    let mut dense: Vec<char> = (LO..=HI).filter_map(char::from_u32).collect();
    let mut rest = Vec::new();
    for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
        let mut it = line.split('\t').filter_map(|x| x.chars().next());
        if let (Some(t), Some(s)) = (it.next(), it.next()) {
            let u = t as u32;
            if (LO..=HI).contains(&u) {
                dense[(u - LO) as usize] = s;
            } else {
                rest.push((t, s));
            }
        }
    }
    rest.sort_unstable();
    Map { dense, rest }
});

/// The simplified form of `c` (itself when it has none).
#[inline]
pub fn to_simplified(c: char) -> char {
    let u = c as u32;
    if u < LO {
        return c;
    }
    let m = &*MAP;
    if u <= HI {
        return m.dense[(u - LO) as usize];
    }
    match m.rest.binary_search_by_key(&c, |x| x.0) {
        Ok(i) => m.rest[i].1,
        Err(_) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_webs_traditional_edition_folds_to_its_source() {
        let t: String = "文華日報報導：臺灣與香港的讀者對這篇關於網路搜尋引擎的文章反應熱烈。"
            .chars()
            .map(to_simplified)
            .collect();
        assert_eq!(
            t,
            "文华日报报导：台湾与香港的读者对这篇关于网路搜寻引擎的文章反应热烈。"
        );
        // Every mapping lands on a character that maps to itself.
        for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
            let s = line
                .split('\t')
                .nth(1)
                .and_then(|x| x.chars().next())
                .unwrap();
            assert_eq!(to_simplified(s), s, "{line}");
        }
    }
}
