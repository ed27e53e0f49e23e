//! Fragment expressions as SMT-LIB2 terms, under one of two semantics.

use crate::ir::{BinOp, Expr, INT, IntType, UnOp, Vars};

/// How integers behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Semantics {
    /// Mathematical integers: nothing overflows or wraps; casts are
    /// identities; bitwise operators, shifts, divisions and remainders by
    /// non-constants are outside (products of variables are in: nonlinear
    /// arithmetic, which the solver may leave unknown).
    Ideal,
    /// Bit-vectors at the C types' widths (LP64), with C's promotions and
    /// conversions: every value wraps at its type's width, as the
    /// machine does (signed overflow is assumed to wrap).
    BitVector,
}

impl Semantics {
    pub fn name(self) -> &'static str {
        match self {
            Semantics::Ideal => "ideal integers",
            Semantics::BitVector => "bit-vectors at the types' widths",
        }
    }

    pub fn short(self) -> &'static str {
        match self {
            Semantics::Ideal => "ideal",
            Semantics::BitVector => "bitvector",
        }
    }

    /// The SMT sort of a variable of type `t`.
    pub fn sort(self, t: IntType) -> weft_smt::Sort {
        match self {
            Semantics::Ideal => weft_smt::Sort::Int,
            Semantics::BitVector => weft_smt::Sort::BitVec(t.width),
        }
    }

    /// The SMT logic of queries.
    pub fn logic(self) -> Option<&'static str> {
        match self {
            Semantics::Ideal => None,
            Semantics::BitVector => Some("QF_BV"),
        }
    }
}

/// The SMT constant standing for variable `v`: a simple symbol, also
/// for a memory cell (`*p`, `a[2]` as `v_a@2$`) or a choice (`?12.9`).
pub fn smt_var(v: &str) -> String {
    format!("v_{}", v.replace('[', "@").replace(']', "$"))
}

/// The variable an SMT constant of [`smt_var`] stands for.
pub fn from_smt_var(symbol: &str) -> Option<String> {
    Some(symbol.strip_prefix("v_")?.replace('@', "[").replace('$', "]"))
}

/// The type of an array's indices: C converts an index to `ptrdiff_t`.
const INDEX: IntType = IntType {
    width: 64,
    signed: true,
};

/// Encodes expressions over `vars` under one semantics. Errors say why
/// an expression is outside what the semantics can express.
pub struct Encoder<'a> {
    pub vars: &'a Vars,
    pub semantics: Semantics,
}

type R<T> = Result<T, String>;

