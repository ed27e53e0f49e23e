//! Lexical scopes of one file and name lookup in them.

use std::ops::Range;

use super::ctype::CType;
use super::declaration::Declaration;

/// A struct/union/enum tag declared in a scope.
#[derive(Debug, Clone)]
pub struct Tag {
    pub name: String,
    /// The tagged type (`TypeKind::Struct` or `TypeKind::Enum`).
    pub ty: CType,
    pub visible_from: usize,
}

/// One scope: the file, a function (parameters and outermost block), a
/// block, or a `for` statement's init clause.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Byte range of the view the scope covers.
    pub range: Range<usize>,
    pub parent: Option<usize>,
    pub decls: Vec<Declaration>,
    pub tags: Vec<Tag>,
}

/// All scopes of one file, in pre-order: scope 0 is the file scope, and a
/// scope always comes after the scopes enclosing it.
#[derive(Debug, Clone, Default)]
pub struct ScopeTree {
    pub scopes: Vec<Scope>,
}

impl ScopeTree {
    /// The innermost scope containing `offset`.
    pub fn innermost(&self, offset: usize) -> usize {
        // Pre-order plus nesting: the last scope containing the offset is
        // the innermost one.
        self.scopes
            .iter()
            .rposition(|s| s.range.start <= offset && offset < s.range.end)
            .unwrap_or(0)
    }

    /// The scopes from `scope` outwards to the file scope.
    pub fn chain(&self, scope: usize) -> impl Iterator<Item = &Scope> {
        let mut next = Some(scope);
        std::iter::from_fn(move || {
            let here = self.scopes.get(next?)?;
            next = here.parent;
            Some(here)
        })
    }

    /// The declaration of `name` visible at `offset`, inner scopes first;
    /// within a scope the latest declaration before `offset` wins (K&R
    /// parameter declarations refine the bare parameter names).
    pub fn lookup(
        &self,
        offset: usize,
        name: &str,
        accept: impl Fn(&Declaration) -> bool,
    ) -> Option<&Declaration> {
        self.visible(offset, name).find(|d| accept(d))
    }

    /// Every declaration of `name` visible at `offset`, in [`Self::lookup`]'s
    /// order (inner scopes first, latest first within a scope).
    pub fn visible<'s, 'n>(
        &'s self,
        offset: usize,
        name: &'n str,
    ) -> impl Iterator<Item = &'s Declaration> + use<'s, 'n> {
        self.chain(self.innermost(offset)).flat_map(move |scope| {
            scope
                .decls
                .iter()
                .rev()
                .filter(move |d| d.name == name && d.visible_from <= offset)
        })
    }

    /// The tag `name` visible at `offset`.
    pub fn lookup_tag(&self, offset: usize, name: &str) -> Option<&Tag> {
        self.chain(self.innermost(offset)).find_map(|scope| {
            scope
                .tags
                .iter()
                .rev()
                .find(|t| t.name == name && t.visible_from <= offset)
        })
    }
}
