//! The query service (book ch. 5 [L1649–L1787]): a [`Searcher`] holds an open index and what
//! ranking needs besides postings (WL per document, click weights), and answers a query with
//! a page of ranked hits, each with its dynamic abstract (Fig 5-3) and its score explained.
//!
//! ```no_run
//! use tianwang::engine::index::search::{Searcher, SearchOptions};
//! use tianwang::engine::index::score::RankConfig;
//! let s = Searcher::open("titles.index".as_ref()).unwrap();
//! let r = s.search("考研 英语", &RankConfig::default(), &SearchOptions::default()).unwrap();
//! for h in &r.hits {
//!     println!("{:.3} {} {}", h.score, h.doc, h.title);
//! }
//! ```

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::clicks::Clicks;
use super::fold::Folding;
use super::query::{self, Matched, Op, Query, RetrievalStats};
use super::reader::Index;
use super::score::{self, AndOp, Combine, DsMode, Explain, Model, Part, RankConfig, Vsm, WlSource};
use super::snippet::{self, AbstractConfig};
use crate::engine::error::{EngineError, Result};

/// What to return besides the ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// Results per page (the book's 10 [L706]).
    pub top: usize,
    /// 0-based page.
    pub page: usize,
    pub explain: bool,
    pub abstracts: bool,
    pub abstract_config: AbstractConfig,
    /// One result per group of near-duplicates, the others under it as `similar` (when the
    /// searcher has groups: [`Searcher::set_folding`]).
    pub fold: bool,
    /// Only documents of this category ([`Searcher::set_categories`]).
    pub category: Option<String>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            top: 10,
            page: 0,
            explain: true,
            abstracts: true,
            // The book leaves open whether fragments may repeat [L1739–L1758]: merged here
            // (a result list showing one sentence three times helps nobody); the
            // book-faithful repetition is `merge_overlaps = false`.
            abstract_config: AbstractConfig {
                merge_overlaps: true,
                ..AbstractConfig::default()
            },
            fold: true,
            category: None,
        }
    }
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The document's key: TSV line number (from 1), file stem, or URL.
    pub doc: String,
    /// Internal docID.
    pub id: u32,
    /// 1-based rank.
    pub rank: usize,
    pub title: String,
    pub url: String,
    pub score: f64,
    #[serde(rename = "abstract")]
    pub abstract_text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abstract_parts: Option<snippet::Abstract>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explain>,
    /// The near-duplicates folded under this result (URLs, best-ranked first; pages of its
    /// group that are not indexed — the crawl's replicas — last).
    #[serde(default)]
    pub similar: Vec<String>,
    /// The page's category by the stored model the pipeline applied, if any.
    #[serde(default)]
    pub category: Option<String>,
}

/// A page of results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    pub query: String,
    pub terms: Vec<String>,
    pub op: Op,
    pub phrases: Vec<Vec<String>>,
    /// Results to page through (after folding and the category filter).
    pub total_hits: usize,
    /// Documents that matched the query, before folding and filtering.
    #[serde(default)]
    pub matched: usize,
    /// Matching documents folded under a better-ranked member of their group.
    #[serde(default)]
    pub folded: usize,
    pub hits: Vec<Hit>,
    pub model: String,
    pub retrieval: RetrievalStats,
    pub elapsed_ms: f64,
}

/// An open index ready to answer queries. `Sync`: one searcher serves many threads.
pub struct Searcher {
    pub index: Index,
    clicks: Option<Clicks>,
    folding: Option<Folding>,
    /// Each document's category (by docID).
    categories: Option<Vec<Option<std::sync::Arc<str>>>>,
    wl_cache: Mutex<HashMap<String, std::sync::Arc<Vec<f64>>>>,
}

impl Searcher {
    pub fn open(dir: &Path) -> Result<Searcher> {
        Ok(Searcher::new(Index::open(dir)?))
    }

    pub fn new(index: Index) -> Searcher {
        Searcher {
            index,
            clicks: None,
            folding: None,
            categories: None,
            wl_cache: Mutex::new(HashMap::new()),
        }
    }

    /// Use these click weights for WU.
    pub(crate) fn set_clicks(&mut self, clicks: Option<Clicks>) {
        self.clicks = clicks;
    }

    pub fn clicks(&self) -> Option<&Clicks> {
        self.clicks.as_ref()
    }

    /// Fold near-duplicates by these groups (`(url, group)`, the dedup lab's; None: no folding).
    pub(crate) fn set_folding(&mut self, members: Option<&[(String, i64)]>) {
        self.folding =
            members.map(|m| Folding::new(self.index.docs.iter().map(|d| d.url.as_str()), m));
    }

