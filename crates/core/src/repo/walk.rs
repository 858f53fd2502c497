//! The history walk of ranges and pushes: the commits reachable from some tips and from
//! no hidden commit, newest first by committer time, each commit read and inflated once.
//!
//! It is git's own walk (`limit_list` in git's revision.c), step for step, so that a
//! range lists what `git rev-list A..B` lists and a push what `git rev-list <tips> --not
//! --all` lists, on every history, clock skew included: commits leave the queue newest
//! first; a hidden commit marks its parents hidden, and through them every commit already
//! read below them (also one listed earlier, which is dropped at the end); the walk goes
//! on while any queued commit is not known hidden, or is newer than the last one listed,
//! and then for five more hidden ones (git's `SLOP`). A walk that stopped once every
//! queued commit was reachable from both sides (gix's hidden frontier, and this walk
//! before) lists commits the base already holds when a committer date goes backwards
//! below a branch point (docs/trust.md). Each commit is read once and the raw commit of
//! every commit it lists is kept, so the message read that follows
//! (`commit_message_and_parents`) decompresses nothing (docs/check.md, "Performance").

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::commit::{self, Upto};
use super::{ObjectId, Repo, RepoError};

/// Reachable from a hidden commit (git's `UNINTERESTING`).
const HIDDEN: u8 = 1;
/// Queued once (git's `SEEN`): never queued again.
const SEEN: u8 = 2;
/// Read: its time and parents are known.
const PARSED: u8 = 4;
/// In the queue now.
const QUEUED: u8 = 8;

/// How many more hidden commits the walk takes once only hidden ones are queued, all
/// older than the last commit listed (git's `SLOP`).
const SLOP: u32 = 5;

/// One commit the walk knows of: read ([`PARSED`]), or only named as a parent.
struct Node {
    id: ObjectId,
    /// Committer time in seconds, as gix reads it (0 when it does not parse).
    time: i64,
    flags: u8,
    /// Where its parents start in [`Graph::parents`], and how many it has.
    parents: (u32, u32),
    /// The raw commit, kept for the message read when the commit is listed.
    data: Vec<u8>,
}

/// The commits known so far, by id.
#[derive(Default)]
struct Graph {
    index: gix::hashtable::HashMap<ObjectId, u32>,
    nodes: Vec<Node>,
    parents: Vec<ObjectId>,
    /// How many queued commits are not hidden (git's `everybody_uninteresting`).
    live: usize,
}

impl Graph {
    /// The node of `id`, added unread when new.
    fn intern(&mut self, id: ObjectId) -> u32 {
        if let Some(&i) = self.index.get(&id) {
            return i;
        }
        let i = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        self.nodes.push(Node {
            id,
            time: 0,
            flags: 0,
            parents: (0, 0),
            data: Vec::new(),
        });
        self.index.insert(id, i);
        i
    }

    /// Marks commit `i` hidden; true when it was not.
    fn hide(&mut self, i: u32) -> bool {
        let node = &mut self.nodes[i as usize];
        if node.flags & HIDDEN != 0 {
            return false;
        }
        node.flags |= HIDDEN;
        if node.flags & QUEUED != 0 {
            self.live -= 1;
        }
        true
    }

    /// The parents of commit `i` that are known (none when it is unread).
    fn parents_of(&self, i: u32) -> impl Iterator<Item = ObjectId> + '_ {
        let node = &self.nodes[i as usize];
        let (start, n) = match node.flags & PARSED {
            0 => (0, 0),
            _ => node.parents,
        };
        self.parents[start as usize..(start + n) as usize]
            .iter()
            .copied()
    }

    /// Marks the parents of commit `i` hidden, and below them every commit already read
    /// (git's `mark_parents_uninteresting`): a commit read, queued or listed before a
    /// hidden commit reached it is hidden all the same.
    fn hide_parents(&mut self, i: u32) {
        let mut stack: Vec<ObjectId> = self.parents_of(i).collect();
        while let Some(id) = stack.pop() {
            let j = self.intern(id);
            if self.hide(j) {
                stack.extend(self.parents_of(j));
            }
        }
    }
}

/// A queue entry: newer first, and among equal times the one queued first.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Key(i64, Reverse<u64>, u32);

