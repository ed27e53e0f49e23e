//! How many elements a pointer points to, as its function itself says.
//!
//! A pointer parameter: a loop whose condition compares an index with a
//! length (`i < len`, `i != len`, `len > i`, `len != i`; the length a
//! parameter or a member of one, `s->n` or `s.n`) and whose body reads the
//! pointer at that index (`p[i]`, `p[i++]`, `*(p + i)`, `*(i + p)`). The
//! function reads `p[0..len)` when the loop runs from 0 to its end, so that
//! many elements are there.
//!
//! A local pointer: its initializer names an array of known length
//! directly (`int *p = buf;`, `= &buf[0]`), a static or stack array the
//! function sees, so it points to that many elements.
//!
//! Neither the pointer nor the length may be assigned in the function (nor
//! have their address taken), so that the same expression names the same
//! elements wherever the function is traced.

use tree_sitter::Node;

use super::params::{param_identifier, parameters};
use super::tree::{operator, unparenthesized};
use weft_c::ParsedFile;
use weft_c::sema::{DeclKind, Semantics};
use weft_c::syntax::declarator_name;

/// The length expression bounding a loop that indexes the pointer
/// parameter `pointer` of `function`, without spaces (`len`, `s->n`), or
/// `None` when no loop of the function is so bounded.
pub fn loop_bound(file: &ParsedFile, function: Node<'_>, pointer: &str) -> Option<String> {
    let body = function.child_by_field_name("body")?;
    let params: Vec<&str> = parameters(file, function)
        .into_iter()
        .filter_map(param_identifier)
        .map(|n| file.node_text(n))
        .collect();
    let changed = changed_names(file, body);
    if changed.iter().any(|c| c == pointer) {
        return None;
    }
    let is_length = |e: Node<'_>| -> Option<String> {
        let text = compact(file, e);
        let base = match e.kind() {
            "identifier" => text.clone(),
            "field_expression" => {
                let arg = e.child_by_field_name("argument")?;
                (arg.kind() == "identifier").then(|| file.node_text(arg).to_string())?
            }
            _ => return None,
        };
        let known = base != pointer && params.contains(&base.as_str());
        (known && !changed.contains(&base) && !changed.contains(&text)).then_some(text)
    };
    descendants(body)
        .filter(|n| matches!(n.kind(), "for_statement" | "while_statement" | "do_statement"))
        .find_map(|lp| {
            let cond = unparenthesized(lp.child_by_field_name("condition")?);
            let (index, length) = comparison(file, cond, &is_length)?;
            let body = lp.child_by_field_name("body")?;
            descendants(body)
                .any(|n| indexes(file, n, pointer, &index))
                .then_some(length)
        })
}

/// The element count of the array the local pointer `declarator` (an
/// `init_declarator` in a function) names directly, as `sizeof (buf) /
/// sizeof (buf)[0]`: its initializer is `buf` or `&buf[0]`, an array whose
/// declaration gives its length; the function changes neither the pointer
/// nor declares another `buf` that could hide the array where the pointer
/// is traced.
pub fn named_array(
    file: &ParsedFile,
    sema: &Semantics,
    index: usize,
    declarator: Node<'_>,
) -> Option<String> {
    let value = unparenthesized(declarator.child_by_field_name("value")?);
    let array = match value.kind() {
        "identifier" => value,
        "pointer_expression" if operator(value) == Some("&") => {
            let element = unparenthesized(value.child_by_field_name("argument")?);
            let at = element.child_by_field_name("index").map(unparenthesized)?;
            let zero = element.kind() == "subscript_expression" && file.node_text(at) == "0";
            zero.then(|| element.child_by_field_name("argument").map(unparenthesized))??
        }
        _ => return None,
    };
    let decl = sema
        .declaration_of(index, array)
        .filter(|d| d.kind == DeclKind::Variable)?;
    if array.kind() != "identifier" || !decl.ty.is_array() || decl.written.contains("[]") {
        return None;
    }
    let function = std::iter::successors(declarator.parent(), |n| n.parent())
        .find(|n| n.kind() == "function_definition")?;
    let pointer = file.node_text(declarator_name(declarator)?);
    let name = file.node_text(array);
    let declared_here = descendants(function)
        .filter(|n| matches!(n.kind(), "declaration" | "parameter_declaration"))
        .flat_map(|d| {
            let mut cursor = d.walk();
            d.children_by_field_name("declarator", &mut cursor)
                .collect::<Vec<_>>()
        })
        .filter_map(declarator_name)
        .filter(|n| file.node_text(*n) == name)
        .count();
    let limit = usize::from(!decl.is_file_scope);
    let changed = changed_names(file, function.child_by_field_name("body")?);
    (declared_here == limit && !changed.iter().any(|c| c == pointer))
        .then(|| format!("sizeof ({name}) / sizeof ({name})[0]"))
}

