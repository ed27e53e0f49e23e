//! The contract between the interpreter and the program being woven.

use crate::model::{JoinPoint, Value};

/// Where an `insert` action puts its code relative to a join point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertAt {
    Before,
    After,
    Replace,
}

/// Why the host could not do what the interpreter asked.
#[derive(Debug, Clone, PartialEq)]
pub enum HostError {
    /// `select` named a kind the catalogue does not have (or that cannot be
    /// selected from the parent). `suggestion` is the closest valid name.
    UnknownKind {
        parent: String,
        name: String,
        suggestion: Option<String>,
    },
    /// An attribute the kind does not have.
    UnknownAttribute {
        kind: String,
        name: String,
        suggestion: Option<String>,
    },
    /// An action the host refuses because it would produce illegal or
    /// misplaced C (e.g. `insert after` a `return`). `location` is `file:line:col`.
    Refused { location: String, message: String },
    /// Something the run needs that this weave was not given or cannot
    /// find (an SMT solver for a loop's `src`): not the aspect's fault, nor
    /// the program's.
    Unavailable(String),
    /// Anything else (overlapping replacements, a failed transformation …).
    Failed(String),
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hint = |s: &Option<String>| {
            s.as_ref()
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default()
        };
        match self {
            HostError::UnknownKind {
                parent,
                name,
                suggestion,
            } => {
                write!(f, "`{parent}` has no join point `{name}`{}", hint(suggestion))
            }
            HostError::UnknownAttribute {
                kind,
                name,
                suggestion,
            } => {
                write!(
                    f,
                    "join point `{kind}` has no attribute `{name}`{}",
                    hint(suggestion)
                )
            }
            HostError::Refused { location, message } => write!(f, "{location}: {message}"),
            HostError::Unavailable(message) | HostError::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for HostError {}

/// Where a select given a part at a time ([`Host::select_part`]) goes on:
/// the host's own position, which the engine only hands back (for a
/// program of files, a file and a piece of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// The host's first coordinate (a file).
    pub outer: usize,
    /// The host's second coordinate (a piece of that file).
    pub inner: usize,
}

impl Part {
    /// Where every walk starts.
    pub const FIRST: Part = Part { outer: 0, inner: 0 };
}

/// What the interpreter needs from the program being woven.
///
/// Selects see the program as edited by the applies before them: edits made
/// through [`Host::insert`] and [`Host::perform`] are pending until
/// [`Host::commit`], which the interpreter calls at the end of every apply.
pub trait Host {
    /// The root `program` join point.
    fn root(&self) -> JoinPoint;
    /// The join points of kind `kind` (canonical name or alias) selected from
    /// `parent`, in source order: one step `parent.kind` of a select chain.
    fn select(&mut self, parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError>;
    /// [`Host::select`]'s join points a part at a time, from `from` (a
    /// walk starts at [`Part::FIRST`]): one part and where the next one
    /// starts, `None` after the last. A host whose walks over the whole
    /// program are costly (a large file's trees are parsed again by each)
    /// gives a part per piece of it, so that the apply acting on a part's
    /// join points does so while the trees they came from are at hand.
    /// This default gives everything in one part.
    fn select_part(
        &mut self,
        parent: &JoinPoint,
        kind: &str,
        from: Part,
    ) -> Result<(Vec<JoinPoint>, Option<Part>), HostError> {
        let _ = from;
        Ok((self.select(parent, kind)?, None))
    }
    /// The value of attribute `name` (canonical name or alias) of `jp`.
    fn attribute(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError>;
    /// Inserts `code` before, after or in place of `jp`.
    fn insert(&mut self, jp: &JoinPoint, at: InsertAt, code: &str) -> Result<(), HostError>;
    /// Runs action `action` (a transformation such as `SingleDeclarator`, or
    /// `Unroll`) on `jp`.
    fn perform(&mut self, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError>;
    /// Sets attribute `name` of `jp` to `value` (LARA's `def`). Hosts that
    /// cannot redefine attributes keep this default, which refuses.
    fn define(&mut self, jp: &JoinPoint, name: &str, value: &Value) -> Result<(), HostError> {
        let _ = (jp, value);
        Err(HostError::Failed(format!(
            "`def {name}` is not supported: attributes of this program cannot be redefined"
        )))
    }
    /// Applies pending edits; later selects see the new text.
    fn commit(&mut self) -> Result<(), HostError>;
}
