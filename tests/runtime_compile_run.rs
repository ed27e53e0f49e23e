//! Compile-and-run tests of the C range runtime: programs woven by hand with
//! the weaver's own text, built with gcc -Wall -Wextra -Werror -std=c99
//! -pedantic, run, and their record files read back.

mod runtime_support;

use runtime_support::{Scratch, entry, expect_records};
use std::os::unix::process::ExitStatusExt;
use weft::ranges::{Bounds, Kind, TableSpec, ValueType};

/// A program whose `record(int)` monitors its parameter and a local write,
/// with a body `tail` run after two calls (record(5), record(-3)).
fn program(tail: &str) -> String {
    let mut t = TableSpec::new("prog.c");
    let p = t.entry(Kind::Param, "record", "n", ValueType::I64);
    let w = t.entry(Kind::Write, "record", "sq", ValueType::U64);
    // The feature-test macro comes after the prelude: the prelude must not
    // have pulled in any system header, or strchrnul would be undeclared.
    let body = format!(
        r#"#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned record(int n)
{{
    unsigned sq;
    {}
    sq = (unsigned)(n * n);
    {}
    return sq;
}}

int main(void)
{{
    unsigned total = record(5) + record(-3);
    if (*strchrnul("ab", 'b') != 'b')
        return 3;
    {tail}
    return total == 34 ? 0 : 4;
}}
"#,
        t.update_stmt(p, "n"),
        t.update_stmt(w, "sq"),
    );
    format!("{}{body}{}", t.prelude(), t.epilogue())
}

/// Builds and runs `program(tail)`; returns its exit status and records.
fn run_program(tail: &str) -> (std::process::ExitStatus, Vec<weft::ranges::record::Record>) {
    let s = Scratch::new();
    s.write("prog.c", &program(tail));
    s.gcc(&["prog.c", "-o", "prog"]);
    let out = s.run("prog", "out");
    (out.status, expect_records(s.records("out"), 1))
}

fn assert_prog_ranges(record: &weft::ranges::record::Record) {
    let (key, n) = entry(record, "n");
    assert_eq!(
        (key.kind, key.file.as_str(), key.function.as_str()),
        (Kind::Param, "prog.c", "record")
    );
    assert_eq!(n.bounds, Some(Bounds::I64(-3, 5)));
    assert_eq!(n.count, 2);
    let (_, sq) = entry(record, "sq");
    assert_eq!(sq.bounds, Some(Bounds::U64(9, 25)));
    assert_eq!(sq.count, 2);
}

#[test]
fn normal_exit_writes_the_ranges() {
    let (status, records) = run_program("");
    assert_eq!(status.code(), Some(0));
    assert!(records[0].pid > 0);
    assert_prog_ranges(&records[0]);
}

#[test]
fn ranges_survive_a_segmentation_fault() {
    let (status, records) = run_program("*(volatile int *)0 = 1;");
    assert_eq!(status.signal(), Some(11), "SIGSEGV");
    assert_prog_ranges(&records[0]);
}

#[test]
fn ranges_survive_abort() {
    let (status, records) = run_program("abort();");
    assert_eq!(status.signal(), Some(6), "SIGABRT");
    assert_prog_ranges(&records[0]);
}

#[test]
fn ranges_survive_sigkill() {
    // No handler runs on SIGKILL: the record is a shared mapping, written
    // as the program runs.
    let (status, records) = run_program("raise(SIGKILL);");
    assert_eq!(status.signal(), Some(9), "SIGKILL");
    assert_prog_ranges(&records[0]);
}

#[test]
fn fifty_processes_at_once_keep_fifty_whole_records() {
    let s = Scratch::new();
    s.write("prog.c", &program(""));
    s.gcc(&["prog.c", "-o", "prog"]);
    let children: Vec<_> = (0..50)
        .map(|_| {
            std::process::Command::new(s.path("prog"))
                .env("WEFT_OUT", s.path("out"))
                .current_dir(s.path("."))
                .spawn()
                .expect("start program")
        })
        .collect();
    for mut child in children {
        assert!(child.wait().expect("wait").success());
    }
    for record in expect_records(s.records("out"), 50) {
        assert_prog_ranges(&record);
    }
}

#[test]
fn ranges_survive_underscore_exit() {
    let (status, records) = run_program("_exit(7);");
    assert_eq!(status.code(), Some(7));
    assert_prog_ranges(&records[0]);
}

