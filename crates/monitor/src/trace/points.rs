//! A trace as the likely-invariant engine sees it: program points named
//! Daikon's way (`f():::ENTER`, `f():::EXIT12` for the exit at line 12,
//! `f():::POINT14` for a point inside `f` at line 14),
//! values as engine values, and at each exit `orig(x)`, the value a
//! variable had at the entry of the same invocation (paired by nonce).

use std::collections::HashMap;

use weft_invariants::{PointDecl as EnginePoint, PointKind as EngineKind, Rep, Value, VarDecl as EngineVar};

use super::record::Sample;
use super::spec::{Layout, PointDecl, PointKind, VarDecl, VarKind};

/// One trace file's points as the engine's. A function's points are named
/// after its unit and itself, `util.c.updcrc():::ENTER`, as Daikon names
/// C's file-static functions: the name is the same in every run, and two
/// `static` functions of one name in two units stay apart.
pub struct FileView {
    /// Per trace point: its engine declaration.
    pub points: Vec<EnginePoint>,
    /// Per trace point: for an exit, the index of its function's entry
    /// (none without `orig(x)`).
    entries: Vec<Option<usize>>,
    /// Per trace point: its kind, and how many variables it records.
    kinds: Vec<(PointKind, usize)>,
    /// Whether exits get `orig(x)`: entries' values are kept until then.
    orig: bool,
}

impl FileView {
    /// The view of the points `unit` declares, with `orig(x)` at exits.
    pub fn new(unit: &str, points: &[PointDecl]) -> FileView {
        FileView::with_orig(unit, points, true)
    }

    /// The view without `orig(x)`, for Daikon, which derives it from the
    /// entry with the exit's nonce (`this_invocation_nonce`).
    pub fn for_daikon(unit: &str, points: &[PointDecl]) -> FileView {
        FileView::with_orig(unit, points, false)
    }

    fn with_orig(unit: &str, decls: &[PointDecl], orig: bool) -> FileView {
        let entry_of = |function: &str| {
            decls
                .iter()
                .position(|p| p.function == function && p.kind == PointKind::Enter)
        };
        let mut points = Vec::new();
        let mut entries = Vec::new();
        for point in decls {
            let base = format!("{unit}.{}()", point.function);
            let mut vars = engine_vars(point);
            let (name, kind, entry) = match point.kind {
                PointKind::Enter => (format!("{base}:::ENTER"), EngineKind::Enter, None),
                // Daikon's `ppt-type point`, named by its line as exits are.
                PointKind::Inner => (format!("{base}:::POINT{}", point.line), EngineKind::Point, None),
                PointKind::Exit => (
                    format!("{base}:::EXIT{}", point.line),
                    EngineKind::Exit,
                    entry_of(&point.function).filter(|_| orig),
                ),
            };
            if let Some(e) = entry {
                vars.extend(engine_vars(&decls[e]).into_iter().map(|mut v| {
                    v.name = format!("orig({})", v.name);
                    v
                }));
            }
            points.push(EnginePoint {
                name,
                function: base,
                kind,
                vars,
            });
            entries.push(entry);
        }
        FileView {
            points,
            entries,
            kinds: decls.iter().map(|p| (p.kind, p.vars.len())).collect(),
            orig,
        }
    }

    /// Calls `sink(point, nonce, values)` for every sample of `samples`
    /// (read from the file this view was made from, or already in memory),
    /// in order; the first error reading them ends the replay. An exit gets its invocation's
    /// entry values as `orig(..)`, missing when the entry was not recorded.
    pub fn replay<E>(
        &self,
        samples: impl IntoIterator<Item = Result<Sample, E>>,
        mut sink: impl FnMut(usize, u64, &[Value]),
    ) -> Result<(), E> {
        let mut open: HashMap<u64, Vec<Value>> = HashMap::new();
        for sample in samples {
            let Sample {
                point,
                nonce,
                mut values,
            } = sample?;
            match (self.kinds[point].0, self.entries[point]) {
                (PointKind::Enter, _) if self.orig => {
                    open.insert(nonce, values.clone());
                }
                (PointKind::Exit, Some(entry)) => match open.remove(&nonce) {
                    Some(orig) => values.extend(orig),
                    None => values.extend(std::iter::repeat_n(Value::Missing, self.kinds[entry].1)),
                },
                _ => {}
            }
            sink(point, nonce, &values);
        }
        Ok(())
    }
}

fn engine_vars(point: &PointDecl) -> Vec<EngineVar> {
    point
        .vars
        .iter()
        .map(|v| {
            // An array reads `a[]`, so that its entry value is `orig(a[])`.
            let name = match v.layout {
                Layout::Seq => format!("{}[]", v.name),
                _ => v.name.clone(),
            };
            EngineVar::new(name, rep(v))
        })
        .collect()
}

/// How the engine represents a variable: arrays' elements are integers
/// (addresses too, by their bits) or floats.
fn rep(var: &VarDecl) -> Rep {
    match (var.layout, var.kind) {
        (Layout::Str, _) => Rep::Str,
        (Layout::Seq, VarKind::F64) => Rep::FloatSeq,
        (Layout::Seq, _) => Rep::IntSeq,
        (_, VarKind::I64 | VarKind::U64) => Rep::Int,
        (_, VarKind::F64) => Rep::Float,
        (_, VarKind::Pointer) => Rep::Pointer,
    }
}
