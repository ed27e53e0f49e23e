//! `weft select` over real C files.

mod weft_support;

fn select(args: &[&str]) -> (Option<i32>, String, String) {
    let main_c = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/loop-iterations/main.c");
    let out = weft_support::command()
        .arg("select")
        .args(args)
        .arg(main_c)
        .output()
        .expect("weft runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn lists_matches_with_location_and_attributes() {
    let (code, stdout, stderr) = select(&[r#"function{"main"}.loop{type=="for"}"#]);
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].contains("main.c:5: loop") && lines[0].contains("num_iterations=10"),
        "{stdout}"
    );
    assert!(lines[1].contains("main.c:12: loop"), "{stdout}");
}

#[test]
fn join_point_lists_are_shown_by_name() {
    // A loop's state lists var join points: shown as their names.
    let (code, stdout, stderr) = select(&[r#"function{"main"}.loop{type=="while"}"#]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(r#"state=["j"]"#) && stdout.contains("state_exact=true"),
        "{stdout}"
    );
}

#[test]
fn json_output_names_every_step() {
    let (code, stdout, stderr) = select(&["function.loop", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let matches = json.as_array().unwrap();
    assert_eq!(matches.len(), 3);
    assert_eq!(matches[1]["attributes"]["kind"], "while");
    assert_eq!(matches[1]["tuple"]["function"]["line"], 3);
}

#[test]
fn unknown_kind_is_an_error_with_a_suggestion() {
    let (code, _, stderr) = select(&["fnction.loop"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unknown join point `fnction`") && stderr.contains("did you mean `function`?"),
        "{stderr}"
    );
}