    pub(crate) fn folding(&self) -> Option<&Folding> {
        self.folding.as_ref()
    }

    /// Each page's category (`(url, category)`, the classifier's; None: no categories).
    pub(crate) fn set_categories(&mut self, cats: Option<&[(String, String)]>) {
        self.categories = cats.map(|c| {
            let by_url: HashMap<&str, std::sync::Arc<str>> = c
                .iter()
                .map(|(u, k)| (u.as_str(), std::sync::Arc::from(k.as_str())))
                .collect();
            self.index
                .docs
                .iter()
                .map(|d| by_url.get(d.url.as_str()).cloned())
                .collect()
        });
    }

    /// The category of document `doc`.
    pub fn category(&self, doc: u32) -> Option<&str> {
        self.categories
            .as_ref()
            .and_then(|c| c.get(doc as usize))
            .and_then(|c| c.as_deref())
    }

    /// The categories the documents carry, with how many each (for a filter).
    pub(crate) fn category_counts(&self) -> Vec<(String, usize)> {
        let mut m: std::collections::BTreeMap<&str, usize> = Default::default();
        for c in self.categories.iter().flatten().flatten() {
            *m.entry(c).or_default() += 1;
        }
        m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    /// WL(p) for every document under `cfg` (cached per WL setting).
    pub fn wl(&self, cfg: &RankConfig) -> Result<std::sync::Arc<Vec<f64>>> {
        let key = format!("{:?}/{}/{}", cfg.wl, cfg.damping, cfg.new_page_days);
        if let Some(v) = self.wl_cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(v);
        }
        let v = std::sync::Arc::new(super::linkweight::wl_vector(&self.index, cfg)?);
        if let Ok(mut c) = self.wl_cache.lock() {
            c.insert(key, v.clone());
        }
        Ok(v)
    }

    /// Parse, retrieve, rank, cut a page, make abstracts.
    pub fn search(&self, q: &str, cfg: &RankConfig, opt: &SearchOptions) -> Result<SearchResult> {
        let t0 = Instant::now();
        let query = self.parse(q, cfg)?;
        let mut r = self.search_query(&query, cfg, opt)?;
        r.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(r)
    }

    /// Segment a query the way this index was built.
    pub fn parse(&self, q: &str, cfg: &RankConfig) -> Result<Query> {
        query::parse(q, &self.index.meta.config, cfg.op)
    }

    /// [`Searcher::search`] on a query already parsed (`elapsed_ms` then leaves the
    /// segmentation out, as a peer engine's query timing does).
    pub(crate) fn search_query(
        &self,
        query: &Query,
        cfg: &RankConfig,
        opt: &SearchOptions,
    ) -> Result<SearchResult> {
        cfg.validate()?;
        if opt.top == 0 {
            return Err(EngineError::invalid("--top", "must be at least 1"));
        }
        opt.abstract_config.validate()?;
        let t0 = Instant::now();
        let q = &query.raw;
        // (A phrase's positions that do not decode name the generation's postings.bin.)
        let m =
            query::retrieve(&self.index, query).map_err(|e| e.within(&self.index.generation))?;
        let mut scored = self.score_all(query, &m, cfg)?;
        let matched = scored.len();
        if let Some(c) = &opt.category {
            scored.retain(|&(d, _)| self.category(d) == Some(c.as_str()));
        }
        let (page, total, folded) = self.page_of(scored, opt);
        let from = opt.page.saturating_mul(opt.top);
        let mut hits = Vec::with_capacity(page.len());
        for (k, (doc, score, under)) in page.into_iter().enumerate() {
            let info = &self.index.docs[doc as usize];
            let (abstract_text, abstract_parts) = if opt.abstracts {
                let text = self.index.text(doc)?;
                let a = snippet::dynamic_abstract(&text, &query.terms, &opt.abstract_config);
                (a.plain(), Some(a))
            } else {
                (String::new(), None)
            };
            hits.push(Hit {
                doc: info.key.clone(),
                id: doc,
                rank: from.saturating_add(k + 1),
                title: info.title.clone(),
                url: info.url.clone(),
                score,
                abstract_text,
                abstract_parts,
                explain: if opt.explain {
                    Some(self.explain(query, &m, doc, cfg)?)
                } else {
                    None
                },
                similar: if opt.fold {
                    self.similar(doc, &under)
                } else {
                    Vec::new()
                },
                category: self.category(doc).map(str::to_string),
            });
        }
        Ok(SearchResult {
            query: q.clone(),
            terms: query.terms.clone(),
            op: query.op,
            phrases: query.phrases.clone(),
            total_hits: total,
            matched,
            folded,
            hits,
            model: cfg.label(),
            retrieval: m.stats,
            elapsed_ms: t0.elapsed().as_secs_f64() * 1e3,
        })
    }

