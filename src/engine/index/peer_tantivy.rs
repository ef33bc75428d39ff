//! The search peer of `tianwang bench index --peers`: tantivy 0.27 with tantivy-jieba 0.21 builds
//! and queries the same corpus as our own index, so that its speed, size and rankings can be
//! set beside ours. Compiled only with the cargo feature `tantivy-peer` (a first build of tantivy
//! takes minutes; the default build and CI never compile it).
//!
//! # What is built
//! One index, two fields: `key` (`STRING | STORED`, the caller's document key, untokenised) and
//! `text` (indexed with frequencies and positions, not stored). `text` is analysed by
//! [`ANALYZER_NAME`], registered on the index: tantivy-jieba's `JiebaTokenizer` over the same
//! jieba-rs 0.11 as our segmenter (one copy in the build), in jieba's default (precise) mode
//! (`cut`, not `cut_for_search`), HMM off by default (STACK.md's setting for indexing; with
//! `Analyzer { hmm: true, .. }` it is the setting of Python's `jieba.lcut` that the rank_bm25
//! reference in `shared/data/references/bm25_reference.json` used), positions numbered by
//! token, whitespace-only tokens dropped, no lower-casing, no stop words. `analyze` (in tests)
//! shows the terms a text becomes; [`run_with`] takes another [`Analyzer`].
//!
//! # How a query is run
//! Not through tantivy's `QueryParser`: that one reads a query language (`:` `"` `(` `+` `-` …
//! in a title would be syntax) and, on a field with positions, turns a run of CJK characters
//! that jieba cuts into several words into a *phrase* query — "考研英语复习" would only match
//! documents with the three words side by side. Instead each query is analysed with the same
//! analyzer into terms, and every term becomes a `TermQuery` (frequencies, BM25) in a
//! `BooleanQuery` of `SHOULD` clauses: OR semantics, the score is the sum of the terms' BM25
//! scores, as rank_bm25's `get_scores` sums over the query's tokens (a term repeated in the query
//! is counted once per repeat, as there). A query with no terms matches nothing.
//!
//! Scoring is tantivy's default BM25: k1 = 1.2, b = 0.75, idf = ln(1 + (N − n + 0.5)/(n + 0.5))
//! (Lucene's, never negative, where rank_bm25's Okapi idf floors at ε·mean idf), and the
//! document length is the field's token count stored as a one-byte *fieldnorm* (exact up to 40
//! tokens, bucketed above): ranks can differ from an exact BM25 in ties and long documents.
//!
//! # What is timed
//! Indexing: from creating the `IndexWriter` through adding every document, the commit and the
//! reader's reload (after which every document is searchable); the jieba dictionary is loaded
//! before the clock starts. Each query: `Searcher::search` with a `TopDocs` collector of
//! `top` — the search and the top-k collection; analysing the query and reading the keys of
//! the hits from the doc store are outside it. Searches run on one thread (tantivy's default
//! executor). Percentiles are nearest-rank: p-th = the ⌈p·n⌉-th smallest time.
//! `index_bytes` is tantivy's own space usage of the committed segments (postings, positions,
//! term dictionary, fieldnorms, doc store, …), not counting `meta.json`.
//!
//! ```no_run
//! use tianwang::engine::index::peer_tantivy::{PeerConfig, PeerDoc, run};
//! let docs = vec![PeerDoc { key: "1".into(), text: "同步A股首秀：港股缩量回调".into() }];
//! let run = run(&docs, &["港股".to_string()], &PeerConfig::default()).unwrap();
//! assert_eq!(run.hits[0][0].0, "1");
//! println!("{:.0} docs/s, p50 {:.3} ms", run.docs_per_s, run.p50_ms);
//! ```

use std::time::Instant;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, EmptyQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TantivyDocument, TextFieldIndexing,
    TextOptions, Value,
};
use tantivy::tokenizer::{
    TextAnalyzer, Token, TokenFilter, TokenStream, Tokenizer as TantivyTokenizer,
};
use tantivy::{DocAddress, Index, IndexReader, ReloadPolicy, Searcher, TantivyError, Term};
use tantivy_jieba::JiebaTokenizer;

use crate::engine::error::{EngineError, Result};

/// The name the jieba analyzer is registered under on the index.
pub(crate) const ANALYZER_NAME: &str = "tianwang_jieba";

