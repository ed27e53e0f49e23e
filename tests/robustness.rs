//! Bad input, case by case (docs/robustness.md): hostile aspects and
//! hostile C given to `weft weave`. For each: the exit status, a message
//! that says what is wrong, no panic, and nothing written on failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod program_support;
mod weft_support;
use weft_support::stderr;

/// A directory holding one small C program, `ok.c`.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Case {
        let case = Case {
            dir: tempfile::tempdir().unwrap(),
        };
        case.write(
            "ok.c",
            b"int twice(int x)\n{\n    int y = x * 2;\n    return y;\n}\n",
        );
        case
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// `weft weave --aspect ASPECT --output out INPUT` in the case's directory.
    fn weave(&self, aspect: &Path, input: &str) -> Output {
        self.weave_with(aspect, input, &[])
    }

    /// `weave` with extra options (`--limit …`) before the input.
    fn weave_with(&self, aspect: &Path, input: &str, options: &[&str]) -> Output {
        weft_support::command()
            .arg("weave")
            .arg("--aspect")
            .arg(aspect)
            .args(options)
            .args(["--output", "out", input])
            .current_dir(self.dir.path())
            .output()
            .expect("weft runs")
    }
}

/// Requires a refusal: exit status `code`, `message` in stderr, no panic,
/// and no output directory.
fn assert_refused(case: &Case, out: &Output, code: i32, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!case.path("out").exists(), "a failed weave wrote its output");
}

fn ascv3() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara")
}

#[test]
fn hostile_aspects_are_refused_with_their_reason() {
    let cases: &[(&str, &[u8], i32, &str)] = &[
        ("empty", b"", 2, "defines no aspectdef"),
        (
            "binary junk",
            b"\x00\x9f\x92\x96\xff\xfe junk \x01",
            2,
            "valid UTF-8",
        ),
        (
            "non-UTF-8 string",
            b"aspectdef A\n  var s = \"\xff\";\nend\n",
            2,
            "valid UTF-8",
        ),
        (
            "unterminated code block",
            b"aspectdef A\n  select function end\n  apply\n    insert before %{ int x;\n  end\nend\n",
            2,
            "unterminated.lara:",
        ),
        (
            "missing end",
            b"aspectdef A\n  select function end\n  apply\n  end\n",
            2,
            "ends with `end`",
        ),
        (
            "runaway loop",
            b"aspectdef A\n  while (true) { }\nend\n",
            1,
            "script operations and was stopped",
        ),
    ];
    for (what, text, code, message) in cases {
        let case = Case::new();
        let aspect = case.write("unterminated.lara", text);
        let out = case.weave(&aspect, "ok.c");
        assert_refused(&case, &out, *code, message);
        eprintln!("{what}: refused");
    }
}

#[test]
fn deep_nesting_in_an_aspect_is_refused_with_a_short_excerpt() {
    let case = Case::new();
    let depth = 5_000;
    let text = format!(
        "aspectdef A\n{}{}\nend\n",
        "if (true) {".repeat(depth),
        "}".repeat(depth)
    );
    let aspect = case.write("deep.lara", text.as_bytes());
    let out = case.weave(&aspect, "ok.c");
    assert_refused(&case, &out, 2, "nested more than");
    let err = stderr(&out);
    assert!(err.contains("deep.lara:2:"), "{err}");
    // The 55,000-character line is shown as a window around the caret.
    assert!(err.lines().all(|l| l.len() < 200), "{err}");
    let shown = err
        .lines()
        .find(|l| l.starts_with("2 | "))
        .expect("the source line");
    let caret = err.lines().find(|l| l.contains('^')).expect("the caret line");
    // It marks the same character as the column in the header.
    let column: usize = err
        .split("deep.lara:2:")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let marked = &text.lines().nth(1).unwrap()[column - 1..column];
    assert_eq!(&shown[caret.find('^').unwrap()..][..1], marked, "{err}");
}

