//! The values monitors record: a C scalar read as 8 bytes, and the C
//! expression that reads it.

use std::fmt;

use crate::ranges::ValueType;

/// How a monitored value is stored: 8 bytes, as the bits of a `long
/// long`, an `unsigned long long`, a `double` or an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKind {
    I64,
    U64,
    F64,
    /// An address; only null / non-null and equality mean anything.
    Pointer,
}

impl VarKind {
    /// The kind of a C type spelled with standard names, or `None` when it
    /// is not a scalar weft can read (structs, arrays, unknown typedefs).
    /// `pointer` says the type is a pointer even when its spelling hides it.
    pub fn for_c_type(c_type: &str, pointer: bool) -> Option<VarKind> {
        if pointer || (c_type.contains('*') && !c_type.contains(['[', '('])) {
            return Some(VarKind::Pointer);
        }
        ValueType::for_c_type(c_type).map(|v| match v {
            ValueType::I64 => VarKind::I64,
            ValueType::U64 => VarKind::U64,
            ValueType::F64 => VarKind::F64,
        })
    }

    /// The name used in trace declarations.
    pub fn as_str(self) -> &'static str {
        match self {
            VarKind::I64 => "i64",
            VarKind::U64 => "u64",
            VarKind::F64 => "f64",
            VarKind::Pointer => "ptr",
        }
    }

    /// The kind named `name` in trace declarations.
    pub fn parse(name: &str) -> Option<VarKind> {
        [VarKind::I64, VarKind::U64, VarKind::F64, VarKind::Pointer]
            .into_iter()
            .find(|k| k.as_str() == name)
    }

    /// A C expression of type `unsigned long long` holding `expr`'s value
    /// as the runtime stores it (evaluated once).
    pub fn encode(self, expr: &str) -> String {
        match self {
            VarKind::I64 => format!("(unsigned long long)(long long)({expr})"),
            VarKind::U64 => format!("(unsigned long long)({expr})"),
            VarKind::F64 => format!("weft_f64_bits((double)({expr}))"),
            VarKind::Pointer => format!("(unsigned long long)(__UINTPTR_TYPE__)({expr})"),
        }
    }
}

impl fmt::Display for VarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_c_type() {
        assert_eq!(VarKind::for_c_type("const char *", false), Some(VarKind::Pointer));
        assert_eq!(VarKind::for_c_type("unsigned", false), Some(VarKind::U64));
        assert_eq!(VarKind::for_c_type("double", false), Some(VarKind::F64));
        assert_eq!(VarKind::for_c_type("FILEP", true), Some(VarKind::Pointer));
        assert_eq!(VarKind::for_c_type("struct s", false), None);
        assert_eq!(VarKind::for_c_type("int (*)(void)", false), None);
    }
}
