use super::*;
use crate::{Config, Engine, PointDecl, PointKind, Rep, Value, VarDecl};

fn points() -> Vec<PointDecl> {
    let var = |name: &str, rep| VarDecl::new(name, rep);
    vec![
        PointDecl {
            name: "find(int*, int n):::ENTER".into(),
            function: "find".into(),
            kind: PointKind::Enter,
            vars: vec![
                var("a[]", Rep::IntSeq),
                var("n", Rep::Int).comparable(3),
                var("key", Rep::Str),
            ],
        },
        PointDecl {
            name: "find(int*, int n):::EXIT7".into(),
            function: "find".into(),
            kind: PointKind::Exit,
            vars: vec![
                var("return", Rep::Int),
                var("orig(n)", Rep::Int).comparable(3),
                var("p", Rep::Pointer),
            ],
        },
        PointDecl {
            name: "loop:::POINT".into(),
            function: "loop".into(),
            kind: PointKind::Point,
            vars: vec![var("f", Rep::Float), var("fs[]", Rep::FloatSeq)],
        },
    ]
}

/// Samples of the three points, with nonces pairing entries and exits.
fn samples() -> Vec<(usize, Option<u64>, Vec<Value>)> {
    let mut out = Vec::new();
    for i in 0..12i64 {
        let key = ["plain", "with \"quotes\"", "tab\tand\\slash", "new\nline"][i as usize % 4];
        let a = if i == 5 {
            Value::Missing
        } else {
            Value::IntSeq((0..i % 4).map(|k| k * i).collect())
        };
        out.push((
            0,
            Some(i as u64),
            vec![a, Value::Int(i - 3), Value::Str(key.into())],
        ));
        let p = Value::Pointer(if i % 3 == 0 { 0 } else { 0x7ffd_0000 + i as u64 });
        out.push((1, Some(i as u64), vec![Value::Int(2 * i), Value::Int(i - 3), p]));
        let f = [0.1, -2.5e300, f64::NAN, f64::INFINITY][i as usize % 4];
        out.push((
            2,
            None,
            vec![Value::Float(f), Value::FloatSeq(vec![f, 1.0 / 3.0])],
        ));
    }
    out
}

fn write_trace(points: &[PointDecl], samples: &[(usize, Option<u64>, Vec<Value>)]) -> String {
    let mut writer = DtraceWriter::new(Vec::new());
    writer.decls(points).unwrap();
    for (p, nonce, values) in samples {
        writer.sample(&points[*p], *nonce, values).unwrap();
    }
    String::from_utf8(writer.into_inner()).unwrap()
}

fn same(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
}

#[test]
fn a_trace_reads_back_as_written() {
    let (points, samples) = (points(), samples());
    let text = write_trace(&points, &samples);
    let records: Vec<Record> = DtraceReader::new(text.as_bytes(), "t.dtrace")
        .map(Result::unwrap)
        .collect();
    let (decls, read): (Vec<_>, Vec<_>) = records.into_iter().partition(|r| matches!(r, Record::Decl(_)));
    let decls: Vec<PointDecl> = decls
        .into_iter()
        .map(|r| {
            if let Record::Decl(d) = r {
                d
            } else {
                unreachable!()
            }
        })
        .collect();
    assert_eq!(decls, points);
    assert_eq!(read.len(), samples.len());
    for ((p, nonce, values), record) in samples.iter().zip(read) {
        let Record::Sample {
            ppt,
            nonce: n,
            values: v,
        } = record
        else {
            unreachable!()
        };
        assert_eq!((ppt.as_str(), n), (points[*p].name.as_str(), *nonce));
        assert!(same(&v, values), "{v:?} != {values:?}");
    }
}

#[test]
fn a_trace_read_back_teaches_the_same_invariants() {
    let (points, samples) = (points(), samples());
    let mut direct = Engine::new(Config::default());
    let ids: Vec<_> = points.iter().map(|p| direct.declare(p.clone())).collect();
    for (p, _, values) in &samples {
        direct.add_sample(ids[*p], values).unwrap();
    }
    let text = write_trace(&points, &samples);
    let mut read = Engine::new(Config::default());
    let fed = feed(
        &mut read,
        &mut DtraceReader::new(text.as_bytes(), "t.dtrace"),
        &mut Invocations::default(),
    )
    .unwrap();
    assert_eq!(fed, samples.len() as u64);
    let (direct, read) = (direct.finish(), read.finish());
    assert!(
        direct.points.iter().map(|p| p.invariants.len()).sum::<usize>() > 10,
        "{direct}"
    );
    assert_eq!(read, direct);
}

