//! The bridge that lets aspects monitor value ranges: a rhai type
//! `RangeTables` holding one [`TableSpec`] per woven file, and
//! `frequencyReport`, which turns the counts of a frequency run into the
//! report the FREQ strategies read (see docs/strategies.md).
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
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use super::key::{Kind, ValueType};
use super::table::TableSpec;

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
        let table = tables
            .by_file
            .entry(file.to_string())
            .or_insert_with(|| TableSpec::new(file));
        let slot = table.entry(kind, function, variable, value_type);
        Some(table.update_stmt(slot, value))
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
        self.lock()
            .by_file
            .get(file)
            .map(TableSpec::prelude)
            .unwrap_or_default()
    }

    /// The text for the end of `file` ("" when it has no entries).
    pub fn epilogue(&self, file: &str) -> String {
        self.lock()
            .by_file
            .get(file)
            .map(TableSpec::epilogue)
            .unwrap_or_default()
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

/// The frequency report of the range records or range sets at `paths`
/// (files or directories, as `weft ranges` takes them): `total`, the number
/// of recorded assignments, and per `function#variable` the number of
/// assignments to it. Only `write` entries count; entries of one
/// `function#variable` in several files add up, as in MANET's report.
pub fn frequency_report(paths: &[PathBuf]) -> Result<BTreeMap<String, u64>, String> {
    let set = super::load::read_paths(paths).map_err(|e| e.to_string())?;
    let mut report = BTreeMap::new();
    let mut total: u64 = 0;
    for (key, range) in set.ranges.iter().filter(|(k, _)| k.kind == Kind::Write) {
        total = total.saturating_add(range.count);
        let count = report
            .entry(format!("{}#{}", key.function, key.variable))
            .or_insert(0u64);
        *count = count.saturating_add(range.count);
    }
    if report.contains_key("total") {
        return Err("a variable `total` with an empty function name clashes with the report's total".into());
    }
    report.insert("total".to_string(), total);
    Ok(report)
}

/// The text of a script value, as the interpreter prints it: `()` is "".
fn text(value: &Dynamic) -> String {
    if value.is_unit() {
        String::new()
    } else {
        value.to_string()
    }
}

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

/// `frequencyReport(path)` / `frequencyReport([paths])` as a script map.
fn frequency_report_dynamic(paths: Dynamic) -> Fallible<Dynamic> {
    let paths: Vec<PathBuf> = match paths.clone().try_cast::<Array>() {
        Some(array) => array.iter().map(|p| PathBuf::from(text(p))).collect(),
        None => vec![PathBuf::from(text(&paths))],
    };
    let report = frequency_report(&paths).map_err(|e| format!("frequencyReport: {e}"))?;
    let map: Map = report
        .into_iter()
        .map(|(k, v)| (k.into(), Dynamic::from(i64::try_from(v).unwrap_or(i64::MAX))))
        .collect();
    Ok(Dynamic::from(map))
}

/// Registers `RangeTables()` with `update`, `files`, `prelude`, `epilogue`,
/// `total` and `skipped`, and `frequencyReport(paths)`.
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
        .register_fn("frequencyReport", frequency_report_dynamic);
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
                 t.total(), t.files()]
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
                 t.skipped().len(), t.files().len(), t.prelude("a.c"), t.epilogue("nope.c")]
                "#,
            )
            .unwrap();
        assert_eq!(out[0].to_string(), "");
        assert_eq!(out[1].to_string(), "");
        assert_eq!(out[3].as_int().unwrap(), 2);
        assert_eq!(out[4].as_int().unwrap(), 0);
        assert_eq!(out[5].to_string(), "");
        assert_eq!(out[6].to_string(), "");
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
    fn a_bad_kind_is_a_script_error() {
        let err = engine()
            .eval::<String>(r#"RangeTables().update("wrote", "a.c", "f", "x", "int", "x")"#)
            .unwrap_err();
        assert!(err.to_string().contains("unknown entry kind `wrote`"), "{err}");
    }

    #[test]
    fn a_missing_report_input_is_a_script_error() {
        let err = engine()
            .eval::<Dynamic>(r#"frequencyReport("/nonexistent/weft-out")"#)
            .unwrap_err();
        assert!(err.to_string().contains("frequencyReport"), "{err}");
    }

    #[test]
    fn the_frequency_report_counts_writes_per_function_and_variable() {
        let dir = tempfile::tempdir().unwrap();
        let set = r#"{"format": "weft-ranges", "version": 1, "runs": [], "entries": [
            {"kind": "write", "file": "a.c", "function": "f", "variable": "x", "type": "i64", "count": 3, "min": 0, "max": 2, "nan": false},
            {"kind": "write", "file": "b.c", "function": "f", "variable": "x", "type": "i64", "count": 2, "min": 0, "max": 2, "nan": false},
            {"kind": "write", "file": "a.c", "function": "g", "variable": "y", "type": "f64", "count": 5, "min": 0.5, "max": 1.5, "nan": false},
            {"kind": "param", "file": "a.c", "function": "g", "variable": "n", "type": "i64", "count": 9, "min": 1, "max": 1, "nan": false}
        ]}"#;
        let path = dir.path().join("set.json");
        std::fs::write(&path, set).unwrap();
        let report = frequency_report(&[path]).unwrap();
        let expected: BTreeMap<String, u64> = [("total", 10), ("f#x", 5), ("g#y", 5)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(report, expected);
    }
}