impl Repo {
    /// One walk from `tips`, hiding everything reachable from `hidden` (`git rev-list
    /// <tips> --not <hidden>`), oldest first. With `keep`, the raw commit of every commit
    /// listed is kept for its message read.
    pub(super) fn walk(
        &self,
        tips: &[ObjectId],
        hidden: Vec<ObjectId>,
        keep: bool,
    ) -> Result<Vec<ObjectId>, RepoError> {
        let err = |e: super::GixError| RepoError::Walk {
            tips: tips.to_vec(),
            shallow: self.is_shallow(),
            source: e,
        };
        // Each commit is read once: the object cache would only copy it.
        let mut odb = self.repo.objects.clone();
        odb.unset_object_cache();
        let kind = self.repo.object_hash();
        // A shallow clone's boundary commits: their parents are not here (git reads
        // them as parentless).
        let shallow = match self.repo.shallow_commits() {
            Ok(Some(s)) => {
                let mut v: Vec<ObjectId> = s.iter().copied().collect();
                v.sort_unstable();
                v
            }
            _ => Vec::new(),
        };
        let mut g = Graph::default();
        let mut buf = Vec::new();
        // Reads commit `i`: false when the object is missing.
        let mut parse = |g: &mut Graph, i: u32| -> Result<bool, RepoError> {
            if g.nodes[i as usize].flags & PARSED != 0 {
                return Ok(true);
            }
            let id = g.nodes[i as usize].id;
            let Some(data) =
                gix::prelude::Find::try_find(&odb, &id, &mut buf).map_err(|e| err(Box::new(e)))?
            else {
                return Ok(false);
            };
            if data.kind != gix::object::Kind::Commit {
                return Err(RepoError::NotACommit {
                    id,
                    kind: data.kind.to_string(),
                });
            }
            let start = g.parents.len();
            let time = commit::read(data.data, kind, &mut |p| g.parents.push(p), Upto::Committer)
                .ok_or_else(|| err(Box::new(Undecodable(id))))?
                .time;
            if shallow.binary_search(&id).is_ok() {
                g.parents.truncate(start);
            }
            let node = &mut g.nodes[i as usize];
            node.time = time;
            node.flags |= PARSED;
            node.parents = (
                u32::try_from(start).unwrap_or(u32::MAX),
                u32::try_from(g.parents.len() - start).unwrap_or(0),
            );
            if keep {
                node.data = data.data.to_vec();
            }
            Ok(true)
        };
        let mut seq = 0u64;
        let mut push = |queue: &mut BinaryHeap<Key>, g: &mut Graph, i: u32| {
            seq += 1;
            let node = &mut g.nodes[i as usize];
            node.flags |= SEEN | QUEUED;
            if node.flags & HIDDEN == 0 {
                g.live += 1;
            }
            queue.push(Key(node.time, Reverse(seq), i));
        };

        // The starting commits, in the order git takes them (the tips, then the hidden
        // ones): a hidden commit that is missing hides nothing, a missing tip is an error.
        let mut queue = BinaryHeap::new();
        let mut starts = Vec::with_capacity(tips.len() + hidden.len());
        for &id in &hidden {
            let i = g.intern(id);
            g.hide(i);
        }
        for &tip in tips {
            let i = g.intern(tip);
            if !parse(&mut g, i)? {
                return Err(err(Box::new(Missing(tip))));
            }
            starts.push(i);
        }
        for &id in &hidden {
            let i = g.intern(id);
            if parse(&mut g, i)? {
                starts.push(i);
            }
        }
        // git reads every commit named before it walks, and a hidden one marks its
        // parents hidden at once, and through them every named commit below it.
        for &id in &hidden {
            let i = g.intern(id);
            g.hide_parents(i);
        }
        for i in starts {
            if g.nodes[i as usize].flags & SEEN == 0 {
                push(&mut queue, &mut g, i);
            }
        }

        let (mut date, mut slop) = (i64::MAX, SLOP);
        let mut out = Vec::new();
        while let Some(Key(_, _, i)) = queue.pop() {
            let node = &mut g.nodes[i as usize];
            node.flags &= !QUEUED;
            let hidden_here = node.flags & HIDDEN != 0;
            if !hidden_here {
                g.live -= 1;
            }
            let (start, n) = node.parents;
            for p in start..start + n {
                let pid = g.parents[p as usize];
                let j = g.intern(pid);
                if hidden_here {
                    g.hide(j);
                    if !parse(&mut g, j)? {
                        continue;
                    }
                    g.hide_parents(j);
                } else if !parse(&mut g, j)? {
                    return Err(err(Box::new(MissingParent {
                        commit: g.nodes[i as usize].id,
                        parent: pid,
                    })));
                }
                if g.nodes[j as usize].flags & SEEN == 0 {
                    push(&mut queue, &mut g, j);
                }
            }
            if hidden_here {
                g.hide_parents(i);
                // git's `still_interesting`.
                slop = match queue.peek() {
                    None => 0,
                    Some(Key(newest, _, _)) if date <= *newest => SLOP,
                    Some(_) if g.live > 0 => SLOP,
                    Some(_) => slop - 1,
                };
                if slop == 0 {
                    break;
                }
                continue;
            }
            date = g.nodes[i as usize].time;
            out.push(i);
        }
        // A commit listed before a hidden commit reached it is not listed.
        let mut kept = self.walked.borrow_mut();
        let mut ids = Vec::with_capacity(out.len());
        for &i in out.iter().rev() {
            let node = &mut g.nodes[i as usize];
            if node.flags & HIDDEN != 0 {
                continue;
            }
            ids.push(node.id);
            if keep {
                kept.insert(node.id, std::mem::take(&mut node.data));
            }
        }
        Ok(ids)
    }
}

/// A walk starts at a commit the repository does not have.
#[derive(Debug, thiserror::Error)]
#[error("{0} is missing")]
struct Missing(ObjectId);

/// A walk read a commit whose headers do not parse.
#[derive(Debug, thiserror::Error)]
#[error("commit {0} could not be decoded")]
struct Undecodable(ObjectId);

/// A walk reached a parent the repository does not have.
#[derive(Debug, thiserror::Error)]
#[error("{parent}, a parent of {commit}, is missing")]
struct MissingParent {
    commit: ObjectId,
    parent: ObjectId,
}