#[test]
fn a_missing_or_looping_input_is_named() {
    let case = Case::new();
    std::os::unix::fs::symlink("nowhere.c", case.path("dangling.c")).unwrap();
    let out = case.weave(&ascv3(), "dangling.c");
    assert_refused(&case, &out, 2, "dangling.c");

    // A directory holding a link to itself is walked once.
    std::fs::create_dir(case.path("tree")).unwrap();
    std::fs::copy(case.path("ok.c"), case.path("tree/ok.c")).unwrap();
    std::os::unix::fs::symlink("..", case.path("tree/up")).unwrap();
    let out = case.weave(&ascv3(), "tree");
    assert!(out.status.success(), "{}", stderr(&out));
    let woven = std::fs::read_to_string(case.path("out/tree/ok.c")).unwrap();
    assert!(woven.contains("weft"), "ok.c was woven");
    let link = std::fs::read_link(case.path("out/tree/up")).unwrap();
    assert_eq!(link, Path::new(".."), "the link is copied as a link");
}

#[test]
fn c_that_is_not_understood_is_reported_and_left_as_written() {
    let case = Case::new();
    let unbalanced = b"int f(int x)\n{\n    if (x) {\n        return 1;\n\nint g(void) { return 2; }\n";
    case.write("unbalanced.c", unbalanced);
    let out = case.weave(&ascv3(), "unbalanced.c");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("not understood, left as written (first: unbalanced.c:"),
        "{err}"
    );
    let written = std::fs::read(case.path("out/unbalanced.c")).unwrap();
    let runtime_free = String::from_utf8_lossy(&written);
    assert!(
        runtime_free.ends_with(std::str::from_utf8(unbalanced).unwrap()),
        "the text after the runtime is the user's, untouched"
    );

    let latin1 = b"int f(int x) { const char *s = \"caf\xe9\"; return x + s[0]; }\n";
    case.write("latin1.c", latin1);
    let out = case.weave(&ascv3(), "latin1.c");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("not UTF-8; copied without weaving"));
    assert_eq!(std::fs::read(case.path("out/latin1.c")).unwrap(), latin1);
}

/// Weaves `name` with ASCV3 and builds the woven file with gcc.
fn weave_and_compile(case: &Case, name: &str) -> String {
    let out = case.weave(&ascv3(), name);
    assert!(out.status.success(), "{}", stderr(&out));
    let woven = case.path("out").join(name);
    program_support::gcc(&["-c"], &woven, Path::new("/dev/null"));
    std::fs::read_to_string(woven).unwrap()
}

#[test]
fn crlf_and_deeply_parenthesised_c_are_woven_and_compile() {
    let case = Case::new();
    case.write(
        "crlf.c",
        b"int f(int x)\r\n{\r\n    int y = x + 1;\r\n    return y;\r\n}\r\n",
    );
    let woven = weave_and_compile(&case, "crlf.c");
    assert!(woven.contains("int y = x + 1;\r\n"), "CRLF lines kept");
    assert!(woven.len() > 200, "the function is monitored");

    let depth = 3_000;
    let deep = format!(
        "int f(int x)\n{{\n    int y = {}x{};\n    return y;\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    case.write("deep.c", deep.as_bytes());
    let woven = weave_and_compile(&case, "deep.c");
    let expression = format!("int y = {}x{};", "(".repeat(depth), ")".repeat(depth));
    assert!(woven.contains(&expression), "the expression is kept");
    assert!(woven.len() > deep.len(), "the function is monitored");
}

#[test]
fn many_refused_inserts_are_counted_not_repeated() {
    let case = Case::new();
    let functions: String = (0..10)
        .map(|i| format!("int f{i}(int x) {{ return x + {i}; }}\n"))
        .collect();
    case.write("many.c", functions.as_bytes());
    let aspect = case.write(
        "body.lara",
        b"aspectdef A\n  select function.body end\n  apply\n    insert before %{ /* x */ }%;\n  end\nend\n",
    );
    let out = case.weave(&aspect, "many.c");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        err.matches("warning: insert refused at many.c:").count(),
        3,
        "{err}"
    );
    assert!(
        err.contains("warning: 7 more inserts refused by the insert at ")
            && err.contains("body.lara:4:5: cannot insert"),
        "{err}"
    );
}

