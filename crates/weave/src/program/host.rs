//! [`Host`] for [`Program`]: selects and attributes come from the join point
//! catalogue, inserts go through the placement rules into the file's
//! [`crate::edit::EditSet`], performs run transformation passes.

use super::{Program, perform, recurrence};
use crate::edit::placement;
use crate::joinpoint::{self, JoinPoint, Value};
use weft_lang::engine::{Host, HostError, InsertAt, Part};

impl Host for Program {
    fn root(&self) -> JoinPoint {
        JoinPoint {
            kind: "program",
            file: None,
            range: 0..0,
            node_kind: 0,
        }
    }

    fn select(&mut self, parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
        joinpoint::select(self.files(), parent, kind)
    }

    fn select_part(
        &mut self,
        parent: &JoinPoint,
        kind: &str,
        from: Part,
    ) -> Result<(Vec<JoinPoint>, Option<Part>), HostError> {
        joinpoint::select_part(self.files(), parent, kind, from)
    }

    fn attribute(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
        let canonical = joinpoint::kind(jp.kind)
            .and_then(|k| k.attribute(name))
            .map(|a| a.name);
        if let (Some("file"), Some(unit)) = (canonical, jp.file.and_then(|i| self.unit(i))) {
            return Ok(Value::Str(unit.to_string()));
        }
        if let Some(name) = canonical.filter(|n| recurrence::is_recurrence_attribute(jp.kind, n)) {
            return self.recurrence(jp, name);
        }
        if joinpoint::uses_semantics(jp.kind, name) {
            let (files, sema) = self.with_semantics();
            joinpoint::attribute(files, Some(sema), jp, name)
        } else {
            joinpoint::attribute(self.files(), None, jp, name)
        }
    }

    fn insert(&mut self, jp: &JoinPoint, at: InsertAt, code: &str) -> Result<(), HostError> {
        let Some(index) = jp.file else {
            return Err(HostError::Refused {
                location: "program".into(),
                message: format!(
                    "cannot insert relative to the `{}` join point: select a file-scope item or statement",
                    jp.kind
                ),
            });
        };
        let files = self.files();
        let file = files.get(index).ok_or_else(|| stale(jp))?;
        let tree = joinpoint::tree_of(files, jp).ok_or_else(|| stale(jp))?;
        let node = joinpoint::node(&tree, jp).ok_or_else(|| stale(jp))?;
        let plan = placement::plan(file, node, at, code).map_err(|r| HostError::Refused {
            location: file.location(r.offset).to_string(),
            message: r.message,
        })?;
        // Inserted code may declare anything: the file is walked again.
        self.edits_of(index, false)
            .push(plan.ops, plan.origin)
            .map_err(|e| HostError::Failed(e.to_string()))
    }

    fn perform(&mut self, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError> {
        perform::perform(self, jp, action, args)
    }

    fn commit(&mut self) -> Result<(), HostError> {
        Program::commit(self);
        Ok(())
    }
}

fn stale(jp: &JoinPoint) -> HostError {
    HostError::Failed(format!(
        "join point `{}` at bytes {}..{} no longer exists (the file changed since it was selected)",
        jp.kind, jp.range.start, jp.range.end
    ))
}
