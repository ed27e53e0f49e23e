//! Every monitor through the `Monitor` seam: its runtime text and one
//! unit's text compile under `gcc -Wall -Wextra -Werror`, its reader
//! refuses a missing directory with the same error, reads an empty one as
//! no records, and names a damaged file with the byte offset.

use std::path::Path;
use std::process::Command;

use weft_monitor::ReadError;
use weft_monitor::VarKind;
use weft_monitor::nonterm::{Nonterm, NontermSpec, Policy, Schedule};
use weft_monitor::outputs::{Outputs, OutputsUnit, spec as outputs_spec};
use weft_monitor::ranges::{Kind, Ranges, TableSpec, ValueType};
use weft_monitor::trace::{TraceSpec, TracedVar, Traces};
use weft_monitor::{Monitor, MonitorVisitor, UnitText, for_each_monitor};

/// A woven unit of `M`: its prelude, a function `f` whose body is `body`,
/// its epilogue and a `main` calling `f`, compiled and linked.
fn compiles<M: Monitor>(unit: &M::Unit, body: &str, dir: &Path) {
    let text = format!(
        "{}int f(int x);\nint f(int x)\n{{\n{body}\n    return x;\n}}\nint main(void)\n{{\n    return f(0);\n}}\n{}",
        unit.prelude(),
        unit.epilogue()
    );
    assert!(
        text.starts_with(M::RUNTIME_HOT),
        "{}: the hot part comes first",
        M::NAME
    );
    assert!(
        text.contains(M::RUNTIME_COLD),
        "{}: the cold part is at the end",
        M::NAME
    );
    let c = dir.join(format!("{}.c", M::NAME));
    std::fs::write(&c, &text).unwrap();
    let out = Command::new("gcc")
        .args(["-std=gnu99", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(dir.join(M::NAME))
        .arg(&c)
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "{}: {}",
        M::NAME,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn each_monitors_runtime_and_unit_text_compile_without_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let mut ranges = TableSpec::new("a.c");
    let slot = ranges.entry(Kind::Param, "f", "x", ValueType::I64);
    let body = ranges.update_stmt(slot, "x");
    compiles::<Ranges>(&ranges, &body, dir.path());

    let vars = [TracedVar::plain("x", VarKind::I64, "x")];
    let mut traces = TraceSpec::new("a.c");
    let body = format!("{}\n{}", traces.enter("f", 3, &vars), traces.exit("f", 5, &vars));
    compiles::<Traces>(&traces, &body, dir.path());

    let mut nonterm = NontermSpec::new("a.c", Policy::Log, Schedule::Brent);
    let texts = nonterm.add("f", 4, &vars, true, None);
    let condition = texts.condition.replace("COND", "x < 3");
    let body = format!("{}\n    while ({condition}) x++;\n{}", texts.before, texts.after);
    compiles::<Nonterm>(&nonterm, &body, dir.path());

    let outputs = OutputsUnit { file: "a.c".into() };
    compiles::<Outputs>(&outputs, &outputs_spec::returned("f", "x"), dir.path());
}

/// Checks one monitor's reader on missing, empty and damaged input.
struct Readers<'a> {
    dir: &'a Path,
    names: Vec<&'static str>,
}

impl MonitorVisitor for Readers<'_> {
    fn visit<M: Monitor>(&mut self) {
        self.names.push(M::NAME);
        let missing = self.dir.join(format!("no-{}", M::NAME));
        match M::read(std::slice::from_ref(&missing)) {
            Err(ReadError::Missing(path)) => assert_eq!(path, missing),
            other => panic!("{}: {:?}", M::NAME, other.map(|r| r.len())),
        }
        let e = M::read(std::slice::from_ref(&missing)).unwrap_err().to_string();
        assert_eq!(e, format!("{}: no such file or directory", missing.display()));

        let empty = self.dir.join(format!("empty-{}", M::NAME));
        std::fs::create_dir(&empty).unwrap();
        assert_eq!(
            M::read(std::slice::from_ref(&empty)).unwrap().len(),
            0,
            "{}",
            M::NAME
        );
        // Where each input must hold records, an empty directory is an
        // error naming it, and a missing path is still `Missing`.
        match M::files_each(std::slice::from_ref(&empty)) {
            Err(ReadError::Empty { path, extension }) => {
                assert_eq!((path, extension), (empty.clone(), M::FORMAT.extension))
            }
            other => panic!("{}: {other:?}", M::NAME),
        }
        assert!(matches!(
            M::files_each(std::slice::from_ref(&missing)),
            Err(ReadError::Missing(_))
        ));

        // A file of this monitor that is only a magic: an error at its end.
        let damaged = empty.join(format!("a_c.1.{}", M::FORMAT.extension));
        std::fs::write(&damaged, M::FORMAT.magic).unwrap();
        let e = M::read(std::slice::from_ref(&empty)).unwrap_err();
        assert!(
            matches!(e, ReadError::Malformed { ref path, .. } if path == &damaged),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with(&format!("{}: at byte 8: truncated", damaged.display())),
            "{e}"
        );
    }
}

#[test]
fn each_monitors_reader_refuses_a_missing_directory_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let mut readers = Readers {
        dir: dir.path(),
        names: Vec::new(),
    };
    for_each_monitor(&mut readers);
    assert_eq!(readers.names, ["ranges", "traces", "nonterm", "outputs"]);
    assert_eq!(readers.names.len(), weft_monitor::SCRIPT_APIS.len());
}

/// Collects each monitor's record format.
struct Formats(Vec<(&'static str, &'static [u8; 8], &'static str)>);

impl MonitorVisitor for Formats {
    fn visit<M: Monitor>(&mut self) {
        self.0.push((M::NAME, M::FORMAT.magic, M::FORMAT.extension));
    }
}

#[test]
fn monitors_have_distinct_magics_and_extensions() {
    let mut formats = Formats(Vec::new());
    for_each_monitor(&mut formats);
    for (i, a) in formats.0.iter().enumerate() {
        assert!(a.1.starts_with(b"WEFT"), "{}", a.0);
        for b in &formats.0[i + 1..] {
            assert!(a.1 != b.1 && a.2 != b.2, "{} and {} share a format", a.0, b.0);
        }
    }
}
