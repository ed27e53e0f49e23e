//! A forgiving C tokenizer over raw (unpreprocessed) text.
//!
//! The repair passes need tokens, lines and preprocessor directives, not a
//! full C lexer: comments and whitespace are skipped, a directive is one
//! token spanning its continued lines, and anything unexpected becomes a
//! one-byte punctuation token. Token boundaries always fall on ASCII bytes
//! (bytes >= 0x80 are treated as identifier characters), so slicing the text
//! at them never splits a UTF-8 character.

use std::ops::Range;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Ident,
    Number,
    /// A string or character literal.
    Literal,
    Punct,
    /// A whole preprocessor directive line, continuations included.
    Directive,
}

/// One significant token of the text. Offsets are 32-bit and no line is
/// kept (a [`crate::repair::TokenInfo`] finds it from the offset): a
/// file's tokens are the front end's largest structure (a token every two
/// or three bytes of C), and [`Tokens`] ends a text at [`MAX_TEXT`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    start: u32,
    end: u32,
}

/// The longest text the tokenizer reads: its offsets are 32-bit.
pub const MAX_TEXT: usize = u32::MAX as usize;

impl Token {
    /// The token's byte range in its text.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The token's text in `src`.
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        src.get(self.range()).unwrap_or("")
    }

    /// True when this is the punctuation `p`.
    pub fn is_punct(&self, src: &str, p: &str) -> bool {
        self.kind == TokenKind::Punct && self.text(src) == p
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Multi-byte punctuators the repairs care about; the rest are single bytes.
const PUNCTS: [&str; 6] = ["->", "++", "--", "&&", "||", "##"];

/// Splits `src` into significant tokens.
pub fn tokenize(src: &str) -> Vec<Token> {
    Tokens::new(src).collect()
}

/// The significant tokens of a text, one at a time: what [`tokenize`]
/// collects, for a walk that needs no more than the current token (the
/// chunking of a whole view, [`crate::chunk`]).
pub struct Tokens<'s> {
    src: &'s str,
    i: usize,
    /// True while only whitespace and comments precede `i` on its line.
    line_fresh: bool,
}

impl<'s> Tokens<'s> {
    /// The tokens of `src`, from its first byte.
    pub fn new(src: &'s str) -> Tokens<'s> {
        Tokens {
            src,
            i: 0,
            line_fresh: true,
        }
    }

    /// Skips whitespace, continued line ends and comments; false at the end.
    fn skip_blank(&mut self) -> bool {
        let bytes = self.src.as_bytes();
        while self.i < bytes.len() {
            let b = bytes[self.i];
            if b == b'\n' {
                self.line_fresh = true;
                self.i += 1;
            } else if b.is_ascii_whitespace() {
                self.i += 1;
            } else if b == b'\\' && bytes.get(self.i + 1) == Some(&b'\n') {
                self.i += 2;
            } else if let Some(end) = comment_end(bytes, self.i) {
                self.i = end;
            } else {
                return true;
            }
        }
        false
    }

    /// The end and kind of the token starting at `self.i`.
    fn token_end(&self) -> (usize, TokenKind) {
        let (src, bytes, start) = (self.src, self.src.as_bytes(), self.i);
        let b = bytes[start];
        let mut i = start;
        if b == b'#' && self.line_fresh {
            (directive_end(bytes, i), TokenKind::Directive)
        } else if b.is_ascii_digit() || (b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < bytes.len() && (is_ident_byte(bytes[i]) || bytes[i] == b'.' || exponent_sign(bytes, i))
            {
                i += 1;
            }
            (i, TokenKind::Number)
        } else if is_ident_byte(b) {
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            // L"..", u8'..' and friends are literals with a prefix.
            if i < bytes.len()
                && (bytes[i] == b'"' || bytes[i] == b'\'')
                && matches!(&src[start..i], "L" | "u" | "U" | "u8")
            {
                (literal_end(bytes, i), TokenKind::Literal)
            } else {
                (i, TokenKind::Ident)
            }
        } else if b == b'"' || b == b'\'' {
            (literal_end(bytes, i), TokenKind::Literal)
        } else {
            let len = PUNCTS
                .iter()
                .find(|p| bytes[i..].starts_with(p.as_bytes()))
                .map_or(1, |p| p.len());
            (i + len, TokenKind::Punct)
        }
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        if !self.skip_blank() {
            return None;
        }
        let start = self.i;
        let (end, kind) = self.token_end();
        let token = Token {
            kind,
            start: narrow(start),
            end: narrow(end),
        };
        self.i = end;
        self.line_fresh = false;
        Some(token)
    }
}

/// The directives of `src` (as `tokenize` finds them), without the rest of
/// the tokens: learning the macros of a whole tree reads every file once
/// just for its `#define`s.
pub fn directives(src: &str) -> impl Iterator<Item = &str> {
    let bytes = src.as_bytes();
    let mut i = 0;
    let mut line_fresh = true;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            match bytes[i] {
                b'#' if line_fresh => {
                    let start = i;
                    i = directive_end(bytes, i);
                    line_fresh = false;
                    return Some(&src[start..i]);
                }
                b'/' if let Some(end) = comment_end(bytes, i) => i = end,
                b'"' | b'\'' => {
                    i = literal_end(bytes, i);
                    line_fresh = false;
                }
                b'\n' => {
                    line_fresh = true;
                    i += 1;
                }
                // A continued line goes on.
                b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
                b if b.is_ascii_whitespace() => i += 1,
                _ => {
                    // Inside a line, only what may end it or hide a line
                    // break matters.
                    line_fresh = false;
                    i += 1;
                    i += bytes[i..]
                        .iter()
                        .position(|b| matches!(b, b'\n' | b'/' | b'"' | b'\'' | b'\\'))
                        .unwrap_or(bytes.len() - i);
                }
            }
        }
        None
    })
}

