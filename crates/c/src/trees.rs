//! The syntax trees of one file: its whole tree, or, for a large file whose
//! view parses chunk by chunk without error ([`crate::chunk`]), its chunks,
//! whose trees are parsed when asked for and held within a budget.
//!
//! A tree is handed out as a `Tree` value, a counted reference to the
//! tree held. A file keeps the trees of the chunks asked for last, as many
//! as cover [`held_bytes`] bytes of its view (at least one), so that a file
//! within the budget is parsed once, as a whole file is, and a larger one
//! holds a bounded part of its trees and parses the rest again when a walk
//! comes back to it: a tree takes tens of bytes per byte of C, which is
//! what bounds a large file's memory. A caller's nodes stay valid as long
//! as it keeps the value. Asking again for a chunk held gives the same
//! tree, so nodes found through one value are the nodes of another
//! (`ancestors` compares node ids; a root's id is its tree value's, so
//! walks climb to the root of the node they have: `syntax::root_of`).

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Mutex;

use tree_sitter::Tree;

use super::chunk::{Chunk, chunk_bytes, parse_chunks};
use super::frontend::{new_parser, parse_with};

/// Which chunk the held tree is of; `WHOLE` for the whole file's.
const WHOLE: usize = usize::MAX;

/// How many bytes of a chunked file's view the held trees cover by default:
/// files up to this size are parsed once.
pub const HELD_BYTES: usize = 1 << 20;

/// The bytes of view whose chunk trees a file holds: [`HELD_BYTES`], or
/// `$WEFT_HELD_BYTES` (0 holds one chunk's tree at a time).
pub fn held_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        std::env::var("WEFT_HELD_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(HELD_BYTES)
    })
}

/// Trees held, the one asked for last at the back, each with the bytes of
/// view it covers; the bytes of all but the last stay within `budget`.
#[derive(Default)]
pub(crate) struct Held {
    trees: VecDeque<(usize, Tree, usize)>,
    bytes: usize,
    budget: usize,
}

impl Held {
    fn new(budget: usize) -> Held {
        Held {
            budget,
            ..Held::default()
        }
    }

    fn get(&mut self, k: usize) -> Option<Tree> {
        let at = self.trees.iter().position(|(held, ..)| *held == k)?;
        let entry = self.trees.remove(at)?;
        let tree = entry.1.clone();
        self.trees.push_back(entry);
        Some(tree)
    }

    /// Lets go of the trees asked for longest ago until `bytes` more fit.
    fn make_room(&mut self, bytes: usize) {
        while self.bytes + bytes > self.budget
            && let Some((_, _, freed)) = self.trees.pop_front()
        {
            self.bytes -= freed;
        }
    }

    fn put(&mut self, k: usize, tree: Tree, bytes: usize) {
        self.trees.push_back((k, tree, bytes));
        self.bytes += bytes;
    }
}

/// The trees of one file's view.
pub(crate) enum Trees {
    /// One tree of the whole view, kept.
    Whole(Tree),
    /// Chunks parsed on demand, one tree held.
    Chunked {
        chunks: Vec<Chunk>,
        /// The byte range the whole tree's root would have.
        root: Range<usize>,
        held: Mutex<Held>,
    },
}

impl Clone for Trees {
    fn clone(&self) -> Trees {
        match self {
            Trees::Whole(tree) => Trees::Whole(tree.clone()),
            Trees::Chunked { chunks, root, .. } => Trees::chunked(chunks.clone(), root.clone()),
        }
    }
}

impl Trees {
    /// Trees of `chunks` of a view, whose whole tree's root spans `root`.
    pub(crate) fn chunked(chunks: Vec<Chunk>, root: Range<usize>) -> Trees {
        Trees::Chunked {
            chunks,
            root,
            held: Mutex::new(Held::new(held_bytes())),
        }
    }

    /// The chunked trees of `view` when it is longer than [`chunk_bytes`]
    /// and every chunk parses without error ([`parse_chunks`]); `None` when
    /// it is to be parsed whole.
    pub(crate) fn of_chunks(view: &str) -> Option<Trees> {
        Trees::of_chunks_within(view, chunk_bytes(), held_bytes())
    }

    /// [`Trees::of_chunks`] with chunks of `target` bytes whose trees are
    /// held within `budget` bytes.
    fn of_chunks_within(view: &str, target: usize, budget: usize) -> Option<Trees> {
        if view.len() <= target {
            return None;
        }
        let mut root: Option<Range<usize>> = None;
        // The first chunks' trees, as many as the budget holds, are kept
        // from this parse: a file within the budget is parsed once. Only a
        // run from the first: a shorter chunk after one that did not fit
        // (the last often is) is not kept, and each is kept under its own
        // index, never under the count of trees kept so far.
        let mut first = Held::new(budget);
        let mut taken = 0;
        let mut keeping = true;
        let chunks = parse_chunks(view, target, |chunk, tree| {
            let r = tree.root_node().byte_range();
            root = Some(root.as_ref().map_or(r.clone(), |first| first.start..r.end));
            let bytes = chunk.range.len();
            keeping &= first.bytes + bytes <= first.budget;
            if keeping {
                first.put(taken, tree.clone(), bytes);
            }
            taken += 1;
        })?;
        Some(Trees::Chunked {
            chunks,
            root: root.unwrap_or(0..0),
            held: Mutex::new(first),
        })
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
        (0..self.count()).filter_map(move |k| self.nth(view, k))
    }

    /// How many trees cover the view: 1, or the chunks'.
    pub(crate) fn count(&self) -> usize {
        match self {
            Trees::Whole(_) => 1,
            Trees::Chunked { chunks, .. } => chunks.len(),
        }
    }

