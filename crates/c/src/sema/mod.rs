//! Symbols and types: scopes, declarations, typedef resolution.
//!
//! [`Semantics`] is built once per program from its parsed files. It follows
//! `#include "…"` into the project's own headers (parsed without a
//! preprocessor, never system headers) and knows the standard library's
//! usual typedefs by name. Queries take tree-sitter nodes of the files'
//! parsed views, so join points and passes can ask about any identifier
//! they hold. Names inside text that did not parse are left unresolved, and
//! anything unresolved has type [`TypeKind::Unknown`]. See docs/types.md.

mod builder;
mod change;
mod ctype;
mod declaration;
mod expr;
mod headers;
mod noreturn;
mod scope;
mod shift;
mod spelling;
mod stdtypes;

pub use builder::{StructDef, declared_name};
pub use change::FileChange;
pub use ctype::{CType, TypeKind};
pub use declaration::{DeclKind, DeclSite, Declaration, StorageClass};
pub use shift::ViewShift;
pub use spelling::TypeSpelling;
pub use stdtypes::standard_typedef;

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use tree_sitter::Node;

use crate::{MacroTable, ParsedFile};
use builder::{Builder, FileSymbols};
use headers::IncludeCache;
use scope::ScopeTree;

/// How headers are parsed: path and text to a parsed file.
pub type HeaderParser<'a> = &'a dyn Fn(&Path, Arc<str>) -> ParsedFile;

/// Symbols of one file (a program file or a header).
#[derive(Debug)]
struct Unit {
    path: PathBuf,
    /// The original text (its `#define`s decide what macros mean).
    text: Arc<str>,
    view: String,
    symbols: FileSymbols,
    /// Indexes into `Semantics::headers` of every header reached from this
    /// unit, directly or not.
    headers: Vec<usize>,
    /// Indexes into `Semantics::structs` of the structs this unit defines.
    structs: std::ops::Range<usize>,
}

/// Symbols and types of a whole program.
pub struct Semantics {
    files: Vec<Unit>,
    headers: Vec<Unit>,
    structs: Vec<StructDef>,
    /// Each header path met, with its index in `headers` (`None` while it
    /// is being loaded, or when it cannot be read).
    header_index: HashMap<PathBuf, Option<usize>>,
    /// The macros defined in every file and header read, learned on the
    /// first question that needs them.
    macros: OnceLock<MacroTable>,
    /// Where the includes met lead (`include_dirs` are the same for the
    /// life of the semantics: [`Semantics::update`] is given those of the
    /// build).
    includes: IncludeCache,
}

impl Semantics {
    /// Builds the symbol tables of `files` (indexes are kept: file `i` here
    /// is `files[i]`), following project includes in `include_dirs`.
    pub fn build(files: &[ParsedFile], include_dirs: &[PathBuf]) -> Semantics {
        Semantics::build_with(files, include_dirs, &|path, text| {
            ParsedFile::parse_plain(path, text)
        })
    }

    /// [`Semantics::build`] parsing the headers with `parse` (give it the
    /// macro-aware [`crate::FrontEnd`] so headers full of macros resolve).
    pub fn build_with(files: &[ParsedFile], include_dirs: &[PathBuf], parse: HeaderParser<'_>) -> Semantics {
        let mut sema = Semantics {
            files: Vec::new(),
            headers: Vec::new(),
            structs: Vec::new(),
            header_index: HashMap::new(),
            macros: OnceLock::new(),
            includes: IncludeCache::default(),
        };
        for (i, file) in files.iter().enumerate() {
            let unit = sema.file_unit(i, file, include_dirs, parse);
            sema.files.push(unit);
        }
        sema
    }

