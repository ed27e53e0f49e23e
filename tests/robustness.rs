//! Bad input, case by case (docs/robustness.md): hostile aspects and
//! hostile C given to `weft weave`. For each: the exit status, a message
//! that says what is wrong, no panic, and nothing written on failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
        Command::new(env!("CARGO_BIN_EXE_weft"))
            .arg("weave")
            .arg("--aspect")
            .arg(aspect)
            .args(["--output", "out", input])
            .current_dir(self.dir.path())
            .output()
            .expect("weft runs")
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
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
    let built = Command::new("gcc")
        .args(["-c", "-o", "/dev/null"])
        .arg(&woven)
        .output()
        .expect("gcc runs");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
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
