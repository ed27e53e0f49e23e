//! From aspect text to the syntax tree ([`super::ast`]), with pest.

use std::sync::Arc;

use pest::Parser as _;
use pest::iterators::Pair;

use super::ast::*;
use super::literal::{RawPiece, decode_escapes, split_interpolations};
use super::syntax_error::{nesting_error, syntax_error};
use crate::diag::{Diagnostic, Diagnostics, SourceFile};

/// The pest parser generated from crates/lang/grammar/aspect.pest.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/aspect.pest"]
pub struct AspectParser;

/// One parsed file: its imports (path as written, and where) and aspects.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    pub imports: Vec<(String, Span)>,
    pub aspects: Vec<AspectDef>,
}

/// Bounds pest's work so pathological inputs fail instead of running long.
const PEST_CALL_LIMIT: usize = 20_000_000;

/// Parses one aspect file (imports are not followed; see [`super::load`]).
pub fn parse_file(file: &Arc<SourceFile>) -> Result<ParsedFile, Diagnostics> {
    let pairs = parse_rule(Rule::file, file, &file.text, 0).map_err(Diagnostics::from)?;
    let mut builder = Builder {
        file,
        base: 0,
        errors: Vec::new(),
    };
    let mut parsed = ParsedFile {
        imports: Vec::new(),
        aspects: Vec::new(),
    };
    for pair in pairs.into_iter().flat_map(|p| p.into_inner()) {
        match pair.as_rule() {
            Rule::import => {
                let string = last(pair.clone());
                let body = string
                    .clone()
                    .into_inner()
                    .next()
                    .map(|b| b.as_str())
                    .unwrap_or("");
                parsed.imports.push((decode_escapes(body), builder.span(&string)));
            }
            Rule::aspectdef => parsed.aspects.push(builder.aspectdef(pair)),
            _ => {}
        }
    }
    if builder.errors.is_empty() {
        Ok(parsed)
    } else {
        Err(Diagnostics(builder.errors))
    }
}

/// Parses a select chain on its own, e.g. `function{"main"}.loop`.
pub fn parse_chain(text: &str) -> Result<Chain, Diagnostics> {
    let file = SourceFile::new("<chain>", text);
    let pairs = parse_rule(Rule::chain_only, &file, text, 0).map_err(Diagnostics::from)?;
    let mut builder = Builder {
        file: &file,
        base: 0,
        errors: Vec::new(),
    };
    let chain = pairs
        .into_iter()
        .flat_map(|p| p.into_inner())
        .find(|p| p.as_rule() == Rule::chain)
        .map(|p| builder.chain(p))
        .unwrap_or(Chain { steps: Vec::new() });
    if builder.errors.is_empty() {
        Ok(chain)
    } else {
        Err(Diagnostics(builder.errors))
    }
}

/// Runs pest on `text` (which starts at byte `base` of `file`), turning
/// failures into diagnostics.
fn parse_rule<'t>(
    rule: Rule,
    file: &Arc<SourceFile>,
    text: &'t str,
    base: usize,
) -> Result<pest::iterators::Pairs<'t, Rule>, Diagnostic> {
    if let Some(error) = nesting_error(file, text, base) {
        return Err(error);
    }
    pest::set_call_limit(std::num::NonZeroUsize::new(PEST_CALL_LIMIT));
    AspectParser::parse(rule, text).map_err(|e| syntax_error(file, base, &e))
}

fn last(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    let mut inner = pair.clone().into_inner();
    let mut last = pair;
    for p in inner.by_ref() {
        last = p;
    }
    last
}

/// Builds syntax tree nodes from pest pairs of one text (a file, or the
/// expression of an interpolation at byte `base` of the file).
struct Builder<'f> {
    file: &'f Arc<SourceFile>,
    base: usize,
    errors: Vec<Diagnostic>,
}

