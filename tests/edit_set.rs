//! EditSet: ordering, conflicts and the single splice pass.

use std::sync::Arc;

use weft::edit::{Edit, EditError, EditSet, Insertion, Layer, Op, Side};

fn set(text: &str) -> EditSet {
    EditSet::new("f.c", Arc::from(text))
}

fn ins(offset: usize, text: &str, side: Side) -> Op {
    Op::Insert(Insertion {
        offset,
        text: text.into(),
        anchor: offset..offset,
        side,
        layer: Layer::Code,
    })
}

fn rep(range: std::ops::Range<usize>, text: &str) -> Op {
    Op::Replace {
        range,
        text: text.into(),
    }
}

#[test]
fn no_edits_reproduce_the_text() {
    assert_eq!(set("int x;\n").apply(), "int x;\n");
}

#[test]
fn insertions_at_one_point_keep_issue_order() {
    let mut s = set("ab");
    s.push([ins(1, "1", Side::Before)], 1).unwrap();
    s.push([ins(1, "2", Side::Before)], 1).unwrap();
    s.push([ins(1, "3", Side::After)], 1).unwrap();
    s.push([ins(1, "4", Side::After)], 1).unwrap();
    // Code placed after what ends here precedes code placed before what starts here.
    assert_eq!(s.apply(), "a3412b");
}

#[test]
fn insertions_around_a_replacement_stay_outside_it() {
    let mut s = set("a = b;");
    s.push([rep(4..5, "c + 1")], 4).unwrap();
    s.push([ins(4, "(", Side::Before)], 4).unwrap();
    s.push([ins(5, ")", Side::After)], 4).unwrap();
    assert_eq!(s.apply(), "a = (c + 1);");
}

#[test]
fn overlapping_replacements_name_both_locations() {
    let mut s = set("x;\ny = 1;\nz;\n");
    s.push([rep(3..8, "y = 2;")], 3).unwrap();
    let err = s.push([rep(7..11, "q")], 7).unwrap_err();
    assert!(matches!(err, EditError::Overlap { .. }));
    assert_eq!(err.to_string(), "overlapping replacements: f.c:2:1 and f.c:2:5");
}

#[test]
fn an_insertion_inside_a_replacement_is_an_error() {
    let mut s = set("abcdef");
    s.push([rep(1..4, "X")], 1).unwrap();
    assert!(matches!(
        s.push([ins(2, "y", Side::Before)], 2),
        Err(EditError::InsideReplacement { .. })
    ));
    // Adjacent replacements are fine.
    s.push([rep(4..6, "Y")], 4).unwrap();
    assert_eq!(s.apply(), "aXY");
}

#[test]
fn a_failed_batch_adds_nothing() {
    let mut s = set("abcdef");
    s.push([rep(2..4, "X")], 2).unwrap();
    let err = s.push([ins(0, "keep?", Side::Before), rep(3..5, "Z")], 3);
    assert!(err.is_err());
    assert_eq!(s.apply(), "abXef");
}

#[test]
fn out_of_range_and_split_characters_are_rejected() {
    let mut s = set("é;");
    assert!(matches!(
        s.push([ins(1, "x", Side::Before)], 0),
        Err(EditError::BadRange { .. })
    ));
    assert!(matches!(
        s.push([rep(2..9, "x")], 0),
        Err(EditError::BadRange { .. })
    ));
}

#[test]
fn identical_braces_merge_but_identical_code_does_not() {
    let brace = Op::Insert(Insertion {
        offset: 1,
        text: "{".into(),
        anchor: 1..2,
        side: Side::Before,
        layer: Layer::Brace,
    });
    let mut s = set("ab");
    s.push([brace.clone(), ins(1, "x", Side::Before)], 1).unwrap();
    s.push([brace, ins(1, "x", Side::Before)], 1).unwrap();
    assert_eq!(s.apply(), "a{xxb");
}

#[test]
fn raw_edits_from_transformations_are_replacements_or_insertions() {
    let mut s = set("int a, b;");
    let edits = vec![
        Edit {
            range: 5..6,
            text: ";\nint".into(),
        },
        Edit {
            range: 9..9,
            text: " /* split */".into(),
        },
    ];
    s.push(edits.into_iter().map(Op::from), 0).unwrap();
    assert_eq!(s.apply(), "int a;\nint b; /* split */");
}

fn brace(offset: usize) -> Op {
    Op::Insert(Insertion {
        offset,
        text: "{".into(),
        anchor: offset..offset + 1,
        side: Side::Before,
        layer: Layer::Brace,
    })
}

#[test]
fn a_brace_of_a_failed_batch_is_forgotten() {
    let mut s = set("ab");
    s.push([rep(0..1, "A")], 0).unwrap();
    assert!(s.push([brace(1), rep(0..2, "q")], 1).is_err());
    s.push([brace(1)], 1).unwrap();
    assert_eq!(s.apply(), "A{b");
}

/// Thousands of edits, texts of many lengths (well past the blocks the
/// pending texts are kept in), with failed batches of long texts between
/// them: the result is every kept edit, in issue order, and nothing of
/// the failed ones, spliced from the set or from its splices.
#[test]
fn many_edits_with_failed_batches_between_splice_as_issued() {
    let lines = 3000;
    let text: String = (0..lines).map(|i| format!("s{i};\n")).collect();
    let mut s = set(&text);
    let mut expected = String::new();
    let mut at = 0;
    for i in 0..lines {
        let line = format!("s{i};\n");
        let note = format!("/* {i} {} */", "x".repeat(i * 7 % 90));
        s.push([ins(at, &note, Side::Before)], at).unwrap();
        expected.push_str(&note);
        let name = at..at + line.len() - 2;
        if i % 5 == 0 {
            s.push([rep(name.clone(), &format!("t{i}"))], at).unwrap();
            let lost = [
                ins(at, &"LOST".repeat(200), Side::Before),
                rep(name.end - 1..name.end + 1, "q"),
            ];
            assert!(s.push(lost, at).is_err());
            expected.push_str(&format!("t{i};\n"));
        } else {
            expected.push_str(&line);
        }
        at += line.len();
    }
    assert_eq!(s.apply(), expected);
    // The splices a re-parse is given make the same text.
    assert_eq!(weft::edit::splice(&text, &s.into_splices()), expected);
}
