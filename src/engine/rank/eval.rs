//! Retrieval evaluation (book ch. 10.4 [L3924–L3982]): relevance judgements and runs in,
//! per-query and mean P@N, R-precision, AP/MAP, nDCG@N and RR out; per-query wins/losses of
//! two configurations with a paired t-test at 95 % [L3976–L3982]; a ranking diff.
//!
//! The book uses DCV metrics such as P@N ("the experiment uses DCV, e.g. P@N" [L3972]) and
//! recommends P@10/P@20 for the Web [L3934]; it defines only P and R [L4061]. Standard
//! definitions (digest: SUGGESTED) are used for the rest:
//! - relevant = judgement `rel > 0`; unjudged documents are non-relevant (TREC pooling [L3934]);
//! - P@N divides by N even when fewer than N were returned (trec_eval);
//! - AP = Σ over relevant retrieved of P@rank, divided by all relevant judged for the query;
//! - nDCG@N: gain `2^rel − 1` by default ([`Gain::Exponential`], Burges et al.), or `rel`
//!   ([`Gain::Linear`]); discount `1 / log2(rank + 1)`; ideal from all judged documents;
//! - queries evaluated = those with at least one relevant judgement; a query missing from a
//!   run scores 0 (trec_eval `-c`).
//!
//! Formats: qrels as TREC `qid iter docid rel` or TSV `qid<TAB>doc<TAB>rel`; runs as TREC
//! `qid Q0 doc rank score tag` (ordered by score descending, ties by doc id descending, as
//! trec_eval does) or TSV `qid<TAB>doc[<TAB>score]` (file order). In memory, a run is simply
//! `HashMap<qid, Vec<doc>>` ([`Run`]) so the index's query service can be evaluated directly.
//!
//! ```
//! use std::collections::HashMap;
//! use tianwang::engine::rank::eval::{evaluate, parse_qrels, EvalConfig, Run};
//! let qrels = parse_qrels("q1\td1\t1\nq1\td3\t2\n", "qrels.tsv").unwrap();
//! let run: Run = HashMap::from([("q1".to_string(), vec!["d1".into(), "d2".into(), "d3".into()])]);
//! let e = evaluate(&run, &qrels, &EvalConfig::default()).unwrap();
//! assert!((e.mean.ap - (1.0 + 2.0 / 3.0) / 2.0).abs() < 1e-12);
//! ```

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::stats::{TTest, paired_t_test};
use crate::engine::error::{EngineError, Result};

/// qid → (doc → graded relevance).
pub(crate) type Qrels = BTreeMap<String, HashMap<String, i32>>;
/// qid → ranked doc ids (best first).
pub type Run = HashMap<String, Vec<String>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Gain {
    /// `2^rel − 1`.
    #[default]
    Exponential,
    /// `rel`.
    Linear,
}

/// Which per-query metric the comparison (wins/losses, t-test) uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// P@N (the book's DCV metric).
    #[default]
    P,
    Ap,
    Ndcg,
    Rprec,
    Rr,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalConfig {
    /// The cut-off N of P@N and nDCG@N.
    pub at: usize,
    pub gain: Gain,
    pub metric: Metric,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            at: 10,
            gain: Gain::Exponential,
            metric: Metric::P,
        }
    }
}

impl EvalConfig {
    pub fn new(at: usize, gain: Gain, metric: Metric) -> Result<Self> {
        if at == 0 {
            return Err(EngineError::invalid("--at", "must be at least 1"));
        }
        Ok(EvalConfig { at, gain, metric })
    }
}

/// Metrics of one query (or their means over queries).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    pub p_at: f64,
    pub r_prec: f64,
    pub ap: f64,
    pub ndcg_at: f64,
    pub rr: f64,
}