/// An offset of a text within [`MAX_TEXT`] (the readers of C
/// files refuse longer ones), as a token stores it.
fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn exponent_sign(bytes: &[u8], i: usize) -> bool {
    (bytes[i] == b'+' || bytes[i] == b'-') && i > 0 && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P')
}

/// End of a comment starting at `i`, if one starts there.
/// The one-line block comments (`/* fall through */`) inside the directive
/// token `directive` of `src`, skipping string and character literals.
pub fn directive_comments(src: &str, directive: &Token) -> Vec<Range<usize>> {
    let bytes = src.as_bytes();
    let mut comments = Vec::new();
    let mut i = directive.range().start;
    while i < directive.range().end {
        match bytes[i] {
            b'"' | b'\'' => i = literal_end(bytes, i),
            _ => match comment_end(bytes, i) {
                Some(end) => {
                    if bytes[i + 1] == b'*' && !bytes[i..end].contains(&b'\n') {
                        comments.push(i..end);
                    }
                    i = end;
                }
                None => i += 1,
            },
        }
    }
    comments
}

fn comment_end(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes[i] != b'/' {
        return None;
    }
    match bytes.get(i + 1) {
        Some(b'/') => {
            let mut j = i + 2;
            while j < bytes.len() && bytes[j] != b'\n' {
                // A backslash-newline continues a line comment.
                j += if bytes[j] == b'\\' && bytes.get(j + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            }
            Some(j)
        }
        Some(b'*') => {
            let mut j = i + 2;
            while j < bytes.len() && !(bytes[j] == b'*' && bytes.get(j + 1) == Some(&b'/')) {
                j += 1;
            }
            Some((j + 2).min(bytes.len()))
        }
        _ => None,
    }
}

/// End of a string or character literal opened at `i`; an unterminated one
/// stops at the end of its line.
fn literal_end(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// End of the directive starting at `i` (exclusive, before the newline).
fn directive_end(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < bytes.len() {
        match bytes[j] {
            b'\n' => return j,
            b'\\' if bytes.get(j + 1) == Some(&b'\n') => j += 2,
            b'\\' if bytes.get(j + 1) == Some(&b'\r') && bytes.get(j + 2) == Some(&b'\n') => j += 3,
            b'/' => j = comment_end(bytes, j).unwrap_or(j + 1),
            b'"' | b'\'' => j = literal_end(bytes, j),
            _ => j += 1,
        }
    }
    bytes.len()
}

/// The name of a directive token (`define`, `ifdef`, ...) and the text after it.
pub fn directive_parts(text: &str) -> (&str, &str) {
    let rest = text.trim_start_matches('#').trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    (&rest[..end], &rest[end..])
}

/// The matching closer of each token that is `(`, `[` or `{` and has one,
/// as pairs of 32-bit token indexes sorted by opener: about one token in
/// ten opens a bracket, so this takes under a byte per token where an
/// entry for every token took four.
#[derive(Debug, Clone)]
pub struct Closers(Vec<(u32, u32)>);

impl Closers {
    /// The matching closer of token `i`; `None` for an unbalanced opener
    /// or a token that opens nothing.
    pub fn get(&self, i: usize) -> Option<usize> {
        let i = u32::try_from(i).ok()?;
        let at = self.0.binary_search_by_key(&i, |&(open, _)| open).ok()?;
        Some(self.0[at].1 as usize)
    }
}

/// The matching closers of `tokens` ([`Closers`]). Unbalanced openers
/// have none.
pub fn match_brackets(src: &str, tokens: &[Token]) -> Closers {
    let mut matches = Vec::new();
    let mut stack: Vec<(usize, u8)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Punct {
            continue;
        }
        let b = src.as_bytes()[t.range().start];
        match b {
            b'(' | b'[' | b'{' => stack.push((i, b)),
            b')' | b']' | b'}' => {
                let open = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                // Skip unmatched openers of another kind (e.g. split by #if).
                if let Some(pos) = stack.iter().rposition(|&(_, o)| o == open) {
                    matches.push((narrow(stack[pos].0), narrow(i)));
                    stack.truncate(pos);
                }
            }
            _ => {}
        }
    }
    // Pairs come closer by closer: inner brackets first.
    matches.sort_unstable();
    Closers(matches)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directives `tokenize` finds.
    fn directive_tokens(src: &str) -> Vec<&str> {
        tokenize(src)
            .iter()
            .filter(|t| t.kind == TokenKind::Directive)
            .map(|t| t.text(src))
            .collect()
    }

    #[test]
    fn directives_alone_are_the_directive_tokens() {
        let src = "#define A 1 /* x\n# not */\n  # if B \\\n   && C\nint x = '#'; \"#\";\n\
                   s = \"a\\\"#b\"; // # no\n#endif\nx; # no\n/* */ #define D\n#\n";
        assert_eq!(directives(src).collect::<Vec<_>>(), directive_tokens(src));
        assert_eq!(directive_tokens(src).len(), 5, "{:?}", directive_tokens(src));
    }

    proptest::proptest! {
        #[test]
        fn directives_alone_match_tokenize(src in "[ a-z#/*\"'\\\n]{0,200}") {
            proptest::prop_assert_eq!(directives(&src).collect::<Vec<_>>(), directive_tokens(&src));
        }
    }

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        tokenize(src).iter().map(|t| (t.kind, t.text(src))).collect()
    }

    #[test]
    fn directives_span_continuations_and_comments_are_skipped() {
        let src = "#define A(x) \\\n  (x) /* c\n */\nint a; // x\n";
        let toks = kinds(src);
        assert_eq!(toks[0].0, TokenKind::Directive);
        assert_eq!(toks[0].1, "#define A(x) \\\n  (x) /* c\n */");
        assert_eq!(
            &toks[1..],
            &[
                (TokenKind::Ident, "int"),
                (TokenKind::Ident, "a"),
                (TokenKind::Punct, ";")
            ]
        );
    }

    #[test]
    fn lines_and_literals() {
        let src = "a\n\"x;y\" 'c'\n1e+5 -> b";
        let t = tokenize(src);
        assert_eq!(t[1].kind, TokenKind::Literal);
        assert_eq!(t[1].text(src), "\"x;y\"");
        assert_eq!(t[3].text(src), "1e+5");
        assert_eq!(t[4].text(src), "->");
        assert_eq!(t[5].text(src), "b");
    }

    #[test]
    fn non_ascii_never_splits_characters() {
        let src = "int é = 'ü'; \"ß";
        for t in tokenize(src) {
            assert!(src.get(t.range()).is_some());
        }
    }

    #[test]
    fn brackets_match_across_kinds() {
        let src = "f(a[1]) { ( }";
        let t = tokenize(src);
        let m = match_brackets(src, &t);
        assert_eq!(m.get(1), Some(6));
        assert_eq!(m.get(3), Some(5));
        assert_eq!(m.get(7), Some(9));
        assert_eq!(m.get(8), None);
        assert_eq!(m.get(0), None);
    }
}
