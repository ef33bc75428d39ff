//! The DataFusion driver: a [`Plan`] run in this process over Parquet, with a bounded memory
//! pool (a fair spill pool of `memory_mb`) and a spill directory, so sorts, joins and
//! aggregations that outgrow the pool spill to disk instead of swelling. Two UDFs make the
//! plans' SQL read the same on both engines: `bit_count` (DataFusion has no popcount; Spark has
//! it built in) and `element_at(list, i)` (1-based, as Spark's; DataFusion's own name is the
//! map lookup).
//!
//! ```no_run
//! use tianwang::engine::exec::{EngineConfig, Engine, plan::Plan, datafusion::run_plan};
//! let plan = Plan::new("count").input("t", "/tmp/t.parquet").output("n", "SELECT COUNT(*) AS n FROM t");
//! let report = run_plan(&plan, std::path::Path::new("/tmp/out"), &EngineConfig::new(Engine::DataFusion), &()).unwrap();
//! println!("{} s", report.total_s);
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Int32Array};
use datafusion::arrow::datatypes::{DataType, Int64Type};
use datafusion::execution::disk_manager::{DiskManagerBuilder, DiskManagerMode};
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::logical_expr::{ColumnarValue, Volatility, create_udf};
use datafusion::physical_plan::{ExecutionPlan, execute_stream};
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use futures::StreamExt;

use super::EngineConfig;
use super::plan::{Plan, RunReport, Step};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;

fn internal(what: &str, e: impl std::fmt::Display) -> EngineError {
    EngineError::Internal(format!("DataFusion, {what}: {e}"))
}

/// A DataFusion error as ours: a plan that outgrew the pool and could not spill is the user's
/// to fix (a larger `--pool-mb`), anything else is internal.
fn df_err(what: &str, e: datafusion::error::DataFusionError) -> EngineError {
    let s = e.to_string();
    if s.contains("Resources exhausted") {
        EngineError::invalid(
            "--pool-mb",
            format!("{what}: the memory pool is too small for this plan ({s})"),
        )
    } else {
        internal(what, s)
    }
}

/// popcount of a BIGINT (what Spark calls `bit_count`).
fn bit_count_udf() -> datafusion::logical_expr::ScalarUDF {
    create_udf(
        "bit_count",
        vec![DataType::Int64],
        DataType::Int32,
        Volatility::Immutable,
        Arc::new(|args: &[ColumnarValue]| {
            let arrays = ColumnarValue::values_to_arrays(args)?;
            let a = arrays[0].as_primitive::<Int64Type>();
            let out: Int32Array = a.iter().map(|v| v.map(|x| x.count_ones() as i32)).collect();
            Ok(ColumnarValue::Array(Arc::new(out) as ArrayRef))
        }),
    )
}

/// `element_at(list, i)`: the 1-based `i`-th item of a `BIGINT` list, null past the end, as
/// Spark's `element_at` reads arrays. DataFusion's own `element_at` is the map lookup; this one
/// replaces it so the plans' SQL is the same text on both engines.
fn element_at_udf() -> datafusion::logical_expr::ScalarUDF {
    let item = Arc::new(datafusion::arrow::datatypes::Field::new(
        "item",
        DataType::Int64,
        true,
    ));
    create_udf(
        "element_at",
        vec![DataType::List(item), DataType::Int64],
        DataType::Int64,
        Volatility::Immutable,
        Arc::new(|args: &[ColumnarValue]| {
            let arrays = ColumnarValue::values_to_arrays(args)?;
            let lists = arrays[0].as_list::<i32>();
            let idx = arrays[1].as_primitive::<Int64Type>();
            let out: datafusion::arrow::array::Int64Array = (0..lists.len())
                .map(|r| {
                    if lists.is_null(r) || idx.is_null(r) || idx.value(r) < 1 {
                        return None;
                    }
                    let v = lists.value(r);
                    let v = v.as_primitive::<Int64Type>();
                    let i = (idx.value(r) - 1) as usize;
                    (i < v.len() && !v.is_null(i)).then(|| v.value(i))
                })
                .collect();
            Ok(ColumnarValue::Array(Arc::new(out) as ArrayRef))
        }),
    )
}