impl Encoder<'_> {
    /// The SMT sort of an array with elements of type `t`.
    pub fn array_sort(&self, t: IntType) -> weft_smt::Sort {
        weft_smt::Sort::Array(
            Box::new(self.semantics.sort(INDEX)),
            Box::new(self.semantics.sort(t)),
        )
    }

    /// An array-valued expression: an array variable, or a store into one.
    fn array(&self, e: &Expr) -> R<String> {
        match e {
            Expr::Var(v) => Ok(smt_var(v)),
            Expr::Store(a, i, v) => Ok(format!(
                "(store {} {} {})",
                self.array(a)?,
                self.index(i)?,
                self.term_as(v, a.ty(self.vars))?
            )),
            _ => Err("a number where an array is needed".into()),
        }
    }

    fn index(&self, i: &Expr) -> R<String> {
        self.term_as(i, INDEX)
    }

    /// A condition (C truth: non-zero) as a Boolean term.
    pub fn cond(&self, e: &Expr) -> R<String> {
        match e {
            Expr::Unary(UnOp::Not, inner) => Ok(format!("(not {})", self.cond(inner)?)),
            Expr::Binary(BinOp::LAnd, a, b) => Ok(format!("(and {} {})", self.cond(a)?, self.cond(b)?)),
            Expr::Binary(BinOp::LOr, a, b) => Ok(format!("(or {} {})", self.cond(a)?, self.cond(b)?)),
            Expr::Binary(op, a, b) if op.is_comparison() => self.compare(*op, a, b),
            e => {
                let (t, ty) = self.term(e)?;
                Ok(format!("(not (= {t} {}))", self.literal(0, ty)))
            }
        }
    }

    fn compare(&self, op: BinOp, a: &Expr, b: &Expr) -> R<String> {
        let common = IntType::common(a.ty(self.vars), b.ty(self.vars));
        let x = self.term_as(a, common)?;
        let y = self.term_as(b, common)?;
        let name = match (self.semantics, op, common.signed) {
            (_, BinOp::Eq, _) => "=",
            (_, BinOp::Ne, _) => return Ok(format!("(not (= {x} {y}))")),
            (Semantics::Ideal, BinOp::Lt, _) => "<",
            (Semantics::Ideal, BinOp::Le, _) => "<=",
            (Semantics::Ideal, BinOp::Gt, _) => ">",
            (Semantics::Ideal, BinOp::Ge, _) => ">=",
            (_, BinOp::Lt, true) => "bvslt",
            (_, BinOp::Le, true) => "bvsle",
            (_, BinOp::Gt, true) => "bvsgt",
            (_, BinOp::Ge, true) => "bvsge",
            (_, BinOp::Lt, false) => "bvult",
            (_, BinOp::Le, false) => "bvule",
            (_, BinOp::Gt, false) => "bvugt",
            _ => "bvuge",
        };
        Ok(format!("({name} {x} {y})"))
    }

    /// A literal of type `t`.
    pub fn literal(&self, v: i128, t: IntType) -> String {
        match self.semantics {
            Semantics::Ideal if v < 0 => format!("(- {})", -v),
            Semantics::Ideal => v.to_string(),
            Semantics::BitVector => {
                let m = v.rem_euclid(1i128 << t.width);
                format!("(_ bv{m} {})", t.width)
            }
        }
    }

    /// `e` converted to type `to`.
    pub fn term_as(&self, e: &Expr, to: IntType) -> R<String> {
        let (t, from) = self.term(e)?;
        Ok(self.convert(t, from, to))
    }

    fn convert(&self, t: String, from: IntType, to: IntType) -> String {
        if self.semantics == Semantics::Ideal || from.width == to.width {
            return t;
        }
        if to.width > from.width {
            let ext = if from.signed { "sign_extend" } else { "zero_extend" };
            format!("((_ {ext} {}) {t})", to.width - from.width)
        } else {
            format!("((_ extract {} 0) {t})", to.width - 1)
        }
    }

    fn bool_as_int(&self, b: String) -> (String, IntType) {
        (
            format!("(ite {b} {} {})", self.literal(1, INT), self.literal(0, INT)),
            INT,
        )
    }

    /// An expression as a term of its C type.
    pub fn term(&self, e: &Expr) -> R<(String, IntType)> {
        let ideal = self.semantics == Semantics::Ideal;
        match e {
            Expr::Var(v) => Ok((smt_var(v), e.ty(self.vars))),
            Expr::Const(v, t) => Ok((self.literal(*v, *t), *t)),
            Expr::Unary(UnOp::Not, _) => Ok(self.bool_as_int(self.cond(e)?)),
            Expr::Unary(op, inner) => {
                let ty = e.ty(self.vars);
                let x = self.term_as(inner, ty)?;
                Ok(match (op, ideal) {
                    (UnOp::Neg, true) => (format!("(- {x})"), ty),
                    (UnOp::Neg, false) => (format!("(bvneg {x})"), ty),
                    (_, true) => (format!("(- (- {x}) 1)"), ty),
                    (_, false) => (format!("(bvnot {x})"), ty),
                })
            }
            Expr::Binary(op, _, _) if op.is_comparison() || op.is_logical() => {
                Ok(self.bool_as_int(self.cond(e)?))
            }
            Expr::Binary(op @ (BinOp::Shl | BinOp::Shr), a, b) => {
                let ty = e.ty(self.vars);
                let x = self.term_as(a, ty)?;
                if ideal {
                    let Some(k) = b.constant().filter(|k| (0..63).contains(k)) else {
                        return Err("shift by a non-constant amount".into());
                    };
                    let p = 1i128 << k;
                    return Ok((
                        if *op == BinOp::Shl {
                            format!("(* {x} {p})")
                        } else {
                            format!("(div {x} {p})")
                        },
                        ty,
                    ));
                }
                let y = self.term_as(b, ty)?;
                let name = match (op, ty.signed) {
                    (BinOp::Shl, _) => "bvshl",
                    (_, true) => "bvashr",
                    _ => "bvlshr",
                };
                Ok((format!("({name} {x} {y})"), ty))
            }
            Expr::Binary(op, a, b) => {
                let ty = e.ty(self.vars);
                let x = self.term_as(a, ty)?;
                let y = self.term_as(b, ty)?;
                if ideal {
                    let constant = b.constant();
                    let t = match op {
                        BinOp::Add => format!("(+ {x} {y})"),
                        BinOp::Sub => format!("(- {x} {y})"),
                        // Products of variables are nonlinear integer
                        // arithmetic: the solver may answer unknown, which
                        // is a reason, never an SRC.
                        BinOp::Mul => format!("(* {x} {y})"),
                        BinOp::Div | BinOp::Rem => {
                            let Some(c) = constant.filter(|c| *c > 0) else {
                                return Err(format!(
                                    "{} by a non-constant",
                                    if *op == BinOp::Div {
                                        "divides"
                                    } else {
                                        "takes a remainder"
                                    }
                                ));
                            };
                            // C truncates towards zero.
                            let q = format!("(ite (>= {x} 0) (div {x} {c}) (- (div (- {x}) {c})))");
                            if *op == BinOp::Div {
                                q
                            } else {
                                format!("(- {x} (* {c} {q}))")
                            }
                        }
                        _ => return Err(format!("bitwise {} over ideal integers", op.c())),
                    };
                    return Ok((t, ty));
                }
                let name = match (op, ty.signed) {
                    (BinOp::Add, _) => "bvadd",
                    (BinOp::Sub, _) => "bvsub",
                    (BinOp::Mul, _) => "bvmul",
                    (BinOp::Div, true) => "bvsdiv",
                    (BinOp::Div, false) => "bvudiv",
                    (BinOp::Rem, true) => "bvsrem",
                    (BinOp::Rem, false) => "bvurem",
                    (BinOp::And, _) => "bvand",
                    (BinOp::Or, _) => "bvor",
                    _ => "bvxor",
                };
                Ok((format!("({name} {x} {y})"), ty))
            }
            Expr::Cast(to, inner) => self.term_as(inner, *to).map(|t| (t, *to)),
            Expr::Index(a, i, t) => Ok((format!("(select {} {})", self.array(a)?, self.index(i)?), *t)),
            Expr::Store(..) => Err("an array where a number is needed".into()),
            Expr::Cond(c, a, b) => {
                let ty = e.ty(self.vars);
                Ok((
                    format!(
                        "(ite {} {} {})",
                        self.cond(c)?,
                        self.term_as(a, ty)?,
                        self.term_as(b, ty)?
                    ),
                    ty,
                ))
            }
        }
    }
}
