//! `orig(x)` from a `.dtrace`: each exit sample gets the values of the entry
//! sample with the same `this_invocation_nonce`, as Daikon pairs them, so
//! that a trace read back gives the exit invariants its samples support
//! (`x == orig(x)`, `return > orig(n)`).

use std::collections::HashMap;

use crate::model::{PointDecl, PointKind, Value, VarDecl};

/// What a declared point takes part in.
#[derive(Clone, Copy)]
enum Role {
    /// The entry of function number `.0`.
    Enter(u32),
    /// An exit of function number `.0`, whose entry has `.1` variables.
    Exit(u32, usize),
}

/// Pairs entries with exits by nonce across a stream of records.
#[derive(Default)]
pub struct Invocations {
    /// Function numbers, by the point name before `:::`.
    functions: HashMap<String, u32>,
    /// Entry declarations by function number: their variables.
    entries: HashMap<u32, Vec<VarDecl>>,
    roles: HashMap<String, Role>,
    /// Entry values of invocations that have not exited yet.
    open: HashMap<(u32, u64), Vec<Value>>,
}

impl Invocations {
    /// `decl` as the engine should see it: an exit whose function's entry
    /// is declared gets an `orig(x)` per entry variable, after its own
    /// (unless the trace gives `orig(..)` variables itself).
    pub fn declare(&mut self, mut decl: PointDecl) -> PointDecl {
        let base = decl.name.rsplit_once(":::").map_or(&*decl.name, |(b, _)| b);
        let next = u32::try_from(self.functions.len()).unwrap_or(u32::MAX);
        let function = *self.functions.entry(base.to_string()).or_insert(next);
        match decl.kind {
            PointKind::Enter => {
                self.entries.insert(function, decl.vars.clone());
                self.roles.insert(decl.name.clone(), Role::Enter(function));
            }
            PointKind::Exit if !decl.vars.iter().any(|v| v.name.starts_with("orig(")) => {
                if let Some(entry) = self.entries.get(&function) {
                    let origs = entry.iter().map(|v| VarDecl {
                        name: format!("orig({})", v.name),
                        ..v.clone()
                    });
                    decl.vars.extend(origs);
                    self.roles
                        .insert(decl.name.clone(), Role::Exit(function, entry.len()));
                }
            }
            PointKind::Exit | PointKind::Point => {}
        }
        decl
    }

    /// Completes the values of a sample of `ppt`: an entry's are kept
    /// until its exit; an exit gets them appended, or `Missing` for each
    /// when no entry with its nonce was seen (or it has no nonce).
    pub fn sample(&mut self, ppt: &str, nonce: Option<u64>, values: &mut Vec<Value>) {
        match (self.roles.get(ppt), nonce) {
            (Some(Role::Enter(f)), Some(nonce)) => {
                self.open.insert((*f, nonce), values.clone());
            }
            (Some(Role::Exit(f, count)), _) => match nonce.and_then(|n| self.open.remove(&(*f, n))) {
                Some(entry) => values.extend(entry),
                None => values.extend(std::iter::repeat_n(Value::Missing, *count)),
            },
            _ => {}
        }
    }
}
