//! Macro classes, decided from a macro's definition and name shape, in the
//! manner of Coccinelle's parsing heuristics.

use super::lexer::{TokenKind, tokenize};

/// How the repair passes treat uses of a macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacroClass {
    /// Expands to nothing or only to storage-class, qualifier or attribute
    /// words (`#define local static`, `#define near`): uses are blanked.
    Attribute,
    /// Function-like whose body is its single parameter (`#define OF(a) a`),
    /// that parameter behind a pasted literal prefix (`#define W(s) L##s`),
    /// or one use of another identity macro (`#define T(s) W(s)`): uses
    /// are unwrapped to their argument.
    Identity,
    /// Body is only string literals, and parameters between them (`#define
    /// FMT(m) "%" m "u"`, `#define VERSION "1.2"`): a use is a string
    /// literal. Glued to another string it is read as an empty one, so that
    /// it concatenates (`"a" FMT("l") "b"`); alone it parses as written.
    StringLiteral,
    /// Body is only the punctuation of parameter lists (`(`, `)`, `,`, `;`,
    /// and `void` between parentheses), whatever the arguments: the pieces
    /// of a parameter list that old code spells differently for K&R and
    /// ANSI compilers (`#define DC_DECLSEP ,`, `#define DC_DECLARG(list) (`,
    /// `#define DC_PROTO(x) ()`). Uses, with their arguments, are replaced
    /// by the body.
    Punctuation,
    /// Body is a block or a statement, or ends with `;` (a declaration
    /// too): a use written without `;` gets one.
    Statement,
    /// A loop header (`for (...)`, or a name like `list_for_each`): a use
    /// followed by a block is read as a loop.
    Iterator,
    /// Anything else (constants, expressions, declarations); declarer uses
    /// at file scope are expanded.
    Other,
}

/// Words that may precede or follow a declaration without changing its
/// shape: storage classes, qualifiers, attributes.
const ATTRIBUTE_WORDS: &[&str] = &[
    "static",
    "extern",
    "inline",
    "const",
    "volatile",
    "register",
    "auto",
    "restrict",
    "_Noreturn",
    "_Thread_local",
    "alignas",
    "_Alignas",
];

/// Keywords that start a statement, or a labelled statement of a switch
/// (`#define LEAD_CASE(n) case BT_LEAD##n: …`).
const STATEMENT_WORDS: &[&str] = &[
    "if", "while", "for", "switch", "do", "return", "break", "continue", "goto", "case", "default",
];

/// True for identifiers in the usual macro shape `^[A-Z_][A-Z0-9_]*$`.
pub fn macro_shaped(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.len() > 1
}

/// Reserved words that name types, not attributes: a macro whose body is
/// one of them (`#define bool _Bool`) is a type and must stay in the view.
const RESERVED_TYPE_WORDS: &[&str] = &[
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Atomic",
    "__int128",
    "__int64",
    "__int32",
    "__int16",
    "__int8",
    "__builtin_va_list",
    "__typeof__",
    "__typeof",
    "__auto_type",
    "__complex__",
    "__signed__",
    "__signed",
    "__unsigned",
    "__label__",
];

/// True for a reserved identifier that names a type: the list above, the
/// `_FloatN`/`_DecimalN` families and `__x_t` typedef names (`__off_t`).
pub fn reserved_type_word(word: &str) -> bool {
    RESERVED_TYPE_WORDS.contains(&word)
        || word.starts_with("_Float")
        || word.starts_with("_Decimal")
        || (word.starts_with("__") && word.ends_with("_t"))
}

/// True for words that act as attributes: storage classes, qualifiers and
/// reserved `_x`/`__x` identifiers (`__attribute__`, `__inline`, `_near`)
/// that do not name a type.
pub fn attribute_word(word: &str) -> bool {
    ATTRIBUTE_WORDS.contains(&word)
        || (word.starts_with('_') && word.len() > 1 && !macro_shaped(word) && !reserved_type_word(word))
}

/// True for names that Coccinelle reads as iterators.
pub fn iterator_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["for_each", "foreach", "iterate", "loop", "walk", "scan"]
        .iter()
        .any(|w| lower.contains(w))
}

