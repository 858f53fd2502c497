//! Path probes for bullet tracing: "does this commit (or the staged set) change `path`, or
//! a file under it?", answered by looking the path up on both sides instead of diffing
//! the whole trees. A commit's bullets name a handful of paths; its trees may hold
//! thousands of entries, and a full diff reads every entry of every changed directory.
//!
//! A probe answers only "changed for certain". Anything else (unchanged, a mode-only
//! change, a malformed tree, a conflicted or sparse index, an intent-to-add entry) is
//! "not proven", and the caller computes the full diff, so the findings are exactly
//! those of the full diff. Trees are read once and kept, keyed by id, and their entries
//! indexed only as far as a lookup needs, so a range walk that looks a parent's trees up
//! right after reading them as a child's reads each new tree once.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

use super::index_scan::{self, AtPath, IndexScan};
use super::{ObjectId, Repo, RepoError};

/// Bytes of tree objects kept before the cache starts over.
const TREE_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Nesting beyond which a probe gives up (the full diff then decides).
const MAX_DEPTH: usize = 256;

/// A tree object's raw bytes with the position of each entry's name, for binary search
/// in git's order. Entries are indexed lazily, only as far as a lookup needs (a tree
/// read for one path is mostly not indexed at all past it). Like git's own tree
/// lookups, it trusts the stored order.
#[derive(Debug)]
pub(crate) struct RawTree {
    /// Shared with the pack reader's cache when it read the tree.
    data: Rc<Vec<u8>>,
    hash_len: usize,
    /// Each indexed entry's name and kind, in order.
    names: RefCell<Vec<Name>>,
    /// Where indexing stopped: `data.len()` once every entry is indexed.
    indexed_to: Cell<usize>,
}

/// Where an indexed entry's name is in a [`RawTree`]'s data, and whether it is a
/// directory.
#[derive(Debug, Clone, Copy)]
struct Name {
    start: u32,
    end: u32,
    tree: bool,
}

/// One entry of a [`RawTree`].
#[derive(Debug, Clone, Copy)]
struct RawEntry<'a> {
    mode: u32,
    name: &'a [u8],
    id: &'a gix::oid,
}

impl RawEntry<'_> {
    fn is_tree(&self) -> bool {
        is_tree_mode(self.mode)
    }

    fn found(&self) -> Found {
        Some((self.mode, self.id.to_owned()))
    }
}

/// The tree object is malformed (truncated, a bad mode, an empty name).
#[derive(Debug)]
struct Malformed;

impl RawTree {
    fn new(data: Rc<Vec<u8>>, kind: gix::hash::Kind) -> Self {
        RawTree {
            // Entries of source trees average 30–40 bytes.
            names: RefCell::new(Vec::with_capacity(data.len() / 32 + 1)),
            data,
            hash_len: kind.len_in_bytes(),
            indexed_to: Cell::new(0),
        }
    }

    /// Indexes entries up to the end, or with `past`, until the last one indexed sorts
    /// after a directory named `past` (the later of the two places `past` can be).
    fn index_until(&self, past: Option<&[u8]>) -> Result<(), Malformed> {
        let mut names = self.names.borrow_mut();
        let beyond = |n: &Name| {
            past.is_some_and(|p| {
                sorts_after(&self.data[n.start as usize..n.end as usize], n.tree, p)
            })
        };
        if names.last().is_some_and(beyond) {
            return Ok(());
        }
        let data = self.data.as_slice();
        let mut at = self.indexed_to.get();
        while at < data.len() {
            let (name, next) = entry_at(data, at, self.hash_len)?;
            names.push(name);
            at = next;
            self.indexed_to.set(at);
            if beyond(&name) {
                break;
            }
        }
        Ok(())
    }

    /// Takes over `other`'s index as far as the two trees agree byte for byte: a commit
    /// that changes one file of a large directory leaves every entry before that file's
    /// id where it was, and a lookup then indexes only the entries after it.
    fn adopt(&self, other: &RawTree) {
        let ours = self.indexed_to.get();
        let theirs = other.indexed_to.get();
        if theirs <= ours || self.hash_len != other.hash_len {
            return;
        }
        let same = common_prefix(
            &self.data[..theirs.min(self.data.len())],
            &other.data[..theirs],
        );
        if same <= ours {
            return;
        }
        let mut names = self.names.borrow_mut();
        let theirs = other.names.borrow();
        // Our entries so far are theirs (the bytes up to `ours` agree); take theirs that
        // end within the shared bytes.
        let entry_end = |n: &Name| n.end as usize + 1 + self.hash_len;
        let upto = theirs.partition_point(|n| entry_end(n) <= same);
        let have = names.len();
        if let Some(last) = theirs[..upto].last().filter(|_| upto > have) {
            self.indexed_to.set(entry_end(last));
            names.extend_from_slice(&theirs[have..upto]);
        }
    }

