//! 新知科技 (blog, robots.txt), 江南晨报 (GBK) and 文華日報 (Big5).

use super::*;

pub(super) fn build_xinzhi(
    b: &mut Builder,
    rng: &mut Rng,
    placed: &[Placed],
    changing: &[usize],
    changed: bool,
) -> Result<()> {
    const TAGS: &[(&str, &str)] = &[
        ("ai", "人工智能"),
        ("chips", "芯片"),
        ("mobile", "移动互联网"),
        ("search", "搜索引擎"),
        ("campus", "校园"),
        ("exam", "考试"),
        ("online", "在线教育"),
        ("robot", "机器人"),
    ];
    let mine: Vec<(usize, &Placed)> = placed
        .iter()
        .enumerate()
        .filter(|(_, p)| p.site == "xinzhi")
        .collect();
    let nav = vec![
        Link::new("/", "首页"),
        Link::new("/category/tech/", "科技"),
        Link::new("/category/education/", "教育"),
        Link::new("/drafts/", "草稿箱"),
    ];
    let footer = footer_links(b, "xinzhi");
    let hot: Vec<Link> = mine
        .iter()
        .rev()
        .take(5)
        .map(|(_, p)| Link::new(p.path.clone(), p.a.title.clone()))
        .collect();
    let mut tagged: BTreeMap<&str, Vec<&Placed>> = BTreeMap::new();
    let mut tags_of: Vec<Vec<(&str, &str)>> = Vec::new();
    for (_, p) in &mine {
        let t1 = TAGS[rng.below(TAGS.len())];
        let mut t2 = TAGS[rng.below(TAGS.len())];
        if t2 == t1 {
            t2 = TAGS[(TAGS.iter().position(|t| *t == t1).unwrap_or(0) + 1) % TAGS.len()];
        }
        for t in [t1, t2] {
            tagged.entry(t.0).or_default().push(p);
        }
        tags_of.push(vec![t1, t2]);
    }
    for (k, (gi, p)) in mine.iter().enumerate() {
        let changes = changed && changing.contains(gi);
        let paragraphs = edition(p.a, changes, k);
        let mut related: Vec<Link> = (1..4)
            .map(|d| mine[(k + d) % mine.len()].1)
            .map(|q| Link::new(q.path.clone(), q.a.title.clone()))
            .collect();
        if k == 0 {
            related.push(Link::new("/archives/99999.html", "（已删除的文章）"));
            b.broken_links.push(b.url("xinzhi", "/archives/99999.html"));
        }
        let tools = tags_of[k]
            .iter()
            .map(|(slug, name)| Link::new(format!("/tag/{slug}/"), *name))
            .collect();
        let mut m = model(
            format!("{} | 新知科技", p.a.title),
            Some(MetaCharset::Short("UTF-8")),
            Content::Article {
                title: p.a.title.clone(),
                author: p.a.author.clone(),
                date: p.a.date.clone(),
                source: "新知科技".into(),
                paragraphs: paragraphs.clone(),
                figure: None,
                related,
                comments: comments(rng),
                tools,
            },
            p.id as u64,
        );
        m.nav = nav.clone();
        m.sidebar = hot.clone();
        m.footer_links = footer.clone();
        let lm = if changes {
            fixed_time()
        } else {
            publish_time(&p.a.date)
        };
        b.page(
            "xinzhi",
            &p.path,
            m,
            Declared::Both,
            topic_facts(&p.a.title, p.a, paragraphs.join("\n")),
            lm,
        )?;
    }
    let newest: Vec<&Placed> = {
        let mut v: Vec<&Placed> = mine.iter().map(|(_, p)| *p).collect();
        v.sort_by(|x, y| y.a.date.cmp(&x.a.date).then(x.id.cmp(&y.id)));
        v
    };
    let mut hubs: Vec<(String, String, Vec<&Placed>, &str)> =
        vec![("".into(), "新知科技".into(), newest.clone(), "")];
    for c in XINZHI_CATS {
        let list: Vec<&Placed> = newest
            .iter()
            .copied()
            .filter(|p| p.a.category_key == c)
            .collect();
        let name = list.first().map_or(c.to_string(), |p| p.a.category.clone());
        hubs.push((
            format!("/category/{c}"),
            format!("分类：{name}"),
            list,
            if c == "tech" { "科技" } else { "教育" },
        ));
    }
    for (slug, name) in TAGS {
        if let Some(list) = tagged.get(slug) {
            hubs.push((
                format!("/tag/{slug}"),
                format!("标签：{name}"),
                list.clone(),
                "",
            ));
        }
    }
    let style = HubStyle {
        site: "xinzhi",
        title_suffix: " | 新知科技",
        meta: Some(MetaCharset::Short("UTF-8")),
        declared: Declared::Both,
        nav: nav.clone(),
        footer: vec![],
    };
    for (base, title, list, cat) in hubs {
        let pages = paginate(&list, 8, |n| {
            if n == 1 {
                format!("{base}/")
            } else {
                format!("{base}/page/{n}/")
            }
        });
        for (n, (path, chunk, pager)) in pages.into_iter().enumerate() {
            let h1 = if n == 0 {
                title.clone()
            } else {
                format!("{title} · 第 {} 页", n + 1)
            };
            let items = chunk
                .iter()
                .map(|p| item(p.path.clone(), p.a, &p.a.title))
                .collect();
            let extra = if base.is_empty() && n == 0 {
                vec![("友情链接".to_string(), footer.clone())]
            } else {
                vec![]
            };
            let hub = Hub {
                pager,
                extra,
                category: cat.into(),
                ..Hub::new(path, h1, items)
            };
            hub_page(b, &style, hub, &hot, n as u64)?;
        }
    }
    // Drafts: served, but robots.txt disallows them.
    let drafts = [
        "AI 芯片功耗测试（未完成）",
        "关于在线课程的几点想法",
        "搜索引擎排序笔记",
    ];
    let mut links = Vec::new();
    for (k, t) in drafts.iter().enumerate() {
        let path = format!("/drafts/draft-{}.html", k + 1);
        let body = vec![
            format!("{t}：本文尚在撰写中，内容可能随时修改。"),
            "草稿内容仅供作者本人查看。".to_string(),
        ];
        let html = super::super::html::xinzhi(&model(
            format!("{t} | 草稿"),
            Some(MetaCharset::Short("UTF-8")),
            Content::Article {
                title: t.to_string(),
                author: "编辑部".into(),
                date: "2026-10-01".into(),
                source: String::new(),
                paragraphs: body,
                figure: None,
                related: vec![],
                comments: vec![],
                tools: vec![],
            },
            k as u64,
        ));
        b.raw(
            site("xinzhi").host,
            &path,
            text_resource("text/html; charset=utf-8", &html),
        );
        b.robots_disallowed.push(b.url("xinzhi", &path));
        links.push(Link::new(path, *t));
    }
    let html = super::super::html::xinzhi(&model(
        "草稿箱 | 新知科技".into(),
        Some(MetaCharset::Short("UTF-8")),
        Content::Hub {
            h1: "草稿箱".into(),
            items: vec![],
            pager: vec![],
            extra: vec![("未发布".into(), links)],
        },
        0,
    ));
    b.raw(
        site("xinzhi").host,
        "/drafts/",
        text_resource("text/html; charset=utf-8", &html),
    );
    b.robots_disallowed.push(b.url("xinzhi", "/drafts/"));
    Ok(())
}

