//! The program being woven: its files, their current text and parse, the
//! pending edits, and the [`crate::engine::Host`] implementation over them.
