//! Coarse repairs, each applied once: read only a conditional group's kept
//! branch, skip a group whose kept branch is not C, drop old-style
//! parameter declarations the grammar does not take.

use super::{Skipped, culprit};
use crate::conditional::CondGroup;
use crate::macros::MacroTable;
use crate::repair::{OldStyle, TokenInfo};
use crate::rewrite::{Rewrite, RewriteSet};
use std::ops::Range;

/// How far a conditional group has been repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupRepair {
    /// Read as written.
    None,
    /// Only the kept branch is read.
    KeptBranch,
    /// Even the kept branch failed (e.g. `#if X` around plain prose): the
    /// whole group is blanked and reported.
    Skipped,
}

/// Blanks the parameter declarations of each old-style definition an error
/// (original byte range) overlaps: the grammar may not accept the
/// definition with them, and without them it still parses as a function
/// with untyped parameters. Each definition falls back at most once.
/// Returns the declarations blanked, and the errors outside the definitions
/// that fell back.
pub fn old_style_fallback(
    src: &str,
    old_style: &mut [OldStyle],
    errors: &[Range<usize>],
    set: &mut RewriteSet,
) -> (Vec<Skipped>, Vec<Range<usize>>) {
    // An empty error range still marks the token after it.
    let overlaps =
        |span: &Range<usize>, e: &Range<usize>| e.start < span.end && span.start < e.end.max(e.start + 1);
    let mut blanked = Vec::new();
    let mut fell = Vec::new();
    for def in old_style.iter_mut().filter(|d| !d.blanked) {
        if errors.iter().any(|e| overlaps(&def.span, e)) {
            def.blanked = true;
            fell.push(def.span.clone());
            // Repairs inside the declarations go with them.
            if set.add_over(Rewrite::blank(src, def.declarations.clone())) {
                blanked.push(Skipped {
                    range: def.declarations.clone(),
                    culprit: None,
                    reason: "old-style parameter declarations not parsed, parameters untyped".into(),
                    aside: true,
                });
            }
        }
    }
    let others = errors
        .iter()
        .filter(|e| !fell.iter().any(|span| overlaps(span, e)))
        .cloned()
        .collect();
    (blanked, others)
}

/// Error regions a kept branch must hold, at least, to be read as not C.
const MIN_UNREADABLE_ERRORS: usize = 8;

/// A kept branch with one error region or more for every this many lines,
/// after a round of repairs, is not C.
const LINES_PER_UNREADABLE_ERROR: usize = 4;

/// Skips whole the conditional groups whose kept branch is not C even after
/// a round of repairs (assembly or prose under an `#if`): errors
/// (original byte ranges) lie thick in it, at least
/// `MIN_UNREADABLE_ERRORS` and one for every `LINES_PER_UNREADABLE_ERROR`
/// lines. One large error region means a misread construct in real code,
/// not an unreadable branch, and a short branch is skipped by [`super::recover`]
/// anyway. Every further round would re-parse such a branch, whose error
/// recovery is tree-sitter's slowest work, for nothing. Returns what was
/// skipped and the errors outside the skipped groups.
pub fn skip_unreadable_groups(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    groups: &[CondGroup],
    group_state: &mut [GroupRepair],
    errors: Vec<Range<usize>>,
    set: &mut RewriteSet,
) -> (Vec<Skipped>, Vec<Range<usize>>) {
    let mut blanked = Vec::new();
    let mut dropped: Vec<Range<usize>> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let kept = group.kept_tokens();
        if group_state[g] != GroupRepair::KeptBranch || kept.is_empty() {
            continue;
        }
        let bytes = info.tokens[kept.start].range().start..info.tokens[kept.end - 1].range().end;
        let inside = errors
            .iter()
            .filter(|e| bytes.start <= e.start && e.end <= bytes.end)
            .count();
        let lines = 1 + src[bytes.clone()].matches('\n').count();
        if inside < MIN_UNREADABLE_ERRORS || inside * LINES_PER_UNREADABLE_ERROR < lines {
            continue;
        }
        let range = group.byte_range(&info.tokens);
        if set.add_over(Rewrite::blank(src, range.clone())) {
            group_state[g] = GroupRepair::Skipped;
            blanked.push(Skipped {
                culprit: culprit(src, info, macros, kept),
                reason: format!(
                    "conditional group not understood ({inside} syntax errors in {lines} lines), skipped"
                ),
                aside: true,
                range: range.clone(),
            });
            dropped.push(range);
        }
    }
    let others = errors
        .into_iter()
        .filter(|e| !dropped.iter().any(|d| d.start <= e.start && e.end <= d.end))
        .collect();
    (blanked, others)
}

/// A conditional group whose kept branch is longer than this is never
/// skipped whole: an error inside it is the code's, not the group's.
const MAX_SKIPPED_BRANCH: usize = 64;

/// Repairs the conditional groups that overlap `win`, the window of the
/// error at token range `err`: a group read as written falls back to its
/// kept branch; a short kept branch that holds the error after a round
/// read it alone (`round_start`: the state when this round began) is
/// skipped whole.
pub(super) fn repair_groups(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    groups: &[CondGroup],
    (round_start, group_state): (&[GroupRepair], &mut [GroupRepair]),
    (err, win): (&Range<usize>, &Range<usize>),
    set: &mut RewriteSet,
) -> Vec<Skipped> {
    let mut blanked = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let tr = group.tokens();
        if !(tr.start < win.end && win.start < tr.end) {
            continue;
        }
        let kept = group.kept_tokens();
        match group_state[g] {
            GroupRepair::None => {
                group_state[g] = GroupRepair::KeptBranch;
                for r in group.blanks(&info.tokens) {
                    set.add(Rewrite::blank(src, r));
                }
            }
            GroupRepair::KeptBranch
                if round_start[g] == GroupRepair::KeptBranch
                    && kept.start <= err.start
                    && err.end <= kept.end
                    && kept.len() <= MAX_SKIPPED_BRANCH =>
            {
                let range = group.byte_range(&info.tokens);
                if set.add_over(Rewrite::blank(src, range.clone())) {
                    group_state[g] = GroupRepair::Skipped;
                    blanked.push(Skipped {
                        range,
                        culprit: culprit(src, info, macros, kept),
                        reason: "conditional group not understood, skipped".into(),
                        aside: true,
                    });
                }
            }
            _ => {}
        }
    }
    blanked
}
