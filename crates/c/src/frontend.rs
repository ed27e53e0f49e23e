//! The macro-aware front end: repairs, parses, looks at what failed,
//! repairs around it and re-parses, a bounded number of times.

use super::conditional::{CondGroup, Pass, groups};
use super::lexer::{TokenKind, directive_comments};
use super::macros::MacroTable;
use super::recover::{
    GroupRepair, Skipped, culprit, error_tokens, old_style_fallback, recover, skip_unreadable_groups, window,
};
use super::repair::{OldStyle, TokenInfo, repair_pass};
use super::rewrite::{Rewrite, RewriteSet};
use super::splice::{Reparsed, splice};
use super::tree_edit::reparse;
use super::trees::Trees;
use super::{OffsetMap, ParsedFile, Problem};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use weft_text::{Edit, LineIndex};

/// Error-driven rounds after the first parse. Each round only touches text
/// around remaining errors, so few are needed; the bound keeps parsing linear.
const RECOVERY_ROUNDS: usize = 3;

/// Branches after the first kept that alternative passes read at most
/// (`#if A … #elif B … #elif C … #else`), and nesting depths they start
/// flipping from: each pass is one more reading of the file, so the bounds
/// keep parsing linear. Every pass reads up to `MAX_ALTERNATIVES_EVERY_DEPTH`
/// branches after the kept one (at most 3 × 3 readings: from depth 0, from
/// depth 1, depth 0 alone); a long chain's later branches, up to
/// `MAX_ALTERNATIVES` (one per platform: `#if linux … #elif darwin … #elif
/// freebsd …`), are read by the pass from depth 0 alone (4 more readings).
pub const MAX_ALTERNATIVES: usize = 7;
pub const MAX_ALTERNATIVES_EVERY_DEPTH: usize = 3;
pub const MAX_DEPTHS: usize = 2;

/// Parses C files with the project's macro knowledge.
#[derive(Debug, Clone, Default)]
pub struct FrontEnd {
    macros: MacroTable,
    /// Which branch conditional groups keep ([`FrontEnd::for_pass`]).
    pass: Pass,
}

impl FrontEnd {
    /// A front end using `macros` (learned and user-given definitions).
    pub fn new(macros: MacroTable) -> FrontEnd {
        FrontEnd {
            macros,
            pass: Pass::FIRST,
        }
    }

    /// This front end reading `pass`: conditional groups read with one
    /// branch kept keep the branch `pass` says (`#if 0`'s dead branch is
    /// never kept), so that the functions of the branches a first reading
    /// blanks are parsed in some pass ([`ParsedFile::unread`],
    /// [`ParsedFile::passes`]).
    pub fn for_pass(&self, pass: Pass) -> FrontEnd {
        FrontEnd {
            macros: self.macros.clone(),
            pass,
        }
    }

    /// The pass this front end reads.
    pub fn pass(&self) -> Pass {
        self.pass
    }

    /// The macro table in use.
    pub fn macros(&self) -> &MacroTable {
        &self.macros
    }

    /// Parses one file: a repaired view, its tree, and the problems left.
    pub fn parse(&self, path: &Path, text: Arc<str>) -> ParsedFile {
        self.parse_reusing(path, text, None)
    }

    /// Parses one file in every pass it needs: the first reading, then
    /// each of [`ParsedFile::passes`], so that the branches the first
    /// reading blanked are read too.
    pub fn parse_passes(&self, path: &Path, text: Arc<str>) -> Vec<ParsedFile> {
        let first = self.parse(path, text.clone());
        let alternatives = first.passes();
        let mut passes = vec![first];
        passes.extend(alternatives.map(|p| self.for_pass(p).parse(path, text.clone())));
        passes
    }

    /// Parses `text`, the new text of the file `old` was parsed from (after
    /// edits), reusing `old`'s tree wherever the view is unchanged. The
    /// result is the same as [`FrontEnd::parse`]'s, only faster when the
    /// edits are small.
    pub fn reparse(&self, old: &ParsedFile, text: Arc<str>) -> ParsedFile {
        self.parse_reusing(&old.path, text, Some(old))
    }

