//! The streaming block tree against html5ever's: hand-made malformed pages, then every ccwe page
//! and every sample-web page, compared block by block and as whole DocViews.

use super::*;
use crate::engine::docview::tree::build_html5ever;
use crate::engine::docview::{
    Detail, EncodingInfo, Params, TreePath, extract_tree, tree::PageTree,
};
use crate::engine::text::segment::Segmenter;

/// The parts of a block tree the analysis reads, as comparable text.
fn describe(t: &PageTree) -> Vec<String> {
    let mut out = vec![
        format!("title {:?}", t.title),
        format!(
            "meta {:?} {:?} {:?}",
            t.meta_keywords, t.meta_description, t.base_href
        ),
    ];
    for (i, b) in t.blocks.iter().enumerate() {
        out.push(format!(
            "block {i} <{}{}> parent {:?} chars {} anchor {} links {} images {} punct {} lines {}..{} end {}",
            b.tag, b.hint, b.parent, b.chars, b.anchor_chars, b.links, b.images, b.punct,
            b.line_start, b.line_end, b.sub_end
        ));
    }
    for l in &t.lines {
        out.push(format!(
            "line {} {:?} {} {}",
            l.block, l.text, l.chars, l.anchor_chars
        ));
    }
    for l in &t.links {
        out.push(format!("link {} {:?} {:?}", l.block, l.href, l.anchor));
    }
    for w in &t.weighty {
        out.push(format!("weighty {} {} {:?}", w.block, w.tag, w.text));
    }
    out
}

/// The first difference between the two trees of `html`, if any.
pub(super) fn tree_diff(html: &str) -> Option<String> {
    let (a, b) = (describe(&build(html)), describe(&build_html5ever(html)));
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            return Some(format!("item {i}:\n stream    {x}\n html5ever {y}"));
        }
    }
    (a.len() != b.len()).then(|| format!("{} items vs {}", a.len(), b.len()))
}

fn same_docview(html: &str) -> Result<(), String> {
    let seg = Segmenter::shared();
    let p = Params::default();
    let enc = || EncodingInfo {
        name: "utf-8".into(),
        decided_by: crate::engine::text::encoding::DecidedBy::Bom,
        declared: None,
        notes: Vec::new(),
    };
    let dv =
        |path: TreePath| extract_tree(path.build(html), html, None, enc(), &p, seg, Detail::Full);
    let (s, h) = (dv(TreePath::Stream), dv(TreePath::Html5ever));
    if s == h {
        return Ok(());
    }
    let field = if s.title != h.title {
        "title"
    } else if s.body != h.body {
        "body"
    } else if s.keywords != h.keywords {
        "keywords"
    } else if s.abstract_text != h.abstract_text {
        "abstract"
    } else if s.links != h.links {
        "links"
    } else {
        "blocks"
    };
    Err(format!("DocView differs in {field}"))
}

#[test]
fn malformed_markup_gives_html5ever_s_tree() {
    let cases = [
        "<p>一<p>二<div>三</div>四",
        "<ul><li>一<li>二<ul><li>三</ul><li>四</ul>",
        "<dl><dt>词<dd>释义<dt>词二<dd>释义二</dl>",
        "<table><tr><td>一<td>二<tr><td>三</table>后",
        "<table>前<tr><td>格</td></tr>中<div>块</div></table>尾",
        "<table><td>甲<table><tr><td>乙</table>丙</table>",
        "<p>段<table><tr><td>表</table>",
        "<!DOCTYPE html><p>段<table><tr><td>表</table>",
        "<b>粗</b><p>段</p>后",
        "<p><a href=/x>链<p>接</a>文",
        "<a href=/1>一<a href=/2>二</a>",
        "<p><font>字</p>再<div>块</font>",
        "<form><div><form>内</div></form>外<form>又",
        "</p>游离<br></br>换行",
        "<title>标 题</title><meta name=Keywords content=' 词 '><base href=/b/>正文",
        "<html><head><title>a</title></head><body><p>x</body></html><p>后",
        "<select><option>选<p>段</select>后",
        "<svg><title>图</title><p>出</svg>尾",
        "<h1>一<h2>二</h1>三",
        "<div class='b a b' id=m>&lt;p&gt; &amp;&nbsp;&copy=1<a href='?a=1&copy=2'>x</a></div>",
        "<noscript><p>不</p></noscript><textarea><p>也不</textarea><p>是",
        "<table><caption>题<tr><td>格</table><colgroup>",
        "<center><table><tr><td><font><b>字</td></tr></table>后</b>",
        "a<!-- c -->b<script>x</script>c<p>d",
    ];
    for html in cases {
        assert_eq!(tree_diff(html), None, "{html}");
    }
}

