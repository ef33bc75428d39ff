//! A row's text as the UI's string tables say it: a stable key and its arguments, derived
//! from the English text the registry writes (a row's `name`, its `note`, a unit that is a
//! word). The numbers in the text (a cache size, k), web addresses and runs of Chinese (a
//! segmentation example) become the arguments `{0}`, `{1}` …; the rest, lowercased and
//! joined by `_` (a book line `[L4279]` stays in it), is the key: `LRU hit ratio at 500` → `row.lru_hit_ratio_at_n` with `["500"]`,
//! which `en.txt` says as `LRU hit ratio at {0}` and `zh.txt` as `{0} 时 LRU 命中率`.
//! The English `name` stays the row's identifier (lessons refer to rows by it).
//!
//! ```
//! use tianwang::workbench::experiments::Label;
//! let l = Label::derive("row.", "near-duplicate F1 at k = 3");
//! assert_eq!(l.key, "row.near_duplicate_f1_at_k_n");
//! assert_eq!(l.args, ["3"]);
//! ```

use serde::{Deserialize, Serialize};

/// A key of the string tables and the arguments of its `{0}`, `{1}` ….
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Label {
    #[serde(default)]
    pub key: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// Is `c` part of a run of Chinese that becomes an argument?
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ffef}')
}

impl Label {
    /// The key (`prefix` + the text's words) and arguments (its numbers and Chinese) of `text`.
    pub fn derive(prefix: &str, text: &str) -> Label {
        let chars: Vec<char> = text.chars().collect();
        let mut key = String::from(prefix);
        let mut args = Vec::new();
        let mut gap = false;
        let mut i = 0;
        let push = |key: &mut String, gap: &mut bool, word: &str| {
            if *gap && !key.ends_with('.') && !key.ends_with('_') {
                key.push('_');
            }
            key.push_str(word);
            *gap = false;
        };
        while i < chars.len() {
            let c = chars[i];
            let rest: String = chars[i..chars.len().min(i + 8)].iter().collect();
            if rest.starts_with("http://") || rest.starts_with("https://") {
                // An address: one argument up to the next space.
                let j = (i..chars.len())
                    .find(|&j| chars[j].is_whitespace())
                    .unwrap_or(chars.len());
                args.push(chars[i..j].iter().collect());
                push(&mut key, &mut gap, "url");
                i = j;
                continue;
            }
            let word_start = i == 0 || !chars[i - 1].is_ascii_alphanumeric();
            if c.is_ascii_digit() && word_start {
                // A number: digits with at most one decimal point between digits.
                let mut j = i;
                let mut dot = false;
                while j < chars.len()
                    && (chars[j].is_ascii_digit()
                        || (chars[j] == '.'
                            && !dot
                            && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
                {
                    dot |= chars[j] == '.';
                    j += 1;
                }
                if j == chars.len() || !chars[j].is_ascii_alphabetic() {
                    args.push(chars[i..j].iter().collect());
                    push(&mut key, &mut gap, "n");
                    i = j;
                    continue;
                }
            }
            if is_cjk(c) {
                let j = (i..chars.len())
                    .find(|&j| !is_cjk(chars[j]))
                    .unwrap_or(chars.len());
                args.push(chars[i..j].iter().collect());
                push(&mut key, &mut gap, "x");
                i = j;
                continue;
            }
            if c.is_ascii_alphanumeric() {
                let j = (i..chars.len())
                    .find(|&j| !chars[j].is_ascii_alphanumeric())
                    .unwrap_or(chars.len());
                let w: String = chars[i..j].iter().collect();
                push(&mut key, &mut gap, &w.to_ascii_lowercase());
                i = j;
                continue;
            }
            gap = true;
            i += 1;
        }
        Label { key, args }
    }

    /// The English text back from an `en.txt` template of this key.
    pub fn fill(&self, template: &str) -> String {
        let mut s = template.to_string();
        for (i, a) in self.args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_chinese_become_arguments() {
        let l = Label::derive("row.", "LRU hit ratio at 500");
        assert_eq!(
            (l.key.as_str(), l.args.clone()),
            ("row.lru_hit_ratio_at_n", vec!["500".to_string()])
        );
        assert_eq!(l.fill("LRU hit ratio at {0}"), "LRU hit ratio at 500");
        let l = Label::derive("row.", "FMM 学历史知识");
        assert_eq!(l.key, "row.fmm_x");
        assert_eq!(l.args, ["学历史知识"]);
        let l = Label::derive("note.", "[L4279]: k = 15 is best; within 0.02");
        assert_eq!(l.key, "note.l4279_k_n_is_best_within_n");
        assert_eq!(l.args, ["15", "0.02"]);
        // A digit inside a word stays in the key (F1, 2nd).
        let l = Label::derive("row.", "macro-F1 at 2 nodes");
        assert_eq!(l.key, "row.macro_f1_at_n_nodes");
        assert_eq!(Label::derive("unit.", "").key, "unit.");
        let l = Label::derive("row.", "hub #2 http://www.hollins.edu/a.htm");
        assert_eq!(l.key, "row.hub_n_url");
        assert_eq!(l.args, ["2", "http://www.hollins.edu/a.htm"]);
    }
}