#[test]
fn default_directory_is_weft_out_in_the_working_directory() {
    let s = Scratch::new();
    s.write("prog.c", &program(""));
    s.gcc(&["prog.c", "-o", "prog"]);
    let status = std::process::Command::new(s.path("prog"))
        .env_remove("WEFT_OUT")
        .current_dir(s.dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert_prog_ranges(&expect_records(s.records("weft-out"), 1)[0]);
}

#[test]
fn fork_gives_each_process_its_own_file() {
    let mut t = TableSpec::new("fork.c");
    let x = t.entry(Kind::Write, "main", "x", ValueType::I64);
    // Only the child records y: its file must start from an empty slot
    // (an unsigned one starting from zero would keep 0 as its minimum).
    let y = t.entry(Kind::Write, "main", "y", ValueType::U64);
    let up = |v: &str| t.update_stmt(x, v);
    let body = format!(
        r#"#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{{
    int status;
    pid_t child;
    {}
    child = fork();
    if (child == 0) {{
        {}
        {}
        {} {}
        _exit(0);
    }}
    {}
    waitpid(child, &status, 0);
    return 0;
}}
"#,
        up("1"),
        up("100"),
        up("200"),
        t.update_stmt(y, "9"),
        t.update_stmt(y, "7"),
        up("2"),
    );
    let s = Scratch::new();
    s.weave("fork.c", &t, &body);
    s.gcc(&["fork.c", "-o", "fork"]);
    assert!(s.run("fork", "out").status.success());
    let records = expect_records(s.records("out"), 2);
    let (parent, child) = if records[0].ppid == records[1].pid {
        (&records[1], &records[0])
    } else {
        (&records[0], &records[1])
    };
    assert_eq!(child.ppid, parent.pid, "one file per process");
    let (_, p) = entry(parent, "x");
    assert_eq!((p.bounds, p.count), (Some(Bounds::I64(1, 2)), 2));
    let (_, c) = entry(child, "x");
    assert_eq!((c.bounds, c.count), (Some(Bounds::I64(100, 200)), 2));
    let (_, py) = entry(parent, "y");
    assert_eq!((py.bounds, py.count), (None, 0));
    let (_, cy) = entry(child, "y");
    assert_eq!((cy.bounds, cy.count), (Some(Bounds::U64(7, 9)), 2));
}

/// Integer slots start from the empty range (min the type's maximum, max
/// its minimum): a first value equal to either end must still become both
/// bounds, and a slot never updated has none.
#[test]
fn a_first_value_at_either_end_of_its_type_is_both_bounds() {
    let mut t = TableSpec::new("ends.c");
    let cases = [
        (
            "i64_max",
            ValueType::I64,
            "INT64_MAX",
            Bounds::I64(i64::MAX, i64::MAX),
        ),
        (
            "i64_min",
            ValueType::I64,
            "INT64_MIN",
            Bounds::I64(i64::MIN, i64::MIN),
        ),
        (
            "u64_max",
            ValueType::U64,
            "UINT64_MAX",
            Bounds::U64(u64::MAX, u64::MAX),
        ),
        ("u64_zero", ValueType::U64, "0u", Bounds::U64(0, 0)),
        ("i64_one", ValueType::I64, "-7", Bounds::I64(-7, -7)),
    ];
    let updates: Vec<String> = cases
        .iter()
        .map(|(v, ty, e, _)| {
            let slot = t.entry(Kind::Write, "main", v, *ty);
            t.update_stmt(slot, e)
        })
        .collect();
    t.entry(Kind::Write, "main", "never", ValueType::U64);
    let body = format!(
        "#include <stdint.h>\nint main(void)\n{{\n    {}\n    return 0;\n}}\n",
        updates.join("\n    ")
    );
    let s = Scratch::new();
    s.weave("ends.c", &t, &body);
    s.gcc(&["ends.c", "-o", "ends"]);
    assert!(s.run("ends", "out").status.success());
    let r = &expect_records(s.records("out"), 1)[0];
    for (name, _, _, bounds) in cases {
        let (_, range) = entry(r, name);
        assert_eq!((range.bounds, range.count), (Some(bounds), 1), "{name}");
    }
    let (_, never) = entry(r, "never");
    assert_eq!((never.bounds, never.count), (None, 0));
}

