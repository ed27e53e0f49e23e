//! The syntax trees of one file: its whole tree, or, for a large file whose
//! view parses chunk by chunk without error ([`crate::chunk`]), its chunks,
//! whose trees are parsed when asked for and held one at a time.
//!
//! A tree is handed out as a `Tree` value, a counted reference to the
//! tree held: a file keeps at most one chunk's tree (the last asked for),
//! and a caller's nodes stay valid as long as it keeps the value. Asking
//! again for the chunk held gives the same tree, so nodes found through
//! one value are the nodes of another (`ancestors` compares node ids; a
//! root's id is its tree value's, so walks climb to the root of the node
//! they have: `syntax::root_of`).

use std::ops::Range;
use std::sync::Mutex;

use tree_sitter::Tree;

use super::chunk::{Chunk, chunk_bytes, parse_chunks};
use super::frontend::{new_parser, parse_with};

/// Which chunk the held tree is of; `WHOLE` for the whole file's.
const WHOLE: usize = usize::MAX;

/// The trees of one file's view.
pub(crate) enum Trees {
    /// One tree of the whole view, kept.
    Whole(Tree),
    /// Chunks parsed on demand, one tree held.
    Chunked {
        chunks: Vec<Chunk>,
        /// The byte range the whole tree's root would have.
        root: Range<usize>,
        held: Mutex<Option<(usize, Tree)>>,
    },
}

impl Clone for Trees {
    fn clone(&self) -> Trees {
        match self {
            Trees::Whole(tree) => Trees::Whole(tree.clone()),
            Trees::Chunked { chunks, root, .. } => Trees::Chunked {
                chunks: chunks.clone(),
                root: root.clone(),
                held: Mutex::new(None),
            },
        }
    }
}

impl Trees {
    /// Trees of `chunks` of a view, whose whole tree's root spans `root`.
    pub(crate) fn chunked(chunks: Vec<Chunk>, root: Range<usize>) -> Trees {
        Trees::Chunked {
            chunks,
            root,
            held: Mutex::new(None),
        }
    }

    /// The chunked trees of `view` when it is longer than [`chunk_bytes`]
    /// and every chunk parses without error ([`parse_chunks`]); `None` when
    /// it is to be parsed whole.
    pub(crate) fn of_chunks(view: &str) -> Option<Trees> {
        let target = chunk_bytes();
        if view.len() <= target {
            return None;
        }
        let mut root: Option<Range<usize>> = None;
        let chunks = parse_chunks(view, target, |_, tree| {
            let r = tree.root_node().byte_range();
            root = Some(root.as_ref().map_or(r.clone(), |first| first.start..r.end));
        })?;
        Some(Trees::chunked(chunks, root.unwrap_or(0..0)))
    }

    /// The tree holding view offset `offset`: the whole tree, or the tree of
    /// the chunk holding it (the last chunk for the end of the view).
    pub(crate) fn at(&self, view: &str, offset: usize) -> Tree {
        match self {
            Trees::Whole(tree) => tree.clone(),
            Trees::Chunked { chunks, .. } => {
                let k = chunks.partition_point(|c| c.range.end <= offset);
                self.held(view, k.min(chunks.len() - 1))
            }
        }
    }

    /// The trees covering the view, in order: the whole tree, or each
    /// chunk's, parsed as the iteration reaches it.
    pub(crate) fn all<'a>(&'a self, view: &'a str) -> impl Iterator<Item = Tree> + 'a {
        let count = match self {
            Trees::Whole(_) => 1,
            Trees::Chunked { chunks, .. } => chunks.len(),
        };
        (0..count).map(move |k| match self {
            Trees::Whole(tree) => tree.clone(),
            Trees::Chunked { .. } => self.held(view, k),
        })
    }

    /// The whole view's tree, parsed (and held in place of a chunk's) when
    /// the file is chunked.
    pub(crate) fn whole(&self, view: &str) -> Tree {
        match self {
            Trees::Whole(tree) => tree.clone(),
            Trees::Chunked { .. } => self.held(view, WHOLE),
        }
    }

    /// The byte range of the whole tree's root.
    pub(crate) fn root_range(&self) -> Range<usize> {
        match self {
            Trees::Whole(tree) => tree.root_node().byte_range(),
            Trees::Chunked { root, .. } => root.clone(),
        }
    }

    /// The chunks, when the file is chunked.
    pub(crate) fn chunks(&self) -> Option<&[Chunk]> {
        match self {
            Trees::Whole(_) => None,
            Trees::Chunked { chunks, .. } => Some(chunks),
        }
    }

    /// The tree of chunk `k` (or the whole tree for `WHOLE`), held in place
    /// of the one held before.
    fn held(&self, view: &str, k: usize) -> Tree {
        let Trees::Chunked { chunks, held, .. } = self else {
            unreachable!("only a chunked file holds trees")
        };
        let mut held = held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((at, tree)) = held.as_ref()
            && *at == k
        {
            return tree.clone();
        }
        // The old tree goes before the new one is made.
        *held = None;
        let mut parser = new_parser();
        let tree = match chunks.get(k) {
            Some(chunk) => chunk.parse(&mut parser, view),
            None => parse_with(&mut parser, view, None),
        };
        *held = Some((k, tree.clone()));
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held_index(trees: &Trees) -> Option<usize> {
        let Trees::Chunked { held, .. } = trees else {
            return None;
        };
        held.lock().unwrap().as_ref().map(|(k, _)| *k)
    }

    #[test]
    fn one_chunk_is_held_and_asking_again_gives_the_same_tree() {
        let view = "int a;\nint f(void) { return 1; }\nint b;\n";
        let chunks = parse_chunks(view, 1, |_, _| {}).unwrap();
        assert_eq!(chunks.len(), 3);
        let trees = Trees::chunked(chunks, 0..view.len());
        // A root's id is its tree value's; the nodes below are shared.
        let item = |tree: &Tree| tree.root_node().child(0).unwrap().id();
        let first = trees.at(view, 0);
        assert_eq!(item(&first), item(&trees.at(view, 3)));
        assert_eq!(held_index(&trees), Some(0));
        let f = view.find("int f").unwrap();
        let second = trees.at(view, f);
        assert_eq!(held_index(&trees), Some(1));
        assert_eq!(second.root_node().child(0).unwrap().kind(), "function_definition");
        assert_eq!(second.root_node().child(0).unwrap().start_byte(), f);
        // Chunk 0 was let go: asked again, it is parsed again.
        assert_ne!(item(&trees.at(view, 0)), item(&first));
        let walked: Vec<u32> = trees.all(view).map(|t| t.root_node().child_count()).collect();
        assert_eq!(walked, [1, 1, 1]);
        assert_eq!(held_index(&trees), Some(2));
    }
}
