//! Incremental re-parsing: tells tree-sitter which lines of a view changed
//! so that it reuses the old tree everywhere else.
//!
//! Views change in many small places at once (an insert before every call,
//! a repair around every error), so the difference is computed line by line
//! and given to tree-sitter as one edit per changed run of lines, not as a
//! single span from the first change to the last (which would cover most of
//! the file and let nothing be reused).

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, capture_diff_slices_deadline};
use tree_sitter::{InputEdit, Point, Tree};

/// Beyond this the line diff settles for a coarser (still correct) answer:
/// a coarser diff only means less of the old tree is reused.
const DIFF_BUDGET: Duration = Duration::from_millis(20);

/// Parses `new` with `parser`, reusing `tree`, the parse of `old`.
pub(super) fn reparse(parser: &mut tree_sitter::Parser, mut tree: Tree, old: &str, new: &str) -> Tree {
    edit(&mut tree, old, new);
    super::frontend::parse_with(parser, new, Some(&tree))
}

/// Records in `tree` (a parse of `old`) every edit that turns `old` into `new`.
fn edit(tree: &mut Tree, old: &str, new: &str) {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let old_starts = starts(&old_lines);
    let new_starts = starts(&new_lines);
    let deadline = Instant::now() + DIFF_BUDGET;
    let ops = capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, Some(deadline));
    // From the last change back to the first: the text before each edit is
    // still the old text, so old offsets and rows stay valid.
    for op in ops.iter().rev() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            continue;
        }
        let start_byte = old_starts[o.start];
        let old_end_byte = old_starts[o.end];
        let inserted = &new[new_starts[n.start]..new_starts[n.end]];
        let start_position = Point {
            row: o.start,
            column: 0,
        };
        tree.edit(&InputEdit {
            start_byte,
            old_end_byte,
            new_end_byte: start_byte + inserted.len(),
            start_position,
            old_end_position: advance(start_position, &old[start_byte..old_end_byte]),
            new_end_position: advance(start_position, inserted),
        });
    }
}

/// Byte offset of each line's start, plus the text's length at the end.
fn starts(lines: &[&str]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    starts.push(0);
    for line in lines {
        at += line.len();
        starts.push(at);
    }
    starts
}

/// The position after `text` when it starts at `from`.
pub(super) fn advance(from: Point, text: &str) -> Point {
    match text.rfind('\n') {
        Some(last) => Point {
            row: from.row + text.matches('\n').count(),
            column: text.len() - last - 1,
        },
        None => Point {
            row: from.row,
            column: from.column + text.len(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The s-expression and positions of every node, to compare trees.
    fn shape(tree: &Tree) -> Vec<(String, usize, usize, Point)> {
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            out.push((
                node.kind().to_string(),
                node.start_byte(),
                node.end_byte(),
                node.start_position(),
            ));
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        out
    }

    #[test]
    fn incremental_parse_equals_a_fresh_parse() {
        let old = "int f(void) {\n  a();\n  b();\n}\nint g;\nint h(void) { return 1; }";
        let new = "int f(void) {\n  x();\n  a();\n  b();\n}\n\nint g;\nint h(void) { y(); return 1; }";
        let mut parser = super::super::frontend::new_parser();
        let old_tree = super::super::frontend::parse_with(&mut parser, old, None);
        let incremental = reparse(&mut parser, old_tree, old, new);
        let fresh = super::super::parse_view(new);
        assert_eq!(shape(&incremental), shape(&fresh));
    }

    #[test]
    fn positions_after_an_unterminated_last_line() {
        assert_eq!(
            advance(Point { row: 2, column: 0 }, "ab\ncd"),
            Point { row: 3, column: 2 }
        );
        assert_eq!(
            advance(Point { row: 2, column: 1 }, "ab"),
            Point { row: 2, column: 3 }
        );
    }
}
