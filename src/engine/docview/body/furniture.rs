//! Page furniture of modern Chinese news pages inside the main region: interaction widgets,
//! promotions, disclaimers, credit lines and the teaser lists that close an article.
//!
//! The book's noise is advertisements, copyright notices, navigation bars and surveys [L2146],
//! besides the links that are no related links [L2201]; its body rule keeps the topic blocks of the main region less such noise
//! [L2294–L2310]. A modern news page carries noise the region's scores cannot see, because it
//! sits inside the article's own container and has no links to give it away:
//!
//! ```text
//! 字号 / 超大 / 大 / 标准 / 小                        → widget (a font-size switch)
//! 更多猛料！欢迎扫描左方二维码关注……官方微信        → promo (a QR code, a follow or download call)
//! 特别声明：以上内容……仅代表该机构观点              → disclaimer
//! (责编：张三)   （原标题：……）   本文来源：新京报       → credit line
//! 推荐阅读 / 热门推荐 / 延伸 · 推荐 / 不感兴趣 …… → teaser: the rest of the region is a list
//! 香港警方：……  /  港铁公司……表示，……46人因参…     → teaser item: a headline over a cut summary
//! 自动播放 苹果发布新iPhone 11                      → widget (a video player's label)
//! 关键词 >> 新冠病毒,味觉   20190926|国贸|增长率     → tags
//! http://www.example.gov.cn                         → a URL written out: no paragraph
//! ```
//!
//! Each rule reads one line (a run of lines for the widget, the rest of the region after a
//! teaser heading) and is narrow on purpose: a sentence of running text never matches.

use crate::engine::docview::tree::PageTree;
use crate::engine::docview::{Role, Why};
use crate::engine::text::fxhash::FxMap;

/// Is this line a URL written out as text (`http://…`, `www.…`), nothing else?
///
/// Lists of such lines (a government site's hidden friend-link list) are a footer's, not a
/// paragraph: they score nothing for the main region.
pub(super) fn is_url_text(text: &str) -> bool {
    let t = text.trim();
    let rest = ["http://", "https://", "www."].iter().find_map(|p| {
        t.get(..p.len())
            .filter(|h| h.eq_ignore_ascii_case(p))
            .map(|_| &t[p.len()..])
    });
    rest.is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_graphic()))
}

/// Words of a font-size, print or share switch.
const WIDGET_WORDS: &[&str] = &[
    "字号", "字体", "超大", "特大", "较大", "大", "中", "小", "较小", "标准", "默认", "正常",
    "放大", "缩小", "A+", "A-", "A", "打印", "分享", "收藏",
];

/// The tokens of a line split at white space and the punctuation a widget puts between them.
fn widget_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '：' | ':' | '|' | '｜' | '/' | '【' | '】' | '[' | ']' | '(' | ')' | '（' | '）'
            )
    })
    .filter(|t| !t.is_empty())
}

/// Is every token of the line a widget word (and the line not empty)?
fn is_widget_word_line(text: &str) -> bool {
    // A switch is a few short words: a long line (often one token of running text) never is.
    if text.len() > 80 {
        return false;
    }
    let mut any = false;
    for t in widget_tokens(text) {
        if !WIDGET_WORDS.contains(&t) {
            return false;
        }
        any = true;
    }
    any
}

/// How many tokens of the line are font-size words (`字号`, `大`, `A+` …)?
fn size_tokens(text: &str) -> usize {
    widget_tokens(text)
        .filter(|t| !matches!(*t, "打印" | "分享" | "收藏"))
        .count()
}

/// Calls of a promotion: a QR code to scan, an account to follow, an app to download, a vote
/// to cast, a WeChat account's keyword menu.
const PROMO_CALLS: &[&str] = &[
    "扫一扫",
    "扫码关注",
    "关注公众号",
    "【点击",
    "点击进入专题",
    "点击菜单栏",
    "回复【",
    "点【在看】",
    "请下载",
    "欢迎下载",
    "点击下载",
    "立即下载",
    "下载地址",
    "下载客户端",
    "发送邮件至",
    "投稿邮箱",
];

