//! The bridge that lets aspects monitor value ranges: a rhai type
//! `RangeTables` holding one [`TableSpec`] per woven file, and counting the
//! join points the instrumenting aspects considered and advised (see
//! docs/strategies.md).
//!
//! ```text
//! let t = RangeTables();
//! var code = t.update("write", $var.file, $function.name, $var.name, $var.type, $var.name);
//! $var.insert after code;            // code is "" when the type is not monitorable
//! for f in t.files() { … t.prelude(f) … t.epilogue(f) … }
//! ```
//!
//! Clones share their tables (like `LaraObject`), so a table passed to a
//! called aspect keeps collecting for the caller.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use super::key::{Kind, ValueType};
use super::table::TableSpec;
use crate::script::{text, unit_text};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// A variable an aspect asked to monitor whose type has no value type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub kind: Kind,
    pub file: String,
    pub function: String,
    pub variable: String,
    /// The type as the aspect gave it; `None` when its declaration was not
    /// found.
    pub c_type: Option<String>,
}

#[derive(Debug, Default)]
struct Tables {
    by_file: BTreeMap<String, TableSpec>,
    skipped: Vec<Skipped>,
    /// Candidate join points the aspects considered (the report's
    /// "selected").
    considered: usize,
    /// Update statements handed out, one per instrumented join point (the
    /// report's "advised").
    advised: usize,
}

/// The range tables of one weave, one per file (rhai type `RangeTables`).
#[derive(Debug, Clone, Default)]
pub struct RangeTables {
    inner: Arc<Mutex<Tables>>,
}

impl RangeTables {
    fn lock(&self) -> MutexGuard<'_, Tables> {
        // A poisoned lock only means another script call panicked; the
        // tables themselves are still consistent.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The C statement recording `value` (a C expression) for `variable` of
    /// `function` in `file`, or `None` when `c_type` (`None`: unknown) has no
    /// value type; such variables are remembered in [`RangeTables::skipped`].
    pub fn update(
        &self,
        kind: Kind,
        file: &str,
        function: &str,
        variable: &str,
        c_type: Option<&str>,
        value: &str,
    ) -> Option<String> {
        let mut tables = self.lock();
        let Some(value_type) = c_type.and_then(ValueType::for_c_type) else {
            let skipped = Skipped {
                kind,
                file: file.to_string(),
                function: function.to_string(),
                variable: variable.to_string(),
                c_type: c_type.map(str::to_string),
            };
            if !tables.skipped.contains(&skipped) {
                tables.skipped.push(skipped);
            }
            return None;
        };
        tables.advised += 1;
        let table = tables
            .by_file
            .entry(file.to_string())
            .or_insert_with(|| TableSpec::new(file));
        let slot = table.entry(kind, function, variable, value_type);
        Some(table.update_stmt(slot, value))
    }

    /// Counts one candidate join point an aspect considered monitoring,
    /// whether or not it then asks for an update statement.
    pub fn consider(&self) {
        self.lock().considered += 1;
    }

    /// How many candidate join points were considered.
    pub fn considered(&self) -> usize {
        self.lock().considered
    }

    /// How many update statements [`RangeTables::update`] handed out: the
    /// join points instrumented.
    pub fn advised(&self) -> usize {
        self.lock().advised
    }

    /// The files with at least one entry, in path order.
    pub fn files(&self) -> Vec<String> {
        self.lock()
            .by_file
            .iter()
            .filter(|(_, t)| !t.entries().is_empty())
            .map(|(f, _)| f.clone())
            .collect()
    }

    /// The text for the top of `file` ("" when it has no entries).
    pub fn prelude(&self, file: &str) -> String {
        unit_text(&self.lock().by_file, file, TableSpec::prelude)
    }

    /// The text for the end of `file` ("" when it has no entries).
    pub fn epilogue(&self, file: &str) -> String {
        unit_text(&self.lock().by_file, file, TableSpec::epilogue)
    }

    /// How many entries all tables hold.
    pub fn total(&self) -> usize {
        self.lock().by_file.values().map(|t| t.entries().len()).sum()
    }

    /// The variables [`RangeTables::update`] could not monitor, in request
    /// order, each once.
    pub fn skipped(&self) -> Vec<Skipped> {
        self.lock().skipped.clone()
    }
}

/// The text of a script value, as the interpreter prints it: `()` is "".
fn skipped_map(s: &Skipped) -> Dynamic {
    let mut map = Map::new();
    map.insert("kind".into(), s.kind.as_str().into());
    map.insert("file".into(), s.file.clone().into());
    map.insert("function".into(), s.function.clone().into());
    map.insert("var".into(), s.variable.clone().into());
    map.insert(
        "type".into(),
        s.c_type.clone().map_or(Dynamic::UNIT, Dynamic::from),
    );
    Dynamic::from(map)
}

