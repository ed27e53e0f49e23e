//! `weft nonterm check`: weave, build and run in one step. A corpus
//! program is reported with its witness and its twin is not; an SV-COMP
//! program gets seeded `__VERIFIER_nondet_*()` values, and every run that
//! reports holds a state that cannot end the loop; a hang whose state never
//! repeats is a timeout without a report; bad input is exit status 2.

use std::path::{Path, PathBuf};
use std::process::Output;

mod weft_support;
use weft_support::stdout;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/nonterm/corpus")
        .join(name)
}

fn check(args: &[&str], files: &[&Path]) -> Output {
    weft_support::command()
        .args(["nonterm", "check"])
        .args(args)
        .args(files)
        .output()
        .expect("weft runs")
}

#[test]
fn a_corpus_loop_is_reported_with_its_witness_and_its_twin_is_not() {
    let (text, _) = weft_support::exited(&check(&["--src", "off"], &[&corpus("add_zero_step.c")]), 1);
    assert!(
        text.contains("add_zero_step.c:10: loop in run does not terminate") && text.contains("(i = 0)"),
        "{text}"
    );
    assert!(text.contains("1 loop reported; 1 run: 1 reported"), "{text}");

    let (text, _) = weft_support::exited(&check(&[], &[&corpus("add_zero_step.twin.c")]), 0);
    assert!(text.contains("0 loops reported; 1 run: 1 ended"), "{text}");

    // By default (a solver on $PATH), its recurrence condition is checked
    // too, and holds at once.
    let (text, _) = weft_support::exited(&check(&[], &[&corpus("add_zero_step.c")]), 1);
    assert!(
        text.contains("its recurrence condition (i < n) && (step == 0) holds at iteration 1"),
        "{text}"
    );

    let (text, _) = weft_support::exited(
        &check(
            &["--src", "off", "--schedule", "interval"],
            &[&corpus("add_zero_step.c")],
        ),
        1,
    );
    assert!(text.contains("with period 1 (i = 0)"), "{text}");
}

#[test]
fn svcomp_runs_get_seeded_values_and_every_report_holds_a_cycling_state() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("sv.c");
    // From an even start, x never reaches 1: it cycles through 128 values.
    std::fs::write(
        &source,
        "extern unsigned char __VERIFIER_nondet_uchar(void);\n\
         int main(void)\n{\n    unsigned char x = __VERIFIER_nondet_uchar();\n    while (x != 1)\n        x = x + 2;\n    return 0;\n}\n",
    )
    .unwrap();
    let out = check(&["--svcomp", "--src", "off", "--runs", "8", "--json"], &[&source]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let endings: Vec<&str> = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ending"].as_str().unwrap())
        .collect();
    let reported = endings.iter().filter(|e| **e == "reported").count();
    assert_eq!(endings.len(), 8);
    assert!(
        (1..8).contains(&reported) && endings.iter().all(|e| matches!(*e, "reported" | "ended")),
        "seeds give both even and odd starts: {endings:?}"
    );
    let first = &json["loops"][0]["first"];
    assert_eq!(json["loops"][0]["runs"], reported);
    assert_eq!(
        (first["exact"].as_bool(), first["period"].as_u64()),
        (Some(true), Some(128))
    );
    let x: u64 = first["witness"]["x"].as_str().unwrap().parse().unwrap();
    assert_eq!(x % 2, 0, "an odd x would reach 1");
}

#[test]
fn the_fuzzing_example_loops_on_a_zero_length_record_read_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("zero-length");
    std::fs::write(&input, b"\x01\x00ab").unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nonterm-fuzz/tlv.c");
    let (text, _) = weft_support::exited(&check(&["--stdin", input.to_str().unwrap()], &[&example]), 1);
    assert!(
        // Its recurrence condition over `buf[pos + 1]` (a declared array,
        // its bounds tested first) fires at once, with `n` in the witness.
        text.contains("tlv.c:15: loop in sum_records does not terminate") && text.contains("(pos = 0"),
        "{text}"
    );
    // A seed moves on and ends.
    let seed = example.with_file_name("seeds").join("two-records");
    let out = check(&["--stdin", seed.to_str().unwrap()], &[&example]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn a_hang_whose_state_never_repeats_is_a_timeout_without_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("grow.c");
    std::fs::write(
        &source,
        "int main(void)\n{\n    volatile long long x = 1;\n    while (x > 0)\n        x = x + 1;\n    return 0;\n}\n",
    )
    .unwrap();
    let out = check(&["--timeout", "1"], &[&source]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("0 loops reported; 1 run: 1 timed out without a report"),
        "{text}"
    );
}

