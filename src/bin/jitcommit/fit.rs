//! How a history fits a convention (docs/check.md, "Adopting an existing history"):
//! `init` reads the last commits before it proposes a convention and an adoption point,
//! and `doctor` reports the fit. Every commit is judged by the one verdict
//! (`rules::verdict`) that `jitcommit-check`, `changelog` and `bump` ask.

use std::collections::{BTreeMap, HashSet};

use jitcommit_core::changelog::{self, BumpLevel, BumpRules, Options, Others, TagPattern};
use jitcommit_core::config::{BodyPolicy, Convention};
use jitcommit_core::fit::Observed;
use jitcommit_core::repo::{ObjectId, Repo, RepoError};
use jitcommit_core::rules::{self, Checked, Policy};

use crate::error::Error;
use crate::history;

/// How many of the newest commits `init` and `doctor` read.
pub const LAST: usize = jitcommit_core::fit::LAST;

/// One commit of the history read.
struct Read {
    id: ObjectId,
    parents: usize,
    raw: Vec<u8>,
}

/// The newest `limit` commits reachable from HEAD (none on an unborn branch).
fn newest(repo: &Repo, limit: usize) -> Result<Vec<Read>, Error> {
    let Some(head) = repo.head_commit() else {
        return Ok(Vec::new());
    };
    // The commits the gates fit their convention to ([`jitcommit_core::fit`]), each
    // read once.
    Ok(repo
        .newest_messages(head, limit, &HashSet::new())?
        .into_iter()
        .map(|(id, raw, parents)| Read { id, parents, raw })
        .collect())
}

/// The verdict on one stored commit under `policy`, as `jitcommit-check --range` gives
/// it (stored exemptions, fixups allowed, paths traced against the commit's own diff
/// when the convention traces them).
fn judge(repo: &Repo, c: &Read, policy: Policy<'_>) -> Result<Checked, RepoError> {
    let conv = policy.convention();
    let is_commit = |hex: &str| repo.is_commit(hex);
    let facts = rules::CommitFacts {
        parents: c.parents,
        fixups: true,
        is_commit: &is_commit,
    };
    let trace = (conv.trace_paths || conv.coverage) && conv.body != BodyPolicy::Free;
    rules::verdict(
        &c.raw,
        policy,
        &rules::Cleanup::Stored,
        |text, conv| rules::stored_exemption(text, conv, &facts),
        |paths| {
            if !trace {
                return Ok(None);
            }
            let proved = !conv.coverage && repo.commit_changes_all(c.id, paths)?;
            rules::traced_set(paths, proved, || repo.commit_changes_for_tracing(c.id)).map(Some)
        },
    )
}

/// What reading the history found: how many commits the convention asked about
/// accepts as a gate, and what they hold at the spec's level.
#[derive(Debug, Default)]
pub struct Fit {
    /// Accepted by the convention asked about.
    pub gate: usize,
    /// Refused by it, but accepted as they are by its adoption point.
    pub adopted: usize,
    /// What the commits hold at the spec's level.
    pub seen: Observed,
    /// The newest commit read.
    pub head: Option<ObjectId>,
}

/// Reads the newest `limit` commits of HEAD and judges each under `conv` as a gate
/// (counting apart those its adoption point accepts) and at the spec's level.
pub fn read(repo: &Repo, conv: &Convention, limit: usize) -> Result<Fit, Error> {
    let commits = newest(repo, limit)?;
    let mut fit = Fit {
        head: commits.first().map(|c| c.id),
        ..Fit::default()
    };
    // The adoption point's newest `limit` ancestors, never its whole ancestry: a commit
    // of the newest `limit` of HEAD that the point holds is among them when the point
    // is in HEAD's history (the walks share their order), so init and doctor read
    // `limit` commits of a history of any length.
    let adopted: HashSet<ObjectId> = match conv.adopted.as_deref() {
        Some(point) if repo.is_commit(point) => match ObjectId::from_hex(point.as_bytes()) {
            Ok(tip) => history::walk_newest(repo.gix(), &[tip], &HashSet::new(), limit)?
                .into_iter()
                .map(|c| c.id)
                .collect(),
            Err(_) => HashSet::new(),
        },
        _ => HashSet::new(),
    };
    let is_commit = |hex: &str| repo.is_commit(hex);
    for c in &commits {
        if fit.seen.add(&c.raw, c.parents, conv, &is_commit) {
            fit.gate += 1;
            continue;
        }
        if judge(repo, c, Policy::Gate(conv))?.accepted() {
            fit.gate += 1;
        } else if adopted.contains(&c.id) {
            fit.adopted += 1;
        }
    }
    Ok(fit)
}

