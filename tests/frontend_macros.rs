//! Each macro class is recovered, and the repaired view maps back.

use std::path::Path;
use std::sync::Arc;
use weft::c::{FrontEnd, MacroClass, MacroTable, ParsedFile};

const HEADER: &str = include_str!("fixtures/frontend/macros.h");
const USES: &str = include_str!("fixtures/frontend/uses.c");

fn parse(text: &str, user: Option<&str>) -> ParsedFile {
    let mut macros = MacroTable::learn([(Path::new("macros.h"), HEADER), (Path::new("uses.c"), text)]);
    if let Some(u) = user {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("m.h");
        std::fs::write(&f, u).unwrap();
        macros.add_macro_file(&f).unwrap();
    }
    FrontEnd::new(macros).parse(Path::new("uses.c"), Arc::from(text))
}

fn functions(pf: &ParsedFile) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let tree = pf.whole_tree();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_definition" {
            let text = pf.original_text(n).unwrap_or("").to_string();
            let name = text
                .split('(')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .last()
                .unwrap_or("")
                .trim_start_matches('*')
                .to_string();
            out.push((name, pf.is_understood(n)));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out.sort();
    out
}

#[test]
fn classes_are_learned_from_definitions() {
    let t = MacroTable::learn([(Path::new("macros.h"), HEADER)]);
    assert_eq!(t.class("local"), Some(MacroClass::Attribute));
    assert_eq!(t.class("near"), Some(MacroClass::Attribute));
    assert_eq!(t.class("OF"), Some(MacroClass::Identity));
    assert_eq!(t.class("NEEDBITS"), Some(MacroClass::Statement));
    assert_eq!(t.class("list_for_each"), Some(MacroClass::Iterator));
    assert_eq!(t.class("DECLARE"), Some(MacroClass::Other));
}

#[test]
fn every_function_of_the_fixture_is_understood() {
    let pf = parse(USES, None);
    let raw = ParsedFile::parse_plain("uses.c", USES);
    assert!(
        raw.whole_tree().root_node().has_error(),
        "the fixture must defeat raw tree-sitter-c"
    );
    assert!(
        !pf.whole_tree().root_node().has_error(),
        "view still has errors:\n{}",
        pf.view
    );
    assert_eq!(
        functions(&pf),
        [
            ("add".into(), true),
            ("bits".into(), true),
            ("old_style".into(), true),
            ("walk".into(), true)
        ]
    );
    assert!(pf.problems.is_empty(), "{:?}", pf.problems);
}

#[test]
fn repairs_keep_the_view_aligned_with_the_original() {
    let pf = parse(USES, None);
    // Attribute and identity macros are blanked in place.
    assert!(pf.view.contains("      int add    (int a, int b) ;"));
    // The declarer became a real declaration, which is synthesized text.
    assert!(pf.view.contains("unsigned char inbuf[64];"));
    // The statement macro got its `;` without shifting what follows.
    assert!(pf.view.contains("NEEDBITS(4);"));
    // Only the first branch of the split `if` survives.
    assert!(!pf.view.contains("k > 3"));
    // Every understood named node maps back to the same original text.
    let tree = pf.whole_tree();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if pf.is_understood(n) && n.kind() == "identifier" {
            let r = pf.original_range(n.byte_range()).unwrap();
            assert_eq!(&USES[r], pf.node_text(n));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
}

#[test]
fn unknown_macros_are_problems_with_a_culprit_until_the_macro_file_says() {
    let text = "int f(void)\n{\n    for (;;) {\n        CHECKIT(x) y = 1;\n    }\n}\nMYDECL(a, b, +);\nint g(void) { return 0; }\n";
    let pf = parse(text, None);
    assert!(!pf.problems.is_empty());
    assert!(
        pf.problems
            .iter()
            .any(|p| p.culprit.as_deref() == Some("MYDECL") && p.line == 7),
        "{:?}",
        pf.problems
    );
    let fixed = parse(
        text,
        Some("#define MYDECL(a, b, c) int a\n#define CHECKIT(x) {x;}\n"),
    );
    assert!(
        fixed
            .problems
            .iter()
            .all(|p| p.culprit.as_deref() != Some("MYDECL")),
        "{:?}",
        fixed.problems
    );
}

#[test]
fn synthesized_text_is_never_editable() {
    let pf = parse(USES, None);
    let at = pf.view.find("NEEDBITS(4);").unwrap();
    let semi = at + "NEEDBITS(4)".len();
    assert_eq!(pf.original_range(semi..semi + 1), None);
    let decl = pf.view.find("unsigned char inbuf").unwrap();
    assert_eq!(pf.original_range(decl..decl + 8), None);
}

/// `lines` lines of i386 assembly, as gzip's lib/match.c has under an `#if`.
fn assembly(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("L{i}:  movl    {i}(%esp),%eax\n        cmpw    (%edi,%eax),%bx\n"))
        .collect()
}

