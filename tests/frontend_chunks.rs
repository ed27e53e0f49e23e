//! A view parsed chunk by chunk (`weft::c::parse_chunks`) has the same
//! top-level items as its whole-file tree: kinds, byte ranges, points and
//! every node below them, on files with `#if` groups around functions,
//! directives and macro calls spanning lines, comments between
//! declarations, and on every .c file of gzip 1.12.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod sources_support;

use std::path::Path;
use std::sync::Arc;

use weft::c::{FrontEnd, ParsedFile, Sources, parse_chunks};

/// One top-level item as a comparison sees it: kind, byte range, points and
/// the S-expression of everything below.
type Item = (
    String,
    std::ops::Range<usize>,
    (usize, usize),
    (usize, usize),
    String,
);

fn item(node: tree_sitter::Node<'_>) -> Item {
    let (s, e) = (node.start_position(), node.end_position());
    (
        node.kind().to_string(),
        node.byte_range(),
        (s.row, s.column),
        (e.row, e.column),
        node.to_sexp(),
    )
}

fn whole_items(file: &ParsedFile) -> Vec<Item> {
    let tree = file.whole_tree();
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.children(&mut cursor).map(item).collect()
}

/// The items of `file`'s chunks of `target` bytes, how many chunks there
/// were, and the range from the first chunk's root's start to the last's
/// end; `None` when the view could not be cut.
fn chunk_items(file: &ParsedFile, target: usize) -> Option<(Vec<Item>, usize, std::ops::Range<usize>)> {
    let mut items = Vec::new();
    let mut span: Option<std::ops::Range<usize>> = None;
    let chunks = parse_chunks(&file.view, target, |chunk, tree| {
        let root = tree.root_node();
        assert!(root.start_byte() >= chunk.range.start && root.end_byte() <= chunk.range.end);
        span = Some(
            span.as_ref()
                .map_or(root.byte_range(), |s| s.start..root.end_byte()),
        );
        let mut cursor = root.walk();
        items.extend(root.children(&mut cursor).map(item));
    })?;
    Some((items, chunks.len(), span.unwrap_or(0..0)))
}

/// Asserts that `file`'s chunks of `target` bytes have its whole tree's
/// items and root range; false when the view could not be cut.
fn same_as_whole(file: &ParsedFile, target: usize) -> bool {
    let Some((items, _, span)) = chunk_items(file, target) else {
        return false;
    };
    assert_eq!(
        items,
        whole_items(file),
        "{}: chunks of {target} bytes",
        file.path.display()
    );
    assert_eq!(
        span,
        file.whole_tree().root_node().byte_range(),
        "{}",
        file.path.display()
    );
    true
}

/// Top-level items of every shape a cut must respect: `#if` groups
/// around functions, directives and macro calls over several lines,
/// comments between declarations, declarators after a struct body on the
/// next line, an attribute macro on the line above a function.
const FIXTURE: &str = include_str!("fixtures/chunks/items.c");

fn front_end_for(path: &Path) -> FrontEnd {
    Sources::collect(&[path.to_path_buf()], false)
        .unwrap()
        .front_end(None)
        .unwrap()
}

#[test]
fn chunks_have_the_whole_trees_items_on_the_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fixture.c");
    std::fs::write(&path, FIXTURE).unwrap();
    let file = front_end_for(&path).parse(&path, Arc::from(FIXTURE));
    assert!(
        !file.whole_tree().root_node().has_error(),
        "{}",
        file.whole_tree().root_node().to_sexp()
    );
    for target in [1, 64, 256, 1 << 20] {
        assert!(same_as_whole(&file, target), "the fixture is cut");
    }
    let (_, chunks, _) = chunk_items(&file, 1).unwrap();
    assert!(chunks >= 6, "{chunks} chunks");
}

/// Whether the .c files of `dir` are cut into chunks of one item each
/// with the whole trees' items; how many were cut, of how many. A file not
/// cut must be one whose whole tree has an error.
fn cut_files(dir: &Path) -> (usize, usize) {
    let files = sources_support::c_files(dir);
    let sources = Sources::collect(&files, false).unwrap();
    let front = sources.front_end(None).unwrap();
    let mut cut = 0;
    for (path, text) in &sources.parsed {
        let file = front.parse(path, text.clone());
        if same_as_whole(&file, 1) {
            cut += 1;
        } else {
            assert!(
                file.whole_tree().root_node().has_error(),
                "{} was not cut",
                path.display()
            );
        }
    }
    (cut, sources.parsed.len())
}

#[test]
fn chunks_have_the_whole_trees_items_on_gzip() {
    let (cut, files) = cut_files(&setup_support::gzip_dir());
    assert!(files >= 12 && cut == files, "{cut} of {files} files cut");
}

#[test]
fn chunks_have_the_whole_trees_items_on_dcraw() {
    // dcraw.c's whole tree has errors (its problems are reported): it is
    // parsed whole, its four companions are cut.
    let (cut, files) = cut_files(&setup_support::dcraw_dir());
    assert!(files >= 5 && cut + 1 >= files, "{cut} of {files} files cut");
}
