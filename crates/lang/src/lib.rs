//! The aspect language: the LARA dialect's grammar and parser ([`aspect`]),
//! the join point vocabulary aspects are checked against ([`model`]), the
//! interpreter that runs an aspect against a [`engine::Host`] ([`engine`]),
//! aspect diagnostics with carets ([`diag`]), and the resources a run may
//! use ([`limits`]) with the bounded file access that enforces some of
//! them ([`files`]).
//!
//! This crate knows nothing of C: the host (the program being woven)
//! implements [`engine::Host`] in a crate above it.

pub mod aspect;
pub mod diag;
pub mod engine;
pub mod files;
pub mod limits;
pub mod model;

pub use limits::Limits;