#[test]
fn a_conditional_branch_that_is_not_c_is_skipped_whole_and_reported() {
    let text = format!(
        "int before(int x) {{ return x + 1; }}\n\
         #if defined __i386__\n{}#else\nint longest(int m) {{ return m; }}\n#endif\n\
         int after(int y) {{ return y * 2; }}\n",
        assembly(30)
    );
    let pf = parse(&text, None);
    assert_eq!(
        functions(&pf),
        [("after".to_string(), true), ("before".to_string(), true)]
    );
    let reasons: Vec<&str> = pf.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        reasons[0].starts_with("conditional group not understood ("),
        "{}",
        reasons[0]
    );
    assert!(reasons[0].contains("syntax errors in"), "{}", reasons[0]);
    // The branch is reported once, not as one syntax error per line.
    assert!(
        pf.problems.is_empty(),
        "{:?}",
        pf.problems.iter().map(|p| p.line).collect::<Vec<_>>()
    );
}

#[test]
fn a_long_branch_of_c_with_one_error_is_not_skipped() {
    let bodies: String = (0..12)
        .map(|i| format!("int f{i}(int x) {{\n    int y = x + {i};\n    return y;\n}}\n"))
        .collect();
    let text = format!("#ifdef FAST\n{bodies}int broken(int x) {{ return x +; }}\n#endif\n");
    let pf = parse(&text, None);
    let understood = functions(&pf).iter().filter(|(_, ok)| *ok).count();
    assert_eq!(understood, 12);
    assert!(pf.skipped.is_empty());
}

#[test]
fn parameter_lists_spelled_with_punctuation_macros_are_understood() {
    // bc's dc: one spelling for K&R compilers, one for ANSI ones.
    let text = "#ifndef __STDC__\n\
                # define DC_DECLARG(arglist) arglist\n\
                # define DC_DECLSEP ;\n\
                # define DC_DECLEND ;\n\
                # define DC_DECLVOID() ()\n\
                #else\n\
                # define DC_DECLARG(arglist) (\n\
                # define DC_DECLSEP ,\n\
                # define DC_DECLEND )\n\
                # define DC_DECLVOID() (void)\n\
                #endif\n\
                int dc_set DC_DECLARG((id, value))\n\
                \x20   int id DC_DECLSEP\n\
                \x20   long value DC_DECLEND\n\
                {\n    return id + (int) value;\n}\n\
                void dc_init DC_DECLVOID()\n{\n}\n";
    let pf = parse(text, None);
    let understood: Vec<bool> = functions(&pf).into_iter().map(|(_, ok)| ok).collect();
    assert_eq!(understood, [true, true]);
    assert!(pf.problems.is_empty());
    // The functions are read with their names and parameters.
    // The K&R spelling comes first: the identifier list, then declarations.
    assert!(
        pf.view
            .contains("int dc_set            (id, value) \n    int id ;"),
        "{}",
        pf.view
    );
    let tree = pf.whole_tree();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let params: Vec<usize> = root
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "function_definition")
        .map(|f| {
            let declarator = f.child_by_field_name("declarator").unwrap();
            let list = declarator.child_by_field_name("parameters").unwrap();
            list.named_child_count()
        })
        .collect();
    assert_eq!(params, [2, 0]);
    // The repairs keep lengths: the text maps back byte for byte.
    assert_eq!(pf.original_range(root.byte_range()), Some(0..text.len()));
}

