//! The bridge that lets aspects capture outputs: a rhai type
//! `OutputCaptures` that hands out the runtime text and the capture
//! statements, and remembers what it left out and why.
//!
//! ```text
//! let out = OutputCaptures();
//! if (out.pointee($function.name, $param.name, $param.type, $param.is_pointer)) { … }
//! $first_stmt.insert before out.entry(params);          // copies at entry
//! $return.insert before out.exit($function.name, params);
//! var s = out.returned($function.name, $var.name, $var.scalar_type, $var.type);  // or ()
//! $file.insert before out.prelude($file.file);
//! $file.insert after out.epilogue();
//! for n in out.notes() { println(n); }
//! ```
//!
//! Clones share their notes and counts.

use std::sync::{Arc, Mutex, MutexGuard};

use rhai::{Array, Dynamic, Engine};

use super::spec::{self, Pointee};
use crate::script::optional_text as text;

#[derive(Debug, Default)]
struct State {
    /// What was left out, with why, each once.
    notes: Vec<String>,
    /// Capture statements handed out.
    captures: usize,
}

/// One weave's output captures (rhai type `OutputCaptures`).
#[derive(Debug, Clone, Default)]
pub struct OutputCaptures {
    inner: Arc<Mutex<State>>,
}

impl OutputCaptures {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means another script call panicked.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers `note` unless it is known already.
    pub fn note(&self, note: String) {
        let mut state = self.lock();
        if !state.notes.contains(&note) {
            state.notes.push(note);
        }
    }

    /// Whether the pointee of `function`'s parameter `param` (declared type
    /// `c_type`) is captured; a pointer left out for a reason is noted.
    pub fn pointee(&self, function: &str, param: &str, c_type: Option<&str>, is_pointer: bool) -> bool {
        match spec::classify(c_type, is_pointer) {
            Pointee::Capture => true,
            Pointee::NotPointer | Pointee::Input => false,
            Pointee::Skip(why) => {
                let shown = c_type.unwrap_or("unknown type");
                self.note(format!("{}: {shown}: {why}", spec::pointee_name(function, param)));
                false
            }
        }
    }

    /// The statement capturing `value`, returned by `function`, or `None`
    /// (noted, showing the type as written, `c_type`) when its type is not
    /// captured.
    pub fn returned(
        &self,
        function: &str,
        value: &str,
        types: (Option<&str>, Option<&str>),
    ) -> Option<String> {
        let (scalar_type, c_type) = types;
        match spec::return_verdict(scalar_type) {
            Ok(()) => {
                self.lock().captures += 1;
                Some(spec::returned(function, value))
            }
            Err(why) => {
                let shown = c_type.or(scalar_type).unwrap_or("unknown type");
                self.note(format!("{}: {shown}: {why}", spec::return_name(function)));
                None
            }
        }
    }

    /// The statements capturing the pointees of `params` at an exit.
    pub fn exit(&self, function: &str, params: &[String]) -> String {
        self.lock().captures += params.len();
        spec::exit(function, params)
    }

    /// How many capture statements were handed out.
    pub fn captures(&self) -> usize {
        self.lock().captures
    }

    /// The notes, in the order they were made.
    pub fn notes(&self) -> Vec<String> {
        self.lock().notes.clone()
    }
}

/// Text of a script value; `None` for ().
/// Names from a script array (each element shown as text).
fn names(array: &Array) -> Vec<String> {
    array.iter().filter_map(text).collect()
}

/// Registers `OutputCaptures()` with `pointee`, `entry`, `exit`,
/// `returned`, `note`, `notes`, `captures`, `prelude` and `epilogue`.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<OutputCaptures>("OutputCaptures")
        .register_fn("OutputCaptures", OutputCaptures::default)
        .register_fn(
            "pointee",
            |o: &mut OutputCaptures, function: Dynamic, param: Dynamic, c_type: Dynamic, is_pointer: bool| {
                let (function, param) = (
                    text(&function).unwrap_or_default(),
                    text(&param).unwrap_or_default(),
                );
                o.pointee(&function, &param, text(&c_type).as_deref(), is_pointer)
            },
        )
        .register_fn("entry", |_: &mut OutputCaptures, params: Array| {
            spec::entry(&names(&params))
        })
        .register_fn(
            "exit",
            |o: &mut OutputCaptures, function: Dynamic, params: Array| {
                o.exit(&text(&function).unwrap_or_default(), &names(&params))
            },
        )
        .register_fn(
            "returned",
            |o: &mut OutputCaptures,
             function: Dynamic,
             value: Dynamic,
             scalar_type: Dynamic,
             c_type: Dynamic| {
                let function = text(&function).unwrap_or_default();
                let value = text(&value).unwrap_or_default();
                let types = (text(&scalar_type), text(&c_type));
                o.returned(&function, &value, (types.0.as_deref(), types.1.as_deref()))
                    .map_or(Dynamic::UNIT, Dynamic::from)
            },
        )
        .register_fn("note", |o: &mut OutputCaptures, note: Dynamic| {
            o.note(text(&note).unwrap_or_default())
        })
        .register_fn("notes", |o: &mut OutputCaptures| -> Array {
            o.notes().into_iter().map(Dynamic::from).collect()
        })
        .register_fn("captures", |o: &mut OutputCaptures| o.captures() as rhai::INT)
        .register_fn("prelude", |_: &mut OutputCaptures, file: Dynamic| {
            spec::prelude(&text(&file).unwrap_or_default())
        })
        .register_fn("epilogue", |_: &mut OutputCaptures| spec::epilogue());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_and_notes_follow_the_types() {
        let mut engine = Engine::new();
        register(&mut engine);
        let out: Array = engine
            .eval(
                r#"
                let o = OutputCaptures();
                let kept = [o.pointee("f", "n", "int *", true), o.pointee("f", "s", "const char *", true),
                            o.pointee("f", "b", "char *", true), o.pointee("f", "k", "int", false)];
                let r = [o.returned("f", "weft_ret", "unsigned long", "ulg"), o.returned("g", "p", "void *", "FILE *")];
                let e = o.exit("f", ["n"]);
                [kept, r, e, o.entry(["n"]), o.notes(), o.captures()]
                "#,
            )
            .unwrap();
        assert_eq!(out[0].to_string(), "[true, false, false, false]");
        assert_eq!(
            out[1].to_string(),
            r#"["weft_output(\"f.return\", weft_ret);", ()]"#
        );
        assert_eq!(out[2].to_string(), r#"weft_output_pointee("f.*n", weft_arg_n);"#);
        assert!(out[3].to_string().starts_with("__typeof__(n) weft_arg_n"));
        let notes = out[4].to_string();
        assert!(notes.contains("f.*b: char *: a character buffer"), "{notes}");
        assert!(notes.contains("g.return: FILE *: a pointer"), "{notes}");
        assert_eq!(out[5].as_int().unwrap(), 2);
    }
}
