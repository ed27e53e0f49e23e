//! Facts about tree-sitter-c's node kinds and trees that several modules ask.

use std::sync::LazyLock;

use tree_sitter::Node;

/// A set of tree-sitter-c node kinds, tested by kind id. Hot traversals ask
/// it instead of comparing `Node::kind()`, which measures and checks a C
/// string at every call.
pub struct KindSet {
    member: Vec<bool>,
}

impl KindSet {
    /// The kinds named `names` (every id of each name: tree-sitter may give
    /// one name several ids), plus those whose name starts with one of
    /// `prefixes`.
    pub fn new(names: &[&str], prefixes: &[&str]) -> KindSet {
        let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let member = (0..language.node_kind_count() as u16)
            .map(|id| {
                language
                    .node_kind_for_id(id)
                    .is_some_and(|name| names.contains(&name) || prefixes.iter().any(|p| name.starts_with(p)))
            })
            .collect();
        KindSet { member }
    }

    /// The kinds of tree-sitter-c's supertype `supertype` (`expression`).
    pub fn subtypes_of(supertype: &str) -> KindSet {
        let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let mut member = vec![false; language.node_kind_count()];
        for &id in language.supertypes() {
            if language.node_kind_for_id(id) == Some(supertype) {
                for &kind in language.subtypes_for_supertype(id) {
                    if let Some(slot) = member.get_mut(usize::from(kind)) {
                        *slot = true;
                    }
                }
            }
        }
        KindSet { member }
    }

    /// Whether `node`'s kind is in the set.
    pub fn contains(&self, node: Node<'_>) -> bool {
        self.member
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(false)
    }
}

/// The kinds of `is_statement_kind`.
static STATEMENTS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(STATEMENT_KINDS, &[]));

/// Preprocessor nodes: directives and conditional groups.
pub static PREPROCESSOR: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&[], &["preproc_"]));

/// tree-sitter-c's `expression` supertype.
static EXPRESSIONS: LazyLock<KindSet> = LazyLock::new(|| KindSet::subtypes_of("expression"));

/// Whether `node` is a statement (see `is_statement_kind`).
pub fn is_statement(node: Node<'_>) -> bool {
    STATEMENTS.contains(node)
}

/// The branches of conditional group `group` (`#if`/`#ifdef` and each
/// `#elif`/`#else` after it), each as its items without comments, and
/// whether an `#else` ends it (so that some branch is always compiled).
pub fn conditional_branches(group: Node<'_>) -> (Vec<Vec<Node<'_>>>, bool) {
    let mut branches = Vec::new();
    let mut has_else = false;
    let mut at = Some(group);
    while let Some(branch) = at {
        let condition = branch
            .child_by_field_name("condition")
            .or_else(|| branch.child_by_field_name("name"));
        let alternative = branch.child_by_field_name("alternative");
        let mut cursor = branch.walk();
        let items = branch
            .named_children(&mut cursor)
            .filter(|c| Some(*c) != condition && Some(*c) != alternative && c.kind() != "comment")
            .collect();
        branches.push(items);
        has_else |= branch.kind() == "preproc_else";
        at = alternative;
    }
    (branches, has_else)
}

/// Is `node`, a block item, a declaration: of objects or functions, of a
/// typedef, or of a tag alone (`enum { on = 1 };` is an `enum_specifier`
/// item to tree-sitter-c)?
pub fn is_declaration_item(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "declaration" | "type_definition" | "struct_specifier" | "union_specifier" | "enum_specifier"
    )
}

/// Is `node` a conditional group opening with `#if`, `#ifdef` or `#ifndef`?
pub fn is_conditional_group(node: Node<'_>) -> bool {
    matches!(node.kind(), "preproc_if" | "preproc_ifdef")
}

/// tree-sitter-c's id of the named node kind `kind` (0 for no such kind).
pub fn kind_id(kind: &str) -> u16 {
    tree_sitter::Language::from(tree_sitter_c::LANGUAGE).id_for_node_kind(kind, true)
}

