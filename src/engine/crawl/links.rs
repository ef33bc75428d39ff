//! Out-links of a fetched page: the charset (the text pipeline's decision chain: BOM, HTTP header,
//! `<meta>` prescan, statistical guess), the tags scanned without building a DOM
//! ([`super::scan`]; the html5ever DOM path is kept for the tests that compare the two), and
//! every `<a href>` / `<area href>` / `<frame src>` resolved against the page's base URL by
//! [`crate::engine::urls::resolve_link`] — queries percent-encoded in the page's own encoding,
//! as browsers do for GBK pages [L989–991].
//!
//! ```ignore
//! let (links, enc) = extract(&page_url, Some("text/html"), body);
//! ```

use encoding_rs::Encoding;

/// Decode the page and list its out-links (resolved, in document order, without repeats).
pub(crate) fn extract(
    page_url: &url::Url,
    content_type: Option<&str>,
    body: &[u8],
) -> (Vec<url::Url>, &'static Encoding) {
    let (enc, text) = decode(page_url, content_type, body);
    (links_in(page_url, &text, enc), enc)
}

/// The page as text, in the charset the decision chain picks.
pub(crate) fn decode(
    page_url: &url::Url,
    content_type: Option<&str>,
    body: &[u8],
) -> (&'static Encoding, String) {
    // The host is the TLD hint (encoding takes its last label).
    let host = page_url.host_str().map(str::as_bytes);
    match crate::engine::text::encoding::decide_and_decode(body, content_type, None, host) {
        Ok((d, text)) => (d.encoding, text),
        Err(_) => (
            encoding_rs::UTF_8,
            String::from_utf8_lossy(body).into_owned(),
        ),
    }
}

/// The out-links of decoded HTML, found by the tag scanner.
pub(crate) fn links_in(page_url: &url::Url, text: &str, enc: &'static Encoding) -> Vec<url::Url> {
    let found = super::scan::scan(text);
    let base = found
        .base
        .and_then(|h| page_url.join(&h).ok())
        .unwrap_or_else(|| page_url.clone());
    resolve_all(&base, found.links.iter().map(|h| h.as_ref()), enc)
}

/// Resolve link values against `base`, keeping the first of repeats (found by sorting
/// positions, so no URL is copied for a set).
fn resolve_all<'a>(
    base: &url::Url,
    values: impl Iterator<Item = &'a str>,
    enc: &'static Encoding,
) -> Vec<url::Url> {
    let out: Vec<url::Url> = values
        .filter_map(|h| crate::engine::urls::resolve_link(base, h, enc))
        .collect();
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_unstable_by(|&a, &b| out[a].as_str().cmp(out[b].as_str()).then(a.cmp(&b)));
    let mut keep = vec![true; out.len()];
    for w in order.windows(2) {
        if out[w[0]].as_str() == out[w[1]].as_str() {
            keep[w[1]] = false;
        }
    }
    out.into_iter()
        .zip(keep)
        .filter_map(|(u, k)| k.then_some(u))
        .collect()
}

