//! Class/id hints: the words of a block's `#id.class` that say what it holds — boilerplate
//! with the role it plays (navigation, footer, a sidebar, an advertisement …), article text, or
//! a container of other pages' text whose whole subtree scores less (readability's "unlikely
//! candidates") — and the roles of the elements that say it by their tag ([L2298–L2306]: the
//! book finds the middle region by layout; without a renderer, names and tags stand in).
//!
//! ```ignore
//! assert!(hint_role(&div_with_hint("#footer")).is_some());
//! assert!(is_sidebar(&div_with_hint("#PopularPosts1.PopularPosts.widget")));
//! assert!(!is_sidebar(&div_with_hint("#Blog1.Blog.widget"))); // Blogger's post
//! ```

use super::super::tree::TreeBlock;
use super::super::{Role, Why};

/// Class/id words that mark boilerplate, with the role they give. Long words match as
/// substrings; short ones (≤ 4 letters) only as whole tokens of the hint.
const NEGATIVE_HINTS: &[(&str, Role)] = &[
    ("comment", Role::Other),
    ("footer", Role::Footer),
    ("foot", Role::Footer),
    ("bottom", Role::Footer),
    ("copyright", Role::Footer),
    ("nav", Role::Navigation),
    ("menu", Role::Navigation),
    ("breadcrumb", Role::Navigation),
    ("crumb", Role::Navigation),
    ("toolbar", Role::Navigation),
    ("header", Role::Navigation),
    ("top", Role::Navigation),
    ("sidebar", Role::LinkList),
    ("side", Role::LinkList),
    ("aside", Role::LinkList),
    ("rail", Role::LinkList),
    ("widget", Role::LinkList),
    ("related", Role::LinkList),
    ("recommend", Role::LinkList),
    ("hot", Role::LinkList),
    ("rank", Role::LinkList),
    ("pager", Role::Navigation),
    ("pagination", Role::Navigation),
    ("share", Role::Other),
    ("social", Role::Other),
    ("tags", Role::Other),
    ("advert", Role::Ad),
    ("gg", Role::Ad),
    ("guanggao", Role::Ad),
    ("ad", Role::Ad),
    ("ads", Role::Ad),
    ("adv", Role::Ad),
    ("banner", Role::Ad),
    ("sponsor", Role::Ad),
    ("promo", Role::Ad),
    ("caption", Role::Picture),
    ("credit", Role::Picture),
    ("byline", Role::Meta),
    ("author", Role::Meta),
    ("dateline", Role::Meta),
    ("timestamp", Role::Meta),
    ("newsletter", Role::Ad),
    ("subscribe", Role::Ad),
    ("signup", Role::Ad),
    ("login", Role::Other),
    ("search", Role::Other),
];

/// Class/id words that mark article text.
const POSITIVE_HINTS: &[&str] = &[
    "article", "content", "artibody", "endtext", "main", "post", "entry", "story", "detail",
    "text", "txt", "zw", "zhengwen", "body", "news", "con", "cont",
];

/// The words of a class/id hint: runs of ASCII letters and digits without their trailing
/// digits, as written (compared ignoring ASCII case, so no lower-cased copies are made).
fn hint_tokens(hint: &str) -> impl Iterator<Item = &[u8]> + '_ {
    hint.as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| {
            let keep = t
                .iter()
                .rposition(|b| !b.is_ascii_digit())
                .map_or(0, |i| i + 1);
            &t[..keep]
        })
}

/// `tok` (ASCII) equals `word` (lower case) ignoring ASCII case.
fn tok_is(tok: &[u8], word: &str) -> bool {
    tok.eq_ignore_ascii_case(word.as_bytes())
}

fn tok_starts(tok: &[u8], word: &str) -> bool {
    tok.get(..word.len()).is_some_and(|h| tok_is(h, word))
}

fn tok_ends(tok: &[u8], word: &str) -> bool {
    tok.len() >= word.len() && tok_is(&tok[tok.len() - word.len()..], word)
}

fn tok_contains(tok: &[u8], word: &str) -> bool {
    tok.windows(word.len()).any(|w| tok_is(w, word))
}

