//! Loading an aspect file and, transitively, the files it imports.
//!
//! `import "path/to/other.lara";` names a file relative to the directory of
//! the importing file. Every file is loaded once, however often it is
//! imported (so import cycles are harmless), and aspect names must be unique
//! across the whole module.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ast::Module;
use super::parser::parse_file;
use crate::Limits;
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use crate::files::read_text;

/// Reads, parses and resolves the imports of the aspect file at `path`.
/// Each file read is bounded by the `file` limit of `limits`.
pub fn load(path: &Path, limits: &Limits) -> Result<Module, Diagnostics> {
    let text = read_text(path, limits.file_bytes)
        .map_err(|e| Diagnostic::bare(format!("cannot read {}: {e}", path.display())))?;
    load_source(SourceFile::new(path, text), limits)
}

/// Parses `entry` (already in memory) and loads the files it imports,
/// relative to `entry.path`.
pub fn load_source(entry: Arc<SourceFile>, limits: &Limits) -> Result<Module, Diagnostics> {
    let mut module = Module {
        files: Vec::new(),
        aspects: Vec::new(),
    };
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    seen.insert(identity(&entry.path));
    let mut queue = vec![entry];
    while !queue.is_empty() {
        let file = queue.remove(0);
        module.files.push(Arc::clone(&file));
        let parsed = match parse_file(&file) {
            Ok(parsed) => parsed,
            Err(mut e) => {
                errors.append(&mut e.0);
                continue;
            }
        };
        for (target, span) in parsed.imports {
            let path = file.path.parent().unwrap_or(Path::new("")).join(&target);
            if !seen.insert(identity(&path)) {
                continue;
            }
            match read_text(&path, limits.file_bytes) {
                Ok(text) => queue.push(SourceFile::new(path, text)),
                Err(e) => errors.push(
                    Diagnostic::error(&span.file, span.range, format!("cannot import `{target}`: {e}"))
                        .with_hint(format!("looked for {}", path.display())),
                ),
            }
        }
        module.aspects.extend(parsed.aspects);
    }
    let mut first: HashMap<&str, &super::ast::Name> = HashMap::new();
    for aspect in &module.aspects {
        if let Some(previous) = first.insert(&aspect.name.name, &aspect.name) {
            let (line, col) = previous.span.file.line_col(previous.span.range.start);
            let path = previous.span.file.path.display();
            errors.push(
                Diagnostic::error(
                    &aspect.name.span.file,
                    aspect.name.span.range.clone(),
                    format!("aspect `{}` is defined twice", aspect.name.name),
                )
                .with_hint(format!("first defined at {path}:{line}:{col}")),
            );
        }
    }
    if errors.is_empty() {
        Ok(module)
    } else {
        Err(Diagnostics(errors))
    }
}

/// The identity of a file for "already loaded": its canonical path when it
/// exists, else the path as given.
fn identity(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
