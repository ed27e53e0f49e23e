//! The invariant grammar. Each invariant is a small state machine over the
//! samples of one variable tuple: `add` checks a sample and reports whether
//! the invariant still holds; a falsified invariant is dropped. State is
//! O(1) in the number of samples (`OneOf` keeps at most 3 values).

mod binary;
mod bound;
mod hull;
mod num;
mod sequence;
mod ternary;
mod unary;

use std::any::Any;

use crate::claim::Claim;
use crate::model::{Rep, Value};
pub(crate) use num::Num;

/// The kinds of invariant, in the order the report lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    OneOf,
    /// Internal: the variable had a single present value. Never printed;
    /// it is the antecedent that suppresses the unary invariants it implies.
    SingleValue,
    LowerBound,
    UpperBound,
    NonZero,
    Modulus,
    NonModulus,
    Even,
    PowerOfTwo,
    EltOneOf,
    /// Internal: every element had one value (suppresses element bounds).
    EltSingleValue,
    EltLowerBound,
    EltUpperBound,
    SortedLess,
    SortedLessEqual,
    SortedGreater,
    SortedGreaterEqual,
    Equal,
    NonEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LinearBinary,
    LinearTernary,
    /// Internal, naive mode only: two variables identical in every sample
    /// (missing together). The naive engine derives equality sets from it.
    SetEqual,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 26] = [
        Kind::OneOf,
        Kind::SingleValue,
        Kind::LowerBound,
        Kind::UpperBound,
        Kind::NonZero,
        Kind::Modulus,
        Kind::NonModulus,
        Kind::Even,
        Kind::PowerOfTwo,
        Kind::EltOneOf,
        Kind::EltSingleValue,
        Kind::EltLowerBound,
        Kind::EltUpperBound,
        Kind::SortedLess,
        Kind::SortedLessEqual,
        Kind::SortedGreater,
        Kind::SortedGreaterEqual,
        Kind::Equal,
        Kind::NonEqual,
        Kind::Less,
        Kind::LessEqual,
        Kind::Greater,
        Kind::GreaterEqual,
        Kind::LinearBinary,
        Kind::LinearTernary,
        Kind::SetEqual,
    ];

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Kind::OneOf => "OneOf",
            Kind::SingleValue => "SingleValue",
            Kind::LowerBound => "LowerBound",
            Kind::UpperBound => "UpperBound",
            Kind::NonZero => "NonZero",
            Kind::Modulus => "Modulus",
            Kind::NonModulus => "NonModulus",
            Kind::Even => "Even",
            Kind::PowerOfTwo => "PowerOfTwo",
            Kind::EltOneOf => "EltOneOf",
            Kind::EltSingleValue => "EltSingleValue",
            Kind::EltLowerBound => "EltLowerBound",
            Kind::EltUpperBound => "EltUpperBound",
            Kind::SortedLess => "SortedLess",
            Kind::SortedLessEqual => "SortedLessEqual",
            Kind::SortedGreater => "SortedGreater",
            Kind::SortedGreaterEqual => "SortedGreaterEqual",
            Kind::Equal => "Equal",
            Kind::NonEqual => "NonEqual",
            Kind::Less => "LessThan",
            Kind::LessEqual => "LessEqual",
            Kind::Greater => "GreaterThan",
            Kind::GreaterEqual => "GreaterEqual",
            Kind::LinearBinary => "LinearBinary",
            Kind::LinearTernary => "LinearTernary",
            Kind::SetEqual => "SetEqual",
        }
    }

    /// Internal kinds, which exist to drive suppression or equality sets
    /// and are never printed themselves.
    pub fn is_internal(self) -> bool {
        matches!(self, Kind::SingleValue | Kind::EltSingleValue | Kind::SetEqual)
    }
}

/// One invariant over a tuple of variables.
pub(crate) trait Checker: Send {
    fn kind(&self) -> Kind;

    /// Checks a sample, counted `count` times (replays of a history repeat
    /// one sample). Values are never `Missing`. Returns `false` when the
    /// sample falsifies the invariant; a falsified invariant must keep its
    /// state from before the sample, because suppression re-instantiates
    /// its consequents from that state.
    fn add(&mut self, vals: &[&Value], count: u64) -> bool;

    /// Samples that did not falsify it.
    fn samples(&self) -> u64;

    /// Probability that the invariant held by chance (1 when it is not
    /// justified, 0 when it is certainly justified). Reported only below
    /// `1 - conf_limit`. Each kind documents its rule.
    fn probability(&self) -> f64;

    /// What the invariant says, to print and to check new samples against;
    /// `None` when the state is true but has nothing to say (an unresolved
    /// line, a bound-free modulus, a linear relation without integer
    /// coefficients, an internal kind).
    fn claim(&self) -> Option<Claim>;

