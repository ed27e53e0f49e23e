//! Behaviour preservation: every program of
//! `tests/fixtures/transform/run/` (and every golden input that has a
//! `main`) is compiled and run before and after each pass and after all
//! five in MANET's order; the outputs must be identical. Programs that
//! compile warning-free under `gcc -Wall` must stay warning-free
//! (`-Werror`) after the passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use weft::c::{FrontEnd, MacroTable};
use weft::program::transform_text;
use weft::transform::pass_names;

fn programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let run = root.join("tests/fixtures/transform/run");
    let golden = root.join("tests/golden/transform");
    let dirs = std::fs::read_dir(&golden)
        .unwrap()
        .map(|d| d.unwrap().path())
        .chain([run]);
    for dir in dirs {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if name.ends_with(".c") && !name.ends_with(".expected.c") && text.contains("int main(") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Compiles `source` with `flags` and runs it; `Err` holds the compiler's
/// complaint.
fn compile_and_run(dir: &Path, tag: &str, source: &str, flags: &[&str]) -> Result<String, String> {
    let c = dir.join(format!("{tag}.c"));
    let exe = dir.join(tag);
    std::fs::write(&c, source).unwrap();
    let out = Command::new("gcc")
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("gcc runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).to_string());
    }
    let run = Command::new(&exe).output().expect("program runs");
    Ok(format!(
        "status {:?}\n{}",
        run.status.code(),
        String::from_utf8_lossy(&run.stdout)
    ))
}

#[test]
fn passes_preserve_program_output() {
    let tmp = tempfile::tempdir().unwrap();
    let all: Vec<&str> = pass_names().iter().map(|(n, _)| *n).collect();
    let mut plans: Vec<Vec<&str>> = all.iter().map(|p| vec![*p]).collect();
    plans.push(all.clone());
    let mut failures = Vec::new();
    for program in programs() {
        let text = std::fs::read_to_string(&program).unwrap();
        let strict = ["-Wall", "-Werror", "-O1"];
        let lax = ["-w", "-O1"];
        let (flags, expected) = match compile_and_run(tmp.path(), "orig", &text, &strict) {
            Ok(out) => (&strict[..], out),
            Err(_) => {
                let out = compile_and_run(tmp.path(), "orig", &text, &lax)
                    .unwrap_or_else(|e| panic!("{} does not compile: {e}", program.display()));
                (&lax[..], out)
            }
        };
        for plan in &plans {
            let files = [(program.clone(), text.clone())];
            let front_end = FrontEnd::new(MacroTable::learn([(program.as_path(), text.as_str())]));
            let (texts, _) = transform_text(&front_end, &files, plan, &[]).unwrap();
            match compile_and_run(tmp.path(), "after", &texts[0], flags) {
                Ok(out) if out == expected => {}
                Ok(out) => failures.push(format!(
                    "{} after {plan:?}: output changed\nbefore:\n{expected}\nafter:\n{out}",
                    program.display()
                )),
                Err(e) => failures.push(format!(
                    "{} after {plan:?} does not compile with {flags:?}:\n{e}\n{}",
                    program.display(),
                    texts[0]
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
