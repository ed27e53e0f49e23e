//! The program being woven: its files, their current text and parse, the
//! pending edits, and the [`crate::engine::Host`] implementation over them.
//!
//! Invariant: every file's [`ParsedFile`] is the parse of its current text,
//! and pending edits refer to that text. [`Program::commit`] applies the
//! edits and re-parses, so selects after a commit see the edited program.
//! The [`Semantics`] of the files is built when first asked for and
//! dropped by a commit that changes text, so it always describes the files
//! as they are.

mod host;
mod load;
mod perform;

use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::c::{FrontEnd, ParsedFile};
use crate::edit::EditSet;
use crate::engine::HostError;
use crate::sema::Semantics;

/// The files being woven, with their pending edits.
pub struct Program {
    front: FrontEnd,
    files: Vec<ParsedFile>,
    /// Text each file had when the program was built.
    originals: Vec<Arc<str>>,
    /// Edits waiting for [`Program::commit`], one set per file.
    pending: Vec<Option<EditSet>>,
    /// Places transformation passes deliberately left alone.
    skipped: Vec<String>,
    /// Where project headers are looked for: the directories of the files,
    /// then the directories added with [`Program::add_include_dirs`].
    include_dirs: Vec<PathBuf>,
    /// Semantics of `files`, built on first use.
    sema: OnceCell<Semantics>,
    /// Each file's stable name, the `file` attribute: its path relative to
    /// the input directory it was found in, so that names (and the range
    /// entries aspects derive from them) do not depend on where the program
    /// is checked out or how its path was typed.
    units: Vec<String>,
}

impl Program {
    /// Builds the program from `(path, text)` pairs parsed by `front`; paths
    /// are kept as given and name the files in diagnostics.
    pub fn new(front: FrontEnd, sources: impl IntoIterator<Item = (PathBuf, String)>) -> Program {
        let files: Vec<ParsedFile> = sources
            .into_iter()
            .map(|(path, text)| front.parse(&path, Arc::from(text)))
            .collect();
        let mut include_dirs: Vec<PathBuf> = Vec::new();
        for dir in files.iter().map(|f| f.path.parent().unwrap_or(Path::new("."))) {
            if !include_dirs.iter().any(|d| d == dir) {
                include_dirs.push(dir.to_path_buf());
            }
        }
        Program {
            front,
            units: files.iter().map(|f| f.path.display().to_string()).collect(),
            skipped: Vec::new(),
            originals: files.iter().map(|f| Arc::clone(&f.text)).collect(),
            pending: files.iter().map(|_| None).collect(),
            files,
            include_dirs,
            sema: OnceCell::new(),
        }
    }

    /// Adds directories searched for `#include "…"` headers (`-I`), after
    /// the directories of the program's files.
    pub fn add_include_dirs(&mut self, dirs: &[PathBuf]) {
        self.include_dirs.extend(dirs.iter().cloned());
        self.sema = OnceCell::new();
    }

    /// The semantics of the files as they are now (pending edits not
    /// applied), built on first use; headers are parsed by the program's
    /// front end so that their macros are understood.
    pub fn semantics(&self) -> &Semantics {
        self.sema.get_or_init(|| {
            let parse = |path: &Path, text: Arc<str>| self.front.parse(path, text);
            Semantics::build_with(&self.files, &self.include_dirs, &parse)
        })
    }

    /// The files as they are now (pending edits not yet applied).
    pub fn files(&self) -> &[ParsedFile] {
        &self.files
    }

    /// True when file `index`'s current text differs from its original.
    pub fn is_changed(&self, index: usize) -> bool {
        self.files
            .get(index)
            .is_some_and(|f| f.text != self.originals[index])
    }

    /// The pending edits of file `index`, created on first use.
    fn edits_of(&mut self, index: usize) -> &mut EditSet {
        let file = &self.files[index];
        self.pending[index].get_or_insert_with(|| EditSet::new(file.path.clone(), Arc::clone(&file.text)))
    }

    /// Applies every pending edit and re-parses the files that changed
    /// (incrementally: most of a woven file is as it was).
    pub fn commit(&mut self) -> Result<(), HostError> {
        for (file, pending) in self.files.iter_mut().zip(self.pending.iter_mut()) {
            let Some(set) = pending.take() else { continue };
            let text = set.apply();
            if *text != *file.text {
                *file = self.front.reparse(file, Arc::from(text));
                self.sema = OnceCell::new();
            }
        }
        Ok(())
    }

    /// The current text of every file the weave changed, keyed by path.
    pub fn woven(&self) -> HashMap<PathBuf, String> {
        self.files
            .iter()
            .enumerate()
            .filter(|(i, _)| self.is_changed(*i))
            .map(|(_, f)| (f.path.clone(), f.text.to_string()))
            .collect()
    }

    /// Places transformation passes left alone (`file:line: reason`), in
    /// the order they were met.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}
