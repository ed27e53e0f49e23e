//! From a C file's tree to loops of the integer fragment: their
//! variables, guard and paths, or the reason a loop is outside.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use weft_c::library::OUTPUT_ONLY;
use weft_c::sema::{DeclKind, Declaration, Semantics, TypeKind};

use crate::eof::Eof;
use crate::ir::{BinOp, Expr, INT, IntType, UnOp, Vars};

/// The integer type of a declared variable, or what it is instead.
fn declared_int(d: &Declaration) -> R<IntType> {
    match d.kind {
        DeclKind::Variable | DeclKind::Parameter => {}
        DeclKind::EnumConstant => return Err("an enumeration constant".into()),
        DeclKind::Function => return Err("a function".into()),
        DeclKind::Typedef => return Err("a type name".into()),
        DeclKind::Field => return Err("a structure member".into()),
    }
    if d.ty.is_volatile {
        return Err("volatile (it may change outside the loop)".into());
    }
    let written = || d.written.split_whitespace().collect::<Vec<_>>().join(" ");
    match &d.ty.kind {
        TypeKind::Integer(name) => IntType::from_name(name).ok_or_else(|| format!("of type {}", written())),
        TypeKind::Floating(_) => Err("float".into()),
        TypeKind::Bool => Err("_Bool".into()),
        TypeKind::Enum(_) => Err("an enum".into()),
        TypeKind::Pointer(_) => Err("a pointer".into()),
        TypeKind::Array(_) => Err("an array".into()),
        TypeKind::Struct { .. } => Err("a structure".into()),
        TypeKind::Unknown => Err(format!("of type {}, which weft cannot resolve", written())),
        _ => Err(format!("of type {}, not a C integer type", written())),
    }
}

/// One path through the loop body that goes round again: the condition
/// under which it is taken and the values it leaves, both over the state
/// at the loop head (the guard is part of the condition).
#[derive(Clone, Debug)]
pub struct Path {
    pub conds: Vec<Expr>,
    /// Each variable's value at the end of the path; absent means unchanged.
    pub next: BTreeMap<String, Expr>,
}

impl Path {
    /// The value of every variable after the path, as a substitution.
    pub fn transition(&self, vars: &Vars) -> BTreeMap<String, Expr> {
        vars.keys()
            .map(|v| {
                (
                    v.clone(),
                    self.next.get(v).cloned().unwrap_or_else(|| Expr::Var(v.clone())),
                )
            })
            .collect()
    }
}

/// A loop of the integer fragment.
#[derive(Clone, Debug)]
pub struct Fragment {
    pub vars: Vars,
    /// The loop's own condition as C text (`1` for none).
    pub guard: String,
    /// The paths that go round again.
    pub paths: Vec<Path>,
    /// How many paths leave the loop (guard false, break, return).
    pub exits: usize,
    /// Variables declared inside the body: not part of the state at the
    /// loop head.
    pub locals: BTreeSet<String>,
    /// Some: the loop calls input functions, each replaced by what it
    /// returns at end of file; what the woven check must ask besides the
    /// SRC (the end-of-file rule, [`EOF_ASSUMPTION`](crate::EOF_ASSUMPTION)).
    pub eof: Option<Eof>,
    /// The `__VERIFIER_nondet_X()` calls of the loop: the variable
    /// standing for each (`?LINE.COLUMN`, also in `vars`) and the call as
    /// written, with where it is ([`choices`](self::choices)).
    pub choices: BTreeMap<String, String>,
    /// The memory cells in `vars` (`*p`, `a[2]`), each at an address of its
    /// own ([`cells`](self::cells)).
    pub cells: BTreeSet<String>,
    /// The arrays in `vars` read or written at a variable index, each
    /// typed by its element ([`arrays`](self::arrays)), and whether its
    /// size is known (every element read is then within it).
    pub arrays: BTreeMap<String, bool>,
}

impl Fragment {
    /// Why an SRC of this loop is not woven as a check, if it is not:
    /// a check cannot make the choices a hang needs, and could read an
    /// element of an array of unknown size out of bounds.
    pub fn unwoven(&self) -> Option<String> {
        let list = |names: Vec<&String>| names.into_iter().cloned().collect::<Vec<_>>().join(", ");
        if !self.choices.is_empty() {
            return Some(format!(
                "its SRC would need choices of {}, which a check cannot make",
                list(self.choices.values().collect())
            ));
        }
        let unknown_size: Vec<&String> = self
            .arrays
            .iter()
            .filter(|(_, sized)| !**sized)
            .map(|(a, _)| a)
            .collect();
        (!unknown_size.is_empty()).then(|| {
            format!(
                "its SRC reads elements of {} at a variable index, which a check could read out of bounds",
                list(unknown_size)
            )
        })
    }
}

