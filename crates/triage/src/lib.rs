//! Patch triage: run every revision of a meta program on the same inputs,
//! group the revisions by what they do, and build the decision tree of
//! questions ("on this input, which output is right?") that tells the
//! groups apart.
//!
//! The steps, one module each: [`inputs`] and [`revisions`] say what to
//! run, [`observe`] runs it (through `weft_run::execute`) into a
//! [`table::Table`], [`classes`] groups revisions that behave the same and
//! measures the groups against a truth, [`tree`] chooses the questions,
//! [`report`] gathers the findings, [`questions`] and [`print`] show them,
//! [`ask`] asks the questions, and [`fuzz`] looks for inputs telling
//! apart revisions the given inputs leave in one class.

pub mod ask;
pub mod classes;
pub mod fuzz;
pub mod inputs;
pub mod observe;
pub mod print;
pub mod questions;
pub mod report;
pub mod revisions;
pub mod stdin_test;
pub mod table;
pub mod tree;

#[cfg(test)]
mod fixture;

/// Everything found in `table` (made by running `command`): its classes,
/// their tree and, given a truth, its purity.
pub fn analyse(
    command: &[String],
    table: &table::Table,
    truth: Option<&classes::Truth>,
) -> anyhow::Result<report::Report> {
    let classes = classes::classes(table);
    let tree = tree::build(&classes);
    let purity = truth.map(|t| classes::purity(&classes, t)).transpose()?;
    Ok(report::Report::new(
        command,
        table,
        &classes,
        &tree,
        truth.zip(purity.as_ref()),
    ))
}
