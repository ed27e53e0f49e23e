#!/usr/bin/env bash
# Front-end generality by an independent count: for each of a set of C
# library projects (Debian source packages), how many of the function
# definitions that ctags finds does weft understand?
#
#   scripts/bench-generality.sh [DIR]
#
# DIR (default third_party/generality) receives the sources, fetched with
# scripts/fetch-debian-source.sh (needs root and Debian's archive the first
# time; re-runs reuse them). For each project, `weft parse-health --json`
# runs on the whole tree (it learns macros from every .c and .h, and reports
# on the .c files it could read), and universal-ctags counts the function
# definitions (kind f only) of exactly the .c files weft reported on. Per
# file, the understood count is min(ctags, weft's understood), so a file
# where weft counts more functions (both branches of an #if) cannot make up
# for another. Prints a Markdown table per project (ctags, understood, %),
# then each file where weft understands fewer than ctags counts, with the
# regions weft did not understand. Set WEFT to use a built weft; otherwise
# the release build is made (release only: the figures are for a real
# build).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=${1:-$root/third_party/generality}

# package version marker (a file naming the release, for the fetch)
projects=(
  "zlib 1:1.2.13.dfsg-1 zlib.h"
  "expat 2.5.0-1+deb12u2 expat/CMakeLists.txt"
  "xz-utils 5.4.1-1+deb12u1 configure"
  "libyaml 0.2.5-1 announcement.msg"
  "apr 1.7.2-3+deb12u1 apr.spec"
  "lua5.4 5.4.4-3+deb12u1 README"
  "jansson 2.14-2 CHANGES"
  "bzip2 1.0.8-5 CHANGES"
  "lz4 1.9.4-1 NEWS"
  "libogg 1.3.5-3 configure.ac"
)

command -v ctags >/dev/null || { echo "bench-generality: ctags missing: scripts/install-deps.sh" >&2; exit 1; }
ctags --version | grep -q 'Universal Ctags' || {
  echo "bench-generality: ctags is not universal-ctags (Debian package universal-ctags)" >&2
  exit 1
}
if [ -z "${WEFT:-}" ]; then
  (cd "$root" && cargo build --release --quiet --bin weft)
  WEFT=$root/target/release/weft
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for p in "${projects[@]}"; do
  read -r package version marker <<<"$p"
  dest=$dir/$package
  "$here/fetch-debian-source.sh" "$package" "$version" "$marker" "$dest" 2>"$scratch/fetch.log" || {
    cat "$scratch/fetch.log" >&2
    exit 1
  }
  "$WEFT" parse-health --json "$dest" 2>/dev/null >"$scratch/$package.json"
  python3 -c 'import json,sys; [print(f["path"]) for f in json.load(open(sys.argv[1]))["per_file"]]' \
    "$scratch/$package.json" >"$scratch/$package.files"
  ctags --languages=C --language-force=C --kinds-C=f --fields=+n -L "$scratch/$package.files" -f - \
    >"$scratch/$package.tags"
done

python3 - "$scratch" "${projects[@]}" <<'EOF'
import collections, json, sys

scratch, projects = sys.argv[1], [p.split()[0] for p in sys.argv[2:]]
rows, misses = [], []
for package in projects:
    health = json.load(open(f"{scratch}/{package}.json"))
    counted = collections.Counter()
    for line in open(f"{scratch}/{package}.tags", encoding="utf-8", errors="replace"):
        if not line.startswith("!_"):
            counted[line.split("\t")[1]] += 1
    total = understood = 0
    for f in health["per_file"]:
        n = counted.get(f["path"], 0)
        ok = min(n, f["functions_ok"])
        total += n
        understood += ok
        if ok < n:
            misses.append((package, f, n))
    pct = 100.0 * understood / total if total else 100.0
    rows.append((package, len(health["per_file"]), total, understood, pct))

print("| project | .c files | ctags functions | understood | % |")
print("|---|---:|---:|---:|---:|")
for package, files, total, understood, pct in rows:
    print(f"| {package} | {files} | {total} | {understood} | {pct:.1f}% |")
print()
print("Files where weft understands fewer functions than ctags counts:")
for package, f, n in misses:
    print(f"{package}: {f['path']}: ctags {n}, understood {f['functions_ok']} (weft counts {f['functions']})")
    for r in f["regions"]:
        culprit = f" [{r['culprit']}]" if r["culprit"] else ""
        print(f"    line {r['line']}: {r['reason']}{culprit}")
EOF
