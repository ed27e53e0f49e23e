//! Memory cells in the fragment: `*p` and `a[K]` as weft-weave's
//! [`cell`](weft_weave::joinpoint::cell) finds them, and structure
//! members `s.f` and `p->f` (of a `struct`, not a `union`) (a base variable the loop cannot assign, a
//! constant index), each one variable of the loop's state. A cell is
//! admitted when the loop's own condition reads it on every evaluation
//! (a check woven after the condition reads no address the program did
//! not just read) and the function never takes its base's address; a
//! loop is refused when two of its cells, or a cell and one of its
//! variables, may share an address ([`Extractor::apart`]).

use tree_sitter::Node;
use weft_c::sema::{DeclKind, Declaration, TypeKind};
use weft_weave::joinpoint as cells;

use super::{Extractor, R};
use crate::ir::IntType;

/// Where a cell lives: its base variable, whether that is a pointer (an
/// array names its own object), and the element's offset from it.
#[derive(Clone, Debug)]
pub(super) struct Cell {
    base: String,
    pointer: bool,
    /// The element's index, or the member's name.
    offset: String,
}

/// A structure member as a cell, `n` a node of `text`: its key (`s.f`,
/// `p->f`) and the identifier of its base.
fn member<'t>(text: &str, n: Node<'t>) -> Option<(String, Node<'t>)> {
    let n = super::arrays::unparenthesized(n);
    if n.kind() != "field_expression" {
        return None;
    }
    let base = super::arrays::unparenthesized(n.child_by_field_name("argument")?);
    let field = n.child_by_field_name("field")?;
    let op = n.child_by_field_name("operator")?.kind();
    (base.kind() == "identifier").then(|| {
        let key = format!("{}{op}{}", &text[base.byte_range()], &text[field.byte_range()]);
        (key, base)
    })
}

