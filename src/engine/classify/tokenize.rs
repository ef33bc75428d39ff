//! Tokenisation: the first step of the classifier pipeline (segmentation, book ch. 11.3
//! [L4031–L4035]: "word segmentation is needed, and its quality affects classification").
//!
//! A [`Tokenizer`] turns a document's text into terms. The default, [`JiebaTokenizer`], cuts with
//! jieba-rs `cut(text, hmm = true)` — Python jieba's default `lcut`, which the scikit-learn
//! reference figures used — drops whitespace-only tokens, optionally lower-cases, optionally drops stop words and optionally adds character bigrams.
//! Any closure `Fn(&str) -> Vec<String>` is a tokenizer too, so the lead can plug in the
//! book's FMM/RMM segmenters.
//!
//! ```no_run
//! use tianwang::engine::classify::tokenize::{JiebaTokenizer, TokenConfig, Tokenizer};
//! let t = JiebaTokenizer::new(TokenConfig::default());
//! let terms = t.tokens("同步A股首秀：港股缩量回调");
//! assert!(terms.contains(&"港股".to_string()));
//! ```

use std::sync::{Arc, OnceLock};

use jieba_rs::Jieba;
use serde::{Deserialize, Serialize};

/// Turns a text into its terms (in order, with repeats).
pub trait Tokenizer: Sync + Send {
    fn tokens(&self, text: &str) -> Vec<String>;
}

impl<F> Tokenizer for F
where
    F: Fn(&str) -> Vec<String> + Sync + Send,
{
    fn tokens(&self, text: &str) -> Vec<String> {
        self(text)
    }
}

/// How text becomes terms; stored with a model so prediction tokenises the same way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenConfig {
    /// jieba words (on by default).
    pub words: bool,
    /// jieba's HMM for unknown words (Python jieba's default: on).
    pub hmm: bool,
    /// Add character bigrams of each run of non-space characters (prefixed `_`).
    pub char_bigrams: bool,
    /// Drop common Chinese/English function words and punctuation-only tokens.
    pub stop_words: bool,
    /// Lower-case the text first (off by default: the reference's 25,129 features are the
    /// un-lowered jieba tokens; scikit-learn's `CountVectorizer` would lower-case).
    pub lowercase: bool,
}

impl Default for TokenConfig {
    fn default() -> Self {
        TokenConfig {
            words: true,
            hmm: true,
            char_bigrams: false,
            stop_words: false,
            lowercase: false,
        }
    }
}

/// One jieba dictionary per process (loading it takes ~0.3 s), shared across threads.
pub(crate) fn shared_jieba() -> Arc<Jieba> {
    static JIEBA: OnceLock<Arc<Jieba>> = OnceLock::new();
    JIEBA.get_or_init(|| Arc::new(Jieba::new())).clone()
}

/// A small stop list: function words and punctuation (used only with `stop_words`).
const STOP_WORDS: &[&str] = &[
    "的", "了", "在", "是", "和", "与", "及", "或", "也", "都", "就", "而", "被", "把", "对", "从",
    "为", "以", "于", "之", "其", "这", "那", "有", "个", "上", "中", "下", "将", "等", "a", "an",
    "the", "of", "to", "in", "and", "or", "is", "on", "for",
];

fn is_stop(tok: &str) -> bool {
    STOP_WORDS.contains(&tok) || tok.chars().all(|c| !c.is_alphanumeric())
}

/// The default tokenizer: jieba words (+ optional bigrams, stop words).
#[derive(Clone)]
pub struct JiebaTokenizer {
    jieba: Arc<Jieba>,
    pub config: TokenConfig,
}

impl JiebaTokenizer {
    pub fn new(config: TokenConfig) -> Self {
        JiebaTokenizer {
            jieba: shared_jieba(),
            config,
        }
    }
}

impl Tokenizer for JiebaTokenizer {
    fn tokens(&self, text: &str) -> Vec<String> {
        let c = &self.config;
        let lowered;
        let text = if c.lowercase {
            lowered = text.to_lowercase();
            lowered.as_str()
        } else {
            text
        };
        let mut out = Vec::new();
        if c.words {
            for t in self.jieba.cut(text, c.hmm) {
                if t.word.trim().is_empty() || (c.stop_words && is_stop(t.word)) {
                    continue;
                }
                out.push(t.word.to_string());
            }
        }
        if c.char_bigrams {
            for run in text.split(|ch: char| ch.is_whitespace() || !ch.is_alphanumeric()) {
                let chars: Vec<char> = run.chars().collect();
                for w in chars.windows(2) {
                    out.push(format!("_{}{}", w[0], w[1]));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jieba_words_and_bigrams() {
        let t = JiebaTokenizer::new(TokenConfig::default());
        let w = t.tokens("同步A股首秀：港股缩量回调");
        assert!(w.contains(&"港股".to_string()), "{w:?}");
        assert!(w.iter().all(|x| !x.trim().is_empty()));
        let t = JiebaTokenizer::new(TokenConfig {
            words: false,
            char_bigrams: true,
            ..TokenConfig::default()
        });
        assert_eq!(t.tokens("港股 回调"), vec!["_港股", "_回调"]);
    }

    #[test]
    fn closures_are_tokenizers() {
        let f = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(Tokenizer::tokens(&f, "a b"), vec!["a", "b"]);
    }
}
