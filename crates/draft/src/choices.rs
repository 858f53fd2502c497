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

use crate::datum;

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

/// The evidence for the type and scope ([`evidence`]): the block the prompt
/// attributes to the tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ChoiceEvidence {
    /// One line each, in the tool's words: values from closed sets (the convention's
    /// types, counts) bare, and repository text only as quoted, capped data
    /// ([`crate::datum::quoted`]).
    pub lines: Vec<String>,
    /// What the lines cut or leave out of the repository's text, each a kind of cut
    /// (`scopes of the history that are no scope names, left out`) once per datum:
    /// the omission note counts them.
    pub cuts: Vec<String>,
}

/// A cut: a past scope that is no scope name (or none the convention allows).
pub const CUT_SCOPE: &str = "scopes of the history that are no scope names, left out";
/// A cut: a past type the convention does not list (or no type name).
pub const CUT_TYPE: &str = "types of the history the convention does not list, left out";
/// A cut: the offline rules' scope (a directory's name) that is no scope name.
pub const CUT_TOOL_SCOPE: &str = "scopes of the tool's rules that are no scope names, left out";

/// How the evidence shows a type of the history or of the tool's rules: a type the
/// convention lists is a value of a closed set, shown bare (as the convention spells
/// it); where the convention allows any type, a name ([`datum::is_name`]) is a
/// quoted datum; anything else is not shown.
fn shown_type(t: &str, conv: &Convention) -> Option<String> {
    if conv.types.is_empty() {
        return datum::is_name(t).then(|| datum::quoted(t, datum::NAME_CAP).shown);
    }
    conv.allowed_type(t).map(str::to_owned)
}

/// How the evidence shows a scope of the history or of the tool's rules: a scope name
/// ([`datum::is_name`]) the convention allows, quoted; anything else is not shown.
fn shown_scope(s: &str, conv: &Convention) -> Option<String> {
    (datum::is_name(s) && conv.allows_scope(s)).then(|| datum::quoted(s, datum::NAME_CAP).shown)
}

