//! C text below the parser: where comments, literals and identifiers are,
//! so that a change of comments or spacing alone can be told apart from a
//! change of code, and a file-scope name can be renamed everywhere it is
//! used without touching strings or comments.

use std::ops::Range;

/// A piece of C text that matters to the compiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    /// A string or character literal.
    Literal,
    /// Anything else significant: a number, punctuation, `#`.
    Other,
    /// The end of a line (significant for directives).
    Newline,
}

/// The significant pieces of `text`, comments and blanks skipped.
fn pieces(text: &str) -> Vec<(Kind, Range<usize>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c == b'\n' {
            out.push((Kind::Newline, i..i + 1));
            i += 1;
        } else if c == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if b[i..].starts_with(b"//") {
            i = text[i..].find('\n').map_or(b.len(), |e| i + e);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push((Kind::Literal, start..i));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Kind::Ident, start..i));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            out.push((Kind::Other, start..i));
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            out.push((Kind::Other, start..i));
        }
    }
    out
}

/// What the compiler sees of `text`: its tokens, one space apart, and a
/// line break where a line with tokens ends (a directive ends there).
/// Two texts with the same code and different comments, spacing or blank
/// lines have the same form.
pub fn code(text: &str) -> String {
    let mut out = String::new();
    let mut line_has_tokens = false;
    for (kind, r) in pieces(text) {
        if kind == Kind::Newline {
            if line_has_tokens {
                out.push('\n');
            }
            line_has_tokens = false;
            continue;
        }
        if line_has_tokens {
            out.push(' ');
        }
        out.push_str(&text[r]);
        line_has_tokens = true;
    }
    out
}

/// The identifiers `text` uses (outside comments and literals).
pub fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    pieces(text)
        .into_iter()
        .filter(|(k, _)| *k == Kind::Ident)
        .map(move |(_, r)| &text[r])
}

/// Where `text` uses identifiers (outside comments and literals).
pub fn identifier_ranges(text: &str) -> impl Iterator<Item = Range<usize>> {
    pieces(text)
        .into_iter()
        .filter(|(k, _)| *k == Kind::Ident)
        .map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_spacing_do_not_change_the_code() {
        let a = "/* v1 */\nint  x = 1; // one\n\n#define K 1+1\n";
        let b = "/* version 2 of the program */\nint x = 1;\n#define K  1+1   \n";
        assert_eq!(code(a), code(b));
        assert_ne!(code(a), code("int x = 2;\n#define K 1+1\n"));
        // A string's spaces are code, and a directive ends at its line.
        assert_ne!(code("char *s = \"a b\";"), code("char *s = \"a  b\";"));
        assert_ne!(code("#define A\nB\n"), code("#define A B\n"));
        assert_eq!(code("#define A \\\n B\n"), code("#define A B\n"));
    }

    #[test]
    fn identifiers_skip_comments_and_literals() {
        let text = "a /* b */ \"c\" 'd' e1 // f\n";
        assert_eq!(identifiers(text).collect::<Vec<_>>(), ["a", "e1"]);
        assert_eq!(identifier_ranges(text).next(), Some(0..1));
    }
}
