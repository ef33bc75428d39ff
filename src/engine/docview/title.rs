//! The page's title [L2349–L2351]: a heading that the `<title>` contains (the site name
//! dropped), else the `<title>`'s longest part, else — the title missing or one of the poor
//! titles the book lists — a heading or the highest-weight keyword.

use super::body::Analysis;
use super::tree::{PageTree, norm_title, norm_title_into};
use super::{Keyword, Role, TitleSource};

/// The bad titles the book lists [L2351] (compared case-folded).
const BAD_TITLES: &[&str] = &[
    "untitled document",
    "untitled",
    "new page",
    "new page 1",
    "welcome",
    "欢迎访问",
    "无标题文档",
    "无标题页",
    "index",
    "home",
];

/// The title: a heading the `<title>` contains, else the `<title>`'s longest part, else (the
/// title missing or poor) the top keyword [L2349–L2351].
pub(crate) fn choose_title(
    tree: &PageTree,
    a: &Analysis,
    keywords: &[Keyword],
) -> (String, TitleSource) {
    let raw = tree.title.trim();
    let raw_norm = norm_title(raw);
    let poor = raw_norm.is_empty() || {
        let lower = raw.to_lowercase();
        BAD_TITLES.contains(&lower.trim())
    };
    if !poor {
        // Headings and title-role lines, in document order; the longest (in normalised
        // characters) that the normalised `<title>` contains wins, the last on a tie.
        let headings = tree
            .weighty
            .iter()
            .filter(|w| w.tag.starts_with('h') || matches!(w.tag, "strong" | "b" | "font"))
            .map(|w| w.text.as_str());
        let title_lines = (tree.lines.iter().enumerate())
            .filter(|(i, _)| a.line_roles[*i] == Role::Title)
            .map(|(_, l)| l.text.as_str());
        let (mut best, mut n): (Option<(&str, usize)>, String) = (None, String::new());
        for c in headings.chain(title_lines) {
            norm_title_into(c, &mut n);
            let count = n.chars().count();
            if count >= 4 && best.is_none_or(|b| count >= b.1) && raw_norm.contains(&n) {
                best = Some((c, count));
            }
        }
        if let Some((h, _)) = best {
            return (h.trim().to_string(), TitleSource::Heading);
        }
        return (longest_part(raw), TitleSource::Tag);
    }
    if let Some(h) = tree
        .weighty
        .iter()
        .find(|w| matches!(w.tag, "h1" | "h2") && norm_title(&w.text).chars().count() >= 2)
    {
        return (h.text.trim().to_string(), TitleSource::Heading);
    }
    match keywords.first() {
        Some(k) => (k.word.clone(), TitleSource::Keyword),
        None => (raw.to_string(), TitleSource::None),
    }
}

/// The longest part of a `<title>` split at the separators sites append their name with.
fn longest_part(raw: &str) -> String {
    const SEPS: &[&str] = &[" - ", " — ", " – ", "——", "_", "|", "｜", " :: ", "－", "-"];
    let mut parts = vec![raw.to_string()];
    for sep in SEPS {
        if parts.len() > 1 {
            break;
        }
        if raw.contains(sep) {
            parts = raw.split(sep).map(|s| s.trim().to_string()).collect();
        }
    }
    parts
        .into_iter()
        .max_by_key(|s| norm_title(s).chars().count())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_parts() {
        assert_eq!(
            longest_part("四年前中500万现穷困潦倒__商贸_新浪网"),
            "四年前中500万现穷困潦倒"
        );
        assert_eq!(longest_part("新知科技 | 新知科技"), "新知科技");
        assert_eq!(longest_part("组图：千元手机 - 光影图集"), "组图：千元手机");
    }
}
