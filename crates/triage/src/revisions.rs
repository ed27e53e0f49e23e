//! Revision lists: which revisions of the meta program to run.

use anyhow::{Context, bail};

/// Revision 0 is the original program; 1..N are the patches.
pub const ORIGINAL: u32 = 0;

/// Parses a revision list: numbers and inclusive ranges separated by
/// commas (`0-8`, `0,2,5`, `1-3,7`). The result keeps the order given; a
/// revision given twice, a reversed range or an empty list is an error.
/// With `add_original`, revision 0 is put first when the list lacks it:
/// the original is usually the buggy program, and the patches that behave
/// like it on every input are worth seeing.
pub fn parse(list: &str, add_original: bool) -> anyhow::Result<Vec<u32>> {
    let mut revisions = Vec::new();
    for item in list.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("bad revision list `{list}`: an empty item (write e.g. `0-8` or `0,2,5`)");
        }
        let (low, high) = match item.split_once('-') {
            Some((low, high)) => (number(low, item, list)?, number(high, item, list)?),
            None => {
                let n = number(item, item, list)?;
                (n, n)
            }
        };
        if low > high {
            bail!("bad revision list `{list}`: the range `{item}` goes backwards");
        }
        for revision in low..=high {
            if revisions.contains(&revision) {
                bail!("bad revision list `{list}`: revision {revision} is listed twice");
            }
            revisions.push(revision);
        }
    }
    if add_original && !revisions.contains(&ORIGINAL) {
        revisions.insert(0, ORIGINAL);
    }
    Ok(revisions)
}

/// One bound of `item`, an item of `list`.
fn number(text: &str, item: &str, list: &str) -> anyhow::Result<u32> {
    let text = text.trim();
    if text.is_empty() {
        bail!("bad revision list `{list}`: `{item}` lacks a number");
    }
    text.parse()
        .with_context(|| format!("bad revision list `{list}`: `{text}` is not a revision number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges_keep_their_order() {
        assert_eq!(parse("0-3", false).unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse("5, 0,2", false).unwrap(), vec![5, 0, 2]);
        assert_eq!(parse("1-2,7", false).unwrap(), vec![1, 2, 7]);
    }

    #[test]
    fn the_original_is_added_first_when_asked() {
        assert_eq!(parse("3,1", true).unwrap(), vec![0, 3, 1]);
        assert_eq!(parse("2,0", true).unwrap(), vec![2, 0]);
        assert_eq!(parse("3", false).unwrap(), vec![3]);
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        let err = |list: &str| parse(list, true).unwrap_err().to_string();
        assert!(err("").contains("empty item"), "{}", err(""));
        assert!(err("1,,2").contains("empty item"));
        assert!(err("5-2").contains("goes backwards"));
        assert!(err("1,x").contains("`x` is not a revision number"));
        assert!(err("-1").contains("`-1` lacks a number"), "{}", err("-1"));
        assert!(err("1-3,2").contains("revision 2 is listed twice"));
    }
}
