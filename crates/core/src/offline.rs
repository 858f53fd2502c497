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
//! - type: every path docs → `docs`, tests → `test`, CI → `ci`, build → `build`;
//!   otherwise `feat` when some path is added, `refactor` when the change only
//!   renames or removes, else `chore`; a type the convention does not allow falls
//!   back to the next of those that it allows, then to its first type.
//! - scope: the first directory below a container (`crates/`, `packages/`, `src/`, …)
//!   that every path shares, if the convention allows it (any scope when its list is
//!   empty); none otherwise.
//! - bullets: one per path, verb from the status (A → Add, D → Remove, R → Rename with
//!   `old → new`, M/T → Update, C → Add); beyond [`MAX_BULLETS`] paths, one bullet
//!   per directory at the deepest level that keeps the count within the cap (a
//!   directory holding a changed file is a valid bullet path).

use std::collections::BTreeMap;

use crate::config::Convention;
use crate::message::{Bullet, Message, Subject, Target};
use crate::repo::{ChangeKind, FileDiff, StagedState};

/// The why the user has to write; `jitcommit-check` rejects a message that still holds it.
pub use crate::rules::WHY_PLACEHOLDER;

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
    if state.files.is_empty() {
        return Err(OfflineError::NothingStaged);
    }
    let paths: Vec<String> = state.files.iter().map(|f| lossy(&f.change.path)).collect();
    let kind = infer_type(state, &paths, conv);
    let scope = infer_scope(&paths, conv).filter(|s| *s != kind);
    let bullets = if state.files.len() <= MAX_BULLETS {
        state.files.iter().map(|f| file_bullet(f, conv)).collect()
    } else {
        directory_bullets(state, conv)
    };
    let mut summary = summarize(state, &paths);
    let prefix_len = kind.chars().count() + scope.as_ref().map_or(0, |s| s.chars().count() + 2) + 2;
    let room = conv
        .subject_limit()
        .map_or(usize::MAX, |max| max.saturating_sub(prefix_len).max(8));
    if summary.chars().count() > room {
        summary = summary
            .chars()
            .take(room.saturating_sub(1))
            .collect::<String>()
            + "…";
    }
    Ok(Message {
        subject: Subject {
            kind,
            scope,
            breaking: false,
            summary,
        },
        prose: Vec::new(),
        bullets,
        trailers: Vec::new(),
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

fn classify(path: &str) -> Class {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let dirs: Vec<&str> = lower.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    let in_dir = |names: &[&str]| dirs.iter().any(|d| names.contains(d));
    if lower.starts_with(".github/workflows/")
        || lower.starts_with(".circleci/")
        || lower.starts_with(".buildkite/")
        || lower.starts_with(".ci/")
        || matches!(
            name,
            ".gitlab-ci.yml"
                | ".travis.yml"
                | "azure-pipelines.yml"
                | "jenkinsfile"
                | "appveyor.yml"
                | "bitbucket-pipelines.yml"
        )
    {
        return Class::Ci;
    }
    if in_dir(&["tests", "test", "spec", "__tests__", "testdata", "fixtures"])
        || name.starts_with("test_")
        || name.contains("_test.")
        || name.contains(".test.")
        || name.contains("_spec.")
        || name.contains(".spec.")
    {
        return Class::Test;
    }
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    if in_dir(&["docs", "doc"])
        || matches!(ext, "md" | "rst" | "adoc" | "txt")
        || [
            "readme",
            "license",
            "changelog",
            "contributing",
            "authors",
            "notice",
        ]
        .iter()
        .any(|p| name.starts_with(p))
    {
        return Class::Docs;
    }
    if matches!(
        name,
        "cargo.toml"
            | "cargo.lock"
            | "build.rs"
            | "makefile"
            | "cmakelists.txt"
            | "package.json"
            | "package-lock.json"
            | "yarn.lock"
            | "pnpm-lock.yaml"
            | "pyproject.toml"
            | "setup.py"
            | "setup.cfg"
            | "requirements.txt"
            | "poetry.lock"
            | "uv.lock"
            | "go.mod"
            | "go.sum"
            | "dockerfile"
            | "pom.xml"
            | "build.gradle"
            | "build.gradle.kts"
            | "meson.build"
            | "rust-toolchain.toml"
            | "justfile"
    ) || lower.starts_with(".cargo/")
        || ext == "cmake"
    {
        return Class::Build;
    }
    Class::Source
}

fn infer_type(state: &StagedState, paths: &[String], conv: &Convention) -> String {
    let classes: Vec<Class> = paths.iter().map(|p| classify(p)).collect();
    let all = |c: Class| classes.iter().all(|x| *x == c);
    let mut wanted: Vec<&str> = Vec::new();
    if all(Class::Docs) {
        wanted.push("docs");
    } else if all(Class::Test) {
        wanted.push("test");
    } else if all(Class::Ci) {
        wanted.push("ci");
    } else if all(Class::Build) {
        wanted.push("build");
    }
    let kinds = state.files.iter().map(|f| f.change.kind);
    if state
        .files
        .iter()
        .any(|f| f.change.kind == ChangeKind::Added)
    {
        wanted.push("feat");
    }
    if kinds
        .clone()
        .all(|k| matches!(k, ChangeKind::Renamed | ChangeKind::Deleted))
    {
        wanted.push("refactor");
    }
    wanted.extend(["chore", "feat", "fix"]);
    wanted
        .iter()
        .find(|t| conv.types.iter().any(|a| a == *t))
        .map(|t| (*t).to_owned())
        .or_else(|| conv.types.first().cloned())
        .unwrap_or_else(|| "chore".to_owned())
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

/// The first verb of `preferred` the convention allows, else its first verb.
fn verb(conv: &Convention, preferred: &[&str]) -> String {
    preferred
        .iter()
        .find(|v| conv.verbs.iter().any(|a| a == *v))
        .map(|v| (*v).to_owned())
        .or_else(|| conv.verbs.first().cloned())
        .unwrap_or_else(|| preferred.first().copied().unwrap_or("Update").to_owned())
}

/// The verb a bullet for a path with status `kind` takes under `conv`.
pub(crate) fn status_verb(conv: &Convention, kind: ChangeKind) -> String {
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

fn what(f: &FileDiff) -> String {
    if f.submodule {
        return "submodule pointer".to_owned();
    }
    if f.binary {
        return "binary file".to_owned();
    }
    let mut names: Vec<String> = Vec::new();
    for h in &f.hunks {
        if let Some(n) = function_name(&h.header)
            && !names.contains(&n)
        {
            names.push(n);
        }
    }
    if !names.is_empty() {
        let more = names.len().saturating_sub(MAX_NAMES);
        names.truncate(MAX_NAMES);
        let mut s = format!("in {}", names.join(", "));
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        return s;
    }
    match f.change.kind {
        ChangeKind::Added => format!("new file, {}", lines(f.added)),
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
    if let [one] = paths {
        let name = one.rsplit('/').next().unwrap_or(one);
        return format!("{action} {name}");
    }
    let first: Vec<&str> = paths[0].split('/').collect();
    let common = (0..first.len().saturating_sub(1))
        .take_while(|&i| {
            paths
                .iter()
                .all(|p| p.split('/').nth(i) == first.get(i).copied() && p.matches('/').count() > i)
        })
        .count();
    if common == 0 {
        format!("{action} {} files", paths.len())
    } else {
        format!(
            "{action} {} files in {}",
            paths.len(),
            first[..common].join("/")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::repo::{Change, Hunk};

    fn file(kind: ChangeKind, path: &str, old: Option<&str>, headers: &[&str]) -> FileDiff {
        FileDiff {
            change: Change {
                kind,
                path: path.into(),
                old_path: old.map(Into::into),
                old_mode: (kind != ChangeKind::Added).then_some(0o100644),
                new_mode: (kind != ChangeKind::Deleted).then_some(0o100644),
            },
            header: String::new(),
            hunks: headers
                .iter()
                .map(|h| Hunk {
                    header: (*h).to_owned(),
                    body: "+x\n".to_owned(),
                })
                .collect(),
            added: 1,
            removed: 0,
            binary: false,
            submodule: false,
        }
    }

    fn state(files: Vec<FileDiff>) -> StagedState {
        StagedState {
            branch: Some("main".into()),
            initial: false,
            files,
        }
    }

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
        assert_eq!(
            kind_of(vec![file(Modified, "src/lib.rs", None, &[])]),
            "chore"
        );
        // A type the convention does not allow falls back.
        let conv = Convention {
            types: vec!["fix".into(), "feat".into()],
            ..Convention::default()
        };
        let m =
            draft(&state(vec![file(Modified, "docs/a.md", None, &[])]), &conv).expect("a draft");
        assert_eq!(m.subject.kind, "feat");
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
            m.bullets[3].what_why.starts_with("in parse, render; "),
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
}
