//! A query log — a file or a log stored in the workspace — written as the `querylog` Parquet
//! schema ([`super::QUERYLOG`]), a batch at a time, with the distinct user hashes when the
//! user sample needs them.

use std::path::Path;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, Int32Builder, Int64Builder, RecordBatch, StringBuilder};

use super::{QUERYLOG, need_workspace};
use crate::engine::error::{EngineError, Result};
use crate::engine::exec::parquet_io::AtomicWriter;
use crate::engine::jobs::Tick;
use crate::engine::querylog::job::LogSource;
use crate::engine::querylog::read::{ReadConfig, ReadSummary, read_file};
use crate::engine::querylog::{Normalise, Record, hash64, persist};
use crate::engine::store::Workspace;

const BATCH: usize = 65_536;

/// Writes records as `querylog` rows, a batch at a time.
struct RowWriter {
    w: AtomicWriter,
    normalise: Normalise,
    seq: i64,
    rows: usize,
    b: Builders,
    /// The distinct user hashes seen, when asked for (the user sample needs them).
    users: Option<std::collections::HashSet<u64>>,
}

#[derive(Default)]
struct Builders {
    seq: Int64Builder,
    line: Int64Builder,
    time: Int64Builder,
    dated: Int32Builder,
    user: StringBuilder,
    user_hash: Int64Builder,
    query: StringBuilder,
    norm: StringBuilder,
    page: Int32Builder,
    rank: Int32Builder,
    order: Int32Builder,
    url: StringBuilder,
    url_hash: Int64Builder,
    cache: StringBuilder,
    result_page: Int32Builder,
}

fn i32_of(v: Option<u32>) -> Option<i32> {
    v.map(|x| x.min(i32::MAX as u32) as i32)
}

impl RowWriter {
    fn create(path: &Path, normalise: Normalise, meta: &[(String, String)]) -> Result<Self> {
        let mut m = meta.to_vec();
        m.push((
            "tianwang.normalise".into(),
            serde_json::to_string(&normalise).map_err(|e| EngineError::Internal(e.to_string()))?,
        ));
        Ok(RowWriter {
            w: AtomicWriter::create(path, QUERYLOG.arrow(), &m)?,
            normalise,
            seq: 0,
            rows: 0,
            b: Builders::default(),
            users: None,
        })
    }

    fn push(&mut self, r: &Record) -> Result<()> {
        let b = &mut self.b;
        b.seq.append_value(self.seq);
        b.line.append_value(r.line as i64);
        b.time.append_option(r.time);
        b.dated.append_value(r.dated as i32);
        b.user.append_value(r.user);
        let uh = (!r.user.is_empty()).then(|| hash64(r.user));
        if let (Some(set), Some(h)) = (self.users.as_mut(), uh) {
            set.insert(h);
        }
        b.user_hash.append_option(uh.map(|h| h as i64));
        b.query.append_value(r.query);
        b.norm.append_value(self.normalise.apply(r.query));
        b.page.append_option(i32_of(r.page));
        b.rank.append_option(i32_of(r.rank));
        b.order.append_option(i32_of(r.order));
        b.url.append_option(r.url);
        b.url_hash
            .append_option(r.url.filter(|u| !u.is_empty()).map(|u| hash64(u) as i64));
        b.cache.append_option(r.cache);
        b.result_page.append_option(i32_of(r.result_page()));
        self.seq += 1;
        self.rows += 1;
        if self.rows >= BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let b = &mut self.b;
        let cols: Vec<ArrayRef> = vec![
            Arc::new(b.seq.finish()),
            Arc::new(b.line.finish()),
            Arc::new(b.time.finish()),
            Arc::new(b.dated.finish()),
            Arc::new(b.user.finish()),
            Arc::new(b.user_hash.finish()),
            Arc::new(b.query.finish()),
            Arc::new(b.norm.finish()),
            Arc::new(b.page.finish()),
            Arc::new(b.rank.finish()),
            Arc::new(b.order.finish()),
            Arc::new(b.url.finish()),
            Arc::new(b.url_hash.finish()),
            Arc::new(b.cache.finish()),
            Arc::new(b.result_page.finish()),
        ];
        let batch = RecordBatch::try_new(QUERYLOG.arrow(), cols)
            .map_err(|e| EngineError::Internal(format!("querylog batch: {e}")))?;
        self.rows = 0;
        self.w.write(&batch)
    }

    fn finish(mut self) -> Result<u64> {
        self.flush()?;
        let n = self.seq as u64;
        self.w.finish()?;
        Ok(n)
    }
}

/// The log file at `log` as a `querylog` file at `out`: (what the read saw, rows written).
pub fn export_file(
    log: &Path,
    read: &ReadConfig,
    normalise: Normalise,
    out: &Path,
    tick: &dyn Tick,
) -> Result<(ReadSummary, u64)> {
    let src = LogSource::File {
        path: log.to_path_buf(),
        read: read.clone(),
    };
    let (s, n, _) = export(&src, None, normalise, out, false, tick)?;
    Ok((s, n))
}

/// Stored log `log_id` of the workspace as a `querylog` file at `out`.
pub(crate) fn export_stored(
    ws: &Path,
    log_id: i64,
    normalise: Normalise,
    out: &Path,
) -> Result<(ReadSummary, u64)> {
    let src = LogSource::Stored { log_id };
    let (s, n, _) = export(&src, Some(ws), normalise, out, false, &())?;
    Ok((s, n))
}

pub(super) type Users = std::collections::HashSet<u64>;

/// A log source as a `querylog` file; with `users`, also its distinct user hashes.
pub(super) fn export(
    source: &LogSource,
    workspace: Option<&Path>,
    normalise: Normalise,
    out: &Path,
    users: bool,
    tick: &dyn Tick,
) -> Result<(ReadSummary, u64, Users)> {
    let (format, id) = match source {
        LogSource::File { read, .. } => (read.format, None),
        LogSource::Stored { log_id } => {
            let ws = Workspace::open_existing(workspace.ok_or_else(need_workspace)?)?;
            (persist::format_of(ws.conn(), *log_id)?, Some(*log_id))
        }
    };
    let mut meta = vec![("tianwang.format".to_string(), format.name().to_string())];
    if let Some(id) = id {
        meta.push(("tianwang.log_id".to_string(), id.to_string()));
    }
    let mut w = RowWriter::create(out, normalise, &meta)?;
    if users {
        w.users = Some(Users::default());
    }
    let summary = match source {
        LogSource::File { path, read } => {
            read.validate()?;
            read_file(path, read, tick, &mut |r| w.push(r))?
        }
        LogSource::Stored { log_id } => {
            let ws = Workspace::open_existing(workspace.ok_or_else(need_workspace)?)?;
            tick.tick(0.0, "exporting the stored log")?;
            persist::load(ws.conn(), *log_id, &mut |r| w.push(r))?;
            persist::summary_of(ws.conn(), *log_id)?
        }
    };
    let set = w.users.take().unwrap_or_default();
    let n = w.finish()?;
    Ok((summary, n, set))
}
