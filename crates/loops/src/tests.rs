use std::path::Path;
use std::time::Duration;

use super::*;

fn solver() -> weft_smt::Solver {
    weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3 (scripts/install-deps.sh installs it)")
}

fn one(body: &str) -> Loop {
    let text = format!(
        "void f(long n, unsigned char u, short h, long *p, double d)\n{{\n  long i = 0, j = 0, s = 0, step = 0;\n  int x = 1;\n  {body}\n}}\n"
    );
    let mut all = loops(Path::new("t.c"), &text);
    assert!(!all.is_empty(), "no loop in {text}");
    all.remove(0)
}

fn src(body: &str, semantics: Semantics) -> Option<Src> {
    let l = one(body);
    let f = l
        .fragment
        .as_ref()
        .unwrap_or_else(|e| panic!("{body}: outside: {e}"));
    match infer(f, semantics, &solver()).unwrap() {
        Outcome::Found(s) => {
            assert!(
                verify(f, &s, &solver()).unwrap(),
                "{body}: SRC {} does not verify",
                s.c()
            );
            Some(s)
        }
        Outcome::None(_) => None,
    }
}

#[test]
fn outside_the_fragment_with_reasons() {
    for (body, reason) in [
        ("while (i < n) { i = g(i); }", "calls g()"),
        ("while (*p) p++;", "p is a pointer"),
        (
            "while (i < n) { i += *p; }",
            "pointer dereference *p, which the loop's condition does not read",
        ),
        ("while (d < 1.0) d += 0.5;", "float"),
        (
            "while (i < n) { for (j = 0; j < 3; j++) s++; i++; }",
            "contains a loop",
        ),
        ("while (i < n) switch (i) { default: i++; }", "switch"),
        ("while (i < n) { p[i] = 0; i++; }", "p's size is unknown"),
        ("while (i < n) { i = p[i][0]; }", "array element"),
        ("{ volatile int stop = 0; while (!stop) s++; }", "volatile"),
        ("while (x > 0) { int x = 5; x--; }", "hides another x"),
        (
            "while (i < n) { { int t = 1; i += t; } { long t = 0; i += t; } }",
            "hides another t",
        ),
    ] {
        let l = one(body);
        let e = l.fragment.expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
}

#[test]
fn paths_conditions_and_transitions() {
    let l = one("while (i < n) { if (i % 2 == 0) continue; else if (i > 100) break; i += 3; }");
    let f = l.fragment.unwrap();
    assert_eq!(f.guard, "i < n");
    assert_eq!(f.paths.len(), 2, "{:?}", f.paths);
    assert_eq!(f.exits, 2);
    assert!(f.paths[0].next.is_empty(), "continue changes nothing");
    assert_eq!(f.paths[1].next["i"].to_string(), "(long)(i + 3)");
    assert_eq!(
        f.vars["i"],
        ir::IntType {
            width: 64,
            signed: true
        }
    );
    let l = one("do { s += 1; } while (u != 7);");
    let f = l.fragment.unwrap();
    assert_eq!(f.paths[0].conds.len(), 1);
    assert_eq!(
        f.vars["u"],
        ir::IntType {
            width: 8,
            signed: false
        }
    );
}

#[test]
fn a_for_loops_own_declaration() {
    let s = src("for (int k = 0; k < n; j++) s++;", Semantics::BitVector).expect("stuck");
    assert_eq!(s.c(), "k < n");
}

#[test]
fn stuck_path() {
    for sem in [Semantics::Ideal, Semantics::BitVector] {
        let s = src("while (i < n) { s += 2; }", sem).expect("stuck");
        assert!(s.stuck);
        assert_eq!(s.c(), "i < n");
    }
}

#[test]
fn increment_without_overflow_only_in_ideal_integers() {
    let s = src("while (x > 0) x++;", Semantics::Ideal).expect("ideal");
    assert_eq!(s.c(), "x > 0");
    assert!(
        src("while (x > 0) x++;", Semantics::BitVector).is_none(),
        "x wraps at INT_MAX"
    );
}

#[test]
fn wrap_at_the_types_width() {
    // unsigned char is always >= 0; a short always < 40000.
    assert!(src("for (u = 5; u >= 0; u--) s++;", Semantics::BitVector).is_some());
    assert!(src("for (u = 5; u >= 0; u--) s++;", Semantics::Ideal).is_none());
    assert!(src("for (h = 0; h < 40000; h++) s++;", Semantics::BitVector).is_some());
    assert!(src("for (h = 0; h < 40000; h++) s++;", Semantics::Ideal).is_none());
}

#[test]
fn candidates_beyond_the_guard() {
    let s = src("while (i < n) i += step;", Semantics::BitVector).expect("step 0");
    assert!(s.c().contains("step == 0"), "{}", s.c());
    let s = src("while (i != 10) i += 3;", Semantics::Ideal).expect("steps past");
    assert!(s.c().contains("i > 10") || s.c().contains('%'), "{}", s.c());
    let s = src("while (x != 0) x >>= 1;", Semantics::BitVector).expect("negative shift");
    assert!(s.c().contains("x < 0"), "{}", s.c());
}

#[test]
fn terminating_loops_have_none() {
    for body in [
        "while (i < n) { s += 2; i++; }",
        "for (i = 0; i < n; i++) s += i;",
        "while (x != 0) x = x / 2;",
        "do { i--; } while (i > 0);",
        "while (u != 0) u++;",
    ] {
        assert!(src(body, Semantics::BitVector).is_none(), "{body}");
    }
}

#[test]
fn literals_get_c_types() {
    assert_eq!(extract::literal("5"), Some(ir::Expr::Const(5, ir::INT)));
    assert_eq!(
        extract::literal("70000u"),
        Some(ir::Expr::Const(
            70000,
            ir::IntType {
                width: 32,
                signed: false
            }
        ))
    );
    assert_eq!(
        extract::literal("0x80000000"),
        Some(ir::Expr::Const(
            1 << 31,
            ir::IntType {
                width: 32,
                signed: false
            }
        ))
    );
    assert_eq!(
        extract::literal("3000000000"),
        Some(ir::Expr::Const(
            3_000_000_000,
            ir::IntType {
                width: 64,
                signed: true
            }
        ))
    );
    assert_eq!(extract::literal("1.5"), None);
}

#[test]
fn declarations_of_closed_blocks_are_not_in_scope() {
    let text = "void f(void)\n{\n  { double k = 0; }\n  { int k = 0; while (k < 10) k += 0; }\n}\n";
    let all = loops(Path::new("t.c"), text);
    let f = all[0]
        .fragment
        .as_ref()
        .expect("k is the int of the enclosing block");
    assert_eq!(f.vars["k"], ir::INT);
    let text = "void f(void)\n{\n  { int k = 0; }\n  while (k < 10) k++;\n}\n";
    let e = loops(Path::new("t.c"), text)[0].fragment.clone().unwrap_err();
    assert!(e.contains("not declared"), "{e}");
}

#[test]
fn lasso_through_two_paths() {
    // x alternates 1, 0, 1, …: each path alone leaves its condition, the
    // two together never leave the loop.
    let body = "while (i < n) { if (x > 0) x = 1 - x; else x = 1 - x; }";
    for sem in [Semantics::Ideal, Semantics::BitVector] {
        let s = src(body, sem).expect("a recurrent set of the whole loop");
        assert_eq!(s.path, None);
        assert_eq!(s.c(), "i < n");
    }
    assert!(
        src(
            "while (i < n) { if (x > 0) x = 1 - x; else { x = 1 - x; i++; } }",
            Semantics::BitVector
        )
        .is_none()
    );
}

/// The bit-vector encoding computes what gcc computes: C's promotions,
/// usual arithmetic conversions, casts, shifts, division and remainder,
/// on values at the edges of each type.
#[test]
fn bit_vector_semantics_agree_with_gcc() {
    let decls = "signed char sc = -100; unsigned char uc = 200; short sh = -30000; unsigned short us = 65000; \
                 int i = -7; unsigned u = 4000000000u; long l = -5; unsigned long ul = 18446744073709551000UL; \
                 unsigned long long r = 0; int k = 0;";
    let values = [
        ("sc", -100i128),
        ("uc", 200),
        ("sh", -30000),
        ("us", 65000),
        ("i", -7),
        ("u", 4_000_000_000),
        ("l", -5),
        ("ul", 18_446_744_073_709_551_000),
    ];
    let cases = [
        "uc + sc",
        "u > -1",
        "sc * 3",
        "(signed char)(sc - 100)",
        "us * us",
        "i % 4",
        "i / 2",
        "l >> 1",
        "u >> 3",
        "ul + 1000",
        "sh * 2",
        "~uc",
        "-u",
        "i < u",
        "(unsigned char)(uc + 100)",
        "uc == 200",
        "!i",
        "i ? sc : uc",
        "(short)us",
        "ul % 7",
        "l < ul",
        "sh + us",
        "uc << 24",
        "0x80000000 > i",
        "u - 4000000001u",
        "(i & 12) | (uc ^ 3)",
    ];
    let mut c = format!("#include <stdio.h>\nvoid f(void)\n{{\n  {decls}\n");
    for e in cases {
        c.push_str(&format!("  while (k < 1) {{ r = ({e}); }}\n"));
    }
    c.push_str(&format!("}}\nint main(void)\n{{\n  {decls}\n"));
    for e in cases {
        c.push_str(&format!("  printf(\"%llu\\n\", (unsigned long long)({e}));\n"));
    }
    c.push_str("  (void)r; (void)k;\n  return 0;\n}\n");
    let printed = gcc_prints(&c);
    let all = loops(Path::new("e.c"), &c);
    assert_eq!(all.len(), cases.len());
    let solver = solver();
    // Where nothing wraps, ideal integers agree too (as signed values).
    let no_wrap = [
        "uc + sc",
        "sc * 3",
        "i % 4",
        "i / 2",
        "l >> 1",
        "sh * 2",
        "sh + us",
        "i ? sc : uc",
        "!i",
    ];
    for ((e, l), want) in cases.iter().zip(&all).zip(&printed) {
        let f = l.fragment.as_ref().unwrap_or_else(|why| panic!("{e}: {why}"));
        let term = &f.paths[0].next["r"];
        let bits = format!("{e}: gcc gives {want}");
        assert_term_is(
            &solver,
            f,
            term,
            Semantics::BitVector,
            &values,
            *want as i128,
            &bits,
        );
        if no_wrap.contains(e) {
            let signed = *want as u64 as i64 as i128;
            let ideal = format!("{e} over ideal integers: gcc gives {signed}");
            assert_term_is(&solver, f, term, Semantics::Ideal, &values, signed, &ideal);
        }
    }
}

/// Compiles `c` with gcc, runs it and returns the numbers it prints, one a
/// line.
fn gcc_prints(c: &str) -> Vec<u128> {
    let dir = std::env::temp_dir().join(format!("weft-loops-bv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("e.c"), c).unwrap();
    let out = std::process::Command::new("gcc")
        .args(["-w", "-o"])
        .arg(dir.join("e"))
        .arg(dir.join("e.c"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = std::process::Command::new(dir.join("e")).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// Asserts that the solver proves `term` equal to `want` (a 64-bit result)
/// under `semantics`, with the fragment's variables bound to `values`.
fn assert_term_is(
    solver: &weft_smt::Solver,
    f: &Fragment,
    term: &ir::Expr,
    semantics: Semantics,
    values: &[(&str, i128)],
    want: i128,
    what: &str,
) {
    let enc = encode::Encoder {
        vars: &f.vars,
        semantics,
    };
    let mut q = weft_smt::Query::new(semantics.logic());
    for (v, t) in &f.vars {
        q.declare(&encode::smt_var(v), semantics.sort(*t));
    }
    for (v, value) in values.iter().filter(|(v, _)| f.vars.contains_key(*v)) {
        q.assert(format!(
            "(= {} {})",
            encode::smt_var(v),
            enc.literal(*value, f.vars[*v])
        ));
    }
    let (t, ty) = enc.term(term).unwrap();
    assert_eq!(ty.width, 64, "{what}");
    let answer = solver
        .valid(&q, &format!("(= {t} {})", enc.literal(want, ty)))
        .unwrap();
    assert_eq!(answer, weft_smt::Answer::Unsat, "{what}");
}

#[test]
fn inductive_paths_by_quantifier_elimination() {
    let s = src("while (i != 10) i += 3;", Semantics::Ideal).expect("steps past 10");
    assert_eq!(s.method, src::INDUCTIVE);
    assert_eq!(s.c(), "(i > 10) || (0 != ((((1 - i) % 3) + 3) % 3))");
    let s = src("while (x > 0 && i < 100) { x++; i--; }", Semantics::Ideal).expect("both move away");
    assert_eq!(s.c(), "(i < 100) && (x > 0)");
    // The weakest condition is false: every state leaves.
    for body in [
        "while (i < n) i++;",
        "for (i = 0; i < n; i += 2) s++;",
        "do { x--; } while (x > 0);",
    ] {
        assert!(src(body, Semantics::Ideal).is_none(), "{body}");
    }
}

#[test]
fn shifting_paths_are_unrolled_to_their_fixpoint() {
    // Right shifts of an unsigned reach 0 within its width: x meets j
    // unless j is on its way; the candidates' `x < j` misses 8 and 3.
    let s = src(
        "{ unsigned int v = 8, w = 3; while (v != w) v >>= 1; }",
        Semantics::BitVector,
    )
    .expect("a shifting path");
    assert_eq!(s.method, src::SHIFTING);
    assert!(
        s.c().starts_with("(v != w) && (((unsigned int)(v >> 1)) != w)"),
        "{}",
        s.c()
    );
    assert!(
        s.c().ends_with("(((unsigned int)(v >> 31)) != w) && (0u != w)"),
        "{}",
        s.c()
    );
    // Left shifts of a signed int are written unsigned (no undefined
    // behaviour in the check) and reach 0 after 32 rounds.
    let s = src("while (x < 100) x <<= 1;", Semantics::BitVector).expect("a shifting path");
    assert!(
        s.c().contains("((int)(((unsigned int)x) << 31)) < 100"),
        "{}",
        s.c()
    );
    // Where a candidate says the same, it stays: it is shorter.
    let s = src("while (x != 1) x >>= 1;", Semantics::BitVector).expect("x <= 0");
    assert_eq!(s.c(), "(x != 1) && (x < 1)");
    // Nothing for ideal integers, where a left shift never reaches 0.
    assert_ne!(
        src("while (x < 100) x <<= 1;", Semantics::Ideal).map(|s| s.method),
        Some(src::SHIFTING)
    );
}

#[test]
fn permuting_paths_are_unrolled_over_their_period() {
    let body = "{ long a = 1, b = 2, c = 8, t; while (a + b != c) { t = a; a = b; b = c; c = t; } }";
    for sem in [Semantics::Ideal, Semantics::BitVector] {
        let s = src(body, sem).expect("a rotation");
        assert_eq!(s.method, src::PERMUTING);
        assert_eq!(s.c(), "((a + b) != c) && ((b + c) != a) && ((c + a) != b)");
    }
}

#[test]
fn boundaries_of_what_the_conditions_compare() {
    // A retry counter reset at 2 stays in tries + 1 <= 2 (two paths).
    let body = "{ long tries = 0, ok = 0; while (!ok && tries < 3) { tries++; if (tries == 2 && n > 0) tries = 0; } }";
    let s = src(body, Semantics::BitVector).expect("a lasso through two paths");
    assert_eq!(s.path, None);
    assert!(
        s.c().contains("((long)(tries + 1)) <= 2") && s.c().contains("n > 0"),
        "{}",
        s.c()
    );
    // A binary search whose bounds end one apart.
    let body = "{ long lo = 0, hi = 50, key = 49, mid; while (lo < hi) { mid = (lo + hi) / 2; if (mid < key) lo = mid; else hi = mid; } }";
    let s = src(body, Semantics::Ideal).expect("stuck one apart");
    assert!(s.c().contains("(hi - lo) == 1"), "{}", s.c());
}

#[test]
fn output_is_an_empty_statement() {
    // `printf` with effect-free arguments and its result unused changes
    // nothing the loop reads; with an assignment inside, it stays outside.
    let s = src(
        "while (i >= 0) { printf(\"%ld\\n\", i); i = i + 1; }",
        Semantics::Ideal,
    );
    assert!(s.is_some(), "an SRC through printf");
    let l = one("while (i >= 0) { printf(\"%ld\", j++); i = i + 1; }");
    assert_eq!(l.fragment.unwrap_err(), "calls printf()");
    let l = one("while (i >= 0) { i = printf(\"x\"); }");
    assert_eq!(l.fragment.unwrap_err(), "calls printf()");
}

#[test]
fn only_signed_overflow_ends_a_loop_with_an_ideal_src_alone() {
    let verdicts = |body: &str| -> Vec<(Semantics, Verdict)> {
        let l = one(body);
        let f = l.fragment.as_ref().unwrap();
        [Semantics::Ideal, Semantics::BitVector]
            .into_iter()
            .map(|s| (s, find(f, s, &solver()).unwrap()))
            .collect()
    };
    // Grows until `long` overflows: ideal SRC, none over bit-vectors.
    let grows = verdicts("while (i > 0) { i = i + 1; }");
    assert_eq!(only_overflow_ends(&grows), Some("i > 0"));
    // Stuck for good under both: no overflow involved.
    assert_eq!(
        only_overflow_ends(&verdicts("while (i > 0) { j = j + 1; }")),
        None
    );
    // Unsigned wraps by definition: ideal integers refuse it.
    assert_eq!(
        only_overflow_ends(&verdicts("while (u > 4) { u = u + 1; }")),
        None
    );
}

/// The entry of a loop of `main`: its inputs in the order they run, the
/// constants set before it, a branch that may assign a variable forgets
/// its constant, and an input whose order is not the text's (in a branch)
/// or a loop outside `main`'s top level gives no entry.
#[test]
fn a_loop_entry_lists_inputs_in_order_and_constants() {
    let at = |text: &str| {
        let start = text.find("while").unwrap();
        let l = loops(Path::new("e.c"), text)
            .into_iter()
            .find(|l| l.range.start == start)
            .unwrap();
        entry(text, &l.range)
    };
    let text = "int main(void) { int x = 0, k = 4; int c = __VERIFIER_nondet_int(); \
                __VERIFIER_nondet_int(); n = __VERIFIER_nondet_uint(); \
                if (c) k = 2; while (x < n) x++; }";
    let e = at(text).unwrap();
    assert_eq!(e.inputs, [Some("c".to_string()), None, Some("n".to_string())]);
    assert_eq!(
        e.constants.into_iter().collect::<Vec<_>>(),
        [("x".to_string(), 0)]
    );
    assert_eq!(
        at("int main(void) { int c = 0; if (c) c = __VERIFIER_nondet_int(); while (c) c--; }"),
        None
    );
    assert_eq!(
        at("int f(void) { int c = __VERIFIER_nondet_int(); while (c) c--; }"),
        None
    );
    assert_eq!(
        at("int main(void) { int c = __VERIFIER_nondet_int(); if (c) { while (c) c--; } }"),
        None
    );
}
