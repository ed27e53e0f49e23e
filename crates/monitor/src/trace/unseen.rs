//! A finding of its own: a run sampled a program point that training never
//! sampled (a point reached only by faulty runs, as a call to an error
//! function that no training run made). No invariant can be violated
//! there, since none was learned; the visit itself is the anomaly.

use std::fmt;
use std::str::FromStr;

use weft_invariants::{PointDecl, PointKind};

/// The kind of an unseen-point finding, beside the invariants' kinds
/// (`OneOf`, `LowerBound`, …).
pub const UNSEEN_KIND: &str = "UnseenPoint";

/// The text of an unseen-point finding.
pub const UNSEEN_TEXT: &str = "reached; no training run reached it";

/// Which points are reported when a run reaches them and training did not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnseenPoints {
    /// None: only violated invariants are findings.
    #[default]
    Off,
    /// Points inside functions (before a call that does not return, loop
    /// heads).
    Inner,
    /// Every point: entries and exits too.
    All,
}

impl UnseenPoints {
    /// Whether a sample at `point` is an unseen-point finding, where
    /// `unseen` says whether training never sampled it.
    pub fn flags(self, point: &PointDecl, unseen: bool) -> bool {
        let kind_counts = match self {
            UnseenPoints::Off => false,
            UnseenPoints::Inner => point.kind == PointKind::Point,
            UnseenPoints::All => true,
        };
        kind_counts && unseen
    }
}

impl FromStr for UnseenPoints {
    type Err = String;

    fn from_str(s: &str) -> Result<UnseenPoints, String> {
        match s {
            "off" => Ok(UnseenPoints::Off),
            "inner" => Ok(UnseenPoints::Inner),
            "all" => Ok(UnseenPoints::All),
            other => Err(format!("unseen points: `{other}` is not off, inner or all")),
        }
    }
}

impl fmt::Display for UnseenPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnseenPoints::Off => "off",
            UnseenPoints::Inner => "inner",
            UnseenPoints::All => "all",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_invariants::{Checks, Config, Engine, Rep, Value, VarDecl};

    fn decl(name: &str, kind: PointKind) -> PointDecl {
        PointDecl {
            name: name.into(),
            function: "f".into(),
            kind,
            vars: vec![VarDecl::new("x", Rep::Int)],
        }
    }

    #[test]
    fn only_points_of_the_chosen_kinds_that_training_never_sampled_are_flagged() {
        let mut engine = Engine::new(Config::default());
        let seen = engine.declare(decl("f():::POINT3", PointKind::Point));
        engine.add_sample(seen, &[Value::Int(1)]).unwrap();
        let checks = Checks::new(engine.finish());
        let inner = checks.bind(&decl("f():::POINT5", PointKind::Point));
        let entry = checks.bind(&decl("g():::ENTER", PointKind::Enter));
        let known = checks.bind(&decl("f():::POINT3", PointKind::Point));
        let flags = |mode: UnseenPoints| [&inner, &entry, &known].map(|p| mode.flags(p.decl(), p.unseen()));
        assert_eq!(flags(UnseenPoints::Off), [false, false, false]);
        assert_eq!(flags(UnseenPoints::Inner), [true, false, false]);
        assert_eq!(flags(UnseenPoints::All), [true, true, false]);
        assert_eq!("inner".parse::<UnseenPoints>(), Ok(UnseenPoints::Inner));
        assert!(
            "some"
                .parse::<UnseenPoints>()
                .unwrap_err()
                .contains("off, inner or all")
        );
    }
}
