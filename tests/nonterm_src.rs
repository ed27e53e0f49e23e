//! Static recurrence conditions (weft-loops, `weft nonterm analyse`) on
//! the non-termination corpus: every SRC found is re-checked by the
//! solver against the whole loop; every SRC under bit-vectors is woven as
//! `if (SRC) { report; abort }`, built and run: it must fire on no
//! terminating twin, and the corpus programs where it fires are counted
//! per bug class. The corpus woven by aspects/nonterm.lara with its SRC
//! checks on fires on the same programs, through the monitor's records.
//! Needs z3 (scripts/install-deps.sh).

mod corpus_support;
mod program_support;
mod weft_support;
use corpus_support::{corpus, corpus_dir};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use rayon::prelude::*;
use weft::monitor::nonterm::Verdict;
use weft::monitor::nonterm::read_reports;
use weft::monitor::nonterm::record::FORMAT;
use weft_loops::{Outcome, Semantics, infer, loops, verify, weave_checks};
use weft_smt::Solver;

fn solver() -> Solver {
    Solver::find(None, Duration::from_secs(10)).expect("an SMT solver: scripts/install-deps.sh installs z3")
}

const REPORT: &str = "loop does not terminate: SRC";

/// What one file gave: loops in the fragment, SRCs per semantics, and the
/// file woven with its bit-vector SRC checks.
struct Analysed {
    in_fragment: usize,
    ideal: usize,
    bitvector: usize,
    woven: String,
}

fn analyse(path: &Path, solver: &Solver) -> Analysed {
    let text = std::fs::read_to_string(path).unwrap();
    let all = loops(path, &text);
    let mut a = Analysed {
        in_fragment: 0,
        ideal: 0,
        bitvector: 0,
        woven: String::new(),
    };
    let mut checks = Vec::new();
    for l in &all {
        let Ok(f) = &l.fragment else { continue };
        a.in_fragment += 1;
        for sem in [Semantics::Ideal, Semantics::BitVector] {
            let Outcome::Found(src) = infer(f, sem, solver).unwrap() else {
                continue;
            };
            assert_eq!(
                verify(f, &src, solver),
                Ok(true),
                "{}:{}: SRC {} under {} does not re-verify",
                path.display(),
                l.line,
                src.c(),
                sem.name()
            );
            match sem {
                Semantics::Ideal => a.ideal += 1,
                Semantics::BitVector => {
                    a.bitvector += 1;
                    checks.push((l, src.c()));
                }
            }
        }
    }
    a.woven = weave_checks(&text, &path.display().to_string(), &checks);
    a
}

/// Builds and runs a woven file with `arg`; its standard error. A run
/// still going after 5 s is killed.
fn build_and_run(dir: &Path, name: &str, text: &str, arg: &str) -> String {
    let source = dir.join(format!("{name}.c"));
    std::fs::write(&source, text).unwrap();
    build_and_run_file(&source, &dir.join(name), arg, &[])
}

