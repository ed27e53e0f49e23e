//! A mock host for engine tests: a tree of join points with attributes,
//! recording every action in order.

#![allow(dead_code)]

use std::collections::BTreeMap;

use weft::engine::{Host, HostError, InsertAt, Part};
use weft::joinpoint::{JoinPoint, Value};

pub const ROOT: usize = 0;

struct Node {
    kind: &'static str,
    attrs: BTreeMap<String, Value>,
    children: Vec<usize>,
}

/// A program as a tree; every action lands in `log`.
pub struct MockHost {
    nodes: Vec<Node>,
    pub log: Vec<String>,
    pub commits: usize,
    /// Selects from the root come a part per child of the root, each
    /// logged as `part N` when asked for ([`Host::select_part`]).
    pub parted: bool,
}

fn leak(kind: &str) -> &'static str {
    Box::leak(kind.to_string().into_boxed_str())
}

impl Default for MockHost {
    fn default() -> Self {
        MockHost::new()
    }
}

impl MockHost {
    pub fn new() -> Self {
        let root = Node {
            kind: "program",
            attrs: BTreeMap::new(),
            children: Vec::new(),
        };
        MockHost {
            nodes: vec![root],
            log: Vec::new(),
            commits: 0,
            parted: false,
        }
    }

    /// Adds a node of `kind` under `parent` and returns its id.
    pub fn add(&mut self, parent: usize, kind: &str, attrs: &[(&str, Value)]) -> usize {
        let id = self.nodes.len();
        let attrs = attrs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        self.nodes.push(Node {
            kind: leak(kind),
            attrs,
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    fn handle(&self, id: usize) -> JoinPoint {
        JoinPoint {
            kind: self.nodes[id].kind,
            file: Some(0),
            range: id..id + 1,
            node_kind: 0,
        }
    }

    fn descendants(&self, id: usize, kind: &str, out: &mut Vec<usize>) {
        for &child in &self.nodes[id].children {
            if self.nodes[child].kind == kind {
                out.push(child);
            }
            self.descendants(child, kind, out);
        }
    }

    fn name(&self, jp: &JoinPoint) -> String {
        match self.nodes[jp.range.start].attrs.get("name") {
            Some(Value::Str(s)) => s.clone(),
            _ => format!("{}#{}", jp.kind, jp.range.start),
        }
    }
}

pub fn s(text: &str) -> Value {
    Value::Str(text.to_string())
}

impl Host for MockHost {
    fn root(&self) -> JoinPoint {
        self.handle(ROOT)
    }

    fn select(&mut self, parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
        if kind == "nosuch" {
            return Err(HostError::UnknownKind {
                parent: parent.kind.into(),
                name: kind.into(),
                suggestion: Some("loop".into()),
            });
        }
        let mut ids = Vec::new();
        self.descendants(parent.range.start, kind, &mut ids);
        Ok(ids.into_iter().map(|id| self.handle(id)).collect())
    }

    fn select_part(
        &mut self,
        parent: &JoinPoint,
        kind: &str,
        from: Part,
    ) -> Result<(Vec<JoinPoint>, Option<Part>), HostError> {
        if !self.parted || parent.range.start != ROOT {
            return Ok((self.select(parent, kind)?, None));
        }
        let tops = &self.nodes[ROOT].children;
        let Some(&top) = tops.get(from.inner) else {
            return Ok((Vec::new(), None));
        };
        let next = (from.inner + 1 < tops.len()).then_some(Part {
            outer: 0,
            inner: from.inner + 1,
        });
        let mut ids = Vec::new();
        if self.nodes[top].kind == kind {
            ids.push(top);
        }
        self.descendants(top, kind, &mut ids);
        self.log.push(format!("part {}", from.inner));
        Ok((ids.into_iter().map(|id| self.handle(id)).collect(), next))
    }

    fn attribute(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
        self.nodes[jp.range.start]
            .attrs
            .get(name)
            .cloned()
            .ok_or_else(|| HostError::UnknownAttribute {
                kind: jp.kind.into(),
                name: name.into(),
                suggestion: None,
            })
    }

    fn insert(&mut self, jp: &JoinPoint, at: InsertAt, code: &str) -> Result<(), HostError> {
        if self.nodes[jp.range.start].attrs.contains_key("refuse") {
            return Err(HostError::Refused {
                location: "t.c:3:5".into(),
                message: "cannot insert after a return".into(),
            });
        }
        let at = format!("{at:?}").to_lowercase();
        self.log.push(format!("{at} {}: {code}", self.name(jp)));
        Ok(())
    }

    fn perform(&mut self, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError> {
        if action == "Unroll" {
            return Err(HostError::Failed("loop unrolling is not implemented".into()));
        }
        self.log
            .push(format!("perform {action}{args:?} on {}", self.name(jp)));
        Ok(())
    }

    fn commit(&mut self) -> Result<(), HostError> {
        self.commits += 1;
        self.log.push("commit".into());
        Ok(())
    }
}
