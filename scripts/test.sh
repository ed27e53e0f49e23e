#!/usr/bin/env bash
# The whole test suite, on a fresh machine with Rust, gcc, make and python3:
# installs the tools the tests need (scripts/install-deps.sh; root), fetches
# gzip 1.12 (needed by the real-program tests), runs every test, then the
# slow real-program checks that are kept out of a plain `cargo test`: gzip
# rebuilt with its own ./configure && make and its own `make check` after
# weft's transformations, the six range monitoring strategies woven
# into gzip (tests/strategies_gzip.rs), the outputs monitor woven into gzip
# (tests/outputs_gzip.rs), the gzip patch-triage example, whose meta
# program must answer every test as each patch built alone does
# (tests/triage_gzip.rs), and a reduced gzip fault study whose tables must
# equal those of the harness before the study database
# (tests/experiment_tables.rs).
# Usage: scripts/test.sh [extra cargo test args for the first run]
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "test.sh: $*" >&2; }
step "tools the tests need"
scripts/install-deps.sh
step "gzip 1.12 sources"
scripts/fetch-gzip.sh
step "the test suite (cargo test)"
cargo test "$@"
step "gzip built and checked with its own make check after the passes, under each strategy and with the outputs monitor; the gzip patch-triage example; the reduced gzip study's tables (a few minutes)"
cargo test --test transform_gzip --test strategies_gzip --test outputs_gzip --test triage_gzip --test experiment_tables -- --ignored
