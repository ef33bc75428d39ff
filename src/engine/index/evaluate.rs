//! Evaluating the query service, book ch. 10.4 [L3924–L3982]: run every query under each
//! ranking configuration, score the runs against judgements with `engine::rank::eval` (P@N,
//! MAP, nDCG, per-query wins and the paired t-test), and the THUCNews-titles experiment of
//! issue 15 (dev.txt as the corpus, every 20th test.txt title as a query, same class =
//! relevant; rank_bm25 with jieba reaches P@10 = 0.583 there).
//!
//! ```no_run
//! use tianwang::engine::index::{evaluate, search::Searcher, score::RankConfig};
//! let s = Searcher::open("dev.index".as_ref()).unwrap();
//! let queries = vec![("q1".to_string(), "考研 英语".to_string())];
//! let runs = evaluate::run_configs(&s, &queries, &[RankConfig::default()], 100, &()).unwrap();
//! assert_eq!(runs.len(), 1);
//! ```

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::score::RankConfig;
use super::search::{SearchOptions, Searcher};
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;
use crate::engine::rank::eval::{Qrels, Run};

/// Each configuration's run: qid → the first `depth` document keys. A query with no
/// searchable word returns nothing (it still counts in the means).
pub fn run_configs(
    s: &Searcher,
    queries: &[(String, String)],
    configs: &[RankConfig],
    depth: usize,
    tick: &dyn Tick,
) -> Result<Vec<(String, Run)>> {
    let opt = SearchOptions {
        top: depth.max(1),
        explain: false,
        abstracts: false,
        ..SearchOptions::default()
    };
    let mut out = Vec::with_capacity(configs.len());
    for (ci, cfg) in configs.iter().enumerate() {
        let mut run = Run::new();
        for (qi, (qid, q)) in queries.iter().enumerate() {
            let docs = match s.search(q, cfg, &opt) {
                Ok(r) => r.hits.into_iter().map(|h| h.doc).collect(),
                Err(EngineError::ParamFlaw { name, .. }) if name == "QUERY" => Vec::new(),
                Err(e) => return Err(e),
            };
            run.insert(qid.clone(), docs);
            if qi % 50 == 0 {
                tick.tick(
                    (ci * queries.len() + qi) as f32
                        / (configs.len() * queries.len()).max(1) as f32,
                    &format!("{}: query {qi} of {}", cfg.label(), queries.len()),
                )?;
            }
        }
        out.push((cfg.label(), run));
    }
    Ok(out)
}

/// The THUCNews titles experiment's inputs: queries (qid = test.txt line number) and qrels
/// (every dev.txt line of the query's class, keyed by line number as the TSV index keys it).
pub(crate) fn thucnews_queries(
    dev: &Path,
    test: &Path,
    every: usize,
) -> Result<(Vec<(String, String)>, Qrels)> {
    if every == 0 {
        return Err(EngineError::invalid("--every", "must be at least 1"));
    }
    let read = |p: &Path| -> Result<Vec<(String, String)>> {
        let text = crate::engine::text::read_utf8(p, "--data")?;
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                let (t, c) = l.rsplit_once('\t').ok_or_else(|| {
                    EngineError::bad_input(p.display(), i + 1, "expected `title<TAB>class`")
                })?;
                Ok((t.to_string(), c.trim().to_string()))
            })
            .collect()
    };
    let dev_rows = read(dev)?;
    let test_rows = read(test)?;
    let mut by_class: HashMap<&str, HashMap<String, i32>> = HashMap::new();
    for (i, (_, c)) in dev_rows.iter().enumerate() {
        by_class
            .entry(c)
            .or_default()
            .insert((i + 1).to_string(), 1);
    }
    let mut queries = Vec::new();
    let mut qrels: Qrels = BTreeMap::new();
    for (i, (t, c)) in test_rows.iter().enumerate().step_by(every) {
        let qid = (i + 1).to_string();
        queries.push((qid.clone(), t.clone()));
        qrels.insert(qid, by_class.get(c.as_str()).cloned().unwrap_or_default());
    }
    Ok((queries, qrels))
}