#[test]
fn an_object_like_statement_macro_standing_alone_is_a_statement() {
    // flex's scanners end every rule with `YY_BREAK`.
    let text = "#define YY_BREAK /*LINTED*/break;\n\
                int f(int c) {\n    switch (c) {\n    case 1:\n        c = 2;\n        YY_BREAK\n\
                \x20   case 2:\n        c = 3;\n        YY_BREAK\n    }\n    return c;\n}\n";
    let pf = parse(text, None);
    assert_eq!(functions(&pf), [("f".to_string(), true)]);
    assert!(pf.problems.is_empty());
}

/// Parses `text` alone and requires every function in it understood,
/// with no problem reported.
fn all_understood(text: &str, names: &[&str]) {
    let pf = parse(text, None);
    let found = functions(&pf);
    assert_eq!(found.len(), names.len(), "{text}: {found:?}");
    assert!(found.iter().all(|(_, ok)| *ok), "{text}: {found:?}");
    for name in names {
        assert!(
            text.contains(&format!("{name} (")) || text.contains(&format!("{name}(")),
            "{name}"
        );
    }
    assert!(pf.problems.is_empty(), "{:?}", pf.problems);
}

#[test]
fn string_literal_macros_concatenate_with_their_neighbours() {
    // Wide-string macros (`L##s`, through another identity macro) and
    // format macros made of literals, glued to literals.
    let text = "#define _XCS(s) L##s\n#define XCS(s) _XCS(s)\n\
                #define FMT(mid) \"%\" mid \"u\"\n#define PREFIX \"<doc>\"\n\
                int printf(const char *, ...);\n\
                int f(unsigned n) {\n    const char *s = PREFIX \"x\" PREFIX;\n\
                \x20   printf(\"n=\" FMT(\"l\") \"\\n\", n);\n    return XCS(\"a\") XCS(\"b\")[0] + s[0];\n}\n";
    let t = MacroTable::learn([(Path::new("uses.c"), text)]);
    assert_eq!(t.class("XCS"), Some(MacroClass::Identity));
    assert_eq!(t.class("FMT"), Some(MacroClass::StringLiteral));
    assert_eq!(t.class("PREFIX"), Some(MacroClass::StringLiteral));
    all_understood(text, &["f"]);
}

#[test]
fn operator_arguments_and_calling_conventions_are_read() {
    // A test framework's `CHECK(a, >, b)`, and a Windows calling convention
    // no file defines, inside a function pointer declarator.
    let text = "#define CHECK(a, op, b) do { if (!((a) op (b))) return 1; } while (0)\n\
                int f(int n) {\n    typedef int (WINAPI *handler)(int);\n    CHECK(n, >, 0);\n    CHECK(n, !=, 3);\n    return 0;\n}\n";
    all_understood(text, &["f"]);
}

#[test]
fn an_unknown_attribute_macro_among_specifiers_is_read_past() {
    // Defined only in a configure-generated header weft has not seen.
    let text = "static void _GL_ATTR_FORMAT (3, 0) _GL_NONNULL ((3))\nreport (int status, int code, const char *message)\n{\n    (void) status; (void) code; (void) message;\n}\n";
    all_understood(text, &["report"]);
}

#[test]
fn a_directive_between_declarator_and_body_is_read_past() {
    let text = "int raise (int sig)\n#undef raise\n{\n    return sig;\n}\n";
    all_understood(text, &["raise"]);
}
