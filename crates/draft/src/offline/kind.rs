//! The commit type of an offline draft: what the paths settle, then what the source
//! shows, then the history's vote; and the release a changelog heading and a version
//! bump make.

use super::lossy;
use super::source::{
    added_items, added_parameters, changed_public_items, contains_word, documents_only, has_code,
    new_public_items, split_sign, stem,
};
use crate::words::VERSION_FILES;
use jitcommit_core::config::Convention;
use jitcommit_core::repo::{ChangeKind, FileDiff, StagedState, TypeHistory};

/// What a path is, for the type inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Class {
    Docs,
    Test,
    Ci,
    Build,
    Source,
}

/// The type inference's reading of [`jitcommit_core::paths::path_facts`]: CI first, then
/// tests, docs, and build files with the lock files they pin.
pub(super) fn classify(path: &str) -> Class {
    let p = jitcommit_core::paths::path_facts(path);
    if p.ci {
        Class::Ci
    } else if p.test {
        Class::Test
    } else if p.docs {
        Class::Docs
    } else if p.build || p.lock {
        Class::Build
    } else {
        Class::Source
    }
}

/// The first of `wanted` the convention allows, else its first type, else `feat`.
pub(super) fn pick(conv: &Convention, wanted: &[&str]) -> String {
    wanted
        .iter()
        .find_map(|t| conv.allowed_type(t))
        .map(str::to_owned)
        .or_else(|| conv.types.first().cloned())
        .unwrap_or_else(|| "feat".to_owned())
}

/// The types the staged paths alone settle, best first, `None` when they leave the
/// type open: only generated or vendored files → `chore`; only documents → `docs`;
/// only CI → `ci`; only build files → `build`; tests with at most docs or config
/// beside them → `test`.
pub(super) fn settled_by_paths(
    state: &StagedState,
    paths: &[String],
) -> Option<&'static [&'static str]> {
    let classes: Vec<Class> = state
        .files
        .iter()
        .zip(paths)
        .filter(|(f, p)| !generated(f, p))
        .map(|(_, p)| classify(p))
        .collect();
    let all = |c: Class| classes.iter().all(|x| *x == c);
    if classes.is_empty() {
        Some(&["chore", "build"])
    } else if all(Class::Docs) {
        Some(&["docs", "chore"])
    } else if all(Class::Ci) {
        Some(&["ci", "build", "chore"])
    } else if all(Class::Build) {
        Some(&["build", "chore"])
    } else if !classes.contains(&Class::Source) && classes.contains(&Class::Test) {
        Some(&["test", "chore"])
    } else {
        None
    }
}

/// Whether [`infer_type`]'s type is settled by the change and the history, or a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Guess {
    Settled,
    Guessed,
}

