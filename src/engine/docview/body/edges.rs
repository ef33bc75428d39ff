//! The edges of the body: furniture that sits right before the article's first paragraph or
//! right after its last one, inside the article's own container, where neither the region's
//! scores nor a rule for every line can tell it from text [L2146, L2294–L2310].
//!
//! ```text
//! 图集   |   +1   |   【纠错】                      → edge_widget (a gallery switch, a like counter)
//! 摘要：2014年8月22日，由……（the first paragraph again） → lead_repeat
//! ……整顿仍将持续。返回腾讯网首页>>                 → nav_tail: the link is cut off the line
//! 图片均来自网络   经过某某重新编排                → credit_line (an image source, an editing note)
//! (综合整理自澎湃新闻、雷锋网等)                    → credit_line (the sources of a compilation)
//! 某党支部供稿 摄影/张三 编辑/李四                 → credit_line (an editor's credit after others)
//! 相关资讯请关注:某某专区                           → promo
//! 关注公众号 / 某某资本论 / 点评股市 / 扫一扫 关注我 → promo_card: an account card between promos
//! ```
//!
//! Every rule is bounded three ways: by place (the first three body lines, or the lines after
//! the last paragraph), by length (a short line; a long one is never looked at) and by form (an
//! exact label, a fixed start or end), so a sentence of the article that mentions 图片, 首页 or
//! 编辑 stays. Only the few lines at the edges are read: the cost is the same on every page.

use crate::engine::docview::tree::PageTree;
use crate::engine::docview::{Role, Why};

/// What the passes found: lines whose tail is cut off, as (line, bytes kept).
pub(super) type Cuts = Vec<(usize, usize)>;

/// Labels of a widget that are the whole line: a gallery switch, a like or correction button.
/// (Print, share and close buttons are `is_boilerplate`'s, on every line.)
const EDGE_LABELS: &[&str] = &[
    "图集",
    "纠错",
    "【纠错】",
    "[纠错]",
    "点赞",
    "在看",
    "返回列表",
    "【关闭】",
];

/// A widget's label, or a like counter (`+1`), alone on its line.
fn is_edge_widget(t: &str) -> bool {
    if t.len() > 16 {
        return false;
    }
    if let Some(d) = t.strip_prefix(['+', '＋']) {
        return (1..=3).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit());
    }
    EDGE_LABELS.contains(&t)
}

/// Labels of a summary above the article.
const LEAD_LABELS: &[&str] = &["摘要", "导读", "导语", "内容提要", "核心提示"];

/// A summary (`摘要：…`) whose text begins as one of the next body lines begins: the lead
/// printed twice, once as a summary. An abstract of its own (a paper's) stays.
fn is_lead_repeat<'a>(t: &str, mut next: impl Iterator<Item = &'a str>) -> bool {
    let Some(rest) = LEAD_LABELS.iter().find_map(|w| {
        t.strip_prefix(*w)
            .and_then(|r| r.trim_start().strip_prefix(['：', ':']))
    }) else {
        return false;
    };
    let rest = rest.trim_start();
    // Its first twelve characters, compared as bytes.
    let Some((end, _)) = rest.char_indices().nth(12) else {
        return false;
    };
    let head = &rest[..end];
    next.any(|n| n.trim_start().starts_with(head))
}

/// A source note about the pictures: `图片均来自网络`, `（图片来源网络，侵删）`.
fn is_image_source(t: &str) -> bool {
    let t = t.trim_start_matches(['(', '（', '【', '[', '〔']);
    t.len() <= 90
        && ["图片", "图源", "配图", "部分图片"]
            .iter()
            .any(|s| t.starts_with(s))
        && t.contains("网络")
        && !t.contains('。')
        && t.chars().count() <= 30
}

/// An editing note: `经过某某重新编排`, `本文经某某整理`.
fn is_edit_note(t: &str) -> bool {
    t.len() <= 60
        && (t.starts_with('经') || t.starts_with("本文经"))
        && ["重新编排", "编排", "排版", "整理", "编辑", "编译"]
            .iter()
            .any(|e| t.ends_with(e))
        && !t.contains(['。', '，', ','])
}

