//! Daikon's trace formats: `.decls` (declaration format version 2.0) and
//! `.dtrace` sample records, as described in the Daikon developer manual
//! ("File formats"). [`write`] produces them from [`PointDecl`]s and samples,
//! so that Daikon itself can serve as an oracle; [`read`] parses them back
//! (including traces from Daikon's front ends such as Kvasir) so that they
//! can be fed to the [`Engine`](crate::Engine).
//!
//! [`PointDecl`]: crate::PointDecl

pub mod orig;
pub mod read;
pub mod write;

pub use orig::Invocations;
pub use read::{DtraceReader, ReadError, Record, feed};
pub use write::{DtraceWriter, write_decls};

use crate::model::{PointKind, Rep};

/// The `rep-type` of a representation.
pub(crate) fn rep_type(rep: Rep) -> &'static str {
    match rep {
        Rep::Int => "int",
        Rep::Float => "double",
        Rep::Pointer => "hashcode",
        Rep::Str => "java.lang.String",
        Rep::IntSeq => "int[]",
        Rep::FloatSeq => "double[]",
    }
}

/// The representation of a `rep-type`, `None` for those the engine does not
/// model (arrays of strings).
pub(crate) fn rep_of(rep_type: &str) -> Option<Rep> {
    Some(match rep_type {
        "int" | "boolean" | "char" | "byte" | "short" | "long" => Rep::Int,
        "double" | "float" => Rep::Float,
        "hashcode" => Rep::Pointer,
        "java.lang.String" => Rep::Str,
        "int[]" | "boolean[]" | "hashcode[]" | "char[]" | "long[]" => Rep::IntSeq,
        "double[]" | "float[]" => Rep::FloatSeq,
        _ => return None,
    })
}

/// Blanks in names are written `\_` in declarations, backslashes `\\`.
pub(crate) fn escape_name(name: &str) -> String {
    name.replace('\\', "\\\\").replace(' ', "\\_")
}

pub(crate) fn unescape_name(name: &str) -> String {
    let mut out = String::new();
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some('_')) => {
                out.push(' ');
                chars.next();
            }
            ('\\', Some('\\')) => {
                out.push('\\');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The `ppt-type` of a point: numbered exits are `subexit`.
pub(crate) fn ppt_type(kind: PointKind, numbered_exit: bool) -> &'static str {
    match kind {
        PointKind::Enter => "enter",
        PointKind::Exit if numbered_exit => "subexit",
        PointKind::Exit => "exit",
        PointKind::Point => "point",
    }
}

#[cfg(test)]
mod tests;
