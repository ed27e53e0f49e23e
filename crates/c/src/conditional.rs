//! `#if`/`#ifdef` groups. tree-sitter-c accepts a conditional only around
//! whole statements, fields or declarations; a group whose branches open or
//! close braces or parentheses cuts through a statement. As Coccinelle does,
//! such a group is read with one branch kept (the first, or the `#else` of an
//! `#if 0`) and the other branches and the directives blanked.

use super::lexer::{Token, TokenKind, directive_parts, tokenize};
use std::ops::Range;

/// Which branches conditional groups keep in one reading of a file. The
/// first reading ([`Pass::FIRST`]) keeps the first branch (the `#else` of
/// an `#if 0`); an alternative keeps, in every group nested at least
/// `from_depth` deep (and no deeper when `only_depth`), the `branch`-th
/// branch after that one (wrapping). A pass from depth 1 keeps the outer
/// groups' first branches and flips the groups inside them, so `#ifdef A
/// #ifdef B … #else … #endif …` reads A without B too; a pass of depth 0
/// only flips the outer groups and keeps the first branch of those inside,
/// so `#ifdef A … #else #ifdef B … #else … #endif #endif` reads B without A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Pass {
    pub from_depth: usize,
    pub only_depth: bool,
    pub branch: usize,
}

impl Pass {
    /// The first reading.
    pub const FIRST: Pass = Pass {
        from_depth: 0,
        only_depth: false,
        branch: 0,
    };

    fn flips(&self, depth: usize) -> bool {
        depth >= self.from_depth && (!self.only_depth || depth == self.from_depth)
    }
}

/// One conditional group, by token indices.
#[derive(Debug, Clone)]
pub struct CondGroup {
    /// Indices of `#if…`, each `#elif`/`#else`, and `#endif` when present.
    pub directives: Vec<usize>,
    /// Index into the branches of the branch read as code.
    pub kept: usize,
    /// True when every branch leaves braces and parentheses balanced.
    pub balanced: bool,
    /// `#if 0`: its first branch is never compiled, so no pass reads it.
    if_zero: bool,
    /// How many groups hold this one (0 at the outer level).
    pub depth: usize,
    /// Token index one past the group (end of file for an unterminated one).
    end: usize,
    has_endif: bool,
}

impl CondGroup {
    /// Token range covered by the group, directives included.
    pub fn tokens(&self) -> Range<usize> {
        self.directives[0]..self.end
    }

    /// Byte range of the whole group, directives included.
    pub fn byte_range(&self, tokens: &[Token]) -> Range<usize> {
        let last = self.end.saturating_sub(1).max(self.directives[0]);
        tokens[self.directives[0]].range().start..tokens[last].range().end
    }

    /// Token range of the kept branch's content.
    pub fn kept_tokens(&self) -> Range<usize> {
        self.branch_tokens(self.kept)
    }

    /// How many branches the group has (`#if`, each `#elif`, `#else`).
    fn branches(&self) -> usize {
        self.directives.len() - usize::from(self.has_endif)
    }

    /// Token range of branch `b`'s content.
    fn branch_tokens(&self, b: usize) -> Range<usize> {
        let start = self.directives[b] + 1;
        let end = self.directives.get(b + 1).copied().unwrap_or(self.end);
        start..end.max(start)
    }

    /// How many passes past the first it takes to keep each of the group's
    /// branches once (none for `#if 0`'s dead branch).
    pub fn alternatives(&self) -> usize {
        self.branches().saturating_sub(1 + usize::from(self.if_zero))
    }

    /// Keeps, in `pass`, the branch `pass.branch` places after the one the
    /// first reading keeps, when the group is at a depth the pass flips; a
    /// group with fewer alternatives keeps its first reading's branch.
    pub fn keep_for_pass(&mut self, pass: Pass) {
        if pass.branch == 0 || pass.branch > self.alternatives() || !pass.flips(self.depth) {
            return;
        }
        let live = usize::from(self.if_zero)..self.branches();
        let at = (self.kept - live.start + pass.branch) % live.len();
        self.kept = live.start + at;
    }

    /// Byte ranges of the branches not kept that hold code (a token other
    /// than a directive): what this reading does not see and another may.
    pub fn unread(&self, tokens: &[Token]) -> Vec<Range<usize>> {
        (0..self.branches())
            .filter(|&b| b != self.kept && !(self.if_zero && b == 0))
            .filter_map(|b| {
                let t = self.branch_tokens(b);
                let code = tokens[t.clone()].iter().any(|t| t.kind != TokenKind::Directive);
                code.then(|| {
                    tokens[t.start - 1].range().end
                        ..tokens
                            .get(t.end)
                            .map_or(tokens[t.end - 1].range().end, |t| t.range().start)
                })
            })
            .collect()
    }

