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
    let mut found = Vec::new();
    // One cursor over the whole tree, in source order: a cursor per node
    // costs more than the walk itself.
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if node.kind() == "preproc_include" {
            let quoted = node
                .child_by_field_name("path")
                .filter(|p| p.kind() == "string_literal")
                .and_then(|p| view.get(p.byte_range()));
            if let Some(name) = quoted.map(|q| q.trim_matches('"'))
                && let Some(path) = resolve(including, name, include_dirs)
            {
                found.push(path);
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    found
}

fn resolve(including: &Path, name: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let here = including.parent().unwrap_or(Path::new("."));
    std::iter::once(here)
        .chain(include_dirs.iter().map(PathBuf::as_path))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .map(|p| p.canonicalize().unwrap_or(p))
}
