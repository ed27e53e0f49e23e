//! The weaver's side of non-termination monitoring: one [`NontermSpec`]
//! per woven unit collects its monitored loops and generates the C text.
//!
//! A monitored loop is wrapped in a block that sets up its revisit state
//! ([`LoopTexts::before`] and [`LoopTexts::after`]), and its condition
//! becomes `(condition) && weft_nt_step(…)` ([`LoopTexts::condition`]): the
//! step runs each time the loop goes on, whatever path reaches the
//! condition (`continue` included), after the condition's own effects
//! (`(c = getc(f)) != EOF`), and under the `break` policy a detected
//! revisit makes the condition false.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::c_text::{c_string, once_per_unit, unit_hooks, unit_stem};
use crate::trace::TracedVar;
use crate::value::VarKind;

/// The hot runtime part: the loop state and the step.
pub const RUNTIME_HOT: &str = concat!(
    include_str!("../../runtime/weft_value_hot.h"),
    include_str!("../../runtime/weft_nonterm_hot.h")
);
/// The cold runtime part: the common record code, then reporting.
pub const RUNTIME_COLD: &str = concat!(
    include_str!("../../runtime/weft_out.h"),
    include_str!("../../runtime/weft_nonterm_cold.h")
);

/// The most state values a loop can have (`WEFT_NT_MAX` in the runtime).
pub const MAX_STATE: usize = 32;

/// When a loop's state is compared with earlier ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Schedule {
    /// Brent's cycle detection: one saved state, moved at powers of two;
    /// O(1) time and memory per iteration. The default.
    #[default]
    Brent,
    /// EndWatch's interval schedule, for comparison: a hash of the state
    /// stored at iteration 1, every 100th up to 1,000, every 500th up to
    /// 10,000, every 1,000th up to 20,000 and every 5,000th after (at most
    /// 1,000), each iteration's hash compared with all of them, and a
    /// match confirmed exactly one period later.
    Interval,
}

impl FromStr for Schedule {
    type Err = String;
    fn from_str(s: &str) -> Result<Schedule, String> {
        match s {
            "brent" => Ok(Schedule::Brent),
            "interval" | "endwatch" => Ok(Schedule::Interval),
            _ => Err(format!("unknown schedule `{s}` (brent or interval)")),
        }
    }
}

/// What a detected revisit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// `abort()`: a crash that test harnesses and fuzzers count.
    Abort,
    /// Write the report and let the loop go on.
    Log,
    /// Write the report and leave the loop.
    Break,
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        match s {
            "abort" | "a" => Ok(Policy::Abort),
            "log" | "l" => Ok(Policy::Log),
            "break" | "b" => Ok(Policy::Break),
            _ => Err(format!("unknown policy `{s}` (abort, log or break)")),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Abort => "abort",
            Policy::Log => "log",
            Policy::Break => "break",
        })
    }
}

/// One monitored loop, as declared in the report files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopDecl {
    pub function: String,
    pub line: usize,
    /// Its state determines its next iteration: a revisit proves it never
    /// ends.
    pub exact: bool,
    /// The state variables: name and kind, in the order of the values.
    pub vars: Vec<(String, VarKind)>,
    /// A sufficient recurrence condition checked at each evaluation of
    /// the loop's condition: when it holds, the loop never ends.
    pub src: Option<String>,
    /// Not a loop: a recursive function, whose state is its arguments at
    /// each call, compared down one chain of calls.
    pub recursion: bool,
}

/// The C text that monitors one loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopTexts {
    /// Goes just before the loop: opens a block and sets up its state.
    pub before: String,
    /// Goes just after the loop: closes the block.
    pub after: String,
    /// The expression that replaces the loop's condition `COND`: the text
    /// holds `COND` where the condition goes, once.
    pub condition: String,
    /// For a loop without a condition (`for (;;)`): a statement for the
    /// start of its body.
    pub body_start: String,
}

/// The monitored loops of one woven unit.
#[derive(Debug, Clone)]
pub struct NontermSpec {
    file: String,
    stem: String,
    policy: Policy,
    schedule: Schedule,
    loops: Vec<LoopDecl>,
}

