//! The release data model behind `jitcommit changelog` and `jitcommit bump`: pure, no IO.
//!
//! The caller walks the history (newest first, each commit with its parents, committer
//! time and message) and lists the version tags; [`build`] turns that into releases:
//! one per version tag, commits assigned the way `git rev-list <tag> ^<older tags>`
//! would, the rest `Unreleased`. The history is read at the spec's level (docs/check.md,
//! "Reading a history"): each commit the Conventional Commits grammar accepts
//! ([`rules::verdict`] under [`Policy::Spec`], the one verdict `jitcommit-check` asks
//! too) whose type the convention's `sections` map names (or that is breaking) becomes
//! an [`Entry`] from its subject and the bullets it has; the house style (bullets,
//! tracing, lengths) is a gate for new commits, never a filter here; breaking entries come first; a revert cancels the commit it reverts when
//! both are in the same release; merges, other exempt commits and non-conforming ones
//! are counted, or listed under their own heading ([`Others`]).
//!
//! [`render`] writes Keep a Changelog 1.1.0 markdown and JSON; [`region`] splices the
//! generated text between markers in a hand-kept file; [`bump`] computes the next
//! version.

mod bump;
pub mod region;
mod render;
mod version;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::config::{Convention, Exemption};
use crate::message::Target;
use crate::repo::ObjectId;
use crate::rules::{self, Policy};

pub use bump::{BumpLevel, BumpRules, next_version};
pub use render::{
    Links, code_span, escape_rst, escape_text, render_json, render_markdown, render_rst,
};
pub use version::{Prerelease, TagPattern, TagPatternError, Version, date_of, is_date};

/// How many hex digits of a commit id the changelog shows: fixed, so the text does not
/// change as the repository grows (git's own abbreviation lengthens with it).
pub const SHORT_ID_LEN: usize = 7;

/// One commit as the history walk read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryCommit {
    /// The commit.
    pub id: ObjectId,
    /// Its parents, first parent first.
    pub parents: Vec<ObjectId>,
    /// Committer time, seconds since the epoch (UTC).
    pub time: i64,
    /// The raw message, lossily decoded.
    pub message: String,
}

/// A version tag pointing (peeled) at a commit of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionTag {
    /// The tag's name, e.g. `v1.2.0`.
    pub name: String,
    /// The version it names.
    pub version: Version,
    /// The commit it points to.
    pub commit: ObjectId,
    /// The release date, `YYYY-MM-DD` (the tagger's date, else the commit's).
    pub date: String,
}

/// What happens to merges, other exempt commits and non-conforming commits: the
/// convention's data type (`changelog.others`), named here as before.
pub use crate::config::Others;
pub use crate::config::{ChangelogSettings, Prereleases};

/// The settings [`build`] needs besides the history.
#[derive(Clone)]
pub struct Options<'a> {
    /// The repository's convention (types, sections, exemptions).
    pub convention: &'a Convention,
    /// Merges, exempt and non-conforming commits.
    pub others: Others,
    /// Render the unreleased commits as this release (`--tag VERSION`).
    pub pending: Option<Pending>,
    /// Render the history as it stood at this commit: commits it cannot reach are left
    /// out, while tags on them still claim its ancestors (what `--check` compares a file
    /// generated through this commit with). `None`: every commit.
    pub through: Option<ObjectId>,
    /// Whether a full hex id names a commit of the repository: what backs a revert's
    /// exemption, as `jitcommit-check` asks it. `None`: the commits given.
    pub is_commit: Option<&'a dyn Fn(&str) -> bool>,
}

/// A release about to be tagged: the unreleased commits rendered as if it existed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The version, e.g. `1.3.0`.
    pub version: Version,
    /// The tag it will have, e.g. `v1.3.0`.
    pub tag: String,
    /// Its date, `YYYY-MM-DD`.
    pub date: String,
}

/// The whole changelog: releases newest first.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Changelog {
    /// Newest first; `Unreleased` (when it has commits) comes first.
    pub releases: Vec<Release>,
}

