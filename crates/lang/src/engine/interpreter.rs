//! Running an aspect module: choosing the entry aspect and its inputs,
//! translating to rhai, and evaluating the script on a worker thread (for
//! its large stack) that calls the host directly.

use std::sync::{Arc, Mutex};

use rhai::{Dynamic, Map, Scope};

use super::builtins::{Collected, Context, Echo, engine};
use super::error::{EngineError, from_parse, from_rhai};
use super::host::Host;
use super::shared_host::SharedHost;
use super::translate::{Translation, aspect_function, translate};
use super::{RunReport, ScriptApi, check};
use crate::Limits;
use crate::aspect::Module;
use crate::aspect::ast::AspectDef;
use crate::diag::{Diagnostic, Diagnostics, closest};

/// Stack for the script thread: rhai evaluates recursively.
const SCRIPT_STACK: usize = 64 * 1024 * 1024;

/// Runs aspect `entry` (the first aspectdef of the entry file if `None`)
/// of `module` against `host`. `args` set inputs by name (`--arg N=V`):
/// integers, floats and `true`/`false` are parsed, anything else is a string.
/// `apis` are the script functions of the layers above the engine that
/// this run offers the aspect (the monitors' table builders). `limits`
/// bound what the script may use (operations, time, value sizes, files).
/// The module is first checked as `weft check` checks it.
///
/// The lines the aspect prints also go to standard output as they come;
/// [`run_collected`] keeps them only in the report.
///
/// For the length of the run the host is moved out of `host` (which holds
/// `H::default()` meanwhile) into a handle the script's functions share,
/// and moved back before returning, whatever the outcome.
pub fn run<H: Host + Send + Default + 'static>(
    module: &Module,
    entry: Option<&str>,
    args: &[(String, String)],
    apis: &[ScriptApi],
    limits: &Limits,
    host: &mut H,
) -> Result<RunReport, EngineError> {
    run_echoing(module, entry, args, apis, limits, host, Echo::Stdout)
}

/// [`run`], with the lines the aspect prints kept only in the report.
pub fn run_collected<H: Host + Send + Default + 'static>(
    module: &Module,
    entry: Option<&str>,
    args: &[(String, String)],
    apis: &[ScriptApi],
    limits: &Limits,
    host: &mut H,
) -> Result<RunReport, EngineError> {
    run_echoing(module, entry, args, apis, limits, host, Echo::Collect)
}

fn run_echoing<H: Host + Send + Default + 'static>(
    module: &Module,
    entry: Option<&str>,
    args: &[(String, String)],
    apis: &[ScriptApi],
    limits: &Limits,
    host: &mut H,
    echo: Echo,
) -> Result<RunReport, EngineError> {
    let diagnostics = check(module, limits);
    if diagnostics.has_errors() {
        return Err(EngineError::Aspect(diagnostics));
    }
    let aspect = entry_aspect(module, entry)?;
    let inputs = input_map(aspect, args)?;
    let translation = Arc::new(translate(module).map_err(EngineError::Aspect)?);
    let script = format!(
        "{}\n{}(weft_args)\n",
        translation.script,
        aspect_function(&aspect.name.name)
    );
    let collected = Arc::new(Mutex::new(Collected::default()));
    let shared = Arc::new(Mutex::new(std::mem::take(host)));
    let context = Context {
        remote: SharedHost::new(Arc::clone(&shared) as Arc<Mutex<dyn Host + Send>>),
        translation: Arc::clone(&translation),
        collected: Arc::clone(&collected),
        apis: apis.into(),
        limits: *limits,
        echo,
    };
    let outcome = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("weft-aspect".into())
            .stack_size(SCRIPT_STACK)
            .spawn_scoped(scope, move || evaluate(&script, inputs, context, &translation));
        match worker {
            Ok(worker) => worker
                .join()
                .unwrap_or_else(|_| Err(EngineError::Internal("the aspect script crashed".into()))),
            Err(e) => Err(EngineError::Internal(format!(
                "cannot start the script thread: {e}"
            ))),
        }
    });
    // Every other handle lived in the script's engine, dropped with the
    // worker, so this is the last one.
    match Arc::try_unwrap(shared) {
        Ok(owned) => *host = owned.into_inner().unwrap_or_else(|e| e.into_inner()),
        Err(_) => {
            return Err(EngineError::Internal(
                "the program being woven is still held by the finished script".into(),
            ));
        }
    }
    outcome?;
    let collected = std::mem::take(&mut *collected.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(RunReport {
        warnings: collected.warnings,
        printed: collected.printed,
    })
}

/// Compiles and runs the script; the engine, holding every handle to the
/// host but the caller's, is dropped on return.
fn evaluate(
    script: &str,
    inputs: Map,
    context: Context,
    translation: &Translation,
) -> Result<(), EngineError> {
    let engine = engine(&context);
    let limits = context.limits;
    drop(context);
    let ast = engine
        .compile(script)
        .map_err(|e| from_parse(e, &translation.map))?;
    let mut scope = Scope::new();
    scope.push("weft_args", inputs);
    engine
        .eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
        .map(|_| ())
        .map_err(|e| from_rhai(*e, translation, &limits))
}

/// The aspect a run starts with: `entry`, or the module's first.
pub(super) fn entry_aspect<'m>(
    module: &'m Module,
    entry: Option<&str>,
) -> Result<&'m AspectDef, EngineError> {
    let Some(name) = entry else {
        return module.aspects.first().ok_or_else(|| {
            EngineError::Aspect(Diagnostic::bare("the aspect file defines no aspectdef").into())
        });
    };
    module.aspect(name).ok_or_else(|| {
        let names = module.aspects.iter().map(|a| a.name.name.as_str());
        let mut d = Diagnostic::bare(format!("no aspect `{name}` in the aspect file"));
        if let Some(hint) = closest(name, names) {
            d = d.with_hint(format!("did you mean `{hint}`?"));
        }
        EngineError::Aspect(d.into())
    })
}

/// The inputs map for the entry aspect from `NAME=VALUE` arguments.
fn input_map(aspect: &AspectDef, args: &[(String, String)]) -> Result<Map, EngineError> {
    let mut map = Map::new();
    let mut errors = Vec::new();
    for (name, value) in args {
        if !aspect.inputs.iter().any(|i| i.name.name == *name) {
            let names = aspect.inputs.iter().map(|i| i.name.name.as_str());
            let span = &aspect.name.span;
            let mut d = Diagnostic::error(
                &span.file,
                span.range.clone(),
                format!("aspect `{}` has no input `{name}`", aspect.name.name),
            );
            if let Some(hint) = closest(name, names) {
                d = d.with_hint(format!("did you mean `{hint}`?"));
            }
            errors.push(d);
            continue;
        }
        map.insert(name.as_str().into(), parse_arg(value));
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(EngineError::Aspect(Diagnostics(errors)))
    }
}

/// A command-line value: a number or boolean if it reads as one.
fn parse_arg(value: &str) -> Dynamic {
    if let Ok(i) = value.parse::<rhai::INT>() {
        i.into()
    } else if let Ok(f) = value.parse::<rhai::FLOAT>() {
        f.into()
    } else if let Ok(b) = value.parse::<bool>() {
        b.into()
    } else {
        value.to_string().into()
    }
}
