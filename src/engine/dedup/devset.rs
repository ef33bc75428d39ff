//! Development sets built from real Chinese text with the edits real reprints show, and a
//! synthetic generator for the million-page benchmark.
//!
//! [`build`] reads the ccwe cleaned texts and the SogouCS news sample (a data folder, see
//! `engine::data`: the sets in [`SETS`]),
//! drops exact repeats, and for a seeded share of the articles writes reprints: a changed
//! headline (转载/快讯 prefixes, （图） suffixes), full-width ↔ half-width punctuation, a dropped
//! or merged paragraph, synonym swaps and typos, an editor's note or source line, and partial
//! reprints (only the first part of an article, under half its length). Each variant carries
//! one to three edits; the truth records near pairs (closed transitively by the scorer) and
//! containments of a partial reprint in every full version. [`to_html`] wraps a document in
//! one of several site templates with navigation, a sidebar of other headlines and a footer.
//!
//! ```
//! use tianwang::engine::dedup::devset::synthetic;
//! let (docs, planted) = synthetic(1000, 10, 7);
//! assert_eq!(docs.len(), 1000);
//! assert!(planted.len() >= 10);
//! ```

use std::path::Path;

use rayon::prelude::*;

use super::Doc;
use super::eval::Truth;
use crate::engine::error::{EngineError, Result};
use crate::engine::rng::Rng;

/// A development set: documents and what is true about them.
#[derive(Debug, Clone, Default)]
pub struct DevSet {
    pub docs: Vec<Doc>,
    pub truth: Truth,
}

const PREFIXES: [&str; 5] = ["转载：", "快讯：", "【转】", "转：", "最新："];
const SUFFIXES: [&str; 4] = ["（图）", "（组图）", "(图)", "【视频】"];
const NOTES_TOP: [&str; 3] = [
    "编者按：本文转载自其他媒体，观点仅代表作者本人，不代表本站立场。",
    "【编者按】这篇报道引起了广泛关注，现全文转载，以飨读者。",
    "本文来源于网络，如有侵权请联系删除。",
];
const NOTES_END: [&str; 4] = [
    "（责任编辑：王明）",
    "来源：新华网　作者：记者李华",
    "（本文转载自人民网，原标题有改动）",
    "更多精彩内容，请关注本站微信公众号。",
];
const SYNONYMS: [(&str, &str); 16] = [
    ("表示", "指出"),
    ("但是", "不过"),
    ("目前", "当前"),
    ("已经", "已"),
    ("进行", "开展"),
    ("因为", "由于"),
    ("非常", "十分"),
    ("认为", "觉得"),
    ("今年", "本年度"),
    ("记者", "本报记者"),
    ("我们", "咱们"),
    ("这个", "该"),
    ("发现", "察觉"),
    ("需要", "须要"),
    ("可以", "能够"),
    ("问题", "难题"),
];
const WIDTH: [(char, char); 8] = [
    ('，', ','),
    ('。', '.'),
    ('：', ':'),
    ('；', ';'),
    ('！', '!'),
    ('？', '?'),
    ('（', '('),
    ('）', ')'),
];

/// The data sets [`build`] and the harder set read (`tianwang data fetch …`).
pub(crate) const SETS: [&str; 2] = ["ccwe", "sogoucs_smarty"];

/// Real articles as (headline, paragraphs): ccwe cleaned texts (first line as headline) and
/// SogouCS news (title, content cut into paragraphs of about three sentences).
pub(crate) fn real_articles(data: &Path) -> Result<Vec<(String, Vec<String>)>> {
    articles(data, 200)
}