#[test]
fn declarations_can_come_from_a_separate_file() {
    let (points, samples) = (points(), samples());
    let mut decls = Vec::new();
    write_decls(&mut decls, &points).unwrap();
    let mut writer = DtraceWriter::new(Vec::new());
    for (p, nonce, values) in &samples[..3] {
        writer.sample(&points[*p], *nonce, values).unwrap();
    }
    let trace = String::from_utf8(writer.into_inner()).unwrap();
    assert!(!trace.contains("ppt "));
    let mut reader = DtraceReader::new(decls.as_slice(), "t.decls");
    assert!(reader.by_ref().all(|r| matches!(r, Ok(Record::Decl(_)))));
    let reader = reader.then(trace.as_bytes(), "t.dtrace");
    let read: Vec<Record> = reader.map(Result::unwrap).collect();
    assert_eq!(read.len(), 3, "{trace}");
}

#[test]
fn names_with_blanks_are_escaped_in_declarations() {
    let mut out = Vec::new();
    write_decls(&mut out, &points()[..1]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("ppt find(int*,\\_int\\_n):::ENTER\n  ppt-type enter\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  variable a\n    var-kind variable\n    dec-type int[]\n    rep-type hashcode\n    \
             flags synthetic non_null\n    comparability -1\n  variable a[..]\n    var-kind array\n    \
             enclosing-var a\n    array 1\n    dec-type int[]\n    rep-type int[]\n"
        ),
        "{text}"
    );
    assert!(text.contains(
        "  variable n\n    var-kind variable\n    dec-type int\n    rep-type int\n    comparability 3\n"
    ));
}

/// The shape of a Kvasir trace: comments, a field the engine does not use,
/// a compile-time constant left out of the records, an array of strings it
/// does not model, booleans, `8[5]` comparabilities.
const KVASIR: &str = "\
// generated by a C front end
decl-version 2.0
input-language C/C++
var-comparability implicit

ppt ..main():::ENTER
  ppt-type enter
  variable argc
    var-kind variable
    dec-type int
    rep-type int
    flags is_param
    comparability 1
  variable argv
    var-kind array
    enclosing-var argv
    array 1
    dec-type char**
    rep-type java.lang.String[]
    comparability 2[3]
  variable VERSION
    var-kind variable
    dec-type int
    rep-type int
    constant 4
  variable verbose
    var-kind variable
    dec-type bool
    rep-type boolean
    comparability -1

..main():::ENTER
this_invocation_nonce
0
argc
2
1
argv
[\"prog\" \"x\"]
1
verbose
true
1

";

#[test]
fn a_front_end_trace_is_read() {
    let records: Vec<Record> = DtraceReader::new(KVASIR.as_bytes(), "k.dtrace")
        .map(Result::unwrap)
        .collect();
    let Record::Decl(decl) = &records[0] else {
        panic!("{records:?}")
    };
    let names: Vec<&str> = decl.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["argc", "VERSION", "verbose"]);
    assert_eq!(decl.vars[0].comparability, Some(1));
    assert_eq!(decl.vars[2].comparability, None);
    assert_eq!(decl.function, "..main");
    let Record::Sample { nonce, values, .. } = &records[1] else {
        panic!("{records:?}")
    };
    assert_eq!(*nonce, Some(0));
    assert_eq!(values, &[Value::Int(2), Value::Int(4), Value::Int(1)]);
}

fn first_error(text: &str) -> String {
    DtraceReader::new(text.as_bytes(), "bad.dtrace")
        .find_map(Result::err)
        .expect("an error")
        .to_string()
}

#[test]
fn malformed_traces_are_located() {
    let decl = "decl-version 2.0\n\nppt f():::ENTER\n  variable x\n    rep-type int\n\n";
    assert_eq!(
        first_error("decl-version 1.0\n"),
        "bad.dtrace:1: declaration version 1.0 (only 2.0 is read)"
    );
    assert_eq!(
        first_error("g():::ENTER\n"),
        "bad.dtrace:1: a sample of g():::ENTER, which is not declared"
    );
    assert_eq!(
        first_error(&format!("{decl}f():::ENTER\ny\n1\n1\n")),
        "bad.dtrace:8: expected variable x of f():::ENTER, found \"y\""
    );
    assert_eq!(
        first_error(&format!("{decl}f():::ENTER\nx\nseven\n1\n")),
        "bad.dtrace:9: \"seven\" is not a value of rep-type int"
    );
    assert_eq!(
        first_error(&format!("{decl}f():::ENTER\nx\n7\n3\n")),
        "bad.dtrace:10: modified bit \"3\" of x (0, 1 or 2)"
    );
    assert_eq!(
        first_error(&format!("{decl}f():::ENTER\nx\n7\n")),
        "bad.dtrace:9: the file ends where the modified bit of x was expected"
    );
    assert_eq!(
        first_error(
            "ppt f():::ENTER\n  variable x\n    rep-type int\n\nppt f():::ENTER\n  variable x\n    rep-type double\n"
        ),
        "bad.dtrace:7: f():::ENTER is declared again, differently"
    );
}

