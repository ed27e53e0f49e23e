//! The identity of a monitored variable and the type its values are kept in.
//!
//! A [`Key`] names an entry by what it monitors, never by its position in a
//! table, so ranges from different builds, versions and runs line up.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What kind of program point an entry monitors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A function parameter, on entry.
    Param,
    /// A variable, after an assignment to it.
    Write,
    /// A variable used in a `return` expression, before the return.
    Return,
}

impl Kind {
    /// The name used in record files, JSON and aspects.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Param => "param",
            Kind::Write => "write",
            Kind::Return => "return",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "param" => Ok(Kind::Param),
            "write" => Ok(Kind::Write),
            "return" => Ok(Kind::Return),
            _ => Err(format!(
                "unknown entry kind `{s}` (expected param, write or return)"
            )),
        }
    }
}

/// The type a variable's values are recorded in. Each keeps its values
/// exactly: no integer goes through a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    /// Signed integers (and plain `char`, enums), as `long long`.
    I64,
    /// Unsigned integers and `_Bool`, as `unsigned long long`.
    U64,
    /// `float` and `double` (and `long double`, rounded), as `double`.
    F64,
}

impl ValueType {
    /// The name used in record files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::I64 => "i64",
            ValueType::U64 => "u64",
            ValueType::F64 => "f64",
        }
    }

    /// The value type for a C scalar type spelled with standard names
    /// (`unsigned int`, `size_t`, `double`, `const long`, …), or `None` for
    /// pointers, aggregates and typedefs it does not know: the weaver resolves
    /// those to their underlying type first.
    pub fn for_c_type(c_type: &str) -> Option<ValueType> {
        let words: Vec<&str> = c_type
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "volatile" | "register" | "static" | "extern"))
            .collect();
        if words.is_empty() || c_type.contains(['*', '[', '(']) {
            return None;
        }
        let has = |w: &str| words.contains(&w);
        if has("struct") || has("union") || has("void") {
            return None;
        }
        if has("float") || has("double") {
            return Some(ValueType::F64);
        }
        if has("enum") {
            return Some(ValueType::I64);
        }
        if has("unsigned") || has("_Bool") || has("bool") {
            return Some(ValueType::U64);
        }
        if words.len() == 1 {
            return match words[0] {
                "size_t" | "uintptr_t" | "uintmax_t" | "uint8_t" | "uint16_t" | "uint32_t" | "uint64_t" => {
                    Some(ValueType::U64)
                }
                "ssize_t" | "ptrdiff_t" | "intptr_t" | "intmax_t" | "off_t" | "int8_t" | "int16_t"
                | "int32_t" | "int64_t" | "int" | "char" | "short" | "long" | "signed" => {
                    Some(ValueType::I64)
                }
                _ => None,
            };
        }
        words
            .iter()
            .all(|w| matches!(*w, "signed" | "char" | "short" | "int" | "long"))
            .then_some(ValueType::I64)
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ValueType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "i64" => Ok(ValueType::I64),
            "u64" => Ok(ValueType::U64),
            "f64" => Ok(ValueType::F64),
            _ => Err(format!("unknown value type `{s}` (expected i64, u64 or f64)")),
        }
    }
}

/// The stable name of one monitored variable. Ordered by function first so
/// listings group a function's variables together.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key {
    pub function: String,
    pub variable: String,
    pub kind: Kind,
    /// The translation unit's path as the weaver saw it (relative to the
    /// program's root), so equal names in different files stay apart.
    pub file: String,
    /// Part of the identity: two variables of one name and different types
    /// (shadowing) are different variables.
    #[serde(rename = "type")]
    pub value_type: ValueType,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}:{}:{} ({})",
            self.kind, self.file, self.function, self.variable, self.value_type
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_types_map_to_value_types() {
        assert_eq!(ValueType::for_c_type("int"), Some(ValueType::I64));
        assert_eq!(ValueType::for_c_type("const long long"), Some(ValueType::I64));
        assert_eq!(ValueType::for_c_type("unsigned char"), Some(ValueType::U64));
        assert_eq!(ValueType::for_c_type("size_t"), Some(ValueType::U64));
        assert_eq!(ValueType::for_c_type("long double"), Some(ValueType::F64));
        assert_eq!(ValueType::for_c_type("enum color"), Some(ValueType::I64));
        assert_eq!(ValueType::for_c_type("char *"), None);
        assert_eq!(ValueType::for_c_type("struct s"), None);
        assert_eq!(ValueType::for_c_type("my_typedef"), None);
        assert_eq!(ValueType::for_c_type("int x[3]"), None);
    }

    #[test]
    fn names_round_trip() {
        for k in [Kind::Param, Kind::Write, Kind::Return] {
            assert_eq!(k.as_str().parse::<Kind>(), Ok(k));
        }
        for t in [ValueType::I64, ValueType::U64, ValueType::F64] {
            assert_eq!(t.as_str().parse::<ValueType>(), Ok(t));
        }
        assert!("global".parse::<Kind>().is_err());
    }
}
