//! Translation of an aspect module into one rhai script.
//!
//! Each aspectdef becomes a rhai function `weft_aspect_<Name>(weft_in)`
//! taking its inputs as a map and returning its outputs as a map. Each apply
//! becomes a block that asks the host for the selected tuples, loops over
//! them with a rhai `for` (so `break` and `continue` are rhai's own), binds
//! `$name` variables, skips tuples failing the condition, runs the body and
//! commits. LARA actions become calls of registered functions carrying a
//! site number, through which warnings and errors find the aspect location.

use std::collections::HashSet;

use crate::aspect::ast::*;
use crate::diag::{Diagnostic, Diagnostics, closest};

use super::emit::{Emitter, SourceMap};
use super::names;
use super::translate_expr::rhai_name;

/// The generated script and what its registered calls refer to.
#[derive(Debug)]
pub struct Translation {
    pub script: String,
    pub map: SourceMap,
    /// The selects of apply number `i`, joined when there are several.
    pub applies: Vec<Vec<Chain>>,
    /// Where action number `i` (insert, perform, def, apply) was written.
    pub sites: Vec<Span>,
}

/// The rhai function implementing aspect `name`.
pub fn aspect_function(name: &str) -> String {
    format!("weft_aspect_{name}")
}

/// The rhai variable holding join point `$name`.
pub fn jp_variable(name: &str) -> String {
    format!("weft_jp_{name}")
}

/// Translates every aspect of `module`; errors are the problems a static
/// check can see (unknown kinds, attributes, aspects, labels, variables).
pub fn translate(module: &Module) -> Result<Translation, Diagnostics> {
    let mut t = Translator {
        module,
        out: Emitter::new(),
        applies: Vec::new(),
        sites: Vec::new(),
        errors: Vec::new(),
        selects: Vec::new(),
        bound: Vec::new(),
        closures: HashSet::new(),
    };
    for aspect in &module.aspects {
        t.aspect(aspect);
    }
    if !t.errors.is_empty() {
        return Err(Diagnostics(t.errors));
    }
    let (script, map) = t.out.finish();
    Ok(Translation {
        script,
        map,
        applies: t.applies,
        sites: t.sites,
    })
}

/// Names an aspect binds to JS functions: `function f(…) {…}` and
/// `var f = function (…) {…};`, wherever they appear in the aspect.
fn function_variables(aspect: &AspectDef) -> HashSet<String> {
    fn stmt(s: &Stmt, names: &mut HashSet<String>) {
        match s {
            Stmt::Function { name, body, .. } => {
                names.insert(name.name.clone());
                body.iter().for_each(|s| stmt(s, names));
            }
            Stmt::Expr { expr, .. } => {
                if let [
                    Token::Plain(_),
                    Token::Plain(name),
                    Token::Plain(eq),
                    Token::Function { .. },
                ] = expr.tokens.as_slice()
                    && eq.text() == "="
                {
                    names.insert(name.text().to_string());
                }
                if let [Token::Plain(name), Token::Plain(eq), Token::Function { .. }] = expr.tokens.as_slice()
                    && eq.text() == "="
                {
                    names.insert(name.text().to_string());
                }
                expr.tokens.iter().for_each(|t| token(t, names));
            }
            Stmt::Block(body) => body.iter().for_each(|s| stmt(s, names)),
            Stmt::If { then, otherwise, .. } => {
                stmt(then, names);
                otherwise.iter().for_each(|s| stmt(s, names));
            }
            Stmt::ForKeys { body, .. }
            | Stmt::ForValues { body, .. }
            | Stmt::While { body, .. }
            | Stmt::Loop(body) => stmt(body, names),
            _ => {}
        }
    }
    fn token(t: &Token, names: &mut HashSet<String>) {
        match t {
            Token::Function { body, .. } => body.iter().for_each(|s| stmt(s, names)),
            Token::Group { tokens, .. } => tokens.iter().for_each(|t| token(t, names)),
            _ => {}
        }
    }
    let mut names = HashSet::new();
    for item in &aspect.items {
        match item {
            Item::Stmt(s) => stmt(s, &mut names),
            Item::Apply(apply) => apply.body.iter().for_each(|s| stmt(s, &mut names)),
            Item::Select(_) => {}
        }
    }
    names
}

pub(super) struct Translator<'m> {
    module: &'m Module,
    pub(super) out: Emitter,
    applies: Vec<Vec<Chain>>,
    sites: Vec<Span>,
    pub(super) errors: Vec<Diagnostic>,
    /// Selects seen so far in the current aspect.
    selects: Vec<&'m Select>,
    /// Join point names bound by the enclosing apply, in chain order.
    pub(super) bound: Vec<String>,
    /// Variables of the current aspect holding JS functions: rhai calls
    /// them as `f.call(…)`.
    pub(super) closures: HashSet<String>,
}

