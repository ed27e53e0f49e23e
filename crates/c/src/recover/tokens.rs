//! Fine repairs, token by token inside an error's window: an unknown
//! macro read as a loop header, a statement, a declarer to skip or an
//! attribute to blank; asm operand lists and type arguments of calls.

use super::{Skipped, keyword};
use crate::arguments::read_non_expression_arguments;
use crate::classify::{MacroClass, attribute_word, iterator_name, macro_shaped};
use crate::lexer::TokenKind;
use crate::macros::MacroTable;
use crate::repair::{TokenInfo, double_parenthesised, iterator_as_loop, specifier_word, terminate_statement};
use crate::rewrite::{Rewrite, RewriteSet};

/// An identifier that may be an unknown (or misclassified) macro.
fn suspect(macros: &MacroTable, word: &str) -> bool {
    !keyword(word)
        && !matches!(word, "asm" | "__asm__" | "__asm")
        && (macro_shaped(word)
            || attribute_word(word)
            || matches!(
                macros.class(word),
                Some(MacroClass::Other | MacroClass::Statement)
            ))
}

/// Repairs around token `i` if it is a suspect identifier, and returns the
/// last token the repair covered (`i` itself when it covered none).
pub(super) fn repair_token(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    i: usize,
    set: &mut RewriteSet,
    blanked: &mut Vec<Skipped>,
) -> usize {
    let toks = &info.tokens;
    let t = &toks[i];
    if t.kind == TokenKind::Directive && !info.dead[i] && between_declarator_and_body(src, info, i) {
        // `int raise (int sig) #undef raise { … }`: the grammar takes no
        // directive there, the compiler does.
        set.add(Rewrite::blank(src, t.range()));
        return i;
    }
    if info.dead[i] || t.kind != TokenKind::Ident {
        return i;
    }
    let name = t.text(src);
    if matches!(name, "asm" | "__asm__" | "__asm") {
        asm_operands(src, info, i, set);
    }
    let close = info.call_close(src, i);
    if let Some(c) = close {
        read_non_expression_arguments(src, info, i, c, set);
    }
    // `name((…))`, the argument shape of `__attribute__`, makes any name
    // a suspect attribute macro (`lib_attribute((__unused__))`); where
    // it stands decides below.
    let attribute_shaped = !keyword(name) && close.is_some_and(|c| double_parenthesised(src, info, i, c));
    let inside = info.in_braces[i];
    let next_after = |j: usize| info.next_live(j).map(|n| toks[n].text(src));
    // So does a call a block follows inside a function (`with_lock(m) {
    // … }`): no function call is followed by a block.
    let block_shaped = inside && !keyword(name) && close.is_some_and(|c| next_after(c) == Some("{"));
    let prev = info.prev_live(i).map(|p| &toks[p]);
    // A name after `struct`, `union` or `enum` is a tag, whatever a macro
    // of that name expands to (`#define internal_state z_internal_state`
    // renames it): blanking it leaves `struct *`.
    let tag = prev.is_some_and(|p| matches!(p.text(src), "struct" | "union" | "enum"));
    if tag || (!suspect(macros, name) && !attribute_shaped && !block_shaped) {
        return i;
    }
    let after_declarator = prev.is_some_and(|p| {
        p.text(src) == ")" || (p.kind == TokenKind::Ident && !keyword_statement(p.text(src)))
    });
    match close {
        Some(c)
            if inside
                && next_after(c) == Some("{")
                && (iterator_name(name) || statement_position(src, info, i)) =>
        {
            iterator_as_loop(info, i, set);
            c
        }
        Some(c)
            if inside
                && (info.at_statement_start(src, i, macros)
                    || after_unknown_statement(src, info, macros, i))
                && !matches!(next_after(c), Some(";" | "," | ")" | "." | "->" | "=" | "[")) =>
        {
            if next_after(c).is_none_or(|n| !is_operator(n)) {
                terminate_statement(src, info, i, c, set);
            }
            c
        }
        // An attribute macro with arguments no file defines, after a
        // declarator (`int unused lib_attribute((__unused__))`) or among a
        // file-scope declaration's specifiers. Inside a function a `)`
        // before it may end an `if` header: only a name is a declarator.
        Some(c)
            if attribute_shaped
                && (prev.is_some_and(|p| p.kind == TokenKind::Ident && !keyword_statement(p.text(src)))
                    || (!inside && (after_declarator || info.at_statement_start(src, i, macros)))) =>
        {
            set.add(Rewrite::blank(src, t.range().start..toks[c].range().end));
            c
        }
        // A wrapper around a definition's type (`API_DECLARE(int) name(…)`):
        // its argument is the type, so it is read as written there.
        Some(c) if !inside && wraps_type(src, info, macros, i, c) => {
            set.add(Rewrite::blank(src, t.range().start..toks[i + 1].range().end));
            set.add(Rewrite::blank(src, toks[c].range()));
            c
        }
        // Alone in a branch of a group that tests the compiler, before a
        // declaration: compiler-specific syntax, an attribute
        // (`#if defined(__GNUC__) / ATTR_FORMAT(printf, 1, 2) / #endif`).
        Some(c) if !inside && compiler_attribute(src, info, i, c) => {
            set.add(Rewrite::blank(src, t.range().start..toks[c].range().end));
            c
        }
        Some(c) if !inside && info.at_statement_start(src, i, macros) => {
            let mut end = toks[c].range().end;
            if let Some(n) = info.next_live(c).filter(|&n| toks[n].is_punct(src, ";")) {
                end = toks[n].range().end;
            }
            let range = t.range().start..end;
            if set.add(Rewrite::blank(src, range.clone())) {
                blanked.push(Skipped {
                    range,
                    culprit: Some(name.to_string()),
                    reason: format!("unknown declarer macro `{name}` skipped"),
                    aside: false,
                });
            }
            c
        }
        Some(c) if after_declarator && matches!(next_after(c), Some("{" | ";" | "," | "=")) => {
            set.add(Rewrite::blank(src, t.range().start..toks[c].range().end));
            c
        }
        // An attribute macro no file defines among a file-scope
        // declaration's specifiers, before another one or the declarator
        // (`static void _GL_ATTRIBUTE_FORMAT (3, 0) error_tail (…)`).
        Some(c)
            if !inside
                && after_declarator
                && macro_shaped(name)
                && macros.get(name).is_none()
                && info
                    .next_live(c)
                    .is_some_and(|n| toks[n].kind == TokenKind::Ident) =>
        {
            set.add(Rewrite::blank(src, t.range().start..toks[c].range().end));
            c
        }
        // A macro no file defines, alone on its line inside a function
        // (`DBG_BUFF` for `char buf[256];`), after a statement or another
        // macro use: a whole statement or declaration without its `;`.
        None if inside
            && macro_shaped(name)
            && macros.get(name).is_none()
            && prev.is_some_and(|p| {
                info.end_line(p) < info.line(t)
                    && (matches!(p.text(src), ";" | "{" | "}" | ")")
                        || p.kind == TokenKind::Directive
                        || (p.kind == TokenKind::Ident && macro_shaped(p.text(src))))
            })
            && info.next_live(i).is_some_and(|n| {
                info.line(&toks[n]) > info.end_line(t)
                    && (toks[n].kind == TokenKind::Ident || toks[n].is_punct(src, "}"))
            }) =>
        {
            terminate_statement(src, info, i, i, set);
            i
        }
        // Between a pointer result's `*` and the name of a definition
        // (`const char * EXPORT name(err) int err; {…}`).
        None if !inside
            && prev.is_some_and(|p| p.is_punct(src, "*"))
            && info
                .next_live(i)
                .is_some_and(|n| toks[n].kind == TokenKind::Ident && info.call_close(src, n).is_some()) =>
        {
            set.add(Rewrite::blank(src, t.range()));
            i
        }
        // Of two unknown macro-shaped names before a declarator (`static
        // BOOL WINAPI handler(…)`), the first is the type and the second
        // the attribute or calling convention.
        None if after_declarator
            && !before_calling_convention(src, info, macros, i)
            && info.next_live(i).is_some_and(|n| {
                toks[n].kind == TokenKind::Ident || matches!(toks[n].text(src), "{" | ";" | "," | "*" | "=")
            }) =>
        {
            set.add(Rewrite::blank(src, t.range()));
            i
        }
        // A calling convention in a function pointer declarator, `typedef
        // BOOL (WINAPI *handler)(DWORD)`, named by a macro no file defines.
        None if macros.get(name).is_none()
            && prev.is_some_and(|p| p.is_punct(src, "("))
            && pointer_declarator_follows(src, info, i) =>
        {
            set.add(Rewrite::blank(src, t.range()));
            i
        }
        None if prev
            .is_none_or(|p| matches!(p.text(src), ";" | "{" | "}") || p.kind == TokenKind::Directive)
            && info
                .next_live(i)
                .is_some_and(|n| toks[n].kind == TokenKind::Ident && specifier_word(toks[n].text(src))) =>
        {
            set.add(Rewrite::blank(src, t.range()));
            i
        }
        _ => i,
    }
}

