//! Loops that read past end of file (the corpus's read-eof class), woven
//! by aspects/nonterm.lara with `--arg src=bitvector` and run on inputs
//! that reach end of file: each program whose loop has an SRC at end of
//! file is reported by it, at once (at the first condition evaluation
//! after end of file, not after a revisit patience); each terminating twin ends with no
//! report and prints what its plain build prints. Needs z3 and gcc.

mod corpus_support;
mod program_support;
mod weft_support;
use corpus_support::{Program, corpus, corpus_dir};
use weft_support::weave;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use weft::monitor::nonterm::record::FORMAT;
use weft::monitor::nonterm::{Report, Verdict, read_reports};
use weft_loops::{Semantics, find, loops};

/// Whether a loop of the file has a bit-vector SRC (found and re-verified).
fn has_src(path: &Path) -> bool {
    let solver = weft_smt::Solver::find(None, Duration::from_secs(10)).expect("z3: scripts/install-deps.sh");
    let text = std::fs::read_to_string(path).unwrap();
    loops(path, &text).iter().any(|l| {
        l.fragment
            .as_ref()
            .is_ok_and(|f| find(f, Semantics::BitVector, &solver).unwrap().is_ok())
    })
}

fn gcc(source: &Path, exe: &Path) {
    program_support::gcc(&["-std=gnu99", "-O1", "-w"], source, exe);
}

/// Runs `exe arg` with reports going to `out` (no revisit patience set:
/// the default), killed after 10 s; standard input is empty.
fn run(exe: &Path, arg: &str, out: &Path) -> Output {
    Command::new("timeout")
        .args(["-s", "KILL", "10"])
        .arg(exe)
        .arg(arg)
        .env("WEFT_OUT", out)
        .output()
        .unwrap()
}

fn reports(out: &Path) -> Vec<Report> {
    if !out.exists() {
        return Vec::new();
    }
    FORMAT
        .files_in(out)
        .unwrap()
        .iter()
        .flat_map(|f| read_reports(f).unwrap_or_else(|e| panic!("{e}")).reports)
        .collect()
}

#[test]
fn end_of_file_hangs_are_reported_at_once_and_twins_run_as_before() {
    let corpus = corpus();
    let programs: Vec<&Program> = corpus.program.iter().filter(|p| p.class == "read-eof").collect();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input");
    std::fs::create_dir(&input).unwrap();
    for p in &programs {
        for suffix in ["", ".twin"] {
            let name = format!("{}{suffix}.c", p.name);
            std::fs::copy(corpus_dir().join(&name), input.join(&name)).unwrap();
        }
    }
    let woven = dir.path().join("woven");
    weave("nonterm.lara", &["--arg", "src=bitvector"], &woven, &input);
    let mut reported = 0;
    for p in &programs {
        let (bug_exe, twin_out) = p.build_and_run_twins(dir.path(), &woven.join("input"), gcc, run);
        assert_eq!(
            reports(&twin_out),
            vec![],
            "{}: a terminating twin was reported",
            p.name
        );

        let bug_out = dir.path().join(format!("{}.out", p.name));
        let bug = run(&bug_exe, &p.arg, &bug_out);
        let found = reports(&bug_out);
        if !has_src(&corpus_dir().join(format!("{}.c", p.name))) {
            continue;
        }
        let first = found
            .first()
            .unwrap_or_else(|| panic!("{}: its SRC check never fired ({:?})", p.name, bug.status));
        assert_eq!(first.verdict, Verdict::Recurrence, "{}", p.name);
        // The inputs hold at most 26 bytes: the check fires at the first
        // evaluation after end of file is met, long before a revisit
        // patience (WEFT_NONTERM_PATIENCE, 10^8 by default).
        assert!(
            first.iteration <= 30,
            "{}: reported at iteration {}",
            p.name,
            first.iteration
        );
        assert!(
            !bug.status.success(),
            "{}: the abort policy did not stop it",
            p.name
        );
        reported += 1;
    }
    // Every program of the class but one has an SRC at end of file
    // (read_eof_until_full's condition takes a sizeof).
    assert!(
        reported + 1 >= programs.len(),
        "{reported} of {} reported",
        programs.len()
    );
}

/// `weft nonterm analyse` prints an SRC found at end of file with its
/// assumption, in text and in JSON.
#[test]
fn analyse_says_the_assumption() {
    let file = corpus_dir().join("getc_line_length.c");
    let analyse = |json: bool| {
        let out = weft_support::command()
            .args(["nonterm", "analyse", "--semantics", "bitvector"])
            .args(json.then_some("--json"))
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = analyse(false);
    assert!(
        text.contains("SRC under bit-vectors at the types' widths: feof(f) && c == ((-1)) && ")
            && text.contains("[stuck path, assuming end of file is sticky]"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(analyse(true).lines().next().unwrap()).unwrap();
    let result = &json["results"][0];
    assert_eq!(result["assumption"], "assuming end of file is sticky", "{json}");
    assert_eq!(result["stuck"], true, "{json}");
    assert!(
        result["src"].as_str().unwrap().starts_with("feof(f) && "),
        "{json}"
    );
}