    /// Byte ranges to blank so that only the kept branch remains.
    pub fn blanks(&self, tokens: &[Token]) -> Vec<Range<usize>> {
        let n = self.directives.len();
        let has_endif = self.has_endif;
        let branches = if has_endif { n - 1 } else { n };
        let mut out = Vec::new();
        for b in 0..branches {
            let start = tokens[self.directives[b]].range().start;
            let end = if b == self.kept {
                tokens[self.directives[b]].range().end
            } else if b + 1 < n {
                tokens[self.directives[b + 1]].range().start
            } else {
                tokens
                    .get(self.end.wrapping_sub(1))
                    .map_or(start, |t| t.range().end)
            };
            out.push(start..end);
        }
        if has_endif {
            out.push(tokens[self.directives[n - 1]].range());
        }
        out
    }
}

/// How many `#if`, `#ifdef` or `#ifndef` are still open at the end of
/// `text` (directives as the lexer reads them: not in comments or strings,
/// continued lines included).
pub fn open_conditionals(text: &str) -> usize {
    tokenize(text)
        .iter()
        .filter(|t| t.kind == TokenKind::Directive)
        .fold(0, |depth, t| match directive_parts(t.text(text)).0 {
            "if" | "ifdef" | "ifndef" => depth + 1,
            "endif" => depth.saturating_sub(1),
            _ => depth,
        })
}

/// Where the tokens of `lead` start that belong to the item that follows
/// it: `lead` is the text between an item and the one before it, where the
/// view blanked macro uses (`ATTR` on the line above `static void f(void)`,
/// or conditional branches the front end did not keep), and the compiler
/// reads those tokens as part of the next item. Comments are not tokens.
/// A directive at the outer level (`#define`, or an `#else`/`#endif` closing
/// a group that opened before `lead`) stands between: only tokens after it
/// count. A whole `#if` group inside `lead` belongs to the item; a group
/// left open holds it, so only the tokens after its last directive count.
/// `None` when no token leads the item.
pub fn leading_tokens(lead: &str) -> Option<usize> {
    let mut start = None;
    let mut depth = 0usize;
    // Where the last directive ends: a group still open at the end of
    // `lead` holds the item (a branch the view kept), so only what follows
    // its last directive leads it.
    let mut after_directive = 0;
    for t in tokenize(lead) {
        if t.kind != TokenKind::Directive {
            start = start.or(Some(t.range().start));
            continue;
        }
        after_directive = t.range().end;
        match directive_parts(t.text(lead)).0 {
            "if" | "ifdef" | "ifndef" => {
                if depth == 0 {
                    start = start.or(Some(t.range().start));
                }
                depth += 1;
            }
            "endif" if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => start = None,
        }
    }
    if depth > 0 {
        return tokenize(&lead[after_directive..])
            .first()
            .map(|t| after_directive + t.range().start);
    }
    start
}

