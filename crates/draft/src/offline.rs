//! The offline draft: a message drafted from the staged state and the convention
//! alone, with no model. It is what a fresh install writes before any model is set
//! up, and what the draft hook falls back to when the model is unreachable, too slow
//! or keeps answering something the rules reject.
//!
//! It says only what the repository can prove — which paths changed, how, and in
//! which functions (from the hunks' `@@ … @@ header`s) — and leaves the why to the
//! user as an explicit placeholder that the `body-placeholder` rule rejects, so an
//! offline draft cannot be committed unread.
//!
//! Choices (documented in docs/draft.md):
//! - a release (CHANGELOG.md gains one version heading — `## [VERSION]`, `## vVERSION
//!   (date)` — or is written with it first, and every other staged path is a version
//!   or lock file: what `jitcommit changelog --tag VERSION --write` and a version bump
//!   leave staged) → `chore(release): VERSION` ([`release_version`];
//!   `build` where the convention has no `chore`, `release VERSION` as the summary
//!   where its scope list lacks `release`).
//! - type, from what the change shows before what the history says: every path docs →
//!   `docs`, CI → `ci`, build → `build`; tests (with at most docs or config beside
//!   them) → `test`; only renames and deletions of source, or a source file renamed
//!   with every other changed line naming the old or new module (its imports:
//!   [`renamed_with_references`]) → `refactor`; a new source file → `feat`; source that
//!   mostly grows and defines a new item (added lines at least [`GROWTH`] times the
//!   removed ones) → `feat`; comments, docstrings and blank lines only
//!   ([`documents_only`], beside documents at most) → `docs`; a new public item (`pub`,
//!   `export`, a Python name or method without `_`) where no public item is removed or
//!   changed, or a new parameter of a public function ([`added_parameters`]) → `feat`.
//!   Only then the history breaks the tie ([`TypeHistory::agreed`]: at least two of the
//!   recent commits of these paths agree, and they are more than half of them; one
//!   earlier commit never decides; `feat` not counted, a modification adds nothing;
//!   `chore` counted only for a change without code, `docs` only for one whose
//!   documents change more lines than its code: code is documentation only by its own
//!   evidence above), else `feat` for a new public item that replaces
//!   another, else `fix`. Generated and vendored files, by `.gitattributes` or by name
//!   (`dist/`, `*.min.js`: [`generated`]), and lock files alone → `chore` or `build`,
//!   the history choosing between the two when it agrees. A type the convention does
//!   not allow falls back to the next candidate it allows, then to its first type.
//!   Never `chore` for source. `bench/quality/offline.py` measures it over whole
//!   histories (docs/quality.md, docs/benchmarks.md's `offline-draft`).
//! - summary: the change, not its files. A renamed module names the rename (`rename
//!   report to stock_report`) when the change is the rename, its references updated at
//!   most; else the dominant file (the source file with the most
//!   changed lines) says it: a test named as a sentence, a new heading of a document, a
//!   new item with its documented purpose (`add parse_duration to parse a duration`,
//!   [`purpose`]: the first sentence of its docstring or doc comment), else what its
//!   first hunk does to its item (`add parameter tax to total`, `change constant
//!   LIMIT`, `add a branch to parse`, `document parse`, `update parse`:
//!   [`hunk_change`]), else the module it updates (`update report`, a file's name when
//!   it is no code). Beyond [`MAX_BULLETS`] paths, their count and the deepest
//!   directory that holds at least half of them (`add 65 files in docs/website`).
//! - what: per file, the items its added lines define (`new parse_x`) and what each
//!   hunk does to the item it changes ([`hunk_change`]: `added parameter tax to total`,
//!   `changed constant LIMIT`, `new branch in parse`, `changed text in main`, `comments
//!   in parse`, `changed imports`, else `changed render`), the item from the nearest
//!   definition inside the hunk, else the hunk header when that is a definition; a new
//!   file lists what it defines; a file with no such item gives its line counts.
//! - scope: the first directory below a container (`crates/`, `packages/`, `src/`, …)
//!   that every path shares, if the convention allows it (any scope when its list is
//!   empty); none otherwise.
//! - bullets: one per path, verb from the status (A → Add, D → Remove, R → Rename with
//!   `old → new`, M/T → Update, C → Add); beyond [`MAX_BULLETS`] paths, one bullet
//!   per directory at the deepest level that keeps the count within the cap (a
//!   directory holding a changed file is a valid bullet path).
//! - generated and vendored files (`.gitattributes`' `linguist-generated` and
//!   `linguist-vendored`, [`FileDiff::linguist`]) are what the prompt shows of them, a
//!   stat line: their bullet says `generated file, +12 −3 lines`, nothing from their
//!   hunks, and they count for neither the type (a change of such files alone is
//!   `chore`) nor the summary while another file changes.

use std::collections::BTreeMap;

use jitcommit_core::config::Convention;
use jitcommit_core::message::{Bullet, Message, Subject, Target};
use jitcommit_core::repo::{ChangeKind, FileDiff, Linguist, StagedState, TypeHistory};
use jitcommit_core::rules::coverage::{status_verb, verb};

/// The why the user has to write; `jitcommit-check` rejects a message that still holds it.
pub use jitcommit_core::rules::WHY_PLACEHOLDER;

/// Above this many changed paths the draft describes directories instead of files.
pub const MAX_BULLETS: usize = 50;

/// At most this many function names are listed in one bullet.
const MAX_NAMES: usize = 3;

/// Why there is no offline draft.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OfflineError {
    /// The staged set is empty: there is nothing to describe.
    #[error("nothing is staged: there is nothing to describe")]
    NothingStaged,
}

/// Drafts a message for `state` under `conv`, without a model.
pub fn draft(state: &StagedState, conv: &Convention) -> Result<Message, OfflineError> {
    draft_with(state, conv, &TypeHistory::default())
}

/// [`draft`], with the types the repository's recent history used for these paths
/// ([`jitcommit_core::repo::Repo::type_history`]) to settle a type the change does not show.
pub fn draft_with(
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
) -> Result<Message, OfflineError> {
    draft_in(state, conv, history, None)
}

/// [`draft_with`], in `scope` when the repository says which scope the staged paths
/// belong to (its `SCOPE` facts: [`crate::select::scope_of_all`]); else the scope is
/// inferred from the paths.
pub fn draft_in(
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
    scope: Option<String>,
) -> Result<Message, OfflineError> {
    if state.files.is_empty() {
        return Err(OfflineError::NothingStaged);
    }
    let paths: Vec<String> = state.files.iter().map(|f| lossy(&f.change.path)).collect();
    let (kind, _) = infer_type(state, &paths, conv, history);
    if let Some(version) = release_version(state, &paths) {
        let (scope, summary) = if conv.allows_scope(RELEASE_SCOPE) {
            (Some(RELEASE_SCOPE.to_owned()), version)
        } else {
            (None, format!("release {version}"))
        };
        let bullets = state.files.iter().map(|f| file_bullet(f, conv)).collect();
        return Ok(Message {
            subject: Subject {
                kind,
                scope,
                breaking: false,
                summary,
            },
            prose: Vec::new(),
            bullets,
            trailers: Vec::new(),
        });
    }
    let scope = scope
        .or_else(|| infer_scope(&paths, conv))
        .filter(|s| *s != kind);
    let bullets = if state.files.len() <= MAX_BULLETS {
        state.files.iter().map(|f| file_bullet(f, conv)).collect()
    } else {
        directory_bullets(state, conv)
    };
    let shown = crate::classify::Classifier::new(&conv.context.exclude);
    let breaking = rename_note(&renamed_public_items(state, &shown));
    let prefix_len = kind.chars().count()
        + scope.as_ref().map_or(0, |s| s.chars().count() + 2)
        + usize::from(breaking.is_some())
        + 2;
    let room = conv
        .subject_limit()
        .map_or(usize::MAX, |max| max.saturating_sub(prefix_len).max(8));
    // change_words: a dependency bump, a move or images say what changed first.
    let summary = crate::change_words::summary(&state.files, room)
        .unwrap_or_else(|| summarize(state, &paths));
    // change_words: no URL or link, no bare verb, shortened at a phrase boundary.
    let summary = crate::change_words::finish(&summary, room)
        .unwrap_or_else(|| crate::change_words::fallback(&paths, room));
    Ok(Message {
        subject: Subject {
            kind,
            scope,
            breaking: breaking.is_some(),
            summary,
        },
        prose: Vec::new(),
        bullets,
        trailers: breaking
            .map(|value| jitcommit_core::message::Trailer {
                token: "BREAKING CHANGE".to_owned(),
                value,
            })
            .into_iter()
            .collect(),
    })
}

fn lossy(p: &[u8]) -> String {
    String::from_utf8_lossy(p).into_owned()
}

/// What a path is, for the type inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Docs,
    Test,
    Ci,
    Build,
    Source,
}

