//! Patch triage: run every revision of a meta program on the same inputs,
//! group the revisions by what they do, and build the decision tree of
//! questions ("on this input, which output is right?") that tells the
//! groups apart.
//!
//! The API, all at the crate root, in the order a triage uses it:
//! - what to run: [`parse_revisions`], [`inputs_from_dir`] and
//!   [`inputs_from_tests`] (each an [`Input`] from a [`Source`]), a test
//!   line fed on stdin ([`StdinTest`]) and the [`Aspect`] that records the
//!   compared values;
//! - running it: [`observe`] runs a [`Plan`] (through `weft_run::execute`)
//!   into [`Observed`] — a [`Table`] of what each revision did; [`Fuzz`]
//!   looks for inputs telling apart revisions left in one class;
//! - the finding: [`classes`] groups revisions that behave the same (each
//!   a [`Class`]),
//!   [`read_truth`] reads a [`Truth`] to measure them against, and
//!   [`analyse`] makes the whole [`Report`];
//! - showing and asking: [`summary_text`], [`markdown_report`] and the
//!   report's JSON ([`is_markdown_report`] and [`is_json_report`] recognise
//!   a saved report); [`ask`] asks the questions, [`conclusion`] words the
//!   [`Outcome`].
//!
//! Every module is private: the one-module-per-step layout is how the
//! crate is written, not how it is used.

mod ask;
mod classes;
mod fuzz;
mod inputs;
mod observe;
mod print;
mod questions;
mod report;
mod revisions;
mod stdin_test;
mod table;
mod tree;

pub use ask::{Outcome, ask, conclusion};
pub use classes::{Class, Truth, classes, read_truth};
pub use fuzz::Fuzz;
pub use inputs::{Input, Source, from_dir as inputs_from_dir, from_tests as inputs_from_tests};
pub use observe::{Observed, Plan, observe};
pub use print::{is_markdown_report, markdown as markdown_report, summary as summary_text};
pub use report::{Report, is_json_report};
pub use revisions::parse as parse_revisions;
pub use stdin_test::StdinTest;
pub use table::{Aspect, Table};

#[cfg(test)]
mod fixture;

/// Everything found in `table` (made by running `command`): its classes,
/// their tree and, given a truth, its purity.
pub fn analyse(command: &[String], table: &Table, truth: Option<&Truth>) -> anyhow::Result<Report> {
    let classes = classes::classes(table);
    let tree = tree::build(&classes);
    let purity = truth.map(|t| classes::purity(&classes, t)).transpose()?;
    Ok(Report::new(
        command,
        table,
        &classes,
        &tree,
        truth.zip(purity.as_ref()),
    ))
}
