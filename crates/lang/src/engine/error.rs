//! What can go wrong while running an aspect, located in the aspect file.

use std::fmt;

use rhai::EvalAltResult;

use super::builtins::{CPU_TOKEN, HostFailure};
use super::emit::SourceMap;
use super::host::HostError;
use super::translate::Translation;
use crate::Limits;
use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::raise_hint;

/// A failed run.
#[derive(Debug, Clone)]
pub enum EngineError {
    /// The aspect is wrong before anything runs: syntax, unknown names,
    /// an unknown entry aspect or input.
    Aspect(Diagnostics),
    /// A script error while running (a type error, an unknown function …).
    Script(Diagnostic),
    /// The host failed an action; `diagnostic` points at the action.
    Host {
        error: Box<HostError>,
        diagnostic: Diagnostic,
    },
    /// The script went over one of its limits (an endless loop, a string
    /// doubled without end, a file too large …): see [`Limits`].
    Limit(Diagnostic),
    /// A failure of weft itself.
    Internal(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Aspect(diagnostics) => write!(f, "{diagnostics}"),
            EngineError::Script(d) | EngineError::Limit(d) => write!(f, "{d}"),
            EngineError::Host { diagnostic, .. } => write!(f, "{diagnostic}"),
            EngineError::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// The diagnostics of the error, for tools that render them.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            EngineError::Aspect(d) => d.0.clone(),
            EngineError::Script(d) | EngineError::Limit(d) => vec![d.clone()],
            EngineError::Host { diagnostic, .. } => vec![diagnostic.clone()],
            EngineError::Internal(message) => vec![Diagnostic::bare(message.clone())],
        }
    }
}

/// A limit of the run met by a registered function: the payload of the
/// runtime error it returns.
#[derive(Debug, Clone)]
pub struct LimitFailure {
    message: String,
    /// The limit's name (`--limit NAME=…`).
    limit: &'static str,
}

/// The runtime error of a registered function that met limit `limit`.
pub fn limit_failure(message: String, limit: &'static str) -> Box<EvalAltResult> {
    let payload = rhai::Dynamic::from(LimitFailure { message, limit });
    Box::new(EvalAltResult::ErrorRuntime(payload, rhai::Position::NONE))
}

/// Locates a rhai failure in the aspect through the source map.
pub fn from_rhai(error: EvalAltResult, translation: &Translation, limits: &Limits) -> EngineError {
    // Errors inside aspect functions and closures arrive wrapped once per
    // call level; the innermost one has the useful position.
    let mut error = error;
    while let EvalAltResult::ErrorInFunctionCall(_, _, inner, _) = error {
        error = *inner;
    }
    let position = error.position();
    let located = |message: String| locate(&translation.map, position, message);
    match error {
        EvalAltResult::ErrorRuntime(payload, _) if payload.is::<HostFailure>() => {
            let Some(HostFailure { error, site }) = payload.try_cast::<HostFailure>() else {
                return EngineError::Internal("lost host error".into());
            };
            let span = site.and_then(|s| translation.sites.get(s));
            let diagnostic = match span {
                Some(span) => Diagnostic::error(&span.file, span.range.clone(), error.to_string()),
                None => located(error.to_string()),
            };
            let diagnostic = match &error {
                HostError::UnknownKind {
                    suggestion: Some(s), ..
                }
                | HostError::UnknownAttribute {
                    suggestion: Some(s), ..
                } => diagnostic.with_hint(format!("did you mean `{s}`?")),
                _ => diagnostic,
            };
            EngineError::Host {
                error: Box::new(error),
                diagnostic,
            }
        }
        EvalAltResult::ErrorRuntime(payload, _) if payload.is::<LimitFailure>() => {
            let Some(LimitFailure { message, limit }) = payload.try_cast::<LimitFailure>() else {
                return EngineError::Internal("lost limit error".into());
            };
            EngineError::Limit(located(message).with_hint(raise_hint(limit)))
        }
        other => match limit_met(&other, limits) {
            Some((message, limit)) => EngineError::Limit(located(message).with_hint(raise_hint(limit))),
            None => {
                let mut other = other;
                other.clear_position();
                // A message of weft's own functions needs no rhai prefix.
                let text = other.to_string();
                let text = text.strip_prefix("Runtime error: ").unwrap_or(&text);
                EngineError::Script(located(readable(text)))
            }
        },
    }
}

/// The message and limit name of a rhai error that is one of the run's
/// limits.
fn limit_met(error: &EvalAltResult, limits: &Limits) -> Option<(String, &'static str)> {
    Some(match error {
        EvalAltResult::ErrorTooManyOperations(_) => (
            format!(
                "the aspect ran more than {} script operations and was stopped: is there an endless loop here?",
                limits.operations
            ),
            "operations",
        ),
        EvalAltResult::ErrorTerminated(token, _) if token.clone().into_string().ok()? == CPU_TOKEN => (
            format!(
                "the aspect ran for more than {} CPU seconds and was stopped here",
                limits.cpu_seconds
            ),
            "cpu-seconds",
        ),
        EvalAltResult::ErrorStackOverflow(_) => (
            format!("calls nested more than {} levels deep", limits.call_levels),
            "call-levels",
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) if what.contains("string") => (
            format!("a string grew past {} bytes", limits.string_bytes),
            "string",
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) if what.contains("array") => (
            format!(
                "an array grew past {} items (counting nested arrays)",
                limits.array_items
            ),
            "array",
        ),
        EvalAltResult::ErrorDataTooLarge(what, _) if what.contains("map") => (
            format!(
                "a map grew past {} entries (counting nested maps)",
                limits.map_entries
            ),
            "map",
        ),
        _ => return None,
    })
}

/// Locates a rhai parse failure of the generated script.
pub fn from_parse(error: rhai::ParseError, map: &SourceMap) -> EngineError {
    let message = readable(&error.err_type().to_string());
    EngineError::Script(locate(map, error.position(), format!("script syntax: {message}")))
}

fn locate(map: &SourceMap, position: rhai::Position, message: String) -> Diagnostic {
    let found = match (position.line(), position.position()) {
        (Some(line), col) => map.lookup(line, col.unwrap_or(1)),
        _ => None,
    };
    match found {
        Some((file, offset)) => {
            let end = file.text[offset..]
                .char_indices()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '$'))
                .map_or(file.text.len(), |(i, _)| offset + i)
                .max(offset + 1)
                .min(file.text.len());
            Diagnostic::error(&file, offset..end, message)
        }
        None => Diagnostic::bare(message),
    }
}

/// rhai's message with generated names turned back into aspect names.
fn readable(message: &str) -> String {
    message
        .replace("weft_jp_", "$")
        .replace("weft_aspect_", "aspect ")
        .replace("weft_r_", "")
        .replace("weft_truthy", "condition")
}