/// The sources of a compiled article: `(综合整理自澎湃新闻、智东西等)`.
fn is_compiled_from(t: &str) -> bool {
    let t = t.trim_start_matches(['(', '（', '【', '[', '〔']);
    t.len() <= 150
        && ["综合整理自", "综合编译自", "综合自", "整理自", "编译自"]
            .iter()
            .any(|s| t.starts_with(s))
        && !t.contains('。')
        && t.chars().count() <= 50
}

/// A credit line whose editor comes after other credits: `某党支部供稿 摄影/张三 编辑/李四`.
fn is_trailing_credit(t: &str) -> bool {
    if t.len() > 150 || t.contains('。') || t.chars().count() > 50 {
        return false;
    }
    t.split([' ', '　']).filter(|w| !w.is_empty()).any(|w| {
        ["编辑", "责编", "责任编辑", "校对", "审核", "监制"]
            .iter()
            .any(|s| {
                w.strip_prefix(*s)
                    .is_some_and(|r| r.starts_with(['/', '：', ':', '|', '｜']) && r.len() > 1)
            })
    })
}

/// A call to follow a column after the article: `相关资讯请关注:某某专区`.
fn is_follow_call(t: &str) -> bool {
    t.len() <= 90
        && !t.ends_with('。')
        && (t.contains("请关注:") || t.contains("请关注："))
        && t.chars().count() <= 30
}

/// The reason a line after the last paragraph is furniture, if it is.
fn tail_reason(t: &str) -> Option<(Role, Why)> {
    if is_edge_widget(t) {
        Some((Role::Other, Why::new("edge_widget")))
    } else if is_image_source(t) || is_edit_note(t) || is_compiled_from(t) || is_trailing_credit(t)
    {
        Some((Role::Meta, Why::new("credit_line")))
    } else if is_follow_call(t) {
        Some((Role::Ad, Why::new("promo")))
    } else {
        None
    }
}

/// A navigation link stuck to the end of a paragraph (`……持续。返回腾讯网首页>>`): the bytes
/// of the line to keep, if it has one.
fn nav_tail(text: &str, anchor_chars: usize) -> Option<usize> {
    let t = text.trim_end();
    // The first test is one byte: the line ends with an arrow.
    if anchor_chars == 0 || !(t.ends_with('>') || t.ends_with('»') || t.ends_with('＞')) {
        return None;
    }
    let from = t.len().saturating_sub(60);
    let from = (from..t.len()).find(|&b| t.is_char_boundary(b))?;
    let at = from + t[from..].rfind("返回")?;
    let tail = &t[at..];
    let head = t[..at].trim_end();
    (tail.contains("首页") && tail.chars().count() <= 16 && !head.is_empty()).then_some(head.len())
}

