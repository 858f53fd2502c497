//! Exemptions: messages git writes itself (merges, reverts, `fixup!` and friends)
//! are left alone when the convention's `exempt` list names their kind.

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
    } else {
        None
    }
}

/// The exemption that applies to `text` under `conv` (its kind is in `conv.exempt`).
pub fn exemption(text: &str, conv: &Convention) -> Option<Exemption> {
    exemption_kind(text).filter(|kind| conv.exempt.contains(kind))
}
