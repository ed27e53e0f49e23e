//! The integer fragment as data: C integer types with real widths, and
//! expressions over the loop's variables, printed back as C.

use std::collections::BTreeMap;
use std::fmt;

/// A C integer type: width in bits and signedness (LP64: long is 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IntType {
    pub width: u32,
    pub signed: bool,
}

pub const INT: IntType = IntType {
    width: 32,
    signed: true,
};

impl IntType {
    /// The type a C type name denotes, if it is an integer type weft models.
    pub fn from_name(name: &str) -> Option<IntType> {
        let words: Vec<&str> = name
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "volatile" | "register" | "static" | "auto"))
            .collect();
        let t = |width, signed| Some(IntType { width, signed });
        match words.join(" ").as_str() {
            "char" | "signed char" | "int8_t" => t(8, true),
            "unsigned char" | "uint8_t" | "uch" => t(8, false),
            "short" | "short int" | "signed short" | "signed short int" | "int16_t" => t(16, true),
            "unsigned short" | "unsigned short int" | "uint16_t" | "ush" => t(16, false),
            "int" | "signed" | "signed int" | "int32_t" => t(32, true),
            "unsigned" | "unsigned int" | "uint32_t" => t(32, false),
            "long" | "long int" | "signed long" | "signed long int" | "long long" | "long long int"
            | "signed long long" | "int64_t" | "ssize_t" | "ptrdiff_t" | "intptr_t" | "off_t" => t(64, true),
            "unsigned long"
            | "unsigned long int"
            | "unsigned long long"
            | "unsigned long long int"
            | "uint64_t"
            | "size_t"
            | "uintptr_t"
            | "ulg" => t(64, false),
            _ => None,
        }
    }

    /// A C spelling of the type.
    pub fn c_name(self) -> &'static str {
        match (self.width, self.signed) {
            (8, true) => "signed char",
            (8, false) => "unsigned char",
            (16, true) => "short",
            (16, false) => "unsigned short",
            (32, true) => "int",
            (32, false) => "unsigned int",
            (_, true) => "long",
            (_, false) => "unsigned long",
        }
    }

    /// The integer promotions: narrower than int becomes int.
    pub fn promoted(self) -> IntType {
        if self.width < 32 { INT } else { self }
    }

    /// The usual arithmetic conversions of two (promoted) operand types.
    pub fn common(a: IntType, b: IntType) -> IntType {
        let (a, b) = (a.promoted(), b.promoted());
        if a.signed == b.signed {
            return if a.width >= b.width { a } else { b };
        }
        let (s, u) = if a.signed { (a, b) } else { (b, a) };
        if u.width >= s.width { u } else { s }
    }

    /// `v` as this type holds it: reduced modulo 2^width, read signed or
    /// unsigned (a bit-vector model's value, the C conversion).
    pub fn wrap(self, v: i128) -> i128 {
        let m = v.rem_euclid(1i128 << self.width);
        if m > self.max() {
            m - (1i128 << self.width)
        } else {
            m
        }
    }

    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.width - 1))
        } else {
            0
        }
    }

    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.width - 1)) - 1
        } else {
            (1i128 << self.width) - 1
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LAnd,
    LOr,
}

impl BinOp {
    pub fn c(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            And => "&",
            Or => "|",
            Xor => "^",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            LAnd => "&&",
            LOr => "||",
        }
    }

    pub fn from_c(op: &str) -> Option<BinOp> {
        use BinOp::*;
        Some(match op {
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            "<<" => Shl,
            ">>" => Shr,
            "&" => And,
            "|" => Or,
            "^" => Xor,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "==" => Eq,
            "!=" => Ne,
            "&&" => LAnd,
            "||" => LOr,
            _ => return None,
        })
    }

    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Le | Gt | Ge | Eq | Ne)
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LAnd | BinOp::LOr)
    }
}

