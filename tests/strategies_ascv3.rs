//! ASCV3 and ASCV3_s woven over the fixture, compiled with warnings as
//! errors, run, and their records read back: exactly the parameters, writes
//! and returns of report §3.3/§3.4, with the values the fixture produces.

mod strategies_support;

use serde_json::json;
use strategies_support::{aspect, assert_range, fixture, monitor, names, weft};

/// What ASCV3 monitors in the fixture: no `main` parameters, no loop header
/// writes (main#i), no write inside the `if` condition (c = 101), no
/// pointers (add#a), and returns through NormalizeReturn's `weft_ret`.
const ASCV3: &[&str] = &[
    "param add#v:i64",
    "param clamp#hi:i64",
    "param clamp#lo:i64",
    "param clamp#v:i64",
    "param mix#a:i64",
    "param mix#b:i64",
    "param mix#c:i64",
    "param scale#k:u64",
    "param scale#x:f64",
    "return clamp#hi:i64",
    "return clamp#lo:i64",
    "return clamp#v:i64",
    "return main#weft_ret:i64",
    "return mix#weft_ret:i64",
    "return scale#weft_ret:f64",
    "write main#c:i64",
    "write main#s:f64",
    "write main#total:i64",
    "write mix#t:i64",
    "write mix#u:i64",
    "write scale#y:f64",
];

fn assert_ascv3_values(ranges: &std::collections::BTreeMap<String, strategies_support::Seen>) {
    assert_range(ranges, "param clamp#v:i64", json!(-5), json!(22));
    assert_range(ranges, "param scale#k:u64", json!(3), json!(3));
    assert_range(ranges, "param scale#x:f64", json!(90.0), json!(90.0));
    assert_range(ranges, "write main#total:i64", json!(0), json!(58692));
    assert_range(ranges, "write main#c:i64", json!(0), json!(20));
    assert_range(ranges, "write mix#u:i64", json!(202), json!(292));
    assert_range(ranges, "write scale#y:f64", json!(270.5), json!(270.5));
    assert_range(ranges, "return clamp#v:i64", json!(1), json!(19));
    assert_range(ranges, "return scale#weft_ret:f64", json!(135.25), json!(135.25));
    assert_eq!(ranges["return clamp#lo:i64"].count, 2);
    assert_eq!(ranges["write main#total:i64"].count, 12);
}

#[test]
fn ascv3_monitors_parameters_writes_and_returns() {
    let (_work, ranges) = monitor("ascv3.lara", &[]);
    assert_eq!(names(&ranges), ASCV3);
    assert_ascv3_values(&ranges);
}

#[test]
fn ascv3_s_also_monitors_struct_member_writes() {
    let (_work, ranges) = monitor("ascv3_s.lara", &[]);
    let mut expected: Vec<&str> = ASCV3.to_vec();
    // a->sum and a->n (long, int) share the i64 entry; a->mean is f64.
    expected.extend(["write add#weft_member:f64", "write add#weft_member:i64"]);
    expected.sort_unstable();
    assert_eq!(names(&ranges), expected);
    assert_ascv3_values(&ranges);
    assert_range(&ranges, "write add#weft_member:i64", json!(0), json!(90));
    assert_range(&ranges, "write add#weft_member:f64", json!(0.0), json!(9.0));
    assert_eq!(ranges["write add#weft_member:i64"].count, 20);
}

#[test]
fn ascv3_counts_the_join_points_it_selected_and_advised() {
    let dir = tempfile::tempdir().unwrap();
    let ascv3 = aspect("ascv3.lara");
    let out = weft(
        dir.path(),
        &[
            "weave",
            "--aspect",
            ascv3.to_str().unwrap(),
            "--diff",
            fixture().to_str().unwrap(),
        ],
    );
    // 9 scalar parameters outside main (add's pointer `a` is no candidate);
    // 10 plain writes: main's total x4, c, s; scale's y; mix's t, u x2 (the
    // loop header and the write in the if condition are not candidates); 6
    // returns: clamp's lo, hi, v and the weft_ret of scale, mix and main.
    // All 25 are arithmetic, so all are advised; they make 21 entries.
    assert!(out.contains("monitored: 21 variables in 1 files"), "{out}");
    assert!(out.contains("join points: 25 selected, 25 advised"), "{out}");
}
