//! Where a changed region can hold a switch on the revision: whole
//! statements of one block (the finest, sharing the most execution), or
//! whole function definitions. Regions are line ranges of one file (0-based,
//! end exclusive), because diffs change whole lines.

use std::ops::Range;

use tree_sitter::Node;
use weft_c::ParsedFile;
use weft_c::syntax::{declarator_name, macro_made_name};
use weft_text::LineIndex;

/// Kinds whose children are a list of statements.
const CONTAINERS: &[&str] = &[
    "compound_statement",
    "case_statement",
    "preproc_if",
    "preproc_ifdef",
    "preproc_elif",
    "preproc_else",
];

/// A parsed file with its line starts.
pub struct Text<'f> {
    pub file: &'f ParsedFile,
    /// The file's whole tree (parsed for a file parsed in chunks).
    tree: tree_sitter::Tree,
    lines: LineIndex,
}

/// Statements of one block, as found for a region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statements {
    /// Whole lines holding exactly these statements.
    pub lines: Range<usize>,
    /// The function they are in.
    pub function: String,
    /// Names declared at the block's level inside `lines` that the rest of
    /// the block uses after them: a switch would hide them.
    pub escaping: Vec<String>,
    /// Labels defined inside `lines` (at any depth).
    pub labels: Vec<String>,
}

/// Whole function definitions, as found for a region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Functions {
    pub lines: Range<usize>,
    /// Their names, in order.
    pub names: Vec<String>,
    /// What renaming each and calling it takes, in the same order.
    pub definitions: Vec<Definition>,
}

/// A function definition, as a function-level switch needs it. Offsets
/// are bytes of the file (see [`Definition::shifted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// Where the definition starts (its first specifier).
    pub start: usize,
    /// Where its name is.
    pub name_at: Range<usize>,
    /// Whether `static` is among its specifiers.
    pub is_static: bool,
    /// Its text up to the body: specifiers and declarator.
    pub signature: String,
    /// The parameter names and whether it returns nothing, or why it
    /// cannot be called through a dispatcher.
    pub call: Result<Call, String>,
}

/// How a dispatcher calls a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub params: Vec<String>,
    pub returns_void: bool,
}

impl Definition {
    /// The definition with its offsets made relative to `origin`.
    pub fn shifted(&self, origin: usize) -> Definition {
        Definition {
            start: self.start - origin,
            name_at: self.name_at.start - origin..self.name_at.end - origin,
            ..self.clone()
        }
    }
}

impl<'f> Text<'f> {
    pub fn new(file: &'f ParsedFile) -> Text<'f> {
        Text {
            lines: LineIndex::new(&file.text),
            tree: file.whole_tree(),
            file,
        }
    }

    /// The byte offset where 0-based `line` starts (the end of the text
    /// for the line after the last).
    pub fn offset(&self, line: usize) -> usize {
        self.lines.start_of(line + 1).unwrap_or(self.file.text.len())
    }

    /// The 0-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.lines.line(offset) - 1
    }

    /// The text of whole lines.
    pub fn slice(&self, lines: &Range<usize>) -> &str {
        &self.file.text[self.bytes(lines)]
    }

    fn bytes(&self, lines: &Range<usize>) -> Range<usize> {
        self.offset(lines.start)..self.offset(lines.end)
    }

    /// The original range of `node`, when it maps back. A definition
    /// whose implicit `int` the front end wrote starts where its name does.
    fn range(&self, node: Node<'_>) -> Option<Range<usize>> {
        let view = node.byte_range();
        self.file.original_range(view.clone()).or_else(|| {
            (node.kind() == "function_definition")
                .then(|| self.file.outer_range(view))
                .flatten()
        })
    }

