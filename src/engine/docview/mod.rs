//! Page cleaning with the book's DocView model [L2185–L2406]: what is this page — its type, title,
//! body, abstract, keywords and related links — and why.
//!
//! The pipeline, each step explainable:
//! 1. **Encoding** ([`crate::engine::text::encoding`]): BOM → HTTP header → `<meta>` prescan →
//!    statistical guess, with the deciding step recorded.
//! 2. **Content-block tag tree** [L2216–L2237] (`tree`): container tags delimit blocks; every block
//!    counts its characters, anchor characters, links, images and weighty tags.
//! 3. **Block and page types** [L2234, L2294–L2298] (`body`): a block or region is a *hub* when
//!    its text per anchor character is below `hub_ratio`, *pic* when its text per image is below
//!    `pic_ratio`. The book measures the page's *middle region*, found there by layout; without a
//!    renderer we find it by content — the block tree region that holds the page's running text
//!    (paragraph scores in the manner of readability) — and apply the same two ratios to it.
//! 4. **Body** [L2304–L2310]: the topic blocks of the main region in depth-first order, minus
//!    link lists, navigation, ads, footers (class/id hints), the title line and by-lines. Every
//!    block carries its role and the reason for it.
//! 5. **Keywords** [L2249–L2343]: block weights from weighty tags with the emphasis factor λ
//!    propagated as √λ to the parent and its other subtrees (Fig 7-4), then formula 7-1, then
//!    the relative threshold β.
//! 6. **Title** [L2349–L2351], **abstract** [L2353–L2368] and **related links** [L2370–L2398].
//!
//! ```
//! use tianwang::engine::docview::{extract, Params, PageType};
//! let html = "<html><head><title>新闻标题_某网站</title></head><body>\
//!     <div id=nav><a href=/>首页</a> <a href=/a>新闻</a></div>\
//!     <div class=content><h1>新闻标题</h1><p>这是一篇新闻的正文，讲述了搜索引擎如何工作。\
//!     网页搜集、预处理和查询服务是搜索引擎的三个部分。</p></div></body></html>";
//! let dv = extract(html.as_bytes(), None, None, None, &Params::default()).unwrap();
//! assert_eq!(dv.page_type, PageType::Topic);
//! assert_eq!(dv.title, "新闻标题");
//! assert!(dv.body.starts_with("这是一篇新闻的正文"));
//! ```

mod body;
pub mod eval;
mod keywords;
pub mod plain;
pub mod stored;
mod stream;
mod title;
mod tokenize;
pub(crate) mod tree;
mod why;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};
use crate::engine::text::encoding;
use crate::engine::text::segment::{Method, Segmenter};
pub use why::Why;

/// The three page types of [L2191–L2193].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    Topic,
    Hub,
    #[serde(rename = "picture")]
    Pic,
}

impl PageType {
    pub fn name(self) -> &'static str {
        match self {
            PageType::Topic => "topic",
            PageType::Hub => "hub",
            PageType::Pic => "picture",
        }
    }
}

/// What a block is for, as the cleaner sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Kept: part of the body.
    Body,
    /// The page title repeated as a heading.
    Title,
    /// By-line: date, source, author, editor.
    Meta,
    Navigation,
    /// A list of links (related news, hot lists, site maps).
    LinkList,
    Ad,
    Footer,
    /// Images with little text.
    Picture,
    /// Text outside the main region, or boilerplate phrases.
    Other,
    /// No text of its own (a container).
    Container,
}

impl Role {
    pub const ALL: [Role; 10] = [
        Role::Body,
        Role::Title,
        Role::Meta,
        Role::Navigation,
        Role::LinkList,
        Role::Ad,
        Role::Footer,
        Role::Picture,
        Role::Other,
        Role::Container,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Role::Body => "body",
            Role::Title => "title",
            Role::Meta => "meta",
            Role::Navigation => "navigation",
            Role::LinkList => "linklist",
            Role::Ad => "ad",
            Role::Footer => "footer",
            Role::Picture => "picture",
            Role::Other => "other",
            Role::Container => "container",
        }
    }
}