impl NontermSpec {
    /// An empty spec for the unit at `file` (its path relative to the
    /// program's root), whose revisits follow `policy` unless the run's
    /// `WEFT_NONTERM_POLICY` says otherwise, and whose loops compare states
    /// by `schedule`.
    pub fn new(file: &str, policy: Policy, schedule: Schedule) -> NontermSpec {
        NontermSpec {
            file: file.to_string(),
            stem: unit_stem(file),
            policy,
            schedule,
            loops: Vec::new(),
        }
    }

    /// The unit's loops, in declaration order.
    pub fn loops(&self) -> &[LoopDecl] {
        &self.loops
    }

    /// Adds a loop of `function` at `line` with `state` (at most
    /// [`MAX_STATE`] values) and returns its texts. With `src`, a C
    /// condition over variables in scope at the loop's condition, the
    /// loop is also reported as soon as `src` holds there (a sufficient
    /// recurrence condition: the loop can never end from such a state).
    pub fn add(
        &mut self,
        function: &str,
        line: usize,
        state: &[TracedVar],
        exact: bool,
        src: Option<&str>,
    ) -> LoopTexts {
        self.add_loop(function, line, state, exact, src, true)
    }

    /// Adds a loop whose state cannot be compared (a buffer beside a
    /// read() call) but whose recurrence condition `src` can be checked:
    /// its condition evaluations are counted (`weft_round` in `src`) and
    /// `src` reported with the values of `witness`; no revisit is looked
    /// for, so the state the monitor cannot read is never missed.
    pub fn add_src_only(
        &mut self,
        function: &str,
        line: usize,
        witness: &[TracedVar],
        src: &str,
    ) -> LoopTexts {
        self.add_loop(function, line, witness, false, Some(src), false)
    }

    /// Adds a directly recursive function of `line` with no effects, whose
    /// `state` is its arguments (at most [`MAX_STATE`] values), and returns
    /// the declarations for the start of its body: a call with the
    /// arguments of an active ancestor call is reported as never ending.
    pub fn add_recursion(&mut self, function: &str, line: usize, state: &[TracedVar]) -> String {
        let site = self.loops.len();
        self.loops.push(LoopDecl {
            function: function.to_string(),
            line,
            exact: true,
            vars: state.iter().map(|v| (v.name.clone(), v.kind)).collect(),
            src: None,
            recursion: true,
        });
        let encoded: Vec<String> = state.iter().map(|v| v.kind.encode(&v.expr)).collect();
        let values = if state.is_empty() {
            "0, 0".to_string()
        } else {
            format!(
                "(const unsigned long long[]){{{}}}, {}",
                encoded.join(", "),
                state.len()
            )
        };
        format!(
            "static struct weft_nt_rec weft_ntr_{site}; \
             struct weft_nt_rec *weft_ntg_{site} __attribute__((cleanup(weft_nt_leave), unused)) = \
             weft_nt_enter(weft_nt_{stem}, {site}u, &weft_ntr_{site}, {values});",
            stem = self.stem
        )
    }

