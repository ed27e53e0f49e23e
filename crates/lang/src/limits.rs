//! The resources an aspect may use: script operations, CPU time, call and
//! expression depth, the sizes of the values it builds, the files it reads
//! and writes, and the depth of the values it writes. Each has a name
//! (`--limit NAME=VALUE` on the command line) and a default generous for
//! real aspects yet far below what would hurt a shared machine.

use std::fmt;

/// The limits of one aspect run. `0` means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Script operations (rhai's count of statements and expressions).
    pub operations: u64,
    /// CPU seconds of the script thread (host work included, solvers not).
    pub cpu_seconds: u64,
    /// Nested calls of aspects and functions.
    pub call_levels: u64,
    /// Nesting of expressions and statements in the script.
    pub expression_depth: u64,
    /// Bytes of one string.
    pub string_bytes: u64,
    /// Items of one array, counting the items of arrays inside it.
    pub array_items: u64,
    /// Entries of one map, counting the entries of maps inside it.
    pub map_entries: u64,
    /// Bytes of one file read (an aspect, an import, `readJSON`) or
    /// written (`writeJSON`).
    pub file_bytes: u64,
    /// Nesting of arrays and maps in a value written (`writeJSON`).
    pub value_depth: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations: 50_000_000,
            cpu_seconds: 600,
            call_levels: 96,
            expression_depth: 256,
            string_bytes: 64 << 20,
            array_items: 1_000_000,
            map_entries: 1_000_000,
            file_bytes: 64 << 20,
            value_depth: 128,
        }
    }
}

/// One limit: its name on the command line and what it bounds.
pub struct LimitName {
    pub name: &'static str,
    pub what: &'static str,
    field: fn(&mut Limits) -> &mut u64,
}

/// Every limit, in the order documentation lists them.
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName {
        name: "operations",
        what: "script operations of a run",
        field: |l| &mut l.operations,
    },
    LimitName {
        name: "cpu-seconds",
        what: "CPU seconds of a run",
        field: |l| &mut l.cpu_seconds,
    },
    LimitName {
        name: "call-levels",
        what: "nested calls",
        field: |l| &mut l.call_levels,
    },
    LimitName {
        name: "expression-depth",
        what: "nesting of expressions and statements",
        field: |l| &mut l.expression_depth,
    },
    LimitName {
        name: "string",
        what: "bytes of one string",
        field: |l| &mut l.string_bytes,
    },
    LimitName {
        name: "array",
        what: "items of one array (nested arrays included)",
        field: |l| &mut l.array_items,
    },
    LimitName {
        name: "map",
        what: "entries of one map (nested maps included)",
        field: |l| &mut l.map_entries,
    },
    LimitName {
        name: "file",
        what: "bytes of one file read or written for the aspect",
        field: |l| &mut l.file_bytes,
    },
    LimitName {
        name: "value-depth",
        what: "nesting of arrays and maps in a value written",
        field: |l| &mut l.value_depth,
    },
];

/// A `--limit` setting that is not `NAME=VALUE` with a known name and a
/// count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitError(String);

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LimitError {}

impl Limits {
    /// The defaults changed by `NAME=VALUE` settings, in order. A value is
    /// a count, optionally followed by `K`, `M` or `G` (times 1024, 1024²,
    /// 1024³); `0` lifts the limit.
    pub fn with_settings(settings: &[String]) -> Result<Limits, LimitError> {
        let mut limits = Limits::default();
        for setting in settings {
            limits.set(setting)?;
        }
        Ok(limits)
    }

    fn set(&mut self, setting: &str) -> Result<(), LimitError> {
        let known = || LIMIT_NAMES.iter().map(|l| l.name).collect::<Vec<_>>().join(", ");
        let Some((name, value)) = setting.split_once('=') else {
            return Err(LimitError(format!(
                "--limit `{setting}` is not of the form NAME=VALUE (names: {})",
                known()
            )));
        };
        let Some(limit) = LIMIT_NAMES.iter().find(|l| l.name == name.trim()) else {
            let hint = crate::diag::closest(name, LIMIT_NAMES.iter().map(|l| l.name))
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            let described: Vec<String> = LIMIT_NAMES
                .iter()
                .map(|l| format!("{} ({})", l.name, l.what))
                .collect();
            return Err(LimitError(format!(
                "no limit named `{name}`: {hint}the limits are {}",
                described.join(", ")
            )));
        };
        let count = parse_count(value.trim()).ok_or_else(|| {
            LimitError(format!(
                "--limit {name}: `{value}` is not a count (digits, optionally followed by K, M or G)"
            ))
        })?;
        *(limit.field)(self) = count;
        Ok(())
    }
}

/// `12`, `64K`, `64M`, `2G` as a number.
fn parse_count(text: &str) -> Option<u64> {
    let (digits, scale) = match text.char_indices().last()? {
        (i, 'k' | 'K') => (&text[..i], 1 << 10),
        (i, 'm' | 'M') => (&text[..i], 1 << 20),
        (i, 'g' | 'G') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

/// How a limit reads in a message: its value and how to raise it.
pub(crate) fn raise_hint(name: &str) -> String {
    format!("limit `{name}`: raise it with `--limit {name}=N` on weave or check (0 lifts it)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_change_the_named_limit_only() {
        let limits = Limits::with_settings(&["string=2M".into(), "operations=0".into()]).unwrap();
        assert_eq!(limits.string_bytes, 2 << 20);
        assert_eq!(limits.operations, 0);
        assert_eq!(limits.array_items, Limits::default().array_items);
    }

    #[test]
    fn bad_settings_say_what_is_wrong() {
        let err = |s: &str| Limits::with_settings(&[s.into()]).unwrap_err().to_string();
        assert!(
            err("strng=1").contains("did you mean `string`?"),
            "{}",
            err("strng=1")
        );
        assert!(err("string").contains("NAME=VALUE"));
        assert!(err("string=lots").contains("not a count"));
        assert!(err("file=99999999999G").contains("not a count"));
    }
}
