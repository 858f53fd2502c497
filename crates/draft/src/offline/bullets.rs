//! The bullets: one per path, its verb from the status and its what from the items
//! and hunks the source reading finds; one per directory beyond
//! [`MAX_BULLETS`](super::MAX_BULLETS) paths.

use std::collections::BTreeMap;

use super::source::{added_items, changed_item, defined_name, has_code, hunk_change};
use super::{MAX_BULLETS, WHY_PLACEHOLDER, lossy};
use jitcommit_core::config::Convention;
use jitcommit_core::message::{Bullet, Target};
use jitcommit_core::repo::{ChangeKind, FileDiff, Linguist, StagedState};
use jitcommit_core::rules::coverage::{status_verb, verb};

/// At most this many function names are listed in one bullet.
pub(super) const MAX_NAMES: usize = 3;

pub(super) fn what(f: &FileDiff) -> String {
    if !f.read {
        // A file of a very large change the draft did not read: no counts to give.
        return match f.change.kind {
            ChangeKind::Added => "new file, not read",
            ChangeKind::Deleted => "removed, not read",
            _ => "changed, not read",
        }
        .to_owned();
    }
    if f.submodule {
        return "submodule pointer".to_owned();
    }
    if f.binary {
        return "binary file".to_owned();
    }
    if let Some(l) = f.linguist {
        return stat_only(f, l);
    }
    let list = |names: &[String]| {
        let more = names.len().saturating_sub(MAX_NAMES);
        let mut s = names[..names.len().min(MAX_NAMES)].join(", ");
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        s
    };
    let added = added_items(f, false);
    if f.change.kind == ChangeKind::Added {
        return if added.is_empty() {
            format!("new file, {}", lines(f.added))
        } else {
            format!("new file with {}", list(&added))
        };
    }
    let mut changed: Vec<String> = Vec::new();
    for h in f.hunks.iter().filter(|_| has_code(f)) {
        let adds_one = h.body.lines().any(|l| {
            l.strip_prefix('+')
                .and_then(defined_name)
                .is_some_and(|n| added.contains(&n))
        });
        if adds_one && !h.body.lines().any(|l| l.starts_with('-')) {
            continue;
        }
        if changed_item(h).is_some_and(|n| added.contains(&n)) {
            continue;
        }
        if let Some(d) = hunk_change(f, h)
            && !changed.contains(&d)
        {
            changed.push(d);
        }
    }
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("new {}", list(&added)));
    }
    if !changed.is_empty() {
        // `changed Settings, get_hooks`, not `changed Settings, changed get_hooks`: the
        // verb once (a draft-quality gate reads the repeated one as a loop).
        let (items, others): (Vec<String>, Vec<String>) =
            changed.into_iter().partition(|d| d.starts_with("changed "));
        let mut changed = others;
        if let Some(first) = items.first() {
            let names: Vec<String> = items
                .iter()
                .map(|d| d.trim_start_matches("changed ").to_owned())
                .collect();
            let folded = if names.len() > 1 {
                format!("changed {}", list(&names))
            } else {
                first.clone()
            };
            changed.insert(0, folded);
        }
        parts.push(list(&changed));
    }
    if !parts.is_empty() {
        return parts.join("; ");
    }
    match f.change.kind {
        ChangeKind::Deleted => format!("{} removed", lines(f.removed)),
        ChangeKind::Renamed | ChangeKind::Copied if f.added + f.removed == 0 => {
            "content unchanged".to_owned()
        }
        _ if f.added + f.removed == 0 => match (f.change.old_mode, f.change.new_mode) {
            (Some(a), Some(b)) if a != b => format!("mode {a:o} → {b:o}"),
            _ => "no content change".to_owned(),
        },
        _ => format!("+{} −{} lines", f.added, f.removed),
    }
}

