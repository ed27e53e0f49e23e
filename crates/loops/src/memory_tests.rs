//! Loops over memory in the fragment: cells (`*p`, `a[K]`), choices
//! (`__VERIFIER_nondet_int()`), arrays at a variable index; each with
//! terminating twins that must get no SRC, and the aliasing refusals.

use std::path::Path;
use std::time::Duration;

use super::*;

fn solver() -> weft_smt::Solver {
    weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3 (scripts/install-deps.sh installs it)")
}

/// The last loop of `main` with `decls` before it and `body` as the loop.
fn fragment(decls: &str, body: &str) -> Result<Fragment, String> {
    let text = format!(
        "extern int __VERIFIER_nondet_int(void);\nint g;\nint main(void)\n{{\n  {decls}\n  {body}\n  return 0;\n}}\n"
    );
    loops(Path::new("t.c"), &text).pop().expect("a loop").fragment
}

/// The SRC under both semantics, each re-verified, and agreeing on
/// whether there is one; None when there is none.
fn src(decls: &str, body: &str) -> Option<Src> {
    let f = fragment(decls, body).unwrap_or_else(|e| panic!("{body}: outside: {e}"));
    let mut found = Vec::new();
    for semantics in [Semantics::BitVector, Semantics::Ideal] {
        if let Outcome::Found(s) = infer(&f, semantics, &solver()).unwrap() {
            assert!(
                verify(&f, &s, &solver()).unwrap(),
                "{body}: {} does not verify",
                s.c()
            );
            found.push(s);
        }
    }
    found.pop()
}

#[test]
fn cells_are_variables_of_the_state() {
    let decls = "int *x = __builtin_alloca(sizeof(int)); int a[4];";
    let hang = src(
        decls,
        "while (*x != 0) { if (*x < 0) *x = -5; else *x = *x - 1; }",
    )
    .expect("from *x < 0");
    assert!(hang.c().contains("*x < 0"), "{}", hang.c());
    assert!(hang.how().contains("memory cells *x"), "{}", hang.how());
    let cell = src(decls, "while (a[1+1] > 3) { a[2] = a[2] + 1; }").expect("a[2] grows over ideal integers");
    assert!(cell.c().contains("a[2]"), "{}", cell.c());
    // Terminating twins.
    assert!(src(decls, "while (*x > 0) *x = *x - 1;").is_none());
    assert!(
        src(
            decls,
            "while (a[2] != 0) { if (a[2] < 0) a[2] = 0; else a[2] = a[2] - 1; }"
        )
        .is_none()
    );
}

