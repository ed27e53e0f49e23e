//! The interpreter against a mock host: selections, filters, conditions,
//! joins, interpolation, insert order, control flow, calls, inputs, limits
//! and error locations.

mod aspect_support;
mod engine_support;
mod weft_support;

use engine_support::{MockHost, ROOT, s};
use weft::diag::SourceFile;
use weft::engine::{EngineError, RunReport};
use weft::joinpoint::Value;

fn run_with(src: &str, host: &mut MockHost, args: &[(&str, &str)]) -> Result<RunReport, EngineError> {
    let module = weft::aspect::load_source(SourceFile::new("t.lara", src), &weft::Limits::default())
        .unwrap_or_else(|e| panic!("does not parse:\n{e}"));
    let args: Vec<(String, String)> = args.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    aspect_support::run_aspect(&module, &args, host)
}

fn run(src: &str, host: &mut MockHost) -> RunReport {
    run_with(src, host, &[]).unwrap_or_else(|e| panic!("run failed:\n{e}"))
}

/// main with a for loop (rank 1, first statement) and a while loop (rank 2).
fn loops() -> MockHost {
    let mut h = MockHost::new();
    let main = h.add(ROOT, "function", &[("name", s("main"))]);
    let l1 = h.add(
        main,
        "loop",
        &[("name", s("L1")), ("type", s("for")), ("rank", Value::Int(1))],
    );
    h.add(l1, "first_stmt", &[("name", s("S1"))]);
    let l2 = h.add(
        main,
        "loop",
        &[("name", s("L2")), ("type", s("while")), ("rank", Value::Int(2))],
    );
    h.add(l2, "first_stmt", &[("name", s("S2"))]);
    h
}

#[test]
fn loop_iterations_figure_2_1() {
    let mut h = loops();
    run(
        r#"aspectdef LoopIterations
var id = 0;
select loop.first_stmt end
apply
    $loop.insert before 'int counter_[[id]] = 0;';
    $loop.insert after %{printf("loop [[$loop.rank]]:%d\n", counter_[[id]]);}%;
    $first_stmt.insert before 'counter_[[id]]++;';
    id++;
end
condition $loop.type == "for" end
end"#,
        &mut h,
    );
    assert_eq!(
        h.log,
        vec![
            "before L1: int counter_0 = 0;",
            "after L1: printf(\"loop 1:%d\\n\", counter_0);",
            "before S1: counter_0++;",
            "commit",
        ]
    );
}

#[test]
fn filters_by_name_and_by_script_variable() {
    let mut h = MockHost::new();
    let f = h.add(ROOT, "function", &[("name", s("f"))]);
    h.add(f, "loop", &[("name", s("Lf")), ("type", s("for"))]);
    let main = h.add(ROOT, "function", &[("name", s("main"))]);
    h.add(main, "loop", &[("name", s("Lm")), ("type", s("for"))]);
    let src = r#"aspectdef A
input funcName = "f" end
select function{"main"} end
apply insert before '/* main */'; end
select function{name==funcName}.loop{type=='for'} end
apply $loop.insert after '/* picked */'; end
end"#;
    run(src, &mut h);
    assert_eq!(
        h.log,
        vec![
            "before main: /* main */",
            "commit",
            "after Lf: /* picked */",
            "commit"
        ]
    );
    let mut h2 = MockHost::new();
    let main = h2.add(ROOT, "function", &[("name", s("main"))]);
    h2.add(main, "loop", &[("name", s("Lm")), ("type", s("for"))]);
    run_with(src, &mut h2, &[("funcName", "main")]).unwrap();
    assert_eq!(h2.log[2], "after Lm: /* picked */");
}

#[test]
fn apply_to_joins_on_common_prefix() {
    let mut h = MockHost::new();
    for (fname, params) in [("f", vec!["a", "b"]), ("g", vec!["c"])] {
        let f = h.add(ROOT, "function", &[("name", s(fname))]);
        for p in params {
            h.add(f, "param", &[("name", s(p))]);
        }
        let body = h.add(f, "body", &[]);
        h.add(body, "first_stmt", &[("name", s(&format!("{fname}_first")))]);
    }
    run(
        r#"aspectdef InstrumentParameters
P: select function.param end
F: select function.body.first_stmt end
apply to F::P
    $first_stmt.insert before 'update([[$function.name]], [[$param.name]]);';
end
condition $param.name != "b" end
end"#,
        &mut h,
    );
    assert_eq!(
        h.log,
        vec![
            "before f_first: update(f, a);",
            "before g_first: update(g, c);",
            "commit"
        ]
    );
}

