//! What every pass needs while it looks at one file: the file, its
//! semantics, the edits produced so far and the places it left alone.

use std::ops::Range;

use tree_sitter::Node;

use super::{PassOutcome, Skipped, nodes_of_kind};
use crate::edit::Edit;
use weft_c::ParsedFile;
use weft_c::sema::Semantics;
use weft_c::syntax::{KindSet, holds_no_block};

/// One pass's view of one file.
pub struct PassContext<'a> {
    pub file: &'a ParsedFile,
    pub sema: &'a Semantics,
    pub index: usize,
    outcome: PassOutcome,
}

impl<'a> PassContext<'a> {
    pub fn new(file: &'a ParsedFile, sema: &'a Semantics, index: usize) -> PassContext<'a> {
        PassContext {
            file,
            sema,
            index,
            outcome: PassOutcome::default(),
        }
    }

    /// The nodes of the kinds `kinds` in `root`'s subtree, in source order,
    /// for kinds that are statements, declarations or definitions (or stop
    /// the search, as `stop` says): expressions hold them only inside
    /// braces, so expressions without `{` are not walked, and neither are
    /// the nodes `stop` is true of.
    pub fn statement_nodes<'t>(
        &self,
        root: Node<'t>,
        kinds: &KindSet,
        stop: impl Fn(Node<'t>) -> bool,
    ) -> Vec<Node<'t>> {
        let braces = self.file.braces();
        nodes_of_kind(root, kinds, |node| stop(node) || holds_no_block(node, braces))
    }

    /// Records that `node` was left untouched, and why.
    pub fn skip(&mut self, node: Node<'_>, reason: impl Into<String>) {
        // Repairs keep line breaks: the view's row is the original line.
        let line = node.start_position().row + 1;
        self.skip_at(self.file.map.approximate(node.start_byte()), line, reason.into());
    }

    /// Records that the code at original offset `offset`, on 1-based line
    /// `line`, was left untouched, and why.
    fn skip_at(&mut self, offset: usize, line: usize, reason: String) {
        let column = offset - weft_text::line_start(&self.file.text, offset) + 1;
        self.outcome.skipped.push(Skipped {
            path: self.file.path.clone(),
            line,
            column,
            reason,
        });
    }

    /// The original range of a node the pass may rewrite, or why it may not:
    /// it did not parse, sits inside text that did not parse, or was
    /// produced by the front end's repair of a macro use.
    pub fn editable(&self, node: Node<'_>) -> Result<Range<usize>, &'static str> {
        if node.has_error() {
            return Err("contains text that did not parse");
        }
        if self.inside_error(node) {
            return Err("inside text that did not parse");
        }
        let range = self
            .file
            .original_range(node.byte_range())
            .ok_or("produced by a macro expansion")?;
        if !self.file.is_understood(node) {
            return Err("overlaps text the front end did not understand");
        }
        Ok(range)
    }

    /// True when an ancestor of `node` is an ERROR node. Every node above
    /// an ERROR node reports an error, so the search goes down from the
    /// root only through those (asking for parents would walk down from
    /// the root for each one).
    fn inside_error(&self, node: Node<'_>) -> bool {
        // A file parsed in chunks has no error: its chunk's root says so.
        let tree = self.file.tree_at(node.start_byte());
        let mut at = tree.root_node();
        while at.has_error() && at.id() != node.id() {
            if at.is_error() {
                return true;
            }
            let Some(child) = at.child_with_descendant(node) else {
                return false;
            };
            at = child;
        }
        false
    }

    /// The original text of a node, if it is verbatim original text.
    pub fn text(&self, node: Node<'_>) -> Option<&'a str> {
        let range = self.file.original_range(node.byte_range())?;
        self.file.text.get(range)
    }

    /// The view text of a node (for names and operators).
    pub fn view_text(&self, node: Node<'_>) -> &'a str {
        self.file.view.get(node.byte_range()).unwrap_or("")
    }

    /// A name for a temporary that no identifier of the file uses, so it can
    /// neither shadow nor be shadowed by anything the statement mentions.
    pub fn fresh_name(&self, base: &str) -> String {
        if !uses_word(&self.file.view, base) {
            return base.to_string();
        }
        (1..)
            .map(|n| format!("{base}{n}"))
            .find(|candidate| !uses_word(&self.file.view, candidate))
            .unwrap_or_else(|| base.to_string())
    }

    /// Replaces the original range `range` by `text`.
    pub fn replace(&mut self, range: Range<usize>, text: String) {
        self.outcome.edits.push(Edit { range, text });
    }

    /// The edits sorted by position. An edit overlapping an earlier one
    /// (a rewrite nested in another) is dropped and reported: applying both
    /// would corrupt the text, and the next run of the pass picks it up.
    pub fn finish(mut self) -> PassOutcome {
        let mut edits = std::mem::take(&mut self.outcome.edits);
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
        for edit in edits {
            let overlaps = kept.last().is_some_and(|k| {
                edit.range.start < k.range.end
                    || (edit.range.is_empty() && edit.range.start == k.range.end && k.range.is_empty())
            });
            if overlaps {
                let line = self.file.location(edit.range.start).line;
                self.skip_at(edit.range.start, line, "nested inside another rewrite".into());
            } else {
                kept.push(edit);
            }
        }
        self.outcome.edits = kept;
        self.outcome.skipped.sort_by_key(|s| (s.line, s.column));
        self.outcome
    }
}

/// True when `word` occurs in `text` as a whole identifier.
fn uses_word(text: &str, word: &str) -> bool {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    text.match_indices(word).any(|(at, _)| {
        let before = text.as_bytes()[..at].last().copied();
        let after = text.as_bytes().get(at + word.len()).copied();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}
