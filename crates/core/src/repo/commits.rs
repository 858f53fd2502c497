//! The commit side, for CI ranges and servers: a commit's changes against its first
//! parent, its raw message, `git rev-list A..B`, the commits a push brings (one walk for all
//! tips, hiding everything reachable from existing refs), tag peeling and file lookup.

use std::ops::ControlFlow;

use gix::bstr::BStr;

use super::commit::{self, Upto};
use super::fast::encoding;
use super::types::Entry;
use super::{Change, ChangeKind, ObjectId, Repo, RepoError};

/// A commit's raw message, its number of parents and its `encoding` header.
type StoredMessage = (Vec<u8>, usize, Option<Vec<u8>>);

/// How many commits' tree and first parent are remembered before starting over.
const LINKS_KEPT: usize = 100_000;

/// Reusable state for tree diffs, so a walk over thousands of commits allocates once.
#[derive(Default)]
pub(crate) struct DiffCache {
    resources: Option<gix::diff::blob::Platform>,
    tree_state: gix::diff::tree::State,
}

impl Repo {
    pub(super) fn object_err(
        &self,
        id: ObjectId,
        e: impl std::error::Error + Send + Sync + 'static,
    ) -> RepoError {
        RepoError::Object {
            id,
            shallow: self.is_shallow(),
            source: Box::new(e),
        }
    }

    /// An error unless `id` is of this repository's hash kind (gix asserts it on lookup).
    fn same_kind(&self, id: ObjectId) -> Result<(), RepoError> {
        let hash = self.repo.object_hash();
        match id.kind() == hash {
            true => Ok(()),
            false => Err(RepoError::HashKind {
                id,
                repo: hash.to_string(),
            }),
        }
    }