/// [`real_articles`] with SogouCS items of at least `min_chars` characters of content.
pub(crate) fn articles(data: &Path, min_chars: usize) -> Result<Vec<(String, Vec<String>)>> {
    let mut out = Vec::new();
    let ccwe = data.join("extraction/ccwe/cleaned");
    let mut files: Vec<_> = std::fs::read_dir(&ccwe)
        .map_err(|e| EngineError::path_os(ccwe.clone(), e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| EngineError::path_os(f.clone(), e))?;
        let paras: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect();
        if paras.len() >= 3 {
            let head: String = paras[0].chars().take(24).collect();
            out.push((head, paras[1..].to_vec()));
        }
    }
    let sogou = data.join("classification/sogoucs_smarty/news_sohusite_xml.smarty.utf8.dat");
    let text =
        std::fs::read_to_string(&sogou).map_err(|e| EngineError::path_os(sogou.clone(), e))?;
    for doc in text.split("<doc>").skip(1) {
        let field = |tag: &str| -> String {
            let open = format!("<{tag}>");
            let close = format!("</{tag}>");
            doc.find(&open)
                .and_then(|i| {
                    doc[i + open.len()..]
                        .find(&close)
                        .map(|j| doc[i + open.len()..i + open.len() + j].to_string())
                })
                .unwrap_or_default()
        };
        let (title, content) = (field("contenttitle"), field("content"));
        if title.is_empty() || content.chars().count() < min_chars {
            continue;
        }
        let mut paras = Vec::new();
        let mut cur = String::new();
        let mut sentences = 0;
        for c in content.chars() {
            cur.push(c);
            if matches!(c, '。' | '！' | '？') {
                sentences += 1;
                if sentences == 3 {
                    paras.push(std::mem::take(&mut cur));
                    sentences = 0;
                }
            }
        }
        if !cur.trim().is_empty() {
            paras.push(cur);
        }
        if paras.len() >= 2 || (min_chars < 200 && !paras.is_empty()) {
            out.push((title, paras));
        }
    }
    // Drop articles that already overlap an earlier one (SogouCS holds a few pages built from
    // one template): more than a fifth of their 8-character substrings seen before would make
    // unlabelled pairs. This is cleaning the base set, not labelling it.
    let mut kept: Vec<(String, Vec<String>)> = Vec::new();
    let mut grams: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (h, p) in out {
        let cs = super::features::normalise(&p.join(""));
        let own: std::collections::HashSet<u64> =
            cs.windows(8).map(super::features::hash_chars).collect();
        let seen = own.iter().filter(|g| grams.contains_key(g)).count();
        if own.is_empty() || seen * 5 > own.len() {
            continue;
        }
        for g in own {
            grams.insert(g, kept.len());
        }
        kept.push((h, p));
    }
    Ok(kept)
}

pub(crate) fn body_of(paras: &[String]) -> String {
    paras.join("\n\n")
}

/// Apply one named edit; returns its name.
pub(crate) fn edit(
    rng: &mut Rng,
    head: &mut String,
    paras: &mut Vec<String>,
    op: usize,
) -> &'static str {
    match op {
        0 => {
            if rng.below(2) == 0 {
                head.insert_str(0, PREFIXES[rng.below(PREFIXES.len())]);
            } else {
                head.push_str(SUFFIXES[rng.below(SUFFIXES.len())]);
            }
            "headline"
        }
        1 => {
            let to_half = rng.below(2) == 0;
            for p in paras.iter_mut() {
                *p = p
                    .chars()
                    .map(|c| {
                        WIDTH
                            .iter()
                            .find_map(|&(f, h)| {
                                if to_half && c == f {
                                    Some(h)
                                } else if !to_half && c == h {
                                    Some(f)
                                } else {
                                    None
                                }
                            })
                            .unwrap_or(c)
                    })
                    .collect();
            }
            "width"
        }
        2 if paras.len() >= 4 => {
            let i = 1 + rng.below(paras.len() - 1);
            // Drop a short-ish paragraph: never more than a fifth of the text.
            let total: usize = paras.iter().map(|p| p.chars().count()).sum();
            if paras[i].chars().count() * 5 <= total {
                paras.remove(i);
                return "drop";
            }
            "none"
        }
        3 if paras.len() >= 2 => {
            let i = rng.below(paras.len() - 1);
            let next = paras.remove(i + 1);
            paras[i].push_str(&next);
            "merge"
        }
        4 => {
            let mut swaps = 0;
            for _ in 0..4 {
                let (a, b) = SYNONYMS[rng.below(SYNONYMS.len())];
                let i = rng.below(paras.len());
                if paras[i].contains(a) {
                    paras[i] = paras[i].replacen(a, b, 1);
                    swaps += 1;
                }
            }
            // Typos: a couple of characters replaced by others.
            for _ in 0..2 {
                let i = rng.below(paras.len());
                let cs: Vec<char> = paras[i].chars().collect();
                if cs.len() > 4 {
                    let j = rng.below(cs.len());
                    let mut cs = cs;
                    cs[j] = char::from_u32(0x4E00 + rng.below(2000) as u32).unwrap_or('的');
                    paras[i] = cs.into_iter().collect();
                    swaps += 1;
                }
            }
            if swaps > 0 { "synonyms" } else { "none" }
        }
        5 => {
            if rng.below(2) == 0 {
                paras.insert(0, NOTES_TOP[rng.below(NOTES_TOP.len())].to_string());
            } else {
                paras.push(NOTES_END[rng.below(NOTES_END.len())].to_string());
            }
            "note"
        }
        _ => "none",
    }
}

