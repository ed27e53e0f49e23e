//! SMT-LIB2 queries answered by an external solver, `z3` or `cvc5`, run
//! over a pipe, one process per query, each with its own timeout.
//!
//! A [`Query`] is declarations, assertions and the terms whose values are
//! wanted; [`Solver::check`] answers [`Answer::Sat`] with those values,
//! [`Answer::Unsat`] or [`Answer::Unknown`] (timeout, incompleteness).
//! Validity is unsat of the negation: [`Solver::valid`]. A missing solver
//! is an [`Error::NotFound`] naming what was looked for, never a panic.
//!
//! Nothing here knows what the formulas mean: terms are SMT-LIB2 text.

mod sexp;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub use sexp::Sexp;

/// Which solver program answers the queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Z3,
    Cvc5,
}

impl Kind {
    /// The program's name on `$PATH`.
    pub fn program(self) -> &'static str {
        match self {
            Kind::Z3 => "z3",
            Kind::Cvc5 => "cvc5",
        }
    }

    /// `z3` or `cvc5`, as a user writes it.
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "z3" => Some(Kind::Z3),
            "cvc5" => Some(Kind::Cvc5),
            _ => None,
        }
    }
}

/// What can go wrong asking a solver.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "no SMT solver found: {0} not on $PATH (install z3: apt-get install z3, or scripts/install-deps.sh)"
    )]
    NotFound(String),
    #[error("running {program}: {source}")]
    Io { program: String, source: std::io::Error },
    #[error("{program} rejected the query: {message}")]
    Solver { program: String, message: String },
}

/// An SMT-LIB2 sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sort {
    Bool,
    Int,
    /// A bit-vector of this many bits.
    BitVec(u32),
    /// An array from the first sort to the second (the theory of arrays:
    /// `select`, `store`).
    Array(Box<Sort>, Box<Sort>),
}

impl Sort {
    /// The sort as SMT-LIB2 text.
    pub fn smt(&self) -> String {
        match self {
            Sort::Bool => "Bool".into(),
            Sort::Int => "Int".into(),
            Sort::BitVec(w) => format!("(_ BitVec {w})"),
            Sort::Array(index, element) => format!("(Array {} {})", index.smt(), element.smt()),
        }
    }
}

/// One satisfiability question.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The SMT-LIB2 logic, e.g. `QF_LIA` or `QF_BV`; `ALL` when absent.
    pub logic: Option<String>,
    /// Constants declared before the assertions.
    pub declarations: Vec<(String, Sort)>,
    /// Boolean terms, all asserted.
    pub assertions: Vec<String>,
    /// Terms whose values a `sat` answer reports.
    pub values: Vec<String>,
    /// The assertions multiply variables: have the solver rewrite terms
    /// into sums of monomials before solving (z3's `rewriter.som`), so
    /// that a polynomial identity over bit-vectors is seen as one instead
    /// of being bit-blasted (a 32-bit `y*y` identity: unknown after 10 s
    /// without, unsat at once with). Solvers without the option skip it.
    pub polynomial: bool,
}

impl Query {
    /// A query in `logic` (None: the solver's default).
    pub fn new(logic: Option<&str>) -> Query {
        Query {
            logic: logic.map(str::to_string),
            ..Query::default()
        }
    }

    /// Declares a constant.
    pub fn declare(&mut self, name: &str, sort: Sort) -> &mut Query {
        self.declarations.push((name.to_string(), sort));
        self
    }

    /// Asserts a Boolean term.
    pub fn assert(&mut self, term: impl Into<String>) -> &mut Query {
        self.assertions.push(term.into());
        self
    }

    /// Asks for a term's value in a model.
    pub fn value(&mut self, term: impl Into<String>) -> &mut Query {
        self.values.push(term.into());
        self
    }

