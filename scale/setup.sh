#!/usr/bin/env bash
# The Spark side of the big jobs: a venv with PySpark (Java 17 must be on PATH: OpenJDK from
# Debian's packages). Idempotent. Last line of stdout: the venv's python, which the workbench
# finds by itself at this default place (or by TIANWANG_SPARK_PYTHON).
set -euo pipefail
venv="${TIANWANG_SPARK_VENV:-$HOME/.cache/tianwang/spark-venv}"
die() { echo "scale/setup.sh: error: $*" >&2; exit 1; }
command -v java >/dev/null || die "java not found: install openjdk-17-jre-headless"
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" >&2 || die "could not create a venv at $venv"
fi
"$venv/bin/python" -c "import pyspark" 2>/dev/null || \
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'pyspark>=4.0,<5' >&2 \
    || die "pip install pyspark failed (PyPI reachable?)"
echo "$venv/bin/python"
