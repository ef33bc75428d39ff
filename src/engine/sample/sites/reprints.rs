//! 光影图集 (picture pages) and 快讯网 (reprints: exact, near, partial, digest).

use super::*;

const EDITOR_NOTES: &[&str] = &[
    "编者按：本文经授权转载，转载时略有删节，观点仅供读者参考。",
    "编者按：近期这一话题引发广泛讨论，本站特转载此文，欢迎读者留言交流。",
];
const HEADLINE_TAGS: &[&str] = &["独家｜", "关注：", "热点｜", "最新！"];
const SYNONYMS: &[(&str, &str)] = &[
    ("表示", "称"),
    ("目前", "当前"),
    ("进行", "开展"),
    ("已经", "已"),
    ("近日", "日前"),
    ("市民", "居民"),
    ("发布", "公布"),
    ("大约", "约"),
    ("今年", "本年度"),
    ("非常", "十分"),
];

fn svg(n: usize, k: usize, caption: &str) -> String {
    let hue = (n * 47 + k * 83) % 360;
    let label: String = caption.chars().take(16).collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\" viewBox=\"0 0 640 400\"><rect width=\"640\" height=\"400\" fill=\"hsl({hue},45%,55%)\"/><circle cx=\"{}\" cy=\"170\" r=\"90\" fill=\"hsl({},60%,80%)\"/><text x=\"24\" y=\"370\" font-size=\"26\" fill=\"#fff\">{}</text></svg>",
        160 + (k * 110) % 320,
        (hue + 180) % 360,
        super::super::html::esc(&label)
    )
}

pub(super) fn build_guangying(b: &mut Builder, rng: &mut Rng, placed: &[Placed]) -> Result<()> {
    let mut order: Vec<&Placed> = placed.iter().collect();
    rng.shuffle(&mut order);
    let chosen: Vec<&Placed> = order.into_iter().take(30).collect();
    let nav = vec![
        Link::new("/", "首页"),
        Link::new("/index_2.html", "更多图集"),
    ];
    let footer = footer_links(b, "guangying");
    let mut entries = Vec::new();
    for (n, p) in chosen.iter().enumerate() {
        let path = format!("/gallery/{}.html", n + 1);
        let mut sents: Vec<String> =
            p.a.paragraphs
                .iter()
                .flat_map(|x| sentences(x))
                .filter(|s| s.chars().count() >= 12)
                .collect();
        let intro = sents.first().cloned().unwrap_or_else(|| p.a.title.clone());
        sents.remove(0);
        let count = 4 + n % 3;
        let captions: Vec<String> = sents
            .into_iter()
            .take(count)
            .map(|s| {
                if s.chars().count() > 60 {
                    s.chars().take(59).collect::<String>() + "。"
                } else {
                    s
                }
            })
            .collect();
        let pictures: Vec<(String, String)> = captions
            .iter()
            .enumerate()
            .map(|(k, c)| (format!("/img/{}-{}.svg", n + 1, k + 1), c.clone()))
            .collect();
        for (k, (src, cap)) in pictures.iter().enumerate() {
            b.raw(
                site("guangying").host,
                src,
                text_resource("image/svg+xml", &svg(n, k, cap)),
            );
        }
        let next = (1..4)
            .map(|d| {
                let j = (n + d) % chosen.len();
                Link::new(
                    format!("/gallery/{}.html", j + 1),
                    format!("组图：{}", chosen[j].a.title),
                )
            })
            .collect();
        let h1 = format!("组图：{}", p.a.title);
        let mut m = model(
            format!("{h1} - 光影图集"),
            Some(MetaCharset::Short("utf-8")),
            Content::Gallery {
                h1: h1.clone(),
                date: p.a.date.clone(),
                intro: intro.clone(),
                pictures,
                next,
            },
            n as u64,
        );
        m.nav = nav.clone();
        m.footer_links = footer.clone();
        let body = std::iter::once(intro)
            .chain(captions)
            .collect::<Vec<_>>()
            .join("\n");
        // The captions are the article's first sentences: the article contains the gallery's
        // text (a near-duplicate instead when the gallery holds half the article or more, the
        // dedup lab's CLR rule).
        let kind = part_kind(p.a, &h1, &[body.as_str()]);
        let note = if kind == "contains" {
            "picture page whose captions are the article's first sentences"
        } else {
            "picture page whose captions are most of the article"
        };
        let (original, here) = (b.url(p.site, &p.path), b.url("guangying", &path));
        b.relate(&original, &here, kind, note);
        b.page(
            "guangying",
            &path,
            m,
            Declared::Both,
            Facts {
                page_type: "picture",
                category: &p.a.category,
                title: &h1,
                author: "",
                date: &p.a.date,
                body,
            },
            publish_time(&p.a.date),
        )?;
        entries.push((path, *p, h1));
    }
    let style = HubStyle {
        site: "guangying",
        title_suffix: "",
        meta: Some(MetaCharset::Short("utf-8")),
        declared: Declared::Both,
        nav,
        footer,
    };
    let pages = paginate(&entries, 10, |n| {
        if n == 1 {
            "/".into()
        } else {
            format!("/index_{n}.html")
        }
    });
    for (n, (path, chunk, pager)) in pages.into_iter().enumerate() {
        let h1 = if n == 0 {
            "光影图集 精选组图".to_string()
        } else {
            format!("光影图集 第{}页", n + 1)
        };
        let items = chunk
            .iter()
            .map(|(p, a, t)| Item {
                link: Link::new(p.clone(), t.clone()),
                date: a.a.date.clone(),
                teaser: String::new(),
            })
            .collect();
        let hub = Hub {
            pager,
            ..Hub::new(path, h1, items)
        };
        hub_page(b, &style, hub, &[], n as u64)?;
    }
    Ok(())
}

