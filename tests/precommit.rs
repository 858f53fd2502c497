//! The pre-commit framework, for real: a fresh repository whose
//! `.pre-commit-config.yaml` points at this source tree (its committed HEAD),
//! `pre-commit install --hook-type prepare-commit-msg --hook-type commit-msg`
//! (which builds the hooks with `cargo install --bins --path .`, as
//! `.pre-commit-hooks.yaml` asks), then three real commits: one drafted offline and
//! finished in an editor, one rejected for a bad verb, one accepted.
//!
//! Needs the `pre-commit` executable (on PATH, or named by `JITCOMMIT_PRE_COMMIT`);
//! `./test.sh` installs it. Without it this test fails: it is never skipped.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use install_support::*;
use jitcommit_testkit::{Sandbox, write};

pub(crate) fn pre_commit_exe() -> PathBuf {
    if let Some(p) = std::env::var_os("JITCOMMIT_PRE_COMMIT") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("pre-commit"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "the pre-commit framework is required by this test and was not found on PATH \
                 (or in JITCOMMIT_PRE_COMMIT). ./test.sh, the README's test command, installs it \
                 into its own tools directory and puts it on PATH"
            )
        })
}

/// A loopback port with nothing listening: the draft hook's model is unreachable, so
/// it must fall back to its offline draft.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// pre-commit's home, kept between runs so that an unchanged HEAD is not built again:
/// beside the test tools (`$JITCOMMIT_TEST_TOOLS`, which `./test.sh` sets, else
/// `~/.cache/jitcommit-test-tools`), never inside the target directory. A clone there
/// would be inside cargo's target root, and cargo records the sources of a crate under
/// its target root by their path from that root: the next revision's clone, at a new
/// path, would then be checked against the old clone's files and found fresh, and
/// pre-commit would link the new revision's crates against the old one's.
pub(crate) fn pre_commit_home() -> PathBuf {
    let tools = std::env::var_os("JITCOMMIT_TEST_TOOLS")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(|c| PathBuf::from(c).join("jitcommit-test-tools"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/jitcommit-test-tools"))
        })
        .unwrap_or_else(|| std::env::temp_dir().join("jitcommit-test-tools"));
    tools.join("pre-commit-home")
}

/// A directory holding the `cargo` pre-commit runs: a script that records each call
/// and runs the real cargo, adding two things to `cargo install`.
///
/// - `--locked`: pre-commit installs without it, and cargo would then resolve the
///   newest versions on crates.io, a network call no test makes, and build all of them
///   again. With the lock the dependencies are the ones `./install.sh` built.
/// - opt-level 0 for the workspace's own three crates: pre-commit builds a clone of the
///   source at a new path for every revision, so they build again each time (52 s of
///   release build on 2 cores, 10 s without optimisation), and the hooks behave the
///   same at any optimisation level.
///
/// The calls are kept, so the test still proves what pre-commit asked for.
fn cargo_for_pre_commit(sb: &Sandbox, log: &Path) -> PathBuf {
    let real = std::env::split_paths(&path_without_jitcommit())
        .map(|d| d.join("cargo"))
        .find(|p| p.is_file())
        .expect("cargo is on PATH");
    let dir = sb.path().join("cargo-for-pre-commit");
    std::fs::create_dir_all(&dir).unwrap();
    let opt0: String = ["jitcommit", "jitcommit-core", "jitcommit-drafter"]
        .iter()
        .map(|p| format!(" --config 'profile.release.package.{p}.opt-level=0'"))
        .collect();
    write_exe(
        &dir.join("cargo"),
        &format!(
            "#!/bin/sh
printf '%s\\n' \"$*\" >> '{log}'
             if [ \"$1\" = install ]; then
  shift
  exec '{real}' install --locked{opt0} \"$@\"
fi
             exec '{real}' \"$@\"
",
            log = log.display(),
            real = real.display(),
        ),
    );
    dir
}

struct Env {
    path: std::ffi::OsString,
    vars: Vec<(String, std::ffi::OsString)>,
}

impl Env {
    fn apply<'a>(&self, c: &'a mut Command) -> &'a mut Command {
        c.env("PATH", &self.path);
        for (k, v) in &self.vars {
            c.env(k, v);
        }
        c
    }
}

