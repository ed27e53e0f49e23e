//! The program being woven: its files, their current text and parse, the
//! pending edits, and the [`weft_lang::engine::Host`] implementation over them.
//!
//! Invariant: pending edits refer to the parse in `files`. [`Program::commit`]
//! applies them and keeps the new text unparsed until something looks at
//! the files again (a select, an attribute, an insert), so the commit that
//! ends an aspect, whose parse nobody would read, costs no parse; selects
//! after a commit still see the edited program.
//! The [`Semantics`] of the files is built when first asked for; after a
//! commit only the files it changed are walked again, so it always
//! describes the files as they are. A file whose committed edits all came
//! from passes that keep declarations
//! ([`crate::transform::keeps_declarations`]) and were spliced into its
//! view is not walked: its symbols are shifted through the view edits.

mod alternatives;
mod host;
mod load;
mod perform;
mod pipeline;
mod recurrence;

pub use pipeline::{PassReport, transform_text};
pub use recurrence::{Integers, LoopAnalysis, LoopFinding, is_recurrence_attribute};

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::edit::{Edit, EditSet};
use weft_c::sema::{FileChange, Semantics, ViewShift};
use weft_c::{FrontEnd, ParsedFile};

/// The files being woven, with their pending edits. The default is the
/// empty program.
#[derive(Default)]
pub struct Program {
    front: FrontEnd,
    files: Vec<ParsedFile>,
    /// Text each file had when the program was built.
    originals: Vec<Arc<str>>,
    /// Edits waiting for [`Program::commit`], one set per file.
    pending: Vec<Option<Pending>>,
    /// Committed text not parsed yet, with the edits that made it from
    /// the text of `files`.
    unparsed: Vec<Option<Committed>>,
    /// Places transformation passes deliberately left alone.
    skipped: Vec<String>,
    /// Where project headers are looked for: the directories of the files,
    /// then the directories added with [`Program::add_include_dirs`].
    include_dirs: Vec<PathBuf>,
    /// Semantics of the parsed files, built on first use.
    sema: Option<Semantics>,
    /// How each file changed since `sema` was built: applied when next
    /// asked.
    sema_changes: Vec<FileChange>,
    /// Each file's stable name, the `file` attribute: its path relative to
    /// the input directory it was found in, so that names (and the range
    /// entries aspects derive from them) do not depend on where the program
    /// is checked out or how its path was typed.
    units: Vec<String>,
    /// What answers the `src` attributes of loops, when installed.
    loop_analysis: Option<Arc<dyn LoopAnalysis>>,
    /// Its findings, per file and integer semantics.
    recurrences: Vec<recurrence::Cached>,
    /// What the front end's first reading of each file left unread, for
    /// the alternative passes (`alternatives.rs`).
    readings: Vec<alternatives::FirstReading>,
}

impl Program {
    /// Builds the program from `(path, text)` pairs parsed by `front`; paths
    /// are kept as given and name the files in diagnostics.
    pub fn new(front: FrontEnd, sources: impl IntoIterator<Item = (PathBuf, String)>) -> Program {
        // Files parse independently: one per core.
        let sources: Vec<(PathBuf, String)> = sources.into_iter().collect();
        let files: Vec<ParsedFile> = sources
            .into_par_iter()
            .map(|(path, text)| front.parse(&path, Arc::from(text)))
            .collect();
        let mut include_dirs: Vec<PathBuf> = Vec::new();
        for dir in files.iter().map(|f| f.path.parent().unwrap_or(Path::new("."))) {
            if !include_dirs.iter().any(|d| d == dir) {
                include_dirs.push(dir.to_path_buf());
            }
        }
        let readings = files.iter().map(alternatives::FirstReading::of).collect();
        Program {
            front,
            units: files.iter().map(|f| f.path.display().to_string()).collect(),
            skipped: Vec::new(),
            originals: files.iter().map(|f| Arc::clone(&f.text)).collect(),
            pending: files.iter().map(|_| None).collect(),
            unparsed: files.iter().map(|_| None).collect(),
            sema_changes: files.iter().map(|_| FileChange::Unchanged).collect(),
            files,
            include_dirs,
            sema: None,
            loop_analysis: None,
            recurrences: Vec::new(),
            readings,
        }
    }