    fn find_commit(&self, id: ObjectId) -> Result<gix::Commit<'_>, RepoError> {
        self.same_kind(id)?;
        let obj = self
            .repo
            .find_object(id)
            .map_err(|e| self.object_err(id, e))?;
        let kind = obj.kind;
        obj.try_into_commit().map_err(|_| RepoError::NotACommit {
            id,
            kind: kind.to_string(),
        })
    }

    /// The tree and first parent of `commit`, remembered so a walk reads each commit once.
    pub(crate) fn commit_links(
        &self,
        commit: ObjectId,
    ) -> Result<(ObjectId, Option<ObjectId>), RepoError> {
        if let Some(links) = self.links.borrow().get(&commit) {
            return Ok(*links);
        }
        let c = self.find_commit(commit)?;
        self.remember_links(commit, &c)
    }

    fn remember_links(
        &self,
        id: ObjectId,
        c: &gix::Commit<'_>,
    ) -> Result<(ObjectId, Option<ObjectId>), RepoError> {
        let tree = c.tree_id().map_err(|e| self.object_err(id, e))?.detach();
        let links = (tree, c.parent_ids().next().map(|p| p.detach()));
        let mut map = self.links.borrow_mut();
        if map.len() >= LINKS_KEPT {
            map.clear();
        }
        map.insert(id, links);
        Ok(links)
    }

    /// The tree of `commit` and of its first parent (`None` for a root commit).
    pub(super) fn trees_of(
        &self,
        commit: ObjectId,
    ) -> Result<(Option<ObjectId>, ObjectId), RepoError> {
        let (tree, parent) = self.commit_links(commit)?;
        let parent_tree = match parent {
            None => None,
            Some(p) => Some(self.commit_links(p)?.0),
        };
        Ok((parent_tree, tree))
    }

    /// What `commit` changed against its first parent (the empty tree for a root commit),
    /// sorted bytewise by path, with renames as `git diff` finds them. No blob is diffed
    /// except the candidates of an inexact rename.
    pub fn commit_changes(&self, commit: ObjectId) -> Result<Vec<Change>, RepoError> {
        Ok(self
            .commit_entries(commit)?
            .into_iter()
            .map(|e| e.change)
            .collect())
    }

    /// What `commit` changed, for path tracing: renames come as a deletion and an addition
    /// (the same set of paths as [`Repo::commit_changes`]) and no blob is read, so checking
    /// thousands of commits costs one tree diff each.
    pub fn commit_changes_for_tracing(&self, commit: ObjectId) -> Result<Vec<Change>, RepoError> {
        let (old, new) = self.trees_of(commit)?;
        let mut out = self.diff_trees(old, new, None)?;
        super::staged::sort_entries(&mut out);
        Ok(out.into_iter().map(|e| e.change).collect())
    }

    /// [`Repo::commit_changes`] with the object ids on both sides.
    pub(crate) fn commit_entries(&self, commit: ObjectId) -> Result<Vec<Entry>, RepoError> {
        let (old, new) = self.trees_of(commit)?;
        // Renames are paired as git pairs them (see `renames`); copies are left to gix.
        let mut out = match self.rewrites() {
            Some(r) if r.copies.is_none() => {
                let entries = self.diff_trees(old, new, None)?;
                self.pair_renames(entries, r.limit)?
            }
            rewrites => self.diff_trees(old, new, rewrites)?,
        };
        super::staged::sort_entries(&mut out);
        Ok(out)
    }

    /// The changes between two trees (`None` = the empty tree), unsorted; `rewrites: None`
    /// turns rename detection off.
    pub(crate) fn diff_trees(
        &self,
        old: Option<ObjectId>,
        new: ObjectId,
        rewrites: Option<gix::diff::Rewrites>,
    ) -> Result<Vec<Entry>, RepoError> {
        let what = || {
            format!(
                "{} against {}",
                new,
                old.map_or_else(|| "the empty tree".to_owned(), |o| o.to_string())
            )
        };
        let empty = self.repo.empty_tree();
        let old_tree = match old {
            Some(id) => self
                .repo
                .find_tree(id)
                .map_err(|e| self.object_err(id, e))?,
            None => empty.clone(),
        };
        let new_tree = self
            .repo
            .find_tree(new)
            .map_err(|e| self.object_err(new, e))?;
        let mut cache = self.diff_cache.borrow_mut();
        let cache = &mut *cache;
        if cache.resources.is_none() {
            cache.resources = Some(self.repo.diff_resource_cache_for_tree_diff().map_err(|e| {
                RepoError::Diff {
                    what: what(),
                    source: Box::new(e),
                }
            })?);
        }
        let Some(resources) = cache.resources.as_mut() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        let opts = gix::diff::tree_with_rewrites::Options {
            location: Some(gix::diff::tree::recorder::Location::Path),
            rewrites,
        };
        let res = gix::diff::tree_with_rewrites(
            gix::objs::TreeRefIter::from_bytes(&old_tree.data, old_tree.id.kind()),
            gix::objs::TreeRefIter::from_bytes(&new_tree.data, new_tree.id.kind()),
            resources,
            &mut cache.tree_state,
            &self.repo.objects,
            |change| {
                change_from_tree(&change, &mut out);
                Ok::<_, gix::Error>(ControlFlow::Continue(()))
            },
            opts,
        );
        resources.clear_resource_cache_keep_allocation();
        res.map_err(|e| RepoError::Diff {
            what: what(),
            source: Box::new(e),
        })?;
        Ok(out)
    }

    /// The raw message bytes of `commit` (everything after the header's blank line).
    pub fn commit_message(&self, commit: ObjectId) -> Result<Vec<u8>, RepoError> {
        self.commit_message_and_parents(commit).map(|(msg, _)| msg)
    }

    /// The message of `commit` as git presents it (see [`Repo::commit_message_as_shown`];
    /// as stored when its encoding cannot be decoded) and how many parents it has (what
    /// backs a merge's exemption).
    pub fn commit_message_and_parents(
        &self,
        commit: ObjectId,
    ) -> Result<(Vec<u8>, usize), RepoError> {
        let (msg, parents, _) = self.commit_message_as_shown(commit)?;
        Ok((msg, parents))
    }

    /// The message of `commit` as git presents it (`git log`: decoded from the encoding
    /// its `encoding` header names, see [`crate::gitenv::as_git_shows`]), how many
    /// parents it has, and the name of that encoding when this tool cannot decode it (the
    /// message is then as stored). From one read of the commit: the one the walk that
    /// listed it kept, if any (each kept commit is handed out once).
    pub fn commit_message_as_shown(
        &self,
        commit: ObjectId,
    ) -> Result<super::ShownMessage, RepoError> {
        let (raw, parents, encoding) = self.stored_message(commit)?;
        Ok(match encoding {
            None => (raw, parents, None),
            Some(label) => match crate::gitenv::as_git_shows(&raw, Some(&label)) {
                Ok(text) => (text.into_owned(), parents, None),
                Err(name) => (raw, parents, Some(name)),
            },
        })
    }

    /// The raw message of `commit`, its number of parents and its `encoding` header.
    fn stored_message(&self, commit: ObjectId) -> Result<StoredMessage, RepoError> {
        let kept = self.walked.borrow_mut().remove(&commit);
        // One pass over the headers for the tree, the parents and the message: gix's
        // `message_raw` and `parent_ids().count()` each parse the whole commit, author
        // and committer included (a tenth of an untraced range's instructions went to
        // parsing each commit three times). A commit that does not parse cleanly takes
        // the calls below, which report it as before.
        if let Some(mut data) = kept {
            let encoding = encoding::of_commit(&data);
            // The message is the kept commit's tail: moved down, not copied.
            let (mut first, mut parents) = (None, 0);
            let mut parent = |p| {
                first.get_or_insert(p);
                parents += 1;
            };
            let read = commit::read(&data, commit.kind(), &mut parent, Upto::Message)
                .map(|h| (h.tree, data.len() - h.message.map_or(0, <[u8]>::len)));
            if let Some((tree, at)) = read {
                data.drain(..at);
                let (msg, parents) = self.remember_read(commit, (tree, first, parents, data));
                return Ok((msg, parents, encoding));
            }
        }
        let c = self.find_commit(commit)?;
        let encoding = encoding::of_commit(&c.data);
        if let Some(read) = tree_parents_message(&c.data, c.id.kind()) {
            let (msg, parents) = self.remember_read(commit, read);
            return Ok((msg, parents, encoding));
        }
        self.remember_links(commit, &c)?;
        let msg = c.message_raw().map_err(|e| self.object_err(commit, e))?;
        Ok((msg.to_vec(), c.parent_ids().count(), encoding))
    }

    /// Remembers the links of a commit read by [`tree_parents_message`]; its message and
    /// number of parents.
    fn remember_read(
        &self,
        commit: ObjectId,
        (tree, first_parent, parents, msg): (ObjectId, Option<ObjectId>, usize, Vec<u8>),
    ) -> (Vec<u8>, usize) {
        let mut map = self.links.borrow_mut();
        if map.len() >= LINKS_KEPT {
            map.clear();
        }
        map.insert(commit, (tree, first_parent));
        (msg, parents)
    }

    /// Whether the full hex id `hex` names a commit here (what backs a revert's
    /// exemption: the commit its body says it reverts). Only the object's header is read.
    pub fn is_commit(&self, hex: &str) -> bool {
        let Ok(id) = ObjectId::from_hex(hex.as_bytes()) else {
            return false;
        };
        id.kind() == self.repo.object_hash()
            && self
                .repo
                .find_header(id)
                .is_ok_and(|h| h.kind() == gix::object::Kind::Commit)
    }

    /// Resolves a revision (`HEAD~2`, a branch, a full or abbreviated id) to a commit.
    pub fn resolve_commit(&self, rev: &str) -> Result<ObjectId, RepoError> {
        let unknown = |source: Option<super::GixError>| RepoError::UnknownRevision {
            rev: rev.to_owned(),
            source,
        };
        let id = self
            .repo
            .rev_parse_single(rev)
            .map_err(|e| unknown(Some(Box::new(e))))?
            .detach();
        self.peel_to_commit(id)?.ok_or_else(|| unknown(None))
    }

    /// The commits `git rev-list <spec>` lists, oldest first: `A..B` (reachable from B, not
    /// from A; an empty side means HEAD) or a single revision (it and all its ancestors).
    pub fn rev_range(&self, spec: &str) -> Result<Vec<ObjectId>, RepoError> {
        let (tips, hidden) = self.range_ends(spec)?;
        self.range_between(&tips, &hidden)
    }

    /// [`Repo::rev_range`] of the ends [`Repo::range_ends`] gave (resolving a revision
    /// such as `HEAD~50000` walks that many commits: once is enough).
    pub fn range_between(
        &self,
        tips: &[ObjectId],
        hidden: &[ObjectId],
    ) -> Result<Vec<ObjectId>, RepoError> {
        let ids = self.walk(tips, hidden.to_vec(), true)?;
        self.refuse_shallow_boundary(&ids)?;
        Ok(ids)
    }

    /// The tips and the hidden commits of `spec` as [`Repo::rev_range`] reads it.
    pub fn range_ends(&self, spec: &str) -> Result<(Vec<ObjectId>, Vec<ObjectId>), RepoError> {
        Ok(match spec.split_once("..") {
            Some((a, b)) => {
                if b.starts_with('.') {
                    return Err(RepoError::UnknownRevision {
                        rev: spec.to_owned(),
                        source: None,
                    });
                }
                let a = if a.is_empty() { "HEAD" } else { a };
                let b = if b.is_empty() { "HEAD" } else { b };
                (vec![self.resolve_commit(b)?], vec![self.resolve_commit(a)?])
            }
            None => (vec![self.resolve_commit(spec)?], Vec::new()),
        })
    }

    /// In a shallow clone, an error when `ids` holds a boundary commit whose recorded
    /// parents were cut off: the range then goes on into history this clone does not
    /// have, and checking only the visible part would pass commits nobody read.
    fn refuse_shallow_boundary(&self, ids: &[ObjectId]) -> Result<(), RepoError> {
        let Ok(Some(shallow)) = self.repo.shallow_commits() else {
            return Ok(());
        };
        let mut boundary: Vec<ObjectId> = shallow.iter().copied().collect();
        boundary.sort_unstable();
        for id in ids {
            if boundary.binary_search(id).is_ok() {
                let c = self.find_commit(*id)?;
                if c.parent_ids().next().is_some() {
                    return Err(RepoError::ShallowBoundary { commit: *id });
                }
            }
        }
        Ok(())
    }

    /// The commits a push brings: everything reachable from `tips` and from no existing
    /// reference (`git rev-list <tips> --not --all`), in ONE walk, oldest first. Tips that
    /// are annotated tags are peeled; tips that peel to a tree or blob are skipped; the
    /// caller drops deletions (see [`super::is_zero_id`]).
    pub fn new_commits(&self, tips: &[ObjectId]) -> Result<Vec<ObjectId>, RepoError> {
        let mut starts = Vec::with_capacity(tips.len());
        for &t in tips {
            if let Some(c) = self.peel_to_commit(t)? {
                starts.push(c);
            }
        }
        if starts.is_empty() {
            return Ok(Vec::new());
        }
        let hidden = self.existing_ref_commits()?;
        self.walk(&starts, hidden, true)
    }

    /// Every reference that peels to a commit, with that commit (tags peeled), sorted
    /// by name. A ref to a missing object or to a tree or blob is left out.
    pub fn ref_tips(&self) -> Result<Vec<(String, ObjectId)>, RepoError> {
        let refs = self
            .repo
            .references()
            .map_err(|e| RepoError::Refs(Box::new(e)))?;
        let iter = refs.all().map_err(|e| RepoError::Refs(Box::new(e)))?;
        let mut out = Vec::new();
        for r in iter {
            let Ok(mut r) = r else { continue };
            let name = String::from_utf8_lossy(r.name().as_bstr()).into_owned();
            if let Ok(id) = r.peel_to_id()
                && let Ok(Some(c)) = self.peel_to_commit(id.detach())
            {
                out.push((name, c));
            }
        }
        out.sort();
        Ok(out)
    }

    /// Every commit an existing reference (or HEAD) points to, tags peeled.
    fn existing_ref_commits(&self) -> Result<Vec<ObjectId>, RepoError> {
        let refs = self
            .repo
            .references()
            .map_err(|e| RepoError::Refs(Box::new(e)))?;
        let iter = refs.all().map_err(|e| RepoError::Refs(Box::new(e)))?;
        let mut out = Vec::new();
        for r in iter {
            let Ok(mut r) = r else { continue };
            // A ref to a missing object or to a tree/blob hides nothing.
            if let Ok(id) = r.peel_to_id()
                && let Ok(Some(c)) = self.peel_to_commit(id.detach())
            {
                out.push(c);
            }
        }
        if let Some(h) = self.head_commit() {
            out.push(h);
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The commits reachable from `tips` and not from `hidden` (`git rev-list <tips>
    /// --not <hidden>`), in one walk, oldest first: what a ref update brings to the ref.
    /// Tips must be commits (see [`Repo::peel_to_commit`]).
    pub fn commits_between(
        &self,
        tips: &[ObjectId],
        hidden: &[ObjectId],
    ) -> Result<Vec<ObjectId>, RepoError> {
        if tips.is_empty() {
            return Ok(Vec::new());
        }
        self.walk(tips, hidden.to_vec(), true)
    }

    /// The newest `limit` commits of `tip`'s history, newest first by committer time
    /// (ties in the order they were found, as `git log` lists them), passing over those
    /// of `skip` (a range being checked), each with its message as git shows it
    /// ([`Repo::commit_message_as_shown`]) and its number of parents: what a convention
    /// is fitted to (the `fit` module; `init` and `doctor` read the same commits). Each
    /// commit is read once, and the walk stops at `limit`: it reads those commits and
    /// the parents waiting in its queue, never the rest of the history. A shallow
    /// clone's boundary, or a commit below `tip` that cannot be read, ends its line.
    pub fn newest_messages(
        &self,
        tip: ObjectId,
        limit: usize,
        skip: &std::collections::HashSet<ObjectId>,
    ) -> Result<Vec<(ObjectId, Vec<u8>, usize)>, RepoError> {
        use gix::objs::FindExt as _;
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        /// One commit read: when, which parents the walk follows, how many it has,
        /// its message as stored and its `encoding` header as git finds it.
        struct Read(i64, Vec<ObjectId>, usize, Vec<u8>, Option<Vec<u8>>);
        let boundary = match self.repo.shallow_commits() {
            Ok(Some(s)) => s.iter().copied().collect(),
            _ => std::collections::HashSet::new(),
        };
        let mut buf = Vec::new();
        let mut read = |id: ObjectId| -> Option<Read> {
            let (time, parents, message) = {
                let c = self.repo.objects.find_commit(&id, &mut buf).ok()?;
                let time = c.committer().map_or(0, |s| s.seconds());
                (
                    time,
                    c.parents().collect::<Vec<ObjectId>>(),
                    c.message.to_vec(),
                )
            };
            let n = parents.len();
            let followed = match boundary.contains(&id) {
                true => Vec::new(),
                false => parents,
            };
            // The header as the check reads it ([`Repo::commit_message_as_shown`]), not
            // as gix does (fast/encoding.rs says where they differ).
            Some(Read(time, followed, n, message, encoding::of_commit(&buf)))
        };
        let Some(first) = read(tip) else {
            // The tip's own error, as every other read of it reports one.
            self.find_commit(tip)?;
            return Ok(Vec::new());
        };
        let mut heap = BinaryHeap::new();
        let mut slots: Vec<Option<(ObjectId, Read)>> = Vec::new();
        let mut seen = std::collections::HashSet::from([tip]);
        let push = |heap: &mut BinaryHeap<_>, slots: &mut Vec<_>, id, r: Read| {
            heap.push((r.0, Reverse(slots.len()), slots.len()));
            slots.push(Some((id, r)));
        };
        push(&mut heap, &mut slots, tip, first);
        let mut out = Vec::new();
        while out.len() < limit
            && let Some((_, _, slot)) = heap.pop()
        {
            let Some((id, Read(_, parents, n, message, label))) = slots[slot].take() else {
                continue;
            };
            for p in parents {
                if seen.insert(p)
                    && let Some(r) = read(p)
                {
                    push(&mut heap, &mut slots, p, r);
                }
            }
            if !skip.contains(&id) {
                // Decoded only for the commits handed out, as `git log` shows them.
                let message = match crate::gitenv::as_git_shows(&message, label.as_deref()) {
                    Ok(std::borrow::Cow::Owned(text)) => text,
                    _ => message,
                };
                out.push((id, message, n));
            }
        }
        Ok(out)
    }

    /// Of the commits [`Repo::commits_between`] lists for `tips` and `hidden`, those that
    /// `point` or its ancestors hold: what an adoption point accepts. They are the ones
    /// that the same walk with `point` hidden as well leaves out (`git rev-list <tips>
    /// --not <hidden> <point>`), so the cost follows the commits listed, never the length
    /// of the history below the point. Nothing is kept for message reads.
    pub fn held_by(
        &self,
        listed: &[ObjectId],
        tips: &[ObjectId],
        hidden: &[ObjectId],
        point: ObjectId,
    ) -> Result<gix::hashtable::HashSet<ObjectId>, RepoError> {
        if listed.is_empty() {
            return Ok(Default::default());
        }
        let mut hidden = hidden.to_vec();
        hidden.push(point);
        let rest: gix::hashtable::HashSet<ObjectId> =
            self.walk(tips, hidden, false)?.into_iter().collect();
        Ok(listed
            .iter()
            .copied()
            .filter(|id| !rest.contains(id))
            .collect())
    }

    /// The parents of `commit`, as stored.
    pub fn parent_ids(&self, commit: ObjectId) -> Result<Vec<ObjectId>, RepoError> {
        Ok(self
            .find_commit(commit)?
            .parent_ids()
            .map(|p| p.detach())
            .collect())
    }

    /// `id` peeled through annotated tags to a commit: `Some(commit)`, or `None` when it
    /// ends in a tree or blob. A missing object is an error.
    pub fn peel_to_commit(&self, id: ObjectId) -> Result<Option<ObjectId>, RepoError> {
        self.same_kind(id)?;
        let obj = self
            .repo
            .find_object(id)
            .map_err(|e| self.object_err(id, e))?;
        let obj = obj.peel_tags_to_end().map_err(|e| self.object_err(id, e))?;
        Ok((obj.kind == gix::object::Kind::Commit).then_some(obj.id))
    }

    /// The content of the blob at `path` in `commit`'s tree; `None` when there is no such
    /// file (or it is a directory or submodule). Used for the server's config lookup.
    pub fn read_file_at(&self, commit: ObjectId, path: &str) -> Result<Option<Vec<u8>>, RepoError> {
        let c = self.find_commit(commit)?;
        let tree = c.tree().map_err(|e| self.object_err(commit, e))?;
        let entry = tree
            .lookup_entry_by_path(path)
            .map_err(|e| self.object_err(commit, e))?;
        let Some(entry) = entry else { return Ok(None) };
        if !entry.mode().is_blob() {
            return Ok(None);
        }
        let blob = self
            .repo
            .find_object(entry.object_id())
            .map_err(|e| self.object_err(entry.object_id(), e))?;
        Ok(Some(blob.detach().data))
    }

    /// Every file path (blobs and links, no directories) in `commit`'s tree, for checking
    /// that a fact store's globs match something.
    pub fn tree_paths(&self, commit: ObjectId) -> Result<Vec<String>, RepoError> {
        let c = self.find_commit(commit)?;
        let tree = c.tree().map_err(|e| self.object_err(commit, e))?;
        let files = tree
            .traverse()
            .breadthfirst
            .files()
            .map_err(|e| self.object_err(commit, e))?;
        Ok(files
            .into_iter()
            .filter(|e| !e.mode.is_tree())
            .map(|e| String::from_utf8_lossy(&e.filepath).into_owned())
            .collect())
    }

    /// The commit HEAD points to in this (usually bare) repository: the default branch.
    pub fn default_branch_commit(&self) -> Option<ObjectId> {
        self.head_commit()
    }
}

fn change_from_tree(change: &gix::diff::tree_with_rewrites::ChangeRef<'_>, out: &mut Vec<Entry>) {
    use gix::diff::tree_with_rewrites::ChangeRef as C;
    let bits = |m: gix::objs::tree::EntryMode| u32::from(m.value());
    let add = |out: &mut Vec<Entry>, p: &BStr, m: gix::objs::tree::EntryMode, id: ObjectId| {
        out.push(Entry {
            change: Change {
                kind: ChangeKind::Added,
                path: p.to_owned(),
                old_path: None,
                old_mode: None,
                new_mode: Some(bits(m)),
            },
            old_id: None,
            new_id: Some(id),
        });
    };
    let del = |out: &mut Vec<Entry>, p: &BStr, m: gix::objs::tree::EntryMode, id: ObjectId| {
        out.push(Entry {
            change: Change {
                kind: ChangeKind::Deleted,
                path: p.to_owned(),
                old_path: None,
                old_mode: Some(bits(m)),
                new_mode: None,
            },
            old_id: Some(id),
            new_id: None,
        });
    };
    match *change {
        C::Addition {
            location,
            entry_mode,
            id,
            ..
        } => {
            if !entry_mode.is_tree() {
                add(out, location, entry_mode, id);
            }
        }
        C::Deletion {
            location,
            entry_mode,
            id,
            ..
        } => {
            if !entry_mode.is_tree() {
                del(out, location, entry_mode, id);
            }
        }
        C::Modification {
            location,
            previous_entry_mode,
            previous_id,
            entry_mode,
            id,
        } => {
            match (previous_entry_mode.is_tree(), entry_mode.is_tree()) {
                (true, true) => {}
                // A directory replaced by a file or the other way round: only the non-tree
                // side is a file change (the tree's contents come as their own changes).
                (true, false) => add(out, location, entry_mode, id),
                (false, true) => del(out, location, previous_entry_mode, previous_id),
                (false, false) => {
                    let (old, new) = (bits(previous_entry_mode), bits(entry_mode));
                    out.push(Entry {
                        change: Change {
                            kind: if old & 0o170000 == new & 0o170000 {
                                ChangeKind::Modified
                            } else {
                                ChangeKind::TypeChanged
                            },
                            path: location.to_owned(),
                            old_path: None,
                            old_mode: Some(old),
                            new_mode: Some(new),
                        },
                        old_id: Some(previous_id),
                        new_id: Some(id),
                    });
                }
            }
        }
        C::Rewrite {
            source_location,
            source_entry_mode,
            source_id,
            location,
            entry_mode,
            id,
            copy,
            ..
        } => {
            if entry_mode.is_tree() {
                return;
            }
            out.push(Entry {
                change: Change {
                    kind: if copy {
                        ChangeKind::Copied
                    } else {
                        ChangeKind::Renamed
                    },
                    path: location.to_owned(),
                    old_path: Some(source_location.to_owned()),
                    old_mode: Some(bits(source_entry_mode)),
                    new_mode: Some(bits(entry_mode)),
                },
                old_id: Some(source_id),
                new_id: Some(id),
            });
        }
    }
}

/// The tree, the first parent, the number of parents and the message of commit `data`, read
/// in one pass ([`commit::read`]; the message is empty when the commit ends before
/// it); `None` when a header does not parse or the tree is not first (the callers then
/// ask gix again, which says what is wrong).
fn tree_parents_message(
    data: &[u8],
    kind: gix::hash::Kind,
) -> Option<(ObjectId, Option<ObjectId>, usize, Vec<u8>)> {
    let (mut first, mut parents) = (None, 0);
    let mut parent = |p| {
        first.get_or_insert(p);
        parents += 1;
    };
    let h = commit::read(data, kind, &mut parent, Upto::Message)?;
    Some((
        h.tree,
        first,
        parents,
        h.message.unwrap_or_default().to_vec(),
    ))
}