/// tantivy's smallest indexing memory budget per writer thread (15 MB), in MB.
pub(crate) const MIN_MEMORY_MB_PER_THREAD: usize = 15;

/// tantivy's largest number of indexing threads.
pub(crate) const MAX_THREADS: usize = 8;

/// One document of the corpus: the caller's key (returned in hits) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerDoc {
    pub key: String,
    pub text: String,
}

/// How the peer builds and queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerConfig {
    /// Hits kept per query (≥ 1).
    pub top: usize,
    /// The indexing memory budget shared by all writer threads, in MB (≥ 15 per thread).
    pub memory_mb: usize,
    /// Indexing threads (1–8); each fills its own segment.
    pub threads: usize,
    /// Build in memory (`true`) or in a temporary directory, memory-mapped and removed afterwards.
    pub in_ram: bool,
}

impl Default for PeerConfig {
    /// Top 10, 50 MB, one thread, in memory.
    fn default() -> Self {
        PeerConfig {
            top: 10,
            memory_mb: 50,
            threads: 1,
            in_ram: true,
        }
    }
}

/// How text becomes terms, on the index and in queries alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Analyzer {
    /// jieba's HMM for words not in its dictionary (off by default, as STACK.md has it for
    /// indexing).
    pub hmm: bool,
    /// jieba's search mode (`cut_for_search`: also the shorter words inside long ones); off by
    /// default.
    pub search_mode: bool,
}

impl Default for Analyzer {
    /// Precise mode, HMM off.
    fn default() -> Self {
        Analyzer {
            hmm: false,
            search_mode: false,
        }
    }
}

impl Analyzer {
    /// The tantivy analyzer: tantivy-jieba's tokenizer, then whitespace-only tokens dropped.
    fn text_analyzer(self) -> TextAnalyzer {
        let mut jieba = JiebaTokenizer::with_ordinal_position_mode(true);
        jieba.set_hmm(self.hmm);
        jieba.set_search_mode(self.search_mode);
        TextAnalyzer::builder(jieba).filter(DropWhitespace).build()
    }
}

/// The figures of one build-and-query run.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerRun {
    /// Documents indexed.
    pub docs: usize,
    /// Writer creation → all documents added → commit → reader reloaded, in seconds.
    pub index_secs: f64,
    /// `docs / index_secs`.
    pub docs_per_s: f64,
    /// Bytes of the committed segments (tantivy's space usage).
    pub index_bytes: u64,
    /// One per query: wall time of search + top-k collection, in seconds.
    pub query_secs: Vec<f64>,
    /// Median of `query_secs` (nearest rank), in milliseconds.
    pub p50_ms: f64,
    /// 95th percentile of `query_secs` (nearest rank), in milliseconds.
    pub p95_ms: f64,
    /// Per query, best first: (document key, BM25 score); at most `top`.
    pub hits: Vec<Vec<(String, f32)>>,
}

/// Builds an index of `docs` and runs every query on it, with the default [`Analyzer`].
pub fn run(docs: &[PeerDoc], queries: &[String], cfg: &PeerConfig) -> Result<PeerRun> {
    run_with(docs, queries, cfg, Analyzer::default())
}

/// [`run`] with another analyzer (e.g. HMM on, to match Python's `jieba.lcut`).
pub(crate) fn run_with(
    docs: &[PeerDoc],
    queries: &[String],
    cfg: &PeerConfig,
    analyzer: Analyzer,
) -> Result<PeerRun> {
    let index = PeerIndex::build_with(docs, cfg, analyzer)?;
    let searcher = index.reader.searcher();
    let mut query_secs = Vec::with_capacity(queries.len());
    let mut hits = Vec::with_capacity(queries.len());
    for q in queries {
        let query = index.query(q);
        let collector = TopDocs::with_limit(cfg.top).order_by_score();
        let start = Instant::now();
        let top = searcher
            .search(&*query, &collector)
            .map_err(fault("search"))?;
        query_secs.push(start.elapsed().as_secs_f64());
        hits.push(index.keys_of(&searcher, top)?);
    }
    Ok(PeerRun {
        docs: index.docs,
        index_secs: index.index_secs,
        docs_per_s: per_second(index.docs, index.index_secs),
        index_bytes: index.index_bytes,
        p50_ms: percentile(&query_secs, 0.50) * 1e3,
        p95_ms: percentile(&query_secs, 0.95) * 1e3,
        query_secs,
        hits,
    })
}

