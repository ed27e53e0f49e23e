//! Memory cells in the fragment: `*p` and `a[K]` as weft-weave's
//! [`cell`](weft_weave::joinpoint::cell) finds them (a base variable the loop cannot assign, a
//! constant index), each one variable of the loop's state. A cell is
//! admitted when the loop's own condition reads it on every evaluation
//! (a check woven after the condition reads no address the program did
//! not just read) and the function never takes its base's address; a
//! loop is refused when two of its cells, or a cell and one of its
//! variables, may share an address ([`Extractor::apart`]).

use tree_sitter::Node;
use weft_c::sema::{DeclKind, TypeKind};
use weft_weave::joinpoint as cells;

use super::{Extractor, R};
use crate::ir::IntType;

/// Where a cell lives: its base variable, whether that is a pointer (an
/// array names its own object), and the element's offset from it.
#[derive(Clone, Debug)]
pub(super) struct Cell {
    base: String,
    pointer: bool,
    offset: i64,
}

impl Extractor<'_> {
    /// The variable standing for the memory cell `node` (`*p`, `a[K]`),
    /// or why it is none.
    pub(super) fn cell(&mut self, node: Node<'_>) -> R<String> {
        let what = self.unsupported(node.kind(), node);
        let Some((key, base)) = cells::cell(self.text, node) else {
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
        let (t, pointer) = self
            .cell_type(&name)
            .map_err(|why| format!("{what} {key}: {why}"))?;
        if cells::address_taken(self.text, node, &name) {
            return Err(format!("{what} {key}: the function takes the address of {name}"));
        }
        let offset = key
            .strip_prefix(&format!("{name}["))
            .and_then(|k| k.strip_suffix(']')?.parse().ok())
            .unwrap_or(0);
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
        let (sema, file) = self.sema.ok_or("cells need the program's semantics")?;
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
        match &inner.kind {
            TypeKind::Integer(name) => IntType::from_name(name)
                .map(|t| (t, pointer))
                .ok_or_else(|| format!("of type {name}")),
            _ => Err("its element is not of a C integer type".into()),
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