    /// Tree `k` of [`Trees::all`], if there is one.
    pub(crate) fn nth(&self, view: &str, k: usize) -> Option<Tree> {
        match self {
            Trees::Whole(tree) => (k == 0).then(|| tree.clone()),
            Trees::Chunked { chunks, .. } => (k < chunks.len()).then(|| self.held(view, k)),
        }
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

    /// Lets go of the chunk trees held (a whole tree is kept): for a file
    /// about to be replaced by its edited text, whose trees no walk needs.
    pub(crate) fn let_go(&self) {
        if let Trees::Chunked { held, .. } = self {
            let mut held = held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let budget = held.budget;
            *held = Held::new(budget);
        }
    }

    /// The tree of chunk `k` (or the whole tree for `WHOLE`), held in place
    /// of the trees asked for longest ago when the budget is full.
    fn held(&self, view: &str, k: usize) -> Tree {
        let Trees::Chunked { chunks, held, .. } = self else {
            unreachable!("only a chunked file holds trees")
        };
        let mut held = held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(tree) = held.get(k) {
            return tree;
        }
        let bytes = chunks.get(k).map_or(view.len(), |chunk| chunk.range.len());
        // Old trees go before the new one is made.
        held.make_room(bytes);
        let mut parser = new_parser();
        let tree = match chunks.get(k) {
            Some(chunk) => chunk.parse(&mut parser, view),
            None => parse_with(&mut parser, view, None),
        };
        held.put(k, tree.clone(), bytes);
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunks whose trees are held, asked for longest ago first.
    fn held_indices(trees: &Trees) -> Vec<usize> {
        let Trees::Chunked { held, .. } = trees else {
            return Vec::new();
        };
        held.lock().unwrap().trees.iter().map(|(k, ..)| *k).collect()
    }

    fn held_index(trees: &Trees) -> Option<usize> {
        held_indices(trees).last().copied()
    }

    /// `view`'s chunks of one item each, holding trees within `budget`.
    fn chunked(view: &str, budget: usize) -> Trees {
        let chunks = parse_chunks(view, 1, |_, _| {}).unwrap();
        let trees = Trees::chunked(chunks, 0..view.len());
        if let Trees::Chunked { held, .. } = &trees {
            *held.lock().unwrap() = Held::new(budget);
        }
        trees
    }

    #[test]
    fn one_chunk_is_held_and_asking_again_gives_the_same_tree() {
        let view = "int a;\nint f(void) { return 1; }\nint b;\n";
        let trees = chunked(view, 0);
        assert_eq!(trees.chunks().unwrap().len(), 3);
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
        assert_eq!(held_indices(&trees), [2]);
        trees.let_go();
        assert_eq!(held_indices(&trees), [0usize; 0]);
        assert_ne!(
            item(&trees.at(view, 0)),
            item(&first),
            "parsed again after letting go"
        );
    }

    #[test]
    fn trees_within_the_budget_are_held_and_the_oldest_let_go() {
        let view = "int a;\nint f(void) { return 1; }\nint b;\n";
        let everything = chunked(view, view.len());
        let first = everything.at(view, 0);
        let _ = everything.all(view).count();
        assert_eq!(held_indices(&everything), [0, 1, 2]);
        let item = |tree: &Tree| tree.root_node().child(0).unwrap().id();
        assert_eq!(
            item(&everything.at(view, 0)),
            item(&first),
            "held, not parsed again"
        );
        // A budget of the last two chunks' bytes: the third lets go of the
        // one asked for longest ago.
        let lengths: Vec<usize> = everything
            .chunks()
            .unwrap()
            .iter()
            .map(|c| c.range.len())
            .collect();
        let two = chunked(view, lengths[1] + lengths[2]);
        let _ = two.all(view).count();
        assert_eq!(held_indices(&two), [1, 2]);
        let _ = two.at(view, 0);
        assert_eq!(held_indices(&two), [2, 0]);
    }

    #[test]
    fn a_file_within_the_budget_keeps_the_trees_of_its_first_parse() {
        let view: String = (0..4000)
            .map(|i| format!("int f{i}(void) {{ return {i}; }}\n"))
            .collect();
        let trees = Trees::of_chunks(&view).expect("a file over the chunk size, without errors");
        if view.len() <= held_bytes() {
            assert_eq!(held_indices(&trees).len(), trees.chunks().unwrap().len());
        }
    }

    #[test]
    fn the_first_trees_kept_are_each_their_own_chunks() {
        // Short, long, short: the budget holds the first and the last
        // chunk but not the first two; the last is not kept in the second's
        // place (it was, and a walk then read the last chunk twice and the
        // second never).
        let short = "int a;\n";
        let long = "int f(void) { int x = 1; int y = 2; return x + y; }\n";
        let view = format!("{short}{long}{short}");
        let budget = 2 * short.len() + 1;
        let trees = Trees::of_chunks_within(&view, 1, budget).unwrap();
        let chunks = trees.chunks().unwrap().to_vec();
        assert_eq!(chunks.len(), 3);
        assert!(chunks[0].range.len() + chunks[1].range.len() > budget);
        assert!(chunks[0].range.len() + chunks[2].range.len() <= budget);
        assert_eq!(held_indices(&trees), [0]);
        for (k, chunk) in chunks.iter().enumerate() {
            let root = trees.held(&view, k).root_node().byte_range();
            assert!(
                chunk.range.start <= root.start && root.end <= chunk.range.end,
                "chunk {k} {:?} got the tree of {root:?}",
                chunk.range
            );
        }
    }
}
