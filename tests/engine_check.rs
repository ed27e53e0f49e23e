//! Static checks (`weft check`): imports, called aspects, labels, `$`
//! variables and unsupported forms, each reported at its place.

use weft::diag::SourceFile;

fn check(src: &str) -> String {
    match weft::aspect::load_source(SourceFile::new("t.lara", src), &weft::Limits::default()) {
        Ok(module) => weft::engine::check(&module, &weft::Limits::default()).to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn clean_aspect_has_no_diagnostics() {
    assert_eq!(
        check("aspectdef A\nselect function.loop end\napply insert before 'x'; end\nend"),
        ""
    );
}

#[test]
fn misplaced_and_unknown_names() {
    let text = check(
        "aspectdef A\ninsert before 'x';\nselect loop end\napply $function.insert after 'y'; end\napply to L::M end\ncall B(1, 2);\nfor (var i = 0; i < 3; i++) {}\nend\naspectdef B input a end end",
    );
    for expected in [
        "t.lara:2:1",
        "must be inside an apply",
        "t.lara:4:7",
        "no join point `$function` here",
        "this apply binds $loop",
        "no labelled select `L`",
        "t.lara:6:1",
        "takes 1 input(s), 2 given",
        "t.lara:7:1",
        "C-style",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn apply_without_select() {
    assert!(check("aspectdef A\napply end\nend").contains("without a `select` before it"));
}

#[test]
fn imports_resolve_relative_to_the_importing_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(
        dir.path().join("main.lara"),
        "import \"lib/a.lara\";\naspectdef Main call A(); call B(); end",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("lib/a.lara"),
        "import \"b.lara\";\naspectdef A end",
    )
    .unwrap();
    // b imports a again: cycles load each file once.
    std::fs::write(
        dir.path().join("lib/b.lara"),
        "import \"a.lara\";\naspectdef B end",
    )
    .unwrap();
    let module = weft::aspect::load(&dir.path().join("main.lara"), &weft::Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = module.aspects.iter().map(|a| a.name.name.as_str()).collect();
    assert_eq!(names, ["Main", "A", "B"]);
    assert!(!weft::engine::check(&module, &weft::Limits::default()).has_errors());
}

#[test]
fn missing_imports_and_duplicate_aspects() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.lara"),
        "import \"nope.lara\";\nimport \"dup.lara\";\naspectdef A end",
    )
    .unwrap();
    std::fs::write(dir.path().join("dup.lara"), "aspectdef A end").unwrap();
    let text = weft::aspect::load(&dir.path().join("main.lara"), &weft::Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("main.lara:1:8") && text.contains("cannot import `nope.lara`"),
        "{text}"
    );
    assert!(
        text.contains("aspect `A` is defined twice") && text.contains("first defined at"),
        "{text}"
    );
}

/// What `weave` would stop at when it reached the use, `check` finds first:
/// an undefined variable, in a script part or in an interpolation.
#[test]
fn undefined_variables_are_found_without_the_program() {
    let text =
        check("aspectdef A\nselect function end\napply\n  $function.insert before 'x' + missing;\nend\nend");
    assert!(
        text.contains("Undefined variable: missing") && text.contains("t.lara:4:"),
        "{text}"
    );
    let text = check(
        "aspectdef A\nselect function end\napply\n  $function.insert before 'int [[nope]];';\nend\nend",
    );
    assert!(text.contains("Undefined variable: nope"), "{text}");
    let inputs_and_locals = "aspectdef A\ninput n = 1 end\nvar k = 2;\nselect function end\napply\n  var j = k + n;\n  $function.insert before '[[j]]';\nend\nend";
    assert_eq!(check(inputs_and_locals), "");
}