#[test]
fn threads_never_corrupt_the_record() {
    let mut t = TableSpec::new("threads.c");
    let x = t.entry(Kind::Write, "work", "i", ValueType::I64);
    let body = format!(
        r#"#include <pthread.h>
static void *work(void *arg)
{{
    long i;
    long base = (long)arg;
    for (i = 0; i < 200000; i++) {{
        {}
    }}
    return 0;
}}
int main(void)
{{
    pthread_t th[4];
    long k;
    for (k = 0; k < 4; k++)
        pthread_create(&th[k], 0, work, (void *)(k * 1000000));
    for (k = 0; k < 4; k++)
        pthread_join(th[k], 0);
    return 0;
}}
"#,
        t.update_stmt(x, "base + i")
    );
    let s = Scratch::new();
    s.weave("threads.c", &t, &body);
    s.gcc(&["threads.c", "-o", "threads", "-pthread"]);
    assert!(s.run("threads", "out").status.success());
    let records = expect_records(s.records("out"), 1);
    let (_, r) = entry(&records[0], "i");
    // Racing updates may be lost, but every bound is a value that was seen
    // and the count never exceeds the number of updates.
    assert!(r.count > 0 && r.count <= 800_000, "count {}", r.count);
    let Some(Bounds::I64(lo, hi)) = r.bounds else {
        panic!("no bounds")
    };
    let valid = |v: i64| (0..4).any(|k| (k * 1_000_000..k * 1_000_000 + 200_000).contains(&v));
    assert!(valid(lo) && valid(hi) && lo <= hi, "[{lo}, {hi}]");
}

#[test]
fn two_units_write_two_files_under_their_own_names() {
    let mut ta = TableSpec::new("src/a.c");
    let a = ta.entry(Kind::Return, "twice", "r", ValueType::I64);
    let mut tb = TableSpec::new("src/b.c");
    let b = tb.entry(Kind::Param, "main", "argc", ValueType::I64);
    let s = Scratch::new();
    s.weave(
        "a.c",
        &ta,
        &format!(
            "int twice(int v);\nint twice(int v)\n{{\n    int r = 2 * v;\n    {}\n    return r;\n}}\n",
            ta.update_stmt(a, "r")
        ),
    );
    s.weave(
        "b.c",
        &tb,
        &format!("int twice(int v);\nint main(int argc, char **argv)\n{{\n    (void)argv;\n    {}\n    return twice(argc) == 2 ? 0 : 1;\n}}\n", tb.update_stmt(b, "argc")),
    );
    s.gcc(&["a.c", "b.c", "-o", "two"]);
    assert!(s.run("two", "out").status.success());
    let records = expect_records(s.records("out"), 2);
    let (ka, ra) = entry(&records[0], "r");
    assert_eq!(
        (ka.file.as_str(), ra.bounds),
        ("src/a.c", Some(Bounds::I64(2, 2)))
    );
    let (kb, rb) = entry(&records[1], "argc");
    assert_eq!(
        (kb.file.as_str(), rb.bounds),
        ("src/b.c", Some(Bounds::I64(1, 1)))
    );
}

#[test]
fn a_woven_shared_library_writes_its_own_record() {
    let mut t = TableSpec::new("lib/scale.c");
    let f = t.entry(Kind::Param, "scale", "f", ValueType::F64);
    let s = Scratch::new();
    s.weave(
        "scale.c",
        &t,
        &format!(
            "double scale(double f);\ndouble scale(double f)\n{{\n    {}\n    return f * 2.0;\n}}\n",
            t.update_stmt(f, "f")
        ),
    );
    s.write(
        "main.c",
        "double scale(double f);\nint main(void)\n{\n    return scale(1.25) + scale(-0.5) == 1.5 ? 0 : 1;\n}\n",
    );
    s.gcc(&["-shared", "-fPIC", "scale.c", "-o", "libscale.so"]);
    s.gcc(&["main.c", "-o", "main", "-L.", "-lscale"]);
    assert!(s.run("main", "out").status.success());
    let records = expect_records(s.records("out"), 1);
    let (_, r) = entry(&records[0], "f");
    assert_eq!((r.bounds, r.count), (Some(Bounds::F64(-0.5, 1.25)), 2));
}