#[test]
fn break_and_continue_inside_apply() {
    let mut h = MockHost::new();
    for name in ["a", "b", "c", "d"] {
        h.add(ROOT, "function", &[("name", s(name))]);
    }
    run(
        r#"aspectdef A
select function end
apply
    if ($function.name == "b") continue;
    if ($function.name == "d") { break; }
    insert before '[[$function.name]]';
end
select function end
apply
    insert before 'once';
    break;
end
end"#,
        &mut h,
    );
    assert_eq!(
        h.log,
        vec!["before a: a", "before c: c", "commit", "before a: once", "commit"]
    );
}

#[test]
fn call_passes_inputs_and_reads_outputs() {
    let mut h = MockHost::new();
    let report = run(
        r#"aspectdef Main
    var o = new LaraObject();
    call res : Choose(0.5, 'x');
    println(res.picked.length + " " + res.picked[0] + " " + res.tag);
    call Count(o);
    call Count(o);
    println("total " + o.getTotal());
end
aspectdef Choose
    input threshold, prefix = 'p', unused end
    output picked, tag = 'T' end
    picked = [];
    var scores = #{ a: 1, b: 0.2, c: 0.9 };
    for (var k in scores) {
        if (scores[k] > threshold) picked.push(prefix + k);
    }
end
aspectdef Count
    input obj end
    obj.getId('write', 'main', 'x');
    obj.getId('write', 'main', 'y');
end"#,
        &mut h,
    );
    assert_eq!(report.printed, vec!["2 xa T", "total 2"]);
}

#[test]
fn inputs_take_defaults_and_typed_args() {
    let src = r#"aspectdef A
input n = 2, flag = false, label end
println(n * 2);
println(flag == true);
println(label);
end"#;
    let mut h = MockHost::new();
    assert_eq!(run(src, &mut h).printed, vec!["4", "false", ""]);
    let report = run_with(src, &mut h, &[("n", "5"), ("flag", "true"), ("label", "hi")]).unwrap();
    assert_eq!(report.printed, vec!["10", "true", "hi"]);
    let err = run_with(src, &mut h, &[("lable", "x")]).unwrap_err().to_string();
    assert!(
        err.contains("has no input `lable`") && err.contains("did you mean `label`?"),
        "{err}"
    );
}

#[test]
fn perform_forms_and_refused_unroll() {
    let mut h = loops();
    run(
        r#"aspectdef PrepareProgram
select program end
apply
    $program.SingleDeclarator();
    $program.perform NormalizeReturn();
    perform UnaryExpansion(1, "x");
end
end"#,
        &mut h,
    );
    assert_eq!(
        h.log,
        vec![
            "perform SingleDeclarator[] on program#0",
            "perform NormalizeReturn[] on program#0",
            "perform UnaryExpansion[Int(1), Str(\"x\")] on program#0",
            "commit"
        ]
    );
    let err = run_with(
        "aspectdef UnrollLoopsBy2\nselect loop{type==\"for\"} end\napply\n  perform Unroll(2);\nend\nend",
        &mut loops(),
        &[],
    )
    .unwrap_err();
    assert!(matches!(err, EngineError::Host { .. }));
    let text = err.to_string();
    assert!(
        text.contains("t.lara:4:3") && text.contains("loop unrolling is not implemented"),
        "{text}"
    );
}

#[test]
fn refused_insert_is_a_located_warning() {
    let mut h = MockHost::new();
    let f = h.add(ROOT, "function", &[("name", s("f"))]);
    h.add(f, "return", &[("refuse", Value::Bool(true))]);
    let report = run(
        "aspectdef A\nselect function.return end\napply\n    $return.insert after 'x();';\nend\nend",
        &mut h,
    );
    assert_eq!(report.warnings.len(), 1);
    let w = &report.warnings[0];
    assert_eq!(w.c_location, "t.c:3:5");
    assert_eq!(w.diagnostic.location().as_deref(), Some("t.lara:4:5"));
}

