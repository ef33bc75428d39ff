//! Block types, the main region, the page type and the body [L2234, L2294–L2310].
//!
//! The book locates the body in the page's *middle region* by layout position [L2298]. We have
//! no renderer, so the middle region is found by content: every block with running text of its
//! own scores `1 + sentence punctuation + min(chars / 100, 3)`, passed to its container and, at
//! falling shares, to the container's ancestors; a candidate's total is scaled by
//! `1 − link density` and by class/id hints (`hints`), and everything inside a sidebar, a
//! `<footer>` or a `<nav>` scores 0.3×; the best candidate and its qualifying siblings form
//! the region (`region`: a thread keeps its first post, an article split into stretches keeps
//! them all). Inside it, the book's body rule keeps the topic blocks in depth-first order, less
//! by-lines, advertisements and boilerplate lines (Chinese here, Latin-script in `latin`).

use super::tree::{PageTree, TreeBlock};
use super::{BlockKind, PageType, Params, Role, TypeRatios, Why};
use crate::engine::text::fxhash::FxMap;

mod edges;
mod furniture;
mod hints;
mod latin;
mod lines;
#[cfg(test)]
mod pages;
mod region;

use hints::{encloses_other_text, hint_role, positive_hint, tag_role};
#[cfg(test)]
use hints::{is_sidebar, negative_hint};

/// What the analysis decided, per block and per line.
pub(crate) struct Analysis {
    pub kinds: Vec<BlockKind>,
    pub roles: Vec<Role>,
    pub reasons: Vec<Why>,
    pub scores: Vec<f64>,
    pub in_region: Vec<bool>,
    /// Role of every line of the tree.
    pub line_roles: Vec<Role>,
    pub page_type: PageType,
    pub ratios: TypeRatios,
    /// Roots of the main region.
    pub region: Vec<usize>,
    /// Body lines whose tail is furniture (a navigation link stuck to the last paragraph), as
    /// (line, bytes kept): the body text keeps only the head.
    pub cuts: edges::Cuts,
}

impl Analysis {
    /// Body lines joined by newlines.
    pub(crate) fn body_text(&self, tree: &PageTree) -> String {
        let mut out = String::new();
        for i in 0..tree.lines.len() {
            if self.line_roles[i] == Role::Body {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(self.line_text(tree, i));
            }
        }
        out
    }

    /// Whether the link text `anchor` of `block` lies in the furniture tail cut off one of the
    /// block's lines (`cuts`): such a link (返回…首页>>) is navigation, not a related link.
    pub(crate) fn in_cut_tail(&self, tree: &PageTree, block: usize, anchor: &str) -> bool {
        let anchor = anchor.trim();
        !anchor.is_empty()
            && self.cuts.iter().any(|&(i, keep)| {
                let l = &tree.lines[i];
                l.block == block && l.text.get(keep..).is_some_and(|t| t.contains(anchor))
            })
    }

    /// Line `i`'s text as the body has it: without a furniture tail cut off it (`cuts`), so
    /// the body text, the keywords and the abstract read the same words.
    pub(crate) fn line_text<'t>(&self, tree: &'t PageTree, i: usize) -> &'t str {
        let text = tree.lines[i].text.as_str();
        match self.cuts.iter().find(|c| c.0 == i) {
            Some(&(_, keep)) => text.get(..keep).unwrap_or(text),
            None => text,
        }
    }
}

/// Tags whose own text makes them a paragraph of their container.
const PARAGRAPH_TAGS: &[&str] = &[
    "p",
    "li",
    "dd",
    "dt",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "figcaption",
    "caption",
    "address",
];

/// The book's block type [L2234] from the block's subtree counts.
fn block_kind(b: &TreeBlock, p: &Params) -> BlockKind {
    let text = b.sub_chars.saturating_sub(b.sub_anchor) as f64;
    if b.sub_images > 0 && text / (b.sub_images as f64) < p.pic_ratio.min(40.0) && text < 60.0 {
        return BlockKind::Pic;
    }
    if b.sub_anchor > 0 && b.sub_links >= 2 && text / (b.sub_anchor as f64) < p.hub_ratio {
        return BlockKind::Hub;
    }
    BlockKind::Topic
}

