//! The extractor under the end-of-file model ([`crate::eof`]): input
//! calls as the values they return at end of file, assignments from them
//! inside conditions, and what the woven check needs to know of the loop.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::{Effect, End, Extractor, Partial, R};
use crate::eof::{Eof, Source, input};
use crate::ir::{Expr, IntType};

/// The path after a condition's assignments (their values over the
/// state before the condition).
pub(super) fn apply(mut p: Partial, effects: &[Effect]) -> Partial {
    let values: Vec<Expr> = effects.iter().map(|e| p.value(&e.value)).collect();
    for (e, v) in effects.iter().zip(values) {
        p.state.insert(e.var.clone(), v);
        if e.read {
            p.recorded.insert(e.var.clone());
        } else {
            p.recorded.remove(&e.var);
        }
    }
    p
}

/// `value` converted to `t`: a constant folded (C's conversions wrap
/// modulo 2^width), anything else cast.
pub(super) fn converted(t: IntType, value: Expr) -> Expr {
    match value.constant() {
        Some(v) => {
            let m = 1i128 << t.width;
            let mut w = v.rem_euclid(m);
            if t.signed && w > t.max() {
                w -= m;
            }
            Expr::Const(w, t)
        }
        None => Expr::Cast(t, Box::new(value)),
    }
}

/// Kinds of nodes whose evaluation changes something.
const EFFECTS: &[&str] = &["assignment_expression", "update_expression", "call_expression"];

pub(super) fn has_effects(node: Node<'_>) -> bool {
    if EFFECTS.contains(&node.kind()) {
        return true;
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor).any(has_effects)
}

/// Strips parentheses and casts around an expression.
fn bare(mut node: Node<'_>) -> Node<'_> {
    loop {
        node = match node.kind() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(n) => n,
                None => return node,
            },
            "cast_expression" => match node.child_by_field_name("value") {
                Some(n) => n,
                None => return node,
            },
            _ => return node,
        }
    }
}