#[test]
fn endless_loop_hits_the_operation_limit() {
    let err = run_with(
        "aspectdef A\nvar i = 0;\nwhile (true) { i++; }\nend",
        &mut MockHost::new(),
        &[],
    )
    .unwrap_err();
    assert!(matches!(err, EngineError::Limit(_)), "{err}");
    assert!(err.to_string().contains("t.lara:3"), "{err}");
}

#[test]
fn script_errors_point_at_the_aspect() {
    let err = run_with(
        "aspectdef A\n  var x = 1;\n  var y = x + undefinedThing;\nend",
        &mut MockHost::new(),
        &[],
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("t.lara:3:15"), "{text}");
    assert!(text.contains("undefinedThing"), "{text}");
    assert!(text.contains("^^^^^^^^^^^^^^"), "{text}");
}

#[test]
fn unknown_names_are_reported_with_suggestions() {
    let err = run_with(
        "aspectdef A\nselect fuction.loop end\napply println($loop.rnak); end\ncall B();\nend\naspectdef Bee end",
        &mut MockHost::new(),
        &[],
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("unknown join point `fuction`") && text.contains("did you mean `function`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown attribute `rnak`") && text.contains("did you mean `rank`?"),
        "{text}"
    );
    assert!(
        text.contains("unknown aspect `B`") && text.contains("`Bee`"),
        "{text}"
    );
}

#[test]
fn js_idioms_run() {
    let report = run(
        r#"aspectdef A
    var present = function(array, key) {
        for (el in array) { if (array[el] === key) return true; }
        return false;
    };
    function twice(x) { return x * 2; }
    var o = {};
    o['k'] = undefined;
    println(present(['a', 'b'], 'b') + " " + present([], 'z') + " " + twice(3) + " " + (1 / 4) + " " + (6 / 3));
    for (var i in "ab") println(i);
    var n = 0;
    for x in [1, 2, 3] { n += x; }
    println(n.toString());
end"#,
        &mut MockHost::new(),
    );
    assert_eq!(report.printed, vec!["true false 6 0.25 2", "0", "1", "6"]);
}

#[test]
fn json_files_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json").display().to_string().replace('\\', "/");
    let src = format!(
        "aspectdef A\nwriteJSON('{path}', #{{ total: 4, 'main#x': 2 }});\nvar r = fileToJSON('{path}');\nprintln(r['main#x'] / r['total']);\nend"
    );
    assert_eq!(run(&src, &mut MockHost::new()).printed, vec!["0.5"]);
}

#[test]
fn select_sees_edits_of_previous_applies() {
    let mut h = loops();
    run(
        "aspectdef A\nselect loop end\napply insert before 'a'; end\nselect loop end\napply insert before 'b'; end\nend",
        &mut h,
    );
    assert_eq!(h.commits, 2);
    assert_eq!(
        h.log,
        vec![
            "before L1: a",
            "before L2: a",
            "commit",
            "before L1: b",
            "before L2: b",
            "commit"
        ]
    );
}

#[test]
fn check_reports_script_syntax_in_the_aspect() {
    let src = "aspectdef A\n  select loop end\n  apply\n    x = ;\n  end\nend";
    let module = weft::aspect::load_source(SourceFile::new("t.lara", src), &weft::Limits::default()).unwrap();
    let text = weft::engine::check(&module, &weft::Limits::default()).to_string();
    assert!(text.contains("t.lara:4:"), "{text}");
    let err = run_with(src, &mut loops(), &[]).unwrap_err().to_string();
    assert!(err.contains("t.lara:4:"), "{err}");
}

#[test]
fn names_rhai_reserves_work_as_script_names() {
    let report = run(
        r#"aspectdef A
    input default = 3 end
    output match end
    var shared = #{ var: 1, function: 2 };
    function static(is) { return is + 1; }
    for (var async in [5]) { match = static(default) + shared.var + shared.function + async; }
    println(match);
end"#,
        &mut MockHost::new(),
    );
    assert_eq!(report.printed, vec!["7"]);
}

#[test]
fn an_undefined_interpolation_is_an_error_at_the_literal() {
    let mut h = loops();
    let err = run_with(
        "aspectdef A\nvar m = #{};\nselect loop end\napply\n    $loop.insert before 'c[[[m[$loop.name]]]]++;';\nend\nend",
        &mut h,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("is undefined here") && err.contains("t.lara:5:"),
        "{err}"
    );
    assert!(h.log.is_empty(), "nothing was inserted: {:?}", h.log);
}