/// The root of the tree holding `node`, found by climbing its parents:
/// each `parent()` walks down from the root, so this is for the shallow
/// nodes a walk starts from (a function, a body), whose tree may be a
/// chunk's ([`crate::ParsedFile::trees`]).
pub fn root_of(node: Node<'_>) -> Node<'_> {
    let mut n = node;
    while let Some(parent) = n.parent() {
        n = parent;
    }
    n
}

/// The ancestors of `node` under `root`, root first, in one walk down from
/// `root`. tree-sitter nodes have no parent pointer: each `parent()` call
/// walks down from the root, so climbing a chain of them costs depth² steps.
pub fn ancestors<'t>(root: Node<'t>, node: Node<'t>) -> Vec<Node<'t>> {
    let mut above = Vec::new();
    let mut n = root;
    while n.id() != node.id() {
        above.push(n);
        match n.child_with_descendant(node) {
            Some(child) => n = child,
            None => break,
        }
    }
    above
}

/// tree-sitter-c's statement kinds (the grammar's `statement` supertype);
/// declarations are not among them.
const STATEMENT_KINDS: &[&str] = &[
    "attributed_statement",
    "break_statement",
    "case_statement",
    "compound_statement",
    "continue_statement",
    "do_statement",
    "expression_statement",
    "for_statement",
    "goto_statement",
    "if_statement",
    "labeled_statement",
    "return_statement",
    "switch_statement",
    "while_statement",
];

/// Whether `kind` is one of tree-sitter-c's statement kinds (the grammar's
/// `statement` supertype); declarations are not among them.
pub fn is_statement_kind(kind: &str) -> bool {
    STATEMENT_KINDS.contains(&kind)
}

/// The offsets at which some short strings occur in a text, so that walks
/// can ask cheaply whether a node's text may hold one of them.
#[derive(Clone)]
pub struct Occurrences(Vec<usize>);

impl Occurrences {
    /// Every offset of `text` at which one of `needles` starts
    /// (overlapping occurrences included).
    pub fn of(text: &str, needles: &[&str]) -> Occurrences {
        let mut offsets: Vec<usize> = needles
            .iter()
            .filter_map(|needle| Some((needle, needle.chars().next()?)))
            .flat_map(|(needle, first)| {
                // Searching for the first character alone finds overlapping
                // occurrences too (and is a fast byte search).
                text.match_indices(first)
                    .map(|(at, _)| at)
                    .filter(move |&at| text[at..].starts_with(needle))
            })
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        Occurrences(offsets)
    }

    /// True when an occurrence starts in `range`: the text under `range`
    /// can hold a needle only then.
    pub fn any_in(&self, range: std::ops::Range<usize>) -> bool {
        let first = self.0.partition_point(|&at| at < range.start);
        self.0.get(first).is_some_and(|&at| at < range.end)
    }
}

/// True when `node` cannot hold a statement, a declaration or a struct,
/// union or enum body: an expression that parsed cleanly and whose text
/// (`braces` are the occurrences of `{` in the view) has no `{`. Only a
/// statement expression `({ … })` and a braced initialiser or body
/// (`(T){ … }`, `sizeof (struct { … })`) put those inside an expression,
/// and each starts with `{`. Walks looking for such nodes skip it.
pub fn holds_no_block(node: tree_sitter::Node<'_>, braces: &Occurrences) -> bool {
    EXPRESSIONS.contains(node) && !node.has_error() && !braces.any_in(node.byte_range())
}

/// Statements and declarations that hold no other statement unless a
/// block (`{`) is inside them.
static SIMPLE_STATEMENTS: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::new(
        &[
            "expression_statement",
            "return_statement",
            "break_statement",
            "continue_statement",
            "goto_statement",
            "declaration",
        ],
        &[],
    )
});