    /// The nodes from the root down to the innermost one holding `target`
    /// (for an empty target, strictly around its offset).
    fn path_to(&self, target: &Range<usize>) -> Vec<Node<'_>> {
        let mut path = vec![self.tree.root_node()];
        'down: loop {
            let node = path[path.len() - 1];
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if self.range(child).is_some_and(|r| holds(&r, target)) {
                    path.push(child);
                    continue 'down;
                }
            }
            return path;
        }
    }

    /// Whole statements of one block covering `lines`: the smallest block
    /// whose inside holds the region, the statements overlapping it, grown
    /// until the lines hold nothing else. `None` when the region is not
    /// inside a function body or touches text the front end did not
    /// understand.
    pub fn statements(&self, lines: &Range<usize>) -> Option<Statements> {
        let mut target = self.bytes(lines);
        let path = self.path_to(&target);
        let function = path.iter().position(|n| n.kind() == "function_definition")?;
        for (depth, &container) in path.iter().enumerate().skip(function + 1).rev() {
            if !CONTAINERS.contains(&container.kind()) {
                continue;
            }
            if let Some(found) = self.within(container, &target) {
                if !self.file.is_understood(container) {
                    return None;
                }
                let name = function_name(self.file, path[function])?;
                return Some(self.describe(container, found, name));
            }
            // The region covers the block's own brackets or label: the
            // statement holding the block is the least that can switch.
            if let Some(r) = self.range(path[depth]) {
                target = r;
            }
        }
        None
    }

    /// The line range of the members of `container` that overlap `target`,
    /// grown so its lines hold nothing else, when `target` is inside.
    fn within(&self, container: Node<'_>, target: &Range<usize>) -> Option<Range<usize>> {
        let inside = self.inside(container)?;
        if !(inside.start <= target.start && target.end <= inside.end) {
            return None;
        }
        let members: Vec<(Node, Range<usize>)> = named_children(container)
            .filter_map(|c| Some((c, self.range(c)?)))
            .filter(|(_, r)| inside.start <= r.start && r.end <= inside.end)
            .collect();
        let overlapping: Vec<&(Node, Range<usize>)> =
            members.iter().filter(|(_, m)| overlaps(m, target)).collect();
        // A switch's cases cannot be split among branches (the labels
        // would repeat) nor have a branch between them (a jump to a case
        // would skip its test).
        if members.iter().any(|(n, _)| n.kind() == "case_statement") {
            return None;
        }
        let members: Vec<Range<usize>> = members.iter().map(|(_, r)| r.clone()).collect();
        let (mut start, mut end) = match (overlapping.first(), overlapping.last()) {
            (Some((_, first)), Some((_, last))) => (first.start, last.end),
            // An insertion between statements, at a line start.
            _ => return Some(self.line(target.start)..self.line(target.start)),
        };
        let text = self.file.text.as_bytes();
        loop {
            let line_start = self.offset(self.line(start));
            let line_end = self.offset(self.line(end.saturating_sub(1)) + 1);
            let before = members.iter().find(|m| m.start >= line_start && m.start < start);
            let after = members.iter().rev().find(|m| m.end <= line_end && m.end > end);
            match (before, after) {
                (Some(m), _) => start = m.start,
                (_, Some(m)) => end = m.end,
                _ if blank(&text[line_start..start]) && blank(&text[end..line_end]) => {
                    return Some(self.line(start)..self.line(end.saturating_sub(1)) + 1);
                }
                // The block's bracket or label shares a line with them.
                _ => return None,
            }
        }
    }

    /// The original byte range inside a container, between its opening
    /// (`{`, `case …:`, the directive line) and its closing.
    fn inside(&self, container: Node<'_>) -> Option<Range<usize>> {
        let whole = self.range(container)?;
        let mut cursor = container.walk();
        let children: Vec<Node> = container.children(&mut cursor).collect();
        let text = &self.file.text;
        match container.kind() {
            "compound_statement" => {
                let open = self.range(*children.first()?)?;
                let close = self.range(*children.last()?)?;
                Some(open.end..close.start)
            }
            "case_statement" => {
                let colon = children.iter().find(|c| c.kind() == ":")?;
                Some(self.range(*colon)?.end..whole.end)
            }
            _ => {
                let first_line_end = text[whole.start..]
                    .find('\n')
                    .map_or(whole.end, |i| whole.start + i + 1);
                let close = children
                    .iter()
                    .skip(1)
                    .find(|c| c.kind() == "#endif" || c.kind().starts_with("preproc_el"))
                    .and_then(|c| self.range(*c))
                    .map_or(whole.end, |r| r.start);
                Some(first_line_end..close)
            }
        }
    }

    fn describe(&self, container: Node<'_>, lines: Range<usize>, function: String) -> Statements {
        let bytes = self.bytes(&lines);
        let mut escaping = Vec::new();
        let mut labels = Vec::new();
        let later: Vec<Node> = named_children(container)
            .filter(|c| self.range(*c).is_some_and(|r| r.start >= bytes.end))
            .collect();
        for member in named_children(container).filter(|c| self.range(*c).is_some_and(|r| within(&r, &bytes)))
        {
            if member.kind() == "declaration" {
                for name in declared_names(self.file, member) {
                    if later.iter().any(|n| uses(self.file, *n, &name)) {
                        escaping.push(name);
                    }
                }
            }
            collect_labels(self.file, member, &mut labels);
        }
        Statements {
            lines,
            function,
            escaping,
            labels,
        }
    }

    /// Whole function definitions covering `lines`; `None` when part of the
    /// region is outside every function or a function shares a line with
    /// other code.
    pub fn functions(&self, lines: &Range<usize>) -> Option<Functions> {
        let target = self.bytes(lines);
        let root = self.tree.root_node();
        let mut hull: Option<Range<usize>> = None;
        let mut definitions = Vec::new();
        for top in named_children(root) {
            let Some(r) = self.range(top).filter(|r| overlaps(r, &target)) else {
                continue;
            };
            match top.kind() {
                "function_definition" if self.file.is_understood(top) => {
                    definitions.push(self.definition(top)?)
                }
                "comment" => continue,
                // A declaration in the change (say, between two changed
                // functions) would be copied with them.
                _ => return None,
            }
            hull = Some(hull.map_or(r.clone(), |h| h.start.min(r.start)..h.end.max(r.end)));
        }
        let hull = hull?;
        let first = self.line(hull.start);
        let last = self.line(hull.end.saturating_sub(1)) + 1;
        let text = self.file.text.as_bytes();
        let whole = self.offset(first)..self.offset(last);
        let clean = blank(&text[whole.start..hull.start]) && blank(&text[hull.end..whole.end]);
        (clean && whole.start <= target.start && target.end <= whole.end).then(|| Functions {
            lines: first..last,
            names: definitions
                .iter()
                .map(|d| self.file.text[d.name_at.clone()].to_string())
                .collect(),
            definitions,
        })
    }

    fn definition(&self, def: Node<'_>) -> Option<Definition> {
        let start = self.range(def)?.start;
        let declarator = def.child_by_field_name("declarator")?;
        // A name a macro call makes cannot be renamed per revision.
        if macro_made_name(declarator).is_some() {
            return None;
        }
        let name_at = self.range(declarator_name(declarator)?)?;
        let body = self.range(def.child_by_field_name("body")?)?;
        let is_static = named_children(def)
            .any(|c| c.kind() == "storage_class_specifier" && self.file.node_text(c) == "static");
        let returns_void = declarator.kind() == "function_declarator"
            && def
                .child_by_field_name("type")
                .is_some_and(|t| self.file.node_text(t) == "void");
        Some(Definition {
            start,
            name_at,
            is_static,
            signature: self.file.text[start..body.start].trim_end().to_string(),
            call: self
                .params(declarator)
                .map(|params| Call { params, returns_void }),
        })
    }

    /// The parameter names of a function declarator, in order.
    fn params(&self, declarator: Node<'_>) -> Result<Vec<String>, String> {
        let mut d = declarator;
        while d.kind() != "function_declarator" {
            d = d.child_by_field_name("declarator").ok_or("no parameter list")?;
        }
        let list = d.child_by_field_name("parameters").ok_or("no parameter list")?;
        let params: Vec<Node> = named_children(list).filter(|p| p.kind() != "comment").collect();
        let mut names = Vec::new();
        for p in &params {
            match (p.kind(), p.child_by_field_name("declarator")) {
                ("variadic_parameter", _) => return Err("it takes a variable argument list".into()),
                ("parameter_declaration", Some(d)) => {
                    let id = declarator_name(d).ok_or("a parameter has no name")?;
                    names.push(self.file.node_text(id).to_string());
                }
                ("parameter_declaration", None) if params.len() == 1 && self.file.node_text(*p) == "void" => {
                }
                _ => return Err("a parameter has no name (or the definition is old-style)".into()),
            }
        }
        Ok(names)
    }
}

