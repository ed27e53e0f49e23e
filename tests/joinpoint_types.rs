//! Exact type attributes of param, vardecl and var join points, resolved
//! through a project header by the program's semantics (built lazily and
//! rebuilt after a commit that changes the text).

use weft::c::{FrontEnd, MacroTable, ParsedFile};
use weft::engine::{Host, InsertAt};
use weft::joinpoint::{self, JoinPoint, Value};
use weft::program::Program;
use weft::sema::Semantics;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/joinpoint/types/types.c"
);

fn program() -> Program {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture exists");
    Program::new(FrontEnd::default(), [(FIXTURE.into(), text)])
}

fn select(p: &mut Program, kind: &str) -> Vec<JoinPoint> {
    let root = p.root();
    p.select(&root, kind).expect("valid select")
}

fn show(v: Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Str(s) => s,
        Value::JoinPoint(jp) => jp.kind.into(),
        other => format!("{other:?}"),
    }
}

/// `name: attr1 attr2 …` for the first join point of `kind` named `name`.
fn row(p: &mut Program, kind: &str, name: &str, attrs: &[&str]) -> String {
    let jp = select(p, kind)
        .into_iter()
        .find(|jp| p.attribute(jp, "name") == Ok(Value::Str(name.into())))
        .unwrap_or_else(|| panic!("no {kind} {name}"));
    let values: Vec<String> = attrs
        .iter()
        .map(|a| show(p.attribute(&jp, a).expect("valid attribute")))
        .collect();
    format!("{name}: {}", values.join(" "))
}

const SHAPE: &[&str] = &[
    "type",
    "type_known",
    "is_primitive",
    "is_pointer",
    "is_array",
    "is_struct",
    "is_const",
    "is_volatile",
    "storage_class",
];

#[test]
fn variables_are_typed_through_the_project_header() {
    let mut p = program();
    let rows: Vec<String> = [
        "value", "where", "sum", "copy", "name", "c", "fixed", "n", "m", "total", "window", "limit", "status",
    ]
    .iter()
    .map(|n| row(&mut p, "var", n, SHAPE))
    .collect();
    assert_eq!(
        rows,
        [
            "value: ush true true false false false false false null",
            "where: point_ref true false true false false false false null",
            "sum: ulg true true false false false false false register",
            "copy: point_t true false false false true false false null",
            "name: name_buf true false false true false false false null",
            "c: colour true true false false false false false null",
            "fixed: char *const true false true false false true false null",
            "n: size_t true true false false false false false null",
            // A type no header declares: unknown, so nothing else holds.
            "m: MYSTERY false false false false false false false null",
            "total: ulg true true false false false false false null",
            "window: uch [64] true false false true false false false null",
            "limit: const int true true false false false true false static",
            "status: volatile ush true true false false false false true null",
        ]
    );
}

/// `[name, scalar_type, element_type]` lists as `name:scalar:element`.
fn members(v: Value) -> Vec<String> {
    let Value::List(items) = v else {
        panic!("not a list: {v:?}")
    };
    items
        .into_iter()
        .map(|m| match m {
            Value::List(parts) => parts.into_iter().map(show).collect::<Vec<_>>().join(":"),
            other => panic!("not a member: {other:?}"),
        })
        .collect()
}

#[test]
fn what_a_variable_reaches_in_one_step_is_typed() {
    let mut p = program();
    let rows: Vec<String> = ["where", "copy", "name", "fixed", "window", "total"]
        .iter()
        .map(|n| row(&mut p, "var", n, &["target_type"]))
        .collect();
    assert_eq!(
        rows,
        [
            // A struct is not a scalar: its members are `fields`.
            "where: null",
            "copy: null",
            "name: char",
            "fixed: char",
            "window: unsigned char",
            "total: null",
        ]
    );
    let fields = |p: &mut Program, name: &str| {
        let jp = select(p, "var")
            .into_iter()
            .find(|jp| p.attribute(jp, "name") == Ok(Value::Str(name.into())))
            .unwrap();
        members(p.attribute(&jp, "fields").unwrap())
    };
    // Through a typedef of a pointer, and of a struct value.
    assert_eq!(fields(&mut p, "where"), ["x:int:null", "y:int:null"]);
    assert_eq!(fields(&mut p, "copy"), ["x:int:null", "y:int:null"]);
    assert!(fields(&mut p, "total").is_empty());
}

#[test]
fn uses_lead_to_their_declarations() {
    let mut p = program();
    let place = ["is_param", "is_local", "is_global", "declaration"];
    let rows: Vec<String> = ["value", "sum", "total", "GREEN"]
        .iter()
        .map(|n| row(&mut p, "var", n, &place))
        .collect();
    assert_eq!(
        rows,
        [
            "value: true false false param",
            "sum: false true false vardecl",
            // Defined in the file (the header's extern comes first, the
            // definition is the latest declaration).
            "total: false false true vardecl",
            // An enum constant is not an object.
            "GREEN: false false false null",
        ]
    );
}

