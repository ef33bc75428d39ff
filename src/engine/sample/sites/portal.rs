//! 华夏新闻网 (the portal) and its byte-identical mirror.

use super::*;

pub(super) fn build_huaxia(
    b: &mut Builder,
    rng: &mut Rng,
    placed: &[Placed],
    _changed: bool,
) -> Result<()> {
    let mine: Vec<&Placed> = placed.iter().filter(|p| p.site == "huaxia").collect();
    let nav: Vec<Link> = std::iter::once(Link::new("/", "首页"))
        .chain(HUAXIA_CATS.iter().map(|c| {
            let name = mine
                .iter()
                .find(|p| p.a.category_key == *c)
                .map_or(*c, |p| p.a.category.as_str());
            Link::new(format!("/{c}/index.html"), name)
        }))
        .collect();
    let mut authors: Vec<&str> = mine.iter().map(|p| p.a.author.as_str()).collect();
    authors.sort();
    authors.dedup();
    let author_path = |name: &str| {
        format!(
            "/author/{}.html",
            authors.iter().position(|a| *a == name).unwrap_or(0) + 1
        )
    };
    let mut newest = mine.clone();
    newest.sort_by(|x, y| y.a.date.cmp(&x.a.date).then(x.id.cmp(&y.id)));
    let hot: Vec<Link> = newest
        .iter()
        .take(6)
        .map(|p| Link::new(p.path.clone(), p.a.title.clone()))
        .collect();
    let footer = footer_links(b, "huaxia");
    let style = HubStyle {
        site: "huaxia",
        title_suffix: "_华夏新闻网",
        meta: Some(MetaCharset::Short("utf-8")),
        declared: Declared::Both,
        nav: nav.clone(),
        footer: footer.clone(),
    };

    for (i, p) in mine.iter().enumerate() {
        let same: Vec<&&Placed> = mine
            .iter()
            .filter(|q| q.a.category_key == p.a.category_key && q.id != p.id)
            .collect();
        let related = (0..4)
            .map(|k| same[(i + k) % same.len()])
            .map(|q| Link::new(q.path.clone(), q.a.title.clone()))
            .collect();
        let mut m = model(
            format!("{}_{}_华夏新闻网", p.a.title, p.a.category),
            Some(MetaCharset::Short("utf-8")),
            Content::Article {
                title: p.a.title.clone(),
                author: p.a.author.clone(),
                date: p.a.date.clone(),
                source: "华夏新闻网".into(),
                paragraphs: p.a.paragraphs.clone(),
                figure: None,
                related,
                comments: comments(rng),
                tools: vec![
                    Link::new(author_path(&p.a.author), "作者专栏"),
                    Link::new(format!("/{}/index.html", p.a.category_key), "返回列表"),
                ],
            },
            p.id as u64,
        );
        m.nav = nav.clone();
        m.sidebar = hot.clone();
        m.footer_links = footer.clone();
        b.page(
            "huaxia",
            &p.path,
            m,
            Declared::Both,
            topic_facts(&p.a.title, p.a, p.a.body()),
            publish_time(&p.a.date),
        )?;
    }

    // Category hubs with pagination.
    for c in HUAXIA_CATS {
        let list: Vec<&&Placed> = newest.iter().filter(|p| p.a.category_key == c).collect();
        let cat_name = list.first().map_or(c.to_string(), |p| p.a.category.clone());
        let pages = paginate(&list, 5, |n| {
            if n == 1 {
                format!("/{c}/index.html")
            } else {
                format!("/{c}/index_{n}.html")
            }
        });
        for (n, (path, chunk, pager)) in pages.into_iter().enumerate() {
            let h1 = if n == 0 {
                format!("{cat_name}新闻")
            } else {
                format!("{cat_name}新闻 第{}页", n + 1)
            };
            let items: Vec<Item> = chunk
                .iter()
                .map(|p| item(p.path.clone(), p.a, &p.a.title))
                .collect();
            let hub = Hub {
                pager,
                category: cat_name.clone(),
                last_modified: chunk
                    .first()
                    .map_or_else(fixed_time, |p| publish_time(&p.a.date)),
                ..Hub::new(path, h1, items)
            };
            hub_page(b, &style, hub, &hot, n as u64)?;
        }
    }

    // The query-order canonicalisation case: one list page, two spellings.
    {
        let list: Vec<&&Placed> = newest
            .iter()
            .filter(|p| p.a.category_key == "sports")
            .skip(5)
            .take(5)
            .collect();
        let h1 = "体育新闻列表 第2页".to_string();
        let items: Vec<Item> = list
            .iter()
            .map(|p| item(p.path.clone(), p.a, &p.a.title))
            .collect();
        let hub = Hub {
            category: "体育".into(),
            ..Hub::new("/list?cat=sports&page=2", h1, items)
        };
        hub_page(b, &style, hub, &[], 7)?;
        if let Some(r) = b.get_resource("www.huaxia.localhost", "/list?cat=sports&page=2") {
            b.raw("www.huaxia.localhost", "/list?page=2&cat=sports", r);
        }
    }

    // Author pages.
    for (k, name) in authors.iter().enumerate() {
        let theirs: Vec<&&Placed> = newest.iter().filter(|p| p.a.author == *name).collect();
        let h1 = format!("{name}的专栏");
        let items = theirs
            .iter()
            .map(|p| item(p.path.clone(), p.a, &p.a.title))
            .collect();
        let hub = Hub::new(format!("/author/{}.html", k + 1), h1, items);
        hub_page(b, &style, hub, &[], k as u64)?;
    }

    // Monthly archives.
    let mut months: BTreeMap<String, Vec<&&Placed>> = BTreeMap::new();
    for p in &newest {
        months.entry(p.a.date[..7].to_string()).or_default().push(p);
    }
    let archive_links: Vec<Link> = months
        .keys()
        .rev()
        .map(|m| Link::new(format!("/archive/{m}.html"), format!("{m} 月")))
        .collect();
    for (k, (month, list)) in months.iter().enumerate() {
        let h1 = format!("{month} 新闻回顾");
        let items = list
            .iter()
            .map(|p| item(p.path.clone(), p.a, &p.a.title))
            .collect();
        let hub = Hub::new(format!("/archive/{month}.html"), h1, items);
        hub_page(b, &style, hub, &[], k as u64)?;
    }

    // Home: latest news, specials (a broken link, a redirect chain), canonicalisation cases.
    let headline = newest
        .first()
        .map(|p| p.path.clone())
        .unwrap_or_else(|| "/".into());
    b.redirect("huaxia", "/r/headline", 301, "/r/headline/");
    b.redirect("huaxia", "/r/headline/", 302, &headline);
    b.redirects.push(Redirect {
        from: b.url("huaxia", "/r/headline"),
        hops: vec![
            (301, b.url("huaxia", "/r/headline/")),
            (302, b.url("huaxia", &headline)),
            (200, b.url("huaxia", &headline)),
        ],
    });
    b.broken_links
        .push(b.url("huaxia", "/special/2024-review.html"));
    let upper = super::super::web::origin(
        &site("huaxia")
            .host
            .to_ascii_uppercase()
            .replace(".LOCALHOST", ".localhost"),
        b.port,
    );
    let canon = vec![
        Link::new(format!("{upper}/finance/index.html"), "财经频道"),
        Link::new("/culture/./index.html", "文化频道"),
        Link::new("/auto/index.html#latest", "汽车频道"),
        Link::new("/list?cat=sports&page=2", "体育列表第2页"),
        Link::new("/list?page=2&cat=sports", "体育列表（第2页）"),
    ];
    b.canonical_cases.extend([
        CanonicalCase {
            variants: vec![format!("{upper}/finance/index.html")],
            canonical: b.url("huaxia", "/finance/index.html"),
            note: "host case".into(),
        },
        CanonicalCase {
            variants: vec![b.url("huaxia", "/culture/./index.html")],
            canonical: b.url("huaxia", "/culture/index.html"),
            note: "dot segment".into(),
        },
        CanonicalCase {
            variants: vec![b.url("huaxia", "/auto/index.html#latest")],
            canonical: b.url("huaxia", "/auto/index.html"),
            note: "fragment".into(),
        },
        CanonicalCase {
            variants: vec![b.url("huaxia", "/list?page=2&cat=sports")],
            canonical: b.url("huaxia", "/list?cat=sports&page=2"),
            note: "query order".into(),
        },
        CanonicalCase {
            variants: vec!["http://www.huaxia.localhost:80/sports/index.html".into()],
            canonical: "http://www.huaxia.localhost/sports/index.html".into(),
            note: "default port (live only when served on port 80)".into(),
        },
    ]);
    let items: Vec<Item> = newest
        .iter()
        .take(12)
        .map(|p| item(p.path.clone(), p.a, &p.a.title))
        .collect();
    let specials = vec![
        Link::new("/r/headline", "今日头条"),
        Link::new("/special/2024-review.html", "专题：2024 年度回顾"),
    ];
    let authors_links: Vec<Link> = authors
        .iter()
        .enumerate()
        .map(|(k, n)| Link::new(format!("/author/{}.html", k + 1), *n))
        .collect();
    let mut m = model(
        "华夏新闻网_权威资讯 实时报道".into(),
        Some(MetaCharset::Short("utf-8")),
        Content::Hub {
            h1: "华夏新闻网".into(),
            items,
            pager: vec![],
            extra: vec![
                ("专题".into(), specials),
                ("频道导航".into(), canon),
                ("往期回顾".into(), archive_links),
                ("记者专栏".into(), authors_links),
            ],
        },
        0,
    );
    m.nav = nav;
    m.sidebar = hot;
    m.footer_links = footer;
    b.page(
        "huaxia",
        "/",
        m,
        Declared::Both,
        hub_facts("华夏新闻网", ""),
        fixed_time(),
    )?;
    Ok(())
}

