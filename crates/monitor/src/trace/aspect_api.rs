//! The bridge that lets aspects trace program points: a rhai type
//! `TraceTables` holding one [`TraceSpec`] per woven file.
//!
//! ```text
//! let t = TraceTables();
//! var vars = [#{name: "n", type: $param.type, pointer: $param.is_pointer}];
//! $first_stmt.insert before t.enter($function.file, $function.name, $function.line, vars);
//! $return.insert before t.exit($function.file, $function.name, $return.line, vars);
//! $call.insert before t.inner($function.file, $function.name, $call.line, vars);
//! $call.insert replace '(' + t.inner_expr(…) + ', ' + $call.code + ')';
//! for f in t.files() { … t.prelude(f) … t.epilogue(f) … }
//! ```
//!
//! A var is a map: `name` (its name in the trace), `type` (the C type; ()
//! when unknown; for an array, its elements' type), optional `pointer`
//! (true when the type is a pointer whatever its spelling) and optional
//! `expr` (the C expression to read; the name by default). Optional
//! shapes: `via` (the pointer `expr` reads through, as `p` for `p->len`:
//! read only when the object it points to can be read), `string: true`
//! (a NUL-terminated string at `expr`, a `char *` or, with `array: true`,
//! a `char` array bounded by its size), `array: true` (an array of known
//! length at `expr`, whose elements are of `type`; with `length`, the C
//! expression of its element count, for an array behind a pointer),
//! `deref: true` with
//! `via` (the scalar `via` points to, `*(via)`, whose `type` is what weft
//! resolved: the compiler picks how to read it, and a value whose actual
//! type is not of that class reads as missing). Vars whose type weft
//! cannot read are left out of the point and listed by `skipped()`.
//! Clones share their specs.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use super::spec::{Layout, TraceSpec, TracedVar, VarKind};
use crate::script::{text, unit_text};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

#[derive(Debug, Default)]
struct Specs {
    by_file: BTreeMap<String, TraceSpec>,
    /// `function#name: type` of the vars left out, each once.
    skipped: Vec<String>,
}

/// The trace specs of one weave, one per file (rhai type `TraceTables`).
#[derive(Debug, Clone, Default)]
pub struct TraceTables {
    inner: Arc<Mutex<Specs>>,
}

/// Where a point is: its file, function and line.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    pub file: &'a str,
    pub function: &'a str,
    pub line: usize,
}

impl TraceTables {
    fn lock(&self) -> MutexGuard<'_, Specs> {
        // A poisoned lock only means another script call panicked.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The vars of `requested` weft can read; the others are remembered.
    fn readable(&self, function: &str, requested: &Array) -> Fallible<Vec<TracedVar>> {
        let mut vars = Vec::new();
        for value in requested {
            let map = value
                .read_lock::<Map>()
                .ok_or("TraceTables: each var must be a map #{name, type, …}")?;
            let field = |key: &str| map.get(key).filter(|v| !v.is_unit()).map(|v| v.to_string());
            let name = field("name").ok_or("TraceTables: a var without a `name`")?;
            let c_type = field("type");
            let flag = |key: &str| map.get(key).and_then(|v| v.as_bool().ok()).unwrap_or(false);
            let (string, array) = (flag("string"), flag("array"));
            let via = field("via");
            let deref = flag("deref");
            if deref && via.is_none() {
                return Err(format!("TraceTables: `{name}` has `deref` but no `via`").into());
            }
            let layout = match (string, array, via.is_some()) {
                (true, _, _) => Layout::Str,
                (false, true, _) => Layout::Seq,
                (false, false, true) => Layout::Through,
                (false, false, false) => Layout::Plain,
            };
            let kind = match layout {
                Layout::Str => Some(VarKind::U64),
                _ => c_type
                    .as_deref()
                    .and_then(|t| VarKind::for_c_type(t, flag("pointer"))),
            };
            // An array of addresses would be compared element by element,
            // and addresses differ from run to run (ASLR).
            let kind = kind.filter(|&k| !(layout == Layout::Seq && k == VarKind::Pointer));
            let c_type = match (layout, c_type) {
                (Layout::Seq, Some(t)) => Some(format!("array of {t}")),
                (_, t) => t,
            };
            match kind {
                Some(kind) => vars.push(TracedVar {
                    expr: match (&via, deref) {
                        (Some(via), true) => format!("*({via})"),
                        _ => field("expr").unwrap_or_else(|| name.clone()),
                    },
                    name,
                    kind,
                    layout,
                    via,
                    array,
                    deref: deref && layout == Layout::Through,
                    length: field("length").filter(|_| layout == Layout::Seq),
                }),
                None => {
                    let why = c_type.unwrap_or_else(|| "unknown type".into());
                    let entry = format!("{function}#{name}: {why}");
                    let mut specs = self.lock();
                    if !specs.skipped.contains(&entry) {
                        specs.skipped.push(entry);
                    }
                }
            }
        }
        Ok(vars)
    }