/// The BM25 breakdown of `key`'s score for `query`, as indented text (one line per node:
/// value, then what it is); `None` when no document has that key. A document that contains
/// none of the query's terms gets a one-line "does not match" text.
pub fn explain(index: &PeerIndex, query: &str, key: &str) -> Result<Option<String>> {
    index.explain(query, key)
}

/// The terms the default [`Analyzer`] makes of `text`, in order, with repeats.
#[cfg(test)]
pub(crate) fn analyze(text: &str) -> Vec<String> {
    terms_of(&mut Analyzer::default().text_analyzer(), text)
}

/// A built, searchable peer index (kept for [`explain`] and ad-hoc searches).
pub struct PeerIndex {
    // The reader holds the index, whose temporary directory (if any) goes with it.
    reader: IndexReader,
    key: Field,
    text: Field,
    analyzer: TextAnalyzer,
    docs: usize,
    index_secs: f64,
    index_bytes: u64,
}

impl PeerIndex {
    /// Indexes `docs` with the default [`Analyzer`].
    pub fn build(docs: &[PeerDoc], cfg: &PeerConfig) -> Result<PeerIndex> {
        Self::build_with(docs, cfg, Analyzer::default())
    }

    /// Indexes `docs` with `analyzer`.
    pub(crate) fn build_with(
        docs: &[PeerDoc],
        cfg: &PeerConfig,
        analyzer: Analyzer,
    ) -> Result<PeerIndex> {
        validate(cfg)?;
        let mut schema = Schema::builder();
        let key = schema.add_text_field("key", STRING | STORED);
        let text = schema.add_text_field(
            "text",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(ANALYZER_NAME)
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions),
            ),
        );
        let schema = schema.build();
        let index = if cfg.in_ram {
            Index::create_in_ram(schema)
        } else {
            Index::create_from_tempdir(schema).map_err(fault("create the index directory"))?
        };
        let mut text_analyzer = analyzer.text_analyzer();
        // Load the jieba dictionary (a process-wide one in tantivy-jieba) before the clock.
        let _ = terms_of(&mut text_analyzer, "预热词典");
        index
            .tokenizers()
            .register(ANALYZER_NAME, text_analyzer.clone());
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(fault("open a reader"))?;

        let start = Instant::now();
        let mut writer = index
            .writer_with_num_threads::<TantivyDocument>(cfg.threads, cfg.memory_mb << 20)
            .map_err(fault("create the writer"))?;
        for d in docs {
            let mut doc = TantivyDocument::default();
            doc.add_text(key, &d.key);
            doc.add_text(text, &d.text);
            writer.add_document(doc).map_err(fault("add a document"))?;
        }
        writer.commit().map_err(fault("commit"))?;
        reader.reload().map_err(fault("reload the reader"))?;
        let index_secs = start.elapsed().as_secs_f64();
        writer
            .wait_merging_threads()
            .map_err(fault("finish the writer"))?;

        let index_bytes = reader
            .searcher()
            .space_usage()
            .map_err(|e| fault("measure the index")(e.into()))?
            .total()
            .get_bytes();
        Ok(PeerIndex {
            reader,
            key,
            text,
            analyzer: text_analyzer,
            docs: docs.len(),
            index_secs,
            index_bytes,
        })
    }

    /// Documents indexed.
    pub fn docs(&self) -> usize {
        self.docs
    }

    /// Seconds from writer creation to the reader's reload.
    pub fn index_secs(&self) -> f64 {
        self.index_secs
    }

    /// Bytes of the committed segments.
    pub fn index_bytes(&self) -> u64 {
        self.index_bytes
    }

    /// The terms this index's analyzer makes of `text`.
    pub fn terms(&self, text: &str) -> Vec<String> {
        terms_of(&mut self.analyzer.clone(), text)
    }

    /// The `top` best documents for `query`: (key, BM25 score), best first.
    pub fn search(&self, query: &str, top: usize) -> Result<Vec<(String, f32)>> {
        if top == 0 {
            return Err(EngineError::invalid("top", "must be at least 1"));
        }
        let searcher = self.reader.searcher();
        let top = searcher
            .search(
                &*self.query(query),
                &TopDocs::with_limit(top).order_by_score(),
            )
            .map_err(fault("search"))?;
        self.keys_of(&searcher, top)
    }

    /// See [`explain`].
    pub fn explain(&self, query: &str, key: &str) -> Result<Option<String>> {
        let searcher = self.reader.searcher();
        let by_key = TermQuery::new(
            Term::from_field_text(self.key, key),
            IndexRecordOption::Basic,
        );
        let found = searcher
            .search(&by_key, &TopDocs::with_limit(1).order_by_score())
            .map_err(fault("look up a key"))?;
        let Some(&(_, address)) = found.first() else {
            return Ok(None);
        };
        match self.query(query).explain(&searcher, address) {
            Ok(explanation) => {
                let tree = serde_json::to_value(&explanation)
                    .map_err(|e| EngineError::Internal(format!("tantivy explanation: {e}")))?;
                let mut out = String::new();
                render(&tree, 0, &mut out);
                Ok(Some(out))
            }
            // The one invalid argument `explain` gives for a valid address: no clause matches.
            Err(TantivyError::InvalidArgument(_)) => Ok(Some(format!(
                "0 does not match: the document has none of the query's terms {:?}\n",
                self.terms(query)
            ))),
            Err(e) => Err(fault("explain")(e)),
        }
    }

    /// The query: one SHOULD `TermQuery` (with frequencies, BM25) per analysed term.
    fn query(&self, text: &str) -> Box<dyn Query> {
        let clauses: Vec<(Occur, Box<dyn Query>)> = self
            .terms(text)
            .into_iter()
            .map(|t| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(self.text, &t),
                    IndexRecordOption::WithFreqs,
                ));
                (Occur::Should, q)
            })
            .collect();
        if clauses.is_empty() {
            Box::new(EmptyQuery)
        } else {
            Box::new(BooleanQuery::new(clauses))
        }
    }

    /// The stored keys of collected hits, in the collector's order.
    fn keys_of(
        &self,
        searcher: &Searcher,
        top: Vec<(f32, DocAddress)>,
    ) -> Result<Vec<(String, f32)>> {
        top.into_iter()
            .map(|(score, address)| {
                let doc: TantivyDocument = searcher.doc(address).map_err(fault("read a hit"))?;
                let key = doc
                    .get_first(self.key)
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| {
                        EngineError::Internal(format!("tantivy peer: hit {address:?} has no key"))
                    })?;
                Ok((key.to_string(), score))
            })
            .collect()
    }
}

