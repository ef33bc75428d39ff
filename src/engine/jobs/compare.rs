//! Run comparison: what differs between two or more logged runs of one kind, and how did
//! their figures change? Parameters are compared field by field (only what differs is
//! listed); every number in the results becomes a figure, side by side with its change from
//! the first run. Nested objects are flattened to dotted paths (`errors.timeout`), arrays are
//! left out of the figures (they are tables, not figures).
//!
//! ```no_run
//! use tianwang::engine::{jobs::compare::compare, store::Workspace};
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let c = compare(&ws, &[3, 7])?;
//! for f in &c.figures {
//!     println!("{}: {:?} ({:?})", f.name, f.values, f.change);
//! }
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{JobRecord, get_job};
use crate::engine::error::{EngineError, Result};
use crate::engine::export::Table;
use crate::engine::store::Workspace;

/// One run in a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHead {
    pub id: i64,
    pub status: String,
    pub started_at: String,
    pub duration_s: Option<f64>,
}

/// A parameter whose value differs between the runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamDiff {
    /// Dotted path, e.g. `params.lambda`.
    pub name: String,
    /// One value per run (`None`: the run has no such parameter).
    pub values: Vec<Option<Value>>,
}

/// A number in the results, per run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub name: String,
    pub values: Vec<Option<f64>>,
    /// Change from the first run: `value − first` (`None` where either is missing).
    pub change: Vec<Option<f64>>,
    /// Relative change `(value − first) / |first|` (`None` where first is 0 or missing).
    pub relative: Vec<Option<f64>>,
}

/// Two or more runs of one kind side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub kind: String,
    pub runs: Vec<RunHead>,
    /// Only the parameters that differ.
    pub params: Vec<ParamDiff>,
    /// How many parameters are the same in every run.
    pub params_same: usize,
    pub figures: Vec<Figure>,
}

impl Comparison {
    /// The comparison as a table: one row per figure (values, then changes from the first
    /// run), then one per differing parameter.
    pub(crate) fn to_table(&self) -> Table {
        let c = self;
        let mut headers = vec!["figure".to_string()];
        headers.extend(c.runs.iter().map(|r| format!("#{}", r.id)));
        headers.extend(c.runs.iter().skip(1).map(|r| format!("Δ #{}", r.id)));
        let mut t = Table::new(format!("{} comparison", c.kind), headers);
        for f in &c.figures {
            let mut row = vec![f.name.clone()];
            row.extend(
                f.values
                    .iter()
                    .map(|v| v.map_or(String::new(), |v| v.to_string())),
            );
            row.extend(
                f.change
                    .iter()
                    .skip(1)
                    .map(|v| v.map_or(String::new(), |v| v.to_string())),
            );
            t.push(row);
        }
        for p in &c.params {
            let mut row = vec![format!("param {}", p.name)];
            row.extend(
                p.values
                    .iter()
                    .map(|v| v.as_ref().map_or(String::new(), |v| v.to_string())),
            );
            t.push(row);
        }
        t
    }
}

/// Flatten objects to dotted paths; keep leaves (arrays whole).
fn flatten(prefix: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&p, x, out);
            }
        }
        _ => {
            out.insert(prefix.to_string(), v.clone());
        }
    }
}

/// Compare logged runs `ids` (two or more, of one kind, in the order given).
pub fn compare(ws: &Workspace, ids: &[i64]) -> Result<Comparison> {
    if ids.len() < 2 {
        return Err(EngineError::invalid(
            "--compare",
            "name two or more run ids",
        ));
    }
    let mut runs: Vec<JobRecord> = Vec::new();
    for &id in ids {
        let r = get_job(ws, id)?
            .ok_or_else(|| EngineError::invalid("--compare", format!("no run #{id} in the log")))?;
        runs.push(r);
    }
    let kind = runs[0].kind.clone();
    if let Some(other) = runs.iter().find(|r| r.kind != kind) {
        return Err(EngineError::invalid(
            "--compare",
            format!(
                "run #{} is {} but run #{} is {}: compare runs of one kind",
                runs[0].id, kind, other.id, other.kind
            ),
        ));
    }
    Ok(compare_records(&runs))
}