    /// The whole script, as sent to the solver (ending with `(exit)`).
    pub fn script(&self, timeout: Duration) -> String {
        let mut s = String::new();
        s.push_str("(set-option :print-success false)\n");
        if !self.values.is_empty() {
            s.push_str("(set-option :produce-models true)\n");
        }
        s.push_str(&format!("(set-option :timeout {})\n", timeout.as_millis().max(1)));
        if self.polynomial {
            s.push_str(SOM);
        }
        if let Some(logic) = &self.logic {
            s.push_str(&format!("(set-logic {logic})\n"));
        }
        for (name, sort) in &self.declarations {
            s.push_str(&format!("(declare-fun {name} () {})\n", sort.smt()));
        }
        for a in &self.assertions {
            s.push_str(&format!("(assert {a})\n"));
        }
        s.push_str("(check-sat)\n");
        s.push_str("(exit)\n");
        s
    }
}

/// The option asking for sums of monomials ([`Query::polynomial`]).
const SOM: &str = "(set-option :rewriter.som true)\n";

/// A solver's answer to a [`Query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable; the values asked for, term text → value text.
    Sat(Model),
    Unsat,
    /// The solver gave up: its reason (`timeout`, `incomplete`, …).
    Unknown(String),
}

/// Values of the terms a query asked for, as SMT-LIB2 text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub values: BTreeMap<String, String>,
}

impl Model {
    /// A value as a signed integer: Int literals, `(- n)`, and bit-vector
    /// literals `#b…`/`#x…` read as unsigned.
    pub fn int(&self, term: &str) -> Option<i128> {
        Sexp::parse(self.values.get(term)?).ok()?.as_int()
    }
}

/// A solver program and the time each query may take.
#[derive(Clone, Debug)]
pub struct Solver {
    pub kind: Kind,
    pub path: PathBuf,
    pub timeout: Duration,
    /// When set, queries after this instant are not asked: each answers
    /// `Unknown` with [`BUDGET_SPENT`] (a budget over all the queries of
    /// one loop, say).
    pub deadline: Option<std::time::Instant>,
}

/// The reason of an `Unknown` answer to a query asked after the solver's
/// deadline.
pub const BUDGET_SPENT: &str = "time budget spent";

impl Solver {
    /// The same solver with a deadline `budget` from now.
    pub fn with_budget(&self, budget: Duration) -> Solver {
        Solver {
            deadline: Some(std::time::Instant::now() + budget),
            ..self.clone()
        }
    }

