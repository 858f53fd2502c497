//! Every example in `--help` runs, and does what it says: the lines under EXAMPLES of
//! `jitcommit-check --help` and `jitcommit-draft --help` are read from the binaries
//! themselves and each runs in a real repository with the built binaries on PATH. A new
//! example without a case here fails the test, so none can go untried. The README's
//! commands that call the binaries are run the same way.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use install_support::*;
use jitcommit_testkit::{Sandbox, write};

/// The example lines of a `--help` text (comments dropped).
fn examples(help: &str) -> Vec<String> {
    let (_, tail) = help.split_once("EXAMPLES:\n").expect("an EXAMPLES section");
    tail.lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

fn help_of(bin: &str) -> String {
    let out = std::process::Command::new(built_bin_dir().join(bin))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A repository with one conforming commit, a clone of it (`work`, whose origin/main is
/// that commit), and a staged change in the clone.
struct World {
    sb: Sandbox,
    origin: PathBuf,
    work: PathBuf,
}

impl World {
    fn new() -> World {
        let sb = Sandbox::new();
        let origin = sb.init("origin");
        write(&origin, "a.txt", "a\n");
        sb.git(&origin, &["add", "."]);
        sb.git(
            &origin,
            &[
                "commit",
                "-q",
                "-m",
                "feat: add a\n\n- Add: a.txt — the first file",
            ],
        );
        sb.git(sb.path(), &["clone", "-q", "origin", "work"]);
        let work = sb.path().join("work");
        write(&work, "x.txt", "x\n");
        sb.git(&work, &["add", "x.txt"]);
        World { sb, origin, work }
    }

    /// `sh -c line` in `dir` with the built binaries first on PATH, no model listening.
    fn sh(&self, dir: &Path, line: &str, envs: &[(&str, &str)]) -> Output {
        let mut c = self.sb.cmd("sh", dir);
        c.args(["-c", line])
            .env("PATH", path_with_built())
            .env("JITCOMMIT_URL", "http://127.0.0.1:9")
            .stdin(Stdio::null());
        for (k, v) in envs {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    fn ok(&self, dir: &Path, line: &str, envs: &[(&str, &str)]) -> String {
        let out = self.sh(dir, line, envs);
        assert!(out.status.success(), "`{line}` failed:\n{}", text(&out));
        text(&out)
    }

    fn hook(&self, dir: &Path, name: &str, body: &str) {
        write_exe(
            &dir.join("hooks").join(name),
            &format!("#!/bin/sh\n{body}\n"),
        );
    }
}

const GOOD: &str = "feat: add x\n\n- Add: x.txt — the new file\n";

/// Runs one `jitcommit-check --help` example, or panics if it has no case here.
fn check_example(w: &World, line: &str) {
    match line {
        "exec jitcommit-check \"$1\"" => {
            w.hook(&w.work.join(".git"), "commit-msg", line);
            let bad = w.sh(&w.work, "git commit -q -m 'changed stuff'", &[]);
            assert!(!bad.status.success(), "the hook rejects a bad message");
            w.ok(&w.work, &format!("git commit -q -m '{GOOD}'"), &[]);
        }
        "jitcommit-check --convention-from origin/main --range origin/main..HEAD --format json" => {
            let out = w.sh(&w.work, line, &[]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
            w.sh(
                &w.work,
                "git commit -q --no-verify --allow-empty -m 'wip'",
                &[],
            );
            let out = w.sh(&w.work, line, &[]);
            assert_eq!(out.status.code(), Some(1), "{}", text(&out));
            let first = String::from_utf8_lossy(&out.stdout)
                .lines()
                .next()
                .map(str::to_owned);
            let v: serde_json::Value = serde_json::from_str(&first.unwrap()).unwrap();
            assert!(v["findings"].is_array());
        }
        l if l.starts_with("exec jitcommit-check --pre-receive --config ") => {
            let bare = w.sb.path().join("srv.git");
            w.sb.git(w.sb.path(), &["clone", "-q", "--bare", "origin", "srv.git"]);
            let policy = w.sb.path().join("convention.toml");
            std::fs::write(&policy, "types = [\"feat\"]\n").unwrap();
            let path = l.rsplit(' ').next().unwrap();
            w.hook(
                &bare,
                "pre-receive",
                &l.replace(path, &policy.display().to_string()),
            );
            let push = |msg: &str| {
                w.sh(
                    &w.origin,
                    &format!(
                        "echo x > x.txt && git add x.txt && git commit -q -m '{msg}' && \
                     git push -q ../srv.git HEAD:main"
                    ),
                    &[],
                )
            };
            let bad = push("fix: not a type of the policy\n\n- Add: x.txt — x");
            assert!(!bad.status.success(), "{}", text(&bad));
            w.sb.git(&w.origin, &["reset", "-q", "--hard", "HEAD~1"]);
            let good = push(GOOD);
            assert!(good.status.success(), "{}", text(&good));
        }
        "exec jitcommit-check --pre-receive --line-prefix 'GL-HOOK-ERR: '" => {
            let bare = w.sb.path().join("gl.git");
            w.sb.git(w.sb.path(), &["clone", "-q", "--bare", "origin", "gl.git"]);
            w.hook(&bare, "pre-receive", line);
            let bad = w.sh(
                &w.origin,
                "echo y > y.txt && git add y.txt && git commit -q -m 'wip' && \
                 git push ../gl.git HEAD:main",
                &[],
            );
            assert!(!bad.status.success(), "{}", text(&bad));
            let t = text(&bad);
            let remote: Vec<&str> = t.lines().filter(|l| l.starts_with("remote: ")).collect();
            assert!(!remote.is_empty(), "{t}");
            assert!(
                remote
                    .iter()
                    .all(|l| l.starts_with("remote: GL-HOOK-ERR: ")),
                "every line the hook writes carries the prefix:\n{t}"
            );
            w.sb.git(&w.origin, &["reset", "-q", "--hard", "HEAD~1"]);
        }
        "jitcommit-check --commit HEAD" => {
            w.ok(&w.origin, line, &[]);
            let bad = w.sh(
                &w.work,
                "git commit -q --no-verify --allow-empty -m 'wip' && jitcommit-check --commit HEAD",
                &[],
            );
            assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
        }
        l if l.ends_with("| jitcommit-check --stdin --no-trace-paths") => {
            w.ok(&w.work, l, &[]);
        }
        other => panic!("jitcommit-check --help example without a test: {other}"),
    }
}

/// Runs one `jitcommit-draft --help` example, or panics if it has no case here.
fn draft_example(w: &World, line: &str) {
    let editor = w.sb.path().join("keep-editor.sh");
    write_exe(&editor, "#!/bin/sh\ncp \"$1\" \"$1.seen\"\n");
    let ed = [("GIT_EDITOR", editor.to_str().unwrap())];
    let seen = w.work.join(".git/COMMIT_EDITMSG.seen");
    match line {
        l if l.starts_with("ln -s ") && l.ends_with(".git/hooks/prepare-commit-msg") => {
            w.ok(&w.work, l, &[]);
            assert!(w.work.join(".git/hooks/prepare-commit-msg").exists());
        }
        l if l.starts_with("git config jitcommit.model ") => {
            w.ok(&w.work, l, &[]);
            assert!(
                !w.sb
                    .git(&w.work, &["config", "jitcommit.model"])
                    .trim()
                    .is_empty()
            );
        }
        l if l.starts_with("git commit ") && l.contains("the editor opens on a draft") => {
            let _ = std::fs::remove_file(&seen);
            w.ok(&w.work, l, &ed);
            let shown = std::fs::read_to_string(&seen).unwrap();
            assert!(
                shown
                    .lines()
                    .nth(2)
                    .is_some_and(|l| l.starts_with("- Add: x.txt")),
                "a draft on top: {shown}"
            );
            // Next examples need something staged again.
            write(&w.work, "y.txt", "y\n");
            w.sb.git(&w.work, &["add", "y.txt"]);
        }
        l if l.starts_with("jitcommit-draft --dry-run") => {
            let out = w.ok(&w.work, l, &[]);
            assert!(out.contains("- Add: y.txt"), "{out}");
        }
        l if l.starts_with("jitcommit-draft --print-context --json") => {
            let out = w.ok(&w.work, l, &[]);
            assert!(out.contains("core-instructions"), "{out}");
        }
        l if l.starts_with("git config jitcommit.onMessage intent; git commit -m ") => {
            w.ok(&w.work, l, &ed);
            let msg = w.sb.git(&w.work, &["log", "-1", "--format=%B"]);
            assert!(!msg.trim().is_empty());
        }
        other => panic!("jitcommit-draft --help example without a test: {other}"),
    }
}

#[test]
fn every_check_help_example_runs() {
    let lines = examples(&help_of("jitcommit-check"));
    assert!(lines.len() >= 4, "{lines:?}");
    let w = World::new();
    for l in &lines {
        check_example(&w, l);
    }
}

#[test]
fn every_draft_help_example_runs() {
    let lines = examples(&help_of("jitcommit-draft"));
    assert!(lines.len() >= 5, "{lines:?}");
    let w = World::new();
    for l in &lines {
        draft_example(&w, l);
    }
}

#[test]
fn the_readme_commands_that_call_the_binaries_run() {
    let readme = std::fs::read_to_string(source_root().join("README.md")).unwrap();
    let w = World::new();
    let msg = w.sb.path().join("msg.txt");
    std::fs::write(&msg, GOOD).unwrap();
    let file = msg.display().to_string();
    // (as written in the README, what to run, the exit code it must give)
    let cases: &[(&str, String, i32)] = &[
        (
            "jitcommit-check --dump-config",
            "jitcommit-check --dump-config".into(),
            0,
        ),
        (
            "jitcommit-check --explain bullet-verb",
            "jitcommit-check --explain bullet-verb".into(),
            0,
        ),
        (
            "jitcommit-check FILE",
            format!("jitcommit-check '{file}'"),
            0,
        ),
        (
            "jitcommit-check --format json",
            format!("jitcommit-check --format json '{file}'"),
            0,
        ),
        (
            "jitcommit-draft --print-context",
            "jitcommit-draft --print-context".into(),
            0,
        ),
        (
            "jitcommit-draft --offline",
            "jitcommit-draft --offline --dry-run".into(),
            0,
        ),
    ];
    for (shown, run, want) in cases {
        assert!(
            readme.contains(shown),
            "README.md no longer shows `{shown}`"
        );
        let out = w.sh(&w.work, run, &[]);
        assert_eq!(out.status.code(), Some(*want), "`{run}`: {}", text(&out));
    }
}