/// Paragraph score of a block's own text (readability's recipe, with Chinese punctuation).
fn own_score(b: &TreeBlock) -> f64 {
    let text = b.chars.saturating_sub(b.anchor_chars);
    if text < 10 || (b.anchor_chars as f64) > 0.5 * (b.chars as f64) {
        return 0.0;
    }
    paragraph_score(b, text)
}

/// readability's paragraph score of `text` characters of `b`: one, a point per comma-like
/// punctuation mark (at most one per four characters), a point per hundred characters (at
/// most three).
fn paragraph_score(b: &TreeBlock, text: usize) -> f64 {
    1.0 + b.punct.min(text / 4) as f64 + (text as f64 / 100.0).min(3.0)
}

/// The block a hint was written on: a block without a class/id of its own carries its
/// parent's, so the nearest ancestor-or-self whose parent has another hint.
fn hint_owner<'t>(tree: &'t PageTree, b: &'t TreeBlock) -> &'t TreeBlock {
    let mut at = b;
    while let Some(p) = at.parent.map(|p| &tree.blocks[p])
        && p.hint == b.hint
    {
        at = p;
    }
    at
}

/// Paragraph score of the running text among a link-heavy block's own lines (`plain`
/// characters in lines without link text): 0 below 200 characters, where a list's
/// unlinked labels and dates end.
fn plain_score(b: &TreeBlock, plain: usize) -> f64 {
    if plain < 200 {
        return 0.0;
    }
    paragraph_score(b, plain)
}

fn link_density(b: &TreeBlock) -> f64 {
    if b.sub_chars == 0 {
        0.0
    } else {
        b.sub_anchor as f64 / b.sub_chars as f64
    }
}

/// Whether `t` has at most `n` characters, counted only when its length in bytes leaves it
/// open (a character is one to four bytes; most body lines are far too long for the short-line
/// rules that ask).
#[inline]
pub(crate) fn at_most_chars(t: &str, n: usize) -> bool {
    t.len() <= n || (t.len() <= 4 * n && t.chars().count() <= n)
}

/// Is this a by-line (date with source/author/editor)?
pub(crate) fn is_byline(text: &str) -> bool {
    // Over 360 bytes is over 90 characters: no need to count them (as `furniture::is_promo`);
    // the count is needed below, so it is made once.
    if text.len() > 4 * 90 {
        return false;
    }
    let n = text.chars().count();
    if n > 90 {
        return false;
    }
    const WORDS: &[&str] = &[
        "来源",
        "作者",
        "编辑",
        "发布",
        "时间",
        "日期",
        "记者",
        "稿源",
        "浏览",
        "点击",
        "阅读",
        "出处",
        "发表",
        "更新",
        "录入",
        "供稿",
        "责编",
        "摄影",
        "通讯员",
        "字号",
        "人气",
    ];
    // Running text (a full stop, or clauses) is not a by-line, dates and "日期" or not.
    if text.contains('。') || text.matches('，').count() >= 2 {
        return false;
    }
    // A line that is nothing but a date (and time) is one too.
    let only_date = text
        .chars()
        .all(|c| c.is_ascii_digit() || " -/.:年月日时分秒()（）".contains(c));
    if only_date && has_date(text) {
        return true;
    }
    let starts = [
        "来源：",
        "来源:",
        "作者：",
        "作者:",
        "责任编辑",
        "编辑：",
        "编辑:",
        "【来源",
    ]
    .iter()
    .any(|s| text.trim_start().starts_with(s));
    // The word list last: most lines have neither a date nor a time.
    (starts && n <= 40)
        || ((has_date(text) || has_time(text)) && WORDS.iter().any(|w| text.contains(w)))
}

fn has_date(text: &str) -> bool {
    // Four ASCII digits, a separator, a digit: on bytes, since an ASCII byte is a whole
    // character in UTF-8 (the same test as on characters, without collecting them).
    let b = text.as_bytes();
    (0..b.len().saturating_sub(4)).any(|i| {
        b[i..i + 4].iter().all(u8::is_ascii_digit) && {
            let mut rest = text[i + 4..].chars();
            matches!(rest.next(), Some('-' | '年' | '/' | '.'))
                && rest.next().is_some_and(|c| c.is_ascii_digit())
        }
    })
}

