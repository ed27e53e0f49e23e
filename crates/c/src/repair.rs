//! The linear repair pass: one walk over the tokens that rewrites the macro
//! uses the grammar cannot handle, driven by the macro classes.

use super::arguments::read_non_expression_arguments;
use super::classify::{MacroClass, attribute_word, iterator_name, reserved_type_word};
use super::lexer::{Closers, Token, TokenKind, match_brackets, tokenize};
use super::macros::MacroTable;
use super::recover::keyword;
use super::rewrite::{Rewrite, RewriteSet};
use bit_vec::BitVec;
use std::ops::Range;
use weft_text::LineIndex;

/// Token-level facts about one file that all repair rounds share.
pub struct TokenInfo {
    pub tokens: Vec<Token>,
    /// Matching closer of each opener ([`TokenInfo::closer`]).
    closers: Closers,
    /// Whether each token is inside braces (a function body, an
    /// initializer, a struct's): a brace depth above 0 before it, tokens
    /// of blanked branches not counted. Only that is asked of the depth:
    /// a bit per token where the depth took four bytes (with `dead`, a
    /// byte per token was a tenth of a large file's peak of memory).
    pub in_braces: BitVec,
    /// Tokens inside text already blanked by a conditional repair.
    pub dead: BitVec,
    /// Where the text's lines start: tokens keep no line of their own.
    lines: LineIndex,
}

impl TokenInfo {
    /// Tokenizes `src`; `dead_ranges` are byte ranges already blanked.
    pub fn new(src: &str, dead_ranges: &[Range<usize>]) -> TokenInfo {
        let tokens = tokenize(src);
        let closers = match_brackets(src, &tokens);
        let mut info = TokenInfo {
            dead: BitVec::from_elem(tokens.len(), false),
            in_braces: BitVec::from_elem(tokens.len(), false),
            tokens,
            closers,
            lines: LineIndex::new(src),
        };
        info.mark_dead(src, dead_ranges);
        info
    }

