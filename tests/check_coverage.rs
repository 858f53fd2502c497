//! `coverage = true`: `bullet-coverage` (every changed path named by a bullet, itself or
//! through its directory) and `bullet-status` (Add / Remove / Rename agree with the
//! path's status), applied by the commit-msg hook, `--range` and pre-receive through
//! real git.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

const COVERAGE: &str = "coverage = true\n";

/// A client whose convention turns coverage on, committed, with `a.txt`, `src/lib.rs`,
/// `src/old.rs` and `docs/guide.md` in its first commit.
fn covered_client(sb: &Sandbox) -> std::path::PathBuf {
    let files = [
        ("a.txt", "a\n"),
        ("src/lib.rs", "fn a() {}\n"),
        ("src/old.rs", "fn old() {}\n"),
        ("docs/guide.md", "# guide\n"),
    ];
    convention_client(sb, "r", &[], COVERAGE, &files)
}

#[test]
fn an_unnamed_staged_path_is_a_finding_that_names_it() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    write(&r, "a.txt", "b\n");
    write(&r, "src/lib.rs", "fn a() { 1; }\n");
    write(&r, "src/new.rs", "pub fn new() {}\n");
    sb.git(&r, &["add", "."]);
    let o = try_commit(&sb, &r, "fix: a\n\n- Update: a.txt — b\n");
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("bullet-coverage"), "{err}");
    assert!(
        err.contains("src/lib.rs") && err.contains("src/new.rs"),
        "{err}"
    );
    assert!(
        err.contains("2 changed paths are named by no bullet"),
        "{err}"
    );
    // The hint gives each its verb from the status.
    assert!(err.contains("- Add: src/new.rs"), "{err}");
    assert!(err.contains("- Update: src/lib.rs"), "{err}");

    // A directory covers the files under it; then the commit goes through.
    let o = try_commit(
        &sb,
        &r,
        "fix: a\n\n- Update: a.txt — b\n- Update: src — the new module\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn without_coverage_the_same_message_passes() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    write(&r, "src/lib.rs", "fn a() { 1; }\n");
    sb.git(&r, &["add", "."]);
    let o = try_commit(&sb, &r, "fix: a\n\n- Add: a.txt — b\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_verb_that_disagrees_with_the_status_is_a_finding_on_its_bullet() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    write(&r, "src/lib.rs", "fn a() { 1; }\n");
    write(&r, "src/new.rs", "pub fn new() {}\n");
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["rm", "-q", "docs/guide.md"]);
    let o = try_commit(
        &sb,
        &r,
        "feat: a\n\n- Add: src/lib.rs — the entry\n- Remove: src/new.rs — gone\n- Update: docs/guide.md — gone\n",
    );
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(
        err.contains(":3:3: bullet-status: \"Add\" says src/lib.rs is new, but it is modified"),
        "{err}"
    );
    assert!(
        err.contains(":4:3: bullet-status: \"Remove\" says src/new.rs is removed, but it is added"),
        "{err}"
    );
    // Update says nothing about the status.
    assert_eq!(err.matches("bullet-status").count(), 2, "{err}");
    assert!(!err.contains("bullet-coverage"), "{err}");

    let o = try_commit(
        &sb,
        &r,
        "feat: a\n\n- Update: src/lib.rs — the entry\n- Add: src/new.rs — new\n- Remove: docs — the guide\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_directory_bullet_with_add_needs_every_file_under_it_added() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    write(&r, "src/lib.rs", "fn a() { 1; }\n");
    write(&r, "src/new.rs", "pub fn new() {}\n");
    sb.git(&r, &["add", "."]);
    let o = try_commit(&sb, &r, "feat: a\n\n- Add: src — the module\n");
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(
        err.contains(
            "\"Add\" says every changed path under src is new, but src/lib.rs is modified"
        ),
        "{err}"
    );
}

#[test]
fn renames_agree_with_rename_and_move_and_need_naming() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    sb.git(&r, &["mv", "src/old.rs", "src/moved.rs"]);
    // The commit-msg hook traces without rename detection: a rename is a deletion and
    // an addition, and `Rename: old → new` names both.
    let o = try_commit(
        &sb,
        &r,
        "refactor: a\n\n- Rename: src/old.rs → src/moved.rs — clearer\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    sb.git(&r, &["mv", "src/moved.rs", "src/again.rs"]);
    let o = try_commit(
        &sb,
        &r,
        "refactor: a\n\n- Rename: src/again.rs → src/moved.rs — back\n",
    );
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(
        err.contains("\"Rename\" says src/again.rs is removed, but it is added"),
        "{err}"
    );
    assert!(
        err.contains("\"Rename\" says src/moved.rs is new, but it is deleted"),
        "{err}"
    );
}

#[test]
fn a_message_without_bullets_covers_nothing() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    write(
        &r,
        ".commit-convention.toml",
        "coverage = true\nbody = \"optional\"\n",
    );
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "."]);
    let o = try_commit(&sb, &r, "fix: a\n");
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(err.contains(":1:1: bullet-coverage"), "{err}");
    assert!(err.contains(".commit-convention.toml, a.txt"), "{err}");
}

#[test]
fn range_checks_coverage_of_each_commit_against_its_own_diff() {
    let sb = Sandbox::new();
    let r = covered_client(&sb);
    let base = sb.git(&r, &["rev-parse", "HEAD"]).trim().to_string();
    write(&r, "a.txt", "b\n");
    write(&r, "src/lib.rs", "fn a() { 2; }\n");
    sb.git(&r, &["add", "."]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "fix: a\n\n- Update: a.txt — b\n",
        ],
    );
    write(&r, "src/lib.rs", "fn a() { 3; }\n");
    sb.git(&r, &["add", "."]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "fix: b\n\n- Fix: src/lib.rs — 3\n",
        ],
    );
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", &format!("{base}..HEAD")]);
        c
    });
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("bullet-coverage").count(), 1, "{out}");
    assert!(out.contains("named by no bullet: src/lib.rs"), "{out}");

    // --no-trace-paths turns it off with tracing.
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--no-trace-paths", "--range", &format!("{base}..HEAD")]);
        c
    });
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn pre_receive_rejects_an_uncovered_commit() {
    let s = Server::with(COVERAGE, "pre-receive", "--pre-receive");
    write(&s.client, "b.txt", "b\n");
    s.sb.git(&s.client, &["add", "b.txt"]);
    s.commit("a.txt", "b\n", &good("fix: b", &["a.txt"]));
    let o = s.push(&["main"]);
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(err.contains("bullet-coverage"), "{err}");
    assert!(err.contains("named by no bullet: b.txt"), "{err}");

    s.sb.git(
        &s.client,
        &[
            "commit",
            "-q",
            "--amend",
            "-m",
            "fix: b\n\n- Update: a.txt — b\n- Add: b.txt — b\n",
        ],
    );
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}
