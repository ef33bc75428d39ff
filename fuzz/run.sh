#!/usr/bin/env bash
# Fuzz every parser for N seconds each (default 600): the stable-toolchain mutation fuzzer in
# tests/fuzz.rs, built with optimisations. Crashes and hangs land in fuzz/crashes/; move a
# crash into fuzz/regressions/<target>/ (named after what it found) once it is fixed.
# Usage: fuzz/run.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
export TIANWANG_FUZZ_SECS="$secs"
# One target at a time, so each gets the machine; the output names executions per target.
cargo test --release --locked --test fuzz -- --test-threads=1 --nocapture 2>&1 \
  | grep -E '^fuzz |^test |test result|HANG|crashed|saved to'
