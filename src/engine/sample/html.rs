//! Page templates of the sample sites. Each site has its own look — header, navigation, ads,
//! related-link boxes, comments, footer — so boilerplate differs between sites, as on the real
//! Chinese web. The templates only lay out a [`PageModel`]; what goes in them is decided in
//! `web.rs`.

use std::fmt::Write as _;

/// HTML-escape text.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}

/// A link: href as written in the page, and its text.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    pub href: String,
    pub text: String,
}

impl Link {
    pub fn new(href: impl Into<String>, text: impl Into<String>) -> Self {
        Link {
            href: href.into(),
            text: text.into(),
        }
    }
}

/// A list entry on a hub page.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub link: Link,
    pub date: String,
    pub teaser: String,
}

/// What a page shows, independent of the site's look.
#[derive(Debug, Clone)]
pub(crate) enum Content {
    Article {
        title: String,
        author: String,
        date: String,
        source: String,
        /// Main text; the ground truth body is exactly these, joined by `\n`.
        paragraphs: Vec<String>,
        /// An inline picture (src, caption) after the first paragraph.
        figure: Option<(String, String)>,
        related: Vec<Link>,
        comments: Vec<(String, String)>,
        /// Extra links in the article's tool bar (print, author, original …).
        tools: Vec<Link>,
    },
    Hub {
        h1: String,
        items: Vec<Item>,
        pager: Vec<Link>,
        /// Extra link blocks (e.g. canonicalisation cases, specials) on the home page.
        extra: Vec<(String, Vec<Link>)>,
    },
    Gallery {
        h1: String,
        date: String,
        intro: String,
        pictures: Vec<(String, String)>,
        next: Vec<Link>,
    },
}