    /// Marks tokens inside `ranges` dead and recomputes depths.
    pub fn mark_dead(&mut self, src: &str, ranges: &[Range<usize>]) {
        for r in ranges {
            let first = self.tokens.partition_point(|t| t.range().end <= r.start);
            for i in first..self.tokens.len() {
                if self.tokens[i].range().start >= r.end {
                    break;
                }
                self.dead.set(i, true);
            }
        }
        let mut depth = 0u32;
        for (i, t) in self.tokens.iter().enumerate() {
            self.in_braces.set(i, depth > 0);
            if self.dead[i] || t.kind != TokenKind::Punct {
                continue;
            }
            match t.text(src) {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// The 0-based line of the first byte of `token`.
    pub fn line(&self, token: &Token) -> usize {
        self.lines.line(token.range().start) - 1
    }

    /// The 0-based line where `token` ends (of its last byte, or after a
    /// line break it ends with).
    pub fn end_line(&self, token: &Token) -> usize {
        self.lines.line(token.range().end) - 1
    }

    /// The matching closer of token `i`, when it opens a balanced bracket.
    pub fn closer(&self, i: usize) -> Option<usize> {
        self.closers.get(i)
    }

    /// The next live token after `i`.
    pub fn next_live(&self, i: usize) -> Option<usize> {
        (i + 1..self.tokens.len()).find(|&j| !self.dead[j])
    }

    /// The previous live token before `i`.
    pub fn prev_live(&self, i: usize) -> Option<usize> {
        (0..i).rev().find(|&j| !self.dead[j])
    }

    /// If `i` is a name followed by a parenthesised list, the index of `)`.
    pub fn call_close(&self, src: &str, i: usize) -> Option<usize> {
        let open = self.next_live(i)?;
        if !self.tokens[open].is_punct(src, "(") {
            return None;
        }
        self.closer(open)
    }

    /// True when token `i` starts a declaration or statement: nothing but
    /// `;`, a brace, a directive, or a macro use that ends with one of them
    /// (`END_TEST` for `} }`) comes before it.
    pub fn at_statement_start(&self, src: &str, i: usize, macros: &MacroTable) -> bool {
        match self.prev_live(i) {
            None => true,
            Some(p) => {
                let t = &self.tokens[p];
                let text = t.text(src);
                t.kind == TokenKind::Directive
                    || matches!(text, ";" | "{" | "}")
                    || (t.kind == TokenKind::Ident && macros.ends_statement(text))
            }
        }
    }
}

/// Makes `name(args)` at token `i`..=`close`, used as a statement without a
/// `;`, a statement. Prefers a same-length rewrite so that the enclosing
/// function keeps mapping back to the original.
pub fn terminate_statement(
    src: &str,
    info: &TokenInfo,
    i: usize,
    close: usize,
    set: &mut RewriteSet,
) -> bool {
    let bytes = src.as_bytes();
    let start = info.tokens[i].range().start;
    let end = info.tokens[close].range().end;
    if matches!(bytes.get(end), Some(b' ' | b'\t')) {
        return set.add(Rewrite {
            range: end..end + 1,
            text: ";".into(),
        });
    }
    if start > 0 && matches!(bytes[start - 1], b' ' | b'\t') {
        let call = src.get(start..end).unwrap_or_default();
        return set.add(Rewrite {
            range: start - 1..end,
            text: format!("{call};"),
        });
    }
    set.add(Rewrite {
        range: end..end,
        text: ";".into(),
    })
}

/// Rewrites an iterator use `name(args) {` into a `while (args) {` loop.
pub fn iterator_as_loop(info: &TokenInfo, i: usize, set: &mut RewriteSet) -> bool {
    let range = info.tokens[i].range();
    let len = range.len();
    let word = if len >= 5 { "while" } else { "if" };
    if len < word.len() {
        return false;
    }
    set.add(Rewrite {
        range,
        text: format!("{word}{}", " ".repeat(len - word.len())),
    })
}

/// Rewrites the use of an object-like iterator at token `i`, before a
/// block, into `if(1)` padded to its length (a name shorter than that
/// stays).
fn header_as_loop(info: &TokenInfo, i: usize, set: &mut RewriteSet) -> bool {
    let range = info.tokens[i].range();
    let header = "if(1)";
    range.len() >= header.len()
        && set.add(Rewrite {
            text: format!("{header:<width$}", width = range.len()),
            range,
        })
}

/// True when the token after a call `..close` continues a statement, so the
/// call is not a whole statement missing its `;`.
fn continues_statement(src: &str, info: &TokenInfo, close: usize) -> bool {
    let Some(n) = info.next_live(close) else {
        return false;
    };
    let t = &info.tokens[n];
    match t.kind {
        TokenKind::Ident | TokenKind::Directive => {
            info.line(t) == info.end_line(&info.tokens[close]) && t.kind == TokenKind::Ident
        }
        _ => !matches!(t.text(src), "{" | "}"),
    }
}

/// Expands a function-like macro use `name(args)` with the macro's
/// definition, dropping attribute macros from the body and the arguments.
/// Tokens written together (`<<`, two tokens to the lexer) stay together.
fn expand(src: &str, info: &TokenInfo, macros: &MacroTable, i: usize, close: usize) -> Option<Rewrite> {
    let name = info.tokens[i].text(src);
    let def = macros.get(name)?.expansion_def()?;
    let params = def.params.as_ref()?;
    let args = split_args(src, info, i + 1, close);
    let mut text = String::new();
    let mut push = |piece: &str, spaced: bool| {
        if macros.class(piece) != Some(MacroClass::Attribute) {
            if spaced && !text.is_empty() {
                text.push(' ');
            }
            text.push_str(piece);
        }
    };
    let mut end = None;
    for t in tokenize(&def.body) {
        let word = t.text(&def.body);
        let spaced = end.is_some_and(|e| e < t.range().start);
        end = Some(t.range().end);
        match params.iter().position(|p| p == word) {
            Some(k) => {
                let arg = args.get(k).copied().unwrap_or("");
                // An argument stands apart from the tokens around it.
                for (n, a) in tokenize(arg).iter().enumerate() {
                    push(a.text(arg), spaced || n > 0);
                }
            }
            None => push(word, spaced),
        }
    }
    Some(Rewrite {
        range: info.tokens[i].range().start..info.tokens[close].range().end,
        text,
    })
}

/// An old-style (K&R) definition, `int f(a, b) int a; char *b; { … }`.
/// tree-sitter-c parses its parameter declarations when the declarator is
/// a plain name after declaration specifiers, so they stay in the view and
/// give the parameters their types. It rejects the other forms (a pointer
/// result, `char *f(a) char *a; {…}`, or no specifiers at all): an error
/// there makes the front end blank the declarations instead
/// ([`super::recover::old_style_fallback`]), leaving the parameters untyped.
#[derive(Debug)]
pub struct OldStyle {
    /// From the function name to the end of the declarations: an error here
    /// may be the grammar's rather than a macro's.
    pub span: Range<usize>,
    /// The parameter declarations.
    pub declarations: Range<usize>,
    /// Where the body's `{` is.
    pub body: usize,
    /// Whether the declarations have been blanked.
    pub blanked: bool,
}

/// Reads a string macro use at token `i` (a call closing at `close`, when
/// function-like) as `""` when it is glued to another string; returns the
/// last token of the use.
fn string_literal_use(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    i: usize,
    close: Option<usize>,
    set: &mut RewriteSet,
) -> usize {
    let function_like = macros
        .get(info.tokens[i].text(src))
        .is_some_and(|m| m.defs.iter().any(|d| d.params.is_some()));
    let Some(last) = (if function_like { close } else { Some(i) }) else {
        return i;
    };
    // Alone, a use parses as a name or a call and stays as written; glued
    // to another string it is read as `""`.
    let range = info.tokens[i].range().start..info.tokens[last].range().end;
    if glued_to_string(src, info, macros, i, last) && range.len() >= 2 {
        set.add(Rewrite::empty_string(src, range));
    }
    last
}

/// True when the string macro use spanning tokens `first..=last` has a
/// string beside it: a literal, or another string macro (`"a" FMT("l")`,
/// `PREFIX SUFFIX`, `FMT("l") FMT("u")`).
fn glued_to_string(src: &str, info: &TokenInfo, macros: &MacroTable, first: usize, last: usize) -> bool {
    let is_string = |i: usize| {
        let t = &info.tokens[i];
        t.kind == TokenKind::Literal
            || (t.kind == TokenKind::Ident && macros.class(t.text(src)) == Some(MacroClass::StringLiteral))
    };
    let before = info.prev_live(first).is_some_and(|p| {
        if info.tokens[p].is_punct(src, ")") {
            // The end of a call: a string macro's, when the name before
            // its `(` is one.
            (0..p)
                .rev()
                .find(|&o| info.closer(o) == Some(p))
                .and_then(|open| info.prev_live(open))
                .is_some_and(is_string)
        } else {
            is_string(p)
        }
    });
    before || info.next_live(last).is_some_and(is_string)
}

/// The K&R parameter declarations between `f(a, b)` (closing at `close`)
/// and the body. Returns their byte range and where the body's `{` is.
fn kr_declarations(src: &str, info: &TokenInfo, close: usize) -> Option<(Range<usize>, usize)> {
    const MAX_TOKENS: usize = 256;
    let first = info.next_live(close)?;
    if info.tokens[first].kind != TokenKind::Ident {
        return None;
    }
    let mut last_semi = None;
    let mut j = first;
    for _ in 0..MAX_TOKENS {
        let t = &info.tokens[j];
        match t.text(src) {
            "{" => {
                return last_semi.filter(|&s| info.prev_live(j) == Some(s)).map(|s| {
                    let declarations =
                        t.range().start.min(info.tokens[first].range().start)..info.tokens[s].range().end;
                    (declarations, t.range().start)
                });
            }
            ";" => last_semi = Some(j),
            "=" | "}" => return None,
            _ if t.kind == TokenKind::Directive => return None,
            _ => {}
        }
        j = info.next_live(j)?;
    }
    None
}

/// True when the old-style definition named at token `i` has no type
/// before its name (`main(argc, argv) …`, `static f(a) …`): its result is
/// an implicit `int`, which the grammar needs written to read a function.
fn implicit_int(src: &str, info: &TokenInfo, i: usize) -> bool {
    const STORAGE: &[&str] = &["static", "extern", "register", "inline", "const", "volatile"];
    let mut j = i;
    loop {
        let Some(p) = info.prev_live(j) else {
            return true;
        };
        let t = &info.tokens[p];
        match t.text(src) {
            ";" | "}" => return true,
            text if t.kind == TokenKind::Ident && STORAGE.contains(&text) => j = p,
            _ => return t.kind == TokenKind::Directive,
        }
    }
}

/// The text of each top-level argument of the list `open..=close`.
pub fn split_args<'s>(src: &'s str, info: &TokenInfo, open: usize, close: usize) -> Vec<&'s str> {
    let mut args = Vec::new();
    let mut start = open + 1;
    let mut j = open + 1;
    while j < close {
        if let Some(c) = info.closer(j) {
            j = c + 1;
            continue;
        }
        if info.tokens[j].is_punct(src, ",") {
            args.push(arg_text(src, info, start, j));
            start = j + 1;
        }
        j += 1;
    }
    args.push(arg_text(src, info, start, close));
    args
}

fn arg_text<'s>(src: &'s str, info: &TokenInfo, from: usize, to: usize) -> &'s str {
    if from >= to {
        return "";
    }
    src.get(info.tokens[from].range().start..info.tokens[to - 1].range().end)
        .unwrap_or_default()
}

