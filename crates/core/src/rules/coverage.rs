//! Coverage rules, on with the convention's `coverage = true`: every changed path is
//! named by a bullet, itself or through its directory (`bullet-coverage`), and a verb
//! that says what happened to its path (`Add`, `Remove`, `Rename`, `Move … → …`) agrees
//! with the path's status (`bullet-status`). Both need the statuses, so they run only against a
//! [`ChangedPaths`] built from changes.

use std::collections::BTreeSet;
use std::fmt;

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
pub enum Claim {
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

    /// How a message says it: `new`, `removed`, `renamed`.
    pub fn word(self) -> &'static str {
        match self {
            Claim::Added => "new",
            Claim::Removed => "removed",
            Claim::Renamed => "renamed",
        }
    }
}

/// `bullet-coverage`: changed paths no bullet names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulletCoverage {
    /// Every changed path no bullet names, itself or through its directory.
    pub paths: Vec<String>,
    /// Bullets that would name the first three, for the hint.
    pub examples: Vec<Example>,
}

/// A bullet that names one uncovered path, as the hint suggests it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The verb its status takes under the convention ([`status_verb`]).
    pub verb: String,
    /// The path.
    pub path: String,
    /// The path it was renamed from, for a rename.
    pub renamed_from: Option<String>,
}

impl fmt::Display for BulletCoverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.paths.len();
        write!(
            f,
            "{n} changed path{} named by no bullet: {}",
            if n == 1 { " is" } else { "s are" },
            super::list(&self.paths, NAMED)
        )
    }
}

impl BulletCoverage {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        let example = self
            .examples
            .iter()
            .map(|e| match &e.renamed_from {
                Some(old) => format!("\"- {}: {old} → {} — …\"", e.verb, e.path),
                None => format!("\"- {}: {} — …\"", e.verb, e.path),
            })
            .collect::<Vec<_>>()
            .join(", ");
        Some(format!(
            "add a bullet for each path or its directory, e.g. {example}"
        ))
    }
}

/// `bullet-status`: a bullet's verb says its path is new, removed or renamed, and it
/// is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulletStatus {
    /// The verb as written.
    pub verb: String,
    /// What the verb says.
    pub claim: Claim,
    /// The bullet's path, normalised (a file, or a directory holding `file`).
    pub path: String,
    /// The changed file the claim does not fit.
    pub file: String,
    /// What happened to it.
    pub actual: Vec<Side>,
}

impl fmt::Display for BulletStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = self
            .actual
            .iter()
            .map(|s| s.describe())
            .collect::<Vec<_>>()
            .join(" and ");
        let (verb, file, claim) = (&self.verb, &self.file, self.claim.word());
        if self.path == self.file {
            write!(f, "\"{verb}\" says {file} is {claim}, but it is {what}")
        } else {
            write!(
                f,
                "\"{verb}\" says every changed path under {} is {claim}, but {file} is {what}",
                self.path
            )
        }
    }
}

impl BulletStatus {
    /// How to fix it: the verb that fits what happened.
    pub fn hint(&self) -> Option<String> {
        let right = match self.actual.first() {
            Some(Side::Added | Side::CopiedTo) => "Add",
            Some(Side::Deleted) => "Remove",
            Some(Side::RenamedFrom | Side::RenamedTo) => "Rename",
            _ => "Update",
        };
        Some(format!(
            "use a verb that fits the change (e.g. \"{right}\"), or give that path its own bullet"
        ))
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
    let examples = uncovered
        .iter()
        .take(3)
        .map(|(path, old, kind)| Example {
            verb: status_verb(ctx.conv, *kind),
            path: path.clone(),
            renamed_from: old.clone().filter(|_| *kind == ChangeKind::Renamed),
        })
        .collect();
    out.push(Finding::new(
        last.unwrap_or(Pos::new(1, 1)),
        BulletCoverage {
            paths: uncovered.iter().map(|(p, _, _)| p.clone()).collect(),
            examples,
        },
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
        out.push(Finding::new(
            verb.pos,
            BulletStatus {
                verb: verb.value.clone(),
                claim,
                path: normalise(&p.value).to_owned(),
                file: (*file).to_owned(),
                actual: got.to_vec(),
            },
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
