//! Symbols and types: scopes, typedefs through project headers, K&R
//! parameters, struct members, standard typedefs.

use std::path::PathBuf;

use weft::c::ParsedFile;
use weft::sema::{DeclKind, Semantics, StorageClass, TypeKind};

/// The type of the `nth` identifier node spelled `name`.
fn type_at(sema: &Semantics, file: &ParsedFile, name: &str, nth: usize) -> weft::sema::CType {
    let tree = file.whole_tree();
    let root = tree.root_node();
    let node = file
        .view
        .match_indices(name)
        .filter_map(|(i, _)| root.descendant_for_byte_range(i, i + name.len()))
        .filter(|n| n.kind().ends_with("identifier") && file.node_text(*n) == name)
        .nth(nth)
        .expect("occurrence");
    sema.type_of(0, node)
}

#[test]
fn resolves_scopes_typedefs_headers_and_members() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("defs.h"),
        "typedef unsigned char uch;\ntypedef struct node { uch tag; struct node *next; volatile int flag; } node_t;\n",
    )
    .unwrap();
    let text = "#include \"defs.h\"\n#include <stdio.h>\nstatic const int limit = 3;\nsize_t total;\nint f(a, b) int a; char *b; { node_t n, *p = &n; FILE *fp; uch c = a; { double c; c = 1; } p->next = 0; n.flag = c; return limit; }\n";
    let path = dir.path().join("main.c");
    std::fs::write(&path, text).unwrap();
    let file = ParsedFile::parse_plain(path, text);
    let sema = Semantics::build(std::slice::from_ref(&file), &[] as &[PathBuf]);

    let limit = type_at(&sema, &file, "limit", 1);
    assert!(limit.is_primitive() && limit.is_const);
    assert!(type_at(&sema, &file, "total", 0).is_primitive());
    assert_eq!(
        type_at(&sema, &file, "b", 1).kind,
        TypeKind::Pointer(Box::new(weft::sema::CType::new(TypeKind::Integer("char".into()))))
    );
    assert!(type_at(&sema, &file, "a", 2).is_primitive());
    assert!(type_at(&sema, &file, "n", 2).is_struct());
    assert!(type_at(&sema, &file, "p", 1).is_pointer());
    assert!(type_at(&sema, &file, "fp", 0).target().unwrap().is_struct());
    // Inner block: `c` is the double; outside it, the `uch`.
    assert_eq!(
        type_at(&sema, &file, "c", 2).kind,
        TypeKind::Floating("double".into())
    );
    assert_eq!(
        type_at(&sema, &file, "c", 3).kind,
        TypeKind::Integer("unsigned char".into())
    );
    // Members through a typedef of a header's struct.
    let next = type_at(&sema, &file, "next", 0);
    assert!(next.is_pointer() && next.target().unwrap().is_struct());
    assert!(type_at(&sema, &file, "flag", 0).is_volatile);
    let f = sema.lookup(0, text.len() - 1, "f").unwrap();
    assert_eq!(f.kind, DeclKind::Function);
    assert_eq!(f.spelling.as_ref().unwrap().declare("r"), "int r;");
    let limit_decl = sema.lookup(0, text.len() - 1, "limit").unwrap();
    assert_eq!(limit_decl.storage, StorageClass::Static);
}

#[test]
fn never_panics_on_broken_input() {
    for text in [
        "int f( {",
        "struct { int",
        "typedef",
        "x = ;",
        "int (*(*g)(int))[3];",
        "}}}{{{",
    ] {
        let file = ParsedFile::parse_plain("broken.c", text);
        let sema = Semantics::build(std::slice::from_ref(&file), &[]);
        let _ = sema.unparsed_lines(0);
        for pass in weft::transform::pass_names() {
            let _ = weft::transform::run(pass.0, &file, &sema, 0).unwrap();
        }
    }
}

#[test]
fn a_type_name_that_is_a_macro_of_type_keywords_is_that_type() {
    // dcraw's style: `#define ushort unsigned short` in the file, and one
    // in a header; a macro defined twice (per configuration) stays unknown.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("defs.h"), "#define uchar unsigned char\n").unwrap();
    let text = "#include \"defs.h\"\n#define ushort unsigned short\n#ifdef WIDE\n#define word long\n#else\n#define word short\n#endif\nint f(void) { ushort a = 1; uchar b = 2; word c = 3; return a + b + c; }\n";
    let path = dir.path().join("main.c");
    std::fs::write(&path, text).unwrap();
    let file = ParsedFile::parse_plain(path, text);
    let sema = Semantics::build(std::slice::from_ref(&file), &[] as &[PathBuf]);
    assert_eq!(
        type_at(&sema, &file, "a", 0).kind,
        TypeKind::Integer("unsigned short".into())
    );
    assert_eq!(
        type_at(&sema, &file, "b", 0).kind,
        TypeKind::Integer("unsigned char".into())
    );
    assert_eq!(type_at(&sema, &file, "c", 0).kind, TypeKind::Unknown);
}
