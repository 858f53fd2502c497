//! Path probes for bullet tracing: "does this commit (or the staged set) change `path`, or
//! a file under it?", answered by looking the path up on both sides instead of diffing
//! the whole trees. A commit's bullets name a handful of paths; its trees may hold
//! thousands of entries, and a full diff reads every entry of every changed directory.
//!
//! A probe answers only "changed for certain". Anything else (unchanged, a mode-only
//! change, a malformed tree, a conflicted or sparse index, an intent-to-add entry) is
//! "not proven", and the caller computes the full diff, so the findings are exactly
//! those of the full diff. Trees are decoded by gix and kept by id, so a range walk that
//! looks a parent's trees up right after reading them as a child's reads each tree once.

use std::cmp::Ordering;
use std::rc::Rc;

use gix::bstr::ByteSlice;
use gix::objs::tree::name_order;

use super::fast::rawindex::{self, AtPath};
use super::{ObjectId, Repo, RepoError};

/// Bytes of trees the cache's newer generation holds before it becomes the older one
/// (and the older one is dropped).
const TREE_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Nesting beyond which a walk of trees on its own stack, a frame a level, gives up: a
/// probe (the full diff then decides) and the cache-tree walk (gix's walk then
/// decides). git's default `core.maxTreeDepth` is 4096 and a test thread's whole stack
/// 2 MiB; real trees go a few dozen levels deep.
pub(super) const MAX_DEPTH: usize = 256;

/// Trees by id, reused across the commits of a walk, in two generations: a tree read
/// or found in the older one goes into the newer one, and a full newer generation
/// replaces the older. Starting over at once instead lost the trees a walk was about
/// to read again (each directory's tree is read as a commit's side, then a few commits
/// later as its parent's), and more of them the larger the trees.
#[derive(Default)]
pub(crate) struct TreeCache {
    trees: gix::hashtable::HashMap<ObjectId, Rc<Tree>>,
    older: gix::hashtable::HashMap<ObjectId, Rc<Tree>>,
    bytes: usize,
}

impl TreeCache {
    fn get(&mut self, id: &ObjectId) -> Option<Rc<Tree>> {
        if let Some(t) = self.trees.get(id) {
            return Some(Rc::clone(t));
        }
        let t = self.older.remove(id)?;
        self.put(*id, Rc::clone(&t));
        Some(t)
    }

    fn put(&mut self, id: ObjectId, tree: Rc<Tree>) {
        if self.bytes + tree.cost() > TREE_CACHE_BYTES {
            self.older = std::mem::take(&mut self.trees);
            self.bytes = 0;
        }
        self.bytes += tree.cost();
        self.trees.insert(id, tree);
    }
}

/// A tree as the cache keeps it: its data and where its entries are, found once (a walk
/// looks most trees up more than once: as a commit's side, then as its child's parent
/// side). Ids and names stay in the data: a directory of thousands of files costs one
/// pass over its bytes and 12 bytes an entry, not a decoded copy of every entry.
pub(super) struct Tree {
    pub(super) data: Rc<Vec<u8>>,
    /// In the tree's order; `None` when the tree is malformed.
    entries: Option<Vec<Slot>>,
    hash_len: usize,
}

/// Where one entry of a [`Tree`] is: its name is `data[start..end]`, its id the
/// `hash_len` bytes after the NUL at `end`.
struct Slot {
    start: u32,
    end: u32,
    mode: gix::objs::tree::EntryMode,
}

impl Tree {
    fn new(data: Rc<Vec<u8>>, hash: gix::hash::Kind) -> Tree {
        let hash_len = hash.len_in_bytes();
        let entries = Self::slots(&data, hash_len);
        Tree {
            data,
            entries,
            hash_len,
        }
    }

