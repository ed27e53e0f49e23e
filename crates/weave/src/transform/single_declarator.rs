//! SingleDeclarator: `int a, *b = &a, c[3];` becomes
//! `int a; int *b = &a; int c[3];`, one declaration per declarator.
//!
//! Each `,` between declarators becomes `;` followed by the declaration's
//! specifiers, so comments and line breaks between declarators survive and
//! initialisers keep their order (each full declarator was already a
//! sequence point). The parameter declarations of an old-style definition
//! are declarations too (`int f(a, b) int a, b; {…}` becomes
//! `… int a; int b; {…}`): a K&R list may declare each parameter on its
//! own.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::Needles;
use super::context::PassContext;
use weft_c::syntax::KindSet;

static DECLARATIONS: LazyLock<KindSet> =
    LazyLock::new(|| KindSet::new(&["declaration", "type_definition"], &[]));

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    // Only declarations holding a `,` between declarators are split.
    let commas = Needles::of(&file.view, &[","]);
    for tree in file.trees() {
        for decl in ctx.statement_nodes(tree.root_node(), &DECLARATIONS, |n| commas.absent_from(n)) {
            split(ctx, decl);
        }
    }
}

fn split(ctx: &mut PassContext<'_>, decl: Node<'_>) {
    let mut cursor = decl.walk();
    let declarators: Vec<Node<'_>> = decl.children_by_field_name("declarator", &mut cursor).collect();
    if declarators.len() < 2 {
        return;
    }
    if decl.parent().is_some_and(|p| p.kind() == "for_statement") {
        ctx.skip(decl, "declaration in a for-init clause cannot be split");
        return;
    }
    if let Err(reason) = ctx.editable(decl) {
        ctx.skip(decl, reason);
        return;
    }
    let Some(ty) = decl.child_by_field_name("type") else {
        ctx.skip(decl, "declaration without a type specifier");
        return;
    };
    if ty.child_by_field_name("body").is_some() {
        // Repeating the specifiers would define the type again.
        ctx.skip(decl, "declaration also defines a struct, union or enum");
        return;
    }
    let Some(original) = ctx.file.original_range(decl.byte_range()) else {
        return;
    };
    let text = &ctx.file.text[original.clone()];
    let first = declarators[0].start_byte() - decl.start_byte();
    let specifiers = text[..first].trim_end().to_string();

    let mut cursor = decl.walk();
    let commas: Vec<Node<'_>> = decl.children(&mut cursor).filter(|c| c.kind() == ",").collect();
    for (comma, next) in commas.iter().zip(&declarators[1..]) {
        let start = comma.start_byte() - decl.start_byte();
        let end = next.start_byte() - decl.start_byte();
        let between = &text[comma.end_byte() - decl.start_byte()..end];
        let gap = if between.is_empty() { " " } else { between };
        ctx.replace(
            original.start + start..original.start + end,
            format!(";{gap}{specifiers} "),
        );
    }
}
