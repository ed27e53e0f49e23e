//! `weft parse-health` output.

mod weft_support;
use weft_support::{weft, weft_exits};

#[test]
fn json_report_has_the_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.h"), "#define local static\n").unwrap();
    std::fs::write(
        dir.path().join("a.c"),
        "#include \"m.h\"\nlocal int f(void) { return 1; }\nint g(void) {\n  BROKEN(x) + ;\n}\n",
    )
    .unwrap();
    let (stdout, _) = weft_exits(0, ["parse-health", "--json", dir.path().to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["files"], 1);
    assert_eq!(v["functions"], 2);
    assert_eq!(v["functions_ok"], 1);
    assert!(v["per_file"][0]["regions"][0]["line"].as_u64().is_some());
    assert_eq!(v["culprits"][0]["name"], "BROKEN");
}

#[test]
fn text_report_and_help() {
    let help = weft(["parse-health", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--macro-file") && help.contains("culprits"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.c"), "int f(void) { return 0; }\n").unwrap();
    let out = weft(["parse-health", dir.path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1/1 function definitions understood"));
}

/// `weft … | head`: a reader that goes away ends weft quietly (as SIGPIPE
/// ends other tools), never with a panic.
#[test]
fn a_closed_pipe_ends_weft_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    for args in [&["joinpoints"][..], &["parse-health", "tests/fixtures"][..]] {
        let mut child = weft_support::command()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            out.status
        );
    }
}