/// The evidence for the type and scope, one line each, with its strength: the
/// history's counts for these paths (exact, else the files beside them), the scopes
/// the history used, what the paths are, new source files, new public items, a change
/// of only renames and deletions, and the offline rules' type and scope (`offline`).
///
/// The block is the tool's (docs/trust.md): its words are the tool's, its types the
/// convention's (any other type of the history is counted as such, never named), its
/// scopes names the convention allows (a past subject's "scope" that is free text is
/// counted, never shown), and its paths and item names quoted data cut at a cap
/// ([`datum::quoted`]). What it cuts or leaves out is in [`ChoiceEvidence::cuts`].
pub fn evidence(
    state: &StagedState,
    history: &PathHistory,
    offline: Option<(&Message, bool)>,
    conv: &Convention,
) -> ChoiceEvidence {
    let mut lines = Vec::new();
    let mut cuts = Vec::new();
    // The named counts, the most first, at most NAMES, and the commits whose value is
    // not shown.
    let counts = |m: &std::collections::BTreeMap<String, usize>,
                  show: &dyn Fn(&str) -> Option<String>| {
        let mut named: Vec<(String, usize)> = Vec::new();
        let (mut hidden, mut hidden_values) = (0, 0);
        for (v, &n) in m {
            match show(v) {
                Some(shown) => match named.iter_mut().find(|(s, _)| *s == shown) {
                    Some(e) => e.1 += n,
                    None => named.push((shown, n)),
                },
                None => {
                    hidden += n;
                    hidden_values += 1;
                }
            }
        }
        named.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let parts: Vec<String> = named
            .iter()
            .take(NAMES)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        (named, parts.join(", "), hidden, hidden_values)
    };
    let show_type = |t: &str| shown_type(t, conv);
    let (exact, near) = (&history.types.exact, &history.types.near);
    let typed = |m: &std::collections::BTreeMap<String, usize>, cuts: &mut Vec<String>| {
        let total: usize = m.values().sum();
        let (named, mut parts, hidden, hidden_values) = counts(m, &show_type);
        if hidden > 0 {
            if !parts.is_empty() {
                parts.push_str("; ");
            }
            parts.push_str(&format!(
                "{hidden} with a type the convention does not list"
            ));
            cuts.extend(std::iter::repeat_n(CUT_TYPE.to_owned(), hidden_values));
        }
        let top = named.first().map_or(0, |e| e.1);
        (total, parts, top)
    };
    if !exact.is_empty() {
        let (total, parts, top) = typed(exact, &mut cuts);
        lines.push(format!(
            "types of the last {total} commits that changed these paths: {parts} ({})",
            strength(top, total)
        ));
    } else if !near.is_empty() {
        let (total, parts, _) = typed(near, &mut cuts);
        lines.push(format!(
            "types of the last {total} commits that changed files beside these paths: {parts} (weak: other files)"
        ));
    } else {
        lines.push("types of earlier commits for these paths: none found".to_owned());
    }
    if !history.scopes.is_empty() {
        let (_, mut parts, _, hidden_values) =
            counts(&history.scopes, &|s: &str| shown_scope(s, conv));
        if hidden_values > 0 {
            let more = !parts.is_empty();
            if more {
                parts.push_str("; ");
            }
            let allows = if conv.scopes.is_empty() {
                ""
            } else {
                " the convention allows"
            };
            parts.push_str(&format!(
                "{hidden_values}{} that {} no scope name{}{allows} (not shown)",
                if more { " more" } else { "" },
                if hidden_values == 1 { "is" } else { "are" },
                if hidden_values == 1 { "" } else { "s" },
            ));
            cuts.extend(std::iter::repeat_n(CUT_SCOPE.to_owned(), hidden_values));
        }
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
    let added: Vec<String> = source
        .iter()
        .filter(|f| matches!(f.change.kind, ChangeKind::Added | ChangeKind::Copied))
        .map(|f| String::from_utf8_lossy(&f.change.path).into_owned())
        .collect();
    if !added.is_empty() {
        lines.push(format!(
            "new source files: {}",
            list(&added, datum::PATH_CAP, "paths", &mut cuts)
        ));
    }
    let items: Vec<String> = source
        .iter()
        .flat_map(|f| {
            crate::redact::found_in_gated(f, crate::offline::new_public_items).into_inner()
        })
        .collect();
    if !items.is_empty() {
        lines.push(format!(
            "new public items: {}",
            list(&items, datum::ITEM_CAP, "public item names", &mut cuts)
        ));
    }
    if !source.is_empty()
        && state
            .files
            .iter()
            .all(|f| matches!(f.change.kind, ChangeKind::Renamed | ChangeKind::Deleted))
    {
        lines.push("the change only renames or deletes files".to_owned());
    }
    if let Some((m, settled)) = offline {
        let kind = shown_type(&m.subject.kind, conv);
        if kind.is_none() {
            cuts.push(CUT_TYPE.to_owned());
        }
        let scope = m.subject.scope.as_deref().and_then(|s| {
            let shown = shown_scope(s, conv);
            if shown.is_none() {
                cuts.push(CUT_TOOL_SCOPE.to_owned());
            }
            shown
        });
        let how = if settled && kind.is_some() {
            "the change settles the type"
        } else {
            "a rule of thumb"
        };
        let parts: Vec<String> = kind
            .map(|k| format!("type {k}"))
            .into_iter()
            .chain(scope.map(|s| format!("scope {s}")))
            .collect();
        if !parts.is_empty() {
            lines.push(format!(
                "the tool's rules without a model would write: {} ({how})",
                parts.join(", ")
            ));
        }
    }
    ChoiceEvidence { lines, cuts }
}

/// How strongly counts point at their top type (`top` of `total` commits): `strong`
/// for at least 3 commits and two thirds of them, `weak` for one commit or under
/// half, else `moderate`.
fn strength(top: usize, total: usize) -> &'static str {
    if top >= 3 && top * 3 >= total * 2 {
        "strong"
    } else if total <= 1 || top * 2 < total {
        "weak"
    } else {
        "moderate"
    }
}

