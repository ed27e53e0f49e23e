//! Variable uses (`var` join points): which identifiers are uses, whether a
//! use reads or writes, and whether it sits in a loop header.

use tree_sitter::Node;

use super::tree::unparenthesized_parent;

/// Whether `node`, hanging under field `field` of `parent`, is a use of a
/// variable (see the `var` kind in the catalogue for the rules).
pub fn is_var_use(node: Node<'_>, parent: Option<Node<'_>>, field: Option<&str>) -> bool {
    if node.kind() != "identifier" || field == Some("declarator") {
        return false;
    }
    let Some(parent) = parent else {
        return false;
    };
    let pk = parent.kind();
    if pk == "call_expression" && field == Some("function") {
        return false;
    }
    // Declarator wrappers, K&R parameter names, enumerator definitions,
    // macro names (in strings such as `"%" PRIu64` and in type macros) and
    // anything of the preprocessor are not variables.
    !(pk.starts_with("preproc_")
        || matches!(
            pk,
            "parenthesized_declarator"
                | "attributed_declarator"
                | "parameter_list"
                | "enumerator"
                | "concatenated_string"
                | "macro_type_specifier"
        ))
}

/// How a use accesses its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    Read,
    Write,
    ReadWrite,
}

impl Reference {
    /// The attribute value: `read`, `write` or `readwrite`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reference::Read => "read",
            Reference::Write => "write",
            Reference::ReadWrite => "readwrite",
        }
    }
}

/// Whether the use `var` reads or writes the variable: only the variable as
/// a whole (possibly parenthesized) counts as written, not the object it
/// points to or one of its elements or members.
pub fn reference(var: Node<'_>) -> Reference {
    let Some((parent, child)) = unparenthesized_parent(var) else {
        return Reference::Read;
    };
    match parent.kind() {
        "assignment_expression" => {
            let is_left = parent
                .child_by_field_name("left")
                .is_some_and(|l| l.id() == child.id());
            let op = parent.child_by_field_name("operator").map(|o| o.kind());
            match (is_left, op) {
                (true, Some("=")) => Reference::Write,
                (true, _) => Reference::ReadWrite,
                (false, _) => Reference::Read,
            }
        }
        "update_expression" => Reference::ReadWrite,
        _ => Reference::Read,
    }
}

/// Whether `node` is inside the header of its innermost enclosing loop: a
/// for's init, condition or update, or a while/do condition.
pub fn in_loop_header(node: Node<'_>) -> bool {
    let mut child = node;
    while let Some(parent) = child.parent() {
        match parent.kind() {
            "for_statement" => {
                return parent
                    .child_by_field_name("body")
                    .is_none_or(|b| b.id() != child.id());
            }
            "while_statement" | "do_statement" => {
                return parent
                    .child_by_field_name("condition")
                    .is_some_and(|c| c.id() == child.id());
            }
            "compound_statement" | "function_definition" | "translation_unit" => return false,
            _ => child = parent,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_c::ParsedFile;

    /// The identifiers of `src` accepted as uses, with their references.
    fn uses(src: &str) -> Vec<(String, &'static str, bool)> {
        let file = ParsedFile::parse_plain("t.c", src);
        let mut out = Vec::new();
        let tree = file.whole_tree();
        let mut cursor = tree.walk();
        loop {
            let n = cursor.node();
            if is_var_use(n, n.parent(), cursor.field_name()) {
                out.push((
                    file.node_text(n).to_string(),
                    reference(n).as_str(),
                    in_loop_header(n),
                ));
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return out;
                }
            }
        }
    }

    #[test]
    fn references_of_assignments_and_updates() {
        let got = uses("void f(int a, int b) { int c, x, y; a += b; c++; x = y; (x) = 1; }");
        let names: Vec<_> = got.iter().map(|(n, r, _)| format!("{n}:{r}")).collect();
        assert_eq!(
            names,
            [
                "a:readwrite",
                "b:read",
                "c:readwrite",
                "x:write",
                "y:read",
                "x:write"
            ]
        );
    }

    #[test]
    fn members_calls_and_elements() {
        let got = uses("void f(void) { s.m = g(p->q, a[i]); *p = 1; }");
        let names: Vec<_> = got.iter().map(|(n, r, _)| format!("{n}:{r}")).collect();
        assert_eq!(names, ["s:read", "p:read", "a:read", "i:read", "p:read"]);
    }

    #[test]
    fn loop_headers() {
        let got = uses("void f(void) { for (i = 0; i < n; i++) s += i; while (k) k--; }");
        let flags: Vec<_> = got.iter().map(|(n, _, h)| format!("{n}:{h}")).collect();
        assert_eq!(
            flags,
            [
                "i:true", "i:true", "n:true", "i:true", "s:false", "i:false", "k:true", "k:false"
            ]
        );
    }
}