/// Builds `source` into `exe` and runs it with `arg` and `env`; its
/// standard error. A run still going after 5 s is killed.
fn build_and_run_file(source: &Path, exe: &Path, arg: &str, env: &[(&str, &Path)]) -> String {
    program_support::gcc(&["-std=gnu99", "-O0", "-w"], source, exe);
    let out = Command::new("timeout")
        .args(["-s", "KILL", "5"])
        .arg(exe)
        .arg(arg)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The corpus woven by aspects/nonterm.lara with its bit-vector SRC
/// checks on, in `dir/woven/corpus` (the input directory mirrored).
fn weave_corpus_with_the_aspect(dir: &Path) -> PathBuf {
    let woven = dir.join("woven");
    let stdout = weft_support::weave("nonterm.lara", &["--arg", "src=bitvector"], &woven, &corpus_dir());
    assert!(stdout.contains("recurrence conditions checked: "), "{stdout}");
    woven.join("corpus")
}

/// Builds and runs a corpus file woven by the aspect: the verdicts of
/// the reports its run left.
fn aspect_verdicts(woven: &Path, dir: &Path, name: &str, arg: &str) -> Vec<Verdict> {
    let out = dir.join(format!("{name}.out"));
    let source = woven.join(format!("{name}.c"));
    build_and_run_file(
        &source,
        &dir.join(format!("{name}.aspect")),
        arg,
        &[("WEFT_OUT", &out)],
    );
    if !out.exists() {
        return Vec::new();
    }
    FORMAT
        .files_in(&out)
        .unwrap()
        .iter()
        .flat_map(|f| read_reports(f).unwrap_or_else(|e| panic!("{e}")).reports)
        .map(|r| r.verdict)
        .collect()
}

#[test]
fn recurrence_conditions_on_the_corpus() {
    let corpus = corpus();
    let solver = solver();
    let dir = tempfile::tempdir().unwrap();
    let woven = weave_corpus_with_the_aspect(dir.path());
    struct Row {
        class: String,
        bug: Analysed,
        twin: Analysed,
        fired: bool,
        twin_fired: bool,
        /// The verdicts of the reports of the bug and the twin woven by
        /// the aspect.
        aspect: Vec<Verdict>,
        twin_aspect: Vec<Verdict>,
    }
    let rows: Vec<Row> = corpus
        .program
        .par_iter()
        .map(|p| {
            let bug = analyse(&corpus_dir().join(format!("{}.c", p.name)), &solver);
            let twin = analyse(&corpus_dir().join(format!("{}.twin.c", p.name)), &solver);
            let twin_fired =
                build_and_run(dir.path(), &format!("{}.twin", p.name), &twin.woven, &p.arg).contains(REPORT);
            let fired =
                bug.bitvector > 0 && build_and_run(dir.path(), &p.name, &bug.woven, &p.arg).contains(REPORT);
            Row {
                class: p.class.clone(),
                bug,
                twin,
                fired,
                twin_fired,
                aspect: aspect_verdicts(&woven, dir.path(), &p.name, &p.arg),
                twin_aspect: aspect_verdicts(&woven, dir.path(), &format!("{}.twin", p.name), &p.arg),
            }
        })
        .collect();

    let fired_twins: Vec<&str> = corpus
        .program
        .iter()
        .zip(&rows)
        .filter(|(_, r)| r.twin_fired)
        .map(|(p, _)| p.name.as_str())
        .collect();
    assert!(
        fired_twins.is_empty(),
        "an SRC check fired on terminating twins: {fired_twins:?}"
    );
    // Woven through the aspect, the same checks fire, reported in the
    // monitor's records: on the same programs, and on no twin (which the
    // revisit monitor does not report either).
    for (p, r) in corpus.program.iter().zip(&rows) {
        assert_eq!(
            r.aspect.contains(&Verdict::Recurrence),
            r.fired,
            "{}: the aspect's SRC check and --weave's disagree ({:?})",
            p.name,
            r.aspect
        );
        assert!(
            r.twin_aspect.is_empty(),
            "{}.twin reported: {:?}",
            p.name,
            r.twin_aspect
        );
    }

    let mut by_class: BTreeMap<&str, [usize; 6]> = BTreeMap::new();
    for r in &rows {
        let e = by_class.entry(&r.class).or_default();
        e[0] += 1;
        e[1] += usize::from(r.bug.in_fragment > 0);
        e[2] += usize::from(r.bug.ideal > 0);
        e[3] += usize::from(r.bug.bitvector > 0);
        e[4] += usize::from(r.fired);
        e[5] += usize::from(r.twin.bitvector > 0);
    }
    println!(
        "class: programs, with a loop in the fragment, SRC ideal, SRC bit-vector, check fired, twins with a static SRC"
    );
    for (class, n) in &by_class {
        println!("{class}: {n:?}");
    }
    let total = |i: usize| by_class.values().map(|n| n[i]).sum::<usize>();
    println!(
        "total: {} programs, {} in the fragment, {} ideal, {} bit-vector, {} fired, 0 twin checks fired ({} twins have a static SRC their runs never reach)",
        total(0),
        total(1),
        total(2),
        total(3),
        total(4),
        total(5)
    );
    // Measured when written: 33 programs with a bit-vector SRC, 29 of them
    // firing on the corpus argument (the other four, all cyclic-state,
    // have an SRC their runs never reach); 5 of the cyclic-state ones fire
    // (a rotation through a permuting path, a retry counter through the
    // boundary of its test among them); 6 of the 7 read-eof ones, analysed
    // at end of file. A drop is a regression.
    assert!(total(3) >= 33, "bit-vector SRCs: {}", total(3));
    assert!(total(4) >= 29, "checks fired: {}", total(4));
    assert!(
        by_class["read-eof"][4] >= 6,
        "read-eof fired: {:?}",
        by_class["read-eof"]
    );
    assert!(
        by_class["cyclic-state"][4] >= 5,
        "cyclic-state fired: {:?}",
        by_class["cyclic-state"]
    );
    for class in [
        "missing-update",
        "adding-zero",
        "unsigned-wrap",
        "signed-overflow",
        "read-eof",
    ] {
        assert!(by_class[class][4] > 0, "no SRC check fired in class {class}");
    }
}

/// `weft nonterm analyse ARGS…`.
fn nonterm_analyse(args: &[&str]) -> std::process::Output {
    weft_support::weft(["nonterm", "analyse"].iter().chain(args))
}

/// `weft nonterm analyse --semantics SEMANTICS --weave WOVEN SOURCE`.
fn weave_checks_into(woven: &Path, semantics: &str, source: &Path) -> std::process::Output {
    nonterm_analyse(&[
        "--semantics",
        semantics,
        "--weave",
        woven.to_str().unwrap(),
        source.to_str().unwrap(),
    ])
}

/// grow.c in `dir`: a loop that never ends over ideal integers, and whose
/// state never repeats.
fn grow_c(dir: &Path) -> PathBuf {
    let source = dir.join("grow.c");
    std::fs::write(
        &source,
        "int main(void)\n{\n    long long x = 1;\n    while (x > 0)\n        x = x + 1;\n    return 0;\n}\n",
    )
    .unwrap();
    source
}

#[test]
fn a_loop_that_grows_without_repeating_has_an_src_over_ideal_integers_only() {
    // As grow.c of tests/nonterm_check.rs, where revisit monitoring sees
    // this hang only as a timeout (its state never repeats); without
    // `volatile`, which puts a variable outside the fragment.
    let dir = tempfile::tempdir().unwrap();
    let source = grow_c(dir.path());
    let (text, _) = weft_support::exited(&nonterm_analyse(&[source.to_str().unwrap()]), 0);
    assert!(
        text.contains("grow.c:4: while loop: SRC under ideal integers: x > 0"),
        "{text}"
    );
    assert!(
        text.contains("grow.c:4: while loop: no SRC under bit-vectors at the types' widths"),
        "{text}"
    );
    // The machine leaves it only through signed overflow.
    assert!(
        text.contains(
            "grow.c:4: while loop: from x > 0 it never ends unless a signed integer overflows (undefined behaviour)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "1 loops, 1 in the integer fragment, 1 with an SRC under ideal integers, 0 with an SRC"
        ),
        "{text}"
    );

    let woven = dir.path().join("woven");
    let out = weave_checks_into(&woven, "ideal", &source);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(woven.join("grow.c")).unwrap();
    let err = build_and_run(dir.path(), "grow", &text, "");
    assert!(
        err.contains(&format!("{}:4: {REPORT} (x > 0) holds", source.display())),
        "{err}"
    );
}

#[test]
fn files_are_parsed_with_the_macros_of_their_headers() {
    // `local` is a macro of the header beside the file (gzip's own style):
    // read without it, `local int heap_len;` declares nothing and the loop
    // is outside the fragment ("heap_len is not declared"). `STOP`, the
    // header's constant, is read as its value.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.h"),
        "#define local static\n#define STOP (2 - 2)\n",
    )
    .unwrap();
    let source = dir.path().join("t.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\n#include \"t.h\"\nlocal int heap_len;\nint main(int argc, char **argv)\n{\n    heap_len = atoi(argv[1]);\n    while (heap_len != STOP) {\n        heap_len -= 2;\n    }\n    return heap_len;\n}\n",
    )
    .unwrap();
    let woven = dir.path().join("woven");
    let (text, _) = weft_support::exited(&weave_checks_into(&woven, "bitvector", &source), 0);
    assert!(
        text.contains(
            "t.c:7: while loop: SRC under bit-vectors at the types' widths: (heap_len != (2 - 2)) && "
        ),
        "{text}"
    );
    std::fs::copy(dir.path().join("t.h"), woven.join("t.h")).unwrap();
    let exe = dir.path().join("t");
    let err = build_and_run_file(&woven.join("t.c"), &exe, "3", &[]);
    assert!(err.contains(&format!("t.c:7: {REPORT}")), "{err}");
    let err = build_and_run_file(&woven.join("t.c"), &exe, "4", &[]);
    assert_eq!(err, "", "an even start ends");
}

