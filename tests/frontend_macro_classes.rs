//! Macro classes that hid function definitions in real libraries, each in
//! its variants: the macro defined in the file, in a project header, or
//! nowhere weft can see (the compiler gets it through `-include` of a file
//! outside the woven tree); object-like and function-like; nested. For
//! each: every function definition is understood, and function-entry
//! counters woven into it compile with `gcc -Wall -Werror` and run like the
//! original, every function reporting its entry.

mod frontend_support;
mod program_support;
mod weft_support;
use std::path::Path;
use std::process::Command;

/// Where a case's macro definitions live.
#[derive(Debug, Clone, Copy)]
enum Visible {
    File,
    Header,
    Nowhere,
}

/// One class: its definitions, the code using them (with a `main`), and
/// the functions it defines.
struct Case {
    name: &'static str,
    definitions: &'static str,
    code: &'static str,
    functions: &'static [&'static str],
}

const PRELUDE: &str = "#include <stdio.h>\n#include <stdlib.h>\n";

const ENTRY: &str = "aspectdef Entry\n select function.first_stmt end\n apply\n  \
    $first_stmt.insert before %{fprintf(stderr, \"enter [[$function.name]]\\n\");}%;\n end\nend\n";

/// Writes the case's tree for `visible` under `dir` (the tree weft sees,
/// `dir/src`, and the hidden definitions, `dir/hidden.h`); returns the
/// extra gcc flags.
fn write_case(case: &Case, visible: Visible, dir: &Path) -> Vec<String> {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let (top, flags) = match visible {
        Visible::File => (format!("{PRELUDE}{}\n", case.definitions), Vec::new()),
        Visible::Header => {
            std::fs::write(src.join("api.h"), case.definitions).unwrap();
            (format!("{PRELUDE}#include \"api.h\"\n"), Vec::new())
        }
        Visible::Nowhere => {
            let hidden = dir.join("hidden.h");
            std::fs::write(&hidden, case.definitions).unwrap();
            (
                PRELUDE.to_string(),
                vec!["-include".into(), hidden.display().to_string()],
            )
        }
    };
    std::fs::write(src.join("prog.c"), format!("{top}{}", case.code)).unwrap();
    flags
}

/// Names of the understood function definitions of `dir/prog.c`, and how
/// many definitions there are.
fn understood(dir: &Path) -> (Vec<String>, usize) {
    let (front_end, path, text) = frontend_support::front_end_and_file(dir, "prog.c");
    let file = front_end.parse(&path, text);
    let mut names = Vec::new();
    let mut total = 0;
    let tree = file.whole_tree();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            total += 1;
            if file.is_understood(node) {
                let declarator = node.child_by_field_name("declarator").unwrap();
                names.push(
                    file.node_text(declarator)
                        .split('(')
                        .next()
                        .unwrap()
                        .trim_start_matches('*')
                        .trim()
                        .to_string(),
                );
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    (names, total)
}

/// Compiles `dir/prog.c` with warnings as errors and runs it: (stdout, stderr).
fn build_and_run(dir: &Path, flags: &[String]) -> (String, String) {
    let exe = dir.join("prog");
    let flags: Vec<&str> = ["-std=gnu99", "-Wall", "-Werror"]
        .into_iter()
        .chain(flags.iter().map(String::as_str))
        .collect();
    program_support::gcc(&flags, &dir.join("prog.c"), &exe);
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success(), "{}", dir.display());
    (
        String::from_utf8(run.stdout).unwrap(),
        String::from_utf8(run.stderr).unwrap(),
    )
}

