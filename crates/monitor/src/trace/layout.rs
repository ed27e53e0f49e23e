//! How a traced variable is read and stored: a scalar read directly, a
//! scalar read through a pointer that may not be valid, a string, or an
//! array. The sample statement passes each as a few 8-byte slots; the
//! runtime turns them into the recorded payload (`runtime/weft_trace_cold.h`)
//! and [`super::record`] reads it back.

use super::by_type;
use super::spec::VarKind;

/// The shape of one traced variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// A scalar read directly (a parameter, a global, `g.len`): one slot.
    Plain,
    /// A scalar read through a pointer (`p->len`): two slots, whether the
    /// pointed-to object can be read, and the value (0 when it cannot).
    Through,
    /// A NUL-terminated string: its address and a bound on its bytes.
    Str,
    /// An array of a known number of scalar elements: its address, its
    /// element count and its element size.
    Seq,
}

impl Layout {
    /// The declaration kind text: `i64`, `i64?` through a pointer, `str`,
    /// `i64[]` for an array of `i64` elements.
    pub fn decl(self, kind: VarKind) -> String {
        match self {
            Layout::Plain => kind.as_str().to_string(),
            Layout::Through => format!("{kind}?"),
            Layout::Str => "str".to_string(),
            Layout::Seq => format!("{kind}[]"),
        }
    }

    /// The layout and scalar kind a declaration kind text names.
    pub fn parse(text: &str) -> Option<(Layout, VarKind)> {
        if text == "str" {
            return Some((Layout::Str, VarKind::U64));
        }
        let (layout, kind) = match (text.strip_suffix('?'), text.strip_suffix("[]")) {
            (Some(k), _) => (Layout::Through, k),
            (_, Some(k)) => (Layout::Seq, k),
            _ => (Layout::Plain, text),
        };
        Some((layout, VarKind::parse(kind)?))
    }

    /// The runtime's layout character: '.' and '?' are copied slots, 's' a
    /// string, 'i'/'u'/'f' an array of signed, unsigned or floating
    /// elements (pointers' addresses are unsigned).
    pub fn code(self, kind: VarKind) -> char {
        match (self, kind) {
            (Layout::Plain, _) => '.',
            (Layout::Through, _) => '?',
            (Layout::Str, _) => 's',
            (Layout::Seq, VarKind::I64) => 'i',
            (Layout::Seq, VarKind::F64) => 'f',
            (Layout::Seq, _) => 'u',
        }
    }
}

/// A variable the aspect asks to trace at a point: its name in the trace,
/// its kind (for an array, its elements'), its layout, and the C
/// expression giving it there (for a string or an array, the expression
/// of the array or pointer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracedVar {
    pub name: String,
    pub kind: VarKind,
    pub layout: Layout,
    pub expr: String,
    /// The pointer `expr` reads through (`p` for `p->len`): the value is
    /// read only when the object it points to can be read.
    pub via: Option<String>,
    /// For a string: it is a `char` array, bounded by its size (a pointer's
    /// string is bounded by the runtime's limit alone).
    pub array: bool,
    /// The value is the scalar `via` points to (`expr` is `*(via)`), read
    /// by the type the compiler sees ([`super::by_type`]): a pointed-to
    /// type that is not of `kind`'s class in the configuration being built
    /// reads as missing instead of breaking the build.
    pub deref: bool,
    /// For an array behind a pointer: the C expression of its element
    /// count (`len`, `s->n`), which the function bounds a loop over it by.
    /// `None`: an array whose length C knows (`sizeof`).
    pub length: Option<String>,
}

impl TracedVar {
    /// A scalar read directly.
    pub fn plain(name: &str, kind: VarKind, expr: &str) -> TracedVar {
        TracedVar {
            name: name.to_string(),
            kind,
            layout: Layout::Plain,
            expr: expr.to_string(),
            via: None,
            array: false,
            deref: false,
            length: None,
        }
    }

    /// The C expressions of its slots, as `unsigned long long` values, for
    /// a sample statement of the unit whose runtime pointer is `tu`.
    pub fn slots(&self, tu: &str) -> Vec<String> {
        let expr = &self.expr;
        // An address computed from `via` without reading through it.
        let address = match &self.via {
            Some(via) => {
                format!("(unsigned long long)(__UINTPTR_TYPE__)(({via}) ? (const void *)({expr}) : 0)")
            }
            None => format!("(unsigned long long)(__UINTPTR_TYPE__)(const void *)({expr})"),
        };
        match self.layout {
            Layout::Plain => vec![self.kind.encode(expr)],
            Layout::Through => match &self.via {
                Some(via) if self.deref => self.deref_slots(tu, via),
                Some(via) => {
                    let readable =
                        format!("weft_trace_readable({tu}, (const void *)({via}), sizeof *({via}))");
                    vec![
                        format!("(unsigned long long){readable}"),
                        format!("({readable} ? {} : 0)", self.kind.encode(expr)),
                    ]
                }
                // Nothing to guard by: the value is always there.
                None => vec!["1".to_string(), self.kind.encode(expr)],
            },
            Layout::Str => {
                let bound = if self.array {
                    format!("(unsigned long long)sizeof({expr})")
                } else {
                    "0".to_string()
                };
                vec![address, bound]
            }
            Layout::Seq => vec![
                address,
                self.count(tu),
                format!("(unsigned long long)sizeof(({expr})[0])"),
            ],
        }
    }

