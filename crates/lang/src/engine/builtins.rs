//! The rhai engine the translated aspects run in: limits, the join point
//! type with one property per catalogue attribute, the functions LARA
//! statements are translated to, and the built-ins strategies use
//! (`println`, JSON files, `LaraObject`, JS conveniences).

use std::sync::{Arc, Mutex};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};

use super::convert::{JpHandle, keys, text, to_dynamic, to_value, truthy, tuple_map};
use super::host::{Host, HostError, InsertAt};
use super::select::{join, select};
use super::shared_host::SharedHost;
use super::translate::Translation;
use super::{ScriptApi, Warning, laraobject};
use crate::diag::Diagnostic;
use crate::model::catalogue;

/// How many rhai operations a run may take before it is stopped as runaway.
pub const MAX_OPERATIONS: u64 = 50_000_000;

/// A host failure carried through rhai as the payload of a runtime error,
/// with the action site (if any) that caused it.
#[derive(Debug, Clone)]
pub struct HostFailure {
    pub error: HostError,
    pub site: Option<usize>,
}

/// What a run accumulates besides its effects on the program.
#[derive(Debug, Default)]
pub struct Collected {
    pub warnings: Vec<Warning>,
    pub printed: Vec<String>,
    /// Whether the latest insert was accepted (`insertAccepted()`).
    pub last_insert_accepted: bool,
}

/// Everything the registered functions share.
#[derive(Clone)]
pub struct Context {
    pub remote: SharedHost,
    pub translation: Arc<Translation>,
    pub collected: Arc<Mutex<Collected>>,
    /// The script APIs of the layers above the engine (monitors).
    pub apis: Arc<[ScriptApi]>,
}

type Fallible<T> = Result<T, Box<EvalAltResult>>;

fn failure(error: HostError, site: Option<usize>) -> Box<EvalAltResult> {
    let payload = Dynamic::from(HostFailure { error, site });
    Box::new(EvalAltResult::ErrorRuntime(payload, Position::NONE))
}

fn site_index(site: rhai::INT) -> Option<usize> {
    usize::try_from(site).ok()
}

impl Context {
    fn collected(&self) -> std::sync::MutexGuard<'_, Collected> {
        self.collected.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn print(&self, line: &str) {
        println!("{line}");
        self.collected().printed.push(line.to_string());
    }

    /// `weft_tuples(apply, values, site)`: the joined tuples of an apply.
    fn tuples(&self, apply: rhai::INT, values: Array, site: rhai::INT) -> Fallible<Array> {
        let site = site_index(site);
        let chains = usize::try_from(apply)
            .ok()
            .and_then(|a| self.translation.applies.get(a))
            .ok_or_else(|| failure(HostError::Failed("unknown apply".into()), site))?;
        let mut host = self.remote.clone();
        let mut selected = Vec::new();
        for (chain, values) in chains.iter().zip(values) {
            let values: Vec<_> = values
                .try_cast::<Array>()
                .unwrap_or_default()
                .iter()
                .map(to_value)
                .collect();
            selected.push(select(chain, &values, &mut host).map_err(|e| failure(e, site))?);
        }
        Ok(join(selected).into_iter().map(tuple_map).collect())
    }

    /// `weft_insert(jp, position, code, site)`. A refusal is a warning.
    fn insert(&self, jp: JpHandle, position: &str, code: Dynamic, site: rhai::INT) -> Fallible<()> {
        let at = match position {
            "after" => InsertAt::After,
            "replace" => InsertAt::Replace,
            _ => InsertAt::Before,
        };
        let result = self.remote.clone().insert(&jp.0, at, &text(&code));
        self.collected().last_insert_accepted = result.is_ok();
        match result {
            Ok(()) => Ok(()),
            Err(HostError::Refused { location, message }) => {
                self.warn(site_index(site), location, message);
                Ok(())
            }
            Err(error) => Err(failure(error, site_index(site))),
        }
    }

    fn warn(&self, site: Option<usize>, location: String, message: String) {
        let span = site.and_then(|s| self.translation.sites.get(s));
        let text = format!("insert refused at {location}: {message}");
        let diagnostic = match span {
            Some(span) => Diagnostic::error(&span.file, span.range.clone(), text).warning(),
            None => Diagnostic::bare(text).warning(),
        };
        let warning = Warning {
            c_location: location,
            message,
            diagnostic,
        };
        self.collected().warnings.push(warning);
    }
}

/// A rhai engine with every weft function registered.
pub fn engine(context: &Context) -> Engine {
    let mut engine = Engine::new();
    engine.set_max_operations(MAX_OPERATIONS);
    // Debug builds of rhai default to very shallow limits.
    engine.set_max_call_levels(96);
    engine.set_max_expr_depths(256, 128);
    // Lets the registered `/` below replace rhai's integer division.
    engine.set_fast_operators(false);
    register_joinpoints(&mut engine, context);
    register_actions(&mut engine, context);
    register_script_library(&mut engine, context);
    laraobject::register(&mut engine);
    for register in context.apis.iter() {
        register(&mut engine);
    }
    engine
}

