//! Finding a project's C files and learning its macros from them.

use super::lexer::MAX_TEXT;
use super::{FrontEnd, MacroTable};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use walkdir::WalkDir;

/// The C files of a project: those to parse, and every file macros are
/// learned from (the parsed ones plus the headers found with them).
#[derive(Debug, Default)]
pub struct Sources {
    /// Files to parse, sorted.
    pub parsed: Vec<(PathBuf, Arc<str>)>,
    /// Headers read only for their macros.
    pub headers: Vec<(PathBuf, Arc<str>)>,
    /// Files that are not UTF-8 (reported, not parsed).
    pub unreadable: Vec<PathBuf>,
}

fn is_ext(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e == ext)
}

impl Sources {
    /// Collects `.c` files (and `.h` too when `parse_headers`) under each
    /// path; a directory is walked, a file's own directory gives headers.
    pub fn collect(paths: &[PathBuf], parse_headers: bool) -> anyhow::Result<Sources> {
        let mut files: Vec<PathBuf> = Vec::new();
        for p in paths {
            if p.is_dir() {
                for entry in WalkDir::new(p).sort_by_file_name() {
                    let entry = entry.with_context(|| format!("walking {}", p.display()))?;
                    if entry.file_type().is_file() && (is_ext(entry.path(), "c") || is_ext(entry.path(), "h"))
                    {
                        files.push(entry.into_path());
                    }
                }
            } else {
                anyhow::ensure!(p.is_file(), "{}: no such file or directory", p.display());
                files.push(p.clone());
                let dir = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
                    let path = entry?.path();
                    if is_ext(&path, "h") && path.is_file() {
                        files.push(path);
                    }
                }
            }
        }
        files.sort();
        files.dedup();
        let mut sources = Sources::default();
        for path in files {
            let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
            check_size(&path, bytes.len())?;
            let Ok(text) = String::from_utf8(bytes) else {
                sources.unreadable.push(path);
                continue;
            };
            let parse = is_ext(&path, "c") || (parse_headers && is_ext(&path, "h"));
            let named = paths.iter().any(|p| p == &path);
            let list = if parse || named {
                &mut sources.parsed
            } else {
                &mut sources.headers
            };
            list.push((path, Arc::from(text)));
        }
        Ok(sources)
    }

    /// A front end that knows the macros of every collected file, plus
    /// those of `macro_file`.
    pub fn front_end(&self, macro_file: Option<&Path>) -> anyhow::Result<FrontEnd> {
        let all = self.parsed.iter().chain(&self.headers);
        let mut macros = MacroTable::learn(all.map(|(p, t)| (p.as_path(), &**t)));
        if let Some(f) = macro_file {
            macros.add_macro_file(f)?;
        }
        Ok(FrontEnd::new(macros))
    }
}

/// Refuses a C file longer than the front end reads ([`MAX_TEXT`]: its
/// tokens' offsets are 32-bit).
pub fn check_size(path: &Path, len: usize) -> anyhow::Result<()> {
    if len > MAX_TEXT {
        anyhow::bail!(
            "`{}` is {len} bytes long; weft parses C files of at most {MAX_TEXT} bytes",
            path.display()
        );
    }
    Ok(())
}
