//! C front end: parses raw C source (no preprocessor) with tree-sitter-c.
//!
//! Real C hides structure behind macros, so the parser does not see the
//! original text directly: it sees a *repaired view* in which macro uses the
//! grammar cannot handle have been blanked, rewritten or expanded. Every byte
//! of the view maps back to the original through an [`OffsetMap`], and code
//! that came from a rewrite is never edited.
//!
//! Contract used by the rest of weft: [`ParsedFile`].

mod arguments;
mod chunk;
mod classify;
mod conditional;
mod frontend;
pub mod goto_loop;
mod health;
mod lexer;
pub mod library;
mod macros;
mod offset_map;
mod recover;
mod repair;
mod rewrite;
mod sources;
mod splice;
pub mod syntax;
mod tree_edit;
mod trees;

pub mod sema;

pub use chunk::{CHUNK_BYTES, Chunk, parse_chunks};
pub use classify::MacroClass;
pub use conditional::{Pass, leading_tokens, open_conditionals};
pub use frontend::FrontEnd;
pub use health::{Culprit, FileHealth, Health, Region};
pub use macros::{Macro, MacroDef, MacroTable};
pub use offset_map::OffsetMap;
pub use sources::{Sources, check_size};
pub use splice::Reparsed;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use syntax::Occurrences;
use trees::Trees;
use weft_text::{LineIndex, Location};

/// A region of a file the front end could not understand. Join points are
/// never produced inside it and weaving never edits it.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Byte range in the original text.
    pub range: Range<usize>,
    /// 1-based line of `range.start` in the original text.
    pub line: usize,
    /// Human-readable reason.
    pub reason: String,
    /// The identifier most likely responsible (usually an unknown macro).
    pub culprit: Option<String>,
}

/// One C file as the front end understood it.
#[derive(Clone)]
pub struct ParsedFile {
    /// Path as given by the user (used in diagnostics and output).
    pub path: PathBuf,
    /// The original text, byte for byte.
    pub text: Arc<str>,
    /// The repaired view that tree-sitter parsed.
    pub view: String,
    /// Maps view offsets back to original offsets.
    pub map: OffsetMap,
    /// tree-sitter's trees over `view`: [`ParsedFile::tree_at`],
    /// [`ParsedFile::trees`].
    trees: Trees,
    /// Regions not understood, in original offsets.
    pub problems: Vec<Problem>,
    /// Text read as blank because it did not parse even alone: conditional
    /// branches (typically `#if` guards around deliberate non-C such as
    /// `error: ...`) and the parameter declarations of old-style
    /// definitions tree-sitter-c does not accept (`char *f(s) char *s;
    /// {…}`, whose parameters are then untyped). Their text is synthesized
    /// in the view, so it is never editable, but the code around them
    /// stays understood.
    pub skipped: Vec<Problem>,
    /// Conditional branches holding code that this reading blanked because
    /// it kept another branch of their group (in original offsets, the
    /// text between the directives).
    pub unread: Vec<Range<usize>>,
    /// The most branches after the kept one that a group with a branch in
    /// `unread` has (0 when nothing is unread), at most
    /// [`frontend::MAX_ALTERNATIVES`].
    pub alternatives: usize,
    /// One more than the deepest nesting of such a group, at most
    /// [`frontend::MAX_DEPTHS`]: the passes from deeper levels read the
    /// branches inside a kept branch while the outer groups keep theirs.
    pub depths: usize,
    /// Where `{` occurs in the view, found when first asked for.
    braces: OnceLock<Occurrences>,
    /// Where the text's lines start, found when first asked for.
    lines: OnceLock<LineIndex>,
}

