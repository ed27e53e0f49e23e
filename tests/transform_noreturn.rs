//! NormalizeReturn and noreturn functions: fall-off reports, and noreturn
//! declared in project headers through macros.

use std::path::{Path, PathBuf};

use weft::c::{ParsedFile, Sources};
use weft::program::transform_text;
use weft::sema::Semantics;
use weft::transform::run;

#[test]
fn non_void_functions_that_may_fall_off_their_end_are_reported() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/transform/NormalizeReturn/falloff.c");
    let file = ParsedFile::parse_plain(&path, std::fs::read_to_string(&path).unwrap());
    let sema = Semantics::build(std::slice::from_ref(&file), &[]);
    let out = run("NormalizeReturn", &file, &sema, 0).unwrap();
    let reported: Vec<String> = out
        .skipped
        .iter()
        .map(|s| format!("{}: {}", s.line, s.reason))
        .collect();
    assert_eq!(
        reported,
        [
            "4: non-void function `sign` may fall off its end (no return added)",
            "38: non-void function `variant` may fall off its end (no return added)",
            "45: non-void function `twice` may fall off its end (no return added)",
            "50: `main` may fall off its end, which returns 0 (no return added)",
        ],
        "{reported:#?}"
    );
}

#[test]
fn calls_of_standard_and_declared_noreturn_functions() {
    let text = "void die(void) __attribute__((noreturn));\n\
                void f(void (*exit)(int)) { exit(1); abort(); die(); }\n";
    let file = ParsedFile::parse_plain("n.c", text);
    let sema = Semantics::build(std::slice::from_ref(&file), &[]);
    let body = text.find('{').unwrap();
    assert!(sema.is_noreturn(0, body, "die"));
    assert!(sema.is_noreturn(0, body, "abort"));
    assert!(!sema.is_noreturn(0, body, "f"));
    // A parameter named like a standard function is not that function.
    assert!(!sema.is_noreturn(0, body, "exit"));
    assert!(sema.is_noreturn(0, 0, "exit"));
}

#[test]
fn a_macro_named_for_noreturn_counts_even_undefined() {
    // `MY_NORETURN` is defined in a header weft does not read (config.h).
    let text = "#include <config.h>\nMY_NORETURN void fail(int code);\nvoid done(int code);\n\
                void f(void) { fail(1); done(0); }\n";
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("m.c");
    std::fs::write(&c, text).unwrap();
    let front_end = Sources::collect(std::slice::from_ref(&c), false)
        .and_then(|s| s.front_end(None))
        .unwrap();
    let file = front_end.parse(&c, text.into());
    let sema = Semantics::build(std::slice::from_ref(&file), &[]);
    let body = text.find('{').unwrap();
    assert!(sema.is_noreturn(0, body, "fail"));
    assert!(!sema.is_noreturn(0, body, "done"));
}

/// gzip's layout: prototypes with `noreturn` and gnulib-style macros in a
/// project header, definitions without them in the .c file.
#[test]
fn noreturn_prototypes_in_project_headers_count() {
    let dir = tempfile::tempdir().unwrap();
    let header = "#include <stdnoreturn.h>\n\
                  #define _GL_ATTRIBUTE_NORETURN __attribute__ ((__noreturn__))\n\
                  #define ATTRIBUTE_NORETURN _GL_ATTRIBUTE_NORETURN\n\
                  extern noreturn void abort_all (void);\n\
                  ATTRIBUTE_NORETURN void fatal (char const *m);\n\
                  void cleanup (void);\n";
    let source = "#include \"errors.h\"\n\
                  void abort_all (void)\n{\n    cleanup ();\n}\n\
                  void fatal (char const *m)\n{\n    cleanup ();\n}\n\
                  void cleanup (void)\n{\n    abort_all ();\n}\n\
                  void quiet (void)\n{\n    cleanup ();\n}\n";
    std::fs::write(dir.path().join("errors.h"), header).unwrap();
    let c = dir.path().join("errors.c");
    std::fs::write(&c, source).unwrap();
    let front_end = Sources::collect(std::slice::from_ref(&c), false)
        .and_then(|s| s.front_end(None))
        .unwrap();
    let files = [(c.clone(), source.to_string())];
    let include: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let (texts, reports) = transform_text(&front_end, &files, &["NormalizeReturn"], &include).unwrap();
    let added: Vec<usize> = texts[0]
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "return;")
        .map(|(i, _)| i + 1)
        .collect();
    // Only `quiet` may return through its end: `cleanup` ends by calling
    // the noreturn `abort_all`, the other two are noreturn.
    assert_eq!(added, [17], "{}", texts[0]);
    assert!(
        reports[0].outcomes[0].skipped.is_empty(),
        "{:?}",
        reports[0].outcomes
    );
}