    fn with_spec<T>(&self, file: &str, f: impl FnOnce(&mut TraceSpec) -> T) -> T {
        let mut specs = self.lock();
        f(specs
            .by_file
            .entry(file.to_string())
            .or_insert_with(|| TraceSpec::new(file)))
    }

    /// The declaration sampling the entry of a function.
    pub fn enter(&self, site: Site, vars: &Array) -> Fallible<String> {
        let vars = self.readable(site.function, vars)?;
        Ok(self.with_spec(site.file, |s| s.enter(site.function, site.line, &vars)))
    }

    /// The statement sampling an exit of a function.
    pub fn exit(&self, site: Site, vars: &Array) -> Fallible<String> {
        let vars = self.readable(site.function, vars)?;
        Ok(self.with_spec(site.file, |s| s.exit(site.function, site.line, &vars)))
    }

    /// The statement sampling a point inside a function (after its entry's
    /// declaration of the nonce).
    pub fn inner(&self, site: Site, vars: &Array) -> Fallible<String> {
        let vars = self.readable(site.function, vars)?;
        Ok(self.with_spec(site.file, |s| s.inner(site.function, site.line, &vars)))
    }

    /// The void expression sampling a point inside a function.
    pub fn inner_expr(&self, site: Site, vars: &Array) -> Fallible<String> {
        let vars = self.readable(site.function, vars)?;
        Ok(self.with_spec(site.file, |s| s.inner_expr(site.function, site.line, &vars)))
    }

    /// The files with at least one point, in path order.
    pub fn files(&self) -> Vec<String> {
        let specs = self.lock();
        let with_points = specs.by_file.iter().filter(|(_, s)| !s.points().is_empty());
        with_points.map(|(f, _)| f.clone()).collect()
    }

    /// How many points all files have.
    pub fn points(&self) -> usize {
        self.lock().by_file.values().map(|s| s.points().len()).sum()
    }

    fn text(&self, file: &str, f: fn(&TraceSpec) -> String) -> String {
        unit_text(&self.lock().by_file, file, f)
    }
}

fn site<'a>(file: &'a str, function: &'a str, line: rhai::INT) -> Site<'a> {
    Site {
        file,
        function,
        line: usize::try_from(line).unwrap_or(0),
    }
}