/// A partial copy of `a` is `contains` when its text (headline and body, letters and digits)
/// is less than half of the article's — the dedup lab's CLR rule with t_clr = 0.5 (CCDet
/// [001 §2.3]) — and `near` otherwise.
fn part_kind<S: AsRef<str>>(a: &Article, title: &str, body: &[S]) -> &'static str {
    let content = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).count();
    let part = content(title) + body.iter().map(|x| content(x.as_ref())).sum::<usize>();
    let whole = content(&a.title) + a.paragraphs.iter().map(|x| content(x)).sum::<usize>();
    if (part as f64) < 0.5 * whole as f64 {
        "contains"
    } else {
        "near"
    }
}

fn reprint(a: &Article, how: &str, rng: &mut Rng) -> (String, Vec<String>, &'static str, String) {
    let p = a.paragraphs.clone();
    match how {
        "exact" => (
            a.title.clone(),
            p,
            "exact",
            "reprint: same text, other template".into(),
        ),
        "headline" => (
            format!(
                "{}{}",
                HEADLINE_TAGS[rng.below(HEADLINE_TAGS.len())],
                a.title
            ),
            p,
            "near",
            "reprint with a changed headline".into(),
        ),
        "drop" => {
            let mut q = p;
            let k = (q.len() / 2).max(1);
            q.remove(k);
            (
                a.title.clone(),
                q,
                "near",
                format!("reprint with paragraph {} removed", k + 1),
            )
        }
        "note" => {
            let mut q = p;
            q.insert(0, EDITOR_NOTES[rng.below(EDITOR_NOTES.len())].to_string());
            (
                a.title.clone(),
                q,
                "near",
                "reprint with an editor's note added".into(),
            )
        }
        "punct" => {
            let q = p
                .iter()
                .map(|x| {
                    x.replace('，', ",")
                        .replace('。', ".")
                        .replace(['“', '”'], "\"")
                        .replace('：', ":")
                })
                .collect();
            (
                a.title.clone(),
                q,
                "near",
                "reprint with half-width punctuation".into(),
            )
        }
        "words" => {
            let mut q = p;
            let mut changed = 0;
            for (from, to) in SYNONYMS {
                if changed >= 3 {
                    break;
                }
                if let Some(x) = q.iter_mut().find(|x| x.contains(from)) {
                    *x = x.replacen(from, to, 1);
                    changed += 1;
                }
            }
            if let Some(last) = q.last_mut() {
                last.push_str("（完）");
            }
            (
                a.title.clone(),
                q,
                "near",
                format!("reprint with {} words changed", changed + 1),
            )
        }
        "first-part" => {
            let k = p.len().div_ceil(2);
            (
                a.title.clone(),
                p[..k].to_vec(),
                "contains",
                format!(
                    "carries only the first {k} of {} paragraphs",
                    a.paragraphs.len()
                ),
            )
        }
        _ => {
            let q = p
                .iter()
                .filter_map(|x| sentences(x).into_iter().next())
                .collect();
            (
                format!("{}（摘要）", a.title),
                q,
                "contains",
                "digest: the first sentence of every paragraph".into(),
            )
        }
    }
}