/// At most this many paths are followed through one body.
pub const MAX_PATHS: usize = 64;

type R<T> = Result<T, String>;

/// Declared names in scope of a loop: name → type, or why it is not an
/// integer scalar.
pub struct Scope {
    decls: Vec<(String, usize, Result<IntType, String>)>,
}

impl Scope {
    /// The declarations of the function holding `node` (parameters and
    /// locals) and of the file.
    pub fn of(node: Node<'_>, text: &str) -> Scope {
        let mut decls = Vec::new();
        let mut top = node;
        let mut function = None;
        while let Some(p) = top.parent() {
            if p.kind() == "function_definition" {
                function = Some(p);
            }
            top = p;
        }
        // File scope: top-level declarations only.
        let mut cursor = top.walk();
        for child in top.named_children(&mut cursor) {
            if child.kind() == "declaration" {
                declaration(child, text, &mut decls, 0);
            }
        }
        if let Some(f) = function {
            collect(f, text, &mut decls, node.start_byte());
        }
        Scope { decls }
    }

    fn lookup(&self, name: &str, at: usize) -> Option<&Result<IntType, String>> {
        self.decls
            .iter()
            .filter(|(n, start, _)| n == name && (*start <= at || *start == 0))
            .max_by_key(|(_, start, _)| *start)
            .map(|(_, _, t)| t)
    }
}

/// The parameters of a function, and its local declarations whose block
/// holds the loop at `loop_at` (a block closed before the loop declares
/// other variables).
fn collect(
    node: Node<'_>,
    text: &str,
    out: &mut Vec<(String, usize, Result<IntType, String>)>,
    loop_at: usize,
) {
    match node.kind() {
        "parameter_declaration" => return declaration(node, text, out, node.start_byte().max(1)),
        "declaration" => {
            if node.parent().is_some_and(|p| p.byte_range().contains(&loop_at)) {
                declaration(node, text, out, node.start_byte().max(1));
            }
            return;
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        collect(child, text, out, loop_at);
    }
}

fn declaration(
    node: Node<'_>,
    text: &str,
    out: &mut Vec<(String, usize, Result<IntType, String>)>,
    at: usize,
) {
    let Some(ty) = node.child_by_field_name("type") else {
        return;
    };
    let type_text = &text[ty.byte_range()];
    let mut qualifiers = String::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.kind() == "type_qualifier" {
            qualifiers.push_str(&text[child.byte_range()]);
            qualifiers.push(' ');
        }
    }
    let base = IntType::from_name(&format!("{qualifiers}{type_text}"));
    let volatile = qualifiers.contains("volatile") || type_text.contains("volatile");
    let mut cursor = node.walk();
    for d in node.children_by_field_name("declarator", &mut cursor) {
        let mut d = d;
        if d.kind() == "init_declarator" {
            match d.child_by_field_name("declarator") {
                Some(inner) => d = inner,
                None => continue,
            }
        }
        let (name, t) = match d.kind() {
            "identifier" => (
                &text[d.byte_range()],
                base.ok_or_else(|| {
                    let t = type_text.split_whitespace().collect::<Vec<_>>().join(" ");
                    if matches!(t.as_str(), "float" | "double" | "long double") {
                        "float".to_string()
                    } else {
                        format!("type {t}, not a C integer type")
                    }
                }),
            ),
            "pointer_declarator" | "array_declarator" | "function_declarator" => {
                let what = match d.kind() {
                    "pointer_declarator" => "a pointer",
                    "array_declarator" => "an array",
                    _ => "a function",
                };
                match innermost_identifier(d) {
                    Some(id) => (&text[id.byte_range()], Err(what.to_string())),
                    None => continue,
                }
            }
            _ => continue,
        };
        let t = if volatile {
            Err("volatile (it may change outside the loop)".to_string())
        } else {
            t
        };
        out.push((name.to_string(), at, t));
    }
}