fn validate(cfg: &PeerConfig) -> Result<()> {
    if cfg.top == 0 {
        return Err(EngineError::invalid("top", "must be at least 1"));
    }
    if !(1..=MAX_THREADS).contains(&cfg.threads) {
        return Err(EngineError::invalid(
            "threads",
            format!("tantivy takes 1 to {MAX_THREADS} indexing threads"),
        ));
    }
    let per_thread = cfg.memory_mb / cfg.threads;
    if per_thread < MIN_MEMORY_MB_PER_THREAD {
        return Err(EngineError::invalid(
            "memory_mb",
            format!(
                "tantivy needs at least {MIN_MEMORY_MB_PER_THREAD} MB per indexing thread ({} MB for {} threads)",
                MIN_MEMORY_MB_PER_THREAD * cfg.threads,
                cfg.threads
            ),
        ));
    }
    // tantivy's arena per thread must stay below 4 GB − 1 MB.
    if per_thread >= 4095 {
        return Err(EngineError::invalid(
            "memory_mb",
            "tantivy takes less than 4095 MB per indexing thread",
        ));
    }
    Ok(())
}

/// An internal fault of tantivy while doing `what`.
fn fault(what: &'static str) -> impl Fn(TantivyError) -> EngineError {
    move |e| EngineError::Internal(format!("tantivy peer: {what}: {e}"))
}

fn terms_of(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut stream = analyzer.token_stream(text);
    let mut terms = Vec::new();
    while let Some(token) = stream.next() {
        terms.push(token.text.clone());
    }
    terms
}

fn per_second(n: usize, secs: f64) -> f64 {
    if secs > 0.0 { n as f64 / secs } else { 0.0 }
}

