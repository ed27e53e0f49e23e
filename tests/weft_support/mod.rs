//! Running the built `weft` binary as a user does: the one place the tests
//! start it, so each test says only what differs (its arguments, the exit
//! status it expects, a working directory or environment) and checks what
//! the run printed.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// The built `weft`'s path, for code under test that runs it itself.
#[allow(dead_code)]
pub fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_weft"))
}

/// The built `weft`, for a run that needs more than arguments (a working
/// directory, an environment, standard input): the caller sets those and
/// runs it.
#[allow(dead_code)]
pub fn command() -> Command {
    Command::new(binary())
}

/// `weft ARGS…`, run to its end whatever its exit status.
#[allow(dead_code)]
pub fn weft<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    command().args(args).output().expect("weft runs")
}

/// `weft ARGS…`, which must exit with `code`: its standard output and
/// standard error.
#[allow(dead_code)]
pub fn weft_exits<S: AsRef<OsStr>>(code: i32, args: impl IntoIterator<Item = S>) -> (String, String) {
    exited(&weft(args), code)
}

/// `weft ARGS…`, which must exit with `code`: what it printed, its
/// standard output followed by its standard error.
#[allow(dead_code)]
pub fn weft_prints<S: AsRef<OsStr>>(code: i32, args: impl IntoIterator<Item = S>) -> String {
    let out = weft(args);
    exited(&out, code);
    text(&out)
}

/// Asserts that `out` exited with `code` (the failure shows both streams):
/// its standard output and standard error.
#[allow(dead_code)]
pub fn exited(out: &Output, code: i32) -> (String, String) {
    let (stdout, stderr) = (stdout(out), stderr(out));
    assert_eq!(out.status.code(), Some(code), "{stdout}{stderr}");
    (stdout, stderr)
}

/// A run's standard output.
#[allow(dead_code)]
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A run's standard error.
#[allow(dead_code)]
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A run's standard output followed by its standard error.
#[allow(dead_code)]
pub fn text(out: &Output) -> String {
    format!("{}{}", stdout(out), stderr(out))
}

/// Runs `weft weave --aspect aspects/ASPECT ARGS --output OUTPUT INPUT`
/// (an absolute ASPECT names an aspect file elsewhere), which must
/// succeed: what it printed.
#[allow(dead_code)]
pub fn weave(aspect: &str, args: &[&str], output: &Path, input: &Path) -> String {
    let out = command()
        .args(["weave", "--aspect"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects").join(aspect))
        .args(args)
        .arg("--output")
        .arg(output)
        .arg(input)
        .output()
        .expect("weft runs");
    exited(&out, 0).0
}

/// What `weft ranges show ARGS RECORDS` prints.
#[allow(dead_code)]
pub fn ranges_shown(args: &[&str], records: &Path) -> String {
    stdout(
        &command()
            .args(["ranges", "show"])
            .args(args)
            .arg(records)
            .output()
            .expect("weft runs"),
    )
}

/// Runs `weft experiment -j 2 STUDY`, which must succeed.
#[allow(dead_code)]
pub fn experiment(study: &Path) {
    let out = command()
        .args(["experiment", "-j", "2"])
        .arg(study)
        .output()
        .expect("weft runs");
    exited(&out, 0);
}