/// Requires a stop at a limit: exit status `code`, `message` at
/// `location` (file:line:col) with a caret, the hint naming `--limit
/// LIMIT=`, and nothing written: no output tree, and no file in the
/// case's directory but those it started with.
fn assert_stopped(case: &Case, out: &Output, code: i32, message: &str, location: &str, limit: &str) {
    assert_refused(case, out, code, message);
    let err = stderr(out);
    assert!(
        err.contains(&format!("/{location}")),
        "expected {location} in:\n{err}"
    );
    assert!(
        err.lines()
            .any(|l| l.trim_start().starts_with('|') && l.contains('^')),
        "{err}"
    );
    assert!(err.contains(&format!("--limit {limit}=")), "{err}");
    let mut names: Vec<String> = std::fs::read_dir(case.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["limits.lara", "ok.c"], "no partial output file");
}

#[test]
fn aspects_that_would_eat_the_machine_stop_at_a_limit_with_its_location() {
    // What, the aspect's body, options, message, location, limit.
    type Stop<'a> = (&'a str, &'a str, &'a [&'a str], &'a str, &'a str, &'a str);
    let cases: &[Stop] = &[
        (
            "a string doubled without end",
            "  var s = \"x\";\n  while (true) { s = s + s; }\n",
            &[],
            "a string grew past 67108864 bytes",
            "limits.lara:3:26",
            "string",
        ),
        (
            "an array doubled 40 times",
            "  var a = [1];\n  for i in range(0, 40) { a = [a, a]; }\n",
            &[],
            "an array grew past 1000000 items",
            "limits.lara:3:36",
            "array",
        ),
        (
            "a map doubled 40 times",
            "  var m = {k: 1};\n  for i in range(0, 40) { m = {l: m, r: m}; }\n",
            // Lowered: a million map entries take 0.8 GB to build.
            &["--limit", "map=100K"],
            "a map grew past 102400 entries",
            "limits.lara:3:42",
            "map",
        ),
        (
            "a value nested 200 deep, written",
            "  var a = [1];\n  for i in range(0, 200) { a = [a]; }\n  writeJSON(\"o.json\", a);\n",
            &[],
            "cannot write o.json: the value nests arrays and maps more than 128 deep",
            "limits.lara:4:3",
            "value-depth",
        ),
        (
            "a value nested 100,000 deep",
            "  var a = [1];\n  for i in range(0, 100000) { a = [a]; }\n  writeJSON(\"o.json\", a);\n",
            &["--limit", "cpu-seconds=1"],
            "the aspect ran for more than 1 CPU seconds and was stopped here",
            // Where the time ran out: in the loop or the copy of `a` after it.
            "limits.lara:",
            "cpu-seconds",
        ),
        (
            "a JSON file over the file limit",
            "  var a = [];\n  for i in range(0, 1000) { a.push(\"some text\"); }\n  writeJSON(\"o.json\", a);\n",
            &["--limit", "file=1K"],
            "cannot write o.json: larger than the limit of 1024 bytes",
            "limits.lara:4:3",
            "file",
        ),
        (
            "an aspect calling itself",
            "  call A();\n",
            &[],
            "calls nested more than 96 levels deep",
            "limits.lara:2:3",
            "call-levels",
        ),
        (
            "a loop over the operations set",
            "  var n = 0;\n  for i in range(0, 100000) { n += i; }\n",
            &["--limit", "operations=1000"],
            "the aspect ran more than 1000 script operations and was stopped",
            "limits.lara:3:",
            "operations",
        ),
    ];
    for (what, body, options, message, location, limit) in cases {
        let case = Case::new();
        let aspect = case.write("limits.lara", format!("aspectdef A\n{body}end\n").as_bytes());
        let out = case.weave_with(&aspect, "ok.c", options);
        eprintln!("{what}");
        assert_stopped(&case, &out, 1, message, location, limit);
    }
}

