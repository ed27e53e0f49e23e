//! NormalizeReturn: every function gets a well-known exit.
//!
//! * `return e;` becomes `{ T tmp; tmp = e; return tmp; }` with `T` the
//!   function's return type spelled from its own declarator (typedefs,
//!   pointers and function-pointer returns come out as written; top-level
//!   qualifiers are dropped so the temporary is assignable). Assignment
//!   performs the same conversion as `return` (C11 6.8.6.4p3).
//! * A void function whose end control may reach ([`falls_through`], which
//!   says so when in doubt) gets `return;` before its closing brace. A
//!   function declared noreturn never does: gcc warns about any `return`
//!   in it.
//!
//! `return x;` with `x` a variable is already normalised and left alone,
//! which makes the pass idempotent. A non-void function whose end may be
//! reached is not given a return (no value would be correct) but is
//! reported. So is `main`, differently: falling off its end returns 0
//! (C99 5.1.2.2.3), which instrumentation of its returns would not see.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::context::PassContext;
use super::indentation_at;
use super::reachability::falls_through;
use super::temporary::block;
use super::{Needles, walk};
use weft_c::sema::{DeclKind, Declaration, declared_name};
use weft_c::syntax::KindSet;

static FUNCTIONS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["function_definition"], &[]));
static RETURNS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["return_statement"], &[]));

/// A function definition holds `{` (its body), a return `return`: text
/// with neither holds no function nor return.
const NEEDLES: &[&str] = &["{", "return"];

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let tmp = ctx.fresh_name("weft_ret");
    for tree in file.trees() {
        for function in functions(ctx, tree.root_node()) {
            normalize(ctx, &function, &tmp);
        }
    }
}

/// A function definition and its own `return` statements: not those of
/// functions nested in it, nor those inside another return's value.
struct Function<'t> {
    node: Node<'t>,
    body: Option<Node<'t>>,
    /// In source order.
    returns: Vec<Node<'t>>,
}

/// What the walk of [`functions`] is inside of (innermost last, each with
/// the depth it starts at): a return belongs to the function whose body
/// is the innermost of these, and to none when a return is.
enum Inside {
    /// Function `functions[i]`, outside its body.
    Header(usize),
    Body(usize),
    Return,
}

/// Every function definition under `root` (nested ones too), in source
/// order, with its own returns, found in one walk.
fn functions<'t>(ctx: &PassContext<'_>, root: Node<'t>) -> Vec<Function<'t>> {
    let mut functions: Vec<Function<'t>> = Vec::new();
    let mut inside: Vec<(u32, Inside)> = Vec::new();
    let needles = Needles::of(&ctx.file.view, NEEDLES);
    walk(
        root,
        |node| needles.absent_from(node),
        |node, depth| {
            while inside.last().is_some_and(|&(start, _)| start >= depth) {
                inside.pop();
            }
            if let Some(&(_, Inside::Header(f))) = inside.last()
                && functions[f].body == Some(node)
            {
                inside.push((depth, Inside::Body(f)));
            } else if FUNCTIONS.contains(node) {
                inside.push((depth, Inside::Header(functions.len())));
                let body = node.child_by_field_name("body");
                functions.push(Function {
                    node,
                    body,
                    returns: Vec::new(),
                });
            } else if RETURNS.contains(node) {
                if let Some(&(_, Inside::Body(f))) = inside.last() {
                    functions[f].returns.push(node);
                }
                inside.push((depth, Inside::Return));
            }
        },
    );
    functions
}

