//! What every monitor's aspect API shares: script values as text, and a
//! woven file's unit text looked up by the file's name.

use std::collections::BTreeMap;

use rhai::Dynamic;

use crate::monitor::UnitText;

/// A script value as text; `()` (an attribute without a value) is none.
pub fn optional_text(value: &Dynamic) -> Option<String> {
    (!value.is_unit()).then(|| value.to_string())
}

/// A script value as text; `()` is the empty text.
pub fn text(value: &Dynamic) -> String {
    optional_text(value).unwrap_or_default()
}

/// `part` (`UnitText::prelude` or `epilogue`) of the unit woven from
/// `file`; "" for a file nothing of which is monitored.
pub fn unit_text<U: UnitText>(units: &BTreeMap<String, U>, file: &str, part: fn(&U) -> String) -> String {
    units.get(file).map(part).unwrap_or_default()
}
