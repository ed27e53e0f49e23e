//! The texts of a file's pending edits, kept together: a heap string per
//! edit cost its allocation's overhead and a 24-byte handle on top of the
//! text, most of the memory of a large file's pending inserts.

/// Where one text sits in [`Texts`]: 12 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TextRef {
    block: u32,
    start: u32,
    len: u32,
}

impl TextRef {
    /// The text's length in bytes.
    pub fn len(self) -> usize {
        self.len as usize
    }
}

/// Texts appended in blocks that never move once written: a block grows
/// to [`MAX_BLOCK`] bytes by doubling from [`MIN_BLOCK`] (a file with a
/// few edits keeps a small one), and a text longer than that gets a block
/// of its own.
#[derive(Debug, Clone, Default)]
pub(super) struct Texts {
    blocks: Vec<String>,
}

const MIN_BLOCK: usize = 256;
const MAX_BLOCK: usize = 64 * 1024;

impl Texts {
    /// Appends `text`; `None` when its length or place does not fit 32 bits.
    pub fn add(&mut self, text: &str) -> Option<TextRef> {
        let fits = self
            .blocks
            .last()
            .is_some_and(|b| b.capacity() - b.len() >= text.len());
        if !fits {
            let grown = self.blocks.last().map_or(MIN_BLOCK, |b| b.capacity() * 2);
            let capacity = grown.min(MAX_BLOCK).max(text.len());
            self.blocks.push(String::with_capacity(capacity));
        }
        let block = self.blocks.len() - 1;
        let at = &mut self.blocks[block];
        let start = at.len();
        at.push_str(text);
        Some(TextRef {
            block: u32::try_from(block).ok()?,
            start: u32::try_from(start).ok()?,
            len: u32::try_from(text.len()).ok()?,
        })
    }

    /// The text `at` refers to.
    pub fn get(&self, at: TextRef) -> &str {
        let start = at.start as usize;
        &self.blocks[at.block as usize][start..start + at.len as usize]
    }

    /// Forgets `at` and every text added after it.
    pub fn truncate(&mut self, at: TextRef) {
        let block = at.block as usize;
        self.blocks.truncate(block + 1);
        if let Some(b) = self.blocks.get_mut(block) {
            b.truncate(at.start as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts of every size come back as added, across blocks and past the
    /// largest block; a truncation forgets what followed and appends after
    /// what it kept.
    #[test]
    fn texts_come_back_as_added_across_blocks() {
        let mut texts = Texts::default();
        let sizes = [0, 1, 200, 300, 5000, 70_000, 3, MAX_BLOCK, 10];
        let added: Vec<(String, TextRef)> = (0..40)
            .map(|i| {
                let text: String = (0..sizes[i % sizes.len()])
                    .map(|k| char::from(b'a' + ((i + k) % 26) as u8))
                    .collect();
                let at = texts.add(&text).unwrap();
                (text, at)
            })
            .collect();
        assert!(texts.blocks.len() > 3, "the texts span several blocks");
        for (text, at) in &added {
            assert_eq!(texts.get(*at), text);
        }
        texts.truncate(added[20].1);
        let again = texts.add("again").unwrap();
        assert_eq!(texts.get(again), "again");
        for (text, at) in &added[..20] {
            assert_eq!(texts.get(*at), text);
        }
    }
}