/// A short line that promotes (a QR code, a follow, an app), not the article's text.
///
/// A sentence of the article may mention a QR code or an app ("游客扫描灯箱旁的二维码，可以收听
/// 朗诵。"): a line that ends as a sentence ends is a promotion only when it asks the reader to
/// follow (`二维码` with `关注`).
pub(super) fn is_promo(text: &str) -> bool {
    let t = text.trim();
    // Over 400 bytes is over 100 characters: no need to count them.
    if t.len() > 400 {
        return false;
    }
    let n = t.chars().count();
    if n > 100 {
        return false;
    }
    // "……扫描下方二维码关注……官方微信。": a call to follow, however it ends.
    if t.contains("二维码") && t.contains("关注") {
        return true;
    }
    if t.trim_end_matches(['”', '"', '’', '」']).ends_with('。') {
        return false;
    }
    // "新浪财经公众号", "微信公众号": an account's name above its QR code.
    if n <= 15 && t.ends_with("公众号") {
        return true;
    }
    // "扫描下方二维码解锁更多技能".
    if t.contains("二维码") && ["扫描", "长按", "解锁"].iter().any(|w| t.contains(w)) {
        return true;
    }
    static SET: std::sync::OnceLock<super::PhraseSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| super::PhraseSet::new(PROMO_CALLS))
        .found_in(t)
}

/// A publisher's disclaimer or reprint notice ("仅代表作者观点", "未经授权不得转载").
pub(super) fn is_disclaimer(text: &str) -> bool {
    let t = text.trim();
    if !super::at_most_chars(t, 200) {
        return false;
    }
    let starts = ["特别声明", "免责声明", "版权声明", "声明：", "声明:"]
        .iter()
        .any(|s| t.starts_with(s));
    let has = |w: &str| t.contains(w);
    starts
        // "仅代表作者观点", "不代表本网立场" (a bare 代表 is a delegate: "人大代表……观点").
        || ((has("仅代表") || has("不代表")) && (has("观点") || has("立场")))
        || (has("平台") && has("仅提供"))
        || ((has("未经授权") || has("未经许可")) && has("转载"))
        || (has("仅供参考") && has("不构成"))
        || ((t.starts_with("Notice:") || t.starts_with("Disclaimer:"))
            && (has("platform") || has("views") || has("opinions")))
}

/// Starts of a credit line: editor, proof-reader, source, original title.
const CREDIT_STARTS: &[&str] = &[
    "责编",
    "责任编辑",
    "编辑",
    "校对",
    "审核",
    "审校",
    "监制",
    "本文来源",
    "文章来源",
    "稿件来源",
    "资料来源",
    "信息来源",
    "来源于",
    "来源",
    "原标题",
    "本文原标题",
    "原题为",
    "原题",
];

/// A credit line: who edited or checked the article, whose source it is, its first title.
///
/// `(责编：汤诗瑶、丁涛)`, `【编辑：姚昊】`, `编辑|禤志杰`, `本文来源：新京报 责任编辑：杜硕`,
/// `（原标题：……）`. The writer's by-line (`记者 刘涛`) is the article's and stays. A sentence
/// that begins with such a word ("编辑部认为，……") is no credit: a separator must follow it.
pub(super) fn is_credit_line(text: &str) -> bool {
    let t = text.trim().trim_start_matches(['(', '（', '【', '[', '〔']);
    if t.len() > 400 {
        return false;
    }
    // The start first (a few byte compares), the length and the full stop only then.
    let Some(word) = CREDIT_STARTS.iter().find(|s| {
        t.strip_prefix(**s)
            .is_some_and(|rest| rest.starts_with(['：', ':', '|', '｜', '/', ' ', '　', '《']))
    }) else {
        return false;
    };
    let n = t.chars().count();
    n <= 100
        && !t.contains('。')
        && (n <= 40 || word.starts_with('原') || word.starts_with("本文原"))
}

/// A short credit that names a source without a separator: `信息来源于网络`, `图片来源于网络`.
fn is_source_of(text: &str) -> bool {
    let t = text.trim();
    t.len() <= 60
        && [
            "信息来源于",
            "资料来源于",
            "图片来源于",
            "本文来源于",
            "文章来源于",
        ]
        .iter()
        .any(|s| t.starts_with(s))
        && !t.contains(['。', '，', ','])
}

/// A credit line, with or without a separator after its word.
pub(super) fn is_credit(text: &str) -> bool {
    is_credit_line(text) || is_source_of(text)
}

/// A video player's own label (`自动播放 苹果发布新iPhone 11`): the switch and the clip's
/// title, not a paragraph.
pub(super) fn is_player_label(text: &str) -> bool {
    let t = text.trim_start();
    t.len() <= 240 && t.starts_with("自动播放") && !t.contains('。')
}