    /// [`FrontEnd::reparse`] for a text that is `old.text` with `edits`
    /// (sorted, non-overlapping, as `EditSet::splices` gives
    /// them) applied. Edits of plain code in understood text are spliced
    /// into the old view and re-parsed from their exact positions, keeping
    /// the file's repairs (the result then says how the view was edited);
    /// anything else goes through the whole front end.
    pub fn reparse_edited(&self, old: &ParsedFile, edits: &[Edit], text: Arc<str>) -> Reparsed {
        splice(&self.macros, old, edits, &text).unwrap_or_else(|| Reparsed {
            file: self.reparse(old, text),
            view_edits: None,
        })
    }

    fn parse_reusing(&self, path: &Path, text: Arc<str>, old: Option<&ParsedFile>) -> ParsedFile {
        let src: &str = &text;
        let mut info = TokenInfo::new(src, &[]);
        let groups = groups(src, &info.tokens, self.pass);
        let mut state = vec![GroupRepair::None; groups.len()];
        let mut set = RewriteSet::default();
        let mut dead = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            if !group.balanced {
                state[g] = GroupRepair::KeptBranch;
                for r in group.blanks(&info.tokens) {
                    if set.add(Rewrite::blank(src, r.clone())) {
                        dead.push(r);
                    }
                }
            }
        }
        info.mark_dead(src, &dead);
        blank_comments_in_continued_directives(src, &info, &mut set);
        blank_line_markers(src, &info, &mut set);
        let mut old_style = repair_pass(src, &info, &self.macros, &mut set);
        // The tokens take more memory than the syntax tree: they go before
        // the parse, and only a file with errors to recover from makes them
        // again (the same tokens: tokenizing is a function of the text).
        drop(info);
        let mut tokens = None;

        let (mut view, mut map) = set.build_view(src);
        let mut skipped = Vec::new();
        // A large file parses in chunks when none has an error to recover
        // from (nor an old-style definition tree-sitter-c may misread).
        let chunked = old_style
            .iter()
            .all(|d| d.blanked)
            .then(|| Trees::of_chunks(&view));
        if let Some(Some(trees)) = chunked {
            let conditionals = (&groups[..], &state[..], &dead[..]);
            return self.finish(
                path,
                &text,
                (view, map, trees),
                (Vec::new(), skipped),
                conditionals,
                None,
            );
        }
        let mut parser = new_parser();
        let mut tree = match old.filter(|old| old.chunks().is_none()) {
            Some(old) => reparse(&mut parser, old.tree_at(0), &old.view, &view),
            None => parse_with(&mut parser, &view, None),
        };
        let mut rounds = 0;
        while rounds < RECOVERY_ROUNDS {
            let mut errors = error_ranges(&tree, &map);
            errors.extend(misread_old_style(&tree, &map, &old_style));
            if errors.is_empty() {
                break;
            }
            // A failing old-style definition first loses its parameter
            // declarations, and its errors wait for the next round. A round
            // with only such errors is not counted (each definition falls
            // back once), so the heuristics get every round they would have
            // had; the other errors get theirs at once.
            let info = tokens_again(&mut tokens, src, &dead);
            let before = set.iter().count();
            let (fallen, others) = old_style_fallback(src, &mut old_style, &errors, &mut set);
            let (unreadable, others) =
                skip_unreadable_groups(src, info, &self.macros, &groups, &mut state, others, &mut set);
            skipped.extend(unreadable);
            if !others.is_empty() {
                rounds += 1;
                // A group falls back to its kept branch in this round and is
                // skipped only when that already failed in an earlier one:
                // two errors of one group in one round are not a failure.
                let round_start = state.clone();
                for range in &others {
                    let win = window(src, info, range);
                    let err = error_tokens(info, range);
                    skipped.extend(recover(
                        src,
                        info,
                        &self.macros,
                        &groups,
                        (&round_start, &mut state),
                        (err, win),
                        &mut set,
                    ));
                }
            }
            if set.iter().count() == before && fallen.is_empty() {
                break;
            }
            skipped.extend(fallen);
            refresh_dead(src, info, &groups, &state);
            let (new_view, new_map) = set.build_view(src);
            tree = reparse(&mut parser, tree, &view, &new_view);
            view = new_view;
            map = new_map;
        }

