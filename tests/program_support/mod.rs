//! Building the C programs the tests weave with gcc, and running them: the
//! flags and the exit status a test expects stay at its call.

use std::path::Path;
use std::process::Command;

/// Compiles `source` into `exe` with `gcc FLAGS -o EXE SOURCE`, which must
/// succeed (the failure names the source, the flags and gcc's errors).
#[allow(dead_code)]
pub fn gcc(flags: &[&str], source: &Path, exe: &Path) {
    let cc = Command::new("gcc")
        .args(flags)
        .arg("-o")
        .arg(exe)
        .arg(source)
        .output()
        .expect("gcc runs");
    assert!(
        cc.status.success(),
        "{}: {flags:?}: {}",
        source.display(),
        String::from_utf8_lossy(&cc.stderr)
    );
}

/// Compiles `source` into `exe` with gcc, warnings as errors (`-Wall
/// -Wextra -Werror`) and `flags` (the standard among them), as the tests
/// that build woven code do. The build must succeed.
#[allow(dead_code)]
pub fn build_strict(source: &Path, exe: &Path, flags: &[&str]) {
    gcc(&[&["-Wall", "-Wextra", "-Werror"], flags].concat(), source, exe);
}

/// Runs `exe` with `args`, its records going to `weft_out` when given;
/// it must exit 0: its standard output and standard error.
#[allow(dead_code)]
pub fn run_ok(exe: &Path, args: &[&str], weft_out: Option<&Path>) -> (String, String) {
    let mut command = Command::new(exe);
    command.args(args);
    if let Some(dir) = weft_out {
        command.env("WEFT_OUT", dir);
    }
    let run = command.output().expect("the program starts");
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{}: {stderr}", exe.display());
    (String::from_utf8_lossy(&run.stdout).into_owned(), stderr)
}
