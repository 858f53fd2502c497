//! Exemptions: messages git writes itself (merges, reverts, `fixup!` and friends)
//! are left alone when the convention's `exempt` list names their kind.
//!
//! A subject alone proves nothing: anyone can title a commit `Merge branch 'x'`. For a
//! stored commit ([`stored_exemption`]) an exemption must be backed by what git writes:
//! a merge has two or more parents, and a revert's body names the reverted commit
//! (`This reverts commit <id>.`, an id the caller confirms is a commit). The client
//! (commit-msg, `--stdin`) sees only the text and keeps [`exemption`].

use crate::config::{Convention, Exemption};

const MERGE_PREFIXES: &[&str] = &[
    "Merge branch ",
    "Merge branches ",
    "Merge remote-tracking branch ",
    "Merge remote-tracking branches ",
    "Merge tag ",
    "Merge tags ",
    "Merge commit ",
    "Merge pull request ",
];

/// The kind of git-written message `text` is, whatever the convention says:
/// `Merge branch …` and the other `git merge` / `git pull` / forge subjects,
/// `Revert "…"` (and `Reapply "…"`, which git writes when reverting a revert),
/// `fixup! `, `squash! `, `amend! `. The Conventional Commits type `revert:` is an
/// ordinary type, not an exemption.
pub fn exemption_kind(text: &str) -> Option<Exemption> {
    let subject = text.lines().next()?.trim_end_matches('\r');
    if MERGE_PREFIXES.iter().any(|p| subject.starts_with(p)) {
        Some(Exemption::Merge)
    } else if subject.starts_with("Revert \"") || subject.starts_with("Reapply \"") {
        Some(Exemption::Revert)
    } else if subject.starts_with("fixup! ") {
        Some(Exemption::Fixup)
    } else if subject.starts_with("squash! ") {
        Some(Exemption::Squash)
    } else if subject.starts_with("amend! ") {
        Some(Exemption::Amend)
    } else if is_bare_version(subject) {
        Some(Exemption::Release)
    } else {
        None
    }
}

/// The exemption that applies to `text` under `conv` (its kind is in `conv.exempt`),
/// judged by the text alone: for a message not yet committed.
pub fn exemption(text: &str, conv: &Convention) -> Option<Exemption> {
    exemption_kind(text).filter(|kind| conv.exempt.contains(kind))
}

/// What git recorded about a stored commit, to back an exemption with.
pub struct CommitFacts<'a> {
    /// How many parents the commit has.
    pub parents: usize,
    /// Whether `fixup!`, `squash!` and `amend!` may be exempt at all (a server allows
    /// them only when its own policy says so).
    pub fixups: bool,
    /// Whether a full hex id names a commit of the repository.
    pub is_commit: &'a dyn Fn(&str) -> bool,
}

/// The exemption that applies to the stored commit message `text` under `conv`: its
/// kind is in `conv.exempt` and git's record backs it. A merge needs two or more
/// parents; a revert (or reapply) needs a `This reverts commit <id>` line, as `git
/// revert` writes it, whose id is a commit; `fixup!`/`squash!`/`amend!` need
/// `facts.fixups`.
pub fn stored_exemption(
    text: &str,
    conv: &Convention,
    facts: &CommitFacts<'_>,
) -> Option<Exemption> {
    let kind = exemption(text, conv)?;
    let backed = match kind {
        Exemption::Merge => facts.parents >= 2,
        Exemption::Revert => reverted_ids(text).any(|id| (facts.is_commit)(id)),
        Exemption::Fixup | Exemption::Squash | Exemption::Amend => facts.fixups,
        // Nothing git records backs a version subject; listing `release` accepts it.
        Exemption::Release => true,
    };
    backed.then_some(kind)
}

