//! Text layout questions the placement rules ask: where a line starts, how
//! it is indented, whether a statement ends its line, and how inserted code
//! is laid out on its own lines.

pub use weft_text::line_start;

/// The leading whitespace of the line containing `offset`.
pub fn indentation(text: &str, offset: usize) -> &str {
    let start = line_start(text, offset);
    let line = &text[start..];
    let len = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..len]
}

/// True when only whitespace precedes `offset` on its line.
pub fn starts_line(text: &str, offset: usize) -> bool {
    text[line_start(text, offset)..offset]
        .chars()
        .all(|c| c == ' ' || c == '\t')
}

/// The line terminator the file uses: that of its first line (asked at
/// every insert, so it must not read the whole file).
pub fn newline(text: &str) -> &'static str {
    match text.find('\n') {
        Some(end) if text[..end].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// Where code goes "on its own line after" something ending at `end`.
pub enum LineEnd {
    /// The rest of the line is blank or a comment: the start of the next
    /// line (`needs_newline` when the file ends without a line terminator).
    NextLine { offset: usize, needs_newline: bool },
    /// More code follows on the same line.
    Shared,
}

/// Classifies the rest of the line after `end`.
pub fn line_end(text: &str, end: usize) -> LineEnd {
    let rest = &text[end..];
    let (line, next) = match rest.find('\n') {
        Some(i) => (&rest[..i], Some(end + i + 1)),
        None => (rest, None),
    };
    if !only_comments(line.trim_end_matches('\r')) {
        return LineEnd::Shared;
    }
    match next {
        Some(offset) => LineEnd::NextLine {
            offset,
            needs_newline: false,
        },
        None => LineEnd::NextLine {
            offset: text.len(),
            needs_newline: true,
        },
    }
}

/// True when `line` holds nothing but whitespace and comments that end on
/// it. A `//` comment continued by a trailing backslash swallows the next
/// line, so it does not count.
fn only_comments(line: &str) -> bool {
    let mut s = line.trim_start();
    loop {
        if s.is_empty() {
            return true;
        }
        if let Some(comment) = s.strip_prefix("//") {
            return !comment.trim_end().ends_with('\\');
        }
        match s
            .strip_prefix("/*")
            .and_then(|c| c.find("*/").map(|i| &c[i + 2..]))
        {
            Some(after) => s = after.trim_start(),
            None => return false,
        }
    }
}

/// One line of inserted code after [`dedent`].
struct CodeLine<'a> {
    text: &'a str,
    /// The line continues a string literal or macro (the previous line
    /// ends with a backslash) or lies inside a block comment: its leading
    /// whitespace is content, so it is kept exactly as written.
    verbatim: bool,
}

/// `code` without its leading and trailing blank lines and without the
/// indentation common to its lines (aspects often indent multi-line code).
/// Verbatim lines neither count towards nor lose the common indentation.
fn dedent(code: &str) -> Vec<CodeLine<'_>> {
    let lines: Vec<&str> = code.lines().map(|l| l.trim_end_matches('\r')).collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Vec::new();
    };
    let lines = &lines[first..=last];
    let verbatim = verbatim_lines(lines);
    let common = lines
        .iter()
        .zip(&verbatim)
        .filter(|(l, v)| !**v && !l.trim().is_empty())
        .map(|(l, _)| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .zip(verbatim)
        .map(|(l, verbatim)| CodeLine {
            text: match (verbatim, l.trim().is_empty()) {
                (true, _) => l,
                (false, true) => "",
                (false, false) => &l[common..],
            },
            verbatim,
        })
        .collect()
}

/// Which of `lines` are verbatim (see [`CodeLine::verbatim`]). A small
/// lexer follows string and character literals and comments across the
/// lines, so that quotes and comment markers inside one another do not
/// mislead it.
fn verbatim_lines(lines: &[&str]) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        Literal(char),
        BlockComment,
    }
    let mut state = State::Code;
    let mut continued = false;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        out.push(continued || state == State::BlockComment);
        // An unterminated literal ends with its line unless continued.
        if !continued && matches!(state, State::Literal(_)) {
            state = State::Code;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match (state, c) {
                (State::Code, '"' | '\'') => state = State::Literal(c),
                (State::Code, '/') if chars.peek() == Some(&'*') => {
                    chars.next();
                    state = State::BlockComment;
                }
                // The rest of the line is a comment; a trailing backslash
                // still continues it, which `continued` records.
                (State::Code, '/') if chars.peek() == Some(&'/') => break,
                (State::Literal(_), '\\') => {
                    chars.next();
                }
                (State::Literal(quote), c) if c == quote => state = State::Code,
                (State::BlockComment, '*') if chars.peek() == Some(&'/') => {
                    chars.next();
                    state = State::Code;
                }
                _ => {}
            }
        }
        continued = line.ends_with('\\');
    }
    out
}

/// `code` laid out as whole lines indented by `indent`, each ended by `nl`;
/// verbatim lines are not indented.
pub fn as_lines(code: &str, indent: &str, nl: &str) -> String {
    let mut out = String::with_capacity(code.len() + 16);
    for line in dedent(code) {
        if !line.verbatim && !line.text.is_empty() {
            out.push_str(indent);
        }
        out.push_str(line.text);
        out.push_str(nl);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_and_line_starts() {
        let t = "int f() {\n\t  x = 1; y();\n}\n";
        let x = t.find('x').unwrap();
        assert_eq!(indentation(t, x), "\t  ");
        assert!(starts_line(t, x));
        assert!(!starts_line(t, t.find('y').unwrap()));
        assert_eq!(line_start(t, x), 10);
    }

    #[test]
    fn a_trailing_comment_leaves_the_line_to_the_statement() {
        let t = "a(); /* c */ // d\nb(); c();\nd(); /* open\n*/\ne(); // \\\n";
        let end_of = |s: &str| t.find(s).unwrap() + s.len();
        assert!(
            matches!(line_end(t, end_of("a();")), LineEnd::NextLine { offset, .. } if offset == t.find("b()").unwrap())
        );
        assert!(matches!(line_end(t, end_of("b();")), LineEnd::Shared));
        assert!(matches!(line_end(t, end_of("d();")), LineEnd::Shared));
        assert!(matches!(line_end(t, end_of("e();")), LineEnd::Shared));
    }

    #[test]
    fn code_is_dedented_then_indented() {
        let code = "\n    a();\n      b();\n\n    c();\n  ";
        assert_eq!(as_lines(code, "\t", "\n"), "\ta();\n\t  b();\n\n\tc();\n");
        assert_eq!(as_lines("x;", "  ", "\r\n"), "  x;\r\n");
    }

    #[test]
    fn string_continuations_and_block_comments_keep_their_indentation() {
        let code =
            "\n    printf(\"a \\\n  b /* \\\nc\");\n    /* x\n       y */ z();\n      w(\"/*\");\n    v();\n";
        assert_eq!(
            as_lines(code, "\t", "\n"),
            "\tprintf(\"a \\\n  b /* \\\nc\");\n\t/* x\n       y */ z();\n\t  w(\"/*\");\n\tv();\n"
        );
    }

    #[test]
    fn a_file_without_final_newline_needs_one() {
        assert!(matches!(
            line_end("int x;", 6),
            LineEnd::NextLine {
                offset: 6,
                needs_newline: true
            }
        ));
    }
}
