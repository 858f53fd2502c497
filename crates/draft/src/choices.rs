//! What a model draft chooses by judgement, and the evidence it is shown for it
//! (docs/draft.md, "Choices"). The type, the scope and the breaking note are the
//! model's: the schema offers every type of the convention the change does not rule
//! out ([`type_choices`], a small explicit table, [`RULED_OUT`]), and what the tool
//! knows for one type or another — the types the history of these paths used, the
//! offline rules' type and why, the scopes the history used — goes into the prompt as
//! evidence with its strength ([`evidence`], [`crate::fragments::evidence_fragment`]), never as a one-value enum. The
//! repository's own recent subjects for the staged paths are shown as examples of its
//! types, scopes and phrasing
//! ([`crate::fragments::subjects_fragment`]).

use jitcommit_core::config::Convention;
use jitcommit_core::message::Message;
use jitcommit_core::repo::{ChangeKind, FileDiff, PathHistory, StagedState};

use crate::redact;

/// What every staged path (generated and vendored files aside) is, where the paths
/// say it alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    /// Documentation (`docs/`, prose files, README, CHANGELOG…).
    Docs,
    /// Tests, with at most documentation or configuration beside them.
    Tests,
    /// CI definitions and scripts.
    Ci,
    /// Build manifests, build scripts and lock files.
    Build,
    /// Generated or vendored files only.
    Generated,
}

/// The types a change of [`Only`] such paths cannot be. Conservative: a type is
/// ruled out only where no reading of the change could call it that (a typo fixed in
/// the docs can be `fix`, a flaky test fixed `fix`, a profile in a manifest `perf`, a
/// dependency bump a `fix` or a `feat`). A convention's other types (`style`,
/// `revert`) are never ruled out.
pub const RULED_OUT: &[(Only, &[&str])] = &[
    (Only::Docs, &["perf", "test", "ci", "build"]),
    (Only::Tests, &["perf", "docs", "ci", "build"]),
    (Only::Ci, &["perf", "docs", "test"]),
    (Only::Build, &["docs", "test", "ci"]),
    (Only::Generated, &["docs", "test", "ci", "perf"]),
];

/// What the staged paths are, when they are all of one kind ([`Only`]); `None` when
/// source or a mix is staged.
pub fn only(state: &StagedState) -> Option<Only> {
    let facts: Vec<_> = state
        .files
        .iter()
        .filter(|f| f.linguist.is_none())
        .map(|f| jitcommit_core::paths::path_facts(&String::from_utf8_lossy(&f.change.path)))
        .collect();
    if state.files.is_empty() {
        return None;
    }
    if facts.is_empty() {
        return Some(Only::Generated);
    }
    let all = |p: &dyn Fn(&jitcommit_core::paths::PathFacts) -> bool| facts.iter().all(p);
    if all(&|f| f.ci) {
        Some(Only::Ci)
    } else if all(&|f| !f.ci && !f.test && f.docs) {
        Some(Only::Docs)
    } else if all(&|f| !f.ci && (f.build || f.lock) && !f.test && !f.docs) {
        Some(Only::Build)
    } else if facts.iter().any(|f| f.test && !f.ci)
        && all(&|f| !f.ci && (f.test || f.docs || f.config))
    {
        Some(Only::Tests)
    } else {
        None
    }
}

/// The types a model draft of `state` may choose from: the convention's, less those
/// [`RULED_OUT`] for what the paths are. Empty when the convention allows any type.
/// When the table leaves none, the offline draft's type `offline` alone (a
/// convention whose types are all ruled out still gets a type it allows).
pub fn type_choices(state: &StagedState, conv: &Convention, offline: Option<&str>) -> Vec<String> {
    if conv.types.is_empty() {
        return Vec::new();
    }
    let out: &[&str] = only(state)
        .and_then(|o| RULED_OUT.iter().find(|(k, _)| *k == o))
        .map_or(&[], |(_, out)| out);
    let left: Vec<String> = conv
        .types
        .iter()
        .filter(|t| !out.iter().any(|o| o.eq_ignore_ascii_case(t)))
        .cloned()
        .collect();
    if left.is_empty() {
        return offline
            .and_then(|t| conv.allowed_type(t))
            .or_else(|| conv.types.first().map(String::as_str))
            .map(str::to_owned)
            .into_iter()
            .collect();
    }
    left
}

/// Most names one evidence line lists.
const NAMES: usize = 5;

