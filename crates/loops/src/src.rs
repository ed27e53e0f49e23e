//! Sufficient recurrence conditions (SRC): a condition S on the state at
//! the loop head such that from every state satisfying S, one path of the
//! body is taken, the loop goes round again, and S holds again. A state
//! satisfying S at the head therefore never leaves the loop.
//!
//! One path at a time first. Over ideal integers, an inductive path
//! (each variable its condition reads steps by a constant) gets the
//! weakest S by path summary and quantifier elimination ([`crate::summary`]).
//! Otherwise, a recurrent set of a single path from candidates:
//! S = C_p ∧ E, where C_p is the path's condition (guard included) and E a
//! conjunction of at most two candidate atoms ([`crate::candidates`]). A
//! candidate is kept when the solver shows S(X) ∧ ¬S(T_p(X))
//! unsatisfiable and S satisfiable. A path that changes none of the
//! variables its condition reads is *stuck*: S = C_p. A path with a finite
//! orbit (shifts, permutations: [`crate::orbit`]) gets its unrolled
//! weakest S instead, unless the candidates' S is the same set. Then
//! recurrent sets of the whole loop, for lassos through several paths.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use weft_smt::{Answer, Query, Solver};

use crate::encode::{Encoder, Semantics, smt_var};
use crate::extract::{Fragment, Path};
use crate::ir::{BinOp, Expr, Vars};

/// A recurrence condition found for a loop.
#[derive(Clone, Debug)]
pub struct Src {
    pub semantics: Semantics,
    /// Which path of the fragment recurs; None: S is a recurrent set of
    /// the whole loop (a lasso through several paths).
    pub path: Option<usize>,
    /// S, over the variables at the loop head.
    pub condition: Expr,
    /// The path changes none of the variables its condition reads.
    pub stuck: bool,
    /// How S was found: [`STUCK`], `INDUCTIVE`, `SHIFTING`,
    /// `PERMUTING`, `ONE_PATH` or `SEVERAL_PATHS`.
    pub method: &'static str,
    /// For a loop analysed at end of file (marked [`EOF_ASSUMPTION`](crate::EOF_ASSUMPTION)): the check to
    /// weave, S and the premise that the input is exhausted.
    pub at_eof: Option<String>,
    /// What else the SRC rests on: the memory cells it reads, the
    /// choices a run that never ends makes ([`choices_needed`]).
    pub notes: Vec<String>,
}

/// S is the condition of a path that changes nothing it reads.
pub const STUCK: &str = "stuck path";
/// S is the weakest condition for an inductive path to be taken forever,
/// by path summary and quantifier elimination (ideal integers).
pub const INDUCTIVE: &str = "inductive path, quantifier elimination";
/// S is a recurrent set of one path, from candidates.
pub const ONE_PATH: &str = "one path";
/// S is a recurrent set of the whole loop, from candidates.
pub const SEVERAL_PATHS: &str = "several paths";
/// S is the guard's polynomial equalities and their finite differences
/// along the body, closed under every path by a ring identity.
pub const POLYNOMIAL: &str = "polynomial invariant of the guard";
/// S is the weakest condition for a shifting path to be taken forever,
/// unrolled until its variables reach their fixpoints (bit-vectors).
pub const SHIFTING: &str = "shifting path, unrolled to the fixpoint";
/// S is the weakest condition for a path permuting variables to be taken
/// forever, unrolled over the permutation's period.
pub const PERMUTING: &str = "permuting path, unrolled over its period";

impl Src {
    /// The condition to check at the loop head, as C: S over the loop's
    /// variables, with the end-of-file premise when there is one.
    /// Over ideal integers, an S that multiplies variables is checked in
    /// `long` within bounds that keep it exact ([`crate::evaluation::exact`]);
    /// one that cannot be is the check `0`, which never fires.
    pub fn c(&self) -> String {
        if let Some(check) = &self.at_eof {
            return check.clone();
        }
        if self.semantics == Semantics::Ideal && self.condition.nonlinear() {
            return crate::evaluation::exact(&self.condition).map_or_else(|| "0".into(), |e| e.to_string());
        }
        self.condition.to_string()
    }

    /// How S was found, and under which assumption.
    pub fn how(&self) -> String {
        let mut how = vec![self.method.to_string()];
        if self.at_eof.is_some() {
            how.push(crate::eof::ASSUMPTION.to_string());
        }
        how.extend(self.notes.iter().cloned());
        how.join(", ")
    }
}

/// What inference found for one loop under one semantics.
#[derive(Clone, Debug)]
pub enum Outcome {
    Found(Src),
    /// Why there is none.
    None(String),
}

/// Candidate combinations tried per path, at most.
pub const MAX_CANDIDATES: usize = 80;

