//! Arguments of a call that cannot be expressions, so only a macro takes
//! them: a type name (`va_arg(ap, char *)`, `STACK_INIT(ctx, s, state_t *)`)
//! or a lone operator (`CHECK(a, ==, b)`, `intop(<<, x, y)`). The grammar
//! reads a call's arguments as expressions; such an argument is read as `0`
//! padded to its length, so the call parses and the code around it keeps
//! mapping back. The shapes decide, whatever the macro's name and whether
//! its definition is visible: no function takes a type or an operator.

use super::classify::reserved_type_word;
use super::lexer::{Token, TokenKind};
use super::recover::keyword;
use super::repair::{TokenInfo, type_word};
use super::rewrite::{Rewrite, RewriteSet};

/// True for a name whose parentheses are no macro call: a keyword (`for
/// (unsigned i = 0; …)`, `sizeof (struct s)`) or a reserved identifier,
/// the compiler's own (`__typeof__ (int *)`, `_Alignof (T)`,
/// `__builtin_offsetof (struct s, m)`), or `offsetof`.
fn language_word(name: &str) -> bool {
    let reserved = name.starts_with("__")
        || (name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase()));
    // `offsetof` is <stddef.h>'s, and the grammar reads its type itself.
    reserved || keyword(name) || matches!(name, "alignof" | "offsetof")
}

/// Reads each type or operator argument of the call `name(…)` closing at
/// token `close` as `0`. Only inside functions: at file scope a
/// parenthesised list after a name is a declarator's parameters.
pub fn read_non_expression_arguments(
    src: &str,
    info: &TokenInfo,
    name: usize,
    close: usize,
    set: &mut RewriteSet,
) {
    if !info.in_braces[name] || language_word(info.tokens[name].text(src)) {
        return;
    }
    if declarator(src, info, name) {
        return;
    }
    let Some(open) = info.next_live(name) else {
        return;
    };
    let mut start = open + 1;
    let mut j = open + 1;
    while j <= close {
        if j < close
            && let Some(c) = info.closer(j)
        {
            j = c + 1;
            continue;
        }
        if j == close || info.tokens[j].is_punct(src, ",") {
            let arg = &info.tokens[start..j];
            let live = (start..j).all(|k| !info.dead[k]);
            if live && (type_shaped(src, arg) || operator_shaped(src, arg)) {
                let range = arg[0].range().start..arg[arg.len() - 1].range().end;
                set.add(Rewrite {
                    text: format!("0{}", " ".repeat(range.len() - 1)),
                    range,
                });
            }
            start = j + 1;
        }
        j += 1;
    }
}

/// True when the name at `i` is declared rather than called: a name or a
/// pointer's `*` before it (`int leaf(int v) { … }`, a GNU nested
/// function; `int (*inner(void))(int)`). `return f(…)` is a call.
fn declarator(src: &str, info: &TokenInfo, i: usize) -> bool {
    let word_before = |k: usize| {
        let t = &info.tokens[k];
        t.kind == TokenKind::Ident
            && !matches!(t.text(src), "return" | "case" | "else" | "do" | "goto" | "sizeof")
    };
    let Some(p) = info.prev_live(i) else {
        return false;
    };
    if info.tokens[p].is_punct(src, "*") {
        return info
            .prev_live(p)
            .is_some_and(|q| info.tokens[q].is_punct(src, "(") || word_before(q));
    }
    word_before(p)
}

/// A type name: a type keyword first (`unsigned char`, `int (*)(void)`),
/// or names and `*`s that no expression spells: ending with `*`
/// (`state_t *`), or two names side by side (`struct node`, `elem_t const`).
fn type_shaped(src: &str, arg: &[Token]) -> bool {
    let Some(first) = arg.first() else {
        return false;
    };
    let word = |t: &Token| t.kind == TokenKind::Ident;
    if word(first) && (type_word(first.text(src)) || reserved_type_word(first.text(src))) {
        return true;
    }
    let star = |t: &Token| t.is_punct(src, "*");
    // `sizeof buf`, `n * sizeof x`: names side by side that are an expression.
    let operator_word = |t: &Token| matches!(t.text(src), "sizeof" | "_Alignof" | "alignof" | "__alignof__");
    word(first)
        && !arg.iter().any(operator_word)
        && arg.iter().all(|t| word(t) || star(t))
        && (arg.last().is_some_and(star) || arg.windows(2).any(|w| word(&w[0]) && word(&w[1])))
}

/// A lone operator (`+`, `==`, `<<`, `->`): punctuation only, no bracket,
/// comma or semicolon.
fn operator_shaped(src: &str, arg: &[Token]) -> bool {
    !arg.is_empty()
        && arg.iter().all(|t| {
            t.kind == TokenKind::Punct
                && !matches!(t.text(src), "(" | ")" | "[" | "]" | "{" | "}" | "," | ";")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> String {
        let info = TokenInfo::new(src, &[]);
        let mut set = RewriteSet::default();
        for i in 0..info.tokens.len() {
            if info.tokens[i].kind == TokenKind::Ident
                && let Some(c) = info.call_close(src, i)
            {
                read_non_expression_arguments(src, &info, i, c, &mut set);
            }
        }
        set.build_view(src).0
    }

    #[test]
    fn types_and_operators_are_read_as_zero() {
        assert_eq!(read("{ S(c, c->s, state_t*); }"), "{ S(c, c->s, 0       ); }");
        assert_eq!(read("{ S(struct node, n); }"), "{ S(0          , n); }");
        assert_eq!(read("{ S(unsigned char); }"), "{ S(0            ); }");
        assert_eq!(read("{ x = op(+, a, b); }"), "{ x = op(0, a, b); }");
        assert_eq!(read("{ x = op(<<, a, f(>=)); }"), "{ x = op(0 , a, f(0 )); }");
    }

    #[test]
    fn expressions_stay() {
        for src in [
            "{ f(a * b, -x, (t *)p, *p, a); }",
            "{ n = sizeof(struct node); }",
            "{ got = read(fd, buf, sizeof buf); f(n * sizeof x, _Alignof y, sizeof *p); }",
            "{ for (unsigned i = 0; i < n; i++) if (a) while (b) switch (c) {} }",
            "{ int leaf(int v) { return v; } int (*inner(void))(int); char *p(unsigned n); }",
            "{ n = __builtin_offsetof(struct node, v) + _Alignof(long double); }",
            "int f(struct node *n);",
        ] {
            assert_eq!(read(src), src);
        }
    }
}