#[test]
fn nonterm_check_reports_a_loop_whose_recurrence_condition_holds() {
    // grow.c again: the revisit monitor alone sees a timeout; with the
    // ideal-integer SRC woven by the aspect, the monitor reports the loop
    // at its first iteration, in its own records, by its policy.
    let dir = tempfile::tempdir().unwrap();
    let source = grow_c(dir.path());
    let check = |extra: &[&str]| {
        weft_support::command()
            .args(["nonterm", "check"])
            .args(extra)
            .arg(&source)
            .output()
            .unwrap()
    };
    let (text, _) = weft_support::exited(&check(&["--src", "ideal", "--timeout", "2"]), 1);
    assert!(text.contains("recurrence condition: grow.c:4: x > 0"), "{text}");
    assert!(
        text.contains("grow.c:4: loop in main does not terminate: its recurrence condition x > 0 holds at iteration 1 (x = 1)"),
        "{text}"
    );
    // The variables the condition reads join the state with src on, so
    // the witness holds them even when the loop never writes them.
    let out = weft_support::command()
        .args(["nonterm", "check", "--src", "bitvector"])
        .arg(corpus_dir().join("missing_update_while.c"))
        .args(["--", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("its recurrence condition i < n holds at iteration 1 (i = 0, n = 5)"),
        "{text}"
    );
    // Over bit-vectors x wraps: no SRC, so nothing is checked.
    let out = check(&["--src", "bitvector", "--timeout", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("recurrence conditions checked: 0 loops"), "{text}");
}

#[test]
fn weaving_src_checks_without_a_solver_is_exit_status_two() {
    let dir = tempfile::tempdir().unwrap();
    let aspect = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/nonterm.lara");
    let weave = |src: &str| {
        weft_support::command()
            .args(["weave", "--aspect"])
            .arg(&aspect)
            .args(["--arg", src, "--output"])
            .arg(dir.path().join(src))
            .arg(corpus_dir().join("missing_update_while.c"))
            .env("PATH", "/nonexistent")
            .output()
            .unwrap()
    };
    let (_, err) = weft_support::exited(&weave("src=bitvector"), 2);
    assert!(
        err.contains("no SMT solver found") && err.contains("`src`"),
        "{err}"
    );
    // Without src checks, no solver is looked for.
    assert_eq!(weave("src=off").status.code(), Some(0));
}

#[test]
fn shifting_paths_get_their_weakest_src_and_it_fires_exactly_on_the_starts_that_never_end() {
    // x shifted right never meets y unless y is on its way to 0: 8 never
    // meets 3 but meets 2. A signed x shifted left reaches 0 within 32
    // rounds: from -1 it stays below 100 forever; from 3 it passes 100.
    // Sign candidates alone would miss 8/3 and -1.
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("shifts.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\n\
         unsigned meet(unsigned x, unsigned y)\n{\n    while (x != y)\n        x >>= 1;\n    return x;\n}\n\
         int pass(int x)\n{\n    while (x < 100)\n        x <<= 1;\n    return x;\n}\n\
         int main(int argc, char **argv)\n{\n    int a = atoi(argv[1]), b = atoi(argv[2]);\n    \
         return argc > 3 ? pass(a) > 0 : (int)meet(a, b);\n}\n",
    )
    .unwrap();
    let woven = dir.path().join("woven");
    let out = weave_checks_into(&woven, "bitvector", &source);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("shifts.c:4: while loop: SRC under bit-vectors at the types' widths: (x != y) && (((unsigned int)(x >> 1)) != y)"), "{text}");
    assert!(
        text.contains("[shifting path, unrolled to the fixpoint]"),
        "{text}"
    );
    assert!(text.contains("shifts.c:10: while loop: SRC under bit-vectors at the types' widths: (x < 100) && (((int)(((unsigned int)x) << 1)) < 100)"), "{text}");
    let exe = dir.path().join("shifts");
    program_support::gcc(&["-O1", "-w"], &woven.join("shifts.c"), &exe);
    let fires = |args: &[&str]| {
        let out = Command::new("timeout")
            .args(["-s", "KILL", "5"])
            .arg(&exe)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).contains(REPORT)
    };
    assert!(fires(&["8", "3"]));
    assert!(!fires(&["8", "2"]));
    assert!(fires(&["-1", "0", "pass"]));
    assert!(!fires(&["3", "0", "pass"]));
}

