//! The sample web, generated deterministically from the sample articles: seven sites, every
//! page's bytes and headers, and the ground truth a perfect crawler, cleaner and deduplicator
//! would produce.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use serde::Serialize;

use super::articles::Article;
use super::html::{self, Content, Item, Link, MetaCharset, PageModel};
use crate::engine::error::{EngineError, Result};
use crate::engine::formats::index::md5_hex;

/// Fixed seed: the same web every time.
pub(crate) const SEED: u64 = 20_040_601;

pub(crate) use crate::engine::rng::Rng;

/// How a page declares its charset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Declared {
    Header,
    Meta,
    Both,
    None,
}

/// A site of the sample web.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    pub key: &'static str,
    pub host: &'static str,
    pub name: &'static str,
    /// `utf-8`, `gbk` or `big5`.
    pub encoding: &'static str,
    pub description: &'static str,
    #[serde(skip)]
    pub robots: &'static str,
}

pub(crate) const SITES: &[Site] = &[
    Site {
        key: "huaxia",
        host: "www.huaxia.localhost",
        name: "华夏新闻网",
        encoding: "utf-8",
        description: "portal: hub pages with pagination, author and archive pages, canonicalisation cases, a redirect chain, broken links",
        robots: "User-agent: *\nDisallow: /admin/\n",
    },
    Site {
        key: "mirror",
        host: "www.huaxia-mirror.localhost",
        name: "华夏新闻网（镜像）",
        encoding: "utf-8",
        description: "a byte-identical mirror of www.huaxia.localhost under another host",
        robots: "User-agent: *\nDisallow: /admin/\n",
    },
    Site {
        key: "xinzhi",
        host: "tech.xinzhi.localhost",
        name: "新知科技",
        encoding: "utf-8",
        description: "blog: tags, comments; robots.txt disallows /drafts/ and sets Crawl-delay",
        robots: "User-agent: *\nDisallow: /drafts/\nCrawl-delay: 0.2\n\nUser-agent: BadBot\nDisallow: /\n",
    },
    Site {
        key: "jiangnan",
        host: "www.jiangnan.localhost",
        name: "江南晨报",
        encoding: "gbk",
        description: "GBK newspaper: charset in <meta> only, in the HTTP header only, in both, or nowhere; print versions",
        robots: "User-agent: *\nDisallow: /cgi-bin/\n",
    },
    Site {
        key: "wenhua",
        host: "www.wenhua.localhost",
        name: "文華日報",
        encoding: "big5",
        description: "Big5 traditional-script daily carrying traditional editions of articles from other sites",
        robots: "User-agent: *\nAllow: /\n",
    },
    Site {
        key: "guangying",
        host: "pic.guangying.localhost",
        name: "光影图集",
        encoding: "utf-8",
        description: "picture pages: galleries of images with captions",
        robots: "User-agent: *\nDisallow:\n",
    },
    Site {
        key: "kuaixun",
        host: "www.kuaixun.localhost",
        name: "快讯网",
        encoding: "utf-8",
        description: "aggregator of reprints: exact copies, near-duplicates, partial copies and digests",
        robots: "User-agent: *\nDisallow: /user/\n",
    },
];

pub(crate) fn site(key: &str) -> &'static Site {
    SITES.iter().find(|s| s.key == key).unwrap_or(&SITES[0])
}

/// A served resource.
#[derive(Debug, Clone)]
pub struct Resource {
    pub status: u16,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub body: Vec<u8>,
    pub last_modified: DateTime<Utc>,
    pub etag: String,
}

impl Resource {
    fn new(status: u16, content_type: Option<String>, body: Vec<u8>, lm: DateTime<Utc>) -> Self {
        let etag = format!("\"{}\"", md5_hex(&body));
        Resource {
            status,
            content_type,
            location: None,
            body,
            last_modified: lm,
            etag,
        }
    }
}

/// One page of the ground truth.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TruthPage {
    pub url: String,
    pub site: String,
    #[serde(rename = "type")]
    pub page_type: String,
    pub category: String,
    pub title: String,
    pub author: String,
    pub date: String,
    /// The exact main text a perfect cleaner would extract (empty for hub pages).
    pub body: String,
    pub encoding: String,
    /// How the page declares its charset: header, meta, both, none.
    pub charset_declared: Declared,
    /// `<a href>` targets in document order, resolved against the page URL, without repeats.
    pub links: Vec<String>,
}

