//! Coverage rules, on with the convention's `coverage = true`: every changed path is
//! named by a bullet, itself or through its directory (`bullet-coverage`), and a verb
//! that says what happened to its path (`Add`, `Remove`, `Rename`, `Move … → …`) agrees
//! with the path's status (`bullet-status`). Both need the statuses, so they run only against a
//! [`ChangedPaths`] built from changes.

use std::collections::BTreeSet;

use super::paths::{Side, normalise, not_relative};
use super::{ChangedPaths, Ctx, Finding, RuleInfo};
use crate::config::Convention;
use crate::message::{ParsedBullet, Pos, Spanned};
use crate::repo::ChangeKind;

#[doc = include_str!("docs/bullet-coverage.md")]
pub const BULLET_COVERAGE: RuleInfo = RuleInfo {
    id: "bullet-coverage",
    summary: "every changed path is named by a bullet, itself or through its directory",
    doc: include_str!("docs/bullet-coverage.md"),
};

#[doc = include_str!("docs/bullet-status.md")]
pub const BULLET_STATUS: RuleInfo = RuleInfo {
    id: "bullet-status",
    summary: "a bullet's verb agrees with its path's status (Add, Remove, Rename)",
    doc: include_str!("docs/bullet-status.md"),
};

/// How many uncovered paths one finding names.
const NAMED: usize = 10;

/// What a verb says about its path, when it says anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// `Add`: the path is new.
    Added,
    /// `Remove`: the path is gone.
    Removed,
    /// `Rename`/`Move` with one path: it is one side of a rename.
    Renamed,
}

impl Claim {
    fn of(verb: &str) -> Option<Claim> {
        match verb.to_ascii_lowercase().as_str() {
            "add" => Some(Claim::Added),
            "remove" | "delete" => Some(Claim::Removed),
            "rename" => Some(Claim::Renamed),
            _ => None,
        }
    }

    fn fits(self, side: Side) -> bool {
        match self {
            // A rename's destination and a copy are new at their path.
            Claim::Added => matches!(side, Side::Added | Side::RenamedTo | Side::CopiedTo),
            Claim::Removed => matches!(side, Side::Deleted | Side::RenamedFrom),
            // Without rename detection a rename is a deletion and an addition.
            Claim::Renamed => matches!(
                side,
                Side::Added | Side::Deleted | Side::RenamedFrom | Side::RenamedTo
            ),
        }
    }