/// A partial reprint: the first paragraphs up to `share` of the characters (at least one).
pub(crate) fn partial(paras: &[String], share: f64) -> Vec<String> {
    let total: usize = paras.iter().map(|p| p.chars().count()).sum();
    let mut out = Vec::new();
    let mut n = 0;
    for p in paras {
        let c = p.chars().count();
        if !out.is_empty() && (n + c) as f64 > share * total as f64 {
            break;
        }
        n += c;
        out.push(p.clone());
    }
    out
}

/// The development set: every article once, plus reprints of a seeded share of them.
pub fn build(data: &Path, seed: u64) -> Result<DevSet> {
    let arts = real_articles(data)?;
    let mut rng = Rng::new(seed);
    let mut set = DevSet::default();
    for (k, (head, paras)) in arts.iter().enumerate() {
        let base = format!("a{k:03}");
        set.docs.push(Doc::new(&base, head, &body_of(paras)));
        // Two articles in three are reprinted, one to four times.
        if rng.below(3) == 0 {
            continue;
        }
        let mut fulls = vec![base.clone()];
        let mut partials = Vec::new();
        let copies = 1 + rng.below(4);
        for v in 0..copies {
            let name = format!("{base}-r{v}");
            let total: usize = paras.iter().map(|p| p.chars().count()).sum();
            if rng.below(5) == 0 && paras.len() >= 3 && total >= 300 {
                let share = 0.2 + 0.25 * (rng.below(100) as f64 / 100.0);
                let mut h = head.clone();
                let mut p = partial(paras, share);
                if rng.below(2) == 0 {
                    edit(&mut rng, &mut h, &mut p, 0);
                }
                // Under half the full text, headline included (CLR < 0.5 is containment).
                let len = |h: &str, p: &[String]| {
                    super::features::normalise(&format!("{h}{}", p.join(""))).len()
                };
                let full = len(head, paras);
                while p.len() > 1 && len(&h, &p) * 100 >= full * 48 {
                    p.pop();
                }
                if len(&h, &p) * 100 < full * 48 {
                    set.docs.push(Doc::new(&name, &h, &body_of(&p)));
                    partials.push((name, len(&h, &p)));
                    continue;
                }
            }
            let (mut h, mut p) = (head.clone(), paras.clone());
            let mut kinds = Vec::new();
            if rng.below(6) != 0 {
                for _ in 0..1 + rng.below(3) {
                    let op = rng.below(6);
                    kinds.push(edit(&mut rng, &mut h, &mut p, op));
                }
            }
            kinds.retain(|k| *k != "none");
            let kind = if kinds.is_empty() {
                "exact".to_string()
            } else {
                kinds.join("+")
            };
            set.docs.push(Doc::new(&name, &h, &body_of(&p)));
            set.truth.add(&base, &name, &kind);
            fulls.push(name);
        }
        for (i, (p, plen)) in partials.iter().enumerate() {
            for f in &fulls {
                set.truth.add(f, p, "contains");
            }
            // Two partial reprints of one article: the shorter is inside the longer.
            for (q, qlen) in &partials[..i] {
                let (long, short, ll, sl) = if plen >= qlen {
                    (p, q, plen, qlen)
                } else {
                    (q, p, qlen, plen)
                };
                let kind = if sl * 2 < *ll {
                    "contains"
                } else {
                    "near-partial"
                };
                set.truth.add(long, short, kind);
            }
        }
    }
    Ok(set)
}

