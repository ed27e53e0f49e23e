//! Trace monitoring: the values of chosen variables at program points
//! (function entries and exits, points inside functions), for
//! likely-invariant detection.
//!
//! [`spec`] is the weaver's side (one [`TraceSpec`] per woven unit: the
//! points, their variables, the C text); [`aspect_api`] lets aspects build
//! specs (`TraceTables`); [`by_type`] reads what a pointer points to by the
//! type the compiler sees; [`record`] reads the `.trace` files the runtime
//! (`runtime/weft_trace_*.h`) writes, [`samples`] streaming their samples;
//! [`points`] shows them to the
//! likely-invariant engine (`weft-invariants`) and [`runs`] learns from
//! runs and checks runs, with [`unseen`] points as findings of their own;
//! [`daikon`] learns from Daikon's files too and exports traces as one.
//! See docs/invariants.md.

pub mod aspect_api;
pub mod by_type;
pub mod daikon;
pub mod layout;
pub mod monitor;
pub mod points;
pub mod record;
pub mod runs;
pub mod samples;
pub mod spec;
pub mod unseen;

pub use monitor::Traces;
pub use record::{Sample, TraceFile, TraceHead, open_trace, read_trace};
pub use runs::{Finding, RunCheck, RunsCheck, TraceError, TraceRun, check, check_runs, discover_runs, learn};
pub use spec::{Layout, PointDecl, PointKind, TraceSpec, TracedVar, VarDecl, VarKind};
pub use unseen::UnseenPoints;
