//! Where inserted code goes so that the result is still legal C.
//!
//! An insertion is anchored on a *statement* (expression-level join points
//! use their enclosing statement) or on a *file-scope item*, and is laid out
//! on its own lines with the anchor's indentation. Around the body of an
//! `if`/`else`/`for`/`while`/`do` the body is wrapped in braces, so the code
//! stays under the control statement; a body that shared its header's line
//! moves to a line of its own, one level deeper than the header. Placements that cannot be legal C are
//! refused: inside a for header or loop condition, after a jump, ordinary
//! statements among a block's leading declarations (C89), inside text the
//! front end synthesized or did not understand, and around a body that a
//! preprocessor directive separates from its header (its brace would open
//! in one branch of the conditional only).
//!
//! The file itself (the tree's root) takes code before it, at byte 0, and
//! after it, at its end: the place for text that must enclose everything
//! else, such as a runtime's prelude and epilogue, wherever the file's
//! first and last items are (even inside `#if`).

use std::ops::Range;

use tree_sitter::Node;

use super::edit_set::{Insertion, Layer, Op, Side};
use super::layout::{self, LineEnd};
use weft_c::ParsedFile;
use weft_c::syntax::{ancestors, conditional_branches, is_conditional_group, is_declaration_item, root_of};
use weft_lang::engine::InsertAt;

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
    // The file's root, or a node of the tree of its chunk.
    let root = root_of(node);
    if node.id() == root.id() {
        return ctx.around_file(node, at, code);
    }
    // tree-sitter's `parent()` walks down from the root at each call: the
    // node's ancestors are found once, and every look upwards reads them.
    let mut chain = ancestors(root, node);
    chain.push(node);
    let range = ctx.understood(&chain)?;
    if node.has_error() {
        return ctx.refuse(node, "cannot edit code the parser did not understand");
    }
    if at == InsertAt::Replace {
        if file.original_range(node.byte_range()).is_none() {
            return ctx.refuse(node, "cannot replace text synthesized by a macro repair");
        }
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
    let anchor = ctx.anchor(&chain)?;
    let ops = match anchor.scope {
        Scope::File => ctx.own_line(ctx.file_item(&chain[..=anchor.depth])?, side, code, Layer::Code),
        Scope::Block => ctx.in_block(&chain[..=anchor.depth], side, code)?,
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
    let tree = weft_c::parse_view(&probe);
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

/// Where an insertion attaches: the node at `depth` of the chain from the
/// root down to the join point.
struct Anchor {
    depth: usize,
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

    /// The original range of the last node of `chain` (a node and its
    /// ancestors, root first), if weft may place code around it: its ends
    /// are original text or the edges of a repaired macro use.
    fn understood(&self, chain: &[Node<'_>]) -> Result<Range<usize>, Refusal> {
        let node = last(chain);
        let Some(range) = self.file.outer_range(node.byte_range()) else {
            return self.refuse(node, "cannot edit text synthesized by a macro repair");
        };
        let in_error = chain.iter().any(|n| n.is_error());
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

    /// The original range of file-scope item `item` (the last of its
    /// chain), with the blanked text that leads it.
    fn file_item(&self, item: &[Node<'_>]) -> Result<Range<usize>, Refusal> {
        let range = self.understood(item)?;
        Ok(self.with_blanked_lead(item, range))
    }

    /// `range`, the original range of the last node of `chain`, widened
    /// back over the text the view blanked between it and the item before
    /// it: attribute, storage-class and calling-convention macros (`local`,
    /// `ATTR` on the line above, a conditional branch not kept) are blanks
    /// in the view, so the node starts after them, but the compiler reads
    /// them as part of the same declaration or statement, and code inserted
    /// before it must not land between them and it. A conditional group
    /// that holds nothing but such blanks (`#ifdef __GNUC__` `ATTR`
    /// `#endif`) leads the node too. Comments between them stay where they
    /// are.
    fn with_blanked_lead(&self, chain: &[Node<'_>], range: Range<usize>) -> Range<usize> {
        let node = last(chain);
        let Some((parent, _)) = parent_of(chain) else {
            return range;
        };
        let gap_start = self.file.lead_start(node, parent, item_before(parent, node));
        let Some(gap) = self.file.outer_range(gap_start..node.start_byte()) else {
            return range;
        };
        match weft_c::leading_tokens(&self.text[gap.clone()]) {
            Some(lead) if gap.start + lead < range.start => gap.start + lead..range.end,
            _ => range,
        }
    }

    /// The statement or file-scope item an insertion around the last node
    /// of `chain` attaches to: that node or one of its ancestors.
    fn anchor(&self, chain: &[Node<'_>]) -> Result<Anchor, Refusal> {
        let node = last(chain);
        let mut depth = chain.len() - 1;
        loop {
            let cur = chain[depth];
            if is_file_scope(&chain[..=depth]) {
                return Ok(Anchor {
                    depth,
                    scope: Scope::File,
                });
            }
            if is_statement(cur) && in_statement_context(&chain[..=depth]) {
                return Ok(Anchor {
                    depth,
                    scope: Scope::Block,
                });
            }
            let Some(parent) = depth.checked_sub(1).map(|d| chain[d]) else {
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
                _ => depth -= 1,
            }
        }
    }

    /// Edits for code before/after statement `stmt` of a block, the last
    /// node of `chain`.
    fn in_block(&self, chain: &[Node<'_>], side: Side, code: &str) -> Result<Vec<Op>, Refusal> {
        let (stmt, above) = (last(chain), &chain[..chain.len() - 1]);
        let parent = above.last().copied();
        // Parsing `code` to tell is only needed next to a declaration.
        let stmt = match side {
            Side::Before => {
                if is_declaration(stmt) && leading_declaration(stmt, parent) && !is_declarations(code) {
                    return self.refuse(
                        stmt,
                        "cannot insert statements among a block's leading declarations (C89 wants declarations first); insert before the first statement instead",
                    );
                }
                if opens_with_declaration(stmt) && !is_declarations(code) {
                    return self.refuse(
                        stmt,
                        "cannot insert statements before this conditional group: a branch of it opens with declarations (C89 wants declarations first), and code after the group would not run on every path",
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
                if is_declaration(stmt) && !is_declarations(code) {
                    last_of_declaration_run(stmt, parent)
                } else {
                    stmt
                }
            }
        };
        // `stmt` may now be a later sibling: it shares the ancestors.
        let chain = [above, &[stmt]].concat();
        let range = self.with_blanked_lead(&chain, self.understood(&chain)?);
        if is_conditional_group(stmt) {
            // Its `#if` may start in column 0: the code is indented like
            // the group's first item (inside nested groups).
            let first_item = |group| conditional_branches(group).0.into_iter().flatten().next();
            let mut first = first_item(stmt);
            while let Some(group) = first.filter(|n| is_conditional_group(*n)) {
                first = first_item(group);
            }
            let at = first.map_or(range.start, |n| self.file.map.approximate(n.start_byte()));
            let indent = layout::indentation(self.text, at);
            return Ok(match side {
                Side::Before => self.lines_before(range, code, indent, Layer::Code),
                Side::After => self.lines_after(range, code, indent, Layer::Code, false),
            });
        }
        if !parent.is_some_and(|p| is_control(p, stmt)) {
            return Ok(self.own_line(range, side, code, Layer::Code));
        }
        let body = self.body_layout(&chain, range)?;
        let mut ops = match side {
            Side::Before if body.shares_header => {
                // The opening brace already broke the line and indented
                // the body; the code takes the body's place and passes the
                // indentation on to it.
                let lines = layout::as_lines(code, &body.inner, layout::newline(self.text));
                let text = match lines.strip_prefix(body.inner.as_str()) {
                    Some(rest) => format!("{rest}{}", body.inner),
                    None => lines,
                };
                vec![Op::Insert(Insertion {
                    offset: body.range.start,
                    text,
                    anchor: body.range.clone(),
                    side,
                    layer: Layer::Code,
                })]
            }
            Side::Before => self.lines_before(body.range.clone(), code, &body.inner, Layer::Code),
            Side::After => self.lines_after(body.range.clone(), code, &body.inner, Layer::Code, true),
        };
        ops.extend(self.braces(&body));
        Ok(ops)
    }

    /// How a control statement's body (the last node of `chain`, after its
    /// control statement), at original `range`, is laid out once it is
    /// wrapped in braces.
    fn body_layout(&self, chain: &[Node<'_>], range: Range<usize>) -> Result<BodyLayout, Refusal> {
        let (body, above) = (last(chain), &chain[..chain.len() - 1]);
        let Some(prev) = body.prev_sibling() else {
            return self.refuse(body, "cannot find where this body starts");
        };
        let header_end = self.understood(&[above, &[prev]].concat())?.end;
        // `#ifdef A if (x) #else if (y) #endif body`: a brace after the
        // header would open in one branch only.
        let between = self.text.get(header_end..range.start).unwrap_or("");
        if between.lines().any(|l| l.trim_start().starts_with('#')) {
            return self.refuse(
                body,
                "cannot brace this body: a preprocessor directive separates it from its header",
            );
        }
        // An `else` may follow the then-branch on its line; the `if` gives
        // the indentation both branches share.
        let control = above.len() - 1;
        let header = match control.checked_sub(1) {
            Some(stmt) if above[control].kind() == "else_clause" => stmt,
            _ => control,
        };
        let header = self.understood(&above[..=header])?.start;
        let header_indent = layout::indentation(self.text, header).to_string();
        let shares_header = !layout::starts_line(self.text, range.start);
        let inner = if shares_header {
            format!(
                "{header_indent}{}",
                self.indent_step(&above[..control], &header_indent)
            )
        } else {
            layout::indentation(self.text, range.start).to_string()
        };
        Ok(BodyLayout {
            range,
            header_end,
            header_indent,
            inner,
            shares_header,
        })
    }

    /// One level of indentation, as the code around a control statement
    /// (indented by `indent`, under `enclosing`, its ancestors) uses it:
    /// what `indent` adds to the indentation of the nearest enclosing
    /// construct that is indented less.
    fn indent_step<'i>(&self, enclosing: &[Node<'_>], indent: &'i str) -> &'i str {
        enclosing
            .iter()
            .rev()
            .map(|n| layout::indentation(self.text, self.file.map.approximate(n.start_byte())))
            .find(|outer| outer.len() < indent.len() && indent.starts_with(outer))
            .map_or(if indent.starts_with('\t') { "\t" } else { "    " }, |outer| {
                &indent[outer.len()..]
            })
    }

    /// The two braces that turn a body into a block. A body on its own
    /// lines gets `{` at the end of its header and `}` on a line of its
    /// own; a body sharing its header's line moves to a line of its own
    /// after the `{`, indented one level deeper than the header.
    fn braces(&self, body: &BodyLayout) -> Vec<Op> {
        let open = if body.shares_header {
            let nl = layout::newline(self.text);
            let before = self.text[..body.range.start].chars().next_back();
            let space = if before.is_some_and(char::is_whitespace) {
                ""
            } else {
                " "
            };
            Insertion {
                offset: body.range.start,
                text: format!("{space}{{{nl}{}", body.inner),
                anchor: body.range.clone(),
                side: Side::Before,
                layer: Layer::Brace,
            }
        } else {
            Insertion {
                offset: body.header_end,
                text: " {".into(),
                anchor: body.range.clone(),
                side: Side::Before,
                layer: Layer::Brace,
            }
        };
        let close = self.lines_after(body.range.clone(), "}", &body.header_indent, Layer::Brace, true);
        std::iter::once(Op::Insert(open)).chain(close).collect()
    }

    /// `code` on its own lines before or after `range`, indented like it.
    fn own_line(&self, range: Range<usize>, side: Side, code: &str, layer: Layer) -> Vec<Op> {
        let indent = layout::indentation(self.text, range.start);
        match side {
            Side::Before => self.lines_before(range, code, indent, layer),
            Side::After => self.lines_after(range, code, indent, layer, false),
        }
    }

    fn lines_before(&self, range: Range<usize>, code: &str, indent: &str, layer: Layer) -> Vec<Op> {
        let nl = layout::newline(self.text);
        let lines = layout::as_lines(code, indent, nl);
        let insertion = |offset, text| {
            Op::Insert(Insertion {
                offset,
                text,
                anchor: range.clone(),
                side: Side::Before,
                layer,
            })
        };
        if layout::starts_line(self.text, range.start) {
            return vec![insertion(layout::line_start(self.text, range.start), lines)];
        }
        // After other code on the line (`a(); b();`).
        let gap = range.start - self.text[..range.start].trim_end_matches([' ', '\t']).len();
        match self.line_between(
            range.start - gap..range.start,
            indent,
            lines,
            &range,
            Side::Before,
            layer,
        ) {
            Ok(ops) => ops,
            Err(lines) => vec![insertion(range.start, format!("{nl}{lines}{indent}"))],
        }
    }

    /// `code` on its own lines after `range`, indented by `indent`. When
    /// `braced`, a closing brace on its own line follows (or is) the code,
    /// so code sharing the rest of the line needs no indentation of its own.
    fn lines_after(
        &self,
        range: Range<usize>,
        code: &str,
        indent: &str,
        layer: Layer,
        braced: bool,
    ) -> Vec<Op> {
        let nl = layout::newline(self.text);
        let lines = layout::as_lines(code, indent, nl);
        let (offset, text) = match layout::line_end(self.text, range.end) {
            LineEnd::NextLine {
                offset,
                needs_newline: false,
            } => (offset, lines),
            LineEnd::NextLine { offset, .. } => (offset, format!("{nl}{lines}")),
            LineEnd::Shared if braced => (
                range.end,
                format!("{nl}{}", lines.strip_suffix(nl).unwrap_or(&lines)),
            ),
            LineEnd::Shared => {
                let rest = &self.text[range.end..];
                let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
                match self.line_between(
                    range.end..range.end + gap,
                    indent,
                    lines,
                    &range,
                    Side::After,
                    layer,
                ) {
                    Ok(ops) => return ops,
                    Err(lines) => (range.end, format!("{nl}{lines}{indent}")),
                }
            }
        };
        vec![Op::Insert(Insertion {
            offset,
            text,
            anchor: range,
            side: Side::After,
            layer,
        })]
    }

    /// `lines` (indented by `indent`) between two items sharing a line,
    /// with blanks over `gap` between them: the line breaks where the
    /// blanks start, so that none trail on it, and those blanks become the
    /// end of the second item's indentation. The break and the indentation
    /// are edits of their own, shared with every other insertion there
    /// (after the first item or before the second), so that lines inserted
    /// by several of them stack with no blank line between. `Err(lines)`
    /// when the blanks are not the end of the indentation (a tab after
    /// spaces): those are left alone.
    fn line_between(
        &self,
        gap: Range<usize>,
        indent: &str,
        lines: String,
        anchor: &Range<usize>,
        side: Side,
        layer: Layer,
    ) -> Result<Vec<Op>, String> {
        let Some(rest) = indent.strip_suffix(&self.text[gap.clone()]) else {
            return Err(lines);
        };
        let insertion = |text: String, layer| {
            Op::Insert(Insertion {
                offset: gap.start,
                text,
                anchor: anchor.clone(),
                side,
                layer,
            })
        };
        Ok(vec![
            insertion(layout::newline(self.text).to_string(), Layer::LineBreak),
            insertion(lines, layer),
            insertion(rest.to_string(), Layer::Indent),
        ])
    }
}

/// Where a control-statement body and its braces go (see [`Ctx::braces`]).
struct BodyLayout {
    /// The body's original range.
    range: Range<usize>,
    /// Where the header before the body ends (`)`, `else` or `do`).
    header_end: usize,
    /// The indentation of the header's line; the closing brace gets it.
    header_indent: String,
    /// The indentation of the body's lines inside the braces.
    inner: String,
    /// The body starts on its header's line.
    shares_header: bool,
}

fn is_declaration(node: Node<'_>) -> bool {
    matches!(node.kind(), "declaration" | "type_definition")
}

/// Statements, declarations, and conditional groups in a block (which
/// first_stmt selects when what runs first is inside one).
fn is_statement(node: Node<'_>) -> bool {
    is_declaration(node) || weft_c::syntax::is_statement_kind(node.kind()) || is_conditional_group(node)
}

/// Preprocessor nodes that group whole items (`#if`…`#endif` and branches),
/// as opposed to directives with expressions inside.
fn is_preproc_group(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" | "preproc_elifdef"
    )
}

/// Is `node` a conditional group one of whose branches opens with a
/// declaration?
fn opens_with_declaration(node: Node<'_>) -> bool {
    is_conditional_group(node)
        && conditional_branches(node)
            .0
            .iter()
            .any(|b| b.first().is_some_and(|n| is_declaration_item(*n)))
}

/// Is `node` a conditional group whose branches hold no item in the view
/// (only blanked text and comments)?
fn holds_no_item(node: Node<'_>) -> bool {
    if !is_preproc_group(node) {
        return false;
    }
    let condition = node
        .child_by_field_name("condition")
        .or_else(|| node.child_by_field_name("name"));
    let mut cursor = node.walk();
    let mut children = node.named_children(&mut cursor);
    children.all(|c| c.kind() == "comment" || Some(c) == condition || holds_no_item(c))
}

/// The last child of `parent` before its child `node` that is an item:
/// neither a comment nor a conditional group holding none. Found walking
/// back from `node`: walking forward from the first child made each insert
/// before a function cost every function before it.
fn item_before<'t>(parent: Node<'t>, node: Node<'t>) -> Option<Node<'t>> {
    let mut cursor = parent.walk();
    cursor.goto_first_child_for_byte(node.start_byte())?;
    if cursor.node().id() != node.id() {
        // Not a plain child (a zero-width node at its start): the forward walk.
        let mut cursor = parent.walk();
        return parent
            .children(&mut cursor)
            .take_while(|c| c.id() != node.id() && c.end_byte() <= node.start_byte())
            .filter(|c| c.kind() != "comment" && !holds_no_item(*c))
            .last();
    }
    while cursor.goto_previous_sibling() {
        let c = cursor.node();
        if c.kind() != "comment" && !holds_no_item(c) {
            return Some(c);
        }
    }
    None
}

/// The last node of a chain (a node after its ancestors).
fn last<'t>(chain: &[Node<'t>]) -> Node<'t> {
    *chain.last().expect("a chain holds at least its node")
}

/// The parent of the last node of `chain`, and the chain up to it.
fn parent_of<'c, 't>(chain: &'c [Node<'t>]) -> Option<(Node<'t>, &'c [Node<'t>])> {
    let above = &chain[..chain.len().checked_sub(1)?];
    Some((*above.last()?, above))
}

/// Is the last node of `chain` a statement where statements may be added
/// next to it: in a block, under a label or case, or the body of a control
/// statement (which then gets braces)?
fn in_statement_context(chain: &[Node<'_>]) -> bool {
    let Some((parent, above)) = parent_of(chain) else {
        return false;
    };
    match parent.kind() {
        "compound_statement" | "case_statement" | "labeled_statement" => true,
        "if_statement" | "else_clause" | "for_statement" | "while_statement" | "do_statement" => {
            is_control(parent, last(chain))
        }
        _ if is_preproc_group(parent) => in_statement_context(above),
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

/// Is the last node of `chain` at file scope: a child of the translation
/// unit, possibly through `#if` groups?
fn is_file_scope(chain: &[Node<'_>]) -> bool {
    match parent_of(chain) {
        Some((p, _)) if p.kind() == "translation_unit" => true,
        Some((p, above)) if is_preproc_group(p) => is_file_scope(above),
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

/// Is declaration `decl`, under `parent`, one of its block's leading
/// declarations?
fn leading_declaration(decl: Node<'_>, parent: Option<Node<'_>>) -> bool {
    parent.is_some_and(|p| p.kind() == "compound_statement") && siblings(decl, false).all(is_declaration)
}

/// The last declaration of the run of declarations starting at `stmt`,
/// under `parent`.
fn last_of_declaration_run<'t>(stmt: Node<'t>, parent: Option<Node<'_>>) -> Node<'t> {
    if !is_declaration(stmt) || parent.is_none_or(|p| p.kind() != "compound_statement") {
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
