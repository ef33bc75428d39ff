//! What each sample site carries, and the ground truth that follows from it.
//!
//! Homes: 华夏新闻网 (portal) carries 体育 财经 文化 汽车; 新知科技 (blog) 科技 教育; 江南晨报 (GBK)
//! 健康 旅游. 文華日報 (Big5) carries traditional editions of 16 of them, 快讯网 reprints 44 —
//! exact, changed, partial or digested — and 光影图集 builds 30 galleries from them. The portal
//! has a byte-identical mirror.

use std::collections::BTreeMap;

use super::articles::{self, Article};
use super::html::{Content, Item, Link, MetaCharset};
use super::web::{
    Builder, CanonicalCase, Declared, Facts, Redirect, Relation, Resource, Rng, SEED, SampleWeb,
    by_category, fixed_time, hub_facts, item, model, publish_time, site, text_resource,
    topic_facts,
};
use crate::engine::error::Result;

mod papers;
mod portal;
mod reprints;
use papers::{build_jiangnan, build_wenhua, build_xinzhi};
use portal::{build_huaxia, mirror_huaxia};
use reprints::{build_guangying, build_kuaixun};

const HUAXIA_CATS: [&str; 4] = ["sports", "finance", "culture", "auto"];
const XINZHI_CATS: [&str; 2] = ["tech", "education"];
const JIANGNAN_CATS: [&str; 2] = ["health", "travel"];

const COMMENT_USERS: &[&str] = &[
    "江城老李",
    "清风徐来",
    "小鱼儿",
    "北漂十年",
    "晨跑达人",
    "吃瓜群众",
    "书虫",
    "老张说事",
];
const COMMENTS: &[&str] = &[
    "写得很详细，支持一下。",
    "希望后续能继续跟踪报道。",
    "数据很有说服力，学习了。",
    "我们那里也有类似的情况，深有体会。",
    "标题有点夸张，不过内容还行。",
    "转给家里人看看。",
    "这件事还得看落实情况。",
    "点赞！期待更多这样的好消息。",
];
const UPDATE_NOTES: &[&str] = &[
    "（2026年11月1日更新）记者从相关部门获悉，上述工作已进入下一阶段，后续进展本报将持续关注。",
    "（2026年11月1日更新）截至发稿时，相关方面表示将根据各方反馈进一步完善方案，具体安排另行公布。",
];

/// A hub page to lay out: where, its heading, its entries, its pager, extra link boxes, its
/// category, and when it last changed.
struct Hub {
    path: String,
    h1: String,
    items: Vec<Item>,
    pager: Vec<Link>,
    extra: Vec<(String, Vec<Link>)>,
    category: String,
    last_modified: chrono::DateTime<chrono::Utc>,
}

impl Hub {
    fn new(path: impl Into<String>, h1: impl Into<String>, items: Vec<Item>) -> Self {
        Hub {
            path: path.into(),
            h1: h1.into(),
            items,
            pager: Vec::new(),
            extra: Vec::new(),
            category: String::new(),
            last_modified: fixed_time(),
        }
    }
}

/// How a site frames its hub pages.
struct HubStyle {
    site: &'static str,
    /// Appended to the heading in `<title>`.
    title_suffix: &'static str,
    meta: Option<MetaCharset>,
    declared: Declared,
    nav: Vec<Link>,
    footer: Vec<Link>,
}

/// Lay out and register a hub page (with `sidebar` links, if any).
fn hub_page(
    b: &mut Builder,
    style: &HubStyle,
    hub: Hub,
    sidebar: &[Link],
    variant: u64,
) -> Result<()> {
    let mut m = model(
        format!("{}{}", hub.h1, style.title_suffix),
        style.meta,
        Content::Hub {
            h1: hub.h1.clone(),
            items: hub.items,
            pager: hub.pager,
            extra: hub.extra,
        },
        variant,
    );
    m.nav = style.nav.clone();
    m.sidebar = sidebar.to_vec();
    m.footer_links = style.footer.clone();
    b.page(
        style.site,
        &hub.path,
        m,
        style.declared,
        hub_facts(&hub.h1, &hub.category),
        hub.last_modified,
    )
}

