//! Repositories in the formats git offers besides the defaults: SHA-256 objects
//! (`git init --object-format=sha256`) and reftable refs (`--ref-format=reftable`). Each
//! mode either checks them as it checks any repository, or says what it cannot read;
//! none falls back to the built-in convention as if nothing happened. A client hook
//! never blocks a commit for the tool's own limitation; a server fails closed.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::PathBuf;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// Only `feat` commits: a `fix` passes only if the convention was not read.
const FEAT_ONLY: &str = "types = [\"feat\"]\n";

/// A work tree made with `git init <format>`, holding the convention in a first commit,
/// with the commit-msg hook installed.
fn client(sb: &Sandbox, name: &str, format: &str) -> PathBuf {
    convention_client(sb, name, &[format], FEAT_ONLY, &[])
}

#[test]
fn sha256_commit_msg_reads_the_convention_and_traces() {
    let sb = Sandbox::new();
    let r = client(&sb, "r", "--object-format=sha256");
    let o = try_commit_file(&sb, &r, "b.txt", &good("fix: b", &["b.txt"]));
    assert_ne!(code(&o), 0, "fix is not among the types");
    assert!(stderr(&o).contains("subject-type"), "{}", stderr(&o));
    let o = try_commit_file(&sb, &r, "b.txt", &good("feat: b", &["c.txt"]));
    assert_ne!(code(&o), 0, "c.txt is not staged");
    assert!(stderr(&o).contains("bullet-path"), "{}", stderr(&o));
    let o = try_commit_file(&sb, &r, "b.txt", &good("feat: b", &["b.txt"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn sha256_range_is_checked() {
    let sb = Sandbox::new();
    let r = client(&sb, "r", "--object-format=sha256");
    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("fix: b", &["b.txt"]),
        ],
    );
    write(&r, "c.txt", "c\n");
    sb.git(&r, &["add", "c.txt"]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("feat: c", &["d.txt"]),
        ],
    );
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "HEAD~2..HEAD"]);
        c
    });
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("subject-type") && out.contains("bullet-path"),
        "{out}"
    );
    assert!(out.contains("2 of 2 commits"), "{out}");
}

#[test]
fn sha256_server_checks_pushes() {
    let sb = Sandbox::new();
    let bare = bare_with(&sb, "server.git", &["--object-format=sha256"]);
    let r = client(&sb, "r", "--object-format=sha256");
    let url = bare.to_str().unwrap();
    sb.git(&r, &["push", "-q", url, "main"]);
    install_hook(&bare.join("hooks"), "pre-receive", "--pre-receive");
    install_hook(&bare.join("hooks"), "update", "--update");

    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("fix: b", &["b.txt"]),
        ],
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("subject-type"), "{}", stderr(&o));
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--amend",
            "--no-verify",
            "-m",
            &good("feat: b", &["b.txt"]),
        ],
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn reftable_commit_msg_checks_what_it_can_and_says_what_it_cannot() {
    let sb = Sandbox::new();
    let r = client(&sb, "r", "--ref-format=reftable");
    // The convention is read from the work tree: a wrong type is still rejected.
    let o = try_commit_file(&sb, &r, "b.txt", &good("fix: b", &["b.txt"]));
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("subject-type"), "{}", stderr(&o));
    // Tracing needs HEAD, which cannot be read: the commit goes through, and says so.
    let o = try_commit_file(&sb, &r, "b.txt", &good("feat: b", &["b.txt"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bullet paths not traced") && stderr(&o).contains("reftable"),
        "{}",
        stderr(&o)
    );
    assert!(head_message(&sb, &r).starts_with("feat: b"));
}

#[test]
fn reftable_server_fails_closed() {
    let sb = Sandbox::new();
    let bare = bare_with(&sb, "server.git", &["--ref-format=reftable"]);
    let r = client(&sb, "r", "--ref-format=reftable");
    let url = bare.to_str().unwrap();
    sb.git(&r, &["push", "-q", url, "main"]);
    install_hook(&bare.join("hooks"), "pre-receive", "--pre-receive");
    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("feat: b", &["b.txt"]),
        ],
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("reftable"), "{}", stderr(&o));
    // And --range in the bare repository does not take the built-in convention.
    let o = run({
        let mut c = check(&sb, &bare);
        c.args(["--range", "main~1..main"]);
        c
    });
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}