pub(super) fn infer_type(
    state: &StagedState,
    paths: &[String],
    conv: &Convention,
    history: &TypeHistory,
) -> (String, Guess) {
    let allowed = |t: &str| conv.allowed_type(t).is_some();
    let settled = |wanted: &[&str]| (pick(conv, wanted), Guess::Settled);
    if release_version(state, paths).is_some() {
        return settled(&["chore", "build"]);
    }
    if let Some(wanted) = settled_by_paths(state, paths) {
        // Between the types the paths leave (a lock file's `build` or `chore`, a CI
        // file's `ci` or `chore`), the history breaks the tie when it agrees enough.
        if let Some(t) = history.agreed(|t| wanted.contains(&t) && allowed(t)) {
            return (t.to_owned(), Guess::Settled);
        }
        let how = if wanted.first() == Some(&"build") {
            Guess::Guessed
        } else {
            Guess::Settled
        };
        return (pick(conv, wanted), how);
    }
    // Generated and vendored files say nothing about the kind of change: the rest decides.
    let (files, paths): (Vec<&FileDiff>, Vec<&String>) = state
        .files
        .iter()
        .zip(paths)
        .filter(|(f, p)| !generated(f, p))
        .unzip();
    let classes: Vec<Class> = paths.iter().map(|p| classify(p)).collect();
    let no_source = !classes.contains(&Class::Source);
    let source: Vec<&FileDiff> = files
        .iter()
        .zip(&classes)
        .filter(|(_, c)| **c == Class::Source)
        .map(|(f, _)| *f)
        .collect();
    // Source with lines of code, not configuration.
    let code = source.iter().any(|f| has_code(f));
    let kinds = || files.iter().map(|f| f.change.kind);
    // A rename or a move, with at most the references to it updated.
    if !source.is_empty()
        && (kinds().all(|k| matches!(k, ChangeKind::Renamed | ChangeKind::Deleted))
            || renamed_with_references(&files))
    {
        return settled(&["refactor", "chore"]);
    }
    // New code: a new source file is a feature.
    if source
        .iter()
        .any(|f| matches!(f.change.kind, ChangeKind::Added | ChangeKind::Copied))
    {
        return settled(&["feat", "fix"]);
    }
    // A change that mostly adds code, and defines something new in it, is a feature.
    if adds_code(&source) {
        return settled(&["feat", "fix"]);
    }
    // Comments and docstrings only, beside documents at most: documentation.
    if !source.is_empty()
        && files
            .iter()
            .zip(&classes)
            .all(|(f, c)| *c == Class::Docs || documents_only(f))
    {
        return settled(&["docs", "chore"]);
    }
    // A new public item where none is removed or changed, or a new parameter of a
    // public function: something a user of the code can now do.
    let shown = crate::classify::Classifier::new(&conv.context.exclude);
    let new_item = source.iter().any(|f| !new_public_items(f).is_empty());
    let changed = changed_public_items(state, &shown);
    let new_parameter = source.iter().any(|f| !added_parameters(f).is_empty());
    // An item extracted from code it replaces (a refactor's helper) removes about as
    // much as it adds: a feature grows.
    let added: usize = source.iter().map(|f| f.added).sum();
    let removed: usize = source.iter().map(|f| f.removed).sum();
    if (new_item && changed.is_empty() && added >= 2 * removed) || new_parameter {
        return settled(&["feat", "fix"]);
    }
    // Otherwise the history breaks the tie, when at least two of its commits agree and
    // they are the majority: never `feat` (a modification adds nothing), `docs` only
    // where no code changes (the evidence above says when code is documentation), and
    // `chore` only for a change without code (a version bump's manifests and
    // changelog, a dependency update, a tool's configuration): never for code.
    // `docs` also where the documents' changed lines outweigh the code's (a page of
    // figures with the bench script that made them).
    let lines = |class: Class| -> usize {
        files
            .iter()
            .zip(&classes)
            .filter(|(f, c)| **c == class && (class != Class::Source || has_code(f)))
            .map(|(f, _)| f.added + f.removed)
            .sum()
    };
    let mostly_docs = lines(Class::Docs) >= lines(Class::Source);
    let voted = |t: &str| {
        allowed(t)
            && match t {
                "feat" => false,
                "chore" => !code,
                "docs" => !code || mostly_docs,
                _ => true,
            }
    };
    if let Some(t) = history.agreed(voted) {
        return (t.to_owned(), Guess::Settled);
    }
    let guess = |wanted: &[&str]| (pick(conv, wanted), Guess::Guessed);
    // A new public item that replaces another (a renamed function) is open.
    if new_item {
        return guess(&["feat", "fix"]);
    }
    if no_source {
        return guess(&["build", "chore"]);
    }
    // Configuration without code (a tool's settings, a site's).
    if !code {
        return guess(&["chore", "build"]);
    }
    guess(&["fix", "refactor", "feat"])
}

/// The scope of a release commit, as the guide's release step writes it.
pub(super) const RELEASE_SCOPE: &str = "release";