/// How a weighty tag's influence spreads up the tree (Fig 7-4 is missing; ambiguity B-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Propagation {
    /// λ at the leaf, √λ one level out, λ^¼ the next, … (the default reading).
    Geometric,
    /// √λ at every level outwards.
    Constant,
    /// Only the leaf (λ) and one expansion (√λ).
    TwoLevel,
}

/// Which abstract to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AbstractMode {
    /// Best sentences per paragraph, by keyword weight [L2353–L2368].
    Sentences,
    /// The first `abstract_bytes` bytes of the body (Tianwang's static abstract).
    Static,
}

/// Every parameter the book names, with its default. Build with `Params::default()` and
/// [`Params::validated`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Emphasis factor λ of a heading or bold tag (other weighty tags count half as much above 1).
    /// The book gives no value [L2249]; 2.
    pub lambda: f64,
    pub propagation: Propagation,
    /// Stop propagating when a parent's weight exceeds this cap [L2257]. 16.
    pub weight_cap: f64,
    /// Keep keywords with weight > mean × β [L2338–L2343]. 1.0.
    pub beta_kw: f64,
    /// At most this many keywords (the absolute rule's α). 20.
    pub max_keywords: usize,
    /// Hub-block links are related when their anchor text's cosine similarity to the body is ≥ β
    /// [L2374–L2398]. 0.1.
    pub beta_link: f64,
    /// A block or region is a hub when its non-anchor text per anchor character is below this. 3.
    pub hub_ratio: f64,
    /// A region with ≥ 2 images is a picture page when its text per image is below this. 100.
    pub pic_ratio: f64,
    pub abstract_mode: AbstractMode,
    /// Abstract budget in GB18030 bytes (a Chinese character = 2, as in the book's 512-byte
    /// abstracts). 512.
    pub abstract_bytes: usize,
    /// Sentences taken per paragraph [L2366]. 1.
    pub sentences_per_paragraph: usize,
    /// Segmenter used for keywords and similarity.
    pub segmenter: Method,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            lambda: 2.0,
            propagation: Propagation::Geometric,
            weight_cap: 16.0,
            beta_kw: 1.0,
            max_keywords: 20,
            beta_link: 0.1,
            hub_ratio: 3.0,
            pic_ratio: 100.0,
            abstract_mode: AbstractMode::Sentences,
            abstract_bytes: 512,
            sentences_per_paragraph: 1,
            segmenter: Method::JiebaNoHmm,
        }
    }
}

impl Params {
    /// Check every value; bad input names the parameter.
    pub fn validated(self) -> Result<Params> {
        let pos = |name: &str, v: f64, min: f64, max: f64| -> Result<()> {
            if v.is_finite() && v >= min && v <= max {
                Ok(())
            } else {
                Err(EngineError::invalid(
                    name,
                    format!("must be between {min} and {max} (got {v})"),
                ))
            }
        };
        pos("lambda", self.lambda, 1.0, 100.0)?;
        pos("weight-cap", self.weight_cap, 1.0, 1e6)?;
        pos("beta-kw", self.beta_kw, 0.0, 100.0)?;
        pos("beta-link", self.beta_link, 0.0, 1.0)?;
        pos("hub-ratio", self.hub_ratio, 0.0, 1000.0)?;
        pos("pic-ratio", self.pic_ratio, 0.0, 100_000.0)?;
        if self.max_keywords == 0 || self.max_keywords > 1000 {
            return Err(EngineError::invalid(
                "max-keywords",
                "must be between 1 and 1000",
            ));
        }
        if self.abstract_bytes < 16 || self.abstract_bytes > 1 << 20 {
            return Err(EngineError::invalid(
                "abstract-bytes",
                "must be between 16 and 1048576",
            ));
        }
        if self.sentences_per_paragraph == 0 || self.sentences_per_paragraph > 100 {
            return Err(EngineError::invalid(
                "sentences-per-paragraph",
                "must be between 1 and 100",
            ));
        }
        Ok(self)
    }
}

/// The encoding decision, as shown to the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EncodingInfo {
    pub name: String,
    pub decided_by: encoding::DecidedBy,
    pub declared: Option<String>,
    /// What the decision saw ([`encoding::Note`]); serialised as one English `note`.
    #[serde(rename = "note", serialize_with = "encoding::note_english")]
    pub notes: Vec<encoding::Note>,
}

