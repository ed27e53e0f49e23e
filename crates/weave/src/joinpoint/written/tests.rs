use tree_sitter::Node;

use super::*;

/// What `written_first` gives for parameter `name` of function `function`
/// of `src`.
fn parts(src: &str, function: &str, name: &str) -> Vec<String> {
    judged(src, function, name, false)
}

/// What `written_first` gives for variable `name` in function `function`
/// of `src`: a local of it (its first declaration in the body) when `local`.
fn judged(src: &str, function: &str, name: &str, local: bool) -> Vec<String> {
    let file = ParsedFile::parse_plain("t.c", src);
    let tree = file.whole_tree();
    let root = tree.root_node();
    let def = definition(&file, root, function).expect("the function is defined");
    let body = def.child_by_field_name("body").expect("a body");
    let own = if local {
        declarator_of(&file, body, name)
    } else {
        None
    };
    let Value::List(parts) = written_first(&file, def, own, name) else {
        panic!("not a list");
    };
    parts
        .into_iter()
        .map(|v| match v {
            Value::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        })
        .collect()
}

/// The declarator of local `name` in `body`, if it declares one.
fn declarator_of<'t>(file: &ParsedFile, n: Node<'t>, name: &str) -> Option<Node<'t>> {
    if n.kind() == "declaration" {
        let mut cursor = n.walk();
        let found = n
            .children_by_field_name("declarator", &mut cursor)
            .find(|d| declarator_name(*d).is_some_and(|id| file.node_text(id) == name));
        if found.is_some() {
            return found;
        }
    }
    let mut cursor = n.walk();
    let kids: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
    kids.into_iter().find_map(|c| declarator_of(file, c, name))
}

#[test]
fn a_buffer_filled_by_index_is_written_first() {
    let src = "void f(char *s, int n) { int i; for (i = 0; i < n; i++) s[i] = 'a'; s[n] = 0; }";
    assert_eq!(parts(src, "f", "s"), ["*"]);
}

#[test]
fn a_buffer_filled_by_pointer_arithmetic_is_written_first() {
    let src = "void f(char *s, int n) { int i; for (i = 0; i < n; i++) *(s + i) = 'a'; }";
    assert_eq!(parts(src, "f", "s"), ["*"]);
}

#[test]
fn a_buffer_filled_by_a_library_call_is_written_first() {
    for call in [
        "fgets(s, 10, stdin)",
        "strcpy(s, \"x\")",
        "memcpy(s, t, 3)",
        "sprintf(s, \"%d\", 3)",
        "sscanf(t, \"%s\", s)",
        "fgets(&s[0], 10, stdin)",
    ] {
        let src = format!("int f(char *s, const char *t) {{ {call}; return s[0]; }}");
        assert_eq!(parts(&src, "f", "s"), ["*"], "{call}");
    }
}

#[test]
fn a_buffer_passed_to_a_reading_call_is_read() {
    for call in [
        "strcat(s, t)",
        "strlen(s)",
        "printf(\"%s\", s)",
        "unknown(s)",
        "sscanf(s, \"%d\", &n)",
    ] {
        let src = format!("int f(char *s, const char *t) {{ int n; {call}; s[0] = 0; return n; }}");
        assert!(parts(&src, "f", "s").is_empty(), "{call}");
    }
}

#[test]
fn a_buffer_filled_by_a_function_of_the_file_is_written_first() {
    // Through two calls, the inner one filling at an offset.
    let src = "int put(char c, char *out, int *j) { out[*j] = c; *j = *j + 1; return 1; }\n\
               void fill(char *pat) { int j = 0; put('a', pat, &j); put(0, pat, &j); }\n\
               void outer(char *buf) { fill(buf); }\n\
               void reads(char *pat, int j) { put(pat[0], pat, &j); }";
    assert_eq!(parts(src, "put", "out"), ["*"]);
    assert_eq!(parts(src, "fill", "pat"), ["*"]);
    assert_eq!(parts(src, "outer", "buf"), ["*"]);
    // The argument `pat[0]` is read before the call writes.
    assert!(parts(src, "reads", "pat").is_empty());
}

#[test]
fn a_recursive_function_is_not_taken_to_fill() {
    let src = "void r(char *s, int n) { if (n) r(s, n - 1); s[n] = 0; }";
    assert!(parts(src, "r", "s").is_empty());
}

#[test]
fn members_of_a_fresh_block_set_before_use_are_written_first() {
    let src = "struct p { int pid; int prio; int other; struct p *next; };\n\
               int g(struct p *q);\n\
               int f(int prio) { struct p *n; n = malloc(sizeof *n); if (!n) return 1;\n\
               n->pid = 3; n->prio = prio; n->next = 0; (*n).other = n->pid; return g(n); }";
    assert_eq!(
        judged(src, "f", "n", true),
        ["->next", "->other", "->pid", "->prio"]
    );
}

#[test]
fn a_buffer_read_first_is_not_written_first() {
    for body in [
        "if (s[0] == 'x') s[0] = 'y';",
        "s[0] = s[1];",
        "s[0] += 1;",
        "s[0]++;",
        "char c = *s; *s = c;",
        "while (*(s + 1)) s[0] = 0;",
    ] {
        let src = format!("void f(char *s) {{ {body} }}");
        assert!(parts(&src, "f", "s").is_empty(), "{body}");
    }
}

#[test]
fn a_member_read_first_stays_while_others_are_written_first() {
    let src = "struct q { int n; int len; };\n\
               void f(struct q *p) { p->n = p->len; p->len = 0; }";
    assert_eq!(parts(src, "f", "p"), ["->n"]);
}

#[test]
fn one_element_of_a_member_array_does_not_write_the_member() {
    let src = "struct s { int len; int cells[4]; };\n\
               int push(struct s *p, int v) { p->cells[p->len] = v; p->len = p->len + 1; return 0; }";
    assert!(parts(src, "push", "p").is_empty());
}

#[test]
fn uses_of_the_pointer_itself_are_no_access() {
    let src = "char *f(char *s, char *t) { if (s == t) return s; t = s; s[0] = 0; return t; }";
    assert_eq!(parts(src, "f", "s"), ["*"]);
}

#[test]
fn a_name_declared_again_in_the_body_gives_nothing() {
    let src = "void f(char *s) { s[0] = 0; { char *s = 0; } }";
    assert!(parts(src, "f", "s").is_empty());
}

#[test]
fn a_local_pointer_is_judged_by_its_own_declaration() {
    let src = "void f(void) { char buf[8]; char *p = buf; p[0] = 0; }";
    assert_eq!(judged(src, "f", "p", true), ["*"]);
    // Another local of the name in an inner block could be the one meant.
    let src = "void f(void) { char *p = 0; { char *p = 0; p[0] = 0; } }";
    assert!(judged(src, "f", "p", true).is_empty());
}