impl Scores {
    pub fn get(&self, m: Metric) -> f64 {
        match m {
            Metric::P => self.p_at,
            Metric::Ap => self.ap,
            Metric::Ndcg => self.ndcg_at,
            Metric::Rprec => self.r_prec,
            Metric::Rr => self.rr,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryEval {
    pub qid: String,
    pub relevant: usize,
    pub retrieved: usize,
    pub relevant_retrieved: usize,
    pub scores: Scores,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEval {
    pub at: usize,
    pub queries: usize,
    /// Means over the evaluated queries (`ap` here is MAP).
    pub mean: Scores,
    pub per_query: Vec<QueryEval>,
}

/// Metrics of one ranked list against one query's judgements.
pub(crate) fn score_query(
    ranked: &[String],
    judged: &HashMap<String, i32>,
    cfg: &EvalConfig,
) -> QueryEval {
    let rel_of = |d: &str| judged.get(d).copied().unwrap_or(0).max(0);
    let relevant = judged.values().filter(|&&r| r > 0).count();
    let gain = |r: i32| -> f64 {
        match cfg.gain {
            Gain::Exponential => 2f64.powi(r.min(30)) - 1.0,
            Gain::Linear => r as f64,
        }
    };
    let disc = |rank: usize| 1.0 / ((rank + 1) as f64).log2();
    let mut hits = 0usize;
    let mut ap = 0.0;
    let mut rr = 0.0;
    let mut hits_at_n = 0usize;
    let mut hits_at_r = 0usize;
    let mut dcg = 0.0;
    // a doc listed twice in a run counts once (first occurrence)
    let mut seen = std::collections::HashSet::new();
    let mut rank = 0usize;
    for d in ranked {
        if !seen.insert(d.as_str()) {
            continue;
        }
        rank += 1;
        let r = rel_of(d);
        if r > 0 {
            hits += 1;
            ap += hits as f64 / rank as f64;
            if rr == 0.0 {
                rr = 1.0 / rank as f64;
            }
            if rank <= cfg.at {
                hits_at_n += 1;
            }
            if rank <= relevant {
                hits_at_r += 1;
            }
        }
        if rank <= cfg.at {
            dcg += gain(r) * disc(rank);
        }
    }
    let mut ideal: Vec<i32> = judged.values().copied().filter(|&r| r > 0).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(cfg.at)
        .enumerate()
        .map(|(i, &r)| gain(r) * disc(i + 1))
        .sum();
    let div = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    QueryEval {
        qid: String::new(),
        relevant,
        retrieved: rank,
        relevant_retrieved: hits,
        scores: Scores {
            p_at: hits_at_n as f64 / cfg.at as f64,
            r_prec: div(hits_at_r as f64, relevant as f64),
            ap: div(ap, relevant as f64),
            ndcg_at: div(dcg, idcg),
            rr,
        },
    }
}

/// Evaluates a run over every query with at least one relevant judgement.
pub fn evaluate(run: &Run, qrels: &Qrels, cfg: &EvalConfig) -> Result<RunEval> {
    let empty = Vec::new();
    let mut per_query = Vec::new();
    for (qid, judged) in qrels {
        if !judged.values().any(|&r| r > 0) {
            continue;
        }
        let ranked = run.get(qid).unwrap_or(&empty);
        let mut q = score_query(ranked, judged, cfg);
        q.qid = qid.clone();
        per_query.push(q);
    }
    if per_query.is_empty() {
        return Err(EngineError::invalid(
            "--qrels",
            "no query has a relevant judgement",
        ));
    }
    let n = per_query.len() as f64;
    let mean = |f: fn(&Scores) -> f64| per_query.iter().map(|q| f(&q.scores)).sum::<f64>() / n;
    Ok(RunEval {
        at: cfg.at,
        queries: per_query.len(),
        mean: Scores {
            p_at: mean(|s| s.p_at),
            r_prec: mean(|s| s.r_prec),
            ap: mean(|s| s.ap),
            ndcg_at: mean(|s| s.ndcg_at),
            rr: mean(|s| s.rr),
        },
        per_query,
    })
}

/// One query's outcome between configurations A and B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryDuel {
    pub qid: String,
    pub a: f64,
    pub b: f64,
    /// "win" (A better), "loss" (A worse) or "tie".
    pub outcome: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub metric: Metric,
    pub wins: usize,
    pub losses: usize,
    pub ties: usize,
    pub per_query: Vec<QueryDuel>,
    /// None with fewer than two queries.
    pub t_test: Option<TTest>,
}

/// Wins/losses of A against B per query on `metric`, and the paired t-test. Both evaluations
/// must come from the same qrels (same queries, in the same order).
pub fn compare(a: &RunEval, b: &RunEval, metric: Metric) -> Result<Comparison> {
    if a.per_query.len() != b.per_query.len()
        || a.per_query
            .iter()
            .zip(&b.per_query)
            .any(|(x, y)| x.qid != y.qid)
    {
        return Err(EngineError::Internal(
            "comparing evaluations over different queries".into(),
        ));
    }
    let mut c = Comparison {
        metric,
        wins: 0,
        losses: 0,
        ties: 0,
        per_query: Vec::new(),
        t_test: None,
    };
    let (mut xa, mut xb) = (Vec::new(), Vec::new());
    for (qa, qb) in a.per_query.iter().zip(&b.per_query) {
        let (sa, sb) = (qa.scores.get(metric), qb.scores.get(metric));
        let outcome = if (sa - sb).abs() < 1e-12 {
            c.ties += 1;
            "tie"
        } else if sa > sb {
            c.wins += 1;
            "win"
        } else {
            c.losses += 1;
            "loss"
        };
        c.per_query.push(QueryDuel {
            qid: qa.qid.clone(),
            a: sa,
            b: sb,
            outcome: outcome.into(),
        });
        xa.push(sa);
        xb.push(sb);
    }
    c.t_test = paired_t_test(&xa, &xb);
    Ok(c)
}

/// How one document moved between list A and list B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Move {
    pub doc: String,
    /// 1-based ranks; None when absent from that list.
    pub rank_a: Option<usize>,
    pub rank_b: Option<usize>,
    /// "up", "down", "same", "new" (only in B) or "lost" (only in A).
    pub change: String,
    /// rank_a − rank_b (positive = moved up in B).
    pub delta: i64,
}

/// Ranking diff of two result lists (B relative to A): B's documents in B's order, then the
/// documents lost from A in A's order.
pub(crate) fn ranking_diff(a: &[String], b: &[String]) -> Vec<Move> {
    let pos = |l: &[String]| {
        let mut m: HashMap<String, usize> = HashMap::new();
        for (i, d) in l.iter().enumerate() {
            m.entry(d.clone()).or_insert(i + 1);
        }
        m
    };
    let (pa, pb) = (pos(a), pos(b));
    let mut out = Vec::new();
    let mut done = std::collections::HashSet::new();
    for d in b {
        if !done.insert(d.clone()) {
            continue;
        }
        let rb = pb.get(d).copied();
        let ra = pa.get(d).copied();
        let (change, delta) = match (ra, rb) {
            (Some(x), Some(y)) => {
                let delta = x as i64 - y as i64;
                (
                    if delta > 0 {
                        "up"
                    } else if delta < 0 {
                        "down"
                    } else {
                        "same"
                    },
                    delta,
                )
            }
            _ => ("new", 0),
        };
        out.push(Move {
            doc: d.clone(),
            rank_a: ra,
            rank_b: rb,
            change: change.into(),
            delta,
        });
    }
    for d in a {
        if !pb.contains_key(d) && done.insert(d.clone()) {
            out.push(Move {
                doc: d.clone(),
                rank_a: pa.get(d).copied(),
                rank_b: None,
                change: "lost".into(),
                delta: 0,
            });
        }
    }
    out
}

fn fields(l: &str) -> Vec<&str> {
    if l.contains('\t') {
        l.split('\t').map(str::trim).collect()
    } else {
        l.split_whitespace().collect()
    }
}

fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let t = l.trim_end_matches('\r');
        (!t.trim().is_empty() && !t.trim_start().starts_with('#')).then_some((i + 1, t))
    })
}

