#!/usr/bin/env bash
# The big jobs' cross-engine checks: build the `bigjobs` feature (DataFusion, Parquet, the Spark
# glue) in the dev profile, make the PySpark venv (scale/setup.sh; Java 17 on PATH), and run
# every test that compares native, DataFusion and Spark (local[2], or a standalone cluster with
# --cluster) — Spark required, so a missing Spark fails instead of skipping — and the GUI tests
# of the engine choice.
#
#   scale/check.sh            # what README shows; `.ci/run` calls it when TIANWANG_CI_BIGJOBS=1
#   scale/check.sh --cluster spark://127.0.0.1:7077   # the Spark cases on that cluster (see
#                             # scale/cluster.sh), plus the cluster-only tests: an executor
#                             # killed mid-job, a master that is gone
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
cluster=""
case "${1:-}" in
    "") ;;
    --cluster)
        cluster="${2:-}"
        [[ "$cluster" == spark://* ]] || { echo "scale/check.sh: --cluster needs a spark://host:port URL" >&2; exit 2; }
        ;;
    *) echo "usage: scale/check.sh [--cluster spark://host:port]" >&2; exit 2 ;;
esac
py=$(scale/setup.sh | tail -1)
export TIANWANG_SPARK_PYTHON="$py"
export TIANWANG_REQUIRE_SPARK=1
harness=()
if [ -n "$cluster" ]; then
    export TIANWANG_SPARK_CLUSTER="$cluster"
    # The executor-loss test kills an executor of this cluster's first worker.
    export TIANWANG_CLUSTER_DIR="${TIANWANG_CLUSTER_DIR:-$HOME/.cache/tianwang/cluster}"
    # One Spark application at a time: the cluster has two cores, and the executor-loss test
    # must kill an executor of its own application.
    harness=(-- --test-threads=1)
else
    unset TIANWANG_SPARK_CLUSTER
    # Named, not silent: these need --cluster (and fail without one when run by hand).
    echo "scale/check.sh: the cluster-only tests (cluster_only_*) run with --cluster URL" >&2
    harness=(-- --skip cluster_only_)
fi
tests=()
# The cross-engine tests and the panels' engine choice (kittest; Mesa as for `cargo test`).
for t in tests/bigjobs_*.rs tests/gui_bigjobs.rs; do
    tests+=(--test "$(basename "$t" .rs)")
done
# The library's own tests of the modules the feature changes (the engines' drivers and the four
# jobs' feature-gated paths), then the cross-engine integration tests.
cargo test --locked --features bigjobs --lib -- engine::exec:: engine::dedup:: engine::index:: \
    engine::querylog:: engine::rank:: workbench:: cli::
cargo test --locked --features bigjobs "${tests[@]}" "${harness[@]}"
echo "scale/check.sh: passed${cluster:+ on $cluster} in $(( $(date +%s) - start )) s"
