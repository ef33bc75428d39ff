//! The dedup lab's job: one method, every method, or a sweep on one corpus, with progress,
//! cancel and the result in the experiment log.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::report::{Source, SweepSpec, compare_on, outcome_json, overlap, sweep};
use super::{Config, Method};
use crate::engine::error::Result;
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, Tick};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct DedupParams {
    pub source: Source,
    /// Method names; several (or `all`) make a comparison.
    pub methods: Vec<String>,
    pub config: Config,
    #[serde(default)]
    pub sweep: Option<SweepSpec>,
    /// Where the grouping runs (native unless asked; `engine::exec`).
    #[serde(default)]
    pub engine: crate::engine::exec::EngineConfig,
}

/// The name of the `job_details` table a comparison keeps every method's pairs and clusters in.
pub(crate) const PAIRS_DETAIL: &str = "dedup-pairs";

/// One method's answer by document name (a comparison's per-method detail).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct MethodPairs {
    pub method: String,
    /// (a, b, relation, score); for `contains`, `a` contains `b`.
    pub pairs: Vec<(String, String, super::Relation, f64)>,
    pub clusters: Vec<Vec<String>>,
}

impl MethodPairs {
    fn of(o: &super::Outcome, names: &[String]) -> MethodPairs {
        MethodPairs {
            method: o.method.clone(),
            pairs: o
                .pairs
                .iter()
                .map(|p| (names[p.a].clone(), names[p.b].clone(), p.relation, p.score))
                .collect(),
            clusters: o
                .clusters
                .iter()
                .map(|c| c.iter().map(|&i| names[i].clone()).collect())
                .collect(),
        }
    }
}

pub(crate) struct DedupJob {
    params: DedupParams,
    methods: Vec<Method>,
}

impl DedupJob {
    pub(crate) fn methods(names: &[String]) -> Result<Vec<Method>> {
        if names.iter().any(|n| n == "all") || names.is_empty() {
            return Ok(Method::ALL.to_vec());
        }
        names.iter().map(|n| Method::parse(n)).collect()
    }

    /// The whole experiment (also what the CLI runs without a workspace).
    pub fn execute(
        params: &DedupParams,
        workspace: Option<&std::path::Path>,
        tick: &dyn Tick,
    ) -> Result<Value> {
        Ok(Self::execute_with_pairs(params, workspace, tick)?.0)
    }

    /// [`execute`](Self::execute), and for a comparison every method's pairs by name.
    pub(crate) fn execute_with_pairs(
        params: &DedupParams,
        workspace: Option<&std::path::Path>,
        tick: &dyn Tick,
    ) -> Result<(Value, Vec<MethodPairs>)> {
        let methods = Self::methods(&params.methods)?;
        tick.tick(0.0, "loading")?;
        let corpus = params.source.load(workspace)?;
        let names: Vec<String> = corpus.docs.iter().map(|d| d.name.clone()).collect();
        let errors = serde_json::to_value(&corpus.errors).unwrap_or(Value::Null);
        // File names that are not UTF-8 and the keys they got (said, not silent).
        let notes = json!(corpus.notes);
        if let Some(spec) = &params.sweep {
            let points = sweep(&corpus, methods[0], &params.config, spec, tick)?;
            return Ok((
                json!({
                    "method": methods[0].name(), "docs": corpus.docs.len(), "sweep": spec.name,
                    "params": params.config.to_json(), "points": points, "errors": errors,
                    "notes": notes,
                }),
                Vec::new(),
            ));
        }
        if methods.len() == 1 {
            let rows = compare_on(&corpus, &methods, &params.config, &params.engine, tick)?;
            let (o, row) = &rows[0];
            let mut v = outcome_json(o, &names, &params.config);
            v["errors"] = errors;
            v["notes"] = notes;
            v["engine"] = params.engine.engine.name().into();
            if let Some(s) = &row.scores {
                v["scores"] = serde_json::to_value(s).unwrap_or(Value::Null);
            }
            v["row"] = serde_json::to_value(row).unwrap_or(Value::Null);
            return Ok((v, vec![MethodPairs::of(o, &names)]));
        }
        let rows = compare_on(&corpus, &methods, &params.config, &params.engine, tick)?;
        let outcomes: Vec<_> = rows.iter().map(|r| r.0.clone()).collect();
        let details = outcomes
            .iter()
            .map(|o| MethodPairs::of(o, &names))
            .collect();
        let v = json!({
            "docs": corpus.docs.len(),
            "params": params.config.to_json(),
            "rows": rows.iter().map(|r| &r.1).collect::<Vec<_>>(),
            "overlap": overlap(&outcomes),
            "engine": params.engine.engine.name(),
            "book_table_7_3": super::eval::BOOK_TABLE_7_3.iter().map(|(m, f, r, p)| json!({"method": m, "found": f, "recall": r, "precision": p})).collect::<Vec<_>>(),
            "errors": errors,
            "notes": notes,
        });
        Ok((v, details))
    }
}

impl TypedJob for DedupJob {
    const KIND: &'static str = "dedup";
    type Params = DedupParams;
    type Output = Value;

    fn from_params(params: DedupParams) -> Result<Self> {
        params.config.validate()?;
        let methods = Self::methods(&params.methods)?;
        Ok(DedupJob { params, methods })
    }

    fn params(&self) -> DedupParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<Value> {
        cx.counter("methods", self.methods.len() as f64);
        let (v, pairs) = Self::execute_with_pairs(&self.params, Some(cx.workspace_path()), cx)?;
        if !pairs.is_empty()
            && let Some(id) = cx.job_id()
        {
            let ws = crate::engine::store::Workspace::open_existing(cx.workspace_path())?;
            crate::engine::jobs::save_detail(&ws, id, PAIRS_DETAIL, &pairs)?;
        }
        cx.progress(1.0, "done");
        Ok(v)
    }
}
