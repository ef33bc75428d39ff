//! Real page templates for the harder development set's HTML input: the ccwe pages
//! (`extraction/ccwe/original`) with their main text taken out, so a document can be put in
//! another site's page — its navigation, sidebars, related-article lists and footer, plus what
//! portals repeat outside the main element (a summary of the article, a breadcrumb with its
//! headline, a related-articles list with other documents' headlines and openings).
//!
//! The main element is the deepest element whose text holds both the first and the last words
//! of the page's hand-cleaned text; scripts go, the page is written as UTF-8. A template is
//! kept when DocView still finds a probe article in it.
//!
//! ```no_run
//! use tianwang::engine::dedup::{Doc, templates};
//! let data = tianwang::engine::data::DataDir::resolve(None)?;
//! data.require("ccwe")?;
//! let ts = templates::templates(data.root())?;
//! let page = templates::wrap(&ts[0], &Doc::new("a", "标题", "正文。"), &[], 1);
//! assert!(page.contains("正文"));
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::Path;

use ego_tree::NodeRef;
use scraper::{Html, Node};

use super::Doc;
use super::devset::esc;
use super::features::normalise;
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::rng::Rng;

const TITLE: &str = "\u{1}TITLE\u{1}";
const PRE: &str = "\u{1}PRE\u{1}";
const MAIN: &str = "\u{1}MAIN\u{1}";
const POST: &str = "\u{1}POST\u{1}";

/// A page with its main text taken out.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// The ccwe page's file stem.
    pub name: String,
    html: String,
}

/// The ccwe pages: (file stem, page bytes, hand-cleaned text), in name order.
pub(crate) fn ccwe_pages(data: &Path) -> Result<Vec<(String, Vec<u8>, String)>> {
    let dir = data.join("extraction/ccwe/original");
    let bad = |p: &Path, e: std::io::Error| EngineError::path_os(p.to_path_buf(), e);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| bad(&dir, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let txt = data.join(format!("extraction/ccwe/cleaned/{stem}.txt"));
        let (Ok(page), Ok(cleaned)) = (std::fs::read(&f), std::fs::read_to_string(&txt)) else {
            continue;
        };
        out.push((stem, page, cleaned));
    }
    if out.is_empty() {
        return Err(EngineError::path_flaw(
            dir,
            Flaw::new("flaw.path_no_ccwe", &[]),
        ));
    }
    Ok(out)
}