/// [`compare`] on records already read.
pub(crate) fn compare_records(runs: &[JobRecord]) -> Comparison {
    let flat = |v: Option<&Value>| {
        let mut m = BTreeMap::new();
        if let Some(v) = v {
            flatten("", v, &mut m);
        }
        m
    };
    let params: Vec<BTreeMap<String, Value>> = runs.iter().map(|r| flat(Some(&r.params))).collect();
    let results: Vec<BTreeMap<String, Value>> =
        runs.iter().map(|r| flat(r.result.as_ref())).collect();
    let names = |maps: &[BTreeMap<String, Value>]| {
        let mut n: Vec<String> = maps.iter().flat_map(|m| m.keys().cloned()).collect();
        n.sort();
        n.dedup();
        n
    };
    let mut diffs = Vec::new();
    let mut same = 0;
    for name in names(&params) {
        let values: Vec<Option<Value>> = params.iter().map(|m| m.get(&name).cloned()).collect();
        if values.iter().all(|v| *v == values[0]) {
            same += 1;
        } else {
            diffs.push(ParamDiff { name, values });
        }
    }
    let mut figures = Vec::new();
    for name in names(&results) {
        let values: Vec<Option<f64>> = results
            .iter()
            .map(|m| m.get(&name).and_then(Value::as_f64))
            .collect();
        if values.iter().all(Option::is_none) {
            continue;
        }
        let first = values[0];
        let change = values.iter().map(|v| Some(v.as_ref()? - first?)).collect();
        let relative = values
            .iter()
            .map(|v| {
                let (f, v) = (first?, (*v)?);
                (f != 0.0).then(|| (v - f) / f.abs())
            })
            .collect();
        figures.push(Figure {
            name,
            values,
            change,
            relative,
        });
    }
    Comparison {
        kind: runs.first().map(|r| r.kind.clone()).unwrap_or_default(),
        runs: runs
            .iter()
            .map(|r| RunHead {
                id: r.id,
                status: r.status.clone(),
                started_at: r.started_at.clone(),
                duration_s: r.duration_s,
            })
            .collect(),
        params: diffs,
        params_same: same,
        figures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(id: i64, kind: &str, params: Value, result: Value) -> JobRecord {
        JobRecord {
            id,
            kind: kind.into(),
            status: "done".into(),
            params,
            result: Some(result),
            error: None,
            error_code: None,
            started_at: "2026-01-01T00:00:00Z".into(),
            ended_at: None,
            duration_s: Some(1.0),
        }
    }

    #[test]
    fn only_differences_and_every_figure_with_its_change() {
        let a = rec(
            1,
            "clean-eval",
            json!({"source": {"kind": "sample"}, "params": {"lambda": 2.0, "beta": 1.0}}),
            json!({"body": {"f1": 0.9, "p": 0.95}, "pages": [1, 2], "errors": 0, "source": "sample"}),
        );
        let b = rec(
            2,
            "clean-eval",
            json!({"source": {"kind": "sample"}, "params": {"lambda": 3.0, "beta": 1.0}}),
            json!({"body": {"f1": 0.99, "p": 0.95}, "pages": [1, 2, 3], "errors": 2, "source": "sample"}),
        );
        let c = compare_records(&[a, b]);
        assert_eq!(c.params.len(), 1);
        assert_eq!(c.params[0].name, "params.lambda");
        assert_eq!(c.params[0].values, vec![Some(json!(2.0)), Some(json!(3.0))]);
        assert_eq!(c.params_same, 2);
        let f1 = c.figures.iter().find(|f| f.name == "body.f1").unwrap();
        assert_eq!(f1.values, vec![Some(0.9), Some(0.99)]);
        assert!((f1.change[1].unwrap() - 0.09).abs() < 1e-12);
        assert!((f1.relative[1].unwrap() - 0.1).abs() < 1e-12);
        let e = c.figures.iter().find(|f| f.name == "errors").unwrap();
        assert_eq!(e.relative[1], None, "no relative change from 0");
        assert!(
            c.figures
                .iter()
                .all(|f| f.name != "pages" && f.name != "source")
        );
    }
}