/// Classifies one definition. `class_of` answers for macros used in the
/// body, as far as they are classified yet: `#define A B` with `B` an
/// attribute macro is an attribute too, and a body that is one use of an
/// iterator macro (`#define mythread_sync(m) mythread_sync_helper(m,
/// __LINE__)`) makes an iterator.
pub fn classify(
    name: &str,
    params: Option<&[String]>,
    body: &str,
    class_of: &dyn Fn(&str) -> Option<MacroClass>,
) -> MacroClass {
    let is_attribute = |w: &str| class_of(w) == Some(MacroClass::Attribute);
    let tokens = tokenize(body);
    let words: Vec<&str> = tokens.iter().map(|t| t.text(body)).collect();
    if let Some(params) = params
        && words.len() == 1
        && params.iter().any(|p| p == words[0])
    {
        return MacroClass::Identity;
    }
    if let Some(params) = params
        && identity_body(params, &words, &|w| class_of(w) == Some(MacroClass::Identity))
    {
        return MacroClass::Identity;
    }
    if string_literal_body(params.unwrap_or_default(), &tokens, body) {
        return MacroClass::StringLiteral;
    }
    if parameter_list_pieces(&words) {
        return MacroClass::Punctuation;
    }
    if iterator_name(name)
        || (matches!(words.first(), Some(&"for" | &"while")) && !matches!(words.last(), Some(&";" | &"}")))
        || (words
            .first()
            .is_some_and(|w| class_of(w) == Some(MacroClass::Iterator))
            && iterator_calls(&words, &|w| class_of(w) == Some(MacroClass::Iterator)))
    {
        return MacroClass::Iterator;
    }
    // A body ending in `;` is a whole statement or declaration (`#define
    // DBG_BUFF char buf[256];`): its uses stand without one.
    if matches!(words.first(), Some(&"{"))
        || words.first().is_some_and(|w| STATEMENT_WORDS.contains(w))
        || words.last() == Some(&";")
    {
        return MacroClass::Statement;
    }
    if words.is_empty() {
        // An empty function-like macro is usually a call that compiles away
        // (`Trace((...))`); only object-like ones sit in declarations.
        return if params.is_none() {
            MacroClass::Attribute
        } else {
            MacroClass::Other
        };
    }
    if attribute_body(&tokens, body, &is_attribute) {
        return MacroClass::Attribute;
    }
    MacroClass::Other
}

/// Encoding prefixes a literal can carry (`L"wide"`).
const LITERAL_PREFIXES: &[&str] = &["L", "u", "U", "u8"];

/// True for the identity bodies beyond a bare parameter: `L ## s` (a
/// literal prefix pasted to the parameter, so the argument is a literal
/// either way) and `W(s)` with `W` an identity macro.
fn identity_body(params: &[String], words: &[&str], is_identity: &dyn Fn(&str) -> bool) -> bool {
    let is_param = |w: &str| params.iter().any(|p| p == w);
    match words {
        [prefix, "##", p] => LITERAL_PREFIXES.contains(prefix) && is_param(p),
        [name, "(", p, ")"] => is_identity(name) && is_param(p),
        _ => false,
    }
}

/// True when the body is string literals, with parameters between them,
/// and at least one literal.
fn string_literal_body(params: &[String], tokens: &[super::lexer::Token], body: &str) -> bool {
    let literal = |t: &super::lexer::Token| t.kind == TokenKind::Literal && t.text(body).ends_with('"');
    tokens.iter().any(literal)
        && tokens
            .iter()
            .all(|t| literal(t) || (t.kind == TokenKind::Ident && params.iter().any(|p| p == t.text(body))))
}

/// True when `words` are calls of iterators one after the other, each a
/// name and one balanced argument list (`#define with_both(a, b)
/// with_lock(a) with_lock(b)`): one loop header nested in another.
fn iterator_calls(words: &[&str], is_iterator: &dyn Fn(&str) -> bool) -> bool {
    let mut rest = words;
    while let [name, "(", ..] = rest {
        if !is_iterator(name) {
            return false;
        }
        let mut depth = 0usize;
        let Some(close) = rest.iter().enumerate().skip(1).find_map(|(i, w)| {
            match *w {
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ => return None,
            }
            (depth == 0).then_some(i)
        }) else {
            return false;
        };
        rest = &rest[close + 1..];
    }
    rest.is_empty() && !words.is_empty()
}

/// True when `words` are only pieces of a parameter list or of a block:
/// `(`, `)`, `,`, `;`, `{`, `}`, and `void` inside parentheses. A type (`void *`) or a bare `void`
/// is not: read as written, it keeps what the code around means.
fn parameter_list_pieces(words: &[&str]) -> bool {
    let mut depth = 0usize;
    !words.is_empty()
        && words.iter().all(|w| match *w {
            "(" => {
                depth += 1;
                true
            }
            ")" => {
                depth = depth.saturating_sub(1);
                true
            }
            // Braces too: `#define END_TEST } }`, `#define BEGIN {`.
            "," | ";" | "{" | "}" => true,
            "void" => depth > 0,
            _ => false,
        })
}