/// Every usable template of the ccwe pages.
pub fn templates(data: &Path) -> Result<Vec<Template>> {
    let mut out = Vec::new();
    for (name, page, cleaned) in ccwe_pages(data)? {
        if let Some(html) = hollow(&page, &cleaned) {
            let t = Template { name, html };
            if holds_a_probe(&t) {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// The page with markers for the title, the main element's content and its two sides.
fn hollow(page: &[u8], cleaned: &str) -> Option<String> {
    let (_, text) =
        crate::engine::text::encoding::decide_and_decode(page, None, None, None).ok()?;
    let lines: Vec<Vec<char>> = cleaned
        .lines()
        .map(normalise)
        .filter(|l| l.len() >= 4)
        .collect();
    let first: String = lines.first()?.iter().take(8).collect();
    let last_line = lines.last()?;
    let last: String = last_line[last_line.len().saturating_sub(8)..]
        .iter()
        .collect();
    let doc = Html::parse_document(&text);
    let mut best: Option<(usize, ego_tree::NodeId)> = None;
    find_main(doc.tree.root(), &first, &last, &mut best);
    let (_, main) = best?;
    let mut out = String::with_capacity(text.len());
    serialize(doc.tree.root(), main, &mut out);
    (out.contains(MAIN) && out.contains(TITLE)).then_some(out)
}

/// Post-order: each element's normalised text; the smallest holding both snippets wins.
fn find_main(
    n: NodeRef<'_, Node>,
    first: &str,
    last: &str,
    best: &mut Option<(usize, ego_tree::NodeId)>,
) -> String {
    match n.value() {
        Node::Text(t) => normalise(t).into_iter().collect(),
        Node::Element(e) if matches!(e.name(), "script" | "style" | "noscript") => String::new(),
        _ => {
            let mut s = String::new();
            for c in n.children() {
                s.push_str(&find_main(c, first, last, best));
            }
            if n.value().is_element() && s.contains(first) && s.contains(last) {
                let len = s.chars().count();
                if best.is_none_or(|b| len < b.0) {
                    *best = Some((len, n.id()));
                }
            }
            s
        }
    }
}

const VOID: [&str; 14] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

fn serialize(n: NodeRef<'_, Node>, main: ego_tree::NodeId, out: &mut String) {
    match n.value() {
        Node::Doctype(_) => out.push_str("<!DOCTYPE html>\n"),
        Node::Text(t) => out.push_str(&esc(t)),
        Node::Element(e) => {
            let name = e.name();
            if matches!(name, "script" | "noscript" | "iframe") {
                return;
            }
            if name == "meta"
                && (e.attr("charset").is_some()
                    || e.attr("http-equiv")
                        .is_some_and(|h| h.eq_ignore_ascii_case("content-type")))
            {
                return;
            }
            if n.id() == main {
                out.push_str(PRE);
            }
            out.push('<');
            out.push_str(name);
            for (k, v) in e.attrs() {
                out.push_str(&format!(" {k}=\"{}\"", esc(v).replace('"', "&quot;")));
            }
            out.push('>');
            if name == "head" {
                out.push_str("<meta charset=\"utf-8\">");
            }
            if VOID.contains(&name) {
                return;
            }
            if name == "title" {
                out.push_str(TITLE);
            } else if n.id() == main {
                out.push_str(MAIN);
            } else {
                for c in n.children() {
                    serialize(c, main, out);
                }
            }
            out.push_str(&format!("</{name}>"));
            if n.id() == main {
                out.push_str(POST);
            }
        }
        _ => {
            for c in n.children() {
                serialize(c, main, out);
            }
        }
    }
    if matches!(n.value(), Node::Document) && !out.contains(TITLE) {
        // A page without a <title>: give it one.
        *out = out.replacen("<head>", &format!("<head><title>{TITLE}</title>"), 1);
    }
}

/// Whether DocView finds a probe article put in the template.
fn holds_a_probe(t: &Template) -> bool {
    let probe = "北京大学网络与分布式系统实验室今天发布了天网搜索引擎的新版本，新版本的网页搜集系统每天可以抓取上千万个网页。\n\n研究人员表示，新版本改进了中文分词和网页消重算法，转载网页的识别准确率明显提高，用户检索时看到的重复结果大大减少。\n\n据介绍，天网搜索引擎从一九九七年开始研制，至今已经为全国的高校师生提供了多年的检索服务，积累了大量的用户查询日志。";
    let d = Doc::new("probe", "天网搜索引擎发布新版本", probe);
    let page = wrap(t, &d, &[], 1);
    let Ok(doc) =
        crate::engine::docview::plain::doc_from_html("p", page.as_bytes(), None, None, true)
    else {
        return false;
    };
    let want = normalise(probe);
    let got: String = normalise(&doc.body).into_iter().collect();
    let found = want
        .chunks(20)
        .filter(|c| got.contains(&c.iter().collect::<String>()))
        .count();
    found * 10 >= want.chunks(20).count() * 8
}

/// `d` in template `t`: its headline in the title, a breadcrumb and (one page in two) a summary
/// before the main element, its paragraphs inside, a related-articles list of `others`
/// (headline, opening) after it. `salt` picks the choices.
pub fn wrap(t: &Template, d: &Doc, others: &[(&str, &str)], salt: u64) -> String {
    let mut rng = Rng::new(salt);
    let paras: Vec<&str> = d
        .body
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .collect();
    let main: String = std::iter::once(format!("<h1>{}</h1>\n", esc(&d.headline)))
        .chain(paras.iter().map(|p| format!("<p>{}</p>\n", esc(p))))
        .collect();
    let mut pre = format!(
        "<div class=\"crumb\"><a href=\"/\">首页</a> &gt; <a href=\"/news/\">新闻</a> &gt; {}</div>",
        esc(&d.headline)
    );
    if rng.below(2) == 0 {
        let lead: String = d
            .body
            .chars()
            .filter(|c| *c != '\n')
            .take(60 + rng.below(60))
            .collect();
        pre.push_str(&format!("<div class=\"summary\">{}……</div>", esc(&lead)));
    }
    let mut post = String::from("<div class=\"related\"><h3>相关阅读</h3><ul>");
    for (i, (h, open)) in others.iter().enumerate() {
        let snippet = if i % 2 == 0 {
            format!(
                "<span>{}……</span>",
                esc(&open.chars().take(40).collect::<String>())
            )
        } else {
            String::new()
        };
        post.push_str(&format!(
            "<li><a href=\"/news/{}.html\">{}</a>{snippet}</li>",
            1000 + i,
            esc(h)
        ));
    }
    post.push_str("</ul></div>");
    t.html
        .replacen(TITLE, &esc(&d.headline), 1)
        .replacen(PRE, &pre, 1)
        .replacen(MAIN, &main, 1)
        .replacen(POST, &post, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_hollowed_at_its_main_text() {
        let page = "<html><head><meta charset=\"gbk\"><title>旧标题</title><script>x()</script></head><body>\
            <div class=\"nav\">首页 | 新闻</div><div id=\"main\"><div class=\"text\"><p>第一段文字内容在这里开始。</p>\
            <p>最后一段文字内容在这里结束。</p></div></div><div class=\"foot\">版权所有</div></body></html>";
        let html = hollow(
            page.as_bytes(),
            "第一段文字内容在这里开始。\n最后一段文字内容在这里结束。",
        )
        .unwrap();
        assert!(
            html.contains("<div class=\"text\">\u{1}MAIN\u{1}</div>"),
            "{html}"
        );
        assert!(html.contains("\u{1}PRE\u{1}<div class=\"text\">"), "{html}");
        assert!(!html.contains("x()") && !html.contains("gbk"), "{html}");
        let t = Template {
            name: "t".into(),
            html,
        };
        let d = Doc::new("a", "新标题", "甲段。\n\n乙段。");
        let out = wrap(&t, &d, &[("别的新闻", "别的新闻的开头")], 3);
        assert!(out.contains("<title>新标题</title>"), "{out}");
        assert!(
            out.contains("<p>甲段。</p>") && out.contains("别的新闻"),
            "{out}"
        );
        assert!(
            out.contains("首页 | 新闻") && out.contains("版权所有"),
            "{out}"
        );
    }
}