/// The role a block's tag or, failing that, its class/id hint gives, if any (the analysis asks
/// the two apart, sharing a hint's verdict between the blocks that carry it).
#[cfg(test)]
pub(super) fn negative_hint(b: &TreeBlock) -> Option<(Role, Why)> {
    tag_role(b.tag).or_else(|| hint_role(b))
}

/// The role of the elements that say what they are by name, whatever their hint.
pub(super) fn tag_role(tag: &'static str) -> Option<(Role, Why)> {
    let role = match tag {
        "nav" | "header" => Role::Navigation,
        "footer" => Role::Footer,
        "aside" => Role::LinkList,
        "figcaption" => Role::Picture,
        _ => return None,
    };
    Some((role, Why::of("tag", [tag])))
}

/// The role a class/id hint gives, if any: it depends on the hint and, of the tag, only on
/// whether the block is a quote (so one verdict serves every block of a hint).
pub(super) fn hint_role(b: &TreeBlock) -> Option<(Role, Why)> {
    if b.hint.is_empty() {
        return None;
    }
    // A word of article text vetoes the hint, but not for comments and a search box
    // (`#search-main` is the search form over a Bible passage, not the passage).
    let unvetoed = ["comment", "search"];
    if positive_hint(b) && !unvetoed.iter().any(|w| tok_contains(b.hint.as_bytes(), w)) {
        return None;
    }
    // A quoted post (an embedded tweet: `<div class=social-media-embed><blockquote>`) is the
    // article quoting someone, not a share bar; asked only when a share/social word hits.
    let quoted = || b.tag == "blockquote" || hint_tokens(&b.hint).any(|t| tok_contains(t, "embed"));
    for tok in hint_tokens(&b.hint) {
        for &(word, role) in NEGATIVE_HINTS {
            let hit = if word.len() <= 4 {
                tok_is(tok, word)
                    || (matches!(word, "nav" | "menu" | "foot")
                        && (tok_starts(tok, word) || tok_ends(tok, word)))
            } else {
                tok_contains(tok, word)
            };
            if hit && !(matches!(word, "share" | "social") && quoted()) {
                return Some((role, Why::of("hint", [b.hint.as_str(), word])));
            }
        }
    }
    None
}

/// Whether a block holds running text with next to no links, which a navigation word in its
/// class/id cannot make navigation (navigation is links): `td.nav-new-1-pixel` styling the
/// cell of an article's 12,000 characters.
pub(super) fn is_running_text(b: &TreeBlock) -> bool {
    b.sub_chars >= 300 && b.sub_anchor * 20 <= b.sub_chars && b.sub_punct >= 3
}

/// Class/id words that mark article text only as a whole word: Blogger's post container is
/// `<div class="widget Blog" id="Blog1">` (its sidebars are `widget BlogArchive`,
/// `widget PopularPosts` …), readability-lxml's `blog` positive hint.
const EXACT_POSITIVE_HINTS: &[&str] = &["blog"];

/// Whether what a block holds is not the article, by its tag (`<aside>`, `<footer>`, `<nav>`)
/// or, when it has a hint (`hinted`), by its class/id naming a sidebar.
pub(super) fn encloses_other_text(b: &TreeBlock, hinted: bool) -> bool {
    matches!(b.tag, "aside" | "footer" | "nav") || (hinted && is_sidebar(b))
}

/// Whether a block's class/id names a sidebar (and nothing that marks article text).
pub(super) fn is_sidebar(b: &TreeBlock) -> bool {
    !positive_hint(b)
        && hint_tokens(&b.hint).any(|t| SIDEBAR_HINTS.iter().any(|w| tok_contains(t, w)))
}

/// Class/id words that name a container of other pages' text or of the site's and the
/// author's own (see [`is_sidebar`]).
const SIDEBAR_HINTS: &[&str] = &["sidebar", "widget", "related", "recommend", "author"];

pub(super) fn positive_hint(b: &TreeBlock) -> bool {
    hint_tokens(&b.hint).any(|t| {
        POSITIVE_HINTS
            .iter()
            .any(|p| tok_is(t, p) || tok_starts(t, p))
            || EXACT_POSITIVE_HINTS.iter().any(|p| tok_is(t, p))
    })
}
