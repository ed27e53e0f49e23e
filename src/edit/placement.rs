//! Where inserted code goes so that the result is still legal C.
//!
//! An insertion is anchored on a *statement* (expression-level join points
//! use their enclosing statement) or on a *file-scope item*, and is laid out
//! on its own lines with the anchor's indentation. Around the body of an
//! `if`/`else`/`for`/`while`/`do` the body is wrapped in braces, so the code
//! stays under the control statement. Placements that cannot be legal C are
//! refused: inside a for header or loop condition, after a jump, ordinary
//! statements among a block's leading declarations (C89), inside text the
//! front end synthesized or did not understand.
//!
//! The file itself (the tree's root) takes code before it, at byte 0, and
//! after it, at its end: the place for text that must enclose everything
//! else, such as a runtime's prelude and epilogue, wherever the file's
//! first and last items are (even inside `#if`).

use std::ops::Range;

use tree_sitter::Node;

use super::edit_set::{Insertion, Layer, Op, Side};
use super::layout::{self, LineEnd};
use crate::c::ParsedFile;
use crate::engine::InsertAt;

/// Why an insertion was refused, at an offset of the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub offset: usize,
    pub message: String,
}

/// The edits that carry out one `insert` action, and the original offset of
/// the join point that asked for them (used to name it in errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub ops: Vec<Op>,
    pub origin: usize,
}

/// Plans inserting `code` at `at` of `node`, a node of `file`'s tree.
pub fn plan(file: &ParsedFile, node: Node<'_>, at: InsertAt, code: &str) -> Result<Plan, Refusal> {
    let ctx = Ctx {
        file,
        text: &file.text,
    };
    if node.parent().is_none() {
        return ctx.around_file(node, at, code);
    }
    let range = ctx.understood(node)?;
    if node.has_error() {
        return ctx.refuse(node, "cannot edit code the parser did not understand");
    }
    if at == InsertAt::Replace {
        return Ok(Plan {
            origin: range.start,
            ops: vec![Op::Replace {
                range,
                text: code.to_string(),
            }],
        });
    }
    let side = if at == InsertAt::Before {
        Side::Before
    } else {
        Side::After
    };
    let anchor = ctx.anchor(node)?;
    let ops = match anchor.scope {
        Scope::File => vec![ctx.own_line(ctx.file_item(anchor.node)?, side, code, Layer::Code)],
        Scope::Block => ctx.in_block(anchor.node, side, code)?,
    };
    Ok(Plan {
        ops,
        origin: range.start,
    })
}

/// Is `code` nothing but declarations (so it may go among a block's leading
/// declarations without breaking C89)?
pub fn is_declarations(code: &str) -> bool {
    let probe = format!("void weft_probe(void) {{\n{code}\n}}\n");
    let tree = crate::c::parse_view(&probe);
    let root = tree.root_node();
    if root.has_error() {
        return false;
    }
    let Some(body) = root.named_child(0).and_then(|f| f.child_by_field_name("body")) else {
        return false;
    };
    let mut cursor = body.walk();
    let items: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    !items.is_empty() && items.iter().all(|n| is_declaration(*n))
}

enum Scope {
    File,
    Block,
}

struct Anchor<'t> {
    node: Node<'t>,
    scope: Scope,
}

struct Ctx<'a> {
    file: &'a ParsedFile,
    text: &'a str,
}