/// One release (or `Unreleased`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Release {
    /// The version (`1.2.0`); `None` for Unreleased.
    pub version: Option<String>,
    /// The tag's name (the one it will have for a [`Pending`] release); `None` for
    /// Unreleased.
    pub tag: Option<String>,
    /// `YYYY-MM-DD`; `None` for Unreleased.
    pub date: Option<String>,
    /// The previous release's tag, for compare links.
    pub previous_tag: Option<String>,
    /// How many commits the release holds, listed or not.
    pub commits: usize,
    /// Breaking entries, whatever their type.
    pub breaking: Vec<Entry>,
    /// A breaking commit `exclude-commits` leaves out: not listed, still a major bump.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub breaking_excluded: bool,
    /// The other entries, by section, in the order the sections first appear in
    /// the convention's types.
    pub sections: Vec<Section>,
    /// Merges, exempt and non-conforming commits, when [`Others::List`].
    pub others: Vec<OtherCommit>,
    /// How many conforming commits of each type the release holds, listed or not.
    pub types: BTreeMap<String, usize>,
    /// What was left out, counted.
    pub left_out: LeftOut,
}

/// A Keep a Changelog section (`Added`, `Fixed`, …) with its entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    /// The section's name.
    pub name: String,
    /// Entries, newest first.
    pub entries: Vec<Entry>,
}

/// One changelog entry: a conforming commit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// The full commit id.
    pub commit: String,
    /// Its first [`SHORT_ID_LEN`] hex digits.
    pub short: String,
    /// The type.
    #[serde(rename = "type")]
    pub kind: String,
    /// The scope, if any.
    pub scope: Option<String>,
    /// The subject's summary.
    pub summary: String,
    /// `!` or a `BREAKING CHANGE` trailer.
    pub breaking: bool,
    /// The `BREAKING CHANGE` trailer's text.
    pub breaking_note: Option<String>,
    /// The section its type maps to (`None`: a breaking commit of an unlisted type).
    pub section: Option<String>,
    /// The bullets: what changed where.
    pub changes: Vec<EntryChange>,
}

/// A bullet of an entry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EntryChange {
    /// The verb, e.g. `Add`.
    pub verb: String,
    /// The path (the old path of a move).
    pub path: String,
    /// The new path of a move or rename.
    pub to: Option<String>,
    /// What and why.
    pub what_why: String,
}

/// Why a commit is not an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OtherKind {
    /// A merge (two or more parents).
    Merge,
    /// `Revert "…"` whose reverted commit is in another release.
    Revert,
    /// `fixup!`, `squash!`, `amend!`.
    Fixup,
    /// A release commit titled with a bare version, under `exempt = [… "release"]`.
    Release,
    /// Does not follow the convention.
    NonConforming,
}

/// A commit listed under [`Others::List`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OtherCommit {
    /// The full commit id.
    pub commit: String,
    /// Its first [`SHORT_ID_LEN`] hex digits.
    pub short: String,
    /// Its subject line.
    pub subject: String,
    /// Why it is not an entry.
    pub kind: OtherKind,
    /// For a non-conforming commit, what the spec's grammar finds wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Counts of the commits a release does not list as entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct LeftOut {
    /// Merges.
    pub merges: usize,
    /// Exempt commits other than merges (reverts across releases, fixups).
    pub exempt: usize,
    /// Commits that do not follow the convention.
    pub non_conforming: usize,
    /// Conforming commits of a type the `sections` map does not name (docs, test, …).
    pub unlisted_types: usize,
    /// Commits reverted within the release, and the reverts that cancelled them.
    pub reverted: usize,
    /// Commits `changelog.exclude-commits` leaves out (they still count for the bump).
    #[serde(skip_serializing_if = "is_zero")]
    pub excluded: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `changelog.exclude-commits`, compiled: Python's `re` syntax (fancy-regex's
/// backtracking engine for lookarounds, the `regex` crate's below it), each pattern
/// matched from the start of the message as Python's `re.match` does.
pub struct Exclusions(Vec<fancy_regex::Regex>);

impl Exclusions {
    /// The patterns of `settings`; one that does not compile is skipped (the
    /// convention's reader refuses it, with its file and line, before it gets here).
    pub fn of(settings: &ChangelogSettings) -> Exclusions {
        Exclusions::of_patterns(&settings.exclude_commits)
    }

    /// The patterns `patterns`, as [`Exclusions::of`] compiles them.
    pub fn of_patterns(patterns: &[impl AsRef<str>]) -> Exclusions {
        Exclusions(
            patterns
                .iter()
                .filter_map(|p| compile_exclusion(p.as_ref()).ok())
                .collect(),
        )
    }

