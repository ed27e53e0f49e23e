#!/usr/bin/env bash
# Builds revision 0 (gzip 1.12 as released, which has the bug) and each
# patch of patches.txt applied alone to a fresh copy of it, runs gzip's
# `make check` and every command of tests.txt on each, and prints what it
# measured: make check per revision, every test's exit status and stdout
# per revision, the behaviour classes, and which tests tell each wrong
# patch (truth.txt) from the correct ones.
#
#   verify.sh PRISTINE [REV...]
#
# PRISTINE is an unconfigured gzip 1.12 tree (scripts/fetch-gzip.sh DEST).
# REVs default to 0 and every patch. Everything is written under a new
# directory made by mktemp (its path is printed; builds are removed as
# they finish, logs and results are kept). JOBS sets make's -j (default 2);
# CHECK=0 skips make check.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 PRISTINE-GZIP-1.12 [REV...]" >&2; exit 2; }
pristine=$(cd "$1" && pwd)
shift
[ -f "$pristine/gzip.c" ] && grep -q '1\.12' "$pristine/configure" \
  || { echo "verify: $pristine is not a gzip 1.12 tree" >&2; exit 2; }
[ ! -e "$pristine/Makefile" ] \
  || { echo "verify: $pristine is configured; give an unconfigured copy" >&2; exit 2; }

mapfile -t patches < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$here/patches.txt")
mapfile -t tests < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$here/tests.txt")
if [ $# -gt 0 ]; then revs=("$@"); else revs=($(seq 0 ${#patches[@]})); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gzip-triage.XXXXXX")
echo "verify: working in $work" >&2
export INPUTS="$here/inputs"
: > "$work/runs.txt"
: > "$work/checks.txt"

for rev in "${revs[@]}"; do
  tree="$work/rev$rev"
  log="$work/rev$rev.log"
  cp -a "$pristine" "$tree"
  name=original
  if [ "$rev" -gt 0 ]; then
    name=${patches[rev-1]}
    if ! patch -p1 --batch --forward -d "$tree" < "$here/$name" > "$log" 2>&1; then
      echo "$rev $name apply-failed - -" >> "$work/checks.txt"
      rm -rf "$tree"
      continue
    fi
  fi
  echo "verify: revision $rev ($name)" >&2
  if ! (cd "$tree" && ./configure -q && make -j"${JOBS:-2}") >> "$log" 2>&1; then
    echo "$rev $name build-failed - -" >> "$work/checks.txt"
    rm -rf "$tree"
    continue
  fi
  if [ "${CHECK:-1}" != 0 ]; then
    # -k: a failing check-local (round trips of gzip's own files, run
    # first) must not keep the test suite in tests/ from running.
    clog="$work/rev$rev.check.log"
    verdict=pass
    (cd "$tree" && make -k -j"${JOBS:-2}" check) > "$clog" 2>&1 || verdict=FAIL
    total=$(sed -n 's/^# TOTAL: *//p' "$clog" | head -n 1)
    pass=$(sed -n 's/^# PASS: *//p' "$clog" | head -n 1)
    failed=$( { grep -q 'check-local\] Error' "$clog" && echo check-local
                sed -n 's/^\(FAIL\|ERROR\): *//p' "$clog" | sort -u; } | tr '\n' ',' | sed 's/,$//')
    echo "$rev $name $verdict ${pass:-?}/${total:-?} ${failed:--}" >> "$work/checks.txt"
  else
    echo "$rev $name not-run - -" >> "$work/checks.txt"
  fi
  for i in "${!tests[@]}"; do
    out="$work/rev$rev.test$((i + 1))"
    rc=0
    (cd "$tree" && timeout 60 sh -c "${tests[i]}") > "$out.out" 2> "$out.err" < /dev/null || rc=$?
    echo "$rev $((i + 1)) $rc $(sha256sum < "$out.out" | cut -c1-12)" >> "$work/runs.txt"
  done
  rm -rf "$tree"
done

python3 - "$work" "$here" <<'EOF'
import itertools, sys
work, here = sys.argv[1], sys.argv[2]
tests = [l.strip() for l in open(f"{here}/tests.txt") if l.strip() and not l.strip().startswith("#")]
truth = {int(r): lab for r, lab in (l.split() for l in open(f"{here}/truth.txt") if l.strip())}
runs = {}
for line in open(f"{work}/runs.txt"):
    rev, t, rc, h = line.split()
    runs[(int(rev), int(t))] = (int(rc), h)
revs = sorted({r for r, _ in runs})

print("## make check\n")
print("| rev | patch | truth | make check | tests/ passed | failing |")
print("|---|---|---|---|---|---|")
for line in open(f"{work}/checks.txt"):
    rev, name, verdict, passed, failed = line.split()
    print(f"| {rev} | {name.split('/')[-1]} | {truth.get(int(rev), 'original')} | {verdict} | {passed} | {failed.replace(',', ', ')} |")

print("\n## tests: exit status/stdout per revision (same letter = same stdout on that test)\n")
print("| test | " + " | ".join(str(r) for r in revs) + " |")
print("|---" * (len(revs) + 1) + "|")
for t in range(1, len(tests) + 1):
    letters, cells = {}, []
    for r in revs:
        rc, h = runs[(r, t)]
        letters.setdefault(h, "abcdefghijklmnopqrstuvwxyz"[len(letters)])
        cells.append(f"{rc}{letters[h]}")
    print(f"| {t} | " + " | ".join(cells) + " |")
print()
for t, cmd in enumerate(tests, 1):
    print(f"  test {t}: {cmd}")

vec = {r: tuple(runs[(r, t)] for t in range(1, len(tests) + 1)) for r in revs}
classes = {}
for r in revs:
    classes.setdefault(vec[r], []).append(r)
print("\n## behaviour classes (identical on every test)\n")
for members in classes.values():
    print("  " + " ".join(f"{r}({truth.get(r, 'original')})" for r in members))

correct = [r for r in revs if truth.get(r) == "correct"]
wrong = [r for r in revs if truth.get(r) == "wrong"]
if correct:
    print("\n## wrong patches against the correct ones\n")
    agree = all(vec[r] == vec[correct[0]] for r in correct)
    print(f"  correct patches {' '.join(map(str, correct))} behave identically: {'yes' if agree else 'NO'}")
    right = vec[correct[0]]
    tells = {}
    for r in wrong + [r for r in revs if r not in truth]:
        tells[r] = {t for t in range(1, len(tests) + 1) if vec[r][t - 1] != right[t - 1]}
        print(f"  rev {r}: differs on tests {' '.join(map(str, sorted(tells[r]))) or 'NONE'}")
    need = [r for r in wrong]
    for k in range(1, len(tests) + 1):
        sets = [s for s in itertools.combinations(range(1, len(tests) + 1), k)
                if all(tells[r] & set(s) for r in need)]
        if sets:
            print(f"  smallest sets of tests telling every wrong patch from the correct ones: {k} tests, e.g.")
            for s in sets[:8]:
                print("    " + " ".join(map(str, s)))
            if len(sets) > 8:
                print(f"    ... {len(sets)} sets in all")
            break
    else:
        print("  some wrong patch behaves like the correct ones on every test")
EOF
echo "verify: results in $work (runs.txt, checks.txt, rev*.log)" >&2
