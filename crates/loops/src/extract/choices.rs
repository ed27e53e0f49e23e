//! Nondeterministic choices: each `__VERIFIER_nondet_X()` call in a loop
//! is a variable of its own, free in every iteration (a new value each
//! time round), which the recurrence check quantifies existentially: S is
//! recurrent when from every state in S *some* choice keeps the loop in
//! S (`crate::src`). Such an SRC says that a run that never ends exists,
//! with the choices it makes; not that every run from S hangs.

use tree_sitter::Node;

use super::{Extractor, R};
use crate::ir::IntType;

/// The type a `__VERIFIER_nondet_X` function returns, for the integer
/// ones weft models (`bool` is left out: its values are 0 and 1 only).
pub(super) fn choice_type(callee: &str) -> Option<IntType> {
    let t = |width, signed| Some(IntType { width, signed });
    match callee.strip_prefix("__VERIFIER_nondet_")? {
        "char" | "schar" => t(8, true),
        "uchar" | "unsigned_char" | "u8" => t(8, false),
        "short" => t(16, true),
        "ushort" | "unsigned_short" | "u16" => t(16, false),
        "int" => t(32, true),
        "uint" | "unsigned_int" | "unsigned" | "u32" => t(32, false),
        "long" | "longlong" => t(64, true),
        "ulong" | "unsigned_long" | "ulonglong" | "size_t" => t(64, false),
        _ => None,
    }
}

impl Extractor<'_> {
    /// The variable standing for the value of a `__VERIFIER_nondet_X()`
    /// call without arguments, or why it is none.
    pub(super) fn choice(&mut self, call: Node<'_>) -> R<String> {
        let callee = self.src_of_callee(call).to_string();
        let t = choice_type(&callee).ok_or_else(|| format!("calls {callee}()"))?;
        if call
            .child_by_field_name("arguments")
            .is_some_and(|a| a.named_child_count() > 0)
        {
            return Err(format!("calls {callee}() with arguments"));
        }
        let at = call.start_position();
        let name = format!("?{}.{}", at.row + 1, at.column + 1);
        self.vars.insert(name.clone(), t);
        self.choices.insert(
            name.clone(),
            format!("{callee}() at {}:{}", at.row + 1, at.column + 1),
        );
        Ok(name)
    }
}