/// ccwe and the sample web: the streaming tree equals html5ever's on every page, none built by
/// the fallback (a difference is reported with the DocView field it reaches, if any).
#[test]
fn same_docview_on_ccwe_and_the_sample_web() {
    let mut pages: Vec<(String, String)> = Vec::new();
    if let Some(dir) = crate::engine::testdata::shared_data("extraction/ccwe/original") {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 69, "ccwe pages");
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let (_, text) =
                crate::engine::text::encoding::decide_and_decode(&bytes, None, None, None).unwrap();
            pages.push((f.display().to_string(), text));
        }
    }
    let ccwe = pages.len();
    let web = crate::engine::sample::web::SampleWeb::shared(false).unwrap();
    let mut seen = 0;
    for p in &web.truth.pages {
        if let Some(r) = web.at(&p.url) {
            pages.push((p.url.clone(), String::from_utf8_lossy(&r.body).into_owned()));
            seen += 1;
        }
    }
    assert!(seen > 400, "sample pages {seen}");
    let (mut tree_same, mut failures) = (0, Vec::new());
    // The adoption agency runs on the stream too: no page falls back to html5ever.
    let fallbacks: Vec<&str> = pages
        .iter()
        .filter(|(_, h)| streamed(h).is_none())
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(
        fallbacks,
        Vec::<&str>::new(),
        "pages html5ever had to build"
    );
    for (name, html) in &pages {
        match tree_diff(html) {
            None => tree_same += 1,
            Some(d) => {
                if let Err(e) = same_docview(html) {
                    failures.push(format!("{name}: {e}; first tree difference {d}"));
                }
            }
        }
    }
    eprintln!(
        "{tree_same} of {} pages give the same block tree ({ccwe} of them ccwe's)",
        pages.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(tree_same, pages.len(), "pages whose block tree differs");
}

#[test]
fn a_repeated_root_tag_adds_missing_attributes() {
    assert_eq!(tree_diff("<body><p>x<body class=b id=i>y"), None);
}

/// Tables pass their events straight on, unless content is foster-parented before one (or the
/// adoption agency moves one): then the page is parsed again with tables holding their events,
/// and the tree is html5ever's either way.
#[test]
fn a_table_holds_its_events_only_in_the_pass_that_needs_it() {
    let reference = |html: &str| describe(&build_html5ever(html));
    let tree = |html: &str, hold: bool| match pass(html, hold) {
        Pass::Tree(t) => Some(describe(&t)),
        Pass::Bail | Pass::Redo => None,
    };
    for html in [
        "<table><tr><td>a<td>b</table>c",
        "<table><tr><td><table><tr><td>x</table>y</table>",
        "<p><b>1<table><tr><td>2</b>3</table>4",
    ] {
        assert_eq!(tree(html, false), Some(reference(html)), "{html}");
    }
    for html in [
        "<table><tr><td>a</td></tr>x<b>y</b></table>z",
        "<table>text<tr><td>a</table>",
        "<div><table><tr><td>a</td></tr><p>b</table></div>",
        "<b>1<table><tr><td>2</td></tr></b>3</table>",
        "<a href=x>1<table><tr><td>2</td></tr><a href=y>3</a></table>",
    ] {
        assert!(matches!(pass(html, false), Pass::Redo), "{html}");
        assert_eq!(tree(html, true), Some(reference(html)), "{html}");
        assert_eq!(tree_diff(html), None, "{html}");
    }
}
