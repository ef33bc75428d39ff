//! The sample articles: original Chinese news written for this project, eight categories of
//! eleven, plus traditional-script editions of sixteen of them (for the Big5 site).
//!
//! Each source is `sample_corpora/articles[_hant]/<category>/<nn>.txt`: header lines
//! `title:`, `author:`, `date:`, `category:`, `event:`, a blank line, then paragraphs separated
//! by blank lines. Articles 10 and 11 of each category report the same event independently
//! (hard negatives for dedup).

use crate::engine::error::{EngineError, Result};

include!(concat!(env!("OUT_DIR"), "/sample_articles.rs"));

/// One article.
#[derive(Debug, Clone, PartialEq)]
pub struct Article {
    /// `articles/sports/01` or `articles_hant/culture/03`.
    pub id: String,
    /// The folder name: `sports`, `finance`, …
    pub category_key: String,
    /// Number within its category, 1-based.
    pub number: u32,
    pub title: String,
    pub author: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The Chinese category name: 体育, 财经, …
    pub category: String,
    /// A slug naming the real-world event; equal slugs = independent reports of one event.
    pub event: String,
    pub paragraphs: Vec<String>,
    /// Traditional-script edition.
    pub hant: bool,
}

impl Article {
    /// The main text as a perfect cleaner would extract it: paragraphs joined by `\n`.
    pub fn body(&self) -> String {
        self.paragraphs.join("\n")
    }

    /// `sports/01`
    pub fn key(&self) -> String {
        format!("{}/{:02}", self.category_key, self.number)
    }
}

/// Parse one source. Errors name `id:line`.
pub(crate) fn parse(id: &str, text: &str) -> Result<Article> {
    let bad = |line: usize, msg: &str| EngineError::Internal(format!("{id}.txt:{line}: {msg}"));
    let mut lines = text.lines().enumerate();
    let mut field = |name: &str| -> Result<String> {
        let (i, line) = lines.next().ok_or_else(|| bad(0, "header too short"))?;
        line.strip_prefix(name)
            .and_then(|r| r.strip_prefix(": "))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .ok_or_else(|| bad(i + 1, &format!("expected `{name}: …`")))
    };
    let title = field("title")?;
    let author = field("author")?;
    let date = field("date")?;
    let category = field("category")?;
    let event = field("event")?;
    if chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").is_err() {
        return Err(bad(3, "date is not YYYY-MM-DD"));
    }
    let rest: Vec<&str> = lines.map(|(_, l)| l).collect();
    let paragraphs: Vec<String> = rest
        .join("\n")
        .split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if paragraphs.len() < 2 {
        return Err(bad(6, "fewer than two paragraphs"));
    }
    let mut parts = id.split('/');
    let set = parts.next().unwrap_or_default();
    let category_key = parts.next().unwrap_or_default().to_string();
    let number = parts
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| bad(0, "file name is not a number"))?;
    Ok(Article {
        id: id.to_string(),
        category_key,
        number,
        title,
        author,
        date,
        category,
        event,
        paragraphs,
        hant: set == "articles_hant",
    })
}

/// Every embedded article, simplified first, in id order.
pub fn all() -> Result<Vec<Article>> {
    ARTICLE_SOURCES
        .iter()
        .map(|(id, text)| parse(id, text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn the_corpus_is_complete_and_well_formed() {
        let all = all().unwrap();
        let simp: Vec<_> = all.iter().filter(|a| !a.hant).collect();
        assert!(simp.len() >= 80, "{}", simp.len());
        let cats: BTreeSet<_> = simp.iter().map(|a| a.category.as_str()).collect();
        assert!(cats.len() >= 8, "{cats:?}");
        for a in &simp {
            let n = a.body().chars().filter(|c| !c.is_whitespace()).count();
            assert!((200..=1200).contains(&n), "{}: body {n} chars", a.id);
            assert!(
                a.body().contains('。') && a.body().contains('，'),
                "{}",
                a.id
            );
        }
        // Same-event pairs exist in every category (hard negatives), and nowhere else.
        let mut events: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for a in &simp {
            events.entry(&a.event).or_default().push(&a.id);
        }
        let pairs = events.values().filter(|v| v.len() == 2).count();
        assert!(pairs >= 8, "{pairs} same-event pairs");
        assert!(events.values().all(|v| v.len() <= 2));
        // Every traditional edition has its simplified source with the same shape.
        for t in all.iter().filter(|a| a.hant) {
            let s = simp.iter().find(|s| s.key() == t.key()).expect("source");
            assert_eq!(s.paragraphs.len(), t.paragraphs.len(), "{}", t.id);
            assert_eq!(s.date, t.date);
            assert_ne!(s.body(), t.body(), "{} is not converted", t.id);
        }
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = parse("articles/x/01", "title: a\nauthor b\n").unwrap_err();
        assert!(e.to_string().contains("articles/x/01.txt:2"), "{e}");
    }
}
