//! Loops made of a backward `goto`: `L: s1; … sk;` where a statement of
//! the region holds a `goto L;` goes round from that goto back to `L`.
//! The one answer to which statements such a loop spans, for the pass
//! that rewrites it as a `for (;;)` (`weft-weave`'s GotoLoops) and for the
//! static analysis that extracts it as a loop (`weft-loops`).

use std::collections::BTreeSet;
use std::ops::Range;

use tree_sitter::Node;

/// A loop made of a backward `goto`: its head is the label `L`, its body
/// the statements from `L:` to the last one of `L`'s block that holds a
/// `goto L;`. A `goto L;` among them goes round; falling off the last
/// statement, or any other jump out, leaves.
#[derive(Clone, Debug)]
pub struct GotoLoop<'t> {
    /// The labeled statement `L: s1`.
    pub labeled: Node<'t>,
    /// The label, `L`.
    pub label: String,
    /// `L: s1`, then its siblings up to `sk`; `L: s1` alone when it is not
    /// in a block (`if (c) L: goto L;`).
    pub region: Vec<Node<'t>>,
}

impl<'t> GotoLoop<'t> {
    /// Byte range from the label to the end of the last statement.
    pub fn range(&self) -> Range<usize> {
        let end = self
            .region
            .last()
            .map_or(self.labeled.end_byte(), |s| s.end_byte());
        self.labeled.start_byte()..end
    }

    /// `s1`, the statement the label labels.
    pub fn first(&self) -> Option<Node<'t>> {
        self.labeled.named_child(1)
    }

    /// The region's statements with `s1` in place of `L: s1`.
    pub fn statements(&self) -> Vec<Node<'t>> {
        self.first()
            .into_iter()
            .chain(self.region.iter().skip(1).copied())
            .collect()
    }

    /// The `goto L;` statements of the region.
    pub fn gotos(&self, text: &str) -> Vec<Node<'t>> {
        self.region
            .iter()
            .flat_map(|s| gotos_to(*s, text, &self.label))
            .collect()
    }
}

/// The goto loop headed by `labeled` (a `labeled_statement`): None when
/// no `goto` after the label names it (nothing goes back to it); Err, said
/// in words, when one does but the statements it goes round cannot be
/// told: every backward `goto` lies outside the label's block, or a jump
/// lands in the middle of the region (a `case` of a switch, or another
/// label some `goto` of the function names).
pub fn goto_loop<'t>(labeled: Node<'t>, text: &str) -> Option<Result<GotoLoop<'t>, String>> {
    let label = labeled.child_by_field_name("label")?;
    let name = text.get(label.byte_range())?.to_string();
    let function = function_of(labeled);
    let jumps = gotos(function);
    if !jumps
        .iter()
        .any(|g| g.start_byte() > labeled.start_byte() && label_of(*g, text) == Some(name.as_str()))
    {
        return None;
    }
    let region = region(labeled, text, &name);
    Some(region.and_then(|region| {
        let targets: BTreeSet<&str> = jumps.iter().filter_map(|g| label_of(*g, text)).collect();
        entered_in_the_middle(&region, text, &targets)?;
        Ok(GotoLoop {
            labeled,
            label: name,
            region,
        })
    }))
}

/// `L: s1` and its siblings up to the last one holding a `goto L;`.
fn region<'t>(labeled: Node<'t>, text: &str, name: &str) -> Result<Vec<Node<'t>>, String> {
    let block = labeled.parent();
    let siblings: Vec<Node<'t>> = match block {
        // A case's statements are its children after its value: a block
        // of their own, which no other case label enters.
        Some(b) if matches!(b.kind(), "compound_statement" | "case_statement") => {
            let mut cursor = b.walk();
            b.named_children(&mut cursor)
                .skip_while(|n| n.id() != labeled.id())
                .collect()
        }
        _ => vec![labeled],
    };
    let last = siblings
        .iter()
        .rposition(|s| !gotos_to(*s, text, name).is_empty())
        .ok_or_else(|| format!("every goto {name} going back to it lies outside the label's block"))?;
    Ok(siblings[..=last].to_vec())
}