/// Nearest-rank percentile (the ⌈p·n⌉-th smallest); 0 for no values.
fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// One line per explanation node, children indented: `value  description [context]`.
fn render(node: &serde_json::Value, depth: usize, out: &mut String) {
    let value = node.get("value").and_then(|v| v.as_f64()).unwrap_or(0.0);
    let description = node
        .get("description")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    out.push_str(&format!("{}{value:.4}  {description}", "  ".repeat(depth)));
    if let Some(context) = node.get("context").and_then(|v| v.as_array()) {
        let parts: Vec<&str> = context.iter().filter_map(|c| c.as_str()).collect();
        out.push_str(&format!("  [{}]", parts.join("; ")));
    }
    out.push('\n');
    if let Some(details) = node.get("details").and_then(|v| v.as_array()) {
        for d in details {
            render(d, depth + 1, out);
        }
    }
}

/// Drops whitespace-only tokens (jieba returns the spaces between words as tokens).
#[derive(Clone)]
struct DropWhitespace;

impl TokenFilter for DropWhitespace {
    type Tokenizer<T: TantivyTokenizer> = DropWhitespaceTokenizer<T>;

    fn transform<T: TantivyTokenizer>(self, tokenizer: T) -> DropWhitespaceTokenizer<T> {
        DropWhitespaceTokenizer(tokenizer)
    }
}

#[derive(Clone)]
struct DropWhitespaceTokenizer<T>(T);

impl<T: TantivyTokenizer> TantivyTokenizer for DropWhitespaceTokenizer<T> {
    type TokenStream<'a> = DropWhitespaceStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        DropWhitespaceStream(self.0.token_stream(text))
    }
}

struct DropWhitespaceStream<S>(S);

impl<S: TokenStream> TokenStream for DropWhitespaceStream<S> {
    fn advance(&mut self) -> bool {
        while self.0.advance() {
            if !self.0.token().text.trim().is_empty() {
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.0.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.0.token_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 10.0);
        assert_eq!(percentile(&v, 0.95), 19.0);
        assert_eq!(percentile(&[3.0], 0.95), 3.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    #[test]
    fn bad_configs_are_the_users_to_fix() {
        let ok = PeerConfig::default();
        for bad in [
            PeerConfig {
                top: 0,
                ..ok.clone()
            },
            PeerConfig {
                threads: 0,
                ..ok.clone()
            },
            PeerConfig {
                threads: 9,
                memory_mb: 900,
                ..ok.clone()
            },
            PeerConfig {
                threads: 2,
                memory_mb: 29,
                ..ok.clone()
            },
        ] {
            let e = run(&[], &[], &bad).expect_err("refused");
            assert!(e.is_user_error(), "{e}");
        }
    }

    #[test]
    fn whitespace_is_no_term() {
        let terms = analyze("体验2D巅峰 倚天屠龙记");
        assert!(!terms.is_empty());
        assert!(terms.iter().all(|t| !t.trim().is_empty()), "{terms:?}");
    }

    #[test]
    fn or_semantics_and_an_explanation() {
        let docs: Vec<PeerDoc> = [
            "房价逆市疯涨",
            "股市早盘下跌",
            "网络游戏大赛",
            "房价下跌 房价",
        ]
        .iter()
        .enumerate()
        .map(|(i, t)| PeerDoc {
            key: (i + 1).to_string(),
            text: t.to_string(),
        })
        .collect();
        for in_ram in [true, false] {
            let cfg = PeerConfig {
                in_ram,
                ..PeerConfig::default()
            };
            let r = run(&docs, &["房价下跌".into(), "   ".into()], &cfg).expect("runs");
            let keys: Vec<&str> = r.hits[0].iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys[0], "4", "both terms, twice 房价");
            assert_eq!(keys.len(), 3, "OR: 1 and 2 match one term each: {keys:?}");
            assert!(r.hits[1].is_empty());
            assert_eq!(r.query_secs.len(), 2);
            assert!(r.index_bytes > 0);
        }
        let index = PeerIndex::build(&docs, &PeerConfig::default()).expect("builds");
        let text = explain(&index, "房价下跌", "4")
            .expect("explains")
            .expect("key");
        assert!(text.contains("idf") && text.contains("k1"), "{text}");
        let top = index.search("房价下跌", 1).expect("searches");
        let first_line = text.lines().next().unwrap_or("");
        assert!(
            first_line.starts_with(&format!("{:.4}", top[0].1)),
            "{text}"
        );
        let miss = explain(&index, "房价", "3")
            .expect("explains")
            .expect("key");
        assert!(miss.contains("does not match"), "{miss}");
        assert_eq!(explain(&index, "房价", "99").expect("explains"), None);
    }
}