pub(super) fn build_kuaixun(
    b: &mut Builder,
    rng: &mut Rng,
    placed: &[Placed],
    reprints: &[(usize, &str)],
) -> Result<()> {
    let footer = footer_links(b, "kuaixun");
    let mut cats: Vec<(String, String)> = Vec::new();
    let mut mine: Vec<(String, &Placed, String)> = Vec::new();
    for (k, (i, how)) in reprints.iter().enumerate() {
        let p = &placed[*i];
        let (title, paragraphs, kind, mut note) = reprint(p.a, how, rng);
        let kind = if kind == "contains" {
            let k = part_kind(p.a, &title, &paragraphs);
            if k != kind {
                note.push_str(" (more than half of the article: near by the CLR rule)");
            }
            k
        } else {
            kind
        };
        let (y, m, d) = ymd(&p.a.date);
        let path = format!("/a/{y}{m}{d}/{}.html", 50_000 + k);
        if !cats.iter().any(|(c, _)| *c == p.a.category_key) {
            cats.push((p.a.category_key.clone(), p.a.category.clone()));
        }
        let original = b.url(p.site, &p.path);
        let mut tools = vec![Link::new(original.clone(), "原文链接")];
        if k == 0 {
            let gone = b.url(p.site, "/deleted/original-0.html");
            tools.push(Link::new(gone.clone(), "原始出处（已失效）"));
            b.broken_links.push(gone);
        }
        let site_name = site(p.site).name;
        let mut m = model(
            format!("{title}-快讯网"),
            Some(MetaCharset::Short("utf-8")),
            Content::Article {
                title: title.clone(),
                author: p.a.author.clone(),
                date: p.a.date.clone(),
                source: site_name.into(),
                paragraphs: paragraphs.clone(),
                figure: None,
                related: vec![],
                comments: comments(rng),
                tools,
            },
            k as u64,
        );
        m.nav = std::iter::once(Link::new("/", "首页"))
            .chain(
                HUAXIA_CATS
                    .iter()
                    .chain(XINZHI_CATS.iter())
                    .chain(JIANGNAN_CATS.iter())
                    .map(|c| Link::new(format!("/news/{c}/"), *c)),
            )
            .collect();
        m.footer_links = footer.clone();
        b.page(
            "kuaixun",
            &path,
            m,
            Declared::Both,
            topic_facts(&title, p.a, paragraphs.join("\n")),
            publish_time(&p.a.date),
        )?;
        let here = b.url("kuaixun", &path);
        b.relate(&original, &here, kind, &note);
        mine.push((path, p, title));
    }
    // Related links and rankings are filled in as a second pass, now that all paths exist.
    let ranking: Vec<Link> = mine
        .iter()
        .take(8)
        .map(|(p, _, t)| Link::new(p.clone(), t.clone()))
        .collect();
    let nav: Vec<Link> = std::iter::once(Link::new("/", "首页"))
        .chain(
            cats.iter()
                .map(|(c, n)| Link::new(format!("/news/{c}/"), n.clone())),
        )
        .collect();
    let entries = |list: Vec<&(String, &Placed, String)>| -> Vec<Item> {
        list.iter()
            .map(|(p, a, t)| item(p.clone(), a.a, t))
            .collect()
    };
    let style = HubStyle {
        site: "kuaixun",
        title_suffix: "-快讯网",
        meta: Some(MetaCharset::Short("utf-8")),
        declared: Declared::Both,
        nav,
        footer,
    };
    let older = mine
        .iter()
        .skip(15)
        .map(|(p, _, t)| Link::new(p.clone(), t.clone()))
        .collect();
    let home = Hub {
        extra: vec![("更早的新闻".to_string(), older)],
        ..Hub::new(
            "/",
            "快讯网 热点新闻聚合",
            entries(mine.iter().take(15).collect()),
        )
    };
    hub_page(b, &style, home, &ranking, 1)?;
    for (c, name) in &cats {
        let items = entries(mine.iter().filter(|x| x.1.a.category_key == *c).collect());
        let hub = Hub {
            category: name.clone(),
            ..Hub::new(format!("/news/{c}/"), format!("{name}快讯"), items)
        };
        hub_page(b, &style, hub, &ranking, 1)?;
    }
    Ok(())
}
