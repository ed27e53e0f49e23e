//! Walks one file's syntax tree and records its scopes, declarations, tags
//! and struct definitions.

use std::ops::Range;
use std::sync::LazyLock;

use tree_sitter::{Node, TreeCursor};

use crate::ParsedFile;
use crate::syntax::{KindSet, Occurrences, holds_no_block, is_statement};

use super::ctype::{CType, TypeKind, arithmetic_kind, macro_type};
use super::declaration::{DeclKind, DeclSite, Declaration, StorageClass};
use super::noreturn::{attribute_ranges, attribute_words};
use super::scope::{Scope, ScopeTree, Tag};
use super::spelling::{TypeSpelling, spell, written};
use super::stdtypes::standard_typedef;

/// A struct or union definition (one with a body).
#[derive(Debug, Clone)]
pub struct StructDef {
    pub tag: Option<String>,
    pub union: bool,
    pub fields: Vec<Declaration>,
}

/// Everything the walk of one file produces.
#[derive(Debug, Default)]
pub(super) struct FileSymbols {
    pub tree: ScopeTree,
    /// Regions skipped because they did not parse.
    pub unparsed: Vec<Unparsed>,
    /// The view ranges whose text declarations were read from (specifiers,
    /// declarators, attribute words): an edit there changes symbols, where
    /// edits elsewhere only move them (see [`super::shift`]).
    pub read: Vec<Range<usize>>,
}

/// Where a region that did not parse starts.
#[derive(Debug)]
pub(super) struct Unparsed {
    pub offset: usize,
    /// 1-based.
    pub line: usize,
}

/// State of the walk over one file.
pub(super) struct Builder<'a, 't> {
    file: &'a ParsedFile,
    view: &'a str,
    original: &'a dyn Fn(std::ops::Range<usize>) -> Option<String>,
    raw: &'a dyn Fn(std::ops::Range<usize>) -> String,
    site: DeclSite,
    tree: ScopeTree,
    /// File scopes of the headers this file includes.
    headers: &'a [&'a ScopeTree],
    /// The `#define`s of a name in this file and those headers.
    macro_defs: &'a dyn Fn(&str) -> Vec<crate::MacroDef>,
    structs: &'a mut Vec<StructDef>,
    unparsed: Vec<Unparsed>,
    read: Vec<Range<usize>>,
    /// Where `{` occurs in the view: expressions without one hold nothing
    /// the walk records, so it does not go into them.
    braces: &'a Occurrences,
    /// Where the view may open something a statement can hold that the
    /// walk records (see [`Builder::holds_nothing`]).
    openers: Occurrences,
    /// Cursors for the child loops, one per level of nesting being walked:
    /// a cursor of its own for every node would cost more than its walk.
    cursors: Vec<TreeCursor<'t>>,
}

/// The kinds [`Builder::visit`] records something for.
static RECORDED: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::new(
        &[
            "function_definition",
            "compound_statement",
            "for_statement",
            "declaration",
            "type_definition",
            "struct_specifier",
            "union_specifier",
            "enum_specifier",
        ],
        &[],
    )
});

/// What starts every construct below a statement that holds something the
/// walk records (see [`Builder::holds_nothing`]).
const STATEMENT_OPENERS: &[&str] = &["{", "for", ":", "#"];

/// Base type, storage class and specifier nodes of a declaration.
struct Specifiers<'t> {
    ty: CType,
    storage: StorageClass,
    nodes: Vec<Node<'t>>,
}

