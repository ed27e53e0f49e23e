//! What the input paths hold and where each entry goes in the output.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};
use globset::{Glob, GlobSet, GlobSetBuilder};

/// Which C files are woven: those matching an include glob (default `*.c`)
/// and no exclude glob. Globs match the path relative to the input
/// directory it was found in (`lib/*.c`), or a file input's name.
pub struct Selection {
    include: GlobSet,
    exclude: GlobSet,
}

impl Selection {
    /// Builds the selection; an invalid glob is an error naming it.
    pub fn new(include: &[String], exclude: &[String]) -> anyhow::Result<Selection> {
        let default = ["*.c".to_string()];
        let include = if include.is_empty() { &default[..] } else { include };
        Ok(Selection {
            include: glob_set(include)?,
            exclude: glob_set(exclude)?,
        })
    }

    /// Is the file at `relative` (as described above) woven?
    pub fn weaves(&self, relative: &Path) -> bool {
        self.include.is_match(relative) && !self.exclude.is_match(relative)
    }
}

fn glob_set(globs: &[String]) -> anyhow::Result<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        builder.add(Glob::new(g).with_context(|| format!("invalid glob `{g}`"))?);
    }
    Ok(builder.build()?)
}

/// What an entry of the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Dir,
    /// A regular file; `weave` when the selection chose it.
    File {
        weave: bool,
    },
    Symlink,
}

/// One entry of the input, and where it goes in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path as found from the input path given (used to read it, and to
    /// name woven files in diagnostics).
    pub source: PathBuf,
    /// Path relative to the output directory.
    pub dest: PathBuf,
    pub kind: EntryKind,
}

/// Lists the inputs. Each input path appears in the output under its own
/// name (`src/` → `DIR/src/`, `a.c` → `DIR/a.c`). Directories are listed
/// before their contents, in a stable (sorted) order; links inside them are
/// not followed.
pub fn scan(inputs: &[PathBuf], selection: &Selection) -> anyhow::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    let mut names = std::collections::HashSet::new();
    for input in inputs {
        let name = output_name(input)?;
        if !names.insert(name.clone()) {
            bail!("two inputs would both be written to `{}`", name.display());
        }
        let meta =
            std::fs::metadata(input).with_context(|| format!("cannot read input `{}`", input.display()))?;
        if !meta.is_dir() && !meta.is_file() {
            bail!(
                "input `{}` is neither a file nor a directory (a pipe or a device: standard input, say); \
                 save the C to a .c file and give that",
                input.display()
            );
        }
        if meta.is_file() {
            let weave = selection.weaves(&name);
            entries.push(Entry {
                source: input.clone(),
                dest: name,
                kind: EntryKind::File { weave },
            });
            continue;
        }
        for item in walkdir::WalkDir::new(input).sort_by_file_name() {
            let item = item.with_context(|| format!("cannot walk `{}`", input.display()))?;
            let relative = item.path().strip_prefix(input).unwrap_or(item.path());
            let ft = item.file_type();
            let kind = if item.path_is_symlink() && item.depth() > 0 {
                EntryKind::Symlink
            } else if ft.is_dir() {
                EntryKind::Dir
            } else if ft.is_file() {
                EntryKind::File {
                    weave: selection.weaves(relative),
                }
            } else {
                bail!(
                    "`{}` is neither a file, a directory nor a link; cannot mirror it",
                    item.path().display()
                );
            };
            entries.push(Entry {
                source: item.path().to_path_buf(),
                dest: name.join(relative),
                kind,
            });
        }
    }
    Ok(entries)
}

/// The name an input gets in the output: its last component, resolved for
/// `.` and `..`.
fn output_name(input: &Path) -> anyhow::Result<PathBuf> {
    let named = match input.components().next_back() {
        Some(Component::Normal(n)) => Some(PathBuf::from(n)),
        _ => None,
    };
    if let Some(n) = named {
        return Ok(n);
    }
    let resolved = input
        .canonicalize()
        .with_context(|| format!("cannot read input `{}`", input.display()))?;
    match resolved.file_name() {
        Some(n) => Ok(PathBuf::from(n)),
        None => bail!("cannot mirror the root directory `{}`", input.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_selection_weaves_c_files_anywhere() {
        let s = Selection::new(&[], &["lib/*".into()]).unwrap();
        assert!(s.weaves(Path::new("gzip.c")));
        assert!(s.weaves(Path::new("src/x.c")));
        assert!(!s.weaves(Path::new("lib/x.c")));
        assert!(!s.weaves(Path::new("gzip.h")));
        assert!(Selection::new(&["[".into()], &[]).is_err());
    }

    #[test]
    fn inputs_are_named_by_their_last_component() {
        assert_eq!(output_name(Path::new("a/b/src")).unwrap(), PathBuf::from("src"));
        assert_eq!(output_name(Path::new("x.c")).unwrap(), PathBuf::from("x.c"));
    }
}
