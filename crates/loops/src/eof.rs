//! Input calls at end of file. A loop that reads with `read()` or the
//! stdio functions is analysed on the path where its input is exhausted:
//! each call is replaced by the value it returns at end of file (0 for
//! `read` and `fread`, `EOF` for `getc`, `fgetc` and `getchar`, a null
//! pointer for `fgets`), and an SRC of that model says the loop never
//! ends *once every call returns that value*. The woven check adds what
//! makes that premise true at run time ([`Eof::check`]): the stream's
//! end-of-file indicator (`feof`), or for `read()`, which has none, a
//! variable the loop assigned from `read()` holding 0.
//!
//! The assumption, said wherever such an SRC is printed: end of file is
//! sticky. For stdio it is C11 7.21.7.1 (once the indicator is set, every
//! input function returns EOF until it is cleared; glibc conforms since
//! 2.28) and the loop calls nothing that clears it (any call outside this
//! table puts the loop outside the model). For `read()` it holds for
//! regular files nobody appends to and for pipes and sockets whose
//! writers are gone, not for terminals (a user can type after `^D`).

use std::collections::BTreeSet;

use crate::ir::{BinOp, Expr, INT, IntType};

/// The phrase that marks an SRC found at end of file.
pub const ASSUMPTION: &str = "assuming end of file is sticky";

/// The identifier a check uses for "condition evaluations of this loop
/// entry so far, this one included"; the weaver replaces it
/// ([`crate::weave_checks`], the nonterm monitor's texts).
pub const ROUND: &str = "weft_round";

/// Where an input function finds its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `FILE *` argument at this position.
    Stream(usize),
    /// Standard input (`getchar`).
    Stdin,
    /// A file descriptor argument at this position (`read`).
    Descriptor(usize),
}

/// An input function the model knows.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    pub name: &'static str,
    /// What it returns at end of file.
    pub at_eof: i128,
    /// Its result type (a pointer result is modelled as an address).
    pub ty: IntType,
    pub source: Source,
    /// For `read`: the argument that must be positive for a 0 result to
    /// mean end of file.
    pub count: Option<usize>,
}

const LONG: IntType = IntType {
    width: 64,
    signed: true,
};
const SIZE: IntType = IntType {
    width: 64,
    signed: false,
};

/// The input functions of the model.
pub const INPUTS: &[Input] = &[
    Input {
        name: "read",
        at_eof: 0,
        ty: LONG,
        source: Source::Descriptor(0),
        count: Some(2),
    },
    Input {
        name: "getc",
        at_eof: -1,
        ty: INT,
        source: Source::Stream(0),
        count: None,
    },
    Input {
        name: "fgetc",
        at_eof: -1,
        ty: INT,
        source: Source::Stream(0),
        count: None,
    },
    Input {
        name: "getchar",
        at_eof: -1,
        ty: INT,
        source: Source::Stdin,
        count: None,
    },
    Input {
        name: "fread",
        at_eof: 0,
        ty: SIZE,
        source: Source::Stream(3),
        count: None,
    },
    Input {
        name: "fgets",
        at_eof: 0,
        ty: SIZE,
        source: Source::Stream(2),
        count: None,
    },
];

/// The input function called `name`, if the model knows it.
pub fn input(name: &str) -> Option<&'static Input> {
    INPUTS.iter().find(|i| i.name == name)
}

/// Whether a loop's text names an input function or a stream query: only
/// such loops are worth a second extraction under the model.
pub fn mentions_input(text: &str) -> bool {
    INPUTS
        .iter()
        .map(|i| i.name)
        .chain(["feof", "ferror"])
        .any(|name| {
            text.match_indices(name).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].trim_start().chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
            })
        })
}

/// What a loop analysed at end of file reads, for the woven check.
#[derive(Clone, Debug, Default)]
pub struct Eof {
    /// A `do` loop: its check runs at the head, before the body's calls.
    pub do_loop: bool,
    /// The streams read or queried (`FILE *` text: a name or `stdin`).
    pub streams: BTreeSet<String>,
    /// The descriptors read with `read()` (a name or a literal).
    pub descriptors: BTreeSet<String>,
    /// The loop calls `ferror`, modelled as 0: the check asks it too.
    pub asks_error: bool,
    /// Variables the guard assigns from an input call, with the value
    /// they get at end of file.
    pub guard_assigned: Vec<(String, Expr)>,
    /// Of those, the ones assigned from `read()`.
    pub guard_read: BTreeSet<String>,
    /// Variables whose value on every path going round was last assigned
    /// from `read()`.
    pub recorded: BTreeSet<String>,
}

impl Eof {
    /// The woven check of an SRC `s` found under the model: the premise
    /// that every later call returns its end-of-file value, and `s`.
    /// Why the check can never fire on a loop that would end:
    /// docs/nonterm.md, "Input at end of file". Err: no premise can be
    /// checked at the loop head.
    pub fn check(&self, s: &Expr) -> Result<String, String> {
        let mut read = BTreeSet::new();
        s.vars(&mut read);
        // A `while` or `for` check follows the condition, which has just
        // overwritten what it assigns: S must not read it.
        let overwritten = |v: &String| !self.do_loop && self.guard_assigned.iter().any(|(g, _)| g == v);
        if let Some(v) = read.iter().find(|v| overwritten(v)) {
            return Err(format!(
                "the SRC reads {v}, which the condition assigns from an input call"
            ));
        }
        let mut premise: Vec<String> = Vec::new();
        if !self.descriptors.is_empty() {
            premise.extend(self.descriptor_premise()?);
        }
        for stream in &self.streams {
            premise.push(format!("feof({stream})"));
            if self.asks_error {
                premise.push(format!("!ferror({stream})"));
            }
        }
        if !self.do_loop {
            // The check follows the condition: what the condition's calls
            // left must be what the model says they return.
            for (v, value) in &self.guard_assigned {
                premise.push(Expr::bin(BinOp::Eq, Expr::Var(v.clone()), value.clone()).to_string());
            }
        }
        premise.push(format!("({s})"));
        Ok(premise.join(" && "))
    }

    /// For `read()`: a variable that holds its last result is 0, and that
    /// call had a positive count, so it was at end of file.
    fn descriptor_premise(&self) -> Result<Vec<String>, String> {
        if self.descriptors.len() > 1 {
            return Err("reads more than one descriptor".into());
        }
        // A `while` or `for` condition that assigns read()'s result: the
        // check follows it, so the variable holds this very call's result.
        // (`v == 0` is among the condition's assignments, below.)
        if !self.do_loop && !self.guard_read.is_empty() {
            return Ok(Vec::new());
        }
        // Not one a `while` or `for` condition has just overwritten from
        // another call.
        let kept = self
            .recorded
            .iter()
            .find(|v| self.do_loop || self.guard_assigned.iter().all(|(g, _)| g != *v));
        match kept {
            // Before the first round ends, the variable holds what it held
            // before the loop, not a result.
            Some(v) => Ok(vec![format!("{ROUND} > 1"), format!("{v} == 0")]),
            None => Err("no variable keeps the result of read() on every path".into()),
        }
    }
}
