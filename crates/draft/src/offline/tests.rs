use jitcommit_core::config::Convention;
use jitcommit_core::message::Target;
use jitcommit_core::repo::{ChangeKind, FileDiff, Linguist, TypeHistory};

use super::kind::*;
use super::source::*;
use super::summary::*;
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
    let m = draft(&state(vec![file(Modified, "docs/a.md", None, &[])]), &conv).expect("a draft");
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

fn kind_with(files: Vec<FileDiff>, history: &[(&str, usize)], near: &[(&str, usize)]) -> String {
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
        doc(" text\n+## Run the `fuzz` targets\n+\n+Run them.\n"),
        "run the fuzz targets"
    );
    // A heading that is no sentence is what the document adds, as written: never a
    // noun phrase lower-cased into a subject (`documentation Guidelines`).
    assert_eq!(
        doc(" text\n+## Documentation Guidelines\n+\n+Write them.\n"),
        "add Documentation Guidelines"
    );
    assert_eq!(
        doc(" text\n+## How to run the `fuzz` targets\n"),
        "add How to run the fuzz targets"
    );
    // A heading that only moved names its section, a one-word heading is the section
    // added (change_words); a `#` comment in a code block without a space: the file
    // is named instead.
    assert_eq!(
        doc("-## Old place\n+## Old place\n"),
        "update Old place in trust.md"
    );
    assert_eq!(doc("+## Performance\n"), "add section Performance");
    assert_eq!(doc("+#include <x.h>\n"), "update trust.md");
    assert_eq!(doc("+### GIT_DIR and friends\n"), "add GIT_DIR and friends");
    assert_eq!(doc("+### Use GIT_DIR\n"), "use GIT_DIR");
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
    // A move names both places (change_words).
    assert_eq!(m.subject.summary, "move src/a/x.rs to src/b/x.rs");
    // A new tutorial names the change, not the line that lists it in the site's
    // configuration (commitizen 7e01cbc).
    let tutorial = hunk_file(
        Added,
        "docs/tutorials/release-scm.md",
        "@@ -0,0 +1,3 @@",
        "+# Releasing with the SCM Version Provider\n+\n+Tag a release.\n",
    );
    let nav = hunk_file(
        Modified,
        "mkdocs.yml",
        "@@ -70,1 +70,2 @@ nav:",
        "     - FAQ: \"faq.md\"\n+    - Release with SCM: \"tutorials/release-scm.md\"\n",
    );
    let m = draft(&state(vec![tutorial, nav]), &Convention::default()).expect("a draft");
    assert_eq!(
        m.subject.summary,
        "add Releasing with the SCM Version Provider"
    );
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

#[test]
fn a_new_source_file_settles_the_type_and_a_bare_edit_does_not() {
    use ChangeKind::*;
    let conv = Convention::default();
    let history = TypeHistory::default();
    let added = hunk_file(Added, "src/a.rs", "@@ -0,0 +1,1 @@", "+pub fn a() {}\n");
    let d = crate::offline::drafted(&state(vec![added]), &conv, &history, None).expect("a draft");
    assert_eq!(d.message.subject.kind, "feat");
    assert!(d.type_settled);
    // An edit that adds nothing the rules read: `fix`, a rule of thumb.
    let edited = hunk_file(
        Modified,
        "src/a.rs",
        "@@ -1 +1 @@",
        "-let a = 1;\n+let a = 2;\n",
    );
    let d = crate::offline::drafted(&state(vec![edited]), &conv, &history, None).expect("a draft");
    assert_eq!(d.message.subject.kind, "fix");
    assert!(!d.type_settled);
}
