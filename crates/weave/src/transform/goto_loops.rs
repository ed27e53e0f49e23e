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
//! The region is `weft_c::goto_loop`'s, as the static analysis has it
//! (`L:`'s block may be a switch's case). Left alone, and reported: what
//! that refuses (every backward `goto L` outside `L:`'s block, a `case`
//! label or another label some `goto` targets inside the region: a jump
//! into its middle), a `goto L` inside a loop or switch of the region (a
//! `continue` there would go to that one), a `break` or `continue` of the
//! region's own (it would now leave the new loop), and a declaration among
//! `s1 … sk` (its scope would end at the new brace).

use std::sync::LazyLock;

use super::Needles;
use super::context::PassContext;
use weft_c::goto_loop::{GotoLoop, goto_loop, label_of};
use weft_c::syntax::KindSet;

static LABELED: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["labeled_statement"], &[]));

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let gotos = Needles::of(&file.view, &["goto"]);
    if gotos.absent_from_view() {
        return;
    }
    for tree in file.trees() {
        for labeled in ctx.statement_nodes(tree.root_node(), &LABELED, |_| false) {
            let Some(found) = goto_loop(labeled, &file.view) else {
                continue;
            };
            match found.and_then(|l| check(ctx, &l).map(|()| l)) {
                Ok(l) => rewrite(ctx, &l),
                Err(reason) => {
                    let name = labeled.child_by_field_name("label").unwrap_or(labeled);
                    let name = ctx.view_text(name);
                    ctx.skip(labeled, format!("goto loop at {name}: {reason}"));
                }
            }
        }
    }
}

fn rewrite(ctx: &mut PassContext<'_>, l: &GotoLoop<'_>) {
    let (Some(first), Some(last)) = (l.first(), l.region.last()) else {
        return;
    };
    let name = &l.label;
    let open = format!("{{ if (0) goto {name}; ");
    let edits: Option<Vec<_>> = [
        (l.labeled, open.as_str(), true),
        (first, "for (;;) { { ", true),
        (*last, " } break; } }", false),
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
        l.gotos(&ctx.file.view)
            .into_iter()
            .map(|g| Some((ctx.file.original_range(g.byte_range())?, "continue;".to_string()))),
    )
    .collect();
    match edits {
        Some(edits) => edits.into_iter().for_each(|(r, t)| ctx.replace(r, t)),
        None => ctx.skip(
            l.labeled,
            format!("goto loop at {name}: not in the original text"),
        ),
    }
}

/// Why the goto loop cannot become a `for (;;)`, if it cannot.
fn check(ctx: &PassContext<'_>, l: &GotoLoop<'_>) -> Result<(), String> {
    for (i, s) in l.region.iter().enumerate() {
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
                "goto_statement" if nested && label_of(n, &ctx.file.view) == Some(l.label.as_str()) => {
                    return Err("a goto inside an inner loop or switch".into());
                }
                "break_statement" | "continue_statement" if !nested => {
                    return Err(format!("a {} of its own", kind.trim_end_matches("_statement")));
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