/// The type inference's reading of [`jitcommit_core::paths::path_facts`]: CI first, then
/// tests, docs, and build files with the lock files they pin.
fn classify(path: &str) -> Class {
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
fn pick(conv: &Convention, wanted: &[&str]) -> String {
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
fn settled_by_paths(state: &StagedState, paths: &[String]) -> Option<&'static [&'static str]> {
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
enum Guess {
    Settled,
    Guessed,
}

fn infer_type(
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

/// The scope of a release commit, as the README's release step writes it.
const RELEASE_SCOPE: &str = "release";

/// Files a release commit may change beside the changelog: the manifests that carry
/// the version and the lock files that repeat it.
const VERSION_FILES: &[&str] = &[
    "cargo.toml",
    "cargo.lock",
    "pyproject.toml",
    "uv.lock",
    "poetry.lock",
    "package.json",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "version",
    "version.txt",
    "__version__.py",
    "_version.py",
    "version.py",
    "__init__.py",
    "setup.py",
    "setup.cfg",
    ".cz.toml",
    ".bumpversion.cfg",
];

/// The version a release commit releases: CHANGELOG.md (any directory, any case) is
/// the only changed file besides [`VERSION_FILES`], and its diff adds exactly one
/// version heading (`## [VERSION]`, Keep a Changelog's, as `jitcommit changelog --tag
/// VERSION --write` writes it; `## vVERSION (date)`) that it does not remove elsewhere — or, when the changelog is
/// new, adds it first, above the earlier versions; `Unreleased` is no version. Any
/// other file may only move a version to this one (each added line holds it, each
/// removed line a version: a pre-commit hook's `rev:`). `None` for anything else, so
/// an ordinary changelog edit stays `docs`.
fn release_version(state: &StagedState, paths: &[String]) -> Option<String> {
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
const GROWTH: usize = 8;

/// The source files mostly grow: at least 10 lines added, [`GROWTH`] times the lines
/// removed, and some item defined that was not there before.
fn adds_code(source: &[&FileDiff]) -> bool {
    let added: usize = source.iter().map(|f| f.added).sum();
    let removed: usize = source.iter().map(|f| f.removed).sum();
    added >= 10
        && added >= GROWTH * removed
        && source.iter().any(|f| !added_items(f, false).is_empty())
}

/// A generated or vendored file: marked so in `.gitattributes` ([`FileDiff::linguist`])
/// or named so (`dist/`, `*.min.js`, `*_pb2.py`, …: [`jitcommit_core::paths::path_facts`]).
fn generated(f: &FileDiff, path: &str) -> bool {
    f.linguist.is_some() || {
        let p = jitcommit_core::paths::path_facts(path);
        p.generated || p.vendored
    }
}

/// A module's name: its file name without the extension (`src/report.py` → `report`).
fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split_once('.').map_or(name, |(s, _)| s).trim()
}

/// The source renames of `files` that change the module's name: (old stem, new stem).
fn renamed_modules(files: &[&FileDiff]) -> Vec<(String, String)> {
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
fn renamed_with_references(files: &[&FileDiff]) -> bool {
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

/// `word` in `text` as a whole identifier (not inside a longer one).
fn contains_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// How a source file's language writes comments, by extension: its line-comment
/// markers, and whether it has docstrings (Python's `"""`). `None` for a language the
/// draft does not know.
fn comment_syntax(path: &str) -> Option<(&'static [&'static str], bool)> {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyi" => (&["#"], true),
        "rb" | "sh" | "bash" | "zsh" | "pl" | "r" | "cmake" | "nix" | "ex" | "exs" => {
            (&["#"], false)
        }
        "lua" | "sql" | "hs" | "elm" => (&["--"], false),
        "rs" | "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts" | "go" | "c" | "h"
        | "cc" | "cpp" | "hpp" | "cxx" | "java" | "kt" | "kts" | "swift" | "cs" | "scala"
        | "dart" | "php" | "groovy" | "zig" | "proto" | "vue" | "svelte" => {
            (&["//", "/*", "*/", "* "], false)
        }
        _ => return None,
    })
}

/// How many triple quotes (a Python docstring's delimiters) a line holds.
fn triple_quotes(text: &str) -> usize {
    text.matches("\"\"\"").count() + text.matches("'''").count()
}

/// A source file whose change is comments, docstrings and blank lines only: a
/// modification of a language [`comment_syntax`] knows, with at least one such line
/// that is not blank. A docstring is followed by its triple quotes through each hunk,
/// on both sides; a hunk whose first triple quote stands alone on its line after no
/// definition starts inside one.
fn documents_only(f: &FileDiff) -> bool {
    let path = lossy(&f.change.path);
    if f.change.kind != ChangeKind::Modified || !has_code(f) {
        return false;
    }
    let Some((markers, docstrings)) = comment_syntax(&path) else {
        return false;
    };
    let comment = |t: &str| t == "*" || markers.iter().any(|m| t.starts_with(m));
    let mut any = false;
    for h in &f.hunks {
        let lines: Vec<(&str, &str)> = h.body.lines().map(split_sign).collect();
        let starts_inside = docstrings
            && lines
                .iter()
                .position(|(_, t)| triple_quotes(t) > 0)
                .is_some_and(|i| {
                    matches!(lines[i].1.trim(), "\"\"\"" | "'''")
                        && !(i > 0 && lines[i - 1].1.trim_end().ends_with(':'))
                });
        let (mut old_in, mut new_in) = (starts_inside, starts_inside);
        for (sign, text) in lines {
            let t = text.trim();
            let toggles = docstrings && triple_quotes(t) % 2 == 1;
            let inside = if sign == "+" { new_in } else { old_in };
            let opens = docstrings
                && triple_quotes(t) > 0
                && t.trim_start_matches(['r', 'u', 'b', 'f', 'R', 'U', 'B', 'F'])
                    .starts_with(['"', '\'']);
            if matches!(sign, "+" | "-") {
                if !(t.is_empty() || comment(t) || inside || opens) {
                    return false;
                }
                any |= !t.is_empty();
            }
            if toggles {
                match sign {
                    "+" => new_in = !new_in,
                    "-" => old_in = !old_in,
                    " " => (old_in, new_in) = (!old_in, !new_in),
                    _ => {}
                }
            }
        }
    }
    any
}

/// The parameter names of a definition line (`def f(self, a, b=1, *, c: int = 2):` →
/// `a`, `b`, `c`), or `None` when its parameter list does not close on the line.
fn parameters(text: &str, name: &str) -> Option<Vec<String>> {
    let at = text.find(name)? + name.len();
    let open = at + text[at..].find('(')?;
    let mut depth = 0usize;
    let mut end = None;
    for (i, c) in text[open + 1..].char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => {
                end = Some(open + 1 + i);
                break;
            }
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let list = &text[open + 1..end?];
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut push = |part: &str| {
        let p = part
            .trim()
            .trim_start_matches(['*', '&', '.'])
            .trim_start_matches("mut ")
            .trim_start_matches("'_ ");
        let n: String = p
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if !n.is_empty() && !matches!(n.as_str(), "self" | "cls" | "this") {
            out.push(n);
        }
    };
    for (i, c) in list.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&list[start..]);
    Some(out)
}

/// The parameters a change adds to public functions, as (function, parameter): a
/// public definition line replaced by one of the same name with more parameters
/// (`def total(items)` → `def total(items, tax=0)`), or a parameter line added inside
/// a public definition's signature that spans lines.
fn added_parameters(f: &FileDiff) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if !has_code(f) || f.change.kind != ChangeKind::Modified {
        return out;
    }
    for h in &f.hunks {
        let mut before: Vec<(String, Vec<String>)> = Vec::new();
        // The public definition whose parameter list is open on the lines above.
        let mut open: Option<String> = None;
        let mut removed_params: Vec<String> = Vec::new();
        for line in h.body.lines() {
            let (sign, text) = split_sign(line);
            let t = text.trim();
            if let Some(name) = defined_name(text).filter(|_| is_public(text)) {
                match parameters(text, &name) {
                    Some(params) => {
                        open = None;
                        if sign == "-" {
                            before.push((name, params));
                        } else if sign == "+"
                            && let Some((_, old)) = before.iter().find(|(n, _)| *n == name)
                        {
                            for p in params.iter().filter(|p| !old.contains(p)) {
                                out.push((name.clone(), p.clone()));
                            }
                        }
                    }
                    None if text.trim_end().ends_with('(') && sign != "-" => {
                        open = Some(name);
                        removed_params.clear();
                    }
                    None => open = None,
                }
                continue;
            }
            let Some(name) = &open else { continue };
            if t.starts_with(')') {
                open = None;
                continue;
            }
            let param: String = t
                .trim_start_matches('*')
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let rest = t[t.find(&param).map_or(0, |i| i + param.len())..].trim_start();
            let looks = !param.is_empty()
                && (rest.is_empty() || rest.starts_with([':', '=', ',']))
                && t.ends_with(',');
            if !looks || matches!(param.as_str(), "self" | "cls") {
                continue;
            }
            match sign {
                "-" => removed_params.push(param),
                "+" if !removed_params.contains(&param) => out.push((name.clone(), param)),
                _ => {}
            }
        }
    }
    out.dedup();
    out
}

/// Directories that hold components rather than being one.
const CONTAINERS: &[&str] = &[
    "crates",
    "packages",
    "libs",
    "lib",
    "apps",
    "src",
    "cmd",
    "internal",
    "pkg",
    "modules",
    "plugins",
    "services",
    "components",
];

fn infer_scope(paths: &[String], conv: &Convention) -> Option<String> {
    let dirs: Vec<Vec<&str>> = paths
        .iter()
        .map(|p| {
            let mut v: Vec<&str> = p.split('/').collect();
            v.pop();
            v
        })
        .collect();
    let first = dirs.first()?;
    let common = (0..first.len())
        .take_while(|&i| dirs.iter().all(|d| d.get(i) == first.get(i)))
        .count();
    let allowed = |s: &str| conv.scopes.is_empty() || conv.scopes.iter().any(|a| a == s);
    let mut candidate = None;
    for seg in &first[..common] {
        if !conv.scopes.is_empty() && allowed(seg) {
            return Some((*seg).to_owned());
        }
        if CONTAINERS.contains(seg) && candidate.is_none() {
            continue;
        }
        candidate = Some(*seg);
        break;
    }
    candidate
        .filter(|s| allowed(s) && !s.starts_with('.'))
        .map(str::to_owned)
}

/// A function name out of a hunk header's trailing context (`@@ -1 +1 @@ fn foo(x)`).
fn function_name(header: &str) -> Option<String> {
    let rest = header.strip_prefix("@@")?;
    let (_, ctx) = rest.split_once("@@")?;
    let ctx = ctx.trim();
    if ctx.is_empty() {
        return None;
    }
    let name = match ctx.find('(') {
        Some(i) => {
            let before = ctx[..i].trim_end();
            let start = before
                .rfind(|c: char| {
                    !(c.is_alphanumeric() || c == '_' || c == '$' || c == ':' || c == '.')
                })
                .map_or(0, |j| {
                    j + before[j..].chars().next().map_or(1, char::len_utf8)
                });
            before[start..]
                .trim_matches(|c| c == ':' || c == '.')
                .to_owned()
        }
        None => ctx.trim_end_matches(['{', ':', ' ']).to_owned(),
    };
    let name: String = name.chars().take(40).collect();
    (!name.is_empty()).then_some(name)
}

/// Words that may come before a definition's keyword.
const MODIFIERS: &[&str] = &[
    "pub",
    "pub(crate)",
    "pub(super)",
    "pub(self)",
    "async",
    "unsafe",
    "extern",
    "export",
    "default",
    "static",
    "public",
    "private",
    "protected",
    "internal",
    "abstract",
    "final",
    "override",
    "virtual",
    "inline",
    "open",
    "data",
    "sealed",
];

/// Keywords that start a definition, and whether the name follows them directly.
const DEFINERS: &[&str] = &[
    "fn",
    "def",
    "class",
    "struct",
    "enum",
    "trait",
    "mod",
    "func",
    "function",
    "interface",
    "type",
    "const",
    "impl",
    "union",
    "macro_rules!",
    "module",
    "object",
];

/// The item a source line defines (`pub fn parse(` → `parse`, `impl Foo for Bar {` →
/// `impl Foo for Bar`, `class Widget:` → `Widget`), or `None` for any other line.
/// The longest name [`defined_name`] gives; a longer one is cut.
const NAME_CHARS: usize = 64;

fn defined_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while words
        .peek()
        .is_some_and(|w| MODIFIERS.contains(w) || w.starts_with("pub("))
    {
        words.next();
    }
    let kw = words.next()?;
    // `extern "C" fn`, `const fn`, `async def` …
    let kw = if kw.starts_with('"') || (kw == "const" && words.peek() == Some(&"fn")) {
        words.next()?
    } else {
        kw
    };
    // Most lines define nothing: the keyword decides before the rest is gathered.
    if !DEFINERS.contains(&kw) {
        return None;
    }
    let rest = words.collect::<Vec<_>>().join(" ");
    if kw == "impl" {
        let head = rest.split('{').next().unwrap_or("").trim();
        let name: String = format!("impl {head}").chars().take(40).collect();
        return (!head.is_empty()).then_some(name);
    }
    // Go methods: `func (r *Repo) Name(`.
    let rest = if kw == "func" && rest.starts_with('(') {
        rest.split_once(')')
            .map_or("", |(_, r)| r)
            .trim_start()
            .to_owned()
    } else {
        rest
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .take(NAME_CHARS)
        .collect();
    (!name.is_empty() && !name.chars().all(|c| c.is_ascii_digit())).then_some(name)
}