#[test]
fn json_output_and_loops_outside_the_fragment() {
    let file = corpus_dir().join("scan_skip_spaces.c");
    let out = nonterm_analyse(&["--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["fragment"], false);
    assert_eq!(line["outside"], "p is a pointer");
    let file = corpus_dir().join("missing_update_while.c");
    let out = nonterm_analyse(&["--json", "--semantics", "bitvector", file.to_str().unwrap()]);
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["results"][0]["src"], "i < n");
    assert_eq!(line["results"][0]["semantics"], "bitvector");
    assert_eq!(line["results"][0]["stuck"], true);
}

#[test]
fn bad_input_and_missing_solver_are_exit_status_two() {
    let out = nonterm_analyse(&["/nonexistent/missing.c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.c"));
    let file = corpus_dir().join("missing_update_while.c");
    let out = weft_support::command()
        .args(["nonterm", "analyse", file.to_str().unwrap()])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no SMT solver found"),
        "{out:?}"
    );
}

/// read_short_pipe.c with its result variable set to 0 before the loop:
/// the check trusts `got == 0` only once a round has read into it, so a
/// run whose first read fills the request ends with its plain output and
/// no report, and one that meets end of file first is reported.
#[test]
fn a_read_result_is_trusted_only_after_a_round() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(corpus_dir().join("read_short_pipe.c"))
        .unwrap()
        .replace("long have = 0, got;", "long have = 0, got = 0;");
    assert!(text.contains("got = 0;"));
    let source = dir.path().join("read_zero.c");
    std::fs::write(&source, &text).unwrap();
    let a = analyse(&source, &solver());
    assert_eq!(a.bitvector, 1);
    assert!(a.woven.contains("weft_round > 1 && got == 0"), "{}", a.woven);
    let woven = dir.path().join("woven.c");
    std::fs::write(&woven, &a.woven).unwrap();
    let run = |exe: &Path, arg: &str| {
        let out = Command::new("timeout")
            .args(["-s", "KILL", "5"])
            .arg(exe)
            .arg(arg)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let build = |src: &Path, exe: &Path| program_support::gcc(&["-std=gnu99", "-O0", "-w"], src, exe);
    build(&woven, &dir.path().join("woven"));
    build(&source, &dir.path().join("plain"));
    // want = 4: the first read returns the 5 bytes there are.
    let (ok, stdout, stderr) = run(&dir.path().join("woven"), "1");
    assert!(ok && !stderr.contains(REPORT), "{stderr}");
    assert_eq!(
        (stdout.as_str(), true),
        (run(&dir.path().join("plain"), "1").1.as_str(), true)
    );
    assert_eq!(stdout, "5\n");
    // want = 20: the second read meets end of file, the third round reports.
    let (ok, _, stderr) = run(&dir.path().join("woven"), "5");
    assert!(!ok && stderr.contains(REPORT), "{stderr}");
}