struct Ctx<'a> {
    vars: &'a Vars,
    locals: &'a BTreeSet<String>,
    semantics: Semantics,
    solver: &'a Solver,
    /// The loop multiplies variables ([`Query::polynomial`]).
    polynomial: bool,
    /// The loop's choices ([`Fragment::choices`]) and their types.
    choices: Vec<(String, crate::ir::IntType)>,
    /// The loop's arrays at a variable index ([`Fragment::arrays`]).
    arrays: &'a BTreeMap<String, bool>,
}

impl<'a> Ctx<'a> {
    fn new(fragment: &'a Fragment, semantics: Semantics, solver: &'a Solver) -> Ctx<'a> {
        let polynomial = fragment
            .paths
            .iter()
            .any(|p| p.conds.iter().chain(p.next.values()).any(Expr::nonlinear));
        Ctx {
            vars: &fragment.vars,
            locals: &fragment.locals,
            semantics,
            solver,
            polynomial,
            choices: fragment
                .vars
                .iter()
                .filter(|(v, _)| fragment.choices.contains_key(*v))
                .map(|(v, t)| (v.clone(), *t))
                .collect(),
            arrays: &fragment.arrays,
        }
    }

    /// A query over the loop's variables; with choices, quantified
    /// ([`Ctx::none_of`]), so in no quantifier-free logic.
    fn query(&self) -> Query {
        let logic = if self.choices.is_empty() && self.arrays.is_empty() {
            self.semantics.logic()
        } else {
            None
        };
        let mut q = Query::new(logic);
        q.polynomial = self.polynomial;
        for (v, t) in self.vars {
            let sort = if self.arrays.contains_key(v) {
                self.enc().array_sort(*t)
            } else {
                self.semantics.sort(*t)
            };
            q.declare(&smt_var(v), sort);
        }
        q
    }

    fn enc(&self) -> Encoder<'_> {
        Encoder {
            vars: self.vars,
            semantics: self.semantics,
        }
    }

    /// ¬∃c. term: no value of the choices c makes `term` hold (without
    /// choices, ¬term). The existential is what makes a recurrent set
    /// with choices sound for "a run that never ends exists": from every
    /// state in S some choice keeps the loop in S, so choosing it each
    /// round never leaves S.
    fn none_of(&self, term: String) -> String {
        if self.choices.is_empty() {
            return format!("(not {term})");
        }
        let bound: Vec<String> = self
            .choices
            .iter()
            .map(|(c, t)| format!("({} {})", smt_var(c), self.semantics.sort(*t).smt()))
            .collect();
        format!("(forall ({}) (not {term}))", bound.join(" "))
    }

    /// Whether `e` reads a choice.
    fn reads_choice(&self, e: &Expr) -> bool {
        let mut read = BTreeSet::new();
        e.vars(&mut read);
        self.choices.iter().any(|(c, _)| read.contains(c))
    }

    /// The atoms over the state alone, and over arrays only through
    /// their elements: a recurrent set cannot name a choice, which is
    /// made anew each round, nor compare a whole array as a number.
    fn state_only(&self, atoms: Vec<Expr>) -> Vec<Expr> {
        atoms
            .into_iter()
            .filter(|a| !self.reads_choice(a) && !whole_array(a, self.arrays))
            .collect()
    }

    /// Whether a path reads or writes an array at a variable index.
    fn touches_array(&self, path: &Path) -> bool {
        let mut read = BTreeSet::new();
        for e in path.conds.iter().chain(path.next.values()) {
            e.vars(&mut read);
        }
        self.arrays
            .keys()
            .any(|a| read.contains(a) || path.next.contains_key(a))
    }

    fn all(&self, atoms: &[Expr]) -> Result<String, String> {
        let enc = self.enc();
        let terms = atoms.iter().map(|a| enc.cond(a)).collect::<Result<Vec<_>, _>>()?;
        Ok(if terms.is_empty() {
            "true".into()
        } else {
            format!("(and {})", terms.join(" "))
        })
    }
}

/// Infers an SRC for the loop under `semantics`. Solver errors (not
/// found, rejected) are errors; an unknown answer is a reason. A loop
/// analysed at end of file gets its check ([`Src::at_eof`]), or the
/// reason none can be woven.
pub fn infer(fragment: &Fragment, semantics: Semantics, solver: &Solver) -> Result<Outcome, weft_smt::Error> {
    if let Some(why) = wraps_by_definition(fragment, semantics) {
        return Ok(Outcome::None(why));
    }
    let fragment = &crate::division::safe_paths(fragment);
    let found = match infer_model(fragment, semantics, solver)? {
        Outcome::Found(src) => {
            let notes = notes(&Ctx::new(fragment, semantics, solver), fragment, &src)?;
            let src = Src { notes, ..src };
            let mut condition = crate::division::guarded(src.condition);
            // Over bit-vectors a product means wrapping arithmetic, which
            // C's signed types do not give: the check wraps unsigned.
            if semantics == Semantics::BitVector && condition.nonlinear() {
                condition = crate::evaluation::wrapping(&condition, &fragment.vars);
            }
            Outcome::Found(Src { condition, ..src })
        }
        none => none,
    };
    Ok(match (found, &fragment.eof) {
        (Outcome::Found(src), Some(eof)) => match eof.check(&src.condition) {
            Ok(check) => Outcome::Found(Src {
                at_eof: Some(check),
                ..src
            }),
            Err(why) => Outcome::None(format!("at end of file, {} holds, but {why}", src.condition)),
        },
        (outcome, _) => outcome,
    })
}