    /// Whether a pattern matches `message` at its start. A match that exceeds the
    /// engine's backtracking limit counts as no match: the commit is listed.
    pub fn matches(&self, message: &str) -> bool {
        self.0.iter().any(|r| r.is_match(message).unwrap_or(false))
    }
}

fn compile_exclusion(pattern: &str) -> Result<fancy_regex::Regex, String> {
    fancy_regex::Regex::new(&format!("^(?:{pattern})")).map_err(|e| e.to_string())
}

/// The check the convention's reader runs on each `changelog.exclude-commits` entry.
pub fn check_exclusion(pattern: &str) -> Result<(), String> {
    compile_exclusion(pattern).map(drop)
}

/// The tags that are releases under `settings`: those `ignore-tags` does not match,
/// and, under `prereleases = "collect"`, not a pre-release whose release is tagged
/// too (or is `pending`): that release collects its pre-releases' commits.
pub fn release_tags(
    tags: &[VersionTag],
    settings: &ChangelogSettings,
    pending: Option<&Version>,
) -> Vec<VersionTag> {
    let ignore = settings
        .ignore_tags
        .as_deref()
        .and_then(|p| regex::Regex::new(p).ok());
    let base = |v: &Version| Version::new(v.major, v.minor, v.patch);
    let released: HashSet<Version> = tags
        .iter()
        .map(|t| &t.version)
        .chain(pending)
        .filter(|v| v.pre.is_empty())
        .cloned()
        .collect();
    let collect = settings.prereleases.unwrap_or_default() == Prereleases::Collect;
    tags.iter()
        .filter(|t| !ignore.as_ref().is_some_and(|r| r.is_match(&t.name)))
        .filter(|t| !(collect && !t.version.pre.is_empty() && released.contains(&base(&t.version))))
        .cloned()
        .collect()
}

/// What one commit is, for the changelog.
enum Class {
    Entry(Entry),
    Unlisted(String),
    Other(OtherKind, Option<String>),
}

fn short(id: &ObjectId) -> String {
    let mut s = id.to_string();
    s.truncate(SHORT_ID_LEN);
    s
}

fn subject_of(message: &str) -> &str {
    message.lines().next().unwrap_or("").trim_end()
}

/// The commit a revert names in git's `This reverts commit <id>.` line.
pub fn reverted_commit(message: &str) -> Option<ObjectId> {
    message.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("This reverts commit ")?;
        let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
        ObjectId::from_hex(hex.as_bytes()).ok()
    })
}

/// What the reader makes of one commit: [`rules::verdict`] under [`Policy::Spec`], the
/// exemptions backed by what git stored (`repo`, else `known`: the commits a revert may
/// name), as
/// `jitcommit-check` asks it.
fn classify(
    c: &HistoryCommit,
    conv: &Convention,
    known: &HashSet<ObjectId>,
    repo: Option<&dyn Fn(&str) -> bool>,
) -> Class {
    let is_commit = |hex: &str| match repo {
        Some(is_commit) => is_commit(hex),
        None => ObjectId::from_hex(hex.as_bytes()).is_ok_and(|id| known.contains(&id)),
    };
    let facts = rules::CommitFacts {
        parents: c.parents.len(),
        fixups: true,
        is_commit: &is_commit,
    };
    let Ok(checked) = rules::verdict(
        c.message.as_bytes(),
        Policy::Spec(conv),
        &rules::Cleanup::Stored,
        |text, conv| rules::stored_exemption(text, conv, &facts),
        |_| Ok::<Option<rules::ChangedPaths>, std::convert::Infallible>(None),
    );
    if let Some(kind) = checked.exempt {
        return Class::Other(
            match kind {
                Exemption::Merge => OtherKind::Merge,
                Exemption::Revert => OtherKind::Revert,
                Exemption::Fixup | Exemption::Squash | Exemption::Amend => OtherKind::Fixup,
                Exemption::Release => OtherKind::Release,
            },
            None,
        );
    }
    let message = match checked.message {
        Some(m) if checked.findings.is_empty() => m,
        _ => {
            let reason = checked.findings.first().map(rules::Finding::message);
            return Class::Other(OtherKind::NonConforming, reason);
        }
    };
    if c.parents.len() > 1 {
        return Class::Other(OtherKind::Merge, None);
    }
    let note = message
        .trailers
        .iter()
        .find(|t| t.token == "BREAKING CHANGE" || t.token == "BREAKING-CHANGE")
        .map(|t| t.value.clone());
    let breaking = message.subject.breaking || note.is_some();
    let section = conv.sections.get(&message.subject.kind).cloned();
    if section.is_none() && !breaking {
        return Class::Unlisted(message.subject.kind);
    }
    let changes = message
        .bullets
        .into_iter()
        .map(|b| {
            let (path, to) = match b.target {
                Target::Path(p) => (p, None),
                Target::Move { from, to } => (from, Some(to)),
            };
            EntryChange {
                verb: b.verb,
                path,
                to,
                what_why: b.what_why,
            }
        })
        .collect();
    Class::Entry(Entry {
        commit: c.id.to_string(),
        short: short(&c.id),
        kind: message.subject.kind,
        scope: message.subject.scope,
        summary: message.subject.summary,
        breaking,
        breaking_note: note,
        section,
        changes,
    })
}