    /// Each entry's place in `data`, read as gix reads a tree (`mode SP name NUL id`,
    /// the mode as `EntryMode::from_bytes` accepts it); `None` when an entry is
    /// malformed or the data is too large for 32-bit offsets.
    fn slots(data: &[u8], hash_len: usize) -> Option<Vec<Slot>> {
        u32::try_from(data.len()).ok()?;
        // A tree entry takes at least ~30 bytes (mode, space, name, NUL, id).
        let mut slots = Vec::with_capacity(data.len() / 32 + 1);
        let mut at = 0;
        // The last mode read, with its digits and space: most entries repeat it.
        let mut last: Option<(Prefix, gix::objs::tree::EntryMode)> = None;
        while at < data.len() {
            let rest = &data[at..];
            let (start, mode) = match last {
                Some((digits, mode)) if digits.starts(rest) => (at + digits.len, mode),
                _ => {
                    // gix reads at most seven digits and a space, and whether it takes
                    // the mode can depend on the byte after a short one.
                    let mode = gix::objs::tree::EntryMode::from_bytes(&rest[..rest.len().min(8)])?;
                    let space = rest.iter().take(8).position(|b| *b == b' ')?;
                    // Only a mode of five digits or more decides alone.
                    if space >= 5 {
                        last = Some((Prefix::new(&rest[..=space]), mode));
                    }
                    (at + space + 1, mode)
                }
            };
            let end = start + nul(&data[start..])?;
            let next = end + 1 + hash_len;
            if next > data.len() {
                return None;
            }
            // Offsets fit: the data's length does.
            slots.push(Slot {
                start: start as u32,
                end: end as u32,
                mode,
            });
            at = next;
        }
        Some(slots)
    }

    /// The name of `slot`.
    fn name(&self, slot: &Slot) -> &[u8] {
        &self.data[slot.start as usize..slot.end as usize]
    }

    /// The id of `slot`.
    fn id(&self, slot: &Slot) -> ObjectId {
        let at = slot.end as usize + 1;
        ObjectId::from_bytes_or_panic(&self.data[at..at + self.hash_len])
    }

    /// Its entries in the tree's order, as (name, mode, id); `None` when the tree is
    /// malformed.
    pub(super) fn entries(
        &self,
    ) -> Option<impl Iterator<Item = (&[u8], gix::objs::tree::EntryMode, ObjectId)> + '_> {
        let slots = self.entries.as_ref()?;
        Some(slots.iter().map(|s| (self.name(s), s.mode, self.id(s))))
    }

    /// Bytes the cache accounts for it.
    fn cost(&self) -> usize {
        self.data.len() + self.entries.as_ref().map_or(0, Vec::len) * size_of::<Slot>()
    }

    /// The entry named `name`: a file (or other non-directory) first, then a directory;
    /// `None` when the tree is malformed.
    pub(super) fn lookup(&self, name: &[u8]) -> Option<Found> {
        let slots = self.entries.as_ref()?;
        let find = |is_dir: bool| {
            slots
                .binary_search_by(|s| name_order(self.name(s), s.mode.is_tree(), name, is_dir))
                .ok()
        };
        Some(
            find(false)
                .or_else(|| find(true))
                .map(|i| (slots[i].mode, self.id(&slots[i]))),
        )
    }
}

/// A tree entry's mode and space (six to eight bytes) as one word, compared with the
/// next entry's first eight bytes at once: called for each entry, a slice comparison
/// was a third of parsing a tree.
#[derive(Clone, Copy)]
struct Prefix {
    word: u64,
    mask: u64,
    len: usize,
}

impl Prefix {
    /// `bytes`: at most 8.
    fn new(bytes: &[u8]) -> Prefix {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        Prefix {
            word: u64::from_le_bytes(word),
            mask: u64::MAX
                .checked_shr(8 * (8 - bytes.len() as u32))
                .unwrap_or(0),
            len: bytes.len(),
        }
    }

    /// Whether `data` starts with these bytes.
    fn starts(&self, data: &[u8]) -> bool {
        match data.first_chunk::<8>() {
            Some(head) => u64::from_le_bytes(*head) & self.mask == self.word,
            None => data.len() >= self.len && Prefix::new(&data[..self.len]).word == self.word,
        }
    }
}

/// Where the first NUL of `data` is, eight bytes a step (a tree entry's name is short,
/// and a call to `memchr` per entry cost more than the search).
fn nul(data: &[u8]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(chunk) = data.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        // The lowest set high bit marks the first zero byte (borrows only run upwards).
        let zero = w.wrapping_sub(LOW) & !w & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    data[at..].find_byte(0).map(|i| at + i)
}