/// The figures the page type was decided from.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TypeRatios {
    /// The block at the root of the main region.
    pub region: usize,
    pub text_chars: usize,
    pub anchor_chars: usize,
    /// Anchor characters on lines that are mostly link text (inline links in sentences are
    /// text, not navigation).
    pub list_anchor_chars: usize,
    pub images: usize,
    /// Non-anchor characters per list-anchor character (no such anchor → `None`).
    pub text_per_anchor: Option<f64>,
    /// Non-anchor characters per image (no image → `None`).
    pub text_per_image: Option<f64>,
    /// Why the type was chosen, in English and as a key with arguments.
    pub reason: String,
    pub why: Why,
}

/// Where the title came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TitleSource {
    /// A heading that the `<title>` contains (the site name dropped).
    Heading,
    /// The `<title>` itself, or its longest part.
    Tag,
    /// The book's fallback: the highest-weight keyword [L2351].
    Keyword,
    None,
}

/// A keyword with the parts of formula 7-1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Keyword {
    pub word: String,
    /// Normalised weight w_i (7-1).
    pub weight: f64,
    /// Raw count in the body.
    pub tf: usize,
    /// Σ_j BWeight_j × BTf_ij before normalisation.
    pub weighted_tf: f64,
}

/// A hyperlink and whether it relates to the body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    pub url: String,
    pub anchor: String,
    pub related: bool,
    /// The block it sits in.
    pub block: usize,
    /// Anchor-text similarity of its link group to the body; `None` when the link is inside the
    /// body (such links are related by the book's rule, but for a navigation link cut off the
    /// end of a body line, `body/edges`).
    pub similarity: Option<f64>,
}

/// The book's block type [L2234].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    Topic,
    Hub,
    Pic,
}

/// One content block, with everything the cleaner decided about it. Its reason in English
/// (`why.english()`) is rendered when it is serialized, not for every block of
/// every page cleaned (most callers never read it).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub id: usize,
    pub parent: Option<usize>,
    pub depth: usize,
    pub tag: &'static str,
    /// `#id.class` of the element.
    pub hint: String,
    /// The block's own text (not its children's), one line per `<br>` or child boundary.
    pub text: String,
    pub chars: usize,
    pub anchor_chars: usize,
    pub links: usize,
    pub images: usize,
    /// Totals over the block and its descendants.
    pub sub_chars: usize,
    pub sub_anchor_chars: usize,
    pub sub_images: usize,
    pub kind: BlockKind,
    pub role: Role,
    /// Content score of the main-region search (0 when the block has none).
    pub score: f64,
    /// λ of its own weighty tags (1 when none) and its weight after propagation.
    pub influence: f64,
    pub weight: f64,
    /// Weighty tags inside it: (tag, text, counted as important).
    pub weighty: Vec<(&'static str, String, bool)>,
    /// Why the role was given, as a key with arguments.
    pub why: Why,
    /// Inside the main region.
    pub in_region: bool,
}

/// The fields in their order, `reason` (the English of `why`) before `why`, as a derived
/// implementation with a `reason: String` field wrote them.
impl Serialize for Block {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Block", 22)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("parent", &self.parent)?;
        st.serialize_field("depth", &self.depth)?;
        st.serialize_field("tag", &self.tag)?;
        st.serialize_field("hint", &self.hint)?;
        st.serialize_field("text", &self.text)?;
        st.serialize_field("chars", &self.chars)?;
        st.serialize_field("anchor_chars", &self.anchor_chars)?;
        st.serialize_field("links", &self.links)?;
        st.serialize_field("images", &self.images)?;
        st.serialize_field("sub_chars", &self.sub_chars)?;
        st.serialize_field("sub_anchor_chars", &self.sub_anchor_chars)?;
        st.serialize_field("sub_images", &self.sub_images)?;
        st.serialize_field("kind", &self.kind)?;
        st.serialize_field("role", &self.role)?;
        st.serialize_field("score", &self.score)?;
        st.serialize_field("influence", &self.influence)?;
        st.serialize_field("weight", &self.weight)?;
        st.serialize_field("weighty", &self.weighty)?;
        st.serialize_field("reason", &self.why.english())?;
        st.serialize_field("why", &self.why)?;
        st.serialize_field("in_region", &self.in_region)?;
        st.end()
    }
}

