//! The weaver's side of tracing: one [`TraceSpec`] per woven unit collects
//! its program points and generates the C text.
//!
//! A unit gets [`TraceSpec::prelude`] at its very top, a sample statement at
//! each point ([`TraceSpec::enter`] declares the invocation's nonce at a
//! function's entry; [`TraceSpec::exit`] uses it before each return) and
//! [`TraceSpec::epilogue`] at its very end. A sample's values are computed
//! only when the sampling policy keeps the invocation.

use std::fmt::Write as _;

pub use super::layout::{Layout, TracedVar};
use crate::c_text::{c_string, once_per_unit, unit_hooks, unit_stem};
pub use crate::value::VarKind;

/// The hot runtime part: declarations the sample statements call.
pub const RUNTIME_HOT: &str = concat!(
    include_str!("../../runtime/weft_value_hot.h"),
    include_str!("../../runtime/weft_read_hot.h"),
    include_str!("../../runtime/weft_trace_hot.h"),
    include_str!("../../runtime/weft_heap_hot.h")
);
/// The cold runtime part: the common record code, then the trace writer
/// and the table of the program's live allocations.
pub const RUNTIME_COLD: &str = concat!(
    include_str!("../../runtime/weft_out.h"),
    include_str!("../../runtime/weft_trace_cold.h"),
    include_str!("../../runtime/weft_heap_cold.h")
);

/// The C name of the local holding an invocation's nonce.
pub const NONCE: &str = "weft_inv";

/// Whether a point starts an invocation, ends one, or lies inside one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointKind {
    Enter,
    Exit,
    /// A point inside a function (before a call that does not return, a
    /// loop head): Daikon's `ppt-type point`.
    Inner,
}

impl PointKind {
    /// The kind's word in the declarations text.
    pub fn as_str(self) -> &'static str {
        match self {
            PointKind::Enter => "enter",
            PointKind::Exit => "exit",
            PointKind::Inner => "point",
        }
    }
}

/// One variable of a point, as declared in the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarDecl {
    pub name: String,
    /// The scalar kind (for an array, its elements').
    pub kind: VarKind,
    pub layout: Layout,
}

/// One program point: a function's entry, or one of its exits (by line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointDecl {
    pub function: String,
    pub kind: PointKind,
    /// The line of the entry or of the exit (a `return`, or the end of the
    /// body).
    pub line: usize,
    pub vars: Vec<VarDecl>,
}

/// The program points of one woven unit.
#[derive(Debug, Clone)]
pub struct TraceSpec {
    file: String,
    stem: String,
    points: Vec<PointDecl>,
}

impl TraceSpec {
    /// An empty spec for the unit at `file` (its path relative to the
    /// program's root).
    pub fn new(file: &str) -> TraceSpec {
        TraceSpec {
            file: file.to_string(),
            stem: unit_stem(file),
            points: Vec::new(),
        }
    }

    /// The unit's points, in declaration order.
    pub fn points(&self) -> &[PointDecl] {
        &self.points
    }

    /// The C pointer the sample statements pass to the runtime.
    fn tu(&self) -> String {
        format!("weft_trace_{}", self.stem)
    }

    fn add(&mut self, function: &str, kind: PointKind, line: usize, vars: &[TracedVar]) -> usize {
        self.points.push(PointDecl {
            function: function.to_string(),
            kind,
            line,
            vars: vars
                .iter()
                .map(|v| VarDecl {
                    name: v.name.clone(),
                    kind: v.kind,
                    layout: v.layout,
                })
                .collect(),
        });
        self.points.len() - 1
    }

    /// The values argument of a sample call: a compound literal, or a null
    /// pointer when there is nothing to record.
    fn values(&self, vars: &[TracedVar]) -> String {
        let slots: Vec<String> = vars.iter().flat_map(|v| v.slots(&self.tu())).collect();
        if slots.is_empty() {
            return "0, 0".to_string();
        }
        format!(
            "(const unsigned long long[]){{{}}}, {}",
            slots.join(", "),
            slots.len()
        )
    }

