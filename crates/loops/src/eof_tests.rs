//! Loops with input calls, analysed at end of file (crate::eof).

use std::path::Path;
use std::time::Duration;

use super::*;

fn solver() -> weft_smt::Solver {
    weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3 (scripts/install-deps.sh installs it)")
}

/// The first loop of `body`, in a function with a stream, a descriptor
/// and a buffer.
fn one(body: &str) -> Loop {
    let text = format!(
        "typedef struct file FILE;\nvoid f(FILE *fp, int fd, long want, char *buf)\n{{\n  long len = 0, got = 0, have = 0, total = 0, tries = 0;\n  int c, n = 0;\n  {body}\n}}\n"
    );
    let mut all = loops(Path::new("t.c"), &text);
    assert!(!all.is_empty(), "no loop in {text}");
    all.remove(0)
}

/// The bit-vector check woven for the loop of `body` (re-verified), or
/// why there is none.
fn check(body: &str) -> Result<String, String> {
    let l = one(body);
    let f = l.fragment.as_ref().map_err(|e| format!("outside: {e}"))?;
    assert!(f.eof.is_some(), "{body}: not analysed at end of file");
    match infer(f, Semantics::BitVector, &solver()).unwrap() {
        Outcome::Found(s) => {
            assert_eq!(
                verify(f, &s, &solver()),
                Ok(true),
                "{body}: {} does not verify",
                s.c()
            );
            assert!(s.how().ends_with(eof::ASSUMPTION), "{}", s.how());
            Ok(s.c())
        }
        Outcome::None(why) => Err(why),
    }
}

#[test]
fn getc_until_a_newline_never_ends_at_end_of_file() {
    let c = check("while ((c = getc(fp)) != '\\n') len++;").unwrap();
    // The condition's call just returned EOF into c, and the stream says
    // it is at its end.
    assert!(c.starts_with("feof(fp) && c == ((-1)) && "), "{c}");
}

#[test]
fn loops_that_end_at_end_of_file_have_none() {
    for body in [
        "while ((c = getc(fp)) != EOF) len++;",
        "while ((got = read(fd, buf, 16)) > 0) total += got;",
        "while (fgets(buf, 16, fp) != NULL) len++;",
        "while (have < want) { got = read(fd, buf, 8); if (got <= 0) break; have += got; }",
        "while (!feof(fp)) { c = getc(fp); len++; }",
    ] {
        let why = check(body).expect_err(body);
        assert!(
            why.contains("no recurrent set") || why.contains("no path"),
            "{body}: {why}"
        );
    }
}

#[test]
fn read_in_the_condition_is_checked_through_its_variable() {
    let c = check("while ((got = read(fd, buf, sizeof buf)) != -1) total += got;").unwrap();
    assert!(c.starts_with("got == 0L && "), "{c}");
    assert!(!names_round(&c), "{c}");
}

#[test]
fn read_in_the_body_is_trusted_after_a_round() {
    let c =
        check("while (have < want) { got = read(fd, buf, 8); if (got < 0) break; have += got; }").unwrap();
    assert!(c.starts_with("weft_round > 1 && got == 0 && "), "{c}");
    assert!(c.contains("have < want"), "{c}");
    assert!(names_round(&c));
}

#[test]
fn a_do_loop_asks_the_stream_at_its_head() {
    let c = check("do { c = fgetc(fp); len++; } while (c != '\\n');").unwrap();
    assert!(c.starts_with("feof(fp) && ("), "{c}");
}

#[test]
fn a_variable_the_condition_overwrites_is_no_evidence_of_read() {
    // got == 0 after the condition could be a '\0' from getc.
    let body = "while ((got = getc(fp)) != '\\n') { got = read(fd, buf, 8); len++; }";
    let why = check(body).unwrap_err();
    assert!(why.contains("no variable keeps the result of read()"), "{why}");
}

#[test]
fn ferror_is_asked_too_when_the_loop_asks_it() {
    let c = check("while (fgets(buf, 16, fp) == NULL) { if (ferror(fp)) break; tries++; }").unwrap();
    assert!(c.starts_with("feof(fp) && !ferror(fp) && "), "{c}");
}

#[test]
fn read_into_an_int_with_a_sizeof_count_has_no_check() {
    // n could keep a truncated result: 0 would not mean end of file.
    let why = check("while (have < want) { n = read(fd, buf, sizeof buf); if (n < 0) break; have += n; }")
        .unwrap_err();
    assert!(why.contains("no variable keeps the result of read()"), "{why}");
}

#[test]
fn loops_the_model_cannot_judge_keep_their_reason() {
    for (body, reason) in [
        // A count that may be 0: read() returns 0 without end of file.
        (
            "while (have < want) { got = read(fd, buf, want - have); if (got < 0) break; have += got; }",
            "calls read()",
        ),
        // A call that can clear the end-of-file indicator.
        (
            "while (getc(fp) != '\\n') { ungetc(10, fp); len++; }",
            "calls getc()",
        ),
        // The condition reads what it assigns.
        (
            "while ((c = getc(fp)) != '\\n' && c != EOF) len++;",
            "assignment inside an expression",
        ),
        // Assigned behind &&: not on every evaluation.
        (
            "while (len < want && (c = getc(fp)) != '\\n') len++;",
            "assignment inside an expression",
        ),
        // The descriptor changes.
        (
            "while ((got = read(fd, buf, 8)) != -1) fd = 0;",
            "assignment inside an expression",
        ),
        // An argument with an effect.
        (
            "while ((got = read(fd, buf + len++, 8)) != -1) total++;",
            "assignment inside an expression",
        ),
    ] {
        let l = one(body);
        let e = l.fragment.expect_err(body);
        assert!(e.contains(reason), "{body}: {e}");
    }
}

#[test]
fn only_loops_naming_an_input_call_are_extracted_twice() {
    assert!(eof::mentions_input("while ((c = getc (fp)) != 10)"));
    assert!(eof::mentions_input("if (feof(fp)) break;"));
    assert!(!eof::mentions_input("while (my_getc(fp) != 10) reader = 1;"));
}

#[test]
fn the_round_counter_is_woven_around_the_loop() {
    let l = one("while (have < want) { got = read(fd, buf, 8); if (got < 0) break; have += got; }");
    let text = "x; while (have < want) { got = read(fd, buf, 8); if (got < 0) break; have += got; } y;";
    let shifted = Loop {
        range: 3..text.len() - 3,
        body: text.find('{').unwrap()..text.len() - 3,
        ..l
    };
    let woven = weave_checks(text, "t.c", &[(&shifted, "weft_round > 1 && got == 0".into())]);
    assert!(
        woven.starts_with(
            "x; { unsigned long weft_round = 0; while (have < want) { weft_round++; if (weft_round > 1"
        ),
        "{woven}"
    );
    assert!(woven.ends_with("have += got; } } y;"), "{woven}");
}
