//! Nothing of the user's is ever lost: every command that writes refuses,
//! before touching anything, a destination holding its inputs or files weft
//! did not write, and says why.

use std::path::Path;

mod weft_support;
use weft_support::{weft, weft_exits};

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
    let (_, err) = weft_exits(
        2,
        [
            "weave",
            "--aspect",
            &s("x.lara"),
            "--output",
            &s(""),
            &s("prog.c"),
        ],
    );
    assert!(err.contains("holds input"), "{err}");
    assert_eq!(text(&d.join("notes.txt")), "mine\n");
    assert!(d.join("x.lara").is_file() && d.join("prog.c").is_file());
    // The aspect alone inside the output is refused too.
    let src = d.parent().unwrap().join("src.c");
    std::fs::write(&src, "int y;\n").unwrap();
    weft_exits(
        2,
        [
            "weave",
            "--aspect",
            &s("x.lara"),
            "--output",
            &s(""),
            &src.display().to_string(),
        ],
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
    let (_, refused) = weft_exits(2, args(&foreign));
    assert!(refused.contains("was not written by weft"));
    assert!(foreign.join("keep.txt").is_file());
    let ours = tmp.path().join("woven");
    weft_exits(0, args(&ours));
    assert!(ours.join(".weft-output").is_file() && ours.join("prog.c").is_file());
    // weft's own output is replaced on the next run.
    weft_exits(0, args(&ours));
    // transform claims its output the same way.
    weft_exits(
        2,
        [
            "transform",
            "--pass",
            "SingleDeclarator",
            "--output",
            &s(&foreign),
            &s(&d.join("prog.c")),
        ],
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
    let out = weft(["ranges", "merge", &s(&set), "-o", &s(&d.join("prog.c"))]);
    assert!(!out.status.success());
    let err = weft_support::stderr(&out);
    assert!(err.contains("refusing to replace"), "{err}");
    assert_eq!(text(&d.join("prog.c")), "int main(void) { return 0; }\n");
}
