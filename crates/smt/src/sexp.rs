//! S-expressions, enough to read a solver's answers.

use std::fmt;

/// An atom or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

impl Sexp {
    /// Parses one s-expression (text after it is ignored).
    pub fn parse(text: &str) -> Result<Sexp, String> {
        let tokens = tokenize(text);
        let mut at = 0;
        let s = parse_at(&tokens, &mut at)?;
        Ok(s)
    }

    /// The items of a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items) => Some(items),
            Sexp::Atom(_) => None,
        }
    }

    /// An integer: `12`, `(- 12)`, `#b0101`, `#x0f` (bit-vectors unsigned).
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Sexp::Atom(a) => {
                if let Some(b) = a.strip_prefix("#b") {
                    i128::from_str_radix(b, 2).ok()
                } else if let Some(x) = a.strip_prefix("#x") {
                    i128::from_str_radix(x, 16).ok()
                } else {
                    a.parse().ok()
                }
            }
            Sexp::List(items) => match items.as_slice() {
                [Sexp::Atom(minus), n] if minus == "-" => n.as_int().map(|v| -v),
                _ => None,
            },
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '(' || c == ')' {
            tokens.push(c.to_string());
            chars.next();
        } else if c == '"' || c == '|' {
            let mut t = String::new();
            t.push(c);
            chars.next();
            for d in chars.by_ref() {
                t.push(d);
                if d == c {
                    break;
                }
            }
            tokens.push(t);
        } else {
            let mut t = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_whitespace() || d == '(' || d == ')' {
                    break;
                }
                t.push(d);
                chars.next();
            }
            tokens.push(t);
        }
    }
    tokens
}

fn parse_at(tokens: &[String], at: &mut usize) -> Result<Sexp, String> {
    let Some(t) = tokens.get(*at) else {
        return Err("unexpected end of s-expression".into());
    };
    *at += 1;
    match t.as_str() {
        "(" => {
            let mut items = Vec::new();
            loop {
                match tokens.get(*at).map(String::as_str) {
                    None => return Err("unclosed parenthesis".into()),
                    Some(")") => {
                        *at += 1;
                        return Ok(Sexp::List(items));
                    }
                    Some(_) => items.push(parse_at(tokens, at)?),
                }
            }
        }
        ")" => Err("unexpected )".into()),
        atom => Ok(Sexp::Atom(atom.to_string())),
    }
}
