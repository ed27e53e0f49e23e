//! Object-like macros that stand for integer constants (`#define MAX_BITS
//! 15`, `#define WMASK (WSIZE-1)`), read as the constant expressions they
//! expand to, so that a loop comparing with one stays in the fragment.
//!
//! Only a macro with one definition in the file and the project headers it
//! reaches is read: with several (`#ifdef SMALL_MEM` / `#else`), the
//! configuration being built decides which, and a wrong value would make a
//! wrong SRC. Its body must be integer literals, other such macros,
//! parentheses and C's integer operators; the expression keeps C's types
//! (`1 << BITS` is an `int`).

use weft_c::sema::Semantics;

use crate::extract::literal;
use crate::ir::{BinOp, Expr, UnOp};

/// How deep macros may name macros.
const MAX_DEPTH: usize = 8;

/// The constant expression object-like macro `name` stands for in program
/// file `file`, or why it is not one.
pub fn macro_constant(sema: &Semantics, file: usize, name: &str) -> Result<Expr, String> {
    expand(sema, file, name, 0)
}

fn expand(sema: &Semantics, file: usize, name: &str, depth: usize) -> Result<Expr, String> {
    let defs = sema.macro_definitions(file, name);
    let def = match defs.as_slice() {
        [] => {
            return Err(format!(
                "variable {name} is not declared (a macro or a system header's)"
            ));
        }
        [def] if def.params.is_none() => def,
        [_] => return Err(format!("{name} is a function-like macro")),
        _ => return Err(format!("{name} is a macro with {} definitions", defs.len())),
    };
    if depth >= MAX_DEPTH {
        return Err(format!("{name} is a macro nested too deep"));
    }
    let tokens = tokens(&def.body);
    let mut parser = Parser {
        sema,
        file,
        depth,
        tokens: &tokens,
        at: 0,
    };
    let e = parser.binary(0);
    match e {
        Ok(e) if parser.at == tokens.len() => Ok(e),
        _ => Err(format!("{name} is a macro that is not an integer constant")),
    }
}

/// The body's tokens: numbers and names whole, operators by their longest
/// spelling.
fn tokens(body: &str) -> Vec<String> {
    const OPS: [&str; 8] = ["<<", ">>", "&&", "||", "==", "!=", "<=", ">="];
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(body[start..i].to_string());
        } else {
            // The macro table keeps a body's tokens one space apart and
            // splits `<<` as `< <`: no two-character operator has a valid
            // split spelling here, so a space between is read through.
            let spaced = |op: &str| {
                let (a, b) = op.split_at(1);
                (body[i..].starts_with(op) || body[i..].starts_with(&format!("{a} {b}")))
                    .then_some(if body[i..].starts_with(op) { 2 } else { 3 })
            };
            match OPS.iter().find_map(|op| spaced(op).map(|len| (*op, len))) {
                Some((op, len)) => {
                    out.push(op.to_string());
                    i += len;
                }
                None => {
                    let len = body[i..].chars().next().map_or(1, char::len_utf8);
                    out.push(body[i..i + len].to_string());
                    i += len;
                }
            }
        }
    }
    out
}

struct Parser<'a> {
    sema: &'a Semantics,
    file: usize,
    depth: usize,
    tokens: &'a [String],
    at: usize,
}

/// Binary operators by precedence, loosest first.
const LEVELS: [&[(&str, BinOp)]; 8] = [
    &[("|", BinOp::Or)],
    &[("^", BinOp::Xor)],
    &[("&", BinOp::And)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[
        ("<", BinOp::Lt),
        (">", BinOp::Gt),
        ("<=", BinOp::Le),
        (">=", BinOp::Ge),
    ],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
];

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn eat(&mut self, token: &str) -> bool {
        let here = self.peek() == Some(token);
        self.at += usize::from(here);
        here
    }

    /// Operators of precedence `level` and tighter.
    fn binary(&mut self, level: usize) -> Result<Expr, ()> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        while let Some(&(_, op)) = ops.iter().find(|(s, _)| self.peek() == Some(*s)) {
            self.at += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, ()> {
        for (s, op) in [("-", UnOp::Neg), ("~", UnOp::BitNot)] {
            if self.eat(s) {
                return Ok(Expr::Unary(op, Box::new(self.unary()?)));
            }
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("(") {
            let e = self.binary(0)?;
            return if self.eat(")") { Ok(e) } else { Err(()) };
        }
        let token = self.peek().ok_or(())?.to_string();
        self.at += 1;
        if token.as_bytes()[0].is_ascii_digit() {
            return literal(&token).ok_or(());
        }
        if token.as_bytes()[0].is_ascii_alphabetic() || token.starts_with('_') {
            return expand(self.sema, self.file, &token, self.depth + 1).map_err(|_| ());
        }
        Err(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntType;

    const TEXT: &str = "#define BITS 4\n#define LIMIT ((1 << BITS) - 1)\n#define BIG 0x10UL\n#ifdef SMALL\n#  define STEP 3\n#else\n#  define STEP 2\n#endif\n#define F(x) (x)\n#define WIDTH width\n#define CAST ((int)3)\nint width;\n";

    fn constant(name: &str) -> Result<Expr, String> {
        let parsed = weft_c::ParsedFile::parse_plain(std::path::PathBuf::from("t.c"), TEXT.to_string());
        let sema = Semantics::build(std::slice::from_ref(&parsed), &[]);
        macro_constant(&sema, 0, name)
    }

    #[test]
    fn a_macro_of_literals_and_macros_is_its_expression_with_c_types() {
        let four = Expr::int(4);
        let one = Expr::int(1);
        let shifted = Expr::bin(BinOp::Shl, one.clone(), four);
        assert_eq!(constant("LIMIT"), Ok(Expr::bin(BinOp::Sub, shifted, one)));
        let ulong = IntType {
            width: 64,
            signed: false,
        };
        assert_eq!(constant("BIG"), Ok(Expr::Const(16, ulong)));
    }

    #[test]
    fn several_definitions_parameters_variables_and_casts_are_no_constant() {
        assert_eq!(constant("STEP"), Err("STEP is a macro with 2 definitions".into()));
        assert_eq!(constant("F"), Err("F is a function-like macro".into()));
        for name in ["WIDTH", "CAST"] {
            assert_eq!(
                constant(name),
                Err(format!("{name} is a macro that is not an integer constant"))
            );
        }
        assert!(constant("NOWHERE").unwrap_err().contains("not declared"));
    }
}
