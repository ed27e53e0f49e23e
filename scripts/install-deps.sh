#!/usr/bin/env bash
# Installs the Debian packages weft's tests need beyond Rust, gcc, make and
# python3: Java 17 (Daikon, run by tests/invariants_daikon.rs), GNU
# parallel (the distributed-study test), patch (fault patches of studies),
# z3 (the SMT solver of weft-smt and `weft nonterm analyse`),
# universal-ctags (the independent count of scripts/bench-generality.sh) and
# afl++ (afl-fuzz: `weft triage --fuzz`, tested by tests/triage_fuzz.rs; AFL++ choosing SV-COMP inputs, tests/nonterm_draws.rs).
# Installs only what is missing; needs root (apt-get)
# only then. scripts/test.sh runs it first.
set -euo pipefail

# command name -> Debian package
declare -A needed=([java]=openjdk-17-jre-headless [parallel]=parallel [patch]=patch [z3]=z3 [ctags]=universal-ctags [afl-fuzz]=afl++)

missing=()
for tool in "${!needed[@]}"; do
  command -v "$tool" >/dev/null || missing+=("${needed[$tool]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]} with apt-get" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: ${missing[*]} missing, and installing needs root: sudo $0" >&2
  exit 1
fi
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