/// An expression of the fragment: no side effects, no memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Var(String),
    Const(i128, IntType),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A conversion, explicit or by assignment.
    Cast(IntType, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a[i]`: the element at index `i` (of its own type) of the array
    /// `a`, an array variable or a [`Expr::Store`] into one.
    Index(Box<Expr>, Box<Expr>, IntType),
    /// The array `a` with the element at index `i` set to `v`: the value
    /// an array variable has after `a[i] = v` (never in C text).
    Store(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// The loop's variables and their types.
pub type Vars = BTreeMap<String, IntType>;

impl Expr {
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    pub fn negate(e: Expr) -> Expr {
        match e {
            Expr::Unary(UnOp::Not, inner) => *inner,
            Expr::Binary(op, a, b) if op.is_comparison() => {
                use BinOp::*;
                let flipped = match op {
                    Lt => Ge,
                    Le => Gt,
                    Gt => Le,
                    Ge => Lt,
                    Eq => Ne,
                    _ => Eq,
                };
                Expr::Binary(flipped, a, b)
            }
            e => Expr::Unary(UnOp::Not, Box::new(e)),
        }
    }

    pub fn int(v: i128) -> Expr {
        Expr::Const(v, INT)
    }

    /// The expression's C type.
    pub fn ty(&self, vars: &Vars) -> IntType {
        match self {
            Expr::Var(v) => vars.get(v).copied().unwrap_or(INT),
            Expr::Const(_, t) | Expr::Cast(t, _) => *t,
            Expr::Unary(UnOp::Not, _) => INT,
            Expr::Unary(_, e) => e.ty(vars).promoted(),
            Expr::Binary(op, a, b) => {
                if op.is_comparison() || op.is_logical() {
                    INT
                } else if matches!(op, BinOp::Shl | BinOp::Shr) {
                    a.ty(vars).promoted()
                } else {
                    IntType::common(a.ty(vars), b.ty(vars))
                }
            }
            Expr::Cond(_, a, b) => IntType::common(a.ty(vars), b.ty(vars)),
            Expr::Index(_, _, t) => *t,
            Expr::Store(a, ..) => a.ty(vars),
        }
    }

    /// Replaces variables by expressions (those `map` does not name stay).
    pub fn subst(&self, map: &BTreeMap<String, Expr>) -> Expr {
        match self {
            Expr::Var(v) => map.get(v).cloned().unwrap_or_else(|| self.clone()),
            Expr::Const(..) => self.clone(),
            Expr::Unary(op, e) => Expr::Unary(*op, Box::new(e.subst(map))),
            Expr::Binary(op, a, b) => Expr::bin(*op, a.subst(map), b.subst(map)),
            Expr::Cast(t, e) => Expr::Cast(*t, Box::new(e.subst(map))),
            Expr::Cond(c, a, b) => Expr::Cond(
                Box::new(c.subst(map)),
                Box::new(a.subst(map)),
                Box::new(b.subst(map)),
            ),
            Expr::Index(a, i, t) => Expr::Index(Box::new(a.subst(map)), Box::new(i.subst(map)), *t),
            Expr::Store(a, i, v) => Expr::Store(
                Box::new(a.subst(map)),
                Box::new(i.subst(map)),
                Box::new(v.subst(map)),
            ),
        }
    }

    /// The variables the expression reads.
    pub fn vars(&self, out: &mut std::collections::BTreeSet<String>) {
        match self {
            Expr::Var(v) => {
                out.insert(v.clone());
            }
            Expr::Const(..) => {}
            Expr::Unary(_, e) | Expr::Cast(_, e) => e.vars(out),
            Expr::Binary(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Cond(c, a, b) | Expr::Store(c, a, b) => {
                c.vars(out);
                a.vars(out);
                b.vars(out);
            }
            Expr::Index(a, i, _) => {
                a.vars(out);
                i.vars(out);
            }
        }
    }

    /// The conjuncts of a condition (`a && b` splits; the rest is one).
    pub fn conjuncts(&self) -> Vec<Expr> {
        match self {
            Expr::Binary(BinOp::LAnd, a, b) => {
                let mut v = a.conjuncts();
                v.extend(b.conjuncts());
                v
            }
            e => vec![e.clone()],
        }
    }

    /// Whether the expression multiplies two non-constants (`y * y`).
    pub fn nonlinear(&self) -> bool {
        match self {
            Expr::Var(_) | Expr::Const(..) => false,
            Expr::Binary(BinOp::Mul, a, b) if a.constant().is_none() && b.constant().is_none() => true,
            Expr::Unary(_, e) | Expr::Cast(_, e) => e.nonlinear(),
            Expr::Binary(_, a, b) => a.nonlinear() || b.nonlinear(),
            Expr::Cond(c, a, b) | Expr::Store(c, a, b) => c.nonlinear() || a.nonlinear() || b.nonlinear(),
            Expr::Index(a, i, _) => a.nonlinear() || i.nonlinear(),
        }
    }

    /// The constant value, if the expression is a literal.
    pub fn constant(&self) -> Option<i128> {
        match self {
            Expr::Const(v, _) => Some(*v),
            Expr::Unary(UnOp::Neg, e) => e.constant().map(|v| -v),
            _ => None,
        }
    }
}

/// C text, fully parenthesised where precedence could matter.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Var(v) => f.write_str(v),
            Expr::Const(v, t) => {
                let suffix = match (t.width > 32, t.signed) {
                    (false, true) => "",
                    (false, false) => "u",
                    (true, true) => "L",
                    (true, false) => "UL",
                };
                if *v < 0 {
                    write!(f, "({v}{suffix})")
                } else {
                    write!(f, "{v}{suffix}")
                }
            }
            Expr::Unary(op, e) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                };
                write!(f, "{o}{}", Paren(e))
            }
            // `a && b && c`: a chain of one logical operator needs no
            // parentheses inside.
            Expr::Binary(op, a, b) if op.is_logical() => {
                let side = |e: &Expr| match e {
                    Expr::Binary(o, ..) if o == op => e.to_string(),
                    e => Paren(e).to_string(),
                };
                write!(f, "{} {} {}", side(a), op.c(), side(b))
            }
            Expr::Binary(op, a, b) => write!(f, "{} {} {}", Paren(a), op.c(), Paren(b)),
            Expr::Cast(t, e) => write!(f, "({}){}", t.c_name(), Paren(e)),
            Expr::Cond(c, a, b) => write!(f, "{} ? {} : {}", Paren(c), Paren(a), Paren(b)),
            Expr::Index(a, i, _) => write!(f, "{}[{i}]", Paren(a)),
            Expr::Store(a, i, v) => write!(f, "({a} with [{i}] = {v})"),
        }
    }
}

struct Paren<'a>(&'a Expr);

impl fmt::Display for Paren<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Var(_) | Expr::Index(..) => write!(f, "{}", self.0),
            Expr::Const(v, _) if *v >= 0 => write!(f, "{}", self.0),
            e => write!(f, "({e})"),
        }
    }
}