/// The edges of the body: the first three body lines (a widget's label, a summary that repeats
/// the lead), the lines after the last paragraph (labels, credits, notes, a follow call; a
/// navigation link at the end of the last paragraph is cut off), and an account card between
/// two promotions. Body lines only; the first body line is never dropped by the tail.
pub(super) fn mark_edges(
    tree: &PageTree,
    line_roles: &mut [Role],
    line_reasons: &mut [Option<Why>],
    cuts: &mut Cuts,
) {
    let is_body = |roles: &[Role], i: usize| roles[i] == Role::Body && tree.lines[i].chars > 0;
    let Some(first) = (0..tree.lines.len()).find(|&i| is_body(line_roles, i)) else {
        return;
    };
    // 1. The head: up to three lines.
    let mut head: Vec<usize> = Vec::with_capacity(4);
    head.extend(
        (first..tree.lines.len())
            .filter(|&i| is_body(line_roles, i))
            .take(4),
    );
    for k in 0..head.len().min(3) {
        let i = head[k];
        let t = tree.lines[i].text.trim();
        if t.len() > 600 {
            break;
        }
        let next = head[k + 1..].iter().map(|&j| tree.lines[j].text.as_str());
        let why = if is_edge_widget(t) {
            (Role::Other, Why::new("edge_widget"))
        } else if k == 0 && is_column_label(t) {
            (Role::Other, Why::new("column_label"))
        } else if is_lead_repeat(t, next) {
            (Role::Meta, Why::new("lead_repeat"))
        } else {
            break;
        };
        line_roles[i] = why.0;
        line_reasons[i] = Some(why.1);
    }
    // 2. The tail, from the last body line back.
    let mut i = tree.lines.len();
    while i > first + 1 {
        i -= 1;
        if !is_body(line_roles, i) {
            continue;
        }
        let l = &tree.lines[i];
        let t = l.text.trim();
        match (t.len() <= 150).then(|| tail_reason(t)).flatten() {
            Some((role, why)) => {
                line_roles[i] = role;
                line_reasons[i] = Some(why);
            }
            None => {
                if let Some(keep) = nav_tail(&l.text, l.anchor_chars) {
                    let cut = l.text[keep..].trim().to_string();
                    line_reasons[i] = Some(Why::of("nav_tail", [cut]));
                    cuts.push((i, keep));
                }
                break;
            }
        }
    }
    // 3. A notice the publisher appends (反侵权公告, 版权声明): its heading among the last
    // twelve body lines, and every body line after it.
    let heading = (first + 1..tree.lines.len())
        .rev()
        .filter(|&i| is_body(line_roles, i))
        .take(12)
        .find(|&i| is_notice_heading(tree.lines[i].text.trim()));
    if let Some(at) = heading {
        for i in at..tree.lines.len() {
            if is_body(line_roles, i) {
                line_roles[i] = Role::Footer;
                line_reasons[i] = Some(Why::new("disclaimer"));
            }
        }
    }
    mark_promo_cards(tree, line_roles, line_reasons);
}

/// Headings of the notices a publisher appends to its articles.
const NOTICE_HEADINGS: &[&str] = &[
    "反侵权公告",
    "版权声明",
    "免责声明",
    "法律声明",
    "版权说明",
    "侵权声明",
];

/// A notice's heading alone on its line (`反侵权公告：`, `【版权声明】`).
fn is_notice_heading(t: &str) -> bool {
    let t = t
        .trim_end_matches([':', '：'])
        .trim_start_matches(['【', '['])
        .trim_end_matches(['】', ']']);
    NOTICE_HEADINGS.contains(&t)
}

/// A column's label in brackets, alone above the article (`【新春走基层】`).
fn is_column_label(t: &str) -> bool {
    t.strip_prefix('【')
        .and_then(|r| r.strip_suffix('】'))
        .is_some_and(|inner| {
            (2..=10).contains(&inner.chars().count()) && !inner.contains(['【', '】', '，', '。'])
        })
}

/// An account card between two promotions (`关注公众号查看全文` … `扫一扫 关注我`): the one to
/// four short lines between them are the account's name and slogan.
fn mark_promo_cards(tree: &PageTree, line_roles: &mut [Role], line_reasons: &mut [Option<Why>]) {
    let is_promo = |r: &Option<Why>| r.as_ref().is_some_and(|w| w.key == "promo");
    // Most pages have no promotion at all: one look at the reasons first.
    if line_reasons.iter().filter(|r| is_promo(r)).take(2).count() < 2 {
        return;
    }
    let mut open: Option<usize> = None;
    let mut run: Vec<usize> = Vec::new();
    for (i, l) in tree.lines.iter().enumerate() {
        if l.chars == 0 {
            continue;
        }
        if is_promo(&line_reasons[i]) {
            if open.is_some() && (1..=4).contains(&run.len()) {
                for &j in &run {
                    line_roles[j] = Role::Ad;
                    line_reasons[j] = Some(Why::new("promo_card"));
                }
            }
            open = Some(i);
            run.clear();
        } else if open.is_some()
            && line_roles[i] == Role::Body
            && l.chars <= 20
            && !l.text.contains('。')
        {
            run.push(i);
        } else {
            open = None;
            run.clear();
        }
    }
}

#[cfg(test)]
mod tests;
