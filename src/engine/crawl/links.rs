//! Out-links of a fetched page: the charset (the text pipeline's decision chain: BOM, HTTP header,
//! `<meta>` prescan, statistical guess), the HTML parsed with html5ever (as browsers do), and every
//! `<a href>` / `<area href>` / `<frame src>` resolved against the page's base URL by
//! [`crate::engine::urls::resolve_link`] — queries percent-encoded in the page's own encoding,
//! as browsers do for GBK pages.

use encoding_rs::Encoding;

/// Decode the page and list its out-links (resolved, in document order, without repeats).
pub(crate) fn extract(
    page_url: &url::Url,
    content_type: Option<&str>,
    body: &[u8],
) -> (Vec<url::Url>, &'static Encoding) {
    // The host is the TLD hint (encoding takes its last label).
    let host = page_url.host_str().map(str::as_bytes);
    let (enc, text) =
        match crate::engine::text::encoding::decide_and_decode(body, content_type, None, host) {
            Ok((d, text)) => (d.encoding, text),
            Err(_) => (
                encoding_rs::UTF_8,
                String::from_utf8_lossy(body).into_owned(),
            ),
        };
    let doc = scraper::Html::parse_document(&text);
    let mut base = page_url.clone();
    if let Ok(sel) = scraper::Selector::parse("base[href]")
        && let Some(b) = doc.select(&sel).next()
        && let Some(u) = b.value().attr("href").and_then(|h| page_url.join(h).ok())
    {
        base = u;
    }
    let mut out: Vec<url::Url> = Vec::new();
    if let Ok(sel) = scraper::Selector::parse("a[href], area[href], frame[src], iframe[src]") {
        for el in doc.select(&sel) {
            let v = el.value();
            let Some(h) = v.attr("href").or_else(|| v.attr("src")) else {
                continue;
            };
            if let Some(u) = crate::engine::urls::resolve_link(&base, h, enc)
                && !out.contains(&u)
            {
                out.push(u);
            }
        }
    }
    (out, enc)
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
}
