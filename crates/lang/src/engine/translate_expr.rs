//! Translation of script expressions (token trees) to rhai: `$jp` variables,
//! JS spellings (`var`, `===`, `undefined`, `new X()`, `function(){}`,
//! `{…}` objects, '…' strings) and interpolated code literals.

use crate::aspect::ast::*;
use crate::aspect::literal::rhai_string;

use super::translate::Translator;

/// Words rhai reserves that JavaScript allows as names; such names are
/// renamed (consistently, so definitions and uses still meet).
const RHAI_RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "case",
    "default",
    "export",
    "fn",
    "global",
    "goto",
    "is",
    "match",
    "module",
    "nil",
    "package",
    "private",
    "protected",
    "public",
    "shared",
    "spawn",
    "static",
    "super",
    "sync",
    "thread",
    "use",
    "void",
    "with",
    "yield",
];

/// rhai keywords that JavaScript allows as property names.
const RHAI_KEYWORDS: &[&str] = &[
    "var", "function", "new", "null", "let", "const", "fn", "if", "else", "for", "in", "while", "loop", "do",
    "until", "break", "continue", "return", "throw", "try", "catch", "switch", "import", "true", "false",
    "this", "private",
];

/// rhai's built-in functions that cannot be variable names; renamed only
/// where they are not called.
const RHAI_KEYWORD_FUNCTIONS: &[&str] = &[
    "call",
    "curry",
    "debug",
    "eval",
    "Fn",
    "is_def_fn",
    "is_def_var",
    "is_shared",
    "print",
    "type_of",
];

/// `name` as a rhai variable name.
pub fn rhai_name(name: &str) -> String {
    if RHAI_RESERVED.contains(&name) || RHAI_KEYWORD_FUNCTIONS.contains(&name) {
        format!("weft_r_{name}")
    } else {
        name.to_string()
    }
}

/// Whether rhai refuses `name` as a property or map key name.
fn is_reserved(name: &str) -> bool {
    RHAI_RESERVED.contains(&name) || RHAI_KEYWORDS.contains(&name)
}

impl Translator<'_> {
    /// Writes `expr` as rhai.
    pub(super) fn expr(&mut self, expr: &Expr) {
        self.tokens(&expr.tokens);
    }

    fn tokens(&mut self, tokens: &[Token]) {
        for (i, token) in tokens.iter().enumerate() {
            let next = tokens.get(i + 1);
            self.token(token, next);
        }
    }

    fn token(&mut self, token: &Token, next: Option<&Token>) {
        match token {
            Token::Plain(span) => self.plain(span, next),
            Token::JoinPoint(name) => {
                if let Some(Token::Plain(member)) = next
                    && let Some(attribute) = member.text().strip_prefix('.')
                {
                    let attribute = attribute.trim_start();
                    let range = member.range.end - attribute.len()..member.range.end;
                    let span = Span {
                        file: member.file.clone(),
                        range,
                    };
                    self.check_attribute(&Name {
                        name: attribute.to_string(),
                        span,
                    });
                }
                if let Some(variable) = self.jp(name) {
                    self.out.token(&name.span, &variable);
                }
            }
            Token::Str(literal) | Token::Code(literal) => self.literal(literal),
            Token::New(_) => {}
            Token::Unit(span) => self.out.token(span, "()"),
            Token::Comma(span) => self.out.token(span, ","),
            Token::Group { kind, tokens, span } => {
                let (open, close) = match kind {
                    GroupKind::Paren => ("(", ")"),
                    GroupKind::Bracket => ("[", "]"),
                    GroupKind::Object => ("#{", "}"),
                };
                let start = span.range.start;
                let end = span.range.end;
                let open_len = if span.text().starts_with("#{") { 2 } else { 1 };
                let open_span = Span {
                    file: span.file.clone(),
                    range: start..start + open_len,
                };
                self.out.token(&open_span, open);
                if *kind == GroupKind::Object {
                    self.object_entries(tokens);
                } else {
                    self.tokens(tokens);
                }
                let close_span = Span {
                    file: span.file.clone(),
                    range: end.saturating_sub(1)..end,
                };
                self.out.token(&close_span, close);
            }
            Token::Function { params, body, span } => {
                self.out.at(span);
                self.closure(params, body);
            }
        }
    }

    /// The inside of an object literal: keys rhai reserves (`{ var: 1 }`)
    /// are written as strings, which rhai accepts as keys.
    fn object_entries(&mut self, tokens: &[Token]) {
        for (i, token) in tokens.iter().enumerate() {
            let next = tokens.get(i + 1);
            let is_key = matches!(next, Some(Token::Plain(colon)) if colon.text() == ":");
            match token {
                Token::Plain(span) if is_key && is_reserved(span.text()) => {
                    self.out.token(span, &format!("\"{}\"", span.text()))
                }
                _ => self.token(token, next),
            }
        }
    }

    /// A token passed through, with JS spellings mapped to rhai's.
    fn plain(&mut self, span: &Span, next: Option<&Token>) {
        let text = span.text();
        let called = matches!(
            next,
            Some(Token::Group {
                kind: GroupKind::Paren,
                ..
            })
        );
        match text {
            "var" => self.out.token(span, "let"),
            "===" => self.out.token(span, "=="),
            "!==" => self.out.token(span, "!="),
            _ if called && self.closures.contains(text) => {
                self.out.token(span, &format!("{}.call", rhai_name(text)))
            }
            _ if text.starts_with('.') => {
                // `. name` → `.name`; a name rhai reserves becomes an index
                // (`entry.var` → `entry["var"]`), which maps answer alike.
                let name = text[1..].trim_start();
                if is_reserved(name) {
                    self.out.token(span, &format!("[\"{name}\"]"));
                } else {
                    self.out.token(span, &format!(".{name}"));
                }
            }
            _ if RHAI_RESERVED.contains(&text) => self.out.token(span, &rhai_name(text)),
            _ if !called && RHAI_KEYWORD_FUNCTIONS.contains(&text) => self.out.token(span, &rhai_name(text)),
            _ => self.out.verbatim(span),
        }
    }

    /// A string or code literal; interpolations become concatenations of
    /// `weft_interpolate(expr)`, which formats values the way C code wants
    /// them and refuses an undefined one.
    fn literal(&mut self, literal: &Literal) {
        let only_text = literal.pieces.iter().all(|p| matches!(p, Piece::Text(_)));
        if only_text {
            let text: String = literal
                .pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.as_str(),
                    Piece::Interpolation(_) => "",
                })
                .collect();
            self.out.token(&literal.span, &rhai_string(&text));
            return;
        }
        self.out.token(&literal.span, "(\"\"");
        for piece in &literal.pieces {
            match piece {
                Piece::Text(text) => self.out.glue(&format!(" + {}", rhai_string(text))),
                Piece::Interpolation(expr) => {
                    // A value C cannot take is an error at its `[[…]]`.
                    self.out.at(&expr.span);
                    self.out.glue(" + weft_interpolate(");
                    self.expr(expr);
                    self.out.glue(")");
                }
            }
        }
        self.out.glue(")");
    }
}