/// The fixture parsed without macro knowledge, and its semantics.
fn plain() -> (Vec<ParsedFile>, Semantics) {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture exists");
    let files = vec![ParsedFile::parse_plain(FIXTURE, text)];
    let sema = Semantics::build(&files, &[]);
    (files, sema)
}

#[test]
fn old_style_parameters_take_their_declared_types() {
    let (files, sema) = plain();
    let attr = |jp: &JoinPoint, a: &str| {
        show(joinpoint::attribute(&files, Some(&sema), jp, a).expect("valid attribute"))
    };
    let root = JoinPoint::program();
    let params = joinpoint::select(&files, &root, "param").expect("valid select");
    let rows: Vec<String> = params
        .iter()
        .map(|p| {
            format!(
                "{}: {} {} {}",
                attr(p, "name"),
                attr(p, "type"),
                attr(p, "is_primitive"),
                attr(p, "is_pointer")
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "value: ush true false",
            "where: point_ref false true",
            "count: ush true false",
            "label: char * false true",
            // Not declared after the list: implicitly int.
            "flag: int true false",
        ]
    );
    let uses = joinpoint::select(&files, &root, "var").expect("valid select");
    let count = uses
        .iter()
        .find(|v| attr(v, "name") == "count")
        .expect("count is used");
    assert_eq!(attr(count, "declaration"), "param");
    assert_eq!(attr(count, "type"), "ush");
}

/// The macro-aware front end keeps the K&R parameter declarations that
/// tree-sitter-c parses (docs/front-end.md), so a program sees the same
/// types as the plain parse.
#[test]
fn old_style_parameters_keep_their_types_through_the_front_end() {
    let mut p = program();
    assert_eq!(
        row(
            &mut p,
            "var",
            "count",
            &["type", "type_known", "is_primitive", "is_param"]
        ),
        "count: ush true true true"
    );
    assert_eq!(
        row(&mut p, "param", "label", &["type", "is_pointer"]),
        "label: char * true"
    );
    assert_eq!(
        row(&mut p, "param", "flag", &["type", "is_primitive"]),
        "flag: int true"
    );
    assert_eq!(
        row(
            &mut p,
            "vardecl",
            "limit",
            &["type", "is_const", "storage_class", "is_global"]
        ),
        "limit: const int true static true"
    );
}

/// Every form of old-style definition through the macro-aware front end:
/// parameters take their declared types where tree-sitter-c parses the
/// declarations, and stay untyped (unknown, so left alone) where the front
/// end had to blank them.
#[test]
fn old_style_parameter_join_points_of_every_form() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/frontend/old_style.c");
    let text = std::fs::read_to_string(path).expect("fixture exists");
    let macros = MacroTable::learn([(std::path::Path::new(path), text.as_str())]);
    let mut p = Program::new(FrontEnd::new(macros), [(path.into(), text)]);
    let params = select(&mut p, "param");
    let rows: Vec<String> = params
        .iter()
        .map(|jp| {
            let values: Vec<String> = ["name", "type", "type_known", "storage_class"]
                .iter()
                .map(|a| show(p.attribute(jp, a).expect("valid attribute")))
                .collect();
            format!("{}: {}", values[0], values[1..].join(" "))
        })
        .collect();
    assert_eq!(
        rows,
        [
            "a: int true null",
            "b: char * true null",
            "x: ush true register",
            "y: ush true register",
            "fn: int (*)() true null",
            "buf: unsigned char * true null",
            "n: long true null",
            // Not declared after the list: implicitly int.
            "flag: int true null",
            // `char *lower(s, n)` and `long span(from, to)`: blanked, and
            // tree-sitter-c reads the bare list as type names.
            ": null false null",
            ": null false null",
            ": null false null",
            ": null false null",
        ]
    );
    assert_eq!(
        row(&mut p, "var", "flag", &["type", "is_param", "is_primitive"]),
        "flag: int true true"
    );
    assert_eq!(
        row(&mut p, "var", "s", &["type_known", "is_param"]),
        "s: false false"
    );
}

#[test]
fn semantics_follow_committed_edits() {
    let mut p = program();
    assert_eq!(row(&mut p, "var", "sum", &["type"]), "sum: ulg");
    let decl = select(&mut p, "vardecl")
        .into_iter()
        .find(|jp| p.attribute(jp, "name") == Ok(Value::Str("sum".into())))
        .expect("sum is declared");
    // A declaration inserted before `sum` shifts every offset: stale
    // semantics would resolve nothing.
    p.insert(&decl, InsertAt::Before, "ulg extra = 0;")
        .expect("insert");
    p.commit();
    assert_eq!(
        row(&mut p, "var", "sum", &["type", "is_primitive"]),
        "sum: ulg true"
    );
}