fn innermost_identifier(mut d: Node<'_>) -> Option<Node<'_>> {
    loop {
        if d.kind() == "identifier" {
            return Some(d);
        }
        d = d.child_by_field_name("declarator")?;
    }
}

/// Reads one loop (a `while_statement`, `for_statement` or `do_statement`).
pub fn fragment(node: Node<'_>, text: &str) -> R<Fragment> {
    fragment_in(node, text, None)
}

/// [`fragment`], resolving names with `weft-c`'s semantics of the file
/// (`sema`, file index): scopes as C has them, typedefs, and the project
/// headers the file includes. Without it, names resolve to declarations
/// in the file only.
pub fn fragment_in(node: Node<'_>, text: &str, sema: Option<(&Semantics, usize)>) -> R<Fragment> {
    if node.has_error() {
        return Err("not parsed".into());
    }
    let plain = extract(node, text, sema, false);
    match plain {
        // A loop with input calls: judged at end of file when the model
        // covers it, else it keeps the reason of the plain extraction.
        Err(why) if crate::eof::mentions_input(&text[node.byte_range()]) => {
            extract(node, text, sema, true).map_err(|_| why)
        }
        other => other,
    }
}

/// One extraction; with `eof`, input calls are their end-of-file values
/// and a loop without one is refused.
fn extract(node: Node<'_>, text: &str, sema: Option<(&Semantics, usize)>, eof: bool) -> R<Fragment> {
    let scope = Scope::of(node, text);
    // Names are looked up where the body starts: a `for` loop's own
    // declarations are visible there, the body's are not yet.
    let at = node
        .child_by_field_name("body")
        .map_or(node.start_byte(), |b| b.start_byte());
    let mut x = Extractor::new(text, sema, &scope, at);
    x.inner_labels = jumps::labels_in(&[node], text);
    x.eof = eof.then(|| Eof {
        do_loop: node.kind() == "do_statement",
        ..Eof::default()
    });
    if node.kind() != "do_statement" {
        x.guard_cells = cells::surely_read(text, node);
    }
    let body = node.child_by_field_name("body").ok_or("no body")?;
    let cond_node = node.child_by_field_name("condition");
    let guard = match cond_node {
        // The bounds of the elements it reads come first: the condition's
        // conjuncts, and so an SRC's, read no element out of bounds.
        Some(c) => Some(
            x.test(c)
                .map(|(g, effects)| (arrays::within_all(x.take_bounds(), g), effects))?,
        ),
        None => None,
    };
    if let (Some(e), Some((_, effects))) = (&mut x.eof, &guard) {
        for effect in effects {
            e.guard_assigned.push((effect.var.clone(), effect.value.clone()));
            if effect.read {
                e.guard_read.insert(effect.var.clone());
            }
        }
    }
    let guard_text = cond_node
        .map(|c| strip_parens(&text[c.byte_range()]))
        .unwrap_or("1")
        .to_string();
    let mut paths = vec![Partial::start()];
    let do_loop = node.kind() == "do_statement";
    if !do_loop && let Some((g, effects)) = &guard {
        paths = x.branch(paths, g, effects)?;
    }
    paths = x.stmt(body, paths)?;
    if node.kind() == "for_statement"
        && let Some(update) = node.child_by_field_name("update")
    {
        let mut next = Vec::new();
        for p in paths {
            if p.end == Some(End::Exit) {
                next.push(p);
            } else {
                next.extend(x.effect(update, Partial { end: None, ..p })?);
            }
        }
        paths = next;
    }
    if do_loop && let Some((g, effects)) = &guard {
        let (exits, going): (Vec<_>, Vec<_>) = paths.into_iter().partition(|p| p.end == Some(End::Exit));
        paths = exits;
        paths.extend(x.branch(
            going.into_iter().map(|p| Partial { end: None, ..p }).collect(),
            g,
            effects,
        )?);
    }
    x.finish(node, guard_text, paths)
}

impl Extractor<'_> {
    /// The fragment of the loop `lp` whose body's paths are `paths`
    /// (those ending in [`End::Exit`] leave it, the others go round).
    fn finish(mut self, lp: Node<'_>, guard: String, paths: Vec<Partial>) -> R<Fragment> {
        let exits = paths.iter().filter(|p| p.end == Some(End::Exit)).count();
        self.apart(lp)?;
        let eof = match self.eof.take() {
            Some(e) => Some(self.finish_eof(e, &paths)?),
            None => None,
        };
        let paths = paths
            .into_iter()
            .filter(|p| p.end != Some(End::Exit))
            .map(|p| Path {
                conds: p.conds,
                next: p
                    .state
                    .into_iter()
                    .filter(|(v, e)| *e != Expr::Var(v.clone()))
                    .collect(),
            })
            .collect();
        Ok(Fragment {
            vars: self.vars,
            guard,
            paths,
            exits,
            locals: self.locals,
            eof,
            choices: self.choices,
            cells: self.cells.into_keys().collect(),
            arrays: self
                .arrays
                .into_iter()
                .map(|(a, array)| (a, array.size.is_some()))
                .collect(),
        })
    }
}

