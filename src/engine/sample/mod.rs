//! The sample web: what does the small Chinese web that ships with the workbench look like, and
//! what is true about it?
//!
//! 88 original news articles (eight categories) become seven sites with distinct templates —
//! a portal with hubs and pagination and its byte-identical mirror, a blog whose robots.txt
//! disallows a section and sets Crawl-delay, a GBK newspaper (charset in the header, in
//! `<meta>`, in both or nowhere), a Big5 daily in traditional script, a picture site, and an
//! aggregator of reprints — about 430 HTML pages, generated deterministically ([`web::SEED`]).
//! The generator also writes the ground truth ([`web::Truth`]): every page's type, title,
//! author, date and exact main text, every duplicate relation (exact, near, contains, mirror),
//! same-event hard negatives, robots-disallowed URLs, intended 404s, the redirect chain and the
//! canonicalisation cases. It is the test bed for crawling (book ch. 3), cleaning (ch. 7 §1,
//! DocView [L2185–2406]) and dedup (ch. 7 §2 [L2496–2640]).
//!
//! ```no_run
//! use tianwang::engine::sample::server::{SampleServer, ServeOptions};
//! let server = SampleServer::start(ServeOptions::default())?;
//! println!("serving {} pages at {}", server.web().truth.pages.len(), server.addr());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod articles;
pub mod bench;
pub(crate) mod html;
pub mod load;
pub mod server;
pub(crate) mod sites;
pub mod web;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use super::web::{Declared, SampleWeb, Truth};

    fn web() -> SampleWeb {
        SampleWeb::build(8123, false).expect("build")
    }

    fn path_of(url: &str) -> (String, String) {
        let u = url::Url::parse(url).expect("url");
        let mut p = u.path().to_string();
        if let Some(q) = u.query() {
            p.push('?');
            p.push_str(q);
        }
        (u.host_str().unwrap_or_default().to_string(), p)
    }

    #[test]
    fn generation_is_reproducible() {
        let (a, b) = (web(), web());
        assert_eq!(
            serde_json::to_string(&a.truth).unwrap(),
            serde_json::to_string(&b.truth).unwrap()
        );
        for p in &a.truth.pages {
            let (h, path) = path_of(&p.url);
            assert_eq!(
                a.get(&h, &path).unwrap().body,
                b.get(&h, &path).unwrap().body
            );
        }
    }

    #[test]
    fn the_web_is_big_and_varied_enough() {
        let t = web().truth;
        assert!(t.pages.len() >= 400, "{} pages", t.pages.len());
        let hosts: BTreeSet<_> = t.pages.iter().map(|p| p.site.as_str()).collect();
        assert!(hosts.len() >= 6, "{hosts:?}");
        for kind in ["topic", "hub", "picture"] {
            assert!(
                t.pages.iter().filter(|p| p.page_type == kind).count() >= 20,
                "{kind}"
            );
        }
        assert!(t.relations.len() >= 60);
        for kind in ["exact", "near", "contains", "mirror"] {
            assert!(
                t.relations.iter().any(|r| r.kind == kind),
                "no {kind} relation"
            );
        }
        assert!(t.hard_negatives.len() >= 8);
        assert!(!t.robots_disallowed.is_empty());
        assert!(!t.broken_links.is_empty());
        assert_eq!(
            t.redirects[0].hops.iter().map(|h| h.0).collect::<Vec<_>>(),
            [301, 302, 200]
        );
        assert!(t.canonical_cases.len() >= 5);
        let encodings: BTreeSet<_> = t.pages.iter().map(|p| p.encoding.as_str()).collect();
        assert_eq!(encodings, BTreeSet::from(["big5", "gbk", "utf-8"]));
        for d in [
            Declared::Header,
            Declared::Meta,
            Declared::Both,
            Declared::None,
        ] {
            assert!(
                t.pages
                    .iter()
                    .any(|p| p.encoding == "gbk" && p.charset_declared == d),
                "{d:?}"
            );
        }
    }

    fn known(t: &Truth) -> HashSet<&str> {
        t.pages.iter().map(|p| p.url.as_str()).collect()
    }

    #[test]
    fn every_relation_names_real_pages() {
        let t = web().truth;
        let pages = known(&t);
        for r in t.relations.iter().chain(&t.hard_negatives) {
            assert!(pages.contains(r.a.as_str()), "{}", r.a);
            assert!(pages.contains(r.b.as_str()), "{}", r.b);
            assert_ne!(r.a, r.b);
        }
    }

    #[test]
    fn every_link_resolves_or_is_an_intended_404() {
        let w = web();
        let t = &w.truth;
        let broken: HashSet<&str> = t.broken_links.iter().map(String::as_str).collect();
        let mut checked = 0;
        for p in &t.pages {
            for l in &p.links {
                let mut u = url::Url::parse(l).unwrap();
                u.set_fragment(None);
                let (h, path) = path_of(u.as_str());
                if broken.contains(u.as_str()) {
                    assert!(w.get(&h, &path).is_none(), "{u} should be a 404");
                    continue;
                }
                let r = w
                    .get(&h, &path)
                    .unwrap_or_else(|| panic!("{} links to missing {u}", p.url));
                assert!(matches!(r.status, 200 | 301 | 302), "{u}");
                checked += 1;
            }
        }
        assert!(checked > 3000, "{checked}");
        // Every page is reachable from the seeds.
        let mut seen: HashSet<String> = t.seeds.iter().cloned().collect();
        let mut queue: Vec<String> = t.seeds.clone();
        let by_url: std::collections::HashMap<&str, &super::web::TruthPage> =
            t.pages.iter().map(|p| (p.url.as_str(), p)).collect();
        while let Some(u) = queue.pop() {
            if let Some(p) = by_url.get(u.as_str()) {
                for l in &p.links {
                    let mut x = url::Url::parse(l).unwrap();
                    x.set_fragment(None);
                    let mut s = x.to_string();
                    if let Some(r) = t.redirects.iter().find(|r| r.from == s) {
                        s = r.hops.last().unwrap().1.clone();
                    }
                    if seen.insert(s.clone()) {
                        queue.push(s);
                    }
                }
            }
        }
        let unreached: Vec<_> = t
            .pages
            .iter()
            .filter(|p| !seen.contains(&p.url))
            .map(|p| &p.url)
            .collect();
        assert!(unreached.is_empty(), "unreachable: {unreached:?}");
    }

    #[test]
    fn bytes_match_the_declared_encodings_and_hold_the_truth() {
        let w = web();
        for p in &w.truth.pages {
            let (h, path) = path_of(&p.url);
            let r = w.get(&h, &path).unwrap();
            let enc = match p.encoding.as_str() {
                "gbk" => encoding_rs::GBK,
                "big5" => encoding_rs::BIG5,
                _ => encoding_rs::UTF_8,
            };
            let (text, _, errors) = enc.decode(&r.body);
            assert!(!errors, "{} does not decode as {}", p.url, p.encoding);
            if p.encoding != "utf-8" {
                assert!(
                    std::str::from_utf8(&r.body).is_err(),
                    "{} is UTF-8, not {}",
                    p.url,
                    p.encoding
                );
            }
            let ct = r.content_type.as_deref().unwrap();
            let in_header = ct.contains("charset");
            let head = text.split("</head>").next().unwrap_or_default();
            let in_meta = head.to_ascii_lowercase().contains("charset");
            let want = match p.charset_declared {
                Declared::Both => (true, true),
                Declared::Header => (true, false),
                Declared::Meta => (false, true),
                Declared::None => (false, false),
            };
            assert_eq!((in_header, in_meta), want, "{}", p.url);
            for para in p.body.lines() {
                let escaped = super::html::esc(para);
                assert!(
                    text.contains(&escaped),
                    "{}: body line missing: {para}",
                    p.url
                );
            }
            assert!(
                text.contains(&super::html::esc(&p.title)),
                "{}: title",
                p.url
            );
        }
    }

    #[test]
    fn mirror_is_byte_identical_and_the_updated_edition_differs_where_it_says() {
        let (w, c) = (web(), SampleWeb::build(8123, true).unwrap());
        for r in w.truth.relations.iter().filter(|r| r.kind == "mirror") {
            let (ha, pa) = path_of(&r.a);
            let (hb, pb) = path_of(&r.b);
            assert_eq!(w.get(&ha, &pa).unwrap().body, w.get(&hb, &pb).unwrap().body);
        }
        let changed: HashSet<&str> = c.truth.changed.iter().map(String::as_str).collect();
        assert!(changed.len() >= 8);
        for (a, b) in w.truth.pages.iter().zip(&c.truth.pages) {
            assert_eq!(a.url, b.url);
            let (h, p) = path_of(&a.url);
            let differs = w.get(&h, &p).unwrap().etag != c.get(&h, &p).unwrap().etag;
            assert_eq!(differs, changed.contains(a.url.as_str()), "{}", a.url);
            assert_eq!(
                a.body != b.body,
                changed.contains(a.url.as_str()),
                "{}",
                a.url
            );
        }
    }

    #[test]
    fn relations_hold_on_the_text() {
        let t = web().truth;
        let body = |u: &str| t.pages.iter().find(|p| p.url == u).unwrap().body.clone();
        for r in &t.relations {
            let (a, b) = (body(&r.a), body(&r.b));
            match r.kind.as_str() {
                "exact" | "mirror" => assert_eq!(a, b, "{r:?}"),
                "contains" => {
                    for line in b.lines() {
                        // A gallery caption may be a long sentence cut to 59 characters + 。
                        let line = line.trim_end_matches('。');
                        assert!(a.contains(line), "{} does not contain {line}", r.a);
                    }
                    assert!(b.len() < a.len());
                }
                "near" => {
                    // Either the same text with another headline or a different but close text.
                    assert!(!a.is_empty() && !b.is_empty());
                }
                k => panic!("unknown kind {k}"),
            }
        }
    }
}