impl Builder<'_> {
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            file: Arc::clone(self.file),
            range: self.base + s.start()..self.base + s.end(),
        }
    }

    fn name(&self, pair: &Pair<'_, Rule>) -> Name {
        Name {
            name: pair.as_str().trim_start_matches('$').to_string(),
            span: self.span(pair),
        }
    }

    fn aspectdef(&mut self, pair: Pair<'_, Rule>) -> AspectDef {
        let span = self.span(&pair);
        let mut name = None;
        let (mut inputs, mut outputs, mut items) = (Vec::new(), Vec::new(), Vec::new());
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident if name.is_none() => name = Some(self.name(&p)),
                Rule::input => inputs.extend(self.params(p)),
                Rule::output => outputs.extend(self.params(p)),
                Rule::select => items.push(Item::Select(self.select(p))),
                Rule::apply => items.push(Item::Apply(self.apply(p))),
                Rule::kw_aspectdef | Rule::kw_end => {}
                _ => items.push(Item::Stmt(self.stmt(p))),
            }
        }
        let name = name.unwrap_or_else(|| Name {
            name: String::new(),
            span: span.clone(),
        });
        AspectDef {
            name,
            inputs,
            outputs,
            items,
            span,
        }
    }

    fn params(&mut self, pair: Pair<'_, Rule>) -> Vec<Param> {
        let params = pair.into_inner().filter(|p| p.as_rule() == Rule::params);
        params
            .flat_map(|p| p.into_inner())
            .map(|param| {
                let mut inner = param.into_inner();
                let name = inner.next().map(|n| self.name(&n));
                let default = inner.next().map(|e| self.expr(e, false));
                (name, default)
            })
            .filter_map(|(name, default)| Some(Param { name: name?, default }))
            .collect()
    }

    fn select(&mut self, pair: Pair<'_, Rule>) -> Select {
        let span = self.span(&pair);
        let mut label = None;
        let mut chain = Chain { steps: Vec::new() };
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident => label = Some(self.name(&p)),
                Rule::chain => chain = self.chain(p),
                _ => {}
            }
        }
        Select { label, chain, span }
    }

    fn chain(&mut self, pair: Pair<'_, Rule>) -> Chain {
        let steps = pair.into_inner().map(|step| {
            let mut inner = step.into_inner();
            let kind = inner.next().map(|k| self.name(&k));
            let filter = inner.next().map(|f| self.filter(f)).unwrap_or_default();
            (kind, filter)
        });
        let steps = steps.collect::<Vec<_>>().into_iter();
        Chain {
            steps: steps
                .filter_map(|(kind, filter)| Some(Step { kind: kind?, filter }))
                .collect(),
        }
    }

    fn filter(&mut self, pair: Pair<'_, Rule>) -> Vec<Compare> {
        let mut compares = Vec::new();
        for p in pair.into_inner() {
            if p.as_rule() == Rule::string {
                // `{"main"}` is shorthand for `{name == "main"}`.
                let span = self.span(&p);
                let value = Expr {
                    tokens: vec![self.token(p, false)],
                    span: span.clone(),
                };
                let attribute = Name {
                    name: "name".into(),
                    span,
                };
                compares.push(Compare {
                    attribute,
                    op: CmpOp::Eq,
                    value,
                });
                continue;
            }
            let mut inner = p.into_inner();
            let (Some(attr), Some(op), Some(value)) = (inner.next(), inner.next(), inner.next()) else {
                continue;
            };
            let op = match op.as_str() {
                "==" | "===" => CmpOp::Eq,
                "!=" | "!==" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            let attribute = self.name(&attr);
            compares.push(Compare {
                attribute,
                op,
                value: self.expr(value, false),
            });
        }
        compares
    }

    fn apply(&mut self, pair: Pair<'_, Rule>) -> Apply {
        let span = self.span(&pair);
        let (mut to, mut body, mut condition) = (Vec::new(), Vec::new(), None);
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::apply_to => {
                    let labels = p.into_inner().filter(|l| l.as_rule() == Rule::ident);
                    to = labels.map(|l| self.name(&l)).collect();
                }
                Rule::condition => {
                    let expr = p.into_inner().find(|e| e.as_rule() == Rule::expr);
                    condition = expr.map(|e| self.expr(e, false));
                }
                Rule::kw_apply | Rule::kw_end => {}
                _ => body.push(self.stmt(p)),
            }
        }
        Apply {
            to,
            body,
            condition,
            span,
        }
    }

    fn stmts(&mut self, pair: Pair<'_, Rule>) -> Vec<Stmt> {
        pair.into_inner().map(|p| self.stmt(p)).collect()
    }

    fn boxed(&mut self, pair: Option<Pair<'_, Rule>>) -> Box<Stmt> {
        Box::new(pair.map(|p| self.stmt(p)).unwrap_or(Stmt::Empty))
    }

    fn stmt(&mut self, pair: Pair<'_, Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let text_ends_with_semicolon = pair.as_str().ends_with(';');
        // Keywords carry no information once the rule is known.
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        match rule {
            Rule::block => Stmt::Block(inner.map(|p| self.stmt(p)).collect()),
            Rule::if_js | Rule::if_rhai => {
                let cond = inner.next().map(|c| self.cond(c, &span));
                let then = self.boxed(inner.next());
                let otherwise = inner.next().map(|p| Box::new(self.stmt(p)));
                let cond = cond.unwrap_or_else(|| self.empty_expr(&span));
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                }
            }
            Rule::for_js => {
                let var = inner.next().map(|v| self.name(&v));
                let iter = inner.next().map(|e| self.expr(e, false));
                let body = self.boxed(inner.next());
                match (var, iter) {
                    (Some(var), Some(iter)) => Stmt::ForKeys { var, iter, body },
                    _ => Stmt::Empty,
                }
            }
            Rule::for_rhai => {
                // Children: the loop variables, the head, the block.
                let mut parts: Vec<_> = inner.collect();
                let body = self.boxed(parts.pop());
                let iter = match parts.pop() {
                    Some(head) => self.expr(head, false),
                    None => self.empty_expr(&span),
                };
                let vars = parts.iter().map(|v| self.name(v)).collect();
                Stmt::ForValues { vars, iter, body }
            }
            Rule::for_c => Stmt::ForC { span },
            Rule::while_stmt => {
                let cond = inner.next().map(|c| self.cond(c, &span));
                let body = self.boxed(inner.next());
                let cond = cond.unwrap_or_else(|| self.empty_expr(&span));
                Stmt::While { cond, body }
            }
            Rule::loop_stmt => Stmt::Loop(self.boxed(inner.next())),
            Rule::function_decl => {
                let name = inner.next().map(|n| self.name(&n));
                let params = inner.next().map(|p| self.fn_params(p)).unwrap_or_default();
                let body = inner.next().map(|b| self.stmts(b)).unwrap_or_default();
                match name {
                    Some(name) => Stmt::Function { name, params, body },
                    None => Stmt::Empty,
                }
            }
            Rule::incdec_stmt => {
                let parts: Vec<_> = inner.collect();
                let var = parts.iter().find(|p| p.as_rule() == Rule::ident);
                let increment = parts.iter().any(|p| p.as_str() == "++");
                match var {
                    Some(var) => Stmt::IncDec {
                        var: self.name(var),
                        increment,
                    },
                    None => Stmt::Empty,
                }
            }
            Rule::simple_stmt => match inner.next() {
                Some(expr) => Stmt::Expr {
                    expr: self.expr(expr, false),
                    terminated: text_ends_with_semicolon,
                },
                None => Stmt::Empty,
            },
            Rule::insert => self.insert_stmt(inner, span),
            Rule::perform | Rule::jp_method => self.perform_stmt(inner, span),
            Rule::def => self.def_stmt(inner, span),
            Rule::call => self.call_stmt(inner, span),
            _ => Stmt::Empty,
        }
    }

    /// The `insert` action: target, position and code.
    fn insert_stmt<'i>(&mut self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> Stmt {
        let mut target = None;
        let mut position = Position::Before;
        let mut code = None;
        for p in inner {
            match p.as_rule() {
                Rule::jp => target = Some(self.name(&p)),
                Rule::position => {
                    position = match p.as_str() {
                        "after" => Position::After,
                        "replace" => Position::Replace,
                        _ => Position::Before,
                    }
                }
                _ => code = Some(self.expr(p, true)),
            }
        }
        let code = code.unwrap_or_else(|| self.empty_expr(&span));
        Stmt::Insert {
            target,
            position,
            code,
            span,
        }
    }

    /// An action call (`perform` or `$jp.action(…)`).
    fn perform_stmt<'i>(&mut self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> Stmt {
        let mut target = None;
        let mut action = None;
        let mut args = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::jp => target = Some(self.name(&p)),
                Rule::ident => action = Some(self.name(&p)),
                _ => args = self.args(p),
            }
        }
        match action {
            Some(action) => Stmt::Perform {
                target,
                action,
                args,
                span,
            },
            None => Stmt::Empty,
        }
    }

    /// A `def` of a join point attribute.
    fn def_stmt<'i>(&mut self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> Stmt {
        let mut target = None;
        let mut attribute = None;
        let mut value = None;
        for p in inner {
            match p.as_rule() {
                Rule::jp => target = Some(self.name(&p)),
                Rule::ident => attribute = Some(self.name(&p)),
                _ => value = Some(self.expr(p, false)),
            }
        }
        match (attribute, value) {
            (Some(attribute), Some(value)) => Stmt::Def {
                target,
                attribute,
                value,
                span,
            },
            _ => Stmt::Empty,
        }
    }

    /// A call of another aspect, optionally labelled.
    fn call_stmt<'i>(&mut self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> Stmt {
        let mut names = Vec::new();
        let mut args = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::ident => names.push(self.name(&p)),
                _ => args = self.args(p),
            }
        }
        let aspect = names.pop();
        let label = names.pop();
        match aspect {
            Some(aspect) => Stmt::Call {
                label,
                aspect,
                args,
                span,
            },
            None => Stmt::Empty,
        }
    }

    /// The condition of `if`/`while`: a parenthesised group (JS form) or a
    /// rhai head; both become one expression.
    fn cond(&mut self, pair: Pair<'_, Rule>, span: &Span) -> Expr {
        match pair.as_rule() {
            Rule::paren => {
                let span = self.span(&pair);
                Expr {
                    tokens: vec![self.token(pair, false)],
                    span,
                }
            }
            Rule::head => self.expr(pair, false),
            _ => self.empty_expr(span),
        }
    }

    fn empty_expr(&self, span: &Span) -> Expr {
        Expr {
            tokens: Vec::new(),
            span: span.clone(),
        }
    }

    fn args(&mut self, pair: Pair<'_, Rule>) -> Vec<Expr> {
        pair.into_inner().map(|e| self.expr(e, false)).collect()
    }

    fn fn_params(&mut self, pair: Pair<'_, Rule>) -> Vec<Name> {
        pair.into_inner().map(|p| self.name(&p)).collect()
    }

    /// An expression from any rule whose children are tokens. In the code of
    /// an insert (`interpolate`), string literals interpolate `[[expr]]`.
    fn expr(&mut self, pair: Pair<'_, Rule>, interpolate: bool) -> Expr {
        let span = self.span(&pair);
        let tokens = pair.into_inner().map(|t| self.token(t, interpolate)).collect();
        Expr { tokens, span }
    }

    fn token(&mut self, pair: Pair<'_, Rule>, interpolate: bool) -> Token {
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::jp => Token::JoinPoint(self.name(&pair)),
            Rule::string => {
                let body = pair.into_inner().next();
                Token::Str(self.literal(body, span, interpolate, true))
            }
            Rule::code => {
                let body = pair.into_inner().next();
                Token::Code(self.literal(body, span, true, false))
            }
            Rule::kw_new => Token::New(span),
            Rule::undefined => Token::Unit(span),
            Rule::comma => Token::Comma(span),
            Rule::paren | Rule::bracket | Rule::object | Rule::rhai_map => {
                let kind = match pair.as_rule() {
                    Rule::paren => GroupKind::Paren,
                    Rule::bracket => GroupKind::Bracket,
                    _ => GroupKind::Object,
                };
                let tokens = pair.into_inner().map(|t| self.token(t, interpolate)).collect();
                Token::Group { kind, tokens, span }
            }
            Rule::function_expr => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_function);
                let params = inner.next().map(|p| self.fn_params(p)).unwrap_or_default();
                let body = inner.next().map(|b| self.stmts(b)).unwrap_or_default();
                Token::Function { params, body, span }
            }
            _ => Token::Plain(span),
        }
    }

    /// A literal from its body pair. `escapes`: the body uses JS escapes
    /// ('…', "…"); code literals (%{…}%) are raw.
    fn literal(
        &mut self,
        body: Option<Pair<'_, Rule>>,
        span: Span,
        interpolate: bool,
        escapes: bool,
    ) -> Literal {
        let Some(body) = body else {
            return Literal {
                pieces: Vec::new(),
                span,
            };
        };
        let text = body.as_str();
        let body_start = self.base + body.as_span().start();
        let decode = |s: &str| if escapes { decode_escapes(s) } else { s.to_string() };
        if !interpolate {
            return Literal {
                pieces: vec![Piece::Text(decode(text))],
                span,
            };
        }
        let raws = match split_interpolations(text) {
            Ok(raws) => raws,
            Err(open) => {
                let at = body_start + open;
                self.errors.push(
                    Diagnostic::error(
                        self.file,
                        at..at + 2,
                        "unterminated `[[`: no `]]` closes this interpolation",
                    )
                    .with_hint(
                        "`[[ expr ]]` puts a script value in the code; C never needs `[[` without `]]`",
                    ),
                );
                return Literal {
                    pieces: vec![Piece::Text(decode(text))],
                    span,
                };
            }
        };
        let mut pieces = Vec::new();
        for raw in raws {
            match raw {
                RawPiece::Text(r) => pieces.push(Piece::Text(decode(&text[r]))),
                RawPiece::Interpolation(r) => {
                    if let Some(expr) = self.interpolation(&text[r.clone()], body_start + r.start) {
                        pieces.push(Piece::Interpolation(expr));
                    }
                }
            }
        }
        Literal { pieces, span }
    }

    /// Parses the expression of `[[ … ]]` found at byte `base` of the file.
    fn interpolation(&mut self, text: &str, base: usize) -> Option<Expr> {
        let parsed = parse_rule(Rule::interpolation, self.file, text, base);
        let pairs = match parsed {
            Ok(pairs) => pairs,
            Err(error) => {
                self.errors
                    .push(error.with_hint("`[[ … ]]` must hold a script expression"));
                return None;
            }
        };
        let mut sub = Builder {
            file: self.file,
            base,
            errors: Vec::new(),
        };
        let expr = pairs
            .into_iter()
            .flat_map(|p| p.into_inner())
            .find(|p| p.as_rule() == Rule::expr)
            .map(|e| sub.expr(e, false));
        self.errors.append(&mut sub.errors);
        expr
    }
}

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_if
            | Rule::kw_else
            | Rule::kw_for
            | Rule::kw_in
            | Rule::kw_var
            | Rule::kw_while
            | Rule::kw_loop
            | Rule::kw_function
            | Rule::kw_insert
            | Rule::kw_perform
            | Rule::kw_def
            | Rule::kw_call
    )
}