/// A known relation between two pages.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Relation {
    pub a: String,
    pub b: String,
    /// exact | near | contains | mirror (for `contains`, `a` contains `b`).
    pub kind: String,
    pub note: String,
}

/// A redirect chain as served.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Redirect {
    pub from: String,
    /// Every hop, with its status, ending at the final URL (status 200).
    pub hops: Vec<(u16, String)>,
}

/// URLs that name one page in different spellings.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CanonicalCase {
    pub variants: Vec<String>,
    pub canonical: String,
    pub note: String,
}

/// Everything known about the sample web: the document `tianwang sample truth` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Truth {
    pub seeds: Vec<String>,
    pub sites: Vec<SiteSummary>,
    pub pages: Vec<TruthPage>,
    pub relations: Vec<Relation>,
    /// Different articles on the same event (not duplicates, though alike).
    pub hard_negatives: Vec<Relation>,
    pub robots_disallowed: Vec<String>,
    /// Links that answer 404 on purpose.
    pub broken_links: Vec<String>,
    pub redirects: Vec<Redirect>,
    pub canonical_cases: Vec<CanonicalCase>,
    /// Pages whose content differs in the updated edition (`--changed`).
    pub changed: Vec<String>,
    /// True when this is the updated edition.
    pub edition_changed: bool,
}

impl Truth {
    /// How many relations of each kind (exact, near, contains, mirror).
    pub(crate) fn relation_counts(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for r in &self.relations {
            *m.entry(r.kind.clone()).or_default() += 1;
        }
        m
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SiteSummary {
    pub host: String,
    pub name: String,
    pub encoding: String,
    pub description: String,
    pub pages: usize,
    pub topic: usize,
    pub hub: usize,
    pub picture: usize,
}

/// The whole web, ready to serve.
pub struct SampleWeb {
    /// Port written into absolute URLs (80 is left out).
    pub port: u16,
    pub truth: Truth,
    resources: HashMap<(String, String), Resource>,
}

impl std::fmt::Debug for SampleWeb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SampleWeb")
            .field("port", &self.port)
            .field("resources", &self.resources.len())
            .finish()
    }
}

impl SampleWeb {
    /// The resource at `host` + `path_and_query`, if any.
    pub fn get(&self, host: &str, path_and_query: &str) -> Option<&Resource> {
        self.resources
            .get(&(host.to_ascii_lowercase(), path_and_query.to_string()))
    }

    /// The resource an absolute URL of the sample web names (host, path and query; any port).
    pub fn at(&self, url: &str) -> Option<&Resource> {
        let u = url::Url::parse(url).ok()?;
        let path = match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_string(),
        };
        self.get(u.host_str()?, &path)
    }

    /// Build the web (`changed`: the updated edition of some articles).
    /// The sample web as served on port 80 (URLs without a port), built once per edition
    /// and shared: readers that only look pages up (the cleaning panel, evaluations) need not
    /// rebuild its 434 pages. Takes a lock: call it off the UI thread the first time.
    pub fn shared(changed: bool) -> Result<std::sync::Arc<SampleWeb>> {
        use std::sync::{Arc, Mutex};
        static WEBS: Mutex<[Option<Arc<SampleWeb>>; 2]> = Mutex::new([None, None]);
        let mut g = WEBS.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut g[usize::from(changed)];
        if let Some(w) = slot {
            return Ok(w.clone());
        }
        let w = Arc::new(SampleWeb::build(80, changed)?);
        *slot = Some(w.clone());
        Ok(w)
    }

    pub fn build(port: u16, changed: bool) -> Result<Self> {
        super::sites::build(port, changed)
    }
}

/// Host and path of a URL: how a stored page (crawled on any port) is matched to its truth.
pub(crate) fn page_key(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    Some(format!("{}{}", u.host_str().unwrap_or(""), u.path()))
}

/// Origin of a host at `port`.
pub fn origin(host: &str, port: u16) -> String {
    if port == 80 {
        format!("http://{host}")
    } else {
        format!("http://{host}:{port}")
    }
}

/// Builder state shared by the site generators in `build.rs`.
pub(crate) struct Builder {
    pub port: u16,
    pub changed_edition: bool,
    pub resources: HashMap<(String, String), Resource>,
    pub pages: Vec<TruthPage>,
    pub relations: Vec<Relation>,
    pub hard_negatives: Vec<Relation>,
    pub robots_disallowed: Vec<String>,
    pub broken_links: Vec<String>,
    pub redirects: Vec<Redirect>,
    pub canonical_cases: Vec<CanonicalCase>,
    pub changed: Vec<String>,
}

