//! Behaviour-preserving transformation passes (MANET's engines, report
//! table 2.1) that make C easier to instrument.
//!
//! Each pass looks at one parsed file and returns byte-range [`Edit`]s on
//! that file's current text, plus the places it deliberately left alone
//! ([`Skipped`]). Passes never regenerate code: a rewritten statement is
//! rebuilt from the original text of its parts, and everything else stays
//! byte for byte. To chain passes, apply a pass's edits, re-parse, rebuild
//! the [`Semantics`] and run the next one ([`crate::program::transform_text`] does this for
//! the tests; `weft transform` goes through [`crate::program::Program`]'s
//! `perform`).
//!
//! Rewritten statements stay on their original lines (temporaries live in
//! a block `{ T tmp; tmp = e; … }` replacing the statement), so C89
//! declaration order holds and line numbers of the rest of the file are
//! kept; only NormalizeReturn's added `return;` adds a line. See
//! docs/transforms.md.

mod assign_expansion;
mod context;
mod goto_loops;
mod normalize_return;
mod reachability;
mod safety;
mod single_declarator;
mod struct_assign;
mod temporary;
mod unary_expansion;

use std::fmt;
use std::path::PathBuf;

use tree_sitter::Node;

use crate::edit::Edit;
use context::PassContext;
use weft_c::ParsedFile;
use weft_c::sema::Semantics;
use weft_c::syntax::{KindSet, Occurrences};

/// A place a pass did not rewrite because doing so might change behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    /// 1-based line and column in the text the pass ran on.
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Skipped {
            path,
            line,
            column,
            reason,
        } = self;
        write!(f, "{}:{line}:{column}: {reason}", path.display())
    }
}

/// What one pass did to one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassOutcome {
    /// Non-overlapping edits on the file's original text, sorted.
    pub edits: Vec<Edit>,
    pub skipped: Vec<Skipped>,
}

/// Errors of [`run`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TransformError {
    #[error("unknown pass `{0}` (known: {1})")]
    UnknownPass(String, String),
    /// A pass produced edits the edit engine refused (overlapping, or not
    /// on character boundaries): a bug of the pass.
    #[error("{0}")]
    Edit(#[from] crate::edit::EditError),
}

/// One pass: what runs it over a file, whether it consults the program's
/// semantics (building them costs about as much as the pass), and whether
/// its edits keep every declaration.
struct Implementation {
    run: fn(&mut PassContext<'_>),
    uses_semantics: bool,
    /// Every edit replaces an expression by an expression built from the
    /// replaced text's own parts and operators, so it declares nothing,
    /// opens no block and defines no tag: the file's scopes, declarations
    /// and tags stay the same, only moved, and its semantics can be shifted
    /// through the edits instead of rebuilt ([`weft_c::sema::ViewShift`]).
    /// True for AssignExpansion and UnaryExpansion only: SingleDeclarator
    /// splits declarations, StructAssignDecomposition and NormalizeReturn
    /// declare temporaries in new blocks.
    keeps_declarations: bool,
}

/// Canonical names and aliases (MANET's LARA spellings), in MANET's
/// PrepareProgram order, then GotoLoops (made for the non-termination
/// monitor); `IMPLEMENTATIONS` is parallel to it.
const NAMES: &[(&str, &[&str])] = &[
    ("SingleDeclarator", &[]),
    ("AssignExpansion", &["AssignmentExpansion"]),
    ("StructAssignDecomposition", &["StructAssignmentDecomposition"]),
    ("UnaryExpansion", &[]),
    ("NormalizeReturn", &[]),
    ("GotoLoops", &[]),
];

const IMPLEMENTATIONS: [Implementation; 6] = [
    Implementation {
        run: single_declarator::run,
        uses_semantics: false,
        keeps_declarations: false,
    },
    Implementation {
        run: assign_expansion::run,
        uses_semantics: true,
        keeps_declarations: true,
    },
    Implementation {
        run: struct_assign::run,
        uses_semantics: true,
        keeps_declarations: false,
    },
    Implementation {
        run: unary_expansion::run,
        uses_semantics: true,
        keeps_declarations: true,
    },
    Implementation {
        run: normalize_return::run,
        uses_semantics: true,
        keeps_declarations: false,
    },
    Implementation {
        run: goto_loops::run,
        uses_semantics: false,
        keeps_declarations: false,
    },
];

/// The passes in MANET's PrepareProgram order, then weft's own
/// (GotoLoops): canonical name and aliases.
pub fn pass_names() -> &'static [(&'static str, &'static [&'static str])] {
    NAMES
}