/// The class-driven pass over every live token. Returns the old-style
/// definitions it passed, whose parameter declarations it repairs like any
/// other declaration.
pub fn repair_pass(src: &str, info: &TokenInfo, macros: &MacroTable, set: &mut RewriteSet) -> Vec<OldStyle> {
    let mut old_style = Vec::new();
    let mut i = 0;
    while i < info.tokens.len() {
        if info.dead[i] || info.tokens[i].kind != TokenKind::Ident {
            i += 1;
            continue;
        }
        let name = info.tokens[i].text(src);
        let class = macros.class(name);
        let close = info.call_close(src, i);
        let at = i;
        if let Some(c) = close.filter(|_| !info.in_braces[i])
            && let Some((declarations, body)) = kr_declarations(src, info, c)
        {
            // The name and its identifier list are no macro use.
            if implicit_int(src, info, i) {
                let at = info.tokens[i].range().start;
                set.add(Rewrite {
                    range: at..at,
                    text: "int ".into(),
                });
            }
            old_style.push(OldStyle {
                span: info.tokens[i].range().start..declarations.end,
                declarations,
                body,
                blanked: false,
            });
            i = c + 1;
            continue;
        }
        match (class, close) {
            // A renamed function, tag or variable where no attribute stands.
            (Some(MacroClass::Attribute), _)
                if macros.renames_function(name) && !attribute_position(src, info, i) => {}
            (Some(MacroClass::Attribute), _)
                if macros
                    .get(name)
                    .is_some_and(|m| m.defs.iter().all(|d| d.params.is_none())) =>
            {
                set.add(Rewrite::blank(src, info.tokens[i].range()));
            }
            (Some(MacroClass::Attribute), Some(c)) => {
                set.add(Rewrite::blank(
                    src,
                    info.tokens[i].range().start..info.tokens[c].range().end,
                ));
                i = c;
            }
            (Some(MacroClass::Punctuation), close) => {
                let last = close.unwrap_or(i);
                let range = info.tokens[i].range().start..info.tokens[last].range().end;
                // Padded to the use's length, as every repair inside code is,
                // so that the code around still maps back (a longer body
                // cannot be).
                let body = macros
                    .get(name)
                    .and_then(|m| m.expansion_def())
                    .map(|d| d.body.trim());
                if let Some(body) = body.filter(|b| b.len() <= range.len()) {
                    set.add(Rewrite {
                        text: format!("{body:<width$}", width = range.len()),
                        range,
                    });
                }
                i = last;
            }
            (Some(MacroClass::Identity), Some(c)) => {
                let open = i + 1;
                set.add(Rewrite::blank(
                    src,
                    info.tokens[i].range().start..info.tokens[open].range().end,
                ));
                set.add(Rewrite::blank(src, info.tokens[c].range()));
            }
            (Some(MacroClass::StringLiteral), close) => {
                i = string_literal_use(src, info, macros, i, close, set)
            }
            (Some(MacroClass::Iterator), Some(c))
                if info.in_braces[i] && !continues_statement(src, info, c) =>
            {
                iterator_as_loop(info, i, set);
                i = c;
            }
            // An object-like loop header (`#define forever for (;;)`)
            // before a block.
            (Some(MacroClass::Iterator), None)
                if info.in_braces[i]
                    && info
                        .next_live(i)
                        .is_some_and(|n| info.tokens[n].is_punct(src, "{")) =>
            {
                header_as_loop(info, i, set);
            }
            (Some(MacroClass::Statement), Some(c))
                if info.in_braces[i]
                    && !continues_statement(src, info, c)
                    && next_is_not(src, info, c, ";") =>
            {
                terminate_statement(src, info, i, c, set);
                i = c;
            }
            // An object-like statement macro standing alone (flex's
            // `YY_BREAK` before the next `case`).
            (Some(MacroClass::Statement), None)
                if info.in_braces[i]
                    && info.at_statement_start(src, i, macros)
                    && !continues_statement(src, info, i)
                    && next_is_not(src, info, i, ";") =>
            {
                terminate_statement(src, info, i, i, set);
            }
            (Some(MacroClass::Other | MacroClass::Statement), Some(c))
                if !info.in_braces[i] && info.at_statement_start(src, i, macros) =>
            {
                if let Some(rw) = expand(src, info, macros, i, c) {
                    set.add(rw);
                }
                i = c;
            }
            // An operator macro after an operand (`#define KB *(1 << 10)`
            // used `64 KB`, `#define TIMES(n) * (n)` used `x TIMES(3)`):
            // read as its expansion, as the preprocessor does.
            (Some(MacroClass::Other), close)
                if after_operand(src, info, i) && operator_macro(macros, name, close.is_some()) =>
            {
                let expansion = match close {
                    Some(c) => expand(src, info, macros, i, c),
                    None => macros.get(name).and_then(|m| m.expansion_def()).map(|d| Rewrite {
                        range: info.tokens[i].range(),
                        text: d.body.trim().to_string(),
                    }),
                };
                if let Some(rw) = expansion {
                    set.add(rw);
                }
                i = close.unwrap_or(i);
            }
            // `name((…))` right after a declarator's name is an attribute
            // whatever the name (`int unused lib_attribute((__unused__))`):
            // no expression puts a call after a name.
            (None, Some(c))
                if double_parenthesised(src, info, i, c)
                    && info.prev_live(i).is_some_and(|p| {
                        let t = &info.tokens[p];
                        t.kind == TokenKind::Ident && !keyword(t.text(src))
                    }) =>
            {
                set.add(Rewrite::blank(
                    src,
                    info.tokens[i].range().start..info.tokens[c].range().end,
                ));
                i = c;
            }
            // A block after a call is never C, and read as it stands
            // (an old-style nested definition) it would hide the loop:
            // `with_lock(m) { … }` at a statement's start is a loop
            // header whatever the name.
            (None, Some(c))
                if info.in_braces[i]
                    && !keyword(name)
                    && (iterator_name(name) || info.at_statement_start(src, i, macros))
                    && info
                        .next_live(c)
                        .is_some_and(|n| info.tokens[n].is_punct(src, "{")) =>
            {
                iterator_as_loop(info, i, set);
                i = c;
            }
            _ => {}
        }
        // A use no repair above took whole may still hold arguments that
        // are no expressions (a repair taking it whole rewrites them too).
        if i == at
            && let Some(c) = close
        {
            read_non_expression_arguments(src, info, i, c, set);
        }
        i += 1;
    }
    old_style
}