    fn len(&self) -> usize {
        self.names.borrow().len()
    }

    fn name(&self, i: usize) -> &[u8] {
        let n = self.names.borrow()[i];
        &self.data[n.start as usize..n.end as usize]
    }

    fn mode_start(&self, i: usize) -> usize {
        match i {
            0 => 0,
            _ => self.names.borrow()[i - 1].end as usize + 1 + self.hash_len,
        }
    }

    /// A directory entry (mode `40000`).
    fn is_tree(&self, i: usize) -> bool {
        self.names.borrow()[i].tree
    }

    fn entry(&self, i: usize) -> RawEntry<'_> {
        let Name {
            start: s, end: e, ..
        } = self.names.borrow()[i];
        let mode = self.data[self.mode_start(i)..s as usize - 1]
            .iter()
            .fold(0u32, |m, d| m * 8 + u32::from(d - b'0'));
        let id = &self.data[e as usize + 1..e as usize + 1 + self.hash_len];
        RawEntry {
            mode,
            name: &self.data[s as usize..e as usize],
            // The slice has the hash's length (checked when indexing).
            id: gix::oid::from_bytes_unchecked(id),
        }
    }

    /// Every entry, in order.
    fn entries(&self) -> Result<impl Iterator<Item = RawEntry<'_>>, Malformed> {
        self.index_until(None)?;
        Ok((0..self.len()).map(|i| self.entry(i)))
    }

    /// The entry named `name`: a file (or other non-directory) first, then a directory.
    fn lookup(&self, name: &[u8]) -> Result<Found, Malformed> {
        if name.is_empty() {
            return Ok(None);
        }
        self.index_until(Some(name))?;
        for dir in [false, true] {
            let (mut lo, mut hi) = (0, self.len());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                match git_cmp(self.name(mid), self.is_tree(mid), name, dir) {
                    Ordering::Less => lo = mid + 1,
                    Ordering::Greater => hi = mid,
                    Ordering::Equal => return Ok(self.entry(mid).found()),
                }
            }
        }
        Ok(None)
    }
}

/// The entry of tree data `data` at `at` and where the next one starts; `Malformed`
/// also when `data` ends inside it.
#[inline]
fn entry_at(data: &[u8], at: usize, hash_len: usize) -> Result<(Name, usize), Malformed> {
    let rest = &data[at..];
    // `100644 `, `100755 `, `120000 `, `160000 ` or `40000 `.
    let space = match (rest.get(6), rest.get(5)) {
        (Some(b' '), _) => 6,
        (_, Some(b' ')) => 5,
        _ => rest
            .iter()
            .take(8)
            .position(|b| *b == b' ')
            .ok_or(Malformed)?,
    };
    let mut mode = 0u32;
    let mut digits = true;
    for d in &rest[..space] {
        digits &= d & 0xf8 == b'0';
        mode = mode * 8 + u32::from(d & 7);
    }
    let nul = find_nul(&rest[space + 1..]).ok_or(Malformed)? + space + 1;
    if !digits || space == 0 || nul == space + 1 || nul + 1 + hash_len > rest.len() {
        return Err(Malformed);
    }
    let name = Name {
        start: u32::try_from(at + space + 1).map_err(|_| Malformed)?,
        end: u32::try_from(at + nul).map_err(|_| Malformed)?,
        tree: is_tree_mode(mode),
    };
    Ok((name, at + nul + 1 + hash_len))
}

/// Whether an entry `name` (a directory when `tree`) sorts after a directory named
/// `past`, the later of the two places an entry named `past` can be.
fn sorts_after(name: &[u8], tree: bool, past: &[u8]) -> bool {
    // The first bytes decide for most entries, without a call.
    match name[0].cmp(&past[0]) {
        Ordering::Equal => git_cmp(name, tree, past, true).is_gt(),
        o => o.is_gt(),
    }
}