fn normalize(ctx: &mut PassContext<'_>, function: &Function<'_>, tmp: &str) {
    let Some(body) = function.body else {
        return;
    };
    let (returns, function) = (&function.returns, function.node);
    let header_broken = function
        .child_by_field_name("type")
        .is_some_and(|t| t.has_error())
        || function
            .child_by_field_name("declarator")
            .is_none_or(|d| d.has_error());
    let decl = declaration(ctx, function, body).filter(|_| !header_broken);
    let Some(decl) = decl else {
        return ctx.skip(function, "function header not understood");
    };
    let Some(ret) = decl.ty.return_type().cloned() else {
        return ctx.skip(function, "function type not understood");
    };
    let noreturn = ctx.sema.is_noreturn(ctx.index, body.start_byte(), &decl.name);
    if ret.is_void() {
        for r in returns {
            if r.named_child(0).is_some_and(|e| e.kind() != "comment") {
                ctx.skip(*r, "return with a value in a void function");
            }
        }
        if !noreturn && falls_through(ctx, body) {
            add_final_return(ctx, body);
        }
        return;
    }
    if ret.is_unknown() {
        return ctx.skip(function, format!("return type of `{}` is unknown", decl.name));
    }
    if !noreturn {
        report_open_end(ctx, function, body, &decl.name);
    }
    for &r in returns {
        let Some(value) = r.named_children(&mut r.walk()).find(|n| n.kind() != "comment") else {
            continue;
        };
        if is_variable(ctx, value) {
            continue;
        }
        // Said once, at the first return that needs a temporary.
        let Some(spelling) = decl.spelling.clone() else {
            return ctx.skip(
                function,
                format!("return type of `{}` cannot be spelled", decl.name),
            );
        };
        let range = match ctx.editable(r) {
            Ok(range) => range,
            Err(reason) => {
                ctx.skip(r, reason);
                continue;
            }
        };
        let Some(text) = ctx.text(value) else {
            ctx.skip(r, "produced by a macro expansion");
            continue;
        };
        let rest = format!("return {tmp};");
        ctx.replace(range, block(&spelling, tmp, text, &rest));
    }
}

/// Reports a non-void function whose end control may reach: it gets no
/// return, since no value would be correct. Falling off the end of `main`
/// returns 0 (C99 5.1.2.2.3), which is said instead. A body the front end
/// did not understand as written is not judged (its problems are the front
/// end's report).
fn report_open_end(ctx: &mut PassContext<'_>, function: Node<'_>, body: Node<'_>, name: &str) {
    if !understood(ctx, body) || !falls_through(ctx, body) {
        return;
    }
    let reason = if name == "main" {
        "`main` may fall off its end, which returns 0 (no return added)".to_string()
    } else {
        format!("non-void function `{name}` may fall off its end (no return added)")
    };
    ctx.skip(function, reason);
}

/// True when the parse shows `body` as written, so that
/// [`falls_through`] judges the code gcc compiles: it may be edited (it
/// parsed and maps back to the original), and no conditional branch in it
/// was read as blank because it did not parse.
fn understood(ctx: &PassContext<'_>, body: Node<'_>) -> bool {
    ctx.editable(body).is_ok_and(|range| {
        !ctx.file
            .skipped
            .iter()
            .any(|s| s.range.start < range.end && range.start < s.range.end)
    })
}

/// The function's own declaration, as visible inside its body.
fn declaration<'a>(ctx: &PassContext<'a>, function: Node<'_>, body: Node<'_>) -> Option<&'a Declaration> {
    let name = ctx.view_text(declared_name(function.child_by_field_name("declarator")?)?);
    let decl = ctx.sema.lookup(ctx.index, body.start_byte(), name)?;
    (decl.kind == DeclKind::Function).then_some(decl)
}

/// A plain name of a variable or parameter: already a single temporary.
fn is_variable(ctx: &PassContext<'_>, value: Node<'_>) -> bool {
    value.kind() == "identifier"
        && ctx
            .sema
            .declaration_of(ctx.index, value)
            .is_some_and(|d| matches!(d.kind, DeclKind::Variable | DeclKind::Parameter))
}

/// Adds `return;` before the closing brace of `body`.
fn add_final_return(ctx: &mut PassContext<'_>, body: Node<'_>) {
    let Some(close) = body.child(body.child_count().saturating_sub(1)) else {
        return;
    };
    if close.kind() != "}" || close.is_missing() {
        return;
    }
    if let Err(reason) = ctx.editable(body) {
        return ctx.skip(body, format!("no final return added: body {reason}"));
    }
    let Some(at) = ctx.file.original_range(close.byte_range()) else {
        return;
    };
    let text = &ctx.file.text;
    let line_start = weft_text::line_start(text, at.start);
    if text[line_start..at.start].trim().is_empty() {
        // `}` alone on its line: add a line above it, indented like the
        // last statement (directives start in column 0).
        let mut cursor = body.walk();
        let indent = body
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment" && !n.kind().starts_with("preproc"))
            .last()
            .map(|s| indentation_at(&ctx.file.view, s.start_byte()).to_string())
            .unwrap_or_else(|| "    ".to_string());
        ctx.replace(line_start..line_start, format!("{indent}return;\n"));
    } else {
        ctx.replace(at.start..at.start, "return; ".to_string());
    }
}