/// True when the call `name(…)` at `i`, closing at `close`, has one
/// argument, itself parenthesised: `__attribute__`'s shape.
pub fn double_parenthesised(src: &str, info: &TokenInfo, i: usize, close: usize) -> bool {
    let Some(open) = info.next_live(i) else {
        return false;
    };
    info.next_live(open).is_some_and(|inner| {
        info.tokens[inner].is_punct(src, "(") && info.closer(inner) == info.prev_live(close)
    })
}

/// True when token `i` stands where an attribute can: before a name, a
/// keyword or a `*` (directives between them aside), and not after
/// `struct`, `union` or `enum`. A renamed
/// name elsewhere is a call (`getpid ()`), a tag (`struct utimbuf`) or a
/// variable (`utimbuf.actime`).
fn attribute_position(src: &str, info: &TokenInfo, i: usize) -> bool {
    let after_tag_keyword = info
        .prev_live(i)
        .is_some_and(|p| matches!(info.tokens[p].text(src), "struct" | "union" | "enum"));
    // A directive between the attribute and its declaration (`#ifdef
    // __GNUC__ / ATTR / #endif / static …`) changes nothing.
    let next =
        (i + 1..info.tokens.len()).find(|&j| !info.dead[j] && info.tokens[j].kind != TokenKind::Directive);
    let before_declarator =
        next.is_some_and(|n| info.tokens[n].kind == TokenKind::Ident || info.tokens[n].is_punct(src, "*"));
    before_declarator && !after_tag_keyword
}