/// True when `node` cannot hold a statement or a function definition: it
/// [`holds_no_block`], or it is a declaration or a statement that holds no
/// other statement (an expression statement, a `return`…), parsed cleanly,
/// with no `{` in its text. Walks looking for statements skip it.
pub fn holds_no_statement(node: tree_sitter::Node<'_>, braces: &Occurrences) -> bool {
    holds_no_block(node, braces)
        || SIMPLE_STATEMENTS.contains(node) && !node.has_error() && !braces.any_in(node.byte_range())
}

/// The identifier a declarator declares (through pointers, arrays,
/// functions, parentheses, attributes and initializers); a typedef's
/// declarator ends in a type identifier.
pub fn declarator_name(declarator: Node<'_>) -> Option<Node<'_>> {
    let mut d = declarator;
    loop {
        match d.kind() {
            "identifier" | "type_identifier" | "field_identifier" => return Some(d),
            "parenthesized_declarator" => d = d.named_child(0)?,
            _ => d = d.child_by_field_name("declarator")?,
        }
    }
}

/// The macro call that makes a definition's name: a function declarator
/// whose own declarator is a function declarator, a function returning a
/// function, which C does not have (`PREFIX(scanToken)(const ENC *enc)`,
/// read as `PREFIX` taking `scanToken` and returning a function).
pub fn macro_made_name(declarator: Node<'_>) -> Option<Node<'_>> {
    let mut d = declarator;
    loop {
        match d.kind() {
            "pointer_declarator" | "attributed_declarator" => d = d.child_by_field_name("declarator")?,
            "function_declarator" => {
                let inner = d.child_by_field_name("declarator")?;
                return (inner.kind() == "function_declarator").then_some(inner);
            }
            _ => return None,
        }
    }
}

/// The value of an integer constant written as `node` in `view` (the text
/// the tree was parsed from): a literal, possibly negated or
/// parenthesized (`-(5)`); None for anything else or a value beyond i64.
pub fn integer_constant(view: &str, node: Node<'_>) -> Option<i64> {
    match node.kind() {
        "number_literal" => parse_integer(view.get(node.byte_range())?),
        "parenthesized_expression" => integer_constant(view, node.named_child(0)?),
        "unary_expression" => {
            let v = integer_constant(view, node.child_by_field_name("argument")?)?;
            match node.child_by_field_name("operator")?.kind() {
                "-" => v.checked_neg(),
                "+" => Some(v),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Parses a C integer literal (decimal, hex, octal, binary; suffixes and
/// digit separators ignored; a sign, which tree-sitter-c may take into
/// the literal, applied); None for a floating literal.
pub fn parse_integer(text: &str) -> Option<i64> {
    if let Some(rest) = text.strip_prefix('-') {
        return parse_integer(rest)?.checked_neg();
    }
    let text = text.strip_prefix('+').unwrap_or(text);
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']).replace('\'', "");
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b.to_string(), 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (t[1..].to_string(), 8)
    } else {
        (t, 10)
    };
    i64::from_str_radix(&digits, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals() {
        assert_eq!(parse_integer("10"), Some(10));
        assert_eq!(parse_integer("0x1F"), Some(31));
        assert_eq!(parse_integer("010"), Some(8));
        assert_eq!(parse_integer("100UL"), Some(100));
        assert_eq!(parse_integer("0"), Some(0));
        assert_eq!(parse_integer("1.5"), None);
        assert_eq!(parse_integer("-0x10"), Some(-16));
    }

    #[test]
    fn integer_constants_negated_or_parenthesized() {
        let view = "int x = -(5), y = +0x10, z = ~3;";
        let tree = crate::parse_view(view);
        let mut values = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.kind() == "init_declarator" {
                values.push(integer_constant(view, node.child_by_field_name("value").unwrap()));
            }
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
        values.sort();
        assert_eq!(values, [None, Some(-5), Some(16)]);
    }
}
