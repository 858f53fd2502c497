//! Path rules: each bullet's path is repo-relative and, with `trace-paths`, one of
//! the commit's changed paths or a directory holding one. [`ChangedPaths`] is the
//! set those paths are traced against.

use std::collections::BTreeSet;

use super::{Ctx, Finding, RuleInfo, edit_distance};
use crate::message::Spanned;
use crate::repo::Change;

#[doc = include_str!("docs/bullet-path.md")]
pub const BULLET_PATH: RuleInfo = RuleInfo {
    id: "bullet-path",
    summary: "each bullet's path is a changed path or a directory holding one",
    doc: include_str!("docs/bullet-path.md"),
};

/// How many bullet-path findings get a "nearest changed paths" hint; past that the
/// hint is generic, so a huge message cannot make checking slow.
const NEAREST_HINTS: usize = 64;

/// The paths a commit changes, as bullets may name them: every new path, and the
/// old path of each rename or copy (deleted paths are in `path`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedPaths {
    files: BTreeSet<String>,
}

impl ChangedPaths {
    /// The set from the staged changes (or a commit's diff against its first parent).
    /// Non-UTF-8 path bytes are replaced lossily, as a message cannot name them anyway.
    pub fn new(changes: &[Change]) -> Self {
        let mut files = BTreeSet::new();
        for c in changes {
            files.insert(String::from_utf8_lossy(&c.path).into_owned());
            if let Some(old) = &c.old_path {
                files.insert(String::from_utf8_lossy(old).into_owned());
            }
        }
        ChangedPaths { files }
    }

    /// The set from plain path strings (tests, callers that have no [`Change`]).
    pub fn from_paths<I, S>(paths: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ChangedPaths {
            files: paths.into_iter().map(Into::into).collect(),
        }
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
        if self.files.contains(p) {
            return true;
        }
        let dir = format!("{p}/");
        self.files
            .range(dir.clone()..)
            .next()
            .is_some_and(|f| f.starts_with(&dir))
    }

    /// Up to `n` changed files nearest to `path`, nearest first.
    pub fn nearest(&self, path: &str, n: usize) -> Vec<&str> {
        let p = normalise(path);
        let base = p.rsplit('/').next().unwrap_or(p);
        let mut scored: Vec<(usize, &str)> = self
            .files
            .iter()
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

fn normalise(path: &str) -> &str {
    let mut p = path.trim();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_end_matches('/')
}

fn not_relative(path: &str) -> bool {
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
        out.push(Finding::new(
            &BULLET_PATH,
            p.pos,
            format!("\"{}\" is not a repo-relative path", p.value),
            Some("name the path relative to the repository root, e.g. \"src/main.rs\"".into()),
        ));
        return;
    }
    let Some(changed) = tracing else { return };
    if changed.contains(&p.value) {
        return;
    }
    let hint = if changed.is_empty() {
        "this commit changes no path; drop the bullet".to_string()
    } else if *hinted < NEAREST_HINTS {
        *hinted += 1;
        let near = changed
            .nearest(&p.value, 3)
            .iter()
            .map(|f| format!("\"{f}\""))
            .collect::<Vec<_>>()
            .join(", ");
        format!("name a changed path or its directory; nearest: {near}")
    } else {
        "name a changed path or its directory".to_string()
    };
    out.push(Finding::new(
        &BULLET_PATH,
        p.pos,
        format!("\"{}\" is not among the commit's changed paths", p.value),
        Some(hint),
    ));
}