/// Parses qrels text: 4 fields = TREC `qid iter doc rel`, 3 = TSV `qid doc rel`.
pub fn parse_qrels(text: &str, name: &str) -> Result<Qrels> {
    let mut q = Qrels::new();
    for (ln, l) in data_lines(text) {
        let f = fields(l);
        let (qid, doc, rel) = match f.as_slice() {
            [qid, _iter, doc, rel] => (qid, doc, rel),
            [qid, doc, rel] => (qid, doc, rel),
            _ => {
                return Err(EngineError::bad_line(
                    name,
                    ln,
                    "error.qrels_fields",
                    &[&f.len()],
                ));
            }
        };
        let rel: i32 = rel
            .parse()
            .map_err(|_| EngineError::bad_line(name, ln, "error.relevance_not_integer", &[&rel]))?;
        if qid.is_empty() || doc.is_empty() {
            return Err(EngineError::bad_line(
                name,
                ln,
                "error.empty_query_or_doc",
                &[],
            ));
        }
        q.entry(qid.to_string())
            .or_default()
            .insert(doc.to_string(), rel);
    }
    if q.is_empty() {
        return Err(EngineError::bad_line(name, 1, "error.no_judgements", &[]));
    }
    Ok(q)
}

/// Parses a run: 6 fields = TREC `qid Q0 doc rank score tag`, 2–3 = TSV `qid doc [score]`.
pub fn parse_run(text: &str, name: &str) -> Result<Run> {
    // (order key, doc): TREC by (−score, doc desc); TSV by file position.
    let mut rows: HashMap<String, Vec<(f64, usize, String)>> = HashMap::new();
    let mut trec = false;
    for (ln, l) in data_lines(text) {
        let f = fields(l);
        let (qid, doc, score) = match f.as_slice() {
            [qid, _q0, doc, rank, score, _tag] => {
                rank.parse::<i64>().map_err(|_| {
                    EngineError::bad_line(name, ln, "error.rank_not_integer", &[rank])
                })?;
                trec = true;
                (qid, doc, Some(*score))
            }
            [qid, doc] => (qid, doc, None),
            [qid, doc, score] => (qid, doc, Some(*score)),
            _ => {
                return Err(EngineError::bad_line(
                    name,
                    ln,
                    "error.run_fields",
                    &[&f.len()],
                ));
            }
        };
        let score = match score {
            Some(s) => {
                let v: f64 = s.parse().map_err(|_| {
                    EngineError::bad_line(name, ln, "error.score_not_number", &[&s])
                })?;
                if !v.is_finite() {
                    return Err(EngineError::bad_line(
                        name,
                        ln,
                        "error.score_not_finite",
                        &[],
                    ));
                }
                Some(v)
            }
            None => None,
        };
        let list = rows.entry(qid.to_string()).or_default();
        let pos = list.len();
        list.push((score.unwrap_or(0.0), pos, doc.to_string()));
    }
    if rows.is_empty() {
        return Err(EngineError::bad_line(name, 1, "error.no_results", &[]));
    }
    Ok(rows
        .into_iter()
        .map(|(q, mut l)| {
            if trec {
                l.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.2.cmp(&a.2)));
            } else {
                l.sort_by_key(|r| r.1);
            }
            (q, l.into_iter().map(|r| r.2).collect())
        })
        .collect())
}