/// Page facts for the ground truth.
pub(crate) struct Facts<'a> {
    pub page_type: &'a str,
    pub category: &'a str,
    pub title: &'a str,
    pub author: &'a str,
    pub date: &'a str,
    pub body: String,
}

impl Builder {
    pub fn new(port: u16, changed_edition: bool) -> Self {
        Builder {
            port,
            changed_edition,
            resources: HashMap::new(),
            pages: Vec::new(),
            relations: Vec::new(),
            hard_negatives: Vec::new(),
            robots_disallowed: Vec::new(),
            broken_links: Vec::new(),
            redirects: Vec::new(),
            canonical_cases: Vec::new(),
            changed: Vec::new(),
        }
    }

    pub fn url(&self, site_key: &str, path: &str) -> String {
        format!("{}{}", origin(site(site_key).host, self.port), path)
    }

    /// Render, encode and register an HTML page, and record its ground truth.
    pub fn page(
        &mut self,
        site_key: &str,
        path: &str,
        model: PageModel,
        declared: Declared,
        facts: Facts<'_>,
        last_modified: DateTime<Utc>,
    ) -> Result<()> {
        let s = site(site_key);
        let html = match site_key {
            "huaxia" | "mirror" => html::huaxia(&model),
            "xinzhi" => html::xinzhi(&model),
            "jiangnan" => html::jiangnan(&model),
            "wenhua" => html::wenhua(&model),
            "guangying" => html::guangying(&model),
            _ => html::kuaixun(&model),
        };
        let body = encode(s.encoding, &html).map_err(|c| {
            EngineError::Internal(format!("{}{path}: {c:?} is not in {}", s.host, s.encoding))
        })?;
        let header_label = match s.encoding {
            "gbk" => "GBK",
            "big5" => "Big5",
            _ => "utf-8",
        };
        let ct = match declared {
            Declared::Header | Declared::Both => format!("text/html; charset={header_label}"),
            Declared::Meta | Declared::None => "text/html".to_string(),
        };
        let url = self.url(site_key, path);
        let links = extract_links(&html, &url);
        self.resources.insert(
            (s.host.to_string(), path.to_string()),
            Resource::new(200, Some(ct), body, last_modified),
        );
        self.pages.push(TruthPage {
            url,
            site: s.host.to_string(),
            page_type: facts.page_type.to_string(),
            category: facts.category.to_string(),
            title: facts.title.to_string(),
            author: facts.author.to_string(),
            date: facts.date.to_string(),
            body: facts.body,
            encoding: s.encoding.to_string(),
            charset_declared: declared,
            links,
        });
        Ok(())
    }

    pub(crate) fn get_resource(&self, host: &str, path: &str) -> Option<Resource> {
        self.resources
            .get(&(host.to_string(), path.to_string()))
            .cloned()
    }

    /// Register a non-page resource (robots.txt, images, redirects).
    pub fn raw(&mut self, host: &str, path: &str, res: Resource) {
        self.resources
            .insert((host.to_string(), path.to_string()), res);
    }

    pub fn redirect(&mut self, site_key: &str, path: &str, status: u16, location: &str) {
        let mut r = Resource::new(
            status,
            Some("text/html; charset=utf-8".into()),
            format!("<html><body>Moved: <a href=\"{location}\">{location}</a></body></html>")
                .into_bytes(),
            fixed_time(),
        );
        r.location = Some(location.to_string());
        self.raw(site(site_key).host, path, r);
    }

    pub(crate) fn relate(&mut self, a: &str, b: &str, kind: &str, note: &str) {
        self.relations.push(Relation {
            a: a.into(),
            b: b.into(),
            kind: kind.into(),
            note: note.into(),
        });
    }