impl Text<'_> {
    /// The whole lines of the top-level items that `lines` overlap (with
    /// `lines` themselves), when each item's place is known.
    pub fn top_level_hull(&self, lines: &Range<usize>) -> Option<Range<usize>> {
        let target = self.bytes(lines);
        let mut hull = lines.clone();
        for top in named_children(self.tree.root_node()) {
            let Some(r) = self.range(top) else {
                let view = top.byte_range();
                let r = self.file.map.approximate(view.start)..self.file.map.approximate(view.end);
                if overlaps(&r, &target) {
                    return None;
                }
                continue;
            };
            if overlaps(&r, &target) {
                hull.start = hull.start.min(self.line(r.start));
                hull.end = hull.end.max(self.line(r.end.saturating_sub(1)) + 1);
            }
        }
        Some(hull)
    }

    /// Whether `lines` hold only whole top-level items (or, when empty,
    /// lie between two of them).
    pub fn top_level(&self, lines: &Range<usize>) -> bool {
        let target = self.bytes(lines);
        named_children(self.tree.root_node()).all(|top| {
            let whole = self.range(top);
            // Where a repair wrote a node's ends, its place is approximate:
            // enough to tell that it is far from the target.
            let r = whole.clone().unwrap_or_else(|| {
                let view = top.byte_range();
                self.file.map.approximate(view.start)..self.file.map.approximate(view.end)
            });
            let strictly_around = r.start < target.start && target.start < r.end;
            let clear = if target.is_empty() {
                !strictly_around
            } else {
                !overlaps(&r, &target) || within(&r, &target)
            };
            clear && (whole.is_some() || !overlaps(&r, &target) && !strictly_around)
        })
    }
}

