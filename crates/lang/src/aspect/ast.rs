//! The syntax tree of an aspect module. LARA structure (aspects, selects,
//! applies, actions) is fully parsed; script parts are kept as statements
//! over token trees, which is all the translation to rhai needs.

use std::ops::Range;
use std::sync::Arc;

use crate::diag::SourceFile;

/// A place in an aspect file: the file and a byte range in it.
#[derive(Debug, Clone)]
pub struct Span {
    pub file: Arc<SourceFile>,
    pub range: Range<usize>,
}

impl Span {
    /// The source text the span covers.
    pub fn text(&self) -> &str {
        self.file.text.get(self.range.clone()).unwrap_or("")
    }
}

/// A name with where it was written.
#[derive(Debug, Clone)]
pub struct Name {
    pub name: String,
    pub span: Span,
}

/// A parsed aspect file with everything it imports.
#[derive(Debug, Clone)]
pub struct Module {
    /// The entry file first, then imported files in import order.
    pub files: Vec<Arc<SourceFile>>,
    /// All aspectdefs, the entry file's first and in source order.
    pub aspects: Vec<AspectDef>,
}

impl Module {
    /// The aspectdef called `name`.
    pub fn aspect(&self, name: &str) -> Option<&AspectDef> {
        self.aspects.iter().find(|a| a.name.name == name)
    }
}

/// `aspectdef Name … end`.
#[derive(Debug, Clone)]
pub struct AspectDef {
    pub name: Name,
    pub inputs: Vec<Param>,
    pub outputs: Vec<Param>,
    pub items: Vec<Item>,
    pub span: Span,
}

/// One entry of an `input` or `output` block, with its default value.
#[derive(Debug, Clone)]
pub struct Param {
    pub name: Name,
    pub default: Option<Expr>,
}

/// A top-level element of an aspect body.
#[derive(Debug, Clone)]
pub enum Item {
    Select(Select),
    Apply(Apply),
    Stmt(Stmt),
}

/// `[Label:] select chain end`.
#[derive(Debug, Clone)]
pub struct Select {
    pub label: Option<Name>,
    pub chain: Chain,
    pub span: Span,
}

/// `function{"main"}.loop{type=="for"}`: steps from the program root.
#[derive(Debug, Clone)]
pub struct Chain {
    pub steps: Vec<Step>,
}

/// One step of a chain: a join point kind (as written) and its filter.
#[derive(Debug, Clone)]
pub struct Step {
    pub kind: Name,
    /// Comparisons joined by "or" (LARA's comma); empty means no filter.
    pub filter: Vec<Compare>,
}

/// `attr == value` in a filter. `{"main"}` is `name == "main"`.
#[derive(Debug, Clone)]
pub struct Compare {
    pub attribute: Name,
    pub op: CmpOp,
    pub value: Expr,
}

/// Comparison operators allowed in filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `apply [to A::B] … end [condition … end]`.
#[derive(Debug, Clone)]
pub struct Apply {
    /// The labels of `apply to`, empty for the select just before.
    pub to: Vec<Name>,
    pub body: Vec<Stmt>,
    pub condition: Option<Expr>,
    pub span: Span,
}

/// Where `insert` puts code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Before,
    After,
    Replace,
}

/// A statement of a script part.
#[derive(Debug, Clone)]
pub enum Stmt {
    Empty,
    Block(Vec<Stmt>),
    /// `if`; `cond` is the parenthesised (JS) or bare (rhai) condition.
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    /// `for (var x in e)`: iterates map keys or array indices, as in JS.
    ForKeys {
        var: Name,
        iter: Expr,
        body: Box<Stmt>,
    },
    /// `for x in e { }` or `for (x, i) in e { }`: rhai's loop over values.
    ForValues {
        vars: Vec<Name>,
        iter: Expr,
        body: Box<Stmt>,
    },
    /// `for (init; cond; step)`: rejected by the translator with a hint.
    ForC {
        span: Span,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    Loop(Box<Stmt>),
    /// `function f(a, b) { … }`.
    Function {
        name: Name,
        params: Vec<Name>,
        body: Vec<Stmt>,
    },
    /// `x++;` / `--x;`.
    IncDec {
        var: Name,
        increment: bool,
    },
    /// An expression statement; `terminated` if it ended with `;`.
    Expr {
        expr: Expr,
        terminated: bool,
    },
    Insert {
        target: Option<Name>,
        position: Position,
        code: Expr,
        span: Span,
    },
    Perform {
        target: Option<Name>,
        action: Name,
        args: Vec<Expr>,
        span: Span,
    },
    Def {
        target: Option<Name>,
        attribute: Name,
        value: Expr,
        span: Span,
    },
    Call {
        label: Option<Name>,
        aspect: Name,
        args: Vec<Expr>,
        span: Span,
    },
}

/// An expression as a sequence of token trees.
#[derive(Debug, Clone)]
pub struct Expr {
    pub tokens: Vec<Token>,
    pub span: Span,
}

/// One token tree of a script expression.
#[derive(Debug, Clone)]
pub enum Token {
    /// Passed to rhai as written (identifiers, numbers, operators, `.name`,
    /// backtick strings); `var` and rhai-reserved words are renamed.
    Plain(Span),
    /// `$name`, a join point variable.
    JoinPoint(Name),
    /// A '…' or "…" string with its decoded pieces.
    Str(Literal),
    /// A %{ … }% code literal.
    Code(Literal),
    /// `new` (dropped: `new X(…)` is `X(…)`).
    New(Span),
    /// `undefined` or `null` (rhai's unit `()`).
    Unit(Span),
    /// `,` inside brackets.
    Comma(Span),
    /// `( … )`, `[ … ]`, `{ … }` (a JS object literal), `#{ … }`.
    Group {
        kind: GroupKind,
        tokens: Vec<Token>,
        span: Span,
    },
    /// `function (a, b) { … }`.
    Function {
        params: Vec<Name>,
        body: Vec<Stmt>,
        span: Span,
    },
}

/// The bracket of a [`Token::Group`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupKind {
    Paren,
    Bracket,
    Object,
}

/// A string or code literal split at its `[[expr]]` interpolations.
#[derive(Debug, Clone)]
pub struct Literal {
    pub pieces: Vec<Piece>,
    pub span: Span,
}

/// Text (escapes decoded) or an interpolated expression.
#[derive(Debug, Clone)]
pub enum Piece {
    Text(String),
    Interpolation(Expr),
}
