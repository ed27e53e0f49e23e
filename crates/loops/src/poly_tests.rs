//! Loops whose guard is a polynomial equality (crate::poly): the guard
//! and its finite differences as recurrent sets, under both semantics,
//! and their checks evaluated in C without undefined behaviour.

use std::path::Path;
use std::time::Duration;

use super::*;

fn solver() -> weft_smt::Solver {
    weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3 (scripts/install-deps.sh installs it)")
}

/// The SRC of the first loop of `body` (in a function with `int x, y,
/// z, n`) under `semantics`, re-verified; None when there is none.
fn src(body: &str, semantics: Semantics) -> Option<Src> {
    src_within(body, semantics, LOOP_BUDGET)
}

/// [`src`] within `budget`.
fn src_within(body: &str, semantics: Semantics, budget: Duration) -> Option<Src> {
    let text = format!("void f(void)\n{{\n  int x = 0, y = 0, z = 6, n = 0;\n  {body}\n}}\n");
    let l = loops(Path::new("t.c"), &text).remove(0);
    let f = l.fragment.unwrap_or_else(|e| panic!("{body}: outside: {e}"));
    let solver = solver().with_budget(budget);
    match infer(&f, semantics, &solver).unwrap() {
        Outcome::Found(s) => {
            assert!(
                verify(&f, &s, &solver).unwrap(),
                "{body}: {} does not verify",
                s.c()
            );
            Some(s)
        }
        Outcome::None(_) => None,
    }
}

const BOTH: [Semantics; 2] = [Semantics::Ideal, Semantics::BitVector];

/// `ps2`'s shape: the body keeps `y*y - 2*x + y` at 0, a ring identity,
/// so the guard itself is the SRC over the integers and modulo 2^32.
#[test]
fn a_guard_the_body_preserves() {
    for body in [
        "while (1) { if (!((y * y) - 2 * x + y == 0)) break; y = y + 1; x = y + x; }",
        "while (6*x - 2*y*y*y - 3*y*y - y == 0) { y++; x = y * y + x; }",
    ] {
        for s in BOTH {
            let found = src(body, s).unwrap_or_else(|| panic!("{body}: no SRC under {}", s.name()));
            assert_eq!(found.method, src::POLYNOMIAL, "{body}");
        }
    }
}

/// `cohencu`'s shape: `y == 3*n*n + 3*n + 1` holds again only with its
/// difference along the body, `z - 6*n - 6 == 0`; and `x == n*n*n`
/// needs two differences.
#[test]
fn a_guard_with_its_finite_differences() {
    let body = "while (y == 3 * n * n + 3 * n + 1) { n = n + 1; x = x + y; y = y + z; z = z + 6; }";
    for s in BOTH {
        let found = src(body, s).unwrap_or_else(|| panic!("no SRC under {}", s.name()));
        assert_eq!(found.method, src::POLYNOMIAL);
        let condition = found.condition.to_string();
        assert_eq!(found.condition.conjuncts().len(), 2, "{condition}");
        if s == Semantics::Ideal {
            assert!(condition.contains("z - (6 * n)"), "{condition}");
        }
    }
    let body = "while (x == n * n * n) { n = n + 1; x = x + y; y = y + z; z = z + 6; }";
    let found = src(body, Semantics::Ideal).expect("an SRC");
    assert_eq!(found.condition.conjuncts().len(), 3, "{}", found.condition);
}

/// Terminating twins: the body does not preserve the equality (`x`
/// grows by `2*y`), so no recurrent set holds at the entry x = y = 0.
/// Its chain of differences never ends, so the other (nonlinear)
/// candidates run: a short budget keeps the test quick.
#[test]
fn a_guard_the_body_breaks_has_no_src_at_the_entry() {
    let body = "while (y * y - 2 * x + y == 0) { y = y + 1; x = x + 2 * y; }";
    for s in BOTH {
        if let Some(found) = src_within(body, s, Duration::from_secs(4)) {
            assert_ne!(found.method, src::POLYNOMIAL, "{}", found.c());
            let holds = gcc_exit(&format!("int x = 0, y = 0; return {};", found.c()));
            assert_eq!(holds, 0, "{} holds at the entry", found.c());
        }
    }
}

/// The checks of products never overflow a signed type: over
/// bit-vectors they wrap unsigned, over ideal integers they are exact
/// in `long` within bounds. Built with UBSan trapping on signed
/// overflow, each runs on values whose products overflow `int`.
#[test]
fn checks_of_products_have_no_undefined_behaviour() {
    let body = "while (1) { if (!((y * y) - 2 * x + y == 0)) break; y = y + 1; x = y + x; }";
    // y = 65536: y*y overflows int. x = y*(y+1)/2 mod 2^32 keeps the
    // wrapped equality, not the ideal one.
    let state = "int y = 65536; int x = (int)(((unsigned)y * (unsigned)(y + 1)) / 2u);";
    let bv = src(body, Semantics::BitVector).unwrap().c();
    assert!(bv.contains("(unsigned int)"), "{bv}");
    assert_eq!(gcc_exit(&format!("{state} return {bv};")), 1, "{bv}");
    let ideal = src(body, Semantics::Ideal).unwrap().c();
    assert!(ideal.contains("(long)"), "{ideal}");
    assert_eq!(gcc_exit(&format!("{state} return {ideal};")), 0, "{ideal}");
    assert_eq!(
        gcc_exit(&format!("int x = 3, y = 2; return {ideal};")),
        1,
        "{ideal}"
    );
}

/// Builds `int main(void) { BODY }` with signed overflow trapping and
/// returns its exit status (a trap fails the test).
fn gcc_exit(body: &str) -> i32 {
    let dir = std::env::temp_dir().join(format!("weft-loops-poly-{}-{}", std::process::id(), body.len()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("e.c"), format!("int main(void) {{ {body} }}\n")).unwrap();
    let out = std::process::Command::new("gcc")
        .args([
            "-w",
            "-O1",
            "-fsanitize=signed-integer-overflow",
            "-fsanitize-undefined-trap-on-error",
            "-o",
        ])
        .arg(dir.join("e"))
        .arg(dir.join("e.c"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let status = std::process::Command::new(dir.join("e")).status().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    status
        .code()
        .unwrap_or_else(|| panic!("{body}: killed by {status}"))
}