/// A session with the pool, the spill directory and the UDFs.
pub(crate) fn session(cfg: &EngineConfig, spill_dir: &Path) -> Result<SessionContext> {
    std::fs::create_dir_all(spill_dir).map_err(|e| EngineError::Io {
        path: spill_dir.to_path_buf(),
        source: e,
    })?;
    let runtime = RuntimeEnvBuilder::new()
        .with_memory_pool(Arc::new(FairSpillPool::new(
            cfg.memory_mb.saturating_mul(1 << 20),
        )))
        .with_disk_manager_builder(
            DiskManagerBuilder::default()
                .with_mode(DiskManagerMode::Directories(vec![spill_dir.to_path_buf()])),
        )
        .build_arc()
        .map_err(|e| internal("runtime", e))?;
    let config = SessionConfig::new()
        .with_target_partitions(cfg.threads())
        .with_batch_size(8192);
    let ctx = SessionContext::new_with_config_rt(config, runtime);
    ctx.register_udf(bit_count_udf());
    ctx.register_udf(element_at_udf());
    Ok(ctx)
}

/// A tokio runtime for one plan (DataFusion is async; the workbench's jobs are threads).
fn runtime(cfg: &EngineConfig) -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cfg.threads())
        .enable_all()
        .build()
        .map_err(|e| internal("tokio", e))
}

/// Run `plan`, writing each output to `out/<name>/part-0.parquet`.
pub fn run_plan(plan: &Plan, out: &Path, cfg: &EngineConfig, tick: &dyn Tick) -> Result<RunReport> {
    let t0 = Instant::now();
    let spill = out.join(".spill");
    let ctx = session(cfg, &spill)?;
    let rt = runtime(cfg)?;
    let mut report = RunReport {
        engine: "datafusion".into(),
        ..RunReport::default()
    };
    let result = rt.block_on(async {
        for input in &plan.inputs {
            register_input(&ctx, &input.name, &input.path).await?;
        }
        let total = plan.steps.len().max(1);
        for (i, step) in plan.steps.iter().enumerate() {
            tick.tick(
                i as f32 / total as f32,
                &format!("{}: step {}", plan.name, i + 1),
            )?;
            run_step(&ctx, step, out, &mut report, tick).await?;
        }
        Ok::<(), EngineError>(())
    });
    let _ = std::fs::remove_dir_all(&spill);
    result?;
    report.total_s = t0.elapsed().as_secs_f64();
    Ok(report)
}

async fn register_input(ctx: &SessionContext, name: &str, path: &Path) -> Result<()> {
    if !path.exists() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.parquet_missing", &[]),
        ));
    }
    let url = path.to_string_lossy().to_string();
    let opts = ParquetReadOptions::default();
    ctx.register_parquet(name, &url, opts).await.map_err(|e| {
        EngineError::path_flaw(path, Flaw::with_detail("flaw.parquet_unreadable", &[], e))
    })
}

