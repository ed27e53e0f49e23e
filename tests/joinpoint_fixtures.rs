//! Selections and attribute values over small C fixtures.

use weft::c::ParsedFile;
use weft::engine::HostError;
use weft::joinpoint::{self, JoinPoint, Value};
use weft::sema::Semantics;

fn fixture(name: &str) -> Vec<ParsedFile> {
    let path = format!("{}/tests/fixtures/joinpoint/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    vec![ParsedFile::parse_plain(path, text)]
}

fn source(text: &str) -> Vec<ParsedFile> {
    vec![ParsedFile::parse_plain("inline.c", text)]
}

/// Runs a select chain such as `function.loop` from the program.
fn chain(files: &[ParsedFile], path: &str) -> Vec<JoinPoint> {
    let mut current = vec![JoinPoint::program()];
    for step in path.split('.') {
        current = current
            .iter()
            .flat_map(|jp| joinpoint::select(files, jp, step).expect("valid select"))
            .collect();
    }
    current
}

/// The selected join points of `jp` by kind, e.g. `sel(files, &main, "var")`.
fn sel(files: &[ParsedFile], jp: &JoinPoint, kind: &str) -> Vec<JoinPoint> {
    joinpoint::select(files, jp, kind).expect("valid select")
}

/// Attribute `name` of `jp`, with the semantics of `files` (tiny fixtures:
/// building it per call costs nothing).
fn attribute(files: &[ParsedFile], jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
    let sema = Semantics::build(files, &[]);
    joinpoint::attribute(files, Some(&sema), jp, name)
}

fn show(v: Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => s,
        Value::JoinPoint(jp) => jp.kind.to_string(),
        Value::List(l) => format!("{l:?}"),
    }
}

/// Attribute `name` of each join point, shown as text.
fn attrs(files: &[ParsedFile], jps: &[JoinPoint], name: &str) -> Vec<String> {
    jps.iter()
        .map(|jp| show(attribute(files, jp, name).expect("valid attribute")))
        .collect()
}

/// Attribute `name` of one join point, shown as text.
fn one(files: &[ParsedFile], jp: &JoinPoint, name: &str) -> String {
    show(attribute(files, jp, name).expect("valid attribute"))
}

fn function(files: &[ParsedFile], name: &str) -> JoinPoint {
    chain(files, "file.function")
        .into_iter()
        .find(|f| show(attribute(files, f, "name").unwrap()) == name)
        .expect("function exists")
}

#[test]
fn functions_and_their_attributes() {
    let files = fixture("sample.c");
    let fns = chain(&files, "file.function");
    assert_eq!(attrs(&files, &fns, "name"), ["sum", "scale", "old_style", "main"]);
    assert_eq!(attrs(&files, &fns, "num_params"), ["2", "4", "2", "0"]);
    assert_eq!(attrs(&files, &fns, "numParams"), ["2", "4", "2", "0"]);
    assert_eq!(
        attrs(&files, &fns, "return_type"),
        ["int", "double", "int", "int"]
    );
    assert_eq!(
        attrs(&files, &fns, "is_static"),
        ["false", "true", "false", "false"]
    );
    assert_eq!(attrs(&files, &fns, "num_loops"), ["1", "0", "4", "0"]);
    assert_eq!(attrs(&files, &fns[..1], "line"), ["13"]);
    assert_eq!(attrs(&files, &fns[..1], "column"), ["1"]);
    assert_eq!(attrs(&files, &fns[..1], "parent"), ["file"]);
    assert!(attrs(&files, &fns[..1], "file")[0].ends_with("sample.c"));
    // Selecting from the program reaches the same functions.
    assert_eq!(chain(&files, "function"), fns);
}