    /// A declaration for the start of `function`'s body: samples the entry
    /// when the sampling policy keeps it, and keeps the invocation's nonce
    /// (0 when not kept) in [`NONCE`] for its exits.
    pub fn enter(&mut self, function: &str, line: usize, vars: &[TracedVar]) -> String {
        let point = self.add(function, PointKind::Enter, line, vars);
        let tu = self.tu();
        format!(
            "unsigned long long {NONCE} = weft_trace_want({tu}, {point}u) ? weft_trace_enter({tu}, {point}u, {}) : 0;",
            self.values(vars)
        )
    }

    /// A statement for just before an exit of `function` at `line`: samples
    /// it as the exit of the invocation in [`NONCE`], if its entry was.
    pub fn exit(&mut self, function: &str, line: usize, vars: &[TracedVar]) -> String {
        let point = self.add(function, PointKind::Exit, line, vars);
        format!(
            "if ({NONCE} != 0) weft_trace_exit({}, {point}u, {NONCE}, {});",
            self.tu(),
            self.values(vars)
        )
    }

    /// A statement for a point inside `function` at `line`: samples it
    /// when the invocation in [`NONCE`] was sampled at its entry and the
    /// point's own sampling keeps this visit (a loop head visited millions
    /// of times in one invocation is sampled like a hot function).
    pub fn inner(&mut self, function: &str, line: usize, vars: &[TracedVar]) -> String {
        let point = self.add(function, PointKind::Inner, line, vars);
        let tu = self.tu();
        format!(
            "if ({NONCE} != 0 && weft_trace_want({tu}, {point}u)) weft_trace_exit({tu}, {point}u, {NONCE}, {});",
            self.values(vars)
        )
    }

    /// The same sample as [`TraceSpec::inner`] as a void expression, for a
    /// place where no statement can go without braces that cannot be
    /// added: `(SAMPLE, exit (1))` replaces the call `exit (1)`.
    pub fn inner_expr(&mut self, function: &str, line: usize, vars: &[TracedVar]) -> String {
        let point = self.add(function, PointKind::Inner, line, vars);
        let tu = self.tu();
        format!(
            "(({NONCE} != 0 && weft_trace_want({tu}, {point}u)) ? weft_trace_exit({tu}, {point}u, {NONCE}, {}) : (void)0)",
            self.values(vars)
        )
    }

    /// The declarations text written at the start of every trace file.
    pub fn declarations(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n'], " ");
        let mut text = format!("unit\t{}\n", clean(&self.file));
        for p in &self.points {
            let _ = writeln!(
                text,
                "point\t{}\t{}\t{}\t{}",
                clean(&p.function),
                p.kind.as_str(),
                p.line,
                p.vars.len()
            );
            for v in &p.vars {
                let _ = writeln!(text, "var\t{}\t{}", clean(&v.name), v.layout.decl(v.kind));
            }
        }
        text
    }

    /// The text for the very top of the woven file; empty without points.
    pub fn prelude(&self) -> String {
        if self.points.is_empty() {
            return String::new();
        }
        let own = format!("static struct weft_trace_tu *{} = 0;\n", self.tu());
        format!("{RUNTIME_HOT}{}", once_per_unit("TRACE_HERE", &self.stem, &own))
    }

    /// The runtime's layout table (one string per point, 0 for a point of
    /// plain scalars), or `0` when every point has plain scalars only.
    fn layouts(&self) -> (String, String) {
        let strings: Vec<String> = self
            .points
            .iter()
            .map(|p| {
                let codes: String = p.vars.iter().map(|v| v.layout.code(v.kind)).collect();
                if codes.chars().all(|c| c == '.') {
                    "0".to_string()
                } else {
                    format!("\"{codes}\"")
                }
            })
            .collect();
        if strings.iter().all(|s| s == "0") {
            return (String::new(), "0".to_string());
        }
        let name = format!("weft_trace_layouts_{}", self.stem);
        let table = format!(
            "static const char *const {name}[] = {{{}}};\n",
            strings.join(", ")
        );
        (table, name)
    }