/// How [`write`] puts documents on disk.
#[derive(Debug, Clone, Copy)]
pub enum Format<'t> {
    /// `NAME.txt`: headline, blank line, body.
    Text,
    /// `NAME.html` in one of three made-up site templates ([`to_html`]).
    Html,
    /// `NAME.html` in real pages of other sites ([`super::templates`]), chosen with `seed`.
    Pages(&'t [super::templates::Template], u64),
}

/// Write a set as `NAME.txt` (headline, blank line, body) or `NAME.html` (in a site template),
/// and `truth.json`.
pub fn write(set: &DevSet, dir: &Path, html: bool) -> Result<()> {
    write_as(set, dir, if html { Format::Html } else { Format::Text })
}

/// [`write`] in any [`Format`].
pub(crate) fn write_as(set: &DevSet, dir: &Path, format: Format<'_>) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| EngineError::path_os(dir, e))?;
    let heads: Vec<&str> = set.docs.iter().map(|d| d.headline.as_str()).collect();
    let files: Vec<(String, String)> = set
        .docs
        .par_iter()
        .enumerate()
        .map(|(i, d)| match format {
            Format::Text => (
                format!("{}.txt", d.name),
                format!("{}\n\n{}\n", d.headline, d.body),
            ),
            Format::Html => (format!("{}.html", d.name), to_html(d, i, &heads)),
            Format::Pages(ts, seed) => {
                let mut rng = Rng::new(super::features::mix64(seed ^ i as u64));
                let t = &ts[rng.below(ts.len().max(1)).min(ts.len().saturating_sub(1))];
                let others: Vec<(&str, &str)> = (0..5)
                    .map(|_| &set.docs[rng.below(set.docs.len())])
                    .filter(|o| o.name != d.name)
                    .map(|o| (o.headline.as_str(), o.body.as_str()))
                    .collect();
                (
                    format!("{}.html", d.name),
                    super::templates::wrap(t, d, &others, rng.next_u64()),
                )
            }
        })
        .collect();
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| EngineError::path_os(p.clone(), e))?;
    }
    let truth = serde_json::json!({
        "near": set.truth.near,
        "contains": set.truth.contains,
        "kinds": set.truth.kinds,
    });
    let p = dir.join("truth.json");
    std::fs::write(&p, serde_json::to_string_pretty(&truth).unwrap_or_default())
        .map_err(|e| EngineError::path_os(p.clone(), e))
}

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Document `i` in one of three site templates (by index), with a sidebar of other headlines.
pub(crate) fn to_html(d: &Doc, i: usize, heads: &[&str]) -> String {
    let sites = [
        ("新闻中心", "news.example.cn"),
        ("环球资讯网", "world.example.com"),
        ("都市日报", "daily.example.net"),
    ];
    let (site, host) = sites[i % sites.len()];
    let side: String = (1..=6)
        .map(|k| heads[(i * 7 + k * 13) % heads.len()])
        .map(|h| {
            format!(
                "<li><a href=\"http://{host}/n/{}.html\">{}</a></li>",
                h.len(),
                esc(h)
            )
        })
        .collect();
    let body: String = d
        .body
        .split("\n\n")
        .map(|p| format!("<p>{}</p>\n", esc(p)))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{t}_{site}</title></head><body>\n\
         <div class=\"nav\"><a href=\"/\">首页</a> | <a href=\"/guonei\">国内</a> | <a href=\"/guoji\">国际</a> | <a href=\"/shehui\">社会</a> | <a href=\"/keji\">科技</a></div>\n\
         <div class=\"main\"><h1>{t}</h1><div class=\"info\">{site}　2026-11-20 08:00</div>\n<div class=\"content\">{body}</div></div>\n\
         <div class=\"side\"><h3>热点新闻</h3><ul>{side}</ul></div>\n\
         <div class=\"foot\">关于我们 | 联系方式 | 广告服务 | 版权所有 © {site} 未经授权禁止转载。</div></body></html>\n",
        t = esc(&d.headline)
    )
}

