//! One dedup experiment end to end, shared by the CLI, the job and the panel: load a corpus,
//! run one method, all of them (the Table 7-3 comparison) or a parameter sweep, and render
//! outcomes with document names.
//!
//! ```
//! use tianwang::engine::dedup::report::SweepSpec;
//! let s = SweepSpec::parse("n-keywords=2..5").unwrap();
//! assert_eq!(s.values, ["2", "3", "4", "5"]);
//! let s = SweepSpec::parse("threshold=0.5..0.7:0.1").unwrap();
//! assert_eq!(s.values.len(), 3);
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::corpus::{self, Corpus, Input};
use super::eval::{CompareRow, docs_per_s};
use super::{Config, Method, Outcome, Prepared, run_prepared};
use crate::engine::error::{EngineError, Result};
use crate::engine::exec::{Engine, EngineConfig};
use crate::engine::jobs::Tick;

/// Where the documents come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    Dir {
        path: PathBuf,
        input: Input,
        clean: bool,
    },
    Sample {
        clean: bool,
    },
    Workspace {
        clean: bool,
    },
    /// A development set built from real text in the data folder `data` (the shared data's
    /// folder, given explicitly: the app never looks for it), with its truth: issue 10's set
    /// of real reprints ([`super::devset`], with `seed`) or the harder set with boilerplate
    /// ([`super::hardset`], its `part`).
    Devset {
        #[serde(default)]
        seed: u64,
        #[serde(default)]
        data: PathBuf,
        #[serde(default)]
        set: DevKind,
        #[serde(default)]
        part: super::hardset::Part,
    },
    /// A `pages` Parquet file of the big jobs' contract (`engine::dedup::on_engine::PAGES`;
    /// needs the `bigjobs` build feature).
    Parquet {
        path: PathBuf,
    },
}

impl Source {
    pub fn load(&self, workspace: Option<&std::path::Path>) -> Result<Corpus> {
        match self {
            Source::Dir { path, input, clean } => corpus::load_dir(path, *input, *clean),
            Source::Sample { clean } => corpus::sample_web(*clean),
            Source::Workspace { clean } => {
                let p = workspace
                    .ok_or_else(|| EngineError::invalid("workspace", "no workspace given"))?;
                let ws = crate::engine::store::Workspace::open_existing(p)?;
                corpus::workspace(&ws, *clean)
            }
            Source::Parquet { path } => super::corpus::read_pages_corpus(path),
            Source::Devset {
                seed,
                data,
                set,
                part,
            } => {
                if data.as_os_str().is_empty() {
                    return Err(EngineError::invalid(
                        "data",
                        "give the data folder the development set is built from (shared/data)",
                    ));
                }
                let built = match set {
                    DevKind::Reprints => super::devset::build(data, *seed)?,
                    DevKind::Hard => super::hardset::build(data, *part)?,
                };
                Ok(Corpus {
                    source: format!("development set ({})", set.name()),
                    docs: built.docs,
                    truth: Some(built.truth),
                    errors: Vec::new(),
                    notes: Vec::new(),
                })
            }
        }
    }
}

/// Which development set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DevKind {
    /// Issue 10's real reprints: clean texts.
    #[default]
    Reprints,
    /// The harder set: portals' boilerplate, hard negatives, partial reprints.
    Hard,
}

