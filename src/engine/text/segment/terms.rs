//! The index terms of a token stream: which tokens are terms (Word and Latin, not stop words,
//! [`super::is_stop_word`]) and their lower-cased form. Per-token work is what separates
//! `terms` from a raw cut, so the common cases are decided from as few bytes as possible.
//!
//! ```ignore
//! // jieba cuts 搜索引擎 / 的 / 原理; the stop word goes, the offsets are in characters.
//! nohmm_terms("搜索引擎的原理", |t, at| println!("{t} {at}")); // 搜索引擎 0, 原理 5
//! ```

use std::borrow::Cow;

use super::nohmm::{Kind, NoHmm, three_byte};
use super::{TokenKind, classify, is_stop_word};
use crate::engine::text::stopwords::starts_stop_word;

/// The kind of a jieba token if it is a term (Word or Latin, not a stop word). A token that
/// starts with a main-block Han character (E4 B8 80 to E9 BF BF in UTF-8), the common case, is
/// decided from that character: per-token work is what separates `terms` from raw jieba.
#[inline(always)]
pub(super) fn term_kind(word: &str) -> Option<TokenKind> {
    if let [b0 @ 0xE4..=0xE9, b1, b2, rest @ ..] = word.as_bytes() {
        let c = three_byte(*b0, *b1, *b2) as usize;
        if c >= 0x4E00 {
            return (!starts_stop_word(word, c, rest.is_empty())).then_some(TokenKind::Word);
        }
    }
    match classify(word) {
        k @ (TokenKind::Word | TokenKind::Latin) if !is_stop_word(word) => Some(k),
        _ => None,
    }
}

/// `word` lower-cased where needed: a Latin token fully, a Word only in its ASCII letters.
#[inline(always)]
pub(super) fn lowercase(word: &str, kind: TokenKind) -> Cow<'_, str> {
    let upper = match kind {
        TokenKind::Latin if !word.is_ascii() => word.chars().any(char::is_uppercase),
        _ => word
            .bytes()
            .fold(false, |up, b| up | b.is_ascii_uppercase()),
    };
    if upper {
        Cow::Owned(word.to_lowercase())
    } else {
        Cow::Borrowed(word)
    }
}

/// [`super::Segmenter::for_each_term_at`] of [`super::Method::JiebaNoHmm`] with stop words
/// dropped: the cutter passes each Word and Latin token with its [`Kind`], so a token is never
/// classified again, and a word of Han characters only is never lower-cased.
#[inline]
pub(super) fn nohmm_terms<'a>(text: &'a str, mut f: impl FnMut(Cow<'a, str>, usize)) {
    NoHmm::shared().cut_kinds::<true>(text, &mut |w, start, kind| match kind {
        Kind::Han => {
            if !han_stop_word(w) {
                f(Cow::Borrowed(w), start)
            }
        }
        _ => {
            if !is_stop_word(w) {
                f(lowercase(w, kind.token_kind()), start)
            }
        }
    });
}

/// [`is_stop_word`] of a word of Han characters: a first character in the Basic
/// Multilingual Plane (three UTF-8 bytes) is decoded in place.
#[inline(always)]
fn han_stop_word(word: &str) -> bool {
    if let [b0 @ 0xE0..=0xEF, b1, b2, rest @ ..] = word.as_bytes() {
        let c = three_byte(*b0, *b1, *b2) as usize;
        return starts_stop_word(word, c, rest.is_empty());
    }
    is_stop_word(word)
}

#[cfg(test)]
mod tests;
