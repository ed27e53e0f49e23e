//! The bridge that lets aspects monitor loops for non-termination: a rhai
//! type `NontermMonitors` holding one [`NontermSpec`] per woven file.
//!
//! ```text
//! let nt = NontermMonitors("abort");
//! var texts = nt.monitor($loop.file, $function.name, $loop.line, vars, $loop.state_exact, src);
//! // texts: #{before, after, condition, body_start}, or () when a state
//! // variable cannot be read (listed by nt.skipped()); src: () or a
//! // recurrence condition ($loop.src), reported as soon as it holds
//! var only = nt.monitor_src($loop.file, $function.name, $loop.line, vars, src);
//! // a loop whose state cannot be read: only its SRC checked
//! ```
//!
//! Vars are maps as for `TraceTables`: `name`, `type`, optional `pointer`
//! and `expr`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use super::spec::{MAX_STATE, NontermSpec, Policy, Schedule};
use crate::script::{text, unit_text};
use crate::trace::TracedVar;
use crate::value::VarKind;

type Fallible<T> = Result<T, Box<EvalAltResult>>;

#[derive(Debug)]
struct Specs {
    policy: Policy,
    schedule: Schedule,
    by_file: BTreeMap<String, NontermSpec>,
    /// Loops not monitored, with why.
    skipped: Vec<String>,
}

/// The non-termination specs of one weave (rhai type `NontermMonitors`).
#[derive(Debug, Clone)]
pub struct NontermMonitors {
    inner: Arc<Mutex<Specs>>,
}