pub(super) fn build_jiangnan(
    b: &mut Builder,
    _rng: &mut Rng,
    placed: &[Placed],
    changing: &[usize],
    changed: bool,
) -> Result<()> {
    let mine: Vec<(usize, &Placed)> = placed
        .iter()
        .enumerate()
        .filter(|(_, p)| p.site == "jiangnan")
        .collect();
    let nav = vec![
        Link::new("/", "首页"),
        Link::new("/node_health.htm", "健康"),
        Link::new("/node_travel.htm", "旅游"),
    ];
    let footer = footer_links(b, "jiangnan");
    let side: Vec<Link> = mine
        .iter()
        .take(6)
        .map(|(_, p)| Link::new(p.path.clone(), p.a.title.clone()))
        .collect();
    for (k, (gi, p)) in mine.iter().enumerate() {
        // How the charset is declared: a few pages declare it nowhere.
        let (declared, meta) = if [5, 13, 21].contains(&k) {
            (Declared::None, None)
        } else {
            match k % 4 {
                0 => (Declared::Meta, Some(MetaCharset::HttpEquiv("gb2312"))),
                1 => (Declared::Header, None),
                2 => (Declared::Both, Some(MetaCharset::Short("gbk"))),
                _ => (Declared::Both, Some(MetaCharset::HttpEquiv("gb2312"))),
            }
        };
        let changes = changed && changing.contains(gi);
        let paragraphs = edition(p.a, changes, k);
        let lm = if changes {
            fixed_time()
        } else {
            publish_time(&p.a.date)
        };
        let print = format!("/print/node_{}.htm", p.id);
        let related = mine
            .iter()
            .filter(|(_, q)| q.a.category_key == p.a.category_key && q.id != p.id)
            .take(3)
            .map(|(_, q)| Link::new(q.path.clone(), q.a.title.clone()))
            .collect();
        let article = |tools: Vec<Link>, related: Vec<Link>| Content::Article {
            title: p.a.title.clone(),
            author: p.a.author.clone(),
            date: p.a.date.clone(),
            source: format!("江南晨报 {}版", p.a.category),
            paragraphs: paragraphs.clone(),
            figure: None,
            related,
            comments: vec![],
            tools,
        };
        let mut m = model(
            format!("{} - 江南晨报", p.a.title),
            meta,
            article(
                vec![
                    Link::new(print.clone(), "打印本页"),
                    Link::new(format!("/node_{}.htm", p.a.category_key), "返回版面"),
                ],
                related,
            ),
            p.id as u64,
        );
        m.nav = nav.clone();
        m.sidebar = side.clone();
        m.footer_links = footer.clone();
        b.page(
            "jiangnan",
            &p.path,
            m,
            declared,
            topic_facts(&p.a.title, p.a, paragraphs.join("\n")),
            lm,
        )?;
        // Print version: the same text in a bare page.
        let pm = model(
            format!("{} - 打印", p.a.title),
            Some(MetaCharset::Short("gbk")),
            article(vec![], vec![]),
            0,
        );
        b.page(
            "jiangnan",
            &print,
            pm,
            Declared::Both,
            topic_facts(&p.a.title, p.a, paragraphs.join("\n")),
            lm,
        )?;
        let (u, pu) = (b.url("jiangnan", &p.path), b.url("jiangnan", &print));
        b.relate(
            &u,
            &pu,
            "exact",
            "print version of the same article on the same site",
        );
    }
    let all: Vec<&Placed> = mine.iter().map(|(_, p)| *p).collect();
    let style = HubStyle {
        site: "jiangnan",
        title_suffix: " - 江南晨报",
        meta: None,
        declared: Declared::Header,
        nav: nav.clone(),
        footer: footer.clone(),
    };
    for c in JIANGNAN_CATS {
        let list: Vec<&Placed> = all
            .iter()
            .copied()
            .filter(|p| p.a.category_key == c)
            .collect();
        let name = list.first().map_or(c.to_string(), |p| p.a.category.clone());
        for (n, (path, chunk, pager)) in paginate(&list, 6, |n| {
            if n == 1 {
                format!("/node_{c}.htm")
            } else {
                format!("/node_{c}_{n}.htm")
            }
        })
        .into_iter()
        .enumerate()
        {
            let h1 = if n == 0 {
                format!("{name}版")
            } else {
                format!("{name}版（第{}页）", n + 1)
            };
            let items = chunk
                .iter()
                .map(|p| item(p.path.clone(), p.a, &p.a.title))
                .collect();
            let hub = Hub {
                pager,
                category: name.clone(),
                ..Hub::new(path, h1, items)
            };
            hub_page(b, &style, hub, &[], n as u64)?;
        }
    }
    // The front page declares its charset in <meta> only.
    let front = HubStyle {
        meta: Some(MetaCharset::HttpEquiv("gb2312")),
        declared: Declared::Meta,
        ..style
    };
    let items = all
        .iter()
        .take(10)
        .map(|p| item(p.path.clone(), p.a, &p.a.title))
        .collect();
    hub_page(b, &front, Hub::new("/", "江南晨报 数字报", items), &side, 0)?;
    Ok(())
}

