//! How a history fits a convention (docs/check.md, "Before the project adopts a
//! convention"): what the newest commits of a history hold at the Conventional Commits
//! level (their types, scopes, bodies, subject lengths), and the convention that fits
//! them. `jitcommit init` proposes it; with no convention file, the gates hold new
//! commits to it, read from the history as it is before the commit (the commit-msg
//! hook: HEAD; a server: the ref's tip before the push), so a commit written the way the
//! project's last ones were is accepted from the first hour on.

use std::collections::BTreeMap;

use crate::config::{BodyPolicy, Convention, Exemption, Loaded, Origin};
use crate::repo::{ObjectId, Repo, RepoError};
use crate::rules::{self, Policy};

/// How many of the newest commits are read.
pub const LAST: usize = 500;

/// The fewest commits a history must hold for the gates to fit the built-in convention
/// to it: a handful of commits says little about a house style, and a new project
/// starts with the tool's own (docs/check.md, "Before the project adopts a
/// convention").
pub const FIT_MIN: usize = 20;

/// What the newest commits of a history hold, at the spec's level.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Observed {
    /// Commits read.
    pub read: usize,
    /// Exempt (merges, reverts, fixups).
    pub exempt: usize,
    /// Accepted by the Conventional Commits grammar (exempt ones included).
    pub spec: usize,
    /// Types used by the commits the grammar accepts, with counts.
    pub types: BTreeMap<String, usize>,
    /// Scopes used, with counts.
    pub scopes: BTreeMap<String, usize>,
    /// Accepted commits with a prose body and no bullet.
    pub prose_bodies: usize,
    /// Accepted commits with bullets.
    pub bullet_bodies: usize,
    /// Accepted commits with a subject and nothing else.
    pub subject_only: usize,
    /// The longest subject of an accepted commit, in chars.
    pub longest_subject: usize,
    /// Accepted commits whose summary ends with a period.
    pub periods: usize,
    /// Commits titled with a bare version (`v21.2.2`) that the convention does not
    /// exempt: release commits lerna and `npm version` write.
    pub release_subjects: usize,
}

impl Observed {
    /// Adds the stored commit message `raw` (with `parents` parents) as `conv` reads it
    /// at the spec's level. Returns whether it was exempt.
    pub fn add(
        &mut self,
        raw: &[u8],
        parents: usize,
        conv: &Convention,
        is_commit: &dyn Fn(&str) -> bool,
    ) -> bool {
        self.read += 1;
        let facts = rules::CommitFacts {
            parents,
            fixups: true,
            is_commit,
        };
        let Ok(spec) = rules::verdict(
            raw,
            Policy::Spec(conv),
            &rules::Cleanup::Stored,
            |text, conv| rules::stored_exemption(text, conv, &facts),
            |_| Ok::<Option<rules::ChangedPaths>, std::convert::Infallible>(None),
        );
        if spec.exempt.is_some() {
            self.exempt += 1;
            self.spec += 1;
            return true;
        }
        let accepted = spec.accepted();
        let Some(m) = spec.message.filter(|_| accepted) else {
            let text = String::from_utf8_lossy(raw);
            self.release_subjects +=
                usize::from(rules::exemption_kind(&text) == Some(Exemption::Release));
            return false;
        };
        self.spec += 1;
        *self.types.entry(m.subject.kind.clone()).or_default() += 1;
        if let Some(s) = &m.subject.scope {
            *self.scopes.entry(s.clone()).or_default() += 1;
        }
        if !m.bullets.is_empty() {
            self.bullet_bodies += 1;
        } else if !m.prose.is_empty() {
            self.prose_bodies += 1;
        } else {
            self.subject_only += 1;
        }
        let subject = spec.cleaned.lines().next().unwrap_or("");
        self.longest_subject = self.longest_subject.max(subject.chars().count());
        self.periods += usize::from(m.subject.summary.ends_with('.'));
        false
    }
}

/// `conv` fitted to what the history holds: its types added, its scopes added when the
/// convention lists scopes, `body = "free"` (no tracing) where bodies are prose (else
/// `"optional"` where commits have no body), the subject length and period rules
/// loosened to what the history does, and `release` exempt where release commits are
/// titled with a bare version. The adoption point is left as it was.
pub fn propose(conv: &Convention, seen: &Observed) -> Convention {
    let mut c = conv.clone();
    for ty in seen.types.keys() {
        if !c.types.is_empty() && !c.types.iter().any(|t| t.eq_ignore_ascii_case(ty)) {
            c.types.push(ty.clone());
        }
    }
    if !c.scopes.is_empty() {
        for s in seen.scopes.keys() {
            if !c.scopes.contains(s) {
                c.scopes.push(s.clone());
            }
        }
    }
    if seen.prose_bodies > 0 {
        c.body = BodyPolicy::Free;
        c.trace_paths = false;
        c.coverage = false;
    } else if seen.subject_only > 0 && c.body == BodyPolicy::Required {
        c.body = BodyPolicy::Optional;
    }
    if c.subject_max > 0 && seen.longest_subject > c.subject_max {
        c.subject_max = seen
            .longest_subject
            .div_ceil(10)
            .saturating_mul(10)
            .min(1000);
    }
    if seen.periods > 0 {
        c.subject_period = false;
    }
    if seen.release_subjects > 0 && !c.exempt.contains(&Exemption::Release) {
        c.exempt.push(Exemption::Release);
    }
    c
}

/// The newest [`LAST`] commits of `tip`'s history read at the spec's level under
/// `conv` (commits of `skip` are passed over: a range being checked), and `conv`
/// fitted to them ([`propose`]). With no commit read, `conv` as it is.
pub fn fitted(
    repo: &Repo,
    tip: ObjectId,
    skip: &[ObjectId],
    conv: &Convention,
) -> Result<(Convention, Observed), RepoError> {
    let mut seen = Observed::default();
    let is_commit = |hex: &str| repo.is_commit(hex);
    let skip: std::collections::HashSet<ObjectId> = skip.iter().copied().collect();
    for (_, raw, parents) in repo.newest_messages(tip, LAST, &skip)? {
        seen.add(&raw, parents, conv, &is_commit);
    }
    Ok((propose(conv, &seen), seen))
}

/// The convention the gates hold a new commit to: `loaded` as it is when a file states
/// it; with none (the built-in defaults), the built-in defaults fitted to the newest
/// commits of `tip`'s history ([`fitted`]), `tip` being the history before the commit
/// checked (HEAD for commit-msg, a ref's tip before the push on a server). A history
/// of fewer than [`FIT_MIN`] commits: the built-in defaults.
pub fn in_force(
    repo: &Repo,
    loaded: Loaded,
    tip: Option<ObjectId>,
    skip: &[ObjectId],
) -> Result<Loaded, RepoError> {
    let (Origin::Builtin, Some(tip)) = (&loaded.origin, tip) else {
        return Ok(loaded);
    };
    let (mut convention, seen) = fitted(repo, tip, skip, &loaded.convention)?;
    if seen.read < FIT_MIN {
        return Ok(loaded);
    }
    // What the fit reads, the gate holds: a prose body, which would turn the next fit
    // to `body = "free"` (no bullet traced), only where the history has one already.
    // So a commit the fitted convention accepts gives the same convention again, and
    // no push loosens the policy it is checked against.
    convention.body_prose = seen.prose_bodies > 0;
    Ok(Loaded {
        convention,
        origin: Origin::Fitted { commits: seen.read },
    })
}