#[test]
fn loops_kinds_ranks_nesting_and_iterations() {
    let files = fixture("sample.c");
    let loops = chain(&files, "function.loop");
    assert_eq!(
        attrs(&files, &loops, "kind"),
        ["for", "for", "for", "while", "dowhile"]
    );
    assert_eq!(attrs(&files, &loops, "type"), attrs(&files, &loops, "kind"));
    assert_eq!(attrs(&files, &loops, "rank"), ["1", "2", "2.1", "2.2", "3"]);
    assert_eq!(attrs(&files, &loops, "nested_level"), ["0", "0", "1", "1", "0"]);
    assert_eq!(
        attrs(&files, &loops, "isInnermost"),
        ["true", "false", "true", "true", "true"]
    );
    // `i < n` has no literal bound; the outer loop's body writes `j`.
    assert_eq!(
        attrs(&files, &loops, "num_iterations"),
        ["null", "null", "4", "null", "null"]
    );
    assert_eq!(
        attrs(&files, &loops, "control_var"),
        ["i", "j", "k", "null", "null"]
    );
    // loop.loop: the loops nested in a loop.
    assert_eq!(sel(&files, &loops[1], "loop").len(), 2);
}

#[test]
fn counted_loops() {
    let files = source(
        "void f(int *a) { int i;\n for (i = 0; i < 10; i++) a[i] = 0;\n for (int j = 10; j >= 0; j -= 3) a[j] = 1;\n for (i = 0; i != 9; i += 3) ;\n for (i = 5; i < 0; i++) ;\n for (i = 0; i < 4; i--) ; }",
    );
    let loops = chain(&files, "function.loop");
    assert_eq!(
        attrs(&files, &loops, "num_iterations"),
        ["10", "4", "3", "0", "null"]
    );
}

#[test]
fn var_references_and_loop_headers() {
    let files = fixture("sample.c");
    let main = function(&files, "main");
    let vars = sel(&files, &main, "var");
    let shown: Vec<String> = attrs(&files, &vars, "name")
        .into_iter()
        .zip(attrs(&files, &vars, "reference"))
        .map(|(n, r)| format!("{n}:{r}"))
        .collect();
    assert_eq!(
        shown,
        [
            "a:readwrite",
            "b:read",
            "c:readwrite",
            "x:write",
            "y:read",
            "pt:read",
            "x:read",
            "a:read",
            "x:write",
            "table:read",
            "N:read",
            "x:write",
            "a:read",
            "x:read",
            "x:write",
            "x:read"
        ]
    );
    let sum = function(&files, "sum");
    let vars = sel(&files, &sum, "var");
    assert_eq!(
        attrs(&files, &vars, "name"),
        ["i", "i", "n", "i", "s", "v", "i", "s"]
    );
    assert_eq!(
        attrs(&files, &vars, "in_loop_header"),
        ["true", "true", "true", "true", "false", "false", "false", "false"]
    );
    assert_eq!(attrs(&files, &vars[4..5], "parent"), ["assignment"]);
}

#[test]
fn first_and_last_statements_and_declarations() {
    let files = fixture("sample.c");
    let firsts = chain(&files, "function.first_stmt");
    let first_lines: Vec<String> = attrs(&files, &firsts, "code")
        .iter()
        .map(|c| c.lines().next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        first_lines,
        [
            "for (i = 0; i < n; i++)",
            "r = x * k;",
            "for (j = 10; j > 0; j -= 2) {",
            "a += b;"
        ]
    );
    assert_eq!(chain(&files, "function.body.first_stmt"), firsts);
    assert_eq!(chain(&files, "function.firstStmt"), firsts);
    let sum = function(&files, "sum");
    assert_eq!(
        attrs(&files, &sel(&files, &sum, "last_stmt"), "code"),
        ["return s;"]
    );
    assert_eq!(
        attrs(&files, &sel(&files, &sum, "first_decl"), "code"),
        ["int s = 0;"]
    );
    assert_eq!(attrs(&files, &sel(&files, &sum, "last_decl"), "code"), ["int i;"]);
    // A brace-less loop body is its single statement.
    let lp = &sel(&files, &sum, "loop")[0];
    assert_eq!(
        attrs(&files, &sel(&files, lp, "first_stmt"), "code"),
        ["s += v[i];"]
    );
    assert_eq!(attrs(&files, &sel(&files, lp, "body"), "has_braces"), ["false"]);
    // In a block body, the first statement comes after the declarations.
    let outer = &chain(&files, "function.loop")[1];
    let first = attrs(&files, &sel(&files, outer, "first_stmt"), "code");
    assert!(first[0].starts_with("for (k = 0;"), "{first:?}");
    // A body of declarations only has no first statement.
    let decls_only = source("void f(void) { int a; }");
    assert!(chain(&decls_only, "function.first_stmt").is_empty());
    assert_eq!(chain(&decls_only, "function.last_stmt").len(), 1);
}

