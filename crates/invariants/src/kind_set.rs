//! Sets of invariant kinds, by the names reports use: which kinds an
//! engine leaves out ([`Config::off`](crate::Config)).
//!
//! Daikon leaves `Modulus`, `NonModulus` and `Even` out unless asked
//! (their `dkconfig_enabled` switches are false): a residue that no
//! training sample happened to take says little about the program, and
//! correct runs on new inputs break such invariants more than any other
//! kind. weft does the same by default.

use std::fmt;

use crate::invariants::Kind;

/// A set of invariant kinds (printable ones: the internal kinds that
/// drive suppression cannot be named).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u32);

impl KindSet {
    /// The kinds Daikon leaves out by default: `Modulus`, `NonModulus`,
    /// `Even`.
    pub fn daikon_off() -> KindSet {
        KindSet::of(&[Kind::Modulus, Kind::NonModulus, Kind::Even])
    }

    /// No kind.
    pub fn none() -> KindSet {
        KindSet(0)
    }

    /// The kinds named (as reports name them: `NonModulus`, `LessThan`,
    /// …); an error names the first unknown one and the known ones.
    pub fn parse<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Result<KindSet, String> {
        let mut set = KindSet::none();
        for name in names {
            let name = name.as_ref();
            match Kind::ALL.iter().find(|k| !k.is_internal() && k.name() == name) {
                Some(&kind) => set.0 |= bit(kind),
                None => return Err(format!("unknown invariant kind {name:?} (known: {})", known())),
            }
        }
        Ok(set)
    }

    /// The kinds' names, in the order reports list kinds.
    pub fn names(self) -> Vec<&'static str> {
        Kind::ALL
            .iter()
            .filter(|&&k| self.contains(k))
            .map(|k| k.name())
            .collect()
    }

    pub(crate) fn contains(self, kind: Kind) -> bool {
        self.0 & bit(kind) != 0
    }

    fn of(kinds: &[Kind]) -> KindSet {
        KindSet(kinds.iter().fold(0, |bits, &k| bits | bit(k)))
    }
}

impl fmt::Display for KindSet {
    /// The names, comma-separated (empty for no kind).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.names().join(","))
    }
}

fn bit(kind: Kind) -> u32 {
    1 << kind as u32
}

/// Every nameable kind, for an error message.
fn known() -> String {
    Kind::ALL
        .iter()
        .filter(|k| !k.is_internal())
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        let set = KindSet::parse(["NonModulus", "LessThan"]).unwrap();
        assert_eq!(set.names(), ["NonModulus", "LessThan"]);
        assert!(set.contains(Kind::Less) && !set.contains(Kind::Modulus));
        assert_eq!(KindSet::parse(set.names()).unwrap(), set);
        assert_eq!(KindSet::daikon_off().to_string(), "Modulus,NonModulus,Even");
        let err = KindSet::parse(["NonModulus", "Modulo"]).unwrap_err();
        assert!(err.contains("\"Modulo\"") && err.contains("NonModulus"), "{err}");
        // Internal kinds exist only to drive suppression: not nameable.
        assert!(KindSet::parse(["SingleValue"]).is_err());
    }

    #[test]
    fn every_kind_has_its_own_bit() {
        assert!(Kind::ALL.len() <= 32);
        for (i, &k) in Kind::ALL.iter().enumerate() {
            assert_eq!(k as usize, i, "Kind::ALL in declaration order");
        }
    }
}