/// What an SRC rests on besides the loop's variables: its memory cells,
/// at addresses of their own ([`Fragment::cells`]); with choices, which
/// ones a run that never ends makes: the conditions on them of staying
/// in S along the recurring path, and one example from the solver (a
/// state of S and choices that keep it there), so that a run can aim at
/// them.
fn notes(ctx: &Ctx<'_>, fragment: &Fragment, src: &Src) -> Result<Vec<String>, weft_smt::Error> {
    let mut notes = Vec::new();
    if !fragment.cells.is_empty() {
        let cells: Vec<&str> = fragment.cells.iter().map(String::as_str).collect();
        notes.push(format!(
            "memory cells {} at addresses of their own",
            cells.join(", ")
        ));
    }
    if !fragment.arrays.is_empty() {
        let arrays: Vec<&str> = fragment.arrays.keys().map(String::as_str).collect();
        let mut note = format!("arrays {} at a variable index", arrays.join(", "));
        if fragment.arrays.values().any(|sized| !sized) {
            note = format!("{note}, {}", crate::extract::ARRAYS_ASSUMPTION);
        }
        notes.push(note);
    }
    if ctx.choices.is_empty() {
        return Ok(notes);
    }
    let named: BTreeMap<String, Expr> = fragment
        .choices
        .iter()
        .map(|(c, call)| (c.clone(), Expr::Var(call.replacen("() at ", "()@", 1))))
        .collect();
    let paths: Vec<&Path> = match src.path {
        Some(i) => vec![&fragment.paths[i]],
        None => fragment.paths.iter().collect(),
    };
    let mut needs = Vec::new();
    if let [path] = paths.as_slice() {
        let after = src.condition.subst(&path.transition(ctx.vars));
        for a in path
            .conds
            .iter()
            .chain(std::iter::once(&after))
            .flat_map(Expr::conjuncts)
        {
            let text = a.subst(&named).to_string();
            if ctx.reads_choice(&a) && !needs.contains(&text) {
                needs.push(text);
            }
        }
    }
    let mut q = ctx.query();
    let mut stays = Vec::new();
    for path in &paths {
        let mut both = path.conds.clone();
        both.push(src.condition.subst(&path.transition(ctx.vars)));
        stays.push(ctx.all(&both).unwrap_or_else(|_| "false".into()));
    }
    q.assert(
        ctx.all(std::slice::from_ref(&src.condition))
            .unwrap_or_else(|_| "false".into()),
    );
    q.assert(format!("(or false {})", stays.join(" ")));
    for v in ctx.vars.keys() {
        q.value(smt_var(v));
    }
    if let Answer::Sat(found) = ctx.solver.check(&q)? {
        let value = |v: &String| {
            Some(format!(
                "{} = {}",
                named.get(v).map_or(v.clone(), |n| n.to_string()),
                ctx.vars[v].wrap(found.int(&smt_var(v))?)
            ))
        };
        let (choices, state): (Vec<&String>, Vec<&String>) =
            ctx.vars.keys().partition(|v| named.contains_key(*v));
        let choices: Vec<String> = choices.into_iter().filter_map(value).collect();
        let state: Vec<String> = state.into_iter().filter_map(value).collect();
        needs.push(format!("e.g. {} from {}", choices.join(", "), state.join(", ")));
    }
    notes.push(format!("a run that never ends chooses {}", needs.join("; ")));
    Ok(notes)
}

/// Whether `e` uses an array of `arrays` whole (as a number, stored
/// into, or indexed other than by its name): an atom of a recurrent set
/// reads arrays only as `a[i]`.
fn whole_array(e: &Expr, arrays: &BTreeMap<String, bool>) -> bool {
    match e {
        Expr::Var(v) => arrays.contains_key(v),
        Expr::Const(..) => false,
        Expr::Store(..) => true,
        Expr::Index(a, i, _) => !matches!(**a, Expr::Var(_)) || whole_array(i, arrays),
        Expr::Unary(_, a) | Expr::Cast(_, a) => whole_array(a, arrays),
        Expr::Binary(_, a, b) => whole_array(a, arrays) || whole_array(b, arrays),
        Expr::Cond(c, a, b) => whole_array(c, arrays) || whole_array(a, arrays) || whole_array(b, arrays),
    }
}

