//! The first hour on an existing project (issue 48): right after the hooks are
//! installed, with nothing configured, commits written the way the project's last ones
//! were go through, bad ones do not, doctor says when the convention in force would
//! refuse the project's way, and a fresh server takes the project's first push.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::check_support::{code, git_try, stderr, stdout};
use crate::install_support::{built_bin_dir, source_root};
use jitcommit_testkit::{Sandbox, install_client_shims, write};

/// The subjects of a project that writes subject-only Conventional Commits: its own
/// types (`deps` among them), scopes, and subjects longer than the built-in 72.
const SUBJECTS: &[&str] = &[
    "fix(parser): handle an empty header",
    "feat: add the --quiet flag",
    "docs: explain the cache settings",
    "deps: bump ureq from 3.0.1 to 3.0.2",
    "refactor(cli): split argument parsing from the commands that use the values",
    "fix(cache): do not evict entries that are still referenced by a pending request in flight",
    "chore(release): 1.4.0",
    "test: cover the retry path",
];

/// A repository holding `n` subject-only commits (made before any hook is installed),
/// then the real client shims of hooks/ recording the built binaries.
fn subject_only_project(sb: &Sandbox, n: usize) -> PathBuf {
    let r = sb.init("project");
    for i in 0..n {
        write(&r, &format!("f{i}.txt"), format!("{i}\n"));
        sb.git(&r, &["add", "."]);
        sb.git(&r, &["commit", "-q", "-m", SUBJECTS[i % SUBJECTS.len()]]);
    }
    install_client_shims(&r.join(".git/hooks"), &built_bin_dir());
    r
}

/// Stages a new file and commits it with `msg` through the hooks.
fn commit(sb: &Sandbox, r: &Path, file: &str, msg: &str) -> Output {
    write(r, file, "new\n");
    sb.git(r, &["add", file]);
    git_try(sb, r, &["commit", "-q", "-m", msg], &[])
}

#[test]
fn right_after_install_a_commit_written_the_projects_way_is_accepted() {
    let sb = Sandbox::new();
    let r = subject_only_project(&sb, 60);
    for (file, msg) in [
        ("a.txt", "fix(parser): accept a trailing comma"),
        ("b.txt", "deps: bump serde from 1.0.1 to 1.0.2"),
        (
            "c.txt",
            "fix(cache): keep entries that a request in flight still refers to when it ends",
        ),
    ] {
        let o = commit(&sb, &r, file, msg);
        assert_eq!(code(&o), 0, "{msg}: {}", stderr(&o));
    }
    for (file, msg, rule) in [
        ("d.txt", "updated the parser", "subject-format"),
        ("e.txt", "wip: half of the parser", "subject-type"),
        (
            "f.txt",
            "fix: a subject far longer than anything this project has ever written in its subjects so far",
            "subject-length",
        ),
    ] {
        let o = commit(&sb, &r, file, msg);
        assert_ne!(code(&o), 0, "{msg} is refused");
        assert!(stderr(&o).contains(rule), "{msg}: {}", stderr(&o));
    }
    // What the gate holds the project to, and where it comes from.
    let o = sb
        .cmd(built_bin_dir().join("jitcommit-check"), &r)
        .arg("--dump-config")
        .output()
        .unwrap();
    let dump = stdout(&o);
    assert!(
        dump.contains("fitted to the last 63 commits"),
        "the two accepted commits count: {dump}"
    );
    assert!(dump.contains("body = \"optional\""), "{dump}");
}

/// A new project, or one with a handful of commits, starts with the tool's own style.
#[test]
fn a_short_history_keeps_the_built_in_convention() {
    let sb = Sandbox::new();
    let r = subject_only_project(&sb, 5);
    let o = commit(&sb, &r, "a.txt", "fix(parser): accept a trailing comma");
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("body-missing"), "{}", stderr(&o));
}