/// `(index, length)` of a condition `index < length`, `length > index` or
/// `index != length` (either way round).
fn comparison(
    file: &ParsedFile,
    cond: Node<'_>,
    is_length: &dyn Fn(Node<'_>) -> Option<String>,
) -> Option<(String, String)> {
    if cond.kind() != "binary_expression" {
        return None;
    }
    let op = operator(cond)?;
    let left = unparenthesized(cond.child_by_field_name("left")?);
    let right = unparenthesized(cond.child_by_field_name("right")?);
    let as_index = |n: Node<'_>| (n.kind() == "identifier").then(|| file.node_text(n).to_string());
    let ordered = |index: Node<'_>, length: Node<'_>| Some((as_index(index)?, is_length(length)?));
    match op {
        "<" => ordered(left, right),
        ">" => ordered(right, left),
        "!=" => ordered(left, right).or_else(|| ordered(right, left)),
        _ => None,
    }
}

/// Whether `n` reads `pointer` at `index`: `pointer[index]` (or
/// `pointer[index++]`), `*(pointer + index)` or `*(index + pointer)`.
fn indexes(file: &ParsedFile, n: Node<'_>, pointer: &str, index: &str) -> bool {
    let is = |n: Option<Node<'_>>, name: &str| {
        n.map(unparenthesized)
            .is_some_and(|n| n.kind() == "identifier" && file.node_text(n) == name)
    };
    // `p[i++]` reads at `i` too: a postfix update's argument comes first.
    let at_index = |n: Option<Node<'_>>| {
        let n = n.map(unparenthesized);
        let postfix = n.filter(|u| u.kind() == "update_expression").and_then(|u| {
            let arg = u.child_by_field_name("argument")?;
            (arg.start_byte() == u.start_byte()).then_some(arg)
        });
        is(n, index) || is(postfix, index)
    };
    match n.kind() {
        "subscript_expression" => {
            is(n.child_by_field_name("argument"), pointer) && at_index(n.child_by_field_name("index"))
        }
        "pointer_expression" if operator(n) == Some("*") => {
            let Some(sum) = n.child_by_field_name("argument").map(unparenthesized) else {
                return false;
            };
            let (l, r) = (sum.child_by_field_name("left"), sum.child_by_field_name("right"));
            sum.kind() == "binary_expression"
                && operator(sum) == Some("+")
                && ((is(l, pointer) && is(r, index)) || (is(l, index) && is(r, pointer)))
        }
        _ => false,
    }
}

/// The names and member expressions (without spaces) the body assigns,
/// increments, decrements or takes the address of.
fn changed_names(file: &ParsedFile, body: Node<'_>) -> Vec<String> {
    descendants(body)
        .filter_map(|n| match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.child_by_field_name("argument"),
            "pointer_expression" if operator(n) == Some("&") => n.child_by_field_name("argument"),
            _ => None,
        })
        .map(|target| compact(file, unparenthesized(target)))
        .collect()
}

/// An expression's text without whitespace.
fn compact(file: &ParsedFile, n: Node<'_>) -> String {
    file.node_text(n).split_whitespace().collect()
}

/// `n` and every node under it, in document order.
fn descendants(n: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    let mut stack = vec![n];
    std::iter::from_fn(move || {
        let next = stack.pop()?;
        let mut cursor = next.walk();
        let children: Vec<Node<'_>> = next.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
        Some(next)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound of pointer `p` in the only function of `src`.
    fn bound(src: &str) -> Option<String> {
        let file = ParsedFile::parse_plain("t.c", src);
        let tree = file.whole_tree();
        let root = tree.root_node();
        let function = descendants(root).find(|n| n.kind() == "function_definition")?;
        loop_bound(&file, function, "p")
    }

    #[test]
    fn loops_that_index_the_pointer_give_its_length() {
        let found = |src: &str| bound(src).unwrap_or_else(|| panic!("no bound in {src}"));
        assert_eq!(
            found("int f(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }"),
            "n"
        );
        assert_eq!(
            found("int f(const int *p, unsigned n) { unsigned i = 0; while (n > i) { p[i]; i++; } }"),
            "n"
        );
        assert_eq!(
            found("int f(int *p, int n) { int i; for (i = 0; i != n; i++) *(p + i) = 0; }"),
            "n"
        );
        assert_eq!(
            found("int f(int *p, int n) { int i; for (i = 0; n != i; ++i) *((i) + p) += 1; }"),
            "n"
        );
        assert_eq!(
            found(
                "struct s { int n; }; int f(struct s *v, int *p) { for (int i = 0; i < v -> n; i++) p[i] = 1; }"
            ),
            "v->n"
        );
        assert_eq!(
            found(
                "struct s { int n; }; int f(struct s v, int *p) { int i = 0; do p[i++]; while (i < v.n); }"
            ),
            "v.n"
        );
    }

    #[test]
    fn no_loop_over_the_pointer_or_a_changing_one_gives_none() {
        for src in [
            // No loop: how many elements follow is not said.
            "int f(int *p, int n) { return n > 0 ? p[0] : 0; }",
            // `<=` reads one more than the bound says.
            "int f(int *p, int n) { for (int i = 0; i <= n; i++) p[i]; }",
            // The loop indexes another array, or `p` by something else.
            "int f(int *p, int *q, int n) { for (int i = 0; i < n; i++) q[i] = p[0]; }",
            "int f(int *p, int n) { for (int i = 0; i < n; i++) p[i + 1]; }",
            // The bound is a local or a global, not a parameter.
            "int g; int f(int *p) { for (int i = 0; i < g; i++) p[i]; }",
            // The pointer or the length change in the function.
            "int f(int *p, int n) { for (int i = 0; i < n; i++) p[i]; p++; }",
            "int f(int *p, int n) { for (int i = 0; i < n; i++) p[i]; n = 0; }",
            "int f(int *p, int n) { int *q = &n; for (int i = 0; i < n; i++) p[i]; }",
            "struct s { int n; }; int f(struct s *v, int *p) { for (int i = 0; i < v->n; i++) p[i]; v->n--; }",
        ] {
            assert_eq!(bound(src), None, "{src}");
        }
    }
}
