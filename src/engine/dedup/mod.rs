//! Near-duplicate detection, every algorithm of the book's §7.2 [L2496–L2640] and of the four
//! dedup texts side by side: which documents are reprints of each other, and why.
//!
//! One pipeline with pluggable stages: a corpus of [`Doc`]s (plain text, or pages cleaned by
//! DocView — the book's Table 7-2 experiment [L2452–L2494] compares raw and cleaned input) →
//! features → fingerprints → matching → [`Pair`]s and clusters. The methods:
//!
//! | method | source | what is compared |
//! |---|---|---|
//! | `md5` | [000:L7–L8] | MD5 of the whole normalised text |
//! | `tianwang1`…`tianwang5`, `tianwang-union` | [L2514–L2559] | 512-byte abstract; top-N keywords in weight or sorted order; the SIM vector test |
//! | `segments` | Shivakumar & Garcia-Molina [L2502] | chunk signatures, M equal, by sorting triples |
//! | `imatch` | seed 002 [002:L71–L113] | IDF-top-70 % string, one of eight string hashes, a bucket table |
//! | `minhash` | Broder, seed 001 §1 | shingles, MinHash, LSH bands, exact Jaccard re-check |
//! | `simhash` | seed 004 [004:L16–L58] | 64-bit weighted SimHash, Hamming ≤ k via permuted tables |
//! | `ccdet` | seed 001 | full-stop signatures, CCS/CLR, inverted index with pruning |
//! | `best` | ours ([`best`]) | sampled character shingles, containment, CLR |
//!
//! An [`Outcome`]'s `pairs` are the pairs the method compared and passed, each with its score;
//! its `clusters` are their transitive closure (`closure = "transitive"`), for the mirror degree
//! and search folding — two members of a cluster need not have been compared. Text that
//! documents telling different stories share (a portal's disclaimer, a by-line, a page
//! template's leftovers) is [`boiler`]plate: `best` and `ccdet` ignore it by default, every
//! method with `boilerplate = on`.
//!
//! ```
//! use tianwang::engine::dedup::{run, Config, Doc, Method};
//! let body = "北京大学网络实验室开发了天网搜索引擎。它于1997年发布。今天它仍在教学中使用。";
//! let docs = vec![
//!     Doc::new("a", "天网", body),
//!     Doc::new("b", "转载：天网", body),
//!     Doc::new("c", "别的新闻", "今天的天气很好，适合出去散步。公园里的花都开了。"),
//! ];
//! let out = run(&docs, Method::Best, &Config::default(), &()).unwrap();
//! assert_eq!(out.pairs.len(), 1);
//! assert_eq!((out.pairs[0].a, out.pairs[0].b), (0, 1));
//! ```

pub mod best;
pub(crate) mod boiler;
pub mod ccdet;
pub mod config;
pub mod corpus;
pub mod devset;
pub mod eval;
pub mod features;
mod group;
pub mod hardset;
pub mod imatch;
pub mod job;
pub mod minhash;
#[cfg(feature = "bigjobs")]
pub mod on_engine;
pub mod pair;
pub mod report;
#[cfg(feature = "bigjobs")]
pub mod scale;
pub mod segments;
pub mod simhash;
pub mod stored;
pub mod strhash;
pub mod templates;
pub mod tianwang;
#[cfg(feature = "bigjobs")]
pub mod warc_pages;

use serde::{Deserialize, Serialize};

/// One document of a dedup corpus: a plain document (a text file's headline and body, or a
/// page cleaned by DocView).
pub use crate::engine::docview::plain::Doc;
pub use config::{BoilerMode, Config};
pub use features::Prepared;
pub use group::{CLOSURE, UnionFind, pairs_from_groups};

use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

/// A dedup method; [`Method::parse`] and serde use the CLI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    Best,
    Md5,
    /// Tianwang algorithm 1–5 [L2518–L2540].
    Tianwang(u8),
    TianwangUnion,
    Segments,
    IMatch,
    MinHash,
    SimHash,
    CcDet,
}

impl Method {
    /// Every method, in the comparison table's order.
    pub const ALL: [Method; 13] = [
        Method::Md5,
        Method::Tianwang(1),
        Method::Tianwang(2),
        Method::Tianwang(3),
        Method::Tianwang(4),
        Method::Tianwang(5),
        Method::TianwangUnion,
        Method::Segments,
        Method::IMatch,
        Method::MinHash,
        Method::SimHash,
        Method::CcDet,
        Method::Best,
    ];

    pub fn name(self) -> String {
        match self {
            Method::Best => "best".into(),
            Method::Md5 => "md5".into(),
            Method::Tianwang(n) => format!("tianwang{n}"),
            Method::TianwangUnion => "tianwang-union".into(),
            Method::Segments => "segments".into(),
            Method::IMatch => "imatch".into(),
            Method::MinHash => "minhash".into(),
            Method::SimHash => "simhash".into(),
            Method::CcDet => "ccdet".into(),
        }
    }

