//! Path probes for bullet tracing: "does this commit (or the staged set) change `path`, or
//! a file under it?", answered by looking the path up on both sides instead of diffing
//! the whole trees. A commit's bullets name a handful of paths; its trees may hold
//! thousands of entries, and a full diff reads every entry of every changed directory.
//!
//! A probe answers only "changed for certain". Anything else (unchanged, a mode-only
//! change, a malformed tree, a conflicted or sparse index, an intent-to-add entry) is
//! "not proven", and the caller computes the full diff, so the findings are exactly
//! those of the full diff. Trees are read by [`super::fast::tree`] and kept by id, so a range walk that
//! looks a parent's trees up right after reading them as a child's reads each tree once.

use std::cmp::Ordering;
use std::rc::Rc;

use gix::bstr::ByteSlice;
use gix::objs::tree::name_order;

use super::fast::rawindex::{self, AtPath};
pub(super) use super::fast::tree::{Found, Tree};
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
    /// through the pack reader (see [`super::fast::packs`]), the rest through gix.
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
    use std::rc::Rc;

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
}