impl ParsedFile {
    /// Parses `text` with no macro knowledge (the view is the text itself).
    pub fn parse_plain(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> ParsedFile {
        let text: Arc<str> = text.into();
        let view = text.to_string();
        let tree = parse_view(&view);
        ParsedFile {
            path: path.into(),
            map: OffsetMap::identity(view.len()),
            problems: Vec::new(),
            skipped: Vec::new(),
            unread: Vec::new(),
            alternatives: 0,
            depths: 0,
            text,
            view,
            trees: Trees::Whole(tree),
            braces: OnceLock::new(),
            lines: OnceLock::new(),
        }
    }

    /// The alternative passes that read what this first reading left
    /// unread: each branch offset, for each depth to flip from, and for
    /// each depth but the deepest, that depth alone; branch offsets past
    /// [`frontend::MAX_ALTERNATIVES_EVERY_DEPTH`] only from depth 0.
    pub fn passes(&self) -> impl Iterator<Item = Pass> + use<> {
        let (alternatives, depths) = (self.alternatives, self.depths);
        (0..depths)
            .flat_map(move |from_depth| {
                let only: &[bool] = if from_depth + 1 < depths {
                    &[false, true]
                } else {
                    &[false]
                };
                only.iter().map(move |&only_depth| (from_depth, only_depth))
            })
            .flat_map(move |(from_depth, only_depth)| {
                let most = if from_depth == 0 && !only_depth {
                    alternatives
                } else {
                    alternatives.min(frontend::MAX_ALTERNATIVES_EVERY_DEPTH)
                };
                (1..=most).map(move |branch| Pass {
                    from_depth,
                    only_depth,
                    branch,
                })
            })
    }

    /// The tree holding view offset `offset`: the whole file's, or, for a
    /// large file parsed in chunks, its chunk's (see [`ParsedFile::trees`]).
    /// Nodes below the root found from it are the nodes of any other tree
    /// this file gives for that chunk while the caller keeps it.
    pub fn tree_at(&self, offset: usize) -> tree_sitter::Tree {
        self.trees.at(&self.view, offset)
    }

    /// The trees covering the view, in order, to walk the file from its
    /// top: the whole file's, or, for a large file whose view parses in
    /// chunks of whole top-level items ([`chunk`]), each chunk's, parsed
    /// when reached (the file holds one at a time). Each root's children
    /// are the whole tree's top-level items over the same bytes.
    pub fn trees(&self) -> impl Iterator<Item = tree_sitter::Tree> + '_ {
        self.trees.all(&self.view)
    }

    /// The `file:line:col` of byte `offset` of the text (clamped to its
    /// end): the lines are indexed once, so that many look-ups in a large
    /// file cost no scan of it each.
    pub fn location(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let (line, col) = self
            .lines
            .get_or_init(|| LineIndex::new(&self.text))
            .line_col(offset);
        Location {
            path: self.path.display().to_string(),
            line,
            col,
        }
    }

    /// How many trees [`ParsedFile::trees`] gives.
    pub fn tree_count(&self) -> usize {
        self.trees.count()
    }

    /// Tree `k` of [`ParsedFile::trees`], if there is one: a walk may take
    /// them one at a time, acting on each before asking for the next.
    pub fn tree(&self, k: usize) -> Option<tree_sitter::Tree> {
        self.trees.nth(&self.view, k)
    }

    /// Lets go of the chunk trees a large file holds ([`ParsedFile::tree_at`]):
    /// the file is about to be replaced by its edited text, and its trees
    /// would otherwise stay beside the edits being spliced.
    pub fn let_go_of_trees(&self) {
        self.trees.let_go();
    }

    /// The whole view's tree, parsed for a chunked file (and held in place
    /// of a chunk's): for what needs the file's root itself.
    pub fn whole_tree(&self) -> tree_sitter::Tree {
        self.trees.whole(&self.view)
    }

    /// The byte range of the whole tree's root node.
    pub fn root_range(&self) -> Range<usize> {
        self.trees.root_range()
    }

    /// The chunks the view was parsed in, when it was.
    pub fn chunks(&self) -> Option<&[Chunk]> {
        self.trees.chunks()
    }