/// Where an article lives on its home site.
#[derive(Clone)]
struct Placed<'a> {
    a: &'a Article,
    id: u32,
    site: &'static str,
    path: String,
}

fn comments(rng: &mut Rng) -> Vec<(String, String)> {
    let n = rng.below(4);
    (0..n)
        .map(|_| {
            (
                COMMENT_USERS[rng.below(COMMENT_USERS.len())].to_string(),
                COMMENTS[rng.below(COMMENTS.len())].to_string(),
            )
        })
        .collect()
}

fn ymd(date: &str) -> (String, String, String) {
    let p: Vec<&str> = date.split('-').collect();
    (
        p.first().copied().unwrap_or("2025").to_string(),
        p.get(1).copied().unwrap_or("01").to_string(),
        p.get(2).copied().unwrap_or("01").to_string(),
    )
}

fn home_path(site_key: &str, a: &Article, id: u32) -> String {
    let (y, m, d) = ymd(&a.date);
    match site_key {
        "huaxia" => format!("/{}/{y}-{m}/{d}/content_{id}.html", a.category_key),
        "xinzhi" => format!("/archives/{id}.html"),
        _ => format!("/html/{y}-{m}/{d}/node_{id}.htm"),
    }
}

/// Sentences of a paragraph, each ending with its full stop (CCDet's unit).
fn sentences(p: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in p.chars() {
        cur.push(c);
        if matches!(c, '。' | '！' | '？') {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// Paginate `items` into pages of `per`; `path(n)` names page n (1-based).
fn paginate<T: Clone>(
    items: &[T],
    per: usize,
    path: impl Fn(usize) -> String,
) -> Vec<(String, Vec<T>, Vec<Link>)> {
    let pages = items.len().div_ceil(per).max(1);
    (1..=pages)
        .map(|n| {
            let chunk = items[(n - 1) * per..(n * per).min(items.len())].to_vec();
            let mut pager = Vec::new();
            if pages > 1 {
                if n > 1 {
                    pager.push(Link::new(path(n - 1), "上一页"));
                }
                for k in 1..=pages {
                    if k != n {
                        pager.push(Link::new(path(k), k.to_string()));
                    }
                }
                if n < pages {
                    pager.push(Link::new(path(n + 1), "下一页"));
                }
            }
            (path(n), chunk, pager)
        })
        .collect()
}

fn footer_links(b: &Builder, except: &str) -> Vec<Link> {
    // (site, simplified name, traditional name for the Big5 site)
    [
        ("huaxia", "华夏新闻网", "華夏新聞網"),
        ("mirror", "华夏新闻网镜像站", "華夏新聞網鏡像站"),
        ("xinzhi", "新知科技", "新知科技"),
        ("jiangnan", "江南晨报", "江南晨報"),
        ("wenhua", "文华日报", "文華日報"),
        ("guangying", "光影图集", "光影圖集"),
        ("kuaixun", "快讯网", "快訊網"),
    ]
    .iter()
    .filter(|(k, _, _)| *k != except && !(except == "mirror" && *k == "huaxia"))
    .map(|(k, simp, trad)| {
        Link::new(
            b.url(k, "/"),
            if except == "wenhua" { *trad } else { *simp },
        )
    })
    .collect()
}

/// The article text of an edition: the updated one gets a closing note.
fn edition(a: &Article, changed: bool, note: usize) -> Vec<String> {
    let mut p = a.paragraphs.clone();
    if changed {
        p.push(UPDATE_NOTES[note % UPDATE_NOTES.len()].to_string());
    }
    p
}

pub(crate) fn build(port: u16, changed_edition: bool) -> Result<SampleWeb> {
    let all = articles::all()?;
    let cats = by_category(&all);
    let mut rng = Rng::new(SEED);
    let mut b = Builder::new(port, changed_edition);

    // Home placement and global ids.
    let mut placed: Vec<Placed> = Vec::new();
    let mut id = 10_000u32;
    for (cat, list) in &cats {
        let home = if HUAXIA_CATS.contains(&cat.as_str()) {
            "huaxia"
        } else if XINZHI_CATS.contains(&cat.as_str()) {
            "xinzhi"
        } else if JIANGNAN_CATS.contains(&cat.as_str()) {
            "jiangnan"
        } else {
            "huaxia"
        };
        for a in list {
            id += 1;
            placed.push(Placed {
                a,
                id,
                site: home,
                path: home_path(home, a, id),
            });
        }
    }

    // Which articles change in the updated edition: some blog and newspaper articles that no
    // other site copies (so every relation holds in both editions).
    let mut candidates: Vec<usize> = (0..placed.len())
        .filter(|&i| {
            matches!(
                placed[i].a.category_key.as_str(),
                "tech" | "education" | "health"
            )
        })
        .collect();
    rng.shuffle(&mut candidates);
    let changing: Vec<usize> = candidates.into_iter().take(8).collect();

    // What 快讯网 reprints, and how.
    let mut pool: Vec<usize> = (0..placed.len())
        .filter(|i| !changing.contains(i))
        .filter(|&i| {
            let a = placed[i].a;
            !(matches!(a.category_key.as_str(), "culture" | "travel") && a.number <= 8)
        })
        .collect();
    rng.shuffle(&mut pool);
    let kinds: Vec<&str> = std::iter::repeat_n("exact", 14)
        .chain(std::iter::repeat_n("headline", 4))
        .chain(std::iter::repeat_n("drop", 4))
        .chain(std::iter::repeat_n("note", 4))
        .chain(std::iter::repeat_n("punct", 4))
        .chain(std::iter::repeat_n("words", 4))
        .chain(std::iter::repeat_n("first-part", 5))
        .chain(std::iter::repeat_n("digest", 5))
        .collect();
    let reprints: Vec<(usize, &str)> = pool.iter().copied().zip(kinds.iter().copied()).collect();

    let url_of = |b: &Builder, p: &Placed| b.url(p.site, &p.path);

    // Hard negatives: independent reports of one event.
    let mut by_event: BTreeMap<&str, Vec<&Placed>> = BTreeMap::new();
    for p in &placed {
        by_event.entry(&p.a.event).or_default().push(p);
    }
    for group in by_event.values().filter(|g| g.len() == 2) {
        b.hard_negatives.push(Relation {
            a: url_of(&b, group[0]),
            b: url_of(&b, group[1]),
            kind: "different".into(),
            note: format!(
                "two independent reports of the same event ({})",
                group[0].a.event
            ),
        });
    }

    build_huaxia(&mut b, &mut rng, &placed, changed_edition)?;
    build_xinzhi(&mut b, &mut rng, &placed, &changing, changed_edition)?;
    build_jiangnan(&mut b, &mut rng, &placed, &changing, changed_edition)?;
    build_wenhua(&mut b, &mut rng, &placed, &all)?;
    build_guangying(&mut b, &mut rng, &placed)?;
    build_kuaixun(&mut b, &mut rng, &placed, &reprints)?;
    mirror_huaxia(&mut b)?;
    for s in super::web::SITES {
        b.raw(
            s.host,
            "/robots.txt",
            text_resource("text/plain; charset=utf-8", s.robots),
        );
    }
    for &i in &changing {
        let u = url_of(&b, &placed[i]);
        b.changed.push(u);
        if placed[i].site == "jiangnan" {
            b.changed
                .push(b.url("jiangnan", &format!("/print/node_{}.htm", placed[i].id)));
        }
    }
    Ok(b.finish())
}