#[test]
fn returns_and_their_vars() {
    let files = fixture("sample.c");
    let rets = chain(&files, "function.return");
    assert_eq!(attrs(&files, &rets, "value"), ["s", "r + p.y", "a", "x"]);
    let per_return: Vec<Vec<String>> = rets
        .iter()
        .map(|r| attrs(&files, &sel(&files, r, "var"), "name"))
        .collect();
    assert_eq!(per_return, [vec!["s"], vec!["r", "p"], vec!["a"], vec!["x"]]);
}

#[test]
fn calls_and_args() {
    let files = fixture("sample.c");
    let calls = chain(&files, "function.call");
    assert_eq!(attrs(&files, &calls, "name"), ["printf", "sum"]);
    assert_eq!(attrs(&files, &calls, "num_args"), ["3", "2"]);
    assert_eq!(attrs(&files, &calls, "numArgs"), ["3", "2"]);
    let args = sel(&files, &calls[1], "arg");
    assert_eq!(attrs(&files, &args, "code"), ["table", "N"]);
    assert_eq!(attrs(&files, &args, "index"), ["0", "1"]);
}

#[test]
fn parameters_and_approximate_types() {
    let files = fixture("sample.c");
    let params = chain(&files, "function.param");
    assert_eq!(
        attrs(&files, &params, "name"),
        ["v", "n", "x", "k", "p", "name", "a", "b"]
    );
    assert_eq!(
        attrs(&files, &params, "type"),
        [
            "int *", "int", "double", "uch", "point_t", "string", "int", "char *"
        ]
    );
    let flags = |name| attrs(&files, &params, name);
    assert_eq!(
        flags("is_primitive"),
        ["false", "true", "true", "true", "false", "false", "true", "false"]
    );
    assert_eq!(
        flags("is_pointer"),
        [
            "true", "false", "false", "false", "false", "true", "false", "true"
        ]
    );
    assert_eq!(
        flags("is_struct"),
        [
            "false", "false", "false", "false", "true", "false", "false", "false"
        ]
    );
    assert_eq!(flags("is_param"), ["true"; 8]);

    let main = function(&files, "main");
    let vars = sel(&files, &main, "var");
    let by_name = |n: &str| {
        vars.iter()
            .find(|v| show(attribute(&files, v, "name").unwrap()) == n)
            .unwrap()
            .clone()
    };
    let table = by_name("table");
    assert_eq!(one(&files, &table, "is_array"), "true");
    assert_eq!(one(&files, &table, "is_global"), "true");
    assert_eq!(one(&files, &table, "declaration"), "vardecl");
    let pt = by_name("pt");
    assert_eq!(one(&files, &pt, "is_struct"), "true");
    assert_eq!(one(&files, &pt, "is_local"), "true");
    // A macro is not declared: every type flag is false.
    let n = by_name("N");
    assert_eq!(one(&files, &n, "is_primitive"), "false");
    assert_eq!(one(&files, &n, "type"), "null");

    let scale = function(&files, "scale");
    let counter = sel(&files, &scale, "var")
        .into_iter()
        .find(|v| show(attribute(&files, v, "name").unwrap()) == "counter")
        .unwrap();
    assert_eq!(one(&files, &counter, "is_global"), "true");
    assert_eq!(one(&files, &counter, "is_primitive"), "true");
}

