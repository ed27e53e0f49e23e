//! `weft triage` on a hand-written meta program: `WEFT_REV` picks one of
//! the behaviours of a program meant to print |n| for the n on its stdin.
//! Revisions 0 and 5 print n (the original and a patch changing nothing),
//! 1 and 2 print |n| (2 also says so on stderr), 3 prints max(n, 0), 4
//! aborts on 0, 6 hangs on 7. Inputs: 5 (splits nothing), -3, 0, 7.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod weft_support;
use weft_support::{stderr, stdout};

const PROGRAM: &str = r#"#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *rev_text = getenv("WEFT_REV");
    int rev = rev_text ? atoi(rev_text) : 0;
    long n;
    volatile int spin = 1;
    if (scanf("%ld", &n) != 1) {
        fprintf(stderr, "no number\n");
        return 2;
    }
    switch (rev) {
    case 2:
        fprintf(stderr, "patched\n");
        /* fall through */
    case 1:
        printf("%ld\n", n < 0 ? -n : n);
        break;
    case 3:
        printf("%ld\n", n < 0 ? 0 : n);
        break;
    case 4:
        if (n == 0)
            abort();
        printf("%ld\n", n < 0 ? -n : n);
        break;
    case 6:
        while (n == 7 && spin)
            ;
        printf("%ld\n", n < 0 ? -n : n);
        break;
    default:
        printf("%ld\n", n);
    }
    return 0;
}
"#;