impl<'m> Translator<'m> {
    fn aspect(&mut self, aspect: &'m AspectDef) {
        self.selects.clear();
        self.closures = function_variables(aspect);
        self.out.at(&aspect.name.span);
        let function = aspect_function(&aspect.name.name);
        self.out.glue(&format!("fn {function}(weft_in) {{\n"));
        self.out
            .glue(&format!("let {} = weft_root();\n", jp_variable("program")));
        for input in &aspect.inputs {
            let name = &input.name.name;
            let variable = rhai_name(name);
            self.out.at(&input.name.span);
            self.out.glue(&format!(
                "let {variable} = if \"{name}\" in weft_in {{ weft_in[\"{name}\"] }} else {{ "
            ));
            self.default_value(input);
            self.out.glue(" };\n");
        }
        for output in &aspect.outputs {
            self.out.at(&output.name.span);
            self.out.glue(&format!("let {} = ", rhai_name(&output.name.name)));
            self.default_value(output);
            self.out.glue(";\n");
        }
        for item in &aspect.items {
            match item {
                Item::Select(select) => self.selects.push(select),
                Item::Apply(apply) => self.apply(apply),
                Item::Stmt(stmt) => self.stmt(stmt, false),
            }
        }
        let outputs: Vec<String> = aspect
            .outputs
            .iter()
            .map(|o| format!("\"{}\": {}", o.name.name, rhai_name(&o.name.name)))
            .collect();
        self.out.glue(&format!("\n#{{ {} }}\n}}\n", outputs.join(", ")));
    }

    fn default_value(&mut self, param: &Param) {
        match &param.default {
            Some(expr) => self.expr(expr),
            None => self.out.glue("()"),
        }
    }