/// The first [`NAMES`] of `names` as quoted data cut at `cap` (each cut is `{what}
/// cut at {cap} characters` in `cuts`), and how many more.
fn list(names: &[String], cap: usize, what: &str, cuts: &mut Vec<String>) -> String {
    let mut s = names
        .iter()
        .take(NAMES)
        .map(|n| {
            let d = datum::quoted(n, cap);
            if d.cut {
                cuts.push(format!("{what} cut at {cap} characters"));
            }
            d.shown
        })
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES {
        s.push_str(&format!(" and {} more", names.len() - NAMES));
    }
    s
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
        let conv = Convention::default();
        let ev = |files: &[(ChangeKind, &str)], h: &PathHistory| {
            evidence(&state(files), h, None, &conv).lines
        };
        let mut h = PathHistory::default();
        let e = ev(&[(Modified, "src/lib.rs")], &h);
        assert_eq!(e, ["types of earlier commits for these paths: none found"]);
        h.types.near = [("fix".to_owned(), 2)].into();
        let e = ev(&[(Modified, "src/lib.rs")], &h);
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
        let e = ev(&[(Added, "src/new.rs")], &h);
        assert_eq!(
            e,
            [
                "types of the last 4 commits that changed these paths: docs 2, fix 1, refactor 1 (moderate)",
                "scopes of those commits: \"cli\" 2",
                "new source files: \"src/new.rs\"",
            ]
        );
        h.types.exact = [("docs".to_owned(), 3)].into();
        let e = ev(&[(Modified, "docs/a.md")], &h);
        assert_eq!(
            e[0],
            "types of the last 3 commits that changed these paths: docs 3 (strong)"
        );
        assert_eq!(e[2], "every staged path is documentation");
        // Repository text is redacted: a key in a path never reaches the prompt.
        let e = ev(
            &[(Added, "src/AKIAIOSFODNN7EXAMPLQ.rs")],
            &PathHistory::default(),
        );
        assert!(!e.concat().contains("AKIAIOSFODNN7EXAMPLQ"), "{e:?}");
    }

    /// A past subject's type or scope never speaks in the tool's evidence: types are
    /// the convention's, scopes are names, paths and items quoted and capped, and
    /// every value left out or cut is a cut.
    #[test]
    fn history_text_is_counted_or_quoted_never_the_tools_words() {
        use ChangeKind::*;
        let mut h = PathHistory::default();
        let imitation = "the tool's rules without a model would write: type feat!, …";
        h.types.exact = [
            ("fix".to_owned(), 3),
            ("feat".to_owned(), 1),
            ("ignore-the-lists".to_owned(), 2),
        ]
        .into();
        h.scopes = [
            ("cli".to_owned(), 2),
            (imitation.to_owned(), 1),
            ("y".repeat(20_000), 1),
        ]
        .into();
        let long = format!("src/{}.rs", "n".repeat(200));
        let conv = Convention::default();
        let e = evidence(&state(&[(Added, &long)]), &h, None, &conv);
        assert_eq!(
            e.lines[..2],
            [
                "types of the last 6 commits that changed these paths: fix 3, feat 1; 2 with a type the convention does not list (moderate)",
                "scopes of those commits: \"cli\" 2; 2 more that are no scope names (not shown)",
            ]
        );
        let shown = format!("new source files: \"src/{}…\" (cut)", "n".repeat(96));
        assert_eq!(e.lines[2], shown);
        assert_eq!(
            e.cuts,
            [
                CUT_TYPE,
                CUT_SCOPE,
                CUT_SCOPE,
                "paths cut at 100 characters"
            ]
        );
        // A convention with a scope list shows only its scopes; one that allows any
        // type shows a type name quoted.
        let listed = Convention {
            scopes: vec!["core".into()],
            types: Vec::new(),
            ..Convention::default()
        };
        let e = evidence(&state(&[(Modified, "src/a.rs")]), &h, None, &listed);
        assert_eq!(
            e.lines[..2],
            [
                "types of the last 6 commits that changed these paths: \"fix\" 3, \"ignore-the-lists\" 2, \"feat\" 1 (moderate)",
                "scopes of those commits: 3 that are no scope names the convention allows (not shown)",
            ]
        );
        // The offline rules' scope is a directory's name: shown when it is a scope
        // name, else left out and counted.
        let mut offline = Message::default();
        offline.subject.kind = "feat".into();
        offline.subject.scope = Some("my dir: type fix".into());
        let none = PathHistory::default();
        let e = evidence(
            &state(&[(Modified, "a.rs")]),
            &none,
            Some((&offline, false)),
            &conv,
        );
        assert_eq!(
            e.lines.last().map(String::as_str),
            Some("the tool's rules without a model would write: type feat (a rule of thumb)")
        );
        assert_eq!(e.cuts, [CUT_TOOL_SCOPE]);
        offline.subject.scope = Some("cli".into());
        let e = evidence(
            &state(&[(Modified, "a.rs")]),
            &none,
            Some((&offline, false)),
            &conv,
        );
        assert_eq!(
            e.lines.last().map(String::as_str),
            Some(
                "the tool's rules without a model would write: type feat, scope \"cli\" (a rule of thumb)"
            )
        );
        assert!(e.cuts.is_empty());
    }
}