/// What a lookup found at a path: an entry's mode and id.
pub(super) type Found = Option<(gix::objs::tree::EntryMode, ObjectId)>;

/// The lookup found a directory.
fn found_tree(f: &Found) -> bool {
    f.is_some_and(|(mode, _)| mode.is_tree())
}

/// The `/`-separated components of a bullet path; `None` when the path or a component
/// is empty (no tree entry has such a path).
pub(super) fn components(path: &[u8]) -> Option<impl Iterator<Item = &[u8]>> {
    let parts = path.split(|b| *b == b'/');
    (!path.is_empty() && !parts.clone().any(<[u8]>::is_empty)).then_some(parts)
}

impl Repo {
    /// Whether every path in `paths` is, for certain, a path `commit` changes against its
    /// first parent (the empty tree for a root commit) or a directory holding one. `false`
    /// means "not proven": compute [`Repo::commit_changes_for_tracing`] to know.
    pub fn commit_changes_all(
        &self,
        commit: ObjectId,
        paths: &[String],
    ) -> Result<bool, RepoError> {
        let (old, new) = self.trees_of(commit)?;
        let old = old.unwrap_or_else(|| ObjectId::empty_tree(new.kind()));
        for p in paths {
            let (Some(a), Some(b)) = (
                self.lookup_path(old, p.as_bytes())?,
                self.lookup_path(new, p.as_bytes())?,
            ) else {
                return Ok(false);
            };
            if !self.sides_differ(a, b, 0)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether every path in `paths` is, for certain, a staged path (HEAD's tree, or the
    /// empty tree when unborn, against the index git names) or a directory holding one.
    /// `false` means "not proven": compute [`Repo::staged_changes_for_tracing`] to know.
    pub fn staged_changes_all(&self, paths: &[String]) -> Result<bool, RepoError> {
        let head = self
            .repo
            .head_tree_id_or_empty()
            .map_err(|e| RepoError::Head(Box::new(e)))?
            .detach();
        // The entries at the bullet paths, read in place from the index file's bytes;
        // an index that reader leaves alone is decoded by gix below.
        let index_path = self.repo.index_path();
        let file = std::fs::File::open(&index_path);
        if let Ok((file, len)) = file.and_then(|f| f.metadata().map(|m| (f, m.len()))) {
            let wanted: Vec<&[u8]> = paths.iter().map(|p| p.as_bytes()).collect();
            let hash_len = self.repo.object_hash().len_in_bytes();
            let stop = if self.may_be_split(&index_path) {
                rawindex::Stop::AtEnd
            } else {
                rawindex::Stop::AfterPaths
            };
            if let Some(found) = rawindex::at_paths(file, len, hash_len, &wanted, stop) {
                for (p, staged) in wanted.iter().zip(found) {
                    let Some(staged) = staged else {
                        return Ok(false);
                    };
                    let Some(tree_side) = self.lookup_path(head, p)? else {
                        return Ok(false);
                    };
                    if !self.staged_differs(staged, tree_side, p)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
        }
        // An index that cannot be read is left to the full diff, which reports it.
        let Ok(index) = self.read_index() else {
            return Ok(false);
        };
        if index.is_sparse() {
            return Ok(false);
        }
        for p in paths {
            let p = p.as_bytes();
            let Some(staged) = at_path(&index, p) else {
                return Ok(false);
            };
            let Some(tree_side) = self.lookup_path(head, p)? else {
                return Ok(false);
            };
            if !self.staged_differs(staged, tree_side, p)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the index at `index_path` may be a split index (`git update-index
    /// --split-index`, `core.splitIndex`): git keeps its shared part in a
    /// `sharedindex.<id>` file beside it or in the git dir, and reads it from there, so
    /// without such a file the index is whole. A directory that cannot be listed counts
    /// as holding one.
    pub(super) fn may_be_split(&self, index_path: &std::path::Path) -> bool {
        let shared = |dir: &std::path::Path| match std::fs::read_dir(dir) {
            Ok(entries) => entries.filter_map(Result::ok).any(|e| {
                e.file_name()
                    .as_encoded_bytes()
                    .starts_with(b"sharedindex.")
            }),
            Err(_) => true,
        };
        let beside = index_path.parent().unwrap_or(std::path::Path::new("."));
        shared(beside) || (self.repo.git_dir() != beside && shared(self.repo.git_dir()))
    }

    /// The tree `id`, decoded, from the cache when it was read before. Packed trees come
    /// through the pack reader (see [`super::packs`]), the rest through gix.
    pub(super) fn tree(&self, id: ObjectId) -> Result<Rc<Tree>, RepoError> {
        if let Some(t) = self.trees.borrow_mut().get(&id) {
            return Ok(t);
        }
        let data = if id.is_empty_tree() {
            Rc::default()
        } else {
            match self.read_packed_tree(&id) {
                Some((gix::object::Kind::Tree, data)) => data,
                // Loose, not a tree, or unreadable from the packs: gix reads it or says why.
                _ => {
                    let mut tree = self
                        .repo
                        .find_tree(id)
                        .map_err(|e| self.object_err(id, e))?;
                    Rc::new(std::mem::take(&mut tree.data))
                }
            }
        };
        let tree = Rc::new(Tree::new(data, self.repo.object_hash()));
        self.trees.borrow_mut().put(id, Rc::clone(&tree));
        Ok(tree)
    }

    /// The entry at `path` under the tree `root`: `Ok(Some(None))` when there is none,
    /// `Ok(None)` when the answer cannot be trusted (a malformed tree, a bad path).
    pub(super) fn lookup_path(
        &self,
        root: ObjectId,
        path: &[u8],
    ) -> Result<Option<Found>, RepoError> {
        let Some(parts) = components(path) else {
            return Ok(None);
        };
        let mut dir = root;
        let mut parts = parts.peekable();
        while let Some(part) = parts.next() {
            let Some(hit) = self.tree(dir)?.lookup(part) else {
                return Ok(None);
            };
            let Some((mode, id)) = hit else {
                return Ok(Some(None));
            };
            if parts.peek().is_none() {
                return Ok(Some(hit));
            }
            if !mode.is_tree() {
                return Ok(Some(None));
            }
            dir = id;
        }
        Ok(Some(None))
    }

    /// Whether a full diff of the two sides of one path would list that path or a file
    /// under it with a content change (a mode alone is not proven here).
    fn sides_differ(&self, a: Found, b: Found, depth: usize) -> Result<bool, RepoError> {
        match (a, b) {
            (None, None) => Ok(false),
            // Equal ids: nothing under it changed, or only a mode.
            (Some(x), Some(y)) if x.1 == y.1 => Ok(false),
            _ if (a.is_some() && !found_tree(&a)) || (b.is_some() && !found_tree(&b)) => Ok(true),
            _ => {
                if depth >= MAX_DEPTH {
                    return Ok(false);
                }
                let hash = self.repo.object_hash();
                let empty = || ObjectId::empty_tree(hash);
                let ta = self.tree(a.map_or_else(empty, |(_, id)| id))?;
                let tb = self.tree(b.map_or_else(empty, |(_, id)| id))?;
                let (Some(ia), Some(ib)) = (ta.entries(), tb.entries()) else {
                    return Ok(false);
                };
                let (mut ia, mut ib) = (ia.peekable(), ib.peekable());
                loop {
                    let (ea, eb) = match (ia.peek(), ib.peek()) {
                        (None, None) => return Ok(false),
                        (Some(x), None) => (Some(*x), None),
                        (None, Some(y)) => (None, Some(*y)),
                        (Some(x), Some(y)) => {
                            match name_order(x.0, x.1.is_tree(), y.0, y.1.is_tree()) {
                                Ordering::Less => (Some(*x), None),
                                Ordering::Greater => (None, Some(*y)),
                                Ordering::Equal => (Some(*x), Some(*y)),
                            }
                        }
                    };
                    if ea.is_some() {
                        ia.next();
                    }
                    if eb.is_some() {
                        ib.next();
                    }
                    let fa = ea.map(|(_, mode, id)| (mode, id));
                    let fb = eb.map(|(_, mode, id)| (mode, id));
                    if self.sides_differ(fa, fb, depth + 1)? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Whether the staged set changes `path` or a file under it, given what the index
    /// (`staged`) and HEAD's tree (`tree_side`) hold there.
    fn staged_differs(
        &self,
        staged: AtPath,
        tree_side: Found,
        path: &[u8],
    ) -> Result<bool, RepoError> {
        if let Some(id) = staged.exact {
            // A different id is a change for certain; a mode alone is not proven here.
            return Ok(tree_side.is_none_or(|(_, t)| t != id));
        }
        match tree_side {
            // Nothing at `path` in HEAD: staged entries under it are additions.
            None => Ok(!staged.under.is_empty()),
            // A file in HEAD, none in the index: it is staged for deletion.
            Some(_) if !found_tree(&tree_side) => Ok(true),
            Some((_, id)) => {
                let mut prefix = path.to_vec();
                prefix.push(b'/');
                let mut head = Vec::new();
                let mut add = |path: &[u8], _, id| head.push((path.to_vec(), id));
                if !self.walk_files(id, None, &mut prefix, &mut add, 0)? {
                    return Ok(false);
                }
                // Paths and ids only: a mode-only difference is left to the full diff.
                Ok(staged.under != head)
            }
        }
    }

    /// Calls `file(path, mode, id)` for every non-directory entry under the tree `id`,
    /// `path` being `prefix` followed by the entry's path below `id`, depth first in the
    /// tree's order (which is the index's order). A directory whose node in the index's
    /// cache tree (`cache`, the node for `id` itself) vouches for its tree id is skipped:
    /// the index holds exactly its files, as `git diff --cached` trusts. `false` when a
    /// tree cannot be trusted or nests deeper than [`MAX_DEPTH`].
    pub(super) fn walk_files(
        &self,
        id: ObjectId,
        cache: Option<&gix::index::extension::Tree>,
        prefix: &mut Vec<u8>,
        file: &mut impl FnMut(&[u8], gix::objs::tree::EntryMode, ObjectId),
        depth: usize,
    ) -> Result<bool, RepoError> {
        if cache.is_some_and(|c| c.num_entries.is_some() && c.id == id) {
            return Ok(true);
        }
        if depth >= MAX_DEPTH {
            return Ok(false);
        }
        let tree = self.tree(id)?;
        let Some(entries) = tree.entries() else {
            return Ok(false);
        };
        for (name, mode, oid) in entries {
            let len = prefix.len();
            prefix.extend_from_slice(name);
            if mode.is_tree() {
                let below =
                    cache.and_then(|c| c.children.iter().find(|t| t.name.as_slice() == name));
                prefix.push(b'/');
                if !self.walk_files(oid, below, prefix, file, depth + 1)? {
                    return Ok(false);
                }
            } else {
                file(prefix, mode, oid);
            }
            prefix.truncate(len);
        }
        Ok(true)
    }
}

/// The index's entries at and under `path`; `None` when one of them is something the
/// probe leaves to the full diff (a conflict stage, an intent-to-add entry).
fn at_path(index: &gix::index::File, path: &[u8]) -> Option<AtPath> {
    let mut at = AtPath::default();
    let exact = index.entry_range(path.as_bstr());
    if let Some(range) = exact {
        let entries = &index.entries()[range];
        match entries {
            [e] if plain_entry(e) => at.exact = Some(e.id),
            _ => return None,
        }
        return Some(at);
    }
    let mut prefix = path.to_vec();
    prefix.push(b'/');
    for e in index.prefixed_entries(prefix.as_bstr()).unwrap_or_default() {
        if !plain_entry(e) {
            return None;
        }
        at.under.push((e.path(index).to_vec(), e.id));
    }
    Some(at)
}

/// An index entry a probe can answer for: not a conflict stage, not intent-to-add (the
/// full diff skips both).
pub(super) fn plain_entry(e: &gix::index::Entry) -> bool {
    use gix::index::entry::{Flags, Stage};
    e.stage() == Stage::Unconflicted && !e.flags.contains(Flags::INTENT_TO_ADD)
}

#[cfg(test)]
mod tests {
    use super::Tree;
    use proptest::prelude::*;
    use std::rc::Rc;

    /// What gix reads from `data`: every entry as (name, mode, id), or `None` when it
    /// finds the tree malformed.
    type Read = Option<Vec<(Vec<u8>, u16, gix::ObjectId)>>;

    fn by_gix(data: &[u8]) -> Read {
        gix::objs::TreeRefIter::from_bytes(data, gix::hash::Kind::Sha1)
            .map(|e| {
                e.ok()
                    .map(|e| (e.filename.to_vec(), e.mode.value(), e.oid.to_owned()))
            })
            .collect()
    }

    fn by_probe(data: &[u8]) -> Read {
        let tree = Tree::new(Rc::new(data.to_vec()), gix::hash::Kind::Sha1);
        Some(
            tree.entries()?
                .map(|(name, mode, id)| (name.to_vec(), mode.value(), id))
                .collect(),
        )
    }

    /// One tree entry, well formed or not: a mode among the usual ones and some odd ones
    /// (too long, not octal, empty), a name, maybe its NUL, an id maybe cut short.
    fn entry() -> impl Strategy<Value = Vec<u8>> {
        let modes = prop::sample::select(vec![
            &b"100644 "[..],
            b"100755 ",
            b"40000 ",
            b"040000 ",
            b"120000 ",
            b"160000 ",
            b"644 ",
            b" ",
            b"1000644 ",
            b"10064 4",
            b"100844 ",
            b"100644",
        ]);
        let name = prop::collection::vec(prop::sample::select(b"ab /\0 7".to_vec()), 0..5);
        let id = prop::collection::vec(any::<u8>(), 18..22);
        (modes, name, any::<bool>(), id).prop_map(|(mode, name, nul, id)| {
            let mut e = mode.to_vec();
            e.extend(name);
            if nul {
                e.push(0);
            }
            e.extend(id);
            e
        })
    }

    #[test]
    fn the_tree_cache_keeps_the_trees_read_last() {
        use super::{ObjectId, TREE_CACHE_BYTES, TreeCache};
        // Trees of 1 MiB each (one entry with a long name), 3 of them more than fit.
        let size = 1 << 20;
        let fit = TREE_CACHE_BYTES / size;
        let mut cache = TreeCache::default();
        let id = |i: usize| ObjectId::from_bytes_or_panic(&[i as u8; 20]);
        for i in 1..=fit + 3 {
            let mut data = b"100644 ".to_vec();
            data.resize(size - 21, b'a');
            data.push(0);
            data.extend([i as u8; 20]);
            cache.put(
                id(i),
                Rc::new(Tree::new(Rc::new(data), gix::hash::Kind::Sha1)),
            );
            // Every tree read in the last half of the budget is still there.
            for back in 0..fit / 2 {
                if let Some(j) = i.checked_sub(back).filter(|j| *j > 0) {
                    assert!(cache.get(&id(j)).is_some(), "tree {j} lost after {i}");
                }
            }
            let held = cache.trees.len() + cache.older.len();
            assert!(held <= 2 * fit, "{held} trees held");
        }
    }

    proptest! {
        // The probes read a tree's entries themselves: they must read exactly what gix
        // reads, and call malformed exactly the trees gix cannot read.
        #[test]
        fn trees_are_read_as_gix_reads_them(
            entries in prop::collection::vec(entry(), 0..6),
            noise in prop::collection::vec(any::<u8>(), 0..3),
        ) {
            let mut data = entries.concat();
            data.extend(noise);
            prop_assert_eq!(by_probe(&data), by_gix(&data));
        }

        // The word-at-a-time search finds the first NUL wherever it is (high bytes and
        // 0x01 bytes around it, which a careless zero-byte test mistakes for one).
        #[test]
        fn the_first_nul_is_found(
            data in prop::collection::vec(prop::sample::select(vec![0u8, 1, 0x7f, 0x80, 0xff, b'a']), 0..40),
        ) {
            prop_assert_eq!(super::nul(&data), data.iter().position(|b| *b == 0));
        }
    }
}