/// Registers `TraceTables()` with `enter`, `exit`, `inner`, `inner_expr`, `files`, `points`,
/// `prelude`, `epilogue` and `skipped`.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<TraceTables>("TraceTables")
        .register_fn("TraceTables", TraceTables::default)
        .register_fn(
            "enter",
            |t: &mut TraceTables, file: Dynamic, function: Dynamic, line: rhai::INT, vars: Array| {
                t.enter(site(&text(&file), &text(&function), line), &vars)
            },
        )
        .register_fn(
            "exit",
            |t: &mut TraceTables, file: Dynamic, function: Dynamic, line: rhai::INT, vars: Array| {
                t.exit(site(&text(&file), &text(&function), line), &vars)
            },
        )
        .register_fn(
            "inner",
            |t: &mut TraceTables, file: Dynamic, function: Dynamic, line: rhai::INT, vars: Array| {
                t.inner(site(&text(&file), &text(&function), line), &vars)
            },
        )
        .register_fn(
            "inner_expr",
            |t: &mut TraceTables, file: Dynamic, function: Dynamic, line: rhai::INT, vars: Array| {
                t.inner_expr(site(&text(&file), &text(&function), line), &vars)
            },
        )
        .register_fn("files", |t: &mut TraceTables| -> Array {
            t.files().into_iter().map(Dynamic::from).collect()
        })
        .register_fn("points", |t: &mut TraceTables| t.points() as rhai::INT)
        .register_fn("prelude", |t: &mut TraceTables, file: Dynamic| {
            t.text(&text(&file), TraceSpec::prelude)
        })
        .register_fn("epilogue", |t: &mut TraceTables, file: Dynamic| {
            t.text(&text(&file), TraceSpec::epilogue)
        })
        .register_fn("skipped", |t: &mut TraceTables| -> Array {
            t.lock().skipped.iter().cloned().map(Dynamic::from).collect()
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_vars_are_left_out_and_listed() {
        let mut engine = Engine::new();
        register(&mut engine);
        let out: Array = engine
            .eval(
                r#"
                let t = TraceTables();
                let vars = [#{name: "n", type: "int"}, #{name: "s", type: "struct s"},
                            #{name: "p", type: "FILEP", pointer: true}, #{name: "u", type: ()},
                            #{name: "names", type: "void *", array: true}];
                [t.enter("a.c", "f", 3, vars), t.skipped(), t.points(), t.files()]
                "#,
            )
            .unwrap();
        let enter = out[0].to_string();
        assert!(
            enter.contains("(long long)(n)") && enter.contains("(p)}, 2)"),
            "{enter}"
        );
        assert_eq!(
            out[1].to_string(),
            r#"["f#s: struct s", "f#u: unknown type", "f#names: array of void *"]"#
        );
        assert_eq!(out[2].as_int().unwrap(), 1);
        assert_eq!(out[3].to_string(), r#"["a.c"]"#);
    }

    #[test]
    fn a_pointed_to_scalar_is_read_through_its_pointer_by_its_actual_type() {
        let mut engine = Engine::new();
        register(&mut engine);
        let enter: String = engine
            .eval(
                r#"TraceTables().enter("a.c", "f", 1, [#{name: "*y", type: "int", via: "y", deref: true}])"#,
            )
            .unwrap();
        assert!(enter.contains("_Generic((*(y)), char: weft_rd_c"), "{enter}");
        assert!(
            enter.contains("weft_trace_readable(weft_trace_a_c, (const void *)(y), "),
            "{enter}"
        );
        let err = engine
            .eval::<String>(
                r#"TraceTables().enter("a.c", "f", 1, [#{name: "*y", type: "int", deref: true}])"#,
            )
            .unwrap_err();
        assert!(err.to_string().contains("`*y` has `deref` but no `via`"), "{err}");
    }

    #[test]
    fn an_array_with_a_length_is_read_that_long() {
        let mut engine = Engine::new();
        register(&mut engine);
        let enter: String = engine
            .eval(r#"TraceTables().enter("a.c", "f", 1, [#{name: "a", type: "int", array: true, length: "len"}])"#)
            .unwrap();
        assert!(
            enter.contains("(const void *)(a), (unsigned long long)(long long)(len), "),
            "{enter}"
        );
    }

    #[test]
    fn a_var_that_is_not_a_map_is_a_script_error() {
        let mut engine = Engine::new();
        register(&mut engine);
        let err = engine
            .eval::<String>(r#"TraceTables().enter("a.c", "f", 1, ["n"])"#)
            .unwrap_err();
        assert!(err.to_string().contains("each var must be a map"), "{err}");
    }
}
