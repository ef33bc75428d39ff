#!/usr/bin/env bash
# The big jobs' cross-engine checks: build the `bigjobs` feature (DataFusion, Parquet, the Spark
# glue) in the dev profile, make the PySpark venv (scale/setup.sh; Java 17 on PATH), and run
# every test that compares native, DataFusion and Spark (local[2]) — Spark required, so a
# missing Spark fails instead of skipping — and the GUI tests of the engine choice.
#
#   scale/check.sh            # what README shows; `.ci/run` calls it when TIANWANG_CI_BIGJOBS=1
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
py=$(scale/setup.sh | tail -1)
export TIANWANG_SPARK_PYTHON="$py"
export TIANWANG_REQUIRE_SPARK=1
tests=()
# The cross-engine tests and the panels' engine choice (kittest; Mesa as for `cargo test`).
for t in tests/bigjobs_*.rs tests/gui_bigjobs.rs; do
    tests+=(--test "$(basename "$t" .rs)")
done
cargo test --locked --features bigjobs --lib bigjobs
cargo test --locked --features bigjobs "${tests[@]}"
echo "scale/check.sh: passed in $(( $(date +%s) - start )) s"
