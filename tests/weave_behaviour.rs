//! Weaving never changes what a program does: programs whose meaning hangs
//! on what surrounds a function (attribute, storage-class and
//! calling-convention macros on the lines above it, a name written by a
//! macro defined in the file that includes it, a body split by `#if`) are
//! woven, compiled with warnings as errors and run, and must print what the
//! original prints.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A C program in a scratch directory: `src/` is woven, `inc/` is on the
/// include path but not woven (a header of another project).
struct Program {
    dir: tempfile::TempDir,
}

impl Program {
    fn new(files: &[(&str, &str)]) -> Program {
        let program = Program {
            dir: tempfile::tempdir().unwrap(),
        };
        for (name, text) in files {
            let path = program.dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::create_dir_all(program.dir.path().join("inc")).unwrap();
        program
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `weft weave` of `aspect` (its text) over `src/` into `out/`, with
    /// `args` before the input.
    fn weave(&self, aspect: &str, args: &[&str]) -> Output {
        let file = self.path("aspect.lara");
        std::fs::write(&file, aspect).unwrap();
        Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["weave", "--aspect"])
            .arg(&file)
            .args(args)
            .args(["--output", "out", "src"])
            .current_dir(self.dir.path())
            .output()
            .expect("weft runs")
    }

    /// Weaves `aspect`, which must succeed: what weft printed on stderr.
    fn woven(&self, aspect: &str) -> String {
        let out = self.weave(aspect, &[]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    }

    /// Builds `unit` (a .c file under `tree`, `src` or `out/src`) with
    /// warnings as errors and runs it: its stdout.
    fn run(&self, tree: &str, unit: &str) -> String {
        let exe = self.path(&format!("{}.exe", tree.replace('/', "_")));
        let built = Command::new("gcc")
            .args(["-std=gnu99", "-Wall", "-Werror", "-I"])
            .arg(self.path("inc"))
            .arg("-o")
            .arg(&exe)
            .arg(self.path(tree).join(unit))
            .output()
            .expect("gcc runs");
        let source = std::fs::read_to_string(self.path(tree).join(unit)).unwrap_or_default();
        assert!(
            built.status.success(),
            "{tree}/{unit} does not build:\n{}\n{source}",
            String::from_utf8_lossy(&built.stderr)
        );
        let ran = Command::new(&exe).output().expect("the program runs");
        assert!(ran.status.success(), "{tree}/{unit} failed:\n{source}");
        String::from_utf8_lossy(&ran.stdout).into_owned()
    }

    fn text(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
}

/// An insert before every function and after every function.
const AROUND_FUNCTIONS: &str = "aspectdef Around\n\
    select file.function end\n\
    apply\n\
        $function.insert before 'extern unsigned long weft_hits_[[$function.name]];';\n\
        $function.insert after 'unsigned long weft_hits_[[$function.name]];';\n\
    end\n\
end\n";

/// `x` is set by a constructor whose attribute comes before `static void
/// init`, written as each case spells it (`{ATTR}` stands for the lines
/// before the function, `{SPEC}` for its specifiers).
fn constructor_program(defines: &str, lead: &str, spec: &str) -> String {
    format!(
        "#include <stdio.h>\n{defines}\nstatic int x;\n{lead}{spec} init(void) {{ x = 5; }}\n\
         int main(void) {{ printf(\"%d\\n\", x); return 0; }}\n"
    )
}

#[test]
fn an_insert_before_a_function_goes_before_its_attribute_macros() {
    let attr = "#define ATTR __attribute__((__constructor__))";
    let cases: &[(&str, String, &[(&str, &str)])] = &[
        (
            "the issue's repro",
            constructor_program(attr, "ATTR\n", "static void"),
            &[],
        ),
        (
            "a macro with arguments",
            constructor_program(
                "#define ATTR(p) __attribute__((__constructor__(p)))",
                "ATTR(101)\n",
                "static void",
            ),
            &[],
        ),
        (
            "after the storage class",
            constructor_program(attr, "", "static ATTR void"),
            &[],
        ),
        (
            "a comment and a blank line between",
            constructor_program(attr, "/* doc */\nATTR\n/* sets x */\n\n", "static void"),
            &[],
        ),
        (
            "several attributes and a storage-class macro",
            constructor_program(
                "#define ATTR __attribute__((__constructor__))\n#define USED __attribute__((__used__))\n#define LOCAL static",
                "USED ATTR\nLOCAL\n",
                "void",
            ),
            &[],
        ),
        (
            "__attribute__ written out",
            constructor_program(
                "",
                "__attribute__((__constructor__)) __attribute__((__used__))\n",
                "static void\n",
            ),
            &[],
        ),
        (
            "a declspec-like macro and a calling convention",
            constructor_program(
                "#define EXPORT __attribute__((__constructor__))\n#define CALLCONV __attribute__((__noinline__))",
                "EXPORT ",
                "static void CALLCONV",
            ),
            &[],
        ),
        (
            "the attribute under #ifdef",
            constructor_program(attr, "#ifdef __GNUC__\nATTR\n#endif\n", "static void"),
            &[],
        ),
        (
            "the macro defined in a header of the tree",
            constructor_program("#include \"attr.h\"", "ATTR\n", "static void"),
            &[("src/attr.h", "#define ATTR __attribute__((__constructor__))\n")],
        ),
        (
            "the macro defined in a header weft does not see",
            constructor_program("#include <attr.h>", "ATTR\n", "static void"),
            &[("inc/attr.h", "#define ATTR __attribute__((__constructor__))\n")],
        ),
    ];
    for (name, main, headers) in cases {
        let mut files = vec![("src/main.c", main.as_str())];
        files.extend_from_slice(headers);
        let program = Program::new(&files);
        assert_eq!(program.run("src", "main.c"), "5\n", "{name}: the original");
        program.woven(AROUND_FUNCTIONS);
        let woven = program.text("out/src/main.c");
        assert!(
            woven.contains("weft_hits_init;"),
            "{name}: init is woven:\n{woven}"
        );
        assert_eq!(program.run("out/src", "main.c"), "5\n", "{name}:\n{woven}");
    }
}