/// The article's tags or keywords: `关键词 >> 新冠病毒,味觉`, `标签：长春 景甜`, or a line of
/// three or more short words between bars (`20190926|国贸|增长率|全球经济`).
pub(super) fn is_tag_line(text: &str) -> bool {
    let t = text.trim();
    if t.len() > 400 {
        return false;
    }
    // Prefix compares first; a search of the line only for the few lines that pass them.
    let labelled = ["关键词", "关键字", "标签", "Tags", "TAGS", "Tag:", "TAG:"]
        .iter()
        .any(|w| {
            t.strip_prefix(*w).is_some_and(|rest| {
                rest.trim_start()
                    .starts_with(['：', ':', '>', '»', '|', '｜', '/'])
            })
        });
    if labelled {
        return !t.contains('。') && t.chars().count() <= 100;
    }
    // Words between bars: each a few characters, no clause inside.
    if !t.contains('|') && !t.contains('｜') {
        return false;
    }
    let mut words = 0;
    for w in t.split(['|', '｜']) {
        let w = w.trim();
        let n = w.chars().count();
        if n == 0 || n > 8 || w.contains(['。', '，', ',', '：', ':', ' ', '？', '！']) {
            return false;
        }
        words += 1;
    }
    words >= 3
}

/// A counter beside a by-line (views, likes, comments): digits and separators, nothing else
/// but the icon before them (a private-use glyph of an icon font).
pub(super) fn is_counter(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches(|c: char| !c.is_alphanumeric());
    !t.is_empty()
        && t.len() <= 12
        && t.bytes().any(|b| b.is_ascii_digit())
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
}

/// Does this line end cut off (`…`, `...`), as a teaser's summary does? A doubled `……` is
/// the writer's own ellipsis.
fn ends_cut(text: &str) -> bool {
    let t = text.trim_end();
    if let Some(head) = t.strip_suffix('…') {
        return !head.ends_with('…');
    }
    t.strip_suffix("...")
        .is_some_and(|head| !head.ends_with('.'))
}

/// Headings of a teaser list or a feedback widget (compared without spaces and `·`).
const SECTION_CUES: &[&str] = &[
    "推荐阅读",
    "延伸阅读",
    "相关阅读",
    "相关推荐",
    "热门推荐",
    "精彩推荐",
    "为您推荐",
    "猜你喜欢",
    "延伸推荐",
    "更多阅读",
    "热门文章",
    "热点推荐",
    "不感兴趣",
];

/// Is this line a heading that opens a teaser list or a feedback widget?
fn is_section_cue(text: &str) -> bool {
    // The headings are a few characters: a longer line is not copied to be compared.
    if text.len() > 48 {
        return false;
    }
    // The line's characters but spaces and separators, compared in place: every heading is
    // four characters, so a fifth rules the line out.
    let mut kept = ['\0'; 4];
    let mut n = 0;
    for c in text.chars() {
        if c.is_whitespace() || matches!(c, '·' | '•' | '|' | '｜' | ':' | '：') {
            continue;
        }
        if n == kept.len() {
            return false;
        }
        kept[n] = c;
        n += 1;
    }
    SECTION_CUES
        .iter()
        .any(|cue| cue.chars().eq(kept[..n].iter().copied()))
}

/// The region-wide passes: a run of font-size widget lines, and a teaser heading after which
/// the rest of its region root is a list. Body lines only; the reason says which.
pub(super) fn mark_runs(
    tree: &PageTree,
    region: &[usize],
    line_roles: &mut [Role],
    line_reasons: &mut [Option<Why>],
) {
    let body: Vec<usize> = (0..tree.lines.len())
        .filter(|&i| line_roles[i] == Role::Body)
        .collect();
    // 1. Widgets: a line of two or more size words, or a run of three lines of one each.
    let mut k = 0;
    while k < body.len() {
        let mut end = k;
        while end < body.len() && is_widget_word_line(&tree.lines[body[end]].text) {
            end += 1;
        }
        let sizes: usize = body[k..end]
            .iter()
            .map(|&i| size_tokens(&tree.lines[i].text))
            .sum();
        if end > k && (sizes >= 3 || (end - k == 1 && sizes >= 2)) {
            for &i in &body[k..end] {
                line_roles[i] = Role::Other;
                line_reasons[i] = Some(Why::new("widget"));
            }
        }
        k = end.max(k + 1);
    }
    // 2. A teaser heading closes the article in its region root: what follows is a list.
    let total: usize = body
        .iter()
        .filter(|&&i| line_roles[i] == Role::Body)
        .map(|&i| tree.lines[i].chars)
        .sum();
    let mut before = 0usize;
    for (pos, &i) in body.iter().enumerate() {
        let l = &tree.lines[i];
        if line_roles[i] != Role::Body {
            continue;
        }
        if before > 0 && is_section_cue(&l.text) {
            let root = region
                .iter()
                .copied()
                .find(|&r| (r..tree.blocks[r].sub_end).contains(&l.block));
            let end = root.map_or(tree.lines.len(), |r| tree.blocks[r].line_end);
            let rest: Vec<usize> = body[pos..]
                .iter()
                .copied()
                .filter(|&j| j < end && line_roles[j] == Role::Body)
                .collect();
            let dropped: usize = rest.iter().map(|&j| tree.lines[j].chars).sum();
            if dropped * 2 < total {
                for j in rest {
                    line_roles[j] = Role::LinkList;
                    line_reasons[j] = Some(Why::of("teaser", [l.text.trim()]));
                }
            }
        }
        if line_roles[i] == Role::Body {
            before += l.chars;
        }
    }
}