/// The DocView of one page [L2187–L2201].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocView {
    pub url: Option<String>,
    pub encoding: EncodingInfo,
    pub page_type: PageType,
    pub type_ratios: TypeRatios,
    pub title: String,
    pub title_source: TitleSource,
    /// The `<title>` as written.
    pub raw_title: String,
    pub body: String,
    #[serde(rename = "abstract")]
    pub abstract_text: String,
    pub keywords: Vec<Keyword>,
    pub links: Vec<Link>,
    pub blocks: Vec<Block>,
    /// Roots of the main region (the best content block and the siblings that joined it).
    pub region: Vec<usize>,
    /// Characters of the decoded page and of the body (the book's ≈ 4× source/content anchor
    /// [L660] can be read off them).
    pub html_chars: usize,
}

/// Clean one page given as bytes. `url` resolves links and gives the TLD hint; `content_type`
/// is the HTTP header; `charset` overrides every other encoding clue.
pub fn extract(
    bytes: &[u8],
    url: Option<&str>,
    content_type: Option<&str>,
    charset: Option<&str>,
    params: &Params,
) -> Result<DocView> {
    extract_with(
        bytes,
        url,
        content_type,
        charset,
        params,
        Segmenter::shared(),
    )
}

/// How much of the DocView to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Everything: keywords, abstract and related links too.
    Full,
    /// Encoding, blocks, type, title and body only (what a main-text extractor gives); the
    /// keywords, abstract and links stay empty and every block weight is 1.
    Body,
}

/// [`extract`] with a given segmenter (benchmarks and tests share one).
pub(crate) fn extract_with(
    bytes: &[u8],
    url: Option<&str>,
    content_type: Option<&str>,
    charset: Option<&str>,
    params: &Params,
    seg: &Segmenter,
) -> Result<DocView> {
    extract_detail(
        bytes,
        url,
        content_type,
        charset,
        params,
        seg,
        Detail::Full,
        TreePath::Stream,
    )
}

/// [`extract_with`] at a chosen [`Detail`], the block tree built by `path`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn extract_detail(
    bytes: &[u8],
    url: Option<&str>,
    content_type: Option<&str>,
    charset: Option<&str>,
    params: &Params,
    seg: &Segmenter,
    detail: Detail,
    path: TreePath,
) -> Result<DocView> {
    let parsed = url.and_then(|u| url::Url::parse(u).ok());
    // The host is the TLD hint (encoding takes its last label).
    let host = parsed.as_ref().and_then(|u| u.host_str());
    let (decision, text) =
        encoding::decide_and_decode_cow(bytes, content_type, charset, host.map(str::as_bytes))
            .map_err(|e| EngineError::invalid("charset", e.to_string()))?;
    let info = EncodingInfo {
        name: decision.encoding.name().to_ascii_lowercase(),
        decided_by: decision.decided_by,
        declared: decision.declared_label,
        notes: decision.notes,
    };
    Ok(extract_tree(
        path.build(&text),
        &text,
        parsed.as_ref(),
        info,
        params,
        seg,
        detail,
    ))
}

/// Which parser builds the block tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TreePath {
    /// The streaming tokenizer (`stream`), the default.
    Stream,
    /// html5ever's spec tree: the reference, kept for comparison.
    Html5ever,
}

impl TreePath {
    pub(crate) fn build(self, html: &str) -> tree::PageTree {
        match self {
            TreePath::Stream => tree::build(html),
            TreePath::Html5ever => tree::build_html5ever(html),
        }
    }
}

