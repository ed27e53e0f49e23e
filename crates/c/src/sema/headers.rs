//! Finding the project's own headers: `#include "…"` looked up relative to
//! the including file, then in the `-I` directories. `#include <…>` is the
//! system's business; its usual typedefs come from [`super::stdtypes`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tree_sitter::Node;

use crate::ParsedFile;

/// Where each `#include "name"` met in a directory leads, looked up on
/// disk once: the files of a program include the same headers, and every
/// update of the semantics reads a changed file's includes again.
#[derive(Default)]
pub struct IncludeCache(HashMap<(PathBuf, String), Option<PathBuf>>);

/// The project headers a file includes directly, in order, resolved to
/// existing paths. Includes inside `#if` branches count: weft does not
/// evaluate conditions, and a typedef seen in any branch is better than none.
pub fn direct_includes(
    file: &ParsedFile,
    include_dirs: &[PathBuf],
    cache: &mut IncludeCache,
) -> Vec<PathBuf> {
    let (including, view) = (file.path.as_path(), file.view.as_str());
    // tree-sitter-c's include directive token is `#[ \t]*include`, first
    // on its line, and such lines are few: look each up in the tree
    // instead of walking all of it.
    let mut found = Vec::new();
    for (word, _) in view.match_indices("include") {
        let line_start = weft_text::line_start(view, word);
        let before = &view[line_start..word];
        let directive = before.trim_start();
        let is_directive = directive
            .strip_prefix('#')
            .is_some_and(|gap| gap.trim_start_matches([' ', '\t']).is_empty());
        if !is_directive {
            continue;
        }
        let hash = line_start + (before.len() - directive.len());
        let tree = file.tree_at(hash);
        let Some(include) = enclosing(tree.root_node(), hash, "preproc_include") else {
            continue;
        };
        let quoted = include
            .child_by_field_name("path")
            .filter(|p| p.kind() == "string_literal")
            .and_then(|p| view.get(p.byte_range()));
        if let Some(name) = quoted.map(|q| q.trim_matches('"')) {
            let here = including.parent().unwrap_or(Path::new("."));
            let path = cache
                .0
                .entry((here.to_path_buf(), name.to_string()))
                .or_insert_with(|| resolve(here, name, include_dirs));
            if let Some(path) = path {
                found.push(path.clone());
            }
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

fn resolve(here: &Path, name: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    std::iter::once(here)
        .chain(include_dirs.iter().map(PathBuf::as_path))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .map(|p| p.canonicalize().unwrap_or(p))
}
