//! Path rules: each bullet's path is repo-relative and, with `trace-paths`, one of
//! the commit's changed paths or a directory holding one. [`ChangedPaths`] is the
//! set those paths are traced against.

use std::collections::BTreeMap;
use std::fmt;

use super::{Ctx, Finding, RuleInfo, edit_distance};
use crate::message::Spanned;
use crate::repo::{Change, ChangeKind};

#[doc = include_str!("docs/bullet-path.md")]
pub const BULLET_PATH: RuleInfo = RuleInfo {
    id: "bullet-path",
    summary: "each bullet's path is a changed path or a directory holding one",
    doc: include_str!("docs/bullet-path.md"),
};

/// How many bullet-path findings get a "nearest changed paths" hint; past that the
/// hint is generic, so a huge message cannot make checking slow.
const NEAREST_HINTS: usize = 64;

/// What happened at one path, as the verb/status rule compares it: a rename or copy
/// shows at both its paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// The path is new.
    Added,
    /// The path's content (or type) changed.
    Modified,
    /// The path is gone.
    Deleted,
    /// The path was renamed away.
    RenamedFrom,
    /// The path is a rename's destination.
    RenamedTo,
    /// The path was copied (it did not change itself).
    CopiedFrom,
    /// The path is a copy's destination.
    CopiedTo,
}

impl Side {
    /// How a message names it: `added`, `renamed away` …
    pub fn describe(self) -> &'static str {
        match self {
            Side::Added => "added",
            Side::Modified => "modified",
            Side::Deleted => "deleted",
            Side::RenamedFrom => "renamed away",
            Side::RenamedTo => "a rename's destination",
            Side::CopiedFrom => "only copied",
            Side::CopiedTo => "a copy",
        }
    }
}

/// The paths a commit changes, as bullets may name them: every new path, and the
/// old path of each rename or copy (deleted paths are in `path`). Built from
/// [`Change`]s it also knows each path's status and the changes themselves, which
/// `bullet-coverage` and `bullet-status` need; built from plain paths it does not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedPaths {
    files: BTreeMap<String, Vec<Side>>,
    /// Each change as (path, old path, status); `None` when built from plain paths.
    changes: Option<Vec<(String, Option<String>, ChangeKind)>>,
}

impl ChangedPaths {
    /// The set from the staged changes (or a commit's diff against its first parent).
    /// Non-UTF-8 path bytes are replaced lossily, as a message cannot name them anyway.
    pub fn new(changes: &[Change]) -> Self {
        let mut files: BTreeMap<String, Vec<Side>> = BTreeMap::new();
        let mut list = Vec::with_capacity(changes.len());
        for c in changes {
            let path = String::from_utf8_lossy(&c.path).into_owned();
            let (new_side, old_side) = match c.kind {
                ChangeKind::Added => (Side::Added, None),
                ChangeKind::Deleted => (Side::Deleted, None),
                ChangeKind::Modified | ChangeKind::TypeChanged => (Side::Modified, None),
                ChangeKind::Renamed => (Side::RenamedTo, Some(Side::RenamedFrom)),
                ChangeKind::Copied => (Side::CopiedTo, Some(Side::CopiedFrom)),
            };
            files.entry(path.clone()).or_default().push(new_side);
            let old = c
                .old_path
                .as_ref()
                .map(|o| String::from_utf8_lossy(o).into_owned());
            if let Some(old) = &old {
                files
                    .entry(old.clone())
                    .or_default()
                    .push(old_side.unwrap_or(Side::Modified));
            }
            list.push((path, old, c.kind));
        }
        ChangedPaths {
            files,
            changes: Some(list),
        }
    }

    /// The set from plain path strings (tests, callers that have no [`Change`]).
    pub fn from_paths<I, S>(paths: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ChangedPaths {
            files: paths.into_iter().map(|p| (p.into(), Vec::new())).collect(),
            changes: None,
        }
    }

    /// Each change as (path, old path of a rename or copy, status), when the set was
    /// built from changes.
    pub(crate) fn changes(&self) -> Option<&[(String, Option<String>, ChangeKind)]> {
        self.changes.as_deref()
    }

    /// Every changed file that `path` names (itself, or the files under the directory)
    /// with what happened at it.
    pub(crate) fn under<'a>(&'a self, path: &str) -> Vec<(&'a str, &'a [Side])> {
        let p = normalise(path);
        if p.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Some((f, s)) = self.files.get_key_value(p) {
            out.push((f.as_str(), s.as_slice()));
        }
        let dir = format!("{p}/");
        for (f, s) in self.files.range(dir.clone()..) {
            if !f.starts_with(&dir) {
                break;
            }
            out.push((f.as_str(), s.as_slice()));
        }
        out
    }

    /// No changed path at all.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// `path` (with an optional leading `./` and trailing `/`) is a changed file or
    /// a directory holding one.
    pub fn contains(&self, path: &str) -> bool {
        let p = normalise(path);
        if p.is_empty() {
            return false;
        }
        if self.files.contains_key(p) {
            return true;
        }
        let dir = format!("{p}/");
        self.files
            .range(dir.clone()..)
            .next()
            .is_some_and(|(f, _)| f.starts_with(&dir))
    }

    /// Up to `n` changed files nearest to `path`, nearest first.
    pub fn nearest(&self, path: &str, n: usize) -> Vec<&str> {
        let p = normalise(path);
        let base = p.rsplit('/').next().unwrap_or(p);
        let mut scored: Vec<(usize, &str)> = self
            .files
            .keys()
            .take(10_000)
            .map(|f| {
                let fbase = f.rsplit('/').next().unwrap_or(f);
                let d = edit_distance(p, f).min(edit_distance(base, fbase).saturating_add(1));
                (d, f.as_str())
            })
            .collect();
        scored.sort();
        scored.into_iter().take(n).map(|(_, f)| f).collect()
    }
}