/// Err when a jump lands inside the region past its head: a `case` or
/// `default` of a switch around it, or a label (other than the head's)
/// that some `goto` names.
fn entered_in_the_middle(region: &[Node<'_>], text: &str, targets: &BTreeSet<&str>) -> Result<(), String> {
    let head = region[0].id();
    let mut stack: Vec<Node<'_>> = region.to_vec();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "case_statement" => return Err("a case label inside it (the switch jumps into it)".into()),
            "labeled_statement" if n.id() != head => {
                let label = n
                    .child_by_field_name("label")
                    .and_then(|l| text.get(l.byte_range()));
                if let Some(label) = label.filter(|l| targets.contains(l)) {
                    return Err(format!("another label inside it, {label}, is a goto target"));
                }
            }
            // A nested switch's cases are its own.
            "switch_statement" => continue,
            _ => {}
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    Ok(())
}

/// The function definition holding `node`, or the file's root.
fn function_of(node: Node<'_>) -> Node<'_> {
    let mut at = node;
    while let Some(p) = at.parent() {
        if p.kind() == "function_definition" {
            return p;
        }
        at = p;
    }
    at
}

/// The `goto name;` statements in `node`'s subtree.
pub fn gotos_to<'t>(node: Node<'t>, text: &str, name: &str) -> Vec<Node<'t>> {
    gotos(node)
        .into_iter()
        .filter(|g| label_of(*g, text) == Some(name))
        .collect()
}

/// The `goto` statements in `root`'s subtree.
pub fn gotos(root: Node<'_>) -> Vec<Node<'_>> {
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

/// The label a `goto` statement names.
pub fn label_of<'a>(goto: Node<'_>, text: &'a str) -> Option<&'a str> {
    goto.child_by_field_name("label")
        .and_then(|l| text.get(l.byte_range()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The goto loop of each label of `text`, as (label, first line, last
    /// line) or the reason.
    fn loops(text: &str) -> Vec<Result<(String, usize, usize), String>> {
        let tree = crate::parse_view(text);
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "labeled_statement"
                && let Some(found) = goto_loop(n, text)
            {
                out.push(found.map(|l| {
                    let last = l.region.last().unwrap().end_position().row + 1;
                    (l.label, l.labeled.start_position().row + 1, last)
                }));
            }
            let mut cursor = n.walk();
            stack.extend(
                n.named_children(&mut cursor)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            );
        }
        out
    }

    #[test]
    fn the_region_runs_from_the_label_to_the_last_statement_going_back() {
        let text = "void f(int x) {\nagain:\n x++;\n if (x < 5) goto again;\n if (x < 9) { if (x) goto again; }\n x = 0;\n}\n";
        assert_eq!(loops(text), vec![Ok(("again".to_string(), 2, 5))]);
    }

    #[test]
    fn forward_gotos_and_labels_of_another_function_make_no_loop() {
        let text =
            "void f(int x) {\n goto out;\n x++;\nout:\n x--;\n}\nvoid g(void) {\n goto out;\nout:;\n}\n";
        assert!(loops(text).is_empty());
    }

    #[test]
    fn a_label_outside_a_block_is_its_own_region() {
        let text = "void f(int i) {\n if (i > 9) STUCK: goto STUCK;\n}\n";
        assert_eq!(loops(text), vec![Ok(("STUCK".to_string(), 2, 2))]);
    }

    #[test]
    fn a_case_is_a_block_and_a_region_over_a_case_label_is_refused() {
        let inside = "void f(int s, int x) {\n switch (s) {\n case 1:\n again: x++;\n if (x) goto again;\n break;\n }\n}\n";
        assert_eq!(loops(inside), vec![Ok(("again".to_string(), 4, 5))]);
        let across =
            "void f(int s, int x) {\n switch (s) {\n again: x++;\n case 1: if (x) goto again;\n }\n}\n";
        let got = loops(across);
        assert!(
            matches!(&got[..], [Err(why)] if why.contains("a case label inside it")),
            "{got:?}"
        );
    }

    #[test]
    fn a_jump_into_the_middle_or_from_outside_the_block_is_refused() {
        let middle = "void f(int x) {\n goto mid;\nagain:\n x++;\nmid:\n x--;\n if (x) goto again;\n}\n";
        let got = loops(middle);
        assert!(
            matches!(&got[..], [Err(why)] if why.contains("another label inside it, mid, is a goto target")),
            "{got:?}"
        );
        let outside = "void f(int x) {\n { again: x++; }\n if (x) goto again;\n}\n";
        let got = loops(outside);
        assert!(
            matches!(&got[..], [Err(why)] if why.contains("outside the label's block")),
            "{got:?}"
        );
    }
}