#[test]
fn variable_declarations() {
    let files = fixture("sample.c");
    let main = function(&files, "main");
    let decls = sel(&files, &main, "vardecl");
    assert_eq!(attrs(&files, &decls, "name"), ["a", "b", "c", "x", "y", "pt"]);
    assert_eq!(
        attrs(&files, &decls, "has_init"),
        ["true", "true", "true", "false", "true", "false"]
    );
    assert_eq!(attrs(&files, &decls, "is_local"), ["true"; 6]);
    let globals = chain(&files, "file.vardecl");
    let names = attrs(&files, &globals, "name");
    assert_eq!(&names[..3], ["counter", "table", "origin"]);
    assert_eq!(attrs(&files, &globals[..1], "storage_class"), ["static"]);
}

#[test]
fn operators_and_accesses() {
    let files = fixture("sample.c");
    let main = function(&files, "main");
    let members = sel(&files, &main, "memberAccess");
    assert_eq!(attrs(&files, &members, "name"), ["x"]);
    assert_eq!(attrs(&files, &members, "base"), ["pt"]);
    assert_eq!(attrs(&files, &members, "is_arrow"), ["false"]);
    let assigns = sel(&files, &main, "assignment");
    assert_eq!(
        attrs(&files, &assigns, "operator"),
        ["+=", "=", "=", "=", "=", "="]
    );
    let unary = sel(&files, &main, "unaryOp");
    assert_eq!(attrs(&files, &unary, "operator"), ["++", "-"]);
    assert_eq!(attrs(&files, &unary, "is_prefix"), ["false", "true"]);
    let sum = function(&files, "sum");
    let access = sel(&files, &sum, "arrayAccess");
    assert_eq!(attrs(&files, &access, "name"), ["v"]);
    assert_eq!(attrs(&files, &access, "subscript"), ["i"]);
    let ifs = sel(&files, &main, "if");
    assert_eq!(attrs(&files, &ifs, "condition"), ["a > 0"]);
    assert_eq!(attrs(&files, &ifs, "has_else"), ["true"]);
}

#[test]
fn unknown_names_are_reported_with_suggestions() {
    let files = fixture("sample.c");
    let main = function(&files, "main");
    match joinpoint::select(&files, &main, "lop") {
        Err(HostError::UnknownKind { suggestion, .. }) => assert_eq!(suggestion.as_deref(), Some("loop")),
        other => panic!("{other:?}"),
    }
    match attribute(&files, &main, "nmae") {
        Err(HostError::UnknownAttribute { suggestion, .. }) => {
            assert_eq!(suggestion.as_deref(), Some("name"))
        }
        other => panic!("{other:?}"),
    }
    // `param` exists but cannot be selected from a loop.
    let lp = chain(&files, "function.loop").remove(0);
    assert!(matches!(
        joinpoint::select(&files, &lp, "param"),
        Err(HostError::UnknownKind { .. })
    ));
}

#[test]
fn every_attribute_of_every_selected_kind_has_a_value() {
    let files = fixture("sample.c");
    for spec in joinpoint::kinds() {
        let jps = if spec.name == "program" {
            vec![JoinPoint::program()]
        } else {
            chain(&files, &joinpoint::selection_path(spec.name).unwrap().join("."))
        };
        assert!(
            !jps.is_empty() || spec.name == "program",
            "no `{}` in the fixture",
            spec.name
        );
        for jp in &jps {
            for attr in spec.all_attributes() {
                // Answered by the program's loop analysis, with a solver
                // (tests/nonterm_src.rs).
                if weft::program::is_recurrence_attribute(spec.name, attr.name) {
                    continue;
                }
                attribute(&files, jp, attr.name)
                    .unwrap_or_else(|e| panic!("{}.{}: {e}", spec.name, attr.name));
            }
        }
    }
}

#[test]
fn not_understood_functions_have_nothing_inside() {
    let files = source("int ok(int a) { return a; }\nint bad(int a) { a = (1 + ; return a; }\n");
    let fns = chain(&files, "function");
    assert_eq!(attrs(&files, &fns, "name"), ["ok", "bad"]);
    let vars: Vec<usize> = fns.iter().map(|f| sel(&files, f, "var").len()).collect();
    assert_eq!(vars, [1, 0]);
    assert!(sel(&files, &fns[1], "param").is_empty());
}

