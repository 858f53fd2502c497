//! Gain: docs/benchmarks.md, section `print-context-speed` ("HEAD against the index
//! through the cache-tree", a63d33d): 41 M of a one-file `--print-context`'s 82 M
//! instructions on 15,688 files went to gix's `tree_index_status`; a commit-msg check
//! whose bullet names an unstaged path 15.59 → 5.28 ms CPU (3.35× → 1.13× `git diff
//! --cached --name-only`), section `check-speed`. Recorded figures, not re-measured
//! when the file moved here.
//! Guard: `cachetree_tests.rs` beside it, against gix's `tree_index_status` after each
//! of 200 random edits (index versions 2 and 4, split or whole), and what it must
//! leave to gix; the index's entries themselves are gix's (`rawindex_tests.rs` holds
//! gix to git on every index kind).
//! Waits for: gix's tree-against-index diff (`gix::diff::index`, `tree_index_status`)
//! consulting the index's cache-tree as git's `diff --cached` does, skipping a
//! directory whose cache-tree entry names the tree's own subtree.
//!
//! A tree against the index through the index's cache-tree, the way git's own
//! `diff --cached` and `status` skip what did not change: a directory whose cache-tree
//! entry is valid and names the tree's own subtree holds the same files on both sides,
//! so neither its index entries are compared nor its trees read. gix's
//! `tree_index_status` builds an index of the whole tree first, every subtree read: at
//! 15,688 files that was 41 M of a one-file `--print-context`'s 82 M instructions
//! (docs/benchmarks.md, section `print-context-speed`).
//!
//! It answers only for the indexes it reads exactly as gix's diff does (no conflict, no
//! intent-to-add entry, no sparse directory; trees in git's order with names any
//! platform accepts; a cache-tree whose counts match the entries). Anything else reads
//! as `None`, and the caller asks gix, which also reports what is wrong.

use std::borrow::Cow;

use gix::bstr::ByteSlice;
use gix::diff::index::ChangeRef;
use gix::index::entry::Mode;
use gix::index::extension::Tree as CacheTree;
use gix::objs::tree::{EntryKind, EntryMode, name_order};

use crate::repo::probe::MAX_DEPTH;
use crate::repo::staged::change_from_index;
use crate::repo::types::Entry;
use crate::repo::{ObjectId, Repo};

impl Repo {
    /// The changes from `tree` to `index`, as gix's `tree_index_status` lists them without
    /// rename tracking (as [`super::staged`] turns them into entries, in the same order);
    /// `None` when this cannot say (see the module docs).
    pub(crate) fn tree_index_changes(
        &self,
        tree: ObjectId,
        index: &gix::index::State,
    ) -> Option<Vec<Entry>> {
        Some(self.tree_index_walk(tree, index)?.0)
    }

    /// [`Repo::tree_index_changes`], with how many directories it passed over whole.
    fn tree_index_walk(
        &self,
        tree: ObjectId,
        index: &gix::index::State,
    ) -> Option<(Vec<Entry>, usize)> {
        if index.is_sparse()
            || index.entries().iter().any(|e| {
                e.stage() != gix::index::entry::Stage::Unconflicted
                    || e.flags.contains(gix::index::entry::Flags::INTENT_TO_ADD)
            })
        {
            return None;
        }
        let mut walk = Walk {
            repo: self,
            index,
            at: 0,
            path: Vec::new(),
            out: Vec::new(),
            skipped: 0,
        };
        walk.dir(Some(tree), index.tree(), 0, 0)?;
        Some((walk.out, walk.skipped))
    }
}

/// One walk of a tree beside the index's entries.
struct Walk<'a> {
    repo: &'a Repo,
    index: &'a gix::index::State,
    /// The next index entry not yet compared.
    at: usize,
    /// The path being walked: a directory's ends with `/`.
    path: Vec<u8>,
    out: Vec<Entry>,
    /// Directories passed over whole.
    skipped: usize,
}