/// The `joinpoint` type and a property getter per catalogue attribute.
fn register_joinpoints(engine: &mut Engine, context: &Context) {
    engine
        .register_type_with_name::<JpHandle>("joinpoint")
        .register_fn("to_string", |jp: &mut JpHandle| text(&Dynamic::from(jp.clone())))
        .register_fn("==", |a: JpHandle, b: JpHandle| a == b)
        .register_fn("!=", |a: JpHandle, b: JpHandle| a != b);
    for name in catalogue::attribute_names() {
        let remote = context.remote.clone();
        engine.register_get(name, move |jp: &mut JpHandle| -> Fallible<Dynamic> {
            let value = remote
                .clone()
                .attribute(&jp.0, name)
                .map_err(|e| failure(e, None))?;
            Ok(to_dynamic(value))
        });
    }
    let remote = context.remote.clone();
    engine.register_fn("weft_root", move || JpHandle(remote.root()));
}

/// The functions LARA statements translate to.
fn register_actions(engine: &mut Engine, context: &Context) {
    let c = context.clone();
    engine.register_fn(
        "weft_tuples",
        move |apply: rhai::INT, values: Array, site: rhai::INT| c.tuples(apply, values, site),
    );
    let c = context.clone();
    engine.register_fn("weft_commit", move |site: rhai::INT| -> Fallible<()> {
        c.remote
            .clone()
            .commit()
            .map_err(|e| failure(e, site_index(site)))
    });
    let c = context.clone();
    engine.register_fn(
        "weft_insert",
        move |jp: JpHandle, position: &str, code: Dynamic, site: rhai::INT| {
            c.insert(jp, position, code, site)
        },
    );
    let c = context.clone();
    engine.register_fn("insertAccepted", move || c.collected().last_insert_accepted);
    let c = context.clone();
    engine.register_fn(
        "weft_perform",
        move |jp: JpHandle, action: &str, args: Array, site: rhai::INT| -> Fallible<()> {
            let args: Vec<_> = args.iter().map(to_value).collect();
            c.remote
                .clone()
                .perform(&jp.0, action, &args)
                .map_err(|e| failure(e, site_index(site)))
        },
    );
    let c = context.clone();
    engine.register_fn(
        "weft_def",
        move |jp: JpHandle, name: &str, value: Dynamic, site: rhai::INT| -> Fallible<()> {
            c.remote
                .clone()
                .define(&jp.0, name, &to_value(&value))
                .map_err(|e| failure(e, site_index(site)))
        },
    );
}

/// Built-ins for script parts: output, JSON files and JS conveniences.
fn register_script_library(engine: &mut Engine, context: &Context) {
    let c = context.clone();
    engine.on_print(move |line| c.print(line));
    let c = context.clone();
    engine.register_fn("println", move |value: Dynamic| c.print(&text(&value)));
    let c = context.clone();
    engine.register_fn("println", move || c.print(""));
    engine
        .register_fn("weft_text", |value: Dynamic| text(&value))
        .register_fn("weft_interpolate", |value: Dynamic| -> Fallible<String> {
            if value.is_unit() {
                return Err(
                    "`[[…]]` is undefined here (a missing map key, an unset variable, \
                            or a function that returns nothing): nothing to put in the code"
                        .into(),
                );
            }
            Ok(text(&value))
        })
        .register_fn("weft_truthy", |value: Dynamic| truthy(&value))
        .register_fn("weft_keys", |value: Dynamic| keys(&value))
        .register_fn("toString", |value: Dynamic| text(&value))
        .register_get("length", |a: &mut Array| a.len() as rhai::INT)
        .register_get("length", |s: &mut rhai::ImmutableString| {
            s.chars().count() as rhai::INT
        })
        // JavaScript division: exact integer quotients stay integers,
        // others become floats (rhai would truncate).
        .register_fn("/", |a: rhai::INT, b: rhai::INT| -> Dynamic {
            if b != 0 && a % b == 0 {
                (a / b).into()
            } else {
                (a as rhai::FLOAT / b as rhai::FLOAT).into()
            }
        });
    for name in ["readJSON", "fileToJSON"] {
        engine.register_fn(name, |path: &str| -> Fallible<Dynamic> {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let json: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("{path} is not JSON: {e}"))?;
            rhai::serde::to_dynamic(json)
        });
    }
    engine.register_fn("writeJSON", |path: &str, value: Dynamic| -> Fallible<()> {
        let json: serde_json::Value = rhai::serde::from_dynamic(&value)?;
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {path}: {e}").into())
    });
}
