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

/// The number of declarations from which a scope indexes them by name.
const INDEXED_FROM: usize = 16;

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
    /// Indexes into `decls` by name, in declaration order, once the scope
    /// holds [`INDEXED_FROM`] declarations: a file scope holds every
    /// function of the file, and scanning it for each lookup made weaving
    /// a large file quadratic. Smaller scopes (most blocks hold a name or
    /// two) are scanned: an index each took more memory than their
    /// declarations.
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
        self.decls.push(decl);
        let count = self.decls.len();
        if count == INDEXED_FROM {
            for (i, decl) in self.decls.iter().enumerate() {
                self.by_name.entry(decl.name.clone()).or_default().push(i);
            }
        } else if count > INDEXED_FROM {
            let name = self.decls[count - 1].name.clone();
            self.by_name.entry(name).or_default().push(count - 1);
        }
    }

    /// Gives back the room reserved for declarations yet to come, once the
    /// scope is complete (a block's vector of one declaration reserved
    /// four).
    pub fn shrink_to_fit(&mut self) {
        self.decls.shrink_to_fit();
        self.tags.shrink_to_fit();
    }

    /// The declarations, to move their offsets (names stay as they are).
    pub fn decls_mut(&mut self) -> &mut [Declaration] {
        &mut self.decls
    }

    /// The declarations of `name`, latest first.
    fn named<'s, 'n>(&'s self, name: &'n str) -> impl Iterator<Item = &'s Declaration> + use<'s, 'n> {
        let indexes = self.by_name.get(name).map_or(&[][..], Vec::as_slice);
        let scanned = if self.decls.len() < INDEXED_FROM {
            &self.decls[..]
        } else {
            &[]
        };
        let indexed = indexes.iter().rev().map(|&i| &self.decls[i]);
        indexed.chain(scanned.iter().rev().filter(move |d| d.name == name))
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
