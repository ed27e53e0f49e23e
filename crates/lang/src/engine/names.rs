//! Checking the join point kinds and attribute names an aspect writes
//! against the catalogue, with the closest valid name as a hint.

use crate::aspect::ast::{Chain, Name};
use crate::diag::Diagnostic;
use crate::model::catalogue;

/// Errors for the unknown kinds and filter attributes of `chain`.
pub fn check_chain(chain: &Chain) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for (i, step) in chain.steps.iter().enumerate() {
        // `program` is the root, selected by starting a chain with it.
        let root = i == 0 && step.kind.name == "program";
        if !root && catalogue::kind(&step.kind.name).is_none() {
            let hint = catalogue::suggest(catalogue::kind_names(), &step.kind.name);
            errors.push(unknown(&step.kind, "join point", hint));
        }
        errors.extend(step.filter.iter().filter_map(|c| check_attribute(&c.attribute)));
    }
    errors
}

/// An error if no join point kind has an attribute called `name`.
pub fn check_attribute(name: &Name) -> Option<Diagnostic> {
    if catalogue::attribute_names().any(|a| a == name.name) {
        return None;
    }
    let hint = catalogue::suggest(catalogue::attribute_names(), &name.name);
    Some(unknown(name, "attribute", hint))
}

/// "unknown WHAT `name`", with "did you mean" when there is a close name.
pub fn unknown(name: &Name, what: &str, hint: Option<&str>) -> Diagnostic {
    let d = Diagnostic::error(
        &name.span.file,
        name.span.range.clone(),
        format!("unknown {what} `{}`", name.name),
    );
    match hint {
        Some(h) => d.with_hint(format!("did you mean `{h}`?")),
        None => d,
    }
}