#[test]
fn nonsensical_values_are_missing() {
    let text = "ppt f():::ENTER\n  variable x\n    rep-type int\n\nf():::ENTER\nx\nnonsensical\n2\n";
    let records: Vec<Record> = DtraceReader::new(text.as_bytes(), "t")
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        records[1],
        Record::Sample {
            ppt: "f():::ENTER".into(),
            nonce: None,
            values: vec![Value::Missing]
        }
    );
}

/// A hand-written trace: `f` called twice with its invocations nested
/// (nonce 2 inside nonce 1), `g` interleaved with them, an entry that never
/// exits (nonce 4) and an exit whose entry is not in the trace (nonce 9).
const INVOCATIONS: &str = "\
decl-version 2.0

ppt f():::ENTER
  ppt-type enter
  variable n
    var-kind variable
    rep-type int
    dec-type int

ppt f():::EXIT3
  ppt-type subexit
  variable n
    var-kind variable
    rep-type int
    dec-type int
  variable return
    var-kind return
    rep-type int
    dec-type int

ppt g():::ENTER
  ppt-type enter
  variable s
    var-kind variable
    rep-type java.lang.String
    dec-type char*

ppt g():::EXIT8
  ppt-type subexit
  variable s
    var-kind variable
    rep-type java.lang.String
    dec-type char*

f():::ENTER
this_invocation_nonce
1
n
10
1

g():::ENTER
this_invocation_nonce
3
s
\"abc\"
1

f():::ENTER
this_invocation_nonce
2
n
20
1

f():::EXIT3
this_invocation_nonce
2
n
0
1
return
21
1

g():::EXIT8
this_invocation_nonce
3
s
\"c\"
1

f():::EXIT3
this_invocation_nonce
1
n
5
1
return
11
1

f():::ENTER
this_invocation_nonce
4
n
40
1

f():::EXIT3
this_invocation_nonce
9
n
1
1
return
0
1

";

#[test]
fn exits_get_orig_from_the_entry_with_their_nonce() {
    let mut reader = DtraceReader::new(INVOCATIONS.as_bytes(), "t.dtrace");
    let mut invocations = Invocations::default();
    let mut exits = Vec::new();
    for record in reader.by_ref() {
        match record.unwrap() {
            Record::Decl(decl) => {
                let decl = invocations.declare(decl);
                if decl.name == "f():::EXIT3" {
                    let names: Vec<&str> = decl.vars.iter().map(|v| v.name.as_str()).collect();
                    assert_eq!(names, ["n", "return", "orig(n)"]);
                }
            }
            Record::Sample {
                ppt,
                nonce,
                mut values,
            } => {
                invocations.sample(&ppt, nonce, &mut values);
                if ppt.contains("EXIT") {
                    exits.push(values);
                }
            }
        }
    }
    let int = Value::Int;
    let s = |t: &str| Value::Str(t.into());
    assert_eq!(
        exits,
        [
            vec![int(0), int(21), int(20)],       // the inner call of f
            vec![s("c"), s("abc")],               // g, interleaved
            vec![int(5), int(11), int(10)],       // the outer call of f
            vec![int(1), int(0), Value::Missing]  // no entry with nonce 9
        ]
    );
}

#[test]
fn orig_invariants_are_learned_from_a_dtrace() {
    let mut engine = Engine::new(Config::default());
    let mut reader = DtraceReader::new(INVOCATIONS.as_bytes(), "t.dtrace");
    feed(&mut engine, &mut reader, &mut Invocations::default()).unwrap();
    let report = engine.finish().to_string();
    // The exit without an entry has no orig(n); the others have 10 and 20.
    assert!(report.contains("orig(n) one of { 10, 20 }"), "{report}");
}

#[test]
fn learned_non_finite_values_are_read_back_from_json() {
    let (points, samples) = (points(), samples());
    let mut engine = Engine::new(Config::default());
    let ids: Vec<_> = points.iter().map(|p| engine.declare(p.clone())).collect();
    for (p, _, values) in &samples {
        engine.add_sample(ids[*p], values).unwrap();
    }
    let report = engine.finish();
    let json = report.to_json();
    assert!(json.contains("\"inf\"") && !json.contains("null"), "{json}");
    let back: crate::Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back.to_string(), report.to_string());
}

#[test]
fn a_member_through_a_traced_pointer_is_a_field_of_it() {
    let point = PointDecl {
        name: "shift():::ENTER".into(),
        function: "shift".into(),
        kind: PointKind::Enter,
        vars: vec![
            VarDecl::new("p", Rep::Pointer),
            VarDecl::new("p->x", Rep::Int),
            VarDecl::new("q->y", Rep::Int),
            VarDecl::new("g.z", Rep::Int),
        ],
    };
    let mut out = Vec::new();
    write_decls(&mut out, &[point]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("  variable p->x\n    var-kind field x\n    enclosing-var p\n    dec-type int\n"),
        "{text}"
    );
    // No traced pointer q, no variable g: plain variables.
    for plain in ["q->y", "g.z"] {
        assert!(
            text.contains(&format!("  variable {plain}\n    var-kind variable\n")),
            "{text}"
        );
    }
}
