//! The history walk of ranges and pushes: the commits reachable from some tips and from
//! no hidden commit, newest first by committer time, each commit read and inflated once.
//!
//! It computes what gix's date-sorted walk with hidden tips computed (one pass painting
//! both sides until every queued commit is reachable from both, then a walk from the
//! tips that stops at those), but reads each commit once and keeps the raw commit of
//! every commit it lists, so the message read that follows (`commit_message_and_parents`)
//! decompresses nothing: gix read each commit in both passes and the check read it a
//! third time, through an object cache (docs/check.md, "Performance").

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{ObjectId, Repo, RepoError};

/// Reachable from a tip.
const VISIBLE: u8 = 1;
/// Reachable from a hidden commit.
const HIDDEN: u8 = 2;
/// Reachable from both: its ancestors are hidden too.
const STALE: u8 = 4;

/// One commit read by the walk.
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

/// The commits read so far, by id.
struct Graph {
    index: gix::hashtable::HashMap<ObjectId, u32>,
    nodes: Vec<Node>,
    parents: Vec<ObjectId>,
}

/// A queue entry: newer first, and among equal times the one queued first.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Key(i64, Reverse<u64>, u32);

impl Repo {
    /// One walk from `tips`, hiding everything reachable from `hidden`, oldest first.
    /// With `keep`, the raw commit of every commit listed is kept for its message read.
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
        let mut graph = Graph {
            index: Default::default(),
            nodes: Vec::new(),
            parents: Vec::new(),
        };
        let mut buf = Vec::new();
        // Reads `id` into the graph: `Ok(None)` when the object is missing.
        let mut load = |graph: &mut Graph, id: ObjectId| -> Result<Option<u32>, RepoError> {
            if let Some(&i) = graph.index.get(&id) {
                return Ok(Some(i));
            }
            let Some(data) =
                gix::prelude::Find::try_find(&odb, &id, &mut buf).map_err(|e| err(Box::new(e)))?
            else {
                return Ok(None);
            };
            if data.kind != gix::object::Kind::Commit {
                return Err(RepoError::NotACommit {
                    id,
                    kind: data.kind.to_string(),
                });
            }
            let start = graph.parents.len();
            let time = match headers(data.data, kind, &mut graph.parents) {
                Some(time) => time,
                None => {
                    graph.parents.truncate(start);
                    gix_headers(data.data, kind, &mut graph.parents)
                        .ok_or_else(|| err(Box::new(Undecodable(id))))?
                }
            };
            let i = u32::try_from(graph.nodes.len()).unwrap_or(u32::MAX);
            graph.nodes.push(Node {
                id,
                time,
                flags: 0,
                parents: (
                    u32::try_from(start).unwrap_or(u32::MAX),
                    u32::try_from(graph.parents.len() - start).unwrap_or(0),
                ),
                data: if keep { data.data.to_vec() } else { Vec::new() },
            });
            graph.index.insert(id, i);
            Ok(Some(i))
        };

        // Paint both sides, newest first, until no queued commit is stale (gix's hidden
        // frontier: a commit reachable from both passes STALE on to its ancestors; a
        // missing commit paints nothing).
        let mut seq = 0u64;
        let mut push = |queue: &mut BinaryHeap<Key>, graph: &Graph, i: u32| {
            seq += 1;
            queue.push(Key(graph.nodes[i as usize].time, Reverse(seq), i));
        };
        let mut visible_tips = Vec::with_capacity(tips.len());
        for &tip in tips {
            match load(&mut graph, tip)? {
                Some(i) => visible_tips.push(i),
                None => return Err(err(Box::new(Missing(tip)))),
            }
        }
        if !hidden.is_empty() {
            let mut queue = BinaryHeap::new();
            // How many times each commit is queued, and how many queued entries are of a
            // commit that is not stale: the painting stops when none is.
            let mut queued: Vec<u32> = Vec::new();
            let mut live = 0usize;
            for (ids, flag) in [(tips, VISIBLE), (hidden.as_slice(), HIDDEN)] {
                for &id in ids {
                    if let Some(i) = load(&mut graph, id)? {
                        graph.nodes[i as usize].flags |= flag;
                        push(&mut queue, &graph, i);
                        bump(&mut queued, i);
                        live += 1;
                    }
                }
            }
            while live > 0 {
                let Some(Key(_, _, i)) = queue.pop() else {
                    break;
                };
                queued[i as usize] -= 1;
                let node = &graph.nodes[i as usize];
                if node.flags & STALE == 0 {
                    live -= 1;
                }
                let mut flags = node.flags;
                if flags == VISIBLE | HIDDEN {
                    flags |= STALE;
                }
                let (start, n) = node.parents;
                for p in start..start + n {
                    let pid = graph.parents[p as usize];
                    let Some(j) = load(&mut graph, pid)? else {
                        continue;
                    };
                    let parent = &mut graph.nodes[j as usize];
                    if parent.flags & flags != flags {
                        if parent.flags & STALE == 0 && flags & STALE != 0 {
                            // Its queued entries no longer count.
                            live -= queued.get(j as usize).copied().unwrap_or(0) as usize;
                        }
                        parent.flags |= flags;
                        if parent.flags & STALE == 0 {
                            live += 1;
                        }
                        push(&mut queue, &graph, j);
                        bump(&mut queued, j);
                    }
                }
            }
        }
        let hides = |graph: &Graph, i: u32| {
            !hidden.is_empty()
                && graph.nodes[i as usize].flags & (VISIBLE | HIDDEN) == VISIBLE | HIDDEN
        };

