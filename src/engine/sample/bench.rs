//! A large generated site for crawl benchmarks: `bench.localhost` with N linked pages built
//! from the sample articles, made on request (nothing is kept per page, so N can be large).
//! Page i links to the next page and to 8 pseudo-random others, so a crawl from `/` reaches
//! all N; every page is distinct (its number is in the text).

use super::articles::Article;
use super::html::esc;

/// The benchmark host.
pub(crate) const HOST: &str = "bench.localhost";

/// The HTML of page `i` of `n`, or `None` when `path` is not a page.
pub(crate) fn page(articles: &[Article], n: u64, path: &str) -> Option<String> {
    let i: u64 = if path == "/" {
        0
    } else {
        path.strip_prefix("/p/")?
            .strip_suffix(".html")?
            .parse()
            .ok()?
    };
    if i >= n || articles.is_empty() {
        return None;
    }
    let a = &articles[(i as usize) % articles.len()];
    let mut links = vec![(i + 1) % n];
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    for _ in 0..8 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        links.push(x % n);
    }
    let mut s = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{} · 第{i}号</title></head><body>\
         <div class=\"nav\"><a href=\"/\">首页</a></div><h1>{}</h1><p class=\"meta\">{} {} · 第 {i} 页</p>",
        esc(&a.title),
        esc(&a.title),
        esc(&a.author),
        a.date
    );
    for p in &a.paragraphs {
        s.push_str("<p>");
        s.push_str(&esc(p));
        s.push_str("</p>");
    }
    s.push_str("<ul class=\"related\">");
    for l in links {
        s.push_str(&format!(
            "<li><a href=\"/p/{l}.html\">相关阅读 {l}</a></li>"
        ));
    }
    s.push_str("</ul></body></html>");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_exist_link_onward_and_differ() {
        let a = super::super::articles::all().unwrap();
        let p0 = page(&a, 1000, "/").unwrap();
        assert!(p0.contains("href=\"/p/1.html\""));
        assert!(page(&a, 1000, "/p/999.html").unwrap().contains("/p/0.html"));
        assert!(page(&a, 1000, "/p/1000.html").is_none());
        assert!(page(&a, 1000, "/x").is_none());
        assert_ne!(page(&a, 1000, "/p/1.html"), page(&a, 1000, "/p/89.html"));
    }
}