/// Parses a query file: `qid<TAB>query text` per line (`#` comments); for the index-backed
/// `rank eval --queries FILE`, whose runs the query service produces in memory.
pub fn parse_queries(text: &str, name: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (ln, l) in data_lines(text) {
        let Some((qid, q)) = l.split_once('\t') else {
            return Err(EngineError::bad_line(name, ln, "error.queries_fields", &[]));
        };
        let (qid, q) = (qid.trim(), q.trim());
        if qid.is_empty() || q.is_empty() {
            return Err(EngineError::bad_line(name, ln, "error.empty_query", &[]));
        }
        if !seen.insert(qid.to_string()) {
            return Err(EngineError::bad_line(
                name,
                ln,
                "error.query_repeated",
                &[&qid],
            ));
        }
        out.push((qid.to_string(), q.to_string()));
    }
    if out.is_empty() {
        return Err(EngineError::bad_line(name, 1, "error.no_queries", &[]));
    }
    Ok(out)
}

pub(crate) fn read_queries(path: &Path) -> Result<Vec<(String, String)>> {
    parse_queries(&read(path)?, &path.display().to_string())
}

fn read(path: &Path) -> Result<String> {
    crate::engine::text::read_utf8(path, "rank eval")
}

pub(crate) fn read_qrels(path: &Path) -> Result<Qrels> {
    parse_qrels(&read(path)?, &path.display().to_string())
}