/// Assigns every commit of `commits` (newest first) to a release: index into `order`
/// (tags, oldest version first), or `order.len()` for Unreleased. A tag claims every
/// ancestor no older tag has claimed, as `git rev-list <tag> ^<older tags>` does.
fn assign(commits: &[HistoryCommit], order: &[&VersionTag]) -> Vec<usize> {
    let index: HashMap<ObjectId, usize> =
        commits.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let unreleased = order.len();
    let mut owner = vec![usize::MAX; commits.len()];
    let mut stack = Vec::new();
    for (r, tag) in order.iter().enumerate() {
        if let Some(&start) = index.get(&tag.commit) {
            stack.push(start);
        }
        while let Some(i) = stack.pop() {
            if owner[i] != usize::MAX {
                continue;
            }
            owner[i] = r;
            for p in &commits[i].parents {
                if let Some(&j) = index.get(p)
                    && owner[j] == usize::MAX
                {
                    stack.push(j);
                }
            }
        }
    }
    for o in &mut owner {
        if *o == usize::MAX {
            *o = unreleased;
        }
    }
    owner
}

/// Which commits of `commits` `tip` reaches (all false when it is not among them).
fn reachable(commits: &[HistoryCommit], tip: ObjectId) -> Vec<bool> {
    let index: HashMap<ObjectId, usize> =
        commits.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut seen = vec![false; commits.len()];
    let mut stack: Vec<usize> = index.get(&tip).copied().into_iter().collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(
            commits[i]
                .parents
                .iter()
                .filter_map(|p| index.get(p).copied()),
        );
    }
    seen
}

/// Builds the releases from `commits` (newest first, as a walk from the tip gives them;
/// parents outside the list are ignored) and the version `tags` among them.
pub fn build(commits: &[HistoryCommit], tags: &[VersionTag], opts: &Options<'_>) -> Changelog {
    let tags = release_tags(
        tags,
        &opts.convention.changelog,
        opts.pending.as_ref().map(|p| &p.version),
    );
    let tags = tags.as_slice();
    // One tag per commit (the highest version), oldest version first.
    let mut order: Vec<&VersionTag> = tags.iter().collect();
    order.sort_by(|a, b| {
        a.commit
            .cmp(&b.commit)
            .then_with(|| b.version.cmp(&a.version))
            .then_with(|| a.name.cmp(&b.name))
    });
    order.dedup_by(|a, b| a.commit == b.commit);
    order.sort_by(|a, b| a.version.cmp(&b.version).then_with(|| a.name.cmp(&b.name)));
    let owner = assign(commits, &order);
    let kept = opts.through.map(|t| reachable(commits, t));
    let known: HashSet<ObjectId> = commits.iter().map(|c| c.id).collect();

    let mut members: Vec<Vec<usize>> = vec![Vec::new(); order.len() + 1];
    for (i, &r) in owner.iter().enumerate() {
        if kept.as_ref().is_none_or(|k| k[i]) {
            members[r].push(i);
        }
    }
    let mut releases = Vec::new();
    // Compiled once for the whole history, not once per release.
    let exclusions = Exclusions::of(&opts.convention.changelog);
    for (r, list) in members.iter().enumerate().rev() {
        let previous_tag = order
            .get(..r.min(order.len()))
            .and_then(|older| older.last())
            .map(|t| t.name.clone());
        let (version, tag, date) = match order.get(r) {
            Some(t) => (
                Some(t.version.to_string()),
                Some(t.name.clone()),
                Some(t.date.clone()),
            ),
            None => match &opts.pending {
                Some(p) => (
                    Some(p.version.to_string()),
                    Some(p.tag.clone()),
                    Some(p.date.clone()),
                ),
                None => (None, None, None),
            },
        };
        if list.is_empty() && tag.is_none() {
            continue;
        }
        let mut release = release_of(commits, list, opts, &known, &exclusions);
        release.version = version;
        release.tag = tag;
        release.date = date;
        release.previous_tag = previous_tag;
        releases.push(release);
    }
    Changelog { releases }
}