impl Ctx<'_> {
    fn refuse<T>(&self, node: Node<'_>, message: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal {
            offset: self.file.map.approximate(node.start_byte()),
            message: message.into(),
        })
    }

    /// Code at the very start or end of the file whose root is `root`. Only
    /// the file's ends are touched, so code the front end did not understand
    /// elsewhere in the file does not matter.
    fn around_file(&self, root: Node<'_>, at: InsertAt, code: &str) -> Result<Plan, Refusal> {
        let whole = 0..self.text.len();
        let nl = layout::newline(self.text);
        let lines = layout::as_lines(code, "", nl);
        let insertion = match at {
            InsertAt::Replace => return self.refuse(root, "cannot replace a whole file"),
            InsertAt::Before => Insertion {
                offset: 0,
                text: lines,
                anchor: whole.clone(),
                side: Side::Before,
                layer: Layer::Code,
            },
            InsertAt::After => {
                // A last line without its newline must not run into the code.
                let text = if self.text.is_empty() || self.text.ends_with('\n') {
                    lines
                } else {
                    format!("{nl}{lines}")
                };
                Insertion {
                    offset: whole.end,
                    text,
                    anchor: whole.clone(),
                    side: Side::After,
                    layer: Layer::Code,
                }
            }
        };
        Ok(Plan {
            ops: vec![Op::Insert(insertion)],
            origin: 0,
        })
    }

    /// The original range of `node`, if weft may edit around it.
    fn understood(&self, node: Node<'_>) -> Result<Range<usize>, Refusal> {
        let Some(range) = self.file.original_range(node.byte_range()) else {
            return self.refuse(node, "cannot edit text synthesized by a macro repair");
        };
        let in_error = std::iter::successors(Some(node), |n| n.parent()).any(|n| n.is_error());
        let in_problem = self
            .file
            .problems
            .iter()
            .any(|p| p.range.start < range.end && range.start < p.range.end);
        if in_error || in_problem || node.is_missing() {
            return self.refuse(node, "cannot edit code the parser did not understand");
        }
        Ok(range)
    }

    /// The original range of file-scope item `item`, widened to the start of
    /// its line when only blanks precede it in the view: attribute and
    /// storage-class macros (`local`, `__init`) are blanked in the view, so
    /// the item's node starts after them, but code inserted before the item
    /// must not land between them and it.
    fn file_item(&self, item: Node<'_>) -> Result<Range<usize>, Refusal> {
        let range = self.understood(item)?;
        let view = &self.file.view;
        let view_line = layout::line_start(view, item.start_byte());
        if view[view_line..item.start_byte()].trim().is_empty() {
            return Ok(layout::line_start(self.text, range.start)..range.end);
        }
        Ok(range)
    }

    /// The statement or file-scope item an insertion around `node` attaches to.
    fn anchor<'t>(&self, node: Node<'t>) -> Result<Anchor<'t>, Refusal> {
        let mut cur = node;
        loop {
            if is_file_scope(cur) {
                return Ok(Anchor {
                    node: cur,
                    scope: Scope::File,
                });
            }
            if is_statement(cur) && in_statement_context(cur) {
                return Ok(Anchor {
                    node: cur,
                    scope: Scope::Block,
                });
            }
            let Some(parent) = cur.parent() else {
                return self.refuse(node, "not inside a statement or file-scope item");
            };
            let is_body = parent.child_by_field_name("body") == Some(cur);
            match parent.kind() {
                "for_statement" if !is_body => {
                    return self.refuse(node, "cannot insert code inside a for header");
                }
                "while_statement" | "do_statement" if !is_body => {
                    return self.refuse(node, "cannot insert code inside a loop condition");
                }
                "function_definition" if is_body => {
                    return self.refuse(
                        node,
                        "cannot insert around a function body: insert relative to its first statement or to the function",
                    );
                }
                "function_definition" => {
                    return self.refuse(
                        node,
                        "cannot insert inside a function's declarator: insert relative to its body's first statement",
                    );
                }
                "switch_statement" if is_body => {
                    return self.refuse(node, "code around a switch body would never run");
                }
                kind if kind.starts_with("preproc_") && !is_preproc_group(parent) => {
                    return self.refuse(node, "cannot insert code inside a preprocessor directive");
                }
                _ => cur = parent,
            }
        }
    }

    /// Edits for code before/after statement `stmt` of a block.
    fn in_block(&self, stmt: Node<'_>, side: Side, code: &str) -> Result<Vec<Op>, Refusal> {
        let decls = is_declarations(code);
        let stmt = match side {
            Side::Before => {
                if !decls && is_declaration(stmt) && leading_declaration(stmt) {
                    return self.refuse(
                        stmt,
                        "cannot insert statements among a block's leading declarations (C89 wants declarations first); insert before the first statement instead",
                    );
                }
                stmt
            }
            Side::After => {
                if matches!(
                    stmt.kind(),
                    "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
                ) {
                    return self.refuse(
                        stmt,
                        format!("code after a `{}` would never run", jump_keyword(stmt)),
                    );
                }
                if decls {
                    stmt
                } else {
                    last_of_declaration_run(stmt)
                }
            }
        };
        let range = self.understood(stmt)?;
        let mut ops = vec![self.own_line(range.clone(), side, code, Layer::Code)];
        if let Some(control) = stmt.parent().filter(|p| is_control(*p, stmt)) {
            ops.extend(self.braces(control, stmt, range)?);
        }
        Ok(ops)
    }

    /// The two braces that turn body `body` of `control` into a block.
    fn braces(&self, control: Node<'_>, body: Node<'_>, range: Range<usize>) -> Result<[Op; 2], Refusal> {
        let Some(prev) = body.prev_sibling() else {
            return self.refuse(body, "cannot find where this body starts");
        };
        let open_at = self.understood(prev)?.end;
        let header = self.understood(control)?.start;
        let open = Op::Insert(Insertion {
            offset: open_at,
            text: " {".into(),
            anchor: range.clone(),
            side: Side::Before,
            layer: Layer::Brace,
        });
        let close = self.lines_after(range, "}", layout::indentation(self.text, header), Layer::Brace);
        Ok([open, close])
    }

    /// `code` on its own lines before or after `range`, indented like it.
    fn own_line(&self, range: Range<usize>, side: Side, code: &str, layer: Layer) -> Op {
        let indent = layout::indentation(self.text, range.start);
        match side {
            Side::Before => self.lines_before(range, code, indent, layer),
            Side::After => self.lines_after(range, code, indent, layer),
        }
    }

    fn lines_before(&self, range: Range<usize>, code: &str, indent: &str, layer: Layer) -> Op {
        let nl = layout::newline(self.text);
        let lines = layout::as_lines(code, indent, nl);
        let (offset, text) = if layout::starts_line(self.text, range.start) {
            (layout::line_start(self.text, range.start), lines)
        } else {
            (range.start, format!("{nl}{lines}{indent}"))
        };
        Op::Insert(Insertion {
            offset,
            text,
            anchor: range,
            side: Side::Before,
            layer,
        })
    }

    fn lines_after(&self, range: Range<usize>, code: &str, indent: &str, layer: Layer) -> Op {
        let nl = layout::newline(self.text);
        let lines = layout::as_lines(code, indent, nl);
        let (offset, text) = match layout::line_end(self.text, range.end) {
            LineEnd::NextLine {
                offset,
                needs_newline: false,
            } => (offset, lines),
            LineEnd::NextLine { offset, .. } => (offset, format!("{nl}{lines}")),
            LineEnd::Shared if layer == Layer::Brace => (range.end, " }".to_string()),
            LineEnd::Shared => (range.end, format!("{nl}{lines}{indent}")),
        };
        Op::Insert(Insertion {
            offset,
            text,
            anchor: range,
            side: Side::After,
            layer,
        })
    }
}

