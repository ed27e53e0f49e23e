//! Weaving never changes what a program does: programs whose meaning hangs
//! on what surrounds a function (attribute, storage-class and
//! calling-convention macros on the lines above it, a name written by a
//! macro defined in the file that includes it, a body split by `#if`) are
//! woven, compiled with warnings as errors and run, and must print what the
//! original prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod weft_support;

/// A C program in a scratch directory: `src/` is woven, `inc/` is on the
/// include path but not woven (a header of another project).
struct Program {
    dir: tempfile::TempDir,
}

impl Program {
    fn new(files: &[(&str, &str)]) -> Program {
        let program = Program {
            dir: tempfile::tempdir().unwrap(),
        };
        for (name, text) in files {
            let path = program.dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::create_dir_all(program.dir.path().join("inc")).unwrap();
        program
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// An aspect file holding `text`.
    fn aspect(&self, text: &str) -> PathBuf {
        let file = self.path("aspect.lara");
        std::fs::write(&file, text).unwrap();
        file
    }

    /// `weft weave` of the aspect file `aspect` over `src/` into `out/`,
    /// with `args` before the input.
    fn weave(&self, aspect: &Path, args: &[&str]) -> Output {
        weft_support::command()
            .args(["weave", "--aspect"])
            .arg(aspect)
            .args(args)
            .args(["--output", "out", "src"])
            .current_dir(self.dir.path())
            .output()
            .expect("weft runs")
    }

    /// Weaves the aspect file `aspect`, which must succeed: what weft
    /// printed on stderr.
    fn woven(&self, aspect: &Path) -> String {
        let out = self.weave(aspect, &[]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    }

    /// Builds `unit` (a .c file under `tree`, `src` or `out/src`) with
    /// warnings as errors, declarations after statements among them (C89
    /// order), and runs it: its stdout.
    fn run(&self, tree: &str, unit: &str) -> String {
        self.run_with(tree, unit, &[])
    }

    /// [`Program::run`] with more compiler flags (`-DA`).
    fn run_with(&self, tree: &str, unit: &str, flags: &[&str]) -> String {
        self.run_in(tree, unit, flags, &[])
    }

    /// [`Program::run`] with `env` set and `WEFT_OUT` an empty `records/`,
    /// where the monitors woven in write.
    fn run_recording(&self, tree: &str, unit: &str, env: &[(&str, &str)]) -> String {
        let records = self.path("records");
        let _ = std::fs::remove_dir_all(&records);
        std::fs::create_dir(&records).unwrap();
        let records = records.to_str().unwrap().to_string();
        let mut env = env.to_vec();
        env.push(("WEFT_OUT", &records));
        self.run_in(tree, unit, &[], &env)
    }

    /// Builds `unit` with `flags` and runs it with `env`: its stdout.
    fn run_in(&self, tree: &str, unit: &str, flags: &[&str], env: &[(&str, &str)]) -> String {
        let exe = self.path(&format!("{}.exe", tree.replace('/', "_")));
        let built = Command::new("gcc")
            .args(["-std=gnu99", "-Wall", "-Werror", "-Wdeclaration-after-statement"])
            .args(flags)
            .arg("-I")
            .arg(self.path("inc"))
            .arg("-o")
            .arg(&exe)
            .arg(self.path(tree).join(unit))
            .output()
            .expect("gcc runs");
        let source = std::fs::read_to_string(self.path(tree).join(unit)).unwrap_or_default();
        assert!(
            built.status.success(),
            "{tree}/{unit} does not build:\n{}\n{source}",
            String::from_utf8_lossy(&built.stderr)
        );
        let ran = Command::new(&exe)
            .envs(env.iter().copied())
            .output()
            .expect("the program runs");
        assert!(ran.status.success(), "{tree}/{unit} failed:\n{source}");
        String::from_utf8_lossy(&ran.stdout).into_owned()
    }

    fn text(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
}

/// An insert before every function and after every function.
const AROUND_FUNCTIONS: &str = "aspectdef Around\n\
    select file.function end\n\
    apply\n\
        $function.insert before 'extern unsigned long weft_hits_[[$function.name]];';\n\
        $function.insert after 'unsigned long weft_hits_[[$function.name]];';\n\
    end\n\
end\n";

/// `x` is set by a constructor whose attribute comes before `static void
/// init`, written as each case spells it (`{ATTR}` stands for the lines
/// before the function, `{SPEC}` for its specifiers).
fn constructor_program(defines: &str, lead: &str, spec: &str) -> String {
    format!(
        "#include <stdio.h>\n{defines}\nstatic int x;\n{lead}{spec} init(void) {{ x = 5; }}\n\
         int main(void) {{ printf(\"%d\\n\", x); return 0; }}\n"
    )
}

/// Files beside the program: (path, text).
type Headers = &'static [(&'static str, &'static str)];

#[test]
fn an_insert_before_a_function_goes_before_its_attribute_macros() {
    let attr = "#define ATTR __attribute__((__constructor__))";
    let cases: &[(&str, String, Headers)] = &[
        (
            "the issue's repro",
            constructor_program(attr, "ATTR\n", "static void"),
            &[],
        ),
        (
            "a macro with arguments",
            constructor_program(
                "#define ATTR(p) __attribute__((__constructor__(p)))",
                "ATTR(101)\n",
                "static void",
            ),
            &[],
        ),
        (
            "after the storage class",
            constructor_program(attr, "", "static ATTR void"),
            &[],
        ),
        (
            "a comment and a blank line between",
            constructor_program(attr, "/* doc */\nATTR\n/* sets x */\n\n", "static void"),
            &[],
        ),
        (
            "several attributes and a storage-class macro",
            constructor_program(
                "#define ATTR __attribute__((__constructor__))\n#define USED __attribute__((__used__))\n#define LOCAL static",
                "USED ATTR\nLOCAL\n",
                "void",
            ),
            &[],
        ),
        (
            "__attribute__ written out",
            constructor_program(
                "",
                "__attribute__((__constructor__)) __attribute__((__used__))\n",
                "static void\n",
            ),
            &[],
        ),
        (
            "a declspec-like macro and a calling convention",
            constructor_program(
                "#define EXPORT __attribute__((__constructor__))\n#define CALLCONV __attribute__((__noinline__))",
                "EXPORT ",
                "static void CALLCONV",
            ),
            &[],
        ),
        (
            "the attribute under #ifdef",
            constructor_program(attr, "#ifdef __GNUC__\nATTR\n#endif\n", "static void"),
            &[],
        ),
        (
            "the macro defined in a header of the tree",
            constructor_program("#include \"attr.h\"", "ATTR\n", "static void"),
            &[("src/attr.h", "#define ATTR __attribute__((__constructor__))\n")],
        ),
        (
            "the macro defined in a header weft does not see",
            constructor_program("#include <attr.h>", "ATTR\n", "static void"),
            &[("inc/attr.h", "#define ATTR __attribute__((__constructor__))\n")],
        ),
    ];
    for (name, main, headers) in cases {
        let mut files = vec![("src/main.c", main.as_str())];
        files.extend_from_slice(headers);
        let program = Program::new(&files);
        assert_eq!(program.run("src", "main.c"), "5\n", "{name}: the original");
        program.woven(&program.aspect(AROUND_FUNCTIONS));
        let woven = program.text("out/src/main.c");
        assert!(
            woven.contains("weft_hits_init;"),
            "{name}: init is woven:\n{woven}"
        );
        assert_eq!(program.run("out/src", "main.c"), "5\n", "{name}:\n{woven}");
    }
}

/// An implementation file included three times by its driver, each time
/// with a different `PREFIX`; `PREFIX`, `CALLCONV` and `RET` are defined
/// only in the driver, so in impl.c `PREFIX(scanToken)(…)` reads as a
/// function returning a function.
const DRIVER: &str = r#"#include <stdio.h>
typedef struct encoding ENC;
struct encoding { int kind; };
#define TOK_INVALID 0
#define TOK_NAME 18
#define RET unsigned long
#define CALLCONV __attribute__((__noinline__))
#define PREFIX(ident) normal_ ## ident
#include "impl.c"
#undef PREFIX
#define PREFIX(ident) big2_ ## ident
#include "impl.c"
#undef PREFIX
#define PREFIX(ident) little2_ ## ident
#include "impl.c"
#undef PREFIX
int main(void)
{
    ENC e = { 1 };
    const char text[] = "abc";
    int t = 0, a, b, c;
    printf("%d %d %d %s %lu\n", normal_scanToken(&e, text, text + 3), big2_scanToken(&e, text, text),
           little2_scanToken(0, text, text + 1), big2_name(1), little2_count(4));
    a = normal_drain(5, &t);
    b = big2_drain(0, &t);
    c = little2_drain(7, &t);
    printf("%d %d %d %d\n", a, b, c, t);
    return 0;
}
"#;

const IMPL: &str = r#"/* Included by driver.c with PREFIX and CALLCONV defined. */
static int CALLCONV
PREFIX(scanToken)(const ENC *enc, const char *ptr, const char *end)
{
  if (ptr >= end)
    return TOK_INVALID;
  if (enc == NULL)
    return -1;
  return TOK_NAME + (int)(end - ptr);
}
const char *
PREFIX(name)(int i)
{
  return i ? "one" : "zero";
}
RET PREFIX(count)(int n)
{
  return (RET)n * 2;
}
static int PREFIX(left);
static int PREFIX(more)(void)
{
  return PREFIX(left)-- > 0;
}
int PREFIX(drain)(int n, int *total)
{
  int k = 0;
  PREFIX(left) = n;
  while (PREFIX(more)())
    k++;
  *total += k;
  return k;
}
"#;

/// What [`DRIVER`] prints.
const DRIVER_PRINTS: &str = "21 0 -1 one 8\n5 0 7 12\n";

#[test]
fn a_function_named_by_a_macro_of_the_including_file_gets_a_temporary_of_its_return_type() {
    let program = Program::new(&[("src/driver.c", DRIVER), ("src/impl.c", IMPL)]);
    let expected = program.run("src", "driver.c");
    assert_eq!(expected, DRIVER_PRINTS);
    let normalize = "aspectdef N\n select program end\n apply $program.perform NormalizeReturn(); end\nend\n";
    let ascv3 = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara");
    for aspect in [program.aspect(normalize), ascv3] {
        let log = program.woven(&aspect);
        let woven = program.text("out/src/impl.c");
        assert!(
            woven.contains("{ int weft_ret; weft_ret = TOK_INVALID;"),
            "{woven}"
        );
        assert!(
            woven.contains("{ const char * weft_ret; weft_ret = i ?"),
            "{woven}"
        );
        // `RET` is defined where impl.c cannot see it: not guessed, said.
        assert!(woven.contains("  return (RET)n * 2;"), "{woven}");
        assert!(
            log.contains("src/impl.c:16:1: return type of `PREFIX(count)` is unknown"),
            "{log}"
        );
        assert_eq!(program.run("out/src", "driver.c"), expected, "{woven}");
    }
}

/// A monitor's shipped aspect, the `--arg`s it is woven with, the
/// environment the woven program runs in, and what its records must hold
/// after a run of [`DRIVER`] (the records directory, the woven impl.c).
type MonitorCase = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
    fn(&Path, &str),
);

/// Ranges: the three copies of impl.c update one table, whose entry for
/// drain's returned `k` saw the three calls: 5, 0 and 7.
fn ranges_hold_every_copy(records: &Path, woven: &str) {
    use weft::ranges::{Bounds, Kind};
    let set = weft::ranges::load::read_path(records).unwrap_or_else(|e| panic!("{e}"));
    let k = set
        .ranges
        .iter()
        .find(|(k, _)| k.file == "impl.c" && k.kind == Kind::Return && k.variable == "k");
    let (_, range) = k.unwrap_or_else(|| panic!("no range of impl.c's k: {set:?}\n{woven}"));
    assert_eq!(
        (range.count, range.bounds),
        (3, Some(Bounds::I64(0, 7))),
        "{range:?}"
    );
}

/// Trace: impl.c's one trace holds an exit sample of each drain call (its
/// last point: drain is the file's last function), whichever copy made it.
fn trace_holds_every_copy(records: &Path, woven: &str) {
    use weft::monitor::trace::{PointKind, read_trace};
    let files = weft::monitor::trace::record::FORMAT.files_in(records).unwrap();
    let trace = files
        .iter()
        .map(|f| read_trace(f).unwrap_or_else(|e| panic!("{e}")))
        .find(|t| t.unit == "impl.c")
        .unwrap_or_else(|| panic!("no trace of impl.c in {files:?}\n{woven}"));
    let last_exit = (0..trace.points.len())
        .filter(|&i| trace.points[i].kind == PointKind::Exit)
        .max_by_key(|&i| trace.points[i].line)
        .unwrap();
    let drain_exits = trace.samples.iter().filter(|s| s.point == last_exit).count();
    assert_eq!(drain_exits, 3, "{:?}", trace.points);
}

/// Nonterm: drain's loop, whose state (none: only a call decides its
/// exit) repeats, is reported as suspected after the patience of 2
/// iterations, and logged, so the run goes on.
fn nonterm_reports_the_loop(records: &Path, woven: &str) {
    let files: Vec<PathBuf> = std::fs::read_dir(records)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "nonterm"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}\n{woven}");
    let file = weft::monitor::nonterm::read_reports(&files[0]).unwrap_or_else(|e| panic!("{e}"));
    assert!(file.unit.ends_with("impl.c"), "{}", file.unit);
    assert!(!file.reports.is_empty(), "{file:?}");
    for report in &file.reports {
        assert_eq!(
            report.verdict,
            weft::monitor::nonterm::Verdict::Suspected,
            "{report:?}"
        );
        assert_eq!(file.loops[report.site].line, 29, "{file:?}");
    }
}

/// Outputs: impl.c is part of driver.c's unit, so what its functions
/// return is in driver.c's record, in the order the copies ran: last,
/// `more` and `drain` of normal_drain(5), big2_drain(0), little2_drain(7).
fn outputs_hold_every_copy(records: &Path, woven: &str) {
    let all = weft::monitor::outputs::read_dir(records).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.len(), 1, "{all:?}\n{woven}");
    let returned: Vec<&str> = all[0]
        .values
        .iter()
        .filter(|(name, _)| name.ends_with(".return"))
        .map(|(_, value)| value.as_str())
        .collect();
    let drains = [
        "1", "1", "1", "1", "1", "0", "5", "0", "0", "1", "1", "1", "1", "1", "1", "1", "0", "7",
    ];
    assert!(returned.ends_with(&drains), "{all:?}");
}

/// Every monitor woven into a file that its driver includes three times,
/// each with a different `PREFIX`: its per-unit text (state, table,
/// constructor, fork handler) is defined once, the program builds with
/// warnings as errors, prints what the original prints, and the records
/// hold what all three copies of the code saw.
#[test]
fn each_monitor_woven_into_a_file_included_several_times_builds_and_records_every_copy() {
    let program = Program::new(&[("src/driver.c", DRIVER), ("src/impl.c", IMPL)]);
    assert_eq!(program.run("src", "driver.c"), DRIVER_PRINTS);
    let aspects = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects");
    let cases: [MonitorCase; 4] = [
        ("ascv3.lara", &[], &[], ranges_hold_every_copy),
        ("invariants.lara", &[], &[], trace_holds_every_copy),
        (
            "nonterm.lara",
            &["--arg", "policy=log"],
            &[("WEFT_NONTERM_PATIENCE", "2")],
            nonterm_reports_the_loop,
        ),
        (
            "outputs.lara",
            &[
                "--arg",
                "functions=PREFIX(scanToken),PREFIX(name),PREFIX(count),PREFIX(more),PREFIX(drain)",
            ],
            &[],
            outputs_hold_every_copy,
        ),
    ];
    for (aspect, args, env, check) in cases {
        let out = program.weave(&aspects.join(aspect), args);
        assert!(
            out.status.success(),
            "{aspect}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let woven = program.text("out/src/impl.c");
        assert_eq!(
            program.run_recording("out/src", "driver.c", env),
            DRIVER_PRINTS,
            "{aspect}"
        );
        check(&program.path("records"), &woven);
    }
}

/// Functions whose statements are inside conditional groups: all of the
/// body (`#if`/`#else`, `#ifdef`/`#elif`/`#else`, with declarations
/// opening the branches), or half of it, or only declarations in them, or
/// declarations and statements but no return (entered after the group).
const CONDITIONAL_BODIES: &str = r#"#include <stdio.h>
int f(void)
{
#if A
  return 1;
#else
  return 0;
#endif
}
int g(int x)
{
#ifdef B
  int y = x + 1;
  return y;
#elif C
  return 2;
#else
  int y = x * 2;
  return y;
#endif
}
int h(int x)
{
  int z = x;
#if A
  z++;
#endif
  return z;
}
int e(int d)
{
  #if A
    enum { t = 1 };
  #else
    enum { t = 0 };
  #endif
  return t + d;
}
int w(int x)
{
#ifdef B
  int y = x;
  x = y + 1;
#endif
  return x;
}
int main(void)
{
  int a = f();
  int b = g(3);
  int c = h(4);
  int d = e(5);
  int v = w(6);
  printf("%d %d %d %d %d\n", a, b, c, d, v);
  return 0;
}
"#;

/// Prints the function's name before what runs first in it.
const ENTRY: &str = "aspectdef Entry\n\
    select function.first_stmt end\n\
    apply $first_stmt.insert before %{printf(\"enter [[$function.name]]\\n\");}%; end\n\
end\n";

#[test]
fn a_function_whose_body_is_inside_conditional_groups_is_entered_once_on_every_path() {
    let program = Program::new(&[("src/main.c", CONDITIONAL_BODIES)]);
    let log = program.woven(&program.aspect(ENTRY));
    assert!(!log.contains("warning"), "{log}");
    let woven = program.text("out/src/main.c");
    for flags in [&[][..], &["-DA"], &["-DB"], &["-DC=1"], &["-DA", "-DB"]] {
        let expected = program.run_with("src", "main.c", flags);
        let entered = format!("enter f\nenter g\nenter h\nenter e\nenter w\nenter main\n{expected}");
        assert_eq!(
            program.run_with("out/src", "main.c", flags),
            entered,
            "{flags:?}:\n{woven}"
        );
    }
}

#[test]
fn a_function_weft_cannot_enter_is_reported_and_strict_makes_it_an_error() {
    let refused = "int k(int x)\n{\n#ifdef B\n  int y = x;\n  return y;\n#endif\n  return 0;\n}\n";
    let program = Program::new(&[("src/main.c", &format!("{CONDITIONAL_BODIES}{refused}"))]);
    let aspect = program.aspect(ENTRY);
    let log = program.woven(&aspect);
    assert!(log.contains("a branch of it opens with declarations"), "{log}");
    assert!(log.contains("1 insert refused (at src/main.c:59:1)"), "{log}");
    std::fs::remove_dir_all(program.path("out")).unwrap();
    let strict = program.weave(&aspect, &["--strict"]);
    let err = String::from_utf8_lossy(&strict.stderr);
    assert_eq!(strict.status.code(), Some(1), "{err}");
    assert!(err.contains("--strict: 1 insert refused"), "{err}");
    assert!(!program.path("out").exists(), "a strict failure wrote its output");
}

/// A conditional group whose branches do not balance braces: the view
/// keeps the first branch and blanks the `#ifdef` line, which lies just
/// before `i = 0;` but does not lead it.
const UNBALANCED: &str = r#"#include <stdio.h>
static int steps;
static int f(int i)
{
  if (i == 1) {
    steps += 10;
#ifdef B
    i = 0;
  }
#else
    i = 2;
  }
#endif
  return i;
}
int main(void)
{
  int r = f(1);
  printf("%d %d\n", r, steps);
  return 0;
}
"#;

#[test]
fn code_before_a_statement_stays_inside_the_conditional_branch_that_holds_it() {
    let program = Program::new(&[("src/main.c", UNBALANCED)]);
    let aspect =
        "aspectdef Count\n select function.assignment end\n apply insert before 'steps++;'; end\nend\n";
    program.woven(&program.aspect(aspect));
    let woven = program.text("out/src/main.c");
    assert_eq!(program.run("src", "main.c"), "2 10\n");
    assert_eq!(program.run_with("src", "main.c", &["-DB"]), "0 10\n");
    // Both assignments counted with B; without it, `i = 0;` is not
    // compiled, and neither is the code before it, while `i = 2;`, in the
    // branch the first reading blanks, is counted through the alternative
    // reading.
    assert_eq!(
        program.run_with("out/src", "main.c", &["-DB"]),
        "0 12\n",
        "{woven}"
    );
    assert_eq!(program.run("out/src", "main.c"), "2 12\n", "{woven}");
}