    /// The page `opt` asks for, best first, each result with the documents folded under it;
    /// the number of results and of documents folded.
    #[allow(clippy::type_complexity)]
    fn page_of(
        &self,
        mut scored: Vec<(u32, f64)>,
        opt: &SearchOptions,
    ) -> (Vec<(u32, f64, Vec<u32>)>, usize, usize) {
        let by_score = |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let all = scored.len();
        if let Some(f) = self.folding.as_ref().filter(|_| opt.fold) {
            // Which member leads a group depends on every member's score: sort them all.
            scored.sort_by(by_score);
            let results = f.fold(&scored);
            let total = results.len();
            let from = opt.page.saturating_mul(opt.top).min(total);
            let to = from.saturating_add(opt.top).min(total);
            let page = results.into_iter().skip(from).take(to - from).collect();
            return (page, total, all - total);
        }
        let from = opt.page.saturating_mul(opt.top).min(all);
        let to = from.saturating_add(opt.top).min(all);
        // Only the page asked for needs ordering: select the best `to`, then sort those.
        if to < all && to > 0 {
            scored.select_nth_unstable_by(to - 1, by_score);
            scored.truncate(to);
        }
        scored.sort_by(by_score);
        let page = scored[from.min(scored.len())..to.min(scored.len())]
            .iter()
            .map(|&(d, s)| (d, s, Vec::new()))
            .collect();
        (page, all, 0)
    }

    /// The URLs (or keys) of the documents folded under `doc`, then its group's pages that are
    /// not indexed.
    fn similar(&self, doc: u32, under: &[u32]) -> Vec<String> {
        let mut v: Vec<String> = under
            .iter()
            .map(|&d| {
                let info = &self.index.docs[d as usize];
                if info.url.is_empty() {
                    info.key.clone()
                } else {
                    info.url.clone()
                }
            })
            .collect();
        if let Some(f) = &self.folding {
            v.extend(f.outside(doc).iter().cloned());
        }
        v
    }

    /// Every matching document's score (unsorted).
    pub(crate) fn score_all(
        &self,
        q: &Query,
        m: &Matched,
        cfg: &RankConfig,
    ) -> Result<Vec<(u32, f64)>> {
        if cfg.model == Model::Bm25 {
            return Ok(self.bm25_all(m, cfg));
        }
        let ctx = self.context(q, cfg)?;
        let mut cursors = vec![0usize; m.lists.len()];
        Ok(m.docs
            .iter()
            .map(|&d| (d, self.score_doc(q, m, d, cfg, &ctx, &mut cursors, None)))
            .collect())
    }

    /// BM25 term at a time: each list adds its part to an accumulator per document (the same
    /// sums as [`Searcher::explain`]'s parts, without a search per document and term).
    fn bm25_all(&self, m: &Matched, cfg: &RankConfig) -> Vec<(u32, f64)> {
        let ix = &self.index;
        let n = ix.docs.len() as f64;
        let avg = ix.meta.avg_len;
        let mut acc = vec![0f64; ix.docs.len()];
        for p in m.lists.iter().flatten() {
            let df = p.docs.len() as f64;
            let idf = score::bm25_idf(n, df);
            for (&d, &tf) in p.docs.iter().zip(&p.tfs) {
                let dl = f64::from(ix.docs[d as usize].len);
                let tf = f64::from(tf);
                acc[d as usize] +=
                    idf * tf * (cfg.k1 + 1.0) / (tf + cfg.k1 * (1.0 - cfg.b + cfg.b * dl / avg));
            }
        }
        m.docs.iter().map(|&d| (d, acc[d as usize])).collect()
    }

    /// One document's score with its parts.
    pub fn explain(&self, q: &Query, m: &Matched, doc: u32, cfg: &RankConfig) -> Result<Explain> {
        let ctx = self.context(q, cfg)?;
        let mut cursors = vec![0usize; m.lists.len()];
        let mut parts = Vec::new();
        let total = self.score_doc(q, m, doc, cfg, &ctx, &mut cursors, Some(&mut parts));
        Ok(Explain {
            model: cfg.label(),
            total,
            parts,
        })
    }

    fn context(&self, q: &Query, cfg: &RankConfig) -> Result<Ctx> {
        let wl = if cfg.model == Model::Tianwang {
            Some(self.wl(cfg)?)
        } else {
            None
        };
        let wu = match (&self.clicks, cfg.model) {
            (Some(c), Model::Tianwang) => c.for_query(&q.raw),
            _ => None,
        };
        Ok(Ctx { wl, wu })
    }