/// Macros that name a compiler: a group testing one of them holds that
/// compiler's syntax.
const COMPILER_MACROS: &[&str] = &[
    "__GNUC__",
    "__clang__",
    "_MSC_VER",
    "__INTEL_COMPILER",
    "__SUNPRO_C",
    "__has_attribute",
    "__has_declspec_attribute",
];

/// True when the call at `i..=close` is alone in a branch of a conditional
/// group whose condition names a compiler, and a declaration follows the
/// group: `#if defined(__GNUC__) / ATTR(printf, 1, 2) / #endif / int f(…)`.
fn compiler_attribute(src: &str, info: &TokenInfo, i: usize, close: usize) -> bool {
    let toks = &info.tokens;
    let opens = info.prev_live(i).is_some_and(|p| {
        let d = toks[p].text(src);
        toks[p].kind == TokenKind::Directive
            && ["if", "elif"].iter().any(|w| directive_word(d).starts_with(w))
            && COMPILER_MACROS.iter().any(|m| d.contains(m))
    });
    let mut next = info.next_live(close);
    let mut closed = false;
    while let Some(n) = next.filter(|&n| toks[n].kind == TokenKind::Directive) {
        closed |= matches!(directive_word(toks[n].text(src)), "endif" | "else" | "elif");
        next = info.next_live(n);
    }
    opens
        && closed
        && next.is_some_and(|n| {
            toks[n].kind == TokenKind::Ident && info.line(&toks[n]) > info.end_line(&toks[close])
        })
}

