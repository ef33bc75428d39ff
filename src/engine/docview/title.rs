//! The page's title [L2349–L2351]: a heading that the `<title>` contains (the site name
//! dropped), else the `<title>`'s longest part, else — the title missing or one of the poor
//! titles the book lists — a heading or the highest-weight keyword.

use super::body::Analysis;
use super::tree::{PageTree, norm_title};
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
    let poor = raw_norm.is_empty() || BAD_TITLES.iter().any(|b| raw.to_lowercase().trim() == *b);
    // Headings and title-role lines, in document order.
    let mut candidates: Vec<String> = Vec::new();
    for w in &tree.weighty {
        if w.tag.starts_with('h') || w.tag == "strong" || w.tag == "b" || w.tag == "font" {
            candidates.push(w.text.clone());
        }
    }
    for (i, l) in tree.lines.iter().enumerate() {
        if a.line_roles[i] == Role::Title {
            candidates.push(l.text.clone());
        }
    }
    if !poor {
        let best = candidates
            .iter()
            .filter(|c| {
                let n = norm_title(c);
                n.chars().count() >= 4 && raw_norm.contains(&n)
            })
            .max_by_key(|c| norm_title(c).chars().count());
        if let Some(h) = best {
            return (h.trim().to_string(), TitleSource::Heading);
        }
        return (longest_part(raw), TitleSource::Tag);
    }
    if let Some(h) = tree
        .weighty
        .iter()
        .find(|w| matches!(w.tag.as_str(), "h1" | "h2") && norm_title(&w.text).chars().count() >= 2)
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
