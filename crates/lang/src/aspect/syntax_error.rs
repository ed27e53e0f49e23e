//! Turning pest failures into readable diagnostics: grammar rule names become
//! words ("a name", "`end`"), and the text found at the error is quoted.

use std::sync::Arc;

use pest::error::{Error, ErrorVariant, InputLocation};

use super::parser::Rule;
use crate::diag::{Diagnostic, SourceFile};

/// Deeper nesting than this is refused before parsing, so that no input can
/// exhaust the stack of the recursive-descent parser or the translator.
pub const MAX_NESTING: usize = 200;

/// A diagnostic for a pest error in `text`, which starts at byte `base` of `file`.
pub fn syntax_error(file: &Arc<SourceFile>, base: usize, error: &Error<Rule>) -> Diagnostic {
    let start = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let at = base + start;
    let found = found_at(&file.text, at);
    let end = at + found.as_ref().map_or(0, |f| f.len());
    let message = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let mut words: Vec<&str> = positives.iter().map(|r| describe(*r)).collect();
            words.sort_unstable();
            words.dedup();
            format!("expected {}", join_or(&words))
        }
        ErrorVariant::ParsingError { .. } => "unexpected text".to_string(),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = match found {
        Some(text) => format!(", found `{text}`"),
        None => ", found the end of the file".to_string(),
    };
    let mut diagnostic = Diagnostic::error(file, at..end, format!("syntax error: {message}{found}"));
    if let Some(hint) = hint_for(&message) {
        diagnostic = diagnostic.with_hint(hint);
    }
    diagnostic
}

/// Refuses text nested deeper than [`MAX_NESTING`] brackets.
pub fn nesting_error(file: &Arc<SourceFile>, text: &str, base: usize) -> Option<Diagnostic> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            let message = format!("brackets nested more than {MAX_NESTING} deep");
            return Some(Diagnostic::error(file, base + i..base + i + 1, message));
        }
    }
    None
}

/// The word or character at byte `at`, or None at the end of the text.
fn found_at(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let first = rest.chars().next()?;
    if first.is_alphanumeric() || first == '_' {
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        )
    } else {
        Some(first.to_string())
    }
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn hint_for(message: &str) -> Option<&'static str> {
    if message.contains("`end`") {
        Some("every aspectdef, input, output, select, apply and condition block ends with `end`")
    } else if message.contains("an expression") {
        Some("is a value, an operator or a closing bracket missing?")
    } else {
        None
    }
}

/// Readable words for the grammar's rules.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the file",
        Rule::import => "`import`",
        Rule::aspectdef | Rule::kw_aspectdef => "`aspectdef`",
        Rule::kw_end => "`end`",
        Rule::input | Rule::kw_input => "`input`",
        Rule::output | Rule::kw_output => "`output`",
        Rule::select | Rule::kw_select => "`select`",
        Rule::apply | Rule::kw_apply => "`apply`",
        Rule::condition | Rule::kw_condition => "`condition`",
        Rule::apply_to | Rule::kw_to => "`to`",
        Rule::ident | Rule::ident_raw => "a name",
        Rule::chain | Rule::step | Rule::chain_only => "a join point name",
        Rule::filter => "a filter (`{…}`)",
        Rule::compare => "a comparison (`attribute == value`)",
        Rule::cmp_op => "a comparison operator",
        Rule::params | Rule::param => "a parameter",
        Rule::position | Rule::kw_before | Rule::kw_after | Rule::kw_replace => {
            "`before`, `after` or `replace`"
        }
        Rule::sq_body | Rule::dq_body => "the end of the string",
        Rule::code_body => "`}%`",
        Rule::args => "`(`",
        Rule::fn_params => "a parameter list",
        Rule::block => "`{`",
        Rule::kw_in => "`in`",
        // Everything that can start or continue an expression.
        Rule::expr
        | Rule::filter_value
        | Rule::head
        | Rule::interpolation
        | Rule::word
        | Rule::jp
        | Rule::string
        | Rule::code
        | Rule::backtick
        | Rule::number
        | Rule::punct
        | Rule::member
        | Rule::incdec
        | Rule::paren
        | Rule::bracket
        | Rule::object
        | Rule::rhai_map
        | Rule::function_expr
        | Rule::kw_new
        | Rule::undefined
        | Rule::comma => "an expression",
        _ => "a statement",
    }
}