/// The `/`-separated components of a bullet path; `None` when the path or a component
/// is empty (no tree entry has such a path).
fn components(path: &[u8]) -> Option<impl Iterator<Item = &[u8]>> {
    let parts = path.split(|b| *b == b'/');
    (!path.is_empty() && !parts.clone().any(<[u8]>::is_empty)).then_some(parts)
}

/// How many leading bytes `a` and `b` share: compared a block at a time (a slice
/// comparison is a vectorised `memcmp`), the differing block then byte by byte.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .position(|(x, y)| x != y)
        .unwrap_or(n - at)
}

/// The position of the first NUL in `s`, eight bytes at a time: tree entry names are
/// short, and a general search's setup costs more than the scan.
fn find_nul(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.chunks_exact(8);
    let mut at = 0;
    for c in chunks.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let x = u64::from_le_bytes(w);
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + zero.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|b| *b == 0)
        .map(|i| at + i)
}

/// git's tree order: names compare bytewise, a directory as if it ended in `/`.
fn git_cmp(a: &[u8], a_tree: bool, b: &[u8], b_tree: bool) -> Ordering {
    let n = a.len().min(b.len());
    match a[..n].cmp(&b[..n]) {
        Ordering::Equal => {}
        o => return o,
    }
    let end = |s: &[u8], tree: bool| s.get(n).copied().unwrap_or(if tree { b'/' } else { 0 });
    end(a, a_tree).cmp(&end(b, b_tree))
}

/// Tree objects by id, reused across the commits of a walk.
#[derive(Default)]
pub(crate) struct TreeCache {
    trees: HashMap<ObjectId, Rc<RawTree>>,
    bytes: usize,
}

/// Trees read only in part by the staged probe, with the name each was read for.
type PartialTrees = HashMap<ObjectId, (Rc<RawTree>, Vec<u8>)>;

/// What a lookup found at a path: an entry's mode and id.
type Found = Option<(u32, ObjectId)>;

/// A directory's mode (`40000`).
fn is_tree_mode(mode: u32) -> bool {
    mode & super::S_IFMT == 0o040000
}