    /// The semantics of `files` after some of them changed: `changes[i]`
    /// says how file `i` changed since these semantics were built. A
    /// shifted file's symbols are moved ([`Semantics::shift`]); other
    /// changed files are walked again. Headers (never edited) are kept,
    /// and so is where includes lead: `include_dirs` must be those of the
    /// build.
    pub fn update(
        mut self,
        files: &[ParsedFile],
        changes: &[FileChange],
        include_dirs: &[PathBuf],
        parse: HeaderParser<'_>,
    ) -> Semantics {
        if files.len() != self.files.len() {
            return Semantics::build_with(files, include_dirs, parse);
        }
        for (i, file) in files.iter().enumerate() {
            match changes.get(i).unwrap_or(&FileChange::Rewritten) {
                FileChange::Unchanged => continue,
                FileChange::Shifted(shift) if self.shift(i, file, shift) => continue,
                _ => {}
            }
            // Edits may add or drop definitions: learn them again if asked.
            self.macros = OnceLock::new();
            // The old unit's structs stay in place (indexes of other units
            // must not move) but can no longer be found by tag.
            for def in &mut self.structs[self.files[i].structs.clone()] {
                def.tag = None;
                def.fields.clear();
            }
            // The old symbols go before the walk: kept through it, a large
            // file's symbols would live twice.
            self.files[i].symbols = FileSymbols::default();
            self.files[i] = self.file_unit(i, file, include_dirs, parse);
        }
        self
    }

    /// Moves the symbols of program file `i` through `shift`, the view
    /// edits that made `file` from the file these semantics describe,
    /// instead of walking it again. Returns false, changing nothing, when
    /// the edits do more than move them: something recorded (a scope, a
    /// declaration, a tag) lies inside replaced text, or text a declaration
    /// was read from changed.
    pub fn shift(&mut self, i: usize, file: &ParsedFile, shift: &ViewShift) -> bool {
        let Some(unit) = self.files.get_mut(i) else {
            return false;
        };
        if !shift::shift_symbols(&mut unit.symbols, &mut self.structs[unit.structs.clone()], shift) {
            return false;
        }
        unit.text = Arc::clone(&file.text);
        unit.view.clone_from(&file.view);
        if shift.touches_directive() {
            self.macros = OnceLock::new();
        }
        true
    }

    /// Walks program file `i`, loading the headers it reaches.
    fn file_unit(
        &mut self,
        i: usize,
        file: &ParsedFile,
        include_dirs: &[PathBuf],
        parse: HeaderParser<'_>,
    ) -> Unit {
        let direct = headers::direct_includes(file, include_dirs, &mut self.includes);
        let reached = self.load_headers(&direct, include_dirs, parse);
        let first_struct = self.structs.len();
        let symbols = self.walk(file, DeclSite::File(i), &reached);
        Unit {
            path: file.path.clone(),
            text: Arc::clone(&file.text),
            view: file.view.clone(),
            symbols,
            headers: reached,
            structs: first_struct..self.structs.len(),
        }
    }

    /// Parses and walks the headers in `direct` (and what they include)
    /// that were not seen yet; returns all headers reached, in order.
    fn load_headers(
        &mut self,
        direct: &[PathBuf],
        include_dirs: &[PathBuf],
        parse: HeaderParser<'_>,
    ) -> Vec<usize> {
        let mut reached = Vec::new();
        for path in direct {
            let known = match self.header_index.get(path) {
                Some(Some(i)) => Some(*i),
                // Being loaded higher up (an include cycle) or unreadable.
                Some(None) => None,
                None => self.load_header(path, include_dirs, parse),
            };
            if let Some(i) = known {
                for h in self.headers[i].headers.iter().copied().chain([i]) {
                    if !reached.contains(&h) {
                        reached.push(h);
                    }
                }
            }
        }
        reached
    }

