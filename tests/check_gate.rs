//! A gate never passes what it rejects: `jitcommit-check` decides its exit code from the
//! verdict, whatever happens to its output. Every mode — the message file, `--stdin`,
//! `--range`, `--pre-receive`, `--update` — is run with stdout on a pipe whose reader is
//! gone (`… | head -1` after head exited) and on `/dev/full`: findings still exit 1, a
//! clean check still exits 0. And through real git: `git commit -m 'bad' 2>&1 | head`
//! with the reader gone stores nothing.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// Where stdout goes.
#[derive(Debug, Clone, Copy)]
enum Sink {
    /// A pipe whose read end is closed: every write fails with EPIPE.
    ClosedPipe,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
}

const SINKS: [Sink; 2] = [Sink::ClosedPipe, Sink::Full];

fn stdio(sink: Sink) -> Stdio {
    match sink {
        Sink::ClosedPipe => {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            writer.into()
        }
        Sink::Full => std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
            .into(),
    }
}

/// Runs `cmd` with stdout (and, for git, stderr too) on `sink` and `input` on stdin.
fn run_into(mut cmd: Command, sink: Sink, input: &[u8], stderr_too: bool) -> Output {
    use std::io::Write;
    cmd.stdout(stdio(sink));
    if stderr_too {
        cmd.stderr(stdio(sink));
    } else {
        cmd.stderr(Stdio::piped());
    }
    let mut child = cmd.stdin(Stdio::piped()).spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(input);
    drop(pipe);
    child.wait_with_output().unwrap()
}

const BAD: &str = "changed some stuff\n";

/// A repository with a conforming root commit and `n` non-conforming ones after it.
fn history(sb: &Sandbox, n: usize) -> std::path::PathBuf {
    let r = sb.init("r");
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "."]);
    sb.git(
        &r,
        &["commit", "-q", "-m", &good("feat: add a", &["a.txt"])],
    );
    for i in 0..n {
        write(&r, "a.txt", format!("{i}\n"));
        sb.git(&r, &["commit", "-q", "-am", &format!("{BAD} {i}")]);
    }
    r
}

#[test]
fn the_message_file_and_stdin_modes() {
    let sb = Sandbox::new();
    let r = history(&sb, 0);
    let file = sb.path().join("msg");
    std::fs::write(&file, BAD).unwrap();
    for sink in SINKS {
        let mut c = check(&sb, &r);
        c.arg(&file);
        assert_eq!(code(&run_into(c, sink, b"", false)), 1, "file, {sink:?}");
        let mut c = check(&sb, &r);
        c.arg("--stdin");
        let o = run_into(c, sink, BAD.as_bytes(), false);
        assert_eq!(code(&o), 1, "--stdin, {sink:?}: {}", stderr(&o));
        let mut c = check(&sb, &r);
        c.args(["--stdin", "--format", "json"]);
        assert_eq!(code(&run_into(c, sink, BAD.as_bytes(), false)), 1);
        // A clean message is still a pass.
        let mut c = check(&sb, &r);
        c.args(["--stdin", "--no-trace-paths"]);
        let good = good("feat: add a", &["a.txt"]);
        assert_eq!(code(&run_into(c, sink, good.as_bytes(), false)), 0);
    }
}

#[test]
fn the_range_mode_over_many_commits() {
    let sb = Sandbox::new();
    let r = history(&sb, 300);
    for sink in SINKS {
        for format in ["human", "json"] {
            let mut c = check(&sb, &r);
            c.args(["--range", "HEAD~300..HEAD", "--format", format]);
            let o = run_into(c, sink, b"", false);
            assert_eq!(code(&o), 1, "--range {format}, {sink:?}: {}", stderr(&o));
        }
        let mut c = check(&sb, &r);
        c.args(["--range", "..HEAD~300"]);
        assert_eq!(code(&run_into(c, sink, b"", false)), 0, "clean range");
    }
}

/// A commit that no ref reaches, as a push brings it.
fn unreferenced_bad_commit(sb: &Sandbox, r: &Path) -> (String, String) {
    let head = sb.git(r, &["rev-parse", "HEAD"]).trim().to_string();
    let tree = sb.git(r, &["rev-parse", "HEAD^{tree}"]).trim().to_string();
    let id = sb
        .git(r, &["commit-tree", &tree, "-p", &head, "-m", BAD])
        .trim()
        .to_string();
    (head, id)
}

#[test]
fn the_server_modes() {
    let sb = Sandbox::new();
    history(&sb, 0);
    let git_dir = sb.path().join("srv.git");
    sb.git(sb.path(), &["clone", "-q", "--bare", "r", "srv.git"]);
    let (old, new) = unreferenced_bad_commit(&sb, &git_dir);
    for sink in SINKS {
        let mut c = check(&sb, &git_dir);
        c.arg("--pre-receive").env("GIT_DIR", ".");
        let line = format!("{old} {new} refs/heads/main\n");
        let o = run_into(c, sink, line.as_bytes(), false);
        assert_eq!(code(&o), 1, "--pre-receive, {sink:?}: {}", stderr(&o));
        let mut c = check(&sb, &git_dir);
        c.args(["--update", "refs/heads/main", &old, &new])
            .env("GIT_DIR", ".");
        let o = run_into(c, sink, b"", false);
        assert_eq!(code(&o), 1, "--update, {sink:?}: {}", stderr(&o));
    }
}

#[test]
fn git_commit_into_a_gone_reader_stores_nothing() {
    let sb = Sandbox::new();
    let r = history(&sb, 0);
    install_hook(&r.join(".git/hooks"), "commit-msg", "");
    write(&r, "a.txt", "changed\n");
    sb.git(&r, &["add", "a.txt"]);
    let head = sb.git(&r, &["rev-parse", "HEAD"]);
    for sink in SINKS {
        let mut c = sb.git_cmd(&r);
        c.args(["commit", "-q", "-m", BAD]);
        let _ = run_into(c, sink, b"", true);
        assert_eq!(
            sb.git(&r, &["rev-parse", "HEAD"]),
            head,
            "a rejected commit was stored ({sink:?})"
        );
    }
}