        let errors = error_ranges(&tree, &map);
        self.finish(
            path,
            &text,
            (view, map, Trees::Whole(tree)),
            (errors, skipped),
            (&groups, &state, &dead),
            tokens,
        )
    }

    /// The parsed file of a view, its trees, the syntax errors left (in
    /// original offsets), what recovery skipped, and the tokens it made if
    /// it made them.
    fn finish(
        &self,
        path: &Path,
        text: &Arc<str>,
        (view, map, trees): (String, OffsetMap, Trees),
        (errors, skipped): (Vec<Range<usize>>, Vec<Skipped>),
        (groups, state, dead): (&[CondGroup], &[GroupRepair], &[Range<usize>]),
        mut tokens: Option<TokenInfo>,
    ) -> ParsedFile {
        let src: &str = text;
        // Most files have nothing to report: lines are indexed on demand.
        let lines = std::cell::OnceCell::new();
        let line = |offset: usize| lines.get_or_init(|| LineIndex::new(src)).line(offset);
        let info = (!errors.is_empty()).then(|| &*tokens_again(&mut tokens, src, dead));
        let mut problems: Vec<Problem> = errors
            .into_iter()
            .map(|range| Problem {
                line: line(range.start),
                culprit: info.and_then(|info| culprit(src, info, &self.macros, window(src, info, &range))),
                reason: "not understood: syntax error in the repaired view".into(),
                range,
            })
            .collect();
        let (aside, declarers): (Vec<_>, Vec<_>) = skipped.into_iter().partition(|s| s.aside);
        let as_problem = |s: Skipped| Problem {
            line: line(s.range.start),
            reason: s.reason,
            culprit: s.culprit,
            range: s.range,
        };
        problems.extend(declarers.into_iter().map(as_problem));
        let aside = aside.into_iter().map(as_problem).collect();
        problems.sort_by_key(|p| (p.range.start, p.range.end));
        // Only a group read with one branch kept can leave code unread.
        let (unread, alternatives, depths) = if state.contains(&GroupRepair::KeptBranch) {
            unread_branches(tokens_again(&mut tokens, src, dead), groups, state)
        } else {
            (Vec::new(), 0, 0)
        };
        ParsedFile {
            path: path.to_path_buf(),
            text: text.clone(),
            view,
            map,
            trees,
            problems,
            skipped: aside,
            unread,
            alternatives,
            depths,
            braces: Default::default(),
            lines: Default::default(),
        }
    }
}

/// The branches with code that groups read with one branch kept did not
/// keep; the most alternatives of such a group or of a group nested in
/// what they blank, and one more than the deepest of them.
fn unread_branches(
    info: &TokenInfo,
    groups: &[CondGroup],
    state: &[GroupRepair],
) -> (Vec<Range<usize>>, usize, usize) {
    let mut unread: Vec<Range<usize>> = Vec::new();
    let mut passes = 0;
    let mut depths = 0;
    for (g, s) in groups.iter().zip(state) {
        let inside = |r: &Range<usize>| unread.iter().any(|u| u.start <= r.start && r.end <= u.end);
        let kept_one = *s == GroupRepair::KeptBranch;
        if kept_one || inside(&g.byte_range(&info.tokens)) {
            let own = g.unread(&info.tokens);
            if !own.is_empty() {
                passes = passes.max(g.alternatives());
                depths = depths.max(g.depth + 1);
            }
            if kept_one {
                unread.extend(own);
            }
        }
    }
    unread.sort_by_key(|r| r.start);
    (unread, passes.min(MAX_ALTERNATIVES), depths.min(MAX_DEPTHS))
}

/// The tokens of `src` with those in `dead` ranges marked, made again
/// after the parse when recovery needs them.
fn tokens_again<'t>(
    tokens: &'t mut Option<TokenInfo>,
    src: &str,
    dead: &[Range<usize>],
) -> &'t mut TokenInfo {
    tokens.get_or_insert_with(|| {
        let mut info = TokenInfo::new(src, &[]);
        info.mark_dead(src, dead);
        info
    })
}

/// Tokens inside blanked conditional branches stop counting for depths.
fn refresh_dead(src: &str, info: &mut TokenInfo, groups: &[CondGroup], state: &[GroupRepair]) {
    let ranges: Vec<Range<usize>> = groups
        .iter()
        .zip(state)
        .flat_map(|(g, s)| match s {
            GroupRepair::None => Vec::new(),
            GroupRepair::KeptBranch => g.blanks(&info.tokens),
            GroupRepair::Skipped => vec![g.byte_range(&info.tokens)],
        })
        .collect();
    info.mark_dead(src, &ranges);
}

pub(super) fn new_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("tree-sitter-c grammar is compatible with the tree-sitter runtime");
    parser
}