/// A teaser inside the region: a headline over a summary cut off (`…`, `...`) in an item of
/// its own (at most three lines with text) — a related story under the by-line, a column's
/// slider. A teaser is less than half the body.
pub(super) fn mark_teaser_items(
    tree: &PageTree,
    line_roles: &mut [Role],
    line_reasons: &mut [Option<Why>],
) {
    // The cheap test first: most pages have no body line that ends cut off.
    let cut: Vec<usize> = (0..tree.lines.len())
        .filter(|&i| line_roles[i] == Role::Body && tree.lines[i].chars >= 20)
        .filter(|&i| ends_cut(&tree.lines[i].text))
        .collect();
    if cut.is_empty() {
        return;
    }
    let total: usize = (0..tree.lines.len())
        .filter(|&i| line_roles[i] == Role::Body)
        .map(|i| tree.lines[i].chars)
        .sum();
    // The item's headline: its first line with text, before the summary, short, no sentence.
    let headed = |b: usize, summary: usize| {
        let blk = &tree.blocks[b];
        tree.lines[blk.line_start..summary]
            .iter()
            .find(|l| l.chars > 0)
            .is_some_and(|h| {
                (4..=60).contains(&h.chars) && !h.text.contains('。') && !ends_cut(&h.text)
            })
    };
    for i in cut {
        if line_roles[i] != Role::Body {
            continue;
        }
        let own = tree.lines[i].block;
        let Some(item) = Some(own)
            .filter(|&b| headed(b, i))
            .or_else(|| tree.blocks[own].parent.filter(|&p| headed(p, i)))
        else {
            continue;
        };
        let range = tree.blocks[item].line_start..tree.blocks[item].line_end;
        // A teaser is its headline, its summary and perhaps a date: a section of the article
        // under a heading has more to it, even when one of its paragraphs trails off.
        if range.clone().filter(|&j| tree.lines[j].chars > 0).count() > 3 {
            continue;
        }
        let chars: usize = range
            .clone()
            .filter(|&j| line_roles[j] == Role::Body)
            .map(|j| tree.lines[j].chars)
            .sum();
        if chars * 2 >= total {
            continue;
        }
        for j in range {
            if line_roles[j] == Role::Body {
                line_roles[j] = Role::LinkList;
                line_reasons[j] = Some(Why::new("teaser_item"));
            }
        }
    }
}

/// A list of headlines inside the region: three or more sibling blocks of one tag and class,
/// each short (at most 60 characters besides its links), without a full stop, and carrying a
/// link or a date — the "more from this column" teasers under an article, which no heading
/// announces and whose links are too short to make them link text.
pub(super) fn mark_headline_lists(
    tree: &PageTree,
    line_roles: &mut [Role],
    line_reasons: &mut [Option<Why>],
) {
    let item_ok = |c: usize| {
        let b = &tree.blocks[c];
        let text = b.sub_chars.saturating_sub(b.sub_anchor);
        let lines = &tree.lines[b.line_start..b.line_end];
        (1..=60).contains(&text)
            && !lines.iter().any(|l| l.text.contains('。'))
            && (b.sub_links > 0
                || lines
                    .iter()
                    .any(|l| super::has_date(&l.text) || super::has_time(&l.text)))
    };
    // Per parent, its children grouped by tag and hint in order of first appearance: one
    // pass over the children (a table of thousands of rows is one parent).
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: FxMap<(&str, &str), usize> = FxMap::default();
    for p in (0..tree.blocks.len()).filter(|&p| tree.blocks[p].child_count >= 3) {
        groups.clear();
        index.clear();
        for c in tree.children(p) {
            let b = &tree.blocks[c];
            if b.hint.is_empty() {
                continue;
            }
            let g = *index.entry((b.tag, b.hint.as_str())).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(c);
        }
        for same in &groups {
            if same.len() < 3 || !same.iter().all(|&c| item_ok(c)) {
                continue;
            }
            let count = same.len().to_string();
            for &c in same {
                let b = &tree.blocks[c];
                for i in b.line_start..b.line_end {
                    if line_roles[i] == Role::Body {
                        line_roles[i] = Role::LinkList;
                        line_reasons[i] = Some(Why::of("headlines", [count.as_str()]));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
