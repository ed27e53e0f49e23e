//! String and code literals: JavaScript escape decoding and the splitting of
//! `[[expr]]` interpolations.

/// Decodes the JavaScript escapes of a '…' or "…" literal body. Unknown
/// escapes keep the escaped character, as JavaScript does.
pub fn decode_escapes(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('\n') => {} // line continuation
            Some('x') => push_hex(&mut out, &mut chars, 2, 'x'),
            Some('u') => push_hex(&mut out, &mut chars, 4, 'u'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Pushes the character of a `\xHH` / `\uHHHH` escape, or the escape's text
/// when the digits are not valid.
fn push_hex(out: &mut String, chars: &mut std::str::Chars<'_>, digits: usize, letter: char) {
    let hex: String = chars.clone().take(digits).collect();
    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
        Some(c) if hex.len() == digits => {
            out.push(c);
            for _ in 0..digits {
                chars.next();
            }
        }
        _ => out.push(letter),
    }
}

/// A part of a literal body before decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawPiece {
    /// Byte range of literal text in the body.
    Text(std::ops::Range<usize>),
    /// Byte range of the expression between `[[` and `]]`.
    Interpolation(std::ops::Range<usize>),
}

/// Splits a literal body at `[[ … ]]`. Splitting happens before escape
/// decoding, so ranges are source ranges. A `[[` that no `]]` closes is an
/// error: the byte offset of that `[[` (copied to C, it would be neither
/// the interpolation meant nor C). A `]]` alone is text (`a[b[i]]`).
pub fn split_interpolations(body: &str) -> Result<Vec<RawPiece>, usize> {
    let mut pieces = Vec::new();
    let mut text_start = 0;
    let mut cursor = 0;
    while let Some(mut open) = body[cursor..].find("[[").map(|i| i + cursor) {
        // In a run of three or more `[`, the interpolation opens with the
        // last two: `a[[[i]]]` is C's `a[` around `[[i]]`.
        while body[open + 2..].starts_with('[') {
            open += 1;
        }
        let close = interpolation_end(body, open + 2).ok_or(open)?;
        if open > text_start {
            pieces.push(RawPiece::Text(text_start..open));
        }
        pieces.push(RawPiece::Interpolation(open + 2..close));
        text_start = close + 2;
        cursor = text_start;
    }
    if text_start < body.len() {
        pieces.push(RawPiece::Text(text_start..body.len()));
    }
    Ok(pieces)
}

/// Where the `]]` closing an interpolation whose expression starts at
/// `from` is: the first one outside the expression's own brackets and
/// strings, so `[[m[k]]]` holds `m[k]`.
fn interpolation_end(body: &str, from: usize) -> Option<usize> {
    let bytes = body.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'[' => depth += 1,
                b']' if depth == 0 && bytes.get(i + 1) == Some(&b']') => return Some(i),
                b']' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// `text` as a rhai string literal.
pub fn rhai_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interpolated expressions of `body`.
    fn interpolations(body: &str) -> Vec<&str> {
        split_interpolations(body)
            .unwrap()
            .into_iter()
            .filter_map(|p| match p {
                RawPiece::Interpolation(r) => Some(&body[r]),
                RawPiece::Text(_) => None,
            })
            .collect()
    }

    #[test]
    fn interpolations_take_the_longest_sensible_reading() {
        assert_eq!(interpolations("a[[[n]]] = 0;"), ["n"]);
        assert_eq!(interpolations("a[[[i]]][[[j]]]++;"), ["i", "j"]);
        assert_eq!(interpolations("x += [[m[$call.name]]];"), ["m[$call.name]"]);
        assert_eq!(interpolations("c[[[m[k]]]]++;"), ["m[k]"]);
        assert_eq!(interpolations("s = [[\"]]\" + v]];"), ["\"]]\" + v"]);
        assert_eq!(interpolations("[[a]][[b]]"), ["a", "b"]);
        let body = "a[[[n]]] = 0;";
        let texts: Vec<&str> = split_interpolations(body)
            .unwrap()
            .into_iter()
            .filter_map(|p| match p {
                RawPiece::Text(r) => Some(&body[r]),
                RawPiece::Interpolation(_) => None,
            })
            .collect();
        assert_eq!(texts, ["a[", "] = 0;"]);
    }

    #[test]
    fn decodes_js_escapes() {
        assert_eq!(
            decode_escapes(r"a\nb\\n\'\x41\u0042\q"),
            "a\nb\\n'AB".to_string() + "q"
        );
    }

    #[test]
    fn splits_interpolations() {
        let body = "Range __r_a[ [[size]] ];";
        assert_eq!(
            split_interpolations(body),
            Ok(vec![
                RawPiece::Text(0..13),
                RawPiece::Interpolation(15..19),
                RawPiece::Text(21..24)
            ])
        );
        assert_eq!(
            split_interpolations("a[b[i]] = 0;"),
            Ok(vec![RawPiece::Text(0..12)])
        );
    }

    #[test]
    fn an_unclosed_interpolation_is_an_error_at_its_brackets() {
        assert_eq!(split_interpolations("a[[b"), Err(1));
        assert_eq!(split_interpolations("[[x]] + [[m[k ]]"), Err(8));
        assert_eq!(split_interpolations("[[ \"]]"), Err(0));
    }

    #[test]
    fn escapes_for_rhai() {
        assert_eq!(rhai_string("a\"b\\\n"), r#""a\"b\\\n""#);
    }
}
