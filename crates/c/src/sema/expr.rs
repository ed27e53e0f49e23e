//! Types of the expressions weft reasons about: names, member accesses,
//! subscripts, dereferences and calls. Everything else is Unknown.

use tree_sitter::Node;

use super::Semantics;
use super::ctype::{CType, TypeKind};
use super::declaration::Declaration;

impl Semantics {
    /// The type of an expression node of file `file`'s view.
    pub fn type_of_expr(&self, file: usize, expr: Node<'_>) -> CType {
        self.expr_type(file, expr).unwrap_or_else(CType::unknown)
    }

    fn expr_type(&self, file: usize, expr: Node<'_>) -> Option<CType> {
        match expr.kind() {
            "identifier" => Some(self.type_of(file, expr)),
            "parenthesized_expression" => self.expr_type(file, expr.named_child(0)?),
            "field_expression" => Some(self.member(file, expr)?.ty.clone()),
            "subscript_expression" => {
                let base = self.expr_type(file, expr.child_by_field_name("argument")?)?;
                base.target().cloned()
            }
            "pointer_expression" => {
                let operand = self.expr_type(file, expr.child_by_field_name("argument")?)?;
                match expr.child_by_field_name("operator")?.kind() {
                    "*" => operand.target().cloned(),
                    "&" => Some(CType::new(TypeKind::Pointer(Box::new(operand)))),
                    _ => None,
                }
            }
            "call_expression" => {
                let callee = self.expr_type(file, expr.child_by_field_name("function")?)?;
                let function = callee.target().unwrap_or(&callee);
                function.return_type().cloned()
            }
            "assignment_expression" => self.expr_type(file, expr.child_by_field_name("left")?),
            _ => None,
        }
    }

    /// The member declaration accessed by a `field_expression` node.
    pub(super) fn member(&self, file: usize, access: Node<'_>) -> Option<&Declaration> {
        let base = self.expr_type(file, access.child_by_field_name("argument")?)?;
        let arrow = access.child_by_field_name("operator")?.kind() == "->";
        let record = if arrow { base.target()? } else { &base };
        let name = access.child_by_field_name("field")?;
        let text = self.files.get(file)?.view.get(name.byte_range())?;
        self.field(record, text)
    }
}
