//! The state of a loop, for non-termination monitoring: the variables whose
//! values decide whether the loop exits, closed under the assignments in
//! the loop that feed them, and whether that state determines the next
//! iteration.
//!
//! The slice starts from every variable read by a condition inside the loop
//! (its own, and those of the `if`s, `switch`es, inner loops, `?:`, `&&` and
//! `||` in its body, since any of them may guard an exit), then adds, to a
//! fixpoint, the variables read by each assignment to a state variable and
//! by the conditions it runs under. Variables the loop never writes are
//! dropped (they cannot change while it runs), and so are variables declared
//! inside the loop (temporaries, dead at the loop head) and those every
//! iteration assigns before reading them (`dead_at_head`).
//!
//! The state *determines* the loop when nothing else feeds it: no call
//! (its result or side effects are unknown), and no read through memory
//! (`*p`, `a[i]`, `s.m`) in a loop that also writes memory, unless every
//! read and every write of memory in the loop is of a cell in the state
//! (`cells`: `*p` or `a[K]` at an address the loop never moves, read by its
//! condition). Only then does a repeated state prove that the loop never
//! ends; [`LoopState::unknowns`] names what else feeds it otherwise.

use std::collections::{BTreeSet, HashMap};

use tree_sitter::Node;

use super::callee::{NORETURN, is_output, pure_callee};
use super::cells::{address_taken, cell, surely_read};
use super::dead_at_head::dead_at_head;
use super::tree::{field_in_parent, is_loop_kind, operator, unparenthesized};
use super::vars::is_var_use;
use weft_c::ParsedFile;

/// What the slice found for one loop.
#[derive(Debug, Clone, Default)]
pub struct LoopState<'t> {
    /// The state variables, each with its first use in the loop, in source
    /// order.
    pub vars: Vec<(String, Node<'t>)>,
    /// The memory cells in the state (`*p`, `a[2]`), each with its base
    /// variable's identifier in the loop's condition, in source order.
    pub cells: Vec<(String, Node<'t>)>,
    /// What feeds the loop besides its state (calls, memory), each once.
    pub unknowns: Vec<String>,
    /// Whether the loop can end at all: a condition that is not constantly
    /// true, a `break`, `return` or `goto`, or a call that does not return.
    pub has_exit: bool,
}

/// Facts gathered in one walk over a loop.
#[derive(Default)]
struct Facts<'t> {
    /// Variables read by conditions.
    conditions: BTreeSet<String>,
    /// For each assigned variable, the variables its new values depend on.
    deps: HashMap<String, BTreeSet<String>>,
    /// First use of every variable, in source order.
    first_use: Vec<(String, Node<'t>)>,
    /// Variables declared inside the loop.
    locals: BTreeSet<String>,
    calls: BTreeSet<String>,
    reads_memory: Option<String>,
    writes_memory: Option<String>,
    /// Keys of the cells read and written ([`cell`]).
    cell_reads: BTreeSet<String>,
    cell_writes: BTreeSet<String>,
    /// Memory read or written other than through a cell.
    other_read: bool,
    other_write: bool,
    exits: bool,
}

/// The state of loop `lp` of `file`.
pub fn slice<'t>(file: &ParsedFile, lp: Node<'t>) -> LoopState<'t> {
    let mut facts = Facts::default();
    walk(file, lp, lp, &mut facts);
    facts.exits |= !constantly_true(file, lp);
    let cells: Vec<(String, Node<'t>)> = surely_read(&file.view, lp)
        .into_iter()
        .filter(|(key, base)| facts.cell_writes.contains(key) && unmoved(file, lp, &facts, *base))
        .collect();
    let mut state: BTreeSet<String> = facts.conditions.clone();
    state.extend(cells.iter().map(|(key, _)| key.clone()));
    let mut work: Vec<String> = state.iter().cloned().collect();
    while let Some(v) = work.pop() {
        for d in facts.deps.get(&v).into_iter().flatten() {
            if state.insert(d.clone()) {
                work.push(d.clone());
            }
        }
    }
    let kept = |name: &String| {
        facts.deps.contains_key(name) && !facts.locals.contains(name) && !dead_at_head(file, lp, name)
    };
    let mut vars: Vec<(String, Node<'t>)> = Vec::new();
    for (name, node) in &facts.first_use {
        if state.contains(name) && kept(name) && !vars.iter().any(|(n, _)| n == name) {
            vars.push((name.clone(), *node));
        }
    }
    LoopState {
        unknowns: unknowns(&facts, &cells),
        vars,
        cells,
        has_exit: facts.exits,
    }
}

/// Whether the base variable `base` of a cell stays put over loop `lp`:
/// the loop never assigns it, it is not one of the loop's temporaries,
/// and no pointer to it exists to change it.
fn unmoved(file: &ParsedFile, lp: Node<'_>, facts: &Facts<'_>, base: Node<'_>) -> bool {
    let name = file.node_text(base);
    !facts.deps.contains_key(name) && !facts.locals.contains(name) && !address_taken(&file.view, lp, name)
}

fn unknowns(facts: &Facts<'_>, cells: &[(String, Node<'_>)]) -> Vec<String> {
    let mut out: Vec<String> = facts.calls.iter().map(|c| format!("calls {c}()")).collect();
    let in_state = |keys: &BTreeSet<String>| keys.iter().all(|k| cells.iter().any(|(c, _)| c == k));
    let through_cells = !cells.is_empty()
        && !facts.other_read
        && !facts.other_write
        && in_state(&facts.cell_reads)
        && in_state(&facts.cell_writes);
    if let (Some(read), Some(write)) = (&facts.reads_memory, &facts.writes_memory)
        && !through_cells
    {
        out.push(format!("reads memory ({read}) and writes memory ({write})"));
    }
    out
}