fn strip_parens(s: &str) -> &str {
    let t = s.trim();
    if t.starts_with('(') && t.ends_with(')') {
        &t[1..t.len() - 1]
    } else {
        t
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Exit,
    Continue,
}

#[derive(Clone, Debug)]
struct Partial {
    conds: Vec<Expr>,
    state: BTreeMap<String, Expr>,
    end: Option<End>,
    /// Variables whose value was last assigned from `read()` on this path.
    recorded: BTreeSet<String>,
}

/// An assignment made inside a condition (`(c = getc(f)) != EOF`), only
/// from an input call.
#[derive(Clone, Debug)]
pub(crate) struct Effect {
    pub var: String,
    pub value: Expr,
    /// The call is `read()`, and the variable keeps a 0 result exactly.
    pub read: bool,
}

impl Partial {
    /// The path at the loop head: no condition yet, nothing changed.
    fn start() -> Partial {
        Partial {
            conds: Vec::new(),
            state: BTreeMap::new(),
            end: None,
            recorded: BTreeSet::new(),
        }
    }

    fn value(&self, e: &Expr) -> Expr {
        e.subst(&self.state)
    }
}

struct Extractor<'a> {
    text: &'a str,
    sema: Option<(&'a Semantics, usize)>,
    scope: &'a Scope,
    at: usize,
    vars: Vars,
    locals: BTreeSet<String>,
    /// Some while extracting under the end-of-file model.
    eof: Option<Eof>,
    /// Some while reading a condition that may assign from input calls.
    effects: Option<Vec<Effect>>,
    /// Depth inside operands evaluated only sometimes (`&&`, `||`, `?:`).
    conditional: usize,
    /// Input calls modelled.
    calls: usize,
    /// The memory cells read or written so far.
    cells: BTreeMap<String, cells::Cell>,
    /// The cells the loop's condition reads on every evaluation.
    guard_cells: Vec<String>,
    /// The choices made so far: variable → call ([`Fragment::choices`]).
    choices: BTreeMap<String, String>,
    /// The arrays at a variable index so far.
    arrays: BTreeMap<String, arrays::Array>,
    /// `0 <= i` and `i < N` for each element `a[i]` of an array of size
    /// N read since they were last taken ([`arrays`](self::arrays)).
    bounds: Vec<Expr>,
    /// The head's label of a goto loop: a `goto` to it goes round
    /// ([`jumps`](self::jumps)).
    head: Option<String>,
    /// The labels inside the loop: a `goto` to one jumps within it.
    inner_labels: BTreeSet<String>,
}

impl<'a> Extractor<'a> {
    /// An extractor of a loop of `text` whose names are looked up at `at`,
    /// with nothing read yet.
    fn new(text: &'a str, sema: Option<(&'a Semantics, usize)>, scope: &'a Scope, at: usize) -> Self {
        Extractor {
            text,
            sema,
            scope,
            at,
            vars: Vars::new(),
            locals: BTreeSet::new(),
            eof: None,
            effects: None,
            conditional: 0,
            calls: 0,
            cells: BTreeMap::new(),
            guard_cells: Vec::new(),
            choices: BTreeMap::new(),
            arrays: BTreeMap::new(),
            bounds: Vec::new(),
            head: None,
            inner_labels: BTreeSet::new(),
        }
    }
}

