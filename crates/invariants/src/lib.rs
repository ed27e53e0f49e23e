//! A streaming likely-invariant engine in the style of Daikon (Ernst et
//! al., "The Daikon system for dynamic detection of likely invariants",
//! 2007), with the incremental optimisations of Perkins & Ernst, "Efficient
//! incremental algorithms for dynamic detection of likely invariants"
//! (FSE 2004).
//!
//! Declare program points ([`PointDecl`]), feed samples of their variables'
//! values, and [`Engine::finish`] reports, per point, the invariants that
//! were never falsified and are justified at [`Config::conf_limit`]:
//! `x one of { 1, 6, 9 }`, `x >= 0`, `y == 2 * x + 3`, `p != null`,
//! `a[] sorted by <=`, `return == orig(n) + 1`, `size(a[]) == n`.
//!
//! The kinds Daikon leaves out by default (`Modulus`, `NonModulus`, `Even`)
//! are left out here too; [`Config::off`] takes any [`KindSet`].
//!
//! Each invariant keeps O(1) state, so memory does not grow with the trace.
//! [`daikon`] reads and writes Daikon's `.decls` / `.dtrace` formats.
//!
//! ```
//! use weft_invariants::{Config, Engine, PointDecl, PointKind, Rep, Value, VarDecl};
//!
//! let mut engine = Engine::new(Config::default());
//! let f = engine.declare(PointDecl {
//!     name: "f(int):::ENTER".into(),
//!     function: "f".into(),
//!     kind: PointKind::Enter,
//!     vars: vec![VarDecl::new("x", Rep::Int), VarDecl::new("y", Rep::Int)],
//! });
//! for x in 0..20 {
//!     engine.add_sample(f, &[Value::Int(x), Value::Int(2 * x + 3)]).unwrap();
//! }
//! let report = engine.finish();
//! assert!(report.texts("f(int):::ENTER").contains(&"y == 2 * x + 3"));
//! ```

mod check;
mod claim;
mod confidence;
pub mod daikon;
mod engine;
mod equality;
mod float_json;
mod invariants;
mod kind_set;
mod model;
mod point;
mod print;
mod slice;
mod suppression;
mod vars;

pub use check::{BoundPoint, BoundSets, Checks, Violation};
pub use claim::{Claim, Order};
pub use engine::{Config, Engine, EngineError, PointId};
pub use kind_set::KindSet;
pub use model::{PointDecl, PointKind, Rep, Value, VarDecl};
pub use print::{Invariant, PointReport, Report, show_value};