/// A hunk line's sign (`+`, `-` or ` `) and its text; a line that starts otherwise
/// (a body that is not a diff's, which may start with any character) has no sign.
fn split_sign(line: &str) -> (&str, &str) {
    match line.as_bytes().first() {
        Some(b'+' | b'-' | b' ') => line.split_at(1),
        _ => ("", line),
    }
}

/// The first Markdown heading a document's diff adds (and does not also remove), as
/// words: `## How to run the fuzz targets` gives `how to run the fuzz targets`. Headings
/// of one word (`## Performance`) say too little and are skipped.
fn added_heading(f: &FileDiff) -> Option<String> {
    let path = lossy(&f.change.path).to_ascii_lowercase();
    if f.binary || f.linguist.is_some() || !(path.ends_with(".md") || path.ends_with(".markdown")) {
        return None;
    }
    let heading = |text: &str| -> Option<String> {
        let t = text.trim_start_matches('#');
        if t.len() == text.len() || text.len() - t.len() > 6 || !t.starts_with(' ') {
            return None;
        }
        let words: String = t
            .trim()
            .trim_end_matches('#')
            .chars()
            .filter(|c| !matches!(c, '`' | '*'))
            .collect();
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        (words.split(' ').count() >= 2).then_some(words)
    };
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for h in &f.hunks {
        for line in h.body.lines() {
            match split_sign(line) {
                ("-", text) => removed.extend(heading(text)),
                ("+", text) => added.extend(heading(text)),
                _ => {}
            }
        }
    }
    let first = added.into_iter().find(|h| !removed.contains(h))?;
    let mut chars = first.chars();
    let head = chars.next()?;
    // `Why` → `why`; an acronym or a name (`GIT_DIR`, `README`) stays as written.
    let lower = chars.next().is_none_or(|c| !c.is_uppercase());
    Some(if lower {
        head.to_lowercase().chain(first.chars().skip(1)).collect()
    } else {
        first
    })
}

/// The words of a name that reads as a sentence: at least six lower-case words in
/// snake case after a `test_` prefix (`the_validator_links_neither_http_client`,
/// `test_a_tag_without_a_version_is_skipped`); `None` for an ordinary name
/// (`parse_subject`, `max_bytes_lower_bound`, `same_as_the_regex`: on this repository's
/// and cocogitto's commits, names of four or five words were as often a helper's as a
/// description).
fn sentence_of(name: &str) -> Option<String> {
    // A name cut at NAME_CHARS may end inside a word: that word goes.
    let cut = name.chars().count() >= NAME_CHARS;
    let name = name.strip_prefix("test_").unwrap_or(name);
    let mut words: Vec<&str> = name.split('_').collect();
    if cut {
        words.pop();
    }
    let plain = |w: &&str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_lowercase())
    };
    (words.len() >= 6 && words.iter().all(plain)).then(|| words.join(" "))
}

