//! The history walk behind `changelog` and `bump`: every commit reachable from a tip,
//! newest first by committer time, each object read once; and the version tags.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use gix::objs::FindExt as _;
use jitcommit_core::changelog::{HistoryCommit, TagPattern, VersionTag, date_of};
use jitcommit_core::repo::ObjectId;

use crate::error::Error;

fn read(repo: &gix::Repository, buf: &mut Vec<u8>, id: ObjectId) -> Result<HistoryCommit, Error> {
    let c = repo
        .objects
        .find_commit(&id, buf)
        .map_err(|e| Error::Git(format!("cannot read commit {id}: {e}")))?;
    let time = c.committer().map(|s| s.seconds()).unwrap_or(0);
    Ok(HistoryCommit {
        id,
        parents: c.parents().collect(),
        time,
        message: String::from_utf8_lossy(c.message).into_owned(),
    })
}

/// Every commit reachable from `tips` and not in `hidden`, newest first (ties in the
/// order they were found), as `git rev-list --date-order` nearly does.
pub fn walk(
    repo: &gix::Repository,
    tips: &[ObjectId],
    hidden: &HashSet<ObjectId>,
) -> Result<Vec<HistoryCommit>, Error> {
    walk_newest(repo, tips, hidden, usize::MAX)
}

/// The newest `limit` commits of [`walk`]: the walk stops there, so it reads those
/// commits and the parents waiting in its queue, never the rest of the history
/// (`init` and `doctor` read the last 500 commits of a history of any length).
pub fn walk_newest(
    repo: &gix::Repository,
    tips: &[ObjectId],
    hidden: &HashSet<ObjectId>,
    limit: usize,
) -> Result<Vec<HistoryCommit>, Error> {
    let mut buf = Vec::new();
    let mut seen: HashSet<ObjectId> = HashSet::new();
    let mut heap: BinaryHeap<(i64, Reverse<u64>, usize)> = BinaryHeap::new();
    let mut slots: Vec<Option<HistoryCommit>> = Vec::new();
    let mut seq = 0u64;
    let mut push = |c: HistoryCommit, heap: &mut BinaryHeap<_>, slots: &mut Vec<_>| {
        heap.push((c.time, Reverse(seq), slots.len()));
        seq += 1;
        slots.push(Some(c));
    };
    for &t in tips {
        if !hidden.contains(&t) && seen.insert(t) {
            let c = read(repo, &mut buf, t)?;
            push(c, &mut heap, &mut slots);
        }
    }
    let mut out = Vec::new();
    while out.len() < limit
        && let Some((_, _, slot)) = heap.pop()
    {
        let Some(c) = slots.get_mut(slot).and_then(Option::take) else {
            continue;
        };
        for &p in &c.parents {
            if !hidden.contains(&p) && seen.insert(p) {
                let pc = read(repo, &mut buf, p)?;
                push(pc, &mut heap, &mut slots);
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// The version tags whose names `pattern` matches, peeled to their commits, dated by
/// the tagger (annotated) or the commit (lightweight).
pub fn version_tags(
    repo: &gix::Repository,
    pattern: &TagPattern,
) -> Result<Vec<VersionTag>, Error> {
    let refs = repo
        .references()
        .map_err(|e| Error::Git(format!("cannot read the references: {e}")))?;
    let tags = refs
        .tags()
        .map_err(|e| Error::Git(format!("cannot read the tags: {e}")))?;
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for r in tags {
        let Ok(mut r) = r else { continue };
        let name = r.name().shorten().to_string();
        let Some(version) = pattern.version(&name) else {
            continue;
        };
        let Some(target) = r.target().try_id().map(|id| id.to_owned()) else {
            continue;
        };
        let Ok(peeled) = r.peel_to_id() else { continue };
        let peeled = peeled.detach();
        let Ok(obj) = repo.find_object(peeled) else {
            continue;
        };
        if obj.kind != gix::object::Kind::Commit {
            continue;
        }
        let mut secs = None;
        if target != peeled
            && let Ok(tag) = repo.objects.find_tag(&target, &mut buf)
            && let Ok(Some(tagger)) = tag.tagger()
        {
            secs = Some(tagger.seconds());
        }
        let secs = match secs {
            Some(s) => s,
            None => read(repo, &mut buf, peeled)?.time,
        };
        out.push(VersionTag {
            name,
            version,
            commit: peeled,
            date: date_of(secs),
        });
    }
    out.sort_by(|a, b| a.version.cmp(&b.version).then_with(|| a.name.cmp(&b.name)));
    Ok(out)
}