fn is_declaration(node: Node<'_>) -> bool {
    matches!(node.kind(), "declaration" | "type_definition")
}

fn is_statement(node: Node<'_>) -> bool {
    is_declaration(node) || crate::c::syntax::is_statement_kind(node.kind())
}

/// Preprocessor nodes that group whole items (`#if`…`#endif` and branches),
/// as opposed to directives with expressions inside.
fn is_preproc_group(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" | "preproc_elifdef"
    )
}

/// Is `node` a statement where statements may be added next to it: in a
/// block, under a label or case, or the body of a control statement (which
/// then gets braces)?
fn in_statement_context(node: Node<'_>) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    match parent.kind() {
        "compound_statement" | "case_statement" | "labeled_statement" => true,
        "if_statement" | "else_clause" | "for_statement" | "while_statement" | "do_statement" => {
            is_control(parent, node)
        }
        _ if is_preproc_group(parent) => in_statement_context(parent),
        _ => false,
    }
}

/// Is `body` the controlled statement of `control` (then/else branch, loop body)?
fn is_control(control: Node<'_>, body: Node<'_>) -> bool {
    match control.kind() {
        "if_statement" => control.child_by_field_name("consequence") == Some(body),
        "else_clause" => control.named_child(0) == Some(body),
        "for_statement" | "while_statement" | "do_statement" => {
            control.child_by_field_name("body") == Some(body)
        }
        _ => false,
    }
}

/// Is `node` at file scope: a child of the translation unit, possibly
/// through `#if` groups?
fn is_file_scope(node: Node<'_>) -> bool {
    match node.parent() {
        Some(p) if p.kind() == "translation_unit" => true,
        Some(p) if is_preproc_group(p) => is_file_scope(p),
        _ => false,
    }
}

/// Siblings of a block item, skipping comments.
fn siblings<'t>(node: Node<'t>, forward: bool) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(Some(node), move |n| {
        if forward {
            n.next_named_sibling()
        } else {
            n.prev_named_sibling()
        }
    })
    .skip(1)
    .filter(|n| n.kind() != "comment")
}

/// Is declaration `decl` one of its block's leading declarations?
fn leading_declaration(decl: Node<'_>) -> bool {
    decl.parent().is_some_and(|p| p.kind() == "compound_statement")
        && siblings(decl, false).all(is_declaration)
}

/// The last declaration of the run of declarations starting at `stmt`.
fn last_of_declaration_run(stmt: Node<'_>) -> Node<'_> {
    if !is_declaration(stmt) || stmt.parent().is_none_or(|p| p.kind() != "compound_statement") {
        return stmt;
    }
    siblings(stmt, true)
        .take_while(|n| is_declaration(*n))
        .last()
        .unwrap_or(stmt)
}

fn jump_keyword(stmt: Node<'_>) -> &'static str {
    match stmt.kind() {
        "return_statement" => "return",
        "break_statement" => "break",
        "continue_statement" => "continue",
        _ => "goto",
    }
}