        // Walk from the tips, newest first, never through a commit both sides reach.
        let shallow = match self.repo.shallow_commits() {
            Ok(Some(s)) => {
                let mut v: Vec<ObjectId> = s.iter().copied().collect();
                v.sort_unstable();
                v
            }
            _ => Vec::new(),
        };
        let mut queue = BinaryHeap::new();
        let mut seen = vec![false; graph.nodes.len()];
        for &i in &visible_tips {
            if !seen[i as usize] {
                seen[i as usize] = true;
                push(&mut queue, &graph, i);
            }
        }
        let mut out = Vec::new();
        let mut kept = self.walked.borrow_mut();
        while let Some(Key(_, _, i)) = queue.pop() {
            if hides(&graph, i) {
                continue;
            }
            let node = &mut graph.nodes[i as usize];
            let (id, (start, n)) = (node.id, node.parents);
            out.push(id);
            if keep {
                kept.insert(id, std::mem::take(&mut node.data));
            }
            // A shallow clone's boundary commit: its parents are not here.
            if shallow.binary_search(&id).is_ok() {
                continue;
            }
            for p in start..start + n {
                let pid = graph.parents[p as usize];
                let Some(j) = load(&mut graph, pid)? else {
                    return Err(err(Box::new(MissingParent {
                        commit: id,
                        parent: pid,
                    })));
                };
                if seen.len() <= j as usize {
                    seen.resize(j as usize + 1, false);
                }
                if !seen[j as usize] && !hides(&graph, j) {
                    seen[j as usize] = true;
                    push(&mut queue, &graph, j);
                }
            }
        }
        out.reverse();
        Ok(out)
    }
}

/// The parents and committer time of a well-formed commit, parsed by hand (the walk
/// needs nothing else); `None` when anything looks unusual, for gix to parse.
fn headers(data: &[u8], kind: gix::hash::Kind, parents: &mut Vec<ObjectId>) -> Option<i64> {
    use gix::bstr::ByteSlice;
    let hex = kind.len_in_hex();
    let mut rest = data.strip_prefix(b"tree ")?;
    if rest.get(hex) != Some(&b'\n') {
        return None;
    }
    rest = &rest[hex + 1..];
    while let Some(r) = rest.strip_prefix(b"parent ") {
        if r.get(hex) != Some(&b'\n') {
            return None;
        }
        parents.push(ObjectId::from_hex(&r[..hex]).ok()?);
        rest = &r[hex + 1..];
    }
    let r = rest.strip_prefix(b"author ")?;
    let end = r.find_byte(b'\n')?;
    let r = r[end + 1..].strip_prefix(b"committer ")?;
    let line = &r[..r.find_byte(b'\n')?];
    // gix: the time is what follows the identity `name <email>`, its first word.
    let after = &line[line.rfind_byte(b'>')? + 1..];
    let time = std::str::from_utf8(after).ok()?.trim().split(' ').next()?;
    if time.is_empty() || !time.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    time.parse().ok()
}

/// [`headers`] by gix's parser, for commits the hand parser does not take.
fn gix_headers(data: &[u8], kind: gix::hash::Kind, parents: &mut Vec<ObjectId>) -> Option<i64> {
    use gix::objs::commit::ref_iter::Token;
    let mut time = 0;
    for token in gix::objs::CommitRefIter::from_bytes(data, kind) {
        match token.ok()? {
            Token::Parent { id } => parents.push(id),
            Token::Committer { signature } => {
                time = signature.seconds();
                break;
            }
            _ => {}
        }
    }
    Some(time)
}

/// A walk starts at a commit the repository does not have.
#[derive(Debug, thiserror::Error)]
#[error("{0} is missing")]
struct Missing(ObjectId);

/// A walk read a commit whose headers do not parse.
#[derive(Debug, thiserror::Error)]
#[error("commit {0} could not be decoded")]
struct Undecodable(ObjectId);

/// One more queued entry of commit `i`.
fn bump(queued: &mut Vec<u32>, i: u32) {
    let i = i as usize;
    if queued.len() <= i {
        queued.resize(i + 1, 0);
    }
    queued[i] += 1;
}

/// A walk reached a parent the repository does not have.
#[derive(Debug, thiserror::Error)]
#[error("{parent}, a parent of {commit}, is missing")]
struct MissingParent {
    commit: ObjectId,
    parent: ObjectId,
}