    #[allow(clippy::too_many_arguments)]
    fn score_doc(
        &self,
        q: &Query,
        m: &Matched,
        doc: u32,
        cfg: &RankConfig,
        ctx: &Ctx,
        cursors: &mut [usize],
        parts: Option<&mut Vec<Part>>,
    ) -> f64 {
        let present = present_terms(q, m, doc, cursors);
        let mut parts = Parts(parts);
        match cfg.model {
            Model::Bm25 => self.bm25(&present, doc, cfg, &mut parts),
            Model::Tfidf => self.vsm(q, m, &present, doc, cfg, &mut parts),
            Model::Tianwang => self.tianwang(q, &present, doc, cfg, ctx, &mut parts),
        }
    }

    /// BM25 (not in the book, which stops at the vector space model): the sum of the terms' weights.
    fn bm25(&self, present: &[Present], doc: u32, cfg: &RankConfig, parts: &mut Parts) -> f64 {
        let ix = &self.index;
        let n = ix.docs.len() as f64;
        let (dl, avg) = (f64::from(ix.docs[doc as usize].len), ix.meta.avg_len);
        let mut s = 0.0;
        for &(t, df, tf, _) in present {
            let v = score::bm25_term(n, df, tf, dl, avg, cfg.k1, cfg.b);
            s += v;
            parts.push(|| Part {
                name: "bm25".into(),
                term: Some(t.to_string()),
                value: v,
                detail: format!(
                    "idf {:.3} (N {n}, df {df}) × tf {tf}·(k1+1) / (tf + k1·(1 − b + b·dl {dl} / avgdl {avg:.1}))",
                    score::bm25_idf(n, df)
                ),
            });
        }
        s
    }

    /// The vector space model: the dot product of the query's and the page's weights, or their
    /// cosine.
    fn vsm(
        &self,
        q: &Query,
        m: &Matched,
        present: &[Present],
        doc: u32,
        cfg: &RankConfig,
        parts: &mut Parts,
    ) -> f64 {
        let ix = &self.index;
        let n = ix.docs.len() as f64;
        let info = &ix.docs[doc as usize];
        let qlen = q.terms.len() as f64;
        let dlen = f64::from(info.len.max(1));
        let (mut dot, mut qn) = (0.0, 0.0);
        for (i, t) in q.terms.iter().enumerate() {
            let df = m.lists[i].as_ref().map_or(0.0, |p| p.docs.len() as f64);
            let idf = if df > 0.0 { (n / df).ln() } else { 0.0 };
            let wq = match cfg.vsm {
                Vsm::NormTf => 1.0 / qlen,
                Vsm::Binary => 1.0,
                Vsm::TfIdf => idf / qlen,
            };
            qn += wq * wq;
            if let Some(&(_, _, tf, _)) = present.iter().find(|p| p.0 == t) {
                let wd = match cfg.vsm {
                    Vsm::NormTf => tf / dlen,
                    Vsm::Binary => 1.0,
                    Vsm::TfIdf => tf / dlen * idf,
                };
                dot += wq * wd;
                parts.push(|| Part {
                    name: "vsm".into(),
                    term: Some(t.clone()),
                    value: wq * wd,
                    detail: format!(
                        "w_q {wq:.4} × w_d {wd:.4} (tf {tf}, len {dlen}, idf {idf:.3})"
                    ),
                });
            }
        }
        if !cfg.cosine {
            return dot;
        }
        let dn = f64::from(info.norms[cfg.vsm as usize]);
        let norm = qn.sqrt() * dn;
        let s = if norm > 0.0 { dot / norm } else { 0.0 };
        parts.push(|| Part {
            name: "cosine".into(),
            term: None,
            value: s - dot,
            detail: format!(
                "dot {dot:.4} / (|q| {:.4} × |d| {dn:.4}) = {s:.4}",
                qn.sqrt()
            ),
        });
        s
    }