/// The paths `bullet-path` traces in a parsed message, as [`ChangedPaths::contains`]
/// compares them (trimmed, without `./` and a trailing `/`): every bullet's path and
/// rename target that is non-empty and repo-relative. A set holding exactly these makes
/// every bullet pass, so a caller that proves each one changed needs no full diff. A
/// path that normalises to nothing (`./`) comes as `""`, which no probe can prove.
pub fn traced_paths(parsed: &crate::message::Parsed) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for b in parsed.bullets() {
        for p in [&b.path, &b.to].into_iter().flatten() {
            if !p.value.is_empty() && !not_relative(&p.value) {
                out.push(normalise(&p.value).to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

pub(crate) fn normalise(path: &str) -> &str {
    let mut p = path.trim();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_end_matches('/')
}

pub(crate) fn not_relative(path: &str) -> bool {
    path.starts_with('/') || path.split('/').any(|seg| seg == "..")
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    if ctx.conv.body == crate::config::BodyPolicy::Free {
        return;
    }
    let tracing = if ctx.conv.trace_paths {
        ctx.changed
    } else {
        None
    };
    let mut hinted = 0;
    for b in ctx.parsed.bullets() {
        for p in [&b.path, &b.to].into_iter().flatten() {
            check_one(p, tracing, &mut hinted, out);
        }
    }
}

/// `bullet-path`: a bullet's path is not repo-relative, or not among the commit's
/// changed paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BulletPath {
    /// Absolute, or with a `..` in it.
    NotRelative {
        /// The path as written.
        path: String,
    },
    /// Not a changed path nor a directory holding one.
    NotChanged {
        /// The path as written.
        path: String,
        /// The changed files nearest to it, nearest first; `None` past the first
        /// 64 such findings of a message, which are not measured.
        nearest: Option<Vec<String>>,
    },
    /// The commit changes no path at all.
    NothingChanged {
        /// The path as written.
        path: String,
    },
}

impl fmt::Display for BulletPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BulletPath::NotRelative { path } => {
                write!(f, "\"{path}\" is not a repo-relative path")
            }
            BulletPath::NotChanged { path, .. } | BulletPath::NothingChanged { path } => {
                write!(f, "\"{path}\" is not among the commit's changed paths")
            }
        }
    }
}

impl BulletPath {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            BulletPath::NotRelative { .. } => {
                "name the path relative to the repository root, e.g. \"src/main.rs\"".into()
            }
            BulletPath::NothingChanged { .. } => {
                "this commit changes no path; drop the bullet".to_string()
            }
            BulletPath::NotChanged {
                nearest: Some(near),
                ..
            } => {
                let near = near
                    .iter()
                    .map(|f| format!("\"{f}\""))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("name a changed path or its directory; nearest: {near}")
            }
            BulletPath::NotChanged { nearest: None, .. } => {
                "name a changed path or its directory".to_string()
            }
        })
    }

    /// The path the bullet names that the commit does not change, as changed paths
    /// are compared (without `./` and a trailing `/`); `None` for a path that is not
    /// repo-relative or normalises to nothing.
    pub fn unchanged(&self) -> Option<&str> {
        match self {
            BulletPath::NotChanged { path, .. } | BulletPath::NothingChanged { path } => {
                Some(normalise(path)).filter(|p| !p.is_empty())
            }
            BulletPath::NotRelative { .. } => None,
        }
    }
}

fn check_one(
    p: &Spanned<String>,
    tracing: Option<&ChangedPaths>,
    hinted: &mut usize,
    out: &mut Vec<Finding>,
) {
    if p.value.is_empty() {
        return;
    }
    if not_relative(&p.value) {
        let path = p.value.clone();
        out.push(Finding::new(p.pos, BulletPath::NotRelative { path }));
        return;
    }
    let Some(changed) = tracing else { return };
    if changed.contains(&p.value) {
        return;
    }
    // Only a bullet with a finding copies its path.
    let path = p.value.clone();
    let problem = if changed.is_empty() {
        BulletPath::NothingChanged { path }
    } else if *hinted < NEAREST_HINTS {
        *hinted += 1;
        let nearest = changed.nearest(&p.value, 3);
        BulletPath::NotChanged {
            path,
            nearest: Some(nearest.into_iter().map(str::to_owned).collect()),
        }
    } else {
        BulletPath::NotChanged {
            path,
            nearest: None,
        }
    };
    out.push(Finding::new(p.pos, problem));
}
