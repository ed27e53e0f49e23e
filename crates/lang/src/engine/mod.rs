//! The aspect interpreter: runs a parsed aspect module against a [`Host`]
//! (the program being woven). The module is translated to one rhai script
//! ([`translate`](self::translate)) whose LARA actions call registered
//! functions ([`builtins`](self::builtins)); see docs/aspect-language.md.

mod builtins;
mod convert;
mod emit;
mod error;
mod host;
mod interpreter;
mod json;
mod laraobject;
mod matches;
mod names;
mod select;
mod shared_host;
mod translate;
mod translate_expr;

pub use error::EngineError;
pub use host::{Host, HostError, InsertAt, Part};
pub use interpreter::{run, run_collected};
pub use matches::{Match, Step, describe_matches};
pub use select::{Tuple, join, select};

use crate::Limits;
use crate::aspect::Module;
use crate::aspect::ast::{Expr, Piece, Token};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::Value;

/// Functions a layer above the engine offers aspects (a monitor's table
/// builders, say): registers them on the script engine of a run. The
/// engine knows no monitor; whoever starts a run passes the APIs it wants
/// (the command line passes every monitor's).
pub type ScriptApi = fn(&mut rhai::Engine);

/// What a successful run reports besides its edits.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    /// Inserts the host refused (e.g. code after a `return`).
    pub warnings: Vec<Warning>,
    /// Lines the aspect printed (`println`, `print`); they were also
    /// written to standard output as they came.
    pub printed: Vec<String>,
}

/// An insert the host refused.
#[derive(Debug, Clone)]
pub struct Warning {
    /// `file:line:col` in the C program.
    pub c_location: String,
    /// The host's reason.
    pub message: String,
    /// A warning anchored at the insert in the aspect.
    pub diagnostic: Diagnostic,
}

/// Static checks of a loaded module, the same for `weft check` and before
/// every run: an aspect to start with, everything translation can see
/// (unknown join point kinds, attributes, aspects, labels, `$` variables)
/// and the script syntax rhai reports when compiling the translation
/// (with the expression depth of `limits`).
pub fn check(module: &Module, limits: &Limits) -> Diagnostics {
    if let Err(EngineError::Aspect(diagnostics)) = interpreter::entry_aspect(module, None) {
        return diagnostics;
    }
    let translation = match translate::translate(module) {
        Ok(translation) => translation,
        Err(diagnostics) => return diagnostics,
    };
    let mut engine = rhai::Engine::new_raw();
    builtins::set_limits(&mut engine, limits);
    // Every variable must be declared before use: what a run would only
    // find when it reached the use.
    engine.set_strict_variables(true);
    match engine.compile(&translation.script) {
        Ok(_) => Diagnostics::default(),
        Err(e) => Diagnostics(error::from_parse(e, &translation.map).diagnostics()),
    }
}

/// The join points `chain` (e.g. `function{"main"}.loop`) selects in
/// `host`: one tuple per match, each step named as written. Filter values
/// must be literals.
pub fn select_chain(chain: &str, host: &mut dyn Host) -> Result<Vec<Tuple>, EngineError> {
    let chain = crate::aspect::parse_chain(chain).map_err(EngineError::Aspect)?;
    let errors = names::check_chain(&chain);
    if !errors.is_empty() {
        return Err(EngineError::Aspect(Diagnostics(errors)));
    }
    let mut values = Vec::new();
    for compare in chain.steps.iter().flat_map(|s| &s.filter) {
        let value = literal_value(&compare.value).ok_or_else(|| {
            let span = &compare.value.span;
            EngineError::Aspect(
                Diagnostic::error(&span.file, span.range.clone(), "not a literal value")
                    .with_hint("filter values of `weft select` must be strings, numbers or booleans")
                    .into(),
            )
        })?;
        values.push(value);
    }
    select(&chain, &values, host).map_err(|error| EngineError::Host {
        diagnostic: Diagnostic::bare(error.to_string()),
        error: Box::new(error),
    })
}

/// The value of a literal filter value: a string, number or boolean.
fn literal_value(expr: &Expr) -> Option<Value> {
    match expr.tokens.as_slice() {
        [Token::Str(literal)] => match literal.pieces.as_slice() {
            [] => Some(Value::Str(String::new())),
            [Piece::Text(text)] => Some(Value::Str(text.clone())),
            _ => None,
        },
        [Token::Plain(span)] => {
            let text = span.text();
            text.parse::<i64>()
                .map(Value::Int)
                .or_else(|_| text.parse::<f64>().map(Value::Float))
                .or_else(|_| text.parse::<bool>().map(Value::Bool))
                .ok()
        }
        _ => None,
    }
}