/// The cells `lp`'s condition reads on every evaluation: those of
/// weft-weave and the structure members.
pub(super) fn surely_read(text: &str, lp: Node<'_>) -> Vec<String> {
    let mut keys: Vec<String> = cells::surely_read(text, lp).into_iter().map(|(k, _)| k).collect();
    let Some(condition) = lp.child_by_field_name("condition") else {
        return keys;
    };
    let mut stack = vec![condition];
    while let Some(n) = stack.pop() {
        if let Some((key, _)) = member(text, n)
            && cells::always_evaluated(condition, n)
            && !keys.contains(&key)
        {
            keys.push(key);
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    keys
}

impl<'a> Extractor<'a> {
    /// The variable standing for the memory cell `node` (`*p`, `a[K]`),
    /// or why it is none.
    pub(super) fn cell(&mut self, node: Node<'_>) -> R<String> {
        let what = self.unsupported(node.kind(), node);
        let found = cells::cell(self.text, node).or_else(|| member(self.text, node));
        let Some((key, base)) = found else {
            return Err(match node.kind() {
                "subscript_expression" => format!("{what} at a variable index ({})", self.src(node)),
                _ => what,
            });
        };
        if self.vars.contains_key(&key) {
            return Ok(key);
        }
        if !self.guard_cells.contains(&key) {
            return Err(format!(
                "{what} {key}, which the loop's condition does not read on every evaluation"
            ));
        }
        let name = self.src(base).to_string();
        let field = key
            .rsplit_once("->")
            .or_else(|| key.split_once('.'))
            .map(|(_, f)| f);
        let (t, pointer) = match field {
            Some(f) => self.member_type(&name, f),
            None => self.cell_type(&name),
        }
        .map_err(|why| format!("{what} {key}: {why}"))?;
        if cells::address_taken(self.text, node, &name) {
            return Err(format!("{what} {key}: the function takes the address of {name}"));
        }
        let offset = match field {
            Some(f) => f.to_string(),
            None => key
                .strip_prefix(&format!("{name}["))
                .and_then(|k| k.strip_suffix(']'))
                .unwrap_or("0")
                .to_string(),
        };
        self.vars.insert(key.clone(), t);
        self.cells.insert(
            key.clone(),
            Cell {
                base: name,
                pointer,
                offset,
            },
        );
        Ok(key)
    }

    /// The element type of a cell's base and whether the base is a pointer.
    fn cell_type(&self, base: &str) -> R<(IntType, bool)> {
        let (t, pointer, _) = self.element_type(base, "cells")?;
        Ok((t, pointer))
    }

    /// The integer element type of pointer or array `base` (cells and
    /// arrays, `what`, need it), whether `base` is a pointer, and its
    /// declaration.
    pub(super) fn element_type(&self, base: &str, what: &str) -> R<(IntType, bool, &'a Declaration)> {
        let (sema, file) = self
            .sema
            .ok_or_else(|| format!("{what} need the program's semantics"))?;
        let d = sema
            .lookup(file, self.at, base)
            .filter(|d| matches!(d.kind, DeclKind::Variable | DeclKind::Parameter))
            .ok_or_else(|| format!("{base} is not a declared variable"))?;
        let (inner, pointer) = match &d.ty.kind {
            TypeKind::Pointer(inner) => (inner, true),
            TypeKind::Array(inner) => (inner, false),
            _ => return Err(format!("{base} is neither a pointer nor an array")),
        };
        if inner.is_volatile || d.ty.is_volatile {
            return Err("volatile (it may change outside the loop)".into());
        }
        let TypeKind::Integer(name) = &inner.kind else {
            return Err("its element is not of a C integer type".into());
        };
        let t = IntType::from_name(name).ok_or_else(|| format!("of type {name}"))?;
        Ok((t, pointer, d))
    }

    /// The type of member `field` of structure `base` (or of the
    /// structure `base` points to), and whether `base` is a pointer. A
    /// union's members share an address: refused.
    fn member_type(&self, base: &str, field: &str) -> R<(IntType, bool)> {
        let (sema, file) = self.sema.ok_or("cells need the program's semantics")?;
        let d = sema
            .lookup(file, self.at, base)
            .filter(|d| matches!(d.kind, DeclKind::Variable | DeclKind::Parameter))
            .ok_or_else(|| format!("{base} is not a declared variable"))?;
        let (object, pointer) = match &d.ty.kind {
            TypeKind::Pointer(inner) => (&**inner, true),
            _ => (&d.ty, false),
        };
        let TypeKind::Struct { union: false, .. } = object.kind else {
            return Err(format!("{base} is not a structure or a pointer to one"));
        };
        let f = sema
            .field(object, field)
            .ok_or_else(|| format!("no member {field} known"))?;
        if f.ty.is_volatile || object.is_volatile || d.ty.is_volatile {
            return Err("volatile (it may change outside the loop)".into());
        }
        match &f.ty.kind {
            TypeKind::Integer(name) => IntType::from_name(name)
                .map(|t| (t, pointer))
                .ok_or_else(|| format!("of type {name}")),
            _ => Err("the member is not of a C integer type".into()),
        }
    }

    /// Whether every cell has an address of its own, `lp` being the loop:
    /// two cells of one base at different offsets, or of two arrays, are
    /// apart; a cell through a pointer may be any other cell and any
    /// variable of the loop that is global or whose address the function
    /// takes. Err names the pair that may share an address.
    pub(super) fn apart(&self, lp: Node<'_>) -> R<()> {
        self.arrays_apart(lp)?;
        let list: Vec<(&String, &Cell)> = self.cells.iter().collect();
        for (i, (k, c)) in list.iter().enumerate() {
            for (l, d) in &list[i + 1..] {
                let same_base = c.base == d.base && c.offset != d.offset;
                if !same_base && (c.pointer || d.pointer || c.base == d.base) {
                    return Err(format!("cells {k} and {l} may share an address"));
                }
            }
            if !c.pointer {
                continue;
            }
            for v in self.vars.keys() {
                let memory = self.cells.contains_key(v) || self.arrays.contains_key(v);
                if memory || self.choices.contains_key(v) || self.locals.contains(v) {
                    continue;
                }
                if let Some(why) = self.exposed(lp, v) {
                    return Err(format!("cell {k} may be variable {v}, {why}"));
                }
            }
        }
        Ok(())
    }

    /// [`Extractor::apart`] for the arrays at a variable index: two
    /// declared arrays are apart, and from every variable but through
    /// their own bounds; an array through a pointer is apart from nothing
    /// else read through memory, nor from a variable a pointer may reach.
    fn arrays_apart(&self, lp: Node<'_>) -> R<()> {
        for (name, array) in &self.arrays {
            if let Some(k) = self.cells.keys().next()
                && (array.pointer || self.cells.values().any(|c| c.pointer || c.base == *name))
            {
                return Err(format!(
                    "cell {k} and the elements of {name} may share an address"
                ));
            }
            if !array.pointer && array.size.is_some() {
                continue;
            }
            if let Some(other) = self.arrays.keys().find(|o| *o != name) {
                return Err(format!(
                    "the elements of {name} and of {other} may share an address"
                ));
            }
            for v in self.vars.keys() {
                let own = self.arrays.contains_key(v) || self.choices.contains_key(v);
                if !own
                    && !self.locals.contains(v)
                    && let Some(why) = self.exposed(lp, v)
                {
                    return Err(format!("an element of {name} may be variable {v}, {why}"));
                }
            }
        }
        Ok(())
    }

    /// Why a pointer may reach variable `v`: it is global, or the
    /// function takes its address.
    fn exposed(&self, lp: Node<'_>, v: &str) -> Option<&'static str> {
        let global = match self.sema {
            Some((sema, file)) => sema.lookup(file, self.at, v).is_none_or(|d| d.is_file_scope),
            None => true,
        };
        if global {
            Some("which is global")
        } else if cells::address_taken(self.text, lp, v) {
            Some("whose address the function takes")
        } else {
            None
        }
    }
}