pub(super) fn build_wenhua(
    b: &mut Builder,
    rng: &mut Rng,
    placed: &[Placed],
    all: &[Article],
) -> Result<()> {
    let nav = vec![
        Link::new("/", "首頁"),
        Link::new("/culture/", "文化"),
        Link::new("/travel/", "旅遊"),
    ];
    let footer = footer_links(b, "wenhua");
    let mut mine: Vec<(String, &Article, String)> = Vec::new();
    for t in all.iter().filter(|a| a.hant) {
        let Some(src) = placed.iter().find(|p| p.a.key() == t.key()) else {
            continue;
        };
        let (y, m, d) = ymd(&t.date);
        let path = format!("/news/{y}{m}{d}/{}.html", src.id);
        let source = if src.site == "huaxia" {
            "轉載自 華夏新聞網"
        } else {
            "轉載自 江南晨報"
        };
        let mut pm = model(
            format!("{} - 文華日報", t.title),
            Some(MetaCharset::Short("big5")),
            Content::Article {
                title: t.title.clone(),
                author: t.author.clone(),
                date: t.date.clone(),
                source: source.into(),
                paragraphs: t.paragraphs.clone(),
                figure: None,
                related: vec![Link::new(format!("/{}/", t.category_key), "更多報導")],
                comments: comments(rng)
                    .into_iter()
                    .map(|_| ("讀者".to_string(), "好文，值得一讀。".to_string()))
                    .collect(),
                tools: vec![Link::new(b.url(src.site, &src.path), "簡體原文")],
            },
            src.id as u64,
        );
        pm.nav = nav.clone();
        pm.footer_links = footer.clone();
        b.page(
            "wenhua",
            &path,
            pm,
            Declared::Both,
            topic_facts(&t.title, t, t.body()),
            publish_time(&t.date),
        )?;
        let (a_url, b_url) = (b.url(src.site, &src.path), b.url("wenhua", &path));
        b.relate(
            &a_url,
            &b_url,
            "near",
            "simplified ↔ traditional (Big5 site)",
        );
        mine.push((path, t, t.category_key.clone()));
    }
    let mk = |list: Vec<&(String, &Article, String)>| -> Vec<Item> {
        list.iter()
            .map(|(p, a, _)| item(p.clone(), a, &a.title))
            .collect()
    };
    let hub = |path: &str, h1: &str, items: Vec<Item>, pager: Vec<Link>, category: &str| Hub {
        pager,
        category: category.into(),
        ..Hub::new(path, h1, items)
    };
    let style = HubStyle {
        site: "wenhua",
        title_suffix: " - 文華日報",
        meta: Some(MetaCharset::Short("big5")),
        declared: Declared::Both,
        nav: nav.clone(),
        footer: footer.clone(),
    };
    let pages = vec![
        hub(
            "/",
            "文華日報 首頁",
            mk(mine.iter().take(8).collect()),
            vec![Link::new("/list_2.html", "下一頁")],
            "",
        ),
        hub(
            "/list_2.html",
            "文華日報 新聞列表 第2頁",
            mk(mine.iter().skip(8).collect()),
            vec![Link::new("/", "上一頁")],
            "",
        ),
        hub(
            "/culture/",
            "文化",
            mk(mine.iter().filter(|x| x.2 == "culture").collect()),
            vec![],
            "文化",
        ),
        hub(
            "/travel/",
            "旅遊",
            mk(mine.iter().filter(|x| x.2 == "travel").collect()),
            vec![],
            "旅遊",
        ),
    ];
    for hub in pages {
        hub_page(b, &style, hub, &[], 0)?;
    }
    Ok(())
}
