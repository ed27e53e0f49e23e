//! The Host implementation of Program: inserts, refusals, conflicts,
//! performs and commits.

use weft::c::FrontEnd;
use weft::engine::{Host, HostError, InsertAt};
use weft::joinpoint::JoinPoint;
use weft::program::Program;

fn program(src: &str) -> Program {
    Program::new(FrontEnd::default(), [("t.c".into(), src.to_string())])
}

/// A join point for the smallest node of `kind` at the start of `needle`.
fn jp(p: &mut Program, needle: &str, kind: &'static str) -> JoinPoint {
    let file = &p.files()[0];
    let start = file.view.find(needle).expect("needle");
    let tree = file.whole_tree();
    let mut node = tree.root_node().descendant_for_byte_range(start, start).unwrap();
    while node.kind() != kind {
        node = node.parent().expect("kind around needle");
    }
    JoinPoint {
        kind: "stmt",
        file: Some(0),
        range: node.byte_range(),
        node_kind: node.kind_id(),
    }
}

const SRC: &str = "int f(int x) {\n  int y = x;\n  y++;\n  return y;\n}\n";

#[test]
fn inserts_are_pending_until_commit_then_visible() {
    let mut p = program(SRC);
    let stmt = jp(&mut p, "y++", "expression_statement");
    p.insert(&stmt, InsertAt::Before, "log(y);").unwrap();
    p.insert(&stmt, InsertAt::After, "log(y);").unwrap();
    assert_eq!(&*p.files()[0].text, SRC);
    assert!(!p.is_changed(0));
    p.commit();
    assert_eq!(
        &*p.files()[0].text,
        "int f(int x) {\n  int y = x;\n  log(y);\n  y++;\n  log(y);\n  return y;\n}\n"
    );
    assert!(p.is_changed(0));
    // The tree was re-parsed: new statements are selectable.
    let log = jp(&mut p, "log(y);\n  y++", "expression_statement");
    assert_eq!(&p.files()[0].view[log.range.clone()], "log(y);");
    assert_eq!(p.woven().len(), 1);
}

#[test]
fn refusals_carry_file_line_and_column() {
    let mut p = program(SRC);
    let ret = jp(&mut p, "return", "return_statement");
    let err = p.insert(&ret, InsertAt::After, "x();").unwrap_err();
    let HostError::Refused { location, message } = err else {
        panic!("expected a refusal")
    };
    assert_eq!(location, "t.c:4:3");
    assert!(message.contains("never run"), "{message}");
    let root = p.root();
    assert!(matches!(
        p.insert(&root, InsertAt::Before, "x();"),
        Err(HostError::Refused { .. })
    ));
}

#[test]
fn overlapping_replacements_fail_naming_both() {
    let mut p = program(SRC);
    let stmt = jp(&mut p, "y++", "expression_statement");
    let expr = jp(&mut p, "y++", "update_expression");
    p.insert(&stmt, InsertAt::Replace, "y += 1;").unwrap();
    let err = p.insert(&expr, InsertAt::Replace, "++y").unwrap_err();
    assert_eq!(
        err,
        HostError::Failed("overlapping replacements: t.c:3:3 and t.c:3:3".into())
    );
}

#[test]
fn a_stale_join_point_fails_instead_of_editing_the_wrong_text() {
    let mut p = program(SRC);
    let stmt = jp(&mut p, "return", "return_statement");
    let first = jp(&mut p, "int y", "declaration");
    p.insert(&first, InsertAt::After, "y = 2;").unwrap();
    p.commit();
    assert!(matches!(
        p.insert(&stmt, InsertAt::Before, "z();"),
        Err(HostError::Failed(m)) if m.contains("no longer exists")
    ));
}

#[test]
fn perform_runs_transformations_and_refuses_unroll() {
    let mut p = program("void f(void) {\n  int a, b;\n  a = b = 0;\n}\n");
    let root = p.root();
    let err = p.perform(&root, "Unroll", &[]).unwrap_err();
    assert!(err.to_string().contains("Unroll is not implemented"), "{err}");
    let err = p.perform(&root, "Vectorize", &[]).unwrap_err();
    assert!(err.to_string().contains("Vectorize"), "{err}");
    p.perform(&root, "SingleDeclarator", &[]).unwrap();
    p.commit();
    let text = &*p.files()[0].text;
    assert!(text.contains("int a;") && text.contains("int b;"), "{text}");
}

#[test]
fn a_program_with_no_edits_is_unchanged() {
    let mut p = program(SRC);
    p.commit();
    assert!(!p.is_changed(0));
    assert!(p.woven().is_empty());
}