    /// Whether the deadline has passed.
    pub fn spent(&self) -> bool {
        self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// The solver `kind` names, or when None, `z3` if found on `$PATH`,
    /// else `cvc5`.
    pub fn find(kind: Option<Kind>, timeout: Duration) -> Result<Solver, Error> {
        let kinds = match kind {
            Some(k) => vec![k],
            None => vec![Kind::Z3, Kind::Cvc5],
        };
        for k in &kinds {
            if let Some(path) = on_path(k.program()) {
                return Ok(Solver {
                    kind: *k,
                    path,
                    timeout,
                    deadline: None,
                });
            }
        }
        let names: Vec<&str> = kinds.iter().map(|k| k.program()).collect();
        Err(Error::NotFound(names.join(" or ")))
    }

    /// The solver at `path`, of kind `kind`.
    pub fn at(kind: Kind, path: impl Into<PathBuf>, timeout: Duration) -> Solver {
        Solver {
            kind,
            path: path.into(),
            timeout,
            deadline: None,
        }
    }

    fn program(&self) -> String {
        self.path.display().to_string()
    }

    /// Asks whether `query`'s assertions are satisfiable.
    pub fn check(&self, query: &Query) -> Result<Answer, Error> {
        if self.spent() {
            return Ok(Answer::Unknown(BUDGET_SPENT.into()));
        }
        let mut script = query.script(self.timeout);
        if !query.values.is_empty() {
            // Asked for after check-sat; a solver answering unsat or
            // unknown reports an error for it, which is ignored then.
            let at = script.len() - "(exit)\n".len();
            script.insert_str(at, &format!("(get-value ({}))\n", query.values.join(" ")));
        }
        let out = self.run(&script)?;
        let mut lines = out.trim_start().splitn(2, '\n');
        let first = lines.next().unwrap_or("").trim();
        let rest = lines.next().unwrap_or("");
        match first {
            "sat" => {
                let mut model = Model::default();
                if !query.values.is_empty() {
                    let parsed = Sexp::parse(rest.trim()).map_err(|message| self.rejected(message))?;
                    for pair in parsed.list().unwrap_or(&[]) {
                        if let Some([term, value]) = pair.list() {
                            model.values.insert(term.to_string(), value.to_string());
                        }
                    }
                    for (asked, (_, v)) in query.values.iter().zip(model.values.clone()) {
                        // Solvers may reprint a term differently; keep the
                        // asker's spelling too.
                        model.values.entry(asked.clone()).or_insert(v);
                    }
                }
                Ok(Answer::Sat(model))
            }
            "unsat" => Ok(Answer::Unsat),
            "unknown" | "timeout" => Ok(Answer::Unknown(if first == "timeout" {
                "timeout".into()
            } else {
                self.reason_unknown(query)
            })),
            _ => Err(self.rejected(out.trim().to_string())),
        }
    }

    /// Answers several queries with one solver process: each in its own
    /// `(push 1)`…`(pop 1)` scope (after a `(reset)` when one is
    /// [`Query::polynomial`]), each with the per-query timeout. Values
    /// are not reported (every `Sat` has an empty model); the logic is the
    /// first query's. The answers are in the queries' order.
    pub fn check_many(&self, queries: &[Query]) -> Result<Vec<Answer>, Error> {
        if queries.is_empty() {
            return Ok(Vec::new());
        }
        if self.spent() {
            return Ok(vec![Answer::Unknown(BUDGET_SPENT.into()); queries.len()]);
        }
        // Polynomial queries each start afresh after a `(reset)`: in
        // push/pop scopes z3 skips the rewriting into sums of monomials
        // (a 32-bit identity unknown after 10 s, unsat at once alone).
        let polynomial = queries.iter().any(|q| q.polynomial);
        let mut header = String::new();
        header.push_str("(set-option :print-success false)\n");
        header.push_str(&format!(
            "(set-option :timeout {})\n",
            self.timeout.as_millis().max(1)
        ));
        if polynomial {
            header.push_str(SOM);
        }
        if let Some(logic) = &queries[0].logic {
            header.push_str(&format!("(set-logic {logic})\n"));
        }
        let mut script = header.clone();
        for (i, q) in queries.iter().enumerate() {
            match (polynomial, i) {
                (false, _) => script.push_str("(push 1)\n"),
                (true, 0) => {}
                (true, _) => {
                    script.push_str("(reset)\n");
                    script.push_str(&header);
                }
            }
            for (name, sort) in &q.declarations {
                script.push_str(&format!("(declare-fun {name} () {})\n", sort.smt()));
            }
            for a in &q.assertions {
                script.push_str(&format!("(assert {a})\n"));
            }
            script.push_str("(check-sat)\n");
            if !polynomial {
                script.push_str("(pop 1)\n");
            }
        }
        script.push_str("(exit)\n");
        let wall = self.timeout * queries.len() as u32;
        let out = self.run_for(&script, wall)?;
        let mut answers = Vec::new();
        for line in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
            answers.push(match line {
                "sat" => Answer::Sat(Model::default()),
                "unsat" => Answer::Unsat,
                "unknown" => Answer::Unknown("unknown".into()),
                "timeout" => Answer::Unknown("timeout".into()),
                _ => return Err(self.rejected(line.to_string())),
            });
        }
        // A solver stopped at the wall deadline answers the rest unknown.
        while answers.len() < queries.len() {
            answers.push(Answer::Unknown("timeout".into()));
        }
        answers.truncate(queries.len());
        Ok(answers)
    }