/// The names a diff's added lines define, in order, without the ones a removed line of
/// the same diff defined too (a changed signature is not a new item).
fn added_items(f: &FileDiff, public_only: bool) -> Vec<String> {
    let mut removed: Vec<String> = Vec::new();
    let mut added: Vec<(bool, String)> = Vec::new();
    if !has_code(f) {
        return Vec::new();
    }
    for h in &f.hunks {
        for line in h.body.lines() {
            let (sign, text) = split_sign(line);
            if !matches!(sign, "-" | "+") {
                continue;
            }
            let Some(name) = defined_name(text) else {
                continue;
            };
            match sign {
                "-" => removed.push(name),
                "+" if !public_only || is_public(text) => added.push((is_minor(text), name)),
                _ => {}
            }
        }
    }
    // Functions and types before constants and aliases, each in diff order.
    added.sort_by_key(|(minor, _)| *minor);
    let mut out: Vec<String> = Vec::new();
    for (_, n) in added {
        if !removed.contains(&n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A constant, static or type alias: a definition, but rarely what a change is about.
fn is_minor(text: &str) -> bool {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !MODIFIERS.contains(w) && !w.starts_with("pub("))
        .take(2)
        .collect();
    matches!(words.first(), Some(&"const" | &"type")) && words.get(1) != Some(&"fn")
}

/// A file whose lines can define items: source and tests, not prose or data.
fn has_code(f: &FileDiff) -> bool {
    let path = lossy(&f.change.path);
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    !f.binary
        && !f.submodule
        && f.linguist.is_none()
        && matches!(classify(&path), Class::Source | Class::Test)
        && !matches!(
            ext,
            "md" | "txt" | "snap" | "json" | "toml" | "yaml" | "yml" | "lock" | "csv" | "html"
        )
}

/// A definition others can use: `pub` (not `pub(crate)`), `export`, `public`, a Go name
/// in capitals, a Python name at the top level or a Python method, without a leading `_`.
fn is_public(text: &str) -> bool {
    let t = text.trim_start();
    let top = t.len() == text.len();
    t.starts_with("pub ")
        || t.starts_with("export ")
        || t.starts_with("public ")
        || (t.starts_with("func ")
            && defined_name(t).is_some_and(|n| n.starts_with(|c: char| c.is_uppercase())))
        || (top
            && (t.starts_with("def ") || t.starts_with("class "))
            && defined_name(t).is_some_and(|n| !n.starts_with('_')))
        || python_method(t).is_some_and(|n| !n.starts_with('_'))
}

/// A Python method's name: a `def` (or `async def`) whose first parameter is `self` or
/// `cls`.
fn python_method(t: &str) -> Option<String> {
    let rest = t.strip_prefix("async ").unwrap_or(t).strip_prefix("def ")?;
    let (name, params) = rest.split_once('(')?;
    let first = params.trim_start();
    let receiver = ["self", "cls"].iter().any(|r| {
        first
            .strip_prefix(r)
            .is_some_and(|after| after.starts_with([',', ')', ':']))
    });
    receiver.then(|| name.trim().to_owned())
}

/// Most names [`changed_public_items`] gives.
const MAX_BREAKING_NAMES: usize = 10;

/// The public items whose declaration the change removes or alters: a removed line of
/// a source file (not a test) that declares a public item ([`is_public`]) and is not
/// added back the same (trimmed), so `pub fn parse(a)` → `pub fn parse(a, b)` counts,
/// a moved line does not; never of a file whose hunks a prompt does not show
/// (`shown`: excluded, generated, vendored). What a user of the code can break on is
/// there, or nothing
/// of the kind is: a model draft may call a change breaking only when this is not
/// empty ([`crate::structure::Structure::breaking_evidence`]). At most
/// [`MAX_BREAKING_NAMES`], in diff order.
pub fn changed_public_items(
    state: &StagedState,
    shown: &crate::classify::Classifier,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in &state.files {
        let path = lossy(&f.change.path);
        if !has_code(f) || classify(&path) != Class::Source || shown.classify(f).stat_only() {
            continue;
        }
        let removed = signed_lines(f, '-').filter(|t| is_public(t));
        // Most files remove no public line: their added lines are not gathered.
        let mut added: Option<std::collections::HashSet<&str>> = None;
        for text in removed {
            let added = added.get_or_insert_with(|| signed_lines(f, '+').map(str::trim).collect());
            if added.contains(text.trim()) {
                continue;
            }
            let name = defined_name(text).or_else(|| field_name(text));
            if let Some(name) = name
                && !out.contains(&name)
            {
                out.push(name);
                if out.len() == MAX_BREAKING_NAMES {
                    return out;
                }
            }
        }
    }
    out
}

/// Most renames [`renamed_public_items`] gives.
const MAX_RENAMES: usize = 3;

/// The public items the change renames where its users see them: a removed public
/// declaration of a source file (not a test) whose name no added line declares, an
/// added one of the same shape under another name (`pub hooks: Vec<String>,` →
/// `pub pre_bump_hooks: Vec<String>,`), and the docs or configuration the change
/// shows dropping the old name for the new one (`hooks = [` → `pre_bump_hooks = [`
/// in `cog.toml` and the README). A rename users' files must follow breaks them:
/// over the offline bench's 2,204 commits of four projects this fired once, on the
/// one such change, marked breaking by its author (docs/benchmarks.md,
/// `offline-draft`). `(old, new)` pairs, at most [`MAX_RENAMES`], in diff order.
pub fn renamed_public_items(
    state: &StagedState,
    shown: &crate::classify::Classifier,
) -> Vec<(String, String)> {
    let visible = |f: &&FileDiff| !f.binary && !f.submodule && !shown.classify(f).stat_only();
    let source: Vec<&FileDiff> = state
        .files
        .iter()
        .filter(|f| has_code(f) && classify(&lossy(&f.change.path)) == Class::Source)
        .filter(visible)
        .collect();
    // The shape of a public declaration: its name and the line with the name cut out.
    let declared = |t: &str| -> Option<(String, String)> {
        if !is_public(t) {
            return None;
        }
        let name = defined_name(t).or_else(|| field_name(t))?;
        let shape = t.trim().replacen(&name, "\u{0}", 1);
        Some((name, shape))
    };
    // Most changes remove no public declaration: nothing else is read for them.
    let removed: Vec<(String, String)> = source
        .iter()
        .flat_map(|f| signed_lines(f, '-'))
        .filter_map(declared)
        .collect();
    if removed.is_empty() {
        return Vec::new();
    }
    let added: Vec<(String, String)> = source
        .iter()
        .flat_map(|f| signed_lines(f, '+'))
        .filter_map(declared)
        .collect();
    // What users read and write: the docs and configuration files the change shows.
    let user: Vec<&FileDiff> = state
        .files
        .iter()
        .filter(|f| {
            let facts = jitcommit_core::paths::path_facts(&lossy(&f.change.path));
            (facts.docs || facts.config) && !facts.ci && !facts.test && !facts.lock
        })
        .filter(visible)
        .collect();
    let user_old: Vec<&str> = user.iter().flat_map(|f| signed_lines(f, '-')).collect();
    let user_new: Vec<&str> = user.iter().flat_map(|f| signed_lines(f, '+')).collect();
    let mut out: Vec<(String, String)> = Vec::new();
    for (old, shape) in &removed {
        if added.iter().any(|(n, _)| n == old) || out.iter().any(|(o, _)| o == old) {
            continue;
        }
        let Some((new, _)) = added.iter().find(|(n, s)| s == shape && n != old) else {
            continue;
        };
        let users_follow = user_old.iter().any(|l| contains_word(l, old))
            && !user_new.iter().any(|l| contains_word(l, old))
            && user_new.iter().any(|l| contains_word(l, new));
        if users_follow {
            out.push((old.clone(), new.clone()));
            if out.len() == MAX_RENAMES {
                break;
            }
        }
    }
    out
}

/// The lines a file's hunks add (`sign` `+`) or remove (`-`), without the sign.
fn signed_lines(f: &FileDiff, sign: char) -> impl Iterator<Item = &str> {
    f.hunks
        .iter()
        .flat_map(|h| h.body.lines())
        .filter_map(move |l| l.strip_prefix(sign))
}

/// The breaking-change note for [`renamed_public_items`]: `hooks is now
/// pre_bump_hooks; what names hooks must change`.
pub fn rename_note(renames: &[(String, String)]) -> Option<String> {
    if renames.is_empty() {
        return None;
    }
    let now: Vec<String> = renames
        .iter()
        .map(|(old, new)| format!("{old} is now {new}"))
        .collect();
    let olds: Vec<&str> = renames.iter().map(|(old, _)| old.as_str()).collect();
    Some(format!(
        "{}; what names {} must change",
        now.join(", "),
        olds.join(" or ")
    ))
}

/// A public field's name: `pub hooks: Vec<String>,` → `hooks`.
fn field_name(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix("pub ")?;
    let (name, _) = rest.split_once(':')?;
    let name = name.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| name.to_owned())
}

/// The new public items of a source file's diff (a model draft's type evidence,
/// [`crate::choices::evidence`]).
pub fn new_public_items(f: &FileDiff) -> Vec<String> {
    if f.binary || f.submodule {
        return Vec::new();
    }
    added_items(f, true)
}

/// The item a hunk changes: the nearest definition among its context and removed lines
/// before its first change, else the header's function when it looks like one.
fn changed_item(h: &jitcommit_core::repo::Hunk) -> Option<String> {
    let mut nearest = None;
    for line in h.body.lines() {
        let (sign, text) = split_sign(line);
        match sign {
            " " | "-" => {
                if let Some(n) = defined_name(text) {
                    nearest = Some(n);
                }
                if sign == "-" {
                    break;
                }
            }
            _ => break,
        }
    }
    nearest.or_else(|| {
        let ctx = h.header.strip_prefix("@@")?.split_once("@@")?.1;
        defined_name(ctx).or_else(|| {
            // A C-like `type name(args)` header: the word before `(`.
            ctx.contains('(')
                .then(|| function_name(&h.header))
                .flatten()
                .filter(|n| !n.contains(' '))
        })
    })
}

/// What a hunk does to the item it changes, in words: `added parameter tax to total`,
/// `changed constant LIMIT`, `new branch in parse`, `changed text in greet`, `comments
/// in parse`, `changed imports`, else `changed parse`; `None` when the hunk names no
/// item and is none of these.
fn hunk_change(f: &FileDiff, h: &jitcommit_core::repo::Hunk) -> Option<String> {
    let item = changed_item(h);
    let lines: Vec<(&str, &str)> = h.body.lines().map(split_sign).collect();
    let changed = |sign: &str| -> Vec<&str> {
        lines
            .iter()
            .filter(|(s, t)| *s == sign && !t.trim().is_empty())
            .map(|(_, t)| t.trim())
            .collect()
    };
    let (minus, plus) = (changed("-"), changed("+"));
    if minus.is_empty() && plus.is_empty() {
        return item.map(|n| format!("changed {n}"));
    }
    // One hunk's own evidence, as a one-hunk diff of the file.
    let one = FileDiff {
        hunks: vec![h.clone()],
        ..f.clone()
    };
    if let Some((func, param)) = added_parameters(&one).into_iter().next() {
        return Some(format!("added parameter {param} to {func}"));
    }
    if documents_only(&one) {
        return Some(match item {
            Some(n) => format!("comments in {n}"),
            None => "comments".to_owned(),
        });
    }
    let import = |t: &&str| {
        [
            "import ",
            "from ",
            "use ",
            "#include",
            "require(",
            "export * from",
        ]
        .iter()
        .any(|k| t.starts_with(k))
            || (t.contains("require(") && t.starts_with("const "))
    };
    if minus.iter().chain(&plus).all(import) {
        return Some("changed imports".to_owned());
    }
    let constant = |t: &str| -> Option<String> {
        let t = t
            .trim_start_matches("pub ")
            .trim_start_matches("export ")
            .trim_start_matches("const ")
            .trim_start_matches("static ");
        let name: String = t
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let rest = t[name.len()..].trim_start();
        let upper = name.len() > 1
            && name.chars().any(|c| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        (upper && (rest.starts_with('=') || rest.starts_with(':'))).then_some(name)
    };
    let constants: Vec<String> = minus.iter().filter_map(|t| constant(t)).collect();
    if let Some(c) = plus
        .iter()
        .filter_map(|t| constant(t))
        .find(|c| constants.contains(c))
    {
        return Some(format!("changed constant {c}"));
    }
    let branch = |t: &&str| {
        let t = t.trim_start_matches("} ");
        [
            "if ", "if(", "elif ", "else", "match ", "case ", "switch ", "switch(", "when ",
            "except", "catch", "guard ",
        ]
        .iter()
        .any(|k| t.starts_with(k))
    };
    let in_item = item.as_ref().map_or(String::new(), |n| format!(" in {n}"));
    if plus.iter().any(|t| branch(t) && !minus.contains(t)) {
        return Some(format!("new branch{in_item}"));
    }
    // Only the words between quotes differ: a message, a label.
    let unquoted = |t: &str| -> String {
        let mut out = String::new();
        let mut quote: Option<char> = None;
        for c in t.chars() {
            match quote {
                Some(q) if c == q => {
                    quote = None;
                    out.push(c);
                }
                Some(_) => {}
                None => {
                    if matches!(c, '"' | '\'' | '`') {
                        quote = Some(c);
                    }
                    out.push(c);
                }
            }
        }
        out
    };
    if minus.len() == plus.len()
        && minus
            .iter()
            .zip(&plus)
            .all(|(a, b)| a != b && unquoted(a) == unquoted(b) && a.contains(['"', '\'', '`']))
    {
        return Some(format!("changed text{in_item}"));
    }
    item.map(|n| format!("changed {n}"))
}

/// The first clause of the documentation a new item carries — a docstring after its
/// definition, doc comments before it — as words without the final period, or `None`
/// when it is longer than [`PURPOSE_WORDS`] words (a clause cut short says less than
/// the name).
fn purpose(f: &FileDiff, name: &str) -> Option<String> {
    let lines: Vec<&str> = signed_lines(f, '+').collect();
    let at = lines
        .iter()
        .position(|t| defined_name(t).as_deref() == Some(name))?;
    // A docstring: the next line that is not blank.
    let after = lines[at + 1..]
        .iter()
        .map(|t| t.trim())
        .find(|t| !t.is_empty());
    let doc = after
        .and_then(|t| {
            let t = t.strip_prefix("\"\"\"").or_else(|| t.strip_prefix("'''"))?;
            let t = t.trim();
            Some(if t.is_empty() {
                lines[at + 1..]
                    .iter()
                    .map(|t| t.trim())
                    .filter(|t| !t.is_empty())
                    .nth(1)
                    .unwrap_or("")
                    .to_owned()
            } else {
                t.to_owned()
            })
        })
        .or_else(|| {
            // Doc comments: the lines just above, past attributes and decorators.
            let mut text = Vec::new();
            for t in lines[..at].iter().rev().map(|t| t.trim()) {
                if t.starts_with("#[") || t.starts_with('@') {
                    continue;
                }
                let Some(c) = ["///", "//!", "//", "/**", "*", "#"]
                    .iter()
                    .find_map(|m| t.strip_prefix(m))
                else {
                    break;
                };
                let c = c.trim().trim_end_matches("*/").trim();
                if !c.is_empty() {
                    text.push(c);
                }
            }
            text.reverse();
            (!text.is_empty()).then(|| text.join(" "))
        })?;
    let doc = doc
        .trim_end_matches("\"\"\"")
        .trim_end_matches("'''")
        .trim();
    // The first clause of the first sentence, without code quotes.
    let doc = doc.replace('`', "");
    let clause = doc
        .split([',', ';', ':', '(', '—'])
        .next()
        .unwrap_or(&doc)
        .split(". ")
        .next()
        .unwrap_or("")
        .trim_end_matches('.');
    let words: Vec<&str> = clause.split_whitespace().collect();
    if words.len() > PURPOSE_WORDS {
        return None;
    }
    let first = words.first()?;
    if !first.chars().all(|c| c.is_ascii_alphabetic()) || words.len() < 2 {
        return None;
    }
    let lower = first.to_ascii_lowercase();
    let rest = words[1..].join(" ");
    if matches!(
        lower.as_str(),
        "a" | "an" | "the" | "this" | "that" | "these" | "those" | "one" | "some" | "all"
    ) {
        return Some(format!("for {lower} {rest}"));
    }
    if matches!(
        lower.as_str(),
        "is" | "are" | "was" | "has" | "can" | "will" | "should" | "must"
    ) {
        return None;
    }
    Some(format!("to {} {rest}", imperative(&lower)))
}

/// Most words a docstring gives a summary ([`purpose`]).
const PURPOSE_WORDS: usize = 10;

/// A verb as a docstring's third person writes it, in the imperative: `returns` →
/// `return`, `matches` → `match`, `applies` → `apply`; other words as they are.
fn imperative(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() > 1) {
        return format!("{stem}y");
    }
    for ending in ["sses", "shes", "ches", "xes", "zes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    if word == "does" {
        return "do".to_owned();
    }
    match word.strip_suffix('s') {
        Some(stem) if !stem.ends_with(['s', 'u', 'i']) && stem.len() > 2 => stem.to_owned(),
        _ => word.to_owned(),
    }
}

fn what(f: &FileDiff) -> String {
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
fn stat_only(f: &FileDiff, l: Linguist) -> String {
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

fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}

fn file_bullet(f: &FileDiff, conv: &Convention) -> Bullet {
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
fn directory_bullets(state: &StagedState, conv: &Convention) -> Vec<Bullet> {
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
fn tally(kinds: &[ChangeKind]) -> String {
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

/// The subject's summary: what happens to the dominant file (the source file with the
/// most changed lines, else any file) and its main symbol, and how many other files
/// change with it; for a change described by directories, the directory.
fn summarize(state: &StagedState, paths: &[String]) -> String {
    let kinds: Vec<ChangeKind> = state.files.iter().map(|f| f.change.kind).collect();
    let action = if kinds
        .iter()
        .all(|k| matches!(k, ChangeKind::Added | ChangeKind::Copied))
    {
        "add"
    } else if kinds.iter().all(|k| *k == ChangeKind::Deleted) {
        "remove"
    } else if kinds.iter().all(|k| *k == ChangeKind::Renamed) {
        "rename"
    } else {
        "update"
    };
    // A renamed module names the change when the change is the rename: its references
    // updated at most.
    let all: Vec<&FileDiff> = state.files.iter().collect();
    let renames_only = all
        .iter()
        .all(|f| matches!(f.change.kind, ChangeKind::Renamed | ChangeKind::Deleted));
    if (renames_only || renamed_with_references(&all))
        && let Some((old, new)) = renamed_modules(&all).first()
    {
        return format!("rename {old} to {new}");
    }
    if state.files.len() > MAX_BULLETS {
        return match dominant_directory(paths) {
            Some(dir) => format!("{action} {} files in {dir}", paths.len()),
            None => format!("{action} {} files", paths.len()),
        };
    }
    let weight = |f: &FileDiff| {
        let class = classify(&lossy(&f.change.path));
        (
            f.linguist.is_none(),
            class == Class::Source,
            has_code(f),
            f.added + f.removed + 1,
        )
    };
    let Some(main) = state.files.iter().max_by_key(|f| weight(f)) else {
        return action.to_owned();
    };
    let path = lossy(&main.change.path);
    let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
    // Code names its module (`report`), anything else its file (`Cargo.toml`).
    let module = if has_code(main) {
        stem(&path).to_owned()
    } else {
        name.clone()
    };
    // A generated or vendored file's lines name nothing worth a summary.
    let items = if main.linguist.is_some() {
        Vec::new()
    } else {
        added_items(main, false)
    };
    // A test named as a sentence says what the change proves, in the author's words;
    // a new heading says what a document now covers.
    if let Some(sentence) = items.iter().find_map(|n| sentence_of(n)) {
        return sentence;
    }
    if let Some(heading) = added_heading(main) {
        return heading;
    }
    // A new item: its name, and its purpose when its documentation says it.
    let add = |sym: &str| match purpose(main, sym) {
        Some(p) => format!("add {sym} {p}"),
        None => format!("add {sym}"),
    };
    match (main.change.kind, &main.change.old_path) {
        // change_words: a file added or removed whole by what it holds, a move by both
        // places (60: about what a subject leaves a summary).
        (ChangeKind::Added | ChangeKind::Copied, _) => match items.first() {
            Some(sym) => add(sym),
            None => crate::change_words::docs::whole_file(&path, &main.hunks, '+')
                .unwrap_or_else(|| format!("add {module}")),
        },
        (ChangeKind::Deleted, _) => crate::change_words::docs::whole_file(&path, &main.hunks, '-')
            .unwrap_or_else(|| format!("remove {module}")),
        (ChangeKind::Renamed, Some(old)) => crate::change_words::moved(&lossy(old), &path, 60)
            .unwrap_or_else(|| format!("move {name}")),
        _ => match items.first() {
            Some(sym) => add(sym),
            None => main
                .hunks
                .iter()
                .filter(|_| has_code(main))
                .find_map(|h| hunk_change(main, h))
                .map(|d| {
                    // An edit that names no item names its module.
                    let named = d.contains(" in ")
                        || d.contains(" to ")
                        || d.starts_with("changed ")
                            && !matches!(d.as_str(), "changed text" | "changed imports");
                    let s = edit_summary(&d);
                    if named { s } else { format!("{s} in {module}") }
                })
                // change_words: a document's link or section, a configuration's keys.
                .or_else(|| crate::change_words::file_summary(&path, &main.hunks, usize::MAX))
                .unwrap_or_else(|| format!("update {module}")),
        },
    }
}

/// A bullet's description of an edit ([`hunk_change`]) as a summary, in the
/// imperative: `added parameter tax to total` → `add parameter tax to total`,
/// `new branch in parse` → `add a branch to parse`, `comments in parse` → `document
/// parse`, `changed parse` → `update parse`.
fn edit_summary(d: &str) -> String {
    if let Some(rest) = d.strip_prefix("added ") {
        format!("add {rest}")
    } else if let Some(rest) = d.strip_prefix("new branch in ") {
        format!("add a branch to {rest}")
    } else if d == "new branch" {
        "add a branch".to_owned()
    } else if let Some(rest) = d.strip_prefix("comments in ") {
        format!("document {rest}")
    } else if d == "comments" {
        "update comments".to_owned()
    } else if let Some(rest) = d.strip_prefix("changed ") {
        if rest.starts_with("constant ") || rest.starts_with("text") || rest == "imports" {
            format!("change {rest}")
        } else {
            format!("update {rest}")
        }
    } else {
        d.to_owned()
    }
}

/// The directory holding most of `paths` (two levels at most), when it holds at least
/// half of them; `None` otherwise.
fn dominant_directory(paths: &[String]) -> Option<String> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for p in paths {
        let segs: Vec<&str> = p.split('/').collect();
        for depth in 1..segs.len().min(3) {
            *counts.entry(segs[..depth].join("/")).or_default() += 1;
        }
    }
    // The deepest directory that still holds half: `docs/website` over `docs`.
    let half = paths.len().div_ceil(2);
    counts
        .into_iter()
        .filter(|(_, n)| *n >= half)
        .max_by_key(|(d, n)| (d.matches('/').count(), *n))
        .map(|(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fixtures::{file, state};

    fn kind_of(files: Vec<FileDiff>) -> String {
        draft(&state(files), &Convention::default())
            .expect("a draft")
            .subject
            .kind
    }

    #[test]
    fn nothing_staged_is_no_draft() {
        assert_eq!(
            draft(&state(vec![]), &Convention::default()),
            Err(OfflineError::NothingStaged)
        );
    }

    #[test]
    fn public_items_removed_or_changed_are_the_evidence_of_a_breaking_change() {
        use ChangeKind::*;
        let with = |path: &str, body: &str| {
            let mut f = file(Modified, path, None, &["@@ -1,3 +1,3 @@"]);
            f.hunks[0].body = body.to_owned();
            f
        };
        let shown = crate::classify::Classifier::new(&["private/**".to_owned()]);
        let items = |files| changed_public_items(&state(files), &shown);
        // A changed signature, a removed public field, a removed exported function.
        assert_eq!(
            items(vec![
                with(
                    "src/lib.rs",
                    "-pub fn parse(a: &str) -> X {\n+pub fn parse(a: &str, b: bool) -> X {\n-    pub hooks: Vec<String>,\n"
                ),
                with("web/api.ts", "-export function fetchAll() {\n"),
            ]),
            ["parse", "hooks", "fetchAll"]
        );
        // Moved unchanged, crate-private, private, a test file's, a document's: none.
        assert!(
            items(vec![
                with(
                    "src/lib.rs",
                    "-pub fn same() {}\n+    pub fn same() {}\n-pub(crate) fn inner() {}\n-fn private() {}\n"
                ),
                with("tests/api.rs", "-pub fn helper() {}\n"),
                with("docs/api.md", "-pub fn shown() {}\n"),
                // Excluded from the prompt's context: the contract does not name it.
                with("private/api.rs", "-pub fn withheld() {}\n"),
            ])
            .is_empty()
        );
    }

    #[test]
    fn a_public_item_renamed_where_its_users_name_it_is_a_breaking_change() {
        use ChangeKind::*;
        let with = |path: &str, body: &str| {
            let mut f = file(Modified, path, None, &["@@ -1,3 +1,3 @@"]);
            f.hunks[0].body = body.to_owned();
            f
        };
        let shown = crate::classify::Classifier::new(&["private/**".to_owned()]);
        let renamed = |files| renamed_public_items(&state(files), &shown);
        let field = "     #[serde(default)]\n-    pub hooks: Vec<String>,\n+    pub pre_bump_hooks: Vec<String>,\n";
        let uses = "-    &self.hooks\n+    &self.pre_bump_hooks\n";
        let config = "-hooks = [\n+pre_bump_hooks = [\n";
        // cocogitto's 7015c51: the field, its use, the config file and the README.
        let change = vec![
            with("src/settings.rs", &format!("{field}{uses}")),
            with("cog.toml", config),
            with("README.md", config),
        ];
        let pairs = renamed(change.clone());
        assert_eq!(pairs, [("hooks".to_owned(), "pre_bump_hooks".to_owned())]);
        let m = draft(&state(change), &Convention::default()).unwrap();
        assert!(m.subject.breaking, "{m:?}");
        assert_eq!(
            m.trailers[0].value,
            "hooks is now pre_bump_hooks; what names hooks must change"
        );
        assert!(crate::structure::has_words(&m.trailers[0].value, 3));
        // The same rename where no doc or config follows it: an inner rename.
        assert!(renamed(vec![with("src/settings.rs", field)]).is_empty());
        // Users' files still naming the old one too: not a rename they must follow.
        let both = "-hooks = [\n+pre_bump_hooks = [\n+hooks = [\n";
        assert!(renamed(vec![with("src/settings.rs", field), with("cog.toml", both)]).is_empty());
        // Another shape (a changed type), a private field, a test's or a CI file's
        // rename, an excluded file's: none.
        for change in [
            vec![
                with(
                    "src/settings.rs",
                    "-    pub hooks: Vec<String>,\n+    pub pre_bump_hooks: Vec<Hook>,\n",
                ),
                with("cog.toml", config),
            ],
            vec![
                with(
                    "src/settings.rs",
                    "-    hooks: Vec<String>,\n+    pre_bump_hooks: Vec<String>,\n",
                ),
                with("cog.toml", config),
            ],
            vec![with("tests/settings.rs", field), with("cog.toml", config)],
            vec![
                with("src/settings.rs", field),
                with(".github/workflows/ci.yml", config),
            ],
            vec![with("private/settings.rs", field), with("cog.toml", config)],
        ] {
            assert!(renamed(change.clone()).is_empty(), "{change:?}");
            let mut conv = Convention::default();
            conv.context.exclude = vec!["private/**".to_owned()];
            let m = draft(&state(change), &conv).unwrap();
            assert!(!m.subject.breaking && m.trailers.is_empty(), "{m:?}");
        }
        // A renamed function whose docs follow it.
        assert_eq!(
            renamed(vec![
                with(
                    "src/lib.rs",
                    "-pub fn load(p: &Path) -> Config {\n+pub fn read_config(p: &Path) -> Config {\n"
                ),
                with(
                    "docs/api.md",
                    "-Call `load(path)`.\n+Call `read_config(path)`.\n"
                ),
            ]),
            [("load".to_owned(), "read_config".to_owned())]
        );
    }

    #[test]
    fn type_from_paths_and_statuses() {
        use ChangeKind::*;
        assert_eq!(
            kind_of(vec![
                file(Modified, "docs/a.md", None, &[]),
                file(Added, "README.md", None, &[])
            ]),
            "docs"
        );
        assert_eq!(
            kind_of(vec![file(Modified, "tests/a.rs", None, &[])]),
            "test"
        );
        assert_eq!(
            kind_of(vec![file(Modified, ".github/workflows/ci.yml", None, &[])]),
            "ci"
        );
        assert_eq!(
            kind_of(vec![
                file(Modified, "Cargo.toml", None, &[]),
                file(Modified, "Cargo.lock", None, &[])
            ]),
            "build"
        );
        assert_eq!(
            kind_of(vec![
                file(Added, "src/new.rs", None, &[]),
                file(Modified, "src/lib.rs", None, &[])
            ]),
            "feat"
        );
        assert_eq!(
            kind_of(vec![
                file(Renamed, "src/b.rs", Some("src/a.rs"), &[]),
                file(Deleted, "src/c.rs", None, &[])
            ]),
            "refactor"
        );
        // A modification the change does not type, with no history: fix, never chore.
        assert_eq!(
            kind_of(vec![file(Modified, "src/lib.rs", None, &[])]),
            "fix"
        );
        // A type the convention does not allow falls back to its first type.
        let conv = Convention {
            types: vec!["fix".into(), "feat".into()],
            ..Convention::default()
        };
        let m =
            draft(&state(vec![file(Modified, "docs/a.md", None, &[])]), &conv).expect("a draft");
        assert_eq!(m.subject.kind, "fix");
    }

    /// A modified file whose one hunk has `header` and `body`.
    fn hunk_file(kind: ChangeKind, path: &str, header: &str, body: &str) -> FileDiff {
        let mut f = file(kind, path, None, &[header]);
        f.hunks[0].body = body.to_owned();
        f.added = body.lines().filter(|l| l.starts_with('+')).count();
        f.removed = body.lines().filter(|l| l.starts_with('-')).count();
        f
    }

    fn kind_with(
        files: Vec<FileDiff>,
        history: &[(&str, usize)],
        near: &[(&str, usize)],
    ) -> String {
        let h = TypeHistory {
            exact: history.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect(),
            near: near.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect(),
        };
        draft_with(&state(files), &Convention::default(), &h)
            .expect("a draft")
            .subject
            .kind
    }

    #[test]
    fn a_new_public_function_is_a_feature_whatever_the_history_says() {
        let f = || {
            hunk_file(
                ChangeKind::Modified,
                "src/lib.rs",
                "@@ -3 +3,4 @@ fn old()",
                " }\n+\n+pub fn parse(x: &str) -> u8 {\n+    0\n+}\n",
            )
        };
        assert_eq!(kind_with(vec![f()], &[], &[]), "feat");
        // What the change shows comes before what the history says of these paths.
        assert_eq!(
            kind_with(vec![f()], &[("perf", 3), ("fix", 1)], &[]),
            "feat"
        );
        // A private helper is not a feature.
        let private = hunk_file(
            ChangeKind::Modified,
            "src/lib.rs",
            "@@ -3 +3,2 @@ fn old()",
            " }\n+fn helper() {}\n",
        );
        assert_eq!(kind_with(vec![private], &[], &[]), "fix");
        // A changed signature is not a new item.
        let changed = hunk_file(
            ChangeKind::Modified,
            "src/lib.rs",
            "@@ -3 +3 @@",
            "-pub fn parse(x: &str) -> u8 {\n+pub fn parse(x: &[u8]) -> u8 {\n",
        );
        assert_eq!(kind_with(vec![changed], &[], &[]), "fix");
    }

    #[test]
    fn a_release_is_a_chore_named_by_its_version() {
        use ChangeKind::*;
        let changelog = |kind, body: &str| {
            let mut f = file(kind, "CHANGELOG.md", None, &["@@ -1,3 +1,7 @@"]);
            f.hunks[0].body = body.to_owned();
            f
        };
        let release = "-## [Unreleased]\n+## [Unreleased]\n+\n+## [0.2.0] - 2026-01-02\n";
        let subject = |files: Vec<FileDiff>, conv: &Convention| {
            let m = draft(&state(files), conv).expect("a draft");
            let scope = m
                .subject
                .scope
                .map(|s| format!("({s})"))
                .unwrap_or_default();
            format!("{}{scope}: {}", m.subject.kind, m.subject.summary)
        };
        let conv = Convention::default();
        assert_eq!(
            subject(vec![changelog(Modified, release)], &conv),
            "chore(release): 0.2.0"
        );
        let bumped = vec![
            changelog(Modified, release),
            file(Modified, "Cargo.lock", None, &[]),
            file(Modified, "crates/core/Cargo.toml", None, &[]),
            file(Modified, "package.json", None, &[]),
        ];
        assert_eq!(subject(bumped, &conv), "chore(release): 0.2.0");
        // A first release writes the file.
        assert_eq!(
            subject(
                vec![changelog(Added, "+# Changelog\n+## [v1.0.0]\n")],
                &conv
            ),
            "chore(release): v1.0.0"
        );
        // A scope list without `release`, a type list without `chore`.
        let strict = Convention {
            types: vec!["feat".into(), "build".into()],
            scopes: vec!["core".into()],
            ..Convention::default()
        };
        assert_eq!(
            subject(vec![changelog(Modified, release)], &strict),
            "build: release 0.2.0"
        );
        // A changelog written for the first time with the earlier versions below.
        assert_eq!(
            subject(vec![changelog(Added, "+## [0.2.0]\n+## [0.1.0]\n")], &conv),
            "chore(release): 0.2.0"
        );
        // commitizen's heading, and a file that only moves a version (a hook's `rev:`).
        let mut hook = file(Modified, ".pre-commit-config.yaml", None, &["@@ -3 +3 @@"]);
        hook.hunks[0].body = "-    rev: v4.11.5\n+    rev: v4.11.6\n".to_owned();
        assert_eq!(
            subject(
                vec![
                    changelog(
                        Modified,
                        "+## v4.11.6 (2026-01-15)\n+\n ## v4.11.5 (2026-01-15)\n"
                    ),
                    hook
                ],
                &conv
            ),
            "chore(release): v4.11.6"
        );
        // Not a release: an edit under a heading, a regenerated history (two new
        // versions), a heading that moves, code beside the changelog.
        for files in [
            vec![changelog(Modified, "+- a fixed entry\n")],
            vec![changelog(Modified, "+## [Unreleased]\n")],
            vec![changelog(Modified, "+## [0.2.0]\n+## [0.1.0]\n")],
            vec![changelog(
                Modified,
                "-## [0.1.0]\n+## [0.1.0] - 2026-01-01\n",
            )],
            vec![
                changelog(Modified, release),
                file(Modified, "src/lib.rs", None, &[]),
            ],
        ] {
            let s = subject(files, &conv);
            assert!(!s.starts_with("chore(release)"), "{s}");
        }
    }

    #[test]
    fn history_decides_a_modification_exact_paths_first() {
        use ChangeKind::*;
        let f = || vec![file(Modified, "src/probe.rs", None, &[])];
        assert_eq!(kind_with(f(), &[("perf", 2)], &[("refactor", 9)]), "perf");
        assert_eq!(
            kind_with(f(), &[], &[("refactor", 9), ("fix", 2)]),
            "refactor"
        );
        // feat and chore are not the history's to give for code: a modification adds
        // nothing, and code is never a chore.
        assert_eq!(kind_with(f(), &[("feat", 9), ("chore", 8)], &[]), "fix");
        // A change without source takes the history's chore: a version bump's
        // manifest, lock file and changelog, as the repository commits them.
        let bump = || {
            vec![
                file(Modified, "CHANGELOG.md", None, &[]),
                file(Modified, "Cargo.lock", None, &[]),
                file(Modified, "Cargo.toml", None, &[]),
            ]
        };
        assert_eq!(
            kind_with(bump(), &[("chore", 9), ("docs", 2)], &[]),
            "chore"
        );
        assert_eq!(kind_with(bump(), &[("feat", 9)], &[]), "build");
        assert_eq!(kind_with(bump(), &[], &[]), "build");
        // Ties go to the type that sorts first.
        assert_eq!(kind_with(f(), &[("perf", 2), ("fix", 2)], &[]), "fix");
        // A new file is a feature whatever the history says.
        assert_eq!(
            kind_with(
                vec![file(Added, "src/new.rs", None, &[])],
                &[("perf", 9)],
                &[]
            ),
            "feat"
        );
    }

    #[test]
    fn source_that_mostly_grows_with_a_new_item_is_a_feature() {
        let grown = |removed: &str| {
            hunk_file(
                ChangeKind::Modified,
                "src/lib.rs",
                "@@ -3,2 +3,12 @@ fn old()",
                &format!(
                    " }}\n{removed}+\n+fn helper(x: u8) -> u8 {{\n+    let y = x + 1;\n\
                     +    let z = y * 2;\n+    z - 1\n+}}\n+\n+fn other() {{\n+    helper(1);\n+}}\n"
                ),
            )
        };
        // A private item and ten lines added, none removed: a feature, whatever the
        // history says of the path.
        assert_eq!(kind_with(vec![grown("")], &[("perf", 9)], &[]), "feat");
        // Two lines removed for ten added is a rework: the history decides.
        assert_eq!(
            kind_with(vec![grown("-    a();\n-    b();\n")], &[("perf", 9)], &[]),
            "perf"
        );
        // Lines added without a new item (a longer body) are no feature either.
        let longer = hunk_file(
            ChangeKind::Modified,
            "src/lib.rs",
            "@@ -3,1 +3,11 @@ fn old()",
            &"+    step();\n".repeat(11),
        );
        assert_eq!(kind_with(vec![longer], &[("perf", 9)], &[]), "perf");
    }

    #[test]
    fn tests_beside_docs_or_config_are_a_test_change() {
        use ChangeKind::*;
        assert_eq!(
            kind_of(vec![
                file(Modified, "tests/a.rs", None, &[]),
                file(Modified, "tests/snapshots/a.snap", None, &[]),
                file(Modified, "docs/testing.md", None, &[]),
            ]),
            "test"
        );
        assert_eq!(
            kind_of(vec![
                file(Added, "tests/new.rs", None, &[]),
                file(Modified, "src/lib.rs", None, &[]),
            ]),
            "fix"
        );
    }

    #[test]
    fn a_new_heading_is_the_summary_of_a_document_change() {
        use ChangeKind::*;
        let doc = |body: &str| {
            let f = hunk_file(Modified, "docs/trust.md", "@@ -10,3 +10,6 @@", body);
            draft(&state(vec![f]), &Convention::default())
                .expect("a draft")
                .subject
                .summary
        };
        assert_eq!(
            doc(" text\n+## How to run the `fuzz` targets\n+\n+Run them.\n"),
            "how to run the fuzz targets"
        );
        // A heading that only moved, a one-word heading (change_words: the section
        // named), a `#` comment in a code block without a space: the file is named.
        assert_eq!(
            doc("-## Old place\n+## Old place\n"),
            "update Old place in trust.md"
        );
        assert_eq!(doc("+## Performance\n"), "add section Performance");
        assert_eq!(doc("+#include <x.h>\n"), "update trust.md");
        assert_eq!(doc("+### GIT_DIR and friends\n"), "GIT_DIR and friends");
    }

    #[test]
    fn a_test_named_as_a_sentence_is_the_summary() {
        use ChangeKind::*;
        for (name, want) in [
            (
                "the_validator_links_neither_http_client",
                Some("the validator links neither http client"),
            ),
            ("max_bytes_lower_bound", None),
            ("test_pre_and_auto_pre_conflict", None),
            (
                "test_a_tag_without_a_version_is_skipped",
                Some("a tag without a version is skipped"),
            ),
            ("parse_subject", None),
            ("read_all_packs", None),
            ("test_read_all", None),
            ("Read_All_The_Packs", None),
            ("read__all_the_packs", None),
        ] {
            assert_eq!(sentence_of(name).as_deref(), want, "{name}");
        }
        let test = hunk_file(
            Added,
            "tests/lean.rs",
            "@@ -0,0 +1,4 @@",
            "+fn binary(name: &str) {}\n+#[test]\n+fn the_validator_links_neither_http_client_nor_tokenizer() {\n+}\n",
        );
        let m = draft(&state(vec![test]), &Convention::default()).expect("a draft");
        assert_eq!(
            m.subject.summary,
            "the validator links neither http client nor tokenizer"
        );
        // Too long for the subject: cut at a word, not in one.
        let long = hunk_file(
            Added,
            "tests/status.rs",
            "@@ -0,0 +1,2 @@",
            "+fn a_non_utf8_file_name_in_git_s_status_comment_does_not_block_the_commit() {\n+}\n",
        );
        let m = draft(&state(vec![long]), &Convention::default()).expect("a draft");
        assert_eq!(
            m.subject.summary,
            "a non utf8 file name in git s status comment does not block"
        );
    }

    #[test]
    fn the_summary_names_the_dominant_file_and_its_symbol() {
        use ChangeKind::*;
        let mut big = hunk_file(
            Modified,
            "src/parser.rs",
            "@@ -10,3 +10,3 @@ pub fn parse_subject(line: &str) -> Subject {",
            "     let a = 1;\n-    let b = 2;\n+    let b = 3;\n",
        );
        big.added = 30;
        let m = draft(
            &state(vec![
                big,
                file(Modified, "README.md", None, &[]),
                file(Modified, "src/a.rs", None, &[]),
            ]),
            &Convention::default(),
        )
        .expect("a draft");
        // The symbol and what happens to it, not the files around it.
        assert_eq!(m.subject.summary, "update parse_subject");
        let added = hunk_file(
            Added,
            "src/history.rs",
            "@@ -0,0 +1,3 @@",
            "+const N: usize = 3;\n+pub struct TypeHistory {\n+}\n",
        );
        let m = draft(&state(vec![added]), &Convention::default()).expect("a draft");
        assert_eq!(m.subject.summary, "add TypeHistory");
        let moved = file(Renamed, "src/b/x.rs", Some("src/a/x.rs"), &[]);
        let m = draft(&state(vec![moved]), &Convention::default()).expect("a draft");
        // change_words: a move names both places.
        assert_eq!(m.subject.summary, "move src/a/x.rs to src/b/x.rs");
    }

    #[test]
    fn the_what_names_the_added_test_not_the_function_before_it() {
        let f = hunk_file(
            ChangeKind::Modified,
            "tests/codec.rs",
            "@@ -20,3 +20,8 @@ fn test_roundtrip() {",
            " }\n+\n+#[test]\n+fn test_empty_input() {\n+    assert!(decode(\"\").is_ok());\n+}\n",
        );
        let m = draft(&state(vec![f]), &Convention::default()).expect("a draft");
        assert!(
            m.bullets[0].what_why.starts_with("new test_empty_input; "),
            "{}",
            m.bullets[0].what_why
        );
        // A header that is not a definition (`x = 1`) names nothing.
        let f = hunk_file(
            ChangeKind::Modified,
            "src/conf.py",
            "@@ -1 +1 @@ x = 1",
            "-y = 2\n+y = 3\n",
        );
        let m = draft(&state(vec![f]), &Convention::default()).expect("a draft");
        assert!(
            m.bullets[0].what_why.starts_with("+1 −1 lines; "),
            "{}",
            m.bullets[0].what_why
        );
        // The nearest definition inside the hunk beats the header's.
        let f = hunk_file(
            ChangeKind::Modified,
            "src/lib.rs",
            "@@ -1,4 +1,4 @@ impl Parser {",
            "     fn render(&self) {\n-        1\n+        2\n",
        );
        let m = draft(&state(vec![f]), &Convention::default()).expect("a draft");
        assert!(
            m.bullets[0].what_why.starts_with("changed render; "),
            "{}",
            m.bullets[0].what_why
        );
        // A new file lists what it defines.
        let f = hunk_file(
            ChangeKind::Added,
            "src/x.rs",
            "@@ -0,0 +1,2 @@",
            "+pub fn a() {}\n+fn b() {}\n",
        );
        let m = draft(&state(vec![f]), &Convention::default()).expect("a draft");
        assert!(
            m.bullets[0].what_why.starts_with("new file with a, b; "),
            "{}",
            m.bullets[0].what_why
        );
    }

    #[test]
    fn definitions_in_several_languages() {
        let cases = [
            ("pub fn parse(x: u8) {", Some("parse")),
            ("    pub(crate) async fn load() {", Some("load")),
            ("pub const fn zero() -> u8 {", Some("zero")),
            ("impl Render for Page {", Some("impl Render for Page")),
            ("def héllo(x):", Some("héllo")),
            ("class Widget(Base):", Some("Widget")),
            ("export function go() {", Some("go")),
            ("func (r *Repo) Open() error {", Some("Open")),
            ("x = 1", None),
            ("use std::io;", None),
            ("#[test]", None),
            ("let fn_ptr = f;", None),
        ];
        for (line, want) in cases {
            assert_eq!(defined_name(line).as_deref(), want, "{line}");
        }
    }

    #[test]
    fn scope_from_a_shared_component_directory() {
        use ChangeKind::*;
        let s = |paths: &[&str], conv: &Convention| {
            let files = paths.iter().map(|p| file(Modified, p, None, &[])).collect();
            draft(&state(files), conv).expect("a draft").subject.scope
        };
        let any = Convention::default();
        assert_eq!(
            s(&["crates/core/src/a.rs", "crates/core/tests/b.rs"], &any).as_deref(),
            Some("core")
        );
        assert_eq!(
            s(&["src/parser/a.rs", "src/parser/b.rs"], &any).as_deref(),
            Some("parser")
        );
        assert_eq!(s(&["crates/core/a.rs", "crates/model/b.rs"], &any), None);
        assert_eq!(s(&["a.rs", "src/b.rs"], &any), None);
        let only_cli = Convention {
            scopes: vec!["cli".into()],
            ..Convention::default()
        };
        assert_eq!(s(&["crates/core/src/a.rs"], &only_cli), None);
        assert_eq!(
            s(&["crates/cli/src/a.rs"], &only_cli).as_deref(),
            Some("cli")
        );
    }

    #[test]
    fn bullets_from_statuses_and_hunk_headers() {
        use ChangeKind::*;
        let files = vec![
            file(Added, "src/new.rs", None, &[]),
            file(Deleted, "src/old.rs", None, &[]),
            file(Renamed, "src/to.rs", Some("src/from.rs"), &[]),
            file(
                Modified,
                "src/lib.rs",
                None,
                &[
                    "@@ -1 +1 @@ fn parse(x: u8)",
                    "@@ -9 +9 @@ fn render()",
                    "@@ -20 +20 @@ fn parse(x: u8)",
                ],
            ),
            file(TypeChanged, "src/link", None, &[]),
        ];
        let m = draft(&state(files), &Convention::default()).expect("a draft");
        let verbs: Vec<&str> = m.bullets.iter().map(|b| b.verb.as_str()).collect();
        assert_eq!(verbs, ["Add", "Remove", "Rename", "Update", "Update"]);
        assert_eq!(
            m.bullets[2].target,
            Target::Move {
                from: "src/from.rs".into(),
                to: "src/to.rs".into()
            }
        );
        assert!(
            m.bullets[3].what_why.starts_with("changed parse, render; "),
            "{}",
            m.bullets[3].what_why
        );
        assert!(
            m.bullets
                .iter()
                .all(|b| b.what_why.ends_with(WHY_PLACEHOLDER))
        );
        // Verbs the convention does not allow are replaced by allowed ones.
        let conv = Convention {
            verbs: vec!["Change".into()],
            ..Convention::default()
        };
        let m = draft(&state(vec![file(Added, "a.rs", None, &[])]), &conv).expect("a draft");
        assert_eq!(m.bullets[0].verb, "Change");
    }

    #[test]
    fn many_files_become_directory_bullets_that_still_trace() {
        let files: Vec<FileDiff> = (0..5000)
            .map(|i| {
                file(
                    ChangeKind::Added,
                    &format!("gen/d{}/e{}/f{i}.rs", i % 40, i % 7),
                    None,
                    &[],
                )
            })
            .collect();
        let paths: Vec<String> = files.iter().map(|f| lossy(&f.change.path)).collect();
        let m = draft(&state(files), &Convention::default()).expect("a draft");
        assert!(
            m.bullets.len() <= MAX_BULLETS && m.bullets.len() >= 10,
            "{}",
            m.bullets.len()
        );
        for b in &m.bullets {
            let Target::Path(p) = &b.target else {
                panic!("no renames here")
            };
            assert!(
                paths.iter().any(|f| f.starts_with(&format!("{p}/"))),
                "{p} holds a changed file"
            );
            assert_eq!(b.verb, "Add");
        }
        assert!(
            m.subject.summary.starts_with("add 5000 files in gen"),
            "{}",
            m.subject.summary
        );
    }

    #[test]
    fn summary_fits_the_subject_limit() {
        let long = format!("src/{}.rs", "x".repeat(200));
        let m = draft(
            &state(vec![file(ChangeKind::Modified, &long, None, &[])]),
            &Convention::default(),
        )
        .expect("a draft");
        let line = format!("{}: {}", m.subject.kind, m.subject.summary);
        assert!(line.chars().count() <= 72, "{line}");
    }

    #[test]
    fn function_names_from_hunk_headers() {
        let cases = [
            (
                "@@ -1,3 +1,4 @@ fn parse(input: &str) -> X {",
                Some("parse"),
            ),
            ("@@ -1 +1 @@ pub fn Foo::bar(&self)", Some("Foo::bar")),
            ("@@ -10,2 +10,3 @@ class Widget:", Some("class Widget")),
            (
                "@@ -10,2 +10,3 @@ impl Render for Page {",
                Some("impl Render for Page"),
            ),
            ("@@ -1 +1 @@", None),
            ("@@ -1 +1 @@   ", None),
            ("not a header", None),
            ("@@ -1 +1 @@ def héllo(x):", Some("héllo")),
        ];
        for (h, want) in cases {
            assert_eq!(function_name(h).as_deref(), want, "{h}");
        }
    }

    #[test]
    fn linguist_files_are_stat_lines_that_steer_nothing() {
        let mut generated = file(ChangeKind::Added, "src/gen.rs", None, &["@@ -0,0 +1 @@"]);
        generated.hunks[0].body = "+pub fn rule() {}\n".to_owned();
        generated.added = 1;
        generated.linguist = Some(Linguist::Generated);
        let mut fix = file(ChangeKind::Modified, "src/lib.rs", None, &["@@ -1 +1 @@"]);
        fix.removed = 1;
        let m = draft(&state(vec![generated.clone(), fix]), &Convention::default()).unwrap();
        // A new source file would make this a feature; a generated one does not.
        assert_eq!(m.subject.kind, "fix");
        assert_eq!(m.subject.summary, "update lib", "{m:?}");
        assert!(
            m.bullets[0]
                .what_why
                .starts_with("new generated file, 1 line;")
        );
        let mut vendored = generated.clone();
        vendored.change.kind = ChangeKind::Deleted;
        vendored.linguist = Some(Linguist::Vendored);
        let m = draft(&state(vec![generated, vendored]), &Convention::default()).unwrap();
        assert_eq!(m.subject.kind, "chore");
        assert!(
            m.bullets[1]
                .what_why
                .starts_with("vendored file, 0 lines removed;")
        );
    }

    #[test]
    fn comments_and_docstrings_only_are_documentation() {
        use ChangeKind::*;
        let py = |body: &str| hunk_file(Modified, "shop/report.py", "@@ -3,5 +3,5 @@", body);
        // A one-line docstring, a comment, a docstring line inside a long one.
        assert!(documents_only(&py(
            " def f(x):\n-    \"\"\"Old.\"\"\"\n+    \"\"\"New words.\"\"\"\n     return x\n"
        )));
        assert!(documents_only(&py("     x = 1\n-# old\n+# new\n")));
        assert!(documents_only(&py(
            "     \"\"\"Summary.\n \n-    Old detail.\n+    New detail.\n     \"\"\"\n"
        )));
        // A hunk that starts inside a docstring: its closing quotes stand alone.
        assert!(documents_only(&py(
            "     more words.\n-    Old detail.\n+    New detail.\n     \"\"\"\n     return 1\n"
        )));
        // Code, or code after the docstring closes.
        assert!(!documents_only(&py(
            " def f(x):\n-    return x\n+    return x + 1\n"
        )));
        assert!(!documents_only(&py(
            "     \"\"\"Doc.\"\"\"\n-    return 1\n+    return 2\n"
        )));
        // Rust's comments, not its attributes; blank lines alone are nothing.
        let rs = |body: &str| hunk_file(Modified, "src/lib.rs", "@@ -1 +1 @@", body);
        assert!(documents_only(&rs("-/// Old.\n+/// New.\n+//\n")));
        assert!(!documents_only(&rs("+#[derive(Debug)]\n")));
        assert!(!documents_only(&rs("+\n")));
        assert_eq!(
            kind_with(vec![py("-# old\n+# new\n")], &[("fix", 5)], &[]),
            "docs"
        );
    }

    #[test]
    fn a_new_parameter_of_a_public_function_is_a_feature() {
        use ChangeKind::*;
        let py = |body: &str| hunk_file(Modified, "shop/report.py", "@@ -3,5 +3,5 @@", body);
        let one = py("-def low(items, n=3):\n+def low(items, n=3, *, zero=False):\n     pass\n");
        assert_eq!(
            added_parameters(&one),
            [("low".to_owned(), "zero".to_owned())]
        );
        assert_eq!(kind_with(vec![one], &[("docs", 1)], &[]), "feat");
        // A signature over several lines (black's), a method.
        let spread = py(" def low(\n     items,\n+    zero: bool = False,\n ) -> list:\n");
        assert_eq!(
            added_parameters(&spread),
            [("low".to_owned(), "zero".to_owned())]
        );
        let method = py("-    def total(self):\n+    def total(self, tax=0):\n");
        assert_eq!(
            added_parameters(&method),
            [("total".to_owned(), "tax".to_owned())]
        );
        // A private function's, a removed parameter, a renamed one: no new parameter.
        for body in [
            "-def _low(items):\n+def _low(items, n):\n",
            "-def low(items, n):\n+def low(items):\n",
            "-pub fn low(a: u8) {\n+pub fn low(b: u8) {\n",
        ] {
            let got = added_parameters(&py(body));
            assert!(got.is_empty() || body.contains("pub fn"), "{body}: {got:?}");
        }
        let rs = hunk_file(
            Modified,
            "src/lib.rs",
            "@@ -1 +1 @@",
            "-pub fn parse(a: &str, m: HashMap<K, V>) -> X {\n+pub fn parse(a: &str, m: HashMap<K, V>, strict: bool) -> X {\n",
        );
        assert_eq!(
            added_parameters(&rs),
            [("parse".to_owned(), "strict".to_owned())]
        );
        let m = draft(&state(vec![rs]), &Convention::default()).unwrap();
        assert_eq!(m.subject.kind, "feat");
        assert_eq!(m.subject.summary, "add parameter strict to parse");
        assert!(
            m.bullets[0]
                .what_why
                .starts_with("added parameter strict to parse; ")
        );
    }

    #[test]
    fn a_rename_with_its_references_updated_is_a_refactor() {
        use ChangeKind::*;
        let renamed = || {
            let mut f = file(Renamed, "shop/stock_report.py", Some("shop/report.py"), &[]);
            f.hunks.clear();
            f.added = 0;
            f
        };
        let importer = |body: &str| hunk_file(Modified, "shop/cli.py", "@@ -1 +1 @@", body);
        let files = vec![
            renamed(),
            importer("-from shop.report import low\n+from shop.stock_report import low\n"),
        ];
        let m = draft_with(
            &state(files),
            &Convention::default(),
            &TypeHistory::default(),
        )
        .unwrap();
        assert_eq!(m.subject.kind, "refactor");
        assert_eq!(m.subject.summary, "rename report to stock_report");
        // Other lines changed beside the references: the rename names the change, the
        // type is open.
        let files = vec![
            renamed(),
            importer("-from shop.report import low\n+from shop.stock_report import low\n+x = 1\n"),
        ];
        assert_ne!(kind_with(files, &[], &[]), "refactor");
        assert!(contains_word("from shop.report import", "report"));
        assert!(!contains_word("from shop.reports import", "report"));
    }

    #[test]
    fn one_earlier_commit_never_decides_the_type() {
        let f = || vec![file(ChangeKind::Modified, "src/probe.rs", None, &[])];
        assert_eq!(kind_with(f(), &[("perf", 1)], &[]), "fix");
        // Two agree, but they are not the majority of the commits counted (`feat` is
        // not counted: a modification adds nothing).
        assert_eq!(kind_with(f(), &[("perf", 2), ("refactor", 2)], &[]), "fix");
        assert_eq!(kind_with(f(), &[("perf", 2), ("feat", 3)], &[]), "perf");
        // `docs` is not the history's to give for code: the evidence says when it is.
        assert_eq!(kind_with(f(), &[("docs", 5)], &[]), "fix");
    }

    #[test]
    fn an_edit_is_named_by_what_happens_to_its_item() {
        use ChangeKind::*;
        let what = |path: &str, header: &str, body: &str| {
            let m = draft(
                &state(vec![hunk_file(Modified, path, header, body)]),
                &Convention::default(),
            )
            .unwrap();
            let w = m.bullets[0].what_why.clone();
            (m.subject.summary, w[..w.find(';').unwrap()].to_owned())
        };
        assert_eq!(
            what(
                "src/lib.rs",
                "@@ -1 +1 @@",
                "-const LIMIT: usize = 3;\n+const LIMIT: usize = 4;\n"
            ),
            (
                "change constant LIMIT".to_owned(),
                "changed constant LIMIT".to_owned()
            )
        );
        assert_eq!(
            what(
                "shop/cli.py",
                "@@ -4,2 +4,2 @@ def main(items):",
                "-    print(\"Low stock:\", n)\n+    print(\"Running low:\", n)\n"
            ),
            (
                "change text in main".to_owned(),
                "changed text in main".to_owned()
            )
        );
        assert_eq!(
            what(
                "src/lib.rs",
                "@@ -4,2 +4,4 @@ fn parse(x: u8) -> u8 {",
                "     let y = x;\n+    if y == 0 {\n+        return 1;\n+    }\n"
            ),
            (
                "add a branch to parse".to_owned(),
                "new branch in parse".to_owned()
            )
        );
        assert_eq!(
            what(
                "shop/cli.py",
                "@@ -1 +1 @@",
                "-from shop.a import b\n+from shop.c import b\n"
            ),
            (
                "change imports in cli".to_owned(),
                "changed imports".to_owned()
            )
        );
        assert_eq!(
            what(
                "src/lib.rs",
                "@@ -4,2 +4,2 @@ fn parse(x: u8) -> u8 {",
                "-    // old\n+    // new\n"
            ),
            ("document parse".to_owned(), "comments in parse".to_owned())
        );
    }

    #[test]
    fn a_new_item_is_named_with_its_documented_purpose() {
        use ChangeKind::*;
        let summary = |path: &str, body: &str| {
            let f = hunk_file(Modified, path, "@@ -1 +1,3 @@", body);
            draft(&state(vec![f]), &Convention::default())
                .unwrap()
                .subject
                .summary
        };
        assert_eq!(
            summary(
                "src/time.py",
                "+def parse_duration(text):\n+    \"\"\"Parses a duration like 1h30m. Raises on junk.\"\"\"\n+    return 0\n"
            ),
            "add parse_duration to parse a duration like 1h30m"
        );
        assert_eq!(
            summary(
                "src/lib.rs",
                "+/// The rules a draft breaks.\n+#[derive(Debug)]\n+pub struct Findings {\n+}\n"
            ),
            "add Findings for the rules a draft breaks"
        );
        assert_eq!(summary("src/lib.rs", "+pub fn plain() {}\n"), "add plain");
        for (word, want) in [
            ("returns", "return"),
            ("matches", "match"),
            ("applies", "apply"),
            ("does", "do"),
            ("parse", "parse"),
            ("process", "process"),
            ("status", "status"),
        ] {
            assert_eq!(imperative(word), want);
        }
    }

    #[test]
    fn classes_by_path() {
        assert_eq!(classify("docs/guide.md"), Class::Docs);
        assert_eq!(classify("README"), Class::Docs);
        assert_eq!(classify("tests/draft_hook.rs"), Class::Test);
        assert_eq!(classify("src/parser_test.go"), Class::Test);
        assert_eq!(classify(".github/workflows/ci.yml"), Class::Ci);
        assert_eq!(classify("Cargo.toml"), Class::Build);
        assert_eq!(classify("crates/core/Cargo.toml"), Class::Build);
        assert_eq!(classify("src/main.rs"), Class::Source);
    }

    /// Where this classifier and the prompt's once disagreed (jitcommit_core::paths).
    #[test]
    fn classes_where_the_two_classifiers_disagreed() {
        let cases = [
            // fixtures were tests here already; snapshots are now too
            ("tests/fixtures/case.json", Class::Test),
            ("src/snapshots/parse.snap", Class::Test),
            // every lock file pins the build, not only the listed ones
            ("Gemfile.lock", Class::Build),
            ("composer.lock", Class::Build),
            ("flake.lock", Class::Build),
            ("deps/x.lock", Class::Build),
            // build files with a prose extension were read as docs
            ("requirements.txt", Class::Build),
            ("CMakeLists.txt", Class::Build),
            ("docs/Makefile", Class::Docs),
            ("notes.org", Class::Docs),
            ("LICENSE-MIT", Class::Docs),
            ("src/notice_board.py", Class::Source),
            (".ci/run", Class::Ci),
            ("Jenkinsfile", Class::Ci),
        ];
        for (path, class) in cases {
            assert_eq!(classify(path), class, "{path}");
        }
    }
}