/// The same links found through html5ever's DOM (the path the scanner replaced).
#[cfg(test)]
pub(crate) fn links_in_dom(
    page_url: &url::Url,
    text: &str,
    enc: &'static Encoding,
) -> Vec<url::Url> {
    let doc = scraper::Html::parse_document(text);
    let mut base = page_url.clone();
    if let Ok(sel) = scraper::Selector::parse("base[href]")
        && let Some(b) = doc.select(&sel).next()
        && let Some(u) = b.value().attr("href").and_then(|h| page_url.join(h).ok())
    {
        base = u;
    }
    let mut values: Vec<&str> = Vec::new();
    if let Ok(sel) = scraper::Selector::parse("a[href], area[href], frame[src], iframe[src]") {
        for el in doc.select(&sel) {
            let v = el.value();
            if let Some(h) = v.attr("href").or_else(|| v.attr("src")) {
                values.push(h);
            }
        }
    }
    resolve_all(&base, values.into_iter(), enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_from_header_meta_or_default() {
        let sniff_encoding = |ct: Option<&str>, body: &[u8]| {
            crate::engine::text::encoding::decide(body, ct, None, None)
                .unwrap()
                .encoding
        };
        // GBK and GB2312 labels decode with GB18030, their superset.
        assert_eq!(
            sniff_encoding(Some("text/html; charset=GBK"), b"x"),
            encoding_rs::GB18030
        );
        let page =
            b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">";
        assert_eq!(
            sniff_encoding(Some("text/html"), page),
            encoding_rs::GB18030
        );
        assert_eq!(
            sniff_encoding(None, b"<meta charset=\"big5\">"),
            encoding_rs::BIG5
        );
        let utf8 = "<p>没有声明的中文网页</p>".as_bytes();
        assert_eq!(sniff_encoding(None, utf8), encoding_rs::UTF_8);
        let (gbk, _, _) = encoding_rs::GBK.encode("<p>没有声明的中文网页，用国标码写成。</p>");
        assert_eq!(sniff_encoding(None, &gbk), encoding_rs::GB18030);
    }

    #[test]
    fn links_resolve_like_a_browser() {
        let base = url::Url::parse("http://www.example.localhost/news/a.html").unwrap();
        let (gbk, _, _) = encoding_rs::GBK.encode(
            "<meta charset=gbk><a href=\"b.html#x\">b</a><a href=\"/s?q=中文\">q</a>\
             <a href='javascript:void(0)'>j</a><a href=\"mailto:a@b\">m</a><a href=\"b.html\">again</a>",
        );
        let (links, enc) = extract(&base, Some("text/html"), &gbk);
        assert_eq!(enc, encoding_rs::GB18030);
        let s: Vec<String> = links.iter().map(|u| u.to_string()).collect();
        assert_eq!(
            s,
            [
                "http://www.example.localhost/news/b.html#x",
                "http://www.example.localhost/s?q=%D6%D0%CE%C4",
                "http://www.example.localhost/news/b.html",
            ]
        );
    }

    /// The scanner finds what the DOM finds, on tricky HTML.
    #[test]
    fn the_scanner_finds_the_dom_links_on_tricky_html() {
        let base = url::Url::parse("http://www.example.localhost/dir/page.html").unwrap();
        let cases = [
            "<html><head><BASE HREF=\"http://other.localhost/x/\"></head><body><a href=a.html>a</a></body></html>",
            "<!-- <a href=\"c1.html\">no</a> --><a href=c2.html>y</a><!--><a href=c3.html>z</a>",
            "<script>document.write('<a href=\"s.html\">')</script><a href=after.html>x</a>",
            "<style>a[href=\"st.html\"]{}</style><noscript><a href=ns.html>n</a></noscript><a href=ok.html>ok</a>",
            "<A HREF='up.html'>1</A><a Href=\"x.html?a=1&amp;b=2&#38;c=3&copy=4\">2</a><a href=q.html?a&lt;b>3</a>",
            "<a title='>' href=\"quoted.html\">1</a><a href = spaced.html >2</a><a href=\"dup1.html\" href=\"dup2.html\">3</a>",
            "<area href=\"map.html\"><iframe src=\"frame.html\"><a href=in-iframe.html></iframe><a href=\"#top\">t</a>",
            "<textarea><a href=ta.html></textarea><title><a href=ti.html></title><a href=\"javascript:void(0)\">j</a>",
            "<a href=\"&#x2F;abs.html\">a</a><a href='  spaces.html  '>s</a><a href=\"https://Example.localhost:443/a\">b</a>",
            "<a href=\"s.html?a=1&b=2&amp=3&c&copy.&#1;\">q</a><a href=\"r.html?x&lang=zh&\">r</a>",
            "<p>1 < 2 and </p><a href=lt.html>x</a><!doctype x><?php echo 1 ?><a href=\"last.html\">",
        ];
        for html in cases {
            let (enc, text) = decode(&base, Some("text/html"), html.as_bytes());
            assert_eq!(
                links_in(&base, &text, enc),
                links_in_dom(&base, &text, enc),
                "{html}"
            );
        }
    }

    /// The scanner finds what the DOM finds on every page of the sample web and the bench site.
    #[test]
    fn the_scanner_finds_the_dom_links_on_the_sample_web() {
        let web = crate::engine::sample::web::SampleWeb::build(8080, false).unwrap();
        let mut pages = 0;
        for page in &web.truth.pages {
            let r = web.at(&page.url).unwrap();
            let ct = r.content_type.as_deref();
            let base = url::Url::parse(&page.url).unwrap();
            let (enc, text) = decode(&base, ct, &r.body);
            let dom = links_in_dom(&base, &text, enc);
            assert_eq!(links_in(&base, &text, enc), dom, "{}", page.url);
            pages += usize::from(!dom.is_empty());
        }
        let articles = crate::engine::sample::articles::all().unwrap();
        let base = url::Url::parse("http://bench.localhost/").unwrap();
        for i in 0..50 {
            let html = crate::engine::sample::bench::page(&articles, 1000, &format!("/p/{i}.html"))
                .unwrap();
            let dom = links_in_dom(&base, &html, encoding_rs::UTF_8);
            assert!(dom.len() >= 2, "{i}: {dom:?}");
            assert_eq!(links_in(&base, &html, encoding_rs::UTF_8), dom);
        }
        assert!(pages > 20, "only {pages} HTML pages in the sample web");
    }
}
