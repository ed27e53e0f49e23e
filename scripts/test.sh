#!/usr/bin/env bash
# The whole test suite, on a fresh machine with Rust, gcc, make and python3:
# installs the tools the tests need (scripts/install-deps.sh; root), fetches
# gzip 1.12 and dcraw 9.28 (needed by the real-program tests), runs every
# test, then the slow real-program checks that are kept out of a plain
# `cargo test`: gzip rebuilt with its own ./configure && make and its own
# `make check` after weft's transformations, the six range monitoring
# strategies woven into gzip (tests/strategies_gzip.rs), the outputs monitor woven into gzip
# (tests/outputs_gzip.rs), the gzip patch-triage example, whose meta
# program must answer every test as each patch built alone does
# (tests/triage_gzip.rs), a reduced gzip fault study whose tables must
# equal those of the harness before the study database
# (tests/experiment_tables.rs), and the real hang of dcraw 9.28
# (CVE-2018-5813) reported by the non-termination monitor
# (tests/nonterm_dcraw.rs).
# Usage: scripts/test.sh [extra cargo test args for the first run]
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "test.sh: $*" >&2; }
step "tools the tests need"
scripts/install-deps.sh
step "gzip 1.12 sources"
scripts/fetch-gzip.sh
step "dcraw 9.28 sources"
scripts/fetch-debian-source.sh dcraw 9.28-3 dcraw.c third_party/dcraw-9.28
step "the test suite (cargo test)"
cargo test "$@"
step "gzip built and checked with its own make check after the passes, under each strategy and with the outputs monitor; the gzip patch-triage example; the reduced gzip study's tables; dcraw's hang; AFL++ choosing an SV-COMP program's inputs (a few minutes)"
cargo test --test transform_gzip --test strategies_gzip --test outputs_gzip --test triage_gzip --test experiment_tables --test nonterm_dcraw --test nonterm_draws -- --ignored