impl Walk<'_> {
    fn entry_path(&self, i: usize) -> &[u8] {
        self.index.entries()[i].path(self.index)
    }

    /// The directory `self.path[..prefix]` (empty for the root), `depth` directories
    /// down: `tree` on the tree's side (`None`: none there), `cache` its cache-tree
    /// entry.
    fn dir(
        &mut self,
        tree: Option<ObjectId>,
        cache: Option<&CacheTree>,
        prefix: usize,
        depth: usize,
    ) -> Option<()> {
        // Deeper than this walks (see [`MAX_DEPTH`]): gix's walk, which keeps no stack
        // frame a level, decides.
        if depth > MAX_DEPTH {
            return None;
        }
        if let (Some(t), Some(c)) = (tree, cache)
            && let Some(n) = c.num_entries.filter(|n| *n > 0)
            && c.id == t
        {
            let end = self.at.checked_add(usize::try_from(n).ok()?)?;
            let under = |w: &Self, i: usize| w.entry_path(i).starts_with(&w.path[..prefix]);
            // The count is the index's word for it: hold it to the entries.
            if end > self.index.entries().len()
                || !under(self, self.at)
                || !under(self, end - 1)
                || (end < self.index.entries().len() && under(self, end))
            {
                return None;
            }
            self.at = end;
            self.skipped += 1;
            return Some(());
        }
        if let Some(t) = tree {
            let t = self.repo.tree(t).ok()?;
            let mut last: Option<(&[u8], bool)> = None;
            for (name, mode, id) in t.entries()? {
                if let Some((before, was_dir)) = last
                    && name_order(before, was_dir, name, mode.is_tree()) != std::cmp::Ordering::Less
                {
                    return None;
                }
                last = Some((name, mode.is_tree()));
                let link = (mode.kind() == EntryKind::Link)
                    .then_some(gix::validate::path::component::Mode::Symlink);
                gix::validate::path::component(name.as_bstr(), link, STRICT).ok()?;
                self.path.truncate(prefix);
                self.path.extend_from_slice(name);
                if mode.is_tree() {
                    self.path.push(b'/');
                    self.added_before();
                    let child = cache.and_then(|c| c.children.iter().find(|c| *c.name == *name));
                    self.dir(Some(id), child, self.path.len(), depth + 1)?;
                } else {
                    self.added_before();
                    self.file(mode, id);
                }
            }
        }
        self.path.truncate(prefix);
        self.rest(prefix);
        Some(())
    }

    /// The tree's file at `self.path` against the index entry there, if any.
    fn file(&mut self, mode: EntryMode, id: ObjectId) {
        let mode = index_mode(mode);
        let path = self.path.as_bstr();
        if self.at < self.index.entries().len() && self.entry_path(self.at) == path.as_bytes() {
            let e = &self.index.entries()[self.at];
            if e.id != id || e.mode != mode {
                let change = ChangeRef::Modification {
                    location: Cow::Borrowed(path),
                    previous_index: 0,
                    previous_entry_mode: mode,
                    previous_id: Cow::Borrowed(id.as_ref()),
                    index: self.at,
                    entry_mode: e.mode,
                    id: Cow::Borrowed(e.id.as_ref()),
                };
                self.out.push(change_from_index(&change));
            }
            self.at += 1;
        } else {
            let change = ChangeRef::Deletion {
                location: Cow::Borrowed(path),
                index: 0,
                entry_mode: mode,
                id: Cow::Borrowed(id.as_ref()),
            };
            self.out.push(change_from_index(&change));
        }
    }

    /// The index entries before `self.path`: none on the tree's side.
    fn added_before(&mut self) {
        while self.at < self.index.entries().len() && self.entry_path(self.at) < &self.path[..] {
            self.added();
        }
    }

    /// The index entries left under `self.path[..prefix]`: none on the tree's side.
    fn rest(&mut self, prefix: usize) {
        while self.at < self.index.entries().len()
            && self.entry_path(self.at).starts_with(&self.path[..prefix])
        {
            self.added();
        }
    }

    fn added(&mut self) {
        let e = &self.index.entries()[self.at];
        let change = ChangeRef::Addition {
            location: Cow::Borrowed(e.path(self.index)),
            index: self.at,
            entry_mode: e.mode,
            id: Cow::Borrowed(e.id.as_ref()),
        };
        self.out.push(change_from_index(&change));
        self.at += 1;
    }
}

/// Every platform's rules for a path component (gix checks the repository's own, which
/// these include): a name they turn down is left to gix.
const STRICT: gix::validate::path::component::Options = gix::validate::path::component::Options {
    protect_windows: true,
    protect_hfs: true,
    protect_ntfs: true,
};

/// A tree entry's mode as an index built from the tree holds it (gix's
/// `State::from_tree`; a directory is never an entry there).
pub(in crate::repo) fn index_mode(mode: EntryMode) -> Mode {
    match mode.kind() {
        EntryKind::Tree => Mode::DIR,
        EntryKind::Blob => Mode::FILE,
        EntryKind::BlobExecutable => Mode::FILE_EXECUTABLE,
        EntryKind::Link => Mode::SYMLINK,
        EntryKind::Commit => Mode::COMMIT,
    }
}

#[cfg(test)]
#[path = "cachetree_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;
