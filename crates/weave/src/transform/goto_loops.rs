//! GotoLoops: a backward `goto` that forms a loop becomes a `for (;;)`, so
//! that whatever handles loops (the non-termination monitor) sees it.
//!
//! `L: s1; … sk;` where `sk` (the last statement of the block holding
//! `L:` that contains a `goto L;`) becomes `{ if (0) goto L; L: for (;;) {
//! { s1; … sk; } break; } }`, with each `goto L;` among them becoming
//! `continue;` (the inner braces keep gcc's misleading-indentation
//! warning quiet when `sk` is an `if` ending the line). The dead forward `goto` keeps the label used (gcc warns
//! about a label no goto names), and being before it, makes no loop when
//! the pass runs again; the block holds no declaration of the region. Both go back
//! to `s1`, and falling off `sk` leaves as before; a `goto L` from outside
//! still lands on `L`, now the loop's start, and a jump to a label inside
//! still enters the same statements. Every edit stays on its line.
//!
//! Left alone, and reported: a `goto L` inside a loop or switch of the
//! region (a `continue` there would go to that one), a `break` or
//! `continue` of the region's own (it would now leave the new loop), a
//! declaration among `s1 … sk` (its scope would end at the new brace), and
//! another label of the region that some `goto` targets (regions could
//! cross).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use tree_sitter::Node;

use super::Needles;
use super::context::PassContext;
use weft_c::syntax::KindSet;

static LABELED: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["labeled_statement"], &[]));

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let gotos = Needles::of(&file.view, &["goto"]);
    if gotos.absent_from_view() {
        return;
    }
    // The names of every chunk's goto targets, before any is rewritten.
    let mut targets = BTreeSet::new();
    for tree in file.trees() {
        targets.extend(goto_targets(ctx, tree.root_node()));
    }
    for tree in file.trees() {
        for labeled in ctx.statement_nodes(tree.root_node(), &LABELED, |_| false) {
            rewrite(ctx, labeled, &targets);
        }
    }
}

fn rewrite(ctx: &mut PassContext<'_>, labeled: Node<'_>, targets: &BTreeSet<String>) {
    let (Some(label), Some(block)) = (labeled.child_by_field_name("label"), labeled.parent()) else {
        return;
    };
    let name = ctx.view_text(label).to_string();
    if !targets.contains(&name) {
        return;
    }
    // Outside a block (`if (c) L: goto L;`) the region is the statement.
    let mut cursor = block.walk();
    let siblings: Vec<Node<'_>> = if block.kind() == "compound_statement" {
        block
            .named_children(&mut cursor)
            .skip_while(|n| n.id() != labeled.id())
            .collect()
    } else {
        vec![labeled]
    };
    let Some(last) = siblings
        .iter()
        .rposition(|s| !gotos_to(ctx, *s, &name).is_empty())
    else {
        return;
    };
    let region = &siblings[..=last];
    if let Err(reason) = check(ctx, region, &name, targets) {
        ctx.skip(labeled, format!("goto loop at {name}: {reason}"));
        return;
    }
    let Some(first) = labeled.named_child(1) else {
        return;
    };
    let open = format!("{{ if (0) goto {name}; ");
    let edits: Option<Vec<_>> = [
        (labeled, open.as_str(), true),
        (first, "for (;;) { { ", true),
        (region[last], " } break; } }", false),
    ]
    .into_iter()
    .map(|(n, text, before)| {
        let r = ctx.file.original_range(n.byte_range())?;
        Some((
            if before { r.start..r.start } else { r.end..r.end },
            text.to_string(),
        ))
    })
    .chain(
        region
            .iter()
            .flat_map(|s| gotos_to(ctx, *s, &name))
            .map(|g| Some((ctx.file.original_range(g.byte_range())?, "continue;".to_string()))),
    )
    .collect();
    match edits {
        Some(edits) => edits.into_iter().for_each(|(r, t)| ctx.replace(r, t)),
        None => ctx.skip(labeled, format!("goto loop at {name}: not in the original text")),
    }
}

/// Why the region `L: s1 … sk` cannot become a loop, if it cannot.
fn check(
    ctx: &PassContext<'_>,
    region: &[Node<'_>],
    name: &str,
    targets: &BTreeSet<String>,
) -> Result<(), String> {
    for (i, s) in region.iter().enumerate() {
        ctx.editable(*s).map_err(str::to_string)?;
        let inner = if i == 0 {
            s.named_child(1).unwrap_or(*s)
        } else {
            *s
        };
        if inner.kind() == "declaration" || (i == 0 && inner.kind() == "labeled_statement") {
            return Err("a declaration among its statements, or a second label on its first".into());
        }
        let mut stack = vec![(*s, false)];
        while let Some((n, nested)) = stack.pop() {
            let kind = n.kind();
            match kind {
                "goto_statement" if nested && label_of(ctx, n) == Some(name) => {
                    return Err("a goto inside an inner loop or switch".into());
                }
                "break_statement" | "continue_statement" if !nested => {
                    return Err(format!("a {} of its own", kind.trim_end_matches("_statement")));
                }
                "labeled_statement" if n.id() != region[0].id() => {
                    let other = n.child_by_field_name("label").map(|l| ctx.view_text(l));
                    if other.is_some_and(|o| targets.contains(o)) {
                        return Err("another label inside it is a goto target".into());
                    }
                }
                _ => {}
            }
            let deeper = nested
                || matches!(
                    kind,
                    "for_statement" | "while_statement" | "do_statement" | "switch_statement"
                );
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor).map(|c| (c, deeper)));
        }
    }
    Ok(())
}

/// The `goto name;` statements in `node`'s subtree.
fn gotos_to<'t>(ctx: &PassContext<'_>, node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    gotos(node)
        .into_iter()
        .filter(|g| label_of(ctx, *g) == Some(name))
        .collect()
}

/// The labels some `goto` of the file names.
fn goto_targets(ctx: &PassContext<'_>, root: Node<'_>) -> BTreeSet<String> {
    gotos(root)
        .into_iter()
        .filter_map(|g| label_of(ctx, g).map(str::to_string))
        .collect()
}

/// The `goto` statements in `root`'s subtree.
fn gotos(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "goto_statement" {
            out.push(n);
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

fn label_of<'a>(ctx: &PassContext<'a>, goto: Node<'_>) -> Option<&'a str> {
    goto.child_by_field_name("label").map(|l| ctx.view_text(l))
}
