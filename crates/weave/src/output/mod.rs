//! Writing the woven tree: mirroring input directories, atomic output, diffs.
//!
//! Finding and printing are separate: [`scan`] lists what the inputs hold
//! and which C files are woven; the program is woven elsewhere; [`write_tree`]
//! or [`unified_diff`] present the result.
//!
//! Invariants: a file whose text did not change is copied with its bytes,
//! mode and modification time (so build systems that compare timestamps see
//! the same tree); symbolic links are copied as links; the output directory
//! appears complete or not at all, and only where it may replace what is
//! there ([`check_claim`]).

mod claim;
mod diff;
mod mirror;
mod write;

pub use claim::{MARKER, check_claim, mark};
pub use diff::unified_diff;
pub use mirror::{Entry, EntryKind, Selection, scan};
pub use write::write_tree;