    fn add_loop(
        &mut self,
        function: &str,
        line: usize,
        state: &[TracedVar],
        exact: bool,
        src: Option<&str>,
        revisits: bool,
    ) -> LoopTexts {
        let site = self.loops.len();
        self.loops.push(LoopDecl {
            function: function.to_string(),
            line,
            exact,
            vars: state.iter().map(|v| (v.name.clone(), v.kind)).collect(),
            src: src.map(str::to_string),
            recursion: false,
        });
        let local = format!("weft_ntl_{site}");
        let values = if state.is_empty() {
            "0, 0".to_string()
        } else {
            let encoded: Vec<String> = state.iter().map(|v| v.kind.encode(&v.expr)).collect();
            format!(
                "(const unsigned long long[]){{{}}}, {}",
                encoded.join(", "),
                state.len()
            )
        };
        let (kind, suffix, common) = match (revisits, self.schedule) {
            (false, _) | (true, Schedule::Brent) => ("weft_nt_loop", "", ""),
            (true, Schedule::Interval) => ("weft_nt_iloop", "_interval", ".weft_b"),
        };
        let unit = format!("weft_nt_{}", self.stem);
        let step = if revisits {
            format!("weft_nt_step{suffix}({unit}, {site}u, &{local}, {values})")
        } else {
            format!("weft_nt_count(&{local})")
        };
        // After the step, so a report counts this evaluation.
        // `weft_round` in an SRC (a check that needs a round to have run,
        // weft-loops' eof::ROUND) is this loop entry's evaluation count.
        let report = |src: &str| {
            let src = replace_word(src, "weft_round", &format!("{local}{common}.weft_iter"));
            format!("({src}) && !weft_nt_src({unit}, {site}u, &{local}{common}, {values})")
        };
        let (condition, body_start) = match src {
            Some(src) => (
                format!("(COND) && {step} && !({})", report(src)),
                format!("if (!{step} || ({})) break;", report(src)),
            ),
            None => (format!("(COND) && {step}"), format!("if (!{step}) break;")),
        };
        LoopTexts {
            before: format!("{{ struct {kind} {local}; weft_nt_begin{suffix}(&{local});"),
            after: "}".to_string(),
            condition,
            body_start,
        }
    }

    /// The declarations text written at the start of every report file.
    pub fn declarations(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n'], " ");
        let mut text = format!("unit\t{}\n", clean(&self.file));
        for l in &self.loops {
            let exact = if l.exact { "exact" } else { "inexact" };
            let kind = if l.recursion { "recursion" } else { "loop" };
            let _ = writeln!(
                text,
                "{kind}\t{}\t{}\t{exact}\t{}",
                clean(&l.function),
                l.line,
                l.vars.len()
            );
            for (name, kind) in &l.vars {
                let _ = writeln!(text, "var\t{}\t{kind}", clean(name));
            }
            if let Some(src) = &l.src {
                let _ = writeln!(text, "src\t{}", clean(src));
            }
        }
        text
    }

    /// The text for the very top of the woven file; empty without loops.
    pub fn prelude(&self) -> String {
        if self.loops.is_empty() {
            return String::new();
        }
        let own = format!("static struct weft_nt_unit *weft_nt_{} = 0;\n", self.stem);
        format!("{RUNTIME_HOT}{}", once_per_unit("NONTERM_HERE", &self.stem, &own))
    }

    /// The text for the very end of the woven file; empty without loops.
    pub fn epilogue(&self) -> String {
        if self.loops.is_empty() {
            return String::new();
        }
        let stem = &self.stem;
        let exact: Vec<&str> = self
            .loops
            .iter()
            .map(|l| if l.exact { "1" } else { "0" })
            .collect();
        let own = format!(
            "static const unsigned char weft_nt_exact_{stem}[] = {{{exact}}};\n\
             static struct weft_nt_unit weft_nt_unit_{stem} = {{\n    \"{stem}\", {decls}, {n}, weft_nt_exact_{stem}, \"{policy}\", -1\n}};\n{hooks}",
            exact = exact.join(", "),
            decls = c_string(&self.declarations()),
            n = self.loops.len(),
            policy = self.policy,
            hooks = unit_hooks(
                "weft_nt",
                stem,
                &format!("weft_nt_{stem} = &weft_nt_unit_{stem};"),
                &format!("weft_nt_forget(&weft_nt_unit_{stem});"),
            ),
        );
        format!("\n{RUNTIME_COLD}{}", once_per_unit("NONTERM_TU", stem, &own))
    }
}

