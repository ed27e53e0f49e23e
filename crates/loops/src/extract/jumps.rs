//! `goto` in the fragment: a loop made of a backward `goto`
//! (`weft_c::goto_loop`) is extracted like a `for (;;)` whose body is its
//! region, each `goto` to its head going round and falling off its last
//! statement leaving (what the GotoLoops pass makes of it, so the SRC the
//! monitor weaves into that `for` is the one found here); and in any
//! loop, a `goto` to a label outside it leaves it.

use std::collections::BTreeSet;

use tree_sitter::Node;
use weft_c::goto_loop::{GotoLoop, label_of};
use weft_c::sema::Semantics;

use super::{End, Extractor, Fragment, Partial, R, Scope};

/// The fragment of a goto loop, or why it is outside. Input calls are not
/// modelled at end of file here: the round counter that check needs
/// would have to be declared around the region, which a `goto` from
/// outside could jump past.
pub(crate) fn goto_fragment(l: &GotoLoop<'_>, text: &str, sema: Option<(&Semantics, usize)>) -> R<Fragment> {
    if l.region.iter().any(|s| s.has_error()) {
        return Err("not parsed".into());
    }
    let scope = Scope::of(l.labeled, text);
    let mut x = Extractor::new(text, sema, &scope, l.labeled.start_byte());
    x.head = Some(l.label.clone());
    x.inner_labels = labels_in(&l.region, text);
    let mut paths = vec![Partial::start()];
    for s in l.statements() {
        paths = x.stmt(s, paths)?;
    }
    // Past the last statement is out of the loop.
    for p in &mut paths {
        p.end.get_or_insert(End::Exit);
    }
    x.finish(l.labeled, "1".to_string(), paths)
}

/// The labels of the statements in `nodes`' subtrees.
pub(super) fn labels_in(nodes: &[Node<'_>], text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = nodes.to_vec();
    while let Some(n) = stack.pop() {
        if n.kind() == "labeled_statement"
            && let Some(label) = n.child_by_field_name("label")
        {
            out.insert(text[label.byte_range()].to_string());
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

impl Extractor<'_> {
    /// Ends the live paths at a `goto`: round again to the goto loop's
    /// head, out to a label outside the loop; a jump to a label inside
    /// (a forward jump within the body, or an inner goto loop) is not
    /// followed.
    pub(super) fn jump(&self, goto: Node<'_>, live: &mut [Partial]) -> R<()> {
        let label = label_of(goto, self.text).ok_or("a goto without a label")?;
        let end = if self.head.as_deref() == Some(label) {
            End::Continue
        } else if self.inner_labels.contains(label) {
            return Err(format!("a goto to {label}, a label inside the loop"));
        } else {
            End::Exit
        };
        for p in live {
            p.end = Some(end);
        }
        Ok(())
    }
}