fn weave(dir: &Path, out: &Path) {
    let aspect = dir.join("entry.lara");
    std::fs::write(&aspect, ENTRY).unwrap();
    let run = weft_support::command()
        .args(["weave", "--aspect"])
        .arg(&aspect)
        .arg("--output")
        .arg(out)
        .arg(dir.join("src"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// Checks one case in every variant.
fn check(case: &Case) {
    for visible in [Visible::File, Visible::Header, Visible::Nowhere] {
        let tmp = tempfile::tempdir().unwrap();
        let label = format!("{} ({visible:?})", case.name);
        let flags = write_case(case, visible, tmp.path());
        let (mut names, total) = understood(&tmp.path().join("src"));
        names.sort();
        let mut expected: Vec<String> = case.functions.iter().map(|f| f.to_string()).collect();
        expected.sort();
        assert_eq!((names, total), (expected, case.functions.len()), "{label}");

        let (stdout, stderr) = build_and_run(&tmp.path().join("src"), &flags);
        assert!(stderr.is_empty(), "{label}: {stderr}");
        let out = tmp.path().join("woven");
        weave(tmp.path(), &out);
        let (woven_stdout, woven_stderr) = build_and_run(&out.join("src"), &flags);
        assert_eq!(woven_stdout, stdout, "{label}");
        for f in case.functions {
            assert!(
                woven_stderr.contains(&format!("enter {f}\n")),
                "{label}: {f} not counted:\n{woven_stderr}"
            );
        }
    }
}

#[test]
fn old_style_definitions_with_a_macro_before_the_name() {
    check(&Case {
        name: "old-style",
        definitions: "#define LINKAGE\n#define EXPORT LINKAGE\n#define LOCAL static\n",
        code: "const char * EXPORT describe(err)\n    int err;\n{\n    return err ? \"error\" : \"ok\";\n}\n\
               LOCAL int * EXPORT first(v, n) int *v; int n;\n{\n    return n > 0 ? v : NULL;\n}\n\
               int main(void)\n{\n    int v[2] = {4, 5};\n    printf(\"%s %s %d\\n\", describe(0), describe(1), *first(v, 2));\n    return 0;\n}\n",
        functions: &["describe", "first", "main"],
    });
}

#[test]
fn macros_taking_a_type_argument_in_a_body() {
    check(&Case {
        name: "type argument",
        definitions: "#define STACK_INIT(c, s, type) (((s) = (type)malloc(4 * sizeof(*(s)))) ? ((c)->n++, 1) : 0)\n\
                      #define STACK_FREE(s) (free(s), (s) = NULL)\n#define PTR(type) type *\n",
        code: "struct node { int v; };\ntypedef int state_t;\n\
               typedef struct { int n; state_t *states; struct node **nodes; unsigned char *bytes; } ctx_t;\n\
               static int init(ctx_t *ctx)\n{\n    if (!STACK_INIT(ctx, ctx->states, state_t*))\n        return 0;\n\
                   if (!STACK_INIT(ctx, ctx->nodes, struct node **))\n        return 0;\n\
                   if (!STACK_INIT(ctx, ctx->bytes, PTR(unsigned char)))\n        return 0;\n    return ctx->n;\n}\n\
               int main(void)\n{\n    ctx_t ctx = {0, NULL, NULL, NULL};\n    printf(\"%d\\n\", init(&ctx));\n\
                   STACK_FREE(ctx.states);\n    STACK_FREE(ctx.nodes);\n    STACK_FREE(ctx.bytes);\n    return 0;\n}\n",
        functions: &["init", "main"],
    });
}

#[test]
fn wrappers_around_a_definitions_type() {
    check(&Case {
        name: "type wrapper",
        definitions: "#define API_LINK\n#define API_DECLARE(type) API_LINK type\n#define API_PTR(type) type *\n",
        code: "API_DECLARE(int) add(int a, int b)\n{\n    return a + b;\n}\n\
               static API_DECLARE(const char *) greeting(void)\n{\n    return \"hello\";\n}\n\
               API_DECLARE(char) *last(char *s)\n{\n    return s;\n}\n\
               int main(void)\n{\n    char s[] = \"xyz\";\n    printf(\"%d %s %s\\n\", add(2, 3), greeting(), last(s));\n    return 0;\n}\n",
        functions: &["add", "greeting", "last", "main"],
    });
}

#[test]
fn attribute_macros_with_arguments() {
    check(&Case {
        name: "attribute with arguments",
        definitions: "#define compiler_attribute(attr) __attribute__(attr)\n#define lib_attribute(attr) compiler_attribute(attr)\n",
        code: "static int scale(int x, int unused lib_attribute((__unused__)))\n{\n    return 3 * x;\n}\n\
               lib_attribute((__noinline__)) static int twice(int x, int y lib_attribute((__unused__)))\n{\n    return 2 * x;\n}\n\
               static int add(int a, int b) lib_attribute((__noinline__));\n\
               static int add(int a, int b)\n{\n    return a + b;\n}\n\
               int main(void)\n{\n    int unused lib_attribute((__unused__)) = 1;\n    printf(\"%d\\n\", add(scale(2, 0), twice(3, 0)));\n    return 0;\n}\n",
        functions: &["scale", "twice", "add", "main"],
    });
}

#[test]
fn statement_macros_taking_a_block() {
    check(&Case {
        name: "block-taking statement",
        definitions: "#define with_lock(m) for (int once_ = (++*(m), 1); once_; once_ = 0, --*(m))\n\
                      #define with_both(a, b) with_lock(a) with_lock(b)\n",
        code: "static int sum(int *m, int n)\n{\n    int total = 0;\n    for (int i = 0; i < n; i++)\n        with_lock(m) {\n            total += i + *m;\n        }\n\
                   if (n > 2) with_lock(m) {\n        total++;\n    } else with_lock(m) {\n        total--;\n    }\n\
                   with_lock(m) {\n        with_lock(m) {\n            total += *m;\n        }\n    }\n    with_both(m, m) {\n        total += *m;\n    }\n    return total;\n}\n\
               int main(void)\n{\n    int m = 0;\n    printf(\"%d %d\\n\", sum(&m, 4), m);\n    return 0;\n}\n",
        functions: &["sum", "main"],
    });
}

#[test]
fn expression_macros_taking_an_operator() {
    check(&Case {
        name: "operator argument",
        definitions: "#define binop(op, a, b) ((a) op (b))\n#define intop(op, a, b) ((int)((unsigned)(a) op (unsigned)(b)))\n",
        code: "static int calc(int a, int b)\n{\n    int r = binop(+, a, b);\n    r = binop(*, r, binop(-, a, 1));\n\
                   if (binop(<=, a, b) && binop(==, intop(<<, a, 1), 2 * a))\n        r = intop(^, r, 1);\n    return binop(%, r, 1000);\n}\n\
               int main(void)\n{\n    printf(\"%d\\n\", calc(7, 9));\n    return 0;\n}\n",
        functions: &["calc", "main"],
    });
}

#[test]
fn a_statement_per_branch_of_a_conditional_group() {
    check(&Case {
        name: "statement per branch",
        definitions: "#define SOLO 1\n",
        code: "static int pick(const int *p, int n)\n{\n    int r = 0;\n    if (p == NULL)\n#ifdef SOLO\n        return -1;\n#else\n        r = 2;\n#endif\n\
                   else /* either way */\n#if defined(SOLO) && SOLO > 1\n        r = 3;\n#elif defined(SOLO)\n        r = *p + n;\n#else\n        r = 4;\n#endif\n\
                   while (r > 10) // halve\n#ifndef SOLO\n        r = 0;\n#else\n        r /= 2;\n#endif\n    return r;\n}\n\
               int main(void)\n{\n    int v = 40;\n    printf(\"%d %d\\n\", pick(NULL, 1), pick(&v, 2));\n    return 0;\n}\n",
        functions: &["pick", "main"],
    });
}

#[test]
fn declaration_macros_standing_alone() {
    check(&Case {
        name: "declaration macro",
        definitions: "#define DBG_BUFF char dbg_buff[16];\n#define DECLARE_COUNTER(n) int n = 0;\n",
        code: "#include <string.h>\nstatic int count(const char *s)\n{\n    DBG_BUFF\n    DECLARE_COUNTER(total)\n    int i;\n\
                   for (i = 0; s[i]; i++)\n        total++;\n    snprintf(dbg_buff, sizeof dbg_buff, \"%d\", total);\n    return total + (int)strlen(dbg_buff);\n}\n\
               int main(void)\n{\n    DECLARE_COUNTER(unused) /* declared */\n    DBG_BUFF\n    dbg_buff[0] = 0;\n    printf(\"%s\", dbg_buff);\n    printf(\"%d %d\\n\", count(\"hello\"), unused);\n    return 0;\n}\n",
        functions: &["count", "main"],
    });
}
