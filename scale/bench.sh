#!/usr/bin/env bash
# Issue 14's scale figures: generated corpora of several sizes, fingerprinted once per size,
# grouped on each engine in its own process (so each peak RSS is that run's), then the
# crossover model fitted to the rows.
#
#   scale/bench.sh [OUT_DIR]        (env: SIZES, ENGINES, BIG, POOL_MB, TIANWANG)
#
# SIZES (default "100000 300000 1000000") run on every engine in ENGINES (default
# "native datafusion spark"); BIG (default 10000000) runs on DataFusion only, the 10 M-page
# run with peak memory under 8 GB. TIANWANG is the binary (default: a release build with the
# bigjobs feature, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/scale}"
mkdir -p "$out"
sizes="${SIZES:-100000 300000 1000000}"
engines="${ENGINES:-native datafusion spark}"
big="${BIG:-10000000}"
pool="${POOL_MB:-2048}"
if [ -z "${TIANWANG:-}" ]; then
    cargo build --release --features bigjobs --bin tianwang >&2
    TIANWANG=target/release/tianwang
fi
rows="$out/rows.jsonl"
: > "$rows"
run() { # pages engine
    local sig="$out/sig-$1"
    echo "== $1 pages on $2" >&2
    /usr/bin/time -f '%e s wall, %M KB max RSS' "$TIANWANG" bench scale --pages "$1" \
        --engine "$2" --pool-mb "$pool" --sig "$sig" --json | tr -d '\n' >> "$rows"
    echo >> "$rows"
}
for n in $sizes; do
    for e in $engines; do run "$n" "$e"; done
done
if [ "$big" != "0" ]; then
    run "$big" datafusion
fi
"$TIANWANG" bench scale --crossover "$rows" --json > "$out/crossover.json"
echo "rows: $rows; model: $out/crossover.json" >&2
