#!/usr/bin/env bash
# Check the tantivy search peer (`engine::index::peer_tantivy`, cargo feature `tantivy-peer`):
# builds tantivy 0.27 + tantivy-jieba 0.21 in release and runs tests/index_peer_tantivy.rs on
# THUCNews titles from ../shared/data. The feature is off in the default build and in CI, so the
# first run compiles tantivy and its dependencies: that takes minutes (several on 2 cores);
# later runs reuse target/release.
#
# Extra arguments go to the test binary, e.g. the full-corpus measurement (10,000 dev titles,
# 500 test-title queries, top 10):
#     bench/peers/tantivy_check.sh --ignored --nocapture
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exec cargo test --release --features tantivy-peer --test index_peer_tantivy -- "$@"