impl Extractor<'_> {
    fn src(&self, n: Node<'_>) -> &str {
        &self.text[n.byte_range()]
    }

    /// Splits each live path on a condition, whose `effects` both sides
    /// take; only the true side continues.
    fn branch(&self, paths: Vec<Partial>, cond: &Expr, effects: &[Effect]) -> R<Vec<Partial>> {
        Ok(self
            .split(paths, cond, effects)?
            .into_iter()
            .flat_map(|(yes, no)| [Some(yes), no])
            .flatten()
            .collect())
    }

    /// For each path, (the path with `cond`, the path without it as an exit).
    fn split(
        &self,
        paths: Vec<Partial>,
        cond: &Expr,
        effects: &[Effect],
    ) -> R<Vec<(Partial, Option<Partial>)>> {
        Ok(paths
            .into_iter()
            .map(|p| {
                if p.end.is_some() {
                    return (p, None);
                }
                let c = p.value(cond);
                let p = apply(p, effects);
                let mut yes = p.clone();
                yes.conds.push(c.clone());
                let mut no = p;
                no.conds.push(Expr::negate(c));
                no.end = Some(End::Exit);
                (yes, Some(no))
            })
            .collect())
    }

    fn check(&self, n: usize) -> R<()> {
        if n > MAX_PATHS {
            Err(format!("more than {MAX_PATHS} paths"))
        } else {
            Ok(())
        }
    }

    fn stmt(&mut self, node: Node<'_>, paths: Vec<Partial>) -> R<Vec<Partial>> {
        self.check(paths.len())?;
        let (done, mut live): (Vec<_>, Vec<_>) = paths.into_iter().partition(|p| p.end.is_some());
        if live.is_empty() {
            return Ok(done);
        }
        match node.kind() {
            "compound_statement" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "comment" {
                        continue;
                    }
                    live = self.stmt(child, live)?;
                }
            }
            "expression_statement" => {
                if let Some(e) = node.named_child(0) {
                    let mut next = Vec::new();
                    for p in live {
                        next.extend(self.effect(e, p)?);
                    }
                    live = next;
                }
            }
            ";" | "empty_statement" => {}
            "break_statement" | "return_statement" => {
                if node.kind() == "return_statement"
                    && let Some(e) = node.named_child(0)
                {
                    self.expr(e)?;
                }
                for p in &mut live {
                    p.end = Some(End::Exit);
                }
            }
            "continue_statement" => {
                // A goto loop's `continue` is its enclosing loop's: it leaves.
                let end = if self.head.is_some() {
                    End::Exit
                } else {
                    End::Continue
                };
                for p in &mut live {
                    p.end = Some(end);
                }
            }
            "goto_statement" => self.jump(node, &mut live)?,
            "labeled_statement" => {
                live = self.stmt(node.named_child(1).ok_or("a label without a statement")?, live)?;
            }
            "if_statement" => {
                let (c, effects) = self.test(
                    node.child_by_field_name("condition")
                        .ok_or("if without condition")?,
                )?;
                let then = node.child_by_field_name("consequence").ok_or("if without body")?;
                let mut els = node.child_by_field_name("alternative");
                if let Some(e) = els
                    && e.kind() == "else_clause"
                {
                    els = e.named_child(0);
                }
                let mut yes_paths = Vec::new();
                let mut no_paths = Vec::new();
                let bounds = self.take_bounds();
                for mut p in live {
                    arrays::within(&bounds, &mut p);
                    let v = p.value(&c);
                    let p = apply(p, &effects);
                    let mut yes = p.clone();
                    yes.conds.push(v.clone());
                    let mut no = p;
                    no.conds.push(Expr::negate(v));
                    yes_paths.push(yes);
                    no_paths.push(no);
                }
                live = self.stmt(then, yes_paths)?;
                live.extend(match els {
                    Some(e) => self.stmt(e, no_paths)?,
                    None => no_paths,
                });
            }
            "declaration" => {
                let mut cursor = node.walk();
                let mut inits = Vec::new();
                for d in node.children_by_field_name("declarator", &mut cursor) {
                    let name = innermost_identifier(if d.kind() == "init_declarator" {
                        d.child_by_field_name("declarator").unwrap_or(d)
                    } else {
                        d
                    })
                    .map(|n| self.src(n).to_string())
                    .ok_or("declares something other than a variable")?;
                    if d.kind() == "init_declarator" {
                        let value = d.child_by_field_name("value").ok_or("initialiser")?;
                        inits.push((name, value));
                    }
                }
                let mut local = Vec::new();
                declaration(node, self.text, &mut local, 1);
                for (name, _, t) in local {
                    let t = t.map_err(|why| format!("variable {name} is {why}"))?;
                    // One name, one variable: a body declaration hiding a
                    // variable of the loop, or declared twice, is refused.
                    if self.vars.contains_key(&name) || self.declared_outside(&name) {
                        return Err(format!("a declaration in the body hides another {name}"));
                    }
                    self.vars.insert(name.clone(), t);
                    self.locals.insert(name);
                }
                for (name, value) in inits {
                    let e = self.expr(value)?;
                    let t = self.vars[&name];
                    let bounds = self.take_bounds();
                    for p in &mut live {
                        arrays::within(&bounds, p);
                        let v = Expr::Cast(t, Box::new(p.value(&e)));
                        p.state.insert(name.clone(), v);
                        p.recorded.remove(&name);
                    }
                }
            }
            "while_statement" | "for_statement" | "do_statement" => return Err("contains a loop".into()),
            "switch_statement" => return Err("switch".into()),
            other => return Err(format!("statement {other}")),
        }
        let mut all = done;
        all.extend(live);
        self.check(all.len())?;
        Ok(all)
    }

    /// An expression evaluated for its effect: an assignment, an
    /// increment, or a side-effect-free expression.
    fn effect(&mut self, node: Node<'_>, mut p: Partial) -> R<Vec<Partial>> {
        match node.kind() {
            "parenthesized_expression" => self.effect(node.named_child(0).ok_or("empty parentheses")?, p),
            "comma_expression" => {
                let left = node.child_by_field_name("left").ok_or("comma")?;
                let right = node.child_by_field_name("right").ok_or("comma")?;
                let mut out = Vec::new();
                for q in self.effect(left, p)? {
                    out.extend(self.effect(right, q)?);
                }
                Ok(out)
            }
            "assignment_expression" => {
                let left = node.child_by_field_name("left").ok_or("assignment")?;
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| self.src(o).to_string())
                    .unwrap_or_default();
                let right_node = node.child_by_field_name("right").ok_or("assignment")?;
                let right = self.expr(right_node)?;
                let target = arrays::unparenthesized(left);
                if target.kind() == "subscript_expression"
                    && weft_weave::joinpoint::cell(self.text, target).is_none()
                {
                    let op = match op.as_str() {
                        "=" => None,
                        o => Some(
                            BinOp::from_c(o.trim_end_matches('=')).ok_or_else(|| format!("operator {o}"))?,
                        ),
                    };
                    return Ok(vec![self.store(target, op, right, p)?]);
                }
                let name = self.lvalue(left)?;
                arrays::within(&self.take_bounds(), &mut p);
                let t = self.vars[&name];
                if op == "=" && self.keeps_read_result(right_node, t) {
                    p.recorded.insert(name.clone());
                } else {
                    p.recorded.remove(&name);
                }
                let value = if op == "=" {
                    right
                } else {
                    let bin =
                        BinOp::from_c(op.trim_end_matches('=')).ok_or_else(|| format!("operator {op}"))?;
                    Expr::bin(bin, Expr::Var(name.clone()), right)
                };
                let v = Expr::Cast(t, Box::new(p.value(&value)));
                p.state.insert(name, v);
                Ok(vec![p])
            }
            "update_expression" => {
                let arg = node.child_by_field_name("argument").ok_or("update")?;
                let name = self.lvalue(arg)?;
                let op = if self.src(node).contains("++") {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let t = self.vars[&name];
                p.recorded.remove(&name);
                let v = Expr::Cast(
                    t,
                    Box::new(p.value(&Expr::bin(op, Expr::Var(name.clone()), Expr::int(1)))),
                );
                p.state.insert(name, v);
                Ok(vec![p])
            }
            // Output changes nothing the loop reads.
            "call_expression"
                if OUTPUT_ONLY.contains(&self.src_of_callee(node))
                    && node
                        .child_by_field_name("arguments")
                        .is_some_and(|a| !calls::has_effects(a)) =>
            {
                Ok(vec![p])
            }
            _ => {
                self.expr(node)?;
                Ok(vec![p])
            }
        }
    }

    /// The called function's name as written.
    fn src_of_callee(&self, call: Node<'_>) -> &str {
        call.child_by_field_name("function").map_or("", |f| self.src(f))
    }

    fn lvalue(&mut self, node: Node<'_>) -> R<String> {
        match node.kind() {
            "identifier" => {
                let name = self.src(node).to_string();
                self.var(&name)?;
                Ok(name)
            }
            "parenthesized_expression" => self.lvalue(node.named_child(0).ok_or("empty parentheses")?),
            "pointer_expression" | "subscript_expression" | "field_expression" => self.cell(node),
            k => Err(self.unsupported(k, node)),
        }
    }

    /// Whether `name` denotes something declared outside the loop.
    fn declared_outside(&self, name: &str) -> bool {
        match self.sema {
            Some((sema, file)) => sema.lookup(file, self.at, name).is_some(),
            None => self.scope.lookup(name, self.at).is_some(),
        }
    }

    /// For a name that is no variable of the program (nothing declares it
    /// where the loop is), the constant its macro stands for, or why it is
    /// none ([`crate::constants`]); None for a variable or without the
    /// program's semantics.
    fn macro_constant(&self, name: &str) -> Option<R<Expr>> {
        let (sema, file) = self.sema?;
        if self.vars.contains_key(name) || sema.lookup(file, self.at, name).is_some() {
            return None;
        }
        Some(crate::constants::macro_constant(sema, file, name))
    }

    fn var(&mut self, name: &str) -> R<IntType> {
        if let Some(t) = self.vars.get(name) {
            return Ok(*t);
        }
        if let Some((sema, file)) = self.sema {
            let d = sema
                .lookup(file, self.at, name)
                .ok_or_else(|| format!("variable {name} is not declared (a macro or a system header's)"))?;
            let t = declared_int(d).map_err(|why| format!("{name} is {why}"))?;
            self.vars.insert(name.to_string(), t);
            return Ok(t);
        }
        match self.scope.lookup(name, self.at) {
            Some(Ok(t)) => {
                self.vars.insert(name.to_string(), *t);
                Ok(*t)
            }
            Some(Err(why)) => Err(format!("variable {name} is {why}")),
            None => Err(format!(
                "variable {name} is not declared in the file (a macro or a system header's)"
            )),
        }
    }

    fn unsupported(&self, kind: &str, node: Node<'_>) -> String {
        match kind {
            "call_expression" => {
                let f = node
                    .child_by_field_name("function")
                    .map(|f| self.src(f))
                    .unwrap_or("a function");
                format!("calls {f}()")
            }
            "pointer_expression" => "pointer dereference".into(),
            "field_expression" => "structure member".into(),
            "subscript_expression" => "array element".into(),
            "assignment_expression" | "update_expression" => "assignment inside an expression".into(),
            "sizeof_expression" | "alignof_expression" => "sizeof".into(),
            "string_literal" | "concatenated_string" => "string literal".into(),
            "number_literal" => "float".into(),
            _ => format!("expression {kind}"),
        }
    }

    /// A side-effect-free expression of the fragment (under the
    /// end-of-file model, also input calls, and in a condition assignments
    /// from them: [`Extractor::test`]).
    fn expr(&mut self, node: Node<'_>) -> R<Expr> {
        match node.kind() {
            "identifier" => {
                let name = self.src(node).to_string();
                if name == "EOF" {
                    return Ok(Expr::int(-1));
                }
                if name == "NULL" && self.eof.is_some() {
                    return Ok(Expr::int(0));
                }
                if let Some(constant) = self.macro_constant(&name) {
                    return constant;
                }
                self.var(&name)?;
                Ok(Expr::Var(name))
            }
            "true" => Ok(Expr::int(1)),
            "null" if self.eof.is_some() => Ok(Expr::int(0)),
            "false" => Ok(Expr::int(0)),
            "number_literal" => {
                literal(self.src(node)).ok_or_else(|| self.unsupported("number_literal", node))
            }
            "char_literal" => {
                let s = self.src(node);
                let inner = s
                    .strip_prefix('\'')
                    .and_then(|s| s.strip_suffix('\''))
                    .ok_or("character literal")?;
                let v = match inner {
                    "\\n" => 10,
                    "\\t" => 9,
                    "\\0" => 0,
                    "\\r" => 13,
                    "\\\\" => 92,
                    "\\'" => 39,
                    c if c.len() == 1 => c.as_bytes()[0] as i128,
                    _ => return Err(format!("character literal {s}")),
                };
                Ok(Expr::int(v))
            }
            "parenthesized_expression" => {
                let inner = node.named_child(0).ok_or("empty parentheses")?;
                self.expr(inner)
            }
            "unary_expression" => {
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| self.src(o).to_string())
                    .unwrap_or_default();
                let arg = self.expr(node.child_by_field_name("argument").ok_or("unary")?)?;
                Ok(match op.as_str() {
                    "-" => match arg {
                        Expr::Const(v, t) => Expr::Unary(UnOp::Neg, Box::new(Expr::Const(v, t))),
                        a => Expr::Unary(UnOp::Neg, Box::new(a)),
                    },
                    "+" => arg,
                    "!" => Expr::Unary(UnOp::Not, Box::new(arg)),
                    "~" => Expr::Unary(UnOp::BitNot, Box::new(arg)),
                    o => return Err(format!("operator {o}")),
                })
            }
            "binary_expression" => {
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| self.src(o).to_string())
                    .unwrap_or_default();
                let op = BinOp::from_c(&op).ok_or_else(|| format!("operator {op}"))?;
                let a = self.expr(node.child_by_field_name("left").ok_or("binary")?)?;
                let b = self.sometimes(op.is_logical(), |x| {
                    x.expr(node.child_by_field_name("right").ok_or("binary")?)
                })?;
                Ok(Expr::bin(op, a, b))
            }
            "cast_expression" => {
                let ty = node.child_by_field_name("type").ok_or("cast")?;
                let name = self.src(ty);
                let t = IntType::from_name(name).ok_or_else(|| {
                    if name.contains('*') {
                        "pointer cast".to_string()
                    } else {
                        format!("cast to {name}")
                    }
                })?;
                let v = self.expr(node.child_by_field_name("value").ok_or("cast")?)?;
                if self.eof.is_some() {
                    // An input call's value, converted: one constant.
                    return Ok(calls::converted(t, v));
                }
                Ok(Expr::Cast(t, Box::new(v)))
            }
            "conditional_expression" => {
                let c = self.expr(node.child_by_field_name("condition").ok_or("?:")?)?;
                let (a, b) = self.sometimes(true, |x| {
                    let a = x.expr(node.child_by_field_name("consequence").ok_or("?:")?)?;
                    let b = x.expr(node.child_by_field_name("alternative").ok_or("?:")?)?;
                    Ok((a, b))
                })?;
                Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)))
            }
            "pointer_expression" | "field_expression" => Ok(Expr::Var(self.cell(node)?)),
            "subscript_expression" => self.element(node),
            "call_expression" if choices::choice_type(self.src_of_callee(node)).is_some() => {
                Ok(Expr::Var(self.choice(node)?))
            }
            "call_expression" if self.eof.is_some() => self.input_call(node),
            "assignment_expression" if self.effects.is_some() && self.conditional == 0 => {
                self.assignment_in_test(node)
            }
            k => Err(self.unsupported(k, node)),
        }
    }
}

