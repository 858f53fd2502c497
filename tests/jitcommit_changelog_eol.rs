//! `changelog --check` and `--write` on a checkout whose line endings are not the
//! repository's: cloned with `core.autocrlf=true` (Git for Windows' default), checked
//! out under `.gitattributes` `* text eol=crlf`, or a file committed with CRLF. The
//! check compares what git stores and passes where `git diff` is clean; the write leaves
//! every line with the work tree's ending (docs/trust.md, "The changelog as git stores
//! it").
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use std::path::Path;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

/// Counts the lines of `path` ending in CRLF and those ending in a bare LF.
fn endings(path: &Path) -> (usize, usize) {
    let bytes = std::fs::read(path).unwrap();
    let mut crlf = 0;
    let mut lf = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            if i > 0 && bytes[i - 1] == b'\r' {
                crlf += 1;
            } else {
                lf += 1;
            }
        }
    }
    (crlf, lf)
}

/// A history with a release and a committed changelog, written by the tool.
fn origin<'a>(sb: &'a Sandbox, attributes: Option<&str>) -> Repo<'a> {
    let r = Repo::new(sb, "origin");
    if let Some(a) = attributes {
        r.commit(".gitattributes", a, "chore: line endings");
    }
    r.commit("a.txt", "a\n", "feat: one");
    r.commit("b.txt", "b\n", "fix: two");
    r.git(&["tag", "v0.1.0"]);
    r.commit("c.txt", "c\n", "feat: three");
    let o = r.jc(&["changelog", "--write", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    commit_changelog(&r, "docs: the changelog");
    r
}

/// Stages CHANGELOG.md and commits it with `msg`.
fn commit_changelog(r: &Repo, msg: &str) {
    r.git(&["add", "CHANGELOG.md"]);
    r.git(&["commit", "-q", "--no-verify", "-m", msg]);
}

/// Clones `origin` as `clone`, with `config` given to the clone (`-c k=v`).
fn clone<'a>(sb: &'a Sandbox, origin: &Repo, config: &[&str]) -> Repo<'a> {
    let mut args = vec!["clone", "-q"];
    for c in config {
        args.extend(["-c", c]);
    }
    let from = origin.dir.display().to_string();
    args.extend([from.as_str(), "clone"]);
    sb.git(sb.path(), &args);
    Repo::at(sb, sb.path().join("clone"))
}

/// The check passes where git sees no change; after a new commit the write regenerates
/// with one line ending throughout, git shows only the new lines, and the check passes.
fn check_then_write(r: &Repo, crlf: bool) {
    let file = r.dir.join("CHANGELOG.md");
    assert_eq!(
        endings(&file).1 == 0,
        crlf,
        "the checkout's line endings are not the ones the test sets up"
    );
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    let o = r.jc(&["changelog", "--check", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));

    r.commit("d.txt", "d\n", "feat: four");
    let o = r.jc(&["changelog", "--write", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (crlf_lines, lf_lines) = endings(&file);
    if crlf {
        assert_eq!(
            lf_lines, 0,
            "--write left {lf_lines} LF lines among CRLF ones"
        );
    } else {
        assert_eq!(
            crlf_lines, 0,
            "--write left {crlf_lines} CRLF lines among LF ones"
        );
    }
    let stat = r.git(&["diff", "--numstat", "CHANGELOG.md"]);
    let deleted: usize = stat.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(deleted <= 2, "the rewrite touched every line: {stat}");
    commit_changelog(r, "docs: the changelog again");
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    let o = r.jc(&["changelog", "--check", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_clone_with_autocrlf_true_checks_and_writes_as_git_stores() {
    let sb = Sandbox::new();
    let o = origin(&sb, None);
    let c = clone(&sb, &o, &["core.autocrlf=true"]);
    check_then_write(&c, true);
}

#[test]
fn gitattributes_eol_crlf_checks_and_writes_as_git_stores() {
    let sb = Sandbox::new();
    let o = origin(&sb, Some("* text eol=crlf\n"));
    let c = clone(&sb, &o, &[]);
    check_then_write(&c, true);
}

#[test]
fn a_file_committed_with_crlf_keeps_crlf_on_every_line() {
    let sb = Sandbox::new();
    let r = origin(&sb, Some("CHANGELOG.md -text\n"));
    let file = r.dir.join("CHANGELOG.md");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace('\n', "\r\n");
    write(&r.dir, "CHANGELOG.md", &text);
    commit_changelog(&r, "docs: the changelog in CRLF");
    check_then_write(&r, true);
}

#[test]
fn an_lf_checkout_stays_lf() {
    let sb = Sandbox::new();
    let o = origin(&sb, None);
    let c = clone(&sb, &o, &["core.autocrlf=input"]);
    check_then_write(&c, false);
}
