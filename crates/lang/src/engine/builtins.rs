//! The rhai engine the translated aspects run in: limits, the join point
//! type with one property per catalogue attribute, the functions LARA
//! statements are translated to, and the built-ins strategies use
//! (`println`, JSON files, `LaraObject`, JS conveniences).

use std::sync::{Arc, Mutex};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};

use super::convert::{JpHandle, Tuples, keys, text, to_dynamic, to_value, truthy};
use super::host::{Host, HostError, InsertAt};
use super::select::{Descent, join, select};
use super::shared_host::SharedHost;
use super::translate::Translation;
use super::{ScriptApi, Warning, json, laraobject};
use crate::Limits;
use crate::diag::Diagnostic;
use crate::model::{Value, catalogue};

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
    /// The error of a select walked by its apply's loop, raised by the
    /// apply's commit ([`Tuples::Walked`]).
    pub failed_select: Option<HostFailure>,
}

/// Everything the registered functions share.
#[derive(Clone)]
pub struct Context {
    pub remote: SharedHost,
    pub translation: Arc<Translation>,
    pub collected: Arc<Mutex<Collected>>,
    /// The script APIs of the layers above the engine (monitors).
    pub apis: Arc<[ScriptApi]>,
    pub limits: Limits,
    pub echo: Echo,
}

/// Where the lines an aspect prints go besides [`super::RunReport::printed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Echo {
    /// Also to standard output as they come (`weft weave`).
    Stdout,
    /// Only into the report: a weave inside a longer command (a study's
    /// build, `weft nonterm check`) decides itself where they go.
    Collect,
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
        if self.echo == Echo::Stdout {
            println!("{line}");
        }
        self.collected().printed.push(line.to_string());
    }

    /// `weft_tuples(apply, values, site)`: the joined tuples of an apply.
    fn tuples(&self, apply: rhai::INT, values: Array, site: rhai::INT) -> Fallible<Tuples> {
        let site = site_index(site);
        let chains = usize::try_from(apply)
            .ok()
            .and_then(|a| self.translation.applies.get(a))
            .ok_or_else(|| failure(HostError::Failed("unknown apply".into()), site))?;
        let mut host = self.remote.clone();
        let values: Vec<Vec<Value>> = values
            .into_iter()
            .map(|v| {
                v.try_cast::<Array>()
                    .unwrap_or_default()
                    .iter()
                    .map(to_value)
                    .collect()
            })
            .collect();
        if let ([chain], [values]) = (chains.as_slice(), values.as_slice()) {
            let collected = Arc::clone(&self.collected);
            return Ok(Tuples::Walked {
                descent: Descent::new(chain, values),
                host,
                failed: Arc::new(move |error| {
                    let mut collected = collected.lock().unwrap_or_else(|e| e.into_inner());
                    collected.failed_select = Some(HostFailure { error, site });
                }),
            });
        }
        let mut selected = Vec::new();
        for (chain, values) in chains.iter().zip(&values) {
            selected.push(select(chain, values, &mut host).map_err(|e| failure(e, site))?);
        }
        Ok(Tuples::Ready(join(selected)))
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
    set_limits(&mut engine, &context.limits);
    // Lets the registered `/` below replace rhai's integer division.
    engine.set_fast_operators(false);
    register_joinpoints(&mut engine, context);
    register_actions(&mut engine, context);
    register_script_library(&mut engine, context);
    json::register(&mut engine, context.limits);
    laraobject::register(&mut engine);
    for register in context.apis.iter() {
        register(&mut engine);
    }
    engine
}

/// rhai's limits from the run's: every count rhai keeps is bounded (rhai
/// reads 0 as "no limit", as weft does). CPU time is checked every few
/// thousand operations against the script thread's clock.
pub fn set_limits(engine: &mut Engine, limits: &Limits) {
    let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    engine.set_max_operations(limits.operations);
    engine.set_max_call_levels(size(limits.call_levels));
    engine.set_max_expr_depths(size(limits.expression_depth), size(limits.expression_depth / 2));
    engine.set_max_string_size(size(limits.string_bytes));
    engine.set_max_array_size(size(limits.array_items));
    engine.set_max_map_size(size(limits.map_entries));
    let seconds = limits.cpu_seconds;
    if seconds != 0 {
        engine.on_progress(move |operations| {
            let over = operations % 4096 == 0 && thread_cpu_seconds() > seconds as f64;
            over.then(|| Dynamic::from(CPU_TOKEN))
        });
    }
}

/// What the progress callback stops a run with when its time is up.
pub const CPU_TOKEN: &str = "weft: cpu-seconds";

/// CPU seconds used by the calling thread: the script runs on a thread of
/// its own, so this is the run's time, without the solver processes it
/// waits for.
fn thread_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return 0.0;
    }
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
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
    engine
        .register_type_with_name::<Tuples>("tuples")
        .register_iterator::<Tuples>();
    let c = context.clone();
    engine.register_fn(
        "weft_tuples",
        move |apply: rhai::INT, values: Array, site: rhai::INT| c.tuples(apply, values, site),
    );
    let c = context.clone();
    engine.register_fn("weft_commit", move |site: rhai::INT| -> Fallible<()> {
        // An apply whose select failed while its loop walked it commits
        // nothing: the failure is the apply's error.
        if let Some(HostFailure { error, site }) = c.collected().failed_select.take() {
            return Err(failure(error, site));
        }
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
            if let Some(f) = value.as_float().ok().filter(|f| !f.is_finite()) {
                return Err(format!(
                    "`[[…]]` is the number {f}, which C cannot spell: \
                     a division by zero, or an overflow, in the aspect"
                )
                .into());
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
}