/// Whether `outer` holds `target`; an empty target must lie strictly inside.
fn holds(outer: &Range<usize>, target: &Range<usize>) -> bool {
    if target.is_empty() {
        outer.start < target.start && target.start < outer.end
    } else {
        outer.start <= target.start && target.end <= outer.end
    }
}

fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Whether a member overlaps the region (an empty region: lies strictly
/// inside the member).
fn overlaps(member: &Range<usize>, target: &Range<usize>) -> bool {
    if target.is_empty() {
        member.start < target.start && target.start < member.end
    } else {
        member.start < target.end && target.start < member.end
    }
}

fn blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

fn named_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.named_child_count() as u32).filter_map(move |i| node.named_child(i))
}

/// The name of a function definition; a name a macro call makes is the
/// call as written (`PREFIX(twice)`).
pub fn function_name(file: &ParsedFile, def: Node<'_>) -> Option<String> {
    let declarator = def.child_by_field_name("declarator")?;
    let id = macro_made_name(declarator).or_else(|| declarator_name(declarator))?;
    file.original_text(id).map(str::to_string)
}

fn declared_names(file: &ParsedFile, decl: Node<'_>) -> Vec<String> {
    let mut cursor = decl.walk();
    decl.children_by_field_name("declarator", &mut cursor)
        .filter_map(declarator_name)
        .filter_map(|id| file.original_text(id).map(str::to_string))
        .collect()
}

/// Whether `node` mentions identifier `name`.
fn uses(file: &ParsedFile, node: Node<'_>, name: &str) -> bool {
    if node.kind() == "identifier" {
        return file.node_text(node) == name;
    }
    named_children(node).any(|c| uses(file, c, name))
}

fn collect_labels(file: &ParsedFile, node: Node<'_>, out: &mut Vec<String>) {
    if node.kind() == "labeled_statement"
        && let Some(label) = node.child_by_field_name("label")
    {
        out.push(file.node_text(label).to_string());
    }
    for child in named_children(node) {
        collect_labels(file, child, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "\
int g;
int f(int a)
{
  int x = a;
  if (x > 1) {
    x = 2;
    x++; x--;
  }
  switch (a) {
  case 1:
    x = 3;
    break;
  }
  return x;
}
";

    fn parsed() -> ParsedFile {
        ParsedFile::parse_plain("t.c", SRC)
    }

    #[test]
    fn a_statement_line_is_its_own_site() {
        let f = parsed();
        let t = Text::new(&f);
        let s = t.statements(&(5..6)).unwrap();
        assert_eq!(s.lines, 5..6);
        assert_eq!(s.function, "f");
        // `x++; x--;` share a line: both.
        assert_eq!(t.statements(&(6..7)).unwrap().lines, 6..7);
        // Inside a case: the statements after the label.
        assert_eq!(t.statements(&(10..11)).unwrap().lines, 10..11);
        // An insertion between statements stays an insertion.
        assert_eq!(t.statements(&(13..13)).unwrap().lines, 13..13);
    }

    #[test]
    fn brackets_and_labels_grow_the_site_to_the_statement_holding_them() {
        let f = parsed();
        let t = Text::new(&f);
        // The `if` line: the whole if statement.
        assert_eq!(t.statements(&(4..5)).unwrap().lines, 4..8);
        // `case 1:`: the whole switch (its cases cannot be split).
        assert_eq!(t.statements(&(9..10)).unwrap().lines, 8..13);
    }

    #[test]
    fn declarations_used_later_escape() {
        let f = parsed();
        let t = Text::new(&f);
        let s = t.statements(&(3..4)).unwrap();
        assert_eq!(s.escaping, ["x"]);
    }

    #[test]
    fn file_scope_is_no_statement_but_functions_cover_it() {
        let f = parsed();
        let t = Text::new(&f);
        assert_eq!(t.statements(&(0..1)), None);
        assert_eq!(t.functions(&(0..1)), None);
        let fun = t.functions(&(1..2)).unwrap();
        assert_eq!(fun.lines, 1..15);
        assert_eq!(fun.names, ["f"]);
    }
}
