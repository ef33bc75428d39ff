//! Out-links of a fetched page: the charset (HTTP header, then a `<meta>` prescan of the first
//! 1,024 bytes, else UTF-8), the HTML parsed with html5ever (as browsers do), and every
//! `<a href>` / `<area href>` / `<frame src>` resolved against the page's base URL by
//! [`crate::engine::urls::resolve_link`] — queries percent-encoded in the page's own encoding,
//! as browsers do for GBK pages.

use encoding_rs::Encoding;

/// The label of a `charset=` parameter in a Content-Type value.
fn charset_param(ct: &str) -> Option<&str> {
    ct.split(';').find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("charset")).then(|| v.trim().trim_matches('"'))
    })
}

/// The page's encoding: header, then `<meta>` in the first 1,024 bytes, else UTF-8.
/// (The full decision chain with BOM and statistical guessing is the text pipeline's job.)
pub(crate) fn sniff_encoding(content_type: Option<&str>, body: &[u8]) -> &'static Encoding {
    if let Some((enc, _)) = Encoding::for_bom(body) {
        return enc;
    }
    if let Some(enc) = content_type
        .and_then(charset_param)
        .and_then(|l| Encoding::for_label(l.as_bytes()))
    {
        return enc;
    }
    let head = &body[..body.len().min(1024)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    if let Some(pos) = lower.windows(8).position(|w| w == b"charset=") {
        let rest = &head[pos + 8..];
        let label: Vec<u8> = rest
            .iter()
            .copied()
            .skip_while(|c| *c == b'"' || *c == b'\'')
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
            .collect();
        if let Some(enc) = Encoding::for_label(&label) {
            // A meta that claims UTF-16 is read as UTF-8 (the HTML standard).
            return if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                encoding_rs::UTF_8
            } else {
                enc
            };
        }
    }
    encoding_rs::UTF_8
}

/// Decode the page and list its out-links (resolved, in document order, without repeats).
pub(crate) fn extract(
    page_url: &url::Url,
    content_type: Option<&str>,
    body: &[u8],
) -> (Vec<url::Url>, &'static Encoding) {
    let enc = sniff_encoding(content_type, body);
    let (text, _, _) = enc.decode(body);
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
        assert_eq!(
            sniff_encoding(Some("text/html; charset=GBK"), b"x"),
            encoding_rs::GBK
        );
        let page =
            b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">";
        assert_eq!(sniff_encoding(Some("text/html"), page), encoding_rs::GBK);
        assert_eq!(
            sniff_encoding(None, b"<meta charset=\"big5\">"),
            encoding_rs::BIG5
        );
        assert_eq!(sniff_encoding(None, b"<p>plain</p>"), encoding_rs::UTF_8);
    }

    #[test]
    fn links_resolve_like_a_browser() {
        let base = url::Url::parse("http://www.example.localhost/news/a.html").unwrap();
        let (gbk, _, _) = encoding_rs::GBK.encode(
            "<meta charset=gbk><a href=\"b.html#x\">b</a><a href=\"/s?q=中文\">q</a>\
             <a href='javascript:void(0)'>j</a><a href=\"mailto:a@b\">m</a><a href=\"b.html\">again</a>",
        );
        let (links, enc) = extract(&base, Some("text/html"), &gbk);
        assert_eq!(enc, encoding_rs::GBK);
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
