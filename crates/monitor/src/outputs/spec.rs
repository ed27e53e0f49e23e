//! The weaver's side of output capture: the runtime text every woven file
//! gets, the statements that capture a function's outputs, and which
//! pointer parameters have an output behind them.
//!
//! A woven file gets [`prelude`] at its very top and [`epilogue`] at its
//! very end. In a captured function, [`entry`] copies the pointer
//! parameters at the start of the body (the body may move them), and
//! before each `return`, [`exit`] records what they point to and
//! [`returned`] the returned value.

use crate::c_text::{c_string, once, unit_stem};
use crate::ranges::ValueType;

/// The hot runtime part: the annotations and the declarations they call.
pub const RUNTIME_HOT: &str = include_str!("../../runtime/weft_outputs_hot.h");
/// The cold runtime part: the common record code, then the writer.
pub const RUNTIME_COLD: &str = concat!(
    include_str!("../../runtime/weft_out.h"),
    include_str!("../../runtime/weft_outputs_cold.h")
);

/// The text for the very top of the woven file `file` (its path relative
/// to the program's root): the hot part and the unit's state. A woven file
/// that includes another keeps the first state: one unit, one record.
pub fn prelude(file: &str) -> String {
    let unit = file.replace(['\t', '\n'], " ");
    let state = format!(
        "static struct weft_outputs_state weft_outputs_here = {{{}, {}, -1, 0, 0}};\n",
        c_string(&unit_stem(file)),
        c_string(&unit)
    );
    format!("{RUNTIME_HOT}{}", once("WEFT_OUTPUTS_HERE", &state))
}

/// The text for the very end of every woven file.
pub fn epilogue() -> String {
    format!("\n{RUNTIME_COLD}")
}

/// The name of a function's returned value.
pub fn return_name(function: &str) -> String {
    format!("{function}.return")
}

/// The name of what a function's pointer parameter points to.
pub fn pointee_name(function: &str, param: &str) -> String {
    format!("{function}.*{param}")
}

/// The local that holds a pointer parameter's value from the function's
/// entry on.
fn entry_copy(param: &str) -> String {
    format!("weft_arg_{param}")
}

/// Whether a returned value of the scalar type `scalar_type` (the
/// `scalar_type` attribute: standard spelling after typedefs) is captured,
/// and if not, why.
pub fn return_verdict(scalar_type: Option<&str>) -> Result<(), &'static str> {
    match scalar_type {
        None => Err("not an arithmetic type (a struct, or a type weft cannot resolve)"),
        Some(t) if t.contains('*') => {
            Err("a pointer: its address differs between runs, and what it points to has no known length")
        }
        Some(t) if ValueType::for_c_type(t).is_some() => Ok(()),
        Some(_) => Err("not an arithmetic type"),
    }
}

/// The statement recording `value`, a plain variable a function returns.
pub fn returned(function: &str, value: &str) -> String {
    format!("weft_output({}, {value});", c_string(&return_name(function)))
}

/// The declaration, for the start of a function's body (after its own
/// declarations), that keeps the entry value of each pointer parameter in
/// `params`: the exits read what the caller passed, even when the body
/// moves a parameter along a buffer.
pub fn entry(params: &[String]) -> String {
    let copies: Vec<String> = params
        .iter()
        .map(|p| format!("__typeof__({p}) {} __attribute__((unused)) = {p};", entry_copy(p)))
        .collect();
    copies.join(" ")
}

/// The statements, for just before an exit of `function`, recording what
/// each pointer parameter in `params` points to (nothing for a null one,
/// or one whose pointee type turns out not to be recorded: the runtime's
/// `weft_output_pointee` decides by the exact type).
pub fn exit(function: &str, params: &[String]) -> String {
    let statements: Vec<String> = params
        .iter()
        .map(|p| {
            let name = c_string(&pointee_name(function, p));
            format!("weft_output_pointee({name}, {});", entry_copy(p))
        })
        .collect();
    statements.join(" ")
}

/// What a parameter points to, from the output capture's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointee {
    /// Not a pointer (nor an array parameter).
    NotPointer,
    /// A pointer to const data: an input, not an output.
    Input,
    /// Recorded at every exit when not null. A type weft cannot resolve by
    /// its spelling (a typedef) is left to the compiler: recorded when it
    /// is a non-character arithmetic type.
    Capture,
    /// Not recorded, for this reason.
    Skip(&'static str),
}