/// Under ideal integers, why a loop cannot be judged: one of its variables
/// is unsigned or narrower than `int`, so C defines what happens past its
/// range (it wraps, or is converted back on assignment) and ideal integers,
/// which never wrap, would call a loop endless that the machine ends
/// (`unsigned char c = 250; while (c != 4) c++;`). Bit-vectors model it.
fn wraps_by_definition(fragment: &Fragment, semantics: Semantics) -> Option<String> {
    if semantics != Semantics::Ideal {
        return None;
    }
    let (name, ty) = fragment.vars.iter().find(|(_, t)| !t.signed || t.width < 32)?;
    Some(format!(
        "{name} is {}, which wraps by definition: only bit-vectors model it",
        ty.c_name()
    ))
}

fn infer_model(
    fragment: &Fragment,
    semantics: Semantics,
    solver: &Solver,
) -> Result<Outcome, weft_smt::Error> {
    let ctx = Ctx::new(fragment, semantics, solver);
    let mut reasons = BTreeSet::new();
    if fragment.paths.is_empty() {
        return Ok(Outcome::None("no path goes round again".into()));
    }
    // A polynomial guard's invariants first: they are what such loops
    // need, and the other candidates, nonlinear too, may spend the budget.
    match guard_invariant(&ctx, fragment)? {
        Ok(Some(condition)) => {
            return Ok(Outcome::Found(Src {
                semantics,
                path: None,
                condition,
                stuck: false,
                method: POLYNOMIAL,
                at_eof: None,
                notes: Vec::new(),
            }));
        }
        Ok(None) => {}
        // The solver could not decide the chain that should hold by a
        // ring identity: the other candidates, over the same products,
        // would only spend the budget.
        Err(reason) => return Ok(Outcome::None(reason)),
    }
    for (i, path) in fragment.paths.iter().enumerate() {
        match path_src(&ctx, path)? {
            Ok(Some((condition, method))) => {
                return Ok(Outcome::Found(Src {
                    semantics,
                    path: Some(i),
                    condition,
                    stuck: method == STUCK,
                    method,
                    at_eof: None,
                    notes: Vec::new(),
                }));
            }
            Ok(None) => {}
            Err(reason) => {
                reasons.insert(reason);
            }
        }
    }
    if fragment.paths.len() > 1 {
        match loop_src(&ctx, fragment)? {
            Ok(Some((condition, method))) => {
                return Ok(Outcome::Found(Src {
                    semantics,
                    path: None,
                    condition,
                    stuck: false,
                    method,
                    at_eof: None,
                    notes: Vec::new(),
                }));
            }
            Ok(None) => {}
            Err(reason) => {
                reasons.insert(reason);
            }
        }
    }
    if reasons.is_empty() {
        reasons.insert("no recurrent set among the candidates (no lasso)".to_string());
    }
    Ok(Outcome::None(reasons.into_iter().collect::<Vec<_>>().join("; ")))
}

