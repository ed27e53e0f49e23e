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
