//! Introducing a temporary in place of a statement:
//! `{ T tmp; tmp = value; rest }`, all on the statement's own line.
//!
//! A block is legal wherever the statement was (after a label, as the body
//! of an `if`, in a `case`), opens a new scope so the declaration comes
//! first as C89 requires, and keeps every later line number. The value is
//! stored by assignment rather than an initialiser so that instrumentation
//! that watches assignments to scalars sees it.

use weft_c::sema::TypeSpelling;

/// The block replacing a statement: declare `tmp` with `spelling`, assign
/// it `value`, then run `rest` (which uses `tmp`).
pub fn block(spelling: &TypeSpelling, tmp: &str, value: &str, rest: &str) -> String {
    format!("{{ {} {tmp} = {value}; {rest} }}", spelling.declare(tmp))
}