fn has_time(text: &str) -> bool {
    // `d:dd` with at least one character before it, on bytes as in `has_date`.
    let b = text.as_bytes();
    (2..b.len().saturating_sub(2)).any(|i| {
        b[i] == b':'
            && b[i - 1].is_ascii_digit()
            && b[i + 1].is_ascii_digit()
            && b[i + 2].is_ascii_digit()
    })
}

/// A short line that labels itself an advertisement (【广告】, 【推广】, 分类广告：…).
pub(crate) fn is_ad_line(text: &str) -> bool {
    let t = text.trim_start();
    at_most_chars(t, 80)
        && [
            "【广告】",
            "【推广】",
            "[广告]",
            "广告：",
            "广告:",
            "分类广告",
            "推广：",
            "赞助商：",
        ]
        .iter()
        .any(|p| t.starts_with(p))
}

/// Short boilerplate lines found on article pages.
pub(crate) fn is_boilerplate(text: &str) -> bool {
    if !at_most_chars(text, 40) {
        return false;
    }
    const PHRASES: &[&str] = &[
        "打印",
        "关闭窗口",
        "关闭本页",
        "字号",
        "字体：",
        "分享到",
        "收藏本文",
        "推荐给好友",
        "返回顶部",
        "上一篇",
        "下一篇",
        "上一页",
        "下一页",
        "相关新闻",
        "相关链接",
        "相关阅读",
        "相关文章",
        "延伸阅读",
        "我要评论",
        "发表评论",
        "网友评论",
        "版权所有",
        "copyright",
        "Copyright",
        "免责声明",
        "扫描二维码",
        "点击排行",
        "热点推荐",
        "返回首页",
        "登录",
        "注册",
        "【大 中 小】",
        "更多>>",
        "感谢您的反馈",
        "阅读数",
    ];
    static SET: std::sync::OnceLock<PhraseSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| PhraseSet::new(PHRASES)).found_in(text)
}

