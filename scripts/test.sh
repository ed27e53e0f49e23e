#!/usr/bin/env bash
# The whole test suite: fetches gzip 1.12 (needed by the real-program tests),
# runs every test, then the slow real-program checks that are kept out of a
# plain `cargo test`: gzip rebuilt with its own ./configure && make and its
# own `make check` after weft's transformations, and the six range
# monitoring strategies woven into gzip (tests/strategies_gzip.rs).
# Usage: scripts/test.sh [extra cargo test args for the first run]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-gzip.sh
cargo test "$@"
cargo test --test transform_gzip --test strategies_gzip -- --ignored