impl NontermMonitors {
    /// Monitors whose revisits follow `policy` by default and whose loops
    /// compare states by `schedule`.
    pub fn new(policy: Policy, schedule: Schedule) -> NontermMonitors {
        NontermMonitors {
            inner: Arc::new(Mutex::new(Specs {
                policy,
                schedule,
                by_file: BTreeMap::new(),
                skipped: Vec::new(),
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Specs> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The texts monitoring a loop (and checking `src` at its condition),
    /// or why it cannot be monitored.
    fn monitor(
        &self,
        at: (&str, &str, usize),
        requested: &Array,
        exact: bool,
        src: Option<&str>,
    ) -> Result<Map, String> {
        let (file, function, line) = at;
        let mut state = Vec::new();
        for value in requested {
            let var = value
                .read_lock::<Map>()
                .ok_or("NontermMonitors: each var must be a map")?;
            let field = |key: &str| var.get(key).filter(|v| !v.is_unit()).map(|v| v.to_string());
            let name = field("name").ok_or("NontermMonitors: a var without a `name`")?;
            let pointer = var.get("pointer").and_then(|v| v.as_bool().ok()).unwrap_or(false);
            let c_type = field("type").unwrap_or_else(|| "unknown type".into());
            let kind = VarKind::for_c_type(&c_type, pointer).ok_or_else(|| {
                format!("state variable `{name}` has type `{c_type}`, which weft cannot read")
            })?;
            let expr = field("expr").unwrap_or_else(|| name.clone());
            state.push(TracedVar::plain(&name, kind, &expr));
        }
        if state.len() > MAX_STATE {
            return Err(format!("{} state variables, more than {MAX_STATE}", state.len()));
        }
        let mut specs = self.lock();
        let (policy, schedule) = (specs.policy, specs.schedule);
        let spec = specs
            .by_file
            .entry(file.to_string())
            .or_insert_with(|| NontermSpec::new(file, policy, schedule));
        let texts = spec.add(function, line, &state, exact, src);
        let mut map = Map::new();
        map.insert("before".into(), texts.before.into());
        map.insert("after".into(), texts.after.into());
        map.insert("condition".into(), texts.condition.into());
        map.insert("body_start".into(), texts.body_start.into());
        Ok(map)
    }

    /// The texts checking only `src` at a loop whose state cannot be
    /// monitored ([`NontermSpec::add_src_only`]); the `requested` variables
    /// weft can read (at most [`MAX_STATE`]) are the report's witness.
    fn monitor_src(&self, at: (&str, &str, usize), requested: &Array, src: &str) -> Map {
        let (file, function, line) = at;
        let mut witness = Vec::new();
        for value in requested {
            let Some(var) = value.read_lock::<Map>() else {
                continue;
            };
            let field = |key: &str| var.get(key).filter(|v| !v.is_unit()).map(|v| v.to_string());
            let pointer = var.get("pointer").and_then(|v| v.as_bool().ok()).unwrap_or(false);
            let (Some(name), Some(c_type)) = (field("name"), field("type")) else {
                continue;
            };
            if let Some(kind) = VarKind::for_c_type(&c_type, pointer)
                && witness.len() < MAX_STATE
            {
                witness.push(TracedVar::plain(&name, kind, &name));
            }
        }
        let mut specs = self.lock();
        let (policy, schedule) = (specs.policy, specs.schedule);
        let texts = specs
            .by_file
            .entry(file.to_string())
            .or_insert_with(|| NontermSpec::new(file, policy, schedule))
            .add_src_only(function, line, &witness, src);
        let mut map = Map::new();
        map.insert("before".into(), texts.before.into());
        map.insert("after".into(), texts.after.into());
        map.insert("condition".into(), texts.condition.into());
        map.insert("body_start".into(), texts.body_start.into());
        map
    }

    /// [`NontermMonitors::monitor`] for a script: the texts, or () with
    /// the loop listed among the skipped. `src` is () or empty for none.
    fn monitor_or_skip(
        &self,
        file: &Dynamic,
        function: &Dynamic,
        line: rhai::INT,
        vars: &Array,
        exact: bool,
        src: &Dynamic,
    ) -> Dynamic {
        let (file, function, src) = (text(file), text(function), text(src));
        let line = usize::try_from(line).unwrap_or(0);
        let src = Some(src.as_str()).filter(|s| !s.is_empty());
        match self.monitor((&file, &function, line), vars, exact, src) {
            Ok(map) => Dynamic::from(map),
            Err(why) => {
                self.lock()
                    .skipped
                    .push(format!("{file}:{line}: loop in {function}: {why}"));
                Dynamic::UNIT
            }
        }
    }
}

/// `NontermMonitors(policy, schedule)`, both given as text.
fn monitors(policy: &Dynamic, schedule: &Dynamic) -> Fallible<NontermMonitors> {
    let policy: Policy = text(policy)
        .parse()
        .map_err(|e: String| format!("NontermMonitors: {e}"))?;
    let schedule: Schedule = text(schedule)
        .parse()
        .map_err(|e: String| format!("NontermMonitors: {e}"))?;
    Ok(NontermMonitors::new(policy, schedule))
}

/// Registers `NontermMonitors(policy[, schedule])` with `monitor` (an SRC
/// or () last), `skip`, `skipped`,
/// `files`, `loops`, `prelude` and `epilogue`.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<NontermMonitors>("NontermMonitors")
        .register_fn(
            "NontermMonitors",
            |policy: Dynamic| -> Fallible<NontermMonitors> { monitors(&policy, &Dynamic::from("brent")) },
        )
        .register_fn(
            "NontermMonitors",
            |policy: Dynamic, schedule: Dynamic| -> Fallible<NontermMonitors> {
                monitors(&policy, &schedule)
            },
        )
        .register_fn(
            "monitor",
            |m: &mut NontermMonitors,
             file: Dynamic,
             function: Dynamic,
             line: rhai::INT,
             vars: Array,
             exact: bool,
             src: Dynamic| { m.monitor_or_skip(&file, &function, line, &vars, exact, &src) },
        )
        .register_fn(
            "monitor_src",
            |m: &mut NontermMonitors,
             file: Dynamic,
             function: Dynamic,
             line: rhai::INT,
             vars: Array,
             src: Dynamic| {
                let line = usize::try_from(line).unwrap_or(0);
                m.monitor_src((&text(&file), &text(&function), line), &vars, &text(&src))
            },
        )
        .register_fn("skip", |m: &mut NontermMonitors, why: Dynamic| {
            m.lock().skipped.push(text(&why))
        })
        .register_fn("skipped", |m: &mut NontermMonitors| -> Array {
            m.lock().skipped.iter().cloned().map(Dynamic::from).collect()
        })
        .register_fn("files", |m: &mut NontermMonitors| -> Array {
            m.lock().by_file.keys().cloned().map(Dynamic::from).collect()
        })
        .register_fn("loops", |m: &mut NontermMonitors| {
            m.lock().by_file.values().map(|s| s.loops().len()).sum::<usize>() as rhai::INT
        })
        .register_fn("prelude", |m: &mut NontermMonitors, file: Dynamic| {
            unit_text(&m.lock().by_file, &text(&file), NontermSpec::prelude)
        })
        .register_fn("epilogue", |m: &mut NontermMonitors, file: Dynamic| {
            unit_text(&m.lock().by_file, &text(&file), NontermSpec::epilogue)
        });
}
