//! Nothing of the user's is ever lost: every command that writes refuses,
//! before touching anything, a destination holding its inputs or files weft
//! did not write, and says why.

use std::path::Path;
use std::process::{Command, Output};

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("run weft")
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A directory `d` with a C file, an aspect and a note of the user's.
fn user_dir() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("d");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("prog.c"), "int main(void) { return 0; }\n").unwrap();
    std::fs::write(
        d.join("x.lara"),
        "aspectdef X\n  select function end\n  apply\n  end\nend\n",
    )
    .unwrap();
    std::fs::write(d.join("notes.txt"), "mine\n").unwrap();
    (tmp, d)
}

#[test]
fn an_output_holding_the_inputs_is_refused_and_nothing_is_touched() {
    let (_tmp, d) = user_dir();
    let s = |p: &str| d.join(p).display().to_string();
    let out = weft(&[
        "weave",
        "--aspect",
        &s("x.lara"),
        "--output",
        &s(""),
        &s("prog.c"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds input"), "{err}");
    assert_eq!(text(&d.join("notes.txt")), "mine\n");
    assert!(d.join("x.lara").is_file() && d.join("prog.c").is_file());
    // The aspect alone inside the output is refused too.
    let src = d.parent().unwrap().join("src.c");
    std::fs::write(&src, "int y;\n").unwrap();
    let out = weft(&[
        "weave",
        "--aspect",
        &s("x.lara"),
        "--output",
        &s(""),
        &src.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text(&d.join("notes.txt")), "mine\n");
}

#[test]
fn a_foreign_directory_is_refused_and_weft_s_own_output_is_replaced() {
    let (tmp, d) = user_dir();
    let s = |p: &Path| p.display().to_string();
    let foreign = tmp.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("keep.txt"), "x").unwrap();
    let args = |out: &Path| {
        vec![
            "weave".to_string(),
            "--aspect".into(),
            s(&d.join("x.lara")),
            "--output".into(),
            s(out),
            s(&d.join("prog.c")),
        ]
    };
    let run = |out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(args(out))
            .output()
            .unwrap()
    };
    let refused = run(&foreign);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("was not written by weft"));
    assert!(foreign.join("keep.txt").is_file());
    let ours = tmp.path().join("woven");
    assert!(run(&ours).status.success());
    assert!(ours.join(".weft-output").is_file() && ours.join("prog.c").is_file());
    assert!(
        run(&ours).status.success(),
        "weft's own output is replaced on the next run"
    );
    let transform = weft(&[
        "transform",
        "--pass",
        "SingleDeclarator",
        "--output",
        &s(&foreign),
        &s(&d.join("prog.c")),
    ]);
    assert_eq!(
        transform.status.code(),
        Some(2),
        "transform claims its output the same way"
    );
    assert!(foreign.join("keep.txt").is_file());
}

#[test]
fn ranges_never_overwrite_a_file_that_is_not_theirs() {
    let (tmp, d) = user_dir();
    let s = |p: &Path| p.display().to_string();
    let set = tmp.path().join("set.json");
    std::fs::write(
        &set,
        r#"{"format": "weft-ranges", "version": 1, "runs": [], "entries": []}"#,
    )
    .unwrap();
    let out = weft(&["ranges", "merge", &s(&set), "-o", &s(&d.join("prog.c"))]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("refusing to replace"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text(&d.join("prog.c")), "int main(void) { return 0; }\n");
}