/// A generated or vendored file's description: its status and line counts, as its stat
/// line in the prompt tells them.
pub(super) fn stat_only(f: &FileDiff, l: Linguist) -> String {
    let word = match l {
        Linguist::Generated => "generated file",
        Linguist::Vendored => "vendored file",
    };
    match f.change.kind {
        ChangeKind::Added => format!("new {word}, {}", lines(f.added)),
        ChangeKind::Deleted => format!("{word}, {} removed", lines(f.removed)),
        _ if f.added + f.removed == 0 => format!("{word}, no content change"),
        _ => format!("{word}, +{} −{} lines", f.added, f.removed),
    }
}

pub(super) fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}

pub(super) fn file_bullet(f: &FileDiff, conv: &Convention) -> Bullet {
    let path = lossy(&f.change.path);
    let target = match (&f.change.kind, &f.change.old_path) {
        (ChangeKind::Renamed, Some(old)) => Target::Move {
            from: lossy(old),
            to: path,
        },
        _ => Target::Path(path),
    };
    let mut what = what(f);
    if let (ChangeKind::Copied, Some(old)) = (&f.change.kind, &f.change.old_path) {
        what = format!("copied from {}, {what}", lossy(old));
    }
    Bullet {
        verb: status_verb(conv, f.change.kind),
        target,
        what_why: format!("{what}; {WHY_PLACEHOLDER}"),
    }
}

/// One bullet per directory, at the deepest level whose directory count fits
/// [`MAX_BULLETS`] (level 1 when none does).
pub(super) fn directory_bullets(state: &StagedState, conv: &Convention) -> Vec<Bullet> {
    let paths: Vec<String> = state.files.iter().map(|f| lossy(&f.change.path)).collect();
    let depth_max = paths
        .iter()
        .map(|p| p.matches('/').count())
        .max()
        .unwrap_or(0)
        .max(1);
    let key = |p: &str, depth: usize| -> String {
        let segs: Vec<&str> = p.split('/').collect();
        let dir_len = segs.len() - 1;
        if dir_len == 0 {
            p.to_owned()
        } else {
            segs[..depth.min(dir_len)].join("/")
        }
    };
    let mut depth = 1;
    for d in (1..=depth_max).rev() {
        let mut keys: Vec<String> = paths.iter().map(|p| key(p, d)).collect();
        keys.sort();
        keys.dedup();
        if keys.len() <= MAX_BULLETS {
            depth = d;
            break;
        }
    }
    let mut groups: BTreeMap<String, Vec<&FileDiff>> = BTreeMap::new();
    for (f, p) in state.files.iter().zip(&paths) {
        groups.entry(key(p, depth)).or_default().push(f);
    }
    groups
        .into_iter()
        .map(|(dir, files)| {
            if let [single] = files.as_slice() {
                return file_bullet(single, conv);
            }
            let kinds: Vec<ChangeKind> = files.iter().map(|f| f.change.kind).collect();
            let v = if kinds.iter().all(|k| *k == ChangeKind::Added) {
                verb(conv, &["Add", "Update"])
            } else if kinds.iter().all(|k| *k == ChangeKind::Deleted) {
                verb(conv, &["Remove", "Update"])
            } else {
                verb(conv, &["Update", "Refactor"])
            };
            Bullet {
                verb: v,
                target: Target::Path(dir),
                what_why: format!("{}; {WHY_PLACEHOLDER}", tally(&kinds)),
            }
        })
        .collect()
}

/// `12 files (10 added, 2 modified)`.
pub(super) fn tally(kinds: &[ChangeKind]) -> String {
    let mut counts: BTreeMap<ChangeKind, usize> = BTreeMap::new();
    for k in kinds {
        *counts.entry(*k).or_default() += 1;
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(k, n)| {
            let word = match k {
                ChangeKind::Added => "added",
                ChangeKind::Modified => "modified",
                ChangeKind::Deleted => "removed",
                ChangeKind::Renamed => "renamed",
                ChangeKind::Copied => "copied",
                ChangeKind::TypeChanged => "type changed",
            };
            format!("{n} {word}")
        })
        .collect();
    format!("{} files ({})", kinds.len(), parts.join(", "))
}
