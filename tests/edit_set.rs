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