type PathResult = Result<Option<(Expr, &'static str)>, String>;

fn path_src(ctx: &Ctx<'_>, path: &Path) -> Result<PathResult, weft_smt::Error> {
    let taken: Vec<Expr> = path.conds.iter().flat_map(Expr::conjuncts).collect();
    let base = ctx.state_only(taken.clone());
    // Choices and arrays: no summary or orbit models them.
    let chooses = base.len() < taken.len()
        || path.next.values().any(|e| ctx.reads_choice(e))
        || ctx.touches_array(path);
    let next = path.transition(ctx.vars);
    let mut read = BTreeSet::new();
    for c in &taken {
        c.vars(&mut read);
    }
    if let Some(local) = read.iter().find(|v| ctx.locals.contains(*v)) {
        return Ok(Err(format!(
            "the path reads {local}, declared in the body, before setting it"
        )));
    }
    let stuck = read.iter().all(|v| next[v] == Expr::Var(v.clone()));
    // Feasible at all?
    let mut q = ctx.query();
    match ctx.all(&taken) {
        Ok(t) => q.assert(t),
        Err(e) => return Ok(Err(format!("not expressible in {}: {e}", ctx.semantics.name()))),
    };
    match ctx.solver.check(&q)? {
        Answer::Sat(_) => {}
        Answer::Unsat => return Ok(Ok(None)),
        Answer::Unknown(r) => return Ok(Err(format!("solver {r}"))),
    }
    if ctx.semantics == Semantics::Ideal && !stuck && !chooses {
        match crate::summary::eliminate(path, ctx.vars, ctx.solver) {
            Ok(Some(condition)) => {
                let mut q = ctx.query();
                if let Ok(t) = ctx.all(std::slice::from_ref(&condition)) {
                    q.assert(t);
                    if let Answer::Sat(_) = ctx.solver.check(&q)? {
                        return Ok(Ok(Some((condition, INDUCTIVE))));
                    }
                }
            }
            // The weakest condition is false: the path always ends.
            Ok(None) => return Ok(Ok(None)),
            Err(_) => {}
        }
    }
    let pool = ctx.state_only(crate::candidates::atoms(&taken, &read, &next, ctx.vars));
    let wider = ctx.state_only(crate::candidates::boundaries(&taken));
    let found = search_wider(ctx, &base, &pool, wider, &|s: &[Expr]| {
        recurrence_query(ctx, s, &taken, &next)
    })?;
    let found = found
        .map(|f| f.map(|(condition, level)| (condition, if stuck && level == 0 { STUCK } else { ONE_PATH })));
    if stuck || chooses {
        return Ok(found);
    }
    if ctx.semantics == Semantics::BitVector
        && let Some(summary) = crate::orbit::shifting(path, ctx.vars)
    {
        return orbit(ctx, (summary, SHIFTING), found, &next);
    }
    if let Some(summary) = crate::orbit::permuting(path, ctx.vars) {
        return orbit(ctx, (summary, PERMUTING), found, &next);
    }
    Ok(found)
}

/// A path's orbit summary ([`crate::orbit`]) against what the
/// candidates found: the candidate when it says the same (it is
/// shorter), else the summary, the weakest SRC of the path, once the
/// solver has checked it is a non-empty recurrent set.
fn orbit(
    ctx: &Ctx<'_>,
    (summary, method): (Expr, &'static str),
    found: PathResult,
    next: &BTreeMap<String, Expr>,
) -> Result<PathResult, weft_smt::Error> {
    let encoded = |e: &Expr| ctx.all(std::slice::from_ref(e));
    let (Ok(s), Ok(closure)) = (
        encoded(&summary),
        recurrence_query(ctx, std::slice::from_ref(&summary), &[], next),
    ) else {
        return Ok(found);
    };
    let mut queries = vec![closure];
    let mut nonempty = ctx.query();
    nonempty.assert(s.clone());
    queries.push(nonempty);
    if let Ok(Some((candidate, _))) = &found
        && let Ok(c) = encoded(candidate)
    {
        let mut wider = ctx.query();
        wider.assert(s);
        wider.assert(format!("(not {c})"));
        queries.push(wider);
    }
    Ok(match ctx.solver.check_many(&queries)?.as_slice() {
        [_, _, Answer::Unsat] => found,
        [Answer::Unsat, Answer::Sat(_), ..] => Ok(Some((summary, method))),
        _ => found,
    })
}

/// S = base ∧ (up to two atoms of `pool`), all candidates asked in one
/// solver process, two queries each: `closure(S)` (unsat when S is closed)
/// and S's satisfiability. The candidates that pass at the lowest level
/// (0, 1 or 2 atoms added) are joined by `||`: a union of recurrent sets
/// is one too, and catches more states. Some((S, level)) or None.
fn search(
    ctx: &Ctx<'_>,
    base: &[Expr],
    pool: &[Expr],
    closure: &dyn Fn(&[Expr]) -> Result<Query, String>,
) -> Result<Result<Option<(Expr, usize)>, String>, weft_smt::Error> {
    let mut combos: Vec<Vec<Expr>> = vec![vec![]];
    combos.extend(pool.iter().map(|a| vec![a.clone()]));
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            combos.push(vec![pool[i].clone(), pool[j].clone()]);
        }
    }
    combos.truncate(MAX_CANDIDATES);
    let mut queries = Vec::new();
    let mut sets = Vec::new();
    for extra in combos {
        let mut s = base.to_vec();
        s.extend(extra);
        let closed = match closure(&s) {
            Ok(q) => q,
            Err(e) => return Ok(Err(format!("not expressible in {}: {e}", ctx.semantics.name()))),
        };
        let mut nonempty = ctx.query();
        nonempty.assert(ctx.all(&s).expect("encoded in the closure query"));
        queries.push(closed);
        queries.push(nonempty);
        sets.push(s);
    }
    let answers = ctx.solver.check_many(&queries)?;
    let mut unknown = None;
    let mut level = None;
    let mut found: Vec<Vec<Expr>> = Vec::new();
    for (set, pair) in sets.into_iter().zip(answers.chunks(2)) {
        let extra = set[base.len()..].to_vec();
        if level.is_some_and(|l| l != extra.len()) {
            break;
        }
        match pair {
            [Answer::Unsat, Answer::Sat(_)] if found.len() < MAX_ALTERNATIVES => {
                level = Some(extra.len());
                found.push(extra);
            }
            [Answer::Unknown(r), _] | [Answer::Unsat, Answer::Unknown(r)] => unknown = Some(r.clone()),
            _ => {}
        }
    }
    if let Some(l) = level {
        let found = prune(ctx, base, found)?;
        let mut condition = conjunction(base);
        if l > 0 {
            let alternatives = found
                .iter()
                .map(|extra| conjunction(extra))
                .reduce(|a, b| Expr::bin(BinOp::LOr, a, b));
            condition = Expr::bin(BinOp::LAnd, condition, alternatives.expect("one found"));
        }
        return Ok(Ok(Some((condition, l))));
    }
    Ok(match unknown {
        Some(r) => Err(format!("solver {r}")),
        None => Ok(None),
    })
}

