#!/bin/sh
# Weaving speed on gzip 1.12 against tree-sitter's raw parse (best of 5).
# Usage: scripts/bench-weave.sh   (from the repository root)
set -eu
exec nice cargo test --release --test weave_bench -- --ignored --nocapture