/// The version a release commit releases: CHANGELOG.md (any directory, any case) is
/// the only changed file besides [`VERSION_FILES`], and its diff adds exactly one
/// version heading (`## [VERSION]`, Keep a Changelog's, as `jitcommit changelog --tag
/// VERSION --write` writes it; `## vVERSION (date)`) that it does not remove elsewhere — or, when the changelog is
/// new, adds it first, above the earlier versions; `Unreleased` is no version. Any
/// other file may only move a version to this one (each added line holds it, each
/// removed line a version: a pre-commit hook's `rev:`). `None` for anything else, so
/// an ordinary changelog edit stays `docs`.
pub(super) fn release_version(state: &StagedState, paths: &[String]) -> Option<String> {
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_ascii_lowercase();
    let mut changelog = None;
    let mut others = Vec::new();
    for (f, p) in state.files.iter().zip(paths) {
        let name = base(p);
        if name == "changelog.md" && changelog.is_none() {
            changelog = Some(f);
        } else if !VERSION_FILES.contains(&name.as_str()) {
            // Cheap before the changelog is read: a file of many lines is no bump.
            if f.added + f.removed > 8 || f.binary {
                return None;
            }
            others.push(f);
        }
    }
    let changelog = changelog?;
    // `## [1.2.0] - date` (Keep a Changelog's), `## v1.2.0 (date)` (commitizen's),
    // `# [1.2.0](compare link) (date)` (conventional-changelog's).
    let heading = |line: &str, sign: char| -> Option<String> {
        let text = line.strip_prefix(sign)?;
        let rest = text.trim_start_matches('#');
        if !(1..=3).contains(&(text.len() - rest.len())) {
            return None;
        }
        let rest = rest.strip_prefix(' ')?;
        let rest = rest.strip_prefix('[').unwrap_or(rest);
        let version = rest.split([']', ' ', '(']).next()?.trim();
        let digits = version.strip_prefix(['v', 'V']).unwrap_or(version);
        let ok = digits.starts_with(|c: char| c.is_ascii_digit())
            && version.len() <= 64
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-+_".contains(c));
        ok.then(|| version.to_owned())
    };
    let lines = || changelog.hunks.iter().flat_map(|h| h.body.lines());
    let removed: Vec<String> = lines().filter_map(|l| heading(l, '-')).collect();
    let mut added = lines()
        .filter_map(|l| heading(l, '+'))
        .filter(|v| !removed.contains(v));
    let version = added.next()?;
    // A changelog written for the first time holds every earlier version below the
    // one it releases (`jitcommit changelog --tag VERSION --write` after earlier tags).
    if added.next().is_some() && changelog.change.kind != ChangeKind::Added {
        return None;
    }
    // Any other file only moves a version to this one (a hook's `rev:`, a badge).
    let digits = version.trim_start_matches(['v', 'V']);
    let bumps = |f: &FileDiff| {
        let lines = || f.hunks.iter().flat_map(|h| h.body.lines());
        lines().any(|l| l.starts_with('+') && l.contains(digits))
            && lines().all(|l| match split_sign(l) {
                ("+", t) => t.trim().is_empty() || t.contains(digits),
                ("-", t) => {
                    t.trim().is_empty()
                        || t.as_bytes()
                            .windows(3)
                            .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
                }
                _ => true,
            })
    };
    others.iter().all(|f| bumps(f)).then_some(version)
}

/// How many times the removed lines a change's added source lines must be, at least,
/// for [`adds_code`]. Over whole histories (docs/quality.md) 6 to 10 agree alike with
/// the human types; 4 calls refactors features, 16 misses features.
pub(super) const GROWTH: usize = 8;

/// The source files mostly grow: at least 10 lines added, [`GROWTH`] times the lines
/// removed, and some item defined that was not there before.
pub(super) fn adds_code(source: &[&FileDiff]) -> bool {
    let added: usize = source.iter().map(|f| f.added).sum();
    let removed: usize = source.iter().map(|f| f.removed).sum();
    added >= 10
        && added >= GROWTH * removed
        && source.iter().any(|f| !added_items(f, false).is_empty())
}

/// A generated or vendored file: marked so in `.gitattributes` ([`FileDiff::linguist`])
/// or named so (`dist/`, `*.min.js`, `*_pb2.py`, …: [`jitcommit_core::paths::path_facts`]).
pub(super) fn generated(f: &FileDiff, path: &str) -> bool {
    f.linguist.is_some() || {
        let p = jitcommit_core::paths::path_facts(path);
        p.generated || p.vendored
    }
}

/// The source renames of `files` that change the module's name: (old stem, new stem).
pub(super) fn renamed_modules(files: &[&FileDiff]) -> Vec<(String, String)> {
    files
        .iter()
        .filter(|f| f.change.kind == ChangeKind::Renamed)
        .filter_map(|f| {
            let new = lossy(&f.change.path);
            let old = lossy(f.change.old_path.as_deref()?);
            (classify(&new) != Class::Docs).then(|| (stem(&old).to_owned(), stem(&new).to_owned()))
        })
        .filter(|(a, b)| a != b && !a.is_empty() && !b.is_empty())
        .collect()
}

/// A rename with the references to it updated: at least one source file is renamed
/// (its module name changes), and every other file only changes lines that name the
/// old or the new module (imports, paths, mentions), besides blank ones.
pub(super) fn renamed_with_references(files: &[&FileDiff]) -> bool {
    let modules = renamed_modules(files);
    if modules.is_empty() {
        return false;
    }
    let names = |t: &str| {
        modules
            .iter()
            .any(|(a, b)| contains_word(t, a) || contains_word(t, b))
    };
    files.iter().all(|f| match f.change.kind {
        ChangeKind::Renamed | ChangeKind::Deleted => true,
        ChangeKind::Added | ChangeKind::Copied => false,
        _ => f
            .hunks
            .iter()
            .flat_map(|h| h.body.lines())
            .all(|l| match split_sign(l) {
                ("+" | "-", t) => t.trim().is_empty() || names(t),
                _ => true,
            }),
    })
}
