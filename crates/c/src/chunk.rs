//! Chunks of a view: runs of whole top-level items that tree-sitter parses
//! one at a time, so that a large file never needs its whole tree at once.
//!
//! A chunk ends where a top-level item may end: after a `;` or `}` at
//! bracket depth 0 with no `#if` group of the view open (the groups the
//! front end kept one branch of are blanked whole, so the directives left
//! balance). Never after a directive: the text before a chunk's first item
//! (blanked attribute macros, a group holding only them) then reaches back
//! to the end of the chunk before, as it reaches back to the item before
//! in the whole tree ([`crate::ParsedFile::lead_start`]). That is a lexical guess: a `}` closing a
//! struct body at depth 0 may still be followed by its declarators. So a
//! chunk is only taken once its parse has no error; one that has is joined
//! with the next ([`MAX_JOINS`] times at most), and a file whose chunks
//! still fail is to be parsed whole. A chunk is parsed with tree-sitter's
//! included ranges over the whole view: its nodes carry the file's own
//! byte offsets and points, and its root's children are the whole-file
//! tree's top-level items over the same bytes (`tests/frontend_chunks.rs`).

use std::ops::Range;

use tree_sitter::{Parser, Point, Tree};

use super::frontend::{new_parser, parse_with};
use super::lexer::{Token, TokenKind, Tokens, directive_parts};

/// The size a chunk reaches before it ends at the next item end: its tree
/// is about 50 bytes per byte of C, so about 3 MiB.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// The chunk size in use: `$WEFT_CHUNK_BYTES` when set to a number (1
/// cuts at every item end: the tests weave that way to compare with whole
/// trees), else [`CHUNK_BYTES`]. A view no longer than it is parsed whole.
pub fn chunk_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        std::env::var("WEFT_CHUNK_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(CHUNK_BYTES)
    })
}

/// How many times a chunk whose parse has an error is joined with the next
/// before the file is given up as one to parse whole: a wrong guess of an
/// item end is mended by one join, a real error is not mended by any.
pub const MAX_JOINS: usize = 2;

/// A run of whole top-level items of a view: its byte range and the points
/// (row, byte column) of its ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Byte range in the view.
    pub range: Range<usize>,
    /// Point of `range.start`.
    pub start: Point,
    /// Point of `range.end`.
    pub end: Point,
}

impl Chunk {
    /// This chunk's tree: `view` parsed over this chunk's bytes alone.
    pub fn parse(&self, parser: &mut Parser, view: &str) -> Tree {
        let range = tree_sitter::Range {
            start_byte: self.range.start,
            end_byte: self.range.end,
            start_point: self.start,
            end_point: self.end,
        };
        parser
            .set_included_ranges(&[range])
            .expect("one range inside the view is a valid set of included ranges");
        let tree = parse_with(parser, view, None);
        parser
            .set_included_ranges(&[])
            .expect("no ranges means the whole text");
        tree
    }
}

/// The offsets of `view` where a top-level item may end, in order (see the
/// module doc): the end of a `;`, `}` or directive (with its line break)
/// at bracket depth 0 with no `#if` group open after it.
pub fn item_ends(view: &str) -> impl Iterator<Item = usize> + '_ {
    let mut nesting = Nesting::default();
    Tokens::new(view).filter_map(move |token| {
        let directive = token.kind == TokenKind::Directive;
        // tree-sitter's directive nodes hold the line break ending them.
        let end = token.range().end
            + usize::from(directive && view.as_bytes().get(token.range().end) == Some(&b'\n'));
        nesting.ends_item(&token, view).then_some(end)
    })
}

/// Where the walk of [`item_ends`] stands.
#[derive(Default)]
struct Nesting {
    /// Brackets open.
    depth: usize,
    /// `#if` groups open.
    open_groups: usize,
    /// The last token closed a parenthesis at depth 0.
    after_paren: bool,
    /// Between an old-style definition's parameter list and its body
    /// (`int f(a) int a; {`): a name right after a parenthesis at depth 0
    /// starts this, the next `{` at depth 0 ends it; its `;` end nothing.
    old_style: bool,
}