/// Finds every conditional group in `tokens`, with its balance, as
/// `pass` reads them: each group
/// keeps the branch [`CondGroup::keep_for_pass`] gives, and a group's
/// balance counts the branches its nested groups keep in that pass.
pub fn groups(src: &str, tokens: &[Token], pass: Pass) -> Vec<CondGroup> {
    struct Open {
        group: usize,
    }
    let mut groups: Vec<CondGroup> = Vec::new();
    // Owner (group, branch) of each group, and per-branch (braces, parens).
    let mut parent: Vec<Option<(usize, usize)>> = Vec::new();
    let mut own: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == TokenKind::Directive {
            let (name, rest) = directive_parts(t.text(src));
            match name {
                "if" | "ifdef" | "ifndef" => {
                    let owner = stack
                        .last()
                        .map(|o| (o.group, groups[o.group].directives.len() - 1));
                    let if_zero = name == "if" && rest.trim() == "0";
                    groups.push(CondGroup {
                        directives: vec![i],
                        kept: usize::from(if_zero),
                        balanced: true,
                        if_zero,
                        depth: stack.len(),
                        end: tokens.len(),
                        has_endif: false,
                    });
                    parent.push(owner);
                    own.push(vec![(0, 0)]);
                    stack.push(Open {
                        group: groups.len() - 1,
                    });
                }
                "elif" | "else" | "elifdef" | "elifndef" => {
                    if let Some(o) = stack.last() {
                        groups[o.group].directives.push(i);
                        own[o.group].push((0, 0));
                    }
                }
                "endif" => {
                    if let Some(o) = stack.pop() {
                        groups[o.group].directives.push(i);
                        groups[o.group].end = i + 1;
                        groups[o.group].has_endif = true;
                    }
                }
                _ => {}
            }
            continue;
        }
        let Some(o) = stack.last() else { continue };
        let branch = own[o.group].len() - 1;
        let counts = &mut own[o.group][branch];
        match (t.kind, t.text(src)) {
            (TokenKind::Punct, "{") => counts.0 += 1,
            (TokenKind::Punct, "}") => counts.0 -= 1,
            (TokenKind::Punct, "(") => counts.1 += 1,
            (TokenKind::Punct, ")") => counts.1 -= 1,
            _ => {}
        }
    }
    // Children come after their parents: fold each group's kept branch into
    // the branch that contains it, innermost first.
    for g in (0..groups.len()).rev() {
        let branches = own[g].len();
        groups[g].kept = groups[g].kept.min(branches - 1);
        groups[g].keep_for_pass(pass);
        let kept = groups[g].kept;
        groups[g].balanced = own[g].iter().all(|&c| c == (0, 0));
        let total = own[g][kept];
        if let Some((p, b)) = parent[g] {
            own[p][b].0 += total.0;
            own[p][b].1 += total.1;
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(src: &str) -> String {
        let toks = tokenize(src);
        let mut out = src.as_bytes().to_vec();
        for g in groups(src, &toks, Pass::FIRST).iter().filter(|g| !g.balanced) {
            for r in g.blanks(&toks) {
                for b in &mut out[r] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn open_conditionals_counts_directives_the_lexer_sees() {
        assert_eq!(open_conditionals("#if A\n#ifdef B\n#endif\nx;\n"), 1);
        assert_eq!(open_conditionals("  #  ifndef A\n"), 1);
        assert_eq!(open_conditionals("/* #if A */\n\"#if\";\n"), 0);
        assert_eq!(open_conditionals("#if A\n#else\n#endif\n#endif\n"), 0);
        assert_eq!(open_conditionals("#include <x.h>\n#define F(x) x\n"), 0);
    }

    #[test]
    fn leading_tokens_are_those_after_the_last_outer_directive() {
        assert_eq!(leading_tokens("\nATTR\n"), Some(1));
        assert_eq!(leading_tokens(" /* doc */\n  \n"), None);
        assert_eq!(leading_tokens("\n// x\nA(1) B\n/* y */\n"), Some(6));
        let group = "\n#if A\nX\n#else\nY\n#endif\n";
        assert_eq!(leading_tokens(group), Some(1));
        let closing = "\n#else\nlong a;\n#endif\nATTR\n";
        assert_eq!(leading_tokens(closing), closing.find("ATTR"));
        assert_eq!(leading_tokens("\nX\n#define Y 1\n"), None);
        // The item is inside a group the view kept a branch of.
        assert_eq!(leading_tokens("\n#ifdef A\n   "), None);
        let open = "\nX\n#if A\nY\n#else\nATTR\n";
        assert_eq!(leading_tokens(open), open.find("ATTR"));
    }

    #[test]
    fn unbalanced_group_keeps_first_branch() {
        let src = "#ifdef X\nif (a) {\n#else\nif (b) {\n#endif\nf();\n}\n";
        let out = blanked(src);
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            ["if", "(a)", "{", "f();", "}"]
        );
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn balanced_group_is_left_alone_and_if_zero_keeps_else() {
        let src = "#ifdef X\nint a;\n#else\nlong a;\n#endif\n";
        assert_eq!(blanked(src), src);
        let src = "#if 0\n{\n#else\nx(\n#endif\n);";
        assert_eq!(blanked(src).split_whitespace().collect::<Vec<_>>(), ["x(", ");"]);
    }

    #[test]
    fn nested_groups_count_their_kept_branch() {
        let src = "#if A\n#if B\n{\n#else\n{\n#endif\n}\n#endif\n";
        let toks = tokenize(src);
        let gs = groups(src, &toks, Pass::FIRST);
        assert!(gs[0].balanced);
        assert!(!gs[1].balanced);
    }
}