/// Visits every node under `node` (inside loop `lp`), recording facts.
fn walk<'t>(file: &ParsedFile, lp: Node<'t>, node: Node<'t>, facts: &mut Facts<'t>) {
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        visit(file, lp, n, facts);
        cursor.reset(n);
        if cursor.goto_first_child() {
            let mut children = Vec::new();
            loop {
                // A for's initializer runs once, before the loop proper.
                let once = n.id() == lp.id() && cursor.field_name() == Some("initializer");
                if !once {
                    children.push(cursor.node());
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
            stack.extend(children.into_iter().rev());
        }
    }
}

fn visit<'t>(file: &ParsedFile, lp: Node<'t>, n: Node<'t>, facts: &mut Facts<'t>) {
    let text = |n: Node<'_>| file.node_text(n).to_string();
    match n.kind() {
        "identifier" if is_var_use(n, n.parent(), field_in_parent(n)) => {
            facts.first_use.push((text(n), n));
        }
        "call_expression" => call(file, n, facts),
        "break_statement" => facts.exits |= !inside_inner_breakable(lp, n),
        "return_statement" | "goto_statement" => facts.exits = true,
        "gnu_asm_expression" | "asm_statement" => {
            facts.calls.insert("asm".into());
        }
        // The target of a plain `=` is written, not read (what its
        // subscript reads is visited on its own).
        "subscript_expression" | "field_expression" | "pointer_expression"
            if (n.kind() != "pointer_expression" || operator(n) == Some("*")) && !plain_target(n) =>
        {
            facts.reads_memory.get_or_insert_with(|| text(n));
            match cell(&file.view, n) {
                Some((key, _)) => {
                    facts.cell_reads.insert(key);
                }
                None => facts.other_read = true,
            }
        }
        "assignment_expression" | "update_expression" => assignment(file, lp, n, facts),
        "init_declarator" => declaration(file, lp, n, facts),
        // `int err;`: a declarator without an initializer declares a
        // local too (pointer and array declarators name it deeper).
        "declaration" => {
            let mut cursor = n.walk();
            for d in n.children_by_field_name("declarator", &mut cursor) {
                if d.kind() != "init_declarator"
                    && let Some(name) = declared_name(d)
                    && !in_for_header(lp, n)
                {
                    facts.locals.insert(file.node_text(name).to_string());
                }
            }
        }
        _ => {}
    }
    if let Some(condition) = condition_of(n) {
        facts.conditions.extend(var_names(file, condition));
    }
}