/// [`search`] over `pool`; when no set passes, again with the `wider`
/// atoms ([`crate::candidates::boundaries`]) first, so that their pairs
/// with the first-round atoms come before the combinations are cut.
fn search_wider(
    ctx: &Ctx<'_>,
    base: &[Expr],
    pool: &[Expr],
    wider: Vec<Expr>,
    closure: &dyn Fn(&[Expr]) -> Result<Query, String>,
) -> Result<Result<Option<(Expr, usize)>, String>, weft_smt::Error> {
    let first = search(ctx, base, pool, closure)?;
    if !matches!(first, Ok(None)) || wider.is_empty() {
        return Ok(first);
    }
    let mut second = wider;
    for a in pool {
        if !second.contains(a) {
            second.push(a.clone());
        }
    }
    search(ctx, base, &second, closure)
}

/// The alternatives no other one contains, given `base`: `x == 0` goes
/// when `x <= 0` passed too. Of two equivalent ones, the first stays.
fn prune(ctx: &Ctx<'_>, base: &[Expr], found: Vec<Vec<Expr>>) -> Result<Vec<Vec<Expr>>, weft_smt::Error> {
    let n = found.len();
    if n < 2 {
        return Ok(found);
    }
    let encoded = |atoms: &[Expr]| ctx.all(atoms).expect("encoded in the closure query");
    let mut queries = Vec::new();
    for i in 0..n {
        for j in 0..n {
            // i ⊆ j when base ∧ i ∧ ¬j is unsatisfiable.
            let mut q = ctx.query();
            q.assert(encoded(&[base, &found[i][..]].concat()));
            q.assert(format!("(not {})", encoded(&found[j])));
            queries.push(q);
        }
    }
    let answers = ctx.solver.check_many(&queries)?;
    let within = |i: usize, j: usize| i != j && answers[i * n + j] == Answer::Unsat;
    let mut kept: Vec<usize> = Vec::new();
    for i in 0..n {
        if kept.iter().any(|&k| within(i, k)) {
            continue;
        }
        kept.retain(|&k| !within(k, i));
        kept.push(i);
    }
    Ok(kept.into_iter().map(|i| found[i].clone()).collect())
}

/// A recurrent set of the whole loop, for lassos through several paths:
/// S = (the conjuncts every path's condition shares: the guard) ∧ up to
/// two atoms drawn from all paths, closed when from every state in S some
/// path is taken and leads back into S (the check of [`verify`]).
fn loop_src(ctx: &Ctx<'_>, fragment: &Fragment) -> Result<PathResult, weft_smt::Error> {
    let conjuncts: Vec<Vec<Expr>> = fragment
        .paths
        .iter()
        .map(|p| p.conds.iter().flat_map(Expr::conjuncts).collect())
        .collect();
    let base = ctx.state_only(shared_guard(fragment));
    let mut pool: Vec<Expr> = Vec::new();
    for (path, atoms) in fragment.paths.iter().zip(&conjuncts) {
        let next = path.transition(ctx.vars);
        let mut read = BTreeSet::new();
        for c in atoms {
            c.vars(&mut read);
        }
        if read.iter().any(|v| ctx.locals.contains(v)) {
            continue;
        }
        let own = atoms.iter().filter(|a| !base.contains(a)).cloned();
        let atoms = ctx.state_only(
            own.chain(crate::candidates::atoms(atoms, &read, &next, ctx.vars))
                .collect(),
        );
        for a in atoms {
            if !pool.contains(&a) && !base.contains(&a) {
                pool.push(a);
            }
        }
    }
    let mut wider: Vec<Expr> = Vec::new();
    for atoms in &conjuncts {
        for a in ctx.state_only(crate::candidates::boundaries(atoms)) {
            if !wider.contains(&a) && !base.contains(&a) {
                wider.push(a);
            }
        }
    }
    let found = search_wider(ctx, &base, &pool, wider, &|s: &[Expr]| {
        let condition = conjunction(s);
        let mut q = ctx.query();
        q.assert(ctx.all(std::slice::from_ref(&condition))?);
        q.assert(ctx.none_of(whole_loop(ctx, fragment, &condition)?));
        Ok(q)
    })?;
    Ok(found.map(|f| f.map(|(condition, _)| (condition, SEVERAL_PATHS))))
}

/// Finite differences followed per equality of the guard, at most.
pub const MAX_DIFFERENCES: usize = 4;