/// Registers `RangeTables()` with `update`, `files`, `prelude`, `epilogue`,
/// `total`, `skipped`, `consider`, `considered` and `advised`.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<RangeTables>("RangeTables")
        .register_fn("RangeTables", RangeTables::default)
        .register_fn(
            "update",
            |t: &mut RangeTables,
             kind: Dynamic,
             file: Dynamic,
             function: Dynamic,
             variable: Dynamic,
             c_type: Dynamic,
             value: Dynamic|
             -> Fallible<String> {
                let kind: Kind = text(&kind)
                    .parse()
                    .map_err(|e: String| format!("RangeTables.update: {e}"))?;
                let c_type = (!c_type.is_unit()).then(|| text(&c_type));
                Ok(t.update(
                    kind,
                    &text(&file),
                    &text(&function),
                    &text(&variable),
                    c_type.as_deref(),
                    &text(&value),
                )
                .unwrap_or_default())
            },
        )
        .register_fn("files", |t: &mut RangeTables| -> Array {
            t.files().into_iter().map(Dynamic::from).collect()
        })
        .register_fn("prelude", |t: &mut RangeTables, file: Dynamic| {
            t.prelude(&text(&file))
        })
        .register_fn("epilogue", |t: &mut RangeTables, file: Dynamic| {
            t.epilogue(&text(&file))
        })
        .register_fn("total", |t: &mut RangeTables| t.total() as rhai::INT)
        .register_fn("skipped", |t: &mut RangeTables| -> Array {
            t.skipped().iter().map(skipped_map).collect()
        })
        .register_fn("consider", |t: &mut RangeTables| t.consider())
        .register_fn("considered", |t: &mut RangeTables| t.considered() as rhai::INT)
        .register_fn("advised", |t: &mut RangeTables| t.advised() as rhai::INT);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        let mut engine = Engine::new();
        register(&mut engine);
        engine
    }

    #[test]
    fn updates_share_one_table_per_file() {
        let code: Array = engine()
            .eval(
                r#"
                let t = RangeTables();
                let u = t;
                [t.update("write", "a.c", "f", "x", "int", "x"),
                 u.update("param", "a.c", "f", "n", "unsigned long", "n"),
                 t.update("write", "a.c", "f", "x", "int", "x"),
                 t.update("return", "b.c", "g", "d", "double", "d"),
                 t.total(), t.files(), t.advised()]
                "#,
            )
            .unwrap();
        let strings: Vec<String> = code.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            strings[0],
            "weft_range_update_i64(&weft_ranges_a_c[0], (long long)(x));"
        );
        assert_eq!(
            strings[1],
            "weft_range_update_u64(&weft_ranges_a_c[1], (unsigned long long)(n));"
        );
        assert_eq!(strings[2], strings[0]);
        assert_eq!(
            strings[3],
            "weft_range_update_f64(&weft_ranges_b_c[0], (double)(d));"
        );
        assert_eq!(code[4].as_int().unwrap(), 3);
        assert_eq!(code[5].to_string(), r#"["a.c", "b.c"]"#);
        // Four update statements for three entries.
        assert_eq!(code[6].as_int().unwrap(), 4);
    }

    #[test]
    fn unmonitorable_types_give_empty_code_and_are_listed() {
        let out: Array = engine()
            .eval(
                r#"
                let t = RangeTables();
                [t.update("write", "a.c", "f", "p", "char *", "p"),
                 t.update("write", "a.c", "f", "u", (), "u"),
                 t.update("write", "a.c", "f", "p", "char *", "p"),
                 t.skipped().len(), t.files().len(), t.prelude("a.c"), t.epilogue("nope.c"),
                 t.advised()]
                "#,
            )
            .unwrap();
        assert_eq!(out[0].to_string(), "");
        assert_eq!(out[1].to_string(), "");
        assert_eq!(out[3].as_int().unwrap(), 2);
        assert_eq!(out[4].as_int().unwrap(), 0);
        assert_eq!(out[5].to_string(), "");
        assert_eq!(out[6].to_string(), "");
        assert_eq!(out[7].as_int().unwrap(), 0);
    }

    #[test]
    fn prelude_and_epilogue_come_from_the_file_table() {
        let t = RangeTables::default();
        t.update(Kind::Write, "a.c", "f", "x", Some("int"), "x");
        assert_eq!(t.prelude("a.c"), {
            let mut spec = TableSpec::new("a.c");
            spec.entry(Kind::Write, "f", "x", ValueType::I64);
            spec.prelude()
        });
        assert!(
            t.epilogue("a.c")
                .contains("\"write\", \"a.c\", \"f\", \"x\", \"i64\"")
        );
    }

    #[test]
    fn considered_join_points_are_counted_apart_from_advised_ones() {
        let counts: Array = engine()
            .eval(
                r#"
                let t = RangeTables();
                let u = t;
                t.consider(); u.consider(); t.consider();
                u.update("write", "a.c", "f", "x", "int", "x");
                [t.considered(), t.advised()]
                "#,
            )
            .unwrap();
        assert_eq!(counts[0].as_int().unwrap(), 3);
        assert_eq!(counts[1].as_int().unwrap(), 1);
    }

    #[test]
    fn a_bad_kind_is_a_script_error() {
        let err = engine()
            .eval::<String>(r#"RangeTables().update("wrote", "a.c", "f", "x", "int", "x")"#)
            .unwrap_err();
        assert!(err.to_string().contains("unknown entry kind `wrote`"), "{err}");
    }
}