/// A subject that is a version and nothing else: `v21.2.2`, `1.4.0-rc.1`,
/// `2.0.0+build.5` (an optional `v`, three dot-separated numbers, then an optional
/// pre-release and build part), as lerna and `npm version` title release commits.
fn is_bare_version(subject: &str) -> bool {
    let s = subject.strip_prefix('v').unwrap_or(subject);
    let end = s.find(['-', '+']).unwrap_or(s.len());
    let (core, rest) = s.split_at(end);
    let mut parts = core.split('.');
    let numbers = parts
        .by_ref()
        .take(3)
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        .count();
    let tail_ok = rest.is_empty()
        || (rest.len() > 1
            && rest[1..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+')));
    numbers == 3 && parts.next().is_none() && tail_ok
}

/// The ids named by `This reverts commit <id>.` (or `<id>, reversing`) lines of the body.
fn reverted_ids(text: &str) -> impl Iterator<Item = &str> {
    text.lines().skip(1).filter_map(|line| {
        let rest = line.trim().strip_prefix("This reverts commit ")?;
        let hex_len = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        let after = &rest[hex_len..];
        (matches!(hex_len, 40 | 64) && (after.starts_with('.') || after.starts_with(',')))
            .then(|| &rest[..hex_len])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn bare_versions() {
        for yes in [
            "v21.2.2",
            "1.2.3",
            "1.4.0-rc.1",
            "2.0.0+build.5",
            "v0.0.1-alpha+b",
        ] {
            assert!(is_bare_version(yes), "{yes}");
            assert_eq!(exemption_kind(yes), Some(Exemption::Release), "{yes}");
        }
        for no in [
            "v1.2",
            "1.2.3.4",
            "v1.2.3 release",
            "1.2.3-",
            "1.2.x",
            "vv1.2.3",
            "",
            "v",
            "1..3",
            "chore(release): 1.2.3",
            "1.2.3-rc 1",
            "１.２.３",
        ] {
            assert!(!is_bare_version(no), "{no}");
        }
    }

    fn facts(parents: usize, fixups: bool) -> CommitFacts<'static> {
        CommitFacts {
            parents,
            fixups,
            is_commit: &|id| id == ID,
        }
    }

    #[test]
    fn stored_exemptions_need_what_git_writes() {
        let conv = Convention::default();
        let cases: &[(&str, usize, bool, Option<Exemption>)] = &[
            ("Merge branch 'x'", 1, true, None),
            ("Merge branch 'x'", 2, false, Some(Exemption::Merge)),
            (
                "Merge pull request #1 from a/b",
                3,
                false,
                Some(Exemption::Merge),
            ),
            ("Revert \"feat: x\"", 1, true, None),
            (
                "Revert \"feat: x\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.",
                1,
                false,
                Some(Exemption::Revert),
            ),
            (
                "Reapply \"feat: x\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567, reversing\nchanges made to 1.",
                1,
                false,
                Some(Exemption::Revert),
            ),
            // An id that is no commit here, a short id, or the line in the subject.
            (
                "Revert \"feat: x\"\n\nThis reverts commit 1111111111111111111111111111111111111111.",
                1,
                true,
                None,
            ),
            (
                "Revert \"feat: x\"\n\nThis reverts commit 0123456.",
                1,
                true,
                None,
            ),
            ("fixup! feat: x", 1, false, None),
            ("squash! feat: x", 1, false, None),
            ("amend! feat: x", 1, false, None),
            ("fixup! feat: x", 1, true, Some(Exemption::Fixup)),
            ("feat: x", 2, true, None),
        ];
        for (text, parents, fixups, want) in cases {
            assert_eq!(
                stored_exemption(text, &conv, &facts(*parents, *fixups)),
                *want,
                "{text:?} with {parents} parents"
            );
        }
    }

    #[test]
    fn the_convention_still_decides_which_kinds_are_exempt() {
        let conv = Convention {
            exempt: vec![Exemption::Revert],
            ..Convention::default()
        };
        assert_eq!(
            stored_exemption("Merge branch 'x'", &conv, &facts(2, true)),
            None
        );
    }
}