    /// The chains an apply iterates: its `to` labels, or the last select.
    fn apply_chains(&mut self, apply: &Apply) -> Option<Vec<&'m Select>> {
        if apply.to.is_empty() {
            let Some(last) = self.selects.last() else {
                self.errors.push(Diagnostic::error(
                    &apply.span.file,
                    apply.span.range.start..apply.span.range.start + 5,
                    "`apply` without a `select` before it",
                ));
                return None;
            };
            return Some(vec![*last]);
        }
        let mut chains = Vec::new();
        for label in &apply.to {
            let found = self
                .selects
                .iter()
                .rev()
                .find(|s| s.label.as_ref().is_some_and(|l| l.name == label.name));
            match found {
                Some(select) => chains.push(*select),
                None => {
                    let labels = self.selects.iter().filter_map(|s| s.label.as_ref());
                    let hint = closest(&label.name, labels.map(|l| l.name.as_str()));
                    let mut d = Diagnostic::error(
                        &label.span.file,
                        label.span.range.clone(),
                        format!("no labelled select `{}` before this apply", label.name),
                    );
                    if let Some(h) = hint {
                        d = d.with_hint(format!("did you mean `{h}`?"));
                    }
                    self.errors.push(d);
                }
            }
        }
        (chains.len() == apply.to.len()).then_some(chains)
    }

    fn apply(&mut self, apply: &Apply) {
        let Some(selects) = self.apply_chains(apply) else {
            return;
        };
        for select in &selects {
            self.errors.extend(names::check_chain(&select.chain));
        }
        // Variables bound per tuple: every step of every chain, chain order,
        // a later step of the same name shadowing an earlier one.
        let mut bound: Vec<String> = Vec::new();
        for select in &selects {
            for step in &select.chain.steps {
                bound.retain(|b| *b != step.kind.name);
                bound.push(step.kind.name.clone());
            }
        }
        let id = self.applies.len();
        self.applies
            .push(selects.iter().map(|s| s.chain.clone()).collect());
        let site = self.site(&apply.span);
        self.out.at(&apply.span);
        self.out
            .glue(&format!("{{\nfor weft_tuple in weft_tuples({id}, [\n"));
        for select in &selects {
            self.out.glue("[");
            for compare in select.chain.steps.iter().flat_map(|s| &s.filter) {
                self.expr(&compare.value);
                self.out.glue(", ");
            }
            self.out.glue("],\n");
        }
        self.out.glue("], ");
        self.out.glue(&format!("{site}) {{\n"));
        for name in &bound {
            self.out
                .glue(&format!("let {} = weft_tuple[\"{name}\"];\n", jp_variable(name)));
        }
        let outer = std::mem::replace(&mut self.bound, bound);
        if let Some(condition) = &apply.condition {
            self.out.glue("if !weft_truthy(");
            self.expr(condition);
            self.out.glue(") { continue; }\n");
        }
        for stmt in &apply.body {
            self.stmt(stmt, false);
        }
        self.bound = outer;
        self.out.at(&apply.span);
        self.out.glue(&format!("\n}}\nweft_commit({site});\n}}\n"));
    }

    /// Reports `name` if no join point kind has such an attribute.
    pub(super) fn check_attribute(&mut self, name: &Name) {
        self.errors.extend(names::check_attribute(name));
    }

    /// Records an action site and returns its number.
    fn site(&mut self, span: &Span) -> usize {
        self.sites.push(span.clone());
        self.sites.len() - 1
    }

    /// The rhai variable an action acts on: `$target`, or the last join
    /// point of the enclosing apply's chain.
    fn target(&mut self, target: &Option<Name>, span: &Span) -> Option<String> {
        match target {
            Some(name) => self.jp(name),
            None => match self.bound.last() {
                Some(last) => Some(jp_variable(last)),
                None => {
                    self.errors.push(
                        Diagnostic::error(
                            &span.file,
                            span.range.clone(),
                            "an action without `$jp.` must be inside an apply",
                        )
                        .with_hint("write the join point, e.g. `$loop.insert before …`"),
                    );
                    None
                }
            },
        }
    }

    /// The rhai variable for `$name`, if bound here.
    pub(super) fn jp(&mut self, name: &Name) -> Option<String> {
        if name.name == "program" || self.bound.contains(&name.name) {
            return Some(jp_variable(&name.name));
        }
        let hint = if self.bound.is_empty() {
            "join point variables are bound inside an apply by the kinds of its select".to_string()
        } else {
            let names: Vec<String> = self.bound.iter().map(|b| format!("${b}")).collect();
            format!("this apply binds {}", names.join(", "))
        };
        self.errors.push(
            Diagnostic::error(
                &name.span.file,
                name.span.range.clone(),
                format!("no join point `${}` here", name.name),
            )
            .with_hint(hint),
        );
        None
    }

    /// Statements; `value_tail`: inside a function body, where an
    /// unterminated last expression is the return value.
    pub(super) fn stmts(&mut self, stmts: &[Stmt], value_tail: bool) {
        for stmt in stmts {
            self.stmt(stmt, value_tail);
        }
    }

    /// A statement as a braced rhai block.
    fn braced(&mut self, stmt: &Stmt) {
        self.out.glue(" {\n");
        match stmt {
            Stmt::Block(inner) => self.stmts(inner, false),
            other => self.stmt(other, false),
        }
        self.out.glue("\n}");
    }

    pub(super) fn stmt(&mut self, stmt: &Stmt, value_tail: bool) {
        match stmt {
            Stmt::Empty => {}
            Stmt::Block(inner) => {
                self.out.glue("{\n");
                self.stmts(inner, value_tail);
                self.out.glue("\n}\n");
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.out.at(&cond.span);
                self.out.glue("if weft_truthy(");
                self.expr(cond);
                self.out.glue(")");
                self.braced(then);
                if let Some(otherwise) = otherwise {
                    self.out.glue(" else");
                    self.braced(otherwise);
                }
                self.out.glue("\n");
            }
            Stmt::ForKeys { var, iter, body } => {
                self.out.at(&var.span);
                self.out
                    .glue(&format!("for {} in weft_keys(", rhai_name(&var.name)));
                self.expr(iter);
                self.out.glue(")");
                self.braced(body);
                self.out.glue("\n");
            }
            Stmt::ForValues { vars, iter, body } => {
                let names: Vec<String> = vars.iter().map(|v| rhai_name(&v.name)).collect();
                let vars = match names.as_slice() {
                    [one] => one.clone(),
                    many => format!("({})", many.join(", ")),
                };
                self.out.glue(&format!("for {vars} in "));
                self.expr(iter);
                self.braced(body);
                self.out.glue("\n");
            }
            Stmt::ForC { span } => self.errors.push(
                Diagnostic::error(
                    &span.file,
                    span.range.start..span.range.start + 3,
                    "C-style `for (…; …; …)` loops are not supported",
                )
                .with_hint("use `for i in range(start, end) { … }` or `while`"),
            ),
            Stmt::While { cond, body } => {
                self.out.at(&cond.span);
                self.out.glue("while weft_truthy(");
                self.expr(cond);
                self.out.glue(")");
                self.braced(body);
                self.out.glue("\n");
            }
            Stmt::Loop(body) => {
                self.out.glue("loop");
                self.braced(body);
                self.out.glue("\n");
            }
            Stmt::Function { name, params, body } => {
                self.out.at(&name.span);
                self.out.glue(&format!("let {} = ", rhai_name(&name.name)));
                self.closure(params, body);
                self.out.glue(";\n");
            }
            Stmt::IncDec { var, increment } => {
                self.out.token(&var.span, &rhai_name(&var.name));
                self.out.glue(if *increment { " += 1;\n" } else { " -= 1;\n" });
            }
            Stmt::Expr { expr, terminated } => {
                self.expr(expr);
                if *terminated || !value_tail {
                    self.out.glue(";");
                }
            }
            Stmt::Insert {
                target,
                position,
                code,
                span,
            } => self.insert(target, *position, code, span),
            Stmt::Perform {
                target,
                action,
                args,
                span,
            } => self.perform(target, action, args, span),
            Stmt::Def {
                target,
                attribute,
                value,
                span,
            } => self.def(target, attribute, value, span),
            Stmt::Call {
                label,
                aspect,
                args,
                span,
            } => self.call(label, aspect, args, span),
        }
    }

    /// `$jp.insert POSITION CODE`: a call of the host's insert.
    fn insert(&mut self, target: &Option<Name>, position: Position, code: &Expr, span: &Span) {
        let Some(target) = self.target(target, span) else {
            return;
        };
        let site = self.site(span);
        let position = match position {
            Position::Before => "before",
            Position::After => "after",
            Position::Replace => "replace",
        };
        self.out.at(span);
        self.out.glue(&format!("weft_insert({target}, \"{position}\", "));
        self.expr(code);
        self.out.glue(&format!(", {site});\n"));
    }

    /// `$jp.action(args)` or `perform action(args)`.
    fn perform(&mut self, target: &Option<Name>, action: &Name, args: &[Expr], span: &Span) {
        let Some(target) = self.target(target, span) else {
            return;
        };
        let site = self.site(span);
        self.out.at(span);
        self.out
            .glue(&format!("weft_perform({target}, \"{}\", [", action.name));
        for arg in args {
            self.expr(arg);
            self.out.glue(", ");
        }
        self.out.glue(&format!("], {site});\n"));
    }

    /// `def $jp.attribute = value`.
    fn def(&mut self, target: &Option<Name>, attribute: &Name, value: &Expr, span: &Span) {
        let Some(target) = self.target(target, span) else {
            return;
        };
        let site = self.site(span);
        self.out.at(span);
        self.out
            .glue(&format!("weft_def({target}, \"{}\", ", attribute.name));
        self.expr(value);
        self.out.glue(&format!(", {site});\n"));
    }

    /// `call [label :] Aspect(args)`: positional arguments become the
    /// callee's inputs, its outputs map lands in `label`.
    fn call(&mut self, label: &Option<Name>, aspect: &Name, args: &[Expr], span: &Span) {
        let module = self.module;
        let Some(callee) = module.aspect(&aspect.name) else {
            let hint = closest(&aspect.name, module.aspects.iter().map(|a| a.name.name.as_str()));
            self.errors
                .push(names::unknown(aspect, "aspect", hint.as_deref()));
            return;
        };
        if args.len() > callee.inputs.len() {
            self.errors.push(Diagnostic::error(
                &span.file,
                span.range.clone(),
                format!(
                    "aspect `{}` takes {} input(s), {} given",
                    callee.name.name,
                    callee.inputs.len(),
                    args.len()
                ),
            ));
            return;
        }
        self.out.at(span);
        if let Some(label) = label {
            self.out.glue(&format!("let {} = ", rhai_name(&label.name)));
        }
        self.out
            .glue(&format!("{}(#{{", aspect_function(&callee.name.name)));
        for (input, arg) in callee.inputs.iter().zip(args) {
            self.out.glue(&format!("\"{}\": ", input.name.name));
            self.expr(arg);
            self.out.glue(", ");
        }
        self.out.glue("});\n");
    }

    /// `function (params) { body }` as a rhai closure.
    pub(super) fn closure(&mut self, params: &[Name], body: &[Stmt]) {
        let params: Vec<String> = params.iter().map(|p| rhai_name(&p.name)).collect();
        self.out.glue(&format!("|{}| {{\n", params.join(", ")));
        self.stmts(body, true);
        self.out.glue("\n}");
    }
}