/// The DocView of a decoded page from its block tree.
pub(crate) fn extract_tree(
    tree: tree::PageTree,
    html: &str,
    url: Option<&url::Url>,
    encoding: EncodingInfo,
    params: &Params,
    seg: &Segmenter,
    detail: Detail,
) -> DocView {
    let mut analysis = body::analyse(&tree, params);
    let kw = match detail {
        Detail::Full => keywords::analyse(&tree, &analysis, params, seg),
        Detail::Body => keywords::KeywordAnalysis::none(tree.blocks.len()),
    };
    let (title, title_source) = title::choose_title(&tree, &analysis, &kw.keywords);
    let (links, abstract_text) = match detail {
        Detail::Full => (
            keywords::links(&tree, &analysis, &kw, url, params, seg),
            keywords::abstract_text(&tree, &analysis, &kw, params),
        ),
        Detail::Body => (Vec::new(), String::new()),
    };
    // The body first: then the tree's lines, weighty texts and hints move into the blocks
    // (the keyword analysis, which borrows the tree's text, is done with by then).
    let body = analysis.body_text(&tree);
    let keywords::KeywordAnalysis {
        keywords,
        influence,
        weights,
        ..
    } = kw;
    let tree::PageTree {
        title: raw_title,
        blocks: tree_blocks,
        lines,
        weighty: tree_weighty,
        ..
    } = tree;
    // Each block's own lines and weighty tags, gathered in one pass each.
    let mut texts: Vec<Option<String>> = vec![None; tree_blocks.len()];
    for l in lines {
        match &mut texts[l.block] {
            Some(t) => {
                t.push('\n');
                t.push_str(&l.text);
            }
            slot => *slot = Some(l.text),
        }
    }
    let mut weighty: Vec<Vec<(&'static str, String, bool)>> = vec![Vec::new(); tree_blocks.len()];
    for w in tree_weighty {
        let important = !keywords::is_noise_phrase(&w.text);
        weighty[w.block].push((w.tag, w.text, important));
    }
    let reasons = std::mem::take(&mut analysis.reasons);
    let blocks = tree_blocks
        .into_iter()
        .zip(texts.into_iter().zip(weighty).zip(reasons))
        .enumerate()
        .map(|(id, (b, ((text, weighty), why)))| Block {
            id,
            parent: b.parent,
            depth: b.depth,
            tag: b.tag,
            hint: b.hint,
            text: text.unwrap_or_default(),
            chars: b.chars,
            anchor_chars: b.anchor_chars,
            links: b.links,
            images: b.images,
            sub_chars: b.sub_chars,
            sub_anchor_chars: b.sub_anchor,
            sub_images: b.sub_images,
            kind: analysis.kinds[id],
            role: analysis.roles[id],
            score: analysis.scores[id],
            influence: influence[id],
            weight: weights[id],
            weighty,
            why,
            in_region: analysis.in_region[id],
        })
        .collect();
    DocView {
        url: url.map(|u| u.to_string()),
        encoding,
        page_type: analysis.page_type,
        type_ratios: analysis.ratios,
        title,
        title_source,
        raw_title,
        body,
        abstract_text,
        keywords,
        links,
        blocks,
        region: analysis.region,
        html_chars: html.chars().count(),
    }
}

/// Where cleaning spends its time: milliseconds per page for each stage (decode, parse and
/// block tree, block analysis, keywords, title and links, abstract), single-threaded, over
/// `pages` (raw bytes). For `tianwang bench clean`.
pub(crate) fn stage_times(
    pages: &[Vec<u8>],
    params: &Params,
    path: TreePath,
) -> Vec<(&'static str, f64)> {
    use std::time::Instant;
    let seg = Segmenter::shared();
    let mut t = [0f64; 6];
    for bytes in pages {
        let t0 = Instant::now();
        let Ok((_, text)) = encoding::decide_and_decode_cow(bytes, None, None, None) else {
            continue;
        };
        let t1 = Instant::now();
        let tree = path.build(&text);
        let t2 = Instant::now();
        let a = body::analyse(&tree, params);
        let t3 = Instant::now();
        let kw = keywords::analyse(&tree, &a, params, seg);
        let t4 = Instant::now();
        let _ = title::choose_title(&tree, &a, &kw.keywords);
        let _ = keywords::links(&tree, &a, &kw, None, params, seg);
        let t5 = Instant::now();
        let _ = keywords::abstract_text(&tree, &a, &kw, params);
        let t6 = Instant::now();
        for (i, (x, y)) in [(t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6)]
            .iter()
            .enumerate()
        {
            t[i] += (*y - *x).as_secs_f64();
        }
    }
    let n = pages.len().max(1) as f64;
    [
        "decode",
        "parse + block tree",
        "blocks, region, body",
        "keywords (7-1)",
        "title + links",
        "abstract",
    ]
    .into_iter()
    .zip(t)
    .map(|(name, secs)| (name, secs * 1e3 / n))
    .collect()
}

#[cfg(test)]
mod tests;