    fn word(self) -> &'static str {
        match self {
            Claim::Added => "new",
            Claim::Removed => "removed",
            Claim::Renamed => "renamed",
        }
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    if !ctx.conv.coverage || ctx.conv.body == crate::config::BodyPolicy::Free {
        return;
    }
    let Some(changed) = ctx.changed else { return };
    let Some(changes) = changed.changes() else {
        return;
    };
    let mut named: BTreeSet<&str> = BTreeSet::new();
    let mut last = None;
    for b in ctx.parsed.bullets() {
        last = Some(b.pos);
        for p in [&b.path, &b.to].into_iter().flatten() {
            let n = normalise(&p.value);
            if !n.is_empty() && !not_relative(n) {
                named.insert(n);
            }
        }
        status(b, changed, out);
    }
    let covered = |path: &str| {
        let mut p = path;
        loop {
            if named.contains(p) {
                return true;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return false,
            }
        }
    };
    let uncovered: Vec<&(String, Option<String>, ChangeKind)> = changes
        .iter()
        .filter(|(path, old, _)| !covered(path) && !old.as_deref().is_some_and(covered))
        .collect();
    if uncovered.is_empty() {
        return;
    }
    let names: Vec<String> = uncovered.iter().map(|(p, _, _)| p.clone()).collect();
    let example = uncovered
        .iter()
        .take(3)
        .map(|(path, old, kind)| {
            let verb = status_verb(ctx.conv, *kind);
            match old {
                Some(old) if *kind == ChangeKind::Renamed => {
                    format!("\"- {verb}: {old} → {path} — …\"")
                }
                _ => format!("\"- {verb}: {path} — …\""),
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let n = uncovered.len();
    out.push(Finding::new(
        &BULLET_COVERAGE,
        last.unwrap_or(Pos::new(1, 1)),
        format!(
            "{n} changed path{} named by no bullet: {}",
            if n == 1 { " is" } else { "s are" },
            super::list(&names, NAMED)
        ),
        Some(format!(
            "add a bullet for each path or its directory, e.g. {example}"
        )),
    ));
}

/// `bullet-status` for one bullet.
fn status(b: &ParsedBullet, changed: &ChangedPaths, out: &mut Vec<Finding>) {
    let Some(verb) = &b.verb else { return };
    let lower = verb.value.to_ascii_lowercase();
    let sides: Vec<(&Spanned<String>, Claim)> = match (&b.path, &b.to) {
        (Some(from), Some(to)) if matches!(lower.as_str(), "rename" | "move") => {
            vec![(from, Claim::Removed), (to, Claim::Added)]
        }
        (Some(p), None) => match Claim::of(&lower) {
            Some(c) => vec![(p, c)],
            None => return,
        },
        _ => return,
    };
    for (p, claim) in sides {
        if p.value.is_empty() || not_relative(&p.value) {
            continue;
        }
        let files = changed.under(&p.value);
        // A path the commit does not change is bullet-path's finding, not this one.
        let relevant: Vec<(&str, &[Side])> = files
            .into_iter()
            .filter(|(_, s)| s.iter().any(|s| *s != Side::CopiedFrom))
            .collect();
        let Some((file, got)) = relevant
            .iter()
            .find(|(_, s)| !s.iter().any(|s| claim.fits(*s)))
        else {
            continue;
        };
        let what = got
            .iter()
            .map(|s| s.describe())
            .collect::<Vec<_>>()
            .join(" and ");
        let is_file = normalise(&p.value) == *file;
        let message = if is_file {
            format!(
                "\"{}\" says {file} is {}, but it is {what}",
                verb.value,
                claim.word()
            )
        } else {
            format!(
                "\"{}\" says every changed path under {} is {}, but {file} is {what}",
                verb.value,
                normalise(&p.value),
                claim.word()
            )
        };
        let right = match got.first() {
            Some(Side::Added | Side::CopiedTo) => "Add",
            Some(Side::Deleted) => "Remove",
            Some(Side::RenamedFrom | Side::RenamedTo) => "Rename",
            _ => "Update",
        };
        out.push(Finding::new(
            &BULLET_STATUS,
            verb.pos,
            message,
            Some(format!(
                "use a verb that fits the change (e.g. \"{right}\"), or give that path its own bullet"
            )),
        ));
    }
}

/// The first verb of `preferred` the convention allows, else its first verb (the
/// offline draft words its bullets with it too).
pub fn verb(conv: &Convention, preferred: &[&str]) -> String {
    preferred
        .iter()
        .find(|v| conv.verbs.iter().any(|a| a == *v))
        .map(|v| (*v).to_owned())
        .or_else(|| conv.verbs.first().cloned())
        .unwrap_or_else(|| preferred.first().copied().unwrap_or("Update").to_owned())
}

/// The verb a bullet for a path with status `kind` takes under `conv`.
pub fn status_verb(conv: &Convention, kind: ChangeKind) -> String {
    verb(conv, status_verbs(kind))
}

fn status_verbs(kind: ChangeKind) -> &'static [&'static str] {
    match kind {
        ChangeKind::Added | ChangeKind::Copied => &["Add", "Update"],
        ChangeKind::Deleted => &["Remove", "Update"],
        ChangeKind::Renamed => &["Rename", "Move", "Update"],
        ChangeKind::Modified | ChangeKind::TypeChanged => &["Update", "Fix", "Refactor"],
    }
}
