"""Run a Tianwang Workbench plan (engine::bigjobs::plan::Plan as JSON) on Apache Spark.

The same plan the workbench runs on DataFusion: named Parquet inputs, then SQL steps (views,
materialised tables, outputs written as Parquet, loops). The workbench embeds this file and
launches it with the venv's python; it can also be run by hand:

    python run_plan.py PLAN.json OUT_DIR [MASTER]

Progress goes to stdout as JSON lines {"progress": f, "message": s}; the report (loop deltas,
seconds per step) is written to OUT_DIR/report.json last, so its presence means success.
"""
import json
import os
import shutil
import sys
import time


def jvm_peak_rss_mb(spark):
    """The Spark JVM's peak resident memory (VmHWM), in MB, or 0 where it cannot be read.

    The JVM is PySpark's gateway process, not a child the workbench waits for, so the
    workbench's own peak RSS does not include it."""
    try:
        pid = spark.sparkContext._gateway.proc.pid
        with open("/proc/%d/status" % pid, encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except Exception:  # noqa: BLE001 - a figure, never a failure
        pass
    return 0.0


def main():
    plan_path, out = sys.argv[1], sys.argv[2]
    master = sys.argv[3] if len(sys.argv) > 3 else "local[2]"
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    t0 = time.time()
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .appName("tianwang-" + plan["name"])
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", os.environ.get("TIANWANG_SPARK_PARTITIONS", "4"))
        .config("spark.driver.memory", os.environ.get("TIANWANG_SPARK_DRIVER_MEMORY", "2g"))
        .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    # On a cluster an executor may die mid-job; a local checkpoint lives in the executors and
    # would die with it, so tables are checkpointed reliably to a folder the driver and the
    # executors share (beside the outputs) and Spark re-runs the lost tasks from there.
    cluster = master.startswith("spark://")
    ckpt = os.path.join(os.path.abspath(out), ".checkpoints")
    if cluster:
        spark.sparkContext.setCheckpointDir(ckpt)

    def materialise(df):
        return df.checkpoint(eager=True) if cluster else df.localCheckpoint(eager=True)
    report = {"engine": "spark", "deltas": [], "steps": [], "total_s": 0.0, "spilled_bytes": 0}

    def say(p, msg):
        print(json.dumps({"progress": p, "message": msg}), flush=True)

    for inp in plan["inputs"]:
        spark.read.parquet(inp["path"]).createOrReplaceTempView(inp["name"])

    def run(step):
        t = time.time()
        op = step["op"]
        if op == "view":
            spark.sql(step["sql"]).createOrReplaceTempView(step["name"])
        elif op == "table":
            materialise(spark.sql(step["sql"])).createOrReplaceTempView(step["name"])
            report["steps"].append([step["name"], time.time() - t])
        elif op == "output":
            spark.sql(step["sql"]).write.mode("overwrite").parquet(os.path.join(out, step["name"]))
            report["steps"].append([step["name"], time.time() - t])
        elif op == "loop":
            for it in range(step["max_iter"]):
                say(0.5, "iteration %d" % (it + 1))
                for s in step["body"]:
                    run(s)
                row = spark.sql(step["delta_sql"]).collect()
                if not row or row[0][0] is None:
                    raise RuntimeError("the delta query returned no number")
                delta = float(row[0][0])
                materialise(spark.sql("SELECT * FROM " + step["next"])) \
                    .createOrReplaceTempView(step["state"])
                report["deltas"].append(delta)
                if delta < step["tol"]:
                    break
            report["steps"].append(["loop", time.time() - t])
        else:
            raise ValueError("unknown step " + op)

    n = max(1, len(plan["steps"]))
    for i, step in enumerate(plan["steps"]):
        say(i / n, "%s: step %d" % (plan["name"], i + 1))
        run(step)
    report["engine_peak_rss_mb"] = jvm_peak_rss_mb(spark)
    spark.stop()
    if cluster:
        shutil.rmtree(ckpt, ignore_errors=True)
    report["total_s"] = time.time() - t0
    with open(os.path.join(out, "report.json.tmp"), "w", encoding="utf-8") as f:
        json.dump(report, f)
    os.replace(os.path.join(out, "report.json.tmp"), os.path.join(out, "report.json"))


if __name__ == "__main__":
    main()