    /// Where the text before `item` (a node under `parent`) begins, given
    /// the node before it that the caller looks back to, if any: that
    /// node's end, else `parent`'s start; but for a top-level item first
    /// in a chunk other than the first, where the chunk begins, which is
    /// where the last item of the chunk before ends: the item the whole
    /// tree would have given as the one before.
    pub fn lead_start(
        &self,
        item: tree_sitter::Node<'_>,
        parent: tree_sitter::Node<'_>,
        before: Option<tree_sitter::Node<'_>>,
    ) -> usize {
        if let Some(before) = before {
            return before.end_byte();
        }
        let chunk_start = self
            .chunks()
            .and_then(|chunks| chunks.get(chunks.partition_point(|c| c.range.end <= item.start_byte())))
            .map(|chunk| chunk.range.start)
            .filter(|&start| start > 0 && parent.parent().is_none());
        chunk_start.unwrap_or(parent.start_byte())
    }

    /// Where `{` occurs in the view: walks looking for what only a block
    /// can hold skip the expressions holding none (see
    /// [`syntax::holds_no_block`]).
    pub fn braces(&self) -> &Occurrences {
        self.braces.get_or_init(|| Occurrences::of(&self.view, &["{"]))
    }

    /// The original byte range of a view range, or `None` when an end of it
    /// lies in text synthesized by a repair (such text must not be edited).
    /// Repairs that keep their length inside the range (a blanked macro
    /// use) map back with it: see [`ParsedFile::verbatim_range`].
    pub fn original_range(&self, view: Range<usize>) -> Option<Range<usize>> {
        self.map.original_range(view)
    }

    /// The original range around a view range whose ends are copied text
    /// or the edges of repaired text ([`OffsetMap::edge_offset`]), allowing
    /// for the blanks that pad a repair to its use's length (`END_TEST`
    /// read as `} }` and five spaces ends where `END_TEST` ends): where code
    /// may go before or after it.
    pub fn outer_range(&self, view: Range<usize>) -> Option<Range<usize>> {
        let bytes = self.view.as_bytes();
        let blank = |b: &&u8| matches!(**b, b' ' | b'\t');
        let before = bytes[..view.start].iter().rev().take_while(blank).count();
        let after = bytes[view.end..].iter().take_while(blank).count();
        let start = (0..=before).find_map(|k| self.map.edge_offset(view.start - k, view.is_empty()))?;
        let end = (0..=after).find_map(|k| self.map.edge_offset(view.end + k, true))?;
        (end >= start).then_some(start..end)
    }

    /// The original byte range of a view range copied verbatim, with no
    /// repaired byte inside: text that may be copied as the parser read it.
    pub fn verbatim_range(&self, view: Range<usize>) -> Option<Range<usize>> {
        self.original_range(view.clone())
            .filter(|_| self.map.is_verbatim(view))
    }

    /// The view text of a node.
    pub fn node_text(&self, node: tree_sitter::Node<'_>) -> &str {
        &self.view[node.byte_range()]
    }

    /// The original text of a node (macro uses as written), when the node
    /// maps back.
    pub fn original_text(&self, node: tree_sitter::Node<'_>) -> Option<&str> {
        self.original_range(node.byte_range())
            .and_then(|r| self.text.get(r))
    }

    /// True when `node` (a node of `tree`) is fully understood: no
    /// ERROR/MISSING inside, not overlapping a Problem, and its ends map
    /// back to original text (a definition whose header a macro use wrote,
    /// `START_TEST(t) {…} END_TEST`, is understood; its repaired tokens are
    /// not).
    pub fn is_understood(&self, node: tree_sitter::Node<'_>) -> bool {
        if node.has_error() || node.is_missing() {
            return false;
        }
        let Some(range) = self.outer_range(node.byte_range()) else {
            return false;
        };
        // A token (or a preprocessor argument) with rewritten bytes inside
        // is text the parser never saw as written.
        if node.child_count() == 0 && !self.map.is_verbatim(node.byte_range()) {
            return false;
        }
        !self.problems.iter().any(|p| {
            p.range.start < range.end && range.start < p.range.end
                || p.range.is_empty() && range.contains(&p.range.start)
        })
    }
}

/// Parses a view with tree-sitter-c. tree-sitter always returns a tree for
/// UTF-8 input with the C language set; failure here is a programming error.
pub fn parse_view(view: &str) -> tree_sitter::Tree {
    frontend::parse_with(&mut frontend::new_parser(), view, None)
}