/// Whether `n` is the whole target of a plain assignment `n = e`.
fn plain_target(n: Node<'_>) -> bool {
    let mut child = n;
    while let Some(parent) = child.parent() {
        match parent.kind() {
            "parenthesized_expression" => child = parent,
            "assignment_expression" => {
                return operator(parent) == Some("=")
                    && parent
                        .child_by_field_name("left")
                        .is_some_and(|l| l.id() == child.id());
            }
            _ => return false,
        }
    }
    false
}

/// A call: one that never returns is an exit; output changes nothing the
/// loop reads; a program-defined function without effects (`callee`) may
/// end the run on a condition of its arguments, which join the conditions;
/// any other call is an unknown.
fn call(file: &ParsedFile, n: Node<'_>, facts: &mut Facts<'_>) {
    let name = n
        .child_by_field_name("function")
        .map(|f| file.node_text(f).to_string())
        .unwrap_or_default();
    if NORETURN.contains(&name.as_str()) {
        facts.exits = true;
    } else if is_output(file, n) {
        // Nothing the loop reads changes.
    } else if let Some(callee) = pure_callee(file, n, &name) {
        facts.exits |= callee.may_exit;
        facts.calls.extend(callee.inputs);
        if let Some(args) = n.child_by_field_name("arguments") {
            facts.conditions.extend(var_names(file, args));
        }
    } else {
        facts.calls.insert(name);
    }
}

/// The condition a node evaluates to decide control flow, if any.
fn condition_of(n: Node<'_>) -> Option<Node<'_>> {
    match n.kind() {
        "if_statement"
        | "while_statement"
        | "do_statement"
        | "for_statement"
        | "switch_statement"
        | "conditional_expression" => n.child_by_field_name("condition"),
        "binary_expression" if matches!(operator(n), Some("&&" | "||")) => n.child_by_field_name("left"),
        _ => None,
    }
}

/// `x = e`, `x op= e`, `x++`: the new value of `x` depends on `e`, on `x`
/// itself unless plain `=`, and on the conditions the assignment runs under.
fn assignment<'t>(file: &ParsedFile, lp: Node<'t>, n: Node<'t>, facts: &mut Facts<'t>) {
    let (target, value) = if n.kind() == "update_expression" {
        (n.child_by_field_name("argument"), None)
    } else {
        (n.child_by_field_name("left"), n.child_by_field_name("right"))
    };
    let Some(target) = target.map(unparenthesized) else {
        return;
    };
    let name = if target.kind() == "identifier" {
        file.node_text(target).to_string()
    } else {
        facts
            .writes_memory
            .get_or_insert_with(|| file.node_text(target).to_string());
        let Some((key, _)) = cell(&file.view, target) else {
            facts.other_write = true;
            return;
        };
        facts.cell_writes.insert(key.clone());
        key
    };
    let mut deps: BTreeSet<String> = value.map(|v| var_names(file, v)).unwrap_or_default();
    if n.kind() == "update_expression" || operator(n) != Some("=") {
        deps.insert(name.clone());
    }
    deps.extend(guards(file, lp, n));
    facts.deps.entry(name).or_default().extend(deps);
}

