//! When an invariant that was never falsified is reported: each kind turns
//! its state into the probability that it held by chance, and the invariant
//! is reported only when that probability is below `1 - conf_limit`
//! (`conf_limit` = 0.99 by default). The rules follow those Daikon's
//! documentation gives for each kind (Ernst et al.; see the crate docs).

/// The probability of a state that cannot justify anything.
pub(crate) const UNJUSTIFIED: f64 = 1.0;
/// The probability of a state that is justified outright.
pub(crate) const JUSTIFIED: f64 = 0.0;

/// Order comparisons (`<`, `<=`, `>`, `>=`, `!=`, "sorted by"): each sample
/// would satisfy a random order with probability 1/2, so `0.5^n`. With the
/// default limit that takes 7 samples.
pub(crate) fn order(samples: u64) -> f64 {
    0.5f64.powf(samples as f64)
}

/// Kinds that are justified by any evidence at all (`==`, `OneOf`):
/// justified as soon as one sample was seen.
pub(crate) fn seen(samples: u64) -> f64 {
    if samples > 0 { JUSTIFIED } else { UNJUSTIFIED }
}

/// Kinds fitted from a minimum number of samples (`LinearBinary` needs 4,
/// `LinearTernary` 5).
pub(crate) fn at_least(samples: u64, required: u64) -> f64 {
    if samples >= required {
        JUSTIFIED
    } else {
        UNJUSTIFIED
    }
}

/// `x != 0`: the chance that `n` values spread over `range` values missed
/// zero, `(1 - 1/range)^n`, with the range capped at 50 (3 for pointers,
/// where null is one of few interesting values).
pub(crate) fn non_zero(samples: u64, range: f64) -> f64 {
    let range = range.min(50.0);
    if range <= 1.0 {
        return UNJUSTIFIED;
    }
    (1.0 - 1.0 / range).powf(samples as f64)
}

/// `x == r (mod m)` and `x != r (mod m)`: `(1 - 1/m)^n`; a modulus of 1
/// says nothing.
pub(crate) fn modulus(samples: u64, m: u128) -> f64 {
    if m < 2 {
        return UNJUSTIFIED;
    }
    (1.0 - 1.0 / m as f64).powf(samples as f64)
}

/// Whether a probability is low enough to report at `conf_limit`.
pub(crate) fn justified(probability: f64, conf_limit: f64) -> bool {
    probability < 1.0 - conf_limit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_needs_seven_samples_at_the_default_limit() {
        assert!(!justified(order(6), 0.99));
        assert!(justified(order(7), 0.99));
    }

    #[test]
    fn non_zero_caps_the_range() {
        assert_eq!(non_zero(10, 1000.0), non_zero(10, 50.0));
        assert_eq!(non_zero(10, 1.0), UNJUSTIFIED);
    }

    #[test]
    fn modulus_one_never_justifies() {
        assert_eq!(modulus(100, 1), UNJUSTIFIED);
        assert!(justified(modulus(7, 2), 0.99));
    }
}
