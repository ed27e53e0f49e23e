//! Building a [`Program`] from files on disk with the macro-aware front end.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Program;
use crate::output::{Entry, EntryKind};
use weft_c::{FrontEnd, MacroTable};

impl Program {
    /// Loads the files of `entries` selected for weaving, parsed with macros
    /// learned from every .c and .h file of `entries` (and from `macro_file`, whose
    /// definitions win). A file that is not UTF-8 cannot be parsed: it is
    /// reported on stderr and left out (so it is copied unchanged).
    pub fn load(entries: &[Entry], macro_file: Option<&Path>) -> anyhow::Result<Program> {
        let mut sources = Vec::new();
        for entry in entries {
            let EntryKind::File { weave } = entry.kind else {
                continue;
            };
            let path = &entry.source;
            let is_c = matches!(path.extension().and_then(|e| e.to_str()), Some("c" | "h"));
            if !weave && !is_c {
                continue;
            }
            let bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
            weft_c::check_size(path, bytes.len())?;
            match String::from_utf8(bytes) {
                Ok(text) => sources.push((path, weave, text, unit_name(&entry.dest))),
                Err(_) => eprintln!(
                    "warning: `{}` is not UTF-8; copied without weaving",
                    path.display()
                ),
            }
        }
        let beside = headers_beside(sources.iter().filter(|s| s.1).map(|s| s.0.as_path()), &sources);
        let mut macros = MacroTable::learn(
            sources
                .iter()
                .map(|(p, _, t, _)| (p.as_path(), t.as_str()))
                .chain(beside.iter().map(|(p, t)| (p.as_path(), t.as_str()))),
        );
        if let Some(file) = macro_file {
            macros.add_macro_file(file)?;
        }
        let woven: Vec<_> = sources.into_iter().filter(|(_, weave, _, _)| *weave).collect();
        let units = woven.iter().map(|(_, _, _, unit)| unit.clone()).collect();
        let mut program = Program::new(
            FrontEnd::new(macros),
            woven.into_iter().map(|(path, _, text, _)| (path.clone(), text)),
        );
        program.units = units;
        Ok(program)
    }

    /// The stable name of the file at `index` (its `file` attribute).
    pub fn unit(&self, index: usize) -> Option<&str> {
        self.units.get(index).map(String::as_str)
    }
}

/// The headers in the directories of `woven` files that are not among
/// `sources` (a file given by itself), read for their macros only: the
/// front end then understands `file.c` given alone as it does when its
/// whole directory is given.
fn headers_beside<'a>(
    woven: impl Iterator<Item = &'a Path>,
    sources: &[(&PathBuf, bool, String, String)],
) -> Vec<(PathBuf, String)> {
    let known: HashSet<&Path> = sources.iter().map(|s| s.0.as_path()).collect();
    let mut dirs: Vec<&Path> = woven.map(|p| p.parent().unwrap_or(Path::new("."))).collect();
    dirs.sort();
    dirs.dedup();
    let mut found: Vec<PathBuf> = dirs
        .iter()
        .map(|d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        })
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
        .filter(|p| p.extension().is_some_and(|e| e == "h") && !known.contains(p.as_path()))
        .collect();
    found.sort();
    found.dedup();
    found
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect()
}

/// A file's name relative to the input it was found in: `dest` is relative
/// to the output directory and starts with the input's own name when the
/// input is a directory (`gzip-1.12/gzip.c` → `gzip.c`); a file given
/// directly is named by its file name.
fn unit_name(dest: &Path) -> String {
    let mut parts = dest.components();
    let rest = parts.clone().skip(1);
    if rest.clone().next().is_some() {
        parts.next();
    }
    parts.as_path().to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::unit_name;
    use std::path::Path;

    #[test]
    fn unit_names_are_relative_to_the_input() {
        assert_eq!(unit_name(Path::new("gzip-1.12/gzip.c")), "gzip.c");
        assert_eq!(unit_name(Path::new("tree/lib/xalloc.c")), "lib/xalloc.c");
        assert_eq!(unit_name(Path::new("main.c")), "main.c");
    }
}
