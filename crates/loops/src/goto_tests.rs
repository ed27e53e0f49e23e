//! Loops made of a backward `goto` in the fragment (`extract/jumps.rs`):
//! their SRCs, re-verified, the same as the `for (;;)` the GotoLoops pass
//! makes of them; their terminating twins with none; the shapes refused.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;

fn solver() -> weft_smt::Solver {
    weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3 (scripts/install-deps.sh installs it)")
}

/// The loops of `f` whose body is `body`.
fn loops_of(body: &str) -> Vec<Loop> {
    let text = format!("int g(int);\nvoid f(int x, int y, int n)\n{{\n  int i = 0;\n{body}\n}}\n");
    loops(Path::new("t.c"), &text)
}

/// The only goto loop of `body`, with its fragment.
fn goto_fragment(body: &str) -> Fragment {
    let all = loops_of(body);
    let l = all
        .iter()
        .find(|l| l.kind == GOTO)
        .unwrap_or_else(|| panic!("no goto loop in {body}"));
    l.fragment
        .clone()
        .unwrap_or_else(|e| panic!("{body}: outside: {e}"))
}

/// The SRC of `f` under `semantics`, re-verified, as C text.
fn src_of(f: &Fragment, semantics: Semantics) -> Option<String> {
    match infer(f, semantics, &solver()).unwrap() {
        Outcome::Found(s) => {
            assert_eq!(
                verify(f, &s, &solver()),
                Ok(true),
                "SRC {} does not verify",
                s.c()
            );
            Some(s.c())
        }
        Outcome::None(_) => None,
    }
}

#[test]
fn a_goto_loop_that_hangs_has_an_src_and_its_twin_none() {
    let hang = goto_fragment("again:\n  x = x + y;\n  if (x > 0) goto again;");
    assert_eq!((hang.paths.len(), hang.exits), (1, 1));
    // Over ideal integers x never comes down while y >= 0; over
    // bit-vectors any step y > 0 wraps x round to a negative value.
    assert_eq!(
        src_of(&hang, Semantics::Ideal).as_deref(),
        Some("(((int)(x + y)) > 0) && (y >= 0)")
    );
    assert_eq!(
        src_of(&hang, Semantics::BitVector).as_deref(),
        Some("(((int)(x + y)) > 0) && (y == 0)")
    );
    // The twin steps down: it ends from every state.
    let twin = goto_fragment("again:\n  x = x - 1;\n  if (x > 0) goto again;");
    for s in [Semantics::Ideal, Semantics::BitVector] {
        assert_eq!(src_of(&twin, s), None, "{}", s.name());
    }
}

#[test]
fn the_condition_of_a_goto_in_nested_ifs_is_its_path_condition() {
    let f = goto_fragment("again:\n  if (x > 0) {\n    if (y == 0) goto again;\n    x--;\n  }\n  i++;");
    // Round again only through the inner goto; falling off the end leaves.
    assert_eq!((f.paths.len(), f.exits), (1, 2));
    let src = src_of(&f, Semantics::BitVector).expect("a stuck path");
    assert!(src.contains("x > 0") && src.contains("y == 0"), "{src}");
    // Several gotos to the head: each is a path that goes round.
    let f = goto_fragment("again:\n  if (x > 0) goto again;\n  x = x + 2;\n  if (x < 0) goto again;");
    assert_eq!(f.paths.len(), 2);
}

#[test]
fn a_goto_loop_has_the_src_of_the_for_loop_the_goto_loops_pass_makes() {
    for body in [
        "again:\n  x = x + y;\n  if (x > 0) goto again;",
        "again:\n  if (x > 0) {\n    if (y == 0) goto again;\n    x--;\n  }\n  i++;",
        "again: x = x - 1; if (x > 0) goto again;",
    ] {
        let text = format!("void f(int x, int y)\n{{\n  int i = 0;\n{body}\n}}\n");
        let path = PathBuf::from("t.c");
        let front = weft_c::FrontEnd::new(weft_c::MacroTable::default());
        let (rewritten, _) =
            weft_weave::program::transform_text(&front, &[(path.clone(), text.clone())], &["GotoLoops"], &[])
                .unwrap();
        assert!(rewritten[0].contains("for (;;)"), "{}", rewritten[0]);
        let [goto] = &loops(&path, &text)[..] else {
            panic!("{text}")
        };
        let [for_loop] = &loops(&path, &rewritten[0])[..] else {
            panic!("{}", rewritten[0])
        };
        // The label's line; the `for`'s is the first statement's.
        let first = 4 + usize::from(body.starts_with("again:\n"));
        assert_eq!(
            (goto.kind, goto.line, for_loop.kind, for_loop.line),
            (GOTO, 4, "for", first)
        );
        for s in [Semantics::Ideal, Semantics::BitVector] {
            let (a, b) = (
                goto.fragment.as_ref().unwrap(),
                for_loop.fragment.as_ref().unwrap(),
            );
            assert_eq!(src_of(a, s), src_of(b, s), "{body} under {}", s.name());
        }
    }
}

