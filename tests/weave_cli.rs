//! `weft weave` as a user runs it: exit statuses, diagnostics, nothing
//! written on failure, `--diff`.

use std::path::Path;
mod weft_support;
use weft_support::weft_exits;

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/range-monitoring")
        .display()
        .to_string()
}

#[test]
fn an_aspect_error_exits_2_with_one_located_diagnostic_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let aspect = dir.path().join("bad.lara");
    std::fs::write(
        &aspect,
        "aspectdef A\n  select function.lop end\n  apply\n  end\nend\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (_, stderr) = weft_exits(
        2,
        [
            "weave",
            "--aspect",
            aspect.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            &example(),
        ],
    );
    assert!(stderr.contains("bad.lara:2:19"), "{stderr}");
    assert!(stderr.contains("did you mean `loop`?"), "{stderr}");
    assert!(!stderr.contains("error: error:"), "{stderr}");
    assert!(!out.exists(), "a failed weave must not create the output");
}

#[test]
fn a_missing_aspect_exits_2_and_names_the_file() {
    let (_, stderr) = weft_exits(2, ["weave", "--aspect", "no/such.lara", "--diff", &example()]);
    assert!(stderr.contains("no/such.lara"), "{stderr}");
}

#[test]
fn diff_prints_the_inserted_lines_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let aspect = dir.path().join("enter.lara");
    std::fs::write(
        &aspect,
        "aspectdef Enter\n  select function{\"clamp\"}.first_stmt end\n  apply\n    insert before 'v = v;';\n  end\nend\n",
    )
    .unwrap();
    let (stdout, _) = weft_exits(
        0,
        [
            "weave",
            "--aspect",
            aspect.to_str().unwrap(),
            "--diff",
            &example(),
        ],
    );
    let header = format!("+++ {}/stats.c\n", example());
    assert!(
        stdout.contains(&header),
        "absolute inputs are named as given: {stdout}"
    );
    assert!(stdout.contains("\n+    v = v;\n"), "{stdout}");
    let added = stdout
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .count();
    assert_eq!(added, 1, "one inserted line: {stdout}");
}

#[test]
fn woven_code_does_not_depend_on_how_the_input_path_was_spelled() {
    // Range entries and tables are named after the `file` attribute; they
    // must line up however the program's path is given.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let woven = |input: &str, out: &str| {
        let out = dir.path().join(out);
        let run = weft_support::command()
            .current_dir(root)
            .args(["weave", "--aspect", "aspects/ascv3.lara", "--output"])
            .arg(&out)
            .arg(input)
            .output()
            .expect("weft runs");
        weft_support::exited(&run, 0);
        std::fs::read_to_string(out.join("range-monitoring/stats.c")).unwrap()
    };
    let relative = woven("examples/range-monitoring", "a");
    let absolute = woven(&example(), "b");
    assert!(
        relative.contains("\"stats.c\""),
        "entries are named by the file's own path"
    );
    assert_eq!(relative, absolute);
}

#[test]
fn without_output_or_diff_weave_says_which_to_give() {
    let aspect = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara");
    let (_, err) = weft_exits(
        2,
        ["weave", "--aspect", &aspect.display().to_string(), &example()],
    );
    assert!(err.contains("--output DIR") && err.contains("--diff"), "{err}");
}