fn run_step<'a>(
    ctx: &'a SessionContext,
    step: &'a Step,
    out: &'a Path,
    report: &'a mut RunReport,
    tick: &'a dyn Tick,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<()>> + 'a>> {
    Box::pin(async move {
        let t = Instant::now();
        match step {
            Step::View { name, sql } => {
                let df = ctx.sql(sql).await.map_err(|e| df_err(name, e))?;
                let _ = ctx.deregister_table(name.as_str());
                ctx.register_table(name.as_str(), df.into_view())
                    .map_err(|e| df_err(name, e))?;
            }
            Step::Table { name, sql } => {
                materialise(ctx, name, sql, report).await?;
                report.steps.push((name.clone(), t.elapsed().as_secs_f64()));
            }
            Step::Output { name, sql } => {
                let df = ctx.sql(sql).await.map_err(|e| df_err(name, e))?;
                let plan = df
                    .create_physical_plan()
                    .await
                    .map_err(|e| df_err(name, e))?;
                let dir = out.join(name);
                write_stream(ctx, plan.clone(), &dir, name).await?;
                report.spilled_bytes += spilled(&plan);
                report.steps.push((name.clone(), t.elapsed().as_secs_f64()));
            }
            Step::Loop {
                state,
                next,
                body,
                delta_sql,
                tol,
                max_iter,
            } => {
                for it in 0..*max_iter {
                    tick.tick(0.5, &format!("iteration {}", it + 1))?;
                    for s in body {
                        run_step(ctx, s, out, report, tick).await?;
                    }
                    let df = ctx.sql(delta_sql).await.map_err(|e| df_err("delta", e))?;
                    let batches = df.collect().await.map_err(|e| df_err("delta", e))?;
                    let delta = first_f64(&batches)
                        .ok_or_else(|| internal("delta", "the delta query returned no number"))?;
                    // state := next, materialised (so the next pass does not re-plan the chain).
                    let sql = format!("SELECT * FROM {next}");
                    materialise(ctx, state, &sql, report).await?;
                    report.deltas.push(delta);
                    if delta < *tol {
                        break;
                    }
                }
                report
                    .steps
                    .push(("loop".into(), t.elapsed().as_secs_f64()));
            }
        }
        Ok(())
    })
}

async fn materialise(
    ctx: &SessionContext,
    name: &str,
    sql: &str,
    report: &mut RunReport,
) -> Result<()> {
    let df = ctx.sql(sql).await.map_err(|e| df_err(name, e))?;
    let plan = df
        .create_physical_plan()
        .await
        .map_err(|e| df_err(name, e))?;
    let batches = datafusion::physical_plan::collect(plan.clone(), ctx.task_ctx())
        .await
        .map_err(|e| df_err(name, e))?;
    report.spilled_bytes += spilled(&plan);
    let table = datafusion::datasource::MemTable::try_new(plan.schema(), vec![batches])
        .map_err(|e| df_err(name, e))?;
    let _ = ctx.deregister_table(name);
    ctx.register_table(name, Arc::new(table))
        .map_err(|e| df_err(name, e))?;
    Ok(())
}

/// Stream a plan's batches into one Parquet file, written whole or not at all.
async fn write_stream(
    ctx: &SessionContext,
    plan: Arc<dyn ExecutionPlan>,
    dir: &Path,
    name: &str,
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| EngineError::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    let path: PathBuf = dir.join("part-0.parquet");
    let mut w = super::parquet_io::AtomicWriter::create(&path, plan.schema(), &[])?;
    let mut stream = execute_stream(plan, ctx.task_ctx()).map_err(|e| df_err(name, e))?;
    while let Some(b) = stream.next().await {
        let b = b.map_err(|e| df_err(name, e))?;
        w.write(&b)?;
    }
    w.finish()
}

/// Bytes the operators of `plan` spilled.
fn spilled(plan: &Arc<dyn ExecutionPlan>) -> u64 {
    let own = plan.metrics().and_then(|m| m.spilled_bytes()).unwrap_or(0) as u64;
    own + plan.children().iter().map(|c| spilled(c)).sum::<u64>()
}

fn first_f64(batches: &[datafusion::arrow::record_batch::RecordBatch]) -> Option<f64> {
    let b = batches.iter().find(|b| b.num_rows() > 0)?;
    let col = b.column(0);
    let col = datafusion::arrow::compute::cast(col, &DataType::Float64).ok()?;
    let a = col.as_primitive::<datafusion::arrow::datatypes::Float64Type>();
    (!a.is_null(0)).then(|| a.value(0))
}