#[test]
fn special_and_extreme_values_keep_their_meaning() {
    let mut t = TableSpec::new("values.c");
    let slots: Vec<_> = [
        ("nan_then_num", ValueType::F64),
        ("neg_zero", ValueType::F64),
        ("infinities", ValueType::F64),
        ("only_nan", ValueType::F64),
        ("i64", ValueType::I64),
        ("u64", ValueType::U64),
        ("above_2_53", ValueType::U64),
    ]
    .iter()
    .map(|(v, ty)| t.entry(Kind::Write, "main", v, *ty))
    .collect();
    let u = |i: usize, e: &str| t.update_stmt(slots[i], e);
    let body = format!(
        r#"#include <math.h>
#include <stdint.h>
int main(void)
{{
    volatile double zero = 0.0;
    {} {}
    {}
    {} {}
    {}
    {} {}
    {} {}
    {}
    return 0;
}}
"#,
        u(0, "zero / zero"),
        u(0, "1.5"),
        u(1, "-zero"),
        u(2, "1.0 / zero"),
        u(2, "-1.0 / zero"),
        u(3, "NAN"),
        u(4, "INT64_MIN"),
        u(4, "INT64_MAX"),
        u(5, "UINT64_MAX"),
        u(5, "0u"),
        u(6, "9007199254740993ull"),
    );
    let s = Scratch::new();
    s.weave("values.c", &t, &body);
    s.gcc(&["values.c", "-o", "values"]);
    assert!(s.run("values", "out").status.success());
    let r = &expect_records(s.records("out"), 1)[0];
    let (_, a) = entry(r, "nan_then_num");
    assert_eq!((a.bounds, a.nan, a.count), (Some(Bounds::F64(1.5, 1.5)), true, 2));
    let (_, z) = entry(r, "neg_zero");
    assert!(
        matches!(z.bounds, Some(Bounds::F64(lo, hi)) if lo == 0.0 && lo.is_sign_negative() && hi.is_sign_negative())
    );
    let (_, inf) = entry(r, "infinities");
    assert_eq!(inf.bounds, Some(Bounds::F64(f64::NEG_INFINITY, f64::INFINITY)));
    let (_, n) = entry(r, "only_nan");
    assert_eq!((n.bounds, n.nan, n.count), (None, true, 1));
    let (_, i) = entry(r, "i64");
    assert_eq!(i.bounds, Some(Bounds::I64(i64::MIN, i64::MAX)));
    let (_, w) = entry(r, "u64");
    assert_eq!(w.bounds, Some(Bounds::U64(0, u64::MAX)));
    // 2^53 + 1 has no double: it must not pass through one (as in MANET).
    let (_, b) = entry(r, "above_2_53");
    assert_eq!(b.bounds, Some(Bounds::U64(9007199254740993, 9007199254740993)));
}

/// The update's branch hints (`WEFT_RARE`, docs/runtime.md) change only
/// code layout: a program updating integer and double slots with a long
/// stream of values (moving bounds early and late, repeats, extremes, NaNs,
/// signed zeros), built at -O2 with the hints and with them defined away,
/// writes the same record.
#[test]
fn branch_hints_leave_the_record_unchanged() {
    let mut t = TableSpec::new("stream.c");
    let slots: Vec<_> = [
        ("i", ValueType::I64),
        ("u", ValueType::U64),
        ("d", ValueType::F64),
    ]
    .iter()
    .map(|(v, ty)| t.entry(Kind::Write, "main", v, *ty))
    .collect();
    let body = format!(
        r#"#include <math.h>
#include <stdint.h>
int main(void)
{{
    uint64_t x = 88172645463325252ull;
    long k;
    for (k = 0; k < 200000; k++) {{
        int64_t i;
        double d;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        i = (int64_t)(x >> (k % 64)) * (k % 3 == 0 ? -1 : 1);
        d = k % 977 == 0 ? NAN : k % 1009 == 0 ? -0.0 : (double)i / (double)(k + 1);
        {}
        {}
        {}
    }}
    {} {}
    return 0;
}}
"#,
        t.update_stmt(slots[0], "i"),
        t.update_stmt(slots[1], "x % (uint64_t)(k + 1)"),
        t.update_stmt(slots[2], "d"),
        t.update_stmt(slots[0], "INT64_MIN"),
        t.update_stmt(slots[1], "UINT64_MAX"),
    );
    let s = Scratch::new();
    s.weave("stream.c", &t, &body);
    s.gcc(&["-O2", "stream.c", "-o", "hinted"]);
    s.gcc(&["-O2", "-DWEFT_RARE(c)=(c)", "stream.c", "-o", "plain"]);
    let ranges = |exe: &str, out: &str| {
        assert!(s.run(exe, out).status.success());
        expect_records(s.records(out), 1).remove(0)
    };
    let (hinted, plain) = (ranges("hinted", "out-hinted"), ranges("plain", "out-plain"));
    assert_eq!(hinted.entries, plain.entries);
    let (_, d) = entry(&hinted, "d");
    assert!(d.nan && d.count == 200000, "{d:?}");
    let (_, i) = entry(&hinted, "i");
    assert!(matches!(i.bounds, Some(Bounds::I64(i64::MIN, _))), "{i:?}");
}