impl DevKind {
    pub fn parse(s: &str) -> Result<DevKind> {
        match s {
            "reprints" => Ok(DevKind::Reprints),
            "hard" => Ok(DevKind::Hard),
            _ => Err(EngineError::invalid(
                "devset",
                format!("`{s}`: reprints or hard"),
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DevKind::Reprints => "reprints",
            DevKind::Hard => "hard",
        }
    }
}

/// A parameter and the values a sweep tries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepSpec {
    pub name: String,
    pub values: Vec<String>,
}

impl SweepSpec {
    /// `name=a..b` (integers, step 1), `name=a..b:step`, or `name=v1,v2,…`.
    pub fn parse(s: &str) -> Result<SweepSpec> {
        let bad = |m: &str| EngineError::invalid("sweep", format!("`{s}`: {m}"));
        let (name, range) = s.split_once('=').ok_or_else(|| bad("expected name=a..b"))?;
        let name = name.trim().to_string();
        if !Config::NAMES.contains(&name.as_str()) {
            return Err(bad("unknown parameter"));
        }
        let values: Vec<String> = if let Some((a, rest)) = range.split_once("..") {
            let (b, step) = rest.split_once(':').unwrap_or((rest, "1"));
            let num = |x: &str| x.trim().parse::<f64>().map_err(|_| bad("not a number"));
            let (a, b, step) = (num(a)?, num(b)?, num(step)?);
            if step <= 0.0 || b < a || (b - a) / step > 1000.0 {
                return Err(bad("the range must rise in at most 1,000 steps"));
            }
            let n = ((b - a) / step + 1e-9).floor() as usize;
            let integral = a.fract() == 0.0 && step.fract() == 0.0;
            (0..=n)
                .map(|i| {
                    let v = a + step * i as f64;
                    if integral {
                        format!("{}", v as i64)
                    } else {
                        format!("{:.4}", v).trim_end_matches('0').to_string()
                    }
                })
                .collect()
        } else {
            range
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect()
        };
        if values.is_empty() {
            return Err(bad("no values"));
        }
        // Every value must be valid for the parameter.
        for v in &values {
            Config::default().set(&name, v)?;
        }
        Ok(SweepSpec { name, values })
    }
}

/// An outcome with names instead of indices: the CLI contract's document.
pub(crate) fn outcome_json(out: &Outcome, names: &[String], cfg: &Config) -> Value {
    let pairs: Vec<Value> = out
        .pairs
        .iter()
        .map(|p| json!({"a": names[p.a], "b": names[p.b], "relation": p.relation.name(), "score": p.score}))
        .collect();
    let clusters: Vec<Vec<&str>> = out
        .clusters
        .iter()
        .map(|c| c.iter().map(|&i| names[i].as_str()).collect())
        .collect();
    let stats: serde_json::Map<String, Value> = out
        .stats
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "method": out.method,
        "params": cfg.to_json(),
        "docs": out.docs,
        "pairs": pairs,
        "clusters": clusters,
        "closure": out.closure,
        "timing": out.timing,
        "docs_per_s": docs_per_s(out.docs, out.timing.total_s),
        "stats": stats,
    })
}

/// One point of a sweep.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepPoint {
    pub value: String,
    pub row: CompareRow,
}

/// Run `methods` on a corpus sharing the features (each method is still charged for them).
pub fn compare(
    c: &Corpus,
    methods: &[Method],
    cfg: &Config,
    tick: &dyn Tick,
) -> Result<Vec<(Outcome, CompareRow)>> {
    compare_on(c, methods, cfg, &EngineConfig::default(), tick)
}

/// [`compare`] with the grouping on `engine` (native, DataFusion or Spark; see
/// `dedup::on_engine`).
pub(crate) fn compare_on(
    c: &Corpus,
    methods: &[Method],
    cfg: &Config,
    engine: &EngineConfig,
    tick: &dyn Tick,
) -> Result<Vec<(Outcome, CompareRow)>> {
    let names: Vec<String> = c.docs.iter().map(|d| d.name.clone()).collect();
    let prep = Prepared::new(&c.docs, cfg);
    let mut out = Vec::new();
    for (i, &m) in methods.iter().enumerate() {
        tick.tick(i as f32 / methods.len().max(1) as f32, &m.name())?;
        let o = if engine.engine == Engine::Native {
            run_prepared(&prep, m, &())?
        } else {
            super::run_on(&prep, m, engine, tick)?
        };
        let row = CompareRow::new(&o, &names, c.truth.as_ref());
        out.push((o, row));
    }
    Ok(out)
}

/// Run `method` once per value of the swept parameter.
pub fn sweep(
    c: &Corpus,
    method: Method,
    cfg: &Config,
    spec: &SweepSpec,
    tick: &dyn Tick,
) -> Result<Vec<SweepPoint>> {
    let names: Vec<String> = c.docs.iter().map(|d| d.name.clone()).collect();
    let mut points = Vec::new();
    let mut prep = Prepared::new(&c.docs, cfg);
    for (i, v) in spec.values.iter().enumerate() {
        tick.tick(
            i as f32 / spec.values.len() as f32,
            &format!("{}={v}", spec.name),
        )?;
        let mut cfg = cfg.clone();
        cfg.set(&spec.name, v)?;
        prep.set_config(&cfg);
        let o = run_prepared(&prep, method, &())?;
        points.push(SweepPoint {
            value: v.clone(),
            row: CompareRow::new(&o, &names, c.truth.as_ref()),
        });
    }
    Ok(points)
}

/// Which of `outcomes` found each flagged page: for the overlap view (found(3) ⊆ found(2) ⊆
/// found(5)). Returns, per ordered pair of methods, whether A's flagged pages are a subset of
/// B's, and the sizes.
pub fn overlap(outcomes: &[Outcome]) -> Vec<Value> {
    let sets: Vec<std::collections::BTreeSet<usize>> = outcomes
        .iter()
        .map(|o| o.pairs.iter().flat_map(|p| [p.a, p.b]).collect())
        .collect();
    let mut out = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for (j, b) in sets.iter().enumerate() {
            if i != j {
                let both = a.intersection(b).count();
                out.push(json!({
                    "a": outcomes[i].method, "b": outcomes[j].method,
                    "a_found": a.len(), "b_found": b.len(), "both": both,
                    "subset": both == a.len(),
                }));
            }
        }
    }
    out
}