/// `conv` fitted to what the history holds ([`jitcommit_core::fit::propose`]), with the
/// adoption point at the newest commit read.
pub fn propose(conv: &Convention, fit: &Fit) -> Convention {
    let mut c = jitcommit_core::fit::propose(conv, &fit.seen);
    c.adopted = fit.head.map(|h| h.to_string());
    c
}

/// How many of the newest tagged releases [`release_bumps`] reads.
pub const RELEASES: usize = 10;

/// The releases the project made on commits that ask for none: of the newest
/// [`RELEASES`] tagged releases among the newest [`LAST`] commits that follow another
/// tag there, those whose conforming
/// commits ask for no bump under `conv`'s rules although a tag was made, with the
/// types they held (lerna publishes "Version bump only" releases of `chore` commits).
/// Returns how many such releases there were and the types they held.
pub fn release_bumps(
    repo: &Repo,
    conv: &Convention,
) -> Result<(usize, BTreeMap<String, usize>), Error> {
    let pattern = TagPattern::new(
        conv.changelog
            .tag_pattern
            .as_deref()
            .unwrap_or(TagPattern::DEFAULT),
    )?;
    let Some(head) = repo.head_commit() else {
        return Ok((0, BTreeMap::new()));
    };
    let commits = history::walk_newest(repo.gix(), &[head], &HashSet::new(), LAST)?;
    let ids: HashSet<ObjectId> = commits.iter().map(|c| c.id).collect();
    let tags: Vec<_> = history::version_tags(repo.gix(), &pattern)?
        .into_iter()
        .filter(|t| ids.contains(&t.commit))
        .collect();
    let is_commit = |hex: &str| repo.is_commit(hex);
    let opts = Options {
        convention: conv,
        others: Others::Count,
        pending: None,
        through: None,
        is_commit: Some(&is_commit),
    };
    let log = changelog::build(&commits, &tags, &opts);
    let rules = BumpRules::for_settings(&conv.changelog);
    let mut found = 0;
    let mut types = BTreeMap::new();
    for r in log
        .releases
        .iter()
        .filter(|r| r.tag.is_some() && r.previous_tag.is_some())
        .take(RELEASES)
    {
        if rules.level(r) == BumpLevel::None && !r.types.is_empty() {
            found += 1;
            for (ty, n) in &r.types {
                *types.entry(ty.clone()).or_default() += n;
            }
        }
    }
    Ok((found, types))
}

/// `conv` with every type of `types` asking for a patch release
/// (`changelog.bump-types`): the project released on such commits alone.
pub fn propose_bumps(conv: &Convention, types: &BTreeMap<String, usize>) -> Convention {
    let mut c = conv.clone();
    for ty in types.keys() {
        c.changelog
            .bump_types
            .entry(ty.clone())
            .or_insert(BumpLevel::Patch);
    }
    c
}

/// `a 12, b 3` for a count table, most used first, cut after `max`.
pub fn counts(table: &BTreeMap<String, usize>, max: usize) -> String {
    let mut v: Vec<(&String, &usize)> = table.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let mut s = v
        .iter()
        .take(max)
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    if v.len() > max {
        s.push_str(&format!(", … ({} more)", v.len() - max));
    }
    if s.is_empty() {
        s.push_str("none");
    }
    s
}
