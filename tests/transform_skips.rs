//! Side-effecting, volatile and unknown left-hand sides are left untouched
//! and reported with a reason.

use weft::c::ParsedFile;
use weft::sema::Semantics;
use weft::transform::run;

#[test]
fn unsafe_left_hand_sides_are_skipped_with_reasons() {
    let text = "int g(void);\nvoid f(int *p, int i) {\n  int a[4];\n  volatile int v = 0;\n  a[i++] += 1;\n  *p++ -= 2;\n  v += 1;\n  unknown += 1;\n  a[g()]++;\n}\n";
    let file = ParsedFile::parse_plain("s.c", text);
    let sema = Semantics::build(std::slice::from_ref(&file), &[]);
    let out = run("AssignmentExpansion", &file, &sema, 0).unwrap();
    assert!(out.edits.is_empty(), "{:?}", out.edits);
    let lines: Vec<usize> = out.skipped.iter().map(|s| s.line).collect();
    assert_eq!(lines, vec![5, 6, 7, 8]);
    assert!(out.skipped[2].reason.contains("volatile"));
    let out = run("UnaryExpansion", &file, &sema, 0).unwrap();
    assert!(out.edits.is_empty());
    assert!(out.skipped[0].reason.contains("calls a function"));
    assert!(run("NoSuchPass", &file, &sema, 0).is_err());
}

/// A function named through a declarer macro (bzip2's `BZ_API(f)`, which
/// adds a calling convention on Windows and is the bare name elsewhere):
/// the front end reads the name, but the declarator's text is not the
/// parser's, so the return type cannot be cut from it. NormalizeReturn
/// leaves the returns alone and says why; before, it copied `BZ_API(`
/// into the temporary's type and broke the build.
#[test]
fn a_return_type_around_a_macro_repair_is_not_spelled() {
    use std::path::PathBuf;
    use weft::c::{FrontEnd, MacroTable};
    use weft::program::transform_text;
    let text = "#if W\n# define API(f) WINAPI f\n#else\n# define API(f) f\n#endif\n\
                struct s { int v; };\nstruct s *API(open_it)(int x)\n{\n  if (x)\n    return 0;\n  return 0;\n}\n";
    let path = PathBuf::from("api.c");
    let front = FrontEnd::new(MacroTable::learn([(path.as_path(), text)]));
    let (texts, report) =
        transform_text(&front, &[(path, text.to_string())], &["NormalizeReturn"], &[]).unwrap();
    assert_eq!(texts[0], text);
    let skipped = &report[0].outcomes[0].skipped;
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].line, 7);
    assert!(
        skipped[0].reason.contains("`open_it` cannot be spelled"),
        "{skipped:?}"
    );
}