#[test]
fn subscripts_around_interpolations_and_map_keys_in_sorted_order() {
    let mut h = loops();
    run(
        "aspectdef A\nvar m = #{zeta: 1, alpha: 2};\nvar order = '';\nfor (var k in m) { order += k; }\n\
         select loop end\napply\n    $loop.insert before 'a[[[m[\"alpha\"]]]][[[order]]] = 0;';\nend\nend",
        &mut h,
    );
    assert_eq!(h.log[0], "before L1: a[2][alphazeta] = 0;");
}

/// What `weft weave` prints for a refused insert: the aspect location with
/// a caret, and the C location with the reason.
#[test]
fn a_refused_insert_is_shown_at_the_aspect_with_the_c_location() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.c"), "int f(void)\n{\n    return 1;\n}\n").unwrap();
    let aspect = dir.path().join("a.lara");
    std::fs::write(
        &aspect,
        "aspectdef A\n  select function.return end\n  apply\n    $return.insert after 'x();';\n  end\nend\n",
    )
    .unwrap();
    let out = weft_support::command()
        .arg("weave")
        .arg("--aspect")
        .arg(&aspect)
        .arg("--diff")
        .arg(dir.path().join("a.c"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a.lara:4:"), "aspect location: {err}");
    assert!(err.contains("a.c:3:"), "C location: {err}");
    assert!(err.contains('^'), "caret: {err}");
}

/// The tuples of one select are walked as the apply's loop asks for them:
/// a select failing at a later join point still fails the apply at its
/// `apply`, with nothing committed, as when every tuple was selected first.
#[test]
fn a_select_failing_while_its_apply_walks_it_fails_the_apply_uncommitted() {
    let mut h = MockHost::new();
    let f = h.add(ROOT, "function", &[("name", s("f"))]);
    h.add(f, "loop", &[("rank", Value::Int(1))]);
    let g = h.add(ROOT, "function", &[("name", s("g"))]);
    // No `rank`: the filter fails here, after f's tuple was acted on.
    h.add(g, "loop", &[]);
    let err = run_with(
        "aspectdef A\nselect function.loop{rank == 1} end\napply\n  $loop.insert before 'x++;';\nend\nend",
        &mut h,
        &[],
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rank"), "{text}");
    assert!(text.contains("t.lara:3:1"), "{text}");
    assert_eq!(h.commits, 0, "an apply whose select failed committed");
}

/// A host giving a select's join points a part at a time is asked for the
/// next part only when the apply is done with the last one's (a large
/// file's walk parses each piece once); the tuples are those of a select
/// of everything at once, in the same order, and a part with nothing in
/// it is walked past.
#[test]
fn an_apply_acts_on_each_part_of_a_select_before_the_next_is_asked_for() {
    let aspect = "aspectdef A\nselect function.loop end\napply\n  $loop.insert before 'x++;';\nend\nend";
    let build = |parted: bool| {
        let mut h = MockHost::new();
        h.parted = parted;
        let f = h.add(ROOT, "function", &[("name", s("f"))]);
        h.add(f, "loop", &[("name", s("f1"))]);
        h.add(f, "loop", &[("name", s("f2"))]);
        h.add(ROOT, "global", &[("name", s("x"))]);
        let g = h.add(ROOT, "function", &[("name", s("g"))]);
        h.add(g, "loop", &[("name", s("g1"))]);
        h
    };
    let mut parted = build(true);
    run(aspect, &mut parted);
    assert_eq!(
        parted.log,
        [
            "part 0",
            "before f1: x++;",
            "before f2: x++;",
            "part 1",
            "part 2",
            "before g1: x++;",
            "commit"
        ]
    );
    let mut whole = build(false);
    run(aspect, &mut whole);
    let acted = |log: &[String]| {
        log.iter()
            .filter(|l| !l.starts_with("part"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(acted(&parted.log), whole.log);
}

/// Walked depth first, a chain gives its tuples in the order of its first
/// step, then of the next: the order of stepping breadth first.
#[test]
fn chains_give_tuples_by_their_first_step_then_the_next() {
    let mut h = loops();
    let report = run(
        "aspectdef A\nselect function.loop.first_stmt end\napply\n  println($loop.name + ' ' + $first_stmt.name);\nend\nend",
        &mut h,
    );
    assert_eq!(report.printed, ["L1 S1", "L2 S2"]);
}