#[test]
fn a_retry_loop_over_a_call_is_outside_the_fragment() {
    for (body, reason) in [
        (
            "again:\n  i = read(0, 0, n);\n  if (i < 0 && errno == 4) goto again;",
            "calls read()",
        ),
        ("again:\n  i = g(x);\n  if (i < 0) goto again;", "calls g()"),
    ] {
        let all = loops_of(body);
        let l = all.iter().find(|l| l.kind == GOTO).expect(body);
        let e = l.fragment.as_ref().expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
}

#[test]
fn shapes_that_cannot_be_told_are_refused_with_their_reason() {
    for (body, reason) in [
        (
            "  goto mid;\nagain:\n  x++;\nmid:\n  x--;\n  if (x) goto again;",
            "another label inside it, mid, is a goto target",
        ),
        (
            "  { again: x++; }\n  if (x) goto again;",
            "every goto again going back to it lies outside the label's block",
        ),
        (
            "  switch (n) {\n  again: x++;\n  case 1: if (x) goto again;\n  }",
            "a case label inside it",
        ),
        (
            "again:\n  while (x > 0) x--;\n  if (y) goto again;",
            "contains a loop",
        ),
        (
            "again:\n  if (x) goto skip;\n  x++;\nskip:\n  if (y) goto again;",
            "another label inside it, skip, is a goto target",
        ),
    ] {
        let all = loops_of(body);
        let l = all.iter().find(|l| l.kind == GOTO).expect(body);
        let e = l.fragment.as_ref().expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
    // In a while loop, a jump to a label of its own body is not followed.
    let all = loops_of("  while (i < n) {\n    if (x) goto skip;\n    i++;\n  skip:\n    i++;\n  }");
    let e = all[0].fragment.as_ref().expect_err("a jump within the body");
    assert!(e.contains("a goto to skip, a label inside the loop"), "{e}");
}

#[test]
fn a_goto_out_of_a_loop_leaves_it_and_a_case_of_a_switch_is_a_block() {
    // `goto out` is one more exit: stuck while x > 0 and y == 0 only.
    let all = loops_of("  while (x > 0) {\n    if (y) goto out;\n  }\nout:\n  i++;");
    let f = all[0].fragment.as_ref().unwrap();
    assert_eq!((f.paths.len(), f.exits), (1, 2));
    let src = src_of(f, Semantics::BitVector).expect("stuck");
    assert!(src.contains("x > 0") && src.contains("!y"), "{src}");
    // A goto loop inside one case of a switch; its `break` leaves.
    let f = goto_fragment(
        "  switch (n) {\n  case 1:\n  again:\n    x++;\n    if (x > 9) break;\n    goto again;\n  }",
    );
    assert_eq!((f.paths.len(), f.exits), (1, 1));
    assert_eq!(src_of(&f, Semantics::Ideal), None);
}

#[test]
fn a_check_goes_right_after_the_label_and_keeps_a_lone_labeled_statement_one() {
    let text = "void f(int i, int x)\n{\n  if (i > 9) STUCK: goto STUCK;\nagain: x++;\n  int y = x;\n  if (y) goto again;\n}\n";
    let all = loops(Path::new("t.c"), text);
    let checks: Vec<(&Loop, String)> = all.iter().map(|l| (l, "1".to_string())).collect();
    let woven = weave_checks(text, "t.c", &checks);
    assert!(!weft_c::parse_view(&woven).root_node().has_error(), "{woven}");
    let lines: Vec<&str> = woven.lines().collect();
    // Outside a block the labeled statement and its check stay the `if`'s.
    assert!(lines[2].starts_with("  if (i > 9) { STUCK:  if (1) {"), "{woven}");
    assert!(lines[2].ends_with("goto STUCK; }"), "{woven}");
    // In a block, `y` stays declared after the region.
    assert!(
        lines[3].starts_with("again:  if (1) {") && lines[3].ends_with(" x++;"),
        "{woven}"
    );
}