    /// An array's element count: its `sizeof` ratio, or its length
    /// expression. A negative length reads as more elements than the
    /// runtime takes, so the array is missing; a member length (`s->n`) is
    /// read only when its struct can be, else the array is missing too.
    fn count(&self, tu: &str) -> String {
        let expr = &self.expr;
        let Some(length) = &self.length else {
            return format!("(unsigned long long)(sizeof({expr}) / sizeof(({expr})[0]))");
        };
        let value = format!("(unsigned long long)(long long)({length})");
        match length.split_once("->") {
            Some((base, _)) => format!(
                "(weft_trace_readable({tu}, (const void *)({base}), sizeof *({base})) ? {value} : ~(unsigned long long)0)"
            ),
            None => value,
        }
    }

    /// The two slots of `*(via)`: readable (its actual type is of the
    /// declared class and its bytes can be read), and the value. The size
    /// comes from the selection too, as `sizeof *(via)` does not compile
    /// for a pointer to an incomplete struct.
    fn deref_slots(&self, tu: &str, via: &str) -> Vec<String> {
        let size = by_type::size(self.kind, &self.expr);
        let readable = format!("({size} != 0 && weft_trace_readable({tu}, (const void *)({via}), {size}))");
        let value = by_type::read(self.kind, &self.expr, via);
        vec![
            format!("(unsigned long long){readable}"),
            format!("({readable} ? {value} : 0)"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declaration_kinds_round_trip() {
        for layout in [Layout::Plain, Layout::Through, Layout::Seq] {
            for kind in [VarKind::I64, VarKind::U64, VarKind::F64, VarKind::Pointer] {
                assert_eq!(Layout::parse(&layout.decl(kind)), Some((layout, kind)));
            }
        }
        assert_eq!(Layout::parse("str").map(|l| l.0), Some(Layout::Str));
        assert_eq!(Layout::parse("i32"), None);
    }

    #[test]
    fn a_field_is_read_only_when_its_struct_can_be() {
        let var = TracedVar {
            via: Some("p".into()),
            layout: Layout::Through,
            ..TracedVar::plain("p->len", VarKind::I64, "(p)->len")
        };
        let slots = var.slots("tu");
        assert_eq!(slots.len(), 2);
        assert!(slots[1].starts_with("(weft_trace_readable(tu, (const void *)(p), sizeof *(p)) ? "));
        let seq = TracedVar {
            layout: Layout::Seq,
            ..TracedVar::plain("a", VarKind::I64, "a")
        };
        assert_eq!(
            seq.slots("tu")[1],
            "(unsigned long long)(sizeof(a) / sizeof((a)[0]))"
        );
    }

    #[test]
    fn an_array_behind_a_pointer_has_its_length_expression_as_count() {
        let seq = |length: &str| TracedVar {
            layout: Layout::Seq,
            length: Some(length.into()),
            ..TracedVar::plain("a", VarKind::I64, "a")
        };
        let slots = seq("len").slots("tu");
        assert_eq!(slots[1], "(unsigned long long)(long long)(len)");
        assert_eq!(slots[2], "(unsigned long long)sizeof((a)[0])");
        // A member length is read only when its struct can be; else the
        // count is more than the runtime takes, and the array is missing.
        assert_eq!(
            seq("s->n").slots("tu")[1],
            "(weft_trace_readable(tu, (const void *)(s), sizeof *(s)) ? \
             (unsigned long long)(long long)(s->n) : ~(unsigned long long)0)"
        );
    }

    #[test]
    fn a_pointed_to_scalar_is_read_by_its_actual_type() {
        let var = TracedVar {
            via: Some("p".into()),
            layout: Layout::Through,
            deref: true,
            ..TracedVar::plain("*p", VarKind::I64, "*(p)")
        };
        let slots = var.slots("tu");
        let size = by_type::size(VarKind::I64, "*(p)");
        let readable = format!("({size} != 0 && weft_trace_readable(tu, (const void *)(p), {size}))");
        assert_eq!(slots[0], format!("(unsigned long long){readable}"));
        assert!(slots[1].starts_with(&format!("({readable} ? ")), "{}", slots[1]);
        assert!(slots[1].ends_with("default: weft_rd_none))((const void *)(p)) : 0)"));
        assert!(
            !slots.concat().contains("sizeof *(p)"),
            "no size of an incomplete type"
        );
    }
}