pub(crate) fn read_run(path: &Path) -> Result<Run> {
    parse_run(&read(path)?, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn hand_computed_metrics() {
        // judged: d1 rel 1, d3 rel 2, d5 rel 1, d9 rel 0; ranking d1 d2 d3 d4
        let judged: HashMap<String, i32> = [("d1", 1), ("d3", 2), ("d5", 1), ("d9", 0)]
            .iter()
            .map(|(d, r)| (d.to_string(), *r))
            .collect();
        let cfg = EvalConfig {
            at: 3,
            ..EvalConfig::default()
        };
        let q = score_query(&v(&["d1", "d2", "d3", "d4"]), &judged, &cfg);
        assert_eq!(q.relevant, 3);
        assert!((q.scores.p_at - 2.0 / 3.0).abs() < 1e-12);
        // AP = (1/1 + 2/3) / 3
        assert!((q.scores.ap - (1.0 + 2.0 / 3.0) / 3.0).abs() < 1e-12);
        // R-prec, R = 3: top 3 holds d1, d3 → 2/3
        assert!((q.scores.r_prec - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(q.scores.rr, 1.0);
        // nDCG@3 (2^rel-1): DCG = 1/log2 2 + 0 + 3/log2 4 = 2.5;
        // ideal 3,1,1: 3 + 1/log2 3 + 1/2
        let idcg = 3.0 + 1.0 / 3f64.log2() + 0.5;
        assert!((q.scores.ndcg_at - 2.5 / idcg).abs() < 1e-12);
        let lin = EvalConfig {
            gain: Gain::Linear,
            ..cfg
        };
        let q = score_query(&v(&["d1", "d2", "d3", "d4"]), &judged, &lin);
        let idcg = 2.0 + 1.0 / 3f64.log2() + 0.5;
        assert!((q.scores.ndcg_at - (1.0 + 2.0 / 2.0) / idcg).abs() < 1e-12);
    }

    #[test]
    fn formats_and_missing_queries() {
        let qrels = parse_qrels("1 0 a 1\n1 0 b 0\n2 0 c 2\n3 0 z 0\n", "q").unwrap();
        let run = parse_run("1 Q0 b 1 9.0 x\n1 Q0 a 2 9.5 x\n", "r").unwrap();
        assert_eq!(run["1"], v(&["a", "b"]));
        let e = evaluate(
            &run,
            &qrels,
            &EvalConfig {
                at: 2,
                ..EvalConfig::default()
            },
        )
        .unwrap();
        assert_eq!(e.queries, 2); // query 3 has no relevant doc
        assert_eq!(e.per_query[1].scores.ap, 0.0); // query 2 missing from the run
        assert!((e.mean.p_at - 0.25).abs() < 1e-12);
        let tsv = parse_run("1\tb\n1\ta\n", "r").unwrap();
        assert_eq!(tsv["1"], v(&["b", "a"]));
        let err = parse_qrels("1 0 a x\n", "q.txt").unwrap_err();
        assert_eq!(err.to_string(), "q.txt:1: relevance `x` is not an integer");
        let err = parse_run("1 Q0 a\n", "r.txt").unwrap_err();
        assert!(err.to_string().starts_with("r.txt:1: "));
    }

    #[test]
    fn query_file() {
        let q = parse_queries("# queries\n1\t天网 搜索\n2\tpagerank\n", "q.tsv").unwrap();
        assert_eq!(q[0], ("1".to_string(), "天网 搜索".to_string()));
        let e = parse_queries("1\ta\n1\tb\n", "q.tsv").unwrap_err();
        assert_eq!(e.to_string(), "q.tsv:2: query id `1` repeated");
        assert!(parse_queries("no tab\n", "q.tsv").is_err());
    }

    #[test]
    fn wins_losses_and_diff() {
        let qrels = parse_qrels("q1\ta\t1\nq2\tb\t1\nq3\tc\t1\n", "q").unwrap();
        let ra: Run = [("q1", v(&["a"])), ("q2", v(&["x", "b"])), ("q3", v(&["c"]))]
            .into_iter()
            .map(|(q, l)| (q.to_string(), l))
            .collect();
        let rb: Run = [("q1", v(&["x", "a"])), ("q2", v(&["b"])), ("q3", v(&["c"]))]
            .into_iter()
            .map(|(q, l)| (q.to_string(), l))
            .collect();
        let cfg = EvalConfig {
            metric: Metric::Ap,
            ..EvalConfig::default()
        };
        let (ea, eb) = (
            evaluate(&ra, &qrels, &cfg).unwrap(),
            evaluate(&rb, &qrels, &cfg).unwrap(),
        );
        let c = compare(&ea, &eb, Metric::Ap).unwrap();
        assert_eq!((c.wins, c.losses, c.ties), (1, 1, 1));
        assert!(c.t_test.unwrap().p_value > 0.9);
        let d = ranking_diff(&v(&["a", "b", "c"]), &v(&["c", "a", "d"]));
        let ch: Vec<_> = d
            .iter()
            .map(|m| (m.doc.as_str(), m.change.as_str(), m.delta))
            .collect();
        assert_eq!(
            ch,
            vec![
                ("c", "up", 2),
                ("a", "down", -1),
                ("d", "new", 0),
                ("b", "lost", 0)
            ]
        );
    }
}