/// The evidence for the type and scope, one line each, with its strength: the
/// history's counts for these paths (exact, else the files beside them), the scopes
/// the history used, what the paths are, new source files, new public items, a change
/// of only renames and deletions, and the offline rules' type and scope (`offline`).
/// Repository text (names, types and scopes from subjects) is redacted.
pub fn evidence(
    state: &StagedState,
    history: &PathHistory,
    offline: Option<&Message>,
) -> Vec<String> {
    let mut lines = Vec::new();
    let counts = |m: &std::collections::BTreeMap<String, usize>| {
        let total: usize = m.values().sum();
        let mut v: Vec<(&String, &usize)> = m.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let parts: Vec<String> = v
            .iter()
            .take(NAMES)
            .map(|(t, n)| format!("{} {n}", clean(t)))
            .collect();
        (total, parts.join(", "))
    };
    let (exact, near) = (&history.types.exact, &history.types.near);
    if !exact.is_empty() {
        let (total, parts) = counts(exact);
        lines.push(format!(
            "types of the last {total} commits that changed these paths: {parts} ({})",
            strength(exact, total)
        ));
    } else if !near.is_empty() {
        let (total, parts) = counts(near);
        lines.push(format!(
            "types of the last {total} commits that changed files beside these paths: {parts} (weak: other files)"
        ));
    } else {
        lines.push("types of earlier commits for these paths: none found".to_owned());
    }
    if !history.scopes.is_empty() {
        let (_, parts) = counts(&history.scopes);
        lines.push(format!("scopes of those commits: {parts}"));
    }
    match only(state) {
        Some(Only::Docs) => lines.push("every staged path is documentation".to_owned()),
        Some(Only::Tests) => lines.push("every staged path is a test or beside tests".to_owned()),
        Some(Only::Ci) => lines.push("every staged path is CI".to_owned()),
        Some(Only::Build) => lines.push("every staged path is a build or lock file".to_owned()),
        Some(Only::Generated) => {
            lines.push("every staged path is generated or vendored".to_owned())
        }
        None => {}
    }
    let source: Vec<&FileDiff> = state
        .files
        .iter()
        .filter(|f| {
            f.linguist.is_none() && {
                let p = jitcommit_core::paths::path_facts(&String::from_utf8_lossy(&f.change.path));
                !(p.ci || p.test || p.docs || p.build || p.lock)
            }
        })
        .collect();
    let name = |f: &FileDiff| clean(&String::from_utf8_lossy(&f.change.path));
    let added: Vec<String> = source
        .iter()
        .filter(|f| matches!(f.change.kind, ChangeKind::Added | ChangeKind::Copied))
        .map(|f| name(f))
        .collect();
    if !added.is_empty() {
        lines.push(format!("new source files: {}", list(&added)));
    }
    let items: Vec<String> = source
        .iter()
        .flat_map(|f| crate::offline::new_public_items(f))
        .map(|n| clean(&n))
        .collect();
    if !items.is_empty() {
        lines.push(format!("new public items: {}", list(&items)));
    }
    if !source.is_empty()
        && state
            .files
            .iter()
            .all(|f| matches!(f.change.kind, ChangeKind::Renamed | ChangeKind::Deleted))
    {
        lines.push("the change only renames or deletes files".to_owned());
    }
    if let Some(m) = offline {
        let scope = m
            .subject
            .scope
            .as_deref()
            .map_or(String::new(), |s| format!(", scope {}", clean(s)));
        lines.push(format!(
            "the tool's rules without a model would write: type {}{scope} (a rule of thumb)",
            clean(&m.subject.kind)
        ));
    }
    lines
}

/// How strongly counts point at their top type: `strong` for at least 3 commits and
/// two thirds of them, `weak` for one commit or under half, else `moderate`.
fn strength(m: &std::collections::BTreeMap<String, usize>, total: usize) -> &'static str {
    let top = m.values().copied().max().unwrap_or(0);
    if top >= 3 && top * 3 >= total * 2 {
        "strong"
    } else if total <= 1 || top * 2 < total {
        "weak"
    } else {
        "moderate"
    }
}

fn list(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(NAMES)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES {
        s.push_str(&format!(" and {} more", names.len() - NAMES));
    }
    s
}

