//! The aspect interpreter: runs a parsed aspect module against a [`Host`]
//! (the program being woven), evaluating script parts with rhai.

mod host;

pub use host::{Host, HostError, InsertAt};