#[test]
fn undeclared_vars_keep_their_common_attributes() {
    // `bits` is declared in a header the file does not show (gzip's globals
    // in gzip.h): no type and no flags, but parent, file and line as usual.
    let files = source("void f(void)\n{\n  bits = 0;\n}\n");
    let vars = chain(&files, "function.var");
    assert_eq!(attrs(&files, &vars, "name"), ["bits"]);
    assert_eq!(attrs(&files, &vars, "type"), ["null"]);
    assert_eq!(attrs(&files, &vars, "is_primitive"), ["false"]);
    assert_eq!(attrs(&files, &vars, "is_pointer"), ["false"]);
    assert_eq!(attrs(&files, &vars, "line"), ["3"]);
    assert_eq!(attrs(&files, &vars, "file"), ["inline.c"]);
    let parent = attribute(&files, &vars[0], "parent").unwrap();
    let Value::JoinPoint(parent) = parent else {
        panic!("parent is a join point: {parent:?}")
    };
    assert_eq!(parent.kind, "assignment");
}

#[test]
fn statements_inside_expressions_are_found() {
    // Selections of statement-level kinds skip expressions without braces;
    // GNU statement expressions and nested functions hold statements inside
    // expressions and blocks, and must still be found.
    let files = source(
        "int f(int n) {\n\
         \x20   int total = ({ int s = 0; for (int i = 0; i < n; i++) s += i; s; });\n\
         \x20   int twice(int x) { while (x > 100) x /= 2; return 2 * x; }\n\
         \x20   g(({ if (n) n--; n; }));\n\
         \x20   return twice(total);\n\
         }\n",
    );
    assert_eq!(
        attrs(&files, &chain(&files, "file.function"), "name"),
        ["f", "twice"]
    );
    let f = function(&files, "f");
    assert_eq!(attrs(&files, &sel(&files, &f, "loop"), "kind"), ["for", "while"]);
    assert_eq!(sel(&files, &f, "if").len(), 1);
    assert_eq!(
        attrs(&files, &sel(&files, &f, "vardecl"), "name"),
        ["total", "s", "i"]
    );
    assert_eq!(sel(&files, &f, "return").len(), 2);
}

#[test]
fn branches_their_outcomes_and_first_statements() {
    let files = source(
        "int f(int x) {\n\
         \x20 int r = 0;\n\
         \x20 if (x > 3) r = 1;\n\
         \x20 else if (x < 0) { int k = 2; r = k; }\n\
         \x20 else r = 3;\n\
         \x20 switch (x) {\n\
         \x20 case 1:\n\
         \x20 case 2: /* two */ r += 10; break;\n\
         \x20 default: { r--; }\n\
         \x20 }\n\
         \x20 while (r > 100) if (r) r--;\n\
         \x20 return r;\n\
         }\n",
    );
    let branches = chain(&files, "function.branch");
    assert_eq!(
        attrs(&files, &branches, "outcome"),
        ["then", "else", "then", "else", "case", "case", "default", "then"]
    );
    assert_eq!(
        attrs(&files, &branches, "line"),
        ["3", "4", "4", "5", "7", "8", "9", "11"]
    );
    // The first statement of each: none for the label that falls through;
    // past a declaration and a case's value and comment.
    let firsts: Vec<String> = branches
        .iter()
        .flat_map(|b| sel(&files, b, "first_stmt"))
        .map(|s| one(&files, &s, "code"))
        .collect();
    assert_eq!(
        firsts,
        [
            "r = 1;",
            "if (x < 0) { int k = 2; r = k; }\n  else r = 3;",
            "r = k;",
            "r = 3;",
            "r += 10;",
            "{ r--; }",
            "r--;"
        ]
    );
    // From an `if`, its own branches and those nested in them.
    let ifs = chain(&files, "function.if");
    assert_eq!(sel(&files, &ifs[0], "branch").len(), 4);
    assert_eq!(sel(&files, &ifs[1], "branch").len(), 2);
    let last = sel(&files, &chain(&files, "function.switch")[0], "branch")[1].clone();
    assert_eq!(one(&files, &sel(&files, &last, "last_stmt")[0], "code"), "break;");
}