    fn load_header(
        &mut self,
        path: &Path,
        include_dirs: &[PathBuf],
        parse: HeaderParser<'_>,
    ) -> Option<usize> {
        self.header_index.insert(path.to_path_buf(), None);
        let text = std::fs::read_to_string(path).ok()?;
        let parsed = parse(path, Arc::from(text));
        let direct = headers::direct_includes(&parsed, include_dirs, &mut self.includes);
        let reached = self.load_headers(&direct, include_dirs, parse);
        let first_struct = self.structs.len();
        let symbols = self.walk(&parsed, DeclSite::Header(path.to_path_buf()), &reached);
        self.headers.push(Unit {
            path: path.to_path_buf(),
            text: Arc::clone(&parsed.text),
            view: parsed.view.clone(),
            symbols,
            headers: reached,
            structs: first_struct..self.structs.len(),
        });
        let i = self.headers.len() - 1;
        self.header_index.insert(path.to_path_buf(), Some(i));
        Some(i)
    }

    fn walk(&mut self, file: &ParsedFile, site: DeclSite, reached: &[usize]) -> FileSymbols {
        let trees: Vec<&ScopeTree> = reached
            .iter()
            .filter_map(|&h| self.headers.get(h))
            .map(|u| &u.symbols.tree)
            .collect();
        // Verbatim only: a spelling copied across a blanked `BZ_API(` would
        // bring the macro back without its closing parenthesis.
        let original = |r: Range<usize>| {
            let o = file.verbatim_range(r)?;
            file.text.get(o).map(str::to_string)
        };
        // Blanked macros map to their own original bytes (the repairs keep
        // lengths), so the original text between two mapped offsets shows them.
        let raw = |r: Range<usize>| {
            let start = file.map.approximate(r.start);
            let end = file.map.approximate(r.end);
            file.text.get(start..end).unwrap_or_default().to_string()
        };
        let texts = macro_texts(&file.text, &self.headers, reached);
        let macro_defs = |name: &str| crate::macros::definitions_in(texts.iter().copied(), name);
        let builder = Builder::new(
            file,
            &original,
            &raw,
            site,
            &trees,
            &macro_defs,
            &mut self.structs,
        );
        builder.build(file)
    }

    /// The declaration of the name `name` visible at `offset` of file
    /// `file`'s view (ordinary identifiers: not tags, not members).
    pub fn lookup(&self, file: usize, offset: usize, name: &str) -> Option<&Declaration> {
        let unit = self.files.get(file)?;
        let not_field = |d: &Declaration| d.kind != DeclKind::Field;
        unit.symbols.tree.lookup(offset, name, not_field).or_else(|| {
            unit.headers.iter().rev().find_map(|&h| {
                self.headers
                    .get(h)?
                    .symbols
                    .tree
                    .lookup(usize::MAX, name, not_field)
            })
        })
    }

    /// Every distinct `#define` of `name` in program file `file` and in the
    /// project headers it reaches: what `name` can mean there when it is
    /// a macro. Several definitions mean conditional compilation (or an
    /// `#undef` and a new one) decides; none, that it is not one of the
    /// project's macros there (a system header's, or undeclared).
    pub fn macro_definitions(&self, file: usize, name: &str) -> Vec<crate::MacroDef> {
        let Some(unit) = self.files.get(file) else {
            return Vec::new();
        };
        crate::macros::definitions_in(macro_texts(&unit.text, &self.headers, &unit.headers), name)
    }

    /// True when the function `name`, called or defined at `offset` of file
    /// `file`, cannot return: a standard function that does not return
    /// (`exit`, `abort`, `longjmp`, …), or one declared noreturn (by a
    /// keyword, an attribute or a macro expanding to one) in any of its
    /// declarations in the file, before or after `offset` (gcc merges
    /// them), or in the file's project headers. A name that `offset` sees
    /// declared as an object (a function pointer) never is.
    ///
    /// Macro meanings come from the `#define`s of every file and header
    /// read, so a noreturn macro defined only in a header that is not read
    /// (a system header, `<config.h>`) is not recognised.
    pub fn is_noreturn(&self, file: usize, offset: usize, name: &str) -> bool {
        let Some(unit) = self.files.get(file) else {
            return false;
        };
        match self.lookup(file, offset, name) {
            None => return noreturn::is_standard(name),
            Some(d) if d.kind != DeclKind::Function => return false,
            Some(_) if noreturn::is_standard(name) => return true,
            Some(_) => {}
        }
        let macros = self.macros.get_or_init(|| {
            MacroTable::learn(
                self.files
                    .iter()
                    .chain(&self.headers)
                    .map(|u| (u.path.as_path(), &*u.text)),
            )
        });
        let in_headers = unit
            .headers
            .iter()
            .filter_map(|&h| self.headers.get(h))
            .flat_map(|u| u.symbols.tree.visible(usize::MAX, name));
        let tree = &unit.symbols.tree;
        // Block-scope declarations seen at `offset`, then the file scope's.
        tree.visible(offset, name)
            .chain(tree.visible(usize::MAX, name))
            .chain(in_headers)
            .filter(|d| d.kind == DeclKind::Function)
            .any(|d| noreturn::declares_noreturn(&d.attribute_words, macros))
    }

