#!/usr/bin/env bash
# The whole test suite: fetches gzip 1.12 (needed by the real-program tests)
# and runs every test. Usage: scripts/test.sh [extra cargo test args]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-gzip.sh
cargo test "$@"