/// A directory with the program built as `abs`, its inputs in `inputs/`
/// and the same runs as test commands in `tests.txt`.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("abs.c"), PROGRAM).unwrap();
        let built = Command::new("gcc")
            .args(["-Wall", "-Werror", "-O1", "abs.c", "-o", "abs"])
            .current_dir(dir.path())
            .output()
            .expect("gcc runs");
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let inputs = dir.path().join("inputs");
        std::fs::create_dir(&inputs).unwrap();
        for (name, text) in [
            ("a-five", "5\n"),
            ("b-minus3", "-3\n"),
            ("c-zero", "0\n"),
            ("d-seven", "7\n"),
        ] {
            std::fs::write(inputs.join(name), text).unwrap();
        }
        std::fs::write(
            dir.path().join("tests.txt"),
            "# |n| for each n\necho 5 | ./abs\nprintf '%s\\n' -3 | ./abs\n\n./abs < inputs/c-zero\necho 7 | ./abs\n",
        )
        .unwrap();
        Fixture { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `weft triage` with `line` split at spaces.
    fn run(&self, line: &str) -> Output {
        self.triage(&line.split(' ').collect::<Vec<_>>())
    }

    /// Runs `weft triage ARGS` in the fixture's directory.
    fn triage(&self, args: &[&str]) -> Output {
        weft_support::command()
            .arg("triage")
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("weft runs")
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const CLASSES: [&str; 5] = [
    "class 1: revisions 0 (original), 5",
    "class 2: revisions 1, 2",
    "class 3: revision 3",
    "class 4: revision 4",
    "class 5: revision 6",
];

#[test]
fn inputs_give_the_classes_the_questions_and_both_reports() {
    let f = Fixture::new();
    let out = f.run("--revisions 1-6 --inputs inputs --timeout 1 --json t.json --markdown t.md -- ./abs");
    let text = stdout(&out);
    // Classes 1 and 2 hold two revisions each: not every revision is told apart.
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.starts_with("7 revisions x 4 inputs = 28 runs; compared: status, stdout, outputs"),
        "{text}"
    );
    assert!(text.contains("5 behaviour classes:"), "{text}");
    for class in CLASSES {
        assert!(text.contains(class), "{class}\n{text}");
    }
    assert!(text.contains("Every revision does the same on: a-five"), "{text}");
    assert!(text.contains("Questions (at most 3 to reach a class):"), "{text}");
    assert!(text.contains("Q1. On input b-minus3"), "{text}");
    assert!(
        text.contains(r#"1) stdout "-3\n"  -> class 1 (revisions 0 (original), 5)"#),
        "{text}"
    );
    assert!(text.contains(r#"2) stdout "3\n"   -> Q2"#), "{text}");
    assert!(text.contains("Q2 (after Q1 answer 2). On input c-zero"), "{text}");
    assert!(text.contains("signal 6"), "{text}");
    assert!(
        text.contains("Q3 (after Q2 answer 1). On input d-seven"),
        "{text}"
    );
    assert!(text.contains("timeout"), "{text}");
    assert!(
        text.contains("Questions per class: class 1: 1, class 2: 3, class 3: 1, class 4: 2, class 5: 3"),
        "{text}"
    );
    assert!(
        text.contains("Not told apart: some revisions behave the same on every input."),
        "{text}"
    );

    let report = json(&f.path("t.json"));
    assert_eq!(report["format"], "weft triage report");
    assert_eq!(report["version"], 1);
    assert_eq!(report["revisions"], serde_json::json!([0, 1, 2, 3, 4, 5, 6]));
    assert_eq!(report["command"], serde_json::json!(["./abs"]));
    assert_eq!(report["depth"], 3);
    assert_eq!(report["told_apart"], false);
    let classes: Vec<(serde_json::Value, serde_json::Value)> = report["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["revisions"].clone(), c["questions"].clone()))
        .collect();
    let expected = [("[0,5]", 1), ("[1,2]", 3), ("[3]", 1), ("[4]", 2), ("[6]", 3)]
        .map(|(r, q)| (serde_json::from_str(r).unwrap(), serde_json::json!(q)));
    assert_eq!(classes, expected);
    let minus3 = &report["inputs"][1];
    assert_eq!(minus3["name"], "b-minus3");
    assert_eq!(minus3["observations"][0]["stdout"], "-3\n");
    assert_eq!(minus3["observations"][0]["status"], "exit 0");
    assert_eq!(minus3["observations"][0]["revisions"], serde_json::json!([0, 5]));
    assert!(
        minus3["observations"][0].get("stderr").is_none(),
        "stderr is not compared"
    );
    assert_eq!(report["inputs"][0]["splits"], false);
    assert_eq!(report["inputs"][2]["observations"][1]["status"], "signal 6");
    assert_eq!(report["inputs"][3]["observations"][1]["status"], "timeout");
    let root = &report["tree"]["question"];
    assert_eq!(root["input"], 1);
    assert_eq!(
        root["answers"][0]["then"]["leaf"]["classes"],
        serde_json::json!([1])
    );
    assert_eq!(root["answers"][1]["then"]["question"]["input"], 2);
    assert_eq!(
        root["answers"][2]["then"]["leaf"]["classes"],
        serde_json::json!([3])
    );

    let md = std::fs::read_to_string(f.path("t.md")).unwrap();
    assert!(md.starts_with("# weft triage report\n"), "{md}");
    assert!(md.contains("| 2 | 1, 2 | 3 |"), "{md}");
    assert!(md.contains("### Q2 (after Q1 answer 2)"), "{md}");
    assert!(
        md.contains("2. `signal 6 | stdout \"\"` → class 4 (revision 4)"),
        "{md}"
    );

    // Its own reports are replaced by a second run.
    let again = f.run("--revisions 1,3 --no-original --inputs inputs --json t.json --markdown t.md -- ./abs");
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}{}",
        stdout(&again),
        stderr(&again)
    );
    assert!(stdout(&again).contains("Told apart: the questions single out every revision."));
    assert_eq!(json(&f.path("t.json"))["revisions"], serde_json::json!([1, 3]));
}

#[test]
fn test_commands_and_a_truth_give_the_same_classes_and_their_purity() {
    let f = Fixture::new();
    f.write(
        "truth",
        "# 1 and 2 are right\n0 wrong\n1 correct\n2 correct\n3 wrong\n4 wrong\n5 wrong\n6 wrong\n",
    );
    let args = "--revisions 0-6 --tests tests.txt --timeout 1 --truth truth";
    let (text, _) = weft_support::exited(&f.run(&format!("{args} --json t.json")), 0);
    for class in CLASSES {
        assert!(text.contains(class), "{class}\n{text}");
    }
    assert!(text.contains("class 2: revisions 1, 2 [correct]"), "{text}");
    assert!(
        text.contains("Purity 1.00 over 7 labelled revisions; no class mixes labels."),
        "{text}"
    );
    assert!(
        text.contains("Q1. On input tests.txt:3 (printf '%s\\n' -3 | ./abs)"),
        "{text}"
    );
    assert!(
        text.contains("Told apart: the questions separate every label."),
        "{text}"
    );
    let report = json(&f.path("t.json"));
    assert_eq!(report["truth"]["purity"], 1.0);
    assert_eq!(report["classes"][1]["label"], "correct");
    assert_eq!(report["inputs"][0]["input"], "echo 5 | ./abs");

    // Label revision 5 right: its class mixes labels.
    f.write("truth", "0 wrong\n1 correct\n2 correct\n5 correct\n");
    let (text, _) = weft_support::exited(&f.run(args), 1);
    assert!(
        text.contains(
            "Purity 0.75 over 4 labelled revisions; labels mixed in class 1; unlabelled: revisions 3, 4, 6."
        ),
        "{text}"
    );
    assert!(
        text.contains("Not told apart: some revisions of different labels behave the same."),
        "{text}"
    );
}

#[test]
fn what_is_compared_decides_the_classes() {
    let f = Fixture::new();
    let base = "--revisions 1-2 --no-original --inputs inputs --compare";
    let (text, _) = weft_support::exited(&f.run(&format!("{base} status,stdout,stderr -- ./abs")), 0);
    assert!(
        text.contains("class 1: revision 1\n  class 2: revision 2"),
        "{text}"
    );
    assert!(text.contains(r#"1) stderr ""           -> class 1"#), "{text}");
    assert!(text.contains(r#"2) stderr "patched\n"  -> class 2"#), "{text}");
    let out = f.run(&format!("{base} status -- ./abs"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("class 1: revisions 1, 2"),
        "{}",
        stdout(&out)
    );

    let out = f.run(&format!("{base} status,stdin -- ./abs"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`stdin` cannot be compared"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn kept_runs_hold_each_runs_files_and_the_input_mark_passes_a_path() {
    let f = Fixture::new();
    // `@@` is replaced by the input's path; the shell feeds it to abs.
    let out = f.triage(&[
        "--revisions",
        "3",
        "--inputs",
        "inputs",
        "--keep",
        "runs",
        "--",
        "sh",
        "-c",
        "./abs < \"$0\"",
        "@@",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let run = f.path("runs/rev-3/input-1");
    assert_eq!(std::fs::read_to_string(run.join("stdout")).unwrap(), "0\n");
    assert!(run.join("out").is_dir() && run.join("cwd").is_dir());
    assert_eq!(
        std::fs::read_to_string(f.path("runs/rev-0/input-1/stdout")).unwrap(),
        "-3\n"
    );
}

/// Revision 0 prints n, 1 computes and prints |n|, 2 computes n and prints
/// its magnitude: 1 and 2 print the same, but capture different values.
const CAPTURING: &str = r#"#include <stdio.h>
#include <stdlib.h>

#ifndef weft_output
#define weft_output(name, value) ((void)0)
#endif

int main(void)
{
    const char *rev_text = getenv("WEFT_REV");
    int rev = rev_text ? atoi(rev_text) : 0;
    long n, r;
    if (scanf("%ld", &n) != 1)
        return 2;
    r = rev == 1 && n < 0 ? -n : n;
    weft_output("r", r);
    printf("%ld\n", rev == 2 && r < 0 ? -r : r);
    return 0;
}
"#;

#[test]
fn captured_outputs_tell_apart_revisions_that_print_the_same() {
    let f = Fixture::new();
    std::fs::write(f.path("calc.c"), CAPTURING).unwrap();
    let aspect = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/outputs.lara");
    let woven = weft_support::command()
        .args([
            "weave",
            "--aspect",
            aspect.to_str().unwrap(),
            "--output",
            "woven",
            "calc.c",
        ])
        .current_dir(f.dir.path())
        .output()
        .unwrap();
    assert!(woven.status.success(), "{}", stderr(&woven));
    let built = Command::new("gcc")
        .args(["-O1", "woven/calc.c", "-o", "calc"])
        .current_dir(f.dir.path())
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let args = "--revisions 1-2 --inputs inputs --json t.json";
    let (text, _) = weft_support::exited(&f.run(&format!("{args} -- ./calc")), 0);
    assert!(text.contains("3 behaviour classes"), "{text}");
    assert!(
        text.contains(r#"3) stdout "3\n" | outputs calc.c{r=-3}   -> class 3 (revision 2)"#),
        "{text}"
    );
    let report = json(&f.path("t.json"));
    let captured = &report["inputs"][1]["observations"][1]["outputs"]["values"][0];
    assert_eq!(captured["unit"], "calc.c");
    assert_eq!(
        captured["values"],
        serde_json::json!([{"name": "r", "value": "3"}])
    );

    let out = f.run(&format!("{args} --compare status,stdout -- ./calc"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("class 2: revisions 1, 2"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_input_is_status_2_with_a_clear_message_and_no_report() {
    let f = Fixture::new();
    std::fs::create_dir(f.path("empty")).unwrap();
    std::fs::create_dir(f.path("existing")).unwrap();
    let not_ours = f.write("notes.json", "{\"mine\": true}\n");
    f.write("other-truth", "9 correct\n");
    let cases = [
        (
            "--revisions 0-3 --inputs empty -- ./abs",
            "no inputs: empty holds no regular file",
        ),
        (
            "--revisions 0-3 --inputs inputs --truth nowhere -- ./abs",
            "cannot read truth nowhere",
        ),
        (
            "--revisions 1-3 --inputs inputs --truth other-truth -- ./abs",
            "other-truth: labels none of the revisions run",
        ),
        (
            "--revisions 3-1 --inputs inputs -- ./abs",
            "bad revision list `3-1`: the range `3-1` goes backwards",
        ),
        (
            "--revisions 1,x --inputs inputs -- ./abs",
            "`x` is not a revision number",
        ),
        (
            "--revisions 1 --inputs inputs",
            "--inputs inputs needs the command to run, after `--`",
        ),
        (
            "--revisions 1 --tests tests.txt -- ./abs",
            "with --tests each line of tests.txt is a whole command",
        ),
        (
            "--revisions 1 --inputs inputs --timeout 0 -- ./abs",
            "--timeout 0: give a positive number of seconds",
        ),
        (
            "--revisions 1 --inputs inputs --keep existing -- ./abs",
            "--keep existing: give a new directory",
        ),
        ("--revisions 1 --inputs inputs --ask -- ./abs", "stdin is not one"),
    ];
    for (line, message) in cases {
        let out = f.run(&format!("{line} --json report.json"));
        assert_eq!(out.status.code(), Some(2), "{line}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{line}: {}", stderr(&out));
        assert!(!f.path("report.json").exists(), "{line} wrote a report");
        assert!(stdout(&out).is_empty(), "{line}: {}", stdout(&out));
    }
    let out = f.run("--revisions 1 --inputs inputs --json notes.json -- ./abs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("refusing to replace `notes.json`: it is not a triage report"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(not_ours).unwrap(), "{\"mine\": true}\n");
    // Neither --inputs nor --tests: clap's own usage error, also 2.
    let out = f.run("--revisions 1 -- ./abs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--inputs <DIR>"), "{}", stderr(&out));
}

#[test]
fn help_teaches_with_an_example() {
    let out = weft_support::command()
        .args(["triage", "--help"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("weft triage --revisions 1-8 --inputs inputs/ -- ./prog @@"),
        "{text}"
    );
    assert!(text.contains("Exit status: 0"), "{text}");
}

#[test]
fn a_triage_stopped_by_a_signal_removes_its_scratch_and_writes_no_report() {
    let fixture = Fixture::new();
    let tmp = fixture.path("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // Revision 6 spins on d-seven until the 30 s timeout: the signal comes
    // while runs are going.
    let mut child = weft_support::command()
        .args([
            "triage",
            "--revisions",
            "1-6",
            "--inputs",
            "inputs",
            "--timeout",
            "30",
        ])
        .args(["--json", "triage.json", "--", "./abs"])
        .current_dir(fixture.path(""))
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let running = || {
        std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .any(|d| d.path().read_dir().is_ok_and(|mut w| w.next().is_some()))
    };
    let start = std::time::Instant::now();
    while !running() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "triage ended before its runs were seen"
        );
        assert!(start.elapsed().as_secs() < 20, "no run started");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // Let the spinning run start too.
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: kill with the id of a child not yet waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + libc::SIGTERM), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("weft triage: stopped by signal 15"),
        "{}",
        stderr(&out)
    );
    assert!(start.elapsed().as_secs() < 20, "the spinning run was waited for");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|d| d.path())
        .collect();
    assert!(left.is_empty(), "scratch left: {left:?}");
    assert!(!fixture.path("triage.json").exists(), "a report was written");
}