    /// Eliminates the quantifiers of the query's assertions (z3's `qe`
    /// tactic, then `simplify`): the answer is a disjunction of goals,
    /// each a conjunction of quantifier-free formulas over the declared
    /// constants (`let` bindings may remain). `[]` means false, `[[]]`
    /// true. Only z3 offers this; cvc5 is an error.
    pub fn eliminate(&self, query: &Query) -> Result<Vec<Vec<Sexp>>, Error> {
        if self.kind != Kind::Z3 {
            return Err(self.rejected("quantifier elimination needs z3".into()));
        }
        let mut script = query.script(self.timeout);
        let at = script.find("(check-sat)").expect("scripts end with check-sat");
        script.replace_range(at..at + "(check-sat)".len(), "(apply (then qe simplify))");
        let out = self.run(&script)?;
        if out.trim() == "timeout" {
            return Err(self.rejected("timeout".into()));
        }
        let parsed = Sexp::parse(out.trim()).map_err(|message| self.rejected(format!("{message}: {out}")))?;
        let items = parsed.list().unwrap_or(&[]);
        if items.first() != Some(&Sexp::Atom("goals".into())) {
            return Err(self.rejected(out.trim().to_string()));
        }
        let mut goals = Vec::new();
        for goal in &items[1..] {
            let formulas: Vec<Sexp> = goal
                .list()
                .unwrap_or(&[])
                .iter()
                .skip(1)
                .take_while(|f| !matches!(f, Sexp::Atom(a) if a.starts_with(':')))
                .cloned()
                .collect();
            if formulas == [Sexp::Atom("false".into())] {
                continue;
            }
            goals.push(formulas);
        }
        Ok(goals)
    }

    /// Whether `term` holds for every value of the declared constants:
    /// `Unsat` of its negation. Sat means a counterexample (the values
    /// asked for are its model).
    pub fn valid(&self, query: &Query, term: &str) -> Result<Answer, Error> {
        let mut q = query.clone();
        q.assert(format!("(not {term})"));
        self.check(&q)
    }

    fn reason_unknown(&self, query: &Query) -> String {
        let mut script = query.script(self.timeout);
        let at = script.len() - "(exit)\n".len();
        script.insert_str(at, "(get-info :reason-unknown)\n");
        match self.run(&script) {
            Ok(out) if out.contains("timeout") || out.contains("canceled") => "timeout".into(),
            Ok(out) if out.contains("resourceout") => "timeout".into(),
            Ok(out) => out.lines().nth(1).unwrap_or("unknown").trim().to_string(),
            Err(_) => "unknown".into(),
        }
    }

    fn rejected(&self, message: String) -> Error {
        Error::Solver {
            program: self.program(),
            message,
        }
    }

    /// Runs one script, killing the solver a second after its timeout.
    fn run(&self, script: &str) -> Result<String, Error> {
        self.run_for(script, self.timeout)
    }

    /// Runs one script, killing the solver a second after `wall`; what
    /// it answered by then is kept, followed by `timeout`.
    fn run_for(&self, script: &str, wall: Duration) -> Result<String, Error> {
        let io = |source| Error::Io {
            program: self.program(),
            source,
        };
        let mut cmd = Command::new(&self.path);
        let ms = self.timeout.as_millis().max(1);
        match self.kind {
            Kind::Z3 => cmd.args(["-in", "-smt2", &format!("-t:{ms}")]),
            Kind::Cvc5 => cmd.args(["--lang", "smt2", "--incremental", &format!("--tlimit-per={ms}")]),
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Error::NotFound(self.program()),
                _ => io(e),
            })?;
        // cvc5 takes its time limit on the command line.
        let script: String = match self.kind {
            Kind::Z3 => script.to_string(),
            Kind::Cvc5 => script
                .lines()
                .filter(|l| !l.starts_with("(set-option :timeout"))
                .map(|l| format!("{l}\n"))
                .collect(),
        };
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(script.as_bytes()).map_err(io)?;
        drop(stdin);
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            stdout.read_to_string(&mut s).map(|_| s)
        });
        let mut deadline = Instant::now() + wall + Duration::from_secs(1);
        // A budget's deadline bounds a batch too (one per query otherwise).
        if let Some(budget) = self.deadline {
            deadline = deadline.min(budget.max(Instant::now() + Duration::from_millis(100)));
        }
        loop {
            if child.try_wait().map_err(io)?.is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                let partial = reader.join().expect("reader thread").unwrap_or_default();
                return Ok(format!("{partial}\ntimeout\n"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let out = reader.join().expect("reader thread").map_err(io)?;
        // Options a solver does not know are answered `unsupported`.
        let out: String = out
            .lines()
            .filter(|l| l.trim() != "unsupported")
            .map(|l| format!("{l}\n"))
            .collect();
        if out.trim().is_empty() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return Err(self.rejected(format!("no answer; {}", err.trim())));
        }
        Ok(out)
    }
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests;