/// `T x = e;` inside the loop: `x` is a local whose value depends on `e`.
fn declaration<'t>(file: &ParsedFile, lp: Node<'t>, n: Node<'t>, facts: &mut Facts<'t>) {
    let Some(name) = n
        .child_by_field_name("declarator")
        .filter(|d| d.kind() == "identifier")
    else {
        return;
    };
    let name = file.node_text(name).to_string();
    let mut deps = n
        .child_by_field_name("value")
        .map(|v| var_names(file, v))
        .unwrap_or_default();
    deps.extend(guards(file, lp, n));
    facts.deps.entry(name.clone()).or_default().extend(deps);
    // A declaration in the for header is the loop's own variable, not a
    // temporary of one iteration.
    if !n.parent().is_some_and(|d| in_for_header(lp, d)) {
        facts.locals.insert(name);
    }
}

/// Whether declaration `decl` is the initializer of for loop `lp`.
fn in_for_header(lp: Node<'_>, decl: Node<'_>) -> bool {
    decl.parent().is_some_and(|p| p.id() == lp.id())
}

/// The identifier a declarator declares, through pointer, array and
/// parenthesised declarators.
fn declared_name(declarator: Node<'_>) -> Option<Node<'_>> {
    let mut d = declarator;
    while d.kind() != "identifier" {
        d = d.child_by_field_name("declarator")?;
    }
    Some(d)
}

/// The variables of the conditions that `n` runs under, up to the loop.
fn guards(file: &ParsedFile, lp: Node<'_>, n: Node<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut child = n;
    while let Some(parent) = child.parent() {
        if parent.id() == lp.id() {
            break;
        }
        if let Some(condition) = condition_of(parent)
            && condition.id() != child.id()
        {
            out.extend(var_names(file, condition));
        }
        child = parent;
    }
    out
}

/// The names of the variables `node` reads or writes.
pub(super) fn var_names(file: &ParsedFile, node: Node<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        if is_var_use(n, n.parent(), cursor.field_name()) {
            out.insert(file.node_text(n).to_string());
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Whether the loop's own condition is absent or a non-zero literal.
fn constantly_true(file: &ParsedFile, lp: Node<'_>) -> bool {
    let Some(condition) = lp.child_by_field_name("condition") else {
        return lp.kind() == "for_statement";
    };
    let text = file.node_text(condition);
    let text = text.trim().trim_start_matches('(').trim_end_matches(')').trim();
    text == "true" || text.parse::<i64>().is_ok_and(|v| v != 0)
}

/// Whether `brk` leaves a loop or switch nested in `lp` rather than `lp`.
fn inside_inner_breakable(lp: Node<'_>, brk: Node<'_>) -> bool {
    std::iter::successors(brk.parent(), |n| n.parent())
        .take_while(|n| n.id() != lp.id())
        .any(|n| is_loop_kind(n.kind()) || n.kind() == "switch_statement")
}

#[cfg(test)]
mod tests {
    use super::super::tree::first_loop;
    use super::*;

    /// The state names, unknowns and exit of the first loop of `src`.
    fn state_of(src: &str) -> (Vec<String>, Vec<String>, bool) {
        let file = ParsedFile::parse_plain("t.c", src);
        let tree = file.whole_tree();
        let lp = first_loop(tree.root_node()).expect("a loop");
        let s = slice(&file, lp);
        (
            s.vars.into_iter().map(|(n, _)| n).collect(),
            s.unknowns,
            s.has_exit,
        )
    }

    #[test]
    fn temporaries_and_constants_leave_the_state() {
        let (vars, unknowns, exits) =
            state_of("void f(int a, int b, int k) { while (a >= k) { int olda = a; a = b; b = olda + 1; } }");
        assert_eq!(vars, ["a", "b"]);
        assert!(unknowns.is_empty() && exits);
    }

    #[test]
    fn locals_declared_without_initializer_leave_the_state() {
        // gnulib's chdir_long: `err` is a temporary of each iteration, and
        // out of scope where the monitor reads the state.
        let (vars, _, _) = state_of(
            "int adv(char *); void f(char *d, char *e) { while (e - d > 4) { int err, *q; err = adv(d); if (err) return; d = d + 1; } }",
        );
        assert_eq!(vars, ["d"]);
    }

    #[test]
    fn conditions_guarding_breaks_and_assignments_count() {
        let (vars, _, _) = state_of(
            "void f(int i, int n, int c, int d) { for (;;) { if (c > 3) break; if (d) c++; i++; } }",
        );
        // `d` guards a write of `c` but never changes; `i` decides nothing.
        assert_eq!(vars, ["c"]);
    }

    #[test]
    fn assertions_and_output_keep_the_state_exact() {
        // A program's own assertion aborts on a condition of its argument:
        // the loop has an exit, and what the argument reads joins the state.
        let assert = "void reach_error(void) { __assert_fail(\"0\", \"t.c\", 3, \"r\"); }\n\
                      void check(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }\n";
        let (vars, unknowns, exits) = state_of(&format!(
            "{assert}void f(int x, int y) {{ while (1) {{ check(x == 0); y = -y; x = x + y; }} }}"
        ));
        assert_eq!(
            (vars, unknowns, exits),
            (vec!["x".into(), "y".into()], vec![], true)
        );
        let (vars, unknowns, exits) = state_of(&format!(
            "{assert}void f(int i) {{ for (i = 0; 1; i++) {{ check(1); }} }}"
        ));
        assert!(vars.is_empty() && unknowns.is_empty() && exits);
        // Output whose result is unused changes nothing; used, it is unknown.
        let (vars, unknowns, _) =
            state_of("void f(int x) { while (x > 0) { printf(\"%d\", x); x = x + 1; } }");
        assert_eq!((vars, unknowns.len()), (vec!["x".to_string()], 0));
        let (_, unknowns, _) = state_of("void f(int x) { while (x > 0) { x = printf(\"%d\", x); } }");
        assert_eq!(unknowns, ["calls printf()"]);
        // An input call inside the callee is the loop's input.
        let (_, unknowns, _) = state_of(
            "int __VERIFIER_nondet_int(void); int pick(int a) { return a + __VERIFIER_nondet_int(); }\n\
             void f(int x) { while (x > 0) x = pick(x); }",
        );
        assert_eq!(unknowns, ["calls __VERIFIER_nondet_int()"]);
        // SV-COMP's own checks, defined in a header, end the run unless
        // their argument holds.
        let (vars, unknowns, exits) =
            state_of("void f(int i) { while (1) { __VERIFIER_assert(i < 9); i = -i; } }");
        assert_eq!((vars, unknowns, exits), (vec!["i".into()], vec![], true));
    }

    #[test]
    fn callees_with_effects_stay_unknown() {
        for callee in [
            "int g; void h(int a) { g = a; }",
            "int g; void h(int a) { if (g) abort(); }",
            "void h(int *a) { *a = 1; }",
            "void h(int *a) { a[0] = 1; }",
            "void h(int a) { write(1, &a, 4); }",
            "void h(int a) { if (a) h(a - 1); }",
        ] {
            let (_, unknowns, _) = state_of(&format!(
                "{callee}\nvoid f(int x) {{ while (x > 0) {{ h(x); x--; }} }}"
            ));
            assert_eq!(unknowns, ["calls h()"], "{callee}");
        }
    }

    #[test]
    fn calls_and_memory_are_named() {
        let (_, unknowns, _) = state_of("void f(int c) { while ((c = getc(0)) != -1) { } }");
        assert_eq!(unknowns, ["calls getc()"]);
        let (vars, unknowns, _) =
            state_of("struct n { struct n *next; }; void f(struct n *p) { while (p) p = p->next; }");
        assert_eq!(
            (vars, unknowns.len()),
            (vec!["p".to_string()], 0),
            "pointer chasing without writes is exact"
        );
        let (_, unknowns, _) = state_of("void f(int *a, int i) { while (a[i]) a[i] = a[i] - 1; }");
        assert_eq!(unknowns, ["reads memory (a[i]) and writes memory (a[i])"]);
        // Writing an element reads none; a compound assignment reads it.
        let (vars, unknowns, _) =
            state_of("void f(int *a, int n) { while (n > 0) { a[n % 4] = 0; n = n - 1; } }");
        assert_eq!((vars, unknowns.len()), (vec!["n".to_string()], 0));
        let (_, unknowns, _) =
            state_of("void f(int *a, int n) { while (n > 0) { a[n % 4] += 1; n = a[0]; } }");
        assert_eq!(unknowns, ["reads memory (a[n % 4]) and writes memory (a[n % 4])"]);
    }

    /// The cells and unknowns of the first loop of `src`.
    fn cells_of(src: &str) -> (Vec<String>, Vec<String>) {
        let file = ParsedFile::parse_plain("t.c", src);
        let tree = file.whole_tree();
        let lp = first_loop(tree.root_node()).expect("a loop");
        let s = slice(&file, lp);
        (s.cells.into_iter().map(|(k, _)| k).collect(), s.unknowns)
    }

    #[test]
    fn cells_at_unmoved_addresses_join_the_state() {
        // Read by the condition, written only through itself: exact.
        let (cells, unknowns) = cells_of("void f(int *x) { while (*x <= 10) { if (*x > 6) *x = *x + 2; } }");
        assert_eq!((cells, unknowns.len()), (vec!["*x".to_string()], 0));
        // A constant index is one cell however it is spelt.
        let (cells, unknowns) =
            cells_of("void f(int t) { int a[9]; while (a[2] >= 0) { a[2] = a[2] - 1; a[1+1] = t; } }");
        assert_eq!((cells, unknowns.len()), (vec!["a[2]".to_string()], 0));
        // What a cell is assigned from joins the state.
        let file = ParsedFile::parse_plain(
            "t.c",
            "void f(int *x, int t) { while (*x > 0) { *x = t; t = t - 1; } }",
        );
        let tree = file.whole_tree();
        let s = slice(&file, first_loop(tree.root_node()).unwrap());
        assert_eq!(s.vars.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["t"]);
    }

    #[test]
    fn cells_that_may_move_or_alias_stay_unknown() {
        for (src, why) in [
            (
                "void f(int *x, int *q) { while (*x > 0) { *q = 0; q++; } }",
                "a write through another pointer",
            ),
            (
                "void f(int *a, int i) { while (a[5] > 0) { a[i] = 0; i++; } }",
                "a write at a moving index",
            ),
            (
                "void f(int *x) { while (*x > 0) { *x = 2; x++; } }",
                "the pointer moves",
            ),
            (
                "void f(int *x) { int **p = &x; while (*x > 0) { *x = 2; *p = *p + 1; } }",
                "its address is taken",
            ),
            (
                "void f(int *x, int n) { while (n > 0 && *x > 0) { *x = *x - 1; } }",
                "read behind &&",
            ),
            (
                "void f(int *x, int *y) { while (*x > 0) { *x = *y; *y = 1; } }",
                "a read of another cell",
            ),
            (
                "void f(int *x) { while (*x > 0) { x[0] = 1; } }",
                "the same cell spelt otherwise",
            ),
        ] {
            let (_, unknowns) = cells_of(src);
            assert_eq!(unknowns.len(), 1, "{why}: {src}");
            assert!(unknowns[0].starts_with("reads memory"), "{why}: {unknowns:?}");
        }
    }

    #[test]
    fn loops_without_exits_are_told_apart() {
        assert!(!state_of("void f(int x) { while (1) { x++; } }").2);
        assert!(!state_of("void f(int x) { for (;;) { switch (x) { case 1: break; } x++; } }").2);
        assert!(state_of("void f(int x) { for (;;) { if (x) exit(1); x++; } }").2);
        assert!(state_of("void f(int x) { while (x) x--; }").2);
    }
}