/// This repository's own history (subject and bullets, no convention file): its clone
/// keeps the bullets it writes, and refuses a subject-only commit.
#[test]
fn a_subject_and_bullets_history_is_held_to_its_bullets() {
    let sb = Sandbox::new();
    let r = sb.path().join("clone");
    let o = sb
        .git_cmd(sb.path())
        .args(["clone", "-q", "--no-checkout"])
        .arg(source_root())
        .arg(&r)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    sb.git(&r, &["checkout", "-q", "-b", "trial", "origin/HEAD"]);
    assert!(
        !r.join(".commit-convention.toml").exists(),
        "this repository keeps no convention file"
    );
    install_client_shims(&r.join(".git/hooks"), &built_bin_dir());
    let o = commit(&sb, &r, "notes.txt", "docs: add notes");
    assert_ne!(code(&o), 0, "subject-only");
    assert!(stderr(&o).contains("body-missing"), "{}", stderr(&o));
    let o = commit(
        &sb,
        &r,
        "notes.txt",
        "docs: add notes\n\n- Add: notes.txt — where the trial's notes go\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // CI's check of the last commits of the real history passes too.
    let o = sb
        .cmd(built_bin_dir().join("jitcommit-check"), &r)
        .args(["--range", "HEAD~31..HEAD~1"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

/// The `history` check of `jitcommit doctor --format json` in `r`: its status, detail
/// and fix.
fn doctor_history(sb: &Sandbox, r: &Path) -> (String, String, String) {
    let o = sb
        .cmd(built_bin_dir().join("jitcommit"), r)
        .args(["doctor", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "history")
        .cloned()
        .unwrap_or_else(|| panic!("no history check: {v}"));
    let s = |k: &str| c[k].as_str().unwrap_or("").to_owned();
    (s("status"), s("detail"), s("fix"))
}

#[test]
fn doctor_fails_where_the_convention_in_force_refuses_the_projects_way() {
    let sb = Sandbox::new();
    let r = subject_only_project(&sb, 40);
    let (status, detail, _) = doctor_history(&sb, &r);
    assert_ne!(status, "fail", "the fitted built-in convention: {detail}");
    // A convention that wants bullets refuses the whole history.
    write(&r, ".commit-convention.toml", "body = \"required\"\n");
    let (status, detail, fix) = doctor_history(&sb, &r);
    assert_eq!(status, "fail", "{detail}");
    assert!(detail.contains("refuse 40 of them"), "{detail}");
    assert!(fix.starts_with("jitcommit init --write --force"), "{fix}");
    // The command it names adopts the project's way.
    let o = sb
        .cmd(built_bin_dir().join("jitcommit"), &r)
        .args(["init", "--write", "--force"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (status, detail, _) = doctor_history(&sb, &r);
    assert_ne!(status, "fail", "{detail}");
}

/// `project` with `old` non-conforming commits first (an import, as real histories
/// start), then the subject-only ones.
fn existing_project(sb: &Sandbox, n: usize) -> PathBuf {
    let r = sb.init("existing");
    for (i, msg) in ["Initial import", "Fix the build on macOS"]
        .iter()
        .enumerate()
    {
        write(&r, &format!("old{i}.txt"), "x\n");
        sb.git(&r, &["add", "."]);
        sb.git(&r, &["commit", "-q", "-m", msg]);
    }
    for i in 0..n {
        write(&r, &format!("f{i}.txt"), format!("{i}\n"));
        sb.git(&r, &["add", "."]);
        sb.git(&r, &["commit", "-q", "-m", SUBJECTS[i % SUBJECTS.len()]]);
    }
    r
}

/// A commit made without hooks (a pusher's commit the server must judge).
fn commit_unchecked(sb: &Sandbox, r: &Path, file: &str, msg: &str) {
    write(r, file, "later\n");
    sb.git(r, &["add", file]);
    sb.git(r, &["commit", "-q", "--no-verify", "-m", msg]);
}

/// `install.sh --server BARE --no-build ARGS`, as the README says, with the built
/// binaries on PATH.
fn server(sb: &Sandbox, name: &str, args: &[&str]) -> (PathBuf, String) {
    let bare = sb.init_bare(name);
    let mut all = vec!["--server", bare.to_str().unwrap(), "--no-build"];
    all.extend_from_slice(args);
    let out = crate::install_support::install_ok(
        sb,
        sb.path(),
        &crate::install_support::path_with_built(),
        &all,
    );
    (bare, out)
}

#[test]
fn a_fresh_server_takes_the_first_push_of_an_existing_project() {
    let sb = Sandbox::new();
    let (bare, said) = server(&sb, "srv.git", &[]);
    assert!(
        said.contains("first push into the empty repository"),
        "{said}"
    );
    let r = existing_project(&sb, 60);
    let url = bare.to_str().unwrap();
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its 62 commits are the project's history"),
        "{}",
        stderr(&o)
    );
    // After it, the server holds the project to the way its history is written.
    commit_unchecked(&sb, &r, "a.txt", "updated the parser");
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0, "a bad commit on top is refused");
    assert!(stderr(&o).contains("updated the parser"), "{}", stderr(&o));
    sb.git(&r, &["reset", "-q", "--hard", "HEAD~1"]);
    commit_unchecked(&sb, &r, "b.txt", "fix(parser): accept a trailing comma");
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Deleting every ref does not make the next push a first one.
    sb.git(&bare, &["config", "receive.denyDeleteCurrent", "ignore"]);
    let o = git_try(&sb, &r, &["push", url, ":main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    commit_unchecked(&sb, &r, "c.txt", "updated the parser again");
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_stricter_start_checks_the_first_push_and_summarises_thousands_of_findings() {
    let sb = Sandbox::new();
    let (bare, said) = server(&sb, "strict.git", &["--check-first-push"]);
    assert!(
        said.contains("the history of a first push included"),
        "{said}"
    );
    let r = existing_project(&sb, 60);
    let o = git_try(&sb, &r, &["push", bare.to_str().unwrap(), "main"], &[]);
    assert_ne!(code(&o), 0, "the built-in convention wants bullets");
    let remote: Vec<&str> = std::str::from_utf8(&o.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("remote:"))
        .collect();
    let text = remote.join("\n");
    assert!(
        text.contains("42 more commits with findings are not shown (the first 20 are)"),
        "{text}"
    );
    assert!(text.contains("findings by rule: body-missing 62"), "{text}");
    assert!(text.contains("62 of 62 new commits"), "{text}");
    assert!(remote.len() < 100, "{} lines:\n{text}", remote.len());
}

/// No sequence of pushes loosens the fitted policy (docs/check.md, "Before the project
/// adopts a convention"): after a subject-only history, a prose body (which would turn
/// the next fit to `body = "free"`, with no bullet traced) is refused, a trailer is no
/// prose, and a bullet naming a file the commit does not change stays refused.
#[test]
fn no_push_loosens_the_fitted_policy() {
    let sb = Sandbox::new();
    let (bare, _) = server(&sb, "fixed.git", &[]);
    let r = existing_project(&sb, 30);
    let url = bare.to_str().unwrap();
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "the first push: {}", stderr(&o));
    commit_unchecked(
        &sb,
        &r,
        "a.txt",
        "fix(parser): accept a trailing comma\n\nThe parser now takes a comma before the closing bracket.",
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0, "a prose body is refused: {}", stderr(&o));
    assert!(stderr(&o).contains("body-missing"), "{}", stderr(&o));
    sb.git(&r, &["reset", "-q", "--hard", "HEAD~1"]);
    commit_unchecked(
        &sb,
        &r,
        "b.txt",
        "fix(parser): accept a trailing comma\n\nSigned-off-by: A U Thor <author@example.com>",
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "a trailer is no prose: {}", stderr(&o));
    commit_unchecked(
        &sb,
        &r,
        "c.txt",
        "fix(cache): keep referenced entries\n\n- Fix: src/other.rs — a file this commit does not change",
    );
    let o = git_try(&sb, &r, &["push", url, "main"], &[]);
    assert_ne!(code(&o), 0, "bullets stay traced: {}", stderr(&o));
}

/// A gate fails closed: a `jitcommit.checkFirstPush` value git cannot read as a
/// boolean (a typo) checks the first push, as `true` does; only `false` leaves it out.
#[test]
fn a_misspelt_check_first_push_checks_the_first_push() {
    let sb = Sandbox::new();
    let r = existing_project(&sb, 30);
    for (value, refused) in [("ture", true), ("yes", true), ("off", false)] {
        let (bare, _) = server(&sb, &format!("typo-{value}.git"), &[]);
        sb.git(&bare, &["config", "jitcommit.checkFirstPush", value]);
        let o = git_try(&sb, &r, &["push", bare.to_str().unwrap(), "main"], &[]);
        assert_eq!(code(&o) != 0, refused, "{value}: {}", stderr(&o));
    }
}

/// A server install after a client one builds nothing when the installed check is
/// this source's current build; a source file newer than the build makes it build.
#[test]
fn a_server_install_does_not_rebuild_a_current_check() {
    let sb = Sandbox::new();
    let src = sb.path().join("src-tree");
    for d in ["hooks", "src", "crates", "target/release", "prefix/bin"] {
        std::fs::create_dir_all(src.join(d)).unwrap();
    }
    for f in ["install.sh", "Cargo.toml", "Cargo.lock"] {
        std::fs::copy(source_root().join(f), src.join(f)).unwrap();
    }
    for h in ["pre-receive", "update", "commit-msg", "prepare-commit-msg"] {
        std::fs::copy(
            source_root().join("hooks").join(h),
            src.join("hooks").join(h),
        )
        .unwrap();
    }
    write(&src, "src/main.rs", "fn main() {}\n");
    let check = built_bin_dir().join("jitcommit-check");
    for d in ["target/release", "prefix/bin"] {
        std::fs::copy(&check, src.join(d).join("jitcommit-check")).unwrap();
    }
    // The sources are older than the build.
    let touch = |date: &str, file: &str| {
        let o = crate::check_support::run({
            let mut c = sb.cmd("touch", &src);
            c.args(["-d", date, file]);
            c
        });
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    };
    for f in ["Cargo.toml", "Cargo.lock", "src/main.rs"] {
        touch("2020-01-01T00:00:00", f);
    }
    let bare = sb.init_bare("srv.git");
    // No cargo on PATH: a build would fail.
    let run = || {
        crate::check_support::run({
            let mut c = sb.cmd("dash", sb.path());
            c.arg(src.join("install.sh"))
                .args(["--server", bare.to_str().unwrap(), "--prefix"])
                .arg(src.join("prefix"))
                .env("PATH", "/usr/local/bin:/usr/bin:/bin");
            c
        })
    };
    let o = run();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("not rebuilt"), "{}", stdout(&o));
    touch("2099-01-01T00:00:00", "src/main.rs");
    let o = run();
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("cargo not found"), "{}", stderr(&o));
}

/// Issue 48, items 2 and 3: the pre-commit framework's system hooks beside
/// install.sh's shims, installed in either order: every commit is drafted once, and
/// `install.sh --uninstall` finds the shims wherever pre-commit moved them.
#[test]
fn pre_commit_system_hooks_and_the_shims_draft_once_in_either_order() {
    let pc = crate::precommit::pre_commit_exe();
    let source = source_root();
    let sb = Sandbox::new();
    let rev = sb.git(&source, &["rev-parse", "HEAD"]).trim().to_owned();
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut dirs = vec![pc.parent().unwrap().to_path_buf(), built_bin_dir()];
    dirs.extend(std::env::split_paths(
        &crate::install_support::path_without_jitcommit(),
    ));
    let path = std::env::join_paths(dirs).unwrap();
    let run = |cwd: &Path, program: &Path, args: &[&str], envs: &[(&str, &str)]| {
        let mut c = sb.cmd(program, cwd);
        c.args(args)
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", crate::precommit::pre_commit_home())
            .env("JITCOMMIT_URL", format!("http://127.0.0.1:{closed}"));
        for (k, v) in envs {
            c.env(k, v);
        }
        crate::check_support::run(c)
    };
    for shims_first in [true, false] {
        let r = sb.init(if shims_first {
            "shims-first"
        } else {
            "pc-first"
        });
        write(
            &r,
            ".pre-commit-config.yaml",
            format!(
                "repos:\n- repo: {}\n  rev: {rev}\n  hooks:\n  - id: jitcommit-draft-system\n  - id: jitcommit-check-system\n",
                source.display()
            ),
        );
        sb.git(&r, &["add", "."]);
        sb.git(&r, &["commit", "-q", "-m", "chore: use jitcommit"]);
        let install = || {
            let o = crate::install_support::install(&sb, &r, &path, &["--no-build"]);
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            stdout(&o)
        };
        let pre_commit = || {
            let o = run(
                &r,
                &pc,
                &[
                    "install",
                    "--hook-type",
                    "prepare-commit-msg",
                    "--hook-type",
                    "commit-msg",
                ],
                &[],
            );
            assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
        };
        if shims_first {
            install();
            pre_commit();
            assert!(r.join(".git/hooks/prepare-commit-msg.legacy").is_file());
            assert!(install().contains("chained"), "install.sh finds the chain");
        } else {
            pre_commit();
            install();
        }
        // An editor that keeps what it was shown, and aborts the commit.
        let shown = sb.path().join(format!("shown-{shims_first}"));
        let editor = sb.path().join(format!("editor-{shims_first}.sh"));
        std::fs::write(
            &editor,
            format!("#!/bin/sh\ncp \"$1\" '{}'\nexit 1\n", shown.display()),
        )
        .unwrap();
        crate::check_support::make_executable(&editor);
        write(&r, "a.txt", "a\n");
        sb.git(&r, &["add", "a.txt"]);
        let o = run(
            &r,
            Path::new("git"),
            &["commit"],
            &[("GIT_EDITOR", editor.to_str().unwrap())],
        );
        assert_ne!(code(&o), 0, "the editor aborts");
        let text = std::fs::read_to_string(&shown).unwrap();
        let drafts = text
            .lines()
            .filter(|l| l.starts_with("# jitcommit: offline draft"))
            .count();
        assert_eq!(drafts, 1, "shims first: {shims_first}\n{text}");
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("- Add: a.txt"))
                .count(),
            1,
            "{text}"
        );
        // A bad message is refused once, not twice.
        let o = run(&r, Path::new("git"), &["commit", "-m", "updated a"], &[]);
        assert_ne!(code(&o), 0);
        let err = stderr(&o) + &stdout(&o);
        assert_eq!(err.matches("subject-format").count(), 1, "{err}");
        // The doctor sees the chain, and the uninstall finds the shims.
        let o = sb
            .cmd(built_bin_dir().join("jitcommit"), &r)
            .arg("doctor")
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(stdout(&o).contains("chained hook"), "{}", stdout(&o));
        let o = crate::install_support::install(&sb, &r, &path, &["--uninstall"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("removed"), "{}", stdout(&o));
    }
}

/// The README's first screen: the first hour's commands, as written there, run one
/// after the other in an existing project (install.sh with `--no-build`: the tests run
/// the binaries cargo built for them), then a commit written the project's way, its
/// first push to the new server, and a bad commit pushed on top.
#[test]
fn the_readmes_first_hour_runs_as_written() {
    let readme = std::fs::read_to_string(source_root().join("README.md")).unwrap();
    let (head, rest) = readme
        .split_once("**The first hour on an existing project**")
        .expect("the README's first screen names the first hour");
    assert!(
        head.lines().count() < 20,
        "on the first screen: {} lines before it",
        head.lines().count()
    );
    let block = rest
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    for needed in [
        "install.sh",
        "jitcommit doctor",
        "jitcommit init --write",
        "pre-commit install",
        "install.sh --server",
    ] {
        assert!(
            commands.iter().any(|c| c.contains(needed)),
            "{needed}: {commands:?}"
        );
    }

    let sb = Sandbox::new();
    let r = existing_project(&sb, 60);
    let server = sb.init_bare("project.git");
    write(
        &r,
        ".pre-commit-config.yaml",
        format!(
            "repos:\n- repo: {}\n  rev: {}\n  hooks:\n  - id: jitcommit-draft-system\n  - id: jitcommit-check-system\n",
            source_root().display(),
            sb.git(&source_root(), &["rev-parse", "HEAD"]).trim()
        ),
    );
    let pc = crate::precommit::pre_commit_exe();
    let mut dirs = vec![pc.parent().unwrap().to_path_buf(), built_bin_dir()];
    dirs.extend(std::env::split_paths(
        &crate::install_support::path_without_jitcommit(),
    ));
    let path = std::env::join_paths(dirs).unwrap();
    let install = format!("dash '{}'", source_root().join("install.sh").display());
    for command in &commands {
        let mut run = command
            .replace("/path/to/jitcommit/install.sh", &install)
            .replace("/srv/git/project.git", server.to_str().unwrap());
        if run.starts_with(&install) {
            run.push_str(" --no-build");
        }
        let o = crate::check_support::run({
            let mut c = sb.cmd("sh", &r);
            c.args(["-c", &run])
                .env("PATH", &path)
                .env("PRE_COMMIT_HOME", crate::precommit::pre_commit_home());
            c
        });
        assert_eq!(code(&o), 0, "`{run}`:\n{}{}", stdout(&o), stderr(&o));
    }
    let hooks = |args: &[&str]| {
        crate::check_support::run({
            let mut c = sb.git_cmd(&r);
            c.args(args).env("PATH", &path);
            c
        })
    };
    // init wrote .commit-convention.toml: the project has no pyproject.toml.
    assert!(r.join(".commit-convention.toml").is_file());
    sb.git(&r, &["add", "."]);
    let o = hooks(&["commit", "-q", "-m", "chore: use jitcommit"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = hooks(&["commit", "-q", "-m", "fix(parser): accept a trailing comma"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let url = server.to_str().unwrap();
    let o = hooks(&["push", "-q", url, "main"]);
    assert_eq!(code(&o), 0, "the first push: {}", stderr(&o));
    commit_unchecked(&sb, &r, "b.txt", "updated b");
    let o = hooks(&["push", "-q", url, "main"]);
    assert_ne!(code(&o), 0, "a bad commit on top: {}", stderr(&o));
}

/// Issue 48, item 8: install.sh's closing lines follow the setup: a model already set
/// drafts (no "offline" hint), init is named, and the uninstall hint names the
/// `--root` of a `--prefix` install.
#[test]
fn install_sh_says_what_is_true_of_this_setup() {
    let sb = Sandbox::new();
    let prefix = sb.path().join("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    for b in ["jitcommit-draft", "jitcommit-check"] {
        std::fs::copy(built_bin_dir().join(b), prefix.join("bin").join(b)).unwrap();
    }
    let p = prefix.to_str().unwrap();
    let path = crate::install_support::path_without_jitcommit();
    let r = sb.init("r");
    let out = crate::install_support::install_ok(&sb, &r, &path, &["--no-build", "--prefix", p]);
    assert!(out.contains("drafted offline until you"), "{out}");
    assert!(out.contains("jitcommit init --write"), "{out}");
    sb.git(&r, &["config", "jitcommit.model", "qwen2.5-coder:7b"]);
    let out = crate::install_support::install_ok(&sb, &r, &path, &["--no-build", "--prefix", p]);
    assert!(!out.contains("offline"), "{out}");
    assert!(out.contains("qwen2.5-coder:7b drafts the message"), "{out}");
    let out = crate::install_support::install_ok(&sb, &r, &path, &["--uninstall", "--prefix", p]);
    assert!(
        out.contains(&format!("cargo uninstall jitcommit --root {p}")),
        "{out}"
    );
    // The README's OpenAI-compatible example sets the model it needs.
    let readme = std::fs::read_to_string(source_root().join("README.md")).unwrap();
    let example = readme
        .split_once("jitcommit.provider openai")
        .unwrap()
        .1
        .split("```")
        .next()
        .unwrap();
    assert!(example.contains("jitcommit.model"), "{example}");
}
