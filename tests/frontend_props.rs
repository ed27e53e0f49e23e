//! Property tests: the front end never panics, understood nodes map back,
//! copied text round-trips. Inputs that once failed live in tests/corpus/c/.

use proptest::prelude::*;
use std::path::Path;
use std::sync::Arc;
use weft::c::{FrontEnd, MacroTable, ParsedFile};

const SEED: &str = include_str!("fixtures/frontend/uses.c");
const HEADER: &str = include_str!("fixtures/frontend/macros.h");

fn check(text: &str) {
    let macros = MacroTable::learn([(Path::new("m.h"), HEADER), (Path::new("x.c"), text)]);
    let pf = FrontEnd::new(macros).parse(Path::new("x.c"), Arc::from(text));
    assert_invariants(&pf, text);
}

fn assert_invariants(pf: &ParsedFile, text: &str) {
    let tree = pf.whole_tree();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if pf.is_understood(n) {
            // A node may start or end with a repaired macro use; its ends
            // still map back. A leaf is text the parser read as written.
            let r = pf.outer_range(n.byte_range()).expect("understood maps back");
            assert!(text.get(r.clone()).is_some(), "range {r:?} off a char boundary");
            if n.child_count() == 0 {
                let r = pf
                    .original_range(n.byte_range())
                    .expect("understood leaf maps back exactly");
                assert_eq!(&text[r], pf.node_text(n), "leaf text differs");
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    for p in &pf.problems {
        assert!(p.range.end <= text.len() && p.line >= 1);
    }
}

fn mutate(seed: &str, cuts: Vec<(usize, usize, String)>) -> String {
    let mut s = seed.to_string();
    for (at, len, ins) in cuts {
        let mut a = at % (s.len() + 1);
        while !s.is_char_boundary(a) {
            a -= 1;
        }
        let mut b = (a + len % 12).min(s.len());
        while !s.is_char_boundary(b) {
            b += 1;
        }
        s.replace_range(a..b, &ins);
    }
    s
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "[ -~\n\té#{}();*]{0,300}") {
        check(&text);
    }

    #[test]
    fn mutated_c_keeps_invariants(cuts in proptest::collection::vec((0usize..2000, 0usize..12, "[#{}();a-zA-Z_ \n\"'/*\\\\]{0,6}"), 1..6)) {
        check(&mutate(SEED, cuts));
    }
}

#[test]
fn regression_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/c");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        check(&text);
        n += 1;
    }
    assert!(n > 0);
}