    /// The front end the program's files are parsed with.
    pub fn front_end(&self) -> &FrontEnd {
        &self.front
    }

    /// Adds directories searched for `#include "…"` headers (`-I`), after
    /// the directories of the program's files.
    pub fn add_include_dirs(&mut self, dirs: &[PathBuf]) {
        self.include_dirs.extend(dirs.iter().cloned());
        self.sema = None;
    }

    /// The semantics of the files as they are now (pending edits not
    /// applied), built on first use; headers are parsed by the program's
    /// front end so that their macros are understood.
    pub fn semantics(&mut self) -> &Semantics {
        self.with_semantics().1
    }

    /// The files as they are now (pending edits not applied) and their
    /// semantics, for an analysis that needs both.
    pub fn with_semantics(&mut self) -> (&[ParsedFile], &Semantics) {
        self.parse_committed();
        let front = &self.front;
        let parse = |path: &Path, text: Arc<str>| front.parse(path, text);
        let sema = match self.sema.take() {
            Some(sema) if self.sema_changes.iter().any(FileChange::is_changed) => {
                sema.update(&self.files, &self.sema_changes, &self.include_dirs, &parse)
            }
            Some(sema) => sema,
            None => Semantics::build_with(&self.files, &self.include_dirs, &parse),
        };
        self.sema_changes.fill_with(FileChange::default);
        (&self.files, self.sema.insert(sema))
    }

    /// The files as they are now (pending edits not yet applied).
    pub fn files(&mut self) -> &[ParsedFile] {
        self.parse_committed();
        &self.files
    }

    /// The current text of file `index` (pending edits not applied).
    pub fn text(&self, index: usize) -> &Arc<str> {
        match &self.unparsed[index] {
            Some(committed) => &committed.text,
            None => &self.files[index].text,
        }
    }

    /// True when file `index`'s current text differs from its original.
    pub fn is_changed(&self, index: usize) -> bool {
        index < self.files.len() && *self.text(index) != self.originals[index]
    }

    /// The pending edits of file `index`, created on first use, for edits
    /// that keep the file's declarations (`keeps_declarations`, see
    /// [`Pending`]) or not.
    fn edits_of(&mut self, index: usize, keeps_declarations: bool) -> &mut EditSet {
        self.parse_committed();
        let file = &self.files[index];
        let pending = self.pending[index].get_or_insert_with(|| Pending {
            set: EditSet::new(file.path.clone(), Arc::clone(&file.text)),
            keeps_declarations: true,
        });
        pending.keeps_declarations &= keeps_declarations;
        &mut pending.set
    }

    /// Applies every pending edit; the changed files are parsed when next
    /// looked at. With nothing pending it does nothing: the text committed
    /// before stays unparsed (a weave's last apply commits, and the caller
    /// committing again to be sure must not cost a parse of every changed
    /// file).
    pub fn commit(&mut self) {
        if self.pending.iter().all(Option::is_none) {
            return;
        }
        // Pending edits were made against parsed files (see `edits_of`).
        self.parse_committed();
        for (i, pending) in self.pending.iter_mut().enumerate() {
            let Some(Pending {
                mut set,
                keeps_declarations,
            }) = pending.take()
            else {
                continue;
            };
            // What a large file holds and the pending set go before the
            // woven text is copied into its shared string: at the commit
            // they were the weave's peak of memory.
            // The set stays as it is (a few dozen bytes an edit) until the
            // file is parsed again, which wants its splices; a weave's last
            // commit never makes them.
            self.files[i].let_go_of_trees();
            set.settle();
            let text = set.apply();
            if *text != *self.files[i].text {
                self.unparsed[i] = Some(Committed {
                    text: Arc::from(text),
                    edits: CommittedEdits::Set(set),
                    keeps_declarations,
                });
            }
        }
    }