impl Extractor<'_> {
    /// A condition (`while`, `do`, `for`, `if`): its value and the
    /// assignments it makes, which only the model allows, from input
    /// calls, evaluated every time (not behind `&&`, `||`, `?:`), to
    /// variables the condition reads nowhere else.
    pub(super) fn test(&mut self, node: Node<'_>) -> R<(Expr, Vec<Effect>)> {
        if self.eof.is_none() {
            return Ok((self.expr(node)?, Vec::new()));
        }
        self.effects = Some(Vec::new());
        let value = self.expr(node);
        let effects = self.effects.take().unwrap_or_default();
        let value = value?;
        let mut read = BTreeSet::new();
        value.vars(&mut read);
        for (i, e) in effects.iter().enumerate() {
            if read.contains(&e.var) || effects[..i].iter().any(|f| f.var == e.var) {
                return Err(format!("the condition reads {} beside assigning it", e.var));
            }
        }
        Ok((value, effects))
    }

    /// Runs `f` as an operand evaluated only sometimes when `sometimes`.
    pub(super) fn sometimes<T>(&mut self, sometimes: bool, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.conditional += usize::from(sometimes);
        let out = f(self);
        self.conditional -= usize::from(sometimes);
        out
    }

    /// `v = CALL(…)` inside a condition: its value, with the assignment
    /// recorded as an effect.
    pub(super) fn assignment_in_test(&mut self, node: Node<'_>) -> R<Expr> {
        let left = node.child_by_field_name("left").ok_or("assignment")?;
        let right = node.child_by_field_name("right").ok_or("assignment")?;
        let op = node
            .child_by_field_name("operator")
            .map(|o| self.src(o).to_string());
        if op.as_deref() != Some("=") || bare(right).kind() != "call_expression" {
            return Err("assignment inside an expression".into());
        }
        let value = self.expr(right)?;
        let var = self.lvalue(left)?;
        let t = self.vars[&var];
        let read = self.keeps_read_result(right, t);
        let value = converted(t, value);
        if let Some(effects) = &mut self.effects {
            effects.push(Effect {
                var,
                value: value.clone(),
                read,
            });
        }
        Ok(value)
    }

    /// Whether `node` is a call of `read()` whose result a variable of
    /// type `t` keeps exactly enough that 0 means 0: the count is a
    /// literal the type holds, or the type is 64 bits wide.
    pub(super) fn keeps_read_result(&self, node: Node<'_>, t: IntType) -> bool {
        let call = bare(node);
        if call.kind() != "call_expression"
            || call.child_by_field_name("function").map(|f| self.src(f)) != Some("read")
        {
            return false;
        }
        let count = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(2))
            .and_then(|c| super::literal(self.src(c)))
            .and_then(|c| c.constant());
        t.width == 64 || count.is_some_and(|c| c <= t.max())
    }

    /// An input call, or `feof`/`ferror` of a stream: its value at end of
    /// file, the stream or descriptor noted for the check.
    pub(super) fn input_call(&mut self, node: Node<'_>) -> R<Expr> {
        let name = node
            .child_by_field_name("function")
            .map(|f| self.src(f).to_string())
            .unwrap_or_default();
        let args: Vec<Node<'_>> = match node.child_by_field_name("arguments") {
            Some(a) => {
                let mut cursor = a.walk();
                a.named_children(&mut cursor)
                    .filter(|n| n.kind() != "comment")
                    .collect()
            }
            None => Vec::new(),
        };
        if args.iter().any(|a| has_effects(*a)) {
            return Err(format!("an argument of {name}() has side effects"));
        }
        if matches!(name.as_str(), "feof" | "ferror") {
            let stream = self.stream(args.first().copied())?;
            let e = self.eof.as_mut().expect("in the model");
            e.streams.insert(stream);
            e.asks_error |= name == "ferror";
            return Ok(Expr::int(i128::from(name == "feof")));
        }
        let f = input(&name).ok_or_else(|| self.unsupported("call_expression", node))?;
        if let Some(i) = f.count {
            self.positive_count(args.get(i).copied())?;
        }
        match f.source {
            Source::Stream(i) => {
                let s = self.stream(args.get(i).copied())?;
                self.eof.as_mut().expect("in the model").streams.insert(s);
            }
            Source::Stdin => {
                self.eof
                    .as_mut()
                    .expect("in the model")
                    .streams
                    .insert("stdin".into());
            }
            Source::Descriptor(i) => {
                let d = self.descriptor(args.get(i).copied())?;
                self.eof.as_mut().expect("in the model").descriptors.insert(d);
            }
        }
        self.calls += 1;
        Ok(Expr::Const(f.at_eof, f.ty))
    }

    /// A stream argument: `stdin` or a name declared outside the loop
    /// (the model cannot assign a `FILE *`, so it stays the same stream).
    fn stream(&self, arg: Option<Node<'_>>) -> R<String> {
        let arg = arg.map(bare).ok_or("a stream argument is missing")?;
        let name = self.src(arg).to_string();
        if arg.kind() == "identifier" && (name == "stdin" || self.declared_outside(&name)) {
            Ok(name)
        } else {
            Err(format!("stream {name} is not a variable of the function"))
        }
    }

    /// A descriptor argument: a literal or a name declared outside the
    /// loop (that the loop must not assign: [`Extractor::finish_eof`]).
    fn descriptor(&self, arg: Option<Node<'_>>) -> R<String> {
        let arg = arg.map(bare).ok_or("a descriptor argument is missing")?;
        let name = self.src(arg).to_string();
        match arg.kind() {
            "number_literal" => Ok(name),
            "identifier" if self.declared_outside(&name) => Ok(name),
            _ => Err(format!("descriptor {name} is not a variable of the function")),
        }
    }

    /// read()'s count must be positive, or a 0 result would not mean end
    /// of file: a positive literal, or a `sizeof`.
    fn positive_count(&self, arg: Option<Node<'_>>) -> R<()> {
        let arg = arg.map(bare).ok_or("read() without a count")?;
        let positive = match arg.kind() {
            "sizeof_expression" => true,
            "number_literal" => super::literal(self.src(arg))
                .and_then(|c| c.constant())
                .is_some_and(|c| c > 0),
            _ => false,
        };
        if positive {
            Ok(())
        } else {
            Err("read() with a count that may be 0".into())
        }
    }

    /// The model's findings once the paths are known: at least one input
    /// call, descriptors the loop does not assign, and the variables every
    /// path going round leaves holding a result of `read()`.
    pub(super) fn finish_eof(&self, mut eof: Eof, paths: &[Partial]) -> R<Eof> {
        if self.calls == 0 {
            return Err("no input call".into());
        }
        let going: Vec<&Partial> = paths.iter().filter(|p| p.end != Some(End::Exit)).collect();
        for d in &eof.descriptors {
            if self.locals.contains(d) || going.iter().any(|p| p.state.contains_key(d)) {
                return Err(format!("the loop assigns descriptor {d}"));
            }
        }
        let mut recorded: Option<BTreeSet<String>> = None;
        for p in &going {
            recorded = Some(match recorded {
                None => p.recorded.clone(),
                Some(r) => r.intersection(&p.recorded).cloned().collect(),
            });
        }
        eof.recorded = recorded
            .unwrap_or_default()
            .into_iter()
            .filter(|v| !self.locals.contains(v))
            .collect();
        Ok(eof)
    }
}