/// The word after `#` of a directive (`if`, `ifdef`, `endif`, …).
fn directive_word(directive: &str) -> &str {
    let rest = directive.trim_start_matches('#').trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    &rest[..end]
}

/// True when the name at `i` follows a storage class or qualifier and the
/// next token is a macro-shaped name no file defines, itself followed by
/// a declarator's name: `static BOOL WINAPI handler(…)`.
fn before_calling_convention(src: &str, info: &TokenInfo, macros: &MacroTable, i: usize) -> bool {
    let toks = &info.tokens;
    let is_unknown_macro = |n: usize| {
        toks[n].kind == TokenKind::Ident
            && macro_shaped(toks[n].text(src))
            && macros.get(toks[n].text(src)).is_none()
    };
    info.prev_live(i)
        .is_some_and(|p| attribute_word(toks[p].text(src)))
        && is_unknown_macro(i)
        && info.next_live(i).is_some_and(|n| {
            is_unknown_macro(n)
                && info
                    .next_live(n)
                    .is_some_and(|d| toks[d].kind == TokenKind::Ident && info.call_close(src, d).is_some())
        })
}

/// True when token `i` starts a line after an unknown object-like macro
/// alone on its line (`DBG_BUFF` then `DECLARE(n)`): a statement whose `;`
/// the macro's body holds.
fn after_unknown_statement(src: &str, info: &TokenInfo, macros: &MacroTable, i: usize) -> bool {
    let t = &info.tokens[i];
    info.prev_live(i).is_some_and(|p| {
        let m = &info.tokens[p];
        let word = m.text(src);
        m.kind == TokenKind::Ident
            && info.end_line(m) < info.line(t)
            && macro_shaped(word)
            && macros.get(word).is_none()
            && info
                .prev_live(p)
                .is_none_or(|q| info.end_line(&info.tokens[q]) < info.line(m))
    })
}

/// True when token `i` may start a statement inside a function: after `;`,
/// a brace, `else` or `do`, or the `)` of a control statement's header
/// (`if (n > 2) with_lock(m) { … }`).
fn statement_position(src: &str, info: &TokenInfo, i: usize) -> bool {
    /// How far back the `(` of a header is looked for.
    const MAX_HEADER_TOKENS: usize = 256;
    let Some(p) = info.prev_live(i) else {
        return true;
    };
    let t = &info.tokens[p];
    if matches!(t.text(src), ";" | "{" | "}" | "else" | "do") {
        return true;
    }
    t.is_punct(src, ")")
        && (p.saturating_sub(MAX_HEADER_TOKENS)..p)
            .rev()
            .find(|&o| info.closer(o) == Some(p))
            .and_then(|open| info.prev_live(open))
            .is_some_and(|k| matches!(info.tokens[k].text(src), "if" | "while" | "for" | "switch"))
}