impl<'a, 't> Builder<'a, 't> {
    /// A walk of `file`'s view. `original` maps a view range to its
    /// original text, or `None` if the range is not verbatim original text;
    /// `raw` gives the original text under a view range even where the
    /// front end rewrote it.
    pub fn new(
        file: &'a ParsedFile,
        original: &'a dyn Fn(std::ops::Range<usize>) -> Option<String>,
        raw: &'a dyn Fn(std::ops::Range<usize>) -> String,
        site: DeclSite,
        headers: &'a [&'a ScopeTree],
        macro_defs: &'a dyn Fn(&str) -> Vec<crate::MacroDef>,
        structs: &'a mut Vec<StructDef>,
    ) -> Builder<'a, 't> {
        let view = file.view.as_str();
        let tree = ScopeTree {
            scopes: vec![Scope::new(0..view.len() + 1, None)],
        };
        Builder {
            file,
            view,
            original,
            raw,
            site,
            tree,
            headers,
            macro_defs,
            structs,
            unparsed: Vec::new(),
            read: Vec::new(),
            braces: file.braces(),
            openers: Occurrences::of(view, STATEMENT_OPENERS),
            cursors: Vec::new(),
        }
    }

    /// Walks the whole tree and returns the symbols found.
    pub fn build(mut self, file: &ParsedFile) -> FileSymbols {
        for tree in file.trees() {
            let mut walk = self.rebind();
            walk.children(tree.root_node(), 0);
            self = walk.rebind();
        }
        self.tree.scopes.iter_mut().for_each(Scope::shrink_to_fit);
        self.tree.scopes.shrink_to_fit();
        FileSymbols {
            tree: self.tree,
            unparsed: self.unparsed,
            read: self.read,
        }
    }

    /// This walk, ready for the nodes of another tree (the next chunk's):
    /// only its cursors are of the tree it walked.
    fn rebind<'u>(self) -> Builder<'a, 'u> {
        Builder {
            file: self.file,
            view: self.view,
            original: self.original,
            raw: self.raw,
            site: self.site,
            tree: self.tree,
            headers: self.headers,
            macro_defs: self.macro_defs,
            structs: self.structs,
            unparsed: self.unparsed,
            read: self.read,
            braces: self.braces,
            openers: self.openers,
            cursors: Vec::new(),
        }
    }

    fn text(&self, node: Node<'_>) -> &'a str {
        self.view.get(node.byte_range()).unwrap_or("")
    }

    fn children(&mut self, node: Node<'t>, scope: usize) {
        self.each_child(node, |builder, kid| builder.visit(kid, scope));
    }

    /// Calls `each` on every child of `node` in order, with a cursor from
    /// the pool (`each` may walk further down: it takes another).
    fn each_child(&mut self, node: Node<'t>, mut each: impl FnMut(&mut Self, Node<'t>)) {
        let mut cursor = self.cursors.pop().unwrap_or_else(|| node.walk());
        cursor.reset(node);
        if cursor.goto_first_child() {
            loop {
                each(self, cursor.node());
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.push(cursor);
    }

    /// Records `node`, which did not parse, as skipped.
    fn skip_unparsed(&mut self, node: Node<'_>) {
        self.unparsed.push(Unparsed {
            offset: node.start_byte(),
            line: node.start_position().row + 1,
        });
    }

    fn new_scope(&mut self, node: Node<'_>, parent: usize) -> usize {
        self.tree.scopes.push(Scope::new(node.byte_range(), Some(parent)));
        self.tree.scopes.len() - 1
    }

    fn visit(&mut self, node: Node<'t>, scope: usize) {
        if node.is_error() {
            // Declarations inside text tree-sitter could not parse would be
            // guesses: leave their names unresolved.
            self.skip_unparsed(node);
            return;
        }
        if !RECORDED.contains(node) {
            if !self.holds_nothing(node) {
                self.children(node, scope);
            }
            return;
        }
        match node.kind() {
            "function_definition" => self.function(node, scope),
            "compound_statement" | "for_statement" => {
                let inner = self.new_scope(node, scope);
                self.children(node, inner);
            }
            "declaration" => self.declaration(node, scope, false),
            "type_definition" => self.declaration(node, scope, true),
            // Specifiers elsewhere (casts, sizeof) may still define tags.
            _ => {
                self.specifier_type(node, scope);
            }
        }
    }

    /// True when nothing in `node`'s subtree is recorded: a token; an
    /// expression without a block ([`holds_no_block`]); or a statement that
    /// parsed cleanly and whose text holds none of [`STATEMENT_OPENERS`].
    /// Below a statement, tree-sitter-c puts a declaration or type
    /// definition only in a block (`{`), a `for` header, after a label or
    /// `case` (`:`) or in a conditional group (`#`), and a new scope, a
    /// function or a struct, union or enum body only in a `for` or after
    /// a `{`; an error would be recorded too.
    fn holds_nothing(&self, node: Node<'_>) -> bool {
        node.child_count() == 0
            || holds_no_block(node, self.braces)
            || (is_statement(node) && !node.has_error() && !self.openers.any_in(node.byte_range()))
    }

    fn specifiers(&mut self, decl: Node<'t>, scope: usize) -> Specifiers<'t> {
        let mut storage = StorageClass::None;
        let (mut is_const, mut is_volatile) = (false, false);
        let mut nodes = Vec::new();
        let mut ty = CType::new(TypeKind::Integer("int".into()));
        let type_id = decl.child_by_field_name("type").map(|t| t.id());
        self.each_child(decl, |builder, kid| {
            match kid.kind() {
                "storage_class_specifier" => {
                    storage = StorageClass::from_keyword(builder.text(kid).trim());
                }
                "type_qualifier" => match builder.text(kid).trim() {
                    "const" => is_const = true,
                    "volatile" => is_volatile = true,
                    _ => {}
                },
                "attribute_specifier" | "attribute_declaration" | "ms_declspec_modifier" => {}
                _ if type_id == Some(kid.id()) => ty = builder.specifier_type(kid, scope),
                _ => return,
            }
            nodes.push(kid);
        });
        Specifiers {
            ty: ty.qualified(is_const, is_volatile),
            storage,
            nodes,
        }
    }

    /// The type named by a `type` field node.
    fn specifier_type(&mut self, node: Node<'t>, scope: usize) -> CType {
        let text = self.text(node);
        match node.kind() {
            "primitive_type" | "sized_type_specifier" => {
                let words: Vec<&str> = text.split_whitespace().collect();
                if words == ["void"] {
                    CType::new(TypeKind::Void)
                } else if let Some(kind) = arithmetic_kind(&words) {
                    CType::new(kind)
                } else {
                    standard_typedef(text.trim()).unwrap_or_else(CType::unknown)
                }
            }
            "type_identifier" => self.typedef_named(text, node.start_byte()),
            "struct_specifier" | "union_specifier" => self.struct_type(node, scope),
            "enum_specifier" => self.enum_type(node, scope),
            _ => CType::unknown(),
        }
    }

    fn typedef_named(&self, name: &str, offset: usize) -> CType {
        let is_typedef = |d: &Declaration| d.kind == DeclKind::Typedef;
        self.tree
            .lookup(offset, name, is_typedef)
            .or_else(|| {
                self.headers
                    .iter()
                    .find_map(|h| h.lookup(usize::MAX, name, is_typedef))
            })
            .map(|d| d.ty.clone())
            .or_else(|| standard_typedef(name))
            .or_else(|| macro_type(&(self.macro_defs)(name)))
            .unwrap_or_else(CType::unknown)
    }

    fn struct_type(&mut self, node: Node<'t>, scope: usize) -> CType {
        let union = node.kind() == "union_specifier";
        let tag = node.child_by_field_name("name").map(|n| self.text(n).to_string());
        let Some(body) = node.child_by_field_name("body") else {
            let existing = tag.as_deref().and_then(|t| {
                self.tree
                    .lookup_tag(node.start_byte(), t)
                    .or_else(|| self.headers.iter().find_map(|h| h.lookup_tag(usize::MAX, t)))
            });
            return existing.map(|t| t.ty.clone()).unwrap_or_else(|| {
                CType::new(TypeKind::Struct {
                    tag,
                    union,
                    def: None,
                })
            });
        };
        // Register before the fields so that self-referencing members
        // (`struct node *next;`) find the definition.
        let index = self.structs.len();
        self.structs.push(StructDef {
            tag: tag.clone(),
            union,
            fields: Vec::new(),
        });
        let ty = CType::new(TypeKind::Struct {
            tag: tag.clone(),
            union,
            def: Some(index),
        });
        if let Some(name) = tag {
            self.tree.scopes[scope].tags.push(Tag {
                name,
                ty: ty.clone(),
                visible_from: node.start_byte(),
            });
        }
        let mut fields = Vec::new();
        let mut cursor = body.walk();
        for field in body.children(&mut cursor) {
            if field.kind() != "field_declaration" || field.has_error() {
                continue;
            }
            let specs = self.specifiers(field, scope);
            let mut fc = field.walk();
            for decl in field.children_by_field_name("declarator", &mut fc) {
                if let Some(d) = self.declarator(&specs, field, decl, DeclKind::Field, false) {
                    fields.push(d);
                }
            }
        }
        if let Some(def) = self.structs.get_mut(index) {
            def.fields = fields;
        }
        ty
    }

    fn enum_type(&mut self, node: Node<'t>, scope: usize) -> CType {
        let tag = node.child_by_field_name("name").map(|n| self.text(n).to_string());
        let ty = CType::new(TypeKind::Enum(tag.clone()));
        if let Some(body) = node.child_by_field_name("body") {
            let mut cursor = body.walk();
            for e in body.children(&mut cursor) {
                if e.kind() != "enumerator" {
                    continue;
                }
                if let Some(name) = e.child_by_field_name("name") {
                    let written = match &tag {
                        Some(t) => format!("enum {t}"),
                        None => "enum {…}".to_string(),
                    };
                    let d = self.make(name, DeclKind::EnumConstant, &ty, None, written, scope == 0);
                    self.tree.scopes[scope].declare(d);
                }
            }
            if let Some(name) = tag {
                self.tree.scopes[scope].tags.push(Tag {
                    name,
                    ty: ty.clone(),
                    visible_from: node.start_byte(),
                });
            }
        }
        ty
    }

    fn make(
        &self,
        name: Node<'_>,
        kind: DeclKind,
        ty: &CType,
        spelling: Option<TypeSpelling>,
        written: String,
        is_file_scope: bool,
    ) -> Declaration {
        Declaration {
            name: self.text(name).to_string(),
            kind,
            storage: StorageClass::None,
            ty: ty.clone(),
            is_file_scope,
            site: self.site.clone(),
            range: name.byte_range(),
            line: name.start_position().row + 1,
            spelling,
            written,
            attribute_words: Vec::new(),
            visible_from: name.end_byte(),
        }
    }

    /// The declaration made by one declarator (`*p`, `a[3] = {…}`, `f(int)`)
    /// of `item`, the declaration, definition, field or parameter it is a
    /// child of (passed in: asking a node for its parent walks down from
    /// the root).
    fn declarator(
        &mut self,
        specs: &Specifiers<'_>,
        item: Node<'_>,
        declarator: Node<'_>,
        kind: DeclKind,
        file_scope: bool,
    ) -> Option<Declaration> {
        let (item, declarator) = match declarator.kind() {
            "init_declarator" => (declarator, declarator.child_by_field_name("declarator")?),
            _ => (item, declarator),
        };
        let (name, ty, function_node) = apply_declarator(specs.ty.clone(), declarator)?;
        let is_function = ty.is_function() && kind != DeclKind::Typedef;
        let kind = if is_function { DeclKind::Function } else { kind };
        // A function's spelling is that of its return type: the hole is the
        // whole `name(params)` declarator.
        let hole = if is_function { function_node? } else { name };
        if let (Some(first), Some(last)) = (specs.nodes.first(), specs.nodes.last()) {
            self.read.push(first.start_byte()..last.end_byte());
        }
        self.read.push(declarator.byte_range());
        let original = self.original;
        let text_of = |n: Node<'_>| original(n.byte_range());
        let spelling = spell(&specs.nodes, Some(declarator), hole, &text_of);
        let view = self.view;
        let text_or_view =
            |n: Node<'_>| text_of(n).unwrap_or_else(|| view.get(n.byte_range()).unwrap_or("").to_string());
        let written = written(&specs.nodes, declarator, name, &text_or_view);
        let mut d = self.make(name, kind, &ty, spelling, written, file_scope);
        d.storage = specs.storage;
        if is_function {
            let params = function_node.and_then(|f| f.child_by_field_name("parameters"));
            let ranges = attribute_ranges(self.file, item, name, params);
            d.attribute_words = attribute_words(&ranges, self.raw);
            self.read.extend(ranges);
        }
        Some(d)
    }

    fn declaration(&mut self, node: Node<'t>, scope: usize, typedef: bool) {
        if node.has_error() {
            self.skip_unparsed(node);
            return;
        }
        let specs = self.specifiers(node, scope);
        let kind = if typedef {
            DeclKind::Typedef
        } else {
            DeclKind::Variable
        };
        let mut cursor = node.walk();
        let declarators: Vec<Node<'_>> = node.children_by_field_name("declarator", &mut cursor).collect();
        for decl in declarators {
            if let Some(d) = self.declarator(&specs, node, decl, kind, scope == 0) {
                self.tree.scopes[scope].declare(d);
            }
            // Initialisers may contain statement expressions with blocks.
            if let Some(value) = decl.child_by_field_name("value") {
                self.visit(value, scope);
            }
        }
    }

    fn function(&mut self, node: Node<'t>, scope: usize) {
        let Some(declarator) = node.child_by_field_name("declarator") else {
            return;
        };
        if node.child_by_field_name("type").is_some_and(|t| t.has_error()) || declarator.has_error() {
            self.skip_unparsed(node);
            return;
        }
        let specs = self.specifiers(node, scope);
        if let Some(d) = self.declarator(&specs, node, declarator, DeclKind::Variable, scope == 0) {
            self.tree.scopes[scope].declare(d);
        }
        let inner = self.new_scope(node, scope);
        if let Some(params) = function_parameters(declarator) {
            self.parameters(params, inner);
        }
        self.each_child(node, |builder, kid| match kid.kind() {
            // K&R: `int f(a, b) int a; char *b; { … }`.
            "declaration" if kid.has_error() => {
                builder.skip_unparsed(kid);
            }
            "declaration" => {
                let specs = builder.specifiers(kid, inner);
                let mut dc = kid.walk();
                for decl in kid.children_by_field_name("declarator", &mut dc) {
                    if let Some(d) = builder.declarator(&specs, kid, decl, DeclKind::Parameter, false) {
                        builder.tree.scopes[inner].declare(d);
                    }
                }
            }
            // The body shares the parameters' scope.
            "compound_statement" => builder.children(kid, inner),
            _ => {}
        });
    }

    fn parameters(&mut self, params: Node<'t>, scope: usize) {
        self.each_child(params, |builder, p| match p.kind() {
            "parameter_declaration" if !p.has_error() => {
                let specs = builder.specifiers(p, scope);
                if let Some(decl) = p.child_by_field_name("declarator")
                    && let Some(d) = builder.declarator(&specs, p, decl, DeclKind::Parameter, false)
                {
                    builder.tree.scopes[scope].declare(d);
                }
            }
            // K&R identifier list: the type comes from the declarations
            // after the parameter list, or is `int` by default.
            "identifier" => {
                let int = CType::new(TypeKind::Integer("int".into()));
                let d = builder.make(p, DeclKind::Parameter, &int, None, "int".to_string(), false);
                builder.tree.scopes[scope].declare(d);
            }
            _ => {}
        });
    }
}

/// Applies a declarator to a base type. Returns the declared name, its
/// type, and the function declarator directly around the name, if any.
///
/// The name is an identifier, or a macro call that writes it: a function
/// declarator directly inside another one would declare a function
/// returning a function, which C does not have, so
/// `PREFIX(scanToken)(const ENC *enc)` declares the function that
/// `PREFIX(scanToken)` names (a different one wherever `PREFIX` is
/// defined differently), and its type is read from the specifiers and the
/// layers around that call only.
pub(super) fn apply_declarator<'t>(
    base: CType,
    declarator: Node<'t>,
) -> Option<(Node<'t>, CType, Option<Node<'t>>)> {
    let mut ty = base;
    let mut node = declarator;
    // The node the descent came from, which is the name's parent once it
    // is reached (callers never pass a function declarator's child, so
    // `declarator`'s own parent is never one).
    let mut above: Option<Node<'t>> = None;
    loop {
        let function = above.filter(|p| p.kind() == "function_declarator");
        match node.kind() {
            "identifier" | "type_identifier" | "field_identifier" => {
                return Some((node, ty, function));
            }
            "function_declarator" if function.is_some() => return Some((node, ty, function)),
            "pointer_declarator" => {
                let (c, v) = qualifiers(node);
                ty = CType::new(TypeKind::Pointer(Box::new(ty))).qualified(c, v);
            }
            "array_declarator" => ty = CType::new(TypeKind::Array(Box::new(ty))),
            "function_declarator" => ty = CType::new(TypeKind::Function(Box::new(ty))),
            "parenthesized_declarator" | "attributed_declarator" => {}
            _ => return None,
        }
        above = Some(node);
        node = node
            .child_by_field_name("declarator")
            .or_else(|| node.named_child(0))?;
    }
}

/// The name a declarator declares, as [`apply_declarator`] finds it: an
/// identifier, or the macro call that writes a function's name
/// (`PREFIX(scanToken)` in `PREFIX(scanToken)(const ENC *enc)`), whose text
/// is then the declaration's name.
pub fn declared_name(declarator: Node<'_>) -> Option<Node<'_>> {
    apply_declarator(CType::unknown(), declarator).map(|(name, _, _)| name)
}

fn qualifiers(node: Node<'_>) -> (bool, bool) {
    let (mut c, mut v) = (false, false);
    let mut cursor = node.walk();
    for kid in node.children(&mut cursor) {
        if kid.kind() == "type_qualifier" {
            let mut kc = kid.walk();
            for word in kid.children(&mut kc) {
                match word.kind() {
                    "const" => c = true,
                    "volatile" => v = true,
                    _ => {}
                }
            }
        }
    }
    (c, v)
}

/// The parameter list of the function declarator that declares the
/// function's own parameters (the one directly around its name).
fn function_parameters(declarator: Node<'_>) -> Option<Node<'_>> {
    let (_, _, function) = apply_declarator(CType::unknown(), declarator)?;
    function?.child_by_field_name("parameters")
}