impl Nesting {
    /// Takes `token` in; whether a top-level item may end after it.
    fn ends_item(&mut self, token: &Token, view: &str) -> bool {
        let after_paren = std::mem::take(&mut self.after_paren);
        match token.kind {
            TokenKind::Directive => {
                match directive_parts(token.text(view)).0 {
                    "if" | "ifdef" | "ifndef" => self.open_groups += 1,
                    "endif" => self.open_groups = self.open_groups.saturating_sub(1),
                    _ => {}
                }
                false
            }
            TokenKind::Ident => {
                self.old_style |= after_paren && self.depth == 0;
                false
            }
            TokenKind::Punct => {
                let b = view.as_bytes()[token.range().start];
                match b {
                    b'(' | b'[' | b'{' => {
                        self.old_style &= !(b == b'{' && self.depth == 0);
                        self.depth += 1;
                    }
                    b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
                self.after_paren = b == b')' && self.depth == 0;
                matches!(b, b';' | b'}') && self.depth == 0 && self.open_groups == 0 && !self.old_style
            }
            TokenKind::Number | TokenKind::Literal => false,
        }
    }
}

/// `view` cut into chunks of at least `target` bytes (the last may be
/// shorter) at item ends, each with its points. They cover the view.
pub fn cut(view: &str, target: usize) -> Vec<Chunk> {
    let mut ends: Vec<usize> = Vec::new();
    let mut start = 0;
    // Trailing blanks go with the last item: no chunk of nothing.
    let last = view.trim_end().len();
    for end in item_ends(view) {
        if end - start >= target && end < last {
            ends.push(end);
            start = end;
        }
    }
    ends.push(view.len());
    let mut points = Points::new(view);
    let mut chunks = Vec::with_capacity(ends.len());
    let (mut start, mut start_point) = (0, Point::new(0, 0));
    for end in ends.into_iter().filter(|&e| e > 0 || view.is_empty()) {
        let end_point = points.at(end);
        chunks.push(Chunk {
            range: start..end,
            start: start_point,
            end: end_point,
        });
        (start, start_point) = (end, end_point);
    }
    chunks
}

/// Cuts `view` into chunks of about `target` bytes whose parses have no
/// error, giving each chunk's tree to `visit` as it is taken (and dropping
/// it after). `None` when some chunk still fails after [`MAX_JOINS`] joins:
/// the file is to be parsed whole, and what `visit` gathered is moot.
pub fn parse_chunks(view: &str, target: usize, mut visit: impl FnMut(&Chunk, &Tree)) -> Option<Vec<Chunk>> {
    let cut = cut(view, target);
    let mut parser = new_parser();
    let mut taken = Vec::with_capacity(cut.len());
    let mut next = 0;
    while next < cut.len() {
        let mut chunk = cut[next].clone();
        next += 1;
        let mut tree = chunk.parse(&mut parser, view);
        let mut joins = 0;
        while tree.root_node().has_error() {
            if joins == MAX_JOINS || next == cut.len() {
                return None;
            }
            (chunk.range.end, chunk.end) = (cut[next].range.end, cut[next].end);
            next += 1;
            joins += 1;
            tree = chunk.parse(&mut parser, view);
        }
        visit(&chunk, &tree);
        taken.push(chunk);
    }
    Some(taken)
}

/// Points of increasing offsets of one text, found in one pass over it.
struct Points<'s> {
    bytes: &'s [u8],
    offset: usize,
    point: Point,
}

impl<'s> Points<'s> {
    fn new(text: &'s str) -> Points<'s> {
        Points {
            bytes: text.as_bytes(),
            offset: 0,
            point: Point::new(0, 0),
        }
    }

    /// The point of `offset`, at or after the last one asked for.
    fn at(&mut self, offset: usize) -> Point {
        for &b in &self.bytes[self.offset..offset] {
            if b == b'\n' {
                self.point = Point::new(self.point.row + 1, 0);
            } else {
                self.point.column += 1;
            }
        }
        self.offset = offset;
        self.point
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_end_outside_brackets_and_groups() {
        let view = "int a;\n#if X\nint b;\n#endif\nstruct s { int c; } d;\nint f(void) { return (1); }\nint g(a) int a; { }\n";
        let ends: Vec<&str> = item_ends(view)
            .map(|e| &view[..e])
            .map(|s| s.rsplit('\n').next().unwrap())
            .collect();
        assert_eq!(
            ends,
            [
                "int a;",
                "struct s { int c; }",
                "struct s { int c; } d;",
                "int f(void) { return (1); }",
                "int g(a) int a; { }"
            ]
        );
    }

    #[test]
    fn chunks_cover_the_view_with_their_points() {
        let view = "int a;\n/* x */ int b;\n\nint c;\n";
        let chunks = cut(view, 1);
        assert_eq!(chunks.first().unwrap().range.start, 0);
        assert_eq!(chunks.last().unwrap().range.end, view.len());
        for pair in chunks.windows(2) {
            assert_eq!(pair[0].range.end, pair[1].range.start);
            assert_eq!(pair[0].end, pair[1].start);
        }
        assert_eq!(chunks[1].start, Point::new(0, 6));
        assert_eq!(chunks[2].start, Point::new(1, 14));
    }

    #[test]
    fn a_wrong_guess_is_joined_and_a_real_error_gives_up() {
        let view = "struct s { int c; }\n d;\nint e;\n";
        let chunks = parse_chunks(view, 1, |_, t| assert!(!t.root_node().has_error())).unwrap();
        assert_eq!(chunks[0].range, 0..view.find("d;").unwrap() + 2);
        assert!(parse_chunks("int a;\nint b c d;\nint e;\nint f;\nint g;\n", 1, |_, _| {}).is_none());
    }
}
