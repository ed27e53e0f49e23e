//! Running programs under limits: the one way weft runs a program it did
//! not write (a study's tests, a triage's revisions, `weft nonterm check`'s
//! woven program) and reports on long work.
//!
//! [`execute`] runs one command line in its own process group under a
//! timeout and an output cap, without a shell when the command needs none
//! ([`direct_argv`]); a crash, a hang or a flood of output is a result
//! ([`Abnormal`]), never an error. [`Scratch`] hands each worker thread one
//! reused run directory, removed on an error and on a signal. [`quote`]
//! and [`command`] spell words for `sh`; [`Progress`] shows long work on
//! stderr; [`hash_bytes`] is the digest run records keep of outputs.

mod command_line;
mod digest;
mod execute;
mod progress;
mod scratch;

pub use command_line::{command, direct_argv, quote};
pub use digest::{hash_bytes, hex};
pub use execute::{Abnormal, Execution, RECORD_VERSION, RunRecord, execute};
pub use progress::{PLAIN_EVERY, Progress};
pub use scratch::{RunDirs, Scratch};