    pub fn finish(mut self) -> SampleWeb {
        let seeds = [
            "huaxia",
            "xinzhi",
            "jiangnan",
            "wenhua",
            "guangying",
            "kuaixun",
        ]
        .iter()
        .map(|k| self.url(k, "/"))
        .collect();
        self.pages.sort_by(|a, b| a.url.cmp(&b.url));
        let mut sites = Vec::new();
        for s in SITES {
            let mine: Vec<&TruthPage> = self.pages.iter().filter(|p| p.site == s.host).collect();
            let n = |t: &str| mine.iter().filter(|p| p.page_type == t).count();
            sites.push(SiteSummary {
                host: s.host.into(),
                name: s.name.into(),
                encoding: s.encoding.into(),
                description: s.description.into(),
                pages: mine.len(),
                topic: n("topic"),
                hub: n("hub"),
                picture: n("picture"),
            });
        }
        SampleWeb {
            port: self.port,
            truth: Truth {
                seeds,
                sites,
                pages: self.pages,
                relations: self.relations,
                hard_negatives: self.hard_negatives,
                robots_disallowed: self.robots_disallowed,
                broken_links: self.broken_links,
                redirects: self.redirects,
                canonical_cases: self.canonical_cases,
                changed: self.changed,
                edition_changed: self.changed_edition,
            },
            resources: self.resources,
        }
    }
}

/// Encode `html` in `encoding`; `Err(c)` names the first character it cannot hold.
pub(crate) fn encode(encoding: &str, html: &str) -> std::result::Result<Vec<u8>, char> {
    let enc = match encoding {
        "gbk" => encoding_rs::GBK,
        "big5" => encoding_rs::BIG5,
        _ => return Ok(html.as_bytes().to_vec()),
    };
    let (bytes, _, had_errors) = enc.encode(html);
    if had_errors {
        let bad = html
            .chars()
            .find(|c| enc.encode(&c.to_string()).2)
            .unwrap_or('?');
        return Err(bad);
    }
    Ok(bytes.into_owned())
}

/// `href="…"` targets of the generated HTML, resolved, in order, without repeats.
pub(crate) fn extract_links(html: &str, base: &str) -> Vec<String> {
    let Ok(base) = url::Url::parse(base) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for (pos, _) in html.match_indices("<a href=\"") {
        let rest = &html[pos + 9..];
        let Some(end) = rest.find('"') else { continue };
        let href = rest[..end].replace("&amp;", "&");
        if let Ok(u) = base.join(&href) {
            let s = u.to_string();
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// A date `YYYY-MM-DD` at 08:00 China time, as UTC.
pub(crate) fn publish_time(date: &str) -> DateTime<Utc> {
    NaiveDate::parse_from_str(date, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| Utc.from_utc_datetime(&d))
        .unwrap_or_else(fixed_time)
}

/// When the updated edition was published, and the time of undated resources.
pub(crate) fn fixed_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0)
        .single()
        .unwrap_or_default()
}

pub(crate) fn text_resource(content_type: &str, body: &str) -> Resource {
    Resource::new(
        200,
        Some(content_type.into()),
        body.as_bytes().to_vec(),
        fixed_time(),
    )
}

/// Group articles by category key, keeping id order.
pub(crate) fn by_category(articles: &[Article]) -> BTreeMap<String, Vec<&Article>> {
    let mut m: BTreeMap<String, Vec<&Article>> = BTreeMap::new();
    for a in articles.iter().filter(|a| !a.hant) {
        m.entry(a.category_key.clone()).or_default().push(a);
    }
    m
}

/// Facts of a topic page.
pub(crate) fn topic_facts<'a>(title: &'a str, a: &'a Article, body: String) -> Facts<'a> {
    Facts {
        page_type: "topic",
        category: &a.category,
        title,
        author: &a.author,
        date: &a.date,
        body,
    }
}

pub(crate) fn hub_facts<'a>(title: &'a str, category: &'a str) -> Facts<'a> {
    Facts {
        page_type: "hub",
        category,
        title,
        author: "",
        date: "",
        body: String::new(),
    }
}

pub(crate) fn model(
    title_tag: String,
    meta: Option<MetaCharset>,
    content: Content,
    variant: u64,
) -> PageModel {
    PageModel {
        title_tag,
        meta_charset: meta,
        nav: Vec::new(),
        sidebar: Vec::new(),
        footer_links: Vec::new(),
        content,
        variant,
    }
}

pub(crate) fn item(href: String, a: &Article, title: &str) -> Item {
    let teaser: String = a.paragraphs[0].chars().take(48).collect();
    Item {
        link: Link::new(href, title),
        date: a.date.clone(),
        teaser: format!("{teaser}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_sample_web_is_built_once_per_edition() {
        let a = SampleWeb::shared(false).unwrap();
        let b = SampleWeb::shared(false).unwrap();
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        let c = SampleWeb::shared(true).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&a, &c));
        assert!(c.truth.edition_changed && !a.truth.edition_changed);
    }
}
