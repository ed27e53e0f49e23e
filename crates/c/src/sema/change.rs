//! How a program file changed since its semantics were built, as far as
//! [`super::Semantics::update`] needs to know.

use super::shift::ViewShift;

/// How one program file changed since the semantics were built or last
/// updated.
#[derive(Debug, Clone, Default)]
pub enum FileChange {
    /// Not at all.
    #[default]
    Unchanged,
    /// By edits that keep its declarations (expressions rewritten into
    /// expressions that declare nothing, see
    /// `keeps_declarations` in the transforms), spliced into its view as
    /// `ViewShift` says: its symbols can be moved instead of walked again.
    Shifted(ViewShift),
    /// In any other way: it must be walked again.
    Rewritten,
}

impl FileChange {
    /// The change made by `self` followed by `next`. Two shifts in a row
    /// are not composed (the semantics are updated before each pass that
    /// reads them, so one shift is all a file meets between updates).
    pub fn then(self, next: FileChange) -> FileChange {
        match (self, next) {
            (change, FileChange::Unchanged) => change,
            (FileChange::Unchanged, change) => change,
            _ => FileChange::Rewritten,
        }
    }

    /// True unless the file is unchanged.
    pub fn is_changed(&self) -> bool {
        !matches!(self, FileChange::Unchanged)
    }
}
