//! Property tests: no aspect text, random or a mutation of a real aspect,
//! makes the parser or the static checker panic. Inputs that once failed
//! are kept in tests/corpus/aspect/ and replayed first.

use proptest::prelude::*;
use weft::diag::SourceFile;

const SEED: &str = r#"aspectdef InstrumentParameters
    input laraObject, onlyPrimitives = true end
    output out end
    var present = function(array, key) { for (el in array) { if (array[el] === key) return true; } return false; };
    P: select function.param end
    F: select function{"main"}.body.first_stmt end
    apply to F::P
        if(onlyPrimitives)
            if(!$param.is_primitive)
                continue;
        var index = laraObject.getId('param', $function.name, $param.name);
        $first_stmt.insert before 'range_update(&(__r_a[ [[index]] ]), [[$param.name]]);';
        insert after %{ /* [[index]] */ }%;
        $program.perform Unroll(2);
        call r : Other(1, "x");
    end
    condition $function.name != "main" && !$param.is_array end
end
aspectdef Other input a, b end output c end c = [a, b]; end
"#;

/// Parses and, if that succeeds, statically checks `text`.
fn exercise(text: &str) {
    let file = SourceFile::new("fuzz.lara", text);
    if let Ok(module) = weft::aspect::load_source(file, &weft::Limits::default()) {
        let _ = weft::engine::check(&module, &weft::Limits::default());
    }
    if let Some(first_line) = text.lines().next() {
        let _ = weft::aspect::parse_chain(first_line);
    }
}

#[test]
fn corpus_inputs_do_not_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/aspect");
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        exercise(&String::from_utf8_lossy(&bytes));
    }
}

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
}

fn apply(edits: &[Edit]) -> String {
    let mut text: Vec<char> = SEED.chars().collect();
    for edit in edits {
        let n = text.len().max(1);
        match edit {
            Edit::Delete(at, len) => {
                let at = at % n;
                let end = (at + len).min(text.len());
                text.drain(at.min(text.len())..end);
            }
            Edit::Insert(at, s) => {
                let at = (at % n).min(text.len());
                text.splice(at..at, s.chars());
            }
            Edit::Duplicate(at, len) => {
                let at = (at % n).min(text.len());
                let end = (at + len).min(text.len());
                let copy: Vec<char> = text[at..end].to_vec();
                text.splice(at..at, copy);
            }
        }
    }
    text.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    let fragment = prop_oneof![
        Just("end".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("'".to_string()),
        Just("[[".to_string()),
        Just("]]".to_string()),
        Just("%{".to_string()),
        Just("}%".to_string()),
        Just("$".to_string()),
        Just("select ".to_string()),
        Just("apply ".to_string()),
        Just("\\".to_string()),
        "[ -~\n]{0,8}",
    ];
    prop_oneof![
        (any::<usize>(), 0usize..20).prop_map(|(a, l)| Edit::Delete(a, l)),
        (any::<usize>(), fragment).prop_map(|(a, s)| Edit::Insert(a, s)),
        (any::<usize>(), 0usize..40).prop_map(|(a, l)| Edit::Duplicate(a, l)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_text_does_not_panic(text in "(?s).{0,300}") {
        exercise(&text);
    }

    #[test]
    fn mutated_aspects_do_not_panic(edits in prop::collection::vec(edit(), 1..6)) {
        exercise(&apply(&edits));
    }
}