/// For a loop whose guard (the conjuncts every path's condition shares)
/// holds a nonlinear polynomial equality p == 0: S = the guard ∧ p1 == 0
/// ∧ … ∧ pk == 0, p1, p2, … being p's finite differences along the first
/// path, when they end ([`crate::poly::differences`]), checked as a
/// recurrent set of the whole loop. `ps2`'s
/// `y*y - 2*x + y == 0` is kept by `y++; x += y` as is (k = 0);
/// `y == 3*n*n + 3*n + 1` under `n++; y += z; z += 6` needs
/// `z - 6*n - 6 == 0` (k = 1).
fn guard_invariant(
    ctx: &Ctx<'_>,
    fragment: &Fragment,
) -> Result<Result<Option<Expr>, String>, weft_smt::Error> {
    let base = ctx.state_only(shared_guard(fragment));
    let equalities = crate::poly::equalities(&base, ctx.vars);
    if equalities.is_empty() {
        return Ok(Ok(None));
    }
    let next = fragment.paths[0].transition(ctx.vars);
    let mut sets: Vec<Vec<Expr>> = Vec::new();
    for (p, ty) in &equalities {
        let Some(chain) = crate::poly::differences(p, *ty, &next, ctx.vars, MAX_DIFFERENCES) else {
            continue;
        };
        let mut s = base.clone();
        s.extend(
            chain
                .iter()
                .map(|d| Expr::bin(BinOp::Eq, d.expr(*ty), Expr::Const(0, *ty))),
        );
        if !sets.contains(&s) && !s.iter().any(|a| ctx.reads_choice(a)) {
            sets.push(s);
        }
    }
    let mut queries = Vec::new();
    for s in &sets {
        let condition = conjunction(s);
        let encoded = match ctx.all(std::slice::from_ref(&condition)) {
            Ok(t) => t,
            Err(e) => return Ok(Err(format!("not expressible in {}: {e}", ctx.semantics.name()))),
        };
        let mut closed = ctx.query();
        closed.assert(encoded.clone());
        match whole_loop(ctx, fragment, &condition) {
            Ok(w) => closed.assert(ctx.none_of(w)),
            Err(e) => return Ok(Err(format!("not expressible in {}: {e}", ctx.semantics.name()))),
        };
        let mut nonempty = ctx.query();
        nonempty.assert(encoded);
        queries.push(closed);
        queries.push(nonempty);
    }
    let answers = ctx.solver.check_many(&queries)?;
    let mut unknown = None;
    for (s, pair) in sets.iter().zip(answers.chunks(2)) {
        match pair {
            [Answer::Unsat, Answer::Sat(_)] => return Ok(Ok(Some(conjunction(s)))),
            [Answer::Unknown(r), _] | [Answer::Unsat, Answer::Unknown(r)] => unknown = Some(r.clone()),
            _ => {}
        }
    }
    Ok(match unknown {
        Some(r) => Err(format!("polynomial invariant of the guard: solver {r}")),
        None => Ok(None),
    })
}

/// The conjuncts every path's condition shares: the guard.
fn shared_guard(fragment: &Fragment) -> Vec<Expr> {
    let conjuncts: Vec<Vec<Expr>> = fragment
        .paths
        .iter()
        .map(|p| p.conds.iter().flat_map(Expr::conjuncts).collect())
        .collect();
    conjuncts[0]
        .iter()
        .filter(|a| conjuncts.iter().all(|c| c.contains(a)))
        .cloned()
        .collect()
}

/// ∨_p (C_p(X) ∧ S(T_p(X))): some path is taken and leads back into S.
fn whole_loop(ctx: &Ctx<'_>, fragment: &Fragment, condition: &Expr) -> Result<String, String> {
    let mut disjuncts = Vec::new();
    for path in &fragment.paths {
        let next = path.transition(&fragment.vars);
        let mut both: Vec<Expr> = path.conds.clone();
        both.push(condition.subst(&next));
        disjuncts.push(ctx.all(&both)?);
    }
    Ok(format!("(or false {})", disjuncts.join(" ")))
}

/// Alternatives joined into one SRC, at most.
pub const MAX_ALTERNATIVES: usize = 4;

fn conjunction(atoms: &[Expr]) -> Expr {
    atoms
        .iter()
        .cloned()
        .reduce(|a, b| Expr::bin(BinOp::LAnd, a, b))
        .unwrap_or_else(|| Expr::int(1))
}

/// S(X) ∧ ¬S(T(X)): unsat means S is closed under the path. With
/// choices, S(X) ∧ ¬∃c. C_p(X, c) ∧ S(T(X, c)), `taken` being C_p's
/// conjuncts (without choices S holds C_p itself).
fn recurrence_query(
    ctx: &Ctx<'_>,
    s: &[Expr],
    taken: &[Expr],
    next: &BTreeMap<String, Expr>,
) -> Result<Query, String> {
    let mut after: Vec<Expr> = if ctx.choices.is_empty() {
        Vec::new()
    } else {
        taken.to_vec()
    };
    after.extend(s.iter().map(|a| a.subst(next)));
    let mut q = ctx.query();
    q.assert(ctx.all(s)?);
    q.assert(ctx.none_of(ctx.all(&after)?));
    Ok(q)
}