/// `text` with each whole identifier `word` replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::new();
    let mut rest = 0;
    for (at, _) in text.match_indices(word) {
        if at < rest
            || is_word(text[..at].chars().next_back())
            || is_word(text[at + word.len()..].chars().next())
        {
            continue;
        }
        out.push_str(&text[rest..at]);
        out.push_str(by);
        rest = at + word.len();
    }
    out.push_str(&text[rest..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_gets_its_block_its_step_and_its_declaration() {
        let mut spec = NontermSpec::new("a.c", Policy::Abort, Schedule::Brent);
        let vars = [TracedVar::plain("i", VarKind::I64, "i")];
        let texts = spec.add("f", 4, &vars, true, None);
        assert_eq!(
            texts.before,
            "{ struct weft_nt_loop weft_ntl_0; weft_nt_begin(&weft_ntl_0);"
        );
        assert_eq!(
            texts.condition,
            "(COND) && weft_nt_step(weft_nt_a_c, 0u, &weft_ntl_0, (const unsigned long long[]){(unsigned long long)(long long)(i)}, 1)"
        );
        assert_eq!(
            spec.declarations(),
            "unit\ta.c\nloop\tf\t4\texact\t1\nvar\ti\ti64\n"
        );
        assert!(spec.epilogue().contains("weft_nt_exact_a_c[] = {1}"));
        assert_eq!("break".parse::<Policy>(), Ok(Policy::Break));
        assert!("stop".parse::<Policy>().is_err());
    }

    #[test]
    fn a_recurrence_condition_is_checked_after_the_step_and_declared() {
        let mut spec = NontermSpec::new("a.c", Policy::Abort, Schedule::Interval);
        let texts = spec.add("f", 4, &[], true, Some("i < n"));
        let report = "(i < n) && !weft_nt_src(weft_nt_a_c, 0u, &weft_ntl_0.weft_b, 0, 0)";
        assert_eq!(
            texts.condition,
            format!("(COND) && weft_nt_step_interval(weft_nt_a_c, 0u, &weft_ntl_0, 0, 0) && !({report})")
        );
        assert_eq!(
            texts.body_start,
            format!("if (!weft_nt_step_interval(weft_nt_a_c, 0u, &weft_ntl_0, 0, 0) || ({report})) break;")
        );
        assert_eq!(
            spec.declarations(),
            "unit\ta.c\nloop\tf\t4\texact\t0\nsrc\ti < n\n"
        );
    }

    #[test]
    fn a_loop_checked_only_for_its_src_counts_rounds_and_compares_nothing() {
        for schedule in [Schedule::Brent, Schedule::Interval] {
            let mut spec = NontermSpec::new("a.c", Policy::Abort, schedule);
            let vars = [TracedVar::plain("have", VarKind::I64, "have")];
            let texts = spec.add_src_only("f", 4, &vars, "weft_round > 1 && got == 0 && (have < want)");
            assert_eq!(
                texts.before,
                "{ struct weft_nt_loop weft_ntl_0; weft_nt_begin(&weft_ntl_0);"
            );
            let values = "(const unsigned long long[]){(unsigned long long)(long long)(have)}, 1";
            assert_eq!(
                texts.condition,
                format!(
                    "(COND) && weft_nt_count(&weft_ntl_0) && !((weft_ntl_0.weft_iter > 1 && got == 0 && (have < want)) \
                     && !weft_nt_src(weft_nt_a_c, 0u, &weft_ntl_0, {values}))"
                )
            );
            assert!(!texts.condition.contains("weft_nt_step"));
        }
        assert_eq!(
            replace_word("weft_rounds + weft_round", "weft_round", "n"),
            "weft_rounds + n"
        );
    }

    #[test]
    fn the_interval_schedule_has_its_own_loop_state_and_step() {
        let mut spec = NontermSpec::new("a.c", Policy::Log, Schedule::Interval);
        let texts = spec.add("f", 4, &[], false, None);
        assert_eq!(
            texts.before,
            "{ struct weft_nt_iloop weft_ntl_0; weft_nt_begin_interval(&weft_ntl_0);"
        );
        assert_eq!(
            texts.condition,
            "(COND) && weft_nt_step_interval(weft_nt_a_c, 0u, &weft_ntl_0, 0, 0)"
        );
        assert_eq!("endwatch".parse::<Schedule>(), Ok(Schedule::Interval));
        assert!("floyd".parse::<Schedule>().is_err());
    }
}