    /// The declaration an identifier node refers to. A `field_identifier`
    /// of a member access (`s.m`, `p->m`) resolves to the member.
    pub fn declaration_of(&self, file: usize, ident: Node<'_>) -> Option<&Declaration> {
        let name = self.files.get(file)?.view.get(ident.byte_range())?;
        if ident.kind() == "field_identifier" {
            let access = ident.parent().filter(|p| p.kind() == "field_expression")?;
            return self.member(file, access);
        }
        // At its end, so a declared identifier resolves to its own declaration.
        self.lookup(file, ident.end_byte(), name)
    }

    /// The resolved type of the entity an identifier node refers to.
    pub fn type_of(&self, file: usize, ident: Node<'_>) -> CType {
        self.declaration_of(file, ident)
            .map(|d| d.ty.clone())
            .unwrap_or_else(CType::unknown)
    }

    /// The definition of a struct or union type, if it was seen.
    pub fn struct_def(&self, ty: &CType) -> Option<&StructDef> {
        let TypeKind::Struct { tag, union, def } = &ty.kind else {
            return None;
        };
        match def {
            Some(i) => self.structs.get(*i),
            // Declared before its definition (`struct s *p;`): find the
            // definition by tag.
            None => self
                .structs
                .iter()
                .find(|s| s.tag.is_some() && s.tag == *tag && s.union == *union),
        }
    }

    /// The member `name` of a struct or union type.
    pub fn field(&self, ty: &CType, name: &str) -> Option<&Declaration> {
        self.struct_def(ty)?.fields.iter().find(|f| f.name == name)
    }

    /// 1-based lines of the regions of `file` skipped because they did not
    /// parse (their names are unresolved).
    pub fn unparsed_lines(&self, file: usize) -> impl Iterator<Item = usize> + '_ {
        self.files
            .get(file)
            .into_iter()
            .flat_map(|u| u.symbols.unparsed.iter().map(|r| r.line))
    }

    /// The project headers that were read, in load order.
    pub fn headers(&self) -> impl Iterator<Item = &Path> {
        self.headers.iter().map(|u| u.path.as_path())
    }

    /// The path a program file was given with.
    pub fn file_path(&self, file: usize) -> Option<&Path> {
        self.files.get(file).map(|u| u.path.as_path())
    }

    /// Everything known about program file `file`, in full: its text and
    /// view, every scope with its declarations and tags, the headers it
    /// reaches and the structs it defines. For tests comparing two ways of
    /// arriving at the same semantics.
    #[doc(hidden)]
    pub fn describe_file(&self, file: usize) -> String {
        let Some(unit) = self.files.get(file) else {
            return String::new();
        };
        format!("{unit:#?}\n{:#?}", &self.structs[unit.structs.clone()])
    }
}

/// The texts whose `#define`s give a file's names their macro meanings:
/// the file's own, then those of the headers it reaches (`reached`,
/// indexes into `headers`).
fn macro_texts<'a>(text: &'a str, headers: &'a [Unit], reached: &[usize]) -> Vec<&'a str> {
    std::iter::once(text)
        .chain(reached.iter().filter_map(|&h| headers.get(h)).map(|u| &*u.text))
        .collect()
}