/// Re-checks an SRC against the whole loop, independently of how it was
/// found: S is satisfiable, and from every state satisfying S some
/// continuing path is taken and leads back into S:
/// S(X) → ∨_p (C_p(X) ∧ S(T_p(X))) is valid. Paths are disjoint, so this
/// is exactly "one body iteration stays in the loop and S holds again".
pub fn verify(fragment: &Fragment, src: &Src, solver: &Solver) -> Result<bool, String> {
    let fragment = &crate::division::safe_paths(fragment);
    let ctx = Ctx::new(fragment, src.semantics, solver);
    let s = ctx.all(std::slice::from_ref(&src.condition))?;
    let mut q = ctx.query();
    q.assert(s.clone());
    match solver.check(&q).map_err(|e| e.to_string())? {
        Answer::Sat(_) => {}
        other => return Err(format!("S is not satisfiable: {other:?}")),
    }
    let mut q = ctx.query();
    q.assert(s);
    q.assert(ctx.none_of(whole_loop(&ctx, fragment, &src.condition)?));
    Ok(solver.check(&q).map_err(|e| e.to_string())? == Answer::Unsat)
}

/// A model of `src` with the loop's entry: values of the loop's variables
/// at its head that satisfy S and the `entry` facts (variables known to
/// hold a constant when the loop is entered); None when there is none.
/// Bit-vector values are read at their type's signedness.
pub fn model(
    fragment: &Fragment,
    src: &Src,
    entry: &BTreeMap<String, i128>,
    solver: &Solver,
) -> Result<Option<BTreeMap<String, i128>>, String> {
    let ctx = Ctx::new(fragment, src.semantics, solver);
    let facts: Vec<Expr> = entry
        .iter()
        .filter(|(v, _)| fragment.vars.contains_key(*v))
        .map(|(v, k)| Expr::bin(BinOp::Eq, Expr::Var(v.clone()), Expr::int(*k)))
        .chain(std::iter::once(src.condition.clone()))
        .collect();
    let mut q = ctx.query();
    q.assert(ctx.all(&facts)?);
    let state = || {
        fragment
            .vars
            .iter()
            .filter(|(v, _)| !fragment.choices.contains_key(*v) && !fragment.arrays.contains_key(*v))
    };
    for (v, _) in state() {
        q.value(smt_var(v));
    }
    let Answer::Sat(found) = solver.check(&q).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    Ok(Some(
        state()
            .filter_map(|(v, t)| Some((v.clone(), t.wrap(found.int(&smt_var(v))?))))
            .collect(),
    ))
}

/// An SRC found and re-verified, as the C text to check with how it was
/// found ([`STUCK`], …, and the assumption: [`Src::how`]); or why there is
/// none.
pub type Verdict = Result<(String, String), String>;

/// [`infer`], then [`verify`]: the SRC only when the solver re-checks it
/// against the whole loop. Solver errors (not found, rejected) are errors.
pub fn find(fragment: &Fragment, semantics: Semantics, solver: &Solver) -> Result<Verdict, weft_smt::Error> {
    Ok(match infer(fragment, semantics, solver)? {
        Outcome::Found(src) => match verify(fragment, &src, solver) {
            Ok(true) => Ok((src.c(), src.how())),
            Ok(false) => Err(format!("candidate {} failed re-verification", src.c())),
            Err(e) => Err(format!("re-verification: {e}")),
        },
        Outcome::None(why) if solver.spent() => Err(format!("{}: {why}", weft_smt::BUDGET_SPENT)),
        Outcome::None(why) => Err(why),
    })
}

/// The time one loop's analysis may take, over all its solver queries
/// (each also bounded by the solver's timeout), unless told otherwise: one
/// nonlinear loop took minutes without it. Hitting it is reported as the
/// loop's reason.
pub const LOOP_BUDGET: Duration = Duration::from_secs(30);

/// The condition under which a loop never ends unless a signed integer
/// overflows: its SRC over ideal integers, when bit-vectors gave none.
/// From a state satisfying it the loop never ends over mathematical
/// integers; ideal integers admit only signed types at least as wide as
/// `int` (unsigned and narrow ones wrap or convert by definition), so the
/// machine's run agrees with the ideal one until a signed operation
/// overflows: it either never ends or overflows first, which is undefined
/// behaviour and a finding of its own.
pub fn only_overflow_ends(results: &[(Semantics, Verdict)]) -> Option<&str> {
    let of = |s: Semantics| results.iter().find(|(t, _)| *t == s).map(|(_, v)| v);
    match (of(Semantics::Ideal), of(Semantics::BitVector)) {
        (Some(Ok((src, _))), Some(Err(_))) => Some(src),
        _ => None,
    }
}