/// True when the body is only attribute words, each optionally followed by
/// a parenthesised argument list (`__attribute__ ((noreturn))`).
fn attribute_body(tokens: &[super::lexer::Token], body: &str, is_attribute: &dyn Fn(&str) -> bool) -> bool {
    let mut depth = 0usize;
    let mut after_word = false;
    for t in tokens {
        let text = t.text(body);
        if depth > 0 {
            match text {
                "(" => depth += 1,
                ")" => depth -= 1,
                _ => {}
            }
            continue;
        }
        match t.kind {
            TokenKind::Ident if attribute_word(text) || is_attribute(text) => after_word = true,
            TokenKind::Punct if text == "(" && after_word => {
                depth = 1;
                after_word = false;
            }
            _ => return false,
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, params: Option<&[&str]>, body: &str) -> MacroClass {
        let params: Option<Vec<String>> = params.map(|p| p.iter().map(|s| s.to_string()).collect());
        classify(name, params.as_deref(), body, &|w| match w {
            "near" => Some(MacroClass::Attribute),
            "W" => Some(MacroClass::Identity),
            "sync_helper" => Some(MacroClass::Iterator),
            _ => None,
        })
    }

    #[test]
    fn classes_from_definitions() {
        assert_eq!(class("local", None, "static"), MacroClass::Attribute);
        assert_eq!(class("near", None, ""), MacroClass::Attribute);
        assert_eq!(class("FAR", None, "near"), MacroClass::Attribute);
        assert_eq!(
            class("NORET", None, "__attribute__ ((__noreturn__))"),
            MacroClass::Attribute
        );
        assert_eq!(class("OF", Some(&["args"]), "args"), MacroClass::Identity);
        assert_eq!(class("W", Some(&["s"]), "L##s"), MacroClass::Identity);
        assert_eq!(class("T", Some(&["s"]), "W(s)"), MacroClass::Identity);
        assert_eq!(class("T", Some(&["s"]), "X(s)"), MacroClass::Other);
        assert_eq!(class("P", Some(&["s"]), "Q##s"), MacroClass::Other);
        assert_eq!(
            class("FMT", Some(&["m"]), "\"%\" m \"u\""),
            MacroClass::StringLiteral
        );
        assert_eq!(class("VERSION", None, "\"1.2\""), MacroClass::StringLiteral);
        assert_eq!(class("CH", None, "'a'"), MacroClass::Other);
        assert_eq!(class("ID", Some(&["m"]), "m m"), MacroClass::Other);
        assert_eq!(
            class("NEEDBITS", Some(&["n"]), "{while(k<(n)) k+=8;}"),
            MacroClass::Statement
        );
        assert_eq!(
            class("list_for_each", Some(&["p", "h"]), "for (p = h; p; p = p->next)"),
            MacroClass::Iterator
        );
        assert_eq!(
            class("DECLARE", Some(&["t", "a", "n"]), "t a[n]"),
            MacroClass::Other
        );
        assert_eq!(class("WSIZE", None, "0x8000"), MacroClass::Other);
        assert_eq!(
            class("mythread_sync", Some(&["m"]), "sync_helper(m, __LINE__)"),
            MacroClass::Iterator
        );
        assert_eq!(
            class("twice", Some(&["m"]), "sync_helper(m) + 1"),
            MacroClass::Other
        );
        assert_eq!(
            class("both", Some(&["a", "b"]), "sync_helper(a) sync_helper(b)"),
            MacroClass::Iterator
        );
        assert_eq!(
            class("mixed", Some(&["a", "b"]), "sync_helper(a) other(b)"),
            MacroClass::Other
        );
        assert_eq!(
            class("LEAD_CASE", Some(&["n"]), "case BT_LEAD##n: ptr += n; break;"),
            MacroClass::Statement
        );
        // A macro naming a type is a type, whatever its spelling.
        assert_eq!(class("bool", None, "_Bool"), MacroClass::Other);
        assert_eq!(class("off_t", None, "__int64"), MacroClass::Other);
        assert_eq!(class("Trace", Some(&["x"]), ""), MacroClass::Other);
    }

    #[test]
    fn parameter_list_pieces_are_punctuation() {
        assert_eq!(class("DC_DECLSEP", None, ","), MacroClass::Punctuation);
        assert_eq!(class("DC_DECLEND", None, ";"), MacroClass::Punctuation);
        assert_eq!(class("DC_DECLARG", Some(&["list"]), "("), MacroClass::Punctuation);
        assert_eq!(class("DC_PROTO", Some(&["x"]), "()"), MacroClass::Punctuation);
        assert_eq!(class("DC_DECLVOID", Some(&[]), "(void)"), MacroClass::Punctuation);
        assert_eq!(class("END_TEST", None, "} }"), MacroClass::Punctuation);
        assert_eq!(class("BEGIN", None, "{"), MacroClass::Punctuation);
        // Types and words keep their meaning where they are written.
        assert_eq!(class("VOID_PARAM", None, "void"), MacroClass::Other);
        assert_eq!(class("VOID_POINTER", None, "void *"), MacroClass::Other);
        assert_eq!(class("STAR", None, "*"), MacroClass::Other);
    }

    #[test]
    fn name_shapes() {
        assert!(macro_shaped("NEEDBITS"));
        assert!(macro_shaped("_GL_ATTR"));
        assert!(!macro_shaped("local"));
        assert!(attribute_word("__inline"));
        assert!(!attribute_word("_Bool"));
        assert!(!attribute_word("__int64"));
        assert!(!attribute_word("__uint32_t"));
        assert!(!attribute_word("_Float128"));
        assert!(!attribute_word("_"));
        assert!(iterator_name("list_for_each_entry"));
    }
}