    /// Reorders the tuple: new position `i` was old position `perm[i]`.
    /// Unary invariants and symmetric ones need not do anything.
    fn permute(&mut self, _perm: &[usize]) {}

    /// A history that, replayed onto a fresh invariant this one implies,
    /// leaves it in the state it would have if it had been checked all
    /// along. Only antecedents of suppression rules implement it.
    fn history(&self) -> Vec<(Vec<Value>, u64)> {
        unreachable!("{:?} is not an antecedent", self.kind())
    }

    /// Whether the invariant also sees samples in which a variable is
    /// missing (only the naive engine's `SetEqual` does).
    fn sees_missing(&self) -> bool {
        false
    }

    fn clone_box(&self) -> Box<dyn Checker>;

    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn Checker> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The grammar: the kinds instantiated over a tuple with these
/// representations (all pairwise comparable, see `vars::comparable`).
pub(crate) fn kinds_for(reps: &[Rep]) -> Vec<Kind> {
    use Kind::*;
    match reps {
        [Rep::Int] => vec![
            OneOf,
            SingleValue,
            LowerBound,
            UpperBound,
            NonZero,
            Modulus,
            NonModulus,
            Even,
            PowerOfTwo,
        ],
        [Rep::Float] => vec![OneOf, SingleValue, LowerBound, UpperBound, NonZero],
        [Rep::Pointer] => vec![OneOf, NonZero],
        [Rep::Str] => vec![OneOf],
        [Rep::IntSeq | Rep::FloatSeq] => vec![
            EltOneOf,
            EltSingleValue,
            EltLowerBound,
            EltUpperBound,
            SortedLess,
            SortedLessEqual,
            SortedGreater,
            SortedGreaterEqual,
        ],
        [a, b] if a == b && a.is_numeric() => {
            let mut kinds = vec![Equal, NonEqual, Less, LessEqual, Greater, GreaterEqual];
            if *a == Rep::Int {
                kinds.push(LinearBinary);
            }
            kinds
        }
        [Rep::Int, Rep::Int, Rep::Int] => vec![LinearTernary],
        _ => vec![],
    }
}

/// A fresh invariant of `kind` over a tuple with these representations.
pub(crate) fn create(kind: Kind, reps: &[Rep]) -> Box<dyn Checker> {
    let float = reps[0] == Rep::Float || reps[0] == Rep::FloatSeq;
    if float {
        create_for::<f64>(kind, reps[0])
    } else {
        create_for::<i64>(kind, reps[0])
    }
}

fn create_for<T: Num>(kind: Kind, rep: Rep) -> Box<dyn Checker> {
    use Kind::*;
    match kind {
        OneOf => Box::new(unary::OneOf::new(rep)),
        SingleValue => Box::new(unary::SingleValue::default()),
        LowerBound => Box::new(bound::Bound::<T>::new(true)),
        UpperBound => Box::new(bound::Bound::<T>::new(false)),
        NonZero => Box::new(unary::NonZero::<T>::new(rep == Rep::Pointer)),
        Modulus => Box::new(unary::Modulus::default()),
        NonModulus => Box::new(unary::NonModulus::default()),
        Even => Box::new(unary::Even::default()),
        PowerOfTwo => Box::new(unary::PowerOfTwo::default()),
        EltOneOf => Box::new(sequence::EltOneOf::<T>::default()),
        EltSingleValue => Box::new(sequence::EltSingleValue::<T>::default()),
        EltLowerBound => Box::new(sequence::EltBound::<T>::new(true)),
        EltUpperBound => Box::new(sequence::EltBound::<T>::new(false)),
        SortedLess | SortedLessEqual | SortedGreater | SortedGreaterEqual => {
            Box::new(sequence::Sorted::<T>::new(kind))
        }
        Equal | NonEqual | Less | LessEqual | Greater | GreaterEqual => {
            Box::new(binary::Compare::<T>::new(kind))
        }
        LinearBinary => Box::new(binary::LinearBinary::default()),
        LinearTernary => Box::new(ternary::LinearTernary::default()),
        SetEqual => Box::new(binary::SetEqual::default()),
    }
}

/// Facts the printer needs from particular kinds, to drop what another
/// printed invariant already says.
pub(crate) fn modulus_of(inv: &dyn Checker) -> Option<(u128, u128)> {
    inv.as_any()
        .downcast_ref::<unary::Modulus>()
        .and_then(|m| m.modulus())
}

/// The 2-D hull state of a `LinearBinary`, from which an invariant over
/// `(x, x, z)` is rebuilt when `x` and `y` leave one equality set.
pub(crate) fn linear_binary_history(inv: &dyn Checker) -> Option<Vec<(Vec<Value>, u64)>> {
    inv.as_any()
        .downcast_ref::<binary::LinearBinary>()
        .map(|l| l.history())
}

#[cfg(test)]
mod tests;
