//! Lexical scopes of one file and name lookup in them.

use std::collections::BTreeMap;
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
    /// In declaration order; added through [`Scope::declare`] only, which
    /// keeps `by_name` in step.
    decls: Vec<Declaration>,
    /// Indexes into `decls` by name, in declaration order: a file scope
    /// holds every function of the file, and scanning it for each lookup
    /// made weaving a large file quadratic.
    by_name: BTreeMap<String, Vec<usize>>,
    pub tags: Vec<Tag>,
}

impl Scope {
    /// An empty scope over `range` of the view.
    pub fn new(range: Range<usize>, parent: Option<usize>) -> Scope {
        Scope {
            range,
            parent,
            ..Scope::default()
        }
    }

    /// Adds a declaration to the scope.
    pub fn declare(&mut self, decl: Declaration) {
        self.by_name
            .entry(decl.name.clone())
            .or_default()
            .push(self.decls.len());
        self.decls.push(decl);
    }

    /// The declarations, to move their offsets (names stay as they are).
    pub fn decls_mut(&mut self) -> &mut [Declaration] {
        &mut self.decls
    }

    /// The declarations of `name`, latest first.
    fn named<'s>(&'s self, name: &str) -> impl Iterator<Item = &'s Declaration> + use<'s> {
        let indexes = self.by_name.get(name).map_or(&[][..], Vec::as_slice);
        indexes.iter().rev().map(|&i| &self.decls[i])
    }
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
        // Pre-order plus nesting: starts never decrease, and the innermost
        // scope containing the offset is the last scope starting at or
        // before it, or one of that scope's ancestors.
        let last = self.scopes.partition_point(|s| s.range.start <= offset);
        let mut scope = last.checked_sub(1);
        while let Some(i) = scope {
            let here = &self.scopes[i];
            if offset < here.range.end {
                return i;
            }
            scope = here.parent;
        }
        0
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
        self.chain(self.innermost(offset))
            .flat_map(move |scope| scope.named(name).filter(move |d| d.visible_from <= offset))
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