/// MANET's PrepareProgram, what `--pass all` runs: the first five passes
/// of [`pass_names`].
pub fn prepare_program() -> impl Iterator<Item = &'static str> {
    NAMES[..5].iter().map(|(name, _)| *name)
}

fn pass_index(name: &str) -> Result<usize, TransformError> {
    NAMES
        .iter()
        .position(|(canonical, aliases)| {
            canonical.eq_ignore_ascii_case(name) || aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| {
            let known: Vec<&str> = NAMES.iter().map(|p| p.0).collect();
            TransformError::UnknownPass(name.to_string(), known.join(", "))
        })
}

/// The canonical name of a pass given by canonical name or alias
/// (case-insensitive).
pub fn canonical_name(name: &str) -> Result<&'static str, TransformError> {
    Ok(NAMES[pass_index(name)?].0)
}

/// Whether pass `name` (canonical or alias) consults the semantics it is
/// given: when it does not, [`run`] may be given empty ones
/// (`Semantics::build(&[], &[])`) instead of the program's.
pub fn uses_semantics(name: &str) -> Result<bool, TransformError> {
    Ok(IMPLEMENTATIONS[pass_index(name)?].uses_semantics)
}

/// Whether every edit of pass `name` (canonical or alias) keeps the file's
/// declarations, scopes and tags, only moving them: then the semantics of
/// a file it changed can be shifted instead of walked again.
pub fn keeps_declarations(name: &str) -> Result<bool, TransformError> {
    Ok(IMPLEMENTATIONS[pass_index(name)?].keeps_declarations)
}

/// Runs pass `name` (canonical or alias) over file `file_index` of the
/// program whose semantics are `sema`. The edits apply to `file.text`.
pub fn run(
    name: &str,
    file: &ParsedFile,
    sema: &Semantics,
    file_index: usize,
) -> Result<PassOutcome, TransformError> {
    let pass = &IMPLEMENTATIONS[pass_index(name)?];
    let mut ctx = PassContext::new(file, sema, file_index);
    (pass.run)(&mut ctx);
    Ok(ctx.finish())
}

/// Visits `root`'s subtree (`root` included) in source order, giving
/// `visit` each node and its depth below `root`, and does not go below the
/// nodes `skip` says hold nothing sought: walking every node of a file
/// costs about a quarter of parsing it.
fn walk<'t>(root: Node<'t>, skip: impl Fn(Node<'t>) -> bool, mut visit: impl FnMut(Node<'t>, u32)) {
    // One cursor for the whole walk: a cursor per node costs more than
    // the walk itself.
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        visit(node, cursor.depth());
        if !skip(node) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
}

/// The nodes of the kinds `kinds` in `root`'s subtree (`root` included),
/// in source order, not looking below the nodes `skip` says hold none.
fn nodes_of_kind<'t>(root: Node<'t>, kinds: &KindSet, skip: impl Fn(Node<'t>) -> bool) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    walk(root, skip, |node, _| {
        if kinds.contains(node) {
            found.push(node);
        }
    });
    found
}

/// Some short strings every node a pass rewrites holds (an assignment its
/// operator, an increment `++` or `--`): subtrees without one need not be
/// walked.
struct Needles(Occurrences);

impl Needles {
    fn of(view: &str, needles: &[&str]) -> Needles {
        Needles(Occurrences::of(view, needles))
    }

    /// True when the view holds no needle.
    fn absent_from_view(&self) -> bool {
        !self.0.any_in(0..usize::MAX)
    }

    /// True when `node`'s subtree holds no needle, nor an error (whose
    /// missing tokens have no text).
    fn absent_from(&self, node: Node<'_>) -> bool {
        !node.has_error() && !self.0.any_in(node.byte_range())
    }
}

/// The nodes of the given kinds in `root`'s subtree whose text always holds
/// one of `needles`, in source order.
fn nodes_holding<'t>(root: Node<'t>, kinds: &KindSet, needles: &Needles) -> Vec<Node<'t>> {
    nodes_of_kind(root, kinds, |node| needles.absent_from(node))
}

/// The leading whitespace of the line holding byte `offset` of `text`.
fn indentation_at(text: &str, offset: usize) -> &str {
    let start = weft_text::line_start(text, offset);
    let line = &text[start..];
    let end = line.find(|c: char| c != ' ' && c != '\t').unwrap_or(line.len());
    &line[..end]
}
