//! The aspect language: grammar (crates/lang/grammar/aspect.pest), syntax tree, parser,
//! literals and imports. See docs/aspect-language.md for the language.

pub mod ast;
mod import;
pub mod literal;
pub mod parser;
mod syntax_error;

pub use ast::Module;
pub use import::{load, load_source};
pub use parser::{parse_chain, parse_file};
