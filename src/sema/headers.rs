//! Finding the project's own headers: `#include "…"` looked up relative to
//! the including file, then in the `-I` directories. `#include <…>` is the
//! system's business; its usual typedefs come from [`super::stdtypes`].

use std::path::{Path, PathBuf};

use tree_sitter::Node;

/// The project headers a file includes directly, in order, resolved to
/// existing paths. Includes inside `#if` branches count: weft does not
/// evaluate conditions, and a typedef seen in any branch is better than none.
pub fn direct_includes(
    including: &Path,
    view: &str,
    root: Node<'_>,
    include_dirs: &[PathBuf],
) -> Vec<PathBuf> {
    // Only lines starting with `#` can hold an include, and they are few:
    // look them up in the tree instead of walking all of it.
    let mut found = Vec::new();
    let mut line_start = 0;
    for line in view.split_inclusive('\n') {
        let hash = line_start + (line.len() - line.trim_start().len());
        line_start += line.len();
        if !line.trim_start().starts_with('#') {
            continue;
        }
        let Some(include) = enclosing(root, hash, "preproc_include") else {
            continue;
        };
        let quoted = include
            .child_by_field_name("path")
            .filter(|p| p.kind() == "string_literal")
            .and_then(|p| view.get(p.byte_range()));
        if let Some(name) = quoted.map(|q| q.trim_matches('"'))
            && let Some(path) = resolve(including, name, include_dirs)
        {
            found.push(path);
        }
    }
    found
}

/// The node of kind `kind` that starts at `offset` and holds it, if any.
fn enclosing<'t>(root: Node<'t>, offset: usize, kind: &str) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(offset, offset)?;
    loop {
        if node.kind() == kind {
            return (node.start_byte() == offset).then_some(node);
        }
        node = node.parent()?;
    }
}

fn resolve(including: &Path, name: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let here = including.parent().unwrap_or(Path::new("."));
    std::iter::once(here)
        .chain(include_dirs.iter().map(PathBuf::as_path))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .map(|p| p.canonicalize().unwrap_or(p))
}