#[test]
fn a_goto_loop_gets_the_src_the_monitor_weaves_into_its_for_loop() {
    // `again:` goes round while x > 0: forever from y == 0 (argument h),
    // down to 0 from y == -1 (argument t).
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("spin.c");
    std::fs::write(
        &source,
        "int main(int argc, char **argv)\n{\n    int x = 5, y = argc > 1 && argv[1][0] == 'h' ? 0 : -1;\n\nagain: x = x + y;\n    if (x > 0)\n        goto again;\n    return 0;\n}\n",
    )
    .unwrap();
    let src = "(((int)(x + y)) > 0) && (y == 0)";
    let out = nonterm_analyse(&["--semantics", "bitvector", source.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "spin.c:5: goto loop: SRC under bit-vectors at the types' widths: {src}"
        )),
        "{text}"
    );
    // Woven by analyse right after the label: it fires on the hang only.
    let woven = dir.path().join("woven");
    assert_eq!(
        weave_checks_into(&woven, "bitvector", &source).status.code(),
        Some(0)
    );
    let text = std::fs::read_to_string(woven.join("spin.c")).unwrap();
    let err = build_and_run(dir.path(), "checked", &text, "h");
    assert!(err.contains(&format!(":5: {REPORT} ({src}) holds")), "{err}");
    assert!(!build_and_run(dir.path(), "checked", &text, "t").contains(REPORT));
    // `check` makes it a `for (;;)` on the same line, whose `src` is the same.
    let check = |arg: &[&str]| {
        weft_support::command()
            .args(["nonterm", "check", "--src", "bitvector", "--timeout", "5"])
            .arg(&source)
            .arg("--")
            .args(arg)
            .output()
            .unwrap()
    };
    let (text, _) = weft_support::exited(&check(&["h"]), 1);
    assert!(
        text.contains(&format!("recurrence condition: spin.c:5: {src}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("its recurrence condition {src} holds at iteration 1")),
        "{text}"
    );
    let out = check(&["t"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