/// The entries of the commits at `list` (indices into `commits`, newest first).
fn release_of(
    commits: &[HistoryCommit],
    list: &[usize],
    opts: &Options<'_>,
    known: &HashSet<ObjectId>,
    exclusions: &Exclusions,
) -> Release {
    let conv = opts.convention;
    let in_release: HashMap<ObjectId, usize> = list
        .iter()
        .enumerate()
        .map(|(k, &i)| (commits[i].id, k))
        .collect();
    // Reverts, oldest first: a revert of a live commit of this release cancels both; a
    // revert of a cancelling revert brings the original back.
    let mut cancelled = vec![false; list.len()];
    let mut cancels: HashMap<usize, usize> = HashMap::new();
    for k in (0..list.len()).rev() {
        let c = &commits[list[k]];
        let Some(target) = reverted_commit(&c.message) else {
            continue;
        };
        let Some(&t) = in_release.get(&target) else {
            continue;
        };
        if cancelled[t] {
            if let Some(original) = cancels.remove(&t) {
                cancelled[original] = false;
                cancelled[k] = true;
            }
            continue;
        }
        cancelled[t] = true;
        cancelled[k] = true;
        cancels.insert(k, t);
    }

    let mut left_out = LeftOut::default();
    let mut breaking_excluded = false;
    let mut breaking = Vec::new();
    let mut by_section: HashMap<String, Vec<Entry>> = HashMap::new();
    let mut others = Vec::new();
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    for (k, &i) in list.iter().enumerate() {
        let c = &commits[i];
        if cancelled[k] {
            left_out.reverted += 1;
            continue;
        }
        let class = classify(c, conv, known, opts.is_commit);
        if exclusions.matches(&c.message) {
            // Not listed, still a release's reason (python-semantic-release's rule).
            match &class {
                Class::Entry(e) if e.breaking => breaking_excluded = true,
                _ => {}
            }
            if let Class::Entry(Entry { kind, .. }) | Class::Unlisted(kind) = &class {
                *types.entry(kind.clone()).or_default() += 1;
            }
            left_out.excluded += 1;
            continue;
        }
        match class {
            Class::Entry(e) => {
                *types.entry(e.kind.clone()).or_default() += 1;
                if e.breaking {
                    breaking.push(e);
                } else {
                    let name = e.section.clone().unwrap_or_default();
                    by_section.entry(name).or_default().push(e);
                }
            }
            Class::Unlisted(kind) => {
                *types.entry(kind).or_default() += 1;
                left_out.unlisted_types += 1;
            }
            Class::Other(kind, reason) => {
                match kind {
                    OtherKind::Merge => left_out.merges += 1,
                    OtherKind::NonConforming => left_out.non_conforming += 1,
                    OtherKind::Revert | OtherKind::Fixup | OtherKind::Release => {
                        left_out.exempt += 1
                    }
                }
                if opts.others == Others::List {
                    others.push(OtherCommit {
                        commit: c.id.to_string(),
                        short: short(&c.id),
                        subject: subject_of(&c.message).to_owned(),
                        kind,
                        reason,
                    });
                }
            }
        }
    }
    // Sections in the order their types appear in the convention, then any others.
    let mut names: Vec<String> = Vec::new();
    for ty in conv.types.iter().chain(conv.sections.keys()) {
        if let Some(name) = conv.sections.get(ty)
            && !names.contains(name)
        {
            names.push(name.clone());
        }
    }
    let sections = names
        .into_iter()
        .filter_map(|name| {
            let entries = by_section.remove(&name)?;
            Some(Section { name, entries })
        })
        .collect();
    Release {
        version: None,
        tag: None,
        date: None,
        previous_tag: None,
        commits: list.len(),
        breaking_excluded,
        breaking,
        sections,
        others,
        types,
        left_out,
    }
}