    /// Tianwang's score: kB·WB + kL·WL + kU·WU (or their product), WB from each term's WBT, the
    /// page's size factor DS and IDF [L3729–L3922].
    fn tianwang(
        &self,
        q: &Query,
        present: &[Present],
        doc: u32,
        cfg: &RankConfig,
        ctx: &Ctx,
        parts: &mut Parts,
    ) -> f64 {
        let ix = &self.index;
        let n = ix.docs.len() as f64;
        let info = &ix.docs[doc as usize];
        let smax = ix.meta.max_chars.max(1) as f64;
        let s_p = f64::from(info.chars.max(1));
        let (ds, wbmax) = match cfg.ds {
            DsMode::Book => ((smax / s_p).ln(), ix.meta.wb_max_book),
            DsMode::Smooth => ((1.0 + smax / s_p).ln(), ix.meta.wb_max_smooth),
        };
        let wbmax = if wbmax > 0.0 { wbmax } else { 1.0 };
        let mut wbs = Vec::with_capacity(q.terms.len());
        for t in &q.terms {
            let found = present.iter().find(|p| p.0 == t);
            let wb = found.map_or(0.0, |&(_, df, _, wbt)| wbt * ds * (n / df).ln() / wbmax);
            wbs.push(wb);
            parts.push(|| Part {
                name: "WB(t)".into(),
                term: Some(t.clone()),
                value: wb,
                detail: found.map_or_else(
                    || "not in this page".to_string(),
                    |&(_, df, _, wbt)| {
                        format!(
                            "WBT {wbt:.1} × DS {ds:.3} × IDF {:.3} / WBmax {wbmax:.2}",
                            (n / df).ln()
                        )
                    },
                ),
            });
        }
        let (wb, op) = match (q.op, cfg.and_op) {
            (Op::Or, _) => (wbs.iter().copied().fold(0.0, f64::max), "max (OR)"),
            (Op::And, AndOp::Mean) => (
                wbs.iter().sum::<f64>() / wbs.len().max(1) as f64,
                "mean (AND)",
            ),
            (Op::And, AndOp::Min) => (
                wbs.iter().copied().fold(f64::INFINITY, f64::min),
                "min (AND)",
            ),
        };
        let wl = ctx.wl.as_ref().map_or(0.0, |v| v[doc as usize]);
        let wu = ctx
            .wu
            .as_ref()
            .and_then(|m| m.get(&doc).copied())
            .unwrap_or(0.0);
        let (total, (fb, fl, fu)) = match cfg.combine {
            Combine::Linear => (
                cfg.kb * wb + cfg.kl * wl + cfg.ku * wu,
                (cfg.kb, cfg.kl, cfg.ku),
            ),
            Combine::Product => (wb * wl * wu, (1.0, 1.0, 1.0)),
        };
        parts.push(|| Part {
            name: "WB".into(),
            term: None,
            value: fb * wb,
            detail: format!("{op} of the terms' WB = {wb:.4}, × kB {}", cfg.kb),
        });
        parts.push(|| Part {
            name: "WL".into(),
            term: None,
            value: fl * wl,
            detail: match cfg.wl {
                WlSource::Lhn => format!(
                    "WL {wl:.4} from LHN {} (raw {}) × kL {}",
                    info.lhn, info.raw_lhn, cfg.kl
                ),
                WlSource::Pagerank => format!("WL {wl:.4} = PageRank / max × kL {}", cfg.kl),
            },
        });
        parts.push(|| Part {
            name: "WU".into(),
            term: None,
            value: fu * wu,
            detail: if self.clicks.is_some() {
                format!("WU {wu:.4} from clicks × kU {}", cfg.ku)
            } else {
                "no click log loaded: WU = 0".into()
            },
        });
        total
    }
}

/// A query term found in the page: (term, df, tf, WBT).
type Present<'q> = (&'q str, f64, f64, f64);

/// The query terms in `doc`, each list's cursor moved forward to it (documents are scored in
/// ascending order, so each list is searched only from where the last one stopped).
fn present_terms<'q>(
    q: &'q Query,
    m: &Matched,
    doc: u32,
    cursors: &mut [usize],
) -> Vec<Present<'q>> {
    let mut present = Vec::with_capacity(q.terms.len());
    for (i, t) in q.terms.iter().enumerate() {
        let Some(p) = &m.lists[i] else { continue };
        let from = cursors[i];
        match p.docs[from..].binary_search(&doc) {
            Ok(k) => {
                let k = from + k;
                cursors[i] = k;
                present.push((
                    t.as_str(),
                    p.docs.len() as f64,
                    f64::from(p.tfs[k]),
                    f64::from(p.wbt[k]),
                ));
            }
            Err(k) => cursors[i] = from + k,
        }
    }
    present
}

/// Where an explained score's parts go: nowhere when ranking, a list when explaining (the
/// part's text is made only then).
struct Parts<'a>(Option<&'a mut Vec<Part>>);

impl Parts<'_> {
    fn push(&mut self, part: impl FnOnce() -> Part) {
        if let Some(v) = self.0.as_deref_mut() {
            v.push(part());
        }
    }
}

struct Ctx {
    wl: Option<std::sync::Arc<Vec<f64>>>,
    wu: Option<HashMap<u32, f64>>,
}