pub(super) fn parse_with(
    parser: &mut tree_sitter::Parser,
    view: &str,
    old: Option<&tree_sitter::Tree>,
) -> tree_sitter::Tree {
    parser
        .parse(view, old)
        .expect("tree-sitter parse without timeout or cancellation always yields a tree")
}

/// Original ranges of the outermost ERROR nodes and of MISSING nodes.
pub(super) fn error_ranges(tree: &tree_sitter::Tree, map: &OffsetMap) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let root = tree.root_node();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        // A root ERROR only says the file as a whole is not a translation
        // unit; the errors are the ones inside it.
        if (node.is_error() && node.id() != root.id()) || node.is_missing() {
            let r = node.byte_range();
            out.push(map.approximate(r.start)..map.approximate(r.end));
            continue;
        }
        if node.has_error() {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out
}

/// The spans of the old-style definitions whose body no function definition
/// holds, with no syntax error to show it: tree-sitter-c reads `const char
/// *name(err) int err; {…}` (a pointer result) as a declaration followed by
/// a block at file scope. Such a definition falls back like one with an
/// error in it.
fn misread_old_style(tree: &tree_sitter::Tree, map: &OffsetMap, old_style: &[OldStyle]) -> Vec<Range<usize>> {
    if old_style.iter().all(|d| d.blanked) {
        return Vec::new();
    }
    let mut bodies = std::collections::HashSet::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            if let Some(body) = node.child_by_field_name("body") {
                bodies.insert(map.approximate(body.start_byte()));
            }
            continue;
        }
        // Bodies are where statements are: nothing inside one is a
        // file-scope definition.
        if node.kind() != "compound_statement" {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
    }
    old_style
        .iter()
        .filter(|d| !d.blanked && !bodies.contains(&d.body))
        .map(|d| d.span.clone())
        .collect()
}

/// tree-sitter's position (0-based row, byte column) of `offset`.
pub(super) fn point(lines: &LineIndex, offset: usize) -> tree_sitter::Point {
    let (line, col) = lines.line_col(offset);
    tree_sitter::Point {
        row: line - 1,
        column: col - 1,
    }
}

/// Blanks line markers (`# 13 "file.c" 3 4`, `#line 13`): a preprocessed
/// file (`cc -E`) has them wherever its text changes origin, even inside
/// an expression (`__builtin_alloca (` from a header, then the argument
/// from the file), where the parser cannot read a directive. They say
/// where text came from, nothing of what it means; the woven text keeps
/// them, as it keeps every directive.
fn blank_line_markers(src: &str, info: &TokenInfo, set: &mut RewriteSet) {
    for t in info.tokens.iter().filter(|t| t.kind == TokenKind::Directive) {
        let rest = t.text(src).trim_start_matches('#').trim_start();
        if rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with("line ") {
            set.add(Rewrite::blank(src, t.range()));
        }
    }
}

/// Blanks the comments inside directives continued over several lines: C
/// reads `/* fall through */ \` in a `#define` body as a space, but the
/// parser ends the directive at the comment and reads the rest of the body
/// as code.
fn blank_comments_in_continued_directives(src: &str, info: &TokenInfo, set: &mut RewriteSet) {
    let continued = info
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Directive && t.text(src).contains('\n'));
    for directive in continued {
        for comment in directive_comments(src, directive) {
            set.add(Rewrite::blank(src, comment));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preprocessed file's line markers, inside an expression as between
    /// statements, in GNU form or as `#line`, leave every function
    /// understood; the view keeps the text's length.
    #[test]
    fn line_markers_anywhere_are_blanked_in_the_view() {
        let src = "# 1 \"k.c\"\nint main() {\n  int n = 4;\n  int *a =\n# 13 \"k.c\" 3 4\n    __builtin_alloca (\n# 13 \"k.c\"\n    n * sizeof (int)\n#line 13\n    );\n  while (n > 0) n -= a[0] + 1;\n  return 0;\n}\n";
        let front = FrontEnd::new(MacroTable::learn([(Path::new("k.c"), src)]));
        let parsed = front.parse(Path::new("k.c"), Arc::from(src));
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        assert!(!parsed.whole_tree().root_node().has_error(), "{}", parsed.view);
        assert_eq!(parsed.view.len(), src.len());
        assert!(!parsed.view.contains("# 13") && !parsed.view.contains("#line"));
    }
}