/// Repository text as one redacted line (the prompt neutralises its block tags).
fn clean(s: &str) -> String {
    let s = redact::gate(s);
    jitcommit_core::message::one_line(&s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jitcommit_core::repo::Linguist;

    fn state(files: &[(ChangeKind, &str)]) -> StagedState {
        crate::fixtures::of_paths(files)
    }

    #[test]
    fn the_table_rules_out_only_what_the_paths_cannot_be() {
        use ChangeKind::*;
        let conv = Convention::default();
        let all = conv.types.clone();
        let without = |out: &[&str]| -> Vec<String> {
            all.iter()
                .filter(|t| !out.contains(&t.as_str()))
                .cloned()
                .collect()
        };
        let choices = |files: &[(ChangeKind, &str)]| type_choices(&state(files), &conv, None);
        assert_eq!(
            choices(&[(Modified, "docs/a.md"), (Modified, "README.md")]),
            without(&["perf", "test", "ci", "build"])
        );
        assert_eq!(
            choices(&[(Modified, "tests/a.rs"), (Modified, "README.md")]),
            without(&["perf", "docs", "ci", "build"])
        );
        assert_eq!(
            choices(&[(Modified, ".github/workflows/ci.yml")]),
            without(&["perf", "docs", "test"])
        );
        assert_eq!(
            choices(&[(Modified, "Cargo.toml"), (Modified, "Cargo.lock")]),
            without(&["docs", "test", "ci"])
        );
        // Source, or a mix with source, rules nothing out: a new file, a rename, a
        // change of code and tests.
        for files in [
            vec![(Added, "src/new.rs")],
            vec![(Renamed, "src/b.rs")],
            vec![(Modified, "src/lib.rs"), (Modified, "tests/a.rs")],
            vec![
                (Modified, "docs/a.md"),
                (Modified, ".github/workflows/ci.yml"),
            ],
        ] {
            assert_eq!(choices(&files), all, "{files:?}");
        }
        // Generated files only.
        let mut generated = state(&[(Modified, "dist/app.js")]);
        generated.files[0].linguist = Some(Linguist::Generated);
        assert_eq!(
            type_choices(&generated, &conv, None),
            without(&["docs", "test", "ci", "perf"])
        );
        // A convention with other types keeps them; one the table empties offers the
        // offline type alone, or its first.
        let mut narrow = Convention {
            types: vec!["perf".into(), "test".into(), "style".into()],
            ..Convention::default()
        };
        assert_eq!(
            type_choices(&state(&[(Modified, "docs/a.md")]), &narrow, None),
            ["style"]
        );
        narrow.types = vec!["perf".into(), "test".into()];
        assert_eq!(
            type_choices(&state(&[(Modified, "docs/a.md")]), &narrow, Some("test")),
            ["test"]
        );
        assert_eq!(
            type_choices(&state(&[(Modified, "docs/a.md")]), &narrow, None),
            ["perf"]
        );
        // Any type: no enum.
        narrow.types.clear();
        assert!(type_choices(&state(&[(Modified, "docs/a.md")]), &narrow, None).is_empty());
    }

    #[test]
    fn evidence_states_counts_with_their_strength() {
        use ChangeKind::*;
        let mut h = PathHistory::default();
        let e = evidence(&state(&[(Modified, "src/lib.rs")]), &h, None);
        assert_eq!(e, ["types of earlier commits for these paths: none found"]);
        h.types.near = [("fix".to_owned(), 2)].into();
        let e = evidence(&state(&[(Modified, "src/lib.rs")]), &h, None);
        assert_eq!(
            e[0],
            "types of the last 2 commits that changed files beside these paths: fix 2 (weak: other files)"
        );
        h.types.exact = [
            ("docs".to_owned(), 2),
            ("fix".to_owned(), 1),
            ("refactor".to_owned(), 1),
        ]
        .into();
        h.scopes = [("cli".to_owned(), 2)].into();
        let e = evidence(&state(&[(Added, "src/new.rs")]), &h, None);
        assert_eq!(
            e,
            [
                "types of the last 4 commits that changed these paths: docs 2, fix 1, refactor 1 (moderate)",
                "scopes of those commits: cli 2",
                "new source files: src/new.rs",
            ]
        );
        h.types.exact = [("docs".to_owned(), 3)].into();
        let e = evidence(&state(&[(Modified, "docs/a.md")]), &h, None);
        assert_eq!(
            e[0],
            "types of the last 3 commits that changed these paths: docs 3 (strong)"
        );
        assert_eq!(e[2], "every staged path is documentation");
        // Repository text is redacted: a key in a path never reaches the prompt.
        let e = evidence(
            &state(&[(Added, "src/AKIAIOSFODNN7EXAMPLQ.rs")]),
            &PathHistory::default(),
            None,
        );
        assert!(!e.concat().contains("AKIAIOSFODNN7EXAMPLQ"), "{e:?}");
    }
}
