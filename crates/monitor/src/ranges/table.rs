//! The weaver's side of the runtime: one [`TableSpec`] per woven translation
//! unit collects the monitored variables and generates the C text.
//!
//! A woven unit gets three kinds of text:
//! - [`TableSpec::prelude`] at the very top of the file (before its first
//!   `#include`): the hot runtime part and the unit's table, no headers;
//! - [`TableSpec::update_stmt`] / [`TableSpec::update_expr`] at each
//!   monitored point;
//! - [`TableSpec::epilogue`] at the very end: the cold part (file creation,
//!   fork handling) and the entry names.
//!
//! The runtime is text inside every unit rather than a library or a header
//! beside it, so the woven tree builds with the program's unchanged build.

use super::key::{Key, Kind, ValueType};
use crate::c_text::{c_string, once_per_unit, unit_hooks, unit_stem};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The hot runtime part: slot layout and the typed update functions.
pub const RUNTIME_HOT: &str = include_str!("../../runtime/weft_ranges_hot.h");
/// The cold runtime part: the monitors' common record-file code, then the
/// range table's mapping and fork handling.
pub const RUNTIME_COLD: &str = concat!(
    include_str!("../../runtime/weft_out.h"),
    include_str!("../../runtime/weft_ranges_cold.h")
);

/// A handle on one table entry, returned by [`TableSpec::entry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    index: usize,
    value_type: ValueType,
}

impl Slot {
    /// The entry's position in its unit's table.
    pub fn index(self) -> usize {
        self.index
    }

    /// The type its values are recorded in.
    pub fn value_type(self) -> ValueType {
        self.value_type
    }
}

/// The range table of one woven translation unit.
#[derive(Debug, Clone)]
pub struct TableSpec {
    file: String,
    stem: String,
    entries: Vec<Key>,
    index: HashMap<Key, usize>,
}

impl TableSpec {
    /// An empty table for the unit at `file` (its path relative to the
    /// program's root: it becomes part of every entry's stable name).
    pub fn new(file: &str) -> TableSpec {
        TableSpec {
            file: file.to_string(),
            stem: unit_stem(file),
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The unit's path, as given to [`TableSpec::new`].
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The entries, in table order.
    pub fn entries(&self) -> &[Key] {
        &self.entries
    }

    /// The entry for a variable, added on first use: every point monitoring
    /// the same (kind, function, variable, type) shares one entry.
    pub fn entry(&mut self, kind: Kind, function: &str, variable: &str, value_type: ValueType) -> Slot {
        let key = Key {
            function: function.to_string(),
            variable: variable.to_string(),
            kind,
            file: self.file.clone(),
            value_type,
        };
        let next = self.entries.len();
        let index = *self.index.entry(key.clone()).or_insert(next);
        if index == next {
            self.entries.push(key);
        }
        Slot { index, value_type }
    }

    /// The C name of the pointer the updates go through.
    pub fn table_name(&self) -> String {
        format!("weft_ranges_{}", self.stem)
    }

    /// A C expression (of type `void`) recording the value of the C
    /// expression `value` in `slot`, e.g.
    /// `weft_range_update_i64(&weft_ranges_a_c[3], (long long)(x))`.
    /// `value` is evaluated exactly once.
    pub fn update_expr(&self, slot: Slot, value: &str) -> String {
        let (function, cast) = match slot.value_type {
            ValueType::I64 => ("weft_range_update_i64", "long long"),
            ValueType::U64 => ("weft_range_update_u64", "unsigned long long"),
            ValueType::F64 => ("weft_range_update_f64", "double"),
        };
        format!(
            "{function}(&{}[{}], ({cast})({value}))",
            self.table_name(),
            slot.index
        )
    }

    /// [`TableSpec::update_expr`] as a statement (with its `;`).
    pub fn update_stmt(&self, slot: Slot, value: &str) -> String {
        format!("{};", self.update_expr(slot, value))
    }

    /// The text for the very top of the woven file. Empty when the table has
    /// no entries: such a unit needs no runtime at all.
    pub fn prelude(&self) -> String {
        if self.entries.is_empty() {
            return String::new();
        }
        let table = self.table_name();
        // Every slot starts empty (`WEFT_EMPTY_*` of the hot part), even
        // before the constructor maps the record file.
        let empty: Vec<String> = self
            .entries
            .iter()
            .map(|key| format!("WEFT_EMPTY_{}", key.value_type.as_str().to_uppercase()))
            .collect();
        let own = format!(
            "static struct weft_slot weft_fallback_{stem}[{n}] = {{ {empty} }};\n\
             static struct weft_slot *{table} = weft_fallback_{stem};\n",
            stem = self.stem,
            n = self.entries.len(),
            empty = empty.join(", "),
        );
        format!("{RUNTIME_HOT}{}", once_per_unit("RANGES_TABLE", &self.stem, &own))
    }

    /// The text for the very end of the woven file. Empty when the table has
    /// no entries.
    pub fn epilogue(&self) -> String {
        if self.entries.is_empty() {
            return String::new();
        }
        let stem = &self.stem;
        let mut names = String::new();
        for key in &self.entries {
            let _ = writeln!(
                names,
                "    {}, {}, {}, {}, \"{}\",",
                c_string(key.kind.as_str()),
                c_string(&key.file),
                c_string(&key.function),
                c_string(&key.variable),
                key.value_type
            );
        }
        let own = format!(
            "static const char *const weft_names_{stem}[] = {{\n{names}}};\n\
             static struct weft_tu weft_tu_{stem} = {{\n    \"{stem}\", {n}, weft_names_{stem}, weft_fallback_{stem},\n    &{table}, 0, 0\n}};\n{hooks}",
            n = self.entries.len(),
            table = self.table_name(),
            hooks = unit_hooks(
                "weft",
                stem,
                &format!("weft_rt_attach(&weft_tu_{stem}, 1);"),
                &format!("weft_rt_attach(&weft_tu_{stem}, 0);"),
            ),
        );
        format!("\n{RUNTIME_COLD}{}", once_per_unit("RANGES_TU", stem, &own))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_shared_per_variable() {
        let mut t = TableSpec::new("src/a.c");
        let x = t.entry(Kind::Write, "f", "x", ValueType::I64);
        let y = t.entry(Kind::Write, "f", "y", ValueType::F64);
        assert_eq!(t.entry(Kind::Write, "f", "x", ValueType::I64), x);
        assert_ne!(t.entry(Kind::Param, "f", "x", ValueType::I64), x);
        assert_eq!((x.index(), y.index()), (0, 1));
        assert_eq!(t.entries().len(), 3);
        assert_eq!(
            t.update_stmt(y, "a + b"),
            "weft_range_update_f64(&weft_ranges_src_a_c[1], (double)(a + b));"
        );
        // Each slot starts as the empty slot of its type.
        assert!(
            t.prelude()
                .contains("weft_fallback_src_a_c[3] = { WEFT_EMPTY_I64, WEFT_EMPTY_F64, WEFT_EMPTY_I64 };")
        );
    }

    #[test]
    fn strings_are_escaped_for_c() {
        assert_eq!(c_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(c_string("??/"), "\"\\?\\?/\"");
        assert_eq!(c_string("é1"), "\"\\303\\2511\"");
    }

    #[test]
    fn an_empty_table_generates_nothing() {
        let t = TableSpec::new("");
        assert_eq!(t.prelude(), "");
        assert_eq!(t.epilogue(), "");
        assert_eq!(t.table_name(), "weft_ranges_unit");
    }
}
