//! install.sh in a repository whose hooks belong to a hook manager: real husky and
//! real lefthook, installed from the npm registry (`./test.sh` does it; the test finds
//! them in `JITCOMMIT_NPM_BIN` or on `PATH`). install.sh must not write into a folder
//! the manager regenerates; it prints the snippet to add instead, and that snippet,
//! added as printed, drafts and checks real commits through the manager.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use install_support::*;
use jitcommit_testkit::{Sandbox, write};

/// The directory holding the npm packages' executables (`husky`, `lefthook`).
fn npm_bin() -> PathBuf {
    let from_env = std::env::var_os("JITCOMMIT_NPM_BIN").map(PathBuf::from);
    let on_path = || {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .find(|d| d.join("husky").is_file() && d.join("lefthook").is_file())
    };
    from_env.or_else(on_path).unwrap_or_else(|| {
        panic!(
            "husky and lefthook are required by this test and were not found (JITCOMMIT_NPM_BIN \
             or PATH); ./test.sh, the README's test command, installs them into its own tools \
             directory and sets JITCOMMIT_NPM_BIN"
        )
    })
}

/// PATH with the built jitcommit binaries and the npm tools.
fn path_with_tools() -> OsString {
    let mut dirs = vec![built_bin_dir(), npm_bin()];
    dirs.extend(std::env::split_paths(&path_without_jitcommit()));
    std::env::join_paths(dirs).unwrap()
}

fn run(sb: &Sandbox, cwd: &Path, program: &str, args: &[&str]) -> std::process::Output {
    sb.cmd(program, cwd)
        .args(args)
        .env("PATH", path_with_tools())
        .output()
        .unwrap()
}

fn run_ok(sb: &Sandbox, cwd: &Path, program: &str, args: &[&str]) {
    let o = run(sb, cwd, program, args);
    assert!(o.status.success(), "{program} {args:?}: {}", text(&o));
}

/// Every file under `dir`, recursively: path -> bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Commits through the manager's hooks: a bad message is rejected by the check, a
/// good one goes through, and an editor commit opens on jitcommit's draft.
fn commits_are_drafted_and_checked(sb: &Sandbox, repo: &Path) {
    write(repo, "a.txt", "a\n");
    run_ok(sb, repo, "git", &["add", "a.txt"]);
    let bad = run(sb, repo, "git", &["commit", "-q", "-m", "changed stuff"]);
    assert!(
        !bad.status.success(),
        "a bad message went through: {}",
        text(&bad)
    );
    assert!(text(&bad).contains("subject-format"), "{}", text(&bad));
    run_ok(
        sb,
        repo,
        "git",
        &["commit", "-q", "-m", &good_message("a.txt")],
    );

    write(repo, "b.txt", "b\n");
    run_ok(sb, repo, "git", &["add", "b.txt"]);
    let editor = sb.path().join("seen-editor.sh");
    write_exe(
        &editor,
        "#!/bin/sh\ncp \"$1\" \"$1.seen\"\nprintf 'feat: add b\\n\\n- Add: b.txt — the b file\\n' > \"$1\"\n",
    );
    let o = sb
        .cmd("git", repo)
        .args(["commit", "-q"])
        .env("PATH", path_with_tools())
        .env("GIT_EDITOR", &editor)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let seen = std::fs::read_to_string(repo.join(".git/COMMIT_EDITMSG.seen")).unwrap();
    assert!(
        seen.contains("- Add: b.txt"),
        "the editor did not open on jitcommit's draft:\n{seen}"
    );
}

#[test]
fn husky_keeps_its_folder_and_the_printed_snippet_works() {
    let sb = Sandbox::new();
    let repo = sb.init("app");
    run_ok(&sb, &repo, "husky", &[]);
    assert_eq!(
        sb.git(&repo, &["config", "core.hooksPath"]).trim(),
        ".husky/_"
    );
    let before = tree(&repo.join(".husky"));

    let out = install_ok(&sb, &repo, &path_with_tools(), &["--no-build"]);
    assert!(out.contains("managed by husky"), "{out}");
    assert_eq!(
        tree(&repo.join(".husky")),
        before,
        "husky's folder was written to"
    );
    assert!(!repo.join(".git/hooks/commit-msg").exists());

    // Add the files exactly as printed: each `# .husky/NAME: …` block up to a blank line.
    let mut added = 0;
    let mut lines = out.lines().peekable();
    while let Some(l) = lines.next() {
        let Some(name) = l
            .strip_prefix("# .husky/")
            .and_then(|r| r.split(':').next())
        else {
            continue;
        };
        let mut body = format!("{l}\n");
        while let Some(next) = lines.next_if(|n| !n.trim().is_empty()) {
            body.push_str(next);
            body.push('\n');
        }
        write(&repo, &format!(".husky/{name}"), body);
        added += 1;
    }
    assert_eq!(added, 2, "two files to add:\n{out}");
    commits_are_drafted_and_checked(&sb, &repo);
}

#[test]
fn lefthook_keeps_its_hooks_and_the_printed_snippet_works() {
    let sb = Sandbox::new();
    let repo = sb.init("app");
    write(
        &repo,
        "lefthook.yml",
        "pre-commit:\n  commands:\n    hello:\n      run: echo ok\n",
    );
    run_ok(&sb, &repo, "lefthook", &["install"]);
    let hooks = repo.join(".git/hooks");
    let before = tree(&hooks);

    let out = install_ok(&sb, &repo, &path_with_tools(), &["--no-build"]);
    assert!(out.contains("managed by lefthook"), "{out}");
    assert_eq!(tree(&hooks), before, "lefthook's hooks were written to");

    let yaml: String = out
        .lines()
        .skip_while(|l| !l.starts_with("prepare-commit-msg:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        yaml.contains("commit-msg:"),
        "no lefthook.yml snippet:\n{out}"
    );
    let config = std::fs::read_to_string(repo.join("lefthook.yml")).unwrap();
    write(&repo, "lefthook.yml", format!("{config}{yaml}"));
    run_ok(&sb, &repo, "lefthook", &["install"]);
    commits_are_drafted_and_checked(&sb, &repo);
}

#[test]
fn a_plain_repository_still_gets_the_shims() {
    let sb = Sandbox::new();
    let repo = sb.init("app");
    let out = install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    assert!(!out.contains("managed by"), "{out}");
    assert!(repo.join(".git/hooks/commit-msg").is_file());
}
