//! The program being woven: its files, their current text and parse, the
//! pending edits, and the [`crate::engine::Host`] implementation over them.
//!
//! Invariant: every file's [`ParsedFile`] is the parse of its current text,
//! and pending edits refer to that text. [`Program::commit`] applies the
//! edits and re-parses, so selects after a commit see the edited program.

mod host;
mod load;
mod perform;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::c::{FrontEnd, ParsedFile};
use crate::edit::EditSet;
use crate::engine::HostError;

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
}

impl Program {
    /// Builds the program from `(path, text)` pairs parsed by `front`; paths
    /// are kept as given and name the files in diagnostics.
    pub fn new(front: FrontEnd, sources: impl IntoIterator<Item = (PathBuf, String)>) -> Program {
        let files: Vec<ParsedFile> = sources
            .into_iter()
            .map(|(path, text)| front.parse(&path, Arc::from(text)))
            .collect();
        Program {
            front,
            skipped: Vec::new(),
            originals: files.iter().map(|f| Arc::clone(&f.text)).collect(),
            pending: files.iter().map(|_| None).collect(),
            files,
        }
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

    /// Applies every pending edit and re-parses the files that changed.
    pub fn commit(&mut self) -> Result<(), HostError> {
        for (file, pending) in self.files.iter_mut().zip(self.pending.iter_mut()) {
            let Some(set) = pending.take() else { continue };
            let text = set.apply();
            if *text != *file.text {
                *file = self.front.parse(&file.path, Arc::from(text));
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
