//! `weft nonterm check --svcomp`'s inputs and runs: the harness draws
//! among the program's own constants, keeps drawn sizes within what the
//! stack holds but in the full-range runs, tells a run that overflowed its
//! stack or failed an assertion from a crash, and spends a time budget on
//! more runs. Every program is checked with fixed seeds, so each count is
//! the same on every machine; only the budget's run count varies.

use std::path::Path;
use std::process::Command;

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use setup_support::write;
use weft_support::{text, weft, weft_prints};

/// `check --svcomp --src off --json` with `args`: the exit status, each
/// run's ending and the whole output.
fn endings(file: &str, args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let out = weft(
        [
            &["nonterm", "check", "--svcomp", "--src", "off", "--json"],
            args,
            &[file],
        ]
        .concat(),
    );
    let t = text(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{t}"));
    let endings = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ending"].as_str().unwrap().to_string())
        .collect();
    (out.status.code(), endings, t)
}

fn main_with(decls: &str, body: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <alloca.h>\nextern int __VERIFIER_nondet_int(void);\n{decls}\nint main(void)\n{{\n    int x = __VERIFIER_nondet_int();\n{body}\n    printf(\"done\\n\");\n    return 0;\n}}\n"
    )
}

#[test]
fn a_hang_at_one_of_the_programs_constants_is_drawn_and_its_twin_is_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    // Each loop hangs for one value only, which no small or wide draw
    // reaches but one in 2^16: the constant as written, negated, between
    // two constants (a neighbour), and a macro's value.
    for (name, decls, body) in [
        ("literal.c", "", "    while (x == 4321) { }"),
        ("negative.c", "", "    while (x == -4321) { }"),
        ("neighbour.c", "", "    while (x > 4321 && x < 4323) { }"),
        ("macro.c", "#define MAGIC 0x10e1", "    while (x == MAGIC) { }"),
    ] {
        let file = write(dir.path(), name, &main_with(decls, body));
        let (code, endings, t) = endings(&file, &["--runs", "1", "--budget", "60"]);
        assert_eq!(code, Some(1), "{name}: {t}");
        assert_eq!(
            endings.last().map(String::as_str),
            Some("reported"),
            "{name}: {t}"
        );
    }
    // The twin leaves the loop whatever it draws.
    let twin = write(
        dir.path(),
        "twin.c",
        &main_with("", "    while (x == 4321) { x = 0; }"),
    );
    let (code, endings, t) = endings(&twin, &["--runs", "100"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(endings.iter().all(|e| e == "ended"), "{t}");
}

#[test]
fn drawn_sizes_fit_on_the_stack_but_in_full_range_runs_where_an_overflow_is_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    // A drawn length for alloca: only the full-range runs (seeds 4 mod 5)
    // draw more than the stack holds, and those runs are said to have
    // overflowed it, not to have crashed. A drawn recursion depth with
    // 512-byte frames overflows it from 2^14 calls on, within the bounded
    // draws too: said all the same.
    let alloca = main_with(
        "",
        "    if (x < 1)\n        x = 1;\n    int *a = alloca(x * sizeof *a);\n    for (int i = 0; i < x; i++)\n        a[i] = i;\n    printf(\"%d\\n\", a[x - 1]);",
    );
    let deep = main_with(
        "static int down(int n)\n{\n    volatile char frame[512];\n    frame[0] = (char) n;\n    return n > 0 ? down(n - 1) + frame[0] : 0;\n}",
        "    printf(\"%d\\n\", down(x));",
    );
    for (name, source, full_range_only) in [("alloca.c", alloca, true), ("deep.c", deep, false)] {
        let file = write(dir.path(), name, &source);
        let (code, endings, t) = endings(&file, &["--runs", "100"]);
        assert_eq!(code, Some(0), "{name}: {t}");
        let overflowed: Vec<usize> = (0..endings.len())
            .filter(|&i| endings[i] == "overflowed the stack")
            .collect();
        assert!(!overflowed.is_empty(), "{name}: {t}");
        assert!(
            !full_range_only || overflowed.iter().all(|i| i % 5 == 4),
            "{name}: {overflowed:?}"
        );
        assert!(
            endings
                .iter()
                .all(|e| e == "ended" || e == "overflowed the stack"),
            "{name}: {t}"
        );
        let runs = (overflowed[0] + 1).to_string();
        let out = weft([
            "nonterm", "check", "--svcomp", "--src", "off", "--runs", &runs, &file,
        ]);
        assert!(
            text(&out).contains("overflowed the stack: a size (alloca, recursion depth)"),
            "{name}: {}",
            text(&out)
        );
    }
    // A wild pointer is the program's own crash.
    let wild = write(
        dir.path(),
        "wild.c",
        &main_with("", "    int *p = (int *) 16;\n    printf(\"%d\\n\", *p + x);"),
    );
    let (code, endings, t) = endings(&wild, &["--runs", "5"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(endings.iter().all(|e| e == "crashed"), "{t}");
}

#[test]
fn a_failed_assertion_is_an_abort_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    // The harness's assertion, the program's own reach_error through
    // assert.h (as SV-COMP programs define it), and abort().
    for (name, decls, body) in [
        (
            "harness.c",
            "extern void __VERIFIER_assert(int);",
            "    __VERIFIER_assert(x == 12345678);",
        ),
        (
            "own.c",
            "#include <assert.h>\nvoid reach_error(void) { assert(0); }",
            "    if (x != 12345678)\n        reach_error();",
        ),
        (
            "abort.c",
            "#include <stdlib.h>",
            "    if (x != 12345678)\n        abort();",
        ),
    ] {
        let file = write(dir.path(), name, &main_with(decls, body));
        let (code, endings, t) = endings(&file, &["--runs", "4"]);
        assert_eq!(code, Some(0), "{name}: {t}");
        assert_eq!(endings, ["aborted"; 4], "{name}: {t}");
    }
}

#[test]
fn the_budget_adds_runs_until_a_report_and_runs_alone_are_exact() {
    let dir = tempfile::tempdir().unwrap();
    let ends = write(dir.path(), "ends.c", &main_with("", "    x = x + 1;"));
    let (_, three, t) = endings(&ends, &["--runs", "3"]);
    assert_eq!(three.len(), 3, "{t}");
    let (code, many, t) = endings(&ends, &["--runs", "2", "--budget", "1"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(many.len() > 2 && many.iter().all(|e| e == "ended"), "{t}");
    // A hang for one value in a hundred: the budget's runs stop at the
    // first report, which a fixed seed gives on every machine.
    let rare = write(dir.path(), "rare.c", &main_with("", "    while (x == 9) { }"));
    let (code, runs, t) = endings(&rare, &["--runs", "1", "--budget", "60"]);
    assert_eq!(code, Some(1), "{t}");
    assert_eq!(runs.iter().filter(|e| *e == "reported").count(), 1, "{t}");
    assert_eq!(runs.last().map(String::as_str), Some("reported"), "{t}");
    let (_, exact, t) = endings(&rare, &["--runs", &runs.len().to_string()]);
    assert_eq!(exact, runs, "{t}");
    let printed = weft_prints(2, ["nonterm", "check", "--svcomp", "--budget=-1", &rare]);
    assert!(printed.contains("--budget must be"), "{printed}");
}

#[test]
fn a_run_that_timed_out_is_given_the_rest_of_the_budget_once() {
    let dir = tempfile::tempdir().unwrap();
    // A hang that starts only after 1 s (wall time, whatever the load):
    // a timeout without a report in a run of 0.5 s. Under a budget of 4 s
    // the first half makes new runs (4 of them, each timing out), the
    // second gives the first of them what is left, 2 s, within which the
    // monitor sees the loop's state come back.
    let file = write(
        dir.path(),
        "late.c",
        "#include <unistd.h>\nint main(void)\n{\n    sleep(1);\n    int x = 0;\n    while (x != 1)\n        x = (x + 2) % 4;\n    return 0;\n}\n",
    );
    let printed = weft_prints(3, ["nonterm", "check", "--src", "off", "--timeout", "0.5", &file]);
    assert!(printed.contains("1 timed out without a report"), "{printed}");
    let args = ["--timeout", "0.5", "--budget", "4"];
    let t = weft_prints(
        1,
        [&["nonterm", "check", "--src", "off"], &args[..], &[file.as_str()]].concat(),
    );
    assert!(
        t.contains("period 2 (x = ") && t.contains("first in run 0"),
        "{t}"
    );
    assert!(
        t.contains("1 reported") && t.contains("timed out without a report"),
        "{t}"
    );
}

#[test]
fn svcomp_hangs_that_need_boundary_values_are_reached_and_their_twins_are_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    let nondet = "#include <alloca.h>\nextern int __VERIFIER_nondet_int(void);\n";
    // An offset walk over a drawn array that stalls on a 0 (or cycles) and
    // a cell that sticks at -5 from -5..-1 are reported; an index that
    // must be drawn again and again within 0..9 is reported only as
    // suspected, after its patience, in a budget's second half (seconds
    // of CPU time: measured on the SV-COMP set, not here). Each twin
    // leaves its loop whatever it draws.
    let walk = |step: &str| {
        format!(
            "{nondet}int main(void)\n{{\n    int i, j, length = __VERIFIER_nondet_int();\n    if (length < 1)\n        length = 1;\n    int *arr = alloca(length * sizeof(int));\n    for (i = 0; i < length; i++)\n        arr[i] = __VERIFIER_nondet_int();\n    j = 0;\n    while (0 <= j && j < length)\n        j += {step};\n    return 0;\n}}\n"
        )
    };
    let cell = |low: &str| {
        format!(
            "{nondet}int main(void)\n{{\n    int *x = alloca(sizeof(int));\n    *x = __VERIFIER_nondet_int();\n    while (*x != 0) {{\n        if (-5 <= *x && *x <= 35) {{\n            if (*x < 0)\n                *x = {low};\n            else\n                *x = *x - 1;\n        }} else\n            *x = 0;\n    }}\n    return 0;\n}}\n"
        )
    };
    let index = |mark: &str| {
        format!(
            "{nondet}int main(void)\n{{\n    int i = __VERIFIER_nondet_int();\n    int a[10];\n    for (int n = 0; n < 10; ++n)\n        a[n] = __VERIFIER_nondet_int();\n    while (0 <= i && i < 10 && a[i] >= 0) {{\n        a[i] = {mark};\n        i = __VERIFIER_nondet_int();\n    }}\n    return 0;\n}}\n"
        )
    };
    for (name, hang, twin) in [
        ("walk", Some(walk("arr[j]")), walk("arr[j] > 0 ? arr[j] : 1")),
        ("cell", Some(cell("-5")), cell("*x + 1")),
        ("index", None, index("-1")),
    ] {
        if let Some(hang) = hang {
            let file = write(dir.path(), &format!("{name}.c"), &hang);
            let (code, _, t) = endings(&file, &["--runs", "1", "--budget", "60"]);
            assert_eq!(code, Some(1), "{name}: {t}");
        }
        let file = write(dir.path(), &format!("{name}_twin.c"), &twin);
        let (code, endings, t) = endings(&file, &["--runs", "60"]);
        assert_eq!(code, Some(0), "{name} twin: {t}");
        assert!(!endings.iter().any(|e| e == "reported"), "{name} twin: {t}");
    }
}

/// Builds `source` with the SV-COMP harness alone (no monitor) into
/// `dir/program`.
fn build_with_harness(dir: &Path, source: &str) -> std::path::PathBuf {
    let program = dir.join("program");
    let c = write(dir, "program.c", source);
    let harness = write(dir, "harness.c", weft::monitor::nonterm::harness::SVCOMP_HARNESS);
    let out = Command::new("cc")
        .args(["-w", "-o"])
        .arg(&program)
        .args([&c, &harness])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    program
}

#[test]
fn the_input_file_gives_the_values_in_order_little_endian_then_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let program = build_with_harness(
        dir.path(),
        "#include <stdio.h>\nint __VERIFIER_nondet_int(void); char __VERIFIER_nondet_char(void);\n\
         short __VERIFIER_nondet_short(void); long long __VERIFIER_nondet_longlong(void);\n\
         _Bool __VERIFIER_nondet_bool(void); double __VERIFIER_nondet_double(void);\n\
         int main(void) {\n\
             printf(\"%d \", __VERIFIER_nondet_int()); printf(\"%d \", __VERIFIER_nondet_char());\n\
             printf(\"%d \", __VERIFIER_nondet_short()); printf(\"%lld \", __VERIFIER_nondet_longlong());\n\
             printf(\"%d \", __VERIFIER_nondet_bool()); printf(\"%g \", __VERIFIER_nondet_double());\n\
             printf(\"%d \", __VERIFIER_nondet_int()); printf(\"%d\\n\", __VERIFIER_nondet_bool());\n\
             return 0;\n}\n",
    );
    let mut bytes = (-7i32).to_le_bytes().to_vec();
    bytes.push(65);
    bytes.extend(300i16.to_le_bytes());
    bytes.extend((-(1i64 << 40)).to_le_bytes());
    bytes.push(3);
    bytes.extend(2.5f64.to_le_bytes());
    bytes.extend([9, 1]); // an int cut short: 0x0109, then nothing
    let input = dir.path().join("input");
    std::fs::write(&input, &bytes).unwrap();
    let run = |variable: &str, stdin: std::fs::File| {
        let out = Command::new(&program)
            .env("WEFT_NONDET_INPUT", variable)
            .stdin(stdin)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let expected = "-7 65 300 -1099511627776 1 2.5 265 0\n";
    assert_eq!(
        run(input.to_str().unwrap(), std::fs::File::open("/dev/null").unwrap()),
        expected
    );
    assert_eq!(
        run("-", std::fs::File::open(&input).unwrap()),
        expected,
        "from stdin"
    );
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        run(empty.to_str().unwrap(), std::fs::File::open("/dev/null").unwrap()),
        "0 0 0 0 0 0 0 0\n",
        "an input's end gives zeros"
    );
    let out = Command::new(&program)
        .env("WEFT_NONDET_INPUT", dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125), "{}", text(&out));
    assert!(
        text(&out).contains("cannot read WEFT_NONDET_INPUT"),
        "{}",
        text(&out)
    );
}

/// `check --svcomp --src off --runs 1 FILE` with its values from
/// `input`: the exit status and the whole output.
fn check_input(file: &str, input: &Path) -> (Option<i32>, String) {
    let out = weft_support::command()
        .args([
            "nonterm", "check", "--svcomp", "--src", "off", "--runs", "1", file,
        ])
        .env("WEFT_NONDET_INPUT", input)
        .output()
        .unwrap();
    (out.status.code(), text(&out))
}

#[test]
fn a_choice_sequence_from_a_file_reaches_a_hang_the_monitor_reports() {
    let dir = tempfile::tempdir().unwrap();
    // The loop hangs only while every choice is 42 until x reaches 3 and
    // the choices stay 42: a drawn run would need the same rare value
    // four times over.
    let file = write(
        dir.path(),
        "choices.c",
        "extern int __VERIFIER_nondet_int(void);\nint main(void)\n{\n    int x = 0;\n\
         while (x < 5) {\n        if (__VERIFIER_nondet_int() == 42) {\n            if (x < 3)\n\
                         x++;\n        } else\n            x = 5;\n    }\n    return 0;\n}\n",
    );
    let check = |choices: &[i32]| {
        let input = dir.path().join(format!("input{}", choices.len()));
        let bytes: Vec<u8> = choices.iter().flat_map(|c| c.to_le_bytes()).collect();
        std::fs::write(&input, bytes).unwrap();
        check_input(&file, &input)
    };
    let (code, t) = check(&[42, 42, 42, 42, 42]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains("choices.c:5: loop in main does not terminate"), "{t}");
    assert!(t.contains("(x = 3)"), "{t}");
    for short in [&[42, 42, 42][..], &[42, 42, 7, 42, 42]] {
        let (code, t) = check(short);
        assert_eq!(code, Some(0), "{short:?} ends (zeros past the input, or 7): {t}");
    }
}

#[test]
fn a_failed_assertion_aborts_but_exits_quietly_under_verifier_error_exit() {
    let dir = tempfile::tempdir().unwrap();
    let program = build_with_harness(
        dir.path(),
        "void __VERIFIER_assert(int);\nint main(void) { __VERIFIER_assert(0); return 3; }\n",
    );
    let run = |how: Option<&str>| {
        let mut command = Command::new(&program);
        if let Some(how) = how {
            command.env("WEFT_VERIFIER_ERROR", how);
        }
        command.status().unwrap()
    };
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(run(None).signal(), Some(6), "aborts by default");
    assert_eq!(run(Some("exit")).code(), Some(0));
    assert_eq!(run(Some("other")).signal(), Some(6));
}

#[test]
#[ignore = "runs AFL++ (afl-fuzz, scripts/install-deps.sh) for up to 10 s"]
fn afl_chooses_a_sequence_the_monitor_reports_and_its_crash_replays() {
    let dir = tempfile::tempdir().unwrap();
    // Two choices above 1000 in a row hang it; no seed (0, the constant
    // 1000) does, so AFL++ must find them by mutation.
    let file = write(
        dir.path(),
        "above.c",
        "extern int __VERIFIER_nondet_int(void);\nint main(void)\n{\n    int n = 0;\n\
         while (__VERIFIER_nondet_int() > 1000)\n        n = 1;\n    return n;\n}\n",
    );
    let keep = dir.path().join("check");
    let seeds = dir.path().join("seeds");
    weft_prints(
        0,
        [
            "nonterm", "check", "--svcomp", "--src", "off", "--runs", "1", "--keep",
        ]
        .into_iter()
        .chain([keep.to_str().unwrap(), &file])
        .collect::<Vec<_>>(),
    );
    weft_prints(
        0,
        ["nonterm", "seeds", "--output", seeds.to_str().unwrap(), &file],
    );
    let program = dir.path().join("above-afl");
    let out = Command::new("afl-cc")
        .args(["-w", "-O1", "-o"])
        .arg(&program)
        .arg(keep.join("woven/above.c"))
        .arg(keep.join("weft_svcomp_harness.c"))
        .env("AFL_QUIET", "1")
        .output()
        .expect("afl-cc runs (scripts/install-deps.sh installs afl++)");
    assert!(out.status.success(), "{}", text(&out));
    let findings = dir.path().join("afl");
    let out = Command::new("afl-fuzz")
        .args(["-V", "10", "-i"])
        .arg(&seeds)
        .arg("-o")
        .arg(&findings)
        .arg("--")
        .arg(&program)
        .envs([
            ("AFL_SKIP_CPUFREQ", "1"),
            ("AFL_NO_UI", "1"),
            ("AFL_NO_AFFINITY", "1"),
            ("AFL_BENCH_UNTIL_CRASH", "1"),
            ("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"),
            ("WEFT_NONDET_INPUT", "-"),
        ])
        .env("WEFT_OUT", dir.path().join("reports"))
        .output()
        .expect("afl-fuzz runs");
    let crash = std::fs::read_dir(findings.join("default/crashes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("id:"))
        .unwrap_or_else(|| panic!("no crash in 10 s: {}", text(&out)));
    let (code, t) = check_input(&file, &crash);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains("above.c:5: loop in main does not terminate"), "{t}");
}

#[test]
fn seeds_are_written_into_a_new_directory_and_never_over_a_users_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "p.c", "int main(void) { int x = 77; return x; }\n");
    let seeds = dir.path().join("seeds");
    weft_prints(
        0,
        ["nonterm", "seeds", "--output", seeds.to_str().unwrap(), &file],
    );
    let bytes = std::fs::read(seeds.join("const77")).unwrap();
    assert_eq!(&bytes[..4], 77i32.to_le_bytes());
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("zero"), "the user's").unwrap();
    let printed = weft_prints(2, ["nonterm", "seeds", "--output", mine.to_str().unwrap(), &file]);
    assert!(printed.contains("exists and is not empty"), "{printed}");
    assert_eq!(std::fs::read_to_string(mine.join("zero")).unwrap(), "the user's");
}
