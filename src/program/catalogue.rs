//! The join point catalogue as the host calls it. Kept behind these three
//! names so the host does not care where the catalogue lives.

use tree_sitter::Node;

use crate::c::ParsedFile;
use crate::engine::HostError;
use crate::joinpoint::{JoinPoint, Value};

/// The join points of kind `kind` selected from `parent`.
pub fn select(_files: &[ParsedFile], _parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
    Err(HostError::Failed(format!(
        "cannot select `{kind}`: the join point catalogue is not available in this build"
    )))
}

/// The value of attribute `name` of `jp`.
pub fn attribute(_files: &[ParsedFile], jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
    Err(HostError::Failed(format!(
        "cannot read `{}.{name}`: the join point catalogue is not available in this build",
        jp.kind
    )))
}

/// The tree node a join point stands for, if the handle is still valid.
pub fn node<'f>(files: &'f [ParsedFile], jp: &JoinPoint) -> Option<Node<'f>> {
    let file = files.get(jp.file?)?;
    let mut node = file
        .tree
        .root_node()
        .descendant_for_byte_range(jp.range.start, jp.range.end)?;
    loop {
        if node.byte_range() == jp.range && node.kind_id() == jp.node_kind {
            return Some(node);
        }
        if node.start_byte() < jp.range.start || node.end_byte() > jp.range.end {
            return None;
        }
        node = node.parent()?;
    }
}