/// A fixed list of phrases to look for, with a 128-bit filter of their first characters and
/// the phrases grouped by that filter's bit, so that a character that passes the filter is
/// compared with the few phrases of its bit only.
pub(crate) struct PhraseSet {
    filter: u128,
    /// Bit `h`'s phrases are `firsts[starts[h]..starts[h + 1]]`.
    starts: [usize; 129],
    /// Each phrase with its first character, by filter bit (an empty phrase is in every text).
    firsts: Vec<(char, &'static str)>,
    any_empty: bool,
}

impl PhraseSet {
    pub(crate) fn new(phrases: &[&'static str]) -> Self {
        let mut firsts: Vec<(char, &'static str)> = phrases
            .iter()
            .filter_map(|p| Some((p.chars().next()?, *p)))
            .collect();
        firsts.sort_by_key(|&(c, _)| phrase_slot(c));
        let mut starts = [0usize; 129];
        for &(c, _) in &firsts {
            starts[phrase_slot(c) + 1] += 1;
        }
        for h in 1..starts.len() {
            starts[h] += starts[h - 1];
        }
        PhraseSet {
            filter: firsts.iter().fold(0, |m, (c, _)| m | 1 << phrase_slot(*c)),
            starts,
            firsts,
            any_empty: phrases.iter().any(|p| p.is_empty()),
        }
    }

    /// `phrases.iter().any(|p| text.contains(p))` in one pass over `text`: a phrase is tried
    /// only where its first character is.
    pub(crate) fn found_in(&self, text: &str) -> bool {
        self.any_empty
            || text.char_indices().any(|(i, c)| {
                let h = phrase_slot(c);
                self.filter >> h & 1 != 0
                    && (self.firsts[self.starts[h]..self.starts[h + 1]].iter())
                        .any(|&(f, p)| f == c && text[i..].starts_with(p))
            })
    }
}

/// A character's bit in [`PhraseSet`]'s filter, 0..128.
fn phrase_slot(c: char) -> usize {
    ((c as u32).wrapping_mul(0x9E37_79B1) >> 25) as usize
}

/// The factor of a candidate with a boilerplate hint, and of every candidate inside a sidebar,
/// `<footer>` or `<nav>`: the same, so a container and its contents weigh alike.
const HINTED: f64 = 0.3;

/// Run the block and region analysis.
pub(crate) fn analyse(tree: &PageTree, p: &Params) -> Analysis {
    let n = tree.blocks.len();
    let kinds: Vec<BlockKind> = tree.blocks.iter().map(|b| block_kind(b, p)).collect();
    // The blocks of a page repeat their class names (a list's hundred `li.item`): each
    // distinct hint is judged once.
    let mut judged: FxMap<(&str, bool), Option<(Role, Why)>> = FxMap::default();
    let hints: Vec<Option<(Role, Why)>> = (tree.blocks.iter())
        .map(|b| {
            if let Some(by_tag) = tag_role(b.tag) {
                return Some(by_tag);
            }
            if b.hint.is_empty() {
                return None;
            }
            let hint = (judged.entry((b.hint.as_str(), b.tag == "blockquote")))
                .or_insert_with(|| hint_role(b))
                .clone();
            match hint {
                Some((Role::Navigation, _)) if hints::is_running_text(hint_owner(tree, b)) => None,
                hint => hint,
            }
        })
        .collect();
    // 1. Paragraph scores flow to containers.
    let mut scores = vec![0.0f64; n];
    // Blocks whose own text is nothing but URLs written out (a hidden friend-link list): no
    // paragraph. Per block: (has a URL line, has another line).
    let mut urls = vec![(false, false); n];
    // Per block: the characters of its own lines without link text (a story told in a cell
    // above a long list of related links is running text, though the cell is mostly links).
    let mut plain = vec![0usize; n];
    for l in tree.lines.iter().filter(|l| l.chars > 0) {
        if furniture::is_url_text(&l.text) {
            urls[l.block].0 = true;
        } else {
            urls[l.block].1 = true;
        }
        if l.anchor_chars == 0 {
            plain[l.block] += l.chars;
        }
    }
    for (id, b) in tree.blocks.iter().enumerate() {
        let s = if urls[id] == (true, false) {
            0.0
        } else {
            own_score(b).max(plain_score(b, plain[id]))
        };
        if s == 0.0 {
            continue;
        }
        // A short leaf container (a teaser <div>, a caption <td>) is a paragraph of its
        // parent; a long one holds an article by itself.
        let short_leaf = b.child_count == 0 && b.chars.saturating_sub(b.anchor_chars) < 150;
        let mut target = if PARAGRAPH_TAGS.contains(&b.tag) || short_leaf {
            b.parent
        } else {
            Some(id)
        };
        let mut level = 0usize;
        while let Some(t) = target {
            if level > 3 || tree.blocks[t].depth < 2 {
                break;
            }
            let share = match level {
                0 => 1.0,
                1 => 0.5,
                _ => 1.0 / (level as f64 * 3.0),
            };
            scores[t] += s * share;
            target = tree.blocks[t].parent;
            level += 1;
        }
    }
    for (id, b) in tree.blocks.iter().enumerate() {
        if scores[id] > 0.0 {
            // (1 − link density)²: lists of links with a little text (forum indexes, related
            // news with teasers) lose to running text more clearly than under readability's
            // linear factor.
            let mut f = (1.0 - link_density(b)).powi(2);
            if positive_hint(b) {
                f *= 1.3;
            }
            if hints[id].is_some() {
                f *= HINTED;
            }
            scores[id] *= f;
        }
    }
    // Text inside a sidebar (an `<aside>`, a sidebar, widget or related-posts container), a
    // `<footer>` or a `<nav>` is not the article: a popular post's long teaser or a footer's
    // contact lines must not outscore it, as readability drops its "unlikely candidates" with
    // everything inside them. Only the words that name a sidebar alone count: a `left-side`
    // or `hot-news` column may hold the article.
    // `covers[b]`: the blocks under `b` are inside such a container (parents come first). Each
    // block is judged once; only hinted ones have their words read (a sidebar word is a hint).
    let mut covers = vec![false; n];
    for (id, b) in tree.blocks.iter().enumerate() {
        let inside = b.parent.is_some_and(|p| covers[p]);
        if inside {
            scores[id] *= HINTED;
        }
        covers[id] = inside || encloses_other_text(b, hints[id].is_some());
    }
    // 2. The best candidate and its siblings.
    let body_block = tree.body();
    let (region, top) = region::main_region(tree, &scores, &hints);
    let mut in_region = vec![false; n];
    for &r in &region {
        in_region[r..tree.blocks[r].sub_end].fill(true);
    }
    // 3. Page type from the region's ratios.
    let (mut text, mut anchor, mut images) = (0usize, 0usize, 0usize);
    for &r in &region {
        let b = &tree.blocks[r];
        text += b.sub_chars.saturating_sub(b.sub_anchor);
        anchor += b.sub_anchor;
        images += b.sub_images;
    }
    // Anchors inside sentences (an encyclopedia's inline links) are part of the text; only
    // anchors on lines that are mostly link text (a list of links) count against it.
    let list_anchor: usize = tree
        .lines
        .iter()
        .filter(|l| in_region[l.block] && l.anchor_chars * 2 > l.chars)
        .map(|l| l.anchor_chars)
        .sum();
    let tpa = (list_anchor > 0).then(|| text as f64 / list_anchor as f64);
    let tpi = (images > 0).then(|| text as f64 / images as f64);
    let page_total: usize = tree.blocks[0].sub_chars.max(1);
    let page_anchor = tree.blocks[0].sub_anchor;
    // A listing: the region's items (≥ 5 with text) nearly all begin with a link line — a
    // channel page of headlines with teasers is a hub even when its teasers outweigh its anchors.
    let (mut items, mut led) = (0usize, 0usize);
    for &r in &region {
        for c in tree.children(r) {
            let cb = &tree.blocks[c];
            if cb.sub_chars == 0 {
                continue;
            }
            items += 1;
            let first = tree.lines[cb.line_start..cb.line_end]
                .iter()
                .find(|l| l.chars > 0);
            if cb.sub_links > 0 && first.is_some_and(|l| l.anchor_chars * 2 > l.chars) {
                led += 1;
            }
        }
    }
    let listing = items >= 5 && led * 5 >= items * 4;
    let (page_type, why) = if images >= 2 && tpi.is_some_and(|r| r < p.pic_ratio) {
        (
            PageType::Pic,
            Why::of(
                "type_pic",
                [
                    images.to_string(),
                    format!("{:.0}", tpi.unwrap_or(0.0)),
                    p.pic_ratio.to_string(),
                ],
            ),
        )
    } else if listing {
        (
            PageType::Hub,
            Why::of("type_listing", [led.to_string(), items.to_string()]),
        )
    } else if tpa.is_some_and(|r| r < p.hub_ratio) {
        (
            PageType::Hub,
            Why::of(
                "type_hub",
                [
                    format!("{:.2}", tpa.unwrap_or(0.0)),
                    p.hub_ratio.to_string(),
                ],
            ),
        )
    } else if top.is_none()
        || (text < 150 && page_anchor > 3 * text)
        || (text < 60 && page_anchor * 2 > page_total)
    {
        (PageType::Hub, Why::new("type_no_text"))
    } else {
        (
            PageType::Topic,
            match tpa {
                Some(r) => Why::of("type_topic", [format!("{r:.1}"), p.hub_ratio.to_string()]),
                None => Why::new("type_topic_nolinks"),
            },
        )
    };
    let ratios = TypeRatios {
        region: region.first().copied().unwrap_or(body_block),
        text_chars: text,
        anchor_chars: anchor,
        list_anchor_chars: list_anchor,
        images,
        text_per_anchor: tpa,
        text_per_image: tpi,
        reason: why.english(),
        why,
    };
    // 4. Line roles.
    let mut line_roles = vec![Role::Other; tree.lines.len()];
    let mut line_reasons: Vec<Option<Why>> = vec![None; tree.lines.len()];
    let mut pass = lines::LinePass::new(tree, page_type);
    for (i, l) in tree.lines.iter().enumerate() {
        let placed = line_role(tree, &kinds, &hints, &region, &in_region, l, page_type);
        let (role, why) = pass.classify(tree, i, l, placed, &mut line_roles, &mut line_reasons);
        line_roles[i] = role;
        line_reasons[i] = Some(why);
    }
    let mut cuts = edges::Cuts::new();
    if page_type != PageType::Hub {
        furniture::mark_runs(tree, &region, &mut line_roles, &mut line_reasons);
        furniture::mark_headline_lists(tree, &mut line_roles, &mut line_reasons);
        furniture::mark_teaser_items(tree, &mut line_roles, &mut line_reasons);
        edges::mark_edges(tree, &mut line_roles, &mut line_reasons, &mut cuts);
    }
    // Fallback (no page fails): a topic page whose region gave no body keeps every topic line.
    let body_chars: usize = tree
        .lines
        .iter()
        .zip(&line_roles)
        .filter(|(_, r)| **r == Role::Body)
        .map(|(l, _)| l.chars)
        .sum();
    if body_chars < 20 && page_type != PageType::Hub {
        for (i, l) in tree.lines.iter().enumerate() {
            if kinds[l.block] == BlockKind::Topic
                && l.anchor_chars * 2 <= l.chars
                && l.chars >= 10
                && !is_byline(&l.text)
                && hints[l.block].is_none()
            {
                line_roles[i] = Role::Body;
                line_reasons[i] = Some(Why::new("fallback"));
            }
        }
    }
    // 5. Block roles for the map: the role of most of their own characters.
    let mut roles = vec![Role::Container; n];
    let mut reasons = vec![Why::default(); n];
    // Per block: each role, its characters and the first line that had it (whose reason the
    // block takes when the role wins).
    let mut tally: Vec<Vec<(Role, usize, usize)>> = vec![Vec::new(); n];
    for (i, l) in tree.lines.iter().enumerate() {
        let t = &mut tally[l.block];
        match t.iter_mut().find(|(r, _, _)| *r == line_roles[i]) {
            Some(e) => e.1 += l.chars.max(1),
            None => t.push((line_roles[i], l.chars.max(1), i)),
        }
    }
    for id in 0..n {
        if let Some(&(r, _, line)) = tally[id].iter().max_by_key(|(_, c, _)| *c) {
            roles[id] = r;
            reasons[id] = line_reasons[line].take().unwrap_or_default();
        } else if tree.blocks[id].images > 0 {
            roles[id] = Role::Picture;
            reasons[id] = Why::of("images", [tree.blocks[id].images.to_string()]);
        } else {
            reasons[id] = if scores[id] > 0.0 {
                Why::of("container_score", [format!("{:.1}", scores[id])])
            } else {
                Why::new("container")
            };
        }
    }
    Analysis {
        kinds,
        roles,
        reasons,
        scores,
        in_region,
        line_roles,
        page_type,
        ratios,
        region,
        cuts,
    }
}

/// The role of one line from its block's place in the tree.
fn line_role(
    tree: &PageTree,
    kinds: &[BlockKind],
    hints: &[Option<(Role, Why)>],
    region: &[usize],
    in_region: &[bool],
    l: &super::tree::Line,
    page_type: PageType,
) -> (Role, Why) {
    // Hints on the chain from the line's block up to (not including) the region root.
    let mut cur = Some(l.block);
    while let Some(b) = cur {
        if region.contains(&b) {
            break;
        }
        if let Some((role, why)) = &hints[b] {
            return (*role, why.clone());
        }
        cur = tree.blocks[b].parent;
    }
    if !in_region[l.block] {
        if l.anchor_chars * 2 > l.chars {
            return (Role::LinkList, Why::new("outside_links"));
        }
        return (Role::Other, Why::new("outside"));
    }
    if page_type == PageType::Hub {
        return (Role::Body, Why::new("hub_page"));
    }
    if l.chars > 0 && l.anchor_chars * 2 > l.chars {
        return (
            Role::LinkList,
            Why::of(
                "link_text",
                [l.anchor_chars.to_string(), l.chars.to_string()],
            ),
        );
    }
    // A link list: the nearest listing block is a hub.
    let mut cur = Some(l.block);
    while let Some(b) = cur {
        if kinds[b] == BlockKind::Hub && !region.contains(&b) {
            return (Role::LinkList, Why::of("hub_block", [tree.blocks[b].tag]));
        }
        if region.contains(&b) {
            break;
        }
        cur = tree.blocks[b].parent;
    }
    if l.chars == 0 {
        return (Role::Other, Why::new("no_text"));
    }
    (Role::Body, Why::new("topic"))
}

#[cfg(test)]
mod tests;