#[test]
fn cells_that_may_share_an_address_are_refused() {
    let decls = "int *p = __builtin_alloca(4), *q = __builtin_alloca(4); int k = 0, *r = &k; int a[4];";
    for (body, reason) in [
        (
            "while (*p + *q > 0) { *p = *p - 1; }",
            "cells *p and *q may share an address",
        ),
        (
            "while (*p > 0) { *p = *p - 1; g++; }",
            "may be variable g, which is global",
        ),
        (
            "while (*p > k) { k++; }",
            "may be variable k, whose address the function takes",
        ),
        (
            "while (*p + a[1] > 0) { a[1]--; }",
            "cells *p and a[1] may share an address",
        ),
        ("while (*p + p[0] > 0) { *p = 0; }", "may share an address"),
        ("while (a[i] + a[1] > 0) { i++; }", "may share an address"),
    ] {
        let decls = format!("{decls} int i = 0;");
        let e = fragment(&decls, body).expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
    // Different offsets of one base, two arrays: apart.
    assert!(fragment(decls, "while (p[0] + p[1] > 0) { p[0]--; }").is_ok());
    assert!(fragment("int a[4], b[4];", "while (a[1] + b[1] > 0) { a[1]--; }").is_ok());
}

#[test]
fn structure_members_are_cells() {
    let decls = "struct S { int n; int m; } s, t, *p = &s; union U { int a; int b; } u;";
    let hang = src(
        decls,
        "while (t.n != 0) { if (t.n < 0) t.n = -3; else t.n = t.n - 1; }",
    )
    .expect("t.n < 0");
    assert!(hang.c().contains("t.n < 0"), "{}", hang.c());
    assert!(
        src(decls, "while (p->n > 0) { p->n = p->n - 1; }").is_none(),
        "twin"
    );
    assert!(
        src(decls, "while (p->n + p->m > 0) { p->m = p->n; }").is_some(),
        "p->m is apart from p->n"
    );
    for (body, reason) in [
        ("while (u.a > 0) { u.b = 0; }", "not a structure"),
        (
            "while (p->n + t.n > 0) { t.n--; }",
            "cells p->n and t.n may share an address",
        ),
        (
            "while (s.n > 0) { s.n--; }",
            "the function takes the address of s",
        ),
    ] {
        let e = fragment(decls, body).expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
}

#[test]
fn choices_are_quantified_existentially() {
    let decls = "int a[4]; int y = 0, x = 0;";
    // A hang exists when the choice is kept non-negative.
    let kept = src(
        decls,
        "while (a[2] >= 0) { a[2] = a[2] - 1; a[2] = __VERIFIER_nondet_int(); }",
    )
    .expect("kept");
    assert!(
        kept.how().contains("a run that never ends chooses"),
        "{}",
        kept.how()
    );
    assert!(kept.how().contains("__VERIFIER_nondet_int()@"), "{}", kept.how());
    // Choosing 0 for the inner call keeps y still.
    let still = src(
        decls,
        "while (__VERIFIER_nondet_int() && y < 10) { if (__VERIFIER_nondet_int()) y++; }",
    );
    assert!(still.expect("y stays").c().contains("y < 10"));
    let f = fragment(decls, "while (a[2] >= 0) { a[2] = __VERIFIER_nondet_int(); }").unwrap();
    assert!(
        f.unwoven()
            .expect("choices")
            .contains("choices of __VERIFIER_nondet_int()")
    );
    // Twins: whatever the choices, the loop ends.
    assert!(src(decls, "while (__VERIFIER_nondet_int() && y < 10) y++;").is_none());
    assert!(
        src(
            decls,
            "while (x > 0) { if (__VERIFIER_nondet_int() > 0) x--; else x -= 2; }"
        )
        .is_none()
    );
    assert!(
        src(
            decls,
            "while (a[2] >= 0) { a[2] = a[2] - 1 - (__VERIFIER_nondet_int() > 5); }"
        )
        .is_none()
    );
}

#[test]
fn arrays_at_a_variable_index() {
    let decls = "int n = __VERIFIER_nondet_int(); int *arr = __builtin_alloca(n * sizeof(int)); int a[10]; int i = 0, j = 0;";
    let stuck = src(decls, "while (0 <= j && j < n) { j += arr[j] + 1; }").expect("arr[j] == -1");
    assert!(stuck.how().contains(ARRAYS_ASSUMPTION), "{}", stuck.how());
    // Writes within a declared size: a hang by choosing i again.
    assert!(
        src(
            decls,
            "while (0 <= i && i < 10 && a[i] >= 0) { a[i] = 0; i = __VERIFIER_nondet_int(); }"
        )
        .is_some()
    );
    // A hang that would need a write out of bounds is none: a[i] = 1
    // from i = 10 on, with `a` of 10 elements.
    let bounded = src(decls, "while (i >= 0) { a[i] = 1; }").expect("stuck within bounds");
    let f = fragment(decls, "while (i >= 0) { a[i] = 1; }").unwrap();
    let at = |v: i128| model(&f, &bounded, &[("i".to_string(), v)].into(), &solver()).unwrap();
    assert!(at(3).is_some() && at(10).is_none(), "{}", bounded.c());
    // Twins: the index moves by at least 1, or leaves the array.
    assert!(
        src(
            decls,
            "while (0 <= j && j < n) { if (arr[j] > 0) j += arr[j]; else j++; }"
        )
        .is_none()
    );
    assert!(src(decls, "while (0 <= i && i < 10 && a[i] >= 0) { a[i] = -1; }").is_none());
    // A read of a declared array: its bounds come first in the SRC, so
    // the check reads no element out of bounds, and it is woven.
    let body = "while (i < 100) { if (a[i] != 1) continue; i++; }";
    let first = src(decls, body).expect("stuck on a[i] != 1").c();
    let (bound, read) = (
        first.find("< 10L").expect(&first),
        first.find("a[i]").expect(&first),
    );
    assert!(bound < read, "{first}");
    assert_eq!(fragment(decls, body).unwrap().unwoven(), None);
    let e = fragment(decls, "while (0 <= j && j < n) { j += arr[j] + 1; }")
        .unwrap()
        .unwoven();
    assert!(e.expect("through a pointer").contains("out of bounds"));
    // Writes through a pointer of unknown size are refused.
    let e = fragment(decls, "while (j < n) { arr[j] = 0; j++; }").unwrap_err();
    assert!(e.contains("arr's size is unknown"), "{e}");
}