#[test]
fn files_an_aspect_reads_are_regular_and_bounded() {
    let fifo = |case: &Case| {
        let path = case.path("fifo");
        let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
        assert!(made.success());
        path
    };
    // Imports: a device, a FIFO (opening it would block), a file too large.
    let case = Case::new();
    fifo(&case);
    case.write("big.lara", &[b' '; 2048]);
    for (target, options, message) in [
        ("/dev/zero", &[][..], "not a regular file"),
        ("fifo", &[][..], "not a regular file"),
        (
            "big.lara",
            &["--limit", "file=1K"][..],
            "larger than the limit of 1024 bytes",
        ),
    ] {
        let aspect = case.write(
            "main.lara",
            format!("import \"{target}\";\naspectdef A\nend\n").as_bytes(),
        );
        let out = case.weave_with(&aspect, "ok.c", options);
        assert_refused(&case, &out, 2, message);
        assert!(stderr(&out).contains("/main.lara:1:8"), "{}", stderr(&out));
    }
    // The aspect itself.
    let out = case.weave(&case.path("fifo"), "ok.c");
    assert_refused(&case, &out, 2, "not a regular file");

    // readJSON: a device, a FIFO, and JSON nested deeper than serde_json reads.
    case.write("deep.json", "[".repeat(100_000).as_bytes());
    for (target, message) in [
        ("/dev/zero", "cannot read /dev/zero: not a regular file"),
        ("fifo", "cannot read fifo: not a regular file"),
        ("deep.json", "deep.json is not JSON: recursion limit exceeded"),
    ] {
        let aspect = case.write(
            "main.lara",
            format!("aspectdef A\n  var v = readJSON(\"{target}\");\nend\n").as_bytes(),
        );
        let out = case.weave(&aspect, "ok.c");
        assert_refused(&case, &out, 1, message);
        assert!(stderr(&out).contains("/main.lara:2:11"), "{}", stderr(&out));
    }
}