    /// The text for the very end of the woven file; empty without points.
    pub fn epilogue(&self) -> String {
        if self.points.is_empty() {
            return String::new();
        }
        let stem = &self.stem;
        let (table, layouts) = self.layouts();
        let own = format!(
            "static unsigned long long weft_trace_counts_{stem}[{n}];\n{table}\
             static struct weft_trace_tu weft_trace_tu_{stem} = {{\n    \"{stem}\", {decls}, {n}, weft_trace_counts_{stem}, -1, 0, 0, 0, 0, 0, 0, 0, 0, {layouts}, 0, 0, 0, 0, 0, 0\n}};\n{hooks}",
            n = self.points.len(),
            decls = c_string(&self.declarations()),
            hooks = unit_hooks(
                "weft_trace",
                stem,
                &format!("{} = &weft_trace_tu_{stem};", self.tu()),
                &format!("weft_trace_forget(&weft_trace_tu_{stem});"),
            ),
        );
        format!("\n{RUNTIME_COLD}{}", once_per_unit("TRACE_TU", stem, &own))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, kind: VarKind) -> TracedVar {
        TracedVar::plain(name, kind, name)
    }

    #[test]
    fn points_get_statements_and_declarations() {
        let mut spec = TraceSpec::new("src/a.c");
        let enter = spec.enter("f", 3, &[var("n", VarKind::I64), var("p", VarKind::Pointer)]);
        assert_eq!(
            enter,
            "unsigned long long weft_inv = weft_trace_want(weft_trace_src_a_c, 0u) ? \
             weft_trace_enter(weft_trace_src_a_c, 0u, \
             (const unsigned long long[]){(unsigned long long)(long long)(n), \
             (unsigned long long)(__UINTPTR_TYPE__)(p)}, 2) : 0;"
        );
        let exit = spec.exit("f", 9, &[]);
        assert_eq!(
            exit,
            "if (weft_inv != 0) weft_trace_exit(weft_trace_src_a_c, 1u, weft_inv, 0, 0);"
        );
        assert_eq!(
            spec.declarations(),
            "unit\tsrc/a.c\npoint\tf\tenter\t3\t2\nvar\tn\ti64\nvar\tp\tptr\npoint\tf\texit\t9\t0\n"
        );
        assert!(spec.epilogue().contains("weft_trace_counts_src_a_c[2]"));
        assert!(!spec.epilogue().contains("weft_trace_layouts_"), "scalars only");
        let s = TracedVar {
            layout: Layout::Str,
            ..var("s", VarKind::U64)
        };
        spec.enter("g", 12, &[var("n", VarKind::I64), s]);
        assert!(
            spec.epilogue()
                .contains("weft_trace_layouts_src_a_c[] = {0, 0, \".s\"};")
        );
        assert!(spec.declarations().ends_with("var\ts\tstr\n"));
        let inner = spec.inner("g", 14, &[var("k", VarKind::U64)]);
        assert_eq!(
            inner,
            "if (weft_inv != 0 && weft_trace_want(weft_trace_src_a_c, 3u)) \
             weft_trace_exit(weft_trace_src_a_c, 3u, weft_inv, \
             (const unsigned long long[]){(unsigned long long)(k)}, 1);"
        );
        assert!(
            spec.declarations()
                .ends_with("point\tg\tpoint\t14\t1\nvar\tk\tu64\n")
        );
        assert_eq!(
            spec.inner_expr("g", 15, &[]),
            "((weft_inv != 0 && weft_trace_want(weft_trace_src_a_c, 4u)) ? \
             weft_trace_exit(weft_trace_src_a_c, 4u, weft_inv, 0, 0) : (void)0)"
        );
    }
}