fn run(sb: &Sandbox, env: &Env, cwd: &Path, program: &Path, args: &[&str]) -> Output {
    let mut c = sb.cmd(program, cwd);
    env.apply(&mut c)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn pre_commit_framework_drafts_rejects_and_accepts_real_commits() {
    let pc = pre_commit_exe();
    let sb = Sandbox::new();
    let source = source_root();
    let rev = sb.git(&source, &["rev-parse", "HEAD"]).trim().to_string();

    // pre-commit's own directory comes first so the hooks it writes find their python;
    // no jitcommit binary is on PATH: pre-commit must build its own, with the cargo
    // that `cargo_for_pre_commit` puts before the real one.
    let cargo_log = sb.path().join("cargo-calls");
    let mut dirs = vec![
        pc.parent().unwrap().to_path_buf(),
        cargo_for_pre_commit(&sb, &cargo_log),
    ];
    dirs.extend(std::env::split_paths(&path_without_jitcommit()));
    let port = closed_port();
    let mut vars: Vec<(String, std::ffi::OsString)> = vec![
        ("PRE_COMMIT_HOME".into(), pre_commit_home().into()),
        (
            "JITCOMMIT_URL".into(),
            format!("http://127.0.0.1:{port}").into(),
        ),
    ];
    for (k, v) in real_rust_homes().into_iter().chain(head_build_env(&source)) {
        vars.push((k.into(), v.into()));
    }
    let env = Env {
        path: std::env::join_paths(dirs).unwrap(),
        vars,
    };

    let repo = sb.init("proj");
    write(
        &repo,
        ".pre-commit-config.yaml",
        format!(
            "repos:\n- repo: {}\n  rev: {rev}\n  hooks:\n  - id: jitcommit-draft\n  - id: jitcommit-check\n",
            source.display()
        ),
    );
    sb.git(&repo, &["add", ".pre-commit-config.yaml"]);
    sb.git(
        &repo,
        &[
            "commit",
            "-q",
            "-m",
            "chore: use jitcommit through pre-commit",
        ],
    );

    let o = run(
        &sb,
        &env,
        &repo,
        &pc,
        &[
            "install",
            "--install-hooks",
            "--hook-type",
            "prepare-commit-msg",
            "--hook-type",
            "commit-msg",
        ],
    );
    jitcommit_testkit::assert_ok(&o, "pre-commit install --install-hooks");
    // pre-commit builds a revision once: a later run at the same HEAD finds its
    // environment in the kept home and calls no `cargo install` (only `cargo --version`).
    let calls = std::fs::read_to_string(&cargo_log).unwrap_or_default();
    let built_before = || {
        std::fs::read_dir(pre_commit_home())
            .into_iter()
            .flatten()
            .flatten()
            .any(|repo| {
                std::fs::read_dir(repo.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|env| {
                        env.file_name().to_string_lossy().starts_with("rustenv-")
                            && env.path().join("bin/jitcommit-check").is_file()
                    })
            })
    };
    assert!(
        calls
            .lines()
            .any(|l| l.starts_with("install --bins --root ") && l.ends_with(" --path ."))
            || (!calls.lines().any(|l| l.starts_with("install")) && built_before()),
        "pre-commit did not build the hooks with `cargo install --bins --path .`, as \
         .pre-commit-hooks.yaml asks, nor find them built; cargo calls:\n{calls}"
    );
    for h in ["prepare-commit-msg", "commit-msg"] {
        assert!(
            std::fs::read_to_string(repo.join(".git/hooks").join(h))
                .unwrap()
                .contains("pre-commit"),
            "pre-commit did not install {h}"
        );
    }

    // 1. Drafted offline: the editor sees the draft (checked there, with the index git
    //    names, by the same check binary), replaces the placeholder reason and saves.
    let check = env!("CARGO_BIN_EXE_jitcommit-check");
    let out_dir = sb.path().join("editor");
    std::fs::create_dir_all(&out_dir).unwrap();
    let editor = sb.path().join("editor.sh");
    write_exe(
        &editor,
        &format!(
            "#!/bin/sh\ncp \"$1\" '{o}/drafted'\n'{check}' \"$1\" > '{o}/check-of-draft' 2>&1\n\
             echo \"exit=$?\" >> '{o}/check-of-draft'\n\
             sed -e 's/^\\(- [A-Za-z]*: [^ ]* — \\).*/\\1print the greeting the demo shows/' \
             -e 's/^\\(- [A-Za-z]*: [^ ]* -- \\).*/\\1print the greeting the demo shows/' \"$1\" > '{o}/edited'\n\
             cp '{o}/edited' \"$1\"\n",
            o = out_dir.display()
        ),
    );
    write(&repo, "greet.py", "def greet():\n    return 'hello'\n");
    sb.git(&repo, &["add", "greet.py"]);
    let mut c = sb.git_cmd(&repo);
    env.apply(&mut c)
        .env("GIT_EDITOR", &editor)
        .args(["commit"])
        .stdin(Stdio::null());
    let o = c.output().unwrap();
    let drafted = std::fs::read_to_string(out_dir.join("drafted")).unwrap_or_default();
    let first = drafted.lines().next().unwrap_or_default();
    assert!(
        !first.trim().is_empty() && !first.starts_with('#') && first.contains(": "),
        "the message file held no draft when the editor opened:\n{drafted}\n--- commit output:\n{}",
        text(&o)
    );
    assert!(
        drafted.lines().any(|l| l.starts_with("- Add: greet.py ")),
        "no bullet for greet.py:\n{drafted}"
    );
    let check_of_draft = std::fs::read_to_string(out_dir.join("check-of-draft")).unwrap();
    assert!(
        check_of_draft.contains("placeholder") && check_of_draft.contains("exit=1"),
        "the offline draft's placeholder must be rejected until replaced:\n{check_of_draft}"
    );
    assert!(
        o.status.success(),
        "the edited draft was not accepted: {}",
        text(&o)
    );
    let msg = sb.git(&repo, &["log", "-1", "--format=%B"]);
    assert_eq!(
        msg.lines().next().unwrap(),
        first,
        "the drafted subject did not survive"
    );
    assert!(
        msg.contains("- Add: greet.py — print the greeting the demo shows")
            || msg.contains("- Add: greet.py -- print the greeting the demo shows"),
        "{msg}"
    );

    // 2. Rejected for a verb the convention does not allow; nothing is committed.
    let head = sb.git(&repo, &["rev-parse", "HEAD"]);
    write(&repo, "bye.py", "def bye():\n    return 'bye'\n");
    sb.git(&repo, &["add", "bye.py"]);
    let o = run(
        &sb,
        &env,
        &repo,
        Path::new("git"),
        &["commit", "-m", &bad_verb_message("bye.py")],
    );
    assert!(
        !o.status.success(),
        "a bad verb was accepted through pre-commit: {}",
        text(&o)
    );
    assert!(
        text(&o).contains("Changed"),
        "the rejection does not name the verb: {}",
        text(&o)
    );
    assert_eq!(sb.git(&repo, &["rev-parse", "HEAD"]), head);
    // The framework passes git's message file and environment through: the rejected
    // message is saved for reuse, as under a plain hook.
    let saved = repo.join(".git/jitcommit/REJECTED_EDITMSG");
    assert_eq!(
        std::fs::read_to_string(&saved)
            .unwrap_or_default()
            .trim_end(),
        bad_verb_message("bye.py").trim_end(),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("git commit -e -F "), "{}", text(&o));

    // 3. Accepted, and -m text is kept as written.
    let good = good_message("bye.py");
    let o = run(&sb, &env, &repo, Path::new("git"), &["commit", "-m", &good]);
    assert!(
        o.status.success(),
        "a conforming message was rejected through pre-commit: {}",
        text(&o)
    );
    assert_eq!(
        sb.git(&repo, &["log", "-1", "--format=%B"]).trim_end(),
        good.trim_end()
    );

    // 4. Amends and a reword through the framework: traced against HEAD's first parent
    //    (the framework's Python process stands between git and the hook).
    let amend = |args: &[&str]| {
        let mut c = sb.git_cmd(&repo);
        env.apply(&mut c)
            .env("GIT_EDITOR", "true")
            .env("GIT_SEQUENCE_EDITOR", "sed -i -e '1s/^pick/reword/'")
            .args(args)
            .stdin(Stdio::null());
        c.output().unwrap()
    };
    let o = amend(&["commit", "-q", "--amend", "--no-edit"]);
    assert!(o.status.success(), "amend --no-edit: {}", text(&o));
    let o = amend(&["rebase", "-q", "-i", "HEAD~1"]);
    assert!(o.status.success(), "rebase -i with reword: {}", text(&o));
    let o = amend(&["commit", "-q", "--amend", "-m", &good_message("greet.py")]);
    assert!(
        !o.status.success(),
        "an amend naming a path it does not touch was accepted: {}",
        text(&o)
    );
    assert!(
        text(&o).contains("git commit --amend -e -F "),
        "the reuse command of a rejected amend amends: {}",
        text(&o)
    );
}

#[test]
fn head_builds_share_the_build_directory_only_while_the_work_tree_is_head() {
    let sb = Sandbox::new();
    let src = sb.init("src");
    write(&src, "build.rs", "fn main() {}\n");
    sb.git(&src, &["add", "build.rs"]);
    sb.git(&src, &["commit", "-q", "-m", "build: a build script"]);
    let [_, (_, shared)] = shared_build_env();
    let build_dir = |src: &Path| head_build_env(src)[1].1.clone();
    assert!(work_tree_is_head(&src));
    assert_eq!(build_dir(&src), shared);
    // An untracked file is not built: still HEAD.
    write(&src, "notes.txt", "x\n");
    assert_eq!(build_dir(&src), shared);
    // An edited build script, staged or not, is not HEAD's: its own directory.
    write(&src, "build.rs", "fn main() { println!(\"edited\"); }\n");
    assert!(!work_tree_is_head(&src));
    assert_eq!(build_dir(&src), head_build_dir(&shared));
    sb.git(&src, &["add", "build.rs"]);
    assert_eq!(build_dir(&src), head_build_dir(&shared));
    sb.git(&src, &["commit", "-q", "-m", "build: edit it"]);
    assert_eq!(build_dir(&src), shared);
}