/// True when the token before `i` ends an operand: a number, a name that
/// is no keyword, `]`, or a `)` that closes no control statement's header
/// (after `if (c)` a statement starts: `if (c) flag = -1;` with `flag` a
/// macro in another configuration is no operator continuation).
fn after_operand(src: &str, info: &TokenInfo, i: usize) -> bool {
    info.prev_live(i).is_some_and(|p| {
        let t = &info.tokens[p];
        match t.kind {
            TokenKind::Number => true,
            TokenKind::Ident => !keyword(t.text(src)),
            TokenKind::Punct if t.text(src) == ")" => {
                let open = (0..p).rev().find(|&o| info.closer(o) == Some(p));
                !open
                    .and_then(|o| info.prev_live(o))
                    .is_some_and(|h| matches!(info.tokens[h].text(src), "if" | "while" | "for" | "switch"))
            }
            TokenKind::Punct => t.text(src) == "]",
            _ => false,
        }
    })
}

/// True when macro `name` is object-like (or function-like, as `called`
/// says) and its body begins with an operator that can be binary
/// (`*(1 << 10)`, `+ 1`, `<< 3`): a use after an operand continues that
/// operand's expression. Such a use cannot be replaced in place by a
/// longer body, and blanking it would read `64` where the program means
/// 65536; the view holds the expansion instead, and the expression around
/// it maps back by its ends only, so nothing edits inside it.
fn operator_macro(macros: &MacroTable, name: &str, called: bool) -> bool {
    let Some(m) = macros.get(name) else {
        return false;
    };
    let Some(def) = m.expansion_def() else {
        return false;
    };
    let first = tokenize(&def.body).into_iter().next();
    m.defs.iter().all(|d| d.params.is_some() == called)
        && first.is_some_and(|t| {
            t.kind == TokenKind::Punct
                && matches!(
                    t.text(&def.body),
                    "*" | "/" | "%" | "+" | "-" | "<" | ">" | "&" | "|" | "^" | "&&" | "||"
                )
        })
}