/// One page to render.
#[derive(Debug, Clone)]
pub(crate) struct PageModel {
    /// `<title>` text.
    pub title_tag: String,
    /// `<meta charset>` to write, if any.
    pub meta_charset: Option<MetaCharset>,
    pub nav: Vec<Link>,
    pub sidebar: Vec<Link>,
    pub footer_links: Vec<Link>,
    pub content: Content,
    /// Deterministic variety (which ad, which layout detail).
    pub variant: u64,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum MetaCharset {
    /// `<meta charset="…">`
    Short(&'static str),
    /// `<meta http-equiv="Content-Type" content="text/html; charset=…">`
    HttpEquiv(&'static str),
}

fn head(p: &PageModel, css: &str, extra_head: &str) -> String {
    let meta = match p.meta_charset {
        Some(MetaCharset::Short(c)) => format!("<meta charset=\"{c}\">\n"),
        Some(MetaCharset::HttpEquiv(c)) => {
            format!("<meta http-equiv=\"Content-Type\" content=\"text/html; charset={c}\">\n")
        }
        None => String::new(),
    };
    format!(
        "<!DOCTYPE html>\n<html>\n<head>\n{meta}<title>{}</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n{extra_head}<style>{css}</style>\n</head>\n",
        esc(&p.title_tag)
    )
}

fn links_ul(class: &str, links: &[Link]) -> String {
    let mut s = format!("<ul class=\"{class}\">");
    for l in links {
        let _ = write!(
            s,
            "<li><a href=\"{}\">{}</a></li>",
            esc(&l.href),
            esc(&l.text)
        );
    }
    s.push_str("</ul>");
    s
}

fn paragraphs_html(ps: &[String], figure: &Option<(String, String)>, fig_class: &str) -> String {
    let mut s = String::new();
    for (i, p) in ps.iter().enumerate() {
        let _ = writeln!(s, "<p>{}</p>", esc(p));
        if i == 0
            && let Some((src, cap)) = figure
        {
            let _ = writeln!(
                s,
                "<div class=\"{fig_class}\"><img src=\"{}\" alt=\"{}\" width=\"600\" height=\"360\"><span class=\"caption\">{}</span></div>",
                esc(src),
                esc(cap),
                esc(cap)
            );
        }
    }
    s
}

fn items_html(items: &[Item], with_teaser: bool) -> String {
    let mut s = String::from("<ul class=\"list\">\n");
    for it in items {
        let _ = write!(
            s,
            "<li><a href=\"{}\">{}</a> <span class=\"date\">{}</span>",
            esc(&it.link.href),
            esc(&it.link.text),
            esc(&it.date)
        );
        if with_teaser && !it.teaser.is_empty() {
            let _ = write!(s, "<div class=\"teaser\">{}</div>", esc(&it.teaser));
        }
        s.push_str("</li>\n");
    }
    s.push_str("</ul>\n");
    s
}

fn pager_html(pager: &[Link]) -> String {
    if pager.is_empty() {
        return String::new();
    }
    let mut s = String::from("<div class=\"pager\">");
    for l in pager {
        let _ = write!(s, "<a href=\"{}\">{}</a> ", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div>\n");
    s
}

fn comments_html(title: &str, comments: &[(String, String)]) -> String {
    if comments.is_empty() {
        return String::new();
    }
    let mut s = format!("<div class=\"comments\"><h3>{}</h3>\n", esc(title));
    for (who, what) in comments {
        let _ = writeln!(
            s,
            "<div class=\"comment\"><span class=\"user\">{}</span>：<span class=\"text\">{}</span></div>",
            esc(who),
            esc(what)
        );
    }
    s.push_str("</div>\n");
    s
}

fn pick<'a>(pool: &'a [&'a str], v: u64) -> &'a str {
    pool[(v as usize) % pool.len()]
}

// --- 华夏新闻网 (portal; its mirror uses the same template) ------------------------------------

const HUAXIA_ADS: &[&str] = &[
    "【推广】家装季大促：全屋定制满 1 万减 2000，点击了解详情",
    "【广告】零基础学 Python，30 天入门数据分析，限时免费试听",
    "【推广】新款轻薄笔记本 12 期免息，今日下单赠鼠标",
    "【广告】海岛度假套餐 5 天 4 晚 2999 元起，名额有限",
];

pub(crate) fn huaxia(p: &PageModel) -> String {
    let css = "body{font-family:sans-serif;margin:0}#top{background:#b71c1c;color:#fff;padding:8px}#nav a{color:#fff;margin:0 8px}.ad{border:1px dashed #999;padding:6px;color:#666}.main{width:70%;float:left}.side{width:28%;float:right}.footer{clear:both;font-size:12px;color:#777}";
    let mut s = head(
        p,
        css,
        "<meta name=\"keywords\" content=\"华夏新闻网,新闻,资讯\">\n",
    );
    s.push_str("<body>\n<div id=\"top\"><span class=\"logo\">华夏新闻网 www.huaxia.localhost</span>\n<div id=\"nav\">");
    for l in &p.nav {
        let _ = write!(s, "<a href=\"{}\">{}</a>", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div></div>\n");
    let _ = writeln!(
        s,
        "<div class=\"ad\" id=\"banner\">{}</div>",
        esc(pick(HUAXIA_ADS, p.variant))
    );
    s.push_str("<div class=\"main\">\n");
    match &p.content {
        Content::Article {
            title,
            author,
            date,
            source,
            paragraphs,
            figure,
            related,
            comments,
            tools,
        } => {
            let _ = writeln!(
                s,
                "<div class=\"crumb\">当前位置：<a href=\"/\">首页</a> &gt; 正文</div>"
            );
            let _ = writeln!(s, "<h1>{}</h1>", esc(title));
            let _ = writeln!(
                s,
                "<div class=\"info\">{} 来源：{} 作者：{}</div>",
                esc(date),
                esc(source),
                esc(author)
            );
            s.push_str("<div id=\"article\" class=\"content\">\n");
            s.push_str(&paragraphs_html(paragraphs, figure, "pic"));
            s.push_str("</div>\n");
            let _ = writeln!(s, "<div class=\"tools\">{}</div>", links_ul("tools", tools));
            let _ = writeln!(
                s,
                "<div class=\"ad\">{}</div>",
                esc(pick(HUAXIA_ADS, p.variant + 1))
            );
            let _ = writeln!(
                s,
                "<div class=\"related\"><h3>相关新闻</h3>{}</div>",
                links_ul("rel", related)
            );
            s.push_str(&comments_html("网友评论", comments));
        }
        Content::Hub {
            h1,
            items,
            pager,
            extra,
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(h1));
            s.push_str(&items_html(items, true));
            s.push_str(&pager_html(pager));
            for (title, links) in extra {
                let _ = writeln!(
                    s,
                    "<div class=\"box\"><h3>{}</h3>{}</div>",
                    esc(title),
                    links_ul("box", links)
                );
            }
        }
        Content::Gallery {
            h1,
            intro,
            pictures,
            ..
        } => {
            let _ = writeln!(s, "<h1>{}</h1><p>{}</p>", esc(h1), esc(intro));
            for (src, cap) in pictures {
                let _ = writeln!(s, "<img src=\"{}\" alt=\"{}\">", esc(src), esc(cap));
            }
        }
    }
    s.push_str("</div>\n<div class=\"side\"><h3>热点排行</h3>\n");
    s.push_str(&links_ul("hot", &p.sidebar));
    s.push_str("</div>\n<div class=\"footer\">");
    s.push_str(&links_ul("flinks", &p.footer_links));
    s.push_str("<p>关于我们 | 联系方式 | 广告服务 | 网站地图</p><p>华夏新闻网 版权所有 · 本站为教学用示例网站，内容均为虚构</p></div>\n</body>\n</html>\n");
    s
}

// --- 新知科技 (blog) -------------------------------------------------------------------------------

pub(crate) fn xinzhi(p: &PageModel) -> String {
    let css = "body{max-width:960px;margin:auto;font:16px/1.7 sans-serif}header{border-bottom:2px solid #0a7}aside{float:right;width:240px}.post{margin-right:260px}.tags a{background:#eef;padding:2px 6px;margin:2px}";
    let mut s = head(p, css, "");
    s.push_str("<body>\n<header><div class=\"brand\"><a href=\"/\">新知科技</a> — 科技与教育的深度阅读</div><nav>");
    for l in &p.nav {
        let _ = write!(s, " <a href=\"{}\">{}</a> |", esc(&l.href), esc(&l.text));
    }
    s.push_str("</nav></header>\n<aside><div class=\"widget\"><h4>热门文章</h4>");
    s.push_str(&links_ul("hot", &p.sidebar));
    s.push_str("</div><div class=\"widget sponsor\">赞助商：云主机新用户首年 99 元</div></aside>\n<div class=\"post\">\n");
    match &p.content {
        Content::Article {
            title,
            author,
            date,
            paragraphs,
            figure,
            related,
            comments,
            tools,
            ..
        } => {
            let _ = writeln!(s, "<article><h1 class=\"entry-title\">{}</h1>", esc(title));
            let _ = writeln!(
                s,
                "<div class=\"meta\">发布于 {} · {}</div>",
                esc(date),
                esc(author)
            );
            s.push_str("<div class=\"entry-content\">\n");
            s.push_str(&paragraphs_html(paragraphs, figure, "wp-caption"));
            s.push_str("</div>\n");
            let _ = writeln!(
                s,
                "<div class=\"tags\">{}</div></article>",
                links_ul("tags", tools)
            );
            let _ = writeln!(
                s,
                "<div class=\"yarpp\"><h3>你可能也喜欢</h3>{}</div>",
                links_ul("rel", related)
            );
            s.push_str(&comments_html(
                &format!("{} 条评论", comments.len()),
                comments,
            ));
            s.push_str("<form class=\"reply\"><textarea name=\"c\" placeholder=\"说点什么吧…\"></textarea><button>发表评论</button></form>\n");
        }
        Content::Hub {
            h1,
            items,
            pager,
            extra,
        } => {
            let _ = writeln!(s, "<h1 class=\"archive-title\">{}</h1>", esc(h1));
            s.push_str(&items_html(items, true));
            s.push_str(&pager_html(pager));
            for (title, links) in extra {
                let _ = writeln!(s, "<h3>{}</h3>{}", esc(title), links_ul("box", links));
            }
        }
        Content::Gallery { h1, intro, .. } => {
            let _ = writeln!(s, "<h1>{}</h1><p>{}</p>", esc(h1), esc(intro));
        }
    }
    s.push_str("</div>\n<footer>");
    s.push_str(&links_ul("links", &p.footer_links));
    s.push_str("<p>© 新知科技 · 采用知识共享署名协议 · 示例网站，内容虚构</p></footer>\n</body>\n</html>\n");
    s
}

// --- 江南晨报 (GBK newspaper) ----------------------------------------------------------------------

pub(crate) fn jiangnan(p: &PageModel) -> String {
    let css = "body{font-size:14px;background:#f4f0e6}table{width:980px;margin:auto}.bt{font-size:22px;font-weight:bold;text-align:center}.gg{background:#ffe;border:1px solid #cc9;padding:4px}";
    let mut s = head(p, css, "");
    s.push_str("<body>\n<table><tr><td colspan=\"2\"><div class=\"masthead\">江南晨报 数字报</div><div class=\"nav\">");
    for l in &p.nav {
        let _ = write!(s, "[<a href=\"{}\">{}</a>] ", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div></td></tr>\n<tr><td class=\"left\" valign=\"top\">\n");
    match &p.content {
        Content::Article {
            title,
            author,
            date,
            source,
            paragraphs,
            related,
            tools,
            ..
        } => {
            let _ = writeln!(s, "<div class=\"bt\">{}</div>", esc(title));
            let _ = writeln!(
                s,
                "<div class=\"ly\">{} {} 本报记者 {}</div>",
                esc(date),
                esc(source),
                esc(author.trim_start_matches("记者").trim())
            );
            s.push_str("<div class=\"zw\">\n");
            s.push_str(&paragraphs_html(paragraphs, &None, "tu"));
            s.push_str("</div>\n");
            s.push_str(&links_ul("gj", tools));
            let _ = writeln!(
                s,
                "<div class=\"xg\">相关稿件：{}</div>",
                links_ul("xg", related)
            );
            s.push_str("<div class=\"gg\">分类广告：吉屋出租 / 二手车转让 / 家政服务，电话 0000-0000000</div>\n");
        }
        Content::Hub {
            h1,
            items,
            pager,
            extra,
        } => {
            let _ = writeln!(s, "<div class=\"bt\">{}</div>", esc(h1));
            s.push_str(&items_html(items, false));
            s.push_str(&pager_html(pager));
            for (title, links) in extra {
                let _ = writeln!(s, "<b>{}</b>{}", esc(title), links_ul("box", links));
            }
        }
        Content::Gallery { h1, intro, .. } => {
            let _ = writeln!(
                s,
                "<div class=\"bt\">{}</div><p>{}</p>",
                esc(h1),
                esc(intro)
            );
        }
    }
    s.push_str("</td><td class=\"right\" valign=\"top\"><div class=\"gg\">订阅江南晨报 全年 360 元</div>\n");
    s.push_str(&links_ul("bq", &p.sidebar));
    s.push_str("</td></tr>\n<tr><td colspan=\"2\" class=\"foot\">");
    s.push_str(&links_ul("yq", &p.footer_links));
    s.push_str("江南晨报社 主办 · 示例网站，内容虚构</td></tr></table>\n</body>\n</html>\n");
    s
}

// --- 文華日報 (Big5, traditional script) -----------------------------------------------------------

pub(crate) fn wenhua(p: &PageModel) -> String {
    let css = "body{font-family:serif;margin:0 5%}.hd{border-bottom:3px double #333}.ad{float:right;width:200px;border:1px solid #aaa}";
    let mut s = head(p, css, "");
    s.push_str("<body>\n<div class=\"hd\"><h2>文華日報</h2><div class=\"menu\">");
    for l in &p.nav {
        let _ = write!(s, "<a href=\"{}\">{}</a> · ", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div></div>\n<div class=\"ad\">廣告：文華書局年終特賣，全館七折起</div>\n");
    match &p.content {
        Content::Article {
            title,
            author,
            date,
            source,
            paragraphs,
            related,
            comments,
            tools,
            ..
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(title));
            let _ = writeln!(
                s,
                "<p class=\"byline\">{} ｜ {} ｜ {}</p>",
                esc(author),
                esc(date),
                esc(source)
            );
            s.push_str("<div class=\"story\">\n");
            s.push_str(&paragraphs_html(paragraphs, &None, "fig"));
            s.push_str("</div>\n");
            s.push_str(&links_ul("tools", tools));
            let _ = writeln!(
                s,
                "<div class=\"more\"><h3>延伸閱讀</h3>{}</div>",
                links_ul("rel", related)
            );
            s.push_str(&comments_html("讀者迴響", comments));
        }
        Content::Hub {
            h1,
            items,
            pager,
            extra,
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(h1));
            s.push_str(&items_html(items, true));
            s.push_str(&pager_html(pager));
            for (title, links) in extra {
                let _ = writeln!(s, "<h3>{}</h3>{}", esc(title), links_ul("box", links));
            }
        }
        Content::Gallery { h1, intro, .. } => {
            let _ = writeln!(s, "<h1>{}</h1><p>{}</p>", esc(h1), esc(intro));
        }
    }
    s.push_str("<div class=\"ft\">");
    s.push_str(&links_ul("ft", &p.footer_links));
    s.push_str("<p>文華日報 版權所有 · 教學示例網站，內容純屬虛構</p></div>\n</body>\n</html>\n");
    s
}

// --- 光影图集 (picture site) -----------------------------------------------------------------------

pub(crate) fn guangying(p: &PageModel) -> String {
    let css = "body{background:#111;color:#ddd;font-family:sans-serif}.photo{margin:16px 0}.photo img{max-width:100%}.cap{color:#aaa}";
    let mut s = head(p, css, "");
    s.push_str("<body>\n<div class=\"top\"><b>光影图集</b> ");
    for l in &p.nav {
        let _ = write!(s, "<a href=\"{}\">{}</a> ", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div>\n");
    match &p.content {
        Content::Gallery {
            h1,
            date,
            intro,
            pictures,
            next,
        } => {
            let _ = writeln!(
                s,
                "<h1>{}</h1><div class=\"date\">{}</div>",
                esc(h1),
                esc(date)
            );
            let _ = writeln!(s, "<p class=\"intro\">{}</p>", esc(intro));
            for (i, (src, cap)) in pictures.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "<div class=\"photo\"><img src=\"{}\" alt=\"图{}\"><p class=\"cap\">{}</p></div>",
                    esc(src),
                    i + 1,
                    esc(cap)
                );
            }
            let _ = writeln!(s, "<div class=\"more\">{}</div>", links_ul("next", next));
        }
        Content::Hub {
            h1, items, pager, ..
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(h1));
            s.push_str(&items_html(items, false));
            s.push_str(&pager_html(pager));
        }
        Content::Article {
            title, paragraphs, ..
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(title));
            s.push_str(&paragraphs_html(paragraphs, &None, "p"));
        }
    }
    s.push_str("<div class=\"foot\">");
    s.push_str(&links_ul("foot", &p.footer_links));
    s.push_str("<p>光影图集 · 图片均为示意 · 示例网站</p></div>\n</body>\n</html>\n");
    s
}

// --- 快讯网 (aggregator of reprints) ---------------------------------------------------------------

const KUAIXUN_ADS: &[&str] = &[
    "下载快讯 App，重大新闻第一时间推送",
    "【广告】理财新客专享 4.5% 年化收益，投资有风险",
    "【广告】驾校报名立减 500 元，周末班火热招生",
];

pub(crate) fn kuaixun(p: &PageModel) -> String {
    let css = "body{font:15px sans-serif;margin:0}.bar{background:#1565c0;color:#fff}.wrap{display:flex}.col{flex:3}.rail{flex:1}.promo{background:#fffbe6}";
    let mut s = head(
        p,
        css,
        "<meta name=\"description\" content=\"快讯网：热点新闻聚合\">\n",
    );
    s.push_str("<body>\n<div class=\"bar\">快讯网 | ");
    for l in &p.nav {
        let _ = write!(s, "<a href=\"{}\">{}</a> ", esc(&l.href), esc(&l.text));
    }
    s.push_str("</div>\n");
    let _ = writeln!(
        s,
        "<div class=\"promo\">{}</div>",
        esc(pick(KUAIXUN_ADS, p.variant))
    );
    s.push_str("<div class=\"wrap\"><div class=\"col\">\n");
    match &p.content {
        Content::Article {
            title,
            author,
            date,
            source,
            paragraphs,
            figure,
            related,
            comments,
            tools,
        } => {
            let _ = writeln!(s, "<h1 class=\"headline\">{}</h1>", esc(title));
            let _ = writeln!(
                s,
                "<div class=\"src\">{} 来源：{} {}</div>",
                esc(date),
                esc(source),
                esc(author)
            );
            s.push_str("<div class=\"article-body\">\n");
            s.push_str(&paragraphs_html(paragraphs, figure, "img"));
            s.push_str("</div>\n<div class=\"statement\">声明：本文转载自其他媒体，不代表本站观点。</div>\n");
            s.push_str(&links_ul("tools", tools));
            let _ = writeln!(
                s,
                "<div class=\"promo\">{}</div>",
                esc(pick(KUAIXUN_ADS, p.variant + 2))
            );
            let _ = writeln!(s, "<h3>猜你喜欢</h3>{}", links_ul("rel", related));
            s.push_str(&comments_html("热门跟帖", comments));
        }
        Content::Hub {
            h1,
            items,
            pager,
            extra,
        } => {
            let _ = writeln!(s, "<h1>{}</h1>", esc(h1));
            s.push_str(&items_html(items, true));
            s.push_str(&pager_html(pager));
            for (title, links) in extra {
                let _ = writeln!(s, "<h3>{}</h3>{}", esc(title), links_ul("box", links));
            }
        }
        Content::Gallery { h1, intro, .. } => {
            let _ = writeln!(s, "<h1>{}</h1><p>{}</p>", esc(h1), esc(intro));
        }
    }
    s.push_str("</div><div class=\"rail\"><h3>24 小时热榜</h3>");
    s.push_str(&links_ul("rank", &p.sidebar));
    s.push_str("</div></div>\n<div class=\"footer\">");
    s.push_str(&links_ul("partners", &p.footer_links));
    s.push_str("<p>快讯网 · 违法和不良信息举报 · 示例网站，内容虚构</p></div>\n</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(esc("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
    }
}