/// An integer literal with C's type rules (decimal: int, long; others may
/// be unsigned); None for floating literals.
pub fn literal(s: &str) -> Option<Expr> {
    let lower = s.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[digits.len()..];
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    let v = i128::from_str_radix(body, radix).ok()?;
    let unsigned = suffix.contains('u');
    let long = suffix.contains('l');
    let fits = |t: IntType| v <= t.max();
    let candidates: Vec<IntType> = match (unsigned, long, radix == 10) {
        (true, false, _) => vec![
            IntType {
                width: 32,
                signed: false,
            },
            IntType {
                width: 64,
                signed: false,
            },
        ],
        (true, true, _) => vec![IntType {
            width: 64,
            signed: false,
        }],
        (false, false, true) => vec![
            INT,
            IntType {
                width: 64,
                signed: true,
            },
        ],
        (false, false, false) => vec![
            INT,
            IntType {
                width: 32,
                signed: false,
            },
            IntType {
                width: 64,
                signed: true,
            },
            IntType {
                width: 64,
                signed: false,
            },
        ],
        (false, true, true) => vec![IntType {
            width: 64,
            signed: true,
        }],
        (false, true, false) => vec![
            IntType {
                width: 64,
                signed: true,
            },
            IntType {
                width: 64,
                signed: false,
            },
        ],
    };
    let t = candidates.into_iter().find(|t| fits(*t))?;
    Some(Expr::Const(v, t))
}

mod arrays;
pub use arrays::ASSUMPTION as ARRAYS_ASSUMPTION;
mod calls;
mod cells;
pub(crate) mod choices;
mod jumps;
use calls::apply;
pub(crate) use jumps::goto_fragment;