/// The lookup found a directory.
fn found_tree(f: &Found) -> bool {
    f.is_some_and(|(mode, _)| is_tree_mode(mode))
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
            let Some((a, b)) = self.lookup_both(old, new, p.as_bytes())? else {
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
        let wanted: Vec<&[u8]> = paths.iter().map(|p| p.as_bytes()).collect();
        // An index that cannot be read is left to the full diff, which reports it.
        let index = self.repo.index_path();
        let whole = index_scan::may_be_split(&index, self.repo.git_dir());
        let Ok(IndexScan::Paths(staged)) =
            index_scan::scan_file(&index, self.repo.object_hash(), &wanted, !whole)
        else {
            return Ok(false);
        };
        let head = match self.head_tree_peeked() {
            Some(id) => id,
            None => self
                .repo
                .head_tree_id_or_empty()
                .map_err(|e| RepoError::Head(Box::new(e)))?
                .detach(),
        };
        // Last path first: a directory's first (partial) read then reaches as far as every
        // later lookup in it needs.
        let mut pairs: Vec<(&[u8], AtPath)> = wanted.into_iter().zip(staged).collect();
        pairs.sort_by(|a, b| b.0.cmp(a.0));
        let mut partial = PartialTrees::new();
        for (p, at) in pairs {
            let Some(tree_side) = self.lookup_path(head, p, &mut partial)? else {
                return Ok(false);
            };
            if !self.staged_differs(at, tree_side, p)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// HEAD's tree (the empty tree when HEAD is unborn), its commit read without gix's
    /// object database; `None` when that does not work out (gix then reads it).
    fn head_tree_peeked(&self) -> Option<ObjectId> {
        let head = self.repo.head().ok()?;
        if head.is_unborn() {
            return Some(ObjectId::empty_tree(self.repo.object_hash()));
        }
        let id = head.id()?.detach();
        let commit = self.peek(&id, &mut |_| false)?;
        if commit.kind != gix::object::Kind::Commit || !commit.complete {
            return None;
        }
        gix::objs::CommitRefIter::from_bytes(&commit.data, self.repo.object_hash())
            .tree_id()
            .ok()
    }

    /// Reads `id` with the [`peek::Peek`](super::peek) reader, set up on first use.
    fn peek(
        &self,
        id: &gix::oid,
        enough: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<super::peek::Peeked> {
        let mut peek = self.peek.borrow_mut();
        peek.get_or_insert_with(|| {
            super::peek::Peek::new(
                super::packs::object_dirs(&self.repo),
                self.repo.object_hash(),
            )
        })
        .read(id, enough)
    }

    /// What the staged probe's reader did so far. For tests and measurements.
    #[doc(hidden)]
    pub fn peek_stats(&self) -> super::peek::PeekStats {
        self.peek
            .borrow()
            .as_ref()
            .map(|p| p.stats)
            .unwrap_or_default()
    }

    /// The tree `id` as far as a lookup of `name` needs: from the cache, or inflated only
    /// up to the first entry that sorts after `name` (kept in `partial` for the lookups
    /// it covers), else read whole.
    fn tree_upto(
        &self,
        id: ObjectId,
        name: &[u8],
        partial: &mut PartialTrees,
    ) -> Result<Rc<RawTree>, RepoError> {
        if let Some(t) = self.trees.borrow().trees.get(&id) {
            return Ok(Rc::clone(t));
        }
        if let Some((t, upto)) = partial.get(&id) {
            // It holds every entry up to the first after a directory named `upto`.
            if !git_cmp(name, true, upto, true).is_gt() {
                return Ok(Rc::clone(t));
            }
        }
        if id.is_empty_tree() || name.is_empty() {
            return self.raw_tree(id);
        }
        let hash_len = id.kind().len_in_bytes();
        let (mut scanned, mut cut) = (0, None);
        let mut enough = |data: &[u8]| {
            while let Ok((entry, next)) = entry_at(data, scanned, hash_len) {
                scanned = next;
                if sorts_after(
                    &data[entry.start as usize..entry.end as usize],
                    entry.tree,
                    name,
                ) {
                    cut = Some(next);
                    return true;
                }
            }
            false
        };
        match self.peek(&id, &mut enough) {
            Some(p) if p.kind == gix::object::Kind::Tree && p.complete => {
                Ok(self.cache_tree(id, Rc::new(p.data)))
            }
            Some(mut p) if p.kind == gix::object::Kind::Tree => {
                p.data.truncate(cut.unwrap_or(0));
                let tree = Rc::new(RawTree::new(Rc::new(p.data), id.kind()));
                partial.insert(id, (Rc::clone(&tree), name.to_vec()));
                Ok(tree)
            }
            _ => self.raw_tree(id),
        }
    }

    /// The tree `id`, from the cache when it was read before.
    fn raw_tree(&self, id: ObjectId) -> Result<Rc<RawTree>, RepoError> {
        if let Some(t) = self.trees.borrow().trees.get(&id) {
            return Ok(Rc::clone(t));
        }
        let data = if id.is_empty_tree() {
            Rc::default()
        } else {
            match self.read_packed_tree(&id) {
                Some((gix::object::Kind::Tree, data)) => data,
                // Loose, not a tree, or unreadable from the packs: gix reads it or says
                // why. A copy: gix's buffer goes back to its free list for the next read.
                _ => Rc::new(
                    self.tree_reader()
                        .find_tree(id)
                        .map_err(|e| self.object_err(id, e))?
                        .data
                        .clone(),
                ),
            }
        };
        Ok(self.cache_tree(id, data))
    }

    /// Keeps the whole tree `id` read as `data`.
    fn cache_tree(&self, id: ObjectId, data: Rc<Vec<u8>>) -> Rc<RawTree> {
        let tree = Rc::new(RawTree::new(data, id.kind()));
        let mut cache = self.trees.borrow_mut();
        if cache.bytes + tree.data.len() > TREE_CACHE_BYTES {
            cache.trees.clear();
            cache.bytes = 0;
        }
        cache.bytes += tree.data.len();
        cache.trees.insert(id, Rc::clone(&tree));
        tree
    }

    /// The entries at `path` under the trees `old` and `new`, as [`Repo::lookup_path`]
    /// finds them on each side, except that a directory both sides share is answered
    /// "none on either side" (which differs exactly as the shared entries would not).
    /// Walked level by level, so that each directory's index starts where the other
    /// side's version of it agrees byte for byte (see [`RawTree::adopt`]).
    fn lookup_both(
        &self,
        old: ObjectId,
        new: ObjectId,
        path: &[u8],
    ) -> Result<Option<(Found, Found)>, RepoError> {
        let Some(parts) = components(path) else {
            return Ok(None);
        };
        let mut dirs = (Some(old), Some(new));
        let mut parts = parts.peekable();
        while let Some(part) = parts.next() {
            if dirs.0 == dirs.1 {
                return Ok(Some((None, None)));
            }
            let a = dirs.0.map(|id| self.raw_tree(id)).transpose()?;
            let b = dirs.1.map(|id| self.raw_tree(id)).transpose()?;
            let (fa, fb) = match (&a, &b) {
                (Some(a), Some(b)) => {
                    a.adopt(b);
                    let fa = a.lookup(part);
                    b.adopt(a);
                    (fa, b.lookup(part))
                }
                (Some(a), None) => (a.lookup(part), Ok(None)),
                (None, Some(b)) => (Ok(None), b.lookup(part)),
                (None, None) => (Ok(None), Ok(None)),
            };
            let (Ok(fa), Ok(fb)) = (fa, fb) else {
                return Ok(None);
            };
            if parts.peek().is_none() {
                return Ok(Some((fa, fb)));
            }
            let dir = |f: Found| f.filter(|(mode, _)| is_tree_mode(*mode)).map(|(_, id)| id);
            dirs = (dir(fa), dir(fb));
        }
        Ok(Some((None, None)))
    }

    /// The entry at `path` under the tree `root`, each tree read as far as the lookup
    /// needs (see [`Repo::tree_upto`]): `Ok(Some(None))` when there is none, `Ok(None)`
    /// when the answer cannot be trusted (a malformed tree, a bad path).
    fn lookup_path(
        &self,
        root: ObjectId,
        path: &[u8],
        partial: &mut PartialTrees,
    ) -> Result<Option<Found>, RepoError> {
        let Some(parts) = components(path) else {
            return Ok(None);
        };
        let mut dir = root;
        let mut parts = parts.peekable();
        while let Some(part) = parts.next() {
            let Ok(found) = self.tree_upto(dir, part, partial)?.lookup(part) else {
                return Ok(None);
            };
            let Some((mode, id)) = found else {
                return Ok(Some(None));
            };
            if parts.peek().is_none() {
                return Ok(Some(found));
            }
            if !is_tree_mode(mode) {
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
                let empty = || ObjectId::empty_tree(self.repo.object_hash());
                let ta = self.raw_tree(a.map_or_else(empty, |(_, id)| id))?;
                let tb = self.raw_tree(b.map_or_else(empty, |(_, id)| id))?;
                let (Ok(ia), Ok(ib)) = (ta.entries(), tb.entries()) else {
                    return Ok(false);
                };
                let (mut ia, mut ib) = (ia.peekable(), ib.peekable());
                loop {
                    let (ea, eb) = match (ia.peek(), ib.peek()) {
                        (None, None) => return Ok(false),
                        (Some(x), None) => (Some(*x), None),
                        (None, Some(y)) => (None, Some(*y)),
                        (Some(x), Some(y)) => {
                            match git_cmp(x.name, x.is_tree(), y.name, y.is_tree()) {
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
                    let fa = ea.and_then(|e| e.found());
                    let fb = eb.and_then(|e| e.found());
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
                if !self.flatten(id, &mut prefix, &mut head, 0)? {
                    return Ok(false);
                }
                // Paths and ids only: a mode-only difference is left to the full diff.
                Ok(staged.under != head)
            }
        }
    }

    /// Appends every non-directory entry under the tree `id` to `out` as (full path, id),
    /// in the index's order; `false` when a tree cannot be trusted or nests too deep.
    fn flatten(
        &self,
        id: ObjectId,
        prefix: &mut Vec<u8>,
        out: &mut Vec<(Vec<u8>, ObjectId)>,
        depth: usize,
    ) -> Result<bool, RepoError> {
        if depth >= MAX_DEPTH {
            return Ok(false);
        }
        let tree = self.raw_tree(id)?;
        let Ok(entries) = tree.entries() else {
            return Ok(false);
        };
        for e in entries {
            let len = prefix.len();
            prefix.extend_from_slice(e.name);
            if e.is_tree() {
                prefix.push(b'/');
                if !self.flatten(e.id.to_owned(), prefix, out, depth + 1)? {
                    return Ok(false);
                }
            } else {
                out.push((prefix.clone(), e.id.to_owned()));
            }
            prefix.truncate(len);
        }
        Ok(true)
    }
}