/// The type a pointer parameter written `c_type` points to (`int` for
/// `int *`, `int *const` or `int [4]`), `None` when the spelling shows no
/// pointer (a typedef that hides it).
fn pointee_spelling(c_type: &str) -> Option<&str> {
    let t = c_type.trim();
    if let Some(open) = t.rfind('[').filter(|_| t.ends_with(']')) {
        return Some(t[..open].trim());
    }
    let star = t.rfind('*')?;
    let qualifiers = t[star + 1..].split_whitespace();
    let only_qualifiers = qualifiers
        .into_iter()
        .all(|w| matches!(w, "const" | "volatile" | "restrict" | "__restrict"));
    only_qualifiers.then(|| t[..star].trim())
}

/// Classifies a parameter of declared type `c_type` (as written; `None`
/// when unknown) that is a pointer by `is_pointer` (typedefs included).
pub fn classify(c_type: Option<&str>, is_pointer: bool) -> Pointee {
    let Some(c_type) = c_type else {
        return if is_pointer {
            Pointee::Capture
        } else {
            Pointee::NotPointer
        };
    };
    if c_type.contains('(') {
        return if is_pointer || c_type.contains('*') {
            Pointee::Skip("a function pointer or a pointer to an array")
        } else {
            Pointee::NotPointer
        };
    }
    let pointee = match pointee_spelling(c_type) {
        Some(p) => p,
        None if is_pointer => return Pointee::Capture,
        None => return Pointee::NotPointer,
    };
    classify_pointee(pointee)
}

fn classify_pointee(pointee: &str) -> Pointee {
    let words: Vec<&str> = pointee.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    if pointee.contains(['*', '[']) {
        Pointee::Skip("points to a pointer or array: addresses differ between runs")
    } else if has("const") {
        Pointee::Input
    } else if has("volatile") {
        Pointee::Skip("points to volatile data: reading it may have effects")
    } else if has("struct") || has("union") {
        Pointee::Skip(
            "points to a struct or union: its padding bytes are not deterministic; annotate its members with weft_output",
        )
    } else if has("void") {
        Pointee::Skip("points to void: the type of the data is unknown")
    } else if has("char") {
        Pointee::Skip(
            "a character buffer: its length is unknown; annotate it with weft_output when it holds a string",
        )
    } else {
        Pointee::Capture
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_parameters_are_classified_by_what_they_point_to() {
        let c = |t: &str, p: bool| classify(Some(t), p);
        assert_eq!(c("int *", true), Pointee::Capture);
        assert_eq!(c("unsigned long *const", true), Pointee::Capture);
        assert_eq!(c("double [3]", true), Pointee::Capture);
        assert_eq!(c("ulg *", true), Pointee::Capture);
        assert_eq!(c("intp", true), Pointee::Capture);
        assert_eq!(classify(None, true), Pointee::Capture);
        assert_eq!(c("const int *", true), Pointee::Input);
        assert_eq!(c("int const *", true), Pointee::Input);
        assert_eq!(c("int", false), Pointee::NotPointer);
        assert_eq!(classify(None, false), Pointee::NotPointer);
        for (t, why) in [
            ("char *", "character buffer"),
            ("unsigned char *", "character buffer"),
            ("struct s *", "struct"),
            ("void *", "void"),
            ("int **", "pointer"),
            ("volatile int *", "volatile"),
            ("int (*)(void)", "function pointer"),
        ] {
            match c(t, true) {
                Pointee::Skip(reason) => assert!(reason.contains(why), "{t}: {reason}"),
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn statements_name_the_function_and_parameter() {
        let params = vec!["out".to_string(), "n".to_string()];
        assert_eq!(
            entry(&params[..1]),
            "__typeof__(out) weft_arg_out __attribute__((unused)) = out;"
        );
        assert_eq!(
            exit("f", &params),
            "weft_output_pointee(\"f.*out\", weft_arg_out); weft_output_pointee(\"f.*n\", weft_arg_n);"
        );
        assert_eq!(returned("f", "weft_ret"), "weft_output(\"f.return\", weft_ret);");
        assert!(return_verdict(Some("unsigned long")).is_ok());
        assert!(return_verdict(Some("void *")).unwrap_err().contains("pointer"));
        assert!(return_verdict(None).is_err());
        let top = prelude("src/a\tb.c");
        assert!(
            top.ends_with("{\"src_a_b_c\", \"src/a b.c\", -1, 0, 0};\n#endif /* WEFT_OUTPUTS_HERE */\n"),
            "{top}"
        );
        assert!(epilogue().contains("WEFT_OUTPUTS_COLD_V1"));
    }
}