fn next_is_not(src: &str, info: &TokenInfo, i: usize, p: &str) -> bool {
    info.next_live(i).is_none_or(|n| !info.tokens[n].is_punct(src, p))
}

/// True for a word that may stand in a declaration's specifiers.
pub fn specifier_word(word: &str) -> bool {
    attribute_word(word) || type_word(word) || reserved_type_word(word)
}

/// True for a keyword that starts a type name.
pub fn type_word(word: &str) -> bool {
    matches!(
        word,
        "void"
            | "char"
            | "short"
            | "int"
            | "long"
            | "float"
            | "double"
            | "signed"
            | "unsigned"
            | "struct"
            | "union"
            | "enum"
            | "_Bool"
            | "const"
            | "volatile"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token's lines are those of its first byte and of its end, line
    /// breaks inside literals, directives, comments and continued lines
    /// counted.
    #[test]
    fn token_lines_count_every_line_break_before_them() {
        let src = "a /* x\n */ b\n#define M(x) \\\n  x\n\"s\\\nt\" c\\\nd\n";
        let info = TokenInfo::new(src, &[]);
        let lines: Vec<(&str, usize, usize)> = info
            .tokens
            .iter()
            .map(|t| (t.text(src), info.line(t), info.end_line(t)))
            .collect();
        assert_eq!(
            lines,
            [
                ("a", 0, 0),
                ("b", 1, 1),
                ("#define M(x) \\\n  x", 2, 3),
                ("\"s\\\nt\"", 4, 5),
                ("c", 5, 5),
                ("d", 6, 6)
            ]
        );
    }
}
