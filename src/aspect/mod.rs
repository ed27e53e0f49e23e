//! The aspect language: grammar (grammar/aspect.pest), syntax tree, parser.
