//! Trained models in the workspace: one row per model with its full configuration, the class
//! list, its test metrics when known, and the model itself as JSON (book ch. 11.5 [L4387]: the
//! offline classifier's patterns and thresholds are kept and used online).
//!
//! The table is `classify_models` (schema v8, `engine::store`). [`save`] / [`load`] /
//! [`list`] take a `&rusqlite::Connection` of an open workspace.
//!
//! ```no_run
//! # fn demo(conn: &rusqlite::Connection, model: &tianwang::engine::classify::pipeline::Model) -> tianwang::engine::error::Result<()> {
//! use tianwang::engine::classify::persist;
//! let id = persist::save(conn, "nb-titles", model, None)?;
//! let back = persist::load(conn, id)?;
//! assert_eq!(back.labels, model.labels);
//! # Ok(()) }
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::classify::metrics::Metrics;
use crate::engine::classify::pipeline::Model;
use crate::engine::error::{EngineError, Flaw, Result};

/// A stored model's summary (without the model body).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelRow {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub created: String,
    pub train_docs: i64,
    pub features: i64,
    pub labels: Vec<String>,
    pub metrics: Option<Metrics>,
}

fn json<T: Serialize>(v: &T) -> Result<String> {
    serde_json::to_string(v).map_err(|e| EngineError::Internal(format!("serialising a model: {e}")))
}

pub fn save(
    conn: &rusqlite::Connection,
    name: &str,
    model: &Model,
    metrics: Option<&Metrics>,
) -> Result<i64> {
    if name.trim().is_empty() {
        return Err(EngineError::invalid(
            "--save",
            "a model needs a non-empty name",
        ));
    }
    let metrics = metrics.map(json).transpose()?;
    conn.execute(
        "INSERT INTO classify_models (name, kind, train_docs, features, labels, config, metrics, model)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        rusqlite::params![
            name,
            model.config.model.name(),
            model.train_docs as i64,
            model.vocab.len() as i64,
            json(&model.labels)?,
            json(&model.config)?,
            metrics,
            json(model)?,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Loads model `id` ready to classify (lookup tables rebuilt).
pub fn load(conn: &rusqlite::Connection, id: i64) -> Result<Model> {
    let body: Option<String> = conn
        .query_row(
            "SELECT model FROM classify_models WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
    let body = body.ok_or_else(|| {
        EngineError::invalid("--model-id", format!("no stored model with id {id}"))
    })?;
    let mut m: Model = serde_json::from_str(&body).map_err(|e| {
        EngineError::corrupt(
            conn.path().unwrap_or("the workspace"),
            Flaw::with_detail("flaw.model_decode", &[&id], e),
        )
    })?;
    m.after_load();
    Ok(m)
}

pub fn list(conn: &rusqlite::Connection) -> Result<Vec<ModelRow>> {
    let mut st = conn.prepare(
        "SELECT id, name, kind, created, train_docs, features, labels, metrics FROM classify_models ORDER BY id",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, i64>(5)?,
            r.get::<_, String>(6)?,
            r.get::<_, Option<String>>(7)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, name, kind, created, train_docs, features, labels, metrics) = row?;
        out.push(ModelRow {
            id,
            name,
            kind,
            created,
            train_docs,
            features,
            labels: serde_json::from_str(&labels).unwrap_or_default(),
            metrics: metrics.and_then(|m| serde_json::from_str(&m).ok()),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::classify::nb::{NbConfig, NbKind};
    use crate::engine::classify::pipeline::{ModelConfig, PipelineConfig};

    #[test]
    fn round_trip_in_memory() {
        let d = tempfile::tempdir().unwrap();
        let ws =
            crate::engine::store::Workspace::open_or_create(&d.path().join("w.tianwang")).unwrap();
        let conn = ws.conn();
        let cfg = PipelineConfig::for_model(ModelConfig::Nb(NbConfig {
            kind: NbKind::Multinomial,
            alpha: Some(1.0),
        }));
        let toks = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let docs = vec![toks("股票 基金"), toks("足球 比赛")];
        let m = Model::train(
            &docs,
            &[0, 1],
            vec!["stocks".into(), "sports".into()],
            &[],
            &cfg,
            &(),
        )
        .unwrap();
        let id = save(conn, "t", &m, None).unwrap();
        let back = load(conn, id).unwrap();
        assert_eq!(back.config, m.config);
        assert_eq!(back.predict(&toks("足球")).0, vec![1]);
        assert_eq!(list(conn).unwrap()[0].kind, "nb");
        assert!(load(conn, 99).unwrap_err().is_user_error());
    }
}