    /// Parses the committed text of every file that has some (incrementally:
    /// most of a woven file is as it was), noting how each one changed for
    /// the semantics.
    fn parse_committed(&mut self) {
        if self.unparsed.iter().all(Option::is_none) {
            return;
        }
        let front = &self.front;
        self.files
            .par_iter_mut()
            .zip(self.unparsed.par_iter_mut())
            .zip(self.sema_changes.par_iter_mut())
            .for_each(|((file, unparsed), change)| {
                let Some(committed) = unparsed.take() else {
                    return;
                };
                let edits = committed.edits.into_splices();
                let reparsed = front.reparse_edited(file, &edits, committed.text);
                // Without view edits (the whole front end ran) the view may
                // differ anywhere: only a walk can tell what it declares.
                let now = match reparsed.view_edits {
                    Some(edits) if committed.keeps_declarations => {
                        FileChange::Shifted(ViewShift::new(&file.view, &edits))
                    }
                    _ => FileChange::Rewritten,
                };
                *change = std::mem::take(change).then(now);
                *file = reparsed.file;
            });
    }

    /// Every file the weave changed, in the program's order: path,
    /// original text and current text (nothing is parsed).
    pub fn changes(&self) -> impl Iterator<Item = (&Path, &str, &str)> {
        (0..self.files.len())
            .filter(|&i| self.is_changed(i))
            .map(|i| (self.files[i].path.as_path(), &*self.originals[i], &**self.text(i)))
    }

    /// The current text of every file the weave changed, keyed by path
    /// (shared, not copied: a large file's woven text is megabytes).
    pub fn woven(&self) -> HashMap<PathBuf, Arc<str>> {
        (0..self.files.len())
            .filter(|&i| self.is_changed(i))
            .map(|i| (self.files[i].path.clone(), Arc::clone(self.text(i))))
            .collect()
    }

    /// Places transformation passes left alone (`file:line: reason`), in
    /// the order they were met.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}

/// A file's edits waiting for the next commit.
struct Pending {
    set: EditSet,
    /// Every edit came from a pass that keeps declarations
    /// ([`crate::transform::keeps_declarations`]); an insert from an aspect
    /// or any other pass's edit clears it.
    keeps_declarations: bool,
}

/// The edits that made a committed text: a weave's, as the set they
/// were pending in, or splices made otherwise.
enum CommittedEdits {
    Set(EditSet),
    Splices(Vec<Edit>),
}

impl CommittedEdits {
    fn into_splices(self) -> Vec<Edit> {
        match self {
            CommittedEdits::Set(set) => set.into_splices(),
            CommittedEdits::Splices(splices) => splices,
        }
    }
}

/// A file's committed text and the edits that made it.
struct Committed {
    text: Arc<str>,
    edits: CommittedEdits,
    /// See [`Pending::keeps_declarations`].
    keeps_declarations: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_lang::engine::{Host, InsertAt};

    #[test]
    fn a_commit_with_nothing_pending_leaves_committed_text_unparsed() {
        let source = ("f.c".into(), "int f(void) {\n    return 1;\n}\n".to_string());
        let mut program = Program::new(FrontEnd::default(), [source]);
        let root = program.root();
        let function = program.select(&root, "function").unwrap().remove(0);
        let ret = program.select(&function, "return").unwrap().remove(0);
        program.insert(&ret, InsertAt::Before, "g();").unwrap();
        program.commit();
        assert!(program.unparsed[0].is_some());
        program.commit();
        assert!(program.unparsed[0].is_some(), "an empty commit parsed the file");
        assert!(program.files()[0].view.contains("g();\n    return 1;"));
        assert!(program.unparsed[0].is_none());
    }
}