#[test]
fn bad_input_is_exit_status_two_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.c");
    let out = check(&[], &[&missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.c: no such file"));

    let broken = dir.path().join("broken.c");
    std::fs::write(&broken, "int main(void)\n{\n    return undefined_name;\n}\n").unwrap();
    let (_, err) = weft_support::exited(&check(&[], &[&broken]), 2);
    assert!(
        err.contains("does not build") && err.contains("undefined_name"),
        "{err}"
    );

    let kept = dir.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    let out = check(
        &["--keep", kept.to_str().unwrap()],
        &[&corpus("add_zero_step.twin.c")],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "an existing --keep directory is refused"
    );
    assert_eq!(std::fs::read_dir(&kept).unwrap().count(), 0, "and left untouched");
}

/// A directly recursive function with no effects is monitored like a loop
/// over its calls: the same arguments at a deeper call than an active one
/// are reported (period 1: `f(x)` calls `f(x)`; period 2: `g(a, b)` calls
/// `g(b, a)`; after a first call that returned, with no argument:
/// `h(void)`), while terminating twins (factorial, Ackermann's deep but
/// never repeating chains, a function called twice with the same value
/// from the same caller) print what their plain build prints and report
/// nothing; one that reads a global is listed as not monitored.
#[test]
fn infinite_recursion_is_reported_and_terminating_recursion_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let header = "#include <stdio.h>\nint calls;\n";
    let hangs = [
        (
            "same.c",
            "int f(int x) { if (x == 0) return 0; return f(x); }\nint main(void) { printf(\"%d\\n\", f(3)); return 0; }\n",
            "recursion in f does not terminate: arguments repeated at call depth 2 with period 1 (x = 3)",
        ),
        (
            "swap.c",
            "int g(int a, int b) { if (a > 100) return b; return g(b, a); }\nint main(void) { printf(\"%d\\n\", g(1, 2)); return 0; }\n",
            "recursion in g does not terminate: arguments repeated at call depth 4 with period 2 (a = 2, b = 1)",
        ),
        (
            "noarg.c",
            "int h(void) { return h() + 1; }\nint main(void) { printf(\"%d\\n\", h()); return 0; }\n",
            "recursion in h does not terminate: arguments repeated at call depth 2 with period 1 (no state)",
        ),
        (
            "later.c",
            "long s(long n) { if (n < 5) return n; return s(n - 5 + 5 * (n > 20)); }\nint main(void) { printf(\"%ld\\n\", s(4)); printf(\"%ld\\n\", s(21)); return 0; }\n",
            "recursion in s does not terminate: arguments repeated at call depth 2 with period 1 (n = 21)",
        ),
        (
            "cycle.c",
            "struct node { struct node *next; };\nint len(struct node *p) { if (p == NULL) return 0; return 1 + len(p->next); }\nint main(void) { struct node a, b; a.next = &b; b.next = &a; printf(\"%d\\n\", len(&a)); return 0; }\n",
            "recursion in len does not terminate: arguments repeated at call depth 4 with period 2",
        ),
    ];
    for (name, body, expected) in hangs {
        let file = dir.path().join(name);
        std::fs::write(&file, format!("{header}{body}")).unwrap();
        let out = check(&["--timeout", "5"], &[&file]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
        assert!(stdout(&out).contains(expected), "{name}: {}", stdout(&out));
    }
    let twins = [
        (
            "fact.c",
            "int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\nint main(void) { printf(\"%d\\n\", fact(10)); return 0; }\n",
            "3628800\n",
        ),
        (
            "ack.c",
            "int ack(int m, int n) { if (m == 0) return n + 1; if (n == 0) return ack(m - 1, 1); return ack(m - 1, ack(m, n - 1)); }\nint main(void) { printf(\"%d\\n\", ack(2, 3)); return 0; }\n",
            "9\n",
        ),
        (
            "twice.c",
            "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint main(void) { printf(\"%d\\n\", fib(15)); return 0; }\n",
            "610\n",
        ),
        (
            "list.c",
            "struct node { struct node *next; };\nint len(struct node *p) { if (p == NULL) return 0; return 1 + len(p->next); }\nint main(void) { struct node a, b, c; a.next = &b; b.next = &c; c.next = NULL; printf(\"%d\\n\", len(&a)); return 0; }\n",
            "3\n",
        ),
        (
            "writes.c",
            "int walk(int *c, int x) { if (*c > 3) return x; *c = *c + 1; return walk(c, x); }\nint main(void) { int c = 0; printf(\"%d\\n\", walk(&c, 7)); return 0; }\n",
            "7\n",
        ),
        (
            "global.c",
            "int down(int x) { if (calls++ > 3) return x; return down(x); }\nint main(void) { printf(\"%d\\n\", down(7)); return 0; }\n",
            "7\n",
        ),
    ];
    for (name, body, printed) in twins {
        let file = dir.path().join(name);
        std::fs::write(&file, format!("{header}{body}")).unwrap();
        let keep = dir.path().join(format!("{name}.kept"));
        let out = check(&["--keep", keep.to_str().unwrap()], &[&file]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stdout(&out));
        let run = std::fs::read_to_string(keep.join("runs/0/stdout")).unwrap_or_default();
        assert_eq!(run, printed, "{name}");
        if let Some(f) = [("global.c", "down"), ("writes.c", "walk")]
            .iter()
            .find_map(|(n, f)| (*n == name).then_some(f))
        {
            assert!(
                stdout(&out).contains(&format!(
                    "recursion in {f}: it reads or writes globals, writes memory, or calls what weft cannot follow"
                )),
                "{}",
                stdout(&out)
            );
        }
    }
}
