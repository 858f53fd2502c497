//! `jitcommit facts` on real repositories: `--check` (grammar, duplicates, globs that
//! match nothing in HEAD, the generated index and its drift through a real commit),
//! `--select` and the filters as JSON, and the commit-msg and pre-receive checks
//! rejecting a broken store with its file and line.
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use std::process::Stdio;

use jitcommit_support::{Repo, code, stderr, stdout};
use jitcommit_testkit::{Sandbox, cargo_bin, write};

const STORE: &str = "\
# What this repository is

Prose is skipped, and so is code:

```sh
SCOPE.not-a-fact/**=x
```

<!-- a comment with a fence
```
-->

- `SCOPE.src/**=core` — the library
- `PATH.docs=the manual`
- `RULE.tense=use the imperative mood`
- `RULE.docs/**.docs-type=changes under docs/ are type docs`
TERM.gix=the git library this project reads repositories with
- `NOTE.owner=kept and listed, never selected`
";

fn repo(sb: &Sandbox) -> Repo<'_> {
    let r = Repo::new(sb, "r");
    write(&r.dir, "src/lib.rs", "pub fn open() {}\n");
    write(&r.dir, "docs/guide.md", "# guide\n");
    write(&r.dir, ".commit-context.md", STORE);
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "--no-verify", "-m", "chore: start"]);
    r
}

fn json(o: &std::process::Output) -> serde_json::Value {
    assert_eq!(code(o), 0, "{}{}", stdout(o), stderr(o));
    serde_json::from_str(&stdout(o)).unwrap()
}

fn ids(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_sound_store_checks_clean_and_lists_every_class() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let o = r.jc(&["facts", "--check"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains(".commit-context.md:18: class NOTE is kept"),
        "{}",
        stderr(&o)
    );
    let all = json(&r.jc(&["facts"]));
    assert_eq!(
        ids(&all),
        [
            "SCOPE.src/**",
            "PATH.docs",
            "RULE.tense",
            "RULE.docs/**.docs-type",
            "TERM.gix",
            "NOTE.owner"
        ]
    );
    assert_eq!(all[0]["line"], 13);
    assert_eq!(all[0]["file"], ".commit-context.md");
}

#[test]
fn check_names_file_and_line_of_every_problem() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let broken = format!(
        "{STORE}\n- `SCOPE.src/**=again`\n- `PATH.gone/**=removed long ago`\n- `TERM.x=`\nTERM.long={}\n",
        "y".repeat(201)
    );
    write(&r.dir, ".commit-context.md", &broken);
    let o = r.jc(&["facts", "--check"]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        ".commit-context.md:20: duplicate ID SCOPE.src/**: first at .commit-context.md:13, again at .commit-context.md:20"
    );
    assert_eq!(
        lines[1],
        ".commit-context.md:21: PATH.gone/**: the glob \"gone/**\" matches no tracked file"
    );
    assert!(lines[2].starts_with(".commit-context.md:22: TERM.x has no value"));
    assert!(
        lines[3].starts_with(".commit-context.md:23: the value of TERM.long is 201 characters")
    );
    // The other modes refuse a broken store rather than answer from part of it.
    let o = r.jc(&["facts", "--select", "src/lib.rs"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(".commit-context.md:20: duplicate ID"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn select_and_filters_answer_json() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let v = json(&r.jc(&["facts", "--select", "docs/guide.md"]));
    assert_eq!(
        ids(&v),
        ["RULE.docs/**.docs-type", "RULE.tense", "PATH.docs"]
    );
    assert_eq!(v[0]["why"]["kind"], "path");
    assert_eq!(v[0]["why"]["path"], "docs/guide.md");
    assert_eq!(v[1]["why"]["kind"], "unscoped");
    let v = json(&r.jc(&["facts", "--select", "src/gix/open.rs"]));
    assert_eq!(ids(&v), ["RULE.tense", "SCOPE.src/**", "TERM.gix"]);
    assert_eq!(v[2]["why"]["kind"], "word");
    assert_eq!(
        ids(&json(&r.jc(&["facts", "--class", "rule"]))),
        ["RULE.tense", "RULE.docs/**.docs-type"]
    );
    assert_eq!(
        ids(&json(&r.jc(&["facts", "--prefix", "RULE.d"]))),
        ["RULE.docs/**.docs-type"]
    );
    assert_eq!(
        ids(&json(&r.jc(&["facts", "--contains", "GIT LIB"]))),
        ["TERM.gix"]
    );
    assert_eq!(
        ids(&json(&r.jc(&[
            "facts",
            "--class",
            "RULE",
            "--contains",
            "imperative"
        ]))),
        ["RULE.tense"]
    );
    let o = r.jc(&["facts", "--select"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn convention_table_joins_the_store_and_a_clash_names_both() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    write(
        &r.dir,
        ".commit-convention.toml",
        "[facts]\n\"TERM.hook\" = \"a script git runs\"\n",
    );
    let v = json(&r.jc(&["facts", "--class", "TERM"]));
    assert_eq!(ids(&v), ["TERM.gix", "TERM.hook"]);
    assert_eq!(v[1]["file"], "commit-convention.facts");
    write(
        &r.dir,
        ".commit-convention.toml",
        "[facts]\n\"TERM.gix\" = \"clash\"\n",
    );
    let o = r.jc(&["facts", "--check"]);
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o).trim(),
        "commit-convention.facts:2: duplicate ID TERM.gix: also at .commit-context.md:17"
    );
}

#[test]
fn the_index_guards_against_drift_through_a_commit() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    assert_eq!(code(&r.jc(&["facts", "--write"])), 0);
    let index = std::fs::read_to_string(r.dir.join(".commit-context.index.json")).unwrap();
    assert!(!index.contains("\"line\""), "{index}");
    assert!(index.find("\"NOTE.owner\"") < index.find("\"SCOPE.src/**\""));
    r.git(&["add", ".commit-context.index.json"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "chore: index"]);
    // Moving facts around (lines change, facts do not) keeps the index fresh.
    write(&r.dir, ".commit-context.md", format!("\n\n{STORE}"));
    r.git(&["commit", "-q", "--no-verify", "-am", "docs: move"]);
    assert_eq!(code(&r.jc(&["facts", "--check"])), 0);
    // Changing a fact without regenerating is drift.
    write(
        &r.dir,
        ".commit-context.md",
        STORE.replace("the manual", "the handbook"),
    );
    r.git(&["commit", "-q", "--no-verify", "-am", "docs: edit"]);
    let o = r.jc(&["facts", "--check"]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).starts_with(".commit-context.index.json:1: stale"),
        "{}",
        stdout(&o)
    );
    assert_eq!(code(&r.jc(&["facts", "--write"])), 0);
    assert_eq!(code(&r.jc(&["facts", "--check"])), 0);
}

fn install(hooks: &std::path::Path, hook: &str, args: &str) {
    std::fs::create_dir_all(hooks).unwrap();
    let path = hooks.join(hook);
    let bin = cargo_bin("jitcommit-check");
    std::fs::write(
        &path,
        format!("#!/bin/sh\nexec '{}' {args} \"$@\"\n", bin.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

const GOOD: &str = "docs: describe the store\n\n- Update: .commit-context.md — a new fact\n";

#[test]
fn commit_msg_rejects_a_staged_broken_store_with_its_line() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    install(&r.dir.join(".git/hooks"), "commit-msg", "");
    write(
        &r.dir,
        ".commit-context.md",
        format!("{STORE}- `RULE.tense=twice`\n"),
    );
    r.git(&["add", ".commit-context.md"]);
    let o = r
        .git_cmd()
        .args(["commit", "-q", "-m", GOOD])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success(), "a broken store was committed");
    assert!(
        stderr(&o).contains(
            ".commit-context.md:19: duplicate ID RULE.tense: first at .commit-context.md:15"
        ),
        "{}",
        stderr(&o)
    );
    // The staged store is what counts: fixed in the index, the commit goes through.
    write(
        &r.dir,
        ".commit-context.md",
        format!("{STORE}- `RULE.short=keep it short`\n"),
    );
    r.git(&["add", ".commit-context.md"]);
    let o = r
        .git_cmd()
        .args(["commit", "-q", "-m", GOOD])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `git commit -q -m msg` through the hooks.
fn try_commit(r: &Repo, msg: &str) -> std::process::Output {
    r.git_cmd()
        .args(["commit", "-q", "-m", msg])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn commit_msg_checks_the_store_only_when_the_commit_can_change_its_verdict() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    install(&r.dir.join(".git/hooks"), "commit-msg", "");
    // A store broken in HEAD already (committed past the hook) ...
    write(
        &r.dir,
        ".commit-context.md",
        format!("{STORE}- `RULE.tense=twice`\n"),
    );
    r.git(&["commit", "-q", "--no-verify", "-am", GOOD]);
    // ... does not block a commit that neither changes it nor removes a path its
    // globs match: the store is not read.
    write(&r.dir, "src/lib.rs", "pub fn open() { 1; }\n");
    write(&r.dir, "notes.txt", "n\n");
    r.git(&["add", "."]);
    let o = try_commit(
        &r,
        "fix: open\n\n- Update: src/lib.rs — one\n- Add: notes.txt — notes\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("fact store"), "{}", stderr(&o));
    // Removing a path no glob matches leaves the store alone too.
    r.git(&["rm", "-q", "notes.txt"]);
    let o = try_commit(&r, "chore: drop notes\n\n- Remove: notes.txt — unused\n");
    assert!(o.status.success(), "{}", stderr(&o));
    // A commit that stages a change to the store is checked, and so rejected.
    write(
        &r.dir,
        ".commit-context.md",
        format!("{STORE}- `RULE.tense=twice`\n- `RULE.short=keep it short`\n"),
    );
    r.git(&["add", ".commit-context.md"]);
    let o = try_commit(&r, GOOD);
    assert!(!o.status.success(), "a broken store was committed");
    assert!(
        stderr(&o).contains(".commit-context.md:19: duplicate ID RULE.tense"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn commit_msg_checks_the_store_when_a_removal_empties_a_glob() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    install(&r.dir.join(".git/hooks"), "commit-msg", "");
    // docs/guide.md is the only file `PATH.docs` and `RULE.docs/**.docs-type` match.
    r.git(&["rm", "-q", "docs/guide.md"]);
    let o = try_commit(
        &r,
        "docs: drop the guide\n\n- Remove: docs/guide.md — stale\n",
    );
    assert!(!o.status.success(), "a glob was left matching nothing");
    let err = stderr(&o);
    assert!(
        err.contains(".commit-context.md:14: PATH.docs: the glob \"docs\" matches no tracked file"),
        "{err}"
    );
    // A rename is a removal of its old path: moving the guide elsewhere empties it too.
    write(&r.dir, "docs/guide.md", "# guide\n");
    r.git(&["add", "docs/guide.md"]);
    r.git(&["mv", "docs/guide.md", "guide.md"]);
    let o = try_commit(
        &r,
        "docs: move the guide\n\n- Rename: docs/guide.md → guide.md — top level\n",
    );
    assert!(!o.status.success(), "a glob was left matching nothing");
    assert!(stderr(&o).contains("PATH.docs"), "{}", stderr(&o));
    // Another file under docs/ keeps the globs matching: the removal passes.
    r.git(&["mv", "guide.md", "docs/guide.md"]);
    write(&r.dir, "docs/other.md", "# other\n");
    r.git(&["add", "docs/other.md"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "docs: another page"]);
    r.git(&["rm", "-q", "docs/guide.md"]);
    let o = try_commit(
        &r,
        "docs: drop the guide\n\n- Remove: docs/guide.md — stale\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn commit_msg_checks_the_store_on_a_mode_change_the_convention_file_and_an_amend() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    install(&r.dir.join(".git/hooks"), "commit-msg", "");
    let broken = format!("{STORE}- `RULE.tense=twice`\n");
    write(&r.dir, ".commit-context.md", broken);
    r.git(&["commit", "-q", "--no-verify", "-am", GOOD]);
    // A change of the store's mode alone is a change of the store.
    r.git(&["update-index", "--chmod=+x", ".commit-context.md"]);
    let o = try_commit(
        &r,
        "chore: mark the store\n\n- Update: .commit-context.md — executable\n",
    );
    assert!(!o.status.success(), "a broken store was committed");
    assert!(
        stderr(&o).contains("duplicate ID RULE.tense"),
        "{}",
        stderr(&o)
    );
    r.git(&["update-index", "--chmod=-x", ".commit-context.md"]);
    // So is a change of the convention file that holds the `facts` table.
    write(
        &r.dir,
        ".commit-convention.toml",
        "[facts]\n\"TERM.hook\" = \"a script git runs\"\n",
    );
    r.git(&["add", ".commit-convention.toml"]);
    let o = try_commit(
        &r,
        "chore: add a term\n\n- Add: .commit-convention.toml — the hook term\n",
    );
    assert!(!o.status.success(), "a broken store was committed");
    assert!(
        stderr(&o).contains("duplicate ID RULE.tense"),
        "{}",
        stderr(&o)
    );
    r.git(&["rm", "-q", "--cached", ".commit-convention.toml"]);
    std::fs::remove_file(r.dir.join(".commit-convention.toml")).unwrap();
    // An amend's changes run from HEAD's first parent: amending a commit that removed
    // the only file `PATH.docs` matches is a removal, though the index equals HEAD.
    write(&r.dir, ".commit-context.md", STORE);
    r.git(&["add", ".commit-context.md"]);
    r.git(&["commit", "-q", "--no-verify", "-m", GOOD]);
    r.git(&["rm", "-q", "docs/guide.md"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "docs: drop the guide"]);
    let o = r
        .git_cmd()
        .args([
            "commit",
            "-q",
            "--amend",
            "-m",
            "docs: drop the guide\n\n- Remove: docs/guide.md — stale\n",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success(), "a glob was left matching nothing");
    assert!(stderr(&o).contains("PATH.docs"), "{}", stderr(&o));
}

#[test]
fn pre_receive_rejects_a_pushed_broken_store() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let bare = sb.init_bare("server.git");
    sb.git(&r.dir, &["push", "-q", bare.to_str().unwrap(), "main"]);
    install(&bare.join("hooks"), "pre-receive", "--pre-receive");
    write(
        &r.dir,
        ".commit-context.md",
        format!("{STORE}- `SCOPE.nowhere/**=x`\n"),
    );
    r.git(&["commit", "-q", "--no-verify", "-am", GOOD]);
    let o = sb
        .git_cmd(&r.dir)
        .args(["push", bare.to_str().unwrap(), "main"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success(), "the push landed");
    let err = stderr(&o);
    assert!(
        err.contains("refs/heads/main at ")
            && err.contains(".commit-context.md:19: SCOPE.nowhere/**: the glob \"nowhere/**\" matches no tracked file"),
        "{err}"
    );
    write(&r.dir, ".commit-context.md", STORE);
    r.git(&["commit", "-q", "--no-verify", "-am", GOOD]);
    let o = sb
        .git_cmd(&r.dir)
        .args(["push", bare.to_str().unwrap(), "main"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn every_help_example_runs() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let help = stdout(&r.jc(&["facts", "--help"]));
    let examples: Vec<&str> = help
        .split_once("EXAMPLES:\n")
        .unwrap()
        .1
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(examples.len(), 4, "{help}");
    write(&r.dir, "crates/core/src/lib.rs", "//! gix\n");
    write(&r.dir, "docs/facts.md", "# facts\n");
    r.git(&["add", "."]);
    r.git(&[
        "commit",
        "-q",
        "--no-verify",
        "-m",
        "chore: paths of the examples",
    ]);
    for e in examples {
        let args: Vec<&str> = e.strip_prefix("jitcommit ").unwrap().split(' ').collect();
        let o = r.jc(&args);
        assert_eq!(code(&o), 0, "{e}: {}{}", stdout(&o), stderr(&o));
    }
    assert!(r.dir.join(".commit-context.index.json").exists());
}

/// The index and the store are not written or read through a link out of the work
/// tree (docs/trust.md, "Links in the repository").
#[cfg(unix)]
#[test]
fn facts_neither_reads_nor_writes_through_a_link_out_of_the_tree() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let outside = sb.path().join("victim");
    std::fs::write(&outside, "precious\n").unwrap();
    std::os::unix::fs::symlink(&outside, r.dir.join(".commit-context.index.json")).unwrap();
    let o = r.jc(&["facts", "--write"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("leaves the work tree"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
    let o = r.jc(&["facts", "--check"]);
    assert_ne!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("leaves the work tree"),
        "{}",
        stdout(&o)
    );

    // The store itself linked outside is refused, not read.
    std::fs::remove_file(r.dir.join(".commit-context.index.json")).unwrap();
    std::fs::rename(r.dir.join(".commit-context.md"), sb.path().join("store.md")).unwrap();
    std::os::unix::fs::symlink(sb.path().join("store.md"), r.dir.join(".commit-context.md"))
        .unwrap();
    let o = r.jc(&["facts"]);
    assert_ne!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("leaves the work tree"),
        "{}",
        stderr(&o)
    );
}
