//! The draws' dictionary: the integer constants a program writes (its
//! literals, `-5` as negative, an object-like macro whose value is one
//! literal), each with its neighbours c − 1 and c + 1. The SV-COMP harness
//! draws some of its `__VERIFIER_nondet_*()` values among them (read from
//! [`DICTIONARY_VARIABLE`]), as a fuzzer uses a dictionary of a program's
//! magic values: a hang's boundary lives at a guard's constant (`x <= 35`
//! cycles from 31 to 35) far more often than at a uniform draw. The same
//! constants make a fuzzer's first inputs ([`seeds`]).

use std::collections::BTreeSet;
use std::path::Path;

use tree_sitter::Node;
use weft_c::syntax::{integer_constant, parse_integer};

/// The environment variable the harness reads the dictionary from: values
/// separated by commas.
pub const DICTIONARY_VARIABLE: &str = "WEFT_NONDET_DICT";

/// The most constants kept (the first met, in file order); with their
/// neighbours, at most three times as many values.
const MOST_CONSTANTS: usize = 64;

/// The dictionary of the program made of `files`, as the value of
/// [`DICTIONARY_VARIABLE`]; a file that cannot be read adds nothing (the
/// weave reports it).
pub fn dictionary(files: &[&Path]) -> String {
    let mut seen = BTreeSet::new();
    let mut values = Vec::new();
    for c in constants(files) {
        for v in [c.checked_sub(1), Some(c), c.checked_add(1)]
            .into_iter()
            .flatten()
        {
            if seen.insert(v) {
                values.push(v.to_string());
            }
        }
    }
    values.join(",")
}

/// How many times a seed repeats its constant: a loop that draws at each
/// iteration (`while (__VERIFIER_nondet_int() != 5)`) gets it that many
/// times before the input's end gives 0.
const SEED_REPEATS: usize = 8;

/// Inputs for a fuzzer driving the harness through `WEFT_NONDET_INPUT`
/// (docs/nonterm.md, "Fuzzing with AFL++"), named for a file each: four
/// zero bytes, then per constant of the program (the first
/// `MOST_CONSTANTS`, without neighbours: a fuzzer's arithmetic mutations
/// make those) the constant as a little-endian `int`, [`SEED_REPEATS`]
/// times; `int` is the type most SV-COMP calls draw, and a wider or
/// narrower call reads the same bytes as a value near it.
pub fn seeds(files: &[&Path]) -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![("zero".to_string(), vec![0; 4])];
    for c in constants(files) {
        let bytes = (c as i32).to_le_bytes();
        inputs.push((format!("const{c}"), bytes.repeat(SEED_REPEATS)));
    }
    inputs
}

/// The first `MOST_CONSTANTS` constants of the files, in file order.
fn constants(files: &[&Path]) -> Vec<i64> {
    let mut constants = Vec::new();
    for file in files {
        if let Ok(text) = std::fs::read_to_string(file) {
            let tree = weft_c::parse_view(&text);
            collect(&text, tree.root_node(), &mut constants);
        }
    }
    constants.truncate(MOST_CONSTANTS);
    constants
}

/// Appends the constants under `node` in text order, each once; text the
/// parser did not understand (an ERROR node, such as a preprocessor line
/// marker's numbers) adds none.
fn collect(view: &str, node: Node<'_>, into: &mut Vec<i64>) {
    let value = match node.kind() {
        "ERROR" => return,
        "number_literal" | "unary_expression" => integer_constant(view, node),
        "preproc_arg" => view.get(node.byte_range()).and_then(|t| parse_integer(t.trim())),
        _ => None,
    };
    if let Some(v) = value {
        if !into.contains(&v) {
            into.push(v);
        }
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(view, child, into);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(source: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.c");
        std::fs::write(&file, source).unwrap();
        dictionary(&[&file])
    }

    #[test]
    fn constants_with_their_neighbours_negatives_and_macros() {
        let d = of(
            "#define LIMIT 0x10\nint main(void) { int x = 7; while (-5 <= x && x <= 35) x--; return 0; }\n",
        );
        assert_eq!(d, "15,16,17,6,7,8,-6,-5,-4,34,35,36,-1,0,1");
    }

    #[test]
    fn seeds_hold_each_constant_as_repeated_little_endian_ints() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.c");
        std::fs::write(&file, "int main(void) { int x = -2; while (x != 300) x++; }\n").unwrap();
        let seeds = seeds(&[&file]);
        let names: Vec<_> = seeds.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["zero", "const-2", "const300"]);
        assert_eq!(seeds[0].1, [0; 4]);
        assert_eq!(seeds[2].1.len(), 4 * SEED_REPEATS);
        assert_eq!(&seeds[2].1[4..8], &[44, 1, 0, 0]);
        assert_eq!(&seeds[1].1[..4], &[0xfe, 0xff, 0xff, 0xff]);
    }

    #[test]
    fn floats_and_unparsed_text_add_nothing() {
        assert_eq!(of("double f(void) { return 1.5; }\n"), "");
        assert!(!of("# 209 \"/usr/include/stddef.h\" 3 4\nint x;\n").contains("209"));
    }
}