/// The mirror: every resource of the portal, byte for byte, under another host.
pub(super) fn mirror_huaxia(b: &mut Builder) -> Result<()> {
    let from = site("huaxia").host;
    let to = site("mirror").host;
    let copies: Vec<(String, Resource)> = b
        .resources
        .iter()
        .filter(|((h, _), _)| h == from)
        .map(|((_, p), r)| (p.clone(), r.clone()))
        .collect();
    for (path, r) in copies {
        b.raw(to, &path, r);
    }
    let pages: Vec<super::super::web::TruthPage> =
        b.pages.iter().filter(|p| p.site == from).cloned().collect();
    let origin_from = super::super::web::origin(from, b.port);
    let origin_to = super::super::web::origin(to, b.port);
    let broken: Vec<String> = b
        .broken_links
        .iter()
        .filter(|u| u.starts_with(&origin_from))
        .map(|u| u.replacen(&origin_from, &origin_to, 1))
        .collect();
    b.broken_links.extend(broken);
    for p in pages {
        let mut q = p.clone();
        q.url = p.url.replacen(&origin_from, &origin_to, 1);
        q.site = to.to_string();
        // Relative links now resolve on the mirror; absolute ones stay where they point.
        let path = &p.url[origin_from.len()..];
        if let Some(r) = b.get_resource(to, path) {
            q.links = super::super::web::extract_links(&String::from_utf8_lossy(&r.body), &q.url);
        }
        b.relate(
            &p.url,
            &q.url,
            "mirror",
            "byte-identical page on the mirror host",
        );
        b.pages.push(q);
    }
    Ok(())
}