/// `n` synthetic pages (random "words" of common Hanzi, 150–250 characters, sentences ending
/// in 。) with `planted` edited copies; returns the docs and the planted (original, copy) pairs.
/// Every page is a function of its index ([`Synthetic::doc`]), so a corpus of any size can be
/// streamed in chunks and a page regenerated on demand.
pub fn synthetic(n: usize, planted: usize, seed: u64) -> (Vec<Doc>, Vec<(usize, usize)>) {
    let spec = Synthetic::new(n, planted, seed);
    let docs = (0..n).into_par_iter().map(|i| spec.doc(i)).collect();
    (docs, spec.pairs())
}

/// The shape of a synthetic corpus: `n` pages of which the last `planted` are edited copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Synthetic {
    pub n: usize,
    pub planted: usize,
    pub seed: u64,
}

impl Synthetic {
    pub fn new(n: usize, planted: usize, seed: u64) -> Synthetic {
        Synthetic {
            n,
            planted: planted.min(n / 2),
            seed,
        }
    }

    /// Pages that are originals (indices `0..originals()`).
    pub(crate) fn originals(&self) -> usize {
        self.n - self.planted
    }

    /// Original page `i`'s text. A seed per page through a mixer: seeding with seed ^ i·φ
    /// would give page i + 1 the generator of page i shifted by one step (splitmix adds φ each
    /// step), so consecutive pages would share nearly all their text.
    fn page(&self, i: usize) -> String {
        let mut rng = Rng::new(super::features::mix64(
            self.seed ^ super::features::mix64(i as u64 + 1),
        ));
        let len = 150 + rng.below(100);
        let mut s = String::with_capacity(len * 3);
        let mut count = 0;
        while count < len {
            let w = 1 + rng.below(3);
            for _ in 0..w {
                s.push(char::from_u32(0x4E00 + rng.below(3500) as u32).unwrap_or('的'));
            }
            count += w;
            if rng.below(12) == 0 {
                s.push('。');
            }
        }
        s.push('。');
        s
    }

    fn copy_rng(&self, k: usize) -> Rng {
        Rng::new(super::features::mix64(
            self.seed ^ 0xC0FF_EE00_D00D_F00D ^ super::features::mix64(k as u64 + 1),
        ))
    }

    /// The original copy `k` was made from.
    pub(crate) fn source_of(&self, k: usize) -> usize {
        self.copy_rng(k).below(self.originals())
    }

    /// Page `i`: an original, or (for `i ≥ originals()`) copy `i − originals()` — its source
    /// with three characters replaced.
    pub fn doc(&self, i: usize) -> Doc {
        let o = self.originals();
        if i < o {
            return Doc::new(&format!("p{i:07}"), "", &self.page(i));
        }
        let k = i - o;
        let mut rng = self.copy_rng(k);
        let src = rng.below(o);
        let mut cs: Vec<char> = self.page(src).chars().collect();
        for _ in 0..3 {
            let j = rng.below(cs.len());
            cs[j] = char::from_u32(0x4E00 + rng.below(3500) as u32).unwrap_or('的');
        }
        Doc::new(
            &format!("q{k:07}"),
            "转载",
            &cs.into_iter().collect::<String>(),
        )
    }

    /// The planted (original, copy) pairs.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let o = self.originals();
        (0..self.planted)
            .map(|k| (self.source_of(k), o + k))
            .collect()
    }
}