    /// The method called `name` (the CLI's `--method`).
    pub fn parse(name: &str) -> Result<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let all: Vec<String> = Method::ALL.iter().map(|m| m.name()).collect();
                EngineError::invalid("method", format!("`{name}`: one of {}", all.join(", ")))
            })
    }
}

/// What a reported pair is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The same normalised text.
    Duplicate,
    /// Near-duplicates: an edited reprint of the same content.
    Near,
    /// `a` contains `b`: `b` is mostly inside `a` and less than `t_clr` of its length.
    Contains,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Duplicate => "duplicate",
            Relation::Near => "near",
            Relation::Contains => "contains",
        }
    }
}

/// A reported pair: indices into the corpus (`a < b` except for `contains`, where `a` is the
/// container), the relation and the method's similarity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub relation: Relation,
    pub score: f64,
}

/// Where the time went (file reading excluded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub features_s: f64,
    pub signatures_s: f64,
    pub match_s: f64,
    pub total_s: f64,
}

/// One method's answer on one corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub method: String,
    pub docs: usize,
    /// The pairs the method compared and passed, with their scores (hash-group members have
    /// equal signatures; pairwise edges carry the similarity that passed), sorted.
    pub pairs: Vec<Pair>,
    /// Groups of near-duplicates (size ≥ 2; containments are pairs only), sorted: the closure
    /// of the near and duplicate pairs, for the mirror degree and search folding. Two members
    /// need not have been compared.
    pub clusters: Vec<Vec<usize>>,
    /// How the clusters were closed ([`group::CLOSURE`]: `transitive`, union-find).
    #[serde(default)]
    pub closure: String,
    pub timing: Timing,
    /// Method-specific counts (candidates checked, hash collisions, pruned postings …).
    pub stats: Vec<(String, f64)>,
}

impl Outcome {
    /// Pages that are in any reported pair (C-6's first reading).
    pub(crate) fn flagged(&self) -> usize {
        let mut in_pair = vec![false; self.docs];
        for p in &self.pairs {
            in_pair[p.a] = true;
            in_pair[p.b] = true;
        }
        in_pair.iter().filter(|&&x| x).count()
    }
}

/// What a method found before it is turned into an [`Outcome`].
#[derive(Debug, Default)]
pub struct Found {
    /// Groups whose members are all reprints of each other (exact-hash methods).
    pub groups: Vec<Vec<usize>>,
    /// Pairs found pairwise (a < b, or container first for `Contains`).
    pub pairs: Vec<Pair>,
    pub stats: Vec<(String, f64)>,
    pub signatures_s: f64,
    pub match_s: f64,
}

/// Run `method` on `docs`.
pub fn run(docs: &[Doc], method: Method, cfg: &Config, tick: &dyn Tick) -> Result<Outcome> {
    let mut prep = Prepared::new(docs, cfg);
    if cfg.ignores_boilerplate(method) && reads_only_norm(&prep, method) {
        // The run owns its corpus: once the boilerplate-free texts are built, the units they
        // were cut from are not read again.
        tick.tick(0.02, "boilerplate")?;
        if !prep.boilerplate().0.is_empty() {
            prep.stripped();
        }
        prep.release_units();
    }
    run_prepared(&prep, method, tick)
}

/// Run `method` on prepared documents (a comparison prepares once and shares the features;
/// each method is still charged the time of the features it uses).
pub fn run_prepared(prep: &Prepared, method: Method, tick: &dyn Tick) -> Result<Outcome> {
    if let Some((sub_norm, secs, stats)) = without_boilerplate(prep, method, tick)? {
        // A method that reads only the normalised texts runs on the original documents.
        let (sub_docs, extra) = if reads_only_norm(prep, method) {
            (prep.docs(), 0.0)
        } else {
            let (d, s) = prep.stripped_docs();
            (d, secs + s)
        };
        let sub = Prepared::with_norm(sub_docs, prep.config(), sub_norm, secs);
        let (found, features_s) = find(&sub, method, tick)?;
        // Charged once: the boilerplate pass (units, detection, stripping) is part of the
        // normalised texts' cost for methods that read them, and added for the others.
        let mut out = outcome_of(&sub, method, found, features_s + extra);
        out.stats.extend(stats);
        return Ok(out);
    }
    let (found, features_s) = find(prep, method, tick)?;
    Ok(outcome_of(prep, method, found, features_s))
}

/// The corpus's normalised texts without boilerplate, when `method` ignores it and there is
/// any: the view, the seconds it took and the counts for the outcome's stats.
#[allow(clippy::type_complexity)]
fn without_boilerplate<'p>(
    prep: &'p Prepared,
    method: Method,
    tick: &dyn Tick,
) -> Result<Option<(features::Norms<'p>, f64, Vec<(String, f64)>)>> {
    if !prep.config().ignores_boilerplate(method) {
        return Ok(None);
    }
    tick.tick(0.02, "boilerplate")?;
    let (bp, _) = prep.boilerplate();
    if bp.flags.is_empty() {
        return Ok(None);
    }
    let (s, _) = prep.stripped();
    let (norm, secs) = prep.stripped_norm();
    let docs_touched = s.removed_chars.iter().filter(|&&c| c > 0).count();
    let stats = vec![
        ("boilerplate_units".into(), bp.flags.len() as f64),
        ("boilerplate_blocks".into(), bp.flagged_blocks as f64),
        ("boilerplate_docs".into(), docs_touched as f64),
        (
            "boilerplate_chars".into(),
            s.removed_chars.iter().sum::<usize>() as f64,
        ),
    ];
    Ok(Some((norm, secs, stats)))
}