/// True when the call `name(…)` at file scope, at `i` closing at
/// `close`, wraps the type of a declaration: its one argument is a type
/// name (names and `*`s), nothing but storage classes and attributes come
/// before it in the declaration, and the declarator follows on the same
/// line (`static API_DECLARE(int) name(…)`, `API(char *) *f(…)`). A use
/// that precedes a type (`void ATTR(3, 0) f(…)`) is an attribute instead.
/// A visible definition does not change the reading: it may be another
/// platform's (`__declspec(dllexport) t __stdcall`).
fn wraps_type(src: &str, info: &TokenInfo, macros: &MacroTable, i: usize, close: usize) -> bool {
    let toks = &info.tokens;
    let Some(open) = info.next_live(i) else {
        return false;
    };
    let arg_is_type = (open + 1..close).all(|k| {
        let t = &toks[k];
        !info.dead[k] && (t.kind == TokenKind::Ident || t.is_punct(src, "*"))
    }) && close > open + 1;
    let declarator_follows = info.next_live(close).is_some_and(|n| {
        info.line(&toks[n]) == info.end_line(&toks[close])
            && (toks[n].kind == TokenKind::Ident || toks[n].is_punct(src, "*"))
    });
    let mut j = i;
    let mut only_storage = true;
    while !info.at_statement_start(src, j, macros) {
        let Some(p) = info.prev_live(j) else { break };
        let word = toks[p].text(src);
        only_storage &= toks[p].kind == TokenKind::Ident
            && (attribute_word(word) || macros.class(word) == Some(MacroClass::Attribute));
        j = p;
    }
    macros.class(info.tokens[i].text(src)) != Some(MacroClass::Attribute)
        && arg_is_type
        && declarator_follows
        && only_storage
}

/// True when token `i` (a directive) sits between a `)` and a `{`, and is
/// no conditional, whose branches the front end reads otherwise.
fn between_declarator_and_body(src: &str, info: &TokenInfo, i: usize) -> bool {
    let word = info.tokens[i].text(src).trim_start_matches(['#', ' ', '\t']);
    let conditional = ["if", "elif", "else", "endif"]
        .iter()
        .any(|c| word.starts_with(c));
    let prev = info.prev_live(i).map(|p| &info.tokens[p]);
    let next = info.next_live(i).map(|n| &info.tokens[n]);
    !conditional && prev.is_some_and(|p| p.is_punct(src, ")")) && next.is_some_and(|n| n.is_punct(src, "{"))
}

/// True when `* name ) (` follows token `i`.
fn pointer_declarator_follows(src: &str, info: &TokenInfo, i: usize) -> bool {
    let mut j = i;
    ["*", "", ")", "("].iter().all(|want| {
        let Some(n) = info.next_live(j) else {
            return false;
        };
        j = n;
        let t = &info.tokens[n];
        if want.is_empty() {
            t.kind == TokenKind::Ident
        } else {
            t.is_punct(src, want)
        }
    })
}

fn keyword_statement(word: &str) -> bool {
    matches!(word, "return" | "case" | "goto" | "sizeof" | "else" | "do")
}

fn is_operator(text: &str) -> bool {
    matches!(
        text,
        "+" | "-"
            | "*"
            | "/"
            | "%"
            | "&"
            | "|"
            | "^"
            | "<"
            | ">"
            | "?"
            | ":"
            | "!"
            | "&&"
            | "||"
            | "++"
            | "--"
    )
}

/// Blanks the operand lists of a GNU asm statement (`: [r2] "+r" (r2)`),
/// which tree-sitter-c rejects in some forms, keeping the template.
fn asm_operands(src: &str, info: &TokenInfo, asm: usize, set: &mut RewriteSet) {
    // `register int r0 __asm__ ("r0") = x;`: a register label, blanked whole.
    let after_declarator = info.prev_live(asm).is_some_and(|p| {
        let t = &info.tokens[p];
        t.kind == TokenKind::Ident && !keyword(t.text(src)) || t.is_punct(src, ")")
    });
    if let Some(c) = info.call_close(src, asm).filter(|_| after_declarator) {
        set.add(Rewrite::blank(
            src,
            info.tokens[asm].range().start..info.tokens[c].range().end,
        ));
        return;
    }
    let mut j = asm;
    while let Some(n) = info.next_live(j) {
        if info.tokens[n].kind != TokenKind::Ident {
            j = n;
            break;
        }
        j = n;
    }
    let Some(close) = info.closer(j).filter(|_| info.tokens[j].is_punct(src, "(")) else {
        return;
    };
    let mut k = j + 1;
    while k < close {
        if info.tokens[k].is_punct(src, ":") && !info.dead[k] {
            set.add(Rewrite::blank(
                src,
                info.tokens[k].range().start..info.tokens[close].range().start,
            ));
            return;
        }
        k = info.closer(k).map_or(k + 1, |c| c + 1);
    }
}
