//! The engine: program points, their samples, and the aggregate exits of
//! the program-point hierarchy.

use std::collections::HashMap;

use thiserror::Error;

use crate::kind_set::KindSet;
use crate::model::{PointDecl, PointKind, Rep, Value};
use crate::point::Point;
use crate::print::{Report, naive_sets, point_report};

/// How the engine decides and how it works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// An invariant is reported only if the probability that it held by
    /// chance is below `1 - conf_limit` (Daikon's `--conf_limit`).
    pub conf_limit: f64,
    /// Dynamic constants, equality sets and suppression (the default). When
    /// `false`, every invariant is instantiated over every tuple and checked
    /// on every sample: the reference the optimisations must agree with.
    pub optimize: bool,
    /// Kinds never instantiated (default: those Daikon leaves out,
    /// [`KindSet::daikon_off`]).
    pub off: KindSet,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            conf_limit: 0.99,
            optimize: true,
            off: KindSet::daikon_off(),
        }
    }
}

/// A declared program point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointId(usize);

/// A sample the engine cannot take.
#[derive(Debug, Error, PartialEq)]
pub enum EngineError {
    /// The id does not come from this engine.
    #[error("no program point has id {0}")]
    UnknownPoint(usize),
    /// The sample has more or fewer values than the point has variables.
    #[error("{point}: a sample has {found} values for {expected} variables")]
    Arity {
        point: String,
        expected: usize,
        found: usize,
    },
    /// A value does not have its variable's representation.
    #[error("{point}: variable {var} is {expected:?} but the sample gives {found:?}")]
    Rep {
        point: String,
        var: String,
        expected: Rep,
        found: Rep,
    },
}

/// How a numbered exit feeds its function's aggregate exit: the aggregate's
/// point, and for each of its variables the exit variable holding it.
struct Parent {
    point: usize,
    projection: Vec<Option<usize>>,
}

/// The streaming invariant engine: declare points, add samples, finish.
/// Memory does not grow with the number of samples.
pub struct Engine {
    config: Config,
    points: Vec<Point>,
    parents: Vec<Option<Parent>>,
    by_name: HashMap<String, usize>,
}

impl Engine {
    /// An engine with no points.
    pub fn new(config: Config) -> Engine {
        Engine {
            config,
            points: vec![],
            parents: vec![],
            by_name: HashMap::new(),
        }
    }

    /// Declares a program point. A name declared before gives the earlier
    /// id. A numbered exit `f:::EXIT<n>` also declares `f:::EXIT` (with the
    /// first numbered exit's variables) and feeds it every sample, so that
    /// invariants over all exits are found there (Daikon's combined exit).
    pub fn declare(&mut self, decl: PointDecl) -> PointId {
        if let Some(&id) = self.by_name.get(&decl.name) {
            return PointId(id);
        }
        let parent = decl.aggregate_exit_name().map(|name| {
            let aggregate = PointDecl {
                name,
                kind: PointKind::Exit,
                ..decl.clone()
            };
            let PointId(point) = self.declare(aggregate);
            let projection = self.points[point]
                .decl
                .vars
                .iter()
                .map(|v| decl.vars.iter().position(|w| w.name == v.name && w.rep == v.rep))
                .collect();
            Parent { point, projection }
        });
        let id = self.points.len();
        self.by_name.insert(decl.name.clone(), id);
        self.points
            .push(Point::new(decl, self.config.optimize, self.config.off));
        self.parents.push(parent);
        PointId(id)
    }

    /// The id of a declared point.
    pub fn point_id(&self, name: &str) -> Option<PointId> {
        self.by_name.get(name).map(|&id| PointId(id))
    }

    /// The declaration of a point.
    pub fn decl(&self, PointId(id): PointId) -> Option<&PointDecl> {
        self.points.get(id).map(|p| &p.decl)
    }

    /// The invariants currently instantiated over all points: what the
    /// optimisations save shows here (and in time).
    pub fn live_invariants(&self) -> usize {
        self.points
            .iter()
            .map(|p| p.slices.iter().map(|s| s.invs.len()).sum::<usize>())
            .sum()
    }

    /// Checks one sample: a value (or [`Value::Missing`]) per declared
    /// variable, in declaration order.
    pub fn add_sample(&mut self, PointId(id): PointId, values: &[Value]) -> Result<(), EngineError> {
        let point = self.points.get(id).ok_or(EngineError::UnknownPoint(id))?;
        validate(&point.decl, values)?;
        self.points[id].add(values);
        if let Some(parent) = &self.parents[id] {
            let projected: Vec<Value> = parent
                .projection
                .iter()
                .map(|p| p.map_or(Value::Missing, |i| values[i].clone()))
                .collect();
            self.points[parent.point].add(&projected);
        }
        Ok(())
    }

    /// The invariants of every point. An invariant printed at an aggregate
    /// exit is not repeated at its numbered exits.
    pub fn finish(self) -> Report {
        let mut reports: Vec<_> = self
            .points
            .iter()
            .map(|p| {
                let sets = if self.config.optimize {
                    p.sets()
                } else {
                    naive_sets(p)
                };
                point_report(p, &sets, self.config.conf_limit)
            })
            .collect();
        for (id, parent) in self.parents.iter().enumerate() {
            if let Some(parent) = parent {
                let above: Vec<String> = reports[parent.point]
                    .invariants
                    .iter()
                    .map(|i| i.text.clone())
                    .collect();
                reports[id].invariants.retain(|i| !above.contains(&i.text));
            }
        }
        Report { points: reports }
    }
}

pub(crate) fn validate(decl: &PointDecl, values: &[Value]) -> Result<(), EngineError> {
    if values.len() != decl.vars.len() {
        return Err(EngineError::Arity {
            point: decl.name.clone(),
            expected: decl.vars.len(),
            found: values.len(),
        });
    }
    for (var, value) in decl.vars.iter().zip(values) {
        match value.rep() {
            Some(rep) if rep != var.rep => {
                return Err(EngineError::Rep {
                    point: decl.name.clone(),
                    var: var.name.clone(),
                    expected: var.rep,
                    found: rep,
                });
            }
            _ => {}
        }
    }
    Ok(())
}