/// Whether the method reads nothing of a document but its normalised text (and name): its
/// features' cost then already holds the boilerplate pass, and it runs on the boilerplate-free
/// texts with the original documents. `best` ([`best::run`]), `md5`
/// ([`tianwang::md5_text`]), `minhash` on characters and `simhash` on shingles read only
/// [`Prepared::norm`]; the reporting after them ([`group::finish`]) reads it too.
fn reads_only_norm(prep: &Prepared, method: Method) -> bool {
    match method {
        Method::Best | Method::Md5 => true,
        Method::MinHash => prep.config().shingle_unit == config::Unit::Char,
        Method::SimHash => prep.config().simhash_features == config::SimFeatures::Shingles,
        _ => false,
    }
}

fn find(prep: &Prepared, method: Method, tick: &dyn Tick) -> Result<(Found, f64)> {
    Ok(match method {
        Method::Md5 => tianwang::md5_text(prep, tick)?,
        Method::Tianwang(n) => tianwang::algorithm(prep, n, tick)?,
        Method::TianwangUnion => tianwang::union(prep, tick)?,
        Method::Segments => segments::run(prep, tick)?,
        Method::IMatch => imatch::run(prep, tick)?,
        Method::MinHash => minhash::run(prep, tick)?,
        Method::SimHash => simhash::run(prep, tick)?,
        Method::CcDet => ccdet::run(prep, tick)?,
        Method::Best => best::run(prep, tick)?,
    })
}

/// The methods a plan for DataFusion and Spark exists for ([`on_engine`]).
pub(crate) const ON_ENGINES: [Method; 3] = [Method::Md5, Method::SimHash, Method::MinHash];

/// Run `method` on `prep` on the configured engine: the native code, or the method's plan on
/// DataFusion or Spark (md5, simhash and minhash; the others are the user's bad input).
pub fn run_on(
    prep: &Prepared,
    method: Method,
    engine: &crate::engine::exec::EngineConfig,
    tick: &dyn Tick,
) -> Result<Outcome> {
    use crate::engine::exec::Engine;
    if engine.engine == Engine::Native {
        return run_prepared(prep, method, tick);
    }
    engine.validate()?;
    if !ON_ENGINES.contains(&method) {
        return Err(EngineError::invalid(
            "--engine",
            format!(
                "`{}` runs on the native engine only; {} run md5, simhash and minhash",
                method.name(),
                engine.engine.name()
            ),
        ));
    }
    #[cfg(feature = "bigjobs")]
    {
        let work = crate::engine::exec::scratch::ScratchDir::new("dedup")?;
        // The same corpus as the native run reads: without its boilerplate when the method
        // ignores it (`--boilerplate on`), so the answers stay equal.
        if let Some((sub_norm, secs, stats)) = without_boilerplate(prep, method, tick)? {
            // The signatures file holds every method's columns (ccdet's and the keywords'
            // too), so the engine reads the stripped documents whatever the method.
            let (sub_docs, docs_s) = prep.stripped_docs();
            let sub = Prepared::with_norm(sub_docs, prep.config(), sub_norm, secs);
            let mut out = on_engine::run(&sub, method, engine, work.path(), tick)?;
            let extra = if reads_only_norm(&sub, method) {
                docs_s
            } else {
                secs + docs_s
            };
            out.timing.features_s += extra;
            out.timing.total_s += extra;
            out.stats.extend(stats);
            return Ok(out);
        }
        on_engine::run(prep, method, engine, work.path(), tick)
    }
    #[cfg(not(feature = "bigjobs"))]
    {
        let _ = (prep, tick);
        Err(EngineError::Internal(
            "unreachable: validate refuses".into(),
        ))
    }
}

/// What a method [`Found`] as an [`Outcome`]: clusters, pairs inside them, containments,
/// timings. Every engine's answer goes through here ([`on_engine`] too), so equal
/// findings give equal outcomes.
pub(crate) fn outcome_of(
    prep: &Prepared,
    method: Method,
    found: Found,
    features_s: f64,
) -> Outcome {
    let mut out = group::finish(prep, method, found, prep.config());
    out.timing.features_s = features_s;
    out.timing.total_s = features_s + out.timing.signatures_s + out.timing.match_s;
    out
}

/// Every pair of `a` and `b` indices sorted by name order of the corpus.
pub(crate) fn ordered(a: usize, b: usize) -> (usize, usize) {
    if a < b { (a, b) } else { (b, a) }
}

#[cfg(test)]
mod tests;
