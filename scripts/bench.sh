#!/bin/sh
# weft's speed on gzip 1.12 against tree-sitter's raw parse of the same
# files: front end, no-op and instrumenting weaves, the five passes.
# Release build; median and minimum of WEFT_BENCH_RUNS runs (default 7).
# Usage: scripts/bench.sh   (from the repository root)
set -eu
cd "$(dirname "$0")/.."
scripts/fetch-gzip.sh
exec nice cargo bench --bench speed