#[test]
fn limit_settings_are_checked_and_shared_by_check_and_weave() {
    let case = Case::new();
    let aspect = case.write("a.lara", b"aspectdef A\n  var s = \"xx\";\n  s = s + s;\nend\n");
    let out = case.weave_with(&aspect, "ok.c", &["--limit", "strng=1"]);
    assert_refused(&case, &out, 2, "no limit named `strng`: did you mean `string`?");
    let out = case.weave_with(&aspect, "ok.c", &["--limit", "string=lots"]);
    assert_refused(&case, &out, 2, "not a count");
    let check = |options: &[&str]| {
        weft_support::command()
            .arg("check")
            .args(options)
            .arg(&aspect)
            .output()
            .unwrap()
    };
    assert_eq!(check(&["--limit", "string=1K"]).status.code(), Some(0));
    assert_eq!(check(&["--limit", "nope=1"]).status.code(), Some(2));
    // The same aspect within a lowered limit stops; lifted (0), it runs.
    let out = case.weave_with(&aspect, "ok.c", &["--limit", "string=3"]);
    assert_refused(&case, &out, 1, "a string grew past 3 bytes");
    let out = case.weave_with(&aspect, "ok.c", &["--limit", "string=0"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `weft check FILE`: its exit status and stderr.
fn check(aspect: &Path) -> (Option<i32>, String) {
    let out = weft_support::command()
        .arg("check")
        .arg(aspect)
        .output()
        .expect("weft runs");
    (out.status.code(), stderr(&out))
}

/// An aspect inserting `code` (a '…' string or a %{…}% block) before
/// each function.
fn inserting(code: &str) -> String {
    format!("aspectdef A\n  select function end\n  apply\n    insert before {code};\n  end\nend\n")
}

#[test]
fn an_unterminated_interpolation_is_an_error_at_its_brackets() {
    // Column 19 is the first character of the code; `[[` is at 19 + offset.
    let cases = [
        ("%{ int x = [[n; }%", 30),
        ("'int x = [[n;'", 28),
        // A `]]` inside the expression's own brackets does not close it.
        ("%{ x = [[a[[0]] ; }%", 26),
        ("%{ int y = [[1]]; int x = [[n; }%", 45),
    ];
    for (code, column) in cases {
        let case = Case::new();
        let aspect = case.write("i.lara", inserting(code).as_bytes());
        let out = case.weave(&aspect, "ok.c");
        assert_refused(
            &case,
            &out,
            2,
            "unterminated `[[`: no `]]` closes this interpolation",
        );
        let err = stderr(&out);
        assert!(err.contains(&format!("/i.lara:4:{column}\n")), "{code}:\n{err}");
        assert!(err.contains("^^"), "{err}");
        let (status, checked) = check(&aspect);
        assert_eq!(status, Some(2), "weft check agrees: {checked}");
        assert!(checked.contains(&format!("i.lara:4:{column}")), "{checked}");
    }
}

#[test]
fn closing_brackets_alone_are_c_and_kept() {
    let case = Case::new();
    let aspect = case.write(
        "i.lara",
        inserting("%{ int a[2][2], b[2]; int c = a[b[0]][b[1]]; }%").as_bytes(),
    );
    let out = case.weave(&aspect, "ok.c");
    assert!(out.status.success(), "{}", stderr(&out));
    let woven = std::fs::read_to_string(case.path("out/ok.c")).unwrap();
    assert!(woven.contains("int c = a[b[0]][b[1]];"), "{woven}");
}

#[test]
fn a_number_c_cannot_spell_is_not_interpolated() {
    for (expr, shown) in [
        ("1/0", "inf"),
        ("0.0/0.0", "NaN"),
        ("-1.0/0.0", "-inf"),
        ("1e308 * 10.0", "inf"),
    ] {
        let case = Case::new();
        let aspect = case.write(
            "i.lara",
            inserting(&format!("%{{ double d = 1; double x = [[{expr}]]; }}%")).as_bytes(),
        );
        let out = case.weave(&aspect, "ok.c");
        assert_refused(
            &case,
            &out,
            1,
            &format!("`[[…]]` is the number {shown}, which C cannot spell"),
        );
        // At the expression inside `[[`: column 19 + 30.
        assert!(
            stderr(&out).contains("/i.lara:4:49\n"),
            "{expr}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn check_and_weave_agree_on_aspects_without_an_aspectdef() {
    for text in [
        "",
        "// only a comment\n",
        "/* nothing */ import \"other.lara\";\n",
    ] {
        let case = Case::new();
        case.write("other.lara", b"// nothing either\n");
        let aspect = case.write("a.lara", text.as_bytes());
        let out = case.weave(&aspect, "ok.c");
        assert_refused(&case, &out, 2, "defines no aspectdef");
        let (status, checked) = check(&aspect);
        assert_eq!(status, Some(2), "{text:?}: {checked}");
        assert!(checked.contains("defines no aspectdef"), "{checked}");
    }
}

#[test]
fn c_on_standard_input_is_refused_or_named() {
    let case = Case::new();
    let aspect = ascv3();
    let weave_stdin = |stdin: std::process::Stdio| {
        weft_support::command()
            .args(["weave", "--aspect"])
            .arg(&aspect)
            .args(["--diff", "/dev/stdin"])
            .current_dir(case.dir.path())
            .stdin(stdin)
            .output()
            .expect("weft runs")
    };
    // A pipe: refused, with what to do instead.
    let mut piped = weft_support::command()
        .args(["weave", "--aspect"])
        .arg(&aspect)
        .args(["--diff", "/dev/stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    piped
        .stdin
        .take()
        .unwrap()
        .write_all(b"int f(void) { return 0; }\n")
        .unwrap();
    let out = piped.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is neither a file nor a directory"),
        "{}",
        stderr(&out)
    );
    // A file redirected: its name (`stdin`) is not a .c name, and weft says so.
    let file = std::fs::File::open(case.path("ok.c")).unwrap();
    let out = weave_stdin(file.into());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`/dev/stdin` is copied, not woven"),
        "{}",
        stderr(&out)
    );
}
